#!/bin/sh
# Regenerate the committed golden of tests/source (check_golden.py):
#
#   fixtures/lines-O2        programs/lines_*.c built with gcc -pg -g -O2
#                            (source paths mapped to /profcore-src)
#   fixtures/gmon.out        written by one run of it (glibc gcrt/mcount)
#   fixtures/gprof-l.txt     gprof -b -p -l lines-O2 gmon.out
#   fixtures/flat-line.txt   profcat --granularity line lines-O2 gmon.out
#   fixtures/source-scan.txt profcat -r source scan --source-path ../programs
#   fixtures/source-missing.txt  profcat -r source (no --source-path: not found)
#   fixtures/locations.csv   profcat -r locations -F csv lines-O2 gmon.out
#   fixtures/disasm-integrate.txt  profcat -r disasm integrate lines-O2 gmon.out
#   fixtures/disasm-m68k.txt profcat -r disasm _main of
#                            tests/atari/fixtures/nf_vbcc.tos with the
#                            hand-written raw dump fixtures/disasm-m68k.pcs
#                            (one PC, 0x914, inside an instruction)
#   (both from the repository root, with the paths the goldens show)
#
# The samples come from a real clock: every run differs.  After running
# this, check that check_golden.py passes (flat-line.txt against
# gprof-l.txt) and commit fixtures/ whole.  Needs gcc and gprof, and a
# built profcat: tests/source/gen_fixtures.sh BUILDDIR/cli/profcat
set -eu
here=$(cd "$(dirname "$0")" && pwd)
profcat=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
src=$here/programs
out=$here/fixtures
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
gcc -pg -g -O2 -ffile-prefix-map="$src"=/profcore-src -o lines-O2 \
    "$src/lines_main.c" "$src/lines_util.c"
./lines-O2 8 >/dev/null
cp lines-O2 gmon.out "$out/"
cd "$out"
gprof -b -p -l lines-O2 gmon.out > gprof-l.txt
"$profcat" --granularity line lines-O2 gmon.out > flat-line.txt
"$profcat" -r source scan --source-path ../programs lines-O2 gmon.out > source-scan.txt
"$profcat" -r source lines-O2 gmon.out > source-missing.txt
"$profcat" -r locations -F csv lines-O2 gmon.out > locations.csv
cd "$here/../.."
"$profcat" -r disasm integrate tests/source/fixtures/lines-O2 \
    tests/source/fixtures/gmon.out > tests/source/fixtures/disasm-integrate.txt
"$profcat" -r disasm _main tests/atari/fixtures/nf_vbcc.tos -f raw \
    tests/source/fixtures/disasm-m68k.pcs > tests/source/fixtures/disasm-m68k.txt
# MS LINK / TLINK line numbers (fixtures/dos): the maps, sources and PC
# dumps there are hand-written (see check_maplines.py); the goldens:
D=tests/source/fixtures/dos
"$profcat" --granularity line $D/LINES.MAP -f raw $D/lines.pcs > $D/lines-flat.txt
"$profcat" -r source --source-path $D $D/LINES.MAP -f raw $D/lines.pcs > $D/lines-source.txt
"$profcat" --granularity line $D/TLINES.MAP -f raw $D/tlines.pcs > $D/tlines-flat.txt
