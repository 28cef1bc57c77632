/*
 * filter.h - --focus / --ignore / --hide: the compiled filters every
 * report and export reads, and their one-frame rule per attribution row
 * for the reports that see samples one address at a time (filter.c).
 * The stack rule is stackfilter.h.  Private to formats/.
 */
#ifndef PC_FILTER_H
#define PC_FILTER_H

#include "text.h"
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

typedef struct pc_rowfilter {
	pc_filter f;
	int any;                /* some filter is given                    */
	const pc_options *opts; /* what it was made from (borrowed)        */
	pc_profile *p;
	signed char *keep;      /* per row: 1 kept, 0 dropped, -1 not yet  */
	size_t nrows;
} pc_rowfilter;

typedef struct pc_addr_range {
	uint64_t low, high; /* [low, high) */
} pc_addr_range;

/** Compiles o's filters and (when some is given) attributes p with o.
 *  Dispose with pc_rowfilter_dispose even on failure. */
PC_INTERNAL int pc_rowfilter_init(pc_profile *p, const pc_options *o,
				  pc_rowfilter *rf);
PC_INTERNAL void pc_rowfilter_dispose(pc_rowfilter *rf);
/** 1: the samples of row (an attribution row, < 0 for none) are kept,
 *  0: dropped, < 0: error (recorded on the profile). */
PC_INTERNAL int pc_rowfilter_keep_row(pc_rowfilter *rf, int64_t row);
/** The same for the row holding (segment, address). */
PC_INTERNAL int pc_rowfilter_keep_at(pc_rowfilter *rf, uint32_t segment,
				     uint64_t address);
/** The same for a symbol by name (key: the raw name, or NULL). */
PC_INTERNAL int pc_rowfilter_keep_name(pc_rowfilter *rf, const char *name,
				       const char *key);
/** The parts of [low, high) in segment whose samples are kept, in
 *  address order, adjacent parts joined (malloc'ed, *out NULL when
 *  none).  Only after pc_rowfilter_init with a filter given. */
PC_INTERNAL int pc_rowfilter_ranges(pc_rowfilter *rf, uint32_t segment,
				    uint64_t low, uint64_t high,
				    pc_addr_range **out, size_t *n);
/** What pc_rowfilter_each_sampled calls for each sampled address: its
 *  segment, address, count and the filters' verdict (1 kept, 0
 *  dropped); a nonzero return stops the walk and is returned. */
typedef int (*pc_sampled_fn)(void *ctx, uint32_t segment, uint64_t address, double count,
			     int keep);
/** Every sampled address of p with a count: each histogram's non-empty
 *  buckets by their start, then the distinct raw samples s[0..ns)
 *  (pc_samples_sorted, or none), each with rf's verdict (the reports
 *  "locations" and the HTML page's source text).  PC_OK, fn's first
 *  nonzero return, or < 0 from the filters. */
PC_INTERNAL int pc_rowfilter_each_sampled(pc_profile *p, pc_rowfilter *rf, const pc_sample *s,
					  size_t ns, pc_sampled_fn fn, void *ctx);
/** "Filters: focus RE, ...; kept K of N samples\n" when a filter is
 *  given, nothing otherwise. */
PC_INTERNAL int pc_filter_totals_line(const pc_rowfilter *rf, double kept,
				      double all, pc_sink *k);
/** The JSON object {"focus": RE|null, "ignore": ..., "hide": ...}. */
PC_INTERNAL int pc_filter_json(const pc_options *o, pc_sink *k);

#endif
