#!/usr/bin/env python3
"""Writes the Dr. Dobb's module tables' captures (Motteler, December 1991,
Figures 3 and 4(a)) as real files, for the end-to-end test of
`profcat --style ddj`:

  fixtures/fmtest.nm    symbols in `nm` format: Figure 3's twenty modules
                        in the figure's order, then the 14 it left out
  fixtures/fmtest.pcs   4096 PCs, hex text, one a line: the figure's
                        counts, 127 in the left-out modules, 670 below the
                        program (PA_BOT_MEM)
  fixtures/patest.nm    Figure 4(a)'s sixteen functions
  fixtures/patest.pcs   1377 PCs: the figure's counts, 2 below the program

The counts are the article's; names of the left-out modules, addresses
(modules 0x100 apart from 0x10000, the program's origin) and the order of
the PCs are invented.  Same layout as the "ddj3" and "ddj4a" cases of
cases.c, so both must print the same table.

Run: python3 tests/reports/gen_ddj.py [OUTDIR]  (deterministic output;
the default OUTDIR is tests/reports/fixtures).
"""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "fixtures")
ORIGIN = 0x10000
BELOW = 0x400

FIGURE3 = [
    ("ushftlm", 919), ("ushftrm", 846), ("ucheckm", 463), ("_eufbs", 266),
    ("ucmpm", 169), ("isubm", 138), ("iaddm", 94), ("ffbitext", 74),
    ("umultm", 62), ("_nmalloc2", 42), ("_nfreex", 42), ("udivm", 37),
    ("itestm", 33), ("_nchkb", 23), ("ffbitins", 21), ("_nnohold", 20),
    ("_CO_pfmt", 18), ("prints", 18), ("calloc", 14),
] + list(zip(["other_mod_%02d" % i for i in range(1, 15)],
             [13, 13, 12, 12, 11, 11, 10, 10, 9, 9, 8, 8, 1, 0]))

FIGURE4A = [
    (".main", 91), (".delay_seven", 87), (".delay_thirteen", 87),
    (".delay_one", 86), (".delay_eleven", 86), (".delay_fourteen", 86),
    (".delay_twelve", 86), (".delay_ten", 86), (".delay_five", 86),
    (".delay_six", 86), (".delay_nine", 85), (".delay_fifteen", 85),
    (".delay_three", 85), (".delay_four", 85), (".delay_two", 84),
    (".delay_eight", 84),
]


def write(out, stem, modules, below, total):
    nm = "".join("%08x T %s\n" % (ORIGIN + 0x100 * i, name)
                 for i, (name, _) in enumerate(modules))
    left = [[ORIGIN + 0x100 * i + 0x10, n] for i, (_, n) in enumerate(modules)]
    left.append([BELOW, below])
    assert sum(n for _, n in left) == total
    lines = ["# %s: %d PCs, written by tests/reports/gen_ddj.py" % (stem, total)]
    while any(n for _, n in left):  # interleaved, as sampled
        for p in left:
            if p[1]:
                lines.append("%x" % p[0])
                p[1] -= 1
    with open(os.path.join(out, stem + ".nm"), "w") as f:
        f.write(nm)
    with open(os.path.join(out, stem + ".pcs"), "w") as f:
        f.write("\n".join(lines) + "\n")


def main(out):
    os.makedirs(out, exist_ok=True)
    write(out, "fmtest", FIGURE3, 670, 4096)
    write(out, "patest", FIGURE4A, 2, 1377)


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else OUT)
