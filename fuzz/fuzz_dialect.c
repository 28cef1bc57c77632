/* libFuzzer harness for the map dialect engine: the input is a dialect
 * file (YAML read by libyaml, then compiled: keys, enums, regular
 * expressions) and a fixed small map with lines in the style of every
 * built-in dialect is read through it, then its symbols are looked up.
 * Built a second time with -DFUZZ_TRACE (fuzz_trace_dialect) for the
 * trace dialect engine (loaders/trace.c): a fixed small trace with lines
 * of every built-in trace dialect and the docs' made-up one is read
 * through the dialect, then its counts are summed.
 * The input is written to one temporary FILE.yaml (the loader reads
 * dialects from files), removed at exit. */
#include "profcore.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#ifndef FUZZ_TRACE
static const char map[] =
	"*** ACME LINK-86 v2.1 ***\n"
	"\n"
	" Start  Stop   Length Name                   Class\n"
	" 00000H 00341H 00342H CODE                   CODE\n"
	" 00350H 0035FH 00010H DATA                   DATA\n"
	"\n"
	"  Address         Publics by Name\n"
	"\n"
	" 0000:000F  Abs  CMDTBL_SIZE\n"
	" 0035:0002       CMDTBL\n"
	"\n"
	"SEGMENTS\n"
	"CODE   CODE   0-1023\n"
	"NAME            ADDR   T\n"
	"----------------------\n"
	"MODULE main.obj\n"
	"start           00016  G\n"
	"END OF TABLE\n"
	"Linker script and memory map\n"
	".text           0x0000000000001070      0x4ee\n"
	" .text          0x0000000000001070       0x22 /usr/lib/crt1.o\n"
	"                0x0000000000001070                _start\n"
	" .text.very_long_function_name\n"
	"                0x0000000000001100       0x39 prog.o\n"
	"0000000000001139 T main\n"
	"000000000000118c 0000000000000044 t mix\n"
	"main T 1139 101\n"
	"Module: rt_main.obj(rt_main.c)\n"
	"0001:00000010  main_\n"
	"0004:000459f0* _gametime\n"
	"$00e00030 :  move.l  #$1,d0  0.23% (12, 48, 0)\n";
#else
static const char trace[] =
	"8000: sei\n"
	"8001: ldx #$00\n"
	"8003: dex\n"
	"8004: bne $8003\n"
	"8003: dex\n"
	"8004: bne $8003\n"
	"\n"
	"   (loops for 250 instructions)\n"
	"\n"
	"8006: rts\n"
	"=> 0x8000 <main>:\tpush {r7, lr}\n"
	"pc (/32): 0x08000152\n"
	"0x8010\n"
	"[cpu0] cyc=000012 pc=0105 dec b\n"
	"[cpu1] cyc=000016 pc=0106 jr nz,0104\n"
	"3:8000 bank 3\n"
	"bank 2 pc 8001 t=12.5\n"
	"# comment\n";
#endif

static char path[] = "/tmp/fuzz_dialect_XXXXXX.yaml";
static int fd = -1;

static void cleanup(void)
{
	unlink(path);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (fd < 0) {
		fd = mkstemps(path, 5);
		if (fd < 0)
			abort();
		atexit(cleanup);
	}
	if (ftruncate(fd, 0) != 0 || (size && pwrite(fd, data, size, 0) != (ssize_t)size))
		abort();
	char opt[64];
#ifdef FUZZ_TRACE
	snprintf(opt, sizeof opt, "trace-dialect=%s", path);
#else
	snprintf(opt, sizeof opt, "dialect=%s", path);
#endif
	pc_options *o;
	if (pc_options_new(&o))
		return 0;
	pc_options_parse(o, opt);
#ifdef FUZZ_TRACE
	pc_profile *p;
	pc_profile_new(&p, NULL);
	if (p && pc_profile_load_memory(p, trace, sizeof trace - 1, "fuzz.log", "trace", o) == PC_OK) {
		size_t n = pc_profile_sample_count(p);
		uint64_t total = 0;
		for (size_t i = 0; i < n; i++) {
			uint64_t c;
			if (pc_profile_sample_at(NULL, NULL, &c, p, i) == PC_OK)
				total += c;
		}
		(void)total;
	}
#else
	pc_options_parse(o, "load-address=0x10");
	pc_profile *p;
	pc_profile_new(&p, NULL);
	if (p && pc_profile_load_memory(p, map, sizeof map - 1, "fuzz.map", "map", o) == PC_OK) {
		size_t n = pc_profile_symbol_count(p), len = 0;
		for (size_t i = 0; i < n; i++) {
			pc_symbol s;
			if (pc_profile_symbol_at(&s, p, i) == PC_OK && s.name)
				len += strlen(s.name);
			size_t row;
			(void)pc_profile_lookup(&row, p, s.segment, s.address);
		}
		(void)len;
	}
#endif
	pc_profile_free(p);
	pc_options_free(o);
	return 0;
}
