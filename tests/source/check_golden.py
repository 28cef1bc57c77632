#!/usr/bin/env python3
"""The committed golden (gen_fixtures.sh): fixtures/lines-O2 and its
gmon.out, read by profcat now, must give

  * the rows of fixtures/gprof-l.txt (gprof -b -p -l of the same files):
    names, self seconds as printed, calls, order;
  * exactly the text of flat-line.txt (--granularity line),
    source-scan.txt (-r source scan --source-path ../programs: DWARF names
    the sources /profcore-src/..., found by dropping leading directories),
    source-missing.txt (the same without --source-path: files missing) and
    locations.csv (-r locations -F csv: inline chains per address);
  * -r source and --granularity file consistent with the line rows.
"""
import os
import sys

import sourcelib as L

FIX = os.path.join(L.HERE, "fixtures")


def read(name):
    with open(os.path.join(FIX, name)) as f:
        return f.read()


def same_text(label, args, expected):
    got = L.run([L.PROFCAT] + args, cwd=FIX)
    want = read(expected)
    if got != want:
        L.fail(label, "output differs from %s:\n--- got\n%s--- want\n%s"
               % (expected, got, want))
    else:
        print("ok   %s = %s" % (label, expected))


base = ["lines-O2", "gmon.out"]
rows = L.compare_gprof("golden --granularity line vs gprof-l.txt",
                       ["--granularity", "line"] + base, read("gprof-l.txt"),
                       cwd=FIX)
same_text("golden flat line", ["--granularity", "line"] + base, "flat-line.txt")
same_text("golden -r source scan",
          ["-r", "source", "scan", "--source-path", "../programs"] + base,
          "source-scan.txt")
same_text("golden -r source (files missing)", ["-r", "source"] + base,
          "source-missing.txt")
same_text("golden -r locations", ["-r", "locations", "-F", "csv"] + base,
          "locations.csv")


def zero_same(label, args):
    """Without --zero the line report makes line symbols only for the
    functions holding samples (lines.c sampled_ranges); its rows must be
    exactly the rows with samples or calls of the report with --zero
    (every line symbol)."""
    import csv
    import io
    full = list(csv.DictReader(io.StringIO(
        L.run([L.PROFCAT, "--zero", "-F", "csv"] + args, cwd=FIX))))
    part = list(csv.DictReader(io.StringIO(
        L.run([L.PROFCAT, "-F", "csv"] + args, cwd=FIX))))
    want = [r for r in full if float(r["count"] or 0) or int(r["calls"] or 0)
            or int(r["self_calls"] or 0) or r["symbol"].startswith("[")]
    if part != want or len(full) <= len(part):
        L.fail(label, "rows without --zero (%d) differ from the sampled rows with --zero (%d of %d)"
               % (len(part), len(want), len(full)))
    else:
        print("ok   %s: %d rows = the sampled rows of %d with --zero" % (label, len(part), len(full)))


zero_same("golden line rows without --zero (histogram)", ["--granularity", "line"] + base)
# a raw dump sampling one function (checksum) and main: the other
# functions' line symbols are not made
with open(os.path.join(FIX, "lines-O2.pcs")) as f:
    pcs = [x for x in f.read().split() if x in ("0x1320", "0x1090")]
import tempfile
with tempfile.NamedTemporaryFile("w", suffix=".pcs", delete=False) as t:
    t.write("\n".join(pcs * 3) + "\n")
try:
    zero_same("raw line rows without --zero", ["--granularity", "line", "lines-O2", "-f", "raw", t.name])
    zero_same("raw file rows without --zero", ["--granularity", "file", "lines-O2", "-f", "raw", t.name])
finally:
    os.unlink(t.name)
L.check_source_sums("golden", rows, ["--source-path", "../programs"] + base,
                    cwd=FIX)
print("%d failures" % L.failures if L.failures else "golden: all passed")
sys.exit(1 if L.failures else 0)
