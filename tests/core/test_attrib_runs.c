/* Proportional attribution's run path (attrib.c hist_proportional: runs of
 * buckets inside one target credited by run_credit, their counts summed
 * as integers) against the bucket-by-bucket loop it stands in for
 * (pc_attrib_set_reference(p, 1)): random profiles, every row's count and
 * every total compared bit for bit. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "model.h"

#include "../common/pc_test.h"

typedef struct rng {
	uint64_t s;
} rng;

static uint64_t next(rng *r)
{
	/* xorshift64* */
	r->s ^= r->s >> 12;
	r->s ^= r->s << 25;
	r->s ^= r->s >> 27;
	return r->s * 0x2545F4914F6CDD1DULL;
}

static uint64_t below(rng *r, uint64_t n)
{
	return n ? next(r) % n : 0;
}

/* a count: mostly small, empty a third of the time, now and then one
 * near 2^32, 2^53 or 2^64 */
static uint64_t count(rng *r)
{
	uint64_t k = below(r, 1000);
	if (k < 330)
		return 0;
	if (k < 900)
		return 1 + below(r, 9);
	if (k < 990)
		return below(r, 70000);
	switch (below(r, 5)) {
	case 0: return ((uint64_t)1 << 32) - 2 + below(r, 4);
	case 1: return ((uint64_t)1 << 53) - 3 + below(r, 6);
	case 2: return ((uint64_t)1 << 52) + below(r, 3);
	case 3: return ((uint64_t)1 << 63) + below(r, 3);
	default: return UINT64_MAX - below(r, 3);
	}
}

static const char *const names[] = {"t0", "t1", "t2", "t3", "t4", "t5", "t6",
				    "t7", "t8", "t9"};

/* The profile of one seed: one or two segments, each with one to three
 * histograms (integer, fractional and below-1 scales; units 1, 2, 4, 3;
 * gaps between them), targets over and around them (some excluded,
 * some not targets, some ending at their size: gaps), and regions of
 * several classes (nested ones too).  big: a histogram of 2^16 bins or
 * more (hist_proportional's quotient table). */
static pc_profile *build(uint64_t seed, int big, int huge_counts)
{
	rng r = {seed * 0x9E3779B97F4A7C15ULL + 0x1234567ULL};
	pc_profile *p = NULL;
	assert_int_equal(pc_profile_new(&p, NULL), PC_OK);
	const unsigned units[4] = {1, 2, 4, 3};
	const int nseg = 1 + (int)below(&r, 2);
	for (int sg = 0; sg < nseg; sg++) {
		const uint32_t seg = nseg == 1 ? PC_NOSEG : (uint32_t)sg * 7;
		const unsigned u = units[below(&r, 4)];
		uint64_t at = 0x1000 + below(&r, 4096);
		const uint64_t first = at;
		const int nh = 1 + (int)below(&r, 3);
		for (int hi = 0; hi < nh; hi++) {
			size_t nbins = big && hi == 0 ? 65536 + (size_t)below(&r, 3000)
						  : 1 + (size_t)below(&r, 300);
			uint64_t span; /* bytes */
			switch (below(&r, 4)) {
			case 0: /* an integer scale k */
				span = (1 + below(&r, 5)) * nbins * u + below(&r, u);
				break;
			case 1: /* below 1 */
				span = below(&r, nbins * u + 1);
				break;
			default: /* any */
				span = below(&r, 4 * nbins * u) + 1;
				break;
			}
			uint64_t *c = malloc(nbins * sizeof *c);
			assert_non_null(c);
			for (size_t i = 0; i < nbins; i++)
				c[i] = huge_counts ? count(&r) : (below(&r, 3) ? 1 + below(&r, 9) : 0);
			pc_histogram h = {seg, at, at + span, nbins, c, u};
			assert_int_equal(pc_profile_add_histogram(p, &h), PC_OK);
			free(c);
			at += span + below(&r, 3) * below(&r, 64);
		}
		const uint64_t last = at;
		/* targets over [first - 64, last + 64) */
		const int nt = (int)below(&r, 60);
		for (int t = 0; t < nt; t++) {
			pc_symbol s = {0};
			s.name = names[below(&r, 10)];
			s.segment = seg;
			s.address = first - 64 + below(&r, last - first + 128);
			s.kind = below(&r, 12) ? PC_SYM_TEXT : PC_SYM_DATA;
			s.binding = below(&r, 2) ? PC_BIND_GLOBAL : PC_BIND_LOCAL;
			uint64_t k = below(&r, 20);
			s.flags = k == 0 ? PC_SYMF_EXCLUDED : k == 1 ? PC_SYMF_NOATTR : 0;
			s.size = below(&r, 3) ? below(&r, 200) : 0;
			if (below(&r, 3) == 0)
				s.flags |= PC_SYMF_EXTENT; /* ends at its size: gaps */
			assert_int_equal(pc_profile_add_symbol(p, &s), PC_OK);
		}
		/* regions: the program's, others, nested ones */
		const int nr = (int)below(&r, 4);
		for (int k = 0; k < nr; k++) {
			uint64_t lo = first - 64 + below(&r, last - first + 128);
			uint64_t hi = lo + below(&r, last - first + 128);
			pc_region rg = {seg, lo, hi + 1,
					k == 0 ? PC_REGION_APPLICATION
					       : (pc_region_class)below(&r, PC_REGION_COUNT),
					"r"};
			assert_int_equal(pc_profile_add_region(p, &rg), PC_OK);
		}
	}
	return p;
}

/* Both ways, compared bit for bit (memcmp: -0 and +0 differ, so do
 * NaNs of other payloads); *nrows: the rows compared. */
static void compare(uint64_t seed, int big, int huge_counts, size_t *nrows)
{
	pc_profile *a = build(seed, big, huge_counts);
	pc_profile *b = build(seed, big, huge_counts);
	pc_attrib_set_reference(a, 1);
	size_t na = test_rows(a);
	size_t nb = test_rows(b);
	assert_int_equal(na, nb);
	for (size_t i = 0; i < na; i++) {
		pc_row ra, rb;
		assert_int_equal(pc_profile_row_at(&ra, a, i), PC_OK);
		assert_int_equal(pc_profile_row_at(&rb, b, i), PC_OK);
		if (memcmp(&ra.count, &rb.count, sizeof ra.count) != 0)
			fail_msg("seed %llu big %d huge %d: row %zu (%s at 0x%llx): %.17g by "
				 "bucket, %.17g by runs",
				 (unsigned long long)seed, big, huge_counts, i, ra.name,
				 (unsigned long long)ra.address, ra.count, rb.count);
		assert_int_equal(ra.address, rb.address);
	}
	pc_itotals ta, tb;
	assert_int_equal(pc_profile_itotals(a, &ta), PC_OK);
	assert_int_equal(pc_profile_itotals(b, &tb), PC_OK);
	const char *what[] = {"total", "in_program", "attributed", "outside", "excluded"};
	for (int k = 0; k < 5; k++) {
		const double *x = k == 0 ? &ta.total : k == 1 ? &ta.in_program
				     : k == 2 ? &ta.attributed : k == 3 ? &ta.outside
							      : &ta.excluded;
		const double *y = k == 0 ? &tb.total : k == 1 ? &tb.in_program
				     : k == 2 ? &tb.attributed : k == 3 ? &tb.outside
							      : &tb.excluded;
		if (memcmp(x, y, sizeof *x) != 0)
			fail_msg("seed %llu big %d huge %d: %s %.17g by bucket, %.17g by runs",
				 (unsigned long long)seed, big, huge_counts, what[k], *x, *y);
	}
	for (int k = 0; k < PC_REGION_COUNT; k++)
		if (memcmp(&ta.by_class[k], &tb.by_class[k], sizeof(double)) != 0)
			fail_msg("seed %llu big %d huge %d: class %d %.17g by bucket, %.17g by runs",
				 (unsigned long long)seed, big, huge_counts, k,
				 ta.by_class[k], tb.by_class[k]);
	*nrows += na;
	pc_profile_free(a);
	pc_profile_free(b);
}

static void small_counts(void **state)
{
	(void)state;
	size_t rows = 0;
	for (uint64_t seed = 1; seed <= 3000; seed++)
		compare(seed, 0, 0, &rows);
	assert_true(rows > 30000); /* (the seeds make targets) */
}

static void huge_counts(void **state)
{
	(void)state;
	size_t rows = 0;
	for (uint64_t seed = 1; seed <= 3000; seed++)
		compare(seed, 0, 1, &rows);
	assert_true(rows > 30000);
}

static void quotient_table(void **state)
{
	(void)state;
	size_t rows = 0;
	for (uint64_t seed = 1; seed <= 40; seed++) {
		compare(seed, 1, 0, &rows);
		compare(seed, 1, 1, &rows);
	}
	assert_true(rows > 400);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(small_counts),
		cmocka_unit_test(huge_counts),
		cmocka_unit_test(quotient_table),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
