#!/usr/bin/env python3
"""profcat -r callgraph against live gprof -b -q on real gcc/g++ -pg
programs (issue #19 item 3).

Builds programs/cycles.c (several cycles, zero-time ones among them),
programs/shapes.cc (virtual calls, templates) and random programs of
programs/randprog.py with gcc/g++ -pg, runs each, and compares profcat's
call graph with gprof's on the same executable and gmon.out, byte for
byte, with and without -z/--zero.  C++ names: until profcat demangles,
gprof is run with --no-demangle (the reference is chosen by whether
profcat's output still holds mangled _Z names).  Skipped (77) without
gcc, g++ or gprof.
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile

PROFCAT = os.environ["PROFCAT"]
HERE = os.path.dirname(os.path.abspath(__file__))
PROG = os.path.join(HERE, "programs")
sys.path.insert(0, PROG)
import randprog  # noqa: E402

gcc, gxx, gprof = shutil.which("gcc"), shutil.which("g++"), shutil.which("gprof")
if not (gcc and gxx and gprof):
    print("gcc, g++ or gprof not installed")
    sys.exit(77)

failures = 0


def run(cmd, cwd=None):
    r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       cwd=cwd)
    return r.returncode, r.stdout.decode(), r.stderr.decode()


def compare(label, exe, cwd):
    global failures
    gmon = os.path.join(cwd, "gmon.out")
    for z in ([], ["-z"]):
        got = run([PROFCAT, "-r", "callgraph"] + (["--zero"] if z else [])
                  + [exe, gmon])
        mangled = re.search(r"\b_Z\w+", got[1]) is not None
        want = run([gprof, "-b", "-q"] + z + (["--no-demangle"] if mangled
                                              else []) + [exe, gmon])
        tag = "%s%s" % (label, " -z" if z else "")
        if want[0] != 0:
            # gprof refuses a gmon.out without arcs; nothing to compare
            print("skip %s: gprof: %s" % (tag, want[2].strip()))
            continue
        if got[0] == 0 and got[1] == want[1]:
            print("ok   %s" % tag)
            continue
        failures += 1
        print("FAIL %s" % tag)
        import difflib
        print(got[2])
        sys.stdout.writelines(list(difflib.unified_diff(
            want[1].splitlines(True), got[1].splitlines(True), "gprof",
            "profcat"))[:60])


def build_run(cc, src, flags, args, cwd, name):
    exe = os.path.join(cwd, name)
    rc, _, err = run([cc, "-pg"] + flags + ["-o", exe, src])
    if rc:
        raise SystemExit("%s failed: %s" % (cc, err))
    for f in ("gmon.out",):
        if os.path.exists(os.path.join(cwd, f)):
            os.remove(os.path.join(cwd, f))
    rc, _, err = run([exe] + args, cwd=cwd)
    if rc:
        raise SystemExit("%s failed (%d): %s" % (exe, rc, err))
    return exe


with tempfile.TemporaryDirectory() as tmp:
    cases = [
        (gcc, os.path.join(PROG, "cycles.c"), ["-O0"], ["300"], "cycles -O0"),
        (gcc, os.path.join(PROG, "cycles.c"), ["-O1", "-fno-inline",
                                               "-no-pie"], ["300"],
         "cycles -O1 no-pie"),
        (gxx, os.path.join(PROG, "shapes.cc"), ["-O0"], ["3000"], "shapes -O0"),
        (gxx, os.path.join(PROG, "shapes.cc"), ["-O1", "-fno-inline"],
         ["3000"], "shapes -O1"),
    ]
    for seed in (1, 7, 12, 33, 45, 58, 71, 90):
        src = os.path.join(tmp, "rand%d.c" % seed)
        with open(src, "w") as f:
            f.write(randprog.gen(seed))
        cases.append((gcc, src, ["-O0"] if seed % 2 else ["-O1", "-fno-inline"],
                      ["200"], "random program %d" % seed))
    for cc, src, flags, args, label in cases:
        exe = build_run(cc, src, flags, args, tmp, "prog")
        compare(label, exe, tmp)
sys.exit(1 if failures else 0)
