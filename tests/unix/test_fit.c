/* pc_profile_fit() and the one rate rule through the public API
 * (docs/attribution.md ("Attribution rules"), rules 9 and 10). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "profcore.h"
#include "profcore_plugin.h"

/* A program with code [0x1000, 0x1800): f at 0x1000, g at 0x1400. */
static pc_profile *program(void)
{
	pc_profile *p;
	pc_profile_new(&p, NULL);
	assert_non_null(p);
	pc_region r = {PC_NOSEG, 0x1000, 0x1800, PC_REGION_APPLICATION, "prog"};
	assert_int_equal(pc_profile_add_region(p, &r), PC_OK);
	pc_symbol s = {0};
	s.segment = PC_NOSEG;
	s.kind = PC_SYM_TEXT;
	s.name = "f";
	s.address = 0x1000;
	assert_int_equal(pc_profile_add_symbol(p, &s), PC_OK);
	s.name = "g";
	s.address = 0x1400;
	assert_int_equal(pc_profile_add_symbol(p, &s), PC_OK);
	assert_int_equal(pc_profile_set_program(p, "prog"), PC_OK);
	return p;
}

static void fits(void **state)
{
	(void)state;
	pc_profile *p = program();
	assert_int_equal(pc_profile_add_sample(p, PC_NOSEG, 0x1010, 9), PC_OK);
	assert_int_equal(pc_profile_add_sample(p, PC_NOSEG, 0x9000, 1), PC_OK);
	pc_fit f;
	assert_int_equal(pc_profile_fit(&f, p, NULL), PC_OK);
	assert_int_equal(f.verdict, PC_FIT_OK);
	assert_null(f.problem);
	assert_true(f.samples == 10 && f.in_program == 9 && f.explained == 0);
	pc_profile_free(p);
}

static void doubt(void **state)
{
	(void)state;
	pc_profile *p = program();
	assert_int_equal(pc_profile_add_sample(p, PC_NOSEG, 0x1010, 7), PC_OK);
	assert_int_equal(pc_profile_add_sample(p, PC_NOSEG, 0x9000, 3), PC_OK);
	pc_fit f;
	assert_int_equal(pc_profile_fit(&f, p, NULL), PC_OK);
	assert_int_equal(f.verdict, PC_FIT_DOUBT);
	assert_string_equal(f.problem, "3 of 10 samples (30.0%) fall in no known code: neither in prog (0x1000-0x1800) nor in a region");
	pc_profile_free(p);
}

/* samples 0x4000 too high, spanning the whole program: one shift */
static void shifted(void **state)
{
	(void)state;
	pc_profile *p = program();
	assert_int_equal(pc_profile_add_sample(p, PC_NOSEG, 0x5000, 5), PC_OK);
	assert_int_equal(pc_profile_add_sample(p, PC_NOSEG, 0x57ff, 5), PC_OK);
	pc_fit_options o = PC_FIT_OPTIONS_INIT;
	o.has_load_address = 1;
	o.load_address = 0x1000;
	pc_fit f;
	assert_int_equal(pc_profile_fit(&f, p, &o), PC_OK);
	assert_int_equal(f.verdict, PC_FIT_MISFIT);
	assert_true(f.has_shift && f.load_given && !f.shift_default);
	assert_true(f.shift == 0x4000 && f.shift_min == 0x4000 && f.shift_max == 0x4000);
	assert_true(f.load_address == 0x5000 && f.shifted_in_program == 10);
	assert_string_equal(f.problem, "0 of 10 samples (0.0%) fall in the code of prog (0x1000-0x1800): the capture does not fit the program; 10 (100.0%) would if it were loaded 0x4000 bytes higher");
	pc_profile_free(p);
}

/* samples in another known region are explained, not a misfit */
static void explained(void **state)
{
	(void)state;
	pc_profile *p = program();
	pc_region rom = {PC_NOSEG, 0xe00000, 0xf00000, PC_REGION_SYSTEM, "ROM"};
	assert_int_equal(pc_profile_add_region(p, &rom), PC_OK);
	assert_int_equal(pc_profile_add_sample(p, PC_NOSEG, 0x1010, 2), PC_OK);
	assert_int_equal(pc_profile_add_sample(p, PC_NOSEG, 0xe00010, 8), PC_OK);
	pc_fit f;
	assert_int_equal(pc_profile_fit(&f, p, NULL), PC_OK);
	assert_int_equal(f.verdict, PC_FIT_OK);
	assert_true(f.explained == 8);
	pc_profile_free(p);
}

/* arcs outside the code */
static void arcs(void **state)
{
	(void)state;
	pc_profile *p = program();
	pc_arc a = {PC_NOSEG, 0x1010, PC_NOSEG, 0x1400, 3, 0, 0};
	assert_int_equal(pc_profile_add_arc(p, &a), PC_OK);
	a.from = 0x8000;
	a.to = 0x8100;
	assert_int_equal(pc_profile_add_arc(p, &a), PC_OK);
	a.to = 0x8200;
	assert_int_equal(pc_profile_add_arc(p, &a), PC_OK);
	pc_fit f;
	assert_int_equal(pc_profile_fit(&f, p, NULL), PC_OK);
	assert_int_equal(f.verdict, PC_FIT_MISFIT);
	assert_string_equal(f.problem, "1 of 3 call arcs (33.3%) lie in the code of prog (0x1000-0x1800): the capture does not fit the program");
	pc_profile_free(p);
}

/* a whole-text histogram that stops short of the code's end */
static void short_histogram(void **state)
{
	(void)state;
	pc_profile *p = program();
	uint64_t c[16] = {0};
	c[15] = 4; /* the last bucket, [0x1340, 0x1400), is in f */
	pc_histogram h = {PC_NOSEG, 0x800, 0x1400, 16, c, 2};
	assert_int_equal(pc_profile_add_histogram(p, &h), PC_OK);
	pc_fit f;
	assert_int_equal(pc_profile_fit(&f, p, NULL), PC_OK);
	assert_int_equal(f.verdict, PC_FIT_MISFIT);
	assert_true(f.range_mismatch && f.hist_low == 0x800 && f.hist_high == 0x1400);
	assert_string_equal(f.problem, "the histogram covers 0x800-0x1400 but the code of prog ends at 0x1800: the capture is from another program or build");
	pc_profile_free(p);
}

/* a histogram from the entry point (inside the code: older glibc's gcrt1
 * starts it at _start, after .init and .plt) that goes on past the code's
 * end: with call arcs another build's capture (a real pair of this kind
 * was reported with exit 0), without them a PROFIL range the user chose */
static void entry_histogram(void **state)
{
	(void)state;
	for (int with_arcs = 0; with_arcs < 2; with_arcs++)
		for (uint64_t high = 0x1800; high <= 0x1a00; high += 0x200) {
			pc_profile *p = program();
			uint64_t c[16] = {0};
			c[0] = 4; /* [0x1100, 0x1110): in f */
			pc_histogram h = {PC_NOSEG, 0x1100, high, 16, c, 2};
			assert_int_equal(pc_profile_add_histogram(p, &h), PC_OK);
			pc_arc a = {PC_NOSEG, 0x1010, PC_NOSEG, 0x1404, 3, 0, 0};
			if (with_arcs)
				assert_int_equal(pc_profile_add_arc(p, &a), PC_OK);
			pc_fit f;
			assert_int_equal(pc_profile_fit(&f, p, NULL), PC_OK);
			if (with_arcs && high == 0x1a00) {
				assert_int_equal(f.verdict, PC_FIT_MISFIT);
				assert_true(f.range_mismatch && f.hist_low == 0x1100 && f.hist_high == 0x1a00);
				assert_string_equal(f.problem, "the histogram covers 0x1100-0x1a00 but the code of prog ends at 0x1800: the capture is from another program or build");
			} else {
				assert_int_equal(f.verdict, PC_FIT_OK);
				assert_false(f.range_mismatch);
				assert_null(f.problem);
			}
			pc_profile_free(p);
		}
}

/* a symbol at the code's end (ELF's etext) reaches up to the next
 * symbol (data_start, in .data), so gprof charges it everything between:
 * another program's samples and arcs there (a real pair: 0x38000 bytes
 * above the code) still do not fit */
static void open_ended_symbol(void **state)
{
	(void)state;
	pc_profile *p = program();
	pc_symbol s = {0};
	s.segment = PC_NOSEG;
	s.kind = PC_SYM_TEXT;
	s.name = "etext";
	s.address = 0x1800;
	assert_int_equal(pc_profile_add_symbol(p, &s), PC_OK);
	s.name = "data_start"; /* the next target, far above: etext ends there */
	s.address = 0x60000;
	assert_int_equal(pc_profile_add_symbol(p, &s), PC_OK);
	uint64_t c[16] = {0};
	c[8] = 5; /* [0x39000, 0x39200) */
	pc_histogram h = {PC_NOSEG, 0x38000, 0x3a000, 16, c, 2};
	assert_int_equal(pc_profile_add_histogram(p, &h), PC_OK);
	pc_arc a = {PC_NOSEG, 0x39010, PC_NOSEG, 0x39404, 3, 0, 0};
	assert_int_equal(pc_profile_add_arc(p, &a), PC_OK);
	pc_fit f;
	assert_int_equal(pc_profile_fit(&f, p, NULL), PC_OK);
	assert_int_equal(f.verdict, PC_FIT_MISFIT);
	assert_true(f.samples == 5 && f.in_program == 0 && f.arcs == 1 && f.arcs_in_program == 0);
	assert_string_equal(f.problem, "0 of 5 samples (0.0%) fall in the code of prog (0x1000-0x1800): the capture does not fit the program");
	pc_profile_free(p);
}

/* one rate rule: loading and merging refuse the same pairs */
static void rates(void **state)
{
	(void)state;
	pc_profile *a = program(), *b = program();
	pc_profile_set_rate(a, 100);
	pc_profile_set_rate(b, 1000);
	assert_int_equal(pc_profile_merge(a, b), PC_EUNSUPPORTED);
	assert_string_equal(pc_profile_error(a)->message,
			    "captures sampled at 100 Hz and 1000 Hz cannot be added up: a sample would stand for different times");
	pc_profile_set_rate(b, 0);
	assert_int_equal(pc_profile_merge(a, b), PC_OK);
	pc_profile_free(a);
	pc_profile_free(b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(fits),
		cmocka_unit_test(doubt),
		cmocka_unit_test(shifted),
		cmocka_unit_test(explained),
		cmocka_unit_test(arcs),
		cmocka_unit_test(short_histogram),
		cmocka_unit_test(entry_histogram),
		cmocka_unit_test(open_ended_symbol),
		cmocka_unit_test(rates),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
