/* fit_mcount.c - do a capture's call arcs come from the program's mcount
 * calls?  (docs/attribution.md ("Attribution rules"), rule 9.)
 *
 * gcc -pg puts a call to the profiling hook (mcount, _mcount, __fentry__,
 * __gnu_mcount_nc, by target) into every function, and the hook records
 * an arc (frompc, selfpc): frompc is the function's return address in its
 * caller, selfpc the return address of the hook's call, inside the
 * function (glibc sysdeps/.../machine-gmon.h; ARM and Thumb with bit 0
 * cleared).  So every arc's callee end lies right after a call to the
 * hook in the program that wrote the capture.  The call is found by its
 * encoding, without relocations: a direct call to the hook's symbol, to
 * a PLT entry that jumps through the hook's GOT slot, or an indirect call
 * through that slot (x86-64 and i386 PIE: call *mcount@GOTPCREL(%rip),
 * call *mcount@GOT(%ebx)); x86-64, i386, AArch64, ARM and Thumb.
 */
#include "model.h"
#include "internal.h"
#include "pc_config.h"
#include "platform.h"

#include <stdlib.h>
#include <string.h>

#if PC_HAVE_ELF
#include <gelf.h>
#include <unistd.h>

static const char *const hooks[] = {"mcount", "_mcount", "__mcount", ".mcount",
				    "__fentry__", "__gnu_mcount_nc"};

static int is_hook(const char *n)
{
	for (size_t i = 0; n && i < sizeof hooks / sizeof hooks[0]; i++)
		if (!strcmp(n, hooks[i]))
			return 1;
	return 0;
}

typedef struct mfit {
	Elf *e;
	GElf_Ehdr eh;
	uint64_t *funcs, *slots; /* the hook's addresses; its GOT slots */
	size_t nfuncs, nslots, capf, caps;
	uint64_t gotplt; /* i386: the GOT base %ebx holds */
	int refs; /* the program names the hook at all */
	int code; /* its code is in the file (not a debug file's NOBITS) */
} mfit;

static int add_u64(uint64_t **v, size_t *n, size_t *cap, uint64_t x)
{
	if (pc_grow((void **)v, cap, *n + 1, sizeof **v))
		return PC_ENOMEM;
	(*v)[(*n)++] = x;
	return PC_OK;
}

static int has(const uint64_t *v, size_t n, uint64_t x)
{
	for (size_t i = 0; i < n; i++)
		if (v[i] == x)
			return 1;
	return 0;
}

/* n bytes of the program at address a (an allocated PROGBITS section
 * holds them all), else NULL */
static const unsigned char *code_at(mfit *m, uint64_t a, size_t n)
{
	for (Elf_Scn *s = NULL; (s = elf_nextscn(m->e, s));) {
		GElf_Shdr sh;
		if (!gelf_getshdr(s, &sh) || sh.sh_type != SHT_PROGBITS ||
		    !(sh.sh_flags & SHF_ALLOC) || a < sh.sh_addr ||
		    a - sh.sh_addr > sh.sh_size || sh.sh_size - (a - sh.sh_addr) < n)
			continue;
		Elf_Data *d = elf_getdata(s, NULL);
		if (!d || !d->d_buf || d->d_size != sh.sh_size)
			return NULL;
		return (const unsigned char *)d->d_buf + (a - sh.sh_addr);
	}
	return NULL;
}

/* The hook's symbols (.symtab and .dynsym) and the GOT slots the dynamic
 * relocations fill with its address. */
static int scan(mfit *m)
{
	size_t shstrndx;
	if (elf_getshdrstrndx(m->e, &shstrndx))
		return PC_OK;
	for (Elf_Scn *s = NULL; (s = elf_nextscn(m->e, s));) {
		GElf_Shdr sh;
		if (!gelf_getshdr(s, &sh))
			continue;
		const char *name = elf_strptr(m->e, shstrndx, sh.sh_name);
		if (name && !strcmp(name, ".got.plt"))
			m->gotplt = sh.sh_addr;
		if ((sh.sh_flags & SHF_EXECINSTR) && sh.sh_type == SHT_PROGBITS && sh.sh_size)
			m->code = 1;
		if (sh.sh_type == SHT_SYMTAB || sh.sh_type == SHT_DYNSYM) {
			Elf_Data *d = elf_getdata(s, NULL);
			size_t n = sh.sh_entsize ? sh.sh_size / sh.sh_entsize : 0;
			for (size_t i = 0; d && i < n; i++) {
				GElf_Sym sym;
				if (!gelf_getsym(d, (int)i, &sym) ||
				    !is_hook(elf_strptr(m->e, sh.sh_link, sym.st_name)))
					continue;
				m->refs = 1;
				uint64_t v = sym.st_value;
				if (m->eh.e_machine == EM_ARM)
					v &= ~(uint64_t)1;
				if (sym.st_shndx != SHN_UNDEF && v &&
				    add_u64(&m->funcs, &m->nfuncs, &m->capf, v))
					return PC_ENOMEM;
			}
		} else if (sh.sh_type == SHT_RELA || sh.sh_type == SHT_REL) {
			Elf_Scn *ss = elf_getscn(m->e, sh.sh_link);
			GElf_Shdr ssh;
			if (!ss || !gelf_getshdr(ss, &ssh) || ssh.sh_type != SHT_DYNSYM)
				continue;
			Elf_Data *d = elf_getdata(s, NULL), *sd = elf_getdata(ss, NULL);
			size_t n = sh.sh_entsize ? sh.sh_size / sh.sh_entsize : 0;
			for (size_t i = 0; d && sd && i < n; i++) {
				GElf_Rela r;
				GElf_Rel rl;
				uint64_t off, info;
				if (sh.sh_type == SHT_RELA) {
					if (!gelf_getrela(d, (int)i, &r))
						continue;
					off = r.r_offset, info = r.r_info;
				} else {
					if (!gelf_getrel(d, (int)i, &rl))
						continue;
					off = rl.r_offset, info = rl.r_info;
				}
				size_t si = (size_t)GELF_R_SYM(info); /* gelf's layout */
				GElf_Sym sym;
				if (si && gelf_getsym(sd, (int)si, &sym) &&
				    is_hook(elf_strptr(m->e, ssh.sh_link, sym.st_name)) &&
				    add_u64(&m->slots, &m->nslots, &m->caps, off))
					return PC_ENOMEM;
			}
		}
	}
	return PC_OK;
}

static int64_t sext(uint64_t v, unsigned bits)
{
	uint64_t m = (uint64_t)1 << (bits - 1);
	v &= (m << 1) - 1;
	return (int64_t)(v ^ m) - (int64_t)m;
}

static uint32_t rd32(mfit *m, const unsigned char *b)
{
	return m->eh.e_ident[EI_DATA] == ELFDATA2MSB ? pc_get_u32(b, PC_ENDIAN_BIG) : pc_get_u32(b, PC_ENDIAN_LITTLE);
}

static uint16_t rd16(mfit *m, const unsigned char *b)
{
	return m->eh.e_ident[EI_DATA] == ELFDATA2MSB ? pc_get_u16(b, PC_ENDIAN_BIG) : pc_get_u16(b, PC_ENDIAN_LITTLE);
}

static uint32_t ror32(uint32_t v, unsigned r)
{
	r &= 31;
	return r ? (v >> r) | (v << (32 - r)) : v;
}

/* Is target the hook: its symbol, or a PLT entry jumping through one of
 * its GOT slots? */
static int hook_target(mfit *m, uint64_t t)
{
	if (has(m->funcs, m->nfuncs, t))
		return 1;
	if (!m->nslots)
		return 0;
	const unsigned char *c = code_at(m, t, 16);
	if (!c)
		return 0;
	switch (m->eh.e_machine) {
	case EM_X86_64:
	case EM_386: {
		size_t k = 0;
		if (c[0] == 0xf3 && c[1] == 0x0f && c[2] == 0x1e && (c[3] == 0xfa || c[3] == 0xfb))
			k = 4; /* endbr64 / endbr32 */
		if (c[k] == 0xf2)
			k++; /* bnd */
		if (c[k] != 0xff || k + 6 > 16)
			return 0;
		int64_t disp = sext(rd32(m, c + k + 2), 32);
		uint64_t end = t + k + 6;
		if (c[k + 1] == 0x25) /* jmp *slot(%rip) / jmp *slot */
			return has(m->slots, m->nslots,
				   m->eh.e_machine == EM_X86_64 ? end + (uint64_t)disp
								: (uint64_t)(uint32_t)disp);
		if (c[k + 1] == 0xa3) /* jmp *disp(%ebx) */
			return has(m->slots, m->nslots, (uint32_t)(m->gotplt + (uint64_t)disp));
		return 0;
	}
	case EM_AARCH64: {
		size_t k = rd32(m, c) == 0xd503245f ? 4 : 0; /* bti c */
		uint32_t adrp = rd32(m, c + k), ldr = rd32(m, c + k + 4);
		if ((adrp & 0x9f00001f) != 0x90000010 || (ldr & 0xffc003ff) != 0xf9400211)
			return 0;
		uint64_t imm = ((adrp >> 29) & 3) | (((adrp >> 5) & 0x7ffff) << 2);
		uint64_t page = ((t + k) & ~(uint64_t)0xfff) + (uint64_t)(sext(imm, 21) * 4096);
		return has(m->slots, m->nslots, page + ((ldr >> 10) & 0xfff) * 8);
	}
	case EM_ARM: {
		size_t k = 0;
		if (rd16(m, c) == 0x4778 && rd16(m, c + 2) == 0x46c0)
			k = 4; /* the Thumb entry: bx pc; nop */
		uint32_t i1 = rd32(m, c + k), i2 = rd32(m, c + k + 4), i3 = rd32(m, c + k + 8);
		/* add ip, pc, #A; add ip, ip, #B; ldr pc, [ip, #C]! */
		if ((i1 & 0xfffff000) != 0xe28fc000 || (i2 & 0xfffff000) != 0xe28cc000 ||
		    (i3 & 0xfffff000) != 0xe5bcf000)
			return 0;
		uint64_t ip = t + k + 8 + ror32(i1 & 0xff, 2 * ((i1 >> 8) & 0xf));
		ip += ror32(i2 & 0xff, 2 * ((i2 >> 8) & 0xf));
		return has(m->slots, m->nslots, (uint32_t)(ip + (i3 & 0xfff)));
	}
	default:
		return 0;
	}
}

/* Does a call to the hook end at address a? */
static int after_hook_call(mfit *m, uint64_t a)
{
	const unsigned char *c;
	switch (m->eh.e_machine) {
	case EM_X86_64:
	case EM_386:
		if (a >= 5 && (c = code_at(m, a - 5, 5)) && c[0] == 0xe8) {
			uint64_t t = a + (uint64_t)sext(rd32(m, c + 1), 32);
			if (m->eh.e_machine == EM_386)
				t = (uint32_t)t;
			if (hook_target(m, t))
				return 1;
		}
		if (a >= 6 && (c = code_at(m, a - 6, 6)) && c[0] == 0xff) {
			uint64_t disp = (uint64_t)sext(rd32(m, c + 2), 32);
			if (c[1] == 0x15) /* call *slot(%rip) / call *slot */
				return has(m->slots, m->nslots,
					   m->eh.e_machine == EM_X86_64 ? a + disp : (uint32_t)disp);
			if (c[1] == 0x93) /* call *disp(%ebx) */
				return has(m->slots, m->nslots, (uint32_t)(m->gotplt + disp));
		}
		return 0;
	case EM_AARCH64:
		if (a >= 4 && (c = code_at(m, a - 4, 4))) {
			uint32_t i = rd32(m, c);
			if ((i & 0xfc000000) == 0x94000000) /* bl */
				return hook_target(m, a - 4 + (uint64_t)(sext(i & 0x3ffffff, 26) * 4));
		}
		return 0;
	case EM_ARM:
		if (a >= 4 && (c = code_at(m, a - 4, 4))) {
			uint32_t i = rd32(m, c);
			/* ARM: bl, blx */
			if ((i & 0x0f000000) == 0x0b000000 && (i >> 28) != 0xf &&
			    hook_target(m, a + 4 + (uint64_t)(sext(i & 0xffffff, 24) * 4)))
				return 1;
			if ((i >> 25) == 0x7d &&
			    hook_target(m, a + 4 + (uint64_t)(sext(i & 0xffffff, 24) * 4) +
						   ((i >> 23) & 2)))
				return 1;
			/* Thumb-2: bl, blx (two halfwords) */
			uint16_t h1 = rd16(m, c), h2 = rd16(m, c + 2);
			if ((h1 & 0xf800) == 0xf000 && (h2 & 0xc000) == 0xc000) {
				uint32_t s = (h1 >> 10) & 1, j1 = (h2 >> 13) & 1, j2 = (h2 >> 11) & 1;
				uint32_t off = (s << 24) | ((~(j1 ^ s) & 1) << 23) |
					       ((~(j2 ^ s) & 1) << 22) | ((uint32_t)(h1 & 0x3ff) << 12) |
					       ((uint32_t)(h2 & 0x7ff) << 1);
				uint64_t t = a + (uint64_t)sext(off, 25);
				if (!(h2 & 0x1000)) /* blx: to ARM code, word aligned */
					t &= ~(uint64_t)3;
				return hook_target(m, t);
			}
		}
		return 0;
	default:
		return 0;
	}
}

static int machine_known(const mfit *m)
{
	return m->eh.e_machine == EM_X86_64 || m->eh.e_machine == EM_386 ||
	       m->eh.e_machine == EM_AARCH64 || m->eh.e_machine == EM_ARM;
}
#endif

int pc_fit_mcount(pc_profile *p, const char *elf, pc_mcount_fit *out)
{
	memset(out, 0, sizeof *out);
#if PC_HAVE_ELF
	if (elf_version(EV_CURRENT) == EV_NONE)
		return PC_OK;
	int fd = pc_plat_open_read(elf);
	if (fd < 0)
		return PC_OK; /* read before: the loaders said what was wrong */
	mfit m;
	memset(&m, 0, sizeof m);
	m.e = elf_begin(fd, ELF_C_READ, NULL);
	int st = PC_OK;
	if (!m.e || elf_kind(m.e) != ELF_K_ELF || !gelf_getehdr(m.e, &m.eh))
		goto out;
	if ((st = scan(&m)))
		goto out;
	out->checked = m.code;
	out->calls_hook = m.refs;
	out->decoded = m.code && machine_known(&m) && (m.nfuncs || m.nslots);
	for (size_t i = 0; out->decoded && i < p->narcs; i++)
		if (p->arcs[i].to_segment == PC_NOSEG && after_hook_call(&m, p->arcs[i].to))
			out->arcs_at_hook++;
out:
	if (m.e)
		elf_end(m.e);
	close(fd);
	free(m.funcs);
	free(m.slots);
	return st;
#else
	(void)p;
	(void)elf;
	return PC_OK;
#endif
}
