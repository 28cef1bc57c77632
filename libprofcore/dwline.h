/* dwline.h - .debug_line read without libdw (dwline.c): the rows of one
 * unit's line table, as libdw 0.188's dwarf_getsrclines gives them.
 * Private to libprofcore. */
#ifndef PC_DWLINE_H
#define PC_DWLINE_H

#include "pc_base.h"
#include "lookup.h"
#include "pc_config.h"

#if PC_HAVE_DWARF
#include <libelf.h>
#endif

/** One row of a line table (libdw's Dwarf_Line, what profcore uses). */
typedef struct pc_dwl_row {
	uint64_t addr;
	uint32_t file;   /* index into the unit's files (may be past them) */
	int32_t line;
	uint16_t col;
	uint8_t is_stmt, end;
} pc_dwl_row;

/** A reader: the sections given (bytes as libdw holds them: inflated,
 *  relocated; p NULL for a section the file lacks) and its byte order,
 *  and the last unit read, kept for the next (its arrays reused). */
typedef struct pc_dwl {
	const unsigned char *line, *line_str, *str, *info, *abbrev;
	size_t nline, nline_str, nstr, ninfo, nabbrev;
	pc_endian endian;
	/* set by the caller: of a run of rows at one address, none ending a
	 * sequence, only the last is kept (pc_dwl_read) */
	int drop_views;
	/* the rows: each unit read appends its own after the nrows there
	 * (the caller's, left as they are; the caller may take the array
	 * and give it back), by address (libdw's order); the last unit's
	 * files' names as libdw composes them (files[i] malloc'd) */
	pc_dwl_row *rows;
	size_t nrows, caprows;
	char **files;
	size_t nfiles, capfiles;
	/* scratch */
	struct pc_dwl_dir *dirs;
	size_t capdirs;
	pc_rkey *keys;
	size_t capkeys;
} pc_dwl;

/** Reads the line table at .debug_line offset off of a unit whose
 *  addresses are address_size bytes, compilation directory comp_dir
 *  (NULL: none): its rows appended to t->rows after the t->nrows there
 *  (set t->nrows to 0 for this unit's alone), its files into t->files:
 *  PC_OK; PC_ENOMEM; or PC_EUNSUPPORTED for anything this reader does
 *  not read exactly as libdw does (read that unit with
 *  dwarf_getsrclines).  On an error t->nrows is as it was (t->rows and
 *  t->caprows may have moved).  With
 *  t->drop_views, the rows are libdw's less every row that is not an end
 *  of sequence and is followed (in libdw's order) by one at its address
 *  that is not either: a lookup takes the last row at an
 *  address, such a row is never the answer. */
PC_INTERNAL int pc_dwl_read(pc_dwl *t, uint64_t off, unsigned address_size,
			    const char *comp_dir);
#if PC_HAVE_DWARF
/** Sets t's sections and byte order from e, the ELF file holding the
 *  DWARF, after libdw opened it: the first section of each name outside
 *  section groups (.zdebug_ too), as libdw's check_section takes them;
 *  t->line stays NULL when the DWARF is not in plain sections (.dwo,
 *  LTO).  The bytes are libdw's (inflated, relocated in place). */
PC_INTERNAL void pc_dwl_sections(pc_dwl *t, Elf *e);
#endif
/** Frees what t holds (not the sections; the rows unless the caller
 *  took them: t->rows NULL). */
PC_INTERNAL void pc_dwl_free(pc_dwl *t);


/* ---- a unit's DIEs read in order (dwline.c) ------------------------------ */

/** One attribute of a DIE: its name, form and value's bytes. */
typedef struct pc_dwk_attr {
	uint32_t name, form;
	const unsigned char *val;
	int64_t implicit; /* DW_FORM_implicit_const's value */
} pc_dwk_attr;

struct pc_dwk_abbrev;

/** A reader of one unit's DIEs, in the order they lie: sections from
 *  pc_dwl_sections (plus .debug_info, .debug_abbrev there). */
typedef struct pc_dwk {
	const pc_dwl *sec;
	const unsigned char *p, *end; /* the next entry, the unit's end */
	uint64_t unit; /* the unit's offset in .debug_info */
	unsigned version, asize, offsz;
	/* the abbreviations, by code (abbrev[code], code < nabbrev) */
	struct pc_dwk_abbrev *abbrev;
	size_t nabbrev, capabbrev;
	uint64_t abbrev_off; /* of the table read, UINT64_MAX: none */
	pc_dwk_attr *spec; /* every abbreviation's attributes */
	size_t nspec, capspec;
	/* how each abbreviation's DIEs are skipped: a run of fixed-size
	 * values, then each value of a form of variable size and the run
	 * after it (skip[]), for the sizes of the unit key */
	struct pc_dwk_skip *skip;
	size_t nskip, capskip;
	signed char *width; /* of each of spec's values, -1: it varies */
	size_t capwidth;
	/* where each of spec's values lies: after which value of variable
	 * size (vpos[2i]: 0 none, j the j-th) and how far after it
	 * (vpos[2i + 1]) */
	uint32_t *vpos;
	size_t capvpos;
	/* the attributes the caller asks for (pc_dwk_get, at most 32), set
	 * before the first pc_dwk_unit; of each abbreviation, those it has:
	 * pairs (j in want, the attribute's index) */
	const uint32_t *want;
	size_t nwant;
	int32_t *wantidx;
	size_t capwantidx;
	/* the last DIE's values of variable size: where each ends */
	const unsigned char **segpos;
	size_t capsegpos;
	uint32_t skipkey; /* 0: none computed */
	/* the last DIE read */
	uint64_t off;
	uint32_t tag;
	int children;
	int sibling; /* its abbreviation has a DW_AT_sibling */
	const struct pc_dwk_abbrev *cur;
} pc_dwk;

/** Starts k at the unit at .debug_info offset unit (its first DIE next):
 *  PC_OK, PC_ENOMEM, or PC_EUNSUPPORTED (read the unit with libdw). */
PC_INTERNAL int pc_dwk_unit(pc_dwk *k, const pc_dwl *sec, uint64_t unit);
/** The next entry: 1 a DIE (k->off, tag, children, sibling; its
 *  attributes by pc_dwk_get), 0 a null entry (the end of a list of
 *  siblings), PC_ENOMEM, or PC_EUNSUPPORTED. */
PC_INTERNAL int pc_dwk_next(pc_dwk *k);
/** The attributes asked for of the DIE pc_dwk_next read: bit j set and
 *  v[j] its first attribute named k->want[j], for each it has (at most
 *  32 asked for). */
PC_INTERNAL uint32_t pc_dwk_get(const pc_dwk *k, pc_dwk_attr *v);
/** An attribute's value as libdw's dwarf_formaddr, dwarf_formudata (the
 *  constant forms), dwarf_formstring (strings in the unit or
 *  .debug_str, .debug_line_str) or a reference's .debug_info offset
 *  read it: PC_OK, or PC_EUNSUPPORTED (ask libdw). */
PC_INTERNAL int pc_dwk_addr(const pc_dwk *k, const pc_dwk_attr *a, uint64_t *v);
PC_INTERNAL int pc_dwk_udata(const pc_dwk *k, const pc_dwk_attr *a, uint64_t *v);
PC_INTERNAL int pc_dwk_string(const pc_dwk *k, const pc_dwk_attr *a, const char **s);
PC_INTERNAL int pc_dwk_ref(const pc_dwk *k, const pc_dwk_attr *a, uint64_t *off);
PC_INTERNAL void pc_dwk_free(pc_dwk *k);

#endif
