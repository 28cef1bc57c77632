/* symspec.c - GNU gprof's symbol selections (the report option
 * "gprof-symspecs"): which functions the flat profile lists and credits,
 * which the call graph prints, which pass time to their callers, which
 * call arcs count.
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
 * selection is dropped with its calls).  A spec here is a function name
 * (gprof's "NAME" or ":NAME", compared with the symbol table's name);
 * the specs naming a source file or line are refused (PC_EUSAGE).
 * basic_blocks.c print_annotated_source reads the ANNO tables.
 * gprof's own exclusions (mcount & co, EXCL_FLAT/GRAPH/TIME) are the
 * symbols flagged PC_SYMF_EXCLUDED.
 */
#include "internal.h"

#include <stdlib.h>
#include <string.h>

static int spec_name(pc_profile *p, const char *s, size_t n, const char **name,
		     size_t *len)
{
	/* ":NAME" is NAME; FILE:..., FILE (a dot), LINE (a digit) are
	 * source specs */
	if (n && s[0] == ':') {
		s++;
		n--;
	} else if (n && (memchr(s, ':', n) || memchr(s, '.', n) ||
			 (s[0] >= '0' && s[0] <= '9'))) {
		return pc_profile_fail(p, PC_EUSAGE,
				       "gprof-symspecs: '%.*s' names a source file or line: only function names are supported",
				       (int)n, s);
	}
	if (!n)
		return pc_profile_fail(p, PC_EUSAGE, "gprof-symspecs: empty symbol name");
	*name = s;
	*len = n;
	return PC_OK;
}

static int add(pc_profile *p, pc_symspecs *ss, int table, const char *s, size_t n)
{
	pc_symspec e = {0};
	const char *slash = memchr(s, '/', n);
	int arcs = table == PC_SS_INCL_ARCS || table == PC_SS_EXCL_ARCS;
	if (arcs != (slash != NULL))
		return pc_profile_fail(p, PC_EUSAGE,
				       arcs ? "gprof-symspecs: '%.*s': an arc is FROM/TO"
					    : "gprof-symspecs: '%.*s': FROM/TO names an arc, not a symbol",
				       (int)n, s);
	int r;
	if (slash) {
		if ((r = spec_name(p, s, (size_t)(slash - s), &e.name, &e.len)) ||
		    (r = spec_name(p, slash + 1, n - (size_t)(slash + 1 - s), &e.to, &e.tolen)))
			return r;
	} else if ((r = spec_name(p, s, n, &e.name, &e.len))) {
		return r;
	}
	if (pc_grow((void **)&ss->t[table].v, &ss->t[table].cap, ss->t[table].n + 1,
		    sizeof e))
		return pc_profile_fail(p, PC_ENOMEM, "out of memory");
	ss->t[table].v[ss->t[table].n++] = e;
	return PC_OK;
}

int pc_symspecs_parse(pc_profile *p, const char *v, pc_symspecs *ss)
{
	memset(ss, 0, sizeof *ss);
	if (!v || !*v)
		return PC_OK;
	ss->text = pc_strdup(v);
	if (!ss->text)
		return pc_profile_fail(p, PC_ENOMEM, "out of memory");
	for (const char *s = ss->text; *s;) {
		const char *end = strchr(s, ';');
		size_t n = end ? (size_t)(end - s) : strlen(s);
		int r = PC_OK;
		if (n < 2) {
			r = pc_profile_fail(p, PC_EUSAGE,
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
				r = pc_profile_fail(p, PC_EUSAGE,
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
	for (int i = 0; i < PC_SS_TABLES; i++)
		free(ss->t[i].v);
	free(ss->text);
	memset(ss, 0, sizeof *ss);
}

static int eq(const char *spec, size_t len, const char *name)
{
	return name && strlen(name) == len && !memcmp(spec, name, len);
}

void pc_symspecs_see(pc_symspecs *ss, const char *name)
{
	for (int i = 0; i < PC_SS_TABLES; i++)
		for (size_t j = 0; !ss->t[i].matched && j < ss->t[i].n; j++)
			if (eq(ss->t[i].v[j].name, ss->t[i].v[j].len, name))
				ss->t[i].matched = 1;
}

int pc_symspecs_has(const pc_symspecs *ss, int table, const char *name)
{
	const pc_sstable *t = &ss->t[table];
	for (size_t i = 0; i < t->n; i++)
		if (eq(t->v[i].name, t->v[i].len, name))
			return 1;
	return 0;
}

/* gprof's rule for a symbol table pair: included when in the INCL table,
 * or that table is empty and the symbol is not in the EXCL table. */
int pc_symspecs_selected(const pc_symspecs *ss, int incl, const char *name,
			 int excluded)
{
	if (pc_symspecs_has(ss, incl, name))
		return 1;
	return !ss->t[incl].matched && !excluded && !pc_symspecs_has(ss, incl + 1, name);
}

static int arc_in(const pc_sstable *t, const char *from, const char *to)
{
	for (size_t i = 0; i < t->n; i++)
		if (eq(t->v[i].name, t->v[i].len, from) && eq(t->v[i].to, t->v[i].tolen, to))
			return 1;
	return 0;
}

int pc_symspecs_arc_kept(const pc_symspecs *ss, const char *from, const char *to)
{
	if (arc_in(&ss->t[PC_SS_INCL_ARCS], from, to))
		return 1;
	return !ss->t[PC_SS_INCL_ARCS].matched && !arc_in(&ss->t[PC_SS_EXCL_ARCS], from, to);
}
