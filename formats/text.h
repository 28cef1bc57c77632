/*
 * text.h - the output format, boolean options, region labels and the
 * text helpers every report layout shares (padding, bars, the percent
 * axis, count strings): the lowest layer of formats/ (text.c).  Private
 * to formats/.
 */
#ifndef PC_TEXT_H
#define PC_TEXT_H

#include "internal.h"
#include "numfmt.h"

#include <stdint.h>
#include <string.h>

/** "output-format" (text, csv or json); PC_EUSAGE (recorded on p) for
 *  another. */
PC_INTERNAL int pc_rs_outfmt(pc_profile *p, const pc_options *o,
			     pc_outfmt *fmt);
/** Reads a boolean option (1/0, yes/no, on/off, true/false); def when
 *  absent. */
PC_INTERNAL int pc_rs_bool(pc_profile *p, const pc_options *o,
			   const char *key, int def, int *out);

/** The label of a region row: DDJ's PA_BOT_MEM for samples below the
 *  program, "(class)" otherwise, "(no symbol)" for program samples
 *  credited to no symbol. */
PC_INTERNAL const char *pc_rs_region_label(int cls);
/* The profile's inputs as a JSON array: [{"format": F, "file": NAME}...]. */
PC_INTERNAL void pc_rs_sources_json(pc_sink *k, pc_profile *p);

/* ---- text helpers --------------------------------------------------- */

/** A count as text tables print it, into buf (at least 40 bytes):
 *  integers exactly, split-bucket fractions with two decimals (csv and
 *  json carry them exactly). */
PC_INTERNAL const char *pc_fmt_count(double v, char *buf, size_t n);
/** s padded with spaces to width w: align < 0 left, 0 centred (extra
 *  space on the right), > 0 right.  Longer strings are not cut. */
PC_INTERNAL int pc_sink_pad(pc_sink *k, const char *s, size_t w, int align);
/** floor(count / max * width), exact at count == max; 0 when max <= 0.
 *  (0 <= count * width / max < width here: the conversion is the floor.) */
static inline size_t pc_bar_len(double count, double max, size_t width)
{
	if (!(max > 0) || !(count > 0))
		return 0;
	if (count >= max)
		return width;
	return (size_t)(count * (double)width / max);
}
/** Percent rounded half up to an integer (DDJ). */
PC_INTERNAL long pc_round_percent(double pct);

/** Percent axis of the bar charts (DDJ layout): ten ticks, four columns
 *  apart, labelled 0, step, ..., 10*step, where step is the smallest of
 *  1, 2, 5, 10 with 10*step >= the largest percent.  A bar is
 *  floor(percent * 4 / step) stars. */
#define PC_AXIS_TICKS 10
#define PC_AXIS_TICK_COLS 4
PC_INTERNAL unsigned pc_axis_step(double max_percent);
PC_INTERNAL int pc_axis_write(pc_sink *k, unsigned step);
PC_INTERNAL size_t pc_axis_stars(double percent, unsigned step);

/* ---- the line writer: rows written straight into the sink's buffer ----
 * The one writer of every report's rows (text tables, CSV, JSON): each
 * row is formatted into room the sink gives (pc_sink_room), PC_LW_CHUNK
 * bytes at a time, and committed at the write that a row-at-a-time
 * writer would have flushed a streaming sink at (the line end that
 * reaches its limit); a name that needs escaping, or is longer than
 * PC_LW_NAME, goes through the sink's own writer, after a commit.
 * pc_lw_row before a row gives room for PC_LW_LINE bytes: a row writes
 * at most that much between two calls, names aside. */
#define PC_LW_CHUNK ((size_t)64 * 1024)
#define PC_LW_NAME ((size_t)1024)
#define PC_LW_LINE ((size_t)6144) /* a row's bytes but a long name: 8 numbers
				   * of up to 352 bytes, keys, separators */

typedef struct pc_lw {
	pc_sink *k;
	char *out;
	size_t L, room, lim;
} pc_lw;

static inline void pc_lw_init(pc_lw *b, pc_sink *k)
{
	b->k = k;
	b->out = NULL;
	b->L = b->room = 0;
	b->lim = k->limit ? k->limit : SIZE_MAX;
}

/** Commits what is written; room for the next bytes (< 0: failed,
 *  recorded on the sink). */
PC_INTERNAL int pc_lw_reopen(pc_lw *b);

/** Before a row: room for PC_LW_LINE bytes (< 0: failed). */
static inline int pc_lw_row(pc_lw *b)
{
	if (b->out && b->room - b->L >= PC_LW_LINE)
		return 0;
	return pc_lw_reopen(b);
}

/** After a line end: committed when the sink reaches its limit (a
 *  streaming sink flushes there). */
static inline void pc_lw_line_end(pc_lw *b)
{
	if (b->k->len + b->L >= b->lim)
		pc_lw_reopen(b);
}

static inline void pc_lw_done(pc_lw *b)
{
	if (b->out)
		pc_sink_commit(b->k, b->L);
	b->out = NULL;
}

static inline void pc_lw_str(pc_lw *b, const char *s, size_t n)
{
	memcpy(b->out + b->L, s, n);
	b->L += n;
}
#define PC_LW_LIT(b, lit) pc_lw_str(b, lit, sizeof lit - 1)

/** n blanks (n < PC_LW_LINE). */
static inline void pc_lw_blanks(pc_lw *b, size_t n)
{
	memset(b->out + b->L, ' ', n);
	b->L += n;
}

/** "%llu" (below 2^32: inline, two digits a step). */
static PC_ALWAYS_INLINE void pc_lw_u64(pc_lw *b, uint64_t v)
{
	if (v <= UINT32_MAX) {
		size_t n = pc_ndigits(v);
		pc_put_u32(b->out + b->L + n, (uint32_t)v);
		b->L += n;
		return;
	}
	b->L += pc_fmt_u64(b->out + b->L, v);
}

/** "%*llu". */
static inline void pc_lw_u64_right(pc_lw *b, uint64_t v, size_t width)
{
	size_t n = pc_ndigits(v);
	if (n < width)
		pc_lw_blanks(b, width - n);
	if (v <= UINT32_MAX) { /* (pc_lw_u64's, the digits counted once) */
		pc_put_u32(b->out + b->L + n, (uint32_t)v);
		b->L += n;
		return;
	}
	pc_lw_u64(b, v);
}

/** "%.*f" (the usual number inline: dec is a constant at each use). */
static PC_ALWAYS_INLINE void pc_lw_fixed(pc_lw *b, double v, int dec)
{
	uint64_t u;
	if (pc_fixed_scaled(v, dec, &u)) {
		size_t n = pc_scaled_len(u, dec);
		pc_put_scaled(b->out + b->L + n, u, dec);
		b->L += n;
		return;
	}
	b->L += pc_fmt_fixed(b->out + b->L, 352, v, dec);
}

/** "%*.*f" (the usual number inline: width and dec are constants at
 *  each use). */
static PC_ALWAYS_INLINE void pc_lw_fixed_right(pc_lw *b, double v, int width, int dec)
{
	size_t n = pc_fixed_right_fast(b->out + b->L, v, (size_t)width, dec);
	b->L += n ? n : pc_fmt_fixed_right(b->out + b->L, v, width, dec);
}

/** pc_sink_count's bytes (pc_fmt_sink_count): an integer exactly, else
 *  6 decimals without trailing zeros. */
PC_INTERNAL void pc_lw_count(pc_lw *b, double v);
/** v in lower-case hex, at least minw digits (printf's %0*llx). */
PC_INTERNAL void pc_lw_hex(pc_lw *b, uint64_t v, int minw);
/** A name: as it is when every byte is printable ASCII other than those
 *  of special (the sink's syntax; two bytes) and it is at most
 *  PC_LW_NAME bytes, between quote bytes when quote is not 0; else
 *  through field(k, s) after a commit.  < 0 on failure. */
PC_INTERNAL int pc_lw_name(pc_lw *b, const char *s, const char *special,
			   int (*field)(pc_sink *, const char *), char quote);
/** The shown form of a name padded with blanks to width columns
 *  (pc_sink_pad's, align < 0): copied when it is printable ASCII and
 *  width is at most PC_LW_NAME, else through pc_sink_pad after a
 *  commit.  < 0 on failure. */
PC_INTERNAL int pc_lw_name_left(pc_lw *b, const char *s, size_t width);

/* ---- the keys of a report's table (pc_report.options) -------------------
 * Each report declares the keys it reads, from these groups and its own:
 * every report attributes (the attribution keys, gprof's symbol
 * selections) and has an output format (html: the page, reports.c). */
#define PC_OUTFMT_OPTION_DECL                                                   \
	{"output-format", PC_OPTION_ENUM, "text,csv,json,html", "text", "the output's format"}
#define PC_REPORT_OPTION_DECLS                                                  \
	PC_ATTRIBUTION_OPTION_DECLS, PC_SYMSPECS_OPTION_DECL, PC_OUTFMT_OPTION_DECL

#endif
