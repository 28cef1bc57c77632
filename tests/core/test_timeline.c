/* The input's order (libprofcore/timeline.c): windows in order, exact
 * counts through pairwise merges, the bound on windows and on cells,
 * the refusals, and what pc_profile_merge keeps; the windows a loader's
 * events make through order.c. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "profcore.h"
#include "profcore_plugin.h"
#include "order.h"

static pc_profile *fresh(void)
{
	pc_profile *p;
	assert_int_equal(pc_profile_new(&p, NULL), PC_OK);
	return p;
}

/* Window i's count at address a (0 if it has none). */
static uint64_t count_at(const pc_profile *p, size_t i, uint64_t a)
{
	uint64_t first, end, addr, c;
	size_t n;
	uint32_t seg;
	assert_int_equal(pc_profile_window_at(&first, &end, &n, p, i), PC_OK);
	for (size_t j = 0; j < n; j++) {
		assert_int_equal(pc_profile_window_address(&seg, &addr, &c, p, i, j), PC_OK);
		if (addr == a)
			return c;
	}
	return 0;
}

/* 100 windows of the span asked for, window k: span - 1 events at
 * 0x100 + k % 3 and one at 0x200.  Merged pairwise at 64 windows. */
static void merges_exact(void **state)
{
	(void)state;
	pc_profile *p = fresh();
	uint32_t seg[2] = {PC_NOSEG, PC_NOSEG};
	uint64_t pos = 0, span;
	for (unsigned k = 0; k < 100; k++) {
		assert_int_equal(pc_profile_window_span(&span, p), PC_OK);
		uint64_t addr[2] = {0x100 + k % 3, 0x200}, cnt[2] = {span - 1, 1};
		assert_int_equal(pc_profile_add_window(p, pos, pos + span, seg, addr, cnt, 2), PC_OK);
		pos += span;
	}
	/* 64 windows of 4096 -> 32 of 8192; 32 more -> 32 of 16384; 36 more
	 * of 16384 */
	size_t nw;
	assert_int_equal(pc_profile_window_count(&nw, p), PC_OK);
	assert_int_equal(nw, 32 + 4);
	uint64_t first, end;
	size_t n;
	assert_int_equal(pc_profile_window_at(&first, &end, &n, p, 0), PC_OK);
	assert_true(first == 0 && end == 4 * 4096 && n == 4);
	/* window 0 holds the first four of 4096: 0x100 twice, 0x101, 0x102 */
	assert_int_equal(count_at(p, 0, 0x100), 2 * 4095);
	assert_int_equal(count_at(p, 0, 0x101), 4095);
	assert_int_equal(count_at(p, 0, 0x200), 4);
	assert_int_equal(pc_profile_window_at(&first, &end, &n, p, 35), PC_OK);
	assert_int_equal(end, pos);
	assert_int_equal(pc_profile_window_at(&first, &end, &n, p, 36), PC_ENOTFOUND);
	/* the samples are the windows' */
	double c;
	assert_int_equal(pc_profile_class_total(&c, p, PC_REGION_UNKNOWN), PC_OK);
	assert_true(c == (double)pos);
	pc_profile_free(p);
}

/* Windows of 400000 distinct addresses: past 2^20 cells they merge
 * (adjacent windows share the addresses, so a merge halves them). */
static void cells_bounded(void **state)
{
	(void)state;
	pc_profile *p = fresh();
	enum { N = 400000 };
	uint32_t *seg = malloc(N * sizeof *seg);
	uint64_t *addr = malloc(N * sizeof *addr), *cnt = malloc(N * sizeof *cnt);
	assert_non_null(seg);
	assert_non_null(addr);
	assert_non_null(cnt);
	for (size_t i = 0; i < N; i++)
		seg[i] = PC_NOSEG, addr[i] = 0x10000 + 4 * (uint64_t)i, cnt[i] = 1;
	for (unsigned k = 0; k < 6; k++)
		assert_int_equal(pc_profile_add_window(p, (uint64_t)k * N, (uint64_t)(k + 1) * N,
						       seg, addr, cnt, N), PC_OK);
	/* 3 windows: 1.2e6 cells > 2^20 -> 2 (800000 cells); 5 -> ...: at
	 * most 2 windows of distinct cells at any time */
	size_t nw, total = 0;
	assert_int_equal(pc_profile_window_count(&nw, p), PC_OK);
	for (size_t i = 0; i < nw; i++) {
		uint64_t first, end;
		size_t n;
		assert_int_equal(pc_profile_window_at(&first, &end, &n, p, i), PC_OK);
		assert_int_equal(n, N);
		assert_int_equal(count_at(p, i, 0x10000), (end - first) / N);
		total += n;
	}
	assert_true(total <= ((size_t)1 << 20));
	assert_int_equal(nw, 2);
	free(seg);
	free(addr);
	free(cnt);
	pc_profile_free(p);
}

static void refusals_and_merge(void **state)
{
	(void)state;
	pc_profile *p = fresh(), *q = fresh(), *r = fresh();
	uint32_t seg = PC_NOSEG;
	uint64_t a = 0x10, c = 3;
	assert_int_equal(pc_profile_add_window(p, 5, 5, &seg, &a, &c, 1), PC_EUSAGE);
	assert_int_equal(pc_profile_add_window(p, 0, 5, &seg, &a, &c, 1), PC_OK);
	assert_int_equal(pc_profile_add_window(p, 6, 9, &seg, &a, &c, 1), PC_EUSAGE);
	assert_string_equal(pc_profile_error(p)->message,
			    "pc_profile_add_window: window [6, 9) does not follow the last one, which ends at 5");
	assert_int_equal(pc_profile_add_window(p, 5, 9, &seg, &a, &c, 1), PC_OK);
	/* no order of its own: q gets p's */
	assert_int_equal(pc_profile_merge(q, p), PC_OK);
	size_t nw;
	assert_int_equal(pc_profile_window_count(&nw, q), PC_OK);
	assert_int_equal(nw, 2);
	assert_int_equal(count_at(q, 1, 0x10), 3);
	/* two orders: none */
	assert_int_equal(pc_profile_merge(q, p), PC_OK);
	assert_int_equal(pc_profile_window_count(&nw, q), PC_OK);
	assert_int_equal(nw, 0);
	/* a second input's window at 0: none */
	assert_int_equal(pc_profile_add_window(p, 0, 5, &seg, &a, &c, 1), PC_OK);
	assert_int_equal(pc_profile_window_count(&nw, p), PC_OK);
	assert_int_equal(nw, 0);
	/* no windows: none */
	assert_int_equal(pc_profile_add_sample(r, PC_NOSEG, 0x10, 4), PC_OK);
	assert_int_equal(pc_profile_window_count(&nw, r), PC_OK);
	assert_int_equal(nw, 0);
	pc_profile_free(p);
	pc_profile_free(q);
	pc_profile_free(r);
}

/* 10,000 events through order.c, event i at 0x1000 + i % 7, a window
 * boundary after each and 3 skipped places after every 1000th: windows
 * of exactly the span (4096) from 0, each address's counts in a window
 * those of its events there, and the profile's samples their sum. */
static void order_windows(void **state)
{
	(void)state;
	pc_profile *p = fresh();
	pc_order *o;
	assert_int_equal(pc_order_new(&o, p), PC_OK);
	uint64_t want[3][7] = {{0}}, pos = 0;
	for (unsigned i = 0; i < 10000; i++) {
		assert_int_equal(pc_order_boundary(o), PC_OK);
		want[pos / 4096][i % 7]++;
		assert_int_equal(pc_order_add(o, PC_NOSEG, 0x1000 + i % 7, 1), PC_OK);
		pos++;
		if (i % 1000 == 999) {
			assert_int_equal(pc_order_boundary(o), PC_OK);
			pc_order_skip(o, 3);
			pos += 3;
		}
	}
	assert_int_equal(pc_order_pos(o), 10030);
	assert_int_equal(pc_order_flush(o), PC_OK);
	assert_int_equal(pc_order_flush(o), PC_OK); /* nothing open: no window */
	pc_order_free(o);
	size_t nw, n;
	uint64_t first, end;
	assert_int_equal(pc_profile_window_count(&nw, p), PC_OK);
	assert_int_equal(nw, 3);
	const uint64_t bounds[4] = {0, 4096, 8192, 10030};
	for (size_t w = 0; w < 3; w++) {
		assert_int_equal(pc_profile_window_at(&first, &end, &n, p, w), PC_OK);
		assert_int_equal(first, bounds[w]);
		assert_int_equal(end, bounds[w + 1]);
		assert_int_equal(n, 7);
		for (unsigned a = 0; a < 7; a++)
			assert_int_equal(count_at(p, w, 0x1000 + a), want[w][a]);
	}
	/* the events were counted once each, by the windows */
	assert_int_equal(pc_profile_sample_count(p), 7);
	for (size_t i = 0; i < 7; i++) {
		uint64_t a, c;
		assert_int_equal(pc_profile_sample_at(NULL, &a, &c, p, i), PC_OK);
		assert_int_equal(a, 0x1000 + i);
		assert_int_equal(c, want[0][i] + want[1][i] + want[2][i]);
	}
	pc_profile_free(p);
}

/* Events of one unit (a block of 3000 instructions) stay in one window:
 * with no boundary inside it, the window spans 6000, past the span. */
static void order_units(void **state)
{
	(void)state;
	pc_profile *p = fresh();
	pc_order *o;
	assert_int_equal(pc_order_new(&o, p), PC_OK);
	/* the room before a boundary ends the window: 4096, 1096, none,
	 * then 4096 again in the next window */
	const uint64_t before[3] = {4096, 1096, 0}, room[3] = {4096, 1096, 4096};
	for (unsigned u = 0; u < 3; u++) {
		assert_int_equal(pc_order_room(o), before[u]);
		assert_int_equal(pc_order_boundary(o), PC_OK);
		assert_int_equal(pc_order_room(o), room[u]);
		for (unsigned i = 0; i < 3000; i++)
			assert_int_equal(pc_order_add(o, 2, 0x40 + 4 * (i % 100), 1), PC_OK);
	}
	assert_int_equal(pc_order_room(o), 1096);
	assert_int_equal(pc_order_flush(o), PC_OK);
	pc_order_free(o);
	size_t nw, n;
	uint64_t first, end;
	assert_int_equal(pc_profile_window_count(&nw, p), PC_OK);
	assert_int_equal(nw, 2);
	assert_int_equal(pc_profile_window_at(&first, &end, &n, p, 0), PC_OK);
	assert_int_equal(first, 0);
	assert_int_equal(end, 6000);
	assert_int_equal(n, 100);
	assert_int_equal(count_at(p, 0, 0x40), 60);
	assert_int_equal(pc_profile_window_at(&first, &end, &n, p, 1), PC_OK);
	assert_int_equal(first, 6000);
	assert_int_equal(end, 9000);
	pc_profile_free(p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(merges_exact),
		cmocka_unit_test(cells_bounded),
		cmocka_unit_test(refusals_and_merge),
		cmocka_unit_test(order_windows),
		cmocka_unit_test(order_units),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
