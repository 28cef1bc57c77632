/*
 * test_gemdos.c - the GEMDOS loader through the public API: symbol kinds
 * and flags (which names are attribution targets), one preferred name per
 * address, regions with a load address, and the Atari profiler's
 * appl/sys split computed from samples added through the API.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "profcore.h"
#include "profcore_plugin.h"

#include "../common/pc_test.h"

static char *synth(const char *name)
{
	static char buf[4096];
	const char *root = getenv("PC_SOURCE_ROOT");
	snprintf(buf, sizeof buf, "%s/tests/atari/synth/%s", root ? root : ".", name);
	return buf;
}

static pc_profile *load(const char *name, const char *opt1, const char *opt2)
{
	pc_profile *p;
	pc_profile_new(&p, NULL);
	pc_options *o;
	assert_int_equal(pc_options_new(&o), PC_OK);
	assert_non_null(p);
	assert_non_null(o);
	if (opt1)
		assert_int_equal(pc_options_parse(o, opt1), PC_OK);
	if (opt2)
		assert_int_equal(pc_options_parse(o, opt2), PC_OK);
	int st = pc_profile_load_file(p, synth(name), "gemdos", o);
	if (st != PC_OK)
		fail_msg("%s: %s", name, pc_profile_error(p) ? pc_profile_error(p)->message : "?");
	pc_options_free(o);
	return p;
}

static const pc_symbol *find(pc_profile *p, const char *name, pc_symbol *out)
{
	for (size_t i = 0; i < pc_profile_symbol_count(p); i++) {
		assert_int_equal(pc_profile_symbol_at(out, p, i), PC_OK);
		if (strcmp(out->name, name) == 0)
			return out;
	}
	fail_msg("no symbol %s", name);
	return NULL;
}

/* Alcyon: _func is the target, ~~func (same address) is listed only;
 * equates, object/archive names never are targets. */
static void test_alcyon_flags(void **state)
{
	(void)state;
	pc_profile *p = load("alcyon.prg", NULL, NULL);
	pc_symbol s;
	struct {
		const char *name;
		pc_symkind kind;
		pc_binding bind;
		unsigned flags;
		const char *section;
	} want[] = {
		{"crt0.o", PC_SYM_OTHER, PC_BIND_LOCAL, PC_SYMF_NOATTR, "TEXT"},
		{"_start", PC_SYM_TEXT, PC_BIND_GLOBAL, 0, "TEXT"},
		{"_main", PC_SYM_TEXT, PC_BIND_GLOBAL, 0, "TEXT"},
		{"~~main", PC_SYM_TEXT, PC_BIND_LOCAL, PC_SYMF_NOATTR, "TEXT"},
		{"~~bashfu", PC_SYM_TEXT, PC_BIND_LOCAL, PC_SYMF_NOATTR, "TEXT"},
		{"_bashful", PC_SYM_TEXT, PC_BIND_GLOBAL, 0, "TEXT"},
		{"~i", PC_SYM_ABS, PC_BIND_LOCAL, 0, "ABS"},
		{"~r", PC_SYM_ABS, PC_BIND_LOCAL, 0, "ABS"},
		{"libc.a", PC_SYM_OTHER, PC_BIND_LOCAL, PC_SYMF_NOATTR, "TEXT"},
		{"_exit", PC_SYM_TEXT, PC_BIND_GLOBAL, 0, "TEXT"},
		{"_errno", PC_SYM_DATA, PC_BIND_GLOBAL, 0, "DATA"},
		{"_end", PC_SYM_BSS, PC_BIND_GLOBAL, 0, "BSS"},
	};
	assert_int_equal(pc_profile_symbol_count(p), 29);
	for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
		find(p, want[i].name, &s);
		assert_int_equal(s.kind, want[i].kind);
		assert_int_equal(s.binding, want[i].bind);
		assert_int_equal(s.flags, want[i].flags);
		assert_string_equal(s.section, want[i].section);
		assert_int_equal(s.segment, PC_NOSEG);
	}
	assert_int_equal(pc_profile_target_width(p), 4);
	assert_int_equal(pc_profile_target_endian(p), PC_ENDIAN_BIG);
	/* without a load address: TEXT and DATA+BSS of the program only */
	assert_int_equal(pc_profile_region_count(p), 2);
	pc_region r;
	assert_int_equal(pc_profile_region_at(&r, p, 0), PC_OK);
	assert_int_equal(r.low, 0);
	assert_int_equal(r.high, 0x160);
	assert_int_equal(r.cls, PC_REGION_APPLICATION);
	assert_int_equal(pc_profile_region_at(&r, p, 1), PC_OK);
	assert_int_equal(r.low, 0x160);
	assert_int_equal(r.high, 0x270);
	assert_int_equal(r.cls, PC_REGION_APPLICATION);
	pc_profile_free(p);
}

/* Devpac local labels stay listed but are not targets unless asked. */
static void test_devpac_locals(void **state)
{
	(void)state;
	pc_symbol s;
	pc_profile *p = load("section.prg", NULL, NULL);
	assert_int_equal(find(p, ".loop", &s)->flags, PC_SYMF_NOATTR);
	assert_int_equal(find(p, ".wait_vbl_local", &s)->flags, PC_SYMF_NOATTR);
	assert_int_equal(find(p, "main_loop", &s)->flags, 0);
	assert_int_equal(find(p, "main_loop", &s)->binding, PC_BIND_LOCAL);
	pc_profile_free(p);
	p = load("section.prg", "gemdos-locals=1", NULL);
	assert_int_equal(find(p, ".loop", &s)->flags, 0);
	pc_profile_free(p);
}

/* MiNT a.out: weak text is kept (weak binding), the GCC marker sharing
 * _main's address is not a target. */
static void test_mint_aout(void **state)
{
	(void)state;
	pc_symbol s;
	pc_profile *p = load("mint_aout.prg", NULL, NULL);
	assert_int_equal(find(p, "_weak_fn", &s)->binding, PC_BIND_WEAK);
	assert_int_equal(find(p, "gcc2_compiled.", &s)->flags, PC_SYMF_NOATTR);
	assert_int_equal(find(p, "gcc2_compiled.", &s)->kind, PC_SYM_OTHER);
	assert_int_equal(find(p, "_main", &s)->flags, 0);
	assert_int_equal(find(p, "_helper", &s)->binding, PC_BIND_LOCAL);
	pc_profile_free(p);
	p = load("prgelf.prg", NULL, NULL);
	assert_int_equal(find(p, "main", &s)->flags, PC_SYMF_FUNC);
	assert_int_equal(find(p, "local_fn", &s)->binding, PC_BIND_LOCAL);
	assert_int_equal(find(p, "ABSVAL", &s)->kind, PC_SYM_ABS);
	pc_profile_free(p);
}

/* One target per address whatever the slot order: not a marker, not a
 * local label, not "~", global, shortest, alphabetical. */
static void targets(pc_profile *p, char *out, size_t n)
{
	out[0] = '\0';
	for (size_t i = 0; i < pc_profile_symbol_count(p); i++) {
		pc_symbol s;
		assert_int_equal(pc_profile_symbol_at(&s, p, i), PC_OK);
		if (s.kind != PC_SYM_TEXT || (s.flags & PC_SYMF_NOATTR))
			continue;
		snprintf(out + strlen(out), n - strlen(out), "%s%s@%llx",
			 out[0] ? " " : "", s.name, (unsigned long long)s.address);
	}
}

static void test_preferred_names(void **state)
{
	(void)state;
	char buf[512];
	pc_profile *p = load("dups.prg", NULL, NULL);
	targets(p, buf, sizeof buf);
	assert_string_equal(buf, "_al@0 foo@10 L1@20 longer_nm@30");
	pc_profile_free(p);
	p = load("dups_rev.prg", NULL, NULL);
	targets(p, buf, sizeof buf);
	assert_string_equal(buf, "longer_nm@30 L1@20 foo@10 _al@0");
	pc_profile_free(p);
	/* local labels as targets: .loop is one, .Lx still loses to L1 */
	p = load("dups.prg", "gemdos-locals=1", NULL);
	targets(p, buf, sizeof buf);
	assert_string_equal(buf, "_al@0 foo@10 L1@20 longer_nm@30 .loop@38");
	pc_profile_free(p);
}

/* The load address places the Atari memory map around the program:
 * everything that is not the program is "sys". */
static void test_regions_with_load_address(void **state)
{
	(void)state;
	pc_profile *p = load("alcyon.prg", "load-address=0x13f00", NULL);
	static const struct {
		uint64_t lo, hi;
		pc_region_class cls;
		const char *label;
	} want[] = {
		{0x13f00, 0x14060, PC_REGION_APPLICATION, "TEXT"},
		{0x14060, 0x14170, PC_REGION_APPLICATION, "DATA+BSS"},
		{0x000000, 0x13f00, PC_REGION_SYSTEM, "RAM"},
		{0x14170, 0xE00000, PC_REGION_SYSTEM, "RAM"},
		{0xE00000, 0xF00000, PC_REGION_SYSTEM, "TOS ROM"},
		{0xF00000, 0xFA0000, PC_REGION_SYSTEM, "I/O"},
		{0xFA0000, 0xFC0000, PC_REGION_SYSTEM, "cartridge"},
		{0xFC0000, 0xFF0000, PC_REGION_SYSTEM, "TOS ROM"},
		{0xFF0000, 0x1000000, PC_REGION_SYSTEM, "I/O"},
		{0x1000000, 0x100000000ull, PC_REGION_SYSTEM, "TT-RAM"},
	};
	assert_int_equal(pc_profile_region_count(p), sizeof want / sizeof want[0]);
	for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
		pc_region r;
		assert_int_equal(pc_profile_region_at(&r, p, i), PC_OK);
		assert_int_equal(r.low, want[i].lo);
		assert_int_equal(r.high, want[i].hi);
		assert_int_equal(r.cls, want[i].cls);
		assert_string_equal(r.label, want[i].label);
	}
	pc_symbol s;
	assert_int_equal(find(p, "_sleepy", &s)->address, 0x13fa0);
	assert_int_equal(find(p, "~i", &s)->address, 0xfffffffc);
	pc_profile_free(p);
}

/* End to end through the API: the DWARFS run of gen_fixtures.py. */
static void test_appl_sys_split(void **state)
{
	(void)state;
	static const struct {
		uint64_t pc, n;
	} run[] = {
		{0x13f22, 5}, {0x13f40, 7}, {0x13f5e, 1}, {0x13f60, 12},
		{0x13f84, 6}, {0x13fa0, 20}, {0x13fbe, 8}, {0x13fc2, 8},
		{0x13fe6, 14}, {0x14004, 9}, {0x14024, 2}, {0x14044, 3},
		{0xfc1234, 4}, {0xe01000, 2}, {0xfa0010, 1}, {0x001000, 3},
	};
	pc_profile *p = load("alcyon.prg", "load-address=0x13f00", NULL);
	for (size_t i = 0; i < sizeof run / sizeof run[0]; i++)
		assert_int_equal(pc_profile_add_sample(p, PC_NOSEG, run[i].pc, run[i].n), PC_OK);
	assert_int_equal(pc_profile_attribute(p, NULL), PC_OK);
	pc_totals t;
	assert_int_equal(pc_profile_totals(&t, p), PC_OK);
	assert_true(t.total == 105);
	assert_true(t.in_program == 95);
	assert_true(t.attributed == 95);
	assert_true(t.outside == 10);
	assert_true(test_class(p, PC_REGION_SYSTEM) == 10);
	assert_true(test_class(p, PC_REGION_UNKNOWN) == 0);
	static const struct {
		const char *name;
		double count;
	} rows[] = {
		{"_start", 0}, {"_main", 5}, {"_dopey", 8}, {"_grumpy", 12},
		{"_doc", 6}, {"_sleepy", 28}, {"_bashful", 8}, {"_happy", 14},
		{"_sneezy", 9}, {"_hide_mo", 2}, {"_exit", 3},
	};
	assert_int_equal(test_rows(p), sizeof rows / sizeof rows[0]);
	for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
		pc_row r;
		assert_int_equal(pc_profile_row_at(&r, p, i), PC_OK);
		assert_string_equal(r.name, rows[i].name);
		assert_true(r.count == rows[i].count);
	}
	pc_profile_free(p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_alcyon_flags),
		cmocka_unit_test(test_devpac_locals),
		cmocka_unit_test(test_mint_aout),
		cmocka_unit_test(test_preferred_names),
		cmocka_unit_test(test_regions_with_load_address),
		cmocka_unit_test(test_appl_sys_split),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
