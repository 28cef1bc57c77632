/*
 * lookup.h - the O(1) address -> cell table (lookup.c) and the parts of the
 * sample store (samples.c) that go beyond internal.h.  Private.
 *
 * A cell table maps an address to the index k of the greatest start[k] <=
 * address in a sorted array start[0..n) with start[0] == 0.  When the
 * starts after start[0] span less than 4 GiB the table is "fast":
 *
 *   first level   one uint32 per page of 256 granules: the cell holding the
 *                 page's first byte (O(1), indexed by the address);
 *   second level  one uint8 per granule: how many cells further the
 *                 granule's first byte lies (saturates at 255);
 *   fix-up        rel[k + 1] <= offset moves on to the next cell; one
 *                 branch-free step covers a granule with one boundary, a
 *                 loop (rare) or a binary search (saturated) the rest.
 *
 * The granule is chosen so there are about four per cell (at least 4
 * bytes, at most 2^22 granules), so the table stays near L2 size for 10^5
 * symbols over 16 MiB of code.  Otherwise lookups binary-search start[].
 */
#ifndef PC_LOOKUP_H
#define PC_LOOKUP_H

#include "pc_base.h"

#include <string.h>

typedef struct pc_lookup_table {
	int fast;
	size_t ncell;
	uint64_t base;   /* start[1] (0 when ncell == 1) */
	uint64_t span;   /* offsets below this use the table */
	unsigned gshift; /* granule = 1 << gshift bytes */
	size_t nsat;     /* granules whose second-level byte is 255 */
	uint32_t *page;  /* first level */
	uint8_t *delta;  /* second level */
	uint32_t *rel;   /* ncell + 1: start[k] - base, rel[ncell] = UINT32_MAX */
} pc_lookup_table;

/** Builds t over start[0..n) (n >= 1, start[0] == 0, strictly increasing;
 *  start must outlive t).  PC_OK or PC_ENOMEM. */
PC_INTERNAL int pc_lookup_build(pc_lookup_table *t, const uint64_t *start,
				size_t n);
PC_INTERNAL void pc_lookup_dispose(pc_lookup_table *t);
/** Cell of address a (any table). */
PC_INTERNAL size_t pc_lookup_find(const pc_lookup_table *t,
				  const uint64_t *start, uint64_t a);
/** Slow part of pc_lookup_find_fast: binary search in rel[lo, hi). */
PC_INTERNAL size_t pc_lookup_search_rel(const pc_lookup_table *t, size_t lo,
					uint64_t off);

/** Cell of address a; t->fast must be set.  The fix-up reads rel[k] as
 *  the uint32 at relb + k * rels (t->rel itself, or a copy fused with
 *  counters); both are constants once this is inlined.  samples.c's
 *  counting loops do the same steps for 64 samples at a time. */
static inline size_t pc_lookup_cell(const pc_lookup_table *t, const char *relb,
				    size_t rels, uint64_t a)
{
#define PC_REL(k) (*(const uint32_t *)(const void *)(relb + (k) * rels))
	if (a < t->base)
		return 0;
	uint64_t off = a - t->base;
	if (off >= t->span)
		return t->ncell - 1;
	size_t gi = (size_t)(off >> t->gshift);
	uint32_t d = t->delta[gi];
	size_t k = (size_t)t->page[gi >> 8] + d;
	if (__builtin_expect(d == 255, 0))
		return pc_lookup_search_rel(t, k, off);
	k += PC_REL(k + 1) <= off;
	while (__builtin_expect(PC_REL(k + 1) <= off, 0))
		k++;
	return k;
#undef PC_REL
}

static inline size_t pc_lookup_find_fast(const pc_lookup_table *t, uint64_t a)
{
	return pc_lookup_cell(t, (const char *)t->rel, sizeof *t->rel, a);
}

/* ---- sorting by 64-bit keys (lookup.c) --------------------------------- */

/** A key and the index of what it stands for. */
typedef struct pc_rkey {
	uint64_t key;
	uint64_t idx;
} pc_rkey;

/** Sorts v[0, n) by key, stably (equal keys keep their order): an LSD
 *  radix sort that skips the digits every key shares, O(n) for input
 *  already in order.  tmp holds n entries; the result is in the array
 *  returned (v or tmp). */
PC_INTERNAL pc_rkey *pc_radix_sort(pc_rkey *v, pc_rkey *tmp, size_t n);
/** An order-keeping key of a double (no NaN): a < b gives key(a) <
 *  key(b), -0 and +0 the same key.  Returns 0 (and no key) when doubles
 *  are not IEEE 754 binary64 in the integers' byte order: sort another
 *  way then. */
static inline int pc_double_key(double d, uint64_t *key)
{
	static const double one = 1.0;
	uint64_t u;
	if (sizeof u != sizeof one)
		return 0;
	memcpy(&u, &one, sizeof u);
	if (u != UINT64_C(0x3FF0000000000000))
		return 0;
	if (d == 0)
		d = 0; /* -0 as +0 */
	memcpy(&u, &d, sizeof u);
	*key = u >> 63 ? ~u : u | UINT64_C(0x8000000000000000);
	return 1;
}

#endif
