/*
 * samples.h - the store of aggregated raw samples (samples.c).
 * Private to libprofcore, the built-in loaders and the report engines
 * (internal.h includes every one of these).
 */
#ifndef PC_SAMPLES_H
#define PC_SAMPLES_H

#include "pc_base.h"
#include "diag.h"

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
/** What bounds the store's cells: the symbols (*syms, *nsyms of them)
 *  and regions (*regions, *nregions) of the profile holding the store,
 *  read afresh at every use (the profile grows them as they are added).
 *  Above PC_SAMPLES_EXACT_MAX distinct addresses, samples are counted per
 *  interval between symbol/region boundaries (exact per symbol and
 *  region, not per address), found with lookup.c's O(1) table. */
typedef struct pc_samplebounds {
	pc_symbol *const *syms;
	const size_t *nsyms;
	pc_region *const *regions;
	const size_t *nregions;
} pc_samplebounds;
/** The store's bounds (copied) and where its warnings go (both as long
 *  as the store). */
PC_INTERNAL void pc_samples_set_bounds(pc_samplestore *st, const pc_samplebounds *b,
				       pc_diag *diag);
/** Counting threads: 0 = one per core (at most PC_MAX_THREADS). */
PC_INTERNAL void pc_samples_set_threads(pc_samplestore *st, unsigned n);
PC_INTERNAL unsigned pc_samples_threads(const pc_samplestore *st);
/** 1 once samples are counted per cell rather than per address. */
PC_INTERNAL int pc_samples_binned(const pc_samplestore *st);
/** Samples whose cell was cut by a boundary added after they were counted
 *  (they stay at the cell start; the profile carries a warning). */
PC_INTERNAL uint64_t pc_samples_displaced(const pc_samplestore *st);

#endif
