/*
 * profcore_plugin.h - the SDK header for libprofcore loader plugins.
 *
 * A plugin is a shared object that adds loaders (readers for capture or
 * symbol formats) to a pc_registry.  profcat loads every *.so found in the
 * directories of $PROFCORE_PLUGIN_PATH (':'-separated) and in the install's
 * plugin directory (<libdir>/profcore/plugins); a program does the same
 * with pc_registry_load_plugins() or pc_registry_load_plugin().
 *
 * Contract
 *  - Export one function, with C linkage and default visibility:
 *
 *        PC_PLUGIN_EXPORT const pc_loader *const *
 *        pc_plugin_loaders(unsigned *abi_version)
 *        {
 *                *abi_version = PC_LOADER_ABI_VERSION;
 *                return my_loaders;      // NULL-terminated
 *        }
 *
 *    A shared object without it, or whose *abi_version or any
 *    pc_loader.abi_version is outside [PC_LOADER_ABI_MIN,
 *    PC_LOADER_ABI_VERSION], is refused (pc_registry_load_plugin() fails
 *    with PC_EUNSUPPORTED and says why; nothing of it is registered).
 *    A plugin built against an older profcore.h keeps loading: the
 *    registry reads only the pc_loader fields of the plugin's version
 *    (profcore.h lists what each version added).
 *  - Declare the option keys load() reads in pc_loader.options (ABI 2),
 *    a pc_option_decl table ending with a NULL name: a load's options
 *    are checked against it before load() runs (an unknown key or a value
 *    that does not fit is PC_EUSAGE), and profcat --list-formats -v
 *    prints it.  NULL declares no keys.
 *  - The array and the loaders it points to must be static: the registry
 *    keeps pointers to them and never unloads a plugin while it lives.
 *  - A loader's name must be unique in the registry (PC_EUSAGE otherwise).
 *  - probe() gets at most 4096 bytes and must not read past len; load()
 *    reads only through pc_stream_* and fills the profile only through
 *    pc_profile_add_* / pc_profile_set_*, exactly like a built-in loader.
 *    It reports bad input with pc_stream_fail(s, code, offset, "expected
 *    ...") and returns that negative status; it never prints or exits.
 *  - Everything given to pc_profile_add_*() is copied: stack buffers are
 *    fine.
 *  - Every count or length read from the input must be checked against
 *    the bytes present (pc_stream_size(), or read incrementally) before it
 *    sizes an allocation or a loop.
 *  - load() may be called from several threads at once for different
 *    profiles: keep no mutable global state.
 *
 * Build against the installed headers only:
 *
 *     cc -shared -fPIC -o my.so my.c $(pkg-config --cflags --libs profcore)
 *
 * and install it into $(pkg-config --variable=plugindir profcore).
 *
 * examples/plugin/ in the source tree is a complete plugin.
 */
#ifndef PROFCORE_PLUGIN_H
#define PROFCORE_PLUGIN_H

#include "profcore.h"

#ifdef __cplusplus
extern "C" {
#endif

#if defined(_WIN32)
#define PC_PLUGIN_EXPORT __declspec(dllexport)
#elif defined(__GNUC__)
#define PC_PLUGIN_EXPORT __attribute__((visibility("default")))
#else
#define PC_PLUGIN_EXPORT
#endif

/** The plugin entry point (see above); its name is PC_PLUGIN_ENTRY and
 *  its type pc_plugin_entry_fn.  Defined by plugins, not by libprofcore. */
PC_PLUGIN_EXPORT const pc_loader *const *pc_plugin_loaders(
	unsigned *abi_version);

#ifdef __cplusplus
}
#endif
#endif /* PROFCORE_PLUGIN_H */
