/*
 * sink.h - output sinks (sink.c).
 * Private to libprofcore, the built-in loaders and the report engines
 * (internal.h includes every one of these).
 */
#ifndef PC_SINK_H
#define PC_SINK_H

#include "pc_base.h"

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
/** 1 when s[0, n) is printable ASCII (0x20 to 0x7e: its own shown
 *  form), else 0. */
PC_INTERNAL int pc_name_plain(const char *s, size_t n);
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
/** v as printf("%.*g", prec, v) prints it, byte for byte (1e-4 <= |v| <
 *  10^prec, prec <= 15, without printf); returns the length. */
PC_INTERNAL size_t pc_fmt_g(char *buf, size_t size, double v, int prec);
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

#endif
