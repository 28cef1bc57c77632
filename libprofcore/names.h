/*
 * names.h - display names (demangle.c) and the built-in loader table.
 * Private to libprofcore, the built-in loaders and the report engines
 * (internal.h includes every one of these).
 */
#ifndef PC_NAMES_H
#define PC_NAMES_H

#include "pc_base.h"

/* ---- display names (demangle.c) ----------------------------------------- */
/** The demangled form of name in *shown (malloc'ed; caller frees), NULL
 *  when it is not mangled or without a demangler; PC_ENOMEM (*shown
 *  NULL) when an allocation of its own fails (libiberty's failures read
 *  as "not mangled"). */
PC_INTERNAL int pc_demangle(const char *name, char **shown);
/** Display name of symbol i: demangled once, then cached; the raw name
 *  when it is not mangled.  NULL when i is out of range. */
PC_INTERNAL const char *pc_symbol_display(pc_profile *p, size_t i);
/** The name as rows show it, for a name that is no symbol's (a DWARF
 *  function name): demangled (pooled in p, cached by the name's address)
 *  when p demangles (the "demangle" option) and it is mangled, else name
 *  itself; out of memory: name. */
PC_INTERNAL const char *pc_name_display(pc_profile *p, const char *name);

/* Built-in loader table, generated from loaders/meson.build. */
PC_INTERNAL extern const pc_loader *const pc_builtin_loaders[];

#endif
