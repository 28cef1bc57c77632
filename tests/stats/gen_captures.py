#!/usr/bin/env python3
"""Writes the captures of the statistics tests into fixtures/ (committed
with this script; run it again to regenerate, the output is the same).

Symbols: an nm -S listing (profcore's "nm" map dialect), functions of 64
bytes from 0x1000.  Captures: GNU gmon.out histograms (tagged version 1,
32-bit little-endian, 2-byte units as gprof writes) and raw PC dumps, one
hex address per line (profcore's "raw" loader, text encoding).  Random
draws use Python's Mersenne Twister with fixed seeds.
"""
import gzip
import os
import random
import struct

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "fixtures")
BASE = 0x1000
SIZE = 64

DDJ_NAMES = ["main"] + ["delay_" + w for w in (
    "one two three four five six seven eight nine ten eleven twelve "
    "thirteen fourteen fifteen").split()]


def write(name, data):
    if name.endswith(".gz"):  # big dumps: profcore reads gzip as is
        data = gzip.compress(data.encode(), 9, mtime=0)
    mode = "wb" if isinstance(data, bytes) else "w"
    with open(os.path.join(OUT, name), mode) as f:
        f.write(data)


def nm(names):
    return "".join("%08x %08x T %s\n" % (BASE + SIZE * i, SIZE, n)
                   for i, n in enumerate(names))


def gmon(low, high, counts, rate=100):
    """GNU gmon.out, one TIME_HIST record, no arcs."""
    out = b"gmon" + struct.pack("<I", 1) + b"\0" * 12
    out += b"\0" + struct.pack("<IIII", low, high, len(counts), rate)
    out += b"seconds".ljust(15, b"\0") + b"s"
    out += b"".join(struct.pack("<H", c) for c in counts)
    return out


def hist_for(counts_per_symbol, bucket=8):
    """Histogram over the symbols: each symbol's count spread evenly over
    its buckets (remainder to the first ones)."""
    per = SIZE // bucket
    bins = []
    for c in counts_per_symbol:
        q, r = divmod(c, per)
        bins += [q + (1 if i < r else 0) for i in range(per)]
    return BASE, BASE + SIZE * len(counts_per_symbol), bins


def raw(counts_per_symbol, rng, spread=True, order=None):
    """A raw dump: each symbol's samples at random even offsets (spread)
    or all at offset 0x10 (clustered), shuffled."""
    pcs = []
    for i, c in enumerate(counts_per_symbol):
        for _ in range(c):
            off = rng.randrange(0, SIZE, 2) if spread else 0x10
            pcs.append(BASE + SIZE * i + off)
    rng.shuffle(pcs)
    return "".join("0x%x\n" % a for a in pcs)


def multinomial(shares, n, rng):
    counts = [0] * len(shares)
    cum = []
    t = 0.0
    for s in shares:
        t += s
        cum.append(t)
    for _ in range(n):
        u = rng.random() * t
        for i, c in enumerate(cum):
            if u < c:
                counts[i] += 1
                break
        else:
            counts[-1] += 1
    return counts


def main():
    os.makedirs(OUT, exist_ok=True)
    ten = ["f%02d" % i for i in range(10)]
    write("ten.nm", nm(ten))
    write("ddj.nm", nm(DDJ_NAMES))

    # --check: a healthy histogram, then one capture per warning
    write("healthy.gmon", gmon(*hist_for([1000 + 10 * i for i in range(10)])))
    write("few.gmon", gmon(*hist_for([18] * 10)))           # 180 < 20 x 10
    write("imprecise.gmon", gmon(*hist_for([1000, 1000, 1000, 10])))
    write("nearzero.gmon", gmon(*hist_for([1000, 1000, 1000, 1])))
    lo, hi, bins = hist_for([3000, 3000, 3000, 3000])
    bins[3] = 65535                                         # a full counter
    write("wrap.gmon", gmon(lo, hi, bins))
    rng = random.Random(12)
    write("spread.raw.gz", raw([500] * 10, rng))               # rate unknown
    write("clustered.raw.gz", raw([500] * 10, rng, spread=False))

    # --ci: a small capture with a known shape
    write("ci.gmon", gmon(*hist_for([600, 250, 100, 50])))

    # diff: twenty equal functions, the same workload sampled at the same
    # rate; in the new build f03 takes half the time, so the run is
    # shorter (19500 samples instead of 20000) and every other share
    # grows by 1/39 of itself: noise at this sample size
    rng = random.Random(7)
    twenty = ["f%02d" % i for i in range(20)]
    write("twenty.nm", nm(twenty))
    base = multinomial([1] * 20, 20000, rng)
    new = multinomial([1, 1, 1, 0.5] + [1] * 16, 19500, rng)
    write("diff_base.raw.gz", raw(base, rng))
    write("diff_new.raw.gz", raw(new, rng))

    # merge: two histograms of one program, 4-byte and 8-byte buckets,
    # the second over a range shifted by 0x80 (docs/statistics.md ("Statistics"))
    c4 = [i + 1 for i in range(64)]                         # [0x1000, 0x1100)
    c8 = [100 + i for i in range(32)]                       # [0x1080, 0x1180)
    write("merge4.gmon", gmon(0x1000, 0x1100, c4))
    write("merge8.gmon", gmon(0x1080, 0x1180, c8))
    write("merge60.gmon", gmon(0x1000, 0x1100, c4, rate=60))

    # rates: Dr. Dobb's Figure 4.  (a) 3850 bus cycles between samples,
    # (b) 3900: delay_eight and delay_fifteen get double share.
    fig4a = {"main": 91, "delay_seven": 87, "delay_thirteen": 87,
             "delay_one": 86, "delay_eleven": 86, "delay_fourteen": 86,
             "delay_twelve": 86, "delay_ten": 86, "delay_five": 86,
             "delay_six": 86, "delay_nine": 85, "delay_fifteen": 85,
             "delay_three": 85, "delay_four": 85, "delay_two": 84,
             "delay_eight": 84}
    fig4b = {"delay_eight": 160, "delay_fifteen": 158, "delay_four": 81,
             "delay_nine": 80, "delay_eleven": 80, "delay_five": 80,
             "delay_twelve": 80, "delay_seven": 80, "delay_thirteen": 80,
             "delay_one": 80, "delay_two": 80, "delay_fourteen": 80,
             "delay_ten": 80, "delay_three": 79, "delay_six": 79}
    rng = random.Random(1991)
    write("fig4a.raw", raw([fig4a.get(n, 0) for n in DDJ_NAMES], rng))
    # 4(b) as printed: 1357 samples in the rows, main is not listed
    write("fig4b.raw", raw([fig4b.get(n, 0) for n in DDJ_NAMES], rng))
    # 4(b)-shaped with main kept at its 4(a) count: only the two doubled
    # functions differ
    b2 = dict(fig4b, main=91)
    write("fig4b_main.raw", raw([b2.get(n, 0) for n in DDJ_NAMES], rng))
    # 4(a)-shaped second capture, at another period (3850 x e/2 cycles):
    # the same equal shares drawn afresh
    write("fig4a_e.raw", raw(multinomial([91] + [85.5] * 15, 1377, rng), rng))


if __name__ == "__main__":
    main()
