#!/usr/bin/env python3
"""Capstone and libdw opened at their first use, not linked (meson.build
lazy_libs; formats/disasm.c, libprofcore/dwarf.c).

1. readelf -d: libprofcore.so and profcat have no NEEDED entry for
   libcapstone or libdw.
2. With a library of the configured SONAME on LD_LIBRARY_PATH that is not
   the real one (a copy of zlib), --version and a flat report still work
   (the library is not opened), and the report that needs it (-r disasm;
   --granularity line) stops with exit 1 and the exact one-line message.
Each library that this build links or lacks (its PC_*_SONAME empty:
Windows, prefer_static, -Dcapstone/-Ddwarf=disabled, no target package on
a cross leg) is left out; skipped (77) when that is both, or readelf is
missing.
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile

PROFCAT = os.environ["PROFCAT"]
ROOT = os.environ["PC_SOURCE_ROOT"]
LIB = sys.argv[1]
FIX = os.path.join("tests", "source", "fixtures")
INPUTS = [os.path.join(FIX, "lines-O2"), os.path.join(FIX, "gmon.out")]
failures = 0


def libs():
    """(soname, the report that opens it, the exact error) of each library
    this build opens at first use"""
    out = []
    so, pkg = os.environ.get("PC_CAPSTONE_SONAME", ""), os.environ.get("PC_CAPSTONE_PACKAGE", "")
    if so:
        out.append((so, ["-r", "disasm", "integrate"],
                    "profcat: disasm: cannot load Capstone (%s: no function cs_open); "
                    "install %s (Debian: %s)\n" % (so, so, pkg)))
    so, pkg = os.environ.get("PC_DWARF_SONAME", ""), os.environ.get("PC_DWARF_PACKAGE", "")
    if so:
        out.append((so, ["--granularity", "line"],
                    "profcat: %s: cannot load libdw (%s: no function dwarf_attr): no DWARF; "
                    "install %s (Debian: %s)\n" % (INPUTS[0], so, so, pkg)))
    return out


def check(label, got, want):
    global failures
    if got != want:
        failures += 1
        print("FAIL %s:\n  got  %r\n  want %r" % (label, got, want))
    else:
        print("ok %s" % label)


def needed(path):
    out = subprocess.run(["readelf", "-d", path], stdout=subprocess.PIPE,
                         text=True, check=True).stdout
    return re.findall(r"\(NEEDED\)\s+Shared library: \[([^\]]+)\]", out)


def zlib_path():
    """The file of the zlib this process has loaded (ctypes)."""
    import ctypes
    ctypes.CDLL("libz.so.1")
    with open("/proc/self/maps") as f:
        for line in f:
            p = line.split()[-1]
            if os.path.basename(p).startswith("libz.so"):
                return p
    return None


def main():
    lazy = libs()
    if not lazy:
        print("SKIP: Capstone and libdw are linked or absent in this build (lazy_libs not in effect)")
        sys.exit(77)
    if not shutil.which("readelf"):
        print("SKIP: readelf not installed")
        sys.exit(77)
    for path in (LIB, PROFCAT):
        got = needed(path)
        for so, _, _ in lazy:
            stem = so.split(".so")[0]
            check("%s: NEEDED %s has no %s" % (os.path.basename(path), " ".join(got), stem),
                  [n for n in got if n.split(".so")[0] == stem], [])
    z = zlib_path()
    if not z:
        print("SKIP: zlib's file not found in /proc/self/maps")
        sys.exit(77)
    for so, args, message in lazy:
        with tempfile.TemporaryDirectory() as tmp:
            shutil.copyfile(z, os.path.join(tmp, so))
            env = dict(os.environ)
            env["LD_LIBRARY_PATH"] = tmp + (":" + env["LD_LIBRARY_PATH"]
                                            if env.get("LD_LIBRARY_PATH") else "")

            def run(*a):
                r = subprocess.run([PROFCAT] + list(a), stdout=subprocess.PIPE,
                                   stderr=subprocess.PIPE, text=True, cwd=ROOT, env=env)
                return r.returncode, r.stderr

            check("--version with a false %s on the path" % so, run("--version"), (0, ""))
            check("flat report with a false %s on the path" % so, run(*INPUTS), (0, ""))
            check("%s with a false %s on the path" % (" ".join(args), so),
                  run(*(args + INPUTS)), (1, message))
    sys.exit(1 if failures else 0)


main()
