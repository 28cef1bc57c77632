/* libFuzzer harness: one loader (FUZZ_FORMAT, or detection when it is
 * "auto") reads the input from memory; what loaded is then attributed,
 * rendered as every report and exported, so that the report engines see
 * fuzzed profiles too.  FUZZ_OPTS: comma-separated KEY=VALUE loader
 * options (e.g. "width=4,endian=big" for formats that need them). */
#include "profcore.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#ifndef FUZZ_FORMAT
#define FUZZ_FORMAT "auto"
#endif
#ifndef FUZZ_OPTS
#define FUZZ_OPTS ""
#endif

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static pc_options *options(void)
{
	pc_options *o;
	if (pc_options_new(&o))
		abort();
	char buf[256];
	strncpy(buf, FUZZ_OPTS, sizeof buf - 1);
	buf[sizeof buf - 1] = '\0';
	for (char *save = NULL, *t = strtok_r(buf, ",", &save); t;
	     t = strtok_r(NULL, ",", &save))
		pc_options_parse(o, t);
	return o;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static pc_options *lo;
	if (!lo)
		lo = options();
	pc_profile *p;
	pc_profile_new(&p, NULL);
	if (!p)
		return 0;
	const char *fmt = strcmp(FUZZ_FORMAT, "auto") ? FUZZ_FORMAT : NULL;
	if (pc_profile_load_memory(p, data, size, "fuzz", fmt, lo) == PC_OK) {
		pc_options *ro = NULL;
		pc_options_new(&ro); /* NULL on failure: an empty bag */
		static const char *const ofs[] = {"text", "csv", "json"};
		for (size_t i = 0; pc_report_name_at(i); i++) {
			for (size_t f = 0; f < 3; f++) {
				char *out = NULL;
				size_t len = 0;
				pc_options_set(ro, "output-format", ofs[f]);
				if (pc_profile_render(&out, &len, p, pc_report_name_at(i), ro) == PC_OK)
					pc_free(out);
			}
		}
		pc_options_free(ro);
	}
	pc_profile_free(p);
	return 0;
}
