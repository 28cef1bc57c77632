/* test_sink.c - the one rule for showing names (libprofcore/sink.c):
 * pc_name_escape (public), and the text, CSV, JSON and HTML sinks built
 * on it, byte for byte. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "internal.h"
#include "profcore.h"

static const char *NAME = "a\x1b[1m\x07\xfe\xc3\xa9\xc2\x9b\xed\xa0\x80\xf4\x90\x80\x80"
			  "\xe2\x82\xac\"<&>',\\z";
static const char *SHOWN = "a\\x1b[1m\\x07\\xfe\xc3\xa9\\xc2\\x9b\\xed\\xa0\\x80"
			   "\\xf4\\x90\\x80\\x80\xe2\x82\xac\"<&>',\\z";

static void test_escape(void **state)
{
	(void)state;
	char buf[256];
	size_t n = pc_name_escape(buf, sizeof buf, NAME);
	assert_string_equal(buf, SHOWN);
	assert_int_equal(n, strlen(SHOWN));
	assert_int_equal(pc_name_escape(NULL, 0, NAME), strlen(SHOWN));
	/* cut at a whole escape: "a" then "\x1b" does not fit in 4 bytes */
	assert_int_equal(pc_name_escape(buf, 4, NAME), strlen(SHOWN));
	assert_string_equal(buf, "a");
	assert_int_equal(pc_name_escape(buf, 6, NAME), strlen(SHOWN));
	assert_string_equal(buf, "a\\x1b");
	assert_int_equal(pc_name_escape(buf, sizeof buf, NULL), 0);
	assert_string_equal(buf, "");
	/* width: escapes count 4 columns, a UTF-8 character 1 */
	assert_int_equal(pc_name_width("caf\xc3\xa9\x1b"), 8);
}

static void sink(void (*put)(pc_sink *, const char *), const char *want)
{
	pc_sink k;
	pc_sink_init(&k);
	put(&k, NAME);
	assert_int_equal(k.failed, 0);
	assert_string_equal(k.buf, want);
	pc_sink_dispose(&k);
}

static void put_text(pc_sink *k, const char *s) { pc_sink_name(k, s); }
static void put_csv(pc_sink *k, const char *s) { pc_sink_csv_field(k, s); }
static void put_json(pc_sink *k, const char *s) { pc_sink_json_string(k, s); }
static void put_html(pc_sink *k, const char *s) { pc_sink_html(k, s); }

static void test_sinks(void **state)
{
	(void)state;
	sink(put_text, SHOWN);
	sink(put_csv, "\"a\\x1b[1m\\x07\\xfe\xc3\xa9\\xc2\\x9b\\xed\\xa0\\x80\\xf4\\x90\\x80\\x80"
		      "\xe2\x82\xac\"\"<&>',\\z\"");
	sink(put_json, "\"a\\\\x1b[1m\\\\x07\\\\xfe\xc3\xa9\\\\xc2\\\\x9b\\\\xed\\\\xa0\\\\x80"
		       "\\\\xf4\\\\x90\\\\x80\\\\x80\xe2\x82\xac\\\"<&>',\\\\z\"");
	sink(put_html, "a\\x1b[1m\\x07\\xfe\xc3\xa9\\xc2\\x9b\\xed\\xa0\\x80\\xf4\\x90\\x80\\x80"
		       "\xe2\x82\xac&quot;&lt;&amp;&gt;&#39;,\\z");
}

/* pc_name_plain, 8 bytes at a time, against the bytes one by one: each
 * byte value at each place of names of 0 to 20 bytes */
static void test_plain(void **state)
{
	(void)state;
	char s[24];
	for (size_t n = 0; n <= 20; n++)
		for (size_t at = 0; at < (n ? n : 1); at++)
			for (unsigned v = 0; v < 256; v++) {
				memset(s, 'a', sizeof s);
				if (n)
					s[at] = (char)v;
				int want = !n || (v >= 0x20 && v < 0x7f);
				assert_int_equal(pc_name_plain(s, n), want);
			}
	assert_int_equal(pc_name_plain("f (a.c:12 @ 401136)", 19), 1);
	assert_int_equal(pc_name_plain("f (a.c:12 @ 401136)\x7f", 20), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_escape),
		cmocka_unit_test(test_sinks),
		cmocka_unit_test(test_plain),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
