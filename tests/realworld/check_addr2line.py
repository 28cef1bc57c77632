#!/usr/bin/env python3
"""The addr2line corpus: programs/lines/ built with each toolchain and ISA
Debian packages (GCC and Clang; x86-64, i386, AArch64, ARM Thumb, RISC-V,
AVR), and every code address of each (every byte on x86, every halfword
or word elsewhere) looked up by `profcat -r locations` and by
`addr2line -f -i -a`: the innermost (function, file, line) must be the
same for every address, and an address that addr2line places on a line
never shows `??`.  Where the reference has no line (line 0: padding
between functions, which addr2line names by the preceding ELF symbol and
the file of whichever STT_FILE symbol comes before it in the symbol
table), profcat must have no line either.

The Clang builds are compared with llvm-symbolizer too: their DWARF 5
gives the ranges of inlined subroutines as DW_FORM_rnglistx, which libbfd
does not read, so addr2line skips those inlined frames (scylladb/seastar
pull request 2846 took llvm-addr2line for that reason).  There profcat
must equal one of the two: llvm-symbolizer on the inlined frames, and
addr2line on the padding after a function that its line table still
covers (llvm-symbolizer names no function there, binutils and profcat
the function before it).

The RISC-V and Thumb builds use -ffunction-sections and --gc-sections as
ESP-IDF and most firmware do: the functions the linker discards leave
their line sequences and .debug_aranges entries behind at address 0, and
on RISC-V (a relaxing target, the length a difference of two relocations)
a (0, 0) pair, which ends the unit's address set for libdw (every address
was `??:0` before profcat read the line tables itself).

A toolchain that is missing skips its case with the reason.
"""
import os
import re
import shutil
import struct
import subprocess
import sys
import tempfile
import unittest

PROFCAT = os.environ["PROFCAT"]
HERE = os.path.dirname(os.path.abspath(__file__))
SRC = os.path.join(HERE, "programs", "lines")
SOURCES = [os.path.join(SRC, "lines.c"), os.path.join(SRC, "other.c")]
GC = ["-ffunction-sections", "-Wl,--gc-sections"]

# name: (compiler command, flags, address step)
FAMILIES = {
    "x86-64 gcc": (["gcc"], ["-O2", "-g", "-fno-pie", "-no-pie", "-static", "-nostdlib"], 1),
    "x86-64 clang": (["clang"], ["-O2", "-g", "-fno-pie", "-no-pie", "-static", "-nostdlib"], 1),
    "i386 gcc dwarf4": (["gcc"], ["-m32", "-O1", "-gdwarf-4", "-fno-pie", "-no-pie", "-static",
                                  "-nostdlib"], 1),
    "aarch64 clang": (["clang"], ["--target=aarch64-linux-gnu", "-fuse-ld=lld", "-O2", "-g",
                                  "-static", "-nostdlib"], 4),
    "arm thumb gcc": (["arm-none-eabi-gcc"], ["-mthumb", "-mcpu=cortex-m4", "-O2", "-g",
                                              "-nostdlib"] + GC, 2),
    "riscv gcc gc-sections": (["riscv64-unknown-elf-gcc"], ["-march=rv32imac", "-mabi=ilp32",
                                                             "-O2", "-g", "-nostdlib"] + GC, 2),
    "riscv clang": (["clang"], ["--target=riscv32-unknown-elf", "-march=rv32imac",
                                "-fuse-ld=lld", "-O2", "-g", "-nostdlib"], 2),
    "avr gcc": (["avr-gcc"], ["-mmcu=atmega328p", "-O2", "-gdwarf-4", "-nostdlib"], 2),
}


def code_ranges(path):
    """[low, high) of each executable section (ELF32/64, little-endian)"""
    with open(path, "rb") as f:
        d = f.read()
    assert d[:4] == b"\x7fELF" and d[5] == 1, path
    if d[4] == 2:
        shoff, = struct.unpack_from("<Q", d, 0x28)
        shentsize, shnum = struct.unpack_from("<HH", d, 0x3A)
        fmt, fl, ad, sz = "<IIQQQQIIQQ", 2, 3, 5
    else:
        shoff, = struct.unpack_from("<I", d, 0x20)
        shentsize, shnum = struct.unpack_from("<HH", d, 0x2E)
        fmt, fl, ad, sz = "<IIIIIIIIII", 2, 3, 5
    out = []
    for i in range(shnum):
        s = struct.unpack_from(fmt, d, shoff + i * shentsize)
        if s[1] == 1 and s[fl] & 4 and s[sz]:  # PROGBITS, SHF_EXECINSTR
            out.append((s[ad], s[ad] + s[sz]))
    return out


def addr2line(elf, addrs):
    """address -> innermost (function, file, line) as addr2line -f -i says"""
    p = subprocess.run(["addr2line", "-a", "-f", "-i", "-e", elf] + ["0x%x" % a for a in addrs],
                       capture_output=True, text=True, check=True)
    res, cur, lines = {}, None, p.stdout.splitlines()
    i = 0
    while i < len(lines):
        if re.fullmatch(r"0x[0-9a-f]+", lines[i]):
            cur = int(lines[i], 16)
            i += 1
            continue
        fn, loc = lines[i], lines[i + 1]
        i += 2
        if cur in res:
            continue  # an outer frame of the inline chain
        loc = re.sub(r" \(discriminator \d+\)$", "", loc)
        file, _, line = loc.rpartition(":")
        res[cur] = (fn, file, int(line) if line.isdigit() else 0)
    return res


def llvm_symbolizer(elf, addrs):
    """the same from llvm-symbolizer (one block per address, innermost
    frame first, blocks separated by an empty line)"""
    p = subprocess.run(["llvm-symbolizer", "--obj=" + elf, "--functions=linkage"],
                       input="".join("0x%x\n" % a for a in addrs),
                       capture_output=True, text=True, check=True)
    blocks = p.stdout.split("\n\n")
    res = {}
    for a, b in zip(addrs, blocks):
        ls = b.strip("\n").splitlines()
        file, line = ls[1].split(":")[0], ls[1].split(":")[1]
        res[a] = (ls[0], file, int(line))
    assert len(res) == len(addrs), elf
    return res


LOC = re.compile(r"^0x([0-9a-f]+)\s+\d+\s+(.*) at (.*):(\d+):\d+$")


def locations(elf, addrs, tmp):
    pcs = os.path.join(tmp, "pcs.txt")
    with open(pcs, "w") as f:
        f.write("".join("0x%x\n" % a for a in addrs))
    p = subprocess.run([PROFCAT, "-r", "locations", elf, "-f", "raw", pcs],
                       capture_output=True, text=True)
    if p.returncode:
        raise AssertionError("profcat -r locations %s: exit %d\n%s" % (elf, p.returncode, p.stderr))
    res = {}
    for ln in p.stdout.splitlines():
        m = LOC.match(ln)
        if m:
            res[int(m.group(1), 16)] = (m.group(2), m.group(3), int(m.group(4)))
    return res


class Addr2line(unittest.TestCase):
    def check(self, name):
        cc, flags, step = FAMILIES[name]
        if not shutil.which(cc[0]):
            self.skipTest("%s is not installed" % cc[0])
        refs = ["addr2line"] + (["llvm-symbolizer"] if "clang" in name else [])
        for r in refs:
            if not shutil.which(r):
                self.skipTest("%s is not installed" % r)
        with tempfile.TemporaryDirectory() as tmp:
            elf = os.path.join(tmp, "prog.elf")
            b = subprocess.run(cc + flags + ["-I", SRC, "-o", elf] + SOURCES,
                               capture_output=True, text=True)
            if b.returncode:
                self.skipTest("%s cannot build here: %s" % (name, b.stderr.strip()[:200]))
            addrs = [a for lo, hi in code_ranges(elf) for a in range(lo, hi, step)]
            self.assertTrue(addrs, "no code in %s" % name)
            want = addr2line(elf, addrs)
            also = llvm_symbolizer(elf, addrs) if "clang" in name else {}
            got = locations(elf, addrs, tmp)
            self.assertEqual(len(want), len(addrs))
            bad = []
            placed = 0
            for a in addrs:
                w = want[a]
                g = got.get(a, ("??", "??", 0))
                if w[2]:
                    placed += 1
                elif a not in got:
                    continue  # no line in either
                if g != w and g != also.get(a):
                    bad.append("0x%x: profcat %s:%s:%d, addr2line %s:%s:%d%s"
                               % ((a,) + g + w + ((", llvm-symbolizer %s:%s:%d" % also[a])
                                                  if a in also else "",)))
            self.assertEqual(bad, [], "%s: %d of %d addresses differ:\n%s"
                             % (name, len(bad), len(addrs), "\n".join(bad[:20])))
            # the lines are really there: most addresses have one
            self.assertGreater(placed, len(addrs) // 2, name)


for _n in FAMILIES:
    setattr(Addr2line, "test_" + re.sub(r"\W+", "_", _n),
            lambda self, n=_n: self.check(n))

if __name__ == "__main__":
    unittest.main(verbosity=2)
