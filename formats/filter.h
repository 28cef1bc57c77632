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
 *  given) whose rows the filters drop have no samples, whose arcs into
 *  and out of a hidden function are replaced by arcs from its callers to
 *  its callees (the calls of each callee split among the callers in
 *  proportion to their calls), attributed with o.  The totals stay
 *  those of p.  Free with pc_profile_free. */
PC_INTERNAL int pc_filter_profile(pc_profile *p, const pc_options *o,
				  pc_profile **out);
/** The JSON object {"focus": RE|null, "ignore": ..., "hide": ...}. */
PC_INTERNAL int pc_filter_json(const pc_options *o, pc_sink *k);

#endif
