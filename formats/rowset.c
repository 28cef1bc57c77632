/* rowset.c - the rows a table report lists, and the text helpers the
 * layouts share.  See rowset.h. */
#include "rowset.h"
#include "stackfilter.h"
#include "lookup.h"
#include "model.h"
#include "platform.h"
#include "numfmt.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static int cmp_name(const void *a, const void *b)
{
	const pc_rs_row *x = a, *y = b;
	if (x->count != y->count)
		return x->count > y->count ? -1 : 1;
	if (x->calls != y->calls)
		return x->calls > y->calls ? -1 : 1;
	if ((x->region < 0) != (y->region < 0))
		return x->region < 0 ? -1 : 1; /* symbols before regions */
	int c;
	if (x->namelen || y->namelen) { /* granularity line: by the name part */
		const char *kx = x->key ? x->key : x->label, *ky = y->key ? y->key : y->label;
		size_t lx = x->namelen ? x->namelen : strlen(kx);
		size_t ly = y->namelen ? y->namelen : strlen(ky);
		c = strncmp(kx, ky, lx < ly ? lx : ly);
		if (!c && lx != ly)
			c = lx < ly ? -1 : 1;
	} else { /* the raw symbol names, as gprof sorts */
		c = strcmp(x->key ? x->key : x->label, y->key ? y->key : y->label);
	}
	if (c)
		return c;
	if (x->segment != y->segment)
		return x->segment < y->segment ? -1 : 1;
	return x->address < y->address ? -1 : (x->address > y->address);
}

/* Granularity line (lines.c): "NAME (FILE:LINE @ ADDR)" sorts as NAME (the
 * raw name: gprof sorts mangled names, prints them demangled). */
static size_t line_namelen(const char *label)
{
	size_t l = strlen(label);
	if (!l || label[l - 1] != ')')
		return 0;
	/* (from the last '(': none after it can start the part) */
	const char *q = strrchr(label, '(');
	for (size_t i = q ? (size_t)(q - label) + 1 : 0; i-- > 1;)
		if (label[i] == '(' && label[i - 1] == ' ')
			return i - 1 ? i - 1 : 0;
	return 0;
}

static int cmp_label(const void *a, const void *b)
{
	const pc_rs_row *x = a, *y = b;
	int c = strcmp(x->label, y->label);
	if (c)
		return c;
	return x->address < y->address ? -1 : (x->address > y->address);
}

/* Granularity file (lines.c): one row per label, the lowest address. */
static size_t merge_labels(pc_rs_row *all, size_t n)
{
	if (!n)
		return 0;
	qsort(all, n, sizeof *all, cmp_label);
	size_t k = 0;
	for (size_t i = 0; i < n; i++) {
		if (k && all[i].region < 0 && all[k - 1].region < 0 &&
		    !strcmp(all[i].label, all[k - 1].label)) {
			all[k - 1].count += all[i].count;
			all[k - 1].calls += all[i].calls;
			all[k - 1].self_calls += all[i].self_calls;
			continue;
		}
		all[k++] = all[i];
	}
	return k;
}

/* address order: symbols by (segment, address), region rows after them */
static int cmp_addr_only(const void *a, const void *b)
{
	const pc_rs_row *x = a, *y = b;
	if ((x->region < 0) != (y->region < 0))
		return x->region < 0 ? -1 : 1;
	if (x->region >= 0)
		return x->region - y->region;
	if (x->segment != y->segment)
		return x->segment < y->segment ? -1 : 1;
	if (x->address != y->address)
		return x->address < y->address ? -1 : 1;
	return strcmp(x->label, y->label);
}

static int cmp_address(const void *a, const void *b)
{
	const pc_rs_row *x = a, *y = b;
	if (x->count != y->count)
		return x->count > y->count ? -1 : 1;
	return cmp_addr_only(a, b);
}

static int get_cutoff(pc_profile *p, const pc_options *o, pc_rowset *rs)
{
	const char *v = pc_options_get(o, "cutoff");
	if (!v)
		return PC_OK;
	double c = 0;
	int r = pc_options_get_double(&c, NULL, o, "cutoff");
	if (r < 0 || !(c >= 0 && c <= 100))
		return pc_profile_fail(p, PC_EUSAGE,
				       "cutoff must be a percentage from 0 to 100, not '%s'",
				       v);
	rs->has_cutoff = 1;
	rs->cutoff = c;
	rs->cutoff_text = v;
	return PC_OK;
}

static int get_base(pc_profile *p, const pc_options *o, pc_base def,
		    pc_base *out)
{
	const char *v = pc_options_get(o, "percent-of");
	*out = def;
	if (!v)
		return PC_OK;
	if (strcmp(v, "program") == 0)
		*out = PC_BASE_PROGRAM;
	else if (strcmp(v, "total") == 0)
		*out = PC_BASE_TOTAL;
	else
		return pc_profile_fail(p, PC_EUSAGE,
				       "percent-of must be program or total, not '%s'",
				       v);
	return PC_OK;
}

/* ---- focus, ignore, hide, sort, top ------------------------------------ */

static int cmp_cum(const void *a, const void *b)
{
	const pc_rs_row *x = a, *y = b;
	if (x->inclusive != y->inclusive)
		return x->inclusive > y->inclusive ? -1 : 1;
	return cmp_name(a, b);
}

static int cmp_calls(const void *a, const void *b)
{
	const pc_rs_row *x = a, *y = b;
	uint64_t cx = x->calls + x->self_calls, cy = y->calls + y->self_calls;
	if (cx != cy)
		return cx > cy ? -1 : 1;
	return cmp_name(a, b);
}


/* "sort" and "top" into rs; focus/ignore/hide applied to all[0, *n) */
static int select_rows(pc_profile *p, const pc_options *o, pc_rowset *rs,
		       pc_rs_row *all, size_t *n)
{
	static const struct { const char *name; pc_sort_key key; } sorts[] = {
		{"self", PC_SORT_SELF}, {"cum", PC_SORT_CUM},
		{"calls", PC_SORT_CALLS}, {"name", PC_SORT_NAME},
		{"address", PC_SORT_ADDRESS}};
	const size_t nsorts = sizeof sorts / sizeof *sorts;
	const char *v = pc_options_get(o, "sort");
	rs->sort = PC_SORT_SELF;
	if (v) {
		size_t i = 0;
		while (i < nsorts && strcmp(v, sorts[i].name))
			i++;
		if (i == nsorts)
			return pc_profile_fail(p, PC_EUSAGE,
					       "sort must be self, cum, calls, name or address, not '%s'",
					       v);
		rs->sort = sorts[i].key;
	}
	uint64_t top = 0;
	int given = 0;
	int r = pc_options_get_u64(&top, &given, o, "top");
	if (r < 0 || (given && top == 0))
		return pc_profile_fail(p, PC_EUSAGE,
				       "top must be a number of rows (1 or more), not '%s'",
				       pc_options_get(o, "top"));
	rs->top = top > (uint64_t)SIZE_MAX ? SIZE_MAX : (size_t)top;
	if (rs->sort == PC_SORT_CUM) { /* (inclusive: read by cmp_cum only) */
		for (size_t i = 0; i < *n; i++)
			all[i].inclusive = all[i].count;
		pc_callgraph *g = NULL;
		if ((r = pc_profile_callgraph(&g, p, pc_options_callgraph(o))))
			return r;
		for (size_t i = 0; i < *n; i++) {
			pc_icg_node nd;
			if (all[i].region < 0 &&
			    pc_callgraph_inode_at(g, all[i].row, &nd) == PC_OK)
				all[i].inclusive = nd.time + nd.children;
		}
		pc_callgraph_free(g);
	}
	pc_filter f;
	pc_stackkeep sk;
	if ((r = pc_filter_init(p, o, &f)) || (r = pc_stackkeep_init(p, o, &sk))) {
		pc_filter_dispose(&f);
		return r;
	}
	rs->filtered = f.any;
	rs->stacks = sk.how;
	size_t k = 0;
	for (size_t i = 0; f.any && i < *n; i++) {
		int keep;
		if (sk.row) {
			/* focus and ignore by the stack rule: a row keeps the
			 * samples of its stacks that pass (a row without
			 * samples, listed for its calls, by its name); hide
			 * by its name */
			double was = all[i].count;
			all[i].count = all[i].region < 0 ? sk.row[all[i].row]
							 : sk.cls[all[i].region];
			keep = was > 0 ? all[i].count > 0
				       : pc_filter_keep_frame(p, &f, all[i].label, all[i].key);
			if (keep > 0 && f.hide)
				keep = !pc_filter_match(p, &f, f.hide, all[i].label, all[i].key);
		} else {
			keep = pc_filter_keep_frame(p, &f, all[i].label, all[i].key);
		}
		if (keep < 0) {
			pc_filter_dispose(&f);
			pc_stackkeep_dispose(&sk);
			return keep;
		}
		if (keep)
			all[k++] = all[i];
	}
	if (f.any)
		*n = k;
	pc_filter_dispose(&f);
	pc_stackkeep_dispose(&sk);
	return PC_OK;
}

/* cmp_name and cmp_address of two row pointers */
static int cmp_ptr_name(const void *a, const void *b)
{
	return cmp_name(*(const pc_rs_row *const *)a, *(const pc_rs_row *const *)b);
}

static int cmp_ptr_address(const void *a, const void *b)
{
	return cmp_address(*(const pc_rs_row *const *)a, *(const pc_rs_row *const *)b);
}

/* all[0, n) in cmp order (cmp_name or cmp_address: by count, most
 * first, then by other keys): a stable radix sort by count, then each
 * run of one count by cmp, as pointers, and the rows moved once (the
 * bench's 50,000 rows, in runs of up to 1,800 equal counts: 31 M
 * instructions, where qsort of the rows took 42 M and moved rows of 128
 * bytes). */
/* The first 8 bytes of s as a big-endian number, zeros after its end:
 * ordered as strcmp orders the strings, equal when the 8 bytes are. */
static uint64_t name_prefix(const char *s)
{
	uint64_t v = 0;
	unsigned i = 0;
	for (; i < 8 && s[i]; i++)
		v = v << 8 | (unsigned char)s[i];
	return i == 8 ? v : i ? v << (64 - 8 * i) : 0;
}

/* The runs of o[0, n) alike in every key sorted on (o's key, cnt, and
 * the calls and the region flag when some row has them):
 * cmp_name decides their order (ptr's room; pre, in it, is no longer
 * needed). */
static void tie_runs(const pc_rs_row *all, size_t n, pc_rkey *o,
		     const uint64_t *cnt, int calls, int regions,
		     const pc_rs_row **ptr)
{
	for (size_t i = 0; i < n;) {
		size_t j = i + 1;
		while (j < n && o[j].key == o[i].key && cnt[j] == cnt[i] &&
		       (!calls || all[o[j].idx].calls == all[o[i].idx].calls) &&
		       (!regions ||
			(all[o[j].idx].region >= 0) == (all[o[i].idx].region >= 0)))
			j++;
		if (j - i > 1) {
			for (size_t m = i; m < j; m++)
				ptr[m - i] = &all[o[m].idx];
			qsort(ptr, j - i, sizeof *ptr, cmp_ptr_name);
			for (size_t m = i; m < j; m++)
				o[m].idx = (uint64_t)(ptr[m - i] - all);
		}
		i = j;
	}
}

/* all[0, n) in cmp_name order without a comparison sort: stable radix
 * sorts by the name's first 8 bytes (of its name part at granularity
 * line), symbols before regions, calls (most
 * first) and count (most first), then each run that those keys leave
 * tied by cmp_name itself (names alike in 8 bytes: rare); the order
 * into o (pc_rkey idx: the rows' old places), k and tmp the arrays.
 * The bench's 50,000 rows: about 5 M instructions where the sorts of
 * runs of one count by cmp_name took 50 M. */
static pc_rkey *sort_by_name(const pc_rs_row *all, size_t n, uint64_t *cnt,
			     pc_rkey *k, pc_rkey *tmp, const pc_rs_row **ptr)
{
	int regions = 0;
	uint64_t calls = 0;
	/* the name prefixes by row, in ptr's room (8 bytes a row: read
	 * below in sorted order, where rows of 112 bytes would each miss
	 * the cache) */
	uint64_t *pre = (uint64_t *)(void *)ptr;
	for (size_t i = 0; i < n; i++) {
		const pc_rs_row *x = &all[i];
		/* (granularity line: the prefix of the name part, which
		 * cmp_name compares) */
		pre[i] = name_prefix(x->key ? x->key : x->label);
		if (x->namelen < 8)
			pre[i] &= x->namelen ? ~(~UINT64_C(0) >> (8 * x->namelen)) : ~UINT64_C(0);
		regions |= x->region >= 0;
		calls |= x->calls;
	}
	for (size_t i = 0; i < n; i++)
		k[i] = (pc_rkey){pre[i], i};
	pc_rkey *o = pc_radix_sort(k, tmp, n);
	pc_rkey *t = o == k ? tmp : k;
	if (regions) { /* symbols first */
		for (size_t i = 0; i < n; i++)
			o[i].key = all[o[i].idx].region >= 0;
		o = pc_radix_sort(o, t, n);
		t = o == k ? tmp : k;
	}
	if (calls) {
		for (size_t i = 0; i < n; i++)
			o[i].key = ~all[o[i].idx].calls;
		o = pc_radix_sort(o, t, n);
		t = o == k ? tmp : k;
	}
	for (size_t i = 0; i < n; i++)
		o[i].key = cnt[o[i].idx];
	o = pc_radix_sort(o, t, n);
	/* the prefixes in sorted order (cnt's room: the counts are in o) */
	for (size_t i = 0; i < n; i++)
		cnt[i] = pre[o[i].idx];
	tie_runs(all, n, o, cnt, calls != 0, regions, ptr);
	return o;
}

/* The distinct counts of a report are few (the bench's 49,155 rows have
 * 87): each count key is replaced by its rank among them, in order, so
 * that build_compact sorts by one key of the rank over the name's
 * prefix, one radix pass.  At most RANK_MAX distinct keys (a hash table of
 * RANK_SLOTS); more: 0, and the keys stay as they are. */
#define RANK_MAX 2048
#define RANK_SLOTS 4096

typedef struct rank_slot {
	uint64_t key;
	uint32_t slot;
} rank_slot;

static int cmp_rank_slot(const void *a, const void *b)
{
	const rank_slot *x = a, *y = b;
	return x->key < y->key ? -1 : x->key > y->key;
}

/* cnt[0, n) (and k[i].key, the same values) by rank: the number of
 * ranks, or 0 (the keys unchanged) */
#define RANK_ROOM (RANK_SLOTS * sizeof(uint64_t) + RANK_MAX * sizeof(rank_slot) + \
		   RANK_SLOTS * sizeof(uint32_t))

static size_t rank_keys(uint64_t *cnt, pc_rkey *k, size_t n)
{
	char *mem = malloc(RANK_ROOM);
	if (!mem) {
		for (size_t i = 0; i < n; i++)
			k[i].key = cnt[i];
		return 0;
	}
	uint64_t *tab = (uint64_t *)(void *)mem;
	rank_slot *d = (rank_slot *)(void *)(mem + RANK_SLOTS * sizeof *tab);
	uint32_t *rank = (uint32_t *)(void *)(mem + RANK_SLOTS * sizeof *tab + RANK_MAX * sizeof *d);
	memset(rank, 0, RANK_SLOTS * sizeof *rank); /* 0: empty slot */
	size_t nd = 0;
	int ok = 1;
	for (size_t i = 0; ok && i < n; i++) {
		uint64_t key = cnt[i];
		uint32_t h = (uint32_t)((key * UINT64_C(0x9E3779B97F4A7C15)) >> 52); /* 12 bits */
		while (rank[h] && tab[h] != key)
			h = (h + 1) & (RANK_SLOTS - 1);
		if (!rank[h]) {
			if (nd == RANK_MAX) {
				ok = 0;
				break;
			}
			rank[h] = 1;
			tab[h] = key;
			d[nd++] = (rank_slot){key, h};
		}
		k[i].key = h;
	}
	if (ok) {
		qsort(d, nd, sizeof *d, cmp_rank_slot);
		for (size_t r = 0; r < nd; r++)
			rank[d[r].slot] = (uint32_t)r;
		for (size_t i = 0; i < n; i++)
			k[i].key = cnt[i] = rank[k[i].key];
	} else {
		for (size_t i = 0; i < n; i++)
			k[i].key = cnt[i];
	}
	free(mem);
	return ok ? nd : 0;
}

static int sort_rows(pc_rs_row *all, size_t n,
		     int (*cmp)(const void *, const void *))
{
	if (n < 64) {
		qsort(all, n, sizeof *all, cmp);
		return PC_OK;
	}
	pc_rkey *k = malloc(n * sizeof *k), *tmp = malloc(n * sizeof *tmp);
	uint64_t *cnt = NULL;
	const pc_rs_row **ptr = NULL;
	if (!k || !tmp) {
		free(k), free(tmp);
		return PC_ENOMEM;
	}
	/* the count keys in tmp's upper half first (tmp holds 16 bytes a
	 * row; copied to cnt before a sort writes tmp) */
	uint64_t *ckey = (uint64_t *)(void *)tmp + n;
	int by_name = cmp == cmp_name;
	for (size_t i = 0; i < n; i++) {
		uint64_t key;
		if (isnan(all[i].count) || !pc_double_key(all[i].count, &key)) {
			free(k), free(tmp);
			qsort(all, n, sizeof *all, cmp);
			return PC_OK;
		}
		k[i] = (pc_rkey){~key, i}; /* most first */
		ckey[i] = ~key;
	}
	pc_rkey *o;
	/* the keys and the prefixes in rooms of their own (ptr's holds a
	 * uint64_t a row first: sort_by_name) */
	cnt = malloc(n * sizeof *cnt);
	ptr = malloc(n * (sizeof *ptr > sizeof(uint64_t) ? sizeof *ptr : sizeof(uint64_t)));
	if (!cnt || !ptr) {
		free(k), free(tmp), free(cnt), free(ptr);
		return PC_ENOMEM;
	}
	memcpy(cnt, ckey, n * sizeof *cnt);
	if (by_name) {
		o = sort_by_name(all, n, cnt, k, tmp, ptr);
		goto place;
	}
	o = pc_radix_sort(k, tmp, n);
	/* each run of one count by cmp, as pointers (8 bytes to move, not a
	 * row) */
	for (size_t i = 0; i < n;) {
		size_t j = i + 1;
		while (j < n && o[j].key == o[i].key)
			j++;
		if (j - i > 1) {
			for (size_t m = i; m < j; m++)
				ptr[m - i] = &all[o[m].idx];
			qsort(ptr, j - i, sizeof *ptr,
			      cmp == cmp_address ? cmp_ptr_address : cmp_ptr_name);
			for (size_t m = i; m < j; m++)
				o[m].idx = (uint64_t)(ptr[m - i] - all);
		}
		i = j;
	}
place:
	/* all[i] = old all[o[i].idx], in place: each cycle of the
	 * permutation is followed once (a placed row's idx becomes its own) */
	for (size_t i = 0; i < n; i++) {
		if (o[i].idx == i)
			continue;
		pc_rs_row first = all[i];
		size_t j = i;
		for (;;) {
			size_t src = (size_t)o[j].idx;
			o[j].idx = j;
			if (src == i) {
				all[j] = first;
				break;
			}
			all[j] = all[src];
			j = src;
		}
	}
	free(k), free(tmp), free(cnt), free(ptr);
	return PC_OK;
}

void pc_rowset_dispose(pc_rowset *rs)
{
	free(rs->rows);
	free(rs->cnt); /* (and lab, in its room) */
	free(rs->tgt);
	free(rs->cum);
	memset(rs, 0, sizeof *rs);
}

/* ---- compact rows: label, count and target a row, the rest when read --- */

struct pc_rs_ent {
	const char *label;
	double count;
	size_t target;
};

struct pc_rs_cum {
	size_t n;   /* listed rows summed */
	double sum; /* their counts, added in listing order */
};

/* the label a symbol row shows (a name that does not start with '_', '.'
 * or '$' cannot be mangled: its own display name, pc_symbol_display) */
static const char *sym_label(pc_profile *p, size_t s)
{
	const char *name = p->syms[s].name;
	return p->demangle && name && (*name == '_' || *name == '.' || *name == '$')
		       ? pc_symbol_display(p, s)
		       : name;
}

const pc_rs_row *pc_rowset_row_make(const pc_rowset *rs, size_t i, pc_rs_row *buf,
				    int what)
{
	*buf = (pc_rs_row){.label = rs->lab[i], .count = rs->cnt[i], .region = -1,
			   .rank = i + 1};
	if (what) {
		const pc_profile *p = rs->p;
		/* (the targets in listing order are in no order: asked for
		 * ahead) */
		if (i + 8 < rs->n)
			PC_PREFETCH(&p->targets[rs->tgt[i + 8]]);
		const pc_target *t = &p->targets[rs->tgt[i]];
		buf->row = rs->tgt[i];
		buf->segment = t->segment;
		buf->address = t->address;
		buf->end = t->end;
		buf->calls = t->calls;
		buf->self_calls = t->self_calls;
		if (what & PC_RS_KEY)
			buf->key = p->syms[t->symbol].name;
	}
	struct pc_rs_cum *c = rs->cum;
	if (c->n > i + 1)
		c->n = 0, c->sum = 0;
	for (; c->n <= i; c->n++)
		c->sum += rs->cnt[c->n];
	buf->percent = rs->denom > 0 ? buf->count * 100.0 / rs->denom : 0;
	buf->cum_percent = rs->denom > 0 ? c->sum * 100.0 / rs->denom : 0;
	return buf;
}

const char *pc_rowset_label_make(const pc_rowset *rs, size_t i)
{
	return rs->lab[i];
}

/* Rows of one sort key (o[i, j): names alike in their first bytes) by
 * cmp_name, made as rows in *tmp (of *cap); PC_ENOMEM */
static int compact_tie(pc_profile *p, const struct pc_rs_ent *ent, pc_rkey *o,
		       size_t i, size_t j, pc_rs_row **tmp, size_t *cap)
{
	if (pc_grow((void **)tmp, cap, j - i, sizeof **tmp))
		return PC_ENOMEM;
	for (size_t m = i; m < j; m++) {
		const struct pc_rs_ent *e = &ent[o[m].idx];
		const pc_target *t = &p->targets[e->target];
		(*tmp)[m - i] = (pc_rs_row){.label = e->label, .key = p->syms[t->symbol].name,
					    .region = -1, .row = (size_t)o[m].idx,
					    .segment = t->segment, .address = t->address,
					    .count = e->count};
	}
	qsort(*tmp, j - i, sizeof **tmp, cmp_name);
	for (size_t m = i; m < j; m++)
		o[m].idx = (*tmp)[m - i].row;
	return PC_OK;
}

/* The listing of pc_rowset_build for compact rows, without a row array:
 * each listed target's label and count, read in the targets' order;
 * their count ranks over their names' prefixes radix sorted (one pass
 * of a combined key) and the entries put in that order.  1 (nothing done)
 * when this listing does not apply: the caller builds the rows. */
static int build_compact(pc_profile *p, const pc_options *o, pc_rowset *rs)
{
	const pc_target *tg = p->targets;
	const pc_symbol *sy = p->syms;
	size_t nt = pc_profile_rows(p), n = 0, targets = 0;
#define IDLE(t) (!((t)->count > 0) && \
		 (!(rs->zero || (t)->calls || (t)->self_calls) || \
		  (rs->has_cutoff && rs->cutoff < 100)))
	for (size_t i = 0; i < nt; i++) {
		const pc_target *t = &tg[i];
		if (t->excluded)
			continue;
		targets++;
		if (IDLE(t))
			continue;
		if (t->calls || t->self_calls)
			return 1;
		n++;
	}
	if (n < 64)
		return 1;
	pc_rkey *k = malloc(n * sizeof *k), *tmp = malloc(n * sizeof *tmp);
	struct pc_rs_ent *ent = malloc(n * sizeof *ent);
	if (!k || !tmp || !ent) {
		free(k), free(tmp), free(ent);
		return pc_profile_fail(p, PC_ENOMEM, "out of memory");
	}
	pc_plat_advise_bulk(ent, n * sizeof *ent);
	/* tmp's halves: the names' prefixes and the count keys (read before
	 * the sort, which writes tmp) */
	uint64_t *pre = (uint64_t *)(void *)tmp, *ckey = pre + n;
	size_t m = 0;
	for (size_t i = 0; i < nt; i++) {
		/* the symbols and their names are read in the targets' order,
		 * not their own: asked for ahead */
		if (i + 32 < nt)
			PC_PREFETCH(&sy[tg[i + 32].symbol]);
		if (i + 16 < nt)
			PC_PREFETCH(sy[tg[i + 16].symbol].name);
		const pc_target *t = &tg[i];
		if (t->excluded || IDLE(t))
			continue;
		uint64_t key;
		const char *name = sy[t->symbol].name;
		if (isnan(t->count) || !pc_double_key(t->count, &key) || !name) {
			free(k), free(tmp), free(ent);
			return 1;
		}
		k[m] = (pc_rkey){~key, m};
		ckey[m] = ~key;
		pre[m] = name_prefix(name);
		ent[m++] = (struct pc_rs_ent){sym_label(p, t->symbol), t->count, i};
	}
#undef IDLE
	size_t nranks = rank_keys(ckey, k, n);
	if (!nranks) {
		free(k), free(tmp), free(ent);
		return 1;
	}
	unsigned rb = 0; /* bits of the rank */
	while (rb < 64 && ((nranks - 1) >> rb))
		rb++;
	for (size_t i = 0; i < n; i++)
		k[i].key = rb ? ckey[i] << (64 - rb) | pre[i] >> rb : pre[i];
	int r;
	size_t none = 0;
	if ((r = select_rows(p, o, rs, NULL, &none))) { /* (sort, top) */
		free(k), free(tmp), free(ent);
		return r;
	}
	pc_rkey *so = pc_radix_sort(k, tmp, n);
	pc_rkey *fr = so == k ? tmp : k; /* (free now: 16 bytes an entry) */
	/* the runs alike in that key by cmp_name (rare: names alike in
	 * their first bytes) */
	pc_rs_row *tie = NULL;
	size_t tcap = 0;
	for (size_t i = 0; i < n;) {
		size_t j = i + 1;
		while (j < n && so[j].key != so[j - 1].key)
			j++;
		i = j - 1;
		while (j < n && so[j].key == so[i].key)
			j++;
		if (j - i > 1 && compact_tie(p, ent, so, i, j, &tie, &tcap)) {
			free(tie), free(so), free(fr), free(ent);
			return pc_profile_fail(p, PC_ENOMEM, "out of memory");
		}
		i = j;
	}
	free(tie);
	/* the entries in listing order, gathered (independent reads, where
	 * following the permutation's cycles in place made a chain of
	 * them): counts and labels into fr's room, targets into so's
	 * (tgs[i] lies before so[i].idx) */
	double *cnt = (double *)(void *)fr;
	const char **lab = (const char **)(void *)(cnt + n);
	size_t *tgs = (size_t *)(void *)so;
	for (size_t i = 0; i < n; i++) {
		if (i + 8 < n)
			PC_PREFETCH(&ent[so[i + 8].idx]);
		const struct pc_rs_ent *e = &ent[so[i].idx];
		cnt[i] = e->count;
		lab[i] = e->label;
		tgs[i] = e->target;
	}
	free(ent);
	/* the selection of pc_rowset_build; the first "top" of the rows it
	 * keeps summed as the listing */
	size_t keep = 0, top = rs->top ? rs->top : SIZE_MAX;
	double cum = 0, listed = 0;
	for (size_t i = 0; i < n; i++) {
		double c = cnt[i];
		if (c > 0 && rs->has_cutoff &&
		    (rs->denom <= 0 || cum * 100.0 >= rs->cutoff * rs->denom * (1 - 1e-12)))
			continue;
		/* (rows without samples: not idle, so listed) */
		cum += c;
		if (keep < top) {
			if (fabs(c) < 4503599627370496.0 ? (double)(int64_t)c != c : c != c)
				rs->fractional = 1;
			listed += c;
			if (c > rs->max_count)
				rs->max_count = c;
		}
		cnt[keep] = c, lab[keep] = lab[i], tgs[keep] = tgs[i];
		keep++;
	}
	rs->selected = keep;
	if (keep > top)
		keep = top;
	if (!(rs->cum = calloc(1, sizeof *rs->cum))) {
		free(fr), free(so);
		return pc_profile_fail(p, PC_ENOMEM, "out of memory");
	}
	rs->targets = targets;
	rs->p = p;
	rs->cnt = cnt;
	rs->lab = lab;
	rs->tgt = tgs;
	rs->n = keep;
	rs->listed = listed;
	return PC_OK;
}

static int build(pc_profile *p, const pc_options *o, const pc_rowset_spec *spec,
		 int compact, pc_rowset *rs)
{
	memset(rs, 0, sizeof *rs);
	int r;
	if ((r = pc_rs_outfmt(p, o, &rs->fmt)) ||
	    (r = pc_rs_bool(p, o, "zero", 0, &rs->zero)) ||
	    (r = pc_rs_bool(p, o, "barchart", 1, &rs->barchart)) ||
	    (r = get_cutoff(p, o, rs)) || (r = get_base(p, o, spec->base, &rs->base)))
		return r;
	if ((r = pc_profile_attribute(p, pc_options_attrib(o))) || (r = pc_profile_itotals(p, &rs->t)))
		return r;
	rs->denom = rs->base == PC_BASE_PROGRAM ? rs->t.in_program : rs->t.total;
	rs->rate = pc_profile_rate(p);
	if ((r = pc_ci_option(p, o, &rs->ci_z, &rs->ci_level)))
		return r;
	rs->exact = pc_profile_event_counts(p);
	rs->opts = o;

	size_t nt = pc_profile_rows(p);
	pc_gran gran = pc_options_gran(o);
	const char *sortv = pc_options_get(o, "sort");
	if (compact && !spec->region_rows && spec->tie == PC_TIE_NAME && gran == PC_GRAN_NONE &&
	    (!sortv || !strcmp(sortv, "self")) && !pc_options_get(o, "focus") &&
	    !pc_options_get(o, "ignore") && !pc_options_get(o, "hide") &&
	    (r = build_compact(p, o, rs)) != 1)
		return r;
	/* A row without samples that the selection below would drop
	 * whatever its place (no calls, no "zero", or a cutoff below 100) is
	 * not made at all: 10^6 unsampled symbols cost no rows.  Granularity
	 * file merges rows first (a merged row's address is its lowest):
	 * every row is made there. */
	int drop_idle = gran != PC_GRAN_FILE;
	size_t cap = 0, n = 0;
	pc_rs_row *all = NULL;
	/* the rows straight from the attribution's targets (what
	 * pc_profile_row_at and pc_profile_symbol_at copy out), counted
	 * first so that the rows are allocated once */
	const pc_target *tg = p->targets;
	const pc_symbol *sy = p->syms;
#define IDLE(t) (drop_idle && !((t)->count > 0) && \
		 (!(rs->zero || (t)->calls || (t)->self_calls) || \
		  (rs->has_cutoff && rs->cutoff < 100)))
	for (size_t i = 0; i < nt; i++) /* (excluded: the symbol's flag) */
		cap += !tg[i].excluded && !IDLE(&tg[i]);
	cap += spec->region_rows ? PC_REGION_COUNT : 0;
	if (cap && !(all = malloc(cap * sizeof *all)))
		return pc_profile_fail(p, PC_ENOMEM, "out of memory");
	pc_plat_advise_bulk(all, cap * sizeof *all);
	for (size_t i = 0; i < nt; i++) {
		/* the symbols and their names are read in address order, not
		 * their own: asked for ahead (each read missed the cache) */
		if (i + 16 < nt)
			PC_PREFETCH(&sy[tg[i + 16].symbol]);
		if (i + 8 < nt)
			PC_PREFETCH(sy[tg[i + 8].symbol].name);
		const pc_target *t = &tg[i];
		if (t->excluded)
			continue;
		rs->targets++;
		if (IDLE(t))
			continue;
		const pc_symbol *sym = &sy[t->symbol];
		/* (a name that does not start with '_', '.' or '$' cannot be
		 * mangled: its own display name, pc_symbol_display) */
		const char *label = p->demangle && sym->name &&
					    (*sym->name == '_' || *sym->name == '.' || *sym->name == '$')
					    ? pc_symbol_display(p, t->symbol)
					    : sym->name;
		all[n++] = (pc_rs_row){.label = label, .key = sym->name,
				       .region = -1, .row = i,
				       .segment = t->segment,
				       .address = t->address, .end = t->end,
				       .count = t->count, .calls = t->calls,
				       .self_calls = t->self_calls};
	}
#undef IDLE
	if (spec->region_rows &&
	    pc_grow((void **)&all, &cap, n + PC_REGION_COUNT, sizeof *all)) {
		free(all);
		return pc_profile_fail(p, PC_ENOMEM, "out of memory");
	}
	if (!all && !(all = calloc(1, sizeof *all)))
		return pc_profile_fail(p, PC_ENOMEM, "out of memory");
	if (spec->region_rows) {
		for (int c = 0; c < PC_REGION_COUNT; c++) {
			/* [APPLICATION]: program samples credited to no symbol */
			double v = rs->t.by_class[c];
			if (v > 0)
				all[n++] = (pc_rs_row){.label = pc_rs_region_label(c),
						       .key = pc_rs_region_label(c),
						       .region = c,
						       .segment = PC_NOSEG,
						       .count = v};
		}
	}
	if (gran == PC_GRAN_FILE)
		n = merge_labels(all, n);
	for (size_t i = 0; gran == PC_GRAN_LINE && i < n; i++)
		all[i].namelen = line_namelen(all[i].key ? all[i].key : all[i].label);
	if ((r = select_rows(p, o, rs, all, &n))) {
		free(all);
		return r;
	}
	if ((r = sort_rows(all, n, spec->tie == PC_TIE_ADDRESS ? cmp_address : cmp_name))) {
		free(all);
		return pc_profile_fail(p, r, "out of memory");
	}

	/* Selection: hit rows in order while the rows above cover less than
	 * the cutoff; rows without samples (listed when they have calls, or
	 * with "zero") only when no cutoff below 100 is in force: they add
	 * nothing to the coverage. */
	size_t keep = 0;
	double cum = 0;
	for (size_t i = 0; i < n; i++) {
		pc_rs_row *x = &all[i];
		if (x->count > 0) {
			if (rs->has_cutoff &&
			    (rs->denom <= 0 ||
			     cum * 100.0 >= rs->cutoff * rs->denom * (1 - 1e-12)))
				continue;
		} else if (!(rs->zero || x->calls || x->self_calls) ||
			   (rs->has_cutoff && rs->cutoff < 100)) {
			continue;
		}
		cum += x->count;
		if (keep != i)
			all[keep] = *x;
		keep++;
	}
	rs->selected = keep;
	/* then the order asked for, and the first "top" rows of it */
	if (rs->sort != PC_SORT_SELF) {
		int (*cmp)(const void *, const void *) =
			rs->sort == PC_SORT_CUM	    ? cmp_cum
			: rs->sort == PC_SORT_CALLS ? cmp_calls
			: rs->sort == PC_SORT_NAME  ? cmp_label
						    : cmp_addr_only;
		qsort(all, keep, sizeof *all, cmp);
	}
	if (rs->top && keep > rs->top)
		keep = rs->top;
	cum = 0;
	for (size_t i = 0; i < keep; i++) {
		pc_rs_row *x = &all[i];
		/* x->count != floor(x->count) without a call: doubles of 2^52
		 * and more are integers (NaN: fractional, as before) */
		if (fabs(x->count) < 4503599627370496.0
			    ? (double)(int64_t)x->count != x->count
			    : x->count != x->count)
			rs->fractional = 1;
		if (x->calls || x->self_calls)
			rs->has_calls = 1;
		cum += x->count;
		x->rank = i + 1;
		x->percent = rs->denom > 0 ? x->count * 100.0 / rs->denom : 0;
		x->cum_percent = rs->denom > 0 ? cum * 100.0 / rs->denom : 0;
		if (x->count > rs->max_count)
			rs->max_count = x->count;
	}
	rs->rows = all;
	rs->n = keep;
	rs->listed = cum;
	return PC_OK;
}

int pc_rowset_build(pc_profile *p, const pc_options *o,
		    const pc_rowset_spec *spec, pc_rowset *rs)
{
	return build(p, o, spec, 0, rs);
}

int pc_rowset_build_compact(pc_profile *p, const pc_options *o,
			    const pc_rowset_spec *spec, pc_rowset *rs)
{
	return build(p, o, spec, 1, rs);
}

/* ---- machine output ------------------------------------------------ */

static double pct(double c, double of)
{
	return of > 0 ? 100.0 * c / of : 0.0;
}

#define RS_FIELD(f, name) [f] = {name, ", \"" name "\": ", sizeof(", \"" name "\": ") - 1}
const pc_rs_field_def pc_rs_fields[PC_RF_COUNT_OF_FIELDS] = {
	RS_FIELD(PC_RF_RANK, "rank"),
	RS_FIELD(PC_RF_SYMBOL, "symbol"),
	RS_FIELD(PC_RF_SEGMENT, "segment"),
	RS_FIELD(PC_RF_ADDRESS, "address"),
	RS_FIELD(PC_RF_REGION, "region"),
	RS_FIELD(PC_RF_COUNT, "count"),
	RS_FIELD(PC_RF_PERCENT, "percent"),
	RS_FIELD(PC_RF_CUM_PERCENT, "cum_percent"),
	RS_FIELD(PC_RF_SELF_SECONDS, "self_seconds"),
	RS_FIELD(PC_RF_CI_LOW, "ci_low"),
	RS_FIELD(PC_RF_CI_HIGH, "ci_high"),
	RS_FIELD(PC_RF_CALLS, "calls"),
	RS_FIELD(PC_RF_SELF_CALLS, "self_calls"),
};

const pc_rs_field pc_rs_csv_fields[11] = {
	PC_RF_RANK,    PC_RF_SYMBOL,	   PC_RF_COUNT,	 PC_RF_PERCENT,
	PC_RF_CUM_PERCENT, PC_RF_SELF_SECONDS, PC_RF_CALLS, PC_RF_SELF_CALLS,
	PC_RF_ADDRESS, PC_RF_CI_LOW,	   PC_RF_CI_HIGH,
};

/* after a total row's percent: the empty columns up to the address, and
 * the interval's with ci */
static void csv_rest(pc_sink *k, const pc_rowset *rs)
{
	size_t i = 0;
	while (pc_rs_csv_fields[i] != PC_RF_PERCENT)
		i++;
	while (pc_rs_csv_fields[i++] != PC_RF_ADDRESS)
		pc_sink_putc(k, ',');
	pc_sink_puts(k, rs->ci_z > 0 ? ",,\n" : "\n");
}

static void csv_total(pc_sink *k, const pc_rowset *rs, const char *label, double v, double total)
{
	pc_sink_printf(k, ",%s,", label);
	pc_sink_count(k, v);
	pc_sink_printf(k, ",%.4f", pct(v, total));
	csv_rest(k, rs);
}

/* a row's bytes kept to be copied into a later row (PC_LW_LINE has room
 * for the whole of buf): the columns that depend on the count alone,
 * copied from the row above when its count is the same (bench/README.md:
 * 11% of the CSV flat report of the 50,000-function program) */
typedef struct pc_lw_seg {
	char buf[96];
	size_t n;
} pc_lw_seg;

/* keeps s[0, n): 1, or 0 when it does not fit */
static int pc_lw_seg_keep(pc_lw_seg *g, const char *s, size_t n)
{
	if (n > sizeof g->buf)
		return 0;
	memcpy(g->buf, s, n);
	g->n = n;
	return 1;
}

static void pc_lw_seg_put(pc_lw *b, const pc_lw_seg *g)
{
	memcpy(b->out + b->L, g->buf, sizeof g->buf); /* (a constant size) */
	b->L += g->n;
}

int pc_rowset_csv(pc_profile *p, const pc_rowset *rs, pc_sink *k)
{
	(void)p;
	size_t ncols = sizeof pc_rs_csv_fields / sizeof pc_rs_csv_fields[0] - (rs->ci_z > 0 ? 0 : 2);
	for (size_t i = 0; i < ncols; i++) {
		if (i)
			pc_sink_putc(k, ',');
		pc_sink_puts(k, pc_rs_fields[pc_rs_csv_fields[i]].name);
	}
	pc_sink_putc(k, '\n');
	/* each row's columns in the order of pc_rs_csv_fields; the numbers
	 * without printf (pc_fmt_fixed, pc_fmt_u64, pc_lw_hex: the
	 * same bytes), each row straight into the sink's buffer */
	pc_lw b;
	pc_lw_init(&b, k);
	const int ci = rs->ci_z > 0 && !rs->exact;
	/* count and percent, and self_seconds, depend on the count alone
	 * (the percent is the count's): copied from the row above when its
	 * count and percent have the same bits (flat.c's render_text does
	 * the same) */
	pc_lw_seg sa = {0}, ss = {0};
	double seg_count = 0, seg_pct = 0;
	int seg_ok = 0;
	for (size_t i = 0; i < rs->n; i++) {
		pc_rs_row xb;
		const pc_rs_row *x = pc_rowset_row_machine(rs, i, &xb);
		if (pc_lw_row(&b))
			return k->failed;
		pc_lw_u64(&b, x->rank);
		b.out[b.L++] = ',';
		if (pc_lw_name(&b, x->label, ",\"", pc_sink_csv_field, 0))
			return k->failed;
		b.out[b.L++] = ',';
		const int same = seg_ok && !memcmp(&x->count, &seg_count, sizeof seg_count) &&
				 !memcmp(&x->percent, &seg_pct, sizeof seg_pct);
		size_t s0 = b.L;
		if (same) {
			pc_lw_seg_put(&b, &sa);
		} else {
			pc_lw_count(&b, x->count);
			b.out[b.L++] = ',';
			pc_lw_fixed(&b, x->percent, 4);
		}
		size_t s0e = b.L;
		b.out[b.L++] = ',';
		pc_lw_fixed(&b, x->cum_percent, 4);
		b.out[b.L++] = ',';
		size_t s1 = b.L;
		if (rs->rate > 0) {
			if (same)
				pc_lw_seg_put(&b, &ss);
			else
				pc_lw_fixed(&b, x->count / rs->rate, 6);
		}
		if (!same) {
			seg_ok = pc_lw_seg_keep(&sa, b.out + s0, s0e - s0) &
				 pc_lw_seg_keep(&ss, b.out + s1, b.L - s1);
			seg_count = x->count;
			seg_pct = x->percent;
		}
		b.out[b.L++] = ',';
		pc_lw_u64(&b, x->calls);
		b.out[b.L++] = ',';
		pc_lw_u64(&b, x->self_calls);
		b.out[b.L++] = ',';
		if (x->region < 0) {
			if (x->segment != PC_NOSEG) {
				pc_lw_hex(&b, x->segment, 4); /* %04x */
				b.out[b.L++] = ':';
			}
			PC_LW_LIT(&b, "0x");
			pc_lw_hex(&b, x->address, 1);
		}
		if (ci) { /* ",%.4f,%.4f" */
			double lo, hi;
			pc_rowset_ci(rs, x->count, &lo, &hi);
			b.out[b.L++] = ',';
			pc_lw_fixed(&b, lo, 4);
			b.out[b.L++] = ',';
			pc_lw_fixed(&b, hi, 4);
		} else if (rs->ci_z > 0) {
			PC_LW_LIT(&b, ",,");
		}
		b.out[b.L++] = '\n';
		pc_lw_line_end(&b);
	}
	pc_lw_done(&b);
	const pc_itotals *t = &rs->t;
	csv_total(k, rs, "[total]", t->total, t->total);
	csv_total(k, rs, "[in program]", t->in_program, t->total);
	csv_total(k, rs, "[unattributed]", t->by_class[PC_REGION_APPLICATION], t->total);
	csv_total(k, rs, "[outside]", t->outside, t->total);
	for (int c = 1; c < PC_REGION_COUNT; c++)
		if (t->by_class[c] > 0) {
			char lab[64];
			snprintf(lab, sizeof lab, "[outside:%s]",
				 pc_region_class_name((pc_region_class)c));
			csv_total(k, rs, lab, t->by_class[c], t->total);
		}
	if (rs->filtered || rs->n < rs->selected) {
		/* what the text's "Showing:" line says: the listed rows'
		 * samples, and the filters and top that chose them */
		pc_sink lab;
		pc_sink_init(&lab);
		pc_sink_puts(&lab, "[listed: ");
		const char *sep = pc_filter_describe(rs->opts, &lab) ? ", " : "";
		if (rs->n < rs->selected)
			pc_sink_printf(&lab, "%stop %zu of %zu", sep, rs->top, rs->selected);
		pc_sink_putc(&lab, ']');
		if (lab.failed)
			k->failed = lab.failed;
		pc_sink_putc(k, ',');
		pc_sink_csv_field(k, lab.buf ? lab.buf : "");
		pc_sink_putc(k, ',');
		pc_sink_count(k, rs->listed);
		pc_sink_printf(k, ",%.4f", pct(rs->listed, rs->denom));
		csv_rest(k, rs);
		pc_sink_dispose(&lab);
	}
	return k->failed;
}

int pc_rowset_machine(pc_profile *p, const pc_rowset *rs, const char *report,
		      const char *style, void (*extra)(pc_sink *k, const void *arg),
		      const void *arg, pc_sink *k)
{
	if (rs->fmt == PC_OUT_CSV)
		pc_rowset_csv(p, rs, k);
	else
		pc_rowset_json(p, rs, report, style, extra, arg, k);
	return k->failed;
}

int pc_rowset_json(pc_profile *p, const pc_rowset *rs, const char *report,
		   const char *style, void (*extra)(pc_sink *k, const void *arg),
		   const void *arg, pc_sink *k)
{
	const pc_itotals *t = &rs->t;
	pc_sink_puts(k, "{\n  \"report\": ");
	pc_sink_json_string(k, report);
	if (style) {
		pc_sink_puts(k, ",\n  \"style\": ");
		pc_sink_json_string(k, style);
	}
	pc_sink_puts(k, ",\n  \"program\": ");
	if (pc_profile_program(p))
		pc_sink_json_string(k, pc_profile_program(p));
	else
		pc_sink_puts(k, "null");
	pc_sink_puts(k, ",\n  \"sources\": ");
	pc_rs_sources_json(k, p);
	pc_sink_puts(k, ",\n  \"rate_hz\": ");
	if (rs->rate > 0)
		pc_sink_printf(k, "%.17g", rs->rate);
	else
		pc_sink_puts(k, "null");
	pc_sink_puts(k, ",\n  \"dimension\": ");
	pc_sink_json_string(k, pc_profile_dimension(p));
	pc_sink_puts(k, ",\n  \"totals\": {\"total\": ");
	pc_sink_count(k, t->total);
	pc_sink_puts(k, ", \"in_program\": ");
	pc_sink_count(k, t->in_program);
	pc_sink_puts(k, ", \"attributed\": ");
	pc_sink_count(k, t->attributed);
	pc_sink_puts(k, ", \"unattributed\": ");
	pc_sink_count(k, t->by_class[PC_REGION_APPLICATION]);
	pc_sink_puts(k, ", \"outside\": ");
	pc_sink_count(k, t->outside);
	pc_sink_puts(k, ", \"by_class\": {");
	for (int c = 1; c < PC_REGION_COUNT; c++) {
		pc_sink_printf(k, "%s\"%s\": ", c > 1 ? ", " : "",
			       pc_region_class_name((pc_region_class)c));
		pc_sink_count(k, t->by_class[c]);
	}
	pc_sink_puts(k, "}}");
	if (pc_profile_lost_count(p)) { /* losses (SWO overflows) */
		pc_sink_printf(k, ",\n  \"lost\": {\"events\": %llu, \"first\": [",
			       (unsigned long long)pc_profile_lost_count(p));
		int64_t off;
		uint64_t after;
		for (size_t i = 0; pc_profile_lost_at(&off, &after, p, i) == PC_OK; i++)
			pc_sink_printf(k, "%s{\"offset\": %lld, \"after_samples\": %llu}",
				       i ? ", " : "", (long long)off, (unsigned long long)after);
		pc_sink_puts(k, "]}");
	}
	pc_sink_puts(k, ",\n  \"symbols\": ");
	pc_sink_printf(k, "%zu", rs->targets);
	pc_sink_printf(k, ",\n  \"percent_of\": \"%s\"",
		       rs->base == PC_BASE_PROGRAM ? "program" : "total");
	pc_sink_puts(k, ",\n  \"cutoff\": ");
	if (rs->has_cutoff)
		pc_sink_count(k, rs->cutoff);
	else
		pc_sink_puts(k, "null");
	if (rs->ci_z > 0)
		pc_sink_printf(k, ",\n  \"ci\": {\"level\": %g, \"method\": \"%s\"}",
			       rs->ci_level, rs->exact ? "none: exact counts" : "wilson");
	if (rs->filtered) {
		pc_sink_puts(k, ",\n  \"filters\": ");
		pc_filter_json(rs->opts, k);
	}
	if (rs->top)
		pc_sink_printf(k, ",\n  \"top\": %zu, \"selected\": %zu", rs->top, rs->selected);
	if (rs->filtered || rs->top) {
		pc_sink_puts(k, ",\n  \"listed\": ");
		pc_sink_count(k, rs->listed);
	}
	pc_sink_puts(k, ",\n  \"rows\": [");
	/* the numbers without printf (pc_fmt_fixed, pc_fmt_u64: the same
	 * bytes), each row straight into the sink's buffer; a row's one
	 * line end is at its start */
	pc_lw b;
	pc_lw_init(&b, k);
	pc_lw_seg sa = {0}, ss = {0};
	double seg_count = 0, seg_pct = 0;
	int seg_ok = 0;
	for (size_t i = 0; i < rs->n; i++) {
		pc_rs_row xb;
		const pc_rs_row *x = pc_rowset_row_machine(rs, i, &xb);
		if (pc_lw_row(&b))
			return k->failed;
		if (i)
			b.out[b.L++] = ',';
		PC_LW_LIT(&b, "\n    {");
		pc_lw_str(&b, pc_rs_fields[PC_RF_RANK].json_key + 2,
			  pc_rs_fields[PC_RF_RANK].json_len - 2);
		pc_lw_line_end(&b);
		pc_lw_u64(&b, x->rank);
		PC_LW_JSON_KEY(&b, PC_RF_SYMBOL);
		if (pc_lw_name(&b, x->label, "\"\\", pc_sink_json_string, '"'))
			return k->failed;
		if (x->region < 0) {
			if (x->segment != PC_NOSEG) {
				PC_LW_JSON_KEY(&b, PC_RF_SEGMENT);
				pc_lw_u64(&b, x->segment);
			}
			PC_LW_JSON_KEY(&b, PC_RF_ADDRESS);
			pc_lw_u64(&b, x->address);
		} else {
			const char *cls = pc_region_class_name((pc_region_class)x->region);
			PC_LW_JSON_KEY(&b, PC_RF_REGION);
			b.out[b.L++] = '"';
			pc_lw_str(&b, cls, strlen(cls));
			b.out[b.L++] = '"';
		}
		/* count and percent, and self_seconds and the interval, as
		 * pc_rowset_csv: copied when the count is the row above's */
		const int same = seg_ok && !memcmp(&x->count, &seg_count, sizeof seg_count) &&
				 !memcmp(&x->percent, &seg_pct, sizeof seg_pct);
		size_t s0 = b.L;
		if (same) {
			pc_lw_seg_put(&b, &sa);
		} else {
			PC_LW_JSON_KEY(&b, PC_RF_COUNT);
			pc_lw_count(&b, x->count);
			PC_LW_JSON_KEY(&b, PC_RF_PERCENT);
			pc_lw_fixed(&b, x->percent, 4);
		}
		size_t s0e = b.L;
		PC_LW_JSON_KEY(&b, PC_RF_CUM_PERCENT);
		pc_lw_fixed(&b, x->cum_percent, 4);
		size_t s1 = b.L;
		if (same) {
			pc_lw_seg_put(&b, &ss);
		} else {
			if (rs->rate > 0) {
				PC_LW_JSON_KEY(&b, PC_RF_SELF_SECONDS);
				pc_lw_fixed(&b, x->count / rs->rate, 6);
			}
			if (rs->ci_z > 0 && !rs->exact) {
				double lo, hi;
				pc_rowset_ci(rs, x->count, &lo, &hi);
				PC_LW_JSON_KEY(&b, PC_RF_CI_LOW);
				pc_lw_fixed(&b, lo, 4);
				PC_LW_JSON_KEY(&b, PC_RF_CI_HIGH);
				pc_lw_fixed(&b, hi, 4);
			}
			seg_ok = pc_lw_seg_keep(&sa, b.out + s0, s0e - s0) &
				 pc_lw_seg_keep(&ss, b.out + s1, b.L - s1);
			seg_count = x->count;
			seg_pct = x->percent;
		}
		PC_LW_JSON_KEY(&b, PC_RF_CALLS);
		pc_lw_u64(&b, x->calls);
		PC_LW_JSON_KEY(&b, PC_RF_SELF_CALLS);
		pc_lw_u64(&b, x->self_calls);
		b.out[b.L++] = '}';
	}
	pc_lw_done(&b);
	pc_sink_puts(k, rs->n ? "\n  ]" : "]");
	if (extra)
		extra(k, arg);
	pc_sink_puts(k, ",\n  \"warnings\": [");
	for (size_t i = 0; i < pc_profile_warning_count(p); i++) {
		if (i)
			pc_sink_puts(k, ", ");
		pc_sink_json_string(k, pc_profile_warning_at(p, i));
	}
	pc_sink_puts(k, "]\n}\n");
	return k->failed;
}

/* ---- the ci option --------------------------------------------------- */

int pc_ci_option(pc_profile *p, const pc_options *o, double *z, double *level)
{
	*z = 0;
	if (level)
		*level = 0;
	const char *v = pc_options_get(o, "ci");
	if (!v)
		return PC_OK;
	double c;
	if (pc_options_get_double(&c, NULL, o, "ci") != PC_OK || !(c > 0 && c < 100))
		return pc_profile_fail(p, PC_EUSAGE,
				       "option ci=%s; expected a confidence level in percent, above 0 and below 100 (e.g. 95)",
				       v);
	*z = pc_stats_z(c);
	if (level)
		*level = c;
	return PC_OK;
}

/* ---- intervals for the table reports -------------------------------------- */

void pc_rowset_ci(const pc_rowset *rs, double count, double *lo, double *hi)
{
	*lo = *hi = 0;
	if (!(rs->ci_z > 0) || rs->exact || !(rs->denom > 0))
		return;
	pc_stats_wilson(lo, hi, count, rs->denom, rs->ci_z);
	*lo *= 100;
	*hi *= 100;
}
