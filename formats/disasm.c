/* disasm.c - annotated disassembly of one function (report "disasm",
 * option "disasm-select"=FUNCTION, its name or 0xADDRESS inside it; none:
 * the function with the most samples; docs/source.md ("Source level")).
 *
 * The code bytes come from the program among the profile's files: an ELF
 * executable (libelf; x86 32/64, ARM and Thumb, AArch64, m68k, MIPS,
 * PowerPC) or an Atari GEMDOS program (m68k, TEXT at file offset 0x1c,
 * placed at the "TEXT" region the loader made, i.e. its load-address).
 * Capstone decodes them.  ARM code is ARM or Thumb as the ELF mapping
 * symbols ($a, $t, $d) say, else as bit 0 of the function symbol; $d
 * (and $d on AArch64) marks data shown as .byte lines.
 *
 * Counts: raw samples are exact per address; a sample inside an
 * instruction (not at its first byte) counts for that instruction and is
 * noted.  Histogram buckets are not split: instructions that share a
 * bucket with a count form one group, shown as one address range with
 * one count (a bucket wider than an instruction is never divided among
 * its instructions).  A bucket crossing the function's start or end
 * counts in proportion to its bytes inside the function, so the total
 * can differ by a fraction of a sample from the flat report's (gprof's
 * rule credits whole 2-byte units).
 * With DWARF, the source line (file:line, and the inlined function when
 * it is not FUNCTION) is printed above each run of instructions from it.
 */
#include "disasm.h"
#include "dwarf_internal.h"
#include "model.h"
#include "rowset.h"
#include "filter.h"
#include "pc_config.h"

#include <stdlib.h>
#include <string.h>

#if PC_HAVE_CAPSTONE
#include <capstone/capstone.h>
#endif
#if PC_CAPSTONE_DLOPEN
#include "platform.h"
#include <stddef.h>
#endif
#if PC_HAVE_ELF
#include <gelf.h>
#include <libelf.h>
#endif

/* Largest program file read for its code. */
#define DIS_MAX_FILE ((uint64_t)1 << 31)

#if PC_HAVE_CAPSTONE

#if PC_CAPSTONE_DLOPEN
/* Capstone is not linked (meson.build lazy_libs: 77,403 relocations at
 * every start): each -r disasm opens its shared library (kept mapped once
 * opened: RTLD_NODELETE), takes these functions from it into a table of
 * its own and closes it at the end; no state is shared. */
#define CS_FUNCS(X) X(cs_open) X(cs_close) X(cs_malloc) X(cs_disasm_iter) X(cs_free)
#define CS_MEMBER(f) __typeof__(f) *f;
#define CS_SYM(f) {#f, offsetof(cs_table, f)},
typedef struct cs_table {
	CS_FUNCS(CS_MEMBER)
	void *lib;
} cs_table;
static const pc_plat_sym cs_syms[] = {CS_FUNCS(CS_SYM)};

static int cs_load(const char *soname, cs_table *t, char *msg, size_t msglen)
{
	char why[400];
	t->lib = pc_plat_lib_open(soname, cs_syms, sizeof cs_syms / sizeof cs_syms[0], t, why,
				  sizeof why);
	if (!t->lib) {
		snprintf(msg, msglen, "disasm: cannot load Capstone (%s); install %s (Debian: %s)",
			 why, PC_CAPSTONE_SONAME, PC_CAPSTONE_PACKAGE);
		return PC_EUNSUPPORTED;
	}
	return PC_OK;
}

int pc_disasm_load_capstone(const char *soname, char *msg, size_t msglen)
{
	cs_table t;
	int st = cs_load(soname, &t, msg, msglen);
	if (!st)
		pc_plat_lib_close(t.lib);
	return st;
}

/* Capstone's functions for one -r disasm: PC_OK, or fails p with the
 * message */
static int cs_ready(pc_profile *p, cs_table *t)
{
	char msg[600];
	int st = cs_load(PC_CAPSTONE_SONAME, t, msg, sizeof msg);
	return st ? pc_profile_fail(p, st, "%s", msg) : PC_OK;
}

static void cs_done(cs_table *t)
{
	pc_plat_lib_close(t->lib);
}

/* decode() calls them through its table csf */
#define cs_open (*csf->cs_open)
#define cs_close (*csf->cs_close)
#define cs_malloc (*csf->cs_malloc)
#define cs_disasm_iter (*csf->cs_disasm_iter)
#define cs_free (*csf->cs_free)
#else
/* Capstone is linked: the calls go straight to it */
typedef struct cs_table {
	int linked;
} cs_table;

static int cs_ready(pc_profile *p, cs_table *t)
{
	(void)p;
	t->linked = 1;
	return PC_OK;
}

static void cs_done(cs_table *t)
{
	(void)t;
}
#endif

/* Capstone's big-endian mode bit (bit 31) as a non-negative number */
#define DIS_BE ((int64_t)(uint32_t)CS_MODE_BIG_ENDIAN)

typedef struct dis_ins {
	uint64_t addr;
	unsigned size;
	unsigned char bytes[16];
	char text[200];
	double count;
	int joined; /* in one histogram group with the one before */
} dis_ins;

/* A stretch of code in one decoding mode: from a mapping symbol ($a,
 * $t, $d, $x) of an ARM or AArch64 program on, or (dis_prog.funcs) at an
 * ARM function symbol; sorted by (section, address, symbol table order). */
typedef struct dis_mark {
	uint64_t addr; /* from here on */
	int64_t mode;  /* cs_mode; -1: data */
	size_t shndx, order;
} dis_mark;

/* The program whose code is shown, read once for every function of a
 * report or page (pc_disasm_json_each: the top functions of the HTML
 * page); loaded at the first function that needs it. */
typedef struct dis_prog {
	int loaded;
	void *buf; /* the file's bytes */
	size_t len;
	const char *arch;
	int cs_arch, unit;
	int64_t cs_mode; /* cs_mode (DIS_BE is bit 31) */
	int segoff;      /* addresses shown as real-mode SSSS:OOOO */
	const unsigned char *img; /* GEMDOS TEXT, DOS load image: at base */
	uint64_t base, size;
	const char *what; /* what img is, for messages */
#if PC_HAVE_ELF
	Elf *e;
	int big, arm;
	dis_mark *marks, *funcs; /* mapping symbols; ARM function symbols */
	size_t nmarks, capmarks, nfuncs, capfuncs;
#endif
} dis_prog;

typedef struct dis_code {
	const char *file, *arch;
	uint64_t lo, hi; /* code bytes of [lo, hi) */
	const unsigned char *bytes;
	int cs_arch, unit;
	int64_t cs_mode; /* cs_mode (DIS_BE is bit 31) */
	const dis_mark *modes; /* by address; none: cs_mode throughout */
	size_t nmodes;
	int segoff; /* addresses shown as real-mode SSSS:OOOO */
	uint64_t frame; /* the function's segment (paragraph * 16) */
} dis_code;

static void prog_dispose(dis_prog *g)
{
#if PC_HAVE_ELF
	if (g->e)
		elf_end(g->e);
	free(g->marks);
	free(g->funcs);
#endif
	free(g->buf);
	memset(g, 0, sizeof *g);
}

static int read_file(pc_profile *p, const char *path, void **buf, size_t *len)
{
	pc_stream *s;
	int st = pc_stream_open_file(&s, path);
	if (st)
		return pc_profile_fail_at(p, st ? st : PC_EIO, path, -1, "cannot open the program to disassemble");
	st = pc_stream_read_all(buf, len, s, DIS_MAX_FILE);
	if (st) {
		const pc_error *e = pc_stream_error(s);
		st = pc_profile_fail_at(p, st, path, -1, "%s", e && e->message ? e->message : "cannot read");
	}
	pc_stream_free(s);
	return st;
}

#if PC_HAVE_ELF
static int add_mark(dis_mark **v, size_t *n, size_t *cap, dis_mark m)
{
	if (pc_grow((void **)v, cap, *n + 1, sizeof **v))
		return PC_ENOMEM;
	(*v)[(*n)++] = m;
	return PC_OK;
}

static int cmp_mark(const void *a, const void *b)
{
	const dis_mark *x = a, *y = b;
	if (x->shndx != y->shndx)
		return x->shndx < y->shndx ? -1 : 1;
	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	return x->order < y->order ? -1 : x->order > y->order;
}

/* The first of v[0..n) at or after (shndx, addr). */
static size_t mark_at(const dis_mark *v, size_t n, size_t shndx, uint64_t addr)
{
	size_t l = 0, r = n;
	while (l < r) {
		size_t m = l + (r - l) / 2;
		if (v[m].shndx < shndx || (v[m].shndx == shndx && v[m].addr < addr))
			l = m + 1;
		else
			r = m;
	}
	return l;
}

/* An ELF program: its machine, and on ARM and AArch64 the mapping
 * symbols of every section (and ARM's function symbols, whose bit 0
 * says Thumb where a section has no mapping symbols). */
static int load_elf(pc_profile *p, dis_prog *g, const char *path)
{
	int st = read_file(p, path, &g->buf, &g->len);
	if (st)
		return st;
	if (elf_version(EV_CURRENT) == EV_NONE)
		return pc_profile_fail_at(p, PC_EFORMAT, path, -1, "libelf: %s", elf_errmsg(-1));
	g->e = elf_memory(g->buf, g->len);
	GElf_Ehdr eh;
	if (!g->e || !gelf_getehdr(g->e, &eh))
		return pc_profile_fail_at(p, PC_EFORMAT, path, 0, "not an ELF file: %s", elf_errmsg(-1));
	int big = eh.e_ident[EI_DATA] == ELFDATA2MSB;
	int is64 = eh.e_ident[EI_CLASS] == ELFCLASS64;
	int arm = 0, a64 = 0;
	g->unit = 4;
	switch (eh.e_machine) {
	case EM_X86_64:
		g->cs_arch = CS_ARCH_X86, g->cs_mode = is64 ? CS_MODE_64 : CS_MODE_32;
		g->arch = is64 ? "x86-64" : "x86 (x32)", g->unit = 1;
		break;
	case EM_386:
		g->cs_arch = CS_ARCH_X86, g->cs_mode = CS_MODE_32, g->arch = "x86", g->unit = 1;
		break;
	case EM_ARM:
		g->cs_arch = CS_ARCH_ARM, g->cs_mode = CS_MODE_ARM, g->arch = "ARM";
		arm = 1;
		break;
	case EM_AARCH64:
		g->cs_arch = CS_ARCH_ARM64, g->cs_mode = CS_MODE_ARM, g->arch = "AArch64";
		a64 = 1;
		break;
	case EM_68K:
		g->cs_arch = CS_ARCH_M68K, g->cs_mode = CS_MODE_M68K_040, g->arch = "m68k";
		g->unit = 2;
		break;
	case EM_MIPS:
		g->cs_arch = CS_ARCH_MIPS, g->cs_mode = is64 ? CS_MODE_MIPS64 : CS_MODE_MIPS32;
		g->arch = is64 ? "MIPS64" : "MIPS32";
		break;
	case EM_PPC:
		g->cs_arch = CS_ARCH_PPC, g->cs_mode = CS_MODE_32, g->arch = "PowerPC";
		break;
	case EM_PPC64:
		g->cs_arch = CS_ARCH_PPC, g->cs_mode = CS_MODE_64, g->arch = "PowerPC64";
		break;
	default:
		return pc_profile_fail_at(p, PC_EUNSUPPORTED, path, 18,
			     "disasm: ELF machine %u is not one libprofcore disassembles (x86, x86-64, ARM, Thumb, AArch64, m68k, MIPS, PowerPC)",
			     (unsigned)eh.e_machine);
	}
	if (big)
		g->cs_mode |= DIS_BE;
	g->big = big;
	g->arm = arm;
	if (!arm && !a64)
		return PC_OK;
	/* ARM / Thumb / data from the mapping symbols */
	Elf_Scn *scn = NULL, *symtab = NULL;
	GElf_Shdr sh;
	while ((scn = elf_nextscn(g->e, scn)))
		if (gelf_getshdr(scn, &sh) && sh.sh_type == SHT_SYMTAB)
			symtab = scn;
	if (!symtab)
		return PC_OK;
	Elf_Data *dt = elf_getdata(symtab, NULL);
	GElf_Shdr ssh;
	gelf_getshdr(symtab, &ssh);
	size_t nsym = dt && ssh.sh_entsize ? dt->d_size / ssh.sh_entsize : 0;
	for (size_t i = 0; i < nsym; i++) {
		GElf_Sym sym;
		if (!gelf_getsym(dt, (int)i, &sym) || !sym.st_shndx)
			continue;
		const char *nm = elf_strptr(g->e, ssh.sh_link, sym.st_name);
		if (!nm)
			continue;
		uint64_t v = sym.st_value;
		int64_t m = -2;
		if (nm[0] == '$' && (nm[1] == 'a' || nm[1] == 't' || nm[1] == 'd' || nm[1] == 'x') &&
		    (nm[2] == 0 || nm[2] == '.'))
			m = nm[1] == 'd' ? -1 : nm[1] == 't' ? CS_MODE_THUMB : CS_MODE_ARM;
		else if (arm && GELF_ST_TYPE(sym.st_info) == STT_FUNC &&
			 add_mark(&g->funcs, &g->nfuncs, &g->capfuncs,
				  (dis_mark){v & ~(uint64_t)1, (v & 1) ? CS_MODE_THUMB : CS_MODE_ARM,
					     sym.st_shndx, i}))
			return PC_ENOMEM;
		if (m == -2)
			continue;
		if (m >= 0 && big)
			m |= DIS_BE;
		if (add_mark(&g->marks, &g->nmarks, &g->capmarks, (dis_mark){v, m, sym.st_shndx, i}))
			return PC_ENOMEM;
	}
	if (g->nmarks)
		qsort(g->marks, g->nmarks, sizeof *g->marks, cmp_mark);
	if (g->nfuncs)
		qsort(g->funcs, g->nfuncs, sizeof *g->funcs, cmp_mark);
	return PC_OK;
}

/* The code of [lo, hi) from the ELF program g. */
static int code_elf(pc_profile *p, const dis_prog *g, dis_code *c, const char *path,
		    uint64_t lo, uint64_t hi)
{
	c->cs_arch = g->cs_arch, c->cs_mode = g->cs_mode, c->arch = g->arch, c->unit = g->unit;
	/* the executable section holding lo */
	Elf_Scn *scn = NULL;
	GElf_Shdr sh, csh;
	size_t code_idx = 0;
	while ((scn = elf_nextscn(g->e, scn))) {
		if (!gelf_getshdr(scn, &sh))
			continue;
		if ((sh.sh_flags & SHF_ALLOC) && (sh.sh_flags & SHF_EXECINSTR) &&
		    sh.sh_type == SHT_PROGBITS && lo >= sh.sh_addr &&
		    lo - sh.sh_addr < sh.sh_size) {
			csh = sh;
			code_idx = elf_ndxscn(scn);
		}
	}
	if (!code_idx)
		return pc_profile_fail_at(p, PC_ENOTFOUND, path, -1,
			       "disasm: no code section holds address 0x%llx (is this the program the profile was taken of?)",
			       (unsigned long long)lo);
	if (csh.sh_offset > g->len || csh.sh_size > g->len - csh.sh_offset)
		return pc_profile_fail_at(p, PC_EFORMAT, path, (int64_t)csh.sh_offset,
			       "code section of %llu bytes at file offset %llu goes past the end of the file (%zu bytes)",
			       (unsigned long long)csh.sh_size,
			       (unsigned long long)csh.sh_offset, g->len);
	c->lo = lo;
	c->hi = hi - csh.sh_addr > csh.sh_size ? csh.sh_addr + csh.sh_size : hi;
	c->bytes = (const unsigned char *)g->buf + csh.sh_offset + (lo - csh.sh_addr);
	/* the section's mapping symbols from the last one at or before lo
	 * (the mode in force there) */
	size_t m0 = mark_at(g->marks, g->nmarks, code_idx, 0);
	size_t m1 = mark_at(g->marks, g->nmarks, code_idx + 1, 0);
	/* (no marks: none to search, and no NULL + 0 to compute) */
	size_t at = m1 > m0 ? mark_at(g->marks + m0, m1 - m0, code_idx, lo) : 0;
	/* (the last of the symbols at lo) */
	while (m0 + at < m1 && g->marks[m0 + at].addr == lo)
		at++;
	if (m1 > m0) {
		size_t from = at ? at - 1 : 0;
		c->modes = g->marks + m0 + from;
		c->nmodes = m1 - m0 - from;
		int64_t in = at ? g->marks[m0 + at - 1].mode : -2;
		if (in >= 0)
			c->cs_mode = in;
		if (g->arm)
			c->arch = in >= 0 && (in & CS_MODE_THUMB) ? "ARM Thumb" : "ARM";
	} else if (g->arm) {
		/* the last function symbol at lo in symbol table order */
		size_t f0 = mark_at(g->funcs, g->nfuncs, code_idx, lo), f1 = f0;
		while (f1 < g->nfuncs && g->funcs[f1].shndx == code_idx && g->funcs[f1].addr == lo)
			f1++;
		if (f1 > f0)
			c->cs_mode = g->funcs[f1 - 1].mode | (g->big ? DIS_BE : 0);
		if (c->cs_mode & CS_MODE_THUMB)
			c->arch = "ARM Thumb";
	}
	return PC_OK;
}
#endif

/* c's code: [lo, hi) of the size bytes at img, which start at address
 * base (what: the part of the program they are, for the message); a
 * range that starts before them and reaches into them (a .COM's segment
 * from 0, the PSP included) is the part in them. */
static int code_window(pc_profile *p, dis_code *c, const char *path, const unsigned char *img,
		       uint64_t base, uint64_t size, uint64_t lo, uint64_t hi, const char *what)
{
	if (lo < base && hi > base)
		lo = base;
	if (lo < base || lo - base >= size)
		return pc_profile_fail_at(p, PC_ENOTFOUND, path, -1,
			       "disasm: address 0x%llx is outside the program's %s (0x%llx-0x%llx)",
			       (unsigned long long)lo, what, (unsigned long long)base,
			       (unsigned long long)(base + size));
	c->lo = lo;
	c->hi = hi - base > size ? base + size : hi;
	c->bytes = img + (lo - base);
	return PC_OK;
}

/* A GEMDOS program: TEXT at file offset 0x1c (placed at the "TEXT"
 * region's address). */
static int load_gemdos(pc_profile *p, dis_prog *g, const char *path)
{
	int st = read_file(p, path, &g->buf, &g->len);
	if (st)
		return st;
	const unsigned char *b = g->buf;
	size_t len = g->len;
	if (len < 0x1c || pc_get_u16(b, PC_ENDIAN_BIG) != 0x601a)
		return pc_profile_fail_at(p, PC_EFORMAT, path, 0, "expected a GEMDOS program (magic 0x601a)");
	uint64_t tlen = pc_get_u32(b + 2, PC_ENDIAN_BIG);
	if (tlen > len - 0x1c)
		return pc_profile_fail_at(p, PC_EFORMAT, path, 2,
			       "TEXT length %llu goes past the end of the file (%zu bytes)",
			       (unsigned long long)tlen, len);
	g->img = b + 0x1c, g->size = tlen, g->what = "TEXT";
	g->cs_arch = CS_ARCH_M68K;
	g->cs_mode = CS_MODE_M68K_000 | DIS_BE;
	g->unit = 2;
	g->arch = "m68k (68000)";
	return PC_OK;
}

/* An MS-DOS program (loaders/mz.c): its load image, unrelocated, at
 * image address mz.origin (0 for an .EXE, 0x100 for a .COM), 16-bit
 * real mode.  A map of another program or build is refused (fit.c
 * pc_profile_mz_mismatch). */
static int load_mz(pc_profile *p, dis_prog *g, const char *path)
{
	uint64_t off = 0, isize = 0, org = 0;
	if (!pc_profile_meta_hex(p, "mz.image_offset", &off) || !pc_profile_meta_hex(p, "mz.image_size", &isize) ||
	    !pc_profile_meta_hex(p, "mz.origin", &org))
		return pc_profile_fail_at(p, PC_EUSAGE, path, -1, "disasm: the DOS program's layout is unknown");
	char why[400];
	if (pc_profile_mz_mismatch(p, why, sizeof why))
		return pc_profile_fail_at(p, PC_EFORMAT, path, -1, "%s", why);
	int st = read_file(p, path, &g->buf, &g->len);
	if (st)
		return st;
	size_t len = g->len;
	if (off > len || isize > len - off)
		return pc_profile_fail_at(p, PC_ETRUNC, path, (int64_t)len,
			       "file ends after %zu bytes; the load image needs %llu", len,
			       (unsigned long long)(off + isize));
	g->img = (const unsigned char *)g->buf + off, g->base = org, g->size = isize;
	g->what = "load image";
	g->cs_arch = CS_ARCH_X86;
	g->cs_mode = CS_MODE_16;
	g->unit = 1;
	g->arch = "x86 16-bit real mode";
	g->segoff = 1;
	return PC_OK;
}

/* The code of [lo, hi) from g's image (GEMDOS, DOS) placed at base. */
static int code_image(pc_profile *p, const dis_prog *g, dis_code *c, const char *path,
		      uint64_t base, uint64_t lo, uint64_t hi)
{
	int st = code_window(p, c, path, g->img, base, g->size, lo, hi, g->what);
	if (st)
		return st;
	c->cs_arch = g->cs_arch, c->cs_mode = g->cs_mode, c->unit = g->unit;
	c->arch = g->arch, c->segoff = g->segoff;
	return PC_OK;
}

/* An x86 prefix byte's name (objdump's spelling), or NULL. */
static const char *prefix16(unsigned char b)
{
	switch (b) {
	case 0x26: return "es";
	case 0x2e: return "cs";
	case 0x36: return "ss";
	case 0x3e: return "ds";
	case 0x64: return "fs";
	case 0x65: return "gs";
	case 0x66: return "data32";
	case 0x67: return "addr32";
	case 0xf0: return "lock";
	case 0xf2: return "repnz";
	case 0xf3: return "repz";
	default: return NULL;
	}
}

static int segprefix16(unsigned char b)
{
	return b == 0x26 || b == 0x2e || b == 0x36 || b == 0x3e || b == 0x64 || b == 0x65;
}

/* Capstone's text of the 16-bit instruction b[0..size) as the CPU runs
 * it: Capstone 4 names 98h and 99h by their 32-bit forms (cwde, cdq):
 * they are cbw and cwd, and cwde and cdq only with an operand-size
 * prefix (66h), as objdump -m i8086 and Intel's manual say; and it drops
 * a segment prefix that no operand shows (2Eh D7h is xlat of CS:[BX],
 * not xlatb; 3Eh 55h push bp): such a prefix is named before the
 * instruction, as objdump does, so that the text accounts for every
 * byte (the last segment prefix is the one that applies). */
static void fix16(char *text, size_t n, const unsigned char *b, unsigned size)
{
	int o66 = 0;
	unsigned i = 0, last = size;
	for (; i + 1 < size && prefix16(b[i]); i++) {
		if (b[i] == 0x66)
			o66 = 1;
		if (segprefix16(b[i]))
			last = i;
	}
	if (i == size - 1 && (b[i] == 0x98 || b[i] == 0x99))
		snprintf(text, n, "%s", b[i] == 0x98 ? (o66 ? "cwde" : "cbw") : (o66 ? "cdq" : "cwd"));
	char pre[64] = "";
	size_t pl = 0;
	for (unsigned j = 0; j < i; j++) {
		if (!segprefix16(b[j]))
			continue;
		const char *nm = prefix16(b[j]);
		char use[4] = {nm[0], nm[1], ':', 0};
		if (j == last && strstr(text, use))
			continue;
		if (pl + 4 < sizeof pre)
			pl += (size_t)snprintf(pre + pl, sizeof pre - pl, "%s ", nm);
	}
	if (pl) {
		char t[sizeof ((dis_ins *)0)->text];
		snprintf(t, sizeof t, "%s%s", pre, text);
		snprintf(text, n, "%s", t);
	}
}

/* Bytes of the ModR/M operand of a 16-bit instruction whose ModR/M byte
 * is m: the byte and its displacement. */
static unsigned modrm16_len(unsigned char m)
{
	unsigned mod = m >> 6, rm = m & 7;
	return 1 + (mod == 1 ? 1 : mod == 2 || (mod == 0 && rm == 6) ? 2 : 0);
}

/* The bytes at win[0..wn) (at address a; up to 31: 15 of prefixes and
 * the instruction after them) that Capstone does not decode in 16-bit
 * mode, read as the 8086 reads them into d: prefixes before an instruction that Capstone refuses with
 * them (F0h 5Eh: lock pop si, which the 8086 runs) are part of it; an
 * escape to the 8087 (D8h-DFh) that names no 8087 instruction, and MOV
 * to or from segment register 4-7 (8Ch/8Eh), are one (bad) instruction
 * of their ModR/M length (the 8086 decodes the ModR/M of every escape),
 * with the prefixes before them, as any other byte that decodes to
 * nothing with them.  objdump -m i8086 reads them so (ndisasm the
 * 8Ch/8Eh ones); other bytes stay one each, as ndisasm has them
 * (objdump's VEX and XOP readings of C4h, C5h and 8Fh do not exist in
 * real mode: docs/dos.md).  0 when that is one byte (the caller's), and
 * for prefixes whose instruction the function's bytes cut short. */
static int bad16(const cs_table *csf, csh h, cs_insn *insn, const unsigned char *win, size_t wn,
		 uint64_t a, dis_ins *d)
{
	(void)csf;
	size_t k = 0, len;
	char t[sizeof d->text];
	while (k + 1 < wn && k < 14 && prefix16(win[k])) {
		k++;
		unsigned char w2[24] = {0};
		memcpy(w2, win + k, wn - k < 16 ? wn - k : 16);
		const uint8_t *wp = w2;
		size_t ws = 16;
		uint64_t addr = a + k;
		if (!cs_disasm_iter(h, &wp, &ws, &addr, insn) || !insn->size)
			continue;
		if (insn->size > wn - k || k + insn->size > 15)
			return 0; /* cut short by the function's end, or too long */
		snprintf(t, sizeof t, "%s%s%s", insn->mnemonic, insn->op_str[0] ? " " : "",
			 insn->op_str);
		fix16(t, sizeof t, win + k, insn->size);
		int l = 0;
		for (size_t i = 0; i < k && l >= 0 && (size_t)l < sizeof d->text; i++)
			l += snprintf(d->text + l, sizeof d->text - (size_t)l, "%s ", prefix16(win[i]));
		if (l >= 0 && (size_t)l < sizeof d->text)
			snprintf(d->text + l, sizeof d->text - (size_t)l, "%s", t);
		d->size = (unsigned)(k + insn->size);
		return 1;
	}
	unsigned char o = win[k];
	if (prefix16(o))
		return 0; /* prefixes only, as far as the bytes go */
	len = k + 1;
	if (((o >= 0xd8 && o <= 0xdf) || o == 0x8c || o == 0x8e) && k + 1 < wn)
		len += modrm16_len(win[k + 1]);
	if (len > wn || len > 15)
		return 0;
	if (len == 1)
		return 0;
	d->size = (unsigned)len;
	int l = snprintf(d->text, sizeof d->text, "(bad) .byte");
	for (size_t i = 0; i < len && l > 0 && (size_t)l < sizeof d->text; i++)
		l += snprintf(d->text + l, sizeof d->text - (size_t)l, "%s0x%02x", i ? ", " : " ",
			      win[i]);
	return 1;
}

/* Decodes c into *out. */
static int decode(pc_profile *p, const cs_table *csf, dis_code *c, dis_ins **out, size_t *nout)
{
	(void)csf;
	csh h[2] = {0, 0};
	int64_t hmode[2] = {-1, -1};
	dis_ins *v = NULL;
	size_t n = 0, cap = 0;
	cs_insn *insn = NULL;
	uint64_t a = c->lo;
	size_t mi = 0;
	int64_t mode = c->cs_mode;
	int st = PC_OK;
	while (a < c->hi) {
		/* the mode and where it changes next */
		uint64_t next = c->hi;
		if (c->nmodes) {
			while (mi < c->nmodes && c->modes[mi].addr <= a)
				mode = c->modes[mi++].mode;
			if (mi < c->nmodes && c->modes[mi].addr < next)
				next = c->modes[mi].addr;
		}
		if (pc_grow((void **)&v, &cap, n + 1, sizeof *v)) {
			st = PC_ENOMEM;
			break;
		}
		dis_ins *d = &v[n];
		memset(d, 0, sizeof *d);
		d->addr = a;
		const uint8_t *code = c->bytes + (a - c->lo);
		size_t size = (size_t)(next - a);
		int ok = 0;
		if (mode >= 0) {
			int slot = hmode[0] == mode ? 0 : hmode[1] == mode ? 1 : -1;
			if (slot < 0) {
				slot = hmode[0] < 0 ? 0 : 1;
				if (hmode[slot] >= 0) {
					cs_free(insn, 1);
					insn = NULL;
					cs_close(&h[slot]);
					hmode[slot] = -1;
				}
				if (cs_open((cs_arch)c->cs_arch, (cs_mode)(uint32_t)mode, &h[slot]) != CS_ERR_OK) {
					st = pc_profile_fail_at(p, PC_EUNSUPPORTED, c->file, -1,
						     "disasm: this Capstone cannot decode %s", c->arch);
					break;
				}
				hmode[slot] = mode;
			}
			if (insn)
				cs_free(insn, 1);
			insn = cs_malloc(h[slot]);
			if (!insn) {
				st = PC_ENOMEM;
				break;
			}
			/* a zero-padded window: Capstone 4's m68k decodes past
			 * the bytes it is given (as 0xaaaa); an instruction
			 * longer than the bytes left in the function is
			 * shown as bytes */
			unsigned char win[24] = {0};
			size_t wn = size < 16 ? size : 16;
			memcpy(win, code, wn);
			const uint8_t *wp = win;
			size_t ws = 16;
			uint64_t addr = a;
			if (cs_disasm_iter(h[slot], &wp, &ws, &addr, insn) &&
			    insn->size && insn->size <= wn) {
				ok = 1;
				d->size = insn->size;
				snprintf(d->text, sizeof d->text, "%s%s%s", insn->mnemonic,
					 insn->op_str[0] ? " " : "", insn->op_str);
				if (c->cs_arch == CS_ARCH_X86 && mode == CS_MODE_16)
					fix16(d->text, sizeof d->text, win, insn->size);
			} else if (c->cs_arch == CS_ARCH_X86 && mode == CS_MODE_16) {
				/* (15 bytes of prefixes and the instruction after them) */
				ok = bad16(csf, h[slot], insn, code, size < 31 ? size : 31, a, d);
			}
			code = c->bytes + (a - c->lo);
		}
		if (!ok) {
			/* data, or bytes Capstone does not decode: one unit */
			unsigned u = mode >= 0 ? (unsigned)c->unit
				     : (c->cs_arch == CS_ARCH_ARM && next - a >= 4 ? 4 : 1);
			if (mode >= 0 && c->cs_arch == CS_ARCH_ARM && (mode & CS_MODE_THUMB))
				u = 2;
			if (u > next - a)
				u = (unsigned)(next - a);
			d->size = u;
			int l = snprintf(d->text, sizeof d->text, mode < 0 ? ".byte" : "(bad) .byte");
			for (unsigned i = 0; i < u && l > 0 && (size_t)l < sizeof d->text; i++)
				l += snprintf(d->text + l, sizeof d->text - (size_t)l, "%s0x%02x",
					      i ? ", " : " ", code[i]);
		}
		memcpy(d->bytes, code, d->size < sizeof d->bytes ? d->size : sizeof d->bytes);
		a += d->size;
		n++;
	}
	if (insn)
		cs_free(insn, 1);
	for (int i = 0; i < 2; i++)
		if (hmode[i] >= 0)
			cs_close(&h[i]);
	if (st == PC_ENOMEM)
		st = pc_profile_fail(p, PC_ENOMEM, "out of memory");
	if (st) {
		free(v);
		return st;
	}
	*out = v;
	*nout = n;
	return PC_OK;
}

/* The instruction holding address a (v sorted, non-overlapping). */
static size_t find_ins(const dis_ins *v, size_t n, uint64_t a)
{
	size_t l = 0, r = n;
	while (l < r) {
		size_t m = l + (r - l) / 2;
		if (v[m].addr + v[m].size <= a)
			l = m + 1;
		else
			r = m;
	}
	return l;
}

/* The function selected: by its shown or its raw name (*more: how many
 * others have that name), or by an address (0xHEX) inside it. */
static const pc_target *find_function(pc_profile *p, const char *sel, size_t *more)
{
	const pc_target *found = NULL;
	*more = 0;
	for (size_t i = 0; i < p->ntargets; i++) {
		const pc_target *t = &p->targets[i];
		if (!strcmp(p->syms[t->symbol].name, sel) ||
		    !strcmp(pc_symbol_display(p, t->symbol), sel)) {
			if (found)
				++*more;
			else
				found = t;
		}
	}
	if (found || sel[0] != '0' || (sel[1] != 'x' && sel[1] != 'X') || !sel[2])
		return found;
	char *e = NULL;
	unsigned long long a = strtoull(sel + 2, &e, 16);
	if (*e)
		return NULL;
	for (size_t i = 0; i < p->ntargets; i++)
		if (p->targets[i].address <= a && a < p->targets[i].end)
			return &p->targets[i];
	return NULL;
}

static void put_bytes(pc_sink *k, const dis_ins *d, unsigned width)
{
	char buf[40];
	size_t l = 0;
	unsigned shown = d->size < 8 ? d->size : 8;
	for (unsigned i = 0; i < shown; i++)
		l += (size_t)snprintf(buf + l, sizeof buf - l, "%s%02x", i ? " " : "",
				      d->bytes[i]);
	if (d->size > shown)
		l += (size_t)snprintf(buf + l, sizeof buf - l, " ..");
	pc_sink_printf(k, "%-*s", (int)width, buf);
}

/* The report of the function disasm-select names (none: the hottest),
 * or (pre not NULL) of that one. */
static int render(pc_profile *p, const pc_options *o, pc_sink *k, pc_outfmt fmt,
		  const cs_table *csf, dis_prog *g, const pc_target *pre)
{
	int st;
	const char *sel = pc_options_get(o, "disasm-select");
	if ((st = pc_profile_attribute(p, pc_options_attrib(o))))
		return st;
	pc_itotals t;
	if ((st = pc_profile_itotals(p, &t)))
		return st;
	/* --focus/--ignore/--hide: the function's samples are kept when it
	 * passes (filter.c); the hottest function is one that passes */
	pc_rowfilter rf;
	if ((st = pc_rowfilter_init(p, o, &rf))) {
		pc_rowfilter_dispose(&rf);
		return st;
	}
	size_t more = 0;
	const pc_target *fn = NULL;
	int hottest = !pre && (!sel || !*sel);
	if (hottest) {
		/* no function named: the one with the most samples */
		for (size_t i = 0; i < p->ntargets; i++) {
			if (p->targets[i].excluded || !(p->targets[i].count > 0) ||
			    (fn && !(p->targets[i].count > fn->count)))
				continue;
			int keep = pc_rowfilter_keep_row(&rf, (int64_t)i);
			if (keep < 0) {
				pc_rowfilter_dispose(&rf);
				return keep;
			}
			if (keep)
				fn = &p->targets[i];
		}
		if (!fn) {
			pc_rowfilter_dispose(&rf);
			return pc_profile_fail(p, PC_ENOTFOUND,
					       "disasm: no function has samples%s; name one with the option disasm-select=FUNCTION",
					       rf.any ? " that the filters keep" : "");
		}
	} else {
		fn = pre ? pre : find_function(p, sel, &more);
	}
	int fn_kept = fn ? pc_rowfilter_keep_row(&rf, fn - p->targets) : 1;
	int filtered = rf.any;
	pc_rowfilter_dispose(&rf);
	if (fn_kept < 0)
		return fn_kept;
	if (!fn)
		return pc_profile_fail(p, PC_ENOTFOUND,
				       "disasm: no function '%s' among the profile's symbols (give its name or an address in it, 0xHEX)",
				       sel);
	if (fn->end <= fn->address)
		return pc_profile_fail(p, PC_EUNSUPPORTED,
				       "disasm: function '%s' has no extent (no size and no next symbol)",
				       sel);
	/* the program's code */
	dis_code c;
	memset(&c, 0, sizeof c);
	const char *elf = NULL, *prg = NULL, *dos = NULL;
	for (size_t i = 0; i < p->nsrc; i++) {
		if (!elf && !strcmp(p->src_format[i], "elf"))
			elf = p->src_file[i];
		if (!prg && !strcmp(p->src_format[i], "gemdos"))
			prg = p->src_file[i];
		if (!dos && !strcmp(p->src_format[i], "mz"))
			dos = p->src_file[i];
	}
	c.file = elf ? elf : prg ? prg : dos;
#if !PC_HAVE_ELF
	if (elf)
		return pc_profile_fail(p, PC_EUNSUPPORTED,
				       "disasm: this libprofcore was built without libelf and cannot read ELF code");
#endif
	if (!c.file)
		return pc_profile_fail(p, PC_EUSAGE,
				       "disasm needs the program's code: give the ELF executable, GEMDOS program or DOS .EXE/.COM among the files");
	/* the program, read at the first function */
	if (!g->loaded) {
#if PC_HAVE_ELF
		st = elf ? load_elf(p, g, elf) : prg ? load_gemdos(p, g, prg) : load_mz(p, g, dos);
#else
		st = prg ? load_gemdos(p, g, prg) : load_mz(p, g, dos);
#endif
		if (st == PC_ENOMEM)
			st = pc_profile_fail(p, PC_ENOMEM, "out of memory");
		if (st) {
			prog_dispose(g);
			return st;
		}
		g->loaded = 1;
	}
	if (elf) {
#if PC_HAVE_ELF
		st = code_elf(p, g, &c, elf, fn->address, fn->end);
#endif
	} else if (prg) {
		uint64_t base = 0;
		for (size_t i = 0; i < p->nregions; i++)
			if (p->regions[i].label && !strcmp(p->regions[i].label, "TEXT") &&
			    p->regions[i].cls == PC_REGION_APPLICATION) {
				base = p->regions[i].low;
				break;
			}
		st = code_image(p, g, &c, prg, base, fn->address, fn->end);
	} else {
		st = code_image(p, g, &c, dos, g->base, fn->address, fn->end);
		/* SSSS:OOOO in the segment (map region) holding the function */
		for (size_t i = 0; !st && i < p->nregions; i++)
			if (p->regions[i].cls == PC_REGION_APPLICATION && p->regions[i].label &&
			    p->regions[i].segment == PC_NOSEG && p->regions[i].low <= fn->address &&
			    fn->address < p->regions[i].high && p->syms[fn->symbol].section &&
			    !strcmp(p->regions[i].label, p->syms[fn->symbol].section)) {
				c.frame = p->regions[i].low & ~(uint64_t)15;
				break;
			}
	}
	dis_ins *v = NULL;
	size_t n = 0;
	if (st || (st = decode(p, csf, &c, &v, &n)))
		goto out;
	/* counts: raw samples exactly, histogram buckets as groups */
	double inside = 0, sum = 0;
	size_t ns = pc_samples_distinct(p->samples);
	const pc_sample *s = ns ? pc_samples_sorted(p->samples) : NULL;
	if (ns && !s) {
		st = pc_profile_fail(p, PC_ENOMEM, "out of memory");
		goto out;
	}
	if (ns && pc_samples_binned(p->samples)) {
		st = pc_profile_fail(p, PC_EUNSUPPORTED,
				     "disasm: the raw samples were counted per symbol, not per address (more than %zu distinct addresses)",
				     (size_t)1 << 17);
		goto out;
	}
	/* (s is sorted by segment and address: the function's are one run) */
	size_t s0 = 0, s1 = ns;
	while (s0 < s1) {
		size_t m = s0 + (s1 - s0) / 2;
		if (s[m].segment < fn->segment || (s[m].segment == fn->segment && s[m].address < c.lo))
			s0 = m + 1;
		else
			s1 = m;
	}
	for (size_t i = s0; i < ns && s[i].segment == fn->segment && s[i].address < c.hi; i++) {
		size_t j = find_ins(v, n, s[i].address);
		if (j >= n)
			continue;
		v[j].count += (double)s[i].count;
		if (s[i].address != v[j].addr)
			inside += (double)s[i].count;
	}
	int hist = 0;
	for (size_t h = 0; h < p->nhists; h++) {
		const pc_histogram *H = &p->hists[h].h;
		if (H->segment != fn->segment || H->high <= c.lo || H->low >= c.hi || !H->nbins)
			continue;
		long double w = (long double)(H->high - H->low) / (long double)H->nbins;
		size_t b0 = c.lo > H->low ? (size_t)((long double)(c.lo - H->low) / w) : 0;
		if (b0)
			b0--;
		for (size_t b = b0; b < H->nbins; b++) {
			uint64_t bl = H->low + (uint64_t)(w * (long double)b);
			uint64_t bh = b + 1 == H->nbins ? H->high
							 : H->low + (uint64_t)(w * (long double)(b + 1));
			if (bl >= c.hi)
				break;
			if (bh <= c.lo || !H->counts[b] || bh <= bl)
				continue;
			hist = 1;
			uint64_t cl = bl < c.lo ? c.lo : bl, ch = bh > c.hi ? c.hi : bh;
			size_t i = find_ins(v, n, cl), j = find_ins(v, n, ch - 1);
			if (i >= n)
				continue;
			v[i].count += (double)H->counts[b] * (double)(ch - cl) / (double)(bh - bl);
			for (size_t x = i + 1; x <= j && x < n; x++)
				v[x].joined = 1;
		}
	}
	for (size_t i = 0; i < n && !fn_kept; i++)
		v[i].count = 0; /* the filters drop the function's samples */
	for (size_t i = 0; i < n; i++)
		sum += v[i].count;
	pc_dwarf *d = NULL;
	if (dos && p->nlines) {
		/* the map's line numbers (LINK /LINENUMBERS) */
		st = pc_profile_dwarf(p, o, &d);
		if (st)
			goto out;
	}
#if PC_HAVE_DWARF
	if (elf) {
		/* no DWARF: no source lines; damaged DWARF: its error */
		st = pc_profile_dwarf(p, o, &d);
		if (st == PC_EUNSUPPORTED)
			d = NULL, st = PC_OK;
		if (st)
			goto out;
	}
#endif
	const char *fname = p->demangle ? pc_symbol_display(p, fn->symbol)
					: p->syms[fn->symbol].name;
	unsigned bw = 0;
	for (size_t i = 0; i < n; i++) {
		unsigned sh = v[i].size < 8 ? v[i].size : 8;
		unsigned w = sh ? sh * 3 - 1 + (v[i].size > 8 ? 3 : 0) : 0;
		if (w > bw)
			bw = w;
	}
	if (fmt == PC_OUT_CSV) {
		pc_sink_puts(k, "address,size,bytes,group,count,percent,instruction,file,line\n");
	} else if (fmt == PC_OUT_JSON) {
		pc_sink_puts(k, "{\"report\": \"disasm\", \"function\": ");
		pc_sink_json_string(k, fname);
		pc_sink_printf(k, ", \"arch\": \"%s\", \"low\": %llu, \"high\": %llu, \"total\": ",
			       c.arch, (unsigned long long)c.lo, (unsigned long long)c.hi);
		pc_sink_count(k, t.total);
		pc_sink_puts(k, ", \"count\": ");
		pc_sink_count(k, sum);
		if (filtered) {
			pc_sink_puts(k, ", \"filters\": ");
			pc_filter_json(o, k);
			pc_sink_printf(k, ", \"filtered_out\": %s", fn_kept ? "false" : "true");
		}
		pc_sink_puts(k, ", \"instructions\": [");
	} else {
		pc_sink_puts(k, "Disassembly of ");
		pc_sink_name(k, fname);
		pc_sink_printf(k, " (0x%llx-0x%llx, %llu bytes, %s) from ",
			       (unsigned long long)c.lo, (unsigned long long)c.hi,
			       (unsigned long long)(c.hi - c.lo), c.arch);
		pc_sink_name(k, c.file);
		pc_sink_puts(k, "\nSamples: ");
		pc_sink_count(k, sum);
		pc_sink_printf(k, " in the function, %.2f%% of ", t.total > 0 ? sum * 100.0 / t.total : 0);
		pc_sink_count(k, t.total);
		pc_sink_puts(k, " total");
		if (hottest)
			pc_sink_puts(k, "; the function with the most samples (name another: -r disasm FUNCTION)");
		if (more)
			pc_sink_printf(k, "; %zu more function%s of this name (select one by an address in it: -r disasm 0xADDR)",
				       more, more > 1 ? "s" : "");
		if (hist)
			pc_sink_puts(k, "; instructions sharing a histogram bucket are one range with one count");
		if (filtered) {
			pc_sink_puts(k, "\nFilters: ");
			pc_filter_describe(o, k);
			pc_sink_puts(k, fn_kept ? "; they keep the function's samples"
						: "; they drop the function's samples (counts 0)");
		}
		pc_sink_printf(k, "\n%10s %7s  %-10s  %-*s  %s\n", "count", "percent",
			       "address", (int)bw, "bytes", "instruction");
	}
	int fractional = 0;
	for (size_t i = 0; i < n; i++)
		if (v[i].count != (double)(long long)v[i].count)
			fractional = 1;
	const char *lfile = NULL, *lfunc = NULL;
	unsigned lline = 0;
	size_t group = 0;
	for (size_t i = 0; i < n; i++) {
		const dis_ins *x = &v[i];
		/* group i..j-1 */
		size_t j = i + 1;
		while (j < n && v[j].joined)
			j++;
		double gc = 0;
		if (!x->joined) {
			group++;
			for (size_t y = i; y < j; y++)
				gc += v[y].count;
		}
		const pc_srcframe *f = NULL;
		size_t nf = 0;
		if (d && (st = pc_dwarf_lookup_frames(d, x->addr, &f, &nf))) {
			const pc_error *e = pc_dwarf_error(d);
			st = pc_profile_fail(p, st, "%s", e ? e->message : "DWARF");
			goto out;
		}
		const char *sf = nf && f[0].file && f[0].line ? f[0].file : NULL;
		unsigned sl = sf ? f[0].line : 0;
		if (fmt == PC_OUT_CSV) {
			pc_sink_printf(k, "0x%llx,%u,", (unsigned long long)x->addr, x->size);
			for (unsigned b = 0; b < x->size && b < sizeof x->bytes; b++)
				pc_sink_printf(k, "%02x", x->bytes[b]);
			pc_sink_printf(k, ",%zu,", group);
			if (!x->joined) {
				pc_sink_count(k, gc);
				pc_sink_printf(k, ",%.4f", t.total > 0 ? gc * 100.0 / t.total : 0);
			} else {
				pc_sink_putc(k, ',');
			}
			pc_sink_putc(k, ',');
			pc_sink_csv_field(k, x->text);
			pc_sink_putc(k, ',');
			if (sf) {
				pc_sink_csv_field(k, sf);
				pc_sink_printf(k, ",%u\n", sl);
			} else {
				pc_sink_puts(k, ",\n");
			}
			continue;
		}
		if (fmt == PC_OUT_JSON) {
			pc_sink_printf(k, "%s\n  {\"address\": %llu, \"size\": %u, \"group\": %zu, \"count\": ",
				       i ? "," : "", (unsigned long long)x->addr, x->size, group);
			if (x->joined)
				pc_sink_puts(k, "null");
			else
				pc_sink_count(k, gc);
			pc_sink_puts(k, ", \"instruction\": ");
			pc_sink_json_string(k, x->text);
			pc_sink_puts(k, ", \"file\": ");
			if (sf)
				pc_sink_json_string(k, sf);
			else
				pc_sink_puts(k, "null");
			pc_sink_printf(k, ", \"line\": %u}", sl);
			continue;
		}
		/* text: the source line above each run of instructions */
		const char *sfn = nf ? f[0].function : NULL;
		if (sf && (!lfile || strcmp(sf, lfile) || sl != lline ||
			   (sfn && lfunc && strcmp(sfn, lfunc)))) {
			pc_sink_printf(k, "%10s %7s  ", "", "");
			pc_sink_name(k, pc_basename(sf));
			pc_sink_printf(k, ":%u", sl);
			if (sfn && strcmp(sfn, p->syms[fn->symbol].name) && strcmp(sfn, fname)) {
				pc_sink_puts(k, " (inlined ");
				pc_sink_name(k, pc_name_display(p, sfn));
				pc_sink_putc(k, ')');
			}
			pc_sink_putc(k, '\n');
		}
		lfile = sf, lline = sl, lfunc = sfn;
		if (!x->joined && j > i + 1) {
			/* a histogram group: its range and count first */
			char buf[48];
			pc_fmt_count(gc, buf, sizeof buf);
			if (fractional)
				snprintf(buf, sizeof buf, "%.2f", gc);
			pc_sink_printf(k, "%10s %7.2f  0x%llx-0x%llx: %zu instructions\n", gc > 0 ? buf : ".",
				       t.total > 0 ? gc * 100.0 / t.total : 0,
				       (unsigned long long)x->addr,
				       (unsigned long long)(v[j - 1].addr + v[j - 1].size), j - i);
		}
		if (!x->joined && j == i + 1 && gc > 0) {
			char buf[48];
			pc_fmt_count(gc, buf, sizeof buf);
			if (fractional)
				snprintf(buf, sizeof buf, "%.2f", gc);
			pc_sink_printf(k, "%10s %7.2f  ", buf, t.total > 0 ? gc * 100.0 / t.total : 0);
		} else {
			pc_sink_printf(k, "%10s %7s  ", j > i + 1 || x->joined ? "|" : ".",
				       j > i + 1 || x->joined ? "" : ".");
		}
		char ab[32];
		if (c.segoff && x->addr - c.frame <= 0xffff)
			snprintf(ab, sizeof ab, "%04llX:%04llX", (unsigned long long)(c.frame >> 4),
				 (unsigned long long)(x->addr - c.frame));
		else
			snprintf(ab, sizeof ab, "0x%llx", (unsigned long long)x->addr);
		pc_sink_printf(k, "%-10s  ", ab);
		put_bytes(k, x, bw);
		pc_sink_puts(k, "  ");
		pc_sink_name(k, x->text);
		while (k->len && k->buf[k->len - 1] == ' ')
			k->len--;
		pc_sink_putc(k, '\n');
	}
	if (fmt == PC_OUT_JSON) {
		pc_sink_puts(k, "\n], \"inside_instructions\": ");
		pc_sink_count(k, inside);
		pc_sink_puts(k, "}\n");
	} else if (fmt == PC_OUT_TEXT && inside > 0) {
		pc_sink_puts(k, "Note: ");
		pc_sink_count(k, inside);
		pc_sink_puts(k, " of the samples are at addresses inside an instruction, not at its first byte (counted for that instruction): the samples may not be of this program\n");
	}
	st = k->failed;
out:
	free(v);
	return st;
}

static int disasm_render(pc_profile *p, const pc_options *o, pc_sink *k)
{
	pc_outfmt fmt;
	cs_table csf;
	int st;
	if ((st = pc_rs_outfmt(p, o, &fmt)) || (st = cs_ready(p, &csf)))
		return st;
	dis_prog g;
	memset(&g, 0, sizeof g);
	st = render(p, o, k, fmt, &csf, &g, NULL);
	prog_dispose(&g);
	cs_done(&csf);
	return st;
}

int pc_disasm_json_each(pc_profile *p, const pc_options *o, const size_t *targets, size_t n,
			pc_sink *k)
{
	cs_table csf;
	int st;
	if ((st = pc_profile_attribute(p, pc_options_attrib(o))) || (st = cs_ready(p, &csf)))
		return st;
	dis_prog g; /* the program, read once for all */
	memset(&g, 0, sizeof g);
	size_t done = 0;
	for (size_t i = 0; i < n && !st; i++) {
		pc_sink one;
		pc_sink_init(&one);
		if (targets[i] >= p->ntargets)
			st = pc_profile_fail(p, PC_ENOTFOUND, "disasm: no function %zu", targets[i]);
		else
			st = render(p, o, &one, PC_OUT_JSON, &csf, &g, &p->targets[targets[i]]);
		if (!st && one.failed)
			st = PC_ENOMEM;
		if (!st) {
			while (one.len && (one.buf[one.len - 1] == '\n' || one.buf[one.len - 1] == ' '))
				one.len--;
			if (done++)
				pc_sink_putc(k, ',');
			pc_sink_putc(k, '\n');
			pc_sink_write(k, one.buf, one.len);
		} else if (i && st != PC_ENOMEM) {
			st = PC_OK; /* this one only (the first one's error is every one's) */
		}
		pc_sink_dispose(&one);
	}
	prog_dispose(&g);
	cs_done(&csf);
	return st ? st : k->failed ? PC_ENOMEM : PC_OK;
}

#else /* !PC_HAVE_CAPSTONE */

static int disasm_render(pc_profile *p, const pc_options *o, pc_sink *k)
{
	(void)o;
	(void)k;
	return pc_profile_fail(p, PC_EUNSUPPORTED,
			       "disasm: this libprofcore was built without Capstone; install libcapstone-dev and rebuild (meson -Dcapstone=enabled)");
}

int pc_disasm_json_each(pc_profile *p, const pc_options *o, const size_t *targets, size_t n,
			pc_sink *k)
{
	(void)n;
	(void)targets;
	return disasm_render(p, o, k);
}

#endif

#if !PC_CAPSTONE_DLOPEN
int pc_disasm_load_capstone(const char *soname, char *msg, size_t msglen)
{
	(void)soname;
	if (msglen)
		msg[0] = 0;
	return PC_EUNSUPPORTED;
}
#endif

static const pc_option_decl disasm_keys[] = {
	PC_REPORT_OPTION_DECLS,
	{"disasm-select", PC_OPTION_STRING, NULL, NULL, "the function to disassemble"},
	PC_FILTER_OPTION_DECLS,
	PC_DWARF_OPTION_DECLS,
	PC_OPTION_DECLS_END,
};

const pc_report pc_report_disasm = {
	.name = "disasm",
	.description = "annotated disassembly of one function: count of each instruction "
		       "(Capstone; option disasm-select=FUNCTION)",
	.options = disasm_keys,
	.render = disasm_render,
};
