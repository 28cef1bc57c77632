/* symspec.c - GNU gprof's symbol selections (the report option
 * "gprof-symspecs"): which functions the flat profile lists and credits,
 * which the call graph prints, which pass time to their callers, which
 * call arcs count, which functions the annotated source shows.
 *
 * The value lists gprof options with their symspec, each as the option
 * letter followed by the spec, separated by ';' ("Pmain;Emcount;ka/b"):
 *   p P   the flat profile's INCL_FLAT / EXCL_FLAT
 *   q Q   INCL_GRAPH / EXCL_GRAPH, or INCL_ARCS / EXCL_ARCS for FROM/TO
 *   f e   INCL_GRAPH / EXCL_GRAPH
 *   F E   INCL_TIME + INCL_GRAPH / EXCL_TIME + EXCL_GRAPH
 *   n N   INCL_TIME / EXCL_TIME
 *   k     EXCL_ARCS (FROM/TO)
 *   A J   INCL_ANNO / EXCL_ANNO (the annotated source's functions)
 * as gprof 2.40's main() files them (gprof.c) and applies them:
 * hist.c (a symbol outside the flat selection gets no time and its
 * samples leave the total), cg_arcs.c propagate_flags (print flags and
 * propagation fractions), call_graph.c cg_tally (an arc outside the arc
 * selection is dropped with its calls), basic_blocks.c
 * print_annotated_source.  A spec is gprof's (sym_ids.c parse_spec):
 * FILE:FUNCTION, FILE:LINE, :FUNCTION, or without a colon a FILE when it
 * holds a dot, a LINE when it starts with a digit, else a FUNCTION.  A
 * function is its symbol table name; its file and line are where its
 * first address is (DWARF, as gprof's bfd_find_nearest_line), a FILE
 * matching by its last path component.  A table whose specs match no
 * function is empty, as in gprof.  gprof's own exclusions (mcount & co,
 * EXCL_FLAT/GRAPH/TIME) are the symbols flagged PC_SYMF_EXCLUDED.
 */
#include "dwarf_internal.h"
#include "model.h"
#include "symspec.h"

#include <stdlib.h>
#include <string.h>

/* parse_spec: one side of a spec, in the option's text */
static void parse_side(const char *s, size_t n, pc_ssside *out)
{
	memset(out, 0, sizeof *out);
	const char *colon = NULL;
	for (size_t i = n; i-- > 0;)
		if (s[i] == ':') {
			colon = s + i;
			break;
		}
	const char *rest = s;
	size_t rn = n;
	if (colon) {
		if (colon > s) {
			out->file = s;
			out->flen = (size_t)(colon - s);
		}
		rest = colon + 1;
		rn = n - (size_t)(rest - s);
	} else if (memchr(s, '.', n)) {
		out->file = s;
		out->flen = n;
		return;
	}
	if (!rn)
		return;
	if (rest[0] >= '0' && rest[0] <= '9') {
		unsigned long v = 0; /* atoi: the leading digits */
		for (size_t i = 0; i < rn && rest[i] >= '0' && rest[i] <= '9' && v < 1000000000ul; i++)
			v = v * 10 + (unsigned long)(rest[i] - '0');
		out->line = (unsigned)v;
	} else {
		out->name = rest;
		out->len = rn;
	}
}

static int add(pc_profile *p, pc_symspecs *ss, int table, const char *s, size_t n)
{
	pc_symspec e = {0};
	e.table = table;
	const char *slash = memchr(s, '/', n);
	if (slash) { /* parse_id: FROM/TO */
		e.has_to = 1;
		parse_side(s, (size_t)(slash - s), &e.from);
		parse_side(slash + 1, n - (size_t)(slash + 1 - s), &e.to);
	} else {
		parse_side(s, n, &e.from);
	}
	if (pc_grow((void **)&ss->v, &ss->cap, ss->n + 1, sizeof e))
		return pc_diag_fail(&p->diag, PC_ENOMEM, "out of memory");
	ss->v[ss->n++] = e;
	if (e.from.file || e.from.line || e.to.file || e.to.line)
		ss->need_src = 1;
	return PC_OK;
}

int pc_symspecs_parse(pc_profile *p, const char *v, pc_symspecs *ss)
{
	memset(ss, 0, sizeof *ss);
	if (!v || !*v)
		return PC_OK;
	ss->text = pc_strdup(v);
	if (!ss->text)
		return pc_diag_fail(&p->diag, PC_ENOMEM, "out of memory");
	for (const char *s = ss->text; *s;) {
		const char *end = strchr(s, ';');
		size_t n = end ? (size_t)(end - s) : strlen(s);
		int r = PC_OK;
		if (n < 2) {
			r = pc_diag_fail(&p->diag, PC_EUSAGE,
					 "gprof-symspecs: expected an option letter and a symspec, found '%.*s'",
					 (int)n, s);
		} else {
			const char *a = s + 1;
			size_t an = n - 1;
			int arc = memchr(a, '/', an) != NULL;
			switch (s[0]) {
			case 'p': r = add(p, ss, PC_SS_INCL_FLAT, a, an); break;
			case 'P': r = add(p, ss, PC_SS_EXCL_FLAT, a, an); break;
			case 'q': r = add(p, ss, arc ? PC_SS_INCL_ARCS : PC_SS_INCL_GRAPH, a, an); break;
			case 'Q': r = add(p, ss, arc ? PC_SS_EXCL_ARCS : PC_SS_EXCL_GRAPH, a, an); break;
			case 'f': r = add(p, ss, PC_SS_INCL_GRAPH, a, an); break;
			case 'e': r = add(p, ss, PC_SS_EXCL_GRAPH, a, an); break;
			case 'F':
				if (!(r = add(p, ss, PC_SS_INCL_TIME, a, an)))
					r = add(p, ss, PC_SS_INCL_GRAPH, a, an);
				break;
			case 'E':
				if (!(r = add(p, ss, PC_SS_EXCL_TIME, a, an)))
					r = add(p, ss, PC_SS_EXCL_GRAPH, a, an);
				break;
			case 'n': r = add(p, ss, PC_SS_INCL_TIME, a, an); break;
			case 'N': r = add(p, ss, PC_SS_EXCL_TIME, a, an); break;
			case 'k': r = add(p, ss, PC_SS_EXCL_ARCS, a, an); break;
			case 'A': r = add(p, ss, PC_SS_INCL_ANNO, a, an); break;
			case 'J': r = add(p, ss, PC_SS_EXCL_ANNO, a, an); break;
			default:
				r = pc_diag_fail(&p->diag, PC_EUSAGE,
						 "gprof-symspecs: '%c' is no gprof symbol option (expected one of pPqQfeFEnNkAJ)",
						 s[0]);
			}
		}
		if (r) {
			pc_symspecs_free(ss);
			return r;
		}
		s += n + (end != NULL);
	}
	return PC_OK;
}

void pc_symspecs_free(pc_symspecs *ss)
{
	for (size_t i = 0; i < ss->n; i++) {
		free(ss->v[i].left);
		free(ss->v[i].right);
	}
	free(ss->v);
	free(ss->mask);
	free(ss->text);
	memset(ss, 0, sizeof *ss);
}

static const char *base_name(const char *path)
{
	const char *b = strrchr(path, '/');
	return b ? b + 1 : path;
}

/* match: name, file (the function's, as DWARF gives it, or NULL), line */
static int side_match(const pc_ssside *s, const char *name, const char *file,
		      unsigned line)
{
	if (s->file && (!file || strlen(base_name(file)) != s->flen ||
			memcmp(base_name(file), s->file, s->flen)))
		return 0;
	if (s->line && s->line != line)
		return 0;
	if (s->name && (!name || strlen(name) != s->len || memcmp(name, s->name, s->len)))
		return 0;
	return 1;
}

int pc_symspecs_resolve(pc_profile *p, pc_symspecs *ss, pc_rowfind_fn find)
{
	if (!ss->n)
		return PC_OK;
	size_t n = p->ntargets;
	ss->ntargets = n;
	ss->mask = calloc(n ? n : 1, sizeof *ss->mask);
	int st = ss->mask ? PC_OK : PC_ENOMEM;
	for (size_t i = 0; !st && i < ss->n; i++)
		if (ss->v[i].has_to &&
		    (!(ss->v[i].left = calloc(n ? n : 1, 1)) || !(ss->v[i].right = calloc(n ? n : 1, 1))))
			st = PC_ENOMEM;
	if (st)
		return pc_diag_fail(&p->diag, PC_ENOMEM, "out of memory");
	pc_dwarf *d = NULL;
	if (ss->need_src && (st = pc_profile_dwarf_by(p, NULL, find, &d)))
		return st;
	/* a FILE spec names one file of the program: a last component that
	 * several files share is refused (gprof takes one of them) */
	for (size_t i = 0; i < n; i++) {
		const pc_target *t = &p->targets[i];
		const char *name = p->syms[t->symbol].name, *file = NULL;
		unsigned line = 0;
		if (d) {
			const pc_srcframe *f;
			size_t nf;
			if ((st = pc_dwarf_lookup_frames(d, t->address, &f, &nf))) {
				const pc_error *e = pc_dwarf_error(d);
				return pc_diag_fail(&p->diag, st, "%s", e ? e->message : "DWARF");
			}
			if (nf && f[0].file && f[0].line && f[0].function) {
				file = f[0].file;
				line = f[0].line;
			}
		}
		for (size_t j = 0; j < ss->n; j++) {
			pc_symspec *e = &ss->v[j];
			int l = side_match(&e->from, name, file, line);
			if (l) {
				if (e->from.file && file) {
					if (!e->path)
						e->path = file; /* d's, as long-lived as p */
					else if (strcmp(e->path, file))
						return pc_diag_fail(
							&p->diag, PC_EUSAGE,
							"gprof-symspecs: '%.*s' names two files (%s, %s): gprof would pick one of them",
							(int)e->from.flen, e->from.file, e->path, file);
				}
				ss->matched[e->table] = 1;
				if (!e->has_to)
					ss->mask[i] |= 1u << e->table;
				else
					e->left[i] = 1;
			}
			if (e->has_to && side_match(&e->to, name, file, line))
				e->right[i] = 1;
		}
	}
	return PC_OK;
}

int pc_symspecs_has(const pc_symspecs *ss, int table, size_t target)
{
	return target < ss->ntargets && (ss->mask[target] >> table & 1u);
}

/* gprof's rule for a symbol table pair: included when in the INCL table,
 * or that table is empty and the symbol is not in the EXCL table. */
int pc_symspecs_selected(const pc_symspecs *ss, int incl, size_t target, int excluded)
{
	if (pc_symspecs_has(ss, incl, target))
		return 1;
	return !ss->matched[incl] && !excluded && !pc_symspecs_has(ss, incl + 1, target);
}

static int arc_in(const pc_symspecs *ss, int table, size_t from, size_t to)
{
	if (from >= ss->ntargets || to >= ss->ntargets)
		return 0;
	for (size_t i = 0; i < ss->n; i++)
		if (ss->v[i].table == table && ss->v[i].has_to && ss->v[i].left[from] &&
		    ss->v[i].right[to])
			return 1;
	return 0;
}

int pc_symspecs_arc_kept(const pc_symspecs *ss, size_t from, size_t to)
{
	if (arc_in(ss, PC_SS_INCL_ARCS, from, to))
		return 1;
	return !ss->matched[PC_SS_INCL_ARCS] && !arc_in(ss, PC_SS_EXCL_ARCS, from, to);
}
