#!/bin/sh
# Regenerate the gcc -pg fixtures under tests/unix/fixtures/.
#
# For each variant this compiles fixtures/src/callgraph.c with gcc -pg, runs
# it once (it writes gmon.out into the current directory) and saves gprof's
# brief flat profile (-b -p), call graph (-b -q) and flat profile with
# zero rows (-b -p -z) beside the executable and gmon.out:
#
#   fixtures/<variant>/callgraph      the profiled executable (not stripped)
#   fixtures/<variant>/gmon.out       written by glibc's gcrt/mcount
#   fixtures/<variant>/gprof-p.txt    gprof -b -p callgraph gmon.out
#   fixtures/<variant>/gprof-q.txt    gprof -b -q callgraph gmon.out
#   fixtures/<variant>/gprof-pz.txt   gprof -b -p -z callgraph gmon.out
#
# Variants: x86_64-nopie, x86_64-pie, i386-nopie, i386-pie.
# Needs gcc, gcc-multilib (for -m32) and binutils (gprof). The samples come
# from a real clock, so every run gives different counts: after running this,
# commit the whole fixtures/ directory together and re-check the tests.
# Usage: tests/unix/gen_fixtures.sh [variant...]
set -eu

here=$(cd "$(dirname "$0")" && pwd)
src=$here/fixtures/src/callgraph.c
# Workload multiplier: ~0.9 s of CPU per unit at 100 Hz sampling; 4 gives a
# few hundred histogram samples per program.
scale=${SCALE:-4}

variants=${*:-x86_64-nopie x86_64-pie i386-nopie i386-pie}

for v in $variants; do
    case $v in
        x86_64-nopie) flags="-no-pie" ;;
        x86_64-pie)   flags="-fPIE -pie" ;;
        i386-nopie)   flags="-m32 -no-pie" ;;
        i386-pie)     flags="-m32 -fPIE -pie" ;;
        *) echo "gen_fixtures.sh: unknown variant $v" >&2; exit 2 ;;
    esac
    out=$here/fixtures/$v
    mkdir -p "$out"
    work=$(mktemp -d)
    # -O1: no function alignment, so small functions sit back to back at odd
    # addresses and histogram bins straddle their boundaries.
    gcc -std=c11 -O1 -pg $flags -o "$work/callgraph" "$src"
    (cd "$work" && ./callgraph "$scale" >/dev/null)
    cp "$work/callgraph" "$work/gmon.out" "$out/"
    (cd "$out" &&
        gprof -b -p callgraph gmon.out >gprof-p.txt &&
        gprof -b -q callgraph gmon.out >gprof-q.txt &&
        gprof -b -p -z callgraph gmon.out >gprof-pz.txt)
    rm -rf "$work"
    echo "$v: $(wc -c <"$out/gmon.out") bytes of gmon.out"
done
