/* dwarf.c - source locations from DWARF through elfutils' libdw/libdwfl
 * (docs/source.md ("Source level")).
 *
 * A pc_dwarf reads one ELF program (and its separate debug file, where
 * libdwfl's standard search finds it: .gnu_debuglink, build-id under
 * /usr/lib/debug).  Each distinct address is looked up once and cached:
 * file, line, column and the chain of inlined functions, innermost first.
 * Every compilation unit's line table and DIE tree is read once when the
 * file is opened, so damaged DWARF is an error there (file, offset of the
 * unit in the file), never a crash or a wrong line later.
 *
 * pc_dwarf_line_syms() makes gprof's line symbols (corefile.c
 * core_create_line_syms): gprof steps through .text one byte at a time
 * and starts a symbol where (function, file, line) changes; the same
 * symbols come from looking up only the addresses where a line-table row
 * or a function / inlined-subroutine range starts or ends.
 */
#include "decomp.h"
#include "dwarf_internal.h"
#include "dwline.h"
#include "lookup.h"
#include "platform.h"

#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#if PC_HAVE_DWARF
#include <dwarf.h>
#include <elfutils/libdw.h>
#include <elfutils/libdwfl.h>
#include <fcntl.h>
#include <gelf.h>
#include <stdio.h>
#include <unistd.h>
#include <zlib.h>
#endif
#if PC_DWARF_DLOPEN
#include <stddef.h>
#include <stdio.h>
#endif

#if PC_DWARF_DLOPEN
/* libdw is not linked (meson.build lazy_libs: it and liblzma, libbz2 cost
 * every start): pc_dwarf_load opens its shared library (kept mapped once
 * opened: RTLD_NODELETE) and takes these functions from it into the
 * pc_dwarf's own table, d->dw; pc_dwarf_free closes it.  Every other call
 * follows a successful dwfl_begin (d->dwfl), in a function given d. */
#define DW_FUNCS(X) \
	X(dwarf_attr) X(dwarf_attr_integrate) X(dwarf_child) X(dwarf_cu_info) X(dwarf_dieoffset) \
	X(dwarf_errmsg) X(dwarf_filesrc) X(dwarf_formstring) X(dwarf_formudata) \
	X(dwarf_formaddr) X(dwarf_getattrs) \
	X(dwarf_getelf) X(dwarf_getsrcfiles) X(dwarf_getsrclines) \
	X(dwarf_hasattr_integrate) X(dwarf_lineaddr) X(dwarf_linecol) \
	X(dwarf_lineendsequence) X(dwarf_lineno) X(dwarf_linesrc) X(dwarf_next_unit) X(dwarf_offdie) \
	X(dwarf_onesrcline) X(dwarf_ranges) X(dwarf_siblingof) X(dwarf_tag) \
	X(dwfl_begin) X(dwfl_build_id_find_elf) X(dwfl_end) X(dwfl_errmsg) \
	X(dwfl_errno) X(dwfl_module_addrname) \
	X(dwfl_module_build_id) X(dwfl_module_getdwarf) X(dwfl_module_getelf) \
	X(dwfl_module_info) \
	X(dwfl_module_nextcu) X(dwfl_offline_section_address) X(dwfl_report_end) \
	X(dwfl_report_offline) X(dwfl_standard_find_debuginfo)
#define DW_MEMBER(f) __typeof__(f) *f;
#define DW_SYM(f) {#f, offsetof(dw_table, f)},
typedef struct dw_table {
	DW_FUNCS(DW_MEMBER)
} dw_table;
static const pc_plat_sym dw_syms[] = {DW_FUNCS(DW_SYM)};

static void *dw_load(const char *soname, dw_table *t, char *msg, size_t msglen)
{
	char why[400];
	void *h = pc_plat_lib_open(soname, dw_syms, sizeof dw_syms / sizeof dw_syms[0], t, why,
				   sizeof why);
	if (!h)
		snprintf(msg, msglen, "cannot load libdw (%s): no DWARF; install %s (Debian: %s)",
			 why, PC_DWARF_SONAME, PC_DWARF_PACKAGE);
	return h;
}

int pc_dwarf_load_libdw(const char *soname, char *msg, size_t msglen)
{
	dw_table t;
	void *h = dw_load(soname, &t, msg, msglen);
	if (!h)
		return PC_EUNSUPPORTED;
	pc_plat_lib_close(h);
	return PC_OK;
}

/* the calls below go through d's table */
#define dwarf_attr (*d->dw.dwarf_attr)
#define dwarf_attr_integrate (*d->dw.dwarf_attr_integrate)
#define dwarf_child (*d->dw.dwarf_child)
#define dwarf_cu_info (*d->dw.dwarf_cu_info)
#define dwarf_dieoffset (*d->dw.dwarf_dieoffset)
#define dwarf_errmsg (*d->dw.dwarf_errmsg)
#define dwarf_filesrc (*d->dw.dwarf_filesrc)
#define dwarf_formaddr (*d->dw.dwarf_formaddr)
#define dwarf_formstring (*d->dw.dwarf_formstring)
#define dwarf_getattrs (*d->dw.dwarf_getattrs)
#define dwarf_formudata (*d->dw.dwarf_formudata)
#define dwarf_getelf (*d->dw.dwarf_getelf)
#define dwarf_getsrcfiles (*d->dw.dwarf_getsrcfiles)
#define dwarf_getsrclines (*d->dw.dwarf_getsrclines)
#define dwarf_hasattr_integrate (*d->dw.dwarf_hasattr_integrate)
#define dwarf_lineaddr (*d->dw.dwarf_lineaddr)
#define dwarf_linecol (*d->dw.dwarf_linecol)
#define dwarf_lineendsequence (*d->dw.dwarf_lineendsequence)
#define dwarf_lineno (*d->dw.dwarf_lineno)
#define dwarf_linesrc (*d->dw.dwarf_linesrc)
#define dwarf_next_unit (*d->dw.dwarf_next_unit)
#define dwarf_offdie (*d->dw.dwarf_offdie)
#define dwarf_onesrcline (*d->dw.dwarf_onesrcline)
#define dwarf_ranges (*d->dw.dwarf_ranges)
#define dwarf_siblingof (*d->dw.dwarf_siblingof)
#define dwarf_tag (*d->dw.dwarf_tag)
#define dwfl_begin (*d->dw.dwfl_begin)
#define dwfl_end (*d->dw.dwfl_end)
#define dwfl_errmsg (*d->dw.dwfl_errmsg)
#define dwfl_errno (*d->dw.dwfl_errno)
#define dwfl_module_addrname (*d->dw.dwfl_module_addrname)
#define dwfl_module_getdwarf (*d->dw.dwfl_module_getdwarf)
#define dwfl_module_build_id (*d->dw.dwfl_module_build_id)
#define dwfl_module_info (*d->dw.dwfl_module_info)
#define dwfl_module_getelf (*d->dw.dwfl_module_getelf)
#define dwfl_module_nextcu (*d->dw.dwfl_module_nextcu)
#define dwfl_report_end (*d->dw.dwfl_report_end)
#define dwfl_report_offline (*d->dw.dwfl_report_offline)
#endif

#if PC_HAVE_DWARF
#define NONODE ((size_t)-1)
/* A function scope: a subprogram, or an inlined subroutine with its call
 * site (in its parent scope). */
struct fnode {
	const char *name;
	const char *call_file;
	unsigned call_line, call_col;
	size_t parent; /* NONODE at the top */
	unsigned depth;
	int inlined;
	int subprogram_without_linkage;
};
struct frange {
	uint64_t lo, hi; /* module addresses */
	size_t node;
};
/* A row of a unit's line table (d->lrows): from addr (a module address)
 * on, file:line:col, file an index into d->files (0: none), line >= 0;
 * end: the end of a sequence, no line from addr on.  dwline.c's rows,
 * read into d->lrows and made these in place. */
typedef pc_dwl_row lrow;
#endif

typedef struct centry {
	uint64_t addr;
	size_t first; /* into d->frames */
	unsigned n;
	int used;
} centry;

struct pc_dwarf {
	pc_errslot err;
	pc_strpool pool;
	char *path;
	char **srcdirs;
	size_t nsrcdirs, capsrcdirs;
	/* every unit's DW_AT_comp_dir (in pool), sorted, distinct */
	const char **compdirs;
	size_t ncompdirs, capcompdirs;
	centry *tab;
	size_t cap, used;
	pc_srcframe *frames;
	size_t nframes, capframes;
	pc_srcframe *out; /* last answer, copied out of frames */
	size_t capout;
	size_t nlast; /* frames in out from the last pc_dwarf_lookup */
	uint64_t queries;
	int loaded;
	uint64_t text_lo, text_hi;
	int have_text;
	const char *cu_compdir; /* the unit being read: its DW_AT_comp_dir */
	int cu_mangled; /* the unit being read names functions in a mangled
			 * language: names without a linkage name are not
			 * the symbol's (binutils non_mangled) */
	int debuginfod; /* option "debuginfod": libdwfl's search, network too */
	char debugwhy[512]; /* a separate debug file refused: why */
#if PC_DWARF_DLOPEN
	dw_table dw;         /* libdw's functions, from dwlib */
	void *dwlib;         /* NULL: not opened */
	Dwfl_Callbacks cb;   /* dwfl_begin's, dw's */
#endif
	/* a line table given by pc_dwarf_set_lines (map line numbers)
	 * instead of DWARF: by address, strings in pool */
	pc_linerow *trows;
	size_t ntrows;
	int table;
#if PC_HAVE_DWARF
	Dwfl *dwfl;
	Dwfl_Module *mod;
	Dwarf_Addr bias;
	/* ARM and MIPS: bit 0 of a code address selects Thumb / MIPS16 /
	 * microMIPS code (gas writes it into DW_AT_low_pc of an assembly
	 * function); the instruction is at the even address */
	int isa_bit;
	/* every function / inlined-subroutine DIE, read once at load */
	struct fnode *nodes;
	size_t nnodes, capnodes;
	struct frange *ranges;
	size_t nranges, capranges;
	/* every unit's line table, merged by address: addresses are looked
	 * up here, not through the units' .debug_aranges (docs/source.md) */
	lrow *lrows;
	size_t nlrows, caplrows;
	/* the rows' file names (files[0] NULL: none), each unit's in turn
	 * (pooled, or libdw's) */
	const char **files;
	size_t nfiles, capfiles;
	uint64_t *alloc; /* the allocated sections: [alloc[2k], alloc[2k+1]) */
	size_t nalloc;
	/* elementary segments [seg[k], seg[k+1]) and their innermost node */
	uint64_t *seg;
	size_t *segnode;
	size_t nseg;
	size_t rowhint, seghint; /* the last lookup's places in lrows, seg */
	/* the unit being read, when dwline.c read its line table (cu_fast):
	 * its files' names as the rows have them (pooled), for
	 * DW_AT_call_file: d->files[cu_file0 + i], i < cu_nfiles; else
	 * libdw's */
	size_t cu_file0, cu_nfiles;
	int cu_fast;
	/* the units: [2k] the header's offset, [2k+1] the unit DIE's */
	uint64_t *units;
	size_t nunits, capunits;
	int general; /* pc_dwarf_set_general: libdw for every unit */
	size_t fast_lines, fast_dies; /* the units dwline.c read */
#endif
};

static int dfail(pc_dwarf *d, int code, int64_t offset, const char *fmt, ...)
	PC_PRINTF(4, 5);
static int dfail(pc_dwarf *d, int code, int64_t offset, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	pc_errslot_set(&d->err, code, d->path, offset, fmt, ap);
	va_end(ap);
	return code;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

int pc_dwarf_available(void)
{
	return PC_HAVE_DWARF;
}

static pc_dwarf *dwarf_new(const pc_dwarf_options *opts)
{
	pc_dwarf *d = calloc(1, sizeof *d);
	if (!d)
		return NULL;
	d->err.pub.offset = -1;
	const char *sp = opts ? opts->source_path : NULL;
	d->debuginfod = opts && opts->debuginfod;
	while (sp && *sp) {
		const char *e = strchr(sp, ':');
		size_t n = e ? (size_t)(e - sp) : strlen(sp);
		if (n) {
			if (pc_grow((void **)&d->srcdirs, &d->capsrcdirs,
				    d->nsrcdirs + 1, sizeof(char *))) {
				pc_dwarf_free(d);
				return NULL;
			}
			d->srcdirs[d->nsrcdirs] = pc_strndup(sp, n);
			if (!d->srcdirs[d->nsrcdirs]) {
				pc_dwarf_free(d);
				return NULL;
			}
			d->nsrcdirs++;
		}
		sp = e ? e + 1 : NULL;
	}
	return d;
}

int pc_dwarf_new(pc_dwarf **out, const pc_dwarf_options *opts)
{
	if (!out)
		return pc_last_error_set(PC_EUSAGE, NULL,
					 "pc_dwarf_new: no place for the reader");
	if (opts && opts->version != PC_DWARF_OPTIONS_VERSION) {
		*out = NULL;
		return pc_last_error_set(PC_EUSAGE, NULL,
					 "pc_dwarf_options.version %u: expected %u "
					 "(PC_DWARF_OPTIONS_INIT)",
					 opts->version, PC_DWARF_OPTIONS_VERSION);
	}
	*out = dwarf_new(opts);
	if (!*out)
		return pc_last_error_set(PC_ENOMEM, NULL,
					 "out of memory for a DWARF reader");
	return PC_OK;
}

void pc_dwarf_free(pc_dwarf *d)
{
	if (!d)
		return;
#if PC_HAVE_DWARF
	if (d->dwfl)
		dwfl_end(d->dwfl);
#if PC_DWARF_DLOPEN
	if (d->dwlib)
		pc_plat_lib_close(d->dwlib);
#endif
	free(d->nodes);
	free(d->ranges);
	free(d->lrows);
	free(d->files);
	free(d->units);
	free(d->alloc);
	free(d->seg);
	free(d->segnode);
#endif
	for (size_t i = 0; i < d->nsrcdirs; i++)
		free(d->srcdirs[i]);
	free(d->srcdirs);
	free(d->compdirs);
	free(d->trows);
	free(d->tab);
	free(d->frames);
	free(d->out);
	free(d->path);
	pc_errslot_clear(&d->err);
	pc_strpool_free(&d->pool);
	free(d);
}

const pc_error *pc_dwarf_error(const pc_dwarf *d)
{
	return d && d->err.pub.code ? &d->err.pub : NULL;
}

uint64_t pc_dwarf_query_count(const pc_dwarf *d)
{
	return d ? d->queries : 0;
}

/* ---- the address cache ---------------------------------------------------- */
#if PC_HAVE_DWARF

static size_t hash_addr(uint64_t a, size_t cap)
{
	a ^= a >> 33;
	a *= 0xff51afd7ed558ccdULL;
	a ^= a >> 33;
	return (size_t)(a & (cap - 1));
}

static centry *cache_find(pc_dwarf *d, uint64_t addr)
{
	if (!d->cap)
		return NULL;
	for (size_t i = hash_addr(addr, d->cap);; i = (i + 1) & (d->cap - 1)) {
		if (!d->tab[i].used)
			return NULL;
		if (d->tab[i].addr == addr)
			return &d->tab[i];
	}
}

/* The cache holds at most about this many frames and addresses: a
 * report that looks every address up once (-r locations of inline-heavy
 * code: a hundred frames an address) would otherwise hold them all; past
 * either, the cache starts again. */
#define CACHE_FRAMES ((size_t)1 << 18)
#define CACHE_ADDRS ((size_t)1 << 18)

static void cache_clear(pc_dwarf *d)
{
	if (d->tab)
		memset(d->tab, 0, d->cap * sizeof *d->tab);
	d->used = 0;
	d->nframes = 0;
}

static centry *cache_insert(pc_dwarf *d, uint64_t addr)
{
	if ((d->used + 1) * 2 > d->cap) {
		size_t ncap = d->cap ? d->cap * 2 : 1024;
		centry *nt = calloc(ncap, sizeof *nt);
		if (!nt)
			return NULL;
		for (size_t i = 0; i < d->cap; i++) {
			if (!d->tab[i].used)
				continue;
			size_t j = hash_addr(d->tab[i].addr, ncap);
			while (nt[j].used)
				j = (j + 1) & (ncap - 1);
			nt[j] = d->tab[i];
		}
		free(d->tab);
		d->tab = nt;
		d->cap = ncap;
	}
	size_t i = hash_addr(addr, d->cap);
	while (d->tab[i].used)
		i = (i + 1) & (d->cap - 1);
	d->tab[i].used = 1;
	d->tab[i].addr = addr;
	d->used++;
	return &d->tab[i];
}
#endif

#if PC_HAVE_DWARF

static const char *pool(pc_dwarf *d, const char *s)
{
	return s ? pc_strpool_add(&d->pool, s) : NULL;
}

static int64_t section_file_offset(pc_dwarf *d, const char *name)
{
	Dwarf_Addr b;
	Dwarf *dw = dwfl_module_getdwarf(d->mod, &b);
	Elf *e = dw ? dwarf_getelf(dw) : NULL;
	size_t shstrndx;
	if (!e || elf_getshdrstrndx(e, &shstrndx))
		return -1;
	for (Elf_Scn *s = NULL; (s = elf_nextscn(e, s));) {
		GElf_Shdr sh;
		if (!gelf_getshdr(s, &sh))
			continue;
		const char *n = elf_strptr(e, shstrndx, sh.sh_name);
		if (n && !strcmp(n, name))
			return (int64_t)sh.sh_offset;
	}
	return -1;
}

/* An error in the unit at .debug_info offset off: the file offset when
 * the section is found, else the section offset (said so). */
static int damaged_in(pc_dwarf *d, const char *sec, Dwarf_Off off,
		      const char *what)
{
	int64_t so = section_file_offset(d, sec);
	const char *msg = dwarf_errmsg(-1);
	if (so >= 0)
		return dfail(d, PC_EFORMAT, so + (int64_t)off,
			     "damaged DWARF: %s at %s+0x%llx: %s", what, sec,
			     (unsigned long long)off, msg ? msg : "unreadable");
	return dfail(d, PC_EFORMAT, -1, "damaged DWARF: %s at %s+0x%llx: %s", what,
		     sec, (unsigned long long)off, msg ? msg : "unreadable");
}

static int damaged(pc_dwarf *d, Dwarf_Off off, const char *what)
{
	int64_t so = section_file_offset(d, ".debug_info");
	const char *msg = dwarf_errmsg(-1);
	if (so >= 0)
		return dfail(d, PC_EFORMAT, so + (int64_t)off,
			     "damaged DWARF: %s of the compilation unit at .debug_info+0x%llx: %s",
			     what, (unsigned long long)off, msg ? msg : "unreadable");
	return dfail(d, PC_EFORMAT, -1,
		     "damaged DWARF: %s of the compilation unit at .debug_info+0x%llx: %s",
		     what, (unsigned long long)off, msg ? msg : "unreadable");
}

static const char *scope_name(pc_dwarf *d, Dwarf_Die *die);
static const char *unit_file(pc_dwarf *d, const char *compdir, const char *name,
			     const char **last_in, const char **last_out);

/* The attributes of a function DIE that the walk reads, in one pass over
 * the DIE (dwarf_getattrs): libdw's dwarf_attr scans the DIE's
 * attributes again for each one asked for. */
struct fattrs {
	Dwarf_Attribute low, high, linkage, mips_linkage, name, call_file, call_line,
		call_col;
	unsigned char has_low, has_high, has_ranges, has_linkage, has_mips_linkage,
		has_name, has_origin, has_call_file, has_call_line, has_call_col;
};

/* (the first of an attribute given twice, as dwarf_attr finds it) */
#define FATTR(f, x, a) \
	do { \
		if (!(f)->has_##x) { \
			(f)->x = *(a); \
			(f)->has_##x = 1; \
		} \
	} while (0)

static int fattr_cb(Dwarf_Attribute *a, void *arg)
{
	struct fattrs *f = arg;
	switch (a->code) {
	case DW_AT_low_pc: FATTR(f, low, a); break;
	case DW_AT_high_pc: FATTR(f, high, a); break;
	case DW_AT_ranges: f->has_ranges = 1; break;
	case DW_AT_linkage_name: FATTR(f, linkage, a); break;
	case DW_AT_MIPS_linkage_name: FATTR(f, mips_linkage, a); break;
	case DW_AT_name: FATTR(f, name, a); break;
	case DW_AT_abstract_origin: case DW_AT_specification: f->has_origin = 1; break;
	case DW_AT_call_file: FATTR(f, call_file, a); break;
	case DW_AT_call_line: FATTR(f, call_line, a); break;
	case DW_AT_call_column: FATTR(f, call_col, a); break;
	default: break;
	}
	return DWARF_CB_OK;
}
#undef FATTR

/* One range of a function DIE into d->ranges (module addresses); its
 * bounds are candidates (build_segments sorts them). */
static int add_range(pc_dwarf *d, Dwarf_Addr lo, Dwarf_Addr hi, Dwarf_Addr cb, size_t node,
		     int *any)
{
	if (d->isa_bit) {
		lo &= ~(Dwarf_Addr)1;
		hi &= ~(Dwarf_Addr)1;
	}
	if (hi <= lo)
		return PC_OK;
	if (d->nranges == d->capranges &&
	    pc_grow((void **)&d->ranges, &d->capranges, d->nranges + 1, sizeof *d->ranges))
		return PC_ENOMEM;
	d->ranges[d->nranges++] = (struct frange){lo + cb, hi + cb, node};
	*any = 1;
	return PC_OK;
}

/* The function DIE die (a subprogram, inlined subroutine or entry
 * point, tag) under the scope parent: a node with its ranges when it has
 * any (*inner, else parent). */
static int func_die(pc_dwarf *d, Dwarf_Die *die, int tag, size_t parent, Dwarf_Die *cu,
		    Dwarf_Addr cb, Dwarf_Off cuoff, size_t *inner)
{
	struct fattrs fa;
	memset(&fa, 0, sizeof fa);
	if (dwarf_getattrs(die, fattr_cb, &fa, 0) != 1)
		return damaged(d, cuoff, "DIE tree");
	size_t node = d->nnodes;
	int any = 0;
	Dwarf_Addr lo, hi;
	Dwarf_Word len;
	if (fa.has_low && fa.has_high && dwarf_formaddr(&fa.low, &lo) == 0 &&
	    (dwarf_formaddr(&fa.high, &hi) == 0 ||
	     (dwarf_formudata(&fa.high, &len) == 0 && (hi = lo + len, 1)))) {
		/* dwarf_ranges' single range */
		if (add_range(d, lo, hi, cb, node, &any))
			return PC_ENOMEM;
	} else if (fa.has_ranges) {
		Dwarf_Addr base;
		ptrdiff_t off = 0;
		while ((off = dwarf_ranges(die, off, &base, &lo, &hi)) > 0)
			if (add_range(d, lo, hi, cb, node, &any))
				return PC_ENOMEM;
	}
	if (any) {
		if (pc_grow((void **)&d->nodes, &d->capnodes, d->nnodes + 1,
			    sizeof *d->nodes))
			return PC_ENOMEM;
		struct fnode *n = &d->nodes[d->nnodes++];
		memset(n, 0, sizeof *n);
		n->parent = parent;
		n->depth = parent == NONODE ? 0 : d->nodes[parent].depth + 1;
		if (fa.has_origin) {
			n->name = scope_name(d, die);
		} else {
			/* scope_name's answer from the DIE's own
			 * attributes */
			if (fa.has_linkage)
				n->name = dwarf_formstring(&fa.linkage);
			else if (fa.has_mips_linkage)
				n->name = dwarf_formstring(&fa.mips_linkage);
			if (!n->name && fa.has_name)
				n->name = dwarf_formstring(&fa.name);
		}
		if (n->name && !(n->name = pool(d, n->name)))
			return PC_ENOMEM;
		n->inlined = tag == DW_TAG_inlined_subroutine;
		n->subprogram_without_linkage =
			tag == DW_TAG_subprogram && d->cu_mangled &&
			!(fa.has_linkage ||
			  (fa.has_origin &&
			   dwarf_hasattr_integrate(die, DW_AT_linkage_name)));
		if (n->inlined) {
			Dwarf_Word cf = 0, cl = 0, cc = 0;
			Dwarf_Files *files;
			size_t nfiles;
			if (fa.has_call_file && d->cu_fast &&
			    dwarf_formudata(&fa.call_file, &cf) == 0) {
				/* dwline.c's names: libdw's
				 * dwarf_getsrcfiles would read the
				 * whole line table again */
				n->call_file = cf < d->cu_nfiles ? d->files[d->cu_file0 + cf] : NULL;
			} else if (fa.has_call_file &&
			    dwarf_formudata(&fa.call_file, &cf) == 0 &&
			    dwarf_getsrcfiles(cu, &files, &nfiles) == 0 &&
			    cf < nfiles) {
				const char *cfn = dwarf_filesrc(files, cf, NULL, NULL);
				const char *fin = NULL, *fout = NULL;
				if (cfn && !(n->call_file = pool(
						     d, unit_file(d, d->cu_compdir, cfn,
								  &fin, &fout))))
					return PC_ENOMEM;
			}
			if (fa.has_call_line)
				dwarf_formudata(&fa.call_line, &cl);
			if (fa.has_call_col)
				dwarf_formudata(&fa.call_col, &cc);
			n->call_line = cl <= 0xffffffffu ? (unsigned)cl : 0;
			n->call_col = cc <= 0xffffffffu ? (unsigned)cc : 0;
		}
		*inner = node;
	}
	return PC_OK;
}

/* Walks the DIE tree under die: every function / inlined subroutine
 * becomes a node (name, call site, parent) with its ranges, and its range
 * boundaries candidates for line symbols; a DIE that cannot be read is an
 * error.  A DIE's own attributes are read in one pass; what libdw takes
 * from elsewhere (a name through DW_AT_abstract_origin or
 * DW_AT_specification, a DW_AT_ranges list, a DW_AT_high_pc it cannot
 * read with DW_AT_low_pc) is asked of libdw as before (scope_name,
 * dwarf_ranges). */
static int walk_dies(pc_dwarf *d, Dwarf_Die *die, Dwarf_Off cuoff, unsigned depth,
		     size_t parent, Dwarf_Die *cu, Dwarf_Addr cb)
{
	if (depth > 256)
		return dfail(d, PC_ELIMIT, -1,
			     "DWARF: DIEs nested more than 256 deep in the compilation unit at .debug_info+0x%llx",
			     (unsigned long long)cuoff);
	Dwarf_Die child;
	int r = dwarf_child(die, &child);
	if (r < 0)
		return damaged(d, cuoff, "DIE tree");
	if (r > 0)
		return PC_OK;
	do {
		int tag = dwarf_tag(&child);
		size_t inner = parent;
		if (tag == DW_TAG_subprogram || tag == DW_TAG_inlined_subroutine ||
		    tag == DW_TAG_entry_point) {
			int st = func_die(d, &child, tag, parent, cu, cb, cuoff, &inner);
			if (st)
				return st;
		}
		int st = walk_dies(d, &child, cuoff, depth + 1, inner, cu, cb);
		if (st)
			return st;
		r = dwarf_siblingof(&child, &child);
		if (r < 0)
			return damaged(d, cuoff, "DIE tree");
	} while (r == 0);
	return PC_OK;
}

/* The attributes of a function DIE read by dwline.c (pc_dwk): the
 * first of each name, as fattr_cb takes them. */
/* the attributes walk_fast asks pc_dwk_get for */
enum {
	K_low, K_high, K_linkage, K_mips_linkage, K_name, K_call_file, K_call_line, K_call_col,
	K_sibling, K_ranges, K_origin, K_specification, K_NWANT
};
static const uint32_t kwant[] = {
	DW_AT_low_pc, DW_AT_high_pc, DW_AT_linkage_name, DW_AT_MIPS_linkage_name, DW_AT_name,
	DW_AT_call_file, DW_AT_call_line, DW_AT_call_column, DW_AT_sibling, DW_AT_ranges,
	DW_AT_abstract_origin, DW_AT_specification
};

struct kattrs {
	const pc_dwk_attr *low, *high, *linkage, *mips_linkage, *name, *call_file, *call_line,
		*call_col;
	int has_ranges, has_origin;
};

/* func_die for the DIE k read, from its bytes: PC_EUNSUPPORTED when
 * something in it is for libdw to read (a DW_AT_abstract_origin or
 * DW_AT_specification, DW_AT_ranges, a form read here otherwise); d is
 * then as it was. */
static int func_die_fast(pc_dwarf *d, const pc_dwk *k, const struct kattrs *fa, int tag,
			 size_t parent, Dwarf_Addr cb, size_t *inner)
{
	uint64_t lo = 0, hi = 0, cf = 0, cl = 0, cc = 0;
	const char *link = NULL, *mips = NULL, *name = NULL;
	if (fa->has_origin || fa->has_ranges ||
	    (fa->low && fa->high &&
	     (pc_dwk_addr(k, fa->low, &lo) ||
	      (pc_dwk_addr(k, fa->high, &hi) && (pc_dwk_udata(k, fa->high, &hi) || (hi += lo, 0))))) ||
	    (fa->linkage && pc_dwk_string(k, fa->linkage, &link)) ||
	    (fa->mips_linkage && pc_dwk_string(k, fa->mips_linkage, &mips)) ||
	    (fa->name && pc_dwk_string(k, fa->name, &name)))
		return PC_EUNSUPPORTED;
	int inl = tag == DW_TAG_inlined_subroutine;
	if (inl && ((fa->call_file && (!d->cu_fast || pc_dwk_udata(k, fa->call_file, &cf))) ||
		    (fa->call_line && pc_dwk_udata(k, fa->call_line, &cl)) ||
		    (fa->call_col && pc_dwk_udata(k, fa->call_col, &cc))))
		return PC_EUNSUPPORTED;
	if (!fa->low || !fa->high)
		return PC_OK; /* no range: no node */
	size_t node = d->nnodes;
	int any = 0;
	if (add_range(d, lo, hi, cb, node, &any))
		return PC_ENOMEM;
	if (!any)
		return PC_OK;
	if (d->nnodes == d->capnodes &&
	    pc_grow((void **)&d->nodes, &d->capnodes, d->nnodes + 1, sizeof *d->nodes))
		return PC_ENOMEM;
	struct fnode *n = &d->nodes[d->nnodes++];
	memset(n, 0, sizeof *n);
	n->parent = parent;
	n->depth = parent == NONODE ? 0 : d->nodes[parent].depth + 1;
	n->name = fa->linkage ? link : fa->mips_linkage ? mips : NULL;
	if (!n->name)
		n->name = name;
	if (n->name && !(n->name = pool(d, n->name)))
		return PC_ENOMEM;
	n->inlined = inl;
	n->subprogram_without_linkage = tag == DW_TAG_subprogram && d->cu_mangled && !fa->linkage;
	if (inl) {
		if (fa->call_file)
			n->call_file = cf < d->cu_nfiles ? d->files[d->cu_file0 + cf] : NULL;
		n->call_line = cl <= 0xffffffffu ? (unsigned)cl : 0;
		n->call_col = cc <= 0xffffffffu ? (unsigned)cc : 0;
	}
	*inner = node;
	return PC_OK;
}

/* walk_dies over the unit at .debug_info offset unit, its DIEs read by
 * dwline.c in the order they lie (libdw's dwarf_child and
 * dwarf_siblingof decode a DIE's attributes again for each: 64 M of the
 * 20,000-function line report's instructions); a function DIE with
 * something for libdw to read is read by func_die through
 * dwarf_offdie.  PC_EUNSUPPORTED when the tree is not read here as
 * libdw reads it (a form or abbreviation not known here, a DW_AT_sibling
 * elsewhere than the next sibling, nesting past walk_dies' limit): the
 * caller undoes what was added and walks the unit with libdw. */
static int walk_fast(pc_dwarf *d, pc_dwk *k, const pc_dwl *sec, Dwarf *dw, uint64_t unit,
		     Dwarf_Off cuoff, Dwarf_Die *cu, Dwarf_Addr cb)
{
	struct {
		size_t parent; /* of the DIEs of this list */
		uint64_t sib;  /* the DIE owning it: its DW_AT_sibling (0: none) */
	} stk[258];
	int r = pc_dwk_unit(k, sec, unit);
	if (r)
		return r;
	if ((r = pc_dwk_next(k)) != 1)
		return r < 0 ? r : PC_EUNSUPPORTED;
	if (k->off != cuoff)
		return PC_EUNSUPPORTED;
	if (!k->children)
		return PC_OK;
	size_t depth = 1;
	stk[0].parent = NONODE;
	stk[0].sib = 0;
	while (depth) {
		r = pc_dwk_next(k);
		if (r < 0)
			return r;
		if (r == 0) {
			depth--;
			if (stk[depth].sib && stk[depth].sib != (uint64_t)(k->p - sec->info))
				return PC_EUNSUPPORTED;
			continue;
		}
		if (depth > 256)
			return PC_EUNSUPPORTED;
		uint64_t sib = 0;
		pc_dwk_attr av[K_NWANT];
		struct kattrs fa;
		int fn = k->tag == DW_TAG_subprogram || k->tag == DW_TAG_inlined_subroutine ||
			 k->tag == DW_TAG_entry_point;
		/* (the other DIEs are only skipped) */
		uint32_t have = fn || k->sibling ? pc_dwk_get(k, av) : 0;
		if ((have >> K_sibling & 1) && (pc_dwk_ref(k, &av[K_sibling], &sib) || !sib))
			return PC_EUNSUPPORTED;
		if (fn) {
#define KA(x, j) fa.x = have >> (j) & 1 ? &av[j] : NULL
			KA(low, K_low);
			KA(high, K_high);
			KA(linkage, K_linkage);
			KA(mips_linkage, K_mips_linkage);
			KA(name, K_name);
			KA(call_file, K_call_file);
			KA(call_line, K_call_line);
			KA(call_col, K_call_col);
#undef KA
			fa.has_ranges = have >> K_ranges & 1;
			fa.has_origin = (have >> K_origin & 1) || (have >> K_specification & 1);
		}
		size_t parent = stk[depth - 1].parent, inner = parent;
		if (fn) {
			int st = func_die_fast(d, k, &fa, (int)k->tag, parent, cb, &inner);
			if (st == PC_EUNSUPPORTED) {
				Dwarf_Die die;
				if (!dwarf_offdie(dw, k->off, &die))
					return PC_EUNSUPPORTED;
				st = func_die(d, &die, (int)k->tag, parent, cu, cb, cuoff, &inner);
			}
			if (st)
				return st;
		}
		if (k->children) {
			stk[depth].parent = inner;
			stk[depth].sib = sib;
			depth++;
		} else if (sib && sib != (uint64_t)(k->p - sec->info)) {
			return PC_EUNSUPPORTED;
		}
	}
	return PC_OK;
}

/* v[0, n) in increasing order (a radix sort: the addresses of a unit
 * come nearly in order, and differ in few bytes) */
static int sort_u64(uint64_t *v, size_t n)
{
	if (n < 2)
		return PC_OK;
	pc_rkey *k = malloc(2 * n * sizeof *k);
	if (!k)
		return PC_ENOMEM;
	for (size_t i = 0; i < n; i++)
		k[i] = (pc_rkey){v[i], i};
	const pc_rkey *o = pc_radix_sort(k, k + n, n);
	for (size_t i = 0; i < n; i++)
		v[i] = o[i].key;
	free(k);
	return PC_OK;
}

/* UPTO(name, type, key): size_t name(const type *v, size_t n, uint64_t a,
 * size_t *hint), the number of v[0, n) (sorted by key) whose key is at
 * or below a, by a galloping search from *hint (the last answer, set to
 * this one): lookups mostly come in address order (the line symbols'
 * walk, a report's sorted addresses), a few entries apart. */
#define UPTO(name, type, key) \
	static size_t name(const type *v, size_t n, uint64_t a, size_t *hint) \
	{ \
		size_t h = *hint < n ? *hint : n, lo, hi, step = 1; \
		if (h < n && key(v[h]) <= a) { \
			/* above h: key(v[lo - 1]) <= a */ \
			for (lo = h + 1;; step *= 2) { \
				size_t p = lo - 1 + step; \
				if (p >= n || key(v[p]) > a) { \
					hi = p < n ? p : n; \
					break; \
				} \
				lo = p + 1; \
			} \
		} else if (h && key(v[h - 1]) > a) { \
			/* below h: key(v[hi]) > a */ \
			for (hi = h - 1;; step *= 2) { \
				if (hi < step) { \
					lo = 0; \
					break; \
				} \
				if (key(v[hi - step]) <= a) { \
					lo = hi - step + 1; \
					break; \
				} \
				hi -= step; \
			} \
		} else { \
			return h; \
		} \
		while (lo < hi) { \
			size_t m = lo + (hi - lo) / 2; \
			if (key(v[m]) <= a) \
				lo = m + 1; \
			else \
				hi = m; \
		} \
		*hint = lo; \
		return lo; \
	}
#define KEY_SELF(x) (x)
#define KEY_ADDR(x) ((x).addr)
UPTO(segs_upto, uint64_t, KEY_SELF)

static size_t seg_index(pc_dwarf *d, uint64_t a)
{
	/* last k with seg[k] <= a; d->nseg when a is below them all */
	size_t lo = segs_upto(d->seg, d->nseg, a, &d->seghint);
	return lo ? lo - 1 : d->nseg;
}

/* A max-heap of ranks (positions in the painting order) of the ranges
 * open at the segment being swept. */
static void heap_push(size_t *h, size_t *n, size_t v)
{
	size_t i = (*n)++;
	while (i && h[(i - 1) / 2] < v) {
		h[i] = h[(i - 1) / 2];
		i = (i - 1) / 2;
	}
	h[i] = v;
}

static void heap_pop(size_t *h, size_t *n)
{
	size_t v = h[--*n], i = 0;
	for (;;) {
		size_t c = 2 * i + 1;
		if (c >= *n)
			break;
		if (c + 1 < *n && h[c + 1] > h[c])
			c++;
		if (h[c] <= v)
			break;
		h[i] = h[c];
		i = c;
	}
	if (*n)
		h[i] = v;
}

/* The innermost function scope of every elementary segment between range
 * boundaries: one table read per lookup instead of a DIE-tree walk.
 * Deeper scopes win over shallower ones; of two at one depth that overlap
 * (gas 2.45 gives an assembly function's DW_AT_high_pc past its .size,
 * into the next unit's function) the smaller range over the larger, as
 * binutils takes the best fit, and then the one read last.  Each range
 * gets its rank in that order; one sweep over the segments keeps the
 * ranges open there in a heap and takes the highest rank: n log n in the
 * number of ranges, however they overlap. */
static int disjoint_segments(pc_dwarf *d);

static int build_segments(pc_dwarf *d)
{
	int st = d->general ? 0 : disjoint_segments(d);
	if (st)
		return st < 0 ? st : PC_OK;
	size_t nb = 2 * d->nranges, nr = d->nranges;
	d->seg = malloc((nb ? nb : 1) * sizeof *d->seg);
	d->segnode = malloc((nb ? nb : 1) * sizeof *d->segnode);
	size_t *ord = malloc((nr ? nr : 1) * sizeof *ord);
	size_t *bylo = malloc((nr ? nr : 1) * sizeof *bylo);
	size_t *heap = malloc((nr ? nr : 1) * sizeof *heap);
	if (!d->seg || !d->segnode || !ord || !bylo || !heap) {
		free(ord);
		free(bylo);
		free(heap);
		return PC_ENOMEM;
	}
	for (size_t i = 0; i < nr; i++) {
		d->seg[2 * i] = d->ranges[i].lo;
		d->seg[2 * i + 1] = d->ranges[i].hi;
	}
	pc_rkey *kv = malloc((nr ? nr : 1) * 2 * sizeof *kv);
	if (!kv || sort_u64(d->seg, nb)) {
		free(kv);
		free(ord);
		free(bylo);
		free(heap);
		return PC_ENOMEM;
	}
	size_t k = 0;
	for (size_t i = 0; i < nb; i++)
		if (!k || d->seg[i] != d->seg[k - 1])
			d->seg[k++] = d->seg[i];
	d->nseg = k;
	const struct frange *r = d->ranges;
	/* the painting order: by depth, then the larger first, then in the
	 * order read (two stable sorts: by size, then by depth); and the
	 * ranges by low address */
	if (nr) {
		for (size_t i = 0; i < nr; i++)
			kv[i] = (pc_rkey){~(r[i].hi - r[i].lo), i};
		pc_rkey *o = pc_radix_sort(kv, kv + nr, nr);
		pc_rkey *other = o == kv ? kv + nr : kv;
		for (size_t i = 0; i < nr; i++)
			o[i].key = d->nodes[r[o[i].idx].node].depth;
		o = pc_radix_sort(o, other, nr);
		for (size_t i = 0; i < nr; i++)
			ord[i] = (size_t)o[i].idx;
		for (size_t i = 0; i < nr; i++)
			kv[i] = (pc_rkey){r[i].lo, i};
		o = pc_radix_sort(kv, kv + nr, nr);
		for (size_t i = 0; i < nr; i++)
			bylo[i] = (size_t)o[i].idx;
	}
	free(kv);
	/* bylo[i] becomes the rank of the i-th range by low address; ord
	 * stays the range of each rank */
	size_t *rank = heap; /* borrowed before the sweep */
	for (size_t o = 0; o < nr; o++)
		rank[ord[o]] = o;
	for (size_t i = 0; i < nr; i++)
		bylo[i] = rank[bylo[i]];
	size_t nh = 0, next = 0;
	for (size_t j = 0; j < k; j++) {
		uint64_t a = d->seg[j];
		while (next < nr && r[ord[bylo[next]]].lo <= a)
			heap_push(heap, &nh, bylo[next++]);
		while (nh && r[ord[heap[0]]].hi <= a)
			heap_pop(heap, &nh);
		d->segnode[j] = nh ? r[ord[heap[0]]].node : NONODE;
	}
	free(ord);
	free(bylo);
	free(heap);
	return PC_OK;
}

/* build_segments when no two ranges overlap (a range a function, no
 * inlined subroutines: a C program at -O0 or -O1): by low address, each
 * range's segment, and a segment of none at its end unless the next
 * range starts there.  1: done; 0: they overlap (build_segments sweeps
 * them, as pc_dwarf_set_general always does: pc_dwarf_dump shows the
 * segments); PC_ENOMEM. */
static int disjoint_segments(pc_dwarf *d)
{
	size_t nr = d->nranges;
	const struct frange *r = d->ranges;
	pc_rkey *kv = malloc((nr ? nr : 1) * 2 * sizeof *kv);
	if (!kv)
		return PC_ENOMEM;
	/* (in the order read, or its reverse: gcc writes a unit's
	 * functions last first, with no sort) */
	size_t down = 1;
	while (down < nr && r[down].lo < r[down - 1].lo)
		down++;
	for (size_t i = 0; i < nr; i++)
		kv[i] = (pc_rkey){r[down >= nr ? nr - 1 - i : i].lo, down >= nr ? nr - 1 - i : i};
	const pc_rkey *o = down >= nr ? kv : pc_radix_sort(kv, kv + nr, nr);
	for (size_t i = 1; i < nr; i++)
		if (r[o[i].idx].lo < r[o[i - 1].idx].hi) {
			free(kv);
			return 0;
		}
	d->seg = malloc((nr ? nr : 1) * 2 * sizeof *d->seg);
	d->segnode = malloc((nr ? nr : 1) * 2 * sizeof *d->segnode);
	if (!d->seg || !d->segnode) {
		free(kv);
		return PC_ENOMEM;
	}
	size_t k = 0;
	for (size_t i = 0; i < nr; i++) {
		const struct frange *x = &r[o[i].idx];
		if (!k || d->seg[k - 1] != x->lo)
			d->seg[k++] = x->lo;
		d->segnode[k - 1] = x->node;
		d->seg[k] = x->hi;
		d->segnode[k++] = NONODE;
	}
	d->nseg = k;
	free(kv);
	return 1;
}

/* The allocated sections of the ELF file holding the DWARF (a separate
 * debug file has them too, as NOBITS), as module addresses. */
static int find_alloc(pc_dwarf *d, Elf *e, Dwarf_Addr bias)
{
	size_t n = 0;
	for (Elf_Scn *s = NULL; e && (s = elf_nextscn(e, s));)
		n++;
	d->alloc = malloc((n ? n : 1) * 2 * sizeof *d->alloc);
	if (!d->alloc)
		return PC_ENOMEM;
	for (Elf_Scn *s = NULL; e && (s = elf_nextscn(e, s));) {
		GElf_Shdr sh;
		if (gelf_getshdr(s, &sh) && (sh.sh_flags & SHF_ALLOC) && sh.sh_size &&
		    sh.sh_addr + sh.sh_size > sh.sh_addr) {
			d->alloc[2 * d->nalloc] = sh.sh_addr + bias;
			d->alloc[2 * d->nalloc++ + 1] = sh.sh_addr + sh.sh_size + bias;
		}
	}
	return PC_OK;
}

static int in_alloc(const pc_dwarf *d, uint64_t a, size_t *hint)
{
	if (*hint < d->nalloc && d->alloc[2 * *hint] <= a && a < d->alloc[2 * *hint + 1])
		return 1;
	for (size_t i = 0; i < d->nalloc; i++)
		if (d->alloc[2 * i] <= a && a < d->alloc[2 * i + 1]) {
			*hint = i;
			return 1;
		}
	return 0;
}

/* binutils' languages whose DW_AT_name is the linkage name (dwarf2.c
 * non_mangled) */
static int non_mangled(Dwarf_Word lang)
{
	switch (lang) {
	case DW_LANG_C89: case DW_LANG_C: case DW_LANG_Ada83: case DW_LANG_Cobol74:
	case DW_LANG_Cobol85: case DW_LANG_Fortran77: case DW_LANG_Pascal83:
	case DW_LANG_C99: case DW_LANG_Ada95: case DW_LANG_PLI: case DW_LANG_UPC:
	case DW_LANG_C11: case DW_LANG_Mips_Assembler:
		return 1;
	default:
		return 0;
	}
}

/* A file name of unit cu as binutils names it (dwarf2.c
 * concat_filename): a relative one joined to the unit's DW_AT_comp_dir.
 * libdw 0.188 leaves a DWARF 5 file relative when its directory entry is
 * (clang: directory 1 relative to directory 0, the compilation
 * directory).  *last caches the last name joined (libdw's strings live as
 * long as the Dwarf). */
static const char *unit_file(pc_dwarf *d, const char *compdir, const char *name,
			     const char **last_in, const char **last_out)
{
	if (!name || name[0] == '/' || !compdir || !compdir[0])
		return name;
	if (*last_in == name)
		return *last_out;
	size_t a = strlen(compdir), b = strlen(name);
	char *buf = malloc(a + b + 2);
	if (!buf)
		return NULL;
	memcpy(buf, compdir, a);
	buf[a] = '/';
	memcpy(buf + a + 1, name, b + 1);
	const char *r = pool(d, buf);
	free(buf);
	if (r) {
		*last_in = name;
		*last_out = r;
	}
	return r;
}

/* The last row kept of the unit whose rows start at d->lrows[first] is
 * a view of a row at a that is not an end of sequence: of a run of such
 * rows at one address in a unit, only the last is kept (line_at takes
 * the last row at an address, the others are never the answer; the
 * candidates, the rows' distinct addresses, stay the same).  dwline.c
 * drops them as it reads (pc_dwl.drop_views), libdw's rows here. */
static int is_view(const pc_dwarf *d, size_t first, uint64_t a)
{
	return d->nlrows > first && !d->lrows[d->nlrows - 1].end &&
	       d->lrows[d->nlrows - 1].addr == a;
}

/* File name f into d->files: its index there */
static int add_file(pc_dwarf *d, const char *f, uint32_t *idx)
{
	if (d->nfiles >= UINT32_MAX ||
	    (d->nfiles == d->capfiles &&
	     pc_grow((void **)&d->files, &d->capfiles, d->nfiles + 1, sizeof *d->files)))
		return PC_ENOMEM;
	*idx = (uint32_t)d->nfiles;
	d->files[d->nfiles++] = f;
	return PC_OK;
}

/* One unit's line table into d->lrows.  A row is kept where it lies in
 * an allocated section (an end of sequence: where the byte before it
 * does): the rows of code the linker discarded lie where their
 * relocations resolved, at 0 or near it, and would hide the code there.
 * The addresses are not looked up through .debug_aranges: GNU ld leaves
 * a (0, 0) pair in a unit's set for each discarded function on
 * targets that relax (RISC-V, Xtensa: the length is a difference of two
 * relocations), which ends the set for libdw, while binutils reads on.
 * A file name into d->files each time it changes from one row to the
 * next. */
static int add_unit_lines(pc_dwarf *d, Dwarf_Lines *lines, size_t nl, Dwarf_Addr cb,
			  Dwarf_Off cuoff, const char *compdir)
{
	size_t hint = 0, first = d->nlrows;
	const char *last_in = NULL, *last_out = NULL, *last_src = NULL;
	uint32_t last_file = 0;
	if (pc_grow((void **)&d->lrows, &d->caplrows, d->nlrows + nl, sizeof *d->lrows))
		return PC_ENOMEM;
	for (size_t i = 0; i < nl; i++) {
		Dwarf_Addr a;
		Dwarf_Line *l = dwarf_onesrcline(lines, i);
		bool end = false;
		int line = 0, col = 0;
		if (!l || dwarf_lineaddr(l, &a) || dwarf_lineendsequence(l, &end) ||
		    dwarf_lineno(l, &line))
			return damaged(d, cuoff, "line table");
		a += cb;
		if (!in_alloc(d, end ? a - 1 : a, &hint) || (end && !a))
			continue;
		if (dwarf_linecol(l, &col))
			col = 0;
		const char *src = end ? NULL : dwarf_linesrc(l, NULL, NULL);
		if (!src) {
			last_file = 0;
		} else if (src != last_src) {
			const char *f = unit_file(d, compdir, src, &last_in, &last_out);
			if (!f || add_file(d, f, &last_file))
				return PC_ENOMEM;
		}
		last_src = src;
		if (!end && is_view(d, first, a))
			d->nlrows--;
		d->lrows[d->nlrows++] = (lrow){a, end ? 0 : last_file, line > 0 ? line : 0,
					       (uint16_t)(col > 0 && col <= 0xffff ? col : 0), 0,
					       end};
	}
	return PC_OK;
}

/* add_unit_lines for the rows dwline.c appended to d->lrows from
 * d->lrows[d->nlrows] (t, its views dropped), in place: the same rows,
 * the files' names pooled once each (from d->files[d->cu_file0]). */
static int add_dwl_lines(pc_dwarf *d, const pc_dwl *t, size_t nrows, Dwarf_Addr cb,
			 const char *compdir)
{
	size_t hint = 0;
	const char *last_in = NULL, *last_out = NULL;
	d->cu_file0 = d->nfiles;
	d->cu_nfiles = t->nfiles;
	for (size_t i = 0; i < t->nfiles; i++) {
		const char *f = unit_file(d, compdir, t->files[i], &last_in, &last_out);
		uint32_t x;
		if (!f || (f == t->files[i] && !(f = pool(d, f))) || add_file(d, f, &x))
			return PC_ENOMEM;
	}
	/* (through locals: a row's address could be d->nlrows for the
	 * compiler) */
	lrow *r = d->lrows + d->nlrows;
	const uint32_t nfiles = (uint32_t)t->nfiles, file0 = (uint32_t)d->cu_file0;
	uint64_t alo = 1, ahi = 0; /* the allocated section of the last row kept */
	for (const lrow *l = r, *le = d->lrows + nrows; l < le; l++) {
		uint64_t a = l->addr + cb, at = l->end ? a - 1 : a;
		if (at < alo || at >= ahi) {
			if (!in_alloc(d, at, &hint))
				continue;
			alo = d->alloc[2 * hint];
			ahi = d->alloc[2 * hint + 1];
		}
		if (l->end && !a)
			continue;
		/* (no views: dwline.c dropped them, and the rows dropped here
		 * leave none: rows between two at one address that are not
		 * ends are at that address, and the ends there come first) */
		*r = *l;
		r->addr = a;
		r->file = l->end || l->file >= nfiles ? 0 : file0 + l->file;
		if (r->line < 0)
			r->line = 0;
		r++;
	}
	d->nlrows = (size_t)(r - d->lrows);
	return PC_OK;
}

/* rows by address, an end of sequence before a row at its address, else
 * in the order read */
static int lrow_before(const lrow *x, const lrow *y)
{
	return x->addr < y->addr || (x->addr == y->addr && x->end > y->end);
}

struct lrow_ord {
	lrow r;
	size_t ord;
};

static int cmp_lrow_ord(const void *a, const void *b)
{
	const struct lrow_ord *x = a, *y = b;
	if (lrow_before(&x->r, &y->r))
		return -1;
	if (lrow_before(&y->r, &x->r))
		return 1;
	return x->ord < y->ord ? -1 : x->ord > y->ord;
}

/* The units' rows merged when a unit's first row comes before the last
 * one of the unit before it (*unordered): usually they come in address
 * order already.  (A unit's own rows come in this order: libdw's, and
 * dwline.c's as libdw's.) */
static int sort_lines(pc_dwarf *d, int unordered)
{
	if (!unordered)
		return PC_OK;
	struct lrow_ord *v = malloc(d->nlrows * sizeof *v);
	if (!v)
		return PC_ENOMEM;
	for (size_t k = 0; k < d->nlrows; k++)
		v[k] = (struct lrow_ord){d->lrows[k], k};
	qsort(v, d->nlrows, sizeof *v, cmp_lrow_ord);
	for (size_t k = 0; k < d->nlrows; k++)
		d->lrows[k] = v[k].r;
	free(v);
	return PC_OK;
}

/* The row for module address a: the last one at or below it, unless
 * that ends a sequence (binutils lookup_address_in_line_info_table,
 * libdw dwarf_getsrc_die: of several rows at one address the last). */
UPTO(rows_upto, lrow, KEY_ADDR)

static const lrow *line_at(pc_dwarf *d, uint64_t a)
{
	size_t lo = rows_upto(d->lrows, d->nlrows, a, &d->rowhint);
	if (!lo || d->lrows[lo - 1].end)
		return NULL;
	return &d->lrows[lo - 1];
}

/* The line symbols' candidates (pc_dwarf_line_syms): the module
 * addresses where a row or a segment (a scope's bound) starts, distinct,
 * in order, at or above the bias (below it: an address near 2^64, a
 * tombstone, that the bias wrapped around, outside the text, would
 * break the order of the unbiased addresses).  They are not stored (a
 * merged copy took 0.8 MB and 200 page faults at 20,000 functions): a
 * cursor walks the rows and the segments, the next candidate the lower
 * of their next entries. */
typedef struct ccur {
	const lrow *rows;
	const uint64_t *seg;
	size_t nrows, nseg;
	uint64_t bias;
	size_t row, sg; /* the rows, the segments below the next candidate */
} ccur;

/* BELOW(name, type, key): the number of v[0, n) (sorted by key) whose key
 * is below the bias or, unbiased, below a */
#define BELOW(name, type, key) \
	static size_t name(const type *v, size_t n, uint64_t bias, uint64_t a) \
	{ \
		size_t lo = 0, hi = n; \
		while (lo < hi) { \
			size_t m = lo + (hi - lo) / 2; \
			if (key(v[m]) < bias || key(v[m]) - bias < a) \
				lo = m + 1; \
			else \
				hi = m; \
		} \
		return lo; \
	}
BELOW(rows_below, lrow, KEY_ADDR)
BELOW(segs_below, uint64_t, KEY_SELF)

/* A cursor at row and segment sg (below the bias: at the first
 * candidate) */
static ccur cand_cur(const pc_dwarf *d, size_t row, size_t sg)
{
	return (ccur){d->lrows, d->seg, d->nlrows, d->nseg, d->bias, row, sg};
}

/* A cursor at the first candidate whose unbiased address is a or above */
static ccur cand_at(const pc_dwarf *d, uint64_t a)
{
	return cand_cur(d, rows_below(d->lrows, d->nlrows, d->bias, a),
			segs_below(d->seg, d->nseg, d->bias, a));
}

/* The candidates between unbiased addresses lo and hi, at most (room for
 * a symbol each: a row and a segment at one address, or two rows, count
 * twice) */
static size_t cand_room(const pc_dwarf *d, uint64_t lo, uint64_t hi)
{
	ccur a = cand_at(d, lo), b = cand_at(d, hi);
	return hi <= lo ? 0 : (b.row - a.row) + (b.sg - a.sg);
}

/* The candidate at c: 1 and *m (a module address), 0 past the last. */
static inline int cand_get(const ccur *c, uint64_t *m)
{
	if (c->row < c->nrows && (c->sg >= c->nseg || c->rows[c->row].addr <= c->seg[c->sg]))
		*m = c->rows[c->row].addr;
	else if (c->sg < c->nseg)
		*m = c->seg[c->sg];
	else
		return 0;
	return 1;
}

/* c past the candidate m it is at */
static inline void cand_next(ccur *c, uint64_t m)
{
	while (c->row < c->nrows && c->rows[c->row].addr <= m)
		c->row++;
	while (c->sg < c->nseg && c->seg[c->sg] <= m)
		c->sg++;
}

/* c at the candidate before it when that one's unbiased address is lo
 * or above: 1 and *m, else 0 */
static int cand_prev(ccur *c, uint64_t lo, uint64_t *m)
{
	uint64_t x = 0;
	int any = 0;
	if (c->row) {
		x = c->rows[c->row - 1].addr;
		any = 1;
	}
	if (c->sg && (!any || c->seg[c->sg - 1] > x)) {
		x = c->seg[c->sg - 1];
		any = 1;
	}
	if (!any || x < c->bias || x - c->bias < lo)
		return 0;
	while (c->row && c->rows[c->row - 1].addr == x)
		c->row--;
	if (c->sg && c->seg[c->sg - 1] == x)
		c->sg--;
	*m = x;
	return 1;
}

/* The unit's compilation directory into d->compdirs: the source files
 * under it may be read (pc_dwarf_open_source). */
static int add_compdir(pc_dwarf *d, Dwarf_Die *cu)
{
	Dwarf_Attribute a;
	const char *cd = dwarf_attr(cu, DW_AT_comp_dir, &a) ? dwarf_formstring(&a) : NULL;
	if (!cd || !*cd || (d->ncompdirs && !strcmp(d->compdirs[d->ncompdirs - 1], cd)))
		return PC_OK;
	if (pc_grow((void **)&d->compdirs, &d->capcompdirs, d->ncompdirs + 1,
		    sizeof *d->compdirs) ||
	    !(d->compdirs[d->ncompdirs] = pool(d, cd)))
		return PC_ENOMEM;
	d->ncompdirs++;
	return PC_OK;
}

static void sort_compdirs(pc_dwarf *d)
{
	if (d->ncompdirs)
		qsort(d->compdirs, d->ncompdirs, sizeof *d->compdirs, cmp_str);
	size_t k = 0;
	for (size_t i = 0; i < d->ncompdirs; i++)
		if (!k || strcmp(d->compdirs[i], d->compdirs[k - 1]))
			d->compdirs[k++] = d->compdirs[i];
	d->ncompdirs = k;
}

/* *p (n of elem bytes, *cap of them allocated) shrunk to n; as it was
 * when realloc refuses */
static void fit(void **p, size_t n, size_t elem, size_t *cap)
{
	void *q = n ? realloc(*p, n * elem) : NULL;
	if (q) {
		*p = q;
		if (cap)
			*cap = n;
	}
}

/* Each compilation unit's line table and DIE tree, in the order of
 * .debug_info; dl and dk are the readers' state, freed by the caller
 * whatever this returns. */
static int scan_cus(pc_dwarf *d, Dwarf *dw, pc_dwl *dl, pc_dwk *dk, int *unordered)
{
	size_t unit = 0;
	Dwarf_Addr cb;
	Dwarf_Die *cu = NULL;
	(void)dwfl_errno(); /* clears what an earlier lookup left */
	while ((cu = dwfl_module_nextcu(d->mod, cu, &cb))) {
		Dwarf_Off cuoff = dwarf_dieoffset(cu);
		Dwarf_Attribute la;
		Dwarf_Word lang = 0;
		if (dwarf_attr(cu, DW_AT_language, &la))
			dwarf_formudata(&la, &lang);
		Dwarf_Lines *lines;
		size_t nl;
		d->cu_compdir = dwarf_attr(cu, DW_AT_comp_dir, &la) ? dwarf_formstring(&la) : NULL;
		d->cu_fast = 0;
		const size_t before = d->nlrows; /* the rows of the units before */
		if (dwarf_attr(cu, DW_AT_stmt_list, &la)) {
			Dwarf_Word lo = 0;
			if (dwarf_formudata(&la, &lo))
				return damaged(d, cuoff, "DW_AT_stmt_list");
			/* dwline.c first, libdw for what it does not read: the
			 * offset in a form libdw takes as one (DW_FORM_data4 or
			 * data8 only before DWARF 4: a constant after, and its
			 * dwarf_getsrclines refuses the unit) */
			Dwarf_Half ver;
			uint8_t utype, asize, osize;
			int st = PC_EUNSUPPORTED;
			if (dl->line && !d->general && dwarf_cu_info(cu->cu, &ver, &utype, NULL, NULL, NULL, &asize,
						     &osize) == 0 &&
			    utype >= DW_UT_compile && utype <= DW_UT_skeleton &&
			    (la.form == DW_FORM_sec_offset ||
			     (ver < 4 && (la.form == DW_FORM_data4 || la.form == DW_FORM_data8)))) {
				/* the rows appended to d->lrows */
				dl->rows = d->lrows;
				dl->nrows = d->nlrows;
				dl->caprows = d->caplrows;
				st = pc_dwl_read(dl, lo, asize, d->cu_compdir);
				d->lrows = dl->rows;
				d->caplrows = dl->caprows;
				dl->rows = NULL;
				dl->caprows = 0;
			}
			if (st == PC_OK) {
				st = add_dwl_lines(d, dl, dl->nrows, cb, d->cu_compdir);
				d->cu_fast = 1;
				d->fast_lines++;
			} else if (st == PC_EUNSUPPORTED) {
				if (dwarf_getsrclines(cu, &lines, &nl)) {
					return damaged_in(d, ".debug_line", lo, "line table");
				}
				st = add_unit_lines(d, lines, nl, cb, cuoff, d->cu_compdir);
			}
			if (st)
				return st;
		}
		if (before && d->nlrows > before &&
		    lrow_before(&d->lrows[before], &d->lrows[before - 1]))
			*unordered = 1;
		d->cu_mangled = !non_mangled(lang);
		int st = add_compdir(d, cu);
		/* the DIEs by dwline.c, else (or for what it does not read)
		 * by libdw */
		while (unit < d->nunits && d->units[2 * unit + 1] < cuoff)
			unit++;
		if (!st && !d->general && unit < d->nunits && d->units[2 * unit + 1] == cuoff && dl->info &&
		    (const unsigned char *)cu->addr == dl->info + cuoff) {
			size_t nn = d->nnodes, nr = d->nranges;
			st = walk_fast(d, dk, dl, dw, d->units[2 * unit], cuoff, cu, cb);
			if (st == PC_EUNSUPPORTED) {
				d->nnodes = nn;
				d->nranges = nr;
				st = walk_dies(d, cu, cuoff, 0, NONODE, cu, cb);
			} else if (!st) {
				d->fast_dies++;
			}
		} else if (!st) {
			st = walk_dies(d, cu, cuoff, 0, NONODE, cu, cb);
		}
		if (st)
			return st;
	}
	return PC_OK;
}

/* Reads every unit's line table and DIE tree once (errors with offsets),
 * collecting the candidate addresses for line symbols. */
static int scan_units(pc_dwarf *d)
{
	/* the unit headers first: each must end inside .debug_info */
	Dwarf_Addr b0;
	Dwarf *dw = dwfl_module_getdwarf(d->mod, &b0);
	uint64_t isize = UINT64_MAX;
	int64_t ifile = -1;
	Elf *e = dwarf_getelf(dw);
	size_t shstrndx;
	if (e && !elf_getshdrstrndx(e, &shstrndx))
		for (Elf_Scn *sc = NULL; (sc = elf_nextscn(e, sc));) {
			GElf_Shdr sh;
			const char *n;
			if (gelf_getshdr(sc, &sh) &&
			    (n = elf_strptr(e, shstrndx, sh.sh_name)) &&
			    !strcmp(n, ".debug_info") && sh.sh_type != SHT_NOBITS) {
				isize = sh.sh_size;
				ifile = (int64_t)sh.sh_offset;
			}
		}
	Dwarf_Off uoff = 0, next;
	size_t hsize;
	int r;
	while ((r = dwarf_next_unit(dw, uoff, &next, &hsize, NULL, NULL, NULL, NULL,
				    NULL, NULL)) == 0) {
		if (next > isize)
			return dfail(d, PC_EFORMAT, ifile >= 0 ? ifile + (int64_t)uoff : -1,
				     "damaged DWARF: the unit header at .debug_info+0x%llx gives a length past the end of the section (0x%llx bytes)",
				     (unsigned long long)uoff, (unsigned long long)isize);
		if (pc_grow((void **)&d->units, &d->capunits, 2 * d->nunits + 2, sizeof *d->units))
			return PC_ENOMEM;
		d->units[2 * d->nunits] = uoff;
		d->units[2 * d->nunits++ + 1] = uoff + hsize;
		uoff = next;
	}
	if (r < 0)
		return damaged_in(d, ".debug_info", uoff, "unit header");
	uint32_t none;
	if (find_alloc(d, e, b0) || add_file(d, NULL, &none))
		return PC_ENOMEM;
	pc_dwl dl;
	memset(&dl, 0, sizeof dl);
	pc_dwl_sections(&dl, e);
	dl.drop_views = 1;
	pc_dwk dk;
	memset(&dk, 0, sizeof dk);
	dk.want = kwant;
	dk.nwant = sizeof kwant / sizeof *kwant;
	int unordered = 0; /* a unit's rows before the last of those before */
	int st = scan_cus(d, dw, &dl, &dk, &unordered);
	pc_dwl_free(&dl);
	pc_dwk_free(&dk);
	d->cu_fast = 0;
	if (st)
		return st;
	sort_compdirs(d);
	if (dwfl_errno())
		return dfail(d, PC_EFORMAT, section_file_offset(d, ".debug_info"),
			     "damaged DWARF: cannot read the compilation units: %s",
			     dwfl_errmsg(-1));
	st = sort_lines(d, unordered);
	if (st)
		return st;
	if ((st = build_segments(d)))
		return st;
	/* what d keeps, at its size (the arrays grew by doubling) */
	fit((void **)&d->lrows, d->nlrows, sizeof *d->lrows, &d->caplrows);
	fit((void **)&d->nodes, d->nnodes, sizeof *d->nodes, &d->capnodes);
	fit((void **)&d->ranges, d->nranges, sizeof *d->ranges, &d->capranges);
	fit((void **)&d->seg, d->nseg, sizeof *d->seg, NULL);
	fit((void **)&d->segnode, d->nseg, sizeof *d->segnode, NULL);
	return PC_OK;
}

static void find_text(pc_dwarf *d)
{
	GElf_Addr b;
	Elf *e = dwfl_module_getelf(d->mod, &b);
	size_t shstrndx;
	if (!e || elf_getshdrstrndx(e, &shstrndx))
		return;
	GElf_Ehdr eh;
	if (gelf_getehdr(e, &eh))
		d->isa_bit = eh.e_machine == EM_ARM || eh.e_machine == EM_MIPS ||
			     eh.e_machine == EM_MIPS_RS3_LE;
	for (Elf_Scn *s = NULL; (s = elf_nextscn(e, s));) {
		GElf_Shdr sh;
		if (!gelf_getshdr(s, &sh))
			continue;
		const char *n = elf_strptr(e, shstrndx, sh.sh_name);
		if (n && !strcmp(n, ".text")) {
			d->text_lo = sh.sh_addr;
			d->text_hi = sh.sh_addr + sh.sh_size;
			d->have_text = 1;
			return;
		}
	}
}

/* ---- separate debug files ----------------------------------------------
 * (docs/source.md, "Separate debug files")  libdwfl's standard search
 * accepts a .gnu_debuglink whose CRC is 0 without checking it, opens a
 * FIFO and waits, and asks the debuginfod servers of DEBUGINFOD_URLS;
 * profcore's own search is local and checks every candidate: a regular
 * file (opened without blocking), the CRC-32 of the whole file equal to
 * the link's, the build-ids equal when both have one.  libdwfl's search
 * only with the option "debuginfod". */

#define PC_DEBUG_DIR "/usr/lib/debug"

static void debug_refused(pc_dwarf *d, const char *fmt, ...) PC_PRINTF(2, 3);
static void debug_refused(pc_dwarf *d, const char *fmt, ...)
{
	if (d->debugwhy[0])
		return; /* the first candidate refused is named */
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(d->debugwhy, sizeof d->debugwhy, fmt, ap);
	va_end(ap);
}

/* The GNU build-id of the ELF file fd into id (cap bytes): its length,
 * 0 when it has none */
static size_t fd_build_id(int fd, unsigned char *id, size_t cap)
{
	size_t n = 0;
	elf_version(EV_CURRENT);
	Elf *e = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	if (!e)
		return 0;
	for (Elf_Scn *sc = NULL; !n && (sc = elf_nextscn(e, sc));) {
		GElf_Shdr sh;
		Elf_Data *data;
		if (!gelf_getshdr(sc, &sh) || sh.sh_type != SHT_NOTE ||
		    !(data = elf_getdata(sc, NULL)) || !data->d_buf)
			continue;
		GElf_Nhdr nh;
		size_t off = 0, no, dof, next;
		while (!n && (next = gelf_getnote(data, off, &nh, &no, &dof)) > 0) {
			if (nh.n_type == NT_GNU_BUILD_ID && nh.n_namesz == 4 &&
			    !memcmp((const char *)data->d_buf + no, "GNU", 4) &&
			    nh.n_descsz && nh.n_descsz <= cap) {
				memcpy(id, (const char *)data->d_buf + dof, nh.n_descsz);
				n = nh.n_descsz;
			}
			off = next;
		}
	}
	elf_end(e);
	return n;
}

/* CRC-32 of the whole file fd (as .gnu_debuglink's: zlib's crc32) */
static int fd_crc32(int fd, uint32_t *crc)
{
	unsigned char buf[16384];
	uLong c = crc32(0L, Z_NULL, 0);
	if (lseek(fd, 0, SEEK_SET) != 0)
		return -1;
	for (;;) {
		ssize_t r = read(fd, buf, sizeof buf);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return -1;
		if (!r)
			break;
		c = crc32(c, buf, (uInt)r);
	}
	*crc = (uint32_t)c;
	return lseek(fd, 0, SEEK_SET) == 0 ? 0 : -1;
}

/* Compressed debug sections (SHF_COMPRESSED, or GNU .zdebug_* with its
 * "ZLIB" header) of e, before libdw inflates them whole: one whose
 * inflated size is over PC_PROGRAM_INFLATE_LIMIT and over
 * PC_INFLATE_RATIO times its compressed size is a bomb (zlib reaches
 * 1032 to 1 on zeros; DWARF compresses 3 to 10 to 1).  0, or -1 with the
 * one line in why: the section, its file offset, what to do. */
static int sections_inflate_ok(Elf *e, char *why, size_t whylen, int64_t *at)
{
	size_t shstrndx;
	if (!e || elf_getshdrstrndx(e, &shstrndx))
		return 0;
	for (Elf_Scn *sc = NULL; (sc = elf_nextscn(e, sc));) {
		GElf_Shdr sh;
		const char *n;
		if (!gelf_getshdr(sc, &sh) || sh.sh_type == SHT_NOBITS)
			continue;
		n = elf_strptr(e, shstrndx, sh.sh_name);
		uint64_t full = 0;
		if (sh.sh_flags & SHF_COMPRESSED) {
			GElf_Chdr ch;
			if (!gelf_getchdr(sc, &ch))
				continue;
			full = ch.ch_size;
		} else if (n && !strncmp(n, ".zdebug", 7)) {
			Elf_Data *raw = elf_rawdata(sc, NULL);
			if (!raw || !raw->d_buf || raw->d_size < 12 ||
			    memcmp(raw->d_buf, "ZLIB", 4))
				continue;
			full = pc_get_u64((const unsigned char *)raw->d_buf + 4, PC_ENDIAN_BIG);
		} else {
			continue;
		}
		if (full > PC_PROGRAM_INFLATE_LIMIT &&
		    full / PC_INFLATE_RATIO > sh.sh_size) {
			snprintf(why, whylen,
				 "section %s at offset %llu says it inflates from %llu to %llu bytes (more than %d to 1): refused as a decompression bomb; if the file is genuine, decompress its sections first (objcopy --decompress-debug-sections)",
				 n ? n : "?", (unsigned long long)sh.sh_offset,
				 (unsigned long long)sh.sh_size, (unsigned long long)full,
				 PC_INFLATE_RATIO);
			*at = (int64_t)sh.sh_offset;
			return -1;
		}
	}
	return 0;
}

/* The descriptor of candidate path when it may be the program's debug
 * file: a regular file other than the program, its CRC equal to crc
 * (by_link), its build-id equal to id (idlen > 0) when it has one, and
 * when found by build-id (!by_link) it must have one; else -1 (the
 * reason in d->debugwhy) */
static int debug_candidate(pc_dwarf *d, const char *path, const char *prog,
			   int by_link, GElf_Word crc, const unsigned char *id,
			   size_t idlen)
{
	if (prog && pc_plat_same_file(path, prog))
		return -1;
	int fd = pc_plat_open_regular(path);
	if (fd == -2)
		debug_refused(d, "the separate debug file %s is not a regular file", path);
	if (fd < 0)
		return -1;
	char why[400];
	Elf *e = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	int64_t at;
	int bomb = sections_inflate_ok(e, why, sizeof why, &at);
	if (e)
		elf_end(e);
	if (bomb) {
		debug_refused(d, "the separate debug file %s: %s", path, why);
		close(fd);
		return -1;
	}
	unsigned char did[64];
	size_t dl = fd_build_id(fd, did, sizeof did);
	uint32_t c = 0;
	if (by_link && fd_crc32(fd, &c)) {
		close(fd);
		return -1;
	}
	if (by_link && c != crc) {
		debug_refused(d, "the separate debug file %s does not match the program: its CRC-32 is 0x%08x, .gnu_debuglink says 0x%08x",
			      path, (unsigned)c, (unsigned)crc);
		close(fd);
		return -1;
	}
	if ((dl || !by_link) && idlen && (dl != idlen || memcmp(did, id, idlen))) {
		debug_refused(d, "the separate debug file %s does not match the program: its build-id differs",
			      path);
		close(fd);
		return -1;
	}
	return fd;
}

/* 1 if the ELF file path has a .gnu_debugaltlink naming name: libdwfl
 * then asks for the dwz file of shared DWARF, not a debug file */
static int asks_altlink(const char *path, const char *name)
{
	int fd = path && name ? pc_plat_open_regular(path) : -1;
	if (fd < 0)
		return 0;
	int is = 0;
	elf_version(EV_CURRENT);
	Elf *e = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	size_t shstrndx;
	if (e && !elf_getshdrstrndx(e, &shstrndx))
		for (Elf_Scn *sc = NULL; !is && (sc = elf_nextscn(e, sc));) {
			GElf_Shdr sh;
			const char *n;
			Elf_Data *data;
			if (gelf_getshdr(sc, &sh) && (n = elf_strptr(e, shstrndx, sh.sh_name)) &&
			    !strcmp(n, ".gnu_debugaltlink") && (data = elf_getdata(sc, NULL)) &&
			    data->d_buf && data->d_size > strlen(name))
				is = !memcmp(data->d_buf, name, strlen(name) + 1);
		}
	if (e)
		elf_end(e);
	close(fd);
	return is;
}

static int find_debug_local(Dwfl_Module *mod, void **userdata, const char *modname,
			    Dwarf_Addr base, const char *file_name, const char *link,
			    GElf_Word crc, char **out)
{
	pc_dwarf *d = *userdata;
	(void)modname;
	(void)base;
	const unsigned char *id = NULL;
	GElf_Addr va;
	int n = d ? dwfl_module_build_id(mod, &id, &va) : -1;
	size_t idlen = n > 0 && n <= 64 ? (size_t)n : 0;
	/* the dwz file of a .gnu_debugaltlink: left to libdw (dwarf_getalt:
	 * by its own build-id under /usr/lib/debug/.build-id) */
	if (!d || (!crc && asks_altlink(file_name, link))) {
		errno = ENOENT;
		return -1;
	}
	int fd = -1;
	char *p = NULL;
	if (idlen) {
		/* DEBUG_DIR/.build-id/xx/yyyy....debug */
		size_t l = sizeof PC_DEBUG_DIR + 12 + 2 * idlen + 8;
		if (!(p = malloc(l)))
			goto out;
		size_t k = (size_t)snprintf(p, l, "%s/.build-id/%02x/", PC_DEBUG_DIR, id[0]);
		for (size_t i = 1; i < idlen; i++)
			k += (size_t)snprintf(p + k, l - k, "%02x", id[i]);
		snprintf(p + k, l - k, ".debug");
		fd = debug_candidate(d, p, file_name, 0, 0, id, idlen);
	}
	/* the .gnu_debuglink name (a file name, no directory) beside the
	 * program, in .debug/ there, and under DEBUG_DIR/<its directory> */
	if (fd < 0 && link && *link && !strchr(link, '/') && file_name) {
		char *dir = pc_plat_realpath(file_name);
		char *slash = dir ? pc_plat_last_sep(dir) : NULL;
		if (slash)
			*slash = 0;
		static const char *const form[] = {"%s/%s", "%s/.debug/%s",
						   PC_DEBUG_DIR "%s/%s"};
		for (size_t i = 0; dir && fd < 0 && i < sizeof form / sizeof form[0]; i++) {
			size_t l = sizeof PC_DEBUG_DIR + strlen(dir) + strlen(link) + 10;
			free(p);
			if (!(p = malloc(l)))
				break;
			snprintf(p, l, form[i], dir, link);
			fd = debug_candidate(d, p, file_name, 1, crc, id, idlen);
		}
		free(dir);
	}
out:
	if (fd < 0) {
		free(p);
		errno = ENOENT;
		return -1;
	}
	*out = p;
	return fd;
}

/* A compressed program (libdwfl inflates gzip, bzip2 and xz files whole
 * into memory): gzip is inflated here first without keeping the bytes,
 * to check its size against PC_PROGRAM_GZ_LIMIT (loaders/elf.c reads
 * such a file up to that limit too); bzip2, xz and zstd are refused
 * (the ELF loader reads xz and zstd programs, as gzip, up to that limit,
 * but libdw would not, or whole). */
static int whole_file_inflate_ok(pc_dwarf *d, int fd)
{
	unsigned char m[6];
	long long got = pc_plat_pread(fd, m, sizeof m, 0);
	if (got >= 3 && !memcmp(m, "BZh", 3))
		return dfail(d, PC_EUNSUPPORTED, 0,
			     "compressed with bzip2: decompress it first (bunzip2)");
	int kind = pc_zdec_sniff(m, got > 0 ? (size_t)got : 0);
	if (kind == PC_Z_XZ) /* (libdw reads it whole, with no limit) */
		return dfail(d, PC_EUNSUPPORTED, 0, "compressed with xz: decompress it first (unxz)");
	if (kind == PC_Z_ZSTD) /* (libdw does not read it) */
		return dfail(d, PC_EUNSUPPORTED, 0, "compressed with zstd: decompress it first (unzstd)");
	if (got < 2 || m[0] != 0x1f || m[1] != 0x8b)
		return PC_OK;
	int dfd = dup(fd);
	gzFile g = dfd >= 0 ? gzdopen(dfd, "rb") : NULL;
	unsigned char *buf = malloc(65536);
	if (!g || !buf) {
		if (g)
			gzclose(g);
		else if (dfd >= 0)
			close(dfd);
		free(buf);
		return dfail(d, PC_ENOMEM, -1, "out of memory");
	}
	uint64_t n = 0;
	int r;
	while ((r = gzread(g, buf, 65536)) > 0 && n <= PC_PROGRAM_GZ_LIMIT)
		n += (uint64_t)r;
	gzclose(g);
	free(buf);
	if (lseek(fd, 0, SEEK_SET) != 0) /* (a dup shares the offset) */
		return dfail(d, PC_EIO, -1, "cannot read the program to read its DWARF");
	if (n > PC_PROGRAM_GZ_LIMIT)
		return dfail(d, PC_ELIMIT, (int64_t)PC_PROGRAM_GZ_LIMIT,
			     "compressed program inflates past the limit of %llu bytes: decompress it first (gunzip) if it is genuine",
			     (unsigned long long)PC_PROGRAM_GZ_LIMIT);
	return PC_OK;
}

#if !PC_DWARF_DLOPEN
static const Dwfl_Callbacks linked_callbacks = {
	.find_elf = dwfl_build_id_find_elf,
	.find_debuginfo = find_debug_local,
	.section_address = dwfl_offline_section_address,
	.debuginfo_path = NULL,
};
static const Dwfl_Callbacks linked_callbacks_net = {
	.find_elf = dwfl_build_id_find_elf,
	.find_debuginfo = dwfl_standard_find_debuginfo,
	.section_address = dwfl_offline_section_address,
	.debuginfo_path = NULL,
};
#endif

int pc_dwarf_load(pc_dwarf *d, const char *path)
{
	if (d->loaded)
		return dfail(d, PC_EUSAGE, -1, "DWARF already loaded");
	free(d->path);
	d->path = pc_strdup(path);
	if (!d->path)
		return dfail(d, PC_ENOMEM, -1, "out of memory");
#if PC_DWARF_DLOPEN
	if (!d->dwlib) {
		char msg[600];
		d->dwlib = dw_load(PC_DWARF_SONAME, &d->dw, msg, sizeof msg);
		if (!d->dwlib)
			return dfail(d, PC_EUNSUPPORTED, -1, "%s", msg);
		d->cb.find_elf = d->dw.dwfl_build_id_find_elf;
		d->cb.find_debuginfo = d->debuginfod ? d->dw.dwfl_standard_find_debuginfo
						     : find_debug_local;
		d->cb.section_address = d->dw.dwfl_offline_section_address;
		d->cb.debuginfo_path = NULL;
	}
	const Dwfl_Callbacks *offline_callbacks = &d->cb;
#else
	const Dwfl_Callbacks *offline_callbacks =
		d->debuginfod ? &linked_callbacks_net : &linked_callbacks;
#endif
	int fd = open(path, O_RDONLY);
	if (fd < 0)
		return dfail(d, PC_EIO, -1, "cannot open the program to read its DWARF");
	int st = whole_file_inflate_ok(d, fd);
	if (st) {
		close(fd);
		return st;
	}
	d->dwfl = dwfl_begin(offline_callbacks);
	if (!d->dwfl) {
		close(fd);
		return dfail(d, PC_ENOMEM, -1, "libdwfl: %s", dwfl_errmsg(-1));
	}
	/* dwfl owns fd once it reported the module (libdwfl.h: "on
	 * success, FD is consumed"); when it refuses the file, fd is still
	 * ours */
	d->mod = dwfl_report_offline(d->dwfl, path, path, fd);
	if (!d->mod)
		close(fd);
	if (!d->mod || dwfl_report_end(d->dwfl, NULL, NULL))
		return dfail(d, PC_EFORMAT, 0, "not an ELF file libdw can read: %s",
			     dwfl_errmsg(-1));
	{
		char why[400];
		GElf_Addr eb;
		int64_t at;
		if (sections_inflate_ok(dwfl_module_getelf(d->mod, &eb), why, sizeof why, &at))
			return dfail(d, PC_ELIMIT, at, "%s", why);
	}
	void **ud = NULL; /* d for find_debug_local */
	dwfl_module_info(d->mod, &ud, NULL, NULL, NULL, NULL, NULL, NULL);
	if (ud)
		*ud = d;
	d->debugwhy[0] = 0;
	Dwarf *dw = dwfl_module_getdwarf(d->mod, &d->bias);
	if (!dw && d->debugwhy[0])
		return dfail(d, PC_EUNSUPPORTED, -1,
			     "no DWARF debugging information: %s, not used (install the program's own debug file)",
			     d->debugwhy);
	if (!dw)
		return dfail(d, PC_EUNSUPPORTED, -1,
			     "no DWARF debugging information (build with -g, or install its separate debug file)");
	find_text(d);
	st = scan_units(d);
	if (st)
		return st;
	d->loaded = 1;
	return PC_OK;
}

static int push_frame(pc_dwarf *d, const char *fn, const char *file,
		      unsigned line, unsigned col)
{
	if (pc_grow((void **)&d->frames, &d->capframes, d->nframes + 1, sizeof *d->frames))
		return PC_ENOMEM;
	/* the names live as long as d (its pool, libdw's line tables and
	 * symbol table): not copied, one copy an address would grow d with
	 * every lookup */
	pc_srcframe *f = &d->frames[d->nframes++];
	f->function = fn;
	f->file = file;
	f->line = line;
	f->column = col;
	return PC_OK;
}

static const char *scope_name(pc_dwarf *d, Dwarf_Die *die)
{
	Dwarf_Attribute a;
	const char *n = NULL;
	if (dwarf_attr_integrate(die, DW_AT_linkage_name, &a) ||
	    dwarf_attr_integrate(die, DW_AT_MIPS_linkage_name, &a))
		n = dwarf_formstring(&a);
	if (!n && dwarf_attr_integrate(die, DW_AT_name, &a))
		n = dwarf_formstring(&a);
	(void)d;
	return n;
}

/* The function of frame_at where the scope does not name it (fname,
 * of node x, NULL or a name that is not the symbol's): rare, kept out
 * of the line symbols' walk. */
#if defined(__GNUC__) || defined(__clang__)
__attribute__((noinline))
#endif
static const char *frame_name(pc_dwarf *d, Dwarf_Addr a, size_t k, const struct fnode *x,
			      const char *fname, const char *file)
{
	/* (an inlined subroutine without a name, whose name is in a dwz
	 * file that is missing, is not the symbol around it: "??") */
	if ((!fname && (!x || !x->inlined)) || (x && x->subprogram_without_linkage)) {
		/* no DWARF function (assembly), or a mangled language without a
		 * linkage name: the ELF symbol, as bfd falls back to (with bit 0
		 * set where it marks Thumb code: an even address below a Thumb
		 * function's odd value is its first instruction, not the code
		 * of the symbol before; and not a "$t"/"$a"/"$d" mapping
		 * symbol at that address) */
		const char *sn = dwfl_module_addrname(d->mod, d->isa_bit ? a | 1 : a);
		if (sn && d->isa_bit && sn[0] == '$')
			sn = NULL;
		if (sn)
			fname = sn;
	}
	if (!fname && file) {
		/* padding past a function's end, still in the line table: the
		 * function before it, as bfd takes the preceding symbol */
		for (size_t j = k < d->nseg ? k : 0; j-- > 0;)
			if (d->segnode[j] != NONODE) {
				size_t r = d->segnode[j];
				while (d->nodes[r].inlined && d->nodes[r].parent != NONODE)
					r = d->nodes[r].parent;
				fname = d->nodes[r].name;
				break;
			}
	}
	return fname;
}

/* The innermost frame of module address a, given its line row lr
 * (line_at) and its segment k (seg_index): the line from the line
 * table, the function scope from the table built at load (*nodep, NONODE
 * for none); 0 when no DWARF covers a. */
static inline int frame_at(pc_dwarf *d, Dwarf_Addr a, const lrow *lr, size_t k,
			   pc_srcframe *f, size_t *nodep)
{
	d->queries++;
	const char *file = lr ? d->files[lr->file] : NULL;
	size_t node = k < d->nseg ? d->segnode[k] : NONODE;
	*nodep = node;
	if (!file && node == NONODE)
		return 0; /* no DWARF here: no frame */
	const struct fnode *x = node != NONODE ? &d->nodes[node] : NULL;
	const char *fname = x ? x->name : NULL;
	if (!fname || x->subprogram_without_linkage)
		fname = frame_name(d, a, k, x, fname, file);
	f->function = fname;
	f->file = file;
	f->line = lr ? (unsigned)lr->line : 0;
	f->column = lr ? lr->col : 0;
	return 1;
}

/* frame_at for module address a, looked up. */
static int frame0(pc_dwarf *d, Dwarf_Addr a, pc_srcframe *f, size_t *nodep)
{
	return frame_at(d, a, line_at(d, a), seg_index(d, a), f, nodep);
}

/* Fills frames for address addr (unbiased): frame0, then the inline
 * chain. */
static int query(pc_dwarf *d, uint64_t addr)
{
	Dwarf_Addr a = addr + d->bias;
	pc_srcframe f0;
	size_t node;
	if (!frame0(d, a, &f0, &node))
		return PC_OK;
	int st = push_frame(d, f0.function, f0.file, f0.line, f0.column);
	/* the inline chain: each inlined subroutine's call site, in the
	 * function scope around it */
	for (size_t n = node; !st && n != NONODE && d->nodes[n].inlined &&
			      d->nodes[n].parent != NONODE;
	     n = d->nodes[n].parent) {
		const struct fnode *x = &d->nodes[n];
		const char *pn = d->nodes[x->parent].name;
		if (!pn && !d->nodes[x->parent].inlined) /* the function's symbol */
			pn = dwfl_module_addrname(d->mod, d->isa_bit ? a | 1 : a);
		if (pn && d->isa_bit && pn[0] == '$')
			pn = NULL;
		st = push_frame(d, pn, x->call_file, x->call_line, x->call_col);
	}
	return st;
}

#endif /* PC_HAVE_DWARF */

/* ---- a given line table (map line numbers) ------------------------------- */

static int cmp_trow(const void *a, const void *b)
{
	const pc_linerow *x = a, *y = b;
	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

int pc_dwarf_set_lines(pc_dwarf *d, const char *origin, const pc_linerow *rows,
		       size_t n)
{
	free(d->path);
	d->path = pc_strdup(origin);
	free(d->trows);
	d->trows = malloc((n ? n : 1) * sizeof *d->trows);
	if (!d->path || !d->trows)
		return dfail(d, PC_ENOMEM, -1, "out of memory");
	size_t k = 0;
	for (size_t i = 0; i < n; i++) {
		pc_linerow r = rows[i];
		if (r.end <= r.addr)
			continue;
		r.file = r.file ? pc_strpool_add(&d->pool, r.file) : NULL;
		r.function = r.function ? pc_strpool_add(&d->pool, r.function) : NULL;
		if (!r.file || (rows[i].function && !r.function))
			return dfail(d, PC_ENOMEM, -1, "out of memory");
		d->trows[k++] = r;
	}
	if (k)
		qsort(d->trows, k, sizeof *d->trows, cmp_trow);
	/* one row per address (the first given) */
	size_t w = 0;
	for (size_t i = 0; i < k; i++)
		if (!w || d->trows[w - 1].addr != d->trows[i].addr)
			d->trows[w++] = d->trows[i];
	d->ntrows = w;
	d->table = 1;
	return PC_OK;
}

static int table_lookup(pc_dwarf *d, uint64_t a, const pc_srcframe **frames,
			size_t *n)
{
	size_t lo = 0, hi = d->ntrows;
	while (lo < hi) {
		size_t m = lo + (hi - lo) / 2;
		if (d->trows[m].addr <= a)
			lo = m + 1;
		else
			hi = m;
	}
	d->queries++;
	if (!lo || a >= d->trows[lo - 1].end)
		return PC_OK;
	if (pc_grow((void **)&d->out, &d->capout, 1, sizeof *d->out))
		return dfail(d, PC_ENOMEM, -1, "out of memory");
	const pc_linerow *r = &d->trows[lo - 1];
	memset(d->out, 0, sizeof *d->out);
	d->out[0].function = r->function;
	d->out[0].file = r->file;
	d->out[0].line = r->line;
	*frames = d->out;
	*n = 1;
	return PC_OK;
}

int pc_dwarf_lookup(size_t *n, pc_dwarf *d, uint64_t address)
{
	if (n)
		*n = 0;
	if (!d || !n)
		return PC_EUSAGE;
	const pc_srcframe *f;
	int st = pc_dwarf_lookup_frames(d, address, &f, n);
	d->nlast = st ? 0 : *n;
	return st;
}

int pc_dwarf_frame_at_sized(pc_srcframe *out, size_t out_size,
			    const pc_dwarf *d, size_t i)
{
	if (!d || !out || !out_size)
		return PC_EUSAGE;
	if (i >= d->nlast)
		return PC_ENOTFOUND;
	return pc_copy_sized(out, out_size, &d->out[i], sizeof *d->out);
}

int pc_dwarf_lookup_frames(pc_dwarf *d, uint64_t address,
			   const pc_srcframe **frames, size_t *n)
{
	*frames = NULL;
	*n = 0;
	if (d->table)
		return table_lookup(d, address, frames, n);
#if PC_HAVE_DWARF
	if (!d->loaded)
		return dfail(d, PC_EUSAGE, -1, "no DWARF loaded");
	centry *e = cache_find(d, address);
	if (!e) {
		if (d->nframes > CACHE_FRAMES || d->used > CACHE_ADDRS)
			cache_clear(d);
		size_t first = d->nframes;
		int st = query(d, address);
		if (st)
			return dfail(d, st, -1, "out of memory");
		e = cache_insert(d, address);
		if (!e)
			return dfail(d, PC_ENOMEM, -1, "out of memory");
		e->first = first;
		e->n = (unsigned)(d->nframes - first);
	}
	if (e->n == 0)
		return PC_OK;
	/* frames may move when later lookups grow the array: hand out a copy
	 * that stays valid until the next lookup */
	if (pc_grow((void **)&d->out, &d->capout, e->n, sizeof *d->out))
		return dfail(d, PC_ENOMEM, -1, "out of memory");
	memcpy(d->out, d->frames + e->first, e->n * sizeof *d->out);
	*frames = d->out;
	*n = e->n;
	return PC_OK;
#else
	(void)address;
	return dfail(d, PC_EUNSUPPORTED, -1,
		     "this profcore was built without libdw (-Ddwarf): no DWARF");
#endif
}

#if !PC_DWARF_DLOPEN
int pc_dwarf_load_libdw(const char *soname, char *msg, size_t msglen)
{
	(void)soname;
	if (msglen)
		msg[0] = 0;
	return PC_EUNSUPPORTED;
}
#endif

#if !PC_HAVE_DWARF
int pc_dwarf_load(pc_dwarf *d, const char *path)
{
	free(d->path);
	d->path = pc_strdup(path);
	return dfail(d, PC_EUNSUPPORTED, -1,
		     "this profcore was built without libdw (-Ddwarf): no DWARF");
}
#endif

/* ---- tests: the general path beside dwline.c's ------------------------- */

void pc_dwarf_set_general(pc_dwarf *d, int general)
{
#if PC_HAVE_DWARF
	d->general = general;
#else
	(void)d;
	(void)general;
#endif
}

static int dump_add(char **b, size_t *n, size_t *cap, const char *fmt, ...) PC_PRINTF(4, 5);
static int dump_add(char **b, size_t *n, size_t *cap, const char *fmt, ...)
{
	char line[1024];
	va_list ap;
	va_start(ap, fmt);
	int k = vsnprintf(line, sizeof line, fmt, ap);
	va_end(ap);
	if (k < 0)
		return PC_ENOMEM;
	size_t m = (size_t)k < sizeof line ? (size_t)k : sizeof line - 1;
	if (pc_grow((void **)b, cap, *n + m + 1, 1))
		return PC_ENOMEM;
	memcpy(*b + *n, line, m + 1);
	*n += m;
	return PC_OK;
}
#define DS(s) ((s) ? (s) : "(none)")

char *pc_dwarf_dump(const pc_dwarf *d, size_t *lines, size_t *dies)
{
	char *b = NULL;
	size_t n = 0, cap = 0;
	int st = dump_add(&b, &n, &cap, "%s\n", d->loaded ? "loaded" : "not loaded");
#if PC_HAVE_DWARF
	*lines = d->fast_lines;
	*dies = d->fast_dies;
	for (size_t i = 0; !st && i < d->nlrows; i++) {
		const lrow *r = &d->lrows[i];
		st = dump_add(&b, &n, &cap, "row 0x%llx %s:%u:%u%s\n", (unsigned long long)r->addr,
			      DS(d->files[r->file]), (unsigned)r->line, (unsigned)r->col, r->end ? " end" : "");
	}
	for (size_t i = 0; !st && i < d->nnodes; i++) {
		const struct fnode *x = &d->nodes[i];
		st = dump_add(&b, &n, &cap, "scope %zu %s parent %zu depth %u%s%s call %s:%u:%u\n", i,
			      DS(x->name), x->parent, x->depth, x->inlined ? " inlined" : "",
			      x->subprogram_without_linkage ? " no-linkage" : "", DS(x->call_file),
			      x->call_line, x->call_col);
	}
	for (size_t i = 0; !st && i < d->nranges; i++)
		st = dump_add(&b, &n, &cap, "range 0x%llx-0x%llx %zu\n",
			      (unsigned long long)d->ranges[i].lo, (unsigned long long)d->ranges[i].hi,
			      d->ranges[i].node);
	uint64_t m;
	for (ccur c = cand_at(d, 0); !st && cand_get(&c, &m); cand_next(&c, m))
		st = dump_add(&b, &n, &cap, "cand 0x%llx\n", (unsigned long long)m);
	for (size_t i = 0; !st && i < d->nseg; i++)
		st = dump_add(&b, &n, &cap, "seg 0x%llx %zu\n", (unsigned long long)d->seg[i],
			      d->segnode[i]);
#else
	*lines = *dies = 0;
#endif
	if (st) {
		free(b);
		return NULL;
	}
	return b;
}

/* ---- gprof's line symbols ------------------------------------------------- */

#if PC_HAVE_DWARF
/* The walk over the candidates: the last (function, file, line) a
 * symbol started with, the symbols so far (room for every candidate
 * walked: no growth), and the places of the last candidate walked in
 * the line rows and the segments. */
typedef struct lswalk {
	pc_linesym *v;
	size_t n;
	const char *pf, *pfile;
	unsigned pline;
	int have_prev;
	size_t row, seg; /* the rows, the segments at or below it */
} lswalk;

/* Names from one pool or one line table are compared by pointer first. */
static inline int same_name(const char *x, const char *y)
{
	return x == y || !strcmp(x, y);
}

/* Candidate frame f (gprof get_src_info: a file, a function and a line;
 * a new symbol where they change) at unbiased address a: 1 when it
 * starts a symbol (then the previous triple). */
static inline int ls_new(lswalk *w, const pc_srcframe *f)
{
	if (!f->file || !f->function || !f->line)
		return 0;
	if (w->have_prev && w->pline == f->line && same_name(w->pf, f->function) &&
	    same_name(w->pfile, f->file))
		return 0;
	w->pf = f->function;
	w->pfile = f->file;
	w->pline = f->line;
	w->have_prev = 1;
	return 1;
}

/* The candidates from w's places on (above the last one walked, in
 * .text) whose unbiased addresses are below hi: the symbols they start.
 * They come in address order: each one's places in the rows and
 * segments are a few entries on from the last one's. */
static void ls_run(pc_dwarf *d, lswalk *w, uint64_t hi)
{
	ccur c = cand_cur(d, w->row, w->seg);
	const lrow *rows = c.rows;
	const size_t nseg = c.nseg;
	/* the last candidate's file, line and segment when its function was
	 * its scope's name (not looked up by address: frame_name): a
	 * candidate with the same ones has the same frame, and starts no
	 * symbol (the candidates of one line of one function, most of
	 * them) */
	uint32_t lfile = 0;
	int32_t lline = 0;
	size_t lk = SIZE_MAX;
	uint64_t m;
	while (cand_get(&c, &m) && m - c.bias < hi) {
		cand_next(&c, m);
		const size_t row = c.row, sg = c.sg;
		const lrow *lr = row && !rows[row - 1].end ? &rows[row - 1] : NULL;
		const size_t k = sg ? sg - 1 : nseg;
		if (lr && k == lk && lr->file == lfile && lr->line == lline) {
			d->queries++; /* (read as the one before) */
			continue;
		}
		pc_srcframe f;
		size_t node;
		int got = frame_at(d, m, lr, k, &f, &node);
		const struct fnode *x = node != NONODE ? &d->nodes[node] : NULL;
		lk = got && lr && x && x->name && !x->subprogram_without_linkage && !d->general
			     ? k : SIZE_MAX;
		lfile = lr ? lr->file : 0;
		lline = lr ? lr->line : 0;
		if (got && ls_new(w, &f))
			w->v[w->n++] = (pc_linesym){m - c.bias, f.function, f.file, f.line};
	}
	w->row = c.row;
	w->seg = c.sg;
}
#endif

int pc_dwarf_line_syms(pc_dwarf *d, pc_linesym **out, size_t *nout)
{
	return pc_dwarf_line_syms_in(d, NULL, 0, out, nout);
}

int pc_dwarf_line_syms_in(pc_dwarf *d, const uint64_t *ranges, size_t nranges,
			  pc_linesym **out, size_t *nout)
{
	*out = NULL;
	*nout = 0;
	if (d->table) {
		/* each row starting a new (function, file, line); a given
		 * table is small: the ranges are not needed */
		pc_linesym *v = malloc((d->ntrows ? d->ntrows : 1) * sizeof *v);
		if (!v)
			return dfail(d, PC_ENOMEM, -1, "out of memory");
		size_t k = 0;
		for (size_t i = 0; i < d->ntrows; i++) {
			const pc_linerow *r = &d->trows[i];
			if (!r->function)
				continue;
			if (k && v[k - 1].line == r->line && !strcmp(v[k - 1].function, r->function) &&
			    !strcmp(v[k - 1].file, r->file) && i && d->trows[i - 1].end == r->addr)
				continue;
			v[k++] = (pc_linesym){r->addr, r->function, r->file, r->line};
		}
		*out = v;
		*nout = k;
		return PC_OK;
	}
#if PC_HAVE_DWARF
	if (!d->loaded)
		return dfail(d, PC_EUSAGE, -1, "no DWARF loaded");
	if (!d->have_text)
		return PC_OK;
	lswalk w;
	memset(&w, 0, sizeof w);
	/* the candidates in .text: [text_lo, text_hi); the ranges'
	 * candidates there: room for a symbol each */
	size_t room = ranges ? 0 : cand_room(d, d->text_lo, d->text_hi);
	for (size_t r = 0; r < nranges; r++)
		room += cand_room(d, ranges[2 * r], ranges[2 * r + 1]);
	w.v = malloc((room ? room : 1) * sizeof *w.v);
	if (!w.v)
		return dfail(d, PC_ENOMEM, -1, "out of memory");
	if (!ranges) {
		ccur c = cand_at(d, d->text_lo);
		w.row = c.row;
		w.seg = c.sg;
		ls_run(d, &w, d->text_hi);
	} else {
		/* only the candidates inside the ranges, each range's walk
		 * started from the triple the full walk has there: the nearest
		 * earlier candidate with a line (the symbols are those of the
		 * full walk that lie in the ranges) */
		uint64_t done = d->text_lo; /* candidates below this were walked */
		int walked = 0;
		for (size_t r = 0; r < nranges && done < d->text_hi; r++) {
			uint64_t lo = ranges[2 * r] > done ? ranges[2 * r] : done,
				 hi = ranges[2 * r + 1] < d->text_hi ? ranges[2 * r + 1] : d->text_hi, m;
			ccur c = cand_at(d, lo), cd = cand_at(d, done);
			if (!cand_get(&c, &m) || m - c.bias >= hi)
				continue; /* none in the range */
			if (!walked || c.row != cd.row || c.sg != cd.sg) {
				/* (the first walked, or candidates between the
				 * last walked and it) the triple before its first
				 * candidate, looked up; the places of that one */
				pc_srcframe f;
				size_t node;
				ccur p = c;
				w.have_prev = 0;
				while (!w.have_prev && cand_prev(&p, d->text_lo, &m))
					if (frame0(d, m, &f, &node))
						(void)ls_new(&w, &f);
				w.row = c.row;
				w.seg = c.sg;
			}
			ls_run(d, &w, hi);
			done = hi;
			walked = 1;
		}
	}
	/* in address order: the walk goes up through the candidates, which
	 * scan_units keeps at or above the bias */
	*out = w.v;
	*nout = w.n;
	return PC_OK;
#else
	(void)ranges;
	(void)nranges;
	return dfail(d, PC_EUNSUPPORTED, -1,
		     "this profcore was built without libdw (-Ddwarf): no DWARF");
#endif
}

/* ---- source files ------------------------------------------------------- */

/* Which files are read as source (docs/source.md, "Which source files
 * are read"): the names come from the program's DWARF, which may be
 * someone else's, so a name is read only
 * - when it resolves (realpath: "..", symbolic links) inside a
 *   source-path directory, or inside the compilation directory of a unit
 *   (DW_AT_comp_dir, not the root directory) that its name starts with,
 *   or (a relative name) inside the current directory;
 * - never under /proc, /sys or /dev;
 * - only a regular file, opened without blocking (a FIFO waits for
 *   ever). */

enum { SRC_MISSING, SRC_OUTSIDE, SRC_NOTREG, SRC_NEVER };

static const char *const src_why[] = {
	NULL,
	"source file not read: outside the program's compilation directory and the source paths (give its directory in the option source-path)",
	"source file not read: not a regular file",
	"source file not read: /proc, /sys and /dev are never read as source",
};

static int is_sep(char c)
{
#ifdef _WIN32
	return c == '/' || c == '\\';
#else
	return c == '/';
#endif
}

static int is_absolute(const char *p)
{
#ifdef _WIN32
	if (((p[0] >= 'A' && p[0] <= 'Z') || (p[0] >= 'a' && p[0] <= 'z')) && p[1] == ':')
		return 1;
#endif
	return is_sep(p[0]);
}

/* 1 if the resolved path real is dir (resolved) or below it */
static int under(const char *real, const char *dir)
{
	size_t n = strlen(dir);
	while (n && is_sep(dir[n - 1]))
		n--; /* "/" and "C:\" end in a separator */
	return !strncmp(real, dir, n) && (!real[n] || is_sep(real[n]));
}

static int never_read(const char *real)
{
#ifdef _WIN32
	(void)real;
	return 0;
#else
	return under(real, "/proc") || under(real, "/sys") || under(real, "/dev");
#endif
}

/* 1 if real lies inside dir resolved (the root directory: never) */
static int inside_dir(const char *real, const char *dir)
{
	char *rd = pc_plat_realpath(dir);
	size_t n = rd ? strlen(rd) : 0;
	while (n && is_sep(rd[n - 1]))
		n--;
	int in = rd && n && !(n == 2 && rd[1] == ':') && under(real, rd);
	free(rd);
	return in;
}

/* 1 if file, named as the DWARF names it, starts with a unit's
 * compilation directory and real (file resolved) lies inside it */
static int in_compdir(const pc_dwarf *d, const char *file, const char *real)
{
	size_t l = strlen(file);
	char *pre = malloc(l + 1);
	if (!pre)
		return 0;
	int in = 0;
	for (size_t k = 1; !in && k < l; k++) {
		if (!is_sep(file[k]))
			continue;
		memcpy(pre, file, k);
		pre[k] = 0;
		const char *key = pre;
		const char **hit = d->ncompdirs
					   ? bsearch(&key, d->compdirs, d->ncompdirs,
						     sizeof *d->compdirs, cmp_str)
					   : NULL;
		in = hit && inside_dir(real, *hit);
	}
	free(pre);
	return in;
}

/* Opens candidate c when the rule allows it: PC_OK (*path a copy of c,
 * *s open), PC_ENOMEM, or (PC_ENOTFOUND) the reason in *why if it is
 * stronger than the one there.  dir: the source-path directory it was
 * made from (NULL: c is the name itself). */
static int try_source(const pc_dwarf *d, const char *c, const char *dir,
		      char **path, pc_stream **s, int *why)
{
	char *real = pc_plat_realpath(c);
	if (!real)
		return errno == ENOMEM ? PC_ENOMEM : PC_ENOTFOUND;
	int w;
	if (never_read(real))
		w = SRC_NEVER;
	else if (dir ? !inside_dir(real, dir)
		     : is_absolute(c) ? !in_compdir(d, c, real) : !inside_dir(real, "."))
		w = SRC_OUTSIDE;
	else if (pc_stream_open_regular(s, real) == PC_OK) {
		free(real);
		*path = pc_strdup(c);
		if (*path)
			return PC_OK;
		pc_stream_free(*s);
		*s = NULL;
		return PC_ENOMEM;
	} else
		w = pc_plat_open_regular(real) == -2 ? SRC_NOTREG : SRC_MISSING;
	free(real);
	if (w > *why)
		*why = w;
	return PC_ENOTFOUND;
}

int pc_dwarf_open_source(const pc_dwarf *d, const char *file, char **path,
			 pc_stream **s, const char **why)
{
	*path = NULL;
	*s = NULL;
	*why = NULL;
	if (!file)
		return PC_ENOTFOUND;
	int w = SRC_MISSING, st;
	/* each source-path DIR first: DIR/<the name less 0, 1, 2...
	 * leading directories>, then the name itself */
	for (size_t i = 0; i < d->nsrcdirs; i++) {
		const char *tail = file;
		while (is_sep(*tail))
			tail++;
		while (tail && *tail) {
			size_t l = strlen(d->srcdirs[i]) + strlen(tail) + 2;
			char *c = malloc(l);
			if (!c)
				return PC_ENOMEM;
			snprintf(c, l, "%s/%s", d->srcdirs[i], tail);
			st = try_source(d, c, d->srcdirs[i], path, s, &w);
			free(c);
			if (st != PC_ENOTFOUND)
				return st;
			while (*tail && !is_sep(*tail))
				tail++;
			while (is_sep(*tail))
				tail++;
		}
	}
	st = try_source(d, file, NULL, path, s, &w);
	if (st == PC_ENOTFOUND)
		*why = src_why[w];
	return st;
}

int pc_dwarf_find_source(char **out, const pc_dwarf *d, const char *file)
{
	pc_stream *s;
	const char *why;
	int st = pc_dwarf_open_source(d, file, out, &s, &why);
	pc_stream_free(s);
	return st;
}
