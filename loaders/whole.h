/*
 * whole.h - the rest of a stream in one piece, for the loaders that parse
 * a whole file at once (gmon.c, elf.c).  A regular file of 1 MiB or more
 * is mapped, no copy (a 10^6-bin gmon.out, a 4 MB executable): its pages
 * populated for a loader that reads every byte (gmon.c: no page fault per
 * 4 KiB page), not for one that reads parts (elf.c reads the headers and
 * the symbol tables; most of a -g program is DWARF, read only by the
 * source-level reports, through libdw's own mapping); anything else is
 * read with pc_stream_read_all.  The bytes stay valid until pc_whole_done, if
 * the loader borrows nothing more from the stream.  Private to loaders/.
 */
#ifndef PC_LOADERS_WHOLE_H
#define PC_LOADERS_WHOLE_H

#include "internal.h"

#include <stdlib.h>
#include <string.h>

typedef struct pc_whole {
	const unsigned char *b; /* the bytes (read only)                 */
	size_t len;
	void *own;              /* read: free with pc_free               */
	void *mbase;            /* mapped here: pc_stream_unmap          */
	size_t mlen;
} pc_whole;

/* The map of the rest of s (n bytes) when s is a plain regular file; 0
 * when it is not (nothing consumed then). */
static int pc_whole_map(pc_stream *s, uint64_t n, uint64_t max, int populate, pc_whole *w)
{
	if (n < ((uint64_t)1 << 20) || n > max || n > SIZE_MAX || pc_stream_is_compressed(s))
		return 0;
	/* what the stream has buffered (the head it detected the format
	 * on) comes first: the file's bytes just before its position */
	const unsigned char *d;
	int64_t k = pc_stream_borrow_part(s, (size_t)n, &d);
	if (k < 0)
		return (int)k;
	if ((uint64_t)k == n) {
		/* the whole rest in one piece already (nothing was buffered:
		 * the stream's own window, or a caller's memory), valid until
		 * s is borrowed from again: the loaders do not */
		w->b = d;
		w->len = (size_t)n;
		return 1;
	}
	uint64_t at, bytes;
	const unsigned char *m = NULL;
	if (pc_stream_mappable(s, &at, &bytes) && at >= (uint64_t)k &&
	    bytes == n - (uint64_t)k)
		m = pc_stream_map_at(s, at - (uint64_t)k, (size_t)n, populate, &w->mbase,
				     &w->mlen);
	if (m) {
		int r = pc_stream_seek_past(s, bytes);
		if (r) {
			pc_stream_unmap(w->mbase, w->mlen);
			w->mbase = NULL;
			return r;
		}
		w->b = m;
		w->len = (size_t)n;
		return 1;
	}
	/* not mappable after all: the prefix, then the rest read */
	unsigned char *buf = malloc((size_t)n + 1);
	if (!buf)
		return pc_stream_fail(s, PC_ENOMEM, -1, "out of memory");
	memcpy(buf, d, (size_t)k);
	void *rest;
	size_t rlen;
	int r = pc_stream_read_all(&rest, &rlen, s, max - (uint64_t)k);
	if (r) {
		free(buf);
		return r;
	}
	if (rlen != n - (uint64_t)k) { /* (the file changed meanwhile) */
		free(buf);
		pc_free(rest);
		return pc_stream_fail(s, PC_EIO, -1, "the file changed while it was read");
	}
	memcpy(buf + k, rest, rlen);
	pc_free(rest);
	w->own = buf;
	w->b = buf;
	w->len = (size_t)n;
	return 1;
}

/* The rest of s, at most max bytes (more: PC_ELIMIT, as
 * pc_stream_read_all says it); populate: the loader reads every byte. */
static int pc_whole_get(pc_stream *s, uint64_t max, int populate, pc_whole *w)
{
	memset(w, 0, sizeof *w);
	uint64_t size;
	int known;
	uint64_t start = pc_stream_offset(s);
	if (pc_stream_size(&size, &known, s) == PC_OK && known && size >= start) {
		int r = pc_whole_map(s, size - start, max, populate, w);
		if (r < 0)
			return r;
		if (r)
			return PC_OK;
	}
	void *buf;
	int r = pc_stream_read_all(&buf, &w->len, s, max);
	if (r)
		return r;
	w->own = buf;
	w->b = buf;
	return PC_OK;
}

static void pc_whole_done(pc_whole *w)
{
	if (w->mbase)
		pc_stream_unmap(w->mbase, w->mlen);
	else
		pc_free(w->own);
	memset(w, 0, sizeof *w);
}

#endif
