#!/usr/bin/env python3
"""profcat's gprof-style call graph against GNU gprof -q.

For every gcc -pg fixture of tests/unix/fixtures (self recursion in fib,
the is_even/is_odd cycle, proportional bucket splits), the report must be
byte-identical to the committed `gprof -b -q` output; when gprof is
installed, also to a live run (and, with --zero, to `gprof -b -q -z`).
Byte identity covers every called/self/children number, the cycle
membership and numbering, the [index] order and the function index.
"""
import os
import shutil
import subprocess
import sys

PROFCAT = os.environ["PROFCAT"]
ROOT = os.environ["PC_SOURCE_ROOT"]
FIX = os.path.join(ROOT, "tests", "unix", "fixtures")
DIRS = ["x86_64-nopie", "x86_64-pie", "i386-nopie", "i386-pie"]

failures = 0


def run(cmd):
    r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    if r.returncode != 0:
        raise SystemExit("%s failed (%d): %s" % (cmd, r.returncode,
                                                r.stderr.decode()))
    return r.stdout.decode()


def compare(label, got, want):
    global failures
    if got == want:
        print("ok   %s" % label)
        return
    failures += 1
    print("FAIL %s" % label)
    import difflib
    sys.stdout.writelines(difflib.unified_diff(
        want.splitlines(True), got.splitlines(True), "gprof", "profcat"))


gprof = shutil.which("gprof")
for d in DIRS:
    exe = os.path.join(FIX, d, "callgraph")
    gmon = os.path.join(FIX, d, "gmon.out")
    got = run([PROFCAT, "--report", "callgraph", "--style", "gprof", exe, gmon])
    with open(os.path.join(FIX, d, "gprof-q.txt")) as f:
        compare(d + " vs committed gprof -b -q", got, f.read())
    if gprof:
        compare(d + " vs live gprof -b -q", got,
                run([gprof, "-b", "-q", exe, gmon]))
        gotz = run([PROFCAT, "--report", "callgraph", "--style", "gprof",
                    "--zero", exe, gmon])
        compare(d + " --zero vs live gprof -b -q -z", gotz,
                run([gprof, "-b", "-q", "-z", exe, gmon]))
# Other gmon.out layouts of the same runs (tests/unix/gen_fixtures.sh)
# that gprof reads with their arcs: 4.4BSD, and old BSD (no rate in the
# file; gprof assumes the host's 100 Hz, profcat is told -O rate=100).
if gprof:
    for d in DIRS:
        exe = os.path.join(FIX, d, "callgraph")
        for lay, opts in (("bsd44.gmon", []), ("oldbsd.gmon", ["-O", "rate=100"])):
            f = os.path.join(FIX, d, "layouts", lay)
            if not os.path.exists(f):
                continue
            got = run([PROFCAT] + opts + ["--report", "callgraph", "--style",
                                          "gprof", exe, f])
            compare("%s %s vs live gprof -b -q" % (d, lay), got,
                    run([gprof, "-b", "-q", exe, f]))
if not gprof:
    print("gprof not installed: compared with the committed outputs only")

# The machine outputs carry the text's numbers, and the PrintProff-style
# view of a gmon.out shows gprof's propagated times (%H = gprof's % time).
import json
import re

PRIMARY = re.compile(r"^\[(\d+)\]\s+([\d.]+)\s+([\d.]+)\s+([\d.]+)\s+(\d+)?"
                     r"(?:\+(\d+))?\s+(\S.*?)(?: <cycle \d+>)? \[\d+\]$")
CYCLE = re.compile(r"^\[(\d+)\]\s+([\d.]+)\s+([\d.]+)\s+([\d.]+)\s+(\d+)"
                   r"(?:\+(\d+))?\s+<cycle (\d+) as a whole>")
for d in DIRS:
    exe = os.path.join(FIX, d, "callgraph")
    gmon = os.path.join(FIX, d, "gmon.out")
    with open(os.path.join(FIX, d, "gprof-q.txt")) as f:
        text = f.read()
    want = {}
    for line in text.splitlines():
        m = PRIMARY.match(line) or CYCLE.match(line)
        if m:
            idx, pct, slf, ch, calls, selfc, name = m.groups()
            want[int(idx)] = (pct, slf, ch, int(calls or 0), int(selfc or 0))
    js = json.loads(run([PROFCAT, "--report", "callgraph", "--style",
                         "gprof", "-F", "json", exe, gmon]))
    got = {e["index"]: ("%.1f" % e["percent"], "%.2f" % e["self"],
                        "%.2f" % e["children"], e["calls"], e["self_calls"])
           for e in js["entries"]}
    compare(d + " json entries == gprof primary lines",
            json.dumps(got, sort_keys=True), json.dumps(want, sort_keys=True))
    csv = run([PROFCAT, "--report", "callgraph", "--style", "gprof", "-F",
               "csv", exe, gmon]).splitlines()
    rows = [r.split(",") for r in csv[1:]]
    got = {int(r[2]): ("%.2f" % float(r[8]), "%.2f" % float(r[9]),
                       int(r[5]), int(r[7]))
           for r in rows if r[1] in ("primary", "cycle")}
    compare(d + " csv entries == gprof primary lines",
            json.dumps(got, sort_keys=True),
            json.dumps({k: v[1:] for k, v in want.items()}, sort_keys=True))
    pj = json.loads(run([PROFCAT, "--report", "callgraph", "--style",
                         "proff", "-F", "json", exe, gmon]))
    byname = {}
    for line in text.splitlines():
        m = PRIMARY.match(line)
        if m:
            byname[m.group(7)] = m.group(2)
    got = {p["name"]: "%.1f" % p["percent_h"] for p in pj["procedures"]}
    compare(d + " proff style %H == gprof % time",
            json.dumps(got, sort_keys=True),
            json.dumps({k: v for k, v in byname.items() if k in got},
                       sort_keys=True))
sys.exit(1 if failures else 0)
