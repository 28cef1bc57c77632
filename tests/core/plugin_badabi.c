/* A plugin built for a future loader ABI: must be refused. */
#include "profcore.h"

static const pc_loader *const loaders[] = {NULL};

__attribute__((visibility("default"))) const pc_loader *const *
pc_plugin_loaders(unsigned *abi);
const pc_loader *const *pc_plugin_loaders(unsigned *abi)
{
	*abi = PC_LOADER_ABI_VERSION + 98;
	return loaders;
}
