/* reports.c - the report table and the rendering entry points. */
#include "internal.h"
#include "dwarf_internal.h"
#include "rowset.h"

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

int pc_profile_render(pc_profile *p, const char *report, const pc_options *opts,
		      char **out, size_t *len)
{
	const char *name = report && *report ? report : "flat";
	const pc_report *r = pc_report_find(name);
	if (!r)
		return pc_profile_fail(p, PC_ENOTFOUND,
				       "no report named '%s' (profcat --list-reports lists them)", name);
	const char *of = pc_options_get(opts, "output-format");
	/* -F html: the HTML page (formats/html.c) holds every view */
	if (of && !strcmp(of, "html")) {
		name = "html";
		r = pc_report_find(name);
	}
	if (of && strcmp(of, "text") && strcmp(of, "csv") && strcmp(of, "json") &&
	    strcmp(of, "html"))
		return pc_profile_fail(p, PC_EUSAGE,
				       "output format must be text, csv, json or html, not '%s'", of);
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
	/* granularity line, file, address: the flat table and the bar chart
	 * of the profile seen per line / file / address (lines.c) */
	pc_profile *g = NULL;
	if (!strcmp(name, "flat") || !strcmp(name, "barchart")) {
		int gs = pc_profile_granular(p, opts, &g);
		if (gs)
			return gs;
	}
	pc_sink k;
	pc_sink_init(&k);
	int st = r->render(g ? g : p, opts, &k);
	if (st && g) {
		const pc_error *e = pc_profile_error(g);
		st = pc_profile_fail(p, st, "%s", e ? e->message : "cannot render");
	}
	pc_profile_free(g);
	if (!st && k.failed)
		st = pc_profile_fail(p, PC_ENOMEM, "out of memory while rendering");
	if (st) {
		pc_sink_dispose(&k);
		return st;
	}
	if (!k.buf && pc_sink_write(&k, "", 0)) {
		pc_sink_dispose(&k);
		return pc_profile_fail(p, PC_ENOMEM, "out of memory");
	}
	*out = k.buf;
	if (len)
		*len = k.len;
	return PC_OK;
}

int pc_profile_render_file(pc_profile *p, const char *report,
			   const pc_options *opts, FILE *f)
{
	char *buf;
	size_t len;
	int st = pc_profile_render(p, report, opts, &buf, &len);
	if (st)
		return st;
	if (fwrite(buf, 1, len, f) != len)
		st = pc_profile_fail(p, PC_EIO, "write failed");
	free(buf);
	return st;
}
