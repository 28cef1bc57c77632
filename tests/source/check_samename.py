#!/usr/bin/env python3
"""-r source FUNCTION against the flat report (issue #33, the open
question of item 7): programs/lines_*.c built now with gcc -O0 -g
(-no-pie), where the header's static inline mix has a copy in each unit,
two functions named mix; a gmon.out synthesized here (a 3-byte bucket per
3 bytes of .text, counts from a fixed seed: buckets straddle function and
line boundaries) is read with the program.

  * -r source mix says the page counts both functions, each with its
    flat count and address, exactly as the flat report gives them; the
    page's File header is their sum (the check of tests/source live saw
    39.06 against 31.05: the header against one of the two rows);
  * every function with one flat row: its -r source page (CSV, lines of
    its own) adds up to its flat count (to the CSV's 6 decimals), though
    buckets are split between functions and between lines.

Exit 77 when gcc or objdump is missing.
"""
import csv
import io
import os
import random
import re
import shutil
import struct
import sys
import tempfile

import sourcelib as L


def text_section(exe, cwd):
    for line in L.run(["objdump", "-h", exe], cwd=cwd).splitlines():
        p = line.split()
        if len(p) >= 4 and p[1] == ".text":
            return int(p[3], 16), int(p[2], 16)
    raise SystemExit("no .text in %s" % exe)


def write_gmon(path, lo, size, width):
    hi = lo + size
    hi += (-size) % width
    nbins = (hi - lo) // width
    rnd = random.Random(33)
    counts = [rnd.randrange(0, 9) for _ in range(nbins)]
    with open(path, "wb") as f:
        f.write(b"gmon" + struct.pack("<I", 1) + bytes(12))
        f.write(b"\0" + struct.pack("<QQII", lo, hi, nbins, 100))
        f.write(b"seconds".ljust(15, b"\0") + b"s")
        f.write(struct.pack("<%dH" % nbins, *counts))


def main():
    if os.environ.get("PC_CROSS_LEG") == "mingw":
        print("SKIP: the program is built with the host's gcc for Linux")
        return 77
    for tool in ("gcc", "objdump"):
        if not shutil.which(tool):
            print("SKIP: %s is not installed" % tool)
            return 77
    srcs = [os.path.join(L.PROGRAMS, f) for f in ("lines_main.c", "lines_util.c")]
    with tempfile.TemporaryDirectory() as t:
        L.run(["gcc", "-O0", "-g", "-fno-pie", "-no-pie", "-o", "lines"] + srcs, cwd=t)
        lo, size = text_section("lines", t)
        write_gmon(os.path.join(t, "gmon.out"), lo, size, 3)
        flat = L.run([L.PROFCAT, "-F", "csv", "gmon.out", "lines"], cwd=t)
        rows = {}
        for r in csv.DictReader(io.StringIO(flat)):
            if not r["address"]:
                continue  # ([outside the program] and the like)
            rows.setdefault(r["symbol"], []).append((int(r["address"], 16),
                                                     float(r["count"])))
        mix = sorted(rows.get("mix", []))
        if len(mix) != 2:
            L.fail("same name", "expected two functions named mix, got %r" % mix)
            return 1
        text = L.run([L.PROFCAT, "-r", "source:mix", "gmon.out", "lines"], cwd=t)
        note = ("Function mix: 2 functions of that name, counted together: "
                "%.2f at 0x%x, %.2f at 0x%x\n" % (mix[0][1], mix[0][0], mix[1][1], mix[1][0]))
        head = re.search(r"\nFile \S+lines_util\.h: ([\d.]+) samples", text)
        if note not in text.splitlines(True):
            L.fail("same name", "no line %r in\n%s" % (note, text))
        elif not head or head.group(1) != "%.2f" % (mix[0][1] + mix[1][1]):
            L.fail("same name", "the page's header is not %.2f + %.2f:\n%s"
                   % (mix[0][1], mix[1][1], text))
        else:
            print("ok   -r source mix: %s" % note.strip())
        checked = 0
        for fn, rs in sorted(rows.items()):
            if len(rs) != 1 or fn.startswith("[") or not (rs[0][1] > 0):
                continue
            r = L.run([L.PROFCAT, "-r", "source:" + fn, "-F", "csv", "gmon.out",
                       "lines"], cwd=t, ok=(0, 2))
            page = [x for x in csv.DictReader(io.StringIO(r)) if not x["inlined"]]
            if not page:
                continue  # (no line information: crt code)
            s = sum(float(x["count"]) for x in page)
            # (each CSV count is rounded to 6 decimals)
            if abs(s - rs[0][1]) > 1e-6 * (len(page) + 1):
                L.fail("page sum", "%s: the page adds up to %.6f, the flat count is %.6f"
                       % (fn, s, rs[0][1]))
            checked += 1
        if checked < 4:
            L.fail("page sum", "only %d functions with lines checked" % checked)
        elif not L.failures:
            print("ok   %d functions: -r source FUNCTION adds up to the flat count"
                  % checked)
    return 1 if L.failures else 0


if __name__ == "__main__":
    sys.exit(main())
