/* Streams: memory, files, gzip by magic, bounded reads, lines, errors. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <zlib.h>

#include "profcore.h"
#include "profcore_plugin.h"

static size_t gzip_bytes(const void *in, size_t n, unsigned char *out, size_t cap)
{
	z_stream z;
	memset(&z, 0, sizeof z);
	assert_int_equal(deflateInit2(&z, 9, Z_DEFLATED, 31, 8, Z_DEFAULT_STRATEGY), Z_OK);
	z.next_in = (unsigned char *)in;
	z.avail_in = (uInt)n;
	z.next_out = out;
	z.avail_out = (uInt)cap;
	assert_int_equal(deflate(&z, Z_FINISH), Z_STREAM_END);
	size_t len = cap - z.avail_out;
	deflateEnd(&z);
	return len;
}

static void memory_read_and_truncation(void **state)
{
	(void)state;
	static const unsigned char data[10] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10};
	pc_stream *s;
	assert_int_equal(pc_stream_open_memory(&s, data, sizeof data, "m.bin"), PC_OK);
	assert_non_null(s);
	uint64_t size = 99;
	int known = -1;
	assert_int_equal(pc_stream_size(&size, &known, s), PC_OK);
	assert_int_equal(known, 1);
	assert_int_equal(size, 10);
	unsigned char b[8];
	assert_int_equal(pc_stream_read(b, 4, s, "header"), PC_OK);
	assert_int_equal(pc_get_u32(b, PC_ENDIAN_LITTLE), 0x04030201u);
	assert_int_equal(pc_get_u32(b, PC_ENDIAN_BIG), 0x01020304u);
	assert_int_equal(pc_stream_offset(s), 4);
	assert_int_equal(pc_stream_read(b, 8, s, "counter table"), PC_ETRUNC);
	const pc_error *e = pc_stream_error(s);
	assert_non_null(e);
	assert_string_equal(e->file, "m.bin");
	assert_int_equal(e->offset, 4);
	assert_string_equal(e->message, "file ends after 6 of 8 bytes of counter table");
	pc_stream_free(s);
}

static void gzip_detected_by_magic(void **state)
{
	(void)state;
	static const char text[] = "first line\nsecond\r\n\nlast without newline";
	unsigned char gz[256];
	size_t n = gzip_bytes(text, sizeof text - 1, gz, sizeof gz);
	pc_stream *s;
	assert_int_equal(pc_stream_open_memory(&s, gz, n, "t.txt.gz"), PC_OK);
	assert_non_null(s);
	assert_int_equal(pc_stream_is_compressed(s), 1);
	uint64_t size = 99;
	int known = -1;
	assert_int_equal(pc_stream_size(&size, &known, s), PC_OK);
	assert_int_equal(known, 0); /* gzip: not known without reading */
	assert_int_equal(size, 0);
	const unsigned char *h;
	size_t hl;
	pc_stream_peek(&h, &hl, s);
	assert_int_equal(hl, sizeof text - 1);
	assert_memory_equal(h, "first line", 10);
	const char *line;
	size_t len;
	uint64_t off;
	assert_int_equal(pc_stream_getline(&line, &len, &off, s), PC_OK);
	assert_non_null(line);
	assert_int_equal(len, 10);
	assert_int_equal(off, 0);
	assert_int_equal(pc_stream_getline(&line, &len, &off, s), PC_OK);
	assert_non_null(line);
	assert_int_equal(len, 6); /* CR stripped */
	assert_memory_equal(line, "second", 6);
	assert_int_equal(off, 11);
	assert_int_equal(pc_stream_getline(&line, &len, &off, s), PC_OK);
	assert_non_null(line);
	assert_int_equal(len, 0);
	assert_int_equal(pc_stream_getline(&line, &len, &off, s), PC_OK);
	assert_non_null(line);
	assert_int_equal(len, 20);
	assert_int_equal(pc_stream_lineno(s), 4);
	/* the end: PC_OK with no line */
	assert_int_equal(pc_stream_getline(&line, &len, &off, s), PC_OK);
	assert_null(line);
	assert_int_equal(len, 0);
	int at_end = 0;
	assert_int_equal(pc_stream_eof(&at_end, s), PC_OK);
	assert_int_equal(at_end, 1);
	pc_stream_free(s);
}

static void corrupt_gzip_is_an_error(void **state)
{
	(void)state;
	static const char text[] = "0123456789012345678901234567890123456789";
	unsigned char gz[256];
	size_t n = gzip_bytes(text, sizeof text - 1, gz, sizeof gz);
	/* cut the compressed stream short */
	pc_stream *s;
	assert_int_equal(pc_stream_open_memory(&s, gz, n - 12, "cut.gz"), PC_OK);
	assert_non_null(s);
	void *all;
	size_t len;
	int st = pc_stream_read_all(&all, &len, s, 1000);
	assert_int_equal(st, PC_ETRUNC);
	char want[100];
	snprintf(want, sizeof want,
		 "gzip data ends before the end of the compressed stream (after %zu compressed bytes)",
		 n - 12);
	assert_string_equal(pc_stream_error(s)->message, want);
	pc_stream_free(s);
}

static void read_all_respects_limit(void **state)
{
	(void)state;
	static const char data[100] = {0};
	pc_stream *s;
	assert_int_equal(pc_stream_open_memory(&s, data, sizeof data, "big"), PC_OK);
	void *all;
	size_t len;
	assert_int_equal(pc_stream_read_all(&all, &len, s, 50), PC_ELIMIT);
	assert_string_equal(pc_stream_error(s)->message,
			    "file is larger than the limit of 50 bytes");
	pc_stream_free(s);
	assert_int_equal(pc_stream_open_memory(&s, data, sizeof data, "big"), PC_OK);
	assert_int_equal(pc_stream_read_all(&all, &len, s, 100), PC_OK);
	assert_int_equal(len, 100);
	pc_free(all);
	pc_stream_free(s);
}

static void nul_in_text_line(void **state)
{
	(void)state;
	static const char data[] = "ok\nbad\0line\n";
	pc_stream *s;
	assert_int_equal(pc_stream_open_memory(&s, data, sizeof data - 1, "n.txt"), PC_OK);
	const char *line;
	size_t len;
	assert_int_equal(pc_stream_getline(&line, &len, NULL, s), PC_OK);
	assert_non_null(line);
	assert_int_equal(pc_stream_getline(&line, &len, NULL, s), PC_EFORMAT);
	assert_int_equal(pc_stream_error(s)->offset, 6);
	pc_stream_free(s);
}

static void file_stream(void **state)
{
	(void)state;
	char path[] = "/tmp/pc_stream_testXXXXXX";
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	FILE *f = fdopen(fd, "wb");
	for (int i = 0; i < 100000; i++)
		fputc(i & 0xff, f);
	fclose(f);
	pc_stream *s;
	assert_int_equal(pc_stream_open_file(&s, path), PC_OK);
	uint64_t size = 99;
	int known = -1;
	assert_int_equal(pc_stream_size(&size, &known, s), PC_OK);
	assert_int_equal(known, 1);
	assert_int_equal(size, 100000);
	unsigned char *b = malloc(100000);
	assert_int_equal(pc_stream_read(b, 70000, s, NULL), PC_OK); /* > buffer */
	assert_int_equal(b[69999], 69999 & 0xff);
	assert_int_equal(pc_stream_skip(s, 29999, "padding"), PC_OK);
	int at_end = 0;
	assert_int_equal(pc_stream_eof(&at_end, s), PC_OK);
	assert_int_equal(at_end, 0);
	assert_int_equal(pc_stream_read(b, 1, s, NULL), PC_OK);
	assert_int_equal(b[0], 99999 & 0xff);
	assert_int_equal(pc_stream_eof(&at_end, s), PC_OK);
	assert_int_equal(at_end, 1);
	free(b);
	pc_stream_free(s);
	remove(path);
	s = (pc_stream *)&at_end; /* overwritten with NULL on failure */
	assert_int_equal(pc_stream_open_file(&s, "/nonexistent/file"), PC_ENOTFOUND);
	assert_null(s);
	const pc_error *le = pc_last_error();
	assert_non_null(le);
	assert_int_equal(le->code, PC_ENOTFOUND);
	assert_string_equal(le->file, "/nonexistent/file");
	assert_string_equal(le->message, "no such file");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(memory_read_and_truncation),
		cmocka_unit_test(gzip_detected_by_magic),
		cmocka_unit_test(corrupt_gzip_is_an_error),
		cmocka_unit_test(read_all_respects_limit),
		cmocka_unit_test(nul_in_text_line),
		cmocka_unit_test(file_stream),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
