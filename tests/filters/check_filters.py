#!/usr/bin/env python3
"""--focus, --ignore and --hide in every report and export (issue #24).

1. Every case of cases.py prints exactly golden/NAME.txt (the reports
   and exports of the gcc -pg fixture and of the DWARF fixture, each with
   one filter of each kind and with all three).
2. Relations that hold between them, computed here from the outputs:
   - regions: the kept symbols' samples are the flat report's listed
     samples (its csv [listed] row), and kept + filtered out are every
     sample the unfiltered regions report counts;
   - callgraph: each function's self time is its flat row's (the rows the
     filters keep) or 0;
   - source: listed lines + filtered out + lines without source + no
     function = the unfiltered report's;
   - the pprof export with a filter holds what `go tool pprof -top` shows
     with the same -focus/-ignore/-hide on the unfiltered export (the
     stack rule); the flat report's rows are its flat values with focus
     and ignore only (the stack rule, issue #34), less the rows hide
     names (one frame per row; with --hide alone, those of --stacks
     none);
   - the filtered pprof and speedscope exports pass the format checkers
     (../shared/tools/format-checkers, installed as tests/exports does),
     when node and the checkers are there;
   - callgrind: no fn= block for a hidden function, and callgrind_annotate
     reads the filtered export with its summary as total;
   - the HTML page's data: its flat table and regions say the filters.
The gmon export and the check report refuse the filters (exit 2).

Usage: check_filters.py [--dwarf] [--disasm]: the cases that need libdw
and Capstone run only with these flags (meson passes them as built).
Exit 0 pass, 1 fail.
"""
import csv
import io
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

import cases

PROFCAT = os.environ["PROFCAT"]
HERE = os.path.dirname(os.path.abspath(__file__))
CHECKERS = os.environ.get("PC_FORMAT_CHECKERS") or os.path.join(
    os.environ.get("XDG_CACHE_HOME") or os.path.join(
        os.path.expanduser("~"), ".cache"), "profcore", "format-checkers")
HAVE = {"": True, "dwarf": "--dwarf" in sys.argv,
        "disasm": "--disasm" in sys.argv}
failures = []


def check(cond, what, detail=""):
    if cond:
        print("ok   " + what)
    else:
        failures.append(what)
        print("FAIL " + what + ("\n" + detail if detail else ""))


def run(args, cwd=cases.CG_DIR, rc=0):
    r = subprocess.run([PROFCAT] + args, cwd=cwd, stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, timeout=600)
    if r.returncode != rc:
        check(False, "profcat %s: exit %d" % (" ".join(args), r.returncode),
              r.stderr.decode("utf-8", "replace"))
    return r.stdout.decode("utf-8", "replace"), r.stderr.decode("utf-8", "replace")


# ---- 1. the goldens ------------------------------------------------------
for name, cwd, args, need in cases.cases():
    if not HAVE[need]:
        print("skip %s: built without %s" % (name, need))
        continue
    r = subprocess.run([PROFCAT] + args, cwd=cwd, stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, timeout=600)
    with open(os.path.join(HERE, "golden", name + ".txt"), "rb") as f:
        want = cases.from_golden(f.read())
    got = r.stdout
    if r.returncode == 0 and got == want:
        print("ok   %s = golden/%s.txt" % (name, name))
    else:
        import difflib
        diff = "".join(difflib.unified_diff(
            want.decode("utf-8", "replace").splitlines(True),
            got.decode("utf-8", "replace").splitlines(True),
            "golden/%s.txt" % name, "profcat " + " ".join(args)))
        check(False, "%s = golden/%s.txt (exit %d)" % (name, name, r.returncode),
              diff[:4000])


# ---- 2. relations ----------------------------------------------------------
def flat_rows(fargs):
    """{symbol: count} of the flat report's csv, and its [listed] count."""
    out, _ = run(["-F", "csv"] + fargs + cases.CG)
    rows, listed = {}, None
    for rec in csv.reader(io.StringIO(out)):
        if rec[0] not in ("", "rank"):
            rows[rec[1]] = float(rec[2])
        elif rec[0] == "" and rec[1].startswith("[listed"):
            listed = float(rec[2])
    return rows, listed


def regions(fargs):
    out, _ = run(["-r", "regions", "-F", "json"] + fargs + cases.CG)
    return {r["region"]: r["samples"] for r in json.loads(out)["regions"]}


whole = regions([])
everything = whole.get("symbols", 0) + whole.get("no-symbol", 0) + whole["outside"]
for fname, fargs in cases.CG_FILTERS.items():
    rows, listed = flat_rows(fargs)
    reg = regions(fargs)
    check(abs(reg.get("symbols", 0) - listed) < 1e-5,
          "%s: regions' kept symbols %.6f = flat's listed %.6f" % (
              fname, reg.get("symbols", 0), listed))
    kept = reg["program"] + reg["outside"]
    check(abs(kept + reg["filtered"] - everything) < 1e-5,
          "%s: regions kept %.6f + filtered out %.6f = all %.6f" % (
              fname, kept, reg["filtered"], everything))
    out, _ = run(["-r", "callgraph", "-F", "json"] + fargs + cases.CG)
    selfs = {e["name"]: e["self"] for e in json.loads(out)["entries"]
             if e.get("name")}
    bad = [n for n, s in selfs.items()
           if abs(s * 100 - rows.get(n, 0)) > 1e-3]
    check(not bad, "%s: call graph self times = flat rows (x 0.01 s)" % fname,
          "differ: %s" % bad)

# callgrind: a hidden function gets no fn= block (it was an empty one),
# and callgrind_annotate reads the filtered export with the summary total
ca = shutil.which("callgrind_annotate")
for fname, fargs in cases.CG_FILTERS.items():
    if "--hide" not in fargs:
        continue
    hide = fargs[fargs.index("--hide") + 1]
    out, _ = run(["-e", "callgrind"] + fargs + cases.CG)
    names = dict(re.findall(r"^c?fn=\((\d+)\) (.*)$", out, re.M))
    blocks = [names.get(i, "?") for i in re.findall(r"^fn=\((\d+)\)", out, re.M)]
    check(blocks and not [n for n in blocks if re.search(hide, n)],
          "%s: callgrind has no fn= block for --hide %s" % (fname, hide),
          "fn= blocks: %s" % blocks)
    if not ca:
        print("skip %s: callgrind_annotate (Debian valgrind not installed)" % fname)
        continue
    with tempfile.TemporaryDirectory() as tmp:
        cgf = os.path.join(tmp, fname + ".callgrind")
        with open(cgf, "w") as f:
            f.write(out)
        r = subprocess.run([ca, "--threshold=100", cgf], stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, universal_newlines=True,
                           timeout=600)
    total = re.search(r"^summary: (\d+)$", out, re.M).group(1)
    listed = re.findall(r"^ *[\d,]+ \([ \d.]+%\)  \?\?\?:(\S+)", r.stdout, re.M)
    check(r.returncode == 0 and
          re.search(r"^ *%s \(100\.0%%\)  PROGRAM TOTALS$" % total, r.stdout, re.M) and
          listed and not [n for n in listed if re.search(hide, n)],
          "%s: callgrind_annotate reads it: total %s, no hidden function in %s" % (
              fname, total, listed), r.stdout[-2000:])


def source_sum(fargs):
    out, _ = run(["-r", "source", "-F", "json"] + fargs + cases.SRC, cwd=cases.SRC_DIR)
    d = json.loads(out)
    return (sum(l["count"] for l in d["lines"]) + d.get("filtered_out", 0) +
            d["no_line_info"] + d["no_function"])


if HAVE["dwarf"]:
    whole = source_sum([])
    for fname, fargs in cases.SRC_FILTERS.items():
        s = source_sum(fargs)
        check(abs(s - whole) < 1e-5,
              "%s: source lines + filtered out + no line %.6f = unfiltered %.6f" % (
                  fname, s, whole))

go = shutil.which("go")
node = shutil.which("node")
with tempfile.TemporaryDirectory() as tmp:
    env = dict(os.environ, HOME=os.path.join(tmp, "home"))
    env["PPROF_TMPDIR"] = env["HOME"]
    os.makedirs(env["HOME"])

    def top(*args):
        r = subprocess.run([go, "tool", "pprof", "-top", "-unit=ms",
                            "-nodefraction=0", "-nodecount=1000"] + list(args),
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           universal_newlines=True, env=env, timeout=600)
        check(r.returncode == 0, "go tool pprof -top %s" % " ".join(args), r.stderr)
        rows = r.stdout.split("flat%", 1)[1].splitlines()[1:]
        return [(l.split()[0], l.split()[3], l.split()[5]) for l in rows]

    allpb = os.path.join(tmp, "all.pb.gz")
    run(["-e", "pprof", "-o", allpb] + cases.CG)
    for fname, fargs in cases.CG_FILTERS.items():
        part = os.path.join(tmp, fname + ".pb.gz")
        run(["-e", "pprof", "-o", part] + fargs + cases.CG)
        flat = os.path.join(tmp, fname + "-flat.pb.gz")
        run(["-e", "pprof", "--stacks", "none", "-o", flat] + fargs + cases.CG)
        ss = os.path.join(tmp, fname + ".speedscope.json")
        run(["-e", "speedscope", "-o", ss] + fargs + cases.CG)
        if go:
            gflags = ["-%s=%s" % (fargs[i][2:], fargs[i + 1])
                      for i in range(0, len(fargs), 2)]
            want = top(*(gflags + [allpb]))
            check(top(part) == want,
                  "%s: pprof export = go tool pprof %s on the whole export" % (
                      fname, " ".join(gflags)), "%s\n%s" % (top(part), want))
            # the flat report: focus and ignore by the stack rule (the
            # pprof export's flat values without --hide), then the rows
            # matching hide left out (one frame per row)
            pairs = [(fargs[i], fargs[i + 1]) for i in range(0, len(fargs), 2)]
            hide = [v for k, v in pairs if k == "--hide"]
            sel = [x for k, v in pairs if k != "--hide" for x in (k, v)]
            if hide and sel:
                stk = os.path.join(tmp, fname + "-nohide.pb.gz")
                run(["-e", "pprof", "-o", stk] + sel + cases.CG)
            else:
                stk = part if sel else flat
            rows, _ = flat_rows(fargs)
            got = {n: float(f[:-2]) for f, _, n in top(stk)
                   if f != "0" and not (hide and re.search(hide[0], n))}
            wantf = {n: round(c * 10, 2) for n, c in rows.items() if c > 0}
            check(got == wantf,
                  "%s: the flat report's rows = pprof export's flat values "
                  "(stack rule), less the hidden rows" % fname,
                  "%s\n%s" % (got, wantf))
        else:
            print("skip %s: go tool pprof (Debian golang-go not installed)" % fname)
        if node and os.path.isdir(os.path.join(CHECKERS, "node_modules", "pprof-format")):
            r = subprocess.run([node, os.path.join(CHECKERS, "check_pprof.mjs"), part],
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                               universal_newlines=True, timeout=600)
            check(r.returncode == 0 and r.stdout.startswith("sample_type"),
                  "%s: check_pprof.mjs reads the filtered pprof export" % fname, r.stdout)
            r = subprocess.run([node, os.path.join(CHECKERS, "check_speedscope.mjs"), ss],
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                               universal_newlines=True, timeout=600)
            check(r.returncode == 0 and r.stdout.startswith("OK"),
                  "%s: check_speedscope.mjs: %s" % (fname, r.stdout.strip()[:200]))
        else:
            print("skip %s: format checkers (node and tests/exports/setup-checkers.sh)" % fname)

# the HTML page's data island states the filters
out, _ = run(["-r", "html", "--ignore", "^tiny_"] + cases.CG)
m = re.search(r'<script type="application/json" id="pc-data">\n(.*?)\n</script>', out, re.S)
data = json.loads(m.group(1).replace("<\\/", "</")) if m else {}
check(data.get("flat", {}).get("filters") == {"focus": None, "ignore": "^tiny_", "hide": None},
      "html: the flat table's data says the filters")
check((data.get("regions") or {}).get("filters", {}).get("ignore") == "^tiny_",
      "html: the regions' data says the filters")

# diff: the symbols the filters keep are tested, shares of all samples
out, _ = run(["diff", "--ignore", "^tiny"] + cases.CG + ["gmon.out"])
check(out.splitlines()[3:5] == [
    "Filters: ignore ^tiny (the symbols they keep are tested; shares of all samples)",
    "Test: two-proportion z-test, Holm correction over 3 symbols, 95% level; 0 significant"],
      "diff --ignore: the filters line and 3 symbols tested", out)
out, _ = run(["diff", "--focus", "hot", "-F", "json"] + cases.CG + ["gmon.out"])
d = json.loads(out)
check([r["symbol"] for r in d["rows"]] == ["hot"] and d["tested"] == 1 and
      d["filters"] == {"focus": "hot", "ignore": None, "hide": None} and
      d["rows"][0]["before_percent"] == 72.4413,
      "diff --focus -F json: one row, percent of all samples, filters member")

# the pages in a real browser: the header line says the filters
sys.path.insert(0, os.path.join(cases.ROOT, "tests", "html"))
import cdp  # noqa: E402
if cdp.chromium():
    with tempfile.TemporaryDirectory() as tmp, cdp.Browser() as b:
        for label, args, want in [
                ("page", ["-r", "html", "--ignore", "^tiny_", "--hide", "hot"] + cases.CG,
                 "Filters: ignore ^tiny_, hide hot (flat table and regions: the symbols they "
                 "keep, percents of all samples; flame view: the stacks they keep; call graph: "
                 "the self time they keep, a hidden function's callers joined to its callees)"),
                ("diff page", ["diff", "-F", "html", "--ignore", "^tiny"] + cases.CG + ["gmon.out"],
                 "Filters: ignore ^tiny (the symbols they keep are tested; shares of all samples)")]:
            page = os.path.join(tmp, "p.html")
            run(args[:-len(cases.CG) - (label == "diff page")] + ["-o", page] +
                args[-len(cases.CG) - (label == "diff page"):])
            p = b.open("file://" + page)
            check(p.eval("document.documentElement.dataset.pcReady") == "ok" and
                  p.eval("document.getElementById('filters').textContent") == want and
                  p.console == [], "html %s: the filters line in a browser" % label)
else:
    print("skip html pages in a browser: chromium not installed")

# ---- refusals ----------------------------------------------------------------
_, err = run(["-e", "gmon", "--focus", "x"] + cases.CG, rc=2)
check(err.startswith("profcat: the gmon export does not take the focus option yet"),
      "gmon export refuses focus: " + err.strip())
_, err = run(["-r", "check", "--hide", "x"] + cases.CG, rc=2)
check(err == "profcat: the check report judges the whole capture and takes no hide "
      "(the other reports and the exports do)\n", "check report refuses hide")

print("%d failures" % len(failures) if failures else "filters: all passed")
sys.exit(1 if failures else 0)
