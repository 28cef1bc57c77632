/* reports.c - the report table and the rendering entry points: the one
 * place that routes output-format html to the HTML page (html.c), for a
 * report and for a diff. */
#include "internal.h"
#include "dwarf_internal.h"
#include "rowset.h"
#include "render.h"
#include "stats.h"

#include <stdlib.h>
#include <string.h>

extern const pc_report pc_report_flat;
extern const pc_report pc_report_symbols;
extern const pc_report pc_report_barchart;
extern const pc_report pc_report_intervals;
extern const pc_report pc_report_regions;
extern const pc_report pc_report_callgraph;
extern const pc_report pc_report_arcs;
extern const pc_report pc_report_check;
extern const pc_report pc_report_source;
extern const pc_report pc_report_locations;
extern const pc_report pc_report_html;
extern const pc_report pc_report_disasm;

const pc_report *const pc_reports[] = {
	&pc_report_flat,
	&pc_report_symbols,
	&pc_report_barchart,
	&pc_report_intervals,
	&pc_report_regions,
	&pc_report_callgraph,
	&pc_report_arcs,
	&pc_report_check,
	&pc_report_source,
	&pc_report_locations,
	&pc_report_html,
	&pc_report_disasm,
	NULL,
};

const pc_report *pc_report_find(const char *name)
{
	for (size_t i = 0; pc_reports[i]; i++)
		if (strcmp(pc_reports[i]->name, name) == 0)
			return pc_reports[i];
	return NULL;
}

const char *pc_report_name_at(size_t i)
{
	for (size_t k = 0; pc_reports[k]; k++)
		if (k == i)
			return pc_reports[k]->name;
	return NULL;
}

const char *pc_report_description_at(size_t i)
{
	for (size_t k = 0; pc_reports[k]; k++)
		if (k == i)
			return pc_reports[k]->description;
	return NULL;
}

/* The keys the reports read (docs/reports.md), one table for all of
 * them: they share the row selection, the styles and the attribution.
 * focus, ignore, hide, top and sort are known to every report: those
 * that do not apply them refuse them with a message saying where they
 * apply (pc_rowset_refuse_selection). */
static const pc_option_decl report_options[] = {
	PC_ATTRIBUTION_OPTION_DECLS,
	{"output-format", PC_OPTION_ENUM, "text,csv,json,html", "text", "the output's format"},
	{"style", PC_OPTION_STRING, NULL, "default",
	 "flat: default, gprof, atari, ddj or prohst; callgraph: gprof or proff"},
	{"granularity", PC_OPTION_ENUM, "function,symbol,line,file,address", "function",
	 "what a row of the flat table is"},
	{"zero", PC_OPTION_BOOL, NULL, "0", "also list symbols without samples"},
	{"barchart", PC_OPTION_BOOL, NULL, "1", "bar column in the table"},
	{"cutoff", PC_OPTION_DOUBLE, NULL, NULL, "list symbols until this percent is covered"},
	{"percent-of", PC_OPTION_ENUM, "program,total", "program", "what percents are of"},
	{"top", PC_OPTION_U64, NULL, NULL, "list the first N rows only"},
	{"sort", PC_OPTION_ENUM, "self,cum,calls,name,address", "self", "row order"},
	{"focus", PC_OPTION_STRING, NULL, NULL, "keep the samples whose stack matches"},
	{"ignore", PC_OPTION_STRING, NULL, NULL, "drop the samples whose stack matches"},
	{"hide", PC_OPTION_STRING, NULL, NULL, "remove matching functions from the stacks"},
	{"interval", PC_OPTION_STRING, NULL, NULL, "symbol or LOW-HIGH, LOW+SIZE to split"},
	{"intervals", PC_OPTION_U64, NULL, "25", "number of sub-ranges"},
	{"callgraph-time", PC_OPTION_ENUM, "samples,flat", NULL, "call graph own times"},
	{"ci", PC_OPTION_STRING, NULL, NULL,
	 "confidence level of intervals, in percent, above 0 and below 100"},
	{"source-path", PC_OPTION_STRING, NULL, NULL, "directories searched for source files"},
	{"debuginfod", PC_OPTION_BOOL, NULL, "0",
	 "also ask DEBUGINFOD_URLS' servers for separate debug files (network)"},
	{"source-select", PC_OPTION_STRING, NULL, NULL, "source report: function or file"},
	{"disasm-select", PC_OPTION_STRING, NULL, NULL, "disasm report: function"},
	{"html-disasm", PC_OPTION_STRING, NULL, NULL,
	 "HTML report: disassembly of the N functions with the most samples (100), or all"},
	{"load-address", PC_OPTION_U64, NULL, NULL, "where the program was loaded (fit check)"},
	{"gprof-symspecs", PC_OPTION_STRING, NULL, NULL,
	 "gprof's symbol selections: option letters pPqQfeFEnNkAJ with a symspec, ';'-separated"},
	{NULL, PC_OPTION_STRING, NULL, NULL, NULL},
};

const pc_option_decl *pc_report_options(const char *report)
{
	/* the reports of several captures (pc_profile_diff,
	 * pc_profile_compare_rates) */
	if (report && !strcmp(report, "diff"))
		return pc_keys_diff;
	if (report && !strcmp(report, "rates"))
		return pc_keys_rates;
	return pc_report_find(report && *report ? report : "flat") ? report_options : NULL;
}

/* Renders into k (a buffer, or a writer's streaming sink); errors are
 * recorded on p: a failing writer as "write failed" with its status. */
static int render_to_sink(pc_profile *p, const char *report, const pc_options *opts,
			  pc_sink *k)
{
	const char *name = report && *report ? report : "flat";
	const pc_report *r = pc_report_find(name);
	if (!r)
		return pc_profile_fail(p, PC_ENOTFOUND, "no report named '%s'", name);
	char consumer[96];
	snprintf(consumer, sizeof consumer, "report %s", name);
	if (pc_profile_check_options(p, opts, report_options, consumer))
		return PC_EUSAGE;
	pc_outfmt of = pc_options_outfmt(opts);
	/* -F html: the HTML page (formats/html.c) holds every view */
	if (of == PC_OUT_HTML) {
		name = "html";
		r = pc_report_find(name);
	}
	if (of == PC_OUT_BAD)
		return pc_profile_fail(p, PC_EUSAGE,
				       "output format must be text, csv, json or html, not '%s'",
				       pc_options_get(opts, "output-format"));
	/* top, sort: read by the row selection of the flat report and the
	 * bar chart (rowset.c); refused by the others rather than ignored.
	 * focus, ignore, hide: read by every report */
	if (strcmp(name, "flat") && strcmp(name, "barchart")) {
		char what[64];
		snprintf(what, sizeof what, "the %s report", name);
		int rs = pc_rowset_refuse_selection(p, opts, what, 1);
		if (rs)
			return rs;
	}
	static const char *const filters[] = {"focus", "ignore", "hide"};
	for (size_t i = 0; i < 3 && !strcmp(name, "check"); i++)
		if (pc_options_get(opts, filters[i]))
			return pc_profile_fail(p, PC_EUSAGE,
					       "the check report judges the whole capture and takes no %s "
					       "(the other reports and the exports do)",
					       filters[i]);
	return pc_report_run(r, p, opts, k);
}

int pc_profile_render(char **out, size_t *len, pc_profile *p,
		      const char *report, const pc_options *opts)
{
	pc_sink k;
	pc_sink_init(&k);
	return pc_sink_take(p, &k, render_to_sink(p, report, opts, &k), out, len);
}

int pc_profile_render_to(pc_profile *p, const char *report,
			 const pc_options *opts, pc_write_fn write, void *ctx)
{
	if (!p)
		return PC_EUSAGE;
	if (!write)
		return pc_profile_fail(p, PC_EUSAGE, "no writer given");
	pc_sink k;
	pc_sink_init_writer(&k, write, ctx, PC_SINK_STREAM_LIMIT);
	int st = render_to_sink(p, report, opts, &k);
	pc_sink_dispose(&k);
	return st;
}

/* ---- the diff of two profiles (stats.c; as a page, html.c) ---------- */

int pc_profile_diff(char **out, size_t *len, pc_profile *base, pc_profile *next,
		    const pc_options *opts)
{
	if (!base || !next || !out)
		return next ? pc_profile_fail(next, PC_EUSAGE, "diff needs two profiles")
			    : PC_EUSAGE;
	if (pc_profile_check_options(next, opts, pc_keys_diff, "pc_profile_diff"))
		return PC_EUSAGE;
	pc_sink k;
	pc_sink_init(&k);
	int st = pc_options_outfmt(opts) == PC_OUT_HTML ? pc_html_diff(base, next, opts, &k)
							: pc_diff_write(base, next, opts, &k);
	return pc_sink_take(next, &k, st, out, len);
}
