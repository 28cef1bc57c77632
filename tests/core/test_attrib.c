/* Attribution rules (docs/attribution.md ("Attribution rules")), on a hand-made profile
 * whose every expected number is worked out in the comments. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "profcore.h"
#include "profcore_plugin.h"

#include "model.h"

#include "../common/pc_test.h"

static void sym(pc_profile *p, const char *name, uint64_t addr, pc_symkind k,
		pc_binding b, unsigned flags)
{
	pc_symbol s = {0};
	s.name = name;
	s.segment = PC_NOSEG;
	s.address = addr;
	s.kind = k;
	s.binding = b;
	s.flags = flags;
	assert_int_equal(pc_profile_add_symbol(p, &s), PC_OK);
}

static pc_profile *make(void)
{
	pc_profile *p;
	pc_profile_new(&p, NULL);
	/* targets a@0x100, b@0x10a, c@0x120, mcount@0x13c (excluded) */
	sym(p, "_a", 0x100, PC_SYM_TEXT, PC_BIND_LOCAL, 0); /* loses to a */
	sym(p, "a", 0x100, PC_SYM_TEXT, PC_BIND_GLOBAL, 0);
	sym(p, "__b", 0x10a, PC_SYM_TEXT, PC_BIND_GLOBAL, PC_SYMF_FUNC);
	sym(p, "b", 0x10a, PC_SYM_TEXT, PC_BIND_GLOBAL, PC_SYMF_FUNC); /* no underscore wins */
	sym(p, "c", 0x120, PC_SYM_TEXT, PC_BIND_LOCAL, 0);
	sym(p, "c.cold", 0x128, PC_SYM_TEXT, PC_BIND_LOCAL, PC_SYMF_NOATTR);
	sym(p, "mcount", 0x13c, PC_SYM_TEXT, PC_BIND_GLOBAL, PC_SYMF_EXCLUDED);
	sym(p, "table", 0x130, PC_SYM_DATA, PC_BIND_GLOBAL, 0); /* never charged */
	pc_region app = {PC_NOSEG, 0x100, 0x140, PC_REGION_APPLICATION, "prog"};
	pc_region rom = {PC_NOSEG, 0x0, 0x100, PC_REGION_SYSTEM, "rom"};
	assert_int_equal(pc_profile_add_region(p, &app), PC_OK);
	assert_int_equal(pc_profile_add_region(p, &rom), PC_OK);
	/* 16 bins of 4 bytes over [0x100, 0x140), unit 2: width 2 units.
	 * bin 2 = [0x108, 0x10c) = units [0x84, 0x86): a has unit 0x84, b 0x85
	 *   -> 10 * 1 / 2 = 5 each.
	 * bin 15 = [0x13c, 0x140) = units [0x9e, 0xa0): all mcount -> 4
	 *   excluded. */
	uint64_t counts[16] = {0};
	counts[2] = 10;
	counts[15] = 4;
	pc_histogram h = {PC_NOSEG, 0x100, 0x140, 16, counts, 2};
	assert_int_equal(pc_profile_add_histogram(p, &h), PC_OK);
	/* raw samples: 3 at 0x105 (a), 1 at 0x90 (rom: system), 2 at 0x200
	 * (nowhere: unknown) */
	assert_int_equal(pc_profile_add_sample(p, PC_NOSEG, 0x105, 3), PC_OK);
	assert_int_equal(pc_profile_add_sample(p, PC_NOSEG, 0x90, 1), PC_OK);
	assert_int_equal(pc_profile_add_sample(p, PC_NOSEG, 0x200, 2), PC_OK);
	assert_int_equal(pc_profile_add_class_samples(p, PC_REGION_DOS, 7), PC_OK);
	/* arcs: a->b x5, b->b x2 (self), unknown->a x9 (dropped) */
	pc_arc a1 = {PC_NOSEG, 0x104, PC_NOSEG, 0x10c, 5, 0, 0};
	pc_arc a2 = {PC_NOSEG, 0x10b, PC_NOSEG, 0x10b, 2, 0, 0};
	pc_arc a3 = {PC_NOSEG, 0x300, PC_NOSEG, 0x101, 9, 0, 0};
	pc_profile_add_arc(p, &a1);
	pc_profile_add_arc(p, &a2);
	pc_profile_add_arc(p, &a3);
	return p;
}

static void row(pc_profile *p, size_t i, const char *name, double count,
		uint64_t calls, uint64_t self, uint64_t end)
{
	pc_row r;
	assert_int_equal(pc_profile_row_at(&r, p, i), PC_OK);
	assert_string_equal(r.name, name);
	assert_true(r.count == count);
	assert_int_equal(r.calls, calls);
	assert_int_equal(r.self_calls, self);
	assert_int_equal(r.end, end);
}

static void proportional(void **state)
{
	(void)state;
	pc_profile *p = make();
	assert_int_equal(pc_profile_attribute(p, NULL), PC_OK);
	assert_int_equal(test_rows(p), 4);
	row(p, 0, "a", 5 + 3, 0, 0, 0x10a);
	row(p, 1, "b", 5, 5, 2, 0x120);
	row(p, 2, "c", 0, 0, 0, 0x13c); /* c.cold is not a target */
	row(p, 3, "mcount", 0, 0, 0, 0x140); /* ends with the region */
	pc_totals t;
	pc_profile_totals(&t, p);
	/* 14 histogram + 6 raw + 7 class - 4 excluded */
	assert_true(t.total == 23);
	assert_true(t.excluded == 4);
	assert_true(t.in_program == 10 + 3); /* bin 2 and the samples at 0x105 */
	assert_true(t.attributed == 13);
	assert_true(t.outside == 1 + 2 + 7);
	assert_true(test_class(p, PC_REGION_SYSTEM) == 1);
	assert_true(test_class(p, PC_REGION_UNKNOWN) == 2);
	assert_true(test_class(p, PC_REGION_DOS) == 7);
	size_t ri = 99;
	assert_int_equal(pc_profile_lookup(&ri, p, PC_NOSEG, 0x10a), PC_OK);
	assert_int_equal(ri, 1);
	assert_int_equal(pc_profile_lookup(&ri, p, PC_NOSEG, 0x11f), PC_OK);
	assert_int_equal(ri, 1);
	assert_int_equal(pc_profile_lookup(&ri, p, PC_NOSEG, 0xff), PC_ENOTFOUND);
	assert_int_equal(ri, 0);
	assert_int_equal(pc_profile_lookup(&ri, p, PC_NOSEG, 0x140), PC_ENOTFOUND);
	pc_profile_free(p);
}

static void bucket_start(void **state)
{
	(void)state;
	pc_profile *p = make();
	pc_attrib_options o = PC_ATTRIB_OPTIONS_INIT;
	o.rule = PC_ATTRIBUTION_BUCKET_START;
	assert_int_equal(pc_profile_attribute(p, &o), PC_OK);
	row(p, 0, "a", 10 + 3, 0, 0, 0x10a); /* bin 2 starts at 0x108 in a */
	row(p, 1, "b", 0, 5, 2, 0x120);
	/* the setting stays with the profile: adding data recomputes with it
	 * (it once fell back to proportional: a 8 + 1, b 5) */
	assert_int_equal(pc_profile_add_sample(p, PC_NOSEG, 0x105, 1), PC_OK);
	row(p, 0, "a", 10 + 3 + 1, 0, 0, 0x10a);
	row(p, 1, "b", 0, 5, 2, 0x120);
	/* and a call without options keeps it too */
	assert_int_equal(pc_profile_attribute(p, NULL), PC_OK);
	row(p, 0, "a", 10 + 3 + 1, 0, 0, 0x10a);
	o.rule = (pc_attribution_rule)5;
	assert_int_equal(pc_profile_attribute(p, &o), PC_EUSAGE);
	assert_string_equal(pc_profile_error(p)->message,
			    "pc_attrib_options.rule 5: expected PC_ATTRIBUTION_PROPORTIONAL or "
			    "_BUCKET_START");
	/* a refused setting changes nothing */
	row(p, 0, "a", 10 + 3 + 1, 0, 0, 0x10a);
	o.rule = PC_ATTRIBUTION_PROPORTIONAL;
	assert_int_equal(pc_profile_attribute(p, &o), PC_OK);
	row(p, 0, "a", 5 + 3 + 1, 0, 0, 0x10a);
	pc_profile_free(p);
}

static void histograms_sum_or_conflict(void **state)
{
	(void)state;
	pc_profile *p = make();
	uint64_t counts[16] = {0};
	counts[2] = 2;
	pc_histogram same = {PC_NOSEG, 0x100, 0x140, 16, counts, 2};
	assert_int_equal(pc_profile_add_histogram(p, &same), PC_OK);
	row(p, 0, "a", 6 + 3, 0, 0, 0x10a);
	pc_histogram overlap = {PC_NOSEG, 0x120, 0x160, 16, counts, 2};
	assert_int_equal(pc_profile_add_histogram(p, &overlap), PC_EFORMAT);
	assert_string_equal(pc_profile_error(p)->message,
			    "histogram [0x120, 0x160) overlaps [0x100, 0x140) without being identical");
	pc_profile_free(p);
}

/* gprof's non-integral bin width: 5272 text bytes in 1320 bins. */
static void fractional_width(void **state)
{
	(void)state;
	pc_profile *p;
	pc_profile_new(&p, NULL);
	sym(p, "x", 0x1000, PC_SYM_TEXT, PC_BIND_GLOBAL, 0);
	sym(p, "y", 0x1006, PC_SYM_TEXT, PC_BIND_GLOBAL, 0);
	pc_region app = {PC_NOSEG, 0x1000, 0x1000 + 5272, PC_REGION_APPLICATION, NULL};
	pc_profile_add_region(p, &app);
	uint64_t c[1320] = {0};
	c[1] = 1000; /* scale = 2636/1320 units; bin 1 = units [0x801, 0x803)
		      * (1.997 and 3.994 truncated): x has 0x801..0x803 (y at 0x803)
		      * -> 2 * 1000 / 1.99697 = 1001.5175... */
	pc_histogram h = {PC_NOSEG, 0x1000, 0x1000 + 5272, 1320, c, 2};
	pc_profile_add_histogram(p, &h);
	pc_row r;
	pc_profile_row_at(&r, p, 0);
	double scale = 2636.0 / 1320.0;
	assert_true(r.count == 2 * 1000 / scale);
	pc_profile_row_at(&r, p, 1);
	assert_true(r.count == 0);
	pc_profile_free(p);
}

/* Symbols at one address: gprof sorts them FUNC first, then global,
 * then walks them keeping the preferred one (global, then FUNC, then the
 * name rules); the kept one for runs given in other orders. */
static void aliases(void **state)
{
	(void)state;
	pc_profile *p;
	pc_profile_new(&p, NULL);
	/* 0x100: the global FUNCs __x then _y: _y (one underscore beats two) */
	sym(p, "__x", 0x100, PC_SYM_TEXT, PC_BIND_GLOBAL, PC_SYMF_FUNC);
	sym(p, "z", 0x100, PC_SYM_TEXT, PC_BIND_LOCAL, PC_SYMF_FUNC);
	sym(p, "_y", 0x100, PC_SYM_TEXT, PC_BIND_GLOBAL, PC_SYMF_FUNC);
	sym(p, "w", 0x100, PC_SYM_TEXT, PC_BIND_GLOBAL, 0);
	/* 0x110: a global object first, a local FUNC, then the global FUNCs
	 * _v and u: u (no underscore) */
	sym(p, "g", 0x110, PC_SYM_TEXT, PC_BIND_GLOBAL, 0);
	sym(p, "f", 0x110, PC_SYM_TEXT, PC_BIND_LOCAL, PC_SYMF_FUNC);
	sym(p, "_v", 0x110, PC_SYM_TEXT, PC_BIND_GLOBAL, PC_SYMF_FUNC);
	sym(p, "u", 0x110, PC_SYM_TEXT, PC_BIND_GLOBAL, PC_SYMF_FUNC);
	/* 0x120: local FUNC then global object: the global one, t */
	sym(p, "s", 0x120, PC_SYM_TEXT, PC_BIND_LOCAL, PC_SYMF_FUNC);
	sym(p, "t", 0x120, PC_SYM_TEXT, PC_BIND_WEAK, 0);
	/* 0x130: locals only, a non-FUNC then FUNCs _r and __q: _r */
	sym(p, "o", 0x130, PC_SYM_TEXT, PC_BIND_LOCAL, 0);
	sym(p, "_r", 0x130, PC_SYM_TEXT, PC_BIND_LOCAL, PC_SYMF_FUNC);
	sym(p, "__q", 0x130, PC_SYM_TEXT, PC_BIND_LOCAL, PC_SYMF_FUNC);
	static const char *const want[] = {"_y", "u", "t", "_r"};
	size_t n = 0;
	assert_int_equal(pc_profile_row_count(&n, p), PC_OK);
	assert_int_equal(n, 4);
	for (size_t i = 0; i < 4; i++) {
		pc_row r;
		assert_int_equal(pc_profile_row_at(&r, p, i), PC_OK);
		assert_string_equal(r.name, want[i]);
	}
	pc_profile_free(p);
}

/* The targets alone first (pc_attrib_targets: the fit check), a row
 * found in them, then the credit: the rows and totals of the attribution
 * made at once, with symbol selections (an arc dropped: "ka/b", a symbol
 * out of the flat profile: "Pc") and without. */
static void targets_then_credit(void **state)
{
	(void)state;
	static const char *const specs[] = {NULL, "ka/b", "Pc;ka/b"};
	for (size_t k = 0; k < 3; k++) {
		pc_attrib_options o = PC_ATTRIB_OPTIONS_INIT;
		o.gprof_symspecs = specs[k];
		pc_profile *p = make(), *q = make();
		assert_int_equal(pc_profile_attribute(p, &o), PC_OK);
		assert_int_equal(pc_attrib_targets(q, &o), PC_OK);
		assert_int_equal(q->valid, 1);
		assert_int_equal(pc_profile_row_find(q, PC_NOSEG, 0x10b), 1);
		assert_int_equal(q->valid, 1); /* (found in the targets alone) */
		assert_int_equal(pc_profile_attribute(q, &o), PC_OK);
		assert_int_equal(q->valid, 2);
		size_t n = 0, m = 0;
		assert_int_equal(pc_profile_row_count(&n, p), PC_OK);
		assert_int_equal(pc_profile_row_count(&m, q), PC_OK);
		assert_int_equal(n, 4);
		assert_int_equal(m, n);
		for (size_t i = 0; i < n; i++) {
			pc_row a, b;
			assert_int_equal(pc_profile_row_at(&a, p, i), PC_OK);
			assert_int_equal(pc_profile_row_at(&b, q, i), PC_OK);
			assert_string_equal(a.name, b.name);
			assert_true(a.count == b.count);
			assert_int_equal(a.calls, b.calls);
			assert_int_equal(a.self_calls, b.self_calls);
			assert_int_equal(a.end, b.end);
		}
		pc_itotals ta, tb;
		assert_int_equal(pc_profile_itotals(p, &ta), PC_OK);
		assert_int_equal(pc_profile_itotals(q, &tb), PC_OK);
		assert_memory_equal(&ta, &tb, sizeof ta);
		/* the arc a->b: 5 calls, dropped by "ka/b" */
		pc_row b;
		assert_int_equal(pc_profile_row_at(&b, q, 1), PC_OK);
		assert_int_equal(b.calls, specs[k] ? 0 : 5);
		pc_profile_free(p);
		pc_profile_free(q);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(proportional),
		cmocka_unit_test(bucket_start),
		cmocka_unit_test(histograms_sum_or_conflict),
		cmocka_unit_test(fractional_width),
		cmocka_unit_test(aliases),
		cmocka_unit_test(targets_then_credit),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
