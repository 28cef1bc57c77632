/* barchart.c - the bar chart alone: one bar per listed row under a percent
 * axis in the Dr. Dobb's layout (pc_axis_*).
 *
 *   symbol     percent  0   1   2   3   4   5   6   7   8   9   10
 *   .main         6.61  **************************
 *
 * Rows, cutoff, zero-hit and percent base are the flat table's (rowset.h);
 * csv and json carry the same rows and totals as the flat report.
 */
#include "styles.h"

#include <stdio.h>
#include <string.h>

static void text(const pc_rowset *rs, pc_sink *k)
{
	size_t wname = strlen("symbol");
	double maxpct = 0;
	for (size_t i = 0; i < rs->n; i++) {
		size_t l = pc_name_width(rs->rows[i].label);
		wname = l > wname ? l : wname;
		if (rs->rows[i].percent > maxpct)
			maxpct = rs->rows[i].percent;
	}
	wname += 2;
	unsigned step = pc_axis_step(maxpct);
	pc_sink_pad(k, "symbol", wname, -1);
	pc_sink_puts(k, "percent  ");
	pc_axis_write(k, step);
	pc_sink_putc(k, '\n');
	for (size_t i = 0; i < rs->n; i++) {
		const pc_rs_row *x = &rs->rows[i];
		char pct[32];
		snprintf(pct, sizeof pct, "%.2f", x->percent);
		pc_sink_pad(k, x->label, wname, -1);
		pc_sink_pad(k, pct, 7, 1);
		size_t stars = pc_axis_stars(x->percent, step);
		if (stars) {
			pc_sink_puts(k, "  ");
			pc_sink_repeat(k, '*', stars);
		}
		pc_sink_putc(k, '\n');
	}
}

static int render(pc_profile *p, const pc_options *o, pc_sink *k)
{
	static const pc_rowset_spec spec = {PC_BASE_TOTAL, PC_TIE_NAME, 0};
	pc_rowset rs;
	int r = pc_rowset_build(p, o, &spec, &rs);
	if (r)
		return r;
	if (rs.fmt == PC_OUT_TEXT)
		text(&rs, k);
	else
		pc_rowset_machine(p, &rs, "barchart", NULL, NULL, NULL, k);
	pc_rowset_dispose(&rs);
	return k->failed;
}

static const pc_option_decl barchart_keys[] = {
	PC_REPORT_OPTION_DECLS,
	PC_ROWS_OPTION_DECLS,
	PC_OPTION_DECLS_END,
};

const pc_report pc_report_barchart = {
	.name = "barchart",
	.description = "the bar chart alone, one bar per symbol under a percent axis",
	.options = barchart_keys,
	.render = render,
};
