#!/usr/bin/env python3
"""Writes the malformed-input corpus (tests/hostile/malformed/files/) from
valid seed files already committed under tests/*/ (see SEEDS).

Deterministic, standard library only.  Every file is a seed (or a smaller
valid file cut down from one, as described in its maker) that was damaged
in one way:

  trunc-N     the seed cut at byte N, one file per field boundary of its
              header and first records (text formats: per line and field)
  magic       the magic number / signature / first line changed
  count-*     a count or size field claiming more than the file holds
  ovf-*       a size, count or address set to 0xFFFFFFFF, 2^63 or
              2^64 - 1 (or a number too long for 64 bits in text)
  bad-*       another field out of its range (version, type, order, ...)
  valid       the undamaged (cut-down) seed itself, which must load
  empty       the zero-length file (one, read with every loader); empty.gz
              a gzip stream of nothing

Wrong-format cases need no file of their own: cases.tsv forces a loader
with -f on another loader's valid file.

The expectations (profcat arguments, exit code, error line) are in
cases.tsv; test_malformed.py runs them and checks that this script
reproduces files/ byte for byte.

Usage: gen.py [--check]   (--check: compare instead of writing; exit 1
                           and name the differences if any)
"""
import os
import struct
import sys
import zlib

HERE = os.path.dirname(os.path.abspath(__file__))
TESTS = os.path.dirname(os.path.dirname(HERE))
OUT = os.path.join(HERE, "files")

SEEDS = {
    "gmon-tagged": "unix/fixtures/x86_64-nopie/gmon.out",
    "gmon-bsd44": "unix/fixtures/x86_64-nopie/layouts/bsd44.gmon",
    "gmon-oldbsd": "unix/fixtures/x86_64-nopie/layouts/oldbsd.gmon",
    "monout-pdp11": "unix/fixtures/pdp11/mon.out",
    "monout-v7": "unix/fixtures/i386-nopie/layouts/v7-le.mon",
    "osf": "unix/fixtures/i386-nopie/layouts/osf.mprof",
    "elf": "raw/ddj68k.elf",
    "elf64": "unix/fixtures/x86_64-nopie/callgraph",
    "proff": "callgraph/fixtures/seed.proff",
    "mpwsym": "callgraph/fixtures/seed.SYM",
    "raw-bin": "raw/w32le.pcs",
    "raw-text": "raw/hex.txt",
    "gemdos-dri": "atari/synth/alcyon.prg",
    "gemdos-sozobon": "atari/synth/sozobon.prg",
    "gemdos-purec": "atari/synth/purec.prg",
    "hatari": "atari/synth/new.hatari",
    "map": "dos/fixtures/dosmap/mslink_basicdos_PRIMES.MAP",
    "prf": "dos/fixtures/prf/PRIMES.PRF",
}

U64MAX = (1 << 64) - 1
files = {}


def seed(key):
    with open(os.path.join(TESTS, SEEDS[key]), "rb") as f:
        return f.read()


def add(name, data):
    assert name not in files, name
    assert len(data) <= 8192, name
    files[name] = bytes(data)


def put(data, off, fmt, value):
    """data with the struct field fmt at off replaced by value."""
    b = bytearray(data)
    struct.pack_into(fmt, b, off, value)
    return bytes(b)


def truncs(prefix, data, cuts):
    for n in cuts:
        assert 0 < n < len(data), (prefix, n)
        add("%s-trunc-%04d" % (prefix, n), data[:n])


def line_ends(text):
    """Offsets just after each newline (cuts at every line boundary)."""
    return [i + 1 for i, c in enumerate(text) if c == 0x0A and i + 1 < len(text)]


# ---- gmon ------------------------------------------------------------------

def gmon_tagged():
    """x86-64 GNU tagged: 20-byte header, one TIME_HIST record cut down to
    16 bins (nbins rewritten), the first two CG_ARC records."""
    d = seed("gmon-tagged")
    nb = struct.unpack_from("<I", d, 37)[0]
    hist = bytearray(d[20:61])
    struct.pack_into("<I", hist, 17, 16)
    arcs = d[61 + 2 * nb:61 + 2 * nb + 42]
    assert arcs[0] == 1 and arcs[21] == 1
    m = d[:20] + bytes(hist) + d[61:61 + 32] + arcs
    add("gmon-tagged-valid.out", m)
    # header: magic version spare | tag low high nbins rate dimen abbrev
    # bins | tag from self count | tag ...
    truncs("gmon-tagged", m, [2, 4, 8, 12, 20, 21, 29, 37, 41, 45, 60, 61, 63,
                              92, 93, 94, 102, 110, 112, 114, 115])
    add("gmon-tagged-magic.out", b"gmoN" + m[4:])
    add("gmon-tagged-bad-version.out", put(m, 4, "<I", 2))
    add("gmon-tagged-bad-tag.out", m[:93] + b"\x07" + m[94:])
    add("gmon-tagged-count-nbins.out", put(m, 37, "<I", (len(m) - 61) // 2 + 1))
    add("gmon-tagged-ovf-nbins.out", put(m, 37, "<I", 0xFFFFFFFF))
    add("gmon-tagged-bad-nbins0.out", put(m, 37, "<I", 0))
    add("gmon-tagged-ovf-lowpc.out", put(m, 21, "<Q", U64MAX))
    add("gmon-tagged-ovf-bbcount.out", m + b"\x02" + struct.pack("<I", 0xFFFFFFFF))
    add("gmon-tagged-count-bb.out", m + b"\x02" + struct.pack("<IQQ", 2, 1, 2))


def gmon_bsd(kind, hdr):
    """4.4BSD (40-byte header) or old BSD (20-byte) with 8-byte addresses:
    histogram cut to 16 counters (ncnt rewritten), first two arcs."""
    d = seed("gmon-" + kind)
    ncnt = struct.unpack_from("<I", d, 16)[0]
    h = put(d[:hdr], 16, "<I", hdr + 32)
    m = h + d[hdr:hdr + 32] + d[ncnt:ncnt + 48]
    p = "gmon-" + kind
    add(p + "-valid.gmon", m)
    cuts = [4, 8, 16] + ([20, 24, 28, 32, 36] if hdr == 40 else []) + \
        [hdr, hdr + 2, hdr + 32 - 1, hdr + 32 + 12]
    truncs(p, m, cuts)
    add(p + "-count-ncnt.gmon", put(m, 16, "<I", len(m) + 2))
    add(p + "-ovf-ncnt.gmon", put(m, 16, "<I", 0xFFFFFFFF))
    add(p + "-bad-ncnt-small.gmon", put(m, 16, "<I", hdr - 2))
    add(p + "-ovf-lowpc.gmon", put(m, 0, "<Q", U64MAX))
    add(p + "-ovf-arccount.gmon", put(m, hdr + 32 + 16, "<Q", 1 << 63))
    if kind == "bsd44":
        # no counter type: garbage as MinGW leaves it, read (exit 0)
        add(p + "-bad-type.gmon", put(m, 28, "<i", 12))
    # 16 counters: over 2 bytes of code (more than one per 2 bytes), or
    # over 17 x 128 KiB (profil's coarsest scale covers 16 x 128 KiB)
    low = struct.unpack_from("<Q", m, 0)[0]
    add(p + "-dense-hist.gmon", put(m, 8, "<Q", low + 2))
    add(p + "-sparse-hist.gmon", put(m, 8, "<Q", low + 17 * 131072))


# ---- mon.out ---------------------------------------------------------------

def monout():
    """PDP-11 mon.out (2-byte words) and a 32-bit V7-style one (i386)."""
    d = seed("monout-pdp11")
    add("monout-pdp11-valid.mon", d)
    # lowpc highpc ncnt | slot: pc ncall(hi, lo) | counters
    truncs("monout-pdp11", d, [2, 4, 6, 8, 10, 12, 13])
    add("monout-pdp11-count-ncnt.mon", put(d, 4, "<H", 0x20))
    add("monout-pdp11-ovf-ncnt.mon", put(d, 4, "<H", 0xFFFF))
    add("monout-pdp11-bad-order.mon", put(d, 0, "<H", 0x0200))
    add("monout-pdp11-bad-slotpc.mon", put(d, 6, "<H", 0x0400))
    add("monout-pdp11-bad-freeslot.mon", put(d, 6, "<H", 0))
    v = seed("monout-v7")
    ncnt = struct.unpack_from("<I", v, 8)[0]
    m = v[:12 + 8 * ncnt + 64]
    add("monout-v7-valid.mon", m)
    truncs("monout-v7", m, [4, 8, 12, 16, 20, 12 + 8 * ncnt - 4, 12 + 8 * ncnt + 1])
    add("monout-v7-count-ncnt.mon", put(m, 8, "<I", 0x100))
    add("monout-v7-ovf-ncnt.mon", put(m, 8, "<I", 0xFFFFFFFF))
    add("monout-v7-ovf-highpc.mon", put(m, 4, "<I", 0xFFFFFFFF))


# ---- OSF/1 multi-range -----------------------------------------------------

def osf():
    """PCMRPROF cut down to its first named range (nranges rewritten to 1)."""
    d = seed("osf")
    nr = struct.unpack_from("<H", d, 10)[0]
    pos = 24 + 24 * nr
    for i in range(nr):
        desc = d[24 + 24 * i:48 + 24 * i]
        _, _, nb0, _, _, nl0, _ = struct.unpack("<QIIBBHI", desc)
        if nl0:
            break
        pos += 2 * nb0
    m = put(d[:24], 10, "<H", 1) + desc + d[pos:pos + nl0 + 2 * nb0]
    add("osf-valid.mprof", m)
    # magic version nranges rate rule order pad flags | offset scale nbins
    # class pad namelen pad | name | counters
    truncs("osf", m, [4, 8, 10, 12, 16, 17, 18, 20, 24, 32, 36, 40, 41, 42,
                      44, 48, 48 + nl0 // 2, 48 + nl0, 48 + nl0 + 1,
                      len(m) - 1])
    add("osf-magic.mprof", b"PCMRPROX" + m[8:])
    add("osf-bad-version.mprof", put(m, 8, "<H", 2))
    add("osf-bad-nranges0.mprof", put(m, 10, "<H", 0))
    add("osf-count-nranges.mprof", put(m, 10, "<H", 64))
    add("osf-ovf-nranges.mprof", put(m, 10, "<H", 0xFFFF))
    add("osf-bad-rule.mprof", put(m, 16, "<B", 9))
    add("osf-bad-order.mprof", put(m, 17, "<B", 2))
    add("osf-count-nbins.mprof", put(m, 36, "<I", nb0 + 1))
    add("osf-ovf-nbins.mprof", put(m, 36, "<I", 0xFFFFFFFF))
    add("osf-bad-nbins0.mprof", put(m, 36, "<I", 0))
    add("osf-ovf-namelen.mprof", put(m, 42, "<H", 0xFFFF))
    add("osf-ovf-offset.mprof", put(m, 24, "<Q", U64MAX - 16))
    add("osf-ovf-offset63.mprof", put(m, 24, "<Q", 1 << 63))
    add("osf-ovf-scale.mprof", put(m, 32, "<I", 0xFFFFFFFF))
    add("osf-bad-scale0.mprof", put(m, 32, "<I", 0))
    add("osf-trailing.mprof", m + b"\x00\x00")


# ---- ELF -------------------------------------------------------------------

def elf():
    """ddj68k.elf: ELF32 big-endian, 6 sections, .symtab is section 3."""
    d = seed("elf")
    add("elf-valid.elf", d)
    shoff = struct.unpack_from(">I", d, 32)[0]
    # e_ident (magic class data version osabi pad) type machine version entry
    # phoff shoff flags ehsize phentsize phnum shentsize shnum shstrndx
    truncs("elf", d, [2, 4, 5, 6, 7, 16, 18, 20, 24, 28, 32, 36, 40, 42, 44,
                      46, 48, 50, 52, shoff, shoff + 40 + 20, len(d) - 1])
    add("elf-magic.elf", b"\x7fELV" + d[4:])
    add("elf-bad-class.elf", put(d, 4, "B", 3))
    add("elf-bad-data.elf", put(d, 5, "B", 0))
    add("elf-bad-version.elf", put(d, 6, "B", 2))
    add("elf-ovf-shoff.elf", put(d, 32, ">I", 0xFFFFFFFF))
    add("elf-count-shnum.elf", put(d, 48, ">H", 7))
    add("elf-ovf-shnum.elf", put(d, 48, ">H", 0xFFFF))
    add("elf-bad-shentsize.elf", put(d, 46, ">H", 20))
    add("elf-bad-shstrndx.elf", put(d, 50, ">H", 9))
    sym = shoff + 3 * 40
    add("elf-ovf-symtab-size.elf", put(d, sym + 20, ">I", 0xFFFFFFFF))
    add("elf-ovf-symtab-offset.elf", put(d, sym + 16, ">I", 0xFFFFFFF0))
    add("elf-count-symtab-size.elf", put(d, sym + 20, ">I", len(d)))
    add("elf-bad-symtab-entsize.elf", put(d, sym + 36, ">I", 0))
    add("elf-bad-symtab-link.elf", put(d, sym + 24, ">I", 9))
    strtab = shoff + 4 * 40
    add("elf-count-strtab-size.elf", put(d, strtab + 20, ">I", len(d)))
    symoff = struct.unpack_from(">I", d, sym + 16)[0]
    add("elf-ovf-st-name.elf", put(d, symoff + 16, ">I", 0xFFFFFFFF))
    # the string table's last byte not a NUL: the names before the last
    # one are still terminated, the last one (symbol 17's) is not
    stroff, strsize = struct.unpack_from(">II", d, strtab + 16)
    add("elf-bad-strtab-end.elf", put(d, stroff + strsize - 1, "B", 0x58))
    add("elf-bad-st-shndx.elf", put(d, symoff + 16 + 14, ">H", 0xFEFF))
    # ELF64 little-endian: its 64-byte header only (e_shoff 40, e_shentsize
    # 58, e_shnum 60, e_shstrndx 62)
    h = seed("elf64")[:64]
    truncs("elf64", h, [16, 24, 40, 48, 58, 60, 62, 63])
    add("elf64-header-only.elf", h)
    add("elf64-bad-shentsize.elf", put(h, 58, "<H", 40))


# ---- MPW -------------------------------------------------------------------

def proff():
    d = seed("proff")
    add("proff-valid.proff", d)
    first = d.index(b"\n")
    cuts = [i for i in range(first) if d[i] == 0x09] + line_ends(d)
    truncs("proff", d, cuts)
    last = d.rstrip(b"\n").rindex(b"\n") + 1
    add("proff-count-arcs.proff", d[:last] + b"b\n")
    add("proff-ovf-count.proff", d[:last] + b"10000000000000000\n")
    add("proff-bad-negative.proff", d.replace(b"\t1\t15146c4", b"\t-1\t15146c4", 1))
    add("proff-ovf-field.proff", d.replace(b"\t15146c4\t", b"\t1ffffffffffffffff\t", 1))
    add("proff-bad-fields.proff", d.replace(b"\t2d2da\n", b"\n", 1))
    add("proff-magic.proff", b"Proff\n" + d)


def mpwsym():
    """seed.SYM: page 0 holds the 154-byte header block."""
    d = seed("mpwsym")
    add("mpwsym-valid.SYM", d)
    psize = struct.unpack_from(">H", d, 32)[0]
    cuts = [1, 12, 32, 34, 36, 38, 42] + [42 + 8 * i + j for i in range(13)
                                           for j in (2, 4)][1::2] + \
        [146, 150, 154, psize, psize + 18]
    truncs("mpwsym", d, sorted(set(cuts)))
    add("mpwsym-magic.SYM", b"\x0bVersion 9.9" + d[12:])
    add("mpwsym-bad-version31.SYM", b"\x0bVersion 3.1" + d[12:])
    add("mpwsym-bad-pagesize0.SYM", put(d, 32, ">H", 0))
    add("mpwsym-ovf-pagesize.SYM", put(d, 32, ">H", 0xFFFF))
    # table descriptors: RTE is the second (42 + 8), MTE the third (42 + 16)
    add("mpwsym-count-rte.SYM", put(d, 50 + 4, ">I", 1000))
    add("mpwsym-ovf-rte.SYM", put(d, 50 + 4, ">I", 0xFFFFFFFF))
    add("mpwsym-ovf-mte-page.SYM", put(d, 58, ">H", 0xFFFF))
    add("mpwsym-count-mte-pages.SYM", put(d, 58 + 2, ">H", 0xFFFF))
    add("mpwsym-ovf-mte.SYM", put(d, 58 + 4, ">I", 0xFFFFFFFF))


# ---- raw -------------------------------------------------------------------

def raw():
    b = seed("raw-bin")[:40]
    add("raw-bin-valid.pcs", b)
    truncs("raw-bin", b, [1, 2, 3, 38, 39])
    t = seed("raw-text")
    t = t[:t.index(b"\n", 200) + 1]
    add("raw-text-valid.txt", t)
    ends = line_ends(t)
    truncs("raw-text", t, ends[:6] + [ends[3] + 2])
    add("raw-text-ovf-hex.txt", t + b"0x10000000000000000\n")
    add("raw-text-ovf-segoff.txt", t + b"1ffff:0000\n")
    add("raw-text-bad-negative.txt", t + b"-1\n")
    add("raw-text-bad-char.txt", t + b"0x10g0\n")
    # comments and blank lines (CRLF, whitespace) but not one sample
    c = b"".join(l.rstrip(b"\r") + b"\r\n" for l in t.split(b"\n")
                 if l.startswith((b"#", b";")))
    add("raw-text-bad-nosamples.txt", c + b"\r\n \t\r\n  # indented\r\n")


# ---- Atari -----------------------------------------------------------------

def gemdos():
    d = seed("gemdos-dri")
    add("gemdos-dri-valid.prg", d)
    _, tlen, dlen, blen, slen = struct.unpack_from(">HIIII", d, 0)
    syms = 28 + tlen + dlen
    rel = syms + slen
    # magic tlen dlen blen slen res1 prgflags absflag | text data | symbol
    # slots (name[8] type value) | fixups (first long, then bytes)
    truncs("gemdos-dri", d, [2, 6, 10, 14, 18, 22, 26, 28, 28 + tlen // 2,
                             syms, syms + 8, syms + 10, syms + 13, rel,
                             rel + 2])
    add("gemdos-dri-magic.prg", put(d, 0, ">H", 0x601B))
    add("gemdos-dri-count-tlen.prg", put(d, 2, ">I", tlen + len(d)))
    add("gemdos-dri-ovf-tlen.prg", put(d, 2, ">I", 0xFFFFFFFF))
    add("gemdos-dri-ovf-dlen.prg", put(d, 6, ">I", 0xFFFFFFFF))
    add("gemdos-dri-ovf-blen.prg", put(d, 10, ">I", 0xFFFFFFFF))
    add("gemdos-dri-count-slen.prg", put(d, 14, ">I", slen + 14))
    add("gemdos-dri-ovf-slen.prg", put(d, 14, ">I", 0xFFFFFFFF))
    add("gemdos-dri-bad-slen.prg", put(d, 14, ">I", slen - 1))
    add("gemdos-dri-ovf-tlen-dlen.prg", put(put(d, 2, ">I", 0x80000000), 6, ">I", 0x80000000))
    add("gemdos-dri-ovf-fixup.prg", put(d, rel, ">I", 0xFFFFFFFE))
    s = seed("gemdos-sozobon")
    add("gemdos-sozobon-valid.prg", s)
    _, tlen, dlen, _, slen = struct.unpack_from(">HIIII", s, 0)
    syms = 28 + tlen + dlen
    truncs("gemdos-sozobon", s, [syms + 14, syms + 28, syms + slen - 7])
    p = seed("gemdos-purec")
    add("gemdos-purec-valid.prg", p)
    q = p.index(b"QDB1")
    truncs("gemdos-purec", p, [q + 2, q + 4, q + 8, q + 16, q + 32, len(p) - 1])
    add("gemdos-purec-ovf-qdb.prg", put(p, q + 4, ">I", 0xFFFFFFFF))


def hatari():
    d = seed("hatari")
    add("hatari-valid.hatari", d)
    ends = line_ends(d)
    data0 = d.index(b"\n00001000") + 1
    truncs("hatari", d, ends[:12] + [data0 + 8, data0 + 40, data0 + 60])
    add("hatari-magic.hatari", d.replace(b"Hatari CPU profile", b"Hatari CPX profile", 1))
    add("hatari-ovf-address.hatari", d.replace(b"\n00013f22 ", b"\n1ffffffff00013f22 ", 1))
    add("hatari-bad-negative.hatari", d.replace(b"(5, 20, 1, 0)", b"(-5, 20, 1, 0)", 1))
    add("hatari-ovf-count.hatari", d.replace(b"(5, 20, 1, 0)", b"(99999999999999999999, 20, 1, 0)", 1))
    add("hatari-ovf-range.hatari", d.replace(b"0x013f00-0x014060", b"0x013f00-0x1ffffffffffffffff", 1))
    add("hatari-bad-range.hatari", d.replace(b"0x013f00-0x014060", b"0x014060-0x013f00", 1))
    add("hatari-ovf-cycles.hatari", d.replace(b"32084988", b"99999999999999999999999", 1))
    # 2^64: one more than a counter holds
    add("hatari-ovf-field.hatari", d.replace(b"(5, 20, 1, 0)", b"(5, 18446744073709551616, 1, 0)", 1))
    add("hatari-ovf-callee.hatari", d.replace(b"0x13f40: 0x13f24", b"0x1ffffffffffffffff: 0x13f24", 1))
    add("hatari-ovf-caller.hatari", d.replace(b"0x13f40: 0x13f24", b"0x13f40: 0x1ffffffffffffffff", 1))
    add("hatari-ovf-calls.hatari", d.replace(b"0x13f24 = 7 ", b"0x13f24 = 99999999999999999999 ", 1))
    # fits 64 bits, not the 32-bit Atari address space
    add("hatari-bad-address.hatari", d.replace(b"\n00013f22 ", b"\n100013f22 ", 1))
    add("hatari-bad-caller.hatari", d.replace(b"0x13f40: 0x13f24", b"0x13f40: 0x100000000", 1))
    add("hatari-bad-area.hatari", d.replace(b"0x013f00-0x014060", b"0x100000000-0x100000000", 1))
    # leading zeros do not count towards 64 bits
    add("hatari-valid-zeros.hatari", d.replace(b"\n00013f22 ", b"\n000000000000000000013f22 ", 1))
    # an address line over 4096 bytes (one instruction per line)
    add("hatari-long-line.hatari", d.replace(b"\n00013f22 ", b"\n00013f22 " + b" " * 4100, 1))


# ---- DOS -------------------------------------------------------------------

def dosmap():
    d = seed("map")
    add("map-valid.map", d)
    truncs("map", d, line_ends(d))
    add("map-ovf-segment.map", d.replace(b"0000:0177", b"10000:0177", 1))
    add("map-ovf-offset.map", d.replace(b"0000:0177", b"0000:1ffffffffffffffff", 1))
    add("map-ovf-length.map", d.replace(b"001A1H", b"FFFFFFFFFFFFFFFFFH", 1))
    add("map-bad-negative.map", d.replace(b"0000:0177", b"-000:0177", 1))
    add("map-bad-digit.map", d.replace(b"0000:0177", b"0000:01G7", 1))


def prf():
    d = seed("prf")
    add("prf-valid.prf", d)
    truncs("prf", d, [1, 2, 4, 6, 8, 10, 12, 14, 16, 18, 19, 20, len(d) - 1])
    add("prf-count-buckets.prf", put(d, 2, "<H", 13))
    add("prf-ovf-buckets.prf", put(d, 2, "<H", 0xFFFF))
    add("prf-bad-buckets0.prf", put(d, 2, "<H", 0))
    add("prf-bad-bucketsize0.prf", put(d, 4, "<H", 0))
    add("prf-ovf-bucketsize.prf", put(d, 4, "<H", 0xFFFF))
    add("prf-bad-order.prf", put(d, 8, "<H", 0x1000))
    add("prf-ovf-high.prf", put(d, 8, "<H", 0xFFFF))
    add("prf-trailing.prf", d + b"\x00")


def common():
    add("empty", b"")
    # gzip of nothing, written out: header (no name, mtime 0, OS unknown),
    # one empty final deflate block, CRC-32 0, length 0
    add("empty.gz", bytes.fromhex("1f8b08000000000000ff") + b"\x03\x00" + bytes(8))


def deflate_fixed(data, zeros):
    """A gzip member (mtime 0, OS unknown) of data followed by zeros zero
    bytes, deflated by hand with the fixed Huffman codes: the literals,
    then a 0 and copies of 258 at distance 1 (about 160:1, deterministic
    whatever the zlib)."""
    bits = []

    def put(v, n, rev):  # rev: Huffman code, most significant bit first
        for i in range(n):
            bits.append((v >> (n - 1 - i)) & 1 if rev else (v >> i) & 1)

    def lit(b):
        if b < 144:
            put(0x30 + b, 8, True)
        else:
            put(0x190 + b - 144, 9, True)

    put(1, 1, False)  # BFINAL
    put(1, 2, False)  # BTYPE 01: fixed codes
    for b in data:
        lit(b)
    left = zeros
    if left:
        lit(0)
        left -= 1
    while left >= 258:
        put(0xC5, 8, True)  # length code 285: 258
        put(0, 5, True)     # distance code 0: 1
        left -= 258
    for _ in range(left):
        lit(0)
    put(0, 7, True)  # end of block
    while len(bits) % 8:
        bits.append(0)
    body = bytes(sum(bits[i + k] << k for k in range(8))
                 for i in range(0, len(bits), 8))
    whole = data + bytes(zeros)
    return (bytes.fromhex("1f8b08000000000000ff") + body +
            struct.pack("<II", zlib.crc32(whole), len(whole) & 0xFFFFFFFF))


def bounded():
    """Inputs of unknown size (gzip) whose first record cannot be valid:
    the error comes from the first bytes, not after reading all (the
    1 GiB versions are in tests/hostile/scale)."""
    d = seed("gmon-tagged")
    # header, then a histogram record claiming 0 bins, then 1 MiB of zeros
    rec = d[:20] + b"\0" + struct.pack("<QQII", 0x1000, 0x2000, 0, 100) + \
        b"seconds".ljust(15, b"\0") + b"s"
    add("bomb-gmon-0bins.gz", deflate_fixed(rec, 1 << 20))
    add("bomb-zeros.gz", deflate_fixed(b"", 1 << 20))
    # a valid gzip of a valid seed with its CRC-32 damaged
    v = deflate_fixed(b"0x1000\n0x1004\n", 0)
    add("gzip-bad-crc.gz", v[:-8] + bytes([v[-8] ^ 0xFF]) + v[-7:])
    # a Hatari counter near 2^64 (fits 64 bits): the gmon export refuses it
    h = seed("hatari")
    add("hatari-big-count.hatari", h.replace(b"(5, 20, 1, 0)",
                                             b"(18446744073709551000, 20, 1, 0)", 1))
    # an nm listing whose names look like hex: BSD and POSIX layouts both
    # read it (names and addresses swapped): refused under detection
    add("nm-hexnames.nm", b"hx.o:\ndeadbeef T cafe\ncafebabe t f00d\n"
                          b"abcdef01 T add\n")


def generate():
    for f in (common, gmon_tagged, lambda: gmon_bsd("bsd44", 40),
              lambda: gmon_bsd("oldbsd", 20), monout, osf, elf, proff, mpwsym,
              raw, gemdos, hatari, dosmap, prf, bounded):
        f()


def main():
    generate()
    check = sys.argv[1:] == ["--check"]
    present = set(os.listdir(OUT)) if os.path.isdir(OUT) else set()
    diffs = sorted(present - set(files))
    for name, data in sorted(files.items()):
        path = os.path.join(OUT, name)
        old = None
        if name in present:
            with open(path, "rb") as f:
                old = f.read()
        if old == data:
            continue
        diffs.append(name)
        if not check:
            os.makedirs(OUT, exist_ok=True)
            with open(path, "wb") as f:
                f.write(data)
    if check:
        for n in diffs:
            print("differs from gen.py: files/%s" % n)
        print("%d files, %d differ" % (len(files), len(diffs)))
        return 1 if diffs else 0
    for n in sorted(present - set(files)):
        os.remove(os.path.join(OUT, n))
    print("%d files written or unchanged, %d updated" % (len(files), len(diffs)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
