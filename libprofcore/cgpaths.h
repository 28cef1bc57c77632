/*
 * cgpaths.h - call paths from the call graph (cgmodel.c).
 * Private to libprofcore, the built-in loaders and the report engines
 * (internal.h includes every one of these).
 */
#ifndef PC_CGPATHS_H
#define PC_CGPATHS_H

#include "pc_base.h"

/* ---- call paths from the call graph (cgmodel.c) ----------------------- *
 * The one call-path model behind every export and the HTML view: the
 * stacks gprof's propagation implies.  A path of a row's own time runs
 * from the row up through its callers to a root, one node per level:
 * a routine in no cycle, or a cycle member followed by its cycle node
 * (<cycle N>), from which the path continues through the arcs entering
 * the cycle from outside.  At each level the time is split among the
 * callers in proportion to call counts (gprof's arc time fractions;
 * self-recursive and intra-cycle arcs carry none), so that the paths
 * through a node add up to its gprof inclusive time (self + children);
 * a node no counted arc enters is a root (gprof's <spontaneous>).
 * Paths deeper than PC_CG_MAX_DEPTH, or made beyond PC_CG_MAX_PATHS paths
 * or PC_CG_MAX_POOL path entries in all, end in PC_CG_TRUNCATED (their
 * weight is added up in truncated). */
#define PC_CG_TRUNCATED ((size_t)-2)
#define PC_CG_MAX_DEPTH 1024
#define PC_CG_MAX_PATHS ((size_t)1 << 20)
#define PC_CG_MAX_POOL ((size_t)1 << 24)
typedef struct pc_cgpath {
	size_t first, depth; /* into pool, leaf first */
	double weight;       /* in the graph's time unit (samples) */
} pc_cgpath;
typedef struct pc_cgpaths {
	pc_cgpath *v;
	size_t n, cap;
	size_t *pool;
	size_t npool, cappool;
	double truncated;
	/* paths and path entries made over every call (the limits hold for
	 * all of them: n and npool may be reset between calls) */
	size_t emitted, pooled;
} pc_cgpaths;
/** Appends the paths of row's own time to out.  measured: the first
 *  caller of each path is taken from the arcs' flat times (Proff: time
 *  of the routine measured under each caller) and only the rest is
 *  split by counts.  An excluded row gets the one-node path of its own
 *  time.  Returns PC_OK or PC_ENOMEM. */
PC_INTERNAL int pc_callgraph_paths(const pc_callgraph *g, size_t row,
				   int measured, pc_cgpaths *out);
PC_INTERNAL void pc_cgpaths_free(pc_cgpaths *out);

#endif
