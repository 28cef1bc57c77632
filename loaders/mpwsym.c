/* mpwsym.c - Apple MPW .SYM symbol files (versions 3.2 and 3.3), the parts
 * a profiler needs: CODE segments, procedures and their statements.
 * Version 3.3's 46-byte module entry is also used for 3.2 files (BFD reads
 * module entries of 3.3 only; unverified for 3.2).  3.1, 3.4 and 3.5 use
 * other entry layouts and are refused.  No genuine .SYM file was found:
 * the tests use files written by tests/callgraph/mpwgen.py from this
 * description.
 *
 * Layout (Apple "SYM File Format, Version 3.4"; GNU BFD bfd/xsym.[ch];
 * research/dos-mpw-formats.md §4.3).  Big-endian.  The file is an array
 * of pages of dshb_page_size bytes; page 0 starts with the Disk Symbol
 * Header Block (154 bytes):
 *
 *   0  Pascal string "\pVersion 3.x" in 32 bytes
 *  32  u16 page size      34 u16 hash page   36 u16 root MTE
 *  38  u32 modification date
 *  42  13 table descriptors {u16 first page, u16 page count, u32 object
 *      count}: FRTE RTE MTE CMTE CVTE CSNTE CLTE CTTE TTE NTE TINFO FITE
 *      CONST
 * 146  file creator, 150 file type
 *
 * Entry k (1 .. count; entry 0 exists but is never used) of a table of
 * e-byte entries is at page first + k / (page_size / e), byte
 * (k mod (page_size / e)) * e: entries never straddle pages.
 *
 *   RTE   18 bytes: type[4], u16 resource number, u32 name, u16 first
 *                   MTE, u16 last MTE, u32 resource size
 *   MTE   46 bytes (3.3): u16 RTE index, u32 offset in the resource, u32
 *                   size, u8 kind (1 program, 3 procedure, 4 function,
 *                   ...), u8 scope, u16 parent, file reference(6), u32 end,
 *                   u32 name @24, ..., u32 first CSNTE @38, u32 last @42
 *   CSNTE  8 bytes: u16 MTE index (0xffff end of list, 0xfffe source file
 *                   change), u16 offset in the module, u32 file delta
 *   NTE: Pascal strings; name index n is byte 2n of the table.
 *
 * Each procedure, function or program module in a CODE resource becomes a
 * text symbol (segment = resource number, address = offset in the
 * resource, size = module size), each CODE resource a region labelled
 * with its name (used for "1/Main -> 3/TransSkel" in call graphs), and
 * each statement a call-site marker "<procedure>.(<n>)" (PC_SYMF_SITE),
 * n counting the module's statements from 1 as PrintProff numbered them
 * (inference: the file holds no statement numbers).
 */
#include "internal.h"

#include <stdlib.h>
#include <string.h>

#define SYM_MAX_SIZE ((uint64_t)256 << 20)
#define HDR_SIZE 154
#define RTE_SIZE 18
#define MTE_SIZE 46
#define CSNTE_SIZE 8
#define END_OF_LIST 0xffffu
#define FILE_CHANGE 0xfffeu

enum { T_FRTE, T_RTE, T_MTE, T_CMTE, T_CVTE, T_CSNTE, T_CLTE, T_CTTE, T_TTE,
       T_NTE, T_TINFO, T_FITE, T_CONST, T_COUNT };
static const char *const table_names[T_COUNT] = {
	"FRTE", "RTE", "MTE", "CMTE", "CVTE", "CSNTE", "CLTE", "CTTE", "TTE",
	"NTE", "TINFO", "FITE", "CONST",
};

typedef struct table {
	uint32_t first, pages, count;
} table;

typedef struct symfile {
	const unsigned char *b;
	size_t len;
	uint32_t page;
	table t[T_COUNT];
	pc_stream *s;
} symfile;

static int sym_probe(const unsigned char *h, size_t n, const char *name)
{
	(void)name;
	if (n < 12 || h[0] != 11 || memcmp(h + 1, "Version 3.", 10) != 0 ||
	    h[11] < '1' || h[11] > '5')
		return 0;
	return 96;
}

/* Byte offset of entry k of table t with e-byte entries, checked against
 * the table's pages and the file. */
static int entry_at(symfile *f, int t, size_t e, uint32_t k, size_t *off)
{
	const table *tb = &f->t[t];
	uint32_t per = f->page / (uint32_t)e;
	if (per == 0)
		return pc_stream_fail(f->s, PC_EFORMAT, 32,
				      "page size %u is smaller than a %s entry (%zu bytes)",
				      f->page, table_names[t], e);
	if (k > tb->count)
		return pc_stream_fail(f->s, PC_EFORMAT, 42 + 8 * t + 4,
				      "%s index %u is past the table's %u entries",
				      table_names[t], k, tb->count);
	uint64_t pg = (uint64_t)k / per;
	if (pg >= tb->pages)
		return pc_stream_fail(f->s, PC_EFORMAT, 42 + 8 * t + 2,
				      "%s entry %u needs page %llu of the table, which "
				      "has %u pages", table_names[t], k,
				      (unsigned long long)pg + 1, tb->pages);
	uint64_t o = ((uint64_t)tb->first + pg) * f->page + (uint64_t)(k % per) * e;
	if (o + e > f->len)
		return pc_stream_fail(f->s, PC_ETRUNC, (int64_t)f->len,
				      "truncated page: %s entry %u at byte %llu needs "
				      "%zu bytes, the file ends at byte %zu",
				      table_names[t], k, (unsigned long long)o, e,
				      f->len);
	*off = (size_t)o;
	return PC_OK;
}

/* Name index n -> NUL-terminated copy in buf. */
static int name_at(symfile *f, uint32_t n, int64_t field, char *buf, size_t cap)
{
	const table *tb = &f->t[T_NTE];
	uint64_t size = (uint64_t)tb->pages * f->page;
	uint64_t rel = (uint64_t)n * 2;
	if (rel >= size)
		return pc_stream_fail(f->s, PC_EFORMAT, field,
				      "name index %u is outside the name table (%llu bytes)",
				      n, (unsigned long long)size);
	uint64_t o = (uint64_t)tb->first * f->page + rel;
	if (o >= f->len)
		return pc_stream_fail(f->s, PC_ETRUNC, (int64_t)f->len,
				      "truncated page: name %u at byte %llu, the file "
				      "ends at byte %zu", n, (unsigned long long)o,
				      f->len);
	unsigned l = f->b[o];
	if (rel + 1 + l > size)
		return pc_stream_fail(f->s, PC_EFORMAT, (int64_t)o,
				      "name of %u bytes runs past the name table", l);
	if (o + 1 + l > f->len)
		return pc_stream_fail(f->s, PC_ETRUNC, (int64_t)f->len,
				      "truncated page: name at byte %llu needs %u bytes, "
				      "the file ends at byte %zu",
				      (unsigned long long)o, l + 1, f->len);
	if (l >= cap)
		l = (unsigned)cap - 1;
	for (unsigned i = 0; i < l; i++) {
		unsigned char c = f->b[o + 1 + i];
		if (c < 0x20 || c == 0x7f)
			return pc_stream_fail(f->s, PC_EFORMAT, (int64_t)(o + 1 + i),
					      "control byte 0x%02x in a name", c);
	}
	memcpy(buf, f->b + o + 1, l);
	buf[l] = '\0';
	return PC_OK;
}

typedef struct seginfo {
	uint16_t number;
	uint32_t size;
	int code;
} seginfo;

static int sym_load(pc_profile *p, pc_stream *s, const pc_options *o)
{
	(void)o;
	void *vbuf;
	size_t len;
	int rc = pc_stream_read_all(&vbuf, &len, s, SYM_MAX_SIZE);
	if (rc)
		return rc;
	symfile f;
	memset(&f, 0, sizeof f);
	f.b = vbuf;
	f.len = len;
	f.s = s;
	seginfo *seg = NULL;
	char name[256], sname[300];
	if (len < HDR_SIZE) {
		rc = pc_stream_fail(s, PC_ETRUNC, (int64_t)len,
				    "truncated page: the header block needs %d bytes, "
				    "the file has %zu", HDR_SIZE, len);
		goto out;
	}
	if (f.b[0] != 11 || memcmp(f.b + 1, "Version 3.", 10) != 0) {
		rc = pc_stream_fail(s, PC_EFORMAT, 0,
				    "expected a .SYM version string \"Version 3.x\"");
		goto out;
	}
	if (f.b[11] != '2' && f.b[11] != '3') {
		rc = pc_stream_fail(s, PC_EUNSUPPORTED, 11,
				    ".SYM version 3.%c is not supported (3.2 and 3.3 are)",
				    f.b[11]);
		goto out;
	}
	f.page = pc_get_u16(f.b + 32, PC_ENDIAN_BIG);
	if (f.page < HDR_SIZE) {
		rc = pc_stream_fail(s, PC_EFORMAT, 32,
				    "page size %u is smaller than the %d-byte header block",
				    f.page, HDR_SIZE);
		goto out;
	}
	for (int t = 0; t < T_COUNT; t++) {
		const unsigned char *d = f.b + 42 + 8 * t;
		f.t[t].first = pc_get_u16(d, PC_ENDIAN_BIG);
		f.t[t].pages = pc_get_u16(d + 2, PC_ENDIAN_BIG);
		f.t[t].count = pc_get_u32(d + 4, PC_ENDIAN_BIG);
		if (f.t[t].pages && f.t[t].first == 0) {
			rc = pc_stream_fail(s, PC_EFORMAT, 42 + 8 * t,
					    "%s table starts on page 0, the header's page",
					    table_names[t]);
			goto out;
		}
	}
	/* whole pages of the tables we read must be present */
	static const int needed[] = {T_RTE, T_MTE, T_CSNTE, T_NTE};
	for (size_t i = 0; i < sizeof needed / sizeof *needed; i++) {
		const table *tb = &f.t[needed[i]];
		uint64_t end = ((uint64_t)tb->first + tb->pages) * f.page;
		if (tb->pages && end > len) {
			uint64_t last = (uint64_t)tb->first + tb->pages - 1;
			rc = pc_stream_fail(s, PC_ETRUNC, (int64_t)len,
					    "truncated page: %s table page %llu ends at "
					    "byte %llu, the file has %zu bytes",
					    table_names[needed[i]],
					    (unsigned long long)last,
					    (unsigned long long)end, len);
			goto out;
		}
	}
	/* counts must fit the tables' pages (that bounds every loop and
	 * allocation below by the file's size) */
	static const struct { int t; size_t size; } sized[] = {
		{T_RTE, RTE_SIZE}, {T_MTE, MTE_SIZE}, {T_CSNTE, CSNTE_SIZE}};
	for (size_t i = 0; i < sizeof sized / sizeof *sized; i++) {
		const table *tb = &f.t[sized[i].t];
		uint64_t cap = (uint64_t)tb->pages * (f.page / sized[i].size);
		if (tb->count > 0 && tb->count >= cap) {
			rc = pc_stream_fail(s, PC_EFORMAT, 42 + 8 * sized[i].t + 4,
					    "%s table claims %u entries, its %u pages "
					    "hold %llu", table_names[sized[i].t],
					    tb->count, tb->pages,
					    (unsigned long long)(cap ? cap - 1 : 0));
			goto out;
		}
	}
	/* resources */
	uint32_t nres = f.t[T_RTE].count;
	seg = calloc((size_t)nres + 1, sizeof *seg);
	if (!seg) {
		rc = pc_profile_fail(p, PC_ENOMEM, "out of memory");
		goto out;
	}
	for (uint32_t k = 1; k <= nres; k++) {
		size_t off;
		if ((rc = entry_at(&f, T_RTE, RTE_SIZE, k, &off)))
			goto out;
		const unsigned char *r = f.b + off;
		seg[k].code = memcmp(r, "CODE", 4) == 0;
		seg[k].number = pc_get_u16(r + 4, PC_ENDIAN_BIG);
		seg[k].size = pc_get_u32(r + 14, PC_ENDIAN_BIG);
		if ((rc = name_at(&f, pc_get_u32(r + 6, PC_ENDIAN_BIG),
				  (int64_t)off + 6, name, sizeof name)))
			goto out;
		if (!seg[k].code)
			continue;
		pc_region reg;
		memset(&reg, 0, sizeof reg);
		reg.segment = seg[k].number;
		reg.low = 0;
		reg.high = seg[k].size;
		reg.cls = PC_REGION_APPLICATION;
		reg.label = name;
		if ((rc = pc_profile_add_region(p, &reg)))
			goto out;
	}
	/* modules and their statements */
	uint32_t nmod = f.t[T_MTE].count;
	for (uint32_t k = 1; k <= nmod; k++) {
		size_t off;
		if ((rc = entry_at(&f, T_MTE, MTE_SIZE, k, &off)))
			goto out;
		const unsigned char *m = f.b + off;
		uint32_t rte = pc_get_u16(m, PC_ENDIAN_BIG);
		uint32_t roff = pc_get_u32(m + 2, PC_ENDIAN_BIG);
		uint32_t size = pc_get_u32(m + 6, PC_ENDIAN_BIG);
		unsigned kind = m[10];
		uint32_t first = pc_get_u32(m + 38, PC_ENDIAN_BIG);
		uint32_t last = pc_get_u32(m + 42, PC_ENDIAN_BIG);
		if (kind != 1 && kind != 3 && kind != 4)
			continue; /* units, data, blocks: not procedures */
		if (rte == 0 || rte > nres) {
			rc = pc_stream_fail(s, PC_EFORMAT, (int64_t)off,
					    "module %u names resource %u, the file has %u",
					    k, rte, nres);
			goto out;
		}
		if (!seg[rte].code)
			continue;
		if ((rc = name_at(&f, pc_get_u32(m + 24, PC_ENDIAN_BIG),
				  (int64_t)off + 24, name, sizeof name)))
			goto out;
		if ((uint64_t)roff + size > seg[rte].size) {
			rc = pc_stream_fail(s, PC_EFORMAT, (int64_t)off + 2,
					    "module '%s' at offset 0x%x, size 0x%x, lies "
					    "outside CODE segment %u (0x%x bytes)",
					    name, roff, size, seg[rte].number,
					    seg[rte].size);
			goto out;
		}
		pc_symbol sym;
		memset(&sym, 0, sizeof sym);
		sym.name = name;
		sym.segment = seg[rte].number;
		sym.address = roff;
		sym.size = size;
		sym.kind = PC_SYM_TEXT;
		sym.binding = m[11] ? PC_BIND_GLOBAL : PC_BIND_LOCAL;
		sym.flags = PC_SYMF_FUNC;
		if ((rc = pc_profile_add_symbol(p, &sym)))
			goto out;
		if (first == 0 && last == 0)
			continue;
		if (first == 0 || first > last || last > f.t[T_CSNTE].count) {
			rc = pc_stream_fail(s, PC_EFORMAT, (int64_t)off + 38,
					    "module '%s' has statements %u..%u, the "
					    "statement table has %u", name, first, last,
					    f.t[T_CSNTE].count);
			goto out;
		}
		uint32_t stmt = 0;
		for (uint32_t c = first; c <= last; c++) {
			size_t co;
			if ((rc = entry_at(&f, T_CSNTE, CSNTE_SIZE, c, &co)))
				goto out;
			uint32_t type = pc_get_u16(f.b + co, PC_ENDIAN_BIG);
			if (type == END_OF_LIST)
				break;
			if (type == FILE_CHANGE || type != k)
				continue;
			uint32_t mo = pc_get_u16(f.b + co + 2, PC_ENDIAN_BIG);
			if (mo >= size && !(mo == 0 && size == 0)) {
				rc = pc_stream_fail(s, PC_EFORMAT, (int64_t)co + 2,
						    "statement at offset 0x%x lies outside "
						    "module '%s' (0x%x bytes)", mo, name, size);
				goto out;
			}
			stmt++;
			snprintf(sname, sizeof sname, "%s.(%u)", name, stmt);
			pc_symbol st;
			memset(&st, 0, sizeof st);
			st.name = sname;
			st.segment = seg[rte].number;
			st.address = (uint64_t)roff + mo;
			st.kind = PC_SYM_OTHER;
			st.binding = PC_BIND_LOCAL;
			st.flags = PC_SYMF_NOATTR | PC_SYMF_SITE;
			if ((rc = pc_profile_add_symbol(p, &st)))
				goto out;
		}
	}
out:
	free(seg);
	pc_free(vbuf);
	return rc;
}

static const char *const sym_ext[] = {".SYM", ".sym", NULL};

const pc_loader pc_loader_mpwsym = {
	PC_LOADER_ABI_VERSION,
	"mpwsym",
	"Apple MPW .SYM symbol file (versions 3.2, 3.3): procedures, statements, segments",
	PC_ROLE_SYMBOLS,
	sym_ext,
	sym_probe,
	sym_load,
	0,
	NULL, /* options: none */
};
