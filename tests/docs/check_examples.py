#!/usr/bin/env python3
"""Every ```console example in README.md and docs/*.md, run and compared.

A block holds one or more commands, each a line starting with "$ ", followed
by the exact output it prints (standard output and standard error, in the
order written: the command runs under `sh -c '... 2>&1'`).  Commands run from
the source root, with a `profcat` on PATH that is the one under test
($PROFCAT).  A block whose fence line is "```console no-run" is shown, not
run (none should be needed).  The test fails on the first difference and
prints the page, the line of the command and a diff.
"""
import difflib
import glob
import os
import stat
import subprocess
import sys
import tempfile

SOURCE = os.environ["PC_SOURCE_ROOT"]
PROFCAT = os.environ["PROFCAT"]


def examples(path):
    """(line number, command, expected output) of each example in path."""
    out = []
    with open(path, encoding="utf-8") as f:
        lines = f.read().split("\n")
    i = 0
    while i < len(lines):
        if lines[i].strip() != "```console":
            i += 1
            continue
        i += 1
        cmd = None
        while i < len(lines) and lines[i].strip() != "```":
            line = lines[i]
            if line.startswith("$ "):
                if cmd:
                    out.append(cmd)
                cmd = (i + 1, line[2:], [])
            elif cmd is None:
                raise SystemExit("%s:%d: output before any $ command"
                                 % (path, i + 1))
            else:
                cmd[2].append(line)
            i += 1
        if i == len(lines):
            raise SystemExit("%s: unterminated ```console block" % path)
        if cmd:
            out.append(cmd)
        i += 1
    return out


def main():
    if os.environ.get("PC_CROSS_LEG"):
        print("SKIP: the documentation's examples are checked on the native "
              "build (cross legs compare their output with it elsewhere)")
        return 77
    pages = [os.path.join(SOURCE, "README.md")] + sorted(
        glob.glob(os.path.join(SOURCE, "docs", "*.md")))
    with tempfile.TemporaryDirectory() as tmp:
        shim = os.path.join(tmp, "profcat")
        with open(shim, "w") as f:
            f.write('#!/bin/sh\nexec "%s" "$@"\n' % PROFCAT.replace('"', '\\"'))
        os.chmod(shim, stat.S_IRWXU)
        env = dict(os.environ, PATH=tmp + os.pathsep + os.environ["PATH"],
                   LC_ALL="C")
        count = 0
        for page in pages:
            rel = os.path.relpath(page, SOURCE)
            for lineno, cmd, expected in examples(page):
                r = subprocess.run(["sh", "-c", cmd + " 2>&1"], cwd=SOURCE,
                                   env=env, stdout=subprocess.PIPE,
                                   timeout=120)
                got = r.stdout.decode("utf-8", "backslashreplace")
                want = "\n".join(expected) + "\n" if expected else ""
                if got != want:
                    diff = difflib.unified_diff(
                        want.splitlines(True), got.splitlines(True),
                        "documented", "printed")
                    print("%s:%d: $ %s\n%s" % (rel, lineno, cmd,
                                               "".join(diff)))
                    return 1
                count += 1
        print("%d examples in %d pages: output as documented"
              % (count, len(pages)))
        if count == 0:
            print("no examples found")
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
