/* pc_stream_set_progress: the calls are exact, by bytes, whatever the
 * source (memory, a pipe of a known size, a mapped regular file) and
 * however the reader takes the bytes. */
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

#ifndef _WIN32
#include <sys/wait.h>
#include <unistd.h>
#endif

#define MAXCALLS 64

typedef struct calls {
	size_t n;
	uint64_t bytes[MAXCALLS];
	int64_t total[MAXCALLS];
	int done[MAXCALLS];
} calls;

static void record(void *user, uint64_t bytes, int64_t total, int done)
{
	calls *c = user;
	if (c->n < MAXCALLS) {
		c->bytes[c->n] = bytes;
		c->total[c->n] = total;
		c->done[c->n] = done;
	}
	c->n++;
}

/* every multiple of every up to size, then the end with size */
static void expect_calls(const calls *c, uint64_t every, uint64_t size, int64_t total)
{
	size_t k = (size_t)(size / every);
	assert_int_equal(c->n, k + 1);
	for (size_t i = 0; i < k; i++) {
		assert_int_equal(c->bytes[i], (i + 1) * every);
		assert_int_equal(c->total[i], total);
		assert_int_equal(c->done[i], 0);
	}
	assert_int_equal(c->bytes[k], size);
	assert_int_equal(c->total[k], total);
	assert_int_equal(c->done[k], 1);
}

static void memory_read_in_odd_pieces(void **state)
{
	(void)state;
	static unsigned char buf[10007];
	for (size_t i = 0; i < sizeof buf; i++)
		buf[i] = (unsigned char)(i * 7);
	pc_stream *s;
	assert_int_equal(pc_stream_open_memory(&s, buf, sizeof buf, "mem"), PC_OK);
	calls c = {0};
	assert_int_equal(pc_stream_set_progress(s, 1000, record, &c), PC_OK);
	/* what was read at open is reported at once, the end when the
	 * reader reaches it */
	assert_true(c.n >= 4 && c.n <= 10);
	assert_int_equal(c.done[c.n - 1], 0);
	unsigned char tmp[333];
	size_t got, sum = 0;
	do {
		assert_int_equal(pc_stream_read_some(tmp, sizeof tmp, &got, s),
				 PC_OK);
		assert_memory_equal(tmp, buf + sum, got);
		sum += got;
	} while (got);
	assert_int_equal(sum, sizeof buf);
	expect_calls(&c, 1000, sizeof buf, (int64_t)sizeof buf);
	pc_stream_free(s);
}

static void usage_errors(void **state)
{
	(void)state;
	pc_stream *s;
	assert_int_equal(pc_stream_open_memory(&s, "x", 1, "mem"), PC_OK);
	calls c = {0};
	assert_int_equal(pc_stream_set_progress(NULL, 1, record, &c), PC_EUSAGE);
	assert_int_equal(pc_stream_set_progress(s, 0, record, &c), PC_EUSAGE);
	assert_int_equal(pc_stream_set_progress(s, 0, NULL, NULL), PC_OK);
	assert_int_equal(c.n, 0);
	/* an empty input: only the end, at once */
	pc_stream *e;
	assert_int_equal(pc_stream_open_memory(&e, "", 0, "empty"), PC_OK);
	assert_int_equal(pc_stream_set_progress(e, 10, record, &c), PC_OK);
	assert_int_equal(c.n, 1);
	assert_int_equal(c.bytes[0], 0);
	assert_int_equal(c.done[0], 1);
	pc_stream_free(e);
	pc_stream_free(s);
}

/* 3 MiB + 8 bytes of 32-bit little-endian PCs read by the raw loader */
#define DUMP ((size_t)3 * 1048576 + 8)
#define MIB ((uint64_t)1048576)

static unsigned char *dump(void)
{
	unsigned char *d = malloc(DUMP);
	assert_non_null(d);
	for (size_t i = 0; i < DUMP; i += 4) {
		uint32_t pc = 0x1000 + (uint32_t)(i / 4 % 64) * 2;
		d[i] = (unsigned char)pc;
		d[i + 1] = (unsigned char)(pc >> 8);
		d[i + 2] = d[i + 3] = 0;
	}
	return d;
}

static void load_raw(pc_stream *s, calls *c)
{
	pc_profile *p;
	assert_int_equal(pc_profile_new(&p, NULL), PC_OK);
	pc_options *o;
	assert_int_equal(pc_options_new(&o), PC_OK);
	assert_int_equal(pc_options_set(o, "width", "4"), PC_OK);
	assert_int_equal(pc_options_set(o, "endian", "little"), PC_OK);
	assert_int_equal(pc_stream_set_progress(s, MIB, record, c), PC_OK);
	assert_int_equal(pc_profile_load_stream(p, s, "raw", o), PC_OK);
	pc_options_free(o);
	pc_profile_free(p);
}

static void regular_file_mapped(void **state)
{
	(void)state;
	unsigned char *d = dump();
	const char *path = "test_progress.tmp.pcs";
	FILE *f = fopen(path, "wb");
	assert_non_null(f);
	assert_int_equal(fwrite(d, 1, DUMP, f), DUMP);
	assert_int_equal(fclose(f), 0);
	pc_stream *s;
	assert_int_equal(pc_stream_open_file(&s, path), PC_OK);
	calls c = {0};
	load_raw(s, &c);
	expect_calls(&c, MIB, DUMP, (int64_t)DUMP);
	pc_stream_free(s);
	remove(path);
	free(d);
}

static void pipe_of_known_size(void **state)
{
	(void)state;
#ifdef _WIN32
	skip(); /* fork and /dev/fd: POSIX */
#else
	unsigned char *d = dump();
	int fds[2];
	assert_int_equal(pipe(fds), 0);
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		/* uneven writes: the calls must not depend on them */
		close(fds[0]);
		size_t at = 0, k = 1;
		while (at < DUMP) {
			size_t n = DUMP - at < k ? DUMP - at : k;
			ssize_t w = write(fds[1], d + at, n);
			if (w <= 0)
				_exit(1);
			at += (size_t)w;
			k = k * 3 % 100003 + 1;
		}
		_exit(0);
	}
	close(fds[1]);
	char path[64];
	snprintf(path, sizeof path, "/dev/fd/%d", fds[0]);
	pc_stream *s;
	assert_int_equal(pc_stream_open_file(&s, path), PC_OK);
	calls c = {0};
	load_raw(s, &c);
	expect_calls(&c, MIB, DUMP, -1);
	pc_stream_free(s);
	close(fds[0]);
	int status = 0;
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	free(d);
#endif
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(memory_read_in_odd_pieces),
		cmocka_unit_test(usage_errors),
		cmocka_unit_test(regular_file_mapped),
		cmocka_unit_test(pipe_of_known_size),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
