/* Exports (docs/exports.md ("Exports")), on hand-made profiles whose expected output
 * is worked out in the comments: the pprof encoder byte by byte, the
 * gmon.out writer byte by byte, and the full text of the folded,
 * speedscope and callgrind writers. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "profcore.h"
#include "profcore_plugin.h"

static void sym(pc_profile *p, const char *name, uint32_t seg, uint64_t addr,
		uint64_t size)
{
	pc_symbol s = {0};
	s.name = name;
	s.segment = seg;
	s.address = addr;
	s.size = size;
	s.kind = PC_SYM_TEXT;
	s.binding = PC_BIND_GLOBAL;
	s.flags = PC_SYMF_FUNC;
	assert_int_equal(pc_profile_add_symbol(p, &s), PC_OK);
}

static void arc(pc_profile *p, uint64_t from, uint64_t to, uint64_t count)
{
	pc_arc a = {PC_NOSEG, from, PC_NOSEG, to, count, 0, 0};
	assert_int_equal(pc_profile_add_arc(p, &a), PC_OK);
}

/* Exports p as format with one option (key may be NULL); returns the
 * malloc'ed bytes, length in *len. */
static char *export(pc_profile *p, const char *format, const char *key,
		    const char *value, size_t *len)
{
	pc_options *o;
	assert_int_equal(pc_options_new(&o), PC_OK);
	if (key)
		assert_int_equal(pc_options_set(o, key, value), PC_OK);
	char *out = NULL;
	int rc = pc_profile_export(&out, len, p, format, o);
	if (rc != PC_OK)
		fail_msg("export %s: %s", format, pc_profile_error(p)->message);
	pc_options_free(o);
	return out;
}

static void expect_text(pc_profile *p, const char *format, const char *want)
{
	size_t len;
	char *got = export(p, format, NULL, NULL, &len);
	assert_string_equal(got, want);
	assert_int_equal(len, strlen(want));
	pc_free(got);
}

/* the note of every export whose stacks were estimated (export.h) */
#define NOTE \
	"call stacks estimated from call counts (the capture holds calls, " \
	"not stacks: as gprof, a routine's time is split among its callers " \
	"in proportion to the calls); the option stacks=none gives measured samples only"

/* ---- a growable byte string for the expected encodings ---------------- */
typedef struct bytes {
	unsigned char b[1024];
	size_t n;
} bytes;

static void B(bytes *x, int n, ...)
{
	va_list ap;
	va_start(ap, n);
	for (int i = 0; i < n; i++)
		x->b[x->n++] = (unsigned char)va_arg(ap, int);
	va_end(ap);
}

static void Bs(bytes *x, const char *s)
{
	memcpy(x->b + x->n, s, strlen(s));
	x->n += strlen(s);
}

/* main [0x1000, 0x1010) with 3 samples at 0x1004, f [0x1010, 0x1020) with
 * 2 samples at 0x1012; no rate, no program name, no sources. */
static pc_profile *tiny(void)
{
	pc_profile *p;
	pc_profile_new(&p, NULL);
	sym(p, "main", PC_NOSEG, 0x1000, 0x10);
	sym(p, "f", PC_NOSEG, 0x1010, 0x10);
	assert_int_equal(pc_profile_add_sample(p, PC_NOSEG, 0x1004, 3), PC_OK);
	assert_int_equal(pc_profile_add_sample(p, PC_NOSEG, 0x1012, 2), PC_OK);
	return p;
}

static void test_pprof_known_answer(void **state)
{
	(void)state;
	pc_profile *p = tiny();
	bytes w = {{0}, 0};
	/* string table: 0 "", 1 samples, 2 count, 3 main, 4 f, 5 comment.
	 * Keys: field << 3 | wire type (0 varint, 2 length-delimited). */
	/* 1 sample_type {type 1, unit 2} */
	B(&w, 6, 0x0a, 4, 0x08, 1, 0x10, 2);
	/* granularity=address: one location per sampled address (the default
	 * is one per function, test_pprof_default_per_function) */
	/* 2 sample {location_id [1] packed, value [3] packed}, then [2], [2] */
	B(&w, 8, 0x12, 6, 0x0a, 1, 1, 0x12, 1, 3);
	B(&w, 8, 0x12, 6, 0x0a, 1, 2, 0x12, 1, 2);
	/* 3 mapping {id 1, memory_start 0x1000 = varint 80 20,
	 *  memory_limit 0x1020 = a0 20, has_functions 1} */
	B(&w, 12, 0x1a, 10, 0x08, 1, 0x10, 0x80, 0x20, 0x18, 0xa0, 0x20, 0x38, 1);
	/* 4 location {id, mapping_id 1, address, line {function_id}}:
	 *  0x1004 = 84 20, 0x1012 = 92 20 */
	B(&w, 13, 0x22, 11, 0x08, 1, 0x10, 1, 0x18, 0x84, 0x20, 0x22, 2, 0x08, 1);
	B(&w, 13, 0x22, 11, 0x08, 2, 0x10, 1, 0x18, 0x92, 0x20, 0x22, 2, 0x08, 2);
	/* 5 function {id, name, system_name} */
	B(&w, 8, 0x2a, 6, 0x08, 1, 0x10, 3, 0x18, 3);
	B(&w, 8, 0x2a, 6, 0x08, 2, 0x10, 4, 0x18, 4);
	/* 6 string_table */
	B(&w, 2, 0x32, 0);
	B(&w, 2, 0x32, 7);
	Bs(&w, "samples");
	B(&w, 2, 0x32, 5);
	Bs(&w, "count");
	B(&w, 2, 0x32, 4);
	Bs(&w, "main");
	B(&w, 2, 0x32, 1);
	Bs(&w, "f");
	B(&w, 2, 0x32, 45);
	Bs(&w, "samples: 5 total, 5 in the program, 0 outside");
	/* 11 period_type samples/count, 12 period 1, 13 comment [5] packed */
	B(&w, 6, 0x5a, 4, 0x08, 1, 0x10, 2);
	B(&w, 2, 0x60, 1);
	B(&w, 3, 0x6a, 1, 5);

	size_t len;
	pc_options *o;
	assert_int_equal(pc_options_new(&o), PC_OK);
	pc_options_set(o, "granularity", "address");
	pc_options_set(o, "compress", "0");
	char *got = NULL;
	assert_int_equal(pc_profile_export(&got, &len, p, "pprof", o), PC_OK);
	assert_int_equal(len, w.n);
	assert_memory_equal(got, w.b, w.n);

	/* without compress=0 the same bytes, gzip-compressed */
	size_t zlen;
	char *gz = NULL;
	pc_options_set(o, "compress", NULL);
	assert_int_equal(pc_profile_export(&gz, &zlen, p, "pprof", o), PC_OK);
	pc_options_free(o);
	assert_true(zlen > 10);
	assert_int_equal((unsigned char)gz[0], 0x1f);
	assert_int_equal((unsigned char)gz[1], 0x8b);
	unsigned char plain[1024];
	z_stream z;
	memset(&z, 0, sizeof z);
	assert_int_equal(inflateInit2(&z, 15 + 16), Z_OK);
	z.next_in = (unsigned char *)gz;
	z.avail_in = (uInt)zlen;
	z.next_out = plain;
	z.avail_out = sizeof plain;
	assert_int_equal(inflate(&z, Z_FINISH), Z_STREAM_END);
	assert_int_equal(z.total_out, w.n);
	assert_int_equal(z.avail_in, 0);
	assert_memory_equal(plain, w.b, w.n);
	inflateEnd(&z);
	pc_free(gz);
	pc_free(got);
	pc_profile_free(p);
}

static void test_pprof_rate_and_symbol_granularity(void **state)
{
	(void)state;
	pc_profile *p = tiny();
	pc_profile_set_rate(p, 1000); /* 1 ms a sample: period 1000000 ns */
	bytes w = {{0}, 0};
	/* strings: 0 "", 1 samples, 2 count, 3 cpu, 4 nanoseconds, 5 main,
	 * 6 f, 7 rate comment, 8 samples comment */
	B(&w, 6, 0x0a, 4, 0x08, 1, 0x10, 2);
	B(&w, 6, 0x0a, 4, 0x08, 3, 0x10, 4);
	/* samples: values [3, 3000000 = c0 8d b7 01], [2, 2000000 = 80 89 7a] */
	B(&w, 12, 0x12, 10, 0x0a, 1, 1, 0x12, 5, 3, 0xc0, 0x8d, 0xb7, 0x01);
	B(&w, 11, 0x12, 9, 0x0a, 1, 2, 0x12, 4, 2, 0x80, 0x89, 0x7a);
	B(&w, 12, 0x1a, 10, 0x08, 1, 0x10, 0x80, 0x20, 0x18, 0xa0, 0x20, 0x38, 1);
	/* granularity=symbol: one location per function, at its start */
	B(&w, 13, 0x22, 11, 0x08, 1, 0x10, 1, 0x18, 0x80, 0x20, 0x22, 2, 0x08, 1);
	B(&w, 13, 0x22, 11, 0x08, 2, 0x10, 1, 0x18, 0x90, 0x20, 0x22, 2, 0x08, 2);
	B(&w, 8, 0x2a, 6, 0x08, 1, 0x10, 5, 0x18, 5);
	B(&w, 8, 0x2a, 6, 0x08, 2, 0x10, 6, 0x18, 6);
	B(&w, 2, 0x32, 0);
	B(&w, 2, 0x32, 7);
	Bs(&w, "samples");
	B(&w, 2, 0x32, 5);
	Bs(&w, "count");
	B(&w, 2, 0x32, 3);
	Bs(&w, "cpu");
	B(&w, 2, 0x32, 11);
	Bs(&w, "nanoseconds");
	B(&w, 2, 0x32, 4);
	Bs(&w, "main");
	B(&w, 2, 0x32, 1);
	Bs(&w, "f");
	B(&w, 2, 0x32, 13);
	Bs(&w, "rate: 1000 Hz");
	B(&w, 2, 0x32, 45);
	Bs(&w, "samples: 5 total, 5 in the program, 0 outside");
	/* period_type cpu/nanoseconds, period 1000000 = c0 84 3d */
	B(&w, 6, 0x5a, 4, 0x08, 3, 0x10, 4);
	B(&w, 4, 0x60, 0xc0, 0x84, 0x3d);
	B(&w, 4, 0x6a, 2, 7, 8);

	pc_options *o;
	assert_int_equal(pc_options_new(&o), PC_OK);
	pc_options_set(o, "compress", "0");
	pc_options_set(o, "granularity", "symbol");
	char *got;
	size_t len;
	assert_int_equal(pc_profile_export(&got, &len, p, "pprof", o), PC_OK);
	assert_int_equal(len, w.n);
	assert_memory_equal(got, w.b, w.n);
	pc_free(got);
	pc_options_free(o);
	pc_profile_free(p);
}

static void test_names_and_errors(void **state)
{
	(void)state;
	const char *want[] = {"pprof", "speedscope", "folded", "callgrind", "gmon",
			      "svg"};
	for (size_t i = 0; i < 6; i++) {
		assert_string_equal(pc_export_name_at(i), want[i]);
		assert_non_null(pc_export_description_at(i));
	}
	assert_null(pc_export_name_at(6));
	assert_null(pc_export_extension_at(6));
	assert_string_equal(pc_export_extension_at(5), ".svg");
	assert_string_equal(pc_export_extension_at(0), ".pb.gz");
	assert_string_equal(pc_export_extension_at(4), ".gmon.out");

	pc_profile *p = tiny();
	char *out = (char *)1;
	size_t len = 7;
	assert_int_equal(pc_profile_export(&out, &len, p, "nope", NULL),
			 PC_ENOTFOUND);
	assert_null(out);
	assert_int_equal(len, 0);
	assert_string_equal(pc_profile_error(p)->message,
			    "no export named 'nope'");
	pc_options *o;
	assert_int_equal(pc_options_new(&o), PC_OK);
	pc_options_set(o, "granularity", "file");
	assert_int_equal(pc_profile_export(&out, &len, p, "folded", o),
			 PC_EUSAGE);
	assert_string_equal(pc_profile_error(p)->message,
			    "bad value 'file' for option 'granularity' of export folded; "
			    "expected one of: function, symbol, line, address");
	/* line needs the program's DWARF */
	pc_options_set(o, "granularity", "line");
	assert_int_equal(pc_profile_export(&out, &len, p, "folded", o),
			 PC_EUSAGE);
	assert_string_equal(pc_profile_error(p)->message,
			    "source lines need the program's DWARF or a linker map with line numbers: give the ELF executable (built with -g), or the map made with LINK /LINENUMBERS, among the files");
	pc_options_set(o, "granularity", NULL);
	pc_options_set(o, "compress", "maybe");
	assert_int_equal(pc_profile_export(&out, &len, p, "pprof", o),
			 PC_EUSAGE);
	assert_string_equal(pc_profile_error(p)->message,
			    "bad value 'maybe' for option 'compress' of export pprof; "
			    "expected one of: 0, 1, no, yes");
	pc_options_free(o);

	/* export_file writes the same bytes as export */
	FILE *f = tmpfile();
	assert_non_null(f);
	assert_int_equal(pc_profile_export_file(p, "folded", NULL, f), PC_OK);
	rewind(f);
	char buf[64] = {0};
	size_t n = fread(buf, 1, sizeof buf - 1, f);
	fclose(f);
	assert_int_equal(n, 11);
	assert_string_equal(buf, "main 3\nf 2\n");
	pc_profile_free(p);
}

/* A [0x100,0x110), B [0x110,0x120), C [0x120,0x130), D [0x130,0x140).
 * B has 8 samples at 0x114, D one at 0x134.  Arcs: A->B x3, C->B x1,
 * B->B x5 (recursion: no stack), an arc from 0x900 (in no symbol: dropped).
 * B's 8 samples split among its callers 3:1 -> A;B 6 and C;B 2. */
static pc_profile *chains(void)
{
	pc_profile *p;
	pc_profile_new(&p, NULL);
	sym(p, "A", PC_NOSEG, 0x100, 0x10);
	sym(p, "B", PC_NOSEG, 0x110, 0x10);
	sym(p, "C", PC_NOSEG, 0x120, 0x10);
	sym(p, "D", PC_NOSEG, 0x130, 0x10);
	assert_int_equal(pc_profile_add_sample(p, PC_NOSEG, 0x114, 8), PC_OK);
	assert_int_equal(pc_profile_add_sample(p, PC_NOSEG, 0x134, 1), PC_OK);
	arc(p, 0x104, 0x110, 3);
	arc(p, 0x124, 0x111, 1);
	arc(p, 0x118, 0x112, 5);
	arc(p, 0x900, 0x134, 4);
	return p;
}

static void test_chains_folded_speedscope_callgrind(void **state)
{
	(void)state;
	pc_profile *p = chains();
	expect_text(p, "folded", "A;B 6\nC;B 2\nD 1\n");
	expect_text(p, "speedscope",
		    "{\"$schema\":\"https://www.speedscope.app/file-format-schema.json\",\n"
		    "\"shared\":{\"frames\":[\n"
		    "{\"name\":\"A\"},\n{\"name\":\"B\"},\n{\"name\":\"C\"},\n"
		    "{\"name\":\"D\"}]},\n"
		    "\"profiles\":[{\"type\":\"sampled\",\"name\":\"profile "
		    "(call stacks estimated from call counts)\","
		    "\"unit\":\"none\",\"startValue\":0,\"endValue\":9,\n"
		    "\"samples\":[\n[0,1],\n[2,1],\n[3]],\n"
		    "\"weights\":[6,2,1]}],\n"
		    "\"name\":\"profile\",\"activeProfileIndex\":0,"
		    "\"exporter\":\"profcore " PC_VERSION_STRING "; " NOTE "\"}\n");
	/* calls= lines carry the arc count and the callee's address; the
	 * cost line after it is the call site and the samples flowing
	 * through the arc */
	expect_text(p, "callgrind",
		    "# callgrind format\nversion: 1\n"
		    "creator: profcore " PC_VERSION_STRING "\n"
		    "# stacks: " NOTE "\n"
		    "positions: instr\nevents: Samples\nsummary: 9\n"
		    "\nfl=(1) ???\nfn=(1) A\n"
		    "cfl=(1)\ncfn=(2) B\ncalls=3 0x110\n0x104 6\n"
		    "\nfl=(1)\nfn=(2)\n0x114 8\n"
		    "\nfl=(1)\nfn=(3) C\n"
		    "cfl=(1)\ncfn=(2)\ncalls=1 0x110\n0x124 2\n"
		    "\nfl=(1)\nfn=(4) D\n0x134 1\n");
	pc_profile_free(p);
}

/* A cycle: M calls P (x2); P <-> Q call each other (P->Q x4, Q->P x3);
 * P and Q call L (x1 each); L has 8 samples, Q 2.  gprof: <cycle 1> =
 * {P, Q} entered from M; L's time split 1:1 between P and Q; no stack
 * starts at a cycle member.  Folded (path order, frame order M P Q L
 * <cycle 1>): M;<cycle 1>;P;L 4, M;<cycle 1>;Q;L 4, M;<cycle 1>;Q 2.
 * callgrind: M -> <cycle 1> carries 10, <cycle 1> -> P 4 (calls: P's 3
 * from Q + 2 from M = 5), <cycle 1> -> Q 6 (calls 4), P -> Q and Q -> P
 * carry nothing. */
static void test_cycle(void **state)
{
	(void)state;
	pc_profile *p;
	pc_profile_new(&p, NULL);
	sym(p, "M", PC_NOSEG, 0x100, 0x10);
	sym(p, "P", PC_NOSEG, 0x110, 0x10);
	sym(p, "Q", PC_NOSEG, 0x120, 0x10);
	sym(p, "L", PC_NOSEG, 0x130, 0x10);
	assert_int_equal(pc_profile_add_sample(p, PC_NOSEG, 0x134, 8), PC_OK);
	assert_int_equal(pc_profile_add_sample(p, PC_NOSEG, 0x124, 2), PC_OK);
	arc(p, 0x104, 0x110, 2);
	arc(p, 0x114, 0x120, 4);
	arc(p, 0x124, 0x110, 3);
	arc(p, 0x118, 0x130, 1);
	arc(p, 0x128, 0x130, 1);
	expect_text(p, "folded", "M;<cycle 1>;Q 2\nM;<cycle 1>;P;L 4\n"
				 "M;<cycle 1>;Q;L 4\n");
	expect_text(p, "callgrind",
		    "# callgrind format\nversion: 1\n"
		    "creator: profcore " PC_VERSION_STRING "\n"
		    "# stacks: " NOTE "\n"
		    "positions: instr\nevents: Samples\nsummary: 10\n"
		    "\nfl=(1) ???\nfn=(1) M\n"
		    "cfl=(1)\ncfn=(5) <cycle 1>\ncalls=2 0\n0x104 10\n"
		    "\nfl=(1)\nfn=(2) P\n"
		    "cfl=(1)\ncfn=(3) Q\ncalls=4 0x120\n0x114 0\n"
		    "cfl=(1)\ncfn=(4) L\ncalls=1 0x130\n0x118 4\n"
		    "\nfl=(1)\nfn=(3)\n0x124 2\n"
		    "cfl=(1)\ncfn=(2)\ncalls=3 0x110\n0x124 0\n"
		    "cfl=(1)\ncfn=(4)\ncalls=1 0x130\n0x128 4\n"
		    "\nfl=(1)\nfn=(4)\n0x134 8\n"
		    "\nfl=(1)\nfn=(5)\n"
		    "cfl=(1)\ncfn=(2)\ncalls=5 0x110\n0x110 4\n"
		    "cfl=(1)\ncfn=(3)\ncalls=4 0x120\n0x120 6\n");
	/* --stacks none: the measured samples, one frame each */
	size_t len;
	char *s = export(p, "folded", "stacks", "none", &len);
	assert_string_equal(s, "Q 2\nL 8\n");
	pc_free(s);
	pc_profile_free(p);
}

/* A call chain 1100 deep: paths are cut at 1024 frames, under the frame
 * [call paths truncated]. */
static void test_truncated_paths(void **state)
{
	(void)state;
	pc_profile *p;
	pc_profile_new(&p, NULL);
	static char names[1100][8];
	for (int i = 0; i < 1100; i++) {
		snprintf(names[i], sizeof names[i], "f%d", i);
		sym(p, names[i], PC_NOSEG, 0x1000 + 16 * (uint64_t)i, 16);
		if (i)
			arc(p, 0x1000 + 16 * (uint64_t)(i - 1) + 4,
			    0x1000 + 16 * (uint64_t)i, 1);
	}
	assert_int_equal(pc_profile_add_sample(p, PC_NOSEG, 0x1000 + 16 * 1099 + 2,
					       5), PC_OK);
	size_t len;
	char *s = export(p, "folded", NULL, NULL, &len);
	assert_true(strncmp(s, "[call paths truncated];f76;f77;", 31) == 0);
	assert_non_null(strstr(s, ";f1099 5\n"));
	size_t frames = 1;
	for (const char *c = s; *c; c++)
		frames += *c == ';';
	assert_int_equal(frames, 1025);
	pc_free(s);
	pc_profile_free(p);
}

/* Fractions: B (1 sample) called once by A and twice by C: 1/3 and 2/3.
 * Folded counts are whole samples rounded cumulatively per leaf:
 * round(1/3) = 0 (line left out), round(1) - 0 = 1. */
static void test_rounding(void **state)
{
	(void)state;
	pc_profile *p;
	pc_profile_new(&p, NULL);
	sym(p, "A", PC_NOSEG, 0x100, 0x10);
	sym(p, "B", PC_NOSEG, 0x110, 0x10);
	sym(p, "C", PC_NOSEG, 0x120, 0x10);
	assert_int_equal(pc_profile_add_sample(p, PC_NOSEG, 0x110, 1), PC_OK);
	arc(p, 0x100, 0x110, 1);
	arc(p, 0x120, 0x110, 2);
	expect_text(p, "folded", "C;B 1\n");
	size_t len;
	char *s = export(p, "speedscope", NULL, NULL, &len);
	assert_non_null(strstr(s, "\"samples\":[\n[0,1],\n[2,1]],\n"
				  "\"weights\":[0.333333333,0.666666667]}]"));
	pc_free(s);
	pc_profile_free(p);
}

/* Only samples outside the program: 5 in the ROM region (system), 3 DOS
 * class samples, 2 in no region (unknown).  Each class is one pseudo-frame,
 * in class order. */
static pc_profile *outside(void)
{
	pc_profile *p;
	pc_profile_new(&p, NULL);
	sym(p, "main", PC_NOSEG, 0x1000, 0x100);
	pc_region app = {PC_NOSEG, 0x1000, 0x1100, PC_REGION_APPLICATION, "prog"};
	pc_region rom = {PC_NOSEG, 0xfc0000, 0x1000000, PC_REGION_SYSTEM, "rom"};
	assert_int_equal(pc_profile_add_region(p, &app), PC_OK);
	assert_int_equal(pc_profile_add_region(p, &rom), PC_OK);
	assert_int_equal(pc_profile_add_sample(p, PC_NOSEG, 0xfc0010, 4), PC_OK);
	assert_int_equal(pc_profile_add_sample(p, PC_NOSEG, 0xfc0020, 1), PC_OK);
	assert_int_equal(pc_profile_add_sample(p, PC_NOSEG, 0x2000, 2), PC_OK);
	assert_int_equal(pc_profile_add_class_samples(p, PC_REGION_DOS, 3), PC_OK);
	return p;
}

static void test_outside_only(void **state)
{
	(void)state;
	pc_profile *p = outside();
	expect_text(p, "folded", "[system] 5\n[dos] 3\n[unknown] 2\n");
	expect_text(p, "callgrind",
		    "# callgrind format\nversion: 1\n"
		    "creator: profcore " PC_VERSION_STRING "\n"
		    "positions: instr\nevents: Samples\nsummary: 10\n"
		    "\nfl=(1) ???\nfn=(1) [system]\n0 5\n"
		    "\nfl=(1)\nfn=(2) [dos]\n0 3\n"
		    "\nfl=(1)\nfn=(3) [unknown]\n0 2\n");
	pc_profile_free(p);
}

static void test_empty(void **state)
{
	(void)state;
	pc_profile *p;
	pc_profile_new(&p, NULL);
	expect_text(p, "folded", "[no samples] 0\n");
	expect_text(p, "speedscope",
		    "{\"$schema\":\"https://www.speedscope.app/file-format-schema.json\",\n"
		    "\"shared\":{\"frames\":[]},\n"
		    "\"profiles\":[{\"type\":\"sampled\",\"name\":\"profile\","
		    "\"unit\":\"none\",\"startValue\":0,\"endValue\":0,\n"
		    "\"samples\":[],\n\"weights\":[]}],\n"
		    "\"name\":\"profile\",\"activeProfileIndex\":0,"
		    "\"exporter\":\"profcore " PC_VERSION_STRING "\"}\n");
	expect_text(p, "callgrind",
		    "# callgrind format\nversion: 1\n"
		    "creator: profcore " PC_VERSION_STRING "\n"
		    "positions: instr\nevents: Samples\nsummary: 0\n");
	/* gmon: header, then one empty 2-byte bucket at 0 (gprof needs a
	 * histogram record); W = 4, little-endian */
	size_t len;
	char *g = export(p, "gmon", NULL, NULL, &len);
	bytes w = {{0}, 0};
	Bs(&w, "gmon");
	B(&w, 16, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0);
	B(&w, 17, 0, 0, 0, 0, 0, 2, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0);
	Bs(&w, "seconds");
	B(&w, 8, 0, 0, 0, 0, 0, 0, 0, 0);
	B(&w, 3, 's', 0, 0);
	assert_int_equal(len, w.n);
	assert_memory_equal(g, w.b, w.n);
	pc_free(g);
	pc_profile_free(p);
}

/* gmon.out: 32-bit big-endian target at 100 Hz, one histogram of two
 * 4-byte buckets over [0x100, 0x108) holding 70000 and 1 samples.  A u16
 * bucket holds 65535, so two identical records are written (gprof sums
 * them): {65535, 1} and {4465, 0}.  Then the arc 0x100 -> 0x104 x7. */
static void test_gmon_known_answer(void **state)
{
	(void)state;
	pc_profile *p;
	pc_profile_new(&p, NULL);
	pc_profile_set_target(p, 4, PC_ENDIAN_BIG);
	pc_profile_set_rate(p, 100);
	sym(p, "f", PC_NOSEG, 0x100, 8);
	uint64_t counts[2] = {70000, 1};
	pc_histogram h = {PC_NOSEG, 0x100, 0x108, 2, counts, 2};
	assert_int_equal(pc_profile_add_histogram(p, &h), PC_OK);
	arc(p, 0x100, 0x104, 7);
	bytes w = {{0}, 0};
	Bs(&w, "gmon");
	B(&w, 16, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0);
	for (int r = 0; r < 2; r++) {
		/* tag, low, high, hist_size 2, prof_rate 100 */
		B(&w, 17, 0, 0, 0, 1, 0, 0, 0, 1, 8, 0, 0, 0, 2, 0, 0, 0, 100);
		Bs(&w, "seconds");
		B(&w, 8, 0, 0, 0, 0, 0, 0, 0, 0);
		B(&w, 1, 's');
		if (r == 0)
			B(&w, 4, 0xff, 0xff, 0x00, 0x01);
		else
			B(&w, 4, 0x11, 0x71, 0x00, 0x00);
	}
	B(&w, 13, 1, 0, 0, 1, 0, 0, 0, 1, 4, 0, 0, 0, 7);
	size_t len;
	char *g = export(p, "gmon", NULL, NULL, &len);
	assert_int_equal(len, w.n);
	assert_memory_equal(g, w.b, w.n);
	pc_free(g);
	pc_profile_free(p);
}

/* Raw samples become 2-byte-bucket records; a gap over 64 bytes starts a
 * new record.  Samples at 0x1001 x2, 0x1004 x1, then 0x2000 x3:
 * [0x1000, 0x1006) = {2, 0, 1} and [0x2000, 0x2002) = {3}. */
static void test_gmon_raw_samples(void **state)
{
	(void)state;
	pc_profile *p;
	pc_profile_new(&p, NULL);
	pc_profile_set_target(p, 4, PC_ENDIAN_LITTLE);
	pc_profile_set_rate(p, 50);
	assert_int_equal(pc_profile_add_sample(p, PC_NOSEG, 0x1001, 2), PC_OK);
	assert_int_equal(pc_profile_add_sample(p, PC_NOSEG, 0x1004, 1), PC_OK);
	assert_int_equal(pc_profile_add_sample(p, PC_NOSEG, 0x2000, 3), PC_OK);
	bytes w = {{0}, 0};
	Bs(&w, "gmon");
	B(&w, 16, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0);
	B(&w, 17, 0, 0x00, 0x10, 0, 0, 0x06, 0x10, 0, 0, 3, 0, 0, 0, 50, 0, 0, 0);
	Bs(&w, "seconds");
	B(&w, 8, 0, 0, 0, 0, 0, 0, 0, 0);
	B(&w, 7, 's', 2, 0, 0, 0, 1, 0);
	B(&w, 17, 0, 0x00, 0x20, 0, 0, 0x02, 0x20, 0, 0, 1, 0, 0, 0, 50, 0, 0, 0);
	Bs(&w, "seconds");
	B(&w, 8, 0, 0, 0, 0, 0, 0, 0, 0);
	B(&w, 3, 's', 3, 0);
	size_t len;
	char *g = export(p, "gmon", NULL, NULL, &len);
	assert_int_equal(len, w.n);
	assert_memory_equal(g, w.b, w.n);
	pc_free(g);
	pc_profile_free(p);
}

/* Segmented (seg:off) capture: addresses are segment << 32 | offset in
 * callgrind and pprof; gmon.out cannot hold them. */
static void test_segmented(void **state)
{
	(void)state;
	pc_profile *p;
	pc_profile_new(&p, NULL);
	sym(p, "A", 0x1234, 0x10, 0x10);
	assert_int_equal(pc_profile_add_sample(p, 0x1234, 0x14, 2), PC_OK);
	expect_text(p, "callgrind",
		    "# callgrind format\nversion: 1\n"
		    "creator: profcore " PC_VERSION_STRING "\n"
		    "positions: instr\nevents: Samples\nsummary: 2\n"
		    "\nfl=(1) ???\nfn=(1) A\n0x123400000014 2\n");
	char *out = (char *)1;
	size_t len;
	assert_int_equal(pc_profile_export(&out, &len, p, "gmon", NULL),
			 PC_EUNSUPPORTED);
	assert_null(out);
	assert_string_equal(pc_profile_error(p)->message,
			    "gmon: gmon.out has flat addresses; this capture is "
			    "segmented");
	pc_profile_free(p);
}

/* No samples, arcs with flat times (MPW Proff): the exports carry the
 * times.  A->B x2 30 us, C->B x1 10 us, B->B x4 5 us, A->C x1 7 us.
 * B (45 us): 30 measured under A, 10 under C (itself called by A), and
 * the 5 of the recursion split by calls 2:1 -> A;B 30 + 3.33 = 33.33 and
 * A;C;B 10 + 1.67 = 11.67, rounded cumulatively: 33, then 45 - 33 = 12.
 * C (7 us): A;C 7. */
static void test_arc_times(void **state)
{
	(void)state;
	pc_profile *p;
	pc_profile_new(&p, NULL);
	sym(p, "A", PC_NOSEG, 0x100, 0x10);
	sym(p, "B", PC_NOSEG, 0x110, 0x10);
	sym(p, "C", PC_NOSEG, 0x120, 0x10);
	pc_arc arcs[] = {{PC_NOSEG, 0x104, PC_NOSEG, 0x110, 2, 0, 30},
			 {PC_NOSEG, 0x124, PC_NOSEG, 0x110, 1, 0, 10},
			 {PC_NOSEG, 0x114, PC_NOSEG, 0x110, 4, 0, 5},
			 {PC_NOSEG, 0x108, PC_NOSEG, 0x120, 1, 0, 7}};
	for (size_t i = 0; i < 4; i++)
		assert_int_equal(pc_profile_add_arc(p, &arcs[i]), PC_OK);
	expect_text(p, "folded", "A;B 33\nA;C;B 12\nA;C 7\n");
	/* inclusive arc costs: A->B 33.33, A->C 11.67 + 7, C->B 11.67 */
	expect_text(p, "callgrind",
		    "# callgrind format\nversion: 1\n"
		    "creator: profcore " PC_VERSION_STRING "\n"
		    "# costs: flat times of the call arcs, microseconds\n"
		    "# stacks: " NOTE "\n"
		    "positions: instr\nevents: Microseconds\nsummary: 52\n"
		    "\nfl=(1) ???\nfn=(1) A\n"
		    "cfl=(1)\ncfn=(2) B\ncalls=2 0x110\n0x104 33\n"
		    "cfl=(1)\ncfn=(3) C\ncalls=1 0x120\n0x108 19\n"
		    "\nfl=(1)\nfn=(2)\n0x110 45\n"
		    "\nfl=(1)\nfn=(3)\n0x120 7\n"
		    "cfl=(1)\ncfn=(2)\ncalls=1 0x110\n0x124 12\n");
	size_t len;
	char *s = export(p, "speedscope", NULL, NULL, &len);
	assert_non_null(strstr(s, "\"unit\":\"microseconds\",\"startValue\":0,"
				  "\"endValue\":52,\n\"samples\":[\n[0,1],\n[0,2,1],"
				  "\n[0,2]],\n\"weights\":[33.3333333,11.6666667,7]"));
	pc_free(s);
	pc_profile_free(p);
}

/* Names are made safe per format: folded turns ';' and control
 * characters into '_', callgrind control characters, JSON escapes. */
static void test_awkward_names(void **state)
{
	(void)state;
	pc_profile *p;
	pc_profile_new(&p, NULL);
	sym(p, "a;b\nc \"q\"", PC_NOSEG, 0x100, 0x10);
	assert_int_equal(pc_profile_add_sample(p, PC_NOSEG, 0x104, 1), PC_OK);
	/* names in their shown form (docs/development.md ("Hostile input")): \n as \x0a */
	expect_text(p, "folded", "a_b\\x0ac \"q\" 1\n");
	size_t len;
	char *s = export(p, "callgrind", NULL, NULL, &len);
	assert_non_null(strstr(s, "\nfn=(1) a;b\\x0ac \"q\"\n0x104 1\n"));
	pc_free(s);
	s = export(p, "speedscope", NULL, NULL, &len);
	assert_non_null(strstr(s, "{\"name\":\"a;b\\\\x0ac \\\"q\\\"\"}"));
	pc_free(s);
	pc_profile_free(p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pprof_known_answer),
		cmocka_unit_test(test_pprof_rate_and_symbol_granularity),
		cmocka_unit_test(test_names_and_errors),
		cmocka_unit_test(test_chains_folded_speedscope_callgrind),
		cmocka_unit_test(test_rounding),
		cmocka_unit_test(test_cycle),
		cmocka_unit_test(test_truncated_paths),
		cmocka_unit_test(test_outside_only),
		cmocka_unit_test(test_empty),
		cmocka_unit_test(test_gmon_known_answer),
		cmocka_unit_test(test_gmon_raw_samples),
		cmocka_unit_test(test_segmented),
		cmocka_unit_test(test_arc_times),
		cmocka_unit_test(test_awkward_names),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
