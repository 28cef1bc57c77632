/* render.c - one report run on a profile, and a sink's text handed out
 * as a buffer.  See render.h. */
#include "render.h"
#include "dwarf_internal.h"

#include <string.h>

int pc_report_run(const pc_report *r, pc_profile *p, const pc_options *opts,
		  pc_sink *k)
{
	/* granularity line, file, address: the flat table and the bar chart
	 * of the profile seen per line / file / address (lines.c) */
	pc_profile *g = NULL;
	if (!strcmp(r->name, "flat") || !strcmp(r->name, "barchart")) {
		/* (the DWARF read to make g, which holds all it needs of it,
		 * is closed before the rendering: what the rendering allocates
		 * takes its place, not pages more; one the profile had before
		 * this run stays open) */
		const int had = pc_profile_has_dwarf(p);
		int gs = pc_profile_granular(p, opts, &g);
		if (gs)
			return gs;
		if (!had)
			pc_profile_dwarf_close(p);
	}
	int st = r->render(g ? g : p, opts, k);
	if (!k->write_failed && st && g) {
		const pc_error *e = pc_profile_error(g);
		st = pc_profile_fail(p, st, "%s", e ? e->message : "cannot render");
	}
	pc_profile_free(g);
	if (!st && !k->failed)
		pc_sink_flush(k); /* the rest (after a failure: nothing more) */
	if (k->write_failed)
		return pc_profile_fail(p, k->failed, "write failed");
	if (!st && k->failed)
		st = pc_profile_fail(p, PC_ENOMEM, "out of memory while rendering");
	return st;
}

int pc_sink_take(pc_profile *p, pc_sink *k, int st, char **out, size_t *len)
{
	if (!st && k->failed)
		st = pc_profile_fail(p, PC_ENOMEM, "out of memory while rendering");
	if (!st && !k->buf && pc_sink_write(k, "", 0))
		st = pc_profile_fail(p, PC_ENOMEM, "out of memory");
	if (st) {
		pc_sink_dispose(k);
		return st;
	}
	*out = k->buf;
	if (len)
		*len = k->len;
	return PC_OK;
}
