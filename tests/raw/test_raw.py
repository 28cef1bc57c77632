#!/usr/bin/env python3
"""Raw PC dumps end to end: every layout gives the exact same counts, the
DDJ Figure 2 shape (weights 1..15, PA_BOT_MEM), exact error messages."""
import csv
import gzip
import io
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

PROFCAT = os.environ["PROFCAT"]
ROOT = os.environ["PC_SOURCE_ROOT"]
HERE = os.path.join(ROOT, "tests", "raw")
ELF = "ddj68k.elf"
sys.path.insert(0, HERE)
import gen_fixtures  # noqa: E402  (the truth the fixtures were made from)

EXPECTED = gen_fixtures.expected()
REGIONS = ["-O", "origin=0x1000", "-O", "program-end=0x1400"]
# layout files need libyaml (meson -Dyaml=disabled builds without it)
NO_YAML = os.environ.get("PC_HAVE_YAML") == "0"


def run(*args, stdin=None):
    # relative names, so that messages and report headers are stable
    p = subprocess.run([PROFCAT, *args], capture_output=True, input=stdin, cwd=HERE)
    return p.returncode, p.stdout.decode(), p.stderr.decode()


def fx(name):
    """A fixture as named on profcat's command line (run in HERE)."""
    return name


def path(name):
    return os.path.join(HERE, name)


class Layouts(unittest.TestCase):
    def counts(self, *args, stdin=None):
        rc, out, err = run("-F", "csv", ELF, *args, stdin=stdin)
        self.assertEqual(rc, 0, err)
        rows = list(csv.DictReader(io.StringIO(out)))
        # symbol rows only; "[total]" and the like are summary rows
        return {r["symbol"]: float(r["count"]) for r in rows
                if not r["symbol"].startswith("[")}

    def check(self, *args, stdin=None):
        self.assertEqual(self.counts(*args, stdin=stdin), EXPECTED)

    def test_w16_little(self):
        self.check("-f", "raw", "-O", "width=16", fx("w16le.pcs"))

    def test_w16_big(self):
        self.check("-f", "raw", "-O", "width=16", "-O", "endian=big", fx("w16be.pcs"))

    def test_w24_little(self):
        self.check("-f", "raw", "-O", "width=24", fx("w24le.pcs"))

    def test_w24_big(self):
        self.check("-f", "raw", "-O", "width=24", "-O", "endian=big", fx("w24be.pcs"))

    def test_w32_little_is_the_default(self):
        self.check("-f", "raw", fx("w32le.pcs"))

    def test_w32_big(self):
        self.check("-f", "raw", "-O", "endian=big", fx("w32be.pcs"))

    def test_width_in_bytes_as_for_gmon(self):
        self.check("-f", "raw", "-O", "width=4", "-O", "endian=big", fx("w32be.pcs"))

    def test_w64_little(self):
        self.check("-f", "raw", "-O", "width=64", fx("w64le.pcs"))

    def test_w64_big(self):
        self.check("-f", "raw", "-O", "width=64", "-O", "endian=big", fx("w64be.pcs"))

    def test_mask_24_bit_bus(self):
        self.check("-f", "raw", "-O", "endian=big", "-O", "mask=0xffffff",
                   fx("mask24.pcs"))

    def test_without_mask_the_high_byte_misses(self):
        # refused: the samples do not fit the program (README "Attribution
        # rules", rule 9) ...
        rc, out, err = run("-F", "csv", ELF, "-f", "raw", "-O", "endian=big", fx("mask24.pcs"))
        self.assertEqual((rc, out), (1, ""))
        self.assertIn(": 0 of 1004 samples (0.0%) fall in the code of ddj68k.elf "
                      "(0x1000-0x1400): the capture does not fit the program; ", err)
        # ... and with --ignore-fit, 0xa5xxxxxx lies above every symbol
        c = self.counts("--ignore-fit", "-f", "raw", "-O", "endian=big", fx("mask24.pcs"))
        self.assertEqual(c, {})

    def test_ip_cs_pairs(self):
        self.check("-f", "raw", "-O", "pair=ip:cs", fx("ipcs.pcs"))

    def test_cs_ip_pairs(self):
        self.check("-f", "raw", "-O", "pair=cs:ip", fx("csip.pcs"))

    def test_pairs_in_the_wrong_order_differ(self):
        self.assertNotEqual(self.counts("--ignore-fit", "-f", "raw", "-O", "pair=cs:ip",
                                        fx("ipcs.pcs")),
                            EXPECTED)

    def test_stride_offset_skip(self):
        self.check("-f", "raw", "-O", "skip=16", "-O", "stride=12", "-O", "offset=4",
                   "-O", "endian=big", fx("stride.pcs"))

    @unittest.skipIf(NO_YAML, "built without YAML support")
    def test_yaml_layout(self):
        self.check("-f", "raw", "-O", "layout=" + fx("stride.yaml"), fx("stride.pcs"))

    @unittest.skipIf(NO_YAML, "built without YAML support")
    def test_option_overrides_yaml(self):
        # stride.yaml says big endian; -O endian=little must win
        c = self.counts("-f", "raw", "-O", "layout=" + fx("stride.yaml"),
                        "-O", "endian=little", fx("stride.pcs"))
        self.assertNotEqual(c, EXPECTED)

    def test_hex_text_detected(self):
        self.check(fx("hex.txt"))

    def test_decimal_text(self):
        self.check("-f", "raw", "-O", "radix=10", fx("dec.txt"))

    def test_gzip(self):
        with open(path("w32le.pcs"), "rb") as f:
            data = gzip.compress(f.read(), mtime=0)
        tmp = tempfile.mkdtemp()
        try:
            gz = os.path.join(tmp, "w32le.pcs.gz")  # absolute: cwd is HERE
            with open(gz, "wb") as f:
                f.write(data)
            self.check("-f", "raw", gz)
        finally:
            shutil.rmtree(tmp)

    def test_stdin_pipe(self):
        with open(path("w32be.pcs"), "rb") as f:
            self.check("-f", "raw", "-O", "endian=big", "-", stdin=f.read())


class LargeDumps(unittest.TestCase):
    """Dumps of more than 1 MiB are read through a memory-mapped window
    (zero copy) and counted per cell above 131,072 distinct addresses,
    split across threads: the same counts as a pipe or gzip (read and
    copied), with any stride, offset and header, on 1 or 2 threads."""
    N = 750_000  # odd.pcs: 4.5 MB, so its second window is not page-aligned
    BASE = 0x100000
    SPAN = 1 << 20

    @classmethod
    def setUpClass(cls):
        import bisect
        import random
        import struct
        rnd = random.Random(7)
        cls.tmp = tempfile.mkdtemp()
        starts = sorted(rnd.sample(range(cls.BASE, cls.BASE + cls.SPAN), 3000))
        starts[0] = cls.BASE
        names = ["fn_%04d" % i for i in range(len(starts))]
        cls.nm = os.path.join(cls.tmp, "syms.nm")
        with open(cls.nm, "w") as f:
            for a, n in zip(starts, names):
                f.write("%016x T %s\n" % (a, n))
            f.write("%016x T _end\n" % (cls.BASE + cls.SPAN))
        pcs = [rnd.randrange(cls.BASE, cls.BASE + cls.SPAN) for _ in range(cls.N)]
        cls.expected = {}
        for a in pcs:
            n = names[bisect.bisect_right(starts, a) - 1]
            cls.expected[n] = cls.expected.get(n, 0) + 1
        cls.le32 = os.path.join(cls.tmp, "le32.pcs")
        with open(cls.le32, "wb") as f:
            f.write(b"".join(struct.pack("<I", a) for a in pcs))
        # big-endian PC at offset 1 of 6-byte records, after a 3-byte
        # header: records straddle the stream's buffer, windows are not
        # page-aligned
        cls.odd = os.path.join(cls.tmp, "odd.pcs")
        with open(cls.odd, "wb") as f:
            f.write(b"HDR" + b"".join(b"\xaa" + struct.pack(">I", a) + b"\xbb"
                                      for a in pcs))
        cls.odd_opts = ["-O", "endian=big", "-O", "stride=6", "-O", "offset=1",
                        "-O", "skip=3"]

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp)

    def counts(self, *args, stdin=None, threads=None):
        env = dict(os.environ)
        if threads:
            env["PROFCORE_THREADS"] = str(threads)
        p = subprocess.run([PROFCAT, "-F", "csv", self.nm, "-f", "raw", *args],
                           capture_output=True, input=stdin, env=env)
        self.assertEqual(p.returncode, 0, p.stderr.decode())
        rows = csv.DictReader(io.StringIO(p.stdout.decode()))
        return {r["symbol"]: int(float(r["count"])) for r in rows
                if not r["symbol"].startswith("[")}

    def test_mapped_file_one_and_two_threads(self):
        self.assertGreater(os.path.getsize(self.le32), 1 << 20)
        self.assertEqual(self.counts(self.le32, threads=1), self.expected)
        self.assertEqual(self.counts(self.le32, threads=2), self.expected)

    def test_trailing_partial_record_after_threaded_part(self):
        # the records after the first 131,072 distinct addresses are mapped
        # and counted by both threads; the 2 bytes after them are still an
        # error with their exact offset, mapped or piped
        cut = os.path.join(self.tmp, "cut.pcs")
        with open(self.odd, "rb") as f:
            data = f.read() + b"\x01\x02"
        with open(cut, "wb") as f:
            f.write(data)
        msg = ("trailing partial record: 2 bytes left after %d records of 6 bytes"
               % self.N)
        for stdin, name, shown in ((None, cut, cut), (data, "-", "<stdin>")):
            env = dict(os.environ, PROFCORE_THREADS="2")
            p = subprocess.run([PROFCAT, self.nm, "-f", "raw", *self.odd_opts, name],
                               capture_output=True, input=stdin, env=env)
            self.assertEqual(p.returncode, 1)
            self.assertEqual(p.stdout, b"")
            self.assertEqual(p.stderr.decode(), "profcat: %s:%d: %s\n"
                             % (shown, 3 + 6 * self.N, msg))

    def test_pipe_and_gzip_are_read_not_mapped(self):
        with open(self.le32, "rb") as f:
            data = f.read()
        self.assertEqual(self.counts("-", stdin=data, threads=2), self.expected)
        gz = self.le32 + ".gz"
        with open(gz, "wb") as f:
            f.write(gzip.compress(data, compresslevel=1, mtime=0))
        self.assertEqual(self.counts(gz, threads=2), self.expected)

    def test_masked_records_mapped_one_and_two_threads(self):
        # a high byte the mask drops (a 24-bit bus): the 32-bit loops with
        # the AND, both byte orders (without a mask they have loops of
        # their own)
        import struct
        for order, opts in (("<", []), (">", ["-O", "endian=big"])):
            m = os.path.join(self.tmp, "mask%s.pcs" % ("le" if order == "<" else "be"))
            with open(self.le32, "rb") as f:
                pcs = struct.unpack("<%dI" % self.N, f.read())
            with open(m, "wb") as f:
                f.write(struct.pack("%s%dI" % (order, self.N),
                                    *(a | 0xA5000000 for a in pcs)))
            for threads in (1, 2):
                self.assertEqual(self.counts(*opts, "-O", "mask=0xffffff", m,
                                             threads=threads), self.expected)

    def test_stride_offset_header_mapped_and_piped(self):
        self.assertEqual(self.counts(*self.odd_opts, self.odd, threads=1),
                         self.expected)
        self.assertEqual(self.counts(*self.odd_opts, self.odd, threads=2),
                         self.expected)
        with open(self.odd, "rb") as f:
            self.assertEqual(self.counts(*self.odd_opts, "-", stdin=f.read()),
                             self.expected)

    def test_no_intervals_report_without_per_address_samples(self):
        p = subprocess.run([PROFCAT, self.nm, "-f", "raw", self.le32, "-r",
                            "intervals", "--interval", "fn_0001"],
                           capture_output=True)
        self.assertEqual((p.returncode, p.stdout), (1, b""))
        self.assertEqual(p.stderr.decode(),
                         "profcat: the intervals report needs samples per address, "
                         "but this capture has more than 131072 distinct addresses "
                         "and was counted per interval between symbols\n")

    def test_partial_record_at_the_end_of_a_large_pipe(self):
        with open(self.le32, "rb") as f:
            data = f.read() + b"\x01\x02"
        p = subprocess.run([PROFCAT, self.nm, "-f", "raw", "-"],
                           capture_output=True, input=data)
        self.assertEqual(p.returncode, 1)
        self.assertEqual(p.stderr.decode(),
                         "profcat: <stdin>:3000000: trailing partial record: "
                         "2 bytes left after 750000 records of 4 bytes\n")


class Regions(unittest.TestCase):
    def test_totals_line(self):
        rc, out, err = run(ELF, "-f", "raw", "-O", "endian=big", *REGIONS, fx("w32be.pcs"))
        self.assertEqual(rc, 0, err)
        self.assertIn("Samples: 1004 total, 976 in the program, 28 outside (high 4, low 24)\n",
                      out)

    def test_named_regions(self):
        rc, out, err = run(ELF, "-f", "raw", "-O", "endian=big",
                           "-O", "regions=0-1000:io:BIOS,1400-2000:system:ROM",
                           fx("w32be.pcs"))
        self.assertEqual(rc, 0, err)
        self.assertIn("Samples: 1004 total, 976 in the program, 28 outside (system 4, io 24)\n",
                      out)

    def test_ddj_figure2_flat_golden(self):
        rc, out, err = run(ELF, "-f", "raw", "-O", "endian=big", *REGIONS, fx("w32be.pcs"))
        self.assertEqual(rc, 0, err)
        with open(path("ddj_fig2.flat.txt")) as f:
            self.assertEqual(out, f.read())


    def test_ddj_figure2_module_table_golden(self):
        # weights 1..15 and the PA_BOT_MEM row, in pamsdos's layout
        rc, out, err = run("--style", "ddj", ELF, "-f", "raw", "-O", "endian=big", *REGIONS,
                           fx("w32be.pcs"))
        self.assertEqual(rc, 0, err)
        with open(path("ddj_fig2.ddj.txt")) as f:
            self.assertEqual(out, f.read())
        self.assertIn("\nPA_BOT_MEM       24       2  ****\n", out)


class Errors(unittest.TestCase):
    def fails(self, args, code, message, stdin=None):
        rc, out, err = run(*args, stdin=stdin)
        self.assertEqual((rc, err), (code, message))
        self.assertEqual(out, "")

    def test_partial_record(self):
        p = fx("partial.pcs")
        self.fails([ELF, "-f", "raw", p], 1,
                   "profcat: %s:400: trailing partial record: 3 bytes left after "
                   "100 records of 4 bytes\n" % p)

    def test_partial_record_through_a_pipe(self):
        with open(path("partial.pcs"), "rb") as f:
            data = f.read()
        self.fails([ELF, "-f", "raw", "-"], 1,
                   "profcat: <stdin>:400: trailing partial record: 3 bytes left after "
                   "100 records of 4 bytes\n", stdin=data)

    def test_partial_stride_record(self):
        p = fx("stride.pcs")
        self.fails([ELF, "-f", "raw", "-O", "skip=16", "-O", "stride=10", p], 1,
                   "profcat: %s:12056: trailing partial record: 8 bytes left after "
                   "1204 records of 10 bytes\n" % p)

    def test_bad_text_line(self):
        p = fx("badline.txt")
        self.fails([ELF, "-f", "raw", p], 1,
                   "profcat: %s:137: line 9: expected one address per line, "
                   "found '0x1040 0x1044'\n" % p)

    def test_bad_hex_digit(self):
        p = fx("badhex.txt")
        self.fails([ELF, "-f", "raw", p], 1,
                   "profcat: %s:103: line 6: expected a hex address or seg:off, "
                   "found '0x10zz'\n" % p)

    # A dump without one sample is an error, never an empty report.
    EMPTY = "empty file: expected raw PC records, found 0 bytes"
    NO_TEXT = ("no samples: expected raw PC values, one a line, found only "
               "comments and blank lines")

    def test_empty_file(self):
        tmp = tempfile.mkdtemp()
        try:
            e = os.path.join(tmp, "empty.pcs")  # absolute: cwd is HERE
            open(e, "wb").close()
            for opts in ([], ["-O", "encoding=binary"], ["-O", "encoding=text"],
                         ["-O", "radix=10"], ["-O", "skip=16"]):
                self.fails([ELF, "-f", "raw", *opts, e], 1,
                           "profcat: %s:0: %s\n" % (e, self.EMPTY))
        finally:
            shutil.rmtree(tmp)

    def test_empty_pipe_and_empty_gzip(self):
        self.fails([ELF, "-f", "raw", "-"], 1,
                   "profcat: <stdin>:0: %s\n" % self.EMPTY, stdin=b"")
        gz = gzip.compress(b"", mtime=0)
        self.fails([ELF, "-f", "raw", "-"], 1,
                   "profcat: <stdin>:0: %s\n" % self.EMPTY, stdin=gz)
        tmp = tempfile.mkdtemp()
        try:
            g = os.path.join(tmp, "empty.pcs.gz")
            with open(g, "wb") as f:
                f.write(gz)
            self.fails([ELF, "-f", "raw", g], 1, "profcat: %s:0: %s\n" % (g, self.EMPTY))
        finally:
            shutil.rmtree(tmp)

    def test_layout_mistakes_come_before_the_empty_file(self):
        self.fails([ELF, "-f", "raw", "-O", "regions=0-1000:rom", "-"], 2,
                   "profcat: <stdin>: regions: unknown class 'rom' (application, "
                   "system, dos, io, high, low, library, kernel, unknown, sleep)\n", stdin=b"")

    def test_text_of_comments_only(self):
        text = b"# ES 1800 upload\n; nothing recorded\n\n   \t\n"
        for opts in ([], ["-O", "encoding=text"], ["-O", "radix=10"]):
            self.fails([ELF, "-f", "raw", *opts, "-"], 1,
                       "profcat: <stdin>:%d: %s\n" % (len(text), self.NO_TEXT),
                       stdin=text)
        # a single blank line is no sample either
        self.fails([ELF, "-f", "raw", "-"], 1,
                   "profcat: <stdin>:1: %s\n" % self.NO_TEXT, stdin=b"\n")

    def test_header_without_records(self):
        with open(path("stride.pcs"), "rb") as f:
            hdr = f.read(16)
        want = ("no samples: expected raw PC records after the 16-byte header "
                "(skip), found none")
        self.fails([ELF, "-f", "raw", "-O", "skip=16", "-"], 1,
                   "profcat: <stdin>:16: %s\n" % want, stdin=hdr)
        tmp = tempfile.mkdtemp()
        try:
            h = os.path.join(tmp, "hdr.pcs")
            with open(h, "wb") as f:
                f.write(hdr)
            self.fails([ELF, "-f", "raw", "-O", "skip=16", h], 1,
                       "profcat: %s:16: %s\n" % (h, want))
        finally:
            shutil.rmtree(tmp)

    def test_one_sample_is_enough(self):
        rc, out, err = run(ELF, "-F", "csv", "-f", "raw", "-O", "radix=16", "-",
                           stdin=b"# one\n1000\n")
        self.assertEqual((rc, err), (0, ""))
        self.assertIn("\n,[total],1,", out)

    def test_one_unmistakable_line_is_enough_when_named(self):
        # -f raw: one 0x.., $.. or seg:off line says the file is hex (the
        # plain line is then hex too); detection still wants two
        for text, total in ((b"# one\n0x1000\n", 1), (b"$1000\n", 1),
                            (b"0100:0000\n1000\n", 2)):
            rc, out, err = run(ELF, "-F", "csv", "-f", "raw", "-", stdin=text)
            self.assertEqual((rc, err), (0, ""), text)
            self.assertIn("\n,[total],%d," % total, out)
        rc, out, err = run(ELF, "-", stdin=b"0x1000\n")
        self.assertEqual(rc, 1)
        self.assertIn("unrecognised file format", err)

    def test_bad_lines_are_not_detected_as_raw(self):
        rc, out, err = run(ELF, fx("badline.txt"))
        self.assertEqual(rc, 1)
        self.assertIn("unrecognised file format", err)

    def test_decimal_or_hex_is_ambiguous(self):
        p = fx("dec.txt")
        self.fails([ELF, "-f", "raw", p], 1,
                   "profcat: %s:0: the addresses could be decimal or hex (none has 0x, $, "
                   "seg:off or a digit a-f in the first 4 KiB): give the option radix=10 or "
                   "radix=16 (-O KEY=VALUE)\n" % p)

    def test_binary_dumps_are_never_guessed(self):
        rc, out, err = run(ELF, fx("w32le.pcs"))
        self.assertEqual(rc, 1)
        self.assertIn("unrecognised file format", err)

    @unittest.skipUnless(NO_YAML, "built with YAML support")
    def test_layout_without_yaml(self):
        p = fx("w32le.pcs")
        self.fails([ELF, "-f", "raw", "-O", "layout=" + fx("stride.yaml"), p], 1,
                   "profcat: %s: layout %s: this profcore was built without YAML "
                   "support; give the layout as -O options\n" % (p, fx("stride.yaml")))

    @unittest.skipIf(NO_YAML, "built without YAML support")
    def test_unknown_yaml_key(self):
        p = fx("w32le.pcs")
        self.fails([ELF, "-f", "raw", "-O", "layout=" + fx("badkey.yaml"), p], 1,
                   "profcat: %s: layout %s:2: unknown layout key 'segment'\n"
                   % (p, fx("badkey.yaml")))

    def test_bad_width(self):
        p = fx("w32le.pcs")
        self.fails([ELF, "-f", "raw", "-O", "width=12", p], 2,
                   "profcat: %s: width must be 16, 24, 32 or 64 (bits), not '12'\n" % p)

    def test_field_outside_record(self):
        p = fx("w32le.pcs")
        self.fails([ELF, "-f", "raw", "-O", "stride=4", "-O", "offset=2", p], 2,
                   "profcat: %s: a 4-byte PC at offset 2 does not fit a 4-byte record\n" % p)

    def test_bad_region(self):
        p = fx("w32le.pcs")
        self.fails([ELF, "-f", "raw", "-O", "regions=0-1000:rom", p], 2,
                   "profcat: %s: regions: unknown class 'rom' (application, system, dos, "
                   "io, high, low, library, kernel, unknown, sleep)\n" % p)


class RowOrder(unittest.TestCase):
    """Many rows with equal counts (report rows are sorted by a radix sort
    of their counts, then each run of equal counts by name): the flat
    report's order is count, most first, then the raw name; the DDJ
    style's is count, then address; rows without samples are listed
    only with zero=1."""

    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="pc-roworder-")
        self.n = 300
        # names in an order unlike the addresses', counts 0..4
        self.syms = [(0x10000 + 16 * i, "f%03d" % ((i * 7) % self.n), i % 5)
                     for i in range(self.n)]
        with open(os.path.join(self.tmp, "prog.nm"), "w") as f:
            for a, name, _ in self.syms:
                f.write("%016x T %s\n" % (a, name))
            # the last symbol's end (nm gives no sizes)
            f.write("%016x T zz_end\n" % (0x10000 + 16 * self.n))
        with open(os.path.join(self.tmp, "pcs.bin"), "wb") as f:
            for a, _, c in self.syms:
                f.write(((a + 4).to_bytes(4, "little")) * c)

    def tearDown(self):
        shutil.rmtree(self.tmp)

    def order(self, *args):
        p = subprocess.run([PROFCAT, "-F", "csv", *args, "prog.nm", "-f", "raw",
                            "-O", "width=4", "pcs.bin"], capture_output=True, cwd=self.tmp)
        self.assertEqual(p.returncode, 0, p.stderr.decode())
        rows = csv.DictReader(io.StringIO(p.stdout.decode()))
        return [r["symbol"] for r in rows if not r["symbol"].startswith("[")]

    def test_count_then_name(self):
        want = [n for _, n, c in sorted(self.syms, key=lambda s: (-s[2], s[1])) if c]
        self.assertEqual(len(want), 240)
        self.assertEqual(self.order(), want)

    def test_zero_rows_after_by_name(self):
        want = [n for _, n, c in sorted(self.syms, key=lambda s: (-s[2], s[1]))]
        self.assertEqual(self.order("-O", "zero=1"), want + ["zz_end"])

    def test_ddj_count_then_address(self):
        want = [n for _, n, c in sorted(self.syms, key=lambda s: (-s[2], s[0])) if c]
        self.assertEqual(self.order("--style", "ddj"), want)


class Progress(unittest.TestCase):
    """profcat -v on a pipe (not a terminal): a line every 256 MiB read,
    then the whole count at the end of the input; nothing for a small
    input."""

    def feed(self, size, *args):
        p = subprocess.Popen([PROFCAT, "-v", "-f", "raw", "-O", "width=4", *args, "-"],
                             stdin=subprocess.PIPE, stdout=subprocess.DEVNULL,
                             stderr=subprocess.PIPE, cwd=HERE)
        chunk = bytes(1 << 20)
        left = size
        while left:
            n = min(left, len(chunk))
            p.stdin.write(chunk[:n])
            left -= n
        p.stdin.close()
        err = p.stderr.read().decode()
        self.assertEqual(p.wait(), 0, err)
        return err

    def test_lines_every_256_mib(self):
        size = (256 << 20) + 1000
        self.assertEqual(self.feed(size),
                         "profcat: <stdin>: 256 MiB read\n"
                         "profcat: <stdin>: %d bytes read (end of input)\n" % size)

    def test_small_input_says_nothing(self):
        self.assertEqual(self.feed(4000), "")


if __name__ == "__main__":
    unittest.main(verbosity=1)
