#!/usr/bin/env python3
"""profcat --style gprof against GNU gprof -b -p (issue #24 item 1).

Byte for byte, with and without --zero / -z:
- every committed gcc -pg fixture of tests/unix/fixtures (the committed
  gprof-p.txt and gprof-pz.txt, and live gprof when installed), and the
  4.4BSD and old BSD layouts of the same runs (live gprof);
- live programs built here with gcc/g++ -pg and run: the fixture source
  tests/unix/fixtures/src/callgraph.c, tests/callgraph/programs/cycles.c
  and shapes.cc, tests/realworld/programs/c and cpp, and random programs
  of tests/callgraph/programs/randprog.py.
A program where gprof 2.40 drops a clone symbol (README "gprof 2.40
divergence": profcat -v notes it) cannot match byte for byte: the test
says so and compares the header lines only.  Live builds skip without
gcc, g++ or gprof.
"""
import difflib
import os
import re
import shutil
import subprocess
import sys
import tempfile

PROFCAT = os.environ["PROFCAT"]
ROOT = os.environ["PC_SOURCE_ROOT"]
FIX = os.path.join(ROOT, "tests", "unix", "fixtures")
DIRS = ["x86_64-nopie", "x86_64-pie", "i386-nopie", "i386-pie"]
sys.path.insert(0, os.path.join(ROOT, "tests", "callgraph", "programs"))
import randprog  # noqa: E402

PARTED = re.compile(r"^profcat: note: (\S+) is a function of its own here; "
                    r"gprof 2\.40 charges it")
UNIT = re.compile(r"\b[mun]?s/call")
failures = 0
compared = 0


def run(cmd, cwd=None, check=True):
    r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       cwd=cwd)
    if check and r.returncode != 0:
        raise SystemExit("%s failed (%d): %s" % (cmd, r.returncode,
                                                r.stderr.decode()))
    return r.stdout.decode(), r.stderr.decode()


def compare(label, got, want, header_only=False):
    global failures, compared
    compared += 1
    if header_only:
        # the header's time unit (ms/call, us/call...) is chosen from the
        # largest time per call, which the divergent charging changes:
        # compared with the unit masked (a live run whose checksum_a
        # took 1.25 ms a call by gprof's charging and 751 us by profcat's
        # failed 1 run in about 8 before)
        got, want = ("".join(UNIT.sub("?s/call", l) for l in t.splitlines(True)[:5])
                     for t in (got, want))
    if got == want:
        print("ok   %s" % label)
        return
    failures += 1
    print("FAIL %s" % label)
    sys.stdout.writelines(list(difflib.unified_diff(
        want.splitlines(True), got.splitlines(True), "gprof", "profcat"))[:60])


HAVE_DEMANGLE = os.environ.get("PC_HAVE_DEMANGLE", "1") == "1"


def both(label, exe, gmon, popts=(), gopts=()):
    """profcat --style gprof [--zero] against live gprof -b -p [-z]."""
    parted = [m.group(1) for m in map(PARTED.match,
                                      run([PROFCAT, "-v", *popts, exe, gmon])[1].splitlines())
              if m]
    if parted:
        print("note %s: gprof 2.40 drops %s (README \"gprof 2.40 divergence\"): "
              "headers compared only" % (label, ", ".join(parted)))
    for z in ([], ["-z"]):
        got = run([PROFCAT, "--style", "gprof", *popts] + (["--zero"] if z else [])
                  + [exe, gmon])[0]
        # a build without libiberty (the cross legs) shows raw names:
        # gprof's --no-demangle is then the reference
        nodem = [] if HAVE_DEMANGLE else ["--no-demangle"]
        want, err = run(["gprof", "-b", "-p", *nodem, *gopts, *z, exe, gmon],
                        check=False)
        compare("%s%s" % (label, " -z" if z else ""), got, want, bool(parted))


gprof = shutil.which("gprof")
for d in DIRS:
    exe, gmon = os.path.join(FIX, d, "callgraph"), os.path.join(FIX, d, "gmon.out")
    for z, name in (([], "gprof-p.txt"), (["--zero"], "gprof-pz.txt")):
        got = run([PROFCAT, "--style", "gprof", *z, exe, gmon])[0]
        with open(os.path.join(FIX, d, name)) as f:
            compare("%s vs committed %s" % (d, name), got, f.read())
    if gprof:
        both(d + " live gprof", exe, gmon)
        for lay, opts in (("bsd44.gmon", []), ("oldbsd.gmon", ["-O", "rate=100"])):
            f = os.path.join(FIX, d, "layouts", lay)
            if os.path.exists(f):
                both("%s %s" % (d, lay), exe, f, opts)

gcc, gxx = shutil.which("gcc"), shutil.which("g++")
if not (gcc and gxx and gprof):
    print("gcc, g++ or gprof not installed: live programs skipped")
else:
    with tempfile.TemporaryDirectory() as tmp:
        progs = os.path.join(ROOT, "tests", "callgraph", "programs")
        rw = os.path.join(ROOT, "tests", "realworld", "programs")
        rwc = sorted(os.path.join(rw, "c", f) for f in os.listdir(os.path.join(rw, "c"))
                     if f.endswith(".c"))
        cases = [
            (gcc, [os.path.join(FIX, "src", "callgraph.c")], ["-std=c11", "-O1"], ["1"],
             "src/callgraph.c -O1"),
            (gcc, [os.path.join(FIX, "src", "constprop.c")], ["-O2", "-no-pie"],
             ["20000", "300"], "src/constprop.c -O2"),
            (gcc, [os.path.join(progs, "cycles.c")], ["-O0"], ["300"], "cycles.c -O0"),
            (gxx, [os.path.join(progs, "shapes.cc")], ["-O1", "-fno-inline"], ["3000"],
             "shapes.cc -O1"),
            (gcc, rwc, ["-O2", "-g"], ["40"], "realworld c -O2"),
            (gxx, [os.path.join(rw, "cpp", "shapes.cpp")], ["-O1", "-g"], ["1000"],
             "realworld cpp -O1"),
        ]
        for seed in (3, 20, 64):
            src = os.path.join(tmp, "rand%d.c" % seed)
            with open(src, "w") as f:
                f.write(randprog.gen(seed))
            cases.append((gcc, [src], ["-O0"], ["200"], "random program %d" % seed))
        for n, (cc, srcs, flags, args, label) in enumerate(cases):
            wd = os.path.join(tmp, "p%d" % n)
            os.mkdir(wd)
            exe = os.path.join(wd, "prog")
            run([cc, "-pg", *flags, "-o", exe, *srcs])
            run([exe, *args], cwd=wd)
            both(label, exe, os.path.join(wd, "gmon.out"))
print("%d comparisons, %d failed" % (compared, failures))
sys.exit(1 if failures else 0)
