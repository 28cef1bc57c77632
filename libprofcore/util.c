/* util.c - allocation, strings, error slots, string pool, byte readers. */
#include "pc_base.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *pc_basename(const char *path)
{
	const char *b = strrchr(path, '/');
	return b ? b + 1 : path;
}

int pc_grow(void **ptr, size_t *cap, size_t need, size_t elem)
{
	if (need <= *cap)
		return PC_OK;
	size_t ncap = *cap ? *cap : 16;
	while (ncap < need) {
		if (ncap > SIZE_MAX / 2)
			return PC_ENOMEM;
		ncap *= 2;
	}
	if (elem && ncap > SIZE_MAX / elem)
		return PC_ENOMEM;
	void *n = realloc(*ptr, ncap * elem);
	if (!n)
		return PC_ENOMEM;
	*ptr = n;
	*cap = ncap;
	return PC_OK;
}

char *pc_strndup(const char *s, size_t n)
{
	char *r = malloc(n + 1);
	if (!r)
		return NULL;
	memcpy(r, s, n);
	r[n] = '\0';
	return r;
}

char *pc_strdup(const char *s)
{
	return s ? pc_strndup(s, strlen(s)) : NULL;
}

void pc_free(void *ptr)
{
	free(ptr);
}

const char *pc_version(void)
{
	return PC_VERSION_STRING;
}

const char *pc_status_name(int status)
{
	switch (status) {
	case PC_OK: return "ok";
	case PC_EIO: return "i/o error";
	case PC_EFORMAT: return "malformed input";
	case PC_ETRUNC: return "truncated input";
	case PC_ENOMEM: return "out of memory";
	case PC_EUNSUPPORTED: return "unsupported variant";
	case PC_EUSAGE: return "bad argument";
	case PC_EUNKNOWN: return "unrecognised format";
	case PC_ELIMIT: return "resource limit exceeded";
	case PC_EAMBIGUOUS: return "ambiguous input";
	case PC_ENOTFOUND: return "not found";
	default: return "unknown status";
	}
}

/* ---- error slots ---------------------------------------------------- */

void pc_errslot_clear(pc_errslot *e)
{
	free(e->file);
	free(e->message);
	memset(e, 0, sizeof *e);
	e->pub.offset = -1;
}

void pc_errslot_set(pc_errslot *e, int code, const char *file, int64_t offset,
		    const char *fmt, va_list ap)
{
	char buf[1024];
	vsnprintf(buf, sizeof buf, fmt, ap);
	char *f = file ? pc_strdup(file) : NULL;
	pc_errslot_clear(e);
	e->file = f;
	e->message = pc_strdup(buf);
	e->pub.code = code;
	e->pub.offset = offset;
	e->pub.file = e->file;
	e->pub.message = e->message ? e->message : "out of memory";
}

void pc_errslot_copy(pc_errslot *dst, const pc_errslot *src)
{
	if (dst == src)
		return;
	char *f = src->file ? pc_strdup(src->file) : NULL;
	char *m = src->message ? pc_strdup(src->message) : NULL;
	pc_errslot_clear(dst);
	dst->file = f;
	dst->message = m;
	dst->pub.code = src->pub.code;
	dst->pub.offset = src->pub.offset;
	dst->pub.file = f;
	dst->pub.message = m ? m : (src->pub.code ? "out of memory" : NULL);
}

void pc_errslot_fill_file(pc_errslot *e, const char *file)
{
	if (e->file || !file)
		return;
	e->file = pc_strdup(file);
	e->pub.file = e->file;
}

/* ---- string pool ------------------------------------------------------ */

struct pc_strchunk {
	struct pc_strchunk *next;
	size_t used, cap;
	char data[];
};

char *pc_strpool_alloc(pc_strpool *sp, size_t n)
{
	struct pc_strchunk *c = sp->head;
	if (n >= SIZE_MAX / 2)
		return NULL;
	if (!c || c->cap - c->used < n + 1) {
		size_t cap = n + 1 > 65536 ? n + 1 : 65536;
		struct pc_strchunk *nc = malloc(sizeof *nc + cap);
		if (!nc)
			return NULL;
		nc->used = 0;
		nc->cap = cap;
		nc->next = sp->head;
		sp->head = nc;
		c = nc;
	}
	char *r = c->data + c->used;
	r[n] = '\0';
	c->used += n + 1;
	return r;
}

const char *pc_strpool_addn(pc_strpool *sp, const char *s, size_t n)
{
	char *r = pc_strpool_alloc(sp, n);
	if (r)
		memcpy(r, s, n);
	return r;
}

const char *pc_strpool_add(pc_strpool *sp, const char *s)
{
	return s ? pc_strpool_addn(sp, s, strlen(s)) : NULL;
}

void pc_strpool_free(pc_strpool *sp)
{
	struct pc_strchunk *c = sp->head;
	while (c) {
		struct pc_strchunk *n = c->next;
		free(c);
		c = n;
	}
	sp->head = NULL;
}

/* ---- byte readers ------------------------------------------------------ */

uint64_t pc_get_uint(const void *p, unsigned width, pc_endian e)
{
	const unsigned char *b = p;
	uint64_t v = 0;
	if (width > 8)
		width = 8;
	if (e == PC_ENDIAN_BIG) {
		for (unsigned i = 0; i < width; i++)
			v = (v << 8) | b[i];
	} else {
		for (unsigned i = width; i-- > 0;)
			v = (v << 8) | b[i];
	}
	return v;
}

uint64_t pc_get_uints(uint64_t *out, const void *p, size_t n, unsigned width,
		      pc_endian e)
{
	const unsigned char *b = p;
	int big = e == PC_ENDIAN_BIG;
	uint64_t any = 0;
	/* the common widths as loops the compiler can unroll and vectorise
	 * (the OR too: a reduction); 16 bits (gmon's counters) four at a
	 * time, an OR each */
	if (width == 2) {
		uint64_t a1 = 0, a2 = 0, a3 = 0;
		size_t i = 0;
#define U16X4(H, L)                                                        \
	for (; i + 4 <= n; i += 4, b += 8) {                                 \
		uint64_t v0 = (uint64_t)b[H] << 8 | b[L];                    \
		uint64_t v1 = (uint64_t)b[2 + H] << 8 | b[2 + L];            \
		uint64_t v2 = (uint64_t)b[4 + H] << 8 | b[4 + L];            \
		uint64_t v3 = (uint64_t)b[6 + H] << 8 | b[6 + L];            \
		out[i] = v0, out[i + 1] = v1, out[i + 2] = v2, out[i + 3] = v3; \
		any |= v0, a1 |= v1, a2 |= v2, a3 |= v3;                      \
	}                                                                    \
	for (; i < n; i++, b += 2)                                           \
		any |= out[i] = (uint64_t)b[H] << 8 | b[L];
		if (big) {
			U16X4(0, 1)
		} else {
			U16X4(1, 0)
		}
#undef U16X4
		any |= a1 | a2 | a3;
	} else if (width == 4) {
		for (size_t i = 0; i < n; i++, b += 4)
			any |= out[i] = big ? (uint64_t)b[0] << 24 | (uint64_t)b[1] << 16 |
						      (uint64_t)b[2] << 8 | b[3]
					    : (uint64_t)b[3] << 24 | (uint64_t)b[2] << 16 |
						      (uint64_t)b[1] << 8 | b[0];
	} else {
		for (size_t i = 0; i < n; i++, b += width)
			any |= out[i] = pc_get_uint(b, width, e);
	}
	return any;
}

/* (the widths spelt out: a load, and a byte swap for the other order,
 * where pc_get_uint loops) */
uint16_t pc_get_u16(const void *p, pc_endian e)
{
	const unsigned char *b = p;
	return e == PC_ENDIAN_BIG ? (uint16_t)(b[0] << 8 | b[1]) : (uint16_t)(b[1] << 8 | b[0]);
}

static uint32_t get32(const unsigned char *b, pc_endian e)
{
	if (e == PC_ENDIAN_BIG)
		return (uint32_t)b[0] << 24 | (uint32_t)b[1] << 16 | (uint32_t)b[2] << 8 | b[3];
	return (uint32_t)b[3] << 24 | (uint32_t)b[2] << 16 | (uint32_t)b[1] << 8 | b[0];
}

uint32_t pc_get_u32(const void *p, pc_endian e)
{
	return get32(p, e);
}

uint64_t pc_get_u64(const void *p, pc_endian e)
{
	const unsigned char *b = p;
	uint64_t hi = get32(b + (e == PC_ENDIAN_BIG ? 0 : 4), e),
		 lo = get32(b + (e == PC_ENDIAN_BIG ? 4 : 0), e);
	return hi << 32 | lo;
}

/* ---- the thread's last constructor error (pc_last_error) ----------- */

static _Thread_local struct {
	pc_error pub;
	int set;
	char file[512];
	char message[512];
} last_error;

int pc_last_error_set(int code, const char *file, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(last_error.message, sizeof last_error.message, fmt, ap);
	va_end(ap);
	last_error.pub.code = code;
	last_error.pub.offset = -1;
	last_error.pub.message = last_error.message;
	if (file) {
		snprintf(last_error.file, sizeof last_error.file, "%s", file);
		last_error.pub.file = last_error.file;
	} else {
		last_error.pub.file = NULL;
	}
	last_error.set = 1;
	return code;
}

const pc_error *pc_last_error(void)
{
	return last_error.set ? &last_error.pub : NULL;
}

int pc_copy_sized(void *out, size_t out_size, const void *full,
		  size_t full_size)
{
	if (!out || out_size == 0)
		return PC_EUSAGE;
	memcpy(out, full, out_size < full_size ? out_size : full_size);
	return PC_OK;
}

uint64_t pc_counts_or(const uint64_t *c, size_t n)
{
	uint64_t a0 = 0, a1 = 0, a2 = 0, a3 = 0;
	size_t i = 0;
	for (; i + 4 <= n; i += 4) {
		a0 |= c[i];
		a1 |= c[i + 1];
		a2 |= c[i + 2];
		a3 |= c[i + 3];
	}
	for (; i < n; i++)
		a0 |= c[i];
	return a0 | a1 | a2 | a3;
}
