#!/usr/bin/env python3
"""Hostile input: mutated and truncated .SYM and Proff files never crash
profcat; each is read or refused with exit status 1 and one
"profcat: FILE:OFFSET: message" line (the offset may be absent only for
errors that concern no byte, which these loaders do not produce)."""
import os
import random
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
PROFCAT = os.environ["PROFCAT"]
FIX = os.path.join(HERE, "fixtures")
rng = random.Random(8)
failures = 0
NO_ARCS = ("profcat: no call graph: the inputs hold no call arcs (gmon.out of "
           "a -pg build, Proff and Hatari captures have them); the flat "
           "report needs none\n")


def mutants(data, n):
    for i in range(n):
        b = bytearray(data)
        kind = i % 4
        if kind == 0:                      # truncate
            b = b[:rng.randrange(len(b))]
        elif kind == 1:                    # flip bytes
            for _ in range(rng.randint(1, 8)):
                b[rng.randrange(len(b))] = rng.randrange(256)
        elif kind == 2:                    # large big-endian fields
            at = rng.randrange(max(1, len(b) - 4))
            b[at:at + 4] = rng.choice([b"\xff\xff\xff\xff", b"\x00\x00\x00\x00",
                                       b"\x7f\xff\xff\xfe", b"\x00\x01\x00\x00"])
        else:                              # splice a chunk elsewhere
            a = rng.randrange(len(b))
            c = b[a:a + rng.randint(1, 64)]
            at = rng.randrange(len(b))
            b[at:at] = c
        yield bytes(b)


with tempfile.TemporaryDirectory() as tmp:
    for name, fmt, other in (("seed.SYM", "mpwsym", "seed.proff"),
                             ("seed.proff", "proff", None),
                             ("example.proff", "proff", None)):
        with open(os.path.join(FIX, name), "rb") as f:
            data = f.read()
        path = os.path.join(tmp, name)
        bad = 0
        for i, m in enumerate(mutants(data, 40)):
            with open(path, "wb") as f:
                f.write(m)
            args = [PROFCAT, "--format", fmt, "--report", "callgraph", path]
            if fmt == "proff":
                args = [PROFCAT, "--format", fmt, "--report", "callgraph",
                        "--style", "proff", path]
            r = subprocess.run(args, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE)
            err = r.stderr.decode("utf-8", "replace")
            # symbols alone load and render empty, with profcat's warning
            nocap = ("profcat: warning: no capture given (%s: symbols only), "
                     "so the report is empty: give the capture too "
                     "(e.g. profcat prog gmon.out)\n" % path)
            ok = (r.returncode == 0 and err in ("", nocap)) or (
                r.returncode == 1 and
                re.fullmatch(re.escape("profcat: " + path) + r":\d+: [^\n]+\n",
                             err)) or (
                # a .SYM alone has symbols and no arcs: when the mutant
                # still reads, there is no call graph to print
                fmt == "mpwsym" and r.returncode == 1 and err == NO_ARCS)
            if not ok:
                bad += 1
                if bad <= 3:
                    print("FAIL %s mutant %d: exit %d, stderr %r"
                          % (name, i, r.returncode, err[:300]))
        print("%s %s: 40 mutants" % ("ok  " if not bad else "FAIL", name))
        failures += bad
sys.exit(1 if failures else 0)
