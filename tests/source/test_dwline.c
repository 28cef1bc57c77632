/* test_dwline.c - libprofcore/dwline.c (.debug_line read without libdw)
 * against libdw's dwarf_getsrclines, the general path it must equal.
 *
 *   test_dwline [--all-fast] FILE...
 * opens each ELF file as dwarf.c does (libdwfl, offline: a relocatable
 * file relocated, compressed sections inflated) and, for every unit
 * with a line table, compares dwline.c's rows (address, file name,
 * line, column, is_stmt, end of sequence, in order) and file names with
 * libdw's; a unit dwline.c does not read (PC_EUNSUPPORTED) is counted,
 * and with --all-fast is a failure.  Prints one line a file:
 *   NAME: U units, F read here, R rows
 *   test_dwline --synthetic
 * reads hand-made tables: a DWARF 5 big-endian one (exact rows), and
 * truncated and lying ones (refused: PC_EUNSUPPORTED, never a crash). */
#include "dwarf_internal.h"
#include "dwline.h"

#include <dwarf.h>
#include <elfutils/libdw.h>
#include <elfutils/libdwfl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const Dwfl_Callbacks cbs = {
	.find_elf = dwfl_build_id_find_elf,
	.find_debuginfo = dwfl_standard_find_debuginfo,
	.section_address = dwfl_offline_section_address,
};

static int same_str(const char *a, const char *b)
{
	return a == b || (a && b && !strcmp(a, b));
}

/* pc_dwl_read of the unit alone: its rows from t->rows[0] */
static int read_one(pc_dwl *t, uint64_t off, unsigned address_size, const char *comp_dir)
{
	t->nrows = 0;
	return pc_dwl_read(t, off, address_size, comp_dir);
}

static int check_file(const char *path, int all_fast)
{
	Dwfl *dwfl = dwfl_begin(&cbs);
	Dwfl_Module *mod = dwfl ? dwfl_report_offline(dwfl, path, path, -1) : NULL;
	if (!mod || dwfl_report_end(dwfl, NULL, NULL)) {
		printf("%s: not opened: %s\n", path, dwfl_errmsg(-1));
		dwfl_end(dwfl);
		return 1;
	}
	Dwarf_Addr bias;
	Dwarf *dw = dwfl_module_getdwarf(mod, &bias);
	if (!dw) {
		printf("%s: no DWARF\n", path);
		dwfl_end(dwfl);
		return 1;
	}
	pc_dwl t;
	memset(&t, 0, sizeof t);
	pc_dwl_sections(&t, dwarf_getelf(dw));
	size_t units = 0, fast = 0, rows = 0, views = 0;
	int bad = 0;
	Dwarf_Die *cu = NULL;
	while (!bad && (cu = dwfl_module_nextcu(mod, cu, &bias))) {
		Dwarf_Attribute a;
		Dwarf_Word off;
		if (!dwarf_attr(cu, DW_AT_stmt_list, &a) || dwarf_formudata(&a, &off))
			continue;
		units++;
		const char *compdir = dwarf_formstring(dwarf_attr(cu, DW_AT_comp_dir, &a));
		Dwarf_Half ver;
		uint8_t ut, as, os;
		int st = PC_EUNSUPPORTED;
		if (dwarf_cu_info(cu->cu, &ver, &ut, NULL, NULL, NULL, &as, &os) == 0 &&
		    ut >= DW_UT_compile && ut <= DW_UT_skeleton)
			st = read_one(&t, off, as, compdir);
		if (st == PC_EUNSUPPORTED) {
			if (all_fast) {
				printf("%s: the unit at .debug_line+0x%llx not read here\n", path,
				       (unsigned long long)off);
				bad = 1;
			}
			continue;
		}
		if (st) {
			printf("%s: error %d\n", path, st);
			bad = 1;
			break;
		}
		fast++;
		Dwarf_Lines *lines;
		Dwarf_Files *files;
		size_t nl, nf;
		if (dwarf_getsrclines(cu, &lines, &nl) || dwarf_getsrcfiles(cu, &files, &nf)) {
			printf("%s: .debug_line+0x%llx read here, libdw refuses it: %s\n", path,
			       (unsigned long long)off, dwarf_errmsg(-1));
			bad = 1;
			break;
		}
		if (nf != t.nfiles) {
			printf("%s: .debug_line+0x%llx: %zu files, libdw %zu\n", path,
			       (unsigned long long)off, t.nfiles, nf);
			bad = 1;
		}
		for (size_t i = 0; !bad && i < nf; i++)
			if (!same_str(dwarf_filesrc(files, i, NULL, NULL), t.files[i])) {
				printf("%s: .debug_line+0x%llx: file %zu \"%s\", libdw \"%s\"\n", path,
				       (unsigned long long)off, i, t.files[i],
				       dwarf_filesrc(files, i, NULL, NULL));
				bad = 1;
			}
		if (!bad && nl != t.nrows) {
			printf("%s: .debug_line+0x%llx: %zu rows, libdw %zu\n", path,
			       (unsigned long long)off, t.nrows, nl);
			bad = 1;
		}
		for (size_t i = 0; !bad && i < nl; i++) {
			Dwarf_Line *l = dwarf_onesrcline(lines, i);
			const pc_dwl_row *r = &t.rows[i];
			Dwarf_Addr addr = 0;
			int line = 0, col = 0;
			bool stmt = false, end = false;
			dwarf_lineaddr(l, &addr);
			dwarf_lineno(l, &line);
			dwarf_linecol(l, &col);
			dwarf_linebeginstatement(l, &stmt);
			dwarf_lineendsequence(l, &end);
			const char *f = dwarf_linesrc(l, NULL, NULL);
			const char *mine = r->file < t.nfiles ? t.files[r->file] : NULL;
			if (addr != r->addr || line != r->line || col != r->col ||
			    stmt != (r->is_stmt != 0) || end != (r->end != 0) || !same_str(f, mine)) {
				printf("%s: .debug_line+0x%llx row %zu: 0x%llx %s:%d:%u stmt %d end %d, "
				       "libdw 0x%llx %s:%d:%d stmt %d end %d\n",
				       path, (unsigned long long)off, i, (unsigned long long)r->addr,
				       mine ? mine : "(none)", r->line, r->col, r->is_stmt, r->end,
				       (unsigned long long)addr, f ? f : "(none)", line, col, stmt, end);
				bad = 1;
			}
		}
		rows += nl;
		/* with drop_views: libdw's rows less each one that is not an
		 * end of sequence and is followed by one at its address that
		 * is not either */
		t.drop_views = 1;
		st = bad ? PC_OK : read_one(&t, off, as, compdir);
		t.drop_views = 0;
		size_t k = 0;
		for (size_t i = 0; !bad && i < nl; i++) {
			Dwarf_Addr addr = 0, na = 0;
			bool end = false, nend = true;
			int line = 0;
			dwarf_lineaddr(dwarf_onesrcline(lines, i), &addr);
			dwarf_lineendsequence(dwarf_onesrcline(lines, i), &end);
			dwarf_lineno(dwarf_onesrcline(lines, i), &line);
			if (i + 1 < nl) {
				dwarf_lineaddr(dwarf_onesrcline(lines, i + 1), &na);
				dwarf_lineendsequence(dwarf_onesrcline(lines, i + 1), &nend);
			}
			if (!end && !nend && na == addr)
				continue;
			if (st || k >= t.nrows || t.rows[k].addr != addr || t.rows[k].end != end ||
			    t.rows[k].line != line) {
				printf("%s: .debug_line+0x%llx row %zu without views: status %d, %zu rows\n",
				       path, (unsigned long long)off, k, st, t.nrows);
				bad = 1;
			}
			k++;
		}
		if (!bad && k != t.nrows) {
			printf("%s: .debug_line+0x%llx: %zu rows without views, %zu wanted\n", path,
			       (unsigned long long)off, t.nrows, k);
			bad = 1;
		}
		views += nl - k;
	}
	if (!bad)
		printf("%s: %zu units, %zu read here, %zu rows, %zu views\n", path, units, fast, rows,
		       views);
	pc_dwl_free(&t);
	dwfl_end(dwfl);
	return bad;
}

/* ---- hand-made tables ----------------------------------------------------- */

static unsigned char buf[512];
static size_t nbuf;

static void b1(unsigned v) { buf[nbuf++] = (unsigned char)v; }
static void b2be(unsigned v) { b1(v >> 8); b1(v & 0xff); }
static void b4be(uint32_t v) { b2be(v >> 16); b2be(v & 0xffff); }

/* A DWARF 5 table, big-endian, 32-bit DWARF, 4-byte addresses: the
 * directories by DW_FORM_line_strp, the files by DW_FORM_string with a
 * DW_FORM_udata directory and a DW_LNCT_MD5 (DW_FORM_data16). */
static const unsigned char line_str[] = "/src\0inc\0";
static size_t make_v5(int prog)
{
	nbuf = 0;
	b4be(0); /* unit length, set below */
	b2be(5);
	b1(4); /* address size */
	b1(0);
	size_t hl = nbuf;
	b4be(0); /* header length, set below */
	b1(2);   /* minimum instruction length */
	b1(1);   /* maximum operations per instruction */
	b1(1);   /* default is_stmt */
	b1((unsigned char)-5); /* line base */
	b1(14);  /* line range */
	b1(13);  /* opcode base */
	static const unsigned char lens[12] = {0, 1, 1, 1, 1, 0, 0, 0, 1, 0, 0, 1};
	for (int i = 0; i < 12; i++)
		b1(lens[i]);
	size_t hs = nbuf;
	b1(1); /* directory entry format: path line_strp */
	b1(DW_LNCT_path); b1(DW_FORM_line_strp);
	b1(2); /* directories */
	b4be(0); b4be(5);
	b1(3); /* file entry format */
	b1(DW_LNCT_path); b1(DW_FORM_string);
	b1(DW_LNCT_directory_index); b1(DW_FORM_udata);
	b1(DW_LNCT_MD5); b1(DW_FORM_data16);
	b1(2); /* files */
	memcpy(buf + nbuf, "a.c", 4); nbuf += 4; b1(0);
	for (int i = 0; i < 16; i++) b1(0xa0 + i);
	memcpy(buf + nbuf, "b.h", 4); nbuf += 4; b1(1);
	for (int i = 0; i < 16; i++) b1(0xb0 + i);
	uint32_t h = (uint32_t)(nbuf - hs) + 12 + 6;
	buf[hl] = h >> 24; buf[hl + 1] = (h >> 16) & 0xff; buf[hl + 2] = (h >> 8) & 0xff;
	buf[hl + 3] = h & 0xff;
	if (prog >= 1) {
		/* two sequences, the second at lower addresses, ending with
		 * an empty row at its end's address; then one without an end */
		b1(0); b1(5); b1(DW_LNE_set_address); b4be(0x2000);
		b1(DW_LNS_copy);
		b1(DW_LNS_advance_pc); b1(1);
		b1(0); b1(1); b1(DW_LNE_end_sequence);
		b1(0); b1(5); b1(DW_LNE_set_address); b4be(0x1000);
		b1(DW_LNS_advance_line); b1(4);
		b1(DW_LNS_copy);
		b1(0); b1(1); b1(DW_LNE_end_sequence);
		b1(0); b1(5); b1(DW_LNE_set_address); b4be(0x3000);
		b1(DW_LNS_copy);
		if (prog == 2)
			b1(DW_LNS_copy); /* a view, then libdw's end */
	} else {
		/* set_address 0x1000, line 10 column 3 (copy), special +2
		 * lines +4 bytes, file 1, negate_stmt, fixed_advance 6, copy,
		 * advance_pc 2 (x2 bytes), end_sequence */
		b1(0); b1(5); b1(DW_LNE_set_address); b4be(0x1000);
		b1(DW_LNS_advance_line); b1(9);
		b1(DW_LNS_set_column); b1(3);
		b1(DW_LNS_copy);
		b1(13 + (2 - -5) + 14 * 2); /* +2 lines, 2 operations (4 bytes) */
		b1(DW_LNS_set_file); b1(1);
		b1(DW_LNS_negate_stmt);
		b1(DW_LNS_fixed_advance_pc); b2be(6);
		b1(DW_LNS_copy);
		b1(DW_LNS_advance_pc); b1(2);
		b1(0); b1(1); b1(DW_LNE_end_sequence);
	}
	uint32_t ul = (uint32_t)nbuf - 4;
	buf[0] = ul >> 24; buf[1] = (ul >> 16) & 0xff; buf[2] = (ul >> 8) & 0xff; buf[3] = ul & 0xff;
	return nbuf;
}

/* t's rows (read with status st) are want[0, n) by address, line and end
 * of sequence: 0, else 1 and a line that says how not */
static int same_rows(const char *what, int st, const pc_dwl *t, const pc_dwl_row *want, size_t n)
{
	if (st || t->nrows != n) {
		printf("%s: status %d, %zu rows\n", what, st, t->nrows);
		return 1;
	}
	for (size_t i = 0; i < n; i++)
		if (t->rows[i].addr != want[i].addr || t->rows[i].line != want[i].line ||
		    t->rows[i].end != want[i].end) {
			printf("%s: row %zu: 0x%llx line %d end %u\n", what, i,
			       (unsigned long long)t->rows[i].addr, t->rows[i].line, t->rows[i].end);
			return 1;
		}
	return 0;
}

static int synthetic(void)
{
	int bad = 0;
	pc_dwl t;
	memset(&t, 0, sizeof t);
	t.endian = PC_ENDIAN_BIG;
	t.line_str = line_str;
	t.nline_str = sizeof line_str;
	size_t n = make_v5(0);
	t.line = buf;
	t.nline = n;
	int st = read_one(&t, 0, 4, "/cu");
	static const pc_dwl_row want[] = {
		{0x1000, 1, 10, 3, 1, 0},
		{0x1004, 1, 12, 3, 1, 0},
		{0x100a, 1, 12, 3, 0, 0},
		{0x100e, 1, 12, 3, 0, 1},
	};
	if (st || t.nrows != 4 || t.nfiles != 2 || strcmp(t.files[0], "/src/a.c") ||
	    strcmp(t.files[1], "inc/b.h")) {
		printf("v5 big-endian: status %d, %zu rows, %zu files\n", st, t.nrows, t.nfiles);
		bad = 1;
	}
	for (size_t i = 0; !bad && i < 4; i++)
		if (t.rows[i].addr != want[i].addr || t.rows[i].file != want[i].file ||
		    t.rows[i].line != want[i].line || t.rows[i].col != want[i].col ||
		    t.rows[i].is_stmt != want[i].is_stmt || t.rows[i].end != want[i].end) {
			printf("v5 big-endian: row %zu: 0x%llx file %u line %d col %u stmt %u end %u\n",
			       i, (unsigned long long)t.rows[i].addr, t.rows[i].file, t.rows[i].line,
			       t.rows[i].col, t.rows[i].is_stmt, t.rows[i].end);
			bad = 1;
		}
	/* sequences out of order: libdw's order (by address, an end before
	 * another row at its address, else as read), the last row an end */
	{
		size_t n1 = make_v5(1);
		t.line = buf;
		t.nline = n1;
		st = read_one(&t, 0, 4, "/cu");
		static const pc_dwl_row w1[] = {
			{0x1000, 1, 5, 0, 1, 1}, {0x1000, 1, 5, 0, 1, 0}, {0x2000, 1, 1, 0, 1, 0},
			{0x2002, 1, 1, 0, 1, 1}, {0x3000, 1, 1, 0, 1, 1},
		};
		bad |= same_rows("sequences out of order", st, &t, w1, 5);
		/* with a view before the last row, which libdw makes an
		 * end: drop_views keeps it (the last row at 0x3000 that is
		 * not an end) */
		n1 = make_v5(2);
		t.nline = n1;
		t.drop_views = 1;
		st = read_one(&t, 0, 4, "/cu");
		t.drop_views = 0;
		static const pc_dwl_row w2[] = {
			{0x1000, 1, 5, 0, 1, 1}, {0x1000, 1, 5, 0, 1, 0}, {0x2000, 1, 1, 0, 1, 0},
			{0x2002, 1, 1, 0, 1, 1}, {0x3000, 1, 1, 0, 1, 0}, {0x3000, 1, 1, 0, 1, 1},
		};
		bad |= same_rows("views before libdw's last row", st, &t, w2, 6);
		/* appended to the rows there (left as they are): the
		 * second table sorted, its views dropped and read again
		 * after them; then a table refused leaves them all */
		make_v5(1);
		st = read_one(&t, 0, 4, "/cu");
		n1 = make_v5(2);
		t.nline = n1;
		t.drop_views = 1;
		int st2 = st ? st : pc_dwl_read(&t, 0, 4, "/cu");
		t.drop_views = 0;
		pc_dwl_row w12[11];
		memcpy(w12, w1, sizeof w1);
		memcpy(w12 + 5, w2, sizeof w2);
		bad |= same_rows("appended", st2, &t, w12, 11);
		t.nline = 20;
		st = pc_dwl_read(&t, 0, 4, "/cu");
		if (st != PC_EUNSUPPORTED || t.nrows != 11) {
			printf("refused after appended rows: status %d, %zu rows\n", st, t.nrows);
			bad = 1;
		}
		t.nline = n1;
		make_v5(0);
	}
	/* every truncation of it, the unit length too: refused inside the
	 * header, never read past the bytes given (ASan) */
	size_t hend = 12 + ((size_t)buf[8] << 24 | (size_t)buf[9] << 16 | (size_t)buf[10] << 8 | buf[11]);
	for (size_t k = 0; k < n; k++) {
		for (int fix = 0; fix < 2; fix++) {
			unsigned char *cut = malloc(k ? k : 1);
			memcpy(cut, buf, k);
			if (fix && k >= 4) {
				cut[0] = cut[1] = 0;
				cut[2] = (unsigned char)((k - 4) >> 8);
				cut[3] = (unsigned char)((k - 4) & 0xff);
			}
			t.line = cut;
			t.nline = k;
			st = read_one(&t, 0, 4, "/cu");
			free(cut);
			if (st == PC_ENOMEM || ((!fix || k < hend) && st != PC_EUNSUPPORTED)) {
				printf("truncated to %zu bytes%s: status %d\n", k,
				       fix ? " (unit length too)" : "", st);
				bad = 1;
			}
		}
	}
	/* lying headers */
	struct {
		const char *what;
		size_t at;
		unsigned char v;
	} lies[] = {
		{"unit length past the section", 0, 0x7f},
		{"header length past the unit", 8, 0x7f},
		{"opcode base 255 (lengths past the header)", 17, 255},
		{"opcode base 0", 17, 0},
		{"version 6", 5, 6},
		{"version 1", 5, 1},
		{"address size 8 (the unit's: 4)", 6, 8},
		{"maximum operations 4 (VLIW)", 13, 4},
		{"maximum operations 0", 13, 0},
		{"default is_stmt 2", 14, 2},
		{"a standard opcode's operand count", 19, 0},
		{"directory index 2 of 2", 0, 0}, /* set below */
	};
	size_t ndir_at = 0;
	for (size_t i = 0; i + 3 < n; i++)
		if (!memcmp(buf + i, "b.h", 4))
			ndir_at = i + 4;
	lies[11].at = ndir_at;
	lies[11].v = 2;
	for (size_t i = 0; i < sizeof lies / sizeof lies[0]; i++) {
		make_v5(0);
		buf[lies[i].at] = lies[i].v;
		t.line = buf;
		t.nline = n;
		st = read_one(&t, 0, 4, "/cu");
		if (st != PC_EUNSUPPORTED) {
			printf("%s: status %d\n", lies[i].what, st);
			bad = 1;
		}
	}
	/* a file index past the table: the row has it (libdw names no file) */
	make_v5(0);
	for (size_t i = 0; i + 1 < n; i++)
		if (buf[i] == DW_LNS_set_file && buf[i + 1] == 1 && buf[i + 2] == DW_LNS_negate_stmt)
			buf[i + 1] = 7;
	t.line = buf;
	t.nline = n;
	st = read_one(&t, 0, 4, "/cu");
	if (st || t.nrows != 4 || t.rows[2].file != 7) {
		printf("file index 7 of 2: status %d\n", st);
		bad = 1;
	}
	/* an offset past the section */
	if (read_one(&t, n, 4, NULL) != PC_EUNSUPPORTED) {
		printf("offset past the section: read\n");
		bad = 1;
	}
	pc_dwl_free(&t);
	if (!bad)
		printf("synthetic tables: as expected\n");
	return bad;
}

/* d's line symbols (pc_dwarf_line_syms: with general, each candidate's
 * frame read on its own) appended to *dump */
static void append_line_syms(char **dump, pc_dwarf *d)
{
	pc_linesym *ls;
	size_t n;
	if (!*dump || pc_dwarf_line_syms(d, &ls, &n))
		return;
	size_t len = strlen(*dump), cap = len + 1;
	for (size_t i = 0; i < n; i++)
		cap += strlen(ls[i].function) + strlen(ls[i].file) + 48;
	char *b = realloc(*dump, cap);
	if (b) {
		for (size_t i = 0; i < n; i++)
			len += (size_t)snprintf(b + len, cap - len, "lsym 0x%llx %s %s:%u\n",
						(unsigned long long)ls[i].addr, ls[i].function,
						ls[i].file, ls[i].line);
		*dump = b;
	}
	free(ls);
}

/* pc_dwarf_load with dwline.c and with libdw alone: the same rows,
 * scopes, ranges and candidates, and the same line symbols */
static int check_load(const char *path, int all_fast)
{
	char *dump[2] = {NULL, NULL};
	size_t lines = 0, dies = 0, l1, d1;
	int st[2];
	for (int general = 0; general < 2; general++) {
		pc_dwarf *d;
		pc_dwarf_new(&d, NULL);
		pc_dwarf_set_general(d, general);
		st[general] = pc_dwarf_load(d, path);
		dump[general] = pc_dwarf_dump(d, general ? &l1 : &lines, general ? &d1 : &dies);
		if (!st[general])
			append_line_syms(&dump[general], d);
		if (st[general]) {
			const pc_error *e = pc_dwarf_error(d);
			char *m = malloc(strlen(e->message) + 2);
			strcpy(m, e->message);
			free(dump[general]);
			dump[general] = m;
		}
		pc_dwarf_free(d);
	}
	int bad = st[0] != st[1] || !dump[0] || !dump[1] || strcmp(dump[0], dump[1]);
	if (bad) {
		printf("%s: pc_dwarf_load differs from libdw's (%d, %d)\n", path, st[0], st[1]);
		const char *a = dump[0] ? dump[0] : "", *b = dump[1] ? dump[1] : "";
		size_t i = 0;
		while (a[i] && a[i] == b[i])
			i++;
		while (i && a[i - 1] != '\n')
			i--;
		printf("  dwline.c: %.200s\n  libdw:    %.200s\n", a + i, b + i);
	} else if (all_fast && (!lines || !dies)) {
		printf("%s: lines read here in %zu units, DIEs in %zu\n", path, lines, dies);
		bad = 1;
	} else {
		printf("%s: load %s, lines read here in %zu units, DIEs in %zu\n", path,
		       st[0] ? "refused alike" : "the same", lines, dies);
	}
	free(dump[0]);
	free(dump[1]);
	return bad;
}

int main(int argc, char **argv)
{
	int all_fast = 0, bad = 0, i = 1;
	if (argc > 1 && !strcmp(argv[1], "--synthetic"))
		return synthetic();
	if (argc > 1 && !strcmp(argv[1], "--load")) {
		int af = argc > 2 && !strcmp(argv[2], "--all-fast");
		for (i = 2 + af; i < argc; i++)
			bad |= check_load(argv[i], af);
		return bad;
	}
	if (argc > 1 && !strcmp(argv[1], "--all-fast")) {
		all_fast = 1;
		i++;
	}
	for (; i < argc; i++)
		bad |= check_file(argv[i], all_fast);
	return bad;
}
