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
 * 0.1 px are left out (their samples stay in their parents' widths).
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

typedef struct tnode {
	size_t frame;
	size_t parent;
	size_t child, next; /* first child, next sibling (after sorting) */
	double value;
	unsigned depth;
} tnode;

typedef struct tree {
	tnode *v;
	size_t n, cap;
	size_t *slot; /* open addressing on (parent, frame): node + 1 */
	size_t nslot;
	const pc_xmodel *m;
} tree;

static size_t slot_of(const tree *t, size_t parent, size_t frame)
{
	uint64_t h = (uint64_t)parent * 0x9E3779B97F4A7C15ull ^
		     (uint64_t)frame * 0xC2B2AE3D27D4EB4Full;
	h ^= h >> 31;
	return (size_t)(h & (uint64_t)(t->nslot - 1));
}

static int rehash(tree *t)
{
	size_t ns = t->nslot ? t->nslot * 2 : 1024;
	size_t *sl = calloc(ns, sizeof *sl);
	if (!sl)
		return PC_ENOMEM;
	free(t->slot);
	t->slot = sl;
	t->nslot = ns;
	for (size_t i = 1; i < t->n; i++) {
		size_t h = slot_of(t, t->v[i].parent, t->v[i].frame);
		while (t->slot[h])
			h = (h + 1) & (ns - 1);
		t->slot[h] = i + 1;
	}
	return PC_OK;
}

/* The child of parent for frame (made if new); PC_XNONE on no memory. */
static size_t child(tree *t, size_t parent, size_t frame)
{
	if ((t->n + 1) * 2 > t->nslot && rehash(t))
		return PC_XNONE;
	size_t h = slot_of(t, parent, frame);
	while (t->slot[h]) {
		const tnode *c = &t->v[t->slot[h] - 1];
		if (c->parent == parent && c->frame == frame)
			return t->slot[h] - 1;
		h = (h + 1) & (t->nslot - 1);
	}
	if (pc_grow((void **)&t->v, &t->cap, t->n + 1, sizeof *t->v))
		return PC_XNONE;
	t->v[t->n] = (tnode){frame, parent, PC_XNONE, PC_XNONE, 0,
			     t->v[parent].depth + 1};
	t->slot[h] = t->n + 1;
	return t->n++;
}

static int cmp_sibling(const void *ctx, size_t a, size_t b)
{
	const tree *t = ctx;
	const pc_xframe *x = &t->m->frames[t->v[a].frame];
	const pc_xframe *y = &t->m->frames[t->v[b].frame];
	int c = strcmp(x->name, y->name);
	if (c)
		return c;
	return t->v[a].frame < t->v[b].frame ? -1 : t->v[a].frame > t->v[b].frame;
}

/* Links every node's children in name order. */
static int link_children(tree *t)
{
	size_t n = t->n;
	size_t *ix = malloc((n ? n : 1) * 2 * sizeof *ix);
	if (!ix)
		return PC_ENOMEM;
	for (size_t i = 0; i < n; i++)
		ix[i] = i;
	/* by parent (counting), then by name inside each parent */
	size_t *cnt = calloc(n + 1, sizeof *cnt);
	if (!cnt) {
		free(ix);
		return PC_ENOMEM;
	}
	for (size_t i = 1; i < n; i++)
		cnt[t->v[i].parent + 1]++;
	for (size_t i = 0; i < n; i++)
		cnt[i + 1] += cnt[i];
	for (size_t i = 1; i < n; i++)
		ix[n + cnt[t->v[i].parent]++] = i;
	/* cnt[p] is now the end of p's run; its start is the previous end */
	size_t start = 0;
	for (size_t p = 0; p < n; p++) {
		size_t end = cnt[p];
		size_t k = end - start;
		size_t *run = ix + n + start;
		pc_sort_idx(run, k, ix, cmp_sibling, t);
		for (size_t j = 0; j < k; j++)
			t->v[run[j]].next = j + 1 < k ? run[j + 1] : PC_XNONE;
		t->v[p].child = k ? run[0] : PC_XNONE;
		start = end;
	}
	free(cnt);
	free(ix);
	return PC_OK;
}

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

static int write_svg(pc_profile *p, const pc_options *o, pc_sink *k)
{
	pc_xmodel m;
	int rc = pc_xmodel_build(&m, p, o);
	if (rc)
		return rc;
	tree t;
	memset(&t, 0, sizeof t);
	t.m = &m;
	size_t *stack = NULL, cap = 0;
	double *xs = NULL;
	rc = PC_ENOMEM;
	if (pc_grow((void **)&t.v, &t.cap, 1, sizeof *t.v) || rehash(&t))
		goto out;
	t.v[0] = (tnode){PC_XNONE, PC_XNONE, PC_XNONE, PC_XNONE, 0, 0};
	t.n = 1;
	for (size_t c = 0; c < m.nchains; c++) {
		const pc_xchain *ch = &m.chains[c];
		double v = m.frames[ch->leaf].self * ch->fraction;
		if (!(v > 0))
			continue;
		size_t node = 0;
		t.v[0].value += v;
		if (m.marked && ch->depth > 1) {
			/* stacks=marked: under an [estimated] root, as folded */
			node = child(&t, node, PC_XNONE - 1);
			if (node == PC_XNONE)
				goto out;
			t.v[node].value += v;
		}
		for (size_t i = 0; i < ch->depth; i++) {
			node = child(&t, node, m.pathpool[ch->first + i]);
			if (node == PC_XNONE)
				goto out;
			t.v[node].value += v;
		}
	}
	/* the [estimated] pseudo-frame of stacks=marked */
	pc_xframe est = {.name = "[estimated]", .segment = PC_NOSEG, .row = -1,
			 .cls = 0};
	size_t nf = m.nframes;
	for (size_t i = 1; i < t.n; i++)
		if (t.v[i].frame == PC_XNONE - 1)
			t.v[i].frame = nf;
	pc_xframe *fx = realloc(m.frames, (nf + 1) * sizeof *fx);
	if (!fx)
		goto out;
	m.frames = fx;
	m.frames[nf] = est;
	if (link_children(&t))
		goto out;

	unsigned maxdepth = 0;
	for (size_t i = 0; i < t.n; i++)
		if (t.v[i].depth > maxdepth)
			maxdepth = t.v[i].depth;
	double total = t.v[0].value;
	double height = SVG_TOP + maxdepth * SVG_FRAME + SVG_BOTTOM;
	double scale = total > 0 ? (SVG_WIDTH - 2 * SVG_PAD) / total : 0;
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
		       "viewBox=\"0 0 %.0f %.0f\" "
		       "xmlns=\"http://www.w3.org/2000/svg\">\n"
		       "<style>text{font-family:Verdana,sans-serif;"
		       "font-size:%.0fpx;fill:#000}.h{font-size:17px}"
		       ".n{font-size:12px;fill:#444}"
		       "g:hover rect{stroke:#000;stroke-width:0.5}</style>\n"
		       "<rect x=\"0\" y=\"0\" width=\"%.0f\" height=\"%.0f\" "
		       "fill=\"#f8f8f8\"/>\n",
		       SVG_WIDTH, height, SVG_WIDTH, height, SVG_FONT, SVG_WIDTH,
		       height);
	pc_sink_printf(k, "<text class=\"h\" x=\"%.0f\" y=\"24\" "
			  "text-anchor=\"middle\">Flame graph of ",
		       SVG_WIDTH / 2);
	pc_sink_html(k, prog);
	pc_sink_puts(k, "</text>\n");
	pc_sink_printf(k, "<text class=\"n\" x=\"%.0f\" y=\"44\" "
			  "text-anchor=\"middle\">",
		       SVG_WIDTH / 2);
	if (m.estimated)
		pc_sink_html(k, PC_XESTIMATE_NOTE);
	else
		pc_sink_puts(k, "stacks as measured");
	if (m.filters) {
		pc_sink_puts(k, "; filters: ");
		pc_sink_html(k, m.filters);
	}
	pc_sink_puts(k, "</text>\n");
	pc_sink_printf(k, "<text class=\"n\" x=\"%.0f\" y=\"%.0f\">",
		       SVG_PAD, height - 10);
	number(k, total);
	pc_sink_printf(k, " %s", unit);
	if (secs) {
		pc_sink_puts(k, ", ");
		number(k, total / m.rate);
		pc_sink_puts(k, " s");
	}
	pc_sink_puts(k, "; width = inclusive time, hover for figures</text>\n");

	/* depth-first walk: every node's x is its parent's x plus the
	 * widths of the siblings before it */
	xs = malloc(t.n * sizeof *xs);
	if (!xs || pc_grow((void **)&stack, &cap, t.n, sizeof *stack))
		goto out;
	size_t sp = 0;
	xs[0] = SVG_PAD;
	stack[sp++] = 0;
	while (sp) {
		size_t i = stack[--sp];
		const tnode *nd = &t.v[i];
		double x = xs[i];
		for (size_t c = nd->child; c != PC_XNONE; c = t.v[c].next) {
			xs[c] = x;
			x += t.v[c].value * scale;
			if (t.v[c].value * scale >= SVG_MINW)
				stack[sp++] = c;
		}
		if (i == 0)
			continue;
		const pc_xframe *fr = &m.frames[nd->frame];
		double w = nd->value * scale;
		double y = height - SVG_BOTTOM - nd->depth * SVG_FRAME;
		pc_sink_puts(k, "<g><title>");
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
			       total > 0 ? 100.0 * nd->value / total : 0.0, xs[i], y,
			       w, SVG_FRAME - 1);
		colour(k, fr);
		pc_sink_puts(k, "\" rx=\"2\"/>");
		size_t fit = w > 6 ? (size_t)((w - 6) / SVG_CHAR) : 0;
		char *label = fit >= 3 ? cut_name(fr->name, fit) : NULL;
		if (label) {
			pc_sink_printf(k, "<text x=\"%.1f\" y=\"%.1f\">", xs[i] + 3,
				       y + SVG_FRAME - 4.5);
			pc_sink_html(k, label);
			pc_sink_puts(k, "</text>");
			free(label);
		}
		pc_sink_puts(k, "</g>\n");
	}
	pc_sink_puts(k, "</svg>\n");
	rc = k->failed;
out:
	if (rc == PC_ENOMEM)
		pc_profile_fail(p, PC_ENOMEM, "out of memory writing svg");
	free(xs);
	free(stack);
	free(t.v);
	free(t.slot);
	pc_xmodel_free(&m);
	return rc;
}

const pc_exporter pc_export_svg = {
	.name = "svg",
	.extension = ".svg",
	.description = "flame graph SVG (static, tooltips; like flamegraph.pl)",
	.write = write_svg,
};
