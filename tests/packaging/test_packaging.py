#!/usr/bin/env python3
"""What a user meets first on another machine, before any profile:

- scripts/deps.sh's build set (what scripts/quickstart.sh installs) holds
  what building profcore and its demo need, not the test suite's wine,
  Chromium, Go, cross compilers and reference tools;
- `pip install .` from a Python without meson-python (pyenv, conda, a venv
  without Debian's site packages) fails in one line that names the
  interpreter, not with a traceback.

Environment: PC_SOURCE_ROOT.
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile
import unittest

SOURCE = os.environ["PC_SOURCE_ROOT"]
BACKEND = os.path.join(SOURCE, "bindings", "python", "backend")


def run(cmd, **kw):
    return subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          universal_newlines=True, **kw)


def no_mesonpy(python):
    return ("profcore: meson-python is not installed for %s (Python %d.%d): "
            "Debian's python3-mesonpy is for /usr/bin/python3 (make the venv "
            "with /usr/bin/python3 -m venv --system-site-packages), or drop "
            "--no-build-isolation to let pip fetch meson-python\n"
            % ((python,) + sys.version_info[:2]))


class Deps(unittest.TestCase):
    def test_build_set(self):
        r = run(["sh", os.path.join(SOURCE, "scripts", "deps.sh"), "--print",
                 "build"])
        self.assertEqual((r.returncode, r.stderr), (0, ""))
        self.assertEqual(r.stdout.split(), [
            "build-essential", "meson", "ninja-build", "pkg-config",
            "python3", "zlib1g-dev", "libelf-dev", "libdw-dev",
            "libyaml-dev", "libiberty-dev", "libcapstone-dev",
            "liblzma-dev", "libzstd-dev"])

    def test_sets_do_not_overlap_and_all_is_their_union(self):
        deps = os.path.join(SOURCE, "scripts", "deps.sh")
        sets = {}
        for s in ("build", "test", "check", "windows"):
            sets[s] = run(["sh", deps, "--print", s]).stdout.split()
        every = run(["sh", deps, "--print"]).stdout.split()
        self.assertEqual(sorted(every), sorted(sum(sets.values(), [])))
        self.assertEqual(len(set(every)), len(every), "a package in two sets")
        for p in ("wine", "chromium", "golang-go", "gcc-mingw-w64-x86-64-posix",
                  "gcc-arm-none-eabi", "hatari", "valgrind", "clang"):
            self.assertIn(p, every)
            self.assertNotIn(p, sets["build"])
        r = run(["sh", deps, "--print", "tests"])
        self.assertEqual((r.returncode, r.stdout, r.stderr), (2, "",
                         "deps: no package set 'tests' (build, test, check, "
                         "windows, deb or all)\n"))

    def test_quickstart_installs_the_build_set(self):
        with open(os.path.join(SOURCE, "scripts", "quickstart.sh")) as f:
            calls = [l.strip() for l in f if "deps.sh" in l
                     and not l.lstrip().startswith("#")]
        self.assertEqual(calls, ["./scripts/deps.sh build"])


class Debian(unittest.TestCase):
    """debian/ (scripts/deb-test.sh builds it) against the tree."""

    def test_version_is_the_projects(self):
        with open(os.path.join(SOURCE, "meson.build")) as f:
            version = re.search(r"version : '([^']+)'", f.read()).group(1)
        with open(os.path.join(SOURCE, "debian", "changelog")) as f:
            first = f.readline()
        self.assertEqual(first.split()[:2], ["profcore", "(%s)" % version])

    def test_build_depends_are_the_build_set(self):
        with open(os.path.join(SOURCE, "debian", "control")) as f:
            control = f.read()
        field = re.search(r"^Build-Depends:(.*?)^\S", control,
                          re.M | re.S).group(1)
        build_depends = {d.split()[0] for d in field.replace("\n", " ")
                         .split(",") if d.strip()}
        r = run(["sh", os.path.join(SOURCE, "scripts", "deps.sh"), "--print",
                 "build"])
        build = set(r.stdout.split()) - {"build-essential"}  # implied
        self.assertEqual(sorted(build - build_depends), [])
        self.assertEqual(sorted(build_depends - build),
                         ["binutils", "debhelper-compat", "dh-python",
                          "libcmocka-dev"])


class PipWithoutMesonPython(unittest.TestCase):
    def test_backend_says_it_in_one_line(self):
        """The backend module alone, in a Python that cannot see
        meson-python (-S: no site packages)."""
        r = run([sys.executable, "-B", "-I", "-S", "-c",
                 "import sys; sys.path.insert(0, %r); import profcore_build"
                 % BACKEND])
        self.assertEqual((r.returncode, r.stdout, r.stderr),
                         (1, "", no_mesonpy(sys.executable)))

    def test_pip_install(self):
        """pip install --no-build-isolation . in a venv without
        meson-python: the one line, and no traceback."""
        tmp = tempfile.mkdtemp(prefix="pc-pip-")
        try:
            if run([sys.executable, "-m", "pip", "--version"]).returncode:
                self.skipTest("no pip for %s (python3-pip)" % sys.executable)
            # a venv without site packages, so without meson-python; pip
            # (this Python's) runs in it through --python
            venv = os.path.join(tmp, "env")
            run([sys.executable, "-m", "venv", "--without-pip", venv],
                check=True)
            py = os.path.join(venv, "bin", "python")
            src = os.path.join(tmp, "src")  # pip writes into the tree
            shutil.copytree(SOURCE, src, ignore=lambda d, names: [
                n for n in names if n in (".git", "__pycache__") or
                (d == SOURCE and n.startswith("build"))])
            r = run([sys.executable, "-m", "pip", "--python", py, "install",
                     "--no-build-isolation",
                     "--no-index", "--disable-pip-version-check", src],
                    env=dict(os.environ, PIP_NO_COLOR="1", LC_ALL="C"))
            out = r.stdout + r.stderr
            self.assertEqual(r.returncode, 1, out)
            self.assertNotIn("Traceback", out)
            lines = [l.strip() for l in out.splitlines()
                     if "meson-python" in l]
            self.assertEqual(lines, [no_mesonpy(py).strip()])
        finally:
            shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    if os.environ.get("PC_CROSS_LEG"):
        print("SKIP: the sources' packaging is checked on the native build")
        sys.exit(77)
    unittest.main(verbosity=2)
