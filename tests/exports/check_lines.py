#!/usr/bin/env python3
"""Exports carry the source level (issue #22 item 4), on programs/lines.c
built live with gcc -pg -g -O2 (hot lines in one function, an inlined
helper, a static function):

  * go tool pprof -lines -top on `-e pprof --granularity line`: each
    source line's flat time equals `profcat --granularity line`'s count
    for that line (summed over its line symbols), within pprof's two
    printed decimals; inlined lines are marked (inline); -list work
    shows the source with the same per-line figures;
  * callgrind_annotate --auto=yes on `-e callgrind --granularity line`
    annotates lines.c with the same per-line counts (whole samples);
  * speedscope frames carry file and line; folded stacks end in
    "func (file:line)".
Skipped (77) without gcc, gprof-capable gcc -pg or DWARF support.
"""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

PROFCAT = os.environ["PROFCAT"]
ROOT = os.environ["PC_SOURCE_ROOT"]
SRC = os.path.join(ROOT, "tests", "exports", "programs", "lines.c")
failures = []


def check(cond, what):
    print(("ok   " if cond else "FAIL ") + what)
    if not cond:
        failures.append(what)


def run(cmd, cwd=None, env=None):
    r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       cwd=cwd, env=env)
    if r.returncode:
        raise SystemExit("%s failed (%d): %s" % (" ".join(cmd), r.returncode,
                                                 r.stderr.decode()))
    return r.stdout.decode(errors="replace")


if not shutil.which("gcc"):
    print("gcc not installed")
    sys.exit(77)

with tempfile.TemporaryDirectory() as tmp:
    exe = os.path.join(tmp, "lines")
    run(["gcc", "-pg", "-g", "-O2", "-o", exe, SRC])
    run([exe], cwd=tmp)
    gmon = os.path.join(tmp, "gmon.out")
    r = subprocess.run([PROFCAT, "--granularity", "line", "-F", "csv", exe,
                        gmon], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    if r.returncode and b"DWARF" in r.stderr:
        print("no DWARF support: " + r.stderr.decode())
        sys.exit(77)
    want, nrows = {}, {}
    for line in r.stdout.decode().splitlines()[1:]:
        m = re.match(r'^\d+,"?.*? \(([^:]+):(\d+) @ [0-9a-f]+\)"?,([\d.]+),', line)
        if m:
            k = int(m.group(2))
            want[k] = want.get(k, 0) + float(m.group(3))
            if float(m.group(3)) > 0:
                nrows[k] = nrows.get(k, 0) + 1
    want = {k: v for k, v in want.items() if v > 0}
    check(len(want) >= 4, "profcat --granularity line: %d lines with samples"
          % len(want))

    pb = os.path.join(tmp, "l.pb.gz")
    run([PROFCAT, "-e", "pprof", "--granularity", "line", "-o", pb, exe, gmon])
    if shutil.which("go"):
        env = dict(os.environ, HOME=tmp)
        out = run(["go", "tool", "pprof", "-lines", "-top", "-unit=s",
                   "-nodecount=100000", "-nodefraction=0", pb], env=env)
        got, inline = {}, False
        for line in out.splitlines():
            m = re.match(r"^\s*(\S+)\s+\S+%\s+\S+%\s+\S+\s+\S+%\s+\S+ "
                         r"\S*lines\.c:(\d+)( \(inline\))?$", line)
            if m:
                v = 0.0 if m.group(1) == "0" else float(m.group(1).rstrip("s"))
                got[int(m.group(2))] = got.get(int(m.group(2)), 0) + v
                inline = inline or bool(m.group(3))
        bad = [k for k in set(want) | set(got)
               if abs(got.get(k, 0) - want.get(k, 0) / 100) > 0.0101]
        check(not bad, "pprof -lines -top flat per line = --granularity line"
              "%s" % (": lines %s" % bad if bad else ""))
        check(inline, "pprof shows the inlined mix() lines as (inline)")
        out = run(["go", "tool", "pprof", "-list", "^work$", "-unit=s", pb],
                  env=env)
        listed = {}
        for line in out.splitlines():
            m = re.match(r"^\s*(\S+)\s+\S+\s+(\d+):", line)
            if m and m.group(1) != ".":
                listed[int(m.group(2))] = float(m.group(1).rstrip("s"))
        check("No source information" not in out and listed and all(
            abs(v - want.get(k, 0) / 100) < 0.0101 for k, v in listed.items()),
            "pprof -list work: source lines with the same flat figures: %r"
            % listed)
    else:
        print("skip go tool pprof (golang-go not installed)")

    cgf = os.path.join(tmp, "l.callgrind")
    run([PROFCAT, "-e", "callgrind", "--granularity", "line", "-o", cgf, exe,
         gmon])
    if shutil.which("callgrind_annotate"):
        out = run(["callgrind_annotate", "--auto=yes", "--threshold=100", cgf])
        i = out.find("-- Auto-annotated source: ")
        check(i >= 0 and out[i:].split("\n", 1)[0].endswith("lines.c"),
              "callgrind_annotate --auto=yes annotates lines.c: " +
              out[i:].split("\n", 1)[0])
        ann, n = {}, 1
        for line in out[i:].splitlines()[3:]:
            if line.startswith("-----"):
                break  # the summary after the source
            m = re.match(r"^-- line (\d+) -+$", line)
            if m:
                n = int(m.group(1))
                continue
            m = re.match(r"^\s*(\.|[\d,]+ \([^)]*\))\s\s(.*)$", line)
            if not m or m.group(2).startswith("=> "):
                continue
            if m.group(1) != ".":
                ann[n] = int(m.group(1).split()[0].replace(",", ""))
            n += 1
        # whole samples: each function's rows are rounded cumulatively, so
        # each row is within 1 of its count, and a line of n rows (one per
        # address range, in the function's order with other lines' rows
        # between them) within n (line 14 of lines.c, in two rows, flaked)
        bad = [k for k in set(want) | set(ann)
               if abs(ann.get(k, 0) - want.get(k, 0)) > max(1, nrows.get(k, 1))]
        check(ann and not bad, "callgrind per-line counts = --granularity line "
              "(whole samples)%s" % (": lines %s" % bad if bad else ""))
    else:
        print("skip callgrind_annotate (valgrind not installed)")

    ss = json.loads(run([PROFCAT, "-e", "speedscope", "--granularity", "line",
                         exe, gmon]))
    fr = {f["name"]: f for f in ss["shared"]["frames"]}
    check(fr["work"].get("file") == SRC and fr["work"].get("line") == 12,
          "speedscope frame work: file lines.c, line 12: %r" % fr["work"])
    fo = run([PROFCAT, "-e", "folded", "--granularity", "line", exe, gmon])
    folded = {}
    for line in fo.splitlines():
        m = re.match(r"^.* \(lines\.c:(\d+)\) (\d+)$", line)
        check(m is not None, "folded frame func (file:line): " + line)
        if m:
            folded[int(m.group(1))] = folded.get(int(m.group(1)), 0) + int(m.group(2))
    check(all(abs(folded.get(k, 0) - v) <= 1.0 + 0.5 * len(folded)
              for k, v in want.items()), "folded counts per line")

print("%d failed" % len(failures))
sys.exit(1 if failures else 0)
