#!/usr/bin/env python3
"""No two source files of the library, the loaders, the formats and the
CLI share a file name (issue #36): a name says which file it is, whatever
the folder (formats/stats_reports.c beside libprofcore/statistics.c, not
two stats.c).  A module's .c and .h share their stem, as they should.

Usage: check_names.py [SOURCE_ROOT] (default: PC_SOURCE_ROOT, else this
file's ../..); --self-test runs it on a small tree with and without twins.
"""
import os
import sys
import tempfile

DIRS = ["libprofcore", "libprofcore/include", "loaders", "formats", "cli"]


def twins(root):
    """{file name: [folders]} for each name found in two folders."""
    seen = {}
    for d in DIRS:
        folder = os.path.join(root, d)
        if not os.path.isdir(folder):
            continue
        for name in sorted(os.listdir(folder)):
            if name.endswith((".c", ".h")):
                seen.setdefault(name, []).append(d)
    return {n: ds for n, ds in seen.items() if len(ds) > 1}


def main(root):
    found = twins(root)
    for name, ds in sorted(found.items()):
        print("%s in %s: one name for two files" % (
            name, " and ".join(d + "/" for d in ds)))
    if not found:
        print("no two source files share a name (%s)" % ", ".join(DIRS))
    return 1 if found else 0


def self_test():
    bad = 0
    for files, want in (
            (["libprofcore/statistics.c", "formats/stats_reports.c",
              "formats/stats_reports.h"], 0),
            (["libprofcore/stats.c", "formats/stats.c"], 1)):
        with tempfile.TemporaryDirectory() as root:
            for f in files:
                os.makedirs(os.path.join(root, os.path.dirname(f)),
                            exist_ok=True)
                open(os.path.join(root, f), "w").close()
            got = 1 if twins(root) else 0
            if got != want:
                print("self-test %s: %d, expected %d" % (files, got, want))
                bad += 1
    print("self-test: %d of 2 cases right" % (2 - bad))
    return 1 if bad else 0


if __name__ == "__main__":
    if sys.argv[1:] == ["--self-test"]:
        sys.exit(self_test())
    sys.exit(main(sys.argv[1] if len(sys.argv) > 1 else os.environ.get(
        "PC_SOURCE_ROOT",
        os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))))
