/*
 * stats.h - confidence intervals and sampling-quality checks for the
 * report engines (formats/stats.c; docs/statistics.md ("Statistics")).  Private to
 * formats/.
 *
 * Option keys:
 *   ci          confidence level in percent (0 < ci < 100): table reports
 *               add a +- column / ci_low, ci_high fields
 *   check-min   (reserved)
 */
#ifndef PC_FSTATS_H
#define PC_FSTATS_H

#include "rowset.h"

/** The "ci" option: *z = the normal quantile, 0 when absent; PC_EUSAGE
 *  (recorded on p) when malformed or out of (0, 100). */
PC_INTERNAL int pc_ci_option(pc_profile *p, const pc_options *o, double *z,
			     double *level);

/** Number of sampling-quality warnings "--check" would print for p (0
 *  when all is well); severe_only: only those meaning the counts may be
 *  wrong (wrap, clustered), not merely imprecise.  *first (may be NULL)
 *  gets the id of the first. */
PC_INTERNAL size_t pc_check_count(pc_profile *p, const pc_options *o,
				  int severe_only, const char **first);

PC_INTERNAL extern const pc_report pc_report_check;

/** The keys of pc_profile_diff and pc_profile_compare_rates
 *  (pc_report_options("diff"), ("rates")). */
PC_INTERNAL extern const pc_option_decl pc_keys_diff[];
PC_INTERNAL extern const pc_option_decl pc_keys_rates[];

#endif
