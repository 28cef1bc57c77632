#!/usr/bin/env python3
"""DWARF shared through dwz (issue #39): two programs built here with
gcc -O2 -g from one header of always_inline functions, then
`dwz -m common.debug -M /ABS/common.debug a b` moves their common DIEs
and strings (the inlined functions' names among them) into
common.debug and gives each program a .gnu_debugaltlink naming it, with
DW_FORM_GNU_ref_alt / DW_FORM_GNU_strp_alt references (libdw's
dwarf_getalt reads the file; docs/source.md).

  * every instruction of main and work_a (work_b) with a line: -r locations equals
    the report of the same program before dwz, byte for byte, and
    addr2line -f -i on the program before dwz, frame by frame (addr2line
    2.40 on the dwz'd program names the innermost inlined function after
    the function around it: "main at common.h:5", a binutils bug);
  * the chain twice < work_a < main, its names read from common.debug;
  * with common.debug gone, the chains keep their call sites and lines;
    an inlined function whose name was in the missing file is "??", not
    the symbol around it (it was named "main at common.h:5", a wrong name
    with exit 0, as addr2line does with the file present).

Exit 77 when gcc, dwz or addr2line is missing.
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile

import sourcelib as L

HEADER = """\
struct point { int x, y; const char *name; };
static inline __attribute__((always_inline)) int scale(struct point *p, int k)
{ p->x *= k; p->y *= k; return p->x + p->y; }
static inline __attribute__((always_inline)) int twice(struct point *p)
{ return scale(p, 2) + 1; }
"""
PROG = """\
#include "common.h"
volatile int sink;
int work_X(int v) { struct point p = {v, v + 1, "X"}; return twice(&p); }
int main(void) { sink = work_X(sink); return 0; }
"""


def code_addresses(exe, cwd, functions):
    """every instruction of the given functions (objdump -d)"""
    dis = L.run(["objdump", "-d", "--no-show-raw-insn", "-j", ".text", exe], cwd=cwd)
    out, keep = [], False
    for line in dis.splitlines():
        m = re.match(r"^[0-9a-f]+ <(\S+)>:$", line)
        if m:
            keep = m.group(1) in functions
        a = re.match(r"^ +([0-9a-f]+):", line)
        if a and keep:
            out.append("0x" + a.group(1))
    return out


def main():
    if os.environ.get("PC_CROSS_LEG") == "mingw":
        print("SKIP: the programs are built with the host's gcc for Linux")
        return 77
    for tool in ("gcc", "dwz", "addr2line", "objdump", "readelf"):
        if not shutil.which(tool):
            print("SKIP: %s is not installed" % tool)
            return 77
    with tempfile.TemporaryDirectory() as t:
        with open(os.path.join(t, "common.h"), "w") as f:
            f.write(HEADER)
        for x in ("a", "b"):
            with open(os.path.join(t, x + ".c"), "w") as f:
                f.write(PROG.replace("X", x))
            L.run(["gcc", "-O2", "-g", "-o", x, x + ".c"], cwd=t)
            shutil.copy(os.path.join(t, x), os.path.join(t, x + "-before"))
        L.run(["dwz", "-m", "common.debug", "-M", os.path.join(t, "common.debug"),
               "a", "b"], cwd=t)
        for x in ("a", "b"):
            secs = L.run(["readelf", "-S", "-W", x], cwd=t)
            info = L.run(["readelf", "--debug-dump=info", x], cwd=t)
            if ".gnu_debugaltlink" not in secs or "<alt 0x" not in info:
                L.fail("dwz " + x, "dwz made no .gnu_debugaltlink / alt references")
                continue
            # those with a line (not the padding after main)
            addrs = code_addresses(x, t, ("main", "work_" + x))
            locs = L.run(["addr2line", "-e", x + "-before"] + addrs, cwd=t).splitlines()
            with open(os.path.join(t, x + ".pcs"), "w") as f:
                f.write("".join(a + "\n" for a, loc in zip(addrs, locs)
                                if not loc.startswith("??")))
            # the same report as before dwz, under the same name
            got = L.run([L.PROFCAT, "-r", "locations", x, "-f", "raw", x + ".pcs"], cwd=t)
            os.rename(os.path.join(t, x), os.path.join(t, x + "-dwz"))
            shutil.copy(os.path.join(t, x + "-before"), os.path.join(t, x))
            want = L.run([L.PROFCAT, "-r", "locations", x, "-f", "raw", x + ".pcs"], cwd=t)
            os.replace(os.path.join(t, x + "-dwz"), os.path.join(t, x))
            if got != want:
                L.fail("dwz %s" % x, "-r locations differs from the program "
                       "before dwz:\n--- after\n%s--- before\n%s" % (got, want))
            else:
                print("ok   dwz %s: -r locations as before dwz (%d lines)"
                      % (x, got.count("\n")))
            # scale is folded away at -O2: twice, inlined in work_X,
            # itself inlined in main
            chain = re.search(r"  twice at \S+/common\.h:5:\d+\n +inlined in work_%s "
                              r"at \S+/%s\.c:3:\d+\n +inlined in main at "
                              r"\S+/%s\.c:4:\d+\n" % (x, x, x), got)
            if not chain:
                L.fail("dwz %s" % x, "no chain twice < work_%s < main:\n%s" % (x, got))
            else:
                print("ok   dwz %s: twice < work_%s < main, names from common.debug"
                      % (x, x))
            # addr2line (binutils 2.40) names an inlined function whose
            # DW_AT_abstract_origin is in the dwz file after the function
            # around it (main at common.h:5); the reference is addr2line
            # on the program before dwz, the same code
            L.check_locations("dwz %s addr2line" % x, x + "-before",
                              [x, "-f", "raw", x + ".pcs"], cwd=t)
        # the shared file gone: still an answer, no crash
        os.remove(os.path.join(t, "common.debug"))
        r = subprocess.run([L.PROFCAT, "-r", "locations", "a", "-f", "raw", "a.pcs"],
                           cwd=t, capture_output=True, text=True)
        # twice's name was in common.debug: unknown, not the symbol
        # around it (main); main's too, but main is its symbol
        chain = re.search(r"  \?\? at \S+/common\.h:5:\d+\n +inlined in work_a "
                          r"at \S+/a\.c:3:\d+\n +inlined in main at "
                          r"\S+/a\.c:4:\d+\n", r.stdout)
        if r.returncode != 0 or not chain or re.search(r"main at \S+common\.h", r.stdout):
            L.fail("dwz without common.debug", "exit %d, %r\n%s"
                   % (r.returncode, r.stderr, r.stdout))
        else:
            print("ok   dwz without common.debug: ?? < work_a < main (twice's name "
                  "unknown, not main's)")
    return 1 if L.failures else 0


if __name__ == "__main__":
    sys.exit(main())
