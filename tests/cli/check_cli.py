#!/usr/bin/env python3
"""profcat's command line (issue #24 item 1), exact outputs: -n/--top,
--sort, --focus/--ignore/--hide, --style gprof with them, the one option
parser (subcommands take the same spellings), --help's layout, a.out and
gmon.out by default, binary exports and terminals, and the messages for a
directory, an output directory and symbols without a capture.

Runs in tests/unix/fixtures/x86_64-nopie (gcc -pg fixture: SOURCES.md
there), so reports name `callgraph` and `gmon.out`.
"""
import os
import pty
import re
import shutil
import subprocess
import sys
import tempfile
import unittest

PROFCAT = os.environ["PROFCAT"]
ROOT = os.environ["PC_SOURCE_ROOT"]
FIX = os.path.join(ROOT, "tests", "unix", "fixtures", "x86_64-nopie")
CG = ["callgraph", "gmon.out"]


def run(*args, cwd=FIX, stdout=subprocess.PIPE):
    r = subprocess.run([PROFCAT, *args], cwd=cwd, stdout=stdout,
                       stderr=subprocess.PIPE, universal_newlines=True)
    return r.returncode, r.stdout, r.stderr


HEAD = ("Flat profile of callgraph (elf), gmon.out (gmon)\n"
        "Samples: 365 total, 365 in the program, 0 outside\n"
        "Rate: 100 Hz, each sample counts as 0.01 seconds; 3.65 seconds sampled\n")
GPROF_HEAD = ("Flat profile:\n\n"
              "Each sample counts as 0.01 seconds.\n"
              "  %   cumulative   self              self     total           \n"
              " time   seconds   seconds    calls   s/call   s/call  name    \n")


class Selection(unittest.TestCase):
    def check(self, args, out, err="", rc=0):
        self.assertEqual(run(*args), (rc, out, err))

    def test_top(self):
        out = HEAD + (
            "Showing: 3 rows, 91.24% of all samples (top 3 of 8)\n\n"
            "rank  symbol       count  percent    cum %     self s      calls  bar\n"
            "   1  hot         264.41    72.44    72.44       2.64          1  ####################\n"
            "   2  tiny_b       35.56     9.74    82.18       0.36   24000000  ##\n"
            "   3  tiny_a       33.05     9.06    91.24       0.33   24000000  ##\n")
        self.check(["-n", "3"] + CG, out)
        self.check(["--top", "3"] + CG, out)
        self.check(["--top=3"] + CG, out)
        self.check(["-n3"] + CG, out)
        # top larger than the listing: everything, no "Showing" line
        self.assertNotIn("Showing", run("-n", "50", *CG)[1])

    def test_sort(self):
        self.check(["--sort", "name", "-n", "4", "--no-barchart"] + CG, HEAD + (
            "Showing: 4 rows, 72.99% of all samples (top 4 of 8)\n\n"
            "rank  symbol        count  percent    cum %     self s      calls\n"
            "   1  fib            0.00     0.00     0.00       0.00   1+392834\n"
            "   2  hot          264.41    72.44    72.44       2.64          1\n"
            "   3  is_even        0.00     0.00    72.44       0.00     602740\n"
            "   4  is_odd         2.00     0.55    72.99       0.02     602054\n"))
        # cum: own samples plus the callees' (tinies calls tiny_a/b/c)
        self.check(["--sort", "cum", "-n", "3"] + CG, HEAD + (
            "Showing: 3 rows, 82.73% of all samples (top 3 of 8)\n\n"
            "rank  symbol       count  percent    cum %     self s      calls  bar\n"
            "   1  hot         264.41    72.44    72.44       2.64          1  ####################\n"
            "   2  tinies        2.00     0.55    72.99       0.02          1\n"
            "   3  tiny_b       35.56     9.74    82.73       0.36   24000000  ##\n"))
        self.check(["--sort=calls", "-n", "3", "-F", "csv"] + CG, (
            "rank,symbol,count,percent,cum_percent,self_seconds,calls,self_calls,address\n"
            "1,tiny_b,35.55521,9.7412,9.7412,0.355552,24000000,0,0x401273\n"
            "2,tiny_a,33.051322,9.0552,18.7963,0.330513,24000000,0,0x401257\n"
            "3,tiny_c,28.544323,7.8204,26.6167,0.285443,24000000,0,0x401292\n"
            ",[total],365,100.0000,,,,,\n"
            ",[in program],365,100.0000,,,,,\n"
            ",[unattributed],0,0.0000,,,,,\n"
            ",[outside],0,0.0000,,,,,\n"
            ",[listed: top 3 of 8],97.150855,26.6167,,,,,\n"))
        out = run("--sort", "address", "--zero", "-n", "3", *CG)[1]
        self.assertTrue(out.endswith(
            "   1  _init                  0     0.00     0.00       0.00\n"
            "   2  _start                 0     0.00     0.00       0.00\n"
            "   3  __gmon_start__         0     0.00     0.00       0.00\n"), out)

    def test_focus_ignore_hide(self):
        # percents stay of all 365 samples, as go tool pprof -top -focus
        self.check(["--focus", "tiny_[ab]"] + CG, HEAD + (
            "Showing: 2 rows, 18.80% of all samples (focus tiny_[ab]; stacks estimated from call counts, as gprof)\n\n"
            "rank  symbol       count  percent    cum %     self s      calls  bar\n"
            "   1  tiny_b       35.56     9.74     9.74       0.36   24000000  ####################\n"
            "   2  tiny_a       33.05     9.06    18.80       0.33   24000000  ##################\n"))
        self.check(["--ignore", "^tiny", "--hide=hot"] + CG, HEAD + (
            "Showing: 4 rows, 1.10% of all samples (ignore ^tiny, hide hot; stacks estimated from call counts, as gprof)\n\n"
            "rank  symbol        count  percent    cum %     self s      calls  bar\n"
            "   1  is_odd         2.00     0.55     0.55       0.02     602054  ####################\n"
            "   2  tinies         2.00     0.55     1.10       0.02          1  ####################\n"
            "   3  is_even        0.00     0.00     1.10       0.00     602740\n"
            "   4  fib            0.00     0.00     1.10       0.00   1+392834\n"))
        self.check(["--focus", "nothing"] + CG, HEAD + (
            "Showing: 0 rows, 0.00% of all samples (focus nothing; stacks estimated from call counts, as gprof)\n\n"
            "rank  symbol     count  percent    cum %     self s  bar\n"
            "(no symbol passes focus, ignore and hide)\n"))

    def test_gprof_style_with_selection(self):
        self.check(["--style", "gprof", "--focus", "tiny", "-n", "2"] + CG, GPROF_HEAD + (
            "  9.74      0.36     0.36 24000000     0.00     0.00  tiny_b\n"
            "  9.06      0.69     0.33 24000000     0.00     0.00  tiny_a\n"))

    def test_bad_values(self):
        self.check(["--focus", "("] + CG, "",
                   "profcat: focus: bad regular expression '(': unmatched '(' (no ')')\n", 2)
        self.check(["--sort", "size"] + CG, "",
                   "profcat: bad value 'size' for option 'sort' of report flat; expected "
                   "one of: self, cum, calls, name, address\n", 2)
        self.check(["-n", "0"] + CG, "",
                   "profcat: top must be a number of rows (1 or more), not '0'\n", 2)
        self.check(["-n", "x"] + CG, "",
                   "profcat: bad value 'x' for option 'top' of report flat; expected "
                   "an unsigned integer\n", 2)

    def test_refused_where_not_read(self):
        self.check(["-r", "callgraph", "-n", "2"] + CG, "",
                   "profcat: the callgraph report does not take the top option yet "
                   "(it applies to the flat report, every style, and the bar chart)\n", 2)
        self.check(["-r", "check", "--focus", "x"] + CG, "",
                   "profcat: the check report judges the whole capture and takes no focus "
                   "(the other reports and the exports do)\n", 2)
        self.check(["-e", "folded", "-n", "2"] + CG, "",
                   "profcat: the folded export does not take the top option yet "
                   "(it applies to the flat report, every style, and the bar chart)\n", 2)
        self.check(["-e", "gmon", "--hide", "x"] + CG, "",
                   "profcat: the gmon export does not take the hide option yet "
                   "(it applies to the flat report, every style, and the bar chart; "
                   "focus, ignore and hide also to the other reports and the stack exports)\n", 2)
        self.check(["diff", "--top", "2"] + CG, "",
                   "profcat: option --top does not apply to profcat diff "
                   "(see profcat diff --help)\n", 2)
        # the bar chart reads them
        self.check(["-r", "barchart", "-n", "2"] + CG, (
            "symbol  percent  0   10  20  30  40  50  60  70  80  90  100\n"
            "hot       72.44  ****************************\n"
            "tiny_b     9.74  ***\n"))


class StackExports(unittest.TestCase):
    """--focus/--ignore on the exports' stacks (gprof's caller chains)."""

    def test_folded(self):
        # is_even and is_odd are gprof's <cycle 1>
        self.assertEqual(run("-e", "folded", *CG), (0, (
            "main;<cycle 1>;is_odd 2\n"
            "main;hot 264\n"
            "main;tinies;tiny_a 33\n"
            "main;tinies;tiny_b 36\n"
            "main;tinies;tiny_c 29\n"
            "main;tinies 2\n"), ""))
        # focus on a caller keeps its callees' samples (their stacks hold it)
        self.assertEqual(run("-e", "folded", "--focus", "tinies", *CG), (0, (
            "main;tinies;tiny_a 33\n"
            "main;tinies;tiny_b 36\n"
            "main;tinies;tiny_c 29\n"
            "main;tinies 2\n"), ""))
        self.assertEqual(run("-e", "folded", "--focus", "^main$", "--ignore", "is_|tiny_b",
                             *CG), (0, (
            "main;hot 264\n"
            "main;tinies;tiny_a 33\n"
            "main;tinies;tiny_c 29\n"
            "main;tinies 2\n"), ""))

    @unittest.skipUnless(shutil.which("go"), "go (go tool pprof) not installed")
    def test_pprof_as_go_tool_pprof_filters(self):
        """The filtered export has the flat and cum values that go tool
        pprof -focus -ignore shows on the whole export."""
        with tempfile.TemporaryDirectory() as tmp:
            whole, part = os.path.join(tmp, "all.pb.gz"), os.path.join(tmp, "part.pb.gz")
            self.assertEqual(run("-e", "pprof", "-o", whole, *CG)[0], 0)
            self.assertEqual(run("-e", "pprof", "--focus", "tinies", "--ignore", "tiny_c",
                                 "-o", part, *CG)[0], 0)

            def top(*args):
                r = subprocess.run(["go", "tool", "pprof", "-top", "-unit=ms", *args],
                                   stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                   universal_newlines=True, timeout=600)
                self.assertEqual(r.returncode, 0, r.stderr)
                rows = r.stdout.split("flat%", 1)[1].splitlines()[1:]
                return [(l.split()[0], l.split()[3], l.split()[5]) for l in rows]
            want = top("-focus=tinies", "-ignore=tiny_c", whole)
            self.assertEqual(top(part), want)
            self.assertEqual([w[2] for w in want], ["tiny_b", "tiny_a", "tinies", "main"])


class Parser(unittest.TestCase):
    def test_subcommands_take_the_same_spellings(self):
        a = run("diff", "--load-address=0", *CG, "gmon.out")
        b = run("diff", "--load-address", "0", *CG, "gmon.out")
        c = run("diff", "-O", "load-address=0", *CG, "gmon.out")
        self.assertEqual(a[0], 0, a[2])
        self.assertEqual(a, b)
        self.assertEqual(a, c)
        self.assertTrue(a[1].startswith("Diff of callgraph (elf), gmon.out (gmon)\n"), a[1])
        m = run("merge", "--top=2", "--sort=name", *CG, "gmon.out")
        self.assertEqual(m[0], 0, m[2])
        self.assertIn("   1  fib           0.00     0.00     0.00       0.00   2+785668\n", m[1])
        self.assertEqual(run("rates", "--output-format=csv", "-F", "json", "--bogus")[2],
                         "profcat: unknown option '--bogus' (see profcat rates --help)\n")

    def test_messages(self):
        for args, err in (
                (["--export"], "profcat: option --export needs a value\n"),
                (["-e"], "profcat: option -e needs a value\n"),
                (["--no-zero=1"], "profcat: option --no-zero takes no value\n"),
                (["--bogus"], "profcat: unknown option '--bogus' (see profcat --help)\n"),
                (["-j"], "profcat: unknown option '-j' (see profcat --help)\n"),
                (["--list"], "profcat: ambiguous option '--list' (see profcat --help)\n"),
                (["diff", "--symbol"], "profcat: option --symbol needs a value\n"),
                (["--symbol", "x"], "profcat: option --symbol does not apply to profcat "
                                    "(see profcat --help)\n")):
            self.assertEqual(run(*args), (2, "", err), args)

    def test_old_spellings(self):
        flat = run(*CG)[1]
        # abbreviations, = forms, Atari aliases, options after files
        self.assertEqual(run("--form=auto", *CG)[1], flat)
        self.assertEqual(run(*CG, "--zero", "-z")[1], flat)
        self.assertEqual(run("+z", "-z", *CG)[1], flat)
        self.assertEqual(run("-b", *CG)[1], run("--no-barchart", *CG)[1])
        self.assertEqual(run("p=80", *CG)[1], run("--cutoff=80", *CG)[1])
        # "--" ends the options: a file named like one
        self.assertEqual(run("--", "-n")[2], "profcat: -n: no such file\n")

    def test_help_layout(self):
        for cmd in ([], ["diff"], ["merge"], ["rates"]):
            rc, out, err = run(*cmd, "--help")
            self.assertEqual((rc, err), (0, ""))
            lines = out.splitlines()
            self.assertEqual([l for l in lines if len(l) > 79], [], cmd)
            opts = [l for l in lines if re.match(r"  -\w, --|      --", l)]
            self.assertGreater(len(opts), 10 if not cmd else 5, cmd)
            for l in opts:
                # option, metavariable, then the text from column 29, or
                # the text on the next line when the option is long
                m = re.match(r"(  -\w, |      )--([a-z-]+)( [A-Z=]+)?(\s*)(.*)$", l)
                self.assertTrue(m, l)
                if m.group(5):
                    self.assertEqual(len(l) - len(m.group(5)), 28, l)
                # a metavariable the text names is the one shown
                words = set(re.findall(r"\b[A-Z]{1,}\b", m.group(5))) - {
                    "README", "ELF", "PROFIL", "PROHST", "LOW", "HIGH", "SIZE",
                    "FUNC", "FILE", "C", "I", "O", "BASE"}
                if words and m.group(3):
                    self.assertIn(m.group(3).strip().split("=")[0], words, l)
        out = run("--help")[1]
        self.assertIn("  -n, --top N               list the first N rows only\n", out)
        self.assertIn("      --focus REGEX         keep only the samples whose stack has a\n"
                      "                            function matching REGEX\n", out)
        self.assertIn("      --callgraph-time WHAT\n"
                      "                            call graph own times: samples or flat\n", out)
        self.assertIn("  -s, --symbol SYM          test only SYM", run("diff", "--help")[1])
        self.assertNotIn("--symbol", out)


class Defaults(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="pc-cli-")

    def tearDown(self):
        shutil.rmtree(self.tmp)

    def test_a_out_and_gmon_out(self):
        self.assertEqual(run(cwd=self.tmp), (2, "", (
            "Usage: profcat [OPTION]... [FILE]...\n"
            "profcat: no FILE given, and no a.out and gmon.out here (see profcat --help)\n")))
        shutil.copy(os.path.join(FIX, "callgraph"), os.path.join(self.tmp, "a.out"))
        self.assertEqual(run(cwd=self.tmp)[0], 2)   # a.out alone
        shutil.copy(os.path.join(FIX, "gmon.out"), self.tmp)
        rc, out, err = run("-n", "2", cwd=self.tmp)
        self.assertEqual((rc, err), (0, ""))
        self.assertEqual(out, run("-n", "2", *CG)[1].replace(
            "callgraph (elf)", "a.out (elf)"))
        rc, out, err = run("-v", "--style", "gprof", cwd=self.tmp)
        self.assertEqual(err.splitlines()[0],
                         "profcat: no FILE given: reading a.out and gmon.out (as gprof)")
        with open(os.path.join(FIX, "gprof-p.txt")) as f:
            self.assertEqual(out, f.read())

    def test_binary_exports_and_terminals(self):
        master, slave = pty.openpty()
        try:
            for fmt in ("pprof", "gmon"):
                self.assertEqual(run("-e", fmt, *CG, stdout=slave), (2, None, (
                    "profcat: the %s export is binary: not written to a terminal "
                    "(give -o FILE or pipe it)\n" % fmt)))
            self.assertEqual(run("merge", "-e", "gmon", *CG, "gmon.out", stdout=slave)[0], 2)
            # text exports and reports still go to the terminal
            self.assertEqual(run("-e", "folded", "-n", "1", *CG, stdout=slave)[0], 2)
            self.assertEqual(run("-e", "folded", *CG, stdout=slave)[0], 0)
        finally:
            os.close(master)
            os.close(slave)
        out = os.path.join(self.tmp, "p.pb.gz")
        self.assertEqual(run("-e", "pprof", "-o", out, *CG), (0, "", ""))
        r = subprocess.run([PROFCAT, "-e", "gmon", *CG], cwd=FIX,
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE)   # a pipe
        self.assertEqual((r.returncode, r.stderr, r.stdout[:4]), (0, b"", b"gmon"))

    def test_messages(self):
        self.assertEqual(run(self.tmp, "gmon.out"), (3, "", (
            "profcat: %s: is a directory, not a capture or symbol file\n" % self.tmp)))
        self.assertEqual(run("diff", self.tmp, "gmon.out"), (3, "", (
            "profcat: %s: is a directory, not a capture or symbol file\n" % self.tmp)))
        self.assertEqual(run("-o", "./", *CG), (2, "", (
            "profcat: ./: is a directory, not a regular file; -o only replaces "
            "regular files (write to standard output and redirect instead)\n")))
        rc, out, err = run("callgraph")
        self.assertEqual((rc, err), (0, (
            "profcat: warning: no capture given (callgraph: symbols only), so the "
            "report is empty: give the capture too (e.g. profcat prog gmon.out)\n")))
        self.assertTrue(out.endswith("(no symbol received samples)\n"), out)
        # the symbol table alone is what --list-symbols asks for: no warning
        rc, out, err = run("--list-symbols", "callgraph")
        self.assertEqual((rc, err), (0, ""))


if __name__ == "__main__":
    unittest.main(verbosity=2)
