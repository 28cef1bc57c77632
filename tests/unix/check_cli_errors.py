#!/usr/bin/env python3
"""profcat on Unix histogram files it cannot read unambiguously or
completely: exit status 1 and exactly one line `profcat: FILE:OFFSET: what`.
"""
import os
import struct
import subprocess
import sys
import tempfile

PROFCAT = os.environ["PROFCAT"]
FIX = os.path.join(os.environ["PC_SOURCE_ROOT"], "tests", "unix", "fixtures")
failures = 0


def check(label, args, want_rc, want_err):
    global failures
    r = subprocess.run([PROFCAT] + args, stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, text=True)
    if r.returncode != want_rc or r.stderr != want_err:
        failures += 1
        print("FAIL %s: rc %d, stderr %r\n     want rc %d, stderr %r"
              % (label, r.returncode, r.stderr, want_rc, want_err))
    else:
        print("ok   %s" % label)


with tempfile.TemporaryDirectory() as tmp:
    # 20 bytes that read as old BSD with 4- and with 8-byte addresses
    amb = os.path.join(tmp, "gmon.out")
    with open(amb, "wb") as f:
        f.write(struct.pack("<III4H", 0x100, 0x200, 20, 0x1000, 0, 20, 0))
    check("width undecidable", [amb], 1,
          "profcat: %s:0: BSD gmon.out records neither address width nor "
          "byte order and several readings fit (old BSD 32-bit little-endian, "
          "old BSD 64-bit little-endian): give the executable, or the options "
          "width=4|8 and endian=little|big (-O KEY=VALUE)\n" % amb)
    check("width given", ["-O", "width=4", "-F", "csv", amb], 0, "")

    # a 4.4BSD file cut inside its histogram, with its executable
    exe = os.path.join(FIX, "x86_64-nopie", "callgraph")
    with open(os.path.join(FIX, "x86_64-nopie", "layouts", "bsd44.gmon"), "rb") as f:
        data = f.read()
    cut = os.path.join(tmp, "cut.gmon")
    with open(cut, "wb") as f:
        f.write(data[:100])
    ncnt = struct.unpack_from("<I", data, 16)[0]
    check("truncated 4.4BSD", [exe, cut], 1,
          "profcat: %s:16: header and histogram claim %d bytes but the file "
          "has 100\n" % (cut, ncnt))

    # a mon.out that reads as 16- and 32-bit
    mon = os.path.join(tmp, "mon.out")
    with open(mon, "wb") as f:
        f.write(struct.pack(">III4H", 0x10, 0x20, 0, 1, 2, 3, 4))
    check("mon.out layout undecidable", [mon], 1,
          "profcat: %s:0: mon.out layout is ambiguous: it reads as 16-bit "
          "pdp-endian (PDP-11), 6-byte slots; 16-bit big-endian (PDP-11), "
          "6-byte slots; 32-bit little-endian, 8-byte slots; 32-bit "
          "big-endian, 8-byte slots; choose with the options "
          "width=2|4, endian=little|big or slot=6|8|12 (-O KEY=VALUE)\n" % mon)
    check("mon.out layout given",
          ["-O", "width=4", "-O", "endian=big", "-F", "csv", mon], 0, "")

sys.exit(1 if failures else 0)
