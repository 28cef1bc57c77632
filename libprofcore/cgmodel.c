/* cgmodel.c - the call-graph model: nodes are attribution rows, edges
 * are the arcs between them.
 *
 * Cycle detection, numbering, the propagation fractions and the time
 * propagation follow GNU gprof 2.40 (cg_arcs.c cg_assemble, cg_dfn.c)
 * step for step, in the same order and with the same floating-point
 * expressions, so that the numbers, the cycles and the [index] of every
 * entry come out as gprof prints them for the same gmon.out.  Only the
 * public API is used.
 *
 * Inclusive (hierarchical) times from Proff arcs: an arc that enters a
 * strongly connected component (a routine with its self-recursion, or a
 * cycle of mutually recursive routines) from outside can never run while
 * a member of that component is active (its caller would otherwise be on
 * a call path from the component back into it, i.e. in the component).
 * So the hierarchical time of the arcs entering a component from outside
 * adds up without overlap, while arcs inside the component (recursive
 * calls) are nested in those and are left out.  That is the sum
 * PrintProff got wrong for recursive routines.
 */
#include "internal.h"

#include <stdlib.h>
#include <string.h>

#define NONE ((size_t)-1)
#define DFN_NAN 0

typedef struct cg_arc {
	size_t parent, child;
	uint64_t count;
	double time, child_time;
	double htime, ftime;
	size_t next_child, next_parent; /* gprof's prepended lists */
} cg_arc;

typedef struct cg_sym {
	const char *name;
	const char *key; /* raw symbol name: gprof orders by the mangled name */
	uint64_t ncalls, self_calls;
	double hist_time;
	double child_time;
	double fract, pself, pchild;
	int print_flag;
	int excluded;
	long top_order;
	unsigned cyc_num;
	size_t cyc_head, cyc_next;
	size_t children, parents; /* list heads */
	size_t index;
	double htime, ftime;
} cg_sym;

struct pc_callgraph {
	size_t nrows, ncycles;
	cg_sym *s;   /* nrows + ncycles */
	cg_arc *a;
	size_t na;
	size_t *hash, hcap; /* arc_lookup: arc indexes, NONE when free */
	double print_time;
	double run_htime;
	size_t dropped;
};

/* ---- building the arcs (gprof cg_tally / arc_add) ---------------------- */

/* gprof finds an arc by walking the parent's children; a hash of
 * (parent, child) finds the same arc in constant time. */
static size_t arc_hash(const pc_callgraph *g, size_t parent, size_t child)
{
	uint64_t h = (uint64_t)parent * 0x9E3779B97F4A7C15ull ^
		(uint64_t)child * 0xC2B2AE3D27D4EB4Full;
	h ^= h >> 29;
	return (size_t)(h & (uint64_t)(g->hcap - 1));
}

static size_t arc_lookup(const pc_callgraph *g, size_t parent, size_t child)
{
	if (!g->hcap)
		return NONE;
	for (size_t h = arc_hash(g, parent, child);; h = (h + 1) & (g->hcap - 1)) {
		size_t i = g->hash[h];
		if (i == NONE)
			return NONE;
		if (g->a[i].parent == parent && g->a[i].child == child)
			return i;
	}
}

static int arc_add(pc_callgraph *g, size_t *cap, size_t parent, size_t child,
		   const pc_arc *src)
{
	size_t i = arc_lookup(g, parent, child);
	if (i == NONE) {
		if (pc_grow((void **)&g->a, cap, g->na + 1, sizeof *g->a))
			return PC_ENOMEM;
		i = g->na++;
		cg_arc *a = &g->a[i];
		memset(a, 0, sizeof *a);
		a->parent = parent;
		a->child = child;
		a->next_child = g->s[parent].children;
		g->s[parent].children = i;
		a->next_parent = g->s[child].parents;
		g->s[child].parents = i;
		size_t h = arc_hash(g, parent, child);
		while (g->hash[h] != NONE)
			h = (h + 1) & (g->hcap - 1);
		g->hash[h] = i;
	}
	g->a[i].count += src->count;
	g->a[i].htime += src->htime;
	g->a[i].ftime += src->ftime;
	g->s[child].ncalls += src->count;
	return PC_OK;
}

/* ---- depth-first numbering and cycles (gprof cg_dfn.c) ----------------- *
 *
 * gprof's cg_dfn walks the graph depth first from every unnumbered symbol
 * in table order, children in list order, and on each arc to a routine
 * still on its stack (find_cycle) gloms every routine above it into one
 * cycle: a walk of the stack per back edge, quadratic on long cycles.
 * Its results are those of Tarjan's strongly connected components over
 * the same walk (same roots, same child order), which finds them in
 * linear time:
 *   - a cycle is a component of two or more routines (a self call is
 *     not a cycle);
 *   - its head (cyc_head) is the routine of the component reached first,
 *     the component's root;
 *   - its member list (cyc_next) is in the order the walk reached them:
 *     gprof appends, at each glom, the lists of the stack entries above
 *     the cycle's top in stack order, and each such list holds routines
 *     reached after the previous entry's and before the next one's (they
 *     were above it on the stack), so the list is in discovery order,
 *     the order of Tarjan's component stack;
 *   - top_order: gprof numbers a routine, or a whole cycle, when it
 *     leaves the head (post_visit), which is when Tarjan closes the
 *     component; every member gets the head's number.
 * The walk is iterative (an explicit stack), so no depth limit. */

typedef struct dfn_frame {
	size_t sym;
	size_t arc; /* next child arc to visit */
} dfn_frame;

typedef struct tarjan {
	size_t *pre, *low; /* discovery number (0: not reached yet), low link */
	size_t *comp;      /* the component stack */
	size_t ncomp;
	dfn_frame *st;     /* the walk */
	unsigned char *on; /* on the component stack */
	size_t counter;    /* discovery numbers */
	long top;          /* gprof's dfn_counter */
} tarjan;

static void tarjan_close(pc_callgraph *g, tarjan *t, size_t root)
{
	cg_sym *s = g->s;
	size_t k = t->ncomp;
	while (t->comp[k - 1] != root)
		k--;
	k--; /* comp[k] == root; comp[k..ncomp) is the component */
	++t->top;
	for (size_t j = k; j < t->ncomp; j++) {
		size_t m = t->comp[j];
		t->on[m] = 0;
		s[m].top_order = t->top;
		s[m].cyc_head = root;
		s[m].cyc_next = j + 1 < t->ncomp ? t->comp[j + 1] : NONE;
	}
	t->ncomp = k;
}

static void tarjan_walk(pc_callgraph *g, tarjan *t, size_t root)
{
	size_t depth = 0;
	t->st[depth].sym = root;
	t->st[depth].arc = g->s[root].children;
	t->pre[root] = t->low[root] = ++t->counter;
	t->comp[t->ncomp++] = root;
	t->on[root] = 1;
	for (;;) {
		dfn_frame *f = &t->st[depth];
		size_t v = f->sym;
		if (f->arc == NONE) {
			if (t->low[v] == t->pre[v])
				tarjan_close(g, t, v);
			if (depth == 0)
				return;
			depth--;
			size_t u = t->st[depth].sym;
			if (t->low[v] < t->low[u])
				t->low[u] = t->low[v];
			continue;
		}
		size_t w = g->a[f->arc].child;
		f->arc = g->a[f->arc].next_child;
		if (t->pre[w] == 0) {
			depth++;
			t->st[depth].sym = w;
			t->st[depth].arc = g->s[w].children;
			t->pre[w] = t->low[w] = ++t->counter;
			t->comp[t->ncomp++] = w;
			t->on[w] = 1;
		} else if (t->on[w] && t->pre[w] < t->low[v]) {
			t->low[v] = t->pre[w];
		}
	}
}

static int number_graph(pc_callgraph *g)
{
	size_t n = g->nrows, m = n ? n : 1;
	tarjan t;
	memset(&t, 0, sizeof t);
	t.pre = calloc(m, sizeof *t.pre);
	t.low = malloc(m * sizeof *t.low);
	t.comp = malloc(m * sizeof *t.comp);
	t.st = malloc(m * sizeof *t.st);
	t.on = calloc(m, 1);
	int rc = PC_ENOMEM;
	if (t.pre && t.low && t.comp && t.st && t.on) {
		for (size_t i = 0; i < n; i++)
			if (t.pre[i] == 0)
				tarjan_walk(g, &t, i);
		rc = PC_OK;
	}
	free(t.pre);
	free(t.low);
	free(t.comp);
	free(t.st);
	free(t.on);
	return rc;
}

/* ---- cycles, flags, propagation (gprof cg_arcs.c) ---------------------- */

static int cycle_link(pc_callgraph *g)
{
	size_t n = g->nrows, num = 0;
	for (size_t i = 0; i < n; i++)
		if (g->s[i].cyc_head == i && g->s[i].cyc_next != NONE)
			num++;
	if (num) {
		cg_sym *ns = realloc(g->s, (n + num) * sizeof *ns);
		if (!ns)
			return PC_ENOMEM;
		g->s = ns;
	}
	g->ncycles = num;
	cg_sym *s = g->s;
	num = 0;
	for (size_t i = 0; i < n; i++) {
		if (!(s[i].cyc_head == i && s[i].cyc_next != NONE))
			continue;
		++num;
		size_t c = n + num - 1;
		memset(&s[c], 0, sizeof s[c]);
		s[c].print_flag = 1;
		s[c].top_order = DFN_NAN;
		s[c].cyc_num = (unsigned)num;
		s[c].cyc_head = c;
		s[c].cyc_next = i;
		s[c].children = s[c].parents = NONE;
		for (size_t m = i; m != NONE; m = s[m].cyc_next) {
			s[m].cyc_num = (unsigned)num;
			s[m].cyc_head = c;
		}
		for (size_t m = i; m != NONE; m = s[m].cyc_next)
			for (size_t a = s[m].parents; a != NONE;
			     a = g->a[a].next_parent) {
				size_t par = g->a[a].parent;
				if (par == m)
					continue;
				if (s[par].cyc_num == num)
					s[c].self_calls += g->a[a].count;
				else
					s[c].ncalls += g->a[a].count;
			}
	}
	return PC_OK;
}

static void inherit_flags(pc_callgraph *g, size_t child)
{
	cg_sym *s = g->s;
	size_t head = s[child].cyc_head;
	if (child == head) {
		s[child].print_flag = 0;
		s[child].fract = 0.0;
		for (size_t a = s[child].parents; a != NONE;
		     a = g->a[a].next_parent) {
			size_t par = g->a[a].parent;
			if (par == child)
				continue;
			s[child].print_flag |= s[par].print_flag;
			if (s[child].ncalls != 0)
				s[child].fract += s[par].fract *
					(((double)g->a[a].count) /
					 ((double)s[child].ncalls));
		}
	} else {
		s[head].print_flag = 0;
		s[head].fract = 0.0;
		for (size_t m = s[head].cyc_next; m != NONE; m = s[m].cyc_next)
			for (size_t a = s[m].parents; a != NONE;
			     a = g->a[a].next_parent) {
				size_t par = g->a[a].parent;
				if (s[par].cyc_head == head)
					continue;
				s[head].print_flag |= s[par].print_flag;
				if (s[head].ncalls != 0)
					s[head].fract += s[par].fract *
						(((double)g->a[a].count) /
						 ((double)s[head].ncalls));
			}
		for (size_t m = head; m != NONE; m = s[m].cyc_next) {
			s[m].print_flag = s[head].print_flag;
			s[m].fract = s[head].fract;
		}
	}
}

static void propagate_flags(pc_callgraph *g, const size_t *top, const pc_symspecs *ss)
{
	cg_sym *s = g->s;
	size_t old_head = NONE;
	for (size_t k = g->nrows; k-- > 0;) {
		size_t c = top[k];
		if (s[c].cyc_head != old_head) {
			old_head = s[c].cyc_head;
			inherit_flags(g, c);
		}
		/* gprof's INCL_/EXCL_GRAPH and _TIME tables: the
		 * selections given (symspec.c), and its default exclusions
		 * (mcount & co), our PC_SYMF_EXCLUDED */
		int ex = s[c].excluded;
		if (!s[c].print_flag) {
			if (pc_symspecs_selected(ss, PC_SS_INCL_GRAPH, c, ex))
				s[c].print_flag = 1;
		} else if (!pc_symspecs_has(ss, PC_SS_INCL_GRAPH, c) &&
			   (ex || pc_symspecs_has(ss, PC_SS_EXCL_GRAPH, c))) {
			s[c].print_flag = 0;
		}
		if (s[c].fract == 0.0) {
			if (pc_symspecs_selected(ss, PC_SS_INCL_TIME, c, ex))
				s[c].fract = 1.0;
		} else if (!pc_symspecs_has(ss, PC_SS_INCL_TIME, c) &&
			   (ex || pc_symspecs_has(ss, PC_SS_EXCL_TIME, c))) {
			s[c].fract = 0.0;
		}
		s[c].pself = s[c].hist_time * s[c].fract;
		g->print_time += s[c].pself;
	}
}

static void cycle_time(pc_callgraph *g)
{
	cg_sym *s = g->s;
	for (size_t c = g->nrows; c < g->nrows + g->ncycles; c++) {
		for (size_t m = s[c].cyc_next; m != NONE; m = s[m].cyc_next) {
			if (s[m].fract == 0.0)
				continue;
			s[c].hist_time += s[m].hist_time;
		}
		s[c].pself = s[c].fract * s[c].hist_time;
	}
}

static void propagate_time(pc_callgraph *g, size_t parent)
{
	cg_sym *s = g->s;
	if (s[parent].fract == 0.0)
		return;
	for (size_t ai = s[parent].children; ai != NONE;
	     ai = g->a[ai].next_child) {
		cg_arc *a = &g->a[ai];
		size_t child = a->child;
		if (a->count == 0 || child == parent || s[child].fract == 0)
			continue;
		if (s[child].cyc_head != child) {
			if (s[parent].cyc_num == s[child].cyc_num)
				continue;
			child = s[child].cyc_head;
		} else if (s[parent].top_order <= s[child].top_order) {
			continue; /* gprof: "toporder botches" */
		}
		if (s[child].ncalls == 0)
			continue;
		a->time = s[child].hist_time *
			(((double)a->count) / ((double)s[child].ncalls));
		a->child_time = s[child].child_time *
			(((double)a->count) / ((double)s[child].ncalls));
		double share = a->time + a->child_time;
		s[parent].child_time += share;
		double prop_share = s[parent].fract * share;
		s[parent].pchild += prop_share;
		a->time *= s[parent].fract;
		a->child_time *= s[parent].fract;
		if (s[parent].cyc_head != parent) {
			s[s[parent].cyc_head].child_time += share;
			s[s[parent].cyc_head].pchild += prop_share;
		}
	}
}

/* gprof's cmp_topo */
static int cmp_topo(const void *ctx, size_t a, size_t b)
{
	const cg_sym *base = ctx;
	long d = base[a].top_order - base[b].top_order;
	return d < 0 ? -1 : (d > 0);
}

/* gprof's cmp_total */
static int cmp_total(const void *ctx, size_t ia, size_t ib)
{
	const cg_sym *base = ctx;
	const cg_sym *a = &base[ia], *b = &base[ib];
	double diff = (a->pself + a->pchild) - (b->pself + b->pchild);
	if (diff < 0.0)
		return 1;
	if (diff > 0.0)
		return -1;
	if (!a->name && a->cyc_num != 0)
		return -1;
	if (!b->name && b->cyc_num != 0)
		return 1;
	if (!a->name)
		return -1;
	if (!b->name)
		return 1;
	if (a->key[0] != '_' && b->key[0] == '_')
		return -1;
	if (a->key[0] == '_' && b->key[0] != '_')
		return 1;
	if (a->ncalls > b->ncalls)
		return -1;
	if (a->ncalls < b->ncalls)
		return 1;
	return strcmp(a->key, b->key);
}

/* glibc's qsort (msort.c), which gprof's sorts go through: a top-down
 * merge sort, the left half n / 2 long, that takes the left run's element
 * unless cmp(left, right) > 0.  The order matters for gprof's cmp_total,
 * which ranks two equal cycles each before the other. */
void pc_sort_idx(size_t *v, size_t n, size_t *tmp,
		 int (*cmp)(const void *ctx, size_t a, size_t b),
		 const void *ctx)
{
	if (n < 2)
		return;
	size_t h = n / 2;
	pc_sort_idx(v, h, tmp, cmp, ctx);
	pc_sort_idx(v + h, n - h, tmp, cmp, ctx);
	size_t i = 0, j = h, k = 0;
	while (i < h && j < n)
		tmp[k++] = cmp(ctx, v[i], v[j]) <= 0 ? v[i++] : v[j++];
	while (i < h)
		tmp[k++] = v[i++];
	memcpy(v, tmp, k * sizeof *v);
}

/* ---- Proff hierarchical times ------------------------------------------ */

static void proff_times(pc_callgraph *g)
{
	cg_sym *s = g->s;
	for (size_t i = 0; i < g->na; i++) {
		const cg_arc *a = &g->a[i];
		s[a->child].ftime += a->ftime;
		int inside = a->parent == a->child ||
			(s[a->child].cyc_num != 0 &&
			 s[a->parent].cyc_num == s[a->child].cyc_num);
		if (inside)
			continue;
		s[a->child].htime += a->htime;
		if (s[a->child].cyc_num)
			s[s[a->child].cyc_head].htime += a->htime;
	}
	for (size_t c = g->nrows; c < g->nrows + g->ncycles; c++)
		for (size_t m = s[c].cyc_next; m != NONE; m = s[m].cyc_next)
			s[c].ftime += s[m].ftime;
	/* the run: arcs leaving rows that nothing else calls */
	double run = 0, most = 0;
	for (size_t i = 0; i < g->na; i++) {
		const cg_arc *a = &g->a[i];
		if (a->parent != a->child && s[a->parent].ncalls == 0 &&
		    s[a->parent].cyc_num == 0)
			run += a->htime;
	}
	for (size_t i = 0; i < g->nrows + g->ncycles; i++)
		if (s[i].htime > most)
			most = s[i].htime;
	g->run_htime = run > most ? run : most;
}

/* ---- public entry points ------------------------------------------------ */

int pc_profile_callgraph(pc_callgraph **out, pc_profile *p,
			 const pc_callgraph_options *opts)
{
	if (!p || !out)
		return PC_EUSAGE;
	*out = NULL;
	pc_callgraph_options dflt = PC_CALLGRAPH_OPTIONS_INIT;
	if (!opts)
		opts = &dflt;
	if (opts->version != PC_CALLGRAPH_OPTIONS_VERSION)
		return pc_profile_fail(p, PC_EUSAGE,
				       "pc_callgraph_options.version %u: expected %u "
				       "(PC_CALLGRAPH_OPTIONS_INIT)",
				       opts->version, PC_CALLGRAPH_OPTIONS_VERSION);
	if (opts->time != PC_CALLGRAPH_TIME_AUTO && opts->time != PC_CALLGRAPH_TIME_SAMPLES &&
	    opts->time != PC_CALLGRAPH_TIME_FLAT)
		return pc_profile_fail(p, PC_EUSAGE,
				       "pc_callgraph_options.time %d: expected one of "
				       "PC_CALLGRAPH_TIME_AUTO, _SAMPLES, _FLAT",
				       (int)opts->time);
	int rc = pc_profile_attribute(p, opts->attrib);
	if (rc)
		return rc;
	pc_symspecs ss; /* as the attribution read them */
	if ((rc = pc_symspecs_parse(p, pc_profile_symspecs(p), &ss)))
		return rc;
	pc_callgraph *g = calloc(1, sizeof *g);
	if (!g) {
		pc_symspecs_free(&ss);
		return pc_profile_fail(p, PC_ENOMEM, "out of memory");
	}
	size_t n = pc_profile_rows(p);
	g->nrows = n;
	g->s = calloc(n ? n : 1, sizeof *g->s);
	size_t *top = malloc((n ? n : 1) * 2 * sizeof *top);
	size_t acap = 0;
	if (!g->s || !top) {
		rc = PC_ENOMEM;
		goto fail;
	}
	for (size_t i = 0; i < n; i++) {
		pc_row r;
		pc_symbol sym;
		pc_profile_row_at(&r, p, i);
		g->s[i].name = r.name;
		g->s[i].key = r.name;
		g->s[i].hist_time = r.count;
		g->s[i].children = g->s[i].parents = NONE;
		g->s[i].cyc_head = i;
		g->s[i].cyc_next = NONE;
		if (pc_profile_symbol_at(&sym, p, r.symbol) == PC_OK) {
			g->s[i].key = sym.name;
			if (sym.flags & PC_SYMF_EXCLUDED)
				g->s[i].excluded = 1;
		}
	}
	/* own time: samples when the capture has any, else flat arc time */
	int flat = pc_profile_histogram_count(p) == 0 &&
		pc_profile_sample_count(p) == 0;
	if (opts->time == PC_CALLGRAPH_TIME_SAMPLES)
		flat = 0;
	else if (opts->time == PC_CALLGRAPH_TIME_FLAT)
		flat = 1;

	if ((rc = pc_symspecs_resolve(p, &ss, pc_profile_row_find)))
		goto fail;
	size_t narcs = pc_profile_arc_count(p);
	for (g->hcap = 16; g->hcap < narcs && g->hcap < SIZE_MAX / 4;)
		g->hcap *= 2;
	g->hcap *= 2; /* at most half full */
	g->hash = malloc(g->hcap * sizeof *g->hash);
	if (!g->hash) {
		rc = PC_ENOMEM;
		goto fail;
	}
	memset(g->hash, 0xff, g->hcap * sizeof *g->hash); /* NONE */
	for (size_t i = 0; i < narcs; i++) {
		pc_arc a;
		pc_profile_arc_at(&a, p, i);
		int64_t par = pc_profile_row_find(p, a.from_segment, a.from);
		int64_t chi = pc_profile_row_find(p, a.to_segment, a.to);
		if (par < 0 || chi < 0) {
			g->dropped++;
			continue;
		}
		/* gprof -k FROM/TO, -q FROM/TO: arcs left out */
		if (!pc_symspecs_arc_kept(&ss, (size_t)par, (size_t)chi))
			continue;
		if ((rc = arc_add(g, &acap, (size_t)par, (size_t)chi, &a)))
			goto fail;
	}
	if (flat) {
		for (size_t i = 0; i < n; i++)
			g->s[i].hist_time = 0;
		for (size_t i = 0; i < g->na; i++)
			g->s[g->a[i].child].hist_time += g->a[i].ftime;
	}
	/* cg_assemble */
	for (size_t i = 0; i < n; i++) {
		size_t a = arc_lookup(g, i, i);
		if (a != NONE) {
			g->s[i].ncalls -= g->a[a].count;
			g->s[i].self_calls = g->a[a].count;
		}
	}
	if ((rc = number_graph(g)))
		goto fail;
	free(g->hash);
	g->hash = NULL;
	if ((rc = cycle_link(g)))
		goto fail;
	size_t total = n + g->ncycles;
	size_t *ord = malloc((total ? total : 1) * 2 * sizeof *ord);
	if (!ord) {
		rc = PC_ENOMEM;
		goto fail;
	}
	for (size_t i = 0; i < n; i++)
		top[i] = i;
	pc_sort_idx(top, n, top + n, cmp_topo, g->s);
	propagate_flags(g, top, &ss);
	cycle_time(g);
	for (size_t i = 0; i < n; i++)
		propagate_time(g, top[i]);
	for (size_t i = 0; i < total; i++)
		ord[i] = i;
	pc_sort_idx(ord, total, ord + total, cmp_total, g->s);
	for (size_t i = 0; i < total; i++)
		g->s[ord[i]].index = i + 1;
	free(ord);
	proff_times(g);
	free(top);
	pc_symspecs_free(&ss);
	*out = g;
	return PC_OK;
fail:
	pc_symspecs_free(&ss);
	free(top);
	pc_callgraph_free(g);
	if (rc == PC_ENOMEM)
		return pc_profile_fail(p, PC_ENOMEM, "out of memory");
	return rc;
}

void pc_callgraph_free(pc_callgraph *g)
{
	if (!g)
		return;
	free(g->s);
	free(g->a);
	free(g->hash);
	free(g);
}

size_t pc_callgraph_node_count(const pc_callgraph *g)
{
	return g ? g->nrows + g->ncycles : 0;
}

size_t pc_callgraph_cycle_count(const pc_callgraph *g)
{
	return g ? g->ncycles : 0;
}

size_t pc_callgraph_cycle_index(const pc_callgraph *g, unsigned n)
{
	if (!g || n == 0 || n > g->ncycles)
		return NONE;
	return g->nrows + (size_t)n - 1;
}

int pc_callgraph_cycle_node(size_t *node, const pc_callgraph *g, unsigned n)
{
	if (node)
		*node = 0;
	if (!g || !node)
		return PC_EUSAGE;
	if (n == 0 || n > g->ncycles)
		return PC_ENOTFOUND;
	*node = g->nrows + (size_t)n - 1;
	return PC_OK;
}

int pc_callgraph_node_at_sized(pc_cg_node *out, size_t out_size,
			       const pc_callgraph *g, size_t i)
{
	if (!g || !out || !out_size)
		return PC_EUSAGE;
	if (i >= g->nrows + g->ncycles)
		return PC_ENOTFOUND;
	pc_icg_node in;
	pc_callgraph_inode_at(g, i, &in);
	pc_cg_node n;
	n.row = in.row >= 0 ? (size_t)in.row : 0;
	n.is_cycle = in.row < 0;
	n.name = in.name;
	n.cycle = in.cycle;
	n.index = in.index;
	n.listed = in.listed;
	n.calls = in.calls;
	n.self_calls = in.self_calls;
	n.time = in.time;
	n.self = in.self;
	n.children = in.children;
	n.htime = in.htime;
	n.ftime = in.ftime;
	n.has_next = in.next_member != NONE;
	n.next_member = n.has_next ? in.next_member : 0;
	return pc_copy_sized(out, out_size, &n, sizeof n);
}

int pc_callgraph_inode_at(const pc_callgraph *g, size_t i, pc_icg_node *out)
{
	if (!g || !out || i >= g->nrows + g->ncycles)
		return PC_EUSAGE;
	const cg_sym *s = &g->s[i];
	out->row = i < g->nrows ? (int64_t)i : -1;
	out->name = s->name;
	out->cycle = s->cyc_num;
	out->index = s->index;
	out->listed = s->print_flag;
	out->calls = s->ncalls;
	out->self_calls = s->self_calls;
	out->time = s->hist_time;
	out->self = s->pself;
	out->children = s->pchild;
	out->htime = s->htime;
	out->ftime = s->ftime;
	out->next_member = s->cyc_num ? s->cyc_next : NONE;
	return PC_OK;
}

size_t pc_callgraph_edge_count(const pc_callgraph *g)
{
	return g ? g->na : 0;
}

int pc_callgraph_edge_at_sized(pc_cg_edge *out, size_t out_size,
			       const pc_callgraph *g, size_t i)
{
	if (!g || !out || !out_size)
		return PC_EUSAGE;
	if (i >= g->na)
		return PC_ENOTFOUND;
	const cg_arc *a = &g->a[i];
	pc_cg_edge e;
	e.parent = a->parent;
	e.child = a->child;
	e.count = a->count;
	e.self = a->time;
	e.children = a->child_time;
	e.htime = a->htime;
	e.ftime = a->ftime;
	return pc_copy_sized(out, out_size, &e, sizeof e);
}

double pc_callgraph_total(const pc_callgraph *g)
{
	return g ? g->print_time : 0;
}

double pc_callgraph_run_htime(const pc_callgraph *g)
{
	return g ? g->run_htime : 0;
}

size_t pc_callgraph_dropped_arcs(const pc_callgraph *g)
{
	return g ? g->dropped : 0;
}

/* ---- call paths (internal.h pc_callgraph_paths) ------------------------- */

typedef struct pwalk {
	const pc_callgraph *g;
	pc_cgpaths *o;
	size_t path[PC_CG_MAX_DEPTH + 1];
	size_t depth;
} pwalk;

static int path_emit(pwalk *w, double weight)
{
	pc_cgpaths *o = w->o;
	if (pc_grow((void **)&o->v, &o->cap, o->n + 1, sizeof *o->v) ||
	    pc_grow((void **)&o->pool, &o->cappool, o->npool + w->depth,
		    sizeof *o->pool))
		return PC_ENOMEM;
	o->v[o->n++] = (pc_cgpath){o->npool, w->depth, weight};
	memcpy(&o->pool[o->npool], w->path, w->depth * sizeof *w->path);
	o->npool += w->depth;
	o->emitted++;
	o->pooled += w->depth;
	return PC_OK;
}

typedef struct pcaller {
	size_t parent;
	uint64_t count;
} pcaller;

static int cmp_pcaller(const void *a, const void *b)
{
	const pcaller *x = a, *y = b;
	return x->parent < y->parent ? -1 : x->parent > y->parent;
}

static int path_up(pwalk *w, size_t x, double weight);

/* One step to caller par of x (a routine, or a cycle member followed by
 * its cycle). */
static int path_step(pwalk *w, size_t par, double weight)
{
	const cg_sym *s = w->g->s;
	size_t d = w->depth;
	w->path[w->depth++] = par;
	size_t next = par;
	if (s[par].cyc_head != par) {
		next = s[par].cyc_head;
		if (w->depth < PC_CG_MAX_DEPTH)
			w->path[w->depth++] = next;
	}
	int rc = path_up(w, next, weight);
	w->depth = d;
	return rc;
}

/* path[0..depth) ends with x, a routine in no cycle or a cycle node. */
static int path_up(pwalk *w, size_t x, double weight)
{
	const pc_callgraph *g = w->g;
	const cg_sym *s = g->s;
	if (!(weight > 0))
		return PC_OK;
	if (w->depth >= PC_CG_MAX_DEPTH || w->o->emitted >= PC_CG_MAX_PATHS ||
	    w->o->pooled >= PC_CG_MAX_POOL) {
		w->path[w->depth++] = PC_CG_TRUNCATED;
		w->o->truncated += weight;
		int rc = path_emit(w, weight);
		w->depth--;
		return rc;
	}
	uint64_t ncalls = s[x].ncalls;
	int any = 0;
	if (x < g->nrows) {
		for (size_t ai = s[x].parents; ai != NONE; ai = g->a[ai].next_parent) {
			const cg_arc *a = &g->a[ai];
			size_t par = a->parent;
			if (par == x || a->count == 0 || s[par].fract == 0.0 ||
			    ncalls == 0)
				continue;
			any = 1;
			int rc = path_step(w, par,
					   weight * ((double)a->count / (double)ncalls));
			if (rc)
				return rc;
		}
	} else {
		/* the arcs entering the cycle from outside, merged per caller */
		size_t n = 0, cap = 0;
		pcaller *v = NULL;
		for (size_t m = s[x].cyc_next; m != NONE; m = s[m].cyc_next)
			for (size_t ai = s[m].parents; ai != NONE;
			     ai = g->a[ai].next_parent) {
				const cg_arc *a = &g->a[ai];
				size_t par = a->parent;
				if (s[par].cyc_head == x || a->count == 0 ||
				    s[par].fract == 0.0 || ncalls == 0)
					continue;
				if (pc_grow((void **)&v, &cap, n + 1, sizeof *v)) {
					free(v);
					return PC_ENOMEM;
				}
				v[n++] = (pcaller){par, a->count};
			}
		if (n > 1)
			qsort(v, n, sizeof *v, cmp_pcaller);
		int rc = PC_OK;
		for (size_t i = 0; i < n && !rc;) {
			uint64_t c = 0;
			size_t par = v[i].parent;
			for (; i < n && v[i].parent == par; i++)
				c += v[i].count;
			any = 1;
			rc = path_step(w, par, weight * ((double)c / (double)ncalls));
		}
		free(v);
		if (rc)
			return rc;
	}
	return any ? PC_OK : path_emit(w, weight);
}

int pc_callgraph_paths(const pc_callgraph *g, size_t row, int measured,
		       pc_cgpaths *out)
{
	if (!g || row >= g->nrows)
		return PC_OK;
	const cg_sym *s = g->s;
	double t = s[row].hist_time;
	if (!(t > 0))
		return PC_OK;
	pwalk *w = malloc(sizeof *w);
	if (!w)
		return PC_ENOMEM;
	w->g = g;
	w->o = out;
	w->depth = 1;
	w->path[0] = row;
	int rc = PC_OK;
	if (s[row].fract == 0.0) {
		rc = path_emit(w, t); /* excluded: its own time, no callers */
	} else if (s[row].cyc_head != row) {
		w->path[w->depth++] = s[row].cyc_head;
		rc = path_up(w, s[row].cyc_head, t);
	} else if (measured) {
		double rest = t;
		for (size_t ai = s[row].parents; ai != NONE && !rc;
		     ai = g->a[ai].next_parent) {
			const cg_arc *a = &g->a[ai];
			if (a->parent == row || !(a->ftime > 0) ||
			    s[a->parent].fract == 0.0)
				continue;
			rest -= a->ftime;
			rc = path_step(w, a->parent, a->ftime);
		}
		if (!rc && rest > t * 1e-12)
			rc = path_up(w, row, rest);
	} else {
		rc = path_up(w, row, t);
	}
	free(w);
	return rc;
}

void pc_cgpaths_free(pc_cgpaths *out)
{
	free(out->v);
	free(out->pool);
	memset(out, 0, sizeof *out);
}
