/*
 * osf.c - OSF/1 (Digital UNIX, Tru64) multi-range profil captures, in
 * profcore's own interchange form.
 *
 * Tru64 profil(2) has an extended form, profil(args, nargs, -1, flags),
 * where args is an array of up to 64 struct profil_args, each describing
 * one discontiguous address range (the executable, each shared library)
 * with its own buffer of 16-bit counters, offset and scale (seed
 * osf1-profil.2.txt).  No on-disk form of such a capture is documented, so
 * profcore defines one; a tool that ran profil() this way writes the
 * buffers out as follows.  All header fields are little-endian.
 *
 *   offset size field
 *   0      8    magic "PCMRPROF"
 *   8      2    version = 1
 *   10     2    nranges, 1..64
 *   12     4    tick rate in Hz (0 = unknown)
 *   16     1    pc -> counter rule: 0 = bsd (default), 1 = pdp11, 2 = vax,
 *               3 = ultrix, 4 = bsd, 5 = glibc (profil_map.h)
 *   17     1    counter byte order: 0 = little-endian, 1 = big-endian
 *   18     2    0
 *   20     4    flags: profil()'s flags argument (reserved, 0)
 *   24     nranges x 24-byte range descriptors:
 *          +0  8  offset: the pc that maps to counter 0
 *          +8  4  scale: profil scale, 0x10000 = one counter per 2 bytes
 *          +12 4  nbins: number of 16-bit counters (buffer bytes / 2)
 *          +16 1  region class of the range (pc_region_class: 0 the
 *                 program, 6 shared library, 7 kernel, 8 unknown, ...)
 *          +17 1  0
 *          +18 2  name length in bytes (0 = no name)
 *          +20 4  0
 *   then for each range in order: its name (no terminating NUL), then its
 *   nbins counters.  The file ends there.
 *
 * Each range becomes a region [first pc, last pc) of its class, labelled
 * with its name, and histograms whose buckets are exactly the PCs each
 * counter received under the rule (pc_profil_add_exact).  Ranges must not
 * overlap.  Option profil=RULE overrides the rule byte.
 */
#include "internal.h"
#include "profil_map.h"

#include <stdlib.h>
#include <string.h>

#define OSF_MAGIC "PCMRPROF"
#define OSF_HDR 24u
#define OSF_DESC 24u
#define OSF_MAX_RANGES 64u
/* 64 ranges of at most 2^32 - 1 counters could be 512 GiB: refuse more
 * than this (a Tru64 process could not map more buffer either). */
#define OSF_MAX_BYTES ((uint64_t)1 << 32)

static const pc_profil_rule rule_codes[] = {
	PC_PROFIL_BSD, PC_PROFIL_PDP11, PC_PROFIL_VAX,
	PC_PROFIL_ULTRIX, PC_PROFIL_BSD, PC_PROFIL_GLIBC,
};

static int osf_probe(const unsigned char *head, size_t len,
		     const char *filename)
{
	if (len < 12 || memcmp(head, OSF_MAGIC, 8) != 0)
		return 0;
	if (pc_get_u16(head + 8, PC_ENDIAN_LITTLE) != 1)
		return 64;
	return 80;
}

typedef struct range {
	uint64_t offset;
	uint32_t scale, nbins;
	unsigned cls;
	unsigned namelen;
	uint64_t desc_off;
} range;

static int osf_parse(pc_profile *p, pc_stream *s, const pc_options *opts,
		     const unsigned char *b, size_t len)
{
	if (len < OSF_HDR)
		return pc_stream_fail(s, PC_ETRUNC, 0,
				      "multi-range profil header needs %u bytes, file has %zu",
				      OSF_HDR, len);
	if (memcmp(b, OSF_MAGIC, 8) != 0)
		return pc_stream_fail(s, PC_EFORMAT, 0, "expected magic \"PCMRPROF\"");
	unsigned version = pc_get_u16(b + 8, PC_ENDIAN_LITTLE);
	if (version != 1)
		return pc_stream_fail(s, PC_EUNSUPPORTED, 8,
				      "version %u, expected 1", version);
	unsigned n = pc_get_u16(b + 10, PC_ENDIAN_LITTLE);
	if (n < 1 || n > OSF_MAX_RANGES)
		return pc_stream_fail(s, PC_EFORMAT, 10,
				      "%u ranges, expected 1 to 64", n);
	uint32_t rate = pc_get_u32(b + 12, PC_ENDIAN_LITTLE);
	unsigned rcode = b[16];
	if (rcode >= sizeof rule_codes / sizeof *rule_codes)
		return pc_stream_fail(s, PC_EFORMAT, 16,
				      "pc rule %u, expected 0 to 5", rcode);
	pc_profil_rule rule = rule_codes[rcode];
	const char *rv = pc_options_get(opts, "profil");
	if (rv && (pc_profil_rule_parse(rv, &rule) || rule == PC_PROFIL_UNIFORM))
		return pc_profile_fail(p, PC_EUSAGE,
				       "option profil must be one of pdp11, vax, ultrix, bsd, glibc for a multi-range profil, not '%s'",
				       rv);
	if (b[17] > 1)
		return pc_stream_fail(s, PC_EFORMAT, 17,
				      "counter byte order %u, expected 0 (little) or 1 (big)", b[17]);
	pc_endian ce = b[17] ? PC_ENDIAN_BIG : PC_ENDIAN_LITTLE;
	if (b[18] || b[19])
		return pc_stream_fail(s, PC_EFORMAT, 18, "reserved bytes are not zero");

	range r[OSF_MAX_RANGES];
	uint64_t need = OSF_HDR + (uint64_t)n * OSF_DESC;
	if (len < need)
		return pc_stream_fail(s, PC_ETRUNC, (int64_t)len,
				      "file ends at %zu bytes, the %u range descriptors need %llu",
				      len, n, (unsigned long long)need);
	for (unsigned i = 0; i < n; i++) {
		size_t off = OSF_HDR + (size_t)i * OSF_DESC;
		const unsigned char *d = b + off;
		r[i].desc_off = off;
		r[i].offset = pc_get_u64(d, PC_ENDIAN_LITTLE);
		r[i].scale = pc_get_u32(d + 8, PC_ENDIAN_LITTLE);
		r[i].nbins = pc_get_u32(d + 12, PC_ENDIAN_LITTLE);
		r[i].cls = d[16];
		r[i].namelen = pc_get_u16(d + 18, PC_ENDIAN_LITTLE);
		if (r[i].scale == 0 || r[i].scale > 0x10000)
			return pc_stream_fail(s, PC_EFORMAT, (int64_t)off + 8,
					      "range %u: scale 0x%x, expected 1 to 0x10000",
					      i, (unsigned)r[i].scale);
		if (r[i].nbins == 0)
			return pc_stream_fail(s, PC_EFORMAT, (int64_t)off + 12,
					      "range %u has no counters", i);
		if (r[i].cls >= PC_REGION_COUNT)
			return pc_stream_fail(s, PC_EFORMAT, (int64_t)off + 16,
					      "range %u: region class %u, expected 0 to %d",
					      i, r[i].cls, PC_REGION_COUNT - 1);
		if (d[17] || pc_get_u32(d + 20, PC_ENDIAN_LITTLE))
			return pc_stream_fail(s, PC_EFORMAT, (int64_t)off + 17,
					      "range %u: reserved bytes are not zero", i);
		need += r[i].namelen + 2 * (uint64_t)r[i].nbins;
	}
	if (len < need)
		return pc_stream_fail(s, PC_ETRUNC, (int64_t)len,
				      "file ends at %zu bytes, the %u ranges need %llu",
				      len, n, (unsigned long long)need);
	if (len > need)
		return pc_stream_fail(s, PC_EFORMAT, (int64_t)need,
				      "unexpected data after the last range's counters");

	/* Bounds of every range first, to refuse overlaps before adding. */
	uint64_t lo[OSF_MAX_RANGES], hi[OSF_MAX_RANGES];
	for (unsigned i = 0; i < n; i++) {
		lo[i] = pc_profil_bound(rule, r[i].offset, r[i].scale, 8, 0);
		hi[i] = pc_profil_bound(rule, r[i].offset, r[i].scale, 8, r[i].nbins);
		for (unsigned k = 0; k < i; k++)
			if (lo[i] < hi[k] && lo[k] < hi[i])
				return pc_stream_fail(s, PC_EFORMAT, (int64_t)r[i].desc_off,
						      "range %u [0x%llx, 0x%llx) overlaps range %u [0x%llx, 0x%llx)",
						      i, (unsigned long long)lo[i], (unsigned long long)hi[i], k,
						      (unsigned long long)lo[k], (unsigned long long)hi[k]);
	}

	size_t pos = OSF_HDR + (size_t)n * OSF_DESC;
	for (unsigned i = 0; i < n; i++) {
		const char *name = (const char *)b + pos;
		if (memchr(name, '\0', r[i].namelen))
			return pc_stream_fail(s, PC_EFORMAT, (int64_t)pos,
					      "range %u: NUL byte in the name", i);
		char *label = r[i].namelen ? pc_strndup(name, r[i].namelen) : NULL;
		if (r[i].namelen && !label)
			return PC_ENOMEM;
		pos += r[i].namelen;
		size_t nb = r[i].nbins;
		uint64_t *counts = malloc(nb * sizeof *counts);
		if (!counts) {
			free(label);
			return PC_ENOMEM;
		}
		for (size_t k = 0; k < nb; k++)
			counts[k] = pc_get_u16(b + pos + 2 * k, ce);
		pc_region reg = {
			.segment = PC_NOSEG,
			.low = lo[i],
			.high = hi[i],
			.cls = (pc_region_class)r[i].cls,
			.label = label,
		};
		int st = pc_profile_add_region(p, &reg);
		if (st == PC_OK) {
			size_t bad = 0;
			st = pc_profil_add_exact(p, PC_NOSEG, rule, r[i].offset,
						 r[i].scale, 8, counts, nb, &bad);
			if (st == PC_EFORMAT)
				st = pc_stream_fail(s, PC_EFORMAT, (int64_t)(pos + 2 * bad),
						    "range %u: counter %zu holds %llu ticks but no pc maps to it with rule %s",
						    i, bad, (unsigned long long)counts[bad],
						    pc_profil_rule_name(rule));
		}
		free(counts);
		free(label);
		if (st)
			return st;
		pos += 2 * nb;
	}
	if (rate)
		pc_profile_set_rate(p, rate);
	return PC_OK;
}

static int osf_load(pc_profile *p, pc_stream *s, const pc_options *opts)
{
	void *data = NULL;
	size_t len = 0;
	int st = pc_stream_read_all(&data, &len, s, OSF_MAX_BYTES);
	if (st)
		return st;
	st = osf_parse(p, s, opts, data, len);
	pc_free(data);
	return st;
}

static const char *const osf_ext[] = {".mprof", NULL};

static const pc_option_decl osf_options[] = {
	{"profil", PC_OPTION_ENUM, "pdp11,vax,ultrix,bsd,glibc", NULL,
	 "the kernel's profil bucket rule (multi-range)"},
	{NULL, PC_OPTION_STRING, NULL, NULL, NULL},
};

const pc_loader pc_loader_osf = {
	.abi_version = PC_LOADER_ABI_VERSION,
	.name = "osf",
	.description = "OSF/1 (Tru64) multi-range profil capture, profcore interchange form (PCMRPROF)",
	.roles = PC_ROLE_SAMPLES,
	.extensions = osf_ext,
	.probe = osf_probe,
	.load = osf_load,
	.order = 50,
	.options = osf_options,
};
