/*
 * optview.h - option keys and the typed view of a bag (options.c).
 * Private to libprofcore, the built-in loaders and the report engines
 * (internal.h includes every one of these).
 */
#ifndef PC_OPTVIEW_H
#define PC_OPTVIEW_H

#include "pc_base.h"

/* ---- option keys (options.c) ---- */
/** The attribution settings of a bag (a report's, an export's), parsed
 *  when its keys were set; NULL when o is NULL (the profile's own). */
PC_INTERNAL const pc_attrib_options *pc_options_attrib(const pc_options *o);
/** The DWARF reader's settings of a bag (source-path, debuginfod); NULL
 *  when o is NULL. */
PC_INTERNAL const pc_dwarf_options *pc_options_dwarf(const pc_options *o);
/** A report's output format (key "output-format"). */
typedef enum pc_outfmt {
	PC_OUT_TEXT, PC_OUT_CSV, PC_OUT_JSON, PC_OUT_HTML,
	PC_OUT_BAD /* a value none of these (the key check names it) */
} pc_outfmt;
/** What a row is (key "granularity"; "symbol" is "function"). */
typedef enum pc_gran {
	PC_GRAN_NONE, /* absent: the consumer's default              */
	PC_GRAN_FUNCTION, PC_GRAN_LINE, PC_GRAN_FILE, PC_GRAN_ADDRESS,
	PC_GRAN_BAD
} pc_gran;
/** o's "output-format" (PC_OUT_TEXT when absent or o is NULL) and
 *  "granularity", parsed when they were set. */
PC_INTERNAL pc_outfmt pc_options_outfmt(const pc_options *o);
PC_INTERNAL pc_gran pc_options_gran(const pc_options *o);
/** The call graph settings of a bag: its attribution and callgraph-time;
 *  NULL when o is NULL (the defaults). */
PC_INTERNAL const pc_callgraph_options *pc_options_callgraph(const pc_options *o);
/** The declaration of key in keys (a NULL-terminated table), or NULL. */
PC_INTERNAL const pc_option_decl *pc_option_find(const pc_option_decl *keys,
						 const char *key);
/** PC_OK if key is in keys and value (may be NULL: not checked) fits its
 *  type, else PC_EUSAGE with the message in msg. */
PC_INTERNAL int pc_option_check(const pc_option_decl *keys, const char *consumer,
				const char *key, const char *value, char *msg,
				size_t cap);
/** pc_option_check for every entry of o. */
PC_INTERNAL int pc_options_check(const pc_options *o, const pc_option_decl *keys,
				 const char *consumer, char *msg, size_t cap);
/** pc_options_check, the error recorded on p. */
PC_INTERNAL int pc_profile_check_options(pc_profile *p, const pc_options *o,
					 const pc_option_decl *keys,
					 const char *consumer);
/** The attribution keys (attribution, use-sizes, demangle) that every
 *  report and export takes, for their tables. */
#define PC_ATTRIBUTION_OPTION_DECLS                                              \
	{"attribution", PC_OPTION_ENUM, "proportional,bucket-start", "proportional", \
	 "how a histogram bucket is split among the symbols in it"},             \
	    {"use-sizes", PC_OPTION_ENUM, "0,1", "0",                             \
	     "end symbols at address+size when the size is known"},               \
	    {"demangle", PC_OPTION_ENUM, "auto,none,0,1,gnu", "auto",             \
	     "show C++ and Rust names demangled (auto) or raw (none)"}
/** gprof's symbol selections (symspec.c), read with the attribution by
 *  the reports and the fit check. */
#define PC_SYMSPECS_OPTION_DECL                                                  \
	{"gprof-symspecs", PC_OPTION_STRING, NULL, NULL,                          \
	 "gprof's symbol selections: option letters pPqQfeFEnNkAJ with a symspec, " \
	 "';'-separated"}
/** Where the program's DWARF and sources are found (pc_dwarf_options),
 *  for the tables of the reports that show source positions. */
#define PC_DWARF_OPTION_DECLS                                                    \
	{"source-path", PC_OPTION_STRING, NULL, NULL,                             \
	 "directories searched for source files"},                               \
	    {"debuginfod", PC_OPTION_BOOL, NULL, "0",                             \
	     "also ask DEBUGINFOD_URLS' servers for separate debug files (network)"}
/** The key callgraph-time (pc_callgraph_options.time). */
#define PC_CGTIME_OPTION_DECL                                                    \
	{"callgraph-time", PC_OPTION_ENUM, "samples,flat", NULL, "call graph own times"}
/** The entry that ends a table of keys. */
#define PC_OPTION_DECLS_END {NULL, PC_OPTION_STRING, NULL, NULL, NULL}

#endif
