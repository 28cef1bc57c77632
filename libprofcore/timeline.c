/*
 * timeline.c - the input's order, kept in bounded memory.
 *
 * An ordered capture (an instruction trace) gives its counts a window at
 * a time: window i holds the events [first, end) of the input's order
 * (the instruction index) and their counts per address, which are also
 * the profile's samples.  At most PC_TL_WINDOWS windows and about
 * PC_TL_CELLS (address, count) pairs are kept: past either, adjacent
 * windows are merged pairwise and the span asked of the loader for the
 * next windows doubles, so memory stays bounded for any length of input
 * while every window's counts stay exact.  docs/traces.md ("Order").
 */
#include "internal.h"
#include "model.h"
#include "timeline.h"

#include <stdlib.h>
#include <string.h>

#define PC_TL_WINDOWS 64
#define PC_TL_CELLS ((size_t)1 << 20)
#define PC_TL_SPAN 4096 /* events a window spans at first */

typedef struct tlwin {
	uint64_t first, end;
	pc_sample *cells; /* sorted by (segment, address), counts > 0 */
	size_t n;
} tlwin;

struct pc_timeline {
	tlwin win[PC_TL_WINDOWS];
	size_t nwin, cells;
	uint64_t span;
	int dropped; /* several ordered inputs: no one order */
};

void pc_timeline_free(pc_timeline *t)
{
	if (!t)
		return;
	for (size_t i = 0; i < t->nwin; i++)
		free(t->win[i].cells);
	free(t);
}

static int cmp_cell(const void *a, const void *b)
{
	const pc_sample *x = a, *y = b;
	if (x->segment != y->segment)
		return x->segment < y->segment ? -1 : 1;
	return x->address < y->address ? -1 : x->address > y->address;
}

/* a and b merged into a (b's cells freed); PC_ENOMEM leaves both. */
static int merge_two(tlwin *a, tlwin *b)
{
	pc_sample *m = malloc((a->n + b->n) * sizeof *m);
	if (!m && a->n + b->n)
		return PC_ENOMEM;
	size_t i = 0, j = 0, k = 0;
	while (i < a->n || j < b->n) {
		int c = i == a->n ? 1 : j == b->n ? -1 : cmp_cell(&a->cells[i], &b->cells[j]);
		if (c < 0)
			m[k++] = a->cells[i++];
		else if (c > 0)
			m[k++] = b->cells[j++];
		else {
			m[k] = a->cells[i++];
			m[k++].count += b->cells[j++].count;
		}
	}
	free(a->cells);
	free(b->cells);
	a->cells = m;
	a->n = k;
	a->end = b->end;
	b->cells = NULL;
	b->n = 0;
	return PC_OK;
}

/* Adjacent windows merged pairwise (the last one alone when odd). */
static int halve(pc_timeline *t)
{
	size_t k = 0, cells = 0;
	for (size_t i = 0; i < t->nwin; i += 2) {
		if (i + 1 < t->nwin && merge_two(&t->win[i], &t->win[i + 1]))
			return PC_ENOMEM;
		t->win[k] = t->win[i];
		if (k != i)
			t->win[i] = (tlwin){0, 0, NULL, 0}; /* a failure leaves no copy */
		cells += t->win[k++].n;
	}
	t->nwin = k;
	t->cells = cells;
	if (t->span <= UINT64_MAX / 2)
		t->span *= 2;
	return PC_OK;
}

/* The timeline of p, made on first use; NULL (and p failed) when out of
 * memory. */
static pc_timeline *timeline_of(pc_profile *p)
{
	if (!p->timeline && (p->timeline = calloc(1, sizeof *p->timeline)))
		p->timeline->span = PC_TL_SPAN;
	if (!p->timeline)
		pc_profile_fail(p, PC_ENOMEM, "out of memory");
	return p->timeline;
}

static void drop(pc_timeline *t)
{
	for (size_t i = 0; i < t->nwin; i++)
		free(t->win[i].cells);
	t->nwin = t->cells = 0;
	t->dropped = 1;
}

int pc_profile_window_span(uint64_t *span, const pc_profile *p)
{
	if (!span || !p)
		return PC_EUSAGE;
	*span = p->timeline ? p->timeline->span : PC_TL_SPAN;
	return PC_OK;
}

int pc_profile_add_window(pc_profile *p, uint64_t first, uint64_t end,
			  const uint32_t *segments, const uint64_t *addresses,
			  const uint64_t *counts, size_t n)
{
	if (!p)
		return PC_EUSAGE;
	if (end <= first || (n && (!segments || !addresses || !counts)))
		return pc_profile_fail(p, PC_EUSAGE,
				       "pc_profile_add_window: needs first < end and n segments, addresses and counts");
	pc_timeline *t = timeline_of(p);
	if (!t)
		return PC_ENOMEM;
	/* a window at 0 after others: a second ordered input */
	if (t->nwin && first == 0)
		drop(t);
	if (!t->dropped && t->nwin && first != t->win[t->nwin - 1].end)
		return pc_profile_fail(p, PC_EUSAGE,
				       "pc_profile_add_window: window [%llu, %llu) does not follow the last one, which ends at %llu",
				       (unsigned long long)first, (unsigned long long)end,
				       (unsigned long long)t->win[t->nwin - 1].end);
	for (size_t i = 0; i < n; i++) {
		int r = counts[i] ? pc_profile_add_sample(p, segments[i], addresses[i], counts[i])
				  : PC_OK;
		if (r)
			return r;
	}
	if (t->dropped)
		return PC_OK;
	tlwin *w = &t->win[t->nwin];
	w->first = first;
	w->end = end;
	w->n = 0;
	w->cells = n ? malloc(n * sizeof *w->cells) : NULL;
	if (n && !w->cells)
		return pc_profile_fail(p, PC_ENOMEM, "out of memory");
	for (size_t i = 0; i < n; i++)
		if (counts[i])
			w->cells[w->n++] = (pc_sample){segments[i], addresses[i], counts[i]};
	qsort(w->cells, w->n, sizeof *w->cells, cmp_cell);
	size_t k = 0; /* one cell an address */
	for (size_t i = 0; i < w->n; i++) {
		if (k && !cmp_cell(&w->cells[k - 1], &w->cells[i]))
			w->cells[k - 1].count += w->cells[i].count;
		else
			w->cells[k++] = w->cells[i];
	}
	w->n = k;
	t->nwin++;
	t->cells += k;
	/* merged as soon as the bound is reached, so that the loader's
	 * next window has the new span and windows stay alike */
	while ((t->nwin == PC_TL_WINDOWS || t->cells > PC_TL_CELLS) && t->nwin > 1)
		if (halve(t))
			return pc_profile_fail(p, PC_ENOMEM, "out of memory");
	return PC_OK;
}

int pc_profile_window_count(size_t *n, const pc_profile *p)
{
	if (!n || !p)
		return PC_EUSAGE;
	*n = p->timeline && !p->timeline->dropped ? p->timeline->nwin : 0;
	return PC_OK;
}

int pc_profile_window_at(uint64_t *first, uint64_t *end, size_t *naddr,
			 const pc_profile *p, size_t i)
{
	size_t nw;
	if (!first || !end || !naddr || pc_profile_window_count(&nw, p))
		return PC_EUSAGE;
	if (i >= nw)
		return PC_ENOTFOUND;
	const tlwin *w = &p->timeline->win[i];
	*first = w->first;
	*end = w->end;
	*naddr = w->n;
	return PC_OK;
}

int pc_profile_window_address(uint32_t *segment, uint64_t *address, uint64_t *count,
			      const pc_profile *p, size_t i, size_t j)
{
	size_t nw;
	if (!segment || !address || !count || pc_profile_window_count(&nw, p))
		return PC_EUSAGE;
	if (i >= nw || j >= p->timeline->win[i].n)
		return PC_ENOTFOUND;
	const pc_sample *c = &p->timeline->win[i].cells[j];
	*segment = c->segment;
	*address = c->address;
	*count = c->count;
	return PC_OK;
}

int pc_timeline_merge(pc_profile *dst, const pc_profile *src)
{
	const pc_timeline *st = src->timeline;
	if (!st)
		return PC_OK;
	pc_timeline *t = timeline_of(dst);
	if (!t)
		return PC_ENOMEM;
	if (t->nwin || t->dropped || st->dropped) {
		drop(t);
		return PC_OK;
	}
	/* dst has no order of its own (a profile made from src's, as
	 * pc_profile_granular's): src's is copied */
	for (size_t i = 0; i < st->nwin; i++) {
		tlwin *w = &t->win[i];
		*w = st->win[i];
		w->cells = w->n ? malloc(w->n * sizeof *w->cells) : NULL;
		if (w->n && !w->cells) {
			t->nwin = i;
			return pc_profile_fail(dst, PC_ENOMEM, "out of memory");
		}
		if (w->n)
			memcpy(w->cells, st->win[i].cells, w->n * sizeof *w->cells);
	}
	t->nwin = st->nwin;
	t->cells = st->cells;
	t->span = st->span;
	return PC_OK;
}

int pc_timeline_dropped(const pc_profile *p)
{
	return p->timeline && p->timeline->dropped;
}
