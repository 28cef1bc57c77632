#!/usr/bin/env python3
"""profcat's report options on real captures: the Atari ST Profiler's
spellings (p=N +z -z +b -b x=SYM i=N o=FILE) give exactly what the long
options give, the styles' golden text on a gcc -pg gmon.out and a PROFIL
.PRF with its MAP, csv/json agreeing with the text, and usage errors.

Needs PROFCAT and PC_SOURCE_ROOT (set by meson).
"""
import csv
import io
import json
import os
import subprocess
import tempfile
import unittest

PROFCAT = os.environ["PROFCAT"]
ROOT = os.environ["PC_SOURCE_ROOT"]
GOLDEN = os.path.join(ROOT, "tests", "reports", "golden")
ELF = "tests/unix/fixtures/x86_64-nopie/callgraph"
GMON = "tests/unix/fixtures/x86_64-nopie/gmon.out"
# a build without the ELF loader (-Delf=disabled) cannot read ELF's symbols
needs_elf = unittest.skipUnless(os.environ.get("PC_HAVE_ELF", "1") == "1",
                                "built without the ELF loader")
MAP = "tests/dos/fixtures/prf/DEMO.MAP"
PRF = "tests/dos/fixtures/prf/DEMO.PRF"


def profcat(*args, cwd=ROOT):
    r = subprocess.run([PROFCAT] + list(args), stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, universal_newlines=True, cwd=cwd)
    return r.returncode, r.stdout, r.stderr


def golden(name):
    with open(os.path.join(GOLDEN, name)) as f:
        return f.read()


@needs_elf
class AtariSpellings(unittest.TestCase):
    PAIRS = [
        (["p=95"], ["--cutoff", "95"]),
        (["p=95"], ["--cutoff=95"]),
        (["+z"], ["--zero"]),
        (["-z"], ["--no-zero"]),
        (["-z"], []),
        (["-b"], ["--no-barchart"]),
        (["+b"], ["--barchart"]),
        (["+b"], []),
        (["x=hot", "i=5"], ["--interval", "hot", "--intervals=5"]),
        (["x=hot"], ["--interval=hot", "--intervals", "25"]),
        (["p=99", "+z", "-b", "x=tiny_a", "i=3"],
         ["--cutoff=99", "--zero", "--no-barchart", "--interval=tiny_a", "--intervals=3"]),
    ]

    def test_aliases_are_the_long_options(self):
        for style in ("default", "atari", "ddj"):
            for alias, long in self.PAIRS:
                with self.subTest(style=style, alias=alias):
                    a = profcat("--style", style, ELF, GMON, *alias)
                    b = profcat("--style", style, *long, ELF, GMON)
                    self.assertEqual(a[0], 0, a[2])
                    self.assertEqual(a, b)

    def test_aliases_change_the_report(self):
        base = profcat("--style", "atari", ELF, GMON)[1]
        for alias in (["p=50"], ["+z"], ["-b"], ["x=hot"]):
            with self.subTest(alias=alias):
                self.assertNotEqual(profcat("--style", "atari", ELF, GMON, *alias)[1], base)

    def test_o_writes_the_file(self):
        with tempfile.TemporaryDirectory() as d:
            a, b = os.path.join(d, "a.out"), os.path.join(d, "b.out")
            self.assertEqual(profcat("--style", "atari", ELF, GMON, "p=95", "o=" + a),
                             (0, "", ""))
            self.assertEqual(profcat("--style", "atari", ELF, GMON, "p=95", "-o", b),
                             (0, "", ""))
            with open(a) as fa, open(b) as fb:
                self.assertEqual(fa.read(), fb.read())
            with open(a) as fa:
                self.assertEqual(fa.read(), profcat("--style", "atari", "p=95", ELF, GMON)[1])

    def test_a_file_named_like_an_alias(self):
        with tempfile.TemporaryDirectory() as d:
            with open(os.path.join(d, "p=1"), "wb") as f, \
                    open(os.path.join(ROOT, GMON), "rb") as g:
                f.write(g.read())
            rc, out, err = profcat(os.path.join(ROOT, ELF), "./p=1", cwd=d)
            self.assertEqual((rc, err), (0, ""))
            self.assertIn("p=1 (gmon)\nSamples: 365 total", out)
            rc, out2, err = profcat(os.path.join(ROOT, ELF), "--", "p=1", cwd=d)
            self.assertEqual((rc, err), (0, ""))
            # the same report, but for the file's name in the header
            self.assertEqual(out2.split("\n", 1)[1], out.split("\n", 1)[1])


@needs_elf
class Goldens(unittest.TestCase):
    def test_atari_on_gmon(self):
        rc, out, err = profcat("--style", "atari", ELF, GMON, "p=95", "x=hot", "i=5")
        self.assertEqual((rc, err), (0, ""))
        self.assertEqual(out, golden("cli_atari_gmon.txt"))

    def test_styles_on_prf(self):
        for style in ("atari", "ddj", "prohst"):
            with self.subTest(style=style):
                rc, out, err = profcat("--style", style, MAP, PRF)
                self.assertEqual((rc, err), (0, ""))
                self.assertEqual(out, golden("cli_%s_prf.txt" % style))
        rc, out, err = profcat("--report", "regions", MAP, PRF)
        self.assertEqual((rc, err), (0, ""))
        self.assertEqual(out, golden("cli_regions_prf.txt"))

    def test_machine_outputs_agree(self):
        for style in ("default", "atari", "ddj", "prohst"):
            with self.subTest(style=style):
                rc, c, err = profcat("--style", style, MAP, PRF, "-F", "csv")
                self.assertEqual((rc, err), (0, ""))
                rc, j, err = profcat("--style", style, MAP, PRF, "-F", "json")
                self.assertEqual((rc, err), (0, ""))
                j = json.loads(j)
                rows = [r for r in csv.DictReader(io.StringIO(c)) if r["rank"]]
                self.assertEqual([(r["symbol"], float(r["count"])) for r in rows],
                                 [(r["symbol"], r["count"]) for r in j["rows"]])
                self.assertEqual(j["totals"]["total"], 128)


class SevenDwarfsEndToEnd(unittest.TestCase):
    """The seed's example as files (gen_dwarfs.py): a GEMDOS executable
    with DRI symbols and a raw PC dump, read by the gemdos and raw
    loaders, print the seed's table."""
    FIX = os.path.join(ROOT, "tests", "reports", "fixtures")
    ARGS = ["--load-address", "0x13f00", "DWARFS.PRG", "-f", "raw", "-O", "encoding=binary",
            "-O", "width=32", "-O", "endian=big", "dwarfs.pcs"]

    def test_fixtures_are_the_generators(self):
        with tempfile.TemporaryDirectory() as d:
            subprocess.run(["python3", os.path.join(ROOT, "tests", "reports", "gen_dwarfs.py"), d],
                           check=True)
            for name in ("DWARFS.PRG", "dwarfs.pcs"):
                with open(os.path.join(d, name), "rb") as a, \
                        open(os.path.join(self.FIX, name), "rb") as b:
                    self.assertEqual(a.read(), b.read(), name)

    def test_atari_p95(self):
        rc, out, err = profcat(*self.ARGS, "--style", "atari", "p=95", cwd=self.FIX)
        if rc == 2 and "no format named 'raw'" in err:
            self.skipTest("no raw loader in this build")
        self.assertEqual((rc, err), (0, ""))
        self.assertEqual(out, golden("cli_atari_dwarfs_e2e.txt"))
        # the same header lines and table as the seed's (percents as in
        # the API-built capture: the seed's rows 1-3 do not add up)
        with open(os.path.join(ROOT, "tests", "reports", "seed", "atari-dwarfs.txt")) as f:
            seed = f.read()
        for line in ("There are 82 symbols", "Samples in sys :       53  ( 1.98 %)",
                     "Num. of samples:     2674", "Cutoff at 95 percent"):
            self.assertIn("\n" + line + "\n", seed)
            self.assertIn("\n" + line + "\n", out)
        api = golden("atari_dwarfs_p95.txt")
        self.assertEqual(out[out.index("+-----"):], api[api.index("+-----"):])

    def test_json_counts(self):
        rc, out, err = profcat(*self.ARGS, "--style", "atari", "p=95", "-F", "json", cwd=self.FIX)
        if rc == 2:
            self.skipTest("no raw loader in this build")
        j = json.loads(out)
        self.assertEqual([(r["symbol"], r["count"]) for r in j["rows"]],
                         [("_sleepy", 874), ("_happy", 436), ("_grumpy", 435), ("_doc", 220),
                          ("_sneezy", 220), ("_bashful", 217), ("_dopey", 217)])
        self.assertEqual((j["totals"]["in_program"], j["totals"]["outside"], j["symbols"]),
                         (2621, 53, 82))


class DrDobbsEndToEnd(unittest.TestCase):
    """Figures 3 and 4(a) as files (gen_ddj.py): nm symbols and a hex
    text PC dump, read by the map and raw loaders, print the same module
    tables as the API-built captures (whose rows the Seeds tests of
    test_reports.py hold against the article)."""
    FIX = os.path.join(ROOT, "tests", "reports", "fixtures")
    RUNS = [("fmtest", "0x12100", "ddj_fig3.txt"), ("patest", "0x11000", "ddj_fig4a.txt")]

    def test_fixtures_are_the_generators(self):
        with tempfile.TemporaryDirectory() as d:
            subprocess.run(["python3", os.path.join(ROOT, "tests", "reports", "gen_ddj.py"), d],
                           check=True)
            for stem, _, _ in self.RUNS:
                for ext in (".nm", ".pcs"):
                    with open(os.path.join(d, stem + ext), "rb") as a, \
                            open(os.path.join(self.FIX, stem + ext), "rb") as b:
                        self.assertEqual(a.read(), b.read(), stem + ext)

    def test_module_tables(self):
        for stem, end, want in self.RUNS:
            with self.subTest(stem=stem):
                rc, out, err = profcat(stem + ".nm", "-f", "raw", "-O", "origin=0x10000",
                                       "-O", "program-end=" + end, stem + ".pcs",
                                       "--style", "ddj", cwd=self.FIX)
                if rc == 2 and "no format named 'raw'" in err:
                    self.skipTest("no raw loader in this build")
                self.assertEqual((rc, err), (0, ""))
                self.assertEqual(out, golden(want))


@needs_elf
class Errors(unittest.TestCase):
    def test_usage_errors(self):
        cases = [
            (["p=101"], "profcat: cutoff must be a percentage from 0 to 100, not '101'\n"),
            (["--cutoff", "-1"], "profcat: cutoff must be a percentage from 0 to 100, not '-1'\n"),
            (["--style", "fancy"], "profcat: style must be default, atari, ddj, prohst or gprof, not 'fancy'\n"),
            (["x=nosuch"], "profcat: interval: no code symbol named 'nosuch' (nor an address "
                           "range LOW-HIGH or LOW+SIZE)\n"),
            (["x=hot", "i=0"], "profcat: intervals must be a number from 1 to 1000000, not '0'\n"),
            (["--percent-of", "half"], "profcat: bad value 'half' for option 'percent-of' of "
             "report flat; expected one of: program, total\n"),
            (["--no-zero=1"], "profcat: option --no-zero takes no value\n"),
        ]
        for args, msg in cases:
            with self.subTest(args=args):
                self.assertEqual(profcat(ELF, GMON, *args), (2, "", msg))

    def test_interval_of_a_symbol_without_extent(self):
        # the last symbol of an nm list, no size, no program end given
        fix = os.path.join(ROOT, "tests", "reports", "fixtures")
        rc, out, err = profcat("patest.nm", "-f", "raw", "-O", "origin=0x10000", "patest.pcs",
                               "--report", "intervals", "x=.delay_eight", cwd=fix)
        if rc == 2 and "no format named 'raw'" in err:
            self.skipTest("no raw loader in this build")
        self.assertEqual((rc, out), (2, ""))
        self.assertEqual(err, "profcat: interval: symbol '.delay_eight' has no extent (no size, "
                              "and no symbol or program region after it); give an address range\n")
        rc, out, err = profcat("patest.nm", "-f", "raw", "-O", "origin=0x10000", "patest.pcs",
                               "--report", "intervals", "x=0x10f00+0x100", "i=2", cwd=fix)
        self.assertEqual((rc, err), (0, ""))
        self.assertIn("\n1  0x10f00-0x10f80     84   100.00  ****", out)

    def test_prohst_needs_a_histogram(self):
        rc, out, err = profcat("--style", "prohst", ELF)
        self.assertEqual((rc, out), (1, ""))
        self.assertEqual(err, "profcat: the prohst style lists histogram buckets, "
                              "and this profile has no histogram\n")


if __name__ == "__main__":
    unittest.main(verbosity=2)
