/*
 * export_gmon.c - GNU tagged gmon.out (version 1), so that GNU gprof can
 * read any histogram-shaped capture against the matching executable.
 *
 *  header     "gmon", u32 version 1, 12 zero bytes
 *  tag 0      TIME_HIST: uW low_pc, uW high_pc, u32 hist_size,
 *             u32 prof_rate, char dimen[15], char dimen_abbrev, then
 *             hist_size u16 bins
 *  tag 1      CG_ARC: uW from_pc, uW self_pc, u32 count
 *
 * W and the byte order are the profiled program's (pc_profile_target_*);
 * when unknown, W = 4 unless an address needs 8, little-endian.
 * Histograms are written as they are.  Raw samples become histogram
 * records of 2-byte buckets (gprof's UNIT), a new record starting at a
 * gap of more than 64 bytes.  gprof sums records with identical ranges
 * and arcs between the same addresses, which is how counts above 65535
 * (u16 bins) and above 2^32 - 1 (u32 arc counts) are carried.  The rate
 * is written rounded to whole Hz (1 when unknown: a sample counts as one
 * "second").  Samples known only by region class have no address and are
 * not written.  A capture without samples is written as one empty bucket
 * at the program's first code address (gprof needs a histogram).
 * Segmented captures are refused.
 */
#include "export.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define RAW_GAP 64
#define MAX_RECORDS 65536

typedef struct gw {
	pc_sink *k;
	unsigned width;
	pc_endian endian;
	uint32_t rate;
	char dimen[15];
	char abbrev;
	size_t records;
} gw;

static void put_uint(gw *g, uint64_t v, unsigned width)
{
	unsigned char b[8];
	for (unsigned i = 0; i < width; i++) {
		unsigned shift = g->endian == PC_ENDIAN_BIG
					 ? 8 * (width - 1 - i) : 8 * i;
		b[i] = (unsigned char)(v >> shift);
	}
	pc_sink_write(g->k, b, width);
}

/* One or more identical TIME_HIST records carrying counts[0..n). */
static int hist_records(gw *g, pc_profile *p, uint64_t low, uint64_t high,
			const uint64_t *counts, size_t n)
{
	uint64_t max = 0;
	for (size_t i = 0; i < n; i++)
		if (counts[i] > max)
			max = counts[i];
	uint64_t reps = max ? max / 65535 + (max % 65535 != 0) : 1; /* no wrap near 2^64 */
	if (n > UINT32_MAX)
		return pc_profile_fail(p, PC_ELIMIT,
				       "gmon: %zu buckets do not fit in a u32", n);
	if (reps > MAX_RECORDS || g->records + reps > MAX_RECORDS)
		return pc_profile_fail(p, PC_ELIMIT,
				       "gmon: a bucket count of %llu needs more "
				       "than %d records of u16 buckets",
				       (unsigned long long)max, MAX_RECORDS);
	for (uint64_t r = 0; r < reps; r++) {
		pc_sink_putc(g->k, 0);
		put_uint(g, low, g->width);
		put_uint(g, high, g->width);
		put_uint(g, n, 4);
		put_uint(g, g->rate, 4);
		pc_sink_write(g->k, g->dimen, 15);
		pc_sink_putc(g->k, g->abbrev);
		for (size_t i = 0; i < n; i++) {
			/* record r carries the part of the count above
			 * r * 65535, at most 65535 */
			uint64_t c = counts[i], base = r * 65535;
			uint64_t v = c > base ? c - base : 0;
			put_uint(g, v > 65535 ? 65535 : v, 2);
		}
		g->records++;
	}
	return g->k->failed;
}

typedef struct rawsample {
	uint64_t address, count;
} rawsample;

static int cmp_raw(const void *a, const void *b)
{
	const rawsample *x = a, *y = b;
	return x->address < y->address ? -1 : x->address > y->address;
}

static int raw_records(gw *g, pc_profile *p, rawsample *s, size_t n)
{
	qsort(s, n, sizeof *s, cmp_raw);
	size_t i = 0;
	uint64_t *bins = NULL;
	size_t cap = 0;
	int rc = PC_OK;
	while (i < n && rc == PC_OK) {
		size_t j = i + 1;
		while (j < n && s[j].address - s[j - 1].address <= RAW_GAP)
			j++;
		uint64_t low = s[i].address & ~(uint64_t)1;
		uint64_t high = (s[j - 1].address | 1) + 1;
		size_t nb = (size_t)((high - low) / 2);
		if (pc_grow((void **)&bins, &cap, nb, sizeof *bins)) {
			rc = pc_profile_fail(p, PC_ENOMEM, "out of memory");
			break;
		}
		memset(bins, 0, nb * sizeof *bins);
		for (size_t k = i; k < j; k++) {
			uint64_t *b = &bins[(s[k].address - low) / 2];
			*b = *b + s[k].count < *b ? UINT64_MAX : *b + s[k].count;
		}
		rc = hist_records(g, p, low, high, bins, nb);
		i = j;
	}
	free(bins);
	return rc;
}

static int write_gmon(pc_profile *p, const pc_options *o, pc_sink *k)
{
	gw g;
	memset(&g, 0, sizeof g);
	g.k = k;
	size_t nh = pc_profile_histogram_count(p);
	size_t ns = pc_profile_sample_count(p);
	size_t na = pc_profile_arc_count(p);

	/* address width: the target's, else what the addresses need */
	uint64_t maxaddr = 0;
	for (size_t i = 0; i < nh; i++) {
		pc_histogram h;
		if (pc_profile_histogram_at(&h, p, i) != PC_OK)
			continue;
		if (h.segment != PC_NOSEG)
			goto segmented;
		if (h.high > maxaddr)
			maxaddr = h.high;
	}
	for (size_t i = 0; i < ns; i++) {
		uint32_t seg;
		uint64_t a, c;
		if (pc_profile_sample_at(&seg, &a, &c, p, i) != PC_OK)
			continue;
		if (seg != PC_NOSEG)
			goto segmented;
		if (a + 2 > maxaddr)
			maxaddr = a + 2;
	}
	for (size_t i = 0; i < na; i++) {
		pc_arc a;
		if (pc_profile_arc_at(&a, p, i) != PC_OK)
			continue;
		if (a.from_segment != PC_NOSEG || a.to_segment != PC_NOSEG)
			goto segmented;
		if (a.from > maxaddr)
			maxaddr = a.from;
		if (a.to > maxaddr)
			maxaddr = a.to;
	}
	if (nh && ns)
		return pc_profile_fail(p, PC_EUNSUPPORTED,
				       "gmon: cannot write both histograms and "
				       "raw samples (gprof needs one bucket size)");
	g.width = pc_profile_target_width(p);
	if (g.width != 4 && g.width != 8)
		g.width = maxaddr > UINT32_MAX ? 8 : 4;
	if (g.width == 4 && maxaddr > (uint64_t)UINT32_MAX + 1)
		return pc_profile_fail(p, PC_EUNSUPPORTED,
				       "gmon: address 0x%llx does not fit the "
				       "target's 4-byte addresses",
				       (unsigned long long)maxaddr);
	g.endian = pc_profile_target_endian(p);
	if (g.endian != PC_ENDIAN_BIG)
		g.endian = PC_ENDIAN_LITTLE;
	double rate = pc_profile_rate(p);
	g.rate = rate >= 0.5 && rate < 4294967295.0 ? (uint32_t)llround(rate) : 1;
	const char *dim = pc_profile_dimension(p);
	strncpy(g.dimen, dim && *dim ? dim : "seconds", sizeof g.dimen);
	char ab = pc_profile_dimension_abbrev(p);
	g.abbrev = ab ? ab : 's';
	(void)o;

	pc_sink_write(k, "gmon", 4);
	put_uint(&g, 1, 4);
	pc_sink_repeat(k, 0, 12);

	int rc = PC_OK;
	for (size_t i = 0; i < nh && rc == PC_OK; i++) {
		pc_histogram h;
		if (pc_profile_histogram_at(&h, p, i) != PC_OK)
			continue;
		rc = hist_records(&g, p, h.low, h.high, h.counts, h.nbins);
	}
	if (rc == PC_OK && ns) {
		rawsample *s = malloc(ns * sizeof *s);
		if (!s)
			return pc_profile_fail(p, PC_ENOMEM, "out of memory");
		size_t n = 0;
		for (size_t i = 0; i < ns; i++) {
			uint32_t seg;
			if (pc_profile_sample_at(&seg, &s[n].address, &s[n].count, p, i) == PC_OK &&
			    s[n].count)
				n++;
		}
		rc = raw_records(&g, p, s, n);
		free(s);
	}
	if (rc == PC_OK && nh == 0 && ns == 0) {
		/* gprof refuses a file without a histogram: an empty capture
		 * is one zero bucket at the program's first code address */
		uint64_t low = UINT64_MAX, zero = 0;
		size_t nsym = pc_profile_symbol_count(p);
		for (size_t i = 0; i < nsym; i++) {
			pc_symbol sym;
			if (pc_profile_symbol_at(&sym, p, i) == PC_OK &&
			    sym.kind == PC_SYM_TEXT && sym.address < low &&
			    (g.width == 8 || sym.address < UINT32_MAX - 2))
				low = sym.address;
		}
		if (low == UINT64_MAX)
			low = 0;
		low &= ~(uint64_t)1;
		rc = hist_records(&g, p, low, low + 2, &zero, 1);
	}
	for (size_t i = 0; i < na && rc == PC_OK; i++) {
		pc_arc a;
		if (pc_profile_arc_at(&a, p, i) != PC_OK)
			continue;
		uint64_t reps = a.count / UINT32_MAX + (a.count % UINT32_MAX != 0);
		if (reps > MAX_RECORDS || g.records + reps > MAX_RECORDS)
			return pc_profile_fail(p, PC_ELIMIT,
					       "gmon: an arc count of %llu needs too "
					       "many u32 arc records",
					       (unsigned long long)a.count);
		g.records += reps;
		for (uint64_t left = a.count; left; ) {
			uint64_t c = left > UINT32_MAX ? UINT32_MAX : left;
			pc_sink_putc(k, 1);
			put_uint(&g, a.from, g.width);
			put_uint(&g, a.to, g.width);
			put_uint(&g, c, 4);
			left -= c;
		}
	}
	return rc ? rc : k->failed;

segmented:
	return pc_profile_fail(p, PC_EUNSUPPORTED,
			       "gmon: gmon.out has flat addresses; this capture "
			       "is segmented");
}

const pc_exporter pc_export_gmon = {
	.name = "gmon",
	.extension = ".gmon.out",
	.description = "GNU tagged gmon.out (gprof)",
	.write = write_gmon,
};
