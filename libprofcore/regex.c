/*
 * regex.c - profcore's regular expressions: a recursive-descent parser to
 * a small syntax tree, code generation for a Pike VM (Thompson NFA with
 * captures) and its simulation.  Syntax and semantics: pc_regex.h.
 */
#include "pc_regex.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_DEPTH 100   /* nested groups */
#define MAX_COUNT 1000  /* {m,n} */
#define REP_INF UINT32_MAX
#define MAX_PREFIX 16

/* ---- compiled form ------------------------------------------------------ */

enum { OP_CHAR, OP_ANY, OP_CLASS, OP_BOL, OP_EOL, OP_SPLIT, OP_JMP, OP_SAVE, OP_MATCH };

typedef struct inst {
	uint8_t op;
	uint8_t c;   /* OP_CHAR */
	uint32_t x;  /* SPLIT/JMP: target (SPLIT: preferred); SAVE: slot; CLASS: set */
	uint32_t y;  /* SPLIT: other target */
} inst;

typedef struct cset {
	uint8_t bit[32];
} cset;

struct pc_re {
	inst *prog;
	size_t n;
	cset *sets;
	size_t ngroups;
	char **names; /* [ngroups + 1] */
	int anchored; /* every match starts at 0 */
	unsigned char prefix[MAX_PREFIX]; /* ... with these bytes */
	size_t nprefix;
	cset first;    /* every match starts with one of these bytes ... */
	int has_first; /* ... when set (no empty match, no '.') */
	int ends_eol;  /* the expression ends with $: every match ends at the end */
	int need;      /* a byte every match contains (a literal at the top
			  level), or -1 */
	char *src;     /* the pattern, for messages */
};

/* ---- syntax tree ---------------------------------------------------------- */

enum { N_EMPTY, N_CHAR, N_ANY, N_CLASS, N_BOL, N_EOL, N_CAT, N_ALT, N_GROUP, N_REPEAT };

typedef struct node {
	uint8_t type;
	uint8_t c;           /* N_CHAR */
	uint32_t val;        /* N_CLASS: set; N_GROUP: group number */
	uint32_t min, max;   /* N_REPEAT */
	int kid, next;       /* first child, next sibling (-1: none) */
	size_t size;         /* instructions */
} node;

typedef struct parser {
	const char *p, *end;
	unsigned flags;
	node *nodes;
	size_t nnodes, capnodes;
	cset *sets;
	size_t nsets, capsets;
	char *names[PC_RE_MAX_GROUPS + 1];
	size_t ngroups;
	int depth;
	char *err;
	size_t errlen;
	int status;
} parser;

static int perr(parser *ps, const char *fmt, ...) PC_PRINTF(2, 3);
static int perr(parser *ps, const char *fmt, ...)
{
	if (ps->status)
		return -1;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(ps->err, ps->errlen, fmt, ap);
	va_end(ap);
	ps->status = PC_EFORMAT;
	return -1;
}

static int nomem(parser *ps)
{
	if (!ps->status) {
		snprintf(ps->err, ps->errlen, "out of memory");
		ps->status = PC_ENOMEM;
	}
	return -1;
}

static int new_node(parser *ps, int type, size_t size)
{
	if (pc_grow((void **)&ps->nodes, &ps->capnodes, ps->nnodes + 1, sizeof *ps->nodes))
		return nomem(ps);
	node *n = &ps->nodes[ps->nnodes];
	memset(n, 0, sizeof *n);
	n->type = (uint8_t)type;
	n->kid = n->next = -1;
	n->size = size;
	return (int)ps->nnodes++;
}

static int check_size(parser *ps, uint64_t size)
{
	if (size + 3 > PC_RE_MAX_INSTS)
		return perr(ps, "expression too large (more than %d instructions once repetitions are expanded)",
			    PC_RE_MAX_INSTS);
	return 0;
}

/* ---- character sets ---------------------------------------------------------- */

static void set_add(cset *s, unsigned c)
{
	s->bit[c >> 3] |= (uint8_t)(1u << (c & 7));
}

static int set_has(const cset *s, unsigned c)
{
	return s->bit[c >> 3] >> (c & 7) & 1;
}

/* C-locale classes, independent of the process locale. */
static int in_class(int k, unsigned c)
{
	int digit = c >= '0' && c <= '9', upper = c >= 'A' && c <= 'Z',
	    lower = c >= 'a' && c <= 'z', graph = c >= 33 && c <= 126;
	switch (k) {
	case 0: return digit || upper || lower;                          /* alnum */
	case 1: return upper || lower;                                   /* alpha */
	case 2: return c == ' ' || c == '\t';                            /* blank */
	case 3: return c < 32 || c == 127;                               /* cntrl */
	case 4: return digit;                                            /* digit */
	case 5: return graph;                                            /* graph */
	case 6: return lower;                                            /* lower */
	case 7: return c >= 32 && c <= 126;                              /* print */
	case 8: return graph && !digit && !upper && !lower;              /* punct */
	case 9: return c == ' ' || (c >= '\t' && c <= '\r');             /* space */
	case 10: return upper;                                           /* upper */
	case 11: return digit || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
	case 12: return digit || upper || lower || c == '_';             /* \w */
	}
	return 0;
}

static const char *const class_names[] = {"alnum", "alpha", "blank", "cntrl",
					  "digit", "graph", "lower", "print",
					  "punct", "space", "upper", "xdigit", NULL};

static void set_class(cset *s, int k)
{
	for (unsigned c = 0; c < 256; c++)
		if (in_class(k, c))
			set_add(s, c);
}

static int new_set(parser *ps, const cset *s)
{
	if (pc_grow((void **)&ps->sets, &ps->capsets, ps->nsets + 1, sizeof *ps->sets))
		return nomem(ps);
	ps->sets[ps->nsets] = *s;
	int n = new_node(ps, N_CLASS, 1);
	if (n >= 0)
		ps->nodes[n].val = (uint32_t)ps->nsets++;
	return n;
}

/* [...] after the '['. */
static int parse_bracket(parser *ps)
{
	cset s;
	memset(&s, 0, sizeof s);
	int neg = 0, first = 1;
	if (ps->p < ps->end && *ps->p == '^') {
		neg = 1;
		ps->p++;
	}
	for (;;) {
		if (ps->p >= ps->end)
			return perr(ps, "unterminated bracket expression");
		unsigned char c = (unsigned char)*ps->p;
		if (c == ']' && !first) {
			ps->p++;
			break;
		}
		first = 0;
		if (c == '[' && ps->p + 1 < ps->end &&
		    (ps->p[1] == ':' || ps->p[1] == '.' || ps->p[1] == '=')) {
			char k = ps->p[1];
			const char *q = ps->p + 2;
			while (q + 1 < ps->end && !(q[0] == k && q[1] == ']'))
				q++;
			if (q + 1 >= ps->end)
				return perr(ps, "unterminated character class");
			if (k != ':')
				return perr(ps, "collating elements [. .] and equivalence classes [= =] are not supported");
			const char *name = ps->p + 2;
			size_t len = (size_t)(q - name);
			int found = -1;
			for (int i = 0; class_names[i]; i++)
				if (strlen(class_names[i]) == len && memcmp(class_names[i], name, len) == 0)
					found = i;
			if (found < 0)
				return perr(ps, "unknown character class [:%.*s:]", (int)(len > 20 ? 20 : len),
					    name);
			set_class(&s, found);
			ps->p = q + 2;
			if (ps->p + 1 < ps->end && *ps->p == '-' && ps->p[1] != ']')
				return perr(ps, "a range cannot start with a character class");
			continue;
		}
		ps->p++;
		if (ps->p + 1 < ps->end && *ps->p == '-' && ps->p[1] != ']') {
			unsigned char hi = (unsigned char)ps->p[1];
			ps->p += 2;
			if (hi == '[' && ps->p < ps->end &&
			    (*ps->p == ':' || *ps->p == '.' || *ps->p == '='))
				return perr(ps, "a range cannot end with a character class");
			if (hi < c)
				return perr(ps, "invalid range %c-%c in a bracket expression", c, hi);
			for (unsigned k = c; k <= hi; k++)
				set_add(&s, k);
		} else {
			set_add(&s, c);
		}
	}
	if (neg)
		for (size_t i = 0; i < sizeof s.bit; i++)
			s.bit[i] = (uint8_t)~s.bit[i];
	return new_set(ps, &s);
}

/* \X outside brackets, after the backslash. */
static int parse_escape(parser *ps)
{
	if (ps->p >= ps->end)
		return perr(ps, "trailing backslash");
	unsigned char c = (unsigned char)*ps->p++;
	int k = -1;
	switch (c) {
	case 'd': case 'D': k = 4; break;
	case 's': case 'S': k = 9; break;
	case 'w': case 'W': k = 12; break;
	default: break;
	}
	if (k >= 0) {
		cset s;
		memset(&s, 0, sizeof s);
		set_class(&s, k);
		if (c < 'a')
			for (size_t i = 0; i < sizeof s.bit; i++)
				s.bit[i] = (uint8_t)~s.bit[i];
		return new_set(ps, &s);
	}
	if ((c >= '0' && c <= '9') || (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z'))
		return perr(ps, "unsupported escape \\%c (back-references and letter escapes other than \\d \\s \\w are not supported)",
			    c);
	int n = new_node(ps, N_CHAR, 1);
	if (n >= 0)
		ps->nodes[n].c = c;
	return n;
}

static int parse_alt(parser *ps);

/* (...) after the '('. */
static int parse_group(parser *ps)
{
	int capture = 1;
	char *name = NULL;
	if (ps->p < ps->end && *ps->p == '?') {
		if (!(ps->flags & PC_RE_NAMED))
			return perr(ps, "'(?' constructs are not supported");
		ps->p++;
		if (ps->p < ps->end && *ps->p == ':') {
			capture = 0;
			ps->p++;
		} else if (ps->p < ps->end &&
			   (*ps->p == '<' || (*ps->p == 'P' && ps->p + 1 < ps->end && ps->p[1] == '<'))) {
			ps->p += *ps->p == 'P' ? 2 : 1;
			const char *s = ps->p;
			while (ps->p < ps->end && *ps->p != '>')
				ps->p++;
			if (ps->p >= ps->end)
				return perr(ps, "unterminated group name");
			if (ps->p == s)
				return perr(ps, "empty group name");
			if (!(name = pc_strndup(s, (size_t)(ps->p - s))))
				return nomem(ps);
			ps->p++;
		} else {
			return perr(ps, "unsupported (? construct (only (?:...) and (?P<name>...))");
		}
	}
	uint32_t g = 0;
	if (capture) {
		if (ps->ngroups >= PC_RE_MAX_GROUPS) {
			free(name);
			return perr(ps, "too many groups (at most %d)", PC_RE_MAX_GROUPS);
		}
		g = (uint32_t)++ps->ngroups;
		ps->names[g] = name;
	}
	int inner = parse_alt(ps);
	if (inner < 0)
		return -1;
	if (ps->p >= ps->end || *ps->p != ')')
		return perr(ps, "unmatched '(' (no ')')");
	ps->p++;
	if (!capture)
		return inner;
	if (check_size(ps, ps->nodes[inner].size + 2))
		return -1;
	int n = new_node(ps, N_GROUP, ps->nodes[inner].size + 2);
	if (n >= 0) {
		ps->nodes[n].val = g;
		ps->nodes[n].kid = inner;
	}
	return n;
}

static int parse_atom(parser *ps)
{
	char c = *ps->p++;
	int n;
	switch (c) {
	case '(':
		return parse_group(ps);
	case '[':
		return parse_bracket(ps);
	case '\\':
		return parse_escape(ps);
	case '.':
		return new_node(ps, N_ANY, 1);
	case '^':
		return new_node(ps, N_BOL, 1);
	case '$':
		return new_node(ps, N_EOL, 1);
	case '*':
	case '+':
	case '?':
		return perr(ps, "'%c' has nothing to repeat", c);
	case '{':
		return perr(ps, "'{' has nothing to repeat (write a literal { as \\{)");
	default:
		n = new_node(ps, N_CHAR, 1);
		if (n >= 0)
			ps->nodes[n].c = (uint8_t)c;
		return n;
	}
}

static int is_quant(const parser *ps)
{
	return ps->p < ps->end &&
	       (*ps->p == '*' || *ps->p == '+' || *ps->p == '?' || *ps->p == '{');
}

static int parse_count(parser *ps, uint32_t *out)
{
	uint32_t v = 0;
	int digits = 0;
	while (ps->p < ps->end && *ps->p >= '0' && *ps->p <= '9') {
		v = v * 10 + (uint32_t)(*ps->p++ - '0');
		if (v > MAX_COUNT)
			return perr(ps, "repetition count above %d", MAX_COUNT);
		digits++;
	}
	*out = v;
	return digits;
}

static int parse_piece(parser *ps)
{
	int a = parse_atom(ps);
	if (a < 0 || !is_quant(ps))
		return a;
	if (ps->nodes[a].type == N_BOL || ps->nodes[a].type == N_EOL)
		return perr(ps, "'%c' cannot follow an anchor", *ps->p);
	uint32_t min = 0, max = REP_INF;
	char q = *ps->p++;
	if (q == '+')
		min = 1;
	else if (q == '?')
		max = 1;
	else if (q == '{') {
		int d = parse_count(ps, &min);
		if (d < 0)
			return -1;
		if (d == 0)
			return perr(ps, "'{' must start a count {m}, {m,} or {m,n} (write a literal { as \\{)");
		if (ps->p < ps->end && *ps->p == ',') {
			ps->p++;
			if ((d = parse_count(ps, &max)) < 0)
				return -1;
			if (d == 0)
				max = REP_INF;
		} else {
			max = min;
		}
		if (ps->p >= ps->end || *ps->p != '}')
			return perr(ps, "'{' must start a count {m}, {m,} or {m,n} (write a literal { as \\{)");
		ps->p++;
		if (max < min)
			return perr(ps, "repetition count {%u,%u}: the maximum is below the minimum",
				    (unsigned)min, (unsigned)max);
	}
	if (is_quant(ps))
		return perr(ps, "stacked quantifiers ('%c' after '%c') are not supported", *ps->p, q);
	uint64_t s = ps->nodes[a].size, size;
	if (max == REP_INF)
		size = min == 0 ? s + 2 : (uint64_t)min * s + 1;
	else
		size = (uint64_t)min * s + (uint64_t)(max - min) * (s + 1);
	if (check_size(ps, size))
		return -1;
	int n = new_node(ps, N_REPEAT, (size_t)size);
	if (n >= 0) {
		ps->nodes[n].kid = a;
		ps->nodes[n].min = min;
		ps->nodes[n].max = max;
	}
	return n;
}

/* Concatenation up to '|', ')' or the end; N_EMPTY if nothing. */
static int parse_cat(parser *ps)
{
	int first = -1, last = -1, count = 0;
	uint64_t size = 0;
	while (ps->p < ps->end && *ps->p != '|' && *ps->p != ')') {
		int k = parse_piece(ps);
		if (k < 0)
			return -1;
		size += ps->nodes[k].size;
		if (check_size(ps, size))
			return -1;
		if (last >= 0)
			ps->nodes[last].next = k;
		else
			first = k;
		last = k;
		count++;
	}
	if (count == 0)
		return new_node(ps, N_EMPTY, 0);
	if (count == 1)
		return first;
	int n = new_node(ps, N_CAT, (size_t)size);
	if (n >= 0)
		ps->nodes[n].kid = first;
	return n;
}

static int parse_alt(parser *ps)
{
	if (++ps->depth > MAX_DEPTH)
		return perr(ps, "groups nested deeper than %d levels", MAX_DEPTH);
	int first = parse_cat(ps);
	if (first < 0)
		return -1;
	if (ps->p >= ps->end || *ps->p != '|') {
		ps->depth--;
		return first;
	}
	uint64_t size = ps->nodes[first].size;
	int last = first;
	while (ps->p < ps->end && *ps->p == '|') {
		ps->p++;
		int k = parse_cat(ps);
		if (k < 0)
			return -1;
		size += ps->nodes[k].size + 2;
		if (check_size(ps, size))
			return -1;
		ps->nodes[last].next = k;
		last = k;
	}
	ps->depth--;
	int n = new_node(ps, N_ALT, (size_t)size);
	if (n >= 0)
		ps->nodes[n].kid = first;
	return n;
}

/* ---- code generation ------------------------------------------------------- */

static void emit(const parser *ps, int k, inst *prog, size_t *pc)
{
	const node *nd = &ps->nodes[k];
	switch (nd->type) {
	case N_EMPTY:
		return;
	case N_CHAR:
		prog[(*pc)++] = (inst){OP_CHAR, nd->c, 0, 0};
		return;
	case N_ANY:
		prog[(*pc)++] = (inst){OP_ANY, 0, 0, 0};
		return;
	case N_CLASS:
		prog[(*pc)++] = (inst){OP_CLASS, 0, nd->val, 0};
		return;
	case N_BOL:
		prog[(*pc)++] = (inst){OP_BOL, 0, 0, 0};
		return;
	case N_EOL:
		prog[(*pc)++] = (inst){OP_EOL, 0, 0, 0};
		return;
	case N_CAT:
		for (int c = nd->kid; c >= 0; c = ps->nodes[c].next)
			emit(ps, c, prog, pc);
		return;
	case N_ALT: {
		/* SPLIT next-alternative; code; JMP end (chained through x) */
		uint32_t chain = UINT32_MAX;
		for (int c = nd->kid; c >= 0; c = ps->nodes[c].next) {
			if (ps->nodes[c].next < 0) {
				emit(ps, c, prog, pc);
				break;
			}
			size_t split = (*pc)++;
			emit(ps, c, prog, pc);
			size_t jmp = (*pc)++;
			prog[jmp] = (inst){OP_JMP, 0, chain, 0};
			chain = (uint32_t)jmp;
			prog[split] = (inst){OP_SPLIT, 0, (uint32_t)split + 1, (uint32_t)*pc};
		}
		while (chain != UINT32_MAX) {
			uint32_t next = prog[chain].x;
			prog[chain].x = (uint32_t)*pc;
			chain = next;
		}
		return;
	}
	case N_GROUP:
		prog[(*pc)++] = (inst){OP_SAVE, 0, 2 * nd->val, 0};
		emit(ps, nd->kid, prog, pc);
		prog[(*pc)++] = (inst){OP_SAVE, 0, 2 * nd->val + 1, 0};
		return;
	case N_REPEAT:
		if (nd->max == REP_INF && nd->min == 0) {
			/* (x+)?: SPLIT body, out; body: x; SPLIT body, out; out:
			 * (unlike a loop back to the first SPLIT, a body that
			 * matches empty sets its groups once, as in POSIX) */
			size_t split = (*pc)++;
			emit(ps, nd->kid, prog, pc);
			prog[*pc] = (inst){OP_SPLIT, 0, (uint32_t)split + 1, (uint32_t)*pc + 1};
			(*pc)++;
			prog[split] = (inst){OP_SPLIT, 0, (uint32_t)split + 1, (uint32_t)*pc};
			return;
		}
		for (uint32_t i = 0; i + 1 < nd->min; i++)
			emit(ps, nd->kid, prog, pc);
		if (nd->max == REP_INF) {
			/* L: body; SPLIT L, out */
			size_t body = *pc;
			emit(ps, nd->kid, prog, pc);
			prog[*pc] = (inst){OP_SPLIT, 0, (uint32_t)body, (uint32_t)*pc + 1};
			(*pc)++;
			return;
		}
		if (nd->min)
			emit(ps, nd->kid, prog, pc);
		/* optional copies: SPLIT body, end (end patched below) */
		size_t first = *pc;
		for (uint32_t i = nd->min; i < nd->max; i++) {
			size_t split = (*pc)++;
			prog[split] = (inst){OP_SPLIT, 0, (uint32_t)split + 1, 0};
			emit(ps, nd->kid, prog, pc);
		}
		for (size_t i = first; i < *pc;) {
			prog[i].y = (uint32_t)*pc;
			i += 1 + ps->nodes[nd->kid].size;
		}
		return;
	}
}

/* The literal prefix after a leading ^ at the top level. */
static void find_prefix(const parser *ps, int root, pc_re *re)
{
	const node *r = &ps->nodes[root];
	int k = r->type == N_CAT ? r->kid : root;
	if (ps->nodes[k].type != N_BOL)
		return;
	re->anchored = 1;
	if (r->type != N_CAT)
		return;
	for (k = ps->nodes[k].next; k >= 0 && ps->nodes[k].type == N_CHAR &&
				    re->nprefix < MAX_PREFIX;
	     k = ps->nodes[k].next)
		re->prefix[re->nprefix++] = ps->nodes[k].c;
}

/* The bytes a match can start with: the consuming instructions reachable
 * from the start without consuming a byte.  None when the expression can
 * match empty or at the end ($), or starts with '.' (any byte). */
static int find_first(pc_re *re)
{
	unsigned char *seen = calloc(re->n, 1);
	uint32_t *stack = malloc(re->n * 2 * sizeof *stack + sizeof *stack);
	size_t sp = 0;
	int ok = 1;
	if (!seen || !stack) {
		free(seen);
		free(stack);
		return PC_ENOMEM;
	}
	memset(&re->first, 0, sizeof re->first);
	stack[sp++] = 0;
	while (sp && ok) {
		uint32_t pc = stack[--sp];
		if (seen[pc])
			continue;
		seen[pc] = 1;
		const inst *in = &re->prog[pc];
		switch (in->op) {
		case OP_CHAR: set_add(&re->first, in->c); break;
		case OP_CLASS:
			for (unsigned c = 0; c < 256; c++)
				if (set_has(&re->sets[in->x], c))
					set_add(&re->first, c);
			break;
		case OP_JMP: stack[sp++] = in->x; break;
		case OP_SPLIT:
			stack[sp++] = in->y;
			stack[sp++] = in->x;
			break;
		case OP_SAVE: case OP_BOL: stack[sp++] = pc + 1; break;
		default: ok = 0; break; /* ANY, EOL, MATCH */
		}
	}
	re->has_first = ok;
	free(seen);
	free(stack);
	return PC_OK;
}

void pc_re_free(pc_re *re)
{
	if (!re)
		return;
	if (re->names)
		for (size_t i = 0; i <= re->ngroups; i++)
			free(re->names[i]);
	free(re->names);
	free(re->prog);
	free(re->sets);
	free(re->src);
	free(re);
}

int pc_re_compile(const char *pat, size_t len, unsigned flags, pc_re **out,
		  char *err, size_t errlen)
{
	parser ps;
	memset(&ps, 0, sizeof ps);
	ps.p = pat;
	ps.end = pat + len;
	ps.flags = flags;
	ps.depth = -1; /* the top level is no group */
	ps.err = err;
	ps.errlen = errlen;
	*out = NULL;
	if (errlen)
		err[0] = 0;
	int root = parse_alt(&ps);
	if (root >= 0 && ps.p < ps.end)
		root = perr(&ps, "unmatched ')'");
	pc_re *re = NULL;
	if (root >= 0 && !(re = calloc(1, sizeof *re)))
		root = nomem(&ps);
	if (root >= 0) {
		re->n = ps.nodes[root].size + 3;
		re->prog = malloc(re->n * sizeof *re->prog);
		re->names = calloc(ps.ngroups + 1, sizeof *re->names);
		if (!re->prog || !re->names)
			root = nomem(&ps);
	}
	if (root < 0) {
		for (size_t i = 0; i <= ps.ngroups; i++)
			free(ps.names[i]);
		pc_re_free(re);
		free(ps.nodes);
		free(ps.sets);
		return ps.status ? ps.status : PC_EFORMAT;
	}
	size_t pc = 0;
	re->prog[pc++] = (inst){OP_SAVE, 0, 0, 0};
	emit(&ps, root, re->prog, &pc);
	re->prog[pc++] = (inst){OP_SAVE, 0, 1, 0};
	re->prog[pc++] = (inst){OP_MATCH, 0, 0, 0};
	re->ngroups = ps.ngroups;
	memcpy(re->names, ps.names, (ps.ngroups + 1) * sizeof *re->names);
	re->sets = ps.sets;
	find_prefix(&ps, root, re);
	{
		const node *r = &ps.nodes[root];
		int k = root;
		if (r->type == N_CAT)
			for (k = r->kid; k >= 0 && ps.nodes[k].next >= 0;)
				k = ps.nodes[k].next;
		re->ends_eol = k >= 0 && ps.nodes[k].type == N_EOL;
		re->need = r->type == N_CHAR ? r->c : -1;
		if (r->type == N_CAT)
			for (k = r->kid; k >= 0 && re->need < 0; k = ps.nodes[k].next)
				if (ps.nodes[k].type == N_CHAR)
					re->need = ps.nodes[k].c;
	}
	free(ps.nodes);
	if (!(re->src = malloc(len + 1))) {
		pc_re_free(re);
		return PC_ENOMEM;
	}
	memcpy(re->src, pat, len);
	re->src[len] = 0;
	if (find_first(re) == PC_ENOMEM) {
		pc_re_free(re);
		return PC_ENOMEM;
	}
	*out = re;
	return PC_OK;
}

size_t pc_re_groups(const pc_re *re)
{
	return re->ngroups;
}

const char *pc_re_group_name(const pc_re *re, size_t i)
{
	return i >= 1 && i <= re->ngroups ? re->names[i] : NULL;
}

size_t pc_re_size(const pc_re *re)
{
	return re->n;
}

/* ---- the Pike VM -------------------------------------------------------------- */

typedef struct tlist {
	uint32_t *dense, *sparse; /* sparse set of instructions */
	size_t n;
	size_t *caps; /* nslots per dense entry */
} tlist;

typedef struct frame {
	size_t val;    /* slot value to restore */
	uint32_t pc;   /* instruction to follow, or */
	uint32_t slot; /* slot to restore (UINT32_MAX: none) */
} frame;

typedef struct vm {
	const pc_re *re;
	const unsigned char *s;
	size_t len, nslots;
	tlist l[2];
	frame *stack;
	size_t *cur, *best;
	uint64_t steps; /* work done in this pass (PC_RE_STEPS_*) */
} vm;

static int vm_init(vm *m, pc_re_scratch *sc, size_t nslots)
{
	m->steps = 0;
	size_t n = m->re->n, need = 0;
	size_t caps = 2 * n * nslots + 2 * nslots; /* lists, cur, best */
	need = caps * sizeof(size_t) + (n + 1) * sizeof(frame) + 4 * n * sizeof(uint32_t);
	if (need > sc->cap) {
		free(sc->mem);
		sc->mem = calloc(1, need); /* zeroed: sparse sets read stale entries */
		sc->cap = sc->mem ? need : 0;
		if (!sc->mem)
			return PC_ENOMEM;
	}
	size_t *z = sc->mem;
	m->l[0].caps = z;
	m->l[1].caps = z + n * nslots;
	m->cur = z + 2 * n * nslots;
	m->best = m->cur + nslots;
	m->stack = (frame *)(void *)(z + caps);
	uint32_t *u = (uint32_t *)(void *)(m->stack + n + 1);
	m->l[0].dense = u;
	m->l[0].sparse = u + n;
	m->l[1].dense = u + 2 * n;
	m->l[1].sparse = u + 3 * n;
	m->l[0].n = m->l[1].n = 0;
	m->nslots = nslots;
	return PC_OK;
}

/* Adds pc and everything reachable from it without consuming a byte to
 * l, in priority order, with the captures m->cur.  Without captures,
 * returns 1 as soon as MATCH is reachable. */
static int addthread(vm *m, tlist *l, uint32_t pc0, size_t pos)
{
	const inst *prog = m->re->prog;
	size_t sp = 0;
	m->stack[sp++] = (frame){0, pc0, UINT32_MAX};
	while (sp) {
		frame f = m->stack[--sp];
		if (f.slot != UINT32_MAX) {
			m->cur[f.slot] = f.val;
			continue;
		}
		uint32_t pc = f.pc;
		for (;;) {
			uint32_t k = l->sparse[pc];
			if (k < l->n && l->dense[k] == pc)
				break; /* already there, with higher priority */
			size_t i = l->n++;
			m->steps++;
			l->dense[i] = pc;
			l->sparse[pc] = (uint32_t)i;
			const inst *in = &prog[pc];
			if (in->op == OP_JMP) {
				pc = in->x;
				continue;
			}
			if (in->op == OP_SPLIT) {
				m->stack[sp++] = (frame){0, in->y, UINT32_MAX};
				pc = in->x;
				continue;
			}
			if (in->op == OP_SAVE) {
				if (in->x < m->nslots) {
					m->stack[sp++] = (frame){m->cur[in->x], 0, in->x};
					m->cur[in->x] = pos;
				}
				pc++;
				continue;
			}
			if (in->op == OP_BOL || in->op == OP_EOL) {
				if (in->op == OP_BOL ? pos != 0 : pos != m->len)
					break;
				pc++;
				continue;
			}
			if (in->op == OP_MATCH && !m->nslots)
				return 1;
			if (m->nslots)
				memcpy(l->caps + i * m->nslots, m->cur, m->nslots * sizeof *m->cur);
			break;
		}
	}
	return 0;
}

/* Runs the VM; with captures, m->best holds the match. */
static int vm_run(vm *m)
{
	const pc_re *re = m->re;
	tlist *cl = &m->l[0], *nl = &m->l[1];
	size_t ns = m->nslots;
	int matched = 0;
	cl->n = 0;
	for (size_t pos = 0;; pos++) {
		/* the budget grows with the bytes read: a costly expression is
		 * stopped early on a long line, not after all of it */
		if (m->steps > PC_RE_STEPS_BASE + (uint64_t)PC_RE_STEPS_PER_BYTE * pos)
			return PC_ELIMIT;
		if (!matched && cl->n == 0 && re->has_first && !re->anchored) {
			/* no thread alive: skip to a byte a match can start with */
			while (pos < m->len && !set_has(&re->first, m->s[pos]))
				pos++;
			if (pos >= m->len)
				break;
		}
		if (!matched && (pos == 0 || !re->anchored)) {
			for (size_t k = 0; k < ns; k++)
				m->cur[k] = PC_RE_UNSET;
			if (addthread(m, cl, 0, pos))
				return 1;
		}
		if (cl->n == 0)
			break;
		int c = pos < m->len ? m->s[pos] : -1;
		nl->n = 0;
		m->steps += cl->n;
		for (size_t i = 0; i < cl->n; i++) {
			const inst *in = &re->prog[cl->dense[i]];
			size_t *tc = ns ? cl->caps + i * ns : NULL;
			int ok;
			if (in->op >= OP_BOL && in->op != OP_MATCH)
				continue; /* only marks the instruction as visited */
			if (matched && ns && tc[0] > m->best[0])
				break; /* starts after the match: the rest do too */
			switch (in->op) {
			case OP_CHAR: ok = c == in->c; break;
			case OP_ANY: ok = c >= 0; break;
			case OP_CLASS: ok = c >= 0 && set_has(&re->sets[in->x], (unsigned)c); break;
			case OP_MATCH:
				/* leftmost, then longest, then the first in priority */
				if (!matched || tc[1] > m->best[1])
					memcpy(m->best, tc, ns * sizeof *tc);
				matched = 1;
				ok = 0;
				break;
			default: ok = 0; break;
			}
			if (!ok)
				continue;
			if (ns)
				memcpy(m->cur, tc, ns * sizeof *tc);
			if (addthread(m, nl, cl->dense[i] + 1, pos + 1))
				return 1;
		}
		tlist *t = cl;
		cl = nl;
		nl = t;
		if (pos >= m->len)
			break;
	}
	return matched;
}

/* ---- bounded backtracking ----------------------------------------------------
 * For short texts, a depth-first search in priority order that never
 * visits an (instruction, position) pair twice (a bit per pair): O(size of
 * the expression x length of the text) like the VM, but one pass and
 * without copying captures from thread to thread.  The first match it
 * finds is the VM's highest-priority thread from the leftmost start; that
 * is the VM's match when every match ends at the end of the text (the
 * expression ends with $) or when only yes/no is asked.  A pair visited
 * before failed (else the search would have stopped), so skipping it
 * changes nothing; this is also how the VM drops a thread that reaches an
 * instruction already on its list. */
#define BT_MAX_BITS 50000 /* n x (len + 1): then the VM stays under its budget */

typedef struct btframe {
	uint32_t pc;   /* UINT32_MAX: restore slot */
	uint32_t slot;
	size_t pos;    /* or the slot's old value */
} btframe;

/* Whether the bounded backtracker answers for re on len bytes.  With
 * captures and an expression that does not end with $, it searches on
 * after the first match from the leftmost start and keeps the longest:
 * (MATCH, end) is visited once, by the highest-priority thread that
 * reaches it, so that is the VM's match too. */
static int bt_fits(const pc_re *re, size_t len, size_t nslots)
{
	(void)nslots;
	return len < BT_MAX_BITS && (uint64_t)re->n * (len + 1) <= BT_MAX_BITS;
}

static int bt_run(const pc_re *re, pc_re_scratch *sc, const unsigned char *s,
		  size_t len, size_t *caps, size_t nslots)
{
	size_t n = re->n, nbits = n * (len + 1);
	size_t words = (nbits + 63) / 64;
	/* the stack holds at most one frame per visited pair and one restore
	 * per SAVE visited */
	size_t need = words * sizeof(uint64_t) + 2 * (nbits + 1) * sizeof(btframe);
	if (need > sc->cap) {
		free(sc->mem);
		sc->mem = calloc(1, need); /* zeroed: the VM's sparse sets too */
		sc->cap = sc->mem ? need : 0;
		if (!sc->mem)
			return PC_ENOMEM;
	}
	uint64_t *seen = sc->mem;
	btframe *st = (btframe *)(void *)(seen + words);
	memset(seen, 0, words * sizeof *seen);
	for (size_t k = 0; k < nslots; k++)
		caps[k] = PC_RE_UNSET;
	const inst *prog = re->prog;
	/* the longest match from the leftmost start, when it can differ
	 * from the first one found */
	int longest = nslots && !re->ends_eol, found = 0;
	size_t best[2 * (PC_RE_MAX_GROUPS + 1)], best_end = 0;
	for (size_t start = 0; start <= len; start++) {
		if (re->anchored && start > 0)
			break;
		if (re->has_first && !re->anchored) {
			while (start < len && !set_has(&re->first, s[start]))
				start++;
			if (start >= len)
				break;
		}
		size_t sp = 0;
		st[sp++] = (btframe){0, 0, start};
		while (sp) {
			btframe f = st[--sp];
			if (f.pc == UINT32_MAX) {
				caps[f.slot] = f.pos;
				continue;
			}
			uint32_t pc = f.pc;
			size_t pos = f.pos;
			for (;;) {
				size_t bit = (size_t)pc * (len + 1) + pos;
				if (seen[bit / 64] >> (bit % 64) & 1)
					break;
				seen[bit / 64] |= (uint64_t)1 << (bit % 64);
				const inst *in = &prog[pc];
				int c = pos < len ? s[pos] : -1;
				switch (in->op) {
				case OP_CHAR:
					if (c != in->c)
						goto fail;
					pc++, pos++;
					continue;
				case OP_ANY:
					if (c < 0)
						goto fail;
					pc++, pos++;
					continue;
				case OP_CLASS:
					if (c < 0 || !set_has(&re->sets[in->x], (unsigned)c))
						goto fail;
					pc++, pos++;
					continue;
				case OP_BOL:
					if (pos != 0)
						goto fail;
					pc++;
					continue;
				case OP_EOL:
					if (pos != len)
						goto fail;
					pc++;
					continue;
				case OP_JMP:
					pc = in->x;
					continue;
				case OP_SPLIT:
					st[sp++] = (btframe){in->y, 0, pos};
					pc = in->x;
					continue;
				case OP_SAVE:
					if (in->x < nslots) {
						st[sp++] = (btframe){UINT32_MAX, in->x, caps[in->x]};
						caps[in->x] = pos;
					}
					pc++;
					continue;
				case OP_MATCH:
					if (!longest)
						return 1;
					if (!found || pos > best_end) {
						memcpy(best, caps, nslots * sizeof *caps);
						best_end = pos;
						found = 1;
					}
					goto fail;
				default:
					goto fail;
				}
			}
		fail:;
		}
		if (found) {
			memcpy(caps, best, nslots * sizeof *caps);
			return 1;
		}
		if (re->anchored)
			break;
	}
	return 0;
}

int pc_re_exec(const pc_re *re, pc_re_scratch *sc, const char *text, size_t len,
	       pc_re_span *sub, size_t nsub)
{
	pc_re_scratch local = {NULL, 0, NULL};
	if (!sc)
		sc = &local;
	for (size_t i = 0; i < nsub; i++)
		sub[i].so = sub[i].eo = PC_RE_UNSET;
	if (re->anchored && re->nprefix &&
	    (len < re->nprefix || memcmp(text, re->prefix, re->nprefix) != 0))
		return 0;
	if (re->anchored && re->has_first &&
	    (len == 0 || !set_has(&re->first, (unsigned char)text[0])))
		return 0; /* ('^ +0x...' on a line that starts with '.') */
	if (re->need >= 0 && !memchr(text, re->need, len))
		return 0; /* ('^[^ ]*:$' on a line without ':') */
	size_t groups = nsub < re->ngroups + 1 ? nsub : re->ngroups + 1;
	if (bt_fits(re, len, nsub ? 2 * groups : 0)) {
		size_t caps[2 * (PC_RE_MAX_GROUPS + 1)];
		int r = bt_run(re, sc, (const unsigned char *)text, len, caps,
			       nsub ? 2 * groups : 0);
		for (size_t i = 0; r == 1 && nsub && i < groups; i++)
			if (caps[2 * i] != PC_RE_UNSET && caps[2 * i + 1] != PC_RE_UNSET) {
				sub[i].so = caps[2 * i];
				sub[i].eo = caps[2 * i + 1];
			}
		pc_re_scratch_free(&local);
		return r;
	}
	vm m;
	m.re = re;
	m.s = (const unsigned char *)text;
	m.len = len;
	/* a yes/no pass first: most lines do not match, and it is cheaper */
	int r = vm_init(&m, sc, 0);
	if (!r)
		r = vm_run(&m);
	if (r == 1 && nsub) {
		r = vm_init(&m, sc, 2 * groups);
		if (!r)
			r = vm_run(&m);
		for (size_t i = 0; r == 1 && i < groups; i++)
			if (m.best[2 * i] != PC_RE_UNSET && m.best[2 * i + 1] != PC_RE_UNSET) {
				sub[i].so = m.best[2 * i];
				sub[i].eo = m.best[2 * i + 1];
			}
	}
	if (r == PC_ELIMIT)
		sc->over = re;
	pc_re_scratch_free(&local);
	return r;
}

int pc_re_budget_fail(pc_stream *s, int64_t offset, const pc_re_scratch *sc)
{
	const char *src = sc->over ? sc->over->src : "";
	char shown[160];
	size_t n = pc_name_escape(shown, sizeof shown - 4, src);
	if (n >= sizeof shown - 4)
		strcat(shown, "...");
	return pc_stream_fail(s, PC_ELIMIT, offset,
			      "regular expression '%s' needs more than %d steps per byte on this line (work limit); simplify it (fewer or smaller {m,n} counts, no '.' repeats that overlap)",
			      shown, PC_RE_STEPS_PER_BYTE);
}

void pc_re_scratch_free(pc_re_scratch *sc)
{
	free(sc->mem);
	sc->mem = NULL;
	sc->cap = 0;
}
