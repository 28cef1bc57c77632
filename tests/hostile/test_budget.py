#!/usr/bin/env python3
"""Regular expressions from data files have a work budget (pc_regex.h
PC_RE_STEPS_*; docs/development.md ("Hostile input")): a Hatari "Field regexp" or a user
dialect's expression that keeps thousands of threads alive per byte
(two overlapping .{0,1000}) stops with one line naming the expression,
early on a long line; ordinary expressions on the same long line stay
fast (first-byte filtering).  Time limits are generous (10x what is
measured on a loaded 2-core machine), not benchmarks.
"""
import os
import resource
import shutil
import subprocess
import sys
import tempfile

PROFCAT = os.environ["PROFCAT"]
ROOT = os.environ["PC_SOURCE_ROOT"]
HAVE_YAML = os.environ.get("PC_HAVE_YAML") == "1"
HATARI = os.path.join(ROOT, "tests", "atari", "synth", "new.hatari")
ORIG_RE = rb"Field regexp:	^\$?([0-9A-Fa-f]+) .*% \(([^)]*)\)$"
COSTLY = rb"\$?([0-9A-Fa-f]+) .{0,1000}.{0,1000}% \(([^)]*)\)$"
LIMIT_S = 10.0

failures = []


def check(cond, what):
    print(("ok   " if cond else "FAIL ") + what)
    if not cond:
        failures.append(what)


def run(tmp, *args):
    """Exit status, stdout, stderr and the CPU seconds of the run (the wall
    clock counts the machine's other processes too)."""
    ru0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    r = subprocess.run([PROFCAT] + list(args), cwd=tmp, timeout=600,
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    ru1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.returncode, r.stdout, r.stderr.decode(errors="replace"), \
        ru1.ru_utime + ru1.ru_stime - ru0.ru_utime - ru0.ru_stime


def hatari(tmp, name, regexp, long_line):
    src = open(HATARI, "rb").read()
    assert ORIG_RE in src
    src = src.replace(ORIG_RE, b"Field regexp:\t" + regexp)
    lines = src.split(b"\n")
    i = next(k for k, l in enumerate(lines) if l.startswith(b"00013f22"))
    lines.insert(i, long_line)
    with open(os.path.join(tmp, name), "wb") as f:
        f.write(b"\n".join(lines))
    return sum(len(l) + 1 for l in lines[:i])


def main():
    tmp = tempfile.mkdtemp(prefix="pc-budget-")
    try:
        # an address line is at most 4096 bytes (loaders/hatari.c)
        line = b"00013f20 " + b"0 " * 2000 + b" 1.00% (1, 2, 0, 0)"
        off = hatari(tmp, "costly.hatari", COSTLY, line)
        rc, out, err, dt = run(tmp, "costly.hatari")
        want = ("profcat: costly.hatari:%d: regular expression '%s' needs "
                "more than 256 steps per byte on this line (work limit); "
                "simplify it (fewer or smaller {m,n} counts, no '.' repeats "
                "that overlap)\n" % (off, COSTLY.decode()))
        check(rc == 1 and err == want, "hatari costly regexp: %d %r" %
              (rc, err[:300]))
        check(dt < LIMIT_S, "hatari costly regexp stops in %.2f s" % dt)

        # the same long line with the file's own expression: fast, loads
        hatari(tmp, "ordinary.hatari", rb"([0-9A-Fa-f]+) .*% \(([^)]*)\)$",
               line)
        rc, out, err, dt = run(tmp, "ordinary.hatari")
        check(rc == 0 and err == "", "hatari ordinary regexp on a 4 KB line "
              "loads (%d %r)" % (rc, err[:200]))
        check(dt < LIMIT_S, "... in %.2f s" % dt)

        # a 1 MB address line is refused before any expression runs
        big = b"00013f20 " + b"0 " * 500000 + b" 1.00% (1, 2, 0, 0)"
        off = hatari(tmp, "long.hatari", COSTLY, big)
        rc, out, err, dt = run(tmp, "long.hatari")
        want = ("profcat: long.hatari:%d: line 13 is %d bytes long; expected "
                "an address line (one disassembled instruction, at most 4096 "
                "bytes), a symbol label or a caller line\n" % (off + 4096, len(big)))
        check(rc == 1 and err == want, "hatari 1 MB address line: %d %r" %
              (rc, err[:300]))
        check(dt < LIMIT_S, "... stops in %.2f s" % dt)

        if not HAVE_YAML:
            print("skip user dialect (built without libyaml)")
        else:
            with open(os.path.join(tmp, "slow.yaml"), "w") as f:
                f.write("profcore-dialect: 1\nname: slowre\n"
                        "description: costly expression\naddress: hex\n"
                        "other: skip\nrows:\n  - match: '(?P<address>[0-9a-f]+)"
                        " .{0,1000}.{0,1000} (?P<name>[a-z]+)$'\n")
            with open(os.path.join(tmp, "slow.map"), "w") as f:
                f.write("1000 xx main\n" + "0 " * 500000 + "\n2000 yy end\n")
            rc, out, err, dt = run(tmp, "-f", "map", "-O", "dialect=slow.yaml",
                                   "--list-symbols", "slow.map")
            want = ("profcat: slow.map:13: dialect slow.yaml: regular expression '(?P<address>"
                    "[0-9a-f]+) .{0,1000}.{0,1000} (?P<name>[a-z]+)$' needs "
                    "more than 256 steps per byte on this line (work limit); "
                    "simplify it (fewer or smaller {m,n} counts, no '.' "
                    "repeats that overlap)\n")
            check(rc == 1 and err == want, "dialect costly expression: %d %r"
                  % (rc, err[:300]))
            check(dt < LIMIT_S, "... stops in %.2f s" % dt)
    finally:
        shutil.rmtree(tmp)
    if failures:
        print("%d failure(s)" % len(failures))
        sys.exit(1)


main()
