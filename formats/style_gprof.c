/* style_gprof.c - the flat report in GNU gprof's layout (--style gprof):
 * `gprof -b -p` byte for byte on a gcc -pg capture, `gprof -b -p -z`
 * with "zero".
 *
 *   Flat profile:
 *
 *   Each sample counts as 0.01 seconds.
 *     %   cumulative   self              self     total
 *    time   seconds   seconds    calls   s/call   s/call  name
 *    72.44      2.64     2.64        1     2.64     2.64  hot
 *
 * As gprof (binutils gprof/hist.c, hist_print): percents are of every
 * sample of the capture; rows most time first, then most calls, then by
 * the raw symbol name; calls are the calls from other functions
 * (self-recursive calls left out); "self" and "total" per call are the
 * own time and the own time plus the call graph's children time, divided
 * by the calls, in the SI unit (Ts, Gs, Ms, Ks, s, ms, us, ns, ps, fs,
 * as) that puts the largest total per call of any symbol in [1, 1000);
 * "Ts/call" when no symbol has both calls and time, as gprof prints.
 * Rows with neither time nor calls are listed only with "zero"
 * (gprof -z).  Cycle members carry no " <cycle N>" suffix: gprof -p
 * alone prints none.  Other sources need their sampling rate (the time
 * columns are seconds).
 */
#include "styles.h"
#include "text.h"
#include "model.h"

#include <string.h>

static const struct {
	char prefix;
	double scale;
} si[] = {{'T', 1e-12}, {'G', 1e-09}, {'M', 1e-06}, {'K', 1e-03},
	  {' ', 1e-00}, {'m', 1e+03}, {'u', 1e+06}, {'n', 1e+09},
	  {'p', 1e+12}, {'f', 1e+15}, {'a', 1e+18}};
#define NSI (sizeof si / sizeof si[0])

/* Does a symbol of the profile have calls?  Only then can the call
 * graph's children time reach the report (the unit and the per-call
 * columns): a histogram alone (gprof -b -p -l) builds none. */
static int any_calls(pc_profile *p)
{
	/* (the attribution's targets, as pc_profile_row_at copies them
	 * out: the rows were built from it) */
	size_t n = pc_profile_rows(p);
	for (size_t i = 0; i < n; i++)
		if (p->targets[i].calls)
			return 1;
	return 0;
}

/* The SI unit index gprof picks, over every symbol of the profile (not
 * only the listed ones); g NULL: no symbol has calls. */
static int pick_unit(pc_profile *p, const pc_callgraph *g, double hz, size_t *out)
{
	double top = 0;
	size_t n = g ? pc_profile_rows(p) : 0;
	for (size_t i = 0; i < n; i++) {
		pc_row row;
		pc_icg_node nd;
		int r;
		if ((r = pc_profile_row_at(&row, p, i)))
			return r;
		if (!row.calls)
			continue;
		if ((r = pc_callgraph_inode_at(g, i, &nd)))
			return r;
		double t = (row.count + nd.children) / (double)row.calls;
		if (t > top)
			top = t;
	}
	*out = 0;
	if (top > 0) {
		top /= hz;
		size_t u = 0;
		while (u < NSI && !(si[u].scale * top >= 1.0 && si[u].scale * top < 1000.0))
			u++;
		*out = u < NSI ? u : NSI - 1; /* gprof reads past its table */
	}
	return PC_OK;
}

static void text(pc_sink *k, pc_profile *p, const pc_rowset *rs,
		 const pc_callgraph *g, size_t unit)
{
	const char *dimension = pc_profile_dimension(p);
	char dim[16], abbrev;
	snprintf(dim, sizeof dim, "%s", dimension && *dimension ? dimension : "seconds");
	abbrev = dim[0];
	double hz = rs->rate;
	pc_sink_puts(k, "Flat profile:\n");
	pc_sink_printf(k, "\nEach sample counts as %g %s.\n", 1.0 / hz, dim);
	double total = rs->denom;
	if (total <= 0) {
		pc_sink_puts(k, " no time accumulated\n\n");
		total = 1.0;
	}
	char u[8];
	snprintf(u, sizeof u, "%c%c/call", si[unit].prefix, abbrev);
	pc_sink_printf(k, "%5.5s %10.10s %8.8s %8.8s %8.8s %8.8s  %-8.8s\n", "%  ",
		       "cumulative", "self  ", "", "self  ", "total ", "");
	pc_sink_printf(k, "%5.5s %9.9s  %8.8s %8.8s %8.8s %8.8s  %-8.8s\n", "time", dim, dim,
		       "calls", u, u, "name");
	double accum = 0, scale = si[unit].scale;
	/* "%6.2f %9.2f %8.2f" and " %8llu %8.2f %8.2f  ", the same bytes
	 * without printf, with the line writer (text.h: a line report has a
	 * row a line of code) */
	pc_lw b;
	pc_lw_init(&b, k);
	for (size_t i = 0; i < rs->n; i++) {
		const pc_rs_row *r = &rs->rows[i];
		/* the names come in the rows' order, not the pool's: asked
		 * for ahead (their first byte missed the cache: 4% of the
		 * line report's time) */
		if (i + 8 < rs->n)
			PC_PREFETCH(rs->rows[i + 8].label);
		if (!rs->zero && r->calls == 0 && r->count == 0)
			continue;
		if (pc_lw_row(&b))
			return; /* (failed: recorded on k) */
		accum += r->count;
		pc_lw_fixed_right(&b, 100 * r->count / total, 6, 2);
		PC_LW_LIT(&b, " ");
		pc_lw_fixed_right(&b, accum / hz, 9, 2);
		PC_LW_LIT(&b, " ");
		pc_lw_fixed_right(&b, r->count / hz, 8, 2);
		if (r->calls) {
			double children = 0;
			pc_icg_node nd;
			if (r->region < 0 && pc_callgraph_inode_at(g, r->row, &nd) == PC_OK)
				children = nd.children;
			double c = (double)r->calls;
			PC_LW_LIT(&b, " ");
			pc_lw_u64_right(&b, r->calls, 8);
			PC_LW_LIT(&b, " ");
			pc_lw_fixed_right(&b, scale * r->count / hz / c, 8, 2);
			PC_LW_LIT(&b, " ");
			pc_lw_fixed_right(&b, scale * (r->count + children) / hz / c, 8, 2);
			PC_LW_LIT(&b, "  ");
		} else {
			PC_LW_LIT(&b, "                             ");
		}
		if (pc_lw_name_left(&b, r->label, 0))
			return;
		PC_LW_LIT(&b, "\n");
		pc_lw_line_end(&b);
	}
	pc_lw_done(&b);
}

static int gprof_text(pc_profile *p, const pc_options *o, const pc_rowset *rs,
		      const pc_intervals *iv, pc_sink *k)
{
	pc_callgraph *g = NULL;
	int r;
	if (rs->rate <= 0) {
		r = pc_profile_fail(p, PC_EUSAGE,
				    "the gprof style prints seconds and the capture has no sampling rate: give it with the option rate=HZ");
	} else if (!any_calls(p) ||
		   !(r = pc_profile_callgraph(&g, p, pc_options_callgraph(o)))) {
		size_t unit = 0;
		if (!(r = pick_unit(p, g, rs->rate, &unit))) {
			text(k, p, rs, g, unit);
			if (iv) {
				pc_sink_putc(k, '\n');
				pc_intervals_text(iv, rs->barchart, k);
			}
			r = k->failed;
		}
	}
	pc_callgraph_free(g);
	return r;
}

const pc_flat_style pc_style_gprof = {
	"gprof", {PC_BASE_TOTAL, PC_TIE_NAME, 0}, 1, gprof_text};
