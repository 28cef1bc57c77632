/*
 * render.h - one report run on a profile, and a sink's text handed out
 * as a buffer (render.c): what the rendering entry points (reports.c),
 * the statistics reports (stats_reports.c) and the HTML page, which embeds other
 * reports' JSON (html.c), share.  Private to formats/.
 */
#ifndef PC_RENDER_H
#define PC_RENDER_H

#include "internal.h"

/** Runs r on p into k: the flat report and the bar chart see p per line,
 *  file or address when o's granularity asks (pc_profile_granular);
 *  errors are recorded on p (a failing writer as "write failed"), the
 *  rest of a streaming sink flushed on success.  o is not checked here:
 *  the caller did. */
PC_INTERNAL int pc_report_run(const pc_report *r, pc_profile *p,
			      const pc_options *o, pc_sink *k);

/** Ends a buffer sink k written with status st: on success *out (and
 *  *len, may be NULL) get its text (NUL-terminated, the caller frees it
 *  with pc_free); on failure (st, or k out of memory: recorded on p) k
 *  is disposed of and the status returned. */
PC_INTERNAL int pc_sink_take(pc_profile *p, pc_sink *k, int st, char **out,
			     size_t *len);

#endif
