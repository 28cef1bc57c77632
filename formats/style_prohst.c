/* style_prohst.c - the bucket listing of MS-DOS 2.0 PROHST (PROHST.PAS,
 * 1983), which turned PROFIL's .PRF histogram into a text histogram:
 *
 *   Microsoft Profiler Output Listing
 *
 *        4  32-byte buckets.
 *
 *   Profile taken between 1000 and 1080.
 *   ...
 *    Hits  Addr.  Line/ Cumul.  % 0.0                                        50.0
 *                 Offset           +--------------------------------------------
 *
 *         _main
 *       10   1000 #   0  25.0 25.0 |                                            *
 *
 * One line per bucket: hits, bucket address (hex), offset from the symbol
 * named last (hex), cumulative and own percent of the samples in the
 * buckets, then one star at column round(hits * 45 / fullest bucket): a
 * dot plot, as PROHST drew it.  A run of empty buckets collapses to one
 * blank line (the last bucket is always listed); a symbol's name is
 * printed on its own line before the first listed bucket at or past its
 * address.  The DOS, I/O and high counters are the samples of those
 * region classes.
 *
 * Where PROHST.PAS printed a wrong value this listing prints the right
 * one: bucket sizes in bytes (PROHST printed paragraphs before
 * "-byte"), the offset from the symbol's own start (PROHST subtracted the
 * next one's), addresses beyond 64 KiB, and the axis label is the fullest
 * bucket's percent (PROHST printed the bucket sum / 100).
 */
#include "styles.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DOT_COLUMNS 45

typedef struct sym {
	const char *name;
	uint64_t address;
} sym;

/* A metadata value written as a hex number; 0 when absent or malformed. */
static int meta_hex(const pc_profile *p, const char *key, uint64_t *out)
{
	const char *v = pc_profile_meta(p, key);
	if (!v)
		return 0;
	char *end;
	unsigned long long x = strtoull(v, &end, 16);
	if (end == v || *end)
		return 0;
	*out = x;
	return 1;
}

static double class_pct(const pc_itotals *t, int cls, double norm)
{
	return t->by_class[cls] * norm;
}

static void one_hist(pc_profile *p, const pc_histogram *h, const pc_itotals *t,
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

	pc_sink_puts(k, "Microsoft Profiler Output Listing\n\n");
	pc_sink_printf(k, "%6zu%4.0Lf-byte buckets.\n\n", h->nbins, width);
	/* A PROFIL capture carries its header: print the physical range and
	 * the DOS paragraph as PROHST did; otherwise the histogram's range. */
	uint64_t lo_pa, hi_pa, dos_pa;
	if (meta_hex(p, "profil.prog_low_pa", &lo_pa) &&
	    meta_hex(p, "profil.prog_high_pa", &hi_pa))
		pc_sink_printf(k, "Profile taken between %" PRIX64 " and %" PRIX64 ".\n\n",
			       lo_pa * 16, hi_pa * 16);
	else
		pc_sink_printf(k, "Profile taken between %" PRIX64 " and %" PRIX64 ".\n\n",
			       h->low, h->high);
	int have_dos = 0;
	if (meta_hex(p, "profil.dos_pa", &dos_pa)) {
		pc_sink_printf(k, "DOS program address:%" PRIX64 "\n\n", dos_pa);
		have_dos = 1;
	}
	for (size_t i = 0; !have_dos && i < pc_profile_region_count(p); i++) {
		pc_region r;
		if (pc_profile_region_at(p, i, &r) == PC_OK &&
		    r.cls == PC_REGION_DOS) {
			pc_sink_printf(k, "DOS program address:%" PRIX64 "\n\n", r.low / 16);
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

	/* the symbols of this segment in address order (rows are) */
	size_t nrows = pc_profile_rows(p), next = 0;
	const sym *cur = NULL;
	sym cur_buf;
	double cum = 0;
	for (size_t i = 0; i < h->nbins; i++) {
		if (h->counts[i] == 0) {
			pc_sink_putc(k, '\n');
			while (i + 1 < h->nbins && h->counts[i] == 0)
				i++;
		}
		uint64_t a = h->low + (uint64_t)(width * (long double)i);
		for (; next < nrows; next++) {
			pc_row row;
			if (pc_profile_row_at(p, next, &row) != PC_OK)
				break;
			if (row.segment < h->segment)
				continue;
			if (row.segment > h->segment || row.address > a)
				break;
			pc_sink_puts(k, "      "), pc_sink_name(k, row.name), pc_sink_putc(k, '\n');
			cur_buf = (sym){row.name, row.address};
			cur = &cur_buf;
		}
		double c = (double)h->counts[i];
		double pct = c * norm;
		cum += pct;
		pc_sink_printf(k, "%6.0f %6" PRIX64, c, a);
		if (cur)
			pc_sink_printf(k, " #%4" PRIX64, a - cur->address);
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
}

int pc_style_prohst(pc_profile *p, const pc_options *o, const pc_intervals *iv,
		    pc_sink *k)
{
	pc_outfmt fmt;
	pc_itotals t;
	int r;
	if ((r = pc_rs_outfmt(p, o, &fmt)))
		return r;
	if (fmt != PC_OUT_TEXT) {
		/* the same rows and totals as every other style */
		static const pc_rowset_spec spec = {PC_BASE_PROGRAM, PC_TIE_NAME, 0};
		pc_rowset rs;
		if ((r = pc_rowset_build(p, o, &spec, &rs)))
			return r;
		if (fmt == PC_OUT_CSV)
			pc_rowset_csv(p, &rs, k);
		else
			pc_rowset_json(p, &rs, "flat", "prohst",
				       iv ? pc_intervals_json_extra : NULL, iv, k);
		pc_rowset_dispose(&rs);
		return k->failed;
	}
	if ((r = pc_profile_attribute_nocheck(p, o)) || (r = pc_profile_itotals(p, &t)))
		return r;
	size_t nh = pc_profile_histogram_count(p);
	if (nh == 0)
		return pc_profile_fail(p, PC_EUNSUPPORTED,
				       "the prohst style lists histogram buckets, and this profile has no histogram");
	for (size_t i = 0; i < nh; i++) {
		pc_histogram h;
		if ((r = pc_profile_histogram_at(p, i, &h)))
			return r;
		if (i)
			pc_sink_putc(k, '\n');
		one_hist(p, &h, &t, k);
	}
	if (iv) {
		pc_sink_putc(k, '\n');
		pc_intervals_text(iv, 1, k);
	}
	return k->failed;
}
