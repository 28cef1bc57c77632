#!/usr/bin/env python3
"""Capstone opened at the first -r disasm, not linked (meson.build
capstone_dlopen; formats/disasm.c).

1. readelf -d: libprofcore.so and profcat have no NEEDED entry for
   libcapstone (nor, through libprofcore, any other way to load it at
   start).
2. With a library of the configured SONAME on LD_LIBRARY_PATH that is not
   Capstone (a copy of zlib), a flat report and --version still work (the
   library is not opened) and -r disasm stops with exit 1 and the exact
   one-line message.
Skipped (77) where Capstone is linked or absent (PC_CAPSTONE_SONAME empty:
Windows, prefer_static, -Dcapstone=disabled) or readelf is missing.
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile

PROFCAT = os.environ["PROFCAT"]
ROOT = os.environ["PC_SOURCE_ROOT"]
SONAME = os.environ.get("PC_CAPSTONE_SONAME", "")
PACKAGE = os.environ.get("PC_CAPSTONE_PACKAGE", "")
LIB = sys.argv[1]
failures = 0


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
    if not SONAME:
        print("SKIP: Capstone is linked or absent in this build (capstone_dlopen not in effect)")
        sys.exit(77)
    if not shutil.which("readelf"):
        print("SKIP: readelf not installed")
        sys.exit(77)
    for path in (LIB, PROFCAT):
        got = needed(path)
        check("%s: NEEDED %s has no libcapstone" % (os.path.basename(path), " ".join(got)),
              [n for n in got if n.startswith("libcapstone")], [])
    z = zlib_path()
    if not z:
        print("SKIP: zlib's file not found in /proc/self/maps")
        sys.exit(77)
    fix = os.path.join("tests", "source", "fixtures")
    inputs = [os.path.join(fix, "lines-O2"), os.path.join(fix, "gmon.out")]
    with tempfile.TemporaryDirectory() as tmp:
        shutil.copyfile(z, os.path.join(tmp, SONAME))
        env = dict(os.environ)
        env["LD_LIBRARY_PATH"] = tmp + (":" + env["LD_LIBRARY_PATH"] if env.get("LD_LIBRARY_PATH") else "")

        def run(*args):
            r = subprocess.run([PROFCAT] + list(args), stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True, cwd=ROOT, env=env)
            return r.returncode, r.stderr

        check("--version with a false %s on the path" % SONAME, run("--version"), (0, ""))
        check("flat report with a false %s on the path" % SONAME, run(*inputs), (0, ""))
        check("-r disasm with a false %s on the path" % SONAME,
              run("-r", "disasm", "integrate", *inputs),
              (1, "profcat: disasm: cannot load Capstone (%s: no function cs_open); "
                  "install %s (Debian: %s)\n" % (SONAME, SONAME, PACKAGE)))
    sys.exit(1 if failures else 0)


main()
