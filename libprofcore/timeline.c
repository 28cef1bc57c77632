/*
 * timeline.c - the input's order, kept in bounded memory: a plain data
 * structure (profile.c's pc_profile_add_window and pc_profile_window_*
 * are its users).
 *
 * An ordered capture (an instruction trace) gives its counts a window at
 * a time: window i holds the events [first, end) of the input's order
 * (the instruction index) and their counts per address.  At most
 * PC_TL_WINDOWS windows and about PC_TL_CELLS (address, count) pairs are
 * kept: at either bound adjacent windows are merged pairwise and the span
 * asked of the loader for the next windows doubles, so memory stays
 * bounded for any length of input while every window's counts stay
 * exact.  docs/traces.md ("Order").
 */
#include "timeline.h"

#include "lookup.h"

#include <stdlib.h>
#include <string.h>

#define PC_TL_WINDOWS 64
#define PC_TL_CELLS ((size_t)1 << 20)

typedef struct tlwin {
	uint64_t first, end;
	pc_tlcell *cells; /* sorted by (segment, address), counts > 0 */
	size_t n;
} tlwin;

struct pc_timeline {
	tlwin win[PC_TL_WINDOWS];
	size_t nwin, cells;
	uint64_t span;
	int dropped; /* several ordered inputs: no one order */
};

pc_timeline *pc_timeline_new(void)
{
	pc_timeline *t = calloc(1, sizeof *t);
	if (t)
		t->span = PC_TL_SPAN;
	return t;
}

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
	const pc_tlcell *x = a, *y = b;
	if (x->segment != y->segment)
		return x->segment < y->segment ? -1 : 1;
	return x->address < y->address ? -1 : x->address > y->address;
}

/* a and b merged into a (b's cells freed); PC_ENOMEM leaves both. */
static int merge_two(tlwin *a, tlwin *b)
{
	pc_tlcell *m = malloc((a->n + b->n) * sizeof *m);
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

void pc_timeline_drop(pc_timeline *t)
{
	for (size_t i = 0; i < t->nwin; i++)
		free(t->win[i].cells);
	t->nwin = t->cells = 0;
	t->dropped = 1;
}

uint64_t pc_timeline_span(const pc_timeline *t)
{
	return t ? t->span : PC_TL_SPAN;
}

int pc_timeline_add(pc_timeline *t, uint64_t first, uint64_t end, const uint32_t *segments,
		    const uint64_t *addresses, const uint64_t *counts, size_t n)
{
	/* a window at 0 after others: a second ordered input */
	if (t->nwin && first == 0)
		pc_timeline_drop(t);
	if (t->dropped)
		return PC_OK;
	if (t->nwin && first != t->win[t->nwin - 1].end)
		return PC_EUSAGE;
	tlwin *w = &t->win[t->nwin];
	w->first = first;
	w->end = end;
	w->n = 0;
	w->cells = n ? malloc(n * sizeof *w->cells) : NULL;
	/* the triples by (segment, address): a stable radix sort of their
	 * indexes by address, then (several segments) by segment */
	pc_rkey *rk = n && n <= SIZE_MAX / (2 * sizeof *rk) ? malloc(2 * n * sizeof *rk) : NULL;
	if (n && (!w->cells || !rk)) {
		free(w->cells);
		w->cells = NULL;
		free(rk);
		return PC_ENOMEM;
	}
	size_t m = 0;
	int segs = 0;
	for (size_t i = 0; i < n; i++)
		if (counts[i]) {
			rk[m++] = (pc_rkey){addresses[i], i};
			segs |= segments[i] != segments[rk[0].idx];
		}
	pc_rkey *o = m ? pc_radix_sort(rk, rk + n, m) : rk;
	if (segs) {
		pc_rkey *other = o == rk ? rk + n : rk;
		for (size_t j = 0; j < m; j++)
			o[j].key = segments[o[j].idx];
		o = pc_radix_sort(o, other, m);
	}
	size_t k = 0; /* one cell an address */
	for (size_t j = 0; j < m; j++) {
		size_t i = (size_t)o[j].idx;
		if (k && w->cells[k - 1].segment == segments[i] &&
		    w->cells[k - 1].address == addresses[i])
			w->cells[k - 1].count += counts[i];
		else
			w->cells[k++] = (pc_tlcell){segments[i], addresses[i], counts[i]};
	}
	free(rk);
	w->n = k;
	t->nwin++;
	t->cells += k;
	/* merged as soon as a bound is reached, so that the loader's next
	 * window has the new span and windows stay alike */
	while ((t->nwin == PC_TL_WINDOWS || t->cells > PC_TL_CELLS) && t->nwin > 1)
		if (halve(t))
			return PC_ENOMEM;
	return PC_OK;
}

uint64_t pc_timeline_end(const pc_timeline *t)
{
	return t->nwin ? t->win[t->nwin - 1].end : 0;
}

int pc_timeline_copy(pc_timeline *dst, const pc_timeline *src)
{
	if (dst->nwin || dst->dropped || src->dropped) {
		pc_timeline_drop(dst);
		return PC_OK;
	}
	for (size_t i = 0; i < src->nwin; i++) {
		tlwin *w = &dst->win[i];
		*w = src->win[i];
		w->cells = w->n ? malloc(w->n * sizeof *w->cells) : NULL;
		if (w->n && !w->cells) {
			dst->nwin = i;
			return PC_ENOMEM;
		}
		if (w->n)
			memcpy(w->cells, src->win[i].cells, w->n * sizeof *w->cells);
	}
	dst->nwin = src->nwin;
	dst->cells = src->cells;
	dst->span = src->span;
	return PC_OK;
}

size_t pc_timeline_count(const pc_timeline *t)
{
	return t && !t->dropped ? t->nwin : 0;
}

int pc_timeline_dropped(const pc_timeline *t)
{
	return t && t->dropped;
}

const pc_tlcell *pc_timeline_window(const pc_timeline *t, size_t i, uint64_t *first,
				    uint64_t *end, size_t *n)
{
	const tlwin *w = &t->win[i];
	*first = w->first;
	*end = w->end;
	*n = w->n;
	return w->cells;
}
