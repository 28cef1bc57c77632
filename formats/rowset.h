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

#include "text.h"
#include "filter.h"


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
	pc_sort_key sort;   /* "sort"                                      */
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
/** The "ci" option: *z = the normal quantile, 0 when absent; PC_EUSAGE
 *  (recorded on p) when malformed or out of (0, 100). */
PC_INTERNAL int pc_ci_option(pc_profile *p, const pc_options *o, double *z,
			     double *level);

/** The Wilson interval of a listed count's percent ("ci"), in percent;
 *  0 and 0 when no interval applies (no "ci", exact counts). */
PC_INTERNAL void pc_rowset_ci(const pc_rowset *rs, double count, double *lo,
			      double *hi);


/* ---- machine output shared by every table engine ------------------ */

/** The fields of a table row in the machine outputs, one table for every
 *  format: the CSV header and columns, the JSON rows' keys and the HTML
 *  page's "columns" (html.c) are written from pc_rs_fields, each format
 *  in its own order (pc_rs_csv_fields, the JSON writer, html.c's). */
typedef enum pc_rs_field {
	PC_RF_RANK,
	PC_RF_SYMBOL,
	PC_RF_SEGMENT,
	PC_RF_ADDRESS,
	PC_RF_REGION,
	PC_RF_COUNT,
	PC_RF_PERCENT,
	PC_RF_CUM_PERCENT,
	PC_RF_SELF_SECONDS,
	PC_RF_CI_LOW,
	PC_RF_CI_HIGH,
	PC_RF_CALLS,
	PC_RF_SELF_CALLS,
	PC_RF_COUNT_OF_FIELDS
} pc_rs_field;
typedef struct pc_rs_field_def {
	const char *name;     /* "cum_percent": a CSV column, a JSON key  */
	const char *json_key; /* ", \"cum_percent\": " (a row's member)  */
	size_t json_len;
} pc_rs_field_def;
PC_INTERNAL extern const pc_rs_field_def pc_rs_fields[PC_RF_COUNT_OF_FIELDS];
/** The CSV columns in order: the last two (the interval) only with ci. */
PC_INTERNAL extern const pc_rs_field pc_rs_csv_fields[11];
/** ", \"name\": " of field f into b (a JSON row's member). */
#define PC_LW_JSON_KEY(b, f) pc_lw_str(b, pc_rs_fields[f].json_key, pc_rs_fields[f].json_len)

/** CSV as docs/usage.md ("Machine-readable output") documents it for the flat
 *  report: the columns of pc_rs_csv_fields ("rank,symbol,count,percent,
 *  cum_percent,self_seconds,calls,self_calls,address"), one line per
 *  listed row (region rows: empty address), then the bracketed total
 *  rows. */
PC_INTERNAL int pc_rowset_csv(pc_profile *p, const pc_rowset *rs, pc_sink *k);
/** JSON object of that section: report, style, program, sources,
 *  rate_hz, dimension, totals, percent_of, cutoff, rows, warnings, and
 *  extra members (extra(k, arg) writes ",\n  \"key\": value..."). */
PC_INTERNAL int pc_rowset_json(pc_profile *p, const pc_rowset *rs,
			       const char *report, const char *style,
			       void (*extra)(pc_sink *k, const void *arg),
			       const void *arg, pc_sink *k);
/** The rows as rs->fmt asks, CSV (pc_rowset_csv) or JSON
 *  (pc_rowset_json with report, style, extra and arg): every table
 *  report's machine output (the text is each layout's own). */
PC_INTERNAL int pc_rowset_machine(pc_profile *p, const pc_rowset *rs,
				  const char *report, const char *style,
				  void (*extra)(pc_sink *k, const void *arg),
				  const void *arg, pc_sink *k);


/** The key ci (pc_ci_option). */
#define PC_CI_OPTION_DECL                                                       \
	{"ci", PC_OPTION_STRING, NULL, NULL,                                    \
	 "confidence level of intervals, in percent, above 0 and below 100"}
/** The keys of the row selection (pc_rowset_build): the flat report's
 *  and the bar chart's (the ones pc_profile_granular reads included). */
#define PC_ROWS_OPTION_DECLS                                                    \
	{"granularity", PC_OPTION_ENUM, "function,symbol,line,file,address", "function", \
	 "what a row of the flat table is"},                                     \
	    {"zero", PC_OPTION_BOOL, NULL, "0", "also list symbols without samples"}, \
	    {"barchart", PC_OPTION_BOOL, NULL, "1", "bar column in the table"},   \
	    {"cutoff", PC_OPTION_DOUBLE, NULL, NULL,                              \
	     "list symbols until this percent is covered"},                       \
	    {"percent-of", PC_OPTION_ENUM, "program,total", "program",            \
	     "what percents are of"},                                             \
	    {"top", PC_OPTION_U64, NULL, NULL, "list the first N rows only"},     \
	    {"sort", PC_OPTION_ENUM, "self,cum,calls,name,address", "self", "row order"}, \
	    PC_FILTER_OPTION_DECLS, PC_CI_OPTION_DECL, PC_DWARF_OPTION_DECLS

#endif
