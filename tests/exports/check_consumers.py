#!/usr/bin/env python3
"""Exports checked against profcat's own flat report and the real consumers.

usage: check_consumers.py CASE [MAKE_API_PROFILES]

For a case (a set of input files), profcat writes the flat report as CSV
and every export; then:
  folded      per leaf frame, the counts add up to the rounded report count
  speedscope  per leaf frame, the weights add up to the report count (or
              seconds); the schema check (check_speedscope.mjs) and, for
              some cases, the headless speedscope import (ss_check.sh)
  pprof       `go tool pprof -raw`: per leaf function, samples/count values
              add up to the rounded count and cpu/nanoseconds to the
              rounded time; `go tool pprof -top -sample_index=0`
              shows the same flat counts
  callgrind   `callgrind_annotate` per-function totals equal the rounded
              counts, PROGRAM TOTALS their sum; --inclusive=yes parses
  (a Proff capture has no samples: its exports carry the arcs' flat
  times, compared with the call-graph report's F times)
  gmon        read back by profcat with the case's symbol files: the same
              counts; with an ELF executable, `gprof -b -p` on the export
              equals gprof on the original gmon.out (when there is one)
A consumer that is not installed is skipped with a message; the checkers
for speedscope come from tests/exports/setup-checkers.sh (npm).
Exit: 0 pass, 1 fail, 77 the case's loaders are not in this build.
"""
import csv
import io
import math
import os
import re
import shutil
import subprocess
import sys
import tempfile

PROFCAT = os.environ["PROFCAT"]
ROOT = os.environ["PC_SOURCE_ROOT"]
UNIX = os.path.join(ROOT, "tests", "unix", "fixtures")
ATARI = os.path.join(ROOT, "tests", "atari", "synth")
CHECKERS = os.environ.get("PC_FORMAT_CHECKERS") or os.path.join(
    os.environ.get("XDG_CACHE_HOME") or os.path.join(
        os.path.expanduser("~"), ".cache"), "profcore", "format-checkers")
EXPORTS = ["pprof", "speedscope", "folded", "callgrind", "gmon"]

failures = []


def check(cond, what):
    if cond:
        print("ok   " + what)
    else:
        failures.append(what)
        print("FAIL " + what)


def skip(what):
    print("skip " + what)


def run(cmd, env=None, ok=(0,)):
    r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       env=env)
    if r.returncode not in ok:
        raise SystemExit("%s failed (%d):\n%s%s" % (
            " ".join(cmd), r.returncode, r.stdout.decode(errors="replace"),
            r.stderr.decode(errors="replace")))
    return r.stdout.decode(errors="replace")


def rnd(x):
    """llround: halves away from zero (C), not Python's banker's round."""
    return int(math.floor(x + 0.5)) if x >= 0 else -int(math.floor(-x + 0.5))


def loaders():
    out = run([PROFCAT, "--list-formats"])
    return {l.split()[0] for l in out.splitlines()[1:] if l.strip()}


def unix_case(arch):
    d = os.path.join(UNIX, arch)
    elf = os.path.join(d, "callgraph")
    return {"args": [elf, os.path.join(d, "gmon.out")], "symargs": [elf],
            "elf": elf, "gmon": os.path.join(d, "gmon.out"),
            "need": {"elf", "gmon"}, "speedscope_import": arch == "x86_64-nopie"}


ALC = ["-O", "load-address=0x13f00", os.path.join(ATARI, "alcyon.prg")]
DOS = os.path.join(ROOT, "tests", "dos", "fixtures", "prf")
MPW = os.path.join(ROOT, "tests", "callgraph", "fixtures")
CASES = {
    "gmon-x86_64": unix_case("x86_64-nopie"),
    "gmon-i386-pie": unix_case("i386-pie"),
    "atari-hatari": {"args": ALC + [os.path.join(ATARI, "dwarfs.hatari")],
                     "symargs": ALC, "need": {"gemdos", "hatari"},
                     "speedscope_import": True},
    "atari-raw": {"args": ALC + ["-f", "raw", "-O", "encoding=binary",
                                 "-O", "width=32", "-O", "endian=big",
                                 os.path.join(ATARI, "dwarfs.pcs")],
                  "symargs": ALC, "need": {"gemdos", "raw"}},
    # a raw PC dump of the x86-64 test program (made by raw_dump below):
    # gprof reads the exported gmon.out with the executable and prints the
    # same flat profile as profcat
    "raw-elf": {"gen": "raw_dump", "elf": os.path.join(
        UNIX, "x86_64-nopie", "callgraph"), "need": {"elf", "raw"},
        "gprof_vs_flat": True},
    "dos-prf": {"args": [os.path.join(DOS, "DEMO.MAP"),
                         os.path.join(DOS, "DEMO.PRF")],
                "symargs": [os.path.join(DOS, "DEMO.MAP")],
                "need": {"map", "prf"}},
    # no samples: the exports carry the arcs' flat times (microseconds),
    # checked against the call-graph report; segmented: no gmon.out
    "proff": {"args": [os.path.join(MPW, "example.SYM"),
                       os.path.join(MPW, "example.proff")],
              "need": {"mpwsym", "proff"}, "arc_time": True,
              "gmon_refused": True, "speedscope_import": True},
    "api-empty": {"api": "empty", "need": {"elf"}, "symargs": [os.path.join(
        UNIX, "x86_64-nopie", "callgraph")], "elf": os.path.join(
        UNIX, "x86_64-nopie", "callgraph"), "speedscope_import": True},
    # every sample outside the program: read back, the gmon.out does not
    # fit it (docs/attribution.md ("Attribution rules"), rule 9), hence --ignore-fit
    "api-outside": {"api": "outside", "need": {"elf"}, "symargs": ["--ignore-fit", os.path.join(
        UNIX, "x86_64-nopie", "callgraph")], "elf": os.path.join(
        UNIX, "x86_64-nopie", "callgraph"), "speedscope_import": True},
}


def expected_counts(csvtext):
    """{frame name: count} as the exports name them, and the rate."""
    exp = {}
    for row in csv.DictReader(io.StringIO(csvtext)):
        name, count = row["symbol"], float(row["count"] or 0)
        if row["rank"]:
            if count > 0:
                exp[name] = exp.get(name, 0) + count
        elif name == "[unattributed]" and count > 0:
            exp["[unattributed]"] = count
        elif name.startswith("[outside:") and count > 0:
            exp["[" + name[len("[outside:"):]] = count
    return exp


def raw_dump(case, tmp):
    """A text dump of PCs: for the i-th text symbol (in address order),
    i + 1 samples at start + 2*k.  No sample sits on the byte before an odd
    symbol start: gprof, working in 2-byte units, would give it to that
    symbol (docs/exports.md ("Exports"))."""
    elf = case["elf"]
    out = run([PROFCAT, "--list-symbols", "-F", "csv", elf])
    starts = sorted(int(r["address"], 16) for r in csv.DictReader(
        io.StringIO(out)) if r["kind"] == "text")
    pcs = []
    for i, a in enumerate(starts[:-1]):
        nxt = starts[i + 1]
        for k in range(i + 1):
            pc = a + 2 * (k % 8)
            if pc < nxt - 1:
                pcs.append(pc)
    path = os.path.join(tmp, "pcs.txt")
    with open(path, "w") as f:
        f.write("".join("0x%x\n" % pc for pc in pcs))
    case["args"] = [elf, "-f", "raw", path]
    case["symargs"] = [elf]


def gprof_flat(text):
    """{name: (percent, self seconds)} from gprof -b -p."""
    rows = {}
    for line in text.splitlines():
        m = re.match(r"^\s*([\d.]+)\s+([\d.]+)\s+([\d.]+)\s+(?:\d+\s+"
                     r"[\d.]+\s+[\d.]+\s+)?(\S+)$", line)
        if m:
            rows[m.group(4)] = (float(m.group(1)), float(m.group(3)))
    return rows


def expected_ftimes(args):
    """{procedure: flat time} from profcat's call-graph report."""
    import json
    doc = json.loads(run([PROFCAT, "--report", "callgraph", "-F", "json"]
                         + args))
    return {p["name"]: float(p["ftime"]) for p in doc["procedures"]
            if float(p["ftime"]) > 0}


def rate_of(args):
    """The sampling rate profcat's text report states, 0 if unknown."""
    if not args:
        return 0
    m = re.search(r"^Rate: ([0-9.e+]+) Hz, each sample counts as [^ ]+ "
                  r"seconds", run([PROFCAT] + args), re.M)
    return float(m.group(1)) if m else 0


def compare_map(label, got, want, tol=0):
    names = sorted(set(got) | set(want))
    bad = [(n, got.get(n), want.get(n)) for n in names
           if abs((got.get(n) or 0) - (want.get(n) or 0)) > tol]
    check(not bad, "%s per-function totals%s" % (
        label, "" if not bad else ": (name, got, want) %r" % bad[:8]))


def check_folded(label, path, exp):
    got = {}
    with open(path) as f:
        for line in f:
            m = re.match(r"^(.*) (\d+)$", line.rstrip("\n"))
            if not m:
                check(False, "%s folded line %r" % (label, line))
                return
            leaf = m.group(1).split(";")[-1]
            if int(m.group(2)):
                got[leaf] = got.get(leaf, 0) + int(m.group(2))
    compare_map(label + " folded", got, {k: rnd(v) for k, v in exp.items()
                                         if rnd(v)})


def check_speedscope(label, path, exp, rate, do_import):
    import json
    with open(path) as f:
        doc = json.load(f)
    check(doc["$schema"] ==
          "https://www.speedscope.app/file-format-schema.json",
          label + " speedscope $schema")
    prof = doc["profiles"][0]
    frames = doc["shared"]["frames"]
    scale = rate if prof["unit"] == "seconds" else 1
    got = {}
    for st, w in zip(prof["samples"], prof["weights"]):
        leaf = frames[st[-1]]["name"]
        got[leaf] = got.get(leaf, 0) + w * scale
    compare_map(label + " speedscope weights", got, exp, tol=1e-4)
    node = shutil.which("node")
    if node and os.path.isdir(os.path.join(CHECKERS, "node_modules", "ajv")):
        out = run([node, os.path.join(CHECKERS, "check_speedscope.mjs"), path],
                  ok=(0, 1))
        check(out.startswith("OK"), label + " speedscope schema: " + out.strip())
    else:
        skip(label + " speedscope schema (run tests/exports/setup-checkers.sh)")
    if do_import:
        ss_import(label, path, "speedscope")


def ss_import(label, path, fmt):
    """The speedscope importer itself, in headless Chromium (the approach of
    ss_check.sh in ../shared/tools/format-checkers, driven from here so that
    a loaded machine cannot fail it): the profile is handed to speedscope's
    loadFileFromBase64, alert() is stubbed to put its message in the title,
    and the DOM is read once the page is idle.  Chromium's virtual time
    does not run out under CPU load; only the wall-clock limit could, so it
    is generous (a hang, not a slow machine, is what it catches)."""
    idx = os.path.join(CHECKERS, "node_modules", "speedscope", "dist",
                       "release", "index.html")
    if not (shutil.which("chromium") and os.path.isfile(idx)):
        skip("%s headless speedscope import of %s (needs chromium and "
             "setup-checkers.sh)" % (label, fmt))
        return
    import base64
    import json
    with open(path, "rb") as f:
        b64 = base64.b64encode(f.read()).decode()
    with tempfile.TemporaryDirectory() as tmp:
        js = os.path.join(tmp, "load.js")
        with open(js, "w") as f:
            f.write('window.alert=function(m){document.title='
                    '"SPEEDSCOPE_ERROR "+m};speedscope.loadFileFromBase64('
                    '%s, "%s")\n' % (json.dumps(os.path.basename(path)), b64))
        url = "file://%s#localProfilePath=%s" % (idx, js)
        r = subprocess.run(
            ["chromium", "--headless=new", "--no-sandbox", "--disable-gpu",
             "--allow-file-access-from-files", "--window-size=1200,700",
             "--user-data-dir=" + os.path.join(tmp, "profile"),
             "--virtual-time-budget=8000", "--dump-dom", url],
            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, timeout=900)
    dom = r.stdout.decode(errors="replace")
    err = re.search(r"SPEEDSCOPE_ERROR[^<]*", dom)
    check(not err and "Left Heavy" in dom,
          "%s speedscope imports the %s export: %s"
          % (label, fmt, err.group(0) if err else
             "flame graph rendered" if "Left Heavy" in dom else
             "no flame graph rendered (chromium exit %d)" % r.returncode))


def check_pprof(label, path, exp, rate, arc_time=False):
    go = shutil.which("go")
    if not go:
        skip(label + " go tool pprof (Debian golang-go not installed)")
        return
    env = dict(os.environ)
    env["HOME"] = os.path.join(os.path.dirname(path), "gohome")
    os.makedirs(env["HOME"], exist_ok=True)
    env["PPROF_TMPDIR"] = env["HOME"]
    raw = run([go, "tool", "pprof", "-symbolize=none", "-raw", path], env=env)
    part = None
    types, locfn = None, {}
    samples = []
    for line in raw.splitlines():
        if line.startswith("Samples:"):
            part = "samples"
            continue
        if line.startswith("Locations"):
            part = "locations"
            continue
        if line.startswith("Mappings"):
            part = None
            continue
        if part == "samples":
            if types is None:
                types = line.split()
                continue
            m = re.match(r"^\s*([\d\s]+):\s*([\d\s]+)$", line)
            if m:
                samples.append(([int(x) for x in m.group(1).split()],
                                [int(x) for x in m.group(2).split()]))
        elif part == "locations":
            m = re.match(r"^\s*(\d+): 0x[0-9a-f]+ (?:M=\d+ )?(.*) :\d+ s=\d+$",
                         line)
            if m:
                locfn[int(m.group(1))] = m.group(2)
    want_types = (["time/microseconds"] if arc_time else ["samples/count"] +
                  (["cpu/nanoseconds"] if rate else []))
    check(types == want_types, "%s pprof sample types %r" % (label, types))
    got_n, got_ns = {}, {}
    for vals, ids in samples:
        leaf = locfn.get(ids[0], "?")
        got_n[leaf] = got_n.get(leaf, 0) + vals[0]
        if rate:
            got_ns[leaf] = got_ns.get(leaf, 0) + vals[1]
    compare_map(label + " pprof -raw " + want_types[0], got_n,
                {k: rnd(v) for k, v in exp.items() if rnd(v)})
    if rate:
        # the CSV counts have 6 decimals: +-5e-7 samples
        compare_map(label + " pprof -raw cpu/nanoseconds", got_ns,
                    {k: rnd(v * 1e9 / rate) for k, v in exp.items()},
                    tol=5e-7 * 1e9 / rate + 1)
    # the first sample type (counts, or microseconds shown as "123us")
    top = run([go, "tool", "pprof", "-symbolize=none", "-top",
               "-nodefraction=0", "-sample_index=0"] +
              (["-unit=us"] if arc_time else []) + [path], env=env)
    got_top = {}
    for line in top.splitlines():
        m = re.match(r"^\s*(\d+)(?:us)?\s+[\d.]+%\s+[\d.]+%\s+\d+(?:us)?\s+"
                     r"[\d.]+%\s+(.*)$", line)
        if m and int(m.group(1)):
            got_top[m.group(2)] = int(m.group(1))
    compare_map(label + " pprof -top flat", got_top,
                {k: rnd(v) for k, v in exp.items() if rnd(v)})


def check_callgrind(label, path, exp):
    ca = shutil.which("callgrind_annotate")
    if not ca:
        skip(label + " callgrind_annotate (Debian valgrind not installed)")
        return
    out = run([ca, "--threshold=100", path])
    got, total = {}, None
    for line in out.splitlines():
        m = re.match(r"^\s*([\d,]+) \(\s*[\d.]+%\)\s+(.*)$", line)
        if not m:
            continue
        n = int(m.group(1).replace(",", ""))
        what = m.group(2)
        if what.strip() == "PROGRAM TOTALS":
            total = n
            continue
        what = re.sub(r" \[[^]]*\]$", "", what)  # " [object]"
        fn = what.split(":", 1)[1] if ":" in what else what
        if n:
            got[fn] = got.get(fn, 0) + n
    want = {k: rnd(v) for k, v in exp.items() if rnd(v)}
    compare_map(label + " callgrind_annotate", got, want)
    check(total == sum(want.values()) or (total is None and not want),
          "%s callgrind_annotate PROGRAM TOTALS %r" % (label, total))
    run([ca, "--inclusive=yes", "--threshold=100", path])
    check(True, label + " callgrind_annotate --inclusive=yes reads it")


def check_gmon(label, path, case, csvtext):
    symargs = case.get("symargs")
    if symargs:
        # the program's rows; samples outside it come back by the regions
        # the symbol files define (a region only the capture knew is lost)
        back = run([PROFCAT, "-F", "csv"] + symargs + [path])
        rows = lambda t: {k: v for k, v in expected_counts(t).items()
                          if not k.startswith("[")}
        check(_close(rows(back), rows(csvtext)),
              label + " gmon read back by profcat: same per-function counts")
    elf = case.get("elf")
    gprof = shutil.which("gprof")
    if not elf:
        return
    if not gprof:
        skip(label + " gprof (binutils not installed)")
        return
    mine = run([gprof, "-b", "-p", elf, path])
    if case.get("gprof_vs_flat"):
        # profcat's percent and self seconds, to gprof's two decimals
        rate = rate_of(case["args"]) or 1
        flat = csv.DictReader(io.StringIO(csvtext))
        want = {r["symbol"]: (float(r["percent"]),
                              float(r["count"]) / rate)
                for r in flat if r["rank"] and float(r["count"]) > 0}
        got = gprof_flat(mine)
        bad = [(n, got.get(n), want.get(n)) for n in set(got) | set(want)
               if n not in got or n not in want or
               abs(got[n][0] - want[n][0]) > 0.0051 or
               abs(got[n][1] - want[n][1]) > 0.0051]
        check(not bad and got, "%s gprof -b -p on the export equals "
              "profcat's flat report (%d functions)%s" % (
                  label, len(got), "" if not bad else ": %r" % bad[:6]))
    if case.get("gmon"):
        orig = run([gprof, "-b", "-p", elf, case["gmon"]])
        check(mine == orig, label + " gprof -b -p on the export equals "
              "gprof on the original gmon.out")
    else:
        check(mine.startswith("Flat profile:"),
              label + " gprof -b -p reads the export")


def _close(a, b):
    return set(a) == set(b) and all(abs(a[k] - b[k]) < 1e-6 for k in a)


def main():
    name = sys.argv[1]
    case = CASES[name]
    have = loaders()
    missing = case.get("need", set()) - have
    if missing:
        print("SKIP: loaders %s are not in this build" % sorted(missing))
        return 77
    tmp = tempfile.mkdtemp(prefix="pc-exports-")
    try:
        files = {}
        if "gen" in case:
            globals()[case["gen"]](case, tmp)
        if "api" in case:
            run([sys.argv[2], case["elf"], tmp])
            with open(os.path.join(tmp, case["api"] + ".csv")) as f:
                csvtext = f.read()
            for e in EXPORTS:
                files[e] = os.path.join(tmp, "%s.%s" % (case["api"], e))
        else:
            csvtext = run([PROFCAT, "-F", "csv"] + case["args"])
            for e in EXPORTS:
                files[e] = os.path.join(tmp, "export." + e)
                if e == "gmon" and case.get("gmon_refused"):
                    r = subprocess.run([PROFCAT, "--export", e, "-o", files[e]]
                                       + case["args"], stdout=subprocess.PIPE,
                                       stderr=subprocess.PIPE)
                    msg = ("profcat: gmon: gmon.out has flat addresses; this "
                           "capture is segmented\n")
                    check(r.returncode == 1 and r.stderr.decode() == msg and
                          not os.path.exists(files[e]),
                          "%s gmon export refused: %d %r" % (
                              name, r.returncode, r.stderr.decode()))
                    continue
                run([PROFCAT, "--export", e, "-o", files[e]] + case["args"])
        exp = expected_counts(csvtext)
        if case.get("arc_time"):
            exp = expected_ftimes(case["args"])
        rate = rate_of(case.get("args"))
        print("# %s: %d frames, rate %g" % (name, len(exp), rate))
        check_folded(name, files["folded"], exp)
        check_speedscope(name, files["speedscope"], exp, rate,
                         case.get("speedscope_import"))
        check_pprof(name, files["pprof"], exp, rate, case.get("arc_time"))
        check_callgrind(name, files["callgrind"], exp)
        if not case.get("gmon_refused"):
            check_gmon(name, files["gmon"], case, csvtext)
        if case.get("speedscope_import"):
            for e in ("folded", "pprof", "callgrind"):
                ss_import(name, files[e], e)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    print("%d failed" % len(failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
