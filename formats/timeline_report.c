/* timeline_report.c - the timeline report: the counts of each window of the
 * input's order (pc_profile_window_at: traces, QEMU logs, SWO samples) by
 * function, the largest first; "(no symbol)" takes what no row holds.  A
 * row's counts over every window sum to its count in the flat profile.
 * The header says what the counts are, as the flat report's "Rate:" line
 * does: exact counts (a trace: windows of its instructions), or samples
 * (an SWO capture: windows of its periodic samples).  A sampled window's
 * samples that no address holds are its sleep samples (SWO's, kept in
 * the order with no address): the row "(sleep)", in JSON "sleep".
 *
 *   window  first  end  count  function
 *        0      0    8      5  count_down
 *        0      0    8      3  start
 */
#include "styles.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef struct wcell {
	size_t row; /* NO_ROW, SLEEP_ROW or a row */
	uint64_t count;
} wcell;

#define NO_ROW SIZE_MAX
#define SLEEP_ROW (SIZE_MAX - 1)

static int cmp_row(const void *a, const void *b)
{
	const wcell *x = a, *y = b;
	return x->row < y->row ? -1 : x->row > y->row;
}

static int cmp_count(const void *a, const void *b)
{
	const wcell *x = a, *y = b;
	if (x->count != y->count)
		return x->count > y->count ? -1 : 1;
	return cmp_row(a, b);
}

/* Window i's counts by row, largest first, into *cells (n of them);
 * sleep: the samples of a sampled window that no address holds. */
static int window_rows(pc_profile *p, size_t i, int sleep, wcell **cells, size_t *n)
{
	uint64_t first, end;
	size_t na;
	int r = pc_profile_window_at(&first, &end, &na, p, i);
	if (r)
		return r;
	wcell *v = malloc((na + 1) * sizeof *v);
	if (!v)
		return pc_profile_fail(p, PC_ENOMEM, "out of memory");
	for (size_t j = 0; j < na; j++) {
		uint32_t seg;
		uint64_t addr;
		size_t row;
		pc_profile_window_address(&seg, &addr, &v[j].count, p, i, j);
		r = pc_profile_lookup(&row, p, seg, addr);
		if (r && r != PC_ENOTFOUND) {
			free(v);
			return r;
		}
		v[j].row = r ? NO_ROW : row;
	}
	uint64_t held = 0;
	for (size_t j = 0; j < na; j++)
		held += v[j].count;
	if (sleep && held < end - first)
		v[na++] = (wcell){SLEEP_ROW, end - first - held};
	qsort(v, na, sizeof *v, cmp_row);
	size_t k = 0;
	for (size_t j = 0; j < na; j++) {
		if (k && v[k - 1].row == v[j].row)
			v[k - 1].count += v[j].count;
		else
			v[k++] = v[j];
	}
	qsort(v, k, sizeof *v, cmp_count);
	*cells = v;
	*n = k;
	return PC_OK;
}

static int render(pc_profile *p, const pc_options *o, pc_sink *k)
{
	pc_outfmt fmt;
	int r;
	if ((r = pc_rs_outfmt(p, o, &fmt)) || (r = pc_profile_attribute(p, pc_options_attrib(o))))
		return r;
	size_t nw;
	pc_profile_window_count(&nw, p);
	int exact = pc_profile_event_counts(p);
	/* what first and end count: an ordered capture's instructions
	 * (pc_profile_add_window), a sampled one's samples; the counts may
	 * be of another event (a trace's cycles); samples are counted as
	 * samples, whatever time a sample stands for (the dimension) */
	const char *event = exact ? "instructions" : "samples",
		   *counts = exact ? pc_profile_dimension(p) : "samples";
	if (!nw)
		return pc_profile_fail(
			p, PC_EUNSUPPORTED,
			pc_profile_order_dropped(p)
				? "no timeline: the profile holds several ordered inputs, whose orders cannot be combined; load one of them"
				: "no timeline: no input kept the order of its counts (instruction traces of the format trace, QEMU logs and SWO captures do; histograms, aggregated counts and raw samples do not yet)");
	if (fmt == PC_OUT_CSV)
		pc_sink_puts(k, "window,first,end,count,function\n");
	else if (fmt == PC_OUT_JSON)
		pc_sink_printf(k, "{\"report\":\"timeline\",\"event\":");
	if (fmt == PC_OUT_JSON) {
		pc_sink_json_string(k, event);
		pc_sink_puts(k, ",\"counts\":");
		pc_sink_json_string(k, counts);
		pc_sink_puts(k, ",\"windows\":[");
	} else if (fmt == PC_OUT_TEXT) {
		pc_sink_printf(k, "Timeline: %zu window%s of the %s in the input's order (%s",
			       nw, nw == 1 ? "" : "s", event,
			       exact ? "exact counts" : "counts are samples");
		if (exact && strcmp(counts, event)) {
			pc_sink_puts(k, " of ");
			pc_sink_name(k, counts); /* (a trace dialect names it) */
		}
		pc_sink_puts(k, ")\n\n");
		pc_sink_puts(k, "window       first         end       count  function\n");
	}
	for (size_t i = 0; i < nw && !r; i++) {
		uint64_t first, end;
		size_t na, n = 0;
		wcell *v = NULL;
		pc_profile_window_at(&first, &end, &na, p, i);
		if ((r = window_rows(p, i, !exact, &v, &n)))
			break;
		if (fmt == PC_OUT_JSON) {
			pc_sink_printf(k, "%s{\"window\":%zu,\"first\":%llu,\"end\":%llu,",
				       i ? "," : "", i, (unsigned long long)first,
				       (unsigned long long)end);
			for (size_t j = 0; j < n; j++)
				if (v[j].row == SLEEP_ROW)
					pc_sink_printf(k, "\"sleep\":%llu,",
						       (unsigned long long)v[j].count);
			pc_sink_puts(k, "\"counts\":[");
		}
		int comma = 0;
		for (size_t j = 0; j < n; j++) {
			pc_row row;
			const char *name = v[j].row == SLEEP_ROW ? "(sleep)" : "(no symbol)";
			if (v[j].row < SLEEP_ROW && !(r = pc_profile_row_at(&row, p, v[j].row)))
				name = row.name ? row.name : "?";
			if (r)
				break;
			if (fmt == PC_OUT_JSON && v[j].row == SLEEP_ROW)
				continue;
			switch (fmt) {
			default:
			case PC_OUT_TEXT:
				pc_sink_printf(k, "%6zu  %10llu  %10llu  %10llu  ", i,
					       (unsigned long long)first, (unsigned long long)end,
					       (unsigned long long)v[j].count);
				if (v[j].row >= SLEEP_ROW)
					pc_sink_puts(k, name);
				else
					pc_sink_name(k, name);
				pc_sink_putc(k, '\n');
				break;
			case PC_OUT_CSV:
				pc_sink_printf(k, "%zu,%llu,%llu,%llu,", i, (unsigned long long)first,
					       (unsigned long long)end, (unsigned long long)v[j].count);
				pc_sink_csv_field(k, name);
				pc_sink_putc(k, '\n');
				break;
			case PC_OUT_JSON:
				pc_sink_puts(k, comma++ ? ",{\"function\":" : "{\"function\":");
				if (v[j].row == NO_ROW)
					pc_sink_puts(k, "null");
				else
					pc_sink_json_string(k, name);
				pc_sink_printf(k, ",\"count\":%llu}", (unsigned long long)v[j].count);
				break;
			}
		}
		if (fmt == PC_OUT_JSON)
			pc_sink_puts(k, "]}");
		free(v);
	}
	if (!r && fmt == PC_OUT_JSON)
		pc_sink_puts(k, "]}\n");
	return r ? r : k->failed;
}

/* no filters: a window's counts are the trace's (focus, ignore and hide
 * are refused as keys it does not read) */
static const pc_option_decl timeline_keys[] = {
	PC_REPORT_OPTION_DECLS,
	PC_OPTION_DECLS_END,
};

const pc_report pc_report_timeline = {
	.name = "timeline",
	.description = "the counts of each window of the input's order (instruction traces, QEMU logs, SWO samples), by function",
	.options = timeline_keys,
	.render = render,
};
