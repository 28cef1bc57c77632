/* A tiny out-of-tree loader used by the registry tests: "TOY1" then lines
 * "<hex address> <count>". Built as a shared module, loaded with dlopen. */
#include "profcore.h"

#include <stdlib.h>
#include <string.h>

static int toy_probe(const unsigned char *h, size_t n, const char *name)
{
	(void)name;
	return n >= 5 && memcmp(h, "TOY1\n", 5) == 0 ? 40 : 0;
}

static int toy_load(pc_profile *p, pc_stream *s, const pc_options *o)
{
	(void)o;
	const char *line;
	size_t len;
	uint64_t off;
	int r = pc_stream_getline(s, &line, &len, &off);
	if (r || !line || len != 4 || memcmp(line, "TOY1", 4) != 0)
		return pc_stream_fail(s, PC_EFORMAT, 0, "expected TOY1 header");
	while ((r = pc_stream_getline(s, &line, &len, &off)) == PC_OK && line) {
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
		if ((r = pc_profile_add_sample(p, PC_NOSEG, a, c)))
			return r;
	}
	return r;
}

static const pc_loader toy = {
	.abi_version = PC_LOADER_ABI_VERSION,
	.name = "toy",
	.description = "toy samples (test plugin)",
	.roles = PC_ROLE_SAMPLES,
	.probe = toy_probe,
	.load = toy_load,
	.order = 10,
};

static const pc_loader *const loaders[] = {&toy, NULL};

__attribute__((visibility("default"))) const pc_loader *const *
pc_plugin_loaders(unsigned *abi);
const pc_loader *const *pc_plugin_loaders(unsigned *abi)
{
	*abi = PC_LOADER_ABI_VERSION;
	return loaders;
}
