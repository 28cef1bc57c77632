#!/usr/bin/env python3
"""Writes the seven-dwarfs capture of the Atari ST Profiler seed as real
files, for the end-to-end test of `profcat --style atari`:

  fixtures/DWARFS.PRG  a GEMDOS executable with a DRI/Alcyon symbol table:
                       82 text symbols (__start, _main, the seven dwarfs in
                       the seed's source order, _lib01.._lib73), 2 data
  fixtures/dwarfs.pcs  a raw dump of 2674 big-endian 32-bit PCs of a run
                       loaded at LOAD: 2621 in the program (the seed's
                       seven counts and 2 in _main), 53 in the TOS ROM

The counts are the seed's (atari-st-profiler.txt); the layout (0x40 bytes
per routine, where in a routine the PCs fall, the load address) is
invented.  Same layout as the "dwarfs" case of cases.c.

Run: python3 tests/reports/gen_dwarfs.py [OUTDIR]  (deterministic output;
the default OUTDIR is tests/reports/fixtures).
"""
import os
import struct
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "fixtures")
LOAD = 0x13F00          # TEXT start (basepage + 0x100)
STEP = 0x40             # bytes per routine
T_GLOBAL_TEXT = 0xA200  # DRI symbol types (research/atari-formats.md 2.2)
T_GLOBAL_DATA = 0xA400

DWARFS = [("_main", 2), ("_dopey", 217), ("_grumpy", 435), ("_doc", 220),
          ("_sleepy", 874), ("_bashful", 217), ("_happy", 436),
          ("_sneezy", 220)]
SLEEPY = [(0x00, 2), (0x0A, 4), (0x10, 300), (0x14, 290), (0x1A, 276),
          (0x36, 2)]
ROM = [(0xFC1234, 40), (0xFC5678, 13)]


def slot(name, typ, value):
    name = name.encode()
    assert len(name) <= 8
    return name.ljust(8, b"\0") + struct.pack(">HI", typ, value)


def main(out):
    names = ["__start"] + [n for n, _ in DWARFS] + \
        ["_lib%02d" % i for i in range(1, 74)]
    assert len(names) == 82
    tlen = STEP * len(names)
    syms = b"".join(slot(n, T_GLOBAL_TEXT, STEP * i) for i, n in enumerate(names))
    syms += slot("_errno", T_GLOBAL_DATA, tlen) + slot("_environ", T_GLOBAL_DATA, tlen + 4)
    text = b"\x4e\x71" * (tlen // 2)  # NOPs
    data = bytes(8)
    header = struct.pack(">HIIIIIIH", 0x601A, len(text), len(data), 0, len(syms), 0, 0, 0)
    prg = header + text + data + syms + b"\0\0\0\0"  # no fixups

    pcs = []
    for i, (name, count) in enumerate(DWARFS, start=1):
        base = LOAD + STEP * i
        if name == "_sleepy":
            pcs += [(base + off, n) for off, n in SLEEPY]
        else:
            pcs.append((base + 0x12, count))
    pcs += ROM
    assert sum(n for _, n in pcs) == 2674
    # interleaved, as a timer would have taken them
    left = [list(p) for p in pcs]
    dump = b""
    while any(n for _, n in left):
        for p in left:
            if p[1]:
                dump += struct.pack(">I", p[0])
                p[1] -= 1
    os.makedirs(out, exist_ok=True)
    with open(os.path.join(out, "DWARFS.PRG"), "wb") as f:
        f.write(prg)
    with open(os.path.join(out, "dwarfs.pcs"), "wb") as f:
        f.write(dump)


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else OUT)
