#!/usr/bin/env python3
"""Large call graphs for the linear-time checks (issue #20).

    gen_scale.py OUTDIR N SHAPE

writes OUTDIR/SHAPE.nm (an `nm -n` listing of N functions fn0..fn{N-1},
32 bytes apart from 0x10000), OUTDIR/SHAPE.elf (the same symbols in an
x86-64 ELF executable with only section headers, a NOBITS .text and a
symbol table: enough for gprof) and OUTDIR/SHAPE.gmon (a GNU gmon.out: one
histogram covering them, and the arcs of SHAPE):

    chain     fn0 -> fn1 -> ... -> fn{N-1}, no cycle
    cycle     the chain with fn{N-1} -> fn1: one cycle of N-1 functions,
              entered from fn0
    backedges the chain plus fn{i} -> fn{i-2} for every odd i > 1: one
              cycle, N/2 back edges found deep in the depth-first walk
    cycles    N/4 - 1 separate four-function cycles called from fn0,
              half of them without samples (zero-time cycles)
"""
import os
import struct
import sys

BASE, STEP = 0x10000, 32


def arcs_of(n, shape):
    a = []
    if shape in ("chain", "cycle", "backedges"):
        a = [(i, i + 1, 1 + i % 5) for i in range(n - 1)]
        if shape == "cycle":
            a.append((n - 1, 1, 3))
        if shape == "backedges":
            a += [(i, i - 2, 2) for i in range(3, n, 2)]
    elif shape == "cycles":
        for c in range(1, n // 4):
            m = [4 * c + k for k in range(4)]
            a.append((0, m[0], 1 + c % 3))
            a += [(m[k], m[(k + 1) % 4], 2 + k) for k in range(4)]
    else:
        raise SystemExit("gen_scale.py: unknown shape " + shape)
    return a


def elf(n):
    """An ELF64 little-endian ET_EXEC: .text (NOBITS), .symtab, .strtab,
    .shstrtab; the symbols are GLOBAL FUNC in .text."""
    shstr = b"\0.text\0.symtab\0.strtab\0.shstrtab\0"
    strtab = bytearray(b"\0")
    syms = bytearray(24)
    for i in range(n + 1):
        name = b"etext" if i == n else b"fn%d" % i
        syms += struct.pack("<IBBHQQ", len(strtab), 0x12, 0, 1,
                            BASE + STEP * i, STEP if i < n else 0)
        strtab += name + b"\0"
    off_sym = 64
    off_str = off_sym + len(syms)
    off_shs = off_str + len(strtab)
    off_sh = (off_shs + len(shstr) + 7) & ~7
    hdr = b"\x7fELF\2\1\1" + bytes(9) + struct.pack(
        "<HHIQQQIHHHHHH", 2, 62, 1, BASE, 0, off_sh, 0, 64, 0, 0, 64, 5, 4)
    img = bytearray(hdr)
    img += syms + strtab + shstr
    img += bytes(off_sh - len(img))
    sh = [(0,) * 10,
          (1, 8, 6, BASE, 0, STEP * n, 0, 0, 16, 0),
          (7, 2, 0, 0, off_sym, len(syms), 3, 1, 8, 24),
          (15, 3, 0, 0, off_str, len(strtab), 0, 0, 1, 0),
          (23, 3, 0, 0, off_shs, len(shstr), 0, 0, 1, 0)]
    for h in sh:
        img += struct.pack("<IIQQQQIIQQ", *h)
    return bytes(img)


def write(outdir, n, shape):
    with open(os.path.join(outdir, shape + ".elf"), "wb") as f:
        f.write(elf(n))
    with open(os.path.join(outdir, shape + ".nm"), "w") as f:
        for i in range(n):
            f.write("%016x T fn%d\n" % (BASE + STEP * i, i))
        f.write("%016x T etext\n" % (BASE + STEP * n))
    lo, hi = BASE, BASE + STEP * n
    nbins = (hi - lo) // 2
    hist = bytearray(2 * nbins)
    for i in range(n):
        if shape == "cycles" and (i // 4) % 2 == 1:
            continue  # zero-time functions
        struct.pack_into("<H", hist, 2 * (i * STEP // 2 + 3), 1 + i % 7)
    out = bytearray(b"gmon" + struct.pack("<I", 1) + bytes(12))
    out += b"\0" + struct.pack("<QQII", lo, hi, nbins, 100)
    out += b"seconds".ljust(15, b"\0") + b"s" + hist
    for p, c, k in arcs_of(n, shape):
        out += b"\1" + struct.pack("<QQI", BASE + STEP * p + 5,
                                   BASE + STEP * c, k)
    with open(os.path.join(outdir, shape + ".gmon"), "wb") as f:
        f.write(out)


if __name__ == "__main__":
    write(sys.argv[1], int(sys.argv[2]), sys.argv[3])
