/* source.c - source-level reports (docs/source.md ("Source level")):
 *
 *  source     annotated source: each line of the source files with its
 *             count and percent in the margin, hot lines marked with '>'
 *             (10 percent of the samples or more).  The counts are those
 *             of --granularity line (gprof -l's line symbols) summed per
 *             (file, line).  Option "source-select": a function (its
 *             lines, in every file it has lines in) or a file (full
 *             path as DWARF names it, a path ending in /NAME, or NAME);
 *             none: every file with samples.  Missing files are named,
 *             with their lines' counts and no text.
 *  locations  every distinct sampled address (histograms: every
 *             non-empty bucket start) with its count and its inline
 *             chain, innermost first, as pc_dwarf_lookup_frames() gives it.
 */
#include "dwarf_internal.h"
#include "model.h"
#include "rowset.h"
#include "filter.h"

#include <stdlib.h>
#include <string.h>

#define HOT_PERCENT 10.0

typedef struct sline {
	const char *file;
	unsigned line;
	double count;
	const char *function; /* of the first line symbol seen on it */
	int selected;
} sline;

static int cmp_sline(const void *a, const void *b)
{
	const sline *x = a, *y = b;
	int c = strcmp(x->file, y->file);
	if (c)
		return c;
	return x->line < y->line ? -1 : x->line > y->line;
}

static int file_matches(const char *file, const char *sel)
{
	size_t lf = strlen(file), ls = strlen(sel);
	if (!strcmp(file, sel))
		return 1;
	return lf > ls && file[lf - ls - 1] == '/' && !strcmp(file + lf - ls, sel);
}

/* A copy of o with granularity=line. */
static pc_options *line_opts(const pc_options *o)
{
	pc_options *c;
	if (pc_options_new(&c))
		return NULL;
	for (size_t i = 0; i < pc_options_count(o); i++) {
		const char *k = pc_options_key_at(o, i);
		if (pc_options_set(c, k, pc_options_get(o, k))) {
			pc_options_free(c);
			return NULL;
		}
	}
	if (pc_options_set(c, "granularity", "line")) {
		pc_options_free(c);
		return NULL;
	}
	return c;
}

static void text_header(pc_sink *k, pc_profile *p, const pc_itotals *t,
			const pc_rowfilter *rf, double dropped)
{
	pc_sink_puts(k, "Source profile");
	size_t ns = pc_profile_source_count(p);
	for (size_t i = 0; i < ns; i++)
		pc_sink_printf(k, "%s %s (%s)", i ? "," : " of", pc_profile_source_file(p, i),
			       pc_profile_source_format(p, i));
	pc_sink_puts(k, "\nSamples: ");
	pc_sink_count(k, t->total);
	pc_sink_puts(k, " total; percents are of the total; '>' marks lines with 10% or more\n");
	pc_filter_totals_line(rf, t->total - dropped, t->total, k);
}

static char *read_text(pc_stream *s, size_t *len)
{
	void *buf = NULL;
	if (pc_stream_read_all(s, (uint64_t)64 << 20, &buf, len))
		buf = NULL;
	pc_stream_free(s);
	return buf;
}

static void margin(pc_sink *k, double count, double total, int fractional)
{
	if (count > 0) {
		double pct = total > 0 ? count * 100.0 / total : 0;
		if (fractional)
			pc_sink_printf(k, "%10.2f %7.2f %c", count, pct,
				       pct >= HOT_PERCENT ? '>' : ' ');
		else
			pc_sink_printf(k, "%10.0f %7.2f %c", count, pct,
				       pct >= HOT_PERCENT ? '>' : ' ');
	} else {
		pc_sink_printf(k, "%10s %7s  ", ".", ".");
	}
}

static void trim(pc_sink *k)
{
	while (k->len && k->buf[k->len - 1] == ' ')
		k->len--;
}

/* One file: its lines [lo, hi] (0, 0: all) with the counts of v[a, b). */
static void text_file(pc_sink *k, const pc_dwarf *d, const sline *v, size_t a,
		      size_t b, unsigned lo, unsigned hi, double total,
		      int fractional)
{
	double sum = 0;
	for (size_t i = a; i < b; i++)
		sum += v[i].count;
	char *path = NULL;
	pc_stream *s = NULL;
	const char *why = NULL;
	int st = pc_dwarf_open_source(d, v[a].file, &path, &s, &why);
	char *text = NULL;
	size_t len = 0;
	if (!st)
		text = read_text(s, &len);
	pc_sink_printf(k, "\nFile %s", v[a].file);
	if (path && strcmp(path, v[a].file))
		pc_sink_printf(k, " (read from %s)", path);
	if (fractional)
		pc_sink_printf(k, ": %.2f", sum);
	else
		pc_sink_printf(k, ": %.0f", sum);
	pc_sink_printf(k, " samples, %.2f%%\n", total > 0 ? sum * 100.0 / total : 0);
	if (!text) {
		if (why)
			pc_sink_printf(k, "  %s; counts by line:\n", why);
		else
			pc_sink_puts(k, st == PC_ENOTFOUND || !path
				      ? "  source file not found (give its directory in the option source-path); counts by line:\n"
				      : "  source file cannot be read; counts by line:\n");
		for (size_t i = a; i < b;) {
			size_t j = i;
			double c = 0;
			while (j < b && v[j].line == v[i].line)
				c += v[j++].count;
			if (c > 0 && (!hi || (v[i].line >= lo && v[i].line <= hi))) {
				margin(k, c, total, fractional);
				pc_sink_printf(k, "  %5u\n", v[i].line);
			}
			i = j;
		}
		free(path);
		return;
	}
	pc_sink_printf(k, "%10s %7s   %5s  %s\n", "count", "percent", "line", "source");
	unsigned ln = 1;
	size_t j = a, pos = 0;
	while (pos < len || (ln <= hi && hi)) {
		if (pos >= len)
			break;
		const char *e = memchr(text + pos, '\n', len - pos);
		size_t l = e ? (size_t)(e - (text + pos)) : len - pos;
		if (l && text[pos + l - 1] == '\r')
			l--;
		double c = 0;
		while (j < b && v[j].line < ln)
			j++;
		while (j < b && v[j].line == ln)
			c += v[j++].count;
		if ((!lo && !hi) || (ln >= lo && ln <= hi)) {
			margin(k, c, total, fractional);
			pc_sink_printf(k, " %5u  ", ln);
			for (size_t x = 0; x < l; x++) {
				char ch = text[pos + x];
				/* control characters (but tabs) shown as '?' */
				pc_sink_putc(k, (ch >= 0 && ch < 32 && ch != '\t') || ch == 127
							? '?' : ch);
			}
			trim(k);
			pc_sink_putc(k, '\n');
		}
		pos += e ? (size_t)(e - (text + pos)) + 1 : l;
		ln++;
		if (hi && ln > hi)
			break;
	}
	/* counted lines past the end of the file: the file changed */
	for (; j < b; j++)
		if (v[j].line >= ln && v[j].count > 0 && (!hi || v[j].line <= hi))
			pc_sink_printf(k, "  line %u (%g samples) is past the end of the file: the source does not match the program\n",
				       v[j].line, v[j].count);
	free(text);
	free(path);
}

static int source_render(pc_profile *p, const pc_options *o, pc_sink *k)
{
	pc_outfmt fmt;
	int st;
	if ((st = pc_rs_outfmt(p, o, &fmt)))
		return st;
	pc_options *lo = line_opts(o);
	if (!lo)
		return pc_profile_fail(p, PC_ENOMEM, "out of memory");
	pc_profile *q = NULL;
	st = pc_profile_granular(p, lo, &q);
	pc_options_free(lo);
	if (st)
		return st;
	pc_dwarf *d = NULL;
	pc_itotals t;
	sline *v = NULL;
	size_t n = 0, cap = 0;
	double nosrc = 0;
	const char *sel = pc_options_get(o, "source-select");
	/* --focus/--ignore/--hide: the lines of the functions that pass */
	pc_rowfilter rf;
	double dropped = 0;
	if ((st = pc_rowfilter_init(p, o, &rf)) || (st = pc_profile_dwarf(p, o, &d)) ||
	    (st = pc_profile_attribute(q, NULL)) || (st = pc_profile_itotals(q, &t)))
		goto out;
	/* every line symbol's count onto its (file, line) */
	for (size_t i = 0; i < q->ntargets; i++) {
		const pc_target *tg = &q->targets[i];
		const pc_srcframe *f;
		size_t nf;
		if ((st = pc_dwarf_lookup_frames(d, tg->address, &f, &nf))) {
			const pc_error *e = pc_dwarf_error(d);
			st = pc_profile_fail(p, st, "%s", e ? e->message : "DWARF");
			goto out;
		}
		if (tg->excluded)
			continue;
		int keep = pc_rowfilter_keep_at(&rf, tg->segment, tg->address);
		if (keep < 0) {
			st = keep;
			goto out;
		}
		if (!keep) {
			dropped += tg->count;
			continue;
		}
		if (!nf || !f[0].file || !f[0].line || !f[0].function) {
			nosrc += tg->count;
			continue;
		}
		if (pc_grow((void **)&v, &cap, n + 1, sizeof *v)) {
			st = pc_profile_fail(p, PC_ENOMEM, "out of memory");
			goto out;
		}
		v[n++] = (sline){f[0].file, f[0].line, tg->count, f[0].function, 0};
	}
	if (n)
		qsort(v, n, sizeof *v, cmp_sline);
	/* selection: a function's lines, or a file */
	int by_func = 0, any = 0;
	for (size_t i = 0; sel && i < n; i++)
		if (!strcmp(v[i].function, sel))
			by_func = 1;
	for (size_t i = 0; i < n; i++) {
		v[i].selected = !sel || (by_func ? !strcmp(v[i].function, sel)
						 : file_matches(v[i].file, sel));
		any |= v[i].selected;
	}
	if (sel && !any) {
		st = pc_profile_fail(p, PC_ENOTFOUND,
				     "no function or source file '%s' in the DWARF line information",
				     sel);
		goto out;
	}
	/* samples no function holds (outside the program, or in data):
	 * counted in the total, on no line; a focus drops them */
	double rest = t.total - nosrc - dropped;
	for (size_t i = 0; i < n; i++)
		rest -= v[i].count;
	if (!(rest > 1e-6 * (t.total > 1 ? t.total : 1)))
		rest = 0;
	int fractional = 0;
	for (size_t i = 0; i < n; i++)
		if (v[i].count != (double)(long long)v[i].count)
			fractional = 1;
	if (fmt == PC_OUT_CSV) {
		pc_sink_puts(k, "file,line,count,percent\n");
	} else if (fmt == PC_OUT_JSON) {
		pc_sink_puts(k, "{\"report\": \"source\", \"total\": ");
		pc_sink_count(k, t.total);
		if (rf.any) {
			pc_sink_puts(k, ", \"filters\": ");
			pc_filter_json(o, k);
			pc_sink_puts(k, ", \"filtered_out\": ");
			pc_sink_count(k, dropped + (rf.f.focus ? rest : 0));
		}
		pc_sink_puts(k, ", \"lines\": [");
	} else {
		text_header(k, p, &t, &rf, dropped + (rf.f.focus ? rest : 0));
	}
	int first = 1;
	for (size_t a = 0; a < n;) {
		size_t b = a;
		double fsum = 0;
		int fsel = 0;
		unsigned flo = 0, fhi = 0;
		while (b < n && !strcmp(v[b].file, v[a].file)) {
			fsum += v[b].count;
			if (v[b].selected) {
				if (!fsel || v[b].line < flo)
					flo = v[b].line;
				if (v[b].line > fhi)
					fhi = v[b].line;
				fsel = 1;
			}
			b++;
		}
		/* a file is listed when selected, and (no selection) when it
		 * has samples */
		if (!fsel || (!sel && fsum <= 0)) {
			a = b;
			continue;
		}
		if (fmt == PC_OUT_TEXT) {
			text_file(k, d, v, a, b, by_func ? flo : 0, by_func ? fhi : 0,
				  t.total, fractional);
		} else {
			for (size_t i = a; i < b;) {
				size_t j = i;
				double c = 0;
				while (j < b && v[j].line == v[i].line)
					c += v[j++].count;
				if (v[i].selected && c > 0) {
					double pct = t.total > 0 ? c * 100.0 / t.total : 0;
					if (fmt == PC_OUT_CSV) {
						pc_sink_csv_field(k, v[i].file);
						pc_sink_printf(k, ",%u,", v[i].line);
						pc_sink_count(k, c);
						pc_sink_printf(k, ",%.4f\n", pct);
					} else {
						pc_sink_puts(k, first ? "\n  {\"file\": " : ",\n  {\"file\": ");
						pc_sink_json_string(k, v[i].file);
						pc_sink_printf(k, ", \"line\": %u, \"count\": ", v[i].line);
						pc_sink_count(k, c);
						pc_sink_printf(k, ", \"percent\": %.4f}", pct);
						first = 0;
					}
				}
				i = j;
			}
		}
		a = b;
	}
	/* the samples in no function, as the text's last line says them (a
	 * focus counts them as filtered out): lines + no_line_info +
	 * no_function + filtered_out = total */
	double nofunc = rf.f.focus ? 0 : rest;
	if (fmt == PC_OUT_JSON) {
		pc_sink_puts(k, "\n], \"no_line_info\": ");
		pc_sink_count(k, nosrc);
		pc_sink_puts(k, ", \"no_function\": ");
		pc_sink_count(k, nofunc);
		pc_sink_puts(k, "}\n");
	} else if (fmt == PC_OUT_CSV) {
		if (!sel && nosrc > 0) {
			pc_sink_puts(k, "[no line information],,");
			pc_sink_count(k, nosrc);
			pc_sink_printf(k, ",%.4f\n", t.total > 0 ? nosrc * 100.0 / t.total : 0);
		}
		if (!sel && nofunc > 0) {
			pc_sink_puts(k, "[in no function],,");
			pc_sink_count(k, nofunc);
			pc_sink_printf(k, ",%.4f\n", t.total > 0 ? nofunc * 100.0 / t.total : 0);
		}
	} else if (!sel) {
		if (nosrc > 0) {
			pc_sink_puts(k, "\nWithout line information (no DWARF for the code): ");
			pc_sink_count(k, nosrc);
			pc_sink_printf(k, " samples, %.2f%%\n",
				       t.total > 0 ? nosrc * 100.0 / t.total : 0);
		}
		if (nofunc > 0) {
			pc_sink_puts(k, "\nIn no function (outside the program's code or in data): ");
			pc_sink_count(k, nofunc);
			pc_sink_printf(k, " samples, %.2f%%\n", t.total > 0 ? nofunc * 100.0 / t.total : 0);
		}
	}
	st = k->failed;
out:
	pc_rowfilter_dispose(&rf);
	free(v);
	pc_profile_free(q);
	return st;
}

const pc_report pc_report_source = {
	"source",
	"annotated source: count and percent of each source line (DWARF; "
	"option source-select=FUNCTION|FILE)",
	source_render};

/* ---- locations ------------------------------------------------------------- */

static int put_location(pc_profile *p, pc_dwarf *d, pc_outfmt fmt, pc_sink *k,
			uint64_t addr, double count, int *first)
{
	const pc_srcframe *f;
	size_t nf;
	int st = pc_dwarf_lookup_frames(d, addr, &f, &nf);
	if (st) {
		const pc_error *e = pc_dwarf_error(d);
		return pc_profile_fail(p, st, "%s", e ? e->message : "DWARF");
	}
	if (fmt == PC_OUT_JSON) {
		pc_sink_printf(k, "%s  {\"address\": %llu, \"count\": ", *first ? "\n" : ",\n",
			       (unsigned long long)addr);
		pc_sink_count(k, count);
		pc_sink_puts(k, ", \"frames\": [");
		for (size_t i = 0; i < nf; i++) {
			pc_sink_puts(k, i ? ", {\"function\": " : "{\"function\": ");
			if (f[i].function)
				pc_sink_json_string(k, f[i].function);
			else
				pc_sink_puts(k, "null");
			pc_sink_puts(k, ", \"file\": ");
			if (f[i].file)
				pc_sink_json_string(k, f[i].file);
			else
				pc_sink_puts(k, "null");
			pc_sink_printf(k, ", \"line\": %u, \"column\": %u}", f[i].line,
				       f[i].column);
		}
		pc_sink_puts(k, "]}");
		*first = 0;
		return PC_OK;
	}
	if (fmt == PC_OUT_CSV) {
		pc_sink_printf(k, "0x%llx,", (unsigned long long)addr);
		pc_sink_count(k, count);
		pc_sink_putc(k, ',');
		/* frames joined with " < " (innermost first) */
		pc_sink s2;
		pc_sink_init(&s2);
		for (size_t i = 0; i < nf; i++)
			pc_sink_printf(&s2, "%s%s at %s:%u:%u", i ? " < " : "",
				       f[i].function ? f[i].function : "??",
				       f[i].file ? f[i].file : "??", f[i].line, f[i].column);
		pc_sink_putc(&s2, '\0');
		pc_sink_csv_field(k, s2.buf ? s2.buf : "");
		pc_sink_dispose(&s2);
		pc_sink_putc(k, '\n');
		return PC_OK;
	}
	pc_sink_printf(k, "0x%-10llx ", (unsigned long long)addr);
	char buf[48];
	pc_sink_printf(k, "%10s", pc_fmt_count(count, buf, sizeof buf));
	if (!nf)
		pc_sink_puts(k, "  ??");
	for (size_t i = 0; i < nf; i++)
		pc_sink_printf(k, "%s%s at %s:%u:%u", i ? "\n                         inlined in " : "  ",
			       f[i].function ? f[i].function : "??",
			       f[i].file ? f[i].file : "??", f[i].line, f[i].column);
	pc_sink_putc(k, '\n');
	return PC_OK;
}

static int locations_render(pc_profile *p, const pc_options *o, pc_sink *k)
{
	pc_outfmt fmt;
	pc_dwarf *d;
	int st;
	if ((st = pc_rs_outfmt(p, o, &fmt)) || (st = pc_profile_dwarf(p, o, &d)))
		return st;
	if (pc_samples_binned(p->samples))
		return pc_profile_fail(p, PC_EUNSUPPORTED,
				       "locations: the raw samples were counted per symbol, not per address (more than %zu distinct addresses)",
				       (size_t)1 << 17);
	size_t ns = pc_samples_distinct(p->samples);
	const pc_sample *s = pc_samples_sorted(p->samples);
	if (ns && !s)
		return pc_profile_fail(p, PC_ENOMEM, "out of memory");
	/* --focus/--ignore/--hide: the addresses in functions that pass
	 * (a bucket by its start), two passes: the totals first */
	pc_rowfilter rf;
	double all = 0, kept = 0;
	if ((st = pc_rowfilter_init(p, o, &rf)))
		goto out;
	for (int pass = rf.any ? 0 : 1; pass < 2; pass++) {
		int first = 1;
		if (pass == 1 && fmt == PC_OUT_CSV) {
			pc_sink_puts(k, "address,count,frames\n");
		} else if (pass == 1 && fmt == PC_OUT_JSON) {
			pc_sink_puts(k, "{\"report\": \"locations\", ");
			if (rf.any) {
				pc_sink_puts(k, "\"filters\": ");
				pc_filter_json(o, k);
				pc_sink_puts(k, ", \"filtered_out\": ");
				pc_sink_count(k, all - kept);
				pc_sink_puts(k, ", ");
			}
			pc_sink_puts(k, "\"locations\": [");
		} else if (pass == 1) {
			pc_filter_totals_line(&rf, kept, all, k);
			pc_sink_printf(k, "%-12s %10s  %s\n", "address", "count",
				       "function at file:line:column (inline chain, innermost first)");
		}
		size_t nh = p->nhists;
		for (size_t i = 0; i < nh + ns; i++) {
			const pc_histogram *H = i < nh ? &p->hists[i].h : NULL;
			size_t nb = H ? H->nbins : 1;
			long double w = H ? (long double)(H->high - H->low) /
						    (long double)H->nbins : 0;
			for (size_t b = 0; b < nb; b++) {
				uint32_t seg = H ? H->segment : s[i - nh].segment;
				uint64_t a = H ? H->low + (uint64_t)(w * (long double)b)
					       : s[i - nh].address;
				double c = H ? (double)H->counts[b] : (double)s[i - nh].count;
				if (!(c > 0))
					continue;
				int keep = pc_rowfilter_keep_at(&rf, seg, a);
				if (keep < 0) {
					st = keep;
					goto out;
				}
				if (pass == 0) {
					all += c;
					kept += keep ? c : 0;
				} else if (keep &&
					   (st = put_location(p, d, fmt, k, a, c, &first))) {
					goto out;
				}
			}
		}
		if (pass == 1 && fmt == PC_OUT_JSON)
			pc_sink_puts(k, "\n]}\n");
	}
	st = k->failed;
out:
	pc_rowfilter_dispose(&rf);
	return st;
}

const pc_report pc_report_locations = {
	"locations",
	"each distinct sampled address with its source location and inline chain (DWARF)",
	locations_render};
