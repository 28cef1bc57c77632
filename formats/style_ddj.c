/* style_ddj.c - the module table of Fred Motteler's pamsdos / paes1800
 * (Dr. Dobb's Journal, December 1991, Figures 2-5):
 *
 *   Module table sorted by sample counts:
 *   1377 samples collected
 *
 *   module           samples  %  0   1   2   3   4   5   6   7   8   9   10
 *   .main            91       7  **************************
 *   .delay_seven     87       6  *************************
 *
 * Rows are modules (code symbols) and, for samples outside every module,
 * one row per region class (PA_BOT_MEM below the program); percents are
 * of every sample collected, rounded to an integer; equal counts keep the
 * module table's (address) order.  The module column is the longest name
 * plus two; counts are right-aligned under "samples", percents under "%".
 * The star scale is pc_axis_*: ten ticks four columns apart, the step
 * the smallest of 1, 2, 5, 10 percent that holds the largest row, and
 * floor(percent * 4 / step) stars.  (The article's own star counts fit no
 * single scale; its layout is what is reproduced.)
 */
#include "styles.h"

#include <stdio.h>
#include <string.h>

static void text(const pc_rowset *rs, pc_sink *k)
{
	char buf[48];
	size_t wname = strlen("module"), wcount = 1, wpct = 1;
	double maxpct = 0;
	for (size_t i = 0; i < rs->n; i++) {
		const pc_rs_row *x = &rs->rows[i];
		size_t l = pc_name_width(x->label);
		wname = l > wname ? l : wname;
		l = strlen(pc_fmt_count(x->count, buf, sizeof buf));
		wcount = l > wcount ? l : wcount;
		l = (size_t)snprintf(buf, sizeof buf, "%ld",
				     pc_round_percent(x->percent));
		wpct = l > wpct ? l : wpct;
		maxpct = x->percent > maxpct ? x->percent : maxpct;
	}
	wname += 2;
	size_t wsamples = (wcount > 7 ? wcount : 7) + 2;
	unsigned step = pc_axis_step(maxpct);

	pc_sink_puts(k, "Module table sorted by sample counts:\n");
	pc_sink_printf(k, "%s samples collected\n\n",
		       pc_fmt_count(rs->denom, buf, sizeof buf));
	pc_sink_pad(k, "module", wname, -1);
	pc_sink_pad(k, "samples", wsamples, -1);
	if (rs->barchart) {
		pc_sink_pad(k, "%", wpct, -1);
		pc_sink_puts(k, "  ");
		pc_axis_write(k, step);
	} else {
		pc_sink_putc(k, '%');
	}
	pc_sink_putc(k, '\n');
	for (size_t i = 0; i < rs->n; i++) {
		const pc_rs_row *x = &rs->rows[i];
		pc_sink_pad(k, x->label, wname, -1);
		pc_sink_pad(k, pc_fmt_count(x->count, buf, sizeof buf), wcount, 1);
		pc_sink_repeat(k, ' ', wsamples - wcount);
		snprintf(buf, sizeof buf, "%ld", pc_round_percent(x->percent));
		pc_sink_pad(k, buf, wpct, 1);
		size_t stars = rs->barchart ? pc_axis_stars(x->percent, step) : 0;
		if (stars) {
			pc_sink_puts(k, "  ");
			pc_sink_repeat(k, '*', stars);
		}
		pc_sink_putc(k, '\n');
	}
}

int pc_style_ddj(pc_profile *p, const pc_options *o, const pc_intervals *iv,
		 pc_sink *k)
{
	static const pc_rowset_spec spec = {PC_BASE_TOTAL, PC_TIE_ADDRESS, 1};
	pc_rowset rs;
	int r = pc_rowset_build(p, o, &spec, &rs);
	if (r)
		return r;
	switch (rs.fmt) {
	default: /* text, csv, json only: pc_rs_outfmt */
	case PC_OUT_TEXT:
		text(&rs, k);
		if (iv) {
			pc_sink_putc(k, '\n');
			pc_intervals_text(iv, rs.barchart, k);
		}
		break;
	case PC_OUT_CSV:
		pc_rowset_csv(p, &rs, k);
		break;
	case PC_OUT_JSON:
		pc_rowset_json(p, &rs, "flat", "ddj",
			       iv ? pc_intervals_json_extra : NULL, iv, k);
		break;
	}
	pc_rowset_dispose(&rs);
	return k->failed;
}
