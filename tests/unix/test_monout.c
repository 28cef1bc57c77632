/* V7 mon.out loader and the profil(2) pc -> counter rules (profil_map.h). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <math.h>

#include "profcore.h"
#include "profcore_plugin.h"
#include "profil_map.h"

#include "../common/pc_test.h"

/* ---- the index arithmetic, worked by hand -------------------------------- */

/* PDP-11, offset 0x100, scale 0x6000 (what V7 monitor() picks for 24
 * counters over 128 bytes of text: o = 64 words, (24 << 15) / 64 = 12288,
 * scale = 12288 << 1).  s = scale >> 1 = 12288; for a pc,
 * d = (pc - 0x100) >> 1, p = d * 12288, byte = ((p >> 14) + 1) & ~1:
 *   pc 0x102: d 1, p >> 14 = 0 (12288 / 16384), byte 1 & ~1 = 0 -> counter 0
 *   pc 0x104: d 2, p >> 14 = 1 (24576 / 16384), byte 2        -> counter 1
 *   pc 0x107: d 3, p >> 14 = 2 (36864 / 16384), byte 3 & ~1 = 2 -> counter 1
 *   pc 0x108: d 4, p >> 14 = 3 (49152 / 16384), byte 4        -> counter 2
 *   pc 0x10c: d 6, p >> 14 = 4 (73728 / 16384), byte 5 & ~1 = 4 -> counter 2
 *   pc 0x10e: d 7, p >> 14 = 5 (86016 / 16384), byte 6        -> counter 3
 *   pc 0x114: d 10, p >> 14 = 7 (122880 / 16384), byte 8      -> counter 4
 * The +1 rounds to nearest: 4.4BSD's truncating rule, floor((pc - off) *
 * scale / 2^17) = floor((pc - off) * 0.1875), puts pc 0x104 (0.75) in
 * counter 0, 0x10c (2.25) in 2, 0x114 (3.75) in 3; ULTRIX's (no +1:
 * byte = (p >> 14) & ~1) puts 0x104 in counter 0 (byte 1 & ~1 = 0), 0x108
 * in 1 (3 & ~1 = 2), 0x10e in 2 (5 & ~1 = 4), 0x114 in 3 (7 & ~1 = 6). */
static void pdp11_rounding_by_hand(void **state)
{
	(void)state;
	const uint32_t scale = 0x6000;
	assert_int_equal(pc_profil_monitor_scale(PC_PROFIL_PDP11, 0x100, 0x180, 24), 0x6000);
	struct {
		uint64_t pc, pdp11, bsd, ultrix;
	} cases[] = {
		{0x100, 0, 0, 0}, {0x102, 0, 0, 0}, {0x104, 1, 0, 0},
		{0x107, 1, 1, 1}, {0x108, 2, 1, 1}, {0x10c, 2, 2, 2},
		{0x10e, 3, 2, 2}, {0x114, 4, 3, 3},
	};
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
		assert_int_equal(pc_profil_index(PC_PROFIL_PDP11, cases[i].pc, 0x100, scale, 2),
				 cases[i].pdp11);
		assert_int_equal(pc_profil_index(PC_PROFIL_BSD, cases[i].pc, 0x100, scale, 4),
				 cases[i].bsd);
		assert_int_equal(pc_profil_index(PC_PROFIL_ULTRIX, cases[i].pc, 0x100, scale, 4),
				 cases[i].ultrix);
	}
	/* the first pc of each counter: bounds of the exact histogram */
	uint64_t first[] = {0x100, 0x104, 0x108, 0x10e, 0x114};
	for (unsigned i = 0; i < 5; i++)
		assert_int_equal(pc_profil_bound(PC_PROFIL_PDP11, 0x100, scale, 2, i), first[i]);
	/* glibc halves first, 4.4BSD multiplies first: pc - off = 3, scale
	 * 0x10000: glibc (3 / 2) * 65536 / 65536 = 1, BSD (3 * 65536 >> 16)
	 * & ~1 = 2 -> 1; scale 0xFFFF: glibc 1 * 65535 / 65536 = 0, BSD
	 * (3 * 65535 >> 16) = 2 -> 1. */
	assert_int_equal(pc_profil_index(PC_PROFIL_GLIBC, 3, 0, 0x10000, 4), 1);
	assert_int_equal(pc_profil_index(PC_PROFIL_BSD, 3, 0, 0x10000, 4), 1);
	assert_int_equal(pc_profil_index(PC_PROFIL_GLIBC, 3, 0, 0xFFFF, 4), 0);
	assert_int_equal(pc_profil_index(PC_PROFIL_BSD, 3, 0, 0xFFFF, 4), 1);
	/* VAX rounds like the PDP-11 but ignores pc below the offset */
	assert_int_equal(pc_profil_index(PC_PROFIL_VAX, 0x104, 0x100, scale, 4), 1);
	assert_int_equal(pc_profil_index(PC_PROFIL_VAX, 0xFC, 0x100, scale, 4), PC_PROFIL_IGNORED);
}

/* ---- a PDP-11 mon.out ------------------------------------------------------ */

/* lowpc 0x100, highpc 0x180, one call slot (pc 0x10a in B, 70000 calls:
 * a PDP-11 long, high word first), 24 counters: c0..c4 = 1, 10, 100, 1000,
 * 10000, the rest 0.  big: every 16-bit word big-endian instead. */
static size_t pdp11_monout(unsigned char *b, int big)
{
	uint16_t words[3 + 3 + 24] = {0x100, 0x180, 1, 0x10a, 0x0001, 0x1170,
				      1, 10, 100, 1000, 10000};
	for (size_t i = 0; i < sizeof words / sizeof *words; i++) {
		b[2 * i + (big ? 1 : 0)] = (unsigned char)(words[i] & 0xff);
		b[2 * i + (big ? 0 : 1)] = (unsigned char)(words[i] >> 8);
	}
	return sizeof words;
}

static pc_profile *abcd(void)
{
	pc_profile *p;
	pc_profile_new(&p, NULL);
	const char *names[] = {"A", "B", "C", "D"};
	uint64_t addr[] = {0x100, 0x108, 0x10e, 0x114};
	for (int i = 0; i < 4; i++) {
		pc_symbol s = {.name = names[i], .segment = PC_NOSEG, .address = addr[i],
			       .kind = PC_SYM_TEXT};
		pc_profile_add_symbol(p, &s);
	}
	pc_region r = {PC_NOSEG, 0x100, 0x180, PC_REGION_APPLICATION, "text"};
	pc_profile_add_region(p, &r);
	return p;
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

static void pdp11_exact(void **state)
{
	(void)state;
	for (int big = 0; big < 2; big++) {
		unsigned char b[64];
		size_t n = pdp11_monout(b, big);
		pc_profile *p = abcd();
		pc_options *o = opts("profil=pdp11", big ? "endian=big" : NULL);
		assert_int_equal(pc_profile_load_memory(p, b, n, "mon.out", NULL, o), PC_OK);
		assert_string_equal(pc_profile_source_format(p, 0), "monout");
		/* counters 0,1 -> A [0x100,0x108); 2 -> B; 3 -> C; 4 -> D */
		uint64_t calls = 0;
		assert_true(count_of(p, "A", NULL) == 11);
		assert_true(count_of(p, "B", &calls) == 100);
		assert_int_equal(calls, 70000);
		assert_true(count_of(p, "C", NULL) == 1000);
		assert_true(count_of(p, "D", NULL) == 10000);
		assert_true(pc_profile_rate(p) == 60);
		/* no executable said otherwise: the file's reading is the target */
		assert_int_equal(pc_profile_target_width(p), 2);
		assert_int_equal(pc_profile_target_endian(p), big ? PC_ENDIAN_BIG : PC_ENDIAN_LITTLE);
		pc_options_free(o);
		pc_profile_free(p);
	}
}

/* The equal-bucket reading (profil=prof): 64 words / 24 counters = 2.667
 * units per bin, split by unit overlap: A [0,4) units gets bin 0 [0,2)
 * whole (1 * 2 / 2.667 = 0.75) and 2 of bin 1's [2,5) (10 * 2 / 2.667 =
 * 7.5).  It overshoots (D: 3 units of a 2.667-unit bin, 11250 of 10000
 * ticks), so a 16-bit mon.out is read with the PDP-11's exact arithmetic
 * unless profil=prof is asked for. */
static void pdp11_uniform(void **state)
{
	(void)state;
	unsigned char b[64];
	size_t n = pdp11_monout(b, 0);
	pc_profile *p = abcd();
	assert_int_equal(pc_profile_load_memory(p, b, n, "mon.out", NULL, NULL), PC_OK);
	assert_true(count_of(p, "A", NULL) == 11);
	assert_true(count_of(p, "D", NULL) == 10000);
	/* the layout was guessed: say so */
	assert_int_equal(pc_profile_warning_count(p), 1);
	assert_string_equal(pc_profile_warning_at(p, 0),
			    "mon.out: read as 16-bit pdp-endian (PDP-11), 6-byte slots mon.out, the only layout that fits (the options width, endian and slot force one)");
	pc_profile_free(p);

	p = abcd();
	pc_options *o = opts("profil=prof", NULL);
	assert_int_equal(pc_profile_load_memory(p, b, n, "mon.out", NULL, o), PC_OK);
	assert_true(fabs(count_of(p, "A", NULL) - 8.25) < 1e-9);
	assert_true(fabs(count_of(p, "D", NULL) - 11250) < 1e-9);
	pc_options_free(o);
	pc_profile_free(p);
}

/* 32-bit mon.out, both byte orders: lowpc 0x1000, highpc 0x1010, two
 * slots, 4 counters of 4 bytes each -> symbols f [0x1000,0x1008) and g. */
static size_t v7_32(unsigned char *b, pc_endian e)
{
	uint32_t words[] = {0x1000, 0x1010, 2, 0x1002, 5, 0x100a, 7};
	size_t n = 0;
	for (size_t i = 0; i < sizeof words / sizeof *words; i++, n += 4)
		for (int k = 0; k < 4; k++)
			b[n + k] = (unsigned char)(words[i] >> (e == PC_ENDIAN_BIG ? 24 - 8 * k : 8 * k));
	uint16_t c[] = {1, 2, 30, 400};
	for (size_t i = 0; i < 4; i++, n += 2) {
		b[n + (e == PC_ENDIAN_BIG)] = (unsigned char)(c[i] & 0xff);
		b[n + (e != PC_ENDIAN_BIG)] = (unsigned char)(c[i] >> 8);
	}
	return n;
}

static void v7_32bit_both_orders(void **state)
{
	(void)state;
	for (int e = PC_ENDIAN_LITTLE; e <= PC_ENDIAN_BIG; e++) {
		unsigned char b[64];
		size_t n = v7_32(b, (pc_endian)e);
		pc_profile *p;
		pc_profile_new(&p, NULL);
		pc_symbol f = {.name = "f", .segment = PC_NOSEG, .address = 0x1000, .kind = PC_SYM_TEXT};
		pc_symbol g = {.name = "g", .segment = PC_NOSEG, .address = 0x1008, .kind = PC_SYM_TEXT};
		pc_profile_add_symbol(p, &f);
		pc_profile_add_symbol(p, &g);
		pc_region r = {PC_NOSEG, 0x1000, 0x1010, PC_REGION_APPLICATION, "text"};
		pc_profile_add_region(p, &r);
		pc_profile_set_target(p, 4, (pc_endian)e); /* as an executable would */
		pc_options *o = opts("slot=8", NULL);
		assert_int_equal(pc_profile_load_memory(p, b, n, "prog.mon", NULL, o), PC_OK);
		assert_int_equal(pc_profile_warning_count(p), 0);
		uint64_t calls = 0;
		assert_true(count_of(p, "f", &calls) == 3);
		assert_int_equal(calls, 5);
		assert_true(count_of(p, "g", &calls) == 430);
		assert_int_equal(calls, 7);
		assert_true(pc_profile_rate(p) == 0); /* not recorded */
		pc_options_free(o);
		pc_profile_free(p);
	}
}

/* No executable, no options: a 32-bit big-endian file with small
 * addresses and no used slot reads as well as a 16-bit one, and
 * little-endian too (lowpc 0x10000000 < highpc 0x20000000). */
static void ambiguous_layout(void **state)
{
	(void)state;
	/* 32-bit BE: lowpc 0x10, highpc 0x20, ncnt 0, 4 counters */
	unsigned char b[] = {0, 0, 0, 0x10, 0, 0, 0, 0x20, 0, 0, 0, 0,
			     0, 1, 0, 2, 0, 3, 0, 4};
	pc_profile *p;
	pc_profile_new(&p, NULL);
	assert_int_equal(pc_profile_load_memory(p, b, sizeof b, "mon.out", NULL, NULL),
			 PC_EAMBIGUOUS);
	const pc_error *e = pc_profile_error(p);
	assert_string_equal(e->file, "mon.out");
	assert_int_equal(e->offset, 0);
	assert_string_equal(e->message,
			    "mon.out layout is ambiguous: it reads as 16-bit pdp-endian (PDP-11), 6-byte slots; 16-bit big-endian (PDP-11), 6-byte slots; 32-bit little-endian, 8-byte slots; 32-bit big-endian, 8-byte slots; choose with the options width=2|4, endian=little|big or slot=6|8|12");
	pc_profile_free(p);
	/* the option decides */
	pc_profile_new(&p, NULL);
	pc_options *o = opts("width=4", "endian=big");
	assert_int_equal(pc_profile_load_memory(p, b, sizeof b, "mon.out", NULL, o), PC_OK);
	pc_histogram h;
	assert_int_equal(pc_profile_histogram_count(p), 1);
	pc_profile_histogram_at(&h, p, 0);
	assert_int_equal(h.low, 0x10);
	assert_int_equal(h.high, 0x20);
	assert_int_equal(h.nbins, 4);
	assert_int_equal(h.counts[3], 4);
	pc_options_free(o);
	pc_profile_free(p);
}

static void malformed(void **state)
{
	(void)state;
	unsigned char b[64];
	size_t n = pdp11_monout(b, 0);
	struct {
		size_t len;
		const char *o1, *o2;
		int code;
		int64_t off;
		const char *msg;
	} cases[] = {
		{3, "width=2", "endian=little", PC_ETRUNC, 3,
		 "not a 16-bit pdp-endian (PDP-11), 6-byte slots mon.out: header (lowpc, highpc, ncnt) needs 6 bytes, the file has 3"},
		{n - 1, "width=2", "endian=little", PC_EFORMAT, 58,
		 "not a 16-bit pdp-endian (PDP-11), 6-byte slots mon.out: an odd number (47) of histogram bytes follows the call slots, expected 16-bit counters"},
		{n - 1, "width=4", NULL, PC_EFORMAT, 0,
		 "not a mon.out: in no allowed layout do lowpc < highpc, the call slots and an even number of counter bytes fit the 59-byte file"},
		{n, "width=3", NULL, PC_EUSAGE, -1,
		 "bad value '3' for option 'width' of loader monout; expected one of: 2, 4"},
		{n, "width=4", "slot=6", PC_EUSAGE, -1,
		 "no mon.out layout has 4-byte words and 6-byte slots (2-byte words go with 6-byte slots, 4-byte words with 8 or 12)"},
		{n, "profil=cray", NULL, PC_EUSAGE, -1,
		 "bad value 'cray' for option 'profil' of loader monout; expected one of: prof, pdp11, vax, ultrix, bsd, glibc"},
		/* scale 2: s = 1, byte = ((d >> 14) + 1) & ~1 is at most 2 for
		 * the 32768 words of a PDP-11: counter 2 (100 ticks, at byte 6 +
		 * 6 + 2 * 2 = 16) cannot have been hit */
		{n, "profil=pdp11", "scale=2", PC_EFORMAT, 16,
		 "counter 2 holds 100 ticks but no pc maps to it with profil=pdp11 scale=0x2 (wrong profil or scale option?)"},
	};
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
		pc_profile *p = abcd();
		pc_options *o = opts(cases[i].o1, cases[i].o2);
		int st = pc_profile_load_memory(p, b, cases[i].len, "bad.mon", "monout", o);
		assert_int_equal(st, cases[i].code);
		const pc_error *e = pc_profile_error(p);
		assert_int_equal(e->offset, cases[i].off);
		assert_string_equal(e->message, cases[i].msg);
		pc_options_free(o);
		pc_profile_free(p);
	}
}

/* A slot after an unused (zero) one, or a slot pc outside [lowpc,
 * highpc], is not what monitor() writes: that reading is refused. */
static void slots_checked(void **state)
{
	(void)state;
	unsigned char b[64];
	size_t n = pdp11_monout(b, 0);
	b[6] = 0x00;
	b[7] = 0x20; /* slot pc 0x2000 > highpc */
	pc_profile *p = abcd();
	assert_int_equal(pc_profile_load_memory(p, b, n, "mon.out", "monout", NULL), PC_EFORMAT);
	pc_profile_free(p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(pdp11_rounding_by_hand),
		cmocka_unit_test(pdp11_exact),
		cmocka_unit_test(pdp11_uniform),
		cmocka_unit_test(v7_32bit_both_orders),
		cmocka_unit_test(ambiguous_layout),
		cmocka_unit_test(malformed),
		cmocka_unit_test(slots_checked),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
