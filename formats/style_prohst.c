/* style_prohst.c - the bucket listing of MS-DOS 2.0 PROHST (PROHST.PAS,
 * 1983), which turned PROFIL's .PRF histogram into a text histogram,
 * checked against PROHST.EXE's own listing of a genuine capture
 * (../shared/fixtures/profil/SPIN.HST; tests/dos/test_dos_real.py):
 *
 *   Microsoft Profiler Output Listing
 *
 *      513  16-byte buckets.
 *
 *   Profile taken between 000000000023F0 and 000000000043F0.
 *   ...
 *    Hits  Addr.  Line/ Cumul.  % 0.0                                        14.9
 *                 Offset           +--------------------------------------------
 *
 *         _TEXT
 *      44. 000020 #0020   2.8  2.8 |        *
 *      26. 000050     9  10.1  1.7 |    *
 *
 * One line per bucket: hits, bucket address (hex), the line number that
 * starts there or the offset from the start of the segment named last
 * (hex), cumulative and own percent of the samples in the buckets, then
 * one star at column round(hits * 45 / fullest bucket): a dot plot, as
 * PROHST drew it.  A run of empty buckets collapses to one blank line
 * (the last bucket is always listed); the map's segments (or, without a
 * segment table, the symbols) are named on their own line before the
 * first listed bucket at or past their start.  The DOS, I/O and high
 * counters are the samples of those region classes.
 *
 * Where PROHST printed a wrong value this listing prints the right one
 * (docs/dos.md has the table): bucket sizes in bytes (PROHST printed
 * paragraphs before "-byte"), the offset from the segment's own start
 * (PROHST subtracted the next one's), no line number of another segment,
 * addresses beyond 64 KiB, and the axis label is the fullest bucket's
 * percent (PROHST printed the bucket sum / 100).
 */
#include "styles.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DOT_COLUMNS 45

typedef struct group {
	const char *name;
	uint64_t low, high;
	size_t order;
} group;

typedef struct lrec {
	uint64_t address;
	unsigned line;
	size_t order;
} lrec;

static int cmp_group(const void *a, const void *b)
{
	const group *x = a, *y = b;
	if (x->low != y->low)
		return x->low < y->low ? -1 : 1;
	return x->order < y->order ? -1 : x->order > y->order;
}

static int cmp_lrec(const void *a, const void *b)
{
	const lrec *x = a, *y = b;
	if (x->address != y->address)
		return x->address < y->address ? -1 : 1;
	return x->order < y->order ? -1 : x->order > y->order;
}

static double class_pct(const pc_itotals *t, int cls, double norm)
{
	return t->by_class[cls] * norm;
}

/* The names PROHST printed above the buckets: the rows of the map's
 * segment table (the program's regions, without PROFIL's own "program"
 * area), in address order; without a map or a segment table in it, the
 * symbols. */
static int groups_of(pc_profile *p, const pc_histogram *h, group **out, size_t *n)
{
	uint64_t lo_pa = 0, hi_pa = 0, area_end = UINT64_MAX;
	if (pc_profile_meta_hex(p, "profil.prog_low_pa", &lo_pa) &&
	    pc_profile_meta_hex(p, "profil.prog_high_pa", &hi_pa) && hi_pa > lo_pa)
		area_end = h->low + (hi_pa - lo_pa) * 16;
	size_t nr = pc_profile_region_count(p), nrows = pc_profile_rows(p);
	group *g = malloc(((nr > nrows ? nr : nrows) + 1) * sizeof *g);
	if (!g)
		return pc_profile_fail(p, PC_ENOMEM, "out of memory");
	size_t k = 0;
	int map = 0;
	for (size_t i = 0; i < pc_profile_source_count(p); i++)
		map |= !strcmp(pc_profile_source_format(p, i), "map");
	for (size_t i = 0; map && i < nr; i++) {
		pc_region r;
		if (pc_profile_region_at(&r, p, i) != PC_OK || r.cls != PC_REGION_APPLICATION ||
		    !r.label || r.segment != h->segment)
			continue;
		if (!strcmp(r.label, "program") && r.low == h->low && r.high == area_end)
			continue; /* PROFIL's sampled area (prf.c) */
		g[k] = (group){r.label, r.low, r.high, k};
		k++;
	}
	if (!k)
		for (size_t i = 0; i < nrows; i++) {
			pc_row row;
			if (pc_profile_row_at(&row, p, i) != PC_OK)
				break;
			if (row.segment == h->segment)
				g[k] = (group){row.name, row.address, row.end, k}, k++;
		}
	qsort(g, k, sizeof *g, cmp_group);
	*out = g;
	*n = k;
	return PC_OK;
}

/* The map's line numbers in this histogram's segment, by address. */
static int lines_of(pc_profile *p, const pc_histogram *h, lrec **out, size_t *n)
{
	size_t nl = pc_profile_line_count(p), k = 0;
	lrec *v = malloc((nl + 1) * sizeof *v);
	if (!v)
		return pc_profile_fail(p, PC_ENOMEM, "out of memory");
	for (size_t i = 0; i < nl; i++) {
		uint32_t seg;
		uint64_t a;
		unsigned line;
		if (pc_profile_line_at(p, i, &seg, &a, &line) == PC_OK && seg == h->segment)
			v[k] = (lrec){a, line, k}, k++;
	}
	qsort(v, k, sizeof *v, cmp_lrec);
	*out = v;
	*n = k;
	return PC_OK;
}

static int one_hist(pc_profile *p, const pc_histogram *h, const pc_itotals *t,
		    pc_sink *k)
{
	double sum = 0, max = 0;
	for (size_t i = 0; i < h->nbins; i++) {
		sum += (double)h->counts[i];
		if ((double)h->counts[i] > max)
			max = (double)h->counts[i];
	}
	double norm = sum > 0 ? 100.0 / sum : 0;
	long double width = (long double)(h->high - h->low) / (long double)h->nbins;
	char buf[48];
	group *g = NULL;
	lrec *lines = NULL;
	size_t ng = 0, nl = 0;
	int r;
	if ((r = groups_of(p, h, &g, &ng)))
		return r;
	if ((r = lines_of(p, h, &lines, &nl))) {
		free(g);
		return r;
	}

	pc_sink_puts(k, "Microsoft Profiler Output Listing\n\n");
	pc_sink_printf(k, "%6zu%4.0Lf-byte buckets.\n\n", h->nbins, width);
	/* A PROFIL capture carries its header: print the physical range and
	 * the DOS paragraph as PROHST did (14 hex digits); otherwise the
	 * histogram's range. */
	uint64_t lo_pa, hi_pa, dos_pa;
	if (pc_profile_meta_hex(p, "profil.prog_low_pa", &lo_pa) &&
	    pc_profile_meta_hex(p, "profil.prog_high_pa", &hi_pa))
		pc_sink_printf(k, "Profile taken between %014" PRIX64 " and %014" PRIX64 ".\n\n",
			       lo_pa * 16, hi_pa * 16);
	else
		pc_sink_printf(k, "Profile taken between %014" PRIX64 " and %014" PRIX64 ".\n\n",
			       h->low, h->high);
	int have_dos = 0;
	if (pc_profile_meta_hex(p, "profil.dos_pa", &dos_pa)) {
		pc_sink_printf(k, "DOS program address:%014" PRIX64 "\n\n", dos_pa);
		have_dos = 1;
	}
	for (size_t i = 0; !have_dos && i < pc_profile_region_count(p); i++) {
		pc_region rg;
		if (pc_profile_region_at(&rg, p, i) == PC_OK &&
		    rg.cls == PC_REGION_DOS) {
			pc_sink_printf(k, "DOS program address:%014" PRIX64 "\n\n", rg.low / 16);
			have_dos = 1;
		}
	}
	if (!have_dos)
		pc_sink_puts(k, "DOS program address: unknown\n\n");
	static const struct {
		const char *what;
		int cls;
	} ctr[] = {{"Number of hits in DOS: ", PC_REGION_DOS},
		   {"Number of hits in I/O: ", PC_REGION_IO},
		   {"Number of hits high  : ", PC_REGION_HIGH}};
	for (size_t i = 0; i < 3; i++)
		pc_sink_printf(k, "%s%5s or %4.1f%%.\n", ctr[i].what,
			       pc_fmt_count(t->by_class[ctr[i].cls], buf, sizeof buf),
			       class_pct(t, ctr[i].cls, norm));
	pc_sink_printf(k, "\n Hits  Addr.  Line/ Cumul.  %% 0.0%40s%.1f\n", "",
		       max * norm);
	pc_sink_puts(k, "              Offset           +");
	pc_sink_repeat(k, '-', 44);
	pc_sink_puts(k, "\n\n");

	size_t gi = 0, li = 0;
	const group *cur = NULL;
	double cum = 0;
	for (size_t i = 0; i < h->nbins; i++) {
		if (h->counts[i] == 0) {
			pc_sink_putc(k, '\n');
			while (i + 1 < h->nbins && h->counts[i] == 0)
				i++;
		}
		uint64_t a = h->low + (uint64_t)(width * (long double)i);
		uint64_t e = h->low + (uint64_t)(width * (long double)(i + 1));
		/* the segments (symbols) that start at or before the bucket */
		for (; gi < ng && g[gi].low <= a; gi++) {
			pc_sink_puts(k, "      ");
			pc_sink_name(k, g[gi].name);
			size_t w = pc_name_width(g[gi].name);
			if (w < 15)
				pc_sink_repeat(k, ' ', 15 - w);
			pc_sink_putc(k, '\n');
			cur = &g[gi];
		}
		/* the line that the newest line record starting before the
		 * bucket's end begins, when it is new since the last listed
		 * bucket and in this bucket's segment */
		const lrec *lr = NULL;
		for (; li < nl && lines[li].address < e; li++)
			lr = &lines[li];
		if (lr && cur && !(lr->address >= cur->low && a < cur->high))
			lr = NULL;
		double c = (double)h->counts[i];
		double pct = c * norm;
		cum += pct;
		pc_sink_printf(k, "%5.0f. %06" PRIX64, c, a);
		if (lr)
			pc_sink_printf(k, "%6u", lr->line);
		else if (cur)
			pc_sink_printf(k, " #%04" PRIX64, a - cur->low);
		else
			pc_sink_puts(k, "      ");
		pc_sink_printf(k, " %5.1f %4.1f |", cum, pct);
		long col = max > 0 ? lround(c * DOT_COLUMNS / max) : 0;
		if (col > 0) {
			pc_sink_repeat(k, ' ', (size_t)col - 1);
			pc_sink_putc(k, '*');
		}
		pc_sink_putc(k, '\n');
	}
	pc_sink_puts(k, "                               +");
	pc_sink_repeat(k, '-', 35);
	pc_sink_putc(k, '\n');
	free(g);
	free(lines);
	return PC_OK;
}

static int prohst_text(pc_profile *p, const pc_options *o, const pc_rowset *rs,
		       const pc_intervals *iv, pc_sink *k)
{
	pc_itotals t;
	int r;
	if ((r = pc_profile_attribute(p, pc_options_attrib(o))) || (r = pc_profile_itotals(p, &t)))
		return r;
	size_t nh = pc_profile_histogram_count(p);
	if (nh == 0)
		return pc_profile_fail(p, PC_EUNSUPPORTED,
				       "the prohst style lists histogram buckets, and this profile has no histogram");
	for (size_t i = 0; i < nh; i++) {
		pc_histogram h;
		if ((r = pc_profile_histogram_at(&h, p, i)))
			return r;
		if (i)
			pc_sink_putc(k, '\n');
		if ((r = one_hist(p, &h, &t, k)))
			return r;
	}
	if (iv) {
		pc_sink_putc(k, '\n');
		pc_intervals_text(iv, 1, k);
	}
	return k->failed;
}

/* (the rows: those of csv and json, as every other style's) */
const pc_flat_style pc_style_prohst = {
	"prohst", {PC_BASE_PROGRAM, PC_TIE_NAME, 0}, 0, prohst_text};
