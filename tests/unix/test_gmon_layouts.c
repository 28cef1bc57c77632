/* gmon.out layouts beyond GNU tagged: 4.4BSD, old BSD, FreeBSD counter
 * types, OpenOCD's 4-byte words and little-endian counters; and the
 * OSF/1 multi-range profil interchange form. */
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

#include "../common/pc_test.h"

/* ---- byte builders ---------------------------------------------------------- */

typedef struct buf {
	unsigned char b[1024];
	size_t n;
} buf;

static void put(buf *b, uint64_t v, unsigned w, pc_endian e)
{
	for (unsigned k = 0; k < w; k++)
		b->b[b->n + k] = (unsigned char)(v >> (8 * (e == PC_ENDIAN_BIG ? w - 1 - k : k)));
	b->n += w;
}

static void bytes(buf *b, const void *p, size_t n)
{
	memcpy(b->b + b->n, p, n);
	b->n += n;
}

static pc_profile *fgh(unsigned width, pc_endian e)
{
	pc_profile *p;
	pc_profile_new(&p, NULL);
	const char *names[] = {"f", "g", "h"};
	uint64_t addr[] = {0x1000, 0x1010, 0x1040};
	for (int i = 0; i < 3; i++) {
		pc_symbol s = {.name = names[i], .segment = PC_NOSEG, .address = addr[i],
			       .kind = PC_SYM_TEXT};
		pc_profile_add_symbol(p, &s);
	}
	pc_region r = {PC_NOSEG, 0x1000, 0x1100, PC_REGION_APPLICATION, "text"};
	pc_profile_add_region(p, &r);
	if (width)
		pc_profile_set_target(p, width, e);
	return p;
}

static double count_of(pc_profile *p, const char *name, uint64_t *calls)
{
	for (size_t i = 0; i < test_rows(p); i++) {
		pc_row r;
		pc_profile_row_at(&r, p, i);
		if (strcmp(r.name, name) == 0) {
			if (calls)
				*calls = r.calls;
			return r.count;
		}
	}
	fail_msg("no row %s", name);
	return -1;
}

static pc_options *opts(const char *a, const char *b)
{
	pc_options *o;
	assert_int_equal(pc_options_new(&o), PC_OK);
	if (a)
		pc_options_parse(o, a);
	if (b)
		pc_options_parse(o, b);
	return o;
}

/* ---- BSD --------------------------------------------------------------------- */

/* [0x1000, 0x1020) in 8 bins of 4 bytes: {1,2,0,0,30,0,0,0} -> f gets
 * bins 0-3 (3), g bins 4-7 (30); arcs f -> g x 7 (from 0x1004, to 0x1012)
 * and g -> g x 4 (self). */
static void bsd_file(buf *b, unsigned w, pc_endian e, int new)
{
	b->n = 0;
	size_t hdr = 2 * w + (new ? 24 : 4);
	put(b, 0x1000, w, e);
	put(b, 0x1020, w, e);
	put(b, hdr + 16, 4, e);
	if (new) {
		put(b, 0x00051879, 4, e);
		put(b, 1000, 4, e);
		put(b, 0, 4, e);
		put(b, 0, 4, e);
		put(b, 0, 4, e);
	}
	uint16_t c[8] = {1, 2, 0, 0, 30, 0, 0, 0};
	for (int i = 0; i < 8; i++)
		put(b, c[i], 2, e);
	put(b, 0x1004, w, e);
	put(b, 0x1012, w, e);
	put(b, 7, w, e);
	put(b, 0x1014, w, e);
	put(b, 0x1012, w, e);
	put(b, 4, w, e);
}

static void bsd_layouts(void **state)
{
	(void)state;
	for (unsigned w = 4; w <= 8; w += 4) {
		for (int e = PC_ENDIAN_LITTLE; e <= PC_ENDIAN_BIG; e++) {
			for (int new = 0; new < 2; new++) {
				buf b;
				bsd_file(&b, w, (pc_endian)e, new);
				/* with the executable's width and order */
				pc_profile *p = fgh(w, (pc_endian)e);
				assert_int_equal(pc_profile_load_memory(p, b.b, b.n, "gmon.out", NULL, NULL), PC_OK);
				assert_string_equal(pc_profile_source_format(p, 0), "gmon");
				uint64_t calls = 0;
				assert_true(count_of(p, "f", NULL) == 3);
				assert_true(count_of(p, "g", &calls) == 30);
				assert_int_equal(calls, 7);
				pc_row r;
				pc_profile_row_at(&r, p, 1);
				assert_int_equal(r.self_calls, 4);
				assert_true(pc_profile_rate(p) == (new ? 1000 : 0));
				assert_int_equal(pc_profile_warning_count(p), 0);
				pc_profile_free(p);
				/* without: the only reading that fits, with a warning */
				p = fgh(0, PC_ENDIAN_UNKNOWN);
				assert_int_equal(pc_profile_load_memory(p, b.b, b.n, "gmon.out", NULL, NULL), PC_OK);
				assert_true(count_of(p, "g", NULL) == 30);
				assert_int_equal(pc_profile_warning_count(p), 1);
				char want[160];
				snprintf(want, sizeof want,
					 "gmon.out: no executable given; read as %s %u-bit %s-endian (the only reading that fits)",
					 new ? "4.4BSD" : "old BSD", w * 8, e == PC_ENDIAN_BIG ? "big" : "little");
				assert_string_equal(pc_profile_warning_at(p, 0), want);
				pc_profile_free(p);
			}
		}
	}
}

/* 20 bytes that are an old BSD file both with 4-byte addresses (lowpc
 * 0x100, highpc 0x200, ncnt 20, counters {0x1000, 0, 20, 0}) and with
 * 8-byte ones (lowpc 0x20000000100, highpc 0x100000000014, ncnt 20, no
 * counters), neither with arcs: only the executable or -O can tell. */
static void width_undecidable(void **state)
{
	(void)state;
	buf b = {.n = 0};
	put(&b, 0x100, 4, PC_ENDIAN_LITTLE);
	put(&b, 0x200, 4, PC_ENDIAN_LITTLE);
	put(&b, 20, 4, PC_ENDIAN_LITTLE);
	put(&b, 0x1000, 2, PC_ENDIAN_LITTLE);
	put(&b, 0, 2, PC_ENDIAN_LITTLE);
	put(&b, 20, 2, PC_ENDIAN_LITTLE);
	put(&b, 0, 2, PC_ENDIAN_LITTLE);
	pc_profile *p;
	pc_profile_new(&p, NULL);
	assert_int_equal(pc_profile_load_memory(p, b.b, b.n, "gmon.out", NULL, NULL), PC_EAMBIGUOUS);
	const pc_error *e = pc_profile_error(p);
	assert_string_equal(e->file, "gmon.out");
	assert_int_equal(e->offset, 0);
	assert_string_equal(e->message,
			    "BSD gmon.out records neither address width nor byte order and several readings fit (old BSD 32-bit little-endian, old BSD 64-bit little-endian): give the executable, or the options width=4|8 and endian=little|big");
	pc_profile_free(p);
	pc_profile_new(&p, NULL);
	pc_options *o = opts("width=4", "rate=100"); /* old BSD: no rate in the file */
	assert_int_equal(pc_profile_load_memory(p, b.b, b.n, "gmon.out", NULL, o), PC_OK);
	assert_true(pc_profile_rate(p) == 100);
	pc_histogram h;
	pc_profile_histogram_at(&h, p, 0);
	assert_int_equal(h.low, 0x100);
	assert_int_equal(h.high, 0x200);
	assert_int_equal(h.nbins, 4);
	assert_int_equal(h.counts[2], 20);
	pc_options_free(o);
	pc_profile_free(p);
}

/* FreeBSD histcounter_type: 32 = unsigned 32-bit counters. */
static void freebsd_counter_type(void **state)
{
	(void)state;
	buf b = {.n = 0};
	pc_endian e = PC_ENDIAN_LITTLE;
	put(&b, 0x1000, 8, e);
	put(&b, 0x1020, 8, e);
	put(&b, 40 + 4 * 4, 4, e);
	put(&b, 0x00051879, 4, e);
	put(&b, 128, 4, e);
	put(&b, 32, 4, e); /* spare[0]: histcounter_type */
	put(&b, 0, 4, e);
	put(&b, 0, 4, e);
	uint32_t c[4] = {100000, 0, 0, 7}; /* 8-byte bins */
	for (int i = 0; i < 4; i++)
		put(&b, c[i], 4, e);
	pc_profile *p = fgh(8, e);
	assert_int_equal(pc_profile_load_memory(p, b.b, b.n, "gmon.out", NULL, NULL), PC_OK);
	assert_true(count_of(p, "f", NULL) == 100000);
	assert_true(count_of(p, "g", NULL) == 7);
	assert_true(pc_profile_rate(p) == 128);
	pc_profile_free(p);
	/* -32: signed; a negative counter is malformed */
	b.b[28] = 0xe0;
	b.b[29] = b.b[30] = b.b[31] = 0xff;
	b.b[40 + 12 + 3] = 0x80; /* bin 3 */
	p = fgh(8, e);
	assert_int_equal(pc_profile_load_memory(p, b.b, b.n, "gmon.out", NULL, NULL), PC_EFORMAT);
	assert_int_equal(pc_profile_error(p)->offset, 52);
	assert_string_equal(pc_profile_error(p)->message, "negative histogram counter in bin 3");
	pc_profile_free(p);
}

/* MinGW's gmon.c writes the 4.4BSD header from an unset stack struct: its
 * spare words hold garbage (these from real MinGW gmon.out files, small
 * ones too).  A word that is no counter type is not FreeBSD's
 * histcounter_type: 16-bit counters, as gprof reads it, with a warning. */
static void mingw_spare_garbage(void **state)
{
	(void)state;
	buf b;
	bsd_file(&b, 4, PC_ENDIAN_LITTLE, 1);
	b.n = 20;
	put(&b, 0x7765421b, 4, PC_ENDIAN_LITTLE); /* spare[0] */
	put(&b, 0xffffffff, 4, PC_ENDIAN_LITTLE); /* spare[1] */
	buf full;
	bsd_file(&full, 4, PC_ENDIAN_LITTLE, 1);
	b.n = full.n;
	for (int width = 4; width >= -4; width -= 4) {
		if (width < 0) { /* garbage below 64 (9, in a real file) */
			b.b[20] = 9;
			b.b[21] = b.b[22] = b.b[23] = 0;
		}
		pc_profile *p = fgh(width > 0 ? 4 : 0, width > 0 ? PC_ENDIAN_LITTLE : PC_ENDIAN_UNKNOWN);
		assert_int_equal(pc_profile_load_memory(p, b.b, b.n, "gmon.out", NULL, NULL), PC_OK);
		uint64_t calls = 0;
		assert_true(count_of(p, "f", NULL) == 3);
		assert_true(count_of(p, "g", &calls) == 30);
		assert_int_equal(calls, 7);
		assert_int_equal(pc_profile_warning_count(p), width > 0 ? 1 : 2);
		char want[256];
		snprintf(want, sizeof want, "gmon.out: 4.4BSD header word at offset 20 is 0x%x, not a counter type (0 or +-8, 16, 32, 64 bits; MinGW leaves it unset): read as 16-bit counters, as gprof does",
			 width < 0 ? 9u : 0x7765421bu);
		assert_string_equal(pc_profile_warning_at(p, width > 0 ? 0 : 1), want);
		pc_profile_free(p);
	}
}

/* MinGW-w64 on Win64: the arc's count is a 4-byte `long` followed by 4
 * bytes of stack garbage, the same in every arc (0x3ff00000 in a real
 * file): read as the 4-byte count with a warning.  Counts of which only
 * some have a non-zero upper half stay 8-byte counts. */
static void mingw64_arc_padding(void **state)
{
	(void)state;
	buf b;
	bsd_file(&b, 8, PC_ENDIAN_LITTLE, 1);
	size_t arcs = b.n - 2 * 24; /* two arcs of 24 bytes at the end */
	for (int k = 0; k < 2; k++) {
		b.b[arcs + 24 * (size_t)k + 20 + 2] = 0xf0;
		b.b[arcs + 24 * (size_t)k + 20 + 3] = 0x3f;
	}
	pc_profile *p = fgh(8, PC_ENDIAN_LITTLE);
	assert_int_equal(pc_profile_load_memory(p, b.b, b.n, "gmon.out", NULL, NULL), PC_OK);
	uint64_t calls = 0;
	assert_true(count_of(p, "g", &calls) == 30);
	assert_int_equal(calls, 7);
	pc_row r;
	pc_profile_row_at(&r, p, 1);
	assert_int_equal(r.self_calls, 4);
	assert_int_equal(pc_profile_warning_count(p), 1);
	assert_string_equal(pc_profile_warning_at(p, 0),
			    "gmon.out: every arc's 8-byte count ends in the same non-zero word 0x3ff00000: read as MinGW-w64's 4-byte count and 4 padding bytes (gprof counts the padding in)");
	pc_profile_free(p);
	/* the second arc's upper half differs: a real 8-byte count */
	b.b[arcs + 24 + 20 + 3] = 0x3e;
	p = fgh(8, PC_ENDIAN_LITTLE);
	assert_int_equal(pc_profile_load_memory(p, b.b, b.n, "gmon.out", NULL, NULL), PC_OK);
	assert_true(count_of(p, "g", &calls) == 30);
	assert_int_equal(calls, 0x3ff0000000000007ull);
	assert_int_equal(pc_profile_warning_count(p), 0);
	pc_profile_free(p);
}

/* DEC OSF/1 old BSD header: 4 pad bytes after ncnt (24-byte header with
 * 8-byte addresses), only with -O gmon-layout=alpha. */
static void alpha_pad(void **state)
{
	(void)state;
	buf b = {.n = 0};
	pc_endian e = PC_ENDIAN_LITTLE;
	put(&b, 0x1000, 8, e);
	put(&b, 0x1020, 8, e);
	put(&b, 24 + 8, 4, e);
	put(&b, 0, 4, e); /* pad */
	uint16_t c[4] = {9, 0, 0, 11}; /* 8-byte bins */
	for (int i = 0; i < 4; i++)
		put(&b, c[i], 2, e);
	put(&b, 0x1008, 8, e);
	put(&b, 0x1014, 8, e);
	put(&b, 3, 8, e);
	pc_profile *p = fgh(8, e);
	pc_options *o = opts("gmon-layout=alpha", NULL);
	assert_int_equal(pc_profile_load_memory(p, b.b, b.n, "gmon.out", NULL, o), PC_OK);
	uint64_t calls = 0;
	assert_true(count_of(p, "f", NULL) == 9);
	assert_true(count_of(p, "g", &calls) == 11);
	assert_int_equal(calls, 3);
	pc_profile_free(p);
	/* a non-zero pad is not this layout */
	b.b[20] = 1;
	p = fgh(8, e);
	assert_int_equal(pc_profile_load_memory(p, b.b, b.n, "gmon.out", NULL, o), PC_EFORMAT);
	assert_int_equal(pc_profile_error(p)->offset, 20);
	assert_string_equal(pc_profile_error(p)->message, "Alpha gmon.out header pad is not zero");
	pc_options_free(o);
	pc_profile_free(p);
}

static void bsd_malformed(void **state)
{
	(void)state;
	buf b;
	bsd_file(&b, 4, PC_ENDIAN_LITTLE, 1);
	struct {
		size_t len;
		int patch_at, patch_val;
		const char *layout;
		int code;
		int64_t off;
		const char *msg;
	} cases[] = {
		{20, -1, 0, NULL, PC_ETRUNC, 0, "4.4BSD gmon.out header needs 32 bytes, file has 20"},
		{40, -1, 0, NULL, PC_ETRUNC, 8, "header and histogram claim 48 bytes but the file has 40"},
		{b.n, 8, 10, NULL, PC_EFORMAT, 8,
		 "header and histogram size 10 is smaller than the 32-byte header"},
		{b.n, 12, 0x78, "bsd44", PC_EFORMAT, 12,
		 "4.4BSD gmon.out version 0x51878 (expected 0x51879)"},
		{b.n, 71, 0x80, NULL, PC_EFORMAT, 68,
		 "arc count is negative (sign bit of the signed 4-byte count set); expected 0 or more calls"},
		{b.n, 4, 0x0f, NULL, PC_EFORMAT, 0, "lowpc 0x1000 is above highpc 0xf"},
		{b.n, -1, 0, "tagged", PC_EFORMAT, 0, "expected the GNU gmon.out magic \"gmon\""},
	};
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
		unsigned char c[1024];
		memcpy(c, b.b, b.n);
		if (cases[i].patch_at >= 0)
			c[cases[i].patch_at] = (unsigned char)cases[i].patch_val;
		if (cases[i].patch_at == 4)
			c[5] = 0;
		pc_profile *p = fgh(4, PC_ENDIAN_LITTLE);
		char lay[64];
		snprintf(lay, sizeof lay, "gmon-layout=%s", cases[i].layout ? cases[i].layout : "");
		pc_options *o = opts(cases[i].layout ? lay : NULL, NULL);
		int st = pc_profile_load_memory(p, c, cases[i].len, "bad.gmon", "gmon", o);
		assert_int_equal(st, cases[i].code);
		const pc_error *e = pc_profile_error(p);
		assert_string_equal(e->file, "bad.gmon");
		assert_int_equal(e->offset, cases[i].off);
		assert_string_equal(e->message, cases[i].msg);
		pc_options_free(o);
		pc_profile_free(p);
	}
	/* a partial last arc is ignored, as gprof does, with a warning */
	pc_profile *p = fgh(4, PC_ENDIAN_LITTLE);
	assert_int_equal(pc_profile_load_memory(p, b.b, b.n - 5, "cut.gmon", NULL, NULL), PC_OK);
	assert_int_equal(pc_profile_arc_count(p), 1);
	assert_string_equal(pc_profile_warning_at(p, 0),
			    "cut.gmon: 7 bytes after the last whole arc ignored (as gprof does)");
	pc_profile_free(p);
}

/* ---- OpenOCD ----------------------------------------------------------------- */

/* Two histogram records, 2-byte bins, header words 4 bytes in the
 * target's order, counters little-endian, no arcs:
 *   [0x1000, 0x1014) 10 bins: bin 7 (0x100e, f) 5, bin 9 (0x1012, g) 300,
 *                             bin 0 (0x1000, f) 1
 *   [0x1040, 0x1046) 3 bins: 2, 0, 7 (h) */
static void openocd_file(buf *b, pc_endian e)
{
	b->n = 0;
	bytes(b, "gmon", 4);
	put(b, 1, 4, e);
	put(b, 0, 4, e);
	put(b, 0, 4, e);
	put(b, 0, 4, e);
	const char dimen[16] = "seconds\0\0\0\0\0\0\0\0s";
	uint16_t c1[10] = {1, 0, 0, 0, 0, 0, 0, 5, 0, 300}, c2[3] = {2, 0, 7};
	bytes(b, "\0", 1);
	put(b, 0x1000, 4, e);
	put(b, 0x1014, 4, e);
	put(b, 10, 4, e);
	put(b, 1000, 4, e);
	bytes(b, dimen, 16);
	for (int i = 0; i < 10; i++)
		put(b, c1[i], 2, PC_ENDIAN_LITTLE);
	bytes(b, "\0", 1);
	put(b, 0x1040, 4, e);
	put(b, 0x1046, 4, e);
	put(b, 3, 4, e);
	put(b, 1000, 4, e);
	bytes(b, dimen, 16);
	for (int i = 0; i < 3; i++)
		put(b, c2[i], 2, PC_ENDIAN_LITTLE);
}

static void openocd_shapes(void **state)
{
	(void)state;
	for (unsigned w = 4; w <= 8; w += 4) {
		for (int e = PC_ENDIAN_LITTLE; e <= PC_ENDIAN_BIG; e++) {
			buf b;
			openocd_file(&b, (pc_endian)e);
			pc_profile *p = fgh(w, (pc_endian)e);
			assert_int_equal(pc_profile_load_memory(p, b.b, b.n, "openocd.out", NULL, NULL), PC_OK);
			assert_true(count_of(p, "f", NULL) == 6);
			assert_true(count_of(p, "g", NULL) == 300);
			assert_true(count_of(p, "h", NULL) == 9);
			assert_int_equal(pc_profile_histogram_count(p), 2);
			assert_true(pc_profile_rate(p) == 1000);
			size_t nw = (w == 8) + (e == PC_ENDIAN_BIG);
			assert_int_equal(pc_profile_warning_count(p), nw);
			if (w == 8)
				assert_string_equal(pc_profile_warning_at(p, 0),
						    "openocd.out: histogram records read with 4-byte addresses, as OpenOCD writes them for 64-bit targets (the option hist-width=8 refuses that)");
			if (e == PC_ENDIAN_BIG)
				assert_string_equal(pc_profile_warning_at(p, nw - 1),
						    "openocd.out: histogram counters read as little-endian, as OpenOCD writes them (the option counter-endian=big refuses that)");
			pc_profile_free(p);
		}
	}
	/* the options refuse the guesses */
	buf b;
	openocd_file(&b, PC_ENDIAN_BIG);
	pc_profile *p = fgh(4, PC_ENDIAN_BIG);
	pc_options *o = opts("counter-endian=big", NULL);
	assert_int_equal(pc_profile_load_memory(p, b.b, b.n, "openocd.out", NULL, o), PC_OK);
	assert_true(count_of(p, "f", NULL) == 256 + 5 * 256); /* byte-swapped */
	assert_int_equal(pc_profile_warning_count(p), 0);
	pc_options_free(o);
	pc_profile_free(p);
	p = fgh(8, PC_ENDIAN_LITTLE);
	openocd_file(&b, PC_ENDIAN_LITTLE);
	o = opts("hist-width=8", NULL);
	assert_int_equal(pc_profile_load_memory(p, b.b, b.n, "openocd.out", NULL, o), PC_EFORMAT);
	assert_int_equal(pc_profile_error(p)->offset, 21);
	pc_options_free(o);
	pc_profile_free(p);
}

/* ---- OSF/1 multi-range profil (PCMRPROF) ----------------------------------- */

/* rule byte 0 (bsd): range 0 at 0x1000, scale 0x8000 (4 bytes per
 * counter), counters {1,2,3,4}, class program, name "prog"; range 1 at
 * 0x70000000, scale 0x10000, counters {5,6}, class library, "libc.so".
 * f [0x1000,0x1006) gets counter 0 and half of counter 1 ([0x1004,0x1008)
 * split at 0x1006): 1 + 1; g the rest 1 + 3 + 4. */
static void osf_file(buf *b, unsigned nranges, uint64_t off1)
{
	b->n = 0;
	pc_endian le = PC_ENDIAN_LITTLE;
	bytes(b, "PCMRPROF", 8);
	put(b, 1, 2, le);
	put(b, nranges, 2, le);
	put(b, 100, 4, le);
	put(b, 0, 1, le);
	put(b, 0, 1, le);
	put(b, 0, 2, le);
	put(b, 0, 4, le);
	put(b, 0x1000, 8, le);
	put(b, 0x8000, 4, le);
	put(b, 4, 4, le);
	put(b, PC_REGION_APPLICATION, 1, le);
	put(b, 0, 1, le);
	put(b, 4, 2, le);
	put(b, 0, 4, le);
	if (nranges > 1) {
		put(b, off1, 8, le);
		put(b, 0x10000, 4, le);
		put(b, 2, 4, le);
		put(b, PC_REGION_LIBRARY, 1, le);
		put(b, 0, 1, le);
		put(b, 7, 2, le);
		put(b, 0, 4, le);
	}
	bytes(b, "prog", 4);
	for (unsigned i = 1; i <= 4; i++)
		put(b, i, 2, le);
	if (nranges > 1) {
		bytes(b, "libc.so", 7);
		put(b, 5, 2, le);
		put(b, 6, 2, le);
	}
}

static void osf_ranges(void **state)
{
	(void)state;
	buf b;
	osf_file(&b, 2, 0x70000000);
	pc_profile *p;
	pc_profile_new(&p, NULL);
	pc_symbol f = {.name = "f", .segment = PC_NOSEG, .address = 0x1000, .kind = PC_SYM_TEXT};
	pc_symbol g = {.name = "g", .segment = PC_NOSEG, .address = 0x1006, .kind = PC_SYM_TEXT};
	pc_profile_add_symbol(p, &f);
	pc_profile_add_symbol(p, &g);
	assert_int_equal(pc_profile_load_memory(p, b.b, b.n, "run.mprof", NULL, NULL), PC_OK);
	assert_string_equal(pc_profile_source_format(p, 0), "osf");
	assert_true(count_of(p, "f", NULL) == 2);
	assert_true(count_of(p, "g", NULL) == 8);
	pc_totals t;
	pc_profile_totals(&t, p);
	assert_true(t.total == 21);
	assert_true(t.outside == 11);
	assert_true(test_class(p, PC_REGION_LIBRARY) == 11);
	assert_int_equal(pc_profile_region_count(p), 2);
	pc_region r;
	pc_profile_region_at(&r, p, 1);
	assert_string_equal(r.label, "libc.so");
	assert_int_equal(r.low, 0x70000000);
	assert_int_equal(r.high, 0x70000004);
	assert_true(pc_profile_rate(p) == 100);
	pc_profile_free(p);
}

static void osf_malformed(void **state)
{
	(void)state;
	buf good;
	osf_file(&good, 2, 0x70000000);
	buf overlap;
	osf_file(&overlap, 2, 0x100c);
	struct {
		const buf *b;
		size_t len;
		int patch_at, patch_val;
		int code;
		int64_t off;
		const char *msg;
	} cases[] = {
		{&good, 10, -1, 0, PC_ETRUNC, 0, "multi-range profil header needs 24 bytes, file has 10"},
		{&good, good.n, 8, 2, PC_EUNSUPPORTED, 8, "version 2, expected 1"},
		{&good, good.n, 10, 65, PC_EFORMAT, 10, "65 ranges, expected 1 to 64"},
		{&good, good.n, 16, 9, PC_EFORMAT, 16, "pc rule 9, expected 0 to 5"},
		{&good, good.n, 24 + 10, 2, PC_EFORMAT, 32,
		 "range 0: scale 0x28000, expected 1 to 0x10000"},
		{&good, good.n, 24 + 16, 40, PC_EFORMAT, 40,
		 "range 0: region class 40, expected 0 to 9"},
		{&good, good.n - 1, -1, 0, PC_ETRUNC, 94, "file ends at 94 bytes, the 2 ranges need 95"},
		{&good, good.n + 1, -1, 0, PC_EFORMAT, 95, "unexpected data after the last range's counters"},
		{&overlap, overlap.n, -1, 0, PC_EFORMAT, 48,
		 "range 1 [0x100c, 0x1010) overlaps range 0 [0x1000, 0x1010)"},
	};
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
		unsigned char c[1024] = {0};
		memcpy(c, cases[i].b->b, cases[i].b->n);
		if (cases[i].patch_at >= 0)
			c[cases[i].patch_at] = (unsigned char)cases[i].patch_val;
		pc_profile *p;
		pc_profile_new(&p, NULL);
		int st = pc_profile_load_memory(p, c, cases[i].len, "bad.mprof", "osf", NULL);
		assert_int_equal(st, cases[i].code);
		const pc_error *e = pc_profile_error(p);
		assert_string_equal(e->file, "bad.mprof");
		assert_int_equal(e->offset, cases[i].off);
		assert_string_equal(e->message, cases[i].msg);
		pc_profile_free(p);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(bsd_layouts),
		cmocka_unit_test(width_undecidable),
		cmocka_unit_test(freebsd_counter_type),
		cmocka_unit_test(mingw_spare_garbage),
		cmocka_unit_test(mingw64_arc_padding),
		cmocka_unit_test(alpha_pad),
		cmocka_unit_test(bsd_malformed),
		cmocka_unit_test(openocd_shapes),
		cmocka_unit_test(osf_ranges),
		cmocka_unit_test(osf_malformed),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
