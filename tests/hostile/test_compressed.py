#!/usr/bin/env python3
"""xz and zstd input (libprofcore/decomp.c), as gzip: files made here at
test time with Debian's xz and zstd tools.

- round trips: a QEMU trace (tests/qemu/fixtures/demo), a 2 MB PC-per-line
  trace, a gmon.out with its program and a raw PC dump, compressed with
  xz and zstd, read from the file and from a pipe, give the report of the
  uncompressed input (its exact totals checked too); so do several
  streams/frames concatenated (split at odd points, xz blocks of 64 KiB,
  xz stream padding, zstd skippable frames) and the multi-threaded forms
  (xz -T2, pzstd);
- truncated and corrupt streams: one line with the content offset reached,
  the compressed byte and what the library said, at places fixed by the
  format's layout (the stream footer, the index, the block's check, the
  frame checksum), not by how well the tool compressed;
- decompression bombs (1 GiB of zeros as 1024 concatenated streams/frames)
  behind an invalid header stop at the header's error, as the gzip bombs
  of tests/hostile/scale; a stream whose dictionary or window is over the
  limit is refused from its header;
- a build without liblzma or libzstd names the compression and what to do.
"""
import os
import struct
import shutil
import subprocess
import sys
import tempfile
import zlib

PROFCAT = os.environ["PROFCAT"]
SOURCE = os.environ["PC_SOURCE_ROOT"]
HAVE = {"xz": os.environ.get("PC_HAVE_XZ") == "1",
        "zstd": os.environ.get("PC_HAVE_ZSTD") == "1"}
HAVE_ELF = os.environ.get("PC_HAVE_ELF", "1") == "1"
SUFFIX = {"xz": "xz", "zstd": "zst"}
failures = []


def check(cond, what):
    print(("ok   " if cond else "FAIL ") + what)
    if not cond:
        failures.append(what)


def profcat(tmp, args, stdin=None):
    p = subprocess.run([PROFCAT, *args], cwd=tmp, capture_output=True,
                       input=stdin)
    return p.returncode, p.stdout.decode(errors="replace"), \
        p.stderr.decode(errors="replace")


def compress(tool, data, *opts):
    return subprocess.run([tool, "-c", "-q", *opts], input=data,
                          capture_output=True, check=True).stdout


def put(tmp, name, data):
    with open(os.path.join(tmp, name), "wb") as f:
        f.write(data)
    return name


def fixture(*p):
    return os.path.join(SOURCE, "tests", *p)


def pc_trace():
    """A gdb-style PC-per-line trace (the pc dialect) of 2 MB, and an nm
    listing with a symbol every 16 bytes."""
    lines = []
    for i in range(120000):
        lines.append("=> 0x%x <f>:\tnop\n" % (0x8000 + 4 * ((i * 7) % 300)))
    nm = "".join("%08x T f%d\n" % (0x8000 + 16 * k, k) for k in range(80))
    return "".join(lines).encode(), nm.encode()


def round_trips(tmp, tool):
    sfx = SUFFIX[tool]
    trace, nm = pc_trace()
    put(tmp, "pc.nm", nm)
    put(tmp, "pc.log", trace)
    cases = [("pc.log", ["pc.nm"], "Counts: 120000 total")]
    shutil.copy(fixture("raw", "w32le.pcs"), os.path.join(tmp, "w32le.pcs"))
    cases.append(("w32le.pcs", ["-f", "raw"], "Samples: 1004 total"))
    if HAVE_ELF:
        with open(fixture("qemu", "fixtures", "demo", "qemu.log.gz"), "rb") as f:
            put(tmp, "qemu.log", zlib.decompress(f.read(), 31))
        cases.append(("qemu.log", [fixture("qemu", "fixtures", "demo", "fw.elf")],
                      "Counts: 4332 total"))
        shutil.copy(fixture("unix", "fixtures", "x86_64-nopie", "gmon.out"),
                    os.path.join(tmp, "gmon.out"))
        cases.append(("gmon.out", [fixture("unix", "fixtures", "x86_64-nopie",
                                           "callgraph")], "Samples: 365 total"))
        # the program compressed: its symbols are read as gzip's are;
        # libdw would not read it (zstd) or read it whole (xz): refused
        prog = put(tmp, "callgraph." + sfx, compress(tool, open(fixture(
            "unix", "fixtures", "x86_64-nopie", "callgraph"), "rb").read()))
        rc, out, err = profcat(tmp, [prog, "gmon.out"])
        check(rc == 0 and "\nSamples: 365 total, 365 in the program, 0 outside\n" in out,
              "%s: symbols from the compressed program (exit %d, %r)" % (prog, rc, err))
        if os.environ.get("PC_HAVE_DWARF") == "1":
            rc, out, err = profcat(tmp, ["-r", "source", prog, "gmon.out"])
            check((rc, err) == (1, "profcat: %s:0: compressed with %s: decompress it "
                                   "first (un%s)\n" % (prog, tool, tool)),
                  "%s -r source: exit %d, %r" % (prog, rc, err))
    for name, pre, total in cases:
        with open(os.path.join(tmp, name), "rb") as f:
            plain = f.read()
        rc, want, err = profcat(tmp, pre + [name])
        check(rc == 0 and err == "" and ("\n" + total + ",") in want,
              "%s plain: exit %d, %s" % (name, rc, total))
        # one stream; several, split at odd points (xz: with 64 KiB blocks
        # and stream padding between; zstd: with skippable frames)
        one = compress(tool, plain)
        cuts = [0, len(plain) // 3 + 1, len(plain) * 2 // 3 + 5, len(plain)]
        parts = [plain[a:b] for a, b in zip(cuts, cuts[1:])]
        if tool == "xz":
            multi = b"".join(compress(tool, p, "--block-size=65536") + b"\0" * 8
                             for p in parts)
        else:
            skip = struct.pack("<II", 0x184D2A5E, 3) + b"abc"
            multi = skip + b"".join(compress(tool, p) + skip for p in parts)
        variants = [("one", one), ("multi", multi)]
        # the tools' multi-threaded forms: xz -T2 (independent blocks with
        # their sizes), pzstd (each frame after a skippable frame that
        # gives its size)
        if tool == "xz":
            variants.append(("T2", compress(tool, plain, "-T2", "--block-size=65536")))
        elif shutil.which("pzstd"):
            variants.append(("pzstd", subprocess.run(["pzstd", "-q", "-p", "2", "-c"], input=plain,
                                                     capture_output=True, check=True).stdout))
        for label, data in variants:
            z = put(tmp, "%s.%s.%s" % (name, label, sfx), data)
            rc, out, err = profcat(tmp, pre + [z])
            check((rc, err, out.replace(z, name)) == (0, "", want),
                  "%s %s %s: the same report (exit %d, %r)" % (name, tool, label, rc, err[:200]))
        rc, out, err = profcat(tmp, pre + ["-"], stdin=multi)
        check((rc, err, out.replace("<stdin>", name)) == (0, "", want),
              "%s %s from a pipe: the same report (exit %d, %r)" % (name, tool, rc, err[:200]))


def xz_layout(data):
    """(end of the block, index size) of a one-block .xz stream."""
    index = (struct.unpack("<I", data[-8:-4])[0] + 1) * 4
    return len(data) - 12 - index, index


def errors(tmp, tool):
    sfx = SUFFIX[tool]
    text = b"".join(b"0x%x\n" % (0x1000 + 4 * (i % 50)) for i in range(20000))
    n_text = len(text)   # 140000
    data = compress(tool, text, "-6" if tool == "xz" else "-3")
    n = len(data)

    def case(name, blob, want, args=("-f", "raw")):
        z = put(tmp, name, blob)
        rc, out, err = profcat(tmp, list(args) + [z])
        check((rc, err) == (1, "profcat: %s\n" % want % z),
              "%s: exit %d, %r" % (name, rc, err))

    if tool == "xz":
        end, index = xz_layout(data)
        case("cut-header.xz", data[:12],
             "%s:0: xz data ends before the end of the compressed stream (after 12 compressed bytes)")
        case("cut-footer.xz", data[:n - 12],
             "%%s:%d: xz data ends before the end of the compressed stream (after %d compressed bytes)"
             % (n_text, n - 12))
        b = bytearray(data)
        b[end - 1] ^= 1   # the block's check (CRC64)
        case("bad-check.xz", b,
             "%%s:%d: corrupt xz data at compressed byte %d: compressed data is corrupt"
             % (n_text, end))
        b = bytearray(data)
        b[end + index - 1] ^= 1   # the index's CRC32
        case("bad-index.xz", b,
             "%%s:%d: corrupt xz data at compressed byte %d: compressed data is corrupt"
             % (n_text, end + index))
        b = bytearray(data)
        b[7] ^= 1         # the stream flags (their CRC32 no longer matches)
        case("bad-header.xz", b,
             "%s:0: corrupt xz data at compressed byte 12: compressed data is corrupt")
        case("trailing.xz", data + b"garbage!",
             "%%s:%d: xz data ends before the end of the compressed stream (after %d compressed bytes)"
             % (n_text, n + 8))
        # the block header asks for a 1 GiB dictionary (its CRC32 fixed)
        b = bytearray(data)
        hs = (b[12] + 1) * 4
        check(b[14] == 0x21 and b[15] == 1, "xz block header: one LZMA2 filter")
        b[16] = 36
        b[12 + hs - 4:12 + hs] = struct.pack("<I", zlib.crc32(bytes(b[12:12 + hs - 4])))
        case("dict-1g.xz", b,
             "%%s:0: xz data at compressed byte %d needs 1025 MiB of memory to "
             "decompress, over the limit of 256 MiB: decompress it first with "
             "xz -dc (a pipe will do)" % (12 + hs))
        case("empty.xz", compress(tool, b""), "%s:0: empty file", args=())
    else:
        case("cut-magic.zst", data[:4],
             "%s:0: zstd data ends before the end of the compressed stream (after 4 compressed bytes)")
        case("cut-checksum.zst", data[:n - 4],
             "%%s:%d: zstd data ends before the end of the compressed stream (after %d compressed bytes)"
             % (n_text, n - 4))
        b = bytearray(data)
        b[-1] ^= 1        # the frame's checksum
        case("bad-checksum.zst", b,
             "%s:65536: corrupt zstd data in the frame at compressed byte 0: restored data doesn't match checksum")
        b = bytearray(data)
        b[4] |= 0x08      # a reserved bit of the frame header
        case("bad-header.zst", b,
             "%s:0: corrupt zstd data in the frame at compressed byte 0: unsupported frame parameter")
        case("second-bad.zst", data + b,
             "%%s:%d: corrupt zstd data in the frame at compressed byte %d: unsupported frame parameter"
             % (n_text, n))
        case("trailing.zst", data + b"garbage!",
             "%%s:%d: corrupt zstd data in the frame at compressed byte %d: unknown frame descriptor"
             % (n_text, n))
        # a frame (content size unknown: from a pipe) whose window
        # descriptor asks for 256 MiB
        b = bytearray(compress(tool, text[:7000]))
        check(b[4] & 0x20 == 0, "zstd frame header: a window descriptor")
        b[5] = 18 << 3
        case("window-256m.zst", b,
             "%s:0: zstd frame at compressed byte 0 needs a window over the "
             "limit of 128 MiB (zstd -dc's default): decompress it first with "
             "zstd -dc --long=31 (a pipe will do)")
        case("empty.zst", compress(tool, b""), "%s:0: empty file", args=())
        case("skippable.zst", struct.pack("<II", 0x184D2A50, 2) + b"hi",
             "%s:0: empty file", args=())
    # the bombs of tests/hostile/scale: 1 GiB of zeros behind a gmon.out
    # header whose histogram record claims 0 bins, and 1 GiB of zeros alone
    zeros = compress(tool, bytes(1 << 20))
    bad = (b"gmon" + struct.pack("<I", 1) + b"\0" * 12 + b"\0" +
           struct.pack("<QQII", 0x1000, 0x2000, 0, 100) +
           b"seconds".ljust(15, b"\0") + b"s")
    bomb = compress(tool, bad) + zeros * 1024
    case("bomb-gmon." + sfx, bomb, "%s:37: histogram record has 0 bins", args=())
    case("bomb-zeros." + sfx, zeros * 1024, '%s:0: expected magic "PCMRPROF"',
         args=("-f", "osf"))
    case("bomb-zeros." + sfx, zeros * 1024,
         "%s:16: header and histogram size 0 is smaller than the 20-byte header",
         args=("-f", "gmon"))


def without(tmp, tool):
    """A build without the library: the input is named, not guessed at."""
    magic = b"\xfd7zXZ\0" if tool == "xz" else b"\x28\xb5\x2f\xfd"
    z = put(tmp, "plain." + SUFFIX[tool], magic + bytes(64))
    lib = "liblzma" if tool == "xz" else "libzstd"
    want = ("profcat: %s:0: %s-compressed input, and this build of libprofcore "
            "has no %s support (%s): decompress it first with %s -dc (a pipe "
            "will do)\n" % (z, tool, tool, lib, tool))
    for args in ([z], ["-f", "raw", z]):
        rc, out, err = profcat(tmp, args)
        check((rc, err) == (1, want), "%s without %s: exit %d, %r" % (" ".join(args), lib, rc, err))


def main():
    ran = 0
    for tool in ("xz", "zstd"):
        tmp = tempfile.mkdtemp(prefix="pc-%s-" % tool)
        try:
            if not HAVE[tool]:
                without(tmp, tool)
                print("note: built without %s support: only its refusal is tested" % tool)
                ran += 1
            elif shutil.which(tool) is None:
                print("note: no %s tool (scripts/deps.sh installs it): %s skipped" % (tool, tool))
            else:
                round_trips(tmp, tool)
                errors(tmp, tool)
                ran += 1
        finally:
            shutil.rmtree(tmp, ignore_errors=True)
    if failures:
        print("%d failure(s)" % len(failures))
        return 1
    if not ran:
        print("SKIP: neither the xz nor the zstd tool is installed (scripts/deps.sh)")
        return 77
    return 0


if __name__ == "__main__":
    sys.exit(main())
