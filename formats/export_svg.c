/*
 * export_svg.c - a static flame graph (SVG), as FlameGraph's
 * flamegraph.pl draws one: the chains of the export view merged into a
 * tree (root at the bottom, callees above), each frame a box as wide as
 * its inclusive samples, siblings in name order; every box has a
 * <title> tooltip "NAME (N samples, P%)" (and seconds when the rate is
 * known) and, when wide enough, its name as text, cut with "..".
 * The header states how the stacks were made: estimated from call counts
 * (the note every export carries) or measured.  Names go through the one
 * escaping rule (pc_sink_html: the shown form with XML entities), so any
 * name is text and the file is well-formed XML.  Boxes narrower than
 * 0.1 px are left out, as flamegraph.pl's --minwidth does, and the
 * narrowest beyond SVG_MAXBOXES boxes (pc_xtree_build); their samples
 * stay in their parents' widths and the footer says how many.
 * A script of profcore's own (formats/html/flame-svg.js) adds
 * flamegraph.pl's click-to-zoom and search when a browser shows the file;
 * the boxes are drawn without it.  The subtitle is wrapped to the width.
 */
#include "export.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define SVG_WIDTH 1200.0
#define SVG_PAD 10.0
#define SVG_FRAME 16.0
#define SVG_TOP 60.0
#define SVG_BOTTOM 30.0
#define SVG_FONT 12.0
#define SVG_CHAR (SVG_FONT * 0.59) /* average glyph width */
#define SVG_MINW 0.1
/* at most this many boxes: narrower ones go first (a 5,000-deep chain
 * of distinct paths drew 5 million boxes, 547 MB) */
#define SVG_MAXBOXES 20000
#define SVG_LINE 15.0 /* a subtitle line */

extern const unsigned char pc_html_flame_svg_js[];
extern const size_t pc_html_flame_svg_js_len;

/* flamegraph.pl's "hot" palette from a hash of the name; grey for the
 * pseudo-frames outside the program, blue-violet for cycles. */
static void colour(pc_sink *k, const pc_xframe *fr)
{
	if (fr->cls >= 0 || (fr->row < 0 && !fr->cycle)) {
		pc_sink_puts(k, "rgb(190,190,190)");
		return;
	}
	uint64_t h = 1469598103934665603ull;
	for (const unsigned char *s = (const unsigned char *)fr->name; *s; s++)
		h = (h ^ *s) * 1099511628211ull;
	unsigned v1 = (unsigned)(h & 0xff), v2 = (unsigned)((h >> 8) & 0xff),
		 v3 = (unsigned)((h >> 16) & 0xff);
	if (fr->cycle)
		pc_sink_printf(k, "rgb(%u,%u,%u)", 150 + v1 * 50 / 255,
			       130 + v2 * 40 / 255, 220 + v3 * 35 / 255);
	else
		pc_sink_printf(k, "rgb(%u,%u,%u)", 205 + v1 * 50 / 255,
			       v2 * 230 / 255, v3 * 55 / 255);
}

/* The shown form of name cut to at most max characters ("..." style:
 * flamegraph.pl's two dots) at a character boundary; NULL if nothing
 * fits. */
static char *cut_name(const char *name, size_t max)
{
	size_t n = pc_name_escape(NULL, 0, name);
	char *s = malloc(n + 1);
	if (!s)
		return NULL;
	pc_name_escape(s, n + 1, name);
	size_t chars = 0, i = 0, keep = 0;
	for (; s[i]; chars++) {
		if (chars + 2 == max)
			keep = i;
		i++;
		while ((s[i] & 0xc0) == 0x80)
			i++;
	}
	if (chars <= max)
		return s;
	if (max < 3) {
		free(s);
		return NULL;
	}
	s[keep] = '.';
	s[keep + 1] = '.';
	s[keep + 2] = '\0';
	return s;
}

static void number(pc_sink *k, double v)
{
	if (v == floor(v) && fabs(v) < 1e15)
		pc_sink_printf(k, "%.0f", v);
	else
		pc_sink_printf(k, "%.2f", v);
}

/* The lines of text s broken at spaces to at most max characters each
 * (a word longer than a line on its own line): their count, and with k,
 * each as a <tspan> of the subtitle. */
static size_t wrap(pc_sink *k, const char *s, size_t max)
{
	size_t lines = 0;
	while (*s) {
		size_t n = 0, cut = 0, chars = 0;
		while (s[n] && chars < max) {
			if (s[n] == ' ')
				cut = n;
			n++;
			while ((s[n] & 0xc0) == 0x80)
				n++;
			chars++;
		}
		if (!s[n] || !cut)
			cut = n;
		if (k) {
			char *line = malloc(cut + 1);
			if (!line) {
				k->failed = PC_ENOMEM;
				return lines;
			}
			memcpy(line, s, cut);
			line[cut] = '\0';
			pc_sink_printf(k, "<tspan x=\"%.0f\" dy=\"%.0f\">", SVG_WIDTH / 2,
				       lines ? SVG_LINE : 0.0);
			pc_sink_html(k, line);
			pc_sink_puts(k, "</tspan>");
			free(line);
		}
		lines++;
		s += cut;
		while (*s == ' ')
			s++;
	}
	return lines;
}

static int write_svg(pc_profile *p, const pc_options *o, pc_sink *k)
{
	pc_xmodel m;
	int rc = pc_xmodel_build(&m, p, o);
	if (rc)
		return rc;
	pc_xtree t;
	memset(&t, 0, sizeof t);
	double *xs = NULL;
	/* the [estimated] pseudo-frame of stacks=marked, after the frames */
	pc_xframe est = {.name = "[estimated]", .segment = PC_NOSEG, .row = -1,
			 .cls = 0};
	pc_xframe *fx = realloc(m.frames, (m.nframes + 1) * sizeof *fx);
	rc = PC_ENOMEM;
	if (!fx)
		goto out;
	m.frames = fx;
	m.frames[m.nframes] = est;
	double total = 0;
	for (size_t c = 0; c < m.nchains; c++) {
		double v = m.frames[m.chains[c].leaf].self * m.chains[c].fraction;
		if (v > 0)
			total += v;
	}
	double scale = total > 0 ? (SVG_WIDTH - 2 * SVG_PAD) / total : 0;
	if ((rc = pc_xtree_build(&t, &m, 1, scale > 0 ? SVG_MINW / scale : 0,
				 SVG_MAXBOXES)))
		goto out;
	rc = PC_ENOMEM;

	size_t maxdepth = 0;
	for (size_t i = 0; i < t.n; i++)
		if (t.v[i].depth + 1 > maxdepth)
			maxdepth = t.v[i].depth + 1;
	/* the subtitle, in lines that fit the width */
	pc_sink sub;
	pc_sink_init(&sub);
	pc_sink_puts(&sub, m.estimated ? PC_XESTIMATE_NOTE : "stacks as measured");
	if (m.filters) {
		pc_sink_puts(&sub, "; filters: ");
		pc_sink_puts(&sub, m.filters);
	}
	pc_sink_putc(&sub, '\0');
	if (sub.failed) {
		pc_sink_dispose(&sub);
		goto out;
	}
	size_t maxchars = (size_t)((SVG_WIDTH - 2 * SVG_PAD) / SVG_CHAR);
	size_t nsub = wrap(NULL, sub.buf, maxchars);
	double top = SVG_TOP + (double)(nsub > 1 ? nsub - 1 : 0) * SVG_LINE;
	double height = top + (double)maxdepth * SVG_FRAME + SVG_BOTTOM;
	const char *dim = pc_profile_dimension(p);
	int secs = !m.arc_time && m.rate > 0 &&
		   (!dim || !*dim || strcmp(dim, "seconds") == 0);
	const char *unit = m.arc_time ? "microseconds" : "samples";
	const char *prog = pc_profile_program(p);
	if (!prog || !*prog)
		prog = pc_profile_source_count(p) ? pc_profile_source_file(p, 0)
						   : "profile";

	pc_sink_printf(k,
		       "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"no\"?>\n"
		       "<svg version=\"1.1\" width=\"%.0f\" height=\"%.0f\" "
		       "viewBox=\"0 0 %.0f %.0f\" data-base=\"%.0f\" "
		       "xmlns=\"http://www.w3.org/2000/svg\">\n"
		       "<style>text{font-family:Verdana,sans-serif;"
		       "font-size:%.0fpx;fill:#000}.h{font-size:17px}"
		       ".n{font-size:12px;fill:#444}"
		       "g:hover rect{stroke:#000;stroke-width:0.5}"
		       "g.f,.c{cursor:pointer}#reset{opacity:0}</style>\n"
		       "<rect x=\"0\" y=\"0\" width=\"%.0f\" height=\"%.0f\" "
		       "fill=\"#f8f8f8\"/>\n",
		       SVG_WIDTH, height, SVG_WIDTH, height, height - SVG_BOTTOM, SVG_FONT,
		       SVG_WIDTH, height);
	pc_sink_printf(k, "<text class=\"h\" x=\"%.0f\" y=\"24\" "
			  "text-anchor=\"middle\">Flame graph of ",
		       SVG_WIDTH / 2);
	pc_sink_html(k, prog);
	pc_sink_puts(k, "</text>\n");
	pc_sink_printf(k, "<text class=\"n\" id=\"subtitle\" x=\"%.0f\" y=\"44\" "
			  "text-anchor=\"middle\">",
		       SVG_WIDTH / 2);
	wrap(k, sub.buf, maxchars);
	pc_sink_dispose(&sub);
	pc_sink_puts(k, "</text>\n");
	pc_sink_printf(k, "<text class=\"n\" id=\"footer\" x=\"%.0f\" y=\"%.0f\">",
		       SVG_PAD, height - 10);
	number(k, total);
	pc_sink_printf(k, " %s", unit);
	if (secs) {
		pc_sink_puts(k, ", ");
		number(k, total / m.rate);
		pc_sink_puts(k, " s");
	}
	pc_sink_puts(k, "; width = inclusive time, hover for figures");
	if (t.elided)
		pc_sink_printf(k, "; %zu frames narrower than %.2f px not drawn "
				  "(their time is in their callers' widths)",
			       t.elided, t.threshold * scale);
	pc_sink_puts(k, "</text>\n");
	pc_sink_printf(k, "<text class=\"c\" id=\"reset\" x=\"%.0f\" y=\"24\">Reset Zoom</text>\n"
			  "<text class=\"c\" id=\"search\" x=\"%.0f\" y=\"24\" "
			  "text-anchor=\"end\">Search</text>\n"
			  "<text class=\"n\" id=\"matched\" x=\"%.0f\" y=\"%.0f\" "
			  "text-anchor=\"end\"></text>\n",
		       SVG_PAD, SVG_WIDTH - SVG_PAD, SVG_WIDTH - SVG_PAD, height - 10);

	/* depth-first order: a node's x is where the next box of its depth
	 * goes; its children start at its own x */
	xs = malloc((maxdepth + 1) * sizeof *xs);
	if (!xs)
		goto out;
	xs[0] = SVG_PAD;
	for (size_t i = 0; i < t.n; i++) {
		const pc_xnode *nd = &t.v[i];
		const pc_xframe *fr = &m.frames[nd->frame];
		double x = xs[nd->depth], w = nd->value * scale;
		xs[nd->depth] = x + w;
		xs[nd->depth + 1] = x;
		double y = height - SVG_BOTTOM - (double)(nd->depth + 1) * SVG_FRAME;
		pc_sink_puts(k, "<g class=\"f\"><title>");
		pc_sink_html(k, fr->name);
		pc_sink_puts(k, " (");
		number(k, nd->value);
		pc_sink_printf(k, " %s", unit);
		if (secs) {
			pc_sink_puts(k, ", ");
			number(k, nd->value / m.rate);
			pc_sink_puts(k, " s");
		}
		pc_sink_printf(k, ", %.2f%%)</title><rect x=\"%.1f\" y=\"%.0f\" "
				  "width=\"%.1f\" height=\"%.0f\" fill=\"",
			       total > 0 ? 100.0 * nd->value / total : 0.0, x, y,
			       w, SVG_FRAME - 1);
		colour(k, fr);
		pc_sink_puts(k, "\" rx=\"2\"/>");
		size_t fit = w > 6 ? (size_t)((w - 6) / SVG_CHAR) : 0;
		char *label = fit >= 3 ? cut_name(fr->name, fit) : NULL;
		if (label) {
			pc_sink_printf(k, "<text x=\"%.1f\" y=\"%.1f\">", x + 3,
				       y + SVG_FRAME - 4.5);
			pc_sink_html(k, label);
			pc_sink_puts(k, "</text>");
			free(label);
		}
		pc_sink_puts(k, "</g>\n");
	}
	pc_sink_puts(k, "<script type=\"text/ecmascript\"><![CDATA[\n");
	pc_sink_write(k, pc_html_flame_svg_js, pc_html_flame_svg_js_len);
	pc_sink_puts(k, "]]></script>\n</svg>\n");
	rc = k->failed;
out:
	if (rc == PC_ENOMEM)
		pc_profile_fail(p, PC_ENOMEM, "out of memory writing svg");
	free(xs);
	pc_xtree_free(&t);
	pc_xmodel_free(&m);
	return rc;
}

static const pc_option_decl svg_keys[] = {
	PC_EXPORT_OPTION_DECLS,
	PC_OPTION_DECLS_END,
};

const pc_exporter pc_export_svg = {
	.name = "svg",
	.options = svg_keys,
	.extension = ".svg",
	.description = "flame graph SVG (static, tooltips; like flamegraph.pl)",
	.write = write_svg,
};
