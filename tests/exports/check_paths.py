#!/usr/bin/env python3
"""One honest call-path model in every export (issue #23 item 1).

Builds live with gcc/g++ -pg and runs: programs/pingpong.c (the ping <->
pong cycle of the issue, a self-recursive fact, beta; all time in leaf),
../callgraph/programs/cycles.c (cycles with and without time, a cycle
calling cycles, self recursion) and ../callgraph/programs/shapes.cc
(C++), and takes the committed x86_64 gcc -pg fixture; then for each:

  * gprof -b -q's inclusive time (self + children) of every entry,
    cycles as "<cycle N>", and its <spontaneous> roots;
  * speedscope export: every frame's inclusive time (sum of the weights
    of the stacks holding it) equals gprof's within its printing (0.005 s),
    and no stack starts at a frame gprof does not list as spontaneous;
  * go tool pprof -top -cum -unit=s: every cum equals gprof's (both print
    two decimals of the same figure: within 0.01 s);
  * callgrind_annotate --inclusive=yes: inclusive >= self for every
    function, and equal to gprof's within whole-sample rounding
    (1.5 samples: the chain values are rounded to whole samples per
    leaf, an arc's cost is the sum of its chains);
  * the estimate is stated (pprof comment, speedscope name, callgrind
    comment) and --stacks none gives one-frame stacks;
  * the speedscope checkers (schema, headless import) when set up.
Skipped (77) without gcc or gprof; a consumer not installed is skipped.
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
HERE = os.path.join(ROOT, "tests", "exports")
CG = os.path.join(ROOT, "tests", "callgraph", "programs")
CHECKERS = os.environ.get("PC_FORMAT_CHECKERS") or os.path.join(
    os.environ.get("XDG_CACHE_HOME") or os.path.join(
        os.path.expanduser("~"), ".cache"), "profcore", "format-checkers")

gcc, gxx, gprof = shutil.which("gcc"), shutil.which("g++"), shutil.which("gprof")
if not (gcc and gprof):
    print("gcc or gprof not installed")
    sys.exit(77)

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


ENTRY = re.compile(r"^\[\d+\]\s+[\d.]+\s+([\d.]+)\s+([\d.]+)\s+(?:[\d+]+\s+)?"
                   r"(.+?) \[\d+\]$")


def gprof_graph(exe, gmon):
    """{name: inclusive seconds}, set of spontaneous names."""
    incl, spont, prev = {}, set(), ""
    for line in run([gprof, "-b", "-q", exe, gmon]).splitlines():
        m = ENTRY.match(line)
        if m:
            name = m.group(3)
            c = re.match(r"^<cycle (\d+) as a whole>$", name)
            if c:
                name = "<cycle %s>" % c.group(1)
            name = re.sub(r" <cycle \d+>$", "", name)
            incl[name] = float(m.group(1)) + float(m.group(2))
            if prev.strip() == "<spontaneous>":
                spont.add(name)
        if line.strip():
            prev = line
    return incl, spont


def close(label, got, want, tol):
    bad = []
    for k, v in want.items():
        g = got.get(k, 0.0)
        if abs(g - v) > tol:
            bad.append("%s: %.4f, gprof %.2f" % (k, g, v))
    check(not bad, "%s (%d functions)%s" % (label, len(want),
                                              ": " + "; ".join(bad[:6]) if bad else ""))


def case(label, exe, gmon, tmp):
    want, spont = gprof_graph(exe, gmon)
    # gprof lists zero-time entries too; a function without time is in
    # no stack: its inclusive is 0 in the exports as well
    ss = os.path.join(tmp, label + ".speedscope.json")
    run([PROFCAT, "-e", "speedscope", "-o", ss, exe, gmon])
    with open(ss) as f:
        doc = json.load(f)
    prof, frames = doc["profiles"][0], doc["shared"]["frames"]
    check(prof["unit"] == "seconds", label + " speedscope unit seconds")
    incl, roots = {}, set()
    for st, w in zip(prof["samples"], prof["weights"]):
        roots.add(frames[st[0]]["name"])
        for i in set(st):
            n = frames[i]["name"]
            incl[n] = incl.get(n, 0.0) + w
    # gprof prints self and children rounded to 0.01 s each: their sum is
    # within 0.01 s of the exact inclusive time (0.005 was a flake when
    # both roundings went the same way: 0.7229 against 0.73)
    close(label + " speedscope inclusive = gprof -q self+children", incl, want,
          0.0101)
    extra = sorted(r for r in roots if r not in spont)
    check(not extra, "%s every stack starts at a gprof <spontaneous> root%s"
          % (label, ": " + ", ".join(extra) if extra else ""))
    multi = any(len(s) > 1 for s in prof["samples"])
    check(not multi or "estimated" in prof["name"],
          label + " speedscope profile name states the estimate")
    node = shutil.which("node")
    if node and os.path.isdir(os.path.join(CHECKERS, "node_modules", "ajv")):
        out = run([node, os.path.join(CHECKERS, "check_speedscope.mjs"), ss])
        check(out.startswith("OK"), label + " speedscope schema: " + out.strip())
    else:
        print("skip %s speedscope schema (tests/exports/setup-checkers.sh)" % label)

    pb = os.path.join(tmp, label + ".pb.gz")
    run([PROFCAT, "-e", "pprof", "-o", pb, exe, gmon])
    if shutil.which("go"):
        env = dict(os.environ, HOME=tmp)
        out = run(["go", "tool", "pprof", "-top", "-cum", "-nodecount=100000",
                   "-nodefraction=0", "-edgefraction=0", "-unit=s", pb], env=env)
        cum = {}
        for line in out.splitlines():
            m = re.match(r"^\s*\S+\s+\S+%\s+\S+%\s+(\S+)\s+\S+%\s+(.+)$", line)
            if m:
                v = m.group(1)
                cum[m.group(2)] = 0.0 if v == "0" else float(v.rstrip("s"))
        # pprof drops argument lists from C++ names
        w2 = {}
        for k, v in want.items():
            k2 = re.sub(r"\(.*$", "", k) if not k.startswith("<") else k
            w2[k2] = v
        if len(w2) == len(want):
            close(label + " go tool pprof -top -cum = gprof -q", cum, w2, 0.0101)
        raw = run(["go", "tool", "pprof", "-raw", pb], env=env)
        check(not multi or "Comment: stacks: call stacks estimated" in raw,
              label + " pprof comment states the estimate")
    else:
        print("skip %s go tool pprof (golang-go not installed)" % label)

    cgf = os.path.join(tmp, label + ".callgrind")
    run([PROFCAT, "-e", "callgrind", "-o", cgf, exe, gmon])
    with open(cgf) as f:
        text = f.read()
    check(not multi or "\n# stacks: call stacks estimated" in text,
          label + " callgrind comment states the estimate")
    rate = float(re.search(r"# rate: (\S+) Hz", text).group(1))
    if shutil.which("callgrind_annotate"):
        def annotate(inc):
            out = run(["callgrind_annotate", "--inclusive=" + inc,
                       "--threshold=100", cgf], cwd=tmp)
            got = {}
            for line in out.splitlines():
                m = re.match(r"^\s*([\d,]+) (?:\([^)]*\))?\s+\S*?:(.+?) \[", line)
                if m:
                    got[m.group(2)] = int(m.group(1).replace(",", ""))
            return got
        inc, slf = annotate("yes"), annotate("no")
        low = [n for n in slf if inc.get(n, 0) < slf[n]]
        check(not low, label + " callgrind inclusive >= self" +
              (": " + ", ".join(low) if low else ""))
        close(label + " callgrind_annotate --inclusive=yes = gprof -q",
              {k: v / rate for k, v in inc.items()}, want, 1.5 / rate + 0.0051)
    else:
        print("skip %s callgrind_annotate (valgrind not installed)" % label)

    fo = run([PROFCAT, "-e", "folded", "--stacks", "none", exe, gmon])
    check(all(";" not in l for l in fo.splitlines()),
          label + " --stacks none: one-frame stacks")


def build(cc, src, flags, args, tmp, name):
    d = os.path.join(tmp, name)
    os.mkdir(d)
    exe = os.path.join(d, name)
    run([cc, "-pg"] + flags + ["-o", exe, src])
    run([exe] + args, cwd=d)
    return exe, os.path.join(d, "gmon.out")


with tempfile.TemporaryDirectory() as tmp:
    case("pingpong", *build(gcc, os.path.join(HERE, "programs", "pingpong.c"),
                            ["-O1", "-fno-inline"], [], tmp, "pingpong"), tmp)
    case("cycles", *build(gcc, os.path.join(CG, "cycles.c"), ["-O1"], ["200"],
                          tmp, "cycles"), tmp)
    if gxx:
        case("shapes", *build(gxx, os.path.join(CG, "shapes.cc"), ["-O1"], [],
                              tmp, "shapes"), tmp)
    fx = os.path.join(ROOT, "tests", "unix", "fixtures", "x86_64-nopie")
    case("fixture-x86_64", os.path.join(fx, "callgraph"),
         os.path.join(fx, "gmon.out"), tmp)

print("%d failed" % len(failures))
sys.exit(1 if failures else 0)
