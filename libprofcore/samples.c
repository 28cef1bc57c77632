/* samples.c - aggregation of raw samples by (segment, address).
 *
 * Two representations; memory grows with the number of distinct addresses
 * or of symbols, never with the number of samples:
 *
 *  exact   open-addressing hash tables address -> count, one per segment,
 *          16 bytes a slot, at most 7/8 full.  Used while there are at most
 *          PC_SAMPLES_EXACT_MAX distinct addresses, and always when the
 *          profile has no symbols or regions yet.  The sorted view (24
 *          bytes an address) replaces the tables once it is asked for: they
 *          are compacted, sorted in place and dropped, and rebuilt from the
 *          view if samples come after it (3M distinct addresses: 120 MiB
 *          peak for a whole profcat run, was 242 MiB).
 *
 *  binned  above that, when the owning profile has symbols or regions,
 *          samples are counted per *cell*: the interval between two
 *          consecutive boundaries, where the boundaries are every symbol
 *          address, every symbol end (address + size) and every region
 *          bound.  Each attribution target and each region is a union of
 *          cells, so per-symbol and per-region totals stay exact under every
 *          attribution option; only the address inside a cell is lost
 *          (pc_samples_sorted() then lists cells by their start address).
 *          Cells are found with lookup.c's O(1) table, and batches of 16K
 *          samples or more are split across a pool of threads started once
 *          per store, each with private counters folded in when the
 *          totals are read (pc_profile_set_threads sets the thread count;
 *          default: online cores, at most PC_MAX_THREADS).
 *
 * Symbols or regions added after samples were binned refine the cells; a
 * sample whose cell is cut by a new boundary cannot be placed exactly and
 * stays at its cell's start: the profile then carries a warning.
 */
#include "samples.h"
#include "lookup.h"
#include "platform.h"
#include "stream.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#ifndef PC_SAMPLES_EXACT_MAX
#define PC_SAMPLES_EXACT_MAX ((size_t)1 << 17)
#endif
/* Each thread's share of a batch is at least this many samples. */
#define PAR_MIN ((size_t)1 << 13)
#define MAX_THREADS PC_MAX_THREADS
/* Private u32 counters are folded into the u64 totals before this many
 * samples could overflow them. */
#define PENDING_MAX ((uint64_t)1 << 31)

#define XHINTS 1024

/* 16 bytes per distinct address: the segment is the table's. */
typedef struct slot {
	uint64_t address;
	uint64_t count; /* 0 = empty */
} slot;

/* The exact counts of one segment: open addressing, linear probing, at
 * most 7/8 full. */
typedef struct xtab {
	uint32_t seg;
	slot *slots;
	size_t cap, used;
} xtab;

/* A thread's counter for one cell, beside the cell's relative start so
 * that the lookup's fix-up and the increment touch one cache line. */
typedef struct pc_cellctr {
	uint32_t rel; /* tab.rel[k] */
	uint32_t n;
} pc_cellctr;

/* The cells of one segment. */
typedef struct cellgroup {
	uint32_t seg;
	size_t ncell;
	uint64_t *start; /* ncell starts, start[0] == 0, increasing */
	uint64_t *count; /* ncell totals */
	pc_lookup_table tab;
	/* private per-thread counters (tab.fast only), pending samples */
	pc_cellctr *priv[MAX_THREADS];
	uint64_t pending[MAX_THREADS];
} cellgroup;

struct pc_samplestore {
	/* the holding profile's symbols and regions (bounded: given) and
	 * where warnings go */
	pc_samplebounds b;
	int bounded;
	pc_diag *diag;
	/* exact: one table per segment (few); used counts them all.  While
	 * the sorted view is current the tables are dropped (xfolded): the
	 * view holds the counts, and the next add rebuilds them from it, so
	 * that the counts are never held twice at rest. */
	xtab *xt;
	size_t nxt, used;
	int xfolded;
	/* binned */
	int binned;
	cellgroup *g;
	size_t ng;
	size_t seen_syms, seen_regions; /* boundaries the cells were built from */
	uint64_t displaced;             /* samples whose cell was cut later */
	/* binned, single samples added after new symbols or regions: they
	 * wait here, exact, for the next rebuild of the cells (at the next
	 * read, or when pend_limit() of them wait), so that a caller who
	 * adds symbols and samples in turn pays one rebuild per batch, not
	 * one per sample (which was quadratic) */
	pc_sample *pend;
	size_t npend, cappend;
	int warned;
	unsigned nthreads;
	struct pool *pool; /* persistent workers, started on the first big batch */
	/* sorted view */
	pc_sample *sorted;
	size_t nsorted;
	int dirty;
	/* exact: where in the first table an address was last seen, by a
	 * few low bits of the address (the loops of a real program come
	 * back to the same addresses).  Checked on every use (the slot must
	 * hold that address), so it is never stale: no invalidation. */
	size_t xhint[XHINTS];
};

pc_samplestore *pc_samples_new(void)
{
	pc_samplestore *st = calloc(1, sizeof(pc_samplestore));
	if (!st)
		return NULL;
	pc_samples_set_threads(st, 0);
	return st;
}

void pc_samples_set_threads(pc_samplestore *st, unsigned n)
{
	if (n == 0) {
		long c = (long)pc_plat_cpu_count();
		n = c > 0 ? (unsigned)(c > MAX_THREADS ? MAX_THREADS : c) : 1;
	}
	st->nthreads = n > MAX_THREADS ? MAX_THREADS : n;
}

unsigned pc_samples_threads(const pc_samplestore *st)
{
	return st->nthreads;
}

void pc_samples_set_bounds(pc_samplestore *st, const pc_samplebounds *b,
			   pc_diag *diag)
{
	st->b = *b;
	st->bounded = 1;
	st->diag = diag;
}

static void groups_free(pc_samplestore *st)
{
	for (size_t i = 0; i < st->ng; i++) {
		cellgroup *g = &st->g[i];
		free(g->start);
		free(g->count);
		pc_lookup_dispose(&g->tab);
		for (int t = 0; t < MAX_THREADS; t++)
			free(g->priv[t]);
	}
	free(st->g);
	st->g = NULL;
	st->ng = 0;
}

static void pool_stop(struct pool *pl);

void pc_samples_free(pc_samplestore *st)
{
	if (!st)
		return;
	pool_stop(st->pool);
	for (size_t i = 0; i < st->nxt; i++)
		free(st->xt[i].slots);
	free(st->xt);
	groups_free(st);
	free(st->sorted);
	free(st->pend);
	free(st);
}

/* ---- exact ------------------------------------------------------------- */

static inline size_t hash(uint64_t a)
{
	return (size_t)((a * 0x9E3779B97F4A7C15ull) >> 17);
}

static int rehash(xtab *t, size_t ncap)
{
	slot *n = calloc(ncap, sizeof *n);
	if (!n)
		return PC_ENOMEM;
	for (size_t i = 0; i < t->cap; i++) {
		slot *e = &t->slots[i];
		if (!e->count)
			continue;
		size_t j = hash(e->address) & (ncap - 1);
		while (n[j].count)
			j = (j + 1) & (ncap - 1);
		n[j] = *e;
	}
	free(t->slots);
	t->slots = n;
	t->cap = ncap;
	return PC_OK;
}

static void xtabs_free(pc_samplestore *st)
{
	for (size_t i = 0; i < st->nxt; i++)
		free(st->xt[i].slots);
	free(st->xt);
	st->xt = NULL;
	st->nxt = 0;
}

static xtab *xtab_of(pc_samplestore *st, uint32_t seg)
{
	for (size_t i = 0; i < st->nxt; i++)
		if (st->xt[i].seg == seg)
			return &st->xt[i];
	xtab *n = realloc(st->xt, (st->nxt + 1) * sizeof *n);
	if (!n)
		return NULL;
	st->xt = n;
	n[st->nxt] = (xtab){seg, NULL, 0, 0};
	return &n[st->nxt++];
}

/* Adds count at addr in t; *at = its slot. */
static int add_at(pc_samplestore *st, xtab *t, uint64_t addr, uint64_t count,
		  size_t *at)
{
	if ((t->used + 1) * 8 >= t->cap * 7) {
		size_t ncap = t->cap ? t->cap * 2 : 1024;
		if (ncap < t->cap || ncap > SIZE_MAX / sizeof(slot) || rehash(t, ncap))
			return PC_ENOMEM;
	}
	size_t j = hash(addr) & (t->cap - 1);
	for (;;) {
		slot *e = &t->slots[j];
		if (!e->count) {
			e->address = addr;
			e->count = count;
			t->used++;
			st->used++;
			*at = j;
			return PC_OK;
		}
		if (e->address == addr) {
			if (e->count + count < e->count)
				return PC_ELIMIT;
			e->count += count;
			*at = j;
			return PC_OK;
		}
		j = (j + 1) & (t->cap - 1);
	}
}

static int add_to(pc_samplestore *st, xtab *t, uint64_t addr, uint64_t count)
{
	size_t at;
	return add_at(st, t, addr, count, &at);
}

/* Rebuilds the tables from the sorted view (see xfolded). */
static int unfold(pc_samplestore *st)
{
	st->xfolded = 0;
	st->used = 0;
	xtab *t = NULL;
	for (size_t i = 0; i < st->nsorted; i++) {
		const pc_sample *x = &st->sorted[i];
		if ((!t || t->seg != x->segment) && !(t = xtab_of(st, x->segment)))
			return PC_ENOMEM;
		int r = add_to(st, t, x->address, x->count);
		if (r)
			return r;
	}
	free(st->sorted);
	st->sorted = NULL;
	st->nsorted = 0;
	return PC_OK;
}

static int exact_add(pc_samplestore *st, uint32_t seg, uint64_t addr,
		     uint64_t count)
{
	if (st->xfolded) {
		int r = unfold(st);
		if (r)
			return r;
	}
	xtab *t = st->nxt && st->xt[0].seg == seg ? &st->xt[0] : xtab_of(st, seg);
	return t ? add_to(st, t, addr, count) : PC_ENOMEM;
}

/* ---- cells --------------------------------------------------------------- */

typedef struct bound {
	uint32_t seg;
	uint64_t a;
} bound;

/* Sorts b[0, n) by (seg, a): LSD radix passes of 11 bits over the digits
 * in which the keys differ, address first, then segment (each pass is
 * stable).  tmp holds n entries; the result is in the array returned. */
#define BOUND_BITS 11
#define BOUND_N (1u << BOUND_BITS)
static bound *sort_bounds(bound *b, bound *tmp, size_t n)
{
	uint64_t or_a = 0, and_a = UINT64_MAX;
	uint32_t or_s = 0, and_s = UINT32_MAX;
	for (size_t i = 0; i < n; i++) {
		or_a |= b[i].a;
		and_a &= b[i].a;
		or_s |= b[i].seg;
		and_s &= b[i].seg;
	}
	const uint64_t diff_a = or_a ^ and_a;
	const uint32_t diff_s = or_s ^ and_s;
	size_t cnt[BOUND_N];
	for (unsigned pass = 0; pass < 2; pass++) {
		for (unsigned sh = 0; sh < (pass ? 32u : 64u); sh += BOUND_BITS) {
			const uint64_t mask = BOUND_N - 1;
			if (!(((pass ? diff_s : diff_a) >> sh) & mask))
				continue; /* every key has this digit */
#define BOUND_DIGIT(e) ((size_t)(((pass ? (uint64_t)(e).seg : (e).a) >> sh) & mask))
			memset(cnt, 0, sizeof cnt);
			for (size_t i = 0; i < n; i++)
				cnt[BOUND_DIGIT(b[i])]++;
			size_t sum = 0;
			for (size_t d = 0; d < BOUND_N; d++) {
				size_t c = cnt[d];
				cnt[d] = sum;
				sum += c;
			}
			for (size_t i = 0; i < n; i++)
				tmp[cnt[BOUND_DIGIT(b[i])]++] = b[i];
#undef BOUND_DIGIT
			bound *t = b;
			b = tmp;
			tmp = t;
		}
	}
	return b;
}

static cellgroup *group_of(pc_samplestore *st, uint32_t seg)
{
	/* groups are sorted by segment; there are few */
	size_t lo = 0, hi = st->ng;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (st->g[mid].seg < seg)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < st->ng && st->g[lo].seg == seg ? &st->g[lo] : NULL;
}

/* Builds groups from the bounds' symbols and regions (plus the segments
 * in extra_segs so every stored sample has a group).  Replaces st->g. */
static int build_groups(pc_samplestore *st, const uint32_t *extra_segs,
			size_t nextra)
{
	const pc_symbol *syms = *st->b.syms;
	const pc_region *regions = *st->b.regions;
	size_t nsyms = *st->b.nsyms, nregions = *st->b.nregions;
	size_t nb = 0, cap = nsyms * 2 + nregions * 2 + nextra;
	bound *b = cap ? malloc(cap * sizeof *b) : NULL;
	if (cap && !b)
		return PC_ENOMEM;
	for (size_t i = 0; i < nsyms; i++) {
		const pc_symbol *s = &syms[i];
		uint64_t e;
		b[nb++] = (bound){s->segment, s->address};
		if (s->size && !pc_add_overflow(s->address, s->size, &e))
			b[nb++] = (bound){s->segment, e};
	}
	for (size_t i = 0; i < nregions; i++) {
		b[nb++] = (bound){regions[i].segment, regions[i].low};
		b[nb++] = (bound){regions[i].segment, regions[i].high};
	}
	for (size_t i = 0; i < nextra; i++)
		b[nb++] = (bound){extra_segs[i], 0};
	bound *tmp = nb ? malloc(nb * sizeof *tmp) : NULL;
	if (nb && !tmp) {
		free(b);
		return PC_ENOMEM;
	}
	bound *sorted = sort_bounds(b, tmp, nb);
	if (sorted != b) {
		free(b);
		b = sorted;
	} else {
		free(tmp);
	}

	size_t ng = 0;
	for (size_t i = 0; i < nb; i++)
		ng += i == 0 || b[i].seg != b[i - 1].seg;
	cellgroup *g = ng ? calloc(ng, sizeof *g) : NULL;
	if (ng && !g) {
		free(b);
		return PC_ENOMEM;
	}
	int rc = PC_OK;
	size_t gi = 0;
	for (size_t i = 0; i < nb && rc == PC_OK;) {
		size_t j = i;
		while (j < nb && b[j].seg == b[i].seg)
			j++;
		cellgroup *c = &g[gi++];
		c->seg = b[i].seg;
		/* cell 0 starts at 0; then every distinct nonzero boundary */
		size_t n = 1;
		for (size_t k = i; k < j; k++)
			n += b[k].a != 0 && (k == i || b[k].a != b[k - 1].a);
		c->start = malloc(n * sizeof *c->start);
		c->count = calloc(n, sizeof *c->count);
		if (!c->start || !c->count) {
			rc = PC_ENOMEM;
			break;
		}
		c->start[0] = 0;
		n = 1;
		for (size_t k = i; k < j; k++)
			if (b[k].a != 0 && (k == i || b[k].a != b[k - 1].a))
				c->start[n++] = b[k].a;
		c->ncell = n;
		rc = pc_lookup_build(&c->tab, c->start, n);
		i = j;
	}
	free(b);
	if (rc) {
		for (size_t i = 0; i < ng; i++) {
			free(g[i].start);
			free(g[i].count);
			pc_lookup_dispose(&g[i].tab);
		}
		free(g);
		return rc;
	}
	groups_free(st);
	st->g = g;
	st->ng = ng;
	st->seen_syms = nsyms;
	st->seen_regions = nregions;
	return PC_OK;
}

/* Folds private counters into the totals. */
static void fold(cellgroup *g)
{
	for (int t = 0; t < MAX_THREADS; t++) {
		if (!g->priv[t] || !g->pending[t])
			continue;
		pc_cellctr *c = g->priv[t];
		for (size_t k = 0; k < g->ncell; k++) {
			g->count[k] += c[k].n;
			c[k].n = 0;
		}
		g->pending[t] = 0;
	}
}

static void fold_all(pc_samplestore *st)
{
	for (size_t i = 0; i < st->ng; i++)
		fold(&st->g[i]);
}

/* Moves the counts of the old groups into freshly built ones. */
static int rebin(pc_samplestore *st)
{
	fold_all(st);
	cellgroup *old = st->g;
	size_t nold = st->ng;
	uint32_t *segs = nold ? malloc(nold * sizeof *segs) : NULL;
	if (nold && !segs)
		return PC_ENOMEM;
	for (size_t i = 0; i < nold; i++)
		segs[i] = old[i].seg;
	st->g = NULL;
	st->ng = 0;
	int rc = build_groups(st, segs, nold);
	free(segs);
	if (rc) {
		st->g = old;
		st->ng = nold;
		return rc;
	}
	for (size_t i = 0; i < nold; i++) {
		cellgroup *o = &old[i], *n = group_of(st, o->seg);
		for (size_t k = 0; k < o->ncell; k++) {
			if (!o->count[k])
				continue;
			size_t c = pc_lookup_find(&n->tab, n->start, o->start[k]);
			n->count[c] += o->count[k];
			/* was the old cell cut by a new boundary? */
			uint64_t end = k + 1 < o->ncell ? o->start[k + 1] : UINT64_MAX;
			if (c + 1 < n->ncell && n->start[c + 1] < end)
				st->displaced += o->count[k];
		}
		free(o->start);
		free(o->count);
		pc_lookup_dispose(&o->tab);
		for (int t = 0; t < MAX_THREADS; t++)
			free(o->priv[t]);
	}
	free(old);
	return PC_OK;
}

static int has_bounds(const pc_samplestore *st)
{
	return st->bounded && (*st->b.nsyms || *st->b.nregions);
}

/* Switches from exact to binned. */
static int go_binned(pc_samplestore *st)
{
	/* every segment present in the exact tables gets a group */
	if (st->xfolded) {
		int r = unfold(st);
		if (r)
			return r;
	}
	uint32_t *segs = st->nxt ? malloc(st->nxt * sizeof *segs) : NULL;
	if (st->nxt && !segs)
		return PC_ENOMEM;
	for (size_t i = 0; i < st->nxt; i++)
		segs[i] = st->xt[i].seg;
	int rc = build_groups(st, segs, st->nxt);
	free(segs);
	if (rc)
		return rc;
	for (size_t i = 0; i < st->nxt; i++) {
		const xtab *t = &st->xt[i];
		cellgroup *g = group_of(st, t->seg);
		for (size_t k = 0; k < t->cap; k++) {
			const slot *e = &t->slots[k];
			if (e->count)
				g->count[pc_lookup_find(&g->tab, g->start, e->address)] += e->count;
		}
	}
	xtabs_free(st);
	st->used = 0;
	st->binned = 1;
	pc_diag_warn(st->diag,
		     "raw samples: more than %zu distinct addresses, so from here on they are counted per interval between symbol and region boundaries (exact per symbol and region; no per-address detail)",
			(size_t)PC_SAMPLES_EXACT_MAX);
	return PC_OK;
}

/* A group for seg, created (by a rebuild) if the segment is new. */
static cellgroup *need_group(pc_samplestore *st, uint32_t seg)
{
	cellgroup *g = group_of(st, seg);
	if (g)
		return g;
	fold_all(st);
	cellgroup *old = st->g;
	size_t nold = st->ng;
	cellgroup *n = realloc(NULL, (nold + 1) * sizeof *n);
	if (!n)
		return NULL;
	size_t k = 0, j = 0;
	while (k < nold && old[k].seg < seg)
		n[j++] = old[k++];
	cellgroup *c = &n[j++];
	memset(c, 0, sizeof *c);
	c->seg = seg;
	c->ncell = 1;
	c->start = calloc(1, sizeof *c->start);
	c->count = calloc(1, sizeof *c->count);
	if (!c->start || !c->count || pc_lookup_build(&c->tab, c->start, 1)) {
		free(c->start);
		free(c->count);
		free(n);
		return NULL;
	}
	while (k < nold)
		n[j++] = old[k++];
	free(old);
	st->g = n;
	st->ng = nold + 1;
	return group_of(st, seg);
}

/* The waiting samples counted into the (current) cells; a sample whose
 * count would wrap is dropped with PC_ELIMIT, as pc_samples_add does. */
static int drain(pc_samplestore *st)
{
	size_t i = 0;
	int r = PC_OK;
	while (i < st->npend) {
		const pc_sample *e = &st->pend[i];
		cellgroup *g = need_group(st, e->segment);
		if (!g) {
			r = PC_ENOMEM;
			break;
		}
		uint64_t *c = &g->count[pc_lookup_find(&g->tab, g->start, e->address)];
		i++;
		if (*c + e->count < *c) {
			r = PC_ELIMIT;
			break;
		}
		*c += e->count;
	}
	memmove(st->pend, st->pend + i, (st->npend - i) * sizeof *st->pend);
	st->npend -= i;
	return r;
}

/* Keeps the cells in step with the bounds' symbols and regions, and
 * counts the samples that waited for that. */
static int refresh(pc_samplestore *st)
{
	if (!st->binned)
		return PC_OK;
	if (*st->b.nsyms != st->seen_syms ||
	    *st->b.nregions != st->seen_regions) {
		int r = rebin(st);
		if (r)
			return r;
	}
	return st->npend ? drain(st) : PC_OK;
}

/* How many single samples may wait for a rebuild: as many as there are
 * boundaries (a rebuild costs about one step a boundary), at least 4096. */
static size_t pend_limit(const pc_samplestore *st)
{
	size_t b = *st->b.nsyms + *st->b.nregions;
	return b > 4096 ? b : 4096;
}

/* ---- counting -------------------------------------------------------------- */

uint64_t pc_record_decode(const pc_record_layout *l, const unsigned char *r)
{
	const unsigned char *f = r + l->offset;
	if (l->real != PC_REAL_NONE) {
		uint64_t w0 = pc_get_u16(f, l->endian);
		uint64_t w1 = pc_get_u16(f + 2, l->endian);
		uint64_t seg = l->real == PC_REAL_IPCS ? w1 : w0;
		uint64_t off = l->real == PC_REAL_IPCS ? w0 : w1;
		return ((seg << 4) + off) & l->mask;
	}
	return pc_get_uint(f, l->width, l->endian) & l->mask;
}

/* Batched counting with software prefetches.  Each sample costs two
 * dependent loads that miss L1 for random PCs (the second-level byte, then
 * the fused rel/counter entry); out-of-order execution alone overlaps only
 * a few samples.  So samples are taken COUNT_BATCH at a time: pass 1
 * decodes them and prefetches their second-level bytes, pass 2 finds their
 * first candidate cells and prefetches those entries, pass 3 finishes the
 * lookups and bumps the counters.  Samples outside the table's span are
 * counted at once (cell 0 below it, the last cell above).  The callers
 * pass a copy of the table local to their loop, so that the counter
 * stores cannot alias it and its fields stay in registers. */
#ifndef PC_COUNT_BATCH
#define PC_COUNT_BATCH 64
#endif
#define COUNT_BATCH PC_COUNT_BATCH
#ifndef PC_UNROLL_N
#define PC_UNROLL_N 8
#endif
#define PC_PRAGMA(x) _Pragma(#x)
#define PC_PRAGMA_UNROLL(n) PC_PRAGMA(GCC unroll n)
#define PC_UNROLL PC_PRAGMA_UNROLL(PC_UNROLL_N)
#if defined(__GNUC__)
#define PC_HOT_INLINE inline __attribute__((always_inline))
#else
#define PC_HOT_INLINE inline
#endif

/* Tables this small (second level and counters) stay in L1: there the
 * batches' extra instructions cost more than the misses they hide (1,000
 * cells over 16 MiB: 2.30 against 2.15 ns/sample), and samples are
 * looked up one at a time. */
#define SMALL_TABLE_BYTES ((size_t)32 << 10)

static int small_table(const pc_lookup_table *t)
{
	return (t->span >> t->gshift) + (t->ncell + 1) * sizeof(pc_cellctr) <=
	       SMALL_TABLE_BYTES;
}

/* The cell of x, one sample at a time: pc_lookup_find_fast() with the
 * fix-up reading the fused counters (priv[k].rel == tab.rel[k]). */
static inline size_t cell_of(const pc_lookup_table *t, const pc_cellctr *priv,
			     uint64_t x)
{
	return pc_lookup_cell(t, (const char *)&priv[0].rel, sizeof *priv, x);
}

/* Pass 1 for one sample x: keeps its offset in offs[*m] (and prefetches)
 * or counts it now.  One comparison tells both cases apart: base + span
 * cannot exceed 2^64 (the last start is base + span - 1), so an x below
 * base wraps to an offset of at least span. */
static PC_HOT_INLINE void batch_put(const pc_lookup_table *t,
				    pc_cellctr *priv, uint32_t *offs, size_t *m,
				    uint64_t x)
{
	uint64_t off = x - t->base;
	if (__builtin_expect(off < t->span, 1)) {
		offs[(*m)++] = (uint32_t)off;
		__builtin_prefetch(&t->delta[off >> t->gshift]);
	} else {
		priv[x < t->base ? 0 : t->ncell - 1].n++;
	}
}

/* Passes 2 and 3 over offs[0, m) (each < t->span, so t->delta exists).
 * A saturated second-level byte (255, rare) shows as bit 8 of d + 1:
 * those are searched after pass 2, so that the pass makes no call.  With
 * chk 0 (a constant: tables without saturated bytes) there is no test. */
static PC_HOT_INLINE void batch_count(const pc_lookup_table *t,
				      pc_cellctr *priv, const uint32_t *offs,
				      size_t m, const int chk)
{
	uint32_t ks[COUNT_BATCH];
	uint32_t sat = 0;
	const uint8_t *delta = t->delta;
	const uint32_t *page = t->page;
	const unsigned gshift = t->gshift;
	PC_UNROLL
	for (size_t j = 0; j < m; j++) {
		size_t gi = offs[j] >> gshift;
		uint32_t d = delta[gi];
		size_t k = (size_t)page[gi >> 8] + d;
		ks[j] = (uint32_t)k;
		sat |= d + 1;
		__builtin_prefetch(&priv[k + 1]);
	}
	if (chk && __builtin_expect(sat & 256, 0)) {
		for (size_t j = 0; j < m; j++)
			if (delta[offs[j] >> gshift] == 255)
				ks[j] = (uint32_t)pc_lookup_search_rel(t, ks[j], offs[j]);
	}
	PC_UNROLL
	for (size_t j = 0; j < m; j++) {
		size_t k = ks[j];
		uint32_t off = offs[j];
		k += priv[k + 1].rel <= off;
		while (__builtin_expect(priv[k + 1].rel <= off, 0))
			k++;
		priv[k].n++;
	}
}

static void count_addrs(const cellgroup *g, pc_cellctr *priv,
			const uint64_t *a, size_t n)
{
	const pc_lookup_table t = g->tab;
	if (small_table(&t)) {
		for (size_t i = 0; i < n; i++)
			priv[cell_of(&t, priv, a[i])].n++;
		return;
	}
	uint32_t offs[COUNT_BATCH];
	for (size_t i = 0; i < n;) {
		size_t e = n - i < COUNT_BATCH ? n : i + COUNT_BATCH, m = 0;
		for (; i < e; i++)
			batch_put(&t, priv, offs, &m, a[i]);
		if (t.nsat)
			batch_count(&t, priv, offs, m, 1);
		else
			batch_count(&t, priv, offs, m, 0);
	}
}

/* The hot loops: a record is decoded and counted in one pass over the
 * (often memory-mapped) input; the common layouts get loops of their own
 * so that the decoding is a load and a mask. */
static inline uint64_t rd_le32(const unsigned char *f)
{
	return (uint64_t)f[0] | (uint64_t)f[1] << 8 | (uint64_t)f[2] << 16 |
	       (uint64_t)f[3] << 24;
}

static inline uint64_t rd_be32(const unsigned char *f)
{
	return (uint64_t)f[3] | (uint64_t)f[2] << 8 | (uint64_t)f[1] << 16 |
	       (uint64_t)f[0] << 24;
}

#define COUNT_RECORDS(NAME, DECODE)                                          \
	static void NAME(const cellgroup *g, pc_cellctr *priv,                \
			 const unsigned char *b, size_t n,                    \
			 const pc_record_layout *l)                           \
	{                                                                     \
		const pc_lookup_table t = g->tab;                             \
		const size_t st = l->stride;                                  \
		const uint64_t mask = l->mask;                                \
		const unsigned char *f = b + l->offset;                       \
		uint32_t offs[COUNT_BATCH];                                   \
		(void)mask;                                                   \
		if (small_table(&t)) {                                        \
			for (size_t i = 0; i < n; i++, f += st, b += st)      \
				priv[cell_of(&t, priv, (DECODE))].n++;        \
			return;                                               \
		}                                                             \
		for (size_t i = 0; i < n;) {                                  \
			size_t e = n - i < COUNT_BATCH ? n : i + COUNT_BATCH; \
			size_t m = 0;                                         \
			PC_UNROLL                                             \
			for (; i < e; i++, f += st, b += st)                  \
				batch_put(&t, priv, offs, &m, (DECODE));      \
			if (t.nsat)                                           \
				batch_count(&t, priv, offs, m, 1);            \
			else                                                  \
				batch_count(&t, priv, offs, m, 0);            \
		}                                                             \
	}
COUNT_RECORDS(count_le32, rd_le32(f) & mask)
COUNT_RECORDS(count_be32, rd_be32(f) & mask)
/* the same without the AND when the mask keeps all 32 bits (the usual
 * case): one instruction a sample fewer, and a register more for pass 1 */
COUNT_RECORDS(count_le32_all, rd_le32(f))
COUNT_RECORDS(count_be32_all, rd_be32(f))
COUNT_RECORDS(count_any, pc_record_decode(l, b))
#undef COUNT_RECORDS

/* Records of layout l at b, counted by the loop for their layout. */
static void count_records(const cellgroup *g, pc_cellctr *priv,
			  const unsigned char *b, size_t n,
			  const pc_record_layout *l)
{
	if (l->real == PC_REAL_NONE && l->width == 4) {
		int all = (l->mask & 0xFFFFFFFFu) == 0xFFFFFFFFu;
		if (l->endian == PC_ENDIAN_BIG && all)
			count_be32_all(g, priv, b, n, l);
		else if (l->endian == PC_ENDIAN_BIG)
			count_be32(g, priv, b, n, l);
		else if (all)
			count_le32_all(g, priv, b, n, l);
		else
			count_le32(g, priv, b, n, l);
	} else {
		count_any(g, priv, b, n, l);
	}
}

/* One thread's share of a batch: n addresses (a), n records in memory
 * (b, layout l), or n records of layout l at file offset at of s, mapped
 * window records at a time by the thread itself (status, fail_at: a
 * window that could not be mapped). */
typedef struct job {
	const cellgroup *g;
	pc_cellctr *priv;
	const uint64_t *a;
	const unsigned char *b;
	const pc_record_layout *l;
	size_t n;
	const pc_stream *s;
	uint64_t at;
	size_t window;
	int status;
	uint64_t fail_at;
} job;

static void run_job(job *j)
{
	if (!j->n)
		return;
	if (j->s) {
		uint64_t off = j->at;
		for (size_t left = j->n; left;) {
			size_t k = left < j->window ? left : j->window;
			void *base;
			size_t maplen;
			const unsigned char *m = pc_stream_map_at(
				j->s, off, k * j->l->stride, 1, &base, &maplen);
			if (!m) {
				j->status = PC_EIO;
				j->fail_at = off;
				return;
			}
			count_records(j->g, j->priv, m, k, j->l);
			pc_stream_unmap(base, maplen);
			off += (uint64_t)k * j->l->stride;
			left -= k;
		}
	} else if (!j->l) {
		count_addrs(j->g, j->priv, j->a, j->n);
	} else {
		count_records(j->g, j->priv, j->b, j->n, j->l);
	}
}

/* A pool of nw workers (thread 0 is the caller).  A batch: the caller
 * fills job[1..nw], bumps gen and waits until busy drops to 0.  Small
 * batches (L2-sized, from the loaders) make waking cheap threads matter:
 * they are created once per store, not once per batch. */
typedef struct pool {
	pthread_mutex_t mu;
	pthread_cond_t go, done;
	unsigned nw, busy, gen;
	int quit;
	pthread_t tid[MAX_THREADS];
	job job[MAX_THREADS];
	struct worker {
		struct pool *pl;
		unsigned id;
	} w[MAX_THREADS];
} pool;

static void *worker_main(void *arg)
{
	struct worker *w = arg;
	pool *pl = w->pl;
	unsigned seen = 0;
	pthread_mutex_lock(&pl->mu);
	for (;;) {
		while (!pl->quit && pl->gen == seen)
			pthread_cond_wait(&pl->go, &pl->mu);
		if (pl->quit)
			break;
		seen = pl->gen;
		job *j = &pl->job[w->id]; /* the caller waits for busy == 0 */
		pthread_mutex_unlock(&pl->mu);
		run_job(j);
		pthread_mutex_lock(&pl->mu);
		if (--pl->busy == 0)
			pthread_cond_signal(&pl->done);
	}
	pthread_mutex_unlock(&pl->mu);
	return NULL;
}

static void pool_stop(pool *pl)
{
	if (!pl)
		return;
	pthread_mutex_lock(&pl->mu);
	pl->quit = 1;
	pthread_cond_broadcast(&pl->go);
	pthread_mutex_unlock(&pl->mu);
	for (unsigned i = 1; i <= pl->nw; i++)
		pthread_join(pl->tid[i], NULL);
	pthread_mutex_destroy(&pl->mu);
	pthread_cond_destroy(&pl->go);
	pthread_cond_destroy(&pl->done);
	free(pl);
}

/* Starts up to want - 1 workers; returns the pool (NULL: run alone). */
static pool *pool_start(unsigned want)
{
	pool *pl = calloc(1, sizeof *pl);
	if (!pl)
		return NULL;
	if (pthread_mutex_init(&pl->mu, NULL)) {
		free(pl);
		return NULL;
	}
	pthread_cond_init(&pl->go, NULL);
	pthread_cond_init(&pl->done, NULL);
	for (unsigned i = 1; i < want; i++) {
		pl->w[i].pl = pl;
		pl->w[i].id = i;
		if (pthread_create(&pl->tid[i], NULL, worker_main, &pl->w[i]))
			break;
		pl->nw = i;
	}
	if (pl->nw == 0) {
		pool_stop(pl);
		return NULL;
	}
	return pl;
}

/* How many threads count a batch of n samples (1 when there is no pool);
 * each has its private counters, folded first if n could overflow them. */
static unsigned threads_for(pc_samplestore *st, cellgroup *g, uint64_t n,
			    int *rc)
{
	unsigned nt = st->nthreads;
	if (n < PAR_MIN * 2)
		nt = 1;
	else if (n / PAR_MIN < nt)
		nt = (unsigned)(n / PAR_MIN);
	if (nt > 1 && !st->pool)
		st->pool = pool_start(st->nthreads);
	pool *pl = st->pool;
	if (!pl)
		nt = 1;
	else if (nt > pl->nw + 1)
		nt = pl->nw + 1;
	*rc = PC_OK;
	for (unsigned t = 0; t < nt; t++) {
		if (!g->priv[t]) {
			g->priv[t] = calloc(g->ncell + 1, sizeof *g->priv[t]);
			if (!g->priv[t]) {
				*rc = PC_ENOMEM;
				return 0;
			}
			for (size_t k = 0; k <= g->ncell; k++)
				g->priv[t][k].rel = g->tab.rel ? g->tab.rel[k]
							       : UINT32_MAX;
		}
		if (g->pending[t] + n > PENDING_MAX)
			fold(g);
	}
	return nt;
}

/* Thread t's share of n items split nt ways: the count, and in *first
 * the index of its first item (the last thread takes the remainder). */
static uint64_t share(uint64_t n, unsigned nt, unsigned t, uint64_t *first)
{
	uint64_t per = n / nt;
	*first = per * t;
	return t + 1 == nt ? n - *first : per;
}

/* Runs jobs[0..nt): jobs[0] in the calling thread, the others in the
 * pool's workers; returns when all are done. */
static void dispatch(pc_samplestore *st, cellgroup *g, job *jobs, unsigned nt)
{
	for (unsigned t = 0; t < nt; t++)
		g->pending[t] += jobs[t].n;
	if (nt == 1) {
		run_job(&jobs[0]);
		return;
	}
	pool *pl = st->pool;
	pthread_mutex_lock(&pl->mu);
	for (unsigned t = 0; t <= pl->nw; t++)
		pl->job[t] = t < nt ? jobs[t] : (job){0};
	pl->busy = pl->nw;
	pl->gen++;
	pthread_cond_broadcast(&pl->go);
	pthread_mutex_unlock(&pl->mu);
	run_job(&jobs[0]);
	pthread_mutex_lock(&pl->mu);
	while (pl->busy)
		pthread_cond_wait(&pl->done, &pl->mu);
	for (unsigned t = 1; t < nt; t++)
		jobs[t] = pl->job[t];
	pthread_mutex_unlock(&pl->mu);
}

/* Counts n addresses (a) or n records (b in layout l) into the cells of
 * seg, split across the pool when the batch is big enough. */
static int binned_add(pc_samplestore *st, uint32_t seg, const uint64_t *a,
		      const unsigned char *b, const pc_record_layout *l,
		      size_t n)
{
	cellgroup *g = need_group(st, seg);
	if (!g)
		return PC_ENOMEM;
	if (!g->tab.fast) {
		for (size_t i = 0; i < n; i++) {
			uint64_t x = l ? pc_record_decode(l, b + i * l->stride) : a[i];
			g->count[pc_lookup_find(&g->tab, g->start, x)]++;
		}
		return PC_OK;
	}
	int rc;
	unsigned nt = threads_for(st, g, n, &rc);
	if (rc)
		return rc;
	job jobs[MAX_THREADS];
	for (unsigned t = 0; t < nt; t++) {
		uint64_t first, k = share(n, nt, t, &first);
		jobs[t] = (job){.g = g, .priv = g->priv[t], .l = l, .n = (size_t)k};
		if (l)
			jobs[t].b = b + first * l->stride;
		else
			jobs[t].a = a + first;
	}
	dispatch(st, g, jobs, nt);
	return PC_OK;
}

/* Records per thread and round of pc_samples_add_mapped (the private u32
 * counters are folded between rounds), and per mapping. */
#ifndef PC_MAPPED_ROUND
#define PC_MAPPED_ROUND ((uint64_t)1 << 30)
#endif
#define MAPPED_ROUND ((uint64_t)PC_MAPPED_ROUND)
#define MAPPED_WINDOW_BYTES ((size_t)2 << 20)

int pc_samples_add_mapped(pc_samplestore *st, uint32_t seg, const pc_stream *s,
			  uint64_t at, uint64_t n, const pc_record_layout *l,
			  uint64_t *fail_at)
{
	if (!st->binned || n == 0)
		return 1;
	int rc = refresh(st);
	if (rc)
		return rc;
	cellgroup *g = need_group(st, seg);
	if (!g)
		return PC_ENOMEM;
	if (!g->tab.fast)
		return 1;
	st->dirty = 1;
	size_t window = MAPPED_WINDOW_BYTES / l->stride;
	if (window == 0)
		window = 1;
	while (n) {
		/* at most MAPPED_ROUND records for each thread really had */
		unsigned nt = threads_for(st, g, n < MAPPED_ROUND ? n : MAPPED_ROUND, &rc);
		if (rc)
			return rc;
		uint64_t round = n < MAPPED_ROUND * nt ? n : MAPPED_ROUND * nt;
		job jobs[MAX_THREADS];
		for (unsigned t = 0; t < nt; t++) {
			uint64_t first, k = share(round, nt, t, &first);
			jobs[t] = (job){.g = g, .priv = g->priv[t], .l = l,
					.n = (size_t)k, .s = s,
					.at = at + first * l->stride,
					.window = window};
		}
		dispatch(st, g, jobs, nt);
		for (unsigned t = 0; t < nt; t++) {
			if (jobs[t].status) {
				*fail_at = jobs[t].fail_at;
				return jobs[t].status;
			}
		}
		at += round * l->stride;
		n -= round;
	}
	return PC_OK;
}

int pc_samples_add(pc_samplestore *st, uint32_t seg, uint64_t addr,
		   uint64_t count)
{
	if (count == 0)
		return PC_OK;
	st->dirty = 1;
	if (st->binned) {
		if (st->npend || *st->b.nsyms != st->seen_syms ||
		    *st->b.nregions != st->seen_regions) {
			/* the cells are out of date: the sample waits */
			if (st->npend == st->cappend &&
			    pc_grow((void **)&st->pend, &st->cappend, st->npend + 1,
				    sizeof *st->pend))
				return PC_ENOMEM;
			st->pend[st->npend++] = (pc_sample){seg, addr, count};
			return st->npend >= pend_limit(st) ? refresh(st) : PC_OK;
		}
		cellgroup *g = need_group(st, seg);
		if (!g)
			return PC_ENOMEM;
		uint64_t *c = &g->count[pc_lookup_find(&g->tab, g->start, addr)];
		if (*c + count < *c)
			return PC_ELIMIT;
		*c += count;
		return PC_OK;
	}
	int r = exact_add(st, seg, addr, count);
	if (r == PC_OK && st->used > PC_SAMPLES_EXACT_MAX && has_bounds(st))
		r = go_binned(st);
	return r;
}

int pc_samples_add_many(pc_samplestore *st, uint32_t seg, const uint64_t *a,
			size_t n)
{
	if (n == 0)
		return PC_OK;
	st->dirty = 1;
	size_t i = 0;
	if (!st->binned) {
		/* exact_add for each address, with the table found once */
		if (st->xfolded) {
			int r = unfold(st);
			if (r)
				return r;
		}
		xtab *t = st->nxt && st->xt[0].seg == seg ? &st->xt[0] : xtab_of(st, seg);
		if (!t)
			return PC_ENOMEM;
		const int bounds = has_bounds(st);
		size_t *hint = t == &st->xt[0] ? st->xhint : NULL;
		while (i < n) {
			uint64_t x = a[i++];
			if (hint) {
				size_t *h = &hint[(x >> 2 ^ x) & (XHINTS - 1)];
				if (*h < t->cap && t->slots[*h].address == x &&
				    t->slots[*h].count && t->slots[*h].count != UINT64_MAX) {
					t->slots[*h].count++;
					continue;
				}
				int r = add_at(st, t, x, 1, h);
				if (r)
					return r;
			} else {
				int r = add_to(st, t, x, 1);
				if (r)
					return r;
			}
			if (st->used > PC_SAMPLES_EXACT_MAX && bounds) {
				int r = go_binned(st);
				if (r)
					return r;
				break;
			}
		}
	}
	if (i == n)
		return PC_OK;
	int r = refresh(st);
	if (r)
		return r;
	return binned_add(st, seg, a + i, NULL, NULL, n - i);
}

int pc_samples_add_records(pc_samplestore *st, uint32_t seg,
			   const unsigned char *b, size_t n,
			   const pc_record_layout *l)
{
	if (n == 0)
		return PC_OK;
	st->dirty = 1;
	size_t i = 0;
	/* exact counting until the table is full, a small batch at a time */
	uint64_t tmp[256];
	while (!st->binned && i < n) {
		size_t k = n - i < 256 ? n - i : 256;
		const unsigned char *r0 = b + i * l->stride;
		if (l->real == PC_REAL_NONE && l->width == 4) {
			/* the common layouts: a load and a mask */
			const unsigned char *f = r0 + l->offset;
			if (l->endian == PC_ENDIAN_BIG)
				for (size_t j = 0; j < k; j++, f += l->stride)
					tmp[j] = rd_be32(f) & l->mask;
			else
				for (size_t j = 0; j < k; j++, f += l->stride)
					tmp[j] = rd_le32(f) & l->mask;
		} else {
			for (size_t j = 0; j < k; j++)
				tmp[j] = pc_record_decode(l, r0 + j * l->stride);
		}
		int r = pc_samples_add_many(st, seg, tmp, k);
		if (r)
			return r;
		i += k;
	}
	if (i == n)
		return PC_OK;
	int r = refresh(st);
	if (r)
		return r;
	return binned_add(st, seg, NULL, b + i * l->stride, l, n - i);
}

size_t pc_samples_distinct(const pc_samplestore *cst)
{
	if (!cst->binned)
		return cst->used;
	/* the nonzero cells, counted by the sorted view (a cache) */
	pc_samplestore *st = (pc_samplestore *)cst;
	if (!pc_samples_sorted(st))
		return 0;
	return st->nsorted;
}

uint64_t pc_samples_displaced(const pc_samplestore *st)
{
	return st->displaced;
}

int pc_samples_binned(const pc_samplestore *st)
{
	return st->binned;
}

static int cmp_slot(const void *a, const void *b)
{
	const slot *x = a, *y = b;
	return x->address < y->address ? -1 : x->address > y->address;
}

static int cmp_xtab(const void *a, const void *b)
{
	const xtab *x = a, *y = b;
	return x->seg < y->seg ? -1 : x->seg > y->seg;
}

/* The view from the tables, which are then dropped (see xfolded).  Each
 * table is compacted and sorted in place and shrunk before the view is
 * allocated: at most 16 bytes per distinct address besides the view's 24
 * (plus qsort's buffer for one table's 16). */
static const pc_sample *sorted_exact(pc_samplestore *st)
{
	qsort(st->xt, st->nxt, sizeof *st->xt, cmp_xtab);
	for (size_t t = 0; t < st->nxt; t++) {
		xtab *x = &st->xt[t];
		size_t k = 0;
		for (size_t i = 0; i < x->cap; i++)
			if (x->slots[i].count)
				x->slots[k++] = x->slots[i];
		qsort(x->slots, k, sizeof *x->slots, cmp_slot);
		slot *shrunk = k ? realloc(x->slots, k * sizeof *x->slots) : NULL;
		if (shrunk || !k) {
			if (!k)
				free(x->slots);
			x->slots = shrunk;
		}
		x->cap = x->used = k;
	}
	/* the tables are no hash tables any more: from here on, the view */
	st->xfolded = 1;
	st->sorted = malloc((st->used ? st->used : 1) * sizeof *st->sorted);
	if (!st->sorted) {
		/* keep the counts: back to hash tables */
		st->xfolded = 0;
		for (size_t t = 0; t < st->nxt; t++) {
			size_t cap = 1024;
			while (cap / 8 * 7 <= st->xt[t].used)
				cap *= 2;
			if (rehash(&st->xt[t], cap))
				break;
		}
		return NULL;
	}
	size_t k = 0;
	for (size_t t = 0; t < st->nxt; t++)
		for (size_t i = 0; i < st->xt[t].used; i++)
			st->sorted[k++] = (pc_sample){st->xt[t].seg,
						      st->xt[t].slots[i].address,
						      st->xt[t].slots[i].count};
	st->nsorted = k;
	xtabs_free(st);
	return st->sorted;
}

static const pc_sample *sorted_binned(pc_samplestore *st)
{
	if (refresh(st))
		return NULL;
	fold_all(st);
	size_t n = 0;
	for (size_t i = 0; i < st->ng; i++)
		for (size_t k = 0; k < st->g[i].ncell; k++)
			n += st->g[i].count[k] != 0;
	st->sorted = malloc((n ? n : 1) * sizeof *st->sorted);
	if (!st->sorted)
		return NULL;
	n = 0;
	for (size_t i = 0; i < st->ng; i++)
		for (size_t k = 0; k < st->g[i].ncell; k++)
			if (st->g[i].count[k])
				st->sorted[n++] = (pc_sample){st->g[i].seg,
							      st->g[i].start[k],
							      st->g[i].count[k]};
	st->nsorted = n;
	if (st->displaced && !st->warned && st->bounded) {
		st->warned = 1;
		pc_diag_warn(st->diag,
			     "%llu raw samples were counted before symbols or regions inside their interval were loaded; they are credited at the interval start (load symbol files before large dumps)",
				(unsigned long long)st->displaced);
	}
	return st->sorted;
}

const pc_sample *pc_samples_sorted(pc_samplestore *st)
{
	if (st->binned && st->bounded &&
	    (*st->b.nsyms != st->seen_syms ||
	     *st->b.nregions != st->seen_regions))
		st->dirty = 1;
	if (!st->dirty && st->sorted)
		return st->sorted;
	if (!st->binned && st->xfolded) /* the view is the counts */
		return st->sorted;
	free(st->sorted);
	st->sorted = NULL;
	st->nsorted = 0;
	st->dirty = 0;
	const pc_sample *r = st->binned ? sorted_binned(st)
					: (st->used ? sorted_exact(st) : NULL);
	if (!r && (st->binned || st->used))
		st->dirty = 1;
	return r;
}
