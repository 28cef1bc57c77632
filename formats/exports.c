/*
 * exports.c - the export table and the public export API; the view of an
 * attributed profile every exporter writes from is xmodel.c (export.h).
 */
#include "export.h"
#include "dwarf_internal.h"
#include "model.h"
#include "rowset.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

const pc_exporter *const pc_exporters[] = {
	&pc_export_pprof,
	&pc_export_speedscope,
	&pc_export_folded,
	&pc_export_callgrind,
	&pc_export_gmon,
	&pc_export_svg,
	NULL,
};

const pc_exporter *pc_exporter_find(const char *name)
{
	if (!name)
		return NULL;
	for (size_t i = 0; pc_exporters[i]; i++)
		if (strcmp(pc_exporters[i]->name, name) == 0)
			return pc_exporters[i];
	return NULL;
}

static const pc_exporter *exporter_at(size_t i)
{
	for (size_t k = 0; pc_exporters[k]; k++)
		if (k == i)
			return pc_exporters[k];
	return NULL;
}

const char *pc_export_name_at(size_t i)
{
	const pc_exporter *e = exporter_at(i);
	return e ? e->name : NULL;
}

const char *pc_export_extension_at(size_t i)
{
	const pc_exporter *e = exporter_at(i);
	return e ? e->extension : NULL;
}

const char *pc_export_description_at(size_t i)
{
	const pc_exporter *e = exporter_at(i);
	return e ? e->description : NULL;
}

/* The keys the exports read (docs/exports.md).  top and sort are known:
 * the exports refuse them with a message saying where they apply
 * (pc_rowset_refuse_selection), as gmon does the filters. */
#define EXPORT_OPTION_DECLS                                                        \
	PC_ATTRIBUTION_OPTION_DECLS,                                               \
	    {"granularity", PC_OPTION_ENUM, "function,symbol,line,address", NULL,  \
	     "what a frame is; default: function for pprof, else address"},       \
	    {"stacks", PC_OPTION_ENUM, "estimate,marked,none", "estimate",         \
	     "callers from call counts, under an [estimated] root, or none"},      \
	    {"focus", PC_OPTION_STRING, NULL, NULL,                                \
	     "keep the samples whose stack matches"},                              \
	    {"ignore", PC_OPTION_STRING, NULL, NULL,                               \
	     "drop the samples whose stack matches"},                              \
	    {"hide", PC_OPTION_STRING, NULL, NULL,                                 \
	     "remove matching functions from the stacks"},                         \
	    {"top", PC_OPTION_STRING, NULL, NULL, "refused by the exports"},       \
	    {"sort", PC_OPTION_STRING, NULL, NULL, "refused by the exports"}
static const pc_option_decl export_options[] = {
	EXPORT_OPTION_DECLS,
	{NULL, PC_OPTION_STRING, NULL, NULL, NULL},
};
static const pc_option_decl pprof_options[] = {
	EXPORT_OPTION_DECLS,
	{"compress", PC_OPTION_ENUM, "0,1,no,yes", "1", "gzip the profile.proto"},
	{NULL, PC_OPTION_STRING, NULL, NULL, NULL},
};

const pc_option_decl *pc_export_options(const char *format)
{
	const pc_exporter *e = pc_exporter_find(format);
	if (!e)
		return NULL;
	return e == &pc_export_pprof ? pprof_options : export_options;
}

static int export_to_sink(pc_profile *p, const char *format,
			  const pc_options *opts, pc_sink *k)
{
	if (!p)
		return PC_EUSAGE;
	const pc_exporter *e = pc_exporter_find(format);
	if (!e)
		return pc_profile_fail(p, PC_ENOTFOUND, "no export named '%s'",
				       format ? format : "(none)");
	char consumer[96];
	snprintf(consumer, sizeof consumer, "export %s", e->name);
	if (pc_profile_check_options(p, opts, pc_export_options(e->name), consumer))
		return PC_EUSAGE;
	/* filter hook (issue #24): focus and ignore act on the stacks of the
	 * view (pc_xmodel_build: filter_chains); hide, top and sort, and the
	 * gmon export (a histogram, no stacks), refuse them rather than
	 * ignore them */
	char what[64];
	snprintf(what, sizeof what, "the %s export", e->name);
	int rc = pc_rowset_refuse_selection(p, opts, what,
					    strcmp(e->name, "gmon") != 0);
	if (rc)
		return rc;
	rc = e->write(p, opts, k);
	if (rc == PC_OK && !k->failed)
		pc_sink_flush(k); /* the rest (after a failure: nothing more) */
	if (k->write_failed)
		return pc_profile_fail(p, k->failed, "write failed");
	if (rc == PC_OK && k->failed)
		rc = pc_profile_fail(p, k->failed,
				     "out of memory writing %s export",
				     e->name);
	return rc;
}

int pc_profile_export(char **out, size_t *len, pc_profile *p,
		      const char *format, const pc_options *opts)
{
	if (out)
		*out = NULL;
	if (len)
		*len = 0;
	if (!out)
		return p ? pc_profile_fail(p, PC_EUSAGE, "no output buffer given")
			 : PC_EUSAGE;
	pc_sink k;
	pc_sink_init(&k);
	int rc = export_to_sink(p, format, opts, &k);
	if (rc == PC_OK && !k.buf) {
		k.buf = calloc(1, 1);
		if (!k.buf)
			rc = pc_profile_fail(p, PC_ENOMEM, "out of memory");
	}
	if (rc != PC_OK) {
		pc_sink_dispose(&k);
		return rc;
	}
	*out = k.buf;
	if (len)
		*len = k.len;
	return PC_OK;
}

int pc_profile_export_to(pc_profile *p, const char *format,
			 const pc_options *opts, pc_write_fn write, void *ctx)
{
	if (!write)
		return p ? pc_profile_fail(p, PC_EUSAGE, "no writer given")
			 : PC_EUSAGE;
	pc_sink k;
	pc_sink_init_writer(&k, write, ctx, PC_SINK_STREAM_LIMIT);
	int rc = export_to_sink(p, format, opts, &k);
	pc_sink_dispose(&k);
	return rc;
}
