/* The pc_dwarf API on the golden program fixtures/lines-O2
 * (gen_fixtures.sh; its locations.csv lists what addr2line -f -i agrees
 * with): an inline chain three deep, one libdw read per distinct address
 * however often it is asked for and however many samples fall on it,
 * source lookup through "source-path", and the errors (no descriptor
 * left open by a refused file). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <unistd.h>
#include <cmocka.h>

#include "profcore.h"
#include "profcore_plugin.h"

static char exe[4096], programs[4096];

/* pc_dwarf_lookup and up to 8 of its frames (pc_dwarf_frame_at) */
static int lookup(pc_dwarf *d, uint64_t a, pc_srcframe *f, size_t *n)
{
	int st = pc_dwarf_lookup(n, d, a);
	if (st)
		return st;
	for (size_t i = 0; i < *n && i < 8; i++)
		assert_int_equal(pc_dwarf_frame_at(&f[i], d, i), PC_OK);
	pc_srcframe past;
	assert_int_equal(pc_dwarf_frame_at(&past, d, *n), PC_ENOTFOUND);
	return PC_OK;
}

static void test_chain(void **state)
{
	(void)state;
	pc_dwarf *d;
	pc_dwarf_new(&d, NULL);
	assert_non_null(d);
	assert_int_equal(pc_dwarf_load(d, exe), PC_OK);
	pc_srcframe f[8];
	size_t n;
	assert_int_equal(lookup(d, 0x1135, f, &n), PC_OK);
	assert_int_equal(n, 3);
	assert_string_equal(f[0].function, "mix");
	assert_string_equal(f[0].file, "/profcore-src/lines_util.h");
	assert_int_equal(f[0].line, 9);
	assert_int_equal(f[0].column, 4);
	assert_string_equal(f[1].function, "scan");
	assert_string_equal(f[1].file, "/profcore-src/lines_main.c");
	assert_int_equal(f[1].line, 23);
	assert_int_equal(f[1].column, 7);
	assert_string_equal(f[2].function, "main");
	assert_int_equal(f[2].line, 40);
	assert_int_equal(f[2].column, 12);
	assert_int_equal(pc_dwarf_query_count(d), 1);
	/* cached: no second read */
	for (int i = 0; i < 1000; i++)
		assert_int_equal(lookup(d, 0x1135, f, &n), PC_OK);
	assert_int_equal(pc_dwarf_query_count(d), 1);
	assert_int_equal(n, 3);
	/* outside every unit: no frame, no error */
	assert_int_equal(lookup(d, 0x10, f, &n), PC_OK);
	assert_int_equal(n, 0);
	assert_int_equal(pc_dwarf_query_count(d), 2);
	pc_dwarf_free(d);
}

/* 10^6 raw samples on 3 addresses: the locations report reads 3. */
static void test_once_per_address(void **state)
{
	(void)state;
	pc_profile *p;
	pc_profile_new(&p, NULL);
	pc_dwarf *d;
	pc_dwarf_new(&d, NULL);
	assert_int_equal(pc_dwarf_load(d, exe), PC_OK);
	assert_int_equal(pc_profile_load_file(p, exe, "elf", NULL), PC_OK);
	static const uint64_t at[3] = {0x10ed, 0x1135, 0x1145};
	for (int r = 0; r < 1000; r++)
		for (int i = 0; i < 1000; i++)
			assert_int_equal(pc_profile_add_sample(p, PC_NOSEG, at[i % 3], 1), PC_OK);
	pc_profile_set_dwarf(p, d);
	char *out = NULL;
	size_t len;
	assert_int_equal(pc_profile_render(&out, &len, p, "locations", NULL),
			 PC_OK);
	assert_int_equal(pc_dwarf_query_count(d), 3);
	assert_string_equal(out,
		"address           count  function at file:line:column (inline chain, innermost first)\n"
		"0x10ed           334000  fill at /profcore-src/lines_main.c:14:15\n"
		"                         inlined in main at /profcore-src/lines_main.c:38:3\n"
		"0x1135           333000  mix at /profcore-src/lines_util.h:9:4\n"
		"                         inlined in scan at /profcore-src/lines_main.c:23:7\n"
		"                         inlined in main at /profcore-src/lines_main.c:40:12\n"
		"0x1145           333000  scan at /profcore-src/lines_main.c:22:36\n"
		"                         inlined in main at /profcore-src/lines_main.c:40:12\n");
	pc_free(out);
	pc_profile_free(p);
	pc_dwarf_free(d);
}

/* The golden program's profile and DWARF reader */
static void open_fixture(pc_profile **p, pc_dwarf **d)
{
	assert_int_equal(pc_profile_new(p, NULL), PC_OK);
	assert_int_equal(pc_dwarf_new(d, NULL), PC_OK);
	assert_int_equal(pc_dwarf_load(*d, exe), PC_OK);
	assert_int_equal(pc_profile_load_file(*p, exe, "elf", NULL), PC_OK);
}

/* p's line report as CSV (zero: with the rows without samples); d's
 * query count; both freed */
static size_t render_lines(pc_profile *p, pc_dwarf *d, int zero, char **out)
{
	pc_options *o;
	assert_int_equal(pc_options_new(&o), PC_OK);
	pc_profile_set_dwarf(p, d);
	assert_int_equal(pc_options_set(o, "granularity", "line"), PC_OK);
	assert_int_equal(pc_options_set(o, "output-format", "csv"), PC_OK);
	if (zero)
		assert_int_equal(pc_options_set(o, "zero", "1"), PC_OK);
	size_t len;
	assert_int_equal(pc_profile_render(out, &len, p, "flat", o), PC_OK);
	size_t q = (size_t)pc_dwarf_query_count(d);
	pc_options_free(o);
	pc_profile_free(p);
	pc_dwarf_free(d);
	return q;
}

/* The line report makes line symbols only for the sampled functions:
 * samples in checksum alone look up the addresses of checksum's lines
 * (and the one line before them), not every line of the program as with
 * zero rows wanted; the rows with samples are the same. */
static size_t line_report(int zero, char **out)
{
	pc_profile *p;
	pc_dwarf *d;
	open_fixture(&p, &d);
	static const uint64_t at[3] = {0x1320, 0x1324, 0x1330};
	for (int i = 0; i < 30; i++)
		assert_int_equal(pc_profile_add_sample(p, PC_NOSEG, at[i % 3], 1), PC_OK);
	return render_lines(p, d, zero, out);
}

static void test_line_syms_sampled_only(void **state)
{
	(void)state;
	char *part = NULL, *all = NULL;
	size_t qpart = line_report(0, &part), qall = line_report(1, &all);
	/* the functions' addresses (add_functions) and checksum's lines,
	 * against every candidate address of .text (the line symbols' walk
	 * reads each candidate without the cache; a function's address
	 * where a line symbol starts is not read again: checksum's, and
	 * with every line symbol made 3 functions' in all) */
	assert_int_equal(qpart, 30);
	assert_int_equal(qall, 91);
	static const char rows[] =
		"rank,symbol,count,percent,cum_percent,self_seconds,calls,self_calls,address\n"
		"1,checksum (lines_util.c:11 @ 1320),20,66.6667,66.6667,,0,0,0x1320\n"
		"2,checksum (lines_util.c:12 @ 1330),10,33.3333,100.0000,,0,0,0x1330\n";
	assert_memory_equal(part, rows, sizeof rows - 1);
	assert_memory_equal(all, rows, sizeof rows - 1);
	assert_string_equal(part + sizeof rows - 1,
		",[total],30,100.0000,,,,,\n"
		",[in program],30,100.0000,,,,,\n"
		",[unattributed],0,0.0000,,,,,\n"
		",[outside],0,0.0000,,,,,\n");
	/* with zero rows: every line symbol of the program */
	assert_non_null(strstr(all, "\n44,main (lines_main.c:36 @ 10bd),0,"));
	pc_free(part);
	pc_free(all);
}

/* The same with a histogram over [0x1000, 0x1400) of nbins buckets,
 * those holding 0x1104, 0x1113 and the last bytes of main (0x11ce) and
 * of checksum (0x136e) sampled: the rows of the sampled functions' lines
 * alone (sampled_ranges takes the buckets' edges as the attribution
 * does) equal those of every line. */
static void hist_report(int zero, size_t nbins, char **out)
{
	pc_profile *p;
	pc_dwarf *d;
	open_fixture(&p, &d);
	uint64_t *c = calloc(nbins, sizeof *c);
	assert_non_null(c);
	static const uint64_t at[4] = {0x1104, 0x1113, 0x11ce, 0x136e};
	for (size_t k = 0; k < 4; k++)
		c[(at[k] - 0x1000) * nbins / 0x400] = 2 * k + 1;
	pc_histogram h = {PC_NOSEG, 0x1000, 0x1400, nbins, c, 1};
	assert_int_equal(pc_profile_add_histogram(p, &h), PC_OK);
	free(c);
	render_lines(p, d, zero, out);
}

/* text without its ranked rows (not the totals, whose first field is
 * empty) whose third field (the count) is 0 */
static void drop_zero_rows(char *text)
{
	char *w = text;
	for (char *r = text; *r;) {
		char *e = strchr(r, '\n');
		size_t n = e ? (size_t)(e - r) + 1 : strlen(r);
		const char *f = r;
		for (int k = 0; k < 2 && f; k++) {
			f = memchr(f, ',', (size_t)(r + n - f));
			f = f ? f + 1 : NULL;
		}
		if (r[0] == ',' || !(f && f[0] == '0' && f[1] == ','))
			memmove(w, r, n), w += n;
		r += n;
	}
	*w = 0;
}

static void test_line_syms_hist_sampled_only(void **state)
{
	(void)state;
	/* buckets of 2 bytes (a whole width) and of 1024/410 bytes */
	static const size_t nb[2] = {512, 410};
	for (int i = 0; i < 2; i++) {
		char *part = NULL, *all = NULL;
		hist_report(0, nb[i], &part);
		hist_report(1, nb[i], &all);
		drop_zero_rows(all);
		assert_string_equal(part, all);
		static const char *const top[2] = {
			"rank,symbol,count,percent,cum_percent,self_seconds,calls,self_calls,address\n"
			"1,checksum (lines_util.c:18 @ 1365),7,43.7500,43.7500,,0,0,0x1365\n"
			"2,main (lines_main.c:36 @ 11c3),5,31.2500,75.0000,,0,0,0x11c3\n",
			"rank,symbol,count,percent,cum_percent,self_seconds,calls,self_calls,address\n"
			"1,checksum (lines_util.c:18 @ 1365),8.408203,52.5513,52.5513,,0,0,0x1365\n"
			"2,main (lines_main.c:36 @ 11c3),6.005859,37.5366,90.0879,,0,0,0x11c3\n"};
		assert_memory_equal(part, top[i], strlen(top[i]));
		pc_free(part);
		pc_free(all);
	}
}

/* A profile that reads its own DWARF (the program loaded as its symbols):
 * the line report closes the DWARF it opened once the granular profile
 * is made (render.c), and a report after it opens it again and reads the
 * same as on a profile that never made a line report. */
static void own_profile(pc_profile **p)
{
	assert_int_equal(pc_profile_new(p, NULL), PC_OK);
	assert_int_equal(pc_profile_load_file(*p, exe, "elf", NULL), PC_OK);
	static const uint64_t at[3] = {0x10ed, 0x1135, 0x1145};
	for (int i = 0; i < 30; i++)
		assert_int_equal(pc_profile_add_sample(*p, PC_NOSEG, at[i % 3], 1), PC_OK);
}

static void test_line_report_then_locations(void **state)
{
	(void)state;
	pc_profile *p, *fresh;
	own_profile(&p);
	own_profile(&fresh);
	pc_options *o;
	assert_int_equal(pc_options_new(&o), PC_OK);
	assert_int_equal(pc_options_set(o, "granularity", "line"), PC_OK);
	char *lines = NULL, *again = NULL, *loc = NULL, *want = NULL;
	size_t len;
	for (int r = 0; r < 2; r++) /* (twice: opened again for the second) */
		assert_int_equal(pc_profile_render(r ? &again : &lines, &len, p, "flat", o),
				 PC_OK);
	assert_string_equal(lines, again);
	assert_non_null(strstr(lines,
		"   1  fill (lines_main.c:14 @ 10e8)        10    33.33    33.33  ####################\n"
		"   2  mix (lines_util.h:9 @ 1132)          10    33.33    66.67  ####################\n"
		"   3  scan (lines_main.c:22 @ 1144)        10    33.33   100.00  ####################\n"));
	assert_int_equal(pc_profile_render(&loc, &len, p, "locations", NULL), PC_OK);
	assert_int_equal(pc_profile_render(&want, &len, fresh, "locations", NULL), PC_OK);
	assert_string_equal(loc, want);
	assert_string_equal(loc,
		"address           count  function at file:line:column (inline chain, innermost first)\n"
		"0x10ed               10  fill at /profcore-src/lines_main.c:14:15\n"
		"                         inlined in main at /profcore-src/lines_main.c:38:3\n"
		"0x1135               10  mix at /profcore-src/lines_util.h:9:4\n"
		"                         inlined in scan at /profcore-src/lines_main.c:23:7\n"
		"                         inlined in main at /profcore-src/lines_main.c:40:12\n"
		"0x1145               10  scan at /profcore-src/lines_main.c:22:36\n"
		"                         inlined in main at /profcore-src/lines_main.c:40:12\n");
	pc_free(lines);
	pc_free(again);
	pc_free(loc);
	pc_free(want);
	pc_options_free(o);
	pc_profile_free(p);
	pc_profile_free(fresh);
}

static void test_find_source(void **state)
{
	(void)state;
	pc_dwarf_options o = PC_DWARF_OPTIONS_INIT;
	char sp[8192];
	snprintf(sp, sizeof sp, "/nonexistent:%s", programs);
	o.source_path = sp;
	pc_dwarf *d;
	pc_dwarf_new(&d, &o);
	char *path = NULL;
	assert_int_equal(pc_dwarf_find_source(&path, d, "/profcore-src/lines_util.h"),
			 PC_OK);
	char want[8192];
	snprintf(want, sizeof want, "%s/lines_util.h", programs);
	assert_string_equal(path, want);
	pc_free(path);
	assert_int_equal(pc_dwarf_find_source(&path, d, "/profcore-src/nothere.c"),
			 PC_ENOTFOUND);
	assert_null(path);
	pc_dwarf_free(d);
}

static void test_errors(void **state)
{
	(void)state;
	pc_dwarf *d;
	pc_dwarf_new(&d, NULL);
	assert_int_equal(pc_dwarf_load(d, "/nonexistent/prog"), PC_EIO);
	const pc_error *e = pc_dwarf_error(d);
	assert_non_null(e);
	assert_string_equal(e->file, "/nonexistent/prog");
	assert_string_equal(e->message, "cannot open the program to read its DWARF");
	pc_dwarf_free(d);
	/* a lookup before a load */
	pc_dwarf_new(&d, NULL);
	pc_srcframe f[8];
	size_t n;
	assert_int_equal(lookup(d, 0x1135, f, &n), PC_EUSAGE);
	pc_dwarf_free(d);
}

/* A file libdw refuses (an ELF header cut at 47 of its 52 bytes) leaves
 * no descriptor open: libdwfl takes the one it is given only when it
 * reports the module (1,000 loads leaked 1,000 before). */
static void test_refused_closes(void **state)
{
	(void)state;
	char path[] = "/tmp/pc-test-dwarf-XXXXXX";
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	static const unsigned char cut[47] = {0x7f, 'E', 'L', 'F', 1, 1, 1, 0, [16] = 2, 0, 40, 0, 1};
	assert_int_equal(write(fd, cut, sizeof cut), (int)sizeof cut);
	close(fd);
	int before = open(path, O_RDONLY);
	assert_true(before >= 0);
	close(before);
	for (int i = 0; i < 1000; i++) {
		pc_dwarf *d;
		assert_int_equal(pc_dwarf_new(&d, NULL), PC_OK);
		assert_int_equal(pc_dwarf_load(d, path), PC_EFORMAT);
		if (i == 0)
			assert_string_equal(pc_dwarf_error(d)->message,
					    "not an ELF file libdw can read: invalid ELF file data");
		pc_dwarf_free(d);
	}
	int after = open(path, O_RDONLY);
	assert_int_equal(after, before);
	close(after);
	unlink(path);
}

int main(void)
{
	const char *root = getenv("PC_SOURCE_ROOT");
	if (!root)
		return 77;
	snprintf(exe, sizeof exe, "%s/tests/source/fixtures/lines-O2", root);
	snprintf(programs, sizeof programs, "%s/tests/source/programs", root);
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_chain),
		cmocka_unit_test(test_once_per_address),
		cmocka_unit_test(test_line_syms_sampled_only),
		cmocka_unit_test(test_line_syms_hist_sampled_only),
		cmocka_unit_test(test_line_report_then_locations),
		cmocka_unit_test(test_find_source),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_refused_closes),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
