/* gmon.c - GNU tagged gmon.out (glibc, newlib, RTOS runtimes, OpenOCD).
 *
 * Layout (research/unix-formats.md §5): "gmon", u32 version, 12 spare
 * bytes, then records: tag 0 TIME_HIST (uW low, uW high, u32 nbins,
 * u32 rate, char dimen[15], char abbrev, nbins x u16), tag 1 CG_ARC
 * (uW from, uW self, u32 count), tag 2 BB_COUNT (u32 n, n x (uW, uW)).
 * The address width W and the byte order are not in the file: they come
 * from the paired executable (the ELF loader runs first), from the options
 * width=2|4|8 and endian=little|big, or are guessed when exactly one
 * reading parses the whole file (a warning says so).
 */
#include "internal.h"

#include <stdlib.h>
#include <string.h>

#define GMON_MAX_SIZE ((uint64_t)1 << 30)

static int gmon_probe(const unsigned char *h, size_t n, const char *name)
{
	if (n < 8 || memcmp(h, "gmon", 4) != 0)
		return 0;
	uint32_t le = pc_get_u32(h + 4, PC_ENDIAN_LITTLE);
	uint32_t be = pc_get_u32(h + 4, PC_ENDIAN_BIG);
	if (le <= 1 || be <= 1)
		return 64;
	return 32;
}

typedef struct gctx {
	const unsigned char *b;
	size_t len;
	unsigned w;
	pc_endian e;
	pc_profile *p; /* NULL: dry run */
	pc_stream *s;
	int rate_set;
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

static int parse_hist(gctx *g, size_t *pos)
{
	size_t at = *pos, w = g->w;
	size_t hdr = 2 * w + 4 + 4 + 16;
	if (g->len - at < hdr)
		return bad(g, PC_ETRUNC, at, "histogram record header needs %zu bytes, only %zu left",
			   hdr, g->len - at);
	const unsigned char *r = g->b + at;
	uint64_t low = pc_get_uint(r, g->w, g->e);
	uint64_t high = pc_get_uint(r + w, g->w, g->e);
	uint32_t nbins = pc_get_u32(r + 2 * w, g->e);
	uint32_t rate = pc_get_u32(r + 2 * w + 4, g->e);
	if (low > high)
		return bad(g, PC_EFORMAT, at, "histogram low_pc 0x%llx is above high_pc 0x%llx",
			   (unsigned long long)low, (unsigned long long)high);
	if (nbins == 0)
		return bad(g, PC_EFORMAT, at + 2 * w, "histogram record has 0 bins");
	if ((uint64_t)nbins * 2 > g->len - at - hdr)
		return bad(g, PC_ETRUNC, at + 2 * w,
			   "histogram claims %u bins (%llu bytes) but only %zu bytes follow",
			   nbins, (unsigned long long)nbins * 2, g->len - at - hdr);
	if (g->p) {
		char dimen[16];
		memcpy(dimen, r + 2 * w + 8, 15);
		dimen[15] = '\0';
		char abbrev = (char)r[2 * w + 8 + 15];
		uint64_t *c = malloc((size_t)nbins * sizeof *c);
		if (!c)
			return bad(g, PC_ENOMEM, at, "out of memory");
		const unsigned char *cb = r + hdr;
		for (uint32_t i = 0; i < nbins; i++)
			c[i] = pc_get_u16(cb + 2 * (size_t)i, g->e);
		pc_histogram h = {PC_NOSEG, low, high, nbins, c, 2};
		int st = pc_profile_add_histogram(g->p, &h);
		free(c);
		if (st) {
			const pc_error *pe = pc_profile_error(g->p);
			return bad(g, st, at, "%s", pe ? pe->message : "bad histogram");
		}
		if (!g->rate_set) {
			g->rate_set = 1;
			if (!pc_profile_rate(g->p))
				pc_profile_set_rate(g->p, rate);
			if (dimen[0])
				pc_profile_set_dimension(g->p, dimen, abbrev);
		}
	}
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

static int parse(gctx *g)
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

static int gmon_load(pc_profile *p, pc_stream *s, const pc_options *o)
{
	void *buf;
	size_t len;
	int r = pc_stream_read_all(s, GMON_MAX_SIZE, &buf, &len);
	if (r)
		return r;
	gctx g = {buf, len, 0, PC_ENDIAN_UNKNOWN, NULL, s, 0};
	const char *ow = pc_options_get(o, "width"), *oe = pc_options_get(o, "endian");
	if (ow && parse_width(ow, &g.w)) {
		r = pc_stream_fail(s, PC_EUSAGE, -1, "width must be 2, 4 or 8, not '%s'", ow);
		goto out;
	}
	if (oe && parse_endian(oe, &g.e)) {
		r = pc_stream_fail(s, PC_EUSAGE, -1, "endian must be little or big, not '%s'", oe);
		goto out;
	}
	if (!g.w)
		g.w = pc_profile_target_width(p);
	if (!g.e)
		g.e = pc_profile_target_endian(p);
	if (!g.w || !g.e) {
		/* try every reading the known facts allow */
		static const unsigned widths[] = {4, 8};
		static const pc_endian ends[] = {PC_ENDIAN_LITTLE, PC_ENDIAN_BIG};
		unsigned fw = 0, nfit = 0;
		pc_endian fe = PC_ENDIAN_UNKNOWN;
		char cands[128] = "";
		for (int i = 0; i < 2; i++) {
			for (int j = 0; j < 2; j++) {
				gctx t = g;
				t.w = g.w ? g.w : widths[i];
				t.e = g.e ? g.e : ends[j];
				if ((g.w && i) || (g.e && j))
					continue;
				if (parse(&t) == PC_OK) {
					nfit++;
					fw = t.w;
					fe = t.e;
					size_t l = strlen(cands);
					snprintf(cands + l, sizeof cands - l, "%s%u-bit %s-endian",
						 l ? ", " : "", t.w * 8,
						 t.e == PC_ENDIAN_BIG ? "big" : "little");
				}
			}
		}
		if (nfit == 0) {
			/* report the error of the most likely reading */
			g.w = g.w ? g.w : 8;
			g.e = g.e ? g.e : PC_ENDIAN_LITTLE;
		} else if (nfit > 1) {
			r = pc_stream_fail(s, PC_EAMBIGUOUS, 0,
					   "address width and byte order are not recorded in gmon.out and several readings fit (%s): give the executable, or -O width=4|8 and -O endian=little|big",
					   cands);
			goto out;
		} else {
			g.w = fw;
			g.e = fe;
			pc_profile_warn(p, "%s: no executable given; read as %u-bit %s-endian (the only reading that fits)",
					pc_stream_name(s), fw * 8,
					fe == PC_ENDIAN_BIG ? "big" : "little");
		}
	}
	g.p = p;
	r = parse(&g);
out:
	pc_free(buf);
	return r;
}

static const char *const gmon_ext[] = {".out", ".gmon", NULL};

const pc_loader pc_loader_gmon = {
	.abi_version = PC_LOADER_ABI_VERSION,
	.name = "gmon",
	.description = "GNU tagged gmon.out: histograms, call arcs (gcc -pg, OpenOCD)",
	.roles = PC_ROLE_SAMPLES | PC_ROLE_ARCS,
	.extensions = gmon_ext,
	.probe = gmon_probe,
	.load = gmon_load,
	.order = 10,
};
