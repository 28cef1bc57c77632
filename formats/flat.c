/* flat.c - the flat profile: one row per symbol, most samples first.
 *
 * Text layout (default style):
 *   header: sources, totals (samples, in/outside the program, rate)
 *   table:  rank, symbol, count, percent, cumulative percent,
 *           self seconds (when the rate is known), calls (when arcs
 *           exist), a barchart scaled so that the top row fills it.
 * percent = count / total samples (gprof's denominator).  CSV and JSON
 * carry the same rows and totals (README "Machine-readable output").
 */
#include "internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define BAR_WIDTH 20
#define NAME_MAX_COL 40

typedef struct flat {
	pc_profile *p;
	pc_totals t;
	size_t *order, n;   /* sorted row indexes, shown rows only */
	pc_row *rows;       /* in display order */
	double rate;
	int fractional, has_calls, zero;
} flat;

static void flat_dispose(flat *f)
{
	free(f->order);
	free(f->rows);
}

static int flat_build(flat *f, pc_profile *p, const pc_options *o)
{
	memset(f, 0, sizeof *f);
	f->p = p;
	int st = pc_profile_attribute(p, o);
	if (st)
		return st;
	pc_profile_totals(p, &f->t);
	f->rate = pc_profile_rate(p);
	const char *z = pc_options_get(o, "zero");
	f->zero = z && strcmp(z, "0") != 0;
	size_t n;
	f->order = pc_rows_sorted(p, &n);
	if (!f->order && pc_profile_row_count(p))
		return pc_profile_fail(p, PC_ENOMEM, "out of memory");
	f->rows = malloc((n + 1) * sizeof *f->rows);
	if (!f->rows)
		return pc_profile_fail(p, PC_ENOMEM, "out of memory");
	for (size_t i = 0; i < n; i++) {
		pc_row r;
		pc_profile_row_at(p, f->order[i], &r);
		if (r.count != 0 || r.calls || r.self_calls) {
			/* shown */
		} else if (!f->zero) {
			continue;
		}
		if (r.count != floor(r.count))
			f->fractional = 1;
		if (r.calls || r.self_calls)
			f->has_calls = 1;
		f->rows[f->n++] = r;
	}
	return PC_OK;
}

static double pct(double c, double total)
{
	return total > 0 ? 100.0 * c / total : 0.0;
}

static void text_count(pc_sink *k, int width, double v, int fractional)
{
	if (fractional)
		pc_sink_printf(k, "%*.2f", width, v);
	else
		pc_sink_printf(k, "%*.0f", width, v);
}

static void header(pc_sink *k, flat *f)
{
	pc_profile *p = f->p;
	pc_sink_puts(k, "Flat profile");
	size_t ns = pc_profile_source_count(p);
	for (size_t i = 0; i < ns; i++)
		pc_sink_printf(k, "%s %s (%s)", i ? "," : " of", pc_profile_source_file(p, i),
			       pc_profile_source_format(p, i));
	pc_sink_puts(k, "\n");
	pc_sink_puts(k, "Samples: ");
	pc_sink_count(k, f->t.total);
	pc_sink_puts(k, " total, ");
	pc_sink_count(k, f->t.in_program);
	pc_sink_puts(k, " in the program, ");
	pc_sink_count(k, f->t.outside);
	pc_sink_puts(k, " outside");
	if (f->t.outside > 0) {
		const char *sep = " (";
		for (int c = 1; c < PC_REGION_COUNT; c++) {
			if (f->t.by_class[c] <= 0)
				continue;
			pc_sink_printf(k, "%s%s ", sep, pc_region_class_name((pc_region_class)c));
			pc_sink_count(k, f->t.by_class[c]);
			sep = ", ";
		}
		pc_sink_puts(k, ")");
	}
	pc_sink_puts(k, "\n");
	if (f->rate > 0) {
		pc_sink_printf(k, "Rate: %g Hz, each sample counts as %g %s", f->rate,
			       1.0 / f->rate, pc_profile_dimension(p));
		pc_sink_printf(k, "; %.2f %s sampled\n", f->t.total / f->rate,
			       pc_profile_dimension(p));
	} else {
		pc_sink_puts(k, "Rate: unknown (counts are samples)\n");
	}
	double d = pc_profile_duration(p);
	if (d >= 0)
		pc_sink_printf(k, "Duration: %g seconds\n", d);
	for (size_t i = 0; i < pc_profile_warning_count(p); i++)
		pc_sink_printf(k, "Warning: %s\n", pc_profile_warning(p, i));
	pc_sink_puts(k, "\n");
}

static int render_text(pc_sink *k, flat *f)
{
	header(k, f);
	size_t namew = 6;
	for (size_t i = 0; i < f->n; i++) {
		size_t l = strlen(f->rows[i].name);
		if (l > namew)
			namew = l;
	}
	if (namew > NAME_MAX_COL)
		namew = NAME_MAX_COL;
	double max = f->n ? f->rows[0].count : 0;
	for (size_t i = 1; i < f->n; i++)
		if (f->rows[i].count > max)
			max = f->rows[i].count;
	int cw = f->fractional ? 10 : 8;
	pc_sink_printf(k, "%4s  %-*s  %*s  %7s  %7s", "rank", (int)namew, "symbol", cw,
		       "count", "percent", "cum %");
	if (f->rate > 0)
		pc_sink_printf(k, "  %9s", "self s");
	if (f->has_calls)
		pc_sink_printf(k, "  %9s", "calls");
	pc_sink_puts(k, "  bar\n");
	double cum = 0;
	for (size_t i = 0; i < f->n; i++) {
		const pc_row *r = &f->rows[i];
		cum += r->count;
		size_t l = strlen(r->name);
		pc_sink_printf(k, "%4zu  %s", i + 1, r->name);
		if (l < namew)
			pc_sink_repeat(k, ' ', namew - l);
		pc_sink_puts(k, "  ");
		text_count(k, cw, r->count, f->fractional);
		pc_sink_printf(k, "  %7.2f  %7.2f", pct(r->count, f->t.total),
			       pct(cum, f->t.total));
		if (f->rate > 0)
			pc_sink_printf(k, "  %9.2f", r->count / f->rate);
		if (f->has_calls) {
			char buf[48] = "";
			if (r->self_calls)
				snprintf(buf, sizeof buf, "%llu+%llu",
					 (unsigned long long)r->calls,
					 (unsigned long long)r->self_calls);
			else if (r->calls)
				snprintf(buf, sizeof buf, "%llu",
					 (unsigned long long)r->calls);
			pc_sink_printf(k, "  %9s", buf);
		}
		size_t bar = max > 0 ? (size_t)floor(r->count / max * BAR_WIDTH) : 0;
		pc_sink_puts(k, "  ");
		pc_sink_repeat(k, '#', bar);
		/* no trailing blanks */
		while (k->len && k->buf[k->len - 1] == ' ')
			k->len--;
		pc_sink_puts(k, "\n");
	}
	if (f->n == 0)
		pc_sink_puts(k, "(no symbol received samples)\n");
	return PC_OK;
}

static void csv_total(pc_sink *k, const char *label, double v, double total)
{
	pc_sink_printf(k, ",%s,", label);
	pc_sink_count(k, v);
	pc_sink_printf(k, ",%.4f,,,,,\n", pct(v, total));
}

static int render_csv(pc_sink *k, flat *f)
{
	pc_sink_puts(k, "rank,symbol,count,percent,cum_percent,self_seconds,calls,self_calls,address\n");
	double cum = 0;
	for (size_t i = 0; i < f->n; i++) {
		const pc_row *r = &f->rows[i];
		cum += r->count;
		pc_sink_printf(k, "%zu,", i + 1);
		pc_sink_csv_field(k, r->name);
		pc_sink_putc(k, ',');
		pc_sink_count(k, r->count);
		pc_sink_printf(k, ",%.4f,%.4f,", pct(r->count, f->t.total),
			       pct(cum, f->t.total));
		if (f->rate > 0)
			pc_sink_printf(k, "%.6f", r->count / f->rate);
		pc_sink_printf(k, ",%llu,%llu,0x%llx\n", (unsigned long long)r->calls,
			       (unsigned long long)r->self_calls,
			       (unsigned long long)r->address);
	}
	csv_total(k, "[total]", f->t.total, f->t.total);
	csv_total(k, "[in program]", f->t.in_program, f->t.total);
	csv_total(k, "[unattributed]", f->t.by_class[PC_REGION_APPLICATION], f->t.total);
	csv_total(k, "[outside]", f->t.outside, f->t.total);
	for (int c = 1; c < PC_REGION_COUNT; c++)
		if (f->t.by_class[c] > 0) {
			char lab[64];
			snprintf(lab, sizeof lab, "[outside:%s]",
				 pc_region_class_name((pc_region_class)c));
			csv_total(k, lab, f->t.by_class[c], f->t.total);
		}
	return PC_OK;
}

static int render_json(pc_sink *k, flat *f)
{
	pc_profile *p = f->p;
	pc_sink_puts(k, "{\n  \"report\": \"flat\",\n  \"program\": ");
	if (pc_profile_program(p))
		pc_sink_json_string(k, pc_profile_program(p));
	else
		pc_sink_puts(k, "null");
	pc_sink_puts(k, ",\n  \"sources\": [");
	for (size_t i = 0; i < pc_profile_source_count(p); i++) {
		pc_sink_puts(k, i ? ", {\"format\": " : "{\"format\": ");
		pc_sink_json_string(k, pc_profile_source_format(p, i));
		pc_sink_puts(k, ", \"file\": ");
		pc_sink_json_string(k, pc_profile_source_file(p, i));
		pc_sink_puts(k, "}");
	}
	pc_sink_puts(k, "],\n  \"rate_hz\": ");
	if (f->rate > 0)
		pc_sink_printf(k, "%.17g", f->rate);
	else
		pc_sink_puts(k, "null");
	pc_sink_puts(k, ",\n  \"dimension\": ");
	pc_sink_json_string(k, pc_profile_dimension(p));
	pc_sink_puts(k, ",\n  \"totals\": {\"total\": ");
	pc_sink_count(k, f->t.total);
	pc_sink_puts(k, ", \"in_program\": ");
	pc_sink_count(k, f->t.in_program);
	pc_sink_puts(k, ", \"attributed\": ");
	pc_sink_count(k, f->t.attributed);
	pc_sink_puts(k, ", \"unattributed\": ");
	pc_sink_count(k, f->t.by_class[PC_REGION_APPLICATION]);
	pc_sink_puts(k, ", \"outside\": ");
	pc_sink_count(k, f->t.outside);
	pc_sink_puts(k, ", \"by_class\": {");
	for (int c = 1; c < PC_REGION_COUNT; c++) {
		pc_sink_printf(k, "%s\"%s\": ", c > 1 ? ", " : "",
			       pc_region_class_name((pc_region_class)c));
		pc_sink_count(k, f->t.by_class[c]);
	}
	pc_sink_puts(k, "}},\n  \"rows\": [");
	double cum = 0;
	for (size_t i = 0; i < f->n; i++) {
		const pc_row *r = &f->rows[i];
		cum += r->count;
		pc_sink_printf(k, "%s\n    {\"rank\": %zu, \"symbol\": ", i ? "," : "", i + 1);
		pc_sink_json_string(k, r->name);
		pc_sink_printf(k, ", \"address\": %llu, \"count\": ", (unsigned long long)r->address);
		pc_sink_count(k, r->count);
		pc_sink_printf(k, ", \"percent\": %.4f, \"cum_percent\": %.4f",
			       pct(r->count, f->t.total), pct(cum, f->t.total));
		if (f->rate > 0)
			pc_sink_printf(k, ", \"self_seconds\": %.6f", r->count / f->rate);
		pc_sink_printf(k, ", \"calls\": %llu, \"self_calls\": %llu}",
			       (unsigned long long)r->calls, (unsigned long long)r->self_calls);
	}
	pc_sink_puts(k, f->n ? "\n  ],\n  \"warnings\": [" : "],\n  \"warnings\": [");
	for (size_t i = 0; i < pc_profile_warning_count(p); i++) {
		if (i)
			pc_sink_puts(k, ", ");
		pc_sink_json_string(k, pc_profile_warning(p, i));
	}
	pc_sink_puts(k, "]\n}\n");
	return PC_OK;
}

static int flat_render(pc_profile *p, const pc_options *o, pc_sink *k)
{
	flat f;
	int st = flat_build(&f, p, o);
	if (!st) {
		const char *of = pc_options_get(o, "output-format");
		if (of && !strcmp(of, "csv"))
			st = render_csv(k, &f);
		else if (of && !strcmp(of, "json"))
			st = render_json(k, &f);
		else
			st = render_text(k, &f);
	}
	flat_dispose(&f);
	return st;
}

const pc_report pc_report_flat = {
	"flat", "flat profile: samples per symbol, most first", flat_render};

/* ---- symbols: the loaded symbol table (profcat --list-symbols) ---------- */

static int symbols_render(pc_profile *p, const pc_options *o, pc_sink *k)
{
	const char *of = pc_options_get(o, "output-format");
	int csv = of && !strcmp(of, "csv"), json = of && !strcmp(of, "json");
	size_t n = pc_profile_symbol_count(p);
	if (csv)
		pc_sink_puts(k, "name,segment,address,size,kind\n");
	else if (json)
		pc_sink_puts(k, "{\"report\": \"symbols\", \"symbols\": [");
	else
		pc_sink_printf(k, "%-8s %-18s %-10s %-5s %s\n", "segment", "address", "size",
			       "kind", "name");
	for (size_t i = 0; i < n; i++) {
		pc_symbol s;
		pc_profile_symbol_at(p, i, &s);
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
			pc_sink_puts(k, i ? ",\n  {\"name\": " : "\n  {\"name\": ");
			pc_sink_json_string(k, s.name);
			pc_sink_printf(k, ", \"segment\": %s%s%s, \"address\": %llu, \"size\": %llu, \"kind\": \"%s\"}",
				       *seg ? "\"" : "", *seg ? seg : "null", *seg ? "\"" : "",
				       (unsigned long long)s.address,
				       (unsigned long long)s.size, kind);
		} else {
			pc_sink_printf(k, "%-8s 0x%016llx %-10llu %-5s %s\n", *seg ? seg : "-",
				       (unsigned long long)s.address,
				       (unsigned long long)s.size, kind, s.name);
		}
	}
	if (json)
		pc_sink_puts(k, "\n]}\n");
	return PC_OK;
}

const pc_report pc_report_symbols = {
	"symbols", "the loaded symbol table (name, segment, address, size, kind)",
	symbols_render};
