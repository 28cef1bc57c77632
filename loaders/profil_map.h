/*
 * profil_map.h - profil(2) PC -> counter arithmetic of the documented
 * implementations, and turning a profil buffer into histograms whose
 * buckets are exactly the PC ranges each counter received.
 *
 * Shared by loaders/monout.c and loaders/osf.c (static inline helpers; no
 * loader is defined here).  Facts: research/unix-formats.md section 2.
 *
 * profil(buf, bufsiz, offset, scale): every tick the kernel maps pc to a
 * counter.  The rules differ in rounding, so the same scale puts a given pc
 * into different counters on different machines:
 *
 *   pdp11  V6/V7 PDP-11 addupc: d = (pc-off)>>1 (16-bit), s = scale>>1,
 *          byte = ((d*s >> 14) + 1) & ~1   (rounds to nearest)
 *   vax    Berkeley VAX locore: as pdp11 with 32-bit d and a 64-bit product;
 *          pc < off (signed) or a product >= 2^46 is ignored
 *   ultrix DEC ULTRIX-32 locore: as vax but byte = (d*s >> 14) & ~1
 *          (truncates)
 *   bsd    4.4BSD C kernels (FreeBSD, NetBSD, OpenBSD, XNU):
 *          byte = (u32)(((u64)(pc-off) * scale) >> 16) & ~1
 *   glibc  sysdeps/posix/profil.c: i = ((pc-off)/2) * scale / 65536
 *
 * The counter index is byte/2 (glibc: i).  Each rule is monotonic in pc
 * over its domain, so counter i receives exactly the PCs [B(i), B(i+1))
 * where B(i) is the least pc whose index is >= i; B is found by binary
 * search over the rule itself, so the rule above is the only definition.
 */
#ifndef PC_PROFIL_MAP_H
#define PC_PROFIL_MAP_H

#include "profcore.h"

#include <stdlib.h>
#include <string.h>

typedef enum pc_profil_rule {
	PC_PROFIL_UNIFORM = 0, /* prof(1)/gprof: (high-low)/nbins per counter */
	PC_PROFIL_PDP11,
	PC_PROFIL_VAX,
	PC_PROFIL_ULTRIX,
	PC_PROFIL_BSD,
	PC_PROFIL_GLIBC
} pc_profil_rule;

#define PC_PROFIL_RULE_NAMES "prof, pdp11, vax, ultrix, bsd, glibc"

static inline const char *pc_profil_rule_name(pc_profil_rule r)
{
	static const char *const names[] = {"prof", "pdp11", "vax",
					    "ultrix", "bsd", "glibc"};
	return (unsigned)r < sizeof names / sizeof *names ? names[r] : "?";
}

/* Returns 0 and sets *r, or -1 for an unknown name. */
static inline int pc_profil_rule_parse(const char *s, pc_profil_rule *r)
{
	for (int i = PC_PROFIL_UNIFORM; i <= PC_PROFIL_GLIBC; i++) {
		if (strcmp(s, pc_profil_rule_name((pc_profil_rule)i)) == 0) {
			*r = (pc_profil_rule)i;
			return 0;
		}
	}
	return -1;
}

#define PC_PROFIL_IGNORED UINT64_MAX

/* Counter index for pc under rule r, or PC_PROFIL_IGNORED when the rule
 * drops the tick before looking at the buffer size.  width is the address
 * width of the glibc target (4 or 8).  Defined for pc >= off only. */
static inline uint64_t pc_profil_index(pc_profil_rule r, uint64_t pc,
				       uint64_t off, uint32_t scale,
				       unsigned width)
{
	uint64_t delta = pc - off, byte;
	switch (r) {
	case PC_PROFIL_PDP11: {
		uint32_t d = (uint32_t)(delta & 0xFFFFu) >> 1;
		uint32_t s = (scale & 0xFFFFu) >> 1;
		uint32_t p = d * s; /* < 2^30 */
		byte = ((p >> 14) + 1u) & 0xFFFEu;
		return byte / 2;
	}
	case PC_PROFIL_VAX:
	case PC_PROFIL_ULTRIX: {
		if (delta > 0x7FFFFFFFu)
			return PC_PROFIL_IGNORED;
		uint64_t q = (delta >> 1) * (uint64_t)(scale >> 1);
		q >>= 14;
		if (q >> 32)
			return PC_PROFIL_IGNORED;
		if (r == PC_PROFIL_VAX)
			byte = (q + 1) & 0xFFFFFFFEu;
		else
			byte = q & 0xFFFFFFFEu;
		return byte / 2;
	}
	case PC_PROFIL_BSD:
		if (scale && delta > UINT64_MAX / scale)
			return PC_PROFIL_IGNORED;
		byte = (delta * scale) >> 16;
		if (byte >> 32)
			return PC_PROFIL_IGNORED;
		return (byte & ~(uint64_t)1) / 2;
	case PC_PROFIL_GLIBC: {
		uint64_t i = delta / 2;
		if (width == 4 && (delta >> 32))
			return PC_PROFIL_IGNORED;
		uint64_t a = i / 65536, b = i % 65536;
		if (a && scale > UINT64_MAX / a)
			return PC_PROFIL_IGNORED;
		return a * scale + b * scale / 65536;
	}
	case PC_PROFIL_UNIFORM:
	default:
		return PC_PROFIL_IGNORED;
	}
}

/* Largest pc - off the rule is evaluated for (its monotonic domain). */
static inline uint64_t pc_profil_domain(pc_profil_rule r, unsigned width)
{
	switch (r) {
	case PC_PROFIL_PDP11:
		return 0xFFFFu;
	case PC_PROFIL_VAX:
	case PC_PROFIL_ULTRIX:
		return 0x7FFFFFFFu;
	case PC_PROFIL_GLIBC:
		return width == 4 ? 0xFFFFFFFFu : (uint64_t)1 << 62;
	default:
		return (uint64_t)1 << 62;
	}
}

/* Least pc in [off, off+domain] whose index is >= i (an ignored tick
 * counts as beyond every counter), or off+domain+1 when there is none. */
static inline uint64_t pc_profil_bound(pc_profil_rule r, uint64_t off,
				       uint32_t scale, unsigned width,
				       uint64_t i)
{
	uint64_t lo = 0, hi = pc_profil_domain(r, width) + 1; /* deltas */
	if (off > UINT64_MAX - hi)
		hi = UINT64_MAX - off;
	while (lo < hi) {
		uint64_t mid = lo + (hi - lo) / 2;
		uint64_t x = pc_profil_index(r, off + mid, off, scale, width);
		if (x >= i) /* PC_PROFIL_IGNORED is >= any i */
			hi = mid;
		else
			lo = mid + 1;
	}
	return off + lo;
}

/* Scale the C library's monitor() chose for nbins 16-bit counters over
 * [lowpc, highpc) (research section 2.7). */
static inline uint32_t pc_profil_monitor_scale(pc_profil_rule r,
					       uint64_t lowpc, uint64_t highpc,
					       uint64_t nbins)
{
	uint64_t text = highpc - lowpc;
	switch (r) {
	case PC_PROFIL_PDP11: {
		uint64_t o = (text >> 1) & 077777u;
		if (nbins < o)
			o = (nbins << 15) / o;
		else
			o = 077777u;
		return (uint32_t)(o << 1);
	}
	case PC_PROFIL_VAX:
	case PC_PROFIL_ULTRIX: {
		uint64_t o = text >> 1, cb = nbins * 2;
		if (cb < o)
			return (uint32_t)((float)cb / (float)o * 32768.0f);
		return 0177777u;
	}
	default: {
		uint64_t cb = nbins * 2;
		if (cb < text)
			return (uint32_t)((float)cb / (float)text * 65536.0f);
		return 0x10000u;
	}
	}
}

/* Adds the counters as histograms whose buckets are exactly the PC ranges
 * each counter received under rule r: consecutive counters of equal width
 * form one pc_histogram (zero counters at the ends of a run are dropped).
 * unit (the granule of proportional splitting, as gprof's 2-byte UNIT) is
 * 2 when every bound is even (always so for the rules that halve pc - off
 * first, with an even offset), else 1.  Returns PC_OK, or a negative status; on
 * PC_EFORMAT *bad_bin is the first counter that holds samples although no
 * pc maps to it (the rule or the scale does not fit the data). */
static inline int pc_profil_add_exact(pc_profile *p, uint32_t segment,
				      pc_profil_rule r, uint64_t off,
				      uint32_t scale, unsigned width,
				      const uint64_t *counts, size_t nbins,
				      size_t *bad_bin)
{
	uint64_t *b = malloc((nbins + 1) * sizeof *b);
	if (!b)
		return PC_ENOMEM;
	for (size_t i = 0; i <= nbins; i++)
		b[i] = pc_profil_bound(r, off, scale, width, i);
	const uint64_t end = off + pc_profil_domain(r, width) + 1;
	for (size_t i = 0; i < nbins; i++) {
		if (counts[i] && (b[i] >= b[i + 1] || b[i] >= end)) {
			free(b);
			*bad_bin = i;
			return PC_EFORMAT;
		}
	}
	unsigned unit = 2;
	for (size_t i = 0; i <= nbins; i++)
		if (b[i] % 2)
			unit = 1;
	int st = PC_OK;
	for (size_t i = 0; i < nbins && st == PC_OK;) {
		if (!counts[i]) {
			i++;
			continue;
		}
		uint64_t w = b[i + 1] - b[i];
		size_t j = i + 1, last = i;
		while (j < nbins && b[j + 1] - b[j] == w) {
			if (counts[j])
				last = j;
			j++;
		}
		pc_histogram h = {
			.segment = segment,
			.low = b[i],
			.high = b[last + 1],
			.nbins = last + 1 - i,
			.counts = counts + i,
			.unit = unit,
		};
		st = pc_profile_add_histogram(p, &h);
		i = last + 1;
	}
	free(b);
	return st;
}

#endif
