/*
 * cases.c - builds the report tests' captures through the public API and
 * renders one report of one of them to standard output:
 *
 *   render_case CASE REPORT [KEY=VALUE...]
 *
 * REPORT "-" is the default (flat) report.  On failure prints
 * "error: STATUS: message" and exits 1.  The captures hold the counts of
 * the seeds' examples (see tests/reports/README.md):
 *
 *   dwarfs    Atari ST Profiler's seven dwarfs: 82 code symbols, 2621
 *             samples in the program, 53 in the TOS ROM
 *   ddj3      Dr. Dobb's Figure 3: 4096 samples, 670 below the program
 *   ddj4a     Dr. Dobb's Figure 4(a): 1377 samples
 *   empty     no symbols, no samples
 *   outside   three symbols, every sample outside them
 *   longnames names longer than every column, a 3-byte symbol
 *   hist      a histogram whose buckets straddle symbol boundaries
 */
#include "profcore.h"
#include "profcore_plugin.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static pc_profile *P;

static void check(int r, const char *what)
{
	if (r) {
		const pc_error *e = pc_profile_error(P);
		fprintf(stderr, "setup failed: %s: %s\n", what,
			e && e->message ? e->message : pc_status_name(r));
		exit(2);
	}
}

static void sym(const char *name, uint64_t addr)
{
	pc_symbol s = {0};
	s.name = name;
	s.segment = PC_NOSEG;
	s.address = addr;
	s.kind = PC_SYM_TEXT;
	s.binding = PC_BIND_GLOBAL;
	check(pc_profile_add_symbol(P, &s), name);
}

static void data_sym(const char *name, uint64_t addr)
{
	pc_symbol s = {0};
	s.name = name;
	s.segment = PC_NOSEG;
	s.address = addr;
	s.kind = PC_SYM_DATA;
	check(pc_profile_add_symbol(P, &s), name);
}

static void region(uint64_t lo, uint64_t hi, pc_region_class c,
		   const char *label)
{
	pc_region r = {PC_NOSEG, lo, hi, c, label};
	check(pc_profile_add_region(P, &r), label);
}

static void at(uint64_t addr, uint64_t n)
{
	check(pc_profile_add_sample(P, PC_NOSEG, addr, n), "sample");
}

/* ---- the seven dwarfs (atari-st-profiler.txt) ------------------------ */

#define DW_STEP 0x40u
static void dwarfs(void)
{
	static const struct {
		const char *name;
		unsigned count;
	} named[] = {
		/* source order of the seed's DWARFS.C */
		{"_main", 2},    {"_dopey", 217}, {"_grumpy", 435},
		{"_doc", 220},   {"_sleepy", 874}, {"_bashful", 217},
		{"_happy", 436}, {"_sneezy", 220},
	};
	static char names[74][16];
	uint64_t a = 0;
	pc_profile_set_program(P, "DWARFS.PRG ");
	pc_profile_set_duration(P, 10.835); /* 2167 ticks of 200 Hz */
	pc_profile_set_rate(P, 250);
	sym("__start", a);
	a += DW_STEP;
	for (size_t i = 0; i < 8; i++, a += DW_STEP) {
		sym(named[i].name, a);
		if (strcmp(named[i].name, "_sleepy") == 0) {
			/* a loop: most samples on three instructions */
			at(a + 0x00, 2);
			at(a + 0x0a, 4);
			at(a + 0x10, 300);
			at(a + 0x14, 290);
			at(a + 0x1a, 276);
			at(a + 0x36, 2);
		} else {
			at(a + 0x12, named[i].count);
		}
	}
	for (size_t i = 0; i < 73; i++, a += DW_STEP) {
		snprintf(names[i], sizeof names[i], "_lib%02zu", i + 1);
		sym(names[i], a);
	}
	/* data symbols are not attribution targets: not among the 82 */
	data_sym("_errno", a);
	data_sym("_environ", a + 4);
	region(0, a, PC_REGION_APPLICATION, "DWARFS.PRG text");
	region(0xfc0000, 0xff0000, PC_REGION_SYSTEM, "TOS ROM");
	at(0xfc1234, 40);
	at(0xfc5678, 13);
}

/* ---- Dr. Dobb's Figure 3 and 4(a) -------------------------------------- */

typedef struct mod {
	const char *name;
	unsigned count;
} mod;

/* Modules at increasing addresses in the order given; samples below the
 * first one are in a region of class LOW (PA_BOT_MEM). */
static void modules(const mod *m, size_t n, unsigned below)
{
	uint64_t base = 0x10000, a = base;
	for (size_t i = 0; i < n; i++, a += 0x100) {
		sym(m[i].name, a);
		if (m[i].count)
			at(a + 0x10, m[i].count);
	}
	region(base, a, PC_REGION_APPLICATION, "program");
	region(0, base, PC_REGION_LOW, "below the program");
	if (below)
		at(0x400, below);
}

static void ddj3(void)
{
	static const mod m[] = {
		/* Figure 3's twenty rows in the figure's order ... */
		{"ushftlm", 919},  {"ushftrm", 846},  {"ucheckm", 463},
		{"_eufbs", 266},   {"ucmpm", 169},    {"isubm", 138},
		{"iaddm", 94},     {"ffbitext", 74},  {"umultm", 62},
		{"_nmalloc2", 42}, {"_nfreex", 42},   {"udivm", 37},
		{"itestm", 33},    {"_nchkb", 23},    {"ffbitins", 21},
		{"_nnohold", 20},  {"_CO_pfmt", 18},  {"prints", 18},
		{"calloc", 14},
		/* ... and the rows the article left out ("only the first
		 * 20"): 127 samples, invented names, the longest 12 chars as
		 * the figure's module column implies */
		{"other_mod_01", 13}, {"other_mod_02", 13}, {"other_mod_03", 12},
		{"other_mod_04", 12}, {"other_mod_05", 11}, {"other_mod_06", 11},
		{"other_mod_07", 10}, {"other_mod_08", 10}, {"other_mod_09", 9},
		{"other_mod_10", 9},  {"other_mod_11", 8},  {"other_mod_12", 8},
		{"other_mod_13", 1},  {"other_mod_14", 0},
	};
	modules(m, sizeof m / sizeof m[0], 670);
}

static void ddj4a(void)
{
	static const mod m[] = {
		{".main", 91},          {".delay_seven", 87},
		{".delay_thirteen", 87}, {".delay_one", 86},
		{".delay_eleven", 86},  {".delay_fourteen", 86},
		{".delay_twelve", 86},  {".delay_ten", 86},
		{".delay_five", 86},    {".delay_six", 86},
		{".delay_nine", 85},    {".delay_fifteen", 85},
		{".delay_three", 85},   {".delay_four", 85},
		{".delay_two", 84},     {".delay_eight", 84},
	};
	/* 1377 collected, 1375 in the listed modules: 2 below the program */
	modules(m, sizeof m / sizeof m[0], 2);
}

/* ---- edge cases ------------------------------------------------------ */

static void outside(void)
{
	sym("alpha", 0x1000);
	sym("beta", 0x1100);
	sym("gamma", 0x1200);
	region(0x1000, 0x1300, PC_REGION_APPLICATION, "program");
	region(0xe00000, 0xf00000, PC_REGION_SYSTEM, "ROM");
	at(0xe00010, 7);
	at(0x20, 5); /* in no region: unknown */
}

static void longnames(void)
{
	sym("a_function_name_much_longer_than_any_column_of_the_table", 0x2000);
	sym("tiny", 0x2100); /* 3 bytes: fewer addresses than intervals */
	sym("after_tiny", 0x2103);
	region(0x2000, 0x2200, PC_REGION_APPLICATION, "program");
	at(0x2010, 12345678);
	at(0x2100, 3);
	at(0x2102, 1);
	at(0x2150, 9);
}

/* gprof-style histogram: 8 buckets of 16 bytes over [0x100, 0x180),
 * symbols at 0x100, 0x118 (mid-bucket), 0x140. */
static void hist(void)
{
	static const uint64_t counts[8] = {4, 6, 8, 0, 10, 0, 0, 2};
	sym("first", 0x100);
	sym("second", 0x118);
	sym("third", 0x140);
	region(0x100, 0x180, PC_REGION_APPLICATION, "program");
	pc_histogram h = {PC_NOSEG, 0x100, 0x180, 8, counts, 1};
	check(pc_profile_add_histogram(P, &h), "histogram");
	check(pc_profile_add_class_samples(P, PC_REGION_DOS, 5), "dos");
	check(pc_profile_add_class_samples(P, PC_REGION_HIGH, 3), "high");
}

int main(int argc, char **argv)
{
	static const struct {
		const char *name;
		void (*build)(void);
	} cases[] = {{"dwarfs", dwarfs}, {"ddj3", ddj3},       {"ddj4a", ddj4a},
		     {"empty", NULL},    {"outside", outside}, {"longnames", longnames},
		     {"hist", hist}};
	if (argc < 3) {
		fprintf(stderr, "usage: render_case CASE REPORT [KEY=VALUE...]\n");
		return 2;
	}
	size_t i;
	for (i = 0; i < sizeof cases / sizeof cases[0]; i++)
		if (strcmp(argv[1], cases[i].name) == 0)
			break;
	if (i == sizeof cases / sizeof cases[0]) {
		fprintf(stderr, "render_case: no case '%s'\n", argv[1]);
		return 2;
	}
	pc_profile_new(&P, NULL);
	pc_options *o = NULL;
	if (!P || pc_options_new(&o))
		return 2;
	if (cases[i].build)
		cases[i].build();
	for (int a = 3; a < argc; a++)
		if (pc_options_parse(o, argv[a])) {
			fprintf(stderr, "render_case: bad option '%s'\n", argv[a]);
			return 2;
		}
	char *out = NULL;
	size_t len = 0;
	const char *report = strcmp(argv[2], "-") ? argv[2] : NULL;
	int r = pc_profile_render(&out, &len, P, report, o);
	if (r) {
		const pc_error *e = pc_profile_error(P);
		printf("error: %s: %s\n", pc_status_name(r),
		       e && e->message ? e->message : "");
		pc_options_free(o);
		pc_profile_free(P);
		return 1;
	}
	fwrite(out, 1, len, stdout);
	pc_free(out);
	pc_options_free(o);
	pc_profile_free(P);
	return 0;
}
