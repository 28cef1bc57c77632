#!/usr/bin/env python3
"""The Windows leg's acceptance test (scripts/cross.sh mingw): profcat.exe,
built with mingw-w64 and run under wine, against the native Linux profcat
on the same inputs.  Standard output, standard error, the exit status and
files written with -o must be byte-identical: profcat writes LF line ends
on every host (binary mode), so nothing is normalised.  Where the Windows
run is given a path in Windows form (Z:\\...: wine's drive for the Unix
root), its messages must name that path exactly as given, backslashes and
drive letter included; only that path differs from the native line.

Usage: wine_compare.py NATIVE_PROFCAT   (PROFCAT: profcat.exe; the cross
hook in tests/portability/crosshook runs it through wine)
"""
import gzip
import os
import re
import shutil
import struct
import subprocess
import sys
import tempfile

NATIVE = sys.argv[1]
WINDOWS = os.environ["PROFCAT"]
ROOT = os.environ["PC_SOURCE_ROOT"]
UNIX = os.path.join(ROOT, "tests", "unix", "fixtures", "x86_64-nopie")
GMON = os.path.join(UNIX, "gmon.out")
NM = os.path.join(ROOT, "tests", "portability", "fixtures", "callgraph.nm.txt")
PRF = os.path.join(ROOT, "tests", "dos", "fixtures", "prf")
ATARI = os.path.join(ROOT, "tests", "atari", "synth")
failures = 0


def winpath(p):
    """A Unix absolute path as wine's Z: drive names it: Z:\\dir\\file."""
    return "Z:" + os.path.abspath(p).replace("/", "\\")


def run(prog, args, stdin=None):
    r = subprocess.run([prog] + args, input=stdin, stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE)
    return r.returncode, r.stdout, r.stderr


def check(name, ok, detail=""):
    global failures
    print("%s %s" % ("ok  " if ok else "FAIL", name))
    if not ok:
        failures += 1
        if detail:
            print("     " + detail.replace("\n", "\n     "))


def same(name, args, want_rc=0, stdin=None, win_args=None):
    """Both programs on args (the Windows one on win_args if given)."""
    n = run(NATIVE, args, stdin)
    w = run(WINDOWS, win_args if win_args is not None else args, stdin)
    detail = ""
    if n != w:
        detail = "native  %r\nwindows %r" % (
            (n[0], n[1][:300], n[2][:300]), (w[0], w[1][:300], w[2][:300]))
    check(name, n == w and n[0] == want_rc and (n[1] or n[2]),
          detail or "exit %d (want %d)" % (n[0], want_rc))
    return n


with tempfile.TemporaryDirectory() as tmp:
    # 1. gmon.out with an nm symbol file (no ELF reader on Windows)
    same("gmon.out + nm: flat report", [NM, GMON])
    same("gmon.out + nm: call graph", ["--report", "callgraph", NM, GMON])
    same("gmon.out + nm: csv", ["-F", "csv", NM, GMON])
    with open(GMON, "rb") as f:
        gmon = f.read()
    same("gmon.out on standard input (binary)", [NM, "-"], stdin=gmon)
    # binary exports to standard output: no CRLF, no ^Z
    same("gmon export to stdout", ["--export", "gmon", NM, GMON])
    same("pprof export to stdout", ["--export", "pprof", NM, GMON])

    # 2. DOS: MS LINK .MAP and PROFIL .PRF
    demo = [os.path.join(PRF, "DEMO.MAP"), os.path.join(PRF, "DEMO.PRF")]
    same("DOS .MAP + .PRF", demo)
    same("DOS .MAP + .PRF, --style prohst", ["--style", "prohst"] + demo)

    # 3. Atari: GEMDOS executable symbols and a raw PC dump
    same("Atari PRG + raw dump", ["-O", "load-address=0x13f00",
                                  os.path.join(ATARI, "alcyon.prg"),
                                  "-f", "raw", "-O", "encoding=binary",
                                  "-O", "width=32", "-O", "endian=big",
                                  os.path.join(ATARI, "dwarfs.pcs")])

    # a dump large enough to be counted by the worker threads (winpthreads
    # on Windows): 400,000 PCs over the program and beyond, 4 threads
    big = os.path.join(tmp, "big.pcs")
    with open(big, "wb") as f:
        f.write(b"".join(struct.pack(">I", 0x13f00 + (i * 2654435761) % 0x600)
                         for i in range(400000)))
    os.environ["PROFCORE_THREADS"] = "4"
    same("Atari PRG + 400,000-sample raw dump, 4 threads",
         ["--ignore-fit",   # PCs beyond the program, on purpose
          "-O", "load-address=0x13f00", os.path.join(ATARI, "alcyon.prg"),
          "-f", "raw", "-O", "encoding=binary", "-O", "width=32",
          "-O", "endian=big", big])
    del os.environ["PROFCORE_THREADS"]

    # 4. gzip-compressed captures (zlib)
    same("gzip .PRF", [demo[0], os.path.join(PRF, "DEMO.PRF.gz")])
    gz = os.path.join(tmp, "gmon.out.gz")
    with open(gz, "wb") as f:
        f.write(gzip.compress(gmon, mtime=0))
    same("gzip gmon.out", [NM, gz])

    # 5. malformed input: the same error line, the path as given
    cut = os.path.join(tmp, "cut.gmon")
    with open(cut, "wb") as f:
        f.write(gmon[:100])
    n = same("truncated gmon.out (Unix path)", [NM, cut], want_rc=1)
    w = run(WINDOWS, [NM, winpath(cut)])
    want = n[2].replace(cut.encode(), winpath(cut).encode())
    check("truncated gmon.out (Z:\\ path): error line names the path as given",
          w[0] == 1 and w[2] == want and winpath(cut).encode() in want,
          "got  %r\nwant %r" % (w[2], want))
    missing = "C:\\caps\\x.out"
    same("missing C:\\caps\\x.out: same line on both hosts", [missing], want_rc=3)
    w = run(WINDOWS, [missing])
    check("missing C:\\caps\\x.out: exact error line",
          w[2] == b"profcat: C:\\caps\\x.out: no such file\n", repr(w[2]))

    # 6. -o FILE replaces an existing file atomically
    outs = []
    for who, prog, conv in (("native", NATIVE, lambda p: p),
                            ("windows", WINDOWS, winpath)):
        d = os.path.join(tmp, who)
        os.mkdir(d)
        dest = os.path.join(d, "report.txt")
        with open(dest, "wb") as f:
            f.write(b"old report\n" * 1000)
        rc, out, err = run(prog, ["-o", conv(dest), NM, GMON])
        with open(dest, "rb") as f:
            outs.append(f.read())
        check("%s -o over an existing file: exit 0, nothing printed" % who,
              (rc, out, err) == (0, b"", b""), repr((rc, out, err)))
        # a failed run leaves the old file and no temporary file behind
        rc, _, err = run(prog, ["-o", conv(dest), NM, conv(cut)])
        with open(dest, "rb") as f:
            kept = f.read() == outs[-1]
        check("%s -o with bad input: exit 1, old file kept, no temporary" % who,
              rc == 1 and kept and os.listdir(d) == ["report.txt"],
              "exit %d, kept %s, %r" % (rc, kept, os.listdir(d)))
        shutil.rmtree(d)
    check("-o: the replaced files are byte-identical",
          outs[0] == outs[1] and outs[0] == run(NATIVE, [NM, GMON])[1])
    # never over an input, however it is spelled (Windows: same volume and
    # file index, GetFileInformationByHandle)
    copy = os.path.join(tmp, "in.gmon")
    shutil.copy(GMON, copy)
    rc, out, err = run(WINDOWS, ["-o", winpath(copy), NM, copy])
    want = ("profcat: %s: refusing to write the output over an input file\n"
            % winpath(copy)).encode()
    with open(copy, "rb") as f:
        kept = f.read() == gmon
    check("-o Z:\\...\\in.gmon over the input /.../in.gmon: refused",
          (rc, out, err) == (2, b"", want) and kept, repr((rc, out, err)))

    # 7. ELF symbols, DWARF lines and user dialects (libelf, libdw and
    # libyaml, cross-built by scripts/cross.sh mingw)
    if os.environ.get("PC_HAVE_ELF", "1") == "1":
        exe = os.path.join(UNIX, "callgraph")
        same("ELF + gmon.out: flat report", [exe, GMON])
        same("ELF + gmon.out: call graph", ["--report", "callgraph", exe, GMON])
        same("ELF + gmon.out: --list-symbols csv",
             ["--list-symbols", "-F", "csv", exe])
        # ARM Thumb firmware (tests/realworld/programs/thumb) and a raw dump
        # of every instruction address objdump lists
        fw = os.path.join(tmp, "fw.elf")
        subprocess.run(["arm-none-eabi-gcc", "-mthumb", "-mcpu=cortex-m3",
                        "-g", "-O1", "-nostdlib", "-Wl,-Ttext=0x8000",
                        "-Wl,-e,Reset_Handler", "-o", fw,
                        os.path.join(ROOT, "tests", "realworld", "programs",
                                     "thumb", "fw.c")], check=True)
        dis = subprocess.run(["arm-none-eabi-objdump", "-d", fw], check=True,
                             stdout=subprocess.PIPE, text=True).stdout
        pcs = os.path.join(tmp, "fw.pcs")
        with open(pcs, "w") as f:
            f.write("".join("0x%s\n" % m.group(1) for m in
                            re.finditer(r"^\s+([0-9a-f]+):\s", dis, re.M)))
        same("ARM Thumb ELF + raw dump", [fw, "-f", "raw", pcs])
        same("ARM Thumb ELF + raw dump, csv", ["-F", "csv", fw, "-f", "raw", pcs])
    if os.environ.get("PC_HAVE_DWARF", "1") == "1":
        src = os.path.join(ROOT, "tests", "source", "fixtures")
        lines = [os.path.join(src, "lines-O2"), os.path.join(src, "gmon.out")]
        same("-g program: line report", ["--granularity", "line"] + lines)
        same("-g program: file report", ["--granularity", "file"] + lines)
    if os.environ.get("PC_HAVE_YAML", "1") == "1":
        dia = os.path.join(ROOT, "tests", "dos", "fixtures", "dialects")
        same("user YAML dialect: symbols",
             ["--list-symbols", "-f", "map", "-O",
              "dialect=" + os.path.join(dia, "acme.yaml"),
              os.path.join(dia, "acme.map")])
        same("user YAML dialect with a bad key: the same error",
             ["-f", "map", "-O", "dialect=" + os.path.join(dia, "bad-key.yaml"),
              os.path.join(ROOT, "tests", "dos", "fixtures", "dosmap",
                           "mslink_basicdos_CLKDEV.MAP")], want_rc=2)

print("%d failure(s)" % failures)
sys.exit(1 if failures else 0)
