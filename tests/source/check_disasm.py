#!/usr/bin/env python3
"""-r disasm (formats/disasm.c, Capstone) against the reference
disassemblers, and Thumb per-line counts against addr2line -i.

1. Instruction boundaries: for every function, the (address, size) of
   each instruction profcat lists (-r disasm F -F csv) equal objdump -d's:
   x86-64 with the host objdump (committed fixtures/lines-O2, and
   programs/lines_*.c built now with gcc -O2 -g); Thumb (Cortex-M3) and
   ARM with Thumb interworking ($a/$t/$d mapping symbols) with
   arm-none-eabi-objdump on programs/thumb_fw.c built now; m68k with
   m68k-linux-gnu-objdump -b binary -m m68k:68000 on the TEXT of the
   GEMDOS program tests/atari/fixtures/nf_vbcc.tos (vbcc + vlink);
   AArch64 (little-endian), MIPS32 (big-endian) and 32-bit PowerPC
   (big-endian) with their Debian cross binutils on programs/thumb_fw.c
   built now with the matching Debian cross gcc (-g -O2 -nostdlib
   -static).
2. Exact output: the text report of committed inputs equals the goldens
   fixtures/disasm-integrate.txt (a gmon histogram: 4-byte buckets over
   2..8-byte instructions, shown as ranges) and fixtures/disasm-m68k.txt
   (a raw PC dump, exact per instruction).
3. Thumb per line: a raw PC dump of the Cortex-M3 firmware (every address
   objdump lists, with varied counts) gives per-line counts (-r source
   -F csv) equal to those summed from arm-none-eabi-addr2line -i's
   innermost frame for the same PCs, and the inline chain of each
   address (-r locations) equals addr2line -f -i's frames.
Parts whose tools are missing are skipped with their reason; exit 77 when
none can run.
"""
import csv
import io
import os
import re
import shutil
import subprocess
import sys
import tempfile

import sourcelib as L

FIX = os.path.join(L.HERE, "fixtures")
ATARI = os.path.join(L.ROOT, "tests", "atari", "fixtures", "nf_vbcc.tos")
ran = 0


def have(*tools):
    return all(shutil.which(t) for t in tools)


def profcat(*args, ok=(0,)):
    return L.run([L.PROFCAT] + list(args), ok=ok, cwd=L.ROOT)


def objdump_insns(cmd):
    """[(address, size)] from objdump -d output: size from the bytes
    column (x86: one byte a field; ARM/m68k: 16/32-bit halfword or word
    fields, .word/.byte data)."""
    out = L.run(cmd)
    got = []
    for m in re.finditer(r"^ *([0-9a-f]+):\t([0-9a-f ]+?) *(\t.*)?$", out, re.M):
        n = len(m.group(2).replace(" ", "")) // 2
        if m.group(3) is None and got:
            # the rest of a long instruction's bytes, on a line of its own
            got[-1] = (got[-1][0], got[-1][1] + n)
        else:
            got.append((int(m.group(1), 16), n))
    return got


def profcat_insns(fn, files):
    out = profcat("-r", "disasm", fn, "-F", "csv", *files)
    return [(int(r["address"], 16), int(r["size"]))
            for r in csv.DictReader(io.StringIO(out))]


def functions(nm, exe):
    """{name: (address, size)} of the code symbols with a size (nm -S)."""
    f = {}
    for line in L.run([nm, "-S", exe]).splitlines():
        p = line.split()
        if len(p) == 4 and p[2] in "tT" and int(p[1], 16):
            f[p[3]] = (int(p[0], 16) & ~1, int(p[1], 16))
    return f


def check_elf(label, exe, nm, objdump, extra=(), profile=None):
    global ran
    before = L.failures
    funcs = functions(nm, exe)
    if not funcs:
        L.fail(label, "no functions in %s" % exe)
    dump = profile
    if dump is None:
        dump = exe + ".pcs"
        with open(dump, "w") as f:
            f.write("".join("0x%x\n" % a for a, _ in funcs.values()))
    for name, (a, size) in sorted(funcs.items()):
        want = objdump_insns([objdump, "-d", "-z", "--insn-width=16", *extra,
                              "--start-address=0x%x" % a,
                              "--stop-address=0x%x" % (a + size), exe])
        # profcat's extent of a function runs to the next symbol (the
        # attribution's); objdump stops at the symbol's size
        got = [x for x in profcat_insns(name, [exe, "-f", "raw", dump])
               if x[0] < a + size]
        if got != want:
            diff = [(hex(x[0]), x[1], y and (hex(y[0]), y[1]))
                    for x, y in zip(got + [None] * len(want), want + [None] * len(got))
                    if x != y][:4]
            L.fail(label, "%s: %d instructions, objdump %d; first differences %s"
                   % (name, len(got), len(want), diff))
    if L.failures == before:
        print("ok %s: %d functions, instruction boundaries equal objdump -d's"
              % (label, len(funcs)))
    ran += 1


CROSS = (("AArch64", "aarch64-linux-gnu"),
         ("MIPS32 big-endian", "mips-linux-gnu"),
         ("PowerPC 32-bit big-endian", "powerpc-linux-gnu"))


def check_cross(tmp):
    """The firmware program for each cross target, compiled by clang for
    that target and linked by the target's ld, whose nm and objdump are
    installed (Debian clang, binutils-T; Debian's gcc-T cross compilers
    conflict with gcc-multilib, which the 32-bit gmon tests need)."""
    src = os.path.join(L.PROGRAMS, "thumb_fw.c")
    for label, t in CROSS:
        if not have("clang", t + "-ld", t + "-nm", t + "-objdump"):
            print("skip %s: clang / %s binutils not installed (Debian clang, binutils-%s)"
                  % (label, t, t))
            continue
        exe = os.path.join(tmp, t + ".elf")
        L.run(["clang", "--target=" + t, "-g", "-O2", "-ffreestanding", "-nostdlib",
               "-static", "-fuse-ld=bfd", "-Wl,-e,Reset_Handler", "-o", exe, src])
        check_elf(label, exe, t + "-nm", t + "-objdump")


def check_m68k():
    global ran
    if not have("m68k-linux-gnu-objdump"):
        print("skip m68k: m68k-linux-gnu-objdump not installed (Debian binutils-m68k-linux-gnu)")
        return
    b = open(ATARI, "rb").read()
    tlen = int.from_bytes(b[2:6], "big")
    with tempfile.TemporaryDirectory() as tmp:
        text = os.path.join(tmp, "text.bin")
        with open(text, "wb") as f:
            f.write(b[0x1c:0x1c + tlen])
        out = profcat("--list-symbols", "-F", "csv", ATARI)
        syms = sorted((int(r["address"], 16), r["name"])
                      for r in csv.DictReader(io.StringIO(out)) if r["kind"] == "text")
        dump = os.path.join(tmp, "pcs.txt")
        with open(dump, "w") as f:
            f.write("".join("0x%x\n" % a for a, _ in syms))
        n, before = 0, L.failures
        for i, (a, name) in enumerate(syms):
            end = syms[i + 1][0] if i + 1 < len(syms) else tlen
            if end <= a:
                continue
            want = objdump_insns(["m68k-linux-gnu-objdump", "-D", "-z", "-b", "binary",
                                  "-m", "m68k:68000", "--start-address=0x%x" % a,
                                  "--stop-address=0x%x" % end, text])
            got = profcat_insns(name, [ATARI, "-f", "raw", dump])
            if got != want:
                diff = [(x and hex(x[0]), x and x[1], y and hex(y[0]), y and y[1])
                        for x, y in zip(got + [None] * len(want), want + [None] * len(got))
                        if x != y][:4]
                L.fail("m68k", "%s: first differences (profcat, objdump) %s" % (name, diff))
            n += 1
    if L.failures == before:
        print("ok m68k: %d functions of nf_vbcc.tos, instruction boundaries equal m68k objdump's" % n)
    ran += 1


def check_golden(name, args):
    global ran
    got = profcat(*args)
    path = os.path.join(FIX, name)
    want = open(path).read()
    if got != want:
        L.fail(name, "differs from the golden:\n" + got)
    else:
        print("ok %s" % name)
    ran += 1


def a2l_frames(exe, pcs):
    """{pc: [(function, file, line)]} innermost first, from addr2line -a -f -i."""
    out = L.run(["arm-none-eabi-addr2line", "-a", "-f", "-i", "-e", exe]
                + ["0x%x" % a for a in pcs]).splitlines()
    res, cur = {}, None
    i = 0
    while i < len(out):
        if re.match(r"^0x[0-9a-f]+$", out[i]):
            cur = int(out[i], 16)
            res[cur] = []
            i += 1
            continue
        fn, loc = out[i], out[i + 1]
        i += 2
        loc = re.sub(r" \(discriminator \d+\)$", "", loc)
        f, _, ln = loc.rpartition(":")
        if fn != "??" and f != "??" and ln not in ("0", "?"):
            res[cur].append((fn, f, int(ln)))
    return res


def check_thumb_lines(exe, tmp):
    global ran
    before = L.failures
    pcs = [a for a, _ in objdump_insns(["arm-none-eabi-objdump", "-d", exe])]
    weight = {a: 1 + (a >> 1) % 4 for a in pcs}
    dump = os.path.join(tmp, "weighted.txt")
    with open(dump, "w") as f:
        for a in pcs:
            f.write("0x%x\n" % a * weight[a])
    frames = a2l_frames(exe, pcs)
    want = {}
    for a in pcs:
        if frames[a]:
            k = (frames[a][0][1], frames[a][0][2])
            want[k] = want.get(k, 0) + weight[a]
    out = profcat("-r", "source", "-F", "csv", exe, "-f", "raw", dump)
    got = {(r["file"], int(r["line"])): int(r["count"])
           for r in csv.DictReader(io.StringIO(out)) if r["line"]}
    if got != want:
        L.fail("thumb lines", "per-line counts differ from addr2line's:\n  profcat %s\n  addr2line %s"
               % (sorted(got.items()), sorted(want.items())))
    out = profcat("-r", "locations", "-F", "csv", exe, "-f", "raw", dump)
    nchain = 0
    for r in csv.DictReader(io.StringIO(out)):
        a = int(r["address"], 16)
        chain = [] if not r["frames"] else [
            (m.group(1), m.group(2), int(m.group(3)))
            for m in (re.match(r"^(.*) at (.*):(\d+):\d+$", fr)
                      for fr in r["frames"].split(" < "))]
        if int(r["count"]) != weight.get(a):
            L.fail("thumb locations", "0x%x: count %s, dumped %s" % (a, r["count"], weight.get(a)))
        if chain != frames.get(a):
            L.fail("thumb locations", "0x%x: %s, addr2line -i %s" % (a, chain, frames.get(a)))
        nchain += len(chain) > 1
    if nchain == 0:
        L.fail("thumb locations", "no inlined frames: the firmware does not test inline chains")
    print("%s thumb lines: %d PCs, %d source lines, %d addresses with inline chains%s"
          % ("ok" if L.failures == before else "FAIL", len(pcs), len(want), nchain,
             ", equal addr2line -i" if L.failures == before else ""))
    ran += 1


def main():
    if not have("objdump", "nm"):
        print("SKIP: objdump/nm not installed")
        sys.exit(77)
    # from the repository root, with the paths the goldens show
    check_golden("disasm-integrate.txt",
                 ["-r", "disasm", "integrate", "tests/source/fixtures/lines-O2",
                  "tests/source/fixtures/gmon.out"])
    check_golden("disasm-m68k.txt",
                 ["-r", "disasm", "_main", "tests/atari/fixtures/nf_vbcc.tos", "-f", "raw",
                  "tests/source/fixtures/disasm-m68k.pcs"])
    check_elf("x86-64 lines-O2", os.path.join(FIX, "lines-O2"), "nm", "objdump")
    with tempfile.TemporaryDirectory() as tmp:
        if have("gcc"):
            exe = os.path.join(tmp, "lines")
            L.run(["gcc", "-g", "-O2", "-o", exe,
                   os.path.join(L.PROGRAMS, "lines_main.c"),
                   os.path.join(L.PROGRAMS, "lines_util.c")])
            check_elf("x86-64 gcc -O2", exe, "nm", "objdump")
            # without -g: no source lines, the same boundaries
            L.run(["gcc", "-O2", "-o", exe,
                   os.path.join(L.PROGRAMS, "lines_main.c"),
                   os.path.join(L.PROGRAMS, "lines_util.c")])
            check_elf("x86-64 gcc -O2 without -g", exe, "nm", "objdump")
        if have("arm-none-eabi-gcc", "arm-none-eabi-objdump", "arm-none-eabi-nm",
                "arm-none-eabi-addr2line"):
            src = os.path.join(L.PROGRAMS, "thumb_fw.c")
            fw = os.path.join(tmp, "fw.elf")
            L.run(["arm-none-eabi-gcc", "-mthumb", "-mcpu=cortex-m3", "-g", "-O2",
                   "-nostdlib", "-Wl,-Ttext=0x8000", "-Wl,-e,Reset_Handler",
                   "-o", fw, src])
            check_elf("Thumb cortex-m3", fw, "arm-none-eabi-nm", "arm-none-eabi-objdump")
            fwa = os.path.join(tmp, "fwa.elf")
            L.run(["arm-none-eabi-gcc", "-marm", "-mcpu=arm7tdmi", "-mthumb-interwork",
                   "-DTOGGLE_THUMB", "-g", "-O2", "-nostdlib", "-Wl,-Ttext=0x8000",
                   "-Wl,-e,Reset_Handler", "-o", fwa, src])
            check_elf("ARM+Thumb arm7tdmi", fwa, "arm-none-eabi-nm", "arm-none-eabi-objdump")
            check_thumb_lines(fw, tmp)
        else:
            print("skip Thumb: the arm-none-eabi toolchain is not installed")
        check_cross(tmp)
    check_m68k()
    if L.failures:
        sys.exit(1)
    if not ran:
        sys.exit(77)


if __name__ == "__main__":
    main()
