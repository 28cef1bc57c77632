/* The YAML-driven map engine: the real DOS maps of fixtures/dosmap (facts
 * from fixtures/SOURCES.md), GNU ld map and nm listings against libelf,
 * a user-written dialect, and dialect errors. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "profcore.h"
#ifdef _WIN32
#include <fcntl.h>
#include <io.h>
#include <process.h>
#endif

#ifndef PC_HAVE_YAML
#error "tests/dos/meson.build passes -DPC_HAVE_YAML=0 or 1"
#endif

static char *fixture(const char *rel)
{
	const char *root = getenv("PC_SOURCE_ROOT");
	assert_non_null(root);
	size_t n = strlen(root) + strlen(rel) + 32;
	char *s = malloc(n);
	snprintf(s, n, "%s/tests/dos/fixtures/%s", root, rel);
	return s;
}

/* Loads one fixture (format NULL = detect) with "k=v" options. */
static pc_profile *load(const char *rel, const char *format, ...)
{
	pc_profile *p;
	pc_profile_new(&p, NULL);
	pc_options *o;
	assert_int_equal(pc_options_new(&o), PC_OK);
	va_list ap;
	va_start(ap, format);
	for (const char *a; (a = va_arg(ap, const char *));)
		assert_int_equal(pc_options_parse(o, a), PC_OK);
	va_end(ap);
	char *path = fixture(rel);
	int r = pc_profile_load_file(p, path, format, o);
	if (r) {
		const pc_error *e = pc_profile_error(p);
		fail_msg("%s: %s", path, e ? e->message : "?");
	}
	free(path);
	pc_options_free(o);
	return p;
}

static int find(const pc_profile *p, const char *name, pc_symbol *out)
{
	for (size_t i = 0; i < pc_profile_symbol_count(p); i++) {
		pc_profile_symbol_at(out, p, i);
		if (strcmp(out->name, name) == 0)
			return 1;
	}
	return 0;
}

static size_t count_kind(const pc_profile *p, pc_symkind k)
{
	size_t n = 0;
	pc_symbol s;
	for (size_t i = 0; i < pc_profile_symbol_count(p); i++) {
		pc_profile_symbol_at(&s, p, i);
		n += s.kind == k;
	}
	return n;
}

/* region i: a segment of the program's, label at seg:low-high */
static void assert_seg_region(const pc_profile *p, size_t i, const char *label,
			      uint32_t seg, uint64_t low, uint64_t high)
{
	pc_region r;
	assert_int_equal(pc_profile_region_at(&r, p, i), PC_OK);
	assert_string_equal(r.label, label);
	assert_int_equal(r.segment, seg);
	assert_int_equal(r.low, low);
	assert_int_equal(r.high, high);
	assert_int_equal(r.cls, PC_REGION_APPLICATION);
}

static void assert_region(const pc_profile *p, size_t i, const char *label,
			  uint64_t low, uint64_t high)
{
	assert_seg_region(p, i, label, PC_NOSEG, low, high);
}

static void assert_sym(const pc_profile *p, const char *name, uint64_t addr,
		       pc_symkind kind)
{
	pc_symbol s;
	if (!find(p, name, &s))
		fail_msg("no symbol %s", name);
	assert_int_equal(s.segment, PC_NOSEG);
	assert_int_equal(s.address, addr);
	assert_int_equal(s.kind, kind);
}

static const char *row_name(pc_profile *p, uint64_t addr)
{
	size_t i;
	int st = pc_profile_lookup(&i, p, PC_NOSEG, addr);
	if (st == PC_ENOTFOUND)
		return NULL;
	assert_int_equal(st, PC_OK);
	pc_row r;
	assert_int_equal(pc_profile_row_at(&r, p, i), PC_OK);
	return r.name;
}

/* ---- real DOS maps -------------------------------------------------------- */

static void mslink_clkdev(void **state)
{
	(void)state;
	pc_profile *p = load("dosmap/mslink_basicdos_CLKDEV.MAP", NULL, NULL);
	assert_int_equal(pc_profile_source_count(p), 1);
	assert_string_equal(pc_profile_source_format(p, 0), "map");
	assert_int_equal(pc_profile_region_count(p), 2);
	assert_region(p, 0, "CODE", 0x0, 0x342);
	assert_region(p, 1, "DATA", 0x350, 0x360);
	assert_int_equal(pc_profile_symbol_count(p), 17);
	assert_int_equal(count_kind(p, PC_SYM_ABS), 1);
	assert_sym(p, "CMDTBL_SIZE", 0xF, PC_SYM_ABS);
	assert_sym(p, "CLOCK", 0x0, PC_SYM_TEXT);
	assert_sym(p, "DDCLK_INIT", 0x30D, PC_SYM_TEXT);
	pc_symbol s;
	find(p, "CLOCK", &s);
	assert_string_equal(s.section, "CODE");
	/* the Abs constant 0x000F is never a lookup target: CLOCK holds it */
	assert_string_equal(row_name(p, 0xF), "CLOCK");
	assert_string_equal(row_name(p, 0x12), "CMDTBL");
	/* the last public ends with the CODE segment */
	assert_string_equal(row_name(p, 0x341), "DDCLK_INIT");
	assert_null(row_name(p, 0x342));
	pc_profile_free(p);
}

static void mslink_primes_com(void **state)
{
	(void)state;
	pc_profile *p = load("dosmap/mslink_basicdos_PRIMES.MAP", NULL, NULL);
	assert_int_equal(pc_profile_region_count(p), 1);
	assert_region(p, 0, "CODE", 0x0, 0x1A1);
	assert_int_equal(pc_profile_symbol_count(p), 2);
	assert_sym(p, "MAIN", 0x100, PC_SYM_TEXT);
	assert_sym(p, "CTRLC", 0x177, PC_SYM_TEXT);
	assert_string_equal(row_name(p, 0x176), "MAIN");
	assert_string_equal(row_name(p, 0x177), "CTRLC");
	pc_profile_free(p);
}

static void mslink_gwbasic_old_layout(void **state)
{
	(void)state;
	pc_profile *p = load("dosmap/mslink_basicdos_GWBASIC.MAP", NULL, NULL);
	assert_int_equal(pc_profile_region_count(p), 2);
	assert_region(p, 0, "CSEG", 0x0, 0xC5D5);
	assert_region(p, 1, "DSEG", 0xC5E0, 0xCEA0);
	assert_int_equal(pc_profile_symbol_count(p), 1329);
	assert_int_equal(count_kind(p, PC_SYM_ABS), 310);
	/* $ARG at 0C5E:05F9 = linear 0xCBD9, inside DSEG: data */
	assert_sym(p, "$ARG", 0xCBD9, PC_SYM_DATA);
	pc_symbol s;
	find(p, "$ARG", &s);
	assert_string_equal(s.section, "DSEG");
	assert_sym(p, "$CATTY", 0x8953, PC_SYM_TEXT);
	assert_sym(p, "$ABS", 0x86, PC_SYM_ABS);
	assert_int_equal(count_kind(p, PC_SYM_TEXT) + count_kind(p, PC_SYM_DATA), 1019);
	pc_profile_free(p);
}

static void tlink_segment_only(void **state)
{
	(void)state;
	pc_profile *p = load("dosmap/tlink_smallc_MTEST.MAP", NULL, NULL);
	assert_int_equal(pc_profile_region_count(p), 9);
	assert_region(p, 0, "_TEXT", 0x0, 0x3B2B);
	assert_region(p, 4, "_CVTSEG", 0x4308, 0x4308);
	assert_region(p, 8, "_STACK", 0x4450, 0x44D0);
	/* no publics: the segments that hold a byte stand for the functions,
	 * classified by their class */
	assert_int_equal(pc_profile_symbol_count(p), 6);
	assert_sym(p, "_TEXT", 0x0, PC_SYM_TEXT);
	assert_sym(p, "_DATA", 0x3B30, PC_SYM_DATA);
	assert_sym(p, "_BSS", 0x4308, PC_SYM_BSS);
	assert_sym(p, "_STACK", 0x4450, PC_SYM_BSS);
	pc_symbol s;
	find(p, "_TEXT", &s);
	assert_int_equal(s.size, 0x3B2B);
	assert_string_equal(s.section, "_TEXT");
	assert_string_equal(row_name(p, 0x3B2A), "_TEXT");
	assert_null(row_name(p, 0x3B2B));
	assert_null(row_name(p, 0x3B40)); /* _DATA: no code */
	pc_profile_free(p);

	p = load("dosmap/tlink_proboard_TEST.MAP", NULL, NULL);
	assert_int_equal(pc_profile_region_count(p), 27);
	/* byte-aligned code segment */
	assert_region(p, 1, "TEST_TEXT", 0x1AF3, 0x1B31);
	assert_region(p, 14, "_OVERLAY_", 0x4C70, 0x4C70);
	/* 19 segments hold a byte, 12 of them code (_TEXT and one per module) */
	assert_int_equal(pc_profile_symbol_count(p), 19);
	assert_int_equal(count_kind(p, PC_SYM_TEXT), 12);
	assert_sym(p, "TEST_TEXT", 0x1AF3, PC_SYM_TEXT);
	assert_string_equal(row_name(p, 0x1B30), "TEST_TEXT");
	assert_string_equal(row_name(p, 0x1B31), "MISC_TEXT");
	pc_profile_free(p);
}

static void wlink_dos16(void **state)
{
	(void)state;
	pc_profile *p = load("dosmap/wlink_ifknot_test.map", NULL, NULL);
	assert_int_equal(pc_profile_region_count(p), 195);
	assert_region(p, 4, "main_TEXT", 0xA00, 0xE5B);
	assert_int_equal(pc_profile_symbol_count(p), 373);
	assert_sym(p, "main_", 0xA00, PC_SYM_TEXT);
	/* unmarked 8087 emulator constants are absolute */
	assert_int_equal(count_kind(p, PC_SYM_ABS), 9);
	assert_sym(p, "FIERQQ", 0x1632, PC_SYM_ABS);
	assert_sym(p, "FJARQQ", 0x4000, PC_SYM_ABS);
	/* names with spaces, after the one-character marker */
	assert_sym(p, "void __far mode4::plot( short unsigned, short unsigned, cga::colour_t )",
		   0x330, PC_SYM_TEXT);
	/* a DGROUP symbol: 0da1:21da lies in _BSS (0f83:0000, 0x3bc bytes) */
	assert_sym(p, "__doserrno", 0xDA10 + 0x21DA, PC_SYM_BSS);
	pc_symbol s;
	find(p, "__doserrno", &s);
	assert_string_equal(s.section, "_BSS");
	assert_string_equal(s.file, "C:\\WATCOM\\lib286\\dos\\clibl.lib(doserrno.c)");
	find(p, "main_", &s);
	assert_string_equal(s.file, "main.obj(C:\\Users\\ifkno\\DOSBOX\\DOS16\\CODE\\main.cpp)");
	assert_string_equal(s.section, "main_TEXT");
	/* 0000:1632 lies inside _TEXT but FIERQQ is never the answer */
	const char *n = row_name(p, 0x1632);
	assert_non_null(n);
	assert_string_not_equal(n, "FIERQQ");
	pc_profile_free(p);
}

/* 32-bit DOS/4G WLINK: object:offset addresses keep the object number as
 * the segment (rows in the style of WATCOM 10.0's ROTT.MAP, quoted in the
 * research notes; the file itself is not redistributable). */
static void wlink_dos4g(void **state)
{
	(void)state;
	static const char map[] =
		"WATCOM Linker Version 10.0\n"
		"Copyright by WATCOM International Corp. 1985, 1994. All rights reserved.\n"
		"\n"
		"                        +--------------+\n"
		"                        |   Segments   |\n"
		"                        +--------------+\n"
		"\n"
		"Segment                Class          Group          Address         Size\n"
		"=======                =====          =====          =======         ====\n"
		"\n"
		"BEGTEXT                CODE           AUTO           0001:00000000   00000010\n"
		"_TEXT                  CODE           AUTO           0001:00000010   000655ac\n"
		"_DATA                  DATA           DGROUP         0004:00000000   00050000\n"
		"\n"
		"                        +----------------+\n"
		"                        |   Memory Map   |\n"
		"                        +----------------+\n"
		"\n"
		"* = unreferenced symbol\n"
		"+ = symbol only referenced locally\n"
		"\n"
		"Address        Symbol\n"
		"=======        ======\n"
		"\n"
		"Module: rt_main.obj(rt_main.c)\n"
		"0001:00000010  main_\n"
		"0004:000459f0* _gametime\n"
		"\n"
		"Entry point address: 0001:000655bc\n";
	pc_profile *p;
	pc_profile_new(&p, NULL);
	assert_int_equal(pc_profile_load_memory(p, map, sizeof map - 1, "ROTT.MAP", NULL, NULL),
			 PC_OK);
	assert_int_equal(pc_profile_region_count(p), 3);
	pc_region r;
	pc_profile_region_at(&r, p, 2);
	assert_int_equal(r.segment, 4);
	assert_int_equal(r.low, 0);
	assert_int_equal(r.high, 0x50000);
	assert_int_equal(pc_profile_symbol_count(p), 2);
	pc_symbol s;
	assert_true(find(p, "main_", &s));
	assert_int_equal(s.segment, 1);
	assert_int_equal(s.address, 0x10);
	assert_int_equal(s.kind, PC_SYM_TEXT);
	assert_string_equal(s.section, "_TEXT");
	assert_true(find(p, "_gametime", &s));
	assert_int_equal(s.segment, 4);
	assert_int_equal(s.address, 0x459f0);
	assert_int_equal(s.kind, PC_SYM_DATA);
	/* lookups are per object */
	size_t i;
	assert_int_equal(pc_profile_lookup(&i, p, 1, 0x20), PC_OK);
	assert_int_equal(pc_profile_lookup(&i, p, PC_NOSEG, 0x20),
			 PC_ENOTFOUND);
	pc_profile_free(p);
}

static void load_address(void **state)
{
	(void)state;
	pc_profile *p = load("dosmap/mslink_basicdos_CLKDEV.MAP", NULL,
			     "load-address=0x1000", NULL);
	assert_region(p, 0, "CODE", 0x10000, 0x10342);
	assert_sym(p, "CLOCK", 0x10000, PC_SYM_TEXT);
	assert_sym(p, "DDCLK_INIT", 0x1030D, PC_SYM_TEXT);
	/* a constant is not moved */
	assert_sym(p, "CMDTBL_SIZE", 0xF, PC_SYM_ABS);
	pc_profile_free(p);
}

/* TLINK with /s /m: the excerpt of WOLF3D.MAP quoted in the research notes
 * (the file itself may not be redistributed). */
static void tlink_publics(void **state)
{
	(void)state;
	static const char map[] =
		"\r\n Start  Stop   Length Name               Class\r\n\r\n"
		" 00000H 044BBH 044BCH _TEXT              CODE\r\n"
		" 048FBH 060ABH 017B1H WL_MAIN_TEXT       CODE\r\n"
		" 3A390H 3A390H 00000H _OVERLAY_          OVRINFO\r\n\r\n"
		"Detailed map of segments\r\n\r\n"
		" 0000:0000 02B2 C=CODE   S=_TEXT          G=(none)  M=C0.ASM     ACBP=28\r\n"
		" 048F:000B 17B1 C=CODE   S=WL_MAIN_TEXT   G=(none)  M=WL_MAIN.C  ACBP=28\r\n\r\n"
		"  Address         Publics by Name\r\n\r\n"
		" 3A39:0000 idle  DATASEG@\r\n"
		" 0000:5C32  Abs  FIDRQQ\r\n"
		" 048F:179C       _main\r\n\r\n"
		"Program entry point at 0000:0000\r\n";
	pc_profile *p;
	pc_profile_new(&p, NULL);
	assert_int_equal(pc_profile_load_memory(p, map, sizeof map - 1, "WOLF.MAP", NULL, NULL),
			 PC_OK);
	assert_int_equal(pc_profile_region_count(p), 3);
	assert_region(p, 1, "WL_MAIN_TEXT", 0x48FB, 0x60AC);
	assert_int_equal(pc_profile_symbol_count(p), 3);
	assert_sym(p, "DATASEG@", 0x3A390, PC_SYM_TEXT);
	assert_sym(p, "FIDRQQ", 0x5C32, PC_SYM_ABS);
	assert_sym(p, "_main", 0x608C, PC_SYM_TEXT);
	pc_symbol s;
	find(p, "_main", &s);
	assert_string_equal(s.section, "WL_MAIN_TEXT");
	pc_profile_free(p);
}

/* Code segments are decided by class (docs/dos.md ("MS-DOS maps and PROFIL")).
 * Lattice C names its code segment PROG, class PROG, in group PGROUP (S
 * model; _PROG in the L model), as its C.ASM shows ("PGROUP GROUP PROG",
 * "PROG SEGMENT BYTE PUBLIC 'PROG'", DGROUP = DATA, UDATA, XSTACK).  No
 * Lattice map survives in public repositories, so this one is written in
 * MS LINK's layout (fixtures/dosmap/mslink_basicdos_CLKDEV.MAP) from those
 * segment definitions.  QuickBASIC's BC_CODE and GW-BASIC's CODESG
 * (mslink_basicdos_GWBASIC.MAP) are code too. */
static const char lattice_map[] =
	"\r\n"
	" Start  Stop   Length Name                   Class\r\n"
	" 00000H 0153FH 01540H PROG                   PROG\r\n"
	" 01540H 0159FH 00060H MAIN_CODE              BC_CODE\r\n"
	" 015A0H 0161FH 00080H _PROG                  PROG\r\n"
	" 01620H 016FFH 000E0H DATA                   DATA\r\n"
	" 01700H 017FFH 00100H UDATA                  DATA\r\n"
	" 01800H 01FFFH 00800H XSTACK                 STACK\r\n"
	"\r\n"
	" Origin   Group\r\n"
	" 0000:0   PGROUP\r\n"
	" 0162:0   DGROUP\r\n"
	"\r\n"
	"  Address         Publics by Name\r\n"
	"\r\n"
	" 0000:0000       CXINIT\r\n"
	" 0162:0002       _DOS\r\n"
	" 0000:0130       _MAIN\r\n"
	" 0162:00E0       _PSIZE\r\n"
	" 0154:0000       BCMAIN\r\n"
	" 015A:0010       FARFN\r\n"
	" 0000:0800       RBRK\r\n"
	"\r\n"
	"  Address         Publics by Value\r\n"
	"\r\n"
	" 0000:0000       CXINIT\r\n"
	" 0000:0130       _MAIN\r\n"
	" 0000:0800       RBRK\r\n"
	" 0154:0000       BCMAIN\r\n"
	" 015A:0010       FARFN\r\n"
	" 0162:0002       _DOS\r\n"
	" 0162:00E0       _PSIZE\r\n"
	"\r\n"
	"Program entry point at 0000:0000\r\n";

static void mslink_code_classes(void **state)
{
	(void)state;
	pc_profile *p;
	pc_profile_new(&p, NULL);
	assert_int_equal(pc_profile_load_memory(p, lattice_map, sizeof lattice_map - 1,
						"LC.MAP", NULL, NULL),
			 PC_OK);
	assert_int_equal(pc_profile_region_count(p), 6);
	assert_int_equal(pc_profile_symbol_count(p), 7);
	assert_sym(p, "CXINIT", 0x0, PC_SYM_TEXT);
	assert_sym(p, "_MAIN", 0x130, PC_SYM_TEXT);
	assert_sym(p, "RBRK", 0x800, PC_SYM_TEXT);
	assert_sym(p, "BCMAIN", 0x1540, PC_SYM_TEXT);
	assert_sym(p, "FARFN", 0x15B0, PC_SYM_TEXT);
	assert_sym(p, "_DOS", 0x1622, PC_SYM_DATA);
	assert_sym(p, "_PSIZE", 0x1700, PC_SYM_DATA);
	assert_int_equal(count_kind(p, PC_SYM_TEXT), 5);
	/* samples in PROG are attributed (they were not: every public was
	 * data); a sample in DATA is no function's */
	assert_string_equal(row_name(p, 0x0), "CXINIT");
	assert_string_equal(row_name(p, 0x200), "_MAIN");
	assert_string_equal(row_name(p, 0x153F), "RBRK");
	assert_string_equal(row_name(p, 0x1550), "BCMAIN");
	assert_string_equal(row_name(p, 0x1610), "FARFN");
	assert_null(row_name(p, 0x1624));
	pc_profile_free(p);

	/* the same map read as TLINK's: the same classes */
	pc_options *o;
	assert_int_equal(pc_options_new(&o), PC_OK);
	pc_options_parse(o, "dialect=tlink");
	pc_profile_new(&p, NULL);
	assert_int_equal(pc_profile_load_memory(p, lattice_map, sizeof lattice_map - 1,
						"LC.MAP", "map", o),
			 PC_OK);
	assert_int_equal(count_kind(p, PC_SYM_TEXT), 5);
	assert_string_equal(row_name(p, 0x200), "_MAIN");
	pc_profile_free(p);
	pc_options_free(o);
}

/* A segment with no class: its name decides (PRIMES.MAP's classless CODE
 * is code); a class that says data wins over a code-like name. */
static void mslink_classless_segments(void **state)
{
	(void)state;
	static const char map[] =
		"\n Start  Stop   Length Name                   Class\n"
		" 00000H 0001FH 00020H CODE                   \n"
		" 00020H 0003FH 00020H _DATA                  \n"
		" 00040H 0005FH 00020H _BSS                   \n"
		" 00060H 0007FH 00020H _TEXTDATA              FAR_DATA\n"
		"\n  Address         Publics by Value\n\n"
		" 0000:0000       START\n"
		" 0002:0000       TABLE\n"
		" 0004:0000       BUFFER\n"
		" 0006:0000       FARTAB\n";
	pc_profile *p;
	pc_profile_new(&p, NULL);
	assert_int_equal(pc_profile_load_memory(p, map, sizeof map - 1, "C.MAP", NULL, NULL),
			 PC_OK);
	assert_sym(p, "START", 0x0, PC_SYM_TEXT);
	assert_sym(p, "TABLE", 0x20, PC_SYM_DATA);
	assert_sym(p, "BUFFER", 0x40, PC_SYM_BSS);
	assert_sym(p, "FARTAB", 0x60, PC_SYM_DATA);
	pc_profile_free(p);
}

/* WLINK segments whose Class (and Group) column is empty, as WATCOM
 * Linker 10.0 lists them in videogamepreservation/rott rott/ROTT.MAP
 * (commit 6ab87f2e96d7b57ce81fe0ccfcae2c2ad48ff7e4, GPL-2.0-or-later; rows
 * reproduced in its column layout, names shortened).  The segment table
 * used to end at the first such row, leaving every later segment out
 * and every symbol after it code. */
static void wlink_empty_class(void **state)
{
	(void)state;
	static const char map[] =
		"WATCOM Linker Version 10.0\r\n"
		"creating a DOS/4G executable\r\n"
		"\r\n"
		"                        +--------------+\r\n"
		"                        |   Segments   |\r\n"
		"                        +--------------+\r\n"
		"\r\n"
		"Segment                Class          Group          Address         Size\r\n"
		"=======                =====          =====          =======         ====\r\n"
		"\r\n"
		"BEGTEXT                CODE                          0001:00000000   00000010\r\n"
		"_TEXT                  CODE                          0001:00000010   000875cc\r\n"
		"TEXT                                                 0003:00000000   000003ab\r\n"
		"TEXT                                                 0003:000003b0   0000045e\r\n"
		"gf1init11_DATA         FAR_DATA                      0003:00000caf   00000000\r\n"
		"_NOCLASS                              DGROUP         0004:00000000   00000004\r\n"
		"CONST                  DATA           DGROUP         0004:00000004   0000ecd4\r\n"
		"_BSS                   BSS            DGROUP         0004:00029870   00059e50\r\n"
		"STACK                  STACK          DGROUP         0004:000836c0   00014000\r\n"
		"\r\n"
		"\r\n"
		"                        +----------------+\r\n"
		"                        |   Memory Map   |\r\n"
		"                        +----------------+\r\n"
		"\r\n"
		"* = unreferenced symbol\r\n"
		"+ = symbol only referenced locally\r\n"
		"\r\n"
		"Address        Symbol\r\n"
		"=======        ======\r\n"
		"\r\n"
		"Module: rt_main.obj(rt_main.c)\r\n"
		"0001:00000010  main_\r\n"
		"0003:000003b0  GF1_Init_\r\n"
		"0004:00000002  _nullptr\r\n"
		"0004:00000010  _sintable\r\n"
		"0004:00029870* _gametime\r\n"
		"\r\n";
	pc_profile *p;
	pc_profile_new(&p, NULL);
	assert_int_equal(pc_profile_load_memory(p, map, sizeof map - 1, "ROTT.MAP", NULL, NULL),
			 PC_OK);
	assert_int_equal(pc_profile_region_count(p), 9);
	pc_region r;
	pc_profile_region_at(&r, p, 8);
	assert_string_equal(r.label, "STACK");
	assert_int_equal(r.segment, 4);
	assert_int_equal(r.low, 0x836c0);
	pc_symbol s;
	static const struct {
		const char *name;
		pc_symkind kind;
		const char *section;
	} want[] = {{"main_", PC_SYM_TEXT, "_TEXT"},
		    {"GF1_Init_", PC_SYM_TEXT, "TEXT"},
		    {"_nullptr", PC_SYM_TEXT, "_NOCLASS"},
		    {"_sintable", PC_SYM_DATA, "CONST"},
		    {"_gametime", PC_SYM_BSS, "_BSS"}};
	for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
		assert_true(find(p, want[i].name, &s));
		assert_int_equal(s.kind, want[i].kind);
		assert_string_equal(s.section, want[i].section);
	}
	pc_profile_free(p);
}

/* ---- GNU ld map, nm, nm -S and libelf agree ------------------------------- */

static void gnu_three_way(void **state)
{
	(void)state;
	pc_profile *elf = load("gnumap/prog", "elf", NULL);
	pc_profile *map = load("gnumap/prog.map", NULL, NULL);
	pc_profile *nm = load("gnumap/prog.nm.txt", NULL, NULL);
	pc_profile *nms = load("gnumap/prog.nm-S.txt", NULL, NULL);
	pc_profile *nmp = load("gnumap/prog.nm-P.txt", NULL, NULL);

	static const struct {
		const char *name;
		uint64_t addr, size;
	} fn[] = {{"fill_table", 0x118c, 0x4c}, {"sum_table", 0x11d8, 0x44},
		  {"hot_loop", 0x121c, 0x51},   {"fib", 0x126d, 0x3d},
		  {"hash_many", 0x12aa, 0x4d},  {"sort_small", 0x12f7, 0xca},
		  {"sorted_median", 0x13c1, 0x63}, {"cold_path", 0x1424, 0x39},
		  {"main", 0x145d, 0x101},      {"_start", 0x1070, 0x22}};
	pc_symbol a, b, c, d;
	for (size_t i = 0; i < sizeof fn / sizeof fn[0]; i++) {
		assert_true(find(elf, fn[i].name, &a));
		assert_true(find(map, fn[i].name, &b));
		assert_true(find(nm, fn[i].name, &c));
		assert_true(find(nms, fn[i].name, &d));
		pc_symbol e;
		assert_true(find(nmp, fn[i].name, &e));
		assert_int_equal(e.address, fn[i].addr);
		assert_int_equal(e.size, fn[i].size);
		assert_int_equal(e.kind, PC_SYM_TEXT);
		assert_int_equal(a.address, fn[i].addr);
		assert_int_equal(b.address, fn[i].addr);
		assert_int_equal(c.address, fn[i].addr);
		assert_int_equal(d.address, fn[i].addr);
		assert_int_equal(b.kind, PC_SYM_TEXT);
		assert_int_equal(c.kind, PC_SYM_TEXT);
		assert_int_equal(a.size, fn[i].size);
		assert_int_equal(d.size, fn[i].size);
	}
	/* every text symbol of one source that the other lists has the same
	 * address there */
	size_t agree_map = 0, agree_nm = 0;
	for (size_t i = 0; i < pc_profile_symbol_count(elf); i++) {
		pc_profile_symbol_at(&a, elf, i);
		if (a.kind != PC_SYM_TEXT)
			continue;
		if (find(map, a.name, &b)) {
			assert_int_equal(b.address, a.address);
			assert_int_equal(b.kind, PC_SYM_TEXT);
			agree_map++;
		}
		assert_true(find(nm, a.name, &c)); /* nm lists statics too */
		assert_int_equal(c.address, a.address);
		assert_int_equal(c.kind, PC_SYM_TEXT);
		agree_nm++;
	}
	assert_int_equal(agree_map, 12); /* _init, _start, the 9, _fini */
	assert_int_equal(agree_nm, 17);
	/* the static function is in nm (local) but not in the map */
	assert_true(find(nm, "mix", &c));
	assert_int_equal(c.binding, PC_BIND_LOCAL);
	assert_false(find(map, "mix", &b));
	/* map: symbols take their output section; code sections are regions */
	assert_true(find(map, "hot_loop", &b));
	assert_string_equal(b.section, ".text");
	assert_string_equal(b.file, "prog.o");
	assert_true(find(map, "g_table", &b));
	assert_int_equal(b.kind, PC_SYM_BSS);
	assert_true(find(map, "g_iterations", &b));
	assert_int_equal(b.kind, PC_SYM_DATA);
	assert_int_equal(pc_profile_region_count(map), 5);
	pc_region r;
	pc_profile_region_at(&r, map, 3);
	assert_string_equal(r.label, ".text");
	assert_int_equal(r.low, 0x1070);
	assert_int_equal(r.high, 0x1070 + 0x4ee);
	assert_int_equal(pc_profile_symbol_count(map), 26);
	assert_int_equal(pc_profile_symbol_count(nm), 37);
	pc_profile_free(elf);
	pc_profile_free(map);
	pc_profile_free(nm);
	pc_profile_free(nms);
	assert_int_equal(pc_profile_symbol_count(nmp), 37);
	assert_true(find(nmp, "mix", &c));
	assert_int_equal(c.binding, PC_BIND_LOCAL);
	pc_profile_free(nmp);
}

static void gnu_nopie_and_load_base(void **state)
{
	(void)state;
	pc_profile *map = load("gnumap/prog-nopie.map", NULL, NULL);
	pc_profile *nm = load("gnumap/prog-nopie.nm.txt", NULL, NULL);
	pc_profile *elf = load("gnumap/prog-nopie", "elf", NULL);
	pc_symbol a, b, c;
	assert_true(find(map, "hot_loop", &a));
	assert_true(find(nm, "hot_loop", &b));
	assert_true(find(elf, "hot_loop", &c));
	assert_int_equal(a.address, 0x401209);
	assert_int_equal(b.address, 0x401209);
	assert_int_equal(c.address, 0x401209);
	assert_true(find(map, "printf@@GLIBC_2.2.5", &a));
	assert_int_equal(a.address, 0x401030);
	assert_int_equal(a.kind, PC_SYM_TEXT);
	pc_profile_free(map);
	pc_profile_free(nm);
	pc_profile_free(elf);
	/* a PIE map plus the run-time load base (flat dialects: bytes) */
	map = load("gnumap/prog.map", NULL, "load-address=0x555555554000", NULL);
	assert_true(find(map, "hot_loop", &a));
	assert_int_equal(a.address, 0x555555554000 + 0x121c);
	pc_profile_free(map);
}

/* ---- user dialects ---------------------------------------------------------- */

static char *write_temp(const char *suffix, const char *text)
{
	char *path = malloc(64);
#ifdef _WIN32
	/* no mkstemps: a name of this process's own in the current directory */
	static int seq;
	snprintf(path, 64, "pcdos%d-%d%s", (int)_getpid(), seq++, suffix);
	int fd = _open(path, _O_CREAT | _O_EXCL | _O_WRONLY | _O_BINARY, 0600);
#else
	snprintf(path, 64, "/tmp/pcdosXXXXXX%s", suffix);
	int fd = mkstemps(path, (int)strlen(suffix));
#endif
	assert_true(fd >= 0);
	assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
	return path;
}

/* An invented linker ("ACME LINK-86") read with no C change. */
static const char acme_dialect[] =
	"# ACME LINK-86 symbol listings\n"
	"profcore-dialect: 1\n"
	"name: acme\n"
	"description: ACME LINK-86 map\n"
	"address: decimal\n"
	"numbers: decimal\n"
	"load-unit: 16\n"
	"detect:\n"
	"  any: ['^\\*\\*\\* ACME LINK-86']\n"
	"sections:\n"
	"  - name: segments\n"
	"    begin: '^SEGMENTS$'\n"
	"    end-at-blank: true\n"
	"    rows:\n"
	"      - match: '^(?P<name>\\w+) +(?P<class>\\w+) +(?P<start>\\d+)-(?P<stop>\\d+)$'\n"
	"        emit: region\n"
	"  - name: symbols\n"
	"    begin: '^NAME +ADDR +T$'\n"
	"    end: '^END OF TABLE'\n"
	"    other: error\n"
	"    skip: ['^-+$']\n"
	"    rows:\n"
	"      - match: '^MODULE (?P<module>.+)$'\n"
	"        emit: context\n"
	"      - columns: {name: [0, 16], address: [16, 23], type: [23, 24]}\n"
	"symbols:\n"
	"  - type: '^E$'\n"
	"    kind: abs\n"
	"  - class: '^DATA$'\n"
	"    kind: data\n"
	"  - type: '^L$'\n"
	"    kind: text\n"
	"    binding: local\n";

static const char acme_map[] =
	"*** ACME LINK-86 v2.1 ***\n"
	"\n"
	"SEGMENTS\n"
	"CODE   CODE   0-1023\n"
	"DATA   DATA   1024-1279\n"
	"\n"
	"NAME            ADDR   T\n"
	"----------------------\n"
	"MODULE main.obj\n"
	"start           00016  G\n"
	"compute         00256  L\n"
	"MODULE tables.obj\n"
	"table           01028  G\n"
	"LIMIT           00255  E\n"
	"END OF TABLE\n";

static void user_dialect(void **state)
{
	(void)state;
	char *yaml = write_temp(".yaml", acme_dialect);
	char *mapf = write_temp(".map", acme_map);
	char opt[128];
	snprintf(opt, sizeof opt, "dialect=%s", yaml);
	pc_options *o;
	assert_int_equal(pc_options_new(&o), PC_OK);
	pc_options_parse(o, opt);
	pc_options_parse(o, "load-address=0x10");
	/* a user dialect is used by the map loader, named with --format map */
	pc_profile *p;
	pc_profile_new(&p, NULL);
	assert_int_equal(pc_profile_load_file(p, mapf, "map", o), PC_OK);
	assert_int_equal(pc_profile_region_count(p), 2);
	assert_region(p, 0, "CODE", 256, 256 + 1024);
	assert_region(p, 1, "DATA", 256 + 1024, 256 + 1280);
	assert_int_equal(pc_profile_symbol_count(p), 4);
	assert_sym(p, "start", 256 + 16, PC_SYM_TEXT);
	assert_sym(p, "compute", 256 + 256, PC_SYM_TEXT);
	assert_sym(p, "table", 256 + 1028, PC_SYM_DATA);
	assert_sym(p, "LIMIT", 255, PC_SYM_ABS);
	pc_symbol s;
	find(p, "compute", &s);
	assert_int_equal(s.binding, PC_BIND_LOCAL);
	assert_string_equal(s.file, "main.obj");
	assert_string_equal(s.section, "CODE");
	find(p, "table", &s);
	assert_string_equal(s.file, "tables.obj");
	pc_profile_free(p);

	/* user dialects are not used for detection */
	pc_profile_new(&p, NULL);
	assert_int_equal(pc_profile_load_file(p, mapf, NULL, NULL), PC_EUNKNOWN);
	pc_profile_free(p);
	/* but the map loader named explicitly says why */
	pc_profile_new(&p, NULL);
	assert_int_equal(pc_profile_load_file(p, mapf, "map", NULL), PC_EUNKNOWN);
	assert_string_equal(pc_profile_error(p)->message,
			    "no built-in map dialect recognises this file; name one with the option dialect=NAME or dialect=FILE.yaml");
	pc_profile_free(p);

	/* a line the section cannot read: other: error */
	unlink(mapf);
	free(mapf);
	mapf = write_temp(".map", "*** ACME LINK-86\n"
				  "NAME            ADDR   T\n"
				  "start           00016  G\n"
				  "start?\033[2J     0x010  G\n");
	pc_profile_new(&p, NULL);
	assert_int_equal(pc_profile_load_file(p, mapf, "map", o), PC_EFORMAT);
	const pc_error *e = pc_profile_error(p);
	assert_int_equal(e->offset, 67);
	assert_string_equal(e->message,
			    "expected a row of section 'symbols' (dialect acme), found \"start??[2J     0x010  G\"");
	pc_profile_free(p);
	pc_options_free(o);
	unlink(mapf);
	unlink(yaml);
	free(mapf);
	free(yaml);
}

/* An `emit: error` row: a line shaped like a symbol whose address does
 * not parse stops the load with its offset, instead of being skipped. */
static void error_row(void **state)
{
	(void)state;
	char *yaml = write_temp(".yaml", "profcore-dialect: 1\n"
					 "name: damage\n"
					 "rows:\n"
					 "  - match: '^(?P<name>[a-z]+) +(?P<address>[0-9A-F]{4})$'\n"
					 "  - match: '^[a-z]+ +[^ ]+$'\n"
					 "    emit: error\n");
	char *mapf = write_temp(".map", "alpha 0010\nbeta 0020\n\nnote: two symbols\ngamma 00G0\n");
	char opt[128];
	snprintf(opt, sizeof opt, "dialect=%s", yaml);
	pc_options *o;
	assert_int_equal(pc_options_new(&o), PC_OK);
	pc_options_parse(o, opt);
	pc_profile *p;
	pc_profile_new(&p, NULL);
	assert_int_equal(pc_profile_load_file(p, mapf, "map", o), PC_EFORMAT);
	const pc_error *e = pc_profile_error(p);
	assert_int_equal(e->offset, 40);
	assert_string_equal(e->message,
			    "damaged row of the file (dialect damage), found \"gamma 00G0\"");
	pc_profile_free(p);
	/* the same file without the damaged line loads both symbols */
	unlink(mapf);
	free(mapf);
	mapf = write_temp(".map", "alpha 0010\nbeta 0020\n\nnote: two symbols\n");
	pc_profile_new(&p, NULL);
	assert_int_equal(pc_profile_load_file(p, mapf, "map", o), PC_OK);
	assert_int_equal(pc_profile_symbol_count(p), 2);
	assert_sym(p, "beta", 0x20, PC_SYM_TEXT);
	pc_profile_free(p);
	pc_options_free(o);
	unlink(mapf);
	unlink(yaml);
	free(mapf);
	free(yaml);
}

/* Loads CLKDEV.MAP with a dialect made of text; returns the message. */
static char *dialect_error(const char *text, int want)
{
	char *yaml = write_temp(".yaml", text);
	char opt[128];
	snprintf(opt, sizeof opt, "dialect=%s", yaml);
	pc_options *o;
	assert_int_equal(pc_options_new(&o), PC_OK);
	pc_options_parse(o, opt);
	pc_profile *p;
	pc_profile_new(&p, NULL);
	char *map = fixture("dosmap/mslink_basicdos_CLKDEV.MAP");
	assert_int_equal(pc_profile_load_file(p, map, NULL, o), want);
	const pc_error *e = pc_profile_error(p);
	/* strip the temporary name: "dialect /tmp/pcdosXXXXXX.yaml:" */
	const char *m = e->message;
	const char *colon = strstr(m, ".yaml:");
	size_t keep = strlen("dialect ");
	char *out = malloc(strlen(m) + 16);
	if (strncmp(m, "dialect ", keep) == 0 && colon)
		snprintf(out, strlen(m) + 16, "dialect D.yaml:%s", colon + 6);
	else
		snprintf(out, strlen(m) + 16, "%s", m);
	assert_string_equal(e->file, map);
	free(map);
	pc_profile_free(p);
	pc_options_free(o);
	unlink(yaml);
	free(yaml);
	return out;
}

#define ERR_IS(text, msg)                                                 \
	do {                                                              \
		char *m_ = dialect_error(text, PC_EUSAGE);                \
		assert_string_equal(m_, msg);                             \
		free(m_);                                                 \
	} while (0)

static void dialect_errors(void **state)
{
	(void)state;
	ERR_IS("profcore-dialect: 1\nname: x\nsectoins: []\n",
	       "dialect D.yaml:3:1: key 'sectoins': unknown key");
	ERR_IS("name: x\nrows: []\n",
	       "dialect D.yaml:1:1: key 'profcore-dialect': missing (the schema version, 1, must be given first)");
	ERR_IS("profcore-dialect: 2\nname: x\n",
	       "dialect D.yaml:1:19: key 'profcore-dialect': expected a number from 1 to 1, found '2'");
	ERR_IS("profcore-dialect: 1\nname: x\nsections:\n  - begin: '(['\n    rows: []\n",
	       "dialect D.yaml:4:12: key 'sections[0].begin': invalid regular expression: unterminated bracket expression");
	ERR_IS("profcore-dialect: 1\nname: x\nrows:\n  - match: '(?P<nmae>.*)'\n",
	       "dialect D.yaml:4:12: key 'rows[0].match': invalid regular expression: unknown group name (known: name address segment offset start stop end size length class type marker file module section line input)");
	ERR_IS("profcore-dialect: 1\nname: x\nrows:\n  - match: '^(?P<name>.*)$'\n",
	       "dialect D.yaml:4:5: key 'rows[0]': a symbol row needs an 'address' field (or 'segment' and 'offset')");
	ERR_IS("profcore-dialect: 1\nname: x\nrows:\n  - match: 'x'\n    emit: symbols\n",
	       "dialect D.yaml:5:11: key 'rows[0].emit': 'symbols' is not one of: symbol, region, context, skip, error, lines, entry");
	/* line numbers (MS LINK /LINENUMBERS): a lines row, a begin's groups */
	ERR_IS("profcore-dialect: 1\nname: x\nrows:\n  - match: '(?P<address>[0-9]+)'\n    emit: lines\n",
	       "dialect D.yaml:4:5: key 'rows[0]': a lines row needs a 'line' field and an 'address' field (or 'segment' and 'offset')");
	ERR_IS("profcore-dialect: 1\nname: x\nsections:\n  - begin: '^L (?P<name>x)'\n    rows:\n      - match: '^(?P<name>.*) (?P<address>.*)$'\n",
	       "dialect D.yaml:4:12: key 'sections[0].begin': a section's 'begin' may name only the groups 'file' and 'section' (the context of its rows)");
	ERR_IS("profcore-dialect: 1\nname: x\nrows:\n  - columns: {name: [5, 2]}\n",
	       "dialect D.yaml:4:25: key 'rows[0].columns.name': expected a number from 6 to 65536, found '2'");
	ERR_IS("profcore-dialect: 1\nname: x\nrows: []\n",
	       "dialect D.yaml:1:1: key 'rows': the dialect has no rows (top-level or in a section)");
	ERR_IS("profcore-dialect: 1\nname: x\nrows: [{match: x, emit: skip}]\nsymbols:\n  - kind: abs\n",
	       "dialect D.yaml:5:5: key 'symbols[0]': a rule needs a condition (name, marker, type, class, section, file or input)");
	ERR_IS("profcore-dialect: 1\nname: x\nname: y\n",
	       "dialect D.yaml:3:1: key 'name': key given twice");
	/* YAML-level protections: aliases (billion laughs), depth, syntax */
	ERR_IS("profcore-dialect: 1\nname: x\na: &a [1, 2]\nb: [*a, *a]\n",
	       "dialect D.yaml:4:5: aliases are not allowed in a dialect");
	ERR_IS("profcore-dialect: 1\nname: [[[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]]]\n",
	       "dialect D.yaml:2:22: nested deeper than 16 levels");
	ERR_IS("profcore-dialect: 1\nname: 'x\n",
	       "dialect D.yaml:3:1: found unexpected end of stream while scanning a quoted scalar");
	ERR_IS("profcore-dialect: 1\n---\nname: x\n",
	       "dialect D.yaml:2:1: only one YAML document is allowed");
}

static void dialect_names(void **state)
{
	(void)state;
	/* a built-in dialect by name overrides detection */
	pc_profile *p = load("dosmap/mslink_basicdos_CLKDEV.MAP", "map", "dialect=tlink", NULL);
	assert_int_equal(pc_profile_symbol_count(p), 17);
	pc_profile_free(p);
	pc_profile_new(&p, NULL);
	pc_options *o;
	assert_int_equal(pc_options_new(&o), PC_OK);
	pc_options_parse(o, "dialect=lattice");
	char *map = fixture("dosmap/mslink_basicdos_CLKDEV.MAP");
	assert_int_equal(pc_profile_load_file(p, map, NULL, o), PC_ENOTFOUND);
	assert_string_equal(pc_profile_error(p)->message,
			    PC_HAVE_YAML
				    ? "no map dialect 'lattice' (built-in: gnu-ld, ld65, mslink, nm-posix, nm, optlink, tlink, wlink; or give FILE.yaml)"
				    : "no map dialect 'lattice' (built-in: gnu-ld, ld65, mslink, nm-posix, nm, optlink, tlink, wlink)");
	pc_profile_free(p);
	pc_options_free(o);
	free(map);
}

/* Imported names (marker "Imp") are listed but never looked up; the
 * by-Value list repeats the by-Name one and adds nothing twice. */
static void mslink_imports(void **state)
{
	(void)state;
	static const char map[] =
		"\r\n Start  Stop   Length Name                   Class\r\n"
		" 00000H 0003FH 00040H _TEXT                  CODE\r\n\r\n"
		"  Address         Publics by Name\r\n\r\n"
		" 0000:0000  Imp  MESSAGEBOX           (USER.1)\r\n"
		" 0000:0010       WINMAIN\r\n\r\n"
		"  Address         Publics by Value\r\n\r\n"
		" 0000:0000  Imp  MESSAGEBOX           (USER.1)\r\n"
		" 0000:0010       WINMAIN\r\n"
		" 0000:0020       ONLYHERE\r\n\r\n";
	pc_profile *p;
	pc_profile_new(&p, NULL);
	assert_int_equal(pc_profile_load_memory(p, map, sizeof map - 1, "W.MAP", NULL, NULL),
			 PC_OK);
	assert_int_equal(pc_profile_symbol_count(p), 3);
	assert_sym(p, "ONLYHERE", 0x20, PC_SYM_TEXT);
	assert_sym(p, "MESSAGEBOX           (USER.1)", 0, PC_SYM_OTHER);
	pc_symbol s;
	pc_profile_symbol_at(&s, p, 1);
	assert_string_equal(s.name, "WINMAIN");
	assert_null(row_name(p, 0));
	assert_string_equal(row_name(p, 0x10), "WINMAIN");
	pc_profile_free(p);
}

static void detection(void **state)
{
	(void)state;
	/* neither text that is no map nor an empty "map" is claimed */
	static const char notmap[] = "hello\nworld\nthis is text\n";
	pc_profile *p;
	pc_profile_new(&p, NULL);
	assert_int_equal(pc_profile_load_memory(p, notmap, sizeof notmap - 1, "x.map", NULL, NULL),
			 PC_EUNKNOWN);
	pc_profile_free(p);
	/* a header and nothing else: found no symbols or segments */
	static const char empty[] = "\n Start  Stop   Length Name                   Class\n\n";
	pc_profile_new(&p, NULL);
	assert_int_equal(pc_profile_load_memory(p, empty, sizeof empty - 1, "E.MAP", NULL, NULL),
			 PC_EFORMAT);
	assert_string_equal(pc_profile_error(p)->message,
			    "no symbols or segments found (dialect mslink)");
	pc_profile_free(p);
}

/* An OPTLINK 32-bit map (fixtures/optlink/LAYOUT.MAP, written in the
 * layout of shared/research/dos-mpw-formats.md 2.5: no licensed real map
 * could be copied): detected (it was "unrecognised"), its segment table
 * read as regions object:offset (the object number is the segment), the
 * entry point line skipped; a damaged row is an error at its offset. */
static void optlink_segments(void **state)
{
	(void)state;
	pc_profile *p = load("optlink/LAYOUT.MAP", NULL, (const char *)NULL);
	/* no publics: the 4 segments that hold a byte stand for the functions */
	assert_int_equal(pc_profile_symbol_count(p), 4);
	assert_int_equal(count_kind(p, PC_SYM_TEXT), 1);
	assert_int_equal(pc_profile_region_count(p), 5);
	assert_seg_region(p, 0, "_TEXT", 2, 0x0, 0x4A10);
	assert_seg_region(p, 1, "ICODE", 2, 0x4A10, 0x4A10);
	assert_seg_region(p, 2, "_DATA", 3, 0x0, 0xC38);
	assert_seg_region(p, 3, "CONST", 3, 0xC38, 0xD58);
	assert_seg_region(p, 4, "_BSS", 3, 0xD58, 0x1100);
	int said = 0;
	for (size_t i = 0; i < pc_profile_note_count(p); i++)
		said |= strcmp(pc_profile_note_at(p, i), "map: dialect optlink (detected)") == 0;
	assert_true(said);
	pc_profile_free(p);

	/* MS LINK's header is not OPTLINK's, nor the reverse */
	static const char bad[] =
		"\n Start         Length     Name                   Class\n"
		" 0002:00000000 00004A10H  _TEXT                  CODE 32-bit\n"
		" 0003:0000000G 00000C38H  _DATA                  DATA 32-bit\n\n";
	pc_profile_new(&p, NULL);
	assert_int_equal(pc_profile_load_memory(p, bad, sizeof bad - 1, "BAD.MAP", NULL, NULL),
			 PC_EFORMAT);
	assert_int_equal(pc_profile_error(p)->offset, 117);
	pc_profile_free(p);
}

/* nm listings whose names look like hex.  The listings are GNU nm 2.40's
 * (Debian 12) for an object defining add, f00d, cafe, dead and the static
 * beef: `nm hx.o` (x86-64 and -m32) and `nm -P hx.o`.  Each BSD line also
 * reads as POSIX "NAME TYPE VALUE" (name 0000000000000000, value add);
 * they were read so, names and addresses swapped. */
static pc_profile *load_text(const char *text, int want, const char *dialect)
{
	pc_profile *p;
	pc_profile_new(&p, NULL);
	pc_options *o = NULL;
	if (dialect) {
		assert_int_equal(pc_options_new(&o), PC_OK);
		pc_options_parse(o, dialect);
	}
	assert_int_equal(pc_profile_load_memory(p, text, strlen(text), "hx.nm", NULL, o), want);
	pc_options_free(o);
	return p;
}

static void nm_hex_names(void **state)
{
	(void)state;
	static const char bsd64[] = "0000000000000000 T add\n"
				    "000000000000002a t beef\n"
				    "000000000000001f T cafe\n"
				    "0000000000000035 T dead\n"
				    "0000000000000014 T f00d\n";
	static const char bsd32[] = "         U _GLOBAL_OFFSET_TABLE_\n"
				    "00000000 T __x86.get_pc_thunk.ax\n"
				    "00000000 T add\n"
				    "0000003f t beef\n"
				    "0000002b T cafe\n"
				    "00000053 T dead\n"
				    "00000017 T f00d\n";
	static const char posix[] = "add T 0 14\n"
				    "beef t 2a b\n"
				    "cafe T 1f b\n"
				    "dead T 35 b\n"
				    "f00d T 14 b\n";
	pc_profile *p = load_text(bsd64, PC_OK, NULL);
	assert_int_equal(pc_profile_symbol_count(p), 5);
	assert_sym(p, "add", 0x0, PC_SYM_TEXT);
	assert_sym(p, "cafe", 0x1f, PC_SYM_TEXT);
	assert_sym(p, "f00d", 0x14, PC_SYM_TEXT);
	pc_symbol s;
	assert_true(find(p, "beef", &s));
	assert_int_equal(s.binding, PC_BIND_LOCAL);
	assert_int_equal(s.address, 0x2a);
	pc_profile_free(p);
	p = load_text(bsd32, PC_OK, NULL);
	assert_int_equal(pc_profile_symbol_count(p), 6);
	assert_sym(p, "dead", 0x53, PC_SYM_TEXT);
	pc_profile_free(p);
	p = load_text(posix, PC_OK, NULL);
	assert_int_equal(pc_profile_symbol_count(p), 5);
	assert_sym(p, "cafe", 0x1f, PC_SYM_TEXT);
	assert_true(find(p, "add", &s));
	assert_int_equal(s.size, 0x14);
	pc_profile_free(p);
	/* a name column of one width throughout, all hex, no name starting
	 * with a digit and no size column: both readings are whole; the
	 * error names the first line and how to choose */
	static const char amb[] = "hx.o:\n"
				  "deadbeef T cafe\n"
				  "cafebabe t f00d\n"
				  "abcdef01 T add\n";
	p = load_text(amb, PC_EFORMAT, NULL);
	const pc_error *e = pc_profile_error(p);
	assert_int_equal(e->offset, 6);
	assert_string_equal(e->message,
			    "nm listing reads both as ADDRESS TYPE NAME (nm) and as NAME TYPE VALUE (nm -P), e.g. \"deadbeef T cafe\"; choose with the option dialect=nm or dialect=nm-posix");
	pc_profile_free(p);
	p = load_text(amb, PC_OK, "dialect=nm");
	assert_sym(p, "cafe", 0xdeadbeef, PC_SYM_TEXT);
	pc_profile_free(p);
	p = load_text(amb, PC_OK, "dialect=nm-posix");
	assert_sym(p, "deadbeef", 0xcafe, PC_SYM_TEXT);
	pc_profile_free(p);
	/* addresses of two widths cannot be BSD's: POSIX */
	p = load_text("deadbeef T cafe\ncafebabe0 t f00d\nabcdef01 T add\n", PC_OK, NULL);
	assert_sym(p, "cafebabe0", 0xf00d, PC_SYM_TEXT);
	pc_profile_free(p);
	/* file headers only: nothing to choose between */
	p = load_text("a.o:\n\nb.o:\n\nc.o:\n", PC_EFORMAT, NULL);
	assert_string_equal(pc_profile_error(p)->message,
			    "no symbols or segments found (dialect nm)");
	pc_profile_free(p);
	/* a size after a hex name: POSIX */
	p = load_text("deadbeef T cafe 10\ncafebabe t f00d 4\nabcdef01 T add 2\n", PC_OK, NULL);
	assert_sym(p, "deadbeef", 0xcafe, PC_SYM_TEXT);
	pc_profile_free(p);
}

/* A user dialect in a build without libyaml: a clear error. */
static void dialect_without_yaml(void **state)
{
	(void)state;
	if (PC_HAVE_YAML)
		skip();
	char *yaml = fixture("dialects/acme.yaml");
	char opt[1200];
	snprintf(opt, sizeof opt, "dialect=%s", yaml);
	pc_options *o;
	assert_int_equal(pc_options_new(&o), PC_OK);
	pc_options_parse(o, opt);
	pc_profile *p;
	pc_profile_new(&p, NULL);
	char *map = fixture("dialects/acme.map");
	assert_int_equal(pc_profile_load_file(p, map, "map", o), PC_EUNSUPPORTED);
	char want[1400];
	snprintf(want, sizeof want,
		 "dialect %s: this profcore was built without YAML support; only the built-in dialects can be used",
		 yaml);
	assert_string_equal(pc_profile_error(p)->message, want);
	pc_profile_free(p);
	pc_options_free(o);
	free(map);
	free(yaml);
}

int main(int argc, char **argv)
{
	/* "dialects": the user dialect tests, which need libyaml */
	if (argc > 1 && strcmp(argv[1], "dialects") == 0) {
		if (!PC_HAVE_YAML) {
			printf("SKIP: user dialects need libyaml (built with -Dyaml=disabled)\n");
			return 77;
		}
		const struct CMUnitTest tests[] = {
			cmocka_unit_test(user_dialect),
			cmocka_unit_test(error_row),
			cmocka_unit_test(dialect_errors),
		};
		return cmocka_run_group_tests(tests, NULL, NULL);
	}
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(mslink_clkdev),
		cmocka_unit_test(mslink_primes_com),
		cmocka_unit_test(mslink_gwbasic_old_layout),
		cmocka_unit_test(tlink_segment_only),
		cmocka_unit_test(wlink_dos16),
		cmocka_unit_test(wlink_dos4g),
		cmocka_unit_test(load_address),
		cmocka_unit_test(tlink_publics),
		cmocka_unit_test(mslink_code_classes),
		cmocka_unit_test(mslink_classless_segments),
		cmocka_unit_test(wlink_empty_class),
		cmocka_unit_test(gnu_three_way),
		cmocka_unit_test(gnu_nopie_and_load_base),
		cmocka_unit_test(dialect_names),
		cmocka_unit_test(mslink_imports),
		cmocka_unit_test(detection),
		cmocka_unit_test(optlink_segments),
		cmocka_unit_test(nm_hex_names),
		cmocka_unit_test(dialect_without_yaml),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
