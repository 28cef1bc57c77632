#!/usr/bin/env python3
"""Differential test against the installed GNU gprof: random call graphs.

For each seed, a GNU tagged gmon.out is written for the x86-64 fixture
executable with a random histogram and random arcs among its functions
(each arc's callee end where the function's mcount call returns; self
loops, two- and three-routine cycles, cycles calling cycles, arcs
from unknown callers, repeated arcs that must be merged), and profcat's
gprof-style call graph must equal `gprof -b -q` byte for byte (and with
--zero, `gprof -b -q -z`).  Skipped (77) when gprof is not installed.
"""
import os
import random
import shutil
import struct
import subprocess
import sys
import tempfile

PROFCAT = os.environ["PROFCAT"]
ROOT = os.environ["PC_SOURCE_ROOT"]
EXE = os.path.join(ROOT, "tests", "unix", "fixtures", "x86_64-nopie",
                   "callgraph")
gprof = shutil.which("gprof")
nm = shutil.which("nm")
if not gprof or not nm or not shutil.which("objdump"):
    print("gprof, nm or objdump not installed")
    sys.exit(77)

syms = []
for line in subprocess.run([nm, "-n", EXE], stdout=subprocess.PIPE,
                           check=True).stdout.decode().splitlines():
    parts = line.split()
    if len(parts) == 3 and parts[1] in "Tt":
        syms.append((int(parts[0], 16), parts[2]))
text_lo = syms[0][0]
text_hi = max(a for a, n in syms if n in ("_fini", "etext")) + 16
funcs = [(a, n) for a, n in syms
         if not n.startswith("_") and n not in ("etext",)]
ends = {a: b for (a, _), (b, _) in zip(syms, syms[1:])}
# the callee end of an arc is where mcount returns to in the function
# (profcat refuses arcs that do not come from the program's mcount calls)
selfpc = {}
dis = subprocess.run(["objdump", "-d", EXE], stdout=subprocess.PIPE,
                     check=True).stdout.decode().splitlines()
for i, line in enumerate(dis):
    if "mcount" in line and "call" in line and i + 1 < len(dis):
        at = int(line.split(":")[0], 16)
        ret = int(dis[i + 1].split(":")[0], 16)
        owner = max((a for a, n in funcs if a <= at), default=None)
        if owner is not None and owner not in selfpc:
            selfpc[owner] = ret
funcs = [(a, n) for a, n in funcs if a in selfpc]


def gmon(rng):
    nbins = (text_hi - text_lo) // 4
    out = bytearray(b"gmon" + struct.pack("<I", 1) + bytes(12))
    out += b"\0" + struct.pack("<QQII", text_lo, text_hi, nbins, 100)
    out += b"seconds".ljust(15, b"\0") + b"s"
    counts = [0] * nbins
    for _ in range(rng.randint(0, 60)):
        a, n = rng.choice(funcs)
        b = ends.get(a, a + 16)
        pc = rng.randrange(a, max(a + 1, b))
        counts[(pc - text_lo) // 4 % nbins] += rng.randint(1, 400)
    out += b"".join(struct.pack("<H", min(c, 65535)) for c in counts)
    pick = rng.sample(funcs, rng.randint(3, min(10, len(funcs))))
    arcs = []
    for _ in range(rng.randint(2, 25)):
        (fa, fn), (ta, tn) = rng.choice(pick), rng.choice(pick)
        fb = ends.get(fa, fa + 16)
        frm = rng.randrange(fa, max(fa + 1, fb))
        arcs.append((frm, selfpc[ta], rng.choice([1, 2, 3, 7, 100, 12345])))
    if rng.random() < 0.3:                       # an unknown caller
        arcs.append((0x10, selfpc[pick[0][0]], 5))
    for frm, to, c in arcs:
        out += b"\1" + struct.pack("<QQI", frm, to, c)
    return bytes(out)


def run(cmd):
    r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    return r.returncode, r.stdout.decode(), r.stderr.decode()


failures = 0
with tempfile.TemporaryDirectory() as tmp:
    path = os.path.join(tmp, "gmon.out")
    for seed in range(25):
        rng = random.Random(seed)
        with open(path, "wb") as f:
            f.write(gmon(rng))
        for extra in ([], ["-z"]):
            want = run([gprof, "-b", "-q"] + extra + [EXE, path])
            got = run([PROFCAT, "--report", "callgraph", "--style", "gprof"]
                      + (["--zero"] if extra else []) + [EXE, path])
            ok = got[0] == 0 and got[1] == want[1]
            print("%s seed %d%s" % ("ok  " if ok else "FAIL", seed,
                                    " -z" if extra else ""))
            if not ok:
                failures += 1
                if failures <= 2:
                    import difflib
                    print(got[2])
                    sys.stdout.writelines(difflib.unified_diff(
                        want[1].splitlines(True), got[1].splitlines(True),
                        "gprof", "profcat"))
sys.exit(1 if failures else 0)
