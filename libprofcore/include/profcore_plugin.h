/*
 * profcore_plugin.h - the loader author's API of libprofcore: what a
 * loader (built in or a plugin) uses to read its input and fill a
 * profile (pc_stream_read*, pc_stream_fail, pc_profile_add_*,
 * pc_profile_fail/warn/note), the pc_loader struct and the plugin entry
 * point (libgit2's sys/ headers).  Applications include profcore.h only.
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

/* ------------------------------------------------------------------ */
/* Writing a loader                                                    */

/** Version of the loader plugin ABI (pc_loader.abi_version) this header
 *  describes, and the oldest one the registry still accepts: a loader
 *  built for any version in [PC_LOADER_ABI_MIN, PC_LOADER_ABI_VERSION]
 *  is registered, and only the pc_loader fields its version has are
 *  read.  Version 1: abi_version .. order.  Version 2 adds options. */
#define PC_LOADER_ABI_VERSION 2
#define PC_LOADER_ABI_MIN 1

/* ---- reading the input (streams from profcore.h) ---- */

/** Reads exactly n bytes.  Short read: PC_ETRUNC with "expected <what>"
 *  recorded as the stream's error. what may be NULL. */
PC_API int pc_stream_read(void *buf, size_t n, pc_stream *s, const char *what);
/** Reads up to n bytes into buf: *got = the count (0 at the end).
 *  Returns PC_OK or the read error (recorded on s). */
PC_API int pc_stream_read_some(void *buf, size_t n, size_t *got, pc_stream *s);
/** Up to n bytes at the current offset, without copying where the source
 *  allows it: bytes already buffered, a memory stream, or a memory-mapped
 *  window of a large regular file; otherwise they are read into a buffer
 *  the stream owns.  *data (borrowed) stays valid until the next read
 *  from s or pc_stream_free().  *got = the count (0 at the end; fewer
 *  than n only at the end or when buffered bytes come first).  Returns
 *  PC_OK or the read error (recorded on s). */
PC_API int pc_stream_borrow(const unsigned char **data, size_t *got,
			    pc_stream *s, size_t n);
/** Skips n bytes (PC_ETRUNC if the content ends first). */
PC_API int pc_stream_skip(pc_stream *s, uint64_t n, const char *what);
/** Reads the rest of the content into a new buffer (*buf, free with
 *  pc_free; NUL-terminated for convenience, the NUL not counted in *len).
 *  More than max bytes is PC_ELIMIT. */
PC_API int pc_stream_read_all(void **buf, size_t *len, pc_stream *s,
			      uint64_t max);
/** *at_end = 1 at the end of the content, else 0 (may read ahead to
 *  know).  Returns PC_OK or the read error (recorded on s). */
PC_API int pc_stream_eof(int *at_end, pc_stream *s);
/** Reads one line (without its LF / CRLF) into the stream's line buffer:
 *  *line / *len, borrowed until the next read from s.  At the end of the
 *  content it returns PC_OK with *line = NULL and *len = 0:
 *      while ((st = pc_stream_getline(&l, &n, NULL, s)) == PC_OK && l)
 *  Errors (recorded on s): a line longer than 1 MiB is PC_ELIMIT, a NUL
 *  byte inside a line PC_EFORMAT, read errors PC_EIO / PC_ETRUNC.
 *  *line_start is the byte offset of the line (may be NULL). */
PC_API int pc_stream_getline(const char **line, size_t *len,
			     uint64_t *line_start, pc_stream *s);
/** Line number (1-based) of the last line returned by pc_stream_getline. */
PC_API uint64_t pc_stream_lineno(const pc_stream *s);

/** Records an error on the stream (and returns code): offset is a byte
 *  offset in the content, -1 for none.  Message: what was wrong/expected. */
PC_API int pc_stream_fail(pc_stream *s, int code, int64_t offset,
			  const char *fmt, ...) PC_PRINTF(4, 5);
/** The last error recorded on s, NULL if none; borrowed from s (valid
 *  until the next failing call on s or pc_stream_free). */
PC_API const pc_error *pc_stream_error(const pc_stream *s);

/** Byte helpers for parsers: no host byte order is assumed.
 *  [any thread] */
PC_API uint16_t pc_get_u16(const void *p, pc_endian e);
/** [any thread] */
PC_API uint32_t pc_get_u32(const void *p, pc_endian e);
/** [any thread] */
PC_API uint64_t pc_get_u64(const void *p, pc_endian e);
/** Unsigned integer of width 1..8 bytes.  [any thread] */
PC_API uint64_t pc_get_uint(const void *p, unsigned width, pc_endian e);

/* ---- filling the profile ---- */

/** Records an error on the profile and returns code. */
PC_API int pc_profile_fail(pc_profile *p, int code, const char *fmt, ...)
	PC_PRINTF(3, 4);
/** Adds a warning (not an error) shown in verbose output and reports.
 *  Returns PC_OK, or PC_ENOMEM (the warning is then lost). */
PC_API int pc_profile_warn(pc_profile *p, const char *fmt, ...)
	PC_PRINTF(2, 3);
/** Adds an informational note: what a loader detected or decided (a
 *  format variant, a vote).  profcat prints notes with --verbose;
 *  unlike warnings, reports do not show them. */
PC_API int pc_profile_note(pc_profile *p, const char *fmt, ...)
	PC_PRINTF(2, 3);

/* Filling the model (used by loaders; also usable by tools).  Every
 * function copies what it is given (strings included) and returns PC_OK,
 * PC_ENOMEM, or PC_EUSAGE for a malformed argument; the attribution is
 * then recomputed on the next read, with the profile's settings. */
/** A symbol (name required). */
PC_API int pc_profile_add_symbol(pc_profile *p, const pc_symbol *sym);
/** An address region with a class ("TOS ROM"): samples in it that no
 *  symbol takes count for the class. */
PC_API int pc_profile_add_region(pc_profile *p, const pc_region *r);
/** Identical ranges (same segment, low, high, nbins, unit) are summed;
 *  a range overlapping an existing one otherwise is PC_EFORMAT. */
PC_API int pc_profile_add_histogram(pc_profile *p, const pc_histogram *h);
/** count samples at one address. */
PC_API int pc_profile_add_sample(pc_profile *p, uint32_t segment,
				 uint64_t address, uint64_t count);
/** n samples (count 1 each) in one segment. */
PC_API int pc_profile_add_samples(pc_profile *p, uint32_t segment,
				  const uint64_t *addresses, size_t n);
/** Fixed-size binary records holding one PC each (raw dumps), decoded by
 *  the library while it counts them (see pc_profile_add_records). */
typedef enum pc_realmode {
	PC_REAL_NONE = 0,
	PC_REAL_IPCS = 1, /* 16-bit IP then 16-bit CS: linear = CS * 16 + IP */
	PC_REAL_CSIP = 2  /* 16-bit CS then 16-bit IP */
} pc_realmode;
typedef struct pc_record_layout {
	unsigned width;      /* bytes of the PC field, 1..8 (4 for real mode) */
	pc_endian endian;    /* of the field (of each word in real mode) */
	pc_realmode real;
	size_t stride;       /* bytes per record, >= offset + width */
	size_t offset;       /* of the PC field inside the record */
	uint64_t mask;       /* ANDed with every decoded address */
} pc_record_layout;
/** n records (stride bytes each, n * stride bytes at records), count 1
 *  each, in one segment.  Same result as decoding them and calling
 *  pc_profile_add_samples(), but large batches are decoded and counted in
 *  parallel without an intermediate array.  PC_EUSAGE for a bad layout. */
PC_API int pc_profile_add_records(pc_profile *p, uint32_t segment,
				  const void *records, size_t n,
				  const pc_record_layout *layout);
/** Reads records of this layout from s's position to the end of its
 *  content and counts them as pc_profile_add_records() does: *records is
 *  the number of whole records, *left the bytes of a trailing partial
 *  record (not counted; whether that is an error is the caller's to say).
 *  Memory stays bounded whatever the size: large regular files are mapped
 *  a window at a time, and once samples are counted per interval the
 *  rest of such a file is split across the counting threads, each mapping
 *  its own part.  A read error is set on s, a store error on p. */
PC_API int pc_profile_add_records_stream(uint64_t *records, size_t *left,
					 pc_profile *p, uint32_t segment,
					 pc_stream *s,
					 const pc_record_layout *layout);
/** Decodes one record's PC (layout as above; no checks). */
PC_API uint64_t pc_record_decode(const pc_record_layout *layout,
				 const unsigned char *record);
/** Samples known only by their region class (e.g. PROFIL's DOS counter). */
PC_API int pc_profile_add_class_samples(pc_profile *p, pc_region_class cls,
					uint64_t count);
/** A call arc (both ends are looked up when the call graph is built). */
PC_API int pc_profile_add_arc(pc_profile *p, const pc_arc *a);
/** count calls of the function holding (segment, address) whose callers
 *  were not recorded (V7 mon.out call-count slots).  They add to the
 *  row's calls (pc_row.calls); the call graph has no edge for them. */
PC_API int pc_profile_add_calls(pc_profile *p, uint32_t segment,
				uint64_t address, uint64_t count);
/** A source line from a symbol file without DWARF (a linker map's line
 *  numbers): the code from (segment, address) up to the next such row,
 *  or the end of its function, is line `line` of `file` (copied).  The
 *  source-level reports (--granularity line/file, -r source) use these
 *  rows when the profile has no ELF program. */
PC_API int pc_profile_add_line(pc_profile *p, uint32_t segment,
			       uint64_t address, const char *file, unsigned line);

/** Records that file was read as format (copied; kept for report
 *  headers); PC_ENOMEM. */
PC_API int pc_profile_add_source(pc_profile *p, const char *format,
				 const char *file);
/** Execution contexts (docs/swo.md): count samples were taken while
 *  the core ran in context ("thread mode", "handler 44 (IRQ 28)",
 *  "sleep", "unknown"; copied), as an exception trace tells.  They do not
 *  add samples: they split the capture's samples another way, and the
 *  regions report lists them.  Adding to a context already there sums. */
PC_API int pc_profile_add_context_samples(pc_profile *p, const char *context,
					  uint64_t count);
/** A loss: the capture says samples were dropped here (an SWO overflow
 *  packet) without saying how many.  offset: the byte offset in the
 *  capture (-1: unknown); after: samples read before it.  The first
 *  PC_LOST_KEEP places are kept, every loss is counted. */
PC_API int pc_profile_add_lost(pc_profile *p, int64_t offset, uint64_t after);
/** Ordered captures: the counts of the events [first, end) of the
 *  input's order (first < end; the instruction index of an instruction
 *  trace or an emulator's log, with exact counts; the sample index of
 *  periodic samples such as SWO's), n (segment, address, count) triples.  They are added to the
 *  profile's samples (as pc_profile_add_sample) and kept as one window
 *  of its order (pc_profile_window_at).  Windows come in order, each
 *  beginning where the last ended (else PC_EUSAGE); one at 0 after others
 *  is a second ordered input, and the profile then keeps no order.
 *  Memory stays bounded: at 64 windows (or past about 10^6 addresses in all)
 *  adjacent windows are merged pairwise. */
PC_API int pc_profile_add_window(pc_profile *p, uint64_t first, uint64_t end,
				 const uint32_t *segments, const uint64_t *addresses,
				 const uint64_t *counts, size_t n);
/** *span = the events the next window should span (it doubles when
 *  windows are merged); a window may span more, where the input's unit
 *  (a translation block, a folded loop) does not end at the span. */
PC_API int pc_profile_window_span(uint64_t *span, const pc_profile *p);

/* ---- the loader ---- */

#define PC_ROLE_SYMBOLS 0x1u
#define PC_ROLE_SAMPLES 0x2u
#define PC_ROLE_ARCS 0x4u

/** One loader.  Built-in loaders and plugins use the same struct; it
 *  grows only at its end, each addition with a new PC_LOADER_ABI_VERSION.
 *  probe: looks at the first len bytes of the content (head, len <= 4096)
 *  and the file name (may be NULL), and returns a confidence: 0 = not
 *  mine, else the number of bits it verified (libarchive's bid: 32 for a
 *  4-byte magic, more when further fields check out).
 *  load: fills p from s; on failure records the error on the stream
 *  (pc_stream_fail) or on the profile and returns a negative status. */
struct pc_loader {
	unsigned abi_version; /* PC_LOADER_ABI_VERSION */
	const char *name;
	const char *description;
	unsigned roles;
	const char *const *extensions; /* NULL-terminated, may be NULL */
	int (*probe)(const unsigned char *head, size_t len,
		     const char *filename);
	int (*load)(pc_profile *p, pc_stream *s, const pc_options *opts);
	/* Symbol loaders run before sample loaders when profcat is given
	 * several files: lower runs first. */
	int order;
	/* ---- ABI 2 ---- */
	/* The keys load() reads (NULL-terminated; NULL = none).  A load's
	 * options are checked against them before load() runs: an unknown
	 * key or a bad value is PC_EUSAGE.  The options of a loader built
	 * for ABI 1 are not checked (it declares nothing). */
	const pc_option_decl *options;
};

/** A plugin shared object exports this function under the name
 *  "pc_plugin_loaders"; it returns its loaders and the ABI version it was
 *  built for in *abi_version. */
typedef const pc_loader *const *(*pc_plugin_entry_fn)(unsigned *abi_version);
#define PC_PLUGIN_ENTRY "pc_plugin_loaders"


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
