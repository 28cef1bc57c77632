/*
 * gemdos.c - Atari ST GEMDOS executables (PRG, TOS, TTP, APP, ACC, PRX ...)
 * as symbol files.
 *
 * Reads the 28-byte GEMDOS header and the program's symbols:
 *  - DRI/Alcyon symbol tables (14-byte slots) with the HiSoft/GST long-name
 *    extension (type bits 0x0048 both set: the next slot continues the
 *    name), SozobonX long names (marker slot "SozobonX"), Devpac local
 *    labels stored with a NUL in place of the leading '.', and Pure C's
 *    full names from the QDB1 debug block after the relocation table;
 *  - GCC/MiNT a.out executables ("MiNT" in ph_res1): GNU nlist records or
 *    a DRI table at the a.out symbol position;
 *  - MiNT PRGELF executables ("ELF" + offset in ph_res1): the ELF .symtab;
 *  - Mark Williams C n.out symbol records, after the fixups (MWC 3.x) or
 *    in the DRI symbol area (earlier MWC): shared/research/mwc-symbols.md.
 * The relocation (fixup) table is validated so that a corrupt file is
 * reported instead of misread.
 *
 * Byte-level facts: shared/research/atari-formats.md.  Addresses are
 * offsets from the start of TEXT, as in the file; the "load-address"
 * option (the TEXT start in memory, i.e. basepage + 0x100) is added to
 * them and also places the Atari memory map (ROM, cartridge, other RAM)
 * as "sys" regions around the program.
 *
 * Options:
 *   load-address=ADDR      TEXT start in memory (adds system regions)
 *   gemdos-basis=auto|text|section
 *                          DATA/BSS values count from TEXT start or from
 *                          their own segment (default: per-file vote)
 *   gemdos-locals=0|1      Devpac local labels (.name) and .L labels as
 *                          attribution targets (default 0: they are loop
 *                          labels inside routines and stay listed only)
 *   gemdos-relocations=check|ignore
 *                          validate the fixup table (default check)
 */
#include "internal.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define GD_HDR 0x1Cu
#define GD_SLOT 14u
#define GD_MAGIC 0x601Au
/* Largest executable read: far above any real Atari program (TT-RAM
 * machines top out at a few hundred MiB of memory in total). */
#define GD_MAX_FILE ((uint64_t)256 << 20)

#define T_DEFINED 0x8000u
#define T_EQUATED 0x4000u
#define T_GLOBAL 0x2000u
#define T_EQUREG 0x1000u
#define T_EXTERNAL 0x0800u
#define T_DATA 0x0400u
#define T_TEXT 0x0200u
#define T_BSS 0x0100u
#define T_FILE 0x0080u
#define T_ARCHIVE 0x0040u
#define T_LONGNAME 0x0048u

/* SozobonX (ld.h of the SozobonX linker): a 14-byte slot is name[8],
 * flags (1 byte), mark (1 byte), value.  Only the flags byte is the DRI
 * type; "mark" is the linker's scratch byte (findx() caches a symbol's
 * relocation segment there: 1 data, 2 text, 3 bss) and old versions write
 * it out uninitialised, so real tables carry 0x4242, 0x42b0, 0x4206...
 * SozobonX's own ld (chkx, exten) and nm test only flags == 0x42 and
 * value == 0x87654321; so do we, for the marker, the name continuations
 * and the type of every other slot of a SozobonX table. */
#define SOZOBON_FLAGS 0x42u
#define SOZOBON_VALUE 0x87654321u

typedef enum gd_sec { SEC_NONE = 0, SEC_TEXT, SEC_DATA, SEC_BSS } gd_sec;

typedef struct gd_sym {
	char *name;
	uint64_t file_off; /* byte offset of the (first) slot */
	uint32_t value;    /* raw value from the file */
	uint16_t type;     /* raw DRI type (synthesised for a.out/ELF) */
	gd_sec sec;
	pc_symkind kind;
	pc_binding bind;
	unsigned flags;
	int local_label; /* Devpac NUL-prefixed or .L label */
	int marker;      /* file/archive name, GCC marker */
	uint64_t addr;   /* text-relative address (basis applied) */
} gd_sym;

typedef struct gd_ctx {
	pc_profile *p;
	pc_stream *s;
	const pc_options *opts;
	const unsigned char *buf;
	uint64_t len;
	uint32_t tlen, dlen, blen, slen, res1, prgflags;
	uint16_t absflag;
	const char *flavour; /* for messages */
	gd_sym *syms;
	size_t nsyms, cap;
	/* relocation */
	uint64_t reloc_off, reloc_end; /* end: first byte after the table */
	uint64_t nfixups;
	int basis_is_section; /* DATA/BSS values relative to own segment */
	int basis_from_file;  /* a.out / ELF: always text-based */
	size_t vote_text, vote_section, vote_total;
	int has_load;
	uint64_t load;
	int locals_are_targets;
	size_t qdb1_names; /* names replaced from a Pure C QDB1 block */
} gd_ctx;

/* ------------------------------------------------------------------ */
/* helpers                                                             */

static uint32_t be32(const gd_ctx *c, uint64_t off)
{
	return pc_get_u32(c->buf + off, PC_ENDIAN_BIG);
}

static uint16_t be16(const gd_ctx *c, uint64_t off)
{
	return pc_get_u16(c->buf + off, PC_ENDIAN_BIG);
}

/* The n bytes of a symbol name up to the first NUL, as they are in the
 * file (the output side escapes what a terminal or format cannot take).
 * A leading NUL followed by a non-NUL byte is a Devpac local label: it
 * reads as '.' + rest. */
static char *decode_name(const unsigned char *b, size_t n, int *devpac)
{
	size_t i = 0, o = 0;
	char *out = malloc(n + 2);
	if (!out)
		return NULL;
	*devpac = 0;
	if (n >= 2 && b[0] == 0 && b[1] != 0) {
		*devpac = 1;
		out[o++] = '.';
		i = 1;
	}
	for (; i < n && b[i] != 0; i++)
		out[o++] = (char)b[i];
	out[o] = '\0';
	return out;
}

static int ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);
	return n >= m && strcmp(s + n - m, suffix) == 0;
}

/* Object/archive file names and GCC markers (by name, as Hatari and
 * gst2ascii -o do: the type bits are not reliable for these). */
static int is_marker_name(const char *name)
{
	const char *slash = strchr(name, '/');
	if (strlen(name) > 2 && (ends_with(name, ".o") || ends_with(name, ".a")))
		return 1;
	if (slash && slash[1] != '(')
		return 1;
	return strcmp(name, "___gnu_compiled_c") == 0 ||
	       strcmp(name, "___gnu_compiled_cplusplus") == 0 ||
	       strcmp(name, "gcc2_compiled.") == 0 ||
	       strcmp(name, "gcc_compiled.") == 0;
}

static int push_sym(gd_ctx *c, const gd_sym *s)
{
	if (c->nsyms == c->cap) {
		int st = pc_grow((void **)&c->syms, &c->cap, c->nsyms + 1,
				 sizeof *c->syms);
		if (st != PC_OK)
			return st;
	}
	c->syms[c->nsyms++] = *s;
	return PC_OK;
}

static void free_syms(gd_ctx *c)
{
	for (size_t i = 0; i < c->nsyms; i++)
		free(c->syms[i].name);
	free(c->syms);
	c->syms = NULL;
	c->nsyms = c->cap = 0;
}

static int nomem(gd_ctx *c)
{
	return pc_stream_fail(c->s, PC_ENOMEM, -1, "out of memory");
}

/* Reads the whole content (executables are small; gzip input has no
 * known size, so read incrementally up to the documented limit). */
static int read_all(pc_stream *s, unsigned char **out, uint64_t *outlen)
{
	uint64_t size;
	int known;
	pc_stream_size(&size, &known, s);
	unsigned char *buf = NULL;
	size_t cap = 0, len = 0;
	if (known) {
		if (size > GD_MAX_FILE)
			return pc_stream_fail(s, PC_ELIMIT, 0,
					      "executable of %lld bytes is larger than the %llu-byte limit",
					      (long long)size,
					      (unsigned long long)GD_MAX_FILE);
		buf = malloc(size ? (size_t)size : 1);
		if (!buf)
			return pc_stream_fail(s, PC_ENOMEM, -1, "out of memory");
		if (size) {
			int st = pc_stream_read(buf, (size_t)size, s,
						"executable content");
			if (st != PC_OK) {
				free(buf);
				return st;
			}
		}
		*out = buf;
		*outlen = (uint64_t)size;
		return PC_OK;
	}
	for (;;) {
		size_t got;
		if (len == cap) {
			if (cap >= GD_MAX_FILE) {
				free(buf);
				return pc_stream_fail(s, PC_ELIMIT, (int64_t)len,
						      "executable is larger than the %llu-byte limit",
						      (unsigned long long)GD_MAX_FILE);
			}
			if (pc_grow((void **)&buf, &cap, len + 65536, 1) != PC_OK) {
				free(buf);
				return pc_stream_fail(s, PC_ENOMEM, -1, "out of memory");
			}
		}
		int st = pc_stream_read_some(buf + len, cap - len, &got, s);
		if (st) {
			free(buf);
			return st;
		}
		if (got == 0)
			break;
		len += got;
	}
	*out = buf;
	*outlen = len;
	return PC_OK;
}

/* ------------------------------------------------------------------ */
/* relocation table                                                    */

/* Validates the GEMDOS fixup stream at off; sets c->reloc_end. */
static int check_relocations(gd_ctx *c, uint64_t off, const char *where)
{
	uint64_t limit = (uint64_t)c->tlen + c->dlen; /* fixups lie in TEXT+DATA */
	uint64_t pos, p;
	uint32_t first;
	c->reloc_off = off;
	if (off + 4 > c->len)
		return pc_stream_fail(c->s, PC_ETRUNC, (int64_t)(off > c->len ? c->len : off),
				      "expected the relocation table (%s) at 0x%llx, starting with a 4-byte offset; found %llu bytes",
				      where, (unsigned long long)off,
				      (unsigned long long)(off > c->len ? 0 : c->len - off));
	first = be32(c, off);
	if (first == 0) {
		c->reloc_end = off + 4;
		c->nfixups = 0;
		return PC_OK;
	}
	if ((first & 1) || (uint64_t)first + 4 > limit)
		return pc_stream_fail(c->s, PC_EFORMAT, (int64_t)off,
				      "first relocation at text+0x%lx is %s; expected an even offset with 4 bytes inside TEXT+DATA (0x%llx bytes)",
				      (unsigned long)first,
				      (first & 1) ? "odd" : "outside TEXT+DATA",
				      (unsigned long long)limit);
	pos = first;
	c->nfixups = 1;
	for (p = off + 4;; p++) {
		unsigned b;
		if (p >= c->len)
			return pc_stream_fail(c->s, PC_ETRUNC, (int64_t)c->len,
					      "relocation table starting at 0x%llx ends before its terminating 0 byte",
					      (unsigned long long)off);
		b = c->buf[p];
		if (b == 0)
			break;
		if (b == 1) {
			pos += 254;
			continue;
		}
		if (b & 1)
			return pc_stream_fail(c->s, PC_EFORMAT, (int64_t)p,
					      "relocation step 0x%02x is odd; expected 0, 1 or an even distance",
					      b);
		pos += b;
		if (pos + 4 > limit)
			return pc_stream_fail(c->s, PC_EFORMAT, (int64_t)p,
					      "relocation at text+0x%llx lies outside TEXT+DATA (0x%llx bytes)",
					      (unsigned long long)pos,
					      (unsigned long long)limit);
		c->nfixups++;
	}
	c->reloc_end = p + 1;
	return PC_OK;
}

/* ------------------------------------------------------------------ */
/* DRI / GST / SozobonX table                                          */

/* A SozobonX marker or name-continuation slot: flags byte 0x42 and value
 * 0x87654321, whatever the mark byte. */
static int sozobon_cont(const unsigned char *slot)
{
	return slot[8] == SOZOBON_FLAGS &&
	       pc_get_u32(slot + 10, PC_ENDIAN_BIG) == SOZOBON_VALUE;
}

static int parse_dri(gd_ctx *c, uint64_t off, uint32_t size)
{
	size_t nslots, i;
	int sozobon = 0;
	size_t longnames = 0, unnamed = 0, orphans = 0;
	if (size % GD_SLOT != 0)
		return pc_stream_fail(c->s, PC_EFORMAT, 0x0E,
				      "symbol table size %lu is not a multiple of the 14-byte DRI slot",
				      (unsigned long)size);
	nslots = size / GD_SLOT;
	if (nslots > 0) {
		const unsigned char *b = c->buf + off;
		if (memcmp(b, "SozobonX", 8) == 0 && sozobon_cont(b))
			sozobon = 1;
	}
	for (i = sozobon ? 1 : 0; i < nslots; i++) {
		uint64_t so = off + (uint64_t)i * GD_SLOT;
		const unsigned char *b = c->buf + so;
		unsigned char name[8 + GD_SLOT];
		unsigned char *big = NULL;
		size_t nlen = 8;
		gd_sym s;
		int devpac = 0;
		memset(&s, 0, sizeof s);
		s.file_off = so;
		s.type = pc_get_u16(b + 8, PC_ENDIAN_BIG);
		s.value = pc_get_u32(b + 10, PC_ENDIAN_BIG);
		memcpy(name, b, 8);
		if (sozobon) {
			/* the low byte is SozobonX's "mark", not type bits
			 * (no GST long names, file names or archives here) */
			s.type &= 0xFF00u;
			if (sozobon_cont(b)) {
				/* a continuation with no symbol before it */
				orphans++;
				continue;
			}
		}
		if (!sozobon && (s.type & T_LONGNAME) == T_LONGNAME) {
			if (i + 1 >= nslots)
				return pc_stream_fail(c->s, PC_EFORMAT, (int64_t)(so + 8),
						      "long-name flag (type 0x%04x) on the last symbol slot %zu; expected a continuation slot",
						      s.type, i);
			memcpy(name + 8, b + GD_SLOT, GD_SLOT);
			nlen = 8 + GD_SLOT;
			i++;
			longnames++;
		} else if (sozobon) {
			size_t k = i + 1, chunks = 0;
			while (k < nslots && sozobon_cont(c->buf + off + k * GD_SLOT)) {
				chunks++;
				k++;
			}
			if (chunks) {
				big = malloc(8 * (chunks + 1));
				if (!big)
					return nomem(c);
				memcpy(big, b, 8);
				for (size_t j = 0; j < chunks; j++)
					memcpy(big + 8 * (j + 1), c->buf + off + (i + 1 + j) * GD_SLOT, 8);
				nlen = 8 * (chunks + 1);
				i += chunks;
				longnames++;
			}
		}
		s.name = decode_name(big ? big : name, nlen, &devpac);
		free(big);
		if (!s.name)
			return nomem(c);
		if (s.name[0] == '\0') {
			free(s.name);
			unnamed++;
			continue;
		}
		s.local_label = devpac || (s.name[0] == '.' && s.name[1] == 'L');
		if (s.type & T_TEXT)
			s.sec = SEC_TEXT;
		else if (s.type & T_DATA)
			s.sec = SEC_DATA;
		else if (s.type & T_BSS)
			s.sec = SEC_BSS;
		else
			s.sec = SEC_NONE;
		s.bind = (s.type & T_GLOBAL) ? PC_BIND_GLOBAL : PC_BIND_LOCAL;
		/* 0x0280 object-file name, 0x02C0 archive name (ALN). */
		s.marker = (s.sec == SEC_TEXT && (s.type & T_FILE)) ||
			   is_marker_name(s.name);
		if (push_sym(c, &s) != PC_OK) {
			free(s.name);
			return nomem(c);
		}
	}
	if (sozobon)
		c->flavour = "SozobonX";
	else if (longnames && strcmp(c->flavour, "DRI") == 0)
		c->flavour = "DRI/GST";
	if (unnamed)
		pc_profile_warn(c->p, "%s: %zu symbol slot(s) with an empty name skipped",
				pc_stream_name(c->s), unnamed);
	if (orphans)
		pc_profile_warn(c->p, "%s: %zu SozobonX name continuation slot(s) with no symbol before them skipped",
				pc_stream_name(c->s), orphans);
	return PC_OK;
}

/* The DATA/BSS basis vote (research 2.4): a value "fits" text-based when
 * it lies in its segment counted from TEXT start, section-relative when
 * it lies in [0, segment size]; both end-inclusive.  Majority wins, a tie
 * means text-based. */
static void vote_basis(gd_ctx *c)
{
	uint64_t t = c->tlen, d = c->dlen, bs = c->blen;
	c->vote_text = c->vote_section = c->vote_total = 0;
	for (size_t i = 0; i < c->nsyms; i++) {
		const gd_sym *s = &c->syms[i];
		uint64_t v = s->value;
		if (s->marker || (s->sec != SEC_DATA && s->sec != SEC_BSS))
			continue;
		c->vote_total++;
		if (s->sec == SEC_DATA) {
			if (v >= t && v <= t + d)
				c->vote_text++;
			if (v <= d)
				c->vote_section++;
		} else {
			if (v >= t + d && v <= t + d + bs)
				c->vote_text++;
			if (v <= bs)
				c->vote_section++;
		}
	}
	c->basis_is_section = c->vote_section > c->vote_text;
}

/* ------------------------------------------------------------------ */
/* Pure C QDB1 debug block                                             */

static void apply_qdb1(gd_ctx *c)
{
	uint64_t off = c->reloc_end, hdr, var, str, end, total = 32;
	uint32_t sz[7];
	if (off & 1)
		off++;
	if (off + 32 > c->len || be32(c, off) != 0x51444231u) /* "QDB1" */
		return;
	hdr = off;
	for (int k = 0; k < 7; k++) {
		sz[k] = be32(c, hdr + 4 + 4 * (uint64_t)k);
		total += sz[k];
	}
	if (hdr + total > c->len) {
		pc_profile_warn(c->p, "%s: Pure C QDB1 block at 0x%llx claims %llu bytes, only %llu present; its names are not used",
				pc_stream_name(c->s), (unsigned long long)hdr,
				(unsigned long long)total,
				(unsigned long long)(c->len - hdr));
		return;
	}
	var = hdr + 32 + (uint64_t)sz[0] + sz[1];
	str = var + (uint64_t)sz[2] + sz[3] + sz[4] + sz[5];
	end = str + sz[6];
	for (size_t i = 0; i < c->nsyms; i++) {
		gd_sym *s = &c->syms[i];
		size_t n = strlen(s->name);
		unsigned want;
		if (n != 8 && n != 22)
			continue;
		want = s->sec == SEC_TEXT ? 4 : s->sec == SEC_DATA ? 5 : s->sec == SEC_BSS ? 6 : 0;
		if (!want)
			continue;
		for (uint64_t r = var; r + 14 <= var + sz[2]; r += 14) {
			int kind = (signed char)c->buf[r];
			unsigned storage = c->buf[r + 1];
			uint32_t noff = be32(c, r + 2);
			uint32_t value = be32(c, r + 10);
			const char *full;
			size_t flen;
			if (storage != want || value != s->value)
				continue;
			if (want == 4 ? (kind != 7 && kind != 8) : (kind < 4 || kind > 6))
				continue;
			if (str + noff >= end)
				break;
			full = (const char *)c->buf + str + noff;
			flen = strnlen(full, (size_t)(end - (str + noff)));
			if (str + noff + flen >= end)
				break; /* not NUL-terminated inside the block */
			/* The DRI name is the truncated full name. */
			if (flen > n && strncmp(full, s->name, n) == 0) {
				char *nn = pc_strndup(full, flen);
				if (nn) {
					free(s->name);
					s->name = nn;
					c->qdb1_names++;
				}
			}
			break;
		}
	}
}

/* ------------------------------------------------------------------ */
/* Mark Williams C (shared/research/mwc-symbols.md)                    */

/* MWC's n.out header and symbol records (Coherent n.out.h) are in
 * Coherent's canonical byte order whatever the machine: 16-bit values
 * little-endian, 32-bit values as two little-endian words, high word
 * first. */
#define MWC_HDR 48u
#define MWC_REC 22u
#define MWC_NAME 16u
#define MWC_MAGIC 0x0107u /* L_MAGIC 0407: bytes 07 01 */
#define MWC_LF_32 0020u
#define MWC_LF_FAKE 0400u
#define MWC_M_68000 10u
#define MWC_GLOBAL 0020u
enum { L_SHRI, L_PRVI, L_BSSI, L_SHRD, L_PRVD, L_BSSD, L_DEBUG, L_SYM,
       L_REL, L_ABS, L_REF };

static uint16_t can16(const unsigned char *b)
{
	return pc_get_u16(b, PC_ENDIAN_LITTLE);
}

static uint32_t can32(const unsigned char *b)
{
	return ((uint32_t)can16(b) << 16) | can16(b + 2);
}

/* Appends "; "-separated text to a reason buffer. */
static void why_add(char *why, size_t n, const char *fmt, ...) PC_PRINTF(3, 4);
static void why_add(char *why, size_t n, const char *fmt, ...)
{
	size_t l = strlen(why);
	va_list ap;
	if (l && l + 2 < n) {
		memcpy(why + l, "; ", 3);
		l += 2;
	}
	if (l + 1 >= n)
		return;
	va_start(ap, fmt);
	vsnprintf(why + l, n - l, fmt, ap);
	va_end(ap);
}

/* Checks n records at off: each name printable and NUL-padded (nothing
 * after its first NUL) and not empty, each type a segment code 0-10 with
 * or without L_GLOBAL.  Returns how many records pass; why gets the
 * reason of the first that does not. */
static size_t mwc_records_ok(const gd_ctx *c, uint64_t off, size_t n, char *why,
			     size_t whylen)
{
	size_t good = 0;
	for (size_t i = 0; i < n; i++) {
		const unsigned char *r = c->buf + off + i * MWC_REC;
		uint16_t t = can16(r + MWC_NAME);
		const char *bad = NULL;
		size_t k = 0, z;
		while (k < MWC_NAME && r[k] >= 0x21 && r[k] < 0x7F)
			k++;
		for (z = k; z < MWC_NAME && r[z] == 0; z++)
			;
		if (k == 0)
			bad = "empty or unprintable name";
		else if (k < MWC_NAME && r[k] != 0)
			bad = "name byte is not printable ASCII";
		else if (z < MWC_NAME)
			bad = "name has bytes after its NUL padding";
		else if ((t & ~MWC_GLOBAL) > L_REF)
			bad = "type is not a segment code 0-10 with or without the global bit 020";
		if (!bad) {
			good++;
		} else if (good == i) {
			why_add(why, whylen, "record %zu at 0x%llx (type 0%o): %s", i,
				(unsigned long long)(off + i * MWC_REC), (unsigned)t, bad);
		}
	}
	return good;
}

/* MWC 3.x (layout B): the n.out header after the GEMDOS fixups, found as
 * MWC's own getprg() finds it (nm.c, size.c, strip.c): the first fixup
 * long, and when it is not 0, bytes up to and including a 0 byte.
 * Returns 1 with the symbols' offset and size when the header at that
 * place is consistent; 0 with *magic set when 07 01 is there but a check
 * failed (why says which); 0 with *magic clear when there is none. */
static int mwc_find_appended(const gd_ctx *c, uint64_t fix, uint64_t *hdr,
			     uint64_t *symoff, uint32_t *symsize, int *magic,
			     char *why, size_t whylen)
{
	uint64_t h = fix + 4, end;
	const unsigned char *b;
	*magic = 0;
	if (fix + 4 > c->len)
		return 0;
	if (be32(c, fix) != 0) {
		while (h < c->len && c->buf[h] != 0)
			h++;
		if (h >= c->len)
			return 0;
		h++;
	}
	*hdr = h;
	if (h + 2 > c->len || can16(c->buf + h) != MWC_MAGIC)
		return 0;
	*magic = 1;
	if (h + MWC_HDR > c->len) {
		why_add(why, whylen, "%llu bytes left for the 48-byte header",
			(unsigned long long)(c->len - h));
		return 0;
	}
	b = c->buf + h;
	if (!(can16(b + 2) & MWC_LF_32))
		why_add(why, whylen, "l_flag 0%o lacks LF_32 (020)", (unsigned)can16(b + 2));
	if (can16(b + 6) < MWC_HDR)
		why_add(why, whylen, "l_tbase %u is below 48", (unsigned)can16(b + 6));
	*symsize = can32(b + 8 + 4 * L_SYM);
	if (*symsize % MWC_REC)
		why_add(why, whylen, "l_ssize[L_SYM] %lu is not a multiple of the 22-byte record",
			(unsigned long)*symsize);
	*symoff = h + can16(b + 6) + (uint64_t)can32(b + 8 + 4 * L_DEBUG);
	end = *symoff + *symsize;
	if (end > c->len)
		why_add(why, whylen, "its symbols (%lu bytes at 0x%llx) end beyond the file (%llu bytes)",
			(unsigned long)*symsize, (unsigned long long)*symoff,
			(unsigned long long)c->len);
	return why[0] == 0;
}

/* Reads n records at off (checked by mwc_records_ok).  Values are offsets
 * from the start of TEXT for every segment. */
static int parse_mwc(gd_ctx *c, uint64_t off, size_t n)
{
	size_t refs = 0, outside = 0;
	uint64_t t = c->tlen, all = (uint64_t)c->tlen + c->dlen + c->blen;
	for (size_t i = 0; i < n; i++) {
		const unsigned char *r = c->buf + off + i * MWC_REC;
		uint16_t type = can16(r + MWC_NAME);
		unsigned seg = type & ~MWC_GLOBAL;
		size_t len = strnlen((const char *)r, MWC_NAME);
		gd_sym s;
		memset(&s, 0, sizeof s);
		if (seg == L_REF) {
			/* undefined reference (value 0) or common block (value
			 * = its size): no address, and not in a linked program */
			refs++;
			continue;
		}
		s.file_off = off + i * MWC_REC;
		s.type = type;
		s.value = can32(r + MWC_NAME + 2);
		s.bind = (type & MWC_GLOBAL) ? PC_BIND_GLOBAL : PC_BIND_LOCAL;
		switch (seg) {
		case L_SHRI:
		case L_PRVI:
			s.sec = SEC_TEXT;
			if (s.value >= t)
				outside++;
			break;
		case L_SHRD:
		case L_PRVD:
			s.sec = SEC_DATA;
			if (s.value > all)
				outside++;
			break;
		case L_BSSI:
		case L_BSSD:
			s.sec = SEC_BSS;
			if (s.value > all)
				outside++;
			break;
		case L_ABS:
			s.sec = SEC_NONE;
			break;
		default: /* L_DEBUG, and L_SYM / L_REL that nm prints as ?? */
			s.sec = SEC_NONE;
			s.marker = 1;
			break;
		}
		/* MWC's nm: a name whose last character is '_' is a C name,
		 * shown without that '_' (C's main is main_; _exit is _exit_) */
		if (len > 1 && r[len - 1] == '_')
			len--;
		s.name = pc_strndup((const char *)r, len);
		if (!s.name)
			return nomem(c);
		if (push_sym(c, &s) != PC_OK) {
			free(s.name);
			return nomem(c);
		}
	}
	if (refs)
		pc_profile_warn(c->p, "%s: %zu Mark Williams C undefined-reference or common (L_REF) record(s) skipped: they have no address",
				pc_stream_name(c->s), refs);
	if (outside)
		pc_profile_warn(c->p, "%s: %zu Mark Williams C symbol value(s) lie beyond their segment (TEXT 0x%lx, DATA 0x%lx, BSS 0x%lx bytes); was the program linked with ld -R?",
				pc_stream_name(c->s), outside, (unsigned long)c->tlen,
				(unsigned long)c->dlen, (unsigned long)c->blen);
	return PC_OK;
}

/* The symbol area of a plain GEMDOS program: MWC 3.x's n.out block after
 * the fixups, else ph_slen holding MWC records (earlier MWC, with or
 * without a 48-byte header before them) or a DRI/GST/SozobonX table.  MWC
 * is decided by the 07 01 magic and consistency checks, never by a size:
 * 22 * 7 bytes are also 11 DRI slots. */
static int read_symbol_area(gd_ctx *c, uint64_t symoff, uint64_t symend,
			    int check_relocs)
{
	char why[400] = "", whya[400] = "";
	uint64_t hdr = 0, moff = 0;
	uint32_t msize = 0;
	size_t skip = 0;
	int magic = 0, st, mwc = 0, bare, prefixed;
	size_t good = 0;
	c->flavour = "DRI";
	if (symend > c->len)
		return pc_stream_fail(c->s, PC_ETRUNC, 0x0E,
				      "symbol table (%lu bytes at 0x%llx) extends beyond the end of the file (%llu bytes)",
				      (unsigned long)c->slen, (unsigned long long)symoff,
				      (unsigned long long)c->len);
	if (mwc_find_appended(c, symend, &hdr, &moff, &msize, &magic, why, sizeof why) &&
	    (msize || c->slen == 0)) {
		const unsigned char *h = c->buf + hdr;
		uint32_t ssz[6];
		for (int k = 0; k < 6; k++)
			ssz[k] = can32(h + 8 + 4 * k);
		if (msize == 0)
			return pc_stream_fail(c->s, PC_EFORMAT, (int64_t)(hdr + 8 + 4 * L_SYM),
					      "Mark Williams C program has no symbol table (l_ssize[L_SYM] of the n.out header at 0x%llx is 0; stripped); relink without -s",
					      (unsigned long long)hdr);
		if (mwc_records_ok(c, moff, msize / MWC_REC, why, sizeof why) != msize / MWC_REC)
			return pc_stream_fail(c->s, PC_EFORMAT, (int64_t)moff,
					      "Mark Williams C symbol table (%lu bytes at 0x%llx, n.out header at 0x%llx) is damaged: %s",
					      (unsigned long)msize, (unsigned long long)moff,
					      (unsigned long long)hdr, why);
		c->flavour = "Mark Williams C";
		pc_profile_note(c->p, "%s: Mark Williams C n.out header at 0x%llx after the relocation table (l_flag 0%o%s, l_machine %u%s): %lu symbol records at 0x%llx; n.out sizes TEXT 0x%lx, DATA 0x%lx, BSS 0x%lx%s%s",
				pc_stream_name(c->s), (unsigned long long)hdr,
				(unsigned)can16(h + 2),
				(can16(h + 2) & MWC_LF_FAKE) ? " LF_FAKE" : "",
				(unsigned)can16(h + 4),
				can16(h + 4) == MWC_M_68000 ? " M_68000" : "",
				(unsigned long)(msize / MWC_REC), (unsigned long long)moff,
				(unsigned long)ssz[L_SHRI] + ssz[L_PRVI],
				(unsigned long)ssz[L_SHRD] + ssz[L_PRVD],
				(unsigned long)ssz[L_BSSI] + ssz[L_BSSD],
				(uint64_t)ssz[L_SHRI] + ssz[L_PRVI] == c->tlen &&
				(uint64_t)ssz[L_SHRD] + ssz[L_PRVD] == c->dlen &&
				(uint64_t)ssz[L_BSSI] + ssz[L_BSSD] == c->blen
					? " (as in the GEMDOS header)"
					: " (the GEMDOS header differs)",
				c->slen ? "; ph_slen's bytes are not read (MWC's tools skip them)" : "");
		st = parse_mwc(c, moff, msize / MWC_REC);
		if (st == PC_OK && check_relocs)
			st = check_relocations(c, symend, "after the symbol area");
		c->basis_from_file = 1;
		return st;
	}
	if (magic)
		return pc_stream_fail(c->s, PC_EFORMAT, (int64_t)hdr,
				      "a Mark Williams C n.out header (07 01) follows the relocation table but is inconsistent: %s",
				      why);
	if (c->slen == 0)
		return pc_stream_fail(c->s, PC_EFORMAT, 0x0E,
				      "GEMDOS executable has no symbol table (ph_slen is 0); relink with symbols (e.g. Devpac opt x+, vlink -g, AHCC -g)");
	/* earlier MWC: the records inside ph_slen, bare or after a 48-byte
	 * header (an n.out header by its size; szadb skips it) */
	if (c->slen == MWC_HDR && can16(c->buf + symoff) == MWC_MAGIC)
		return pc_stream_fail(c->s, PC_EFORMAT, 0x0E,
				      "the symbol area holds only a 48-byte Mark Williams C n.out header (07 01) and no symbol records");
	bare = c->slen % MWC_REC == 0;
	prefixed = c->slen > MWC_HDR && (c->slen - MWC_HDR) % MWC_REC == 0;
	if (!bare && !prefixed)
		why_add(whya, sizeof whya,
			"%lu is neither a multiple of the 22-byte record nor 48 bytes more than one",
			(unsigned long)c->slen);
	/* all records consistent: MWC; at least half of them: a damaged MWC
	 * table (a DRI table read as 22-byte records has none: its type
	 * words fall into the names) */
	if (bare) {
		size_t n = c->slen / MWC_REC;
		good = mwc_records_ok(c, symoff, n, whya, sizeof whya);
		mwc = good == n ? 1 : 2 * good >= n ? -1 : 0;
	}
	if (mwc == 0 && prefixed) {
		size_t n = (c->slen - MWC_HDR) / MWC_REC;
		char w[200] = "";
		good = mwc_records_ok(c, symoff + MWC_HDR, n, w, sizeof w);
		mwc = good == n ? 1 : 2 * good >= n ? -1 : 0;
		skip = MWC_HDR;
		if (mwc < 0)
			snprintf(whya, sizeof whya, "after a 48-byte header, %s", w);
		else if (!mwc)
			why_add(whya, sizeof whya, "after a 48-byte header, %s", w);
	}
	if (mwc < 0)
		return pc_stream_fail(c->s, PC_EFORMAT, (int64_t)symoff,
				      "symbol table (%lu bytes at 0x%llx) is a damaged Mark Williams C table (%zu of %lu records consistent; %s); not read as DRI",
				      (unsigned long)c->slen, (unsigned long long)symoff, good,
				      (unsigned long)((c->slen - skip) / MWC_REC), whya);
	if (mwc) {
		c->flavour = "Mark Williams C";
		pc_profile_note(c->p, "%s: Mark Williams C symbol records in the DRI symbol area (MWC 2.x layout)%s: %lu records at 0x%llx",
				pc_stream_name(c->s),
				!skip ? ""
				: can16(c->buf + symoff) == MWC_MAGIC ? " after a 48-byte n.out header"
								     : " after a 48-byte header",
				(unsigned long)((c->slen - skip) / MWC_REC),
				(unsigned long long)(symoff + skip));
		st = parse_mwc(c, symoff + skip, (c->slen - skip) / MWC_REC);
		c->basis_from_file = 1;
	} else if (c->slen % GD_SLOT == 0) {
		st = parse_dri(c, symoff, c->slen);
	} else {
		return pc_stream_fail(c->s, PC_EFORMAT, 0x0E,
				      "symbol table (%lu bytes at 0x%llx) fits neither DRI (%lu is not a multiple of the 14-byte slot) nor Mark Williams C (%s)",
				      (unsigned long)c->slen, (unsigned long long)symoff,
				      (unsigned long)c->slen, whya);
	}
	if (st != PC_OK)
		return st;
	if (c->absflag == 0 && check_relocs) {
		st = check_relocations(c, symend, "after the symbol table");
		if (st != PC_OK)
			return st;
		if (!mwc)
			apply_qdb1(c);
	}
	return PC_OK;
}

/* ------------------------------------------------------------------ */
/* GCC/MiNT a.out                                                      */

static int parse_aout(gd_ctx *c, uint64_t symoff, uint32_t a_syms,
		      uint32_t strsize)
{
	uint64_t stroff = symoff + a_syms;
	size_t n = a_syms / 12, i;
	if (a_syms % 12 != 0)
		return pc_stream_fail(c->s, PC_EFORMAT, 0x34,
				      "a.out symbol table size %lu is not a multiple of the 12-byte nlist record",
				      (unsigned long)a_syms);
	for (i = 0; i < n; i++) {
		uint64_t r = symoff + 12 * (uint64_t)i;
		uint32_t strx = be32(c, r);
		unsigned type = c->buf[r + 4];
		uint32_t value = be32(c, r + 8);
		gd_sym s;
		const char *nm;
		size_t nl;
		int dummy;
		memset(&s, 0, sizeof s);
		if (type & 0xE0)
			continue; /* stabs */
		if (type == 0x1F)
			continue; /* N_FN file name */
		s.bind = (type & 1) ? PC_BIND_GLOBAL : PC_BIND_LOCAL;
		switch (type) {
		case 0x0F: s.sec = SEC_TEXT; s.bind = PC_BIND_WEAK; break;
		case 0x10: s.sec = SEC_DATA; s.bind = PC_BIND_WEAK; break;
		case 0x11: s.sec = SEC_BSS; s.bind = PC_BIND_WEAK; break;
		case 0x0E: s.sec = SEC_NONE; s.bind = PC_BIND_WEAK; break;
		case 0x0D: continue; /* weak undefined */
		default:
			switch (type & 0x1E) {
			case 0x02: s.sec = SEC_NONE; break;
			case 0x04: s.sec = SEC_TEXT; break;
			case 0x06: s.sec = SEC_DATA; break;
			case 0x08: s.sec = SEC_BSS; break;
			default: continue; /* undefined, indirect, common, sets, warnings */
			}
		}
		if (strx < 4 || strx >= strsize)
			return pc_stream_fail(c->s, PC_EFORMAT, (int64_t)r,
					      "a.out symbol %zu names string offset %lu; expected 4..%lu",
					      i, (unsigned long)strx,
					      (unsigned long)(strsize ? strsize - 1 : 0));
		nm = (const char *)c->buf + stroff + strx;
		nl = strnlen(nm, strsize - strx);
		if (nl == strsize - strx)
			return pc_stream_fail(c->s, PC_EFORMAT, (int64_t)(stroff + strx),
					      "a.out symbol name is not NUL-terminated inside the string table");
		s.name = decode_name((const unsigned char *)nm, nl, &dummy);
		if (!s.name)
			return nomem(c);
		if (s.name[0] == '\0') {
			free(s.name);
			continue;
		}
		s.file_off = r;
		s.value = value;
		s.type = (uint16_t)(T_DEFINED |
			  (s.bind == PC_BIND_GLOBAL ? T_GLOBAL : 0) |
			  (s.sec == SEC_TEXT ? T_TEXT : s.sec == SEC_DATA ? T_DATA :
			   s.sec == SEC_BSS ? T_BSS : T_EQUATED));
		s.local_label = s.name[0] == '.' && s.name[1] == 'L';
		s.marker = is_marker_name(s.name);
		if (push_sym(c, &s) != PC_OK) {
			free(s.name);
			return nomem(c);
		}
	}
	return PC_OK;
}

/* ------------------------------------------------------------------ */
/* MiNT PRGELF                                                         */

static int parse_prgelf(gd_ctx *c, uint64_t eh)
{
	uint32_t shoff;
	uint16_t shentsize, shnum;
	uint64_t symsh = 0;
	int found = 0;
	if (eh + 52 > c->len)
		return pc_stream_fail(c->s, PC_ETRUNC, (int64_t)eh,
				      "expected a 52-byte ELF header at 0x%llx (PRGELF)",
				      (unsigned long long)eh);
	if (memcmp(c->buf + eh, "\177ELF", 4) != 0 || c->buf[eh + 4] != 1 ||
	    c->buf[eh + 5] != 2)
		return pc_stream_fail(c->s, PC_EFORMAT, (int64_t)eh,
				      "expected a 32-bit big-endian ELF header at 0x%llx (PRGELF)",
				      (unsigned long long)eh);
	shoff = be32(c, eh + 32);
	shentsize = be16(c, eh + 46);
	shnum = be16(c, eh + 48);
	if (shnum && shentsize < 40)
		return pc_stream_fail(c->s, PC_EFORMAT, (int64_t)(eh + 46),
				      "ELF section header size %u is below 40", shentsize);
	/* Section offsets count from the start of the file (Hatari). */
	if ((uint64_t)shoff + (uint64_t)shnum * shentsize > c->len)
		return pc_stream_fail(c->s, PC_ETRUNC, (int64_t)(eh + 32),
				      "ELF section headers (%u at 0x%lx) extend beyond the end of the file",
				      shnum, (unsigned long)shoff);
	for (unsigned k = 0; k < shnum; k++) {
		uint64_t sh = shoff + (uint64_t)k * shentsize;
		if (be32(c, sh + 4) == 2 /* SHT_SYMTAB */) {
			symsh = sh;
			found = 1;
			break;
		}
	}
	if (!found)
		return pc_stream_fail(c->s, PC_EFORMAT, (int64_t)eh,
				      "PRGELF executable has no .symtab section (stripped); no symbols to read");
	{
		uint32_t so = be32(c, symsh + 16), ssz = be32(c, symsh + 20);
		uint32_t link = be32(c, symsh + 24);
		uint64_t strsh;
		uint32_t stro, strsz;
		if (link >= shnum)
			return pc_stream_fail(c->s, PC_EFORMAT, (int64_t)(symsh + 24),
					      "ELF .symtab links to section %lu of %u",
					      (unsigned long)link, shnum);
		strsh = shoff + (uint64_t)link * shentsize;
		stro = be32(c, strsh + 16);
		strsz = be32(c, strsh + 20);
		if ((uint64_t)so + ssz > c->len || (uint64_t)stro + strsz > c->len)
			return pc_stream_fail(c->s, PC_ETRUNC, (int64_t)(symsh + 16),
					      "ELF symbol or string table extends beyond the end of the file");
		for (uint64_t r = so; r + 16 <= (uint64_t)so + ssz; r += 16) {
			uint32_t nm = be32(c, r), value = be32(c, r + 4);
			unsigned info = c->buf[r + 12], bind = info >> 4, typ = info & 15;
			unsigned shndx = be16(c, r + 14);
			gd_sym s;
			size_t nl;
			int dummy;
			memset(&s, 0, sizeof s);
			if (nm == 0 || typ == 3 /* SECTION */ || typ == 4 /* FILE */)
				continue;
			if (typ > 2 && typ != 5)
				continue;
			if (shndx == 0 || shndx == 0xFFF2 /* COMMON */)
				continue;
			if (nm >= strsz)
				return pc_stream_fail(c->s, PC_EFORMAT, (int64_t)r,
						      "ELF symbol names string offset %lu beyond the %lu-byte string table",
						      (unsigned long)nm, (unsigned long)strsz);
			nl = strnlen((const char *)c->buf + stro + nm, strsz - nm);
			if (shndx == 0xFFF1) {
				s.sec = SEC_NONE;
			} else if (shndx < shnum) {
				uint64_t sh = shoff + (uint64_t)shndx * shentsize;
				uint32_t shtype = be32(c, sh + 4), flags = be32(c, sh + 8);
				if (shtype == 8)
					s.sec = SEC_BSS;
				else if (flags & 4)
					s.sec = SEC_TEXT;
				else
					s.sec = SEC_DATA;
			} else {
				continue;
			}
			s.bind = bind == 1 ? PC_BIND_GLOBAL : bind == 2 ? PC_BIND_WEAK : PC_BIND_LOCAL;
			s.name = decode_name(c->buf + stro + nm, nl, &dummy);
			if (!s.name)
				return nomem(c);
			s.file_off = r;
			s.value = value;
			s.type = (uint16_t)(T_DEFINED |
				  (s.bind == PC_BIND_GLOBAL ? T_GLOBAL : 0) |
				  (s.sec == SEC_TEXT ? T_TEXT : s.sec == SEC_DATA ? T_DATA :
				   s.sec == SEC_BSS ? T_BSS : T_EQUATED));
			s.local_label = s.name[0] == '.' && s.name[1] == 'L';
			s.marker = is_marker_name(s.name);
			if (typ == 2)
				s.flags |= PC_SYMF_FUNC;
			if (push_sym(c, &s) != PC_OK) {
				free(s.name);
				return nomem(c);
			}
		}
	}
	return PC_OK;
}

/* ------------------------------------------------------------------ */
/* classification, duplicates, regions                                 */

/* Lower rank = preferred name for an address shared by several text
 * symbols (research 2.7, made total so the choice is deterministic). */
static int name_rank(const gd_sym *s)
{
	int r = 0;
	if (s->marker)
		r += 8;
	if (s->local_label)
		r += 4;
	if (s->name[0] == '~')
		r += 2; /* Alcyon ~~func twin of _func */
	if (s->bind != PC_BIND_GLOBAL)
		r += 1;
	return r;
}

static int better_name(const gd_sym *a, const gd_sym *b)
{
	int ra = name_rank(a), rb = name_rank(b);
	size_t la, lb;
	if (ra != rb)
		return ra < rb;
	la = strlen(a->name);
	lb = strlen(b->name);
	if (la != lb)
		return la < lb;
	return strcmp(a->name, b->name) < 0;
}

static void sort_targets(gd_sym *syms, size_t *idx, size_t n)
{
	/* stable bottom-up merge sort by address (slot order breaks ties) */
	size_t *tmp;
	if (n < 2)
		return;
	tmp = malloc(n * sizeof *tmp);
	if (!tmp) {
		/* fall back to insertion sort (stable) */
		for (size_t i = 1; i < n; i++) {
			size_t v = idx[i], j = i;
			while (j > 0 && syms[idx[j - 1]].addr > syms[v].addr) {
				idx[j] = idx[j - 1];
				j--;
			}
			idx[j] = v;
		}
		return;
	}
	for (size_t width = 1; width < n; width *= 2) {
		for (size_t lo = 0; lo < n; lo += 2 * width) {
			size_t mid = lo + width < n ? lo + width : n;
			size_t hi = lo + 2 * width < n ? lo + 2 * width : n;
			size_t a = lo, b = mid, o = lo;
			while (a < mid && b < hi)
				tmp[o++] = syms[idx[b]].addr < syms[idx[a]].addr ? idx[b++] : idx[a++];
			while (a < mid)
				tmp[o++] = idx[a++];
			while (b < hi)
				tmp[o++] = idx[b++];
		}
		memcpy(idx, tmp, n * sizeof *idx);
	}
	free(tmp);
}

static int finish_symbols(gd_ctx *c)
{
	uint64_t t = c->tlen, d = c->dlen;
	size_t *idx = NULL, nt = 0;
	for (size_t i = 0; i < c->nsyms; i++) {
		gd_sym *s = &c->syms[i];
		switch (s->sec) {
		case SEC_TEXT:
			s->addr = s->value;
			s->kind = s->marker ? PC_SYM_OTHER : PC_SYM_TEXT;
			break;
		case SEC_DATA:
			s->addr = (uint64_t)s->value + (c->basis_is_section ? t : 0);
			s->kind = s->marker ? PC_SYM_OTHER : PC_SYM_DATA;
			break;
		case SEC_BSS:
			s->addr = (uint64_t)s->value + (c->basis_is_section ? t + d : 0);
			s->kind = s->marker ? PC_SYM_OTHER : PC_SYM_BSS;
			break;
		default:
			s->addr = s->value;
			s->kind = s->marker ? PC_SYM_OTHER : PC_SYM_ABS;
			break;
		}
		if (s->kind == PC_SYM_OTHER)
			s->flags |= PC_SYMF_NOATTR;
		if (s->kind == PC_SYM_TEXT && s->local_label && !c->locals_are_targets)
			s->flags |= PC_SYMF_NOATTR;
		if (s->kind == PC_SYM_TEXT && !(s->flags & PC_SYMF_NOATTR))
			nt++;
	}
	/* One preferred name per text address. */
	if (nt > 1) {
		size_t k = 0;
		idx = malloc(nt * sizeof *idx);
		if (!idx)
			return nomem(c);
		for (size_t i = 0; i < c->nsyms; i++)
			if (c->syms[i].kind == PC_SYM_TEXT && !(c->syms[i].flags & PC_SYMF_NOATTR))
				idx[k++] = i;
		sort_targets(c->syms, idx, nt);
		for (size_t i = 0; i < nt;) {
			size_t j = i + 1, best = idx[i];
			while (j < nt && c->syms[idx[j]].addr == c->syms[idx[i]].addr) {
				if (better_name(&c->syms[idx[j]], &c->syms[best]))
					best = idx[j];
				j++;
			}
			for (size_t m = i; m < j; m++)
				if (idx[m] != best)
					c->syms[idx[m]].flags |= PC_SYMF_NOATTR;
			i = j;
		}
		free(idx);
	}
	return PC_OK;
}

static const char *sec_name(gd_sec s)
{
	switch (s) {
	case SEC_TEXT: return "TEXT";
	case SEC_DATA: return "DATA";
	case SEC_BSS: return "BSS";
	default: return "ABS";
	}
}

static int add_region(gd_ctx *c, uint64_t lo, uint64_t hi, pc_region_class cls,
		      const char *label)
{
	pc_region r;
	if (hi <= lo)
		return PC_OK;
	memset(&r, 0, sizeof r);
	r.segment = PC_NOSEG;
	r.low = lo;
	r.high = hi;
	r.cls = cls;
	r.label = label;
	return pc_profile_add_region(c->p, &r);
}

/* Adds [lo, hi) minus the program's [plo, phi) as a system region. */
static int add_sys(gd_ctx *c, uint64_t lo, uint64_t hi, uint64_t plo,
		   uint64_t phi, const char *label)
{
	int st;
	if (phi <= lo || plo >= hi)
		return add_region(c, lo, hi, PC_REGION_SYSTEM, label);
	st = add_region(c, lo, plo, PC_REGION_SYSTEM, label);
	if (st == PC_OK)
		st = add_region(c, phi, hi, PC_REGION_SYSTEM, label);
	return st;
}

static int emit(gd_ctx *c)
{
	uint64_t base = c->has_load ? c->load : 0;
	uint64_t t = c->tlen, d = c->dlen, b = c->blen;
	int st;
	for (size_t i = 0; i < c->nsyms; i++) {
		const gd_sym *s = &c->syms[i];
		pc_symbol ps;
		memset(&ps, 0, sizeof ps);
		ps.name = s->name;
		ps.section = sec_name(s->sec);
		ps.segment = PC_NOSEG;
		ps.address = s->addr + (s->sec != SEC_NONE ? base : 0);
		ps.kind = s->kind;
		ps.binding = s->bind;
		ps.flags = s->flags;
		st = pc_profile_add_symbol(c->p, &ps);
		if (st != PC_OK)
			return st;
	}
	st = add_region(c, base, base + t, PC_REGION_APPLICATION, "TEXT");
	if (st == PC_OK)
		st = add_region(c, base + t, base + t + d + b, PC_REGION_APPLICATION,
				"DATA+BSS");
	if (st != PC_OK || !c->has_load)
		return st;
	{
		/* The Atari memory map around the program: everything that
		 * is not the program is "sys" (Rowley's "Samples in sys"). */
		uint64_t plo = base, phi = base + t + d + b;
		static const struct {
			uint64_t lo, hi;
			const char *label;
		} map[] = {
			{0x000000, 0xE00000, "RAM"},
			{0xE00000, 0xF00000, "TOS ROM"},
			{0xF00000, 0xFA0000, "I/O"},
			{0xFA0000, 0xFC0000, "cartridge"},
			{0xFC0000, 0xFF0000, "TOS ROM"},
			{0xFF0000, 0x1000000, "I/O"},
			{0x1000000, 0x100000000ull, "TT-RAM"},
		};
		for (size_t k = 0; k < sizeof map / sizeof map[0]; k++) {
			st = add_sys(c, map[k].lo, map[k].hi, plo, phi, map[k].label);
			if (st != PC_OK)
				return st;
		}
	}
	return PC_OK;
}

/* ------------------------------------------------------------------ */
/* loader entry points                                                 */

static int gemdos_probe(const unsigned char *head, size_t len,
			const char *filename)
{
	uint32_t res1;
	uint16_t absflag;
	int bid;
	(void)filename;
	if (len < GD_HDR || pc_get_u16(head, PC_ENDIAN_BIG) != GD_MAGIC)
		return 0;
	bid = 16;
	res1 = pc_get_u32(head + 0x12, PC_ENDIAN_BIG);
	absflag = pc_get_u16(head + 0x1A, PC_ENDIAN_BIG);
	if (res1 == 0 || res1 == 0x4D694E54u || (res1 & 0xFFFFFF00u) == 0x454C4600u)
		bid += 8;
	if (absflag <= 1)
		bid += 4;
	return bid;
}

static int parse_options(gd_ctx *c)
{
	const char *v;
	uint64_t u;
	int given = 0;
	int st = pc_options_get_u64(&u, &given, c->opts, "load-address");
	if (st < 0)
		return pc_stream_fail(c->s, PC_EUSAGE, -1,
				      "option load-address=%s is not a number",
				      pc_options_get(c->opts, "load-address"));
	if (given) {
		if (u > 0xFFFFFFFFull)
			return pc_stream_fail(c->s, PC_EUSAGE, -1,
					      "load-address 0x%llx is beyond the 32-bit Atari address space",
					      (unsigned long long)u);
		c->has_load = 1;
		c->load = u;
	}
	v = pc_options_get(c->opts, "gemdos-locals");
	c->locals_are_targets = v && strcmp(v, "0") != 0 && strcmp(v, "no") != 0;
	return PC_OK;
}

static int gemdos_load(pc_profile *p, pc_stream *s, const pc_options *opts)
{
	gd_ctx c;
	unsigned char *buf = NULL;
	uint64_t len = 0, symoff, symend;
	const char *basis_opt, *reloc_opt;
	int st, check_relocs;
	memset(&c, 0, sizeof c);
	c.p = p;
	c.s = s;
	c.opts = opts;
	st = parse_options(&c);
	if (st != PC_OK)
		return st;
	basis_opt = pc_options_get(opts, "gemdos-basis");
	if (basis_opt && strcmp(basis_opt, "auto") != 0 && strcmp(basis_opt, "text") != 0 &&
	    strcmp(basis_opt, "section") != 0)
		return pc_stream_fail(s, PC_EUSAGE, -1,
				      "option gemdos-basis=%s; expected auto, text or section",
				      basis_opt);
	reloc_opt = pc_options_get(opts, "gemdos-relocations");
	if (reloc_opt && strcmp(reloc_opt, "check") != 0 && strcmp(reloc_opt, "ignore") != 0)
		return pc_stream_fail(s, PC_EUSAGE, -1,
				      "option gemdos-relocations=%s; expected check or ignore",
				      reloc_opt);
	check_relocs = !reloc_opt || strcmp(reloc_opt, "check") == 0;

	st = read_all(s, &buf, &len);
	if (st != PC_OK)
		return st;
	c.buf = buf;
	c.len = len;
	if (len < GD_HDR) {
		st = pc_stream_fail(s, PC_ETRUNC, (int64_t)len,
				    "expected a 28-byte GEMDOS header, found %llu bytes",
				    (unsigned long long)len);
		goto out;
	}
	if (be16(&c, 0) != GD_MAGIC) {
		st = pc_stream_fail(s, PC_EFORMAT, 0,
				    "expected the GEMDOS magic 0x601a, found 0x%04x",
				    be16(&c, 0));
		goto out;
	}
	c.tlen = be32(&c, 0x02);
	c.dlen = be32(&c, 0x06);
	c.blen = be32(&c, 0x0A);
	c.slen = be32(&c, 0x0E);
	c.res1 = be32(&c, 0x12);
	c.prgflags = be32(&c, 0x16);
	c.absflag = be16(&c, 0x1A);
	symoff = GD_HDR + (uint64_t)c.tlen + c.dlen;
	if (symoff > len) {
		st = pc_stream_fail(s, PC_ETRUNC, 0x02,
				    "TEXT (%lu bytes) and DATA (%lu bytes) extend beyond the end of the file (%llu bytes)",
				    (unsigned long)c.tlen, (unsigned long)c.dlen,
				    (unsigned long long)len);
		goto out;
	}
	symend = symoff + c.slen;

	if (c.res1 == 0x4D694E54u && len >= 0x100 &&
	    ((be32(&c, 0x1C) == 0x283A001Au && be32(&c, 0x20) == 0x4EFB48FAu) ||
	     (be32(&c, 0x1C) == 0x203A001Au && be32(&c, 0x20) == 0x4EFB08FAu))) {
		/* GCC/MiNT a.out inside a GEMDOS PRG (research 4.1). */
		uint32_t a_text = be32(&c, 0x28), a_data = be32(&c, 0x2C);
		uint32_t a_syms = be32(&c, 0x34), a_trsize = be32(&c, 0x3C);
		uint32_t a_drsize = be32(&c, 0x40), tparel = be32(&c, 0x44);
		uint32_t symfmt = be32(&c, 0x50);
		uint64_t aoff = 0x100 + (uint64_t)a_text + a_data + a_trsize + a_drsize;
		c.flavour = "MiNT a.out";
		if ((uint64_t)a_text + 0xE4 != c.tlen)
			pc_profile_warn(p, "%s: MiNT a.out text size 0x%lx + 0xe4 differs from the GEMDOS TEXT size 0x%lx",
					pc_stream_name(s), (unsigned long)a_text,
					(unsigned long)c.tlen);
		if (c.slen == 0) {
			st = pc_stream_fail(s, PC_EFORMAT, 0x0E,
					    "MiNT executable has no symbol table (ph_slen is 0; stripped)");
			goto out;
		}
		if (aoff + c.slen > len) {
			st = pc_stream_fail(s, PC_ETRUNC, 0x0E,
					    "symbol table (%lu bytes at 0x%llx) extends beyond the end of the file (%llu bytes)",
					    (unsigned long)c.slen, (unsigned long long)aoff,
					    (unsigned long long)len);
			goto out;
		}
		if (check_relocs && c.absflag == 0) {
			st = check_relocations(&c, tparel, "MiNT g_tparel_pos");
			if (st != PC_OK)
				goto out;
		}
		if (symfmt == 0) {
			if (a_syms > c.slen) {
				st = pc_stream_fail(s, PC_EFORMAT, 0x34,
						    "a.out a_syms %lu exceeds the symbol area of %lu bytes",
						    (unsigned long)a_syms, (unsigned long)c.slen);
				goto out;
			}
			st = parse_aout(&c, aoff, a_syms, c.slen - a_syms);
			c.basis_from_file = 1;
		} else {
			c.flavour = "MiNT DRI";
			st = parse_dri(&c, aoff, c.slen);
		}
		if (st != PC_OK)
			goto out;
	} else if ((c.res1 & 0xFFFFFF00u) == 0x454C4600u && (c.res1 & 0xFF) >= 0x28) {
		c.flavour = "PRGELF";
		st = parse_prgelf(&c, c.res1 & 0xFF);
		if (st != PC_OK)
			goto out;
		c.basis_from_file = 1;
	} else {
		st = read_symbol_area(&c, symoff, symend, check_relocs);
		if (st != PC_OK)
			goto out;
	}

	if (c.nsyms == 0) {
		st = pc_stream_fail(s, PC_EFORMAT, 0x0E,
				    "GEMDOS executable's %s symbol table holds no named symbols",
				    c.flavour);
		goto out;
	}
	if (c.basis_from_file) {
		c.basis_is_section = 0;
	} else {
		vote_basis(&c);
		if (basis_opt && strcmp(basis_opt, "text") == 0)
			c.basis_is_section = 0;
		else if (basis_opt && strcmp(basis_opt, "section") == 0)
			c.basis_is_section = 1;
		pc_profile_note(p, "%s: DATA/BSS values counted from %s (%zu DATA/BSS symbols: %zu fit text-based, %zu fit section-relative%s)",
				pc_stream_name(s),
				c.basis_is_section ? "their own segment" : "TEXT start",
				c.vote_total, c.vote_text, c.vote_section,
				basis_opt && strcmp(basis_opt, "auto") != 0 ? "; set by option gemdos-basis" : "");
	}
	st = finish_symbols(&c);
	if (st != PC_OK)
		goto out;
	st = emit(&c);
	if (st != PC_OK)
		goto out;
	pc_profile_note(p, "%s: GEMDOS executable, %s symbols: TEXT 0x%lx, DATA 0x%lx, BSS 0x%lx bytes; %zu symbols, %llu relocations%s",
			pc_stream_name(s), c.flavour, (unsigned long)c.tlen,
			(unsigned long)c.dlen, (unsigned long)c.blen, c.nsyms,
			(unsigned long long)c.nfixups,
			c.qdb1_names ? "; full names from the Pure C QDB1 block" : "");
	pc_profile_set_target(p, 4, PC_ENDIAN_BIG);
	if (!pc_profile_program(p) || !pc_profile_program(p)[0]) {
		const char *nm = pc_stream_name(s);
		if (nm)
			pc_profile_set_program(p, pc_basename(nm));
	}
out:
	free_syms(&c);
	free(buf);
	return st;
}

static const char *const gemdos_ext[] = {"prg", "tos", "ttp", "app", "acc",
					 "prx", "acx", "gtp", NULL};

static const pc_option_decl gemdos_options[] = {
	{"load-address", PC_OPTION_U64, NULL, "0",
	 "where TEXT was loaded (basepage + 0x100)"},
	{"gemdos-basis", PC_OPTION_ENUM, "auto,text,section", "auto",
	 "what symbol values are relative to"},
	{"gemdos-locals", PC_OPTION_STRING, NULL, "0",
	 "1: Devpac local labels are targets too"},
	{"gemdos-relocations", PC_OPTION_ENUM, "check,ignore", "check",
	 "check the relocation table"},
	{NULL, PC_OPTION_STRING, NULL, NULL, NULL},
};

const pc_loader pc_loader_gemdos = {
	.abi_version = PC_LOADER_ABI_VERSION,
	.name = "gemdos",
	.description = "Atari ST GEMDOS executable symbols (DRI/GST, SozobonX, Pure C, Mark Williams C, MiNT a.out, PRGELF)",
	.roles = PC_ROLE_SYMBOLS,
	.extensions = gemdos_ext,
	.probe = gemdos_probe,
	.load = gemdos_load,
	.order = 10,
	.options = gemdos_options,
};
