#!/usr/bin/env python3
"""profcat end to end: reports, machine outputs, errors, exit codes, -o."""
import csv
import gzip
import io
import json
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

PROFCAT = os.environ["PROFCAT"]
ROOT = os.environ["PC_SOURCE_ROOT"]
FIX = os.path.join(ROOT, "tests", "unix", "fixtures", "x86_64-nopie")
ELF = os.path.join(FIX, "callgraph")
GMON = os.path.join(FIX, "gmon.out")
# PROFCORE_PLUGIN_PATH's separator is the target's (';' on Windows)
TARGET_PATHSEP = ";" if os.environ.get("PC_CROSS_LEG") == "mingw" else os.pathsep
# a build without the ELF loader (-Delf=disabled: the mingw leg) cannot
# read the fixture's symbols
HAVE_ELF = os.environ.get("PC_HAVE_ELF", "1") == "1"
needs_elf = unittest.skipUnless(HAVE_ELF, "built without the ELF loader")
needs_plugins = unittest.skipUnless(os.environ.get("PC_HAVE_PLUGINS", "1") == "1",
                                    "built without plugin support")


def run(*args, env=None, cwd=None):
    e = dict(os.environ)
    e.pop("PROFCORE_PLUGIN_PATH", None)
    if env:
        e.update(env)
    p = subprocess.run([PROFCAT, *args], capture_output=True, text=True, env=e,
                       cwd=cwd)
    return p.returncode, p.stdout, p.stderr


class Cli(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp()

    def tearDown(self):
        shutil.rmtree(self.tmp)

    @needs_elf
    def test_flat_matches_gprof_seconds(self):
        rc, out, err = run("-F", "csv", GMON, ELF)  # order does not matter
        self.assertEqual(rc, 0, err)
        rows = {r["symbol"]: r for r in csv.DictReader(io.StringIO(out))}
        with open(os.path.join(FIX, "gprof-p.txt")) as f:
            lines = f.read().splitlines()[5:]
        n = 0
        for line in lines:
            parts = line.split()
            if not parts:
                continue
            name, self_s = parts[-1], parts[2]
            self.assertEqual("%.2f" % (float(rows[name]["count"]) / 100), self_s, name)
            n += 1
        self.assertGreater(n, 5)

    @needs_elf
    def test_text_csv_json_agree(self):
        rc, text, _ = run(ELF, GMON)
        self.assertEqual(rc, 0)
        rc, c, _ = run("--output-format", "csv", ELF, GMON)
        rc, j, _ = run("--output-format=json", ELF, GMON)
        data = json.loads(j)
        rows = [r for r in csv.DictReader(io.StringIO(c)) if r["rank"]]
        self.assertEqual(len(rows), len(data["rows"]))
        body = [l.split() for l in text.splitlines()[5:]]
        for r, jr, t in zip(rows, data["rows"], body):
            self.assertEqual(r["symbol"], jr["symbol"])
            self.assertEqual(t[1], jr["symbol"])
            self.assertEqual(t[2], "%.2f" % jr["count"])
            self.assertEqual(t[3], "%.2f" % jr["percent"])
            self.assertAlmostEqual(float(r["count"]), jr["count"], places=6)
        total = [r for r in csv.DictReader(io.StringIO(c)) if r["symbol"] == "[total]"]
        self.assertEqual(float(total[0]["count"]), data["totals"]["total"])
        self.assertIn("Samples: %d total" % data["totals"]["total"], text)

    @needs_elf
    def test_gzip_input(self):
        gz = os.path.join(self.tmp, "gmon.out.gz")
        with open(GMON, "rb") as f, gzip.open(gz, "wb") as g:
            g.write(f.read())
        a = run("-F", "csv", ELF, GMON)[1]
        b = run("-F", "csv", ELF, gz)[1]
        self.assertEqual(a, b)

    @needs_elf
    def test_truncated_capture(self):
        cut = os.path.join(self.tmp, "cut.out")
        with open(GMON, "rb") as f:
            data = f.read()
        with open(cut, "wb") as f:
            f.write(data[:100])
        rc, out, err = run(ELF, cut)
        self.assertEqual(rc, 1)
        self.assertEqual(out, "")
        self.assertEqual(err.count("\n"), 1)
        self.assertRegex(err, r"^profcat: %s:37: histogram claims \d+ bins \(\d+ bytes\) but only 39 bytes follow\n$" % cut)

    def test_wrong_format(self):
        rc, out, err = run(os.path.join(FIX, "gprof-p.txt"))
        self.assertEqual(rc, 1)
        self.assertTrue(err.startswith("profcat: %s:0: unrecognised file format" % os.path.join(FIX, "gprof-p.txt")), err)
        rc, out, err = run("--format", "gmon", os.path.join(FIX, "gprof-p.txt"))
        self.assertEqual(rc, 1)
        # the gmon loader's own message (tested in tests/unix): one line with an offset
        self.assertRegex(err, r"^profcat: [^\n]*gprof-p\.txt:\d+: [^\n]+\n$")
        rc, _, err = run("--format", "nosuch", GMON)
        self.assertEqual(rc, 2)

    def test_usage_and_io_errors(self):
        self.assertEqual(run()[0], 2)
        self.assertEqual(run("--bogus", GMON)[0], 2)
        rc, _, err = run(os.path.join(self.tmp, "missing"))
        self.assertEqual(rc, 3)
        self.assertEqual(err, "profcat: %s: no such file\n" % os.path.join(self.tmp, "missing"))
        rc, out, _ = run("--help")
        self.assertEqual(rc, 0)
        self.assertIn("Exit status", out)
        rc, out, _ = run("--version")
        self.assertRegex(out, r"^profcat \(profcore\) \d+\.\d+\.\d+\n$")

    @needs_elf
    def test_output_file_atomic(self):
        dest = os.path.join(self.tmp, "report.txt")
        rc, out, err = run("-o", dest, ELF, GMON)
        self.assertEqual((rc, out), (0, ""), err)
        with open(dest) as f:
            self.assertEqual(f.read(), run(ELF, GMON)[1])
        # a failing run leaves the old file alone and no temporary behind
        rc, _, _ = run("-o", dest, ELF, os.path.join(FIX, "gprof-p.txt"))
        self.assertEqual(rc, 1)
        with open(dest) as f:
            self.assertIn("Flat profile", f.read())
        self.assertEqual(os.listdir(self.tmp), ["report.txt"])
        # never over an input
        copy = os.path.join(self.tmp, "gmon.out")
        shutil.copy(GMON, copy)
        rc, _, err = run("-o", copy, ELF, copy)
        self.assertEqual(rc, 2)
        self.assertIn("refusing to write the output over an input file", err)
        with open(copy, "rb") as a, open(GMON, "rb") as b:
            self.assertEqual(a.read(), b.read())

    def test_list_formats(self):
        rc, out, _ = run("--list-formats")
        self.assertEqual(rc, 0)
        lines = {l.split()[0]: l.split()[1] for l in out.splitlines()[1:]}
        # the ELF loader is listed exactly when the build has it
        self.assertEqual(lines.get("elf"), "symbols" if HAVE_ELF else None)
        self.assertEqual(lines["gmon"], "samples,arcs")

    @needs_elf
    def test_list_symbols_csv(self):
        rc, out, _ = run("--list-symbols", "-F", "csv", ELF)
        self.assertEqual(rc, 0)
        rows = list(csv.DictReader(io.StringIO(out)))
        self.assertEqual(list(rows[0].keys()), ["name", "segment", "address", "size", "kind"])
        hot = [r for r in rows if r["name"] == "hot"][0]
        self.assertEqual(hot["kind"], "text")
        nm = subprocess.run(["nm", ELF], capture_output=True, text=True).stdout if shutil.which("nm") else ""
        for line in nm.splitlines():
            parts = line.split()
            if len(parts) == 3 and parts[2] == "hot":
                self.assertEqual(int(parts[0], 16), int(hot["address"], 16))

    @needs_plugins
    def test_plugin_listed(self):
        plug_dir = os.path.dirname(os.environ["TOY_PLUGIN"])
        rc, out, err = run("--list-formats", env={"PROFCORE_PLUGIN_PATH": plug_dir})
        self.assertIn("toy ", out)
        # the loader-ABI 1 build of the toy plugin loads too
        self.assertIn("\ntoy1 ", out)
        # the out-of-range plugins in the same directory are refused, not
        # loaded; the last refusal is reported
        self.assertEqual(err, "profcat: warning: %s: plugin built for loader ABI 0, "
                         "this libprofcore supports 1 to 2\n"
                         % os.path.join(plug_dir,
                                        os.path.basename(os.environ["BAD_PLUGIN_LOW"])))

    @needs_plugins
    def test_list_formats_verbose_plugin_keys(self):
        """-v lists a plugin's keys from its table; an ABI 1 plugin has none."""
        plug_dir = os.path.dirname(os.environ["TOY_PLUGIN"])
        rc, out, _ = run("--list-formats", "-v", env={"PROFCORE_PLUGIN_PATH": plug_dir})
        self.assertEqual(rc, 0)
        tail = out[out.index("\ntoy "):out.index("\n\nreport ") + 1]
        self.assertEqual(tail,
                         "\ntoy          samples                toy samples (test plugin)\n"
                         "    -O multiplier=<u64> (default 1)\n"
                         "        every count is multiplied by it\n"
                         "toy1         samples                toy samples (test plugin)\n"
                         "    (built for loader ABI 1: keys not declared)\n")

    def test_list_formats_verbose(self):
        """--list-formats -v: the keys of each loader, then of each report
        and each export, from its own table (issue #36)."""
        rc, out, err = run("--list-formats", "-v")
        self.assertEqual((rc, err), (0, ""))
        with open(os.path.join(ROOT, "tests", "core", "expected",
                               "list-formats-v.txt")) as f:
            want = f.read()
        if not HAVE_ELF:  # no elf entry: drop its line and its keys
            lines = want.splitlines(True)
            i = next(k for k, l in enumerate(lines) if l.startswith("elf "))
            j = i + 1
            while lines[j].startswith(" "):
                j += 1
            want = "".join(lines[:i] + lines[j:])
        self.assertEqual(out, want)

    @needs_elf
    def test_unknown_and_bad_keys(self):
        """-O keys: each loader gets its own; a key nobody declares is
        refused by the report or export, naming it and the known ones; a
        bad value of a loader's key is refused by that loader."""
        rc, out, err = run(ELF, GMON, "-e", "pprof", "-O", "granularty=symbol",
                           "-o", os.path.join(self.tmp, "x.pb"))
        self.assertEqual((rc, out), (2, ""))
        self.assertEqual(err, "profcat: unknown option 'granularty' for export pprof; known: "
                         "attribution, use-sizes, demangle, granularity, stacks, focus, "
                         "ignore, hide, compress (did you mean 'granularity'? "
                         "-O KEY=VALUE: profcat --list-formats -v lists the keys of every "
                         "loader, report and export)\n")
        self.assertFalse(os.path.exists(os.path.join(self.tmp, "x.pb")))
        rc, out, err = run(ELF, GMON, "-O", "cutof=50")
        self.assertEqual((rc, out), (2, ""))
        self.assertEqual(err, "profcat: unknown option 'cutof' for report flat; known: "
                         "attribution, use-sizes, demangle, gprof-symspecs, output-format, "
                         "style, granularity, zero, barchart, cutoff, percent-of, top, sort, "
                         "focus, ignore, hide, ci, source-path, debuginfod, interval, "
                         "intervals, callgraph-time "
                         "(did you mean 'cutoff'? -O KEY=VALUE: profcat --list-formats -v "
                         "lists the keys of every loader, report and export)\n")
        # a key another report reads: refused with the report's own list
        rc, out, err = run(ELF, GMON, "-r", "callgraph", "-O", "disasm-select=main")
        self.assertEqual((rc, out), (2, ""))
        self.assertEqual(err, "profcat: unknown option 'disasm-select' for report callgraph; "
                         "known: attribution, use-sizes, demangle, gprof-symspecs, "
                         "output-format, style, callgraph-time, zero, focus, ignore, hide, "
                         "source-path, debuginfod (-O KEY=VALUE: profcat --list-formats -v "
                         "lists the keys of every loader, report and export)\n")
        rc, out, err = run(ELF, GMON, "-e", "gmon", "--granularity", "symbol",
                           "-o", os.path.join(self.tmp, "x.gmon"))
        self.assertEqual((rc, out), (2, ""))
        self.assertEqual(err, "profcat: unknown option 'granularity' for export gmon; "
                         "known: none (-O KEY=VALUE: profcat --list-formats -v "
                         "lists the keys of every loader, report and export)\n")
        self.assertFalse(os.path.exists(os.path.join(self.tmp, "x.gmon")))
        rc, out, err = run(ELF, GMON, "-O", "rate=fast")
        self.assertEqual((rc, out), (2, ""))
        self.assertEqual(err, "profcat: %s: bad value 'fast' for option 'rate' of loader "
                         "gmon; expected a number\n" % GMON)
        rc, out, err = run(ELF, GMON, "--top", "many")
        self.assertEqual((rc, out), (2, ""))
        self.assertEqual(err, "profcat: bad value 'many' for option 'top' of report flat; "
                         "expected an unsigned integer\n")
        # a loader key goes to its loader only (elf does not know rate),
        # and is no key of the report: 100 Hz instead of the file's
        rc, out, err = run(ELF, GMON, "-O", "rate=50", "-O", "dynamic-symbols=0")
        self.assertEqual((rc, err), (0, "profcat: warning: %s: the capture says 100 Hz; "
                                        "reporting at 50 Hz as --rate says\n" % GMON))
        self.assertIn("\nRate: 50 Hz, each sample counts as 0.02 seconds;", out)
        # load-address is read by the fit check too: never refused as
        # unknown, though neither these loaders nor the export read it
        rc, out, err = run("--load-address", "0", ELF, GMON, "-e", "folded")
        self.assertEqual((rc, err), (0, ""))
        self.assertIn("main;hot 264\n", out)

    @needs_elf
    @needs_plugins
    def test_plugin_through_cli(self):
        plug_dir = os.path.dirname(os.environ["TOY_PLUGIN"])
        toy = os.path.join(self.tmp, "s.toy")
        with open(toy, "w") as f:
            f.write("TOY1\n401000 5\n")
        rc, out, err = run("-F", "csv", ELF, toy, env={"PROFCORE_PLUGIN_PATH": plug_dir})
        self.assertEqual(rc, 0, err)
        rows = [r for r in csv.DictReader(io.StringIO(out)) if r["rank"]]
        self.assertEqual(rows[0]["count"], "5")


    @needs_elf
    @needs_plugins
    def test_plugins_not_loaded_when_builtins_serve(self):
        """Plugins load only when no built-in loader reads a file (or for
        --list-formats): the directory's two refused plugins, which warn
        whenever they are loaded, stay silent for an ELF + gmon.out."""
        plug_dir = os.path.dirname(os.environ["TOY_PLUGIN"])
        rc, out, err = run(ELF, GMON, env={"PROFCORE_PLUGIN_PATH": plug_dir})
        self.assertEqual((rc, err), (0, ""))
        self.assertIn("hot", out)
        rc, _, err = run("-f", "gmon", GMON, "-f", "elf", ELF,
                         env={"PROFCORE_PLUGIN_PATH": plug_dir})
        self.assertEqual((rc, err), (0, ""))

    @needs_plugins
    def test_plugin_path_relative_entry_ignored(self):
        """A relative PROFCORE_PLUGIN_PATH entry would load code from the
        directory profcat runs in: skipped with one line each."""
        plug_dir = os.path.dirname(os.environ["TOY_PLUGIN"])
        rc, out, err = run("--list-formats", cwd=plug_dir,
                           env={"PROFCORE_PLUGIN_PATH": TARGET_PATHSEP.join(
                               [".", "", "tests/core"])})
        self.assertEqual(rc, 0)
        self.assertNotIn("toy", out)
        self.assertEqual(err,
                         "profcat: warning: PROFCORE_PLUGIN_PATH: relative entry ignored"
                         " (plugins load from absolute directories only): .\n"
                         "profcat: warning: PROFCORE_PLUGIN_PATH: relative entry ignored"
                         " (plugins load from absolute directories only): tests/core\n")


if __name__ == "__main__":
    unittest.main()
