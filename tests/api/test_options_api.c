/* Options against the keys their consumer declares: an unknown key or a
 * bad value fails with PC_EUSAGE and a message naming the key (and the
 * known ones, or the value), for a loader, a report and an export, at
 * set time for a bound bag and before any work for an unbound one; the
 * 0-or-status getters. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "profcore.h"
#include "profcore_plugin.h"

#define GMON_KEYS "width, endian, gmon-layout, hist-width, counter-endian, rate"
#define REPORT_KEYS                                                             \
	"attribution, use-sizes, demangle, output-format, style, granularity, "   \
	"zero, barchart, cutoff, percent-of, top, sort, focus, ignore, hide, "    \
	"interval, intervals, callgraph-time, ci, source-path, debuginfod, "     \
	"source-select, "                                                         \
	"disasm-select, html-disasm, load-address, gprof-symspecs"
#define PPROF_KEYS                                                              \
	"attribution, use-sizes, demangle, granularity, stacks, focus, ignore, "  \
	"hide, top, sort, compress"

/* two functions, 3 + 1 samples */
static pc_profile *small_profile(void)
{
	pc_profile *p;
	pc_profile_new(&p, NULL);
	assert_non_null(p);
	pc_symbol s = {.name = "main", .segment = PC_NOSEG, .address = 0x100,
		       .size = 0x10, .kind = PC_SYM_TEXT};
	assert_int_equal(pc_profile_add_symbol(p, &s), PC_OK);
	s.name = "work";
	s.address = 0x110;
	assert_int_equal(pc_profile_add_symbol(p, &s), PC_OK);
	assert_int_equal(pc_profile_add_sample(p, PC_NOSEG, 0x104, 1), PC_OK);
	assert_int_equal(pc_profile_add_sample(p, PC_NOSEG, 0x112, 3), PC_OK);
	return p;
}

static void unknown_loader_key(void **state)
{
	(void)state;
	pc_options *o;
	assert_int_equal(pc_options_new(&o), PC_OK);
	assert_int_equal(pc_options_set(o, "rat", "100"), PC_OK); /* unbound */
	pc_profile *p;
	pc_profile_new(&p, NULL);
	static const char junk[] = "not looked at";
	assert_int_equal(pc_profile_load_memory(p, junk, sizeof junk - 1, "x.out", "gmon", o),
			 PC_EUSAGE);
	const pc_error *e = pc_profile_error(p);
	assert_string_equal(e->file, "x.out");
	assert_int_equal(e->offset, -1);
	assert_string_equal(e->message,
			    "unknown option 'rat' for loader gmon; known: " GMON_KEYS);
	assert_int_equal(pc_profile_source_count(p), 0); /* nothing loaded */
	/* a bad value of a declared key, before any byte is read */
	assert_int_equal(pc_options_set(o, "rat", NULL), PC_OK);
	assert_int_equal(pc_options_set(o, "endian", "middle"), PC_OK);
	assert_int_equal(pc_profile_load_memory(p, junk, sizeof junk - 1, "x.out", "gmon", o),
			 PC_EUSAGE);
	assert_string_equal(pc_profile_error(p)->message,
			    "bad value 'middle' for option 'endian' of loader gmon; "
			    "expected one of: little, le, big, be");
	pc_profile_free(p);

	/* bound to the loader's table: refused at set time */
	pc_registry *r;
	pc_registry_new(&r);
	const pc_loader *gmon = pc_registry_find(r, "gmon");
	assert_int_equal(pc_options_bind(o, gmon->options, "loader gmon"), PC_EUSAGE);
	assert_string_equal(pc_options_error(o)->message,
			    "bad value 'middle' for option 'endian' of loader gmon; "
			    "expected one of: little, le, big, be");
	assert_int_equal(pc_options_set(o, "endian", NULL), PC_OK);
	assert_int_equal(pc_options_bind(o, gmon->options, "loader gmon"), PC_OK);
	assert_null(pc_options_error(o));
	assert_int_equal(pc_options_parse(o, "rat=100"), PC_EUSAGE);
	assert_string_equal(pc_options_error(o)->message,
			    "unknown option 'rat' for loader gmon; known: " GMON_KEYS);
	assert_null(pc_options_get(o, "rat"));
	assert_int_equal(pc_options_parse(o, "rate=fast"), PC_EUSAGE);
	assert_string_equal(pc_options_error(o)->message,
			    "bad value 'fast' for option 'rate' of loader gmon; expected a number");
	assert_int_equal(pc_options_count(o), 0);
	assert_int_equal(pc_options_parse(o, "rate=100"), PC_OK);
	assert_null(pc_options_error(o));
	assert_string_equal(pc_options_get(o, "rate"), "100");
	pc_registry_free(r);
	pc_options_free(o);
}

static void unknown_report_key(void **state)
{
	(void)state;
	pc_profile *p = small_profile();
	pc_options *o;
	assert_int_equal(pc_options_new(&o), PC_OK);
	assert_int_equal(pc_options_set(o, "cutof", "50"), PC_OK);
	char *out = (char *)"untouched";
	size_t len = 7;
	assert_int_equal(pc_profile_render(&out, &len, p, "flat", o),
			 PC_EUSAGE);
	assert_string_equal(pc_profile_error(p)->message,
			    "unknown option 'cutof' for report flat; known: " REPORT_KEYS);
	/* a bad value */
	assert_int_equal(pc_options_set(o, "cutof", NULL), PC_OK);
	assert_int_equal(pc_options_set(o, "zero", "maybe"), PC_OK);
	assert_int_equal(pc_profile_render(&out, &len, p, NULL, o), PC_EUSAGE);
	assert_string_equal(pc_profile_error(p)->message,
			    "bad value 'maybe' for option 'zero' of report flat; "
			    "expected 0 or 1 (no/yes, off/on, false/true)");
	/* the report's table, bound: at set time */
	pc_options *b;
	assert_int_equal(pc_options_new(&b), PC_OK);
	assert_non_null(pc_report_options("regions"));
	assert_null(pc_report_options("nonesuch"));
	assert_int_equal(pc_options_bind(b, pc_report_options("regions"), "report regions"),
			 PC_OK);
	assert_int_equal(pc_options_set(b, "top", "-3"), PC_EUSAGE);
	assert_string_equal(pc_options_error(b)->message,
			    "bad value '-3' for option 'top' of report regions; "
			    "expected an unsigned integer");
	assert_int_equal(pc_options_set(b, "cutof", "5"), PC_EUSAGE);
	assert_string_equal(pc_options_error(b)->message,
			    "unknown option 'cutof' for report regions; known: " REPORT_KEYS);
	assert_int_equal(pc_options_set(b, "zero", "yes"), PC_OK);
	assert_int_equal(pc_options_set(b, "output-format", "csv"), PC_OK);
	assert_int_equal(pc_profile_render(&out, &len, p, "flat", b), PC_OK);
	assert_string_equal(out, "rank,symbol,count,percent,cum_percent,self_seconds,calls,"
				 "self_calls,address\n"
				 "1,work,3,75.0000,75.0000,,0,0,0x110\n"
				 "2,main,1,25.0000,100.0000,,0,0,0x100\n"
				 ",[total],4,100.0000,,,,,\n"
				 ",[in program],4,100.0000,,,,,\n"
				 ",[unattributed],0,0.0000,,,,,\n"
				 ",[outside],0,0.0000,,,,,\n");
	pc_free(out);
	pc_options_free(b);
	pc_options_free(o);
	pc_profile_free(p);
}

static void unknown_export_key(void **state)
{
	(void)state;
	pc_profile *p = small_profile();
	pc_options *o;
	assert_int_equal(pc_options_new(&o), PC_OK);
	assert_int_equal(pc_options_set(o, "granularty", "symbol"), PC_OK);
	char *out = NULL;
	size_t len = 0;
	assert_int_equal(pc_profile_export(&out, &len, p, "pprof", o),
			 PC_EUSAGE);
	assert_null(out);
	assert_string_equal(pc_profile_error(p)->message,
			    "unknown option 'granularty' for export pprof; known: " PPROF_KEYS);
	/* compress is pprof's own: the folded export does not know it */
	assert_int_equal(pc_options_set(o, "granularty", NULL), PC_OK);
	assert_int_equal(pc_options_set(o, "compress", "0"), PC_OK);
	assert_int_equal(pc_profile_export(&out, &len, p, "folded", o),
			 PC_EUSAGE);
	assert_string_equal(pc_profile_error(p)->message,
			    "unknown option 'compress' for export folded; known: "
			    "attribution, use-sizes, demangle, granularity, stacks, focus, "
			    "ignore, hide, top, sort");
	assert_int_equal(pc_options_set(o, "compress", NULL), PC_OK);
	assert_int_equal(pc_options_set(o, "granularity", "symbl"), PC_OK);
	assert_int_equal(pc_profile_export(&out, &len, p, "folded", o),
			 PC_EUSAGE);
	assert_string_equal(pc_profile_error(p)->message,
			    "bad value 'symbl' for option 'granularity' of export folded; "
			    "expected one of: function, symbol, line, address");
	assert_int_equal(pc_options_set(o, "granularity", "symbol"), PC_OK);
	assert_int_equal(pc_profile_export(&out, &len, p, "folded", o), PC_OK);
	assert_string_equal(out, "main 1\nwork 3\n");
	pc_free(out);
	assert_null(pc_export_options("nonesuch"));
	pc_options_free(o);
	pc_profile_free(p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(unknown_loader_key),
		cmocka_unit_test(unknown_report_key),
		cmocka_unit_test(unknown_export_key),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
