/*
 * swo.c - ARM SWO captures: the ITM/DWT packet stream of a Cortex-M
 * (ARMv7-M Architecture Reference Manual, Appendix D4 "Debug ITM and DWT
 * Packet Protocol"; the same in Armv8-M), bare, in TPIU formatter frames,
 * or in Orbuculum's OFLOW (COBS) frames.  docs/swo.md says how to capture.
 *
 * Every packet is decoded (header byte, then its payload):
 *   00 .. 00 80        synchronisation (five or more zero bytes, then 0x80)
 *   70                 overflow: the ITM dropped packets before this one
 *   0TTT0000           local timestamp, format 2 (value TTT = 1..6)
 *   11TC0000 + 1..4    local timestamp, format 1 (7 bits a byte, low first)
 *   94 + 1..4          global timestamp 1 (bits 25:0, wrap, clock change)
 *   B4 + 1..6          global timestamp 2 (bits 47:26 or 63:26)
 *   CEEE1S00 + 0..4    extension: S=0 the stimulus port page
 *   AAAAA0SS + 1/2/4   instrumentation: a write to stimulus port A
 *   AAAAA1SS + 1/2/4   hardware source, discriminator A:
 *                        0 event counter wrap, 1 exception trace,
 *                        2 periodic PC sample (4 bytes) or sleep (1 byte),
 *                        8..23 data trace (PC value, address offset,
 *                        data value read/write), others reserved
 * Reserved headers are counted and skipped byte by byte (a stream joined in
 * the middle resynchronises); -v names what was not used.
 *
 * The model: each PC sample is a sample at its address; a sleep packet is a
 * sample of class "sleep"; an overflow packet is a loss event (where, and
 * after how many samples); the exception trace gives the execution context
 * (thread mode or the handler of exception N, nesting tracked), and the
 * samples are also counted per context.  The periodic samples (PC and
 * sleep) keep their order: sample i of the capture is event i of the
 * profile's timeline (order.h; a sleep sample takes its place, with no
 * address), counted a window at a time as they are decoded, so memory
 * grows with the distinct addresses, not with the stream (a pipe or FIFO
 * may be endless).  An overflow takes no place (how many samples it
 * dropped is not known): the order indexes the samples that arrived.
 */
#include "internal.h"
#include "order.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- decoded events ------------------------------------------------------ */

enum swo_kind {
	SWO_SYNC = 0,
	SWO_OVERFLOW,
	SWO_LTS,    /* id = TC, value = delta */
	SWO_GTS1,   /* value = bits 25:0 (the bytes present), fn = wrap | clkch << 1 */
	SWO_GTS2,   /* value = bits 63:26 (shifted down) */
	SWO_EXT,    /* id = S (0 stimulus page, 1 other), value = EX */
	SWO_SWIT,   /* id = port (page * 32 + A), size, value */
	SWO_EVCNT,  /* value = the counter bits */
	SWO_EXC,    /* id = exception number, fn = 1 enter 2 exit 3 return */
	SWO_PC,     /* value = PC */
	SWO_SLEEP,  /* value = the payload byte (0) */
	SWO_DT_PC,  /* id = comparator, value = PC */
	SWO_DT_ADDR, /* id = comparator, value = address offset */
	SWO_DT_VALUE, /* id = comparator, fn = 1 write 0 read, size, value */
	SWO_HW_RESERVED, /* id = discriminator, size, value */
	SWO_BAD,    /* a reserved header byte (id), skipped */
	SWO_KINDS
};

static const char *const swo_kind_name[SWO_KINDS] = {
	"synchronisation", "overflow", "local timestamp", "global timestamp 1",
	"global timestamp 2", "extension", "instrumentation",
	"event counter", "exception trace", "PC sample", "sleep",
	"data trace PC", "data trace address", "data trace value",
	"reserved hardware source", "reserved header"};

typedef struct swo_event {
	int kind;
	uint64_t offset; /* of the header byte in the file */
	unsigned id, fn, size;
	uint64_t value;
} swo_event;

/* A test hook: called for every decoded event, in stream order. */
typedef void (*swo_trace_fn)(void *ctx, const swo_event *e);

/* ---- the loader's state -------------------------------------------------- */

#define SWO_NEXC 512 /* exception numbers 0..511 (9 bits) */
#define CTX_UNKNOWN SWO_NEXC
#define CTX_PENDING (SWO_NEXC + 1)
#define CTX_HANDLER (SWO_NEXC + 2) /* a handler whose number was lost */
#define CTX_N (SWO_NEXC + 3)
#define CTX_DEPTH 64
#define SWO_KEEP_LOST 8 /* loss places listed in -v */

enum { FR_AUTO = 0, FR_ITM, FR_TPIU, FR_OFLOW };
static const char *const framing_name[] = {"auto", "itm", "tpiu", "oflow"};

typedef struct swo {
	pc_profile *p;
	swo_trace_fn trace;
	void *trace_ctx;
	int rc; /* the first store error */

	/* ITM packet assembly */
	unsigned char pkt[8];
	unsigned have, need; /* need 0: continuation-coded, up to max */
	unsigned max;
	uint64_t pkt_off;
	unsigned zeros;
	uint64_t zero_off;
	unsigned page;

	/* counts */
	uint64_t kinds[SWO_KINDS];
	uint64_t exc_fn[4];
	uint64_t itm_bytes, zero_bytes, samples, sleeps;
	uint64_t lts_sum; /* local timestamp ticks */
	uint64_t lost_where[SWO_KEEP_LOST], lost_after[SWO_KEEP_LOST];

	/* context (exception trace) */
	unsigned cur;
	unsigned stack[CTX_DEPTH];
	unsigned depth, max_depth, stack_lost;
	uint64_t ctx[CTX_N];
	uint64_t pending; /* samples whose context the next packet tells */
	uint64_t mismatches;

	/* the periodic samples in order (NULL: a dry run) */
	pc_order *order;

	/* framing */
	int framing;
	unsigned want_id;
	/* TPIU */
	unsigned char frame[16];
	unsigned fill, ffrun;
	uint64_t frame_off;
	int cur_id; /* -1: none yet */
	uint64_t id_bytes[128];
	uint64_t frames, fsyncs, hsyncs, dropped, badid;
	/* OFLOW */
	unsigned char *ofr;
	uint64_t *ofr_off;
	size_t ofn;
	unsigned code, run;
	int ofl_bad; /* the frame being read is malformed */
	uint64_t ofl_frames, ofl_badsum, ofl_badcobs, ofl_other;
} swo;

/* ---- the model side ------------------------------------------------------ */

/* The next periodic sample: at pc, or (sleep) at no address.  A window
 * of the order may end after any sample. */
static inline void order_sample(swo *L, int sleep, uint64_t pc)
{
	if (L->rc)
		return;
	if (sleep)
		pc_order_skip(L->order, 1);
	else if ((L->rc = pc_order_add(L->order, PC_NOSEG, pc, 1)))
		return;
	L->rc = pc_order_boundary(L->order);
}

/* The samples counted as "pending" belong to context c. */
static void resolve(swo *L, unsigned c)
{
	L->ctx[c] += L->pending;
	L->pending = 0;
}

static void on_exception(swo *L, unsigned n, unsigned fn)
{
	switch (fn) {
	case 1: /* entered n: what ran before is on the stack */
		if (L->depth < CTX_DEPTH)
			L->stack[L->depth++] = L->cur;
		else
			L->stack_lost++;
		if (L->depth > L->max_depth)
			L->max_depth = L->depth;
		L->cur = n;
		break;
	case 2: /* n exited: it was running */
		if (L->cur == CTX_PENDING)
			resolve(L, n);
		else if (L->cur != n && L->cur != CTX_UNKNOWN)
			L->mismatches++;
		L->cur = n;
		break;
	case 3: /* returned to n (0: thread mode) */
		if (L->depth) {
			unsigned top = L->stack[--L->depth];
			if (top == CTX_PENDING)
				resolve(L, n);
			else if (top != n && top != CTX_UNKNOWN)
				L->mismatches++;
		} else if (L->cur == CTX_PENDING) {
			/* a handler returned: the samples since the loss ran in
			 * it (no exception packet came between), but its number
			 * was in the packets lost */
			resolve(L, CTX_HANDLER);
		}
		L->cur = n;
		break;
	}
}

static void on_overflow(swo *L, uint64_t off)
{
	/* packets were lost before this one: exception packets too, so the
	 * context of what follows is pending until the next exception packet
	 * tells it; what was pending stays unknown */
	L->ctx[CTX_UNKNOWN] += L->pending;
	L->pending = 0;
	L->depth = 0;
	L->cur = CTX_PENDING;
	uint64_t k = L->kinds[SWO_OVERFLOW] - 1;
	if (k < SWO_KEEP_LOST) {
		L->lost_where[k] = off;
		L->lost_after[k] = L->samples;
	}
	if (!L->rc && L->p)
		L->rc = pc_profile_add_lost(L->p, (int64_t)off, L->samples);
}

static inline void count_sample(swo *L)
{
	L->samples++;
	if (L->cur == CTX_PENDING)
		L->pending++;
	else
		L->ctx[L->cur]++;
}

static void emit(swo *L, swo_event *e)
{
	L->kinds[e->kind]++;
	if (L->trace)
		L->trace(L->trace_ctx, e);
	switch (e->kind) {
	case SWO_PC:
		count_sample(L);
		if (L->order)
			order_sample(L, 0, e->value);
		break;
	case SWO_SLEEP:
		L->samples++;
		L->sleeps++;
		if (L->order)
			order_sample(L, 1, 0);
		break;
	case SWO_OVERFLOW:
		on_overflow(L, e->offset);
		break;
	case SWO_EXC:
		L->exc_fn[e->fn & 3]++;
		on_exception(L, e->id, e->fn);
		break;
	case SWO_LTS:
		L->lts_sum += e->value;
		break;
	case SWO_EXT:
		if (e->id == 0)
			L->page = (unsigned)(e->value & 7);
		break;
	default:
		break;
	}
}

/* ---- ITM packets --------------------------------------------------------- */

/* Bytes of a packet with a fixed length (header included), 0 for the
 * others: sync, continuation-coded ones, reserved headers. */
static inline unsigned fixed_len(unsigned h)
{
	unsigned ss = h & 3;
	if (ss)
		return ss == 3 ? 5 : ss + 1; /* source packets */
	if ((h & 0x8f) == 0 && h)
		return 1; /* overflow, local timestamp format 2 */
	if ((h & 0x8b) == 0x08)
		return 1; /* extension without continuation */
	return 0;
}

/* Decodes the complete packet b[0..n) at offset off. */
static void decode(swo *L, const unsigned char *b, unsigned n, uint64_t off)
{
	swo_event e = {0, off, 0, 0, 0, 0};
	unsigned h = b[0];
	unsigned ss = h & 3;
	if (ss) {
		unsigned a = h >> 3, sz = n - 1;
		uint64_t v = 0;
		for (unsigned i = sz; i > 0; i--)
			v = v << 8 | b[i];
		e.size = sz;
		e.value = v;
		if (!(h & 4)) {
			e.kind = SWO_SWIT;
			e.id = L->page * 32 + a;
		} else if (a == 0 && sz == 1) {
			e.kind = SWO_EVCNT;
		} else if (a == 1 && sz == 2) {
			e.kind = SWO_EXC;
			e.id = (unsigned)(b[1] | (b[2] & 1u) << 8);
			e.fn = (b[2] >> 4) & 3;
			if (!e.fn) /* FN 0 is reserved */
				e.kind = SWO_HW_RESERVED, e.id = a;
		} else if (a == 2 && sz == 4) {
			e.kind = SWO_PC;
		} else if (a == 2 && sz == 1 && !b[1]) {
			e.kind = SWO_SLEEP; /* other payloads are reserved */
		} else if (a >= 8 && a <= 23) {
			e.id = (a >> 1) & 3;
			if (a >= 16) {
				e.kind = SWO_DT_VALUE;
				e.fn = a & 1;
			} else if (!(a & 1) && sz == 4) {
				e.kind = SWO_DT_PC;
			} else if ((a & 1) && sz == 2) {
				e.kind = SWO_DT_ADDR;
			} else {
				e.kind = SWO_HW_RESERVED, e.id = a;
			}
		} else {
			e.kind = SWO_HW_RESERVED;
			e.id = a;
		}
	} else if (h == 0x70) {
		e.kind = SWO_OVERFLOW;
	} else if ((h & 0x8f) == 0) { /* 0TTT0000 */
		e.kind = SWO_LTS;
		e.value = (h >> 4) & 7;
	} else if ((h & 0xcf) == 0xc0) {
		e.kind = SWO_LTS;
		e.id = (h >> 4) & 3;
		uint64_t v = 0;
		for (unsigned i = 1; i < n; i++)
			v |= (uint64_t)(b[i] & 0x7f) << (7 * (i - 1));
		e.value = v;
		e.size = n - 1;
	} else if (h == 0x94) {
		e.kind = SWO_GTS1;
		uint64_t v = 0;
		for (unsigned i = 1; i < n; i++) {
			unsigned bits = (i == 4) ? (b[i] & 0x1f) : (b[i] & 0x7f);
			v |= (uint64_t)bits << (7 * (i - 1));
		}
		if (n == 5)
			e.fn = (b[4] >> 6 & 1) | (b[4] >> 5 & 1) << 1;
		e.value = v;
		e.size = n - 1;
	} else if (h == 0xb4) {
		e.kind = SWO_GTS2;
		uint64_t v = 0;
		for (unsigned i = 1; i < n; i++)
			v |= (uint64_t)(b[i] & 0x7f) << (7 * (i - 1));
		e.value = v;
		e.size = n - 1;
	} else { /* extension: CEEE1S00 */
		e.kind = SWO_EXT;
		e.id = (h >> 2) & 1;
		uint64_t v = (h >> 4) & 7;
		for (unsigned i = 1; i < n; i++)
			v |= (uint64_t)(i == 4 ? b[i] : (b[i] & 0x7f)) << (3 + 7 * (i - 1));
		e.value = v;
		e.size = n - 1;
	}
	emit(L, &e);
}

/* Starts a packet at header h (offset off) in the byte-by-byte path; a
 * packet that is its header alone is decoded at once, a reserved header
 * counted and skipped. */
static void start_packet(swo *L, unsigned h, uint64_t off)
{
	L->pkt[0] = (unsigned char)h;
	L->have = 1;
	L->pkt_off = off;
	L->need = fixed_len(h);
	L->max = 0;
	if (L->need == 1) {
		decode(L, L->pkt, 1, off);
		L->have = 0;
		return;
	}
	if (L->need)
		return;
	if ((h & 0xcf) == 0xc0)
		L->max = 5;
	else if (h == 0x94)
		L->max = 5;
	else if (h == 0xb4)
		L->max = 7;
	else if ((h & 0x8b) == 0x88)
		L->max = 5; /* extension with continuation */
	else {
		swo_event e = {SWO_BAD, off, h, 0, 0, 0};
		emit(L, &e);
		L->have = 0;
	}
}

/* One byte in the byte-by-byte path (packets split across buffers or
 * frames, syncs, continuation-coded packets). */
static void itm_byte(swo *L, unsigned c, uint64_t off)
{
	if (L->have) {
		L->pkt[L->have++] = (unsigned char)c;
		if (L->need) {
			if (L->have == L->need) {
				decode(L, L->pkt, L->have, L->pkt_off);
				L->have = 0;
			}
			return;
		}
		/* continuation-coded: bit 7 says more follows, except in the
		 * last byte of an extension (8 bits) */
		int last = !(c & 0x80) || L->have == L->max;
		if (last) {
			decode(L, L->pkt, L->have, L->pkt_off);
			L->have = 0;
		}
		return;
	}
	if (L->zeros) {
		if (c == 0) {
			L->zeros++;
			return;
		}
		/* a sync is at least 47 zero bits and a one: five zero bytes
		 * and 0x80; fewer zeros, or zeros not ended by 0x80, are idle
		 * bytes (and 0x80 after them a reserved header) */
		if (c == 0x80 && L->zeros >= 5) {
			swo_event e = {SWO_SYNC, L->zero_off, 0, 0, L->zeros, 0};
			L->zeros = 0;
			emit(L, &e);
			return;
		}
		L->zero_bytes += L->zeros;
		L->zeros = 0;
	}
	if (c == 0) {
		L->zeros = 1;
		L->zero_off = off;
		return;
	}
	start_packet(L, c, off);
}

/* n ITM bytes; offs[i] their file offsets, or (offs NULL) off + i. */
static void itm_feed(swo *L, const unsigned char *b, size_t n, uint64_t off,
		     const uint64_t *offs)
{
	size_t i = 0;
	L->itm_bytes += n;
	while (i < n) {
		if (!L->have && !L->zeros && !L->trace && L->order) {
			/* a run of PC samples: the bulk of a capture */
			size_t i0 = i;
			while (i + 5 <= n && b[i] == 0x17 && !L->rc) {
				const unsigned char *q = b + i + 1;
				order_sample(L, 0, (uint32_t)q[0] | (uint32_t)q[1] << 8 |
							   (uint32_t)q[2] << 16 | (uint32_t)q[3] << 24);
				i += 5;
			}
			if (i != i0) {
				uint64_t k = (uint64_t)(i - i0) / 5;
				L->kinds[SWO_PC] += k;
				L->samples += k;
				if (L->cur == CTX_PENDING)
					L->pending += k;
				else
					L->ctx[L->cur] += k;
				continue;
			}
		}
		if (!L->have && !L->zeros) {
			/* whole fixed-length packets in the buffer: decoded in
			 * place (the common case: PC samples) */
			unsigned h = b[i], len = fixed_len(h);
			if (len && len <= n - i) {
				uint64_t o = offs ? offs[i] : off + i;
				decode(L, b + i, len, o);
				i += len;
				continue;
			}
		}
		itm_byte(L, b[i], offs ? offs[i] : off + i);
		i++;
	}
}

/* ---- TPIU formatter frames ----------------------------------------------- */

static void tpiu_frame(swo *L, const unsigned char *f, uint64_t off)
{
	unsigned char out[15];
	uint64_t offs[15];
	unsigned n = 0;
	unsigned aux = f[15];
	L->frames++;
	for (unsigned k = 0; k < 8; k++) {
		unsigned b = f[2 * k], bit = (aux >> k) & 1;
		int has_next = k < 7;
		int delayed = -1;
		if (b & 1) {
			unsigned id = b >> 1;
			if (id == 0x7f && has_next && f[2 * k + 1] == 0x7f) {
				L->hsyncs++; /* a halfword sync */
				continue;
			}
			if (id >= 0x7e)
				L->badid++; /* reserved */
			if (bit)
				delayed = (int)id; /* after the next byte */
			else
				L->cur_id = (int)id;
		} else {
			int id = L->cur_id;
			if (id < 0)
				L->dropped++;
			else if (L->id_bytes[id]++, (unsigned)id == L->want_id)
				out[n] = (unsigned char)(b | bit), offs[n++] = off + 2 * k;
		}
		if (has_next) {
			int id = L->cur_id;
			if (id < 0)
				L->dropped++;
			else if (L->id_bytes[id]++, (unsigned)id == L->want_id)
				out[n] = f[2 * k + 1], offs[n++] = off + 2 * k + 1;
		}
		if (delayed >= 0)
			L->cur_id = delayed;
	}
	if (n)
		itm_feed(L, out, n, 0, offs);
}

static void tpiu_feed(swo *L, const unsigned char *b, size_t n, uint64_t off)
{
	for (size_t i = 0; i < n; i++) {
		unsigned c = b[i];
		if (c == 0x7f && L->ffrun >= 3) {
			/* a full sync FF FF FF 7F: the next frame starts after it;
			 * bytes of a frame cut short by it are lost */
			L->fsyncs++;
			L->dropped += L->fill > 3 ? L->fill - 3 : 0;
			L->fill = 0;
			L->ffrun = 0;
			continue;
		}
		L->ffrun = c == 0xff ? L->ffrun + 1 : 0;
		if (!L->fill)
			L->frame_off = off + i;
		L->frame[L->fill++] = (unsigned char)c;
		if (L->fill == 16) {
			L->fill = 0;
			tpiu_frame(L, L->frame, L->frame_off);
		}
	}
}

/* ---- Orbuculum OFLOW: COBS frames of (tag, data, checksum) ---------------- */

#define OFLOW_SIG "%%ORBFLOW1.0.0%%"
#define OFLOW_SIG_LEN 16
#define OFLOW_MAX 65536

static void oflow_frame(swo *L)
{
	if (L->ofl_bad || L->ofn < 2) {
		if (L->ofn || L->ofl_bad)
			L->ofl_badcobs++;
		return;
	}
	L->ofl_frames++;
	unsigned sum = 0;
	for (size_t i = 0; i < L->ofn; i++)
		sum += L->ofr[i];
	if (sum & 0xff) {
		L->ofl_badsum++;
		return;
	}
	unsigned tag = L->ofr[0];
	if (tag < 128)
		L->id_bytes[tag] += L->ofn - 2;
	if (tag != L->want_id) {
		L->ofl_other++;
		return;
	}
	itm_feed(L, L->ofr + 1, L->ofn - 2, 0, L->ofr_off + 1);
}

static void oflow_put(swo *L, unsigned c, uint64_t off)
{
	if (L->ofn >= OFLOW_MAX || !L->ofr) {
		L->ofl_bad = 1;
		return;
	}
	L->ofr[L->ofn] = (unsigned char)c;
	L->ofr_off[L->ofn++] = off;
}

static void oflow_feed(swo *L, const unsigned char *b, size_t n, uint64_t off)
{
	for (size_t i = 0; i < n; i++) {
		unsigned c = b[i];
		if (c == 0) { /* the end of a frame */
			if (L->run > 1 || (L->code == 0 && L->ofn))
				L->ofl_bad = 1; /* a block cut short */
			oflow_frame(L);
			L->ofn = 0;
			L->code = L->run = 0;
			L->ofl_bad = 0;
			continue;
		}
		if (L->run <= 1) {
			/* a code byte: the zero that ended the last block */
			if (L->code && L->code < 0xff)
				oflow_put(L, 0, off + i);
			L->code = c;
			L->run = c;
			continue;
		}
		oflow_put(L, c, off + i);
		L->run--;
	}
}

/* ---- framing detection --------------------------------------------------- */

static void swo_feed(swo *L, const unsigned char *b, size_t n, uint64_t off)
{
	if (L->framing == FR_TPIU)
		tpiu_feed(L, b, n, off);
	else if (L->framing == FR_OFLOW)
		oflow_feed(L, b, n, off);
	else
		itm_feed(L, b, n, off, NULL);
}

static int has_fsync(const unsigned char *b, size_t n)
{
	for (size_t i = 0; i + 4 <= n; i++)
		if (b[i] == 0xff && b[i + 1] == 0xff && b[i + 2] == 0xff && b[i + 3] == 0x7f)
			return 1;
	return 0;
}

/* Decodes b[0..n) as framing without a profile: does it read as ITM?
 * Returns the packets of kinds only ITM has (PC samples, sleep,
 * exception trace, syncs), 0 when a reserved header or reserved TPIU ID
 * was met or fewer than min packets were read. */
static uint64_t dry_run(const unsigned char *b, size_t n, int framing,
			unsigned id, uint64_t *id_bytes, unsigned min)
{
	swo *L = calloc(1, sizeof *L);
	if (!L)
		return 0;
	L->framing = framing;
	L->want_id = id;
	L->cur_id = -1;
	L->cur = CTX_PENDING;
	/* the first bad packet decides when the ID bytes are not wanted:
	 * fed a block at a time (as the loader's stream does), it stops there */
	for (size_t o = 0; o < n; o += 64) {
		swo_feed(L, b + o, n - o < 64 ? n - o : 64, o);
		if (!id_bytes && (L->kinds[SWO_BAD] || L->kinds[SWO_HW_RESERVED] || L->badid))
			break;
	}
	uint64_t good = 0, strong = L->kinds[SWO_PC] + L->kinds[SWO_SLEEP] +
				  L->kinds[SWO_EXC] + L->kinds[SWO_SYNC];
	for (int k = 0; k < SWO_KINDS; k++)
		good += L->kinds[k];
	if (id_bytes)
		memcpy(id_bytes, L->id_bytes, sizeof L->id_bytes);
	int bad = L->kinds[SWO_BAD] || L->kinds[SWO_HW_RESERVED] || L->badid;
	free(L);
	return bad || good < min ? 0 : strong;
}

/* Where TPIU frames may start in b[0..n) when no frame sync says it: the
 * first offset from *off to 15 from which every frame's ID bytes name
 * trace IDs that are not reserved, at most 8 distinct ones (random bytes
 * name dozens, and a reserved one within a few frames).  Returns the
 * number of frames read from the new *off, 0 if no offset fits.  A stream
 * of few IDs and much padding can fit at several offsets (sigrok-dumps'
 * lpc1769 capture fits at every odd one): the ITM's packets then choose
 * (tpiu_best). */
static size_t tpiu_align(const unsigned char *b, size_t n, size_t *off)
{
	for (size_t o = *off; o < 16 && o + 16 <= n; o++) {
		unsigned char seen[128] = {0};
		unsigned nids = 0;
		size_t frames = 0;
		int bad = 0;
		for (size_t i = o; i + 16 <= n && !bad; i += 16, frames++) {
			for (unsigned k = 0; k < 8 && !bad; k++) {
				unsigned x = b[i + 2 * k];
				if (!(x & 1))
					continue;
				if (x == 0xff && k < 7 && b[i + 2 * k + 1] == 0x7f)
					continue; /* a halfword sync */
				unsigned id = x >> 1;
				if (id >= 0x7e) {
					bad = 1;
				} else if (!seen[id]) {
					seen[id] = 1;
					bad = ++nids > 8;
				}
			}
		}
		if (!bad && nids) {
			*off = o;
			return frames;
		}
	}
	return 0;
}

/* The ITM packets (dry_run) of the TPIU reading of b[0..n) that has the
 * most, over the frame alignments tpiu_align finds (with frame syncs:
 * from offset 0, the syncs realign); *off its alignment (the first one
 * that fits when none has ITM packets), *frames the frames read there.
 * The ITM is looked for on trace ID id, and when the format is named
 * (min 1) on any ID that carries data: the framing does not depend on it
 * (the loader then says which IDs carry data).  A file is claimed only on
 * ITM packets of trace ID id (1 by default): a binary file read as frames
 * has some ID whose bytes read as a few packets. */
static uint64_t tpiu_best(const unsigned char *b, size_t n, unsigned id,
			  unsigned min, int fsync, size_t *off, size_t *frames)
{
	uint64_t best = 0;
	*off = 0;
	*frames = 0;
	for (size_t o = 0; o < 16; o++) {
		size_t fr = 0;
		if (!fsync) {
			size_t a = o;
			if (!(fr = tpiu_align(b, n, &a)))
				break;
			o = a;
			if (!*frames)
				*off = o, *frames = fr;
		}
		uint64_t ib[128] = {0};
		uint64_t t = dry_run(b + o, n - o, FR_TPIU, id, min == 1 ? ib : NULL, min);
		for (unsigned k = 1; k < 0x7d && !t && min == 1; k++)
			if (k != id && ib[k])
				t = dry_run(b + o, n - o, FR_TPIU, k, NULL, min);
		if (t > best)
			best = t, *off = o, *frames = fr;
		if (fsync)
			break;
	}
	return best;
}

/* The framing of head[0..n) and a confidence (0: none fits); *skip: the
 * bytes before the first TPIU frame; min: the packets it must hold (8 to
 * claim a file, 1 when the format is named). */
static int detect(const unsigned char *b, size_t n, unsigned id, int *framing,
		  unsigned min, size_t *skip)
{
	*framing = FR_ITM;
	*skip = 0;
	if (n >= OFLOW_SIG_LEN && !memcmp(b, OFLOW_SIG, OFLOW_SIG_LEN)) {
		*framing = FR_OFLOW;
		return 8 * OFLOW_SIG_LEN;
	}
	uint64_t itm = dry_run(b, n, FR_ITM, id, NULL, min);
	/* a TPIU stream read as bare ITM meets reserved headers (the
	 * frames' ID and aux bytes) within a few frames: bare ITM that reads
	 * cleanly is taken as such, unless frame syncs say otherwise */
	int fsync = has_fsync(b, n);
	size_t off = 0, frames = 0;
	uint64_t tpiu = tpiu_best(b, n, id, min, fsync, &off, &frames);
	if (tpiu && fsync) {
		*framing = FR_TPIU;
		return 40;
	}
	if (itm)
		return itm >= 8 ? 24 : 16;
	/* when the format is named, frames of valid IDs alone are enough
	 * once there are many: a capture whose ITM is silent is still one
	 * (the loader says so); a file is never claimed on them (headerless
	 * binary files full of zeros, V7 mon.out or old BSD gmon.out, pass) */
	if (tpiu || (min == 1 && frames >= 64)) {
		*framing = FR_TPIU;
		*skip = off;
		return 24;
	}
	return 0;
}

/* ---- options --------------------------------------------------------------- */

typedef struct swo_opts {
	int framing;
	unsigned id;
	double cpu_hz;
	int have_pp, have_tap;
	unsigned postpreset, cyctap, prescale;
} swo_opts;

static int get_opts(pc_stream *s, const pc_options *o, swo_opts *so)
{
	memset(so, 0, sizeof *so);
	so->id = 1;
	so->cyctap = 6;
	so->prescale = 1;
	const char *fr = pc_options_get(o, "framing");
	if (fr) {
		for (int i = 0; i < 4; i++)
			if (!strcmp(fr, framing_name[i]))
				so->framing = i;
	}
	uint64_t v;
	int found, r;
	if ((r = pc_options_get_u64(&v, &found, o, "tpiu-id")) ||
	    (found && (v < 1 || v > 0x7c)))
		return pc_stream_fail(s, PC_EUSAGE, -1,
				      "tpiu-id must be a trace ID 1..124, not '%s'",
				      pc_options_get(o, "tpiu-id"));
	if (found)
		so->id = (unsigned)v;
	if ((r = pc_options_get_u64(&v, &found, o, "postpreset")) || (found && v > 15))
		return pc_stream_fail(s, PC_EUSAGE, -1,
				      "postpreset must be DWT_CTRL.POSTPRESET, 0..15, not '%s'",
				      pc_options_get(o, "postpreset"));
	if (found)
		so->have_pp = 1, so->postpreset = (unsigned)v;
	if ((r = pc_options_get_u64(&v, &found, o, "cyctap")) ||
	    (found && v != 6 && v != 10))
		return pc_stream_fail(s, PC_EUSAGE, -1,
				      "cyctap must be 6 or 10 (the CYCCNT bit DWT_CTRL.CYCTAP selects), not '%s'",
				      pc_options_get(o, "cyctap"));
	if (found)
		so->have_tap = 1, so->cyctap = (unsigned)v;
	if ((r = pc_options_get_u64(&v, &found, o, "ts-prescale")) ||
	    (found && v != 1 && v != 4 && v != 16 && v != 64))
		return pc_stream_fail(s, PC_EUSAGE, -1,
				      "ts-prescale must be 1, 4, 16 or 64 (ITM_TCR.TSPrescale), not '%s'",
				      pc_options_get(o, "ts-prescale"));
	if (found)
		so->prescale = (unsigned)v;
	double d;
	if ((r = pc_options_get_double(&d, &found, o, "cpu-hz")) || (found && !(d > 0)))
		return pc_stream_fail(s, PC_EUSAGE, -1,
				      "cpu-hz must be the core clock in Hz, above 0, not '%s'",
				      pc_options_get(o, "cpu-hz"));
	if (found)
		so->cpu_hz = d;
	if ((so->have_pp || so->have_tap) && !found)
		return pc_stream_fail(s, PC_EUSAGE, -1,
				      "postpreset and cyctap give the sampling period in CPU cycles: give cpu-hz=N too");
	return PC_OK;
}

/* ---- the report of what was read (-v) ------------------------------------ */

static void exc_name(unsigned n, char *buf, size_t cap)
{
	static const char *const sys[16] = {
		"thread", "Reset", "NMI", "HardFault", "MemManage", "BusFault",
		"UsageFault", "SecureFault", NULL, NULL, NULL, "SVCall",
		"DebugMonitor", NULL, "PendSV", "SysTick"};
	if (n == 0)
		snprintf(buf, cap, "thread mode");
	else if (n < 16 && sys[n])
		snprintf(buf, cap, "handler %u (%s)", n, sys[n]);
	else if (n < 16)
		snprintf(buf, cap, "handler %u (reserved)", n);
	else
		snprintf(buf, cap, "handler %u (IRQ %u)", n, n - 16);
}

static int notes(swo *L, const swo_opts *so, uint64_t total_bytes)
{
	pc_profile *p = L->p;
	int r = PC_OK;
	if (L->framing == FR_TPIU) {
		char ids[512];
		size_t u = 0;
		ids[0] = '\0';
		for (unsigned k = 0; k < 128 && u < sizeof ids - 40; k++)
			if (L->id_bytes[k])
				u += (size_t)snprintf(ids + u, sizeof ids - u, "%s%u: %llu",
						      u ? ", " : "", k,
						      (unsigned long long)L->id_bytes[k]);
		r = pc_profile_note(p, "swo: TPIU formatter frames: %llu frames, %llu full and %llu halfword syncs, %llu bytes dropped (before the first frame or trace ID, or cut by a sync), bytes per trace ID {%s}; ITM from ID %u",
				    (unsigned long long)L->frames, (unsigned long long)L->fsyncs,
				    (unsigned long long)L->hsyncs, (unsigned long long)L->dropped,
				    ids, L->want_id);
	} else if (L->framing == FR_OFLOW) {
		r = pc_profile_note(p, "swo: Orbuculum OFLOW frames: %llu, %llu with a bad checksum, %llu malformed, %llu of other tags; ITM from tag %u",
				    (unsigned long long)L->ofl_frames,
				    (unsigned long long)L->ofl_badsum,
				    (unsigned long long)L->ofl_badcobs,
				    (unsigned long long)L->ofl_other, L->want_id);
	}
	if (r)
		return r;
	r = pc_profile_note(p, "swo: %llu bytes of %s ITM/DWT packets (%llu bytes read): %llu PC samples, %llu sleep, %llu overflow",
			    (unsigned long long)L->itm_bytes,
			    L->framing == FR_ITM ? "bare" : "deframed",
			    (unsigned long long)total_bytes,
			    (unsigned long long)L->kinds[SWO_PC],
			    (unsigned long long)L->kinds[SWO_SLEEP],
			    (unsigned long long)L->kinds[SWO_OVERFLOW]);
	if (!r && L->kinds[SWO_EXC])
		r = pc_profile_note(p, "swo: exception trace: %llu enter, %llu exit, %llu return; nesting up to %u deep%s",
				    (unsigned long long)L->exc_fn[1],
				    (unsigned long long)L->exc_fn[2],
				    (unsigned long long)L->exc_fn[3], L->max_depth,
				    L->mismatches ? " (some returns did not match their entries)" : "");
	for (unsigned k = 0; k < L->kinds[SWO_OVERFLOW] && k < SWO_KEEP_LOST && !r; k++)
		r = pc_profile_note(p, "swo: overflow %u at byte %llu, after %llu samples", k + 1,
				    (unsigned long long)L->lost_where[k],
				    (unsigned long long)L->lost_after[k]);
	/* what profcat reads but does not use */
	char un[1024];
	size_t u = 0;
	static const int unused[] = {SWO_SYNC, SWO_LTS, SWO_GTS1, SWO_GTS2, SWO_EXT,
				     SWO_SWIT, SWO_EVCNT, SWO_DT_PC, SWO_DT_ADDR,
				     SWO_DT_VALUE, SWO_HW_RESERVED, SWO_BAD};
	un[0] = '\0';
	for (size_t i = 0; i < sizeof unused / sizeof unused[0]; i++) {
		int k = unused[i];
		if (L->kinds[k])
			u += (size_t)snprintf(un + u, sizeof un - u, "%s%llu %s", u ? ", " : "",
					      (unsigned long long)L->kinds[k], swo_kind_name[k]);
	}
	if (L->zero_bytes)
		u += (size_t)snprintf(un + u, sizeof un - u, "%s%llu idle zero bytes", u ? ", " : "",
				      (unsigned long long)L->zero_bytes);
	(void)u;
	if (!r && un[0])
		r = pc_profile_note(p, "swo: not used: %s", un);
	if (!r && L->kinds[SWO_LTS])
		r = pc_profile_note(p, "swo: local timestamps: %llu ticks in all%s",
				    (unsigned long long)L->lts_sum,
				    so->cpu_hz > 0 ? "" : " (give cpu-hz=N for seconds)");
	return r;
}

/* ---- loading ------------------------------------------------------------- */

static int swo_run(pc_profile *p, pc_stream *s, const pc_options *opts,
		   swo_trace_fn trace, void *trace_ctx)
{
	swo_opts so;
	int rc = get_opts(s, opts, &so);
	if (rc)
		return rc;
	swo *L = calloc(1, sizeof *L);
	if (!L)
		return pc_stream_fail(s, PC_ENOMEM, -1, "out of memory");
	L->p = p;
	L->trace = trace;
	L->trace_ctx = trace_ctx;
	L->cur = CTX_PENDING;
	L->cur_id = -1;
	L->want_id = so.id;
	if (pc_order_new(&L->order, p)) {
		free(L);
		return pc_stream_fail(s, PC_ENOMEM, -1, "out of memory");
	}
	const unsigned char *head;
	size_t hl;
	uint64_t start = 0;
	pc_stream_peek(&head, &hl, s);
	if (!hl) {
		rc = pc_stream_fail(s, PC_EFORMAT, 0,
				    "empty file: expected an SWO capture (ITM/DWT packets), found 0 bytes");
		goto out;
	}
	L->framing = so.framing;
	size_t skip = 0;
	if (L->framing == FR_TPIU && !has_fsync(head, hl) && hl >= 16) {
		size_t frames;
		tpiu_best(head, hl, so.id, 1, 0, &skip, &frames);
	}
	if (L->framing == FR_AUTO && !detect(head, hl, so.id, &L->framing, 8, &skip) &&
	    !detect(head, hl, so.id, &L->framing, 1, &skip)) {
		rc = pc_stream_fail(s, PC_EFORMAT, 0,
				    "expected ITM/DWT packets, bare or in TPIU or OFLOW frames: the first %zu bytes read as none of them (reserved packet headers or trace IDs); name the framing with -O framing=itm|tpiu|oflow",
				    hl);
		goto out;
	}
	if (L->framing == FR_OFLOW) {
		L->ofr = malloc(OFLOW_MAX);
		L->ofr_off = malloc(OFLOW_MAX * sizeof *L->ofr_off);
		if (!L->ofr || !L->ofr_off) {
			rc = pc_stream_fail(s, PC_ENOMEM, -1, "out of memory");
			goto out;
		}
		if (hl >= OFLOW_SIG_LEN && !memcmp(head, OFLOW_SIG, OFLOW_SIG_LEN)) {
			if ((rc = pc_stream_skip(s, OFLOW_SIG_LEN, "the OFLOW signature")))
				goto out;
			start = OFLOW_SIG_LEN;
		}
	}
	if (skip) { /* a capture that starts inside a TPIU frame */
		if ((rc = pc_stream_skip(s, skip, "the bytes before the first TPIU frame")))
			goto out;
		L->dropped += skip;
		start = skip;
	}
	uint64_t off = start;
	for (;;) {
		const unsigned char *d;
		size_t got;
		if ((rc = pc_stream_borrow(&d, &got, s, (size_t)1 << 20)))
			goto out;
		if (!got)
			break;
		swo_feed(L, d, got, off);
		off += got;
		if (L->rc) {
			rc = L->rc;
			goto out;
		}
	}
	if (L->have || L->zeros) /* a capture cut in the middle of a packet */
		L->zero_bytes += L->zeros;
	if ((rc = pc_order_flush(L->order)))
		goto out;
	if (L->framing != FR_ITM && !L->itm_bytes) {
		char ids[256];
		size_t u = 0;
		ids[0] = '\0';
		for (unsigned k = 1; k < 128 && u < sizeof ids - 40; k++)
			if (L->id_bytes[k] && k != 0x7d)
				u += (size_t)snprintf(ids + u, sizeof ids - u, "%s%u (%llu bytes)",
						      u ? ", " : "", k,
						      (unsigned long long)L->id_bytes[k]);
		rc = pc_stream_fail(s, PC_EFORMAT, (int64_t)start,
				    "no ITM data: nothing on %s %u; %s%s%s",
				    L->framing == FR_TPIU ? "TPIU trace ID" : "OFLOW tag", so.id,
				    u ? "data on " : "no other ID carries data either",
				    ids, u ? ": give -O tpiu-id=N for the one the ITM writes (ITM_TCR.TraceBusID)" : "");
		goto out;
	}
	if (!L->samples) {
		rc = pc_stream_fail(s, PC_EFORMAT, (int64_t)off,
				    "no PC samples in %llu ITM packets (%llu exception trace, %llu instrumentation, %llu local timestamp): enable the DWT's periodic PC sampling (DWT_CTRL.PCSAMPLENA, docs/swo.md)",
				    (unsigned long long)(L->kinds[SWO_PC] + L->kinds[SWO_SYNC] +
							 L->kinds[SWO_OVERFLOW] + L->kinds[SWO_LTS] +
							 L->kinds[SWO_GTS1] + L->kinds[SWO_GTS2] +
							 L->kinds[SWO_EXT] + L->kinds[SWO_SWIT] +
							 L->kinds[SWO_EVCNT] + L->kinds[SWO_EXC] +
							 L->kinds[SWO_DT_PC] + L->kinds[SWO_DT_ADDR] +
							 L->kinds[SWO_DT_VALUE]),
				    (unsigned long long)L->kinds[SWO_EXC],
				    (unsigned long long)L->kinds[SWO_SWIT],
				    (unsigned long long)L->kinds[SWO_LTS]);
		goto out;
	}
	if (L->sleeps && (rc = pc_profile_add_class_samples(p, PC_REGION_SLEEP, L->sleeps)))
		goto out;
	/* the samples by context, when the exception trace tells it */
	if (L->kinds[SWO_EXC]) {
		L->ctx[CTX_UNKNOWN] += L->pending;
		L->pending = 0;
		char name[64];
		for (unsigned c = 0; c < SWO_NEXC && !rc; c++)
			if (L->ctx[c]) {
				exc_name(c, name, sizeof name);
				rc = pc_profile_add_context_samples(p, name, L->ctx[c]);
			}
		if (!rc && L->ctx[CTX_HANDLER])
			rc = pc_profile_add_context_samples(p, "handler (number lost in an overflow)",
							    L->ctx[CTX_HANDLER]);
		if (!rc && L->sleeps)
			rc = pc_profile_add_context_samples(p, "sleep", L->sleeps);
		if (!rc && L->ctx[CTX_UNKNOWN])
			rc = pc_profile_add_context_samples(p, "unknown", L->ctx[CTX_UNKNOWN]);
		if (rc)
			goto out;
	}
	/* the rate */
	double rate = 0, dur = -1;
	if (so.cpu_hz > 0 && L->kinds[SWO_LTS])
		dur = (double)L->lts_sum * so.prescale / so.cpu_hz;
	if (so.cpu_hz > 0 && so.have_pp) {
		rate = so.cpu_hz / ((so.postpreset + 1.0) * (so.cyctap == 10 ? 1024.0 : 64.0));
		rc = pc_profile_note(p, "swo: rate %g Hz: cpu-hz %g / ((postpreset %u + 1) * %u cycles, cyctap %u)",
				     rate, so.cpu_hz, so.postpreset, so.cyctap == 10 ? 1024 : 64,
				     so.cyctap);
	} else if (dur > 0) {
		rate = (double)L->samples / dur;
		rc = pc_profile_note(p, "swo: rate %g Hz: %llu samples in %g s of local timestamps%s",
				     rate, (unsigned long long)L->samples, dur,
				     L->kinds[SWO_OVERFLOW] ? " (too low: samples were lost)" : "");
	}
	if (!rc && rate > 0)
		rc = pc_profile_set_rate(p, rate);
	if (!rc && dur >= 0)
		rc = pc_profile_set_duration(p, dur);
	if (!rc && L->kinds[SWO_OVERFLOW])
		rc = pc_profile_warn(p, "%llu overflow packet%s: the ITM dropped packets (PC samples among them; how many is not known), first at byte %llu after %llu samples",
				     (unsigned long long)L->kinds[SWO_OVERFLOW],
				     L->kinds[SWO_OVERFLOW] == 1 ? "" : "s",
				     (unsigned long long)L->lost_where[0],
				     (unsigned long long)L->lost_after[0]);
	if (!rc && L->badid)
		rc = pc_profile_warn(p, "%llu TPIU frame ID bytes name a reserved trace ID: the frames are not where they were taken to be (a capture with gaps, or not TPIU-framed); what follows may be misread",
				     (unsigned long long)L->badid);
	if (!rc && (L->kinds[SWO_BAD] || L->kinds[SWO_HW_RESERVED]))
		rc = pc_profile_warn(p, "%llu reserved ITM packet headers skipped: a noisy line or a wrong framing or baud rate",
				     (unsigned long long)(L->kinds[SWO_BAD] + L->kinds[SWO_HW_RESERVED]));
	if (!rc)
		rc = notes(L, &so, off);
	if (!rc)
		rc = pc_profile_set_target(p, 4, PC_ENDIAN_LITTLE);
out:
	pc_order_free(L->order);
	free(L->ofr);
	free(L->ofr_off);
	free(L);
	return rc;
}

static int swo_load(pc_profile *p, pc_stream *s, const pc_options *opts)
{
	return swo_run(p, s, opts, NULL, NULL);
}

static int swo_probe(const unsigned char *head, size_t len, const char *name)
{
	(void)name;
	int framing;
	size_t skip;
	return detect(head, len, 1, &framing, 8, &skip);
}

static const char *const swo_ext[] = {".swo", ".itm", NULL};

static const pc_option_decl swo_options[] = {
	{"framing", PC_OPTION_ENUM, "auto,itm,tpiu,oflow", "auto",
	 "bare ITM, TPIU formatter frames or Orbuculum OFLOW"},
	{"tpiu-id", PC_OPTION_U64, NULL, "1",
	 "the trace ID (OFLOW: tag) that carries the ITM"},
	{"cpu-hz", PC_OPTION_DOUBLE, NULL, NULL, "core clock in Hz"},
	{"postpreset", PC_OPTION_U64, NULL, NULL,
	 "DWT_CTRL.POSTPRESET, 0..15 (needs cpu-hz)"},
	{"cyctap", PC_OPTION_U64, NULL, "6",
	 "DWT_CTRL.CYCTAP as the CYCCNT bit: 6 or 10"},
	{"ts-prescale", PC_OPTION_U64, NULL, "1",
	 "ITM_TCR.TSPrescale divider: 1, 4, 16 or 64"},
	{NULL, PC_OPTION_STRING, NULL, NULL, NULL},
};

const pc_loader pc_loader_swo = {
	.abi_version = PC_LOADER_ABI_VERSION,
	.name = "swo",
	.description = "ARM SWO capture: ITM/DWT packets (PC samples, exception trace), bare, TPIU or OFLOW framed",
	.roles = PC_ROLE_SAMPLES,
	.extensions = swo_ext,
	.probe = swo_probe,
	.load = swo_load,
	.order = 50,
	.options = swo_options,
};
