/*
 * html_source.c - the Source tab's data of the HTML report (html.c):
 * the text of the source files with samples, the code inlined at each
 * line, each function's hottest line, and the disassembly of the
 * functions with the most samples (the reports "source" and "disasm"
 * give the counts; this adds what the page shows beside them).
 *
 * Written as one JSON object that html.c gzip's into its own element
 * (#pc-data-src), decoded when the Source tab is first shown:
 *
 *   "files":   [{"file": NAME (as DWARF names it), "path": the file read
 *              or null, "missing": why there is no text or null,
 *              "lines": [text of line 1, line 2, ...]}], the files of
 *              every sampled address's line, most samples first; null
 *              with "files_error" when the program has no line data
 *   "inlined": [[file index, line, function inlined there, samples]]:
 *              a call site's line and the samples of the code inlined
 *              at it (every level of the inline chain)
 *   "funcs":   [[function, file index, line]]: each function's line with
 *              the most samples of its own (not inlined) code
 *   "disasm":  [the -r disasm -F json document of a function, ...] for
 *              the html-disasm functions with the most samples (100;
 *              all; 0: none), or null with "disasm_error"
 *
 * Source text: tabs expanded to 8 columns, other control bytes shown as
 * '?' (as -r source shows them), invalid UTF-8 as \xNN; at most
 * SRC_BUDGET bytes of text in a page: a file that does not fit whole
 * keeps the lines around its sampled lines, the hottest first, until
 * the budget is spent ("partial": true; the others are null).  --focus/--ignore/--hide keep the samples of the functions
 * that pass, as -r source does.
 */
#include "model.h"
#include "filter.h"
#include "rowset.h"
#include "dwarf_internal.h"
#include "html_source.h"
#include "disasm.h"

#include <stdlib.h>
#include <string.h>

#define SRC_BUDGET ((size_t)512 << 10)
#define SRC_CONTEXT 4 /* lines kept around a sampled line */
#define DISASM_TOP 100

typedef struct hmark {
	const char *file;
	unsigned line;
	const char *fn; /* inlined function (marks) or the function (own) */
	double count;
} hmark;

typedef struct hfile {
	const char *name;
	double count;
} hfile;

static int cmp_mark(const void *a, const void *b)
{
	const hmark *x = a, *y = b;
	/* (the names of one line table are one string: equal pointers) */
	int c = x->file == y->file ? 0 : strcmp(x->file, y->file);
	if (c)
		return c;
	if (x->line != y->line)
		return x->line < y->line ? -1 : 1;
	return x->fn == y->fn ? 0 : strcmp(x->fn, y->fn);
}

/* own code: by function, then by (file, line) */
static int cmp_own(const void *a, const void *b)
{
	const hmark *x = a, *y = b;
	int c = strcmp(x->fn, y->fn);
	return c ? c : cmp_mark(a, b);
}

static int cmp_file_name(const void *a, const void *b)
{
	return strcmp(((const hfile *)a)->name, ((const hfile *)b)->name);
}

static int cmp_file_count(const void *a, const void *b)
{
	const hfile *x = a, *y = b;
	if (x->count != y->count)
		return x->count > y->count ? -1 : 1;
	return strcmp(x->name, y->name);
}

/* merges equal neighbours (cmp == 0) of sorted v, summing their counts */
static size_t merge(hmark *v, size_t n, int (*cmp)(const void *, const void *))
{
	size_t m = 0;
	for (size_t i = 0; i < n; i++) {
		if (m && !cmp(&v[m - 1], &v[i]))
			v[m - 1].count += v[i].count;
		else
			v[m++] = v[i];
	}
	return m;
}

static size_t file_index(const hfile *f, size_t n, const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(f[i].name, name))
			return i;
	return n;
}

/* One line of source text as a JSON string: tabs to spaces, control
 * bytes to '?'. */
static void put_line(pc_sink *k, const char *s, size_t n, pc_sink *tmp)
{
	tmp->len = 0;
	size_t col = 0;
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];
		if (c == '\t') {
			do
				pc_sink_putc(tmp, ' ');
			while (++col % 8);
			continue;
		}
		pc_sink_putc(tmp, c < 32 || c == 127 ? '?' : (char)c);
		if ((c & 0xc0) != 0x80)
			col++;
	}
	while (tmp->len && tmp->buf[tmp->len - 1] == ' ')
		tmp->len--;
	pc_sink_putc(tmp, '\0');
	pc_sink_json_string(k, tmp->failed ? "" : tmp->buf);
}

static int cmp_hot(const void *a, const void *b)
{
	const hmark *x = a, *y = b;
	if (x->count != y->count)
		return x->count > y->count ? -1 : 1;
	return x->line < y->line ? -1 : x->line > y->line;
}

/* own: the sampled lines (hmark) of this file */
static void put_file(pc_sink *k, const pc_dwarf *d, const char *name, size_t *budget,
		     hmark *own, size_t no)
{
	char *path = NULL;
	pc_stream *s = NULL;
	const char *why = NULL;
	void *text = NULL;
	size_t len = 0;
	int st = pc_dwarf_open_source(d, name, &path, &s, &why);
	if (!st) {
		if (pc_stream_read_all(&text, &len, s, (uint64_t)64 << 20))
			text = NULL;
		pc_stream_free(s);
	}
	/* a file larger than what is left: the lines around its hottest
	 * lines (per line: kept or not) */
	unsigned char *keep = NULL;
	size_t nl = 0;
	if (text && len > *budget) {
		const char *t = text;
		for (size_t i = 0; i < len; i++)
			nl += t[i] == '\n';
		nl += len && t[len - 1] != '\n';
		size_t *start = malloc((nl + 1) * sizeof *start);
		keep = calloc(nl + 1, 1);
		if (!start || !keep) {
			free(start);
			free(keep);
			free(text);
			free(path);
			k->failed = PC_ENOMEM;
			return;
		}
		for (size_t i = 0, l = 0; i < len && l < nl; i++)
			if (!i || t[i - 1] == '\n')
				start[l++] = i;
		start[nl] = len;
		if (no)
			qsort(own, no, sizeof *own, cmp_hot);
		size_t used = 0;
		for (size_t i = 0; i < no && used < *budget; i++) {
			size_t c = own[i].line;
			for (size_t l = c > SRC_CONTEXT ? c - SRC_CONTEXT : 1; l <= c + SRC_CONTEXT && l <= nl; l++)
				if (!keep[l - 1]) {
					keep[l - 1] = 1;
					used += start[l] - start[l - 1];
				}
		}
		free(start);
		*budget = used < *budget ? *budget - used : 0;
	} else if (text) {
		*budget -= len;
	}
	pc_sink_puts(k, "\n {\"file\": ");
	pc_sink_json_string(k, name);
	pc_sink_puts(k, ", \"path\": ");
	if (path)
		pc_sink_json_string(k, path);
	else
		pc_sink_puts(k, "null");
	pc_sink_printf(k, ", \"partial\": %s, \"missing\": ", keep ? "true" : "false");
	if (text)
		pc_sink_puts(k, "null");
	else
		pc_sink_json_string(k, why ? why
				    : st == PC_ENOTFOUND || !path
					    ? "source file not found (give its directory in the option source-path)"
					    : "source file cannot be read");
	pc_sink_puts(k, ", \"lines\": [");
	if (text) {
		pc_sink tmp;
		pc_sink_init(&tmp);
		const char *t = text;
		for (size_t pos = 0, i = 0; pos < len; i++) {
			const char *e = memchr(t + pos, '\n', len - pos);
			size_t l = e ? (size_t)(e - (t + pos)) : len - pos;
			if (l && t[pos + l - 1] == '\r')
				l--;
			if (i)
				pc_sink_putc(k, ',');
			if (keep && !keep[i])
				pc_sink_puts(k, "null");
			else
				put_line(k, t + pos, l, &tmp);
			pos += e ? (size_t)(e - (t + pos)) + 1 : l;
		}
		if (tmp.failed)
			k->failed = 1;
		pc_sink_dispose(&tmp);
		free(text);
	}
	free(keep);
	pc_sink_puts(k, "]}");
	free(path);
}

/* put_sources's walk over the sampled addresses: own, each address's
 * line and function; marks, the call sites of the code inlined there */
typedef struct src_walk {
	pc_profile *p;
	pc_dwarf *d;
	hmark *marks, *own;
	size_t nm, cm, no, co;
} src_walk;

static int src_each(void *ctx, uint32_t seg, uint64_t a, double c, int keep)
{
	(void)seg;
	src_walk *w = ctx;
	const pc_srcframe *f;
	size_t nfr;
	if (!keep || pc_dwarf_lookup_frames(w->d, a, &f, &nfr) || !nfr || !f[0].file ||
	    !f[0].line || !f[0].function)
		return PC_OK;
	if (pc_grow((void **)&w->own, &w->co, w->no + 1, sizeof *w->own) ||
	    pc_grow((void **)&w->marks, &w->cm, w->nm + nfr, sizeof *w->marks))
		return PC_ENOMEM;
	hmark m = {f[0].file, f[0].line,
		   pc_name_display(w->p, f[nfr - 1].function ? f[nfr - 1].function : f[0].function), c};
	/* the addresses come in order: the neighbours of one line and
	 * function are one entry before the sort (600,000 sampled buckets
	 * of 50,000 one-line functions are 50,000 entries) */
	if (w->no && !cmp_mark(&w->own[w->no - 1], &m))
		w->own[w->no - 1].count += c;
	else
		w->own[w->no++] = m;
	for (size_t j = 1; j < nfr; j++) {
		if (!f[j].file || !f[j].line || !f[j - 1].function)
			continue;
		m = (hmark){f[j].file, f[j].line, pc_name_display(w->p, f[j - 1].function), c};
		if (w->nm && !cmp_mark(&w->marks[w->nm - 1], &m))
			w->marks[w->nm - 1].count += c;
		else
			w->marks[w->nm++] = m;
	}
	return PC_OK;
}

/* The source part: files, inlined, funcs. */
static int put_sources(pc_sink *k, pc_profile *p, const pc_options *o)
{
	pc_dwarf *d = NULL;
	int st = pc_profile_dwarf(p, o, &d);
	if (st) {
		if (st == PC_ENOMEM)
			return st;
		const pc_error *e = pc_profile_error(p);
		pc_sink_puts(k, "\"files\": null, \"files_error\": ");
		pc_sink_json_string(k, e && e->message ? e->message : "no line information");
		return k->failed ? PC_ENOMEM : PC_OK;
	}
	pc_rowfilter rf;
	hmark *marks = NULL, *own = NULL;
	hfile *files = NULL;
	size_t nm = 0, no = 0, nf = 0, cf = 0;
	if ((st = pc_rowfilter_init(p, o, &rf)))
		goto out;
	size_t ns = pc_samples_binned(p->samples) ? 0 : pc_samples_distinct(p->samples);
	const pc_sample *smp = ns ? pc_samples_sorted(p->samples) : NULL;
	if (ns && !smp) {
		st = PC_ENOMEM;
		goto out;
	}
	/* every sampled address (a histogram's bucket by its start, as
	 * -r locations takes it) */
	src_walk w = {p, d, NULL, NULL, 0, 0, 0, 0};
	st = pc_rowfilter_each_sampled(p, &rf, smp, ns, src_each, &w);
	marks = w.marks, own = w.own, nm = w.nm, no = w.no;
	if (st)
		goto out;
	if (no)
		qsort(own, no, sizeof *own, cmp_mark);
	no = merge(own, no, cmp_mark); /* one entry a (file, line, function) */
	/* the files: of the lines with samples, then of the call sites */
	for (size_t i = 0; i < no + nm; i++) {
		const hmark *x = i < no ? &own[i] : &marks[i - no];
		if (nf && !strcmp(files[nf - 1].name, x->file)) {
			files[nf - 1].count += i < no ? x->count : 0;
			continue;
		}
		if (pc_grow((void **)&files, &cf, nf + 1, sizeof *files)) {
			st = PC_ENOMEM;
			goto out;
		}
		files[nf++] = (hfile){x->file, i < no ? x->count : 0};
	}
	if (nf)
		qsort(files, nf, sizeof *files, cmp_file_name);
	size_t u = 0;
	for (size_t i = 0; i < nf; i++) {
		if (u && !strcmp(files[u - 1].name, files[i].name))
			files[u - 1].count += files[i].count;
		else
			files[u++] = files[i];
	}
	nf = u;
	if (nf)
		qsort(files, nf, sizeof *files, cmp_file_count);
	pc_sink_puts(k, "\"files\": [");
	size_t budget = SRC_BUDGET;
	for (size_t i = 0; i < nf; i++) {
		if (i)
			pc_sink_putc(k, ',');
		/* own is sorted by file: this file's lines */
		size_t a = 0, hi = no;
		while (a < hi) {
			size_t m = a + (hi - a) / 2;
			if (strcmp(own[m].file, files[i].name) < 0)
				a = m + 1;
			else
				hi = m;
		}
		size_t b = a;
		while (b < no && !strcmp(own[b].file, files[i].name))
			b++;
		put_file(k, d, files[i].name, &budget, own + a, b - a);
		if (b > a) /* (put_file sorted them by count) */
			qsort(own + a, b - a, sizeof *own, cmp_mark);
	}
	pc_sink_puts(k, "],\n\"inlined\": [");
	if (nm)
		qsort(marks, nm, sizeof *marks, cmp_mark);
	nm = merge(marks, nm, cmp_mark);
	for (size_t i = 0; i < nm; i++) {
		pc_sink_puts(k, i ? ",[" : "[");
		pc_sink_u64(k, file_index(files, nf, marks[i].file), 0);
		pc_sink_putc(k, ',');
		pc_sink_u64(k, marks[i].line, 0);
		pc_sink_putc(k, ',');
		pc_sink_json_string(k, marks[i].fn);
		pc_sink_putc(k, ',');
		pc_sink_count(k, marks[i].count);
		pc_sink_putc(k, ']');
	}
	pc_sink_puts(k, "],\n\"funcs\": [");
	if (no)
		qsort(own, no, sizeof *own, cmp_own);
	no = merge(own, no, cmp_own);
	int first = 1;
	for (size_t i = 0; i < no;) {
		size_t j = i, best = i;
		for (; j < no && !strcmp(own[j].fn, own[i].fn); j++)
			if (own[j].count > own[best].count)
				best = j;
		pc_sink_puts(k, first ? "\n[" : ",\n[");
		pc_sink_json_string(k, own[best].fn);
		pc_sink_putc(k, ',');
		pc_sink_u64(k, file_index(files, nf, own[best].file), 0);
		pc_sink_putc(k, ',');
		pc_sink_u64(k, own[best].line, 0);
		pc_sink_putc(k, ']');
		first = 0;
		i = j;
	}
	pc_sink_putc(k, ']');
	st = k->failed ? PC_ENOMEM : PC_OK;
out:
	pc_rowfilter_dispose(&rf);
	free(marks);
	free(own);
	free(files);
	return st;
}

/* A copy of o with key=val. */
static pc_options *with_option(const pc_options *o, const char *key, const char *val)
{
	pc_options *c;
	if (pc_options_new(&c))
		return NULL;
	for (size_t i = 0; i < pc_options_count(o); i++) {
		const char *kk = pc_options_key_at(o, i);
		if (strcmp(kk, key) && pc_options_set(c, kk, pc_options_get(o, kk))) {
			pc_options_free(c);
			return NULL;
		}
	}
	if (pc_options_set(c, key, val)) {
		pc_options_free(c);
		return NULL;
	}
	return c;
}

/* The functions with the most samples, in -r disasm's JSON each. */
static int put_disasm(pc_sink *k, pc_profile *p, const pc_options *o)
{
	const char *want = pc_options_get(o, "html-disasm");
	size_t top = DISASM_TOP;
	if (want && strcmp(want, "all")) {
		char *end;
		unsigned long long v = strtoull(want, &end, 10);
		if (!*want || *end || *want == '-')
			return pc_profile_fail(p, PC_EUSAGE,
					       "html-disasm must be all or a number of functions, not '%s'",
					       want);
		top = (size_t)v;
	} else if (want) {
		top = (size_t)-1;
	}
	pc_sink_puts(k, ",\n\"disasm\": [");
	if (!top) {
		pc_sink_puts(k, "], \"disasm_error\": \"no disassembly in this page (html-disasm=0)\"");
		return k->failed ? PC_ENOMEM : PC_OK;
	}
	/* the function rows by samples (the flat report's order) */
	static const pc_rowset_spec spec = {PC_BASE_TOTAL, PC_TIE_NAME, 0};
	pc_options *fo = with_option(o, "granularity", "function");
	pc_rowset rs;
	int st = fo ? pc_rowset_build(p, fo, &spec, &rs) : PC_ENOMEM;
	pc_options_free(fo);
	if (st)
		return st == PC_ENOMEM ? st : PC_OK; /* (the flat table says why) */
	/* their targets: the flat report's order */
	size_t *idx = malloc((rs.n ? rs.n : 1) * sizeof *idx), n = 0;
	if (!idx) {
		pc_rowset_dispose(&rs);
		return PC_ENOMEM;
	}
	for (size_t i = 0; i < rs.n && n < top; i++)
		if (rs.rows[i].region < 0 && rs.rows[i].count > 0)
			idx[n++] = rs.rows[i].row;
	pc_rowset_dispose(&rs);
	st = n ? pc_disasm_json_each(p, o, idx, n, k) : PC_OK;
	free(idx);
	pc_sink_putc(k, ']');
	if (st == PC_ENOMEM)
		return st;
	if (st) {
		/* the first function's failure is every function's (no
		 * Capstone, no program code): said once */
		const pc_error *e = pc_profile_error(p);
		pc_sink_puts(k, ", \"disasm_error\": ");
		pc_sink_json_string(k, e && e->message ? e->message : "not available");
	}
	return k->failed ? PC_ENOMEM : PC_OK;
}

int pc_html_source_json(pc_sink *k, pc_profile *p, const pc_options *o)
{
	pc_sink_putc(k, '{');
	int st = put_sources(k, p, o);
	if (!st)
		st = put_disasm(k, p, o);
	pc_sink_putc(k, '}');
	if (!st && k->failed)
		st = PC_ENOMEM;
	return st;
}
