/* dwline.c - a unit's .debug_line table read without libdw, for the
 * load of a pc_dwarf (dwarf.c scan_units).
 *
 * Why this exists beside libdw: libdw 0.188's dwarf_getsrclines
 * allocates each row of a table on its own (a malloc a row past the
 * first 2,048) and sorts the whole table with qsort, and every unit's
 * table is read at load.  On the line report of a 20,000-function
 * program that was 187 M of 530 M instructions, and glibc 20 M more
 * consolidating the freed rows (bench/README.md, "Line report against
 * gprof -l": the figures before and after this reader).  Here the rows
 * go into one array in the order the program gives them (addresses go
 * up within a sequence), sorted (a stable radix sort) only when the
 * sequences come out of order.  For the load (pc_dwl.drop_views) a row
 * is dropped as it is read when the next at its address, in its
 * sequence, replaces it (dwarf.c's line_at never returns it).
 *
 * libdw stays the general path: the rows must be libdw's own (same
 * addresses, files, lines, columns, is_stmt, end of sequence, in the
 * same order, the same quirks: the last row marks an end of sequence, a
 * file index past the table names no file).  Whatever is not read here
 * exactly as libdw reads it gives PC_EUNSUPPORTED, and dwarf.c asks
 * libdw for that unit: a version outside 2 to 5, a form outside the
 * usual ones (DW_FORM_strx needs the unit's string offsets), VLIW
 * op_index (maximum_operations_per_instruction > 1), DW_LNE_define_file,
 * NVIDIA's opcodes, a header or opcode libdw would refuse (lengths past
 * the section, a LEB128 number running off it, a value libdw's row
 * cannot hold).  tests/source/test_dwline.c compares every unit of many
 * files (gcc, clang, DWARF 2 to 5, compressed, big-endian, relocatable)
 * with libdw's rows. */
#include "dwline.h"

#include <stdlib.h>
#include <string.h>

#if PC_HAVE_DWARF
#include <gelf.h>
#endif

struct pc_dwl_dir {
	const char *s; /* NULL: no compilation directory (DWARF < 5) */
	size_t len;
};

enum {
	F_block2 = 0x03, F_block4 = 0x04, F_data2 = 0x05, F_data4 = 0x06,
	F_data8 = 0x07, F_string = 0x08, F_block = 0x09, F_block1 = 0x0a,
	F_data1 = 0x0b, F_flag = 0x0c, F_sdata = 0x0d, F_strp = 0x0e,
	F_udata = 0x0f, F_sec_offset = 0x17, F_data16 = 0x1e, F_line_strp = 0x1f
};
enum { LNCT_path = 1, LNCT_directory_index = 2 };

#define NOPE PC_EUNSUPPORTED

/* An unsigned LEB128 number of at most 10 bytes ending before end (else
 * libdw reads UINT64_MAX: not read here) */
static int uleb(const unsigned char **pp, const unsigned char *end, uint64_t *v)
{
	const unsigned char *p = *pp;
	uint64_t acc = 0;
	for (unsigned i = 0; i < 10 && p < end; i++) {
		unsigned char b = *p++;
		acc |= (uint64_t)(b & 0x7f) << (7 * i);
		if (!(b & 0x80)) {
			*pp = p;
			*v = acc;
			return 0;
		}
	}
	return -1;
}

/* a signed one of at most 9 bytes */
static int sleb(const unsigned char **pp, const unsigned char *end, int64_t *v)
{
	const unsigned char *p = *pp;
	uint64_t acc = 0;
	for (unsigned i = 0; i < 9 && p < end; i++) {
		unsigned char b = *p++;
		acc |= (uint64_t)(b & 0x7f) << (7 * i);
		if (!(b & 0x80)) {
			if (b & 0x40)
				acc |= ~(uint64_t)0 << (7 * (i + 1));
			*pp = p;
			*v = acc >> 63 ? -(int64_t)(~acc) - 1 : (int64_t)acc;
			return 0;
		}
	}
	return -1;
}

/* the low 32 bits, as libdw's int holds them (gcc's conversion, without
 * relying on it) */
static int64_t to_int32(int64_t v)
{
	uint32_t u = (uint32_t)(uint64_t)v;
	return u >= 0x80000000u ? (int64_t)u - 0x100000000 : (int64_t)u;
}

/* A string of a DWARF 5 entry: *s, and p past it. */
static int entry_string(const pc_dwl *t, unsigned form, const unsigned char **pp,
			const unsigned char *end, unsigned offsz, const char **s)
{
	const unsigned char *p = *pp;
	if (form == F_string) {
		const unsigned char *z = memchr(p, 0, (size_t)(end - p));
		if (!z)
			return NOPE;
		*s = (const char *)p;
		*pp = z + 1;
		return PC_OK;
	}
	if (form != F_strp && form != F_line_strp)
		return NOPE;
	const unsigned char *sec = form == F_strp ? t->str : t->line_str;
	size_t n = form == F_strp ? t->nstr : t->nline_str;
	if ((size_t)(end - p) < offsz || !sec)
		return NOPE;
	uint64_t off = offsz == 4 ? pc_get_u32(p, t->endian) : pc_get_u64(p, t->endian);
	/* (a section ending in a NUL has one after off) */
	if (off >= n || (sec[n - 1] && !memchr(sec + off, 0, n - off)))
		return NOPE;
	*s = (const char *)sec + off;
	*pp = p + offsz;
	return PC_OK;
}

/* The length of a value of form at p (libdw __libdw_form_val_len, for
 * the forms read here) */
static int form_skip(unsigned form, const unsigned char **pp, const unsigned char *end,
		     unsigned offsz, pc_endian en)
{
	const unsigned char *p = *pp;
	uint64_t n;
	size_t fixed = 0;
	switch (form) {
	case F_flag: case F_data1: fixed = 1; break;
	case F_data2: fixed = 2; break;
	case F_data4: fixed = 4; break;
	case F_data8: fixed = 8; break;
	case F_data16: fixed = 16; break;
	case F_strp: case F_line_strp: case F_sec_offset: fixed = offsz; break;
	case F_udata: case F_sdata:
		return uleb(pp, end, &n) ? NOPE : PC_OK;
	case F_string: {
		const unsigned char *z = memchr(p, 0, (size_t)(end - p));
		if (!z)
			return NOPE;
		*pp = z + 1;
		return PC_OK;
	}
	case F_block1: case F_block2: case F_block4: case F_block: {
		unsigned w = form == F_block1 ? 1 : form == F_block2 ? 2 : form == F_block4 ? 4 : 0;
		if (w) {
			if ((size_t)(end - p) < w)
				return NOPE;
			n = pc_get_uint(p, w, en);
			p += w;
		} else if (uleb(&p, end, &n)) {
			return NOPE;
		}
		if (n > (uint64_t)(end - p))
			return NOPE;
		*pp = p + n;
		return PC_OK;
	}
	default:
		return NOPE;
	}
	if ((size_t)(end - p) < fixed)
		return NOPE;
	*pp = p + fixed;
	return PC_OK;
}

/* a directory index of a DWARF 5 file entry (dwarf_formudata) */
static int entry_index(const pc_dwl *t, unsigned form, const unsigned char *p,
		       const unsigned char *end, uint64_t *v)
{
	size_t w = form == F_data1 ? 1 : form == F_data2 ? 2 : form == F_data4 ? 4
		 : form == F_data8 ? 8 : 0;
	if (form == F_udata)
		return uleb(&p, end, v) ? NOPE : PC_OK;
	if (!w || (size_t)(end - p) < w)
		return NOPE;
	*v = pc_get_uint(p, (unsigned)w, t->endian);
	return PC_OK;
}

static int add_file(pc_dwl *t, const struct pc_dwl_dir *dir, const char *name)
{
	if (pc_grow((void **)&t->files, &t->capfiles, t->nfiles + 1, sizeof *t->files))
		return PC_ENOMEM;
	size_t nl = strlen(name);
	char *s;
	if (name[0] == '/' || !dir || !dir->s) {
		s = malloc(nl + 1);
		if (s)
			memcpy(s, name, nl + 1);
	} else {
		s = malloc(dir->len + nl + 2);
		if (s) {
			memcpy(s, dir->s, dir->len);
			s[dir->len] = '/';
			memcpy(s + dir->len + 1, name, nl + 1);
		}
	}
	if (!s)
		return PC_ENOMEM;
	t->files[t->nfiles++] = s;
	return PC_OK;
}

static void clear(pc_dwl *t)
{
	for (size_t i = 0; i < t->nfiles; i++)
		free(t->files[i]);
	t->nfiles = 0;
}

void pc_dwl_free(pc_dwl *t)
{
	clear(t);
	t->nrows = 0;
	free(t->files);
	free(t->rows);
	free(t->dirs);
	free(t->keys);
	t->files = NULL;
	t->rows = NULL;
	t->dirs = NULL;
	t->keys = NULL;
	t->capfiles = t->caprows = t->capdirs = t->capkeys = 0;
}

/* A DWARF 5 entry format: the forms of its fields, which is the path
 * and which the directory index (the last of each, as libdw takes). */
static int entry_format(const unsigned char **pp, const unsigned char *end,
			uint16_t *forms, unsigned *nforms, int *path, int *idx)
{
	const unsigned char *p = *pp;
	if (p >= end)
		return NOPE;
	*nforms = *p++;
	*path = *idx = -1;
	for (unsigned i = 0; i < *nforms; i++) {
		uint64_t desc, form;
		if (uleb(&p, end, &desc) || uleb(&p, end, &form))
			return NOPE;
		forms[i] = (uint16_t)form;
		switch (forms[i]) {
		case F_block2: case F_block4: case F_data2: case F_data4: case F_data8:
		case F_string: case F_block: case F_block1: case F_data1: case F_flag:
		case F_sdata: case F_strp: case F_udata: case F_sec_offset: case F_data16:
		case F_line_strp:
			break;
		default: /* (strx: the unit's string offsets; strp_sup) */
			return NOPE;
		}
		if ((uint16_t)desc == LNCT_path)
			*path = (int)i;
		else if ((uint16_t)desc == LNCT_directory_index)
			*idx = (int)i;
	}
	*pp = p;
	return PC_OK;
}

/* The unit's rows (from t->rows[first]) in libdw's order: by address,
 * an end of sequence before another row at its address, else in the
 * order read (*sorted: they were not). */
static int order_rows(pc_dwl *t, size_t first, int *sorted)
{
	pc_dwl_row *r = t->rows + first;
	size_t n = t->nrows - first, i = 1;
	while (i < n && (r[i - 1].addr < r[i].addr ||
			 (r[i - 1].addr == r[i].addr && r[i - 1].end >= r[i].end)))
		i++;
	*sorted = 0;
	if (i >= n)
		return PC_OK;
	*sorted = 1;
	if (pc_grow((void **)&t->keys, &t->capkeys, 2 * n, sizeof *t->keys))
		return PC_ENOMEM;
	pc_rkey *k = t->keys;
	for (size_t j = 0; j < n; j++)
		k[j] = (pc_rkey){r[j].end ? 0 : 1, j};
	pc_rkey *o = pc_radix_sort(k, k + n, n);
	pc_rkey *other = o == k ? k + n : k;
	for (size_t j = 0; j < n; j++)
		o[j].key = r[o[j].idx].addr;
	o = pc_radix_sort(o, other, n);
	pc_dwl_row *v = malloc(n * sizeof *v);
	if (!v)
		return PC_ENOMEM;
	for (size_t j = 0; j < n; j++)
		v[j] = r[o[j].idx];
	memcpy(r, v, n * sizeof *v);
	free(v);
	return PC_OK;
}

/* t->drop_views over the unit's rows (from t->rows[first]) in libdw's
 * order: of each run of rows at one address, none an end of sequence,
 * the last */
static void drop_views(pc_dwl *t, size_t first)
{
	pc_dwl_row *r = t->rows;
	size_t k = first;
	for (size_t i = first; i < t->nrows; i++) {
		if (k > first && !r[i].end && !r[k - 1].end && r[k - 1].addr == r[i].addr)
			k--;
		r[k++] = r[i];
	}
	t->nrows = k;
}

static int read_table(pc_dwl *t, uint64_t off, unsigned address_size, const char *comp_dir,
		      int views);

int pc_dwl_read(pc_dwl *t, uint64_t off, unsigned address_size, const char *comp_dir)
{
	return read_table(t, off, address_size, comp_dir, t->drop_views);
}

/* pc_dwl_read; views: drop the views while reading (a row that is not
 * an end of sequence in place of the one before it at its address, not
 * one either), and after, as drop_views */
static int read_table(pc_dwl *t, uint64_t off, unsigned address_size, const char *comp_dir,
		      int views)
{
	clear(t);
	const size_t first = t->nrows;
	if (!t->line || off >= t->nline || (address_size != 4 && address_size != 8))
		return NOPE;
	const pc_endian en = t->endian;
	const unsigned char *p = t->line + off, *end = t->line + t->nline;
	if (end - p < 4)
		return NOPE;
	uint64_t ulen = pc_get_u32(p, en);
	unsigned offsz = 4;
	p += 4;
	if (ulen == 0xffffffffu) {
		if (end - p < 8)
			return NOPE;
		ulen = pc_get_u64(p, en);
		p += 8;
		offsz = 8;
	}
	if (ulen > (uint64_t)(end - p))
		return NOPE;
	end = p + ulen;
	if (end - p < 2)
		return NOPE;
	unsigned version = pc_get_u16(p, en);
	p += 2;
	if (version < 2 || version > 5)
		return NOPE;
	if (version >= 5) {
		if (end - p < 2 || p[0] != address_size || p[1] != 0)
			return NOPE;
		p += 2;
	}
	if ((size_t)(end - p) < offsz)
		return NOPE;
	uint64_t hlen = offsz == 4 ? pc_get_u32(p, en) : pc_get_u64(p, en);
	p += offsz;
	const unsigned char *hstart = p;
	if (end - p < 1)
		return NOPE;
	const uint32_t min_inst = *p++;
	if (version >= 4) {
		if (end - p < 1 || *p != 1) /* 0: refused; VLIW: libdw's */
			return NOPE;
		p++;
	}
	if (end - p < 4)
		return NOPE;
	const unsigned default_is_stmt = *p++;
	const int line_base = (int8_t)*p++;
	const unsigned line_range = *p++;
	const unsigned opcode_base = *p++;
	if (default_is_stmt > 1 || opcode_base == 0)
		return NOPE;
	const unsigned char *oplen = p - 1; /* oplen[1 .. opcode_base - 1] */
	if ((size_t)(end - p) < opcode_base - 1)
		return NOPE;
	p += opcode_base - 1;

	/* the directories */
	size_t ndirs = 0;
	uint16_t forms[256];
	unsigned nforms = 0;
	int fpath, fidx;
	if (version < 5) {
		const unsigned char *q = p;
		while (q < end && *q) {
			const unsigned char *z = memchr(q, 0, (size_t)(end - q));
			if (!z)
				return NOPE;
			ndirs++;
			q = z + 1;
		}
		if (q >= end)
			return NOPE;
		ndirs++;
	} else {
		uint64_t nd;
		if (entry_format(&p, end, forms, &nforms, &fpath, &fidx) || (nforms && fpath < 0) ||
		    uleb(&p, end, &nd) || (nforms == 0 && nd) ||
		    (nforms && nd > (uint64_t)(end - p) / nforms))
			return NOPE;
		ndirs = (size_t)nd;
	}
	if (pc_grow((void **)&t->dirs, &t->capdirs, ndirs ? ndirs : 1, sizeof *t->dirs))
		return PC_ENOMEM;
	struct pc_dwl_dir *dirs = t->dirs;
	if (version < 5) {
		dirs[0] = (struct pc_dwl_dir){comp_dir, comp_dir ? strlen(comp_dir) : 0};
		for (size_t i = 1; i < ndirs; i++) {
			const unsigned char *z = memchr(p, 0, (size_t)(end - p));
			dirs[i] = (struct pc_dwl_dir){(const char *)p, (size_t)(z - p)};
			p = z + 1;
		}
		p++;
	} else {
		for (size_t i = 0; i < ndirs; i++) {
			const char *s = NULL;
			for (unsigned m = 0; m < nforms; m++) {
				int st = (int)m == fpath
						 ? entry_string(t, forms[m], &p, end, offsz, &s)
						 : form_skip(forms[m], &p, end, offsz, t->endian);
				if (st)
					return st;
			}
			if (!s)
				return NOPE;
			dirs[i] = (struct pc_dwl_dir){s, strlen(s)};
		}
	}

	/* the files: libdw's entry 0 is "???" before DWARF 5, the first
	 * entry from it */
	int st;
	if (version < 5) {
		if ((st = add_file(t, NULL, "???")))
			return st;
		if (p >= end)
			return NOPE;
		while (p < end && *p) {
			const unsigned char *z = memchr(p, 0, (size_t)(end - p));
			if (!z)
				return NOPE;
			const char *name = (const char *)p;
			p = z + 1;
			uint64_t di, x;
			if (uleb(&p, end, &di) || di >= ndirs || uleb(&p, end, &x) ||
			    uleb(&p, end, &x))
				return NOPE;
			if ((st = add_file(t, &dirs[di], name)))
				return st;
		}
		if (p >= end)
			return NOPE;
		p++;
	} else {
		uint64_t nf;
		if (entry_format(&p, end, forms, &nforms, &fpath, &fidx) ||
		    (nforms && (fpath < 0 || fidx < 0)) || uleb(&p, end, &nf) ||
		    (nforms == 0 && nf) || (nforms && nf > (uint64_t)(end - p) / nforms))
			return NOPE;
		if (!nf && (st = add_file(t, NULL, "???")))
			return st;
		for (uint64_t i = 0; i < nf; i++) {
			const char *s = NULL;
			uint64_t di = UINT64_MAX;
			for (unsigned m = 0; m < nforms; m++) {
				if ((int)m == fidx && entry_index(t, forms[m], p, end, &di))
					return NOPE;
				st = (int)m == fpath ? entry_string(t, forms[m], &p, end, offsz, &s)
						     : form_skip(forms[m], &p, end, offsz, t->endian);
				if (st)
					return st;
			}
			if (!s || di >= ndirs)
				return NOPE;
			if ((st = add_file(t, &dirs[di], s)))
				return st;
		}
	}
	if ((uint64_t)(p - hstart) != hlen)
		return NOPE; /* (4 bytes short: a CUBIN's, not read here) */

	/* the program: the rows in locals (a store of a row's address
	 * could be t->nrows for the compiler) */
	int dropped = 0;
	uint64_t addr = 0;
	uint32_t file = 1, col = 0;
	int64_t line = 1;
	unsigned is_stmt = default_is_stmt;
	/* an ISA (bit 0), discriminator (bit 1, until the next row) or
	 * column (bit 2) past what libdw's row holds */
	unsigned bad = 0;
	/* the last row is not an end and views are dropped; its address */
	int open = 0;
	uint64_t vaddr = 0;
	pc_dwl_row *rows = t->rows;
	size_t nr = first, cap = t->caprows;
	/* the special opcodes' advances, for a long program */
	int32_t sline[256];
	uint32_t saddr[256];
	const int table = line_range && end - p >= 1024;
	/* what each opcode is: a special one, an extended one (0), a
	 * standard one (1 to 12, when its operand count is libdw's), one
	 * past them below opcode_base (operands skipped), or refused */
	enum { OP_SPECIAL = 13, OP_SKIP, OP_BAD };
	static const unsigned char nargs[13] = {0, 0, 1, 1, 1, 1, 0, 0, 0, 1, 0, 0, 1};
	unsigned char kind[256];
	memset(kind, OP_SPECIAL, sizeof kind);
	memset(kind, OP_SKIP, opcode_base);
	kind[0] = 0;
	for (unsigned o = 1; o < 13 && o < opcode_base; o++)
		kind[o] = oplen[o] == nargs[o] ? (unsigned char)o : OP_BAD;
	for (unsigned o = opcode_base; table && o < 256; o++) {
		sline[o] = line_base + (int)((o - opcode_base) % line_range);
		saddr[o] = (uint32_t)(min_inst * (uint32_t)((o - opcode_base) / line_range));
	}
#define ADVANCE(adv) (addr += (uint32_t)(min_inst * (uint32_t)(adv)))
#define ROW(e) \
	do { \
		if (bad || (uint64_t)line + 0x80000000u > 0xffffffffu) \
			return NOPE; \
		if (!(e) && open && vaddr == addr) { \
			nr--; \
			dropped = 1; \
		} else if (nr == cap) { \
			if (pc_grow((void **)&t->rows, &t->caprows, nr + 1, sizeof *t->rows)) \
				return PC_ENOMEM; \
			rows = t->rows; \
			cap = t->caprows; \
		} \
		rows[nr++] = (pc_dwl_row){addr, file, (int32_t)line, (uint16_t)col, \
					  (uint8_t)is_stmt, (e)}; \
		open = views && !(e); \
		vaddr = addr; \
		bad &= 5; \
	} while (0)
/* an unsigned LEB128 operand (one byte mostly; p's address not taken:
 * it stays in a register) */
#define ULEB(u) \
	do { \
		const unsigned char *q_ = p; \
		if (p < end && *p < 0x80) \
			u = *p++; \
		else if (uleb(&q_, end, &u)) \
			return NOPE; \
		else \
			p = q_; \
	} while (0)
	while (p < end) {
		unsigned op = *p++;
		uint64_t u;
		int64_t s;
		switch (kind[op]) {
		case OP_SPECIAL:
			if (table) {
				line += sline[op];
				addr += saddr[op];
			} else {
				if (!line_range)
					return NOPE;
				line += line_base + (int)((op - opcode_base) % line_range);
				ADVANCE((op - opcode_base) / line_range);
			}
			ROW(0);
			break;
		case 0: {
			if (end - p < 2)
				return NOPE;
			unsigned len = *p++;
			if ((size_t)(end - p) < len)
				return NOPE;
			unsigned sub = *p++;
			switch (sub) {
			case 1: /* DW_LNE_end_sequence */
				ROW(1);
				addr = 0;
				file = 1;
				line = 1;
				col = 0;
				bad = 0;
				is_stmt = default_is_stmt;
				break;
			case 2: /* DW_LNE_set_address */
				if ((size_t)(end - p) < address_size)
					return NOPE;
				addr = address_size == 4 ? pc_get_u32(p, en) : pc_get_u64(p, en);
				p += address_size;
				break;
			case 4: /* DW_LNE_set_discriminator (libdw checks
				 * DW_LNS_set_file's operand count) */
				if (opcode_base <= 4 || oplen[4] != 1)
					return NOPE;
				ULEB(u);
				bad = (bad & 5) | ((uint32_t)u >= (1u << 24)) << 1;
				break;
			case 3: /* DW_LNE_define_file */
			case 0x90: case 0x91: /* NVIDIA's */
				return NOPE;
			default:
				if ((size_t)(end - (p - 1)) < len)
					return NOPE;
				p = p - 1 + len;
				break;
			}
			break;
		}
		case 1: /* DW_LNS_copy */
			ROW(0);
			break;
		case 2: /* DW_LNS_advance_pc */
			ULEB(u);
			ADVANCE(u);
			break;
		case 3: /* DW_LNS_advance_line */
			if (p < end && *p < 0x80) {
				/* (one byte: bit 6 the sign) */
				line += (int)(*p & 0x3f) - (int)(*p & 0x40);
				p++;
			} else {
				const unsigned char *q = p;
				if (sleb(&q, end, &s))
					return NOPE;
				p = q;
				line += to_int32(s);
			}
			break;
		case 4: /* DW_LNS_set_file */
			ULEB(u);
			file = (uint32_t)u;
			break;
		case 5: /* DW_LNS_set_column */
			ULEB(u);
			col = (uint32_t)u;
			bad = (bad & 3) | (col > 0xffff) << 2;
			break;
		case 6: /* DW_LNS_negate_stmt */
			is_stmt = 1 - is_stmt;
			break;
		case 8: /* DW_LNS_const_add_pc */
			if (!line_range)
				return NOPE;
			ADVANCE((255 - opcode_base) / line_range);
			break;
		case 9: /* DW_LNS_fixed_advance_pc */
			if (end - p < 2)
				return NOPE;
			addr += pc_get_u16(p, en);
			p += 2;
			break;
		case 12: /* DW_LNS_set_isa */
			ULEB(u);
			bad = (bad & 6) | ((uint32_t)u > 0xff);
			break;
		case 7: case 10: case 11: /* basic_block, prologue_end, epilogue_begin */
			break;
		case OP_SKIP:
			for (unsigned n = oplen[op]; n > 0; n--)
				ULEB(u);
			break;
		default:
			return NOPE;
		}
	}
	t->nrows = nr;
#undef ULEB
#undef ROW
#undef BAD
#undef ADVANCE
	int sorted;
	if ((st = order_rows(t, first, &sorted))) {
		t->nrows = first;
		return st;
	}
	if (t->nrows > first && !t->rows[t->nrows - 1].end) {
		/* libdw's last row ends a sequence: the views dropped before
		 * it may have been the last row at its address that is not
		 * an end; read again, all rows */
		if (views && dropped) {
			t->nrows = first;
			return read_table(t, off, address_size, comp_dir, 0);
		}
		t->rows[t->nrows - 1].end = 1;
	}
	if (t->drop_views && (sorted || !views))
		drop_views(t, first);
	return PC_OK;
}

/* ---- a unit's DIEs ------------------------------------------------------- */

struct pc_dwk_abbrev {
	uint32_t tag;
	unsigned char children, defined, sibling;
	size_t first, n; /* into spec */
	size_t lead;     /* the fixed-size values before the first other */
	size_t sfirst, ns; /* into skip */
	size_t wfirst, nw; /* into want: those it has */
};

/* a value of a form of variable size, and the fixed-size ones after it */
struct pc_dwk_skip {
	uint32_t form;
	uint32_t after;
};

enum {
	F_addr = 0x01, F_ref_addr = 0x10, F_ref1 = 0x11, F_ref2 = 0x12, F_ref4 = 0x13,
	F_ref8 = 0x14, F_ref_udata = 0x15, F_indirect = 0x16, F_exprloc = 0x18,
	F_flag_present = 0x19, F_strx = 0x1a, F_addrx = 0x1b, F_ref_sup4 = 0x1c,
	F_strp_sup = 0x1d, F_ref_sig8 = 0x20, F_implicit_const = 0x21, F_loclistx = 0x22,
	F_rnglistx = 0x23, F_ref_sup8 = 0x24, F_strx1 = 0x25, F_strx2 = 0x26, F_strx3 = 0x27,
	F_strx4 = 0x28, F_addrx1 = 0x29, F_addrx2 = 0x2a, F_addrx3 = 0x2b, F_addrx4 = 0x2c,
	F_GNU_addr_index = 0x1f01, F_GNU_str_index = 0x1f02, F_GNU_ref_alt = 0x1f20,
	F_GNU_strp_alt = 0x1f21
};
enum { DW_AT_sibling_ = 0x01 };

/* p past a value of form (libdw __libdw_form_val_compute_len); NULL for
 * a form not known here or a value past end */
static const unsigned char *die_skip(const pc_dwk *k, uint32_t form, const unsigned char *p,
				     const unsigned char *end)
{
	uint64_t n;
	size_t w;
	switch (form) {
	case F_flag_present: case F_implicit_const: return p;
	case F_addr: w = k->asize; break;
	case F_data1: case F_flag: case F_ref1: case F_strx1: case F_addrx1: w = 1; break;
	case F_data2: case F_ref2: case F_strx2: case F_addrx2: w = 2; break;
	case F_strx3: case F_addrx3: w = 3; break;
	case F_data4: case F_ref4: case F_ref_sup4: case F_strx4: case F_addrx4: w = 4; break;
	case F_data8: case F_ref8: case F_ref_sig8: case F_ref_sup8: w = 8; break;
	case F_data16: w = 16; break;
	case F_strp: case F_sec_offset: case F_line_strp: case F_strp_sup:
	case F_GNU_strp_alt: case F_GNU_ref_alt: w = k->offsz; break;
	case F_ref_addr: w = k->version == 2 ? k->asize : k->offsz; break;
	case F_sdata: case F_udata: case F_ref_udata: case F_strx: case F_addrx:
	case F_loclistx: case F_rnglistx: case F_GNU_addr_index: case F_GNU_str_index:
		return uleb(&p, end, &n) ? NULL : p;
	case F_string: {
		const unsigned char *z = memchr(p, 0, (size_t)(end - p));
		return z ? z + 1 : NULL;
	}
	case F_block1: case F_block2: case F_block4: case F_block: case F_exprloc:
		w = form == F_block1 ? 1 : form == F_block2 ? 2 : form == F_block4 ? 4 : 0;
		if (w) {
			if ((size_t)(end - p) < w)
				return NULL;
			n = pc_get_uint(p, (unsigned)w, k->sec->endian);
			p += w;
		} else if (uleb(&p, end, &n)) {
			return NULL;
		}
		return n <= (uint64_t)(end - p) ? p + n : NULL;
	default:
		return NULL; /* (DW_FORM_indirect) */
	}
	return (size_t)(end - p) >= w ? p + w : NULL;
}

/* The size of a value of form in the unit k reads, -1 when it varies
 * (die_skip's sizes) */
static int form_width(const pc_dwk *k, uint32_t form)
{
	switch (form) {
	case F_flag_present: case F_implicit_const: return 0;
	case F_addr: return (int)k->asize;
	case F_data1: case F_flag: case F_ref1: case F_strx1: case F_addrx1: return 1;
	case F_data2: case F_ref2: case F_strx2: case F_addrx2: return 2;
	case F_strx3: case F_addrx3: return 3;
	case F_data4: case F_ref4: case F_ref_sup4: case F_strx4: case F_addrx4: return 4;
	case F_data8: case F_ref8: case F_ref_sig8: case F_ref_sup8: return 8;
	case F_data16: return 16;
	case F_strp: case F_sec_offset: case F_line_strp: case F_strp_sup:
	case F_GNU_strp_alt: case F_GNU_ref_alt: return (int)k->offsz;
	case F_ref_addr: return (int)(k->version == 2 ? k->asize : k->offsz);
	default: return -1;
	}
}

/* Every abbreviation's skip for the unit's sizes. */
static int plan_skips(pc_dwk *k)
{
	uint32_t key = k->asize | k->offsz << 8 | k->version << 16;
	if (k->skipkey == key)
		return PC_OK;
	k->skipkey = 0;
	k->nskip = 0;
	size_t ns = k->nspec ? k->nspec : 1, maxseg = 1, nw = 0;
	if (pc_grow((void **)&k->width, &k->capwidth, ns, 1) ||
	    pc_grow((void **)&k->vpos, &k->capvpos, ns, 2 * sizeof *k->vpos))
		return PC_ENOMEM;
	for (size_t i = 0; i < k->nspec; i++)
		k->width[i] = (signed char)form_width(k, k->spec[i].form);
	for (size_t c = 0; c < k->nabbrev; c++) {
		struct pc_dwk_abbrev *a = &k->abbrev[c];
		if (!a->defined)
			continue;
		a->lead = 0;
		a->sfirst = k->nskip;
		uint32_t *run = NULL, seg = 0, off = 0;
		for (size_t i = 0; i < a->n; i++) {
			int w = k->width[a->first + i];
			k->vpos[2 * (a->first + i)] = seg;
			k->vpos[2 * (a->first + i) + 1] = off;
			if (w >= 0 && run) {
				*run += (uint32_t)w;
				off += (uint32_t)w;
			} else if (w >= 0) {
				a->lead += (size_t)w;
				off += (uint32_t)w;
			} else {
				if (pc_grow((void **)&k->skip, &k->capskip, k->nskip + 1, sizeof *k->skip))
					return PC_ENOMEM;
				k->skip[k->nskip] = (struct pc_dwk_skip){k->spec[a->first + i].form, 0};
				run = &k->skip[k->nskip++].after;
				seg++;
				off = 0;
			}
		}
		a->ns = k->nskip - a->sfirst;
		if (a->ns + 1 > maxseg)
			maxseg = a->ns + 1;
		/* the attributes asked for that it has: (j, its index) */
		a->wfirst = nw;
		for (size_t j = 0; j < k->nwant; j++) {
			for (size_t f = 0; f < a->n; f++)
				if (k->spec[a->first + f].name == k->want[j]) {
					if (pc_grow((void **)&k->wantidx, &k->capwantidx, 2 * nw + 2,
						    sizeof *k->wantidx))
						return PC_ENOMEM;
					k->wantidx[2 * nw] = (int32_t)j;
					k->wantidx[2 * nw++ + 1] = (int32_t)f;
					break;
				}
		}
		a->nw = nw - a->wfirst;
	}
	if (pc_grow((void **)&k->segpos, &k->capsegpos, maxseg, sizeof *k->segpos))
		return PC_ENOMEM;
	k->skipkey = key;
	return PC_OK;
}

static int read_abbrevs(pc_dwk *k, uint64_t off)
{
	if (k->abbrev_off == off)
		return PC_OK;
	k->abbrev_off = UINT64_MAX;
	k->skipkey = 0;
	k->nspec = 0;
	for (size_t i = 0; i < k->nabbrev; i++)
		k->abbrev[i].defined = 0;
	const pc_dwl *t = k->sec;
	if (!t->abbrev || off >= t->nabbrev)
		return NOPE;
	const unsigned char *p = t->abbrev + off, *end = t->abbrev + t->nabbrev;
	for (;;) {
		uint64_t code, tag, name, form;
		if (uleb(&p, end, &code))
			return NOPE;
		if (!code)
			break;
		if (code >= 65536 || uleb(&p, end, &tag) || p >= end || tag > UINT32_MAX)
			return NOPE;
		unsigned char children = *p++;
		if (code >= k->nabbrev) {
			size_t was = k->nabbrev;
			if (pc_grow((void **)&k->abbrev, &k->capabbrev, (size_t)code + 1,
				    sizeof *k->abbrev))
				return PC_ENOMEM;
			memset(k->abbrev + was, 0, ((size_t)code + 1 - was) * sizeof *k->abbrev);
			k->nabbrev = (size_t)code + 1;
		}
		struct pc_dwk_abbrev *a = &k->abbrev[code];
		if (a->defined || children > 1)
			return NOPE;
		a->tag = (uint32_t)tag;
		a->children = children;
		a->sibling = 0;
		a->first = k->nspec;
		for (;;) {
			if (uleb(&p, end, &name) || uleb(&p, end, &form))
				return NOPE;
			if (!name && !form)
				break;
			if (!name || name > UINT32_MAX || form > 0xffff)
				return NOPE;
			int64_t ic = 0;
			if (form == F_implicit_const && sleb(&p, end, &ic))
				return NOPE;
			if (pc_grow((void **)&k->spec, &k->capspec, k->nspec + 1, sizeof *k->spec))
				return PC_ENOMEM;
			if (name == DW_AT_sibling_)
				a->sibling = 1;
			k->spec[k->nspec++] = (pc_dwk_attr){(uint32_t)name, (uint32_t)form, NULL, ic};
		}
		a->n = k->nspec - a->first;
		a->defined = 1;
	}
	k->abbrev_off = off;
	return PC_OK;
}

int pc_dwk_unit(pc_dwk *k, const pc_dwl *sec, uint64_t unit)
{
	if (!k->sec)
		k->abbrev_off = UINT64_MAX;
	k->sec = sec;
	if (!sec->info || unit >= sec->ninfo)
		return NOPE;
	const pc_endian en = sec->endian;
	const unsigned char *p = sec->info + unit, *end = sec->info + sec->ninfo;
	if (end - p < 4)
		return NOPE;
	uint64_t len = pc_get_u32(p, en);
	p += 4;
	k->offsz = 4;
	if (len == 0xffffffffu) {
		if (end - p < 8)
			return NOPE;
		len = pc_get_u64(p, en);
		p += 8;
		k->offsz = 8;
	} else if (len >= 0xfffffff0u) {
		return NOPE;
	}
	if (len > (uint64_t)(end - p) || len < 2)
		return NOPE;
	end = p + len;
	k->version = pc_get_u16(p, en);
	p += 2;
	uint64_t aoff;
	if (k->version < 2 || k->version > 5)
		return NOPE;
	if (k->version == 5) {
		if ((size_t)(end - p) < 2 + k->offsz || (p[0] != 1 && p[0] != 3)) /* compile, partial */
			return NOPE;
		k->asize = p[1];
		p += 2;
		aoff = k->offsz == 4 ? pc_get_u32(p, en) : pc_get_u64(p, en);
		p += k->offsz;
	} else {
		if ((size_t)(end - p) < 1 + k->offsz)
			return NOPE;
		aoff = k->offsz == 4 ? pc_get_u32(p, en) : pc_get_u64(p, en);
		p += k->offsz;
		k->asize = *p++;
	}
	if (k->asize != 4 && k->asize != 8)
		return NOPE;
	k->unit = unit;
	k->p = p;
	k->end = end;
	int st = read_abbrevs(k, aoff);
	return st ? st : plan_skips(k);
}

int pc_dwk_next(pc_dwk *k)
{
	const unsigned char *p = k->p, *start = p, *end = k->end;
	uint64_t code;
	if (p < end && *p < 0x80) {
		code = *p++;
	} else {
		const unsigned char *q = p;
		if (uleb(&q, end, &code))
			return NOPE;
		p = q;
	}
	if (!code) {
		if (p - start != 1)
			return NOPE; /* (a padded zero: libdw's own reading) */
		k->p = p;
		return 0;
	}
	if (code >= k->nabbrev || !k->abbrev[code].defined)
		return NOPE;
	const struct pc_dwk_abbrev *a = &k->abbrev[code];
	const unsigned char *q = p;
	if (a->lead > (size_t)(end - q))
		return NOPE;
	q += a->lead;
	const unsigned char **seg = k->segpos;
	seg[0] = p;
	for (size_t i = 0; i < a->ns; i++) {
		const struct pc_dwk_skip *x = &k->skip[a->sfirst + i];
		if (!(q = die_skip(k, x->form, q, end)) || x->after > (size_t)(end - q))
			return NOPE;
		seg[i + 1] = q;
		q += x->after;
	}
	k->cur = a;
	k->off = (uint64_t)(start - k->sec->info);
	k->tag = a->tag;
	k->children = a->children;
	k->sibling = a->sibling;
	k->p = q;
	return 1;
}

uint32_t pc_dwk_get(const pc_dwk *k, pc_dwk_attr *v)
{
	const struct pc_dwk_abbrev *c = k->cur;
	if (!c->nw)
		return 0; /* (k->wantidx may be NULL) */
	const int32_t *w = k->wantidx + 2 * c->wfirst;
	uint32_t have = 0;
	for (size_t n = 0; n < c->nw; n++, w += 2) {
		size_t s = c->first + (size_t)w[1];
		pc_dwk_attr *x = &v[w[0]];
		*x = k->spec[s];
		x->val = k->segpos[k->vpos[2 * s]] + k->vpos[2 * s + 1];
		have |= (uint32_t)1 << w[0];
	}
	return have;
}

int pc_dwk_addr(const pc_dwk *k, const pc_dwk_attr *a, uint64_t *v)
{
	if (a->form != F_addr)
		return NOPE;
	*v = k->asize == 4 ? pc_get_u32(a->val, k->sec->endian)
			   : pc_get_u64(a->val, k->sec->endian);
	return PC_OK;
}

int pc_dwk_udata(const pc_dwk *k, const pc_dwk_attr *a, uint64_t *v)
{
	const unsigned char *p = a->val;
	switch (a->form) {
	case F_data1: *v = *p; return PC_OK;
	case F_data2: *v = pc_get_u16(p, k->sec->endian); return PC_OK;
	case F_data4: *v = pc_get_u32(p, k->sec->endian); return PC_OK;
	case F_data8: *v = pc_get_u64(p, k->sec->endian); return PC_OK;
	case F_udata: return uleb(&p, k->end, v) ? NOPE : PC_OK;
	default: return NOPE;
	}
}

int pc_dwk_string(const pc_dwk *k, const pc_dwk_attr *a, const char **s)
{
	if (a->form == F_string) {
		*s = (const char *)a->val; /* (its NUL checked by die_skip) */
		return PC_OK;
	}
	const unsigned char *sec = a->form == F_strp ? k->sec->str
				   : a->form == F_line_strp ? k->sec->line_str : NULL;
	size_t n = a->form == F_strp ? k->sec->nstr : k->sec->nline_str;
	if (!sec)
		return NOPE;
	uint64_t off = k->offsz == 4 ? pc_get_u32(a->val, k->sec->endian)
				     : pc_get_u64(a->val, k->sec->endian);
	/* (a section ending in a NUL has one after off) */
	if (off >= n || (sec[n - 1] && !memchr(sec + off, 0, n - off)))
		return NOPE;
	*s = (const char *)sec + off;
	return PC_OK;
}

int pc_dwk_ref(const pc_dwk *k, const pc_dwk_attr *a, uint64_t *off)
{
	uint64_t v;
	const unsigned char *p = a->val;
	switch (a->form) {
	case F_ref1: v = *p; break;
	case F_ref2: v = pc_get_u16(p, k->sec->endian); break;
	case F_ref4: v = pc_get_u32(p, k->sec->endian); break;
	case F_ref8: v = pc_get_u64(p, k->sec->endian); break;
	case F_ref_udata:
		if (uleb(&p, k->end, &v))
			return NOPE;
		break;
	default: return NOPE;
	}
	*off = k->unit + v;
	return PC_OK;
}

void pc_dwk_free(pc_dwk *k)
{
	free(k->skip);
	free(k->width);
	free(k->vpos);
	free(k->wantidx);
	free(k->segpos);
	free(k->abbrev);
	free(k->spec);
	memset(k, 0, sizeof *k);
}

#if PC_HAVE_DWARF
/* The sections dwline.c reads, as libdw holds them (dwarf_begin_elf.c
 * check_section: the first of a name outside section groups, inflated
 * and, in a relocatable file, relocated by libdwfl in place); none when
 * the DWARF is not in plain sections (.dwo, LTO). */
void pc_dwl_sections(pc_dwl *t, Elf *e)
{
	size_t shstrndx;
	int plain = 0;
	const char *ident = e ? elf_getident(e, NULL) : NULL;
	if (!ident || elf_getshdrstrndx(e, &shstrndx))
		return;
	t->endian = ident[EI_DATA] == ELFDATA2MSB ? PC_ENDIAN_BIG : PC_ENDIAN_LITTLE;
	for (Elf_Scn *sc = NULL; (sc = elf_nextscn(e, sc));) {
		GElf_Shdr sh;
		const char *n;
		if (!gelf_getshdr(sc, &sh) || sh.sh_type == SHT_NOBITS ||
		    (sh.sh_flags & (SHF_GROUP | SHF_COMPRESSED)) || !(n = elf_strptr(e, shstrndx, sh.sh_name)))
			continue;
		if (n[0] == '.' && n[1] == 'z')
			n++; /* .zdebug_, inflated by libdw */
		const unsigned char **p = NULL;
		size_t *len = NULL;
		if (!strcmp(n, ".debug_info") || !strcmp(n, "zdebug_info"))
			plain = 1, p = &t->info, len = &t->ninfo;
		else if (!strcmp(n, ".debug_abbrev") || !strcmp(n, "zdebug_abbrev"))
			p = &t->abbrev, len = &t->nabbrev;
		else if (!strcmp(n, ".debug_line") || !strcmp(n, "zdebug_line"))
			p = &t->line, len = &t->nline;
		else if (!strcmp(n, ".debug_line_str") || !strcmp(n, "zdebug_line_str"))
			p = &t->line_str, len = &t->nline_str;
		else if (!strcmp(n, ".debug_str") || !strcmp(n, "zdebug_str"))
			p = &t->str, len = &t->nstr;
		if (!p || *p)
			continue;
		Elf_Data *data = elf_getdata(sc, NULL);
		if (data && data->d_buf && data->d_size) {
			*p = data->d_buf;
			*len = data->d_size;
		}
	}
	if (!plain)
		t->line = t->info = NULL;
}
#endif
