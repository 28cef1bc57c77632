/* elf.c - symbols from ELF executables and objects (libelf).
 *
 * Symbol selection follows GNU gprof 2.40 (corefile.c core_sym_class and
 * symtab.c) so that histograms attribute exactly as gprof does:
 *  - global symbols in code sections ('T') and defined weak non-object
 *    symbols in any section ('W') are attribution targets;
 *  - local code symbols ('t') are targets unless their name is empty,
 *    contains '$', starts with __gnu_compiled, or has a '.' suffix other
 *    than .<digits>, .clone.<digits>, .constprop.<digits> (so foo.cold and
 *    foo.part.0 are listed but charged to the preceding symbol);
 *  - st_size is ignored for attribution (extents run to the next symbol);
 *  - mcount & co. are EXCLUDED: their credit leaves the totals.
 * Address width and byte order of the target come from the ELF class and
 * data encoding; sample loaders (gmon.out) read them from the profile.
 */
#include "internal.h"

#include <ctype.h>
#include <gelf.h>
#include <libelf.h>
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

/* gprof's filter on local text symbol names. */
static int gprof_static_name_ok(const char *name)
{
	if (!name || !*name)
		return 0;
	if (strncmp(name, "__gnu_compiled", 14) == 0 ||
	    strncmp(name, "___gnu_compiled", 15) == 0)
		return 0;
	for (; *name; ++name) {
		if (*name == '$')
			return 0;
		while (*name == '.') {
			int digit_seen = 0;
			if (strlen(name) > 7 && strncmp(name, ".clone.", 7) == 0)
				name += 6;
			else if (strlen(name) > 11 && strncmp(name, ".constprop.", 11) == 0)
				name += 10;
			for (name++; *name; name++) {
				if (digit_seen && *name == '.')
					break;
				else if (isdigit((unsigned char)*name))
					digit_seen = 1;
				else
					return 0;
			}
		}
		if (!*name)
			break;
	}
	return 1;
}

static int is_mcount(const char *n)
{
	static const char *const names[] = {"_gprof_mcount", "mcount", "_mcount",
					    "__mcount", "__mcount_internal",
					    "__mcleanup", NULL};
	for (int i = 0; names[i]; i++)
		if (strcmp(n, names[i]) == 0)
			return 1;
	return 0;
}

static const char *basename_of(const char *p)
{
	const char *b = strrchr(p, '/');
	return b ? b + 1 : p;
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
	for (size_t i = 1; i < n; i++) {
		GElf_Sym sym;
		if (!gelf_getsym(d, (int)i, &sym))
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
		if (!name)
			return pc_stream_fail(s, PC_EFORMAT,
					      (int64_t)(sh.sh_offset + i * sh.sh_entsize),
					      "symbol %zu has a name outside the string table", i);
		if (!*name)
			continue;
		pc_symbol ps = {0};
		ps.name = name;
		ps.segment = PC_NOSEG;
		ps.address = sym.st_value;
		ps.size = sym.st_size;
		ps.binding = bind == STB_LOCAL ? PC_BIND_LOCAL
			     : bind == STB_WEAK ? PC_BIND_WEAK : PC_BIND_GLOBAL;
		if (type == STT_FUNC)
			ps.flags |= PC_SYMF_FUNC;
		if (sym.st_shndx == SHN_ABS) {
			ps.kind = PC_SYM_ABS;
		} else if (sym.st_shndx == SHN_COMMON || sym.st_shndx >= nsec) {
			ps.kind = PC_SYM_BSS;
		} else {
			Elf_Scn *sec = elf_getscn(e, sym.st_shndx);
			GElf_Shdr ssh;
			if (!sec || !gelf_getshdr(sec, &ssh))
				return pc_stream_fail(s, PC_EFORMAT, -1,
						      "symbol '%s' refers to a missing section", name);
			if (eh->e_type == ET_REL)
				ps.address += ssh.sh_addr;
			ps.section = elf_strptr(e, eh->e_shstrndx, ssh.sh_name);
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
			else if (bind == STB_LOCAL)
				target = code && gprof_static_name_ok(name);
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

static int elf_load(pc_profile *p, pc_stream *s, const pc_options *o)
{
	void *buf;
	size_t len;
	int r = pc_stream_read_all(s, ELF_MAX_SIZE, &buf, &len);
	if (r)
		return r;
	if (elf_version(EV_CURRENT) == EV_NONE) {
		pc_free(buf);
		return pc_stream_fail(s, PC_EUNSUPPORTED, -1, "libelf is too old");
	}
	Elf *e = elf_memory(buf, len);
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
		pc_profile_set_program(p, basename_of(pc_stream_name(s)));

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
	if (!symtab)
		symtab = dynsym;
	if (!symtab) {
		r = pc_stream_fail(s, PC_EFORMAT, -1,
				   "ELF file has no symbol table (stripped?)");
		goto out;
	}
	if (lo < hi && eh.e_type != ET_REL) {
		pc_region reg = {PC_NOSEG, lo, hi, PC_REGION_APPLICATION,
				 basename_of(pc_stream_name(s))};
		if ((r = pc_profile_add_region(p, &reg)))
			goto out;
	}
	r = load_symtab(p, s, e, symtab, &eh, nsec);
out:
	if (e)
		elf_end(e);
	pc_free(buf);
	return r;
}

static const char *const elf_ext[] = {"", ".elf", ".so", ".o", NULL};

const pc_loader pc_loader_elf = {
	.abi_version = PC_LOADER_ABI_VERSION,
	.name = "elf",
	.description = "ELF executable or object: symbols (libelf), gprof's selection rules",
	.roles = PC_ROLE_SYMBOLS,
	.extensions = elf_ext,
	.probe = elf_probe,
	.load = elf_load,
	.order = 0,
};
