#!/usr/bin/env python3
"""Builds Atari ST programs with Mark Williams C symbol tables, from the
format as MWC's own sources define it (Coherent n.out.h, nm.c, size.c,
strip.c; summary in shared/research/mwc-symbols.md), into tests/atari/mwc/.

  mwc3.prg        MWC 3.x: the n.out header (LF_32 | LF_FAKE, M_68000)
                  appended after the GEMDOS fixups, at an odd offset, then
                  DEBUG, SYM, REL; ph_slen 0
  mwc3_slen.prg   the same with 10 bytes in ph_slen (skipped, as MWC's
                  tools skip them)
  mwc2.prg        earlier MWC: 7 records (154 bytes = 11 DRI slots) bare in
                  ph_slen, the case a 14-byte-slot reader takes for DRI
  mwc2_hdr.prg    8 records after a 48-byte n.out header in ph_slen
                  (224 bytes = 16 DRI slots)
  mwc_bad_hdr.prg 07 01 after the fixups, but no LF_32 and a SYM size that
                  is not a multiple of 22
  mwc_bad_rec.prg 66 bytes in ph_slen (3 records, not 14 x n) with a type
                  that is no segment code
  mwc_bad_name.prg 7 records (11 DRI slots) whose name has a byte after
                  its NUL padding: read as DRI (the size fits)
  mwc3_stripped.prg the appended header with an empty SYM segment

The functions are also used by check_mwc.py to put the real records of
shared/fixtures/mwc into programs at test time (those files are not
copied here).

Byte order (Coherent "canonical"): 16-bit little-endian; 32-bit as two
little-endian 16-bit words, high word first.

Run: python3 tests/atari/gen_mwc.py  (rewrites the files; deterministic).
"""
import os
import struct
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "mwc")

# segment numbers (n.out.h) and flags
L_SHRI, L_PRVI, L_BSSI, L_SHRD, L_PRVD, L_BSSD, L_DEBUG, L_SYM, L_REL, \
    L_ABS, L_REF = range(11)
L_GLOBAL = 0o20
LF_32 = 0o20
LF_FAKE = 0o400
M_68000 = 10


def can16(v):
    return struct.pack("<H", v)


def can32(v):
    return struct.pack("<HH", (v >> 16) & 0xFFFF, v & 0xFFFF)


def nout_header(sizes, flag=LF_32 | LF_FAKE, machine=M_68000, tbase=48,
                entry=0):
    """struct ldheader: magic 0407, flag, machine, tbase, 9 sizes, entry."""
    assert len(sizes) == 9
    return (can16(0o407) + can16(flag) + can16(machine) + can16(tbase) +
            b"".join(can32(s) for s in sizes) + can32(entry))


def record(name, typ, value):
    """struct ldsym: 16-byte NUL-padded name, type, value."""
    if isinstance(name, str):
        name = name.encode()
    assert len(name) <= 16
    return name.ljust(16, b"\0") + can16(typ) + can32(value)


def gemdos(tlen, dlen, blen, slen):
    return struct.pack(">HIIIIIIH", 0x601A, tlen, dlen, blen, slen, 0, 0, 0)


def fixups(offsets):
    if not offsets:
        return b"\0\0\0\0"
    out = struct.pack(">I", offsets[0])
    for a, b in zip(offsets, offsets[1:]):
        out += bytes([b - a])
    return out + b"\0"


def text(n):
    """move.l 4(a7),a5 (MWC's start-up) then NOPs."""
    assert n % 2 == 0 and n >= 4
    return b"\x2a\x6f\x00\x04" + b"\x4e\x71" * ((n - 4) // 2)


def program_appended(tx, data, blen, syms, relocs, debug=b"", rel=b"",
                     slen_bytes=b"", header=None):
    """MWC 3.x: GEMDOS program, then the n.out block after the fixups."""
    sizes = [len(tx), 0, 0, len(data), 0, blen, len(debug), len(syms),
             len(rel)]
    hdr = header if header is not None else nout_header(sizes)
    return (gemdos(len(tx), len(data), blen, len(slen_bytes)) + tx + data +
            slen_bytes + fixups(relocs) + hdr + debug + syms + rel)


def program_inside(tx, data, blen, syms, relocs, prefix=b""):
    """MWC 2.x: the records (after an optional 48-byte header) in ph_slen."""
    area = prefix + syms
    return (gemdos(len(tx), len(data), blen, len(area)) + tx + data + area +
            fixups(relocs))


# The program of the synthetic tests: TEXT 0x80, DATA 0x10, BSS 0x20.
TLEN, DLEN, BLEN = 0x80, 0x10, 0x20
SYMS3 = [
    ("start", L_SHRI, 0x0),               # run-time start-up: no '_'
    ("main_", L_SHRI | L_GLOBAL, 0x10),   # C main
    ("retz", L_SHRI, 0x2e),               # local assembler label
    ("_exit_", L_SHRI | L_GLOBAL, 0x30),  # C _exit
    ("exit_", L_SHRI | L_GLOBAL, 0x40),
    ("retz", L_SHRI, 0x4e),               # a second local retz
    ("averylongname_xy", L_SHRI | L_GLOBAL, 0x50),  # 16 chars, no NUL
    ("dlcmp", L_PRVI | L_GLOBAL, 0x60),
    ("environ_", L_SHRD | L_GLOBAL, TLEN + 0x0),
    ("errno_", L_PRVD | L_GLOBAL, TLEN + 0x8),
    ("buf_", L_BSSD | L_GLOBAL, TLEN + DLEN + 0x0),
    ("count_", L_BSSD, TLEN + DLEN + 0x10),
    ("NSIG", L_ABS | L_GLOBAL, 32),
    ("dbg", L_DEBUG, 0x4),
    ("printf_", L_REF | L_GLOBAL, 0),     # undefined reference
    ("cbuf_", L_REF | L_GLOBAL, 0x40),    # common block of 0x40 bytes
]
# the seven-symbol table of the DRI-size trap (and eight after a header)
SYMS7 = [
    ("start", L_SHRI, 0x0),
    ("main_", L_SHRI | L_GLOBAL, 0x10),
    ("sleepy_", L_SHRI | L_GLOBAL, 0x20),
    ("dopey_", L_SHRI | L_GLOBAL, 0x40),
    ("exit_", L_SHRI | L_GLOBAL, 0x60),
    ("environ_", L_SHRD | L_GLOBAL, TLEN + 0x4),
    ("buf_", L_BSSD, TLEN + DLEN + 0x8),
]
SYMS8 = SYMS7 + [("grumpy_", L_PRVI | L_GLOBAL, 0x70)]
RELOCS = [0x4, 0x8, 0x80]  # even, inside TEXT+DATA; the list ends at odd


def table(syms):
    return b"".join(record(n, t, v) for n, t, v in syms)


def synth():
    tx, data = text(TLEN), bytes(range(DLEN))
    out = {}
    out["mwc3.prg"] = program_appended(tx, data, BLEN, table(SYMS3), RELOCS,
                                       debug=b"\x01\x02\x03\x04\x05\x06",
                                       rel=b"\x10\x00\x20")
    out["mwc3_slen.prg"] = program_appended(tx, data, BLEN, table(SYMS7),
                                            RELOCS, slen_bytes=b"X" * 10)
    out["mwc2.prg"] = program_inside(tx, data, BLEN, table(SYMS7), RELOCS)
    sizes = [TLEN, 0, 0, DLEN, 0, BLEN, 0, 22 * 8, 0]
    out["mwc2_hdr.prg"] = program_inside(tx, data, BLEN, table(SYMS8), RELOCS,
                                         prefix=nout_header(sizes, flag=LF_32))
    bad = nout_header([TLEN, 0, 0, DLEN, 0, BLEN, 0, 23, 0], flag=0)
    out["mwc_bad_hdr.prg"] = program_appended(tx, data, BLEN, b"\0" * 23,
                                              RELOCS, header=bad)
    out["mwc_bad_rec.prg"] = program_inside(
        tx, data, BLEN, table(SYMS7[:2]) + record("oops_", 0x1234, 0), RELOCS)
    broken = table(SYMS7)
    broken = broken[:22 * 3 + 8] + b"Z" + broken[22 * 3 + 9:]  # after "dopey_\0"
    out["mwc_bad_name.prg"] = program_inside(tx, data, BLEN, broken, RELOCS)
    out["mwc3_stripped.prg"] = program_appended(tx, data, BLEN, b"", RELOCS)
    return out


def main():
    os.makedirs(OUT, exist_ok=True)
    for name, data in synth().items():
        with open(os.path.join(OUT, name), "wb") as f:
            f.write(data)
    return 0


if __name__ == "__main__":
    sys.exit(main())
