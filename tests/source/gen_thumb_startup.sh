#!/bin/sh
# Regenerate fixtures/thumb-startup.* (check_thumb_startup.py):
#
#   thumb-startup.elf   programs/thumb_startup.{s,c} built with
#                       arm-none-eabi-gcc -mthumb -mcpu=cortex-m4 -g -O1
#                       (paths mapped to /profcore-src, /profcore-build)
#   thumb-startup.pcs   a raw PC dump: every instruction address once
#                       (objdump -d, literal pools left out), then main's
#                       inner loop 20 and 10 times more
#   thumb-startup-line.txt       profcat --granularity line ELF -f raw PCS
#   thumb-startup-locations.csv  profcat -r locations -F csv ELF -f raw PCS
#   (from tests/source/fixtures, with the paths the goldens show)
#
# After running this, check that check_thumb_startup.py passes (the
# goldens against arm-none-eabi-addr2line) and commit the files.
# tests/source/gen_thumb_startup.sh BUILDDIR/cli/profcat
set -eu
here=$(cd "$(dirname "$0")" && pwd)
profcat=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
src=$here/programs
out=$here/fixtures
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
arm-none-eabi-gcc -mthumb -mcpu=cortex-m4 -g -O1 -nostdlib \
    -ffile-prefix-map="$src"=/profcore-src -ffile-prefix-map="$work"=/profcore-build \
    -Wa,--debug-prefix-map="$src"=/profcore-src \
    -Wa,--debug-prefix-map="$work"=/profcore-build \
    -T "$src/thumb_startup.ld" -o thumb-startup.elf \
    "$src/thumb_startup.s" "$src/thumb_startup.c"
arm-none-eabi-objdump -d thumb-startup.elf |
    awk '/^ +[0-9a-f]+:/ && !/\.word|\.short/ { sub(":", "", $1); print "0x" $1 }' > pcs
loop=$(arm-none-eabi-objdump -d thumb-startup.elf | awk '/\tmla\t/ { sub(":", "", $1); print "0x" $1 }')
next=$(arm-none-eabi-objdump -d thumb-startup.elf | awk -v l="$loop" 'f { sub(":", "", $1); print "0x" $1; exit } ("0x" $1) == l ":" { f = 1 }')
{ cat pcs; i=0; while [ $i -lt 20 ]; do echo "$loop"; i=$((i + 1)); done
  i=0; while [ $i -lt 10 ]; do echo "$next"; i=$((i + 1)); done; } > thumb-startup.pcs
cp thumb-startup.elf thumb-startup.pcs "$out/"
cd "$out"
"$profcat" --granularity line thumb-startup.elf -f raw thumb-startup.pcs > thumb-startup-line.txt
"$profcat" -r locations -F csv thumb-startup.elf -f raw thumb-startup.pcs > thumb-startup-locations.csv
