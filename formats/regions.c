/* regions.c - the region summary: samples in the program (credited to
 * symbols or to none) against samples outside it, by region class.  The
 * Atari profiler's "Samples in appl / sys", PROFIL's I/O / DOS / high
 * counters and DDJ's PA_BOT_MEM are all rows of this table.
 *
 *   region             samples  percent
 *   program               2621    98.02
 *     symbols             2619    97.94
 *     no symbol              2     0.07
 *   outside                 53     1.98
 *     system                53     1.98
 *   total                 2674   100.00
 *
 * Percents are of every sample; rows with no samples below "program" and
 * "outside" are left out.  A capture that tells the execution context
 * (an SWO exception trace) adds its split of the same samples after the
 * total, "context" and one row per context (pc_profile_context_at):
 *
 *   context                  393   100.00
 *     thread mode            380    96.69
 *     handler 44 (IRQ 28)      3     0.76
 *     unknown                 10     2.54
 */
#include "styles.h"
#include "stats.h"
#include "stackfilter.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct rrow {
	const char *key;   /* csv/json name                         */
	const char *label; /* text label (indented for sub-rows)    */
	double count;
	int ctx;           /* a context: key is untrusted text      */
} rrow;

static size_t collect(const pc_itotals *t, rrow *v)
{
	size_t n = 0;
	v[n++] = (rrow){"program", "program", t->in_program, 0};
	if (t->attributed > 0)
		v[n++] = (rrow){"symbols", "  symbols", t->attributed, 0};
	if (t->by_class[PC_REGION_APPLICATION] > 0)
		v[n++] = (rrow){"no-symbol", "  no symbol",
				t->by_class[PC_REGION_APPLICATION], 0};
	v[n++] = (rrow){"outside", "outside", t->outside, 0};
	for (int c = 1; c < PC_REGION_COUNT; c++)
		if (t->by_class[c] > 0)
			v[n++] = (rrow){pc_region_class_name((pc_region_class)c), NULL,
					t->by_class[c], 0};
	v[n++] = (rrow){"total", "total", t->total, 0};
	return n;
}

/* --focus/--ignore/--hide (filter.c): t becomes the kept samples, the
 * rest is *dropped; the total stays every sample */
static int filter_totals(pc_profile *p, const pc_options *o, pc_itotals *t,
			 double *dropped, int *any)
{
	pc_rowfilter rf;
	int r = pc_rowfilter_init(p, o, &rf);
	*dropped = 0;
	*any = rf.any;
	if (r || !rf.any) {
		pc_rowfilter_dispose(&rf);
		return r;
	}
	/* focus and ignore by the stack rule as the flat report (filter.c
	 * pc_stackkeep), hide by name */
	pc_stackkeep sk;
	if ((r = pc_stackkeep_init(p, o, &sk))) {
		pc_rowfilter_dispose(&rf);
		return r;
	}
	double kept = 0;
	for (size_t i = 0; i < rf.nrows; i++) {
		pc_row row;
		pc_symbol sym;
		if ((r = pc_profile_row_at(&row, p, i)) ||
		    (r = pc_profile_symbol_at(&sym, p, row.symbol)))
			break;
		if (sym.flags & PC_SYMF_EXCLUDED)
			continue;
		if (sk.row) {
			r = !rf.f.hide ||
			    !pc_filter_match(p, &rf.f, rf.f.hide, row.name ? row.name : "",
					     sym.name);
			double k = r ? sk.row[i] : 0;
			kept += k;
			*dropped += row.count - k;
			r = PC_OK;
			continue;
		}
		if ((r = pc_rowfilter_keep_row(&rf, (int64_t)i)) < 0)
			break;
		if (r)
			kept += row.count;
		else
			*dropped += row.count;
		r = PC_OK;
	}
	if (!r && sk.row) {
		t->attributed = kept;
		t->outside = 0;
		for (int c = 0; c < PC_REGION_COUNT; c++) {
			*dropped += t->by_class[c] - sk.cls[c];
			t->by_class[c] = sk.cls[c];
			if (c != PC_REGION_APPLICATION)
				t->outside += sk.cls[c];
		}
		t->in_program = t->attributed + t->by_class[PC_REGION_APPLICATION];
	} else if (!r) {
		t->attributed = kept;
		if (rf.f.focus) { /* no name: no sample outside the symbols */
			*dropped += t->outside + t->by_class[PC_REGION_APPLICATION];
			t->outside = 0;
			for (int c = 0; c < PC_REGION_COUNT; c++)
				t->by_class[c] = 0;
		}
		t->in_program = t->attributed + t->by_class[PC_REGION_APPLICATION];
	}
	pc_rowfilter_dispose(&rf);
	pc_stackkeep_dispose(&sk);
	return r;
}

static int render(pc_profile *p, const pc_options *o, pc_sink *k)
{
	pc_outfmt fmt;
	pc_itotals t;
	int r;
	double z;
	if ((r = pc_rs_outfmt(p, o, &fmt)) || (r = pc_ci_option(p, o, &z, NULL)) ||
	    (r = pc_profile_attribute(p, pc_options_attrib(o))) || (r = pc_profile_itotals(p, &t)))
		return r;
	/* "ci": the Wilson interval of each percent (none for exact counts) */
	int ci = z > 0 && !pc_profile_event_counts(p);
	double lo, hi;
	double dropped;
	int filtered;
	if ((r = filter_totals(p, o, &t, &dropped, &filtered)))
		return r;
	size_t nctx = filtered ? 0 : pc_profile_context_count(p);
	rrow *v = malloc((PC_REGION_COUNT + 8 + nctx) * sizeof *v);
	if (!v)
		return pc_profile_fail(p, PC_ENOMEM, "out of memory");
	size_t n = collect(&t, v);
	if (filtered) { /* before "total" */
		v[n] = v[n - 1];
		v[n - 1] = (rrow){"filtered", "filtered out", dropped, 0};
		n++;
	}
	if (nctx) { /* the same samples by execution context */
		size_t head = n++;
		double sum = 0;
		for (size_t i = 0; i < nctx; i++) {
			const char *name;
			uint64_t c;
			pc_profile_context_at(&name, &c, p, i);
			v[n++] = (rrow){name, NULL, (double)c, 1};
			sum += (double)c;
		}
		v[head] = (rrow){"context", "context", sum, 0};
	}
	char cnt[48];
	size_t wl = strlen("region"), wc = strlen("samples");
	for (size_t i = 0; i < n; i++) {
		if (!v[i].label) {
			size_t l = 2 + pc_name_escape(NULL, 0, v[i].key);
			wl = l > wl ? l : wl;
		} else if (strlen(v[i].label) > wl) {
			wl = strlen(v[i].label);
		}
		size_t l = strlen(pc_fmt_count(v[i].count, cnt, sizeof cnt));
		wc = l > wc ? l : wc;
	}
	switch (fmt) {
	default: /* text, csv, json only: pc_rs_outfmt */
	case PC_OUT_TEXT:
		if (filtered) {
			pc_sink_puts(k, "Filters: ");
			pc_filter_describe(o, k);
			pc_sink_puts(k, " (\"filtered out\": the samples they drop)\n\n");
		}
		pc_sink_pad(k, "region", wl, -1);
		pc_sink_puts(k, "  ");
		pc_sink_pad(k, "samples", wc, 1);
		pc_sink_puts(k, ci ? "  percent      +-\n" : "  percent\n");
		for (size_t i = 0; i < n; i++) {
			if (v[i].label) {
				pc_sink_pad(k, v[i].label, wl, -1);
			} else {
				char *e = malloc(pc_name_escape(NULL, 0, v[i].key) + 3);
				if (!e) {
					free(v);
					return pc_profile_fail(p, PC_ENOMEM, "out of memory");
				}
				e[0] = e[1] = ' ';
				pc_name_escape(e + 2, SIZE_MAX, v[i].key);
				pc_sink_pad(k, e, wl, -1);
				free(e);
			}
			pc_sink_puts(k, "  ");
			pc_sink_pad(k, pc_fmt_count(v[i].count, cnt, sizeof cnt), wc, 1);
			pc_sink_printf(k, "  %7.2f",
				       t.total > 0 ? v[i].count * 100.0 / t.total : 0.0);
			if (ci && (v[i].ctx || strcmp(v[i].key, "total"))) { /* 100% by definition */
				pc_stats_wilson(&lo, &hi, v[i].count, t.total,
						z);
				pc_sink_printf(k, "  %6.2f", 50 * (hi - lo));
			}
			pc_sink_putc(k, '\n');
		}
		break;
	case PC_OUT_CSV:
		pc_sink_puts(k, ci ? "region,samples,percent,ci_low,ci_high\n"
				   : "region,samples,percent\n");
		for (size_t i = 0; i < n; i++) {
			if (v[i].ctx) {
				pc_sink_puts(k, "context:");
				pc_sink_csv_field(k, v[i].key);
				pc_sink_putc(k, ',');
			} else {
				pc_sink_printf(k, "%s,", v[i].key);
			}
			pc_sink_count(k, v[i].count);
			pc_sink_printf(k, ",%.6f",
				       t.total > 0 ? v[i].count * 100.0 / t.total : 0.0);
			if (ci && (v[i].ctx || strcmp(v[i].key, "total"))) { /* 100% by definition */
				pc_stats_wilson(&lo, &hi, v[i].count, t.total,
						z);
				pc_sink_printf(k, ",%.4f,%.4f", 100 * lo, 100 * hi);
			} else if (ci) {
				pc_sink_puts(k, ",,");
			}
			pc_sink_putc(k, '\n');
		}
		break;
	case PC_OUT_JSON:
		pc_sink_puts(k, "{\"report\":\"regions\",");
		if (filtered) {
			pc_sink_puts(k, "\"filters\":");
			pc_filter_json(o, k);
			pc_sink_putc(k, ',');
		}
		pc_sink_puts(k, "\"regions\":[");
		for (size_t i = 0; i < n; i++) {
			if (v[i].ctx) {
				pc_sink_puts(k, i ? ",{\"context\":" : "{\"context\":");
				pc_sink_json_string(k, v[i].key);
				pc_sink_puts(k, ",\"samples\":");
			} else {
				pc_sink_printf(k, "%s{\"region\":\"%s\",\"samples\":",
					       i ? "," : "", v[i].key);
			}
			pc_sink_count(k, v[i].count);
			pc_sink_printf(k, ",\"percent\":%.6f",
				       t.total > 0 ? v[i].count * 100.0 / t.total : 0.0);
			if (ci && (v[i].ctx || strcmp(v[i].key, "total"))) { /* 100% by definition */
				pc_stats_wilson(&lo, &hi, v[i].count, t.total,
						z);
				pc_sink_printf(k, ",\"ci_low\":%.4f,\"ci_high\":%.4f", 100 * lo,
					       100 * hi);
			}
			pc_sink_puts(k, "}");
		}
		pc_sink_puts(k, "]}\n");
		break;
	}
	free(v);
	return k->failed;
}

const pc_report pc_report_regions = {
	"regions",
	"samples in the program against samples outside it, by region class",
	render,
};
