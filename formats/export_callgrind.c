/*
 * export_callgrind.c - callgrind format version 1, for KCachegrind,
 * QCachegrind and callgrind_annotate.
 *
 * One event, "Samples" ("Microseconds" for the arc times of a capture
 * without samples, MPW Proff).  With granularity "address" (default) positions
 * are instruction addresses ("positions: instr"): one cost line per
 * sampled address (bucket start for histograms; segment << 32 | offset
 * for segmented captures); with "symbol" every cost sits at position 0.
 * Costs are whole samples rounded so that each function's lines add up to
 * its rounded attributed count.  Call arcs become cfn=/calls= lines whose
 * cost is the samples that flow through the arc under gprof's assumption
 * (callee time split among callers by call counts); self-recursive arcs
 * are left out.  Pseudo-frames ("[system]", ...) sit at position 0.
 */
#include "export.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct cg {
	pc_sink *k;
	const char **files; /* distinct file names, id = index + 1 */
	size_t nfiles, capfiles;
	unsigned char *fn_named;
	unsigned char *fl_named;
	int instr;
	int lines; /* granularity=line with DWARF: positions are lines */
} cg;

static void cg_name(pc_sink *k, const char *s)
{
	pc_sink_name(k, s);
}

static size_t file_id(cg *c, const char *file)
{
	if (!file || !*file)
		file = "???";
	for (size_t i = 0; i < c->nfiles; i++)
		if (strcmp(c->files[i], file) == 0)
			return i;
	unsigned char *named = realloc(c->fl_named, c->nfiles + 1);
	if (named)
		c->fl_named = named;
	if (!named || pc_grow((void **)&c->files, &c->capfiles, c->nfiles + 1,
			      sizeof *c->files)) {
		c->k->failed = PC_ENOMEM;
		return 0;
	}
	c->fl_named[c->nfiles] = 0;
	c->files[c->nfiles] = file;
	return c->nfiles++;
}

static void ref_file(cg *c, const char *key, const char *file)
{
	size_t id = file_id(c, file);
	if (c->k->failed)
		return;
	pc_sink_printf(c->k, "%s=(%zu)", key, id + 1);
	if (!c->fl_named[id]) {
		c->fl_named[id] = 1;
		pc_sink_putc(c->k, ' ');
		cg_name(c->k, c->files[id]);
	}
	pc_sink_putc(c->k, '\n');
}

static void ref_fn(cg *c, const pc_xmodel *m, const char *key, size_t f)
{
	pc_sink_printf(c->k, "%s=(%zu)", key, f + 1);
	if (!c->fn_named[f]) {
		c->fn_named[f] = 1;
		pc_sink_putc(c->k, ' ');
		cg_name(c->k, m->frames[f].name);
	}
	pc_sink_putc(c->k, '\n');
}

static void position(cg *c, int has_address, uint32_t seg, uint64_t addr)
{
	if (!c->instr || !has_address)
		pc_sink_putc(c->k, '0');
	else
		pc_sink_printf(c->k, "0x%llx",
			       (unsigned long long)(seg == PC_NOSEG
				       ? addr : ((uint64_t)seg << 32 | addr)));
}

/* Whether frame f's block would be empty (no cost line, no call made)
 * and no call line names it (in_arc: caller or callee of an arc to
 * another frame): a frame --hide took out of every chain and
 * arc (or one the other filters left without samples or calls).  Such a
 * frame gets no fn= block at all. */
static int frame_unused(const pc_xmodel *m, const int64_t *self,
			const unsigned char *in_arc, size_t f)
{
	const pc_xframe *fr = &m->frames[f];
	if (m->by_symbol) {
		if (self[f] != 0)
			return 0;
	} else {
		pc_xround r;
		pc_xround_reset(&r);
		for (size_t s = 0; s < fr->nsites; s++)
			if (pc_xround_next(&r, m->sites[fr->first_site + s].count))
				return 0;
	}
	return !in_arc[f];
}

static int write_callgrind(pc_profile *p, const pc_options *o, pc_sink *k)
{
	pc_xmodel m;
	int rc = pc_xmodel_build(&m, p, o);
	if (rc)
		return rc;
	cg c;
	memset(&c, 0, sizeof c);
	c.k = k;
	c.instr = !m.by_symbol && !m.lines;
	c.lines = m.lines && m.dwarf;
	c.fn_named = calloc(m.nframes ? m.nframes : 1, 1);
	int64_t *self = calloc(m.nframes ? m.nframes : 1, sizeof *self);
	int64_t *arcv = NULL;
	unsigned char *in_arc = calloc(m.nframes ? m.nframes : 1, 1);
	if (!c.fn_named || !self || !in_arc) {
		rc = pc_profile_fail(p, PC_ENOMEM, "out of memory");
		goto out;
	}
	for (size_t a = 0; a < m.narcs; a++)
		if (m.arcs[a].caller != m.arcs[a].callee)
			in_arc[m.arcs[a].caller] = in_arc[m.arcs[a].callee] = 1;
	int64_t summary = 0;
	for (size_t f = 0; f < m.nframes; f++) {
		self[f] = (int64_t)llround(m.frames[f].self);
		summary += self[f];
	}
	/* arc costs from whole-sample chain values (each leaf's chains
	 * rounded cumulatively to its rounded self), so that every
	 * function's inclusive cost (self + calls) is the sum of the
	 * rounded stacks through it and never below its self */
	arcv = calloc(m.narcs ? m.narcs : 1, sizeof *arcv);
	if (!arcv) {
		rc = pc_profile_fail(p, PC_ENOMEM, "out of memory");
		goto out;
	}
	for (size_t f = 0; f < m.nframes; f++) {
		const pc_xframe *fr = &m.frames[f];
		pc_xround r;
		pc_xround_reset(&r);
		for (size_t ci = 0; ci < fr->nchains; ci++) {
			const pc_xchain *ch = &m.chains[fr->first_chain + ci];
			int64_t v = pc_xround_next(&r, fr->self * ch->fraction);
			for (size_t i = 0; i + 1 < ch->depth; i++) {
				size_t a = pc_xmodel_find_arc(
					&m, m.pathpool[ch->first + i],
					m.pathpool[ch->first + i + 1]);
				if (a != PC_XNONE)
					arcv[a] += v;
			}
		}
	}
	const char *prog = pc_profile_program(p);
	pc_sink_puts(k, "# callgrind format\nversion: 1\n"
			"creator: profcore " PC_VERSION_STRING "\n");
	if (prog && *prog) {
		pc_sink_puts(k, "cmd: ");
		cg_name(k, prog);
		pc_sink_putc(k, '\n');
	}
	for (size_t i = 0; i < pc_profile_source_count(p); i++) {
		pc_sink_printf(k, "# source: %s ", pc_profile_source_format(p, i));
		cg_name(k, pc_profile_source_file(p, i));
		pc_sink_putc(k, '\n');
	}
	if (m.rate > 0)
		pc_sink_printf(k, "# rate: %g Hz\n", m.rate);
	if (m.arc_time)
		pc_sink_puts(k, "# costs: flat times of the call arcs, microseconds\n");
	if (m.estimated)
		pc_sink_puts(k, "# stacks: " PC_XESTIMATE_NOTE "\n");
	if (m.filters)
		pc_sink_printf(k, "# filters: %s (the samples their stacks keep)\n",
			       m.filters);
	pc_sink_printf(k, "positions: %s\nevents: %s\nsummary: %lld\n",
		       c.instr ? "instr" : "line",
		       m.arc_time ? "Microseconds" : "Samples", (long long)summary);
	if (prog && *prog) {
		pc_sink_puts(k, "\nob=(1) ");
		cg_name(k, prog);
		pc_sink_putc(k, '\n');
	}
	size_t next_arc = 0;
	for (size_t f = 0; f < m.nframes; f++) {
		const pc_xframe *fr = &m.frames[f];
		if (m.filters && frame_unused(&m, self, in_arc, f)) {
			while (next_arc < m.narcs && m.arcs[next_arc].caller == f)
				next_arc++; /* its self arcs, never written */
			continue;
		}
		pc_sink_putc(k, '\n');
		const char *ffile = fr->file, *sfile, *ofile;
		unsigned sline, oline;
		if (c.lines && pc_xmodel_srcpos(&m, f, fr->address, &sfile, &sline,
						&ofile, &oline) && ofile)
			ffile = ofile;
		ref_file(&c, "fl", ffile);
		ref_fn(&c, &m, "fn", f);
		pc_xround r;
		pc_xround_reset(&r);
		size_t ns = m.by_symbol ? (fr->self > 0) : fr->nsites;
		for (size_t s = 0; s < ns; s++) {
			int64_t v;
			if (m.by_symbol) {
				v = self[f];
				if (v == 0)
					continue;
				position(&c, 0, 0, 0);
			} else {
				const pc_xsite *si = &m.sites[fr->first_site + s];
				v = pc_xround_next(&r, si->count);
				if (v == 0)
					continue;
				if (c.lines) {
					/* the line, in the file it is in (an
					 * inlined function's: fi=, back fe=) */
					pc_xmodel_srcpos(&m, f, si->address, &sfile,
							 &sline, &ofile, &oline);
					int other = sfile && ffile &&
						    strcmp(sfile, ffile) != 0;
					if (other)
						ref_file(&c, "fi", sfile);
					pc_sink_printf(k, "%u %lld\n", sline,
						       (long long)v);
					if (other)
						ref_file(&c, "fe", ffile);
					continue;
				}
				position(&c, si->has_address, si->segment,
					 si->address);
			}
			pc_sink_printf(k, " %lld\n", (long long)v);
		}
		/* calls made by f: arcs are sorted by caller */
		for (; next_arc < m.narcs && m.arcs[next_arc].caller == f;
		     next_arc++) {
			const pc_xarc *arc = &m.arcs[next_arc];
			if (arc->callee == f)
				continue;
			const pc_xframe *to = &m.frames[arc->callee];
			const char *tfile = to->file;
			if (c.lines && pc_xmodel_srcpos(&m, arc->callee, to->address,
							&sfile, &sline, &ofile,
							&oline) && ofile)
				tfile = ofile;
			ref_file(&c, "cfl", tfile);
			ref_fn(&c, &m, "cfn", arc->callee);
			pc_sink_printf(k, "calls=%llu ",
				       (unsigned long long)arc->count);
			if (c.lines) {
				pc_xmodel_srcpos(&m, arc->callee, to->address, &sfile,
						 &sline, &ofile, &oline);
				pc_sink_printf(k, "%u\n", oline);
				pc_xmodel_srcpos(&m, f, arc->from, &sfile, &sline,
						 &ofile, &oline);
				pc_sink_printf(k, "%u", oline);
			} else {
				position(&c, to->row >= 0, to->segment,
					 to->address);
				pc_sink_putc(k, '\n');
				position(&c, 1, arc->from_segment, arc->from);
			}
			pc_sink_printf(k, " %lld\n", (long long)arcv[next_arc]);
		}
	}
	rc = k->failed;
out:
	free(c.files);
	free(c.fn_named);
	free(c.fl_named);
	free(self);
	free(in_arc);
	free(arcv);
	pc_xmodel_free(&m);
	return rc;
}

static const pc_option_decl callgrind_keys[] = {
	PC_EXPORT_OPTION_DECLS,
	PC_OPTION_DECLS_END,
};

const pc_exporter pc_export_callgrind = {
	.name = "callgrind",
	.options = callgrind_keys,
	.extension = ".callgrind",
	.description = "callgrind format (KCachegrind, callgrind_annotate)",
	.write = write_callgrind,
};
