/*
 * stats_reports.h - confidence intervals and sampling-quality checks for the
 * report engines (formats/stats_reports.c; docs/statistics.md ("Statistics")).  Private to
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

/** Number of sampling-quality warnings "--check" would print for p (0
 *  when all is well); severe_only: only those meaning the counts may be
 *  wrong (wrap, clustered), not merely imprecise.  *first (may be NULL)
 *  gets the id of the first. */
PC_INTERNAL size_t pc_check_count(pc_profile *p, const pc_options *o,
				  int severe_only, const char **first);

PC_INTERNAL extern const pc_report pc_report_check;

/** The diff of two profiles (docs/statistics.md) as text, CSV or JSON
 *  (o's output-format) into k; errors recorded on next.  The page
 *  (output-format html) is html.c's pc_html_diff. */
PC_INTERNAL int pc_diff_write(pc_profile *base, pc_profile *next,
			      const pc_options *o, pc_sink *k);
/** The HTML page of that diff (html.c). */
PC_INTERNAL int pc_html_diff(pc_profile *base, pc_profile *next,
			     const pc_options *o, pc_sink *k);

/** The keys of pc_profile_diff and pc_profile_compare_rates
 *  (pc_report_options("diff"), ("rates")). */
PC_INTERNAL extern const pc_option_decl pc_keys_diff[];
PC_INTERNAL extern const pc_option_decl pc_keys_rates[];

#endif
