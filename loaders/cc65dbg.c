/*
 * cc65dbg.c - cc65's debug-info file (ld65 --dbgfile FILE, cl65 -g
 * -Wl --dbgfile,FILE) as a symbol source: symbols and source lines.
 *
 * The file is text, one record a line: "TYPE<TAB>key=value,key=value",
 * values decimal, 0x-hex, "quoted strings" or id lists "1+2+3"; the
 * first line is "version<TAB>major=2,minor=N".  Read here:
 *   seg   id, name, start, size, type (ro/rw)
 *   span  id, seg, start (offset in its segment), size
 *   scope id, name, type (a named .proc or C function: "scope")
 *   sym   id, name, val, size, seg, type (lab/equ/imp), addrsize, scope,
 *         parent (a cheap local)
 *   file  id, name, mod
 *   line  file, line, type (0 assembler, 1 C, 2 macro), span
 * A label defined at a module's top level (its scope unnamed) is a
 * symbol: code in a read-only segment, data in a read-write or zero-page
 * one; an equate is an absolute value; labels inside a function (cc65's
 * L0012, .proc locals, cheap locals) are not symbols of their own.  A
 * module's source lines are its C lines when it has any (cc65 writes both
 * the C line and the generated assembler lines), else its assembler lines.
 */
#include "internal.h"

#include <stdlib.h>
#include <string.h>

#define DBG_MAX_ID 10000000u /* ids: at most one per byte of the file anyway */

typedef struct dseg {
	uint64_t start, size;
	int rw, present;
} dseg;
typedef struct dspan {
	uint32_t seg;
	uint64_t start;
	int present;
} dspan;
typedef struct dfile {
	char *name;
	uint32_t mod;
	int present;
} dfile;
typedef struct dline {
	uint32_t file, line, span;
	int c;
} dline;
typedef struct dsym {
	char *name;
	uint64_t val, size;
	uint32_t seg, scope;
	int kind; /* 0 lab, 1 equ */
	int zp;
} dsym;

typedef struct dctx {
	pc_stream *s;
	dseg *segs;
	size_t nsegs, capsegs;
	dspan *spans;
	size_t nspans, capspans;
	dfile *files;
	size_t nfiles, capfiles;
	unsigned char *named_scope; /* by scope id: 1 named function scope */
	size_t nscopes, capscopes;
	dline *lines;
	size_t nlines, caplines;
	dsym *syms;
	size_t nsyms, capsyms;
	unsigned char *mod_has_c;
	size_t nmods, capmods;
} dctx;

/* One key=value of a record. */
typedef struct kv {
	const char *k, *v;
	size_t kn, vn;
} kv;

/* Splits the record's fields (after the tab) into kvs[]: 0, or -1 on a
 * malformed field (unterminated string, missing '='). */
static int split(const char *p, size_t n, kv *kvs, size_t max, size_t *count)
{
	size_t i = 0, c = 0;
	while (i < n) {
		size_t ks = i;
		while (i < n && p[i] != '=' && p[i] != ',')
			i++;
		if (i >= n || p[i] != '=' || i == ks)
			return -1;
		size_t ke = i++;
		size_t vs = i;
		if (i < n && p[i] == '"') {
			i++;
			while (i < n && p[i] != '"')
				i++;
			if (i >= n)
				return -1;
			i++;
		} else {
			while (i < n && p[i] != ',')
				i++;
		}
		if (c < max) {
			kvs[c].k = p + ks;
			kvs[c].kn = ke - ks;
			kvs[c].v = p + vs;
			kvs[c].vn = i - vs;
			c++;
		}
		if (i < n) {
			if (p[i] != ',')
				return -1;
			i++;
		}
	}
	*count = c;
	return 0;
}

static const kv *get(const kv *kvs, size_t n, const char *k)
{
	size_t l = strlen(k);
	for (size_t i = 0; i < n; i++)
		if (kvs[i].kn == l && memcmp(kvs[i].k, k, l) == 0)
			return &kvs[i];
	return NULL;
}

/* A number (decimal or 0x-hex) at the start of v; *used gets its length. */
static int num(const char *v, size_t n, uint64_t *out, size_t *used)
{
	size_t i = 0;
	int base = 10;
	if (n > 2 && v[0] == '0' && (v[1] == 'x' || v[1] == 'X')) {
		base = 16;
		i = 2;
	}
	size_t s = i;
	uint64_t x = 0;
	for (; i < n; i++) {
		int d;
		char c = v[i];
		if (c >= '0' && c <= '9')
			d = c - '0';
		else if (base == 16 && c >= 'a' && c <= 'f')
			d = c - 'a' + 10;
		else if (base == 16 && c >= 'A' && c <= 'F')
			d = c - 'A' + 10;
		else
			break;
		if (x > (UINT64_MAX - (uint64_t)d) / (uint64_t)base)
			return 0;
		x = x * (uint64_t)base + (uint64_t)d;
	}
	if (i == s)
		return 0;
	*out = x;
	if (used)
		*used = i;
	else if (i != n)
		return 0;
	return 1;
}

static int getnum(const kv *kvs, size_t n, const char *k, uint64_t *out)
{
	const kv *f = get(kvs, n, k);
	return f && num(f->v, f->vn, out, NULL);
}

static int getid(const kv *kvs, size_t n, const char *k, uint32_t *out)
{
	uint64_t v;
	if (!getnum(kvs, n, k, &v) || v >= DBG_MAX_ID)
		return 0;
	*out = (uint32_t)v;
	return 1;
}

static int is(const kv *f, const char *s)
{
	return f && f->vn == strlen(s) && memcmp(f->v, s, f->vn) == 0;
}

static char *getstr(const kv *kvs, size_t n, const char *k)
{
	const kv *f = get(kvs, n, k);
	if (!f || f->vn < 2 || f->v[0] != '"')
		return NULL;
	return pc_strndup(f->v + 1, f->vn - 2);
}

/* Grows the array *a of elements of size el so that index id exists
 * (zeroed). */
static int at(void **a, size_t *n, size_t *cap, uint32_t id, size_t el)
{
	if (id < *n)
		return 0;
	if (pc_grow(a, cap, (size_t)id + 1, el))
		return PC_ENOMEM;
	memset((char *)*a + *n * el, 0, ((size_t)id + 1 - *n) * el);
	*n = (size_t)id + 1;
	return 0;
}

static int bad(dctx *c, uint64_t off, const char *what)
{
	return pc_stream_fail(c->s, PC_EFORMAT, (int64_t)off, "expected %s", what);
}

static int record(dctx *c, const char *l, size_t n, uint64_t off)
{
	const char *tab = memchr(l, '\t', n);
	if (!tab)
		return bad(c, off, "a record \"TYPE<TAB>key=value,...\"");
	size_t tn = (size_t)(tab - l);
	kv kvs[24];
	size_t k;
	if (split(tab + 1, n - tn - 1, kvs, 24, &k))
		return bad(c, off + tn + 1, "key=value fields separated by commas");
#define TYPE(s) (tn == sizeof s - 1 && memcmp(l, s, tn) == 0)
	uint32_t id;
	if (TYPE("version") || TYPE("info") || TYPE("lib") || TYPE("mod") ||
	    TYPE("csym") || TYPE("type"))
		return 0;
	/* ids count the records of a type from 0: an id larger than the
	 * bytes before its record would size arrays beyond the file */
	if (!getid(kvs, k, "id", &id) || id > off + 64)
		return bad(c, off + tn + 1, "an id (a number no larger than the records before it)");
	if (TYPE("seg")) {
		uint64_t st, sz;
		if (!getnum(kvs, k, "start", &st) || !getnum(kvs, k, "size", &sz))
			return bad(c, off, "a segment's start and size");
		if (at((void **)&c->segs, &c->nsegs, &c->capsegs, id, sizeof *c->segs))
			return PC_ENOMEM;
		dseg *g = &c->segs[id];
		g->start = st;
		g->size = sz;
		g->rw = !is(get(kvs, k, "type"), "ro");
		g->present = 1;
		const kv *as = get(kvs, k, "addrsize");
		if (is(as, "zeropage"))
			g->rw = 1;
	} else if (TYPE("span")) {
		uint64_t st;
		uint32_t sg;
		if (!getid(kvs, k, "seg", &sg) || !getnum(kvs, k, "start", &st))
			return bad(c, off, "a span's seg and start");
		if (at((void **)&c->spans, &c->nspans, &c->capspans, id, sizeof *c->spans))
			return PC_ENOMEM;
		c->spans[id].seg = sg;
		c->spans[id].start = st;
		c->spans[id].present = 1;
	} else if (TYPE("file")) {
		uint32_t mod = 0;
		const kv *m = get(kvs, k, "mod");
		uint64_t mv;
		size_t used;
		if (m && num(m->v, m->vn, &mv, &used) && mv < DBG_MAX_ID)
			mod = (uint32_t)mv; /* "mod=1+2": the first */
		char *name = getstr(kvs, k, "name");
		if (!name)
			return bad(c, off, "a file's quoted name");
		if (at((void **)&c->files, &c->nfiles, &c->capfiles, id, sizeof *c->files)) {
			free(name);
			return PC_ENOMEM;
		}
		free(c->files[id].name);
		c->files[id].name = name;
		c->files[id].mod = mod;
		c->files[id].present = 1;
	} else if (TYPE("scope")) {
		if (at((void **)&c->named_scope, &c->nscopes, &c->capscopes, id, 1))
			return PC_ENOMEM;
		c->named_scope[id] = is(get(kvs, k, "type"), "scope");
	} else if (TYPE("line")) {
		dline d;
		uint64_t ln, ty = 0;
		const kv *sp = get(kvs, k, "span");
		if (!sp)
			return 0; /* a line without code */
		if (!getid(kvs, k, "file", &d.file) || !getnum(kvs, k, "line", &ln) ||
		    ln > 0xFFFFFFFFu)
			return bad(c, off, "a line's file and line");
		getnum(kvs, k, "type", &ty);
		if (ty == 2)
			return 0; /* macro expansion */
		d.line = (uint32_t)ln;
		d.c = ty == 1;
		/* each span of the list */
		size_t i = 0;
		while (i < sp->vn) {
			uint64_t v;
			size_t used;
			if (!num(sp->v + i, sp->vn - i, &v, &used) || v >= DBG_MAX_ID)
				return bad(c, off, "a span id list \"1+2+3\"");
			d.span = (uint32_t)v;
			if (pc_grow((void **)&c->lines, &c->caplines, c->nlines + 1, sizeof *c->lines))
				return PC_ENOMEM;
			c->lines[c->nlines++] = d;
			i += used;
			if (i < sp->vn && sp->v[i++] != '+')
				return bad(c, off, "a span id list \"1+2+3\"");
		}
	} else if (TYPE("sym")) {
		const kv *ty = get(kvs, k, "type");
		if (is(ty, "imp") || get(kvs, k, "parent"))
			return 0; /* an import, a cheap local */
		dsym d;
		memset(&d, 0, sizeof d);
		d.kind = is(ty, "equ");
		if (!getnum(kvs, k, "val", &d.val))
			return 0; /* no value (an unresolved import) */
		getnum(kvs, k, "size", &d.size);
		d.seg = UINT32_MAX;
		if (!d.kind && !getid(kvs, k, "seg", &d.seg))
			return 0; /* a label without a segment: not placed */
		d.scope = UINT32_MAX;
		getid(kvs, k, "scope", &d.scope);
		d.zp = is(get(kvs, k, "addrsize"), "zeropage");
		if (!(d.name = getstr(kvs, k, "name")))
			return bad(c, off, "a symbol's quoted name");
		if (pc_grow((void **)&c->syms, &c->capsyms, c->nsyms + 1, sizeof *c->syms)) {
			free(d.name);
			return PC_ENOMEM;
		}
		c->syms[c->nsyms++] = d;
	}
#undef TYPE
	return 0;
}

static int dbg_emit(dctx *c, pc_profile *p, uint64_t shift)
{
	int r = 0;
	for (size_t i = 0; i < c->nsyms && !r; i++) {
		const dsym *d = &c->syms[i];
		if (d->scope != UINT32_MAX && d->scope < c->nscopes && c->named_scope[d->scope])
			continue; /* a label inside a function */
		pc_symbol s;
		memset(&s, 0, sizeof s);
		s.name = d->name;
		s.segment = PC_NOSEG;
		s.address = d->val;
		s.size = d->size;
		s.binding = PC_BIND_GLOBAL;
		if (d->kind) {
			s.kind = PC_SYM_ABS;
		} else {
			const dseg *g = d->seg < c->nsegs && c->segs[d->seg].present ? &c->segs[d->seg]
										     : NULL;
			s.kind = !g || g->rw || d->zp ? PC_SYM_DATA : PC_SYM_TEXT;
			if (pc_add_overflow(s.address, shift, &s.address))
				return pc_stream_fail(c->s, PC_EUSAGE, -1, "load-address too large");
		}
		r = pc_profile_add_symbol(p, &s);
	}
	/* modules with C lines */
	for (size_t i = 0; i < c->nlines; i++) {
		const dline *d = &c->lines[i];
		if (d->c && d->file < c->nfiles && c->files[d->file].present) {
			uint32_t m = c->files[d->file].mod;
			if (at((void **)&c->mod_has_c, &c->nmods, &c->capmods, m, 1))
				return PC_ENOMEM;
			c->mod_has_c[m] = 1;
		}
	}
	for (size_t i = 0; i < c->nlines && !r; i++) {
		const dline *d = &c->lines[i];
		if (d->file >= c->nfiles || !c->files[d->file].present || d->span >= c->nspans ||
		    !c->spans[d->span].present)
			continue;
		const dfile *f = &c->files[d->file];
		int has_c = f->mod < c->nmods && c->mod_has_c[f->mod];
		if (d->c != has_c)
			continue;
		const dspan *sp = &c->spans[d->span];
		if (sp->seg >= c->nsegs || !c->segs[sp->seg].present)
			continue;
		uint64_t a;
		if (pc_add_overflow(c->segs[sp->seg].start, sp->start, &a) ||
		    pc_add_overflow(a, shift, &a))
			continue;
		r = pc_profile_add_line(p, PC_NOSEG, a, f->name, d->line);
	}
	return r;
}

static int dbg_probe(const unsigned char *head, size_t len, const char *filename)
{
	(void)filename;
	static const char sig[] = "version\tmajor=2,minor=";
	if (len < sizeof sig - 1 || memcmp(head, sig, sizeof sig - 1) != 0)
		return 0;
	return 60;
}

static int dbg_load(pc_profile *p, pc_stream *s, const pc_options *opts)
{
	uint64_t shift = 0;
	if (pc_options_get_u64(&shift, NULL, opts, "load-address") < 0)
		return pc_profile_fail(p, PC_EUSAGE, "load-address must be a number");
	dctx c;
	memset(&c, 0, sizeof c);
	c.s = s;
	const char *l;
	size_t n;
	uint64_t off;
	int r, first = 1;
	while ((r = pc_stream_getline(&l, &n, &off, s)) == PC_OK && l) {
		if (n && l[n - 1] == '\r')
			n--;
		if (first) {
			static const char sig[] = "version\tmajor=2,minor=";
			if (n < sizeof sig - 1 || memcmp(l, sig, sizeof sig - 1) != 0) {
				r = bad(&c, 0, "\"version<TAB>major=2,minor=N\" (a cc65 debug-info file, version 2)");
				break;
			}
			first = 0;
			continue;
		}
		if (!n)
			continue;
		if ((r = record(&c, l, n, off)) != 0) {
			if (r == PC_ENOMEM)
				r = pc_stream_fail(s, PC_ENOMEM, -1, "out of memory");
			break;
		}
	}
	if (!r && first)
		r = bad(&c, 0, "\"version<TAB>major=2,minor=N\" (a cc65 debug-info file, version 2)");
	if (!r)
		r = dbg_emit(&c, p, shift);
	for (size_t i = 0; i < c.nfiles; i++)
		free(c.files[i].name);
	for (size_t i = 0; i < c.nsyms; i++)
		free(c.syms[i].name);
	free(c.segs);
	free(c.spans);
	free(c.files);
	free(c.named_scope);
	free(c.lines);
	free(c.syms);
	free(c.mod_has_c);
	return r;
}

static const char *const dbg_ext[] = {"dbg", NULL};

static const pc_option_decl dbg_options[] = {
	{"load-address", PC_OPTION_U64, NULL, "0", "added to every label's address"},
	{NULL, PC_OPTION_STRING, NULL, NULL, NULL},
};

const pc_loader pc_loader_cc65dbg = {
	.abi_version = PC_LOADER_ABI_VERSION,
	.name = "cc65dbg",
	.description = "cc65 debug-info file (ld65 --dbgfile): symbols and source lines",
	.roles = PC_ROLE_SYMBOLS,
	.extensions = dbg_ext,
	.probe = dbg_probe,
	.load = dbg_load,
	.order = 5,
	.options = dbg_options,
};
