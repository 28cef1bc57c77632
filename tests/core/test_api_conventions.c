/* The API's conventions (issue #21, items 3, 4, 5, 7): constructors with
 * an out-parameter and pc_last_error(), setters that validate, getters
 * that return a status, no sentinel indexes, by-class totals through an
 * accessor, output structs filled up to the caller's size, sorted rows,
 * writer callbacks, the thread count as a setting. */
#include <math.h>
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

#if PC_TEST_WRAP_ALLOC
/* Linked with -Wl,--wrap=malloc,calloc,realloc: the library's
 * allocations fail while fail_alloc is set. */
static int fail_alloc;
void *__real_malloc(size_t n);
void *__real_calloc(size_t n, size_t m);
void *__real_realloc(void *p, size_t n);
void *__wrap_malloc(size_t n);
void *__wrap_calloc(size_t n, size_t m);
void *__wrap_realloc(void *p, size_t n);
void *__wrap_malloc(size_t n)
{
	return fail_alloc ? NULL : __real_malloc(n);
}
void *__wrap_calloc(size_t n, size_t m)
{
	return fail_alloc ? NULL : __real_calloc(n, m);
}
void *__wrap_realloc(void *p, size_t n)
{
	return fail_alloc ? NULL : __real_realloc(p, n);
}
#endif

static const char *msg(pc_profile *p)
{
	const pc_error *e = pc_profile_error(p);
	return e ? e->message : "(none)";
}

static void add_sym(pc_profile *p, const char *name, uint64_t addr,
		    uint64_t size)
{
	pc_symbol s = {name, NULL, NULL, PC_NOSEG, addr, size,
		       PC_SYM_TEXT, PC_BIND_GLOBAL, PC_SYMF_FUNC};
	assert_int_equal(pc_profile_add_symbol(p, &s), PC_OK);
}

/* Symbols a (0x100), b (0x200), c (0x300), d (0x400), e (0x500), each
 * 0x100 bytes, in the program's code [0x100, 0x600); a ROM region
 * [0x1000, 0x2000).  Samples: a 5, b 9, c 9, d 0, e 2; 3 in the ROM,
 * 4 at 0x9000 (in no region), 7 counted by class only (DOS), and 1 in
 * the code but in no symbol (0x5f0 after e's end with use-sizes). */
static pc_profile *five(void)
{
	pc_profile *p = NULL;
	assert_int_equal(pc_profile_new(&p, NULL), PC_OK);
	assert_non_null(p);
	add_sym(p, "a", 0x100, 0x100);
	add_sym(p, "b", 0x200, 0x100);
	add_sym(p, "c", 0x300, 0x100);
	add_sym(p, "d", 0x400, 0x100);
	add_sym(p, "e", 0x500, 0x80);
	pc_region code = {PC_NOSEG, 0x100, 0x600, PC_REGION_APPLICATION, "TEXT"};
	pc_region rom = {PC_NOSEG, 0x1000, 0x2000, PC_REGION_SYSTEM, "ROM"};
	assert_int_equal(pc_profile_add_region(p, &code), PC_OK);
	assert_int_equal(pc_profile_add_region(p, &rom), PC_OK);
	assert_int_equal(pc_profile_add_sample(p, PC_NOSEG, 0x110, 5), PC_OK);
	assert_int_equal(pc_profile_add_sample(p, PC_NOSEG, 0x2f0, 9), PC_OK);
	assert_int_equal(pc_profile_add_sample(p, PC_NOSEG, 0x300, 9), PC_OK);
	assert_int_equal(pc_profile_add_sample(p, PC_NOSEG, 0x504, 2), PC_OK);
	assert_int_equal(pc_profile_add_sample(p, PC_NOSEG, 0x5f0, 1), PC_OK);
	assert_int_equal(pc_profile_add_sample(p, PC_NOSEG, 0x1800, 3), PC_OK);
	assert_int_equal(pc_profile_add_sample(p, PC_NOSEG, 0x9000, 4), PC_OK);
	assert_int_equal(pc_profile_add_class_samples(p, PC_REGION_DOS, 7),
			 PC_OK);
	/* c is called more often than b: it sorts first among the 9s */
	pc_arc arc = {PC_NOSEG, 0x110, PC_NOSEG, 0x300, 4, 0, 0};
	assert_int_equal(pc_profile_add_arc(p, &arc), PC_OK);
	pc_attrib_options o = PC_ATTRIB_OPTIONS_INIT;
	o.use_sizes = 1;
	assert_int_equal(pc_profile_attribute(p, &o), PC_OK);
	return p;
}

static void constructors(void **state)
{
	(void)state;
	assert_int_equal(pc_profile_new(NULL, NULL), PC_EUSAGE);
	const pc_error *e = pc_last_error();
	assert_non_null(e);
	assert_int_equal(e->code, PC_EUSAGE);
	assert_null(e->file);
	assert_int_equal(e->offset, -1);
	assert_string_equal(e->message, "pc_profile_new: no place for the profile");
	pc_registry *r = (pc_registry *)&state; /* overwritten */
	assert_int_equal(pc_registry_new(&r), PC_OK);
	assert_non_null(r);
	pc_profile *p = NULL;
	assert_int_equal(pc_profile_new(&p, r), PC_OK);
	assert_non_null(p);
	pc_dwarf *d = NULL;
	assert_int_equal(pc_dwarf_new(&d, NULL), PC_OK);
	assert_non_null(d);
	pc_stream *s = (pc_stream *)&state;
	assert_int_equal(pc_stream_open_memory(&s, NULL, 4, "m"), PC_EUSAGE);
	assert_null(s);
	assert_string_equal(pc_last_error()->message,
			    "pc_stream_open_memory: no buffer given");
	assert_string_equal(pc_last_error()->file, "m");
	assert_int_equal(pc_stream_open_memory(&s, "", 0, "empty"), PC_OK);
	int at_end = 0;
	assert_int_equal(pc_stream_eof(&at_end, s), PC_OK);
	assert_int_equal(at_end, 1);
	const char *line = "x";
	size_t len = 9;
	assert_int_equal(pc_stream_getline(&line, &len, NULL, s), PC_OK);
	assert_null(line);
	assert_int_equal(len, 0);
	pc_stream_free(s);
	pc_dwarf_free(d);
	pc_profile_free(p);
	pc_registry_free(r);
}

static void setters_validate(void **state)
{
	(void)state;
	pc_profile *p;
	assert_int_equal(pc_profile_new(&p, NULL), PC_OK);
	assert_int_equal(pc_profile_set_rate(p, 100), PC_OK);
	assert_int_equal(pc_profile_set_rate(p, -5), PC_EUSAGE);
	assert_string_equal(msg(p), "sampling rate -5 Hz: expected a finite rate >= 0 (0 = unknown)");
	assert_true(pc_profile_rate(p) == 100); /* unchanged */
	assert_int_equal(pc_profile_set_rate(p, NAN), PC_EUSAGE);
	assert_int_equal(pc_profile_set_rate(p, INFINITY), PC_EUSAGE);
	assert_true(pc_profile_rate(p) == 100);
	assert_int_equal(pc_profile_set_rate(p, 0), PC_OK); /* unknown */
	assert_true(pc_profile_rate(p) == 0);

	assert_true(pc_profile_duration(p) == -1);
	assert_int_equal(pc_profile_set_duration(p, 2.5), PC_OK);
	assert_int_equal(pc_profile_set_duration(p, -2), PC_EUSAGE);
	assert_string_equal(msg(p), "duration -2 s: expected a finite duration >= 0, or -1 for unknown");
	assert_true(pc_profile_duration(p) == 2.5);
	assert_int_equal(pc_profile_set_duration(p, -1), PC_OK);
	assert_true(pc_profile_duration(p) == -1);

	assert_int_equal(pc_profile_set_target(p, 4, PC_ENDIAN_BIG), PC_OK);
	assert_int_equal(pc_profile_set_target(p, 3, PC_ENDIAN_LITTLE), PC_EUSAGE);
	assert_string_equal(msg(p), "address width 3: expected 0 (unknown), 1, 2, 4 or 8 bytes");
	assert_int_equal(pc_profile_set_target(p, 8, (pc_endian)7), PC_EUSAGE);
	assert_string_equal(msg(p), "byte order 7: expected PC_ENDIAN_UNKNOWN, _LITTLE or _BIG");
	assert_int_equal(pc_profile_target_width(p), 4);
	assert_int_equal(pc_profile_target_endian(p), PC_ENDIAN_BIG);

	assert_int_equal(pc_profile_event_counts(p), 0);
	assert_int_equal(pc_profile_set_event_counts(p, 2), PC_EUSAGE);
	assert_string_equal(msg(p), "event counts flag 2: expected 0 or 1");
	assert_int_equal(pc_profile_event_counts(p), 0);
	assert_int_equal(pc_profile_set_event_counts(p, 1), PC_OK);
	assert_int_equal(pc_profile_event_counts(p), 1);

	assert_int_equal(pc_profile_set_threads(p, PC_MAX_THREADS + 1), PC_EUSAGE);
	assert_string_equal(msg(p), "9 threads: expected 0 (one per core) to 8");
	assert_int_equal(pc_profile_set_threads(p, 3), PC_OK);
	assert_int_equal(pc_profile_threads(p), 3);
	assert_int_equal(pc_profile_set_threads(p, 0), PC_OK);
	assert_true(pc_profile_threads(p) >= 1 &&
		    pc_profile_threads(p) <= PC_MAX_THREADS);

	assert_int_equal(pc_profile_set_dwarf(NULL, NULL), PC_EUSAGE);
	assert_int_equal(pc_profile_set_dwarf(p, NULL), PC_OK);
	assert_int_equal(pc_profile_warn(p, "w%d", 1), PC_OK);
	assert_string_equal(pc_profile_warning_at(p, 0), "w1");
	assert_null(pc_profile_warning_at(p, 1));
	pc_profile_free(p);
}

static void getters_return_status(void **state)
{
	(void)state;
	pc_profile *p = five();
	size_t n = 99;
	assert_int_equal(pc_profile_row_count(&n, p), PC_OK);
	assert_int_equal(n, 5);
	assert_int_equal(pc_profile_row_count(NULL, p), PC_EUSAGE);
	/* no sentinel indexes: a miss is a status, the index stays 0 */
	size_t i = 99;
	assert_int_equal(pc_profile_lookup(&i, p, PC_NOSEG, 0x2f0), PC_OK);
	assert_int_equal(i, 1);
	i = 99;
	assert_int_equal(pc_profile_lookup(&i, p, PC_NOSEG, 0x9000),
			 PC_ENOTFOUND);
	assert_int_equal(i, 0);
	pc_row r;
	assert_int_equal(pc_profile_row_at(&r, p, 5), PC_ENOTFOUND);
#if PC_TEST_WRAP_ALLOC
	/* a change makes the next getter attribute again; when that fails
	 * the getter says so instead of answering "no rows" */
	assert_int_equal(pc_profile_add_sample(p, PC_NOSEG, 0x110, 1), PC_OK);
	fail_alloc = 1;
	int st = pc_profile_row_count(&n, p);
	fail_alloc = 0;
	assert_int_equal(st, PC_ENOMEM);
	assert_int_equal(n, 0);
	assert_int_equal(pc_profile_row_count(&n, p), PC_OK);
	assert_int_equal(n, 5);
	assert_int_equal(pc_profile_row_at(&r, p, 0), PC_OK);
	assert_true(r.count == 6);
#endif
	pc_profile_free(p);
}

static void class_totals(void **state)
{
	(void)state;
	pc_profile *p = five();
	pc_totals t;
	assert_int_equal(pc_profile_totals(&t, p), PC_OK);
	assert_true(t.total == 40);
	assert_true(t.in_program == 26);
	assert_true(t.attributed == 25);
	assert_true(t.outside == 14);
	static const double want[PC_REGION_COUNT] = {
		[PC_REGION_APPLICATION] = 1, /* 0x5f0: code, no symbol */
		[PC_REGION_SYSTEM] = 3,
		[PC_REGION_DOS] = 7,
		[PC_REGION_UNKNOWN] = 4,
	};
	for (int c = 0; c < PC_REGION_COUNT; c++) {
		double v = -1;
		assert_int_equal(pc_profile_class_total(&v, p, (pc_region_class)c),
				 PC_OK);
		assert_true(v == want[c]);
	}
	double v = -1;
	assert_int_equal(pc_profile_class_total(&v, p, PC_REGION_COUNT),
			 PC_EUSAGE);
	assert_true(v == 0);
	assert_string_equal(msg(p), "region class 10: expected 0 to 9");
	pc_profile_free(p);
}

/* What a caller built against an older, smaller pc_row / pc_totals /
 * pc_cg_node / pc_fit sees: only its own bytes are written. */
typedef struct old_row {
	size_t symbol;
	const char *name;
	uint32_t segment;
	uint64_t address;
} old_row;
typedef struct old_totals {
	double total;
	double in_program;
} old_totals;
typedef struct old_node {
	size_t row;
	int is_cycle;
	const char *name;
} old_node;
typedef struct old_fit {
	pc_fit_verdict verdict;
	const char *problem;
} old_fit;

#define CANARY 0xA5

static void untouched(const unsigned char *b, size_t from, size_t to)
{
	for (size_t k = from; k < to; k++)
		assert_int_equal(b[k], CANARY);
}

static void sized_structs(void **state)
{
	(void)state;
	pc_profile *p = five();
	pc_row full;
	assert_int_equal(pc_profile_row_at(&full, p, 1), PC_OK);
	assert_string_equal(full.name, "b");
	old_row o[2];
	memset(o, CANARY, sizeof o);
	assert_int_equal(pc_profile_row_at_sized((pc_row *)(void *)&o[0], sizeof o[0], p, 1),
			 PC_OK);
	assert_int_equal(o[0].symbol, full.symbol);
	assert_string_equal(o[0].name, "b");
	assert_int_equal(o[0].address, 0x200);
	untouched((const unsigned char *)o, sizeof o[0], sizeof o);
	assert_int_equal(pc_profile_row_at_sized(&full, 0, p, 1), PC_EUSAGE);

	old_totals ot[2];
	memset(ot, CANARY, sizeof ot);
	assert_int_equal(pc_profile_totals_sized((pc_totals *)(void *)&ot[0], sizeof ot[0], p),
			 PC_OK);
	assert_true(ot[0].total == 40 && ot[0].in_program == 26);
	untouched((const unsigned char *)ot, sizeof ot[0], sizeof ot);

	pc_callgraph *g = NULL;
	assert_int_equal(pc_profile_callgraph(&g, p, NULL), PC_OK);
	old_node on[2];
	memset(on, CANARY, sizeof on);
	assert_int_equal(pc_callgraph_node_at_sized((pc_cg_node *)(void *)&on[0], sizeof on[0], g, 0),
			 PC_OK);
	assert_int_equal(on[0].row, 0);
	assert_int_equal(on[0].is_cycle, 0);
	assert_string_equal(on[0].name, "a");
	untouched((const unsigned char *)on, sizeof on[0], sizeof on);
	/* one edge, a -> c, read into exactly its parent field */
	unsigned char eb[sizeof(size_t) + 8];
	memset(eb, CANARY, sizeof eb);
	assert_int_equal(pc_callgraph_edge_at_sized((pc_cg_edge *)(void *)eb, sizeof(size_t), g, 0),
			 PC_OK);
	size_t parent;
	memcpy(&parent, eb, sizeof parent);
	assert_int_equal(parent, 0);
	untouched(eb, sizeof(size_t), sizeof eb);
	pc_callgraph_free(g);

	old_fit of[2];
	memset(of, CANARY, sizeof of);
	assert_int_equal(pc_profile_fit_sized((pc_fit *)(void *)&of[0], sizeof of[0], p, NULL),
			 PC_OK);
	pc_fit f;
	assert_int_equal(pc_profile_fit(&f, p, NULL), PC_OK);
	assert_int_equal(of[0].verdict, f.verdict);
	untouched((const unsigned char *)of, sizeof of[0], sizeof of);
	pc_profile_free(p);
}

static const char *row_name(pc_profile *p, size_t i)
{
	pc_row r;
	assert_int_equal(pc_profile_row_at(&r, p, i), PC_OK);
	return r.name;
}

static void sorted_rows(void **state)
{
	(void)state;
	pc_profile *p = five();
	size_t idx[8], n = 99;
	assert_int_equal(pc_profile_rows_sorted(NULL, 0, &n, p, PC_SORT_SELF),
			 PC_OK);
	assert_int_equal(n, 5); /* max 0: only counts */
	/* most first: c and b tie at 9, c has 4 calls */
	assert_int_equal(pc_profile_rows_sorted(idx, 3, &n, p, PC_SORT_SELF),
			 PC_OK);
	assert_int_equal(n, 3);
	assert_string_equal(row_name(p, idx[0]), "c");
	assert_string_equal(row_name(p, idx[1]), "b");
	assert_string_equal(row_name(p, idx[2]), "a");
	assert_int_equal(pc_profile_rows_sorted(idx, 8, &n, p, PC_SORT_SELF),
			 PC_OK);
	assert_int_equal(n, 5);
	assert_string_equal(row_name(p, idx[3]), "e");
	assert_string_equal(row_name(p, idx[4]), "d"); /* no samples: last */
	assert_int_equal(pc_profile_rows_sorted(idx, 1, &n, p, PC_SORT_CALLS),
			 PC_OK);
	assert_int_equal(n, 1);
	assert_string_equal(row_name(p, idx[0]), "c");
	assert_int_equal(pc_profile_rows_sorted(idx, 8, &n, p, PC_SORT_ADDRESS),
			 PC_OK);
	for (size_t k = 0; k < 5; k++)
		assert_int_equal(idx[k], k);
	assert_int_equal(pc_profile_rows_sorted(idx, 8, &n, p, PC_SORT_NAME),
			 PC_OK);
	assert_string_equal(row_name(p, idx[0]), "a");
	assert_string_equal(row_name(p, idx[4]), "e");
	assert_int_equal(pc_profile_rows_sorted(idx, 8, &n, p, (pc_sort_key)42),
			 PC_EUSAGE);
	assert_string_equal(msg(p), "sort key 42: expected PC_SORT_ADDRESS, _SELF, _CALLS or _NAME");
	assert_int_equal(pc_profile_rows_sorted(NULL, 2, &n, p, PC_SORT_SELF),
			 PC_EUSAGE);
	assert_int_equal(n, 0);
	pc_profile_free(p);
}

typedef struct collect {
	unsigned char *buf;
	size_t len, calls;
	int fail_at; /* call number that fails, 0 = none */
	int fail_status; /* what it returns then (0: PC_EIO) */
	size_t sizes[64]; /* of the first 64 calls */
} collect;

static int collect_write(void *ctx, const void *buf, size_t len)
{
	collect *c = ctx;
	if (c->calls < 64)
		c->sizes[c->calls] = len;
	c->calls++;
	if (c->fail_at && c->calls == (size_t)c->fail_at)
		return c->fail_status ? c->fail_status : PC_EIO;
	assert_true(len > 0);
	c->buf = realloc(c->buf, c->len + len);
	assert_non_null(c->buf);
	memcpy(c->buf + c->len, buf, len);
	c->len += len;
	return 0;
}

/* n functions "function_number_K" of 16 bytes from 0x1000, function K
 * with 1 + K % 7 samples; with arcs, K / 2 calls K three times. */
static pc_profile *numbered_functions(unsigned n, int arcs)
{
	pc_profile *p;
	assert_int_equal(pc_profile_new(&p, NULL), PC_OK);
	char name[32];
	for (unsigned k = 0; k < n; k++) {
		snprintf(name, sizeof name, "function_number_%u", k);
		add_sym(p, name, 0x1000 + 0x10 * (uint64_t)k, 0x10);
		assert_int_equal(pc_profile_add_sample(p, PC_NOSEG, 0x1000 + 0x10 * (uint64_t)k,
						       1 + k % 7),
				 PC_OK);
		pc_arc a = {PC_NOSEG, 0x1000 + 0x10 * (uint64_t)(k / 2), PC_NOSEG,
			    0x1000 + 0x10 * (uint64_t)k, 3, 0, 0};
		if (arcs && k)
			assert_int_equal(pc_profile_add_arc(p, &a), PC_OK);
	}
	return p;
}

static void writer_callbacks(void **state)
{
	(void)state;
	/* 8000 symbols: the flat report is several 64 KiB long */
	pc_profile *p = numbered_functions(8000, 0);
	const char *what[] = {"flat", "folded"};
	for (int w = 0; w < 2; w++) {
		char *buf;
		size_t len;
		collect c = {NULL, 0, 0, 0, 0, {0}};
		if (w == 0) {
			assert_int_equal(pc_profile_render(&buf, &len, p, NULL, NULL),
					 PC_OK);
			assert_int_equal(pc_profile_render_to(p, NULL, NULL, collect_write, &c),
					 PC_OK);
		} else {
			assert_int_equal(pc_profile_export(&buf, &len, p, what[w], NULL),
					 PC_OK);
			assert_int_equal(pc_profile_export_to(p, what[w], NULL, collect_write, &c),
					 PC_OK);
		}
		assert_true(len > 2 * 64 * 1024); /* three calls or more */
		assert_int_equal(c.len, len);
		assert_memory_equal(c.buf, buf, len);
		/* streamed: a call each time the buffer passes 64 KiB, at the
		 * end of a line (so at most 64 KiB + one line), then the rest */
		size_t longest = 0;
		for (size_t i = 0, from = 0; i < len; i++)
			if (buf[i] == '\n') {
				longest = i + 1 - from > longest ? i + 1 - from : longest;
				from = i + 1;
			}
		assert_true(longest > 10 && longest < 200);
		assert_in_range(c.calls, len / (65536 + longest) + 1, len / 65536 + 1);
		assert_true(c.calls <= 64);
		for (size_t i = 0, at = 0; i < c.calls; at += c.sizes[i], i++) {
			if (i + 1 < c.calls)
				assert_in_range(c.sizes[i], 65536, 65536 + longest - 1);
			else
				assert_in_range(c.sizes[i], 1, 65536 + longest - 1);
			assert_int_equal(buf[at + c.sizes[i] - 1], '\n');
		}
		/* the FILE * conveniences (header-inline) write the same bytes */
		FILE *f = fopen("test_api_conventions.out", "w+b");
		assert_non_null(f);
		if (w == 0)
			assert_int_equal(pc_profile_render_file(p, NULL, NULL, f), PC_OK);
		else
			assert_int_equal(pc_profile_export_file(p, what[w], NULL, f), PC_OK);
		assert_int_equal(ftell(f), (long)len);
		rewind(f);
		char *back = malloc(len);
		assert_int_equal(fread(back, 1, len, f), len);
		assert_memory_equal(back, buf, len);
		free(back);
		fclose(f);
		remove("test_api_conventions.out");
		free(c.buf);
		pc_free(buf);
	}
	/* a writer that fails stops the output with its status: no call
	 * after the failing one (its 2nd), its bytes are not counted */
	collect c = {NULL, 0, 0, 2, 0, {0}};
	assert_int_equal(pc_profile_render_to(p, NULL, NULL, collect_write, &c), PC_EIO);
	assert_string_equal(msg(p), "write failed");
	assert_int_equal(c.calls, 2);
	assert_int_equal(c.len, c.sizes[0]);
	assert_in_range(c.len, 65536, 65536 + 200);
	free(c.buf);
	/* its own status (a negative one) is returned; a positive one is
	 * PC_EIO; an export stops the same way */
	collect e = {NULL, 0, 0, 2, PC_ENOMEM, {0}};
	assert_int_equal(pc_profile_export_to(p, "folded", NULL, collect_write, &e), PC_ENOMEM);
	assert_string_equal(msg(p), "write failed");
	assert_int_equal(e.calls, 2);
	free(e.buf);
	collect one = {NULL, 0, 0, 1, 7, {0}};
	assert_int_equal(pc_profile_render_to(p, NULL, NULL, collect_write, &one), PC_EIO);
	assert_int_equal(one.calls, 1);
	assert_int_equal(one.len, 0);
	assert_int_equal(pc_profile_render_to(p, NULL, NULL, NULL, NULL), PC_EUSAGE);
	assert_string_equal(msg(p), "no writer given");
	pc_profile_free(p);
}

/* One output through pc_profile_render_to / _export_to against
 * pc_profile_render / _export; counts it in *checked, and in *streamed
 * when it came in several calls. */
static void same_through_writer(pc_profile *p, const char *what, const char *of,
				size_t *checked, size_t *streamed)
{
	pc_options *o = NULL;
	assert_int_equal(pc_options_new(&o), PC_OK);
	char *buf = NULL;
	size_t len = 0;
	collect c = {NULL, 0, 0, 0, 0, {0}};
	int st, st_to;
	if (of) {
		assert_int_equal(pc_options_set(o, "output-format", of), PC_OK);
		st = pc_profile_render(&buf, &len, p, what, o);
		st_to = pc_profile_render_to(p, what, o, collect_write, &c);
	} else {
		st = pc_profile_export(&buf, &len, p, what, o);
		st_to = pc_profile_export_to(p, what, o, collect_write, &c);
	}
	assert_int_equal(st_to, st);
	if (st == PC_OK) {
		assert_int_equal(c.len, len);
		assert_memory_equal(c.buf, buf, len);
		(*checked)++;
		/* every output over 128 KiB but gmon's (binary, at the end) */
		if (len > 128 * 1024 && strcmp(what, "gmon")) {
			assert_true(c.calls > 1);
			(*streamed)++;
		}
	} else {
		assert_int_equal(c.calls, 0); /* refused before any output */
	}
	pc_free(buf);
	free(c.buf);
	pc_options_free(o);
}

/* Every report in every output format and every export: the writer gets
 * the bytes pc_profile_render / pc_profile_export make, streamed. */
static void writer_every_output(void **state)
{
	(void)state;
	pc_profile *p = numbered_functions(4000, 1);
	static const char *const ofs[] = {"text", "csv", "json", "html"};
	size_t checked = 0, streamed = 0, nrep = 0, nexp = 0;
	for (; pc_report_name_at(nrep); nrep++)
		for (size_t f = 0; f < 4; f++)
			same_through_writer(p, pc_report_name_at(nrep), ofs[f], &checked,
					    &streamed);
	for (; pc_export_name_at(nexp); nexp++)
		same_through_writer(p, pc_export_name_at(nexp), NULL, &checked, &streamed);
	/* refused in text, csv and json: source, locations and disasm (no
	 * program with DWARF), intervals (no "interval" given) */
	assert_int_equal(checked, nrep * 4 - 4 * 3 + nexp);
	assert_true(streamed >= 20);
	pc_profile_free(p);
}

/* 2^20 four-byte records over 512 symbols, counted by 1 and by 4
 * threads: the same counts, row for row. */
static pc_profile *counted(unsigned threads, const unsigned char *rec, size_t n)
{
	pc_profile *p;
	assert_int_equal(pc_profile_new(&p, NULL), PC_OK);
	assert_int_equal(pc_profile_set_threads(p, threads), PC_OK);
	assert_int_equal(pc_profile_threads(p), threads);
	char name[32];
	for (unsigned k = 0; k < 512; k++) {
		snprintf(name, sizeof name, "s%u", k);
		add_sym(p, name, 0x10000 + 0x1000 * (uint64_t)k, 0x1000);
	}
	pc_record_layout l = {4, PC_ENDIAN_LITTLE, PC_REAL_NONE, 4, 0,
			      UINT64_MAX};
	assert_int_equal(pc_profile_add_records(p, PC_NOSEG, rec, n, &l), PC_OK);
	return p;
}

static void thread_setting(void **state)
{
	(void)state;
	size_t n = (size_t)1 << 20;
	unsigned char *rec = malloc(n * 4);
	assert_non_null(rec);
	uint64_t x = 0x9E3779B97F4A7C15ull;
	for (size_t k = 0; k < n; k++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		uint32_t a = 0x10000 + (uint32_t)(x % (512 * 0x1000 + 0x800));
		rec[4 * k] = (unsigned char)a;
		rec[4 * k + 1] = (unsigned char)(a >> 8);
		rec[4 * k + 2] = (unsigned char)(a >> 16);
		rec[4 * k + 3] = (unsigned char)(a >> 24);
	}
	pc_profile *one = counted(1, rec, n), *four = counted(4, rec, n);
	size_t n1, n4;
	assert_int_equal(pc_profile_row_count(&n1, one), PC_OK);
	assert_int_equal(pc_profile_row_count(&n4, four), PC_OK);
	assert_int_equal(n1, 512);
	assert_int_equal(n4, 512);
	double sum = 0;
	for (size_t k = 0; k < n1; k++) {
		pc_row a, b;
		assert_int_equal(pc_profile_row_at(&a, one, k), PC_OK);
		assert_int_equal(pc_profile_row_at(&b, four, k), PC_OK);
		assert_true(a.count == b.count);
		sum += a.count;
	}
	pc_totals t1, t4;
	assert_int_equal(pc_profile_totals(&t1, one), PC_OK);
	assert_int_equal(pc_profile_totals(&t4, four), PC_OK);
	assert_true(t1.total == (double)n && t4.total == (double)n);
	assert_true(t1.outside == t4.outside);
	assert_true(sum + t1.outside == (double)n);
	assert_true(t1.outside > 0); /* the last 0x800 bytes: in no symbol */
	pc_profile_free(one);
	pc_profile_free(four);
	free(rec);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(constructors),
		cmocka_unit_test(setters_validate),
		cmocka_unit_test(getters_return_status),
		cmocka_unit_test(class_totals),
		cmocka_unit_test(sized_structs),
		cmocka_unit_test(sorted_rows),
		cmocka_unit_test(writer_callbacks),
		cmocka_unit_test(writer_every_output),
		cmocka_unit_test(thread_setting),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
