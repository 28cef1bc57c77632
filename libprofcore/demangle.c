/* demangle.c - display names of C++ and Rust symbols (libiberty).
 *
 * The one place where names are demangled: every loader's symbols (ELF,
 * nm listings and maps, plugins) get their display name here, and rows,
 * reports and exports show it; pc_symbol.name keeps the raw bytes.
 * Names are demangled as GNU gprof 2.40 prints them (utils.c
 * print_name_only: bfd_demangle(core_bfd, name, DMGL_ANSI | DMGL_PARAMS)
 * in the default "auto" style, which knows both Rust manglings and the
 * Itanium C++ ABI), including bfd_demangle's
 * handling of leading dots and '@' suffixes (".foo", "foo@plt",
 * "foo@@VERS"), which stay around the demangled part.  Names of targets
 * with a leading underscore (Mach-O, 32-bit Windows: "__ZN3fooEv" in a
 * map) are tried without it when they do not demangle as they are.
 */
#include "model.h"
#include "internal.h"
#include "pc_config.h"

#include <stdlib.h>
#include <string.h>

#if PC_HAVE_DEMANGLE
#include <libiberty/demangle.h>

/* cplus_demangle(name, DMGL_ANSI | DMGL_PARAMS) in libiberty's default
 * "auto" style is Rust first (legacy Rust names are also valid C++ ones),
 * then the C++ ABI; called directly, because cplus-dem.o would bring
 * libiberty's global style variable and xmalloc's state into the library. */
static char *auto_style(const char *name)
{
	char *r = rust_demangle(name, DMGL_ANSI | DMGL_PARAMS);
	return r ? r : cplus_demangle_v3(name, DMGL_ANSI | DMGL_PARAMS);
}

static char *iberty(const char *name)
{
	char *r = auto_style(name);
	if (!r && name[0] == '_' && name[1] == '_' &&
	    (name[2] == 'Z' || name[2] == 'R'))
		r = auto_style(name + 1);
	return r;
}
#endif

int pc_demangler_available(void)
{
	return PC_HAVE_DEMANGLE;
}

int pc_demangle(const char *name, char **shown)
{
	*shown = NULL;
#if PC_HAVE_DEMANGLE
	if (!name || !*name)
		return PC_OK;
	const char *pre = name;
	while (*name == '.' || *name == '$')
		++name;
	size_t pre_len = (size_t)(name - pre);
	/* every mangling libiberty reads starts with '_' ("_Z", "_R",
	 * "_GLOBAL_", and "__Z"/"__R" below): a plain C name costs no call */
	if (*name != '_')
		return PC_OK;
	const char *suf = strchr(name, '@');
	char *res;
	if (suf) {
		char *cut = pc_strndup(name, (size_t)(suf - name));
		if (!cut)
			return PC_ENOMEM;
		res = iberty(cut);
		free(cut);
	} else {
		res = iberty(name);
	}
	if (!res || (pre_len == 0 && !suf)) {
		*shown = res;
		return PC_OK;
	}
	size_t len = strlen(res), suf_len = suf ? strlen(suf) : 0;
	char *out = malloc(pre_len + len + suf_len + 1);
	if (out) {
		memcpy(out, pre, pre_len);
		memcpy(out + pre_len, res, len);
		memcpy(out + pre_len + len, suf ? suf : "", suf_len + 1);
	}
	free(res);
	*shown = out;
	return out ? PC_OK : PC_ENOMEM;
#else
	(void)name;
	return PC_OK;
#endif
}

/* A cached display name: symbol index and name (NULL: a free slot). */
struct pc_dslot {
	size_t sym;
	const char *name;
};

static size_t dslot_hash(size_t sym, size_t cap)
{
	return (size_t)(((uint64_t)sym * UINT64_C(0x9E3779B97F4A7C15)) >> 32) & (cap - 1);
}

/* the slot of sym in the map: its entry, or the free slot for it */
static struct pc_dslot *dmap_find(const pc_profile *p, size_t sym)
{
	size_t h = dslot_hash(sym, p->dmapcap);
	while (p->dmap[h].name && p->dmap[h].sym != sym)
		h = (h + 1) & (p->dmapcap - 1);
	return &p->dmap[h];
}

/* Room for one more entry in the map (at most half full), or, once the
 * map would take more room than an array of every symbol's name, the
 * array: its entries moved there.  PC_ENOMEM. */
static int dmap_reserve(pc_profile *p)
{
	if (2 * (p->dmapn + 1) <= p->dmapcap)
		return PC_OK;
	size_t cap = p->dmapcap ? 2 * p->dmapcap : 16;
	if (cap * sizeof *p->dmap >= p->nsyms * sizeof *p->display) {
		const char **d = calloc(p->nsyms ? p->nsyms : 1, sizeof *d);
		if (!d)
			return PC_ENOMEM;
		for (size_t s = 0; s < p->dmapcap; s++)
			if (p->dmap[s].name)
				d[p->dmap[s].sym] = p->dmap[s].name;
		free(p->dmap);
		p->dmap = NULL;
		p->dmapn = p->dmapcap = 0;
		p->display = d;
		p->ndisplay = p->capdisplay = p->nsyms ? p->nsyms : 1;
		return PC_OK;
	}
	struct pc_dslot *old = p->dmap, *m = calloc(cap, sizeof *m);
	size_t oldcap = p->dmapcap;
	if (!m)
		return PC_ENOMEM;
	p->dmap = m;
	p->dmapcap = cap;
	for (size_t s = 0; s < oldcap; s++)
		if (old[s].name)
			*dmap_find(p, old[s].sym) = old[s];
	free(old);
	return PC_OK;
}

/* raw's display name in *out: its demangled form, pooled, or raw itself
 * when it is not a mangled name; PC_ENOMEM (and *out untouched).  With
 * split_names, raw is "NAME SUFFIX" (no mangled name holds a blank or a
 * '+'): NAME is demangled, SUFFIX kept. */
static int demangle_pooled(pc_profile *p, const char *raw, const char **out)
{
	char *d, *head = NULL;
	size_t n = p->split_names ? strcspn(raw, " +") : 0;
	if (n && raw[n] && !(head = pc_strndup(raw, n)))
		return PC_ENOMEM;
	int st = pc_demangle(head ? head : raw, &d);
	free(head);
	if (st)
		return PC_ENOMEM;
	if (d && head) {
		size_t l = strlen(d), sl = strlen(raw + n);
		char *full = malloc(l + sl + 1);
		if (full) {
			memcpy(full, d, l);
			memcpy(full + l, raw + n, sl + 1);
		}
		free(d);
		if (!full)
			return PC_ENOMEM;
		d = full;
	}
	const char *kept = d ? pc_strpool_add(&p->pool, d) : NULL;
	free(d);
	if (d && !kept)
		return PC_ENOMEM;
	*out = kept ? kept : raw;
	return PC_OK;
}

/* The display name of symbol i (< nsyms) in *shown, cached; PC_ENOMEM
 * with *shown = the raw name, which is then shown.  The cache is a map
 * while few names are asked for (a program with a handful of names that
 * start with '_' costs no array of a pointer per symbol). */
static int symbol_display(pc_profile *p, size_t i, const char **shown)
{
	const char *raw = p->syms[i].name;
	*shown = raw;
	if (!pc_demangler_available() || !raw)
		return PC_OK;
	if (!p->display) {
		struct pc_dslot *e = p->dmapcap ? dmap_find(p, i) : NULL;
		if (e && e->name) {
			*shown = e->name;
			return PC_OK;
		}
		if (dmap_reserve(p))
			return PC_ENOMEM;
	}
	if (!p->display) {
		const char *kept;
		if (demangle_pooled(p, raw, &kept))
			return PC_ENOMEM;
		struct pc_dslot *e = dmap_find(p, i);
		*e = (struct pc_dslot){i, kept};
		p->dmapn++;
		*shown = e->name;
		return PC_OK;
	}
	if (p->ndisplay < p->nsyms) {
		size_t cap = p->capdisplay;
		if (pc_grow((void **)&p->display, &cap, p->nsyms, sizeof *p->display))
			return PC_ENOMEM;
		memset(p->display + p->ndisplay, 0,
		       (cap - p->ndisplay) * sizeof *p->display);
		p->capdisplay = cap;
		p->ndisplay = p->nsyms;
	}
	if (!p->display[i]) {
		if (demangle_pooled(p, raw, &p->display[i]))
			return PC_ENOMEM;
	}
	*shown = p->display[i];
	return PC_OK;
}

const char *pc_symbol_display(pc_profile *p, size_t i)
{
	const char *shown;
	if (i >= p->nsyms)
		return NULL;
	/* a name that cannot be mangled (every mangling pc_demangle reads
	 * starts with '_', after leading dots or dollars) is its own display
	 * name: no cache entry, no call */
	const char *raw = p->syms[i].name;
	if (raw && *raw != '_' && *raw != '.' && *raw != '$')
		return raw;
	symbol_display(p, i, &shown); /* out of memory: the raw name */
	return shown;
}

/* A cached display name of a name that is no symbol's: the name (its
 * address is the key) and its display name (NULL: a free slot). */
struct pc_nslot {
	const char *key, *name;
};

/* the slot of key in the names' map: its entry or the free slot for it */
static struct pc_nslot *nmap_find(const pc_profile *p, const char *key)
{
	size_t h = dslot_hash((size_t)((uintptr_t)key >> 3), p->nmapcap);
	while (p->nmap[h].name && p->nmap[h].key != key)
		h = (h + 1) & (p->nmapcap - 1);
	return &p->nmap[h];
}

const char *pc_name_display(pc_profile *p, const char *name)
{
	if (!p->demangle || !name || (*name != '_' && *name != '.' && *name != '$') ||
	    !pc_demangler_available())
		return name;
	if (p->nmapcap) {
		struct pc_nslot *e = nmap_find(p, name);
		if (e->name)
			return e->name;
	}
	if (2 * (p->nmapn + 1) > p->nmapcap) {
		size_t cap = p->nmapcap ? 2 * p->nmapcap : 16;
		struct pc_nslot *old = p->nmap, *m = calloc(cap, sizeof *m);
		if (!m)
			return name;
		size_t oldcap = p->nmapcap;
		p->nmap = m;
		p->nmapcap = cap;
		for (size_t s = 0; s < oldcap; s++)
			if (old[s].name)
				*nmap_find(p, old[s].key) = old[s];
		free(old);
	}
	char *d;
	if (pc_demangle(name, &d))
		return name;
	const char *kept = d ? pc_strpool_add(&p->pool, d) : name;
	free(d);
	if (!kept)
		return name;
	*nmap_find(p, name) = (struct pc_nslot){name, kept};
	p->nmapn++;
	return kept;
}

int pc_profile_symbol_display_name(const char **out, pc_profile *p, size_t i,
				   pc_demangle_mode demangle)
{
	if (!p)
		return PC_EUSAGE;
	if (!out)
		return pc_diag_fail(&p->diag, PC_EUSAGE, "no place for the name");
	*out = NULL;
	if (demangle != PC_DEMANGLE_AUTO && demangle != PC_DEMANGLE_NONE)
		return pc_diag_fail(&p->diag, PC_EUSAGE,
				    "demangle %d: expected PC_DEMANGLE_AUTO or PC_DEMANGLE_NONE",
				    (int)demangle);
	int on = demangle == PC_DEMANGLE_AUTO && pc_demangler_available();
	if (i >= p->nsyms)
		return pc_diag_fail(&p->diag, PC_ENOTFOUND, "no symbol %zu: the profile has %zu",
				    i, p->nsyms);
	if (!on) {
		*out = p->syms[i].name;
		return PC_OK;
	}
	const char *shown;
	if (symbol_display(p, i, &shown))
		return pc_diag_fail(&p->diag, PC_ENOMEM, "out of memory demangling a name");
	*out = shown;
	return PC_OK;
}
