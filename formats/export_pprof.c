/*
 * export_pprof.c - pprof profile.proto (package perftools.profiles),
 * gzip-compressed, as read by `go tool pprof`, speedscope and others.
 *
 * Layout written (field numbers of profile.proto; fields 1-14 only):
 *  sample_type  samples/count, then cpu/nanoseconds when the sampling
 *               rate is known and a sample counts in seconds (pprof shows
 *               the last type by default); time/microseconds alone for
 *               the arc times of a capture without samples (Proff)
 *  sample       one per (site, caller chain) of every frame with self
 *               samples: location ids leaf first, values rounded so that
 *               each function's values add up to its rounded total
 *  mapping      id 1 = the program, over the extent of its symbols
 *               (flat address spaces only)
 *  location     granularity "address": one per sampled address (bucket
 *               start for histograms), plus one at the start of each
 *               function seen as a caller; "symbol": one per function.
 *               Segmented addresses are segment << 32 | offset.
 *  function     id = frame index + 1; name (demangled), system_name (raw),
 *               filename
 *  string_table "" first, then in order of first use
 *  duration_nanos, period_type, period, comment (sources, rate, totals)
 */
#include "export.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- string table ------------------------------------------------------ */

typedef struct strtab {
	const char **v;
	size_t n, cap;
	size_t *slot; /* open addressing: index + 1, 0 = empty */
	size_t nslot;
	char **owned; /* strings made here (comments) */
	size_t nowned, capowned;
} strtab;

static uint64_t hash_str(const char *s)
{
	uint64_t h = 1469598103934665603ull;
	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ull;
	return h;
}

static int st_rehash(strtab *t)
{
	size_t ns = t->nslot ? t->nslot * 2 : 64;
	size_t *sl = calloc(ns, sizeof *sl);
	if (!sl)
		return PC_ENOMEM;
	for (size_t i = 0; i < t->n; i++) {
		size_t h = (size_t)hash_str(t->v[i]) & (ns - 1);
		while (sl[h])
			h = (h + 1) & (ns - 1);
		sl[h] = i + 1;
	}
	free(t->slot);
	t->slot = sl;
	t->nslot = ns;
	return PC_OK;
}

/* Index of s in the table (added if new); -1 when out of memory. */
static int64_t st_intern(strtab *t, const char *s)
{
	if (!s)
		s = "";
	if ((t->n + 1) * 2 > t->nslot && st_rehash(t))
		return -1;
	size_t h = (size_t)hash_str(s) & (t->nslot - 1);
	while (t->slot[h]) {
		if (strcmp(t->v[t->slot[h] - 1], s) == 0)
			return (int64_t)(t->slot[h] - 1);
		h = (h + 1) & (t->nslot - 1);
	}
	if (pc_grow((void **)&t->v, &t->cap, t->n + 1, sizeof *t->v))
		return -1;
	t->v[t->n] = s;
	t->slot[h] = ++t->n;
	return (int64_t)(t->n - 1);
}

static int64_t st_printf(strtab *t, const char *fmt, ...) PC_PRINTF(2, 3);
static int64_t st_printf(strtab *t, const char *fmt, ...)
{
	pc_sink k;
	pc_sink_init(&k);
	va_list ap;
	va_start(ap, fmt);
	pc_sink_vprintf(&k, fmt, ap);
	va_end(ap);
	if (k.failed || !k.buf ||
	    pc_grow((void **)&t->owned, &t->capowned, t->nowned + 1,
		    sizeof *t->owned)) {
		pc_sink_dispose(&k);
		return -1;
	}
	t->owned[t->nowned++] = k.buf;
	return st_intern(t, k.buf);
}

static void st_free(strtab *t)
{
	for (size_t i = 0; i < t->nowned; i++)
		free(t->owned[i]);
	free(t->owned);
	free(t->v);
	free(t->slot);
}

/* ---- encoder ----------------------------------------------------------- */

typedef struct pp {
	pc_xmodel *m;
	strtab st;
	pc_sink body;    /* Profile field 1: sample types */
	pc_sink tmp;     /* one embedded message */
	pc_sink tmp2;
	pc_sink label; /* the Label message stacks=estimated */
	pc_sink xfuncs; /* Functions of inlined frames (granularity=line) */
	uint64_t *xslot; /* (key, id) pairs, open addressing */
	size_t nxslot, nxf;
	uint64_t *callerloc; /* per frame, 0 = none */
	uint64_t *ids;
	size_t capids;
	int with_time;
	double ns_per_sample;
	int oom;
} pp;

static int64_t S(pp *e, const char *s)
{
	int64_t i = st_intern(&e->st, s);
	if (i < 0) {
		e->oom = 1;
		return 0;
	}
	return i;
}

static void value_type(pp *e, unsigned field, const char *type,
		       const char *unit)
{
	e->tmp.len = 0;
	pc_pb_int(&e->tmp, 1, S(e, type));
	pc_pb_int(&e->tmp, 2, S(e, unit));
	pc_pb_bytes(&e->body, field, e->tmp.buf, e->tmp.len);
}

static uint64_t addr_of(uint32_t seg, uint64_t address)
{
	return seg == PC_NOSEG ? address : ((uint64_t)seg << 32 | address);
}

/* The Function id of an inlined function (name, file): made on first
 * use after the frames' ids, written to e->xfuncs. */
static uint64_t inline_fn(pp *e, const char *raw, const char *file)
{
	int64_t ni = S(e, raw), fi = S(e, file ? file : "");
	uint64_t key = (uint64_t)ni << 32 | (uint64_t)fi;
	if ((e->nxf + 1) * 2 > e->nxslot) {
		size_t ns = e->nxslot ? e->nxslot * 2 : 64;
		uint64_t *sl = calloc(ns, 2 * sizeof *sl);
		if (!sl) {
			e->oom = 1;
			return 0;
		}
		for (size_t i = 0; i < e->nxslot; i++)
			if (e->xslot[2 * i + 1]) {
				size_t h = (size_t)(e->xslot[2 * i] * 0x9E3779B97F4A7C15ull >> 20) & (ns - 1);
				while (sl[2 * h + 1])
					h = (h + 1) & (ns - 1);
				sl[2 * h] = e->xslot[2 * i];
				sl[2 * h + 1] = e->xslot[2 * i + 1];
			}
		free(e->xslot);
		e->xslot = sl;
		e->nxslot = ns;
	}
	size_t h = (size_t)(key * 0x9E3779B97F4A7C15ull >> 20) & (e->nxslot - 1);
	while (e->xslot[2 * h + 1]) {
		if (e->xslot[2 * h] == key)
			return e->xslot[2 * h + 1];
		h = (h + 1) & (e->nxslot - 1);
	}
	uint64_t id = (uint64_t)e->m->nframes + 1 + e->nxf++;
	e->xslot[2 * h] = key;
	e->xslot[2 * h + 1] = id;
	e->tmp2.len = 0;
	pc_pb_uint(&e->tmp2, 1, id);
	/* name shown as the symbols' names are, system_name raw */
	pc_pb_int(&e->tmp2, 2, S(e, pc_name_display(e->m->p, raw)));
	pc_pb_int(&e->tmp2, 3, ni);
	pc_pb_int(&e->tmp2, 4, fi);
	pc_pb_bytes(&e->xfuncs, 5, e->tmp2.buf, e->tmp2.len);
	return id;
}

static void location(pp *e, pc_sink *out, uint64_t id, uint64_t mapping,
		     uint64_t address, size_t frame)
{
	e->tmp.len = 0;
	pc_pb_uint(&e->tmp, 1, id);
	pc_pb_uint(&e->tmp, 2, mapping);
	pc_pb_uint(&e->tmp, 3, address);
	const pc_srcframe *sf = NULL;
	size_t nsf = 0;
	if (e->m->dwarf && e->m->frames[frame].row >= 0 &&
	    pc_dwarf_lookup_frames(e->m->dwarf, address, &sf, &nsf))
		nsf = 0;
	/* Line[]: innermost first, the last one the function itself (the
	 * symbol's frame); the inlined ones as functions of their own */
	for (size_t i = 0; i < nsf; i++) {
		uint64_t fn = i + 1 == nsf ? (uint64_t)frame + 1
				: inline_fn(e, sf[i].function ? sf[i].function
							      : "??", sf[i].file);
		e->tmp2.len = 0;
		pc_pb_uint(&e->tmp2, 1, fn);
		pc_pb_int(&e->tmp2, 2, sf[i].line);
		pc_pb_bytes(&e->tmp, 4, e->tmp2.buf ? e->tmp2.buf : "",
			    e->tmp2.len);
	}
	if (!nsf) {
		e->tmp2.len = 0; /* Line */
		pc_pb_uint(&e->tmp2, 1, (uint64_t)frame + 1);
		pc_pb_bytes(&e->tmp, 4, e->tmp2.buf ? e->tmp2.buf : "",
			    e->tmp2.len);
	}
	pc_pb_bytes(out, 4, e->tmp.buf, e->tmp.len);
}

/* One Sample: leaf location, then the callers of chain c (may be NULL). */
static void sample(pp *e, pc_sink *out, uint64_t leafloc,
		   const pc_xchain *c, int64_t count, int64_t ns)
{
	pc_xmodel *m = e->m;
	size_t depth = c ? c->depth : 1;
	if (pc_grow((void **)&e->ids, &e->capids, depth, sizeof *e->ids)) {
		e->oom = 1;
		return;
	}
	e->ids[0] = leafloc;
	for (size_t k = 1; k < depth; k++) /* path is root first */
		e->ids[k] = e->callerloc[m->pathpool[c->first + depth - 1 - k]];
	uint64_t v[2] = {(uint64_t)count, (uint64_t)ns};
	e->tmp.len = 0;
	pc_pb_packed(&e->tmp, 1, e->ids, depth);
	pc_pb_packed(&e->tmp, 2, v, e->with_time ? 2 : 1);
	if (depth > 1) /* label stacks=estimated: callers from call counts */
		pc_pb_bytes(&e->tmp, 3, e->label.buf, e->label.len);
	pc_pb_bytes(out, 2, e->tmp.buf, e->tmp.len);
}

static int write_pprof(pc_profile *p, const pc_options *o, pc_sink *out)
{
	const char *cz = pc_options_get(o, "compress");
	int compress = 1;
	if (cz && (strcmp(cz, "0") == 0 || strcmp(cz, "no") == 0))
		compress = 0;
	else if (cz && strcmp(cz, "1") != 0 && strcmp(cz, "yes") != 0)
		return pc_profile_fail(p, PC_EUSAGE,
				       "compress '%s': expected 0 or 1", cz);

	pc_xmodel m;
	int rc = pc_xmodel_build(&m, p, o);
	if (rc)
		return rc;
	pp e;
	memset(&e, 0, sizeof e);
	e.m = &m;
	pc_sink_init(&e.body);
	pc_sink_init(&e.tmp);
	pc_sink_init(&e.tmp2);
	pc_sink_init(&e.xfuncs);
	pc_sink maps, locs, samples, funcs, prof;
	pc_sink_init(&maps);
	pc_sink_init(&locs);
	pc_sink_init(&samples);
	pc_sink_init(&funcs);
	pc_sink_init(&prof);
	e.callerloc = calloc(m.nframes ? m.nframes : 1, sizeof *e.callerloc);
	if (!e.callerloc) {
		rc = PC_ENOMEM;
		goto out;
	}

	const char *dim = pc_profile_dimension(p);
	e.with_time = !m.arc_time && m.rate > 0 &&
		      (!dim || !*dim || strcmp(dim, "seconds") == 0);
	e.ns_per_sample = e.with_time ? 1e9 / m.rate : 0;

	/* per function unless per-address detail is asked for: consumers
	 * load one location per function much faster than one per sampled
	 * address (#25) */
	if (!pc_options_get(o, "granularity"))
		m.by_symbol = 1;

	S(&e, ""); /* string_table[0] must be "" */

	pc_sink_init(&e.label);
	if (m.estimated) {
		pc_pb_int(&e.label, 1, S(&e, "stacks"));
		pc_pb_int(&e.label, 2, S(&e, "estimated"));
	}

	/* 1: sample types */
	value_type(&e, 1, m.value_type, m.value_unit);
	if (e.with_time)
		value_type(&e, 1, "cpu", "nanoseconds");

	/* 3: the program's mapping */
	uint64_t mstart = UINT64_MAX, mlimit = 0;
	int have_rows = 0;
	for (size_t f = 0; f < m.nframes; f++)
		if (m.frames[f].row >= 0) {
			have_rows = 1;
			if (m.frames[f].address < mstart)
				mstart = m.frames[f].address;
			if (m.frames[f].end > mlimit)
				mlimit = m.frames[f].end;
		}
	uint64_t mapping = have_rows && !m.segmented ? 1 : 0;
	if (mapping) {
		const char *prog = pc_profile_program(p);
		e.tmp.len = 0;
		pc_pb_uint(&e.tmp, 1, 1);
		pc_pb_uint(&e.tmp, 2, mstart);
		pc_pb_uint(&e.tmp, 3, mlimit);
		pc_pb_int(&e.tmp, 5, prog ? S(&e, prog) : 0);
		pc_pb_uint(&e.tmp, 7, 1); /* has_functions */
		pc_pb_bytes(&maps, 3, e.tmp.buf, e.tmp.len);
	}

	/* 5: functions (interned before locations and samples so that the
	 * string table follows frame order) */
	for (size_t f = 0; f < m.nframes; f++) {
		const pc_xframe *fr = &m.frames[f];
		int64_t name = S(&e, fr->name), sysname = name;
		pc_row row;
		pc_symbol sym;
		/* system_name: the raw (mangled) name of the symbol table */
		if (fr->row >= 0 && !pc_profile_row_at(&row, p, (size_t)fr->row) &&
		    !pc_profile_symbol_at(&sym, p, row.symbol))
			sysname = S(&e, sym.name);
		/* pprof strips <...> from names it takes for demangled C++
		 * unless system_name differs: a cycle has none */
		if (fr->cycle)
			sysname = 0;
		e.tmp.len = 0;
		pc_pb_uint(&e.tmp, 1, (uint64_t)f + 1);
		pc_pb_int(&e.tmp, 2, name);
		pc_pb_int(&e.tmp, 3, sysname);
		const char *file = fr->file;
		int64_t start = 0;
		const pc_srcframe *sf;
		size_t nsf = 0;
		if (m.dwarf && fr->row >= 0 &&
		    !pc_dwarf_lookup_frames(m.dwarf, addr_of(fr->segment, fr->address),
				     &sf, &nsf) && nsf) {
			if (sf[nsf - 1].file)
				file = sf[nsf - 1].file;
			start = sf[nsf - 1].line;
		}
		pc_pb_int(&e.tmp, 4, file ? S(&e, file) : 0);
		pc_pb_int(&e.tmp, 5, start);
		pc_pb_bytes(&funcs, 5, e.tmp.buf, e.tmp.len);
	}

	/* 4: locations; leaf sites first, then function-start locations of
	 * frames seen as callers */
	uint64_t nextid = 1;
	uint64_t *siteloc = NULL;
	if (!m.by_symbol) {
		siteloc = calloc(m.nsites ? m.nsites : 1, sizeof *siteloc);
		if (!siteloc) {
			rc = PC_ENOMEM;
			goto out;
		}
		for (size_t s = 0; s < m.nsites; s++) {
			const pc_xsite *si = &m.sites[s];
			const pc_xframe *fr = &m.frames[si->frame];
			siteloc[s] = nextid++;
			location(&e, &locs, siteloc[s],
				 fr->row >= 0 ? mapping : 0,
				 si->has_address ? addr_of(si->segment, si->address)
						 : 0,
				 si->frame);
		}
	}
	for (size_t c = 0; c < m.nchains; c++) {
		const pc_xchain *ch = &m.chains[c];
		for (size_t k = 0; k + 1 < ch->depth; k++)
			e.callerloc[m.pathpool[ch->first + k]] = 1;
	}
	for (size_t f = 0; f < m.nframes; f++) {
		const pc_xframe *fr = &m.frames[f];
		int leaf = m.by_symbol && fr->self > 0;
		if (!e.callerloc[f] && !leaf)
			continue;
		e.callerloc[f] = nextid++;
		location(&e, &locs, e.callerloc[f], fr->row >= 0 ? mapping : 0,
			 fr->row >= 0 ? addr_of(fr->segment, fr->address) : 0, f);
	}

	/* 2: samples, grouped by leaf frame */
	for (size_t f = 0; f < m.nframes; f++) {
		const pc_xframe *fr = &m.frames[f];
		pc_xround rc_count, rc_ns;
		pc_xround_reset(&rc_count);
		pc_xround_reset(&rc_ns);
		size_t nsites = m.by_symbol ? (fr->self > 0) : fr->nsites;
		for (size_t s = 0; s < nsites; s++) {
			double v = m.by_symbol ? fr->self
					       : m.sites[fr->first_site + s].count;
			uint64_t loc = m.by_symbol ? e.callerloc[f]
						   : siteloc[fr->first_site + s];
			for (size_t c = 0; c < fr->nchains; c++) {
				const pc_xchain *ch = &m.chains[fr->first_chain + c];
				double x = v * ch->fraction;
				int64_t cnt = pc_xround_next(&rc_count, x);
				int64_t ns = pc_xround_next(&rc_ns,
							    x * e.ns_per_sample);
				if (cnt == 0 && ns == 0)
					continue;
				sample(&e, &samples, loc, ch, cnt, ns);
			}
		}
	}
	free(siteloc);

	/* comments */
	uint64_t comments[8 + 2 * 16];
	size_t nc = 0;
	size_t nsrc = pc_profile_source_count(p);
	for (size_t i = 0; i < nsrc && nc < 16; i++)
		comments[nc++] = (uint64_t)st_printf(
			&e.st, "source: %s %s", pc_profile_source_format(p, i),
			pc_profile_source_file(p, i));
	if (m.rate > 0)
		comments[nc++] = (uint64_t)st_printf(&e.st, "rate: %g Hz",
						     m.rate);
	comments[nc++] = (uint64_t)st_printf(
		&e.st, "samples: %.6g total, %.6g in the program, %.6g outside",
		m.totals.total, m.totals.in_program, m.totals.outside);
	if (m.totals.excluded > 0)
		comments[nc++] = (uint64_t)st_printf(
			&e.st, "excluded: %.6g samples", m.totals.excluded);
	if (m.arc_time)
		comments[nc++] = (uint64_t)st_printf(
			&e.st, "values: flat times of the call arcs, microseconds");
	else if (m.estimated)
		comments[nc++] = (uint64_t)st_printf(
			&e.st, "stacks: %s (samples label stacks=estimated)",
			PC_XESTIMATE_NOTE);
	if (m.filters)
		comments[nc++] = (uint64_t)st_printf(
			&e.st, "filters: %s (the samples their stacks keep; totals above: "
			       "the whole capture)", m.filters);
	if (m.truncated > 0)
		comments[nc++] = (uint64_t)st_printf(
			&e.st, "stacks: %.6g samples under [call paths truncated] "
			       "(more than %zu paths or %d levels)",
			m.truncated, (size_t)PC_CG_MAX_PATHS, PC_CG_MAX_DEPTH);
	for (size_t i = 0; i < nc; i++)
		if ((int64_t)comments[i] < 0)
			e.oom = 1;

	if (e.oom || e.body.failed || e.tmp.failed || e.tmp2.failed ||
	    e.label.failed || e.xfuncs.failed ||
	    maps.failed || locs.failed || samples.failed || funcs.failed) {
		rc = PC_ENOMEM;
		goto out;
	}

	/* Profile, in field order */
	pc_sink_write(&prof, e.body.buf ? e.body.buf : "", e.body.len);
	pc_sink_write(&prof, samples.buf ? samples.buf : "", samples.len);
	pc_sink_write(&prof, maps.buf ? maps.buf : "", maps.len);
	pc_sink_write(&prof, locs.buf ? locs.buf : "", locs.len);
	pc_sink_write(&prof, funcs.buf ? funcs.buf : "", funcs.len);
	pc_sink_write(&prof, e.xfuncs.buf ? e.xfuncs.buf : "", e.xfuncs.len);
	for (size_t i = 0; i < e.st.n; i++)
		pc_pb_bytes(&prof, 6, e.st.v[i], strlen(e.st.v[i]));
	double dur = pc_profile_duration(p);
	if (dur >= 0 && isfinite(dur))
		pc_pb_int(&prof, 10, (int64_t)llround(dur * 1e9));
	e.tmp.len = 0;
	if (e.with_time) {
		pc_pb_int(&e.tmp, 1, S(&e, "cpu"));
		pc_pb_int(&e.tmp, 2, S(&e, "nanoseconds"));
	} else {
		pc_pb_int(&e.tmp, 1, S(&e, m.value_type));
		pc_pb_int(&e.tmp, 2, S(&e, m.value_unit));
	}
	pc_pb_bytes(&prof, 11, e.tmp.buf, e.tmp.len);
	pc_pb_int(&prof, 12, e.with_time ? (int64_t)llround(e.ns_per_sample) : 1);
	pc_pb_packed(&prof, 13, comments, nc);
	if (prof.failed || e.tmp.failed) {
		rc = PC_ENOMEM;
		goto out;
	}
	if (compress)
		rc = pc_gzip_append(out, prof.buf ? prof.buf : "", prof.len);
	else
		rc = pc_sink_write(out, prof.buf ? prof.buf : "", prof.len);
out:
	if (rc == PC_ENOMEM)
		pc_profile_fail(p, PC_ENOMEM, "out of memory writing pprof");
	st_free(&e.st);
	free(e.callerloc);
	free(e.ids);
	pc_sink_dispose(&e.body);
	pc_sink_dispose(&e.tmp);
	pc_sink_dispose(&e.tmp2);
	pc_sink_dispose(&e.label);
	pc_sink_dispose(&e.xfuncs);
	free(e.xslot);
	pc_sink_dispose(&maps);
	pc_sink_dispose(&locs);
	pc_sink_dispose(&samples);
	pc_sink_dispose(&funcs);
	pc_sink_dispose(&prof);
	pc_xmodel_free(&m);
	return rc;
}

const pc_exporter pc_export_pprof = {
	.name = "pprof",
	.extension = ".pb.gz",
	.description = "pprof profile.proto, gzip-compressed (go tool pprof, "
		       "speedscope)",
	.write = write_pprof,
};
