/*
 * stackfilter.c - --focus and --ignore by the stack rule of the exports
 * for the flat report and the call graph (pc_stackkeep), and the call
 * graph's filtered profile (pc_filter_profile).  See stackfilter.h.
 */
#include "stackfilter.h"
#include "export.h"
#include "model.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- the stack rule for the flat report and the call graph ---------- */

int pc_stackkeep_init(pc_profile *p, const pc_options *o, pc_stackkeep *sk)
{
	memset(sk, 0, sizeof *sk);
	pc_gran gran = pc_options_gran(o);
	if ((!pc_options_get(o, "focus") && !pc_options_get(o, "ignore")) ||
	    (gran != PC_GRAN_NONE && gran != PC_GRAN_FUNCTION))
		return PC_OK;
	/* the exports' model with the report's attribution keys, at
	 * function granularity with estimated stacks; hide stays the
	 * report's (one frame per row) */
	pc_options *xo = NULL;
	int st = pc_options_new(&xo);
	for (size_t i = 0; !st && i < pc_options_count(o); i++) {
		const char *k = pc_options_key_at(o, i);
		if (strcmp(k, "hide") && strcmp(k, "stacks") && strcmp(k, "granularity"))
			st = pc_options_set(xo, k, pc_options_get(o, k));
	}
	if (!st)
		st = pc_options_set(xo, "granularity", "function");
	if (st) {
		pc_options_free(xo);
		return pc_profile_fail(p, PC_ENOMEM, "out of memory");
	}
	pc_xmodel m;
	st = pc_xmodel_build(&m, p, xo);
	pc_options_free(xo);
	if (st || m.arc_time) {
		pc_xmodel_free(&m);
		return st;
	}
	size_t n = pc_profile_rows(p);
	sk->row = calloc(n ? n : 1, sizeof *sk->row);
	if (!sk->row) {
		pc_xmodel_free(&m);
		return pc_profile_fail(p, PC_ENOMEM, "out of memory");
	}
	for (size_t i = 0; i < m.nframes; i++) {
		const pc_xframe *fr = &m.frames[i];
		if (fr->row >= 0 && (size_t)fr->row < n)
			sk->row[fr->row] += fr->self;
		else if (fr->row < 0 && fr->cls >= 0 && fr->cls < PC_REGION_COUNT)
			sk->cls[fr->cls] += fr->self;
	}
	sk->how = m.estimated ? "stacks estimated from call counts, as gprof"
			      : "no call arcs: a sample's stack is its function";
	pc_xmodel_free(&m);
	return PC_OK;
}

void pc_stackkeep_dispose(pc_stackkeep *sk)
{
	free(sk->row);
	memset(sk, 0, sizeof *sk);
}

/* ---- the filtered profile of the call graph -------------------------- */

typedef struct rarc {
	int64_t ri, rj; /* rows of caller and callee, -1 outside every row */
	pc_arc a;
} rarc;

static int push_rarc(rarc **v, size_t *n, size_t *cap, rarc x)
{
	if (pc_grow((void **)v, cap, *n + 1, sizeof **v))
		return PC_ENOMEM;
	(*v)[(*n)++] = x;
	return PC_OK;
}

/* The arcs of hidden row h replaced by its callers' arcs to its callees:
 * A -> B gets the calls of h -> B split among the callers A in
 * proportion to their calls of h (rounded); h's arcs go. */
static int join_hidden(rarc **v, size_t *n, size_t *cap, int64_t h)
{
	uint64_t in = 0;
	size_t n0 = *n;
	for (size_t i = 0; i < n0; i++)
		if ((*v)[i].rj == h && (*v)[i].ri != h)
			in += (*v)[i].a.count;
	for (size_t i = 0; i < n0 && in > 0; i++) {
		if ((*v)[i].rj != h || (*v)[i].ri == h)
			continue;
		for (size_t j = 0; j < n0; j++) {
			if ((*v)[j].ri != h || (*v)[j].rj == h)
				continue;
			const rarc a = (*v)[i], b = (*v)[j];
			double c = (double)b.a.count * ((double)a.a.count / (double)in);
			uint64_t cnt = c >= 9.0e18 ? UINT64_MAX : (uint64_t)llround(c);
			if (!cnt)
				continue;
			rarc x = {a.ri, b.rj, a.a};
			x.a.to_segment = b.a.to_segment;
			x.a.to = b.a.to;
			x.a.count = cnt;
			x.a.htime = x.a.ftime = 0;
			if (push_rarc(v, n, cap, x))
				return PC_ENOMEM;
		}
	}
	size_t w = 0;
	for (size_t i = 0; i < *n; i++)
		if ((*v)[i].ri != h && (*v)[i].rj != h)
			(*v)[w++] = (*v)[i];
	*n = w;
	return PC_OK;
}

int pc_filter_profile(pc_profile *p, const pc_options *o, pc_profile **out,
		      const char **stacks)
{
	*out = NULL;
	if (stacks)
		*stacks = NULL;
	pc_rowfilter rf;
	pc_profile *q = NULL;
	unsigned char *drop = NULL, *hid = NULL;
	rarc *arcs = NULL;
	size_t na = 0, capa = 0;
	int st = pc_rowfilter_init(p, o, &rf);
	if (st || !rf.any)
		goto done;
	size_t n = rf.nrows;
	drop = calloc(n ? n : 1, 1);
	hid = calloc(n ? n : 1, 1);
	if (!drop || !hid)
		goto oom;
	for (size_t i = 0; i < n; i++) {
		pc_row r;
		pc_symbol sym;
		int k = pc_rowfilter_keep_row(&rf, (int64_t)i);
		if (k < 0) {
			st = k;
			goto done;
		}
		drop[i] = (unsigned char)!k;
		if (!rf.f.hide)
			continue;
		if ((st = pc_profile_row_at(&r, p, i)) ||
		    (st = pc_profile_symbol_at(&sym, p, r.symbol)))
			goto done;
		int h = pc_filter_match(p, &rf.f, rf.f.hide, r.name ? r.name : "", sym.name);
		if (h < 0) {
			st = h;
			goto done;
		}
		hid[i] = (unsigned char)(h != 0);
	}
	pc_profile_new(&q, p->reg);
	if (!q)
		goto oom;
	q->exact = p->exact;
	q->dimension = pc_strpool_add(&q->pool, p->dimension);
	q->abbrev = p->abbrev;
	if (!q->dimension)
		goto oom;
	if (pc_profile_merge(q, p)) {
		const pc_error *e = pc_profile_error(q);
		st = pc_profile_fail(p, e ? e->code : PC_ENOMEM, "%s",
				     e ? e->message : "out of memory");
		goto done;
	}
	for (size_t i = 0; i < p->nmeta; i++)
		pc_profile_set_meta(q, p->meta_key[i], p->meta_val[i]);
	q->dwarf = p->dwarf ? p->dwarf : p->own_dwarf;
	/* arcs: a hidden function's callers joined to its callees */
	for (size_t i = 0; i < p->narcs; i++) {
		rarc x = {pc_profile_row_find(p, p->arcs[i].from_segment, p->arcs[i].from),
			  pc_profile_row_find(p, p->arcs[i].to_segment, p->arcs[i].to),
			  p->arcs[i]};
		if (push_rarc(&arcs, &na, &capa, x))
			goto oom;
	}
	for (size_t h = 0; h < n; h++)
		if (hid[h] && join_hidden(&arcs, &na, &capa, (int64_t)h))
			goto oom;
	q->narcs = 0;
	for (size_t i = 0; i < na; i++)
		if ((st = pc_profile_add_arc(q, &arcs[i].a)))
			goto done;
	/* calls without callers (mon.out slots) of hidden functions go */
	size_t w = 0;
	for (size_t i = 0; i < q->ncalls; i++) {
		int64_t r = pc_profile_row_find(p, q->calls[i].segment, q->calls[i].address);
		if (r < 0 || !hid[r])
			q->calls[w++] = q->calls[i];
	}
	q->ncalls = w;
	pc_profile_invalidate(q);
	if ((st = pc_profile_attribute(q, pc_options_attrib(o))))
		goto done;
	if (q->ntargets != n) {
		st = pc_profile_fail(p, PC_EUNSUPPORTED, "filtered profile: %zu rows, not %zu",
				     q->ntargets, n);
		goto done;
	}
	/* the samples the filters drop leave the graph, the totals stay
	 * every sample's: focus and ignore by the stack rule (a function
	 * keeps the samples of its stacks that pass: the focused
	 * function's subtree keeps its time, gprof -F), else (and hide)
	 * by the function's name */
	pc_stackkeep sk;
	if ((st = pc_stackkeep_init(p, o, &sk)))
		goto done;
	for (size_t i = 0; i < n; i++)
		if (sk.row)
			q->targets[i].count = hid[i] ? 0 : sk.row[i];
		else if (drop[i])
			q->targets[i].count = 0;
	if (stacks)
		*stacks = sk.how;
	pc_stackkeep_dispose(&sk);
	*out = q;
	q = NULL;
	goto done;
oom:
	st = pc_profile_fail(p, PC_ENOMEM, "out of memory");
done:
	pc_profile_free(q);
	free(arcs);
	free(drop);
	free(hid);
	pc_rowfilter_dispose(&rf);
	return st;
}
