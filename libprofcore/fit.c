/* fit.c - does a capture fit the program it is reported against?
 *
 * pc_profile_fit() compares where the capture's samples and call arcs lie
 * with the program's code (docs/attribution.md ("Attribution rules"), rule 9):
 *  - the share of located samples (histogram counts, raw samples) in the
 *    program's code, in other known regions (ROM, DOS, libraries: they
 *    are explained) and in nothing known;
 *  - the share of call arcs with both ends in the program's code;
 *  - when the code's extent is known (a region such as the ELF executable
 *    sections or a PRG's TEXT, not symbols alone), a capture's only
 *    histogram that starts at or below the code (a runtime that profiled
 *    the whole text, such as gcrt's monstartup), if it holds samples or
 *    comes with call arcs, must not end before the
 *    code ends, nor after it when the capture has call arcs (mcount's
 *    runtime profiles exactly the text); with call arcs, one that starts
 *    inside the code (older glibc: at the entry point) must not end after
 *    it either;
 *  - when most samples miss the program, the one shift of the program
 *    that would put most of them into it (a missing load address).
 * pc_rates_check() is the one rule for adding up captures of different
 * sample rates, used by loading (profcat FILE...) and pc_profile_merge.
 */
#include "model.h"
#include "internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Thresholds (docs/attribution.md ("Attribution rules"), rule 9). */
#define FIT_MISFIT 0.5   /* below this share in the code: refuse       */
#define FIT_DOUBT 0.9    /* below this share: warn                      */
#define FIT_RANGE_SLACK 64 /* bytes a histogram may miss the code end by */

int pc_rates_check(pc_profile *p, double have, double adding)
{
	if (have > 0 && adding > 0 &&
	    fabs(have - adding) > 1e-9 * (have > adding ? have : adding))
		return pc_profile_fail(p, PC_EUNSUPPORTED,
				       "captures sampled at %g Hz and %g Hz cannot be added up: a sample would stand for different times",
				       have, adding);
	return PC_OK;
}

typedef struct span {
	uint32_t seg;
	uint64_t low, high;
	pc_region_class cls;
} span;

typedef struct fitctx {
	pc_profile *p;
	span *code; /* application regions */
	size_t ncode;
	span *other; /* regions of other classes */
	size_t nother;
} fitctx;

static int in_spans(const span *v, size_t n, uint32_t seg, uint64_t a)
{
	for (size_t i = 0; i < n; i++)
		if (v[i].seg == seg && a >= v[i].low && a < v[i].high)
			return 1;
	return 0;
}

/* 1 in the program's code, 0 elsewhere, -1 in another known region.
 * With the code's extent known, a symbol does not stretch it: the last
 * one before a gap (gprof charges everything up to the next to it, e.g.
 * etext) would take in another program's addresses. */
static int where(fitctx *c, uint32_t seg, uint64_t a)
{
	if (in_spans(c->code, c->ncode, seg, a) ||
	    (!c->ncode && pc_profile_row_find(c->p, seg, a) >= 0))
		return 1;
	return in_spans(c->other, c->nother, seg, a) ? -1 : 0;
}

typedef struct wsample {
	uint64_t a;
	double w;
} wsample;

static int cmp_ws(const void *x, const void *y)
{
	const wsample *a = x, *b = y;
	return a->a < b->a ? -1 : a->a > b->a;
}

/* The shift s of the code [lo, hi) that puts the most sample weight into
 * [lo + s, hi + s): *best weight, *smin..*smax the shifts that do. */
static void best_window(const wsample *v, size_t n, uint64_t lo, uint64_t hi,
			double *best, int64_t *smin, int64_t *smax)
{
	uint64_t width = hi - lo;
	double w = 0;
	size_t j = 0;
	*best = 0;
	for (size_t i = 0; i < n; i++) {
		if (j < i) {
			j = i;
			w = 0;
		}
		while (j < n && v[j].a - v[i].a < width)
			w += v[j++].w;
		if (w > *best + 1e-9) {
			*best = w;
			/* lowest shift: the last sample in is at hi - 1 + s */
			*smin = (int64_t)(v[j - 1].a - (hi - 1));
			*smax = (int64_t)(v[i].a - lo);
		}
		w -= v[i].w;
	}
}

static const char *hexs(char *buf, size_t n, int64_t v)
{
	if (v < 0)
		snprintf(buf, n, "-0x%llx", (unsigned long long)(0 - (uint64_t)v));
	else
		snprintf(buf, n, "0x%llx", (unsigned long long)v);
	return buf;
}

static int profile_fit(pc_profile *p, const pc_fit_options *opts, pc_fit *out);

int pc_profile_mz_mismatch(pc_profile *p, char *msg, size_t n)
{
	uint64_t isize, org, entry;
	if (!pc_profile_meta_hex(p, "mz.image_size", &isize) || !pc_profile_meta_hex(p, "mz.origin", &org) ||
	    !pc_profile_meta_hex(p, "mz.entry", &entry))
		return 0;
	uint64_t mentry;
	if (pc_profile_meta_hex(p, "map.entry", &mentry) && mentry != entry) {
		snprintf(msg, n,
			 "the program's entry point (image address 0x%llx) is not the map's (0x%llx): the map is of another program or build",
			 (unsigned long long)entry, (unsigned long long)mentry);
		return 1;
	}
	/* (the targets: addresses and symbols, no count) */
	if (pc_attrib_targets(p, NULL))
		return 0;
	size_t nt = p->ntargets;
	int entry_in = 0, any = 0;
	for (size_t i = 0; i < p->nregions; i++) {
		const pc_region *g = &p->regions[i];
		if (g->cls != PC_REGION_APPLICATION || g->segment != PC_NOSEG || g->high <= g->low ||
		    !g->label)
			continue;
		/* a code segment of the map: its code symbols name it as their
		 * section (not PROFIL's "program" area, say); a .COM's segment
		 * starts at 0, its code at ORG 100h */
		int code = 0;
		uint64_t first = g->low < org && g->high > org ? org : g->low;
		for (size_t t = 0; t < nt; t++) {
			const pc_target *r = &p->targets[t];
			if (r->segment != PC_NOSEG || r->address < g->low || r->address >= g->high)
				continue;
			const pc_symbol *y = &p->syms[r->symbol];
			if (!y->section || strcmp(y->section, g->label))
				continue;
			code = 1;
			/* (a segment-only map: the segment's own symbol, which
			 * starts where it does, PSP included) */
			if (r->address < first &&
			    !(r->address == g->low && y->name && !strcmp(y->name, g->label)))
				first = r->address;
		}
		if (!code)
			continue;
		any = 1;
		if (first < org || g->high > org + isize) {
			snprintf(msg, n,
				 "the map's code segment %s (0x%llx-0x%llx) is not inside the program's load image (0x%llx-0x%llx): the map is of another program or build%s",
				 g->label, (unsigned long long)first, (unsigned long long)g->high,
				 (unsigned long long)org, (unsigned long long)(org + isize),
				 org == 0x100 && first < org
					 ? " (or of a .COM linked at 0, not ORG 100h: give the program -O origin=0)"
					 : "");
			return 1;
		}
		if (entry >= g->low && entry < g->high)
			entry_in = 1;
	}
	if (any && !entry_in) {
		snprintf(msg, n,
			 "the program's entry point %04llX:%04llX is in none of the map's code segments: the map is of another program or build",
			 (unsigned long long)(entry >> 4), (unsigned long long)(entry & 15));
		return 1;
	}
	return 0;
}

/* Where the code ends for the check that a histogram of the whole text
 * covers it: the end of the last program region that holds an
 * attribution target (a code symbol), or hi when none does.  A linker
 * map's segment table lists every segment, the data, BSS and stack ones
 * too, and PROFIL samples the file's load image only: MS LINK's STACK
 * segment lies past it and is no code (docs/dos.md). */
static uint64_t code_end(fitctx *c, uint64_t hi)
{
	uint64_t end = 0;
	const pc_profile *p = c->p; /* (its targets: profile_fit made them) */
	for (size_t k = 0; k < c->ncode; k++) {
		if (c->code[k].high <= end)
			continue;
		for (size_t i = 0; i < p->ntargets; i++) {
			const pc_target *r = &p->targets[i];
			if (r->segment == c->code[k].seg && r->address >= c->code[k].low &&
			    r->address < c->code[k].high) {
				end = c->code[k].high;
				break;
			}
		}
	}
	return end ? end : hi;
}

/* A gmon.out's call arcs against an ELF program: each must end right
 * after a call to mcount in it (fit_mcount.c).  A program that never
 * calls mcount, or where fewer than half the arcs do, is not the one that
 * wrote them: msg says so (left empty otherwise). */
static int mcount_fit(pc_profile *p, const pc_fit *out, char *msg, size_t msglen)
{
	const char *elf = NULL;
	int gmon = 0;
	for (size_t i = 0; i < p->nsrc; i++) {
		if (!strcmp(p->src_format[i], "gmon"))
			gmon = 1;
		else if (!strcmp(p->src_format[i], "elf") && !elf)
			elf = p->src_file[i];
	}
	if (!gmon || !elf || !out->arcs)
		return PC_OK;
	pc_mcount_fit m;
	int st = pc_fit_mcount(p, elf, &m);
	if (st)
		return pc_profile_fail(p, st, "out of memory");
	const char *prog = pc_profile_program(p) ? pc_profile_program(p) : "the program";
	if (m.checked && !m.calls_hook)
		snprintf(msg, msglen,
			 "the capture has %zu call arcs but %s calls no mcount, _mcount or __fentry__ (it was not built with -pg): the capture is from another program or build",
			 out->arcs, prog);
	else if (m.decoded && (double)m.arcs_at_hook < FIT_MISFIT * (double)out->arcs)
		snprintf(msg, msglen,
			 "%zu of %zu call arcs (%.1f%%) return into a call to mcount in %s, where every arc of a capture it wrote does: the capture is from another build of the program",
			 m.arcs_at_hook, out->arcs, 100.0 * (double)m.arcs_at_hook / (double)out->arcs,
			 prog);
	return PC_OK;
}

int pc_profile_fit_sized(pc_fit *out, size_t out_size, pc_profile *p,
			 const pc_fit_options *opts)
{
	if (!out || !out_size)
		return PC_EUSAGE;
	pc_fit f;
	memset(&f, 0, sizeof f);
	pc_fit_options dflt = PC_FIT_OPTIONS_INIT;
	if (!opts)
		opts = &dflt;
	int st = p && opts->version != PC_FIT_OPTIONS_VERSION
			 ? pc_profile_fail(p, PC_EUSAGE,
					   "pc_fit_options.version %u: expected %u (PC_FIT_OPTIONS_INIT)",
					   opts->version, PC_FIT_OPTIONS_VERSION)
			 : profile_fit(p, opts, &f);
	int cst = pc_copy_sized(out, out_size, &f, sizeof f);
	return st ? st : cst;
}

static int profile_fit(pc_profile *p, const pc_fit_options *opts, pc_fit *out)
{
	memset(out, 0, sizeof *out);
	if (!p)
		return PC_EUSAGE;
	fitctx c = {p, NULL, 0, NULL, 0};
	/* where the program's code is: the attribution's targets, not
	 * their counts (the report's attribution credits these targets) */
	int st = pc_attrib_targets(p, opts->attrib);
	if (st)
		return st;
	size_t nr = pc_profile_region_count(p);
	c.code = calloc(nr + 1, sizeof *c.code);
	c.other = calloc(nr + 1, sizeof *c.other);
	wsample *ws = NULL;
	if (!c.code || !c.other) {
		st = pc_profile_fail(p, PC_ENOMEM, "out of memory");
		goto out;
	}
	uint64_t lo = UINT64_MAX, hi = 0;
	uint32_t seg = PC_NOSEG;
	int segs = 0; /* several segments: no shift search */
	for (size_t i = 0; i < nr; i++) {
		pc_region r;
		pc_profile_region_at(&r, p, i);
		span s = {r.segment, r.low, r.high, r.cls};
		if (r.cls == PC_REGION_APPLICATION) {
			c.code[c.ncode++] = s;
			if (r.low < lo)
				lo = r.low;
			if (r.high > hi)
				hi = r.high;
			if (c.ncode > 1 && r.segment != seg)
				segs = 1;
			seg = r.segment;
		} else {
			c.other[c.nother++] = s;
		}
	}
	/* the system memory around the program (system regions that touch
	 * its code, such as the Atari "RAM" below and above a PRG) explains
	 * nothing: a program loaded elsewhere lands there (the "low" and
	 * "high" classes, DDJ's PA_BOT_MEM, explain: the user drew them) */
	for (size_t i = 0; i < c.nother;) {
		int touch = 0;
		if (c.other[i].cls != PC_REGION_SYSTEM) {
			i++;
			continue;
		}
		for (size_t k = 0; k < c.ncode && !touch; k++)
			touch = c.other[i].seg == c.code[k].seg &&
				(c.other[i].high == c.code[k].low ||
				 c.other[i].low == c.code[k].high);
		if (touch)
			c.other[i] = c.other[--c.nother];
		else
			i++;
	}
	if (c.ncode == 0) {
		/* no region: the program is the hull of its attribution targets */
		for (size_t i = 0; i < p->ntargets; i++) {
			const pc_target *r = &p->targets[i];
			if (i && r->segment != seg)
				segs = 1;
			seg = r->segment;
			if (r->address < lo)
				lo = r->address;
			uint64_t e = r->end > r->address ? r->end : r->address + 1;
			if (e > hi)
				hi = e;
		}
	}
	if (lo >= hi) {
		out->verdict = PC_FIT_UNKNOWN;
		goto out;
	}
	out->code_low = lo;
	out->code_high = hi;
	uint64_t cend = code_end(&c, hi), mend = hi;

	/* samples: histogram buckets (by their first address) and raw ones */
	size_t nws = 0, capws = 0;
	for (size_t i = 0; i < pc_profile_histogram_count(p); i++) {
		pc_histogram h;
		pc_profile_histogram_at(&h, p, i);
		double width = h.nbins ? (double)(h.high - h.low) / (double)h.nbins : 0;
		uint64_t sum = 0;
		/* runs of buckets inside one code span are all in the
		 * program: summed as integers, which is what adding them one
		 * by one as doubles gives while every sum stays below 2^53 */
		/* (every count below 2^cb and fewer than 2^nb buckets, with
		 * cb + nb <= 52: the sum stays below 2^52) */
		uint64_t any = pc_profile_hist_or(p, i);
		unsigned cb = 0, nb = 0;
		while (cb < 64 && (any >> cb))
			cb++;
		while (nb < 64 && ((uint64_t)h.nbins >> nb))
			nb++;
		int exact = cb + nb <= 52 && out->samples < 4503599627370496.0;
		for (size_t b = 0; b < h.nbins; b++) {
			uint64_t a = h.low + (uint64_t)(width * (double)b);
			size_t sp = c.ncode;
			if (exact)
				for (sp = 0; sp < c.ncode; sp++)
					if (c.code[sp].seg == h.segment && a >= c.code[sp].low &&
					    a < c.code[sp].high)
						break;
			if (sp < c.ncode) {
				/* the last bucket e >= b that starts in the span */
				size_t elo = b, ehi = h.nbins; /* e in [elo, ehi) */
				while (ehi - elo > 1) {
					size_t mid = elo + (ehi - elo) / 2;
					if (h.low + (uint64_t)(width * (double)mid) < c.code[sp].high)
						elo = mid;
					else
						ehi = mid;
				}
				/* (integers: the order of the additions does
				 * not matter; four at a time) */
				uint64_t run = 0, r1 = 0, r2 = 0, r3 = 0;
				size_t e = b;
				for (; e + 4 <= elo + 1; e += 4) {
					run += h.counts[e];
					r1 += h.counts[e + 1];
					r2 += h.counts[e + 2];
					r3 += h.counts[e + 3];
				}
				for (; e <= elo; e++)
					run += h.counts[e];
				run += r1 + r2 + r3;
				sum += run;
				out->samples += (double)run;
				out->in_program += (double)run;
				b = elo;
				continue;
			}
			if (!h.counts[b])
				continue;
			sum += h.counts[b];
			int k = where(&c, h.segment, a);
			out->samples += (double)h.counts[b];
			if (k > 0)
				out->in_program += (double)h.counts[b];
			else if (k < 0)
				out->explained += (double)h.counts[b];
		}
		/* a histogram of the whole text must end where the code ends;
		 * with call arcs also one that starts inside the code
		 * (glibc's gcrt1 starts at the entry point, after .init and
		 * .plt, and ends at etext) */
		int whole = h.low <= lo && lo < h.high;
		int from_entry = pc_profile_arc_count(p) && lo < h.low && h.low < hi;
		if (c.ncode && pc_profile_histogram_count(p) == 1 && h.segment == seg &&
		    (whole || from_entry) && (sum || pc_profile_arc_count(p))) {
			uint64_t slack = (uint64_t)(2 * width) > FIT_RANGE_SLACK
						 ? (uint64_t)(2 * width)
						 : FIT_RANGE_SLACK;
			/* going on past the code's end is refused only with call
			 * arcs (mcount's runtime profiles exactly the text):
			 * PROFIL and OpenOCD cover what the user asked for */
			if ((whole && h.high + slack < cend) ||
			    (pc_profile_arc_count(p) && h.high > hi + slack)) {
				mend = whole && h.high + slack < cend ? cend : hi;
				out->range_mismatch = 1;
				out->hist_low = h.low;
				out->hist_high = h.high;
			}
		}
	}
	size_t ns = pc_profile_sample_count(p);
	for (size_t i = 0; i < ns; i++) {
		uint32_t sg;
		uint64_t a, n;
		pc_profile_sample_at(&sg, &a, &n, p, i);
		int k = where(&c, sg, a);
		out->samples += (double)n;
		if (k > 0)
			out->in_program += (double)n;
		else if (k < 0)
			out->explained += (double)n;
		if (sg != seg)
			segs = 1;
		if (k < 0)
			continue; /* explained: never a reason to move the program */
		if (nws == capws) {
			capws = capws ? 2 * capws : 256;
			wsample *nv = realloc(ws, capws * sizeof *ws);
			if (!nv) {
				st = pc_profile_fail(p, PC_ENOMEM, "out of memory");
				goto out;
			}
			ws = nv;
		}
		ws[nws].a = a;
		ws[nws++].w = (double)n;
	}
	for (size_t i = 0; i < pc_profile_arc_count(p); i++) {
		pc_arc a;
		pc_profile_arc_at(&a, p, i);
		out->arcs++;
		if (where(&c, a.from_segment, a.from) > 0 && where(&c, a.to_segment, a.to) > 0)
			out->arcs_in_program++;
	}

	double share = out->samples > 0 ? out->in_program / out->samples : 1;
	double known = out->samples > 0 ? (out->in_program + out->explained) / out->samples : 1;
	/* a missing or wrong load address: one shift of the program that
	 * puts most samples, and more than twice as many, into it */
	double best = 0;
	int64_t smin = 0, smax = 0;
	if (share < FIT_MISFIT && nws && !segs) {
		qsort(ws, nws, sizeof *ws, cmp_ws);
		best_window(ws, nws, lo, hi, &best, &smin, &smax);
		if (best >= FIT_MISFIT * out->samples && best > 2 * out->in_program)
			out->has_shift = 1;
	}
	uint64_t load = opts->has_load_address ? opts->load_address : 0;
	out->load_given = opts->has_load_address != 0;
	if (out->has_shift) {
		/* no load address below 0 */
		int64_t lowest = load > (uint64_t)INT64_MAX ? INT64_MIN : -(int64_t)load;
		if (smax < lowest)
			out->has_shift = 0;
		else if (smin < lowest)
			smin = lowest;
	}
	double ashare = out->arcs ? (double)out->arcs_in_program / (double)out->arcs : 1;
	out->verdict = out->samples > 0 || out->arcs ? PC_FIT_OK : PC_FIT_UNKNOWN;
	const char *prog = pc_profile_program(p) ? pc_profile_program(p) : "the program";
	char msg[512], h1[32], h2[32], h3[32];
	msg[0] = '\0';
	if (out->has_shift || known < FIT_MISFIT) {
		out->verdict = PC_FIT_MISFIT;
		snprintf(msg, sizeof msg,
			 "%.0f of %.0f samples (%.1f%%) fall in the code of %s (0x%llx-0x%llx): the capture does not fit the program",
			 out->in_program, out->samples, 100.0 * share, prog,
			 (unsigned long long)lo, (unsigned long long)hi);
	} else if (ashare < FIT_MISFIT) {
		out->verdict = PC_FIT_MISFIT;
		snprintf(msg, sizeof msg,
			 "%zu of %zu call arcs (%.1f%%) lie in the code of %s (0x%llx-0x%llx): the capture does not fit the program",
			 out->arcs_in_program, out->arcs, 100.0 * ashare, prog,
			 (unsigned long long)lo, (unsigned long long)hi);
	} else if (out->range_mismatch) {
		out->verdict = PC_FIT_MISFIT;
		snprintf(msg, sizeof msg,
			 "the histogram covers 0x%llx-0x%llx but the code of %s ends at 0x%llx: the capture is from another program or build",
			 (unsigned long long)out->hist_low, (unsigned long long)out->hist_high,
			 prog, (unsigned long long)mend);
	} else if (known < FIT_DOUBT) {
		out->verdict = PC_FIT_DOUBT;
		snprintf(msg, sizeof msg,
			 "%.0f of %.0f samples (%.1f%%) fall in no known code: neither in %s (0x%llx-0x%llx) nor in a region",
			 out->samples - out->in_program - out->explained, out->samples,
			 100.0 * (1 - known), prog, (unsigned long long)lo, (unsigned long long)hi);
	}

	if (!msg[0] && (st = mcount_fit(p, out, msg, sizeof msg)) == PC_OK && msg[0])
		out->verdict = PC_FIT_MISFIT;
	if (st)
		goto out;
	if (out->has_shift) {
		{
			/* several shifts fit as well: only a known default
			 * (the load address given was the basepage or PSP, the
			 * code starts 0x100 bytes after it) picks one */
			int64_t s = smin;
			if (out->load_given && smin < smax && smin <= 0x100 && 0x100 <= smax)
				s = 0x100, out->shift_default = 1;
			out->has_shift = 1;
			out->shift = s;
			out->shift_min = smin;
			out->shift_max = smax;
			out->shifted_in_program = best;
			out->load_address = load + (uint64_t)s;
			size_t l = strlen(msg);
			if (smin == smax || out->shift_default)
				snprintf(msg + l, sizeof msg - l,
					 "; %.0f (%.1f%%) would if it were loaded %s bytes %s",
					 best, 100.0 * best / out->samples,
					 hexs(h1, sizeof h1, s < 0 ? -s : s), s < 0 ? "lower" : "higher");
			else
				snprintf(msg + l, sizeof msg - l,
					 "; %.0f (%.1f%%) would if it were loaded %s to %s bytes higher",
					 best, 100.0 * best / out->samples,
					 hexs(h2, sizeof h2, smin), hexs(h3, sizeof h3, smax));
		}
	}
	/* a DOS program given with a map of another build */
	if (pc_profile_mz_mismatch(p, msg, sizeof msg))
		out->verdict = PC_FIT_MISFIT, out->has_shift = 0;
	if (msg[0]) {
		out->problem = pc_strpool_add(&p->pool, msg);
		if (!out->problem)
			st = pc_profile_fail(p, PC_ENOMEM, "out of memory");
	}
out:
	free(ws);
	free(c.code);
	free(c.other);
	return st;
}
