/*
 * rowset.h - what a table report lists, chosen once for every engine and
 * style: the attributed rows in report order, the cutoff and zero-hit
 * selection, ranks, percents and the helpers the text layouts share
 * (padding, bars, the percent axis, count strings).  Private to formats/.
 *
 * Option keys read here (docs/reports.md ("Reports")):
 *   output-format  text | csv | json                    (default text)
 *   cutoff         N: list rows until N percent of the samples is covered
 *   zero           1: also list code symbols never hit (rows with calls
 *                  but no samples are always listed)
 *   barchart       0 | 1: bar column in the table styles (default 1)
 *   percent-of     program | total: what percents are of (style default)
 *   focus, ignore, hide  regular expressions (pprof): focus and ignore
 *                  keep the samples whose stack has a function matching
 *                  focus and none matching ignore (stacks as the
 *                  exports estimate them, filter.c pc_stackkeep; one
 *                  frame per row at granularity line, file or
 *                  address); a row matching hide is not listed;
 *                  percents stay of every sample (pprof's default)
 *   sort           self (default) | cum | calls | name | address
 *   top            N: list at most N rows (after the selection above)
 */
#ifndef PC_ROWSET_H
#define PC_ROWSET_H

#include "internal.h"
#include "pc_regex.h"

/** The sample filters "focus", "ignore" and "hide" (pprof semantics),
 *  compiled once; every report and export that honours them reads them
 *  through this. */
typedef struct pc_filter {
	pc_re *focus, *ignore, *hide;
	pc_re_scratch sc;
	int any; /* some filter is given */
} pc_filter;

/** Compiles the filters of o (PC_EUSAGE, recorded on p, for a bad
 *  expression).  Dispose with pc_filter_dispose even on failure. */
PC_INTERNAL int pc_filter_init(pc_profile *p, const pc_options *o,
			       pc_filter *f);
PC_INTERNAL void pc_filter_dispose(pc_filter *f);
/** 1 if name (or, when different, key) matches re somewhere (unanchored,
 *  as pprof), 0 if not or re is NULL; < 0 (recorded on p) on a budget or
 *  memory failure. */
PC_INTERNAL int pc_filter_match(pc_profile *p, pc_filter *f, const pc_re *re,
				const char *name, const char *key);
/** A one-frame sample (a flat row): 1 to keep it, 0 to drop it, < 0 on
 *  failure. */
PC_INTERNAL int pc_filter_keep_frame(pc_profile *p, pc_filter *f,
				     const char *name, const char *key);

/** The filters of o as reports and exports state them, "focus RE,
 *  ignore RE, hide RE" (those given, in the shown form), appended to k;
 *  returns how many are given. */
PC_INTERNAL int pc_filter_describe(const pc_options *o, pc_sink *k);

/** PC_EUSAGE (recorded on p) when o holds "focus", "ignore", "hide",
 *  "top" or "sort" ("hide", "top" or "sort" only with stacks != 0: what
 *  filters its stacks), which what (a report or export that does not
 *  read them: "the callgraph report") would otherwise ignore. */
PC_INTERNAL int pc_rowset_refuse_selection(pc_profile *p, const pc_options *o,
					   const char *what, int stacks);

/** Row order ("sort"). */
typedef enum pc_sort {
	PC_RSORT_SELF, PC_RSORT_CUM, PC_RSORT_CALLS, PC_RSORT_NAME, PC_RSORT_ADDRESS
} pc_sort;

/** What percents are of. */
typedef enum pc_base {
	PC_BASE_PROGRAM, /* samples inside the program (Atari)          */
	PC_BASE_TOTAL    /* every sample collected (DDJ, gprof)          */
} pc_base;

/** Order of rows with equal counts. */
typedef enum pc_tie {
	PC_TIE_NAME,   /* calls desc, then name (gprof, Atari)             */
	PC_TIE_ADDRESS /* address: the module table's own order (DDJ)      */
} pc_tie;

/** How a style wants its rows. */
typedef struct pc_rowset_spec {
	pc_base base;     /* default when "percent-of" is absent           */
	pc_tie tie;
	int region_rows;  /* samples outside every symbol listed as rows,
			     one per region class (DDJ's PA_BOT_MEM)       */
} pc_rowset_spec;

typedef struct pc_rs_row {
	const char *label;  /* symbol name, or region row label           */
	const char *key;    /* name order: the raw symbol name (gprof sorts
			       mangled names, prints them demangled)      */
	int region;         /* -1: a symbol; else its pc_region_class     */
	uint32_t segment;   /* (beside region: no padding)                 */
	size_t row;         /* index for pc_profile_row_at (symbols)       */
	uint64_t address, end;
	double count;
	uint64_t calls, self_calls;
	size_t rank;        /* 1-based position in the listing             */
	double percent;     /* count / denom * 100 (0 when denom is 0)     */
	double cum_percent; /* of this row and every row above it          */
	size_t namelen;     /* leading label bytes that sort as the name
			       (0 = all): granularity line sorts rows of
			       one function as gprof -l, by address     */
	double inclusive;   /* sort cum: count plus the time of its callees
			       (the call graph's children); set (and read)
			       only for sort cum                        */
} pc_rs_row;

typedef struct pc_rowset {
	pc_itotals t;
	pc_base base;
	double denom;       /* samples the percents are of                 */
	size_t targets;     /* code symbols (attribution targets)          */
	pc_outfmt fmt;
	int has_cutoff;
	double cutoff;      /* percent, 0..100                              */
	const char *cutoff_text; /* as the user wrote it                  */
	int zero;
	int barchart;
	pc_rs_row *rows;    /* listed rows, in report order                */
	size_t n;
	double max_count;   /* largest listed count (the first row)        */
	double listed;      /* sum of the listed counts                    */
	int fractional;     /* some listed count is not an integer         */
	int has_calls;      /* some listed row has calls                   */
	double rate;        /* samples per second, 0 = unknown             */
	double ci_z;        /* "ci": normal quantile, 0 = no intervals     */
	double ci_level;    /* "ci" in percent                             */
	int exact;          /* exact counts (pc_profile_exact): no interval */
	const pc_options *opts; /* what it was built with (borrowed)     */
	pc_sort sort;       /* "sort"                                      */
	size_t top;         /* "top": 0 = no limit                         */
	int filtered;       /* focus/ignore/hide given                     */
	const char *stacks; /* focus/ignore by stacks: how they were known
			       (pc_stackkeep.how), NULL: one frame per row */
	size_t selected;    /* rows the selection kept before "top"        */
	/* compact rows (pc_rowset_build_compact; rows is then NULL): per
	 * listed row its count, label (in cnt's allocation) and target,
	 * and the running sum of the counts read last */
	pc_profile *p;
	double *cnt;
	const char **lab;
	size_t *tgt;
	struct pc_rs_cum *cum;
} pc_rowset;

/** "output-format" (text, csv or json); PC_EUSAGE (recorded on p) for
 *  another. */
PC_INTERNAL int pc_rs_outfmt(pc_profile *p, const pc_options *o,
			     pc_outfmt *fmt);
/** Reads a boolean option (1/0, yes/no, on/off, true/false); def when
 *  absent. */
PC_INTERNAL int pc_rs_bool(pc_profile *p, const pc_options *o,
			   const char *key, int def, int *out);

/** Attributes p (with o's attribution keys) and fills rs. */
PC_INTERNAL int pc_rowset_build(pc_profile *p, const pc_options *o,
				const pc_rowset_spec *spec, pc_rowset *rs);
/** The same for a caller that reads the rows only through
 *  pc_rowset_row, _row_text and _label: the usual listing (sort self, no
 *  filter, no granularity, no region rows, no calls, tie by name) is kept
 *  as each listed row's label, count and target (in the two arrays its
 *  sort used: no array of rows of 112 bytes), the other fields made when
 *  a row is read; otherwise as pc_rowset_build. */
PC_INTERNAL int pc_rowset_build_compact(pc_profile *p, const pc_options *o,
					const pc_rowset_spec *spec, pc_rowset *rs);
PC_INTERNAL void pc_rowset_dispose(pc_rowset *rs);
/** What of a compact row is made (PC_RS_ALL: every field). */
#define PC_RS_TARGET 1 /* address, end, segment, row, calls, self_calls */
#define PC_RS_KEY 2    /* key (the symbol's raw name) */
#define PC_RS_ALL (PC_RS_TARGET | PC_RS_KEY)
/** Listed row i (< rs->n): &rs->rows[i], or, for compact rows, the row
 *  made in buf: label, count, rank, percent, cum_percent and what `what`
 *  asks for (the others 0) as rs->rows[i] would hold them (reading the
 *  rows in order costs O(1) a row, a row before the last read O(i)). */
PC_INTERNAL const pc_rs_row *pc_rowset_row_make(const pc_rowset *rs, size_t i,
						 pc_rs_row *buf, int what);
static inline const pc_rs_row *pc_rowset_row(const pc_rowset *rs, size_t i,
					     pc_rs_row *buf)
{
	return rs->rows ? &rs->rows[i] : pc_rowset_row_make(rs, i, buf, PC_RS_ALL);
}
/** The same with the fields the text tables read: label, count, rank,
 *  percent, cum_percent, calls and self_calls (a compact listing has no
 *  calls: 0). */
static inline const pc_rs_row *pc_rowset_row_text(const pc_rowset *rs, size_t i,
						  pc_rs_row *buf)
{
	return rs->rows ? &rs->rows[i] : pc_rowset_row_make(rs, i, buf, 0);
}
/** The same with every field but key (csv, json). */
static inline const pc_rs_row *pc_rowset_row_machine(const pc_rowset *rs, size_t i,
						     pc_rs_row *buf)
{
	return rs->rows ? &rs->rows[i] : pc_rowset_row_make(rs, i, buf, PC_RS_TARGET);
}
/** The label of listed row i alone (pc_rowset_row(rs, i, ...)->label). */
PC_INTERNAL const char *pc_rowset_label_make(const pc_rowset *rs, size_t i);
static inline const char *pc_rowset_label(const pc_rowset *rs, size_t i)
{
	return rs->rows ? rs->rows[i].label : pc_rowset_label_make(rs, i);
}
/** The Wilson interval of a listed count's percent ("ci"), in percent;
 *  0 and 0 when no interval applies (no "ci", exact counts). */
PC_INTERNAL void pc_rowset_ci(const pc_rowset *rs, double count, double *lo,
			      double *hi);

/** The label of a region row: DDJ's PA_BOT_MEM for samples below the
 *  program, "(class)" otherwise, "(no symbol)" for program samples
 *  credited to no symbol. */
PC_INTERNAL const char *pc_rs_region_label(int cls);

/* ---- machine output shared by every table engine ------------------ */

/** CSV as docs/usage.md ("Machine-readable output") documents it for the flat
 *  report: "rank,symbol,count,percent,cum_percent,self_seconds,calls,
 *  self_calls,address", one line per listed row (region rows: empty
 *  address), then the bracketed total rows. */
PC_INTERNAL int pc_rowset_csv(pc_profile *p, const pc_rowset *rs, pc_sink *k);
/** JSON object of that section: report, style, program, sources,
 *  rate_hz, dimension, totals, percent_of, cutoff, rows, warnings, and
 *  extra members (extra(k, arg) writes ",\n  \"key\": value..."). */
PC_INTERNAL int pc_rowset_json(pc_profile *p, const pc_rowset *rs,
			       const char *report, const char *style,
			       void (*extra)(pc_sink *k, const void *arg),
			       const void *arg, pc_sink *k);

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
