/* flat.c - the flat profile: one row per symbol, most samples first.
 *
 * Text layout (default style):
 *   header: sources, totals (samples, in/outside the program, rate)
 *   table:  rank, symbol, count, percent, cumulative percent,
 *           self seconds (when the rate is known), calls (when arcs
 *           exist), a barchart scaled so that the top row fills it.
 * percent = count / total samples (gprof's denominator).  CSV and JSON
 * carry the same rows and totals (docs/usage.md ("Machine-readable output")).
 * Rows, cutoff and zero-hit selection come from rowset.c; "style" picks
 * another layout (styles.h); "interval=SYM" appends that symbol's
 * intervals (intervals.c).
 */
#include "styles.h"
#include "stats.h"
#include "filter.h"
#include "numfmt.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define BAR_WIDTH 20

/* bytes of s before its first byte that is not printable ASCII (the
 * shown form of a name is the name itself up to there) */
static size_t plain_len(const char *s)
{
	size_t n = 0;
	while ((unsigned char)s[n] >= 0x20 && (unsigned char)s[n] < 0x7f)
		n++;
	return n;
}

static void header(pc_sink *k, pc_profile *p, const pc_rowset *rs)
{
	const pc_itotals *t = &rs->t;
	pc_sink_puts(k, "Flat profile");
	size_t ns = pc_profile_source_count(p);
	for (size_t i = 0; i < ns; i++)
		pc_sink_puts(k, i ? ", " : " of "), pc_sink_name(k, pc_profile_source_file(p, i)),
			pc_sink_printf(k, " (%s)", pc_profile_source_format(p, i));
	pc_sink_puts(k, "\n");
	/* Exact event counts (Hatari) are not samples: say so in place of
	 * the sampling rate, and call them counts. */
	int exact = pc_profile_event_counts(p);
	char dim[4 * 64];
	pc_name_escape(dim, sizeof dim, pc_profile_dimension(p));
	pc_sink_puts(k, exact ? "Counts: " : "Samples: ");
	pc_sink_count(k, t->total);
	pc_sink_puts(k, " total, ");
	pc_sink_count(k, t->in_program);
	pc_sink_puts(k, " in the program, ");
	pc_sink_count(k, t->outside);
	pc_sink_puts(k, " outside");
	if (t->outside > 0) {
		const char *sep = " (";
		for (int c = 1; c < PC_REGION_COUNT; c++) {
			if (t->by_class[c] <= 0)
				continue;
			pc_sink_printf(k, "%s%s ", sep, pc_region_class_name((pc_region_class)c));
			pc_sink_count(k, t->by_class[c]);
			sep = ", ";
		}
		pc_sink_puts(k, ")");
	}
	pc_sink_puts(k, "\n");
	if (exact && rs->rate > 0) {
		pc_sink_printf(k, "Rate: %g Hz, each count is %g %s; %.2f %s in all (exact counts, not samples)\n",
			       rs->rate, 1.0 / rs->rate, dim,
			       t->total / rs->rate, dim);
	} else if (exact) {
		pc_sink_printf(k, "Rate: none (exact counts of %s, not samples)\n",
			       dim);
	} else if (rs->rate > 0) {
		pc_sink_printf(k, "Rate: %g Hz, each sample counts as %g %s", rs->rate,
			       1.0 / rs->rate, dim);
		pc_sink_printf(k, "; %.2f %s sampled\n", t->total / rs->rate,
			       dim);
	} else {
		pc_sink_puts(k, "Rate: unknown (counts are samples)\n");
	}
	double d = pc_profile_duration(p);
	if (d >= 0)
		pc_sink_printf(k, "Duration: %g seconds\n", d);
	if (rs->has_cutoff) {
		pc_sink_printf(k, "Cutoff: %s percent of the %ssamples, ",
			       rs->cutoff_text,
			       rs->base == PC_BASE_PROGRAM ? "program's " : "");
		pc_sink_printf(k, "%zu of %zu symbols listed\n", rs->n, rs->targets);
	}
	if (rs->filtered || rs->n < rs->selected) {
		/* pprof's "Showing nodes accounting for ..., N% of ... total" */
		pc_sink_printf(k, "Showing: %zu row%s, %.2f%% of all samples (", rs->n,
			       rs->n == 1 ? "" : "s",
			       rs->denom > 0 ? rs->listed * 100.0 / rs->denom : 0.0);
		const char *sep = pc_filter_describe(rs->opts, k) ? ", " : "";
		if (rs->stacks)
			pc_sink_printf(k, "; %s", rs->stacks);
		if (rs->n < rs->selected)
			pc_sink_printf(k, "%stop %zu of %zu", rs->stacks ? "; " : sep,
				       rs->top, rs->selected);
		pc_sink_puts(k, ")\n");
	}
	for (size_t i = 0; i < pc_profile_warning_count(p); i++)
		pc_sink_puts(k, "Warning: "), pc_sink_name(k, pc_profile_warning_at(p, i)),
			pc_sink_putc(k, '\n');
	if (rs->ci_z > 0 && rs->exact)
		pc_sink_puts(k, "Counts are exact (not samples): no confidence interval\n");
	else if (rs->ci_z > 0)
		pc_sink_printf(k, "+-: half-width of the %g%% Wilson interval of the percent (csv/json: its ends)\n",
			       rs->ci_level);
	const char *first;
	size_t nchk = pc_check_count(p, rs->opts, 1, &first);
	if (nchk)
		pc_sink_printf(k, "Check: %zu sampling-quality warning%s (%s%s); see the check report\n",
			       nchk, nchk == 1 ? "" : "s", first, nchk > 1 ? ", ..." : "");
	pc_sink_puts(k, "\n");
}

static const char hashes[] = "################################";

static void render_text(pc_sink *k, pc_profile *p, const pc_rowset *rs)
{
	header(k, p, rs);
	size_t namew = 6;
	for (size_t i = 0; i < rs->n; i++) {
		const char *s = pc_rowset_label(rs, i);
		size_t l = plain_len(s);
		if (s[l])
			l = pc_name_width(s);
		if (l > namew)
			namew = l;
	}
	int cw = rs->fractional ? 10 : 8;
	pc_sink_printf(k, "%4s  %-*s  %*s  %7s  %7s", "rank", (int)namew, "symbol", cw,
		       "count", "percent", "cum %");
	int ci = rs->ci_z > 0 && !rs->exact;
	if (ci)
		pc_sink_printf(k, "  %6s", "+-");
	if (rs->rate > 0)
		pc_sink_printf(k, "  %9s", "self s");
	if (rs->has_calls)
		pc_sink_printf(k, "  %9s", "calls");
	pc_sink_puts(k, rs->barchart ? "  bar\n" : "\n");
	/* the rows written with the line writer (text.h).  The count and
	 * percent columns, and the ones after cum % (but calls), depend on
	 * the count alone: those of the row above are copied when its count
	 * has the same bits (the rows of one count are neighbours; the
	 * percent, the count's, compared too): 5% of the flat report of the
	 * 50,000-function program (bench/README.md).  seg_ok: seg_a (na
	 * bytes) and, without calls, seg_b (nb) are seg_count's. */
	pc_lw b;
	pc_lw_init(&b, k);
	pc_rs_row rb;
	char seg_a[64] = {0}, seg_b[64] = {0};
	size_t na = 0, nb = 0;
	double seg_count = 0, seg_pct = 0;
	int seg_ok = 0;
	for (size_t i = 0; i < rs->n; i++) {
		const pc_rs_row *r = pc_rowset_row_text(rs, i, &rb);
		if (pc_lw_row(&b))
			return; /* (failed: recorded on k) */
		size_t at = b.L, committed = k->len; /* where the line starts */
		pc_lw_u64_right(&b, r->rank, 4);
		PC_LW_LIT(&b, "  ");
		if (pc_lw_name_left(&b, r->label, namew))
			return;
		if (k->len != committed) /* (the line's start is committed) */
			at = 0;
		const int same = seg_ok && !memcmp(&r->count, &seg_count, sizeof seg_count) &&
				 !memcmp(&r->percent, &seg_pct, sizeof seg_pct);
		const size_t s0 = b.L;
		if (same) { /* (whole: a copy of constant size; the line has room) */
			memcpy(b.out + b.L, seg_a, sizeof seg_a);
			b.L += na;
		} else {
			PC_LW_LIT(&b, "  ");
			if (rs->fractional)
				pc_lw_fixed_right(&b, r->count, 10, 2);
			else
				pc_lw_fixed_right(&b, r->count, 8, 0);
			PC_LW_LIT(&b, "  ");
			pc_lw_fixed_right(&b, r->percent, 7, 2);
			na = b.L - s0;
		}
		PC_LW_LIT(&b, "  ");
		pc_lw_fixed_right(&b, r->cum_percent, 7, 2);
		const size_t s1 = b.L;
		if (same && !rs->has_calls) {
			memcpy(b.out + b.L, seg_b, sizeof seg_b);
			b.L += nb;
			goto line_end;
		}
		if (ci) {
			double lo, hi;
			pc_rowset_ci(rs, r->count, &lo, &hi);
			PC_LW_LIT(&b, "  ");
			pc_lw_fixed_right(&b, (hi - lo) / 2, 6, 2);
		}
		if (rs->rate > 0) {
			PC_LW_LIT(&b, "  ");
			pc_lw_fixed_right(&b, r->count / rs->rate, 9, 2);
		}
		if (rs->has_calls) {
			char buf[48] = "";
			size_t n = 0;
			if (r->self_calls || r->calls)
				n = pc_fmt_u64(buf, r->calls);
			if (r->self_calls) {
				buf[n++] = '+';
				n += pc_fmt_u64(buf + n, r->self_calls);
			}
			PC_LW_LIT(&b, "  ");
			if (n < 9)
				pc_lw_blanks(&b, 9 - n);
			pc_lw_str(&b, buf, n);
		}
		if (rs->barchart) {
			PC_LW_LIT(&b, "  ");
			pc_lw_str(&b, hashes, pc_bar_len(r->count, rs->max_count, BAR_WIDTH));
		}
		if (!same) {
			nb = b.L - s1;
			seg_ok = na <= sizeof seg_a && (rs->has_calls || nb <= sizeof seg_b);
			if (seg_ok) {
				memcpy(seg_a, b.out + s0, na);
				if (!rs->has_calls)
					memcpy(seg_b, b.out + s1, nb);
				seg_count = r->count;
				seg_pct = r->percent;
			}
		}
	line_end:
		/* no trailing blanks (the count is never blank) */
		while (b.L > at && b.out[b.L - 1] == ' ')
			b.L--;
		b.out[b.L++] = '\n';
		pc_lw_line_end(&b);
	}
	pc_lw_done(&b);
	if (rs->n == 0 && rs->filtered)
		pc_sink_puts(k, "(no symbol passes focus, ignore and hide)\n");
	else if (rs->n == 0)
		pc_sink_puts(k, rs->has_cutoff && rs->t.attributed > 0
					? "(no symbol within the cutoff)\n"
					: "(no symbol received samples)\n");
}

static int default_text(pc_profile *p, const pc_options *o, const pc_rowset *rs,
			const pc_intervals *iv, pc_sink *k)
{
	render_text(k, p, rs);
	if (iv) {
		pc_sink_putc(k, '\n');
		pc_intervals_text(iv, rs->barchart, k);
	}
	return k->failed;
}

/* the default style's rows are made as they are printed
 * (pc_rowset_build_compact) */
static const pc_flat_style default_style = {
	NULL, {PC_BASE_TOTAL, PC_TIE_NAME, 0}, 1, default_text};

/* by pc_style */
static const pc_flat_style *const styles[] = {
	[PC_STYLE_DEFAULT] = &default_style, [PC_STYLE_ATARI] = &pc_style_atari,
	[PC_STYLE_DDJ] = &pc_style_ddj,	     [PC_STYLE_PROHST] = &pc_style_prohst,
	[PC_STYLE_GPROF] = &pc_style_gprof,
};

static int flat_render(pc_profile *p, const pc_options *o, pc_sink *k)
{
	pc_style style;
	pc_intervals iv;
	const pc_intervals *ivp = NULL;
	int st = pc_style_get(p, o, &style);
	if (st)
		return st;
	if (pc_options_get(o, "interval")) {
		if ((st = pc_intervals_build(p, o, &iv)))
			return st;
		ivp = &iv;
	}
	const pc_flat_style *fs = styles[style];
	pc_outfmt fmt = PC_OUT_TEXT;
	if (!fs->rows && !(st = pc_rs_outfmt(p, o, &fmt)) && fmt == PC_OUT_TEXT) {
		st = fs->text(p, o, NULL, ivp, k);
	} else if (!st) {
		pc_rowset rs;
		st = fs == &default_style ? pc_rowset_build_compact(p, o, &fs->spec, &rs)
					  : pc_rowset_build(p, o, &fs->spec, &rs);
		if (!st) {
			st = rs.fmt != PC_OUT_TEXT
				     ? pc_rowset_machine(p, &rs, "flat", fs->name,
							 ivp ? pc_intervals_json_extra : NULL,
							 ivp, k)
				     : fs->text(p, o, &rs, ivp, k);
			pc_rowset_dispose(&rs);
		}
	}
	if (ivp)
		pc_intervals_dispose(&iv);
	return st;
}

const pc_report pc_report_flat = {
	"flat", "flat profile: samples per symbol, most first", flat_render};

/* ---- symbols: the loaded symbol table (profcat --list-symbols) ---------- */

static int symbols_render(pc_profile *p, const pc_options *o, pc_sink *k)
{
	pc_outfmt of = pc_options_outfmt(o);
	int csv = of == PC_OUT_CSV, json = of == PC_OUT_JSON;
	size_t n = pc_profile_symbol_count(p);
	const pc_attrib_options *ao = pc_options_attrib(o);
	int demangle = (!ao || ao->demangle == PC_DEMANGLE_AUTO) && pc_demangler_available();
	/* --focus/--ignore/--hide: the symbols whose samples they keep
	 * (filter.c) */
	pc_rowfilter rf;
	int st = pc_rowfilter_init(p, o, &rf);
	if (st) {
		pc_rowfilter_dispose(&rf);
		return st;
	}
	if (csv) {
		pc_sink_puts(k, "name,segment,address,size,kind\n");
	} else if (json) {
		pc_sink_puts(k, "{\"report\": \"symbols\", ");
		if (rf.any) {
			pc_sink_puts(k, "\"filters\": ");
			pc_filter_json(o, k);
			pc_sink_puts(k, ", ");
		}
		pc_sink_puts(k, "\"symbols\": [");
	} else {
		if (rf.any) {
			pc_sink_puts(k, "Filters: ");
			pc_filter_describe(o, k);
			pc_sink_puts(k, " (the symbols whose samples they keep)\n\n");
		}
		pc_sink_printf(k, "%-8s %-18s %-10s %-5s %s\n", "segment", "address", "size",
			       "kind", "name");
	}
	int listed = 0;
	for (size_t i = 0; i < n; i++) {
		pc_symbol s;
		pc_profile_symbol_at(&s, p, i);
		const char *raw = s.name;
		if (demangle)
			s.name = pc_symbol_display(p, i);
		int keep = pc_rowfilter_keep_name(&rf, s.name, raw);
		if (keep < 0) {
			pc_rowfilter_dispose(&rf);
			return keep;
		}
		if (!keep)
			continue;
		char seg[16] = "";
		if (s.segment != PC_NOSEG)
			snprintf(seg, sizeof seg, "%04x", (unsigned)s.segment);
		const char *kind = pc_symkind_name(s.kind);
		if (csv) {
			pc_sink_csv_field(k, s.name);
			pc_sink_printf(k, ",%s,0x%llx,%llu,%s\n", seg,
				       (unsigned long long)s.address,
				       (unsigned long long)s.size, kind);
		} else if (json) {
			pc_sink_puts(k, listed++ ? ",\n  {\"name\": " : "\n  {\"name\": ");
			pc_sink_json_string(k, s.name);
			pc_sink_printf(k, ", \"segment\": %s%s%s, \"address\": %llu, \"size\": %llu, \"kind\": \"%s\"}",
				       *seg ? "\"" : "", *seg ? seg : "null", *seg ? "\"" : "",
				       (unsigned long long)s.address,
				       (unsigned long long)s.size, kind);
		} else {
			pc_sink_printf(k, "%-8s 0x%016llx %-10llu %-5s ", *seg ? seg : "-",
				       (unsigned long long)s.address,
				       (unsigned long long)s.size, kind);
			pc_sink_name(k, s.name);
			pc_sink_putc(k, '\n');
		}
	}
	if (json)
		pc_sink_puts(k, "\n]}\n");
	pc_rowfilter_dispose(&rf);
	return PC_OK;
}

const pc_report pc_report_symbols = {
	"symbols", "the loaded symbol table (name, segment, address, size, kind)",
	symbols_render};
