/*
 * report.h - the report table and the engines' view of the model
 * (totals by class, call graph nodes, rows, line rows, DWARF frames).
 * Private to libprofcore, the built-in loaders and the report engines
 * (internal.h includes every one of these).
 */
#ifndef PC_REPORT_H
#define PC_REPORT_H

#include "pc_base.h"
#include "sink.h"

/* ---- reports ----------------------------------------------------------- */
typedef struct pc_report {
	const char *name;
	const char *description;
	int (*render)(pc_profile *p, const pc_options *o, pc_sink *out);
} pc_report;

/** NULL-terminated table in formats/reports.c. */
PC_INTERNAL extern const pc_report *const pc_reports[];
PC_INTERNAL const pc_report *pc_report_find(const char *name);

/** The totals with the by-class split (pc_totals and
 *  pc_profile_class_total in one, for the report engines). */
typedef struct pc_itotals {
	double total, in_program, attributed, outside, excluded;
	double by_class[PC_REGION_COUNT]; /* [APPLICATION] = in-program
					     samples credited to no symbol */
} pc_itotals;
PC_INTERNAL int pc_profile_itotals(pc_profile *p, pc_itotals *out);
/** A call graph node for the engines: row -1 for a cycle, next_member
 *  (size_t)-1 at the end of a cycle and outside cycles. */
typedef struct pc_icg_node {
	int64_t row;
	const char *name;
	unsigned cycle;
	size_t index;
	int listed;
	uint64_t calls, self_calls;
	double time, self, children, htime, ftime;
	size_t next_member;
} pc_icg_node;
PC_INTERNAL int pc_callgraph_inode_at(const pc_callgraph *g, size_t i,
				      pc_icg_node *out);
/** Node index of cycle n (1-based); (size_t)-1 if there is none. */
PC_INTERNAL size_t pc_callgraph_cycle_index(const pc_callgraph *g,
					    unsigned n);
/** pc_profile_row_count for the engines: 0 when attribution fails (the
 *  caller's next pc_profile_row_at / totals call reports the error). */
PC_INTERNAL size_t pc_profile_rows(pc_profile *p);
/** pc_profile_lookup for the engines: the row index, -1 if none. */
/* 1 (and why, in msg) when the profile's DOS program (loaders/mz.c) and
 * its map disagree: another entry point than the map's "Program entry
 * point", a code segment outside the load image, or the entry point in
 * no code segment (fit.c). */
PC_INTERNAL int pc_profile_mz_mismatch(pc_profile *p, char *msg, size_t n);
/* The line rows of pc_profile_add_line (a map's line numbers), in the
 * order added (lines.c). */
PC_INTERNAL size_t pc_profile_line_count(const pc_profile *p);
PC_INTERNAL int pc_profile_line_at(const pc_profile *p, size_t i, uint32_t *segment,
				   uint64_t *address, unsigned *line);
PC_INTERNAL int64_t pc_profile_row_find(pc_profile *p, uint32_t segment,
					uint64_t address);
/** A row lookup as pc_profile_row_find: the row (attribution target) of
 *  p holding an address, -1 for none. */
typedef int64_t (*pc_rowfind_fn)(pc_profile *p, uint32_t segment, uint64_t address);
/** pc_dwarf_lookup with the frames as an array borrowed until the next
 *  lookup on d. */
PC_INTERNAL int pc_dwarf_lookup_frames(pc_dwarf *d, uint64_t address,
				       const pc_srcframe **frames, size_t *n);

#endif
