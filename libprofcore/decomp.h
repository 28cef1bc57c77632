/* decomp.h - the compressed inputs a stream reads (stream.c): gzip (zlib),
 * xz (liblzma) and zstd (libzstd), recognised by their magic bytes. */
#ifndef PC_DECOMP_H
#define PC_DECOMP_H

#include "pc_base.h"

#include <stddef.h>
#include <stdint.h>

enum { PC_Z_NONE, PC_Z_GZIP, PC_Z_XZ, PC_Z_ZSTD };

/* Bytes pc_zdec_sniff needs to tell every kind (fewer: the whole input). */
#define PC_Z_MAGIC 6

/* The kind whose magic starts b[0..n), or PC_Z_NONE. */
PC_INTERNAL int pc_zdec_sniff(const unsigned char *b, size_t n);

/* Where a decoder reads its compressed bytes: up to n into dst; the count,
 * 0 at the end, or a negative status (the error set on the stream). */
typedef int64_t (*pc_zsrc)(void *arg, unsigned char *dst, size_t n);

typedef struct pc_zdec pc_zdec;

/* A decoder of kind reading from src, whose first n bytes (at most
 * 64 KiB, already read) are first[0..n).  PC_OK or PC_ENOMEM.  A kind
 * this build cannot read gives a decoder whose every read fails with
 * PC_EUNSUPPORTED and says what to do. */
PC_INTERNAL int pc_zdec_new(pc_zdec **out, int kind, pc_zsrc src, void *arg,
			    const unsigned char *first, size_t n);
/* Up to n content bytes into dst, at content offset at: the count (at
 * least 1), 0 at the clean end of the last stream, or a negative status:
 * the source's (its error already said), or the decoder's, which
 * pc_zdec_error describes.  Bytes decoded before an error are returned
 * first, the error by the next call, and again by every call after it. */
PC_INTERNAL int64_t pc_zdec_read(pc_zdec *d, uint64_t at, unsigned char *dst,
				 size_t n);
/* The decoder's error (lower case, one line) and *at its content offset,
 * or NULL when it has none. */
PC_INTERNAL const char *pc_zdec_error(const pc_zdec *d, int64_t *at);
PC_INTERNAL void pc_zdec_free(pc_zdec *d);

#endif
