/*
 * map.c - the linker map engine.
 *
 * One engine reads every text symbol listing (MS LINK, Borland TLINK, Open
 * Watcom WLINK, GNU ld -Map, nm) as directed by a YAML "dialect" (libyaml):
 * how the format is recognised, where its sections begin and end, how a
 * line splits into fields (regular expressions with named groups, see
 * libprofcore/pc_regex.h, and/or fixed columns), how an address is formed and how symbols
 * are classified.  The built-in dialects live in dialects/ (one YAML file
 * each) and are compiled into the library as trees of C data
 * (dialects/embed.py), so they work without libyaml; a user names their
 * own with the option dialect=FILE.yaml (read with libyaml: only in a
 * build with YAML support).  The schema is documented in README.md
 * ("Writing a dialect").
 *
 * Addresses: real-mode "SSSS:OOOO" becomes the linear image address
 * SSSS*16+OOOO in the flat address space (segment PC_NOSEG), which is what
 * PRF histograms and raw DOS PC dumps use; protected-mode "object:offset"
 * keeps the object number as the segment.
 */
#include "internal.h"
#include "pc_config.h"
#include "pc_regex.h"
#include "ydialect.h"
#include "ytree.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

/* The row expression of the nm dialect (dialects/nm.yaml), split by hand
 * (nm_split) in any dialect that uses it */
#define NM_ROW "^(?P<address>[0-9a-fA-F]+) (?:(?P<size>[0-9a-fA-F]+) )?" \
	       "(?P<type>[A-Za-z?-]) (?P<name>.+)$"


/* ====================================================================== */
/* Regular expressions (pc_regex.h) whose named groups are fields.       */

enum field {
	F_NAME,
	F_ADDRESS,
	F_SEGMENT,
	F_OFFSET,
	F_START,
	F_STOP,
	F_END,
	F_SIZE,
	F_CLASS,
	F_TYPE,
	F_MARKER,
	F_FILE,
	F_SECTION,
	F_LINE,
	F_INPUT, /* GNU ld's input section, the context of its symbol rows */
	F_COUNT
};

static const char *const field_names[F_COUNT] = {
	"name", "address", "segment", "offset", "start", "stop", "end",
	"size", "class", "type", "marker", "file", "section", "line", "input"};

static int field_lookup(const char *s, size_t n)
{
	for (int i = 0; i < F_COUNT; i++)
		if (strlen(field_names[i]) == n && memcmp(field_names[i], s, n) == 0)
			return i;
	if (n == 6 && memcmp(s, "length", 6) == 0)
		return F_SIZE;
	if (n == 6 && memcmp(s, "module", 6) == 0)
		return F_FILE;
	return -1;
}

typedef struct rx {
	pc_re *re;
	int ok;
	int group[F_COUNT]; /* capture index, 0 = none */
	size_t nsub;        /* groups + 1 */
	/* yes/no answers for texts of 0 or 1 byte (a symbol rule's type
	 * letter), filled as asked: -1 unknown; [256] is the empty text */
	signed char *short_memo;
} rx;

static void rx_free(rx *r)
{
	pc_re_free(r->re);
	r->re = NULL;
	r->ok = 0;
	free(r->short_memo);
	r->short_memo = NULL;
}

/* 1 if s matches, 0 if not (or r is absent), PC_ENOMEM. */
static int rx_test(const rx *r, pc_re_scratch *sc, const char *s)
{
	if (!r->ok)
		return 0;
	size_t n = s[0] ? 1 + (s[1] != 0) : 0;
	if (n < 2 && r->short_memo) {
		signed char *m = &r->short_memo[n ? (unsigned char)s[0] : 256];
		if (*m < 0) {
			int t = pc_re_exec(r->re, sc, s, n, NULL, 0);
			if (t < 0)
				return t;
			*m = (signed char)t;
		}
		return *m;
	}
	return pc_re_exec(r->re, sc, s, strlen(s), NULL, 0);
}

/* ====================================================================== */
/* Dialects                                                                */

enum addr_mode { AM_SEGOFF, AM_OBJOFF, AM_HEX, AM_DECIMAL };
enum emit { EM_SYMBOL, EM_REGION, EM_CONTEXT, EM_SKIP, EM_ERROR, EM_LINES, EM_ENTRY };
enum other { OT_END, OT_SKIP, OT_ERROR };

typedef struct row {
	rx match;
	int has_match;
	int nm_split; /* match is NM_ROW: split by hand (nm_split()) */
	int repeat;   /* a symbol row found again and again along the line */
	int col_start[F_COUNT], col_end[F_COUNT]; /* end -1 = end of line */
	unsigned has_col;
	int emit;
	int addr_mode;
	int base;
	pc_symkind kind;
	pc_binding binding;
	pc_region_class rclass;
} row;

typedef struct section {
	char *name;
	rx begin, end;
	int end_blank;
	rx *skip;
	size_t nskip;
	row *rows;
	size_t nrows;
	int other;
} section;

typedef struct rule {
	rx cond[F_COUNT];
	unsigned has; /* bit per field */
	int drop;
	int kind;    /* -1 = keep the row's */
	int binding; /* -1 = keep the row's */
} rule;

typedef struct dialect {
	char *name;
	int addr_mode, base;
	uint64_t load_unit;
	rx *any, *all, *none;
	size_t nany, nall, nnone;
	rx every;
	unsigned min_lines;
	int confidence;
	rx join_line, join_next;
	section top;
	section *secs;
	size_t nsecs;
	rule *rules;
	size_t nrules;
} dialect;

static void section_free(section *s)
{
	free(s->name);
	rx_free(&s->begin);
	rx_free(&s->end);
	for (size_t i = 0; i < s->nskip; i++)
		rx_free(&s->skip[i]);
	free(s->skip);
	for (size_t i = 0; i < s->nrows; i++)
		rx_free(&s->rows[i].match);
	free(s->rows);
}

static void dialect_free(dialect *d)
{
	if (!d)
		return;
	free(d->name);
	for (size_t i = 0; i < d->nany; i++)
		rx_free(&d->any[i]);
	for (size_t i = 0; i < d->nall; i++)
		rx_free(&d->all[i]);
	for (size_t i = 0; i < d->nnone; i++)
		rx_free(&d->none[i]);
	free(d->any);
	free(d->all);
	free(d->none);
	rx_free(&d->every);
	rx_free(&d->join_line);
	rx_free(&d->join_next);
	section_free(&d->top);
	for (size_t i = 0; i < d->nsecs; i++)
		section_free(&d->secs[i]);
	free(d->secs);
	for (size_t i = 0; i < d->nrules; i++)
		for (int f = 0; f < F_COUNT; f++)
			rx_free(&d->rules[i].cond[f]);
	free(d->rules);
	free(d);
}

/* ---- compiling a dialect from its YAML tree ---------------------------- */
/* (the YAML helpers, pc_yd_err(), pc_yd_check_map() ..., are loaders/ydialect.h's,
 * shared with the trace dialects) */

/* groups: 0 none allowed, 1 a row's fields, 2 a section's context */
static const char *field_of(const char *name, int groups, int *field)
{
	int f = field_lookup(name, strlen(name));
	if (f < 0)
		return "invalid regular expression: unknown group name (known: name address segment offset start stop end size length class type marker file module section line input)";
	if (!groups)
		return "named groups are only meaningful in a row's 'match' and a section's 'begin'";
	if (groups == 2 && f != F_FILE && f != F_SECTION)
		return "a section's 'begin' may name only the groups 'file' and 'section' (the context of its rows)";
	*field = f;
	return NULL;
}

static int rx_compile(pc_ydctx *c, const pc_ynode *n, const char *path, int groups,
		      rx *out)
{
	memset(out, 0, sizeof *out);
	int r = pc_yd_regex(c, n, path, groups, field_of, out->group, &out->re, &out->nsub);
	if (r)
		return r;
	out->short_memo = malloc(257);
	if (!out->short_memo) {
		pc_re_free(out->re);
		out->re = NULL;
		return PC_ENOMEM;
	}
	memset(out->short_memo, -1, 257);
	out->ok = 1;
	return PC_OK;
}

/* A regex or a list of them. */
static int rx_list_item(pc_ydctx *c, const pc_ynode *n, const char *path, void *elem)
{
	return rx_compile(c, n, path, 0, elem);
}

static int rx_list(pc_ydctx *c, const pc_ynode *n, const char *path, rx **out,
		    size_t *count)
{
	void *v;
	int r = pc_yd_list(c, n, path, sizeof **out, rx_list_item, &v, count);
	*out = v;
	return r;
}

static const char *const addr_names[] = {"segoff", "objoff", "hex", "decimal", NULL};
static const char *const base_names[] = {"hex", "decimal", NULL};
static const char *const emit_names[] = {"symbol", "region", "context", "skip", "error",
					 "lines", "entry", NULL};
static const char *const other_names[] = {"end", "skip", "error", NULL};
static const char *const kind_names[] = {"text", "data", "bss", "abs", "other", NULL};
static const char *const bind_names[] = {"global", "local", "weak", NULL};
static const char *const rclass_names[] = {"application", "system", "dos", "io",
					   "high", "low", "library", "kernel",
					   "unknown", NULL};

static int row_compile(pc_ydctx *c, const dialect *d, const pc_ynode *n,
		       const char *path, row *rw)
{
	static const char *const keys[] = {"match", "columns", "emit", "address",
					   "numbers", "kind", "binding",
					   "region-class", "repeat", NULL};
	int r = pc_yd_check_map(c, n, path, keys);
	if (r)
		return r;
	char kp[512];
	rw->addr_mode = d->addr_mode;
	rw->base = d->base;
	rw->kind = PC_SYM_TEXT;
	rw->binding = PC_BIND_GLOBAL;
	rw->rclass = PC_REGION_APPLICATION;
	rw->emit = EM_SYMBOL;
	const pc_ynode *v;
	if ((v = pc_yd_get(n, "match"))) {
		pc_yd_path(kp, sizeof kp, "%s.match", path);
		if ((r = rx_compile(c, v, kp, 1, &rw->match)))
			return r;
		rw->has_match = 1;
		const char *src = "";
		if (v->type == PC_YN_SCALAR && pc_yd_scalar(c, v, kp, &src) == PC_OK &&
		    strcmp(src, NM_ROW) == 0)
			rw->nm_split = 1;
	}
	if ((v = pc_yd_get(n, "columns"))) {
		pc_yd_path(kp, sizeof kp, "%s.columns", path);
		if (v->type != PC_YN_MAP)
			return pc_yd_err(c, v, kp, "expected a mapping of field: [start, end]");
		for (size_t i = 0; i + 1 < v->n; i += 2) {
			const pc_ynode *k = v->kids[i], *val = v->kids[i + 1];
			char fp[600];
			pc_yd_path(fp, sizeof fp, "%s.%s", kp, k->type == PC_YN_SCALAR ? k->s : "?");
			int f = k->type == PC_YN_SCALAR ? field_lookup(k->s, k->slen) : -1;
			if (f < 0)
				return pc_yd_err(c, k, fp, "unknown field");
			if (val->type != PC_YN_SEQ || val->n < 1 || val->n > 2)
				return pc_yd_err(c, val, fp,
					    "expected [start] or [start, end] (0-based columns, end exclusive)");
			unsigned long a, b = 0;
			if ((r = pc_yd_uint(c, val->kids[0], fp, 0, 65535, &a)))
				return r;
			if (val->n == 2) {
				if ((r = pc_yd_uint(c, val->kids[1], fp, a + 1, 65536, &b)))
					return r;
			}
			rw->col_start[f] = (int)a;
			rw->col_end[f] = val->n == 2 ? (int)b : -1;
			rw->has_col |= 1u << f;
		}
	}
	int e;
	if ((v = pc_yd_get(n, "emit"))) {
		pc_yd_path(kp, sizeof kp, "%s.emit", path);
		if ((r = pc_yd_enum(c, v, kp, emit_names, &rw->emit)))
			return r;
	}
	if ((v = pc_yd_get(n, "address"))) {
		pc_yd_path(kp, sizeof kp, "%s.address", path);
		if ((r = pc_yd_enum(c, v, kp, addr_names, &rw->addr_mode)))
			return r;
	}
	if ((v = pc_yd_get(n, "numbers"))) {
		pc_yd_path(kp, sizeof kp, "%s.numbers", path);
		if ((r = pc_yd_enum(c, v, kp, base_names, &e)))
			return r;
		rw->base = e ? 10 : 16;
	}
	if ((v = pc_yd_get(n, "kind"))) {
		pc_yd_path(kp, sizeof kp, "%s.kind", path);
		if ((r = pc_yd_enum(c, v, kp, kind_names, &e)))
			return r;
		rw->kind = (pc_symkind)e;
	}
	if ((v = pc_yd_get(n, "binding"))) {
		pc_yd_path(kp, sizeof kp, "%s.binding", path);
		if ((r = pc_yd_enum(c, v, kp, bind_names, &e)))
			return r;
		rw->binding = (pc_binding)e;
	}
	if ((v = pc_yd_get(n, "region-class"))) {
		pc_yd_path(kp, sizeof kp, "%s.region-class", path);
		if ((r = pc_yd_enum(c, v, kp, rclass_names, &e)))
			return r;
		rw->rclass = (pc_region_class)e;
	}
	if ((v = pc_yd_get(n, "repeat"))) {
		pc_yd_path(kp, sizeof kp, "%s.repeat", path);
		if ((r = pc_yd_bool(c, v, kp, &rw->repeat)))
			return r;
		if (rw->repeat && (rw->emit != EM_SYMBOL || !rw->has_match || rw->has_col))
			return pc_yd_err(c, v, kp,
					 "only a symbol row with 'match' and no 'columns' repeats along its line");
	}
	if (!rw->has_match && !rw->has_col)
		return pc_yd_err(c, n, path, "a row needs 'match' or 'columns'");
	unsigned have = rw->has_col;
	for (int f = 0; f < F_COUNT; f++)
		if (rw->match.group[f])
			have |= 1u << f;
#define HAVE(f) (have & (1u << (f)))
	if (rw->emit == EM_SYMBOL) {
		if (!HAVE(F_NAME))
			return pc_yd_err(c, n, path, "a symbol row needs a 'name' field");
		if (!HAVE(F_ADDRESS) && !(HAVE(F_SEGMENT) && HAVE(F_OFFSET)))
			return pc_yd_err(c, n, path,
				    "a symbol row needs an 'address' field (or 'segment' and 'offset')");
	} else if (rw->emit == EM_REGION) {
		if (!HAVE(F_START) && !HAVE(F_ADDRESS) && !(HAVE(F_SEGMENT) && HAVE(F_OFFSET)))
			return pc_yd_err(c, n, path, "a region row needs a 'start' or 'address' field");
		if (!HAVE(F_SIZE) && !HAVE(F_STOP) && !HAVE(F_END))
			return pc_yd_err(c, n, path,
				    "a region row needs a 'size', 'stop' or 'end' field");
	} else if (rw->emit == EM_ENTRY) {
		if (!HAVE(F_ADDRESS) && !(HAVE(F_SEGMENT) && HAVE(F_OFFSET)))
			return pc_yd_err(c, n, path,
				    "an entry row needs an 'address' field (or 'segment' and 'offset')");
	} else if (rw->emit == EM_CONTEXT) {
		if (!HAVE(F_FILE) && !HAVE(F_SECTION) && !HAVE(F_INPUT))
			return pc_yd_err(c, n, path,
				    "a context row needs a 'file', 'section' or 'input' field");
	} else if (rw->emit == EM_LINES) {
		if (!rw->has_match || rw->has_col)
			return pc_yd_err(c, n, path,
				    "a lines row needs 'match' (one line-number/address pair, found again and again along the line) and no 'columns'");
		if (!HAVE(F_LINE) || (!HAVE(F_ADDRESS) && !(HAVE(F_SEGMENT) && HAVE(F_OFFSET))))
			return pc_yd_err(c, n, path,
				    "a lines row needs a 'line' field and an 'address' field (or 'segment' and 'offset')");
	}
#undef HAVE
	return PC_OK;
}

static int section_compile(pc_ydctx *c, const dialect *d, const pc_ynode *n,
			   const char *path, section *s, int top)
{
	static const char *const keys[] = {"name", "begin", "end", "end-at-blank",
					   "skip", "rows", "other", NULL};
	int r;
	char kp[512];
	const pc_ynode *v;
	s->other = top ? OT_SKIP : OT_END;
	if (!top) {
		if ((r = pc_yd_check_map(c, n, path, keys)))
			return r;
		const char *nm = "";
		if ((v = pc_yd_get(n, "name"))) {
			pc_yd_path(kp, sizeof kp, "%s.name", path);
			if ((r = pc_yd_scalar(c, v, kp, &nm)))
				return r;
		}
		s->name = pc_strdup(nm);
		if (!s->name)
			return PC_ENOMEM;
		if (!(v = pc_yd_get(n, "begin")))
			return pc_yd_err(c, n, path, "a section needs 'begin'");
		pc_yd_path(kp, sizeof kp, "%s.begin", path);
		if ((r = rx_compile(c, v, kp, 2, &s->begin)))
			return r;
		if ((v = pc_yd_get(n, "end"))) {
			pc_yd_path(kp, sizeof kp, "%s.end", path);
			if ((r = rx_compile(c, v, kp, 0, &s->end)))
				return r;
		}
		if ((v = pc_yd_get(n, "end-at-blank"))) {
			pc_yd_path(kp, sizeof kp, "%s.end-at-blank", path);
			if ((r = pc_yd_bool(c, v, kp, &s->end_blank)))
				return r;
		}
	}
	if ((v = pc_yd_get(n, "skip"))) {
		pc_yd_path(kp, sizeof kp, "%s%sskip", path, top ? "" : ".");
		if ((r = rx_list(c, v, kp, &s->skip, &s->nskip)))
			return r;
	}
	if ((v = pc_yd_get(n, "other"))) {
		pc_yd_path(kp, sizeof kp, "%s%sother", path, top ? "" : ".");
		if ((r = pc_yd_enum(c, v, kp, other_names, &s->other)))
			return r;
		if (top && s->other == OT_END)
			return pc_yd_err(c, v, kp, "outside sections 'other' is skip or error");
	}
	if ((v = pc_yd_get(n, "rows"))) {
		pc_yd_path(kp, sizeof kp, "%s%srows", path, top ? "" : ".");
		if (v->type != PC_YN_SEQ)
			return pc_yd_err(c, v, kp, "expected a list of rows");
		s->rows = calloc(v->n ? v->n : 1, sizeof *s->rows);
		if (!s->rows)
			return PC_ENOMEM;
		for (size_t i = 0; i < v->n; i++) {
			char rp[400];
			pc_yd_path(rp, sizeof rp, "%s[%zu]", kp, i);
			s->nrows = i + 1;
			if ((r = row_compile(c, d, v->kids[i], rp, &s->rows[i])))
				return r;
		}
	}
	return PC_OK;
}

static int rule_compile(pc_ydctx *c, const pc_ynode *n, const char *path, rule *ru)
{
	static const char *const keys[] = {"name", "marker", "type", "class",
					   "section", "file", "input", "kind",
					   "binding", "drop", NULL};
	int r = pc_yd_check_map(c, n, path, keys);
	if (r)
		return r;
	char kp[512];
	const pc_ynode *v;
	ru->kind = -1;
	ru->binding = -1;
	static const int conds[] = {F_NAME, F_MARKER, F_TYPE, F_CLASS, F_SECTION, F_FILE,
				    F_INPUT};
	for (size_t i = 0; i < sizeof conds / sizeof conds[0]; i++) {
		int f = conds[i];
		if ((v = pc_yd_get(n, field_names[f]))) {
			pc_yd_path(kp, sizeof kp, "%s.%s", path, field_names[f]);
			if ((r = rx_compile(c, v, kp, 0, &ru->cond[f])))
				return r;
			ru->has |= 1u << f;
		}
	}
	if ((v = pc_yd_get(n, "kind"))) {
		pc_yd_path(kp, sizeof kp, "%s.kind", path);
		if ((r = pc_yd_enum(c, v, kp, kind_names, &ru->kind)))
			return r;
	}
	if ((v = pc_yd_get(n, "binding"))) {
		pc_yd_path(kp, sizeof kp, "%s.binding", path);
		if ((r = pc_yd_enum(c, v, kp, bind_names, &ru->binding)))
			return r;
	}
	if ((v = pc_yd_get(n, "drop"))) {
		pc_yd_path(kp, sizeof kp, "%s.drop", path);
		if ((r = pc_yd_bool(c, v, kp, &ru->drop)))
			return r;
	}
	if (!ru->has)
		return pc_yd_err(c, n, path,
			    "a rule needs a condition (name, marker, type, class, section, file or input)");
	if (ru->kind < 0 && ru->binding < 0 && !ru->drop)
		return pc_yd_err(c, n, path, "a rule needs 'kind', 'binding' or 'drop'");
	return PC_OK;
}

static int dialect_build(pc_ydctx *c, const pc_ynode *root, dialect *d)
{
	static const char *const keys[] = {
		"profcore-dialect", "name", "description", "address", "numbers",
		"load-unit", "detect", "join", "skip", "rows", "other", "sections",
		"symbols", NULL};
	int r = pc_yd_check_map(c, root, "", keys);
	if (r)
		return r;
	const pc_ynode *v;
	unsigned long ul;
	if (!(v = pc_yd_get(root, "profcore-dialect")))
		return pc_yd_err(c, root, "profcore-dialect",
			    "missing (the schema version, 1, must be given first)");
	if ((r = pc_yd_uint(c, v, "profcore-dialect", 1, 1, &ul)))
		return r;
	const char *nm = "";
	if (!(v = pc_yd_get(root, "name")))
		return pc_yd_err(c, root, "name", "missing");
	if ((r = pc_yd_scalar(c, v, "name", &nm)))
		return r;
	if (!*nm)
		return pc_yd_err(c, v, "name", "empty");
	if (!(d->name = pc_strdup(nm)))
		return PC_ENOMEM;
	if ((v = pc_yd_get(root, "description")) && (r = pc_yd_scalar(c, v, "description", &nm)))
		return r;
	d->addr_mode = AM_HEX;
	d->base = 16;
	if ((v = pc_yd_get(root, "address")) &&
	    (r = pc_yd_enum(c, v, "address", addr_names, &d->addr_mode)))
		return r;
	int e;
	if ((v = pc_yd_get(root, "numbers"))) {
		if ((r = pc_yd_enum(c, v, "numbers", base_names, &e)))
			return r;
		d->base = e ? 10 : 16;
	}
	d->load_unit = d->addr_mode == AM_SEGOFF ? 16 : 1;
	if ((v = pc_yd_get(root, "load-unit"))) {
		if ((r = pc_yd_uint(c, v, "load-unit", 1, 65536, &ul)))
			return r;
		d->load_unit = ul;
	}
	d->confidence = 32;
	d->min_lines = 3;
	if ((v = pc_yd_get(root, "detect"))) {
		static const char *const dk[] = {"any", "all", "none", "every-line",
						 "min-lines", "confidence", NULL};
		if ((r = pc_yd_check_map(c, v, "detect", dk)))
			return r;
		const pc_ynode *w;
		if ((w = pc_yd_get(v, "any")) && (r = rx_list(c, w, "detect.any", &d->any, &d->nany)))
			return r;
		if ((w = pc_yd_get(v, "all")) && (r = rx_list(c, w, "detect.all", &d->all, &d->nall)))
			return r;
		if (d->nall > 64)
			return pc_yd_err(c, w, "detect.all", "at most 64 expressions");
		if ((w = pc_yd_get(v, "none")) &&
		    (r = rx_list(c, w, "detect.none", &d->none, &d->nnone)))
			return r;
		if ((w = pc_yd_get(v, "every-line")) &&
		    (r = rx_compile(c, w, "detect.every-line", 0, &d->every)))
			return r;
		if ((w = pc_yd_get(v, "min-lines"))) {
			if ((r = pc_yd_uint(c, w, "detect.min-lines", 1, 1000, &ul)))
				return r;
			d->min_lines = (unsigned)ul;
		}
		if ((w = pc_yd_get(v, "confidence"))) {
			if ((r = pc_yd_uint(c, w, "detect.confidence", 1, 64, &ul)))
				return r;
			d->confidence = (int)ul;
		}
		if (!d->nany && !d->nall && !d->every.ok)
			return pc_yd_err(c, v, "detect", "needs 'any', 'all' or 'every-line'");
	}
	if (c->detect_only)
		return PC_OK;
	if ((v = pc_yd_get(root, "join"))) {
		static const char *const jk[] = {"line", "next", NULL};
		if ((r = pc_yd_check_map(c, v, "join", jk)))
			return r;
		const pc_ynode *a = pc_yd_get(v, "line"), *b = pc_yd_get(v, "next");
		if (!a || !b)
			return pc_yd_err(c, v, "join", "needs both 'line' and 'next'");
		if ((r = rx_compile(c, a, "join.line", 0, &d->join_line)) ||
		    (r = rx_compile(c, b, "join.next", 0, &d->join_next)))
			return r;
	}
	if ((r = section_compile(c, d, root, "", &d->top, 1)))
		return r;
	if ((v = pc_yd_get(root, "sections"))) {
		if (v->type != PC_YN_SEQ)
			return pc_yd_err(c, v, "sections", "expected a list of sections");
		d->secs = calloc(v->n ? v->n : 1, sizeof *d->secs);
		if (!d->secs)
			return PC_ENOMEM;
		for (size_t i = 0; i < v->n; i++) {
			char kp[64];
			pc_yd_path(kp, sizeof kp, "sections[%zu]", i);
			d->nsecs = i + 1;
			if ((r = section_compile(c, d, v->kids[i], kp, &d->secs[i], 0)))
				return r;
		}
	}
	size_t nrows = d->top.nrows;
	for (size_t i = 0; i < d->nsecs; i++)
		nrows += d->secs[i].nrows;
	if (!nrows)
		return pc_yd_err(c, root, "rows", "the dialect has no rows (top-level or in a section)");
	if ((v = pc_yd_get(root, "symbols"))) {
		if (v->type != PC_YN_SEQ)
			return pc_yd_err(c, v, "symbols", "expected a list of rules");
		d->rules = calloc(v->n ? v->n : 1, sizeof *d->rules);
		if (!d->rules)
			return PC_ENOMEM;
		for (size_t i = 0; i < v->n; i++) {
			char kp[64];
			pc_yd_path(kp, sizeof kp, "symbols[%zu]", i);
			d->nrules = i + 1;
			if ((r = rule_compile(c, v->kids[i], kp, &d->rules[i])))
				return r;
		}
	}
	return PC_OK;
}

/* Compiles the tree of a dialect.  On error *out is NULL and err holds
 * "dialect FILE:LINE:COL: key 'K': what". */
static int dialect_compile(const pc_ynode *root, const char *file, dialect **out,
			   char *err, size_t errlen, int detect_only)
{
	*out = NULL;
	err[0] = 0;
	dialect *d = calloc(1, sizeof *d);
	if (!d)
		return PC_ENOMEM;
	pc_ydctx c = {file, err, errlen, detect_only, 0};
	int r = dialect_build(&c, root, d);
	if (r) {
		if (r == PC_ENOMEM)
			snprintf(err, errlen, "out of memory");
		dialect_free(d);
		return r;
	}
	*out = d;
	return PC_OK;
}

/* ---- detection ---------------------------------------------------------- */

static int is_blank(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!isspace((unsigned char)s[i]))
			return 0;
	return 1;
}

/* Ctrl-Z ends a DOS text file (editors and COPY /A wrote one, some padded
 * the last 128-byte record with them): nothing after it is read. */
#define DOS_EOF 0x1A

/* Score of dialect d for the head of a file: its confidence or 0. */
static int dialect_detect(const dialect *d, pc_re_scratch *sc,
			  const unsigned char *head, size_t len, int whole)
{
	if (!d->nany && !d->nall && !d->every.ok)
		return 0;
	char line[1024];
	int any = d->nany == 0, none_hit = 0;
	unsigned all_hit = 0, lines = 0, every_fail = 0;
	unsigned char all_seen[64] = {0};
	size_t i = 0;
	while (i < len) {
		size_t j = i;
		while (j < len && head[j] != '\n')
			j++;
		if (j >= len && !whole)
			break; /* partial last line */
		size_t n = j - i;
		if (n && head[i + n - 1] == '\r')
			n--;
		const unsigned char *z = memchr(head + i, DOS_EOF, n);
		if (z) /* the end of a DOS text file */
			n = (size_t)(z - (head + i));
		if (n >= sizeof line)
			n = sizeof line - 1;
		memcpy(line, head + i, n);
		line[n] = 0;
		i = z ? len : j + 1;
		if (memchr(line, 0, n))
			return 0;
		for (size_t k = 0; !any && k < d->nany; k++)
			if (rx_test(&d->any[k], sc, line) > 0)
				any = 1;
		for (size_t k = 0; k < d->nall; k++)
			if (!all_seen[k] && rx_test(&d->all[k], sc, line) > 0) {
				all_seen[k] = 1;
				all_hit++;
			}
		for (size_t k = 0; k < d->nnone; k++)
			if (rx_test(&d->none[k], sc, line) != 0)
				none_hit = 1;
		if (d->every.ok && !is_blank(line, n)) {
			lines++;
			if (rx_test(&d->every, sc, line) <= 0)
				every_fail++;
		}
	}
	if (!any || none_hit || all_hit < d->nall)
		return 0;
	if (d->every.ok && (every_fail || lines < d->min_lines))
		return 0;
	return d->confidence;
}

/* nm's two layouts.  BSD: "ADDRESS [SIZE] TYPE NAME", the address (and
 * size) as wide as the target's addresses, 8 or 16 digits, on every line;
 * POSIX (nm -P): "NAME TYPE [VALUE [SIZE]]".  A line "00001139 T cafe"
 * fits both; the file decides, all its lines together: BSD needs one
 * address width throughout; POSIX names never start with a digit (an
 * address usually does), and a fourth field (the size) after a hex
 * "name" is POSIX.  When neither settles it, the listing is ambiguous. */
enum nm_shape { NM_BSD, NM_POSIX, NM_AMBIGUOUS };

static enum nm_shape nm_shape(const unsigned char *head, size_t len, int whole,
			      uint64_t *off, char *shown, size_t shown_len)
{
	size_t width = 0, i = 0;
	int same_width = 1, digit_name = 0, four_fields = 0, first = 1;
	*off = 0;
	shown[0] = 0;
	while (i < len) {
		size_t j = i;
		while (j < len && head[j] != '\n')
			j++;
		if (j >= len && !whole)
			break;
		size_t n = j - i;
		if (n && head[i + n - 1] == '\r')
			n--;
		const unsigned char *l = head + i, *z = memchr(l, DOS_EOF, n);
		if (z)
			n = (size_t)(z - l);
		size_t at = i;
		i = z ? len : j + 1;
		if (is_blank((const char *)l, n) || l[n - 1] == ':' || l[0] == ' ')
			continue; /* blank, "file.o:", BSD undefined */
		size_t w = 0, fields = 1;
		while (w < n && l[w] != ' ')
			w++;
		for (size_t k = 0; k < n; k++)
			fields += l[k] == ' ' && k + 1 < n && l[k + 1] != ' ';
		if (first) {
			*off = at;
			size_t m = n < shown_len - 1 ? n : shown_len - 1;
			for (size_t k = 0; k < m; k++)
				shown[k] = l[k] < 0x20 || l[k] == 0x7f ? '?' : (char)l[k];
			shown[m] = 0;
			first = 0;
			width = w;
		}
		if (w != width)
			same_width = 0;
		if (isdigit(l[0]))
			digit_name = 1;
		if (fields == 4)
			four_fields = 1;
	}
	if (first) /* no symbol line: either reads nothing */
		return NM_BSD;
	if (!same_width)
		return NM_POSIX;
	if (digit_name && !four_fields)
		return NM_BSD;
	if (four_fields && !digit_name)
		return NM_POSIX;
	return NM_AMBIGUOUS;
}

/* Best built-in dialect for head; *name gets its name (static storage). */
static int detect_builtin(const unsigned char *head, size_t len, int whole,
			  const char **name)
{
	int best = 0;
	pc_re_scratch sc = {NULL, 0, NULL};
	*name = NULL;
	for (const pc_ydoc *b = pc_map_builtins; b->name; b++) {
		dialect *d;
		char err[256];
		if (dialect_compile(b->root, b->name, &d, err, sizeof err, 1))
			continue; /* built-ins are tested; never happens */
		int score = dialect_detect(d, &sc, head, len, whole);
		if (score > best) {
			best = score;
			*name = b->name;
		}
		dialect_free(d);
	}
	pc_re_scratch_free(&sc);
	return best;
}

/* Score of the built-in dialect called name for head. */
static int detect_score(const char *name, const unsigned char *head, size_t len,
			int whole)
{
	int score = 0;
	pc_re_scratch sc;
	memset(&sc, 0, sizeof sc);
	for (const pc_ydoc *b = pc_map_builtins; b->name; b++) {
		dialect *d;
		char err[256];
		if (strcmp(b->name, name) != 0 ||
		    dialect_compile(b->root, b->name, &d, err, sizeof err, 1))
			continue;
		score = dialect_detect(d, &sc, head, len, whole);
		dialect_free(d);
	}
	pc_re_scratch_free(&sc);
	return score;
}

/* detect_builtin(), and with nm and nm-posix tied nm_shape() decides;
 * *ambiguous is set (and *name is NULL) when it cannot. */
static int detect_map(const unsigned char *head, size_t len, int whole,
		      const char **name, int *ambiguous)
{
	int best = detect_builtin(head, len, whole, name);
	*ambiguous = 0;
	if (!best || (strcmp(*name, "nm") != 0 && strcmp(*name, "nm-posix") != 0))
		return best;
	if (detect_score(strcmp(*name, "nm") == 0 ? "nm-posix" : "nm", head, len, whole) != best)
		return best;
	if (!whole) {
		/* both fit the head: the whole file decides (map_load) */
		*name = NULL;
		*ambiguous = 2;
		return best;
	}
	uint64_t off;
	char shown[64];
	switch (nm_shape(head, len, whole, &off, shown, sizeof shown)) {
	case NM_BSD:
		*name = "nm";
		break;
	case NM_POSIX:
		*name = "nm-posix";
		break;
	default:
		*name = NULL;
		*ambiguous = 1;
	}
	return best;
}

/* ====================================================================== */
/* The engine                                                              */

typedef struct arena {
	char *buf;
	size_t len, cap;
} arena;

/* Strings are 32-bit offsets into one arena (names are interned once per
 * row; a 10^6-symbol nm listing keeps 48 bytes a symbol here). */
#define NONE UINT32_MAX

static uint32_t arena_add(arena *a, const char *s, size_t n)
{
	if (a->len + n + 1 >= NONE || /* (an arena over 4 GiB: as no memory) */
	    pc_grow((void **)&a->buf, &a->cap, a->len + n + 1, 1))
		return NONE;
	uint32_t at = (uint32_t)a->len;
	memcpy(a->buf + at, s, n);
	a->buf[at + n] = 0;
	a->len += n + 1;
	return at;
}

typedef struct msym {
	uint32_t name, file, section, cls, marker, type, input; /* arena offsets */
	uint32_t seg;
	uint8_t kind;    /* pc_symkind */
	uint8_t binding; /* pc_binding */
	uint64_t addr, size;
} msym;

typedef struct mreg {
	uint32_t name, cls;
	uint32_t seg;
	uint64_t low, high;
	pc_region_class rclass;
} mreg;

/* A line-number row: (seg, addr) starts line of file. */
typedef struct mline {
	size_t file;
	uint32_t seg;
	uint64_t addr;
	unsigned line;
} mline;

typedef struct engine {
	const dialect *d;
	pc_stream *s;
	arena str;
	msym *syms;
	size_t nsyms, capsyms;
	mline *lines;
	size_t nlines, caplines;
	uint64_t line_off; /* of the current line, for errors */
	mreg *regs;
	size_t nregs, capregs;
	uint64_t entry; /* an `emit: entry` row's address */
	uint32_t entry_seg;
	int has_entry;
	uint32_t ctx_file, ctx_section, ctx_input;
	pc_re_scratch sc;
	pc_re_span pm[PC_RE_MAX_GROUPS + 1];
} engine;

typedef struct fields {
	const char *p[F_COUNT];
	size_t n[F_COUNT];
	unsigned have;
} fields;

static void fset(fields *f, int k, const char *p, size_t n)
{
	while (n && isspace((unsigned char)*p)) {
		p++;
		n--;
	}
	while (n && isspace((unsigned char)p[n - 1]))
		n--;
	f->p[k] = p;
	f->n[k] = n;
	f->have |= 1u << k;
}

#define HAS(f, k) ((f)->have & (1u << (k)))

#define ROW_DAMAGED 3 /* row_apply, section_line: an `emit: error` row matched */

static int parse_num(const char *p, size_t n, int base, uint64_t *out)
{
	if (base == 16 && n > 2 && p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) {
		p += 2;
		n -= 2;
	} else if (base == 16 && n > 1 && (p[n - 1] == 'H' || p[n - 1] == 'h')) {
		n--;
	}
	if (!n)
		return 0;
	uint64_t v = 0;
	for (size_t i = 0; i < n; i++) {
		int dgt;
		char c = p[i];
		if (c >= '0' && c <= '9')
			dgt = c - '0';
		else if (base == 16 && c >= 'a' && c <= 'f')
			dgt = c - 'a' + 10;
		else if (base == 16 && c >= 'A' && c <= 'F')
			dgt = c - 'A' + 10;
		else
			return 0;
		if (v > (UINT64_MAX - (uint64_t)dgt) / (uint64_t)base)
			return 0;
		v = v * (uint64_t)base + (uint64_t)dgt;
	}
	*out = v;
	return 1;
}

/* Address from fields: address ("SSSS:OOOO" or a number) or segment and
 * offset. */
static int parse_addr(const fields *f, int mode, uint32_t *seg, uint64_t *addr)
{
	int nb = mode == AM_DECIMAL ? 10 : 16;
	uint64_t sv, ov;
	int have_seg = 0;
	if (HAS(f, F_ADDRESS)) {
		const char *p = f->p[F_ADDRESS];
		size_t n = f->n[F_ADDRESS];
		const char *colon = memchr(p, ':', n);
		if (colon) {
			if (!parse_num(p, (size_t)(colon - p), 16, &sv) ||
			    !parse_num(colon + 1, n - (size_t)(colon - p) - 1, 16, &ov))
				return 0;
			have_seg = 1;
		} else if (!parse_num(p, n, nb, &ov)) {
			return 0;
		}
	} else {
		if (!parse_num(f->p[F_SEGMENT], f->n[F_SEGMENT], 16, &sv) ||
		    !parse_num(f->p[F_OFFSET], f->n[F_OFFSET], nb, &ov))
			return 0;
		have_seg = 1;
	}
	if (!have_seg) {
		*seg = PC_NOSEG;
		*addr = ov;
		return 1;
	}
	if (sv > 0xFFFFFFFEu)
		return 0;
	if (mode == AM_SEGOFF) {
		if (sv > UINT64_MAX / 16 || sv * 16 > UINT64_MAX - ov)
			return 0;
		*seg = PC_NOSEG;
		*addr = sv * 16 + ov;
	} else if (mode == AM_OBJOFF) {
		*seg = (uint32_t)sv;
		*addr = ov;
	} else {
		/* flat dialect with a segment: keep it as a namespace */
		*seg = (uint32_t)sv;
		*addr = ov;
	}
	return 1;
}

static uint32_t fstr(engine *e, const fields *f, int k)
{
	if (!HAS(f, k))
		return NONE;
	return arena_add(&e->str, f->p[k], f->n[k]);
}

/* ---- the nm row without the regular expression ----------------------
 * The nm dialect's row (dialects/nm.yaml) is split by hand: one pass over
 * the line, the fields the expression gives (the optional size is taken
 * when the line allows both readings, as the expression's greedy '?'
 * does), whatever the line's length; the test compares both on every nm
 * fixture and on crafted lines (tests/hostile/test_nm_split.c). */
static int is_hex(unsigned char c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') ||
	       (c >= 'A' && c <= 'F');
}

static int is_nm_type(unsigned char c)
{
	return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '?' ||
	       c == '-';
}

/* '^(?P<address>[0-9a-fA-F]+) (?:(?P<size>[0-9a-fA-F]+) )?(?P<type>[A-Za-z?-]) (?P<name>.+)$'
 * on line[0, len): 1 and the fields, or 0 when it does not match. */
static int nm_split(const char *line, size_t len, fields *f)
{
	const unsigned char *s = (const unsigned char *)line;
	size_t a = 0;
	while (a < len && is_hex(s[a]))
		a++;
	if (a == 0 || a >= len || s[a] != ' ')
		return 0;
	size_t z = a + 1, t;
	while (z < len && is_hex(s[z]))
		z++;
	if (z > a + 1 && z + 3 < len && s[z] == ' ' && is_nm_type(s[z + 1]) &&
	    s[z + 2] == ' ')
		t = z + 1; /* with a size */
	else if (a + 3 < len && is_nm_type(s[a + 1]) && s[a + 2] == ' ')
		t = a + 1, z = 0;
	else
		return 0;
	fset(f, F_ADDRESS, line, a);
	if (z)
		fset(f, F_SIZE, line + a + 1, z - a - 1);
	fset(f, F_TYPE, line + t, 1);
	fset(f, F_NAME, line + t + 2, len - t - 2);
	return 1;
}

/* 1 if the row took the line, 0 if not, ROW_DAMAGED if an error row
 * matched it, negative status on failure. */

/* One line number of a lines row's match: 1, 0 (not one), PC_ENOMEM. */
static int line_row(engine *e, const row *rw, const fields *f)
{
	mline ml;
	uint64_t ln;
	if (!HAS(f, F_LINE) || !parse_num(f->p[F_LINE], f->n[F_LINE], 10, &ln) || !ln ||
	    ln > 0xFFFFFFFFu || !parse_addr(f, rw->addr_mode, &ml.seg, &ml.addr))
		return 0;
	ml.line = (unsigned)ln;
	ml.file = e->ctx_file;
	if (pc_grow((void **)&e->lines, &e->caplines, e->nlines + 1, sizeof *e->lines))
		return PC_ENOMEM;
	e->lines[e->nlines++] = ml;
	return 1;
}

static int sym_row(engine *e, const row *rw, const fields *fp)
{
	const fields f = *fp;
	msym m;
	memset(&m, 0, sizeof m);
	if (!HAS(&f, F_NAME) || !f.n[F_NAME])
		return 0;
	if (!parse_addr(&f, rw->addr_mode, &m.seg, &m.addr))
		return 0;
	if (HAS(&f, F_SIZE) && f.n[F_SIZE] &&
	    !parse_num(f.p[F_SIZE], f.n[F_SIZE], rw->base, &m.size))
		return 0;
	if (pc_grow((void **)&e->syms, &e->capsyms, e->nsyms + 1, sizeof *e->syms))
		return PC_ENOMEM;
	m.name = fstr(e, &f, F_NAME);
	m.file = HAS(&f, F_FILE) && f.n[F_FILE] ? fstr(e, &f, F_FILE) : e->ctx_file;
	m.section = HAS(&f, F_SECTION) && f.n[F_SECTION] ? fstr(e, &f, F_SECTION)
							  : e->ctx_section;
	m.input = HAS(&f, F_INPUT) && f.n[F_INPUT] ? fstr(e, &f, F_INPUT) : e->ctx_input;
	m.cls = HAS(&f, F_CLASS) && f.n[F_CLASS] ? fstr(e, &f, F_CLASS) : NONE;
	m.marker = fstr(e, &f, F_MARKER);
	m.type = fstr(e, &f, F_TYPE);
	m.kind = (uint8_t)rw->kind;
	m.binding = (uint8_t)rw->binding;
	if (m.name == NONE)
		return PC_ENOMEM;
	e->syms[e->nsyms++] = m;
	return 1;
}

/* A repeating row (a lines row, ld65's two symbols a line): its match
 * found again and again along the line, each one taken by each(); the
 * line is taken only when nothing but blanks lies between and around
 * them. */
static int repeat_apply(engine *e, const row *rw, const char *line, size_t len,
			int (*each)(engine *, const row *, const fields *))
{
	size_t pos = 0, n0 = e->nsyms, l0 = e->nlines;
	int found = 0, r = 0;
	while (pos < len) {
		int m = pc_re_exec(rw->match.re, &e->sc, line + pos, len - pos, e->pm,
				   rw->match.nsub);
		if (m < 0)
			return m;
		if (!m || e->pm[0].eo == e->pm[0].so)
			break;
		for (size_t i = pos; i < pos + e->pm[0].so && !r; i++)
			r = line[i] != ' ' && line[i] != '\t';
		if (r)
			break;
		fields f;
		memset(&f, 0, sizeof f);
		for (int k = 0; k < F_COUNT; k++) {
			int g = rw->match.group[k];
			if (g && e->pm[g].so != PC_RE_UNSET)
				fset(&f, k, line + pos + e->pm[g].so, e->pm[g].eo - e->pm[g].so);
		}
		size_t adv = e->pm[0].eo;
		int t = each(e, rw, &f);
		if (t < 0)
			return t;
		if (!t) {
			r = 1;
			break;
		}
		found = 1;
		pos += adv;
	}
	for (; pos < len && !r; pos++)
		r = line[pos] != ' ' && line[pos] != '\t';
	if (r) {
		e->nsyms = n0;
		e->nlines = l0;
		return 0;
	}
	return found;
}

static int row_apply(engine *e, const row *rw, const char *line, size_t len)
{
	fields f;
	memset(&f, 0, sizeof f);
	if (rw->emit == EM_LINES) {
		int r = repeat_apply(e, rw, line, len, line_row);
		if (r > 0 && e->ctx_file == NONE)
			return pc_stream_fail(e->s, PC_EFORMAT, (int64_t)e->line_off,
					      "line numbers before any source file was named (dialect %s: a lines row needs a 'file' context)",
					      e->d->name);
		return r;
	}
	if (rw->repeat)
		return repeat_apply(e, rw, line, len, sym_row);
	if (rw->nm_split) {
		if (!nm_split(line, strlen(line), &f))
			return 0;
	} else if (rw->has_match) {
		/* the expression sees the line up to a NUL byte */
		int m = pc_re_exec(rw->match.re, &e->sc, line, strlen(line), e->pm,
				   rw->match.nsub);
		if (m <= 0)
			return m;
		for (int k = 0; k < F_COUNT; k++) {
			int g = rw->match.group[k];
			if (g && e->pm[g].so != PC_RE_UNSET)
				fset(&f, k, line + e->pm[g].so, e->pm[g].eo - e->pm[g].so);
		}
	}
	for (int k = 0; k < F_COUNT; k++) {
		if (!(rw->has_col & (1u << k)))
			continue;
		size_t a = (size_t)rw->col_start[k];
		size_t b = rw->col_end[k] < 0 ? len : (size_t)rw->col_end[k];
		if (a > len)
			a = len;
		if (b > len)
			b = len;
		fset(&f, k, line + a, b > a ? b - a : 0);
	}
	switch (rw->emit) {
	case EM_SKIP:
		return 1;
	case EM_ENTRY: /* the program's entry point: checked against it */
		if (!parse_addr(&f, rw->addr_mode, &e->entry_seg, &e->entry))
			return 0;
		e->has_entry = 1;
		return 1;
	case EM_ERROR:
		return ROW_DAMAGED;
	case EM_CONTEXT:
		if (HAS(&f, F_FILE))
			e->ctx_file = f.n[F_FILE] ? fstr(e, &f, F_FILE) : NONE;
		if (HAS(&f, F_SECTION)) {
			/* a new section starts with no input section */
			e->ctx_section = f.n[F_SECTION] ? fstr(e, &f, F_SECTION) : NONE;
			e->ctx_input = NONE;
		}
		if (HAS(&f, F_INPUT))
			e->ctx_input = f.n[F_INPUT] ? fstr(e, &f, F_INPUT) : NONE;
		return 1;
	case EM_SYMBOL:
		return sym_row(e, rw, &f);
	case EM_REGION: {
		mreg g;
		memset(&g, 0, sizeof g);
		if (HAS(&f, F_START)) {
			g.seg = PC_NOSEG;
			if (!parse_num(f.p[F_START], f.n[F_START], rw->base, &g.low))
				return 0;
		} else if (!parse_addr(&f, rw->addr_mode, &g.seg, &g.low)) {
			return 0;
		}
		uint64_t v;
		if (HAS(&f, F_SIZE)) {
			if (!parse_num(f.p[F_SIZE], f.n[F_SIZE], rw->base, &v) ||
			    pc_add_overflow(g.low, v, &g.high))
				return 0;
		} else if (HAS(&f, F_STOP)) {
			if (!parse_num(f.p[F_STOP], f.n[F_STOP], rw->base, &v) || v < g.low ||
			    v == UINT64_MAX)
				return 0;
			g.high = v + 1;
		} else {
			if (!parse_num(f.p[F_END], f.n[F_END], rw->base, &v) || v < g.low)
				return 0;
			g.high = v;
		}
		if (pc_grow((void **)&e->regs, &e->capregs, e->nregs + 1, sizeof *e->regs))
			return PC_ENOMEM;
		if (HAS(&f, F_NAME) && f.n[F_NAME])
			g.name = fstr(e, &f, F_NAME);
		else if (HAS(&f, F_SECTION) && f.n[F_SECTION])
			g.name = fstr(e, &f, F_SECTION);
		else
			g.name = NONE;
		/* a region row naming a section or file also sets the context */
		if (HAS(&f, F_SECTION)) {
			e->ctx_section = f.n[F_SECTION] ? fstr(e, &f, F_SECTION) : NONE;
			e->ctx_input = NONE;
		}
		if (HAS(&f, F_FILE))
			e->ctx_file = f.n[F_FILE] ? fstr(e, &f, F_FILE) : NONE;
		g.cls = HAS(&f, F_CLASS) && f.n[F_CLASS] ? fstr(e, &f, F_CLASS) : NONE;
		g.rclass = rw->rclass;
		e->regs[e->nregs++] = g;
		return 1;
	}
	}
	return 0;
}

/* Tries skip patterns and rows of sec: 1 a row took the line, 2 skipped,
 * ROW_DAMAGED an error row matched, 0 neither, <0 error. */
static int section_line(engine *e, const section *sec, const char *line,
			size_t len)
{
	for (size_t i = 0; i < sec->nskip; i++) {
		int t = rx_test(&sec->skip[i], &e->sc, line);
		if (t)
			return t > 0 ? 2 : t; /* skipped: not a row */
	}
	for (size_t i = 0; i < sec->nrows; i++) {
		int r = row_apply(e, &sec->rows[i], line, len);
		if (r)
			return r;
	}
	return 0;
}

static int unmatched(engine *e, const char *where, const char *line, size_t len,
		     uint64_t off, int damaged)
{
	char shown[61];
	size_t n = len > 60 ? 60 : len;
	for (size_t i = 0; i < n; i++) /* control bytes would garble a terminal */
		shown[i] = (unsigned char)line[i] < 0x20 || line[i] == 0x7f ? '?' : line[i];
	shown[n] = 0;
	return pc_stream_fail(e->s, PC_EFORMAT, (int64_t)off,
			      "%s of %s (dialect %s), found \"%s%s\"",
			      damaged ? "damaged row" : "expected a row", where, e->d->name,
			      shown, len > 60 ? "..." : "");
}

static int engine_run(engine *e)
{
	const dialect *d = e->d;
	const section *cur = NULL;
	size_t cur_rows = 0;
	int dos_eof = 0; /* a Ctrl-Z was read: no line after it */
	char *buf = NULL, *pend = NULL;
	size_t bcap = 0, pcap = 0, plen = 0;
	uint64_t poff = 0;
	int have_pend = 0, r = PC_OK;
	uint64_t off = 0;

	for (;;) {
		const char *l;
		size_t n;
		if (have_pend) {
			if (pc_grow((void **)&buf, &bcap, plen + 1, 1)) {
				r = PC_ENOMEM;
				break;
			}
			memcpy(buf, pend, plen + 1);
			n = plen;
			off = poff;
			have_pend = 0;
		} else {
			if (dos_eof)
				break;
			int g = pc_stream_getline(&l, &n, &off, e->s);
			if (g < 0) {
				r = g;
				break;
			}
			if (!l) /* the end */
				break;
			if (pc_grow((void **)&buf, &bcap, n + 1, 1)) {
				r = PC_ENOMEM;
				break;
			}
			memcpy(buf, l, n);
			buf[n] = 0;
		}
		char *z = memchr(buf, DOS_EOF, n);
		if (z) {
			n = (size_t)(z - buf);
			*z = 0;
			dos_eof = 1;
		}
		/* wrapped lines (not across the end of the file) */
		int t = dos_eof ? 0 : rx_test(&d->join_line, &e->sc, buf);
		if (t < 0) {
			r = t;
			break;
		}
		if (t) {
			uint64_t noff;
			int g = pc_stream_getline(&l, &plen, &noff, e->s);
			if (g < 0) {
				r = g;
				break;
			}
			if (l) {
				if (pc_grow((void **)&pend, &pcap, plen + 1, 1)) {
					r = PC_ENOMEM;
					break;
				}
				memcpy(pend, l, plen);
				pend[plen] = 0;
				poff = noff;
				char *pz = memchr(pend, DOS_EOF, plen);
				if (pz) { /* the end comes on the next line */
					plen = (size_t)(pz - pend);
					*pz = 0;
					dos_eof = 1;
				}
				if ((t = rx_test(&d->join_next, &e->sc, pend)) < 0) {
					r = t;
					break;
				}
				if (t) {
					if (pc_grow((void **)&buf, &bcap, n + plen + 2, 1)) {
						r = PC_ENOMEM;
						break;
					}
					buf[n] = ' ';
					memcpy(buf + n + 1, pend, plen + 1);
					n += plen + 1;
				} else {
					have_pend = 1;
				}
			}
		}
		e->line_off = off;
		int blank = is_blank(buf, n);
		if (cur) {
			if ((t = rx_test(&cur->end, &e->sc, buf)) < 0) {
				r = t;
				break;
			}
			if (t) {
				cur = NULL;
				continue;
			}
			if (blank) {
				if (cur->end_blank && cur_rows)
					cur = NULL;
				continue;
			}
		}
		if (blank)
			continue;
		int entered = 0;
		t = 0;
		for (size_t i = 0; i < d->nsecs && !entered; i++) {
			if ((t = rx_test(&d->secs[i].begin, &e->sc, buf)) < 0)
				break;
			if (t) {
				cur = &d->secs[i];
				cur_rows = 0;
				entered = 1;
				e->ctx_input = NONE;
				/* the begin line's file / section: the context of
				 * the section's rows */
				const rx *b = &cur->begin;
				if (b->group[F_FILE] || b->group[F_SECTION]) {
					if ((t = pc_re_exec(b->re, &e->sc, buf, n, e->pm, b->nsub)) < 0)
						break;
					for (int k = F_FILE; k <= F_SECTION; k++) {
						int g = b->group[k];
						if (!g || e->pm[g].so == PC_RE_UNSET)
							continue;
						size_t v = e->pm[g].eo > e->pm[g].so
							   ? arena_add(&e->str, buf + e->pm[g].so,
								       e->pm[g].eo - e->pm[g].so)
							   : NONE;
						if (k == F_FILE)
							e->ctx_file = v;
						else
							e->ctx_section = v;
					}
					t = 1;
				}
			}
		}
		if (t < 0) {
			r = t;
			break;
		}
		if (entered)
			continue;
		if (cur) {
			t = section_line(e, cur, buf, n);
			if (t < 0) {
				r = t;
				break;
			}
			if (t == ROW_DAMAGED) {
				char where[160];
				snprintf(where, sizeof where, "section '%s'", cur->name);
				r = unmatched(e, where, buf, n, off, 1);
				break;
			}
			if (t) {
				cur_rows += t == 1;
				continue;
			}
			if (cur->other == OT_SKIP)
				continue;
			if (cur->other == OT_ERROR) {
				char where[160];
				snprintf(where, sizeof where, "section '%s'", cur->name);
				r = unmatched(e, where, buf, n, off, 0);
				break;
			}
			cur = NULL; /* OT_END: the line is read at top level */
		}
		t = section_line(e, &d->top, buf, n);
		if (t < 0) {
			r = t;
			break;
		}
		if (t == ROW_DAMAGED || (!t && d->top.other == OT_ERROR)) {
			r = unmatched(e, "the file", buf, n, off, t == ROW_DAMAGED);
			break;
		}
	}
	free(buf);
	free(pend);
	if (r == PC_ELIMIT) /* a dialect's expression: the line's offset */
		r = pc_re_budget_fail(e->s, (int64_t)off, &e->sc);
	return r;
}

/* ---- classification and output ----------------------------------------- */

typedef struct regsort {
	const mreg *r;
} regsort;

static int cmp_reg(const void *a, const void *b)
{
	const mreg *x = ((const regsort *)a)->r, *y = ((const regsort *)b)->r;
	if (x->seg != y->seg)
		return x->seg < y->seg ? -1 : 1;
	if (x->low != y->low)
		return x->low < y->low ? -1 : 1;
	return 0;
}

/* Innermost non-empty region holding (seg, addr). */
static const mreg *region_of(const regsort *rs, size_t n, uint32_t seg,
			     uint64_t addr)
{
	size_t lo = 0, hi = n;
	while (lo < hi) { /* first region with (seg, low) > (seg, addr) */
		size_t mid = lo + (hi - lo) / 2;
		const mreg *m = rs[mid].r;
		if (m->seg < seg || (m->seg == seg && m->low <= addr))
			lo = mid + 1;
		else
			hi = mid;
	}
	const mreg *best = NULL;
	for (size_t i = lo; i-- > 0;) {
		const mreg *m = rs[i].r;
		if (m->seg != seg)
			break;
		if (addr < m->high && (!best || m->high - m->low < best->high - best->low))
			best = m;
		if (best && addr - m->low >= best->high - best->low)
			break; /* regions further back cannot be smaller */
	}
	return best;
}

static const char *astr(const engine *e, uint32_t at)
{
	return at == NONE ? NULL : e->str.buf + at;
}

static int cond_ok(const rx *r, pc_re_scratch *sc, const char *v)
{
	return rx_test(r, sc, v ? v : "");
}

typedef struct symkey {
	const char *name;
	uint32_t seg;
	uint64_t addr;
	size_t idx;
} symkey;

static int cmp_symkey(const void *a, const void *b)
{
	const symkey *x = a, *y = b;
	int c = strcmp(x->name, y->name);
	if (c)
		return c;
	if (x->seg != y->seg)
		return x->seg < y->seg ? -1 : 1;
	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	return x->idx < y->idx ? -1 : (x->idx > y->idx);
}

typedef struct addrkey {
	uint64_t addr;
	uint32_t seg;
	uint32_t idx;
} addrkey;

static int cmp_addrkey(const void *a, const void *b)
{
	const addrkey *x = a, *y = b;
	if (x->seg != y->seg)
		return x->seg < y->seg ? -1 : 1;
	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	return x->idx < y->idx ? -1 : (x->idx > y->idx);
}

/* Marks the repeats of (name, segment, address): maps list their publics
 * twice (by name and by value); the first listing is kept.  Sorted by
 * (segment, address) first, 16 bytes a symbol; names are compared only
 * among the symbols at one address (sorted by name when there are many). */
static unsigned char *find_repeats(const engine *e)
{
	size_t n = e->nsyms;
	if (n > UINT32_MAX)
		return NULL;
	unsigned char *dup = calloc(n ? n : 1, 1);
	addrkey *k = malloc((n ? n : 1) * sizeof *k);
	if (!dup || !k) {
		free(dup);
		free(k);
		return NULL;
	}
	for (size_t i = 0; i < n; i++)
		k[i] = (addrkey){e->syms[i].addr, e->syms[i].seg, (uint32_t)i};
	qsort(k, n, sizeof *k, cmp_addrkey);
	for (size_t i = 0; i < n;) {
		size_t j = i + 1;
		while (j < n && k[j].seg == k[i].seg && k[j].addr == k[i].addr)
			j++;
		if (j - i <= 8) { /* a few: each against the earlier ones */
			for (size_t a = i + 1; a < j; a++)
				for (size_t b = i; b < a && !dup[k[a].idx]; b++)
					if (!dup[k[b].idx] &&
					    strcmp(e->str.buf + e->syms[k[a].idx].name,
						   e->str.buf + e->syms[k[b].idx].name) == 0)
						dup[k[a].idx] = 1;
		} else {
			symkey *g = malloc((j - i) * sizeof *g);
			if (!g) {
				free(dup);
				free(k);
				return NULL;
			}
			for (size_t a = i; a < j; a++)
				g[a - i] = (symkey){e->str.buf + e->syms[k[a].idx].name,
						    k[a].seg, k[a].addr, k[a].idx};
			qsort(g, j - i, sizeof *g, cmp_symkey);
			for (size_t a = 1; a < j - i; a++)
				if (strcmp(g[a].name, g[a - 1].name) == 0)
					dup[g[a].idx] = 1;
			free(g);
		}
		i = j;
	}
	free(k);
	return dup;
}

/* The sections of the symbols loaded before the map (an ELF given beside
 * it: profcat loads ELF files first) and what they hold: text when the
 * ELF marks the section executable (the elf loader makes every symbol of
 * such a section text), else bss or data.  At most 4096 sections. */
typedef struct knownsec {
	char *name;
	pc_symkind kind;
} knownsec;

static int cmp_knownsec(const void *a, const void *b)
{
	return strcmp(((const knownsec *)a)->name, ((const knownsec *)b)->name);
}

static size_t known_sections(const pc_profile *p, knownsec **out)
{
	size_t n = pc_profile_symbol_count(p), m = 0, k = 0;
	knownsec *all = malloc((n ? n : 1) * sizeof *all), *v;
	*out = NULL;
	if (!all)
		return 0;
	for (size_t i = 0; i < n; i++) {
		pc_symbol s;
		if (pc_profile_symbol_at(&s, p, i) == PC_OK && s.section &&
		    (s.kind == PC_SYM_TEXT || s.kind == PC_SYM_DATA || s.kind == PC_SYM_BSS))
			all[m++] = (knownsec){(char *)s.section, s.kind};
	}
	qsort(all, m, sizeof *all, cmp_knownsec);
	v = malloc((m ? m : 1) * sizeof *v);
	for (size_t i = 0; v && i < m;) {
		size_t j = i;
		pc_symkind kind = PC_SYM_DATA;
		for (; j < m && strcmp(all[j].name, all[i].name) == 0; j++)
			if (all[j].kind == PC_SYM_TEXT ||
			    (all[j].kind == PC_SYM_BSS && kind == PC_SYM_DATA))
				kind = all[j].kind;
		if (!(v[k].name = pc_strndup(all[i].name, strlen(all[i].name))))
			break;
		v[k++].kind = kind;
		i = j;
	}
	free(all);
	*out = v;
	return v ? k : 0;
}

/* A map that lists segments and no symbol (TLINK without /m, LINK
 * without /MAP): each segment that holds a byte stands for its functions,
 * a symbol of its name and extent, classified by the dialect's rules as
 * a symbol inside it would be (so code segments receive the samples, are
 * targets of -r disasm and are checked against a DOS program). */
static int segments_as_symbols(engine *e, pc_profile *p)
{
	size_t n = 0;
	for (size_t i = 0; i < e->nregs; i++) {
		const mreg *g = &e->regs[i];
		if (g->high <= g->low || g->name == NONE)
			continue;
		if (pc_grow((void **)&e->syms, &e->capsyms, e->nsyms + 1, sizeof *e->syms))
			return PC_ENOMEM;
		msym m;
		memset(&m, 0, sizeof m);
		m.name = m.section = g->name;
		m.cls = g->cls;
		m.file = m.marker = m.type = m.input = NONE;
		m.seg = g->seg;
		m.addr = g->low;
		m.size = g->high - g->low;
		m.kind = PC_SYM_TEXT;
		m.binding = PC_BIND_GLOBAL;
		e->syms[e->nsyms++] = m;
		n++;
	}
	if (n)
		pc_profile_note(p, "%s: the map lists segments and no symbol: its %zu segment%s stand for the functions (a map with the publics names them)",
				pc_stream_name(e->s), n, n == 1 ? "" : "s");
	return PC_OK;
}

static int engine_emit(engine *e, pc_profile *p, uint64_t load)
{
	const dialect *d = e->d;
	if (!e->nsyms && e->nregs) {
		int r = segments_as_symbols(e, p);
		if (r)
			return r;
	}
	unsigned char *dup = find_repeats(e);
	if (!dup)
		return PC_ENOMEM;
	regsort *rs = NULL;
	if (e->nregs) {
		rs = malloc(e->nregs * sizeof *rs);
		if (!rs) {
			free(dup);
			return PC_ENOMEM;
		}
		for (size_t i = 0; i < e->nregs; i++)
			rs[i].r = &e->regs[i];
		qsort(rs, e->nregs, sizeof *rs, cmp_reg);
	}
	uint64_t shift = 0;
	if (load && pc_mul_overflow(load, d->load_unit, &shift)) {
		free(rs);
		free(dup);
		return pc_stream_fail(e->s, PC_EUSAGE, -1, "load-address too large");
	}
	knownsec *ks = NULL;
	size_t nks = known_sections(p, &ks), from_elf = 0, changed = 0;
	int r = PC_OK;
	if (e->has_entry && e->entry_seg == PC_NOSEG &&
	    !pc_add_overflow(e->entry, shift, &e->entry)) {
		char v[32];
		snprintf(v, sizeof v, "0x%llx", (unsigned long long)e->entry);
		r = pc_profile_set_meta(p, "map.entry", v);
	}
	for (size_t i = 0; i < e->nregs && !r; i++) {
		const mreg *g = &e->regs[i];
		pc_region pr = {g->seg, g->low, g->high, g->rclass, astr(e, g->name)};
		if (g->seg == PC_NOSEG &&
		    (pc_add_overflow(pr.low, shift, &pr.low) ||
		     pc_add_overflow(pr.high, shift, &pr.high))) {
			r = pc_stream_fail(e->s, PC_EUSAGE, -1, "load-address too large");
			break;
		}
		r = pc_profile_add_region(p, &pr);
	}
	for (size_t i = 0; i < e->nsyms && !r; i++) {
		const msym *m = &e->syms[i];
		if (dup[i])
			continue;
		const mreg *g = rs ? region_of(rs, e->nregs, m->seg, m->addr) : NULL;
		const char *vals[F_COUNT] = {0};
		vals[F_NAME] = astr(e, m->name);
		vals[F_MARKER] = astr(e, m->marker);
		vals[F_TYPE] = astr(e, m->type);
		vals[F_FILE] = astr(e, m->file);
		vals[F_INPUT] = astr(e, m->input);
		vals[F_CLASS] = m->cls != NONE ? astr(e, m->cls) : g ? astr(e, g->cls) : NULL;
		vals[F_SECTION] = m->section != NONE ? astr(e, m->section)
						     : g ? astr(e, g->name) : NULL;
		pc_symkind kind = m->kind;
		pc_binding bind = m->binding;
		int drop = 0;
		for (size_t k = 0; k < d->nrules; k++) {
			const rule *ru = &d->rules[k];
			int ok = 1;
			for (int f = 0; f < F_COUNT && ok > 0; f++)
				if (ru->has & (1u << f))
					ok = cond_ok(&ru->cond[f], &e->sc, vals[f]);
			if (ok < 0) {
				r = ok;
				break;
			}
			if (!ok)
				continue;
			drop = ru->drop;
			if (ru->kind >= 0)
				kind = (pc_symkind)ru->kind;
			if (ru->binding >= 0)
				bind = (pc_binding)ru->binding;
			break;
		}
		if (r)
			break;
		if (drop)
			continue;
		if (nks && vals[F_SECTION] &&
		    (kind == PC_SYM_TEXT || kind == PC_SYM_DATA || kind == PC_SYM_BSS)) {
			/* the ELF beside the map decides, section by section */
			knownsec key = {(char *)vals[F_SECTION], PC_SYM_TEXT};
			const knownsec *hit = bsearch(&key, ks, nks, sizeof *ks, cmp_knownsec);
			if (hit) {
				from_elf++;
				changed += kind != hit->kind;
				kind = hit->kind;
			}
		}
		pc_symbol s;
		memset(&s, 0, sizeof s);
		s.name = vals[F_NAME];
		s.file = vals[F_FILE];
		s.section = vals[F_SECTION];
		s.segment = m->seg;
		s.address = m->addr;
		s.size = m->size;
		s.kind = kind;
		s.binding = bind;
		if (m->seg == PC_NOSEG && kind != PC_SYM_ABS &&
		    pc_add_overflow(s.address, shift, &s.address)) {
			r = pc_stream_fail(e->s, PC_EUSAGE, -1, "load-address too large");
			break;
		}
		r = pc_profile_add_symbol(p, &s);
	}
	if (from_elf)
		pc_profile_note(p, "%s: code or data of %zu symbols from the sections of the executable loaded before the map (%zu differ from the map's own reading)",
				pc_stream_name(e->s), from_elf, changed);
	for (size_t k = 0; k < nks; k++)
		free(ks[k].name);
	free(ks);
	/* line numbers (MS LINK /LINENUMBERS) */
	for (size_t i = 0; i < e->nlines && !r; i++) {
		const mline *ml = &e->lines[i];
		uint64_t a = ml->addr;
		if (ml->seg == PC_NOSEG && pc_add_overflow(a, shift, &a)) {
			r = pc_stream_fail(e->s, PC_EUSAGE, -1, "load-address too large");
			break;
		}
		r = pc_profile_add_line(p, ml->seg, a, astr(e, ml->file), ml->line);
	}
	free(rs);
	free(dup);
	return r;
}

/* ====================================================================== */
/* The loader                                                              */

static int map_probe(const unsigned char *head, size_t len, const char *filename)
{
	(void)filename;
	if (!len || memchr(head, 0, len))
		return 0;
	const char *name;
	int ambiguous;
	return detect_map(head, len, len < 4096, &name, &ambiguous);
}

static int dialect_compile_any(const pc_ynode *root, const char *file, void **out,
			       char *err, size_t errlen)
{
	dialect *d;
	int r = dialect_compile(root, file, &d, err, errlen, 0);
	*out = d;
	return r;
}

/* The whole listing in memory, when the first 4 KiB cannot tell nm from
 * nm -P (map_detect). */
typedef struct whole_copy {
	pc_stream *ms;
	void *buf;
} whole_copy;

static int map_detect(pc_profile *p, pc_stream *s, const unsigned char *head, size_t len,
		      int whole, const char **name, void *arg)
{
	whole_copy *w = arg;
	int ambiguous, r;
	if (!detect_map(head, len, whole, name, &ambiguous))
		return 0;
	if (ambiguous == 2) {
		/* nm and nm -P both read the first 4 KiB: every line of
		 * the listing decides, read into memory */
		size_t whole_len = 0;
		r = pc_stream_read_all(&w->buf, &whole_len, s, (uint64_t)1 << 40);
		if (r)
			return r;
		r = pc_stream_open_memory(&w->ms, w->buf, whole_len, pc_stream_name(s));
		if (r)
			return pc_profile_fail(p, r, "out of memory");
		head = w->buf;
		len = whole_len;
		whole = 1;
		/* only the two nm dialects are scored on the whole
		 * listing (every dialect's patterns on every line of a
		 * large listing cost ~500 instructions a byte) */
		int sn = detect_score("nm", head, len, 1),
		    sp = detect_score("nm-posix", head, len, 1);
		uint64_t at;
		char ex[64];
		ambiguous = 0;
		if (sn != sp)
			*name = sn > sp ? "nm" : "nm-posix";
		else if (!sn) /* a later line fits neither */
			ambiguous = 1;
		else
			switch (nm_shape(head, len, 1, &at, ex, sizeof ex)) {
			case NM_BSD:
				*name = "nm";
				break;
			case NM_POSIX:
				*name = "nm-posix";
				break;
			default:
				ambiguous = 1;
			}
	}
	if (ambiguous) {
		uint64_t off;
		char shown[64];
		nm_shape(head, len, whole, &off, shown, sizeof shown);
		return pc_stream_fail(
			s, PC_EFORMAT, (int64_t)off,
			"nm listing reads both as ADDRESS TYPE NAME (nm) and as NAME TYPE VALUE (nm -P), e.g. \"%s\"; choose with the option dialect=nm or dialect=nm-posix",
			shown);
	}
	return 1;
}

static const pc_ydkind map_kind = {"map", "dialects", "dialect", "dialects",
				   pc_map_builtins, dialect_compile_any, map_detect};

static int map_load(pc_profile *p, pc_stream *s, const pc_options *opts)
{
	void *dv;
	int r;
	whole_copy w = {NULL, NULL}; /* the whole listing in memory (nm tie) */
	const char *want = pc_options_get(opts, "dialect");
	if ((r = pc_yd_choose(p, s, &map_kind, want, &w, &dv))) {
		pc_stream_free(w.ms);
		pc_free(w.buf);
		return r;
	}
	dialect *d = dv;
	pc_stream *ms = w.ms;
	void *whole_buf = w.buf;
	uint64_t load = 0;
	if (pc_options_get_u64(&load, NULL, opts, "load-address") < 0) {
		dialect_free(d);
		pc_stream_free(ms);
		pc_free(whole_buf);
		return pc_profile_fail(p, PC_EUSAGE, "load-address must be a number");
	}
	engine e;
	memset(&e, 0, sizeof e);
	e.d = d;
	e.s = ms ? ms : s;
	e.ctx_file = e.ctx_section = e.ctx_input = NONE;
	pc_profile_note(p, "map: dialect %s%s", d->name, want && *want ? "" : " (detected)");
	r = engine_run(&e);
	if (r == PC_ELIMIT) {
		/* the regular expressions' work limit names the expression;
		 * say whose it is */
		const pc_error *er = pc_stream_error(e.s);
		if (er && er->message && strncmp(er->message, "regular expression", 18) == 0) {
			char msg[600];
			snprintf(msg, sizeof msg, "%s", er->message);
			pc_stream_fail(e.s, PC_ELIMIT, er->offset, "dialect %s: %s",
				       want && *want ? want : d->name, msg);
		}
	}
	if (!r && !e.nsyms && !e.nregs)
		r = pc_stream_fail(e.s, PC_EFORMAT, 0,
				   "no symbols or segments found (dialect %s)", d->name);
	if (!r)
		r = engine_emit(&e, p, load);
	if (r && ms) {
		/* the in-memory copy's error is the file's */
		const pc_error *er = pc_stream_error(ms);
		if (er && er->message)
			pc_stream_fail(s, er->code, er->offset, "%s", er->message);
	}
	pc_stream_free(ms);
	pc_free(whole_buf);
	free(e.syms);
	free(e.lines);
	free(e.regs);
	free(e.str.buf);
	pc_re_scratch_free(&e.sc);
	dialect_free(d);
	return r;
}

static const char *const map_ext[] = {"map", "MAP", "nm", NULL};

static const pc_option_decl map_options[] = {
	{"dialect", PC_OPTION_STRING, NULL, NULL,
	 "a built-in dialect name or a FILE.yaml; default: detected"},
	{"load-address", PC_OPTION_U64, NULL, "0",
	 "added to every address of the map"},
	{NULL, PC_OPTION_STRING, NULL, NULL, NULL},
};

const pc_loader pc_loader_map = {
	.abi_version = PC_LOADER_ABI_VERSION,
	.name = "map",
	.description = "linker maps and symbol listings via YAML dialects (MS LINK, TLINK, WLINK, GNU ld, nm)",
	.roles = PC_ROLE_SYMBOLS,
	.extensions = map_ext,
	.probe = map_probe,
	.load = map_load,
	/* after ELF files (order 0), whose sections decide code and data */
	.order = 5,
	.options = map_options,
};
