/*
 * filter.c - --focus, --ignore and --hide for the reports that see
 * samples one address at a time (regions, intervals, source, locations,
 * disasm, symbols; the call graph, arcs and the HTML call tables through
 * pc_filter_profile): the one-frame rule of the flat report
 * (docs/usage.md ("Rows")), per attribution row.
 *
 * A sample is kept when the row (symbol) holding it passes: its name
 * matches focus (when given) and neither ignore nor hide (a one-frame
 * stack: hiding its only frame drops the sample, as pprof drops a sample
 * left without locations).  A sample in no symbol (another region, or
 * program code no symbol covers) has no name: it is dropped by a focus
 * and kept otherwise.  The stack exports apply the stack rule instead
 * (exports.c filter_chains).
 */
#include "filter.h"
#include "export.h"
#include "model.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

int pc_rowfilter_init(pc_profile *p, const pc_options *o, pc_rowfilter *rf)
{
	memset(rf, 0, sizeof *rf);
	int r = pc_filter_init(p, o, &rf->f);
	if (r)
		return r;
	rf->any = rf->f.any;
	rf->opts = o;
	if (!rf->any)
		return PC_OK;
	if ((r = pc_profile_attribute(p, pc_options_attrib(o))))
		return r;
	rf->p = p;
	rf->nrows = pc_profile_rows(p);
	rf->keep = malloc(rf->nrows ? rf->nrows : 1);
	if (!rf->keep)
		return pc_profile_fail(p, PC_ENOMEM, "out of memory");
	memset(rf->keep, 0xff, rf->nrows ? rf->nrows : 1); /* unknown */
	return PC_OK;
}

void pc_rowfilter_dispose(pc_rowfilter *rf)
{
	pc_filter_dispose(&rf->f);
	free(rf->keep);
	memset(rf, 0, sizeof *rf);
}

int pc_rowfilter_keep_row(pc_rowfilter *rf, int64_t row)
{
	if (!rf->any)
		return 1;
	if (row < 0 || (uint64_t)row >= rf->nrows)
		return rf->f.focus ? 0 : 1;
	signed char *k = &rf->keep[row];
	if (*k >= 0)
		return *k;
	pc_row r;
	pc_symbol sym;
	int st;
	if ((st = pc_profile_row_at(rf->p, (size_t)row, &r)) ||
	    (st = pc_profile_symbol_at(rf->p, r.symbol, &sym)))
		return st;
	int m = pc_filter_keep_frame(rf->p, &rf->f, r.name ? r.name : "",
				     sym.name);
	if (m < 0)
		return m;
	*k = (signed char)m;
	return m;
}

int pc_rowfilter_keep_at(pc_rowfilter *rf, uint32_t segment, uint64_t address)
{
	if (!rf->any)
		return 1;
	return pc_rowfilter_keep_row(rf, pc_profile_row_find(rf->p, segment, address));
}

int pc_rowfilter_keep_name(pc_rowfilter *rf, const char *name, const char *key)
{
	if (!rf->any)
		return 1;
	return pc_filter_keep_frame(rf->p, &rf->f, name ? name : "", key);
}

int pc_rowfilter_ranges(pc_rowfilter *rf, uint32_t segment, uint64_t low,
			uint64_t high, pc_addr_range **out, size_t *n)
{
	*out = NULL;
	*n = 0;
	pc_addr_range *v = NULL;
	size_t cap = 0, nv = 0;
	uint64_t at = low; /* [at, ...) not yet covered */
	pc_profile *p = rf->p;
	for (size_t i = 0; i <= p->ntargets && at < high; i++) {
		const pc_target *t = i < p->ntargets ? &p->targets[i] : NULL;
		if (t && (t->segment != segment || t->end <= at))
			continue;
		uint64_t gap_end = t && t->address < high ? t->address : high;
		uint64_t s[2][2];
		int keep[2];
		size_t np = 0;
		if (gap_end > at) { /* no symbol there */
			s[np][0] = at;
			s[np][1] = gap_end;
			keep[np++] = rf->f.focus ? 0 : 1;
		}
		if (t && t->address < high) {
			int k = pc_rowfilter_keep_row(rf, (int64_t)i);
			if (k < 0) {
				free(v);
				return k;
			}
			s[np][0] = t->address > at ? t->address : at;
			s[np][1] = t->end < high ? t->end : high;
			keep[np++] = k;
		}
		for (size_t j = 0; j < np; j++) {
			if (s[j][1] <= s[j][0])
				continue;
			if (keep[j] && nv && v[nv - 1].high == s[j][0]) {
				v[nv - 1].high = s[j][1];
			} else if (keep[j]) {
				if (pc_grow((void **)&v, &cap, nv + 1, sizeof *v)) {
					free(v);
					return pc_profile_fail(p, PC_ENOMEM, "out of memory");
				}
				v[nv++] = (pc_addr_range){s[j][0], s[j][1]};
			}
			at = s[j][1];
		}
		if (!t)
			break;
	}
	*out = v;
	*n = nv;
	return PC_OK;
}

int pc_filter_totals_line(const pc_rowfilter *rf, double kept, double all,
			  pc_sink *k)
{
	if (!rf->any)
		return PC_OK;
	char buf[48];
	pc_sink_puts(k, "Filters: ");
	pc_filter_describe(rf->opts, k);
	pc_sink_printf(k, "; kept %s", pc_fmt_count(kept, buf, sizeof buf));
	pc_sink_printf(k, " of %s samples\n", pc_fmt_count(all, buf, sizeof buf));
	return k->failed;
}

int pc_filter_json(const pc_options *o, pc_sink *k)
{
	static const char *const keys[] = {"focus", "ignore", "hide"};
	pc_sink_puts(k, "{");
	for (size_t i = 0; i < 3; i++) {
		const char *v = pc_options_get(o, keys[i]);
		pc_sink_printf(k, "%s\"%s\": ", i ? ", " : "", keys[i]);
		if (v)
			pc_sink_json_string(k, v);
		else
			pc_sink_puts(k, "null");
	}
	pc_sink_puts(k, "}");
	return k->failed;
}

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
		if ((st = pc_profile_row_at(p, i, &r)) ||
		    (st = pc_profile_symbol_at(p, r.symbol, &sym)))
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
