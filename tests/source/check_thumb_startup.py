#!/usr/bin/env python3
"""Thumb code at the source level (issue #33 item 3): fixtures/
thumb-startup.elf, a Cortex-M firmware whose startup code is assembly
(gen_thumb_startup.sh, programs/thumb_startup.s), read with a raw dump of
every instruction address.

GNU as 2.40 writes Reset_Handler's DW_TAG_subprogram with DW_AT_low_pc
0x800001f (the Thumb bit); Default_Handler and SysTick_Handler have no
subprogram, their lines are named after the symbol table, whose values
are odd too.  The flat report's Thumb rule (a function starts at its even
address) must hold at the source level as well:

  * --granularity line: rows at even addresses only, none split at the
    size-0 local labels inside Reset_Handler (CopyDataInit...: gprof -l's
    line symbols take the enclosing function), exactly
    thumb-startup-line.txt;
  * -r locations: each instruction's function, file and line as
    arm-none-eabi-addr2line -f names them (0x800001e, Reset_Handler's
    first instruction, is not SysTick_Handler, nor 0x8000010 "$t"),
    exactly thumb-startup-locations.csv;
  * docs/attribution.md: arm-none-eabi-gprof -b -p, given the same
    samples as a gmon.out, lists no row for main, the last symbol of its
    table, while profcat does.
"""
import csv
import io
import os
import re
import shutil
import sys
import tempfile

import sourcelib as L

FIX = os.path.join(L.HERE, "fixtures")
ELF, PCS = "thumb-startup.elf", "thumb-startup.pcs"
LABELS = ("CopyDataInit", "LoopCopyDataInit", "FillZerobss", "LoopFillZerobss")


def read(name):
    with open(os.path.join(FIX, name)) as f:
        return f.read()


def same_text(label, args, expected):
    got = L.run([L.PROFCAT] + args, cwd=FIX)
    want = read(expected)
    if got != want:
        L.fail(label, "output differs from %s:\n--- got\n%s--- want\n%s"
               % (expected, got, want))
    else:
        print("ok   %s = %s" % (label, expected))
    return got


lines = same_text("thumb --granularity line", ["--granularity", "line", ELF, "-f", "raw", PCS],
                  "thumb-startup-line.txt")
rows = re.findall(r"  (\S+) \((\S+):(\d+) @ ([0-9a-f]+)\)", lines)
odd = [r for r in rows if int(r[3], 16) & 1]
labelled = [r for r in rows if r[0] in LABELS]
if not rows or odd or labelled:
    L.fail("thumb line rows", "odd addresses %r, rows named after local labels %r"
           % (odd, labelled))
else:
    print("ok   thumb line rows: %d, all at even addresses, none split at a local label"
          % len(rows))
locs = same_text("thumb -r locations", ["-r", "locations", "-F", "csv", ELF, "-f", "raw", PCS],
                 "thumb-startup-locations.csv")

if shutil.which("arm-none-eabi-addr2line"):
    recs = list(csv.DictReader(io.StringIO(locs)))
    out = L.run(["arm-none-eabi-addr2line", "-f", "-e", os.path.join(FIX, ELF)]
                + [r["address"] for r in recs]).splitlines()
    bad = []
    for r, fn, loc in zip(recs, out[0::2], out[1::2]):
        want = "%s at %s" % (fn, re.sub(r" \(discriminator \d+\)$", "", loc))
        got = re.sub(r":\d+$", "", r["frames"])
        if got != want:
            bad.append((r["address"], got, want))
    if bad or len(out) != 2 * len(recs):
        L.fail("thumb -r locations vs addr2line", "profcat, addr2line: %r" % bad[:5])
    else:
        print("ok   thumb -r locations: %d addresses named as arm-none-eabi-addr2line -f"
              % len(recs))
else:
    print("skip thumb -r locations vs addr2line: arm-none-eabi-addr2line not installed")

if shutil.which("arm-none-eabi-gprof"):
    with tempfile.TemporaryDirectory() as tmp:
        gmon = os.path.join(tmp, "fw.gmon")
        L.run([L.PROFCAT, "-e", "gmon", "-o", gmon, ELF, "-f", "raw", PCS], cwd=FIX)
        g = L.run(["arm-none-eabi-gprof", "-b", "-p", os.path.join(FIX, ELF), gmon])
        flat = L.run([L.PROFCAT, "-F", "csv", ELF, "-f", "raw", PCS], cwd=FIX)
        main = [r for r in csv.DictReader(io.StringIO(flat)) if r["symbol"] == "main"]
        if " main\n" in g or not main or float(main[0]["count"]) != 51:
            L.fail("thumb last symbol", "gprof:\n%sprofcat main: %r" % (g, main))
        else:
            print("ok   thumb: arm-none-eabi-gprof drops main (the last symbol, 51 samples); profcat lists it")
else:
    print("skip thumb last symbol: arm-none-eabi-gprof not installed")
sys.exit(1 if L.failures else 0)
