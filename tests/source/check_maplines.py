#!/usr/bin/env python3
"""Source lines from linker maps (MS LINK /LINENUMBERS, TLINK /l): the
"Line numbers for OBJ(SOURCE) segment SEG" sections read by the map
dialects (dialects/mslink.yaml, tlink.yaml) into the line model
(libprofcore/lines.c), so that --granularity line/file and -r source work
for a DOS program.

Fixtures (fixtures/dos, hand-written):
  LINES.MAP   an MS LINK map (CRLF) with publics _main, _sum, _put and two
              line-number sections (main.c, sum.c), laid out as
              shared/research/dos-mpw-formats.md describes MS LINK's
  TLINES.MAP  a TLINK map with no publics (an assembler module), laid out
              exactly as the real OldSkoolCode/Fast-BGI-Drivers TEST.MAP
              (TLINK; not copied): its lines take the segment _TEXT as
              their function
  *.pcs       raw PC dumps (linear addresses); main.c, sum.c the sources
1. the reports equal the goldens (lines-flat.txt, lines-source.txt,
   tlines-flat.txt);
2. per-line counts (-r source -F csv) equal those computed here
   independently from the map text: each PC on the row with the greatest
   address at or below it, up to the next row (the last: to the end of
   the code segment), samples elsewhere on no line;
3. a damaged line-number row is one exact error line.
"""
import collections
import csv
import io
import os
import re
import subprocess
import sys
import tempfile

import sourcelib as L

DOS = os.path.join("tests", "source", "fixtures", "dos")


def profcat(*args, code=0):
    r = subprocess.run([L.PROFCAT] + list(args), stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, text=True, cwd=L.ROOT)
    if r.returncode != code:
        L.fail(" ".join(args), "exit %d (%s)" % (r.returncode, r.stderr))
    return r.stdout, r.stderr


def golden(name, args):
    got, _ = profcat(*args)
    want = open(os.path.join(L.ROOT, DOS, name)).read()
    if got != want:
        L.fail(name, "differs from the golden:\n" + got)
    else:
        print("ok %s" % name)


def expected(mapname, pcsname):
    text = open(os.path.join(L.ROOT, DOS, mapname)).read()
    seg_end = None
    for m in re.finditer(r"^ ([0-9A-F]{5})H ([0-9A-F]{5})H [0-9A-F]{4,5}H +(\S+) +CODE", text, re.M):
        seg_end = int(m.group(2), 16) + 1
    rows = []
    for sec in re.finditer(r"^Line numbers for [^(]*\(([^)]+)\) segment \S+\s*\n\s*\n((?:.*\S.*\n)+)",
                           text, re.M):
        for ln, s, o in re.findall(r"(\d+) ([0-9A-F]{4}):([0-9A-F]{4})", sec.group(2)):
            rows.append((int(s, 16) * 16 + int(o, 16), sec.group(1), int(ln)))
    rows.sort()
    counts = collections.Counter()
    nowhere = 0
    for pc in open(os.path.join(L.ROOT, DOS, pcsname)).read().split():
        a = int(pc, 16)
        hit = None
        for i, (ra, f, ln) in enumerate(rows):
            end = rows[i + 1][0] if i + 1 < len(rows) else seg_end
            if ra <= a < end:
                hit = (f, ln)
        if hit:
            counts[hit] += 1
        else:
            nowhere += 1
    return counts, nowhere


def per_line(mapname, pcsname):
    want, nowhere = expected(mapname, pcsname)
    out, _ = profcat("-r", "source", "-F", "csv", os.path.join(DOS, mapname),
                     "-f", "raw", os.path.join(DOS, pcsname))
    got = {(r["file"], int(r["line"])): int(r["count"])
           for r in csv.DictReader(io.StringIO(out)) if r["line"]}
    if got != dict(want):
        L.fail(mapname, "per-line counts %s, from the map text %s"
               % (sorted(got.items()), sorted(want.items())))
    else:
        print("ok %s: %d lines, %d samples on no line, equal the map text's"
              % (mapname, len(want), nowhere))


def damaged():
    text = open(os.path.join(L.ROOT, DOS, "LINES.MAP"), "rb").read()
    bad = text.replace(b"     7 0000:00B0", b"     7 0000:00G0")
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "BAD.MAP")
        with open(path, "wb") as f:
            f.write(bad)
        _, err = profcat("--granularity", "line", path, "-f", "raw",
                         os.path.join(DOS, "lines.pcs"), code=1)
        off = bad.index(b"     7 0000:00G0")
        want = ("profcat: %s:%d: expected a row of section 'line-numbers' (dialect mslink), "
                "found \"     7 0000:00G0    12 0000:0100    13 0000:0108    14 0000:...\"\n"
                % (path, off))
        if err != want:
            L.fail("damaged", "error %r, expected %r" % (err, want))
        else:
            print("ok damaged line-number row: one exact error line")


def main():
    golden("lines-flat.txt", ["--granularity", "line", os.path.join(DOS, "LINES.MAP"),
                              "-f", "raw", os.path.join(DOS, "lines.pcs")])
    golden("lines-source.txt", ["-r", "source", "--source-path", DOS,
                                os.path.join(DOS, "LINES.MAP"), "-f", "raw",
                                os.path.join(DOS, "lines.pcs")])
    golden("tlines-flat.txt", ["--granularity", "line", os.path.join(DOS, "TLINES.MAP"),
                               "-f", "raw", os.path.join(DOS, "tlines.pcs")])
    per_line("LINES.MAP", "lines.pcs")
    per_line("TLINES.MAP", "tlines.pcs")
    damaged()
    sys.exit(1 if L.failures else 0)


if __name__ == "__main__":
    main()
