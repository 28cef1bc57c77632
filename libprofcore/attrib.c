/* attrib.c - attribution of histogram buckets, raw samples, class samples
 * and arcs to symbols and regions.  The rules are documented in README.md
 * ("Attribution rules"); histogram splitting follows GNU gprof 2.40
 * (hist.c hist_assign_samples) exactly.
 */
#include "model.h"
#include "internal.h"
#include "lookup.h"
#include "platform.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- target table ------------------------------------------------------ */

static int is_target(const pc_symbol *s)
{
	if (s->flags & PC_SYMF_NOATTR)
		return 0;
	return s->kind == PC_SYM_TEXT || (s->flags & PC_SYMF_TARGET);
}

/* gprof symtab_finalize: does symbol c replace the kept one k? */
static int prefer(const pc_profile *p, size_t c, size_t k)
{
	const pc_symbol *cs = &p->syms[c], *ks = &p->syms[k];
	const int cg = cs->binding != PC_BIND_LOCAL, kg = ks->binding != PC_BIND_LOCAL;
	const int cf = (cs->flags & PC_SYMF_FUNC) != 0, kf = (ks->flags & PC_SYMF_FUNC) != 0;
	if (cg && !kg)
		return 1;
	if (cg != kg)
		return 0;
	if (cf && !kf)
		return 1;
	if (cf != kf)
		return 0;
	const char *cn = cs->name, *kn = ks->name;
	if (cn[0] != '_' && kn[0] == '_')
		return 1;
	if (cn[0] == '_' && kn[0] == '_' && strncmp(kn, "__", 2) == 0 &&
	    strncmp(cn, "__", 2) != 0)
		return 1;
	return 0;
}

static const pc_region *region_at(const pc_profile *p, uint32_t seg,
				  uint64_t addr, int app_only)
{
	const pc_region *best = NULL;
	for (size_t i = 0; i < p->nregions; i++) {
		const pc_region *r = &p->regions[i];
		if (r->segment != seg || addr < r->low || addr >= r->high)
			continue;
		if (app_only && r->cls != PC_REGION_APPLICATION)
			continue;
		/* the innermost (smallest) region wins */
		if (!best || r->high - r->low < best->high - best->low)
			best = r;
	}
	return best;
}

/* region_at(p, seg, addr, 0) for runs of nearby addresses: the answer
 * and the addresses [lo, hi) of seg where it holds (no region starts or
 * ends inside: the same regions contain all of them). */
typedef struct rcache {
	int valid;
	uint32_t seg;
	uint64_t lo, hi;
	const pc_region *r;
} rcache;

static const pc_region *region_at_cached(const pc_profile *p, rcache *rc,
					 uint32_t seg, uint64_t addr)
{
	if (rc->valid && rc->seg == seg && addr >= rc->lo && addr < rc->hi)
		return rc->r;
	uint64_t lo = 0, hi = UINT64_MAX;
	for (size_t i = 0; i < p->nregions; i++) {
		const pc_region *r = &p->regions[i];
		if (r->segment != seg)
			continue;
		if (addr >= r->low && addr < r->high) {
			if (r->low > lo)
				lo = r->low;
			if (r->high < hi)
				hi = r->high;
		} else if (r->low > addr) {
			if (r->low < hi)
				hi = r->low;
		} else if (r->high > lo) { /* r->high <= addr */
			lo = r->high;
		}
	}
	*rc = (rcache){1, seg, lo, hi, region_at(p, seg, addr, 0)};
	return rc->r;
}

/* ---- lookup: O(1) first level over each segment's targets -------------- */

typedef struct lgroup {
	uint32_t seg;
	size_t first, n; /* targets [first, first+n) */
	uint64_t base;
	unsigned shift;
	size_t nb;
	uint32_t *idx; /* nb+1 entries: first target (relative) with addr >= bucket start */
} lgroup;

struct pc_lookup {
	lgroup *g;
	size_t ng;
};

static void lookup_free(struct pc_lookup *l)
{
	if (!l)
		return;
	for (size_t i = 0; i < l->ng; i++)
		free(l->g[i].idx);
	free(l->g);
	free(l);
}

static struct pc_lookup *lookup_build(const pc_target *t, size_t n)
{
	struct pc_lookup *l = calloc(1, sizeof *l);
	if (!l)
		return NULL;
	size_t cap = 0;
	for (size_t i = 0; i < n;) {
		size_t j = i;
		while (j < n && t[j].segment == t[i].segment)
			j++;
		if (pc_grow((void **)&l->g, &cap, l->ng + 1, sizeof *l->g)) {
			lookup_free(l);
			return NULL;
		}
		lgroup *g = &l->g[l->ng++];
		memset(g, 0, sizeof *g);
		g->seg = t[i].segment;
		g->first = i;
		g->n = j - i;
		g->base = t[i].address;
		uint64_t span = t[j - 1].address - g->base;
		/* about two buckets per target, at most 2^22 buckets */
		size_t want = g->n * 2;
		if (want > (1u << 22))
			want = 1u << 22;
		g->shift = 0;
		while (g->shift < 63 && (span >> g->shift) >= want)
			g->shift++;
		g->nb = (size_t)(span >> g->shift) + 1;
		g->idx = malloc((g->nb + 1) * sizeof *g->idx);
		if (!g->idx) {
			lookup_free(l);
			return NULL;
		}
		size_t k = 0;
		for (size_t b = 0; b <= g->nb; b++) {
			uint64_t start = b >= g->nb ? UINT64_MAX
						     : g->base + ((uint64_t)b << g->shift);
			while (k < g->n && t[i + k].address < start)
				k++;
			g->idx[b] = (uint32_t)k;
		}
		i = j;
	}
	return l;
}

/* Index of the target holding (seg, addr), or -1. */
static int64_t lookup_find(const pc_profile *p, uint32_t seg, uint64_t addr)
{
	const struct pc_lookup *l = p->lookup;
	if (!l)
		return -1;
	const lgroup *g = NULL;
	for (size_t i = 0; i < l->ng; i++)
		if (l->g[i].seg == seg) {
			g = &l->g[i];
			break;
		}
	if (!g || addr < g->base)
		return -1;
	uint64_t b = (addr - g->base) >> g->shift;
	size_t lo, hi; /* answer (relative) in [lo, hi) where candidates are */
	if (b >= g->nb) {
		lo = g->n - 1;
		hi = g->n;
	} else {
		/* greatest k with address <= addr lies in [idx[b]-1, idx[b+1]) */
		lo = g->idx[b] ? g->idx[b] - 1 : 0;
		hi = g->idx[b + 1];
		if (hi == 0)
			return -1;
		/* binary search for the last target with address <= addr */
		while (hi - lo > 1) {
			size_t mid = lo + (hi - lo) / 2;
			if (p->targets[g->first + mid].address <= addr)
				lo = mid;
			else
				hi = mid;
		}
	}
	const pc_target *t = &p->targets[g->first + lo];
	if (t->address <= addr && addr < t->end)
		return (int64_t)(g->first + lo);
	return -1;
}

/* lookup_find for the symbol selections' DWARF while the attribution
 * runs (pc_symspecs_resolve: a map's line rows take their functions
 * from the targets just built; pc_profile_row_find would start the
 * attribution again, without end). */
static int64_t building_find(pc_profile *p, uint32_t seg, uint64_t addr)
{
	return lookup_find(p, seg, addr);
}

void pc_attrib_free(pc_profile *p)
{
	if (p->attr_ss) {
		pc_symspecs_free(p->attr_ss);
		free(p->attr_ss);
		p->attr_ss = NULL;
	}
	free(p->targets);
	p->targets = NULL;
	p->ntargets = 0;
	lookup_free(p->lookup);
	p->lookup = NULL;
	p->valid = 0;
}

static int build_targets(pc_profile *p, int use_sizes)
{
	/* the candidates stably by (segment, address) with a radix sort of
	 * their symbol indexes: each run at one address in index order.  16
	 * bytes a candidate while sorting (two arrays), 8 once sorted.
	 * (Room for every symbol, the candidates found in one pass over
	 * them: a symbol table is mostly candidates, and the room past
	 * them is never written.) */
	const size_t ns = p->nsyms;
	pc_rkey *rk = ns ? malloc(ns * sizeof *rk) : NULL;
	pc_rkey *rt = ns ? malloc(ns * sizeof *rt) : NULL;
	if (ns && (!rk || !rt)) {
		free(rk);
		free(rt);
		return PC_ENOMEM;
	}
	int segs = 0;
	size_t nc = 0;
	for (size_t i = 0; i < ns; i++) {
		const pc_symbol *s = &p->syms[i];
		if (!is_target(s))
			continue;
		rk[nc++] = (pc_rkey){s->address, i};
		segs |= s->segment != p->syms[rk[0].idx].segment;
	}
	if (!nc) {
		free(rk);
		free(rt);
		rk = rt = NULL;
	}
	pc_rkey *o = nc ? pc_radix_sort(rk, rt, nc) : NULL;
	if (segs) {
		pc_rkey *other = o == rk ? rt : rk;
		for (size_t i = 0; i < nc; i++)
			o[i].key = p->syms[o[i].idx].segment;
		o = pc_radix_sort(o, other, nc);
	}
	free(o == rk ? rt : rk);
	const pc_symbol *sy = p->syms;
	/* one segment (the usual case): the sort keys are the addresses, no
	 * symbol is read out of address order but the one each run keeps */
	const uint32_t seg0 = nc ? sy[o[0].idx].segment : 0;
#define SEG_AT(i) (segs ? sy[o[i].idx].segment : seg0)
#define ADDR_AT(i) (segs ? sy[o[i].idx].address : o[i].key)
	size_t nt = 0;
	for (size_t i = 0; i < nc; i++)
		nt += i == 0 || SEG_AT(i) != SEG_AT(i - 1) || ADDR_AT(i) != ADDR_AT(i - 1);
	pc_target *t = nt ? calloc(nt, sizeof *t) : NULL;
	pc_plat_advise_bulk(t, nt * sizeof *t);
	if (nt && !t) {
		free(o);
		return PC_ENOMEM;
	}
	nt = 0;
	for (size_t i = 0; i < nc;) {
		/* the symbols come in address order, not their own: each
		 * read misses the cache unless asked for ahead */
		if (i + 16 < nc)
			PC_PREFETCH(&sy[o[i + 16].idx]);
		size_t j = i + 1;
		while (j < nc && SEG_AT(j) == SEG_AT(i) && ADDR_AT(j) == ADDR_AT(i))
			j++;
		size_t keep = (size_t)o[i].idx;
		/* gprof sorts a run by FUNC first, then global, then walks it
		 * keeping the preferred one.  prefer() itself ranks global
		 * over local, then FUNC over not (it replaces the kept one by
		 * a higher rank, never by a lower one), so the walk ends in the
		 * run's highest rank, with the name rules applied among that
		 * rank's symbols in their sorted order: the index order, which
		 * o keeps in a run (the radix sorts are stable).  The same walk
		 * in index order gives that, without the sort. */
		for (size_t m = i + 1; m < j; m++)
			if (prefer(p, (size_t)o[m].idx, keep))
				keep = (size_t)o[m].idx;
		const pc_symbol *s = &sy[keep];
		t[nt].symbol = keep;
		t[nt].segment = s->segment;
		t[nt].address = s->address;
		t[nt].excluded = (s->flags & PC_SYMF_EXCLUDED) != 0;
		/* its end: the next target's address (the next run's), the
		 * end of the application region holding it, or its size */
		uint64_t end = UINT64_MAX;
		int have_next = j < nc && SEG_AT(j) == s->segment;
		if (have_next)
			end = ADDR_AT(j);
		const pc_region *r = region_at(p, s->segment, s->address, 1);
		if (r && r->high < end)
			end = r->high;
		uint64_t e;
		if (!have_next && !r) /* nothing bounds it: trust its size */
			end = pc_add_overflow(s->address, s->size, &e) ? UINT64_MAX : e;
		else if ((use_sizes || (s->flags & PC_SYMF_EXTENT)) && s->size &&
			 !pc_add_overflow(s->address, s->size, &e) && e < end)
			end = e;
		t[nt].end = end;
		nt++;
		i = j;
	}
#undef SEG_AT
#undef ADDR_AT
	free(o);
	p->targets = t;
	p->ntargets = nt;
	p->lookup = lookup_build(t, nt);
	if (nt && !p->lookup)
		return PC_ENOMEM;
	return PC_OK;
}

/* Where an unattributed address goes: into the totals T. */
static inline void charge_t(pc_itotals *T, const pc_region *r, double c)
{
	pc_region_class cls = r ? r->cls : PC_REGION_UNKNOWN;
	T->by_class[cls] += c;
	if (cls == PC_REGION_APPLICATION)
		T->in_program += c;
	else
		T->outside += c;
}

static void charge_outside_r(pc_profile *p, const pc_region *r, double c)
{
	charge_t(&p->totals, r, c);
}

static void charge_outside(pc_profile *p, uint32_t seg, uint64_t addr,
			   double c)
{
	charge_outside_r(p, region_at(p, seg, addr, 0), c);
}

static inline void credit_t(pc_itotals *T, pc_target *t, double c)
{
	if (t->excluded) {
		T->excluded += c;
	} else {
		t->count += c;
		T->attributed += c;
	}
}

static void credit(pc_profile *p, size_t j, double c)
{
	credit_t(&p->totals, &p->targets[j], c);
}

/* First target of segment seg (index), or ntargets. */
size_t pc_attrib_seg_first(const pc_profile *p, uint32_t seg)
{
	size_t lo = 0, hi = p->ntargets;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (p->targets[mid].segment < seg)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* Tests only: 1 makes hist_proportional take every bucket on its own
 * (the reference the run path below is compared with). */
void pc_attrib_set_reference(pc_profile *p, int on)
{
	p->attr_reference = on != 0;
	p->valid = 0;
}

/* A bucket edge in units above the histogram's low end, exactly as
 * hist_proportional's EDGE(scale * (double)j) computes it when its
 * edges are small (j below 2^52: (double)(int64_t)j is (double)j). */
static inline uint64_t edge_at(double scale, size_t j)
{
	const double e = scale * (double)(int64_t)j;
	return (uint64_t)(int64_t)e;
}

/* The greatest j in [j0, nbins] with edge_at(j) <= lim, given
 * edge_at(j0) <= lim: from the quotient, then corrected by the edges
 * themselves (they never decrease: (double)j is exact, a product with a
 * positive scale rounds monotonically, truncation is monotonic). */
static size_t last_edge_le(double scale, size_t nbins, size_t j0, uint64_t lim)
{
	size_t j = nbins;
	const double q = scale > 0 ? (double)lim / scale : (double)nbins;
	if (q < (double)nbins)
		j = (size_t)q;
	if (j < j0)
		j = j0;
	while (j > j0 && edge_at(scale, j) > lim)
		j--;
	while (j < nbins && edge_at(scale, j + 1) <= lim)
		j++;
	return j;
}

/* v + s is what adding s's parts to v one at a time gives: v holds an
 * integer and the sum stays at most 2^53 (then every partial sum is a
 * double, each addition exact). */
static inline int int_add_exact(double v, uint64_t s)
{
	const double two53 = 9007199254740992.0;
	if (!(v >= 0 && v <= two53)) /* (NaN too) */
		return 0;
	const int64_t iv = (int64_t)v;
	return v == (double)iv && s <= ((uint64_t)1 << 53) - (uint64_t)iv;
}

#if defined(__GNUC__) || defined(__clang__)
#define RUN_NOINLINE __attribute__((noinline)) /* (registers of its own) */
#else
#define RUN_NOINLINE
#endif

enum { QN = 4096 }; /* hist_proportional's table of k / div */

typedef struct run_sums {
	uint64_t all, zero; /* counts: all, of buckets of no unit */
	uint64_t any;       /* the counts from QN up or'ed (all below 2^32: no
			     * overflow in fewer than 2^31 of them) */
	uint64_t edge;      /* edge_at(i1) */
} run_sums;

/* The buckets [i, i1) of a run in one target (hist_proportional): each
 * one's credit x added to *a1 and *a2 in order, exactly as the loop
 * there adds it (prev: edge_at(i); the edges small; a bucket spans fewer
 * than 2^21 units, so units * count below QN tells both below QN without
 * overflow for a count below QN); the counts summed into *o. */
static RUN_NOINLINE void run_credit(const uint64_t *counts, size_t i,
				    size_t i1, double scale, int whole,
				    uint64_t prev, const double *quot,
				    double div, double *a1, double *a2,
				    run_sums *o)
{
	double x1 = *a1, x2 = *a2, fj = (double)i;
	uint64_t all = 0, zero = 0, any = 0;
	if (whole) {
		/* the scale an integer k (and k * nbins below 2^53): every
		 * edge is k * j exactly, every bucket k units, every credit
		 * x = k * c / k = c exactly (k * c below 2^52).  A sum that
		 * holds an integer and stays at most 2^53 gets them as one
		 * integer; one that does not (a fraction from a bucket over
		 * two targets), one at a time. */
		for (size_t j = i; j < i1; j++) {
			all += counts[j];
			any |= counts[j];
		}
		if (any < ((uint64_t)1 << 32) && i1 - i < ((size_t)1 << 31)) {
			const int e1 = int_add_exact(x1, all), e2 = int_add_exact(x2, all);
			if (e1)
				x1 += (double)all;
			if (e2)
				x2 += (double)all;
			if (!e1 || !e2)
				for (size_t j = i; j < i1; j++) {
					const double cj = (double)counts[j];
					if (!e1)
						x1 += cj;
					if (!e2)
						x2 += cj;
				}
			*a1 = x1;
			*a2 = x2;
			*o = (run_sums){all, 0, any, (uint64_t)scale * i1};
			return;
		}
		all = any = 0;
	}
	/* (any: the counts not below QN, the only ones that can be big) */
#define RUN_STEP(Q, J)                                                          \
	do {                                                                    \
		const uint64_t cj = counts[J];                                  \
		fj += 1.0; /* (double)(J + 1), exact */                         \
		const double ej = scale * fj; /* (a double) */                  \
		const uint64_t e = (uint64_t)(int64_t)ej;                       \
		const uint64_t units = e - prev;                                \
		prev = e;                                                       \
		double x;                                                       \
		if (Q && cj < QN && units * cj < QN) {                          \
			x = quot[units * cj];                                   \
		} else {                                                        \
			x = (double)units * (double)cj / div;                   \
			any |= cj;                                              \
		}                                                               \
		x1 += x;                                                        \
		x2 += x;                                                        \
		all += cj;                                                      \
		zero += units ? 0 : cj;                                         \
	} while (0)
	/* (two at a time: half the loop's own instructions) */
#define RUN_LOOP(Q)                                                             \
	{                                                                       \
		size_t j = i;                                                   \
		for (; j + 2 <= i1; j += 2) {                                   \
			RUN_STEP(Q, j);                                         \
			RUN_STEP(Q, j + 1);                                     \
		}                                                               \
		if (j < i1)                                                     \
			RUN_STEP(Q, j);                                         \
	}
	if (quot)
		RUN_LOOP(1)
	else
		RUN_LOOP(0)
#undef RUN_STEP
#undef RUN_LOOP
	*a1 = x1;
	*a2 = x2;
	*o = (run_sums){all, zero, any, prev};
}

/* n < 2^52 (a function, so that a 32-bit size_t does not make the
 * comparison always true at its use: -Wtype-limits) */
static int below_2_52(uint64_t n)
{
	return n < ((uint64_t)1 << 52);
}

/* gprof's proportional split of each bucket over the targets it
 * overlaps, as one merge pass of the buckets and the sorted targets.
 * The sums go to a local copy of the totals (written back at the end):
 * the same additions in the same order, without a store and a reload of
 * each total per bucket.
 *
 * Runs (the rule, docs/attribution.md rule 5): the buckets that lie in
 * one target (inside it, or of no whole unit) go through run_credit,
 * found by the edges' arithmetic.  Their credits, which are fractions,
 * are still added one by one in bucket order to the target's count and
 * the attributed (or excluded) total, so those doubles are the ones the
 * bucket loop gives.  Their counts, which are integers, are summed as
 * integers and added to total, in_program, outside and the class once:
 * exact, and so equal to adding them one by one, while total (which
 * bounds the others) stays at most 2^53 and no count reaches 2^32;
 * otherwise those sums go bucket by bucket too.  When the scale is a
 * whole number k of units every credit is the bucket's count itself, so
 * the target's count and the attributed total get the run's sum at once
 * as well, each while it holds an integer and stays at most 2^53 (a
 * bucket over two targets leaves fractions: then one at a time).
 * pc_attrib_set_reference turns runs off (test_attrib_runs compares
 * both ways, bit for bit). */
static void hist_proportional(pc_profile *p, const pc_hist *hh)
{
	const pc_histogram *h = &hh->h;
	const uint64_t u = h->unit;
	const double scale = (double)((h->high - h->low) / u) / (double)h->nbins;
	const uint64_t lo_u = h->low / u;
	/* addresses to units: a shift for the usual power-of-two units (a
	 * 64-bit division per symbol and bucket dominated the loop) */
	int sh = -1;
	if ((u & (u - 1)) == 0)
		for (sh = 0; ((uint64_t)1 << sh) != u; sh++)
			;
#define TO_UNITS(v) (sh >= 0 ? (v) >> sh : (v) / u)
	/* bucket edges below 2^62 units (all of them, in practice): a
	 * signed conversion, the same value, without the unsigned one's
	 * branches */
	const int small = scale * (double)h->nbins < 4611686018427387904.0;
#define EDGE(e) (small ? (uint64_t)(int64_t)(e) : (uint64_t)(e))
	pc_itotals T = p->totals;
	pc_target *const tg = p->targets;
	const uint32_t seg = h->segment;
	const uint64_t *const counts = hh->counts;
	size_t cur = pc_attrib_seg_first(p, seg);
	const size_t n = p->ntargets;
	/* targets[cur] in units: its address, its end (as the advance below
	 * compares it) and its end for the overlap */
	int in_seg = 0;
	uint64_t cur_lo = 0, cur_end = 0, cur_hi = 0;
	/* The sums in registers (the same additions in the same order as
	 * into memory): the totals, the current target's count (acc, while
	 * keep: in the segment and not excluded; exd: excluded) and the sum
	 * of the class of the cached region (cls_acc, class acc_cls). */
	double tot = T.total, inprog = T.in_program, attr = T.attributed;
	double excl = T.excluded, outs = T.outside;
	double acc = 0, keep = 0, exd = 0, cls_acc = 0;
	int acc_cls = -1;
#define FLUSH()                                                                 \
	do {                                                                    \
		if (keep > 0)                                                   \
			tg[cur].count = acc;                                    \
		if (acc_cls >= 0)                                               \
			T.by_class[acc_cls] = cls_acc;                          \
		acc_cls = -1;                                                   \
		T.total = tot, T.in_program = inprog, T.attributed = attr;      \
		T.excluded = excl, T.outside = outs;                            \
	} while (0)
#define RELOAD()                                                                \
	do {                                                                    \
		tot = T.total, inprog = T.in_program, attr = T.attributed;      \
		excl = T.excluded, outs = T.outside;                            \
		if (keep > 0)                                                   \
			acc = tg[cur].count;                                    \
	} while (0)
#define LOAD_CUR()                                                              \
	do {                                                                    \
		in_seg = cur < n && tg[cur].segment == seg;                     \
		keep = exd = 0;                                                 \
		if (in_seg) {                                                   \
			cur_lo = TO_UNITS(tg[cur].address);                     \
			cur_end = TO_UNITS(tg[cur].end);                        \
			cur_hi = tg[cur].end == UINT64_MAX ? UINT64_MAX : cur_end; \
			keep = tg[cur].excluded ? 0 : 1;                        \
			exd = 1 - keep;                                         \
			acc = tg[cur].count;                                    \
		}                                                               \
	} while (0)
	LOAD_CUR();
	rcache rc = {0, 0, 0, 0, NULL};
	/* (scale is 0 for a histogram of no width: no bucket is inside then,
	 * and x below must not be 0/0) */
	const double div = scale > 0 ? scale : 1;
	/* k / div for the usual small products k of a bucket's whole units
	 * and its count (exact as doubles below 2^53, so k / div is the
	 * quotient the division below gives): one division each, not one
	 * per bucket (a division's latency was a third of the loop); QN
	 * above */
	double *quot = h->nbins >= 65536 ? malloc(QN * sizeof *quot) : NULL;
	for (size_t k = 0; quot && k < QN; k++)
		quot[k] = (double)k / div;
	/* Every bucket, the empty ones too (which bucket is empty is at
	 * random, and a wrong guess of that cost more than the rest of a
	 * bucket): an empty bucket adds +0.0 to the sums, which changes none
	 * of them (all are +0 or more, and finite).  A bucket's lower edge
	 * is the one above it. */
	uint64_t b_hi = lo_u; /* (of bucket -1: lo_u + (uint64_t)0.0) */
	/* Runs of buckets in one target (below) when the edges are small
	 * (signed conversions) and a bucket spans fewer than 2^21 units
	 * (scale < 2^20, plus the rounding of the edges: under 2^-53 of
	 * them, 2^9 units): then units * count < QN tells both below QN,
	 * without overflow, for a count below QN. */
	/* The sums of counts (in_program, outside, by_class) are sums of
	 * some of the counts in total (attribute_with gives the histograms
	 * first): while total holds an integer up to 2^53 they do too, and
	 * so did all their partial sums (all exact). */
	int runs = !p->attr_reference && small && scale < 1048576.0 &&
		   below_2_52(h->nbins) &&
		   T.in_program <= T.total && T.outside <= T.total;
	for (int k = 0; k < PC_REGION_COUNT; k++)
		runs = runs && T.by_class[k] <= T.total;
	/* a run is sought where the target goes on for more than about 8
	 * buckets (over shorter ones its set-up cost more than it saved) */
	const uint64_t run_min = (uint64_t)(scale * 8);
	/* the scale a whole number of units (run_credit) */
	const int whole = scale >= 1 && scale == floor(scale) &&
			  scale * (double)h->nbins < 9007199254740992.0;
	for (size_t i = 0; i < h->nbins; i++) {
		uint64_t c = counts[i];
		const double cd = (double)c;
		/* rounded to double before truncation, as gprof's doubles are
		 * (no x87 excess precision on 32-bit hosts) */
		const double e_hi = scale * (double)(i + 1);
		const uint64_t b_lo = b_hi;
		b_hi = lo_u + EDGE(e_hi);
		if (in_seg && cur_end <= b_lo) {
			if (keep > 0)
				tg[cur].count = acc;
			do
				cur++;
			while (cur < n && tg[cur].segment == seg &&
			       TO_UNITS(tg[cur].end) <= b_lo);
			LOAD_CUR();
		}
		if (runs && in_seg && b_lo >= cur_lo && b_lo < cur_end &&
		    b_hi <= cur_hi && cur_hi - b_lo > run_min) {
			/* The run of buckets [i, i1) that lie in the current
			 * target: each one either inside it (whole units: the
			 * inside case below) or of no whole unit (the outside
			 * case, charged to the region of its lower edge).  By
			 * the edges' arithmetic, not bucket by bucket: the last
			 * bucket whose upper edge is <= the target's end, less
			 * the ones of no unit at the end (the advance above
			 * would pass the target for them). */
			size_t i1 = last_edge_le(scale, h->nbins, i + 1, cur_hi - lo_u);
			uint64_t last_lo = lo_u + edge_at(scale, i1 - 1);
			while (i1 > i + 1 && last_lo >= cur_end)
				last_lo = lo_u + edge_at(scale, --i1 - 1);
			/* The credits x, in order, to the target's count and
			 * the attributed total (or the excluded one): the same
			 * additions as bucket by bucket (a bucket of no unit
			 * adds +0.0, which changes no sum of +0 or more).  The
			 * counts for the totals as integers: all counts (tot),
			 * those of buckets of no unit (s0, for the region's
			 * class; the others go to inprog). */
			run_sums rs;
			if (keep > 0) {
				run_credit(counts, i, i1, scale, whole, b_lo - lo_u, quot, div, &acc, &attr, &rs);
			} else {
				double none = 0;
				run_credit(counts, i, i1, scale, whole, b_lo - lo_u, quot, div, &excl, &none, &rs);
			}
			const uint64_t s_all = rs.all, s0 = rs.zero, any = rs.any, e = rs.edge;
			/* one addition each when that is exact; the region of
			 * the buckets of no unit: one for the run's lower edges
			 * [b_lo, lower edge of bucket i1-1] (its addresses are
			 * in one cached range) */
			/* (the other sums of counts are sums of some of the
			 * counts in tot: below it, see runs) */
			int ok = any < ((uint64_t)1 << 32) && i1 - i < ((size_t)1 << 31) &&
				 int_add_exact(tot, s_all);
			const pc_region *rr = NULL;
			if (ok && s0) {
				uint64_t a = b_lo * u;
				if (!rc.valid || rc.seg != seg || a < rc.lo || a >= rc.hi)
					region_at_cached(p, &rc, seg, a);
				rr = rc.r;
				ok = last_lo * u < rc.hi;
			}
			int cls = -1;
			if (ok && s0) {
				cls = rr ? (int)rr->cls : (int)PC_REGION_UNKNOWN;
				if (cls != acc_cls) {
					if (acc_cls >= 0)
						T.by_class[acc_cls] = cls_acc;
					acc_cls = cls;
					cls_acc = T.by_class[cls];
				}
			}
			if (ok) {
				tot += (double)s_all;
				if (cls == PC_REGION_APPLICATION || cls < 0) {
					inprog += (double)s_all;
				} else {
					inprog += (double)(s_all - s0);
					outs += (double)s0;
				}
				if (s0)
					cls_acc += (double)s0;
			} else {
				/* the totals bucket by bucket, in the order of the
				 * loop below */
				uint64_t pe = b_lo - lo_u;
				for (size_t j = i; j < i1; j++) {
					const double cj = (double)counts[j];
					const uint64_t ej = edge_at(scale, j + 1);
					tot += cj;
					if (ej > pe) {
						inprog += cj;
					} else {
						uint64_t a = (lo_u + pe) * u;
						if (!rc.valid || rc.seg != seg || a < rc.lo || a >= rc.hi)
							region_at_cached(p, &rc, seg, a);
						const int cj_cls = rc.r ? (int)rc.r->cls
									: (int)PC_REGION_UNKNOWN;
						if (cj_cls != acc_cls) {
							if (acc_cls >= 0)
								T.by_class[acc_cls] = cls_acc;
							acc_cls = cj_cls;
							cls_acc = T.by_class[cj_cls];
						}
						cls_acc += cj;
						if (cj_cls == PC_REGION_APPLICATION)
							inprog += cj;
						else
							outs += cj;
					}
					pe = ej;
				}
			}
			b_hi = lo_u + e;
			i = i1 - 1;
			continue;
		}
		tot += cd;
		/* inside: the usual bucket, inside the current target.  Targets
		 * do not overlap (each ends at or before the next one's
		 * address), so no other target shares a unit with it: the loop
		 * below would credit this target alone, with this amount.
		 * outside: a bucket of no whole unit (a scale below 1: gprof
		 * credits it to nobody), before the current target (every
		 * earlier one ended at or before it), or after the segment's
		 * last: the loop below would credit no target. */
		if (b_hi > b_lo && in_seg && b_lo >= cur_lo && b_hi <= cur_hi) {
			const uint64_t units = b_hi - b_lo;
			const double x = quot && units < QN && c < QN && units * c < QN
						 ? quot[units * c]
						 : (double)units * cd / div;
			acc += x * keep;  /* the target's count */
			attr += x * keep; /* the attributed total */
			excl += x * exd;  /* or the excluded one */
			inprog += cd;
			continue;
		}
		if (b_hi <= b_lo || !in_seg || b_hi <= cur_lo) {
			/* outside: the region of the bucket (the cached one
			 * holds for runs of them) */
			uint64_t a = b_lo * u;
			if (!rc.valid || rc.seg != seg || a < rc.lo || a >= rc.hi)
				region_at_cached(p, &rc, seg, a);
			const int cls = rc.r ? (int)rc.r->cls : (int)PC_REGION_UNKNOWN;
			if (cls != acc_cls) {
				if (acc_cls >= 0)
					T.by_class[acc_cls] = cls_acc;
				acc_cls = cls;
				cls_acc = T.by_class[cls];
			}
			cls_acc += cd;
			if (cls == PC_REGION_APPLICATION)
				inprog += cd;
			else
				outs += cd;
			continue;
		}
		/* a bucket over more than one target (or a gap and a target) */
		if (!c)
			continue;
		FLUSH();
		int hit = 0;
		for (size_t j = cur; j < n && tg[j].segment == seg; j++) {
			uint64_t s_lo = TO_UNITS(tg[j].address);
			uint64_t s_hi = tg[j].end == UINT64_MAX ? UINT64_MAX
								 : TO_UNITS(tg[j].end);
			if (b_hi < s_lo)
				break;
			if (b_lo >= s_hi)
				continue;
			uint64_t ov_hi = b_hi < s_hi ? b_hi : s_hi;
			uint64_t ov_lo = b_lo > s_lo ? b_lo : s_lo;
			if (ov_hi > ov_lo) {
				credit_t(&T, &tg[j], (double)(ov_hi - ov_lo) * cd / scale);
				hit = 1;
			}
		}
		if (hit)
			T.in_program += cd;
		else
			charge_t(&T, region_at_cached(p, &rc, seg, b_lo * u), cd);
		RELOAD();
	}
	FLUSH();
	free(quot);
	p->totals = T;
#undef FLUSH
#undef RELOAD
#undef LOAD_CUR
#undef EDGE
}
#undef TO_UNITS

static void hist_bucket_start(pc_profile *p, const pc_hist *hh)
{
	const pc_histogram *h = &hh->h;
	long double width = (long double)(h->high - h->low) / (long double)h->nbins;
	for (size_t i = 0; i < h->nbins; i++) {
		uint64_t c = hh->counts[i];
		if (!c)
			continue;
		p->totals.total += (double)c;
		uint64_t a = h->low + (uint64_t)(width * (long double)i);
		int64_t j = lookup_find(p, h->segment, a);
		if (j >= 0) {
			credit(p, (size_t)j, (double)c);
			p->totals.in_program += (double)c;
		} else {
			charge_outside(p, h->segment, a, (double)c);
		}
	}
}

static int attribute_with(pc_profile *p, int bucket_start, int use_sizes, int credit);

const char *pc_profile_symspecs(const pc_profile *p)
{
	return p->cache_specs;
}

/* pc_profile_attribute (credit 1) or pc_attrib_targets (0) */
static int attribute_opts(pc_profile *p, const pc_attrib_options *opts, int credit)
{
	if (!p)
		return PC_EUSAGE;
	/* no options: the profile's own settings (the last ones given) */
	if (!opts)
		return attribute_with(p, p->attr_bucket_start, p->attr_use_sizes, credit);
	if (opts->version != PC_ATTRIB_OPTIONS_VERSION)
		return pc_diag_fail(&p->diag, PC_EUSAGE,
				    "pc_attrib_options.version %u: expected %u "
				    "(PC_ATTRIB_OPTIONS_INIT)",
				    opts->version, PC_ATTRIB_OPTIONS_VERSION);
	if (opts->rule != PC_ATTRIBUTION_PROPORTIONAL &&
	    opts->rule != PC_ATTRIBUTION_BUCKET_START)
		return pc_diag_fail(&p->diag, PC_EUSAGE,
				    "pc_attrib_options.rule %d: expected "
				    "PC_ATTRIBUTION_PROPORTIONAL or _BUCKET_START",
				    (int)opts->rule);
	if (opts->use_sizes != 0 && opts->use_sizes != 1)
		return pc_diag_fail(&p->diag, PC_EUSAGE, "use-sizes must be 0 or 1");
	if (opts->demangle != PC_DEMANGLE_AUTO && opts->demangle != PC_DEMANGLE_NONE)
		return pc_diag_fail(&p->diag, PC_EUSAGE,
				    "pc_attrib_options.demangle %d: expected "
				    "PC_DEMANGLE_AUTO or PC_DEMANGLE_NONE",
				    (int)opts->demangle);
	/* names only: the cached attribution stays valid */
	p->demangle = opts->demangle == PC_DEMANGLE_AUTO && pc_demangler_available();
	/* gprof's symbol selections: kept as the other settings */
	const char *specs = opts->gprof_symspecs;
	if (specs && !*specs)
		specs = NULL;
	if (specs ? !p->attr_specs || strcmp(specs, p->attr_specs) : p->attr_specs != NULL) {
		char *c = specs ? pc_strdup(specs) : NULL;
		if (specs && !c)
			return pc_diag_fail(&p->diag, PC_ENOMEM, "out of memory");
		free(p->attr_specs);
		p->attr_specs = c;
	}
	return attribute_with(p, opts->rule == PC_ATTRIBUTION_BUCKET_START, opts->use_sizes, credit);
}

int pc_profile_attribute(pc_profile *p, const pc_attrib_options *opts)
{
	return attribute_opts(p, opts, 1);
}

int pc_attrib_targets(pc_profile *p, const pc_attrib_options *opts)
{
	return attribute_opts(p, opts, 0);
}

/* The credit of the targets (p->valid 1): samples, class samples and
 * calls, and the totals (zero before). */
static int credit_targets(pc_profile *p, int bucket_start)
{

	for (size_t i = 0; i < p->nhists; i++) {
		if (bucket_start)
			hist_bucket_start(p, &p->hists[i]);
		else
			hist_proportional(p, &p->hists[i]);
	}

	size_t ns = pc_samples_distinct(p->samples);
	const pc_sample *s = pc_samples_sorted(p->samples);
	if (ns && !s)
		return pc_diag_fail(&p->diag, PC_ENOMEM, "out of memory");
	for (size_t i = 0; i < ns; i++) {
		double c = (double)s[i].count;
		p->totals.total += c;
		int64_t j = lookup_find(p, s[i].segment, s[i].address);
		if (j >= 0) {
			credit(p, (size_t)j, c);
			p->totals.in_program += c;
		} else {
			charge_outside(p, s[i].segment, s[i].address, c);
		}
	}

	for (int cls = 0; cls < PC_REGION_COUNT; cls++) {
		double c = (double)p->class_samples[cls];
		if (!c)
			continue;
		p->totals.total += c;
		p->totals.by_class[cls] += c;
		if (cls == PC_REGION_APPLICATION)
			p->totals.in_program += c;
		else
			p->totals.outside += c;
	}

	/* gprof: excluded symbols' credit leaves the totals */
	p->totals.total -= p->totals.excluded;
	p->totals.in_program -= p->totals.excluded;

	for (size_t i = 0; i < p->narcs; i++) {
		const pc_arc *a = &p->arcs[i];
		int64_t from = lookup_find(p, a->from_segment, a->from);
		int64_t to = lookup_find(p, a->to_segment, a->to);
		if (from < 0 || to < 0)
			continue;
		/* gprof -k FROM/TO: the arc and its calls are dropped */
		if (!pc_symspecs_arc_kept(p->attr_ss, (size_t)from, (size_t)to))
			continue;
		if (from == to)
			p->targets[to].self_calls += a->count;
		else
			p->targets[to].calls += a->count;
	}
	for (size_t i = 0; i < p->ncalls; i++) {
		const pc_sample *c = &p->calls[i];
		int64_t to = lookup_find(p, c->segment, c->address);
		if (to >= 0)
			p->targets[to].calls += c->count;
	}
	return PC_OK;
}

/* The targets (p->valid 1), then with credit their counts and calls and
 * the totals (2); each step once for the settings given. */
static int attribute_with(pc_profile *p, int bucket_start, int use_sizes, int credit)
{
	p->attr_bucket_start = bucket_start;
	p->attr_use_sizes = use_sizes;
	int same_specs = p->attr_specs ? p->cache_specs && !strcmp(p->attr_specs, p->cache_specs)
				       : !p->cache_specs;
	int same = p->cache_bucket_start == bucket_start && p->cache_use_sizes == use_sizes &&
		   same_specs;
	if (same && (p->valid == 2 || (p->valid == 1 && !credit)))
		return PC_OK;
	int rc;
	if (!same || !p->valid) {
		pc_symspecs *ss = calloc(1, sizeof *ss);
		if (!ss)
			return pc_diag_fail(&p->diag, PC_ENOMEM, "out of memory");
		if ((rc = pc_symspecs_parse(p, p->attr_specs, ss))) {
			free(ss);
			return rc;
		}
		pc_attrib_free(p);
		free(p->cache_specs);
		p->cache_specs = p->attr_specs ? pc_strdup(p->attr_specs) : NULL;
		p->cache_bucket_start = bucket_start;
		p->cache_use_sizes = use_sizes;
		memset(&p->totals, 0, sizeof p->totals);
		if ((p->attr_specs && !p->cache_specs) || build_targets(p, use_sizes != 0)) {
			pc_symspecs_free(ss);
			free(ss);
			pc_attrib_free(p);
			return pc_diag_fail(&p->diag, PC_ENOMEM, "out of memory");
		}
		/* gprof: excluded by default (mcount & co) or left out of
		 * the flat selection (-p/-P SYM) */
		if ((rc = pc_symspecs_resolve(p, ss, building_find))) {
			pc_symspecs_free(ss);
			free(ss);
			pc_attrib_free(p); /* not valid: the next call tries again */
			return rc;
		}
		for (size_t i = 0; ss->text && i < p->ntargets; i++)
			p->targets[i].excluded = !pc_symspecs_selected(ss, PC_SS_INCL_FLAT, i,
									p->targets[i].excluded);
		p->attr_ss = ss;
		p->valid = 1;
	}
	if (!credit)
		return PC_OK;
	if ((rc = credit_targets(p, bucket_start))) {
		/* (the credit so far is undone with the targets: the next
		 * call starts again) */
		pc_attrib_free(p);
		return rc;
	}
	pc_symspecs_free(p->attr_ss);
	free(p->attr_ss);
	p->attr_ss = NULL;
	p->valid = 2;
	return PC_OK;
}

static int ensure(pc_profile *p)
{
	/* recomputed after a change with the settings last given, never
	 * with defaults */
	return p->valid == 2 ? PC_OK : pc_profile_attribute(p, NULL);
}

/* The targets alone (pc_profile_row_find: an index, no count), with the
 * settings last given. */
static int ensure_targets(pc_profile *p)
{
	return p->valid ? PC_OK : pc_attrib_targets(p, NULL);
}

int pc_profile_row_count(size_t *n, pc_profile *p)
{
	if (n)
		*n = 0;
	if (!p || !n)
		return PC_EUSAGE;
	int r = ensure(p);
	if (r)
		return r;
	*n = p->ntargets;
	return PC_OK;
}

size_t pc_profile_rows(pc_profile *p)
{
	size_t n;
	return pc_profile_row_count(&n, p) ? 0 : n;
}

int pc_profile_row_at_sized(pc_row *out, size_t out_size, pc_profile *p,
			    size_t i)
{
	if (!p || !out || !out_size)
		return PC_EUSAGE;
	int r = ensure(p);
	if (r)
		return r;
	if (i >= p->ntargets)
		return PC_ENOTFOUND;
	const pc_target *t = &p->targets[i];
	pc_row row;
	row.symbol = t->symbol;
	row.name = p->demangle ? pc_symbol_display(p, t->symbol)
			       : p->syms[t->symbol].name;
	row.segment = t->segment;
	row.address = t->address;
	row.end = t->end;
	row.count = t->count;
	row.calls = t->calls;
	row.self_calls = t->self_calls;
	return pc_copy_sized(out, out_size, &row, sizeof row);
}

int pc_profile_itotals(pc_profile *p, pc_itotals *out)
{
	int r = ensure(p);
	if (r)
		return r;
	*out = p->totals;
	return PC_OK;
}

int pc_profile_totals_sized(pc_totals *out, size_t out_size, pc_profile *p)
{
	if (!p || !out || !out_size)
		return PC_EUSAGE;
	int r = ensure(p);
	if (r)
		return r;
	pc_totals t;
	t.total = p->totals.total;
	t.in_program = p->totals.in_program;
	t.attributed = p->totals.attributed;
	t.outside = p->totals.outside;
	t.excluded = p->totals.excluded;
	return pc_copy_sized(out, out_size, &t, sizeof t);
}

int pc_profile_class_total(double *out, pc_profile *p, pc_region_class cls)
{
	if (out)
		*out = 0;
	if (!p || !out)
		return PC_EUSAGE;
	if ((unsigned)cls >= PC_REGION_COUNT)
		return pc_diag_fail(&p->diag, PC_EUSAGE,
				    "region class %d: expected 0 to %d",
				    (int)cls, PC_REGION_COUNT - 1);
	int r = ensure(p);
	if (r)
		return r;
	*out = p->totals.by_class[cls];
	return PC_OK;
}

int64_t pc_profile_row_find(pc_profile *p, uint32_t segment, uint64_t address)
{
	if (ensure_targets(p))
		return -1;
	return lookup_find(p, segment, address);
}

int pc_profile_lookup(size_t *row, pc_profile *p, uint32_t segment,
		      uint64_t address)
{
	if (row)
		*row = 0;
	if (!p || !row)
		return PC_EUSAGE;
	int r = ensure(p);
	if (r)
		return r;
	int64_t i = lookup_find(p, segment, address);
	if (i < 0)
		return PC_ENOTFOUND;
	*row = (size_t)i;
	return PC_OK;
}

/* ---- sorted rows for callers (pc_profile_rows_sorted) --------------------- */

typedef struct skey {
	double count;
	uint64_t calls;
	uint32_t segment;
	uint64_t address;
	const char *name;
	size_t idx;
} skey;

static int cmp_addr(const skey *x, const skey *y)
{
	if (x->segment != y->segment)
		return x->segment < y->segment ? -1 : 1;
	if (x->address != y->address)
		return x->address < y->address ? -1 : 1;
	return x->idx < y->idx ? -1 : (x->idx > y->idx);
}

static int cmp_self(const void *a, const void *b)
{
	const skey *x = a, *y = b;
	if (x->count != y->count)
		return x->count > y->count ? -1 : 1;
	if (x->calls != y->calls)
		return x->calls > y->calls ? -1 : 1;
	int c = strcmp(x->name, y->name);
	return c ? c : cmp_addr(x, y);
}

static int cmp_calls(const void *a, const void *b)
{
	const skey *x = a, *y = b;
	if (x->calls != y->calls)
		return x->calls > y->calls ? -1 : 1;
	if (x->count != y->count)
		return x->count > y->count ? -1 : 1;
	return cmp_addr(x, y);
}

static int cmp_name(const void *a, const void *b)
{
	const skey *x = a, *y = b;
	int c = strcmp(x->name, y->name);
	return c ? c : cmp_addr(x, y);
}

int pc_profile_rows_sorted(size_t *idx, size_t max, size_t *count,
			   pc_profile *p, pc_sort_key key)
{
	if (count)
		*count = 0;
	if (!p || !count)
		return PC_EUSAGE;
	if (max > 0 && !idx)
		return pc_diag_fail(&p->diag, PC_EUSAGE,
				    "pc_profile_rows_sorted: no index array for %zu rows",
				    max);
	int (*cmp)(const void *, const void *);
	switch (key) {
	case PC_SORT_ADDRESS: cmp = NULL; break;
	case PC_SORT_SELF: cmp = cmp_self; break;
	case PC_SORT_CALLS: cmp = cmp_calls; break;
	case PC_SORT_NAME: cmp = cmp_name; break;
	case PC_SORT_CUM:
		return pc_diag_fail(&p->diag, PC_EUNSUPPORTED,
				    "sort key PC_SORT_CUM: rows by inclusive time come from the call graph (pc_profile_callgraph: each node's time + children)");
	default:
		return pc_diag_fail(&p->diag, PC_EUSAGE,
				    "sort key %d: expected PC_SORT_ADDRESS, _SELF, _CALLS or _NAME",
				    (int)key);
	}
	int r = ensure(p);
	if (r)
		return r;
	size_t nt = p->ntargets;
	size_t n = max < nt ? max : nt;
	if (max == 0) {
		*count = nt;
		return PC_OK;
	}
	if (!cmp) { /* the rows are kept in address order */
		for (size_t i = 0; i < n; i++)
			idx[i] = i;
		*count = n;
		return PC_OK;
	}
	skey *k = malloc((nt + 1) * sizeof *k);
	if (!k)
		return pc_diag_fail(&p->diag, PC_ENOMEM, "out of memory");
	for (size_t i = 0; i < nt; i++) {
		const pc_target *t = &p->targets[i];
		k[i] = (skey){t->count, t->calls, t->segment, t->address,
			      p->demangle ? pc_symbol_display(p, t->symbol)
					  : p->syms[t->symbol].name,
			      i};
		if (!k[i].name)
			k[i].name = "";
	}
	qsort(k, nt, sizeof *k, cmp);
	for (size_t i = 0; i < n; i++)
		idx[i] = k[i].idx;
	free(k);
	*count = n;
	return PC_OK;
}
