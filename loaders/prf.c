/*
 * prf.c - MS-DOS PROFIL histograms (.PRF).
 *
 * PROFIL (MS-DOS 2.0, PROFIL.ASM) writes nine little-endian 16-bit words
 * and then bucket_num bucket counts:
 *
 *   0 clock_grain   sample interval in microseconds (PROFIL accepts >= 60)
 *   2 bucket_num    number of buckets
 *   4 bucket_siz    paragraphs (16 bytes) per bucket, >= 1
 *   6 prog_low_pa   paragraph of the first bucket (PSP + 10h)
 *   8 prog_high_pa  first paragraph above the sampled program
 *  10 dos_pa        I/O system / DOS boundary paragraph
 *  12 hit_io        samples below dos_pa
 *  14 hit_dos       samples in [dos_pa, prog_low_pa)
 *  16 hit_high      samples at or above prog_high_pa
 *  18 buckets[bucket_num]
 *
 * PROFIL always allocates (prog_high_pa - prog_low_pa) / bucket_siz + 1
 * buckets, so the file is exactly 18 + 2 * bucket_num bytes.  Counters are
 * 16-bit and wrap silently at 65536; the file cannot tell.
 *
 * Buckets are loaded as a histogram in image addresses: byte 0 of bucket 0
 * is image address 0 for an .EXE (the origin of MS LINK map addresses) and
 * 0x100 for a .COM program (linked with ORG 100h).  Nothing in the file says
 * which; the option "com" selects the .COM origin, "origin=ADDR" any other.
 * With "absolute" the buckets stay at their physical addresses
 * (prog_low_pa * 16) and the I/O system, DOS and above-program memory
 * become regions too; a map then needs load-address=prog_low_pa (.EXE) or
 * prog_low_pa - 0x10 (.COM), which the loader's note states.
 */
#include "internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PRF_HEADER 18

typedef struct prf_header {
	unsigned grain, num, siz, low, high, dos, io_hits, dos_hits, high_hits;
} prf_header;

static void prf_decode(const unsigned char *b, prf_header *h)
{
	unsigned *w[9] = {&h->grain, &h->num, &h->siz, &h->low, &h->high,
			  &h->dos, &h->io_hits, &h->dos_hits, &h->high_hits};
	for (int i = 0; i < 9; i++)
		*w[i] = pc_get_u16(b + 2 * i, PC_ENDIAN_LITTLE);
}

/* 0 if consistent, else the offset of the first bad field (never 0). */
static int prf_bad_field(const prf_header *h)
{
	if (h->siz == 0)
		return 4;
	if (h->low >= h->high)
		return 8;
	if (h->dos >= h->low)
		return 10;
	if (h->num != (h->high - h->low) / h->siz + 1)
		return 2;
	return 0;
}

static int prf_probe(const unsigned char *head, size_t len, const char *filename)
{
	if (len < PRF_HEADER)
		return 0;
	prf_header h;
	prf_decode(head, &h);
	if (h.grain < 60 || prf_bad_field(&h))
		return 0;
	/* A consistent header is claimed even when the length is wrong, so
	 * that a truncated file gets its precise error from prf_load. */
	int score = 24;
	if (len < 4096 && len == PRF_HEADER + 2 * (size_t)h.num)
		score += 8; /* the whole file, of exactly the right length */
	if (filename) {
		size_t n = strlen(filename);
		if (n >= 4 && (strcmp(filename + n - 4, ".PRF") == 0 ||
			       strcmp(filename + n - 4, ".prf") == 0))
			score += 4;
	}
	return score;
}

static int prf_load(pc_profile *p, pc_stream *s, const pc_options *opts)
{
	unsigned char hb[PRF_HEADER];
	int r = pc_stream_read(hb, sizeof hb, s, "the 18-byte PROFIL header");
	if (r)
		return r;
	prf_header h;
	prf_decode(hb, &h);

	uint64_t origin = 0, com = 0, absolute = 0;
	if ((r = pc_options_get_u64(&com, NULL, opts, "com")) < 0 || com > 1)
		return pc_profile_fail(p, PC_EUSAGE, "com must be 0 or 1");
	if ((r = pc_options_get_u64(&absolute, NULL, opts, "absolute")) < 0 || absolute > 1)
		return pc_profile_fail(p, PC_EUSAGE, "absolute must be 0 or 1");
	if (com)
		origin = 0x100;
	int given = 0;
	if ((r = pc_options_get_u64(&origin, &given, opts, "origin")) < 0)
		return pc_profile_fail(p, PC_EUSAGE, "origin must be an address");
	if (given && absolute)
		return pc_profile_fail(p, PC_EUSAGE, "origin and absolute exclude each other");
	if (origin > UINT64_MAX / 2)
		return pc_profile_fail(p, PC_EUSAGE, "origin too large");

	if (h.grain < 60)
		return pc_stream_fail(s, PC_EFORMAT, 0,
				      "clock grain of %u microseconds is below PROFIL's minimum of 60",
				      h.grain);
	switch (prf_bad_field(&h)) {
	case 4:
		return pc_stream_fail(s, PC_EFORMAT, 4,
				      "bucket size of 0 paragraphs; expected at least 1");
	case 8:
		return pc_stream_fail(s, PC_EFORMAT, 8,
				      "program high paragraph 0x%04x is not above the low paragraph 0x%04x",
				      h.high, h.low);
	case 10:
		return pc_stream_fail(s, PC_EFORMAT, 10,
				      "DOS boundary paragraph 0x%04x is not below the program's first paragraph 0x%04x",
				      h.dos, h.low);
	case 2:
		return pc_stream_fail(s, PC_EFORMAT, 2,
				      "bucket count %u does not match the sampled range: paragraphs 0x%04x-0x%04x in %u-paragraph buckets need %u",
				      h.num, h.low, h.high, h.siz,
				      (h.high - h.low) / h.siz + 1);
	default:
		break;
	}

	uint64_t need = PRF_HEADER + 2 * (uint64_t)h.num;
	uint64_t size;
	int known;
	pc_stream_size(&size, &known, s);
	if (known && size < need)
		return pc_stream_fail(s, PC_ETRUNC, (int64_t)size,
				      "file ends after %llu bytes; %u buckets need %llu",
				      (unsigned long long)size, h.num, (unsigned long long)need);
	if (known && size > need)
		return pc_stream_fail(s, PC_EFORMAT, (int64_t)need,
				      "%llu unexpected bytes after the %u buckets",
				      (unsigned long long)(size - need), h.num);

	unsigned char *raw = malloc(2 * (size_t)h.num);
	uint64_t *counts = malloc(sizeof *counts * h.num);
	if (!raw || !counts) {
		free(raw);
		free(counts);
		return pc_profile_fail(p, PC_ENOMEM, "out of memory");
	}
	r = pc_stream_read(raw, 2 * (size_t)h.num, s, "bucket counts");
	if (!r && !known) { /* size unknown (gzip, pipe): must end here */
		unsigned char extra;
		size_t k;
		r = pc_stream_read_some(&extra, 1, &k, s);
		if (!r && k > 0)
			r = pc_stream_fail(s, PC_EFORMAT, (int64_t)need,
					   "unexpected bytes after the %u buckets", h.num);
	}
	if (r) {
		free(raw);
		free(counts);
		return r;
	}
	for (unsigned i = 0; i < h.num; i++)
		counts[i] = pc_get_u16(raw + 2 * i, PC_ENDIAN_LITTLE);
	free(raw);

	if (absolute)
		origin = (uint64_t)h.low * 16;
	uint64_t bucket_bytes = (uint64_t)h.siz * 16;
	pc_histogram hist = {
		.segment = PC_NOSEG,
		.low = origin,
		.high = origin + bucket_bytes * h.num,
		.nbins = h.num,
		.counts = counts,
		.unit = 1,
	};
	r = pc_profile_add_histogram(p, &hist);
	free(counts);
	if (r)
		return r;
	/* PROFIL's program area: what it counted as neither DOS, I/O nor high */
	pc_region area = {PC_NOSEG, origin, origin + (uint64_t)(h.high - h.low) * 16,
			  PC_REGION_APPLICATION, "program"};
	if ((r = pc_profile_add_region(p, &area)))
		return r;
	if (absolute) {
		/* 1 MiB of real-mode memory as PROFIL divided it */
		const pc_region mem[] = {
			{PC_NOSEG, 0, (uint64_t)h.dos * 16, PC_REGION_IO, "I/O system"},
			{PC_NOSEG, (uint64_t)h.dos * 16, (uint64_t)h.low * 16, PC_REGION_DOS, "DOS"},
			{PC_NOSEG, (uint64_t)h.high * 16, 0x100000, PC_REGION_HIGH, "above the program"},
		};
		for (size_t i = 0; i < sizeof mem / sizeof mem[0]; i++)
			if ((r = pc_profile_add_region(p, &mem[i])))
				return r;
	}
	if ((r = pc_profile_add_class_samples(p, PC_REGION_IO, h.io_hits)) ||
	    (r = pc_profile_add_class_samples(p, PC_REGION_DOS, h.dos_hits)) ||
	    (r = pc_profile_add_class_samples(p, PC_REGION_HIGH, h.high_hits)))
		return r;
	pc_profile_note(p,
			"PROFIL: %u-microsecond clock, %u buckets of %u paragraph%s, program paragraphs 0x%04x-0x%04x, DOS from paragraph 0x%04x",
			h.grain, h.num, h.siz, h.siz == 1 ? "" : "s", h.low, h.high, h.dos);
	if (absolute)
		pc_profile_note(p,
				"PROFIL: buckets at physical addresses 0x%05llx-0x%05llx; give a map the option load-address=0x%04x (.EXE) or 0x%04x (.COM)",
				(unsigned long long)origin,
				(unsigned long long)(origin + bucket_bytes * h.num), h.low,
				h.low - 0x10);
	else
		pc_profile_note(p,
				"PROFIL: buckets at image addresses 0x%llx-0x%llx (%s)",
				(unsigned long long)origin,
				(unsigned long long)(origin + bucket_bytes * h.num),
				com ? ".COM origin 0x100" : origin ? "origin option"
							       : ".EXE origin; the option com=1 for a .COM program");
	/* the header as PROHST printed it (paragraphs, hex) */
	char v[16];
	snprintf(v, sizeof v, "0x%04x", h.low);
	if ((r = pc_profile_set_meta(p, "profil.prog_low_pa", v)))
		return r;
	snprintf(v, sizeof v, "0x%04x", h.high);
	if ((r = pc_profile_set_meta(p, "profil.prog_high_pa", v)))
		return r;
	snprintf(v, sizeof v, "0x%04x", h.dos);
	if ((r = pc_profile_set_meta(p, "profil.dos_pa", v)))
		return r;
	pc_profile_set_rate(p, 1e6 / h.grain);
	pc_profile_set_target(p, 2, PC_ENDIAN_LITTLE);
	return PC_OK;
}

static const char *const prf_ext[] = {"prf", "PRF", NULL};

static const pc_option_decl prf_options[] = {
	{"com", PC_OPTION_ENUM, "0,1", "0",
	 "1: a .COM program (origin 0x100)"},
	{"absolute", PC_OPTION_ENUM, "0,1", "0",
	 "1: keep physical addresses; DOS, BIOS regions"},
	{"origin", PC_OPTION_U64, NULL, "0",
	 "image address of the histogram start"},
	{NULL, PC_OPTION_STRING, NULL, NULL, NULL},
};

const pc_loader pc_loader_prf = {
	.abi_version = PC_LOADER_ABI_VERSION,
	.name = "prf",
	.description = "MS-DOS PROFIL histogram (.PRF)",
	.roles = PC_ROLE_SAMPLES,
	.extensions = prf_ext,
	.probe = prf_probe,
	.load = prf_load,
	.order = 50,
	.options = prf_options,
};
