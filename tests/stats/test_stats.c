/* test_stats.c - the statistics of libprofcore (docs/statistics.md ("Statistics")):
 * quantiles, Wilson and Newcombe intervals against published values,
 * Holm and Benjamini-Hochberg by hand, the coverage of the 95% Wilson
 * interval in a seeded multinomial simulation, the family-wise false
 * flag rate of the diff test, merge re-binning with exact counts, and
 * exact-count profiles. */
#include "profcore.h"
#include "profcore_plugin.h"
#include "model.h" /* pc_profile_hist_or */

#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#define Z95 1.959963984540054

static void near(double got, double want, double tol)
{
	if (!(fabs(got - want) <= tol))
		fail_msg("got %.12g, want %.12g (tolerance %g)", got, want, tol);
}

static void test_quantiles(void **state)
{
	(void)state;
	near(pc_stats_z(95), Z95, 1e-12);
	near(pc_stats_z(99), 2.5758293035489004, 1e-12);
	near(pc_stats_z(90), 1.6448536269514722, 1e-12);
	near(pc_stats_z(99.9), 3.2905267314919255, 1e-11);
	assert_true(pc_stats_z(0) == 0);
	assert_true(pc_stats_z(100) == 0);
	assert_true(pc_stats_z(-5) == 0);
}

static void test_wilson(void **state)
{
	(void)state;
	double lo, hi;
	/* R binom::binom.wilson(10, 100): 0.05522914 0.1743657 */
	pc_stats_wilson(&lo, &hi, 10, 100, Z95);
	near(lo, 0.05522914, 1e-8);
	near(hi, 0.17436566, 1e-8);
	/* Newcombe (1998) table I: 81/263 -> 0.2553, 0.3662 */
	pc_stats_wilson(&lo, &hi, 81, 263, Z95);
	near(lo, 0.2553, 1e-4);
	near(hi, 0.3662, 1e-4);
	/* the ends are exact at 0 and n */
	pc_stats_wilson(&lo, &hi, 0, 50, Z95);
	assert_true(lo == 0);
	near(hi, 0.07134759, 1e-8);
	pc_stats_wilson(&lo, &hi, 50, 50, Z95);
	assert_true(hi == 1);
	near(lo, 1 - 0.07134759, 1e-8);
	/* no samples: nothing known */
	pc_stats_wilson(&lo, &hi, 0, 0, Z95);
	assert_true(lo == 0 && hi == 1);
}

static void test_newcombe(void **state)
{
	(void)state;
	double lo, hi;
	/* Newcombe (1998) example (a): 56/70 - 48/80 = 0.2, method 10
	 * (hybrid score): 0.0524 to 0.3339 */
	pc_stats_diff_interval(&lo, &hi, 48, 80, 56, 70, Z95);
	near(lo, 0.0524, 1e-4);
	near(hi, 0.3339, 1e-4);
	/* example (b): 9/10 - 3/10: 0.1705 to 0.8090 */
	pc_stats_diff_interval(&lo, &hi, 3, 10, 9, 10, Z95);
	near(lo, 0.1705, 1e-4);
	near(hi, 0.8090, 1e-4);
}

static void test_two_proportion(void **state)
{
	(void)state;
	double z;
	/* 50/1000 against 80/1000: pooled p 0.065, z = 0.03 / sqrt(0.065 *
	 * 0.935 * 0.002) = 2.72112, two-sided p = 0.0065065 */
	double p = pc_stats_two_proportion(&z, 50, 1000, 80, 1000);
	near(z, 0.03 / sqrt(0.065 * 0.935 * 0.002), 1e-12);
	near(p, 0.00650650, 1e-7);
	p = pc_stats_two_proportion(&z, 80, 1000, 50, 1000);
	assert_true(z < 0);
	near(p, 0.00650650, 1e-7);
	/* equal shares: p = 1 */
	near(pc_stats_two_proportion(&z, 10, 100, 20, 200), 1, 1e-15);
	/* no variance at all: z = 0, p = 1 */
	near(pc_stats_two_proportion(NULL, 0, 100, 0, 100), 1, 0);
}

static void test_adjust(void **state)
{
	(void)state;
	const double p[] = {0.01, 0.04, 0.03, 0.005};
	double a[4];
	/* Holm: 0.005*4 = 0.02, 0.01*3 = 0.03, 0.03*2 = 0.06,
	 * max(0.04*1, 0.06) = 0.06 */
	assert_int_equal(pc_stats_adjust(a, p, 4, PC_CORRECT_HOLM), PC_OK);
	near(a[0], 0.03, 1e-15);
	near(a[1], 0.06, 1e-15);
	near(a[2], 0.06, 1e-15);
	near(a[3], 0.02, 1e-15);
	/* BH: 0.04*4/4 = 0.04, 0.03*4/3 = 0.04, 0.01*4/2 = 0.02,
	 * 0.005*4/1 = 0.02 */
	assert_int_equal(pc_stats_adjust(a, p, 4, PC_CORRECT_BH), PC_OK);
	near(a[0], 0.02, 1e-15);
	near(a[1], 0.04, 1e-15);
	near(a[2], 0.04, 1e-15);
	near(a[3], 0.02, 1e-15);
	/* capped at 1, in place */
	double q[] = {0.5, 0.9};
	assert_int_equal(pc_stats_adjust(q, q, 2, PC_CORRECT_HOLM), PC_OK);
	near(q[0], 1, 0);
	near(q[1], 1, 0);
	assert_int_equal(pc_stats_adjust(q, q, 2, (pc_correction)7),
			 PC_EUSAGE);
	assert_int_equal(pc_stats_adjust(NULL, NULL, 0, PC_CORRECT_BH), PC_OK);
}

/* ---- seeded simulations ---------------------------------------------- */

static uint64_t rng_state;

static uint64_t splitmix64(void)
{
	uint64_t z = (rng_state += 0x9e3779b97f4a7c15ull);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static double uniform(void)
{
	return (double)(splitmix64() >> 11) * 0x1.0p-53;
}

/* n categorical draws over shares[0..k) (summing to 1) into counts */
static void multinomial(const double *shares, size_t k, unsigned n, unsigned *counts)
{
	memset(counts, 0, k * sizeof *counts);
	for (unsigned i = 0; i < n; i++) {
		double u = uniform(), c = 0;
		size_t j = 0;
		for (; j + 1 < k; j++) {
			c += shares[j];
			if (u < c)
				break;
		}
		counts[j]++;
	}
}

#define TRIALS 2000
#define SAMPLES 5000

/* Shares: 2 large (30%, 25%), 5 small (2% each), 5 near-zero (0.1%
 * each: 5 expected samples), the rest one remainder cell.  The 95%
 * Wilson interval of each symbol's count must hold its true share in
 * 93-97% of the trials, per class. */
static void test_wilson_coverage(void **state)
{
	(void)state;
	enum { K = 13 };
	double shares[K] = {0.30, 0.25, 0.02, 0.02, 0.02, 0.02, 0.02,
			    0.001, 0.001, 0.001, 0.001, 0.001, 0};
	const int cls[K] = {0, 0, 1, 1, 1, 1, 1, 2, 2, 2, 2, 2, -1};
	double rest = 1;
	for (int i = 0; i < K - 1; i++)
		rest -= shares[i];
	shares[K - 1] = rest;
	unsigned counts[K], covered[3] = {0}, tried[3] = {0};
	rng_state = 12345;
	for (int t = 0; t < TRIALS; t++) {
		multinomial(shares, K, SAMPLES, counts);
		for (int i = 0; i < K - 1; i++) {
			double lo, hi;
			pc_stats_wilson(&lo, &hi, counts[i], SAMPLES, Z95);
			tried[cls[i]]++;
			covered[cls[i]] += lo <= shares[i] && shares[i] <= hi;
		}
	}
	static const char *const names[] = {"large", "small", "near-zero"};
	for (int c = 0; c < 3; c++) {
		double f = (double)covered[c] / tried[c];
		print_message("coverage %-9s %u/%u = %.4f\n", names[c], covered[c], tried[c], f);
		assert_true(f >= 0.93 && f <= 0.97);
	}
	/* the figures of this seed, so that a change shows */
	assert_int_equal(covered[0], 3792);
	assert_int_equal(covered[1], 9511);
	assert_int_equal(covered[2], 9580);
}

/* The diff's test over 500 seeded runs of twenty equal functions, 20000
 * samples before and 19500 after.  (1) No change at all: Holm keeps the
 * runs with any symbol flagged at or below 5%.  (2) f03 halves its time
 * (the run gets shorter): the real change is flagged in every run; the
 * other shares really grow by 1/39 of themselves (shares add up to 100%),
 * and some of them is flagged in 16% of the runs: a share diff says
 * which fractions of the run changed, and those did. */
static unsigned diff_runs(double changed, unsigned *found, unsigned *any_runs)
{
	enum { K = 20, RUNS = 500 };
	double base[K], next[K];
	double tot = K - 1 + changed;
	for (int i = 0; i < K; i++)
		base[i] = 1.0 / K, next[i] = 1.0 / tot;
	next[3] = changed / tot;
	unsigned a[K], b[K], false_runs = 0;
	*found = *any_runs = 0;
	for (int r = 0; r < RUNS; r++) {
		multinomial(base, K, 20000, a);
		multinomial(next, K, 19500, b);
		double p[K];
		for (int i = 0; i < K; i++)
			p[i] = pc_stats_two_proportion(NULL, a[i], 20000,
						       b[i], 19500);
		assert_int_equal(pc_stats_adjust(p, p, K, PC_CORRECT_HOLM),
				 PC_OK);
		*found += p[3] < 0.05;
		int any = 0;
		for (int i = 0; i < K; i++)
			any |= i != 3 && p[i] < 0.05;
		false_runs += any;
		*any_runs += any || p[3] < 0.05;
	}
	return false_runs;
}

static void test_diff_false_flags(void **state)
{
	(void)state;
	unsigned found, others, any;
	rng_state = 777;
	others = diff_runs(1, &found, &any);
	print_message("no change: some symbol flagged in %u/500 runs\n", any);
	assert_true(any <= 25); /* family-wise error <= 5% */
	assert_int_equal(any, 20);
	others = diff_runs(0.5, &found, &any);
	print_message("f03 halved: flagged in %u/500 runs, another symbol in %u\n",
		      found, others);
	assert_int_equal(found, 500);
	assert_int_equal(others, 79);
}

/* ---- merge ------------------------------------------------------------- */

static pc_profile *hist_profile(uint64_t low, uint64_t high, const uint64_t *c, size_t n,
				double rate)
{
	pc_profile *p;
	pc_profile_new(&p, NULL);
	assert_non_null(p);
	pc_histogram h = {PC_NOSEG, low, high, n, c, 1};
	assert_int_equal(pc_profile_add_histogram(p, &h), PC_OK);
	pc_profile_set_rate(p, rate);
	return p;
}

/* test_merge_rebin's counts: 1 to 64, 100 to 131 */
static void rebin_counts(uint64_t c4[64], uint64_t c8[32])
{
	for (int i = 0; i < 64; i++)
		c4[i] = (uint64_t)i + 1;
	for (int i = 0; i < 32; i++)
		c8[i] = 100 + (uint64_t)i;
}

/* pc_profile_merge_borrowing (the line profile of pc_profile_granular):
 * the histograms' counts are the source's, not a copy; adding to them
 * or re-binning them makes counts of the destination's own, leaving the
 * source's as they were (and freeing the destination frees none of
 * them: valgrind and ASan see a double free). */
static void test_merge_borrowing(void **state)
{
	(void)state;
	uint64_t c4[64], c8[32];
	rebin_counts(c4, c8);
	pc_profile *p = hist_profile(0x1000, 0x1100, c4, 64, 100);
	pc_histogram hp, hq;
	assert_int_equal(pc_profile_histogram_at(&hp, p, 0), PC_OK);
	/* borrowed, then summed with an identical histogram */
	pc_profile *q, *q2;
	pc_profile_new(&q, NULL);
	pc_profile_set_rate(q, 100);
	assert_int_equal(pc_profile_merge_borrowing(q, p), PC_OK);
	assert_int_equal(pc_profile_histogram_at(&hq, q, 0), PC_OK);
	assert_ptr_equal(hq.counts, hp.counts);
	assert_int_equal(pc_profile_hist_or(q, 0), 127);
	pc_profile *same = hist_profile(0x1000, 0x1100, c4, 64, 100);
	assert_int_equal(pc_profile_merge(q, same), PC_OK);
	assert_int_equal(pc_profile_histogram_at(&hq, q, 0), PC_OK);
	assert_ptr_not_equal(hq.counts, hp.counts);
	for (size_t i = 0; i < 64; i++) {
		assert_int_equal(hq.counts[i], 2 * (i + 1));
		assert_int_equal(hp.counts[i], i + 1);
	}
	pc_profile_free(q);
	pc_profile_free(same);
	/* borrowed, then re-binned with an overlapping one */
	pc_profile_new(&q2, NULL);
	pc_profile_set_rate(q2, 100);
	assert_int_equal(pc_profile_merge_borrowing(q2, p), PC_OK);
	pc_profile *b = hist_profile(0x1080, 0x1180, c8, 32, 100);
	assert_int_equal(pc_profile_merge(q2, b), PC_OK);
	assert_int_equal(pc_profile_histogram_at(&hq, q2, 0), PC_OK);
	assert_int_equal(hq.nbins, 48);
	assert_int_equal(hq.counts[0], 3);
	assert_int_equal(hq.counts[16], 4 * 16 + 3 + 100);
	pc_profile_free(q2);
	pc_profile_free(b);
	assert_int_equal(pc_profile_histogram_at(&hp, p, 0), PC_OK);
	for (size_t i = 0; i < 64; i++)
		assert_int_equal(hp.counts[i], i + 1);
	pc_profile_free(p);
}

static void test_merge_rebin(void **state)
{
	(void)state;
	uint64_t c4[64], c8[32];
	rebin_counts(c4, c8);
	/* 4-byte buckets over [0x1000, 0x1100), 8-byte over [0x1080, 0x1180) */
	pc_profile *a = hist_profile(0x1000, 0x1100, c4, 64, 100);
	pc_profile *b = hist_profile(0x1080, 0x1180, c8, 32, 100);
	assert_int_equal(pc_profile_add_sample(b, PC_NOSEG, 0x2000, 7), PC_OK);
	assert_int_equal(pc_profile_merge(a, b), PC_OK);
	assert_int_equal(pc_profile_histogram_count(a), 1);
	pc_histogram h;
	assert_int_equal(pc_profile_histogram_at(&h, a, 0), PC_OK);
	assert_true(h.low == 0x1000 && h.high == 0x1180);
	assert_int_equal(h.nbins, 48);
	uint64_t sum = 0;
	for (size_t i = 0; i < 48; i++) {
		uint64_t want = 0;
		if (i < 32)
			want += 4 * i + 3; /* (2i + 1) + (2i + 2) */
		if (i >= 16)
			want += 100 + (i - 16);
		assert_int_equal(h.counts[i], want);
		sum += h.counts[i];
	}
	assert_int_equal(sum, 64 * 65 / 2 + 32 * 100 + 31 * 32 / 2);
	uint64_t addr, cnt;
	assert_int_equal(pc_profile_sample_count(a), 1);
	assert_int_equal(pc_profile_sample_at(NULL, &addr, &cnt, a, 0), PC_OK);
	assert_true(addr == 0x2000 && cnt == 7);
	pc_profile_free(a);
	pc_profile_free(b);
}

/* ---- the OR of a histogram's counts, kept with it ----------------------- */

static uint64_t or_of(const pc_profile *p, size_t i)
{
	pc_histogram h;
	assert_int_equal(pc_profile_histogram_at(&h, (pc_profile *)p, i),
			 PC_OK);
	uint64_t v = 0;
	for (size_t b = 0; b < h.nbins; b++)
		v |= h.counts[b];
	return v;
}

static void test_hist_or(void **state)
{
	(void)state;
	/* added (copied), then added again (summed into it) */
	static const uint64_t c1[3] = {1, 2, 4}, c2[3] = {8, 0, 0x10000}, z[2] = {0, 0};
	pc_profile *a = hist_profile(0x1000, 0x1030, c1, 3, 100);
	assert_int_equal(pc_profile_hist_or(a, 0), 7);
	pc_histogram h = {PC_NOSEG, 0x1000, 0x1030, 3, c2, 1};
	assert_int_equal(pc_profile_add_histogram(a, &h), PC_OK);
	assert_int_equal(pc_profile_histogram_count(a), 1);
	assert_int_equal(pc_profile_hist_or(a, 0), 0x1000f); /* 9 | 2 | 0x10004 */
	assert_int_equal(or_of(a, 0), 0x1000f);
	pc_histogram hz = {PC_NOSEG, 0x2000, 0x2020, 2, z, 1};
	assert_int_equal(pc_profile_add_histogram(a, &hz), PC_OK);
	assert_int_equal(pc_profile_histogram_count(a), 2);
	pc_histogram got;
	for (size_t i = 0; i < 2; i++) {
		assert_int_equal(pc_profile_histogram_at(&got, a, i), PC_OK);
		assert_int_equal(pc_profile_hist_or(a, i), got.low == 0x2000 ? 0 : 0x1000f);
	}
	pc_profile_free(a);

	/* re-binned by a merge: 4-byte buckets 1..64 and 8-byte ones 100..131
	 * (test_merge_rebin's), ORed over the merged cells */
	uint64_t c4[64], c8[32];
	for (int i = 0; i < 64; i++)
		c4[i] = (uint64_t)i + 1;
	for (int i = 0; i < 32; i++)
		c8[i] = 100 + (uint64_t)i;
	a = hist_profile(0x1000, 0x1100, c4, 64, 100);
	pc_profile *b = hist_profile(0x1080, 0x1180, c8, 32, 100);
	assert_int_equal(pc_profile_hist_or(a, 0), 127);
	assert_int_equal(pc_profile_merge(a, b), PC_OK);
	assert_int_equal(pc_profile_histogram_count(a), 1);
	assert_int_equal(pc_profile_hist_or(a, 0), or_of(a, 0));
	assert_int_equal(pc_profile_hist_or(a, 0), 255);
	pc_profile_free(a);
	pc_profile_free(b);

	/* adopted from the gmon loader (decoded and ORed in one pass):
	 * 16-bit counters 0x0100, 0x0003, 0x8000, 0 */
	static const unsigned char gm[] = {
		'g', 'm', 'o', 'n', 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
		0, 0x00, 0x10, 0, 0, 0x10, 0x10, 0, 0, 4, 0, 0, 0, 100, 0, 0, 0,
		's', 'e', 'c', 'o', 'n', 'd', 's', 0, 0, 0, 0, 0, 0, 0, 0, 's',
		0x00, 0x01, 0x03, 0x00, 0x00, 0x80, 0x00, 0x00};
	assert_int_equal(pc_profile_new(&a, NULL), PC_OK);
	assert_int_equal(pc_profile_load_memory(a, gm, sizeof gm, "or.gmon", "gmon", NULL),
			 PC_OK);
	assert_int_equal(pc_profile_histogram_count(a), 1);
	assert_int_equal(pc_profile_histogram_at(&got, a, 0), PC_OK);
	assert_int_equal(got.nbins, 4);
	assert_int_equal(got.counts[0], 0x100);
	assert_int_equal(got.counts[2], 0x8000);
	assert_int_equal(pc_profile_hist_or(a, 0), 0x8103);
	pc_profile_free(a);
}

/* pc_get_uints (the gmon decode) against pc_get_uint, and its OR, for
 * every length up to 11 (the four-at-a-time loops and their tails) */
static void test_get_uints(void **state)
{
	(void)state;
	unsigned char b[44];
	for (size_t i = 0; i < sizeof b; i++)
		b[i] = (unsigned char)(i * 37 + 5);
	static const unsigned widths[] = {2, 4, 3, 8};
	for (size_t w = 0; w < 4; w++)
		for (int big = 0; big < 2; big++)
			for (size_t n = 0; n <= 11 && n * widths[w] <= sizeof b; n++) {
				pc_endian e = big ? PC_ENDIAN_BIG : PC_ENDIAN_LITTLE;
				uint64_t out[11], any = 0;
				uint64_t got = pc_get_uints(out, b, n, widths[w], e);
				for (size_t i = 0; i < n; i++) {
					uint64_t v = pc_get_uint(b + widths[w] * i, widths[w], e);
					assert_int_equal(out[i], v);
					any |= v;
				}
				assert_int_equal(got, any);
			}
	uint64_t out[3];
	/* bytes 05 2a 4f 74 99 be: 16 bits each way */
	assert_int_equal(pc_get_uints(out, b, 3, 2, PC_ENDIAN_LITTLE), 0xfedf);
	assert_int_equal(out[0], 0x2a05);
	assert_int_equal(out[2], 0xbe99);
	assert_int_equal(pc_get_uints(out, b, 3, 2, PC_ENDIAN_BIG), 0xdffe);
	assert_int_equal(out[0], 0x052a);
	assert_int_equal(out[2], 0x99be);
}

/* 6-byte buckets onto 8-byte cells: straddling buckets are split by
 * overlap in whole samples, the larger remainder first. */
static void test_merge_straddle(void **state)
{
	(void)state;
	const uint64_t c6[4] = {5, 5, 5, 5}, c8[3] = {0, 1, 0};
	pc_profile *a = hist_profile(0x1000, 0x1018, c6, 4, 0);
	pc_profile *b = hist_profile(0x1000, 0x1018, c8, 3, 50);
	assert_int_equal(pc_profile_merge(a, b), PC_OK);
	pc_histogram h;
	assert_int_equal(pc_profile_histogram_at(&h, a, 0), PC_OK);
	assert_int_equal(h.nbins, 3);
	/* [0,6) -> 5 | [6,12): 2/6 and 4/6 of 5 = 1 r4, 3 r2 -> 2, 3 |
	 * [12,18): 4/6 and 2/6 = 3 r2, 1 r4 -> 3, 2 | [18,24) -> 5; plus 0,1,0 */
	assert_int_equal(h.counts[0], 7);
	assert_int_equal(h.counts[1], 7);
	assert_int_equal(h.counts[2], 7);
	/* an unknown rate takes the other's */
	near(pc_profile_rate(a), 50, 0);
	pc_profile_free(a);
	pc_profile_free(b);
	/* counts beyond 32 bits split exactly: 3 * 2^40 as 2/6 and 4/6 */
	const uint64_t big[4] = {0, (uint64_t)3 << 40, 0, 0}, zero[3] = {0, 0, 0};
	a = hist_profile(0x1000, 0x1018, big, 4, 50);
	b = hist_profile(0x1000, 0x1018, zero, 3, 50);
	assert_int_equal(pc_profile_merge(a, b), PC_OK);
	assert_int_equal(pc_profile_histogram_at(&h, a, 0), PC_OK);
	assert_true(h.counts[0] == (uint64_t)1 << 40);
	assert_true(h.counts[1] == (uint64_t)1 << 41);
	assert_true(h.counts[2] == 0);
	pc_profile_free(a);
	pc_profile_free(b);
}

static void test_merge_refusals(void **state)
{
	(void)state;
	const uint64_t c[2] = {1, 2};
	pc_profile *a = hist_profile(0x1000, 0x1010, c, 2, 100);
	pc_profile *b = hist_profile(0x1000, 0x1010, c, 2, 60);
	assert_int_equal(pc_profile_merge(a, b), PC_EUNSUPPORTED);
	assert_string_equal(pc_profile_error(a)->message,
			    "captures sampled at 100 Hz and 60 Hz cannot be added up: a sample would stand for different times");
	pc_profile_set_rate(b, 100);
	pc_profile_set_event_counts(b, 1);
	assert_int_equal(pc_profile_merge(a, b), PC_EUNSUPPORTED);
	assert_string_equal(pc_profile_error(a)->message,
			    "cannot merge exact counts with sampled counts");
	pc_profile_set_event_counts(b, 0);
	assert_int_equal(pc_profile_merge(a, a), PC_EUSAGE);
	/* identical ranges are summed */
	assert_int_equal(pc_profile_merge(a, b), PC_OK);
	pc_histogram h;
	pc_profile_histogram_at(&h, a, 0);
	assert_true(h.nbins == 2 && h.counts[0] == 2 && h.counts[1] == 4);
	pc_profile_free(a);
	pc_profile_free(b);
}

/* ---- reports --------------------------------------------------------- */

static pc_profile *two_symbols(int exact)
{
	pc_profile *p;
	pc_profile_new(&p, NULL);
	pc_symbol s = {.name = "hot", .segment = PC_NOSEG, .address = 0x100, .size = 0x10,
		       .kind = PC_SYM_TEXT};
	assert_int_equal(pc_profile_add_symbol(p, &s), PC_OK);
	s.name = "cold";
	s.address = 0x110;
	assert_int_equal(pc_profile_add_symbol(p, &s), PC_OK);
	assert_int_equal(pc_profile_add_sample(p, PC_NOSEG, 0x100, 90), PC_OK);
	assert_int_equal(pc_profile_add_sample(p, PC_NOSEG, 0x112, 10), PC_OK);
	pc_profile_set_rate(p, 100);
	pc_profile_set_event_counts(p, exact);
	return p;
}

static char *render(pc_profile *p, const char *report, const char *fmt, const char *ci)
{
	pc_options *o;
	assert_int_equal(pc_options_new(&o), PC_OK);
	if (fmt)
		pc_options_set(o, "output-format", fmt);
	if (ci)
		pc_options_set(o, "ci", ci);
	if (!strcmp(report, "flat")) /* a key of the flat table alone */
		pc_options_set(o, "barchart", "0");
	char *out = NULL;
	int st = pc_profile_render(&out, NULL, p, report, o);
	pc_options_free(o);
	if (st)
		fail_msg("render failed: %s", pc_profile_error(p)->message);
	return out;
}

static void test_flat_ci(void **state)
{
	(void)state;
	pc_profile *p = two_symbols(0);
	char *t = render(p, "flat", NULL, "95");
	/* 90/100: Wilson [0.82565, 0.94479], half-width 5.96 points;
	 * 10/100: [0.05523, 0.17437], 5.96 */
	assert_string_equal(t,
		"Flat profile\n"
		"Samples: 100 total, 100 in the program, 0 outside\n"
		"Rate: 100 Hz, each sample counts as 0.01 seconds; 1.00 seconds sampled\n"
		"+-: half-width of the 95% Wilson interval of the percent (csv/json: its ends)\n"
		"\n"
		"rank  symbol     count  percent    cum %      +-     self s\n"
		"   1  hot           90    90.00    90.00    5.96       0.90\n"
		"   2  cold          10    10.00   100.00    5.96       0.10\n");
	pc_free(t);
	t = render(p, "flat", "csv", "95");
	assert_string_equal(t,
		"rank,symbol,count,percent,cum_percent,self_seconds,calls,self_calls,address,ci_low,ci_high\n"
		"1,hot,90,90.0000,90.0000,0.900000,0,0,0x100,82.5634,94.4771\n"
		"2,cold,10,10.0000,100.0000,0.100000,0,0,0x110,5.5229,17.4366\n"
		",[total],100,100.0000,,,,,,,\n"
		",[in program],100,100.0000,,,,,,,\n"
		",[unattributed],0,0.0000,,,,,,,\n"
		",[outside],0,0.0000,,,,,,,\n");
	pc_free(t);
	t = render(p, "flat", "json", "99");
	assert_non_null(strstr(t, "\"ci\": {\"level\": 99, \"method\": \"wilson\"}"));
	assert_non_null(strstr(t, "\"ci_low\": 4.6026, \"ci_high\": 20.3751"));
	pc_free(t);
	/* no ci: the table is unchanged */
	t = render(p, "flat", "csv", NULL);
	assert_non_null(strstr(t, "self_calls,address\n1,hot,"));
	pc_free(t);
	pc_profile_free(p);
}

static void test_flat_exact(void **state)
{
	(void)state;
	pc_profile *p = two_symbols(1);
	assert_int_equal(pc_profile_event_counts(p), 1);
	char *t = render(p, "flat", NULL, "95");
	assert_non_null(strstr(t, "Counts are exact (not samples): no confidence interval\n"));
	assert_null(strstr(t, "+-"));
	pc_free(t);
	t = render(p, "flat", "csv", "95");
	assert_non_null(strstr(t, "0x100,,\n"));
	pc_free(t);
	t = render(p, "flat", "json", "95");
	assert_non_null(strstr(t, "\"ci\": {\"level\": 95, \"method\": \"none: exact counts\"}"));
	assert_null(strstr(t, "ci_low"));
	pc_free(t);
	t = render(p, "check", NULL, NULL);
	assert_string_equal(t, "Sampling check\nSamples: 100, 2 symbols with samples; counts are exact (not samples)\n\nno warnings\n");
	pc_free(t);
	pc_profile_free(p);
}

static void test_bad_ci(void **state)
{
	(void)state;
	pc_profile *p = two_symbols(0);
	pc_options *o;
	assert_int_equal(pc_options_new(&o), PC_OK);
	char *out = NULL;
	const char *bad[] = {"0", "100", "x", "-3", "95%"};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		pc_options_set(o, "ci", bad[i]);
		assert_int_equal(pc_profile_render(&out, NULL, p, "flat", o),
				 PC_EUSAGE);
		assert_null(out);
	}
	assert_string_equal(pc_profile_error(p)->message,
			    "option ci=95%; expected a confidence level in percent, above 0 and below 100 (e.g. 95)");
	pc_options_free(o);
	pc_profile_free(p);
}

/* Mee's score interval: at 0 its statistic is the pooled z, so its ends
 * at the z of a p-value p are 0 exactly when the test's p-value is p;
 * values from diff_reference.py (bisections on the likelihood's slope
 * and on the statistic) */
static void test_score_interval(void **state)
{
	(void)state;
	double lo, hi, zs;
	pc_stats_score_interval(10, 100, 50, 140, pc_stats_z(97.5), &lo, &hi);
	assert_true(fabs(lo - 0.13858047) < 2e-8 && fabs(hi - 0.36718728) < 2e-8);
	/* the test's own p-value as the level: one end is 0 */
	pc_stats_two_proportion(&zs, 929, 20000, 1033, 19500);
	pc_stats_score_interval(929, 20000, 1033, 19500, zs, &lo, &hi);
	assert_true(fabs(lo) < 1e-12 && hi > 0);
	/* none before: the lower end stays above -1, the upper below 1 */
	pc_stats_score_interval(0, 1000, 12, 1000, Z95, &lo, &hi);
	assert_true(fabs(lo - 0.0068776478) < 1e-9 && fabs(hi - 0.0208572685) < 1e-9);
	pc_stats_score_interval(0, 10, 10, 10, Z95, &lo, &hi);
	assert_true(hi == 1 && fabs(lo - 0.6777496839) < 1e-9);
	pc_stats_score_interval(5, 10, 5, 10, 0, &lo, &hi);
	assert_true(lo == 0 && hi == 0);
}

static void test_diff_api(void **state)
{
	(void)state;
	pc_profile *a = two_symbols(0), *b = two_symbols(0);
	assert_int_equal(pc_profile_add_sample(b, PC_NOSEG, 0x112, 40), PC_OK);
	pc_options *o;
	assert_int_equal(pc_options_new(&o), PC_OK);
	pc_options_set(o, "output-format", "csv");
	char *out = NULL;
	assert_int_equal(pc_profile_diff(&out, NULL, a, b, o), PC_OK);
	/* cold: 10/100 -> 50/140; hot: 90/100 -> 90/140.  The numbers are
	 * tests/stats/diff_reference.py's (the definitions, computed
	 * independently): Mee score intervals at 97.5% (Bonferroni over 2),
	 * MDE (z(0.9875) + z(0.8)) * the pooled standard error */
	const char *want =
		"symbol,before_count,after_count,before_percent,after_percent,change_pp,ci_low_pp,ci_high_pp,p_value,p_adjusted,significant,ci_level,mde_pp,verdict,more_samples\n"
		"cold,10,50,10.0000,35.7143,25.7143,13.8580,36.7187,5.74471e-06,1.14894e-05,1,97.5,17.4791,slower,\n"
		"hot,90,90,90.0000,64.2857,-25.7143,-36.7187,-13.8580,5.74471e-06,1.14894e-05,1,97.5,17.4791,faster,\n";
	assert_string_equal(out, want);
	pc_free(out);
	pc_options_set(o, "correction", "sidak");
	assert_int_equal(pc_profile_diff(&out, NULL, a, b, o), PC_EUSAGE);
	assert_string_equal(pc_profile_error(b)->message,
			    "bad value 'sidak' for option 'correction' of pc_profile_diff; "
			    "expected one of: holm, bh");
	pc_options_free(o);
	pc_profile_free(a);
	pc_profile_free(b);
}

static void test_null_options_and_misuse(void **state)
{
	(void)state;
	pc_profile *a = two_symbols(0), *b = two_symbols(0);
	char *out = NULL;
	size_t len = 0;
	assert_int_equal(pc_profile_diff(&out, &len, a, b, NULL), PC_OK);
	assert_int_equal(strlen(out), len);
	assert_non_null(strstr(out, "Holm correction over 2 symbols, 95% level; 0 significant"));
	pc_free(out);
	pc_profile *caps[2] = {a, b};
	assert_int_equal(pc_profile_compare_rates(&out, NULL, caps, 2, NULL),
			 PC_OK);
	assert_non_null(strstr(out, "No symbol's share disagrees beyond its intervals"));
	pc_free(out);
	out = NULL;
	assert_int_equal(pc_profile_compare_rates(&out, NULL, caps, 1, NULL),
			 PC_EUSAGE);
	assert_string_equal(pc_profile_error(a)->message,
			    "the aliasing check needs at least two captures");
	assert_null(out);
	assert_int_equal(pc_profile_diff(&out, NULL, NULL, b, NULL),
			 PC_EUSAGE);
	assert_int_equal(pc_profile_merge(NULL, b), PC_EUSAGE);
	/* an empty capture: shares of nothing, no crash */
	pc_profile *e;
	pc_profile_new(&e, NULL);
	assert_int_equal(pc_profile_diff(&out, NULL, e, b, NULL), PC_OK);
	assert_non_null(strstr(out, "Samples: 0 before, 100 after"));
	pc_free(out);
	assert_int_equal(pc_profile_render(&out, NULL, e, "check", NULL),
			 PC_OK);
	assert_string_equal(out, "Sampling check\nSamples: 0, 0 symbols with samples\n\n"
				 "warning: rate-unknown: sampling rate unknown: shares hold, but no times, and periods cannot be compared for aliasing\n");
	pc_free(out);
	assert_int_equal(pc_profile_merge(e, a), PC_OK);
	assert_int_equal(pc_profile_symbol_count(e), 2);
	assert_int_equal(pc_profile_sample_count(e), 2);
	pc_profile_free(e);
	pc_profile_free(a);
	pc_profile_free(b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_quantiles),
		cmocka_unit_test(test_wilson),
		cmocka_unit_test(test_newcombe),
		cmocka_unit_test(test_two_proportion),
		cmocka_unit_test(test_adjust),
		cmocka_unit_test(test_wilson_coverage),
		cmocka_unit_test(test_diff_false_flags),
		cmocka_unit_test(test_merge_rebin),
		cmocka_unit_test(test_merge_borrowing),
		cmocka_unit_test(test_hist_or),
		cmocka_unit_test(test_get_uints),
		cmocka_unit_test(test_merge_straddle),
		cmocka_unit_test(test_merge_refusals),
		cmocka_unit_test(test_flat_ci),
		cmocka_unit_test(test_flat_exact),
		cmocka_unit_test(test_bad_ci),
		cmocka_unit_test(test_score_interval),
		cmocka_unit_test(test_diff_api),
		cmocka_unit_test(test_null_options_and_misuse),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
