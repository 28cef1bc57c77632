#!/usr/bin/env python3
"""The version is written in one place, meson.build's project() (issue
#36); everything else derives from it or is checked against it here.

Derived (generated from the project version, nothing written by hand):
  libprofcore/include/profcore_version.h (PC_VERSION_*, meson configure),
  the SONAME and the library's file names (meson.build pc_soversion),
  profcore.pc, profcoreConfig.cmake and profcoreConfigVersion.cmake,
  the Python package's _paths.py and pyproject's version (meson-python),
  bindings/python/profcore/_lib.py's VERSION, ABI and SONAME (from
  _paths.py, or meson.build in a checkout), the installed profcat(1)'s
  footer (cli/manpage.py), the exports' "profcore VERSION" (the goldens
  of tests/filters hold "profcore @VERSION@").
Checked copies (a name a file must spell out; CHECKED below, each must
  equal the current one): debian/changelog's first entry, debian/'s
  library package (libprofcoreABI), examples/cmake's find_package, the
  docs' SONAMEs, abi/libprofcore.abi's (scripts/abi-check.sh --update).

A version in a slot below (a #define PC_VERSION_*, "profcore X.Y.Z",
libprofcore.so.X, libprofcore-X.dll, libprofcore.X.dylib, the package
libprofcoreX, find_package(profcore X), soversion : '...', ABI_MAJOR =)
anywhere else fails: a second hand-written copy that goes stale.  The
project version itself as a literal (0.3.0) fails outside meson.build and
debian/changelog.  History is not checked: debian/changelog after its
first entry, the Breaks/Replaces/Conflicts fields of debian/control, the
"Changes in X.Y" sections of docs/api.md (old and new names side by side).

Usage: check_version.py [SOURCE_ROOT] (default: PC_SOURCE_ROOT, else this
file's ../..); --self-test runs it on small trees with and without copies.
"""
import os
import re
import subprocess
import sys
import tempfile

PROJECT = re.compile(r"\bproject\([^)]*?\bversion\s*:\s*'([^']+)'")

# (name, regex whose group 1 is the version written, the expected value's
# key in expected()); any file, any digits
SLOTS = [
    ("#define PC_VERSION_*",
     re.compile(r"#\s*define\s+PC_VERSION_\w+\s+\"?(\d[\d.]*)"), None),
    ("profcore X.Y.Z", re.compile(r"\bprofcore \(?(\d+\.\d+\.\d+)\b"),
     "version"),
    ("SONAME", re.compile(r"\blibprofcore\.so\.(\d+(?:\.\d+)*)"), "abi"),
    ("DLL", re.compile(r"\blibprofcore-(\d+(?:\.\d+)*)\.dll"), "abi"),
    ("dylib", re.compile(r"\blibprofcore\.(\d+(?:\.\d+)*)\.dylib"), "abi"),
    ("Debian library package",
     re.compile(r"\blibprofcore(\d+(?:\.\d+)*)(?![\w-])"), "abi"),
    ("find_package", re.compile(r"find_package\(\s*profcore\s+(\d[\d.]*)"),
     "api"),
    ("soversion", re.compile(r"\bsoversion\s*:\s*'(\d[^']*)'"), None),
    ("ABI_MAJOR", re.compile(r"\bABI_MAJOR\s*=\s*(\d+)"), None),
]

# Files that must spell a version out, and why they stay right
CHECKED = {
    "meson.build": "the source: project(version)",
    "debian/changelog": "first entry; tests/packaging checks it",
    "debian/control": "the library package's name (lintian: its SONAME)",
    "examples/cmake/CMakeLists.txt": "api-install builds it",
    "abi/libprofcore.abi": "written by scripts/abi-check.sh --update",
    "README.md": "here", "docs/api.md": "here", "docs/python.md": "here",
    "docs/portability.md": "here",
}
# debian/libprofcoreABI.*: named by the ABI (checked below)
CHECKED_PREFIX = "debian/libprofcore"
# the version in it is not the project's (a third party's, a parser's)
SKIP = {"tests/structure/check_version.py"}


def project_version(root):
    with open(os.path.join(root, "meson.build"), encoding="utf-8") as f:
        return PROJECT.search(f.read()).group(1)


def expected(version):
    v = version.split(".")
    return {"version": version,
            "abi": v[0] + "." + v[1] if v[0] == "0" else v[0],
            "api": v[0] + "." + v[1]}


def files(root):
    """The tree's files: git's (tracked and untracked, not ignored), or
    a walk without build directories where there is no git."""
    try:
        out = subprocess.run(
            ["git", "-C", root, "ls-files", "-z", "--cached", "--others",
             "--exclude-standard"], stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL, check=True).stdout
        names = sorted(set(n for n in out.decode().split("\0") if n))
        return [n for n in names if os.path.isfile(os.path.join(root, n))]
    except (OSError, subprocess.CalledProcessError):
        pass
    out = []
    for d, dirs, names in os.walk(root):
        rel = os.path.relpath(d, root)
        if rel == ".":
            dirs[:] = [x for x in dirs if not x.startswith(
                ("build", ".git", "obj-", ".mesonpy"))]
        dirs[:] = [x for x in dirs if x != "__pycache__"]
        for n in names:
            out.append(os.path.normpath(os.path.join(rel, n)))
    return sorted(out)


def history(path, lines):
    """Indexes of lines that record the past, not the current version."""
    skip = set()
    if path == "debian/changelog":
        ends = [i for i, l in enumerate(lines) if l.startswith(" -- ")]
        if ends:
            skip.update(range(ends[0] + 1, len(lines)))
    if path == "docs/api.md":
        inside = False
        for i, l in enumerate(lines):
            if l.startswith("#"):
                inside = l.startswith("### Changes in ")
            if inside:
                skip.add(i)
    if path == "debian/control":
        cont = False
        for i, l in enumerate(lines):
            if re.match(r"(Breaks|Replaces|Conflicts):", l):
                cont = True
            elif not l.startswith((" ", "\t")):
                cont = False
            if cont:
                skip.add(i)
    return skip


def check(root):
    version = project_version(root)
    want = expected(version)
    literal = re.compile(r"(?<![\w.])" + re.escape(version) + r"(?![\w]|\.\d)")
    problems = []
    for path in files(root):
        if path in SKIP:
            continue
        try:
            with open(os.path.join(root, path), encoding="utf-8") as f:
                lines = f.read().split("\n")
        except (UnicodeDecodeError, OSError):
            continue   # not text
        old = history(path, lines)
        source = -1   # meson.build: the line of project()'s version
        if path == "meson.build":
            m = PROJECT.search("\n".join(lines))
            if m:
                source = "\n".join(lines)[:m.start(1)].count("\n")
        for i, line in enumerate(lines):
            if i in old:
                continue
            where = "%s:%d" % (path, i + 1)
            for name, rx, key in SLOTS:
                for m in rx.finditer(line):
                    if key is None or not (path in CHECKED or
                                           path.startswith(CHECKED_PREFIX)):
                        problems.append("%s: %s %s written by hand (%s)" % (
                            where, name, m.group(1), m.group(0)))
                    elif m.group(1) != want[key]:
                        problems.append("%s: %s %s, not %s" % (
                            where, name, m.group(1), want[key]))
            if literal.search(line) and not (
                    path == "debian/changelog" or
                    (path == "meson.build" and i == source)):
                problems.append("%s: the version %s written by hand" % (
                    where, version))
    # debian/: the library package's files are named by its ABI
    deb = os.path.join(root, "debian")
    if os.path.isfile(os.path.join(deb, "control")):
        libs = sorted(n for n in os.listdir(deb)
                      if re.match(r"libprofcore\d", n))
        for n in libs:
            if not n.startswith("libprofcore%s." % want["abi"]):
                problems.append("debian/%s: not libprofcore%s's" % (
                    n, want["abi"]))
        if "libprofcore%s.install" % want["abi"] not in libs:
            problems.append("debian/libprofcore%s.install missing"
                            % want["abi"])
    return version, problems


def main(root):
    version, problems = check(root)
    for p in problems:
        print(p)
    if problems:
        print("the version is written in meson.build only: derive the "
              "above from it, or list a checked copy in %s"
              % os.path.relpath(__file__, root))
        return 1
    print("version %s: written once (meson.build); checked copies in %d "
          "listed files" % (version, len(CHECKED) - 1))
    return 0


def self_test():
    meson = "project('p', 'c',\n  version : '1.4.2')\n"
    cases = [
        ({"meson.build": meson}, 0),
        ({"meson.build": meson, "docs/api.md": "libprofcore.so.1\n"}, 0),
        ({"meson.build": meson, "docs/api.md": "libprofcore.so.0\n"}, 1),
        ({"meson.build": meson, "src/x.h": '#define PC_VERSION_MINOR 4\n'}, 1),
        ({"meson.build": meson, "tests/t.py": 'assert v == "1.4.2"\n'}, 1),
        ({"meson.build": meson, "tests/t.py": 'assert v == "1.4.20"\n'}, 0),
        ({"meson.build": meson, "x/CMakeLists.txt":
          "find_package(profcore 1.4 REQUIRED)\n"}, 1),
        ({"meson.build": meson, "examples/cmake/CMakeLists.txt":
          "find_package(profcore 1.4 REQUIRED)\n"}, 0),
        ({"meson.build": meson, "debian/control":
          "Package: libprofcore1\nBreaks: libprofcore0 (<< 1.0)\n",
          "debian/libprofcore1.install": ""}, 0),
        ({"meson.build": meson, "debian/control": "Package: libprofcore0\n",
          "debian/libprofcore0.install": ""}, 1),
        ({"meson.build": meson, "docs/api.md":
          "## Linking\nlibprofcore.so.1\n### Changes in 1.0\n"
          "| libprofcore.so.0.9 | libprofcore.so.1 |\n"}, 0),
        ({"meson.build": meson, "docs/api.md":
          "### Changes in 1.0\n| libprofcore.so.0.9 | x |\n"
          "## Options\nlibprofcore.so.0.9\n"}, 1),
        ({"meson.build": meson, "debian/changelog":
          "p (1.4.2) x\n -- m  date\n\np (1.3.0) x\n  * libprofcore1.3\n"}, 0),
    ]
    bad = 0
    for tree, want in cases:
        with tempfile.TemporaryDirectory() as root:
            for f, text in tree.items():
                os.makedirs(os.path.join(root, os.path.dirname(f)),
                            exist_ok=True)
                with open(os.path.join(root, f), "w") as fh:
                    fh.write(text)
            _, problems = check(root)
            got = 1 if problems else 0
            if got != want:
                print("self-test %s: %d (%s), expected %d" % (
                    sorted(tree), got, problems, want))
                bad += 1
    print("self-test: %d of %d cases right" % (len(cases) - bad, len(cases)))
    return 1 if bad else 0


if __name__ == "__main__":
    if sys.argv[1:] == ["--self-test"]:
        sys.exit(self_test())
    sys.exit(main(sys.argv[1] if len(sys.argv) > 1 else
                  os.environ.get("PC_SOURCE_ROOT") or
                  os.path.join(os.path.dirname(os.path.abspath(__file__)),
                               "..", "..")))
