/*
 * pc_base.h - what every part of the library uses: the PC_INTERNAL
 * marker, checked arithmetic, allocation, error slots, the string pool, the
 * rule for adding up captures and symbols added from the pool.
 * Private to libprofcore, the built-in loaders and the report engines
 * (internal.h includes every one of these).
 */
#ifndef PC_BASE_H
#define PC_BASE_H

#include "profcore_plugin.h" /* and profcore.h */

#include <stdarg.h>
#include <stdbool.h>

#if defined(_WIN32)
#define PC_INTERNAL /* a DLL exports only what is marked PC_API */
#else
#define PC_INTERNAL __attribute__((visibility("hidden")))
#endif

/* ---- checked arithmetic -------------------------------------------- */
static inline bool pc_add_overflow(uint64_t a, uint64_t b, uint64_t *r)
{
	*r = a + b;
	return *r < a;
}
static inline bool pc_mul_overflow(uint64_t a, uint64_t b, uint64_t *r)
{
	if (a != 0 && b > UINT64_MAX / a)
		return true;
	*r = a * b;
	return false;
}

/* ---- allocation ----------------------------------------------------- */
/** Grows *ptr (array of elem-sized items, capacity *cap) to hold need
 *  items; returns PC_OK or PC_ENOMEM.  Overflow-safe. */
PC_INTERNAL int pc_grow(void **ptr, size_t *cap, size_t need, size_t elem);
PC_INTERNAL char *pc_strdup(const char *s);
/** The last '/'-separated part of a path (the path itself without one). */
PC_INTERNAL const char *pc_basename(const char *path);
/** Stable merge sort of the n indexes v (tmp: room for n), in glibc
 *  qsort's order even for a comparison that is not consistent (call
 *  graph ties, as gprof sorts them); O(n log n). */
PC_INTERNAL void pc_sort_idx(size_t *v, size_t n, size_t *tmp,
			     int (*cmp)(const void *ctx, size_t a, size_t b),
			     const void *ctx);
PC_INTERNAL char *pc_strndup(const char *s, size_t n);
/* A capture metadata value written as a hex number (0x prefix optional):
 * 1 and *out, or 0 when the key is absent or the value malformed. */
PC_INTERNAL int pc_profile_meta_hex(const pc_profile *p, const char *key, uint64_t *out);
/* The bitwise OR of c[0..n): the widest count's bits, four at a time
 * (about 1.25 instructions a count on a 10^6-bin histogram). */
PC_INTERNAL uint64_t pc_counts_or(const uint64_t *c, size_t n);
/** n unsigned integers of width bytes each from p, in byte order e (bulk
 *  pc_get_uint: histogram counters); returns their OR (pc_counts_or of
 *  out, computed on the way). */
PC_INTERNAL uint64_t pc_get_uints(uint64_t *out, const void *p, size_t n,
				  unsigned width, pc_endian e);

/* ---- error slots ---------------------------------------------------- */
typedef struct pc_errslot {
	pc_error pub;
	char *file;
	char *message;
} pc_errslot;

PC_INTERNAL void pc_errslot_set(pc_errslot *e, int code, const char *file,
				int64_t offset, const char *fmt, va_list ap);
/** pc_profile_fail with the file and byte offset the error concerns (an
 *  error about another file than the stream being read: DWARF, a
 *  program's code). */
PC_INTERNAL int pc_profile_fail_at(pc_profile *p, int code, const char *file,
				   int64_t off, const char *fmt, ...)
	PC_PRINTF(5, 6);
PC_INTERNAL void pc_errslot_copy(pc_errslot *dst, const pc_errslot *src);
PC_INTERNAL void pc_errslot_clear(pc_errslot *e);
PC_INTERNAL void pc_errslot_fill_file(pc_errslot *e, const char *file);
/** The stream functions with a count-or-status result, for the core:
 *  the content size or -1 when unknown; bytes read or borrowed (0 at
 *  the end) or a negative status. */
PC_INTERNAL int64_t pc_stream_known_size(const pc_stream *s);
/** Opens path as pc_stream_open_file does, but only a regular file, and
 *  without waiting on a FIFO or device (pc_plat_open_regular): else
 *  PC_EIO, "not a regular file" (pc_last_error()). */
PC_INTERNAL int pc_stream_open_regular(pc_stream **out, const char *path);
PC_INTERNAL int64_t pc_stream_read_part(pc_stream *s, void *buf, size_t n);
PC_INTERNAL int64_t pc_stream_borrow_part(pc_stream *s, size_t n,
					  const unsigned char **data);
/** Records the thread's pc_last_error() (a constructor failing before
 *  its handle exists) and returns code. */
PC_INTERNAL int pc_last_error_set(int code, const char *file,
				  const char *fmt, ...) PC_PRINTF(3, 4);
/** Copies min(out_size, full_size) bytes of a filled output struct to
 *  the caller's (struct_size rule, profcore.h); PC_EUSAGE for out NULL
 *  or out_size 0. */
PC_INTERNAL int pc_copy_sized(void *out, size_t out_size, const void *full,
			      size_t full_size);

/* ---- string pool (strings live as long as their profile) ------------ */
typedef struct pc_strpool {
	struct pc_strchunk *head;
} pc_strpool;
PC_INTERNAL const char *pc_strpool_add(pc_strpool *sp, const char *s);
PC_INTERNAL const char *pc_strpool_addn(pc_strpool *sp, const char *s,
					size_t n);
PC_INTERNAL void pc_strpool_free(pc_strpool *sp);
/* Room for a string of n bytes in the pool, its terminating NUL written
 * (the caller writes the n bytes); NULL when out of memory. */
PC_INTERNAL char *pc_strpool_alloc(pc_strpool *sp, size_t n);

/* A hint to fetch the memory at p into the cache ahead of its use (loops
 * reading big arrays in an order of their own); nothing elsewhere. */
#if defined(__GNUC__) || defined(__clang__)
#define PC_PREFETCH(p) __builtin_prefetch(p)
#else
#define PC_PREFETCH(p) ((void)0)
#endif

/** pc_profile_add_histogram keeping counts (== h->counts, from malloc)
 *  as the histogram's store instead of a copy: counts is the profile's
 *  or freed, whatever the result (a loader's bins decoded once).  any:
 *  the OR of the counts when the caller has it (pc_get_uints), else
 *  NULL (then computed here). */
PC_INTERNAL int pc_profile_adopt_histogram(pc_profile *p, const pc_histogram *h,
					   uint64_t *counts, const uint64_t *any);

/* ---- one rule for adding up captures (fit.c) --------------------------- */
/** PC_OK when captures at rates have and adding (0 = unknown) may be
 *  added up, else PC_EUNSUPPORTED recorded on p. */
PC_INTERNAL int pc_rates_check(pc_profile *p, double have, double adding);

/* ---- statistics behind the diff (statistics.c) ------------------------- */
/** The standard normal quantile: x with P(Z <= x) = p, 0 < p < 1. */
PC_INTERNAL double pc_stats_quantile(double p);
/** Mee's score interval (Biometrics 40, 1984) for p2 - p1, k1 of n1
 *  before, k2 of n2 after, at the two-sided critical value z: the
 *  differences d that the score test of "p2 - p1 = d" does not reject,
 *  its variance from the maximum-likelihood proportions under d
 *  (Farrington and Manning's closed form).  At d = 0 the score statistic
 *  is the pooled two-proportion z statistic (pc_stats_two_proportion),
 *  so the interval excludes 0 exactly when that test rejects at z. */
PC_INTERNAL void pc_stats_score_interval(double k1, double n1, double k2, double n2,
					 double z, double *lo, double *hi);

#endif
