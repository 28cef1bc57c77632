/*
 * stackfilter.h - --focus and --ignore by the stack rule, and the call
 * graph's filtered profile (stackfilter.c): both read the stacks of the
 * exports' call-path model (export.h).  Private to formats/.
 */
#ifndef PC_STACKFILTER_H
#define PC_STACKFILTER_H

#include "filter.h"

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

#endif
