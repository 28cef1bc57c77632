/*
 * mz.c - MS-DOS programs: MZ .EXE and .COM, as the code source of
 * "-r disasm" (16-bit real mode; the symbols come from the program's
 * linker map).
 *
 * An .EXE starts with the 28-byte MZ header (little-endian words):
 *
 *   0 "MZ" (or "ZM")      2 bytes in the last 512-byte page (0 = 512)
 *   4 pages of 512 bytes  6 relocation entries     8 header paragraphs
 *  10 min alloc          12 max alloc             14 SS    16 SP
 *  18 checksum           20 IP    22 CS           24 relocation table offset
 *
 * The load image is the bytes from the end of the header (paragraphs * 16)
 * to the end of the last page; DOS copies it to the load segment (PSP +
 * 0x10) and adds that segment to each word the relocation table
 * (offset:segment pairs, relative to the image) points at.  Map addresses
 * (MS LINK, TLINK: SSSS:OOOO from the image start) are image addresses,
 * so the image is placed at 0 and read unrelocated, as the linker wrote
 * it.  A .COM program is its image, loaded at PSP:0100: image address
 * 0x100 (the ORG 100h of its map).  Nothing marks a .COM: it is read as
 * one by its extension (or the option com=1), and must fit a segment.
 *
 * The loader records the layout as metadata (mz.*; docs/dos.md) for the
 * disassembler and for the check of a map against the program.
 */
#include "internal.h"

#include <stdio.h>
#include <string.h>

#define MZ_HDR 28

static int is_com_name(const char *filename)
{
	size_t n = filename ? strlen(filename) : 0;
	return n >= 4 && filename[n - 4] == '.' &&
	       (filename[n - 3] == 'C' || filename[n - 3] == 'c') &&
	       (filename[n - 2] == 'O' || filename[n - 2] == 'o') &&
	       (filename[n - 1] == 'M' || filename[n - 1] == 'm');
}

static int mz_probe(const unsigned char *head, size_t len, const char *filename)
{
	if (len >= MZ_HDR && ((head[0] == 'M' && head[1] == 'Z') ||
			      (head[0] == 'Z' && head[1] == 'M'))) {
		unsigned last = pc_get_u16(head + 2, PC_ENDIAN_LITTLE);
		unsigned pages = pc_get_u16(head + 4, PC_ENDIAN_LITTLE);
		unsigned hdr = pc_get_u16(head + 8, PC_ENDIAN_LITTLE);
		int bid = 16;
		if (last < 512 && pages > 0)
			bid += 8;
		if (hdr >= 2 && (uint64_t)hdr * 16 <= (uint64_t)pages * 512)
			bid += 8;
		return bid;
	}
	/* a .COM has no header: only its name tells (below every format
	 * with a magic number) */
	if (is_com_name(filename) && len > 0)
		return 4;
	return 0;
}

static int set_hex(pc_profile *p, const char *key, uint64_t v)
{
	char b[32];
	snprintf(b, sizeof b, "0x%llx", (unsigned long long)v);
	return pc_profile_set_meta(p, key, b);
}

static int mz_load(pc_profile *p, pc_stream *s, const pc_options *opts)
{
	uint64_t com = 0, size = 0;
	int known = 0, r;
	if ((r = pc_options_get_u64(&com, NULL, opts, "com")) < 0 || com > 1)
		return pc_profile_fail(p, PC_EUSAGE, "com must be 0 or 1");
	pc_stream_size(&size, &known, s);
	unsigned char h[MZ_HDR];
	size_t got = 0;
	if ((r = pc_stream_read_some(h, sizeof h, &got, s)))
		return r;
	int mz = got >= 2 && ((h[0] == 'M' && h[1] == 'Z') || (h[0] == 'Z' && h[1] == 'M'));
	if (!known)
		return pc_stream_fail(s, PC_EUNSUPPORTED, -1,
				      "a DOS program is read from a file (its size is needed)");
	uint64_t off, len, org;
	unsigned cs = 0, ip = 0, ss = 0, sp = 0, nrel = 0;
	if (mz && !com) {
		if (got < MZ_HDR)
			return pc_stream_fail(s, PC_ETRUNC, (int64_t)got,
					      "file ends after %zu bytes; the MZ header needs 28",
					      got);
		unsigned last = pc_get_u16(h + 2, PC_ENDIAN_LITTLE);
		unsigned pages = pc_get_u16(h + 4, PC_ENDIAN_LITTLE);
		unsigned hdr = pc_get_u16(h + 8, PC_ENDIAN_LITTLE);
		unsigned relo = pc_get_u16(h + 24, PC_ENDIAN_LITTLE);
		nrel = pc_get_u16(h + 6, PC_ENDIAN_LITTLE);
		ss = pc_get_u16(h + 14, PC_ENDIAN_LITTLE);
		sp = pc_get_u16(h + 16, PC_ENDIAN_LITTLE);
		ip = pc_get_u16(h + 20, PC_ENDIAN_LITTLE);
		cs = pc_get_u16(h + 22, PC_ENDIAN_LITTLE);
		if (last >= 512)
			return pc_stream_fail(s, PC_EFORMAT, 2,
					      "%u bytes in the last page; expected 0-511", last);
		if (pages == 0)
			return pc_stream_fail(s, PC_EFORMAT, 4,
					      "0 pages; expected at least 1");
		uint64_t end = (uint64_t)pages * 512 - (last ? 512 - last : 0);
		if (end > size)
			return pc_stream_fail(s, PC_ETRUNC, (int64_t)size,
					      "file ends after %llu bytes; its MZ header says %llu (%u pages, %u in the last)",
					      (unsigned long long)size, (unsigned long long)end,
					      pages, last);
		if (hdr < 2 || (uint64_t)hdr * 16 > end)
			return pc_stream_fail(s, PC_EFORMAT, 8,
					      "header of %u paragraphs; expected 2 to %llu (the program's %llu bytes)",
					      hdr, (unsigned long long)(end / 16),
					      (unsigned long long)end);
		if (nrel && (relo < MZ_HDR || (uint64_t)relo + 4 * (uint64_t)nrel > (uint64_t)hdr * 16))
			return pc_stream_fail(s, PC_EFORMAT, 24,
					      "relocation table of %u entries at offset %u lies outside the %u-byte header",
					      nrel, relo, hdr * 16);
		off = (uint64_t)hdr * 16;
		len = end - off;
		org = 0;
		/* each relocation must point at a word of the image */
		if (nrel) {
			if ((r = pc_stream_skip(s, relo - MZ_HDR, "the header up to the relocation table")))
				return r;
			for (unsigned i = 0; i < nrel; i++) {
				unsigned char e[4];
				if ((r = pc_stream_read(e, 4, s, "a relocation entry")))
					return r;
				uint64_t at = (uint64_t)pc_get_u16(e + 2, PC_ENDIAN_LITTLE) * 16 +
					      pc_get_u16(e, PC_ENDIAN_LITTLE);
				if (at + 2 > len)
					return pc_stream_fail(s, PC_EFORMAT, (int64_t)relo + 4 * (int64_t)i,
							      "relocation %u at image offset 0x%llx is outside the %llu-byte load image",
							      i, (unsigned long long)at, (unsigned long long)len);
			}
		}
	} else {
		if (!com && !is_com_name(pc_stream_name(s)))
			return pc_stream_fail(s, PC_EFORMAT, 0,
					      "expected an MZ header (\"MZ\"), or a .COM program: name it .COM or give -O com=1");
		if (size == 0)
			return pc_stream_fail(s, PC_EFORMAT, 0, "an empty .COM program");
		if (size > 0xFF00)
			return pc_stream_fail(s, PC_EFORMAT, 0,
					      "a .COM program of %llu bytes; at most 65280 fit its segment after the PSP",
					      (unsigned long long)size);
		off = 0;
		len = size;
		org = 0x100;
	}
	int given = 0;
	if ((r = pc_options_get_u64(&org, &given, opts, "origin")) < 0 || org > 0xFFFFF)
		return pc_profile_fail(p, PC_EUSAGE, "origin must be an image address below 1 MiB");
	/* --load-address: the load segment, as for the map (paragraphs) */
	uint64_t load = 0;
	if ((r = pc_options_get_u64(&load, NULL, opts, "load-address")) < 0 || load > 0xFFFF)
		return pc_profile_fail(p, PC_EUSAGE, "load-address must be a segment (paragraph) below 0x10000");
	org += load * 16;
	/* a .COM starts at its first byte */
	uint64_t entry = mz && !com ? load * 16 + (uint64_t)cs * 16 + ip : org;
	if (mz && !com)
		pc_profile_note(p, "DOS program: MZ .EXE, load image of %llu bytes at file offset %llu, at image address 0x%llx; entry CS:IP %04X:%04X; %u relocations",
				(unsigned long long)len, (unsigned long long)off,
				(unsigned long long)org, cs, ip, nrel);
	else
		pc_profile_note(p, "DOS program: .COM, %llu bytes at image address 0x%llx (its entry)",
				(unsigned long long)len, (unsigned long long)org);
	if ((r = pc_profile_set_meta(p, "mz.kind", mz && !com ? "exe" : "com")) ||
	    (r = set_hex(p, "mz.image_offset", off)) || (r = set_hex(p, "mz.image_size", len)) ||
	    (r = set_hex(p, "mz.origin", org)) ||
	    (r = set_hex(p, "mz.entry", entry)))
		return r;
	if (mz && !com) {
		char b[16];
		snprintf(b, sizeof b, "%04X:%04X", ss, sp);
		if ((r = pc_profile_set_meta(p, "mz.stack", b)))
			return r;
	}
	pc_profile_set_target(p, 2, PC_ENDIAN_LITTLE);
	return PC_OK;
}

static const char *const mz_ext[] = {"exe", "EXE", "com", "COM", NULL};

static const pc_option_decl mz_options[] = {
	{"com", PC_OPTION_ENUM, "0,1", "0",
	 "1: a .COM program (image at 0x100), whatever its name"},
	{"load-address", PC_OPTION_U64, NULL, "0",
	 "load segment (paragraph) of the image, as given to its map"},
	{"origin", PC_OPTION_U64, NULL, NULL,
	 "image address of the load image (default 0, 0x100 for a .COM)"},
	{NULL, PC_OPTION_STRING, NULL, NULL, NULL},
};

const pc_loader pc_loader_mz = {
	.abi_version = PC_LOADER_ABI_VERSION,
	.name = "mz",
	.description = "MS-DOS program (MZ .EXE, .COM): code for -r disasm",
	.roles = PC_ROLE_SYMBOLS,
	.extensions = mz_ext,
	.probe = mz_probe,
	.load = mz_load,
	.order = 5,
	.options = mz_options,
};
