/*
 * text.h - the output format, boolean options, region labels and the
 * text helpers every report layout shares (padding, bars, the percent
 * axis, count strings): the lowest layer of formats/ (text.c).  Private
 * to formats/.
 */
#ifndef PC_TEXT_H
#define PC_TEXT_H

#include "internal.h"

typedef enum pc_outfmt { PC_OUT_TEXT, PC_OUT_CSV, PC_OUT_JSON } pc_outfmt;

/** Parses "output-format"; PC_EUSAGE (recorded on p) when unknown. */
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

#endif
