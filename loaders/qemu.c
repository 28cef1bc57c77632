/*
 * qemu.c - QEMU TCG execution logs as exact instruction counts.
 *
 * Two kinds of log (docs/qemu.md):
 *
 * 1. "-d in_asm,exec,nochain -D FILE": every translation block (TB) QEMU
 *    translates is shown once by in_asm,
 *
 *        ----------------
 *        IN: symbol
 *        0x000000f4:  b570       push     {r4, r5, r6, lr}
 *        0x000000f6:  2500       movs     r5, #0
 *
 *    and every execution of a TB by exec, before it runs:
 *
 *        Trace 0: 0x7f40a0000100 [00800400/000000f4/00000110/ff000200] sym
 *
 *    (QEMU 6-9: [cs_base/pc/flags/cflags]; 3-5: [cs_base/pc/flags] and
 *    "Chain" lines for goto_ptr lookups; 2.7-2.12: "Trace %p [cpu: pc]";
 *    older: "Trace %p [pc]").  Each execution counts every instruction of
 *    the TB once.  The translation is found by QEMU's own identity of the
 *    TB, its host code pointer: the first exec line at a block's address
 *    after the block binds that pointer to it (QEMU runs a TB right after
 *    translating it), so a TB translated again at the same address after
 *    an invalidation (self-modifying code, a full code buffer) counts its
 *    new instructions from then on.  An execution at another address
 *    than the translation's (TARGET_TB_PCREL: one TB for every virtual
 *    alias of a physical page) counts the same instructions moved by the
 *    difference.  The exceptions QEMU writes in the log are applied:
 *    "Stopped execution of TB chain before PTR [PC]" (the TB last logged
 *    for a vCPU did not run: an exit request or the -icount budget ran
 *    out at its start) takes that execution back; "cpu_io_recompile:
 *    rewound execution of TB to PC" (-icount: an I/O access in the
 *    middle of a TB) counts only the instructions before the one the
 *    next TB starts at.  What cannot give exact counts is refused: an
 *    exec line naming a TB in_asm never showed, chained TBs ("Linking
 *    TBs": their executions are not logged, -d nochain is needed), the
 *    disassembler disagreeing with the translator, blocks of bytes
 *    ("OBJD-T:", a QEMU without a disassembler for the target).
 *
 * 2. The execlog TCG plugin (contrib/plugins/execlog.c, "-plugin
 *    libexeclog.so -d plugin"): one line per executed instruction,
 *
 *        0, 0x5e, 0x181a, "adds r2, r3, r0"[, load, 0x20000000]...
 *
 *    (vCPU, address, opcode, disassembly, memory accesses).
 *
 * A log holding both (exec and execlog lines) is refused: each counts the
 * same instructions.  Other lines (-d int, cpu, guest_errors, other
 * plugins' output, QEMU's messages) are skipped.  Counts are exact event
 * counts (pc_profile_set_event_counts), in the dimension "instructions".
 *
 * The instructions reach the profile in the order they ran, through
 * order.h (windows of the timeline, docs/qemu.md "Order"): a counted TB
 * run is held until what follows it settles how many of its
 * instructions ran (the vCPU's next exec line: all; "Stopped": none; a
 * rewind: those before the I/O instruction), then its instructions go
 * to the order, a window ending only between two runs.  Held runs leave
 * in the log's order; at most QH_MAX are held (see there).
 *
 * Memory: the distinct translations (identical retranslations are
 * shared), the live TB pointers, the held runs and the order's open
 * window; the log is streamed.
 *
 * Options:
 *   qemu-cpu=all|N   count the instructions of one vCPU only
 */
#include "internal.h"
#include "order.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- a hash map of (k1, k2) -> uint32 ---------------------------- */

#define QM_EMPTY UINT32_MAX
#define QM_USED (UINT32_MAX - 1) /* a pending translation already bound */

typedef struct qm_ent {
	uint64_t k1, k2;
	uint32_t v;
} qm_ent;

typedef struct qmap {
	qm_ent *e;
	size_t cap, n; /* cap: a power of two, or 0 */
} qmap;

static size_t qm_hash(uint64_t k1, uint64_t k2)
{
	uint64_t h = k1 * 0x9E3779B97F4A7C15ull ^ (k2 + 0x632BE59BD9B4E019ull) * 0xC2B2AE3D27D4EB4Full;
	h ^= h >> 29;
	h *= 0xBF58476D1CE4E5B9ull;
	h ^= h >> 32;
	return (size_t)h;
}

/* The slot of (k1, k2): its value, or QM_EMPTY. */
static uint32_t *qm_slot(const qmap *m, uint64_t k1, uint64_t k2)
{
	size_t i;
	if (!m->cap)
		return NULL;
	for (i = qm_hash(k1, k2) & (m->cap - 1);; i = (i + 1) & (m->cap - 1)) {
		qm_ent *x = &m->e[i];
		if (x->v == QM_EMPTY)
			return NULL;
		if (x->k1 == k1 && x->k2 == k2)
			return &x->v;
	}
}

static int qm_put(qmap *m, uint64_t k1, uint64_t k2, uint32_t v)
{
	uint32_t *slot = qm_slot(m, k1, k2);
	size_t i;
	if (slot) {
		*slot = v;
		return PC_OK;
	}
	if ((m->n + 1) * 4 > m->cap * 3) {
		size_t nc = m->cap ? m->cap * 2 : 256;
		qm_ent *ne;
		if (nc > SIZE_MAX / sizeof *ne)
			return PC_ENOMEM;
		ne = malloc(nc * sizeof *ne);
		if (!ne)
			return PC_ENOMEM;
		for (i = 0; i < nc; i++)
			ne[i].v = QM_EMPTY;
		for (size_t j = 0; j < m->cap; j++) {
			qm_ent *x = &m->e[j];
			if (x->v == QM_EMPTY)
				continue;
			for (i = qm_hash(x->k1, x->k2) & (nc - 1); ne[i].v != QM_EMPTY; i = (i + 1) & (nc - 1))
				;
			ne[i] = *x;
		}
		free(m->e);
		m->e = ne;
		m->cap = nc;
	}
	for (i = qm_hash(k1, k2) & (m->cap - 1); m->e[i].v != QM_EMPTY; i = (i + 1) & (m->cap - 1))
		;
	m->e[i].k1 = k1;
	m->e[i].k2 = k2;
	m->e[i].v = v;
	m->n++;
	return PC_OK;
}

/* ---- the model of the log ----------------------------------------- */

/* One translation: n instruction addresses from ia[first]. */
typedef struct qtb {
	uint64_t pc;
	size_t first;
	uint32_t n;
} qtb;

/* Executions of one translation at one address (pc: where it ran;
 * it differs from the translation's for a PCREL alias). */
typedef struct qslot {
	uint32_t tb;
	uint64_t pc;
	uint64_t ptr; /* the host pointer it was bound to */
	uint32_t cpu; /* the vCPU that ran it last */
	uint32_t run; /* its full runs in the open window: runs[run] ... */
	uint64_t runwin; /* ... if runwin is the window's number */
} qslot;

/* What a vCPU ran last (for "Stopped execution" lines). */
typedef struct qlast {
	uint32_t slot; /* QM_EMPTY: none */
	int counted;
	uint64_t seq; /* its held execution (counted) */
} qlast;

/* A counted TB execution held until what follows it settles how many of
 * its instructions ran (a "Stopped" line takes it back, an I/O rewind
 * cuts it): k of them (QH_ALL: every one). */
typedef struct qheld {
	uint32_t slot, k;
	int open;
} qheld;

#define QH_ALL UINT32_MAX
/* Held executions kept at most: past it the oldest one still open (a
 * vCPU that has logged nothing since, as an idle one) goes to the order
 * as run in full, and a later take-back of it is refused. */
#define QH_MAX ((size_t)1 << 16)

/* Largest vCPU index read (QEMU's own limit is far below). */
#define QEMU_MAX_CPU 65535u

typedef struct qctx {
	pc_profile *p;
	pc_stream *s;
	int64_t cpu; /* -1: all */
	enum { MODE_NONE, MODE_TB, MODE_PLUGIN } mode;
	uint64_t mode_off;
	/* translations */
	qtb *tbs;
	size_t ntbs, cap_tbs;
	uint64_t *ia;
	size_t nia, cap_ia;
	qmap latest;  /* pc -> the last translation made at pc */
	qmap pending; /* pc -> translation shown by in_asm, not yet run */
	/* the block being read */
	int in_block;
	size_t block_first;
	uint64_t block_off;
	/* executions */
	qmap bound; /* host pointer -> slot of its translation's own pc */
	qmap alias; /* (slot, pc) -> slot of an execution elsewhere */
	qslot *slots;
	size_t nslots, cap_slots;
	/* the counted executions in the log's order, from held[hh] (the
	 * one of sequence number hbase + hh) to held[hn - 1] */
	qheld *held;
	size_t hh, hn, cap_held;
	uint64_t hbase;
	pc_order *ord; /* the instructions in the order they ran */
	/* the open window's full runs, counted per slot until the window
	 * ends (pc_order_room: no boundary falls before), then added */
	struct qrun {
		uint32_t slot;
		uint64_t n;
	} *runs;
	size_t nruns, cap_runs;
	uint64_t win;  /* the window's number (runwin) */
	uint64_t room; /* the instructions before the window may end */
	uint64_t used; /* of which the runs since took */
	qlast *last;
	size_t nlast;
	int64_t lastcpu; /* the vCPU of the latest exec line, -1: none */
	/* an I/O rewind waiting for the next TB to say where it stopped */
	int rewind;
	uint32_t rewind_slot;
	uint64_t rewind_seq; /* its held execution */
	uint64_t rewind_off;
	uint64_t executions, plugin_lines, translations;
} qctx;

/* Parses hex digits (optional 0x) at *p, at most 16 significant.  1 on
 * success (*p advanced), 0 if there is no digit, -1 on overflow. */
static int hex64(const char **p, const char *end, uint64_t *out)
{
	const char *q = *p;
	uint64_t v = 0;
	int n = 0;
	if (end - q >= 2 && q[0] == '0' && (q[1] == 'x' || q[1] == 'X'))
		q += 2;
	for (; q < end; q++, n++) {
		unsigned d;
		char c = *q;
		if (c >= '0' && c <= '9')
			d = (unsigned)(c - '0');
		else if (c >= 'a' && c <= 'f')
			d = (unsigned)(c - 'a' + 10);
		else if (c >= 'A' && c <= 'F')
			d = (unsigned)(c - 'A' + 10);
		else
			break;
		if (v >> 60)
			return -1;
		v = v << 4 | d;
	}
	if (!n)
		return 0;
	*p = q;
	*out = v;
	return 1;
}

static int dec64(const char **p, const char *end, uint64_t *out)
{
	const char *q = *p;
	uint64_t v = 0;
	int n = 0;
	for (; q < end && *q >= '0' && *q <= '9'; q++, n++) {
		unsigned d = (unsigned)(*q - '0');
		if (v > (UINT64_MAX - d) / 10)
			return -1;
		v = v * 10 + d;
	}
	if (!n)
		return 0;
	*p = q;
	*out = v;
	return 1;
}

static int is_lhex(char c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f');
}

static int starts(const char *l, size_t n, const char *lit)
{
	size_t k = strlen(lit);
	return n >= k && memcmp(l, lit, k) == 0;
}

static int oom(qctx *c)
{
	return pc_stream_fail(c->s, PC_ENOMEM, -1, "out of memory");
}

/* The block being read ends: it becomes a translation (shared with the
 * last one at its address when the instructions are the same) waiting
 * for its first execution. */
static int end_block(qctx *c)
{
	size_t n;
	uint64_t pc;
	uint32_t *lt, idx;
	if (!c->in_block)
		return PC_OK;
	c->in_block = 0;
	n = c->nia - c->block_first;
	if (n == 0)
		return PC_OK; /* nothing translated (a fetch fault) */
	if (n > UINT32_MAX)
		return pc_stream_fail(c->s, PC_ELIMIT, (int64_t)c->block_off,
				      "translation block of %zu instructions; expected at most %u",
				      n, UINT32_MAX);
	pc = c->ia[c->block_first];
	lt = qm_slot(&c->latest, pc, 0);
	if (lt) {
		const qtb *t = &c->tbs[*lt];
		if (t->n == n && memcmp(&c->ia[t->first], &c->ia[c->block_first], n * sizeof *c->ia) == 0) {
			c->nia = c->block_first; /* the same instructions again */
			return qm_put(&c->pending, pc, 0, *lt) == PC_OK ? PC_OK : oom(c);
		}
	}
	if (c->ntbs >= QM_EMPTY - 1)
		return pc_stream_fail(c->s, PC_ELIMIT, (int64_t)c->block_off,
				      "more than %u distinct translation blocks", QM_EMPTY - 2);
	if (pc_grow((void **)&c->tbs, &c->cap_tbs, c->ntbs + 1, sizeof *c->tbs))
		return oom(c);
	idx = (uint32_t)c->ntbs++;
	c->tbs[idx].pc = pc;
	c->tbs[idx].first = c->block_first;
	c->tbs[idx].n = (uint32_t)n;
	c->translations++;
	if (qm_put(&c->latest, pc, 0, idx) || qm_put(&c->pending, pc, 0, idx))
		return oom(c);
	return PC_OK;
}

/* A disassembly line "0xADDR:  ..." of the block being read. */
static int block_line(qctx *c, const char *l, size_t n, uint64_t off)
{
	const char *q = l, *e = l + n;
	uint64_t a;
	int r = hex64(&q, e, &a);
	if (r < 0)
		return pc_stream_fail(c->s, PC_EFORMAT, (int64_t)off,
				      "instruction address does not fit in 64 bits");
	if (r == 0 || q >= e || *q != ':')
		return pc_stream_fail(c->s, PC_EFORMAT, (int64_t)(off + (uint64_t)(q - l)),
				      "expected \"0xADDRESS:\" and an instruction in the in_asm block");
	/* Capstone writes the bytes of a long instruction past the first
	 * 8 (x86) on lines of their own: "0xADDR: " and hex groups only,
	 * at most 15 bytes after the instruction's address */
	if (c->nia > c->block_first && a > c->ia[c->nia - 1] && a - c->ia[c->nia - 1] < 16 &&
	    e - q >= 4 && q[1] == ' ') {
		const char *t = q + 2;
		while (t < e && *t == ' ' && t + 1 < e && is_lhex(t[1])) {
			t++;
			while (t < e && is_lhex(*t))
				t++;
		}
		if (t == e)
			return PC_OK;
	}
	if (c->nia > c->block_first && a <= c->ia[c->nia - 1])
		return pc_stream_fail(c->s, PC_EFORMAT, (int64_t)off,
				      "instruction at 0x%llx after 0x%llx in one translation block; expected increasing addresses",
				      (unsigned long long)a, (unsigned long long)c->ia[c->nia - 1]);
	if (pc_grow((void **)&c->ia, &c->cap_ia, c->nia + 1, sizeof *c->ia))
		return oom(c);
	c->ia[c->nia++] = a;
	return PC_OK;
}

static int set_mode(qctx *c, int mode, uint64_t off)
{
	if (c->mode == MODE_NONE) {
		c->mode = mode;
		c->mode_off = off;
		return PC_OK;
	}
	if ((int)c->mode == mode)
		return PC_OK;
	return pc_stream_fail(c->s, PC_EFORMAT, (int64_t)off,
			      "%s line, but the log has %s lines (from byte %llu): both count the same instructions; expected one of them (write the log with -d in_asm,exec,nochain or with -d plugin and the execlog plugin, not both)",
			      mode == MODE_PLUGIN ? "execlog plugin" : "exec",
			      c->mode == MODE_PLUGIN ? "execlog plugin" : "exec",
			      (unsigned long long)c->mode_off);
}

static qlast *last_of(qctx *c, uint64_t cpu)
{
	if (cpu >= c->nlast) {
		size_t nn = (size_t)cpu + 1;
		qlast *nl = realloc(c->last, nn * sizeof *nl);
		if (!nl)
			return NULL;
		for (size_t i = c->nlast; i < nn; i++) {
			nl[i].slot = QM_EMPTY;
			nl[i].counted = 0;
			nl[i].seq = 0;
		}
		c->last = nl;
		c->nlast = nn;
	}
	return &c->last[cpu];
}

/* The slot for executions of translation tb bound to ptr at pc. */
static int new_slot(qctx *c, uint32_t tb, uint64_t pc, uint64_t ptr, uint32_t *out)
{
	if (c->nslots >= QM_EMPTY - 1)
		return pc_stream_fail(c->s, PC_ELIMIT, -1, "more than %u TB bindings", QM_EMPTY - 2);
	if (pc_grow((void **)&c->slots, &c->cap_slots, c->nslots + 1, sizeof *c->slots))
		return oom(c);
	c->slots[c->nslots].tb = tb;
	c->slots[c->nslots].pc = pc;
	c->slots[c->nslots].ptr = ptr;
	c->slots[c->nslots].cpu = 0;
	c->slots[c->nslots].runwin = 0; /* windows count from 1 */
	*out = (uint32_t)c->nslots++;
	return PC_OK;
}

/* The first k instructions of slot si, n times, to the order. */
static int add_run(qctx *c, uint32_t si, uint32_t k, uint64_t n)
{
	const qslot *sl = &c->slots[si];
	const qtb *t = &c->tbs[sl->tb];
	uint64_t shift = sl->pc - t->pc;
	int r;
	for (uint32_t j = 0; j < k; j++)
		if ((r = pc_order_add(c->ord, PC_NOSEG, c->ia[t->first + j] + shift, n)) != PC_OK)
			return r;
	return PC_OK;
}

/* The open window's full runs counted per slot go to the order. */
static int add_runs(qctx *c)
{
	int r;
	for (size_t i = 0; i < c->nruns; i++)
		if ((r = add_run(c, c->runs[i].slot, c->tbs[c->slots[c->runs[i].slot].tb].n, c->runs[i].n)) != PC_OK)
			return r;
	c->nruns = 0;
	c->win++;
	return PC_OK;
}

/* The instructions of the held execution h go to the order, a window
 * ending before them if it spans enough.  Within a window the order of
 * the instructions does not change its counts: full runs are counted
 * per slot and added when the window may end (pc_order_room tells
 * when), which costs a TB run one step, not one per instruction. */
static int release(qctx *c, const qheld *h)
{
	qslot *sl = &c->slots[h->slot];
	uint32_t n = c->tbs[sl->tb].n, k = h->k < n ? h->k : n;
	int r;
	if (!k)
		return PC_OK;
	if (c->used >= c->room) {
		if ((r = add_runs(c)) != PC_OK || (r = pc_order_boundary(c->ord)) != PC_OK)
			return r;
		c->room = pc_order_room(c->ord);
		c->used = 0;
	}
	c->used += k;
	if (k < n) /* a part: rare */
		return add_run(c, h->slot, k, 1);
	if (sl->runwin == c->win) {
		c->runs[sl->run].n++;
		return PC_OK;
	}
	if (pc_grow((void **)&c->runs, &c->cap_runs, c->nruns + 1, sizeof *c->runs))
		return oom(c);
	c->runs[c->nruns].slot = h->slot;
	c->runs[c->nruns].n = 1;
	sl->run = (uint32_t)c->nruns++;
	sl->runwin = c->win;
	return PC_OK;
}

/* The held executions settled from the oldest on go to the order (all
 * of them at the end of the log). */
static int release_settled(qctx *c, int all)
{
	int r;
	while (c->hh < c->hn && (all || !c->held[c->hh].open))
		if ((r = release(c, &c->held[c->hh++])) != PC_OK)
			return r;
	return PC_OK;
}

/* The held execution of sequence number seq, or NULL if it went to the
 * order already. */
static qheld *held_at(qctx *c, uint64_t seq)
{
	if (seq < c->hbase + c->hh || seq - c->hbase >= c->hn)
		return NULL;
	return &c->held[seq - c->hbase];
}

/* A counted execution of slot si, held: *seq its sequence number. */
static int hold(qctx *c, uint32_t si, uint64_t *seq)
{
	int r;
	if (c->hn == c->cap_held) {
		if (c->hh) { /* room before the oldest */
			memmove(c->held, c->held + c->hh, (c->hn - c->hh) * sizeof *c->held);
			c->hbase += c->hh;
			c->hn -= c->hh;
			c->hh = 0;
		} else if (c->cap_held >= QH_MAX) {
			/* the oldest goes as it stands */
			if ((r = release(c, &c->held[c->hh++])) != PC_OK ||
			    (r = release_settled(c, 0)) != PC_OK)
				return r;
			return hold(c, si, seq);
		} else if (pc_grow((void **)&c->held, &c->cap_held, c->hn + 1, sizeof *c->held)) {
			return oom(c);
		}
	}
	c->held[c->hn].slot = si;
	c->held[c->hn].k = QH_ALL;
	c->held[c->hn].open = 1;
	*seq = c->hbase + c->hn++;
	return PC_OK;
}

/* The held execution seq ran its first k instructions (QH_ALL: all). */
static int settle(qctx *c, uint64_t seq, uint32_t k, uint64_t off)
{
	qheld *h = held_at(c, seq);
	if (!h) {
		if (k == QH_ALL)
			return PC_OK;
		return pc_stream_fail(c->s, PC_EFORMAT, (int64_t)off,
				      "QEMU takes back a TB run logged more than %zu TB runs before, farther back than the order of the instructions holds runs open; expected the take-back sooner, or count one vCPU (-O qemu-cpu=N)",
				      QH_MAX);
	}
	h->k = k;
	h->open = 0;
	return PC_OK;
}

/* Applies a pending rewind now that the next TB starts at pc: the
 * rewound execution ran the instructions before pc. */
static int apply_rewind(qctx *c, uint64_t pc, uint64_t off)
{
	const qslot *sl = &c->slots[c->rewind_slot];
	const qtb *t = &c->tbs[sl->tb];
	uint64_t shift = sl->pc - t->pc;
	c->rewind = 0;
	for (uint32_t k = 0; k < t->n; k++)
		if (c->ia[t->first + k] + shift == pc)
			return settle(c, c->rewind_seq, k, off);
	return pc_stream_fail(c->s, PC_EFORMAT, (int64_t)off,
			      "TB at 0x%llx continues at 0x%llx after the I/O rewind at byte %llu; expected one of the rewound TB's instructions",
			      (unsigned long long)sl->pc, (unsigned long long)pc,
			      (unsigned long long)c->rewind_off);
}

/* "Trace" / "Chain" line: one execution of a TB. */
static int exec_line(qctx *c, const char *l, size_t n, uint64_t off)
{
	const char *q = l + 6, *e = l + n, *br, *close, *f;
	uint64_t cpu = 0, ptr, pc;
	uint32_t *b, si;
	int r;
	/* "Trace 0: " (QEMU 3 on) */
	if (q < e && *q >= '0' && *q <= '9' && !(e - q >= 2 && q[0] == '0' && q[1] == 'x')) {
		r = dec64(&q, e, &cpu);
		if (r < 0 || q >= e || *q != ':')
			goto bad;
		q++;
		while (q < e && *q == ' ')
			q++;
	}
	r = hex64(&q, e, &ptr);
	if (r <= 0 || q >= e || *q != ' ')
		goto bad;
	br = q + 1;
	if (br >= e || *br != '[')
		goto bad;
	close = memchr(br, ']', (size_t)(e - br));
	if (!close)
		goto bad;
	f = memchr(br, '/', (size_t)(close - br));
	if (f) {
		q = f + 1; /* [cs_base/pc/...] */
	} else {
		const char *colon = memchr(br, ':', (size_t)(close - br));
		q = br + 1;
		if (colon) { /* [cpu: pc] (QEMU 2.7-2.12) */
			const char *t = q;
			if (dec64(&t, colon, &cpu) <= 0 || t != colon)
				goto bad;
			q = colon + 1;
			while (q < close && *q == ' ')
				q++;
		}
	}
	r = hex64(&q, close, &pc);
	if (r < 0)
		return pc_stream_fail(c->s, PC_EFORMAT, (int64_t)(off + (uint64_t)(q - l)),
				      "TB address does not fit in 64 bits");
	if (r == 0 || (q < close && *q != '/'))
		goto bad;
	if (cpu > QEMU_MAX_CPU)
		return pc_stream_fail(c->s, PC_EFORMAT, (int64_t)(off + 6),
				      "vCPU index %llu; expected at most %u",
				      (unsigned long long)cpu, QEMU_MAX_CPU);
	if ((r = set_mode(c, MODE_TB, off)) != PC_OK)
		return r;
	if (c->rewind && (r = apply_rewind(c, pc, off)) != PC_OK)
		return r;
	/* a translation waiting for its first run binds this pointer */
	b = qm_slot(&c->pending, pc, 0);
	if (b && *b != QM_USED) {
		uint32_t tb = *b;
		*b = QM_USED;
		if ((r = new_slot(c, tb, pc, ptr, &si)) != PC_OK)
			return r;
		if (qm_put(&c->bound, ptr, 0, si))
			return oom(c);
	} else {
		b = qm_slot(&c->bound, ptr, 0);
		if (!b)
			return pc_stream_fail(c->s, PC_EFORMAT, (int64_t)off,
					      "exec line for the TB at 0x%llx (host 0x%llx), which in_asm never showed; expected a log of -d in_asm,exec,nochain from the start of the run",
					      (unsigned long long)pc, (unsigned long long)ptr);
		si = *b;
		if (c->slots[si].pc != pc) {
			/* the same TB at another address (PCREL alias) */
			uint32_t *a = qm_slot(&c->alias, si, pc);
			if (a) {
				si = *a;
			} else {
				uint32_t ns;
				if ((r = new_slot(c, c->slots[si].tb, pc, ptr, &ns)) != PC_OK)
					return r;
				if (qm_put(&c->alias, si, pc, ns))
					return oom(c);
				si = ns;
			}
		}
	}
	{
		qlast *la = last_of(c, cpu);
		int counted = c->cpu < 0 || (uint64_t)c->cpu == cpu;
		if (!la)
			return oom(c);
		/* its last run can no longer be taken back */
		if (la->slot != QM_EMPTY && la->counted && (r = settle(c, la->seq, QH_ALL, off)) != PC_OK)
			return r;
		la->slot = si;
		la->counted = counted;
		c->lastcpu = (int64_t)cpu;
		c->slots[si].cpu = (uint32_t)cpu;
		if (counted) {
			if ((r = hold(c, si, &la->seq)) != PC_OK)
				return r;
			c->executions++;
		}
	}
	return release_settled(c, 0);
bad:
	return pc_stream_fail(c->s, PC_EFORMAT, (int64_t)(off + (uint64_t)(q - l)),
			      "expected an exec line \"Trace N: 0xHOST [CS_BASE/PC/FLAGS/CFLAGS]\"");
}

/* "Stopped execution of TB chain before PTR [PC] sym": the TB last
 * logged for some vCPU at (PTR, PC) did not run. */
static int stopped_line(qctx *c, const char *l, size_t n, uint64_t off)
{
	static const char lit[] = "Stopped execution of TB chain before ";
	const char *q = l + sizeof lit - 1, *e = l + n;
	uint64_t ptr, pc;
	if (hex64(&q, e, &ptr) <= 0 || e - q < 2 || q[0] != ' ' || q[1] != '[')
		goto bad;
	q += 2;
	if (hex64(&q, e, &pc) <= 0 || q >= e || *q != ']')
		goto bad;
	/* the slot of (ptr, pc), and the vCPU that ran it last */
	{
		uint32_t *b = qm_slot(&c->bound, ptr, 0), si;
		qlast *la;
		if (!b)
			goto unknown;
		si = *b;
		if (c->slots[si].pc != pc) {
			b = qm_slot(&c->alias, si, pc);
			if (!b)
				goto unknown;
			si = *b;
		}
		if (c->slots[si].cpu >= c->nlast)
			goto unknown;
		la = &c->last[c->slots[si].cpu];
		if (la->slot != si)
			goto unknown;
		la->slot = QM_EMPTY;
		if (la->counted) {
			int r = settle(c, la->seq, 0, off);
			if (r != PC_OK)
				return r;
			c->executions--;
		}
		return release_settled(c, 0);
	}
unknown:
	return pc_stream_fail(c->s, PC_EFORMAT, (int64_t)off,
			      "QEMU stopped before the TB at 0x%llx (host 0x%llx), which is not the last TB logged for any vCPU; expected its exec line before",
			      (unsigned long long)pc, (unsigned long long)ptr);
bad:
	return pc_stream_fail(c->s, PC_EFORMAT, (int64_t)(off + (uint64_t)(q - l)),
			      "expected \"Stopped execution of TB chain before 0xHOST [PC]\"");
}

/* "cpu_io_recompile: rewound execution of TB to PC": the TB last run
 * (-icount runs one vCPU at a time) stopped at an I/O instruction, which
 * the next TB runs again.  QEMU names the I/O instruction (PCREL targets)
 * or the TB's start; the next TB starts at the I/O instruction. */
static int rewound_line(qctx *c, const char *l, size_t n, uint64_t off)
{
	static const char lit[] = "cpu_io_recompile: rewound execution of TB to ";
	const char *q = l + sizeof lit - 1, *e = l + n;
	uint64_t pc;
	uint32_t si;
	qlast *la;
	if (hex64(&q, e, &pc) <= 0)
		return pc_stream_fail(c->s, PC_EFORMAT, (int64_t)(off + (uint64_t)(q - l)),
				      "expected the address the TB was rewound to");
	if (c->lastcpu < 0 || c->last[c->lastcpu].slot == QM_EMPTY)
		return pc_stream_fail(c->s, PC_EFORMAT, (int64_t)off,
				      "TB rewound to 0x%llx, but no TB ran before; expected its exec line before",
				      (unsigned long long)pc);
	la = &c->last[c->lastcpu];
	if (c->rewind)
		return pc_stream_fail(c->s, PC_EFORMAT, (int64_t)off,
				      "second TB rewind before the next exec line; expected an exec line after the rewind at byte %llu",
				      (unsigned long long)c->rewind_off);
	si = la->slot;
	la->slot = QM_EMPTY; /* this run is accounted for here */
	if (!la->counted)
		return PC_OK;
	c->rewind = 1;
	c->rewind_slot = si;
	c->rewind_seq = la->seq;
	c->rewind_off = off;
	if (pc != c->slots[si].pc) {
		int r = apply_rewind(c, pc, off);
		return r != PC_OK ? r : release_settled(c, 0);
	}
	return PC_OK;
}

/* An execlog plugin line "CPU, 0xADDR, 0xOPCODE, \"disas\"...", already
 * matched up to the address. */
static int plugin_insn(qctx *c, uint64_t cpu, uint64_t addr, uint64_t off)
{
	int r;
	if ((r = set_mode(c, MODE_PLUGIN, off)) != PC_OK)
		return r;
	c->plugin_lines++;
	if (c->cpu >= 0 && (uint64_t)c->cpu != cpu)
		return PC_OK;
	if ((r = pc_order_boundary(c->ord)) != PC_OK)
		return r;
	return pc_order_add(c->ord, PC_NOSEG, addr, 1);
}

/* "N, 0xADDR, 0x" at the start of l: an execlog line.  1 with *cpu and
 * *addr, 0 if not one, -1 for an address beyond 64 bits. */
static int plugin_match(const char *l, size_t n, uint64_t *cpu, uint64_t *addr)
{
	const char *q = l, *e = l + n;
	if (dec64(&q, e, cpu) <= 0 || e - q < 4 || memcmp(q, ", 0x", 4) != 0)
		return 0;
	q += 2;
	int r = hex64(&q, e, addr);
	if (r <= 0)
		return r;
	if (e - q < 4 || memcmp(q, ", 0x", 4) != 0)
		return 0;
	return 1;
}

static void qctx_free(qctx *c)
{
	free(c->tbs);
	free(c->ia);
	free(c->latest.e);
	free(c->pending.e);
	free(c->bound.e);
	free(c->alias.e);
	free(c->slots);
	free(c->held);
	free(c->runs);
	pc_order_free(c->ord);
	free(c->last);
}

static int cpu_option(pc_stream *s, const pc_options *opts, int64_t *cpu)
{
	const char *v = pc_options_get(opts, "qemu-cpu");
	const char *q, *e;
	uint64_t n;
	*cpu = -1;
	if (!v || strcmp(v, "all") == 0)
		return PC_OK;
	q = v;
	e = v + strlen(v);
	if (dec64(&q, e, &n) <= 0 || q != e || n > QEMU_MAX_CPU)
		return pc_stream_fail(s, PC_EUSAGE, -1,
				      "option qemu-cpu=%s; expected all or a vCPU index 0..%u", v,
				      QEMU_MAX_CPU);
	*cpu = (int64_t)n;
	return PC_OK;
}

/* Line kinds the loader acts on (others are skipped). */
static int qemu_load(pc_profile *p, pc_stream *s, const pc_options *opts)
{
	qctx c;
	const char *l;
	size_t n;
	uint64_t off = 0;
	int st, r;
	memset(&c, 0, sizeof c);
	c.p = p;
	c.s = s;
	c.lastcpu = -1;
	if ((st = cpu_option(s, opts, &c.cpu)) != PC_OK)
		return st;
	if ((st = pc_order_new(&c.ord, p)) != PC_OK)
		return oom(&c);
	c.win = 1;
	c.room = pc_order_room(c.ord);
	while ((r = pc_stream_getline(&l, &n, &off, s)) == PC_OK && l) {
		uint64_t cpu, addr;
		if (n >= 2 && l[0] == '0' && l[1] == 'x') {
			if (c.in_block) {
				if ((st = block_line(&c, l, n, off)) != PC_OK)
					goto fail;
			}
			continue; /* disassembly outside in_asm (out_asm, -d op) */
		}
		if (c.in_block && starts(l, n, "OBJD-")) {
			/* QEMU without a disassembler for the target dumps
			 * the TB's bytes (disas.c print_insn_objdump): where
			 * its instructions start is not said */
			st = pc_stream_fail(s, PC_EFORMAT, (int64_t)off,
					    "the in_asm block at byte %llu holds the TB's bytes (\"OBJD-\" lines), not its instructions: this QEMU has no disassembler for the target; expected one \"0xADDRESS:  instruction\" line per instruction (a QEMU built with Capstone)",
					    (unsigned long long)c.block_off);
			goto fail;
		}
		if (c.in_block) {
			/* RISC-V's "Priv: 1; Virt: 0" and the like come
			 * before the first instruction; anything else ends
			 * the block */
			if (c.nia == c.block_first && n > 0 && !starts(l, n, "----") &&
			    !starts(l, n, "IN:") && !starts(l, n, "Trace ") &&
			    !starts(l, n, "Chain ") && !starts(l, n, "Disassembler disagrees"))
				continue;
			if ((st = end_block(&c)) != PC_OK)
				goto fail;
		}
		if (n == 0)
			continue;
		switch (l[0]) {
		case 'T':
			if (starts(l, n, "Trace ")) {
				if ((st = exec_line(&c, l, n, off)) != PC_OK)
					goto fail;
				continue;
			}
			break;
		case 'C':
			if (starts(l, n, "Chain ")) {
				if ((st = exec_line(&c, l, n, off)) != PC_OK)
					goto fail;
				continue;
			}
			break;
		case 'I':
			if (starts(l, n, "IN:")) {
				c.in_block = 1;
				c.block_first = c.nia;
				c.block_off = off;
				continue;
			}
			break;
		case 'S':
			if (starts(l, n, "Stopped execution of TB chain before ")) {
				if ((st = stopped_line(&c, l, n, off)) != PC_OK)
					goto fail;
				continue;
			}
			break;
		case 'L':
			if (starts(l, n, "Linking TBs ")) {
				st = pc_stream_fail(s, PC_EFORMAT, (int64_t)off,
						    "QEMU chained TBs (\"Linking TBs\"), and chained executions are not logged; expected a log written with -d in_asm,exec,nochain");
				goto fail;
			}
			break;
		case 'D':
			if (starts(l, n, "Disassembler disagrees with translator")) {
				st = pc_stream_fail(s, PC_EFORMAT, (int64_t)off,
						    "QEMU's disassembler disagrees with its translator over the instructions of the TB at byte %llu; expected in_asm blocks that list a TB's instructions",
						    (unsigned long long)c.block_off);
				goto fail;
			}
			break;
		case 'c':
			if (starts(l, n, "cpu_io_recompile: rewound execution of TB to ")) {
				if ((st = rewound_line(&c, l, n, off)) != PC_OK)
					goto fail;
				continue;
			}
			break;
		default:
			break;
		}
		if (l[0] >= '0' && l[0] <= '9') {
			r = plugin_match(l, n, &cpu, &addr);
			if (r < 0) {
				st = pc_stream_fail(s, PC_EFORMAT, (int64_t)off,
						    "instruction address does not fit in 64 bits");
				goto fail;
			}
			if (r > 0) {
				if ((st = plugin_insn(&c, cpu, addr, off)) != PC_OK)
					goto fail;
				continue;
			}
		}
	}
	if (r < 0) {
		st = r;
		goto fail;
	}
	if ((st = end_block(&c)) != PC_OK)
		goto fail;
	off = pc_stream_offset(s);
	if (c.rewind) {
		st = pc_stream_fail(s, PC_EFORMAT, (int64_t)off,
				    "the log ends after the TB rewind at byte %llu; expected the exec line of the TB that runs the I/O instruction",
				    (unsigned long long)c.rewind_off);
		goto fail;
	}
	if (c.mode == MODE_NONE) {
		st = pc_stream_fail(s, PC_EFORMAT, (int64_t)off,
				    c.translations
					    ? "in_asm blocks but no exec lines; expected a log written with -d in_asm,exec,nochain"
					    : "no exec or execlog lines; expected a QEMU log written with -d in_asm,exec,nochain or with the execlog plugin (-d plugin)");
		goto fail;
	}
	/* the instructions go to the profile through the order's windows */
	if ((st = release_settled(&c, 1)) != PC_OK || (st = add_runs(&c)) != PC_OK ||
	    (st = pc_order_flush(c.ord)) != PC_OK)
		goto fail;
	/* QEMU ran every instruction counted: exact counts, not samples */
	pc_profile_set_event_counts(p, 1);
	pc_profile_set_dimension(p, "instructions", 'i');
	{
		char v[32];
		snprintf(v, sizeof v, "%llu", (unsigned long long)(c.mode == MODE_PLUGIN ? c.plugin_lines : c.executions));
		if ((st = pc_profile_set_meta(p, "qemu.log", c.mode == MODE_PLUGIN ? "execlog" : "exec")) != PC_OK ||
		    (st = pc_profile_set_meta(p, c.mode == MODE_PLUGIN ? "qemu.execlog_lines" : "qemu.tb_executions", v)) != PC_OK)
			goto fail;
		snprintf(v, sizeof v, "%llu", (unsigned long long)c.translations);
		if (c.mode == MODE_TB && (st = pc_profile_set_meta(p, "qemu.translations", v)) != PC_OK)
			goto fail;
	}
	st = PC_OK;
fail:
	qctx_free(&c);
	return st;
}

/* "N: 0x" or "0x" then hex and " [" (an exec line after its prefix). */
static int exec_shape(const char *q, const char *e)
{
	uint64_t v;
	if (q < e && *q >= '0' && *q <= '9' && !(e - q >= 2 && q[0] == '0' && q[1] == 'x')) {
		if (dec64(&q, e, &v) <= 0 || e - q < 2 || q[0] != ':' || q[1] != ' ')
			return 0;
		q += 2;
	}
	if (e - q < 3 || q[0] != '0' || q[1] != 'x' || hex64(&q, e, &v) <= 0)
		return 0;
	return e - q >= 2 && q[0] == ' ' && q[1] == '[';
}

/* The first lines of a log: an in_asm block, an exec line or an execlog
 * line. */
static int qemu_probe(const unsigned char *head, size_t len, const char *filename)
{
	const char *l = (const char *)head, *e = l + len;
	(void)filename;
	int dashes = 0;
	for (int line = 0; line < 8 && l < e; line++) {
		const char *nl = memchr(l, '\n', (size_t)(e - l));
		size_t n = nl ? (size_t)(nl - l) : (size_t)(e - l);
		uint64_t cpu, addr;
		if (dashes && starts(l, n, "IN:"))
			return 8 * 20; /* "----------------\nIN:" */
		dashes = n == 16 && starts(l, n, "----------------");
		if ((starts(l, n, "Trace ") || starts(l, n, "Chain ")) && exec_shape(l + 6, l + n))
			return 8 * 12;
		if (plugin_match(l, n, &cpu, &addr) > 0 && memchr(l, '"', n))
			return 8 * 10;
		if (!nl)
			break;
		l = nl + 1;
	}
	return 0;
}

static const char *const qemu_ext[] = {"log", NULL};

static const pc_option_decl qemu_options[] = {
	{"qemu-cpu", PC_OPTION_STRING, NULL, "all",
	 "count one vCPU's instructions only (its index), or all"},
	{NULL, PC_OPTION_STRING, NULL, NULL, NULL},
};

const pc_loader pc_loader_qemu = {
	.abi_version = PC_LOADER_ABI_VERSION,
	.name = "qemu",
	.description = "QEMU TCG log: -d in_asm,exec,nochain or the execlog plugin (exact instruction counts)",
	.roles = PC_ROLE_SAMPLES,
	.extensions = qemu_ext,
	.probe = qemu_probe,
	.load = qemu_load,
	.order = 50,
	.options = qemu_options,
};
