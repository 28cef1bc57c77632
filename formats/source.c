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
	/* -r source FUNCTION: samples of code inlined into FUNCTION, on
	 * FUNCTION's line that calls it; the callee inlined there (its
	 * name as rows show it) */
	const char *inlined;
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

/* A function given by its DWARF (raw) name or as rows show it. */
static int func_matches(pc_profile *p, const char *fn, const char *sel)
{
	return !strcmp(fn, sel) || !strcmp(pc_name_display(p, fn), sel);
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
	for (size_t i = 0; i < ns; i++) {
		pc_sink_puts(k, i ? ", " : " of ");
		pc_sink_name(k, pc_profile_source_file(p, i));
		pc_sink_printf(k, " (%s)", pc_profile_source_format(p, i));
	}
	pc_sink_puts(k, "\nSamples: ");
	pc_sink_count(k, t->total);
	pc_sink_puts(k, " total; percents are of the total; '>' marks lines with 10% or more\n");
	pc_filter_totals_line(rf, t->total - dropped, t->total, k);
}

/* -r source FUNCTION where several functions have that name (a static
 * inline function of a header, one copy per unit at -O0): their lines
 * are the same source lines, so the page counts them together; one line
 * says so, with each one's count of the flat report (the page's header
 * is their sum). */
static int same_name_note(pc_profile *p, const char *sel, pc_sink *k)
{
	size_t n = pc_profile_rows(p), same = 0;
	for (int pass = 0; pass < 2; pass++) {
		size_t shown = 0;
		for (size_t i = 0; i < n; i++) {
			pc_row row;
			int st = pc_profile_row_at(&row, p, i);
			if (st)
				return st;
			if (!func_matches(p, p->syms[row.symbol].name, sel))
				continue;
			if (!pass) {
				same++;
				continue;
			}
			if (!shown++) {
				pc_sink_puts(k, "Function ");
				pc_sink_name(k, sel);
				pc_sink_printf(k, ": %zu functions of that name, counted together:", same);
			}
			pc_sink_puts(k, shown > 1 ? ", " : " ");
			pc_sink_printf(k, row.count == (double)(long long)row.count ? "%.0f" : "%.2f",
				       row.count);
			pc_sink_printf(k, " at 0x%llx", (unsigned long long)row.address);
		}
		if (!pass && same < 2)
			return PC_OK;
	}
	pc_sink_putc(k, '\n');
	return PC_OK;
}

static char *read_text(pc_stream *s, size_t *len)
{
	void *buf = NULL;
	if (pc_stream_read_all(&buf, len, s, (uint64_t)64 << 20))
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
/* Counts of v[a, b) shown for line ln: a function's (by_func: its own
 * lines only, the code inlined into it apart), or the file's. */
static double line_count(const sline *v, size_t a, size_t b, unsigned ln, int by_func)
{
	double c = 0;
	for (size_t i = a; i < b && v[i].line <= ln; i++)
		if (v[i].line == ln && (by_func ? v[i].selected && !v[i].inlined : !v[i].inlined))
			c += v[i].count;
	return c;
}

/* by_func: below line ln, the samples of each callee inlined there,
 * marked with its name */
static void inlined_rows(pc_sink *k, const sline *v, size_t a, size_t b, unsigned ln,
			 double total, int fractional)
{
	for (size_t i = a; i < b && v[i].line <= ln; i++) {
		if (v[i].line != ln || !v[i].inlined || !v[i].selected)
			continue;
		int seen = 0;
		for (size_t j = a; j < i && !seen; j++)
			seen = v[j].line == ln && v[j].inlined && v[j].selected &&
			       !strcmp(v[j].inlined, v[i].inlined);
		if (seen)
			continue;
		double c = 0;
		for (size_t j = i; j < b && v[j].line == ln; j++)
			if (v[j].inlined && v[j].selected && !strcmp(v[j].inlined, v[i].inlined))
				c += v[j].count;
		if (!(c > 0))
			continue;
		margin(k, c, total, fractional);
		pc_sink_printf(k, " %5s  | inlined ", "");
		pc_sink_name(k, v[i].inlined);
		pc_sink_putc(k, '\n');
	}
}

static void text_file(pc_sink *k, const pc_dwarf *d, const sline *v, size_t a,
		      size_t b, unsigned lo, unsigned hi, double total,
		      int fractional, int by_func)
{
	double sum = 0;
	for (size_t i = a; i < b; i++)
		if (by_func ? v[i].selected : !v[i].inlined)
			sum += v[i].count;
	char *path = NULL;
	pc_stream *s = NULL;
	const char *why = NULL;
	int st = pc_dwarf_open_source(d, v[a].file, &path, &s, &why);
	char *text = NULL;
	size_t len = 0;
	if (!st)
		text = read_text(s, &len);
	pc_sink_puts(k, "\nFile ");
	pc_sink_name(k, v[a].file);
	if (path && strcmp(path, v[a].file)) {
		pc_sink_puts(k, " (read from ");
		pc_sink_name(k, path);
		pc_sink_putc(k, ')');
	}
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
			while (j < b && v[j].line == v[i].line)
				j++;
			double c = line_count(v, i, j, v[i].line, by_func);
			if (c > 0 && (!hi || (v[i].line >= lo && v[i].line <= hi))) {
				margin(k, c, total, fractional);
				pc_sink_printf(k, "  %5u\n", v[i].line);
			}
			if (by_func)
				inlined_rows(k, v, i, j, v[i].line, total, fractional);
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
		while (j < b && v[j].line < ln)
			j++;
		size_t j0 = j;
		while (j < b && v[j].line == ln)
			j++;
		double c = line_count(v, j0, j, ln, by_func);
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
			if (by_func)
				inlined_rows(k, v, j0, j, ln, total, fractional);
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

/* A CSV or JSON row of -r source: a line's count, or (inlined) the count
 * of the code of that function inlined at it. */
static void data_row(pc_sink *k, pc_outfmt fmt, const char *file, unsigned line,
		     double c, double total, const char *inlined, int *first)
{
	double pct = total > 0 ? c * 100.0 / total : 0;
	if (fmt == PC_OUT_CSV) {
		pc_sink_csv_field(k, file);
		pc_sink_putc(k, ',');
		pc_sink_u64(k, line, 0);
		pc_sink_putc(k, ',');
		pc_sink_count(k, c);
		pc_sink_putc(k, ',');
		pc_sink_fixed(k, pct, 0, 4);
		pc_sink_putc(k, ',');
		if (inlined)
			pc_sink_csv_field(k, inlined);
		pc_sink_putc(k, '\n');
		return;
	}
	pc_sink_puts(k, *first ? "\n  {\"file\": " : ",\n  {\"file\": ");
	pc_sink_json_string(k, file);
	pc_sink_puts(k, ", \"line\": ");
	pc_sink_u64(k, line, 0);
	pc_sink_puts(k, ", \"count\": ");
	pc_sink_count(k, c);
	pc_sink_puts(k, ", \"percent\": ");
	pc_sink_fixed(k, pct, 0, 4);
	if (inlined) {
		pc_sink_puts(k, ", \"inlined\": ");
		pc_sink_json_string(k, inlined);
	}
	pc_sink_putc(k, '}');
	*first = 0;
}

/* ---- gprof -A: the source annotated with call counts ---------------------- */

/* A source file of gprof's list (source.c first_src_file): the file of
 * each function, newest first. */
typedef struct gfile {
	char *name;                /* as DWARF names it (bfd_find_nearest_line) */
	unsigned nlines;           /* the highest line of a function in it */
	uint64_t calls;            /* its functions' calls */
	const pc_target **line;    /* per line: the first function on it */
	uint64_t *lcalls;          /* per line: the calls of its functions */
} gfile;

/* The file where gprof looks for name (annotate_source: name itself,
 * else in the source-path directories, -I), found and opened under the
 * one rule for every reader of source text (pc_dwarf_open_source,
 * docs/source.md); NULL when none may be read. */
static char *gprof_find(const pc_dwarf *d, const char *name, size_t *len)
{
	char *path = NULL;
	pc_stream *s = NULL;
	const char *why = NULL;
	if (pc_dwarf_open_source(d, name, &path, &s, &why))
		return NULL;
	free(path);
	return read_text(s, len);
}

static int cmp_topline(const void *a, const void *b)
{
	const uint64_t *x = a, *y = b; /* (calls, line) */
	if (x[0] != y[0])
		return x[0] < y[0] ? 1 : -1;
	return x[1] < y[1] ? -1 : (x[1] > y[1]);
}

/* One file as gprof -A prints it (basic_blocks.c print_annotated_source,
 * annotate_with_count; source.c annotate_source). */
static void gprof_file(pc_sink *k, const gfile *f, const char *text, size_t len,
		       const pc_symbol *syms, int first)
{
	if (!first)
		pc_sink_puts(k, "\n\f\n");
	pc_sink_puts(k, "*** File ");
	pc_sink_name(k, f->name);
	pc_sink_puts(k, ":\n");
	unsigned long exec_lines = 0, executed = 0;
	unsigned line = 1;
	for (size_t i = 0; i < len; line++) {
		char note[64] = "";
		const pc_target *t = line <= f->nlines ? f->line[line - 1] : NULL;
		if (t) {
			exec_lines++;
			if (syms[t->symbol].flags & PC_SYMF_FUNC) {
				executed++;
				uint64_t c = f->lcalls[line - 1];
				if (c < 1)
					snprintf(note, sizeof note, "##### -> ");
				else
					snprintf(note, sizeof note, "%llu -> ", (unsigned long long)c);
			}
		}
		pc_sink_printf(k, "%16s", note);
		const char *nl = memchr(text + i, '\n', len - i);
		size_t e = nl ? (size_t)(nl - text) + 1 : len;
		pc_sink_write(k, text + i, e - i);
		i = e;
	}
	/* Top 10 Lines: most calls first, then by line */
	pc_sink_puts(k, "\n\nTop 10 Lines:\n\n     Line      Count\n\n");
	uint64_t *top = malloc((f->nlines ? f->nlines : 1) * 2 * sizeof *top);
	size_t nt = 0;
	for (unsigned l = 0; top && l < f->nlines; l++)
		if (f->line[l] && f->lcalls[l]) {
			top[2 * nt] = f->lcalls[l];
			top[2 * nt + 1] = l + 1;
			nt++;
		}
	if (nt)
		qsort(top, nt, 2 * sizeof *top, cmp_topline);
	for (size_t i = 0; i < nt && i < 10; i++)
		pc_sink_printf(k, "%9u %10llu\n", (unsigned)top[2 * i + 1],
			       (unsigned long long)top[2 * i]);
	free(top);
	pc_sink_puts(k, "\nExecution Summary:\n\n");
	pc_sink_printf(k, "%9lu   Executable lines in this file\n", exec_lines);
	pc_sink_printf(k, "%9lu   Lines executed\n", executed);
	pc_sink_printf(k, "%9.2f   Percent of the file executed\n",
		       exec_lines ? 100.0 * (double)executed / (double)exec_lines : 100.0);
	pc_sink_printf(k, "\n%9llu   Total number of line executions\n",
		       (unsigned long long)f->calls);
	pc_sink_printf(k, "%9.2f   Average executions per line\n",
		       exec_lines ? (double)f->calls / (double)exec_lines : 0.0);
}

/* -r source --style gprof: gprof -A (without basic-block counts: each
 * function's first line carries its calls).  Files in gprof's order
 * (the newest first, as the program's symbol table names them), only
 * those with calls unless "zero"; sources found as gprof finds them
 * ("source-path": gprof's -I directories); a file not found is left out
 * with a warning, as gprof says "could not locate". */
static int source_gprof(pc_profile *p, const pc_options *o, pc_sink *k)
{
	pc_dwarf *d = NULL;
	int st, zero = 0;
	if ((st = pc_rs_bool(p, o, "zero", 0, &zero)) || (st = pc_profile_dwarf(p, o, &d)) ||
	    (st = pc_profile_attribute(p, pc_options_attrib(o))))
		return st;
	pc_symspecs ss; /* -A SYM, -J SYM: gprof's INCL_ANNO, EXCL_ANNO */
	if ((st = pc_symspecs_parse(p, pc_profile_symspecs(p), &ss)))
		return st;
	if ((st = pc_symspecs_resolve(p, &ss, pc_profile_row_find))) {
		pc_symspecs_free(&ss);
		return st;
	}
	gfile *fl = NULL;
	size_t nf = 0, capf = 0;
	/* the files, in symbol table order, each prepended */
	for (size_t i = 0; i < p->nsyms && !st; i++) {
		const pc_symbol *sy = &p->syms[i];
		const pc_srcframe *fr;
		size_t n;
		if (sy->kind != PC_SYM_TEXT)
			continue;
		if ((st = pc_dwarf_lookup_frames(d, sy->address, &fr, &n))) {
			const pc_error *e = pc_dwarf_error(d);
			st = pc_profile_fail(p, st, "%s", e ? e->message : "DWARF");
			break;
		}
		if (!n || !fr[0].file || !fr[0].line || !fr[0].function)
			continue;
		size_t j = 0;
		while (j < nf && strcmp(fl[j].name, fr[0].file))
			j++;
		if (j < nf)
			continue;
		if (pc_grow((void **)&fl, &capf, nf + 1, sizeof *fl)) {
			st = pc_profile_fail(p, PC_ENOMEM, "out of memory");
			break;
		}
		char *name = pc_strdup(fr[0].file);
		if (!name) {
			st = pc_profile_fail(p, PC_ENOMEM, "out of memory");
			break;
		}
		memmove(fl + 1, fl, nf * sizeof *fl);
		fl[0] = (gfile){name, 0, 0, NULL, NULL};
		nf++;
	}
	/* each function onto its file's first line (the symbols by address,
	 * as gprof's symtab) */
	for (int pass = 0; pass < 2 && !st; pass++) {
		for (size_t i = 0; i < p->ntargets && !st; i++) {
			const pc_target *t = &p->targets[i];
			const pc_srcframe *fr;
			size_t n;
			if ((st = pc_dwarf_lookup_frames(d, t->address, &fr, &n))) {
				const pc_error *e = pc_dwarf_error(d);
				st = pc_profile_fail(p, st, "%s", e ? e->message : "DWARF");
				break;
			}
			if (!n || !fr[0].file || !fr[0].line || !fr[0].function ||
			    !pc_symspecs_selected(&ss, PC_SS_INCL_ANNO, i, 0))
				continue;
			gfile *f = NULL;
			for (size_t j = 0; j < nf && !f; j++)
				if (!strcmp(fl[j].name, fr[0].file))
					f = &fl[j];
			if (!f)
				continue;
			if (pass == 0) {
				if (fr[0].line > f->nlines)
					f->nlines = fr[0].line;
				continue;
			}
			f->calls += t->calls;
			if (!f->line[fr[0].line - 1])
				f->line[fr[0].line - 1] = t;
			f->lcalls[fr[0].line - 1] += t->calls;
		}
		for (size_t j = 0; pass == 0 && j < nf && !st; j++) {
			fl[j].line = calloc(fl[j].nlines ? fl[j].nlines : 1, sizeof *fl[j].line);
			fl[j].lcalls = calloc(fl[j].nlines ? fl[j].nlines : 1, sizeof *fl[j].lcalls);
			if (!fl[j].line || !fl[j].lcalls)
				st = pc_profile_fail(p, PC_ENOMEM, "out of memory");
		}
	}
	int first = 1;
	for (size_t j = 0; j < nf && !st; j++) {
		if (!fl[j].nlines || (!zero && !fl[j].calls))
			continue;
		size_t len = 0;
		char *text = gprof_find(d, fl[j].name, &len);
		if (!text) {
			pc_profile_warn(p, "could not locate '%s' (give its directory with -I DIR)",
					fl[j].name);
			continue;
		}
		gprof_file(k, &fl[j], text, len, p->syms, first);
		first = 0;
		free(text);
	}
	for (size_t j = 0; j < nf; j++) {
		free(fl[j].line);
		free(fl[j].lcalls);
		free(fl[j].name);
	}
	free(fl);
	pc_symspecs_free(&ss);
	return st ? st : k->failed;
}

static int source_render(pc_profile *p, const pc_options *o, pc_sink *k)
{
	pc_outfmt fmt;
	int st;
	if ((st = pc_rs_outfmt(p, o, &fmt)))
		return st;
	const char *style = pc_options_get(o, "style");
	if (style && !strcmp(style, "gprof") && fmt == PC_OUT_TEXT)
		return source_gprof(p, o, k);
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
		if (pc_grow((void **)&v, &cap, n + 2, sizeof *v)) {
			st = pc_profile_fail(p, PC_ENOMEM, "out of memory");
			goto out;
		}
		v[n++] = (sline){f[0].file, f[0].line, tg->count, f[0].function, 0, NULL};
		/* code inlined into a selected function: also on the line of
		 * the function that calls it (pprof -list) */
		for (size_t j = 1; sel && j < nf; j++)
			if (f[j].function && f[j].file && f[j].line &&
			    func_matches(p, f[j].function, sel)) {
				v[n++] = (sline){f[j].file, f[j].line, tg->count, f[j].function,
						 0, f[j - 1].function ? pc_name_display(p, f[j - 1].function)
								      : "??"};
				break;
			}
	}
	if (n)
		qsort(v, n, sizeof *v, cmp_sline);
	/* selection: a function's lines, or a file */
	int by_func = 0, any = 0;
	for (size_t i = 0; sel && i < n; i++)
		if (func_matches(p, v[i].function, sel))
			by_func = 1;
	for (size_t i = 0; i < n; i++) {
		v[i].selected = !sel || (by_func ? func_matches(p, v[i].function, sel)
						 : !v[i].inlined && file_matches(v[i].file, sel));
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
		if (!v[i].inlined)
			rest -= v[i].count;
	if (!(rest > 1e-6 * (t.total > 1 ? t.total : 1)))
		rest = 0;
	int fractional = 0;
	for (size_t i = 0; i < n; i++)
		if (v[i].count != (double)(long long)v[i].count)
			fractional = 1;
	if (fmt == PC_OUT_CSV) {
		pc_sink_puts(k, "file,line,count,percent,inlined\n");
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
		if (by_func && (st = same_name_note(p, sel, k)))
			goto out;
	}
	int first = 1;
	for (size_t a = 0; a < n;) {
		size_t b = a;
		double fsum = 0;
		int fsel = 0;
		unsigned flo = 0, fhi = 0;
		while (b < n && !strcmp(v[b].file, v[a].file)) {
			if (!v[b].inlined)
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
				  t.total, fractional, by_func);
		} else {
			for (size_t i = a; i < b;) {
				size_t j = i;
				double c = 0;
				int lsel = 0;
				for (; j < b && v[j].line == v[i].line; j++)
					if (!v[j].inlined) {
						c += v[j].count;
						lsel |= v[j].selected;
					}
				if (lsel && c > 0)
					data_row(k, fmt, v[i].file, v[i].line, c, t.total, NULL, &first);
				/* the code inlined into a selected function, on its
				 * line that calls it, a row per callee */
				for (size_t m = i; by_func && m < j; m++) {
					if (!v[m].inlined || !v[m].selected)
						continue;
					size_t x = i;
					while (x < m && !(v[x].inlined && v[x].selected &&
							  !strcmp(v[x].inlined, v[m].inlined)))
						x++;
					if (x < m)
						continue; /* (counted with the first) */
					double ic = 0;
					for (x = m; x < j; x++)
						if (v[x].inlined && v[x].selected &&
						    !strcmp(v[x].inlined, v[m].inlined))
							ic += v[x].count;
					if (ic > 0)
						data_row(k, fmt, v[m].file, v[m].line, ic, t.total,
							 v[m].inlined, &first);
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
			pc_sink_printf(k, ",%.4f,\n", t.total > 0 ? nosrc * 100.0 / t.total : 0);
		}
		if (!sel && nofunc > 0) {
			pc_sink_puts(k, "[in no function],,");
			pc_sink_count(k, nofunc);
			pc_sink_printf(k, ",%.4f,\n", t.total > 0 ? nofunc * 100.0 / t.total : 0);
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

static const pc_option_decl source_keys[] = {
	PC_REPORT_OPTION_DECLS,
	{"source-select", PC_OPTION_STRING, NULL, NULL, "a function or a source file: its lines only"},
	{"style", PC_OPTION_STRING, NULL, NULL, "gprof: GNU gprof -A's layout (text)"},
	{"zero", PC_OPTION_BOOL, NULL, "0", "also list lines without samples"},
	PC_FILTER_OPTION_DECLS,
	PC_DWARF_OPTION_DECLS,
	PC_OPTION_DECLS_END,
};

const pc_report pc_report_source = {
	.name = "source",
	.description = "annotated source: count and percent of each source line (DWARF; "
		       "option source-select=FUNCTION|FILE)",
	.options = source_keys,
	.render = source_render,
};

/* ---- locations ------------------------------------------------------------- */

/* An address the line table does not cover (the padding after a
 * function's return, code built without -g) is named by its symbol with
 * no file or line, as addr2line -f names it ("dot at ??:?"). */
static int put_location(pc_profile *p, pc_dwarf *d, pc_outfmt fmt, pc_sink *k,
			uint32_t seg, uint64_t addr, double count, int *first)
{
	const pc_srcframe *f;
	size_t nf;
	int st = pc_dwarf_lookup_frames(d, addr, &f, &nf);
	if (st) {
		const pc_error *e = pc_dwarf_error(d);
		return pc_profile_fail(p, st, "%s", e ? e->message : "DWARF");
	}
	pc_srcframe sym = {0};
	if (!nf) {
		int64_t r = pc_profile_row_find(p, seg, addr);
		if (r >= 0) {
			sym.function = p->syms[p->targets[r].symbol].name;
			f = &sym;
			nf = 1;
		}
	}
	if (fmt == PC_OUT_JSON) {
		pc_sink_printf(k, "%s  {\"address\": %llu, \"count\": ", *first ? "\n" : ",\n",
			       (unsigned long long)addr);
		pc_sink_count(k, count);
		pc_sink_puts(k, ", \"frames\": [");
		for (size_t i = 0; i < nf; i++) {
			pc_sink_puts(k, i ? ", {\"function\": " : "{\"function\": ");
			if (f[i].function)
				pc_sink_json_string(k, pc_name_display(p, f[i].function));
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
		for (size_t i = 0; i < nf; i++) {
			pc_sink_printf(&s2, "%s%s at ", i ? " < " : "",
				       f[i].function ? pc_name_display(p, f[i].function) : "??");
			if (f[i].file)
				pc_sink_printf(&s2, "%s:%u:%u", f[i].file, f[i].line, f[i].column);
			else
				pc_sink_puts(&s2, "??:?");
		}
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
	for (size_t i = 0; i < nf; i++) {
		pc_sink_puts(k, i ? "\n                         inlined in " : "  ");
		pc_sink_name(k, f[i].function ? pc_name_display(p, f[i].function) : "??");
		pc_sink_puts(k, " at ");
		if (f[i].file) {
			pc_sink_name(k, f[i].file);
			pc_sink_printf(k, ":%u:%u", f[i].line, f[i].column);
		} else {
			pc_sink_puts(k, "??:?");
		}
	}
	pc_sink_putc(k, '\n');
	return PC_OK;
}

/* locations_render's two passes over the sampled addresses: the
 * totals (pass 0, when filters are given), then the rows */
typedef struct loc_walk {
	pc_profile *p;
	pc_dwarf *d;
	pc_outfmt fmt;
	pc_sink *k;
	int pass, first;
	double all, kept;
} loc_walk;

static int loc_each(void *ctx, uint32_t seg, uint64_t a, double c, int keep)
{
	loc_walk *w = ctx;
	if (w->pass == 0) {
		w->all += c;
		w->kept += keep ? c : 0;
		return PC_OK;
	}
	return keep ? put_location(w->p, w->d, w->fmt, w->k, seg, a, c, &w->first) : PC_OK;
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
	loc_walk w = {p, d, fmt, k, 0, 1, 0, 0};
	if ((st = pc_rowfilter_init(p, o, &rf)))
		goto out;
	for (w.pass = rf.any ? 0 : 1; w.pass < 2; w.pass++) {
		w.first = 1;
		if (w.pass == 1 && fmt == PC_OUT_CSV) {
			pc_sink_puts(k, "address,count,frames\n");
		} else if (w.pass == 1 && fmt == PC_OUT_JSON) {
			pc_sink_puts(k, "{\"report\": \"locations\", ");
			if (rf.any) {
				pc_sink_puts(k, "\"filters\": ");
				pc_filter_json(o, k);
				pc_sink_puts(k, ", \"filtered_out\": ");
				pc_sink_count(k, w.all - w.kept);
				pc_sink_puts(k, ", ");
			}
			pc_sink_puts(k, "\"locations\": [");
		} else if (w.pass == 1) {
			pc_filter_totals_line(&rf, w.kept, w.all, k);
			pc_sink_printf(k, "%-12s %10s  %s\n", "address", "count",
				       "function at file:line:column (inline chain, innermost first)");
		}
		if ((st = pc_rowfilter_each_sampled(p, &rf, s, ns, loc_each, &w)))
			goto out;
		if (w.pass == 1 && fmt == PC_OUT_JSON)
			pc_sink_puts(k, "\n]}\n");
	}
	st = k->failed;
out:
	pc_rowfilter_dispose(&rf);
	return st;
}

static const pc_option_decl locations_keys[] = {
	PC_REPORT_OPTION_DECLS,
	PC_FILTER_OPTION_DECLS,
	PC_DWARF_OPTION_DECLS,
	PC_OPTION_DECLS_END,
};

const pc_report pc_report_locations = {
	.name = "locations",
	.description = "each distinct sampled address with its source location and inline chain (DWARF)",
	.options = locations_keys,
	.render = locations_render,
};
