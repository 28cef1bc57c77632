/*
 * stream.h - what the core uses of streams (stream.c) beyond the public
 * API: streams mapped by the counting threads (samples.c).
 * Private to libprofcore, the built-in loaders and the report engines
 * (internal.h includes every one of these).
 */
#ifndef PC_STREAM_H
#define PC_STREAM_H

#include "pc_base.h"

/* ---- streams mapped by counting threads (stream.c) --------------------- */
/** 1 when the rest of s can be mapped directly (a plain regular file of
 *  at least 1 MiB, nothing buffered, not compressed): *at is the file
 *  offset of the stream's position, *bytes what follows it; else 0.
 *  Drops the window of the last pc_stream_borrow(). */
PC_INTERNAL int pc_stream_mappable(pc_stream *s, uint64_t *at, uint64_t *bytes);
/** Maps len bytes of s's file at file offset off, its pages populated
 *  when populate is non-zero (a caller that reads them all), else
 *  faulted in as they are read (a caller that reads parts).
 *  Thread-safe: s is not changed (its position neither).  The bytes, or
 *  NULL; release with pc_stream_unmap(*base, *maplen). */
PC_INTERNAL const unsigned char *pc_stream_map_at(const pc_stream *s,
						  uint64_t off, size_t len, int populate,
						  void **base, size_t *maplen);
PC_INTERNAL void pc_stream_unmap(void *base, size_t maplen);
/** Makes up to n bytes from the current position readable without
 *  consuming them: *at points at them, *len is how many there are (fewer
 *  at the end of the content).  PC_OK or a negative status. */
PC_INTERNAL int pc_stream_lookahead(pc_stream *s, size_t n, const unsigned char **at,
				    size_t *len);
/** Moves s past n bytes read with pc_stream_map_at() (after
 *  pc_stream_mappable() said yes). */
PC_INTERNAL int pc_stream_seek_past(pc_stream *s, uint64_t n);

#endif
