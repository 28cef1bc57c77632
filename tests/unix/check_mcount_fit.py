#!/usr/bin/env python3
"""Do a gmon.out's call arcs come from the program's mcount calls?
(docs/attribution.md ("Attribution rules"), rule 9.)

Every arc's callee end is where the profiling hook's call returns to in
the callee (mcount, __fentry__, _mcount, __gnu_mcount_nc).  Programs built
here, with the exact message for each refusal:

- x86-64 and i386 (gcc -pg, PIE: `call *mcount@GOTPCREL(%rip)`,
  `call *mcount@GOT(%ebx)`): run, their gmon.out read with the program,
  with the same source rebuilt with one more function at its top (the
  histogram still fits; the arcs do not), and with a build without -pg
  (the arcs alone: the histogram would say it first);
- AArch64 (clang -pg, bl _mcount), ARM and Thumb (arm-none-eabi-gcc -pg,
  bl __gnu_mcount_nc) firmware-style programs with their own hook: a
  gmon.out written here with one arc per hook call (its return address,
  as objdump finds it), read with the program and with the rebuilt one.

The expected count of arcs at a hook call comes from objdump's
disassembly, not from profcat.  A missing tool skips its case.
"""
import os
import re
import shutil
import struct
import subprocess
import sys
import tempfile

PROFCAT = os.environ["PROFCAT"]
ROOT = os.environ["PC_SOURCE_ROOT"]
SRC = os.path.join(ROOT, "tests", "unix", "fixtures", "src", "callgraph.c")
HOOKS = ("mcount", "_mcount", "__fentry__", "__gnu_mcount_nc")
EXTRA = "static int pc_rebuilt(int x) { return x * 7 + 1; }\n" \
        "int (*pc_keep)(int) = pc_rebuilt;\n"
failures = 0


def report(ok, label, detail=""):
    global failures
    print("%s %s" % ("ok  " if ok else "FAIL", label))
    if not ok:
        failures += 1
        print(detail)


def profcat(*args):
    p = subprocess.run([PROFCAT, *args], capture_output=True, text=True)
    return p.returncode, p.stderr


def ebx_slot_disp(exe):
    """i386 PIE: the displacement from %ebx (the GOT base, .got.plt) of
    the hook's GOT slot, by readelf"""
    secs = subprocess.run(["readelf", "-SW", exe], capture_output=True, text=True).stdout
    m = re.search(r"\s\.got\.plt\s+\S+\s+([0-9a-f]+)", secs)
    rel = subprocess.run(["readelf", "-rW", exe], capture_output=True, text=True).stdout
    r = re.search(r"^([0-9a-f]+)\s+\S+\s+R_386_GLOB_DAT\s+\S+\s+mcount", rel, re.M)
    return int(r.group(1), 16) - int(m.group(1), 16) if m and r else None


def hook_returns(objdump, exe):
    """the addresses right after each call to the hook, by objdump -d"""
    lines = subprocess.run([objdump, "-d", exe], capture_output=True, text=True,
                           check=True).stdout.splitlines()
    insn = [l for l in lines if re.match(r"^\s+[0-9a-f]+:\s", l)]
    disp = ebx_slot_disp(exe) if objdump == "objdump" else None
    out = []
    for i, l in enumerate(insn):
        m = re.search(r"<([^>+@]+)(@[^>]*)?>", l)
        e = re.search(r"\scall\s+\*(-?0x[0-9a-f]+)\(%ebx\)", l)
        if ((m and m.group(1) in HOOKS and re.search(r"\s(call|bl|blx)\S*\s", l))
                or (e and disp is not None and int(e.group(1), 16) == disp)) \
                and i + 1 < len(insn):
            out.append(int(insn[i + 1].split(":")[0], 16))
    return out


def read_tagged(d, w):
    """the histogram records and arcs of a GNU tagged gmon.out with
    w-byte addresses"""
    pos, hist, arcs = 20, [], []
    while pos < len(d):
        tag = d[pos]
        if tag == 0:
            n, = struct.unpack_from("<I", d, pos + 1 + 2 * w)
            size = 1 + 2 * w + 8 + 16 + 2 * n
            hist.append(d[pos:pos + size])
            pos += size
        elif tag == 1:
            fmt = "<QQI" if w == 8 else "<III"
            arcs.append(struct.unpack_from(fmt, d, pos + 1))
            pos += 1 + 2 * w + 4
        else:
            raise AssertionError("tag %d at %d" % (tag, pos))
    return hist, arcs


def write_tagged(path, w, arcs, hist=()):
    fmt = "<QQI" if w == 8 else "<III"
    with open(path, "wb") as f:
        f.write(b"gmon" + struct.pack("<I", 1) + bytes(12))
        for h in hist:
            f.write(h)
        for a in arcs:
            f.write(b"\1" + struct.pack(fmt, *a))


def misfit_arcs(gm, exe, arcs, rets):
    k = sum(1 for a in arcs if a[1] in set(rets))
    return ("profcat: %s: %d of %d call arcs (%.1f%%) return into a call to mcount in %s, "
            "where every arc of a capture it wrote does: the capture is from another build "
            "of the program: give the executable that wrote the capture, or --ignore-fit "
            "to report anyway\n" % (gm, k, len(arcs), 100.0 * k / len(arcs),
                                    os.path.basename(exe)))


def no_mcount(gm, exe, n):
    return ("profcat: %s: the capture has %d call arcs but %s calls no mcount, _mcount or "
            "__fentry__ (it was not built with -pg): the capture is from another program "
            "or build: give the executable that wrote the capture, or --ignore-fit to "
            "report anyway\n" % (gm, n, os.path.basename(exe)))


def native(tmp, label, cflags, w):
    """gcc -pg: run the program, then its gmon.out against itself, a
    rebuild and a build without -pg"""
    d = os.path.join(tmp, label)
    os.mkdir(d)
    extra = os.path.join(d, "extra.h")
    with open(extra, "w") as f:
        f.write(EXTRA)
    exe, re_exe, nopg = (os.path.join(d, n) for n in ("cg", "cg-rebuilt", "cg-nopg"))
    b = subprocess.run(["gcc", "-std=c11", "-O1", "-pg"] + cflags + ["-o", exe, SRC],
                       capture_output=True, text=True)
    if b.returncode:
        print("skip %s: gcc %s cannot build here: %s" % (label, " ".join(cflags),
                                                         b.stderr.strip()[:200]))
        return
    r = subprocess.run([exe, "1"], cwd=d, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    if r.returncode:
        print("skip %s: the program does not run here" % label)
        return
    subprocess.run(["gcc", "-std=c11", "-O1", "-pg"] + cflags + ["-include", extra, "-o",
                    re_exe, SRC], check=True)
    subprocess.run(["gcc", "-std=c11", "-O1"] + cflags + ["-o", nopg, SRC], check=True)
    gm = os.path.join(d, "gmon.out")
    hist, arcs = read_tagged(open(gm, "rb").read(), w)
    rets = hook_returns("objdump", exe)
    report(arcs and all(a[1] in set(rets) for a in arcs),
           "%s: objdump finds every arc's callee end after a call to mcount" % label,
           repr((arcs, rets)))
    rc, err = profcat(exe, gm)
    report((rc, err) == (0, ""), "%s: the program that wrote the capture fits it" % label,
           err)
    want = misfit_arcs(gm, re_exe, arcs, hook_returns("objdump", re_exe))
    rc, err = profcat(re_exe, gm)
    report((rc, err) == (1, want), "%s: a rebuilt program is refused" % label,
           "got %d %r\nwant %r" % (rc, err, want))
    rc, err = profcat("--ignore-fit", re_exe, gm)
    report(rc == 0 and err == "profcat: warning: " + want[len("profcat: "):].replace(
        ", or --ignore-fit to report anyway", ""),
        "%s: --ignore-fit reports it with a warning" % label, err)
    only = os.path.join(d, "arcs-only.out")
    write_tagged(only, w, arcs)
    rc, err = profcat(nopg, only)
    want = no_mcount(only, nopg, len(arcs))
    report((rc, err) == (1, want), "%s: a program without -pg is refused" % label,
           "got %d %r\nwant %r" % (rc, err, want))
    rc, err = profcat(exe, only)
    report((rc, err) == (0, ""), "%s: the arcs alone fit their program" % label, err)


FIRMWARE = r"""
volatile unsigned sink;
__attribute__((noinline)) unsigned leaf(unsigned x) { return x * 3 + 1; }
__attribute__((noinline)) unsigned mid(unsigned x) { return leaf(x) + leaf(x + 1); }
__attribute__((noinline)) unsigned top(unsigned x) { return mid(x) ^ mid(x >> 1); }
void _start(void) { for (;;) sink = top(sink); }
"""


def firmware(tmp, label, cc, hook_src, objdump, w):
    """a program with its own hook, and a gmon.out of one arc per hook
    call written here"""
    if not shutil.which(cc[0]) or not shutil.which(objdump):
        print("skip %s: %s or %s is not installed" % (label, cc[0], objdump))
        return
    d = os.path.join(tmp, label)
    os.mkdir(d)
    for name, pre in (("fw", ""), ("fw-rebuilt", EXTRA)):
        with open(os.path.join(d, name + ".c"), "w") as f:
            f.write(pre + FIRMWARE)
        with open(os.path.join(d, name + "-hook.c"), "w") as f:
            f.write(hook_src)
        # the hook itself is not profiled
        b = subprocess.run(cc + ["-c", "-o", os.path.join(d, name + "-hook.o"),
                                 os.path.join(d, name + "-hook.c")],
                           capture_output=True, text=True)
        if b.returncode == 0:
            b = subprocess.run(cc + ["-pg", "-o", os.path.join(d, name),
                                     os.path.join(d, name + ".c"),
                                     os.path.join(d, name + "-hook.o")],
                               capture_output=True, text=True)
        if b.returncode:
            print("skip %s: cannot build: %s" % (label, b.stderr.strip()[:200]))
            return
    exe, re_exe = os.path.join(d, "fw"), os.path.join(d, "fw-rebuilt")
    rets = hook_returns(objdump, exe)
    report(len(rets) >= 4, "%s: objdump finds the hook calls" % label, repr(rets))
    arcs = [(rets[(i + 1) % len(rets)] - 2, r, 10 + i) for i, r in enumerate(rets)]
    gm = os.path.join(d, "gmon.out")
    write_tagged(gm, w, arcs)
    rc, err = profcat(exe, gm)
    report((rc, err) == (0, ""), "%s: the program fits its arcs" % label, err)
    want = misfit_arcs(gm, re_exe, arcs, hook_returns(objdump, re_exe))
    rc, err = profcat(re_exe, gm)
    report((rc, err) == (1, want), "%s: a rebuilt program is refused" % label,
           "got %d %r\nwant %r" % (rc, err, want))


with tempfile.TemporaryDirectory() as tmp:
    if shutil.which("gcc") and shutil.which("objdump"):
        native(tmp, "x86-64", [], 8)
        native(tmp, "i386", ["-m32"], 4)
    else:
        print("skip x86-64, i386: gcc or objdump is not installed")
    firmware(tmp, "aarch64", ["clang", "--target=aarch64-linux-gnu", "-fuse-ld=lld", "-O1",
                              "-nostdlib", "-static", "-ffreestanding"],
             "void _mcount(void) {}\n", "llvm-objdump", 8)
    firmware(tmp, "arm", ["arm-none-eabi-gcc", "-marm", "-mcpu=arm7tdmi", "-O1", "-nostdlib"],
             "__attribute__((naked)) void __gnu_mcount_nc(void)\n"
             "{ __asm__(\"pop {lr}\\n\\tbx lr\"); }\n", "arm-none-eabi-objdump", 4)
    firmware(tmp, "thumb", ["arm-none-eabi-gcc", "-mthumb", "-mcpu=cortex-m4", "-O1",
                            "-nostdlib"],
             "__attribute__((naked)) void __gnu_mcount_nc(void)\n"
             "{ __asm__(\"pop {lr}\\n\\tbx lr\"); }\n", "arm-none-eabi-objdump", 4)
print("%d failures" % failures)
sys.exit(1 if failures else 0)
