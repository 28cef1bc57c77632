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
3. samples in no function (one the map's symbols do not cover, one
   outside the program): -r source counts them in text, CSV and JSON,
   lines + no line information + no function = the flat report's total,
   each line's count and percent that of the flat line rows, a focus
   counting them as filtered out;
4. a damaged line-number row is one exact error line;
5. gprof's FILE and FILE:LINE selections (-O gprof-symspecs) take a
   function's file and line from the map's line rows (main.c holds
   _main, sum.c _sum and _put, whose first row is sum.c:12): the rows
   find their functions among the targets the attribution is building
   (through pc_profile_row_find it started the attribution again, without
   end: a crash).
"""
import collections
import csv
import io
import json
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


def no_function(mapname, pcsname, want_csv):
    """Samples in no function (LINES: one in the program that no symbol
    covers; TLINES: one outside the program): -r source counts them in
    every style, with the flat report's denominator.  want_csv: the
    CSV's last row, exactly."""
    files = [os.path.join(DOS, mapname), "-f", "raw", os.path.join(DOS, pcsname)]
    _, nowhere = expected(mapname, pcsname)
    flat = json.loads(profcat("-F", "json", *files)[0])
    flines = collections.defaultdict(float)
    fpct = {}
    for r in csv.DictReader(io.StringIO(profcat("-F", "csv", "--granularity", "line", *files)[0])):
        m = re.search(r"\((.+):(\d+) @ [0-9a-f]+\)$", r["symbol"])
        if m:
            key = (m.group(1), int(m.group(2)))
            flines[key] += float(r["count"])
            fpct[key] = None if key in fpct else r["percent"]
        elif r["symbol"] in ("[unattributed]", "[outside]"):
            fpct[r["symbol"]] = r["percent"]
    src = json.loads(profcat("-r", "source", "-F", "json", *files)[0])
    lines = sum(l["count"] for l in src["lines"])
    total = flat["totals"]["total"]
    got = (src["total"], src["no_function"], lines + src["no_line_info"] + src["no_function"])
    if got != (total, nowhere, total):
        L.fail(mapname + " no function", "source total, no_function, lines + no_line_info + "
               "no_function %s; want the flat total %s, %s (from the map text), the total"
               % (got, total, nowhere))
    else:
        print("ok %s: source JSON total %s = flat's, no_function %s, lines %s + no line %s"
              " + no function = total" % (mapname, total, nowhere, lines, src["no_line_info"]))
    # each line: the flat line rows' count, and (one row) the same percent
    bad = [l for l in src["lines"]
           if l["count"] != flines[(l["file"], l["line"])] or
           (fpct[(l["file"], l["line"])] not in (None, "%.4f" % l["percent"]))]
    if bad or len(src["lines"]) != len(flines):
        L.fail(mapname + " no function", "source lines differ from the flat line rows: %s" % bad)
    else:
        print("ok %s: %d source lines = the flat line rows (counts, percents)"
              % (mapname, len(flines)))
    out = profcat("-r", "source", "-F", "csv", *files)[0]
    last = out.splitlines()[-1]
    flat_pct = fpct["[unattributed]" if mapname == "LINES.MAP" else "[outside]"]
    if last != want_csv or last.split(",")[3] != flat_pct:
        L.fail(mapname + " no function", "CSV ends %r, want %r (percent %s as the flat "
               "report's)" % (last, want_csv, flat_pct))
    else:
        print("ok %s: CSV row %s, the flat report's percent" % (mapname, last))


def no_function_filters():
    """A focus drops the samples in no function (they count as filtered
    out); ignore keeps them."""
    files = [os.path.join(DOS, "LINES.MAP"), "-f", "raw", os.path.join(DOS, "lines.pcs")]
    for fargs, want in ((["--focus", "_sum"], (47, 0, 27)), (["--ignore", "_sum"], (26, 1, 47))):
        d = json.loads(profcat("-r", "source", "-F", "json", *(fargs + files))[0])
        got = (sum(l["count"] for l in d["lines"]), d["no_function"], d["filtered_out"])
        text = profcat("-r", "source", *(fargs + files))[0]
        has = "In no function" in text
        if got != want or has != (want[1] > 0):
            L.fail("no function " + " ".join(fargs), "lines, no_function, filtered_out %s, "
                   "want %s; text line 'In no function': %s" % (got, want, has))
        else:
            print("ok no function %s: lines %s, no_function %s, filtered out %s" % (
                " ".join(fargs), *got))


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


def symspecs():
    files = [os.path.join(DOS, "LINES.MAP"), "-f", "raw", os.path.join(DOS, "lines.pcs")]
    for spec, want in (("pmain.c;", ["1,_main,17,94.4444,94.4444,,0,0,0x10",
                                     ",[total],18,100.0000,,,,,"]),
                       ("psum.c;", ["1,_sum,47,82.4561,82.4561,,0,0,0x80",
                                    "2,_put,9,15.7895,98.2456,,0,0,0x100",
                                    ",[total],57,100.0000,,,,,"]),
                       ("Pmain.c;", ["1,_sum,47,82.4561,82.4561,,0,0,0x80",
                                     "2,_put,9,15.7895,98.2456,,0,0,0x100",
                                     ",[total],57,100.0000,,,,,"]),
                       ("psum.c:12;", ["1,_put,9,90.0000,90.0000,,0,0,0x100",
                                       ",[total],10,100.0000,,,,,"])):
        out, _ = profcat("-F", "csv", "-O", "gprof-symspecs=" + spec, *files)
        got = out.splitlines()[1:len(want) + 1]
        if got != want:
            L.fail("symspecs " + spec, "rows %s, expected %s" % (got, want))
        else:
            print("ok gprof-symspecs=%s on the map's line rows" % spec)


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
    no_function("LINES.MAP", "lines.pcs", "[in no function],,1,1.3514,")
    no_function("TLINES.MAP", "tlines.pcs", "[in no function],,1,8.3333,")
    no_function_filters()
    damaged()
    symspecs()
    sys.exit(1 if L.failures else 0)


if __name__ == "__main__":
    main()
