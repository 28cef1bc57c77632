/* MS-DOS PROFIL .PRF loader on the synthetic files of gen_fixtures.py
 * (whose comments derive every expected number below). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "profcore.h"

#include "../common/pc_test.h"

static char *fixture(const char *rel)
{
	const char *root = getenv("PC_SOURCE_ROOT");
	assert_non_null(root);
	size_t n = strlen(root) + strlen(rel) + 32;
	char *s = malloc(n);
	snprintf(s, n, "%s/tests/dos/fixtures/%s", root, rel);
	return s;
}

static int load_into(pc_profile *p, const char *rel, const char *format,
		     const char *opt)
{
	pc_options *o;
	assert_int_equal(pc_options_new(&o), PC_OK);
	if (opt)
		assert_int_equal(pc_options_parse(o, opt), PC_OK);
	char *path = fixture(rel);
	int r = pc_profile_load_file(p, path, format, o);
	free(path);
	pc_options_free(o);
	return r;
}

static double count_of(pc_profile *p, const char *name)
{
	pc_row r;
	for (size_t i = 0; i < test_rows(p); i++) {
		assert_int_equal(pc_profile_row_at(&r, p, i), PC_OK);
		if (strcmp(r.name, name) == 0)
			return r.count;
	}
	fail_msg("no row %s", name);
	return -1;
}

static void demo_exe(void **state)
{
	(void)state;
	pc_profile *p;
	pc_profile_new(&p, NULL);
	assert_int_equal(load_into(p, "prf/DEMO.PRF", NULL, NULL), PC_OK);
	assert_string_equal(pc_profile_source_format(p, 0), "prf");
	assert_int_equal(pc_profile_histogram_count(p), 1);
	pc_histogram h;
	pc_profile_histogram_at(&h, p, 0);
	assert_int_equal(h.segment, PC_NOSEG);
	assert_int_equal(h.low, 0);
	assert_int_equal(h.high, 25 * 64);
	assert_int_equal(h.nbins, 25);
	assert_int_equal(h.unit, 1);
	static const uint64_t want[25] = {20, 0, 0, 6, 50, 0, 30, 8, 0, 2, 1};
	for (size_t i = 0; i < 25; i++)
		assert_int_equal(h.counts[i], want[i]);
	assert_int_equal(pc_profile_class_samples(p, PC_REGION_IO), 7);
	assert_int_equal(pc_profile_class_samples(p, PC_REGION_DOS), 3);
	assert_int_equal(pc_profile_class_samples(p, PC_REGION_HIGH), 1);
	assert_true(pc_profile_rate(p) == 1000.0);
	assert_int_equal(pc_profile_target_width(p), 2);
	/* the program area: 0x60 paragraphs from image address 0 */
	assert_int_equal(pc_profile_region_count(p), 1);
	pc_region r;
	pc_profile_region_at(&r, p, 0);
	assert_int_equal(r.low, 0);
	assert_int_equal(r.high, 0x600);
	assert_int_equal(r.cls, PC_REGION_APPLICATION);
	assert_string_equal(r.label, "program");

	/* without symbols every bucket is program time credited to nobody */
	pc_totals t;
	assert_int_equal(pc_profile_totals(&t, p), PC_OK);
	assert_true(t.total == 128);
	assert_true(t.in_program == 117);
	assert_true(test_class(p, PC_REGION_APPLICATION) == 117);
	assert_true(t.outside == 11);

	/* with DEMO.MAP: gprof-style proportional split of bucket 7 */
	assert_int_equal(load_into(p, "prf/DEMO.MAP", NULL, NULL), PC_OK);
	assert_int_equal(test_rows(p), 3); /* _table is data */
	assert_true(count_of(p, "_main") == 26);
	assert_true(count_of(p, "_work") == 50 + 30 + 2);
	assert_true(count_of(p, "_idle") == 6 + 2);
	assert_int_equal(pc_profile_totals(&t, p), PC_OK);
	assert_true(t.total == 128);
	assert_true(t.attributed == 116);
	assert_true(t.in_program == 117);
	assert_true(test_class(p, PC_REGION_APPLICATION) == 1); /* bucket 10 */
	assert_true(test_class(p, PC_REGION_IO) == 7);
	assert_true(test_class(p, PC_REGION_DOS) == 3);
	assert_true(test_class(p, PC_REGION_HIGH) == 1);

	/* PROFIL/PROHST: a bucket goes where it starts */
	pc_attrib_options o = PC_ATTRIB_OPTIONS_INIT;
	o.rule = PC_ATTRIBUTION_BUCKET_START;
	assert_int_equal(pc_profile_attribute(p, &o), PC_OK);
	assert_true(count_of(p, "_main") == 26);
	assert_true(count_of(p, "_work") == 50 + 30 + 8);
	assert_true(count_of(p, "_idle") == 2);
	pc_profile_free(p);
}

static void primes_com(void **state)
{
	(void)state;
	pc_profile *p;
	pc_profile_new(&p, NULL);
	assert_int_equal(load_into(p, "dosmap/mslink_basicdos_PRIMES.MAP", NULL, NULL), PC_OK);
	assert_int_equal(load_into(p, "prf/PRIMES.PRF", NULL, "com"), PC_OK);
	pc_histogram h;
	pc_profile_histogram_at(&h, p, 0);
	assert_int_equal(h.low, 0x100);
	assert_int_equal(h.high, 0x100 + 12 * 16);
	assert_true(pc_profile_rate(p) == 2000.0);
	/* bucket 7 [0x170, 0x180): 7 bytes of MAIN, 9 of CTRLC, 16 hits */
	assert_true(count_of(p, "MAIN") == 10 + 25 + 40 + 5 + 7);
	assert_true(count_of(p, "CTRLC") == 9 + 3);
	pc_totals t;
	pc_profile_totals(&t, p);
	assert_true(t.total == 117);
	assert_true(t.outside == 18);
	pc_profile_free(p);

	/* read as an .EXE the same buckets start at 0 and miss CTRLC */
	pc_profile_new(&p, NULL);
	assert_int_equal(load_into(p, "dosmap/mslink_basicdos_PRIMES.MAP", NULL, NULL), PC_OK);
	assert_int_equal(load_into(p, "prf/PRIMES.PRF", NULL, NULL), PC_OK);
	pc_profile_histogram_at(&h, p, 0);
	assert_int_equal(h.low, 0);
	assert_true(count_of(p, "CTRLC") == 0);
	pc_profile_free(p);

	/* origin=ADDR places bucket 0 anywhere */
	pc_profile_new(&p, NULL);
	assert_int_equal(load_into(p, "prf/PRIMES.PRF", NULL, "origin=0x12340"), PC_OK);
	pc_profile_histogram_at(&h, p, 0);
	assert_int_equal(h.low, 0x12340);
	pc_profile_free(p);
}

static void wrapped_counters(void **state)
{
	(void)state;
	pc_profile *p;
	pc_profile_new(&p, NULL);
	assert_int_equal(load_into(p, "prf/WRAP.PRF", NULL, NULL), PC_OK);
	pc_histogram h;
	pc_profile_histogram_at(&h, p, 0);
	/* 70000 samples in bucket 4 and 65539 in DOS were kept mod 65536 */
	assert_int_equal(h.counts[4], 4464);
	assert_int_equal(pc_profile_class_samples(p, PC_REGION_DOS), 3);
	pc_profile_free(p);
}

static void gzip_same(void **state)
{
	(void)state;
	pc_profile *p;
	pc_profile_new(&p, NULL);
	assert_int_equal(load_into(p, "prf/DEMO.PRF.gz", NULL, NULL), PC_OK);
	pc_histogram h;
	pc_profile_histogram_at(&h, p, 0);
	assert_int_equal(h.nbins, 25);
	assert_int_equal(h.counts[4], 50);
	pc_profile_free(p);
}

static void expect_error(const char *rel, const char *format, int code,
			 int64_t offset, const char *msg)
{
	pc_profile *p;
	pc_profile_new(&p, NULL);
	assert_int_equal(load_into(p, rel, format, NULL), code);
	const pc_error *e = pc_profile_error(p);
	assert_int_equal(e->offset, offset);
	if (msg)
		assert_string_equal(e->message, msg);
	char *path = fixture(rel);
	assert_string_equal(e->file, path);
	free(path);
	assert_int_equal(pc_profile_histogram_count(p), 0);
	pc_profile_free(p);
}

static void errors(void **state)
{
	(void)state;
	/* a consistent header is detected even when the file is cut short */
	expect_error("prf/TRUNC.PRF", NULL, PC_ETRUNC, 30,
		     "file ends after 30 bytes; 25 buckets need 68");
	expect_error("prf/TRAILING.PRF", NULL, PC_EFORMAT, 68,
		     "2 unexpected bytes after the 25 buckets");
	expect_error("prf/TRAILING.PRF.gz", "prf", PC_EFORMAT, 68,
		     "unexpected bytes after the 25 buckets");
	/* inconsistent headers are not PROFIL files unless forced */
	expect_error("prf/BADCOUNT.PRF", NULL, PC_EUNKNOWN, 0, NULL);
	expect_error("prf/BADCOUNT.PRF", "prf", PC_EFORMAT, 2,
		     "bucket count 24 does not match the sampled range: paragraphs 0x0a50-0x0ab0 in 4-paragraph buckets need 25");
	expect_error("prf/BADORDER.PRF", "prf", PC_EFORMAT, 10,
		     "DOS boundary paragraph 0x0b00 is not below the program's first paragraph 0x0a50");
}

static void header_checks(void **state)
{
	(void)state;
	unsigned char b[18 + 4] = {0};
	/* grain 60, 2 buckets of 1 paragraph over [0x100, 0x101), DOS 0x80 */
	const unsigned w[9] = {60, 2, 1, 0x100, 0x101, 0x80, 0, 0, 0};
	for (int i = 0; i < 9; i++) {
		b[2 * i] = (unsigned char)(w[i] & 0xff);
		b[2 * i + 1] = (unsigned char)(w[i] >> 8);
	}
	pc_profile *p;
	pc_profile_new(&p, NULL);
	assert_int_equal(pc_profile_load_memory(p, b, sizeof b, "ok.prf", NULL, NULL), PC_OK);
	pc_profile_free(p);

	struct {
		int word;
		unsigned value;
		int64_t offset;
		const char *msg;
	} bad[] = {
		{0, 59, 0, "clock grain of 59 microseconds is below PROFIL's minimum of 60"},
		{2, 0, 4, "bucket size of 0 paragraphs; expected at least 1"},
		{4, 0x100, 8, "program high paragraph 0x0100 is not above the low paragraph 0x0100"},
		{5, 0x100, 10, "DOS boundary paragraph 0x0100 is not below the program's first paragraph 0x0100"},
	};
	for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
		unsigned char c[sizeof b];
		memcpy(c, b, sizeof b);
		c[2 * bad[k].word] = (unsigned char)(bad[k].value & 0xff);
		c[2 * bad[k].word + 1] = (unsigned char)(bad[k].value >> 8);
		pc_profile_new(&p, NULL);
		assert_int_equal(pc_profile_load_memory(p, c, sizeof c, "bad.prf", "prf", NULL),
				 PC_EFORMAT);
		assert_int_equal(pc_profile_error(p)->offset, bad[k].offset);
		assert_string_equal(pc_profile_error(p)->message, bad[k].msg);
		pc_profile_free(p);
	}
	/* shorter than the header */
	pc_profile_new(&p, NULL);
	assert_int_equal(pc_profile_load_memory(p, b, 10, "short.prf", "prf", NULL), PC_ETRUNC);
	pc_profile_free(p);
	/* a bad option value */
	pc_options *o;
	assert_int_equal(pc_options_new(&o), PC_OK);
	pc_options_set(o, "com", "2");
	pc_profile_new(&p, NULL);
	assert_int_equal(pc_profile_load_memory(p, b, sizeof b, "ok.prf", NULL, o), PC_EUSAGE);
	assert_string_equal(pc_profile_error(p)->message,
			    "bad value '2' for option 'com' of loader prf; expected one of: 0, 1");
	pc_profile_free(p);
	pc_options_free(o);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(demo_exe),
		cmocka_unit_test(primes_com),
		cmocka_unit_test(wrapped_counters),
		cmocka_unit_test(gzip_same),
		cmocka_unit_test(errors),
		cmocka_unit_test(header_checks),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
