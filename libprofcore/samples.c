/* samples.c - aggregation of raw samples by (segment, address).
 *
 * An open-addressing hash table; memory grows with the number of distinct
 * addresses, never with the number of samples.
 */
#include "internal.h"

#include <stdlib.h>
#include <string.h>

struct pc_samplestore {
	pc_sample *slots; /* count == 0 marks an empty slot */
	size_t cap, used;
	pc_sample *sorted;
	size_t nsorted;
	int dirty;
};

pc_samplestore *pc_samples_new(void)
{
	return calloc(1, sizeof(pc_samplestore));
}

void pc_samples_free(pc_samplestore *st)
{
	if (!st)
		return;
	free(st->slots);
	free(st->sorted);
	free(st);
}

static inline size_t hash(uint32_t seg, uint64_t a)
{
	uint64_t h = (a ^ ((uint64_t)seg << 32)) * 0x9E3779B97F4A7C15ull;
	return (size_t)(h >> 17);
}

static int rehash(pc_samplestore *st, size_t ncap)
{
	pc_sample *n = calloc(ncap, sizeof *n);
	if (!n)
		return PC_ENOMEM;
	for (size_t i = 0; i < st->cap; i++) {
		pc_sample *e = &st->slots[i];
		if (!e->count)
			continue;
		size_t j = hash(e->segment, e->address) & (ncap - 1);
		while (n[j].count)
			j = (j + 1) & (ncap - 1);
		n[j] = *e;
	}
	free(st->slots);
	st->slots = n;
	st->cap = ncap;
	return PC_OK;
}

int pc_samples_add(pc_samplestore *st, uint32_t seg, uint64_t addr,
		   uint64_t count)
{
	if (count == 0)
		return PC_OK;
	if ((st->used + 1) * 4 >= st->cap * 3) {
		size_t ncap = st->cap ? st->cap * 2 : 1024;
		if (ncap < st->cap || rehash(st, ncap))
			return PC_ENOMEM;
	}
	size_t j = hash(seg, addr) & (st->cap - 1);
	for (;;) {
		pc_sample *e = &st->slots[j];
		if (!e->count) {
			e->segment = seg;
			e->address = addr;
			e->count = count;
			st->used++;
			st->dirty = 1;
			return PC_OK;
		}
		if (e->address == addr && e->segment == seg) {
			if (e->count + count < e->count)
				return PC_ELIMIT;
			e->count += count;
			st->dirty = 1;
			return PC_OK;
		}
		j = (j + 1) & (st->cap - 1);
	}
}

int pc_samples_add_many(pc_samplestore *st, uint32_t seg, const uint64_t *a,
			size_t n)
{
	for (size_t i = 0; i < n; i++) {
		int r = pc_samples_add(st, seg, a[i], 1);
		if (r)
			return r;
	}
	return PC_OK;
}

size_t pc_samples_distinct(const pc_samplestore *st)
{
	return st->used;
}

static int cmp_sample(const void *a, const void *b)
{
	const pc_sample *x = a, *y = b;
	if (x->segment != y->segment)
		return x->segment < y->segment ? -1 : 1;
	if (x->address != y->address)
		return x->address < y->address ? -1 : 1;
	return 0;
}

const pc_sample *pc_samples_sorted(pc_samplestore *st)
{
	if (!st->dirty && (st->sorted || st->used == 0))
		return st->sorted;
	free(st->sorted);
	st->sorted = NULL;
	st->nsorted = 0;
	if (st->used == 0) {
		st->dirty = 0;
		return NULL;
	}
	st->sorted = malloc(st->used * sizeof *st->sorted);
	if (!st->sorted)
		return NULL;
	size_t k = 0;
	for (size_t i = 0; i < st->cap; i++)
		if (st->slots[i].count)
			st->sorted[k++] = st->slots[i];
	qsort(st->sorted, k, sizeof *st->sorted, cmp_sample);
	st->nsorted = k;
	st->dirty = 0;
	return st->sorted;
}
