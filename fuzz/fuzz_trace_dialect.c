/* libFuzzer harness for the trace dialect engine (loaders/trace.c): the
 * input is a trace dialect file (YAML read by libyaml, then compiled:
 * keys, enums, regular expressions, the loop rule) and a fixed small trace
 * with lines of every built-in dialect and the docs' made-up one is read
 * through it, then its counts are looked up.
 * The input is written to one temporary FILE.yaml (the loader reads
 * dialects from files), removed at exit. */
#include "profcore.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

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

static char path[] = "/tmp/fuzz_trace_dialect_XXXXXX.yaml";
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
	snprintf(opt, sizeof opt, "trace-dialect=%s", path);
	pc_options *o;
	if (pc_options_new(&o))
		return 0;
	pc_options_parse(o, opt);
	pc_profile *p;
	pc_profile_new(&p, NULL);
	if (p && pc_profile_load_memory(p, trace, sizeof trace - 1, "fuzz.log", "trace", o) == PC_OK) {
		size_t n = pc_profile_sample_count(p);
		uint64_t total = 0;
		for (size_t i = 0; i < n; i++) {
			uint64_t c;
			if (pc_profile_sample_at(p, i, NULL, NULL, &c) == PC_OK)
				total += c;
		}
		(void)total;
	}
	pc_profile_free(p);
	pc_options_free(o);
	return 0;
}
