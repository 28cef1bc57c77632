/* lines.c - a profile seen per source line, per source file or per
 * address (option "granularity"; docs/source.md ("Source level")).
 *
 * Line granularity is gprof -l's: the symbol table becomes the function
 * symbols plus gprof's line symbols (dwarf.c pc_dwarf_line_syms), each
 * named "FUNCTION (FILE:LINE @ HEXADDR)" (FILE without its directories,
 * as gprof prints it; function symbols with DWARF at their address get
 * the same suffix), and histogram buckets are split among them by the
 * same proportional rule as among functions (attrib.c = gprof
 * hist_assign_samples).  At the same address a function symbol is kept
 * before a line symbol (gprof symtab_finalize: a line symbol is not a
 * function and takes its enclosing function's binding).  File
 * granularity names each line symbol by its file (rows of one file are
 * summed by the report); address granularity gives every sampled
 * address (histograms: every non-empty bucket start) a row
 * "FUNCTION+0xOFF @ HEXADDR".
 */
#include "dwarf_internal.h"
#include "model.h"
#include "internal.h"
#include "numfmt.h"

#include <stdlib.h>
#include <string.h>

int pc_profile_dwarf(pc_profile *p, const pc_options *opts, pc_dwarf **out)
{
	return pc_profile_dwarf_by(p, opts, pc_profile_row_find, out);
}

/* The names of a granular profile's symbols, made in its pool once: the
 * last file named, its base name (FILE without its directories, as
 * gprof prints it) and its copy in the pool, for the next symbols of the
 * same file. */
typedef struct namer {
	pc_profile *q;
	const char *file, *base, *pooled;
	size_t lbase;
} namer;

static void namer_file(namer *nm, const char *file)
{
	if (file == nm->file)
		return;
	nm->file = file;
	nm->base = pc_basename(file);
	nm->lbase = strlen(nm->base);
	nm->pooled = NULL;
}

/* file in q's pool (granularity file: every symbol of the file shares
 * one copy); NULL when out of memory */
static const char *file_name(namer *nm, const char *file)
{
	namer_file(nm, file);
	if (!nm->pooled)
		nm->pooled = pc_strpool_add(&nm->q->pool, file);
	return nm->pooled;
}

/* Two names equal (the same string first) */
static inline int same(const char *x, const char *y)
{
	return x == y || !strcmp(x, y);
}

/* snprintf(buf, cap, ...) of the parts below (cap > 0) */
static void put_cut(char *buf, size_t cap, size_t *n, const char *s, size_t len)
{
	if (len > cap - 1 - *n)
		len = cap - 1 - *n;
	memcpy(buf + *n, s, len);
	*n += len;
}

/* A line symbol's name, "%s (%s:%u @ %llx)" of fn, file's base name,
 * line and addr, made in q's pool (cut at NAME_CAP - 1 bytes, as a
 * 4096-byte buffer did); NULL when out of memory. */
enum { NAME_CAP = 4096 };
static const char *line_name(namer *nm, const char *fn, const char *file, unsigned line,
			     uint64_t addr)
{
	char tail[48], *e = tail + sizeof tail, *t = e;
	*--t = ')';
	do {
		*--t = "0123456789abcdef"[addr & 15];
		addr >>= 4;
	} while (addr);
	*--t = ' ';
	*--t = '@';
	*--t = ' ';
	t = pc_put_u32(t, line);
	*--t = ':';
	namer_file(nm, file);
	size_t lf = strlen(fn), lt = (size_t)(e - t), n = lf + 2 + nm->lbase + lt, k = 0;
	if (n > NAME_CAP - 1)
		n = NAME_CAP - 1;
	char *s = pc_strpool_alloc(&nm->q->pool, n);
	if (!s)
		return NULL;
	if (n == lf + 2 + nm->lbase + lt) { /* (not cut: every name but a
					     * few C++ ones) */
		memcpy(s, fn, lf);
		s[lf] = ' ';
		s[lf + 1] = '(';
		memcpy(s + lf + 2, nm->base, nm->lbase);
		memcpy(s + lf + 2 + nm->lbase, t, lt);
		return s;
	}
	put_cut(s, n + 1, &k, fn, lf);
	put_cut(s, n + 1, &k, " (", 2);
	put_cut(s, n + 1, &k, nm->base, nm->lbase);
	put_cut(s, n + 1, &k, t, lt);
	return s;
}

/* The first of ls[0, n) (address order) at or above a. */
static size_t linesym_from(const pc_linesym *ls, size_t n, uint64_t a)
{
	size_t lo = 0, hi = n;
	while (lo < hi) {
		size_t m = lo + (hi - lo) / 2;
		if (ls[m].addr < a)
			lo = m + 1;
		else
			hi = m;
	}
	return lo;
}

/* Function symbols (p's attribution targets), renamed for g, as q's
 * symbols 0 to p->ntargets - 1 (q has none before).  A line symbol at a
 * function's address (ls[0, nls)) holds the innermost frame there, the
 * one pc_dwarf_lookup_frames gives first (dwarf.c: frame0, or the given
 * line table's row that starts there): its file and line name the
 * function, without a lookup of its own.  The targets come in (segment,
 * address) order: the line symbol at each one's address is found from
 * the last one's place (sought again where the addresses go down, in
 * another segment). */
static int add_functions(pc_profile *p, pc_profile *q, pc_dwarf *d, pc_gran g,
			 const pc_linesym *ls, size_t nls, namer *nm)
{
	size_t j = 0;
	uint64_t last = 0;
	const pc_target *tg = p->targets;
	const size_t nt = p->ntargets;
	for (size_t i = 0; i < nt; i++) {
		/* the symbols come in address order, not their own, and so do
		 * their names: each read missed the cache unless asked for
		 * ahead (a third of the granular profile's time went there) */
		if (i + 16 < nt) { /* (both cache lines a symbol may span) */
			PC_PREFETCH(&p->syms[tg[i + 16].symbol]);
			PC_PREFETCH(&p->syms[tg[i + 16].symbol].flags);
		}
		if (i + 8 < nt)
			PC_PREFETCH(p->syms[tg[i + 8].symbol].name);
		const pc_symbol *s = &p->syms[tg[i].symbol];
		const char *name = s->name;
		if (g != PC_GRAN_ADDRESS) {
			if (s->address < last)
				j = linesym_from(ls, nls, s->address);
			last = s->address;
			while (j < nls && ls[j].addr < s->address)
				j++;
			const pc_linesym *l = j < nls && ls[j].addr == s->address ? &ls[j] : NULL;
			const char *file = l ? l->file : NULL;
			unsigned line = l ? l->line : 0;
			if (!l) {
				const pc_srcframe *f;
				size_t nf;
				int st = pc_dwarf_lookup_frames(d, s->address, &f, &nf);
				if (st)
					return pc_profile_dwarf_fail(p, pc_dwarf_error(d), st);
				/* gprof get_src_info: file, function and line */
				if (nf && f[0].file && f[0].function && f[0].line)
					file = f[0].file, line = f[0].line;
			}
			if (file) {
				name = g == PC_GRAN_FILE ? file_name(nm, file)
							 : line_name(nm, s->name, file, line, s->address);
				if (!name)
					return pc_profile_fail(p, PC_ENOMEM, "out of memory");
			}
		}
		pc_symbol x = *s;
		x.name = name;
		if (name != s->name ? pc_profile_add_symbol_kept(q, &x) : pc_profile_add_symbol(q, &x))
			return pc_profile_fail(p, PC_ENOMEM, "out of memory");
	}
	return PC_OK;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

/* "zero" given and not false: the report lists rows without samples */
static int wants_zero(const pc_options *opts)
{
	const char *z = pc_options_get(opts, "zero");
	if (!z)
		return 0;
	static const char *const no[] = {"0", "no", "off", "false"};
	for (size_t i = 0; i < 4; i++) {
		size_t k = 0;
		while (no[i][k] && (z[k] | 0x20) == no[i][k])
			k++;
		if (!no[i][k] && !z[k])
			return 0;
	}
	return 1;
}

/* Marks the function extents meeting [lo, hi) (extent i is [ta[i-1],
 * ta[i]), extent 0 below ta[0], extent nt from ta[nt-1] up): from the
 * one holding lo to the one holding hi - 1.  *pos is where the last call
 * ended, *last its lo: calls in address order walk the extents once. */
static void mark_extents(const uint64_t *ta, size_t nt, unsigned char *hit,
			 size_t *pos, uint64_t *last, uint64_t lo, uint64_t hi)
{
	size_t a = lo < *last ? 0 : *pos;
	*last = lo;
	while (a < nt && ta[a] <= lo)
		a++;
	*pos = a;
	hit[a] = 1;
	for (; a < nt && ta[a] < hi; a++)
		hit[a + 1] = 1;
}

/* The address ranges whose line symbols can get a share of a sample:
 * each function's extent (from its address to the next function's, so
 * the padding after it too) that holds a sampled address or meets a
 * non-empty histogram bucket, below the first function everything.
 * Every other line symbol would only split zero among zero-count rows
 * between two function symbols that stay, so leaving it out changes no
 * count.  *out NULL: all lines (segmented samples; out of memory is
 * reported as such). */
static int sampled_ranges(pc_profile *p, uint64_t **out, size_t *nout)
{
	*out = NULL;
	*nout = 0;
	size_t ns = pc_samples_distinct(p->samples);
	const pc_sample *sm = pc_samples_sorted(p->samples);
	if (ns && !sm)
		return PC_ENOMEM;
	for (size_t i = 0; i < ns; i++)
		if (sm[i].segment != PC_NOSEG)
			return PC_OK;
	for (size_t h = 0; h < p->nhists; h++)
		if (p->hists[h].h.segment != PC_NOSEG)
			return PC_OK;
	for (size_t i = 0; i < p->narcs; i++)
		if (p->arcs[i].from_segment != PC_NOSEG)
			return PC_OK;
	/* the function extents: [ta[i-1], ta[i]) is extent i, extent 0 is
	 * below the first function, extent nt from the last one up; the
	 * callers' addresses of the arcs, sorted */
	size_t nt = 0;
	uint64_t *ta = malloc((p->ntargets ? p->ntargets : 1) * sizeof *ta);
	unsigned char *hit = calloc(p->ntargets + 1, 1);
	uint64_t *fr = malloc((p->narcs ? p->narcs : 1) * sizeof *fr);
	if (!ta || !hit || !fr) {
		free(ta);
		free(hit);
		free(fr);
		return PC_ENOMEM;
	}
	/* (the targets are in (segment, address) order, attrib.c
	 * build_targets: these are sorted already) */
	for (size_t i = 0; i < p->ntargets; i++)
		if (p->targets[i].segment == PC_NOSEG)
			ta[nt++] = p->targets[i].address;
	/* samples (sorted) and each histogram's buckets come in address
	 * order: one walk over the extents for each */
	size_t pos = 0;
	uint64_t last = 0;
	for (size_t i = 0; i < ns; i++)
		mark_extents(ta, nt, hit, &pos, &last, sm[i].address, sm[i].address + 1);
	for (size_t h = 0; h < p->nhists; h++) {
		const pc_histogram *H = &p->hists[h].h;
		const uint64_t *c = H->counts;
		/* a bucket's lower edge in doubles (computed twice a run, not
		 * per bucket): within span * 2^-51 + 1 of the exact one, and
		 * the attribution's edges (attrib.c, in units) within that and
		 * a unit; each run is widened by more (m).  Wider is harmless:
		 * a function extent marked without samples only gets line
		 * symbols of no time, not shown.  (Not long double: its
		 * conversion to an integer sets the x87 rounding mode each
		 * time, which took 70% of pc_profile_granular's time.) */
		const uint64_t span = H->high - H->low;
		const double w = (double)span / (double)H->nbins;
		const uint64_t m = (span >> 49) + 2 * (uint64_t)H->unit + 4;
#define OFF(b) (w * (double)(b) >= 18446744073709551616.0 ? UINT64_MAX : (uint64_t)(w * (double)(b)))
		/* each run [b, b1) of non-empty buckets at once: the edges
		 * never go down, so the buckets of a run cover [its first
		 * one's lower edge, its last one's upper edge) */
		for (size_t b = 0, b1; b < H->nbins; b = b1) {
			if (!c[b]) {
				b1 = b + 1;
				continue;
			}
			for (b1 = b + 1; b1 < H->nbins && c[b1]; b1++)
				;
			uint64_t lo = OFF(b), hi = b1 == H->nbins ? span : OFF(b1);
			lo = lo > m ? H->low + (lo - m) : H->low;
			hi = hi < span && span - hi > m ? H->low + hi + m : H->high;
			mark_extents(ta, nt, hit, &pos, &last, lo ? lo - 1 : 0,
				     hi + 1 > hi ? hi + 1 : hi);
		}
#undef OFF
	}
	/* an arc's caller is the line symbol holding its call site (gprof
	 * cg_tally): a recursive call from inside a function without
	 * samples comes from one of its lines, not from its first one, and
	 * is an ordinary call, not a self-recursive one */
	for (size_t i = 0; i < p->narcs; i++)
		fr[i] = p->arcs[i].from;
	if (p->narcs)
		qsort(fr, p->narcs, sizeof *fr, cmp_u64);
	pos = 0;
	last = 0;
	for (size_t i = 0; i < p->narcs; i++)
		mark_extents(ta, nt, hit, &pos, &last, fr[i],
			     fr[i] + 1 > fr[i] ? fr[i] + 1 : fr[i]);
	free(fr);
	/* runs of marked extents, as address ranges */
	size_t k = 0;
	uint64_t *r = malloc((nt + 1) * 2 * sizeof *r);
	if (!r) {
		free(ta);
		free(hit);
		return PC_ENOMEM;
	}
	for (size_t i = 0; i <= nt; i++) {
		if (!hit[i])
			continue;
		uint64_t lo = i ? ta[i - 1] : 0, hi = i < nt ? ta[i] : UINT64_MAX;
		if (k && r[2 * k - 1] == lo)
			r[2 * k - 1] = hi;
		else {
			r[2 * k] = lo;
			r[2 * k++ + 1] = hi;
		}
	}
	free(ta);
	free(hit);
	*out = r;
	*nout = k;
	return PC_OK;
}

/* gprof's line symbols of p's sampled ranges (all: every one), *ls
 * malloc'ed (caller frees). */
static int line_syms(pc_profile *p, pc_dwarf *d, int all, pc_linesym **ls, size_t *n)
{
	uint64_t *rg = NULL;
	size_t nrg = 0;
	*ls = NULL;
	*n = 0;
	if (!all && sampled_ranges(p, &rg, &nrg))
		return pc_profile_fail(p, PC_ENOMEM, "out of memory");
	int st = rg ? pc_dwarf_line_syms_in(d, rg, nrg, ls, n) : pc_dwarf_line_syms(d, ls, n);
	free(rg);
	if (st)
		return pc_profile_dwarf_fail(p, pc_dwarf_error(d), st);
	return PC_OK;
}

/* The line symbols ls[0, n), after add_functions.  Each one's binding
 * (gprof: the previous line symbol's when it is of the same function and
 * file, else the enclosing function's) comes from the function target
 * holding its address, as pc_profile_row_find finds it: the last one of
 * the flat addresses at or below it, if it ends above it; the line
 * symbols come in address order, so that target is found from the last
 * one's.  A line symbol at a function's address with the function's
 * name has the name add_functions made for it (q's symbol of the same
 * index as the target). */
static int add_lines(pc_profile *p, pc_profile *q, pc_gran g, const pc_linesym *ls,
		     size_t n, namer *nm)
{
	pc_binding prevb = PC_BIND_GLOBAL;
	const pc_target *tg = p->targets;
	const size_t nt = p->ntargets;
	/* the first flat target, then the last one at or below ls[i] */
	size_t t = pc_attrib_seg_first(p, PC_NOSEG);
	for (size_t i = 0; i < n; i++) {
		const uint64_t a = ls[i].addr;
		while (t + 1 < nt && tg[t + 1].segment == PC_NOSEG && tg[t + 1].address <= a)
			t++;
		/* (the function symbols ahead asked for: at a function's
		 * address its name is read) */
		if (t + 8 < nt)
			PC_PREFETCH(&p->syms[tg[t + 8].symbol]);
		const int in = t < nt && tg[t].segment == PC_NOSEG && tg[t].address <= a &&
			       a < tg[t].end;
		pc_symbol s = {0};
		s.segment = PC_NOSEG;
		s.address = a;
		s.kind = PC_SYM_TEXT;
		if (i && same(ls[i - 1].file, ls[i].file) && same(ls[i - 1].function, ls[i].function)) {
			s.binding = prevb;
		} else {
			/* (q's copy of the function symbol, in target order:
			 * p's are read at random) */
			s.binding = in ? q->syms[t].binding : PC_BIND_GLOBAL;
			if (s.binding == PC_BIND_WEAK)
				s.binding = PC_BIND_GLOBAL;
		}
		prevb = s.binding;
		if (g == PC_GRAN_FILE)
			s.name = file_name(nm, ls[i].file);
		else if (in && tg[t].address == a && same(p->syms[tg[t].symbol].name, ls[i].function))
			s.name = q->syms[t].name;
		else
			s.name = line_name(nm, ls[i].function, ls[i].file, ls[i].line, a);
		if (!s.name || pc_profile_add_symbol_kept(q, &s))
			return pc_profile_fail(p, PC_ENOMEM, "out of memory");
	}
	return PC_OK;
}

/* A row per sampled address / non-empty histogram bucket. */
static int add_addresses(pc_profile *p, pc_profile *q)
{
	char buf[4096];
	size_t ns = pc_samples_distinct(p->samples);
	const pc_sample *sm = pc_samples_sorted(p->samples);
	if (ns && !sm)
		return pc_profile_fail(p, PC_ENOMEM, "out of memory");
	for (size_t pass = 0; pass < 2; pass++) {
		size_t nh = pass ? 0 : p->nhists;
		for (size_t h = 0; h < nh; h++) {
			const pc_histogram *H = &p->hists[h].h;
			long double w = (long double)(H->high - H->low) / (long double)H->nbins;
			for (size_t b = 0; b < H->nbins; b++) {
				if (!H->counts[b])
					continue;
				uint64_t a = H->low + (uint64_t)(w * (long double)b);
				a -= a % H->unit;
				int64_t t = pc_profile_row_find(p, H->segment, a);
				if (t < 0)
					continue;
				const pc_symbol *s = &p->syms[p->targets[t].symbol];
				if (a == s->address)
					continue;
				snprintf(buf, sizeof buf, "%s+0x%llx @ %llx", s->name,
					 (unsigned long long)(a - s->address),
					 (unsigned long long)a);
				pc_symbol x = *s;
				x.name = buf;
				x.address = a;
				x.size = 0;
				x.flags &= ~PC_SYMF_FUNC;
				if (pc_profile_add_symbol(q, &x))
					return pc_profile_fail(p, PC_ENOMEM, "out of memory");
			}
		}
		for (size_t i = 0; pass && i < ns; i++) {
			int64_t t = pc_profile_row_find(p, sm[i].segment, sm[i].address);
			if (t < 0)
				continue;
			const pc_symbol *s = &p->syms[p->targets[t].symbol];
			if (sm[i].address == s->address)
				continue;
			snprintf(buf, sizeof buf, "%s+0x%llx @ %llx", s->name,
				 (unsigned long long)(sm[i].address - s->address),
				 (unsigned long long)sm[i].address);
			pc_symbol x = *s;
			x.name = buf;
			x.address = sm[i].address;
			x.size = 0;
			x.flags &= ~PC_SYMF_FUNC;
			if (pc_profile_add_symbol(q, &x))
				return pc_profile_fail(p, PC_ENOMEM, "out of memory");
		}
	}
	return PC_OK;
}

int pc_profile_granular(pc_profile *p, const pc_options *opts, pc_profile **out)
{
	*out = NULL;
	const char *gs = pc_options_get(opts, "granularity");
	pc_gran g = pc_options_gran(opts);
	if (g == PC_GRAN_NONE || g == PC_GRAN_FUNCTION)
		return PC_OK;
	if (g == PC_GRAN_BAD)
		return pc_profile_fail(p, PC_EUSAGE,
				       "granularity must be function, line, file or address, not '%s'",
				       gs);
	int st;
	/* the function profile's targets (its functions, their extents):
	 * the line profile credits the counts itself */
	if ((st = pc_attrib_targets(p, pc_options_attrib(opts))))
		return st;
	if (pc_samples_binned(p->samples))
		return pc_profile_fail(p, PC_EUNSUPPORTED,
				       "granularity %s: the raw samples were counted per symbol, not per address (more than %zu distinct addresses); use granularity function",
				       gs, (size_t)1 << 17);
	pc_dwarf *d = NULL;
	if (g != PC_GRAN_ADDRESS && (st = pc_profile_dwarf(p, opts, &d)))
		return st;
	pc_profile *q;
	pc_profile_new(&q, p->reg);
	if (!q)
		return pc_profile_fail(p, PC_ENOMEM, "out of memory");
	q->exact = p->exact;
	/* "FUNCTION (FILE:LINE @ ADDR)", "FUNCTION+0xOFF @ ADDR": FUNCTION
	 * is shown demangled as the function's row */
	q->split_names = g != PC_GRAN_FILE;
	pc_samples_set_threads(q->samples, pc_samples_threads(p->samples));
	q->dimension = pc_strpool_add(&q->pool, p->dimension);
	q->abbrev = p->abbrev;
	if (!q->dimension) {
		pc_profile_free(q);
		return pc_profile_fail(p, PC_ENOMEM, "out of memory");
	}
	/* the line symbols first: those at the functions' addresses name
	 * them too; the function symbols are added first (at the same
	 * address a function symbol is kept) */
	pc_linesym *ls = NULL;
	size_t nls = 0;
	namer nm = {q, NULL, NULL, NULL, 0};
	st = g != PC_GRAN_ADDRESS ? line_syms(p, d, wants_zero(opts), &ls, &nls) : PC_OK;
	if (!st && pc_profile_reserve_symbols(q, p->ntargets + nls))
		st = pc_profile_fail(p, PC_ENOMEM, "out of memory");
	if (!st)
		st = add_functions(p, q, d, g, ls, nls, &nm);
	if (!st && g != PC_GRAN_ADDRESS)
		st = add_lines(p, q, g, ls, nls, &nm);
	free(ls);
	if (!st && g == PC_GRAN_ADDRESS)
		st = add_addresses(p, q);
	/* (p's histograms shared, not copied: q goes before p) */
	if (!st && pc_profile_merge_borrowing(q, p)) {
		const pc_error *e = pc_profile_error(q);
		st = pc_profile_fail(p, e ? e->code : PC_ENOMEM, "%s",
				     e ? e->message : "out of memory");
	}
	if (st) {
		pc_profile_free(q);
		return st;
	}
	/* gprof cg_tally: a call's callee is the function entered, never
	 * the line symbol holding the callee address (that address is past
	 * the entry when mcount is called after the prologue) */
	if (g != PC_GRAN_ADDRESS) {
		for (size_t i = 0; i < q->narcs; i++) {
			int64_t t = pc_profile_row_find(p, q->arcs[i].to_segment, q->arcs[i].to);
			if (t >= 0)
				q->arcs[i].to = p->targets[t].address;
		}
		for (size_t i = 0; i < q->ncalls; i++) {
			int64_t t = pc_profile_row_find(p, q->calls[i].segment, q->calls[i].address);
			if (t >= 0)
				q->calls[i].address = p->targets[t].address;
		}
		pc_profile_invalidate(q);
	}
	/* the notes and metadata reports may show */
	for (size_t i = 0; i < p->nmeta; i++)
		pc_profile_set_meta(q, p->meta_key[i], p->meta_val[i]);
	*out = q;
	return PC_OK;
}

size_t pc_profile_line_count(const pc_profile *p)
{
	return p->nlines;
}

int pc_profile_line_at(const pc_profile *p, size_t i, uint32_t *segment,
		       uint64_t *address, unsigned *line)
{
	if (i >= p->nlines)
		return PC_ENOTFOUND;
	*segment = p->lines[i].segment;
	*address = p->lines[i].address;
	*line = p->lines[i].line;
	return PC_OK;
}
