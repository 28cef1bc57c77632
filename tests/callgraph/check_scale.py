#!/usr/bin/env python3
"""Call graphs in linear time (issue #20): 10^5 functions.

gen_scale.py writes four call graphs of N functions (a chain; the chain
with one cycle of N-1 functions; one cycle closed by N/2 back edges deep
in the walk; N/4 - 1 separate small cycles, half of them zero-time).

1. With gprof installed (and ELF support), at N = 3000 profcat's gprof
   style equals `gprof -b -q` and `gprof -b -q -z` byte for byte on all
   four: the linear cycle finder numbers and orders as gprof's own.
2. At N = 100,000 both styles (gprof, proff) must finish within LIMIT
   seconds of CPU time each (a generous bound against a quadratic
   algorithm, which took 10 s and more, not a benchmark: the figures are
   in bench/README.md), and their cycle lines must be exact.
"""
import os
import resource
import shutil
import subprocess
import sys
import tempfile

PROFCAT = os.environ["PROFCAT"]
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import gen_scale  # noqa: E402

# the CPU bound; under qemu-user the cross legs' PC_CPU_FACTOR
# (tests/portability/crosshook) scales it
LIMIT = 10.0 * float(os.environ.get("PC_CPU_FACTOR", "1"))
SHAPES = ("chain", "cycle", "backedges", "cycles")
failures = 0


def check(label, ok, detail=""):
    global failures
    print("%s %s" % ("ok  " if ok else "FAIL", label))
    if not ok:
        failures += 1
        if detail:
            print(detail)


def run(cmd):
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return r.returncode, r.stdout.decode(), r.stderr.decode(), cpu


def diff(want, got):
    import difflib
    return "".join(list(difflib.unified_diff(
        want.splitlines(True), got.splitlines(True), "gprof", "profcat"))[:40])


def has_elf():
    r = subprocess.run([PROFCAT, "--list-formats"], stdout=subprocess.PIPE,
                       stderr=subprocess.DEVNULL)
    return b"elf" in r.stdout


with tempfile.TemporaryDirectory() as tmp:
    gprof = shutil.which("gprof")
    if gprof and has_elf():
        for shape in SHAPES:
            gen_scale.write(tmp, 3000, shape)
            elf = os.path.join(tmp, shape + ".elf")
            gmon = os.path.join(tmp, shape + ".gmon")
            for z in ([], ["-z"]):
                want = run([gprof, "-b", "-q"] + z + [elf, gmon])[1]
                got = run([PROFCAT, "-r", "callgraph", "--style", "gprof"]
                          + (["--zero"] if z else []) + [elf, gmon])
                check("%s, 3000 functions, equals gprof -b -q%s" %
                      (shape, " -z" if z else ""),
                      got[0] == 0 and got[1] == want, got[2] + diff(want, got[1]))
    else:
        print("gprof or ELF support missing: no comparison with gprof")

    n = 100000
    for shape in SHAPES:
        gen_scale.write(tmp, n, shape)
        # the nm listing: no libelf needed
        syms = os.path.join(tmp, shape + ".nm")
        gmon = os.path.join(tmp, shape + ".gmon")
        arcs = gen_scale.arcs_of(n, shape)
        for style in ("gprof", "proff"):
            rc, out, err, cpu = run([PROFCAT, "-r", "callgraph", "--style",
                                     style, syms, gmon])
            print("     %s, %d functions, --style %s: %.2f s CPU" %
                  (shape, n, style, cpu))
            check("%s --style %s: exit 0" % (shape, style), rc == 0, err)
            check("%s --style %s: %.2f s CPU <= %.0f s" % (shape, style, cpu,
                                                         LIMIT), cpu <= LIMIT)
            lines = out.splitlines()
            if style == "gprof":
                whole = [l for l in lines if "as a whole>" in l]
                if shape == "chain":
                    check("chain: no cycle", not whole, "\n".join(whole[:3]))
                    check("chain: every function listed", sum(
                        1 for l in lines if l.startswith("[")) == n)
                elif shape in ("cycle", "backedges"):
                    inside = sum(k for p, c, k in arcs if p >= 1 and c >= 1)
                    into = sum(k for p, c, k in arcs if p == 0)
                    want = "[2]    100.0 %7.2f    0.00 %7d+%-7d <cycle 1 as " \
                        "a whole> [2]" % (sum(1 + i % 7 for i in range(1, n))
                                          / 100.0, into, inside)
                    check("%s: %r" % (shape, want), whole == [want],
                          "\n".join(whole[:3]))
                else:
                    nums = sorted(int(l.split("<cycle ")[1].split()[0])
                                  for l in whole)
                    check("cycles: %d cycles, numbered 1..%d" %
                          (n // 4 - 1, n // 4 - 1),
                          nums == list(range(1, n // 4)), str(nums[:5]))
            else:
                members = [l for l in lines if l.startswith("Cycle ")]
                want = {"chain": [], "cycle": [n - 1], "backedges": [n - 1],
                        "cycles": [4] * (n // 4 - 1)}[shape]
                got = [len(l.split(":", 1)[1].split()) for l in members]
                check("%s --style proff: cycle sizes" % shape, got == want,
                      str(got[:5]))
sys.exit(1 if failures else 0)
