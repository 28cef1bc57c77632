/*
 * export_folded.c - folded stacks ("root;caller;leaf count" per line), the
 * input of FlameGraph's flamegraph.pl, inferno and speedscope.
 *
 * One line per caller chain of every frame with self samples, in frame
 * order.  Counts are whole samples, rounded so that each leaf's lines add
 * up to its rounded attributed count; lines that round to 0 are left out.
 * ';' and control characters in names become '_'.  A profile without
 * samples is the single line "[no samples] 0".  The format has no room
 * for a note: option stacks=marked puts every stack whose callers were
 * estimated from call counts under a root frame "[estimated]", and
 * stacks=none writes the measured one-frame stacks only.  With
 * granularity=line (and the program's DWARF) each stack is split by the
 * leaf's source lines, the leaf written "func (file:line)".
 */
#include "export.h"

static int write_folded(pc_profile *p, const pc_options *o, pc_sink *k)
{
	pc_xmodel m;
	int rc = pc_xmodel_build(&m, p, o);
	if (rc)
		return rc;
	uint64_t start = pc_sink_offset(k); /* (k may stream: lines go) */
	for (size_t f = 0; f < m.nframes; f++) {
		const pc_xframe *fr = &m.frames[f];
		pc_xround r;
		pc_xround_reset(&r);
		/* granularity=line: one line per (chain, source line), the
		 * leaf written "func (file:line)" */
		size_t nsites = m.lines ? fr->nsites : 1;
		for (size_t c = 0; c < fr->nchains; c++)
			for (size_t s = 0; s < nsites; s++) {
			const pc_xchain *ch = &m.chains[fr->first_chain + c];
			const char *file = NULL, *of;
			unsigned line = 0, ol;
			double v = fr->self;
			if (m.lines && fr->nsites) {
				const pc_xsite *si = &m.sites[fr->first_site + s];
				v = si->count;
				pc_xmodel_srcpos(&m, f, si->address, &file, &line,
						 &of, &ol);
			}
			int64_t n = pc_xround_next(&r, v * ch->fraction);
			if (n <= 0)
				continue;
			if (m.marked && ch->depth > 1)
				pc_sink_puts(k, "[estimated];");
			for (size_t i = 0; i < ch->depth; i++) {
				if (i)
					pc_sink_putc(k, ';');
				pc_sink_folded_name(
					k, m.frames[m.pathpool[ch->first + i]].name);
			}
			if (file && line) {
				pc_sink_puts(k, " (");
				pc_sink_folded_name(k, pc_basename(file));
				pc_sink_printf(k, ":%u)", line);
			}
			pc_sink_printf(k, " %lld\n", (long long)n);
		}
	}
	/* no stack at all: one empty stack keeps the file loadable by
	 * readers that refuse an empty input (speedscope) */
	if (pc_sink_offset(k) == start)
		pc_sink_puts(k, "[no samples] 0\n");
	pc_xmodel_free(&m);
	return k->failed;
}

static const pc_option_decl folded_keys[] = {
	PC_EXPORT_OPTION_DECLS,
	PC_OPTION_DECLS_END,
};

const pc_exporter pc_export_folded = {
	.name = "folded",
	.options = folded_keys,
	.extension = ".folded",
	.description = "folded stacks (FlameGraph, inferno, speedscope)",
	.write = write_folded,
};
