#!/usr/bin/env python3
"""Installs profcore into a temporary DESTDIR and uses it from outside.

- `meson install --destdir` puts every file under the prefix (library and
  its SONAME links, headers, pkg-config file, profcat, profcat(1), the
  plugin directory, the Python package);
- examples/linking and examples/plugin are copied out of the source tree
  and built with their Makefiles, seeing only pkg-config and the installed
  headers; both are run and their output is checked exactly;
- examples/cmake finds the installed tree with CMake's find_package;
- plugins with a wrong ABI version or without an entry point are refused;
- `man -l` renders the installed page without warnings;
- the installed Python package finds the installed library.

Environment: PC_BUILD_ROOT, PC_SOURCE_ROOT, MESON (command), CC.
"""
import glob
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import unittest

BUILD = os.environ["PC_BUILD_ROOT"]
SOURCE = os.environ["PC_SOURCE_ROOT"]
MESON = shlex.split(os.environ.get("MESON", "meson"))
HERE = os.path.dirname(os.path.abspath(__file__))
# Sanitizer builds: what links the instrumented library is instrumented
# too, and Python gets the ASan runtime preloaded.
SANITIZE = os.environ.get("PC_SANITIZE")
SAN_FLAGS = ["-fsanitize=" + SANITIZE] if SANITIZE else []
SAN_MAKE = (["CFLAGS=-O1 -g -Wall -Wextra " + SAN_FLAGS[0],
             "LDFLAGS=" + SAN_FLAGS[0]] if SANITIZE else [])


def run(cmd, env=None, cwd=None, check=True):
    r = subprocess.run(cmd, env=env, cwd=cwd, stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, universal_newlines=True)
    if check and r.returncode != 0:
        raise AssertionError("%s exited %d\nstdout:\n%s\nstderr:\n%s"
                             % (" ".join(cmd), r.returncode, r.stdout,
                                r.stderr))
    return r


class Installed(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp(prefix="pc-install-")
        cls.destdir = os.path.join(cls.tmp, "dest")
        run(MESON + ["install", "-C", BUILD, "--no-rebuild", "--quiet",
                     "--destdir", cls.destdir])
        opts = {o["name"]: o["value"] for o in json.loads(run(
            MESON + ["introspect", "--buildoptions", BUILD]).stdout)}
        cls.prefix = opts["prefix"]
        # the project version (meson.build, the only place it is written)
        # and the ABI version the SONAME carries: MAJOR.MINOR before 1.0
        cls.version = json.loads(run(
            MESON + ["introspect", "--projectinfo", BUILD]).stdout)["version"]
        v = cls.version.split(".")
        cls.abi = v[0] + "." + v[1] if v[0] == "0" else v[0]
        cls.soname = "libprofcore.so." + cls.abi

        def under(d):
            return os.path.join(cls.prefix, d)

        cls.libdir = under(opts["libdir"])
        cls.includedir = under(opts["includedir"])
        cls.bindir = under(opts["bindir"])
        cls.mandir = under(opts["mandir"])
        cls.datadir = under(opts["datadir"])
        cls.installed = json.loads(run(
            MESON + ["introspect", "--installed", BUILD]).stdout)
        cls.env = dict(os.environ)
        for k in ("PROFCORE_PLUGIN_PATH", "PROFCORE_LIBRARY", "PYTHONPATH",
                  "PKG_CONFIG_LIBDIR", "CPATH", "C_INCLUDE_PATH",
                  "LIBRARY_PATH"):
            cls.env.pop(k, None)
        cls.env.update({
            # pkg-config: the .pc file says prefix=/usr/local (or the
            # configured prefix); the sysroot maps it into DESTDIR.
            "PKG_CONFIG_PATH": cls.d(os.path.join(cls.libdir, "pkgconfig")),
            "PKG_CONFIG_SYSROOT_DIR": cls.destdir,
            "LD_LIBRARY_PATH": cls.d(cls.libdir),
            "LC_ALL": "C",
        })

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp, ignore_errors=True)

    @classmethod
    def d(cls, path):
        """An installed path inside DESTDIR."""
        return cls.destdir + path

    def copy_example(self, name):
        dst = os.path.join(self.tmp, name)
        if not os.path.isdir(dst):
            shutil.copytree(os.path.join(SOURCE, "examples", name), dst)
        return dst

    def make(self, directory, *args):
        return run(["make", "-s", "-C", directory] + SAN_MAKE + list(args),
                   env=self.env)

    # ------------------------------------------------------------------
    def test_layout(self):
        """Every file lands under DESTDIR + prefix, in its standard place."""
        for dest in self.installed.values():
            self.assertTrue(dest.startswith(self.prefix + os.sep), dest)
        lib = os.path.join(self.libdir, "libprofcore.so")
        self.assertEqual(os.readlink(self.d(lib)), self.soname)
        self.assertEqual(os.readlink(self.d(lib + "." + self.abi)),
                         "libprofcore.so." + self.version)
        for path in (lib + "." + self.version,
                     os.path.join(self.includedir, "profcore.h"),
                     os.path.join(self.includedir, "profcore_version.h"),
                     os.path.join(self.includedir, "profcore_plugin.h"),
                     os.path.join(self.libdir, "pkgconfig", "profcore.pc"),
                     os.path.join(self.bindir, "profcat"),
                     os.path.join(self.mandir, "man1", "profcat.1"),
                     os.path.join(self.libdir, "cmake", "profcore",
                                  "profcoreConfig.cmake"),
                     os.path.join(self.libdir, "cmake", "profcore",
                                  "profcoreConfigVersion.cmake"),
                     os.path.join(self.datadir, "bash-completion",
                                  "completions", "profcat")):
            self.assertTrue(os.path.isfile(self.d(path)), path)
        self.assertTrue(os.path.isdir(self.d(os.path.join(
            self.libdir, "profcore", "plugins"))))
        # The built-in map dialects, for users to copy and adapt.
        dialects = sorted(os.path.basename(p) for p in glob.glob(
            os.path.join(SOURCE, "dialects", "*.yaml")))
        self.assertGreater(len(dialects), 0)
        self.assertEqual(sorted(os.listdir(self.d(os.path.join(
            self.datadir, "profcore", "dialects")))), sorted(dialects + ["traces"]))
        # and the built-in trace dialects (loaders/trace.c looks for a
        # dialect named NAME in dialects/traces/NAME.yaml)
        traces = sorted(os.path.basename(p) for p in glob.glob(
            os.path.join(SOURCE, "dialects", "traces", "*.yaml")))
        self.assertEqual(traces, ["mame.yaml", "pc.yaml"])
        self.assertEqual(sorted(os.listdir(self.d(os.path.join(
            self.datadir, "profcore", "dialects", "traces")))), traces)
        self.assertTrue(any(p.endswith("/profcore/__init__.py")
                            for p in self.installed.values()))
        # Private headers stay private.
        self.assertEqual(glob.glob(self.d(os.path.join(
            self.includedir, "internal.h"))), [])

    def test_pkg_config(self):
        r = run(["pkg-config", "--modversion", "profcore"], env=self.env)
        self.assertEqual(r.stdout, self.version + "\n")
        r = run(["pkg-config", "--libs", "profcore"], env=self.env)
        self.assertEqual(r.stdout.split(),
                         ["-L" + self.d(self.libdir), "-lprofcore"])
        # Where plugins and dialects go (the sysroot is prepended).
        for var, path in (("plugindir", (self.libdir, "profcore", "plugins")),
                          ("dialectdir", (self.datadir, "profcore",
                                          "dialects"))):
            r = run(["pkg-config", "--variable=" + var, "profcore"],
                    env=self.env)
            self.assertEqual(r.stdout, self.d(os.path.join(*path)) + "\n")
        # The installed headers come first (then Requires.private's own
        # flags, mapped into the sysroot like every -I).
        r = run(["pkg-config", "--cflags", "profcore"], env=self.env)
        self.assertEqual(r.stdout.split()[0], "-I" + self.d(self.includedir))

    def test_pkg_config_requires_what_is_linked(self):
        """Requires.private names exactly the libraries libprofcore links
        (a static link needs them): not Capstone and libdw when they are
        opened at their first use, so that a consumer machine needs no
        libcapstone-dev or libdw-dev for pkg-config --cflags."""
        readelf = shutil.which("readelf")
        if not readelf:
            self.skipTest("readelf not installed (binutils)")
        r = run(["pkg-config", "--print-requires-private", "profcore"],
                env=self.env)
        required = sorted(l.split()[0] for l in r.stdout.splitlines())
        so = self.d(os.path.join(self.libdir, self.soname))
        needed = re.findall(r"\(NEEDED\)\s+Shared library: \[(\S+)\]",
                            run([readelf, "-d", so]).stdout)
        sonames = {"zlib": "libz.so.", "libelf": "libelf.so.",
                   "libdw": "libdw.so.", "yaml-0.1": "libyaml-0.so.",
                   "capstone": "libcapstone.so.", "liblzma": "liblzma.so.",
                   "libzstd": "libzstd.so."}
        linked = sorted(name for name, prefix in sonames.items()
                        if any(n.startswith(prefix) for n in needed))
        self.assertEqual(required, linked, needed)

    def test_profcat_without_ld_library_path(self):
        """The installed profcat finds the installed library through its
        RUNPATH ($ORIGIN/../lib/...), under any prefix but /usr, with no
        LD_LIBRARY_PATH and no ldconfig."""
        if self.prefix == "/usr":
            self.skipTest("prefix /usr: the loader's own search path")
        profcat = self.d(os.path.join(self.bindir, "profcat"))
        env = dict(self.env)
        del env["LD_LIBRARY_PATH"]
        r = run(["ldd", profcat], env=env)
        found = re.findall(re.escape(self.soname) + r" => (\S+)", r.stdout)
        self.assertEqual([os.path.realpath(p) for p in found],
                         [os.path.realpath(self.d(os.path.join(
                             self.libdir, self.soname)))], r.stdout)
        unix = os.path.join(SOURCE, "tests", "unix", "fixtures",
                            "x86_64-nopie")
        r = run([profcat, "-n", "1", "callgraph", "gmon.out"], env=env,
                cwd=unix)
        self.assertEqual(r.stdout.splitlines()[-1],
                         "   1  hot         264.41    72.44    72.44"
                         "       2.64          1  ####################")

    def test_cmake_version_check(self):
        """find_package(profcore X.Y): 0.x versions are compatible within
        one minor version only, and never older than asked (asked
        around the project's version)."""
        cmake = shutil.which("cmake")
        if not cmake:
            self.skipTest("cmake not installed")
        src = os.path.join(self.tmp, "cmake-version")
        os.makedirs(src, exist_ok=True)
        with open(os.path.join(src, "CMakeLists.txt"), "w") as f:
            f.write("cmake_minimum_required(VERSION 3.13)\n"
                    "project(v C)\n"
                    "find_package(profcore ${WANT} QUIET)\n"
                    "message(STATUS \"profcore ${WANT}: ${profcore_FOUND}\")\n")
        env = dict(self.env, CMAKE_PREFIX_PATH=self.d(self.prefix))
        major, minor, patch = (int(x) for x in self.version.split("."))
        self.assertEqual(major, 0, "from 1.0 on: one major version")
        expected = {"": "1", "0.%d" % minor: "1", self.version: "1",
                    "0.%d.%d" % (minor, patch + 1): "0",
                    "0.%d" % (minor + 1): "0", "1.0": "0"}
        if minor:
            expected["0.%d" % (minor - 1)] = "0"
        got = {}
        for want in expected:
            out = os.path.join(self.tmp, "cmake-version-b" + want)
            r = run([cmake, "-S", src, "-B", out, "-DWANT=" + want], env=env)
            got[want] = re.search(r"-- profcore %s: (\w*)\n" % re.escape(
                want), r.stdout).group(1)
        self.assertEqual(got, expected)

    def test_linking_example(self):
        src = self.copy_example("linking")
        self.make(src)
        top = os.path.join(src, "pc-top")
        r = run([top, "-n", "3", os.path.join(
            SOURCE, "examples", "plugin", "sample.ticks")],
            env=dict(self.env, PROFCORE_PLUGIN_PATH=self.plugin_dir()),
            cwd=src)
        self.assertEqual(r.stdout,
                         "36.00 samples, 36.00 attributed\n"
                         " 69.44%      25.00  parse\n"
                         " 22.22%       8.00  main\n"
                         "  8.33%       3.00  emit\n")
        self.assertEqual(r.stderr, "")
        # Built-in loaders: a gcc -pg program, as gprof -p counts it.
        unix = os.path.join(SOURCE, "tests", "unix", "fixtures",
                            "x86_64-nopie")
        r = run([top, "-n", "4", os.path.join(unix, "callgraph"),
                 os.path.join(unix, "gmon.out")], env=self.env)
        self.assertEqual(r.stdout,
                         "365.00 samples, 365.57 attributed\n"
                         " 72.44%     264.41  hot\n"
                         "  9.74%      35.56  tiny_b\n"
                         "  9.06%      33.05  tiny_a\n"
                         "  7.82%      28.54  tiny_c\n")
        # The library, not the example, found where the error is.
        bad = os.path.join(self.tmp, "bad.ticks")
        with open(bad, "w") as f:
            f.write("TICKS 1\nrate 100\npc 0x10 many\n")
        r = run([top, bad], check=False,
                env=dict(self.env, PROFCORE_PLUGIN_PATH=self.plugin_dir()))
        self.assertEqual(r.returncode, 2)
        self.assertEqual(r.stderr, "pc-top: %s:25: expected a sample count, "
                         "found 'many'\n" % bad)

    def test_cmake_example(self):
        """A CMake project finds the installed profcore with find_package
        and links the imported target profcore::profcore."""
        cmake = shutil.which("cmake")
        if not cmake:
            self.skipTest("cmake not installed")
        self.copy_example("linking")   # the example's source lives there
        src = self.copy_example("cmake")
        out = os.path.join(self.tmp, "build-cmake")
        env = dict(self.env, CMAKE_PREFIX_PATH=self.d(self.prefix))
        if SANITIZE:
            env["CFLAGS"] = " ".join(SAN_FLAGS)
            env["LDFLAGS"] = " ".join(SAN_FLAGS)
        r = run([cmake, "-S", src, "-B", out], env=env)
        self.assertIn("-- Configuring done", r.stdout)
        run([cmake, "--build", out], env=env)
        unix = os.path.join(SOURCE, "tests", "unix", "fixtures",
                            "x86_64-nopie")
        r = run([os.path.join(out, "pc-top"), "-n", "2",
                 os.path.join(unix, "callgraph"),
                 os.path.join(unix, "gmon.out")], env=self.env)
        self.assertEqual(r.stdout,
                         "365.00 samples, 365.57 attributed\n"
                         " 72.44%     264.41  hot\n"
                         "  9.74%      35.56  tiny_b\n")
        with open(os.path.join(out, "CMakeCache.txt")) as f:
            cache = f.read()
        self.assertIn("profcore_DIR:PATH=%s\n" % self.d(os.path.join(
            self.libdir, "cmake", "profcore")), cache)

    def plugin_dir(self):
        src = self.copy_example("plugin")
        if not os.path.exists(os.path.join(src, "ticks.so")):
            self.make(src)
        return src

    def test_plugin_example(self):
        """profcat reads the invented format through the plugin."""
        profcat = self.d(os.path.join(self.bindir, "profcat"))
        sample = os.path.join(SOURCE, "examples", "plugin", "sample.ticks")
        sample = os.path.join("examples", "plugin", "sample.ticks")
        r = run([profcat, sample], check=False, env=self.env, cwd=SOURCE)
        self.assertEqual(r.returncode, 1, "no plugin, no loader")
        self.assertEqual(r.stderr, "profcat: %s:0: unrecognised file format "
                         "(use --format NAME; --list-formats lists them)\n"
                         % sample)
        r = run([profcat, "-F", "csv", sample], cwd=SOURCE,
                env=dict(self.env, PROFCORE_PLUGIN_PATH=self.plugin_dir()))
        with open(os.path.join(HERE, "expected", "ticks.csv")) as f:
            self.assertEqual(r.stdout, f.read())
        self.assertEqual(r.stderr, "")

    def test_plugin_make_install(self):
        """`make install` puts the plugin in pkg-config's plugindir."""
        src = self.plugin_dir()
        self.make(src, "install")
        plugindir = self.d(os.path.join(self.libdir, "profcore", "plugins"))
        self.assertEqual(os.listdir(plugindir), ["ticks.so"])
        profcat = self.d(os.path.join(self.bindir, "profcat"))
        r = run([profcat, "--list-formats"],
                env=dict(self.env, PROFCORE_PLUGIN_PATH=plugindir))
        self.assertIn("\nticks        symbols,samples        ticks text "
                      "samples (example plugin)\n", r.stdout)

    def build_bad_plugin(self, variant):
        out = os.path.join(self.tmp, "bad-" + variant)
        os.makedirs(out, exist_ok=True)
        flags = run(["pkg-config", "--cflags", "--libs", "profcore"],
                    env=self.env).stdout.split()
        cc = shlex.split(os.environ.get("CC", "cc"))
        run(cc + SAN_FLAGS + ["-std=c11", "-shared", "-fPIC",
                  "-DBAD_" + variant.upper().replace("-", "_"),
                  "-o", os.path.join(out, variant + ".so"),
                  os.path.join(HERE, "bad_plugin.c")] + flags, env=self.env)
        return out

    def test_bad_plugins_refused(self):
        profcat = self.d(os.path.join(self.bindir, "profcat"))
        sample = os.path.join(SOURCE, "examples", "plugin", "sample.ticks")
        with open(os.path.join(HERE, "expected", "bad-plugins.txt")) as f:
            expected = dict(l.rstrip("\n").split(": ", 1) for l in f
                            if l.strip())
        for variant, message in sorted(expected.items()):
            with self.subTest(variant=variant):
                d = self.build_bad_plugin(variant)
                so = os.path.join(d, variant + ".so")
                r = run([profcat, sample], check=False,
                        env=dict(self.env, PROFCORE_PLUGIN_PATH=d))
                # Refused: the plugin's loader is not there, so the sample
                # is not recognised (exit 1), after a warning naming it.
                self.assertEqual(r.returncode, 1)
                warning = [l for l in r.stderr.splitlines()
                           if l.startswith("profcat: warning:")]
                self.assertEqual(len(warning), 1, r.stderr)
                self.assertEqual(warning[0],
                                 "profcat: warning: %s: %s" % (so, message))

    def test_man_page(self):
        if not shutil.which("man"):
            self.skipTest("man not installed (man-db)")
        page = self.d(os.path.join(self.mandir, "man1", "profcat.1"))
        r = run(["man", "--warnings=w", "-l", page],
                env=dict(self.env, MANWIDTH="80", MANPAGER="cat",
                         PAGER="cat", MAN_KEEP_FORMATTING="0"))
        self.assertEqual(r.stderr, "")
        text = re.sub(".\b", "", r.stdout)  # overstrike bold/underline
        self.assertTrue(text.startswith("PROFCAT(1)"), text[:200])
        self.assertIn("\nENVIRONMENT\n       PROFCORE_PLUGIN_PATH\n", text)
        # the footer names the version (cli/manpage.py writes it from
        # meson.build's)
        with open(page, encoding="utf-8") as f:
            th = [l for l in f if l.startswith(".TH ")]
        self.assertEqual(len(th), 1)
        self.assertTrue(th[0].endswith(' "profcore %s" "User Commands"\n'
                                       % self.version), th[0])
        # groff itself, every warning category on
        r = run(["groff", "-man", "-Tutf8", "-ww", "-z", page], env=self.env)
        self.assertEqual(r.stderr, "")

    def test_man_page_documents_every_option(self):
        """Each long option of profcat --help appears in profcat(1)."""
        profcat = self.d(os.path.join(self.bindir, "profcat"))
        usage = run([profcat, "--help"], env=self.env).stdout
        if "profcat diff" in usage:  # the comparison commands' options
            usage += run([profcat, "diff", "--help"], env=self.env).stdout
        options = sorted(set(re.findall(r"(?<![\w-])--[a-z][a-z-]*[a-z](?![\w-])",
                                    usage)))
        self.assertGreater(len(options), 10)
        with open(self.d(os.path.join(self.mandir, "man1", "profcat.1"))) as f:
            page = f.read().replace("\\-", "-")
        missing = [o for o in options
                   if not re.search(re.escape(o) + r"(?![a-z-])", page)]
        self.assertEqual(missing, [])

    @staticmethod
    def docs_block(page, lang):
        """The first ```lang block of docs/page."""
        with open(os.path.join(SOURCE, "docs", page)) as f:
            text = f.read()
        return text.split("```" + lang + "\n", 1)[1].split("```", 1)[0]

    def test_docs_c_example(self):
        """The C example of docs/api.md builds against the installed tree
        and prints gprof's numbers, most samples first."""
        src = os.path.join(self.tmp, "docs-top.c")
        with open(src, "w") as f:
            f.write(self.docs_block("api.md", "c"))
        exe = os.path.join(self.tmp, "docs-top")
        flags = run(["pkg-config", "--cflags", "--libs", "profcore"],
                    env=self.env).stdout.split()
        cc = shlex.split(os.environ.get("CC", "cc"))
        run(cc + SAN_FLAGS + ["-std=c11", "-Wall", "-Wextra", "-Werror",
                              "-o", exe, src] + flags, env=self.env)
        unix = os.path.join(SOURCE, "tests", "unix", "fixtures",
                            "x86_64-nopie")
        r = run([exe, "callgraph", "gmon.out"], env=self.env, cwd=unix)
        self.assertEqual(r.stdout,
                         "  264.41  72.44%  hot\n"
                         "   35.56   9.74%  tiny_b\n"
                         "   33.05   9.06%  tiny_a\n"
                         "   28.54   7.82%  tiny_c\n"
                         "    2.00   0.55%  is_odd\n"
                         "    2.00   0.55%  tinies\n")
        # samples at addresses no row holds: one in the program between
        # symbols, 11 in DOS, I/O and high memory
        prf = os.path.join(SOURCE, "tests", "dos", "fixtures", "prf")
        r = run([exe, "DEMO.MAP", "DEMO.PRF"], env=self.env, cwd=prf)
        self.assertEqual(r.stdout,
                         "   82.00  64.06%  _work\n"
                         "   26.00  20.31%  _main\n"
                         "    8.00   6.25%  _idle\n"
                         "    1.00   0.78%  [in no symbol]\n"
                         "   11.00   8.59%  [outside the program]\n")
        trunc = os.path.join(SOURCE, "tests", "dos", "fixtures", "prf",
                             "TRUNC.PRF")
        r = run([exe, trunc], env=self.env, check=False)
        self.assertEqual((r.returncode, r.stdout, r.stderr),
                         (1, "", "%s:30: file ends after 30 bytes; 25 "
                          "buckets need 68\n" % trunc))

    def test_docs_python_example(self):
        """The example of docs/python.md runs with the installed package."""
        code = self.docs_block("python.md", "python")
        code += "print(csv_text.splitlines()[1])\n"
        init = [p for p in self.installed.values()
                if p.endswith("/profcore/__init__.py")]
        pkgroot = os.path.dirname(os.path.dirname(self.d(init[0])))
        # from the checkout, as the page says
        r = run([sys.executable, "-c", code], cwd=SOURCE,
                env=self.python_env(PYTHONPATH=pkgroot))
        self.assertEqual(r.stdout,
                         " 72.44%   264.41         1 hot\n"
                         "  9.74%    35.56  24000000 tiny_b\n"
                         "  9.06%    33.05  24000000 tiny_a\n"
                         "  7.82%    28.54  24000000 tiny_c\n"
                         "  0.55%     2.00    602054 is_odd\n"
                         "1,hot,264.410575,72.4413,72.4413,2.644106,1,0,"
                         "0x401225\n")

    def python_env(self, **extra):
        env = dict(self.env, **extra)
        if os.environ.get("PC_ASAN_RUNTIME"):
            env["LD_PRELOAD"] = os.environ["PC_ASAN_RUNTIME"]
            env["ASAN_OPTIONS"] = "detect_leaks=0:abort_on_error=1"
        return env

    def test_python_package(self):
        """The installed package finds the installed library by SONAME."""
        init = [p for p in self.installed.values()
                if p.endswith("/profcore/__init__.py")]
        pkgroot = os.path.dirname(os.path.dirname(self.d(init[0])))
        r = run([sys.executable, "-c",
                 "import profcore; print(profcore.version(), "
                 "profcore.library_path())"],
                env=self.python_env(PYTHONPATH=pkgroot), cwd=self.tmp)
        self.assertEqual(r.stdout, "%s %s\n" % (self.version, self.soname))
        # Under a prefix ld.so does not search, the recorded libdir is used.
        with open(os.path.join(pkgroot, "profcore", "_paths.py")) as f:
            paths = f.read()
        self.assertIn('\nLIBDIR = "%s"\n' % self.libdir, paths)
        self.assertIn('\nVERSION = "%s"\n' % self.version, paths)
        shutil.copytree(os.path.join(pkgroot, "profcore"),
                        os.path.join(self.tmp, "relocated", "profcore"))
        with open(os.path.join(self.tmp, "relocated", "profcore",
                               "_paths.py"), "w") as f:
            f.write(paths.replace('\nLIBDIR = "%s"\n' % self.libdir,
                                  '\nLIBDIR = "%s"\n' % self.d(self.libdir)))
        env = self.python_env(PYTHONPATH=os.path.join(self.tmp, "relocated"))
        env.pop("LD_LIBRARY_PATH")
        if run([sys.executable, "-c", "import ctypes; ctypes.CDLL(%r)"
                % self.soname], env=env, check=False).returncode == 0:
            self.skipTest("a %s is installed system-wide" % self.soname)
        r = run([sys.executable, "-c",
                 "import profcore; print(profcore.library_path())"],
                env=env, cwd=self.tmp)
        self.assertEqual(r.stdout, self.d(os.path.join(
            self.libdir, self.soname)) + "\n")


if __name__ == "__main__":
    unittest.main(verbosity=2)
