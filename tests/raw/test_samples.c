/* The sample store's binned mode and the O(1) lookup table: the same
 * per-symbol and per-region counts as exact per-address counting, with
 * one thread or several, and honest about samples binned too early. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "lookup.h"
#include "model.h"

#include "../common/pc_test.h"


static uint64_t rng = 0x9E3779B97F4A7C15ull;
static uint64_t next(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

/* the reference: plain binary search for the greatest start <= a */
static size_t brute(const uint64_t *start, size_t n, uint64_t a)
{
	size_t lo = 0, hi = n;
	while (hi - lo > 1) {
		size_t mid = lo + (hi - lo) / 2;
		if (start[mid] <= a)
			lo = mid;
		else
			hi = mid;
	}
	return lo;
}

static int cmp_u64(const void *x, const void *y)
{
	uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y;
	return a < b ? -1 : (a > b);
}

/* starts: 0, then n-1 distinct sorted values from gen */
static void check_table(uint64_t *start, size_t n)
{
	pc_lookup_table t;
	assert_int_equal(pc_lookup_build(&t, start, n), PC_OK);
	uint64_t lo = start[n > 1 ? 1 : 0], hi = start[n - 1];
	for (size_t i = 0; i < 200000; i++) {
		uint64_t a;
		switch (i % 4) {
		case 0: a = lo + next() % (hi - lo + 64); break;
		case 1: a = start[next() % n] + (next() % 3) - 1; break;
		case 2: a = next(); break;
		default: a = lo ? lo - 1 - next() % lo : 0; break;
		}
		assert_int_equal(pc_lookup_find(&t, start, a), brute(start, n, a));
	}
	for (size_t k = 0; k < n; k++)
		assert_int_equal(pc_lookup_find(&t, start, start[k]), k);
	assert_int_equal(pc_lookup_find(&t, start, UINT64_MAX), n - 1);
	pc_lookup_dispose(&t);
}

static void table_random(void **state)
{
	(void)state;
	size_t n = 5001;
	uint64_t *s = malloc(n * sizeof *s);
	s[0] = 0;
	for (size_t i = 1; i < n; i++)
		s[i] = 0x400000 + next() % (1u << 20);
	qsort(s, n, sizeof *s, cmp_u64);
	size_t m = 1;
	for (size_t i = 1; i < n; i++)
		if (s[i] != s[m - 1])
			s[m++] = s[i];
	check_table(s, m);
	free(s);
}

static void table_dense_pages(void **state)
{
	/* 4000 one-byte cells in a row (saturated second level), then a
	 * sparse tail: the fix-up must stay exact */
	(void)state;
	size_t n = 4200;
	uint64_t *s = malloc(n * sizeof *s);
	s[0] = 0;
	for (size_t i = 1; i < 4001; i++)
		s[i] = 0x1000 + i;
	for (size_t i = 4001; i < n; i++)
		s[i] = s[i - 1] + 1 + next() % 5000;
	check_table(s, n);
	free(s);
}

static void table_wide_span(void **state)
{
	/* more than 4 GiB between the first and last start: binary search */
	(void)state;
	uint64_t s[] = {0, 0x1000, 0x2000, 0x7f0000000000ull, 0x7f0000001000ull};
	check_table(s, 5);
	pc_lookup_table t;
	assert_int_equal(pc_lookup_build(&t, s, 5), PC_OK);
	assert_int_equal(t.fast, 0);
	pc_lookup_dispose(&t);
	uint64_t one[] = {0};
	check_table(one, 1);
}

/* A profile with nsym text symbols (sizes on some), two regions. */
static pc_profile *program(size_t nsym, uint64_t seed)
{
	pc_profile *p;
	pc_profile_new(&p, NULL);
	rng = seed;
	char name[32];
	uint64_t a = 0x10000;
	for (size_t i = 0; i < nsym; i++) {
		snprintf(name, sizeof name, "f%zu", i);
		uint64_t len = 16 + next() % 200;
		pc_symbol s = {name, NULL, NULL, PC_NOSEG, a, i % 3 ? 0 : len / 2,
			       PC_SYM_TEXT, PC_BIND_GLOBAL, PC_SYMF_FUNC};
		assert_int_equal(pc_profile_add_symbol(p, &s), PC_OK);
		a += len;
	}
	pc_region lowr = {PC_NOSEG, 0, 0x10000, PC_REGION_LOW, "PA_BOT_MEM"};
	pc_region rom = {PC_NOSEG, a + 0x100, a + 0x8000, PC_REGION_SYSTEM, "ROM"};
	assert_int_equal(pc_profile_add_region(p, &lowr), PC_OK);
	assert_int_equal(pc_profile_add_region(p, &rom), PC_OK);
	return p;
}

static void same_attribution(pc_profile *a, pc_profile *b, int use_sizes)
{
	pc_attrib_options o = PC_ATTRIB_OPTIONS_INIT;
	o.use_sizes = use_sizes;
	assert_int_equal(pc_profile_attribute(a, &o), PC_OK);
	assert_int_equal(pc_profile_attribute(b, &o), PC_OK);
	size_t n = test_rows(a);
	assert_int_equal(n, test_rows(b));
	for (size_t i = 0; i < n; i++) {
		pc_row x, y;
		pc_profile_row_at(&x, a, i);
		pc_profile_row_at(&y, b, i);
		assert_string_equal(x.name, y.name);
		assert_true(x.count == y.count);
	}
	pc_totals ta, tb;
	pc_profile_totals(&ta, a);
	pc_profile_totals(&tb, b);
	assert_true(ta.total == tb.total);
	assert_true(ta.attributed == tb.attributed);
	for (int c = 0; c < PC_REGION_COUNT; c++) {
		double ca = -1, cb = -2;
		assert_int_equal(pc_profile_class_total(&ca, a, (pc_region_class)c),
				 PC_OK);
		assert_int_equal(pc_profile_class_total(&cb, b, (pc_region_class)c),
				 PC_OK);
		assert_true(ca == cb);
	}
}

/* 2^21 samples over ~2 MiB: far above the exact limit. */
static uint64_t *dump(size_t n, uint64_t span)
{
	uint64_t *v = malloc(n * sizeof *v);
	for (size_t i = 0; i < n; i++)
		v[i] = next() % span;
	return v;
}

static void binned_equals_exact(unsigned threads)
{
	size_t n = (size_t)1 << 21;
	uint64_t *v = dump(n, 0x240000);
	/* binned: symbols first */
	pc_profile *b = program(10000, 7);
	assert_int_equal(pc_profile_set_threads(b, threads), PC_OK);
	assert_int_equal(pc_profile_threads(b), threads);
	for (size_t i = 0; i < n; i += 300000)
		assert_int_equal(pc_profile_add_samples(b, PC_NOSEG, v + i,
							n - i < 300000 ? n - i : 300000),
				 PC_OK);
	assert_true(pc_samples_binned(b->samples));
	assert_int_equal(pc_profile_samples_per_address(b), 0);
	/* exact: samples first, so no cells can be built */
	pc_profile *e;
	pc_profile_new(&e, NULL);
	assert_int_equal(pc_profile_set_threads(e, threads), PC_OK);
	assert_int_equal(pc_profile_add_samples(e, PC_NOSEG, v, n), PC_OK);
	assert_false(pc_samples_binned(e->samples));
	pc_profile *tmp = program(10000, 7); /* the same symbols */
	for (size_t i = 0; i < tmp->nsyms; i++)
		pc_profile_add_symbol(e, &tmp->syms[i]);
	for (size_t i = 0; i < tmp->nregions; i++)
		pc_profile_add_region(e, &tmp->regions[i]);
	pc_profile_free(tmp);
	same_attribution(b, e, 0);
	same_attribution(b, e, 1);
	assert_int_equal(pc_samples_displaced(b->samples), 0);
	assert_int_equal(pc_profile_warning_count(b), 1);
	assert_string_equal(pc_profile_warning_at(b, 0),
			    "raw samples: more than 131072 distinct addresses, so from here on they are counted per interval between symbol and region boundaries (exact per symbol and region; no per-address detail)");
	pc_profile_free(b);
	pc_profile_free(e);
	free(v);
}

static void binned_one_thread(void **state)
{
	(void)state;
	rng = 0x9E3779B97F4A7C15ull;
	binned_equals_exact(1);
}

static void binned_two_threads(void **state)
{
	(void)state;
	rng = 0x9E3779B97F4A7C15ull;
	binned_equals_exact(2);
}

/* The batched counting loops (samples.c) over cells that saturate the
 * second level (4000 one-byte symbols in a row: the searched path) and a
 * sparse tail, with samples below, inside and above the table's span:
 * every count as exact per-address counting gives it. */
static pc_profile *dense_program(void)
{
	pc_profile *p;
	pc_profile_new(&p, NULL);
	char name[32];
	uint64_t a = 0x10000;
	for (size_t i = 0; i < 4200; i++) {
		snprintf(name, sizeof name, "d%zu", i);
		pc_symbol s = {name, NULL, NULL, PC_NOSEG, a, 0, PC_SYM_TEXT,
			       PC_BIND_GLOBAL, PC_SYMF_FUNC};
		assert_int_equal(pc_profile_add_symbol(p, &s), PC_OK);
		a += i < 4000 ? 1 : 1 + (i * 7919) % 500; /* the same each call */
	}
	return p;
}

static void binned_dense_cells(unsigned threads)
{
	rng = 0x2545F4914F6CDD1Dull;
	size_t n = (size_t)1 << 20;
	uint64_t *v = malloc(n * sizeof *v);
	assert_non_null(v);
	for (size_t i = 0; i < n; i++) {
		uint64_t r = next();
		/* a third in the dense run, the rest from below 0x10000 to
		 * past the last symbol (about 0x10fa0 + 200 * 250) */
		v[i] = i % 3 ? r % 0x30000 : 0x10000 + r % 4100;
	}
	pc_profile *b = dense_program();
	assert_int_equal(pc_profile_set_threads(b, threads), PC_OK);
	for (size_t i = 0; i < n; i += 200000)
		assert_int_equal(pc_profile_add_samples(b, PC_NOSEG, v + i,
							n - i < 200000 ? n - i : 200000),
				 PC_OK);
	assert_true(pc_samples_binned(b->samples));
	pc_profile *e;
	pc_profile_new(&e, NULL);
	assert_int_equal(pc_profile_add_samples(e, PC_NOSEG, v, n), PC_OK);
	assert_false(pc_samples_binned(e->samples));
	pc_profile *tmp = dense_program();
	for (size_t i = 0; i < tmp->nsyms; i++)
		pc_profile_add_symbol(e, &tmp->syms[i]);
	pc_profile_free(tmp);
	same_attribution(b, e, 0);
	/* the run of one-byte cells does saturate the second level */
	uint64_t st[4001] = {0};
	for (size_t i = 0; i < 4000; i++)
		st[i + 1] = 0x10000 + i; /* the dense run's starts */
	pc_lookup_table t;
	assert_int_equal(pc_lookup_build(&t, st, 4001), PC_OK);
	assert_true(t.fast);
	assert_true(t.nsat > 0);
	pc_lookup_dispose(&t);
	pc_profile_free(b);
	pc_profile_free(e);
	free(v);
}

static void binned_dense_one_thread(void **state)
{
	(void)state;
	binned_dense_cells(1);
}

static void binned_dense_two_threads(void **state)
{
	(void)state;
	binned_dense_cells(2);
}

/* Cells in several segments (the boundaries are sorted by segment, then
 * address): symbols in segments 2 and 1 given in that order, samples in
 * both and in a segment without symbols.  Segment 1's 300 symbols make a
 * table small enough to be counted one sample at a time, segment 2's
 * 3000 one counted in batches. */
static pc_profile *segmented_program(void)
{
	pc_profile *p;
	pc_profile_new(&p, NULL);
	char name[32];
	for (uint32_t seg = 2; seg >= 1; seg--) {
		uint64_t a = 0x1000 * seg;
		for (size_t i = 0; i < (seg == 2 ? 3000u : 300u); i++) {
			snprintf(name, sizeof name, "s%u_%zu", (unsigned)seg, i);
			pc_symbol s = {name, NULL, NULL, seg, a, i % 2 ? 0 : 40,
				       PC_SYM_TEXT, PC_BIND_GLOBAL, PC_SYMF_FUNC};
			assert_int_equal(pc_profile_add_symbol(p, &s), PC_OK);
			a += 16 + (i * 7919 + seg) % 300;
		}
	}
	return p;
}

static void binned_segments(void **state)
{
	(void)state;
	rng = 0x5851F42D4C957F2Dull;
	size_t n = 300000;
	uint64_t *v = malloc(n * sizeof *v);
	assert_non_null(v);
	for (size_t i = 0; i < n; i++)
		v[i] = next() % 0x80000;
	pc_profile *b = segmented_program();
	pc_profile *e;
	pc_profile_new(&e, NULL);
	/* segment 1 last: its samples come once the cells are built */
	static const uint32_t order[3] = {2, 3, 1};
	for (size_t k = 0; k < 3; k++) {
		uint32_t seg = order[k];
		assert_int_equal(pc_profile_add_samples(b, seg, v + k * 100000, 100000),
				 PC_OK);
		assert_int_equal(pc_profile_add_samples(e, seg, v + k * 100000, 100000),
				 PC_OK);
	}
	assert_true(pc_samples_binned(b->samples));
	assert_false(pc_samples_binned(e->samples));
	pc_profile *tmp = segmented_program();
	for (size_t i = 0; i < tmp->nsyms; i++)
		pc_profile_add_symbol(e, &tmp->syms[i]);
	pc_profile_free(tmp);
	same_attribution(b, e, 0);
	same_attribution(b, e, 1);
	pc_profile_free(b);
	pc_profile_free(e);
	free(v);
}

static void late_symbol_is_reported(void **state)
{
	(void)state;
	pc_profile *p;
	pc_profile_new(&p, NULL);
	pc_symbol s = {"big", NULL, NULL, PC_NOSEG, 0x1000, 0, PC_SYM_TEXT,
		       PC_BIND_GLOBAL, PC_SYMF_FUNC};
	pc_symbol e = {"end", NULL, NULL, PC_NOSEG, 0x101000, 0, PC_SYM_TEXT,
		       PC_BIND_GLOBAL, PC_SYMF_FUNC};
	pc_profile_add_symbol(p, &s);
	pc_profile_add_symbol(p, &e);
	size_t n = 400000;
	uint64_t *v = malloc(n * sizeof *v);
	for (size_t i = 0; i < n; i++)
		v[i] = 0x1000 + i * 2; /* 0x1000 .. 0xc4dfe: all in "big" */
	assert_int_equal(pc_profile_add_samples(p, PC_NOSEG, v, n), PC_OK);
	assert_true(pc_samples_binned(p->samples));
	/* a symbol cutting the populated cell: cannot be split any more */
	pc_symbol late = {"late", NULL, NULL, PC_NOSEG, 0x80000, 0, PC_SYM_TEXT,
			  PC_BIND_GLOBAL, PC_SYMF_FUNC};
	pc_profile_add_symbol(p, &late);
	assert_int_equal(pc_profile_attribute(p, NULL), PC_OK);
	pc_row r;
	pc_profile_row_at(&r, p, 0);
	assert_string_equal(r.name, "big");
	assert_true(r.count == 400000);
	assert_int_equal(pc_samples_displaced(p->samples), 400000);
	assert_int_equal(pc_profile_warning_count(p), 2);
	assert_string_equal(pc_profile_warning_at(p, 1),
			    "400000 raw samples were counted before symbols or regions inside their interval were loaded; they are credited at the interval start (load symbol files before large dumps)");
	/* the cells were refined: new samples land exactly */
	uint64_t a[2] = {0x80010, 0x7fff0};
	assert_int_equal(pc_profile_add_samples(p, PC_NOSEG, a, 2), PC_OK);
	assert_int_equal(pc_profile_attribute(p, NULL), PC_OK);
	pc_profile_row_at(&r, p, 1);
	assert_string_equal(r.name, "late");
	assert_true(r.count == 1);
	pc_profile_row_at(&r, p, 0);
	assert_true(r.count == 400001);
	free(v);
	pc_profile_free(p);
}

/* Binned, then symbols and single samples added in turn (a tool feeding
 * the API as it reads): each sample waits, exactly, for the next rebuild
 * of the cells (at the next read, or when as many wait as there are
 * boundaries), and lands in its own symbol; the rebuild per sample this
 * replaces made 200,000 symbols take minutes. */
static void symbols_and_samples_in_turn(void **state)
{
	(void)state;
	pc_profile *p;
	pc_profile_new(&p, NULL);
	pc_symbol s = {"big", NULL, NULL, PC_NOSEG, 0x1000, 0x100000, PC_SYM_TEXT,
		       PC_BIND_GLOBAL, PC_SYMF_FUNC};
	pc_profile_add_symbol(p, &s);
	size_t n = 400000;
	uint64_t *v = malloc(n * sizeof *v);
	for (size_t i = 0; i < n; i++)
		v[i] = 0x1000 + i * 2;
	assert_int_equal(pc_profile_add_samples(p, PC_NOSEG, v, n), PC_OK);
	assert_true(pc_samples_binned(p->samples));
	enum { M = 20000 };
	char name[32];
	for (size_t i = 0; i < M; i++) {
		snprintf(name, sizeof name, "f%zu", i);
		pc_symbol f = {name, NULL, NULL, PC_NOSEG, 0x200000 + 16 * i, 16,
			       PC_SYM_TEXT, PC_BIND_GLOBAL, PC_SYMF_FUNC};
		assert_int_equal(pc_profile_add_symbol(p, &f), PC_OK);
		assert_int_equal(pc_profile_add_sample(p, PC_NOSEG, 0x200000 + 16 * i + 4,
						       1 + i % 3),
				 PC_OK);
	}
	/* more than the 20,001 boundaries' worth wait: a rebuild midway */
	for (size_t k = 0; k < 25000; k++)
		assert_int_equal(pc_profile_add_sample(p, PC_NOSEG, 0x200008, 1), PC_OK);
	assert_int_equal(pc_profile_attribute(p, NULL), PC_OK);
	size_t rows;
	assert_int_equal(pc_profile_row_count(&rows, p), PC_OK);
	assert_int_equal(rows, M + 1);
	pc_row r;
	assert_int_equal(pc_profile_row_at(&r, p, 0), PC_OK);
	assert_string_equal(r.name, "big");
	assert_true(r.count == 400000);
	for (size_t i = 0; i < M; i++) {
		assert_int_equal(pc_profile_row_at(&r, p, i + 1), PC_OK);
		snprintf(name, sizeof name, "f%zu", i);
		assert_string_equal(r.name, name);
		assert_true(r.count == (double)(1 + i % 3) + (i == 0 ? 25000 : 0));
	}
	assert_int_equal(pc_samples_displaced(p->samples), 0);
	free(v);
	pc_profile_free(p);
}

static void small_dumps_stay_exact(void **state)
{
	(void)state;
	pc_profile *p = program(10, 7);
	uint64_t a[5] = {0x10005, 0x10005, 0x10007, 5, 0x10005};
	assert_int_equal(pc_profile_add_samples(p, PC_NOSEG, a, 5), PC_OK);
	assert_false(pc_samples_binned(p->samples));
	assert_int_equal(pc_profile_samples_per_address(p), 1);
	assert_int_equal(pc_profile_sample_count(p), 3);
	uint32_t seg;
	uint64_t addr, count;
	pc_profile_sample_at(&seg, &addr, &count, p, 1);
	assert_int_equal(addr, 0x10005);
	assert_int_equal(count, 3);
	pc_profile_free(p);
}

/* The sorted view replaces the exact tables (samples.c, "xfolded"):
 * samples added after it was read are counted on top, in every segment. */
static void samples_after_the_sorted_view(void **state)
{
	(void)state;
	pc_profile *p;
	pc_profile_new(&p, NULL);
	uint64_t a[4] = {0x30, 0x10, 0x30, 0x20};
	assert_int_equal(pc_profile_add_samples(p, PC_NOSEG, a, 4), PC_OK);
	assert_int_equal(pc_profile_add_sample(p, 2, 0x10, 5), PC_OK);
	assert_int_equal(pc_profile_sample_count(p), 4);
	uint64_t b[3] = {0x40, 0x30, 0x10};
	assert_int_equal(pc_profile_add_samples(p, PC_NOSEG, b, 3), PC_OK);
	assert_int_equal(pc_profile_add_sample(p, 2, 0x10, 1), PC_OK);
	assert_int_equal(pc_profile_add_sample(p, 1, 0x8, 7), PC_OK);
	assert_int_equal(pc_profile_sample_count(p), 6);
	static const struct {
		uint32_t seg;
		uint64_t addr, count;
	} want[6] = {{1, 0x8, 7}, {2, 0x10, 6}, {PC_NOSEG, 0x10, 2},
		     {PC_NOSEG, 0x20, 1}, {PC_NOSEG, 0x30, 3}, {PC_NOSEG, 0x40, 1}};
	uint32_t seg;
	uint64_t addr, count;
	for (size_t i = 0; i < 6; i++) {
		pc_profile_sample_at(&seg, &addr, &count, p, i);
		assert_int_equal(seg, want[i].seg);
		assert_int_equal(addr, want[i].addr);
		assert_int_equal(count, want[i].count);
	}
	assert_int_equal(pc_samples_distinct(p->samples), 6);
	pc_profile_free(p);
}

/* pc_radix_sort (lookup.c), used to order attribution targets and report
 * rows: the order of a stable sort, for keys that differ in few or many
 * digits, in order, reversed or random. */
static int cmp_rkey(const void *x, const void *y)
{
	const pc_rkey *a = x, *b = y;
	if (a->key != b->key)
		return a->key < b->key ? -1 : 1;
	return a->idx < b->idx ? -1 : (a->idx > b->idx); /* stable */
}

static void radix_sort_is_a_stable_sort(void **state)
{
	(void)state;
	/* sizes for each digit width (8, 11 and 13 bits) */
	static const size_t sizes[] = {100, 5000, 40000};
	enum { NMAX = 40000 };
	pc_rkey *v = malloc(NMAX * sizeof *v), *tmp = malloc(NMAX * sizeof *tmp);
	pc_rkey *want = malloc(NMAX * sizeof *want);
	assert_non_null(v);
	assert_non_null(tmp);
	assert_non_null(want);
	for (int kind = 0; kind < 8 * 3; kind++) {
		const size_t N = sizes[kind / 8];
		for (size_t i = 0; i < N; i++) {
			uint64_t r = next();
			const int kd = kind % 8;
			uint64_t k = kd == 0	 ? r			  /* every digit */
				     : kd == 1 ? r % 7		  /* few values */
				     : kd == 2 ? (r % 5) << 59	  /* top digit only */
				     : kd == 3 ? 0x400000 + 16 * (uint64_t)i /* in order */
				     : kd == 4 ? UINT64_MAX - i	  /* reversed */
				     : kd == 5 ? 0x400000 + (r % 1000) * 4 /* addresses */
				     : kd == 6 ? (r % 2048) << 20	  /* 11 bits in the middle */
						 : (r >> 1) | 1;	  /* 63 bits, lowest set */
			v[i] = (pc_rkey){k, i};
		}
		memcpy(want, v, N * sizeof *v);
		qsort(want, N, sizeof *want, cmp_rkey);
		pc_rkey *got = pc_radix_sort(v, tmp, N);
		for (size_t i = 0; i < N; i++) {
			assert_int_equal(got[i].key, want[i].key);
			assert_int_equal(got[i].idx, want[i].idx);
		}
	}
	free(v);
	free(tmp);
	free(want);
}

/* pc_double_key keeps the order of doubles; -0 and +0 get one key */
static void double_keys_keep_the_order(void **state)
{
	(void)state;
	static const double d[] = {-1e300, -2.5, -1, -1e-300, -0.0, 0.0, 1e-300,
				   0.5, 1, 1.0000000000000002, 2.5, 195.74, 1e300};
	uint64_t k[sizeof d / sizeof *d];
	for (size_t i = 0; i < sizeof d / sizeof *d; i++)
		assert_int_equal(pc_double_key(d[i], &k[i]), 1);
	for (size_t i = 1; i < sizeof d / sizeof *d; i++) {
		if (d[i - 1] == d[i])
			assert_int_equal(k[i - 1], k[i]);
		else
			assert_true(k[i - 1] < k[i]);
	}
}

/* The exact tables' per-address counts with many repeats (the hint
 * before the hash probe), hint slots shared by several addresses, and
 * the table growing in the middle of a batch (stale hints). */
static void exact_counts_with_repeats(void **state)
{
	(void)state;
	enum { N = 60000, D = 3000 };
	pc_profile *p;
	pc_profile_new(&p, NULL);
	uint64_t *a = malloc(N * sizeof *a);
	uint64_t *want = calloc(D, sizeof *want);
	assert_non_null(a);
	assert_non_null(want);
	for (size_t i = 0; i < N; i++) {
		/* loops over 8 to 64 addresses, and addresses 4 KiB apart
		 * (the same hint slot) */
		uint64_t r = next();
		size_t d = (i / 16) % 8 == 0 ? (size_t)(r % D) : (i % (8 + (i / 1000) % 57)) % D;
		a[i] = d % 2 ? 0x10000000 + 4096 * (uint64_t)d : 0x100000 + 4 * (uint64_t)d;
		want[d]++;
	}
	assert_int_equal(pc_profile_add_samples(p, PC_NOSEG, a, N), PC_OK);
	size_t nd = 0;
	for (size_t d = 0; d < D; d++)
		nd += want[d] != 0;
	assert_int_equal(pc_profile_sample_count(p), nd);
	for (size_t i = 0; i < nd; i++) {
		uint32_t seg;
		uint64_t addr, count;
		pc_profile_sample_at(&seg, &addr, &count, p, i);
		size_t d = addr >= 0x10000000 ? (size_t)((addr - 0x10000000) / 4096)
					      : (size_t)((addr - 0x100000) / 4);
		assert_true(d < D);
		assert_int_equal(count, want[d]);
	}
	free(a);
	free(want);
	pc_profile_free(p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(table_random),
		cmocka_unit_test(table_dense_pages),
		cmocka_unit_test(table_wide_span),
		cmocka_unit_test(small_dumps_stay_exact),
		cmocka_unit_test(binned_one_thread),
		cmocka_unit_test(binned_two_threads),
		cmocka_unit_test(binned_dense_one_thread),
		cmocka_unit_test(binned_dense_two_threads),
		cmocka_unit_test(binned_segments),
		cmocka_unit_test(late_symbol_is_reported),
		cmocka_unit_test(symbols_and_samples_in_turn),
		cmocka_unit_test(samples_after_the_sorted_view),
		cmocka_unit_test(radix_sort_is_a_stable_sort),
		cmocka_unit_test(double_keys_keep_the_order),
		cmocka_unit_test(exact_counts_with_repeats),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
