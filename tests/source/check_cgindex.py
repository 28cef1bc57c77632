#!/usr/bin/env python3
"""-r callgraph equals gprof -b -q byte for byte, including the index's
" (file.c)" after static functions (gprof cg_print_index), on programs
built now with gcc -pg -g (-O0, -O2) from programs/cgindex_*.c: two files
with a static function of the same name, and without -g (no file names).
Exit 77 when gcc or gprof is missing."""
import os
import shutil
import subprocess
import sys
import tempfile

import sourcelib as L


def main():
    for tool in ("gcc", "gprof"):
        if not shutil.which(tool):
            print("SKIP: %s is not installed" % tool)
            sys.exit(77)
    srcs = [os.path.join(L.PROGRAMS, f) for f in ("cgindex_a.c", "cgindex_b.c")]
    with tempfile.TemporaryDirectory() as tmp:
        for name, flags in (("-g -O0", ["-g", "-O0"]), ("-g -O2", ["-g", "-O2"]),
                            ("no -g", ["-O0"])):
            exe = os.path.join(tmp, "cg")
            L.run(["gcc", "-pg"] + flags + ["-o", exe] + srcs)
            L.run([exe, "300"], cwd=tmp)
            want = L.run(["gprof", "-b", "-q", exe, "gmon.out"], cwd=tmp)
            got = L.run([L.PROFCAT, "-r", "callgraph", exe, "gmon.out"], cwd=tmp)
            statics = want.count(" (cgindex_a.c)") + want.count(" (cgindex_b.c)")
            if got != want:
                L.fail(name, "differs from gprof -b -q:\n--- profcat\n%s--- gprof\n%s"
                       % (got, want))
            elif "-g" in flags and statics < 3:
                L.fail(name, "gprof's index names only %d static functions' files:"
                       " the program does not test the index\n%s" % (statics, want))
            else:
                print("ok %s: equal to gprof -b -q (%d file names in the index)"
                      % (name, statics))
    sys.exit(1 if L.failures else 0)


if __name__ == "__main__":
    main()
