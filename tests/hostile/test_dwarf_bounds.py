#!/usr/bin/env python3
"""Bounds on what a program's DWARF makes profcat do (issue #39, class 5;
docs/development.md ("Hostile input")).  Programs are built here:

  - overlap: an assembly program whose hand-written .debug_info holds
    100,000 DW_TAG_subprogram DIEs with nested ranges over one 200,000-byte
    function (range i is [start+i, start+200000-i)): the innermost scope of
    each address is found in n log n (the ranges were painted one over the
    other: 10^10 steps, tens of seconds).  Exact report text; under 3 s of
    CPU time.
  - inline: a C program with 200 levels of always_inline functions in
    40 copies (about 16,000 instruction addresses, each with up to 201
    frames, 110 MB of -r locations text): -r locations streams it in
    memory that does not grow with the frames looked up (92 MiB peak RSS
    before: every frame's names copied and every address kept); under
    64 MiB here (37 MiB after, under meson test).  The chain of the
    deepest address is checked exactly.

  - gzbomb: a small -g program gzip-compressed, followed by 1 GiB of
    zeros in 1024 more gzip members: refused in one line once 128 MiB
    are inflated (1 GiB peak RSS and 40 s before), under 200 MiB.
  - zbomb: the same program built with -gz=zlib, its compressed
    .debug_info replaced by 256 MiB of zeros (SHF_COMPRESSED, 1.2 MB in
    the file): refused from the section header's claim, naming the
    section and its offset, without inflating it (256 MiB before), also
    gzip-compressed as a whole; the untouched program, gzip-compressed,
    still gives its lines.

CPU time and peak RSS are profcat's own (os.wait4).  Exit 77 when gcc is
missing, and on the Windows leg.
"""
import gzip
import mmap
import os
import re
import shutil
import subprocess
import struct
import sys
import tempfile
import zlib

PROFCAT = os.environ["PROFCAT"]
SANITIZED = os.environ.get("PC_SANITIZE", "none") not in ("", "none")
fails = 0


def check(cond, what):
    global fails
    print(("ok   " if cond else "FAIL ") + what)
    if not cond:
        fails += 1


def run(args, cwd):
    """profcat ARGS: exit status, stdout's lines, stderr and profcat's own
    resource usage"""
    with tempfile.TemporaryFile() as fo, tempfile.TemporaryFile() as fe:
        p = subprocess.Popen([PROFCAT] + args, cwd=cwd, stdout=fo, stderr=fe,
                             stdin=subprocess.DEVNULL)
        _, status, ru = os.wait4(p.pid, 0)
        fo.seek(0)
        fe.seek(0)
        return (os.waitstatus_to_exitcode(status),
                fo.read().decode("utf-8", "replace").splitlines(True),
                fe.read().decode(errors="replace"), ru)


def overlap_source(n):
    o = ["\t.text\n\t.globl _start\n\t.type _start, @function\n_start:\n"
         "\t.fill %d, 1, 0x90\n\tret\n\t.size _start, .-_start\n.Ltext_end:\n"
         % (2 * n)]
    # abbreviations: 1 compile_unit (name, language, low_pc, high_pc as a
    # length), 2 subprogram (name, low_pc, high_pc)
    o.append("\t.section .debug_abbrev,\"\",@progbits\n.Labbrev:\n"
             "\t.uleb128 1\n\t.uleb128 0x11\n\t.byte 1\n"
             "\t.uleb128 0x3\n\t.uleb128 0x8\n\t.uleb128 0x13\n\t.uleb128 0xb\n"
             "\t.uleb128 0x11\n\t.uleb128 0x1\n\t.uleb128 0x12\n\t.uleb128 0x6\n"
             "\t.byte 0,0\n"
             "\t.uleb128 2\n\t.uleb128 0x2e\n\t.byte 0\n"
             "\t.uleb128 0x3\n\t.uleb128 0x8\n\t.uleb128 0x11\n\t.uleb128 0x1\n"
             "\t.uleb128 0x12\n\t.uleb128 0x6\n\t.byte 0,0\n\t.byte 0\n")
    o.append("\t.section .debug_info,\"\",@progbits\n"
             "\t.long .Linfo_end-.Linfo_start\n.Linfo_start:\n"
             "\t.value 4\n\t.long .Labbrev\n\t.byte 8\n"
             "\t.uleb128 1\n\t.string \"overlap.c\"\n\t.byte 0xc\n"
             "\t.quad _start\n\t.long .Ltext_end-_start\n")
    for i in range(n):
        o.append("\t.uleb128 2\n\t.string \"f%d\"\n\t.quad _start+%d\n\t.long %d\n"
                 % (i, i, 2 * n - 2 * i))
    o.append("\t.byte 0\n.Linfo_end:\n")
    return "".join(o)


def overlap(t):
    n = 100000
    with open(os.path.join(t, "overlap.s"), "w") as f:
        f.write(overlap_source(n))
    subprocess.run(["gcc", "-nostdlib", "-static", "-o", "overlap", "overlap.s"],
                   cwd=t, check=True)
    start = None
    for line in subprocess.run(["nm", "overlap"], cwd=t, capture_output=True,
                               text=True, check=True).stdout.splitlines():
        p = line.split()
        if p[-1] == "_start":
            start = int(p[0], 16)
    # address start+k is innermost in f(k) for k < n, in f(2n-1-k) above
    offs = (0, 5, n - 1, n, 2 * n - 1)
    with open(os.path.join(t, "overlap.txt"), "w") as f:
        f.write("".join("0x%x\n" % (start + k) for k in offs))
    rc, lines, err, ru = run(["-r", "locations", "overlap", "-f", "raw",
                                 "overlap.txt"], t)
    want = ["address           count  function at file:line:column (inline "
            "chain, innermost first)\n"]
    for k in offs:
        want.append("0x%-10x %10d  f%d at ??:?\n"
                    % (start + k, 1, k if k < n else 2 * n - 1 - k))
    check(rc == 0 and lines == want and err == "",
          "overlap: -r locations names the innermost of 100,000 nested "
          "ranges: exit %d, %r\n%s" % (rc, err, "".join(lines)))
    cpu = ru.ru_utime + ru.ru_stime
    limit = 30.0 if SANITIZED else 3.0
    check(cpu < limit, "overlap: %.2f s of CPU (limit %.0f s)" % (cpu, limit))


def inline_source(depth, copies):
    o = ["volatile int v;\n",
         "static inline __attribute__((always_inline)) int g%d(int x) "
         "{ v = x; return x + 1; }\n" % depth]
    for i in range(depth - 1, -1, -1):
        o.append("static inline __attribute__((always_inline)) int g%d(int x) "
                 "{ v = x; return g%d(x * 3) + %d; }\n" % (i, i + 1, i))
    for c in range(copies):
        o.append("int h%d(int x) { return g0(x + %d); }\n" % (c, c))
    o.append("int main(void) { int s = 0;\n")
    o.extend(" s += h%d(s);\n" % c for c in range(copies))
    o.append(" return s; }\n")
    return "".join(o)


def inline(t):
    depth, copies = 200, 40
    with open(os.path.join(t, "inl.c"), "w") as f:
        f.write(inline_source(depth, copies))
    subprocess.run(["gcc", "-O1", "-g", "-o", "inl", "inl.c"], cwd=t,
                   check=True)
    dis = subprocess.run(["objdump", "-d", "--no-show-raw-insn", "inl"], cwd=t,
                         capture_output=True, text=True, check=True).stdout
    addrs = re.findall(r"^ +([0-9a-f]+):", dis, re.M)
    with open(os.path.join(t, "inl.txt"), "w") as f:
        f.write("".join("0x%s\n" % a for a in addrs))
    # -r locations into a file, profcat's own usage
    with open(os.path.join(t, "inl.out"), "wb") as fo, \
            tempfile.TemporaryFile() as fe:
        p = subprocess.Popen([PROFCAT, "-r", "locations", "inl", "-f", "raw",
                              "inl.txt"], cwd=t, stdout=fo, stderr=fe,
                             stdin=subprocess.DEVNULL)
        _, status, ru = os.wait4(p.pid, 0)
        rc = os.waitstatus_to_exitcode(status)
        fe.seek(0)
        err = fe.read().decode(errors="replace")
    nbytes = os.path.getsize(os.path.join(t, "inl.out"))
    check(rc == 0 and err == "" and nbytes > 50000000,
          "inline: -r locations of %d addresses: exit %d, %d bytes, %r"
          % (len(addrs), rc, nbytes, err))
    # the first deepest chain (in h0), innermost first: g200 at its line,
    # then each call site g(i) on g(i)'s line (g(i) is on line
    # 2 + depth - i), then h0's
    deepest = []
    with open(os.path.join(t, "inl.out"), "rb") as f, \
            mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ) as m:
        c = re.search(rb"^0x[0-9a-f]+ +\d+  [^\n]*\n(?: +inlined in [^\n]*\n){%d}"
                      rb"(?! +inlined in )" % (depth + 1), m, re.M)
        for line in (c.group(0).decode().splitlines() if c else []):
            x = re.match(r"(?:0x[0-9a-f]+ +\d+  | +inlined in )(\S+) at (\S+)$", line)
            deepest.append((x.group(1), x.group(2)) if x else (line, ""))
    want = [("g%d" % depth, re.compile(r".*/inl\.c:2:\d+$"))]
    for i in range(depth - 1, -1, -1):
        want.append(("g%d" % i, re.compile(r".*/inl\.c:%d:\d+$" % (2 + depth - i))))
    want.append(("h0", re.compile(r".*/inl\.c:%d:\d+$" % (3 + depth))))
    same = len(deepest) == len(want) and all(
        f == w[0] and w[1].match(loc) for (f, loc), w in zip(deepest, want))
    check(same, "inline: the deepest chain is g%d < g%d < ... < g0 < h0 at "
          "their lines (got %d frames: %s ... %s)"
          % (depth, depth - 1, len(deepest), deepest[:2], deepest[-2:]))
    kib = ru.ru_maxrss
    if SANITIZED:
        print("skip the peak RSS limit under sanitizers (shadow memory)")
    else:
        check(kib < 64 * 1024, "inline: peak RSS %d KiB (limit 64 MiB)" % kib)


BOMB_MSG = ("profcat: %s:%d: section .debug_info at offset %d says it "
            "inflates from %d to 268435456 bytes (more than 64 to 1): refused "
            "as a decompression bomb; if the file is genuine, decompress its "
            "sections first (objcopy --decompress-debug-sections)\n")


def bombs(t):
    with open(os.path.join(t, "z.c"), "w") as f:
        f.write("int f(int x) { return x + 1; }\nint main(void) { return f(0); }\n")
    subprocess.run(["gcc", "-g", "-gz=zlib", "-O1", "-o", "z", "z.c"], cwd=t,
                   check=True)
    main_at = None
    for line in subprocess.run(["nm", "z"], cwd=t, capture_output=True,
                               text=True, check=True).stdout.splitlines():
        p = line.split()
        if p[-1] == "main":
            main_at = int(p[0], 16)
    with open(os.path.join(t, "z.txt"), "w") as f:
        f.write("0x%x\n" % main_at)
    with open(os.path.join(t, "z"), "rb") as f:
        prog = f.read()
    # the whole program gzip-compressed, then 1 GiB of zeros as 1024
    # members of 1 MiB each (one member made once)
    zero = gzip.compress(bytes(1 << 20), 9)
    with open(os.path.join(t, "gzbomb"), "wb") as f:
        f.write(gzip.compress(prog, 6))
        for _ in range(1024):
            f.write(zero)
    rc, out, err, ru = run(["-r", "locations", "gzbomb", "-f", "raw", "z.txt"], t)
    check(rc == 1 and out == [] and err ==
          "profcat: gzbomb:134217728: compressed program inflates past the "
          "limit of 134217728 bytes: decompress it first (gunzip) if it is "
          "genuine\n", "gzbomb: exit %d, %r" % (rc, err))
    if not SANITIZED:
        check(ru.ru_maxrss < 200 * 1024, "gzbomb: peak RSS %d KiB (limit 200 MiB)"
              % ru.ru_maxrss)
    # .debug_info: a compression header (ELF64, little-endian: zlib,
    # 256 MiB) and 256 MiB of zeros deflated
    c = zlib.compressobj(1)
    z = b"".join([c.compress(bytes(1 << 20)) for _ in range(256)] + [c.flush()])
    with open(os.path.join(t, "sec.bin"), "wb") as f:
        f.write(struct.pack("<IIQQ", 1, 0, 256 << 20, 1) + z)
    subprocess.run(["objcopy", "--update-section", ".debug_info=sec.bin", "z",
                    "zbomb"], cwd=t, check=True)
    off = None
    for line in subprocess.run(["readelf", "-S", "-W", "zbomb"], cwd=t,
                               capture_output=True, text=True,
                               check=True).stdout.splitlines():
        p = line.split()
        if ".debug_info" in p:
            off = int(p[p.index(".debug_info") + 3], 16)
    with open(os.path.join(t, "zbomb"), "rb") as f:
        zb = f.read()
    with open(os.path.join(t, "zbomb.gz"), "wb") as f:
        f.write(gzip.compress(zb, 6))
    with open(os.path.join(t, "z.gz"), "wb") as f:
        f.write(gzip.compress(prog, 6))
    for name in ("zbomb", "zbomb.gz"):
        rc, out, err, ru = run(["-r", "locations", name, "-f", "raw", "z.txt"], t)
        want = BOMB_MSG % (name, off, off, len(z) + 24)
        check(rc == 1 and out == [] and err == want,
              "zbomb: %s: exit %d, %r (want %r)" % (name, rc, err, want))
        if not SANITIZED:
            check(ru.ru_maxrss < 64 * 1024, "zbomb: %s: peak RSS %d KiB (limit 64 MiB)"
                  % (name, ru.ru_maxrss))
    rc, out, err, _ = run(["-r", "locations", "z.gz", "-f", "raw", "z.txt"], t)
    check(rc == 0 and len(out) == 2 and re.fullmatch(
        r"0x%x +1  main at .*/z\.c:2:\d+\n" % main_at, out[1]) is not None,
        "z.gz: the compressed program still gives its lines: exit %d, %r %r"
        % (rc, out, err))


def main():
    if os.environ.get("PC_CROSS_LEG") == "mingw":
        print("SKIP: the programs are built with the host's gcc for Linux")
        return 77
    for tool in ("gcc", "nm", "objdump", "objcopy", "readelf"):
        if not shutil.which(tool):
            print("SKIP: %s is not installed" % tool)
            return 77
    with tempfile.TemporaryDirectory() as t:
        overlap(t)
        inline(t)
        bombs(t)
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
