#!/usr/bin/env python3
"""Writes the inputs of test_scale.py into a directory, at test time (not
committed; standard library only, a few seconds):

  hist100k.gmon.gz   GNU tagged gmon.out (64-bit LE) with 100,000
                     histogram records of 4 bins over disjoint 16-byte
                     ranges, gzip (~300 KB)
  bomb-gmon.gz       a gmon.out header and a histogram record claiming 0
                     bins, then 1 GiB of zeros: 1024 gzip members of 1 MiB
                     each (~1 MB)
  bomb-zeros.gz      2 GiB of zeros, the same way (~2 MB)
  raw3m.bin          3,000,000 distinct 32-bit LE PCs (every 4th byte
                     from 0x400000) in a seeded shuffled order (12 MB)
  deep.nm, deep.gmon a 5,000-deep call chain f0 -> f1 -> ... -> f4999,
                     one sample in each function (an nm listing of 16-byte
                     functions and a GNU gmon.out with 4,999 arcs: 310 KB)
"""
import random
import gzip
import os
import struct
import sys
import zlib


def gmon_hist_records(n, bins=4, width=16, base=0x400000):
    out = [b"gmon", struct.pack("<I", 1), b"\0" * 12]
    for i in range(n):
        low = base + i * width
        out.append(b"\0" + struct.pack("<QQII", low, low + width, bins, 100) +
                   b"seconds".ljust(15, b"\0") + b"s" +
                   struct.pack("<%dH" % bins, *([1] * bins)))
    return b"".join(out)


def member(data):
    co = zlib.compressobj(9, zlib.DEFLATED, 31)
    return co.compress(data) + co.flush()


def bomb(path, head, mib):
    zeros = member(bytes(1 << 20))
    with open(path, "wb") as f:
        if head:
            f.write(member(head))
        for _ in range(mib):
            f.write(zeros)


def deep_chain(outdir, n=5000, base=0x400000):
    with open(os.path.join(outdir, "deep.nm"), "w") as f:
        for i in range(n + 1):
            f.write("%016x T f%d\n" % (base + i * 16, i))
    hist = [0] * (n * 8)  # 2-byte bins
    for i in range(n):
        hist[i * 8] = 1
    out = [b"gmon", struct.pack("<I", 1), b"\0" * 12, b"\0",
           struct.pack("<QQII", base, base + n * 16, len(hist), 100),
           b"seconds".ljust(15, b"\0"), b"s",
           struct.pack("<%dH" % len(hist), *hist)]
    for i in range(n - 1):
        out.append(b"\1" + struct.pack("<QQI", base + i * 16 + 4,
                                        base + (i + 1) * 16 + 2, 1))
    with open(os.path.join(outdir, "deep.gmon"), "wb") as f:
        f.write(b"".join(out))


def main(outdir):
    os.makedirs(outdir, exist_ok=True)
    with gzip.open(os.path.join(outdir, "hist100k.gmon.gz"), "wb", 6) as f:
        f.write(gmon_hist_records(100000))
    bad = (b"gmon" + struct.pack("<I", 1) + b"\0" * 12 + b"\0" +
           struct.pack("<QQII", 0x1000, 0x2000, 0, 100) +
           b"seconds".ljust(15, b"\0") + b"s")
    bomb(os.path.join(outdir, "bomb-gmon.gz"), bad, 1024)
    bomb(os.path.join(outdir, "bomb-zeros.gz"), b"", 2048)
    pcs = list(range(0x400000, 0x400000 + 3000000 * 4, 4))
    deep_chain(outdir)
    random.Random(20).shuffle(pcs)
    with open(os.path.join(outdir, "raw3m.bin"), "wb") as f:
        f.write(struct.pack("<%dI" % len(pcs), *pcs))


if __name__ == "__main__":
    main(sys.argv[1])
