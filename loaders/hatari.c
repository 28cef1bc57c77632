/*
 * hatari.c - Hatari's saved CPU profile ("profile save FILE" in the Hatari
 * debugger) as a capture.
 *
 * Hatari counts every executed instruction per address (not sampling), so
 * each disassembly line "ADDR ... PCT% (count, cycles, i-misses, d-hits)"
 * becomes count samples at ADDR (an absolute Atari address).  The file is
 * self-describing: its "Field regexp:" line gives the regular expression
 * (group 1 = hex address, group 2 = comma-separated counters) that matches
 * the disassembly lines of that Hatari version; it is used when it compiles
 * as an extended regular expression with two groups (libprofcore/pc_regex.h:
 * bounded time and memory whatever the file says), else a built-in
 * equivalent.
 *
 * Also read: "Cycles/second:" (the CPU clock), the memory areas
 * ("ST_RAM:", "ROM_TOS:", "CARTRIDGE:", "PROGRAM_TEXT:", "TT_RAM:") as
 * regions (PROGRAM_TEXT also as the meta key hatari.program_text,
 * "0xLOW-0xHIGH") (PROGRAM_TEXT = application, the rest "sys") unless a symbol file
 * already placed regions, symbol labels ("name:" before their first
 * address) as text symbols when no symbol file was loaded, and the caller
 * lines ("0xCALLEE: 0xCALLER = N TYPES, ...") as call arcs (subroutine
 * calls only when call types are recorded).
 *
 * Numbers: every address (code, caller and memory-area lines) lies in the
 * 32-bit Atari address space (a memory area may end at 2^32, exclusive);
 * counters, call counts and the clock fit 64 bits.  Otherwise the error
 * quotes the number as written.
 *
 * Format facts: shared/research/atari-formats.md section 6.
 *
 * Options:
 *   hatari-field=instructions|cycles|i-misses|d-hits|N
 *        which counter becomes the sample count (default instructions;
 *        with cycles the clock rate turns counts into seconds)
 */
#include "internal.h"
#include "pc_regex.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct hat_area {
	char name[32];
	uint64_t lo, hi;
} hat_area;

typedef struct hat_label {
	char *name;
	uint64_t addr;
} hat_label;

typedef struct hat_ctx {
	pc_profile *p;
	pc_stream *s;
	unsigned field;
	pc_re *re; /* the file's field regexp, if usable */
	pc_re_scratch sc;
	hat_area areas[16];
	size_t nareas;
	int add_labels;    /* no symbols were loaded before this file */
	char *pending;     /* label waiting for its address */
	uint64_t pending_off;
	hat_label *labels; /* labels with their addresses, added at the end */
	size_t nlabels, cap_labels;
	uint64_t samples, lines;
	uint64_t fallback, fallback_line; /* address lines the file's regexp missed */
	double hz;
} hat_ctx;

static int is_blank(const char *l, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!isspace((unsigned char)l[i]))
			return 0;
	return 1;
}

/* What parse_hex and parse_dec return. */
enum { NUM_OK = 0, NUM_NONE = -1, NUM_OVF = -2 };

/* The largest address of the Atari's 32-bit address space. */
#define HAT_ADDR_MAX 0xFFFFFFFFull
/* Longest address line read: Hatari writes one disassembled instruction
 * and its counters per line (under 200 bytes); labels and caller lines,
 * which can be long, are not limited. */
#define HAT_MAX_LINE 4096

/* Parses a hex number at *p (optional 0x when allow0x).  NUM_OK: *out set
 * and *p advanced past it; NUM_NONE: no digit, *p unchanged; NUM_OVF: more
 * than 64 bits (leading zeros do not count), *p advanced past the digits
 * so that the caller can quote them. */
static int parse_hex(const char **p, const char *end, uint64_t *out, int allow0x)
{
	const char *q = *p;
	uint64_t v = 0;
	int n = 0, ovf = 0;
	if (allow0x && end - q >= 2 && q[0] == '0' && (q[1] == 'x' || q[1] == 'X'))
		q += 2;
	while (q < end && isxdigit((unsigned char)*q)) {
		int d = isdigit((unsigned char)*q) ? *q - '0' : (tolower((unsigned char)*q) - 'a' + 10);
		if (v >> 60)
			ovf = 1;
		v = v * 16 + (uint64_t)d;
		q++;
		n++;
	}
	if (!n)
		return NUM_NONE;
	*p = q;
	if (ovf)
		return NUM_OVF;
	*out = v;
	return NUM_OK;
}

/* A decimal number at *p; returns and advances as parse_hex. */
static int parse_dec(const char **p, const char *end, uint64_t *out)
{
	const char *q = *p;
	uint64_t v = 0;
	int n = 0, ovf = 0;
	while (q < end && isdigit((unsigned char)*q)) {
		unsigned d = (unsigned)(*q - '0');
		if (v > (UINT64_MAX - d) / 10)
			ovf = 1;
		else
			v = v * 10 + d;
		q++;
		n++;
	}
	if (!n)
		return NUM_NONE;
	*p = q;
	if (ovf)
		return NUM_OVF;
	*out = v;
	return NUM_OK;
}

/* The number text [b, e) as messages quote it: at most 40 characters,
 * then "..." and the length. */
static const char *quoted(char *buf, size_t size, const char *b, const char *e)
{
	size_t n = (size_t)(e - b);
	if (n <= 40)
		snprintf(buf, size, "%.*s", (int)n, b);
	else
		snprintf(buf, size, "%.40s... (%zu digits)", b, n);
	return buf;
}

/* Error for an address at [b, e) of line l (at byte off) that overflowed
 * 64 bits or lies beyond HAT_ADDR_MAX (+ 1 for an exclusive end). */
static int address_fail(pc_stream *s, uint64_t off, const char *l,
			const char *b, const char *e, const char *what)
{
	char buf[80];
	int has0x = e - b >= 2 && b[0] == '0' && (b[1] == 'x' || b[1] == 'X');
	return pc_stream_fail(s, PC_EFORMAT, (int64_t)(off + (uint64_t)(b - l)),
			      "%s %s%s is beyond the 32-bit Atari address space",
			      what, has0x ? "" : "0x", quoted(buf, sizeof buf, b, e));
}

/* Error for a decimal number at [b, e) of line l that overflowed. */
static int number_fail(pc_stream *s, uint64_t off, const char *l,
		       const char *b, const char *e, const char *what)
{
	char buf[80];
	return pc_stream_fail(s, PC_EFORMAT, (int64_t)(off + (uint64_t)(b - l)),
			      "%s %s does not fit in 64 bits", what,
			      quoted(buf, sizeof buf, b, e));
}

/* Built-in form of Hatari's regexp: ^\$?([0-9A-Fa-f]+) .*% \(([^)]*)\)$ */
static int builtin_match(const char *l, size_t n, size_t *a0, size_t *a1,
			 size_t *f0, size_t *f1)
{
	size_t i = 0, j;
	if (i < n && l[i] == '$')
		i++;
	*a0 = i;
	while (i < n && isxdigit((unsigned char)l[i]))
		i++;
	if (i == *a0 || i >= n || l[i] != ' ')
		return 0;
	*a1 = i;
	if (n < 2 || l[n - 1] != ')')
		return 0;
	for (j = n - 1; j > i; j--)
		if (l[j - 1] == '(')
			break;
	if (j <= i + 3 || l[j - 2] != ' ' || l[j - 3] != '%')
		return 0;
	*f0 = j;
	*f1 = n - 1;
	for (size_t k = j; k < n - 1; k++)
		if (l[k] == ')')
			return 0;
	return 1;
}

static int match_line(hat_ctx *c, const char *l, size_t n, size_t *a0,
		      size_t *a1, size_t *f0, size_t *f1)
{
	if (c->re) {
		pc_re_span m[3];
		const char *nul = memchr(l, 0, n); /* the line ends at a NUL */
		int r = pc_re_exec(c->re, &c->sc, l, nul ? (size_t)(nul - l) : n, m, 3);
		if (r < 0)
			return r == PC_ELIMIT ? r : -1;
		if (r == 0 || m[1].so == PC_RE_UNSET || m[2].so == PC_RE_UNSET) {
			/* Some Hatari versions write a regexp their own
			 * disassembly does not match ("^\$([0-9a-f]+) :" over
			 * WinUAE-core lines "00e00cfe 4e75  rts ..."): such
			 * lines are read with the built-in pattern. */
			r = builtin_match(l, n, a0, a1, f0, f1);
			if (r && !c->fallback++)
				c->fallback_line = pc_stream_lineno(c->s);
			return r;
		}
		*a0 = m[1].so;
		*a1 = m[1].eo;
		*f0 = m[2].so;
		*f1 = m[2].eo;
		return 1;
	}
	return builtin_match(l, n, a0, a1, f0, f1);
}

static int add_pending_label(hat_ctx *c, uint64_t addr)
{
	if (!c->pending)
		return PC_OK;
	if (c->nlabels == c->cap_labels) {
		size_t cap = c->cap_labels ? 2 * c->cap_labels : 64;
		hat_label *nl = realloc(c->labels, cap * sizeof *nl);
		if (!nl)
			return pc_stream_fail(c->s, PC_ENOMEM, -1, "out of memory");
		c->labels = nl;
		c->cap_labels = cap;
	}
	c->labels[c->nlabels].name = c->pending;
	c->labels[c->nlabels].addr = addr;
	c->nlabels++;
	c->pending = NULL;
	return PC_OK;
}

static int cmp_label(const void *a, const void *b)
{
	const hat_label *x = a, *y = b;
	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

/* Where the code of a label at addr ends at the latest: the end of the
 * memory area holding it (the innermost one; RAM stops where
 * PROGRAM_TEXT starts), or the end of the address space when no area
 * holds it.  hatari_profile charges costs the same way: to the last
 * label seen, until the next label or the next memory area. */
static uint64_t area_end(const hat_ctx *c, uint64_t addr)
{
	const hat_area *best = NULL, *text = NULL;
	uint64_t end;
	for (size_t i = 0; i < c->nareas; i++) {
		const hat_area *a = &c->areas[i];
		if (strcmp(a->name, "PROGRAM_TEXT") == 0)
			text = a;
		if (addr < a->lo || addr >= a->hi)
			continue;
		if (!best || a->hi - a->lo < best->hi - best->lo)
			best = a;
	}
	if (!best)
		return HAT_ADDR_MAX + 1;
	end = best->hi;
	if (text && best != text && addr < text->lo && text->lo < end)
		end = text->lo;
	return end;
}

/* The profile's labels as text symbols, each with its exact extent: up
 * to the next label, or to the end of its memory area (the last label of
 * an area, e.g. the program's last function when the profile has no
 * PROGRAM_TEXT line). */
static int add_labels(hat_ctx *c)
{
	if (c->nlabels == 0)
		return PC_OK;
	qsort(c->labels, c->nlabels, sizeof *c->labels, cmp_label);
	for (size_t i = 0; i < c->nlabels; i++) {
		const hat_label *lb = &c->labels[i];
		uint64_t end = area_end(c, lb->addr);
		pc_symbol sym;
		int st;
		for (size_t j = i + 1; j < c->nlabels; j++)
			if (c->labels[j].addr > lb->addr) {
				if (c->labels[j].addr < end)
					end = c->labels[j].addr;
				break;
			}
		memset(&sym, 0, sizeof sym);
		sym.name = lb->name;
		sym.section = "TEXT";
		sym.segment = PC_NOSEG;
		sym.address = lb->addr;
		sym.size = end - lb->addr;
		sym.kind = PC_SYM_TEXT;
		sym.binding = PC_BIND_GLOBAL;
		sym.flags = PC_SYMF_EXTENT;
		st = pc_profile_add_symbol(c->p, &sym);
		if (st != PC_OK)
			return st;
	}
	return PC_OK;
}

static void free_labels(hat_ctx *c)
{
	for (size_t i = 0; i < c->nlabels; i++)
		free(c->labels[i].name);
	free(c->labels);
	c->labels = NULL;
	c->nlabels = 0;
}

/* "0xCALLEE: 0xCALLER = N [TYPES [INCL [EXCL]]], ..., NAME" */
static int parse_callers(hat_ctx *c, const char *l, size_t n, uint64_t off)
{
	const char *p = l, *end = l + n;
	uint64_t callee;
	int r = parse_hex(&p, end, &callee, 1);
	if (r == NUM_OVF || (r == NUM_OK && callee > HAT_ADDR_MAX))
		return address_fail(c->s, off, l, l, p, "callee address");
	if (r != NUM_OK || p >= end || *p != ':')
		return pc_stream_fail(c->s, PC_EFORMAT, (int64_t)off,
				      "expected a caller line \"0xADDR: 0xCALLER = COUNT ...\"");
	p++;
	while (p < end) {
		uint64_t caller, count;
		const char *item_end;
		int subroutine = 1;
		while (p < end && *p == ' ')
			p++;
		item_end = p;
		while (item_end < end && *item_end != ',')
			item_end++;
		if (item_end - p >= 2 && p[0] == '0' && p[1] == 'x') {
			const char *q = p, *num;
			r = parse_hex(&q, item_end, &caller, 1);
			if (r == NUM_OVF || (r == NUM_OK && caller > HAT_ADDR_MAX))
				return address_fail(c->s, off, l, p, q, "caller address");
			if (r != NUM_OK || item_end - q < 3 ||
			    q[0] != ' ' || q[1] != '=' || q[2] != ' ')
				return pc_stream_fail(c->s, PC_EFORMAT, (int64_t)(off + (uint64_t)(p - l)),
						      "expected \"0xCALLER = COUNT\" in a caller line");
			q += 3;
			num = q;
			r = parse_dec(&q, item_end, &count);
			if (r == NUM_OVF)
				return number_fail(c->s, off, l, num, q, "call count");
			if (r != NUM_OK)
				return pc_stream_fail(c->s, PC_EFORMAT, (int64_t)(off + (uint64_t)(q - l)),
						      "expected a call count in a caller line");
			if (q < item_end && *q == ' ') {
				/* call types: letters up to the next space */
				const char *t = q + 1;
				subroutine = 0;
				while (t < item_end && *t != ' ') {
					if (*t == 's')
						subroutine = 1;
					t++;
				}
			}
			if (subroutine && count) {
				pc_arc a;
				int st;
				memset(&a, 0, sizeof a);
				a.from_segment = PC_NOSEG;
				a.to_segment = PC_NOSEG;
				a.from = caller;
				a.to = callee;
				a.count = count;
				st = pc_profile_add_arc(c->p, &a);
				if (st != PC_OK)
					return st;
			}
		}
		p = item_end < end ? item_end + 1 : end;
	}
	return PC_OK;
}

static int add_areas(hat_ctx *c)
{
	const hat_area *text = NULL;
	int st;
	if (pc_profile_region_count(c->p) > 0)
		return PC_OK;
	for (size_t i = 0; i < c->nareas; i++)
		if (strcmp(c->areas[i].name, "PROGRAM_TEXT") == 0)
			text = &c->areas[i];
	for (size_t i = 0; i < c->nareas; i++) {
		const hat_area *a = &c->areas[i];
		pc_region r;
		memset(&r, 0, sizeof r);
		r.segment = PC_NOSEG;
		r.label = a->name;
		if (a == text) {
			r.low = a->lo;
			r.high = a->hi;
			r.cls = PC_REGION_APPLICATION;
			st = pc_profile_add_region(c->p, &r);
			if (st != PC_OK)
				return st;
			continue;
		}
		r.cls = PC_REGION_SYSTEM;
		/* keep regions disjoint: cut the program out of RAM areas */
		if (text && text->lo < a->hi && text->hi > a->lo) {
			if (text->lo > a->lo) {
				r.low = a->lo;
				r.high = text->lo;
				if ((st = pc_profile_add_region(c->p, &r)) != PC_OK)
					return st;
			}
			if (text->hi < a->hi) {
				r.low = text->hi;
				r.high = a->hi;
				if ((st = pc_profile_add_region(c->p, &r)) != PC_OK)
					return st;
			}
			continue;
		}
		r.low = a->lo;
		r.high = a->hi;
		if (r.high > r.low && (st = pc_profile_add_region(c->p, &r)) != PC_OK)
			return st;
	}
	return PC_OK;
}

static int field_option(pc_stream *s, const pc_options *opts, unsigned *field)
{
	static const char *const names[] = {"instructions", "cycles", "i-misses",
					    "d-hits"};
	const char *v = pc_options_get(opts, "hatari-field");
	*field = 0;
	if (!v)
		return PC_OK;
	for (unsigned i = 0; i < 4; i++)
		if (strcmp(v, names[i]) == 0) {
			*field = i;
			return PC_OK;
		}
	if (v[0] >= '0' && v[0] <= '9' && v[1] == '\0') {
		*field = (unsigned)(v[0] - '0');
		return PC_OK;
	}
	return pc_stream_fail(s, PC_EUSAGE, -1,
			      "option hatari-field=%s; expected instructions, cycles, i-misses, d-hits or a field number",
			      v);
}

static int hatari_probe(const unsigned char *head, size_t len,
			const char *filename)
{
	static const char magic[] = "Hatari CPU profile";
	static const char dsp[] = "Hatari DSP profile";
	(void)filename;
	if (len >= sizeof magic - 1 && memcmp(head, magic, sizeof magic - 1) == 0)
		return 8 * (int)(sizeof magic - 1);
	if (len >= sizeof dsp - 1 && memcmp(head, dsp, sizeof dsp - 1) == 0)
		return 8 * (int)(sizeof dsp - 1);
	return 0;
}

static int hatari_load(pc_profile *p, pc_stream *s, const pc_options *opts)
{
	hat_ctx c;
	const char *l;
	size_t n;
	uint64_t off;
	int st, r, in_callers = 0, have_field_line = 0;
	memset(&c, 0, sizeof c);
	c.p = p;
	c.s = s;
	st = field_option(s, opts, &c.field);
	if (st != PC_OK)
		return st;
	c.add_labels = pc_profile_symbol_count(p) == 0;

	r = pc_stream_getline(&l, &n, &off, s);
	if (r < 0)
		return r;
	if (!l || n < 18 || memcmp(l, "Hatari ", 7) != 0)
		return pc_stream_fail(s, PC_EFORMAT, 0,
				      "expected \"Hatari CPU profile\" on the first line");
	if (memcmp(l, "Hatari DSP profile", 18) == 0)
		return pc_stream_fail(s, PC_EUNSUPPORTED, 0,
				      "Hatari DSP (56001) profiles are not supported; expected a CPU profile");
	if (memcmp(l, "Hatari CPU profile", 18) != 0)
		return pc_stream_fail(s, PC_EFORMAT, 0,
				      "expected \"Hatari CPU profile\" on the first line");

	while ((r = pc_stream_getline(&l, &n, &off, s)) == PC_OK && l) {
		size_t a0, a1, f0, f1;
		int m, nr;
		c.lines++;
		if (n == 0 || is_blank(l, n))
			continue;
		if (l[0] == '#') {
			/* the call-type legend starts the caller section */
			if (n > 6 && memcmp(l, "# u = ", 6) == 0)
				in_callers = 1;
			continue;
		}
		if (n >= 14 && memcmp(l, "Cycles/second:", 14) == 0) {
			const char *q = l + 14, *e = l + n, *num;
			uint64_t hz;
			while (q < e && (*q == '\t' || *q == ' '))
				q++;
			num = q;
			nr = parse_dec(&q, e, &hz);
			if (nr == NUM_OVF) {
				st = number_fail(s, off, l, num, q, "Cycles/second value");
				goto fail;
			}
			if (nr != NUM_OK || (q < e && *q != ' ' && *q != '\t')) {
				st = pc_stream_fail(s, PC_EFORMAT, (int64_t)(off + (uint64_t)(q - l)),
						    "expected the CPU clock in Hz after \"Cycles/second:\"");
				goto fail;
			}
			c.hz = (double)hz;
			continue;
		}
		if (n >= 12 && memcmp(l, "Field names:", 12) == 0) {
			have_field_line = 1;
			continue;
		}
		if (n >= 8 && memcmp(l, "Machine:", 8) == 0)
			continue;
		if (n >= 13 && memcmp(l, "Field regexp:", 13) == 0) {
			const char *q = l + 13, *nul;
			size_t rest;
			while ((size_t)(q - l) < n && (*q == '\t' || *q == ' '))
				q++;
			rest = n - (size_t)(q - l);
			if ((nul = memchr(q, 0, rest)) != NULL) /* the pattern ends at a NUL */
				rest = (size_t)(nul - q);
			pc_re_free(c.re);
			c.re = NULL;
			char why[200];
			int cr = pc_re_compile(q, rest, 0, &c.re, why, sizeof why);
			if (cr == PC_ENOMEM) {
				st = pc_stream_fail(s, PC_ENOMEM, -1, "out of memory");
				goto fail;
			}
			if (c.re && pc_re_groups(c.re) < 2) {
				pc_re_free(c.re);
				c.re = NULL;
			}
			if (!c.re) {
				pc_profile_warn(p, "%s:%llu: field regexp is not a POSIX extended regular expression with two groups; using the built-in address-line pattern",
						pc_stream_name(s), (unsigned long long)off);
			}
			continue;
		}
		if (!in_callers && n >= 3 && l[0] == '[' && memcmp(l, "[...]", 5 <= n ? 5 : n) == 0)
			continue;
		if (n > 2 && l[0] == '0' && l[1] == 'x' && (in_callers || memchr(l, '=', n))) {
			in_callers = 1;
			st = parse_callers(&c, l, n, off);
			if (st != PC_OK)
				goto fail;
			continue;
		}
		if (n > HAT_MAX_LINE && !(l[n - 1] == ':' && !in_callers)) {
			/* not a label, not a caller line: an address line,
			 * one disassembled instruction; the field regexp is
			 * not run over more */
			st = pc_stream_fail(s, PC_EFORMAT, (int64_t)(off + HAT_MAX_LINE),
					    "line %llu is %zu bytes long; expected an address line (one disassembled instruction, at most %d bytes), a symbol label or a caller line",
					    (unsigned long long)pc_stream_lineno(s), n, HAT_MAX_LINE);
			goto fail;
		}
		m = match_line(&c, l, n, &a0, &a1, &f0, &f1);
		if (m == PC_ELIMIT) {
			st = pc_re_budget_fail(s, (int64_t)off, &c.sc);
			goto fail;
		}
		if (m < 0) {
			st = pc_stream_fail(s, PC_ENOMEM, -1, "out of memory");
			goto fail;
		}
		if (m) {
			const char *q = l + a0, *e;
			uint64_t addr, cnt = 0;
			unsigned k = 0;
			nr = parse_hex(&q, l + a1, &addr, 0);
			if (nr == NUM_OVF || (nr == NUM_OK && addr > HAT_ADDR_MAX)) {
				st = address_fail(s, off, l, l + a0, q, "address");
				goto fail;
			}
			if (nr != NUM_OK || q != l + a1) {
				st = pc_stream_fail(s, PC_EFORMAT, (int64_t)(off + a0),
						    "expected a hexadecimal address");
				goto fail;
			}
			/* areas are complete once the disassembly starts */
			if (c.samples == 0 && !c.pending) {
				st = add_areas(&c);
				if (st != PC_OK)
					goto fail;
			}
			q = l + f0;
			e = l + f1;
			for (;;) {
				const char *num;
				uint64_t v;
				while (q < e && *q == ' ')
					q++;
				num = q;
				nr = parse_dec(&q, e, &v);
				if (nr == NUM_OVF) {
					st = number_fail(s, off, l, num, q, "profile counter");
					goto fail;
				}
				if (nr != NUM_OK) {
					st = pc_stream_fail(s, PC_EFORMAT, (int64_t)(off + (uint64_t)(q - l)),
							    "expected a decimal counter in the profile fields");
					goto fail;
				}
				if (k == c.field)
					cnt = v;
				k++;
				while (q < e && *q == ' ')
					q++;
				if (q >= e)
					break;
				if (*q != ',') {
					st = pc_stream_fail(s, PC_EFORMAT, (int64_t)(off + (uint64_t)(q - l)),
							    "expected ',' between profile counters");
					goto fail;
				}
				q++;
			}
			if (c.field >= k) {
				st = pc_stream_fail(s, PC_EFORMAT, (int64_t)(off + f0),
						    "line has %u counters; option hatari-field asks for field %u",
						    k, c.field);
				goto fail;
			}
			if (c.add_labels) {
				st = add_pending_label(&c, addr);
				if (st != PC_OK)
					goto fail;
			} else {
				free(c.pending);
				c.pending = NULL;
			}
			if (cnt) {
				st = pc_profile_add_sample(p, PC_NOSEG, addr, cnt);
				if (st != PC_OK)
					goto fail;
			}
			c.samples++;
			continue;
		}
		/* "name:" symbol label before its first address.  Hatari
		 * reads symbol files with sscanf("%x %c %[^$?@;\n]"), which
		 * keeps the CR of a CRLF file in the name: "main\r:".  Such
		 * trailing CRs and blanks are not part of the name. */
		if (l[n - 1] == ':' && !in_callers) {
			size_t k = n - 1;
			while (k > 0 && (l[k - 1] == '\r' || l[k - 1] == ' ' || l[k - 1] == '\t'))
				k--;
			free(c.pending);
			c.pending = NULL;
			if (k == 0)
				continue; /* a nameless label names nothing */
			c.pending = pc_strndup(l, k);
			c.pending_off = off;
			if (!c.pending) {
				st = pc_stream_fail(s, PC_ENOMEM, -1, "out of memory");
				goto fail;
			}
			continue;
		}
		/* memory area "NAME:<tabs>0xLO-0xHI" (only before the code) */
		if (c.samples == 0 && !in_callers) {
			const char *colon = memchr(l, ':', n);
			if (colon && colon > l && (size_t)(colon - l) < sizeof c.areas[0].name) {
				const char *q = colon + 1, *e = l + n, *lo_s, *lo_e, *hi_s = NULL;
				uint64_t lo = 0, hi = 0;
				int rh = NUM_NONE;
				while (q < e && (*q == '\t' || *q == ' '))
					q++;
				lo_s = q;
				nr = parse_hex(&q, e, &lo, 1);
				lo_e = q;
				if (nr != NUM_NONE && q < e && *q == '-') {
					hi_s = ++q;
					rh = parse_hex(&q, e, &hi, 1);
				}
				if (rh != NUM_NONE && q == e) {
					/* both numbers are addresses (the end is
					 * exclusive: 2^32 ends the address space) */
					if (nr == NUM_OVF || lo > HAT_ADDR_MAX) {
						st = address_fail(s, off, l, lo_s, lo_e,
								  "memory area start");
						goto fail;
					}
					if (rh == NUM_OVF || hi > HAT_ADDR_MAX + 1) {
						st = address_fail(s, off, l, hi_s, q,
								  "memory area end");
						goto fail;
					}
					if (hi < lo) {
						st = pc_stream_fail(s, PC_EFORMAT, (int64_t)off,
								    "memory area ends (0x%llx) before it starts (0x%llx)",
								    (unsigned long long)hi,
								    (unsigned long long)lo);
						goto fail;
					}
					if (c.nareas < sizeof c.areas / sizeof c.areas[0]) {
						hat_area *a = &c.areas[c.nareas++];
						memcpy(a->name, l, (size_t)(colon - l));
						a->name[colon - l] = '\0';
						a->lo = lo;
						a->hi = hi;
					}
					continue;
				}
			}
		}
		st = pc_stream_fail(s, PC_EFORMAT, (int64_t)off,
				    "unrecognised line %llu in Hatari profile; expected an address line matching the field regexp, a symbol label or a caller line",
				    (unsigned long long)pc_stream_lineno(s));
		goto fail;
	}
	if (r < 0) {
		st = r;
		goto fail;
	}
	if (!have_field_line && c.samples == 0) {
		st = pc_stream_fail(s, PC_EFORMAT, (int64_t)pc_stream_offset(s),
				    "Hatari profile has no \"Field names:\" line and no address lines");
		goto fail;
	}
	if (c.samples == 0) {
		st = add_areas(&c);
		if (st != PC_OK)
			goto fail;
	}
	if (c.fallback)
		pc_profile_warn(p, "%s: the field regexp does not match %llu address line(s), the first on line %llu; they were read with the built-in address-line pattern",
				pc_stream_name(s), (unsigned long long)c.fallback,
				(unsigned long long)c.fallback_line);
	st = add_labels(&c);
	if (st != PC_OK)
		goto fail;
	/* Hatari counts every instruction, cycle or cache event: exact
	 * counts, not samples (no confidence interval applies). */
	pc_profile_set_event_counts(p, 1);
	if (c.field == 1 && c.hz > 0) {
		/* one sample = one CPU cycle = 1/clock seconds */
		pc_profile_set_dimension(p, "seconds", 's');
		pc_profile_set_rate(p, c.hz);
	} else if (c.field == 1) {
		pc_profile_set_dimension(p, "cycles", 'c');
	} else if (c.field == 0) {
		pc_profile_set_dimension(p, "instructions", 'i');
	} else {
		pc_profile_set_dimension(p, c.field == 2 ? "i-cache misses" : c.field == 3 ? "d-cache hits" : "events", 'n');
	}
	/* where the program's TEXT was (profcat takes it as the load
	 * address of a program given without one) */
	for (size_t i = 0; i < c.nareas; i++) {
		char v[48];
		if (strcmp(c.areas[i].name, "PROGRAM_TEXT") != 0)
			continue;
		snprintf(v, sizeof v, "0x%llx-0x%llx", (unsigned long long)c.areas[i].lo,
			 (unsigned long long)c.areas[i].hi);
		if ((st = pc_profile_set_meta(p, "hatari.program_text", v)) != PC_OK)
			goto fail;
	}
	/* Symbols from a symbol file must sit at absolute addresses: if
	 * none lies inside PROGRAM_TEXT, say which load address fits. */
	if (!c.add_labels) {
		for (size_t i = 0; i < c.nareas; i++) {
			size_t k, nsym = pc_profile_symbol_count(p), inside = 0;
			if (strcmp(c.areas[i].name, "PROGRAM_TEXT") != 0)
				continue;
			for (k = 0; k < nsym; k++) {
				pc_symbol sym;
				if (pc_profile_symbol_at(&sym, p, k) == PC_OK &&
				    sym.kind == PC_SYM_TEXT && sym.address >= c.areas[i].lo &&
				    sym.address < c.areas[i].hi)
					inside++;
			}
			if (!inside)
				pc_profile_warn(p, "%s: no text symbol lies in PROGRAM_TEXT 0x%llx-0x%llx; load the executable with load-address=0x%llx",
						pc_stream_name(s),
						(unsigned long long)c.areas[i].lo,
						(unsigned long long)c.areas[i].hi,
						(unsigned long long)c.areas[i].lo);
		}
	}
	st = PC_OK;
fail:
	free(c.pending);
	free_labels(&c);
	pc_re_free(c.re);
	pc_re_scratch_free(&c.sc);
	return st;
}

static const char *const hatari_ext[] = {"txt", "prof", NULL};

static const pc_option_decl hatari_options[] = {
	{"hatari-field", PC_OPTION_ENUM, "instructions,cycles,i-misses,d-hits", "instructions",
	 "the counter that becomes the samples"},
	{NULL, PC_OPTION_STRING, NULL, NULL, NULL},
};

const pc_loader pc_loader_hatari = {
	.abi_version = PC_LOADER_ABI_VERSION,
	.name = "hatari",
	.description = "Hatari emulator saved CPU profile (per-address instruction/cycle counts)",
	.roles = PC_ROLE_SAMPLES | PC_ROLE_ARCS,
	.extensions = hatari_ext,
	.probe = hatari_probe,
	.load = hatari_load,
	.order = 50,
	.options = hatari_options,
};
