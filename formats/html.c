/*
 * html.c - the self-contained HTML report (`profcat -F html`, `-r html`)
 * and the HTML diff (`profcat diff -F html`).
 *
 * One page, no network: the style sheet and script are profcore's own
 * (formats/html/report.css, report.js), compiled into the library by
 * formats/html/embed.py and inlined into the page.  The data is the JSON
 * the other reports already write, so the page shows the same facts as
 * `-F json` (same rows, totals, intervals, warnings), and, in a compact
 * form, the two call models:
 *
 *   flat       the flat report with zero-hit rows and confidence
 *              intervals (ci=95 unless the user set ci)
 *   regions    the region summary
 *   calls      the call graph model of the callgraph report (caller /
 *              callee tables; calls_json below), or null
 *   flame      the call-path model of the exports (flame_json below)
 *   source     the source report when line data exists, or null
 *
 * in two elements: <script type="application/json" id="pc-data">, before
 * the code, holds what the first view shows (the version, the flat
 * header and its first FIRST_ROWS rows, the region summary);
 * <script type="application/gzip" id="pc-data-rest">, after the code,
 * the other rows ("flat_data") and the other views as JSON, gzip'ed and
 * base64'ed (put_rest), which the page reads after it has shown the
 * first view (a 50,000-function profile's first view needs 250 rows,
 * not all of its 5 to 9 MB of JSON).  Every name
 * went through pc_sink_json_string (pc_name_escape: valid UTF-8, no
 * control bytes); here '<', '>' and '&' become \u003c, \u003e, \u0026, so
 * no name can end the script element ("</script>") or open a comment.
 * Those three characters occur only inside JSON strings, where the
 * escapes mean the same characters.  A Content-Security-Policy in the
 * page forbids every network request.
 */
#include "stackfilter.h"
#include "export.h"
#include "rowset.h"
#include "render.h"
#include "stats_reports.h"
#include "dwarf_internal.h"
#include "html_source.h"

#include <stdlib.h>
#include <string.h>
#include <zlib.h>

extern const unsigned char pc_html_report_js[];
extern const size_t pc_html_report_js_len;
extern const unsigned char pc_html_report_css[];
extern const size_t pc_html_report_css_len;

/* the reports the page embeds (flat.c, regions.c, source.c) */
extern const pc_report pc_report_flat;
extern const pc_report pc_report_regions;
extern const pc_report pc_report_source;

/* Appends JSON text with '<', '>', '&' written as \u escapes and trailing
 * white space dropped. */
static void put_json_safe(pc_sink *k, const char *s, size_t n)
{
	while (n > 0 && (s[n - 1] == '\n' || s[n - 1] == ' '))
		n--;
	size_t from = 0;
	for (size_t i = 0; i < n; i++) {
		const char *esc = s[i] == '<' ? "\\u003c"
				  : s[i] == '>' ? "\\u003e"
				  : s[i] == '&' ? "\\u0026"
						: NULL;
		if (!esc)
			continue;
		pc_sink_write(k, s + from, i - from);
		pc_sink_puts(k, esc);
		from = i + 1;
	}
	pc_sink_write(k, s + from, n - from);
}

/* A copy of o with output-format=json (the page's data) and more. */
static pc_options *json_options(const pc_options *o)
{
	pc_options *c;
	if (pc_options_new(&c))
		return NULL;
	for (size_t i = 0; i < pc_options_count(o); i++) {
		const char *key = pc_options_key_at(o, i);
		if (pc_options_set(c, key, pc_options_get(o, key))) {
			pc_options_free(c);
			return NULL;
		}
	}
	if (pc_options_set(c, "output-format", "json")) {
		pc_options_free(c);
		return NULL;
	}
	return c;
}

/* Writes `,"key": DOCUMENT` for report `report` of p, or, when the report
 * cannot be made from this profile (no arcs, no line data),
 * `,"key": null, "key_error": "why"` so the page can say why the view is
 * empty.  Only running out of memory is an error of the page. */
static int put_report(pc_sink *k, pc_profile *p, const pc_report *report,
		      const pc_options *jo, const char *key)
{
	char *buf = NULL;
	size_t len = 0;
	pc_sink rk;
	pc_sink_init(&rk);
	int st = pc_sink_take(p, &rk, pc_report_run(report, p, jo, &rk), &buf, &len);
	pc_sink_printf(k, ",\n\"%s\": ", key);
	if (st == PC_ENOMEM)
		return st;
	if (st) {
		const pc_error *e = pc_profile_error(p);
		pc_sink_printf(k, "null, \"%s_error\": ", key);
		pc_sink_json_string(k, e && e->message ? e->message : "not available");
		return k->failed;
	}
	put_json_safe(k, buf, len);
	pc_free(buf);
	return k->failed;
}

/* Rows the page shows before it reads the rest of its data: the first
 * view (the header and the top of the flat table) needs only these. */
#define FIRST_ROWS 250
/* the icicle view's nodes at most (a 5,000-deep chain of distinct paths
 * had 5 million: 21 MB of page) */
#define HTML_MAXNODES 100000

/* The flat table's "columns" (pc_rs_fields' names), in put_row's order:
 * segment only when some row has one, the interval only with ci. */
static const pc_rs_field flat_columns[] = {
	PC_RF_RANK,    PC_RF_SYMBOL,	  PC_RF_SEGMENT, PC_RF_ADDRESS,
	PC_RF_COUNT,   PC_RF_PERCENT,	  PC_RF_CUM_PERCENT, PC_RF_CI_LOW,
	PC_RF_CI_HIGH, PC_RF_CALLS, PC_RF_SELF_CALLS,
};

static void put_columns(pc_sink *json, int seg, int ci)
{
	const char *sep = "";
	pc_sink_puts(json, ",\n  \"columns\": [");
	for (size_t i = 0; i < sizeof flat_columns / sizeof flat_columns[0]; i++) {
		pc_rs_field f = flat_columns[i];
		if ((f == PC_RF_SEGMENT && !seg) || ((f == PC_RF_CI_LOW || f == PC_RF_CI_HIGH) && !ci))
			continue;
		pc_sink_printf(json, "%s\"%s\"", sep, pc_rs_fields[f].name);
		sep = ", ";
	}
	pc_sink_puts(json, "],\n  \"data\": [");
}

/* One flat row as an array of the "columns" (numbers without printf:
 * pc_sink_u64 and pc_sink_fixed print its bytes, a tenth of the
 * instructions for 50,000 rows). */
static void put_row(pc_sink *json, const pc_rowset *rs, const pc_rs_row *x, int seg, int ci)
{
	pc_sink_puts(json, "\n[");
	pc_sink_u64(json, x->rank, 0);
	pc_sink_putc(json, ',');
	pc_sink_json_string(json, x->label);
	if (seg) {
		if (x->segment != PC_NOSEG) {
			pc_sink_putc(json, ',');
			pc_sink_u64(json, x->segment, 0);
		} else {
			pc_sink_puts(json, ",null");
		}
	}
	if (x->region < 0) {
		pc_sink_putc(json, ',');
		pc_sink_u64(json, x->address, 0);
		pc_sink_putc(json, ',');
	} else {
		pc_sink_puts(json, ",null,");
	}
	pc_sink_count(json, x->count);
	pc_sink_putc(json, ',');
	pc_sink_fixed(json, x->percent, 0, 4);
	pc_sink_putc(json, ',');
	pc_sink_fixed(json, x->cum_percent, 0, 4);
	if (ci) {
		double lo, hi;
		pc_rowset_ci(rs, x->count, &lo, &hi);
		pc_sink_putc(json, ',');
		pc_sink_fixed(json, lo, 0, 4);
		pc_sink_putc(json, ',');
		pc_sink_fixed(json, hi, 0, 4);
	}
	pc_sink_putc(json, ',');
	pc_sink_u64(json, x->calls, 0);
	pc_sink_putc(json, ',');
	pc_sink_u64(json, x->self_calls, 0);
	pc_sink_putc(json, ']');
}

/* The flat table: the header of the flat report's JSON (same sources,
 * totals, rate, ci, warnings; its "rows" left empty) and the same rows
 * as arrays under "columns"/"data" (a third of the size: 50,000 rows
 * are 4 MB instead of 10).  Numbers are written as -F json writes them;
 * self seconds are count / rate_hz.  Only the first FIRST_ROWS rows go
 * into k with the header, and what the table needs to know of all rows
 * before it has them ("nrows"; "has_calls": some row has calls;
 * "zero_rows": rows without samples or calls; "max_percent": the
 * largest percent or interval end, the bars' scale); the others go to
 * rest as one JSON array. */
static int flat_json(pc_sink *k, pc_sink *rest, pc_profile *p, const pc_options *fo)
{
	static const pc_rowset_spec spec = {PC_BASE_TOTAL, PC_TIE_NAME, 0};
	pc_profile *g = NULL;
	int st = pc_profile_granular(p, fo, &g);
	if (st)
		return st;
	pc_profile *q = g ? g : p;
	pc_rowset rs;
	if ((st = pc_rowset_build(q, fo, &spec, &rs))) {
		if (g) {
			const pc_error *e = pc_profile_error(g);
			st = pc_profile_fail(p, st, "%s", e ? e->message : "cannot render");
		}
		pc_profile_free(g);
		return st;
	}
	pc_sink json;
	pc_sink_init(&json);
	size_t n = rs.n;
	rs.n = 0;
	pc_rowset_json(q, &rs, "flat", NULL, NULL, NULL, &json);
	rs.n = n;
	/* reopen the object: drop the final "}\n" */
	while (json.len > 0 && (json.buf[json.len - 1] == '\n' || json.buf[json.len - 1] == '}'))
		json.len--;
	int seg = 0, ci = rs.ci_z > 0 && !rs.exact, calls = 0;
	size_t zero = 0;
	double maxv = 0;
	for (size_t i = 0; i < n; i++) {
		const pc_rs_row *x = &rs.rows[i];
		seg |= x->segment != PC_NOSEG;
		calls |= x->calls || x->self_calls;
		zero += !x->count && !x->calls && !x->self_calls;
		if (x->percent > maxv)
			maxv = x->percent;
		if (ci) {
			double lo, hi;
			pc_rowset_ci(&rs, x->count, &lo, &hi);
			if (hi > maxv)
				maxv = hi;
		}
	}
	pc_sink_printf(&json, ",\n  \"nrows\": %zu, \"has_calls\": %s, \"zero_rows\": %zu, "
		       "\"max_percent\": %.4f", n, calls ? "true" : "false", zero, maxv);
	put_columns(&json, seg, ci);
	for (size_t i = 0; i < n && i < FIRST_ROWS; i++) {
		if (i)
			pc_sink_putc(&json, ',');
		put_row(&json, &rs, &rs.rows[i], seg, ci);
	}
	pc_sink_puts(&json, "]}");
	pc_sink more;
	pc_sink_init(&more);
	pc_sink_putc(&more, '[');
	for (size_t i = FIRST_ROWS; i < n; i++) {
		if (i > FIRST_ROWS)
			pc_sink_putc(&more, ',');
		put_row(&more, &rs, &rs.rows[i], seg, ci);
	}
	pc_sink_putc(&more, ']');
	pc_rowset_dispose(&rs);
	pc_profile_free(g);
	if (json.failed || more.failed) {
		pc_sink_dispose(&json);
		pc_sink_dispose(&more);
		return pc_profile_fail(p, PC_ENOMEM, "out of memory");
	}
	put_json_safe(k, json.buf, json.len);
	put_json_safe(rest, more.buf, more.len);
	pc_sink_dispose(&json);
	pc_sink_dispose(&more);
	return k->failed || rest->failed ? pc_profile_fail(p, PC_ENOMEM, "out of memory") : PC_OK;
}

/* The flame (icicle) data, from the call-path model every export uses
 * (pc_xmodel_build, export.h): the caller chains merged into a tree,
 * written in depth-first order as "nodes": [depth, frame, value]...,
 * value = the samples of every chain through the node (a chain carries
 * its leaf's self count times its fraction).  "estimate" says that the
 * chains were derived from call counts (arcs never record stacks);
 * without arcs every frame is a root of its own.  At most HTML_MAXNODES
 * nodes: the smallest beyond are left out ("elided": how many,
 * "elided_below": the least value kept), their samples in their
 * parents.  Kept in this one
 * function so that a change of the model's interface touches only
 * this. */
static int flame_json(pc_sink *k, pc_profile *p, const pc_options *o)
{
	pc_xmodel m;
	memset(&m, 0, sizeof m);
	int st = pc_xmodel_build(&m, p, o);
	pc_sink_puts(k, ",\n\"flame\": ");
	if (st) {
		if (st == PC_ENOMEM)
			return st;
		const pc_error *e = pc_profile_error(p);
		pc_sink_puts(k, "null, \"flame_error\": ");
		pc_sink_json_string(k, e && e->message ? e->message : "not available");
		return k->failed;
	}
	pc_xtree t;
	if ((st = pc_xtree_build(&t, &m, 0, 0, HTML_MAXNODES))) {
		pc_xmodel_free(&m);
		return st;
	}
	pc_sink json;
	pc_sink_init(&json);
	pc_sink_printf(&json, "{\"estimate\": %s, \"arc_time\": %s, \"unit\": ",
		       m.narcs > 0 ? "true" : "false", m.arc_time ? "true" : "false");
	pc_sink_json_string(&json, m.arc_time ? "microseconds" : "samples");
	if (t.elided) {
		pc_sink_printf(&json, ", \"elided\": %zu, \"elided_below\": ", t.elided);
		pc_sink_xnumber(&json, t.threshold);
	}
	pc_sink_puts(&json, ",\n \"frames\": [");
	for (size_t i = 0; i < m.nframes; i++) {
		pc_sink_puts(&json, i ? "," : "");
		pc_sink_json_string(&json, m.frames[i].name);
	}
	if (m.marked) /* the [estimated] root of stacks=marked */
		pc_sink_puts(&json, m.nframes ? ",\"[estimated]\"" : "\"[estimated]\"");
	pc_sink_puts(&json, "],\n \"nodes\": [");
	for (size_t i = 0; i < t.n; i++) {
		if (i)
			pc_sink_putc(&json, ',');
		pc_sink_u64(&json, t.v[i].depth, 0);
		pc_sink_putc(&json, ',');
		pc_sink_u64(&json, t.v[i].frame, 0);
		pc_sink_putc(&json, ',');
		pc_sink_xnumber(&json, t.v[i].value);
	}
	pc_sink_puts(&json, "]}");
	pc_xtree_free(&t);
	pc_xmodel_free(&m);
	if (json.failed) {
		pc_sink_dispose(&json);
		return PC_ENOMEM;
	}
	put_json_safe(k, json.buf, json.len);
	pc_sink_dispose(&json);
	return k->failed;
}

static int cmp_edge(const void *a, const void *b)
{
	const pc_cg_edge *x = a, *y = b;
	double u = x->self + x->children, v = y->self + y->children;
	if (u != v)
		return u > v ? -1 : 1;
	return x->count > y->count ? -1 : x->count < y->count;
}

/* The caller/callee tables' data, from the call graph model of the
 * callgraph report (pc_profile_callgraph): "nodes": [name, cycle, index,
 * calls, self_calls, self, children, listed] per node (rows first, then
 * one per cycle, name null), "edges": [parent, child, count, self,
 * children] by time, as gprof orders a function's lines. */
static int calls_json(pc_sink *k, pc_profile *p, const pc_options *o)
{
	pc_callgraph *g = NULL;
	/* --focus/--ignore/--hide: the call graph report's filtered
	 * profile (filter.c) */
	pc_profile *fq = NULL;
	int st = pc_filter_profile(p, o, &fq, NULL);
	if (!st)
		st = pc_profile_callgraph(&g, fq ? fq : p, pc_options_callgraph(o));
	if (st && fq) {
		const pc_error *e = pc_profile_error(fq);
		st = pc_profile_fail(p, st, "%s", e ? e->message : "cannot filter");
	}
	pc_sink_puts(k, ",\n\"calls\": ");
	if (st) {
		pc_profile_free(fq);
		pc_callgraph_free(g);
		if (st == PC_ENOMEM)
			return st;
		const pc_error *e = pc_profile_error(p);
		pc_sink_puts(k, "null, \"calls_error\": ");
		pc_sink_json_string(k, e && e->message ? e->message : "not available");
		return k->failed;
	}
	size_t nn = pc_callgraph_node_count(g), ne = pc_callgraph_edge_count(g);
	pc_cg_edge *ev = malloc((ne ? ne : 1) * sizeof *ev);
	if (!ev) {
		pc_callgraph_free(g);
		pc_profile_free(fq);
		return PC_ENOMEM;
	}
	for (size_t i = 0; i < ne; i++)
		pc_callgraph_edge_at(&ev[i], g, i);
	qsort(ev, ne, sizeof *ev, cmp_edge);
	pc_sink json;
	pc_sink_init(&json);
	pc_sink_puts(&json, "{\"total\": ");
	pc_sink_xnumber(&json, pc_callgraph_total(g));
	pc_sink_puts(&json, ",\n \"nodes\": [");
	for (size_t i = 0; i < nn; i++) {
		pc_icg_node n;
		pc_callgraph_inode_at(g, i, &n);
		pc_sink_puts(&json, i ? ",\n  [" : "\n  [");
		if (n.name)
			pc_sink_json_string(&json, n.name);
		else
			pc_sink_puts(&json, "null");
		pc_sink_putc(&json, ',');
		pc_sink_u64(&json, n.cycle, 0);
		pc_sink_putc(&json, ',');
		pc_sink_u64(&json, n.index, 0);
		pc_sink_putc(&json, ',');
		pc_sink_u64(&json, n.calls, 0);
		pc_sink_putc(&json, ',');
		pc_sink_u64(&json, n.self_calls, 0);
		pc_sink_putc(&json, ',');
		pc_sink_xnumber(&json, n.self);
		pc_sink_putc(&json, ',');
		pc_sink_xnumber(&json, n.children);
		pc_sink_puts(&json, n.listed ? ",1]" : ",0]");
	}
	pc_sink_puts(&json, "],\n \"edges\": [");
	for (size_t i = 0; i < ne; i++) {
		pc_sink_puts(&json, i ? ",[" : "[");
		pc_sink_u64(&json, ev[i].parent, 0);
		pc_sink_putc(&json, ',');
		pc_sink_u64(&json, ev[i].child, 0);
		pc_sink_putc(&json, ',');
		pc_sink_u64(&json, ev[i].count, 0);
		pc_sink_putc(&json, ',');
		pc_sink_xnumber(&json, ev[i].self);
		pc_sink_putc(&json, ',');
		pc_sink_xnumber(&json, ev[i].children);
		pc_sink_putc(&json, ']');
	}
	pc_sink_puts(&json, "]}");
	free(ev);
	pc_callgraph_free(g);
	pc_profile_free(fq);
	if (json.failed) {
		pc_sink_dispose(&json);
		return PC_ENOMEM;
	}
	put_json_safe(k, json.buf, json.len);
	pc_sink_dispose(&json);
	return k->failed;
}

static void page_start(pc_sink *k, const char *title)
{
	pc_sink_puts(k, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
		     "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
		     "style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:\">\n"
		     "<meta name=\"generator\" content=\"profcore ");
	pc_sink_html(k, pc_version());
	pc_sink_puts(k, "\">\n<title>");
	pc_sink_html(k, title);
	pc_sink_puts(k, "</title>\n<style>\n");
	pc_sink_write(k, pc_html_report_css, pc_html_report_css_len);
	pc_sink_puts(k, "</style>\n</head>\n<body>\n"
		     "<div id=\"app\"><p id=\"noscript\">This report needs JavaScript.</p></div>\n"
		     "<script type=\"application/json\" id=\"pc-data\">\n");
}

/* Writes n bytes as base64 (RFC 4648), 76 characters a line. */
static void put_base64(pc_sink *k, const unsigned char *b, size_t n)
{
	static const char a[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
	char line[80];
	size_t l = 0;
	for (size_t i = 0; i < n; i += 3) {
		uint32_t v = (uint32_t)b[i] << 16;
		if (i + 1 < n)
			v |= (uint32_t)b[i + 1] << 8;
		if (i + 2 < n)
			v |= b[i + 2];
		line[l++] = a[v >> 18 & 63];
		line[l++] = a[v >> 12 & 63];
		line[l++] = i + 1 < n ? a[v >> 6 & 63] : '=';
		line[l++] = i + 2 < n ? a[v & 63] : '=';
		if (l == 76) {
			line[l++] = '\n';
			pc_sink_write(k, line, l);
			l = 0;
		}
	}
	pc_sink_write(k, line, l);
}

/* The data the page reads after its first view, gzip'ed (zlib, fastest
 * level: JSON of numbers shrinks to a quarter; the page reads it with
 * the browser's DecompressionStream) and base64'ed: a third of the
 * bytes to load before the page is shown. */
static int put_rest(pc_sink *k, const pc_sink *rest, const char *id)
{
	z_stream z;
	memset(&z, 0, sizeof z);
	if (deflateInit2(&z, 1, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK)
		return PC_ENOMEM;
	size_t cap = rest->len + rest->len / 1000 + 64, done = 0;
	unsigned char *out = malloc(cap);
	const unsigned char *in = (const unsigned char *)rest->buf;
	size_t left = rest->len;
	int zr = Z_OK;
	while (out && zr != Z_STREAM_END) {
		if (done == cap) {
			unsigned char *o = realloc(out, cap * 2);
			if (!o) {
				free(out);
				out = NULL;
				break;
			}
			out = o;
			cap *= 2;
		}
		/* zlib counts in uInt: at most 1 GiB a call */
		uInt nin = left > (1u << 30) ? 1u << 30 : (uInt)left;
		uInt nout = cap - done > (1u << 30) ? 1u << 30 : (uInt)(cap - done);
		z.next_in = (Bytef *)(uintptr_t)in;
		z.avail_in = nin;
		z.next_out = out + done;
		z.avail_out = nout;
		zr = deflate(&z, nin == left ? Z_FINISH : Z_NO_FLUSH);
		in += nin - z.avail_in;
		left -= nin - z.avail_in;
		done += nout - z.avail_out;
		if (zr != Z_OK && zr != Z_STREAM_END && zr != Z_BUF_ERROR) {
			free(out);
			out = NULL;
		}
	}
	deflateEnd(&z);
	if (!out)
		return PC_ENOMEM;
	pc_sink_printf(k, "<script type=\"application/gzip\" data-encoding=\"base64\" id=\"%s\">\n", id);
	put_base64(k, out, done);
	pc_sink_puts(k, "\n</script>\n");
	free(out);
	return k->failed;
}

/* The code, then (rest not NULL) the data the page reads after its first
 * view: placed after the code, it is still being parsed while the code
 * draws the first view. */
static int page_end(pc_sink *k, const pc_sink *rest, const pc_sink *src)
{
	pc_sink_puts(k, "\n</script>\n<script>\n");
	pc_sink_write(k, pc_html_report_js, pc_html_report_js_len);
	pc_sink_puts(k, "</script>\n");
	int st = rest ? put_rest(k, rest, "pc-data-rest") : PC_OK;
	if (!st && src)
		st = put_rest(k, src, "pc-data-src");
	pc_sink_puts(k, "</body>\n</html>\n");
	return st ? st : k->failed;
}

/* Title: "profcore: " and the file names of the sources. */
static void title_of(pc_profile *p, char *buf, size_t cap)
{
	size_t n = (size_t)snprintf(buf, cap, "profcore:");
	for (size_t i = 0; i < pc_profile_source_count(p) && n + 2 < cap; i++)
		n += (size_t)snprintf(buf + n, cap - n, " %s", pc_profile_source_file(p, i));
}

static int render(pc_profile *p, const pc_options *o, pc_sink *k)
{
	pc_options *jo = json_options(o);
	if (!jo)
		return pc_profile_fail(p, PC_ENOMEM, "out of memory");
	int st = PC_OK;
	/* the flat table holds the zero-hit rows too (the page hides them
	 * behind a toggle) and draws each percent's interval */
	pc_options *fo = json_options(jo);
	if (!fo || pc_options_set(fo, "zero", "1") ||
	    (!pc_options_get(fo, "ci") && pc_options_set(fo, "ci", "95"))) {
		st = pc_profile_fail(p, PC_ENOMEM, "out of memory");
		goto done;
	}
	char title[512];
	title_of(p, title, sizeof title);
	/* the flat report's failures (bad options) are the page's */
	pc_sink flat, rest;
	pc_sink_init(&flat);
	pc_sink_init(&rest);
	if ((st = flat_json(&flat, &rest, p, fo))) {
		pc_sink_dispose(&flat);
		pc_sink_dispose(&rest);
		goto done;
	}
	/* the first view's data (header, top rows; and the region
	 * summary, a few rows), the code, then the rest, which the page
	 * parses after it has shown the first view */
	pc_sink more;
	pc_sink_init(&more);
	pc_sink_puts(&more, "{\"flat_data\": ");
	pc_sink_write(&more, rest.buf, rest.len);
	pc_sink_dispose(&rest);
	if ((st = put_report(&flat, p, &pc_report_regions, jo, "regions")) ||
	    (st = calls_json(&more, p, jo)) ||
	    (st = flame_json(&more, p, jo)) ||
	    (st = put_report(&more, p, &pc_report_source, jo, "source")) ||
	    (st = pc_sink_putc(&more, '}') ? PC_ENOMEM : PC_OK)) {
		pc_sink_dispose(&flat);
		pc_sink_dispose(&more);
		goto done;
	}
	/* the Source tab's text and disassembly: read when it is shown */
	pc_sink src, srcsafe;
	pc_sink_init(&src);
	pc_sink_init(&srcsafe);
	if ((st = pc_html_source_json(&src, p, jo))) {
		pc_sink_dispose(&src);
		pc_sink_dispose(&flat);
		pc_sink_dispose(&more);
		goto done;
	}
	put_json_safe(&srcsafe, src.buf, src.len);
	pc_sink_dispose(&src);
	page_start(k, title);
	pc_sink_puts(k, "{\"kind\": \"profile\", \"version\": ");
	pc_sink_json_string(k, pc_version());
	pc_sink_puts(k, ",\n\"flat\": ");
	pc_sink_write(k, flat.buf, flat.len);
	pc_sink_dispose(&flat);
	pc_sink_puts(k, "}");
	st = more.failed || srcsafe.failed ? PC_ENOMEM : page_end(k, &more, &srcsafe);
	pc_sink_dispose(&more);
	pc_sink_dispose(&srcsafe);
done:
	pc_options_free(fo);
	pc_options_free(jo);
	if (st == PC_ENOMEM || k->failed)
		return pc_profile_fail(p, PC_ENOMEM, "out of memory while writing the HTML report");
	return st;
}

static const pc_option_decl html_keys[] = {
	PC_REPORT_OPTION_DECLS,
	{"style", PC_OPTION_STRING, NULL, "default", "the flat table's: default, gprof, atari, ddj or prohst"},
	{"granularity", PC_OPTION_ENUM, "function,symbol,line,file,address", "function",
	 "what a row of the flat table is"},
	{"zero", PC_OPTION_BOOL, NULL, "0", "also list symbols without samples"},
	{"barchart", PC_OPTION_BOOL, NULL, "1", "bar column in the table"},
	{"cutoff", PC_OPTION_DOUBLE, NULL, NULL, "list symbols until this percent is covered"},
	{"percent-of", PC_OPTION_ENUM, "program,total", "program", "what percents are of"},
	PC_FILTER_OPTION_DECLS,
	PC_CI_OPTION_DECL,
	PC_CGTIME_OPTION_DECL,
	PC_DWARF_OPTION_DECLS,
	{"html-disasm", PC_OPTION_STRING, NULL, NULL,
	 "disassembly of the N functions with the most samples (100), or all"},
	PC_OPTION_DECLS_END,
};

const pc_report pc_report_html = {
	.name = "html",
	.description = "self-contained HTML page: header, sortable flat table, regions, "
		       "flame view, call graph, source (also -F html)",
	.options = html_keys,
	.render = render,
};

/* `,"key": {"flame": ...}` (flame_json) of p, escaped for the page: the
 * diff page's icicle of each capture's call paths. */
static int put_paths(pc_sink *k, pc_profile *p, const pc_options *o, const char *key)
{
	pc_sink f;
	pc_sink_init(&f);
	int st = flame_json(&f, p, o);
	if (!st && (f.failed || f.len < 1))
		st = PC_ENOMEM;
	if (!st) {
		pc_sink_printf(k, ",\n\"%s\": {", key);
		put_json_safe(k, f.buf + 1, f.len - 1); /* less flame_json's ',' */
		pc_sink_puts(k, "}");
	}
	pc_sink_dispose(&f);
	return st ? st : k->failed;
}

int pc_html_diff(pc_profile *base, pc_profile *next, const pc_options *o, pc_sink *k)
{
	pc_options *jo = json_options(o);
	if (!jo)
		return pc_profile_fail(next, PC_ENOMEM, "out of memory");
	char *d = NULL;
	size_t dlen = 0;
	pc_sink dk;
	pc_sink_init(&dk);
	int st = pc_sink_take(next, &dk, pc_diff_write(base, next, jo, &dk), &d, &dlen);
	if (st) {
		pc_options_free(jo);
		return st;
	}
	char title[1024];
	title_of(base, title, sizeof title);
	size_t n = strlen(title);
	snprintf(title + n, sizeof title - n, " vs");
	title_of(next, title + strlen(title), sizeof title - strlen(title));
	page_start(k, title);
	pc_sink_puts(k, "{\"kind\": \"diff\", \"version\": ");
	pc_sink_json_string(k, pc_version());
	pc_sink_puts(k, ",\n\"diff\": ");
	put_json_safe(k, d, dlen);
	pc_free(d);
	/* both flat profiles, side by side in the page */
	pc_options *fo = json_options(jo);
	if (!fo || pc_options_set(fo, "zero", "0"))
		st = PC_ENOMEM;
	if (!st && (st = put_report(k, base, &pc_report_flat, fo, "base_flat")) == PC_OK)
		st = put_report(k, next, &pc_report_flat, fo, "new_flat");
	if (!st && (st = put_paths(k, base, fo, "base_paths")) == PC_OK)
		st = put_paths(k, next, fo, "new_paths");
	pc_options_free(fo);
	pc_options_free(jo);
	if (st == PC_ENOMEM || k->failed)
		return pc_profile_fail(next, PC_ENOMEM, "out of memory while writing the HTML diff");
	pc_sink_puts(k, "}");
	return page_end(k, NULL, NULL);
}
