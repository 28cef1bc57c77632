#!/usr/bin/env python3
"""MAME traces of a cc65 program, counted independently.

Builds tests/traces/nes/prog.c with cc65 (cl65 -t nes -g -vm -m prog.map
-Wl --dbgfile,prog.dbg), runs it in MAME (nes driver, headless) twice,
tracing maincpu with `trace FILE,maincpu,noloop` and with loop folding,
until a breakpoint on done() turns the trace off.  Then:
- profcat's per-function counts from the noloop trace with the ld65 map
  equal the counts this script computes from the trace lines and the map
  (each PC goes to the exported code label at or below it; the last label
  gets none: it has no extent);
- MAME's folding rule replayed on the noloop trace gives the folded trace
  line for line (so the noloop trace is the folded one's expansion), and
  profcat's counts from the folded trace equal the noloop counts over the
  instructions the folded trace records.
Skips (77) without cl65 or mame.
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile
import unittest

PROFCAT = os.environ["PROFCAT"]
HERE = os.path.dirname(os.path.abspath(__file__))
MAME = shutil.which("mame") or (os.path.exists("/usr/games/mame") and "/usr/games/mame")
CL65 = shutil.which("cl65")

EXPORT = re.compile(r"([^ ]+) +([0-9A-F]{6}) ([R ])([LE])([ZAFL])([I ]?)")
LINKER = re.compile(r"^__[A-Za-z0-9_]+_(LOAD|RUN|SIZE|START|LAST|FILEOFFS|COUNT|TABLE)__$")


def map_labels(path):
    """Exported code labels (absolute, not zero page, not ld65's own):
    {address: [names in file order]}."""
    labels = {}
    with open(path) as f:
        lines = f.read().split("\n")
    i = lines.index("Exports list by name:") + 2
    while lines[i].strip():
        for m in EXPORT.finditer(lines[i]):
            name, addr, kind, size = m.group(1), int(m.group(2), 16), m.group(4), m.group(5)
            if kind == "L" and size != "Z" and not LINKER.match(name):
                labels.setdefault(addr, []).append(name)
        i += 1
    return labels


def pick(names):
    """gprof's choice among aliases: fewest leading underscores, then first."""
    return min(names, key=lambda n: (len(n) - len(n.lstrip("_")), names.index(n)))


def per_function(pcs, labels):
    addrs = sorted(labels)
    counts = {}
    import bisect
    for pc, n in pcs.items():
        k = bisect.bisect_right(addrs, pc) - 1
        if k < 0 or k == len(addrs) - 1:
            continue  # below the first label, or in the last (no extent)
        name = pick(labels[addrs[k]])
        counts[name] = counts.get(name, 0) + n
    return counts


def trace_pcs(path):
    with open(path) as f:
        return [int(l.split(":", 1)[0], 16) for l in f if re.match(r"^[0-9A-F]+: ", l)]


def fold(pcs):
    """MAME's tracer on the PC sequence: the lines it writes (PCs as ints,
    loops as ('loop', n)), and the pending count at the end."""
    history = [0] * 64
    nextdex = 0
    loops = 0
    out = []
    for pc in pcs:
        if history.count(pc) > 1:
            loops += 1
            continue
        if loops:
            out.append(("loop", loops))
        loops = 0
        out.append(pc)
        nextdex = (nextdex + 1) % 64
        history[nextdex] = pc
    return out, loops


def folded_lines(path):
    out = []
    with open(path) as f:
        for l in f:
            m = re.match(r"^([0-9A-F]+): ", l)
            if m:
                out.append(int(m.group(1), 16))
                continue
            m = re.match(r"^   \(loops for (\d+) instructions\)$", l.rstrip("\n"))
            if m:
                out.append(("loop", int(m.group(1))))
            elif l.strip():
                raise AssertionError("unexpected line %r" % l)
    return out


def profcat_counts(*args):
    p = subprocess.run([PROFCAT, "-F", "csv", *args], capture_output=True, text=True)
    if p.returncode:
        raise AssertionError("profcat %s: exit %d: %s" % (args, p.returncode, p.stderr))
    rows = {}
    total = None
    for line in p.stdout.splitlines()[1:]:
        f = line.split(",")
        if f[0]:
            rows[f[1]] = int(f[2])
        elif f[1] == "[total]":
            total = int(f[2])
    return rows, total, p.stderr


@unittest.skipUnless(MAME and CL65, "needs cc65 (cl65) and mame (scripts/deps.sh)")
class MameTrace(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp(prefix="pc-mame-")
        t = cls.tmp
        shutil.copy(os.path.join(HERE, "nes", "prog.c"), t)
        subprocess.run([CL65, "-t", "nes", "-g", "-vm", "-m", "prog.map", "-Wl",
                        "--dbgfile,prog.dbg", "-o", "prog.nes", "prog.c"], cwd=t, check=True)
        cls.labels = map_labels(os.path.join(t, "prog.map"))
        done = [a for a, n in cls.labels.items() if "_done" in n][0]
        env = dict(os.environ, QT_QPA_PLATFORM="offscreen", HOME=t)
        for name, opt in (("noloop", ",noloop"), ("folded", "")):
            with open(os.path.join(t, name + ".txt"), "w") as f:
                f.write("bpset %X,1,{trace off; go}\ntrace %s.log,maincpu%s\ngo\n"
                        % (done, name, opt))
            subprocess.run([MAME, "nes", "-cart", "prog.nes", "-debug", "-debugscript",
                            name + ".txt", "-video", "none", "-sound", "none",
                            "-nothrottle", "-seconds_to_run", "1", "-skip_gameinfo",
                            "-nomouse"],
                           cwd=t, env=env, check=True, capture_output=True, timeout=600)

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp, ignore_errors=True)

    def path(self, name):
        return os.path.join(self.tmp, name)

    def test_noloop(self):
        pcs = trace_pcs(self.path("noloop.log"))
        hist = {}
        for pc in pcs:
            hist[pc] = hist.get(pc, 0) + 1
        want = per_function(hist, self.labels)
        got, total, err = profcat_counts(self.path("prog.map"), self.path("noloop.log"))
        self.assertEqual(total, len(pcs))
        self.assertEqual(got, want)
        for f in ("_fill", "_sum", "_wait", "_main"):
            self.assertGreater(got.get(f, 0), 0, f)
        self.assertEqual(err, "")

    def test_dbgfile(self):
        # cc65's debug-info file: the C functions (static ones too) with
        # their sizes; their counts equal the map-based ones
        pcs = trace_pcs(self.path("noloop.log"))
        hist = {}
        for pc in pcs:
            hist[pc] = hist.get(pc, 0) + 1
        want = per_function(hist, self.labels)
        got, total, err = profcat_counts(self.path("prog.dbg"), self.path("noloop.log"))
        self.assertEqual(total, len(pcs))
        for f in ("_fill", "_sum", "_wait", "_main", "_done"):
            self.assertEqual(got.get(f), want.get(f), f)
        self.assertEqual(sorted(got), ["_done", "_fill", "_main", "_sum", "_wait"])
        # source lines: the C lines of prog.c add up to the functions
        p = subprocess.run([PROFCAT, "-r", "source", "-F", "csv", self.path("prog.dbg"),
                            self.path("noloop.log")], capture_output=True, text=True)
        self.assertEqual(p.returncode, 0, p.stderr)
        lines = [l.split(",") for l in p.stdout.splitlines()[1:]]
        self.assertEqual(sum(int(float(r[2])) for r in lines if r[0].endswith("prog.c") and r[2]),
                         sum(got.values()))

    def test_folded(self):
        pcs = trace_pcs(self.path("noloop.log"))
        lines = folded_lines(self.path("folded.log"))
        self.assertTrue(any(isinstance(x, tuple) for x in lines), "no folded loop")
        replay, _ = fold(pcs)
        # the folded trace is MAME's folding of the noloop one (both runs
        # are the same emulation), up to its end
        self.assertEqual(replay[:len(lines)], lines)
        recorded = sum(x[1] if isinstance(x, tuple) else 1 for x in lines)
        hist = {}
        for pc in pcs[:recorded]:
            hist[pc] = hist.get(pc, 0) + 1
        want = per_function(hist, self.labels)
        got, total, err = profcat_counts("-v", self.path("prog.map"), self.path("folded.log"))
        self.assertEqual(total, recorded)
        self.assertEqual(got, want)
        last = max(i for i, x in enumerate(lines) if isinstance(x, tuple))
        self.assertIn("the trace may end inside a folded loop: MAME writes a loop's count"
                      " only when it logs the next line, so instructions run after the last"
                      " %d lines (after the fold on line" % (len(lines) - last - 1), err)

    def test_timeline(self):
        # the input's order (-r timeline): every window's counts per
        # function equal those of the noloop trace's own lines in the
        # window's [first, end), from the noloop trace and from the folded
        # one (its loops expanded in place)
        pcs = trace_pcs(self.path("noloop.log"))
        for log in ("noloop.log", "folded.log"):
            p = subprocess.run([PROFCAT, "-r", "timeline", "-F", "csv", self.path("prog.map"),
                                self.path(log)], capture_output=True, text=True)
            self.assertEqual(p.returncode, 0, p.stderr)
            wins = {}
            for line in p.stdout.splitlines()[1:]:
                w, first, end, count, name = line.split(",", 4)
                wins.setdefault((int(first), int(end)), {})[name] = int(count)
            bounds = sorted(wins)
            self.assertGreater(len(bounds), 1, log)
            self.assertLessEqual(len(bounds), 64, log)
            self.assertEqual(bounds[0][0], 0)
            for (a, b), (c, _) in zip(bounds, bounds[1:]):
                self.assertEqual(b, c)
            for first, end in bounds:
                hist = {}
                for pc in pcs[first:end]:
                    hist[pc] = hist.get(pc, 0) + 1
                got = wins[(first, end)]
                self.assertEqual({k: v for k, v in got.items() if k != "(no symbol)"},
                                 per_function(hist, self.labels), (log, first, end))
                self.assertEqual(sum(got.values()), end - first, (log, first, end))


if __name__ == "__main__":
    r = unittest.main(exit=False, verbosity=2).result
    if r.skipped and not r.failures and not r.errors and r.testsRun == len(r.skipped):
        sys.exit(77)
    sys.exit(0 if r.wasSuccessful() else 1)
