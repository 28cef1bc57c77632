#!/usr/bin/env python3
"""Big seeds for the fuzzers (up to 1 MB) (scripts/fuzz.sh runs this; nothing it
writes is committed):

    fuzz/gen_seeds.py OUTDIR

  gmon-hist5k.gmon     GNU tagged gmon.out (64-bit LE): 5,000 histogram
                       records of 4 bins over disjoint ranges (~0.25 MB)
  gmon-chain10k.gmon   one histogram and 10,000 call arcs: a chain
                       f0 -> f1 -> ... closed into one cycle (~0.22 MB)
  bsd-chain.gmon       the same chain as a 4.4BSD gmon.out (raw arcs)
  raw-1m.raw           262,144 big-endian 32-bit PCs (1 MB), loop-like
  grow-NAME            text fixtures under tests/*/fixtures and the
                       malformed corpus (below 64 KB; the first two of each
                       text extension: .nm .map .hatari ...) with
                       their body lines repeated to ~1 MB
  long-NAME            the same fixture with its longest body line grown
                       to 256 KB
  gnu-ld-1m.map        the GNU ld map of tests/dos/fixtures/gnumap grown
                       to ~1 MB (its dialect's expressions on every line)
  z-NAME.{gz,xz,zst}   a gmon.out, a text PC dump and a QEMU log compressed
                       (the stream's decoders, libprofcore/decomp.c): gzip
                       and xz from Python's modules, zstd from the zstd
                       tool where installed; also as two concatenated
                       streams (xz: 1 KiB blocks) and cut short

Deterministic (no randomness): the seeds are the same on every run.
"""
import gzip
import lzma
import os
import shutil
import struct
import subprocess
import sys

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
MB = 1 << 20
# text inputs of the loaders (maps, nm, Hatari, Proff, text PC dumps,
# dialects, symbol listings)
TEXT_KINDS = (".nm", ".map", ".hatari", ".proff", ".pcs", ".raw", ".txt",
              ".yaml", ".lst")


def tagged_header():
    return b"gmon" + struct.pack("<I", 1) + b"\0" * 12


def hist_record(low, high, bins, counts):
    return (b"\0" + struct.pack("<QQII", low, high, bins, 100) +
            b"seconds".ljust(15, b"\0") + b"s" +
            struct.pack("<%dH" % bins, *counts))


def arc_record(frm, to, count):
    return b"\1" + struct.pack("<QQI", frm, to, count)


def gmon_hist(n):
    out = [tagged_header()]
    for i in range(n):
        low = 0x400000 + i * 16
        out.append(hist_record(low, low + 16, 4, [1 + i % 3, 0, i % 2, 1]))
    return b"".join(out)


def gmon_chain(n, base=0x400000, step=32):
    out = [tagged_header(),
           hist_record(base, base + n * step, 4096,
                       [(i * 7) % 5 for i in range(4096)])]
    for i in range(n - 1):
        out.append(arc_record(base + i * step + 4, base + (i + 1) * step,
                              1 + i % 5))
    out.append(arc_record(base + (n - 1) * step + 4, base + step, 1))
    return b"".join(out)


def bsd_chain(n, base=0x10000, step=32):
    """4.4BSD: lowpc, highpc, ncnt, version, rate, spare[3]; then counters,
    then raw arcs (from, self, count), 32-bit little-endian."""
    nb = 1024
    hdr = struct.pack("<IIIIIIII", base, base + n * step, 32 + 2 * nb,
                      0x00051879, 100, 0, 0, 0)
    counts = struct.pack("<%dH" % nb, *[i % 9 for i in range(nb)])
    arcs = b"".join(struct.pack("<III", base + i * step + 4,
                                base + (i + 1) * step, 1 + i % 3)
                    for i in range(n - 1))
    return hdr + counts + arcs


def raw_loops(n):
    """PCs of nested loops: mostly short backward runs (realistic
    locality), big-endian 32-bit as the raw fuzzer reads them."""
    pcs = []
    pc = 0x1000
    while len(pcs) < n:
        for _ in range(8):
            for k in range(6):
                pcs.append(pc + 2 * k)
        pc = 0x1000 + (pc + 0x40 - 0x1000) % 0x8000
    return struct.pack(">%dI" % n, *pcs[:n])


def is_text(data):
    return b"\0" not in data and data.count(b"\n") >= 3


def grow(data, target):
    lines = data.split(b"\n")
    head, body = lines[:3], [x for x in lines[3:] if x]
    if not body:
        return None
    out = list(head)
    size = sum(len(x) + 1 for x in out)
    while size < target:
        for x in body:
            out.append(x)
            size += len(x) + 1
    return b"\n".join(out) + b"\n"


def long_line(data, length):
    lines = data.split(b"\n")
    if len(lines) < 4:
        return None
    i = max(range(3, len(lines)), key=lambda k: len(lines[k]))
    x = lines[i]
    if not x:
        return None
    lines[i] = (x * (length // len(x) + 1))[:length]
    return b"\n".join(lines)


def compressed(put, tests):
    """gzip, xz and zstd forms of three fixtures: whole, two streams one
    after the other, and cut short."""
    for rel in (("unix", "fixtures", "x86_64-nopie", "gmon.out"),
                ("raw", "hex.txt"), ("qemu", "fixtures", "order.log")):
        with open(os.path.join(tests, *rel), "rb") as fh:
            data = fh.read()
        half = len(data) // 2
        forms = {"gz": lambda d: gzip.compress(d, 6, mtime=0),
                 "xz": lambda d: lzma.compress(d, lzma.FORMAT_XZ, lzma.CHECK_CRC32, filters=[
                     {"id": lzma.FILTER_LZMA2, "preset": 6, "dict_size": 1 << 16}])}
        if shutil.which("zstd"):
            forms["zst"] = lambda d: subprocess.run(["zstd", "-c", "-q"], input=d,
                                                    capture_output=True, check=True).stdout
        for ext, z in forms.items():
            whole = z(data)
            put("z-%s.%s" % (rel[-1], ext), whole)
            put("z-%s-two.%s" % (rel[-1], ext), z(data[:half]) + z(data[half:]))
            put("z-%s-cut.%s" % (rel[-1], ext), whole[:len(whole) * 2 // 3])


def main(outdir):
    os.makedirs(outdir, exist_ok=True)

    def put(name, data):
        with open(os.path.join(outdir, "gen-" + name), "wb") as f:
            f.write(data)

    # (every report in three formats runs over each: 40,000 arcs and
    # 20,000 histograms ran 1-2.9 s under ASan at load 16, 10,000 and
    # 5,000 stay well under the 1 s limit)
    put("gmon-hist5k.gmon", gmon_hist(5000))
    put("gmon-chain10k.gmon", gmon_chain(10000))
    put("bsd-chain.gmon", bsd_chain(10000))
    put("raw-1m.raw", raw_loops(MB // 4))
    tests = os.path.join(ROOT, "tests")
    with open(os.path.join(tests, "dos", "fixtures", "gnumap", "prog.map"), "rb") as fh:
        put("gnu-ld-1m.map", grow(fh.read(), MB))
    compressed(put, tests)
    per_kind = {}  # at most two fixtures of each file name extension
    for top, _, files in sorted(os.walk(tests)):
        t = top.replace(os.sep, "/")
        if "/fixtures" not in t and not t.endswith("/malformed/files"):
            continue
        # valid files first (the malformed corpus names them so)
        for f in sorted(files, key=lambda x: ("valid" not in x, x)):
            path = os.path.join(top, f)
            if os.path.getsize(path) >= 64 * 1024:
                continue
            with open(path, "rb") as fh:
                data = fh.read()
            if not is_text(data):
                continue
            kind = os.path.splitext(f)[1].lower()
            if kind not in TEXT_KINDS:
                continue
            per_kind[kind] = per_kind.get(kind, 0) + 1
            if per_kind[kind] > 2:
                continue
            tag = os.path.relpath(path, tests).replace(os.sep, "_")
            g = grow(data, MB)
            if g:
                put("grow-" + tag, g)
            lo = long_line(data, 256 * 1024)
            if lo:
                put("long-" + tag, lo)


if __name__ == "__main__":
    main(sys.argv[1])
