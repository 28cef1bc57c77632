/*
 * xmodel.c - what the exports share (export.h): the call-path model
 * every stack export, the HTML flame view and the stack filters read
 * (pc_xmodel), its tree (pc_xtree), and the small number and name
 * helpers.  The table of exports and their entry points are exports.c.
 */
#include "export.h"
#include "dwarf_internal.h"
#include "model.h"
#include "filter.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- small helpers --------------------------------------------------- */

int64_t pc_xround_next(pc_xround *r, double v)
{
	r->exact += v;
	int64_t target = (int64_t)llround(r->exact);
	int64_t out = target - r->emitted;
	r->emitted = target;
	return out;
}

int pc_sink_xnumber(pc_sink *k, double v)
{
	if (!isfinite(v))
		v = 0;
	if (v == floor(v) && fabs(v) < 1e15)
		return pc_sink_fixed(k, v, 0, 0);
	char buf[32];
	return pc_sink_write(k, buf, pc_fmt_g(buf, sizeof buf, v, 9));
}

int pc_sink_folded_name(pc_sink *k, const char *s)
{
	size_t start = k->len; /* the shown form, ';' (the separator) as '_' */
	if (pc_sink_name(k, s))
		return k->failed;
	for (size_t i = start; i < k->len; i++)
		if (k->buf[i] == ';')
			k->buf[i] = '_';
	return k->failed;
}

/* ---- building the view ----------------------------------------------- */

typedef struct rowext {
	uint32_t segment;
	uint64_t address, end;
	size_t frame;
} rowext;

typedef struct build {
	pc_xmodel *m;
	size_t cap_frames, cap_sites, cap_arcs, cap_chains, cap_path;
	int oom;
} build;

static int push_site(build *b, size_t frame, uint32_t seg, uint64_t addr,
		     double count, int has_address)
{
	pc_xmodel *m = b->m;
	if (pc_grow((void **)&m->sites, &b->cap_sites, m->nsites + 1,
		    sizeof *m->sites))
		return PC_ENOMEM;
	m->sites[m->nsites++] = (pc_xsite){frame, seg, addr, count,
					   has_address};
	return PC_OK;
}

static int cmp_rowext(const void *a, const void *b)
{
	const rowext *x = a, *y = b;
	if (x->segment != y->segment)
		return x->segment < y->segment ? -1 : 1;
	if (x->address != y->address)
		return x->address < y->address ? -1 : 1;
	return 0;
}

static int cmp_site(const void *a, const void *b)
{
	const pc_xsite *x = a, *y = b;
	if (x->frame != y->frame)
		return x->frame < y->frame ? -1 : 1;
	if (x->has_address != y->has_address)
		return x->has_address < y->has_address ? -1 : 1;
	if (x->segment != y->segment)
		return x->segment < y->segment ? -1 : 1;
	if (x->address != y->address)
		return x->address < y->address ? -1 : 1;
	return 0;
}

/* Sites usually come in order already (samples and buckets are walked in
 * address order, frames are rows in address order). */
static int sites_sorted(const pc_xmodel *m)
{
	for (size_t i = 1; i < m->nsites; i++)
		if (cmp_site(&m->sites[i - 1], &m->sites[i]) > 0)
			return 0;
	return 1;
}

static int cmp_arc(const void *a, const void *b)
{
	const pc_xarc *x = a, *y = b;
	if (x->caller != y->caller)
		return x->caller < y->caller ? -1 : 1;
	if (x->callee != y->callee)
		return x->callee < y->callee ? -1 : 1;
	if (x->from_segment != y->from_segment)
		return x->from_segment < y->from_segment ? -1 : 1;
	if (x->from != y->from)
		return x->from < y->from ? -1 : 1;
	return 0;
}

/* Bucket i's start address: low + floor(span * i / nbins), computed
 * without overflowing 64 bits. */
static uint64_t bin_edge(uint64_t low, uint64_t span, uint64_t nbins,
			 uint64_t i)
{
	uint64_t q = span / nbins, r = span % nbins;
	if (nbins <= UINT32_MAX && i <= nbins) /* r * i < 2^64: exact */
		return low + q * i + r * i / nbins;
	/* floor(r * i / nbins) with r < nbins: long division, one bit of i
	 * at a time; acc = fq * nbins + rem with rem < nbins throughout. */
	uint64_t fq = 0, rem = 0;
	for (int b = 63; b >= 0; b--) {
		fq <<= 1;
		if (rem >= nbins - rem) {
			rem -= nbins - rem;
			fq++;
		} else {
			rem <<= 1;
		}
		if ((i >> b) & 1) {
			if (rem >= nbins - r) {
				rem -= nbins - r;
				fq++;
			} else {
				rem += r;
			}
		}
	}
	return low + q * i + fq;
}

/* Per-address detail of the histograms: each bucket's count goes to the
 * rows it overlaps, in proportion to the overlap (bucket-start rule: all
 * of it to the row holding the bucket's first address). */
static int histogram_sites(build *b, const rowext *ext, size_t next,
			   int bucket_start)
{
	pc_xmodel *m = b->m;
	size_t nh = pc_profile_histogram_count(m->p);
	for (size_t h = 0; h < nh; h++) {
		pc_histogram hg;
		if (pc_profile_histogram_at(&hg, m->p, h) != PC_OK ||
		    hg.nbins == 0 || hg.high <= hg.low)
			continue;
		uint64_t span = hg.high - hg.low;
		/* first row of the segment that ends after low */
		size_t lo = 0, hi = next;
		while (lo < hi) {
			size_t mid = lo + (hi - lo) / 2;
			if (ext[mid].segment < hg.segment ||
			    (ext[mid].segment == hg.segment &&
			     ext[mid].end <= hg.low))
				lo = mid + 1;
			else
				hi = mid;
		}
		size_t j = lo;
		for (size_t i = 0; i < hg.nbins; i++) {
			uint64_t c = hg.counts[i];
			uint64_t blo = bin_edge(hg.low, span, hg.nbins, i);
			uint64_t bhi = bin_edge(hg.low, span, hg.nbins, i + 1);
			if (c == 0 || bhi <= blo)
				continue;
			while (j < next && ext[j].segment == hg.segment &&
			       ext[j].end <= blo)
				j++;
			for (size_t k = j; k < next &&
			     ext[k].segment == hg.segment &&
			     ext[k].address < bhi; k++) {
				uint64_t s = ext[k].address > blo ? ext[k].address
								  : blo;
				uint64_t e = ext[k].end < bhi ? ext[k].end : bhi;
				if (e <= s)
					continue;
				double w;
				if (bucket_start)
					w = (ext[k].address <= blo) ? (double)c : 0;
				else
					w = (double)c * (double)(e - s) /
					    (double)(bhi - blo);
				if (w > 0 &&
				    push_site(b, ext[k].frame, hg.segment, s, w, 1))
					return PC_ENOMEM;
			}
		}
	}
	return PC_OK;
}

size_t pc_xmodel_find_arc(const pc_xmodel *m, size_t caller, size_t callee)
{
	size_t lo = 0, hi = m->narcs;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const pc_xarc *a = &m->arcs[mid];
		if (a->caller < caller ||
		    (a->caller == caller && a->callee < callee))
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < m->narcs && m->arcs[lo].caller == caller &&
	    m->arcs[lo].callee == callee)
		return lo;
	return PC_XNONE;
}

/* Sorts the arcs by (caller, callee, call site) and merges equal pairs. */
static void merge_arcs(pc_xmodel *m)
{
	size_t n = m->narcs;
	if (n > 1)
		qsort(m->arcs, n, sizeof *m->arcs, cmp_arc);
	m->narcs = 0;
	m->self_arc_calls = 0;
	for (size_t i = 0; i < n; i++) {
		pc_xarc *a = &m->arcs[i];
		if (m->narcs && m->arcs[m->narcs - 1].caller == a->caller &&
		    m->arcs[m->narcs - 1].callee == a->callee) {
			pc_xarc *d = &m->arcs[m->narcs - 1];
			d->count = d->count + a->count < d->count
					   ? UINT64_MAX : d->count + a->count;
			d->ftime += a->ftime;
			continue;
		}
		m->arcs[m->narcs++] = *a;
		if (a->caller == a->callee)
			m->self_arc_calls += a->count;
	}
}

static int add_frame(build *b, pc_xframe fr)
{
	pc_xmodel *m = b->m;
	if (pc_grow((void **)&m->frames, &b->cap_frames, m->nframes + 1,
		    sizeof *m->frames))
		return PC_ENOMEM;
	m->frames[m->nframes++] = fr;
	return PC_OK;
}

static int cmp_chain(const void *ctx, size_t a, size_t b)
{
	const pc_xmodel *m = ctx;
	const pc_xchain *x = &m->chains[a], *y = &m->chains[b];
	for (size_t i = 0; i < x->depth && i < y->depth; i++) {
		size_t u = m->pathpool[x->first + i], v = m->pathpool[y->first + i];
		if (u != v)
			return u < v ? -1 : 1;
	}
	return x->depth < y->depth ? -1 : x->depth > y->depth;
}

/* Chains [first, nchains) of one leaf in path order (root first, by
 * frame index: a prefix tree in depth-first order), equal paths merged
 * (arc times: a measured caller and the split of the rest may give the
 * same path). */
static int sort_chains(pc_xmodel *m, size_t first)
{
	size_t n = m->nchains - first;
	if (n < 2)
		return PC_OK;
	size_t *ix = malloc(2 * n * sizeof *ix);
	pc_xchain *tmp = malloc(n * sizeof *tmp);
	if (!ix || !tmp) {
		free(ix);
		free(tmp);
		return PC_ENOMEM;
	}
	for (size_t i = 0; i < n; i++)
		ix[i] = first + i;
	pc_sort_idx(ix, n, ix + n, cmp_chain, m);
	size_t w = 0;
	for (size_t i = 0; i < n; i++) {
		if (w && cmp_chain(m, ix[i], ix[i - 1]) == 0) {
			tmp[w - 1].fraction += m->chains[ix[i]].fraction;
			continue;
		}
		tmp[w++] = m->chains[ix[i]];
	}
	memcpy(&m->chains[first], tmp, w * sizeof *tmp);
	m->nchains = first + w;
	free(ix);
	free(tmp);
	return PC_OK;
}

/* The samples of the chains flow through their arcs: each arc's
 * inclusive samples, from the chains (after building and after filtering). */
static void arcs_through_chains(pc_xmodel *m)
{
	for (size_t i = 0; i < m->narcs; i++)
		m->arcs[i].inclusive = 0;
	for (size_t c = 0; c < m->nchains; c++) {
		const pc_xchain *ch = &m->chains[c];
		double v = m->frames[ch->leaf].self * ch->fraction;
		for (size_t k = 0; k + 1 < ch->depth; k++) {
			size_t a = pc_xmodel_find_arc(m, m->pathpool[ch->first + k],
					    m->pathpool[ch->first + k + 1]);
			if (a != PC_XNONE)
				m->arcs[a].inclusive += v;
		}
	}
}

/* The chains: the call paths of libprofcore's call graph model
 * (pc_callgraph_paths: gprof's propagation, cycles as <cycle N>), or with
 * stacks=none one single-frame chain per frame.  Arcs into a cycle from
 * outside become caller -> <cycle N> and <cycle N> -> member; the arcs
 * inside a cycle are kept with their counts (no samples flow through
 * them). */
static int build_chains(build *b, const size_t *rowframe, size_t nrows,
			const pc_options *opts, int stacks)
{
	pc_xmodel *m = b->m;
	int rc = PC_OK;
	pc_callgraph *g = NULL;
	pc_cgpaths paths;
	memset(&paths, 0, sizeof paths);
	size_t *nodeframe = NULL;
	size_t trunc_frame = PC_XNONE;
	if (stacks && m->narcs) {
		/* callgraph-time: what the view counts */
		pc_callgraph_options go = PC_CALLGRAPH_OPTIONS_INIT;
		go.attrib = pc_options_attrib(opts);
		go.time = m->arc_time ? PC_CALLGRAPH_TIME_FLAT : PC_CALLGRAPH_TIME_SAMPLES;
		rc = pc_profile_callgraph(&g, m->p, &go);
		if (rc)
			return rc;
		size_t nn = pc_callgraph_node_count(g);
		size_t ncyc = pc_callgraph_cycle_count(g);
		nodeframe = malloc((nn ? nn : 1) * sizeof *nodeframe);
		m->cyclenames = malloc(ncyc * 24 + 1);
		if (!nodeframe || !m->cyclenames) {
			rc = PC_ENOMEM;
			goto out;
		}
		for (size_t i = 0; i < nn; i++)
			nodeframe[i] = i < nrows ? rowframe[i] : PC_XNONE;
		/* one frame per cycle */
		char *nb = m->cyclenames;
		for (unsigned c = 1; c <= ncyc; c++) {
			size_t node = pc_callgraph_cycle_index(g, c);
			int n = sprintf(nb, "<cycle %u>", c);
			nodeframe[node] = m->nframes;
			if (add_frame(b, (pc_xframe){.name = nb,
						      .segment = PC_NOSEG,
						      .row = -1,
						      .cls = -1,
						      .cycle = c})) {
				rc = PC_ENOMEM;
				goto out;
			}
			nb += n + 1;
		}
		/* arcs: entries into a cycle go through its frame */
		size_t n0 = m->narcs;
		for (size_t i = 0; i < n0; i++) {
			pc_xarc a = m->arcs[i];
			const pc_xframe *from = &m->frames[a.caller];
			const pc_xframe *to = &m->frames[a.callee];
			pc_icg_node nf, nt;
			if (a.caller == a.callee || from->row < 0 || to->row < 0 ||
			    pc_callgraph_inode_at(g, (size_t)from->row, &nf) ||
			    pc_callgraph_inode_at(g, (size_t)to->row, &nt) ||
			    nt.cycle == 0 || nf.cycle == nt.cycle)
				continue;
			m->arcs[i].callee =
				nodeframe[pc_callgraph_cycle_index(g, nt.cycle)];
		}
		/* <cycle N> -> member for every member, with the member's
		 * calls as gprof counts them in the cycle's entry (a path goes
		 * through it even when no outside call enters that member) */
		for (size_t r = 0; r < nrows; r++) {
			pc_icg_node nd;
			if (rowframe[r] == PC_XNONE ||
			    pc_callgraph_inode_at(g, r, &nd) || nd.cycle == 0)
				continue;
			if (pc_grow((void **)&m->arcs, &b->cap_arcs, m->narcs + 1,
				    sizeof *m->arcs)) {
				rc = PC_ENOMEM;
				goto out;
			}
			const pc_xframe *mf = &m->frames[rowframe[r]];
			m->arcs[m->narcs++] = (pc_xarc){
				nodeframe[pc_callgraph_cycle_index(g, nd.cycle)],
				rowframe[r], mf->segment, mf->address, nd.calls, 0, 0};
		}
		merge_arcs(m);
	}

	for (size_t f = 0; f < m->nframes; f++) {
		pc_xframe *fr = &m->frames[f];
		fr->first_chain = m->nchains;
		if (fr->self > 0) {
			paths.n = paths.npool = 0;
			if (g && fr->row >= 0) {
				rc = pc_callgraph_paths(g, (size_t)fr->row,
							m->arc_time, &paths);
				if (rc)
					goto out;
			} else {
				if (pc_grow((void **)&paths.v, &paths.cap, 1,
					    sizeof *paths.v) ||
				    pc_grow((void **)&paths.pool, &paths.cappool,
					    1, sizeof *paths.pool)) {
					rc = PC_ENOMEM;
					goto out;
				}
				paths.v[0] = (pc_cgpath){0, 1, fr->self};
				paths.pool[0] = PC_XNONE; /* this frame */
				paths.n = paths.npool = 1;
			}
			for (size_t i = 0; i < paths.n; i++) {
				const pc_cgpath *pa = &paths.v[i];
				if (pc_grow((void **)&m->chains, &b->cap_chains,
					    m->nchains + 1, sizeof *m->chains) ||
				    pc_grow((void **)&m->pathpool, &b->cap_path,
					    m->npath + pa->depth,
					    sizeof *m->pathpool)) {
					rc = PC_ENOMEM;
					goto out;
				}
				pc_xchain *c = &m->chains[m->nchains++];
				c->leaf = f;
				c->first = m->npath;
				c->depth = pa->depth;
				c->fraction = pa->weight / fr->self;
				if (pa->depth > 1)
					m->estimated = 1;
				/* root first */
				for (size_t k = pa->depth; k-- > 0;) {
					size_t node = paths.pool[pa->first + k];
					size_t fi;
					if (node == PC_XNONE) {
						fi = f;
					} else if (node == PC_CG_TRUNCATED) {
						if (trunc_frame == PC_XNONE) {
							trunc_frame = m->nframes;
							if (add_frame(b, (pc_xframe){
								    .name = "[call paths truncated]",
								    .segment = PC_NOSEG,
								    .row = -1,
								    .cls = -1})) {
								rc = PC_ENOMEM;
								goto out;
							}
							fr = &m->frames[f];
						}
						fi = trunc_frame;
					} else {
						fi = nodeframe[node];
					}
					m->pathpool[m->npath++] = fi;
				}
			}
		}
		rc = sort_chains(m, fr->first_chain);
		if (rc)
			goto out;
		fr->nchains = m->nchains - fr->first_chain;
	}
	m->truncated = paths.truncated;
	arcs_through_chains(m);
out:
	pc_cgpaths_free(&paths);
	free(nodeframe);
	pc_callgraph_free(g);
	return rc;
}

/* chains sorted by leaf, then path (root first) */
static int cmp_leaf_chain(const void *ctx, size_t a, size_t b)
{
	const pc_xmodel *m = ctx;
	if (m->chains[a].leaf != m->chains[b].leaf)
		return m->chains[a].leaf < m->chains[b].leaf ? -1 : 1;
	return cmp_chain(ctx, a, b);
}

/* --hide (pprof semantics, after focus and ignore): the frames matching
 * hide are taken out of every chain and the chain's samples stay with
 * what is left, so a hidden leaf's samples go to its nearest caller that
 * is not hidden (a site at that caller's start) and a chain of hidden
 * frames only is dropped.  The arcs through a hidden frame h connect its
 * callers to its callees: A -> B gets the calls of h -> B split among
 * the callers A in proportion to their calls of h (as the chains split
 * time), rounded.  Hidden frames keep no samples, sites, chains or arcs;
 * the totals stay those of the whole capture. */
static int hide_frames(pc_xmodel *m, pc_filter *f)
{
	size_t nf = m->nframes;
	int rc = PC_OK, any = 0;
	unsigned char *hidden = calloc(nf ? nf : 1, 1);
	double *moved = calloc(nf ? nf : 1, sizeof *moved);
	pc_xchain *nch = NULL;
	size_t *pool = NULL, *ix = NULL;
	if (!hidden || !moved) {
		rc = PC_ENOMEM;
		goto done;
	}
	for (size_t i = 0; i < nf; i++) {
		int h = pc_filter_match(m->p, f, f->hide,
					m->frames[i].name ? m->frames[i].name : "", NULL);
		if (h < 0) {
			rc = h;
			goto done;
		}
		hidden[i] = (unsigned char)(h != 0);
		any |= h;
	}
	if (!any)
		goto done;

	/* the chains without their hidden frames, weights in samples */
	size_t cn = 0, np = 0;
	nch = malloc((m->nchains ? m->nchains : 1) * sizeof *nch);
	pool = malloc((m->npath ? m->npath : 1) * sizeof *pool);
	if (!nch || !pool) {
		rc = PC_ENOMEM;
		goto done;
	}
	for (size_t c = 0; c < m->nchains; c++) {
		const pc_xchain *ch = &m->chains[c];
		double w = m->frames[ch->leaf].self * ch->fraction;
		size_t first = np;
		for (size_t k = 0; k < ch->depth; k++) {
			size_t fr = m->pathpool[ch->first + k];
			if (fr >= nf || !hidden[fr])
				pool[np++] = fr;
		}
		if (np == first || !(w > 0)) {
			np = first; /* every frame hidden: the sample goes */
			continue;
		}
		size_t leaf = pool[np - 1];
		if (leaf != ch->leaf)
			moved[leaf] += w;
		nch[cn++] = (pc_xchain){leaf, first, np - first, w};
	}
	for (size_t i = 0; i < nf; i++) {
		pc_xframe *fr = &m->frames[i];
		if (hidden[i])
			fr->self = 0;
		fr->self += moved[i];
		fr->nchains = 0;
		fr->first_chain = 0;
	}
	free(m->chains);
	free(m->pathpool);
	m->chains = nch;
	m->nchains = cn;
	m->pathpool = pool;
	m->npath = np;
	nch = NULL;
	pool = NULL;

	/* group by leaf, equal paths merged, fractions of the new self */
	ix = malloc((cn ? 2 * cn : 1) * sizeof *ix);
	pc_xchain *tmp = malloc((cn ? cn : 1) * sizeof *tmp);
	if (!ix || !tmp) {
		free(tmp);
		rc = PC_ENOMEM;
		goto done;
	}
	for (size_t i = 0; i < cn; i++)
		ix[i] = i;
	if (cn > 1)
		pc_sort_idx(ix, cn, ix + cn, cmp_leaf_chain, m);
	size_t w = 0;
	for (size_t i = 0; i < cn; i++) {
		const pc_xchain *ch = &m->chains[ix[i]];
		if (w && tmp[w - 1].leaf == ch->leaf &&
		    cmp_leaf_chain(m, ix[i], ix[i - 1]) == 0) {
			tmp[w - 1].fraction += ch->fraction;
			continue;
		}
		tmp[w++] = *ch;
	}
	for (size_t i = 0; i < w; i++) {
		pc_xframe *fr = &m->frames[tmp[i].leaf];
		if (fr->nchains == 0)
			fr->first_chain = i;
		fr->nchains++;
		tmp[i].fraction = fr->self > 0 ? tmp[i].fraction / fr->self : 0;
	}
	free(m->chains);
	m->chains = tmp;
	m->nchains = w;

	/* sites: the hidden frames' go, the moved samples get one at the
	 * start of the frame they went to */
	size_t ns = 0, extra = 0;
	for (size_t i = 0; i < nf; i++)
		extra += moved[i] > 0;
	pc_xsite *sites = malloc((m->nsites + extra ? m->nsites + extra : 1) *
				 sizeof *sites);
	if (!sites) {
		rc = PC_ENOMEM;
		goto done;
	}
	for (size_t i = 0; i < m->nsites; i++)
		if (!hidden[m->sites[i].frame])
			sites[ns++] = m->sites[i];
	for (size_t i = 0; i < nf; i++)
		if (moved[i] > 0)
			sites[ns++] = (pc_xsite){i, m->frames[i].segment,
						 m->frames[i].address, moved[i],
						 m->frames[i].row >= 0};
	qsort(sites, ns, sizeof *sites, cmp_site);
	w = 0;
	for (size_t i = 0; i < ns; i++) {
		if (w && cmp_site(&sites[w - 1], &sites[i]) == 0)
			sites[w - 1].count += sites[i].count;
		else
			sites[w++] = sites[i];
	}
	free(m->sites);
	m->sites = sites;
	m->nsites = w;
	for (size_t i = 0, fi = 0; fi < nf; fi++) {
		m->frames[fi].first_site = i;
		while (i < m->nsites && m->sites[i].frame == fi)
			i++;
		m->frames[fi].nsites = i - m->frames[fi].first_site;
	}

	/* arcs: each hidden frame's callers joined to its callees */
	for (size_t h = 0; h < nf; h++) {
		if (!hidden[h])
			continue;
		uint64_t in = 0;
		size_t nin = 0, nout = 0;
		for (size_t i = 0; i < m->narcs; i++) {
			const pc_xarc *a = &m->arcs[i];
			if (a->callee == h && a->caller != h) {
				in += a->count;
				nin++;
			}
			if (a->caller == h && a->callee != h)
				nout++;
		}
		if (nout && nin > (SIZE_MAX / sizeof(pc_xarc) - m->narcs - 1) / nout) {
			rc = PC_ENOMEM;
			goto done;
		}
		size_t cap = m->narcs + nin * nout;
		pc_xarc *arcs = malloc((cap ? cap : 1) * sizeof *arcs);
		if (!arcs) {
			rc = PC_ENOMEM;
			goto done;
		}
		size_t na = 0;
		for (size_t i = 0; i < m->narcs; i++) {
			const pc_xarc *a = &m->arcs[i];
			if (a->caller != h && a->callee != h)
				arcs[na++] = *a;
		}
		for (size_t i = 0; i < m->narcs && in > 0; i++) {
			const pc_xarc *a = &m->arcs[i];
			if (a->callee != h || a->caller == h)
				continue;
			for (size_t j = 0; j < m->narcs; j++) {
				const pc_xarc *b = &m->arcs[j];
				if (b->caller != h || b->callee == h)
					continue;
				double c = (double)b->count * ((double)a->count / (double)in);
				arcs[na++] = (pc_xarc){a->caller, b->callee, a->from_segment,
						       a->from,
						       c >= 9.0e18 ? UINT64_MAX
								   : (uint64_t)llround(c),
						       0, 0};
			}
		}
		free(m->arcs);
		m->arcs = arcs;
		m->narcs = na;
		merge_arcs(m);
	}
	arcs_through_chains(m);
done:
	free(nch);
	free(pool);
	free(ix);
	free(hidden);
	free(moved);
	return rc;
}

/* --focus / --ignore (pprof semantics, issue #24): a chain (one stack
 * of a leaf's samples) is kept when some frame of it matches focus and
 * none matches ignore.  The leaf keeps the samples of its kept chains:
 * its self count and its sites are scaled by their share, the kept
 * chains' fractions renormalised so that each still carries the same
 * samples, and the arcs' inclusive samples counted again.  The totals
 * stay those of the whole capture (pprof's percentages).  Call counts
 * are not samples and stay. */
static int filter_chains(pc_xmodel *m, const pc_options *opts)
{
	pc_filter f;
	int rc = pc_filter_init(m->p, opts, &f);
	if (rc || !(f.focus || f.ignore)) {
		if (!rc && f.hide)
			rc = hide_frames(m, &f);
		pc_filter_dispose(&f);
		return rc;
	}
	size_t nf = m->nframes;
	unsigned char *hit = calloc(nf ? nf : 1, 1); /* 1 focus, 2 ignore */
	double *scale = calloc(nf ? nf : 1, sizeof *scale);
	if (!hit || !scale) {
		rc = PC_ENOMEM;
		goto done;
	}
	for (size_t i = 0; i < nf; i++) {
		const char *name = m->frames[i].name ? m->frames[i].name : "";
		int a = pc_filter_match(m->p, &f, f.focus, name, NULL);
		int b = pc_filter_match(m->p, &f, f.ignore, name, NULL);
		if (a < 0 || b < 0) {
			rc = a < 0 ? a : b;
			goto done;
		}
		hit[i] = (unsigned char)((a ? 1 : 0) | (b ? 2 : 0));
	}
	size_t w = 0;
	for (size_t i = 0; i < nf; i++) {
		pc_xframe *fr = &m->frames[i];
		size_t first = w;
		double all = 0, kept = 0;
		for (size_t c = fr->first_chain; c < fr->first_chain + fr->nchains; c++) {
			pc_xchain ch = m->chains[c];
			int focus = !f.focus, ignore = 0;
			for (size_t k = 0; k < ch.depth; k++) {
				unsigned char h = hit[m->pathpool[ch.first + k]];
				focus |= h & 1;
				ignore |= (h & 2) != 0;
			}
			all += ch.fraction;
			if (focus && !ignore) {
				kept += ch.fraction;
				m->chains[w++] = ch;
			}
		}
		fr->first_chain = first;
		fr->nchains = w - first;
		scale[i] = all > 0 ? kept / all : 1.0;
		for (size_t c = first; c < w && kept > 0; c++)
			m->chains[c].fraction /= kept;
		fr->self *= scale[i];
	}
	m->nchains = w;
	/* sites: scaled with their frame, the empty ones dropped */
	w = 0;
	for (size_t i = 0; i < m->nsites; i++) {
		pc_xsite st = m->sites[i];
		st.count *= scale[st.frame];
		if (st.count > 0)
			m->sites[w++] = st;
	}
	m->nsites = w;
	for (size_t i = 0, fi = 0; fi < nf; fi++) {
		m->frames[fi].first_site = i;
		while (i < m->nsites && m->sites[i].frame == fi)
			i++;
		m->frames[fi].nsites = i - m->frames[fi].first_site;
	}
	arcs_through_chains(m);
done:
	free(hit);
	free(scale);
	if (!rc && f.hide)
		rc = hide_frames(m, &f);
	pc_filter_dispose(&f);
	return rc;
}

typedef struct rawarc {
	size_t ri, rj;
	pc_arc a;
} rawarc;

int pc_xmodel_build(pc_xmodel *m, pc_profile *p, const pc_options *opts)
{
	memset(m, 0, sizeof *m);
	m->p = p;
	pc_gran gran = pc_options_gran(opts);
	if (gran == PC_GRAN_FUNCTION)
		m->by_symbol = 1;
	else if (gran == PC_GRAN_LINE)
		m->lines = 1;
	else if (gran != PC_GRAN_NONE && gran != PC_GRAN_ADDRESS)
		return pc_profile_fail(p, PC_EUSAGE,
				       "granularity '%s': expected function, "
				       "symbol, line or address for an export",
				       pc_options_get(opts, "granularity"));
	const char *st = pc_options_get(opts, "stacks");
	int stacks = 1;
	if (st && strcmp(st, "none") == 0)
		stacks = 0;
	else if (st && strcmp(st, "estimate") != 0 && strcmp(st, "marked") != 0)
		return pc_profile_fail(p, PC_EUSAGE,
				       "stacks '%s': expected estimate, marked "
				       "or none", st);
	m->marked = st && strcmp(st, "marked") == 0;
	const pc_attrib_options *ao = pc_options_attrib(opts);
	int bucket_start = ao && ao->rule == PC_ATTRIBUTION_BUCKET_START;

	int rc = pc_profile_attribute(p, pc_options_attrib(opts));
	if (rc)
		return rc;
	rc = pc_profile_itotals(p, &m->totals);
	if (rc)
		return rc;
	m->rate = pc_profile_rate(p);
	if (!(m->rate > 0) || !isfinite(m->rate))
		m->rate = 0;

	build b;
	memset(&b, 0, sizeof b);
	b.m = m;
	size_t nrows = pc_profile_rows(p);
	size_t narcs_in = pc_profile_arc_count(p);
	size_t *rowframe = malloc((nrows ? nrows : 1) * sizeof *rowframe);
	unsigned char *used = calloc(nrows ? nrows : 1, 1);
	rawarc *ra = malloc((narcs_in ? narcs_in : 1) * sizeof *ra);
	rowext *ext = malloc((nrows ? nrows : 1) * sizeof *ext);
	size_t nra = 0, next = 0;
	rc = PC_ENOMEM;
	if (!rowframe || !used || !ra || !ext)
		goto out;

	/* arcs whose both ends fall in rows (gprof drops the others) */
	for (size_t i = 0; i < narcs_in; i++) {
		pc_arc a;
		if (pc_profile_arc_at(&a, p, i) != PC_OK)
			continue;
		int64_t ri = pc_profile_row_find(p, a.from_segment, a.from);
		int64_t rj = pc_profile_row_find(p, a.to_segment, a.to);
		if (ri < 0 || rj < 0 || a.count == 0)
			continue;
		ra[nra++] = (rawarc){(size_t)ri, (size_t)rj, a};
		used[ri] = used[rj] = 1;
	}

	/* frames: rows with samples or arcs, then pseudo-frames */
	for (size_t r = 0; r < nrows; r++) {
		pc_row row;
		rowframe[r] = PC_XNONE;
		if (pc_profile_row_at(&row, p, r) != PC_OK)
			continue;
		if (!(row.count > 0) && !used[r])
			continue;
		if (pc_grow((void **)&m->frames, &b.cap_frames, m->nframes + 1,
			    sizeof *m->frames))
			goto out;
		pc_symbol sym;
		const char *file = NULL;
		if (pc_profile_symbol_at(&sym, p, row.symbol) == PC_OK)
			file = sym.file;
		rowframe[r] = m->nframes;
		m->frames[m->nframes++] = (pc_xframe){
			.name = row.name ? row.name : "?",
			.file = file,
			.segment = row.segment,
			.address = row.address,
			.end = row.end,
			.row = (int64_t)r,
			.cls = -1,
			.self = row.count > 0 ? row.count : 0,
		};
		ext[next++] = (rowext){row.segment, row.address, row.end,
				       m->nframes - 1};
		if (row.segment != PC_NOSEG)
			m->segmented = 1;
	}
	size_t namelen = 0;
	for (int c = 0; c < PC_REGION_COUNT; c++)
		namelen += strlen(pc_region_class_name((pc_region_class)c)) + 3;
	namelen += sizeof "unattributed";
	m->namebuf = malloc(namelen);
	if (!m->namebuf)
		goto out;
	char *nb = m->namebuf;
	for (int c = 0; c < PC_REGION_COUNT; c++) {
		if (!(m->totals.by_class[c] > 0))
			continue;
		if (pc_grow((void **)&m->frames, &b.cap_frames, m->nframes + 1,
			    sizeof *m->frames))
			goto out;
		/* in the program's code but in no symbol: "[unattributed]",
		 * as the reports call it */
		size_t n = (size_t)sprintf(nb, "[%s]",
					   c == PC_REGION_APPLICATION
						   ? "unattributed"
						   : pc_region_class_name((pc_region_class)c));
		m->frames[m->nframes++] = (pc_xframe){
			.name = nb,
			.segment = PC_NOSEG,
			.row = -1,
			.cls = c,
			.self = m->totals.by_class[c],
		};
		nb += n + 1;
	}

	/* arcs on frames, merged per (caller, callee) */
	m->arcs = malloc((nra ? nra : 1) * sizeof *m->arcs);
	if (!m->arcs)
		goto out;
	for (size_t i = 0; i < nra; i++)
		m->arcs[i] = (pc_xarc){rowframe[ra[i].ri], rowframe[ra[i].rj],
				       ra[i].a.from_segment, ra[i].a.from,
				       ra[i].a.count, 0, ra[i].a.ftime};
	m->narcs = nra;
	b.cap_arcs = nra ? nra : 1;
	merge_arcs(m);

	/* no sample at all but timed arcs: export the arcs' flat times */
	m->value_type = "samples";
	m->value_unit = "count";
	if (!(m->totals.total > 0)) {
		for (size_t i = 0; i < m->narcs; i++)
			if (m->arcs[i].ftime > 0 && isfinite(m->arcs[i].ftime))
				m->arc_time = 1;
		if (m->arc_time) {
			m->value_type = "time";
			m->value_unit = "microseconds";
			for (size_t i = 0; i < m->narcs; i++)
				if (m->arcs[i].ftime > 0 &&
				    isfinite(m->arcs[i].ftime))
					m->frames[m->arcs[i].callee].self +=
						m->arcs[i].ftime;
		}
	}

	/* sites: raw samples, histogram buckets, fallbacks */
	size_t ns = pc_profile_sample_count(p);
	for (size_t i = 0; i < ns; i++) {
		uint32_t seg;
		uint64_t addr, cnt;
		if (pc_profile_sample_at(&seg, &addr, &cnt, p, i) != PC_OK ||
		    cnt == 0)
			continue;
		int64_t r = pc_profile_row_find(p, seg, addr);
		if (r < 0 || (size_t)r >= nrows || rowframe[r] == PC_XNONE)
			continue;
		if (push_site(&b, rowframe[r], seg, addr, (double)cnt, 1))
			goto out;
	}
	qsort(ext, next, sizeof *ext, cmp_rowext);
	if (m->lines) {
		/* sites: gprof -l's line symbols (lines.c), each at the
		 * address where its line starts, so that the counts per line
		 * are --granularity line's */
		m->nsites = 0;
		pc_profile *q = NULL;
		rc = pc_profile_granular(p, opts, &q);
		if (!rc)
			rc = pc_profile_dwarf(p, opts, &m->dwarf);
		if (!rc && q && pc_profile_attribute(q, NULL) != PC_OK) {
			const pc_error *e = pc_profile_error(q);
			rc = pc_profile_fail(p, e ? e->code : PC_ENOMEM, "%s",
					     e ? e->message : "out of memory");
		}
		for (size_t i = 0; !rc && q && i < q->ntargets; i++) {
			const pc_target *tg = &q->targets[i];
			if (!(tg->count > 0) || tg->excluded)
				continue;
			int64_t r = pc_profile_row_find(p, tg->segment, tg->address);
			if (r < 0 || (size_t)r >= nrows || rowframe[r] == PC_XNONE)
				continue;
			if (push_site(&b, rowframe[r], tg->segment, tg->address,
				      tg->count, 1))
				rc = PC_ENOMEM;
		}
		pc_profile_free(q);
		if (rc)
			goto out;
		rc = PC_ENOMEM;
	} else if (histogram_sites(&b, ext, next, bucket_start)) {
		goto out;
	}
	if (!sites_sorted(m))
		qsort(m->sites, m->nsites, sizeof *m->sites, cmp_site);
	{
		/* merge equal sites, then scale every frame's sites to its
		 * attributed count */
		size_t w = 0;
		for (size_t i = 0; i < m->nsites; i++) {
			if (w && cmp_site(&m->sites[w - 1], &m->sites[i]) == 0)
				m->sites[w - 1].count += m->sites[i].count;
			else
				m->sites[w++] = m->sites[i];
		}
		m->nsites = w;
		size_t i = 0, old = m->nsites;
		for (size_t f = 0; f < m->nframes; f++) {
			double sum = 0;
			size_t j = i;
			while (j < old && m->sites[j].frame == f)
				sum += m->sites[j++].count;
			double self = m->frames[f].self;
			for (size_t k = i; k < j; k++)
				m->sites[k].count = sum > 0
					? m->sites[k].count * (self / sum) : 0;
			if (!(sum > 0) && self > 0 &&
			    push_site(&b, f, m->frames[f].segment,
				      m->frames[f].address, self,
				      m->frames[f].row >= 0))
				goto out;
			i = j;
		}
		if (!sites_sorted(m))
			qsort(m->sites, m->nsites, sizeof *m->sites, cmp_site);
		/* drop empty sites, index the rest per frame */
		w = 0;
		for (size_t k = 0; k < m->nsites; k++)
			if (m->sites[k].count > 0)
				m->sites[w++] = m->sites[k];
		m->nsites = w;
		i = 0;
		for (size_t f = 0; f < m->nframes; f++) {
			m->frames[f].first_site = i;
			while (i < m->nsites && m->sites[i].frame == f)
				i++;
			m->frames[f].nsites = i - m->frames[f].first_site;
		}
	}

	rc = build_chains(&b, rowframe, nrows, opts, stacks);
	if (!rc)
		rc = filter_chains(m, opts);
	if (!rc) {
		pc_sink fk;
		pc_sink_init(&fk);
		if (pc_filter_describe(opts, &fk) && !fk.failed)
			m->filters = fk.buf;
		else
			pc_sink_dispose(&fk);
		if (fk.failed)
			rc = PC_ENOMEM;
	}
out:
	if (rc == PC_ENOMEM)
		pc_profile_fail(p, PC_ENOMEM, "out of memory building the export");
	free(rowframe);
	free(used);
	free(ra);
	free(ext);
	if (rc)
		pc_xmodel_free(m);
	return rc;
}

int pc_xmodel_srcpos(const pc_xmodel *m, size_t f, uint64_t address,
		     const char **file, unsigned *line, const char **ofile,
		     unsigned *oline)
{
	const pc_srcframe *sf;
	size_t n = 0;
	*file = *ofile = NULL;
	*line = *oline = 0;
	if (!m->dwarf || f >= m->nframes || m->frames[f].row < 0 ||
	    pc_dwarf_lookup_frames(m->dwarf, address, &sf, &n) || !n)
		return 0;
	*file = sf[0].file;
	*line = sf[0].line;
	*ofile = sf[n - 1].file;
	*oline = sf[n - 1].line;
	return 1;
}

/* pc_xtree_build: the chains in path order walked as a prefix tree,
 * three times (the values of all nodes, for the threshold; which chains'
 * tails fall below it; the kept nodes), never holding more than the
 * chains, one stack and the kept nodes. */
typedef struct xtwalk {
	const pc_xmodel *m;
	const size_t *rank; /* frame (nframes: [estimated]) -> sibling order */
	size_t *order;      /* the chains with samples, in path order */
	size_t n;
	size_t *keep;       /* per place in order: the frames kept */
} xtwalk;

/* frame i of chain c: under the [estimated] root with stacks=marked */
static size_t xt_len(const xtwalk *w, size_t c)
{
	const pc_xchain *ch = &w->m->chains[c];
	return ch->depth + (w->m->marked && ch->depth > 1);
}

static size_t xt_frame(const xtwalk *w, size_t c, size_t i)
{
	const pc_xchain *ch = &w->m->chains[c];
	if (w->m->marked && ch->depth > 1) {
		if (i == 0)
			return w->m->nframes;
		i--;
	}
	return w->m->pathpool[ch->first + i];
}

static double xt_value(const xtwalk *w, size_t c)
{
	const pc_xchain *ch = &w->m->chains[c];
	return w->m->frames[ch->leaf].self * ch->fraction;
}

static int xt_cmp(const void *ctx, size_t a, size_t b)
{
	const xtwalk *w = ctx;
	size_t la = xt_len(w, a), lb = xt_len(w, b);
	for (size_t i = 0; i < la && i < lb; i++) {
		size_t u = w->rank[xt_frame(w, a, i)], v = w->rank[xt_frame(w, b, i)];
		if (u != v)
			return u < v ? -1 : 1;
	}
	return la < lb ? -1 : la > lb;
}

static const char *xt_name(const xtwalk *w, size_t f)
{
	return f < w->m->nframes ? w->m->frames[f].name : "[estimated]";
}

static int xt_cmp_name(const void *ctx, size_t a, size_t b)
{
	int c = strcmp(xt_name(ctx, a), xt_name(ctx, b));
	return c ? c : (a < b ? -1 : a > b);
}

/* The walk's passes: 0 the values of every node into hist (nodes below
 * thr counted in *below), 1 the kept length of each chain (the nodes
 * kept counted in *below), 2 the nodes. */
typedef struct xtstack {
	size_t *frame, *first, *node;
	double *value;
} xtstack;

#define XT_EXP0 1100 /* frexp exponents -1074..1024, offset */

static void xt_close(xtwalk *w, xtstack *st, size_t d, size_t upto, int pass,
		     double thr, size_t *hist, size_t *below)
{
	double v = st->value[d];
	if (pass == 0) {
		if (v < thr) {
			(*below)++;
		} else {
			int e;
			frexp(v, &e);
			hist[e + XT_EXP0]++;
		}
	} else if (pass == 1 && v < thr) {
		for (size_t k = st->first[d]; k < upto; k++)
			if (w->keep[k] > d)
				w->keep[k] = d;
	} else if (pass == 1) {
		(*below)++; /* here: the nodes kept */
	}
}

static void xt_walk(xtwalk *w, xtstack *st, int pass, double thr,
		    size_t *hist, size_t *below, pc_xtree *t)
{
	size_t sp = 0, prev = PC_XNONE;
	for (size_t k = 0; k < w->n; k++) {
		size_t c = w->order[k];
		size_t len = pass == 2 ? w->keep[k] : xt_len(w, c);
		size_t common = 0;
		if (prev != PC_XNONE)
			while (common < sp && common < len &&
			       st->frame[common] == xt_frame(w, c, common))
				common++;
		while (sp > common)
			xt_close(w, st, --sp, k, pass, thr, hist, below);
		for (; sp < len; sp++) {
			st->frame[sp] = xt_frame(w, c, sp);
			st->first[sp] = k;
			st->value[sp] = 0;
			if (pass == 2) {
				t->v[t->n] = (pc_xnode){st->frame[sp], sp, 0};
				st->node[sp] = t->n++;
			}
		}
		double v = xt_value(w, c);
		for (size_t d = 0; d < len; d++) {
			st->value[d] += v;
			if (pass == 2)
				t->v[st->node[d]].value += v;
		}
		prev = c;
	}
	while (sp > 0)
		xt_close(w, st, --sp, w->n, pass, thr, hist, below);
}

int pc_xtree_build(pc_xtree *t, const pc_xmodel *m, int by_name,
		   double min_value, size_t budget)
{
	memset(t, 0, sizeof *t);
	xtwalk w = {.m = m};
	xtstack st = {0};
	size_t nf = m->nframes + 1, maxlen = 1;
	size_t *rank = malloc(nf * sizeof *rank), *tmp = NULL;
	size_t *hist = calloc(2 * XT_EXP0, sizeof *hist);
	w.order = malloc((m->nchains ? m->nchains : 1) * sizeof *w.order);
	int rc = PC_ENOMEM;
	if (!rank || !hist || !w.order)
		goto out;
	for (size_t c = 0; c < m->nchains; c++) {
		double v = xt_value(&w, c);
		if (!(v > 0))
			continue;
		t->total += v;
		w.order[w.n++] = c;
		if (xt_len(&w, c) > maxlen)
			maxlen = xt_len(&w, c);
	}
	tmp = malloc((w.n > nf ? w.n : nf) * sizeof *tmp);
	w.keep = malloc((w.n ? w.n : 1) * sizeof *w.keep);
	st.frame = malloc(maxlen * sizeof *st.frame);
	st.first = malloc(maxlen * sizeof *st.first);
	st.node = malloc(maxlen * sizeof *st.node);
	st.value = malloc(maxlen * sizeof *st.value);
	if (!tmp || !w.keep || !st.frame || !st.first || !st.node || !st.value)
		goto out;
	if (by_name) {
		size_t *ix = malloc(nf * sizeof *ix);
		if (!ix)
			goto out;
		for (size_t f = 0; f < nf; f++)
			ix[f] = f;
		pc_sort_idx(ix, nf, tmp, xt_cmp_name, &w);
		for (size_t f = 0; f < nf; f++)
			rank[ix[f]] = f;
		free(ix);
	} else {
		for (size_t f = 0; f < nf; f++)
			rank[f] = f;
	}
	w.rank = rank;
	pc_sort_idx(w.order, w.n, tmp, xt_cmp, &w);

	/* the threshold: min_value, raised to a power of two while more
	 * than budget nodes would be kept */
	size_t below = 0, all = 0, kept = 0;
	xt_walk(&w, &st, 0, min_value, hist, &below, t);
	double thr = min_value;
	for (size_t e = 2 * XT_EXP0; e-- > 0;) {
		if (kept + hist[e] > budget) {
			double edge = ldexp(0.5, (int)e - XT_EXP0 + 1);
			if (edge > thr)
				thr = edge;
			break;
		}
		kept += hist[e];
	}
	for (size_t e = 0; e < 2 * XT_EXP0; e++)
		all += hist[e];
	all += below;
	for (size_t k = 0; k < w.n; k++)
		w.keep[k] = xt_len(&w, w.order[k]);
	size_t nn = 0;
	xt_walk(&w, &st, 1, thr, NULL, &nn, t);
	t->v = malloc((nn ? nn : 1) * sizeof *t->v);
	if (!t->v)
		goto out;
	xt_walk(&w, &st, 2, thr, NULL, NULL, t);
	t->elided = all - t->n;
	t->threshold = thr;
	rc = PC_OK;
out:
	if (rc)
		pc_xtree_free(t);
	free(rank), free(tmp), free(hist), free(w.order), free(w.keep);
	free(st.frame), free(st.first), free(st.node), free(st.value);
	return rc;
}

void pc_xtree_free(pc_xtree *t)
{
	free(t->v);
	t->v = NULL;
	t->n = 0;
}

void pc_xmodel_free(pc_xmodel *m)
{
	free(m->frames);
	free(m->sites);
	free(m->arcs);
	free(m->chains);
	free(m->pathpool);
	free(m->namebuf);
	free(m->cyclenames);
	free(m->filters);
	memset(m, 0, sizeof *m);
}
