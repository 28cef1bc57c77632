#!/usr/bin/env python3
"""The live real-program corpus: programs in programs/ are built at test time
with the Debian toolchain, run, and what profcat prints is compared with the
reference tools reading the same files:

- c/: gcc -O2 -g -pg (clones, a cold split, static functions of one name in
  two files); profcat's flat numbers against `gprof -b -p` on the same
  gmon.out (never against counts from an earlier run: runs differ);
- cpp/: g++ -O1 -g -pg (namespaces, templates, virtual functions, a static
  initializer); the same, names demangled as gprof demangles them, and
  with --no-demangle against `gprof -b -p --no-demangle`;
- stripped copies and debug files of the C program (strip, objcopy);
- thumb/: arm-none-eabi-gcc -mthumb -mcpu=cortex-m3, whose function
  symbols carry the Thumb bit; a raw PC dump of every instruction address
  that objdump -d lists must attribute as nm -S and addr2line -f say.

A tool that is missing skips its test with the reason.
"""
import csv
import gzip
import io
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import unittest

PROFCAT = os.environ["PROFCAT"]
HERE = os.path.dirname(os.path.abspath(__file__))
PROGRAMS = os.path.join(HERE, "programs")
HAVE_DEMANGLE = os.environ.get("PC_HAVE_DEMANGLE", "1") == "1"
needs_demangle = unittest.skipUnless(
    HAVE_DEMANGLE, "built without a demangler (-Ddemangle=disabled or no libiberty-dev)")


def have(*tools):
    return all(shutil.which(t) for t in tools)


def run(cmd, cwd=None, check=True, input=None):
    p = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, input=input)
    if check and p.returncode != 0:
        raise AssertionError("%s: exit %d\n%s%s" % (" ".join(cmd), p.returncode,
                                                    p.stdout, p.stderr))
    return p


def profcat(*args):
    e = dict(os.environ)
    e.pop("PROFCORE_PLUGIN_PATH", None)
    p = subprocess.run([PROFCAT, *args], capture_output=True, text=True, env=e)
    return p.returncode, p.stdout, p.stderr


# gprof -b -p lines: %time, cumulative s, self s, [calls, self/call,
# total/call,] name (the name may hold blanks: demangled C++)
GPROF_LINE = re.compile(r"^\s*(\d+\.\d+)\s+(\d+\.\d+)\s+(\d+\.\d+)\s+"
                        r"(?:(\d+)\s+(\d+\.\d+)\s+(\d+\.\d+)\s+)?(\S.*)$")


def gprof_flat(exe, gmon, *opts, gprof="gprof"):
    """[(name, self seconds, calls)] in gprof's order."""
    out = run([gprof, "-b", "-p", *opts, exe, gmon]).stdout
    rows = []
    for line in out.splitlines():
        m = GPROF_LINE.match(line)
        if m:
            rows.append((m.group(7).rstrip(), m.group(3),
                         int(m.group(4)) if m.group(4) else 0))
    return rows, out


def profcat_flat(exe, gmon, *opts):
    """The same from profcat's CSV flat report (every listed row: gprof
    lists the functions with time or calls)."""
    rc, out, err = profcat("-F", "csv", *opts, exe, gmon)
    if rc != 0:
        raise AssertionError("profcat exit %d: %s" % (rc, err))
    rows = []
    for r in csv.DictReader(io.StringIO(out)):
        if not r["rank"]:
            continue  # the totals
        calls = int(r["calls"] or 0) + int(r["self_calls"] or 0)
        rows.append((r["symbol"], "%.2f" % float(r["self_seconds"]), calls))
    return rows, out


NOTE_PARTED = re.compile(r"^profcat: note: (\S+) is a function of its own "
                         r"here; gprof 2\.40 charges it to the symbol before it")


def gprof_drops(exe, gmon):
    """{clone: the text symbol before it} for each local symbol that gprof
    2.40 wrongly drops (profcat's -v notes name them; README "gprof 2.40
    divergence"): gprof charges its samples and calls to that symbol."""
    rc, out, err = profcat("-v", exe, gmon)
    clones = [m.group(1) for m in map(NOTE_PARTED.match, err.splitlines()) if m]
    if not clones:
        return {}
    text = [l.split() for l in run(["nm", "-n", exe]).stdout.splitlines()]
    text = [f for f in text if len(f) == 3 and f[1] in "tTW"]
    before = {}
    for i, f in enumerate(text):
        if f[2] in clones:
            j = i - 1   # the nearest earlier symbol gprof keeps
            while j >= 0 and (text[j][2] in clones or "." in text[j][2]):
                j -= 1
            before[f[2]] = text[j][2]
    return before


def as_gprof(rows, parted):
    """{name: (self seconds, calls)} with each parted clone's figures
    added to the symbol gprof charges them to."""
    out = {}
    for name, secs, calls in rows:
        name = parted.get(name, name)
        s0, c0 = out.get(name, (0.0, 0))
        out[name] = (s0 + float(secs), c0 + calls)
    return out


class Built(unittest.TestCase):
    """A program built and run once per class in a temporary directory."""
    tmp = None

    @classmethod
    def tearDownClass(cls):
        if cls.tmp:
            shutil.rmtree(cls.tmp)

    @classmethod
    def build(cls, compiler, flags, sources, out, rounds):
        """Builds and runs the program.  On a busy machine the kernel may
        charge it few clock ticks (profil samples at the ticks it is found
        running), so it runs again with twice the work, up to 3 times,
        until at least 3 functions have samples."""
        cls.tmp = tempfile.mkdtemp(prefix="pc-realworld-")
        exe = os.path.join(cls.tmp, out)
        gmon = os.path.join(cls.tmp, "gmon.out")
        run([compiler, *flags, "-o", exe, *sources])
        for attempt in range(4):
            run([exe, str(rounds << attempt)], cwd=cls.tmp)
            cls.timed = sum(1 for w in gprof_flat(exe, gmon)[0] if w[1] != "0.00")
            if cls.timed >= 3:
                break
        return exe, gmon

    def assert_same_flat(self, exe, gmon, gprof_opts=(), profcat_opts=()):
        want, gout = gprof_flat(exe, gmon, *gprof_opts)
        got, pout = profcat_flat(exe, gmon, *profcat_opts)
        self.assertGreater(len(want), 5, gout)
        parted = gprof_drops(exe, gmon)
        if parted:   # docs/attribution.md ("gprof 2.40 divergence"): compare the rest
            mine, theirs = as_gprof(got, parted), as_gprof(want, {})
            msg = "\ngprof:\n%s\nprofcat:\n%s" % (gout, pout)
            self.assertEqual(sorted(mine), sorted(theirs), msg)
            for name, (secs, calls) in mine.items():
                self.assertEqual(calls, theirs[name][1], name + msg)
                # a sum of figures printed to 0.01 s is within 0.01 of gprof's
                self.assertLessEqual(abs(secs - theirs[name][0]), 0.0101, name + msg)
        else:
            self.assertEqual(got, want, "\ngprof:\n%s\nprofcat:\n%s" % (gout, pout))
        # a few functions with time, or the comparison says little
        if self.timed < 3:
            self.skipTest("equal to gprof, but only %d functions got samples: "
                          "the machine is too busy to profile" % self.timed)


@unittest.skipUnless(have("gcc", "gprof"), "gcc or gprof not installed")
class CProgram(Built):
    @classmethod
    def setUpClass(cls):
        src = os.path.join(PROGRAMS, "c")
        cls.exe, cls.gmon = cls.build(
            "gcc", ["-O2", "-g", "-pg"],
            sorted(os.path.join(src, f) for f in os.listdir(src) if f.endswith(".c")),
            "prog", 160)

    def test_flat_equals_gprof(self):
        self.assert_same_flat(self.exe, self.gmon)

    def test_program_has_what_it_is_meant_to_have(self):
        names = run(["nm", self.exe]).stdout.split()
        self.assertIn("sort_words.cold", names)           # a cold split
        self.assertTrue(any(n.endswith(".constprop.0") for n in names), names)
        # two static mix(), one of them cloned
        self.assertEqual(sorted(n for n in names if n.startswith("mix")),
                         ["mix", "mix.constprop.0"])

    def test_stripped_program_refused(self):
        stripped = os.path.join(self.tmp, "prog.stripped")
        run(["strip", "-o", stripped, self.exe])
        rc, out, err = profcat(stripped, self.gmon)
        self.assertEqual((rc, out), (1, ""))
        self.assertEqual(err, "profcat: %s: stripped executable: no symbol table (.symtab) "
                         "and no function among its dynamic symbols; give the unstripped "
                         "program or its debug file (objcopy --only-keep-debug)\n" % stripped)
        # gprof refuses it too
        p = run(["gprof", "-b", "-p", stripped, self.gmon], check=False)
        self.assertIn("has no symbols", p.stderr)

    def test_debug_file_reads_as_the_program(self):
        debug = os.path.join(self.tmp, "prog.debug")
        run(["objcopy", "--only-keep-debug", self.exe, debug])
        want = profcat_flat(self.exe, self.gmon)[0]
        self.assertEqual(profcat_flat(debug, self.gmon)[0], want)


@unittest.skipUnless(have("gcc", "strip"), "gcc or binutils not installed")
class StrippedDynamic(unittest.TestCase):
    """Stripped files whose only symbols are dynamic ones."""

    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp(prefix="pc-realworld-")
        src = os.path.join(cls.tmp, "lib.c")
        with open(src, "w") as f:
            f.write("static int hidden(int x) { return x * 3 + 1; }\n"
                    "int shown(int x) { return hidden(x) + hidden(x + 1); }\n"
                    "int main(void) { return shown(2) == 0; }\n")
        cls.exe = os.path.join(cls.tmp, "prog")
        cls.lib = os.path.join(cls.tmp, "libx.so")
        run(["gcc", "-O0", "-rdynamic", "-o", cls.exe, src])
        run(["gcc", "-O0", "-shared", "-fPIC", "-o", cls.lib, src])
        run(["strip", cls.exe, cls.lib])

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp)

    def functions(self, path):
        """Defined dynamic functions in code and the bytes they cover, and
        the code's extent, from readelf."""
        secs = run(["readelf", "-S", "-W", path]).stdout
        code, lo, hi = {}, None, 0
        for m in re.finditer(r"\[\s*(\d+)\]\s+\S+\s+\S+\s+([0-9a-f]+)\s+[0-9a-f]+\s+"
                             r"([0-9a-f]+)\s+[0-9a-f]+\s+(\S*)", secs):
            idx, addr, size, flags = m.groups()
            if "X" in flags and "A" in flags:
                code[idx] = True
                if int(size, 16):
                    a, s = int(addr, 16), int(size, 16)
                    lo = a if lo is None else min(lo, a)
                    hi = max(hi, a + s)
        n = covered = 0
        for line in run(["readelf", "--dyn-syms", "-W", path]).stdout.splitlines():
            f = line.split()
            if len(f) >= 8 and f[3] in ("FUNC", "IFUNC") and f[6] in code:
                n += 1
                covered += int(f[2], 0)
        return n, covered, hi - lo

    def test_program_with_exports_refused(self):
        n, _, _ = self.functions(self.exe)
        self.assertGreater(n, 0)
        rc, out, err = profcat("--list-symbols", self.exe)
        self.assertEqual((rc, out), (1, ""))
        self.assertEqual(err, "profcat: %s: stripped executable: no symbol table (.symtab); "
                         "its dynamic symbols name only %d function%s; give the unstripped "
                         "program or its debug file (objcopy --only-keep-debug); "
                         "the option dynamic-symbols=1 charges all time to those "
                         "(-O KEY=VALUE)\n"
                         % (self.exe, n, "" if n == 1 else "s"))

    def test_forced_and_library_warn_with_coverage(self):
        for path, opts, what in ((self.exe, ["-O", "dynamic-symbols=1"], "program"),
                                 (self.lib, [], "file")):
            n, covered, code = self.functions(path)
            rc, out, err = profcat("-v", "--list-symbols", *opts, path)
            self.assertEqual(rc, 0, err)
            self.assertIn("profcat: warning: %s has no symbol table (.symtab): its %d "
                          "exported function%s %.1f%% of its code, time in the "
                          "others is charged to the function before them; give the "
                          "unstripped %s or its debug file (objcopy --only-keep-debug)\n"
                          % (os.path.basename(path), n, " covers" if n == 1 else "s cover",
                             100.0 * covered / code, what), err)
            self.assertIn(" shown\n", out)


@unittest.skipUnless(have("g++", "gprof"), "g++ or gprof not installed")
class CppProgram(Built):
    @classmethod
    def setUpClass(cls):
        cls.exe, cls.gmon = cls.build(
            "g++", ["-O1", "-g", "-pg"],
            [os.path.join(PROGRAMS, "cpp", "shapes.cpp")], "shapes", 3000)

    @needs_demangle
    def test_flat_equals_gprof_demangled(self):
        self.assert_same_flat(self.exe, self.gmon)

    def test_no_demangle_equals_gprof_no_demangle(self):
        self.assert_same_flat(self.exe, self.gmon, ["--no-demangle"], ["--no-demangle"])
        # -O demangle=none is the same
        self.assertEqual(profcat_flat(self.exe, self.gmon, "-O", "demangle=none")[0],
                         profcat_flat(self.exe, self.gmon, "--no-demangle")[0])

    @needs_demangle
    def test_every_output_demangles(self):
        name = "geo::Circle::area(int) const"
        rc, text, err = profcat(self.exe, self.gmon)
        self.assertIn(name, text)
        self.assertNotIn("_ZNK3geo6Circle4areaEi", text)
        rc, js, err = profcat("-F", "json", self.exe, self.gmon)
        self.assertIn(name, [r["symbol"] for r in json.loads(js)["rows"]])
        rc, syms, err = profcat("--list-symbols", "-F", "csv", self.exe)
        names = [r["name"] for r in csv.DictReader(io.StringIO(syms))]
        self.assertIn(name, names)
        self.assertIn("num::Poly<float, 5>::eval(float) const", names)
        for fmt in ("folded", "speedscope", "callgrind"):
            rc, out, err = profcat("-e", fmt, self.exe, self.gmon)
            self.assertEqual(rc, 0, err)
            self.assertIn("geo::Circle::area", out, fmt)
            # (_GLOBAL__sub_I__ZNK3geo... stays: gprof does not demangle it)
            self.assertNotRegex(out, r"(?<!\w)_ZNK3geo6Circle4areaEi", fmt)
        # pprof: Function.name demangled, Function.system_name the raw name
        pb = os.path.join(self.tmp, "shapes.pb.gz")
        rc, out, err = profcat("-e", "pprof", "-o", pb, self.exe, self.gmon)
        self.assertEqual((rc, err), (0, ""))
        with gzip.open(pb) as f:
            data = f.read()
        self.assertIn(b"\x1c" + name.encode(), data)   # its length, 28
        self.assertIn(b"\x16_ZNK3geo6Circle4areaEi", data)
        rc, cg, err = profcat("-r", "callgraph", self.exe, self.gmon)
        self.assertIn(name, cg)
        rc, out, err = profcat("-O", "demangle=maybe", self.exe, self.gmon)
        self.assertEqual((rc, err), (2, "profcat: bad value 'maybe' for option 'demangle' of "
                                     "pc_profile_fit; expected one of: auto, none, 0, 1, gnu\n"))

    @unittest.skipIf(HAVE_DEMANGLE, "built with the demangler")
    def test_without_demangler_says_so(self):
        rc, out, err = profcat("--demangle", self.exe, self.gmon)
        self.assertEqual(rc, 0)
        self.assertEqual(err, "profcat: warning: this profcat was built without a demangler "
                         "(libiberty-dev, meson -Ddemangle): names are shown mangled\n")
        self.assertIn("_ZNK3geo6Circle4areaEi", out)

    @needs_demangle
    def test_callgraph_equals_gprof(self):
        """gprof -q's text, index included: ordered by raw names, printed
        demangled."""
        want = run(["gprof", "-b", "-q", self.exe, self.gmon]).stdout
        rc, got, err = profcat("-r", "callgraph", self.exe, self.gmon)
        self.assertEqual((rc, err), (0, ""))
        self.assertEqual(got, want)

    @needs_demangle
    def test_list_symbols_raw_with_no_demangle(self):
        rc, syms, err = profcat("--list-symbols", "-F", "csv", "--no-demangle", self.exe)
        names = [r["name"] for r in csv.DictReader(io.StringIO(syms))]
        self.assertIn("_ZNK3geo6Circle4areaEi", names)
        self.assertNotIn("geo::Circle::area(int) const", names)

    @needs_demangle
    def test_nm_listing_demangled_too(self):
        """Names from the map loader (an nm listing) demangle the same way."""
        listing = os.path.join(self.tmp, "shapes.nm")
        with open(listing, "w") as f:
            f.write(run(["nm", self.exe]).stdout)
        rc, out, err = profcat("-F", "csv", listing, self.gmon)
        self.assertEqual(rc, 0, err)
        self.assertIn("geo::Circle::area(int) const", out)


def addr2line_frames(exe, addrs, *opts):
    """{address: ["function at file:line", ...]} innermost first, from
    addr2line -f -i -a (discriminators left out)."""
    out = run(["addr2line", "-f", "-i", "-a", *opts, "-e", exe, *addrs]).stdout
    want, cur = {}, None
    lines = out.splitlines()
    i = 0
    while i < len(lines):
        if lines[i].startswith("0x"):
            cur = int(lines[i], 16)
            want[cur] = []
            i += 1
            continue
        loc = re.sub(r" \(discriminator \d+\)$", "", lines[i + 1])
        # no line for the address: addr2line names the function from the
        # symbol table, and the file from the STT_FILE symbol before it
        # ("crtstuff.c:?"); profcat names the function only ("??:?",
        # docs/source.md)
        loc = re.sub(r"^.*:\?$", "??:?", loc)
        want[cur].append("%s at %s" % (lines[i], loc))
        i += 2
    return want


def symbolizer_frames(exe, addrs, demangle):
    """The same from llvm-symbolizer (llvm-14, a dependency of clang),
    the names demangled by c++filt (libiberty, as gprof and profcat; LLVM's
    demangler words some names differently)."""
    tool = "llvm-symbolizer" if have("llvm-symbolizer") else "llvm-symbolizer-14"
    out = run([tool, "--obj=" + exe, "--inlining", "--no-demangle", *addrs]).stdout
    blocks = [b.splitlines() for b in out.strip("\n").split("\n\n")]
    names = sorted({b[i] for b in blocks for i in range(0, len(b), 2)})
    shown = dict(zip(names, run(["c++filt"], input="\n".join(names) + "\n").stdout
                     .splitlines())) if demangle else {n: n for n in names}
    want = {}
    for addr, lines in zip(addrs, blocks):
        want[int(addr, 16)] = ["%s at %s" % (shown[lines[i]],
                                             re.sub(r":\d+$", "", lines[i + 1]))
                               for i in range(0, len(lines), 2)]
    return want


@unittest.skipUnless(have("g++", "gprof", "addr2line"), "g++, gprof or addr2line not installed")
class CppLines(Built):
    """Source-level rows of C++ code demangled as the function rows
    (issue #33 item 2): gprof -l demangles the function part of its line
    symbols.  At -O0 with DWARF 4: gprof 2.40 -l stops with "somebody
    miscounted" on this program at -O1 and -O2, and reads DWARF 5 file 1
    as the unit's own file (docs/source.md)."""

    @classmethod
    def setUpClass(cls):
        cls.exe, cls.gmon = cls.build(
            "g++", ["-O0", "-gdwarf-4", "-pg"],
            [os.path.join(PROGRAMS, "cpp", "shapes.cpp")], "shapes", 3000)

    def gprof_l(self, *opts):
        return run(["gprof", "-b", "-p", "-l", *opts, self.exe, self.gmon]).stdout

    @needs_demangle
    def test_line_rows_equal_gprof_l(self):
        rc, out, err = profcat("--style", "gprof", "--granularity", "line",
                               self.exe, self.gmon)
        self.assertEqual((rc, err), (0, ""))
        self.assertEqual(out, self.gprof_l())
        self.assertIn(" geo::Circle::area(int) const (shapes.cpp:", out)

    def test_no_demangle_line_rows_equal_gprof_l(self):
        rc, out, err = profcat("--no-demangle", "--style", "gprof", "--granularity",
                               "line", self.exe, self.gmon)
        self.assertEqual((rc, err), (0, ""))
        self.assertEqual(out, self.gprof_l("--no-demangle"))
        self.assertIn(" _ZNK3geo6Circle4areaEi (shapes.cpp:", out)

    @needs_demangle
    def test_address_rows_and_csv_demangled(self):
        rc, out, err = profcat("-F", "csv", "--granularity", "address", self.exe, self.gmon)
        self.assertEqual(rc, 0, err)
        names = [r["symbol"] for r in csv.DictReader(io.StringIO(out)) if r["rank"]]
        self.assertTrue(any(n.startswith("geo::Circle::area(int) const+0x") for n in names),
                        names)
        self.assertFalse([n for n in names if "_ZN" in n], names)
        rc, out, err = profcat("-F", "json", "--granularity", "line", self.exe, self.gmon)
        names = [r["symbol"] for r in json.loads(out)["rows"]]
        self.assertTrue(any(n.startswith("geo::Circle::area(int) const (shapes.cpp:")
                            for n in names), names)
        self.assertFalse([n for n in names if "_ZN" in n], names)

    def test_locations_as_addr2line(self):
        """-r locations names functions as addr2line -f -i -C (and, with
        --no-demangle, as addr2line -f -i)."""
        for popts, aopts in (([], ["-C"]), (["--no-demangle"], [])):
            if popts == [] and not HAVE_DEMANGLE:
                continue
            rc, out, err = profcat("-r", "locations", "-F", "csv", *popts,
                                   self.exe, self.gmon)
            self.assertEqual(rc, 0, err)
            recs = list(csv.DictReader(io.StringIO(out)))
            want = addr2line_frames(self.exe, [r["address"] for r in recs], *aopts)
            for r in recs:
                got = [re.sub(r":\d+$", "", f) for f in r["frames"].split(" < ")]
                self.assertEqual(got, want[int(r["address"], 16)], r["address"])
            self.assertTrue(any(("geo::Circle::area(int) const at " if not popts else
                                 "_ZNK3geo6Circle4areaEi at ") in r["frames"] for r in recs))

    def test_every_text_instruction_located_as_addr2line(self):
        """Every instruction of .text (a raw dump: the padding after a
        function's ret and the C runtime's functions without lines among
        them) -r locations as addr2line -f -i."""
        insns = run(["objdump", "-d", "-j", ".text", self.exe]).stdout
        pcs = ["0x" + m.group(1) for m in
               re.finditer(r"^\s+([0-9a-f]+):\t", insns, re.M)]
        self.assertGreater(len(pcs), 1000)
        dump = os.path.join(self.tmp, "text.txt")
        with open(dump, "w") as f:
            f.write("\n".join(pcs) + "\n")
        rc, out, err = profcat("-r", "locations", "-F", "csv", "--no-demangle",
                               self.exe, "-f", "raw", dump)
        self.assertEqual(rc, 0, err)
        recs = list(csv.DictReader(io.StringIO(out)))
        self.assertEqual(len(recs), len(pcs))
        want = addr2line_frames(self.exe, pcs)
        nosym = 0
        for r in recs:
            got = [re.sub(r":\d+$", "", f) for f in r["frames"].split(" < ")]
            self.assertEqual(got, want[int(r["address"], 16)], r["address"])
            nosym += got[0].endswith(" at ??:?")
        self.assertGreater(nosym, 10)

    @needs_demangle
    def test_source_selects_the_demangled_name(self):
        # the program was built here from the sources in the checkout:
        # they are read where the source-file rule allows, from a given
        # source path (docs/source.md)
        src = ["-O", "source-path=" + os.path.join(PROGRAMS, "cpp")]
        rc, by_show, err = profcat("-r", "source", "geo::Circle::area(int) const",
                                   *src, self.exe, self.gmon)
        self.assertEqual((rc, err), (0, ""))
        rc, by_raw, err = profcat("-r", "source", "_ZNK3geo6Circle4areaEi",
                                  *src, self.exe, self.gmon)
        self.assertEqual((rc, err), (0, ""))
        self.assertEqual(by_show, by_raw)
        self.assertIn("s += r * r * 3.14159 / (double)i;", by_show)

    @unittest.skipUnless(have("llvm-symbolizer") or have("llvm-symbolizer-14"),
                         "llvm-symbolizer not installed (clang's llvm-14)")
    def test_inlined_frames_demangled(self):
        """At -O2 (inlined templates): -r locations over every instruction
        of the code (a raw dump) names each frame as llvm-symbolizer
        --inlining [--no-demangle] (addr2line 2.40 names the static
        initializer inlined into _GLOBAL__sub_I_... after the function it
        is inlined into); pprof's inlined Functions are named demangled,
        system_name raw."""
        exe = os.path.join(self.tmp, "shapes-O2")
        run(["g++", "-O2", "-gdwarf-4", "-o", exe,
             os.path.join(PROGRAMS, "cpp", "shapes.cpp")])
        dis = run(["objdump", "-d", "--section=.text", exe]).stdout
        pcs = [m.group(1) for m in re.finditer(r"^\s+([0-9a-f]+):\s", dis, re.M)]
        dump = os.path.join(self.tmp, "O2.pcs")
        with open(dump, "w") as f:
            f.write("".join("0x%s\n" % a for a in pcs))
        for popts in ([], ["--no-demangle"]):
            if popts == [] and not HAVE_DEMANGLE:
                continue
            rc, out, err = profcat("-r", "locations", "-F", "csv", *popts,
                                   exe, "-f", "raw", dump)
            self.assertEqual(rc, 0, err)
            recs = list(csv.DictReader(io.StringIO(out)))
            self.assertEqual(len(recs), len(pcs))
            want = symbolizer_frames(exe, [r["address"] for r in recs], not popts)
            inlined = 0
            for r in recs:
                got = [re.sub(r":\d+$", "", f) for f in r["frames"].split(" < ")] \
                    if r["frames"] else []
                w = [f for f in want[int(r["address"], 16)] if not f.endswith(":0")]
                # the inline chains are what is checked here (where the
                # two read an address differently, e.g. padding, the
                # DWARF lookup's own tests say who is right)
                if len(w) < 2 or any(f.startswith("?? ") for f in w):
                    continue
                # the outermost frame's function: the symbol table's
                # name of a clone or cold part ("main.cold", "f [clone
                # .isra.0]") or the DWARF's, by tool and address: not what
                # is checked here
                for v in (got, w):
                    if v:
                        v[-1] = v[-1].split(" at ")[-1]
                self.assertEqual(got, w, r["address"])
                inlined += len(got) > 1
            self.assertGreater(inlined, 10)
        if not HAVE_DEMANGLE:
            return
        pb = os.path.join(self.tmp, "O2.pb")
        rc, out, err = profcat("-e", "pprof", "-O", "granularity=line", "-O", "compress=0",
                               "-o", pb, exe, "-f", "raw", dump)
        self.assertEqual((rc, err), (0, ""), err)
        with open(pb, "rb") as f:
            data = f.read()
        # an inlined template instance: its demangled and raw names
        for name in (b"std::_Vector_base<double, std::allocator<double> >::"
                     b"_M_deallocate(double*, unsigned long)",
                     b"_ZNSt12_Vector_baseIdSaIdEE13_M_deallocateEPdm"):
            self.assertTrue(name in data, name)


# ---- ARM Thumb ------------------------------------------------------------

def thumb_dump(elf, out):
    """Writes a raw PC dump (one hex PC a line) of every instruction (and
    literal-pool word) address that objdump -d lists in the firmware's
    code; returns the addresses."""
    dis = run(["arm-none-eabi-objdump", "-d", elf]).stdout
    pcs = [int(m.group(1), 16)
           for m in re.finditer(r"^\s+([0-9a-f]+):\s", dis, re.M)]
    with open(out, "w") as f:
        f.write("".join("0x%x\n" % a for a in pcs))
    return pcs


@unittest.skipUnless(have("arm-none-eabi-gcc", "arm-none-eabi-nm",
                          "arm-none-eabi-objdump", "arm-none-eabi-addr2line"),
                     "arm-none-eabi toolchain not installed")
class ThumbFirmware(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp(prefix="pc-realworld-")
        cls.elf = os.path.join(cls.tmp, "fw.elf")
        run(["arm-none-eabi-gcc", "-mthumb", "-mcpu=cortex-m3", "-g", "-O1",
             "-nostdlib", "-Wl,-Ttext=0x8000", "-Wl,-e,Reset_Handler",
             "-o", cls.elf, os.path.join(PROGRAMS, "thumb", "fw.c")])
        cls.dump = os.path.join(cls.tmp, "pcs.txt")
        cls.pcs = thumb_dump(cls.elf, cls.dump)
        # nm -S: the functions' even start addresses and sizes
        cls.funcs = {}
        for line in run(["arm-none-eabi-nm", "-S", cls.elf]).stdout.splitlines():
            f = line.split()
            if len(f) == 4 and f[2] in "tT":
                cls.funcs[f[3]] = (int(f[0], 16), int(f[1], 16))

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp)

    def test_symbols_carry_the_thumb_bit(self):
        syms = run(["arm-none-eabi-readelf", "-s", "-W", self.elf]).stdout
        odd = [l.split()[-1] for l in syms.splitlines()
               if " FUNC " in l and int(l.split()[1], 16) & 1]
        self.assertEqual(sorted(odd), sorted(self.funcs))

    def test_list_symbols_even_as_nm(self):
        rc, out, err = profcat("--list-symbols", "-F", "csv", self.elf)
        self.assertEqual(rc, 0, err)
        got = {r["name"]: (int(r["address"], 16), int(r["size"]))
               for r in csv.DictReader(io.StringIO(out)) if r["name"] in self.funcs}
        self.assertEqual(got, self.funcs)

    def test_every_pc_attributed_as_nm_and_addr2line(self):
        a2l = run(["arm-none-eabi-addr2line", "-f", "-e", self.elf,
                   *("0x%x" % a for a in self.pcs)]).stdout.splitlines()[0::2]
        want = {}
        for pc, fn in zip(self.pcs, a2l):
            by_nm = [n for n, (a, s) in self.funcs.items() if a <= pc < a + s]
            self.assertEqual(by_nm, [fn], hex(pc))  # the two references agree
            want[fn] = want.get(fn, 0) + 1
        rc, out, err = profcat("-F", "csv", self.elf, "-f", "raw", self.dump)
        self.assertEqual(rc, 0, err)
        got = {r["symbol"]: int(float(r["count"]))
               for r in csv.DictReader(io.StringIO(out)) if r["rank"]}
        self.assertEqual(got, want)
        # the entry points alone: each function's first instruction
        entries = os.path.join(self.tmp, "entries.txt")
        with open(entries, "w") as f:
            f.write("".join("0x%x\n" % a for a, _ in self.funcs.values()))
        rc, out, err = profcat("-F", "csv", self.elf, "-f", "raw", entries)
        got = {r["symbol"]: int(float(r["count"]))
               for r in csv.DictReader(io.StringIO(out)) if r["rank"]}
        self.assertEqual(got, {n: 1 for n in self.funcs})

    @unittest.skipUnless(have("arm-none-eabi-gprof"), "arm-none-eabi-gprof not installed")
    def test_flat_equals_arm_gprof(self):
        """arm-none-eabi-gprof reads the dump exported as gmon.out.  gprof
        never credits histogram time to the last symbol of its table (its
        bucket loop takes the next symbol's address as the end), so the
        last function's PCs are left out of this dump."""
        last = max(self.funcs, key=lambda n: self.funcs[n][0])
        a, size = self.funcs[last]
        dump = os.path.join(self.tmp, "not-last.txt")
        with open(dump, "w") as f:
            f.write("".join("0x%x\n" % pc for pc in self.pcs if not a <= pc < a + size))
        gmon = os.path.join(self.tmp, "fw.gmon")
        rc, out, err = profcat("-e", "gmon", "-o", gmon, self.elf, "-f", "raw", dump)
        self.assertEqual((rc, err), (0, ""))
        want, gout = gprof_flat(self.elf, gmon, gprof="arm-none-eabi-gprof")
        want = [(n, "%d" % float(t), c) for n, t, c in want]
        rc, out, err = profcat("-F", "csv", self.elf, "-f", "raw", dump)
        got = [(r["symbol"], r["count"], 0)
               for r in csv.DictReader(io.StringIO(out)) if r["rank"]]
        self.assertEqual(got, want, gout)
        self.assertEqual(len(got), len(self.funcs) - 1)


# ---- MIPS16 / microMIPS -----------------------------------------------------

def mips_elf(symbols, big=True):
    """A minimal ELF32 MIPS executable: a 0x100-byte .text at 0x400000 and
    symbols (name, value, st_other, type).  No MIPS toolchain is installed
    here, so the file is synthesized with the structure GNU ld gives
    MIPS16 and microMIPS functions (an odd st_value, STO_MIPS16 0xf0 or
    STO_MICROMIPS 0x80 in st_other; binutils bfd/elfxx-mips.c
    _bfd_mips_elf_symbol_processing clears the bit of odd STT_FUNC values)."""
    import struct
    e = ">" if big else "<"
    text = b"\0" * 0x100
    strtab = b"\0"
    syms = [b"\0" * 16]
    for name, value, other, typ in symbols:
        off = len(strtab)
        strtab += name.encode() + b"\0"
        syms.append(struct.pack(e + "IIIBBH", off, value, 4, 0x10 | typ, other, 1))
    symtab = b"".join(syms)
    shstr = b"\0.text\0.symtab\0.strtab\0.shstrtab\0"
    body = text + symtab + strtab + shstr
    o_text, o_sym = 52, 52 + len(text)
    o_str, o_shs = o_sym + len(symtab), o_sym + len(symtab) + len(strtab)
    shoff = 52 + len(body)
    shoff += (-shoff) % 4
    hdr = b"\x7fELF" + bytes([1, 2 if big else 1, 1]) + b"\0" * 9
    hdr += struct.pack(e + "HHIIIIIHHHHHH", 2, 8, 1, 0x400000, 0, shoff, 0,
                       52, 0, 0, 40, 5, 4)
    def sh(name, typ, flags, addr, off, size, link=0, info=0, align=1, ent=0):
        return struct.pack(e + "IIIIIIIIII", name, typ, flags, addr, off, size,
                           link, info, align, ent)
    shdrs = (sh(0, 0, 0, 0, 0, 0) + sh(1, 1, 6, 0x400000, o_text, len(text), align=4)
             + sh(7, 2, 0, 0, o_sym, len(symtab), 3, 1, 4, 16)
             + sh(15, 3, 0, 0, o_str, len(strtab)) + sh(23, 3, 0, 0, o_shs, len(shstr)))
    out = hdr + body
    return out + b"\0" * (shoff - len(out)) + shdrs


class CompressedIsaBits(unittest.TestCase):
    def test_mips16_and_micromips_functions_even(self):
        with tempfile.TemporaryDirectory() as tmp:
            for big in (True, False):
                path = os.path.join(tmp, "mips-%s.elf" % ("be" if big else "le"))
                with open(path, "wb") as f:
                    f.write(mips_elf([("mips32_fn", 0x400000, 0, 2),
                                      ("mips16_fn", 0x400041, 0xf0, 2),
                                      ("micro_fn", 0x400081, 0x80, 2),
                                      ("odd_func", 0x4000c1, 0, 2),
                                      ("odd_label", 0x4000e1, 0, 0)], big))
                rc, out, err = profcat("--list-symbols", "-F", "csv", path)
                self.assertEqual(rc, 0, err)
                got = {r["name"]: r["address"] for r in csv.DictReader(io.StringIO(out))}
                self.assertEqual(got, {"mips32_fn": "0x400000", "mips16_fn": "0x400040",
                                       "micro_fn": "0x400080", "odd_func": "0x4000c0",
                                       "odd_label": "0x4000e1"})


if __name__ == "__main__":
    unittest.main(verbosity=2)
