#!/usr/bin/env python3
"""A new user's first hour (issue #34 items 2-5), exact outputs and
messages: gprof's and pprof's options at profcat's prompt, misspelled
names, the sampling rate of any capture (--rate, -O rate), --focus and
--ignore by stack in the flat report and the call graph, and the
messages that say what to give.

Runs in tests/unix/fixtures/x86_64-nopie (gcc -pg fixture: SOURCES.md
there), so reports name `callgraph` and `gmon.out`.
"""
import os
import shutil
import subprocess
import tempfile
import unittest

PROFCAT = os.environ["PROFCAT"]
ROOT = os.environ["PC_SOURCE_ROOT"]
FIX = os.path.join(ROOT, "tests", "unix", "fixtures", "x86_64-nopie")
RAW = os.path.join(ROOT, "tests", "raw")
CG = ["callgraph", "gmon.out"]


def run(*args, cwd=FIX):
    r = subprocess.run([PROFCAT, *args], cwd=cwd, stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, universal_newlines=True)
    return r.returncode, r.stdout, r.stderr


HEAD = ("Flat profile of callgraph (elf), gmon.out (gmon)\n"
        "Samples: 365 total, 365 in the program, 0 outside\n"
        "Rate: 100 Hz, each sample counts as 0.01 seconds; 3.65 seconds sampled\n")


class Rate(unittest.TestCase):
    """Item 3: every capture can be given its rate."""
    RAWHEAD = ("Flat profile of ddj68k.elf (elf), hex.txt (raw)\n"
               "Samples: 1004 total, 976 in the program, 28 outside (unknown 28)\n")

    def flat(self, *opts):
        return run(*opts, "-n", "1", "ddj68k.elf", "-f", "raw", "hex.txt", cwd=RAW)

    def test_raw_dump_with_a_rate(self):
        want = (0, self.RAWHEAD + (
            "Rate: 1000 Hz, each sample counts as 0.001 seconds; 1.00 seconds sampled\n"
            "Showing: 1 row, 11.95% of all samples (top 1 of 16)\n\n"
            "rank  symbol            count  percent    cum %     self s  bar\n"
            "   1  delay_fifteen       120    11.95    11.95       0.12  ####################\n"), "")
        self.assertEqual(self.flat("-O", "rate=1000"), want)
        self.assertEqual(self.flat("--rate", "1000"), want)
        self.assertEqual(self.flat("--rate=1000"), want)

    def test_every_report_and_export_shows_seconds(self):
        rc, out, err = run("--rate", "1000", "-e", "folded", "--stacks", "none",
                           "ddj68k.elf", "-f", "raw", "hex.txt", cwd=RAW)
        self.assertEqual((rc, err), (0, ""))
        rc, out, err = run("--rate", "1000", "-F", "json", "ddj68k.elf", "-f", "raw",
                           "hex.txt", cwd=RAW)
        self.assertIn('"rate_hz": 1000', out)
        self.assertIn('"self_seconds": 0.12', out)
        rc, out, err = run("--rate", "1000", "--style", "gprof", "-n", "1", "ddj68k.elf",
                           "-f", "raw", "hex.txt", cwd=RAW)
        self.assertEqual((rc, err), (0, ""))
        self.assertIn("Each sample counts as 0.001 seconds.\n", out)

    def test_check_judges_aliasing_with_a_rate(self):
        _, without, _ = run("-r", "check", "ddj68k.elf", "-f", "raw", "hex.txt", cwd=RAW)
        self.assertIn("warning: rate-unknown: sampling rate unknown", without)
        rc, out, err = run("--rate", "1000", "-r", "check", "ddj68k.elf", "-f", "raw",
                           "hex.txt", cwd=RAW)
        self.assertEqual((rc, err), (0, ""))
        self.assertNotIn("rate-unknown", out)

    def test_a_capture_with_its_own_rate_says_so(self):
        rc, out, err = run("--rate", "1000", "-n", "1", *CG)
        self.assertEqual((rc, err), (0, "profcat: warning: gmon.out: the capture says "
                                        "100 Hz; reporting at 1000 Hz as --rate says\n"))
        self.assertIn("Rate: 1000 Hz, each sample counts as 0.001 seconds; 0.36 seconds sampled\n",
                      out)
        # the same rate: nothing to say
        self.assertEqual(run("--rate", "100", "-n", "1", *CG)[2], "")

    def test_bad_rates(self):
        self.assertEqual(self.flat("--rate", "fast"), (
            2, "", "profcat: hex.txt: bad value 'fast' for option 'rate'; expected a "
            "number of samples per second above 0\n"))
        self.assertEqual(self.flat("--rate", "0")[0], 2)
        hat = os.path.join(ROOT, "tests", "atari", "synth", "old.hatari")
        self.assertEqual(run("--rate", "50", hat), (
            2, "", "profcat: %s: the counts are instructions, not time samples: a "
            "sampling rate does not apply to them\n" % hat))


class Focus(unittest.TestCase):
    """Item 4: --focus/--ignore by stack in the flat report and the call
    graph, as the exports and pprof."""

    def test_flat_focus_keeps_the_subtree(self):
        self.assertEqual(run("--focus", "tinies", *CG), (0, HEAD + (
            "Showing: 4 rows, 27.17% of all samples (focus tinies; stacks estimated "
            "from call counts, as gprof)\n\n"
            "rank  symbol       count  percent    cum %     self s      calls  bar\n"
            "   1  tiny_b       35.56     9.74     9.74       0.36   24000000  ####################\n"
            "   2  tiny_a       33.05     9.06    18.80       0.33   24000000  ##################\n"
            "   3  tiny_c       28.54     7.82    26.62       0.29   24000000  ################\n"
            "   4  tinies        2.00     0.55    27.17       0.02          1  #\n"), ""))

    def test_flat_ignore_drops_the_subtree(self):
        rc, out, err = run("--ignore", "tinies", "--no-barchart", *CG)
        self.assertEqual((rc, err), (0, ""))
        self.assertEqual(out.split("\n")[3:], [
            "Showing: 4 rows, 72.99% of all samples (ignore tinies; stacks estimated "
            "from call counts, as gprof)", "",
            "rank  symbol        count  percent    cum %     self s      calls",
            "   1  hot          264.41    72.44    72.44       2.64          1",
            "   2  is_odd         2.00     0.55    72.99       0.02     602054",
            "   3  is_even        0.00     0.00    72.99       0.00     602740",
            "   4  fib            0.00     0.00    72.99       0.00   1+392834", ""])

    def test_callgraph_focus_is_gprof_F(self):
        # gprof -b -q -F tinies: tinies [1] 100.0 0.02 0.97, tiny_b 35.9 ...
        rc, out, err = run("-r", "callgraph", "--focus", "tinies", *CG)
        self.assertEqual((rc, err), (0, ""))
        self.assertTrue(out.startswith(
            "Filters: focus tinies (stacks estimated from call counts, as gprof: the "
            "functions keep the self time of their stacks that pass, so a focused "
            "function keeps its subtree's; a hidden function's callers call its callees; "
            "% time is of the time they keep)\n"), out[:300])
        self.assertIn(
            "                0.02    0.97       1/1           main [2]\n"
            "[1]    100.0    0.02    0.97       1         tinies [1]\n"
            "                0.36    0.00 24000000/24000000     tiny_b [3]\n"
            "                0.33    0.00 24000000/24000000     tiny_a [4]\n"
            "                0.29    0.00 24000000/24000000     tiny_c [5]\n", out)
        self.assertIn("[3]     35.9    0.36    0.00 24000000         tiny_b [3]\n", out)

    def test_without_arcs_the_header_says_so(self):
        rc, out, err = run("--focus", "delay_one", "-n", "1", "ddj68k.elf", "-f", "raw",
                           "hex.txt", cwd=RAW)
        self.assertEqual((rc, err), (0, ""))
        self.assertIn("(focus delay_one; no call arcs: a sample's stack is its function)\n",
                      out)


class OtherToolsOptions(unittest.TestCase):
    """Item 2: gprof's and pprof's options name profcat's equivalent;
    misspelled names suggest the nearest."""

    def err(self, *args):
        rc, out, err = run(*args, *CG)
        self.assertEqual((rc, out), (2, ""), args)
        return err

    def test_gprof_short_options(self):
        self.assertEqual(self.err("-p"),
                         "profcat: unknown option '-p' (gprof's): the flat profile is "
                         "profcat's default report (--style gprof: gprof's layout); "
                         "'profcat gprof -p ...' takes gprof's command line\n")
        self.assertEqual(self.err("-q"),
                         "profcat: unknown option '-q' (gprof's): -r callgraph prints the "
                         "call graph; 'profcat gprof -q ...' takes gprof's command line\n")
        self.assertEqual(self.err("-l"),
                         "profcat: unknown option '-l' (gprof's): --granularity line gives a "
                         "row per source line; 'profcat gprof -l ...' takes gprof's command "
                         "line\n")
        self.assertEqual(self.err("-A"),
                         "profcat: unknown option '-A' (gprof's): -r source annotates the "
                         "source; 'profcat gprof -A ...' takes gprof's command line\n")
        # in a cluster, and a letter profcat's diff takes (-s)
        self.assertEqual(self.err("-bq"), self.err("-q"))
        self.assertEqual(self.err("-s"),
                         "profcat: unknown option '-s' (gprof's): profcat merge -e gmon -o "
                         "gmon.sum adds captures up; 'profcat gprof -s ...' takes gprof's "
                         "command line\n")

    def test_profcats_own_letters_stay(self):
        # -z: the Atari ST meaning; -f and -F: format and output format,
        # with gprof's -f SYM / -F SYM named when the value is a symbol
        self.assertEqual(run("-z", *CG)[0], 0)
        self.assertEqual(self.err("-f", "tinies"),
                         "profcat: no format named 'tinies' (see profcat --list-formats; -f is "
                         "--format here; gprof's -f SYM is -r callgraph --focus SYM here, or "
                         "'profcat gprof -f SYM ...')\n")
        self.assertEqual(self.err("-F", "tinies"),
                         "profcat: bad value 'tinies' for option 'output-format' of report "
                         "flat; expected one of: text, csv, json, html (-F is --output-format "
                         "here; gprof's -F SYM is -r callgraph --focus SYM here, or "
                         "'profcat gprof -F SYM ...')\n")

    def test_gprof_long_options(self):
        self.assertEqual(self.err("--flat-profile=main"),
                         "profcat: unknown option '--flat-profile' (gprof's): the flat profile "
                         "is profcat's default report (--style gprof: gprof's layout); "
                         "'profcat gprof -p ...' takes gprof's command line\n")
        self.assertEqual(self.err("--graph"),
                         "profcat: unknown option '--graph' (gprof's): -r callgraph prints the "
                         "call graph; 'profcat gprof -q ...' takes gprof's command line\n")
        self.assertEqual(self.err("--line"),
                         "profcat: unknown option '--line' (gprof's): --granularity line gives "
                         "a row per source line; 'profcat gprof -l ...' takes gprof's command "
                         "line\n")
        self.assertEqual(self.err("--annotated-source"),
                         "profcat: unknown option '--annotated-source' (gprof's): -r source "
                         "annotates the source; 'profcat gprof -A ...' takes gprof's command "
                         "line\n")
        self.assertEqual(self.err("--brief"),
                         "profcat: unknown option '--brief' (gprof's): profcat's reports print "
                         "no blurbs; 'profcat gprof --brief ...' takes gprof's command line\n")

    def test_pprof_single_dash(self):
        tail = " (pprof's spelling; profcat's long options take two dashes)\n"
        self.assertEqual(self.err("-top"),
                         "profcat: unknown option '-top': did you mean '--top N'? (pprof's "
                         "spelling; profcat's long options take two dashes; the flat report "
                         "is profcat's default; --top keeps its first N rows)\n")
        self.assertEqual(self.err("-focus=walk"),
                         "profcat: unknown option '-focus': did you mean '--focus walk'?" + tail)
        self.assertEqual(self.err("-nodecount=5"),
                         "profcat: unknown option '-nodecount': did you mean '--top 5'?" + tail)
        self.assertEqual(self.err("-list", "main"),
                         "profcat: unknown option '-list': did you mean '-r source main'?"
                         + tail)
        self.assertEqual(self.err("-flat"),
                         "profcat: unknown option '-flat': did you mean '--sort self'? "
                         "(pprof's spelling; profcat's long options take two dashes; the "
                         "default order)\n")
        # a value that looks like one is a value
        rc, out, err = run("--focus", "-top", *CG)
        self.assertEqual((rc, err), (0, ""))

    def test_nearest_names(self):
        self.assertEqual(self.err("--foccus", "x"),
                         "profcat: unknown option '--foccus': did you mean '--focus'? "
                         "(see profcat --help)\n")
        self.assertEqual(self.err("-r", "flta"),
                         "profcat: no report named 'flta' (did you mean 'flat'? profcat "
                         "--list-reports lists them)\n")
        self.assertEqual(self.err("-e", "pprf"),
                         "profcat: no export named 'pprf' (did you mean 'pprof'? profcat "
                         "--list-exports lists them)\n")
        self.assertEqual(self.err("--style", "gprf"),
                         "profcat: style must be default, atari, ddj, prohst or gprof, not "
                         "'gprf' (did you mean 'gprof'?)\n")
        self.assertEqual(self.err("-F", "jsn"),
                         "profcat: bad value 'jsn' for option 'output-format' of report flat; "
                         "expected one of: text, csv, json, html (did you mean 'json'?)\n")
        self.assertEqual(self.err("-f", "rw"),
                         "profcat: no format named 'rw': did you mean 'raw'? (see profcat "
                         "--list-formats)\n")
        # nothing near: no guess
        self.assertEqual(self.err("--bogus"),
                         "profcat: unknown option '--bogus' (see profcat --help)\n")
        self.assertEqual(self.err("-n", "0"),
                         "profcat: top must be a number of rows (1 or more), not '0'\n")


class Messages(unittest.TestCase):
    """Item 5: messages that point the right way."""

    def test_hatari_program_text_is_the_load_address(self):
        syn = os.path.join(ROOT, "tests", "atari", "synth")
        want = run("--load-address", "0x13f00", "alcyon.prg", "new.hatari", cwd=syn)
        self.assertEqual(want[0], 0)
        self.assertEqual(run("alcyon.prg", "new.hatari", cwd=syn), want)
        self.assertTrue(want[1].startswith(
            "Flat profile of alcyon.prg (gemdos), new.hatari (hatari)\n"
            "Counts: 105 total, 95 in the program, 10 outside (system 10)\n"), want[1])
        self.assertIn("   1  _sleepy         28    26.67    26.67             ######",
                      want[1])
        rc, out, err = run("-v", "alcyon.prg", "new.hatari", cwd=syn)
        self.assertIn("profcat: new.hatari: the program was loaded at 0x13f00 (its "
                      "PROGRAM_TEXT line; --load-address gives another)\n", err)

    def test_dos_com_without_option_com(self):
        fix = os.path.join(ROOT, "tests", "dos", "fixtures")
        self.assertEqual(run("dosmap/mslink_basicdos_PRIMES.MAP", "prf/PRIMES.PRF", cwd=fix), (
            1, "", "profcat: prf/PRIMES.PRF: the histogram covers 0x0-0xc0 but the code of "
            "the program ends at 0x1a1: read as an .EXE image's (from 0); a .COM program's "
            "starts at 0x100 (ORG 100h), and there it covers the code: give -O com, or "
            "--ignore-fit to report anyway\n"))
        self.assertEqual(run("dosmap/mslink_basicdos_PRIMES.MAP", "-O", "com",
                             "prf/PRIMES.PRF", cwd=fix)[0], 0)

    def test_gmon_of_the_other_width(self):
        fix = os.path.dirname(FIX)
        self.assertEqual(run("i386-nopie/callgraph", "x86_64-nopie/gmon.out", cwd=fix), (
            1, "", "profcat: x86_64-nopie/gmon.out:21: histogram low_pc 0x400000 is above "
            "high_pc 0x0 (read as 32-bit little-endian, the program's width; it reads as "
            "64-bit little-endian: a 64-bit build wrote it, give that program)\n"))
        self.assertEqual(run("x86_64-nopie/callgraph", "i386-nopie/gmon.out", cwd=fix)[2],
                         "profcat: i386-nopie/gmon.out:21: histogram low_pc 0x804952808048000 "
                         "is above high_pc 0x640000054a (read as 64-bit little-endian, the "
                         "program's width; it reads as 32-bit little-endian: a 32-bit build "
                         "wrote it, give that program)\n")

    def test_gmon_out_alone_asks_for_the_program(self):
        rc, out, err = run("gmon.out")
        self.assertEqual((rc, err), (0, "profcat: warning: no program given (gmon.out: "
                                        "addresses only), so no sample has a function name: "
                                        "give the program that wrote the capture too (e.g. "
                                        "profcat prog gmon.out)\n"))
        self.assertIn("Samples: 365 total, 0 in the program, 365 outside (unknown 365)\n", out)
        # as gprof: a.out and gmon.out here, nothing to say
        tmp = tempfile.mkdtemp()
        try:
            shutil.copy(os.path.join(FIX, "callgraph"), os.path.join(tmp, "a.out"))
            shutil.copy(os.path.join(FIX, "gmon.out"), tmp)
            self.assertEqual(run(cwd=tmp)[2], "")
        finally:
            shutil.rmtree(tmp)


if __name__ == "__main__":
    unittest.main(verbosity=2)
