/* elf.c - symbols from ELF executables and objects (libelf).
 *
 * Symbol selection follows GNU gprof 2.40 (corefile.c core_sym_class and
 * symtab.c) so that histograms attribute exactly as gprof does:
 *  - global symbols in code sections ('T') and defined weak non-object
 *    symbols in any section ('W') are attribution targets;
 *  - local code symbols ('t') are targets unless their name is empty,
 *    contains '$', starts with __gnu_compiled, or has a '.' suffix other
 *    than .<digits>, .clone.<digits>, .constprop.<digits> (so foo.cold and
 *    foo.part.0 are listed but charged to the preceding symbol), checked
 *    within the name itself: gprof 2.40 reads on past the name's end and
 *    so sometimes drops foo.constprop.N (docs/attribution.md ("Attribution rules"); a -v
 *    note names each symbol where profcat and gprof part);
 *  - st_size is ignored for attribution (extents run to the next symbol);
 *  - mcount & co. are EXCLUDED: their credit leaves the totals.
 * Address width and byte order of the target come from the ELF class and
 * data encoding; sample loaders (gmon.out) read them from the profile.
 */
#include "internal.h"
#include "whole.h"
#include "dwarf_internal.h"

#include <ctype.h>
#include <gelf.h>
#include <libelf.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#define ELF_MAX_SIZE ((uint64_t)1 << 32)

static int elf_probe(const unsigned char *h, size_t n, const char *name)
{
	if (n < 16 || memcmp(h, "\177ELF", 4) != 0)
		return 0;
	int c = 32;
	if (h[4] == 1 || h[4] == 2)
		c += 8;
	if (h[5] == 1 || h[5] == 2)
		c += 8;
	return c;
}

/* gprof's filter on local text symbol names (corefile.c core_sym_class).
 * With end = the name's own end it is the filter gprof means; with end =
 * the end of the string table it is gprof 2.40's, bug for bug: when a name
 * ends in a '.'-and-digits part (foo.constprop.0, foo.1) gprof's loop
 * steps over the terminating NUL and goes on checking the next string of
 * the string table, so such a symbol is dropped when that next string has
 * a '$' or a '.' followed by other than digits ("words.c").  profcat uses
 * the first and notes where the second would differ. */
static int gprof_static_name_ok(const char *name, const char *end, int *overran)
{
	*overran = 0;
	if (!name || !*name)
		return 0;
	if (strncmp(name, "__gnu_compiled", 14) == 0 ||
	    strncmp(name, "___gnu_compiled", 15) == 0)
		return 0;
	const char *own_end = name + strlen(name);
	for (; name < end && *name; ++name) {
		if (name > own_end)
			*overran = 1;
		if (*name == '$')
			return 0;
		while (*name == '.') {
			int digit_seen = 0;
			size_t left = strnlen(name, (size_t)(end - name));
			if (left > 7 && strncmp(name, ".clone.", 7) == 0)
				name += 6;
			else if (left > 11 && strncmp(name, ".constprop.", 11) == 0)
				name += 10;
			for (name++; name < end && *name; name++) {
				if (digit_seen && *name == '.')
					break;
				else if (isdigit((unsigned char)*name))
					digit_seen = 1;
				else
					return 0;
			}
			if (name >= end)
				return 1;
		}
	}
	return 1;
}

static int is_mcount(const char *n)
{
	static const char *const names[] = {"_gprof_mcount", "mcount", "_mcount",
					    "__mcount", "__mcount_internal",
					    "__mcleanup", NULL};
	if (n[0] != '_' && n[0] != 'm')
		return 0; /* (every name above starts so) */
	for (int i = 0; names[i]; i++)
		if (strcmp(n, names[i]) == 0)
			return 1;
	return 0;
}

/* The address of a symbol's first instruction.  Some ISAs mark code of
 * their compressed instruction set with bit 0 of the symbol value (the
 * instructions themselves are 2-byte aligned); binutils clears it when it
 * reads the symbol (elf32-arm.c elf32_arm_swap_symbol_in, elfxx-mips.c
 * _bfd_mips_elf_symbol_processing), so nm, addr2line and gprof show the
 * even address, and so must we:
 *  - ARM: Thumb functions (STT_FUNC or STT_GNU_IFUNC with an odd value;
 *    old STT_ARM_TFUNC symbols are already even);
 *  - MIPS: MIPS16 and microMIPS functions (an odd STT_FUNC value, or an
 *    odd value with STO_MIPS16 / STO_MICROMIPS in st_other). */
#ifndef STT_ARM_TFUNC
#define STT_ARM_TFUNC 13 /* STT_LOPROC */
#endif
#ifndef EM_MIPS_RS3_LE
#define EM_MIPS_RS3_LE 10
#endif
#define STO_MIPS16_MASK 0xf0u /* binutils include/elf/mips.h STO_MIPS16 */
#define STO_MIPS_ISA_MASK 0xc0u
#define STO_MICROMIPS_BITS 0x80u

static uint64_t code_address(unsigned machine, const GElf_Sym *sym)
{
	uint64_t v = sym->st_value;
	int type = GELF_ST_TYPE(sym->st_info);
	if (!(v & 1) || sym->st_shndx == SHN_ABS)
		return v;
	if (machine == EM_ARM && (type == STT_FUNC || type == STT_GNU_IFUNC))
		return v & ~(uint64_t)1;
	if (machine == EM_MIPS || machine == EM_MIPS_RS3_LE) {
		unsigned o = sym->st_other;
		if (type == STT_FUNC || (o & STO_MIPS16_MASK) == STO_MIPS16_MASK ||
		    (o & STO_MIPS_ISA_MASK) == STO_MICROMIPS_BITS)
			return v & ~(uint64_t)1;
	}
	return v;
}

/* ---- structure check ------------------------------------------------------
 * libelf's errors carry no byte offset and some malformations (a section
 * header table or a section past the end of the file) only show up as a
 * missing symbol table.  So the identification, the header, the section
 * header table and every section's extent are checked here first, each
 * failure naming the offset of the field that is wrong. */

typedef struct elfhdr {
	const unsigned char *b;
	size_t len;
	int is64;
	pc_endian e;
} elfhdr;

/* Field of a header at byte off: 32-bit files use w32, 64-bit w64 bytes. */
static uint64_t field(const elfhdr *h, size_t off, unsigned w32, unsigned w64)
{
	return pc_get_uint(h->b + off, h->is64 ? w64 : w32, h->e);
}

static int check_ident(pc_stream *s, elfhdr *h)
{
	static const unsigned char magic[4] = {0x7f, 'E', 'L', 'F'};
	size_t n = h->len < 4 ? h->len : 4;
	if (memcmp(h->b, magic, n) != 0)
		return pc_stream_fail(s, PC_EFORMAT, 0, "expected the ELF magic 7f 45 4c 46 (\"\\177ELF\")");
	if (h->len < 16)
		return pc_stream_fail(s, PC_ETRUNC, (int64_t)h->len,
				      "ELF identification needs 16 bytes, the file has %zu", h->len);
	if (h->b[EI_CLASS] != ELFCLASS32 && h->b[EI_CLASS] != ELFCLASS64)
		return pc_stream_fail(s, PC_EFORMAT, EI_CLASS,
				      "ELF class %u (expected 1 for 32-bit or 2 for 64-bit)", h->b[EI_CLASS]);
	if (h->b[EI_DATA] != ELFDATA2LSB && h->b[EI_DATA] != ELFDATA2MSB)
		return pc_stream_fail(s, PC_EFORMAT, EI_DATA,
				      "ELF data encoding %u (expected 1 little-endian or 2 big-endian)",
				      h->b[EI_DATA]);
	if (h->b[EI_VERSION] != EV_CURRENT)
		return pc_stream_fail(s, PC_EFORMAT, EI_VERSION,
				      "ELF version %u (expected 1)", h->b[EI_VERSION]);
	h->is64 = h->b[EI_CLASS] == ELFCLASS64;
	h->e = h->b[EI_DATA] == ELFDATA2MSB ? PC_ENDIAN_BIG : PC_ENDIAN_LITTLE;
	size_t ehsize = h->is64 ? 64 : 52;
	if (h->len < ehsize)
		return pc_stream_fail(s, PC_ETRUNC, (int64_t)h->len,
				      "ELF%d header needs %zu bytes, the file has %zu",
				      h->is64 ? 64 : 32, ehsize, h->len);
	return PC_OK;
}

/* Does [off, off + size) lie inside the file? */
static int inside(const elfhdr *h, uint64_t off, uint64_t size)
{
	return off <= h->len && size <= h->len - off;
}

static int check_section(pc_stream *s, const elfhdr *h, uint64_t so, unsigned i,
			 uint64_t nsec, uint64_t shoff, unsigned shentsize)
{
	uint32_t type = (uint32_t)field(h, so + 4, 4, 4);
	size_t f_off = h->is64 ? 24 : 16, f_link = h->is64 ? 40 : 24;
	uint64_t off = field(h, so + f_off, 4, 8);
	uint64_t size = field(h, so + f_off + (h->is64 ? 8 : 4), 4, 8);
	if (type != SHT_NOBITS && type != SHT_NULL && !inside(h, off, size))
		return pc_stream_fail(s, PC_ETRUNC, (int64_t)(so + f_off),
				      "section %u's %llu bytes at 0x%llx run past the end of the %zu-byte file",
				      i, (unsigned long long)size, (unsigned long long)off, h->len);
	if (type != SHT_SYMTAB && type != SHT_DYNSYM)
		return PC_OK;
	size_t f_ent = h->is64 ? 56 : 36;
	uint64_t ent = field(h, so + f_ent, 4, 8), want = h->is64 ? 24 : 16;
	if (ent != want)
		return pc_stream_fail(s, PC_EFORMAT, (int64_t)(so + f_ent),
				      "symbol table section %u has %llu-byte entries (expected %llu)",
				      i, (unsigned long long)ent, (unsigned long long)want);
	uint32_t link = (uint32_t)field(h, so + f_link, 4, 4);
	if (link == 0 || link >= nsec ||
	    field(h, shoff + (uint64_t)link * shentsize + 4, 4, 4) != SHT_STRTAB)
		return pc_stream_fail(s, PC_EFORMAT, (int64_t)(so + f_link),
				      "symbol table section %u links to section %u (expected a string table among the %llu sections)",
				      i, (unsigned)link, (unsigned long long)nsec);
	return PC_OK;
}

static int check_structure(pc_stream *s, const unsigned char *b, size_t len)
{
	elfhdr h = {b, len, 0, PC_ENDIAN_LITTLE};
	int r = check_ident(s, &h);
	if (r)
		return r;
	size_t f_shoff = h.is64 ? 40 : 32, f_shent = h.is64 ? 58 : 46;
	uint64_t shoff = field(&h, f_shoff, 4, 8);
	unsigned shentsize = pc_get_u16(b + f_shent, h.e);
	uint64_t nsec = pc_get_u16(b + f_shent + 2, h.e);
	uint64_t shstrndx = pc_get_u16(b + f_shent + 4, h.e);
	unsigned want = h.is64 ? 64 : 40;
	if (shoff == 0)
		return PC_OK; /* no sections: "no symbol table" below */
	if (shentsize != want)
		return pc_stream_fail(s, PC_EFORMAT, (int64_t)f_shent,
				      "section header size %u (expected %u)", shentsize, want);
	if (!inside(&h, shoff, want))
		return pc_stream_fail(s, PC_ETRUNC, (int64_t)f_shoff,
				      "section header table at 0x%llx lies past the end of the %zu-byte file",
				      (unsigned long long)shoff, len);
	/* extended numbering: the counts are in section header 0 */
	if (nsec == 0)
		nsec = field(&h, shoff + (h.is64 ? 32 : 20), 4, 8);
	if (shstrndx == SHN_XINDEX)
		shstrndx = field(&h, shoff + (h.is64 ? 40 : 24), 4, 4);
	if (nsec > (len - shoff) / want)
		return pc_stream_fail(s, PC_ETRUNC, (int64_t)f_shent + 2,
				      "%llu section headers of %u bytes at 0x%llx run past the end of the %zu-byte file",
				      (unsigned long long)nsec, want, (unsigned long long)shoff, len);
	if (shstrndx >= nsec)
		return pc_stream_fail(s, PC_EFORMAT, (int64_t)f_shent + 4,
				      "section name table index %llu (expected below the %llu sections)",
				      (unsigned long long)shstrndx, (unsigned long long)nsec);
	for (uint64_t i = 1; i < nsec; i++)
		if ((r = check_section(s, &h, shoff + i * want, (unsigned)i, nsec, shoff, want)))
			return r;
	return PC_OK;
}

static int load_symtab(pc_profile *p, pc_stream *s, Elf *e, Elf_Scn *symscn,
		       const GElf_Ehdr *eh, size_t nsec)
{
	GElf_Shdr sh;
	if (!gelf_getshdr(symscn, &sh) || sh.sh_entsize == 0)
		return pc_stream_fail(s, PC_EFORMAT, -1, "unreadable symbol table header");
	Elf_Data *d = elf_getdata(symscn, NULL);
	if (!d)
		return pc_stream_fail(s, PC_EFORMAT, (int64_t)sh.sh_offset,
				      "unreadable symbol table: %s", elf_errmsg(-1));
	size_t n = sh.sh_size / sh.sh_entsize;
	Elf_Scn *strscn = elf_getscn(e, sh.sh_link);
	Elf_Data *strd = strscn ? elf_getdata(strscn, NULL) : NULL;
	/* the section of the last symbol, its header and name: symbols come
	 * in runs of one section (50,000 of .text: one lookup, not 50,000) */
	size_t last_shndx = 0;
	GElf_Shdr last_ssh;
	const char *last_secname = NULL;
	for (size_t i = 1; i < n; i++) {
		GElf_Sym sym;
		if (i > INT_MAX || !gelf_getsym(d, (int)i, &sym))
			return pc_stream_fail(s, PC_EFORMAT,
					      (int64_t)(sh.sh_offset + i * sh.sh_entsize),
					      "unreadable symbol %zu", i);
		int type = GELF_ST_TYPE(sym.st_info);
		int bind = GELF_ST_BIND(sym.st_info);
		if (type == STT_SECTION || type == STT_FILE)
			continue;
		if (sym.st_shndx == SHN_UNDEF)
			continue;
		const char *name = elf_strptr(e, sh.sh_link, sym.st_name);
		const char *strend = name && strd &&
				     name >= (const char *)strd->d_buf &&
				     name < (const char *)strd->d_buf + strd->d_size
				     ? (const char *)strd->d_buf + strd->d_size
				     : name ? name + strlen(name) + 1 : NULL;
		if (!name)
			return pc_stream_fail(s, PC_EFORMAT,
					      (int64_t)(sh.sh_offset + i * sh.sh_entsize),
					      "symbol %zu has a name outside the string table", i);
		if (!*name)
			continue;
		pc_symbol ps = {0};
		ps.name = name;
		ps.segment = PC_NOSEG;
		ps.address = code_address(eh->e_machine, &sym);
		ps.size = sym.st_size;
		ps.binding = bind == STB_LOCAL ? PC_BIND_LOCAL
			     : bind == STB_WEAK ? PC_BIND_WEAK : PC_BIND_GLOBAL;
		if (type == STT_FUNC ||
		    (eh->e_machine == EM_ARM && type == STT_ARM_TFUNC))
			ps.flags |= PC_SYMF_FUNC;
		if (sym.st_shndx >= nsec && sym.st_shndx < SHN_LORESERVE)
			return pc_stream_fail(s, PC_EFORMAT,
					      (int64_t)(sh.sh_offset + i * sh.sh_entsize +
							(eh->e_ident[EI_CLASS] == ELFCLASS64 ? 6 : 14)),
					      "symbol %zu is in section %u (expected below the %zu sections)",
					      i, (unsigned)sym.st_shndx, nsec);
		if (sym.st_shndx == SHN_ABS) {
			ps.kind = PC_SYM_ABS;
		} else if (sym.st_shndx == SHN_COMMON || sym.st_shndx >= nsec) {
			ps.kind = PC_SYM_BSS;
		} else {
			if (sym.st_shndx != last_shndx) {
				Elf_Scn *sec = elf_getscn(e, sym.st_shndx);
				if (!sec || !gelf_getshdr(sec, &last_ssh))
					return pc_stream_fail(s, PC_EFORMAT, -1,
							      "symbol '%s' refers to a missing section", name);
				last_shndx = sym.st_shndx;
				last_secname = elf_strptr(e, eh->e_shstrndx, last_ssh.sh_name);
			}
			const GElf_Shdr ssh = last_ssh;
			if (eh->e_type == ET_REL)
				ps.address += ssh.sh_addr;
			ps.section = last_secname;
			int code = (ssh.sh_flags & SHF_EXECINSTR) != 0;
			if (code)
				ps.kind = PC_SYM_TEXT;
			else if (ssh.sh_type == SHT_NOBITS)
				ps.kind = PC_SYM_BSS;
			else
				ps.kind = PC_SYM_DATA;
			/* gprof's classes */
			int target;
			if (bind == STB_WEAK)
				target = type != STT_OBJECT;
			else if (bind == STB_GLOBAL)
				target = code;
			else if (bind == STB_LOCAL) {
				int overran;
				target = code && gprof_static_name_ok(name, name + strlen(name),
								      &overran);
				if (target && !gprof_static_name_ok(name, strend, &overran) &&
				    overran)
					pc_profile_note(p, "%s is a function of its own here; gprof 2.40 charges it to the symbol before it (its check of local names reads on into the next name of the string table, '%s')",
							name, name + strlen(name) + 1);
			}
			else
				target = 0;
			if (type == STT_GNU_IFUNC || bind == STB_GNU_UNIQUE)
				target = 0;
			if (target && !code)
				ps.flags |= PC_SYMF_TARGET;
			if (!target && code)
				ps.flags |= PC_SYMF_NOATTR;
		}
		if (is_mcount(name))
			ps.flags |= PC_SYMF_EXCLUDED;
		int r = pc_profile_add_symbol(p, &ps);
		if (r)
			return r;
	}
	return PC_OK;
}

/* ---- stripped files -----------------------------------------------------
 * gprof reads only .symtab and says "file `prog' has no symbols" without
 * one.  The dynamic symbols (.dynsym) of a stripped executable name at most
 * the few functions it exports (often none: only undefined imports and
 * __gmon_start__), so charging its samples to them would print wrong
 * numbers: a stripped program is refused unless -O dynamic-symbols=1 says
 * to use them anyway.  A stripped shared library's exported functions are
 * its usual symbols (perf reads them too); they are used with a warning
 * saying how much of the code they cover. */

/* Functions defined in code sections among the symbols of scn, and the
 * bytes their st_size covers. */
static size_t dyn_functions(Elf *e, Elf_Scn *scn, size_t nsec, uint64_t *bytes)
{
	GElf_Shdr sh;
	Elf_Data *d;
	size_t n = 0;
	*bytes = 0;
	if (!gelf_getshdr(scn, &sh) || !sh.sh_entsize || !(d = elf_getdata(scn, NULL)))
		return 0;
	for (size_t i = 1; i < sh.sh_size / sh.sh_entsize; i++) {
		GElf_Sym sym;
		GElf_Shdr ssh;
		if (!gelf_getsym(d, (int)i, &sym))
			break;
		int type = GELF_ST_TYPE(sym.st_info);
		if ((type != STT_FUNC && type != STT_GNU_IFUNC) ||
		    sym.st_shndx == SHN_UNDEF || sym.st_shndx >= nsec)
			continue;
		Elf_Scn *sec = elf_getscn(e, sym.st_shndx);
		if (!sec || !gelf_getshdr(sec, &ssh) || !(ssh.sh_flags & SHF_EXECINSTR))
			continue;
		n++;
		*bytes += sym.st_size;
	}
	return n;
}

/* An executable (not a shared library): ET_EXEC, or ET_DYN with a
 * program interpreter (PIE). */
static int is_program(Elf *e, const GElf_Ehdr *eh)
{
	if (eh->e_type == ET_EXEC)
		return 1;
	size_t n = 0;
	if (eh->e_type != ET_DYN || elf_getphdrnum(e, &n) != 0)
		return 0;
	for (size_t i = 0; i < n; i++) {
		GElf_Phdr ph;
		if (gelf_getphdr(e, (int)i, &ph) && ph.p_type == PT_INTERP)
			return 1;
	}
	return 0;
}

static int stripped(pc_profile *p, pc_stream *s, Elf *e, const GElf_Ehdr *eh,
		    Elf_Scn *dynsym, size_t nsec, uint64_t code,
		    const pc_options *o)
{
	uint64_t bytes = 0;
	size_t nf = dynsym ? dyn_functions(e, dynsym, nsec, &bytes) : 0;
	int program = is_program(e, eh);
	const char *fix = program ? "give the unstripped program or its debug file "
				    "(objcopy --only-keep-debug)"
				  : "give the unstripped file or its debug file "
				    "(objcopy --only-keep-debug)";
	const char *what = program ? "stripped executable" : "stripped ELF file";
	if (nf == 0)
		return pc_stream_fail(s, PC_EFORMAT, -1,
				      "%s: no symbol table (.symtab) and no function among its dynamic symbols; %s",
				      what, fix);
	uint64_t force = 0;
	if (pc_options_get_u64(&force, NULL, o, "dynamic-symbols") < 0)
		return pc_stream_fail(s, PC_EUSAGE, -1, "dynamic-symbols must be 0 or 1");
	if (program && !force)
		return pc_stream_fail(s, PC_EFORMAT, -1,
				      "%s: no symbol table (.symtab); its dynamic symbols name only %zu function%s; %s; the option dynamic-symbols=1 charges all time to those",
				      what, nf, nf == 1 ? "" : "s", fix);
	double pct = code ? 100.0 * (double)(bytes < code ? bytes : code) / (double)code : 0;
	pc_profile_warn(p, "%s has no symbol table (.symtab): its %zu exported function%s %.1f%% of its code, time in the others is charged to the function before them; %s",
			pc_basename(pc_stream_name(s)), nf, nf == 1 ? " covers" : "s cover", pct, fix);
	return PC_OK;
}

static int elf_load(pc_profile *p, pc_stream *s, const pc_options *o)
{
	pc_whole w;
	/* a compressed program: up to PC_PROGRAM_GZ_LIMIT inflated (a bomb
	 * of zeros after an ELF header took 1 GiB) */
	int gz = pc_stream_is_compressed(s);
	int r = pc_whole_get(s, gz ? PC_PROGRAM_GZ_LIMIT : ELF_MAX_SIZE, 0, &w);
	if (r == PC_ELIMIT && gz)
		return pc_stream_fail(s, PC_ELIMIT, (int64_t)PC_PROGRAM_GZ_LIMIT,
				      "compressed program inflates past the limit of %llu bytes: decompress it first (gunzip) if it is genuine",
				      (unsigned long long)PC_PROGRAM_GZ_LIMIT);
	if (r)
		return r;
	/* (libelf reads the image only: elf_memory wants it not const) */
	char *buf = (char *)(uintptr_t)w.b;
	size_t len = w.len;
	if (elf_version(EV_CURRENT) == EV_NONE) {
		pc_whole_done(&w);
		return pc_stream_fail(s, PC_EUNSUPPORTED, -1, "libelf is too old");
	}
	Elf *e = NULL;
	if ((r = check_structure(s, w.b, len)))
		goto out;
	e = elf_memory(buf, len);
	GElf_Ehdr eh;
	size_t nsec = 0;
	if (!e || elf_kind(e) != ELF_K_ELF || !gelf_getehdr(e, &eh)) {
		r = pc_stream_fail(s, PC_EFORMAT, 0, "not a valid ELF file: %s",
				   elf_errmsg(-1));
		goto out;
	}
	if (elf_getshdrnum(e, &nsec) != 0 || elf_getshdrstrndx(e, &(size_t){0}) != 0) {
		r = pc_stream_fail(s, PC_EFORMAT, 0, "unreadable ELF section headers: %s",
				   elf_errmsg(-1));
		goto out;
	}
	unsigned width = eh.e_ident[EI_CLASS] == ELFCLASS64 ? 8 : 4;
	pc_endian en = eh.e_ident[EI_DATA] == ELFDATA2MSB ? PC_ENDIAN_BIG
							  : PC_ENDIAN_LITTLE;
	if (!pc_profile_target_width(p))
		pc_profile_set_target(p, width, en);
	if (!pc_profile_program(p))
		pc_profile_set_program(p, pc_basename(pc_stream_name(s)));

	Elf_Scn *scn = NULL, *symtab = NULL, *dynsym = NULL;
	uint64_t lo = UINT64_MAX, hi = 0;
	while ((scn = elf_nextscn(e, scn))) {
		GElf_Shdr sh;
		if (!gelf_getshdr(scn, &sh))
			continue;
		if (sh.sh_type == SHT_SYMTAB)
			symtab = scn;
		else if (sh.sh_type == SHT_DYNSYM)
			dynsym = scn;
		if ((sh.sh_flags & SHF_EXECINSTR) && (sh.sh_flags & SHF_ALLOC) &&
		    sh.sh_size) {
			if (sh.sh_addr < lo)
				lo = sh.sh_addr;
			if (sh.sh_addr + sh.sh_size > hi)
				hi = sh.sh_addr + sh.sh_size;
		}
	}
	if (!symtab) {
		if ((r = stripped(p, s, e, &eh, dynsym, nsec, lo < hi ? hi - lo : 0, o)))
			goto out;
		symtab = dynsym;
	}
	if (lo < hi && eh.e_type != ET_REL) {
		pc_region reg = {PC_NOSEG, lo, hi, PC_REGION_APPLICATION,
				 pc_basename(pc_stream_name(s))};
		if ((r = pc_profile_add_region(p, &reg)))
			goto out;
	}
	r = load_symtab(p, s, e, symtab, &eh, nsec);
out:
	if (e)
		elf_end(e);
	pc_whole_done(&w);
	return r;
}

static const char *const elf_ext[] = {"", ".elf", ".so", ".o", NULL};

static const pc_option_decl elf_options[] = {
	{"dynamic-symbols", PC_OPTION_ENUM, "0,1", "0",
	 "with only dynamic symbols, use them as the functions (1) rather than refuse the program"},
	{NULL, PC_OPTION_STRING, NULL, NULL, NULL},
};

const pc_loader pc_loader_elf = {
	.abi_version = PC_LOADER_ABI_VERSION,
	.name = "elf",
	.description = "ELF executable or object: symbols (libelf), gprof's selection rules",
	.roles = PC_ROLE_SYMBOLS,
	.extensions = elf_ext,
	.probe = elf_probe,
	.load = elf_load,
	.order = 0,
	.options = elf_options,
};
