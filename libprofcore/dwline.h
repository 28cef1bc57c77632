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
	const unsigned char *line, *line_str, *str;
	size_t nline, nline_str, nstr;
	pc_endian endian;
	/* the last unit read: its rows by address (libdw's order), its
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
 *  (NULL: none), into t->rows and t->files: PC_OK; PC_ENOMEM; or
 *  PC_EUNSUPPORTED for anything this reader does not read exactly as
 *  libdw does (read that unit with dwarf_getsrclines). */
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
/** Frees what t holds (not the sections). */
PC_INTERNAL void pc_dwl_free(pc_dwl *t);

#endif
