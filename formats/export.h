/*
 * export.h - private interface of the exporters (formats/export_*.c).
 *
 * Every exporter reads the same view of an attributed profile, built once
 * by pc_xmodel_build() in xmodel.c from the public attribution API:
 *
 *  - frames: one per attributed symbol that has samples or takes part in
 *    a call arc, plus one pseudo-frame per region class holding samples
 *    outside the program ("[system]", "[dos]", ...; "[unattributed]" for
 *    samples in the program's code that no symbol covers);
 *  - sites: the per-address detail of each frame's self count (raw
 *    samples and histogram buckets), scaled so that the sites of a frame
 *    add up exactly to its attributed count;
 *  - arcs: call arcs resolved to frames and merged per (caller, callee);
 *  - chains: for each frame with self samples, its caller chains as
 *    (path root first, fraction of the frame's self), from the one
 *    call-path model of libprofcore/cgmodel.c (pc_callgraph_paths):
 *    gprof's propagation, a routine's time split among its callers in
 *    proportion to call counts; a cycle is one frame "<cycle N>" (cycle
 *    != 0, numbered as gprof -q numbers it) standing between the callers
 *    of the cycle and its member (caller;<cycle N>;member;callee...);
 *    self-recursive and intra-cycle calls carry no time; a root is a
 *    routine gprof calls <spontaneous>.  So the samples of the chains
 *    through a frame are its gprof -q inclusive time (self + children).
 *    estimated says some chain has callers from arcs (exports state it);
 *    option stacks=none gives every frame one one-frame chain.  A path
 *    cut at the model's limits ends in the frame "[call paths
 *    truncated]" (truncated samples, stated in the pprof comments).
 *    Chains of a leaf are in path order (a prefix tree, depth first).
 *  - arcs: as merged from the capture, except that an arc entering a
 *    cycle from outside becomes caller -> <cycle N>, and each member has
 *    an arc <cycle N> -> member (count: the member's calls as gprof -q
 *    shows them in the cycle's entry); inclusive is the samples of the
 *    chains through the arc.
 *  - granularity: "function"/"symbol" (by_symbol), "address" (sites per
 *    sampled address), "line" (sites at gprof -l's line symbols and
 *    dwarf set: pc_xmodel_srcpos gives file/line and the inline chain's
 *    outermost position).  pprof defaults to function, the others to
 *    address.
 *
 *  - filters: --focus and --ignore keep the chains with a frame matching
 *    focus and none matching ignore, --hide then takes the matching
 *    frames out of the chains (exports.c filter_chains, hide_frames);
 *    filters says which were given.
 *
 *  A capture without any sample whose arcs carry flat times (MPW Proff)
 *  is exported by those times instead ("arc time", microseconds): a
 *  frame's self count is the flat time of its incoming arcs, and the
 *  first caller of each chain is the arc's caller, as measured.
 */
#ifndef PC_EXPORT_H
#define PC_EXPORT_H

#include "internal.h"
#include "filter.h"

/* The keys every export reads (each export's table starts with them;
 * docs/exports.md): the attribution, what a frame is, the stacks, and
 * the filters (gmon refuses focus, ignore and hide: it has no stacks). */
#define PC_EXPORT_OPTION_DECLS                                                  \
	PC_ATTRIBUTION_OPTION_DECLS,                                            \
	    {"granularity", PC_OPTION_ENUM, "function,symbol,line,address", NULL, \
	     "what a frame is; default: function for pprof, else address"},      \
	    {"stacks", PC_OPTION_ENUM, "estimate,marked,none", "estimate",        \
	     "callers from call counts, under an [estimated] root, or none"},     \
	    PC_FILTER_OPTION_DECLS

/* ---- the shared view ------------------------------------------------ */

#define PC_XNONE ((size_t)-1)

typedef struct pc_xframe {
	const char *name;
	const char *file;  /* NULL if unknown */
	uint32_t segment;  /* PC_NOSEG for flat */
	uint64_t address;  /* symbol start (0 for pseudo-frames) */
	uint64_t end;
	int64_t row;       /* attribution row, -1 for a pseudo-frame */
	int cls;           /* region class of a pseudo-frame, -1 for rows */
	unsigned cycle;    /* N of a <cycle N> frame, 0 for the others */
	double self;       /* self samples */
	size_t first_site, nsites;
	size_t first_chain, nchains;
} pc_xframe;

typedef struct pc_xsite {
	size_t frame;
	uint32_t segment;
	uint64_t address;
	double count;
	int has_address; /* 0 for pseudo-frames and frames without detail */
} pc_xsite;

typedef struct pc_xarc {
	size_t caller, callee; /* frame indexes */
	uint32_t from_segment; /* lowest call site seen for the pair */
	uint64_t from;
	uint64_t count;
	double inclusive; /* samples flowing through this arc (from chains) */
	double ftime;     /* flat time of the callee under this arc (Proff) */
} pc_xarc;

/** A caller chain of a leaf frame: path[0] is the root, the last entry is
 *  the leaf itself. */
typedef struct pc_xchain {
	size_t leaf;
	size_t first, depth; /* into pc_xmodel.pathpool */
	double fraction;     /* share of the leaf's self samples */
} pc_xchain;

typedef struct pc_xmodel {
	pc_profile *p;
	pc_itotals totals;
	double rate;        /* Hz, 0 = unknown */
	int segmented;      /* some frame or site has a segment */
	int by_symbol;      /* option granularity=symbol */
	int lines;          /* option granularity=line: sites are gprof -l's
			       line symbols; dwarf is the program's DWARF */
	pc_dwarf *dwarf;    /* borrowed from the profile */
	/* What the frame and site counts are: samples, or, for a capture
	 * without samples whose arcs carry flat times (MPW Proff), those
	 * times in microseconds ("arc time"). */
	int arc_time;
	const char *value_type, *value_unit; /* pprof names: samples/count,
						time/microseconds */
	pc_xframe *frames;
	size_t nframes;
	pc_xsite *sites; /* sorted by (frame, segment, address) */
	size_t nsites;
	pc_xarc *arcs; /* sorted by (caller, callee); self arcs included */
	size_t narcs;
	pc_xchain *chains; /* grouped by leaf frame */
	size_t nchains;
	size_t *pathpool;
	size_t npath;
	uint64_t self_arc_calls; /* recursive calls left out of chains */
	int estimated;  /* some chain has callers derived from call arcs */
	int marked;     /* option stacks=marked */
	double truncated; /* samples in chains cut at the limits */
	char *namebuf;           /* storage of pseudo-frame names */
	char *cyclenames;        /* storage of the <cycle N> names */
	char *filters;  /* "focus RE, ignore RE, hide RE" as given (shown
			   form), NULL without filters: exports state it */
} pc_xmodel;

/** Attributes p with opts and builds the view.  On failure the error is
 *  recorded on the profile. */
PC_INTERNAL int pc_xmodel_build(pc_xmodel *m, pc_profile *p,
				const pc_options *opts);
PC_INTERNAL void pc_xmodel_free(pc_xmodel *m);
/** The source position of address in frame f (granularity=line with
 *  DWARF): the innermost file and line in *file, *line, and the
 *  outermost (the function's own) in *ofile, *oline; 0 when unknown. */
PC_INTERNAL int pc_xmodel_srcpos(const pc_xmodel *m, size_t f,
				 uint64_t address, const char **file,
				 unsigned *line, const char **ofile,
				 unsigned *oline);
/** Index of the arc caller -> callee, PC_XNONE if there is none. */
/* The chains merged into a tree (a prefix tree of the call paths), as
 * flame graphs draw it: nodes in depth-first order, each node's children
 * after it in frame order (by_name: the frames' names, then index), a
 * node's value the samples of every chain through it.  Bounded: nodes
 * worth less than min_value are left out, and when more than budget
 * nodes remain, the smallest too (a power-of-two threshold), so a deep or
 * wide graph costs time and memory in proportion to what is drawn; their
 * samples stay in their parents' values. */
typedef struct pc_xnode {
	size_t frame;
	size_t depth; /* 0: a root */
	double value;
} pc_xnode;
typedef struct pc_xtree {
	pc_xnode *v;
	size_t n;
	size_t elided;    /* nodes of the whole tree left out */
	double threshold; /* the least value kept */
	double total;     /* the samples of every chain */
} pc_xtree;
PC_INTERNAL int pc_xtree_build(pc_xtree *t, const pc_xmodel *m, int by_name,
			       double min_value, size_t budget);
PC_INTERNAL void pc_xtree_free(pc_xtree *t);
PC_INTERNAL size_t pc_xmodel_find_arc(const pc_xmodel *m, size_t caller,
				      size_t callee);
/** The one line every export states when its stacks are estimated. */
#define PC_XESTIMATE_NOTE \
	"call stacks estimated from call counts (the capture holds calls, " \
	"not stacks: as gprof, a routine's time is split among its callers " \
	"in proportion to the calls); the option stacks=none gives measured samples only"

/** Rounds a sequence of non-negative values to integers so that every
 *  prefix sum is the rounded exact prefix sum ("cumulative rounding"):
 *  the rounded values of a group add up to the rounded group total. */
typedef struct pc_xround {
	double exact;
	int64_t emitted;
} pc_xround;
static inline void pc_xround_reset(pc_xround *r)
{
	r->exact = 0;
	r->emitted = 0;
}
PC_INTERNAL int64_t pc_xround_next(pc_xround *r, double v);

/** A number for a text format: integers exactly, others with up to 9
 *  significant digits (no exponent for ordinary magnitudes). */
PC_INTERNAL int pc_sink_xnumber(pc_sink *k, double v);

/** Frame name made safe for folded stacks: ';' and control characters
 *  become '_' (spaces are kept). */
PC_INTERNAL int pc_sink_folded_name(pc_sink *k, const char *s);

/* ---- protobuf wire encoding (export_pb.c) ---------------------------- */
PC_INTERNAL int pc_pb_varint(pc_sink *k, uint64_t v);
/** Field with a varint value; zero values are omitted (proto3). */
PC_INTERNAL int pc_pb_uint(pc_sink *k, unsigned field, uint64_t v);
PC_INTERNAL int pc_pb_int(pc_sink *k, unsigned field, int64_t v);
/** Length-delimited field (string, bytes, embedded message). */
PC_INTERNAL int pc_pb_bytes(pc_sink *k, unsigned field, const void *data,
			    size_t n);
/** Packed repeated varints; nothing is written when n == 0. */
PC_INTERNAL int pc_pb_packed(pc_sink *k, unsigned field, const uint64_t *v,
			     size_t n);

/** gzip-compresses in[0..n) and appends the result to out (zlib,
 *  deterministic header: no name, mtime 0). */
PC_INTERNAL int pc_gzip_append(pc_sink *out, const void *in, size_t n);

#endif
