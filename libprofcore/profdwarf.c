/* profdwarf.c - the profile's source-level reader: the DWARF given with
 * pc_profile_set_dwarf, else one opened (once, owned by the profile)
 * from its ELF program, else one made from its map's line numbers
 * (docs/source.md ("Source level")). */
#include "dwarf_internal.h"
#include "model.h"
#include "optview.h"

#include <stdlib.h>
#include <string.h>

int pc_profile_set_dwarf(pc_profile *p, pc_dwarf *d)
{
	if (!p)
		return PC_EUSAGE;
	p->dwarf = d;
	/* display names cached by the address of the old DWARF's names */
	free(p->nmap);
	p->nmap = NULL;
	p->nmapn = p->nmapcap = 0;
	return PC_OK;
}

int pc_profile_dwarf_fail(pc_profile *p, const pc_error *e, int st)
{
	if (!e)
		return pc_diag_fail(&p->diag, st, "cannot read DWARF");
	return pc_diag_fail_at(&p->diag, e->code ? e->code : st, e->file, e->offset,
			       "%s", e->message);
}

static int cmp_lineinfo(const void *a, const void *b)
{
	const pc_lineinfo *x = a, *y = b;
	return x->address < y->address ? -1 : x->address > y->address;
}

/* A reader over the profile's line rows (pc_profile_add_line, e.g. MS
 * LINK /LINENUMBERS): each row's code runs to the next row's address or
 * the end of its function (the row of the profile holding it), whichever
 * comes first.  Rows that no function holds take their segment (region)
 * as the function. */
static int table_dwarf(pc_profile *p, const pc_options *opts, pc_rowfind_fn find,
		       pc_dwarf **out)
{
	const char *origin = NULL;
	for (size_t i = 0; i < p->nsrc && !origin; i++)
		if (!strcmp(p->src_format[i], "map"))
			origin = p->src_file[i];
	for (size_t i = 0; i < p->nlines; i++)
		if (p->lines[i].segment != PC_NOSEG)
			return pc_diag_fail(&p->diag, PC_EUNSUPPORTED,
					    "source lines: line numbers of segmented (protected-mode) programs are not supported; only real-mode and flat addresses");
	pc_lineinfo *v = malloc((p->nlines ? p->nlines : 1) * sizeof *v);
	pc_linerow *r = malloc((p->nlines ? p->nlines : 1) * sizeof *r);
	pc_dwarf *d;
	pc_dwarf_new(&d, pc_options_dwarf(opts));
	int st = PC_OK;
	if (!v || !r || !d) {
		st = pc_diag_fail(&p->diag, PC_ENOMEM, "out of memory");
		goto out;
	}
	memcpy(v, p->lines, p->nlines * sizeof *v);
	qsort(v, p->nlines, sizeof *v, cmp_lineinfo);
	for (size_t i = 0; i < p->nlines; i++) {
		uint64_t end = UINT64_MAX;
		for (size_t j = i + 1; j < p->nlines; j++)
			if (v[j].address > v[i].address) {
				end = v[j].address;
				break;
			}
		int64_t t = find(p, PC_NOSEG, v[i].address);
		const char *fn = NULL;
		if (t >= 0) {
			fn = p->syms[p->targets[t].symbol].name;
			if (p->targets[t].end < end)
				end = p->targets[t].end;
		} else {
			/* no public holds it (an assembler module without
			 * PUBLICs): its segment stands for the function */
			for (size_t g = 0; g < p->nregions; g++) {
				const pc_region *rg = &p->regions[g];
				if (rg->segment == PC_NOSEG && rg->label &&
				    rg->low <= v[i].address && v[i].address < rg->high) {
					fn = rg->label;
					if (rg->high < end)
						end = rg->high;
					break;
				}
			}
		}
		r[i] = (pc_linerow){v[i].address, end, fn, v[i].file, v[i].line};
	}
	if (pc_dwarf_set_lines(d, origin ? origin : "line numbers", r, p->nlines)) {
		st = pc_profile_dwarf_fail(p, pc_dwarf_error(d), PC_ENOMEM);
		goto out;
	}
	p->own_dwarf = d;
	*out = d;
	d = NULL;
out:
	pc_dwarf_free(d);
	free(v);
	free(r);
	return st;
}

int pc_profile_dwarf_by(pc_profile *p, const pc_options *opts, pc_rowfind_fn find,
			pc_dwarf **out)
{
	*out = p->dwarf ? p->dwarf : p->own_dwarf;
	if (*out)
		return PC_OK;
	const char *elf = NULL;
	for (size_t i = 0; i < p->nsrc; i++)
		if (!strcmp(p->src_format[i], "elf")) {
			elf = p->src_file[i];
			break;
		}
	if (!elf && p->nlines)
		return table_dwarf(p, opts, find, out);
	if (!elf)
		return pc_diag_fail(&p->diag, PC_EUSAGE,
				    "source lines need the program's DWARF or a linker map with line numbers: give the ELF executable (built with -g), or the map made with LINK /LINENUMBERS, among the files");
	pc_dwarf *d;
	pc_dwarf_new(&d, pc_options_dwarf(opts));
	if (!d)
		return pc_diag_fail(&p->diag, PC_ENOMEM, "out of memory");
	int st = pc_dwarf_load(d, elf);
	if (st) {
		st = pc_profile_dwarf_fail(p, pc_dwarf_error(d), st);
		pc_dwarf_free(d);
		return st;
	}
	p->own_dwarf = d;
	*out = d;
	return PC_OK;
}

int pc_profile_has_dwarf(const pc_profile *p)
{
	return p->dwarf || p->own_dwarf;
}

void pc_profile_dwarf_close(pc_profile *p)
{
	pc_dwarf_free(p->own_dwarf);
	p->own_dwarf = NULL;
}
