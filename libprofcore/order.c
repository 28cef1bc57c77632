/*
 * order.c - a loader's events in the input's order, into windows of the
 * profile's timeline (order.h).  The open window [first, pos) counts its
 * events per (segment, address) in an open-addressing table of cells
 * (a count of 0: an empty slot), at most half full; the slots in use are
 * listed, so a cut, which hands the cells to pc_profile_add_window as
 * (segment, address, count) triples, costs the window's distinct
 * addresses, not the table's size.  An event that finds its cell is a
 * hash, a probe or two and an add (the growth is out of that path).
 */
#include "order.h"

#include "profcore_plugin.h"

#include <stdlib.h>

typedef struct ocell {
	uint64_t addr, count;
	uint32_t seg;
} ocell;

struct pc_order {
	pc_profile *p;
	uint64_t first, pos, span;
	ocell *tab;
	size_t tabcap; /* a power of 2 */
	uint32_t *used; /* the slots in use, n of them (room for tabcap / 2) */
	size_t n;
	/* the triples of a cut */
	uint32_t *seg;
	uint64_t *addr, *count;
};

/* the table, its list of slots and the cut's triples at nc slots (the
 * cells put back); PC_OK or PC_ENOMEM (o as it was) */
static int resize(pc_order *o, size_t nc)
{
	ocell *t = calloc(nc, sizeof *t);
	uint32_t *u = malloc(nc / 2 * sizeof *u), *sg = malloc(nc / 2 * sizeof *sg);
	uint64_t *a = malloc(nc / 2 * sizeof *a), *c = malloc(nc / 2 * sizeof *c);
	if (!t || !u || !sg || !a || !c || nc / 2 >= UINT32_MAX) {
		free(t);
		free(u);
		free(sg);
		free(a);
		free(c);
		return PC_ENOMEM;
	}
	for (size_t i = 0; i < o->n; i++) {
		const ocell *e = &o->tab[o->used[i]];
		uint64_t h = (e->addr ^ ((uint64_t)e->seg << 40)) * 0x9E3779B97F4A7C15ull;
		size_t k = (size_t)(h >> 17) & (nc - 1);
		while (t[k].count)
			k = (k + 1) & (nc - 1);
		t[k] = *e;
		u[i] = (uint32_t)k;
	}
	free(o->tab);
	free(o->used);
	free(o->seg);
	free(o->addr);
	free(o->count);
	o->tab = t;
	o->used = u;
	o->seg = sg;
	o->addr = a;
	o->count = c;
	o->tabcap = nc;
	return PC_OK;
}

int pc_order_new(pc_order **o, pc_profile *p)
{
	*o = calloc(1, sizeof **o);
	if (!*o)
		return PC_ENOMEM;
	(*o)->p = p;
	pc_profile_window_span(&(*o)->span, p);
	if (resize(*o, 1024)) {
		free(*o);
		*o = NULL;
		return PC_ENOMEM;
	}
	return PC_OK;
}

void pc_order_free(pc_order *o)
{
	if (!o)
		return;
	free(o->tab);
	free(o->used);
	free(o->seg);
	free(o->addr);
	free(o->count);
	free(o);
}

int pc_order_add(pc_order *o, uint32_t segment, uint64_t address, uint64_t count)
{
	if (!count)
		return PC_OK;
	uint64_t h = (address ^ ((uint64_t)segment << 40)) * 0x9E3779B97F4A7C15ull;
	size_t m = o->tabcap - 1, k = (size_t)(h >> 17) & m;
	for (;; k = (k + 1) & m) {
		ocell *e = &o->tab[k];
		if (!e->count)
			break;
		if (e->addr == address && e->seg == segment) {
			e->count += count;
			o->pos += count;
			return PC_OK;
		}
	}
	/* a new cell: at most half the slots are used */
	if (2 * (o->n + 1) > o->tabcap) {
		if (resize(o, 2 * o->tabcap))
			return pc_profile_fail(o->p, PC_ENOMEM, "out of memory");
		return pc_order_add(o, segment, address, count);
	}
	o->tab[k] = (ocell){address, count, segment};
	o->used[o->n++] = (uint32_t)k;
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
	for (size_t i = 0; i < o->n; i++) {
		const ocell *e = &o->tab[o->used[i]];
		o->seg[i] = e->seg;
		o->addr[i] = e->addr;
		o->count[i] = e->count;
	}
	int r = pc_profile_add_window(o->p, o->first, o->pos, o->seg, o->addr, o->count, o->n);
	if (r)
		return r;
	for (size_t i = 0; i < o->n; i++)
		o->tab[o->used[i]].count = 0;
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
