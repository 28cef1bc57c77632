/*
 * filter.h - --focus / --ignore / --hide per attribution row, for the
 * reports that see samples one address at a time (filter.c).  Private
 * to formats/.
 */
#ifndef PC_FILTER_H
#define PC_FILTER_H

#include "rowset.h"

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
/** "Filters: focus RE, ...; kept K of N samples\n" when a filter is
 *  given, nothing otherwise. */
PC_INTERNAL int pc_filter_totals_line(const pc_rowfilter *rf, double kept,
				      double all, pc_sink *k);
/** For the call graph: *out = a copy of p (NULL when no filter is
 *  given) whose rows keep the samples the filters keep (focus and
 *  ignore by the stack rule, pc_stackkeep, then *stacks says how the
 *  stacks were known; else, and for hide, by the function's name: NULL), whose arcs into
 *  and out of a hidden function are replaced by arcs from its callers to
 *  its callees (the calls of each callee split among the callers in
 *  proportion to their calls), attributed with o.  The totals stay
 *  those of p.  Free with pc_profile_free. */
PC_INTERNAL int pc_filter_profile(pc_profile *p, const pc_options *o,
				  pc_profile **out, const char **stacks);
/** --focus and --ignore by the stack rule of the exports (pprof's "the
 *  samples whose stack has a matching function", exports.c
 *  filter_chains), for the flat report and the call graph: the self
 *  samples each row and each region class keeps when the chains of the
 *  exports' one call-path model (estimated from the call arcs, as gprof
 *  propagates time; one frame per sample without arcs) are filtered.
 *  Made only when focus or ignore is given and the rows are functions
 *  (granularity unset or function) of a sampled capture (not Proff's arc
 *  times): row is NULL otherwise, and the one-frame rule applies. */
typedef struct pc_stackkeep {
	double *row;                 /* per attribution row (malloc'ed)   */
	double cls[PC_REGION_COUNT]; /* pseudo-frames, by region class    */
	const char *how;             /* how the stacks were known, for the
					header: "stacks estimated from call
					counts, as gprof", "no call arcs:
					a sample's stack is its function" */
} pc_stackkeep;
PC_INTERNAL int pc_stackkeep_init(pc_profile *p, const pc_options *o,
				  pc_stackkeep *sk);
PC_INTERNAL void pc_stackkeep_dispose(pc_stackkeep *sk);

/** The JSON object {"focus": RE|null, "ignore": ..., "hide": ...}. */
PC_INTERNAL int pc_filter_json(const pc_options *o, pc_sink *k);

#endif
