/* reports.c - the rendering entry points over the reports' table
 * (pc_builtin_reports[], generated from formats/meson.build): the one
 * place that routes output-format html to the HTML page (html.c), for a
 * report and for a diff, and checks a report's options against the keys
 * it declares. */
#include "internal.h"
#include "dwarf_internal.h"
#include "rowset.h"
#include "render.h"
#include "stats_reports.h"

#include <stdlib.h>
#include <string.h>

const pc_report *pc_report_find(const char *name)
{
	for (size_t i = 0; name && pc_builtin_reports[i]; i++)
		if (strcmp(pc_builtin_reports[i]->name, name) == 0)
			return pc_builtin_reports[i];
	return NULL;
}

static const pc_report *report_at(size_t i)
{
	for (size_t k = 0; pc_builtin_reports[k]; k++)
		if (k == i)
			return pc_builtin_reports[k];
	return NULL;
}

const char *pc_report_name_at(size_t i)
{
	const pc_report *r = report_at(i);
	return r ? r->name : NULL;
}

const char *pc_report_description_at(size_t i)
{
	const pc_report *r = report_at(i);
	return r ? r->description : NULL;
}

const pc_option_decl *pc_report_options(const char *report)
{
	/* the reports of several captures (pc_profile_diff,
	 * pc_profile_compare_rates) */
	if (report && !strcmp(report, "diff"))
		return pc_keys_diff;
	if (report && !strcmp(report, "rates"))
		return pc_keys_rates;
	const pc_report *r = pc_report_find(report && *report ? report : "flat");
	return r ? r->options : NULL;
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
	pc_outfmt of = pc_options_outfmt(opts);
	/* -F html: the HTML page (formats/html.c) holds every view */
	if (of == PC_OUT_HTML) {
		name = "html";
		r = pc_report_find(name);
	}
	/* top, sort: read by the row selection of the flat report and the
	 * bar chart (rowset.c); refused by the others with a message saying
	 * where they apply, before their own keys are checked.  focus,
	 * ignore, hide: read by every report but check */
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
	/* the keys the report reads, and no other */
	char consumer[96];
	snprintf(consumer, sizeof consumer, "report %s", name);
	if (pc_profile_check_options(p, opts, r->options, consumer))
		return PC_EUSAGE;
	if (of == PC_OUT_BAD)
		return pc_profile_fail(p, PC_EUSAGE,
				       "output format must be text, csv, json or html, not '%s'",
				       pc_options_get(opts, "output-format"));
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

/* ---- the diff of two profiles (stats_reports.c; as a page, html.c) ---------- */

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
