#!/usr/bin/env python3
"""profcat --granularity line against GNU gprof -b -p -l, live.

programs/lines_*.c are built now with gcc -pg -g (-O0; -O2, which inlines
mix, fill and scan; -O2 without PIE; -m32 -O2 where gcc-multilib is
installed), run, and read by gprof -b -p -l and by profcat from the same
gmon.out: every row gprof lists ("FUNCTION (FILE:LINE @ ADDR)"), its self
seconds as gprof prints them, its calls and the order must be the same.
Then -r source and --granularity file must agree with the line rows, and
-r locations (each distinct address's inline chain) with addr2line -f -i.
Exit 77 when gcc, gprof or addr2line is missing.
"""
import os
import shutil
import subprocess
import sys
import tempfile

import sourcelib as L

VARIANTS = [
    ("O0", ["-O0"], "2"),
    ("O2", ["-O2"], "8"),
    ("O2-nopie", ["-O2", "-fno-pie", "-no-pie"], "8"),
    ("O2-m32", ["-m32", "-O2"], "8"),
]


def main():
    for tool in ("gcc", "gprof", "addr2line", "objdump"):
        if not shutil.which(tool):
            print("SKIP: %s is not installed" % tool)
            sys.exit(77)
    srcs = [os.path.join(L.PROGRAMS, f) for f in ("lines_main.c", "lines_util.c")]
    checked = 0
    with tempfile.TemporaryDirectory() as tmp:
        for name, flags, scale in VARIANTS:
            d = os.path.join(tmp, name)
            os.mkdir(d)
            exe = os.path.join(d, "lines")
            r = subprocess.run(["gcc", "-pg", "-g"] + flags + ["-o", exe] + srcs,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               text=True)
            if r.returncode != 0:
                if "-m32" in flags:
                    print("skip %s: gcc -m32 cannot build (no gcc-multilib)" % name)
                    continue
                raise SystemExit("gcc failed: " + r.stderr)
            try:
                L.run([exe, scale], cwd=d)
            except OSError as e:
                print("skip %s: cannot run the program (%s)" % (name, e))
                continue
            g = L.run(["gprof", "-b", "-p", "-l", exe, "gmon.out"], cwd=d)
            args = [exe, os.path.join(d, "gmon.out")]
            dec = L.decoded_lines(exe)
            rows = L.compare_gprof("%s --granularity line" % name,
                                   ["--granularity", "line"] + args, g,
                                   decoded=dec)
            L.check_source_sums(name, rows, args)
            L.check_function_pages(name, args)
            L.check_locations("%s -r locations" % name, exe, args, decoded=dec)
            checked += 1
    if not checked:
        raise SystemExit("no variant could be built")
    print("%d passed, %d failed" % (checked, L.failures) if not L.failures else
          "%d failures" % L.failures)
    sys.exit(1 if L.failures else 0)


main()
