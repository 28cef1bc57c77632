/*
 * internal.h - private structures and helpers shared by libprofcore,
 * the built-in loaders and the report engines.  Not installed.
 */
#ifndef PC_INTERNAL_H
#define PC_INTERNAL_H

#include "profcore.h"

#include <stdarg.h>
#include <stdbool.h>

#if defined(_WIN32)
#define PC_INTERNAL /* a DLL exports only what is marked PC_API */
#else
#define PC_INTERNAL __attribute__((visibility("hidden")))
#endif

/* ---- checked arithmetic -------------------------------------------- */
static inline bool pc_add_overflow(uint64_t a, uint64_t b, uint64_t *r)
{
	*r = a + b;
	return *r < a;
}
static inline bool pc_mul_overflow(uint64_t a, uint64_t b, uint64_t *r)
{
	if (a != 0 && b > UINT64_MAX / a)
		return true;
	*r = a * b;
	return false;
}

/* ---- allocation ----------------------------------------------------- */
/** Grows *ptr (array of elem-sized items, capacity *cap) to hold need
 *  items; returns PC_OK or PC_ENOMEM.  Overflow-safe. */
PC_INTERNAL int pc_grow(void **ptr, size_t *cap, size_t need, size_t elem);
PC_INTERNAL char *pc_strdup(const char *s);
/** The last '/'-separated part of a path (the path itself without one). */
PC_INTERNAL const char *pc_basename(const char *path);
/** Stable merge sort of the n indexes v (tmp: room for n), in glibc
 *  qsort's order even for a comparison that is not consistent (call
 *  graph ties, as gprof sorts them); O(n log n). */
PC_INTERNAL void pc_sort_idx(size_t *v, size_t n, size_t *tmp,
			     int (*cmp)(const void *ctx, size_t a, size_t b),
			     const void *ctx);
PC_INTERNAL char *pc_strndup(const char *s, size_t n);
/* A capture metadata value written as a hex number (0x prefix optional):
 * 1 and *out, or 0 when the key is absent or the value malformed. */
PC_INTERNAL int pc_profile_meta_hex(const pc_profile *p, const char *key, uint64_t *out);
/* The bitwise OR of c[0..n): the widest count's bits, four at a time
 * (about 1.25 instructions a count on a 10^6-bin histogram). */
PC_INTERNAL uint64_t pc_counts_or(const uint64_t *c, size_t n);

/* ---- call paths from the call graph (callgraph.c) -------------------- *
 * The one call-path model behind every export and the HTML view: the
 * stacks gprof's propagation implies.  A path of a row's own time runs
 * from the row up through its callers to a root, one node per level:
 * a routine in no cycle, or a cycle member followed by its cycle node
 * (<cycle N>), from which the path continues through the arcs entering
 * the cycle from outside.  At each level the time is split among the
 * callers in proportion to call counts (gprof's arc time fractions;
 * self-recursive and intra-cycle arcs carry none), so that the paths
 * through a node add up to its gprof inclusive time (self + children);
 * a node no counted arc enters is a root (gprof's <spontaneous>).
 * Paths deeper than PC_CG_MAX_DEPTH, or made beyond PC_CG_MAX_PATHS paths
 * or PC_CG_MAX_POOL path entries in all, end in PC_CG_TRUNCATED (their
 * weight is added up in truncated). */
#define PC_CG_TRUNCATED ((size_t)-2)
#define PC_CG_MAX_DEPTH 1024
#define PC_CG_MAX_PATHS ((size_t)1 << 20)
#define PC_CG_MAX_POOL ((size_t)1 << 24)
typedef struct pc_cgpath {
	size_t first, depth; /* into pool, leaf first */
	double weight;       /* in the graph's time unit (samples) */
} pc_cgpath;
typedef struct pc_cgpaths {
	pc_cgpath *v;
	size_t n, cap;
	size_t *pool;
	size_t npool, cappool;
	double truncated;
	/* paths and path entries made over every call (the limits hold for
	 * all of them: n and npool may be reset between calls) */
	size_t emitted, pooled;
} pc_cgpaths;
/** Appends the paths of row's own time to out.  measured: the first
 *  caller of each path is taken from the arcs' flat times (Proff: time
 *  of the routine measured under each caller) and only the rest is
 *  split by counts.  An excluded row gets the one-node path of its own
 *  time.  Returns PC_OK or PC_ENOMEM. */
PC_INTERNAL int pc_callgraph_paths(const pc_callgraph *g, size_t row,
				   int measured, pc_cgpaths *out);
PC_INTERNAL void pc_cgpaths_free(pc_cgpaths *out);

/* ---- error slots ---------------------------------------------------- */
typedef struct pc_errslot {
	pc_error pub;
	char *file;
	char *message;
} pc_errslot;

PC_INTERNAL void pc_errslot_set(pc_errslot *e, int code, const char *file,
				int64_t offset, const char *fmt, va_list ap);
/** pc_profile_fail with the file and byte offset the error concerns (an
 *  error about another file than the stream being read: DWARF, a
 *  program's code). */
PC_INTERNAL int pc_profile_fail_at(pc_profile *p, int code, const char *file,
				   int64_t off, const char *fmt, ...)
	PC_PRINTF(5, 6);
PC_INTERNAL void pc_errslot_copy(pc_errslot *dst, const pc_errslot *src);
PC_INTERNAL void pc_errslot_clear(pc_errslot *e);
PC_INTERNAL void pc_errslot_fill_file(pc_errslot *e, const char *file);
/** The stream functions with a count-or-status result, for the core:
 *  the content size or -1 when unknown; bytes read or borrowed (0 at
 *  the end) or a negative status. */
PC_INTERNAL int64_t pc_stream_known_size(const pc_stream *s);
/** Opens path as pc_stream_open_file does, but only a regular file, and
 *  without waiting on a FIFO or device (pc_plat_open_regular): else
 *  PC_EIO, "not a regular file" (pc_last_error()). */
PC_INTERNAL int pc_stream_open_regular(pc_stream **out, const char *path);
PC_INTERNAL int64_t pc_stream_read_part(pc_stream *s, void *buf, size_t n);
PC_INTERNAL int64_t pc_stream_borrow_part(pc_stream *s, size_t n,
					  const unsigned char **data);
/** Records the thread's pc_last_error() (a constructor failing before
 *  its handle exists) and returns code. */
PC_INTERNAL int pc_last_error_set(int code, const char *file,
				  const char *fmt, ...) PC_PRINTF(3, 4);
/** Copies min(out_size, full_size) bytes of a filled output struct to
 *  the caller's (struct_size rule, profcore.h); PC_EUSAGE for out NULL
 *  or out_size 0. */
PC_INTERNAL int pc_copy_sized(void *out, size_t out_size, const void *full,
			      size_t full_size);

/* ---- string pool (strings live as long as their profile) ------------ */
typedef struct pc_strpool {
	struct pc_strchunk *head;
} pc_strpool;
PC_INTERNAL const char *pc_strpool_add(pc_strpool *sp, const char *s);
PC_INTERNAL const char *pc_strpool_addn(pc_strpool *sp, const char *s,
					size_t n);
PC_INTERNAL void pc_strpool_free(pc_strpool *sp);

/* A hint to fetch the memory at p into the cache ahead of its use (loops
 * reading big arrays in an order of their own); nothing elsewhere. */
#if defined(__GNUC__) || defined(__clang__)
#define PC_PREFETCH(p) __builtin_prefetch(p)
#else
#define PC_PREFETCH(p) ((void)0)
#endif

/** pc_profile_add_histogram keeping counts (== h->counts, from malloc)
 *  as the histogram's store instead of a copy: counts is the profile's
 *  or freed, whatever the result (a loader's bins decoded once).  any:
 *  the OR of the counts when the caller has it (pc_get_uints), else
 *  NULL (then computed here). */
PC_INTERNAL int pc_profile_adopt_histogram(pc_profile *p, const pc_histogram *h,
					   uint64_t *counts, const uint64_t *any);

/* ---- output sinks ---------------------------------------------------- */
/** Growable output buffer; reports write only through this.
 *
 *  A sink made with pc_sink_init_writer streams: once it holds limit
 *  bytes or more, a write holding a '\n' hands everything up to its last
 *  '\n' to the writer and moves the rest (the start of the next line) to
 *  the front of buf; pc_sink_boundary() hands over everything.  So buf
 *  and len describe the current line only: code may look back or cut
 *  (trailing spaces) within a line, but an offset kept across a write
 *  holding a '\n' must be pc_sink_offset() (bytes written so far), and
 *  output that has to be edited across lines is built in a sink of its
 *  own (pc_sink_init).  A failing writer sets failed to its status
 *  (PC_EIO for a positive one) and write_failed: every later write does
 *  nothing. */
typedef struct pc_sink {
	char *buf;
	size_t len, cap;
	int failed; /* PC_ENOMEM once an append failed, or the writer's status */
	int write_failed; /* failed came from the writer */
	pc_write_fn write; /* NULL: everything stays in buf */
	void *ctx;
	size_t limit;     /* flush at a boundary once len >= limit */
	uint64_t flushed; /* bytes given to write */
} pc_sink;

/** The threshold of pc_profile_render_to / pc_profile_export_to. */
#define PC_SINK_STREAM_LIMIT ((size_t)64 * 1024)

PC_INTERNAL void pc_sink_init(pc_sink *k);
/** A sink that gives its bytes to write(ctx, ...) at boundaries once it
 *  holds at least limit (> 0) bytes; pc_sink_flush gives the rest. */
PC_INTERNAL void pc_sink_init_writer(pc_sink *k, pc_write_fn write, void *ctx,
				     size_t limit);
/** A boundary: the caller keeps no pointer or offset into buf, so a
 *  streaming sink over its limit flushes now.  Returns failed. */
PC_INTERNAL int pc_sink_boundary(pc_sink *k);
/** Gives every buffered byte to the writer (a streaming sink; nothing
 *  for another).  Returns failed. */
PC_INTERNAL int pc_sink_flush(pc_sink *k);
/** Bytes written to k so far: those given to the writer and those in
 *  buf. */
PC_INTERNAL uint64_t pc_sink_offset(const pc_sink *k);
PC_INTERNAL void pc_sink_dispose(pc_sink *k);
PC_INTERNAL int pc_sink_write(pc_sink *k, const void *data, size_t n);
PC_INTERNAL int pc_sink_puts(pc_sink *k, const char *s);
PC_INTERNAL int pc_sink_putc(pc_sink *k, char c);
PC_INTERNAL int pc_sink_printf(pc_sink *k, const char *fmt, ...)
	PC_PRINTF(2, 3);
PC_INTERNAL int pc_sink_vprintf(pc_sink *k, const char *fmt, va_list ap);
/** n copies of c. */
PC_INTERNAL int pc_sink_repeat(pc_sink *k, char c, size_t n);
/** A name (or any text from input data) in its shown form: control bytes
 *  and invalid UTF-8 as \xNN (the one rule, see sink.c). */
PC_INTERNAL int pc_sink_name(pc_sink *k, const char *s);
/** Display columns of the shown form (a UTF-8 character counts 1). */
PC_INTERNAL size_t pc_name_width(const char *name);
/** A JSON string literal (with quotes) of the shown form: always valid
 *  UTF-8. */
PC_INTERNAL int pc_sink_json_string(pc_sink *k, const char *s);
/** A CSV field of the shown form, quoted when needed (RFC 4180). */
PC_INTERNAL int pc_sink_csv_field(pc_sink *k, const char *s);
/** The shown form with HTML/SVG entities for & < > " '. */
PC_INTERNAL int pc_sink_html(pc_sink *k, const char *s);
/** A count: integral values exactly, others with up to 6 decimals,
 *  trailing zeros removed. */
PC_INTERNAL int pc_sink_count(pc_sink *k, double v);
/** v as printf("%.*f", dec, v) prints it, byte for byte, without printf
 *  (dec 0..6 take the fast exact path); returns the length. */
PC_INTERNAL size_t pc_fmt_fixed(char *buf, size_t size, double v, int dec);
/** pc_fmt_fixed right-aligned in width columns ("%*.*f"), at d (room for
 *  352 bytes, no NUL written); returns the bytes written. */
PC_INTERNAL size_t pc_fmt_fixed_right(char *d, double v, int width, int dec);
/** v in decimal (at least 21 bytes); returns the length. */
PC_INTERNAL size_t pc_fmt_u64(char *buf, uint64_t v);
/** What pc_sink_count writes, into buf (at least 352 bytes); returns the
 *  length. */
PC_INTERNAL size_t pc_fmt_sink_count(char *buf, size_t size, double v);
/** "%*.*f" and "%*llu" of printf, without printf. */
PC_INTERNAL int pc_sink_fixed(pc_sink *k, double v, int width, int dec);
PC_INTERNAL int pc_sink_u64(pc_sink *k, uint64_t v, int width);
/** Room for n more bytes (and the NUL) at the end of k's buffer: where to
 *  write them, then pc_sink_commit the bytes written (at most n); NULL
 *  once k failed.  No other call on k in between. */
PC_INTERNAL char *pc_sink_room(pc_sink *k, size_t n);
PC_INTERNAL int pc_sink_commit(pc_sink *k, size_t n);

/** n unsigned integers of width bytes each from p, in byte order e (bulk
 *  pc_get_uint: histogram counters); returns their OR (pc_counts_or of
 *  out, computed on the way). */
PC_INTERNAL uint64_t pc_get_uints(uint64_t *out, const void *p, size_t n,
				  unsigned width, pc_endian e);

/* ---- reports ----------------------------------------------------------- */
typedef struct pc_report {
	const char *name;
	const char *description;
	int (*render)(pc_profile *p, const pc_options *o, pc_sink *out);
} pc_report;

/** NULL-terminated table in formats/reports.c. */
PC_INTERNAL extern const pc_report *const pc_reports[];
PC_INTERNAL const pc_report *pc_report_find(const char *name);

/** The totals with the by-class split (pc_totals and
 *  pc_profile_class_total in one, for the report engines). */
typedef struct pc_itotals {
	double total, in_program, attributed, outside, excluded;
	double by_class[PC_REGION_COUNT]; /* [APPLICATION] = in-program
					     samples credited to no symbol */
} pc_itotals;
PC_INTERNAL int pc_profile_itotals(pc_profile *p, pc_itotals *out);
/** A call graph node for the engines: row -1 for a cycle, next_member
 *  (size_t)-1 at the end of a cycle and outside cycles. */
typedef struct pc_icg_node {
	int64_t row;
	const char *name;
	unsigned cycle;
	size_t index;
	int listed;
	uint64_t calls, self_calls;
	double time, self, children, htime, ftime;
	size_t next_member;
} pc_icg_node;
PC_INTERNAL int pc_callgraph_inode_at(const pc_callgraph *g, size_t i,
				      pc_icg_node *out);
/** Node index of cycle n (1-based); (size_t)-1 if there is none. */
PC_INTERNAL size_t pc_callgraph_cycle_index(const pc_callgraph *g,
					    unsigned n);
/** pc_profile_row_count for the engines: 0 when attribution fails (the
 *  caller's next pc_profile_row_at / totals call reports the error). */
PC_INTERNAL size_t pc_profile_rows(pc_profile *p);
/** pc_profile_lookup for the engines: the row index, -1 if none. */
/* 1 (and why, in msg) when the profile's DOS program (loaders/mz.c) and
 * its map disagree: another entry point than the map's "Program entry
 * point", a code segment outside the load image, or the entry point in
 * no code segment (fit.c). */
PC_INTERNAL int pc_profile_mz_mismatch(pc_profile *p, char *msg, size_t n);
/* The line rows of pc_profile_add_line (a map's line numbers), in the
 * order added (lines.c). */
PC_INTERNAL size_t pc_profile_line_count(const pc_profile *p);
PC_INTERNAL int pc_profile_line_at(const pc_profile *p, size_t i, uint32_t *segment,
				   uint64_t *address, unsigned *line);
PC_INTERNAL int64_t pc_profile_row_find(pc_profile *p, uint32_t segment,
					uint64_t address);
/** pc_dwarf_lookup with the frames as an array borrowed until the next
 *  lookup on d. */
PC_INTERNAL int pc_dwarf_lookup_frames(pc_dwarf *d, uint64_t address,
				       const pc_srcframe **frames, size_t *n);

/* ---- streams mapped by counting threads (stream.c) --------------------- */
/** 1 when the rest of s can be mapped directly (a plain regular file of
 *  at least 1 MiB, nothing buffered, not compressed): *at is the file
 *  offset of the stream's position, *bytes what follows it; else 0.
 *  Drops the window of the last pc_stream_borrow(). */
PC_INTERNAL int pc_stream_mappable(pc_stream *s, uint64_t *at, uint64_t *bytes);
/** Maps len bytes of s's file at file offset off, pages populated.
 *  Thread-safe: s is not changed (its position neither).  The bytes, or
 *  NULL; release with pc_stream_unmap(*base, *maplen). */
PC_INTERNAL const unsigned char *pc_stream_map_at(const pc_stream *s,
						  uint64_t off, size_t len,
						  void **base, size_t *maplen);
PC_INTERNAL void pc_stream_unmap(void *base, size_t maplen);
/** Makes up to n bytes from the current position readable without
 *  consuming them: *at points at them, *len is how many there are (fewer
 *  at the end of the content).  PC_OK or a negative status. */
PC_INTERNAL int pc_stream_lookahead(pc_stream *s, size_t n, const unsigned char **at,
				    size_t *len);
/** Moves s past n bytes read with pc_stream_map_at() (after
 *  pc_stream_mappable() said yes). */
PC_INTERNAL int pc_stream_seek_past(pc_stream *s, uint64_t n);

/* ---- aggregated raw samples (samples.c) ------------------------------- */
typedef struct pc_sample {
	uint32_t segment;
	uint64_t address;
	uint64_t count;
} pc_sample;

typedef struct pc_samplestore pc_samplestore;
PC_INTERNAL pc_samplestore *pc_samples_new(void);
PC_INTERNAL void pc_samples_free(pc_samplestore *st);
PC_INTERNAL int pc_samples_add(pc_samplestore *st, uint32_t seg, uint64_t addr,
			       uint64_t count);
PC_INTERNAL int pc_samples_add_many(pc_samplestore *st, uint32_t seg,
				    const uint64_t *addrs, size_t n);
/** n records of layout l (already checked by pc_profile_add_records). */
PC_INTERNAL int pc_samples_add_records(pc_samplestore *st, uint32_t seg,
				       const unsigned char *records, size_t n,
				       const pc_record_layout *l);
/** n records of layout l at file offset at of s (pc_stream_mappable()),
 *  each thread mapping and counting its own part window by window, when
 *  the samples are binned: PC_OK.  1 when this store would count them
 *  one by one (not binned yet): the caller reads them.  A window that
 *  cannot be mapped: PC_EIO and *fail_at, its file offset. */
PC_INTERNAL int pc_samples_add_mapped(pc_samplestore *st, uint32_t seg,
				      const pc_stream *s, uint64_t at,
				      uint64_t n, const pc_record_layout *l,
				      uint64_t *fail_at);
/** Number of distinct (segment, address) pairs. */
PC_INTERNAL size_t pc_samples_distinct(const pc_samplestore *st);
/** The distinct samples sorted by (segment, address); valid until the
 *  next add.  NULL on allocation failure (when distinct > 0). */
PC_INTERNAL const pc_sample *pc_samples_sorted(pc_samplestore *st);
/** The profile whose symbols and regions bound the store's cells: above
 *  PC_SAMPLES_EXACT_MAX distinct addresses, samples are counted per
 *  interval between symbol/region boundaries (exact per symbol and region,
 *  not per address), found with lookup.c's O(1) table. */
PC_INTERNAL void pc_samples_set_owner(pc_samplestore *st, pc_profile *owner);
/** Counting threads: 0 = one per core (at most PC_MAX_THREADS). */
PC_INTERNAL void pc_samples_set_threads(pc_samplestore *st, unsigned n);
PC_INTERNAL unsigned pc_samples_threads(const pc_samplestore *st);
/** 1 once samples are counted per cell rather than per address. */
PC_INTERNAL int pc_samples_binned(const pc_samplestore *st);
/** Samples whose cell was cut by a boundary added after they were counted
 *  (they stay at the cell start; the profile carries a warning). */
PC_INTERNAL uint64_t pc_samples_displaced(const pc_samplestore *st);

/* ---- display names (demangle.c) ----------------------------------------- */
/** The demangled form of name in *shown (malloc'ed; caller frees), NULL
 *  when it is not mangled or without a demangler; PC_ENOMEM (*shown
 *  NULL) when an allocation of its own fails (libiberty's failures read
 *  as "not mangled"). */
PC_INTERNAL int pc_demangle(const char *name, char **shown);
/** The "demangle" option of o in *on (1 = demangle: absent, "auto", "1";
 *  0: "none", "0", or no demangler in this build); PC_EUSAGE if invalid. */
PC_INTERNAL int pc_demangle_option(const pc_options *o, int *on);
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

/* ---- one rule for adding up captures (fit.c) --------------------------- */
/** PC_OK when captures at rates have and adding (0 = unknown) may be
 *  added up, else PC_EUNSUPPORTED recorded on p. */
PC_INTERNAL int pc_rates_check(pc_profile *p, double have, double adding);

/* ---- option keys (options.c) ---- */
/** The keys of the library's own consumers (pc_function_options): their
 *  public entry points check a bag against them; formats/ hands them a
 *  report's or an export's bag through the _nocheck variants below. */
PC_INTERNAL extern const pc_option_decl pc_keys_attribute[];
PC_INTERNAL extern const pc_option_decl pc_keys_callgraph[];
PC_INTERNAL extern const pc_option_decl pc_keys_fit[];
PC_INTERNAL extern const pc_option_decl pc_keys_diff[];
PC_INTERNAL extern const pc_option_decl pc_keys_rates[];
PC_INTERNAL extern const pc_option_decl pc_keys_merge[];
/** pc_profile_attribute without checking the keys of opts (unknown keys
 *  are ignored; the values it reads are still checked). */
PC_INTERNAL int pc_profile_attribute_nocheck(pc_profile *p, const pc_options *opts);
/** pc_profile_callgraph without checking the keys of opts. */
PC_INTERNAL int pc_profile_callgraph_nocheck(pc_profile *p, const pc_options *opts,
					     pc_callgraph **out);
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

/** A copy of the n bytes at s (a NUL added after them) in p's string
 *  pool, as long-lived as p; NULL: out of memory.  A loader copies a
 *  whole string table once and gives the names inside the copy to
 *  pc_profile_add_symbol_pooled. */
PC_INTERNAL const char *pc_profile_pool_bytes(pc_profile *p, const char *s, size_t n);
/** pc_profile_add_symbol for a sym->name and sym->section (unless NULL)
 *  that are in p's pool already (pc_profile_pool_bytes): they are not
 *  copied again. */
PC_INTERNAL int pc_profile_add_symbol_pooled(pc_profile *p, const pc_symbol *sym);

/* ---- gprof's symbol selections (symspec.c) ------------------------------ */
/* gprof's tables (sym_ids.h), each INCL followed by its EXCL */
enum {
	PC_SS_INCL_GRAPH, PC_SS_EXCL_GRAPH, PC_SS_INCL_ARCS, PC_SS_EXCL_ARCS,
	PC_SS_INCL_FLAT, PC_SS_EXCL_FLAT, PC_SS_INCL_TIME, PC_SS_EXCL_TIME,
	PC_SS_INCL_ANNO, PC_SS_EXCL_ANNO, PC_SS_TABLES
};
typedef struct pc_ssside { /* FILE:NAME, FILE:LINE, NAME, FILE, LINE */
	const char *name, *file; /* in pc_symspecs.text, NULL if absent */
	size_t len, flen;
	unsigned line;           /* 0: absent */
} pc_ssside;
typedef struct pc_symspec {
	int table, has_to;       /* has_to: FROM/TO, an arc */
	pc_ssside from, to;
	const char *path;        /* the file a FILE side matched */
	unsigned char *left, *right; /* arcs: per target, FROM / TO match */
} pc_symspec;
typedef struct pc_symspecs {
	char *text;              /* the option's value, owned */
	pc_symspec *v;
	size_t n, cap;
	int need_src;            /* a spec names a file or line: DWARF */
	size_t ntargets;
	uint16_t *mask;          /* per target: the tables holding it */
	int matched[PC_SS_TABLES]; /* a spec of the table matched (FROM) */
} pc_symspecs;
/** Reads value, the option "gprof-symspecs" (NULL: no selection), into
 *  ss; PC_EUSAGE (message on p) for a malformed one.  Free with
 *  pc_symspecs_free (also after a failure: nothing to free then). */
PC_INTERNAL int pc_symspecs_parse(pc_profile *p, const char *value, pc_symspecs *ss);
PC_INTERNAL void pc_symspecs_free(pc_symspecs *ss);
/** The selections the last attribution of p used (NULL: none). */
PC_INTERNAL const char *pc_profile_symspecs(const pc_profile *p);
/** Matches ss against p's attribution targets (their names, and with a
 *  FILE or LINE spec their DWARF file and line): before the queries.
 *  PC_ENOMEM, DWARF errors, PC_EUSAGE for a FILE naming two files. */
PC_INTERNAL int pc_symspecs_resolve(pc_profile *p, pc_symspecs *ss);
/** 1 if table holds target (an attribution target's index). */
PC_INTERNAL int pc_symspecs_has(const pc_symspecs *ss, int table, size_t target);
/** gprof's selection by the table pair incl, incl + 1: in incl, or incl
 *  empty (no spec of it matched) and neither in incl + 1 nor excluded
 *  (gprof's default exclusions, PC_SYMF_EXCLUDED). */
PC_INTERNAL int pc_symspecs_selected(const pc_symspecs *ss, int incl, size_t target,
				     int excluded);
/** 1 if the arc between targets from and to counts (INCL_ARCS /
 *  EXCL_ARCS). */
PC_INTERNAL int pc_symspecs_arc_kept(const pc_symspecs *ss, size_t from, size_t to);

#endif
