#!/usr/bin/env python3
"""Tests of the profcore Python package (bindings/python/profcore).

Run by `meson test` with PYTHONPATH = the source package, PROFCORE_LIBRARY
= the built library, PROFCAT = the built CLI and PC_TICKS_PLUGIN = the
example plugin built in the tree.  Counts are checked against the C
report (profcat) and against GNU gprof's outputs kept with the fixtures.
"""
import csv
import io
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

import profcore
from profcore import ProfcoreError, RegionClass

SOURCE = os.environ["PC_SOURCE_ROOT"]
PROFCAT = os.environ["PROFCAT"]
UNIX = os.path.join(SOURCE, "tests", "unix", "fixtures", "x86_64-nopie")
ELF = os.path.join(UNIX, "callgraph")
GMON = os.path.join(UNIX, "gmon.out")
TICKS = os.path.join(SOURCE, "examples", "plugin", "sample.ticks")


def profcat(*args):
    r = subprocess.run([PROFCAT] + list(args), stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, universal_newlines=True)
    return r.returncode, r.stdout, r.stderr


def gprof_flat(path):
    """{name: (percent, self_seconds, calls or None)} from gprof -b -p."""
    out = {}
    with open(path) as f:
        lines = f.read().splitlines()
    for line in lines[5:]:
        f = line.split()
        if len(f) == 7:
            out[f[6]] = (float(f[0]), float(f[2]), int(f[3]))
        elif len(f) == 4:
            out[f[3]] = (float(f[0]), float(f[2]), None)
    return out


class Basics(unittest.TestCase):
    def test_version(self):
        self.assertEqual(profcore.version(), "0.1.0")
        self.assertEqual(os.path.realpath(profcore.library_path()),
                         os.path.realpath(os.environ["PROFCORE_LIBRARY"]))

    def test_report_names(self):
        names = profcore.report_names()
        self.assertEqual(names[0], "flat")
        self.assertEqual(len(names), len(set(names)))

    def test_builtin_loaders(self):
        with profcore.Registry() as reg:
            names = [l.name for l in reg.loaders()]
            self.assertIn("elf", names)
            self.assertIn("gmon", names)
            elf = [l for l in reg.loaders() if l.name == "elf"][0]
            self.assertEqual(elf.abi_version, 1)
            self.assertEqual(elf.roles, profcore.Role.SYMBOLS)

    def test_context_manager_closes(self):
        with profcore.Profile() as prof:
            self.assertFalse(prof.closed)
        self.assertTrue(prof.closed)
        with self.assertRaisesRegex(ValueError, "profile is closed"):
            prof.symbols()
        prof.close()  # twice is fine

    def test_library_next_to_package(self):
        """A copy of the package with the library beside it needs no
        environment variable."""
        with tempfile.TemporaryDirectory() as tmp:
            pkg = os.path.join(tmp, "profcore")
            shutil.copytree(os.path.dirname(profcore.__file__), pkg,
                            ignore=shutil.ignore_patterns("__pycache__"))
            lib = os.path.join(pkg, "libprofcore.so.0")
            shutil.copy(os.environ["PROFCORE_LIBRARY"], lib)
            env = dict(os.environ, PYTHONPATH=tmp)
            env.pop("PROFCORE_LIBRARY")
            env.pop("LD_LIBRARY_PATH", None)
            r = subprocess.run(
                [sys.executable, "-c",
                 "import profcore; print(profcore.library_path())"],
                env=env, cwd=tmp, stdout=subprocess.PIPE,
                universal_newlines=True, check=True)
            self.assertEqual(r.stdout, lib + "\n")

    def test_bad_library_variable(self):
        env = dict(os.environ, PROFCORE_LIBRARY="/nonexistent/libx.so")
        r = subprocess.run(
            [sys.executable, "-c", "import profcore; profcore.version()"],
            env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
            universal_newlines=True)
        self.assertNotEqual(r.returncode, 0)
        self.assertIn("OSError: PROFCORE_LIBRARY=/nonexistent/libx.so "
                      "cannot be loaded", r.stderr)


class Unix(unittest.TestCase):
    """gmon.out + ELF (gcc -pg, x86-64, non-PIE)."""

    @classmethod
    def setUpClass(cls):
        cls.prof = profcore.load(ELF, GMON)
        cls.rows = {r.name: r for r in cls.prof.rows()}
        cls.totals = cls.prof.totals()
        cls.gprof = gprof_flat(os.path.join(UNIX, "gprof-p.txt"))

    @classmethod
    def tearDownClass(cls):
        cls.prof.close()

    def test_sources(self):
        self.assertEqual(self.prof.sources, [("elf", ELF), ("gmon", GMON)])
        self.assertEqual(self.prof.rate, 100.0)
        self.assertEqual(self.prof.dimension, "seconds")

    def test_counts_agree_with_gprof(self):
        """self seconds and % time, rounded as gprof prints them."""
        for name, (pct, secs, calls) in self.gprof.items():
            with self.subTest(name=name):
                row = self.rows[name]
                self.assertEqual(round(row.count / 100.0, 2), secs)
                self.assertEqual(round(row.percent, 2), pct)
                if calls is not None:
                    self.assertEqual(row.calls, calls)

    def test_counts_agree_with_profcat(self):
        """Every number of profcat's CSV flat report, from the bindings."""
        rc, out, err = profcat("--output-format=csv", ELF, GMON)
        self.assertEqual((rc, err), (0, ""))
        c_rows = list(csv.DictReader(io.StringIO(out)))
        listed = [r for r in c_rows if r["rank"]]
        totals = {r["symbol"]: r for r in c_rows if not r["rank"]}
        # profcat lists the rows with samples or calls, most samples first.
        expect = [r for r in self.prof.top()
                  if r.count or r.calls or r.self_calls]
        self.assertEqual([r["symbol"] for r in listed],
                         [r.name for r in expect])
        for c, row in zip(listed, expect):
            with self.subTest(name=row.name):
                self.assertEqual(float(c["count"]), round(row.count, 6))
                self.assertEqual(float(c["percent"]), round(row.percent, 4))
                self.assertEqual(int(c["calls"]), row.calls)
                self.assertEqual(int(c["self_calls"]), row.self_calls)
                self.assertEqual(int(c["address"], 16), row.address)
        self.assertEqual(float(totals["[total]"]["count"]), self.totals.total)
        self.assertEqual(float(totals["[in program]"]["count"]),
                         self.totals.in_program)
        self.assertEqual(float(totals["[outside]"]["count"]),
                         self.totals.outside)

    def test_render_is_the_c_report(self):
        rc, out, err = profcat(ELF, GMON)
        self.assertEqual((rc, err), (0, ""))
        self.assertEqual(self.prof.render(), out)
        self.assertEqual(self.prof.render("flat"), out)

    def test_arcs(self):
        """Arcs merged per (caller, callee) are gprof -q's call counts."""
        arcs = self.prof.arcs()
        self.assertEqual(len(arcs), 11)
        seen = {}
        for a in arcs:
            caller = self.prof.lookup(a.from_address)
            callee = self.prof.lookup(a.to_address)
            key = (caller.name, callee.name)
            seen[key] = seen.get(key, 0) + a.count
        self.assertEqual(seen, {
            ("main", "hot"): 1, ("main", "tinies"): 1, ("main", "fib"): 1,
            ("main", "is_even"): 1200, ("is_odd", "is_even"): 601540,
            ("is_even", "is_odd"): 602054, ("fib", "fib"): 392834,
            ("tinies", "tiny_a"): 24000000, ("tinies", "tiny_b"): 24000000,
            ("tinies", "tiny_c"): 24000000})
        self.assertEqual(self.rows["fib"].calls, 1)
        self.assertEqual(self.rows["fib"].self_calls, 392834)

    def test_symbols_and_lookup(self):
        syms = {s.name: s for s in self.prof.symbols()}
        hot = syms["hot"]
        self.assertEqual(hot.kind, profcore.SymbolKind.TEXT)
        self.assertIsNone(hot.segment)
        self.assertTrue(hot.flags & profcore.SymbolFlags.FUNC)
        self.assertEqual(self.prof.lookup(hot.address).name, "hot")
        self.assertIsNone(self.prof.lookup(0))

    def test_totals(self):
        t = self.totals
        # 365 samples in the histogram, all inside the program's text.
        self.assertEqual((t.total, t.in_program, t.outside, t.excluded),
                         (365.0, 365.0, 0.0, 0.0))
        self.assertEqual(set(t.by_class.values()), {0.0})
        # gprof's proportional split credits the symbols with a little
        # more than the bins hold; attributed is that sum.
        self.assertAlmostEqual(t.attributed,
                               sum(r.count for r in self.rows.values()),
                               places=9)
        self.assertEqual(round(t.attributed, 6), 365.567652)
        hist = self.prof.histograms()
        self.assertEqual(len(hist), 1)
        self.assertEqual(sum(hist[0].counts), 365)

    def test_top(self):
        self.assertEqual([r.name for r in self.prof.top(4)],
                         ["hot", "tiny_b", "tiny_a", "tiny_c"])


class Errors(unittest.TestCase):
    def test_corrupt_gmon(self):
        with open(GMON, "rb") as f:
            data = f.read()
        with tempfile.TemporaryDirectory() as tmp:
            bad = os.path.join(tmp, "gmon.out")
            with open(bad, "wb") as f:
                f.write(data[:40])
            with profcore.Profile() as prof:
                with self.assertRaises(ProfcoreError) as cm:
                    prof.load(bad, format="gmon")
            e = cm.exception
            rc, out, err = profcat("--format=gmon", bad)
            self.assertNotEqual(rc, 0)
            # The same FILE:OFFSET: message as profcat prints.
            self.assertEqual(err, "profcat: %s\n" % e)
            self.assertEqual(e.file, bad)
            self.assertIsInstance(e.offset, int)
            self.assertEqual(e.status, "PC_ETRUNC")
            self.assertEqual(e.code, -3)

    def test_unknown_format_name(self):
        with profcore.Profile() as prof:
            with self.assertRaises(ProfcoreError) as cm:
                prof.load(GMON, format="no-such-format")
            self.assertEqual(cm.exception.status, "PC_ENOTFOUND")

    def test_missing_file(self):
        with profcore.Profile() as prof:
            with self.assertRaises(ProfcoreError) as cm:
                prof.load("/nonexistent/gmon.out")
            self.assertEqual(cm.exception.status, "PC_EIO")
            self.assertEqual(cm.exception.file, "/nonexistent/gmon.out")

    def test_load_bytes_error_names_the_buffer(self):
        with profcore.Profile() as prof:
            with self.assertRaises(ProfcoreError) as cm:
                prof.load_bytes(b"TICKS 1\nrate x\n", name="mem.ticks",
                                format="elf")
            self.assertEqual(cm.exception.file, "mem.ticks")


@unittest.skipUnless(os.environ.get("PC_TICKS_PLUGIN"), "plugin not built")
class Plugin(unittest.TestCase):
    """The example plugin through a Registry: samples, symbols, errors."""

    def setUp(self):
        self.reg = profcore.Registry()
        self.reg.load_plugin(os.environ["PC_TICKS_PLUGIN"])

    def tearDown(self):
        self.reg.close()

    def test_rows(self):
        with profcore.Profile(self.reg) as prof:
            prof.load(TICKS)
            self.assertEqual(prof.rate, 100.0)
            self.assertEqual(
                [(r.name, r.address, r.end, r.count) for r in prof.rows()],
                [("main", 0x1000, 0x1040, 8.0), ("parse", 0x1040, 0x10a0, 25.0),
                 ("emit", 0x10a0, 0x10c0, 3.0)])
            self.assertEqual([round(r.percent, 4) for r in prof.top()],
                             [69.4444, 22.2222, 8.3333])
            self.assertEqual(prof.samples(),
                             [(None, 0x1004, 7), (None, 0x1008, 1),
                              (None, 0x1042, 20), (None, 0x1050, 5),
                              (None, 0x10a4, 3)])

    def test_load_bytes_with_format(self):
        with profcore.Profile(self.reg) as prof:
            prof.load_bytes(b"TICKS 1\nsym 16 16 f\npc 20 2\n", "m",
                            format="ticks")
            self.assertEqual([(r.name, r.count) for r in prof.rows()],
                             [("f", 2.0)])

    def test_error_offset(self):
        with profcore.Profile(self.reg) as prof:
            with self.assertRaises(ProfcoreError) as cm:
                prof.load_bytes(b"TICKS 1\nsym 16 zz f\n", "m.ticks")
            e = cm.exception
            self.assertEqual((e.file, e.offset, e.status), ("m.ticks", 15,
                                                             "PC_EFORMAT"))
            self.assertEqual(str(e),
                             "m.ticks:15: expected a symbol size, found 'zz'")


if __name__ == "__main__":
    unittest.main(verbosity=2)
