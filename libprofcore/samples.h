/*
 * samples.h - streams mapped by the counting threads (stream.c) and the
 * store of aggregated raw samples (samples.c).
 * Private to libprofcore, the built-in loaders and the report engines
 * (internal.h includes every one of these).
 */
#ifndef PC_SAMPLES_H
#define PC_SAMPLES_H

#include "pc_base.h"

/* ---- streams mapped by counting threads (stream.c) --------------------- */
/** 1 when the rest of s can be mapped directly (a plain regular file of
 *  at least 1 MiB, nothing buffered, not compressed): *at is the file
 *  offset of the stream's position, *bytes what follows it; else 0.
 *  Drops the window of the last pc_stream_borrow(). */
PC_INTERNAL int pc_stream_mappable(pc_stream *s, uint64_t *at, uint64_t *bytes);
/** Maps len bytes of s's file at file offset off, pages populated.
 *  Thread-safe: s is not changed (its position neither).  The bytes, or
 *  NULL; release with pc_stream_unmap(*base, *maplen). */
PC_INTERNAL const unsigned char *pc_stream_map_at(const pc_stream *s,
						  uint64_t off, size_t len,
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

/* ---- aggregated raw samples (samples.c) ------------------------------- */
typedef struct pc_sample {
	uint32_t segment;
	uint64_t address;
	uint64_t count;
} pc_sample;

typedef struct pc_samplestore pc_samplestore;
PC_INTERNAL pc_samplestore *pc_samples_new(void);
PC_INTERNAL void pc_samples_free(pc_samplestore *st);
PC_INTERNAL int pc_samples_add(pc_samplestore *st, uint32_t seg, uint64_t addr,
			       uint64_t count);
PC_INTERNAL int pc_samples_add_many(pc_samplestore *st, uint32_t seg,
				    const uint64_t *addrs, size_t n);
/** n records of layout l (already checked by pc_profile_add_records). */
PC_INTERNAL int pc_samples_add_records(pc_samplestore *st, uint32_t seg,
				       const unsigned char *records, size_t n,
				       const pc_record_layout *l);
/** n records of layout l at file offset at of s (pc_stream_mappable()),
 *  each thread mapping and counting its own part window by window, when
 *  the samples are binned: PC_OK.  1 when this store would count them
 *  one by one (not binned yet): the caller reads them.  A window that
 *  cannot be mapped: PC_EIO and *fail_at, its file offset. */
PC_INTERNAL int pc_samples_add_mapped(pc_samplestore *st, uint32_t seg,
				      const pc_stream *s, uint64_t at,
				      uint64_t n, const pc_record_layout *l,
				      uint64_t *fail_at);
/** Number of distinct (segment, address) pairs. */
PC_INTERNAL size_t pc_samples_distinct(const pc_samplestore *st);
/** The distinct samples sorted by (segment, address); valid until the
 *  next add.  NULL on allocation failure (when distinct > 0). */
PC_INTERNAL const pc_sample *pc_samples_sorted(pc_samplestore *st);
/** The profile whose symbols and regions bound the store's cells: above
 *  PC_SAMPLES_EXACT_MAX distinct addresses, samples are counted per
 *  interval between symbol/region boundaries (exact per symbol and region,
 *  not per address), found with lookup.c's O(1) table. */
PC_INTERNAL void pc_samples_set_owner(pc_samplestore *st, pc_profile *owner);
/** Counting threads: 0 = one per core (at most PC_MAX_THREADS). */
PC_INTERNAL void pc_samples_set_threads(pc_samplestore *st, unsigned n);
PC_INTERNAL unsigned pc_samples_threads(const pc_samplestore *st);
/** 1 once samples are counted per cell rather than per address. */
PC_INTERNAL int pc_samples_binned(const pc_samplestore *st);
/** Samples whose cell was cut by a boundary added after they were counted
 *  (they stay at the cell start; the profile carries a warning). */
PC_INTERNAL uint64_t pc_samples_displaced(const pc_samplestore *st);

#endif
