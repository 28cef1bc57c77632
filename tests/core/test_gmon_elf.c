/* gmon.out (GNU tagged) and ELF loaders. */
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

/* A 32-bit big-endian gmon.out: hist [0x1000,0x1010) 4 bins {1,2,3,4},
 * rate 60, then one arc 0x1002 -> 0x100a x3. */
static size_t be32_gmon(unsigned char *b)
{
	size_t n = 0;
	memcpy(b, "gmon\0\0\0\1", 8);
	memset(b + 8, 0, 12);
	n = 20;
	const unsigned char hist[] = {0, 0, 0, 0x10, 0, 0, 0, 0x10, 0x10, 0, 0, 0, 4,
				      0, 0, 0, 60, 's', 'e', 'c', 'o', 'n', 'd', 's',
				      0, 0, 0, 0, 0, 0, 0, 0, 's', 0, 1, 0, 2, 0, 3, 0, 4};
	memcpy(b + n, hist, sizeof hist);
	n += sizeof hist;
	const unsigned char arc[] = {1, 0, 0, 0x10, 0x02, 0, 0, 0x10, 0x0a, 0, 0, 0, 3};
	memcpy(b + n, arc, sizeof arc);
	n += sizeof arc;
	return n;
}

static pc_profile *with_symbols(void)
{
	pc_profile *p;
	pc_profile_new(&p, NULL);
	pc_symbol f = {.name = "f", .segment = PC_NOSEG, .address = 0x1000, .kind = PC_SYM_TEXT};
	pc_symbol g = {.name = "g", .segment = PC_NOSEG, .address = 0x1008, .kind = PC_SYM_TEXT};
	pc_profile_add_symbol(p, &f);
	pc_profile_add_symbol(p, &g);
	pc_region r = {PC_NOSEG, 0x1000, 0x1010, PC_REGION_APPLICATION, "t"};
	pc_profile_add_region(p, &r);
	return p;
}

static void big_endian_32(void **state)
{
	(void)state;
	unsigned char b[128];
	size_t n = be32_gmon(b);
	pc_profile *p = with_symbols();
	pc_profile_set_target(p, 4, PC_ENDIAN_BIG);
	assert_int_equal(pc_profile_load_memory(p, b, n, "be.gmon", NULL, NULL), PC_OK);
	assert_true(pc_profile_rate(p) == 60);
	pc_row r;
	pc_profile_row_at(&r, p, 0);
	assert_string_equal(r.name, "f");
	assert_true(r.count == 3);
	pc_profile_row_at(&r, p, 1);
	assert_true(r.count == 7);
	assert_int_equal(r.calls, 3);
	assert_int_equal(pc_profile_warning_count(p), 0);
	pc_profile_free(p);
}

static void guessed_reading_warns(void **state)
{
	(void)state;
	unsigned char b[128];
	size_t n = be32_gmon(b);
	pc_profile *p = with_symbols();
	assert_int_equal(pc_profile_load_memory(p, b, n, "be.gmon", NULL, NULL), PC_OK);
	assert_int_equal(pc_profile_warning_count(p), 1);
	assert_string_equal(pc_profile_warning_at(p, 0),
			    "be.gmon: no executable given; read as 32-bit big-endian (the only reading that fits)");
	pc_profile_free(p);
}

static void ambiguous_names_candidates(void **state)
{
	(void)state;
	unsigned char b[20] = "gmon\1\0\0\0";
	pc_profile *p;
	pc_profile_new(&p, NULL);
	assert_int_equal(pc_profile_load_memory(p, b, 20, "h.gmon", NULL, NULL), PC_EAMBIGUOUS);
	const pc_error *e = pc_profile_error(p);
	assert_string_equal(e->file, "h.gmon");
	assert_int_equal(e->offset, 0);
	assert_string_equal(e->message,
			    "address width and byte order are not recorded in gmon.out and several readings fit (32-bit little-endian, 64-bit little-endian): give the executable, or the options width=4|8 and endian=little|big");
	pc_profile_free(p);
}

static void malformed(void **state)
{
	(void)state;
	unsigned char b[128];
	size_t n = be32_gmon(b);
	pc_options *o;
	assert_int_equal(pc_options_new(&o), PC_OK);
	pc_options_set(o, "width", "4");
	pc_options_set(o, "endian", "big");
	struct {
		size_t len;
		int patch_at, patch_val;
		int code;
		int64_t off;
		const char *msg;
	} cases[] = {
		{10, -1, 0, PC_ETRUNC, 0, "gmon.out header needs 20 bytes, file has 10"},
		{n - 13 - 2, -1, 0, PC_ETRUNC, 29, "histogram claims 4 bins (8 bytes) but only 6 bytes follow"},
		{n - 1, -1, 0, PC_ETRUNC, 62, "call-arc record needs 12 bytes, only 11 left"},
		{n, 61, 7, PC_EFORMAT, 61, "bad record tag 7 (expected 0 histogram, 1 arc or 2 basic-block)"},
		{n, 7, 2, PC_EFORMAT, 4, "gmon.out version 2 (expected 0 or 1)"},
		{n, 21, 0x20, PC_EFORMAT, 21, "histogram low_pc 0x20001000 is above high_pc 0x1010"},
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		unsigned char c[128];
		memcpy(c, b, n);
		if (cases[i].patch_at >= 0)
			c[cases[i].patch_at] = (unsigned char)cases[i].patch_val;
		pc_profile *p = with_symbols();
		int st = pc_profile_load_memory(p, c, cases[i].len, "bad.gmon", "gmon", o);
		assert_int_equal(st, cases[i].code);
		const pc_error *e = pc_profile_error(p);
		assert_string_equal(e->file, "bad.gmon");
		assert_int_equal(e->offset, cases[i].off);
		assert_string_equal(e->message, cases[i].msg);
		pc_profile_free(p);
	}
	pc_options_free(o);
}

static char *fixture(const char *rel)
{
	static char buf[4096];
	snprintf(buf, sizeof buf, "%s/tests/unix/fixtures/%s", getenv("PC_SOURCE_ROOT"), rel);
	return buf;
}

static void elf_fixture(void **state)
{
	(void)state;
	pc_profile *p;
	pc_profile_new(&p, NULL);
	assert_int_equal(pc_profile_load_file(p, fixture("i386-nopie/callgraph"), NULL, NULL), PC_OK);
	assert_int_equal(pc_profile_target_width(p), 4);
	assert_int_equal(pc_profile_target_endian(p), PC_ENDIAN_LITTLE);
	assert_string_equal(pc_profile_source_format(p, 0), "elf");
	int found = 0;
	for (size_t i = 0; i < pc_profile_symbol_count(p); i++) {
		pc_symbol s;
		pc_profile_symbol_at(&s, p, i);
		if (!strcmp(s.name, "hot")) {
			found = 1;
			assert_int_equal(s.kind, PC_SYM_TEXT);
			assert_true(s.flags & PC_SYMF_FUNC);
		}
	}
	assert_true(found);
	assert_int_equal(pc_profile_load_file(p, fixture("i386-nopie/gmon.out"), NULL, NULL), PC_OK);
	pc_totals t;
	pc_profile_totals(&t, p);
	assert_true(t.total > 0);
	assert_true(t.outside == 0);
	pc_profile_free(p);
	/* not an ELF file given as ELF */
	pc_profile_new(&p, NULL);
	assert_int_equal(pc_profile_load_file(p, fixture("SOURCES.md"), "elf", NULL), PC_EFORMAT);
	assert_int_equal(pc_profile_error(p)->offset, 0);
	pc_profile_free(p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(big_endian_32),
		cmocka_unit_test(guessed_reading_warns),
		cmocka_unit_test(ambiguous_names_candidates),
		cmocka_unit_test(malformed),
		cmocka_unit_test(elf_fixture),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
