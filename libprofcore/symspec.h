/*
 * symspec.h - gprof's symbol selections (symspec.c).
 * Private to libprofcore, the built-in loaders and the report engines
 * (internal.h includes every one of these).
 */
#ifndef PC_SYMSPEC_H
#define PC_SYMSPEC_H

#include "pc_base.h"
#include "report.h"

/* ---- gprof's symbol selections (symspec.c) ------------------------------ */
/* gprof's tables (sym_ids.h), each INCL followed by its EXCL */
enum {
	PC_SS_INCL_GRAPH, PC_SS_EXCL_GRAPH, PC_SS_INCL_ARCS, PC_SS_EXCL_ARCS,
	PC_SS_INCL_FLAT, PC_SS_EXCL_FLAT, PC_SS_INCL_TIME, PC_SS_EXCL_TIME,
	PC_SS_INCL_ANNO, PC_SS_EXCL_ANNO, PC_SS_TABLES
};
typedef struct pc_ssside { /* FILE:NAME, FILE:LINE, NAME, FILE, LINE */
	const char *name, *file; /* in pc_symspecs.text, NULL if absent */
	size_t len, flen;
	unsigned line;           /* 0: absent */
} pc_ssside;
typedef struct pc_symspec {
	int table, has_to;       /* has_to: FROM/TO, an arc */
	pc_ssside from, to;
	const char *path;        /* the file a FILE side matched */
	unsigned char *left, *right; /* arcs: per target, FROM / TO match */
} pc_symspec;
typedef struct pc_symspecs {
	char *text;              /* the option's value, owned */
	pc_symspec *v;
	size_t n, cap;
	int need_src;            /* a spec names a file or line: DWARF */
	size_t ntargets;
	uint16_t *mask;          /* per target: the tables holding it */
	int matched[PC_SS_TABLES]; /* a spec of the table matched (FROM) */
} pc_symspecs;
/** Reads value, the option "gprof-symspecs" (NULL: no selection), into
 *  ss; PC_EUSAGE (message on p) for a malformed one.  Free with
 *  pc_symspecs_free (also after a failure: nothing to free then). */
PC_INTERNAL int pc_symspecs_parse(pc_profile *p, const char *value, pc_symspecs *ss);
PC_INTERNAL void pc_symspecs_free(pc_symspecs *ss);
/** The selections the last attribution of p used (NULL: none). */
PC_INTERNAL const char *pc_profile_symspecs(const pc_profile *p);
/** Matches ss against p's attribution targets (their names, and with a
 *  FILE or LINE spec their DWARF file and line, from pc_profile_dwarf_by
 *  with find): before the queries.  PC_ENOMEM, DWARF errors, PC_EUSAGE
 *  for a FILE naming two files. */
PC_INTERNAL int pc_symspecs_resolve(pc_profile *p, pc_symspecs *ss, pc_rowfind_fn find);
/** 1 if table holds target (an attribution target's index). */
PC_INTERNAL int pc_symspecs_has(const pc_symspecs *ss, int table, size_t target);
/** gprof's selection by the table pair incl, incl + 1: in incl, or incl
 *  empty (no spec of it matched) and neither in incl + 1 nor excluded
 *  (gprof's default exclusions, PC_SYMF_EXCLUDED). */
PC_INTERNAL int pc_symspecs_selected(const pc_symspecs *ss, int incl, size_t target,
				     int excluded);
/** 1 if the arc between targets from and to counts (INCL_ARCS /
 *  EXCL_ARCS). */
PC_INTERNAL int pc_symspecs_arc_kept(const pc_symspecs *ss, size_t from, size_t to);

#endif
