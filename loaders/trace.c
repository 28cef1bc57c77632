/*
 * trace.c - instruction traces read through YAML trace dialects.
 *
 * An emulator or a debugger that logs every instruction it executes gives
 * an exact count per address, not a sample.  A trace dialect (a YAML file,
 * like the map dialects of map.c, whose YAML helpers it shares through
 * ydialect.h) says how a line gives the PC (and optionally a bank, a CPU,
 * a cycle counter and a timestamp), which lines to skip, and the trace's
 * special forms: MAME's folded loops ("(loops for N instructions)").  The
 * built-in dialects live in dialects/traces/ and are compiled in
 * (dialects/embed.py); a user names one with -O trace-dialect=FILE.yaml.
 * The schema is documented in docs/traces.md.
 *
 * The trace is streamed line by line; memory grows with the distinct
 * addresses, never with the length of the trace.  The two built-in line
 * expressions are split by hand (trace_fast()), whatever the dialect that
 * uses them; tests/traces compares both paths on every fixture.
 */
#include "internal.h"
#include "pc_config.h"
#include "pc_regex.h"
#include "ydialect.h"
#include "ytree.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#define T_MAX_WINDOW 4096 /* loop.window */
#define T_MAX_SUCC 4      /* successors kept per address (more: "many") */

/* The line expressions split by hand (trace_fast). */
#define FAST_MAME "^(?P<pc>[0-9A-F]+): "
#define FAST_PC "^(=> |pc \\(/[0-9]+\\): )?0x(?P<pc>[0-9a-fA-F]+)(:.*| <.*)?$"
enum { FAST_NONE, FAST_MAME_ID, FAST_PC_ID };

enum tfield { T_PC, T_BANK, T_CPU, T_CYCLES, T_TIME, T_COUNT, T_NF };
static const char *const tfield_names[T_NF] = {"pc", "bank", "cpu", "cycles", "time",
					      "count"};

typedef struct trx {
	pc_re *re;
	int group[T_NF]; /* capture index, 0 = none */
	size_t nsub;
} trx;

typedef struct tdialect {
	char *name;
	int base; /* of pc and bank: 16 or 10 */
	trx *any, *none, *skip;
	size_t nany, nnone, nskip;
	trx every;
	unsigned min_lines;
	int confidence;
	trx line;
	int fast;
	int other_skip;
	int cycles_each; /* cycles: each (per instruction) or counter */
	trx loop;
	unsigned window, repeats;
	uint64_t fill;
} tdialect;

static void trx_free(trx *r)
{
	pc_re_free(r->re);
	r->re = NULL;
}

static void tdialect_free(tdialect *d)
{
	if (!d)
		return;
	free(d->name);
	for (size_t i = 0; i < d->nany; i++)
		trx_free(&d->any[i]);
	for (size_t i = 0; i < d->nnone; i++)
		trx_free(&d->none[i]);
	for (size_t i = 0; i < d->nskip; i++)
		trx_free(&d->skip[i]);
	free(d->any);
	free(d->none);
	free(d->skip);
	trx_free(&d->every);
	trx_free(&d->line);
	trx_free(&d->loop);
	free(d);
}

/* groups: 0 none allowed, 1 the line's fields, 2 only 'count' */
static const char *tfield_of(const char *name, int groups, int *field)
{
	int f = -1;
	for (int k = 0; k < T_NF; k++)
		if (strcmp(name, tfield_names[k]) == 0)
			f = k;
	if (f < 0 || (groups == 1 && f == T_COUNT) || (groups == 2 && f != T_COUNT))
		return groups == 2 ? "invalid regular expression: the loop's only group is 'count'"
				   : "invalid regular expression: unknown group name (known: pc bank cpu cycles time)";
	if (!groups)
		return "named groups are only meaningful in 'line' and 'loop.match'";
	*field = f;
	return NULL;
}

static int trx_compile(pc_ydctx *c, const pc_ynode *n, const char *path, int groups,
		       trx *out)
{
	memset(out, 0, sizeof *out);
	return pc_yd_regex(c, n, path, groups, tfield_of, out->group, &out->re, &out->nsub);
}

static int trx_list_item(pc_ydctx *c, const pc_ynode *n, const char *path, void *elem)
{
	return trx_compile(c, n, path, 0, elem);
}

static int trx_list(pc_ydctx *c, const pc_ynode *n, const char *path, trx **out,
		    size_t *count)
{
	void *v;
	int r = pc_yd_list(c, n, path, sizeof **out, trx_list_item, &v, count);
	*out = v;
	return r;
}

static int tdialect_build(pc_ydctx *c, const pc_ynode *root, tdialect *d)
{
	static const char *const keys[] = {"profcore-trace-dialect", "name", "description",
					   "numbers", "detect", "skip", "line", "cycles",
					   "loop", "other", NULL};
	static const char *const base_names[] = {"hex", "decimal", NULL};
	static const char *const other_names[] = {"error", "skip", NULL};
	static const char *const cycle_names[] = {"counter", "each", NULL};
	int r = pc_yd_check_map(c, root, "", keys);
	if (r)
		return r;
	const pc_ynode *v;
	unsigned long ul;
	if (!(v = pc_yd_get(root, "profcore-trace-dialect")))
		return pc_yd_err(c, root, "profcore-trace-dialect",
				 "missing (the schema version, 1, must be given)");
	if ((r = pc_yd_uint(c, v, "profcore-trace-dialect", 1, 1, &ul)))
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
	if ((v = pc_yd_get(root, "description")) &&
	    (r = pc_yd_scalar(c, v, "description", &nm)))
		return r;
	int e;
	d->base = 16;
	if ((v = pc_yd_get(root, "numbers"))) {
		if ((r = pc_yd_enum(c, v, "numbers", base_names, &e)))
			return r;
		d->base = e ? 10 : 16;
	}
	d->confidence = 32;
	d->min_lines = 3;
	if ((v = pc_yd_get(root, "detect"))) {
		static const char *const dk[] = {"any", "none", "every-line", "min-lines",
						 "confidence", NULL};
		if ((r = pc_yd_check_map(c, v, "detect", dk)))
			return r;
		const pc_ynode *w;
		if ((w = pc_yd_get(v, "any")) &&
		    (r = trx_list(c, w, "detect.any", &d->any, &d->nany)))
			return r;
		if ((w = pc_yd_get(v, "none")) &&
		    (r = trx_list(c, w, "detect.none", &d->none, &d->nnone)))
			return r;
		if ((w = pc_yd_get(v, "every-line")) &&
		    (r = trx_compile(c, w, "detect.every-line", 0, &d->every)))
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
		if (!d->nany && !d->every.re)
			return pc_yd_err(c, v, "detect", "needs 'any' or 'every-line'");
	}
	if ((v = pc_yd_get(root, "skip")) && (r = trx_list(c, v, "skip", &d->skip, &d->nskip)))
		return r;
	if (!(v = pc_yd_get(root, "line")))
		return pc_yd_err(c, root, "line",
				 "missing (the expression of an instruction line, with a group 'pc')");
	if ((r = trx_compile(c, v, "line", 1, &d->line)))
		return r;
	if (!d->line.group[T_PC]) {
		trx_free(&d->line);
		return pc_yd_err(c, v, "line", "the expression needs a group named 'pc'");
	}
	if (strcmp(v->s, FAST_MAME) == 0)
		d->fast = FAST_MAME_ID;
	else if (strcmp(v->s, FAST_PC) == 0)
		d->fast = FAST_PC_ID;
	if ((v = pc_yd_get(root, "cycles"))) {
		if ((r = pc_yd_enum(c, v, "cycles", cycle_names, &d->cycles_each)))
			return r;
		if (!d->line.group[T_CYCLES])
			return pc_yd_err(c, v, "cycles", "the line expression has no group 'cycles'");
	}
	if ((v = pc_yd_get(root, "other"))) {
		if ((r = pc_yd_enum(c, v, "other", other_names, &d->other_skip)))
			return r;
	}
	if ((v = pc_yd_get(root, "loop"))) {
		static const char *const lk[] = {"match", "window", "repeats", "fill", NULL};
		if ((r = pc_yd_check_map(c, v, "loop", lk)))
			return r;
		const pc_ynode *w;
		if (!(w = pc_yd_get(v, "match")))
			return pc_yd_err(c, v, "loop", "needs 'match' (the line of a folded loop, with a group 'count')");
		if ((r = trx_compile(c, w, "loop.match", 2, &d->loop)))
			return r;
		if (!d->loop.group[T_COUNT])
			return pc_yd_err(c, w, "loop.match", "the expression needs a group named 'count'");
		d->window = 64;
		d->repeats = 2;
		if ((w = pc_yd_get(v, "window"))) {
			if ((r = pc_yd_uint(c, w, "loop.window", 2, T_MAX_WINDOW, &ul)))
				return r;
			d->window = (unsigned)ul;
		}
		if ((w = pc_yd_get(v, "repeats"))) {
			if ((r = pc_yd_uint(c, w, "loop.repeats", 1, d->window, &ul)))
				return r;
			d->repeats = (unsigned)ul;
		}
		if ((w = pc_yd_get(v, "fill"))) {
			if ((r = pc_yd_uint(c, w, "loop.fill", 0, 0xFFFFFFFFul, &ul)))
				return r;
			d->fill = ul;
		}
		if (d->line.group[T_CYCLES])
			return pc_yd_err(c, v, "loop",
					 "a trace with folded loops cannot give cycles (a folded loop's cycles are unknown)");
	}
	return PC_OK;
}

static int tdialect_compile(const pc_ynode *root, const char *file, tdialect **out,
			    char *err, size_t errlen)
{
	*out = NULL;
	err[0] = 0;
	tdialect *d = calloc(1, sizeof *d);
	if (!d)
		return PC_ENOMEM;
	pc_ydctx c = {file, err, errlen, 0, 0};
	int r = tdialect_build(&c, root, d);
	if (r) {
		if (r == PC_ENOMEM)
			snprintf(err, errlen, "out of memory");
		tdialect_free(d);
		return r;
	}
	*out = d;
	return PC_OK;
}

/* ---- detection ---------------------------------------------------------- */

static int tdialect_detect(const tdialect *d, pc_re_scratch *sc,
			   const unsigned char *head, size_t len, int whole)
{
	if (!d->nany && !d->every.re)
		return 0;
	int any = d->nany == 0;
	unsigned lines = 0;
	size_t i = 0;
	while (i < len) {
		size_t j = i;
		while (j < len && head[j] != '\n')
			j++;
		if (j >= len && !whole)
			break;
		size_t n = j - i;
		const char *l = (const char *)head + i;
		i = j + 1;
		if (n && l[n - 1] == '\r')
			n--;
		if (memchr(l, 0, n))
			return 0;
		for (size_t k = 0; !any && k < d->nany; k++)
			if (pc_re_exec(d->any[k].re, sc, l, n, NULL, 0) > 0)
				any = 1;
		for (size_t k = 0; k < d->nnone; k++)
			if (pc_re_exec(d->none[k].re, sc, l, n, NULL, 0) != 0)
				return 0;
		size_t b = 0;
		while (b < n && isspace((unsigned char)l[b]))
			b++;
		if (d->every.re && b < n) {
			lines++;
			if (pc_re_exec(d->every.re, sc, l, n, NULL, 0) <= 0)
				return 0;
		}
	}
	if (!any || (d->every.re && lines < d->min_lines))
		return 0;
	return d->confidence;
}

static int detect_trace(const unsigned char *head, size_t len, int whole,
			const char **name)
{
	int best = 0;
	pc_re_scratch sc = {NULL, 0, NULL};
	*name = NULL;
	for (const pc_ydoc *b = pc_trace_builtins; b->name; b++) {
		tdialect *d;
		char err[256];
		if (tdialect_compile(b->root, b->name, &d, err, sizeof err))
			continue; /* built-ins are tested; never happens */
		int score = tdialect_detect(d, &sc, head, len, whole);
		if (score > best) {
			best = score;
			*name = b->name;
		}
		tdialect_free(d);
	}
	pc_re_scratch_free(&sc);
	return best;
}

/* ====================================================================== */
/* Counting                                                                */

typedef struct tent {
	uint64_t pc;
	uint32_t seg;
	uint8_t nsucc; /* T_MAX_SUCC + 1: more than T_MAX_SUCC */
	uint32_t succ[T_MAX_SUCC];
	uint64_t count, cycles;
	uint32_t walk; /* fold expansion: position + 1 in the current walk */
	uint32_t wmark; /* 1: in the open window's touched list */
	uint64_t wbase; /* the event's value when the open window began */
} tent;

typedef struct tctx {
	const tdialect *d;
	pc_stream *s;
	tent *ents;
	size_t nents, capents;
	uint32_t *tab; /* open addressing: entry index + 1, 0 empty */
	size_t tabcap;
	/* loop folding */
	uint32_t *ring; /* the last `window` logged entries */
	unsigned ringpos;
	uint32_t prev; /* the previous instruction's entry, UINT32_MAX none */
	int prev_logged; /* prev is a logged line (not the end of a fold) */
	uint64_t folds, folded, lines_after_fold, instructions;
	uint64_t last_fold_line;
	/* cycles */
	int event_cycles;
	int have_cyc;
	uint64_t last_cyc;
	/* cpu */
	char *cpu_want;
	char *cpu_first;
	uint64_t other_cpu;
	pc_re_scratch sc;
	pc_re_span pm[PC_RE_MAX_GROUPS + 1];
	/* the input's order: the open window holds the instructions
	 * [wfirst, pos) (folded ones included); wtouch lists its entries */
	pc_profile *p;
	uint64_t pos, wfirst, wspan;
	int wpending; /* the window is full: cut it at the next line */
	uint32_t *wtouch;
	size_t nwtouch, capwtouch;
	uint32_t *wseg;
	uint64_t *waddr, *wval;
	size_t capw;
} tctx;

static size_t thash(uint32_t seg, uint64_t pc)
{
	uint64_t h = (pc ^ ((uint64_t)seg << 40)) * 0x9E3779B97F4A7C15ull;
	return (size_t)(h >> 17);
}

/* Index of the entry of (seg, pc), created if new; UINT32_MAX on ENOMEM. */
static uint32_t tent_get(tctx *t, uint32_t seg, uint64_t pc)
{
	if (t->tabcap) {
		size_t m = t->tabcap - 1;
		for (size_t h = thash(seg, pc) & m;; h = (h + 1) & m) {
			uint32_t k = t->tab[h];
			if (!k)
				break;
			if (t->ents[k - 1].pc == pc && t->ents[k - 1].seg == seg)
				return k - 1;
		}
	}
	if (t->nents + 1 >= UINT32_MAX / 2)
		return UINT32_MAX;
	if ((t->nents + 1) * 2 > t->tabcap) {
		size_t nc = t->tabcap ? t->tabcap * 2 : 1024;
		uint32_t *nt = calloc(nc, sizeof *nt);
		if (!nt)
			return UINT32_MAX;
		for (size_t i = 0; i < t->nents; i++) {
			size_t h = thash(t->ents[i].seg, t->ents[i].pc) & (nc - 1);
			while (nt[h])
				h = (h + 1) & (nc - 1);
			nt[h] = (uint32_t)i + 1;
		}
		free(t->tab);
		t->tab = nt;
		t->tabcap = nc;
	}
	if (pc_grow((void **)&t->ents, &t->capents, t->nents + 1, sizeof *t->ents))
		return UINT32_MAX;
	tent *e = &t->ents[t->nents];
	memset(e, 0, sizeof *e);
	e->pc = pc;
	e->seg = seg;
	size_t h = thash(seg, pc) & (t->tabcap - 1);
	while (t->tab[h])
		h = (h + 1) & (t->tabcap - 1);
	t->tab[h] = (uint32_t)t->nents + 1;
	return (uint32_t)t->nents++;
}

static void add_succ(tent *e, uint32_t to)
{
	if (e->nsucc > T_MAX_SUCC)
		return;
	for (unsigned i = 0; i < e->nsucc; i++)
		if (e->succ[i] == to)
			return;
	if (e->nsucc == T_MAX_SUCC)
		e->nsucc++;
	else
		e->succ[e->nsucc++] = to;
}

/* Entry k joins the open window's list. */
static int touch_add(tctx *t, uint32_t k)
{
	if (pc_grow((void **)&t->wtouch, &t->capwtouch, t->nwtouch + 1, sizeof *t->wtouch))
		return pc_stream_fail(t->s, PC_ENOMEM, -1, "out of memory");
	t->ents[k].wmark = 1;
	t->wtouch[t->nwtouch++] = k;
	return PC_OK;
}

/* Entry k has counts in the open window (once an instruction). */
static inline int touch(tctx *t, uint32_t k)
{
	return t->ents[k].wmark ? PC_OK : touch_add(t, k);
}

/* The open window [wfirst, pos) goes to the profile (its counts: the
 * entries' values less their values when it began). */
static int cut_window(tctx *t)
{
	size_t n = t->nwtouch;
	if (n > t->capw) {
		uint32_t *sg = realloc(t->wseg, n * sizeof *sg);
		if (sg)
			t->wseg = sg;
		uint64_t *a = realloc(t->waddr, n * sizeof *a);
		if (a)
			t->waddr = a;
		uint64_t *v = realloc(t->wval, n * sizeof *v);
		if (v)
			t->wval = v;
		if (!sg || !a || !v)
			return pc_stream_fail(t->s, PC_ENOMEM, -1, "out of memory");
		t->capw = n;
	}
	for (size_t i = 0; i < n; i++) {
		tent *e = &t->ents[t->wtouch[i]];
		uint64_t v = t->event_cycles ? e->cycles : e->count;
		t->wseg[i] = e->seg;
		t->waddr[i] = e->pc;
		t->wval[i] = v - e->wbase;
		e->wbase = v;
		e->wmark = 0;
	}
	int r = pc_profile_add_window(t->p, t->wfirst, t->pos, t->wseg, t->waddr, t->wval, n);
	t->nwtouch = 0;
	t->wfirst = t->pos;
	t->wpending = 0;
	pc_profile_window_span(&t->wspan, t->p);
	return r;
}

/* After pos moved on: is the open window full? */
static void window_check(tctx *t)
{
	if (t->pos - t->wfirst >= t->wspan)
		t->wpending = 1;
}

/* Occurrences of entry k in the loop window. */
static unsigned in_window(const tctx *t, uint32_t k)
{
	unsigned n = 0;
	for (unsigned i = 0; i < t->d->window; i++)
		n += t->ring[i] == k;
	return n;
}

static void shown_addr(const tent *e, char *buf, size_t n)
{
	if (e->seg == PC_NOSEG)
		snprintf(buf, n, "0x%llx", (unsigned long long)e->pc);
	else
		snprintf(buf, n, "%lx:0x%llx", (unsigned long)e->seg, (unsigned long long)e->pc);
}

/* A folded loop of n instructions: MAME logs an instruction only when its
 * address occurs fewer than `repeats` times among the last `window`
 * logged ones; the n instructions it did not log all had such addresses
 * (the window does not move while it folds).  They are walked from the
 * last logged line along the successors the logged lines showed: each
 * step must have exactly one successor inside the window's repeated
 * addresses, else the fold is refused.  Once the walk comes back to an
 * address it is periodic, and the rest is counted a whole period at a
 * time (a fold of 2^31 instructions costs the same as one of 64). */
static int expand_fold(tctx *t, uint64_t n, uint64_t off)
{
	char a[48], b[48], c[48];
	if (t->prev == UINT32_MAX)
		return pc_stream_fail(t->s, PC_EFORMAT, (int64_t)off,
				      "a folded loop before any instruction line: cannot tell what it ran");
	if (!t->prev_logged)
		return pc_stream_fail(t->s, PC_EFORMAT, (int64_t)off,
				      "two folded loops without an instruction line between them");
	uint32_t seq[T_MAX_WINDOW + 1];
	size_t len = 0;
	uint32_t cur = t->prev;
	uint64_t done = 0;
	int r = PC_OK;
	while (done < n) {
		const tent *e = &t->ents[cur];
		uint32_t next = UINT32_MAX;
		unsigned hits = 0;
		if (e->nsucc > T_MAX_SUCC) {
			shown_addr(e, a, sizeof a);
			r = pc_stream_fail(t->s, PC_EFORMAT, (int64_t)off,
					   "cannot expand the folded loop of %llu instructions: the instruction at %s went to more than %d places in the logged lines; trace with noloop",
					   (unsigned long long)n, a, T_MAX_SUCC);
			break;
		}
		for (unsigned i = 0; i < e->nsucc; i++)
			if (in_window(t, e->succ[i]) >= t->d->repeats) {
				if (hits++ == 0)
					next = e->succ[i];
				else
					shown_addr(&t->ents[e->succ[i]], c, sizeof c);
			}
		if (hits != 1) {
			shown_addr(e, a, sizeof a);
			if (hits == 0)
				r = pc_stream_fail(t->s, PC_EFORMAT, (int64_t)off,
						   "cannot expand the folded loop of %llu instructions: no logged line shows where the instruction at %s went inside the loop; trace with noloop",
						   (unsigned long long)n, a);
			else {
				shown_addr(&t->ents[next], b, sizeof b);
				r = pc_stream_fail(t->s, PC_EFORMAT, (int64_t)off,
						   "cannot expand the folded loop of %llu instructions: the logged lines show the instruction at %s going both to %s and to %s inside the loop; trace with noloop",
						   (unsigned long long)n, a, b, c);
			}
			break;
		}
		tent *x = &t->ents[next];
		if (x->walk) {
			/* periodic from seq[x->walk - 1] on */
			size_t k = x->walk - 1, period = len - k;
			uint64_t rest = n - done, whole = rest / period, part = rest % period;
			for (size_t i = 0; i < period; i++)
				t->ents[seq[k + i]].count += whole + (i < part);
			cur = seq[k + (part ? part : period) - 1];
			done = n;
			break;
		}
		x->count++;
		seq[len++] = next;
		x->walk = (uint32_t)len;
		cur = next;
		done++;
	}
	for (size_t i = 0; i < len && !r; i++)
		r = touch(t, seq[i]);
	for (size_t i = 0; i < len; i++)
		t->ents[seq[i]].walk = 0;
	if (r)
		return r;
	t->pos += n;
	window_check(t);
	t->prev = cur;
	t->prev_logged = 0;
	t->folds++;
	t->folded += n;
	return PC_OK;
}

/* ---- the line ----------------------------------------------------------- */

static int hexval(unsigned char ch)
{
	if (ch >= '0' && ch <= '9')
		return ch - '0';
	if (ch >= 'a' && ch <= 'f')
		return ch - 'a' + 10;
	if (ch >= 'A' && ch <= 'F')
		return ch - 'A' + 10;
	return -1;
}

/* The hand-split built-in line expressions: 1 and the pc's span, or 0. */
static int trace_fast(int which, const char *l, size_t n, size_t *so, size_t *eo)
{
	const unsigned char *s = (const unsigned char *)l;
	size_t i = 0;
	if (which == FAST_MAME_ID) {
		while (i < n && ((s[i] >= '0' && s[i] <= '9') || (s[i] >= 'A' && s[i] <= 'F')))
			i++;
		if (i == 0 || i + 1 >= n || s[i] != ':' || s[i + 1] != ' ')
			return 0;
		*so = 0;
		*eo = i;
		return 1;
	}
	/* FAST_PC */
	if (n >= 3 && memcmp(l, "=> ", 3) == 0) {
		i = 3;
	} else if (n >= 5 && memcmp(l, "pc (/", 5) == 0) {
		size_t j = 5;
		while (j < n && s[j] >= '0' && s[j] <= '9')
			j++;
		if (j == 5 || j + 3 > n || memcmp(l + j, "): ", 3) != 0)
			i = 0; /* not the prefix: then "pc" is not hex */
		else
			i = j + 3;
	}
	if (i + 2 > n || s[i] != '0' || s[i + 1] != 'x')
		return 0;
	size_t a = i + 2, b = a;
	while (b < n && hexval(s[b]) >= 0)
		b++;
	if (b == a)
		return 0;
	if (b < n && s[b] != ':' && (s[b] != ' ' || b + 1 >= n || s[b + 1] != '<'))
		return 0;
	*so = a;
	*eo = b;
	return 1;
}

static int parse_uint(const char *p, size_t n, int base, uint64_t *out)
{
	if (base == 16 && n > 2 && p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) {
		p += 2;
		n -= 2;
	}
	if (!n)
		return 0;
	uint64_t v = 0;
	for (size_t i = 0; i < n; i++) {
		int dg = base == 16 ? hexval((unsigned char)p[i])
				    : (p[i] >= '0' && p[i] <= '9' ? p[i] - '0' : -1);
		if (dg < 0 || v > (UINT64_MAX - (uint64_t)dg) / (uint64_t)base)
			return 0;
		v = v * (uint64_t)base + (uint64_t)dg;
	}
	*out = v;
	return 1;
}

static int bad_field(tctx *t, uint64_t off, const char *what, const char *l, size_t n)
{
	char shown[61];
	size_t k = n > 60 ? 60 : n;
	for (size_t i = 0; i < k; i++)
		shown[i] = (unsigned char)l[i] < 0x20 || (unsigned char)l[i] >= 0x7f ? '?' : l[i];
	shown[k] = 0;
	return pc_stream_fail(t->s, PC_EFORMAT, (int64_t)off,
			      "expected %s (dialect %s), found \"%s%s\"", what, t->d->name, shown,
			      n > 60 ? "..." : "");
}

/* One instruction line whose fields are in t->pm (regex) or (so, eo) of
 * the pc (fast path: no other field). */
static int instruction(tctx *t, const char *l, size_t n, uint64_t off, int fast,
		       size_t so, size_t eo)
{
	const tdialect *d = t->d;
	uint32_t seg = PC_NOSEG;
	uint64_t pc;
	if (!fast) {
		int g = d->line.group[T_CPU];
		if (g && t->pm[g].so != PC_RE_UNSET) {
			const char *cp = l + t->pm[g].so;
			size_t cn = t->pm[g].eo - t->pm[g].so;
			const char *want = t->cpu_want ? t->cpu_want : t->cpu_first;
			if (!want) {
				if (!(t->cpu_first = pc_strndup(cp, cn)))
					return pc_stream_fail(t->s, PC_ENOMEM, -1, "out of memory");
			} else if (strlen(want) != cn || memcmp(want, cp, cn) != 0) {
				if (!t->cpu_want) {
					char shown[41];
					size_t k = strlen(t->cpu_first);
					k = k > 40 ? 40 : k;
					for (size_t i = 0; i < k; i++)
						shown[i] = (unsigned char)t->cpu_first[i] < 0x20 ||
								   (unsigned char)t->cpu_first[i] >= 0x7f
							   ? '?'
							   : t->cpu_first[i];
					shown[k] = 0;
					return pc_stream_fail(
						t->s, PC_EFORMAT, (int64_t)off,
						"the trace interleaves CPUs (\"%s\" and another on this line); choose one with the option trace-cpu=NAME",
						shown);
				}
				t->other_cpu++;
				return PC_OK;
			}
		} else if (g && t->cpu_want) {
			t->other_cpu++;
			return PC_OK;
		}
		so = t->pm[d->line.group[T_PC]].so;
		eo = t->pm[d->line.group[T_PC]].eo;
		g = d->line.group[T_BANK];
		if (g && t->pm[g].so != PC_RE_UNSET) {
			uint64_t bk;
			if (!parse_uint(l + t->pm[g].so, t->pm[g].eo - t->pm[g].so, d->base, &bk) ||
			    bk > 0xFFFFFFFEu)
				return bad_field(t, off + t->pm[g].so, "a bank number", l + t->pm[g].so,
						 t->pm[g].eo - t->pm[g].so);
			seg = (uint32_t)bk;
		}
	}
	if (so == PC_RE_UNSET)
		return bad_field(t, off, "an address in the group 'pc'", l, n);
	const char *pp = l + so;
	size_t pn = eo - so;
	const char *colon = memchr(pp, ':', pn);
	if (colon && seg == PC_NOSEG) {
		/* bank:addr in the pc field */
		uint64_t bk;
		if (!parse_uint(pp, (size_t)(colon - pp), d->base, &bk) || bk > 0xFFFFFFFEu)
			return bad_field(t, off + so, "a bank number before ':'", pp, pn);
		seg = (uint32_t)bk;
		pn -= (size_t)(colon - pp) + 1;
		pp = colon + 1;
	}
	if (!parse_uint(pp, pn, d->base, &pc))
		return bad_field(t, off + (uint64_t)(pp - l),
				 d->base == 16 ? "a hexadecimal address" : "a decimal address", pp, pn);
	uint32_t k = tent_get(t, seg, pc);
	if (k == UINT32_MAX)
		return pc_stream_fail(t->s, PC_ENOMEM, -1, "out of memory");
	uint64_t cyc = 0;
	if (!fast && d->line.group[T_CYCLES]) {
		int g = d->line.group[T_CYCLES];
		if (t->pm[g].so == PC_RE_UNSET ||
		    !parse_uint(l + t->pm[g].so, t->pm[g].eo - t->pm[g].so, 10, &cyc))
			return bad_field(t, off + (t->pm[g].so == PC_RE_UNSET ? 0 : t->pm[g].so),
					 "a decimal cycle count in the group 'cycles'", l, n);
		if (!d->cycles_each) {
			if (t->have_cyc) {
				if (cyc < t->last_cyc)
					return pc_stream_fail(t->s, PC_EFORMAT, (int64_t)(off + t->pm[g].so),
							      "the cycle counter goes back from %llu to %llu",
							      (unsigned long long)t->last_cyc,
							      (unsigned long long)cyc);
				/* the previous instruction's: in its window */
				t->ents[t->prev].cycles += cyc - t->last_cyc;
				int r = touch(t, t->prev);
				if (r)
					return r;
			}
			t->have_cyc = 1;
			t->last_cyc = cyc;
		}
	}
	if (t->wpending) {
		int r = cut_window(t);
		if (r)
			return r;
	}
	int r = touch(t, k);
	if (r)
		return r;
	tent *e = &t->ents[k];
	e->count++;
	if (d->cycles_each)
		e->cycles += cyc;
	t->instructions++;
	t->pos++;
	window_check(t);
	/* (after a fold: the edge from the walk's end, so that a later fold
	 * that could leave the loop there is refused, not walked past it) */
	if (t->prev != UINT32_MAX && t->ring)
		add_succ(&t->ents[t->prev], k);
	if (t->ring) {
		t->ringpos = (t->ringpos + 1) % d->window;
		t->ring[t->ringpos] = k;
		t->lines_after_fold++;
	}
	t->prev = k;
	t->prev_logged = 1;
	return PC_OK;
}

static int trace_run(tctx *t)
{
	const tdialect *d = t->d;
	const char *l;
	size_t n;
	uint64_t off;
	int g;
	while ((g = pc_stream_getline(&l, &n, &off, t->s)) == PC_OK && l) {
		if (n && l[n - 1] == '\r')
			n--;
		size_t so, eo;
		int m;
		if (d->fast) {
			if (trace_fast(d->fast, l, n, &so, &eo)) {
				if ((g = instruction(t, l, n, off, 1, so, eo)))
					return g;
				continue;
			}
		} else {
			m = pc_re_exec(d->line.re, &t->sc, l, n, t->pm, d->line.nsub);
			if (m < 0)
				return m == PC_ELIMIT ? pc_re_budget_fail(t->s, (int64_t)off, &t->sc)
						      : pc_stream_fail(t->s, m, -1, "out of memory");
			if (m) {
				if ((g = instruction(t, l, n, off, 0, 0, 0)))
					return g;
				continue;
			}
		}
		if (d->loop.re) {
			m = pc_re_exec(d->loop.re, &t->sc, l, n, t->pm, d->loop.nsub);
			if (m < 0)
				return m == PC_ELIMIT ? pc_re_budget_fail(t->s, (int64_t)off, &t->sc)
						      : pc_stream_fail(t->s, m, -1, "out of memory");
			if (m) {
				int cg = d->loop.group[T_COUNT];
				uint64_t cnt;
				if (t->pm[cg].so == PC_RE_UNSET ||
				    !parse_uint(l + t->pm[cg].so, t->pm[cg].eo - t->pm[cg].so, 10, &cnt) ||
				    cnt == 0)
					return bad_field(t, off, "a loop count of 1 or more", l, n);
				if ((g = expand_fold(t, cnt, off)))
					return g;
				t->last_fold_line = pc_stream_lineno(t->s);
				t->lines_after_fold = 0;
				continue;
			}
		}
		int skipped = 0;
		for (size_t i = 0; i < d->nskip && !skipped; i++) {
			m = pc_re_exec(d->skip[i].re, &t->sc, l, n, NULL, 0);
			if (m < 0)
				return m == PC_ELIMIT ? pc_re_budget_fail(t->s, (int64_t)off, &t->sc)
						      : pc_stream_fail(t->s, m, -1, "out of memory");
			skipped = m;
		}
		if (skipped || d->other_skip)
			continue;
		return bad_field(t, off, "an instruction line", l, n);
	}
	return g;
}

/* ====================================================================== */
/* The loader                                                              */

static int trace_probe(const unsigned char *head, size_t len, const char *filename)
{
	(void)filename;
	if (!len || memchr(head, 0, len))
		return 0;
	const char *name;
	return detect_trace(head, len, len < 4096, &name);
}

static int tdialect_compile_any(const pc_ynode *root, const char *file, void **out,
				char *err, size_t errlen)
{
	tdialect *d;
	int r = tdialect_compile(root, file, &d, err, errlen);
	*out = d;
	return r;
}

static int trace_detect(pc_profile *p, pc_stream *s, const unsigned char *head, size_t len,
			int whole, const char **name, void *arg)
{
	(void)p, (void)s, (void)arg;
	return detect_trace(head, len, whole, name) > 0;
}

static const pc_ydkind trace_kind = {"trace", "trace dialects", "trace-dialect",
				     "dialects/traces", pc_trace_builtins,
				     tdialect_compile_any, trace_detect};

static int trace_load(pc_profile *p, pc_stream *s, const pc_options *opts)
{
	void *dv;
	int r;
	const char *want = pc_options_get(opts, "trace-dialect");
	if ((r = pc_yd_choose(p, s, &trace_kind, want, NULL, &dv)))
		return r;
	tdialect *d = dv;
	tctx t;
	memset(&t, 0, sizeof t);
	t.p = p;
	pc_profile_window_span(&t.wspan, p);
	t.d = d;
	t.s = s;
	t.prev = UINT32_MAX;
	const char *ev = pc_options_get(opts, "trace-event");
	t.event_cycles = ev && strcmp(ev, "cycles") == 0;
	const char *cpu = pc_options_get(opts, "trace-cpu");
	if (cpu && *cpu && !d->line.group[T_CPU]) {
		r = pc_profile_fail(p, PC_EUSAGE,
				    "trace-cpu: dialect %s names no CPU on its lines", d->name);
		tdialect_free(d);
		return r;
	}
	if (t.event_cycles && !d->line.group[T_CYCLES]) {
		r = pc_profile_fail(p, PC_EUSAGE,
				    "trace-event=cycles: dialect %s gives no cycle counts", d->name);
		tdialect_free(d);
		return r;
	}
	if (cpu && *cpu && !(t.cpu_want = pc_strdup(cpu)))
		r = PC_ENOMEM;
	else
		r = PC_OK;
	if (!r && d->loop.re) {
		t.ring = malloc(d->window * sizeof *t.ring);
		uint32_t f = t.ring ? tent_get(&t, PC_NOSEG, d->fill) : UINT32_MAX;
		if (f == UINT32_MAX)
			r = pc_stream_fail(s, PC_ENOMEM, -1, "out of memory");
		else
			for (unsigned i = 0; i < d->window; i++)
				t.ring[i] = f;
	}
	pc_profile_note(p, "trace: dialect %s%s", d->name, want && *want ? "" : " (detected)");
	if (!r)
		r = trace_run(&t);
	if (!r && !t.instructions)
		r = t.other_cpu ? pc_stream_fail(s, PC_EFORMAT, 0, "no instruction line of CPU %s",
						 t.cpu_want)
				: pc_stream_fail(s, PC_EFORMAT, 0, "no instruction lines (dialect %s)",
						 d->name);
	if (!r && t.pos > t.wfirst)
		r = cut_window(&t); /* the counts go to the profile window by window */
	if (!r) {
		pc_profile_set_event_counts(p, 1);
		pc_profile_set_dimension(p, t.event_cycles ? "cycles" : "instructions",
					 t.event_cycles ? 'c' : 'i');
		if (t.folds)
			pc_profile_note(p, "%s: %llu folded loops expanded (%llu instructions)",
					pc_stream_name(s), (unsigned long long)t.folds,
					(unsigned long long)t.folded);
		if (t.folds)
			pc_profile_warn(p, "%s: the trace may end inside a folded loop: MAME writes a loop's count only when it logs the next line, so instructions run after the last %llu lines (after the fold on line %llu) are not counted; trace with noloop to count them",
					pc_stream_name(s), (unsigned long long)t.lines_after_fold,
					(unsigned long long)t.last_fold_line);
		if (t.event_cycles && !d->cycles_each)
			pc_profile_warn(p, "%s: the last instruction's cycles are unknown (the trace ends before the next counter value)",
					pc_stream_name(s));
	}
	free(t.ents);
	free(t.tab);
	free(t.ring);
	free(t.wtouch);
	free(t.wseg);
	free(t.waddr);
	free(t.wval);
	free(t.cpu_want);
	free(t.cpu_first);
	pc_re_scratch_free(&t.sc);
	tdialect_free(d);
	return r;
}

static const char *const trace_ext[] = {"log", "trace", NULL};

static const pc_option_decl trace_options[] = {
	{"trace-dialect", PC_OPTION_STRING, NULL, NULL,
	 "a built-in trace dialect name or a FILE.yaml; default: detected"},
	{"trace-event", PC_OPTION_ENUM, "instructions,cycles", "instructions",
	 "the event that becomes the counts (cycles: where the dialect gives them)"},
	{"trace-cpu", PC_OPTION_STRING, NULL, NULL,
	 "the CPU whose lines are counted, in a trace that names CPUs"},
	{NULL, PC_OPTION_STRING, NULL, NULL, NULL},
};

const pc_loader pc_loader_trace = {
	.abi_version = PC_LOADER_ABI_VERSION,
	.name = "trace",
	.description = "instruction traces via YAML trace dialects (MAME trace, PC per line)",
	.roles = PC_ROLE_SAMPLES,
	.extensions = trace_ext,
	.probe = trace_probe,
	.load = trace_load,
	.order = 50,
	.options = trace_options,
};
