/* model.h - the profile structure; private to the libprofcore sources. */
#ifndef PC_MODEL_H
#define PC_MODEL_H

#include "pc_base.h"
#include "diag.h"
#include "samples.h"
#include "report.h"

typedef struct pc_hist {
	pc_histogram h; /* h.counts points at counts */
	uint64_t *counts;
	uint64_t any;   /* the OR of the counts (pc_counts_or), kept with
			   them: set where they are made or changed */
	int borrowed;   /* counts are another profile's (pc_profile_merge_
			   borrowing): never freed here, copied before a
			   change */
} pc_hist;

/* A treap over histogram indices (profile.c): left and right children
 * per histogram, SIZE_MAX for none; priorities are a hash of the index. */
typedef struct pc_htree {
	size_t root;
	size_t *l, *r;
} pc_htree;

/* A source line row of pc_profile_add_line. */
typedef struct pc_lineinfo {
	uint32_t segment;
	uint64_t address;
	const char *file; /* in the profile's pool */
	unsigned line;
} pc_lineinfo;

/* Attribution target (a row): sorted by (segment, address). */
typedef struct pc_target {
	size_t symbol;
	uint64_t address, end;
	double count;
	uint64_t calls, self_calls;
	uint32_t segment;
	int excluded; /* (beside segment: 56 bytes a target, not 64) */
} pc_target;

struct pc_profile {
	const pc_registry *reg;
	pc_diag diag; /* errors, warnings, notes (diag.c) */
	pc_strpool pool;

	pc_symbol *syms;
	size_t nsyms, capsyms;
	/* the last file and section names pooled for a symbol: a run of
	 * symbols of one object file or section shares one copy */
	const char *last_file, *last_section;
	/* display names (demangle.c), filled on first use: an array of
	 * every symbol's (display, NULL = not yet) */
	const char **display;
	size_t ndisplay, capdisplay;
	int demangle; /* rows show display names (the "demangle" option) */
	/* symbol names are "NAME SUFFIX" (granularity line and address,
	 * lines.c: "NAME (FILE:LINE @ ADDR)", "NAME+0xOFF @ ADDR"): the
	 * display name is NAME's followed by SUFFIX */
	int split_names;
	/* display names of names that are no symbol's (DWARF function
	 * names), by the name's address: pc_name_display */
	struct pc_nslot *nmap;
	size_t nmapn, nmapcap;
	pc_region *regions;
	size_t nregions, capregions;
	pc_hist *hists;
	size_t nhists, caphists;
	/* histograms by range, so that adding one is O(log n): span holds
	 * those with low < high by (segment, low) (they never overlap), zero
	 * those with low == high by (segment, low, nbins, unit) */
	pc_htree hspan, hzero;
	size_t hcap; /* entries of the trees' arrays */
	pc_arc *arcs;
	size_t narcs, caparcs;
	pc_sample *calls; /* pc_profile_add_calls: callee address, count */
	size_t ncalls, capcalls;
	pc_lineinfo *lines; /* pc_profile_add_line (map line numbers) */
	size_t nlines, caplines;
	pc_samplestore *samples;
	struct pc_timeline *timeline; /* the input's order (timeline.c), or NULL */
	uint64_t class_samples[PC_REGION_COUNT];
	const char **ctx_name; /* pc_profile_add_context_samples */
	uint64_t *ctx_count;
	size_t nctx, capctx, capctx2;
	int64_t lost_off[PC_LOST_KEEP]; /* pc_profile_add_lost */
	uint64_t lost_after[PC_LOST_KEEP];
	uint64_t nlost;

	double rate, duration;
	const char *dimension;
	char abbrev;
	const char *program;
	unsigned width;
	pc_endian endian;
	int exact; /* counts are exact event counts, not samples (statistics.c) */
	const char **src_format, **src_file;
	const char **meta_key, **meta_val;
	size_t nmeta, capmeta, capmeta2;
	size_t nsrc, capsrc, capsrc2;

	/* attribution cache: 0 stale, 1 the targets only (pc_attrib_targets:
	 * their counts and calls not yet credited, attr_ss their symbol
	 * selections, resolved), 2 complete */
	int valid;
	struct pc_symspecs *attr_ss;
	/* the attribution settings (pc_profile_attribute): kept until the
	 * caller changes them, never reset by adding data */
	int attr_bucket_start, attr_use_sizes;
	int cache_bucket_start, cache_use_sizes; /* the cache's settings */
	/* gprof's symbol selections ("gprof-symspecs", symspec.c): those
	 * given last and the cache's, owned, NULL for none */
	char *attr_specs, *cache_specs;
	int attr_reference; /* tests: no runs (pc_attrib_set_reference) */
	pc_target *targets;
	size_t ntargets;
	pc_itotals totals;
	/* lookup: per segment group, first-level table */
	struct pc_lookup *lookup;
	/* source level (dwarf.c, lines.c): given, or opened and owned */
	pc_dwarf *dwarf;
	pc_dwarf *own_dwarf;
};

/* The OR of histogram i's counts (i < pc_profile_histogram_count). */
static inline uint64_t pc_profile_hist_or(const pc_profile *p, size_t i)
{
	return p->hists[i].any;
}

/* Marks the attribution cache stale. */
void pc_profile_invalidate(pc_profile *p);
/* pc_profile_merge, but dst's histograms are src's (their counts not
 * copied: dst must be freed before src, and src's histograms must not
 * change meanwhile); dst holds no histogram overlapping src's. */
PC_INTERNAL int pc_profile_merge_borrowing(pc_profile *dst, const pc_profile *src);
/* Histogram h of another profile added to p without a copy of its counts
 * (pc_profile_merge_borrowing); as pc_profile_add_histogram otherwise. */
PC_INTERNAL int pc_profile_borrow_histogram(pc_profile *p, const pc_hist *h);
/* Room for n more symbols, allocated now (exactly: no doubling);
 * PC_ENOMEM. */
PC_INTERNAL int pc_profile_reserve_symbols(pc_profile *p, size_t n);
/* pc_profile_add_symbol for a symbol whose name is p's already (made in
 * p->pool, e.g. by pc_strpool_alloc): the name is not copied. */
PC_INTERNAL int pc_profile_add_symbol_kept(pc_profile *p, const pc_symbol *sym);
/** Rebuilds the histogram index after ranges changed in place (merge
 *  re-binning); PC_OK or PC_ENOMEM. */
int pc_profile_hist_reindex(pc_profile *p);
void pc_attrib_free(pc_profile *p);
/* The attribution's targets (p->targets, p->lookup, each one's symbol,
 * address, end and exclusion) with the settings opts (NULL: the last
 * ones given), as pc_profile_attribute makes them, without the credit of
 * samples and calls, which pc_profile_attribute then adds to the same
 * targets: for what reads no count (the fit check, the source levels'
 * functions).  PC_OK or an error recorded on p. */
PC_INTERNAL int pc_attrib_targets(pc_profile *p, const pc_attrib_options *opts);
/** The first of p's targets (built) in segment seg or above: targets come
 *  in (segment, address) order (p->ntargets: none). */
PC_INTERNAL size_t pc_attrib_seg_first(const pc_profile *p, uint32_t seg);
/* Tests only: 1 makes p's histogram attribution take every bucket on its
 * own (attrib.c's reference for its run path), 0 the default; marks the
 * attribution stale. */
void pc_attrib_set_reference(pc_profile *p, int on);

/* Do p's call arcs come from the mcount calls of the ELF program elf
 * (fit_mcount.c)?  checked: the ELF file was read and holds the code
 * (a debug file's NOBITS sections do not); calls_hook: it names
 * mcount (or _mcount, __fentry__, __gnu_mcount_nc...) at all; decoded:
 * its calls to the hook can be found (x86-64, i386, AArch64, ARM,
 * Thumb), and arcs_at_hook arcs have their callee end right after one. */
typedef struct pc_mcount_fit {
	int checked, calls_hook, decoded;
	size_t arcs_at_hook;
} pc_mcount_fit;
PC_INTERNAL int pc_fit_mcount(pc_profile *p, const char *elf, pc_mcount_fit *out);

#endif
