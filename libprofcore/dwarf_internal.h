/* dwarf_internal.h - what the line view and the source report use of
 * dwarf.c beyond the public API.  Private to libprofcore. */
#ifndef PC_DWARF_INTERNAL_H
#define PC_DWARF_INTERNAL_H

#include "pc_base.h"
#include "report.h"
#include "pc_config.h"

/** A compressed program (gzip) is read up to this many bytes inflated
 *  (loaders/elf.c, and before libdw inflates it whole in dwarf.c): past
 *  it, refused in one line (decompress it first).  A bomb of zeros
 *  otherwise took 1 GiB, twice. */
#define PC_PROGRAM_GZ_LIMIT ((uint64_t)128 << 20)
/** A compressed debug section (SHF_COMPRESSED, .zdebug) is refused when
 *  it inflates to more than PC_PROGRAM_INFLATE_LIMIT bytes and more than
 *  PC_INFLATE_RATIO times its size in the file. */
#define PC_PROGRAM_INFLATE_LIMIT ((uint64_t)64 << 20)
#define PC_INFLATE_RATIO 64

/** One of gprof's line symbols: where (function, file, line) starts. */
typedef struct pc_linesym {
	uint64_t addr;
	const char *function, *file; /* owned by the pc_dwarf */
	unsigned line;
} pc_linesym;

/** A row of a given line table: [addr, end) is line of file, in
 *  function (NULL: outside every function). */
typedef struct pc_linerow {
	uint64_t addr, end;
	const char *function, *file;
	unsigned line;
} pc_linerow;

/** Makes d read the given rows (copied) instead of DWARF: the line
 *  numbers of a linker map.  origin names them in errors.  Works without
 *  libdw. */
PC_INTERNAL int pc_dwarf_set_lines(pc_dwarf *d, const char *origin,
				   const pc_linerow *rows, size_t n);

/** The source file named file (as in pc_srcframe), found as
 *  pc_dwarf_find_source finds it and opened: PC_OK, *path (malloc'd) the
 *  name it was read from and *s the open stream (caller frees both);
 *  PC_ENOTFOUND when none may be read, *why NULL (no such file) or the
 *  one line saying why a file was not read (a static string: outside
 *  the compilation and source directories, not a regular file, under
 *  /proc, /sys or /dev; docs/source.md); PC_ENOMEM. */
PC_INTERNAL int pc_dwarf_open_source(const pc_dwarf *d, const char *file, char **path,
				     pc_stream **s, const char **why);

/** gprof's line symbols of .text (core_create_line_syms), in address
 *  order; *out is malloc'ed (caller frees). */
PC_INTERNAL int pc_dwarf_line_syms(pc_dwarf *d, pc_linesym **out, size_t *n);

/** The line symbols of pc_dwarf_line_syms that lie in the given address
 *  ranges: ranges[2k] <= address < ranges[2k+1], k < nranges, sorted and
 *  disjoint (ranges NULL: all).  Only the candidates in the ranges (and
 *  the one before each) are looked up. */
PC_INTERNAL int pc_dwarf_line_syms_in(pc_dwarf *d, const uint64_t *ranges,
				      size_t nranges, pc_linesym **out, size_t *n);

/** The pc_dwarf of p: the one given with pc_profile_set_dwarf, else one
 *  opened (once, owned by p) from p's ELF source file with opts'
 *  "source-path".  Errors are recorded on p. */
PC_INTERNAL int pc_profile_dwarf(pc_profile *p, const pc_options *opts,
				 pc_dwarf **out);
/** Records the DWARF reader's error e, with its file and offset, on p
 *  (e NULL: "cannot read DWARF" with st); returns its code (else st). */
PC_INTERNAL int pc_profile_dwarf_fail(pc_profile *p, const pc_error *e, int st);
/** Whether p holds a pc_dwarf (given, or opened by pc_profile_dwarf). */
PC_INTERNAL int pc_profile_has_dwarf(const pc_profile *p);
/** Closes the pc_dwarf p opened (not one given with pc_profile_set_dwarf):
 *  the next pc_profile_dwarf opens it again. */
PC_INTERNAL void pc_profile_dwarf_close(pc_profile *p);
/** pc_profile_dwarf with find, the row lookup that gives the line rows of
 *  a map (no ELF) their functions (profdwarf.c; pc_profile_dwarf, in
 *  lines.c, passes pc_profile_row_find). */
PC_INTERNAL int pc_profile_dwarf_by(pc_profile *p, const pc_options *opts,
				    pc_rowfind_fn find, pc_dwarf **out);

/** p seen at granularity "line" or "file" (opts "granularity"): a new
 *  profile whose symbols are gprof's line symbols (file: one per source
 *  file) besides the function symbols without DWARF, holding p's samples,
 *  histograms, arcs and regions (the histograms' counts are p's, not
 *  copied: *out is freed before p).  *out is NULL for granularity function
 *  (or none given).  Errors are recorded on p. */
PC_INTERNAL int pc_profile_granular(pc_profile *p, const pc_options *opts,
				    pc_profile **out);

/** In a build that opens libdw at its first use (PC_DWARF_DLOPEN): opens
 *  the shared library soname and takes the functions dwarf.c uses from it,
 *  as pc_dwarf_load does with PC_DWARF_SONAME, then closes it
 *  again: PC_OK, or PC_EUNSUPPORTED with pc_dwarf_load's one-line message
 *  in msg.  Elsewhere PC_EUNSUPPORTED, msg "".  (Tests.) */
PC_INTERNAL int pc_dwarf_load_libdw(const char *soname, char *msg, size_t msglen);

/** Tests: general 1 makes pc_dwarf_load read every unit with libdw
 *  (dwarf_getsrclines, dwarf_child/dwarf_siblingof), not dwline.c, and
 *  the line symbols' walk read every candidate's frame (not taken as the
 *  one before's where its file, line and scope are). */
PC_INTERNAL void pc_dwarf_set_general(pc_dwarf *d, int general);
/** Tests: what pc_dwarf_load read (line rows, scopes, their ranges, the
 *  line symbols' candidates) as text, malloc'd (NULL: out of memory);
 *  *lines and *dies the units whose line table and DIEs dwline.c read. */
PC_INTERNAL char *pc_dwarf_dump(const pc_dwarf *d, size_t *lines, size_t *dies);

#endif
