#!/usr/bin/env python3
"""profcat's flat profile against GNU gprof for every gmon.out layout.

For each gcc -pg fixture (tests/unix/fixtures/*/, gen_fixtures.sh) and each
file rewrite_layouts.py made from it, `profcat --output-format csv` must
give, for every function gprof's brief flat profile lists, the sample count
gprof prints (self seconds x rate, compared at the two decimals gprof
prints) and the same calls column; it must list no function gprof omits,
in gprof's order (time, then calls, descending, then name).

  check_layouts.py            against the committed gprof outputs
  check_layouts.py --live     against gprof run now (exit 77 without gprof)

Files gprof cannot read are checked against the gprof output of the same
data: the big-endian files (read with -O endian=big) against the
little-endian ones, OpenOCD files with 4-byte addresses for a 64-bit
program against openocd-w8.gmon, the V7 mon.out files against the original
gmon.out (counts; their calls are every call, recursive ones included, so
gprof's "calls+self" of the call graph), osf.mprof against the original
(and its 12 library ticks must be outside the program).
"""
import csv
import io
import os
import re
import shutil
import subprocess
import sys

PROFCAT = os.environ["PROFCAT"]
FIX = os.path.join(os.environ["PC_SOURCE_ROOT"], "tests", "unix", "fixtures")
LIVE = "--live" in sys.argv[1:]
failures = 0
checked = 0


def run(cmd):
    r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       text=True)
    if r.returncode != 0:
        raise SystemExit("%s failed (%d): %s" % (" ".join(cmd), r.returncode,
                                                r.stderr))
    return r.stdout


ROW = re.compile(r"^\s*([\d.]+)\s+([\d.]+)\s+([\d.]+)\s+"
                 r"(?:(\d+)\s+[\d.]+\s+[\d.]+\s+)?(\S+)\s*$")


def gprof_flat(text):
    """(rate, [(name, self_seconds_string, calls)]) from gprof -b -p."""
    m = re.search(r"Each sample counts as ([\d.e+-]+) seconds", text)
    rate = 1.0 / float(m.group(1))
    rows = []
    started = False
    for line in text.splitlines():
        if line.startswith(" time "):
            started = True
            continue
        if not started or not line.strip():
            continue
        r = ROW.match(line)
        if not r:
            raise SystemExit("cannot parse gprof row: %r" % line)
        rows.append((r.group(5), r.group(3), int(r.group(4) or 0)))
    return rate, rows


def gprof_total_calls(text):
    """name -> calls + self-calls from gprof -b -q primary lines."""
    calls = {}
    for m in re.finditer(r"^\[\d+\]\s+\S+\s+\S+\s+\S+\s+(\d+)(?:\+(\d+))?\s+"
                         r"([^<\s]\S*)", text, re.M):
        calls[m.group(3)] = int(m.group(1)) + int(m.group(2) or 0)
    return calls


def profcat_rows(args):
    out = run([PROFCAT, "--output-format", "csv"] + args)
    rows, totals = [], {}
    for rec in csv.DictReader(io.StringIO(out)):
        if rec["rank"]:
            rows.append((rec["symbol"], float(rec["count"]), int(rec["calls"])))
        else:
            totals[rec["symbol"]] = float(rec["count"])
    return rows, totals


def fail(label, msg):
    global failures
    failures += 1
    print("FAIL %s: %s" % (label, msg))


def compare(label, args, gprof_text, calls_override=None, order=True):
    """profcat rows for args against gprof's flat profile text."""
    global checked
    rate, want = gprof_flat(gprof_text)
    got, totals = profcat_rows(args)
    gmap = {n: (c, k) for n, c, k in got}
    ok = True
    for name, secs, calls in want:
        wcalls = calls if calls_override is None else calls_override.get(name, 0)
        if name not in gmap and secs == "0.00" and wcalls == 0:
            continue  # listed by gprof for its calls only
        if name not in gmap:
            fail(label, "%s missing from profcat" % name)
            ok = False
            continue
        count, pcalls = gmap[name]
        if "%.2f" % (count / rate) != secs:
            fail(label, "%s: profcat %r samples = %.2f s, gprof %s s"
                 % (name, count, count / rate, secs))
            ok = False
        if pcalls != wcalls:
            fail(label, "%s: profcat %d calls, expected %d" % (name, pcalls, wcalls))
            ok = False
    extra = [n for n, c, k in got if (c > 0 or k > 0) and n not in
             {w[0] for w in want}]
    if extra:
        fail(label, "profcat lists %s, gprof does not" % ", ".join(extra))
        ok = False
    if order and ok:
        names = [n for n, c, k in got if c > 0 or k > 0]
        if names != [w[0] for w in want]:
            fail(label, "order %s, gprof %s" % (names, [w[0] for w in want]))
            ok = False
    checked += 1
    if ok:
        print("ok   %s (%d rows)" % (label, len(want)))
    return totals


def read(path):
    with open(path) as f:
        return f.read()


def gprof_live(exe, data):
    return run(["gprof", "-b", "-p", exe, data])


def pdp11():
    """fixtures/pdp11 (rewrite_layouts.py pdp11()): 24 counters over
    [0x100, 0x180) holding 1, 10, 100, 1000, 10000; symbols A 0x100, B
    0x108, C 0x10e, D 0x114.  With the PDP-11's own arithmetic (V7
    monitor() scale 0x6000; test_monout.c works the rounding out by hand)
    counters 0-1 receive exactly A's PCs, 2 B's, 3 C's, 4 D's.  Read as
    prof(1) and gprof do (default), the buckets are 64/24 = 8/3 units:
    bins [0,2) [2,5) [5,8) [8,10) [10,13) in units from 0x100, split by unit
    overlap: A = (2*1 + 2*10) * 3/8 = 8.25, B = (1*10 + 2*100) * 3/8 =
    78.75, C = (1*100 + 2*1000) * 3/8 = 787.5, D = 3*10000 * 3/8 = 11250
    (gprof's overshoot when a bucket spans 3 whole units)."""
    d = os.path.join(FIX, "pdp11")
    syms = os.path.join(d, "syms.nm")
    exact = {"A": (11, 0), "B": (100, 70000), "C": (1000, 0), "D": (10000, 0)}
    prof = {"A": (8.25, 0), "B": (78.75, 70000), "C": (787.5, 0),
            "D": (11250, 0)}
    for name, extra in (("mon.out", []), ("swapped.mon", ["-O", "endian=big"])):
        for rule, want in (("pdp11", exact), ("prof", prof)):
            label = "pdp11 %s profil=%s" % (name, rule)
            got, _ = profcat_rows(["-O", "profil=" + rule] + extra +
                                  [syms, os.path.join(d, name)])
            have = {n: (c, k) for n, c, k in got}
            if have != want:
                fail(label, "got %r, want %r" % (have, want))
            else:
                print("ok   %s" % label)


def main():
    if LIVE and not shutil.which("gprof"):
        print("gprof is not installed")
        sys.exit(77)
    variants = sorted(d for d in os.listdir(FIX)
                      if os.path.isfile(os.path.join(FIX, d, "gmon.out")))
    for v in variants:
        d = os.path.join(FIX, v)
        lay = os.path.join(d, "layouts")
        exe = os.path.join(d, "callgraph")
        w8 = os.path.exists(os.path.join(lay, "openocd-w8.gmon"))

        def ref(name):
            """gprof flat profile of fixture file name (under d)."""
            if LIVE:
                return gprof_live(exe, os.path.join(d, name))
            return read(os.path.join(d, {
                "gmon.out": "gprof-p.txt",
                "layouts/bsd44.gmon": "layouts/bsd44.gprof-p.txt",
                "layouts/oldbsd.gmon": "layouts/oldbsd.gprof-p.txt",
                "layouts/histonly.gmon": "layouts/histonly.gprof-p.txt",
                "layouts/openocd.gmon": "layouts/openocd.gprof-p.txt",
                "layouts/openocd-w8.gmon": "layouts/openocd.gprof-p.txt",
            }[name]))

        orig = ref("gmon.out")
        big = ["-O", "endian=big"]
        compare("%s gmon.out (GNU tagged)" % v, [exe, os.path.join(d, "gmon.out")], orig)
        for name in ("bsd44", "oldbsd", "histonly"):
            compare("%s %s.gmon" % (v, name),
                    [exe, os.path.join(lay, name + ".gmon")],
                    ref("layouts/%s.gmon" % name))
        compare("%s tagged-be.gmon" % v,
                big + [exe, os.path.join(lay, "tagged-be.gmon")], orig)
        compare("%s bsd44-be.gmon" % v,
                big + [exe, os.path.join(lay, "bsd44-be.gmon")],
                ref("layouts/bsd44.gmon"))
        oref = ref("layouts/openocd-w8.gmon" if w8 else "layouts/openocd.gmon")
        compare("%s openocd.gmon" % v,
                [exe, os.path.join(lay, "openocd.gmon")], oref)
        compare("%s openocd-be.gmon" % v,
                big + [exe, os.path.join(lay, "openocd-be.gmon")], oref)
        if os.path.exists(os.path.join(lay, "v7-le.mon")):
            total = gprof_total_calls(read(os.path.join(d, "gprof-q.txt")))
            compare("%s v7-le.mon" % v, [exe, os.path.join(lay, "v7-le.mon")],
                    orig, calls_override=total, order=False)
            compare("%s v7-be.mon" % v,
                    big + [exe, os.path.join(lay, "v7-be.mon")],
                    orig, calls_override=total, order=False)
        if os.path.exists(os.path.join(lay, "osf.mprof")):
            totals = compare("%s osf.mprof" % v,
                             [exe, os.path.join(lay, "osf.mprof")], orig,
                             calls_override={}, order=False)
            if totals.get("[outside]") != 12:
                fail("%s osf.mprof" % v, "outside %r, expected 12" %
                     totals.get("[outside]"))
    pdp11()
    print("%d comparisons, %d failures" % (checked, failures))
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
