/* The library's own functions take typed, versioned options
 * (pc_attrib_options, pc_callgraph_options, pc_fit_options,
 * pc_dwarf_options): a bad field or version is PC_EUSAGE naming it and
 * changes nothing; the string keys are parsed into them at the edge
 * (pc_attrib_options_set).  pc_profile_diff and _compare_rates, reports
 * of several captures, check their string keys (pc_report_options("diff"),
 * ("rates")).  pc_options_new in the one constructor style. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "profcore.h"
#include "profcore_plugin.h"

#define ATTR_KEYS "attribution, use-sizes, demangle"

/* main (0x100..0x110), _Z4worki (0x110..0x120), one arc main -> work;
 * samples 1 + 3 (times scale) */
static pc_profile *small(uint64_t scale)
{
	pc_profile *p;
	assert_int_equal(pc_profile_new(&p, NULL), PC_OK);
	pc_symbol s = {.name = "main", .segment = PC_NOSEG, .address = 0x100,
		       .size = 0x10, .kind = PC_SYM_TEXT};
	assert_int_equal(pc_profile_add_symbol(p, &s), PC_OK);
	s.name = "_Z4worki";
	s.address = 0x110;
	assert_int_equal(pc_profile_add_symbol(p, &s), PC_OK);
	assert_int_equal(pc_profile_add_sample(p, PC_NOSEG, 0x104, 1 * scale), PC_OK);
	assert_int_equal(pc_profile_add_sample(p, PC_NOSEG, 0x112, 3 * scale), PC_OK);
	pc_arc a = {PC_NOSEG, 0x104, PC_NOSEG, 0x110, 2, 0, 0};
	assert_int_equal(pc_profile_add_arc(p, &a), PC_OK);
	return p;
}

static pc_options *bag(const char *a, const char *b)
{
	pc_options *o = NULL;
	assert_int_equal(pc_options_new(&o), PC_OK);
	assert_non_null(o);
	if (a)
		assert_int_equal(pc_options_parse(o, a), PC_OK);
	if (b)
		assert_int_equal(pc_options_parse(o, b), PC_OK);
	return o;
}

static void options_new_style(void **state)
{
	(void)state;
	assert_int_equal(pc_options_new(NULL), PC_EUSAGE);
	assert_int_equal(pc_last_error()->code, PC_EUSAGE);
	assert_string_equal(pc_last_error()->message,
			    "pc_options_new: no place for the options");
	pc_options *o = (pc_options *)&o; /* overwritten */
	assert_int_equal(pc_options_new(&o), PC_OK);
	assert_non_null(o);
	assert_int_equal(pc_options_count(o), 0);
	pc_options_free(o);
}

static void typed_init(void **state)
{
	(void)state;
	pc_attrib_options a;
	memset(&a, 0x5a, sizeof a);
	assert_int_equal(pc_attrib_options_init(&a, PC_ATTRIB_OPTIONS_VERSION), PC_OK);
	pc_attrib_options ai = PC_ATTRIB_OPTIONS_INIT;
	assert_int_equal(a.version, 1);
	assert_true(a.version == ai.version && a.rule == ai.rule && a.use_sizes == ai.use_sizes &&
		    a.demangle == ai.demangle && a.gprof_symspecs == ai.gprof_symspecs);
	assert_int_equal(a.rule, PC_ATTRIBUTION_PROPORTIONAL);
	assert_int_equal(a.demangle, PC_DEMANGLE_AUTO);
	assert_int_equal(pc_attrib_options_init(&a, 2), PC_EUSAGE);
	assert_int_equal(pc_attrib_options_init(NULL, 1), PC_EUSAGE);
	pc_callgraph_options c;
	assert_int_equal(pc_callgraph_options_init(&c, PC_CALLGRAPH_OPTIONS_VERSION), PC_OK);
	assert_true(c.version == 1 && c.attrib == NULL && c.time == PC_CALLGRAPH_TIME_AUTO);
	assert_int_equal(pc_callgraph_options_init(&c, 0), PC_EUSAGE);
	pc_fit_options fo;
	assert_int_equal(pc_fit_options_init(&fo, PC_FIT_OPTIONS_VERSION), PC_OK);
	assert_true(fo.version == 1 && !fo.attrib && !fo.has_load_address && !fo.load_address);
	assert_int_equal(pc_fit_options_init(&fo, 7), PC_EUSAGE);
	pc_dwarf_options d;
	assert_int_equal(pc_dwarf_options_init(&d, PC_DWARF_OPTIONS_VERSION), PC_OK);
	assert_true(d.version == 1 && !d.source_path && !d.debuginfod);
	assert_int_equal(pc_dwarf_options_init(&d, 3), PC_EUSAGE);
}

/* the string edge: keys parsed into the typed struct */
static void attrib_strings(void **state)
{
	(void)state;
	pc_attrib_options a = PC_ATTRIB_OPTIONS_INIT;
	assert_int_equal(pc_attrib_options_set(&a, "attribution", "bucket-start"), PC_OK);
	assert_int_equal(a.rule, PC_ATTRIBUTION_BUCKET_START);
	assert_int_equal(pc_attrib_options_set(&a, "use-sizes", "1"), PC_OK);
	assert_int_equal(a.use_sizes, 1);
	assert_int_equal(pc_attrib_options_set(&a, "demangle", "none"), PC_OK);
	assert_int_equal(a.demangle, PC_DEMANGLE_NONE);
	assert_int_equal(pc_attrib_options_set(&a, "demangle", "gnu"), PC_OK);
	assert_int_equal(a.demangle, PC_DEMANGLE_AUTO);
	assert_int_equal(pc_attrib_options_set(&a, "gprof-symspecs", "-Pmain"), PC_OK);
	assert_string_equal(a.gprof_symspecs, "-Pmain");
	/* refused: nothing changes */
	assert_int_equal(pc_attrib_options_set(&a, "demangle", "maybe"), PC_EUSAGE);
	assert_int_equal(a.demangle, PC_DEMANGLE_AUTO);
	assert_int_equal(pc_attrib_options_set(&a, "use-sizes", "2"), PC_EUSAGE);
	assert_int_equal(a.use_sizes, 1);
	assert_int_equal(pc_attrib_options_set(&a, "attribution", "nearest"), PC_EUSAGE);
	assert_int_equal(a.rule, PC_ATTRIBUTION_BUCKET_START);
	assert_int_equal(pc_attrib_options_set(&a, "granularity", "line"), PC_ENOTFOUND);
	/* the table for listings and pc_options_bind */
	const pc_option_decl *k = pc_attrib_options_keys();
	size_t n = 0;
	while (k[n].name)
		n++;
	assert_int_equal(n, 4);
	assert_string_equal(k[3].name, "gprof-symspecs");
	pc_options *o = bag(NULL, NULL);
	assert_int_equal(pc_options_bind(o, k, "pc_profile_attribute"), PC_OK);
	assert_int_equal(pc_options_set(o, "granularty", "symbol"), PC_EUSAGE);
	assert_string_equal(pc_options_error(o)->message,
			    "unknown option 'granularty' for pc_profile_attribute; known: " ATTR_KEYS
			    ", gprof-symspecs");
	pc_options_free(o);
}

static double count_of(pc_profile *p, size_t row)
{
	pc_row r;
	assert_int_equal(pc_profile_row_at(&r, p, row), PC_OK);
	return r.count;
}

static void attribute_typed(void **state)
{
	(void)state;
	pc_profile *p = small(1);
	pc_attrib_options a = PC_ATTRIB_OPTIONS_INIT;
	a.rule = PC_ATTRIBUTION_BUCKET_START;
	a.use_sizes = 1;
	assert_int_equal(pc_profile_attribute(p, &a), PC_OK);
	assert_true(count_of(p, 1) == 3);
	/* raw names, then refused settings: still raw, nothing changed */
	a.demangle = PC_DEMANGLE_NONE;
	assert_int_equal(pc_profile_attribute(p, &a), PC_OK);
	pc_row r;
	assert_int_equal(pc_profile_row_at(&r, p, 1), PC_OK);
	assert_string_equal(r.name, "_Z4worki");
	pc_attrib_options bad = a;
	bad.demangle = (pc_demangle_mode)7;
	assert_int_equal(pc_profile_attribute(p, &bad), PC_EUSAGE);
	assert_string_equal(pc_profile_error(p)->message,
			    "pc_attrib_options.demangle 7: expected PC_DEMANGLE_AUTO or "
			    "PC_DEMANGLE_NONE");
	bad = a;
	bad.version = 2;
	assert_int_equal(pc_profile_attribute(p, &bad), PC_EUSAGE);
	assert_string_equal(pc_profile_error(p)->message,
			    "pc_attrib_options.version 2: expected 1 (PC_ATTRIB_OPTIONS_INIT)");
	bad = a;
	bad.rule = (pc_attribution_rule)2;
	assert_int_equal(pc_profile_attribute(p, &bad), PC_EUSAGE);
	assert_string_equal(pc_profile_error(p)->message,
			    "pc_attrib_options.rule 2: expected PC_ATTRIBUTION_PROPORTIONAL or "
			    "_BUCKET_START");
	bad = a;
	bad.use_sizes = 2;
	assert_int_equal(pc_profile_attribute(p, &bad), PC_EUSAGE);
	assert_string_equal(pc_profile_error(p)->message, "use-sizes must be 0 or 1");
	assert_int_equal(pc_profile_row_at(&r, p, 1), PC_OK);
	assert_string_equal(r.name, "_Z4worki");
	/* NULL: the profile's settings stay */
	assert_int_equal(pc_profile_attribute(p, NULL), PC_OK);
	assert_int_equal(pc_profile_row_at(&r, p, 1), PC_OK);
	assert_string_equal(r.name, "_Z4worki");
	pc_profile_free(p);
}

static void display_name(void **state)
{
	(void)state;
	pc_profile *p = small(1);
	const char *name = "untouched";
	assert_int_equal(pc_profile_symbol_display_name(&name, p, 1, PC_DEMANGLE_AUTO), PC_OK);
	assert_string_equal(name, pc_demangler_available() ? "work(int)" : "_Z4worki");
	assert_int_equal(pc_profile_symbol_display_name(&name, p, 0, PC_DEMANGLE_AUTO), PC_OK);
	assert_string_equal(name, "main");
	assert_int_equal(pc_profile_symbol_display_name(&name, p, 1, PC_DEMANGLE_NONE), PC_OK);
	assert_string_equal(name, "_Z4worki");
	/* past the end */
	name = "untouched";
	assert_int_equal(pc_profile_symbol_display_name(&name, p, 2, PC_DEMANGLE_AUTO),
			 PC_ENOTFOUND);
	assert_null(name);
	assert_string_equal(pc_profile_error(p)->message, "no symbol 2: the profile has 2");
	assert_int_equal(pc_profile_symbol_display_name(&name, p, 1, (pc_demangle_mode)5),
			 PC_EUSAGE);
	assert_null(name);
	assert_string_equal(pc_profile_error(p)->message,
			    "demangle 5: expected PC_DEMANGLE_AUTO or PC_DEMANGLE_NONE");
	assert_int_equal(pc_profile_symbol_display_name(NULL, p, 0, PC_DEMANGLE_AUTO), PC_EUSAGE);
	assert_string_equal(pc_profile_error(p)->message, "no place for the name");
	pc_profile_free(p);
}

static void callgraph_typed(void **state)
{
	(void)state;
	pc_profile *p = small(1);
	pc_callgraph *g = (pc_callgraph *)&g;
	pc_callgraph_options c = PC_CALLGRAPH_OPTIONS_INIT;
	c.time = (pc_callgraph_time)3;
	assert_int_equal(pc_profile_callgraph(&g, p, &c), PC_EUSAGE);
	assert_null(g);
	assert_string_equal(pc_profile_error(p)->message,
			    "pc_callgraph_options.time 3: expected one of PC_CALLGRAPH_TIME_AUTO, "
			    "_SAMPLES, _FLAT");
	pc_attrib_options a = PC_ATTRIB_OPTIONS_INIT;
	a.rule = PC_ATTRIBUTION_BUCKET_START;
	c.attrib = &a;
	c.time = PC_CALLGRAPH_TIME_SAMPLES;
	assert_int_equal(pc_profile_callgraph(&g, p, &c), PC_OK);
	assert_int_equal(pc_callgraph_edge_count(g), 1);
	pc_cg_node n;
	assert_int_equal(pc_callgraph_node_at(&n, g, 0), PC_OK);
	assert_true(n.self == 1 && n.children == 3);
	pc_callgraph_free(g);
	/* flat: own times from the arcs' flat times (none here) */
	c.time = PC_CALLGRAPH_TIME_FLAT;
	assert_int_equal(pc_profile_callgraph(&g, p, &c), PC_OK);
	assert_int_equal(pc_callgraph_node_at(&n, g, 0), PC_OK);
	assert_true(n.self == 0 && n.children == 0);
	pc_callgraph_free(g);
	assert_int_equal(pc_profile_callgraph(&g, p, NULL), PC_OK);
	pc_callgraph_free(g);
	pc_profile_free(p);
}

static void fit_typed(void **state)
{
	(void)state;
	pc_profile *p = small(1);
	pc_fit f;
	memset(&f, 0x5a, sizeof f);
	pc_fit_options fo = PC_FIT_OPTIONS_INIT;
	fo.version = 9;
	assert_int_equal(pc_profile_fit(&f, p, &fo), PC_EUSAGE);
	assert_string_equal(pc_profile_error(p)->message,
			    "pc_fit_options.version 9: expected 1 (PC_FIT_OPTIONS_INIT)");
	assert_int_equal(f.verdict, PC_FIT_UNKNOWN);
	assert_null(f.problem);
	pc_attrib_options a = PC_ATTRIB_OPTIONS_INIT;
	a.use_sizes = 1;
	fo.version = PC_FIT_OPTIONS_VERSION;
	fo.attrib = &a;
	fo.has_load_address = 1;
	fo.load_address = 0x10;
	assert_int_equal(pc_profile_fit(&f, p, &fo), PC_OK);
	assert_int_equal(f.load_given, 1);
	assert_true(f.samples == 4 && f.in_program == 4);
	assert_int_equal(pc_profile_fit(&f, p, NULL), PC_OK);
	assert_int_equal(f.load_given, 0);
	pc_profile_free(p);
}

static void diff_keys(void **state)
{
	(void)state;
	pc_profile *a = small(10), *b = small(20);
	assert_int_equal(pc_profile_add_sample(b, PC_NOSEG, 0x112, 40), PC_OK);
	char *out = (char *)"untouched";
	pc_options *o = bag("granularty=symbol", NULL);
	assert_int_equal(pc_profile_diff(&out, NULL, a, b, o), PC_EUSAGE);
	assert_string_equal(out, "untouched");
	assert_string_equal(pc_profile_error(b)->message,
			    "unknown option 'granularty' for pc_profile_diff; known: " ATTR_KEYS
			    ", output-format, ci, correction, threshold, power, symbols, focus, ignore, hide");
	pc_options_free(o);
	/* top is a report key, not a diff key */
	o = bag("top=3", NULL);
	assert_int_equal(pc_profile_diff(&out, NULL, a, b, o), PC_EUSAGE);
	pc_options_free(o);
	o = bag("output-format=csv", "symbols=main");
	assert_int_equal(pc_profile_diff(&out, NULL, a, b, o), PC_OK);
	assert_non_null(strstr(out, "main"));
	assert_null(strstr(out, "work"));
	pc_free(out);
	pc_options_free(o);
	pc_profile_free(a);
	pc_profile_free(b);
}

static void rates_keys(void **state)
{
	(void)state;
	pc_profile *caps[2] = {small(10), small(20)};
	char *out = (char *)"untouched";
	pc_options *o = bag("granularty=symbol", NULL);
	assert_int_equal(pc_profile_compare_rates(&out, NULL, caps, 2, o), PC_EUSAGE);
	assert_string_equal(out, "untouched");
	assert_string_equal(pc_profile_error(caps[0])->message,
			    "unknown option 'granularty' for pc_profile_compare_rates; known: " ATTR_KEYS
			    ", output-format, ci");
	pc_options_free(o);
	o = bag("output-format=html", NULL);
	assert_int_equal(pc_profile_compare_rates(&out, NULL, caps, 2, o), PC_EUSAGE);
	assert_string_equal(pc_profile_error(caps[0])->message,
			    "bad value 'html' for option 'output-format' of "
			    "pc_profile_compare_rates; expected one of: text, csv, json");
	pc_options_free(o);
	o = bag("ci=99", "output-format=csv");
	assert_int_equal(pc_profile_compare_rates(&out, NULL, caps, 2, o), PC_OK);
	assert_non_null(out);
	pc_free(out);
	pc_options_free(o);
	pc_profile_free(caps[0]);
	pc_profile_free(caps[1]);
}

static void multi_tables(void **state)
{
	(void)state;
	static const char *const r[] = {"diff", "rates"};
	static const size_t nkeys[] = {12, 5};
	for (size_t i = 0; i < 2; i++) {
		const pc_option_decl *d = pc_report_options(r[i]);
		assert_non_null(d);
		size_t n = 0;
		while (d[n].name)
			n++;
		assert_int_equal(n, nkeys[i]);
	}
	assert_null(pc_report_options("merge"));
}

static void merge_typed(void **state)
{
	(void)state;
	pc_profile *a = small(1), *b = small(2);
	assert_int_equal(pc_profile_merge(a, b), PC_OK);
	assert_true(count_of(a, 1) == 3 + 6);
	assert_int_equal(pc_profile_merge(a, a), PC_EUSAGE);
	assert_string_equal(pc_profile_error(a)->message, "merge needs two distinct profiles");
	pc_profile_free(a);
	pc_profile_free(b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(options_new_style), cmocka_unit_test(typed_init),
		cmocka_unit_test(attrib_strings),    cmocka_unit_test(attribute_typed),
		cmocka_unit_test(display_name),      cmocka_unit_test(callgraph_typed),
		cmocka_unit_test(fit_typed),         cmocka_unit_test(diff_keys),
		cmocka_unit_test(rates_keys),        cmocka_unit_test(merge_typed),
		cmocka_unit_test(multi_tables),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
