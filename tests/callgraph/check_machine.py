#!/usr/bin/env python3
"""The call graph's CSV and JSON outputs, both styles, byte for byte
(expected/machine-NAME.csv/.json).  They were printed with printf until
the sink's number writers took over (as in the text styles): these
goldens were written by the printf version and hold the writers to the
same bytes (cycles, a cycle's null name, 64-bit counts, segment numbers
up to 4294967295 for "no segment").

Usage: check_machine.py [--elf] [--update]: the cases on the gcc -pg
fixture run only with --elf (meson passes it when built with libelf);
--update rewrites the goldens from $PROFCAT.  Exit 0 pass, 1 fail.
"""
import difflib
import os
import subprocess
import sys

PROFCAT = os.environ["PROFCAT"]
ROOT = os.environ.get("PC_SOURCE_ROOT") or os.path.join(
    os.path.dirname(os.path.abspath(__file__)), "..", "..")
HERE = os.path.join(ROOT, "tests", "callgraph")
GCC = os.path.join(ROOT, "tests", "unix", "fixtures", "x86_64-nopie")
FIX = os.path.join(HERE, "fixtures")

# name, needs ELF, profcat arguments (the files last)
CASES = [
    ("gcc-gprof", True, ["--style", "gprof", os.path.join(GCC, "callgraph"),
                         os.path.join(GCC, "gmon.out")]),
    ("gcc-proff", True, ["--style", "proff", os.path.join(GCC, "callgraph"),
                         os.path.join(GCC, "gmon.out")]),
    ("seed-gprof", False, ["--style", "gprof", os.path.join(FIX, "seed.SYM"),
                           os.path.join(FIX, "seed.proff")]),
    ("seed-proff", False, ["--style", "proff", os.path.join(FIX, "seed.SYM"),
                           os.path.join(FIX, "seed.proff")]),
    ("example-proff", False, ["--style", "proff", os.path.join(FIX, "example.SYM"),
                              os.path.join(FIX, "example.proff")]),
]

failures = 0
for name, elf, args in CASES:
    if elf and "--elf" not in sys.argv:
        print("skip %s: built without libelf" % name)
        continue
    for fmt in ("csv", "json"):
        r = subprocess.run([PROFCAT, "-r", "callgraph", "-F", fmt] + args,
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           timeout=600)
        path = os.path.join(HERE, "expected", "machine-%s.%s" % (name, fmt))
        if "--update" in sys.argv and r.returncode == 0:
            with open(path, "wb") as f:
                f.write(r.stdout)
        with open(path, "rb") as f:
            want = f.read()
        if r.returncode == 0 and r.stdout == want:
            print("ok   %s -F %s = expected/%s" % (name, fmt, os.path.basename(path)))
            continue
        failures += 1
        diff = "".join(difflib.unified_diff(
            want.decode("utf-8", "replace").splitlines(True),
            r.stdout.decode("utf-8", "replace").splitlines(True),
            os.path.basename(path), "profcat"))
        print("FAIL %s -F %s (exit %d)\n%s%s" % (
            name, fmt, r.returncode, r.stderr.decode("utf-8", "replace"),
            diff[:4000]))
sys.exit(1 if failures else 0)
