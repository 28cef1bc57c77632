/*
 * gmon.c - gmon.out in all its layouts (research/unix-formats.md §4-§7).
 *
 * GNU tagged (glibc, newlib, RTOS runtimes, OpenOCD): "gmon", u32 version,
 * 12 spare bytes, then records: tag 0 TIME_HIST (uW low, uW high, u32
 * nbins, u32 rate, char dimen[15], char abbrev, nbins x u16), tag 1 CG_ARC
 * (uW from, uW self, u32 count), tag 2 BB_COUNT (u32 n, n x (uW, uW)).
 *
 * BSD layouts have no magic:
 *   4.2BSD "oldbsd": uW lowpc, uW highpc, u32 ncnt (bytes of header +
 *     histogram), u16 counters[(ncnt - (2W+4)) / 2], then raw arcs
 *     (uW from, uW self, sW count) until the end of the file.
 *   Alpha OSF/1 oldbsd: the same with 4 pad bytes after ncnt (only with
 *     -O gmon-layout=alpha, as gprof applies it only on that host).
 *   4.4BSD "bsd44": uW lpc, uW hpc, u32 ncnt, u32 version 0x00051879, u32
 *     profrate, u32 spare[3], counters, raw arcs.  A non-zero spare[0] is
 *     FreeBSD's histcounter_type: |type| bits per counter, negative signed;
 *     any other value is left-over garbage (MinGW does not set the spare
 *     words): 16-bit counters with a warning, as gprof reads every 4.4BSD
 *     file.  MinGW-w64's 8-byte arcs hold a 4-byte count (Win64's long)
 *     and 4 bytes of padding: read so when every arc has the same
 *     non-zero padding word (gprof reads 8-byte counts).
 *   A file is 4.4BSD when the word after ncnt is 0x00051879 (as gprof
 *   decides); -O gmon-layout=tagged|bsd44|oldbsd|alpha forces a layout.
 *   Old BSD files are recognised by name (gmon.out*, *.gmon) or by content
 *   (oldbsd_content: counters that fit the range, whole arcs inside it).
 *
 * The address width W and the byte order are not in any of them: they
 * come from the options width=4|8 and endian=little|big, else from the
 * paired executable (the ELF loader runs first), else every reading is
 * tried and the one that parses the whole file is used with a warning;
 * several give PC_EAMBIGUOUS naming them.
 *
 * Option rate=HZ sets the tick rate (old BSD files do not record it).
 *
 * OpenOCD quirks: its histogram records carry 4-byte low/high words even
 * for 64-bit targets (read so, with a warning, when the W-byte reading
 * fails and the 4-byte one fits, or with -O hist-width=4), and its
 * counters are little-endian even on big-endian targets (a big-endian file
 * without arcs whose counters read smaller little-endian is read so, with
 * a warning; -O counter-endian=little|big decides).
 */
#include "binhead.h"
#include "internal.h"
#include "whole.h"
#include "platform.h"

#include <stdlib.h>
#include <string.h>

#define GMON_MAX_SIZE ((uint64_t)1 << 30)
#define GMONVERSION 0x00051879u
/* profil(2)'s smallest non-zero scale, 1/65536: one counter per
 * 2 x 65536 bytes of code (a coarser histogram cannot be filled) */
#define GMON_MAX_SPAN 131072u

typedef enum glayout {
	L_AUTO = 0,
	L_TAGGED,
	L_BSD44,
	L_OLDBSD,
	L_ALPHA
} glayout;

static const char *layout_name(glayout l)
{
	switch (l) {
	case L_TAGGED: return "GNU tagged";
	case L_BSD44: return "4.4BSD";
	case L_OLDBSD: return "old BSD";
	case L_ALPHA: return "old BSD (Alpha)";
	default: return "?";
	}
}

/* Is this the name of a gmon.out (for the BSD layouts, which have no
 * magic)? */
static int gmon_name(const char *name)
{
	if (!name)
		return 0;
	const char *b = pc_basename(name);
	size_t n = strlen(b);
	return strncmp(b, "gmon.out", 8) == 0 || strncmp(b, "gmon.sum", 8) == 0 ||
	       (n > 5 && strcmp(b + n - 5, ".gmon") == 0);
}

/* Named like a V7 mon.out (the monout loader's files, also magic-less). */
static int monout_name(const char *name)
{
	if (!name)
		return 0;
	const char *b = pc_basename(name);
	size_t n = strlen(b);
	return strcmp(b, "mon.out") == 0 || strncmp(b, "mon.out.", 8) == 0 ||
	       (n > 4 && strcmp(b + n - 4, ".mon") == 0);
}

/* Does an old BSD gmon.out header (no magic) read consistently as
 * width w, order e?  The counters are at most one per 2 bytes of
 * [lowpc, highpc) (profil's finest scale), and whatever of the file the
 * head holds after them are whole arcs (from, self, count) whose ends lie
 * in [lowpc, highpc] (mcount records no other); a head shorter than
 * PC_PROBE_HEAD is the whole file, so it must end after a whole arc.
 * gprof reads any file without the "gmon" magic so; this is stricter. */
#define PC_PROBE_HEAD 4096
static int oldbsd_content(const unsigned char *h, size_t n, unsigned w,
			  pc_endian e)
{
	uint64_t lo = pc_get_uint(h, w, e), hi = pc_get_uint(h + w, w, e);
	uint32_t ncnt = pc_get_u32(h + 2 * w, e);
	uint64_t nbins = (ncnt - 2 * (uint64_t)w - 4) / 2;
	if (nbins == 0 || hi - lo > GMON_MAX_SIZE * 2 || nbins > (hi - lo) / 2 + 1)
		return 0;
	if (ncnt > n) /* the head ends among the counters */
		return n == PC_PROBE_HEAD;
	size_t asz = 3 * (size_t)w, narcs = 0;
	for (size_t at = ncnt; at + asz <= n; at += asz, narcs++) {
		uint64_t from = pc_get_uint(h + at, w, e), self = pc_get_uint(h + at + w, w, e);
		if (from < lo || from > hi || self < lo || self > hi)
			return 0;
	}
	if (n < PC_PROBE_HEAD && (n - ncnt) % asz)
		return 0;
	return 1;
}

static int gmon_probe(const unsigned char *h, size_t n, const char *name)
{
	if (n >= 8 && memcmp(h, "gmon", 4) == 0) {
		uint32_t le = pc_get_u32(h + 4, PC_ENDIAN_LITTLE);
		uint32_t be = pc_get_u32(h + 4, PC_ENDIAN_BIG);
		if (le <= 1 || be <= 1)
			return 64;
		return 32;
	}
	static const unsigned widths[] = {4, 8};
	static const pc_endian ends[] = {PC_ENDIAN_LITTLE, PC_ENDIAN_BIG};
	int best = 0;
	for (int i = 0; i < 2; i++) {
		for (int j = 0; j < 2; j++) {
			unsigned w = widths[i];
			pc_endian e = ends[j];
			if (n < 2 * w + 8)
				continue;
			uint64_t lo = pc_get_uint(h, w, e), hi = pc_get_uint(h + w, w, e);
			uint32_t ncnt = pc_get_u32(h + 2 * w, e);
			if (lo >= hi)
				continue;
			/* 4.4BSD: a 32-bit version magic */
			if (pc_get_u32(h + 2 * w + 4, e) == GMONVERSION && ncnt >= 2 * w + 24)
				return 48;
			/* old BSD: no magic; a gmon.out by name, or by content,
			 * and never a text file (a map read as addresses) */
			if (ncnt < 2 * w + 4 || (ncnt - 2 * w - 4) % 2 ||
			    !pc_binary_evidence(h, n))
				continue;
			if (gmon_name(name))
				best = best > 16 ? best : 16;
			else if (!monout_name(name) && oldbsd_content(h, n, w, e))
				best = best > 20 ? best : 20;
		}
	}
	return best;
}

typedef struct gctx {
	const unsigned char *b;
	size_t len;
	unsigned w;     /* address width of arcs (and of histograms)          */
	unsigned hw;    /* address width of histogram records (OpenOCD: 4)    */
	pc_endian e;    /* byte order of every header field                   */
	pc_endian ce;   /* byte order of histogram counters                   */
	glayout layout; /* L_TAGGED, L_BSD44, L_OLDBSD or L_ALPHA              */
	pc_profile *p;  /* NULL: dry run                                      */
	pc_stream *s;
	int rate_set;
	int strict;     /* dry run of a guess: arcs must fit exactly and lie
			   in the histogram range                           */
	size_t nhist, narcs;
	int sums;       /* the counter sums are wanted                        */
	uint64_t sum_as_read, sum_swapped; /* counter sums (OpenOCD check) */
} gctx;

/* Records an error unless this is a dry run. */
static int bad(gctx *g, int code, size_t off, const char *fmt, ...) PC_PRINTF(4, 5);
static int bad(gctx *g, int code, size_t off, const char *fmt, ...)
{
	if (!g->p)
		return code;
	char msg[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	return pc_stream_fail(g->s, code, (int64_t)off, "%s", msg);
}


/* Counters [cb, cb + n*size) into the profile as one histogram, decoded
 * once, straight into the array the profile keeps (a dry run decodes
 * nothing: it needs the sums only). */
static int add_counters(gctx *g, size_t at, uint64_t low, uint64_t high,
			const unsigned char *cb, size_t n, unsigned size,
			int is_signed)
{
	if (n == 0)
		return PC_OK;
	/* the sums in both byte orders tell a wrong counter order (OpenOCD;
	 * only gmon_load's check of that asks for them): from the sums of
	 * the bytes at each place k of a counter, place k being significance
	 * k (little-endian counters) or size-1-k (big), weighing 256^sig as
	 * read and 256^(size-1-sig) swapped (modulo 2^64, as the sums of the
	 * counters themselves) */
	uint64_t bsum[8] = {0};
	if (!g->sums) {
		/* not wanted */
	} else if (size == 2) {
		uint64_t s0 = 0, s1 = 0;
		for (size_t i = 0; i < n; i++) {
			s0 += cb[2 * i];
			s1 += cb[2 * i + 1];
		}
		bsum[0] = s0, bsum[1] = s1;
	} else {
		for (size_t i = 0; i < n; i++)
			for (unsigned k = 0; k < size; k++)
				bsum[k] += cb[size * i + k];
	}
	uint64_t as_read = 0, swapped = 0;
	for (unsigned k = 0; k < size; k++) {
		unsigned sig = g->ce == PC_ENDIAN_BIG ? size - 1 - k : k;
		as_read += bsum[k] << (8 * sig);
		swapped += bsum[k] << (8 * (size - 1 - sig));
	}
	g->sum_as_read += as_read;
	g->sum_swapped += swapped;
	if (!g->p)
		return PC_OK;
	if (is_signed) {
		/* the sign bit: in the first byte (big) or the last */
		size_t sb = g->ce == PC_ENDIAN_BIG ? 0 : size - 1;
		for (size_t i = 0; i < n; i++)
			if (cb[size * i + sb] & 0x80)
				return bad(g, PC_EFORMAT, (size_t)(cb - g->b) + size * i,
					   "negative histogram counter in bin %zu", i);
	}
	uint64_t *c = malloc(n * sizeof *c);
	if (!c)
		return bad(g, PC_ENOMEM, at, "out of memory");
	pc_plat_advise_bulk(c, n * sizeof *c); /* (8 MB for 10^6 bins) */
	uint64_t any = pc_get_uints(c, cb, n, size, g->ce);
	pc_histogram h = {PC_NOSEG, low, high, n, c, 2};
	int st = pc_profile_adopt_histogram(g->p, &h, c, &any);
	if (st) {
		const pc_error *pe = pc_profile_error(g->p);
		return bad(g, st, at, "%s", pe ? pe->message : "bad histogram");
	}
	return PC_OK;
}

static void set_rate(gctx *g, uint32_t rate, const char *dimen, char abbrev)
{
	if (!g->p || g->rate_set)
		return;
	g->rate_set = 1;
	if (!pc_profile_rate(g->p))
		pc_profile_set_rate(g->p, rate);
	if (dimen && dimen[0])
		pc_profile_set_dimension(g->p, dimen, abbrev);
}

/* ---- GNU tagged ---------------------------------------------------------- */

static int parse_hist(gctx *g, size_t *pos)
{
	size_t at = *pos, w = g->hw;
	size_t hdr = 2 * w + 4 + 4 + 16;
	if (g->len - at < hdr)
		return bad(g, PC_ETRUNC, at, "histogram record header needs %zu bytes, only %zu left",
			   hdr, g->len - at);
	const unsigned char *r = g->b + at;
	uint64_t low = pc_get_uint(r, g->hw, g->e);
	uint64_t high = pc_get_uint(r + w, g->hw, g->e);
	uint32_t nbins = pc_get_u32(r + 2 * w, g->e);
	uint32_t rate = pc_get_u32(r + 2 * w + 4, g->e);
	if (low > high)
		return bad(g, PC_EFORMAT, at, "histogram low_pc 0x%llx is above high_pc 0x%llx",
			   (unsigned long long)low, (unsigned long long)high);
	if (nbins == 0)
		return bad(g, PC_EFORMAT, at + 2 * w, "histogram record has 0 bins");
	if ((uint64_t)nbins * 2 > GMON_MAX_SIZE)
		return bad(g, PC_ELIMIT, at + 2 * w,
			   "histogram claims %u bins (%llu bytes), over the limit of %llu bytes",
			   nbins, (unsigned long long)nbins * 2,
			   (unsigned long long)GMON_MAX_SIZE);
	if ((uint64_t)nbins * 2 > g->len - at - hdr)
		return bad(g, PC_ETRUNC, at + 2 * w,
			   "histogram claims %u bins (%llu bytes) but only %zu bytes follow",
			   nbins, (unsigned long long)nbins * 2, g->len - at - hdr);
	int st = add_counters(g, at, low, high, r + hdr, nbins, 2, 0);
	if (st)
		return st;
	char dimen[16];
	memcpy(dimen, r + 2 * w + 8, 15);
	dimen[15] = '\0';
	set_rate(g, rate, dimen, (char)r[2 * w + 8 + 15]);
	g->nhist++;
	*pos = at + hdr + (size_t)nbins * 2;
	return PC_OK;
}

static int parse_arc(gctx *g, size_t *pos)
{
	size_t at = *pos, need = 2 * (size_t)g->w + 4;
	if (g->len - at < need)
		return bad(g, PC_ETRUNC, at, "call-arc record needs %zu bytes, only %zu left",
			   need, g->len - at);
	if (g->p) {
		const unsigned char *r = g->b + at;
		pc_arc a = {0};
		a.from_segment = a.to_segment = PC_NOSEG;
		a.from = pc_get_uint(r, g->w, g->e);
		a.to = pc_get_uint(r + g->w, g->w, g->e);
		a.count = pc_get_u32(r + 2 * g->w, g->e);
		int st = pc_profile_add_arc(g->p, &a);
		if (st)
			return st;
	}
	g->narcs++;
	*pos = at + need;
	return PC_OK;
}

static int parse_bb(gctx *g, size_t *pos)
{
	size_t at = *pos;
	if (g->len - at < 4)
		return bad(g, PC_ETRUNC, at, "basic-block record needs a 4-byte count");
	uint32_t n = pc_get_u32(g->b + at, g->e);
	uint64_t need = (uint64_t)n * 2 * g->w;
	if (need > g->len - at - 4)
		return bad(g, PC_ETRUNC, at, "basic-block record claims %u entries (%llu bytes) but only %zu bytes follow",
			   n, (unsigned long long)need, g->len - at - 4);
	*pos = at + 4 + (size_t)need;
	return PC_OK;
}

static int parse_tagged(gctx *g)
{
	if (g->len < 20)
		return bad(g, PC_ETRUNC, 0, "gmon.out header needs 20 bytes, file has %zu", g->len);
	uint32_t version = pc_get_u32(g->b + 4, g->e);
	if (version == 0x1ffff)
		return bad(g, PC_EUNSUPPORTED, 4,
			   "this is a glibc sprof (LD_PROFILE) file, not gmon.out");
	if (version > 1)
		return bad(g, PC_EFORMAT, 4, "gmon.out version %u (expected 0 or 1)", version);
	size_t pos = 20;
	int bb = 0;
	while (pos < g->len) {
		unsigned tag = g->b[pos];
		size_t body = pos + 1;
		int st;
		switch (tag) {
		case 0: st = parse_hist(g, &body); break;
		case 1: st = parse_arc(g, &body); break;
		case 2: st = parse_bb(g, &body); bb++; break;
		default:
			return bad(g, PC_EFORMAT, pos,
				   "bad record tag %u (expected 0 histogram, 1 arc or 2 basic-block)", tag);
		}
		if (st)
			return st;
		pos = body;
	}
	if (bb && g->p)
		pc_profile_warn(g->p, "%s: %d obsolete basic-block record(s) ignored",
				pc_stream_name(g->s), bb);
	return PC_OK;
}

/* ---- BSD ------------------------------------------------------------------ */

static int parse_bsd(gctx *g)
{
	const size_t w = g->w;
	size_t hdr = g->layout == L_BSD44   ? 2 * w + 24
		     : g->layout == L_ALPHA ? 2 * w + 8
					    : 2 * w + 4;
	if (g->len < hdr)
		return bad(g, PC_ETRUNC, 0, "%s gmon.out header needs %zu bytes, file has %zu",
			   layout_name(g->layout), hdr, g->len);
	const unsigned char *b = g->b;
	uint64_t low = pc_get_uint(b, g->w, g->e);
	uint64_t high = pc_get_uint(b + w, g->w, g->e);
	uint32_t ncnt = pc_get_u32(b + 2 * w, g->e);
	unsigned csize = 2;
	int csigned = 0;
	uint32_t rate = 0;
	if (g->layout == L_BSD44) {
		uint32_t version = pc_get_u32(b + 2 * w + 4, g->e);
		if (version != GMONVERSION)
			return bad(g, PC_EFORMAT, 2 * w + 4,
				   "4.4BSD gmon.out version 0x%x (expected 0x%x)",
				   (unsigned)version, GMONVERSION);
		rate = pc_get_u32(b + 2 * w + 8, g->e);
		int32_t type = (int32_t)pc_get_u32(b + 2 * w + 12, g->e);
		uint32_t bits = type < 0 ? 0u - (uint32_t)type : (uint32_t)type;
		if (bits == 8 || bits == 16 || bits == 32 || bits == 64) {
			csize = bits / 8;
			csigned = type < 0;
		} else if (type != 0 && g->p) {
			/* no counter type: MinGW's gmon.c leaves the spare
			 * words unset (a stack struct; real files hold 9,
			 * 0x7fff, 0x7765421b there): 16-bit counters, as gprof
			 * reads every 4.4BSD file */
			pc_profile_warn(g->p, "%s: 4.4BSD header word at offset %zu is 0x%x, not a counter type (0 or +-8, 16, 32, 64 bits; MinGW leaves it unset): read as 16-bit counters, as gprof does",
					pc_stream_name(g->s), 2 * w + 12, (unsigned)type);
		}
	} else if (g->layout == L_ALPHA && pc_get_u32(b + 2 * w + 4, g->e) != 0) {
		return bad(g, PC_EFORMAT, 2 * w + 4, "Alpha gmon.out header pad is not zero");
	}
	if (low > high)
		return bad(g, PC_EFORMAT, 0, "lowpc 0x%llx is above highpc 0x%llx",
			   (unsigned long long)low, (unsigned long long)high);
	if (ncnt < hdr)
		return bad(g, PC_EFORMAT, 2 * w,
			   "header and histogram size %u is smaller than the %zu-byte header",
			   (unsigned)ncnt, hdr);
	/* a claim over the file limit fails before it is read: an endless
	 * input (a pipe, /dev/urandom) stops here, not at the limit */
	if (ncnt > GMON_MAX_SIZE)
		return bad(g, PC_ELIMIT, 2 * w,
			   "header and histogram size %u is over the limit of %llu bytes",
			   (unsigned)ncnt, (unsigned long long)GMON_MAX_SIZE);
	size_t nbins = (ncnt - hdr) / csize;
	if (g->strict && (ncnt - hdr) % csize)
		return PC_EFORMAT;
	/* what profil() can have filled (checked before the counters are
	 * read: random bytes rarely pass, an endless input stops here) */
	uint64_t text = high - low;
	if (nbins && nbins > text / 2 + 1)
		return bad(g, PC_EFORMAT, 2 * w,
			   "histogram of %zu counters over lowpc..highpc (%llu bytes): more than one counter per 2 bytes of code (profil's finest scale)",
			   nbins, (unsigned long long)text);
	if (nbins && text / GMON_MAX_SPAN > nbins)
		return bad(g, PC_EFORMAT, 2 * w,
			   "histogram of %zu counters cannot cover lowpc..highpc (%llu bytes): profil's coarsest scale is one counter per %u bytes of code",
			   nbins, (unsigned long long)text, (unsigned)GMON_MAX_SPAN);
	if (ncnt > g->len)
		return bad(g, PC_ETRUNC, 2 * w,
			   "header and histogram claim %u bytes but the file has %zu",
			   (unsigned)ncnt, g->len);
	int st = add_counters(g, hdr, low, high, b + hdr, nbins, csize, csigned);
	if (st)
		return st;
	if (nbins)
		g->nhist++;
	set_rate(g, rate, NULL, 0);

	/* raw arcs until the end; gprof ignores a partial last one */
	size_t pos = hdr + nbins * csize, asz = 3 * w;
	size_t narcs = (g->len - pos) / asz, tail = (g->len - pos) % asz;
	if (tail && g->strict)
		return PC_EFORMAT;
	/* MinGW-w64's 8-byte arcs end in a `long` count, 4 bytes on Win64,
	 * and 4 bytes of padding from a stack struct: every count word then
	 * has the same non-zero padding word (gprof reads it as part of the
	 * count and prints calls like 9016206454221148661) */
	size_t cw = w;
	if (w == 8 && narcs) {
		/* the struct's layout: count at bytes 16-19, padding 20-23 */
		uint32_t first = pc_get_u32(b + pos + 20, g->e);
		size_t k = 1;
		while (k < narcs && pc_get_u32(b + pos + k * asz + 20, g->e) == first)
			k++;
		if (first && k == narcs) {
			cw = 4;
			if (g->p)
				pc_profile_warn(g->p, "%s: every arc's 8-byte count ends in the same non-zero word 0x%x: read as MinGW-w64's 4-byte count and 4 padding bytes (gprof counts the padding in)",
						pc_stream_name(g->s), (unsigned)first);
		}
	}
	for (size_t i = 0; i < narcs; i++, pos += asz) {
		pc_arc a = {0};
		a.from_segment = a.to_segment = PC_NOSEG;
		a.from = pc_get_uint(b + pos, g->w, g->e);
		a.to = pc_get_uint(b + pos + w, g->w, g->e);
		a.count = pc_get_uint(b + pos + 2 * w, (unsigned)cw, g->e);
		if (a.count >> (8 * cw - 1))
			return bad(g, PC_EFORMAT, pos + 2 * w,
				   "arc count is negative (sign bit of the signed %zu-byte count set); expected 0 or more calls", cw);
		if (g->strict && (a.from < low || a.from > high || a.to < low || a.to > high))
			return PC_EFORMAT;
		if (g->p && (st = pc_profile_add_arc(g->p, &a)))
			return st;
		g->narcs++;
	}
	if (tail && g->p)
		pc_profile_warn(g->p, "%s: %zu bytes after the last whole arc ignored (as gprof does)",
				pc_stream_name(g->s), tail);
	return PC_OK;
}

static int parse(gctx *g)
{
	g->nhist = g->narcs = 0;
	g->sum_as_read = g->sum_swapped = 0;
	return g->layout == L_TAGGED ? parse_tagged(g) : parse_bsd(g);
}

/* ---- choosing a reading ---------------------------------------------------- */

static int parse_width(const char *v, unsigned *w)
{
	if (!strcmp(v, "2") || !strcmp(v, "16"))
		*w = 2;
	else if (!strcmp(v, "4") || !strcmp(v, "32"))
		*w = 4;
	else if (!strcmp(v, "8") || !strcmp(v, "64"))
		*w = 8;
	else
		return PC_EUSAGE;
	return PC_OK;
}

static int parse_endian(const char *v, pc_endian *e)
{
	if (!strcmp(v, "little") || !strcmp(v, "le"))
		*e = PC_ENDIAN_LITTLE;
	else if (!strcmp(v, "big") || !strcmp(v, "be"))
		*e = PC_ENDIAN_BIG;
	else
		return PC_EUSAGE;
	return PC_OK;
}

static int parse_layout(const char *v, glayout *l)
{
	if (!strcmp(v, "tagged") || !strcmp(v, "gnu"))
		*l = L_TAGGED;
	else if (!strcmp(v, "bsd44") || !strcmp(v, "4.4bsd"))
		*l = L_BSD44;
	else if (!strcmp(v, "oldbsd") || !strcmp(v, "bsd"))
		*l = L_OLDBSD;
	else if (!strcmp(v, "alpha"))
		*l = L_ALPHA;
	else
		return PC_EUSAGE;
	return PC_OK;
}

/* The BSD layout a header reads as: 4.4BSD when the version word matches
 * (gprof's rule), else old BSD. */
static glayout bsd_layout(const gctx *g)
{
	size_t at = 2 * (size_t)g->w + 4;
	if (g->len >= at + 4 && pc_get_u32(g->b + at, g->e) == GMONVERSION)
		return L_BSD44;
	return L_OLDBSD;
}

static void describe(const gctx *t, int bsd, char *out, size_t n)
{
	if (bsd)
		snprintf(out, n, "%s %u-bit %s-endian", layout_name(t->layout),
			 t->w * 8, t->e == PC_ENDIAN_BIG ? "big" : "little");
	else
		snprintf(out, n, "%u-bit %s-endian", t->w * 8,
			 t->e == PC_ENDIAN_BIG ? "big" : "little");
}

static int gmon_load(pc_profile *p, pc_stream *s, const pc_options *o)
{
	pc_whole w;
	int r = pc_whole_get(s, GMON_MAX_SIZE, 1, &w);
	if (r)
		return r;
	const unsigned char *buf = w.b;
	size_t len = w.len;
	gctx g = {.b = buf, .len = len, .s = s};
	unsigned hw_opt = 0;
	pc_endian ce_opt = PC_ENDIAN_UNKNOWN;
	const char *ow = pc_options_get(o, "width"), *oe = pc_options_get(o, "endian");
	const char *ol = pc_options_get(o, "gmon-layout");
	const char *ohw = pc_options_get(o, "hist-width");
	const char *oce = pc_options_get(o, "counter-endian");
	if (ow && parse_width(ow, &g.w)) {
		r = pc_stream_fail(s, PC_EUSAGE, -1, "width must be 2, 4 or 8, not '%s'", ow);
		goto out;
	}
	if (oe && parse_endian(oe, &g.e)) {
		r = pc_stream_fail(s, PC_EUSAGE, -1, "endian must be little or big, not '%s'", oe);
		goto out;
	}
	if (ol && parse_layout(ol, &g.layout)) {
		r = pc_stream_fail(s, PC_EUSAGE, -1,
				   "gmon-layout must be tagged, bsd44, oldbsd or alpha, not '%s'", ol);
		goto out;
	}
	if (ohw && (parse_width(ohw, &hw_opt) || hw_opt == 2)) {
		r = pc_stream_fail(s, PC_EUSAGE, -1, "hist-width must be 4 or 8, not '%s'", ohw);
		goto out;
	}
	if (oce && parse_endian(oce, &ce_opt)) {
		r = pc_stream_fail(s, PC_EUSAGE, -1,
				   "counter-endian must be little or big, not '%s'", oce);
		goto out;
	}
	double rate = 0;
	if (pc_options_get_double(&rate, NULL, o, "rate") < 0 || rate < 0) {
		r = pc_stream_fail(s, PC_EUSAGE, -1, "rate must be a number of ticks per second");
		goto out;
	}
	int tagged = len >= 4 && memcmp(buf, "gmon", 4) == 0;
	if (!g.w)
		g.w = pc_profile_target_width(p);
	if (!g.e)
		g.e = pc_profile_target_endian(p);
	if (!g.layout)
		g.layout = tagged ? L_TAGGED : L_AUTO; /* no magic: BSD */
	else if (g.layout == L_TAGGED && !tagged) {
		r = pc_stream_fail(s, PC_EFORMAT, 0, "expected the GNU gmon.out magic \"gmon\"");
		goto out;
	}
	int bsd = g.layout != L_TAGGED;
	int auto_layout = g.layout == L_AUTO;
	if (g.w == 2 && bsd) {
		r = pc_stream_fail(s, PC_EUSAGE, -1, "BSD gmon.out layouts have 4- or 8-byte addresses");
		goto out;
	}

	if (!g.w || !g.e) {
		/* try every reading the known facts allow */
		static const unsigned widths[] = {4, 8};
		static const pc_endian ends[] = {PC_ENDIAN_LITTLE, PC_ENDIAN_BIG};
		unsigned nfit = 0;
		gctx fit = g;
		char cands[256] = "";
		for (int i = 0; i < 2; i++) {
			for (int j = 0; j < 2; j++) {
				if ((g.w && i) || (g.e && j))
					continue;
				gctx t = g;
				t.w = g.w ? g.w : widths[i];
				t.e = g.e ? g.e : ends[j];
				t.hw = hw_opt ? hw_opt : t.w;
				t.ce = ce_opt ? ce_opt : t.e;
				t.strict = bsd;
				if (auto_layout)
					t.layout = bsd_layout(&t);
				if (parse(&t) == PC_OK) {
					nfit++;
					fit = t;
					size_t l = strlen(cands);
					describe(&t, bsd, cands + l, sizeof cands - l);
					l = strlen(cands);
					snprintf(cands + l, sizeof cands - l, ", ");
				}
			}
		}
		if (strlen(cands) >= 2)
			cands[strlen(cands) - 2] = '\0';
		if (nfit == 0) {
			/* report the error of the most likely reading */
			g.w = g.w ? g.w : 8;
			g.e = g.e ? g.e : PC_ENDIAN_LITTLE;
		} else if (nfit > 1) {
			if (bsd)
				r = pc_stream_fail(s, PC_EAMBIGUOUS, 0,
						   "BSD gmon.out records neither address width nor byte order and several readings fit (%s): give the executable, or the options width=4|8 and endian=little|big",
						   cands);
			else
				r = pc_stream_fail(s, PC_EAMBIGUOUS, 0,
						   "address width and byte order are not recorded in gmon.out and several readings fit (%s): give the executable, or the options width=4|8 and endian=little|big",
						   cands);
			goto out;
		} else {
			g.w = fit.w;
			g.e = fit.e;
			char d[96];
			describe(&fit, bsd, d, sizeof d);
			pc_profile_warn(p, "%s: no executable given; read as %s (the only reading that fits)",
					pc_stream_name(s), d);
		}
	}
	if (auto_layout)
		g.layout = bsd_layout(&g);
	g.hw = hw_opt ? hw_opt : g.w;
	g.ce = ce_opt ? ce_opt : g.e;

	/* OpenOCD: 4-byte histogram words with a 64-bit executable */
	if (!bsd && !hw_opt && g.w == 8) {
		gctx t = g;
		if (parse(&t) != PC_OK) {
			t = g;
			t.hw = 4;
			if (parse(&t) == PC_OK && t.narcs == 0) {
				g.hw = 4;
				pc_profile_warn(p, "%s: histogram records read with 4-byte addresses, as OpenOCD writes them for 64-bit targets (the option hist-width=8 refuses that)",
						pc_stream_name(s));
			}
		}
	}
	/* OpenOCD: little-endian counters with a big-endian target */
	if (!bsd && !ce_opt && g.e == PC_ENDIAN_BIG) {
		gctx t = g;
		t.sums = 1;
		if (parse(&t) == PC_OK && t.narcs == 0 && t.nhist > 0 &&
		    t.sum_swapped < t.sum_as_read) {
			g.ce = PC_ENDIAN_LITTLE;
			pc_profile_warn(p, "%s: histogram counters read as little-endian, as OpenOCD writes them (the option counter-endian=big refuses that)",
					pc_stream_name(s));
		}
	}
	g.p = p;
	g.strict = 0;
	r = parse(&g);
	if (r != PC_OK && r != PC_ENOMEM && !ow && pc_profile_target_width(p) == g.w &&
	    (g.w == 4 || g.w == 8)) {
		/* the width came from the program: does the other one read
		 * the file?  (a 64-bit gmon.out given with a 32-bit build) */
		gctx t = g;
		t.p = NULL;
		t.w = g.w == 4 ? 8 : 4;
		t.hw = hw_opt ? hw_opt : t.w;
		t.strict = bsd;
		if (auto_layout)
			t.layout = bsd_layout(&t);
		const pc_error *e = pc_stream_error(s);
		if (e && e->message && parse(&t) == PC_OK) {
			char msg[512], d[96], d0[96];
			snprintf(msg, sizeof msg, "%s", e->message);
			describe(&t, bsd, d, sizeof d);
			describe(&g, bsd, d0, sizeof d0);
			r = pc_stream_fail(s, e->code, e->offset,
					   "%s (read as %s, the program's width; it reads as %s: a %u-bit build wrote it, give that program)",
					   msg, d0, d, t.w * 8);
		}
	}
	if (r == PC_OK && rate > 0) {
		/* the file's own rate, replaced: kept for the user's warning
		 * (as profcat says for every loader, registry.c) */
		double own = pc_profile_rate(p);
		char v[64];
		snprintf(v, sizeof v, "%.15g", own);
		if (own > 0 && own != rate && pc_profile_set_meta(p, "rate.stated", v))
			r = PC_ENOMEM;
		pc_profile_set_rate(p, rate);
	}
out:
	pc_whole_done(&w);
	return r;
}

static const char *const gmon_ext[] = {".out", ".gmon", NULL};

static const pc_option_decl gmon_options[] = {
	{"width", PC_OPTION_ENUM, "2,4,8,16,32,64", NULL,
	 "address width in bytes (2, 4, 8) or bits; default: from the program or the file"},
	{"endian", PC_OPTION_ENUM, "little,le,big,be", NULL,
	 "byte order of the file; default: from the program or the file"},
	{"gmon-layout", PC_OPTION_ENUM, "tagged,gnu,bsd44,4.4bsd,oldbsd,bsd,alpha", NULL,
	 "file layout; default: detected"},
	{"hist-width", PC_OPTION_ENUM, "4,8,32,64", NULL,
	 "width of the histogram range fields (bytes or bits)"},
	{"counter-endian", PC_OPTION_ENUM, "little,le,big,be", NULL,
	 "byte order of the histogram counters"},
	{"rate", PC_OPTION_DOUBLE, NULL, NULL,
	 "sampling rate in ticks per second (overrides the file)"},
	{NULL, PC_OPTION_STRING, NULL, NULL, NULL},
};

const pc_loader pc_loader_gmon = {
	.abi_version = PC_LOADER_ABI_VERSION,
	.name = "gmon",
	.description = "gmon.out: GNU tagged, 4.4BSD and old BSD layouts, OpenOCD; histograms, call arcs",
	.roles = PC_ROLE_SAMPLES | PC_ROLE_ARCS,
	.extensions = gmon_ext,
	.probe = gmon_probe,
	.load = gmon_load,
	.order = 10,
	.options = gmon_options,
};
