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
if not gprof:
    print("gprof not installed: compared with the committed outputs only")
sys.exit(1 if failures else 0)
