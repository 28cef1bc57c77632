/*
 * styles.h - report layouts beside the default one, and the engines the
 * styles share.  Private to formats/.
 *
 *   default  the clean modern table (flat.c)
 *   atari    David Rowley's Atari ST Profiler report (style_atari.c)
 *   ddj      the Dr. Dobb's module table (style_ddj.c)
 *   prohst   MS-DOS PROHST's bucket listing (style_prohst.c)
 *   gprof    GNU gprof -b -p's flat profile (style_gprof.c)
 */
#ifndef PC_STYLES_H
#define PC_STYLES_H

#include "rowset.h"

typedef enum pc_style {
	PC_STYLE_DEFAULT,
	PC_STYLE_ATARI,
	PC_STYLE_DDJ,
	PC_STYLE_PROHST,
	PC_STYLE_GPROF
} pc_style;

/** Parses the "style" option (absent = default). */
PC_INTERNAL int pc_style_get(pc_profile *p, const pc_options *o,
			     pc_style *out);

typedef struct pc_intervals pc_intervals;

/** A style of the flat report: the rows it lists (spec; rows == 0: its
 *  text reads no rows, and gets rs NULL) and its text layout.  CSV and
 *  JSON are the same for every style (pc_rowset_machine, the style named
 *  in the JSON), written by flat.c; iv, when not NULL, is the "interval"
 *  detail to show with the text (json: the "interval" member; csv: the
 *  table only, the intervals report has its own csv). */
typedef struct pc_flat_style {
	const char *name; /* the "style" value; NULL: the default */
	pc_rowset_spec spec;
	int rows;         /* the text reads the rows */
	int (*text)(pc_profile *p, const pc_options *o, const pc_rowset *rs,
		    const pc_intervals *iv, pc_sink *k);
} pc_flat_style;
PC_INTERNAL extern const pc_flat_style pc_style_atari;
PC_INTERNAL extern const pc_flat_style pc_style_ddj;
PC_INTERNAL extern const pc_flat_style pc_style_prohst;
PC_INTERNAL extern const pc_flat_style pc_style_gprof;

/* ---- report engines beside flat (each one entry in reports.c) ---------- */
PC_INTERNAL extern const pc_report pc_report_intervals;
PC_INTERNAL extern const pc_report pc_report_barchart;
PC_INTERNAL extern const pc_report pc_report_regions;

/* ---- intervals (intervals.c) ------------------------------------------ */

typedef struct pc_interval {
	uint64_t low, high; /* [low, high) */
	double count;
	double percent;     /* of the samples in the whole range */
} pc_interval;

struct pc_intervals {
	const char *what;   /* the symbol name, or the range as given       */
	uint32_t segment;
	uint64_t low, high; /* the range that was split                     */
	size_t asked;       /* intervals asked for ("intervals", def. 25)   */
	size_t n;           /* intervals made: asked, or fewer when the
			       range has fewer addresses than asked         */
	pc_interval *iv;
	double total;       /* samples in [low, high)                       */
	double max_count;
	int filtered;       /* focus/ignore/hide given (filter.c): total is
			       the kept samples, all every sample          */
	double all;
	const pc_options *opts;
};

/** Splits the range named by the "interval" option (a symbol name, or
 *  LOW-HIGH / LOW+SIZE with optional SEG: prefix) into "intervals" equal
 *  parts and counts the samples in each.  Errors are recorded on p:
 *  PC_ENOTFOUND (no such symbol, and not a range), PC_EAMBIGUOUS (several
 *  symbols of that name), PC_EUSAGE (bad count, symbol without extent). */
PC_INTERNAL int pc_intervals_build(pc_profile *p, const pc_options *o,
				   pc_intervals *iv);
PC_INTERNAL void pc_intervals_dispose(pc_intervals *iv);
/** Address of an interval row as text: "0x1a0-0x1b0" or with "seg:". */
PC_INTERNAL const char *pc_interval_range(const pc_intervals *iv, size_t i,
					  char *buf, size_t n);
/** The default text layout of an intervals result. */
PC_INTERNAL void pc_intervals_text(const pc_intervals *iv, int barchart,
				   pc_sink *k);
/** JSON members for an intervals result, written after the JSON object
 *  of a table report as its "interval" member. */
PC_INTERNAL void pc_intervals_json_extra(pc_sink *k, const void *iv);
/** CSV / JSON members for an intervals result (shared by every style). */
PC_INTERNAL int pc_intervals_csv(const pc_intervals *iv, pc_sink *k);
PC_INTERNAL int pc_intervals_json_members(const pc_intervals *iv,
					  pc_sink *k);

/** The keys of pc_intervals_build (the intervals report, and the flat
 *  report given an interval). */
#define PC_INTERVAL_OPTION_DECLS                                                \
	{"interval", PC_OPTION_STRING, NULL, NULL,                              \
	 "symbol or LOW-HIGH, LOW+SIZE to split"},                               \
	    {"intervals", PC_OPTION_U64, NULL, "25", "number of sub-ranges"}
#endif
