/* libFuzzer harness: the DWARF reader (libprofcore/dwarf.c, libdw) on a
 * hostile ELF program: truncated .debug_* sections, offsets past their
 * ends, DW_AT_abstract_origin / DW_AT_specification loops, line tables
 * out of order.  Seeds: the -g programs among the fixtures (e.g.
 * tests/source/fixtures/lines-O2).  libdw reads files, so the input is
 * written to a temporary file first.  What loads is then asked for
 * gprof's line symbols, the location of each of their addresses (and
 * the next byte), of addresses taken from the input, and the line view
 * of a profile of those addresses (--granularity line, -r source,
 * -r locations, -r disasm of its first function).  The line symbols in
 * address ranges (pc_dwarf_line_syms_in, what --granularity line asks
 * for the sampled ranges) are checked against the full list: ranges made
 * from the input around the symbols' addresses, empty, touching, at 0
 * and at UINT64_MAX, must give exactly the full list's symbols inside
 * them (a difference aborts).  Each input is loaded twice, with
 * dwline.c's reader of .debug_line and the DIEs and with libdw alone
 * (pc_dwarf_set_general): a different status or different rows, scopes
 * or candidates abort.  So does a descriptor left open by an input (the
 * lowest free one differs after it): one leaked an input would otherwise
 * show only after thousands, as two loads that disagree when the
 * descriptors run out. */
#include "dwarf_internal.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

static int same_sym(const pc_linesym *a, const pc_linesym *b)
{
	return a->addr == b->addr && a->line == b->line &&
	       !strcmp(a->function, b->function) && !strcmp(a->file, b->file);
}

/* pc_dwarf_line_syms_in on ranges made from the input (sorted, disjoint:
 * bounds from the input, sorted, paired in order) = the full list ls[n]
 * cut to those ranges */
static void ranged(pc_dwarf *d, const pc_linesym *ls, size_t n,
		   const uint8_t *data, size_t size)
{
	enum { MAXB = 16 };
	uint64_t b[MAXB];
	size_t nb = 0;
	/* each bound from 3 bytes of the input, the last ones first (the
	 * start of a file is its ELF header, much the same for every input),
	 * mixed with the bound's number (runs of zeros still give distinct
	 * bounds): one in 16 is 0, one in 16 UINT64_MAX, the others a
	 * symbol's address moved by -2..+2 */
	for (size_t i = size; i >= 3 && nb < MAXB; i -= 3) {
		const uint8_t *q = data + i - 3;
		uint32_t h = ((uint32_t)q[0] | (uint32_t)q[1] << 8 |
			      (uint32_t)q[2] << 16) ^ (uint32_t)(nb * 0x9E3779B9u);
		h *= 0x85EBCA6Bu;
		h ^= h >> 13;
		if (h % 16 == 0)
			b[nb++] = 0;
		else if (h % 16 == 1)
			b[nb++] = UINT64_MAX;
		else if (n)
			b[nb++] = ls[(h >> 4) % n].addr + (uint64_t)((int)((h >> 20) % 5) - 2);
	}
	nb &= ~(size_t)1;
	qsort(b, nb, sizeof *b, cmp_u64);
	pc_linesym *got = NULL;
	size_t ngot = 0;
	if (pc_dwarf_line_syms_in(d, b, nb / 2, &got, &ngot) != PC_OK)
		abort(); /* the full walk over the same candidates worked */
	size_t k = 0;
	for (size_t i = 0; i < n; i++) {
		int in = 0;
		for (size_t r = 0; r < nb / 2 && !in; r++)
			in = b[2 * r] <= ls[i].addr && ls[i].addr < b[2 * r + 1];
		if (!in)
			continue;
		if (k >= ngot || !same_sym(&got[k], &ls[i]))
			abort();
		k++;
	}
	if (k != ngot)
		abort();
	free(got);
}

static void lookups(pc_dwarf *d, const uint8_t *data, size_t size)
{
	pc_linesym *ls = NULL;
	size_t n = 0;
	const pc_srcframe *f;
	size_t nf;
	if (pc_dwarf_line_syms(d, &ls, &n) == PC_OK) {
		ranged(d, ls, n, data, size);
		for (size_t i = 0; i < n && i < 4096; i++) {
			pc_dwarf_lookup_frames(d, ls[i].addr, &f, &nf);
			pc_dwarf_lookup_frames(d, ls[i].addr + 1, &f, &nf);
		}
		free(ls);
	}
	/* addresses from the input itself: anywhere, in any order */
	for (size_t i = 0; i + 8 <= size && i < 512; i += 8)
		pc_dwarf_lookup_frames(d, pc_get_u64(data + i, PC_ENDIAN_LITTLE), &f, &nf);
}

static void reports(const char *path, const uint8_t *data, size_t size)
{
	pc_profile *p;
	pc_profile_new(&p, NULL);
	if (!p)
		return;
	if (pc_profile_load_file(p, path, "elf", NULL) == PC_OK) {
		for (size_t i = 0; i + 4 <= size && i < 256; i += 4)
			pc_profile_add_sample(p, PC_NOSEG,
					      pc_get_u32(data + i, PC_ENDIAN_LITTLE) & 0xffffu, 1);
		pc_options *o = NULL;
		pc_options_new(&o); /* NULL on failure: skipped below */
		static const char *const rep[] = {"flat", "source", "locations", "callgraph"};
		char *out = NULL;
		size_t len = 0;
		for (size_t i = 0; o && i < sizeof rep / sizeof *rep; i++) {
			pc_options_set(o, "granularity", i == 0 ? "line" : NULL);
			if (pc_profile_render(&out, &len, p, rep[i], o) == PC_OK)
				pc_free(out);
		}
		pc_row r;
		pc_symbol s;
		if (o && pc_profile_rows(p) && pc_profile_row_at(&r, p, 0) == PC_OK &&
		    pc_profile_symbol_at(&s, p, r.symbol) == PC_OK) {
			pc_options_set(o, "disasm-select", s.name);
			if (pc_profile_render(&out, &len, p, "disasm", o) == PC_OK)
				pc_free(out);
		}
		pc_options_free(o);
	}
	pc_profile_free(p);
}

/* the lowest free descriptor */
static int lowest_free(void)
{
	int fd = dup(2);
	if (fd >= 0)
		close(fd);
	return fd;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const int free_fd = lowest_free();
	char path[] = "/tmp/pc-fuzz-dwarf-XXXXXX";
	int fd = mkstemp(path);
	if (fd < 0)
		return 0;
	size_t done = 0;
	while (done < size) {
		ssize_t w = write(fd, data + done, size - done);
		if (w <= 0)
			break;
		done += (size_t)w;
	}
	close(fd);
	if (done == size) {
		pc_dwarf *d, *g;
		pc_dwarf_new(&d, NULL);
		pc_dwarf_new(&g, NULL);
		if (d && g) {
			/* dwline.c's reading (d) against libdw's alone (g):
			 * the same answer, the same rows and scopes */
			pc_dwarf_set_general(g, 1);
			int sd = pc_dwarf_load(d, path), sg = pc_dwarf_load(g, path);
			size_t l, w;
			char *a = pc_dwarf_dump(d, &l, &w), *b = pc_dwarf_dump(g, &l, &w);
			if (sd != sg || (!sd && a && b && strcmp(a, b)))
				abort();
			free(a);
			free(b);
			if (sd == PC_OK)
				lookups(d, data, size);
		}
		pc_dwarf_free(d);
		pc_dwarf_free(g);
		reports(path, data, size);
	}
	unlink(path);
	if (lowest_free() != free_fd) {
		fprintf(stderr, "fuzz_dwarf: the input left descriptor %d open\n", free_fd);
		abort();
	}
	return 0;
}
