/* decomp.c - the compressed inputs a stream reads: gzip (zlib), xz
 * (liblzma) and zstd (libzstd).
 *
 * Each is recognised by its magic bytes, never by the file name, and
 * decoded on the fly from one 64 KiB input buffer, so a pipe or a file of
 * any size is read in bounded memory.  Concatenated members, streams and
 * frames are read one after the other as gzip -dc, xz -dc and zstd -dc
 * do (xz's stream padding and zstd's skippable frames included).  What a
 * decoder may allocate is bounded too: an xz stream that needs more than
 * PC_XZ_MEMLIMIT, a zstd frame whose window is over 2^PC_ZSTD_WINDOWLOG
 * (the zstd tool's own default) are refused.  Errors name the compressed
 * byte where the decoder stopped and what the library said was wrong.
 */
#include "decomp.h"
#include "pc_config.h"

#include <stdarg.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>
#if PC_HAVE_XZ
#include <lzma.h>
#endif
#if PC_HAVE_ZSTD
#include <zstd.h>
#include <zstd_errors.h>
#endif

#define ZIN_BUF (64 * 1024)
/* xz -9 needs 65 MiB to decompress; only a custom dictionary needs more */
#define PC_XZ_MEMLIMIT ((uint64_t)256 << 20)
/* zstd's default: up to --ultra -22 (windowLog 27) */
#define PC_ZSTD_WINDOWLOG 27

static const char *const kind_names[] = {"", "gzip", "xz", "zstd"};

struct pc_zdec {
	int kind;
	pc_zsrc src;
	void *arg;
	/* compressed input: avail bytes at next; fed bytes read in all */
	unsigned char *in;
	const unsigned char *next;
	size_t avail;
	uint64_t fed;
	int in_eof;
	int ended; /* the clean end of the last member/stream/frame */
	/* an error, kept: reported by every read from the one that reaches it */
	int fail;
	int64_t fail_at;
	char msg[320];
	/* gzip */
	z_stream z;
	int z_live, z_member_end;
#if PC_HAVE_XZ
	lzma_stream x;
	int x_live;
#endif
#if PC_HAVE_ZSTD
	ZSTD_DStream *zs;
	size_t zs_hint; /* 0: between frames */
	uint64_t zs_frame; /* compressed offset of the frame being read */
#endif
};

int pc_zdec_sniff(const unsigned char *b, size_t n)
{
	if (n >= 2 && b[0] == 0x1f && b[1] == 0x8b)
		return PC_Z_GZIP;
	if (n >= 6 && !memcmp(b, "\xfd" "7zXZ\0", 6))
		return PC_Z_XZ;
	/* a zstd frame, or a skippable frame (magic 0x184D2A50..5F) */
	if (n >= 4 && ((b[0] == 0x28 && b[1] == 0xb5 && b[2] == 0x2f && b[3] == 0xfd) ||
		       ((b[0] & 0xf0) == 0x50 && b[1] == 0x2a && b[2] == 0x4d && b[3] == 0x18)))
		return PC_Z_ZSTD;
	return PC_Z_NONE;
}

/* The compressed offset the decoder has reached. */
static uint64_t consumed(const pc_zdec *d)
{
	return d->fed - d->avail;
}

/* Keeps an error at content offset at + got; returned now if nothing was
 * decoded in this call (got 0), else by the next call. */
static int64_t keep_fail(pc_zdec *d, int code, uint64_t at,
			 size_t got, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(d->msg, sizeof d->msg, fmt, ap);
	va_end(ap);
	d->fail = code;
	d->fail_at = (int64_t)(at + got);
	if (got)
		return (int64_t)got;
	return code;
}

static int64_t truncated(pc_zdec *d, uint64_t at, size_t got)
{
	return keep_fail(d, PC_ETRUNC, at, got,
			 "%s data ends before the end of the compressed stream (after %llu compressed bytes)",
			 kind_names[d->kind], (unsigned long long)d->fed);
}

/* where: "at" the compressed byte where the decoder stopped, or "in the
 * frame at" the start of the zstd frame (libzstd does not say where in it) */
static int64_t corrupt(pc_zdec *d, uint64_t at, size_t got,
		       const char *where, uint64_t cat, const char *what)
{
	return keep_fail(d, PC_EFORMAT, at, got,
			 "corrupt %s data %s compressed byte %llu: %s",
			 kind_names[d->kind], where, (unsigned long long)cat, what);
}

/* Reads more compressed bytes when none are left.  PC_OK or a status. */
static int refill(pc_zdec *d)
{
	if (d->avail || d->in_eof)
		return PC_OK;
	int64_t r = d->src(d->arg, d->in, ZIN_BUF);
	if (r < 0)
		return (int)r;
	if (r == 0)
		d->in_eof = 1;
	d->next = d->in;
	d->avail = (size_t)r;
	d->fed += (uint64_t)r;
	return PC_OK;
}

/* ---- gzip --------------------------------------------------------------- */

static int64_t gz_read(pc_zdec *d, uint64_t at,
		       unsigned char *dst, size_t n)
{
	z_stream *z = &d->z;
	z->next_out = dst;
	z->avail_out = (uInt)(n > (1u << 30) ? (1u << 30) : n);
	uInt want = z->avail_out;
	while (z->avail_out == want) {
		int st = refill(d);
		if (st < 0)
			return st;
		if (d->avail == 0) {
			if (d->z_member_end) /* clean end of the last member */
				break;
			return truncated(d, at, 0);
		}
		if (d->z_member_end) { /* concatenated members */
			inflateReset(z);
			d->z_member_end = 0;
		}
		z->next_in = (unsigned char *)d->next;
		z->avail_in = (uInt)d->avail;
		int zr = inflate(z, Z_NO_FLUSH);
		d->next = z->next_in;
		d->avail = z->avail_in;
		if (zr == Z_STREAM_END)
			d->z_member_end = 1;
		else if (zr == Z_MEM_ERROR)
			return keep_fail(d, PC_ENOMEM, at, want - z->avail_out, "out of memory");
		else if (zr != Z_OK && !(zr == Z_BUF_ERROR && d->avail == 0))
			return corrupt(d, at, want - z->avail_out, "at", consumed(d),
				       z->msg ? z->msg : "inflate failed");
	}
	return (int64_t)(want - z->avail_out);
}

/* ---- xz ----------------------------------------------------------------- */

#if PC_HAVE_XZ
/* What went wrong, in xz's own words (xz's message.c). */
static const char *xz_text(lzma_ret r)
{
	switch (r) {
	case LZMA_FORMAT_ERROR:
		return "file format not recognized";
	case LZMA_OPTIONS_ERROR:
		return "unsupported options";
	case LZMA_DATA_ERROR:
		return "compressed data is corrupt";
	case LZMA_BUF_ERROR:
		return "unexpected end of input";
	default:
		return "internal error (bug)";
	}
}

static int64_t xz_read(pc_zdec *d, uint64_t at,
		       unsigned char *dst, size_t n)
{
	lzma_stream *x = &d->x;
	x->next_out = dst;
	x->avail_out = n;
	while (x->avail_out == n && !d->ended) {
		int st = refill(d);
		if (st < 0)
			return st;
		x->next_in = d->next;
		x->avail_in = d->avail;
		lzma_ret r = lzma_code(x, d->in_eof ? LZMA_FINISH : LZMA_RUN);
		d->next = x->next_in;
		d->avail = x->avail_in;
		size_t got = n - x->avail_out;
		switch (r) {
		case LZMA_OK:
			break;
		case LZMA_STREAM_END:
			d->ended = 1;
			break;
		case LZMA_BUF_ERROR: /* no progress: the input ended */
			return truncated(d, at, got);
		case LZMA_MEM_ERROR:
			return keep_fail(d, PC_ENOMEM, at, got, "out of memory");
		case LZMA_MEMLIMIT_ERROR:
			return keep_fail(d, PC_ELIMIT, at, got,
					 "xz data at compressed byte %llu needs %llu MiB of memory to decompress, over the limit of %llu MiB: decompress it first with xz -dc (a pipe will do)",
					 (unsigned long long)consumed(d),
					 (unsigned long long)((lzma_memusage(x) + (1u << 20) - 1) >> 20),
					 (unsigned long long)(PC_XZ_MEMLIMIT >> 20));
		default:
			return corrupt(d, at, got, "at", consumed(d), xz_text(r));
		}
	}
	return (int64_t)(n - x->avail_out);
}
#endif

/* ---- zstd --------------------------------------------------------------- */

#if PC_HAVE_ZSTD
static int64_t zst_fail(pc_zdec *d, uint64_t at, size_t got,
			size_t r)
{
	if (ZSTD_getErrorCode(r) == ZSTD_error_memory_allocation)
		return keep_fail(d, PC_ENOMEM, at, got, "out of memory");
	if (ZSTD_getErrorCode(r) == ZSTD_error_frameParameter_windowTooLarge)
		return keep_fail(d, PC_ELIMIT, at, got,
				 "zstd frame at compressed byte %llu needs a window over the limit of %d MiB (zstd -dc's default): decompress it first with zstd -dc --long=31 (a pipe will do)",
				 (unsigned long long)d->zs_frame, 1 << (PC_ZSTD_WINDOWLOG - 20));
	/* "Data corruption detected": lower case, as every message */
	char what[160];
	snprintf(what, sizeof what, "%s", ZSTD_getErrorName(r));
	if (what[0] >= 'A' && what[0] <= 'Z')
		what[0] = (char)(what[0] - 'A' + 'a');
	return corrupt(d, at, got, "in the frame at", d->zs_frame, what);
}

static int64_t zst_read(pc_zdec *d, uint64_t at,
			unsigned char *dst, size_t n)
{
	ZSTD_outBuffer out = {dst, n, 0};
	while (out.pos == 0) {
		int st = refill(d);
		if (st < 0)
			return st;
		ZSTD_inBuffer in = {d->next, d->avail, 0};
		if (d->avail == 0 && d->zs_hint == 0) /* the end, between frames */
			break;
		size_t r = ZSTD_decompressStream(d->zs, &out, &in);
		d->next += in.pos;
		d->avail -= in.pos;
		if (ZSTD_isError(r))
			return zst_fail(d, at, out.pos, r);
		d->zs_hint = r;
		if (r == 0)
			d->zs_frame = consumed(d);
		/* at the end of the input, inside a frame, nothing more came */
		if (d->avail == 0 && d->in_eof && r != 0 && out.pos < out.size)
			return truncated(d, at, out.pos);
	}
	return (int64_t)out.pos;
}
#endif

/* ---- the decoder -------------------------------------------------------- */

int pc_zdec_new(pc_zdec **out, int kind, pc_zsrc src, void *arg,
		const unsigned char *first, size_t n)
{
	*out = NULL;
	pc_zdec *d = calloc(1, sizeof *d);
	if (!d || !(d->in = malloc(ZIN_BUF))) {
		free(d);
		return PC_ENOMEM;
	}
	d->kind = kind;
	d->src = src;
	d->arg = arg;
	if (n > ZIN_BUF)
		n = ZIN_BUF;
	memcpy(d->in, first, n);
	d->next = d->in;
	d->avail = n;
	d->fed = n;
	int ok = 1, have = 1;
	switch (kind) {
	case PC_Z_GZIP:
		ok = inflateInit2(&d->z, 15 + 16) == Z_OK;
		d->z_live = ok;
		break;
	case PC_Z_XZ:
#if PC_HAVE_XZ
		d->x = (lzma_stream)LZMA_STREAM_INIT;
		ok = lzma_stream_decoder(&d->x, PC_XZ_MEMLIMIT, LZMA_CONCATENATED) == LZMA_OK;
		d->x_live = ok;
#else
		have = 0;
#endif
		break;
	case PC_Z_ZSTD:
#if PC_HAVE_ZSTD
		d->zs = ZSTD_createDStream();
		ok = d->zs &&
		     !ZSTD_isError(ZSTD_DCtx_setParameter(d->zs, ZSTD_d_windowLogMax,
							  PC_ZSTD_WINDOWLOG));
		d->zs_hint = 1; /* inside a frame until one ends */
#else
		have = 0;
#endif
		break;
	default:
		have = 0;
	}
	if (!ok) {
		pc_zdec_free(d);
		return PC_ENOMEM;
	}
	if (!have) {
		const char *lib = kind == PC_Z_XZ ? "liblzma" : "libzstd";
		d->fail = PC_EUNSUPPORTED;
		d->fail_at = 0;
		snprintf(d->msg, sizeof d->msg,
			 "%s-compressed input, and this build of libprofcore has no %s support (%s): decompress it first with %s -dc (a pipe will do)",
			 kind_names[kind], kind_names[kind], lib, kind_names[kind]);
	}
	*out = d;
	return PC_OK;
}

const char *pc_zdec_error(const pc_zdec *d, int64_t *at)
{
	*at = d->fail_at;
	return d->fail ? d->msg : NULL;
}

int64_t pc_zdec_read(pc_zdec *d, uint64_t at, unsigned char *dst, size_t n)
{
	if (d->fail)
		return d->fail;
	if (n == 0 || d->ended)
		return 0;
	switch (d->kind) {
	case PC_Z_GZIP:
		return gz_read(d, at, dst, n);
#if PC_HAVE_XZ
	case PC_Z_XZ:
		return xz_read(d, at, dst, n);
#endif
#if PC_HAVE_ZSTD
	case PC_Z_ZSTD:
		return zst_read(d, at, dst, n);
#endif
	default:
		return 0;
	}
}

void pc_zdec_free(pc_zdec *d)
{
	if (!d)
		return;
	if (d->z_live)
		inflateEnd(&d->z);
#if PC_HAVE_XZ
	if (d->x_live)
		lzma_end(&d->x);
#endif
#if PC_HAVE_ZSTD
	ZSTD_freeDStream(d->zs);
#endif
	free(d->in);
	free(d);
}
