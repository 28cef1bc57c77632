/*
 * profcore.h - public API of libprofcore.
 *
 * libprofcore reads program-counter sample captures (histograms, raw PC
 * dumps, call arcs) and symbol tables from many profilers and attributes the
 * samples to symbols and address regions.
 *
 * Conventions (each function's comment says where it differs)
 *  - Every public identifier starts with pc_ / PC_.
 *  - Handles are opaque.  Each is made by an int pc_X_new(pc_X **out, ...)
 *    (or pc_stream_open_*) that returns PC_OK or a negative pc_status;
 *    on failure *out is NULL and pc_last_error() (per thread) says why.
 *    Each has a pc_X_free() (NULL is fine).
 *  - Errors: every function returns PC_OK (0) or a negative pc_status,
 *    except pure accessors, which return a stored value (a count, a
 *    name, a rate), cannot fail, and answer NULL / 0 for an index out of
 *    range.  A function that computes (attribution, sorting) returns a
 *    status even when it only reads.  "Not found" is PC_ENOTFOUND, never
 *    a -1 index.  Details (message, file, byte offset) are kept on the
 *    handle the function was given and read with pc_profile_error(),
 *    pc_stream_error(), pc_registry_error(), pc_dwarf_error().  Setters
 *    validate: a refused value is PC_EUSAGE, recorded on the handle, and
 *    changes nothing.  Handles must not be NULL unless a function says
 *    so (every pc_X_free accepts NULL).  The library never prints and
 *    never exits.
 *  - Ownership: the caller owns what a pc_X_new()/pc_X_open_*() returns
 *    and frees it with pc_X_free(); buffers returned through a char **out
 *    are freed with pc_free().  Everything else the library returns
 *    (strings, pc_error, pc_loader, the pointers inside pc_symbol, pc_row,
 *    ...) is borrowed from the handle it came from and stays valid until
 *    that handle is freed, unless the function says otherwise (a line
 *    from pc_stream_getline: until the next read); error details only
 *    until the next call on that handle that can fail.  Inputs are copied unless a function says it
 *    borrows them.
 *  - Thread safety: no global mutable state, so separate handles may be
 *    used from separate threads at once.  One handle must not be used by
 *    two threads at once, with any function, including those taking a
 *    const pointer (some reads fill caches: samples, rows, totals).
 *    Exceptions are marked in place: "[any thread]" functions have no
 *    handle and may be called at any time; a pc_registry may be shared
 *    by profiles in several threads once it is built (see there).
 *  - ABI: the shared library's SONAME is libprofcore.so.MAJOR.MINOR
 *    while PC_VERSION_MAJOR is 0 (a new minor version may break callers),
 *    libprofcore.so.MAJOR from 1.0 on, and only pc_ symbols are
 *    exported; loader plugins are versioned separately
 *    (PC_LOADER_ABI_VERSION, profcore_plugin.h).  Output
 *    structs may grow at their end: the functions filling them take the
 *    caller's sizeof (see pc_profile_row_at).  No FILE * crosses into the
 *    library (the _file helpers are inline).  The library reads no
 *    environment variable.
 */
#ifndef PROFCORE_H
#define PROFCORE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(_WIN32) && defined(PC_BUILDING_LIBRARY) && !defined(PC_STATIC)
#define PC_API __declspec(dllexport)
#elif defined(_WIN32) && !defined(PC_STATIC)
#define PC_API
#elif defined(__GNUC__)
#define PC_API __attribute__((visibility("default")))
#else
#define PC_API
#endif

#if defined(__MINGW32__)
/* libprofcore formats with mingw-w64's C99 printf (__USE_MINGW_ANSI_STDIO),
 * not msvcrt's: %zu, %lld and the same digits as on every other host */
#define PC_PRINTF(f, a) __attribute__((format(gnu_printf, f, a)))
#elif defined(__GNUC__)
#define PC_PRINTF(f, a) __attribute__((format(printf, f, a)))
#else
#define PC_PRINTF(f, a)
#endif

/* PC_VERSION_MAJOR, _MINOR, _PATCH and _STRING, generated from the
 * project version (meson.build) */
#include "profcore_version.h"

/** The library's version string, PC_VERSION_STRING of the library that
 *  runs (which may be newer than the header compiled in).  [any thread] */
PC_API const char *pc_version(void);

/* ------------------------------------------------------------------ */
/* Status codes                                                        */

typedef enum pc_status {
	PC_OK = 0,
	PC_EIO = -1,          /* the operating system failed a read/open      */
	PC_EFORMAT = -2,      /* malformed input                              */
	PC_ETRUNC = -3,       /* input ends before a structure is complete    */
	PC_ENOMEM = -4,       /* out of memory                                */
	PC_EUNSUPPORTED = -5, /* valid but unsupported variant                */
	PC_EUSAGE = -6,       /* bad argument or option value                 */
	PC_EUNKNOWN = -7,     /* no loader recognises the input               */
	PC_ELIMIT = -8,       /* a documented resource limit was exceeded     */
	PC_EAMBIGUOUS = -9,   /* several readings possible; an option decides */
	PC_ENOTFOUND = -10    /* named thing (loader, symbol, ...) not found  */
} pc_status;

/** A short description of a status ("malformed input").  [any thread] */
PC_API const char *pc_status_name(int status);
/** The shown form of a name (or any text from input data), as every
 *  report and export writes it: valid UTF-8 is kept, control bytes and
 *  bytes of invalid UTF-8 become the four characters \xNN.  Writes at most
 *  cap bytes (NUL included, whole escapes only) to dst (may be NULL) and
 *  returns the full length, like snprintf.  Names in the model keep their
 *  original bytes.  [any thread] */
PC_API size_t pc_name_escape(char *dst, size_t cap, const char *name);

/** An error as kept on a handle.  offset is -1 when no byte offset
 *  applies, file is NULL when no file is involved. */
typedef struct pc_error {
	int code;
	const char *file;
	int64_t offset;
	const char *message;
} pc_error;

/** The error of the last call on this thread that failed before it had a
 *  handle to keep the error on: a constructor (pc_profile_new,
 *  pc_registry_new, pc_dwarf_new, pc_options_new, pc_stream_open_file,
 *  pc_stream_open_memory).  NULL if there was none.  Borrowed: valid
 *  until the next such failure on the same thread.  [any thread: each
 *  thread has its own] */
PC_API const pc_error *pc_last_error(void);

/* ------------------------------------------------------------------ */
/* Model vocabulary                                                    */

/** "No segment": flat address spaces. */
#define PC_NOSEG UINT32_MAX

/** Where a PC fell when it is not in a symbol of the program. */
typedef enum pc_region_class {
	PC_REGION_APPLICATION = 0, /* the profiled program's code            */
	PC_REGION_SYSTEM,          /* system / ROM (Atari "sys")             */
	PC_REGION_DOS,             /* MS-DOS kernel                          */
	PC_REGION_IO,              /* BIOS / I/O                             */
	PC_REGION_HIGH,            /* above the program                      */
	PC_REGION_LOW,             /* below the program (DDJ PA_BOT_MEM)     */
	PC_REGION_LIBRARY,         /* shared library                         */
	PC_REGION_KERNEL,          /* operating system kernel                */
	PC_REGION_UNKNOWN,         /* none of the above                      */
	PC_REGION_SLEEP,           /* the core was asleep (WFI/WFE: SWO sleep
				      packets); no PC                        */
	PC_REGION_COUNT
} pc_region_class;

/** [any thread] */
PC_API const char *pc_region_class_name(pc_region_class c);

typedef enum pc_symkind {
	PC_SYM_TEXT = 0, /* code: an attribution target                   */
	PC_SYM_DATA,
	PC_SYM_BSS,
	PC_SYM_ABS, /* absolute value / equate: never looked up            */
	PC_SYM_OTHER /* file names, markers, ...                           */
} pc_symkind;

/** [any thread] */
PC_API const char *pc_symkind_name(pc_symkind k);

typedef enum pc_binding {
	PC_BIND_GLOBAL = 0,
	PC_BIND_LOCAL,
	PC_BIND_WEAK
} pc_binding;

/* pc_symbol.flags */
#define PC_SYMF_FUNC 0x1u     /* typed as a function (ELF STT_FUNC)         */
#define PC_SYMF_NOATTR 0x2u   /* listed, but never an attribution target    */
#define PC_SYMF_EXCLUDED 0x4u /* target whose credit is removed from totals */
#define PC_SYMF_TARGET 0x8u   /* force text-like target even if not TEXT    */
#define PC_SYMF_EXTENT 0x20u  /* size is the exact extent: the target ends
                                 at address+size even before the next symbol */

/** A symbol as given to / read from a profile. */
typedef struct pc_symbol {
	const char *name;
	const char *file;    /* source/object file, or NULL                 */
	const char *section; /* section/segment name, or NULL               */
	uint32_t segment;    /* PC_NOSEG for flat addresses                 */
	uint64_t address;
	uint64_t size; /* 0 = unknown: extends to the next symbol          */
	pc_symkind kind;
	pc_binding binding;
	unsigned flags;
} pc_symbol;

/** An address range with a class ("TEXT of the program", "TOS ROM"). */
typedef struct pc_region {
	uint32_t segment;
	uint64_t low, high; /* [low, high) */
	pc_region_class cls;
	const char *label;
} pc_region;

/** A profil-style histogram: [low, high) split into nbins equal buckets.
 *  unit is the address granule used for proportional splitting (gprof
 *  works in 2-byte UNITs; byte-granular captures use 1). */
typedef struct pc_histogram {
	uint32_t segment;
	uint64_t low, high;
	size_t nbins;
	const uint64_t *counts;
	unsigned unit;
} pc_histogram;

/** A call arc. Times are in the profile's time unit (0 when unknown). */
typedef struct pc_arc {
	uint32_t from_segment;
	uint64_t from;
	uint32_t to_segment;
	uint64_t to;
	uint64_t count;
	double htime; /* hierarchical (inclusive) time, Proff */
	double ftime; /* flat (self) time, Proff               */
} pc_arc;

typedef enum pc_endian {
	PC_ENDIAN_UNKNOWN = 0,
	PC_ENDIAN_LITTLE = 1,
	PC_ENDIAN_BIG = 2
} pc_endian;

/* ------------------------------------------------------------------ */
/* Options: a key/value bag used by loaders, reports and exports,      */
/* checked against the keys its consumer declares (pc_option_decl).    */

typedef struct pc_options pc_options;

/** The type of an option's value, as a pc_option_decl declares it. */
typedef enum pc_option_type {
	PC_OPTION_STRING = 0, /* any text (the consumer checks it when used) */
	PC_OPTION_U64,        /* unsigned integer: decimal, 0x hex, 0 octal  */
	PC_OPTION_DOUBLE,     /* a finite number (strtod)                    */
	PC_OPTION_BOOL,       /* 0/1, no/yes, off/on, false/true             */
	PC_OPTION_ENUM        /* one of the comma-separated choices          */
} pc_option_type;

/** One key a consumer (a loader, a report, an export) reads.  Tables of
 *  them end with an entry whose name is NULL.  choices: for
 *  PC_OPTION_ENUM the accepted values, comma-separated ("little,big");
 *  NULL otherwise.  default_value: shown in listings, NULL when the
 *  default depends on the input.  Static strings. */
typedef struct pc_option_decl {
	const char *name;
	pc_option_type type;
	const char *choices;
	const char *default_value;
	const char *help;
} pc_option_decl;

/** [any thread] A short name of an option type ("string", "u64",
 *  "number", "bool", "enum"). */
PC_API const char *pc_option_type_name(pc_option_type t);

/** A new, empty bag in *out; the caller frees it with pc_options_free().
 *  Errors: PC_EUSAGE (out NULL), PC_ENOMEM; *out is then NULL and
 *  pc_last_error() says why.  An unbound bag takes any key; its keys are
 *  checked when it is handed to a loader (pc_profile_load_*), a report
 *  (pc_profile_render*) or an export (pc_profile_export*): an unknown key or a bad value there fails with
 *  PC_EUSAGE before any work, the message (on the profile) naming the
 *  key and the known ones. */
PC_API int pc_options_new(pc_options **out);
PC_API void pc_options_free(pc_options *o);
/** Binds o to the key table of one consumer (keys, borrowed: it must
 *  outlive o; e.g. a pc_loader's options, pc_report_options(),
 *  pc_export_options()); consumer names it in messages ("export pprof").
 *  The keys already set are checked now, and every later
 *  pc_options_set()/pc_options_parse() is checked at once: an unknown key
 *  or a bad value is PC_EUSAGE ("unknown option 'granularty' for export
 *  pprof; known: ...") and leaves o unchanged.  keys NULL unbinds.
 *  The message is read with pc_options_error(). */
PC_API int pc_options_bind(pc_options *o, const pc_option_decl *keys,
			   const char *consumer);
/** The last error of pc_options_bind/set/parse on o, NULL
 *  if none; cleared by the next call that succeeds. */
PC_API const pc_error *pc_options_error(const pc_options *o);
/** Sets (or replaces) key; value NULL removes it.  PC_EUSAGE for an
 *  empty key or, when o is bound, an unknown key or a bad value;
 *  PC_ENOMEM. */
PC_API int pc_options_set(pc_options *o, const char *key, const char *value);
/** Parses "key=value"; a bare "key" means "key=1".  Errors as
 *  pc_options_set ("=value" is PC_EUSAGE). */
PC_API int pc_options_parse(pc_options *o, const char *assignment);
/** The value of key, NULL if absent; borrowed until key is set again. */
PC_API const char *pc_options_get(const pc_options *o, const char *key);
/** Integer value of key (decimal, 0x hex, 0 octal) in *out.  Returns
 *  PC_OK with *found = 1 if present and valid, PC_OK with *found = 0
 *  (and *out unchanged) if absent, PC_EUSAGE if malformed (*found = 1).
 *  found may be NULL; o may be NULL (nothing is present). */
PC_API int pc_options_get_u64(uint64_t *out, int *found, const pc_options *o,
			      const char *key);
/** The same for a number (strtod). */
PC_API int pc_options_get_double(double *out, int *found, const pc_options *o,
				 const char *key);
PC_API size_t pc_options_count(const pc_options *o);
/** Key of entry i (in the order first set), NULL past the end. */
PC_API const char *pc_options_key_at(const pc_options *o, size_t i);
/* ------------------------------------------------------------------ */
/* Typed options of the library's own functions (libgit2's way): each   */
/* struct starts with its version; initialise it with its _INIT macro   */
/* or its _init() function, then set the fields you want.  A struct of  */
/* a version this library does not know is PC_EUSAGE.  String keys are  */
/* parsed into them only at the edges that take strings (profcat, the   */
/* Python binding): pc_attrib_options_set().                            */

/** How samples in a histogram bucket are split among symbols. */
typedef enum pc_attribution_rule {
	PC_ATTRIBUTION_PROPORTIONAL = 0, /* gprof (the default)          */
	PC_ATTRIBUTION_BUCKET_START = 1  /* PROFIL / PROHST              */
} pc_attribution_rule;

/** Names in rows and reports. */
typedef enum pc_demangle_mode {
	PC_DEMANGLE_AUTO = 0, /* demangled when the build can (default)  */
	PC_DEMANGLE_NONE = 1  /* the raw (mangled) names                 */
} pc_demangle_mode;

/** The attribution's settings (pc_profile_attribute; docs/attribution.md). */
typedef struct pc_attrib_options {
	unsigned version;         /* PC_ATTRIB_OPTIONS_VERSION            */
	pc_attribution_rule rule; /* key "attribution"                    */
	int use_sizes;            /* key "use-sizes": 1 ends symbols at
				     address+size when the size is known */
	pc_demangle_mode demangle; /* key "demangle" (auto, none)         */
	const char *gprof_symspecs; /* key "gprof-symspecs": gprof's symbol
				     selections, ';'-separated; NULL none;
				     copied by the profile                */
} pc_attrib_options;
#define PC_ATTRIB_OPTIONS_VERSION 1
#define PC_ATTRIB_OPTIONS_INIT                                            \
	{                                                                 \
		PC_ATTRIB_OPTIONS_VERSION, PC_ATTRIBUTION_PROPORTIONAL, 0,  \
		    PC_DEMANGLE_AUTO, NULL                                \
	}
/** Fills *opts with the defaults of version (PC_ATTRIB_OPTIONS_VERSION).
 *  PC_EUSAGE for opts NULL or a version this library does not know.
 *  [any thread] */
PC_API int pc_attrib_options_init(pc_attrib_options *opts, unsigned version);
/** Parses one string key of the attribution ("attribution",
 *  "use-sizes", "demangle", "gprof-symspecs") into *opts; value is
 *  borrowed for gprof-symspecs (it must outlive opts' use).
 *  PC_ENOTFOUND when key is not one of them (opts unchanged), PC_EUSAGE
 *  for a bad value.  [any thread] */
PC_API int pc_attrib_options_set(pc_attrib_options *opts, const char *key,
				 const char *value);
/** The string keys pc_attrib_options_set() parses, as a NULL-terminated
 *  static table (for listings and pc_options_bind).  [any thread] */
PC_API const pc_option_decl *pc_attrib_options_keys(void);

/** Own times of the call graph's nodes. */
typedef enum pc_callgraph_time {
	PC_CALLGRAPH_TIME_AUTO = 0, /* samples, or the arcs' flat times when
				       the capture has no samples            */
	PC_CALLGRAPH_TIME_SAMPLES = 1,
	PC_CALLGRAPH_TIME_FLAT = 2
} pc_callgraph_time;

/** pc_profile_callgraph's settings. */
typedef struct pc_callgraph_options {
	unsigned version;                /* PC_CALLGRAPH_OPTIONS_VERSION   */
	const pc_attrib_options *attrib; /* NULL: the profile's current    */
	pc_callgraph_time time;          /* key "callgraph-time"           */
} pc_callgraph_options;
#define PC_CALLGRAPH_OPTIONS_VERSION 1
#define PC_CALLGRAPH_OPTIONS_INIT \
	{ PC_CALLGRAPH_OPTIONS_VERSION, NULL, PC_CALLGRAPH_TIME_AUTO }
/** As pc_attrib_options_init.  [any thread] */
PC_API int pc_callgraph_options_init(pc_callgraph_options *opts,
				     unsigned version);

/** pc_profile_fit's settings. */
typedef struct pc_fit_options {
	unsigned version;                /* PC_FIT_OPTIONS_VERSION         */
	const pc_attrib_options *attrib; /* NULL: the profile's current    */
	int has_load_address;            /* 1: load_address was given      */
	uint64_t load_address;           /* key "load-address"             */
} pc_fit_options;
#define PC_FIT_OPTIONS_VERSION 1
#define PC_FIT_OPTIONS_INIT { PC_FIT_OPTIONS_VERSION, NULL, 0, 0 }
/** As pc_attrib_options_init.  [any thread] */
PC_API int pc_fit_options_init(pc_fit_options *opts, unsigned version);

/** pc_dwarf_new's settings. */
typedef struct pc_dwarf_options {
	unsigned version;        /* PC_DWARF_OPTIONS_VERSION                */
	const char *source_path; /* key "source-path": ':'-separated
				    directories searched for source files
				    (copied); NULL none                     */
	int debuginfod;          /* key "debuginfod": 1 also asks
				    DEBUGINFOD_URLS' servers (network)      */
} pc_dwarf_options;
#define PC_DWARF_OPTIONS_VERSION 1
#define PC_DWARF_OPTIONS_INIT { PC_DWARF_OPTIONS_VERSION, NULL, 0 }
/** As pc_attrib_options_init.  [any thread] */
PC_API int pc_dwarf_options_init(pc_dwarf_options *opts, unsigned version);

/* ------------------------------------------------------------------ */
/* Input streams: plain file, memory; gzip, xz, zstd (by magic bytes). */

typedef struct pc_stream pc_stream;

/** Decompressed input (gzip, xz, zstd) larger than this is an error
 *  (PC_ELIMIT). */
#define PC_GZIP_DEFAULT_LIMIT ((uint64_t)16 << 30)

/** Opens path ("-" = standard input) into *out (free with
 *  pc_stream_free).  gzip, xz and zstd content (recognised by its
 *  magic bytes) is decompressed on the fly.  Errors:
 *  PC_ENOTFOUND (no such file), PC_EIO (cannot open or read, a
 *  directory), PC_ENOMEM, PC_EUSAGE (out or path NULL); *out is then NULL
 *  and pc_last_error() names the file and the reason. */
PC_API int pc_stream_open_file(pc_stream **out, const char *path);
/** A stream over buf, which it borrows (buf must outlive the stream).
 *  name (copied) is used in messages.  Errors as pc_stream_open_file. */
PC_API int pc_stream_open_memory(pc_stream **out, const void *buf, size_t len,
				 const char *name);
/** Frees s (NULL is fine); closes its file unless it is standard input. */
PC_API void pc_stream_free(pc_stream *s);

/** The name given at open (the path, "<stdin>", or the memory stream's
 *  name); borrowed from s. */
PC_API const char *pc_stream_name(const pc_stream *s);
/** Current offset in the (decompressed) content. */
PC_API uint64_t pc_stream_offset(const pc_stream *s);
/** *known = 1 and *size = the total content size when it is known
 *  without reading (plain files, memory); *known = 0 and *size = 0
 *  otherwise (compressed content, pipes).  Returns PC_OK (PC_EUSAGE for NULL
 *  pointers). */
PC_API int pc_stream_size(uint64_t *size, int *known, const pc_stream *s);
/** 1 if the content was compressed (gzip, xz or zstd). */
PC_API int pc_stream_is_compressed(const pc_stream *s);

/** Progress of a read (pc_stream_set_progress): bytes is a multiple of
 *  the interval (done = 0), or at the end of the input the whole count
 *  (done = 1); total is the content size when known (a plain file,
 *  memory), else -1 (a pipe, compressed content). */
typedef void (*pc_progress_fn)(void *user, uint64_t bytes, int64_t total,
			       int done);
/** Calls fn each time the content read from s (decompressed; read into
 *  the stream's buffer, mapped or skipped by a loader) reaches a
 *  multiple of every bytes, with that multiple, and once when the reader
 *  reaches the end of the input, with the whole count.  Deterministic:
 *  the calls depend on the bytes, not on time or on how the source hands
 *  them out (multiples already read when this is called are reported
 *  at once, in order).  A loader that stops before the end (an error, a
 *  format whose end is not the file's) makes no done call.  fn NULL
 *  removes the callback.  PC_EUSAGE for s NULL or every 0. */
PC_API int pc_stream_set_progress(pc_stream *s, uint64_t every,
				  pc_progress_fn fn, void *user);


/* ------------------------------------------------------------------ */
/* Profiles                                                            */

typedef struct pc_profile pc_profile;
typedef struct pc_registry pc_registry;

/** A new, empty profile in *out (free with pc_profile_free).  reg (may
 *  be NULL: built-in loaders only) is borrowed and must outlive the
 *  profile.  Errors: PC_EUSAGE (out NULL), PC_ENOMEM; *out is then NULL
 *  and pc_last_error() says why. */
PC_API int pc_profile_new(pc_profile **out, const pc_registry *reg);
/** Frees p and everything borrowed from it (NULL is fine). */
PC_API void pc_profile_free(pc_profile *p);
/** The last error recorded on p, NULL if none. */
PC_API const pc_error *pc_profile_error(const pc_profile *p);
/** Number of warnings (pure accessor). */
PC_API size_t pc_profile_warning_count(const pc_profile *p);
/** Warning i (0-based, in the order added); NULL past the last one.
 *  Borrowed from p. */
PC_API const char *pc_profile_warning_at(const pc_profile *p, size_t i);
/** Number of notes (pure accessor). */
PC_API size_t pc_profile_note_count(const pc_profile *p);
/** Note i (0-based, in the order added); NULL past the last one.
 *  Borrowed from p. */
PC_API const char *pc_profile_note_at(const pc_profile *p, size_t i);

/** Loads a file: format NULL = detect from content.  opts may be NULL;
 *  its keys are checked against the loader's (pc_loader.options) before
 *  anything is read: an unknown key or a bad value is PC_EUSAGE, the
 *  message naming it (a loader built for ABI 1 declares none: not
 *  checked).  "no loader named 'X'" is PC_ENOTFOUND; content no loader
 *  recognises, PC_EUNKNOWN; PC_EIO when it cannot be read (recorded on
 *  p, with the file and byte offset, as the loader's PC_EFORMAT, ...). */
PC_API int pc_profile_load_file(pc_profile *p, const char *path,
				const char *format, const pc_options *opts);
/** The same from buf (borrowed during the call only); name is used in
 *  messages. */
PC_API int pc_profile_load_memory(pc_profile *p, const void *buf, size_t len,
				  const char *name, const char *format,
				  const pc_options *opts);
/** Reads from s, which stays the caller's (freed with pc_stream_free). */
PC_API int pc_profile_load_stream(pc_profile *p, pc_stream *s,
				  const char *format, const pc_options *opts);

/* Metadata.  Setters validate: a refused value is PC_EUSAGE (recorded
 * on p) and changes nothing. */
/** Sampling rate in Hz: finite and >= 0 (0 = unknown). */
PC_API int pc_profile_set_rate(pc_profile *p, double hz);
PC_API double pc_profile_rate(const pc_profile *p); /* 0 = unknown */
/** Duration of the run in seconds: finite and >= 0, or -1 = unknown. */
PC_API int pc_profile_set_duration(pc_profile *p, double seconds);
PC_API double pc_profile_duration(const pc_profile *p); /* <0 unknown */
/** Dimension of one sample (gprof: "seconds", 's'). */
PC_API int pc_profile_set_dimension(pc_profile *p, const char *name,
				    char abbrev);
/** The dimension's name (borrowed from p) and abbreviation. */
PC_API const char *pc_profile_dimension(const pc_profile *p);
PC_API char pc_profile_dimension_abbrev(const pc_profile *p);
/** The profiled program's name (copied); PC_ENOMEM. */
PC_API int pc_profile_set_program(pc_profile *p, const char *name);
/** The program's name, NULL if unknown; borrowed from p. */
PC_API const char *pc_profile_program(const pc_profile *p);
/** Address width in bytes (2, 4, 8) and byte order of the profiled
 *  program, when a loader knows them (ELF class/data, options). */
/** Threads used to count large batches of raw samples
 *  (pc_profile_add_records*): 1 .. PC_MAX_THREADS (more is PC_EUSAGE),
 *  or 0 = one per processor core (the default, at most
 *  PC_MAX_THREADS).  Results do not depend on it.  The library reads
 *  no environment variable (profcat reads PROFCORE_THREADS). */
#define PC_MAX_THREADS 8
PC_API int pc_profile_set_threads(pc_profile *p, unsigned n);
/* (Set it before adding samples: the counting threads start with the
 * first large batch; a later, smaller setting uses fewer of them, a
 * larger one no more than were started.) */
/** The thread count in use (the resolved default when 0 was set). */
PC_API unsigned pc_profile_threads(const pc_profile *p);
/** width: 0 (unknown), 1, 2, 4 or 8; e: a pc_endian value. */
PC_API int pc_profile_set_target(pc_profile *p, unsigned width, pc_endian e);
/** The target's address width (0: unknown) and byte order. */
PC_API unsigned pc_profile_target_width(const pc_profile *p);
PC_API pc_endian pc_profile_target_endian(const pc_profile *p);
/** Capture metadata as key/value text (e.g. the raw header fields of a
 *  PROFIL .PRF: "profil.prog_low_pa" = "0x0a50"); setting a key again
 *  replaces its value.  Keys are namespaced by format; README lists them. */
PC_API int pc_profile_set_meta(pc_profile *p, const char *key,
			       const char *value);
/** Value of key, or NULL. */
PC_API const char *pc_profile_meta(const pc_profile *p, const char *key);
/** Number of metadata entries (pure accessor). */
PC_API size_t pc_profile_meta_count(const pc_profile *p);
/** Key and value of entry i (in the order first set). */
PC_API int pc_profile_meta_at(const char **key, const char **value,
			      const pc_profile *p, size_t i);
/** Number of sources, and source i's format and file (borrowed from p;
 *  NULL past the last one). */
PC_API size_t pc_profile_source_count(const pc_profile *p);
PC_API const char *pc_profile_source_format(const pc_profile *p, size_t i);
PC_API const char *pc_profile_source_file(const pc_profile *p, size_t i);

/* Reading the model back. */
PC_API size_t pc_profile_symbol_count(const pc_profile *p);
/** Symbols in the order they were added. */
PC_API int pc_profile_symbol_at(pc_symbol *out, const pc_profile *p, size_t i);
/** *out = the name of symbol i as rows and reports show it: demangled
 *  (C++ and Rust, as gprof prints them; docs/attribution.md
 *  ("Attribution rules")) unless demangle is PC_DEMANGLE_NONE or the
 *  build has no demangler; else, and for names that are not mangled, the
 *  raw name.  pc_symbol.name always keeps the raw bytes.  *out is
 *  borrowed from p (the demangled form is made once and cached in p: not
 *  thread-safe on one p).  Errors (recorded on p; *out is then NULL):
 *  PC_ENOTFOUND for i past the last symbol, PC_ENOMEM, PC_EUSAGE (out
 *  NULL, an unknown demangle mode). */
PC_API int pc_profile_symbol_display_name(const char **out, pc_profile *p,
					  size_t i, pc_demangle_mode demangle);
/** 1 if this build demangles names (libiberty), 0 if it shows them
 *  mangled (built with -Ddemangle=disabled or without libiberty). [any
 *  thread] */
PC_API int pc_demangler_available(void);
/* The model as stored: counts are pure accessors; the _at functions
 * copy item i (0-based, in the order added) into *out and return PC_OK
 * or PC_ENOTFOUND past the last one.  Pointers in *out (names, labels,
 * histogram counts) are borrowed from p. */
PC_API size_t pc_profile_region_count(const pc_profile *p);
PC_API int pc_profile_region_at(pc_region *out, const pc_profile *p, size_t i);
PC_API size_t pc_profile_histogram_count(const pc_profile *p);
PC_API int pc_profile_histogram_at(pc_histogram *out, const pc_profile *p,
				   size_t i);
PC_API size_t pc_profile_arc_count(const pc_profile *p);
PC_API int pc_profile_arc_at(pc_arc *out, const pc_profile *p, size_t i);
/** Distinct sampled addresses (aggregated raw samples).  When
 *  pc_profile_samples_per_address() is 0 they are intervals between
 *  symbol and region boundaries, each listed by its start address. */
PC_API size_t pc_profile_sample_count(const pc_profile *p);
/** 1 while raw samples are kept per address; 0 once a large dump made
 *  the core count them per interval between symbol/region boundaries
 *  (per-symbol counts stay exact; per-address detail is gone). */
PC_API int pc_profile_samples_per_address(const pc_profile *p);
/** Sample i in address order: its segment, address and count (each
 *  out-pointer may be NULL).  The first call after a change sorts the
 *  samples (a cache in p: the const does not make it thread-safe), so it
 *  can fail with PC_ENOMEM; PC_ENOTFOUND past the last one. */
PC_API int pc_profile_sample_at(uint32_t *segment, uint64_t *address,
				uint64_t *count, const pc_profile *p, size_t i);
/** Execution contexts (docs/swo.md): the capture's samples split by
 *  the context the core ran in ("thread mode", "handler 44 (IRQ 28)",
 *  "sleep", "unknown"), as an exception trace tells (a loader adds them:
 *  pc_profile_add_context_samples).  The regions report lists them. */
/** Number of contexts (pure accessor). */
PC_API size_t pc_profile_context_count(const pc_profile *p);
/** Context i (in the order first added): its name (borrowed from p) and
 *  samples; PC_ENOTFOUND past the last. */
PC_API int pc_profile_context_at(const char **context, uint64_t *count,
				 const pc_profile *p, size_t i);
/** Losses: places where the capture says samples were dropped (an SWO
 *  overflow packet) without saying how many (pc_profile_add_lost).  The
 *  first PC_LOST_KEEP places are kept, every loss is counted. */
#define PC_LOST_KEEP 64
/** Number of losses (pure accessor). */
PC_API uint64_t pc_profile_lost_count(const pc_profile *p);
/** Loss i (i < PC_LOST_KEEP and below the count): its offset and the
 *  samples before it (either pointer may be NULL); PC_ENOTFOUND else. */
PC_API int pc_profile_lost_at(int64_t *offset, uint64_t *after,
			      const pc_profile *p, size_t i);
/** Samples added with pc_profile_add_class_samples for cls (as stored;
 *  0 for a class out of range).  The attributed split by class:
 *  pc_profile_class_total. */
PC_API uint64_t pc_profile_class_samples(const pc_profile *p,
					 pc_region_class cls);

/* ------------------------------------------------------------------ */
/* Attribution (rules: docs/attribution.md ("Attribution rules")).                    */

/** One attributed row: a symbol that is an attribution target. */
typedef struct pc_row {
	size_t symbol;  /* index for pc_profile_symbol_at */
	const char *name; /* display name (demangled unless "demangle" =
			     "none"); the raw one: pc_profile_symbol_at */
	uint32_t segment;
	uint64_t address;
	uint64_t end;   /* extent used for attribution: [address, end) */
	double count;   /* samples (fractional when buckets were split) */
	uint64_t calls; /* calls from arcs, self-recursion excluded     */
	uint64_t self_calls;
} pc_row;

typedef struct pc_totals {
	double total;      /* every sample in the capture, less excluded  */
	double in_program; /* samples inside the program's code           */
	double attributed; /* of those, credited to symbols               */
	double outside;    /* samples outside the program                 */
	double excluded;   /* credit removed with PC_SYMF_EXCLUDED symbols */
	/* samples by region class: pc_profile_class_total() */
} pc_totals;

/** Computes the attribution (cached until the profile changes) with the
 *  settings opts (pc_attrib_options).  The settings stay with the
 *  profile: after data is added, the rows, totals and reports are
 *  recomputed with them, and opts NULL means "the profile's current
 *  settings" (the defaults until some are given).  A bad field (an
 *  unknown rule, use_sizes not 0 or 1, an unknown version) is PC_EUSAGE
 *  naming it, recorded on p, and changes nothing. */
PC_API int pc_profile_attribute(pc_profile *p, const pc_attrib_options *opts);

/* The getters below compute the attribution when the profile changed
 * since the last one (with the profile's settings): they can fail
 * (PC_ENOMEM, ...; recorded on p) and so return a status.
 *
 * Output structs (pc_row, pc_totals, pc_fit, pc_cg_node, pc_cg_edge,
 * pc_srcframe) may gain fields at their end in later versions.  The
 * functions filling them take the caller's sizeof (the macros of the
 * same name pass it) and write only that many bytes: a program built
 * against an older, smaller struct keeps working.  out_size 0 is
 * PC_EUSAGE. */

/** *n = the number of rows. */
PC_API int pc_profile_row_count(size_t *n, pc_profile *p);
/** Row i in symbol address order (pc_profile_rows_sorted for others);
 *  PC_ENOTFOUND past the last row.  Strings are borrowed from p. */
PC_API int pc_profile_row_at_sized(pc_row *out, size_t out_size, pc_profile *p,
				   size_t i);
#define pc_profile_row_at(out, p, i) \
	pc_profile_row_at_sized((out), sizeof *(out), (p), (i))
/** Where the samples went (pc_totals). */
PC_API int pc_profile_totals_sized(pc_totals *out, size_t out_size,
				   pc_profile *p);
#define pc_profile_totals(out, p) \
	pc_profile_totals_sized((out), sizeof *(out), (p))
/** *out = samples outside the program in region class cls; for
 *  PC_REGION_APPLICATION the in-program samples credited to no symbol.
 *  cls out of range is PC_EUSAGE. */
PC_API int pc_profile_class_total(double *out, pc_profile *p,
				  pc_region_class cls);
/** *row = the index of the row whose extent holds (segment, address);
 *  PC_ENOTFOUND if no row does (*row is then 0). */
PC_API int pc_profile_lookup(size_t *row, pc_profile *p, uint32_t segment,
			     uint64_t address);

/* The input's order (ordered captures: instruction traces; docs/api.md).
 * Window i holds the events [first, end) of the input's order and their
 * counts at naddr addresses; the windows follow each other from event 0,
 * and a row's counts over every window sum to its count.  A profile with
 * no order (histograms, aggregated counts, several ordered inputs
 * merged) has 0 windows. */
/** *n = the number of windows. */
PC_API int pc_profile_window_count(size_t *n, const pc_profile *p);
/** Window i: its events [*first, *end) and its number of addresses;
 *  PC_ENOTFOUND past the last window. */
PC_API int pc_profile_window_at(uint64_t *first, uint64_t *end, size_t *naddr,
				const pc_profile *p, size_t i);
/** Address j of window i (in (segment, address) order) and its count. */
PC_API int pc_profile_window_address(uint32_t *segment, uint64_t *address,
				     uint64_t *count, const pc_profile *p, size_t i,
				     size_t j);

/** Row orders: pc_profile_rows_sorted's, and the reports' key "sort"
 *  (self, cum, calls, name, address; docs/reports.md). */
typedef enum pc_sort_key {
	PC_SORT_ADDRESS = 0, /* segment, address (the row order)           */
	PC_SORT_SELF = 1,    /* count, most first; ties: more calls, then
				name, then address (the flat report's order) */
	PC_SORT_CALLS = 2,   /* calls, most first; ties by count, address  */
	PC_SORT_NAME = 3,    /* display name (bytes), ties by address      */
	PC_SORT_CUM = 4      /* count plus the time propagated from the
				callees (the call graph's self + children),
				most first: reports only                   */
} pc_sort_key;
/** The first min(max, rows) row indexes in the order key into idx[0..),
 *  their number in *count.  max 0 (idx may then be NULL) only counts
 *  the rows.  Rows with no samples are included (they sort last by
 *  PC_SORT_SELF).  PC_EUSAGE for an unknown key or idx NULL with max >
 *  0; PC_EUNSUPPORTED for PC_SORT_CUM (it needs the call graph:
 *  pc_profile_callgraph(), each node's time + children). */
PC_API int pc_profile_rows_sorted(size_t *idx, size_t max, size_t *count,
				  pc_profile *p, pc_sort_key key);

/* ---- Does the capture fit the program? (docs/attribution.md ("Attribution rules")) */

typedef enum pc_fit_verdict {
	PC_FIT_UNKNOWN = 0, /* no program code or nothing located to compare */
	PC_FIT_OK = 1,
	PC_FIT_DOUBT = 2,   /* a warning: problem says what is off           */
	PC_FIT_MISFIT = 3   /* the report would be wrong: problem says why   */
} pc_fit_verdict;

typedef struct pc_fit {
	pc_fit_verdict verdict;
	const char *problem;     /* one line naming the problem, or NULL     */
	uint64_t code_low, code_high; /* the program's code (hull)          */
	double samples;          /* located samples (histogram counts, raw
				    samples; not class-only counts)          */
	double in_program;       /* of those, in the program's code          */
	double explained;        /* in other known regions (ROM, DOS, ...)   */
	size_t arcs, arcs_in_program; /* call arcs; with both ends in it    */
	int range_mismatch;      /* a whole-text histogram ends elsewhere    */
	uint64_t hist_low, hist_high; /* that histogram's range             */
	int has_shift;           /* a single shift fits most samples:        */
	int64_t shift, shift_min, shift_max; /* the suggested one; the range
				    of shifts that fit as many               */
	double shifted_in_program; /* samples in the code after the shift    */
	int load_given;          /* opts had "load-address"                  */
	int shift_default;       /* the shift is 0x100: the program starts
				    0x100 bytes after the basepage/PSP       */
	uint64_t load_address;   /* opts' load-address (0 if none) + shift   */
} pc_fit;

/** Compares the capture's samples, call arcs and histogram ranges with
 *  the program's code (rules: docs/attribution.md ("Attribution rules"), rule 9) and,
 *  when most samples miss it, looks for the one shift of the program
 *  that would put most of them in (a missing load address).  opts (may
 *  be NULL: the profile's attribution, no load address): the
 *  attribution, and the load address as given to the loaders; a bad
 *  field is PC_EUSAGE naming it (recorded on p; *out is then zeroed).
 *  The problem string belongs to the profile. */
PC_API int pc_profile_fit_sized(pc_fit *out, size_t out_size, pc_profile *p,
				const pc_fit_options *opts);
#define pc_profile_fit(out, p, opts) \
	pc_profile_fit_sized((out), sizeof *(out), (p), (opts))

/* ---- Call graph (docs/reports.md ("Call graphs")) ----------------------------- */

/** pc_symbol.flags: a named code point (a source statement such as
 *  "main.(51)"), used to name call sites; give it PC_SYMF_NOATTR and
 *  kind PC_SYM_OTHER so that it is never an attribution target. */
#define PC_SYMF_SITE 0x10u

typedef struct pc_callgraph pc_callgraph;

/** A node: one attribution row, or one cycle (mutual recursion) as a
 *  whole.  Times are in the time unit of the profile (samples) or, when
 *  the profile has no samples, the arcs' flat times (Proff). */
typedef struct pc_cg_node {
	size_t row;          /* pc_profile_row_at index (= node index) when
				is_cycle is 0; 0 for a cycle               */
	int is_cycle;        /* 1 for a cycle node                          */
	const char *name;    /* row name; NULL for a cycle                  */
	unsigned cycle;      /* cycle number (gprof's <cycle N>), 0 = none  */
	size_t index;        /* gprof's [index]: 1-based, by total time     */
	int listed;          /* 1 if gprof -q prints an entry for it        */
	uint64_t calls;      /* calls from outside itself / its cycle       */
	uint64_t self_calls; /* self-recursive calls; cycle: calls inside   */
	double time;         /* own time before propagation                 */
	double self;         /* gprof "self": own time x propagation fract. */
	double children;     /* gprof "children": time propagated from below */
	double htime;        /* inclusive (hierarchical) time from the arcs
				entering it (a cycle member: entering its
				cycle) from outside; never double counted    */
	double ftime;        /* flat time summed over every arc into it     */
	int has_next;        /* 1 if next_member is valid                   */
	size_t next_member;  /* next member of its cycle in gprof's order
				(a cycle: its first member); 0 with
				has_next 0 at the end and for nodes in no
				cycle                                      */
} pc_cg_node;

/** An edge: all arcs from one row to another, merged. */
typedef struct pc_cg_edge {
	size_t parent, child; /* node indexes (= row indexes)            */
	uint64_t count;
	double self;          /* share of the child's self time propagated
				 to the parent along this edge (gprof)    */
	double children;      /* share of the child's children time       */
	double htime, ftime;  /* sums of the merged arcs' Proff times      */
} pc_cg_edge;

/** Builds the call graph of the attributed profile (calls
 *  pc_profile_attribute with opts->attrib).  Nodes 0 .. rows-1 are the rows,
 *  then one node per cycle; edges are in the order their first arc was
 *  added.  Arcs whose caller or callee is in no row are dropped (gprof).
 *  opts (may be NULL: the defaults): the attribution, and the own times
 *  (pc_callgraph_time; flat: from the arcs' flat times, the default when
 *  the profile has no histogram and no samples); a bad field is
 *  PC_EUSAGE naming it (recorded on p).  The graph does not
 *  follow later changes of the profile, and its node names belong to
 *  the profile.  Free *out with pc_callgraph_free. */
PC_API int pc_profile_callgraph(pc_callgraph **out, pc_profile *p,
				const pc_callgraph_options *opts);
/** Frees g (NULL is fine).  g does not borrow the profile's settings,
 *  but node names are borrowed from the profile: free g first. */
PC_API void pc_callgraph_free(pc_callgraph *g);
/** Nodes: rows, then cycles (pure accessor).  A pc_callgraph is
 *  read-only once built: several threads may read one at once. */
PC_API size_t pc_callgraph_node_count(const pc_callgraph *g);
/** Node i; PC_ENOTFOUND past the last.  The name is borrowed from the
 *  profile. */
PC_API int pc_callgraph_node_at_sized(pc_cg_node *out, size_t out_size,
				      const pc_callgraph *g, size_t i);
#define pc_callgraph_node_at(out, g, i) \
	pc_callgraph_node_at_sized((out), sizeof *(out), (g), (i))
/** Number of cycles (pure accessor). */
PC_API size_t pc_callgraph_cycle_count(const pc_callgraph *g);
/** *node = the node index of cycle n (1-based); PC_ENOTFOUND if there is
 *  no such cycle. */
PC_API int pc_callgraph_cycle_node(size_t *node, const pc_callgraph *g,
				   unsigned n);
/** Number of edges (pure accessor). */
PC_API size_t pc_callgraph_edge_count(const pc_callgraph *g);
/** Edge i; PC_ENOTFOUND past the last. */
PC_API int pc_callgraph_edge_at_sized(pc_cg_edge *out, size_t out_size,
				      const pc_callgraph *g, size_t i);
#define pc_callgraph_edge_at(out, g, i) \
	pc_callgraph_edge_at_sized((out), sizeof *(out), (g), (i))
/** gprof's total: the sum of every node's self time. */
PC_API double pc_callgraph_total(const pc_callgraph *g);
/** The run's hierarchical time: htime of the arcs leaving the roots
 *  (rows that nothing calls, e.g. MPW's %_MAIN), or the largest node
 *  htime if that is larger (inconsistent input): no node's htime
 *  exceeds it. */
PC_API double pc_callgraph_run_htime(const pc_callgraph *g);
/** Number of arcs dropped because an end is in no row. */
PC_API size_t pc_callgraph_dropped_arcs(const pc_callgraph *g);

/* ------------------------------------------------------------------ */
/* Reports                                                             */

/** A writer: receives len bytes of output (len > 0) and returns 0, or a
 *  pc_status (PC_EIO) to stop: the rendering then stops and fails with
 *  that status (a positive one as PC_EIO), and write is not called
 *  again.  Output comes in order and in pieces of any size; buf is only
 *  valid during the call. */
typedef int (*pc_write_fn)(void *ctx, const void *buf, size_t len);

/** Renders report (NULL or "flat" = the flat table; pc_report_name_at()
 *  lists all) into a newly allocated NUL-terminated buffer *out (free
 *  with pc_free).  opts keys: "output-format" (text, csv, json),
 *  "style", ... (docs/reports.md ("Reports")). */
PC_API int pc_profile_render(char **out, size_t *len, pc_profile *p,
			     const char *report, const pc_options *opts);
/** Same, given to write(ctx, ...) (see pc_write_fn) as it is made: once
 *  the library's buffer holds 64 KiB, the lines in it are handed over
 *  (pieces of 64 KiB up to one line more, then the rest at the end), so
 *  the memory for the output stays bounded, in every output format.
 *  Built whole in memory first: the data of the HTML report (one
 *  compressed block, written out in lines), and the callgraph and arcs
 *  reports with focus, ignore or hide (one piece).  The options and the
 *  attribution are checked before the first write; an error found later
 *  leaves the output incomplete (not atomic: profcat writes to a
 *  temporary file and renames).  A failing write stops the rendering:
 *  its status is returned (recorded on p as "write failed").  Both check
 *  opts against pc_report_options() first (PC_EUSAGE naming the key). */
PC_API int pc_profile_render_to(pc_profile *p, const char *report,
				const pc_options *opts, pc_write_fn write,
				void *ctx);

/** pc_write_fn for a FILE * (ctx).  Inline, so that the FILE * is the
 *  caller's C runtime's and never crosses into the library's. */
static inline int pc_write_stdio(void *ctx, const void *buf, size_t len)
{
#ifdef __cplusplus
	FILE *f = static_cast<FILE *>(ctx);
#else
	FILE *f = (FILE *)ctx;
#endif
	return fwrite(buf, 1, len, f) == len ? PC_OK : PC_EIO;
}
/** pc_profile_render_to on f (the caller's FILE *). */
static inline int pc_profile_render_file(pc_profile *p, const char *report,
					 const pc_options *opts, FILE *f)
{
	return pc_profile_render_to(p, report, opts, pc_write_stdio, f);
}
/** Name and one-line description of report i (0-based); NULL past the
 *  last one.  Static strings.  [any thread] */
PC_API const char *pc_report_name_at(size_t i);
/** [any thread] */
PC_API const char *pc_report_description_at(size_t i);
/** The keys report (NULL = "flat") reads: a NULL-terminated static table,
 *  NULL for an unknown report; "diff" and "rates" name the keys of
 *  pc_profile_diff() and pc_profile_compare_rates().  pc_profile_render() checks its options
 *  against it first (PC_EUSAGE: "unknown option 'X' for report flat;
 *  known: ...").  [any thread] */
PC_API const pc_option_decl *pc_report_options(const char *report);
/** Frees a buffer the library allocated for the caller.  [any thread] */
PC_API void pc_free(void *ptr);

/* ------------------------------------------------------------------ */
/* Exports to other tools' formats (docs/exports.md ("Exports"))                  */

/** Writes the attributed profile as format ("pprof", "speedscope",
 *  "folded", "callgrind", "gmon"; pc_export_name_at() lists all) into a
 *  newly allocated buffer *out of *len bytes (free with pc_free; binary
 *  formats may hold NUL bytes; a NUL follows the last byte).  opts: the
 *  attribution keys, "granularity" = "address" (default) or "symbol", and
 *  per-format keys listed in the README. */
PC_API int pc_profile_export(char **out, size_t *len, pc_profile *p,
			     const char *format, const pc_options *opts);
/** Same, given to write(ctx, ...) (see pc_write_fn; not atomic) as it
 *  is made, as pc_profile_render_to does: the text exports (folded,
 *  callgrind, speedscope, svg) in pieces of 64 KiB up to one line more.
 *  Built whole in memory first: the pprof protobuf (its lengths come
 *  first; with compress=1 its gzip form is handed over in pieces as it
 *  is compressed) and gmon (binary: handed over at the end).  A failing
 *  write stops the export with its status ("write failed" on p).  Both
 *  check opts against pc_export_options() first (PC_EUSAGE naming the
 *  key). */
PC_API int pc_profile_export_to(pc_profile *p, const char *format,
				const pc_options *opts, pc_write_fn write,
				void *ctx);
/** pc_profile_export_to on f (the caller's FILE *). */
static inline int pc_profile_export_file(pc_profile *p, const char *format,
					 const pc_options *opts, FILE *f)
{
	return pc_profile_export_to(p, format, opts, pc_write_stdio, f);
}
/** Name, usual file-name extension (".pb.gz") and one-line description
 *  of export i (0-based); NULL past the last one.  Static strings.
 *  [any thread] */
PC_API const char *pc_export_name_at(size_t i);
/** [any thread] */
PC_API const char *pc_export_extension_at(size_t i);
/** [any thread] */
PC_API const char *pc_export_description_at(size_t i);
/** The keys export format reads: a NULL-terminated static table, NULL
 *  for an unknown format.  pc_profile_export() checks its options against
 *  it first (PC_EUSAGE: "unknown option 'granularty' for export pprof;
 *  known: ...").  [any thread] */
PC_API const pc_option_decl *pc_export_options(const char *format);

/* ------------------------------------------------------------------ */
/* Statistics (docs/statistics.md ("Statistics"))                                    */

/** Two-sided standard normal quantile for a confidence level in percent
 *  (95 -> 1.959964); 0 unless 0 < confidence < 100.  [any thread] */
PC_API double pc_stats_z(double confidence);
/** Wilson score interval [*lo, *hi] for the proportion k/n (k may be
 *  fractional) at quantile z; n <= 0 gives [0, 1].  [any thread] */
PC_API void pc_stats_wilson(double *lo, double *hi, double k, double n,
			    double z);
/** Newcombe's hybrid score interval for k2/n2 - k1/n1.  [any thread] */
PC_API void pc_stats_diff_interval(double *lo, double *hi, double k1, double n1,
				   double k2, double n2, double z);
/** Pooled two-proportion z-test of k1/n1 against k2/n2: the two-sided
 *  p-value; *zstat (may be NULL) gets z, positive when k2/n2 is larger.
 *  [any thread] */
PC_API double pc_stats_two_proportion(double *zstat, double k1, double n1,
				      double k2, double n2);
typedef enum pc_correction {
	PC_CORRECT_HOLM = 0, /* family-wise error rate (Holm 1979)     */
	PC_CORRECT_BH = 1    /* false discovery rate (Benjamini-Hochberg) */
} pc_correction;
/** Adjusted p-values adj[0..n) of p[0..n) (adj may equal p).  PC_EUSAGE
 *  for an unknown method, PC_ENOMEM.  [any thread] */
PC_API int pc_stats_adjust(double *adj, const double *p, size_t n,
			   pc_correction method);

/** Marks the counts as exact event counts (Hatari's per-instruction
 *  counts), not samples: reports show no confidence interval.
 *  event_counts: 0 or 1, else PC_EUSAGE. */
PC_API int pc_profile_set_event_counts(pc_profile *p, int event_counts);
/** 1 if the counts are exact event counts, 0 if they are samples. */
PC_API int pc_profile_event_counts(const pc_profile *p);

/** Adds the capture src to dst (same program): samples, class samples,
 *  arcs and calls are added; histograms with identical ranges are summed,
 *  overlapping ones with other ranges or bucket sizes are re-binned onto
 *  the coarser bucket size over the union of the ranges (a bucket that
 *  straddles cells is split by overlap in whole samples, largest
 *  remainder first, so totals are kept).  Symbols and regions of src are
 *  copied only when dst has none.  Refused (PC_EUNSUPPORTED) when both
 *  rates are known and differ, when one is exact and the other sampled,
 *  or when the dimensions differ; an unknown rate takes the other's. */
PC_API int pc_profile_merge(pc_profile *dst, const pc_profile *src);

/** The "diff" report of two captures (docs/statistics.md ("Statistics")): per symbol
 *  (matched by name) the shares before and after, the change in
 *  percentage points with its interval adjusted as the p-value is, the
 *  two-proportion test's p-value adjusted over the listed symbols, a
 *  significance flag, the minimum detectable effect and a verdict
 *  (slower, faster, unchanged, unresolved).  Exact counts are compared
 *  only with exact counts (else PC_EUNSUPPORTED).
 *  opts: "output-format", "ci" (confidence percent, default 95),
 *  "correction" (holm, default, or bh), "threshold" (percentage points
 *  within which an interval means unchanged, default 1), "power"
 *  (percent, of the MDE, default 80), "symbols" (comma-separated
 *  names: only these are tested), "focus", "ignore", "hide", and the
 *  attribution keys; any other key, or a bad value, is PC_EUSAGE naming
 *  it.  *out is freed with pc_free.  Errors are recorded on next. */
PC_API int pc_profile_diff(char **out, size_t *len, pc_profile *base,
			   pc_profile *next, const pc_options *opts);
/** The "rates" (aliasing) report of n >= 2 captures of one program taken
 *  at different sampling periods: symbols whose shares disagree beyond
 *  their Wilson intervals.  opts: "output-format" (text, csv, json),
 *  "ci" (default 95) and the attribution keys; any other key, or a bad
 *  value, is PC_EUSAGE naming it.  *out is freed with pc_free.  Errors
 *  are recorded on caps[0]. */
PC_API int pc_profile_compare_rates(char **out, size_t *len,
				    pc_profile *const *caps, size_t n,
				    const pc_options *opts);

/* ------------------------------------------------------------------ */
/* Source locations from DWARF (docs/source.md ("Source level"); needs libdw)    */

typedef struct pc_dwarf pc_dwarf;

/** One frame of a source location: frame 0 is where the address is (its
 *  line-table row, in the innermost function, inlined or not); each next
 *  frame is the call site of the inlined function before it, in the
 *  function it was inlined into.  file is as the DWARF names it (joined
 *  with DW_AT_comp_dir); NULL, 0 when unknown. */
typedef struct pc_srcframe {
	const char *function;
	const char *file;
	unsigned line;
	unsigned column;
} pc_srcframe;

/** 1 if this library was built with libdw.  [any thread] */
PC_API int pc_dwarf_available(void);
/** A new reader in *out (free with pc_dwarf_free).  opts (may be NULL:
 *  the defaults): source_path, the directories searched for source files
 *  (pc_dwarf_find_source); debuginfod 1: libdw's search for a separate
 *  debug file, DEBUGINFOD_URLS' servers included (network), instead of
 *  the local, checked one (docs/source.md).  Errors: PC_EUSAGE (out
 *  NULL, an unknown opts version), PC_ENOMEM; *out is then NULL and
 *  pc_last_error() says why. */
PC_API int pc_dwarf_new(pc_dwarf **out, const pc_dwarf_options *opts);
/** Frees d (NULL is fine); strings from it become invalid. */
PC_API void pc_dwarf_free(pc_dwarf *d);
/** Reads the DWARF of the ELF program at path, or of its separate debug
 *  file (.gnu_debuglink, build-id under /usr/lib/debug).  Every unit's
 *  line table and DIE tree is read here: damaged DWARF is PC_EFORMAT
 *  with the file offset of the unit or line table; no DWARF at all, or a
 *  build without libdw, is PC_EUNSUPPORTED. */
PC_API int pc_dwarf_load(pc_dwarf *d, const char *path);
/** The last error recorded on d, NULL if none; borrowed from d. */
PC_API const pc_error *pc_dwarf_error(const pc_dwarf *d);
/** The location of address (as the program is linked): *n frames,
 *  innermost first (0 when no DWARF covers it), read one by one with
 *  pc_dwarf_frame_at until the next lookup on d.  Each distinct address
 *  is read from the DWARF once and cached.  Errors (recorded on d):
 *  PC_EUSAGE before a successful pc_dwarf_load, PC_EFORMAT, PC_ENOMEM. */
PC_API int pc_dwarf_lookup(size_t *n, pc_dwarf *d, uint64_t address);
/** Frame i of the last pc_dwarf_lookup; PC_ENOTFOUND past the last.
 *  Strings are borrowed from d. */
PC_API int pc_dwarf_frame_at_sized(pc_srcframe *out, size_t out_size,
				   const pc_dwarf *d, size_t i);
#define pc_dwarf_frame_at(out, d, i) \
	pc_dwarf_frame_at_sized((out), sizeof *(out), (d), (i))
/** Addresses read from the DWARF so far: lookups that missed the cache,
 *  and the addresses the line report's walk read (without the cache). */
PC_API uint64_t pc_dwarf_query_count(const pc_dwarf *d);
/** Where the source file named file (as in pc_srcframe) can be read:
 *  DIR/NAME for each "source-path" DIR, NAME less its leading
 *  directories one by one, then file itself; only a regular file inside
 *  DIR or the unit's compilation directory (after ".." and symbolic
 *  links), never under /proc, /sys or /dev (docs/source.md, "Which
 *  source files are read").  *path is freed with pc_free.  PC_ENOTFOUND
 *  when none is readable. */
PC_API int pc_dwarf_find_source(char **path, const pc_dwarf *d,
				const char *file);
/** Gives p the reader for source-level reports (borrowed: d must
 *  outlive p; NULL: none).  Without it they open one from p's ELF
 *  file, kept for the next report; but a flat or bar chart report at
 *  granularity line or file closes the one it opened once its line
 *  profile is made (the rendering then reuses that memory): give the
 *  reader here to keep one across such reports.  Returns PC_OK
 *  (PC_EUSAGE for p NULL). */
PC_API int pc_profile_set_dwarf(pc_profile *p, pc_dwarf *d);

/* ------------------------------------------------------------------ */
/* Loaders and the registry                                            */

/** A loader (its fields, and what a loader or plugin author uses to
 *  write one: profcore_plugin.h). */
typedef struct pc_loader pc_loader;

/* A registry is built (new, add, load_plugin[s]) by one thread; once
 * built, the functions taking a const pc_registry * only read it, so
 * profiles in several threads may share it (pc_profile_new,
 * pc_profile_load_*).  It must outlive those profiles: freeing it
 * unloads its plugins.  Loaders are borrowed: a pc_loader given to
 * pc_registry_add must outlive the registry. */

/** A registry holding the built-in loaders, in *out (free with
 *  pc_registry_free).  Errors: PC_EUSAGE (out NULL), PC_ENOMEM; *out is
 *  then NULL and pc_last_error() says why. */
PC_API int pc_registry_new(pc_registry **out);
PC_API void pc_registry_free(pc_registry *r);
/** Registers l (borrowed).  PC_EUSAGE without a name or load function
 *  or for a name already registered; PC_EUNSUPPORTED for an abi_version
 *  outside [PC_LOADER_ABI_MIN, PC_LOADER_ABI_VERSION].  A loader of an
 *  older version is registered as a copy holding its fields and zeros for
 *  the later ones: pc_registry_find()/at() return that copy (owned by r),
 *  whose abi_version stays the loader's. */
PC_API int pc_registry_add(pc_registry *r, const pc_loader *l);
/** Loads every *.so in each directory of a ':'-separated list (sorted by
 *  name; a missing directory is skipped).  A plugin that is refused does
 *  not stop the others: the first failure's status is returned and
 *  pc_registry_error() describes the last one. */
PC_API int pc_registry_load_plugins(pc_registry *r, const char *dirs);
/** Loads one plugin shared object (profcore_plugin.h).  One without the
 *  entry point, or built for a loader ABI outside [PC_LOADER_ABI_MIN,
 *  PC_LOADER_ABI_VERSION], is refused with PC_EUNSUPPORTED ("plugin built
 *  for loader ABI 3, this libprofcore supports 1 to 2") and nothing of it
 *  is registered. */
PC_API int pc_registry_load_plugin(pc_registry *r, const char *path);
/** The last error recorded on r, NULL if none. */
PC_API const pc_error *pc_registry_error(const pc_registry *r);
PC_API size_t pc_registry_count(const pc_registry *r);
PC_API const pc_loader *pc_registry_at(const pc_registry *r, size_t i);
PC_API const pc_loader *pc_registry_find(const pc_registry *r,
					 const char *name);
/** Best loader for the stream's content; NULL if none. *confidence may
 *  be NULL. The stream is not consumed. */
PC_API const pc_loader *pc_registry_detect(int *confidence,
					   const pc_registry *r, pc_stream *s);
/** The first bytes of the stream, without consuming (up to 4096). */
PC_API int pc_stream_peek(const unsigned char **head, size_t *len,
			  pc_stream *s);

#ifdef __cplusplus
}
#endif
#endif /* PROFCORE_H */
