/*
 * order.c - a loader's events in the input's order, into windows of the
 * profile's timeline (order.h).  The open window [first, pos) counts its
 * events per (segment, address) in an open-addressing table; a cut hands
 * its (segment, address, count) triples to pc_profile_add_window and
 * empties the table through the slots it used, so a cut costs the
 * window's distinct addresses, not the table's size.
 */
#include "order.h"

#include "profcore_plugin.h"

#include <stdlib.h>

struct pc_order {
	pc_profile *p;
	uint64_t first, pos, span;
	/* the open window's cells, in the order first seen */
	uint32_t *seg;
	uint64_t *addr, *count;
	uint32_t *slot; /* a cell's slot in tab */
	size_t n, cap;
	uint32_t *tab; /* 0 empty, else a cell's index + 1 */
	size_t tabcap;
};

int pc_order_new(pc_order **o, pc_profile *p)
{
	*o = calloc(1, sizeof **o);
	if (!*o)
		return PC_ENOMEM;
	(*o)->p = p;
	pc_profile_window_span(&(*o)->span, p);
	return PC_OK;
}

void pc_order_free(pc_order *o)
{
	if (!o)
		return;
	free(o->seg);
	free(o->addr);
	free(o->count);
	free(o->slot);
	free(o->tab);
	free(o);
}

static size_t hash(uint32_t seg, uint64_t addr)
{
	uint64_t h = (addr ^ ((uint64_t)seg << 40)) * 0x9E3779B97F4A7C15ull;
	return (size_t)(h >> 17);
}

/* the table at twice its size, the cells put back */
static int rehash(pc_order *o)
{
	size_t nc = o->tabcap ? 2 * o->tabcap : 1024;
	uint32_t *t = calloc(nc, sizeof *t);
	if (!t)
		return PC_ENOMEM;
	for (size_t i = 0; i < o->n; i++) {
		size_t h = hash(o->seg[i], o->addr[i]) & (nc - 1);
		while (t[h])
			h = (h + 1) & (nc - 1);
		t[h] = (uint32_t)i + 1;
		o->slot[i] = (uint32_t)h;
	}
	free(o->tab);
	o->tab = t;
	o->tabcap = nc;
	return PC_OK;
}

int pc_order_add(pc_order *o, uint32_t segment, uint64_t address, uint64_t count)
{
	if (2 * (o->n + 1) > o->tabcap) {
		if (o->n + 1 >= UINT32_MAX / 2 || rehash(o))
			return pc_profile_fail(o->p, PC_ENOMEM, "out of memory");
	}
	size_t m = o->tabcap - 1, h = hash(segment, address) & m;
	for (uint32_t k; (k = o->tab[h]); h = (h + 1) & m)
		if (o->addr[k - 1] == address && o->seg[k - 1] == segment) {
			o->count[k - 1] += count;
			o->pos += count;
			return PC_OK;
		}
	if (o->n == o->cap) {
		size_t c = o->cap;
		if (pc_grow((void **)&o->seg, &c, o->n + 1, sizeof *o->seg) ||
		    (c = o->cap, pc_grow((void **)&o->addr, &c, o->n + 1, sizeof *o->addr)) ||
		    (c = o->cap, pc_grow((void **)&o->count, &c, o->n + 1, sizeof *o->count)) ||
		    (c = o->cap, pc_grow((void **)&o->slot, &c, o->n + 1, sizeof *o->slot)))
			return pc_profile_fail(o->p, PC_ENOMEM, "out of memory");
		o->cap = c;
	}
	o->seg[o->n] = segment;
	o->addr[o->n] = address;
	o->count[o->n] = count;
	o->slot[o->n] = (uint32_t)h;
	o->tab[h] = (uint32_t)++o->n;
	o->pos += count;
	return PC_OK;
}

void pc_order_skip(pc_order *o, uint64_t n)
{
	o->pos += n;
}

int pc_order_flush(pc_order *o)
{
	if (o->pos == o->first)
		return PC_OK;
	int r = pc_profile_add_window(o->p, o->first, o->pos, o->seg, o->addr, o->count, o->n);
	if (r)
		return r;
	for (size_t i = 0; i < o->n; i++)
		o->tab[o->slot[i]] = 0;
	o->n = 0;
	o->first = o->pos;
	pc_profile_window_span(&o->span, o->p);
	return PC_OK;
}

int pc_order_boundary(pc_order *o)
{
	return o->pos - o->first >= o->span ? pc_order_flush(o) : PC_OK;
}

uint64_t pc_order_pos(const pc_order *o)
{
	return o->pos;
}

uint64_t pc_order_room(const pc_order *o)
{
	uint64_t d = o->pos - o->first;
	return d < o->span ? o->span - d : 0;
}
