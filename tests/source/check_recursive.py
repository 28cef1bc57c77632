#!/usr/bin/env python3
"""--style gprof --granularity line against gprof -b -p -l, byte for byte,
on recursive -O2 programs built and run now (issue #33 item 1).

gprof -l gives an arc the line symbol holding its call site as caller
and the callee's function (entry) symbol as callee, so a recursive call
from any line but the function's first is an ordinary call.  profcat made
line symbols only in the functions with samples: a recursive function
without any had one row, its recursive calls then folded into
self-recursion (quicksort: 1 call instead of 5343), and the per-call unit
moved with them.

- programs/recurse.c (quicksort, a tree build and walk, mutual recursion;
  next on one line so that its first line symbol has time and calls),
  gcc -pg -O2 -fno-ipa-cp -gdwarf-4;
- Lua 5.4 from Debian's source package lua5.4 (apt-get source through a
  private apt state with the system's Debian entries as deb-src, kept in
  PC_LUA_CACHE between runs), built the same way, running
  programs/bench.lua (recursion, table.sort, math.tointeger, strings,
  garbage collection).

Both: `--style gprof --granularity line` = `gprof -b -p -l` and
`-r callgraph --style gprof` = `gprof -b -q`, byte for byte.  Exit 77 when
gcc or gprof is missing; when the Lua source package cannot be fetched
(no network, no deb-src), after the C program passed, with the reason.
"""
import concurrent.futures
import glob
import os
import shutil
import subprocess
import sys
import tempfile

import sourcelib as L

FLAGS = ["-pg", "-O2", "-fno-ipa-cp", "-gdwarf-4"]


def same(label, got, want):
    if got == want:
        print("ok   %s (%d lines)" % (label, want.count("\n")))
        return
    gl, wl = got.splitlines(), want.splitlines()
    for i in range(max(len(gl), len(wl))):
        g = gl[i] if i < len(gl) else "<end>"
        w = wl[i] if i < len(wl) else "<end>"
        if g != w:
            L.fail(label, "line %d: profcat %r, gprof %r" % (i + 1, g, w))
            return
    L.fail(label, "outputs differ")


def compare(name, exe, d):
    gmon = os.path.join(d, "gmon.out")
    same("%s --style gprof --granularity line" % name,
         L.run([L.PROFCAT, "--style", "gprof", "--granularity", "line", exe, gmon]),
         L.run(["gprof", "-b", "-p", "-l", exe, gmon], cwd=d))
    same("%s -r callgraph --style gprof" % name,
         L.run([L.PROFCAT, "-r", "callgraph", "--style", "gprof", exe, gmon]),
         L.run(["gprof", "-b", "-q", exe, gmon], cwd=d))


def lua_source(cache, tmp):
    """The unpacked lua5.4 source package (its src/ directory), or the
    reason it cannot be had."""
    for tool in ("apt-get", "dpkg-source"):
        if not shutil.which(tool):
            return None, "%s is not installed" % tool
    dsc, why = L.source_package(cache, "lua5.4", "lua5.4_*.dsc")
    if not dsc:
        return None, why
    src = os.path.join(tmp, "lua5.4")
    # checks the tarballs against the .dsc and applies Debian's patches
    r = subprocess.run(["dpkg-source", "-x", sorted(dsc)[-1], src],
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if r.returncode != 0:
        raise SystemExit("dpkg-source -x %s failed: %s" % (dsc[-1], r.stdout))
    print("lua: %s" % os.path.basename(sorted(dsc)[-1]))
    return os.path.join(src, "src"), None


def build_lua(src, d):
    # Debian's build writes this header (debian/rules); the path it
    # names is not used here
    with open(os.path.join(d, "lua5.4-deb-multiarch.h"), "w") as f:
        f.write('#define DEB_HOST_MULTIARCH "profcore-test"\n')
    srcs = [c for c in sorted(glob.glob(os.path.join(src, "*.c")))
            if os.path.basename(c) != "luac.c"]

    def cc(c):
        o = os.path.join(d, os.path.basename(c)[:-2] + ".o")
        L.run(["gcc", "-I" + d] + FLAGS + ["-std=gnu99", "-DLUA_COMPAT_5_3",
                                          "-DLUA_USE_LINUX", "-c", c, "-o", o])
        return o
    with concurrent.futures.ThreadPoolExecutor(max(1, min(4, os.cpu_count() or 1))) as ex:
        objs = list(ex.map(cc, srcs))
    exe = os.path.join(d, "lua")
    L.run(["gcc", "-pg", "-o", exe] + objs + ["-lm", "-ldl"])
    return exe


def main():
    for tool in ("gcc", "gprof"):
        if not shutil.which(tool):
            print("SKIP: %s is not installed" % tool)
            sys.exit(77)
    with tempfile.TemporaryDirectory() as tmp:
        d = os.path.join(tmp, "c")
        os.mkdir(d)
        exe = os.path.join(d, "recurse")
        L.run(["gcc"] + FLAGS + ["-o", exe, os.path.join(L.PROGRAMS, "recurse.c")])
        L.run([exe], cwd=d)
        compare("recurse.c", exe, d)
        if L.failures:
            sys.exit(1)
        cache = os.environ.get("PC_LUA_CACHE") or os.path.join(tmp, "cache")
        src, why = lua_source(cache, tmp)
        if not src:
            print("SKIP: Lua 5.4: %s (recurse.c passed)" % why)
            sys.exit(77)
        d = os.path.join(tmp, "lua")
        os.mkdir(d)
        exe = build_lua(src, d)
        L.run([exe, os.path.join(L.PROGRAMS, "bench.lua")], cwd=d)
        compare("lua 5.4", exe, d)
    print("%d failures" % L.failures if L.failures else "all passed")
    sys.exit(1 if L.failures else 0)


main()
