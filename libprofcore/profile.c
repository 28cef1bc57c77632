/* profile.c - the profile: what was loaded for one analysis. */
#include "model.h"
#include "internal.h"
#include "timeline.h"
#include "platform.h"

#include <float.h>
#include <stdlib.h>
#include <string.h>

static pc_profile *profile_new(const pc_registry *reg)
{
	pc_profile *p = calloc(1, sizeof *p);
	if (!p)
		return NULL;
	p->reg = reg;
	pc_diag_init(&p->diag);
	p->duration = -1;
	p->samples = pc_samples_new();
	if (p->samples) {
		/* the store's cells are bounded by the symbols and regions */
		pc_samplebounds b = {&p->syms, &p->nsyms, &p->regions, &p->nregions};
		pc_samples_set_bounds(p->samples, &b, &p->diag);
	}
	p->dimension = pc_strpool_add(&p->pool, "seconds");
	p->abbrev = 's';
	p->demangle = pc_demangler_available(); /* "demangle" = "auto" */
	if (!p->samples || !p->dimension) {
		pc_profile_free(p);
		return NULL;
	}
	return p;
}

int pc_profile_new(pc_profile **out, const pc_registry *reg)
{
	if (!out)
		return pc_last_error_set(PC_EUSAGE, NULL,
					 "pc_profile_new: no place for the profile");
	*out = profile_new(reg);
	if (!*out)
		return pc_last_error_set(PC_ENOMEM, NULL,
					 "out of memory for a new profile");
	return PC_OK;
}

void pc_profile_free(pc_profile *p)
{
	if (!p)
		return;
	pc_attrib_free(p);
	free(p->attr_specs);
	free(p->cache_specs);
	for (size_t i = 0; i < p->nhists; i++)
		if (!p->hists[i].borrowed)
			free(p->hists[i].counts);
	free(p->hists);
	free(p->hspan.l);
	free(p->hspan.r);
	free(p->hzero.l);
	free(p->hzero.r);
	free(p->syms);
	free(p->display);
	free(p->nmap);
	free(p->regions);
	free(p->arcs);
	free(p->calls);
	free(p->lines);
	free(p->src_format);
	free(p->src_file);
	free(p->meta_key);
	free(p->meta_val);
	free(p->ctx_name);
	free(p->ctx_count);
	pc_samples_free(p->samples);
	pc_timeline_free(p->timeline);
	pc_dwarf_free(p->own_dwarf);
	pc_diag_dispose(&p->diag);
	pc_strpool_free(&p->pool);
	free(p);
}

void pc_profile_invalidate(pc_profile *p)
{
	p->valid = 0;
}

int pc_profile_check_options(pc_profile *p, const pc_options *o,
			     const pc_option_decl *keys, const char *consumer)
{
	char msg[1024];
	int st = pc_options_check(o, keys, consumer, msg, sizeof msg);
	return st ? pc_profile_fail(p, st, "%s", msg) : PC_OK;
}

int pc_profile_samples_per_address(const pc_profile *p)
{
	return !pc_samples_binned(p->samples);
}

const pc_error *pc_profile_error(const pc_profile *p)
{
	return pc_diag_error(&p->diag);
}

int pc_profile_fail(pc_profile *p, int code, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	pc_diag_vfail_at(&p->diag, code, NULL, -1, fmt, ap);
	va_end(ap);
	return code;
}

int pc_profile_fail_at(pc_profile *p, int code, const char *file, int64_t off,
		       const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	pc_diag_vfail_at(&p->diag, code, file, off, fmt, ap);
	va_end(ap);
	return code;
}

int pc_profile_warn(pc_profile *p, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int st = pc_diag_vwarn(&p->diag, fmt, ap);
	va_end(ap);
	return st;
}

size_t pc_profile_warning_count(const pc_profile *p)
{
	return pc_diag_warning_count(&p->diag);
}

const char *pc_profile_warning_at(const pc_profile *p, size_t i)
{
	return pc_diag_warning_at(&p->diag, i);
}

int pc_profile_note(pc_profile *p, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int st = pc_diag_vnote(&p->diag, fmt, ap);
	va_end(ap);
	return st;
}

size_t pc_profile_note_count(const pc_profile *p)
{
	return pc_diag_note_count(&p->diag);
}

const char *pc_profile_note_at(const pc_profile *p, size_t i)
{
	return pc_diag_note_at(&p->diag, i);
}

#define POOL(s) ((s) ? pc_strpool_add(&p->pool, (s)) : NULL)

int pc_profile_reserve_symbols(pc_profile *p, size_t n)
{
	if (n <= p->capsyms - p->nsyms)
		return PC_OK;
	if (n > SIZE_MAX / sizeof *p->syms - p->nsyms)
		return PC_ENOMEM;
	pc_symbol *v = realloc(p->syms, (p->nsyms + n) * sizeof *v);
	if (!v)
		return PC_ENOMEM;
	p->syms = v;
	p->capsyms = p->nsyms + n;
	/* (the room is written next, all of it: mapped in one call) */
	pc_plat_advise_bulk(p->syms + p->nsyms, n * sizeof *v);
	return PC_OK;
}

/* pc_profile_add_symbol; kept: sym->name is p's own already, not copied */
static int add_symbol(pc_profile *p, const pc_symbol *sym, int kept)
{
	if (!sym || !sym->name)
		return pc_profile_fail(p, PC_EUSAGE, "symbol without a name");
	/* (pc_grow only when full: one call a symbol was 14 instructions) */
	if (p->nsyms >= p->capsyms &&
	    pc_grow((void **)&p->syms, &p->capsyms, p->nsyms + 1, sizeof *p->syms))
		return pc_profile_fail(p, PC_ENOMEM, "out of memory");
	/* (written in place: no copy of the symbol made and moved) */
	pc_symbol *s = &p->syms[p->nsyms];
	*s = *sym;
	if (!kept)
		s->name = POOL(sym->name);
	if (sym->file)
		s->file = p->last_file && !strcmp(sym->file, p->last_file)
				  ? p->last_file
				  : POOL(sym->file);
	if (sym->section)
		s->section = p->last_section && !strcmp(sym->section, p->last_section)
				     ? p->last_section
				     : POOL(sym->section);
	if (!s->name || (sym->file && !s->file) || (sym->section && !s->section))
		return pc_profile_fail(p, PC_ENOMEM, "out of memory");
	if (s->file)
		p->last_file = s->file;
	if (s->section)
		p->last_section = s->section;
	p->nsyms++;
	pc_profile_invalidate(p);
	return PC_OK;
}

int pc_profile_add_symbol(pc_profile *p, const pc_symbol *sym)
{
	return add_symbol(p, sym, 0);
}

int pc_profile_add_symbol_kept(pc_profile *p, const pc_symbol *sym)
{
	return add_symbol(p, sym, 1);
}

int pc_profile_add_region(pc_profile *p, const pc_region *r)
{
	if (!r || r->high < r->low || r->cls >= PC_REGION_COUNT)
		return pc_profile_fail(p, PC_EUSAGE, "invalid region");
	if (pc_grow((void **)&p->regions, &p->capregions, p->nregions + 1,
		    sizeof *p->regions))
		return pc_profile_fail(p, PC_ENOMEM, "out of memory");
	pc_region c = *r;
	c.label = POOL(r->label);
	p->regions[p->nregions++] = c;
	pc_profile_invalidate(p);
	return PC_OK;
}

/* ---- histograms, indexed by range ---------------------------------------- */

#define HNONE SIZE_MAX

static uint64_t hpri(size_t i)
{
	uint64_t z = (uint64_t)i + 0x9e3779b97f4a7c15u;
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
	return z ^ (z >> 31);
}

static int cmp_u64(uint64_t a, uint64_t b)
{
	return a < b ? -1 : a > b;
}

/* span order: (segment, low); zero order: (segment, low, nbins, unit) */
static int hcmp(const pc_histogram *a, const pc_histogram *b, int zero)
{
	int c = cmp_u64(a->segment, b->segment);
	if (!c)
		c = cmp_u64(a->low, b->low);
	if (!c && zero)
		c = cmp_u64(a->nbins, b->nbins);
	if (!c && zero)
		c = cmp_u64(a->unit, b->unit);
	return c;
}

static size_t htree_insert(pc_profile *p, pc_htree *t, size_t at, size_t i, int zero)
{
	if (at == HNONE) {
		t->l[i] = t->r[i] = HNONE;
		return i;
	}
	if (hcmp(&p->hists[i].h, &p->hists[at].h, zero) < 0) {
		t->l[at] = htree_insert(p, t, t->l[at], i, zero);
		size_t x = t->l[at];
		if (hpri(x) > hpri(at)) {
			t->l[at] = t->r[x];
			t->r[x] = at;
			return x;
		}
	} else {
		t->r[at] = htree_insert(p, t, t->r[at], i, zero);
		size_t x = t->r[at];
		if (hpri(x) > hpri(at)) {
			t->r[at] = t->l[x];
			t->l[x] = at;
			return x;
		}
	}
	return at;
}

/* Entries for histogram index n (one more than now). */
static int htree_reserve(pc_profile *p, size_t n)
{
	if (n <= p->hcap)
		return PC_OK;
	size_t cap = p->hcap ? p->hcap : 16;
	while (cap < n)
		cap *= 2;
	pc_htree *t[2] = {&p->hspan, &p->hzero};
	for (int k = 0; k < 2; k++) {
		size_t *l = realloc(t[k]->l, cap * sizeof *l);
		if (l)
			t[k]->l = l;
		size_t *r = realloc(t[k]->r, cap * sizeof *r);
		if (r)
			t[k]->r = r;
		if (!l || !r)
			return PC_ENOMEM;
	}
	p->hcap = cap;
	return PC_OK;
}

static void htree_add(pc_profile *p, size_t i)
{
	int zero = p->hists[i].h.low == p->hists[i].h.high;
	pc_htree *t = zero ? &p->hzero : &p->hspan;
	t->root = htree_insert(p, t, t->root, i, zero);
}

int pc_profile_hist_reindex(pc_profile *p)
{
	if (htree_reserve(p, p->nhists))
		return PC_ENOMEM;
	p->hspan.root = p->hzero.root = HNONE;
	for (size_t i = 0; i < p->nhists; i++)
		htree_add(p, i);
	return PC_OK;
}

/* The histogram h merges into (identical range, bins and unit), or
 * HNONE; *clash is one it overlaps without being identical, or HNONE. */
static size_t hfind(const pc_profile *p, const pc_histogram *h, size_t *clash)
{
	*clash = HNONE;
	if (h->low == h->high) { /* never overlaps: only an identical one */
		for (size_t at = p->nhists ? p->hzero.root : HNONE; at != HNONE;) {
			int c = hcmp(h, &p->hists[at].h, 1);
			if (!c)
				return at;
			at = c < 0 ? p->hzero.l[at] : p->hzero.r[at];
		}
		return HNONE;
	}
	/* the last histogram starting at or before h, the first after it */
	size_t pred = HNONE, succ = HNONE;
	for (size_t at = p->nhists ? p->hspan.root : HNONE; at != HNONE;) {
		if (hcmp(&p->hists[at].h, h, 0) <= 0) {
			pred = at;
			at = p->hspan.r[at];
		} else {
			succ = at;
			at = p->hspan.l[at];
		}
	}
	if (pred != HNONE) {
		const pc_histogram *o = &p->hists[pred].h;
		if (o->segment == h->segment && o->high > h->low) {
			if (o->low == h->low && o->high == h->high && o->nbins == h->nbins &&
			    o->unit == h->unit)
				return pred;
			*clash = pred;
			return HNONE;
		}
	}
	if (succ != HNONE) {
		const pc_histogram *o = &p->hists[succ].h;
		if (o->segment == h->segment && o->low < h->high)
			*clash = succ;
	}
	return HNONE;
}

/* pc_profile_add_histogram, or with own != NULL (h->counts, from malloc)
 * the counts themselves kept as the histogram's store, not a copy: *own
 * is cleared once they are (the caller frees them otherwise); any: their
 * OR when known.  borrow: h->counts are another profile's, kept as
 * they are (any given). */
static int add_histogram(pc_profile *p, const pc_histogram *h, uint64_t **own,
			 const uint64_t *any, int borrow)
{
	if (!h || h->high < h->low || h->nbins == 0 || !h->counts)
		return pc_profile_fail(p, PC_EUSAGE,
				       "histogram needs low <= high and at least one bin");
	pc_histogram key = *h;
	key.unit = h->unit ? h->unit : 1;
	size_t clash, same = hfind(p, &key, &clash);
	if (same != HNONE) {
		pc_hist *o = &p->hists[same];
		if (o->borrowed) { /* (the sums below: counts of p's own) */
			uint64_t *c = malloc(o->h.nbins * sizeof *c);
			if (!c)
				return pc_profile_fail(p, PC_ENOMEM, "out of memory");
			memcpy(c, o->counts, o->h.nbins * sizeof *c);
			o->counts = c;
			o->h.counts = c;
			o->borrowed = 0;
		}
		for (size_t b = 0; b < h->nbins; b++)
			if (o->counts[b] + h->counts[b] < o->counts[b])
				return pc_profile_fail(p, PC_ELIMIT, "histogram count overflow");
		uint64_t ors = 0;
		for (size_t b = 0; b < h->nbins; b++)
			ors |= o->counts[b] += h->counts[b];
		o->any = ors;
		pc_profile_invalidate(p);
		return PC_OK;
	}
	if (clash != HNONE) {
		const pc_hist *o = &p->hists[clash];
		return pc_profile_fail(p, PC_EFORMAT,
				       "histogram [0x%llx, 0x%llx) overlaps [0x%llx, 0x%llx) without being identical",
				       (unsigned long long)h->low, (unsigned long long)h->high,
				       (unsigned long long)o->h.low, (unsigned long long)o->h.high);
	}
	if (h->nbins > SIZE_MAX / sizeof(uint64_t))
		return pc_profile_fail(p, PC_ELIMIT, "histogram too large");
	if (pc_grow((void **)&p->hists, &p->caphists, p->nhists + 1, sizeof *p->hists) ||
	    htree_reserve(p, p->nhists + 1))
		return pc_profile_fail(p, PC_ENOMEM, "out of memory");
	uint64_t *c = own ? *own : borrow ? (uint64_t *)(uintptr_t)h->counts
					  : malloc(h->nbins * sizeof *c);
	if (!c)
		return pc_profile_fail(p, PC_ENOMEM, "out of memory");
	uint64_t ors = 0;
	if (borrow) {
		ors = *any;
	} else if (own) {
		*own = NULL;
		ors = any ? *any : pc_counts_or(c, h->nbins);
	} else { /* (copied and ORed in one pass) */
		for (size_t b = 0; b < h->nbins; b++)
			ors |= c[b] = h->counts[b];
	}
	pc_hist *n = &p->hists[p->nhists++];
	n->h = key;
	n->counts = c;
	n->h.counts = c;
	n->any = ors;
	n->borrowed = borrow;
	if (p->nhists == 1)
		p->hspan.root = p->hzero.root = HNONE;
	htree_add(p, p->nhists - 1);
	pc_profile_invalidate(p);
	return PC_OK;
}

int pc_profile_add_histogram(pc_profile *p, const pc_histogram *h)
{
	return add_histogram(p, h, NULL, NULL, 0);
}

int pc_profile_borrow_histogram(pc_profile *p, const pc_hist *h)
{
	return add_histogram(p, &h->h, NULL, &h->any, 1);
}

int pc_profile_adopt_histogram(pc_profile *p, const pc_histogram *h,
			       uint64_t *counts, const uint64_t *any)
{
	int r = h && h->counts == counts ? add_histogram(p, h, &counts, any, 0)
					  : pc_profile_fail(p, PC_EUSAGE,
							    "adopted counts are not the histogram's");
	free(counts);
	return r;
}

int pc_profile_add_sample(pc_profile *p, uint32_t segment, uint64_t address,
			  uint64_t count)
{
	int r = pc_samples_add(p->samples, segment, address, count);
	if (r)
		return pc_profile_fail(p, r, "cannot store sample");
	pc_profile_invalidate(p);
	return PC_OK;
}

/* The error of samples that could not be stored: out of memory says how
 * many distinct addresses were kept (without symbols a raw dump keeps
 * every one, docs/development.md). */
static int store_fail(pc_profile *p, int r)
{
	if (r == PC_ENOMEM && !pc_samples_binned(p->samples))
		return pc_profile_fail(p, r,
				       "out of memory keeping the samples of %zu distinct addresses (without symbols every distinct address is kept: load the symbols first to count by symbol)",
				       pc_samples_distinct(p->samples));
	return pc_profile_fail(p, r, "cannot store samples");
}

int pc_profile_add_samples(pc_profile *p, uint32_t segment,
			   const uint64_t *addresses, size_t n)
{
	int r = pc_samples_add_many(p->samples, segment, addresses, n);
	if (r)
		return store_fail(p, r);
	pc_profile_invalidate(p);
	return PC_OK;
}

static int layout_ok(const pc_record_layout *l)
{
	return l && l->width >= 1 && l->width <= 8 &&
	       (l->endian == PC_ENDIAN_LITTLE || l->endian == PC_ENDIAN_BIG) &&
	       l->real <= PC_REAL_CSIP && (!l->real || l->width == 4) &&
	       l->offset <= l->stride && l->stride - l->offset >= l->width;
}

int pc_profile_add_records(pc_profile *p, uint32_t segment,
			   const void *records, size_t n,
			   const pc_record_layout *l)
{
	if (!layout_ok(l) || (n && !records))
		return pc_profile_fail(p, PC_EUSAGE, "invalid record layout");
	if (n > SIZE_MAX / l->stride)
		return pc_profile_fail(p, PC_EUSAGE, "too many records");
	int r = pc_samples_add_records(p->samples, segment, records, n, l);
	if (r)
		return store_fail(p, r);
	pc_profile_invalidate(p);
	return PC_OK;
}

/* Bytes of records borrowed from the stream at a time (and resident when
 * the file is mapped): the unit of work split across threads; smaller
 * while samples are still counted per address (one by one, the first
 * 131,072 distinct addresses), so that the rest of a mapped file goes to
 * the threads early. */
#define RECORD_WINDOW_BYTES ((size_t)4 << 20)
#define EXACT_WINDOW_BYTES ((size_t)1 << 20)
/* Fewer whole records than this left in a mapped file are borrowed. */
#define MAPPED_MIN_RECORDS ((uint64_t)1 << 16)

int pc_profile_add_records_stream(uint64_t *records, size_t *left,
				  pc_profile *p, uint32_t segment, pc_stream *s,
				  const pc_record_layout *l)
{
	*records = 0;
	*left = 0;
	if (!layout_ok(l))
		return pc_profile_fail(p, PC_EUSAGE, "invalid record layout");
	const size_t stride = l->stride;
	/* Whole windows of records are borrowed from the stream (mapped, not
	 * copied, when it is a large regular file) and counted in one pass; a
	 * record split between two borrowed pieces is put together in rec.
	 * Once the samples are binned, the rest of a mapped file goes to the
	 * counting threads, each mapping its own part. */
	size_t window = RECORD_WINDOW_BYTES / stride * stride;
	size_t exact_window = EXACT_WINDOW_BYTES / stride * stride;
	if (window == 0)
		window = stride;
	if (exact_window == 0)
		exact_window = stride;
	unsigned char *rec = malloc(stride);
	if (!rec)
		return pc_profile_fail(p, PC_ENOMEM, "out of memory");
	size_t have = 0; /* bytes of a split record in rec */
	int rc = PC_OK;
	for (;;) {
		uint64_t at, bytes;
		if (!have && pc_samples_binned(p->samples) &&
		    pc_stream_mappable(s, &at, &bytes) &&
		    bytes / stride >= MAPPED_MIN_RECORDS) {
			uint64_t n = bytes / stride, fail_at = 0;
			uint64_t start = pc_stream_offset(s);
			rc = pc_samples_add_mapped(p->samples, segment, s, at, n, l,
						   &fail_at);
			if (rc == PC_OK) {
				pc_profile_invalidate(p);
				*records += n;
				rc = pc_stream_seek_past(s, n * stride);
				if (rc)
					goto out;
				continue; /* what is left is less than a record */
			}
			if (rc == PC_EIO) {
				rc = pc_stream_fail(s, PC_EIO, (int64_t)(start + (fail_at - at)),
						    "cannot map the file to read it");
				goto out;
			}
			if (rc < 0) {
				rc = store_fail(p, rc);
				goto out;
			}
			rc = PC_OK; /* counted one by one here: borrow */
		}
		const unsigned char *d;
		size_t want = pc_samples_binned(p->samples) ? window : exact_window;
		int64_t r = pc_stream_borrow_part(s, want - have, &d);
		if (r < 0) {
			rc = (int)r;
			goto out;
		}
		if (r == 0)
			break;
		size_t k = (size_t)r;
		if (have) {
			size_t take = stride - have < k ? stride - have : k;
			memcpy(rec + have, d, take);
			have += take;
			d += take;
			k -= take;
			if (have < stride)
				continue;
			rc = pc_profile_add_records(p, segment, rec, 1, l);
			if (rc)
				goto out;
			++*records;
			have = 0;
		}
		size_t n = k / stride;
		if (n) {
			rc = pc_profile_add_records(p, segment, d, n, l);
			if (rc)
				goto out;
			*records += n;
		}
		have = k - n * stride;
		memcpy(rec, d + n * stride, have);
	}
	*left = have;
out:
	free(rec);
	return rc;
}

int pc_profile_add_class_samples(pc_profile *p, pc_region_class cls,
				 uint64_t count)
{
	if (cls >= PC_REGION_COUNT)
		return pc_profile_fail(p, PC_EUSAGE, "invalid region class");
	if (p->class_samples[cls] + count < count)
		return pc_profile_fail(p, PC_ELIMIT, "sample count overflow");
	p->class_samples[cls] += count;
	pc_profile_invalidate(p);
	return PC_OK;
}

int pc_profile_add_context_samples(pc_profile *p, const char *context,
				   uint64_t count)
{
	if (!context || !*context)
		return pc_profile_fail(p, PC_EUSAGE, "context without a name");
	for (size_t i = 0; i < p->nctx; i++)
		if (!strcmp(p->ctx_name[i], context)) {
			if (p->ctx_count[i] + count < count)
				return pc_profile_fail(p, PC_ELIMIT, "sample count overflow");
			p->ctx_count[i] += count;
			return PC_OK;
		}
	if (pc_grow((void **)&p->ctx_name, &p->capctx, p->nctx + 1, sizeof *p->ctx_name) ||
	    pc_grow((void **)&p->ctx_count, &p->capctx2, p->nctx + 1, sizeof *p->ctx_count))
		return pc_profile_fail(p, PC_ENOMEM, "out of memory");
	const char *n = pc_strpool_add(&p->pool, context);
	if (!n)
		return pc_profile_fail(p, PC_ENOMEM, "out of memory");
	p->ctx_name[p->nctx] = n;
	p->ctx_count[p->nctx++] = count;
	return PC_OK;
}

size_t pc_profile_context_count(const pc_profile *p) { return p->nctx; }

int pc_profile_context_at(const char **context, uint64_t *count,
			  const pc_profile *p, size_t i)
{
	if (i >= p->nctx)
		return PC_ENOTFOUND;
	if (context)
		*context = p->ctx_name[i];
	if (count)
		*count = p->ctx_count[i];
	return PC_OK;
}

int pc_profile_add_lost(pc_profile *p, int64_t offset, uint64_t after)
{
	if (offset < -1)
		return pc_profile_fail(p, PC_EUSAGE, "loss offset %lld: expected >= 0, or -1 for unknown",
				       (long long)offset);
	if (p->nlost < PC_LOST_KEEP) {
		p->lost_off[p->nlost] = offset;
		p->lost_after[p->nlost] = after;
	}
	p->nlost++;
	return PC_OK;
}

uint64_t pc_profile_lost_count(const pc_profile *p) { return p->nlost; }

int pc_profile_lost_at(int64_t *offset, uint64_t *after, const pc_profile *p,
		       size_t i)
{
	if (i >= PC_LOST_KEEP || i >= p->nlost)
		return PC_ENOTFOUND;
	if (offset)
		*offset = p->lost_off[i];
	if (after)
		*after = p->lost_after[i];
	return PC_OK;
}

int pc_profile_add_arc(pc_profile *p, const pc_arc *a)
{
	if (pc_grow((void **)&p->arcs, &p->caparcs, p->narcs + 1, sizeof *p->arcs))
		return pc_profile_fail(p, PC_ENOMEM, "out of memory");
	p->arcs[p->narcs++] = *a;
	pc_profile_invalidate(p);
	return PC_OK;
}

int pc_profile_add_calls(pc_profile *p, uint32_t segment, uint64_t address,
			 uint64_t count)
{
	if (pc_grow((void **)&p->calls, &p->capcalls, p->ncalls + 1, sizeof *p->calls))
		return pc_profile_fail(p, PC_ENOMEM, "out of memory");
	p->calls[p->ncalls++] = (pc_sample){segment, address, count};
	pc_profile_invalidate(p);
	return PC_OK;
}

int pc_profile_add_line(pc_profile *p, uint32_t segment, uint64_t address,
			const char *file, unsigned line)
{
	if (!file || !*file || !line)
		return pc_profile_fail(p, PC_EUSAGE, "a source line needs a file and a line number");
	const char *f = POOL(file);
	if (!f || pc_grow((void **)&p->lines, &p->caplines, p->nlines + 1, sizeof *p->lines))
		return pc_profile_fail(p, PC_ENOMEM, "out of memory");
	p->lines[p->nlines++] = (pc_lineinfo){segment, address, f, line};
	return PC_OK;
}

/* ---- metadata ---------------------------------------------------------- */

int pc_profile_set_rate(pc_profile *p, double hz)
{
	if (!p)
		return PC_EUSAGE;
	if (!(hz >= 0) || hz > DBL_MAX)
		return pc_profile_fail(p, PC_EUSAGE,
				       "sampling rate %g Hz: expected a finite rate >= 0 (0 = unknown)",
				       hz);
	p->rate = hz;
	return PC_OK;
}

double pc_profile_rate(const pc_profile *p) { return p->rate; }

int pc_profile_set_duration(pc_profile *p, double s)
{
	if (!p)
		return PC_EUSAGE;
	if (!((s >= 0 && s <= DBL_MAX) || s == -1))
		return pc_profile_fail(p, PC_EUSAGE,
				       "duration %g s: expected a finite duration >= 0, or -1 for unknown",
				       s);
	p->duration = s;
	return PC_OK;
}

double pc_profile_duration(const pc_profile *p) { return p->duration; }

int pc_profile_set_dimension(pc_profile *p, const char *name, char abbrev)
{
	const char *d = POOL(name);
	if (!d)
		return PC_ENOMEM;
	p->dimension = d;
	p->abbrev = abbrev;
	return PC_OK;
}

const char *pc_profile_dimension(const pc_profile *p) { return p->dimension; }
char pc_profile_dimension_abbrev(const pc_profile *p) { return p->abbrev; }

int pc_profile_set_program(pc_profile *p, const char *name)
{
	const char *d = POOL(name);
	if (!d)
		return PC_ENOMEM;
	p->program = d;
	return PC_OK;
}

const char *pc_profile_program(const pc_profile *p) { return p->program; }

int pc_profile_set_target(pc_profile *p, unsigned width, pc_endian e)
{
	if (!p)
		return PC_EUSAGE;
	if (width != 0 && width != 1 && width != 2 && width != 4 && width != 8)
		return pc_profile_fail(p, PC_EUSAGE,
				       "address width %u: expected 0 (unknown), 1, 2, 4 or 8 bytes",
				       width);
	if (e != PC_ENDIAN_UNKNOWN && e != PC_ENDIAN_LITTLE && e != PC_ENDIAN_BIG)
		return pc_profile_fail(p, PC_EUSAGE,
				       "byte order %d: expected PC_ENDIAN_UNKNOWN, _LITTLE or _BIG",
				       (int)e);
	p->width = width;
	p->endian = e;
	return PC_OK;
}

int pc_profile_set_threads(pc_profile *p, unsigned n)
{
	if (!p)
		return PC_EUSAGE;
	if (n > PC_MAX_THREADS)
		return pc_profile_fail(p, PC_EUSAGE,
				       "%u threads: expected 0 (one per core) to %d",
				       n, PC_MAX_THREADS);
	pc_samples_set_threads(p->samples, n);
	return PC_OK;
}

unsigned pc_profile_threads(const pc_profile *p)
{
	return pc_samples_threads(p->samples);
}

unsigned pc_profile_target_width(const pc_profile *p) { return p->width; }
pc_endian pc_profile_target_endian(const pc_profile *p) { return p->endian; }

int pc_profile_add_source(pc_profile *p, const char *format, const char *file)
{
	const char *f = POOL(format), *n = POOL(file);
	if (!f || !n ||
	    pc_grow((void **)&p->src_format, &p->capsrc, p->nsrc + 1, sizeof(char *)) ||
	    pc_grow((void **)&p->src_file, &p->capsrc2, p->nsrc + 1, sizeof(char *)))
		return PC_ENOMEM;
	p->src_format[p->nsrc] = f;
	p->src_file[p->nsrc] = n;
	p->nsrc++;
	return PC_OK;
}

int pc_profile_set_meta(pc_profile *p, const char *key, const char *value)
{
	if (!key || !*key || !value)
		return pc_profile_fail(p, PC_EUSAGE, "metadata needs a key and a value");
	const char *v = POOL(value);
	if (!v)
		return pc_profile_fail(p, PC_ENOMEM, "out of memory");
	for (size_t i = 0; i < p->nmeta; i++)
		if (strcmp(p->meta_key[i], key) == 0) {
			p->meta_val[i] = v;
			return PC_OK;
		}
	const char *k = POOL(key);
	if (!k ||
	    pc_grow((void **)&p->meta_key, &p->capmeta, p->nmeta + 1, sizeof(char *)) ||
	    pc_grow((void **)&p->meta_val, &p->capmeta2, p->nmeta + 1, sizeof(char *)))
		return pc_profile_fail(p, PC_ENOMEM, "out of memory");
	p->meta_key[p->nmeta] = k;
	p->meta_val[p->nmeta] = v;
	p->nmeta++;
	return PC_OK;
}

const char *pc_profile_meta(const pc_profile *p, const char *key)
{
	for (size_t i = 0; key && i < p->nmeta; i++)
		if (strcmp(p->meta_key[i], key) == 0)
			return p->meta_val[i];
	return NULL;
}

int pc_profile_meta_hex(const pc_profile *p, const char *key, uint64_t *out)
{
	const char *v = pc_profile_meta(p, key);
	char *end;
	if (!v || !*v)
		return 0;
	unsigned long long x = strtoull(v, &end, 16);
	if (*end)
		return 0;
	*out = x;
	return 1;
}

size_t pc_profile_meta_count(const pc_profile *p) { return p->nmeta; }

int pc_profile_meta_at(const char **key, const char **value,
		       const pc_profile *p, size_t i)
{
	if (i >= p->nmeta)
		return PC_ENOTFOUND;
	if (key)
		*key = p->meta_key[i];
	if (value)
		*value = p->meta_val[i];
	return PC_OK;
}

size_t pc_profile_source_count(const pc_profile *p) { return p->nsrc; }
const char *pc_profile_source_format(const pc_profile *p, size_t i)
{
	return i < p->nsrc ? p->src_format[i] : NULL;
}
const char *pc_profile_source_file(const pc_profile *p, size_t i)
{
	return i < p->nsrc ? p->src_file[i] : NULL;
}

/* ---- reading back ------------------------------------------------------- */

size_t pc_profile_symbol_count(const pc_profile *p) { return p->nsyms; }

int pc_profile_symbol_at(pc_symbol *out, const pc_profile *p, size_t i)
{
	if (i >= p->nsyms)
		return PC_ENOTFOUND;
	*out = p->syms[i];
	return PC_OK;
}

size_t pc_profile_region_count(const pc_profile *p) { return p->nregions; }

int pc_profile_region_at(pc_region *out, const pc_profile *p, size_t i)
{
	if (i >= p->nregions)
		return PC_ENOTFOUND;
	*out = p->regions[i];
	return PC_OK;
}

size_t pc_profile_histogram_count(const pc_profile *p) { return p->nhists; }

int pc_profile_histogram_at(pc_histogram *out, const pc_profile *p, size_t i)
{
	if (i >= p->nhists)
		return PC_ENOTFOUND;
	*out = p->hists[i].h;
	return PC_OK;
}

size_t pc_profile_arc_count(const pc_profile *p) { return p->narcs; }

int pc_profile_arc_at(pc_arc *out, const pc_profile *p, size_t i)
{
	if (i >= p->narcs)
		return PC_ENOTFOUND;
	*out = p->arcs[i];
	return PC_OK;
}

size_t pc_profile_sample_count(const pc_profile *p)
{
	return pc_samples_distinct(p->samples);
}

int pc_profile_sample_at(uint32_t *segment, uint64_t *address, uint64_t *count,
			 const pc_profile *p, size_t i)
{
	if (i >= pc_samples_distinct(p->samples))
		return PC_ENOTFOUND;
	const pc_sample *s = pc_samples_sorted(p->samples);
	if (!s)
		return PC_ENOMEM;
	if (segment)
		*segment = s[i].segment;
	if (address)
		*address = s[i].address;
	if (count)
		*count = s[i].count;
	return PC_OK;
}

uint64_t pc_profile_class_samples(const pc_profile *p, pc_region_class cls)
{
	return cls < PC_REGION_COUNT ? p->class_samples[cls] : 0;
}

const char *pc_region_class_name(pc_region_class c)
{
	static const char *const names[PC_REGION_COUNT] = {
		"application", "system", "dos", "io", "high",
		"low", "library", "kernel", "unknown", "sleep"};
	return (unsigned)c < PC_REGION_COUNT ? names[c] : "invalid";
}

const char *pc_symkind_name(pc_symkind k)
{
	switch (k) {
	case PC_SYM_TEXT: return "text";
	case PC_SYM_DATA: return "data";
	case PC_SYM_BSS: return "bss";
	case PC_SYM_ABS: return "abs";
	case PC_SYM_OTHER: return "other";
	}
	return "invalid";
}

/* ---- the input's order (timeline.c) ---------------------------------- */

int pc_profile_window_span(uint64_t *span, const pc_profile *p)
{
	if (!span || !p)
		return PC_EUSAGE;
	*span = pc_timeline_span(p->timeline);
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
	if (!p->timeline && !(p->timeline = pc_timeline_new()))
		return pc_profile_fail(p, PC_ENOMEM, "out of memory");
	uint64_t last = pc_timeline_end(p->timeline);
	if (first && pc_timeline_count(p->timeline) && first != last)
		return pc_profile_fail(p, PC_EUSAGE,
				       "pc_profile_add_window: window [%llu, %llu) does not follow the last one, which ends at %llu",
				       (unsigned long long)first, (unsigned long long)end,
				       (unsigned long long)last);
	for (size_t i = 0; i < n; i++) {
		int r = counts[i] ? pc_profile_add_sample(p, segments[i], addresses[i], counts[i])
				  : PC_OK;
		if (r)
			return r;
	}
	if (pc_timeline_add(p->timeline, first, end, segments, addresses, counts, n))
		return pc_profile_fail(p, PC_ENOMEM, "out of memory");
	return PC_OK;
}

int pc_profile_window_count(size_t *n, const pc_profile *p)
{
	if (!n || !p)
		return PC_EUSAGE;
	*n = pc_timeline_count(p->timeline);
	return PC_OK;
}

int pc_profile_window_at(uint64_t *first, uint64_t *end, size_t *naddr,
			 const pc_profile *p, size_t i)
{
	if (!first || !end || !naddr || !p)
		return PC_EUSAGE;
	if (i >= pc_timeline_count(p->timeline))
		return PC_ENOTFOUND;
	pc_timeline_window(p->timeline, i, first, end, naddr);
	return PC_OK;
}

int pc_profile_window_address(uint32_t *segment, uint64_t *address, uint64_t *count,
			      const pc_profile *p, size_t i, size_t j)
{
	if (!segment || !address || !count || !p)
		return PC_EUSAGE;
	uint64_t first, end;
	size_t n;
	if (i >= pc_timeline_count(p->timeline))
		return PC_ENOTFOUND;
	const pc_tlcell *c = pc_timeline_window(p->timeline, i, &first, &end, &n);
	if (j >= n)
		return PC_ENOTFOUND;
	*segment = c[j].segment;
	*address = c[j].address;
	*count = c[j].count;
	return PC_OK;
}

int pc_profile_order_dropped(const pc_profile *p)
{
	return pc_timeline_dropped(p->timeline);
}
