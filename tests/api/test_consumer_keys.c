/* The library's own option consumers check their keys at the entry
 * (pc_profile_attribute, _symbol_display_name, _callgraph, _fit, _diff,
 * _compare_rates, _merge): an unknown key or a bad value is PC_EUSAGE
 * naming it and the known ones, and changes nothing; their valid keys
 * still work.  pc_options_new in the one constructor style, and
 * pc_profile_symbol_display_name returning a status. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "profcore.h"

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

static void function_tables(void **state)
{
	(void)state;
	static const char *const fn[] = {"pc_profile_attribute", "pc_profile_symbol_display_name",
					 "pc_profile_callgraph", "pc_profile_fit",
					 "pc_profile_diff", "pc_profile_compare_rates",
					 "pc_profile_merge"};
	static const size_t nkeys[] = {3, 3, 4, 4, 12, 5, 0};
	for (size_t i = 0; i < sizeof fn / sizeof fn[0]; i++) {
		const pc_option_decl *d = pc_function_options(fn[i]);
		assert_non_null(d);
		size_t n = 0;
		while (d[n].name)
			n++;
		assert_int_equal(n, nkeys[i]);
	}
	assert_null(pc_function_options("pc_profile_render"));
	assert_null(pc_function_options(NULL));
	/* a bag bound to one refuses at set time */
	pc_options *o = bag(NULL, NULL);
	assert_int_equal(pc_options_bind(o, pc_function_options("pc_profile_fit"),
					 "pc_profile_fit"),
			 PC_OK);
	assert_int_equal(pc_options_set(o, "granularty", "symbol"), PC_EUSAGE);
	assert_string_equal(pc_options_error(o)->message,
			    "unknown option 'granularty' for pc_profile_fit; known: " ATTR_KEYS
			    ", load-address");
	assert_int_equal(pc_options_set(o, "load-address", "0x10"), PC_OK);
	pc_options_free(o);
}

static double count_of(pc_profile *p, size_t row)
{
	pc_row r;
	assert_int_equal(pc_profile_row_at(p, row, &r), PC_OK);
	return r.count;
}

static void attribute_keys(void **state)
{
	(void)state;
	pc_profile *p = small(1);
	pc_options *o = bag("attribution=bucket-start", "use-sizes=1");
	assert_int_equal(pc_profile_attribute(p, o), PC_OK);
	assert_true(count_of(p, 1) == 3);
	pc_options_free(o);
	o = bag("granularty=symbol", NULL);
	assert_int_equal(pc_profile_attribute(p, o), PC_EUSAGE);
	assert_string_equal(pc_profile_error(p)->message,
			    "unknown option 'granularty' for pc_profile_attribute; known: " ATTR_KEYS);
	pc_options_free(o);
	/* a report's key is no attribution key */
	o = bag("output-format=csv", NULL);
	assert_int_equal(pc_profile_attribute(p, o), PC_EUSAGE);
	assert_string_equal(pc_profile_error(p)->message,
			    "unknown option 'output-format' for pc_profile_attribute; known: " ATTR_KEYS);
	pc_options_free(o);
	/* raw names, then a refused demangle value: still raw */
	o = bag("demangle=none", NULL);
	assert_int_equal(pc_profile_attribute(p, o), PC_OK);
	pc_options_free(o);
	pc_row r;
	assert_int_equal(pc_profile_row_at(p, 1, &r), PC_OK);
	assert_string_equal(r.name, "_Z4worki");
	o = bag("demangle=maybe", NULL);
	assert_int_equal(pc_profile_attribute(p, o), PC_EUSAGE);
	assert_string_equal(pc_profile_error(p)->message,
			    "bad value 'maybe' for option 'demangle' of pc_profile_attribute; "
			    "expected one of: auto, none, 0, 1, gnu");
	pc_options_free(o);
	assert_int_equal(pc_profile_row_at(p, 1, &r), PC_OK);
	assert_string_equal(r.name, "_Z4worki");
	pc_profile_free(p);
}

static void display_name(void **state)
{
	(void)state;
	pc_profile *p = small(1);
	const char *name = "untouched";
	assert_int_equal(pc_profile_symbol_display_name(p, 1, NULL, &name), PC_OK);
	assert_string_equal(name, pc_demangler_available() ? "work(int)" : "_Z4worki");
	assert_int_equal(pc_profile_symbol_display_name(p, 0, NULL, &name), PC_OK);
	assert_string_equal(name, "main");
	pc_options *o = bag("demangle=none", NULL);
	assert_int_equal(pc_profile_symbol_display_name(p, 1, o, &name), PC_OK);
	assert_string_equal(name, "_Z4worki");
	pc_options_free(o);
	/* past the end */
	name = "untouched";
	assert_int_equal(pc_profile_symbol_display_name(p, 2, NULL, &name), PC_ENOTFOUND);
	assert_null(name);
	assert_string_equal(pc_profile_error(p)->message, "no symbol 2: the profile has 2");
	/* its keys are the attribution keys */
	o = bag("granularty=symbol", NULL);
	assert_int_equal(pc_profile_symbol_display_name(p, 1, o, &name), PC_EUSAGE);
	assert_null(name);
	assert_string_equal(pc_profile_error(p)->message,
			    "unknown option 'granularty' for pc_profile_symbol_display_name; "
			    "known: " ATTR_KEYS);
	pc_options_free(o);
	o = bag("demangle=maybe", NULL);
	assert_int_equal(pc_profile_symbol_display_name(p, 1, o, &name), PC_EUSAGE);
	assert_string_equal(pc_profile_error(p)->message,
			    "bad value 'maybe' for option 'demangle' of "
			    "pc_profile_symbol_display_name; expected one of: auto, none, 0, 1, gnu");
	pc_options_free(o);
	assert_int_equal(pc_profile_symbol_display_name(p, 0, NULL, NULL), PC_EUSAGE);
	assert_string_equal(pc_profile_error(p)->message, "no place for the name");
	pc_profile_free(p);
}

static void callgraph_keys(void **state)
{
	(void)state;
	pc_profile *p = small(1);
	pc_callgraph *g = (pc_callgraph *)&g;
	pc_options *o = bag("granularty=symbol", NULL);
	assert_int_equal(pc_profile_callgraph(p, o, &g), PC_EUSAGE);
	assert_null(g);
	assert_string_equal(pc_profile_error(p)->message,
			    "unknown option 'granularty' for pc_profile_callgraph; known: " ATTR_KEYS
			    ", callgraph-time");
	pc_options_free(o);
	o = bag("callgraph-time=samples", "attribution=bucket-start");
	assert_int_equal(pc_profile_callgraph(p, o, &g), PC_OK);
	assert_int_equal(pc_callgraph_edge_count(g), 1);
	pc_cg_node n;
	assert_int_equal(pc_callgraph_node_at(g, 0, &n), PC_OK);
	assert_true(n.self == 1 && n.children == 3);
	pc_callgraph_free(g);
	pc_options_free(o);
	pc_profile_free(p);
}

static void fit_keys(void **state)
{
	(void)state;
	pc_profile *p = small(1);
	pc_fit f;
	memset(&f, 0x5a, sizeof f);
	pc_options *o = bag("granularty=symbol", NULL);
	assert_int_equal(pc_profile_fit(p, o, &f), PC_EUSAGE);
	assert_string_equal(pc_profile_error(p)->message,
			    "unknown option 'granularty' for pc_profile_fit; known: " ATTR_KEYS
			    ", load-address");
	assert_int_equal(f.verdict, PC_FIT_UNKNOWN);
	assert_null(f.problem);
	pc_options_free(o);
	o = bag("load-address=zero", NULL);
	assert_int_equal(pc_profile_fit(p, o, &f), PC_EUSAGE);
	assert_string_equal(pc_profile_error(p)->message,
			    "bad value 'zero' for option 'load-address' of pc_profile_fit; "
			    "expected an unsigned integer");
	pc_options_free(o);
	o = bag("load-address=0x10", "use-sizes=1");
	assert_int_equal(pc_profile_fit(p, o, &f), PC_OK);
	assert_int_equal(f.load_given, 1);
	assert_true(f.samples == 4 && f.in_program == 4);
	pc_options_free(o);
	pc_profile_free(p);
}

static void diff_keys(void **state)
{
	(void)state;
	pc_profile *a = small(10), *b = small(20);
	assert_int_equal(pc_profile_add_sample(b, PC_NOSEG, 0x112, 40), PC_OK);
	char *out = (char *)"untouched";
	pc_options *o = bag("granularty=symbol", NULL);
	assert_int_equal(pc_profile_diff(a, b, o, &out, NULL), PC_EUSAGE);
	assert_string_equal(out, "untouched");
	assert_string_equal(pc_profile_error(b)->message,
			    "unknown option 'granularty' for pc_profile_diff; known: " ATTR_KEYS
			    ", output-format, ci, correction, threshold, power, symbols, focus, ignore, hide");
	pc_options_free(o);
	/* top is a report key, not a diff key */
	o = bag("top=3", NULL);
	assert_int_equal(pc_profile_diff(a, b, o, &out, NULL), PC_EUSAGE);
	pc_options_free(o);
	o = bag("output-format=csv", "symbols=main");
	assert_int_equal(pc_profile_diff(a, b, o, &out, NULL), PC_OK);
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
	assert_int_equal(pc_profile_compare_rates(caps, 2, o, &out, NULL), PC_EUSAGE);
	assert_string_equal(out, "untouched");
	assert_string_equal(pc_profile_error(caps[0])->message,
			    "unknown option 'granularty' for pc_profile_compare_rates; known: " ATTR_KEYS
			    ", output-format, ci");
	pc_options_free(o);
	o = bag("output-format=html", NULL);
	assert_int_equal(pc_profile_compare_rates(caps, 2, o, &out, NULL), PC_EUSAGE);
	assert_string_equal(pc_profile_error(caps[0])->message,
			    "bad value 'html' for option 'output-format' of "
			    "pc_profile_compare_rates; expected one of: text, csv, json");
	pc_options_free(o);
	o = bag("ci=99", "output-format=csv");
	assert_int_equal(pc_profile_compare_rates(caps, 2, o, &out, NULL), PC_OK);
	assert_non_null(out);
	pc_free(out);
	pc_options_free(o);
	pc_profile_free(caps[0]);
	pc_profile_free(caps[1]);
}

static void merge_keys(void **state)
{
	(void)state;
	pc_profile *a = small(1), *b = small(2);
	pc_options *o = bag("granularty=symbol", NULL);
	assert_int_equal(pc_profile_merge(a, b, o), PC_EUSAGE);
	assert_string_equal(pc_profile_error(a)->message,
			    "unknown option 'granularty' for pc_profile_merge; known: none");
	pc_options_free(o);
	/* nothing merged */
	assert_true(count_of(a, 1) == 3);
	o = bag(NULL, NULL);
	assert_int_equal(pc_profile_merge(a, b, o), PC_OK);
	assert_true(count_of(a, 1) == 3 + 6);
	assert_int_equal(pc_profile_merge(a, b, NULL), PC_OK);
	assert_true(count_of(a, 1) == 3 + 6 + 6);
	pc_options_free(o);
	pc_profile_free(a);
	pc_profile_free(b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(options_new_style), cmocka_unit_test(function_tables),
		cmocka_unit_test(attribute_keys),    cmocka_unit_test(display_name),
		cmocka_unit_test(callgraph_keys),    cmocka_unit_test(fit_keys),
		cmocka_unit_test(diff_keys),         cmocka_unit_test(rates_keys),
		cmocka_unit_test(merge_keys),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
