/* A tiny out-of-tree loader used by the registry tests: "TOY1" then lines
 * "<hex address> <count>". Built as a shared module, loaded with dlopen.
 *
 * Built twice (tests/core/meson.build): as a plugin of the current loader
 * ABI ("toy", which declares its key "multiplier"), and with -DTOY_ABI_V1
 * as a plugin built against loader ABI 1 ("toy1"): pc_loader as ABI 1
 * laid it out is frozen below, so the registry must read no field that
 * ABI 1 did not have (ASan sees a read past this static struct). */
#include "profcore.h"
#include "profcore_plugin.h"

#include <stdlib.h>
#include <string.h>

#ifdef TOY_ABI_V1
typedef struct toy_loader {
	unsigned abi_version;
	const char *name;
	const char *description;
	unsigned roles;
	const char *const *extensions;
	int (*probe)(const unsigned char *head, size_t len, const char *filename);
	int (*load)(pc_profile *p, pc_stream *s, const pc_options *opts);
	int order;
} toy_loader;
#define TOY_ABI 1u
#define TOY_NAME "toy1"
#else
typedef pc_loader toy_loader;
#define TOY_ABI PC_LOADER_ABI_VERSION
#define TOY_NAME "toy"
static const pc_option_decl toy_options[] = {
	{"multiplier", PC_OPTION_U64, NULL, "1", "every count is multiplied by it"},
	{NULL, PC_OPTION_STRING, NULL, NULL, NULL},
};
#endif

static int toy_probe(const unsigned char *h, size_t n, const char *name)
{
	(void)name;
	return n >= 5 && memcmp(h, "TOY1\n", 5) == 0 ? 40 : 0;
}

static int toy_load(pc_profile *p, pc_stream *s, const pc_options *o)
{
	uint64_t mul = 1;
	if (pc_options_get_u64(&mul, NULL, o, "multiplier"))
		return pc_stream_fail(s, PC_EUSAGE, -1, "multiplier must be a number");
	const char *line;
	size_t len;
	uint64_t off;
	int r = pc_stream_getline(&line, &len, &off, s);
	if (r || !line || len != 4 || memcmp(line, "TOY1", 4) != 0)
		return pc_stream_fail(s, PC_EFORMAT, 0, "expected TOY1 header");
	while ((r = pc_stream_getline(&line, &len, &off, s)) == PC_OK && line) {
		char buf[64];
		if (len >= sizeof buf)
			return pc_stream_fail(s, PC_EFORMAT, (int64_t)off, "line too long");
		memcpy(buf, line, len);
		buf[len] = '\0';
		char *end;
		unsigned long long a = strtoull(buf, &end, 16);
		unsigned long long c = strtoull(end, &end, 10);
		if (*end)
			return pc_stream_fail(s, PC_EFORMAT, (int64_t)off,
					      "expected '<hex address> <count>'");
		if ((r = pc_profile_add_sample(p, PC_NOSEG, a, c * mul)))
			return r;
	}
	return r;
}

static const toy_loader toy = {
	.abi_version = TOY_ABI,
	.name = TOY_NAME,
	.description = "toy samples (test plugin)",
	.roles = PC_ROLE_SAMPLES,
	.probe = toy_probe,
	.load = toy_load,
	.order = 10,
#ifndef TOY_ABI_V1
	.options = toy_options,
#endif
};

static const toy_loader *const loaders[] = {&toy, NULL};

/* the loader ABI 1 layout is read as a pc_loader's first fields */
PC_PLUGIN_EXPORT const pc_loader *const *pc_plugin_loaders(unsigned *abi)
{
	*abi = TOY_ABI;
	return (const pc_loader *const *)(const void *)loaders;
}
