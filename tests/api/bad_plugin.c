/*
 * bad_plugin.c - plugins the registry must refuse, one per -D switch:
 *   BAD_WRONG_ABI    the entry point reports another ABI version
 *   BAD_LOADER_ABI   the entry point is right, a loader's abi_version is not
 *   BAD_NO_ENTRY     no pc_plugin_loaders symbol at all
 */
#include <profcore_plugin.h>

#include <stddef.h>

static int probe(const unsigned char *head, size_t len, const char *filename)
{
	(void)head;
	(void)len;
	(void)filename;
	return 0;
}

static int load(pc_profile *p, pc_stream *s, const pc_options *opts)
{
	(void)p;
	(void)opts;
	return pc_stream_fail(s, PC_EUNSUPPORTED, -1, "never used");
}

static const pc_loader bad = {
#ifdef BAD_LOADER_ABI
	.abi_version = PC_LOADER_ABI_VERSION + 1,
#else
	.abi_version = PC_LOADER_ABI_VERSION,
#endif
	.name = "bad",
	.description = "a plugin the registry must refuse",
	.roles = PC_ROLE_SAMPLES,
	.probe = probe,
	.load = load,
};

static const pc_loader *const loaders[] = { &bad, NULL };

#ifdef BAD_NO_ENTRY
PC_PLUGIN_EXPORT const pc_loader *const *pc_plugin_loader(unsigned *abi);
PC_PLUGIN_EXPORT const pc_loader *const *pc_plugin_loader(unsigned *abi)
#else
PC_PLUGIN_EXPORT const pc_loader *const *pc_plugin_loaders(unsigned *abi)
#endif
{
#ifdef BAD_WRONG_ABI
	*abi = PC_LOADER_ABI_VERSION + 1;
#else
	*abi = PC_LOADER_ABI_VERSION;
#endif
	return loaders;
}
