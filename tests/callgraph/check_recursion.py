#!/usr/bin/env python3
"""Inclusive times of recursive routines against a brute-force computation.

Small programs with direct recursion, a two-routine cycle, a three-routine
cycle and a cycle called from inside another cycle are run by a simulated
clock.  Every call is recorded as Proff records it (per call site: count,
hierarchical time = the call's duration, flat time = the duration less
that of the calls it made), written as a Proff file with a matching .SYM,
and loaded by profcat.  From the same run the test computes, by brute
force over the call tree:

  * each routine's inclusive time: the time during which it is on the
    stack (outermost activations only),
  * each cycle's (strongly connected component's) inclusive time,
  * each cycle member's time in activations entered from outside its cycle,
  * each routine's flat time,
  * the cycles themselves (mutual reachability over the arcs),

and requires profcat's figures to equal them: routines in no cycle
(self-recursive ones included) and cycles as a whole exactly, members as
"entered from outside" (no arc total can tell more), none above the run's
total.  PrintProff's sum of every arc into a routine, the known bug, is
shown to be larger for each recursive routine.
"""
import json
import os
import random
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.dont_write_bytecode = True
sys.path.insert(0, HERE)
import mpwgen  # noqa: E402

PROFCAT = os.environ["PROFCAT"]
failures = 0


def check(cond, label):
    global failures
    print(("ok   " if cond else "FAIL ") + label)
    if not cond:
        failures += 1


class Run:
    """A simulated run: call() records activations and arcs."""

    def __init__(self, seed):
        self.rng = random.Random(seed)
        self.clock = 0
        self.stack = []          # [name, start, child_time, caller, site]
        self.acts = []           # (name, caller, start, end, outermost)
        self.arcs = {}           # (caller, site, callee) -> [n, H, F]

    def work(self, lo=5, hi=60):
        self.clock += self.rng.randint(lo, hi)

    def call(self, caller, site, callee, body, *args):
        outer = all(fr[0] != callee for fr in self.stack)
        self.stack.append([callee, self.clock, 0, caller, site])
        self.work(1, 4)          # call overhead inside the callee
        body(self, *args)
        self.work(1, 4)
        name, start, child, _, _ = self.stack.pop()
        dur = self.clock - start
        if self.stack:
            self.stack[-1][2] += dur
        self.acts.append((callee, caller, start, self.clock, outer,
                          tuple(fr[0] for fr in self.stack)))
        a = self.arcs.setdefault((caller, site, callee), [0, 0, 0])
        a[0] += 1
        a[1] += dur
        a[2] += dur - child


# ---- the programs -----------------------------------------------------------
# Call sites are statement numbers of the caller.

def leaf(r):
    r.work()


def fact(r, n):                       # direct recursion
    r.work()
    if n > 1:
        r.call("fact", 2, "fact", fact, n - 1)
    r.call("fact", 3, "leaf", leaf)


def even(r, n):                       # even <-> odd
    r.work()
    if n > 0:
        r.call("even", 2, "odd", odd, n - 1)
    else:
        r.call("even", 3, "leaf", leaf)


def odd(r, n):
    r.work(20, 90)
    if n > 0:
        r.call("odd", 2, "even", even, n - 1)


def ca(r, n):                         # ca -> cb -> cc -> ca
    r.work()
    if n > 0:
        r.call("ca", 2, "cb", cb, n)


def cb(r, n):
    r.work()
    r.call("cb", 2, "cc", cc, n)


def cc(r, n):
    r.work()
    r.call("cc", 2, "leaf", leaf)
    if n % 3 == 0:
        r.call("cc", 3, "even", even, n % 4)   # into the other cycle
    r.call("cc", 4, "ca", ca, n - 1)


def main(r):
    for i in range(6):
        r.call("main", 2, "fact", fact, 3 + i)
        r.call("main", 3, "even", even, i)
        r.call("main", 4, "odd", odd, 2 * i + 1)   # odd entered from outside
        r.call("main", 5, "ca", ca, i + 1)
        r.call("main", 6, "leaf", leaf)
    r.call("main", 7, "fact", fact, 4)


PROCS = ["%_MAIN", "main", "fact", "leaf", "even", "odd", "ca", "cb", "cc"]


def simulate(seed):
    r = Run(seed)
    r.call("%_MAIN", 0, "main", main)
    return r


# ---- brute force ---------------------------------------------------------------

def sccs(arcs):
    nodes = {c for c, _, _ in arcs} | {e for _, _, e in arcs}
    reach = {n: set() for n in nodes}
    for c, _, e in arcs:
        reach[c].add(e)
    changed = True
    while changed:
        changed = False
        for n in nodes:
            new = set(reach[n])
            for m in reach[n]:
                new |= reach[m]
            if new != reach[n]:
                reach[n] = new
                changed = True
    comps = []
    for n in sorted(nodes):
        comp = frozenset(m for m in nodes
                         if (m == n) or (m in reach[n] and n in reach[m]))
        if len(comp) > 1 and comp not in comps:
            comps.append(comp)
    return comps


def brute(r):
    res = {"incl": {}, "flat": {}, "cycle": {}, "outside": {}}
    for name, caller, start, end, outer, below in r.acts:
        if outer:
            res["incl"][name] = res["incl"].get(name, 0) + end - start
    for (c, s, e), (n, h, f) in r.arcs.items():
        res["flat"][e] = res["flat"].get(e, 0) + f
    comps = sccs(r.arcs)
    res["comps"] = comps
    for comp in comps:
        tot = 0
        for name, caller, start, end, outer, below in r.acts:
            if name in comp and not any(b in comp for b in below):
                tot += end - start
        res["cycle"][comp] = tot
        for m in comp:
            res["outside"][m] = sum(
                end - start for name, caller, start, end, _, _ in r.acts
                if name == m and caller not in comp)
    res["run"] = max(res["incl"].values())
    return res


# ---- profcat ---------------------------------------------------------------------

def write_inputs(r, tmp):
    mods, off = [], 0
    for p in PROCS:
        mods.append(mpwgen.Module(p, 1, off, 0x40, [0, 8, 16, 24, 32, 40, 48],
                                  kind=1 if p == "%_MAIN" else 3))
        off += 0x40
    by = {m.name: m for m in mods}
    arcs = []
    for (c, s, e), (n, h, f) in sorted(r.arcs.items()):
        arcs.append((1, by[c].site(s), 1, by[e].offset, n, h, f))
    sym = os.path.join(tmp, "rec.SYM")
    prf = os.path.join(tmp, "rec.proff")
    with open(sym, "wb") as fh:
        fh.write(mpwgen.build_sym([(1, "Main", off)], mods))
    with open(prf, "wb") as fh:
        fh.write(mpwgen.proff_text(arcs))
    return sym, prf


def profcat_json(*args):
    out = subprocess.run([PROFCAT] + list(args) + ["--output-format", "json"],
                         stdout=subprocess.PIPE, check=True).stdout
    return json.loads(out)


for seed in (1, 2, 3):
    r = simulate(seed)
    b = brute(r)
    with tempfile.TemporaryDirectory() as tmp:
        sym, prf = write_inputs(r, tmp)
        pr = profcat_json("--report", "callgraph", "--style", "proff", sym, prf)
        gp = profcat_json("--report", "callgraph", "--style", "gprof", sym, prf)
    procs = {p["name"]: p for p in pr["procedures"]}
    tag = "seed %d: " % seed
    check(pr["run_htime"] == b["run"],
          tag + "run total %s == main's duration %s" % (pr["run_htime"], b["run"]))
    # cycles: membership from gprof-style entries
    cycles = {}
    for ent in gp["entries"]:
        if ent["name"] is None:
            members = frozenset(x["name"] for x in ent["related"]
                                if x["relation"] == "member")
            cycles[members] = ent
    check(set(cycles) == set(b["comps"]),
          tag + "cycles %s == brute-force SCCs %s"
          % (sorted(map(sorted, cycles)), sorted(map(sorted, b["comps"]))))
    in_cycle = set().union(*b["comps"]) if b["comps"] else set()
    for comp, ent in cycles.items():
        check(ent["htime"] == b["cycle"].get(comp),
              tag + "cycle %s inclusive %s == brute force %s"
              % (sorted(comp), ent["htime"], b["cycle"].get(comp)))
        check(ent["htime"] <= pr["run_htime"],
              tag + "cycle %s inclusive <= run total" % sorted(comp))
    for name in PROCS[1:]:
        p = procs[name]
        check(p["ftime"] == b["flat"][name],
              tag + "%s flat %s == brute force %s"
              % (name, p["ftime"], b["flat"][name]))
        check(p["htime"] <= pr["run_htime"], tag + "%s H <= run total" % name)
        if name in in_cycle:
            comp = next(c for c in b["comps"] if name in c)
            check(p["htime"] == b["outside"][name]
                  and p["htime"] <= b["incl"][name] <= b["cycle"][comp],
                  tag + "%s (cycle member) H %s == entered from outside %s "
                  "<= inclusive %s <= cycle %s"
                  % (name, p["htime"], b["outside"][name], b["incl"][name],
                     b["cycle"][comp]))
        else:
            check(p["htime"] == b["incl"][name],
                  tag + "%s inclusive %s == brute force %s"
                  % (name, p["htime"], b["incl"][name]))
    # PrintProff's total: every arc's H summed, recursive ones included
    for name in ("fact", "even", "odd", "ca", "cb", "cc"):
        naive = sum(h for (c, s, e), (n, h, f) in r.arcs.items() if e == name)
        check(naive > b["incl"][name] >= procs[name]["htime"],
              tag + "%s: PrintProff's sum %d exceeds the true inclusive %d"
              % (name, naive, b["incl"][name]))

sys.exit(1 if failures else 0)
