#!/usr/bin/env python3
"""Tests of the profcore Python package (bindings/python/profcore).

Run by `meson test` with PYTHONPATH = the source package, PROFCORE_LIBRARY
= the built library, PROFCAT = the built CLI and PC_TICKS_PLUGIN = the
example plugin built in the tree.  scripts/venv-test.sh runs it against the
package that `pip install .` put into a fresh venv instead (PC_INSTALLED=1,
no PYTHONPATH, no PROFCORE_LIBRARY).  Counts are checked against the C
report (profcat) and against GNU gprof's outputs kept with the fixtures.
"""
import csv
import ctypes
import io
import os
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import unittest


def _preload_asan():
    """Sanitizer builds: re-run this script with the ASan runtime preloaded
    (it must come first when ctypes loads an instrumented libprofcore).
    Python's own allocations are not leak-checked."""
    rt = os.environ.get("PC_ASAN_RUNTIME")
    if rt and rt not in os.environ.get("LD_PRELOAD", ""):
        env = dict(os.environ, LD_PRELOAD=rt,
                   ASAN_OPTIONS="detect_leaks=0:abort_on_error=1")
        os.execve(sys.executable, [sys.executable] + sys.argv, env)


_preload_asan()

import profcore  # noqa: E402
from profcore import ProfcoreError, RegionClass  # noqa: E402

SOURCE = os.environ["PC_SOURCE_ROOT"]
PROFCAT = os.environ["PROFCAT"]
UNIX = os.path.join(SOURCE, "tests", "unix", "fixtures", "x86_64-nopie")
ELF = os.path.join(UNIX, "callgraph")
GMON = os.path.join(UNIX, "gmon.out")
TICKS = os.path.join(SOURCE, "examples", "plugin", "sample.ticks")
DOS = os.path.join(SOURCE, "tests", "dos", "fixtures")
INSTALLED = os.environ.get("PC_INSTALLED") == "1"
with open(os.path.join(SOURCE, "meson.build"), encoding="utf-8") as _f:
    # the project version, written there only
    VERSION = re.search(r"\bproject\([^)]*?\bversion\s*:\s*'([^']+)'",
                        _f.read()).group(1)


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


def check_against_csv(test, prof, *args):
    """Every number of profcat's CSV flat report for args, from prof."""
    rc, out, err = profcat("--output-format=csv", *args)
    test.assertEqual((rc, err), (0, ""))
    c_rows = list(csv.DictReader(io.StringIO(out)))
    listed = [r for r in c_rows if r["rank"]]
    totals = {r["symbol"]: r for r in c_rows if not r["rank"]}
    # profcat lists the rows with samples or calls, most samples first.
    expect = [r for r in prof.top() if r.count or r.calls or r.self_calls]
    test.assertEqual([r["symbol"] for r in listed], [r.name for r in expect])
    for c, row in zip(listed, expect):
        with test.subTest(name=row.name):
            test.assertEqual(float(c["count"]), round(row.count, 6))
            test.assertEqual(float(c["percent"]), round(row.percent, 4))
            test.assertEqual(int(c["calls"]), row.calls)
            test.assertEqual(int(c["self_calls"]), row.self_calls)
            test.assertEqual(int(c["address"], 16), row.address)
    t = prof.totals()
    test.assertEqual(float(totals["[total]"]["count"]), t.total)
    test.assertEqual(float(totals["[in program]"]["count"]), t.in_program)
    test.assertEqual(float(totals["[outside]"]["count"]), t.outside)
    for cls, n in t.by_class.items():
        if cls != RegionClass.APPLICATION and n:
            test.assertEqual(
                float(totals["[outside:%s]" % cls.name.lower()]["count"]), n)


class Basics(unittest.TestCase):
    def test_version(self):
        from profcore import _lib as c
        self.assertEqual(profcore.version(), VERSION)
        self.assertEqual(profcore.__version__, VERSION)
        # the bindings are for this tree's version: they load a library
        # of its ABI (the SONAME's suffix) and refuse another one
        self.assertEqual(c.VERSION, VERSION)
        self.assertEqual(c.SONAME, "libprofcore.so." + c.abi_version(VERSION))
        if INSTALLED:   # the wheel's own library, inside the package
            self.assertEqual(profcore.library_path(), os.path.join(
                os.path.dirname(profcore.__file__), "libprofcore-py.so"))
            self.assertTrue(profcore.__file__.startswith(sys.prefix),
                            profcore.__file__)
            return
        self.assertEqual(os.path.realpath(profcore.library_path()),
                         os.path.realpath(os.environ["PROFCORE_LIBRARY"]))

    def test_abi(self):
        """The SONAME's suffix: MAJOR.MINOR before 1.0, then MAJOR; a
        library of another ABI is refused in one line."""
        from profcore import _lib as c
        self.assertEqual([c.abi_version(v) for v in
                          ("0.41.0", "0.41.7", "0.10.1", "1.0.0", "2.5.1")],
                         ["0.41", "0.41", "0.10", "1", "2"])
        if INSTALLED:
            return
        r = subprocess.run(
            [sys.executable, "-c", "from profcore import _lib as c\n"
             "c.ABI = '0.2'\ntry:\n    c.lib()\nexcept OSError as e:\n"
             "    print(e)\n"], stdout=subprocess.PIPE,
            universal_newlines=True, check=True)
        self.assertEqual(r.stdout, "%s is libprofcore %s; these bindings "
                         "need 0.2.x\n" % (os.environ["PROFCORE_LIBRARY"],
                                          VERSION))

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
            self.assertEqual(elf.abi_version, 2)  # PC_LOADER_ABI_VERSION
            self.assertEqual(elf.roles, profcore.Role.SYMBOLS)
            gmon = [l for l in reg.loaders() if l.name == "gmon"][0]
            self.assertEqual([k.name for k in gmon.options],
                             ["width", "endian", "gmon-layout", "hist-width",
                              "counter-endian", "rate"])
            self.assertEqual(gmon.options[1], profcore.OptionKey(
                "endian", "enum", ("little", "le", "big", "be"), None,
                "byte order of the file; default: from the program or the file"))
            self.assertEqual(gmon.options[5].type, "number")

    def test_option_keys_checked(self):
        """Unknown keys and bad values: ProfcoreError naming them."""
        self.assertEqual([k.name for k in profcore.export_options("pprof")][-1],
                         "compress")
        self.assertEqual(profcore.report_options("flat")[0].name, "attribution")
        with self.assertRaises(profcore.ProfcoreError) as cm:
            profcore.export_options("nope")
        self.assertEqual(cm.exception.status, "PC_ENOTFOUND")
        with self.assertRaises(profcore.ProfcoreError) as cm:
            profcore.load(GMON, format="gmon", options={"rat": 100})
        self.assertEqual(cm.exception.status, "PC_EUSAGE")
        self.assertEqual(cm.exception.message,
                         "unknown option 'rat' for loader gmon; known: width, endian, "
                         "gmon-layout, hist-width, counter-endian, rate")

    def test_struct_layouts_match_c(self):
        """Every ctypes mirror has the C compiler's size and offsets."""
        from profcore import _lib as c
        mirrors = {"pc_error": c.PcError, "pc_symbol": c.PcSymbol,
                   "pc_region": c.PcRegion, "pc_histogram": c.PcHistogram,
                   "pc_arc": c.PcArc, "pc_row": c.PcRow,
                   "pc_totals": c.PcTotals, "pc_cg_node": c.PcCgNode,
                   "pc_cg_edge": c.PcCgEdge, "pc_option_decl": c.PcOptionDecl}
        out = subprocess.run([os.environ["PC_STRUCT_LAYOUT"]], check=True,
                             stdout=subprocess.PIPE,
                             universal_newlines=True).stdout
        seen = set()
        for line in out.splitlines():
            name, size, *fields = line.split()
            if name == "PC_REGION_COUNT":
                self.assertEqual(int(size), c.PC_REGION_COUNT)
                continue
            offsets = [(f.split(":")[0], int(f.split(":")[1]))
                       for f in fields]
            seen.add(name)
            with self.subTest(struct=name):
                if name == "pc_loader":  # every field of ABI 2
                    ours = [(f, getattr(c.PcLoader, f).offset)
                            for f, _ in c.PcLoader._fields_]
                    self.assertEqual(ours, offsets)
                    self.assertEqual(ctypes.sizeof(c.PcLoader), int(size))
                    continue
                st = mirrors[name]
                self.assertEqual(ctypes.sizeof(st), int(size))
                # ctypes names: "from" is a keyword in Python
                ours = [(f.rstrip("_"), getattr(st, f).offset)
                        for f, _ in st._fields_]
                self.assertEqual(ours, offsets)
        self.assertEqual(seen, set(mirrors) | {"pc_loader"})

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
            from profcore import _lib as c
            lib = os.path.join(pkg, c.SONAME)
            shutil.copy(profcore.library_path(), lib)
            if INSTALLED:   # the wheel's copy would be found first
                os.unlink(os.path.join(pkg, "libprofcore-py.so"))
            env = dict(os.environ, PYTHONPATH=tmp)
            env.pop("PROFCORE_LIBRARY", None)
            env.pop("LD_LIBRARY_PATH", None)
            run = [sys.executable, "-c",
                   "import profcore; print(profcore.library_path())"]
            paths = os.path.join(pkg, "_paths.py")
            if not INSTALLED:
                # out of the checkout, no meson.build says which version
                # the bindings are for: meson install writes _paths.py
                r = subprocess.run(run, env=env, cwd=tmp,
                                   stdout=subprocess.PIPE,
                                   stderr=subprocess.PIPE,
                                   universal_newlines=True)
                self.assertEqual(r.returncode, 1)
                self.assertEqual(r.stderr.splitlines()[-1],
                                 "ImportError: profcore: no _paths.py "
                                 "(written by meson install) and no project "
                                 "version in %s: cannot tell which "
                                 "libprofcore these bindings are for"
                                 % os.path.normpath(os.path.join(
                                     pkg, "..", "..", "..", "meson.build")))
                with open(paths, "w") as f:
                    f.write('LIBDIR = ""\nVERSION = "%s"\n' % VERSION)
            r = subprocess.run(run, env=env, cwd=tmp, stdout=subprocess.PIPE,
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
        check_against_csv(self, self.prof, ELF, GMON)

    def test_render_is_the_c_report(self):
        rc, out, err = profcat(ELF, GMON)
        self.assertEqual((rc, err), (0, ""))
        self.assertEqual(self.prof.render(), out)
        self.assertEqual(self.prof.render("flat"), out)

    def test_every_report_and_export_is_the_c_output(self):
        """render() and export() give profcat's bytes, for every report
        and export the library lists."""
        names = profcore.report_names()
        self.assertEqual(names[0], "flat")
        self.assertIn("callgraph", names)
        for name in names:
            if name == "intervals":
                continue  # needs an interval option; covered by tests/reports
            if name in ("source", "locations"):
                continue  # need a program with DWARF: tests/source
            if name == "timeline":
                continue  # needs an instruction trace: tests/traces
            with self.subTest(report=name):
                rc, out, err = profcat("-r", name, ELF, GMON)
                self.assertEqual((rc, err), (0, ""))
                self.assertEqual(self.prof.render(name), out)
        with self.subTest(report="intervals"):
            rc, out, err = profcat("-r", "intervals", "--interval", "hot",
                                   "--intervals", "4", ELF, GMON)
            self.assertEqual((rc, err), (0, ""))
            self.assertEqual(self.prof.render(
                "intervals", {"interval": "hot", "intervals": 4}), out)
        exports = profcore.export_names()
        self.assertIn("folded", exports)
        for name in exports:
            with self.subTest(export=name):
                r = subprocess.run([PROFCAT, "-e", name, ELF, GMON],
                                   stdout=subprocess.PIPE,
                                   stderr=subprocess.PIPE)
                self.assertEqual((r.returncode, r.stderr), (0, b""))
                self.assertEqual(self.prof.export(name), r.stdout)
        folded = self.prof.export("folded").decode()
        self.assertIn("main;hot 264\n", folded)

    def test_html_is_profcat_f_html(self):
        """Profile.html() is the page profcat -F html writes: one file,
        the flat rows as JSON inside it, names escaped for the script
        element."""
        r = subprocess.run([PROFCAT, "-F", "html", ELF, GMON],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        self.assertEqual((r.returncode, r.stderr), (0, b""))
        page = self.prof.html()
        self.assertEqual(page, r.stdout.decode("utf-8"))
        self.assertTrue(page.startswith("<!DOCTYPE html>\n"))
        # data (first view), code, data (the rest, gzip'ed), the Source
        # tab's data (gzip'ed): formats/html.c
        self.assertEqual(page.lower().count("<script"), 4)
        self.assertIn('"tiny_b",', page)
        self.assertIn("default-src 'none'", page)
        # options as for render(): a 90% interval instead of 95%
        self.assertIn('"ci": {"level": 90, "method": "wilson"}',
                      self.prof.html({"ci": 90}))

    def test_svg_is_profcat_e_svg(self):
        """Profile.svg() is the svg export (profcat -e svg)."""
        if "svg" not in profcore.export_names():
            self.skipTest("no svg export in this library yet (issue #23 item 3)")
        r = subprocess.run([PROFCAT, "-e", "svg", ELF, GMON],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        self.assertEqual((r.returncode, r.stderr), (0, b""))
        svg = self.prof.svg()
        self.assertEqual(svg, r.stdout.decode("utf-8"))
        self.assertIn("<svg", svg)

    def test_threads_setting(self):
        with profcore.Profile() as p:
            p.threads = 2
            self.assertEqual(p.threads, 2)
            with self.assertRaises(ProfcoreError) as cm:
                p.threads = 9
            self.assertEqual(cm.exception.status, "PC_EUSAGE")
            self.assertEqual(cm.exception.message,
                             "9 threads: expected 0 (one per core) to 8")
            self.assertEqual(p.threads, 2)

    def test_unknown_report(self):
        with self.assertRaises(ProfcoreError) as cm:
            self.prof.render("no-such-report")
        self.assertEqual(cm.exception.status, "PC_ENOTFOUND")
        self.assertIsNone(cm.exception.file)

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

    def test_callgraph_is_gprof_q(self):
        """Indexes, self/children seconds and calls of gprof-q.txt."""
        g = self.prof.callgraph()
        self.assertEqual(g.dropped_arcs, 0)

        def secs(v):
            return round(v / 100.0, 2)

        want = {  # name: [index], self s, children s, calls, self calls
            "main": (1, 0.00, 3.66, 0, 0), "hot": (2, 2.64, 0.00, 1, 0),
            "tinies": (3, 0.02, 0.97, 1, 0),
            "tiny_b": (4, 0.36, 0.00, 24000000, 0),
            "tiny_a": (5, 0.33, 0.00, 24000000, 0),
            "tiny_c": (6, 0.29, 0.00, 24000000, 0),
            "is_odd": (8, 0.02, 0.00, 602054, 0),
            "is_even": (9, 0.00, 0.00, 602740, 0),
            "fib": (10, 0.00, 0.00, 1, 392834)}
        for name, (index, self_s, children_s, calls, self_calls) in \
                want.items():
            with self.subTest(name=name):
                n = g.node(name)
                self.assertEqual((n.index, secs(n.self_time),
                                  secs(n.children), n.calls, n.self_calls),
                                 (index, self_s, children_s, calls,
                                  self_calls))
        (cycle,) = [n for n in g.nodes if n.row is None]
        self.assertEqual((cycle.cycle, cycle.index, cycle.calls,
                          cycle.self_calls, secs(cycle.self_time)),
                         (1, 7, 1200, 1203594, 0.02))
        members = []
        m = cycle.next_member
        while m is not None:
            members.append(g.nodes[m].name)
            m = g.nodes[m].next_member
        self.assertEqual(members, ["is_odd", "is_even"])
        edges = {(g.nodes[e.parent].name, g.nodes[e.child].name):
                 (e.count, secs(e.self_time), secs(e.children))
                 for e in g.edges}
        self.assertEqual(edges[("main", "tinies")], (1, 0.02, 0.97))
        self.assertEqual(edges[("tinies", "tiny_b")], (24000000, 0.36, 0.0))
        self.assertEqual(edges[("main", "is_even")], (1200, 0.02, 0.0))
        self.assertEqual(len(edges), 10)

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


class Demangling(unittest.TestCase):
    """Rows carry demangled names, the raw ones stay reachable: an nm
    listing of C++ and Rust symbols (as `nm` prints them for a g++/rustc
    program) and a raw PC dump."""
    CIRCLE = "_ZNK3geo6Circle4areaEi"
    DOT = "_ZN3num3dotIdEET_RKSt6vectorIS1_SaIS1_EES6_"
    RUST = "_ZN4core3fmt5write17h0123456789abcdefE"

    def setUp(self):
        self.tmp = tempfile.mkdtemp()
        self.nm = os.path.join(self.tmp, "prog.nm")
        with open(self.nm, "w") as f:
            f.write("0000000000001000 0000000000000040 T %s\n"
                    "0000000000001040 0000000000000040 T %s\n"
                    "0000000000001080 0000000000000040 T %s\n"
                    "00000000000010c0 0000000000000040 T main\n"
                    % (self.CIRCLE, self.DOT, self.RUST))
        self.pcs = os.path.join(self.tmp, "pcs.txt")
        with open(self.pcs, "w") as f:
            f.write("0x1000\n0x1004\n0x1040\n0x1080\n0x1084\n0x1088\n0x10c0\n")
        self.prof = profcore.Profile()
        self.prof.load(self.nm)
        self.prof.load(self.pcs, format="raw")

    def tearDown(self):
        self.prof.close()
        shutil.rmtree(self.tmp)

    def test_rows_demangled_raw_kept(self):
        want = {self.CIRCLE: "geo::Circle::area(int) const",
                self.DOT: "double num::dot<double>(std::vector<double, "
                          "std::allocator<double> > const&, std::vector<double, "
                          "std::allocator<double> > const&)",
                self.RUST: "core::fmt::write", "main": "main"}
        if not profcore.demangler_available():
            want = {k: k for k in want}
        rows = {r.raw_name: (r.name, r.count) for r in self.prof.rows()}
        self.assertEqual(rows, {self.CIRCLE: (want[self.CIRCLE], 2),
                                self.DOT: (want[self.DOT], 1),
                                self.RUST: (want[self.RUST], 3),
                                "main": ("main", 1)})
        syms = {s.name: s.display_name for s in self.prof.symbols()}
        self.assertEqual(syms, want)
        self.assertEqual([r.name for r in self.prof.top(2)],
                         [want[self.RUST], want[self.CIRCLE]])

    def test_demangle_none(self):
        self.prof.attribute({"demangle": "none"})
        self.assertEqual(sorted(r.name for r in self.prof.rows()),
                         sorted([self.CIRCLE, self.DOT, self.RUST, "main"]))
        with self.assertRaises(ProfcoreError):
            self.prof.attribute({"demangle": "sometimes"})


class Dos(unittest.TestCase):
    """An MS LINK-style map + an MS-DOS PROFIL .PRF (tests/dos fixtures)."""

    def setUp(self):
        self.cwd = os.getcwd()
        os.chdir(DOS)  # the C reports name the files as given

    def tearDown(self):
        os.chdir(self.cwd)

    def test_demo_exe(self):
        with profcore.load("prf/DEMO.MAP", "prf/DEMO.PRF") as prof:
            self.assertEqual(prof.sources, [("map", "prf/DEMO.MAP"),
                                            ("prf", "prf/DEMO.PRF")])
            self.assertEqual(prof.rate, 1000.0)
            self.assertEqual([(r.name, r.address, r.end, r.count)
                              for r in prof.top()],
                             [("_work", 0x100, 0x1d0, 82.0),
                              ("_main", 0x0, 0x100, 26.0),
                              ("_idle", 0x1d0, 0x280, 8.0)])
            self.assertEqual([round(r.percent, 4) for r in prof.top()],
                             [64.0625, 20.3125, 6.25])
            t = prof.totals()
            self.assertEqual((t.total, t.in_program, t.attributed,
                              t.outside), (128.0, 117.0, 116.0, 11.0))
            self.assertEqual({c.name: n for c, n in t.by_class.items() if n},
                             {"APPLICATION": 1.0, "DOS": 3.0, "IO": 7.0,
                              "HIGH": 1.0})
            # PROFIL counts DOS, I/O and high hits without an address.
            self.assertEqual([prof.class_samples(c) for c in
                              (RegionClass.DOS, RegionClass.IO,
                               RegionClass.HIGH)], [3, 7, 1])
            self.assertEqual([(r.label, r.low, r.high, r.cls)
                              for r in prof.regions()],
                             [("_TEXT", 0, 640, RegionClass.APPLICATION),
                              ("_DATA", 640, 896, RegionClass.APPLICATION),
                              ("program", 0, 1536, RegionClass.APPLICATION)])
            (h,) = prof.histograms()
            self.assertEqual((h.low, h.high, h.unit, len(h.counts),
                              sum(h.counts)), (0, 1600, 1, 25, 117))
            data = [s for s in prof.symbols() if s.name == "_table"]
            self.assertEqual(data[0].kind, profcore.SymbolKind.DATA)
            self.assertEqual(data[0].section, "_DATA")
            check_against_csv(self, prof, "prf/DEMO.MAP", "prf/DEMO.PRF")
            rc, out, err = profcat("prf/DEMO.MAP", "prf/DEMO.PRF")
            self.assertEqual(prof.render(), out)

    def test_com_option_and_bucket_start(self):
        with profcore.Profile() as prof:
            prof.load("dosmap/mslink_basicdos_PRIMES.MAP")
            prof.load("prf/PRIMES.PRF", options={"com": True})
            self.assertEqual([(r.name, r.count) for r in prof.top(2)],
                             [("MAIN", 87.0), ("CTRLC", 12.0)])
            # the notes profcat -v prints (tests/dos/expected)
            with open(os.path.join(SOURCE, "tests", "dos", "expected",
                                   "verbose_notes.err")) as f:
                want = [l[len("profcat: note: "):] for l in
                        f.read().splitlines()
                        if l.startswith("profcat: note: ")]
            self.assertEqual(prof.notes, want)
            self.assertEqual(len(want), 3)
            self.assertEqual(prof.warnings, [])
            prof.attribute({"attribution": "bucket-start"})
            self.assertEqual([(r.name, r.count) for r in prof.top(2)],
                             [("MAIN", 96.0), ("CTRLC", 3.0)])
            rc, out, err = profcat("--attribution", "bucket-start",
                                   "dosmap/mslink_basicdos_PRIMES.MAP",
                                   "-O", "com", "prf/PRIMES.PRF")
            self.assertEqual((rc, err), (0, ""))
            self.assertEqual(prof.render(), out)

    def test_truncated_prf(self):
        with self.assertRaises(ProfcoreError) as cm:
            profcore.load("prf/DEMO.MAP", "prf/TRUNC.PRF")
        e = cm.exception
        self.assertEqual((e.status, e.file, e.offset, e.message),
                         ("PC_ETRUNC", "prf/TRUNC.PRF", 30,
                          "file ends after 30 bytes; 25 buckets need 68"))
        with open(os.path.join(SOURCE, "tests", "dos", "expected",
                               "trunc.err")) as f:
            self.assertEqual("profcat: %s\n" % e, f.read())


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

    def test_load_per_file_formats(self):
        """A raw dump and its symbols in one call, each with its own format
        and options: four 64-bit big-endian PCs, three in hot, one in tiny_b
        (whose addresses the ELF's symbol table gives)."""
        with tempfile.TemporaryDirectory() as tmp:
            dump = os.path.join(tmp, "pcs.bin")
            with open(dump, "wb") as f:
                for pc in (0x401225, 0x401226, 0x401230, 0x401273):
                    f.write(pc.to_bytes(8, "big"))
            with profcore.load(ELF, (dump, "raw", {"width": 64,
                                                   "endian": "big"})) as p:
                self.assertEqual([(r.name, r.count) for r in p.top()
                                  if r.count],
                                 [("hot", 3.0), ("tiny_b", 1.0)])
            with self.assertRaisesRegex(TypeError, "a file to load is"):
                profcore.load((dump,))

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


class RegistryLifetime(unittest.TestCase):
    """A Registry closed while profiles made with it are open (with a
    ``with`` block, by close(), or while another thread loads): the
    registry refuses new use at once and the C registry is freed with the
    last profile, never under it (was a use-after-free)."""

    def rows(self, prof):
        return [(r.name, round(r.count, 2)) for r in prof.top()][:2]

    def test_close_while_profile_open(self):
        reg = profcore.Registry()
        prof = profcore.Profile(reg)
        reg.close()
        self.assertTrue(reg.closed)
        with self.assertRaises(ValueError) as cm:
            reg.loaders()
        self.assertEqual(str(cm.exception), "registry is closed")
        with self.assertRaises(ValueError):
            profcore.Profile(reg)
        prof.load(ELF)
        prof.load(GMON)
        self.assertEqual(self.rows(prof), [("hot", 264.41), ("tiny_b", 35.56)])
        prof.close()
        reg.close()  # twice: harmless

    def test_with_block(self):
        with profcore.Registry() as reg:
            prof = profcore.load(ELF, registry=reg)
        prof.load(GMON)  # after the block: the registry is still held
        self.assertEqual(self.rows(prof), [("hot", 264.41), ("tiny_b", 35.56)])
        prof.close()

    def test_close_while_loading(self):
        reg = profcore.Registry()
        loaded, errors = [], []

        def load_loop():
            for _ in range(200):
                try:
                    with profcore.Profile(reg) as prof:
                        prof.load(ELF)
                        prof.load(GMON)
                        loaded.append(self.rows(prof))
                except ValueError as e:  # the registry was closed
                    errors.append(str(e))
                    return

        t = threading.Thread(target=load_loop)
        t.start()
        while not loaded and t.is_alive():
            pass
        reg.close()
        t.join()
        self.assertTrue(loaded)
        self.assertEqual(set(map(tuple, loaded)),
                         {(("hot", 264.41), ("tiny_b", 35.56))})
        self.assertIn(errors, ([], ["registry is closed"]))


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
