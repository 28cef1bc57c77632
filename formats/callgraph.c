/* callgraph.c - call-graph reports over the model of libprofcore/cgmodel.c.
 *
 *   callgraph --style gprof   GNU gprof's -q layout (cg_print.c): parents
 *                             above, children below, <cycle N>, the index
 *                             by function name; same sort orders.
 *   callgraph --style proff   MPW PrintProff's layout: per procedure, by
 *                             hierarchical time, its totals and callers
 *                             by call site with segment transitions.
 *   arcs                      every arc as loaded, one per line.
 *
 * Each has text, csv and json output ("output-format").
 */
#include "dwarf_internal.h"
#include "stackfilter.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define NONE ((size_t)-1)

enum { LT = -1, EQ = 0, GT = 1 };
enum { OUT_TEXT, OUT_CSV, OUT_JSON };

typedef struct edge_t {
	pc_cg_edge e;
	size_t next_parent, next_child; /* gprof's prepended lists */
} edge_t;

typedef struct graph {
	pc_profile *p;
	pc_callgraph *g;
	size_t nn, ne;
	pc_icg_node *n;
	edge_t *e;
	size_t *parents, *children; /* list heads per node */
	size_t *scratch; /* 2 * max(ne, nn) indexes for the sorts */
	double hz;
	int flat; /* times are Proff flat times */
	pc_dwarf *dw; /* the program's DWARF, for the index's (file.c) */
} graph;

static int output_kind(const pc_options *o, pc_profile *p, int *kind)
{
	pc_outfmt f = pc_options_outfmt(o);
	*kind = OUT_TEXT;
	if (f == PC_OUT_CSV)
		*kind = OUT_CSV;
	else if (f == PC_OUT_JSON)
		*kind = OUT_JSON;
	else if (f != PC_OUT_TEXT)
		return pc_profile_fail(p, PC_EUSAGE,
				       "output-format: expected text, csv or "
				       "json, found '%s'", pc_options_get(o, "output-format"));
	return PC_OK;
}

static void graph_free(graph *G)
{
	pc_callgraph_free(G->g);
	free(G->n);
	free(G->e);
	free(G->parents);
	free(G->children);
	free(G->scratch);
}

static int profile_has_arc_times(pc_profile *p)
{
	size_t n = pc_profile_arc_count(p);
	for (size_t i = 0; i < n; i++) {
		pc_arc a;
		pc_profile_arc_at(&a, p, i);
		if (a.htime != 0 || a.ftime != 0)
			return 1;
	}
	return 0;
}

static int graph_build(graph *G, pc_profile *p, const pc_options *o)
{
	memset(G, 0, sizeof *G);
	G->p = p;
	int rc = pc_profile_callgraph(&G->g, p, pc_options_callgraph(o));
	if (rc)
		return rc;
	G->nn = pc_callgraph_node_count(G->g);
	G->ne = pc_callgraph_edge_count(G->g);
	G->n = calloc(G->nn ? G->nn : 1, sizeof *G->n);
	G->e = calloc(G->ne ? G->ne : 1, sizeof *G->e);
	G->parents = malloc((G->nn ? G->nn : 1) * sizeof *G->parents);
	G->children = malloc((G->nn ? G->nn : 1) * sizeof *G->children);
	size_t most = G->ne > G->nn ? G->ne : G->nn;
	G->scratch = malloc((most ? most : 1) * 2 * sizeof *G->scratch);
	if (!G->n || !G->e || !G->parents || !G->children || !G->scratch) {
		graph_free(G);
		return pc_profile_fail(p, PC_ENOMEM, "out of memory");
	}
	for (size_t i = 0; i < G->nn; i++) {
		pc_callgraph_inode_at(G->g, i, &G->n[i]);
		G->parents[i] = G->children[i] = NONE;
	}
	for (size_t i = 0; i < G->ne; i++) {
		pc_callgraph_edge_at(&G->e[i].e, G->g, i);
		G->e[i].next_parent = G->parents[G->e[i].e.child];
		G->parents[G->e[i].e.child] = i;
		G->e[i].next_child = G->children[G->e[i].e.parent];
		G->children[G->e[i].e.parent] = i;
	}
	G->flat = pc_profile_histogram_count(p) == 0 &&
		pc_profile_sample_count(p) == 0;
	const char *tm = pc_options_get(o, "callgraph-time");
	if (tm)
		G->flat = !strcmp(tm, "flat");
	if (G->flat) {
		G->hz = 1e6; /* Proff times are microseconds (unverified) */
	} else {
		G->hz = pc_profile_rate(p);
		if (G->hz <= 0)
			G->hz = 1;
	}
	return PC_OK;
}

/* ---- gprof style ---------------------------------------------------------- */

static int same_cycle(const graph *G, size_t a, size_t b)
{
	return G->n[a].cycle != 0 && G->n[a].cycle == G->n[b].cycle;
}

/* cg_print.c cmp_arc */
static int cmp_arc(const graph *G, size_t l, size_t r)
{
	const pc_cg_edge *a = &G->e[l].e, *b = &G->e[r].e;
	if (a->parent == a->child)
		return LT;
	if (b->parent == b->child)
		return GT;
	if (same_cycle(G, a->parent, a->child)) {
		if (same_cycle(G, b->parent, b->child)) {
			if (a->count < b->count)
				return LT;
			if (a->count > b->count)
				return GT;
			return EQ;
		}
		return LT;
	}
	if (same_cycle(G, b->parent, b->child))
		return GT;
	double lt = a->self + a->children, rt = b->self + b->children;
	if (lt < rt)
		return LT;
	if (lt > rt)
		return GT;
	if (a->count < b->count)
		return LT;
	if (a->count > b->count)
		return GT;
	return EQ;
}

static int cmp_arc_up(const void *ctx, size_t l, size_t r)
{
	return cmp_arc(ctx, l, r);
}

static int cmp_arc_down(const void *ctx, size_t l, size_t r)
{
	return cmp_arc(ctx, r, l);
}

/* cg_print.c sort_parents / sort_children insertion-sort a prepended
 * list: each arc goes before the first one it is not greater than
 * (parents, ascending) or not less than (children, descending), so equal
 * arcs end up in the reverse of the list's order.  cmp_arc is a
 * consistent order (one self arc at most), so the same result comes from
 * a stable sort of the reversed list, in O(n log n). */
static void sort_list(graph *G, size_t *head, int parents)
{
	size_t n = 0, *v = G->scratch, *tmp;
	for (size_t a = *head; a != NONE;
	     a = parents ? G->e[a].next_parent : G->e[a].next_child)
		n++;
	tmp = v + n;
	size_t k = n;
	for (size_t a = *head; a != NONE;
	     a = parents ? G->e[a].next_parent : G->e[a].next_child)
		v[--k] = a;
	pc_sort_idx(v, n, tmp, parents ? cmp_arc_up : cmp_arc_down, G);
	size_t next = NONE;
	for (size_t i = n; i-- > 0;) {
		if (parents)
			G->e[v[i]].next_parent = next;
		else
			G->e[v[i]].next_child = next;
		next = v[i];
	}
	*head = next;
}

static int cmp_member(const graph *G, size_t l, size_t r)
{
	const pc_icg_node *a = &G->n[l], *b = &G->n[r];
	double lt = a->self + a->children, rt = b->self + b->children;
	uint64_t lc = a->calls + a->self_calls, rc = b->calls + b->self_calls;
	if (lt > rt)
		return GT;
	if (lt < rt)
		return LT;
	if (lc > rc)
		return GT;
	if (lc < rc)
		return LT;
	return EQ;
}

static int cmp_member_down(const void *ctx, size_t l, size_t r)
{
	return cmp_member(ctx, r, l);
}

/* Members of cycle node c in gprof's print order (cg_print.c
 * sort_members: each member goes before the first one it is greater
 * than, i.e. a stable descending sort of the member list); returns a
 * malloc'ed array, *k entries. */
static size_t *sorted_members(const graph *G, size_t c, size_t *k)
{
	size_t n = 0;
	for (size_t m = G->n[c].next_member; m != NONE; m = G->n[m].next_member)
		n++;
	size_t *v = malloc((n ? n : 1) * 2 * sizeof *v);
	if (!v)
		return NULL;
	n = 0;
	for (size_t m = G->n[c].next_member; m != NONE; m = G->n[m].next_member)
		v[n++] = m;
	pc_sort_idx(v, n, v + n, cmp_member_down, G);
	*k = n;
	return v;
}

/* ---- numbers without printf ---------------------------------------------
 * A call graph prints a line per arc: at 10^5 functions printf was most of
 * the report's time.  These write the bytes of the printf formats named
 * beside each use (pc_sink_fixed is "%*.*f", pc_sink_u64 "%*llu"). */

/* "[%zu]" (listed) or "(%zu)"; buf holds at least 24 bytes */
static size_t fmt_index(char *buf, int listed, size_t idx)
{
	size_t n = 0;
	buf[n++] = listed ? '[' : '(';
	n += pc_fmt_u64(buf + n, (uint64_t)idx);
	buf[n++] = listed ? ']' : ')';
	buf[n] = '\0';
	return n;
}

/* "%-W.Ws": s left-justified in width columns, cut to width */
static void put_left(pc_sink *k, const char *s, size_t width)
{
	size_t n = strlen(s);
	pc_sink_write(k, s, n < width ? n : width);
	if (n < width)
		pc_sink_repeat(k, ' ', width - n);
}

/* "%-W" PRIu64 */
static void put_u64_left(pc_sink *k, uint64_t v, size_t width)
{
	char buf[24];
	size_t n = pc_fmt_u64(buf, v);
	pc_sink_write(k, buf, n);
	if (n < width)
		pc_sink_repeat(k, ' ', width - n);
}

/* " <cycle %u>" and the like: text, then v */
static void put_text_u64(pc_sink *k, const char *text, uint64_t v)
{
	pc_sink_puts(k, text);
	pc_sink_u64(k, v, 0);
}

static void put_name(pc_sink *k, const graph *G, size_t i)
{
	const pc_icg_node *n = &G->n[i];
	pc_sink_name(k, n->name);
	if (n->cycle) {
		put_text_u64(k, " <cycle ", n->cycle);
		pc_sink_putc(k, '>');
	}
	if (n->index) {
		char buf[32];
		pc_sink_putc(k, ' ');
		pc_sink_write(k, buf, fmt_index(buf, n->listed, n->index));
	}
}

static int skipped(const graph *G, size_t i, int zeros)
{
	const pc_icg_node *n = &G->n[i];
	if (!n->listed)
		return 1;
	return !zeros && n->calls == 0 && n->self_calls == 0 &&
		n->self == 0 && n->children == 0;
}

static size_t *by_index(const graph *G)
{
	size_t *v = malloc((G->nn ? G->nn : 1) * sizeof *v);
	if (!v)
		return NULL;
	for (size_t i = 0; i < G->nn; i++)
		v[G->n[i].index - 1] = i;
	return v;
}

static void gprof_arc_line(pc_sink *k, const graph *G, size_t a, size_t other,
			   uint64_t total, int inside)
{
	const pc_cg_edge *e = &G->e[a].e;
	if (inside) {
		/* "%6.6s %5.5s %7.7s %7.7s %7" PRIu64 " %7.7s     " of "" */
		pc_sink_repeat(k, ' ', 6 + 1 + 5 + 1 + 7 + 1 + 7 + 1);
		pc_sink_u64(k, e->count, 7);
		pc_sink_repeat(k, ' ', 1 + 7 + 5);
	} else {
		/* "%6.6s %5.5s %7.2f %7.2f %7" PRIu64 "/%-7" PRIu64 "     " */
		pc_sink_repeat(k, ' ', 6 + 1 + 5 + 1);
		pc_sink_fixed(k, e->self / G->hz, 7, 2);
		pc_sink_putc(k, ' ');
		pc_sink_fixed(k, e->children / G->hz, 7, 2);
		pc_sink_putc(k, ' ');
		pc_sink_u64(k, e->count, 7);
		pc_sink_putc(k, '/');
		put_u64_left(k, total, 7);
		pc_sink_repeat(k, ' ', 5);
	}
	put_name(k, G, other);
	pc_sink_putc(k, '\n');
}

static size_t cycle_node_of(const graph *G, size_t i)
{
	if (!G->n[i].cycle)
		return i;
	return pc_callgraph_cycle_index(G->g, G->n[i].cycle);
}

/* The raw symbol name of row node i: gprof orders its index by the raw
 * (mangled) names and prints them demangled. */
static const char *raw_name(const graph *G, size_t i)
{
	pc_row r;
	pc_symbol s;
	if (G->n[i].row < 0 || pc_profile_row_at(&r, G->p, (size_t)G->n[i].row) ||
	    pc_profile_symbol_at(&s, G->p, r.symbol))
		return G->n[i].name;
	return s.name;
}

static int cmp_name(const void *ctx, size_t l, size_t r)
{
	const graph *G = ctx;
	return strcmp(raw_name(G, l), raw_name(G, r));
}

/* The source file (without its directories, as gprof prints it) of node
 * i when it is a static (local) function and the DWARF at its address
 * names its file, function and line (gprof get_src_info); else NULL. */
static const char *static_file(const graph *G, size_t i)
{
	pc_row r;
	pc_symbol s;
	const pc_srcframe *f;
	size_t nf;
	if (!G->dw || G->n[i].row < 0 ||
	    pc_profile_row_at(&r, G->p, (size_t)G->n[i].row) ||
	    pc_profile_symbol_at(&s, G->p, r.symbol) || s.binding != PC_BIND_LOCAL ||
	    pc_dwarf_lookup_frames(G->dw, s.address, &f, &nf) || !nf || !f[0].file ||
	    !f[0].function || !f[0].line)
		return NULL;
	return pc_basename(f[0].file);
}

static void gprof_index(pc_sink *k, const graph *G, int zeros)
{
	size_t nrows = G->nn - pc_callgraph_cycle_count(G->g);
	size_t *v = malloc((G->nn ? G->nn : 1) * sizeof *v);
	if (!v) {
		k->failed = PC_ENOMEM;
		return;
	}
	size_t nn = 0;
	for (size_t i = 0; i < nrows; i++) {
		if (!zeros && G->n[i].calls == 0 && G->n[i].time == 0)
			continue;
		v[nn++] = i;
	}
	/* cg_print_index: qsort by name (stable in glibc) */
	pc_sort_idx(v, nn, G->scratch, cmp_name, G);
	size_t todo = nn;
	for (unsigned c = 1; c <= pc_callgraph_cycle_count(G->g); c++)
		v[todo++] = pc_callgraph_cycle_index(G->g, c);
	pc_sink_puts(k, "\f\nIndex by function name\n\n");
	size_t rows = (todo + 2) / 3;
	const size_t column_width = (80 - 1) / 3;
	for (size_t i = 0; i < rows; i++) {
		size_t col = 0, starting_col = 0;
		for (size_t j = i; j < todo; j += rows) {
			const pc_icg_node *n = &G->n[v[j]];
			char buf[32];
			size_t bl = fmt_index(buf, n->listed, n->index);
			col += bl;
			for (; col < starting_col + 5; ++col)
				pc_sink_putc(k, ' ');
			pc_sink_putc(k, ' ');
			pc_sink_write(k, buf, bl);
			pc_sink_putc(k, ' ');
			if (j < nn) {
				pc_sink_name(k, n->name);
				col += pc_name_width(n->name);
				const char *f = static_file(G, v[j]);
				if (f) {
					/* gprof: " (FILE)" after a static function
					 * whose source file is known */
					pc_sink_puts(k, " (");
					pc_sink_name(k, f);
					pc_sink_putc(k, ')');
					col += pc_name_width(f) + 3;
				}
			} else {
				/* "<cycle %u>" */
				size_t before = k->len;
				put_text_u64(k, "<cycle ", n->cycle);
				pc_sink_putc(k, '>');
				col += k->len - before;
			}
			starting_col += column_width;
		}
		pc_sink_putc(k, '\n');
	}
	free(v);
}

static void put_granularity(pc_sink *k, pc_profile *p, double print_time,
			    double hz, int flat)
{
	pc_histogram h;
	/* without a sampling rate the times are sample counts: say so */
	const char *unit_word = pc_profile_rate(p) > 0 || hz != 1 ? "seconds"
								  : "samples";
	if (pc_profile_histogram_count(p) > 0 &&
	    pc_profile_histogram_at(&h, p, 0) == PC_OK && h.nbins > 0) {
		unsigned unit = h.unit ? h.unit : 1;
		double scale = (double)((h.high - h.low) / unit) / (double)h.nbins;
		pc_sink_printf(k, "\ngranularity: each sample hit covers %ld byte(s)",
			       (long)scale * (long)unit);
	} else if (flat) {
		/* no samples: own times are the arcs' flat times */
		pc_sink_printf(k, "\ngranularity: flat arc times, %.2f %s\n\n",
			       print_time / hz, unit_word);
		return;
	} else {
		/* raw samples: each is one exact address */
		pc_sink_printf(k, "\ngranularity: one address per sample, %.2f %s\n\n",
			       print_time / hz, unit_word);
		return;
	}
	if (print_time > 0.0)
		pc_sink_printf(k, " for %.2f%% of %.2f %s\n\n",
			       100.0 / print_time, print_time / hz, unit_word);
	else
		pc_sink_puts(k, " no time propagated\n\n");
}

/* One entry's related lines for csv/json: kind, node, edge (or NONE). */
typedef void (*rel_fn)(void *ctx, const graph *G, const char *kind,
		       size_t node, size_t edge, uint64_t total);

static void walk_entry(graph *G, size_t i, void *ctx, rel_fn fn)
{
	if (G->n[i].row < 0) {
		size_t nm = 0;
		size_t *mv = sorted_members(G, i, &nm);
		for (size_t m = 0; mv && m < nm; m++)
			fn(ctx, G, "member", mv[m], NONE, 0);
		free(mv);
		return;
	}
	sort_list(G, &G->parents[i], 1);
	for (size_t a = G->parents[i]; a != NONE; a = G->e[a].next_parent)
		fn(ctx, G, "parent", G->e[a].e.parent, a,
		   G->n[cycle_node_of(G, i)].calls);
	sort_list(G, &G->children[i], 0);
	for (size_t a = G->children[i]; a != NONE; a = G->e[a].next_child)
		fn(ctx, G, "child", G->e[a].e.child, a,
		   G->n[cycle_node_of(G, G->e[a].e.child)].calls);
}

static int render_gprof_text(graph *G, pc_sink *k, int zeros)
{
	double print_time = pc_callgraph_total(G->g);
	pc_sink_puts(k, "\t\t\tCall graph\n\n");
	put_granularity(k, G->p, print_time, G->hz, G->flat);
	if (print_time <= 0.0)
		print_time = 1.0;
	pc_sink_puts(k, "index % time    self  children    called     name\n");
	size_t *ord = by_index(G);
	if (!ord)
		return PC_ENOMEM;
	for (size_t x = 0; x < G->nn; x++) {
		size_t i = ord[x];
		const pc_icg_node *n = &G->n[i];
		if (skipped(G, i, zeros))
			continue;
		char buf[32];
		fmt_index(buf, 1, n->index);
		if (n->row < 0) {
			/* "%-6.6s %5.1f %7.2f %7.2f %7" PRIu64 */
			put_left(k, buf, 6);
			pc_sink_putc(k, ' ');
			pc_sink_fixed(k, 100 * (n->self + n->children) /
				      print_time, 5, 1);
			pc_sink_putc(k, ' ');
			pc_sink_fixed(k, n->self / G->hz, 7, 2);
			pc_sink_putc(k, ' ');
			pc_sink_fixed(k, n->children / G->hz, 7, 2);
			pc_sink_putc(k, ' ');
			pc_sink_u64(k, n->calls, 7);
			if (n->self_calls) {
				pc_sink_putc(k, '+');
				put_u64_left(k, n->self_calls, 7);
			} else {
				pc_sink_repeat(k, ' ', 1 + 7);
			}
			/* " <cycle %u as a whole> [%zu]\n" */
			put_text_u64(k, " <cycle ", n->cycle);
			put_text_u64(k, " as a whole> [", n->index);
			pc_sink_puts(k, "]\n");
			size_t nm = 0;
			size_t *mv = sorted_members(G, i, &nm);
			if (!mv) {
				free(ord);
				return PC_ENOMEM;
			}
			for (size_t m = 0; m < nm; m++) {
				const pc_icg_node *mn = &G->n[mv[m]];
				/* "%6.6s %5.5s %7.2f %7.2f %7" PRIu64 */
				pc_sink_repeat(k, ' ', 6 + 1 + 5 + 1);
				pc_sink_fixed(k, mn->self / G->hz, 7, 2);
				pc_sink_putc(k, ' ');
				pc_sink_fixed(k, mn->children / G->hz, 7, 2);
				pc_sink_putc(k, ' ');
				pc_sink_u64(k, mn->calls, 7);
				if (mn->self_calls) {
					pc_sink_putc(k, '+');
					put_u64_left(k, mn->self_calls, 7);
				} else {
					pc_sink_repeat(k, ' ', 1 + 7);
				}
				pc_sink_puts(k, "     ");
				put_name(k, G, mv[m]);
				pc_sink_putc(k, '\n');
			}
			free(mv);
		} else {
			/* parents */
			if (G->parents[i] == NONE) {
				/* "%6.6s %5.5s %7.7s %7.7s %7.7s %7.7s" of "" */
				pc_sink_repeat(k, ' ', 6 + 1 + 5 + 1 + 4 * (7 + 1) - 1);
				pc_sink_puts(k, "     <spontaneous>\n");
			}
			sort_list(G, &G->parents[i], 1);
			uint64_t total = G->n[cycle_node_of(G, i)].calls;
			for (size_t a = G->parents[i]; a != NONE;
			     a = G->e[a].next_parent) {
				size_t par = G->e[a].e.parent;
				gprof_arc_line(k, G, a, par, total,
					       par == i || same_cycle(G, par, i));
			}
			/* the primary line */
			/* "%-6.6s %5.1f %7.2f %7.2f" */
			put_left(k, buf, 6);
			pc_sink_putc(k, ' ');
			pc_sink_fixed(k, 100 * (n->self + n->children) /
				      print_time, 5, 1);
			pc_sink_putc(k, ' ');
			pc_sink_fixed(k, n->self / G->hz, 7, 2);
			pc_sink_putc(k, ' ');
			pc_sink_fixed(k, n->children / G->hz, 7, 2);
			if (n->calls + n->self_calls != 0) {
				/* " %7" PRIu64, then "+%-7" PRIu64 " " or
				 * " %7.7s " of "" */
				pc_sink_putc(k, ' ');
				pc_sink_u64(k, n->calls, 7);
				if (n->self_calls) {
					pc_sink_putc(k, '+');
					put_u64_left(k, n->self_calls, 7);
					pc_sink_putc(k, ' ');
				} else {
					pc_sink_repeat(k, ' ', 1 + 7 + 1);
				}
			} else {
				/* " %7.7s %7.7s " of "" */
				pc_sink_repeat(k, ' ', 1 + 7 + 1 + 7 + 1);
			}
			put_name(k, G, i);
			pc_sink_putc(k, '\n');
			/* children */
			sort_list(G, &G->children[i], 0);
			for (size_t a = G->children[i]; a != NONE;
			     a = G->e[a].next_child) {
				size_t ch = G->e[a].e.child;
				gprof_arc_line(k, G, a, ch,
					       G->n[cycle_node_of(G, ch)].calls,
					       ch == i || same_cycle(G, ch, i));
			}
		}
		pc_sink_puts(k, "-----------------------------------------------\n");
	}
	free(ord);
	gprof_index(k, G, zeros);
	return PC_OK;
}

/* ---- csv / json of the gprof view ------------------------------------------ */

typedef struct mctx {
	pc_sink *k;
	int kind;
	int first;
	size_t entry;
} mctx;

static void put_num(pc_sink *k, double v)
{
	pc_sink_count(k, v);
}

static void csv_rel(void *vctx, const graph *G, const char *kind, size_t node,
		    size_t edge, uint64_t total)
{
	mctx *c = vctx;
	pc_sink *k = c->k;
	const pc_icg_node *n = &G->n[node];
	/* "%zu,%s,%zu," */
	pc_sink_u64(k, G->n[c->entry].index, 0);
	pc_sink_putc(k, ',');
	pc_sink_puts(k, kind);
	put_text_u64(k, ",", n->index);
	pc_sink_putc(k, ',');
	pc_sink_csv_field(k, n->name ? n->name : "");
	put_text_u64(k, ",", n->cycle); /* ",%u," */
	pc_sink_putc(k, ',');
	if (edge == NONE) {
		/* "%" PRIu64 ",,%" PRIu64 "," */
		pc_sink_u64(k, n->calls, 0);
		put_text_u64(k, ",,", n->self_calls);
		pc_sink_putc(k, ',');
		put_num(k, n->self / G->hz);
		pc_sink_putc(k, ',');
		put_num(k, n->children / G->hz);
		pc_sink_putc(k, ',');
		put_num(k, n->htime);
		pc_sink_putc(k, ',');
		put_num(k, n->ftime);
	} else {
		const pc_cg_edge *e = &G->e[edge].e;
		/* "%" PRIu64 ",%" PRIu64 ",," */
		pc_sink_u64(k, e->count, 0);
		put_text_u64(k, ",", total);
		pc_sink_puts(k, ",,");
		put_num(k, e->self / G->hz);
		pc_sink_putc(k, ',');
		put_num(k, e->children / G->hz);
		pc_sink_putc(k, ',');
		put_num(k, e->htime);
		pc_sink_putc(k, ',');
		put_num(k, e->ftime);
	}
	pc_sink_putc(k, '\n');
}

static void json_rel(void *vctx, const graph *G, const char *kind, size_t node,
		     size_t edge, uint64_t total)
{
	mctx *c = vctx;
	pc_sink *k = c->k;
	const pc_icg_node *n = &G->n[node];
	pc_sink_puts(k, c->first ? "\n    {" : ",\n    {");
	c->first = 0;
	pc_sink_puts(k, "\"relation\": \"");
	pc_sink_puts(k, kind);
	put_text_u64(k, "\", \"index\": ", n->index);
	pc_sink_puts(k, ", \"name\": ");
	pc_sink_json_string(k, n->name ? n->name : "");
	put_text_u64(k, ", \"cycle\": ", n->cycle);
	const pc_cg_edge *e = edge == NONE ? NULL : &G->e[edge].e;
	if (e) {
		put_text_u64(k, ", \"count\": ", e->count);
		put_text_u64(k, ", \"total\": ", total);
	} else {
		put_text_u64(k, ", \"calls\": ", n->calls);
		put_text_u64(k, ", \"self_calls\": ", n->self_calls);
	}
	pc_sink_puts(k, ", \"self\": ");
	put_num(k, (e ? e->self : n->self) / G->hz);
	pc_sink_puts(k, ", \"children\": ");
	put_num(k, (e ? e->children : n->children) / G->hz);
	pc_sink_puts(k, ", \"htime\": ");
	put_num(k, e ? e->htime : n->htime);
	pc_sink_puts(k, ", \"ftime\": ");
	put_num(k, e ? e->ftime : n->ftime);
	pc_sink_putc(k, '}');
}

static int render_gprof_machine(graph *G, pc_sink *k, int kind, int zeros)
{
	size_t *ord = by_index(G);
	if (!ord)
		return PC_ENOMEM;
	double total = pc_callgraph_total(G->g);
	mctx c = { k, kind, 1, 0 };
	if (kind == OUT_CSV)
		pc_sink_puts(k, "entry,relation,index,name,cycle,count,total,"
				"self_calls,self,children,htime,ftime\n");
	else {
		pc_sink_puts(k, "{\n  \"report\": \"callgraph\",\n  \"seconds\": ");
		put_num(k, total / G->hz);
		pc_sink_puts(k, ",\n  \"entries\": [");
	}
	int firstentry = 1;
	for (size_t x = 0; x < G->nn; x++) {
		size_t i = ord[x];
		if (skipped(G, i, zeros))
			continue;
		c.entry = i;
		const pc_icg_node *n = &G->n[i];
		double pct = total > 0 ? 100 * (n->self + n->children) / total : 0;
		if (kind == OUT_CSV) {
			csv_rel(&c, G, n->row < 0 ? "cycle" : "primary", i, NONE, 0);
			walk_entry(G, i, &c, csv_rel);
			continue;
		}
		pc_sink_puts(k, firstentry ? "\n   {" : ",\n   {");
		firstentry = 0;
		put_text_u64(k, "\"index\": ", n->index);
		pc_sink_puts(k, ", \"name\": ");
		if (n->name)
			pc_sink_json_string(k, n->name);
		else
			pc_sink_puts(k, "null");
		put_text_u64(k, ", \"cycle\": ", n->cycle);
		put_text_u64(k, ", \"calls\": ", n->calls);
		put_text_u64(k, ", \"self_calls\": ", n->self_calls);
		pc_sink_puts(k, ", \"percent\": ");
		put_num(k, round(pct * 1e4) / 1e4);
		pc_sink_puts(k, ", \"self\": ");
		put_num(k, n->self / G->hz);
		pc_sink_puts(k, ", \"children\": ");
		put_num(k, n->children / G->hz);
		pc_sink_puts(k, ", \"htime\": ");
		put_num(k, n->htime);
		pc_sink_puts(k, ", \"ftime\": ");
		put_num(k, n->ftime);
		pc_sink_puts(k, ", \"related\": [");
		c.first = 1;
		walk_entry(G, i, &c, json_rel);
		pc_sink_puts(k, c.first ? "]}" : "\n   ]}");
	}
	if (kind == OUT_JSON)
		pc_sink_puts(k, "\n  ]\n}\n");
	free(ord);
	return PC_OK;
}

/* ---- Proff style ------------------------------------------------------------- */

typedef struct site {
	uint32_t seg;
	uint64_t addr;
	const char *name;
} site;

typedef struct caller_t {
	int64_t from_row; /* -1: none */
	uint32_t from_seg;
	uint64_t from;
	size_t to_row;
	uint32_t to_seg;
	uint64_t count;
	double htime, ftime;
	char *name; /* call-site name */
} caller_t;

static int cmp_site(const void *l, const void *r)
{
	const site *a = l, *b = r;
	if (a->seg != b->seg)
		return a->seg < b->seg ? -1 : 1;
	if (a->addr != b->addr)
		return a->addr < b->addr ? -1 : 1;
	return 0;
}

static void put_thousands(pc_sink *k, double v)
{
	char buf[352]; /* "%.0f" of DBL_MAX fits */
	double r = floor(v + 0.5);
	if (r < 0)
		r = 0;
	size_t len = pc_fmt_fixed(buf, sizeof buf, r, 0);
	for (size_t i = 0; i < len; i++) {
		if (i && (len - i) % 3 == 0)
			pc_sink_putc(k, ',');
		pc_sink_putc(k, buf[i]);
	}
}

static const char *segment_label(pc_profile *p, uint32_t seg)
{
	size_t n = pc_profile_region_count(p);
	for (size_t i = 0; i < n; i++) {
		pc_region r;
		if (pc_profile_region_at(&r, p, i) == PC_OK &&
		    r.segment == seg && r.label && *r.label)
			return r.label;
	}
	return NULL;
}

static void put_segment(pc_sink *k, pc_profile *p, uint32_t seg)
{
	const char *l = segment_label(p, seg);
	pc_sink_u64(k, seg, 0);
	if (l)
		pc_sink_putc(k, '/'), pc_sink_name(k, l);
}

/* Name of the call site (seg, from) inside row r: the last statement
 * marker at or before it within the row, else the row's name. */
static char *site_name(pc_profile *p, const site *sv, size_t ns, size_t r,
		       uint32_t seg, uint64_t from)
{
	pc_row row;
	pc_profile_row_at(&row, p, r);
	size_t lo = 0, hi = ns;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		site key = { seg, from, NULL };
		if (cmp_site(&sv[mid], &key) <= 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo > 0 && sv[lo - 1].seg == seg && sv[lo - 1].addr >= row.address)
		return pc_strdup(sv[lo - 1].name);
	return pc_strdup(row.name);
}

static int cmp_site_key(const void *l, const void *r)
{
	const caller_t *a = l, *b = r;
	if (a->to_row != b->to_row)
		return a->to_row < b->to_row ? -1 : 1;
	if (a->from_row != b->from_row)
		return a->from_row < b->from_row ? -1 : 1;
	int c = strcmp(a->name, b->name);
	if (c)
		return c;
	return 0;
}

static int cmp_caller(const caller_t *a, const caller_t *b)
{
	if (a->htime != b->htime)
		return a->htime > b->htime ? -1 : 1;
	if (a->count != b->count)
		return a->count > b->count ? -1 : 1;
	return strcmp(a->name, b->name);
}

typedef struct proff {
	graph *G;
	site *sv;
	size_t ns;
	caller_t *cv;
	size_t nc;
	size_t *rank;   /* per row: 1-based rank, 0 = not ranked */
	size_t *ranked; /* rows by rank */
	size_t nranked;
	double run;
} proff;

static void proff_free(proff *P)
{
	for (size_t i = 0; i < P->nc; i++)
		free(P->cv[i].name);
	free(P->cv);
	free(P->sv);
	free(P->rank);
	free(P->ranked);
}

/* PrintProff's order: hierarchical time, then flat time, descending,
 * then name */
static int cmp_rank(const void *ctx, size_t l, size_t r)
{
	const graph *G = ctx;
	const pc_icg_node *a = &G->n[l], *b = &G->n[r];
	if (a->htime != b->htime)
		return a->htime > b->htime ? -1 : 1;
	if (a->ftime != b->ftime)
		return a->ftime > b->ftime ? -1 : 1;
	return strcmp(a->name, b->name);
}

static int proff_build(proff *P, graph *G)
{
	pc_profile *p = G->p;
	memset(P, 0, sizeof *P);
	P->G = G;
	size_t nsym = pc_profile_symbol_count(p), cap = 0;
	for (size_t i = 0; i < nsym; i++) {
		pc_symbol s;
		if (pc_profile_symbol_at(&s, p, i) || !(s.flags & PC_SYMF_SITE))
			continue;
		if (pc_grow((void **)&P->sv, &cap, P->ns + 1, sizeof *P->sv))
			return PC_ENOMEM;
		P->sv[P->ns].seg = s.segment;
		P->sv[P->ns].addr = s.address;
		P->sv[P->ns].name = s.name;
		P->ns++;
	}
	if (P->ns)
		qsort(P->sv, P->ns, sizeof *P->sv, cmp_site);
	/* call sites: raw arcs merged by (callee row, caller row, site name),
	 * sorted so that each callee's callers are contiguous */
	size_t na = pc_profile_arc_count(p);
	cap = 0;
	for (size_t i = 0; i < na; i++) {
		pc_arc a;
		pc_profile_arc_at(&a, p, i);
		int64_t fr = pc_profile_row_find(p, a.from_segment, a.from);
		int64_t to = pc_profile_row_find(p, a.to_segment, a.to);
		if (fr < 0 || to < 0)
			continue; /* dropped, as in the model */
		if (pc_grow((void **)&P->cv, &cap, P->nc + 1, sizeof *P->cv))
			return PC_ENOMEM;
		caller_t *c = &P->cv[P->nc];
		memset(c, 0, sizeof *c);
		c->name = site_name(p, P->sv, P->ns, (size_t)fr, a.from_segment,
				    a.from);
		if (!c->name)
			return PC_ENOMEM;
		c->from_row = fr;
		c->from_seg = a.from_segment;
		c->from = a.from;
		c->to_row = (size_t)to;
		c->to_seg = a.to_segment;
		c->count = a.count;
		c->htime = a.htime;
		c->ftime = a.ftime;
		P->nc++;
	}
	if (P->nc)
		qsort(P->cv, P->nc, sizeof *P->cv, cmp_site_key);
	size_t w = 0;
	for (size_t i = 0; i < P->nc; i++) {
		if (w > 0 && cmp_site_key(&P->cv[w - 1], &P->cv[i]) == 0) {
			P->cv[w - 1].count += P->cv[i].count;
			P->cv[w - 1].htime += P->cv[i].htime;
			P->cv[w - 1].ftime += P->cv[i].ftime;
			free(P->cv[i].name);
			continue;
		}
		P->cv[w++] = P->cv[i];
	}
	P->nc = w;
	P->run = pc_callgraph_run_htime(G->g);
	if (!G->flat && !profile_has_arc_times(p)) {
		/* gmon.out: no Proff times; H and F are gprof's propagated
		 * times (self + children, self) in microseconds, a call site's
		 * share of its edge in proportion to its calls */
		double us = 1e6 / G->hz;
		for (size_t i = 0; i < G->nn; i++) {
			G->n[i].htime = (G->n[i].self + G->n[i].children) * us;
			G->n[i].ftime = G->n[i].self * us;
		}
		for (size_t j = 0; j < P->nc; j++) {
			caller_t *c = &P->cv[j];
			for (size_t a = G->parents[c->to_row]; a != NONE;
			     a = G->e[a].next_parent) {
				const pc_cg_edge *e = &G->e[a].e;
				if (e->parent != (size_t)c->from_row || !e->count)
					continue;
				double share = (double)c->count / (double)e->count;
				c->htime = (e->self + e->children) * share * us;
				c->ftime = e->self * share * us;
			}
		}
		P->run = pc_callgraph_total(G->g) * us;
	}
	size_t nrows = G->nn - pc_callgraph_cycle_count(G->g);
	P->rank = calloc(nrows ? nrows : 1, sizeof *P->rank);
	P->ranked = malloc((nrows ? nrows : 1) * sizeof *P->ranked);
	if (!P->rank || !P->ranked)
		return PC_ENOMEM;
	for (size_t i = 0; i < nrows; i++)
		if (G->n[i].calls + G->n[i].self_calls > 0)
			P->ranked[P->nranked++] = i;
	pc_sort_idx(P->ranked, P->nranked, G->scratch, cmp_rank, G);
	for (size_t i = 0; i < P->nranked; i++)
		P->rank[P->ranked[i]] = i + 1;
	return PC_OK;
}

/* The callers of row, best first (binary search: cv is sorted by
 * callee row). */
static int cmp_caller_idx(const void *ctx, size_t l, size_t r)
{
	const proff *P = ctx;
	return cmp_caller(&P->cv[l], &P->cv[r]);
}

static size_t *callers_of(const proff *P, size_t row, size_t *n)
{
	size_t lo = 0, hi = P->nc;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (P->cv[mid].to_row < row)
			lo = mid + 1;
		else
			hi = mid;
	}
	size_t end = lo;
	while (end < P->nc && P->cv[end].to_row == row)
		end++;
	size_t *v = malloc((end - lo ? end - lo : 1) * 2 * sizeof *v), k = 0;
	if (!v)
		return NULL;
	for (size_t i = lo; i < end; i++)
		v[k++] = i;
	pc_sort_idx(v, k, v + k, cmp_caller_idx, P);
	*n = k;
	return v;
}

static void put_calls(pc_sink *k, uint64_t n)
{
	pc_sink_puts(k, "/");
	put_thousands(k, (double)n);
	pc_sink_puts(k, n == 1 ? " call" : " calls");
}

static void put_hf(pc_sink *k, double h, double f)
{
	put_thousands(k, h);
	pc_sink_puts(k, " H.\xc2\xb5secs. ");
	put_thousands(k, f);
	pc_sink_puts(k, " F.\xc2\xb5secs. ");
}

static int render_proff_text(proff *P, pc_sink *k)
{
	graph *G = P->G;
	double run = P->run > 0 ? P->run : 1;
	pc_sink_puts(k, "Call graph by hierarchical time (H: with callees, "
			"F: flat), \xc2\xb5secs.\nRun: ");
	put_thousands(k, P->run);
	pc_sink_puts(k, " H.\xc2\xb5secs.\n");
	for (size_t r = 0; r < P->nranked; r++) {
		size_t i = P->ranked[r];
		const pc_icg_node *n = &G->n[i];
		put_text_u64(k, "\n", r + 1);
		pc_sink_puts(k, ". "), pc_sink_name(k, n->name), pc_sink_puts(k, "\n    Total: ");
		put_hf(k, n->htime, n->ftime);
		put_calls(k, n->calls);
		/* " (%6.3f %%H/%6.3f %%F)\n" */
		pc_sink_puts(k, " (");
		pc_sink_fixed(k, 100 * n->htime / run, 6, 3);
		pc_sink_puts(k, " %H/");
		pc_sink_fixed(k, 100 * n->ftime / run, 6, 3);
		pc_sink_puts(k, " %F)\n");
		if (n->self_calls) {
			pc_sink_puts(k, "    Recursive: ");
			put_thousands(k, (double)n->self_calls);
			pc_sink_printf(k, " call%s from itself, nested in the "
				       "total above\n",
				       n->self_calls == 1 ? "" : "s");
		}
		if (n->cycle) {
			size_t c = pc_callgraph_cycle_index(G->g, n->cycle);
			put_text_u64(k, "    In cycle ", n->cycle);
			pc_sink_puts(k, ", as a whole: ");
			put_hf(k, G->n[c].htime, G->n[c].ftime);
			put_calls(k, G->n[c].calls);
			pc_sink_puts(k, "\n");
		}
		pc_sink_puts(k, "    Callers:\n");
		size_t nc = 0;
		size_t *cv = callers_of(P, i, &nc);
		if (!cv)
			return PC_ENOMEM;
		for (size_t j = 0; j < nc; j++) {
			const caller_t *c = &P->cv[cv[j]];
			size_t fr = (size_t)c->from_row;
			int rec = fr == i || same_cycle(G, fr, i);
			put_text_u64(k, "        ", P->rank[fr]);
			pc_sink_puts(k, ". "), pc_sink_name(k, c->name),
				pc_sink_puts(k, rec ? " (recursive)\n            "
						    : "\n            ");
			put_hf(k, c->htime, c->ftime);
			put_calls(k, c->count);
			pc_sink_putc(k, '\n');
			if (c->from_seg != c->to_seg) {
				pc_sink_puts(k, "            ");
				put_segment(k, G->p, c->from_seg);
				pc_sink_puts(k, " -> ");
				put_segment(k, G->p, c->to_seg);
				pc_sink_putc(k, '\n');
			}
		}
		free(cv);
	}
	/* each cycle's members, once */
	for (unsigned c = 1; c <= pc_callgraph_cycle_count(G->g); c++) {
		size_t cn = pc_callgraph_cycle_index(G->g, c);
		put_text_u64(k, "\nCycle ", c);
		pc_sink_putc(k, ':');
		for (size_t m = G->n[cn].next_member; m != NONE;
		     m = G->n[m].next_member)
			pc_sink_putc(k, ' '), pc_sink_name(k, G->n[m].name);
		pc_sink_putc(k, '\n');
	}
	return PC_OK;
}

static int render_proff_machine(proff *P, pc_sink *k, int kind)
{
	graph *G = P->G;
	double run = P->run > 0 ? P->run : 1;
	if (kind == OUT_CSV)
		pc_sink_puts(k, "rank,name,caller_rank,call_site,calls,"
				"self_calls,htime,ftime,percent_h,percent_f,"
				"from_segment,to_segment\n");
	else {
		pc_sink_puts(k, "{\n  \"report\": \"callgraph\",\n  \"style\": "
				"\"proff\",\n  \"run_htime\": ");
		put_num(k, P->run);
		pc_sink_puts(k, ",\n  \"procedures\": [");
	}
	for (size_t r = 0; r < P->nranked; r++) {
		size_t i = P->ranked[r];
		const pc_icg_node *n = &G->n[i];
		double ph = round(1e3 * 100 * n->htime / run) / 1e3;
		double pf = round(1e3 * 100 * n->ftime / run) / 1e3;
		if (kind == OUT_CSV) {
			pc_sink_u64(k, r + 1, 0); /* "%zu," */
			pc_sink_putc(k, ',');
			pc_sink_csv_field(k, n->name);
			/* ",,,%" PRIu64 ",%" PRIu64 "," */
			put_text_u64(k, ",,,", n->calls);
			put_text_u64(k, ",", n->self_calls);
			pc_sink_putc(k, ',');
			put_num(k, n->htime);
			pc_sink_putc(k, ',');
			put_num(k, n->ftime);
			pc_sink_putc(k, ',');
			put_num(k, ph);
			pc_sink_putc(k, ',');
			put_num(k, pf);
			pc_sink_puts(k, ",,\n");
		} else {
			pc_sink_puts(k, r ? ",\n   {" : "\n   {");
			put_text_u64(k, "\"rank\": ", r + 1);
			pc_sink_puts(k, ", \"name\": ");
			pc_sink_json_string(k, n->name);
			put_text_u64(k, ", \"cycle\": ", n->cycle);
			put_text_u64(k, ", \"calls\": ", n->calls);
			put_text_u64(k, ", \"self_calls\": ", n->self_calls);
			pc_sink_puts(k, ", \"htime\": ");
			put_num(k, n->htime);
			pc_sink_puts(k, ", \"ftime\": ");
			put_num(k, n->ftime);
			pc_sink_puts(k, ", \"percent_h\": ");
			put_num(k, ph);
			pc_sink_puts(k, ", \"percent_f\": ");
			put_num(k, pf);
			pc_sink_puts(k, ", \"callers\": [");
		}
		size_t nc = 0;
		size_t *cv = callers_of(P, i, &nc);
		if (!cv)
			return PC_ENOMEM;
		for (size_t j = 0; j < nc; j++) {
			const caller_t *c = &P->cv[cv[j]];
			size_t fr = (size_t)c->from_row;
			if (kind == OUT_CSV) {
				pc_sink_u64(k, r + 1, 0); /* "%zu," */
				pc_sink_putc(k, ',');
				pc_sink_csv_field(k, n->name);
				put_text_u64(k, ",", P->rank[fr]); /* ",%zu," */
				pc_sink_putc(k, ',');
				pc_sink_csv_field(k, c->name);
				put_text_u64(k, ",", c->count); /* ",%" PRIu64 ",," */
				pc_sink_puts(k, ",,");
				put_num(k, c->htime);
				pc_sink_putc(k, ',');
				put_num(k, c->ftime);
				/* ",,,%" PRIu32 ",%" PRIu32 "\n" */
				put_text_u64(k, ",,,", c->from_seg);
				put_text_u64(k, ",", c->to_seg);
				pc_sink_putc(k, '\n');
			} else {
				pc_sink_puts(k, j ? ",\n     {" : "\n     {");
				put_text_u64(k, "\"rank\": ", P->rank[fr]);
				pc_sink_puts(k, ", \"site\": ");
				pc_sink_json_string(k, c->name);
				put_text_u64(k, ", \"calls\": ", c->count);
				pc_sink_puts(k, ", \"htime\": ");
				put_num(k, c->htime);
				pc_sink_puts(k, ", \"ftime\": ");
				put_num(k, c->ftime);
				put_text_u64(k, ", \"from_segment\": ", c->from_seg);
				put_text_u64(k, ", \"to_segment\": ", c->to_seg);
				pc_sink_putc(k, '}');
			}
		}
		free(cv);
		if (kind == OUT_JSON)
			pc_sink_puts(k, nc ? "\n   ]}" : "]}");
	}
	if (kind == OUT_JSON)
		pc_sink_puts(k, "\n  ]\n}\n");
	return PC_OK;
}

/* ---- entry points ------------------------------------------------------------ */

static int render_callgraph(pc_profile *p, const pc_options *o, pc_sink *k)
{
	int kind, rc;
	if ((rc = output_kind(o, p, &kind)))
		return rc;
	const char *style = pc_options_get(o, "style");
	int proff_style;
	if (!style || !*style)
		proff_style = profile_has_arc_times(p);
	else if (!strcmp(style, "gprof"))
		proff_style = 0;
	else if (!strcmp(style, "proff"))
		proff_style = 1;
	else
		return pc_profile_fail(p, PC_EUSAGE,
				       "style: expected gprof or proff for the "
				       "callgraph report, found '%s'", style);
	/* "zero" as every report reads it: 0/1, no/yes, off/on, false/true */
	int z = 0;
	if ((rc = pc_rs_bool(p, o, "zero", 0, &z)))
		return rc;
	/* without arcs every function would print as <spontaneous>, which
	 * says "no callers" where the truth is "callers not recorded" (gprof
	 * refuses too: "gmon.out file is missing call-graph data") */
	if (pc_profile_arc_count(p) == 0)
		return pc_profile_fail(p, PC_EFORMAT,
				       "no call graph: the inputs hold no call arcs (gmon.out of a -pg build, Proff and Hatari captures have them); the flat report needs none");
	/* --focus/--ignore/--hide: the graph of the filtered profile */
	pc_profile *fq = NULL, *up = p;
	pc_sink out = *k;
	const char *stacks;
	if ((rc = pc_filter_profile(p, o, &fq, &stacks)))
		return rc;
	if (fq) {
		p = fq;
		pc_sink_init(k);
		if (kind == OUT_TEXT && stacks) {
			pc_sink_puts(&out, "Filters: ");
			pc_filter_describe(o, &out);
			pc_sink_printf(&out, " (%s: the functions keep the self time of their "
					     "stacks that pass, so a focused function keeps its "
					     "subtree's; a hidden function's callers call its "
					     "callees; %% time is of the time they keep)\n\n",
				       stacks);
		} else if (kind == OUT_TEXT) {
			pc_sink_puts(&out, "Filters: ");
			pc_filter_describe(o, &out);
			pc_sink_puts(&out, " (the functions they drop keep no self time, "
					   "a hidden function's callers call its callees; "
					   "% time is of the time they keep)\n\n");
		}
	}
	graph G;
	if ((rc = graph_build(&G, p, o)))
		goto filtered;
	if (proff_style) {
		proff P;
		rc = proff_build(&P, &G);
		if (!rc)
			rc = kind == OUT_TEXT ? render_proff_text(&P, k)
					      : render_proff_machine(&P, k, kind);
		proff_free(&P);
	} else {
#if PC_HAVE_DWARF
		/* the index's " (file.c)" after static functions: from the
		 * DWARF of the ELF program when there is one; a program
		 * without it (or with DWARF libdw cannot read) has none, as
		 * in gprof */
		if (kind == OUT_TEXT) {
			int have_elf = 0;
			for (size_t i = 0; i < pc_profile_source_count(p); i++)
				have_elf |= !strcmp(pc_profile_source_format(p, i), "elf");
			if (have_elf && pc_profile_dwarf(p, o, &G.dw))
				G.dw = NULL;
		}
#endif
		rc = kind == OUT_TEXT ? render_gprof_text(&G, k, z != 0)
				      : render_gprof_machine(&G, k, kind, z != 0);
	}
	graph_free(&G);
filtered:
	if (fq) {
		/* the json object says which filters made it */
		size_t skip = 0;
		if (kind == OUT_JSON && k->len > 2 && !strncmp(k->buf, "{\n", 2)) {
			pc_sink_puts(&out, "{\n  \"filters\": ");
			pc_filter_json(o, &out);
			pc_sink_puts(&out, ",\n");
			skip = 2;
		}
		if (k->len > skip)
			pc_sink_write(&out, k->buf + skip, k->len - skip);
		if (k->failed)
			out.failed = k->failed;
		if (rc && rc != PC_ENOMEM) {
			const pc_error *e = pc_profile_error(fq);
			rc = pc_profile_fail(up, rc, "%s", e ? e->message : "cannot filter");
		}
		pc_sink_dispose(k);
		pc_profile_free(fq);
		p = up;
		*k = out;
	}
	if (rc == PC_ENOMEM || k->failed)
		return pc_profile_fail(p, PC_ENOMEM, "out of memory");
	return rc;
}

/* "0x%" PRIx64 or "%" PRIu32 ":%" PRIx64 into buf (at least 40 bytes);
 * returns the length */
static size_t fmt_addr(char *buf, uint32_t seg, uint64_t a)
{
	static const char hex[] = "0123456789abcdef";
	size_t n;
	if (seg == PC_NOSEG) {
		buf[0] = '0';
		buf[1] = 'x';
		n = 2;
	} else {
		n = pc_fmt_u64(buf, seg);
		buf[n++] = ':';
	}
	char t[16];
	size_t d = 0;
	do
		t[d++] = hex[a & 15];
	while ((a >>= 4) != 0);
	while (d)
		buf[n++] = t[--d];
	buf[n] = '\0';
	return n;
}

/* ---- the arcs report, a line at a time (text.h's line writer) ---------
 * 40,000 arcs in three formats were most of a megabyte input's time under
 * the fuzzers (sanitizers make every sink call dear). */

/* "%-*s" of the shown form of s (pc_name_escape: control bytes and
 * invalid UTF-8 as \xNN), padded to width bytes; < 0 on failure */
static int lw_shown(pc_lw *b, const char *s, size_t width)
{
	size_t n = 0;
	while ((unsigned char)s[n] >= 0x20 && (unsigned char)s[n] < 0x7f && n < PC_LW_NAME)
		n++;
	if (!s[n]) {
		pc_lw_str(b, s, n);
	} else {
		n = pc_name_escape(NULL, 0, s);
		char *e = malloc(n + 1);
		if (!e) {
			b->k->failed = PC_ENOMEM;
			return -1;
		}
		pc_name_escape(e, n + 1, s);
		if (n <= PC_LW_NAME) {
			pc_lw_str(b, e, n);
		} else if (pc_lw_reopen(b) == 0) {
			pc_sink_write(b->k, e, n);
			pc_lw_reopen(b);
		}
		free(e);
		if (!b->out)
			return -1;
	}
	if (n < width)
		pc_lw_blanks(b, width - n);
	return 0;
}

static int render_arcs_of(pc_profile *p, const pc_options *o, pc_sink *k)
{
	int kind, rc;
	if ((rc = output_kind(o, p, &kind)))
		return rc;
	if ((rc = pc_profile_attribute(p, pc_options_attrib(o))))
		return rc;
	site *sv = NULL;
	size_t ns = 0, cap = 0, nsym = pc_profile_symbol_count(p);
	for (size_t i = 0; i < nsym; i++) {
		pc_symbol s;
		if (pc_profile_symbol_at(&s, p, i) || !(s.flags & PC_SYMF_SITE))
			continue;
		if (pc_grow((void **)&sv, &cap, ns + 1, sizeof *sv)) {
			free(sv);
			return pc_profile_fail(p, PC_ENOMEM, "out of memory");
		}
		sv[ns].seg = s.segment;
		sv[ns].addr = s.address;
		sv[ns].name = s.name;
		ns++;
	}
	if (ns)
		qsort(sv, ns, sizeof *sv, cmp_site);
	size_t na = pc_profile_arc_count(p);
	if (kind == OUT_TEXT)
		pc_sink_printf(k, "%-14s %-22s %-14s %-22s %10s %12s %12s\n",
			       "from (hex)", "caller", "to (hex)", "callee", "count",
			       "htime", "ftime");
	else if (kind == OUT_CSV)
		pc_sink_puts(k, "from_segment,from,caller,to_segment,to,callee,"
				"count,htime,ftime\n");
	else
		pc_sink_puts(k, "{\n  \"report\": \"arcs\",\n  \"arcs\": [");
	pc_lw b;
	pc_lw_init(&b, k);
	int wf = 0; /* the writer failed */
	for (size_t i = 0; i < na && !wf; i++) {
		pc_arc a;
		pc_profile_arc_at(&a, p, i);
		int64_t fr = pc_profile_row_find(p, a.from_segment, a.from);
		int64_t to = pc_profile_row_find(p, a.to_segment, a.to);
		char *caller = fr < 0 ? pc_strdup("?")
				      : site_name(p, sv, ns, (size_t)fr,
						  a.from_segment, a.from);
		pc_row trow;
		const char *callee = "?";
		if (to >= 0 && pc_profile_row_at(&trow, p, (size_t)to) == PC_OK)
			callee = trow.name;
		if (!caller) {
			pc_lw_done(&b);
			free(sv);
			return pc_profile_fail(p, PC_ENOMEM, "out of memory");
		}
		if (pc_lw_row(&b)) {
			free(caller);
			break;
		}
		char ab[48];
		if (kind == OUT_TEXT) {
			/* "%-14s %-22s %-14s %-22s %10" PRIu64 " %12.0f %12.0f\n"
			 * with the names in their shown form */
			size_t an = fmt_addr(ab, a.from_segment, a.from);
			pc_lw_str(&b, ab, an);
			pc_lw_blanks(&b, an < 14 ? 14 - an : 0);
			PC_LW_LIT(&b, " ");
			wf = lw_shown(&b, caller, 22);
			if (!wf) {
				PC_LW_LIT(&b, " ");
				an = fmt_addr(ab, a.to_segment, a.to);
				pc_lw_str(&b, ab, an);
				pc_lw_blanks(&b, an < 14 ? 14 - an : 0);
				PC_LW_LIT(&b, " ");
				wf = lw_shown(&b, callee, 22);
			}
			if (!wf) {
				PC_LW_LIT(&b, " ");
				pc_lw_u64_right(&b, a.count, 10);
				PC_LW_LIT(&b, " ");
				pc_lw_fixed_right(&b, a.htime, 12, 0);
				PC_LW_LIT(&b, " ");
				pc_lw_fixed_right(&b, a.ftime, 12, 0);
				PC_LW_LIT(&b, "\n");
			}
		} else if (kind == OUT_CSV) {
			/* "%" PRIu32 ",%" PRIu64 "," and so on */
			pc_lw_u64(&b, a.from_segment);
			PC_LW_LIT(&b, ",");
			pc_lw_u64(&b, a.from);
			PC_LW_LIT(&b, ",");
			wf = pc_lw_name(&b, caller, ",\"", pc_sink_csv_field, 0);
			if (!wf) {
				PC_LW_LIT(&b, ",");
				pc_lw_u64(&b, a.to_segment);
				PC_LW_LIT(&b, ",");
				pc_lw_u64(&b, a.to);
				PC_LW_LIT(&b, ",");
				wf = pc_lw_name(&b, callee, ",\"", pc_sink_csv_field, 0);
			}
			if (!wf) {
				PC_LW_LIT(&b, ",");
				pc_lw_u64(&b, a.count);
				PC_LW_LIT(&b, ",");
				pc_lw_count(&b, a.htime);
				PC_LW_LIT(&b, ",");
				pc_lw_count(&b, a.ftime);
				PC_LW_LIT(&b, "\n");
			}
		} else {
			if (i)
				PC_LW_LIT(&b, ",");
			PC_LW_LIT(&b, "\n    {\"from_segment\": ");
			pc_lw_u64(&b, a.from_segment);
			PC_LW_LIT(&b, ", \"from\": ");
			pc_lw_u64(&b, a.from);
			PC_LW_LIT(&b, ", \"caller\": ");
			wf = pc_lw_name(&b, caller, "\"\\", pc_sink_json_string, '"');
			if (!wf) {
				PC_LW_LIT(&b, ", \"to_segment\": ");
				pc_lw_u64(&b, a.to_segment);
				PC_LW_LIT(&b, ", \"to\": ");
				pc_lw_u64(&b, a.to);
				PC_LW_LIT(&b, ", \"callee\": ");
				wf = pc_lw_name(&b, callee, "\"\\", pc_sink_json_string, '"');
			}
			if (!wf) {
				PC_LW_LIT(&b, ", \"count\": ");
				pc_lw_u64(&b, a.count);
				PC_LW_LIT(&b, ", \"htime\": ");
				pc_lw_count(&b, a.htime);
				PC_LW_LIT(&b, ", \"ftime\": ");
				pc_lw_count(&b, a.ftime);
				PC_LW_LIT(&b, "}");
			}
		}
		pc_lw_line_end(&b);
		free(caller);
	}
	pc_lw_done(&b);
	if (kind == OUT_JSON)
		pc_sink_puts(k, na ? "\n  ]\n}\n" : "]\n}\n");
	free(sv);
	if (k->failed)
		return pc_profile_fail(p, PC_ENOMEM, "out of memory");
	return PC_OK;
}

/* --focus/--ignore/--hide: the arcs of the filtered profile (filter.c:
 * a hidden function's callers call its callees) */
static int render_arcs(pc_profile *p, const pc_options *o, pc_sink *k)
{
	int kind, rc;
	pc_profile *fq = NULL;
	if ((rc = output_kind(o, p, &kind)) || (rc = pc_filter_profile(p, o, &fq, NULL)))
		return rc;
	if (!fq)
		return render_arcs_of(p, o, k);
	pc_sink t;
	pc_sink_init(&t);
	rc = render_arcs_of(fq, o, &t);
	if (rc && rc != PC_ENOMEM) {
		const pc_error *e = pc_profile_error(fq);
		rc = pc_profile_fail(p, rc, "%s", e ? e->message : "cannot filter");
	}
	size_t skip = 0;
	if (kind == OUT_TEXT) {
		pc_sink_puts(k, "Filters: ");
		pc_filter_describe(o, k);
		pc_sink_puts(k, " (a hidden function's callers call its callees; "
				"focus and ignore select samples, not calls)\n\n");
	} else if (kind == OUT_JSON && t.len > 2 && !strncmp(t.buf, "{\n", 2)) {
		pc_sink_puts(k, "{\n  \"filters\": ");
		pc_filter_json(o, k);
		pc_sink_puts(k, ",\n");
		skip = 2;
	}
	if (!rc && t.len > skip)
		pc_sink_write(k, t.buf + skip, t.len - skip);
	pc_sink_dispose(&t);
	pc_profile_free(fq);
	if (!rc && k->failed)
		rc = pc_profile_fail(p, PC_ENOMEM, "out of memory");
	return rc;
}

PC_INTERNAL extern const pc_report pc_report_callgraph;
PC_INTERNAL extern const pc_report pc_report_arcs;

const pc_report pc_report_callgraph = {
	"callgraph",
	"call graph: style gprof (gprof -q layout) or proff (PrintProff)",
	render_callgraph,
};

const pc_report pc_report_arcs = {
	"arcs",
	"every call arc as loaded: caller, callee, count, times",
	render_arcs,
};
