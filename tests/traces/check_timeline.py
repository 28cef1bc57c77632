#!/usr/bin/env python3
"""The input's order (libprofcore/timeline.c, -r timeline) on synthesized
traces: every window's counts per function equal those the script counts
from the trace's own instructions in the window's [first, end); windows
follow each other from 0 to the last instruction; a trace much longer
than 64 windows keeps 64 at most (windows merged pairwise) with every
count still exact; cycles go to the window of the instruction they
belong to; a trace with folded loops (MAME) counts the folded
instructions in their place."""
import os
import subprocess
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from check_mame import fold  # noqa: E402
from check_traces import mame_text  # noqa: E402

PROFCAT = os.environ["PROFCAT"]
SOURCE = os.environ["PC_SOURCE_ROOT"]
HAVE_YAML = os.environ.get("PC_HAVE_YAML", "1") == "1"
SPAN = 4096  # the first windows' span (timeline.c PC_TL_SPAN)
FUNCS = [(0x8000, "main"), (0x8100, "alpha"), (0x8200, "beta"), (0x8300, "gamma")]


def profcat(*args, stdin=None):
    p = subprocess.run([PROFCAT, *args], capture_output=True, input=stdin)
    return p.returncode, p.stdout.decode(), p.stderr.decode()


def func(a):
    name = None
    for lo, n in FUNCS:
        if a >= lo:
            name = n
    return name if name and a < 0x8400 else "(no symbol)"


def phases(n):
    """n PCs: the program moves from function to function, so windows
    differ: main, then loops in alpha, beta, gamma by turns, growing."""
    pcs, k = [], 0
    while len(pcs) < n:
        pcs += [0x8000, 0x8002]
        lo = FUNCS[1 + k % 3][0]
        pcs += [lo + (i % 5) for i in range(50 + 37 * (k % 11))]
        if k % 7 == 3:
            pcs.append(0x9000)  # outside every symbol
        k += 1
    return pcs[:n]


def timeline(out):
    """CSV rows -> [(first, end, {function: count})] in window order."""
    wins = []
    for line in out.splitlines()[1:]:
        w, first, end, count, name = line.split(",", 4)
        if int(w) == len(wins):
            wins.append((int(first), int(end), {}))
        wins[-1][2][name] = int(count)
    return wins


class Timeline(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory(prefix="pc-timeline-")
        cls.nm = cls.path("prog.nm")
        with open(cls.nm, "w") as f:
            for lo, name in FUNCS:
                f.write("%08x T %s\n" % (lo, name))
            f.write("%08x T end\n" % 0x8400)

    @classmethod
    def path(cls, name):
        return os.path.join(cls.tmp.name, name)

    def check(self, wins, value, n):
        """Windows contiguous from 0 to n, at most 64, each exact."""
        self.assertLessEqual(len(wins), 64)
        self.assertEqual(wins[0][0], 0)
        self.assertEqual(wins[-1][1], n)
        for (f0, e0, _), (f1, _, _) in zip(wins, wins[1:]):
            self.assertEqual(e0, f1)
        for first, end, got in wins:
            want = {}
            for i in range(first, end):
                name, v = value(i)
                if v:
                    want[name] = want.get(name, 0) + v
            self.assertEqual(got, want, "window [%d, %d)" % (first, end))

    def test_windows_exact(self):
        pcs = phases(5 * SPAN + 123)
        t = self.path("pc.log")
        with open(t, "w") as f:
            f.write("".join("=> 0x%x:\tnop\n" % a for a in pcs))
        rc, out, err = profcat("-r", "timeline", "-F", "csv", self.nm, t)
        self.assertEqual((rc, err), (0, ""))
        wins = timeline(out)
        self.assertEqual([(a, b) for a, b, _ in wins],
                         [(k * SPAN, min((k + 1) * SPAN, len(pcs))) for k in range(6)])
        self.check(wins, lambda i: (func(pcs[i]), 1), len(pcs))
        # the text report: the first window's largest count first
        rc, out, err = profcat("-r", "timeline", self.nm, t)
        lines = out.splitlines()
        self.assertEqual(lines[0], "Timeline: 6 windows of the instructions in the input's order (exact counts)")
        top = max(wins[0][2].items(), key=lambda x: (x[1], x[0] == "main"))
        self.assertEqual(lines[3].split(), ["0", "0", str(SPAN), str(top[1]), top[0]])

    def test_merged_bounded(self):
        # 300 windows' worth of instructions, from a pipe: 64 windows at most
        n = 300 * SPAN + 7
        pcs = phases(n)
        rc, out, err = profcat("-r", "timeline", "-F", "csv", self.nm, "-",
                               stdin="".join("=> 0x%x:\tnop\n" % a for a in pcs).encode())
        self.assertEqual((rc, err), (0, ""))
        wins = timeline(out)
        # 64 windows of SPAN become 32 of 2 * SPAN, ...: 1048576
        # instructions in 32 windows of 8 * SPAN, then 5 more and the rest
        self.assertEqual(len(wins), 38)
        self.assertEqual({b - a for a, b, _ in wins[:-1]}, {8 * SPAN})
        self.check(wins, lambda i: (func(pcs[i]), 1), n)

    def test_folds_in_place(self):
        pcs = [0x8000, 0x8002] + [0x8010, 0x8012, 0x8014] * 2000
        pcs += [0x8130 + i for i in range(70)] + [0x8220, 0x8221] * 3000
        pcs += [0x8330 + i for i in range(70)]  # logged: the trace ends outside a fold
        lines, pending = fold(pcs)
        self.assertEqual(pending, 0)
        t = self.path("mame.log")
        with open(t, "w") as f:
            f.write(mame_text(lines))
        rc, out, err = profcat("-r", "timeline", "-F", "csv", self.nm, t)
        self.assertEqual(rc, 0, err)
        wins = timeline(out)
        self.check(wins, lambda i: (func(pcs[i]), 1), len(pcs))
        # a window ends where its span is reached, or after the fold that reaches it
        self.assertTrue(all(b - a >= SPAN for a, b, _ in wins[:-1]))

    @unittest.skipUnless(HAVE_YAML, "user dialects need libyaml")
    def test_cycles(self):
        d = os.path.join(SOURCE, "tests", "traces", "fixtures", "toyemu.yaml")
        pcs = phases(2 * SPAN + 10)
        cyc = [0]
        for i, a in enumerate(pcs):
            cyc.append(cyc[-1] + 2 + (a & 3) + (i % 4 == 0))
        t = self.path("toy.log")
        with open(t, "w") as f:
            for i, a in enumerate(pcs):
                f.write("[cpu0] cyc=%06d pc=%04x nop\n" % (cyc[i], a))
        rc, out, err = profcat("-r", "timeline", "-F", "csv", self.nm, "--trace-dialect", d,
                               "-O", "trace-event=cycles", t)
        self.assertEqual(rc, 0, err)
        # the last instruction's cycles are unknown (nothing follows it)
        self.check(timeline(out), lambda i: (func(pcs[i]), cyc[i + 1] - cyc[i] if i + 1 < len(pcs) else 0),
                   len(pcs))
        # the windows are of instructions, their counts of cycles
        rc, out, err = profcat("-r", "timeline", self.nm, "--trace-dialect", d,
                               "-O", "trace-event=cycles", t)
        self.assertEqual(out.splitlines()[0], "Timeline: 3 windows of the instructions in the "
                         "input's order (exact counts of cycles)")
        rc, out, err = profcat("-r", "timeline", "-F", "json", self.nm, "--trace-dialect", d,
                               "-O", "trace-event=cycles", t)
        self.assertTrue(out.startswith('{"report":"timeline","event":"instructions","counts":"cycles",'), out[:80])

    def test_no_order(self):
        gmon = os.path.join(SOURCE, "tests", "traces", "fixtures", "toyemu.nm")
        rc, out, err = profcat("-r", "timeline", gmon)
        self.assertEqual((rc, out), (1, ""))
        self.assertEqual(err, "profcat: no timeline: no input kept the order of its counts (instruction traces of the format trace, QEMU logs and SWO captures do; histograms, aggregated counts and raw samples do not yet)\n")
        t = self.path("one.log")
        with open(t, "w") as f:
            f.write("=> 0x8000:\tnop\n=> 0x8002:\tnop\n")
        rc, out, err = profcat("-r", "timeline", self.nm, t, t)
        self.assertEqual(err, "profcat: no timeline: the profile holds several ordered inputs, whose orders cannot be combined; load one of them\n")


if __name__ == "__main__":
    unittest.main(verbosity=2)
