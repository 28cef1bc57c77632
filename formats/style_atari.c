/* style_atari.c - the report of David Rowley's Atari ST Profiler (1987):
 *
 *   Profile of 'DWARFS.PRG '
 *
 *   There are 82 symbols
 *
 *   Samples in appl:     2621  (98.02 %)
 *   Samples in sys :       53  ( 1.98 %)
 *
 *   Num. of samples:     2674
 *
 *   Run lasted 2167 clock ticks (10 seconds)
 *   Samples per second: 246.79
 *   Cutoff at 95 percent
 *
 *   +-----+------------+---------+---------+-----------------------------------+
 *   |   # |   Symbol   |  Count  | Percent |             Barchart              |
 *   +-----+------------+---------+---------+-----------------------------------+
 *   |   1 |    _sleepy |     874 |   33.35 |***********************************|
 *   ...
 *   +-----+------------+---------+---------+-----------------------------------+
 *
 *
 *   End of profile
 *
 * Percents are of the samples in the program; a bar is floor(count / top
 * count * 35) stars.  Columns widen for long names and counts; "barchart
 * 0" (Atari -b) drops the bar column.  With an "interval" option the
 * detailed summary of that symbol follows the table (Atari x=sym i=N).
 * The ST's clock ticks are its 200 Hz system timer.
 */
#include "styles.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define BAR_WIDTH 35
#define ST_TICKS_PER_SECOND 200

typedef struct col {
	const char *head;
	size_t w;   /* content width; the cell is " content " */
	int bar;    /* the bar column: no padding, header centred in w */
} col;

static void rule(pc_sink *k, const col *c, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		pc_sink_putc(k, '+');
		pc_sink_repeat(k, '-', c[i].bar ? c[i].w : c[i].w + 2);
	}
	pc_sink_puts(k, "+\n");
}

static void heads(pc_sink *k, const col *c, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		pc_sink_putc(k, '|');
		if (i == 0) { /* "#" sits over the ranks */
			pc_sink_putc(k, ' ');
			pc_sink_pad(k, c[i].head, c[i].w, 1);
			pc_sink_putc(k, ' ');
		} else {
			pc_sink_pad(k, c[i].head, c[i].bar ? c[i].w : c[i].w + 2, 0);
		}
	}
	pc_sink_puts(k, "|\n");
}

/* One row: cells[i] right-aligned; the bar cell is n_stars stars. */
static void line(pc_sink *k, const col *c, size_t n, const char *const *cells,
		 size_t stars)
{
	for (size_t i = 0; i < n; i++) {
		pc_sink_putc(k, '|');
		if (c[i].bar) {
			pc_sink_repeat(k, '*', stars);
			pc_sink_repeat(k, ' ', c[i].w - stars);
		} else {
			pc_sink_putc(k, ' ');
			pc_sink_pad(k, cells[i], c[i].w, 1);
			pc_sink_putc(k, ' ');
		}
	}
	pc_sink_puts(k, "|\n");
}

static size_t max_sz(size_t a, size_t b)
{
	return a > b ? a : b;
}

static void summary_line(pc_sink *k, const char *what, double v, double of)
{
	char buf[48];
	pc_sink_printf(k, "%s %8s", what, pc_fmt_count(v, buf, sizeof buf));
	if (of >= 0)
		pc_sink_printf(k, "  (%5.2f %%)", of > 0 ? v * 100.0 / of : 0.0);
	pc_sink_putc(k, '\n');
}

static void header(pc_profile *p, const pc_rowset *rs, pc_sink *k)
{
	const char *prog = pc_profile_program(p);
	if (!prog && pc_profile_source_count(p) > 0) {
		prog = pc_profile_source_file(p, 0); /* its base name */
		for (const char *c = prog; c && *c; c++)
			if (*c == '/' || *c == '\\')
				prog = c + 1;
	}
	pc_sink_puts(k, "Profile of '"), pc_sink_name(k, prog), pc_sink_puts(k, "'\n\n");
	pc_sink_printf(k, "There are %zu symbols\n\n", rs->targets);
	summary_line(k, "Samples in appl:", rs->t.in_program, rs->t.total);
	summary_line(k, "Samples in sys :", rs->t.outside, rs->t.total);
	pc_sink_putc(k, '\n');
	summary_line(k, "Num. of samples:", rs->t.total, -1);
	pc_sink_putc(k, '\n');
	int more = 0;
	double dur = pc_profile_duration(p);
	if (dur >= 0) {
		pc_sink_printf(k, "Run lasted %.0f clock ticks (%.0f seconds)\n",
			       floor(dur * ST_TICKS_PER_SECOND + 0.5), floor(dur));
		more = 1;
	}
	if (dur > 0) {
		pc_sink_printf(k, "Samples per second: %.2f\n", rs->t.total / dur);
		more = 1;
	} else if (pc_profile_rate(p) > 0) {
		pc_sink_printf(k, "Samples per second: %.2f\n", pc_profile_rate(p));
		more = 1;
	}
	if (rs->has_cutoff) {
		pc_sink_printf(k, "Cutoff at %s percent\n", rs->cutoff_text);
		more = 1;
	}
	if (more)
		pc_sink_putc(k, '\n');
}

static void table(const pc_rowset *rs, pc_sink *k)
{
	col c[5] = {{"#", 3, 0}, {"Symbol", 10, 0}, {"Count", 7, 0},
		    {"Percent", 7, 0}, {"Barchart", BAR_WIDTH, 1}};
	size_t nc = rs->barchart ? 5 : 4;
	char buf[64];
	for (size_t i = 0; i < rs->n; i++) {
		const pc_rs_row *x = &rs->rows[i];
		snprintf(buf, sizeof buf, "%zu", x->rank);
		c[0].w = max_sz(c[0].w, strlen(buf));
		c[1].w = max_sz(c[1].w, pc_name_width(x->label));
		c[2].w = max_sz(c[2].w, strlen(pc_fmt_count(x->count, buf, sizeof buf)));
	}
	rule(k, c, nc);
	heads(k, c, nc);
	rule(k, c, nc);
	for (size_t i = 0; i < rs->n; i++) {
		const pc_rs_row *x = &rs->rows[i];
		char rank[32], count[48], pct[32];
		snprintf(rank, sizeof rank, "%zu", x->rank);
		pc_fmt_count(x->count, count, sizeof count);
		snprintf(pct, sizeof pct, "%.2f", x->percent);
		const char *cells[4] = {rank, x->label, count, pct};
		line(k, c, nc, cells, pc_bar_len(x->count, rs->max_count, BAR_WIDTH));
	}
	rule(k, c, nc);
}

static void detail(const pc_intervals *iv, int barchart, pc_sink *k)
{
	char buf[96];
	col c[5] = {{"#", 3, 0}, {"Address", 10, 0}, {"Count", 7, 0},
		    {"Percent", 7, 0}, {"Barchart", BAR_WIDTH, 1}};
	size_t nc = barchart ? 5 : 4;
	for (size_t i = 0; i < iv->n; i++) {
		c[1].w = max_sz(c[1].w, strlen(pc_interval_range(iv, i, buf, sizeof buf)));
		c[2].w = max_sz(c[2].w, strlen(pc_fmt_count(iv->iv[i].count, buf, sizeof buf)));
	}
	pc_sink_puts(k, "\n\nDetailed profile of '"), pc_sink_name(k, iv->what),
		pc_sink_printf(k, "' (%zu intervals)\n\n", iv->n);
	rule(k, c, nc);
	heads(k, c, nc);
	rule(k, c, nc);
	for (size_t i = 0; i < iv->n; i++) {
		char rank[32], range[96], count[48], pct[32];
		snprintf(rank, sizeof rank, "%zu", i + 1);
		pc_interval_range(iv, i, range, sizeof range);
		pc_fmt_count(iv->iv[i].count, count, sizeof count);
		snprintf(pct, sizeof pct, "%.2f", iv->iv[i].percent);
		const char *cells[4] = {rank, range, count, pct};
		line(k, c, nc, cells,
		     pc_bar_len(iv->iv[i].count, iv->max_count, BAR_WIDTH));
	}
	rule(k, c, nc);
}

int pc_style_atari(pc_profile *p, const pc_options *o, const pc_intervals *iv,
		   pc_sink *k)
{
	static const pc_rowset_spec spec = {PC_BASE_PROGRAM, PC_TIE_NAME, 0};
	pc_rowset rs;
	int r = pc_rowset_build(p, o, &spec, &rs);
	if (r)
		return r;
	switch (rs.fmt) {
	default: /* text, csv, json only: pc_rs_outfmt */
	case PC_OUT_TEXT:
		header(p, &rs, k);
		table(&rs, k);
		if (iv)
			detail(iv, rs.barchart, k);
		pc_sink_puts(k, "\n\nEnd of profile\n");
		break;
	case PC_OUT_CSV:
		pc_rowset_csv(p, &rs, k);
		break;
	case PC_OUT_JSON:
		pc_rowset_json(p, &rs, "flat", "atari",
			       iv ? pc_intervals_json_extra : NULL, iv, k);
		break;
	}
	pc_rowset_dispose(&rs);
	return k->failed;
}
