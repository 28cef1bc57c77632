#!/usr/bin/env python3
"""The nm dialect's rows are split by hand (loaders/map.c nm_split), not
by its regular expression: the same fields, in one pass over the line.
This compares the two: every nm fixture and crafted lines (edge cases of
the optional size column, type letters that are hex digits, blanks,
missing names, a 256 KB line) read with the built-in dialect and with a
user dialect that differs only in how the expression is spelled (so it
runs the regular expression) give the same symbols table (CSV) or the
same error, byte for byte.  Needs libyaml (user dialect files).
"""
import glob
import os
import subprocess
import sys
import tempfile

PROFCAT = os.environ["PROFCAT"]
ROOT = os.environ["PC_SOURCE_ROOT"]
if os.environ.get("PC_HAVE_YAML") != "1":
    print("skip: built without libyaml (no user dialect files)")
    sys.exit(77)

NM_ROW = ("'^(?P<address>[0-9a-fA-F]+) (?:(?P<size>[0-9a-fA-F]+) )?"
          "(?P<type>[A-Za-z?-]) (?P<name>.+)$'")
# the same expression spelled differently (class ranges reordered)
RE_ROW = NM_ROW.replace("(?P<address>[0-9a-fA-F]+)",
                        "(?P<address>[0-9A-Fa-f]+)")

# one line each (a line that does not match is an error: other: error)
LINES = [
    b"00001000 T main",
    b"00001000 0000000a T sized",
    b"1000 a T both_readings",          # size a, type T
    b"1000 b x",                        # only without a size: type b
    b"1000 a b T",                      # size a, type b, name T
    b"1000 T  two blanks before ",
    b"1000 ? q",
    b"1000 - dash",
    b"1000 0 T",                        # no name after the type
    b"1000 T",
    b"1000 T ",
    b"1000  T x",
    b"1000\tT x",
    b"1000 TT x",
    b"g000 T x",
    b" 1000 T x",
    b"1000 12 3 x",
    b"1000 12 a",
    b"1000 12 a ",
    b"1000 12 a  ",
    b"1000 12  a x",
    b"ABCDEF0123456789 t \xff\x1b[2Jweird",
    b"1000 T x\r",
    b"1000 " + b"f" * 300 + b" T long_size",
    b"1000 T " + b"n" * (256 * 1024),
    b"1000 " + b"a" * (256 * 1024),
]

failures = []


def check(cond, what, detail=""):
    print(("ok   " if cond else "FAIL ") + what)
    if not cond:
        failures.append(what)
        if detail:
            print(detail)


def run(*args):
    r = subprocess.run([PROFCAT] + list(args), stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, timeout=120)
    return r.returncode, r.stdout, r.stderr


def main():
    src = open(os.path.join(ROOT, "dialects", "nm.yaml")).read()
    assert NM_ROW in src, "dialects/nm.yaml's row changed: update NM_ROW here and in loaders/map.c"
    with tempfile.TemporaryDirectory() as tmp:
        user = os.path.join(tmp, "nm-regex.yaml")
        with open(user, "w") as f:
            f.write(src.replace(NM_ROW, RE_ROW))
        inputs = sorted(glob.glob(os.path.join(ROOT, "tests", "*", "fixtures",
                                               "**", "*.nm"), recursive=True))
        for i, line in enumerate(LINES):
            path = os.path.join(tmp, "line%02d.nm" % i)
            with open(path, "wb") as f:
                # three ordinary lines first, the crafted one last
                f.write(b"00000010 T a\n00000020 T b\n00000030 t c\n" + line + b"\n")
            inputs.append(path)
        for path in inputs:
            label = os.path.relpath(path, ROOT) if path.startswith(ROOT) \
                else os.path.basename(path)
            split = run("-f", "map", "-O", "dialect=nm", "-r", "symbols",
                        "-F", "csv", path)
            regex = run("-f", "map", "-O", "dialect=" + user, "-r", "symbols",
                        "-F", "csv", path)
            # the error names the user dialect by its file: the same text
            got = (split[0], split[1], split[2])
            want = (regex[0], regex[1], regex[2])
            check(got == want, "%s: exit %d, %d bytes out, %r" %
                  (label, split[0], len(split[1]), split[2][:120]),
                  "regex: exit %d %r %r\nsplit: exit %d %r %r" %
                  (regex[0], regex[1][:300], regex[2][:300],
                   split[0], split[1][:300], split[2][:300]))
    if failures:
        print("%d failure(s)" % len(failures))
        sys.exit(1)


main()
