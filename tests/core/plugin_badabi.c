/* A plugin built for a future loader ABI (or, with -DBAD_ABI_LOW, for one
 * below PC_LOADER_ABI_MIN): must be refused. */
#include "profcore.h"
#include "profcore_plugin.h"

static const pc_loader *const loaders[] = {NULL};

__attribute__((visibility("default"))) const pc_loader *const *
pc_plugin_loaders(unsigned *abi);
const pc_loader *const *pc_plugin_loaders(unsigned *abi)
{
#ifdef BAD_ABI_LOW
	*abi = PC_LOADER_ABI_MIN - 1;
#else
	*abi = PC_LOADER_ABI_VERSION + 98;
#endif
	return loaders;
}
