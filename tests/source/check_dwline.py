#!/usr/bin/env python3
"""libprofcore/dwline.c (.debug_line and the DIEs read without libdw)
against libdw, the general path: dwarf_getsrclines unit by unit
(test_dwline.c compares every row: address, file, line, column, is_stmt,
end of sequence, and the file names), and pc_dwarf_load with dwline.c and
with libdw alone (pc_dwarf_set_general): the same line rows, function
scopes (names, parents, call sites), ranges and line-symbol candidates.

- hand-made tables (test_dwline --synthetic): a DWARF 5 big-endian one
  (line_strp directories, MD5 entries), sequences out of order, every
  truncation, lying headers: exact rows or refused, never a crash;
- programs/lines_*.c built now by the host compilers (native builds
  only): gcc DWARF 2 to 5, -ffunction-sections, -gz, -gdwarf64, -m32,
  objects (relocated by libdwfl); clang DWARF 4 and 5, and s390x and
  32-bit PowerPC objects (big-endian); arm-none-eabi (Thumb) and
  riscv64-unknown-elf objects; a C++ program by g++ and clang++: every
  unit read by dwline.c;
- the ELF test files of Debian's Go 1.19 source package (golang-1.19-src,
  installed with golang-go; other people's compilers: gcc 4.2 to 9.3 and
  clang, i386, x86-64, AArch64, ARM, PowerPC, s390x, SPARC64, RISC-V,
  .zdebug and SHF_COMPRESSED sections) and ../shared's SWO firmware:
  exact unit and row counts, every unit read by dwline.c.

usage: check_dwline.py TEST_DWLINE native|cross
"""
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
PROG = os.path.join(HERE, "programs")
GO = "/usr/share/go-1.19/src/debug"
SWO = os.path.join(HERE, "..", "..", "..", "shared", "fixtures", "swo",
                   "sigrok-dumps_stm32f105_trace_example.elf")

# file: (units, units read by dwline.c, rows, views: rows drop_views drops)
FIXED = {
    "elf/testdata/compressed-32.obj": (1, 1, 4, 0),
    "elf/testdata/compressed-64.obj": (1, 1, 4, 0),
    "elf/testdata/gcc-386-freebsd-exec": (1, 1, 4, 0),
    "elf/testdata/gcc-amd64-linux-exec": (3, 3, 19, 0),
    "elf/testdata/gcc-amd64-openbsd-debug-with-rela.obj": (1, 1, 0, 0),
    "elf/testdata/go-relocation-test-clang-arm.obj": (1, 1, 4, 0),
    "elf/testdata/go-relocation-test-clang-x86.obj": (1, 1, 0, 0),
    "elf/testdata/go-relocation-test-gcc424-x86-64.obj": (1, 1, 3, 0),
    "elf/testdata/go-relocation-test-gcc441-x86-64.obj": (1, 1, 3, 0),
    "elf/testdata/go-relocation-test-gcc441-x86.obj": (1, 1, 3, 0),
    "elf/testdata/go-relocation-test-gcc482-aarch64.obj": (1, 1, 4, 0),
    "elf/testdata/go-relocation-test-gcc482-ppc64le.obj": (1, 1, 3, 0),
    "elf/testdata/go-relocation-test-gcc492-arm.obj": (1, 1, 4, 0),
    "elf/testdata/go-relocation-test-gcc5-ppc.obj": (1, 1, 4, 0),
    "elf/testdata/go-relocation-test-gcc531-s390x.obj": (1, 1, 4, 0),
    "elf/testdata/go-relocation-test-gcc620-sparc64.obj": (1, 1, 4, 0),
    "elf/testdata/go-relocation-test-gcc720-riscv64.obj": (1, 1, 4, 0),
    "elf/testdata/go-relocation-test-gcc930-ranges-no-rela-x86-64": (1, 1, 8, 0),
    "elf/testdata/go-relocation-test-gcc930-ranges-with-rela-x86-64": (1, 1, 8, 0),
    "elf/testdata/zdebug-test-gcc484-x86-64.obj": (1, 1, 4, 0),
    "dwarf/testdata/bitfields.elf4": (1, 1, 0, 0),
    "dwarf/testdata/cppunsuptypes.elf": (1, 1, 6, 0),
    "dwarf/testdata/cycle.elf": (1, 1, 4, 0),
    "dwarf/testdata/line-clang-dwarf5.elf": (2, 2, 18, 0),
    "dwarf/testdata/line-clang.elf": (2, 2, 14, 0),
    "dwarf/testdata/line-gcc-dwarf5.elf": (2, 2, 16, 0),
    "dwarf/testdata/line-gcc.elf": (2, 2, 16, 0),
    "dwarf/testdata/ranges.elf": (1, 1, 11, 2),
    "dwarf/testdata/rnglistx.elf": (1, 1, 13, 2),
    "dwarf/testdata/split.elf": (1, 1, 3, 0),
    "dwarf/testdata/typedef.elf": (1, 1, 4, 0),
    "dwarf/testdata/typedef.elf4": (1, 1, 4, 0),
    "dwarf/testdata/typedef.elf5": (1, 1, 4, 0),
}

BOTH = [os.path.join(PROG, "lines_main.c"), os.path.join(PROG, "lines_util.c")]
UTIL = [os.path.join(PROG, "lines_util.c")]
BUILDS = [
    ("gcc-dwarf2", ["gcc", "-gdwarf-2", "-O0"], BOTH),
    ("gcc-dwarf3", ["gcc", "-gdwarf-3", "-O1"], BOTH),
    ("gcc-dwarf4", ["gcc", "-gdwarf-4", "-O2"], BOTH),
    ("gcc-dwarf5-sections", ["gcc", "-gdwarf-5", "-O2", "-ffunction-sections"], BOTH),
    ("gcc-dwarf5-gz", ["gcc", "-gdwarf-5", "-O2", "-gz=zlib"], BOTH),
    ("gcc-dwarf64", ["gcc", "-gdwarf-5", "-gdwarf64", "-O2"], BOTH),
    ("gcc-m32", ["gcc", "-m32", "-gdwarf-5", "-O2"], BOTH),
    ("gcc-object.o", ["gcc", "-gdwarf-5", "-O2", "-ffunction-sections", "-c"], UTIL),
    ("clang-dwarf4", ["clang", "-gdwarf-4", "-O2"], BOTH),
    ("clang-dwarf5", ["clang", "-gdwarf-5", "-O2"], BOTH),
    ("clang-s390x.o", ["clang", "--target=s390x-linux-gnu", "-gdwarf-5", "-O2", "-c"], UTIL),
    ("clang-ppc.o", ["clang", "--target=powerpc-linux-gnu", "-gdwarf-4", "-O2", "-c"], UTIL),
    ("arm-thumb.o", ["arm-none-eabi-gcc", "-mthumb", "-mcpu=cortex-m4", "-gdwarf-4", "-O2", "-c"],
     UTIL),
    ("riscv64.o", ["riscv64-unknown-elf-gcc", "-gdwarf-5", "-O2", "-c"], UTIL),
    ("g++-dwarf4", ["g++", "-gdwarf-4", "-O2"], [os.path.join(PROG, "dwline_cxx.cc")]),
    ("clang++-dwarf5", ["clang++", "-gdwarf-5", "-O2"], [os.path.join(PROG, "dwline_cxx.cc")]),
]


def run(tool, args):
    r = subprocess.run([tool] + args, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       universal_newlines=True)
    return r.returncode, r.stdout


def check_load(tool, files, what):
    """pc_dwarf_load with and without dwline.c: the same, every unit's
    line table and DIEs read by dwline.c"""
    rc, out = run(tool, ["--load", "--all-fast"] + files)
    lines = out.splitlines()
    if rc or len(lines) != len(files) or any(": load the same, " not in l for l in lines):
        print("FAIL: pc_dwarf_load, %s:\n%s" % (what, out))
        return 1
    return 0


def main():
    tool, mode = sys.argv[1], sys.argv[2]
    bad = 0
    rc, out = run(tool, ["--synthetic"])
    if rc or out != "synthetic tables: as expected\n":
        print("FAIL: hand-made tables:\n" + out)
        bad = 1
    checked = 0
    # the fixed files: exact counts
    fixed = [(os.path.join(GO, k), v) for k, v in sorted(FIXED.items())]
    fixed.append((SWO, (1, 1, 95, 3)))
    have = [(p, v) for p, v in fixed if os.path.exists(p)]
    if len(have) < len(fixed):
        print("note: %d of %d fixed files absent (golang-1.19-src, ../shared)" %
              (len(fixed) - len(have), len(fixed)))
    if have:
        rc, out = run(tool, ["--all-fast"] + [p for p, _ in have])
        want = "".join("%s: %d units, %d read here, %d rows, %d views\n" % ((p,) + v) for p, v in have)
        if rc or out != want:
            print("FAIL: fixed files:\n" + out)
            bad = 1
        bad |= check_load(tool, [p for p, _ in have], "fixed files")
        checked += len(have)
    # programs built now
    if mode == "native":
        with tempfile.TemporaryDirectory() as tmp:
            built = []
            for name, cmd, srcs in BUILDS:
                if not shutil.which(cmd[0]):
                    print("note: %s not built (no %s)" % (name, cmd[0]))
                    continue
                out = os.path.join(tmp, name)
                r = subprocess.run(cmd + ["-I", PROG, "-o", out] + srcs,
                                   stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
                if r.returncode:
                    print("note: %s not built (%s)" % (name, r.stdout.decode(errors="replace")
                                                       .strip().splitlines()[-1:]))
                    continue
                built.append(out)
            rc, out = run(tool, ["--all-fast"] + built)
            lines = out.splitlines()
            if rc or len(lines) != len(built) or any(
                    " read here, " not in l or l.split(": ")[1].split(" units")[0] !=
                    l.split(", ")[1].split(" read")[0] for l in lines):
                print("FAIL: programs built now:\n" + out)
                bad = 1
            bad |= check_load(tool, built, "programs built now")
            checked += len(built)
    if bad:
        return 1
    print("dwline.c equals libdw on the hand-made tables and %d files" % checked)
    return 0


if __name__ == "__main__":
    sys.exit(main())
