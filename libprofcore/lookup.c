/* lookup.c - the O(1) address -> cell table described in lookup.h. */
#include "lookup.h"

#include <stdlib.h>
#include <string.h>

#define MAX_GRANULES ((uint64_t)1 << 22)

void pc_lookup_dispose(pc_lookup_table *t)
{
	free(t->page);
	free(t->delta);
	free(t->rel);
	memset(t, 0, sizeof *t);
}

int pc_lookup_build(pc_lookup_table *t, const uint64_t *start, size_t n)
{
	memset(t, 0, sizeof *t);
	t->ncell = n;
	if (n == 1) {
		/* every address is cell 0 */
		t->fast = 1;
		t->base = UINT64_MAX;
		t->span = 0;
		return PC_OK;
	}
	uint64_t base = start[1], last = start[n - 1] - base;
	if (last >= UINT32_MAX - 1 || n >= ((size_t)1 << 31))
		return PC_OK; /* binary search only */
	uint64_t span = last + 1;
	unsigned s = 2;
	while ((span >> s) > 4 * (uint64_t)n || (span >> s) >= MAX_GRANULES)
		s++;
	size_t ngran = (size_t)((span + ((uint64_t)1 << s) - 1) >> s);
	size_t npage = (ngran + 255) / 256;
	t->page = malloc(npage * sizeof *t->page);
	t->delta = malloc(ngran);
	t->rel = malloc((n + 1) * sizeof *t->rel);
	if (!t->page || !t->delta || !t->rel) {
		pc_lookup_dispose(t);
		return PC_ENOMEM;
	}
	t->rel[0] = 0;
	for (size_t k = 1; k < n; k++)
		t->rel[k] = (uint32_t)(start[k] - base);
	t->rel[n] = UINT32_MAX;
	size_t k = 1; /* cell of the current granule's first byte */
	for (size_t g = 0; g < ngran; g++) {
		uint64_t off = (uint64_t)g << s;
		while (k + 1 < n && t->rel[k + 1] <= off)
			k++;
		if ((g & 255) == 0)
			t->page[g >> 8] = (uint32_t)k;
		size_t d = k - t->page[g >> 8];
		t->delta[g] = d > 255 ? 255 : (uint8_t)d;
		if (d > 255) /* saturated: search from the 255th cell on */
			t->delta[g] = 255;
		t->nsat += d >= 255;
	}
	t->base = base;
	t->span = span;
	t->gshift = s;
	t->fast = 1;
	return PC_OK;
}

size_t pc_lookup_search_rel(const pc_lookup_table *t, size_t lo, uint64_t off)
{
	/* greatest k >= lo with rel[k] <= off; rel[lo] <= off holds */
	size_t hi = t->ncell; /* rel[hi] > off (sentinel or beyond) */
	while (hi - lo > 1) {
		size_t mid = lo + (hi - lo) / 2;
		if (t->rel[mid] <= off)
			lo = mid;
		else
			hi = mid;
	}
	return lo;
}

size_t pc_lookup_find(const pc_lookup_table *t, const uint64_t *start,
		      uint64_t a)
{
	if (t->fast)
		return pc_lookup_find_fast(t, a);
	size_t lo = 0, hi = t->ncell;
	while (hi - lo > 1) {
		size_t mid = lo + (hi - lo) / 2;
		if (start[mid] <= a)
			lo = mid;
		else
			hi = mid;
	}
	return lo;
}

/* ---- sorting by 64-bit keys ---------------------------------------------- */

/* Digits of up to RADIX_MAX_BITS bits (64 KiB of counters, allocated
 * when digits of 11 bits would take more passes); fewer for
 * short arrays, where clearing the counters would cost more than a pass. */
#define RADIX_MAX_BITS 13

pc_rkey *pc_radix_sort(pc_rkey *v, pc_rkey *tmp, size_t n)
{
	size_t i = 1;
	while (i < n && v[i - 1].key <= v[i].key)
		i++;
	if (i >= n)
		return v; /* already in order */
	uint64_t all_or = 0, all_and = UINT64_MAX;
	for (i = 0; i < n; i++) {
		all_or |= v[i].key;
		all_and &= v[i].key;
	}
	const uint64_t differ = all_or ^ all_and;
	/* the digits cover only the bits from the lowest to the highest in
	 * which keys differ (bits every key shares take no pass: names with
	 * a common tail, multiples of a power of two, small keys), split
	 * into as few passes as digits of at most maxbits allow, evenly */
	unsigned lo = 0, hi = 63;
	while (!((differ >> lo) & 1))
		lo++; /* (differ != 0: the keys are not in order) */
	while (!((differ >> hi) & 1))
		hi--;
	unsigned maxbits = n >= 16384 ? RADIX_MAX_BITS : n >= 2048 ? 11 : 8;
	unsigned span = hi - lo + 1;
	unsigned passes = (span + maxbits - 1) / maxbits;
	unsigned bits = (span + passes - 1) / passes;
	size_t small[2048], *cnt = small; /* (more: on the heap) */
	if (bits > 11 && !(cnt = malloc(((size_t)1 << bits) * sizeof *cnt))) {
		cnt = small; /* (no memory: digits of 11 bits) */
		passes = (span + 10) / 11;
		bits = (span + passes - 1) / passes;
	}
	const uint64_t mask = ((uint64_t)1 << bits) - 1;
	const size_t nd = (size_t)1 << bits;
	for (unsigned sh = lo; sh <= hi; sh += bits) {
		if (!((differ >> sh) & mask))
			continue; /* every key has this digit */
		memset(cnt, 0, nd * sizeof *cnt);
		for (i = 0; i < n; i++)
			cnt[(v[i].key >> sh) & mask]++;
		size_t sum = 0;
		for (size_t d = 0; d < nd; d++) {
			size_t c = cnt[d];
			cnt[d] = sum;
			sum += c;
		}
		for (i = 0; i < n; i++)
			tmp[cnt[(v[i].key >> sh) & mask]++] = v[i];
		pc_rkey *t = v;
		v = tmp;
		tmp = t;
	}
	if (cnt != small)
		free(cnt);
	return v;
}
