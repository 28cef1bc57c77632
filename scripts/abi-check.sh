#!/bin/sh
# Compares the ABI of libprofcore.so with the committed baseline
# (abi/libprofcore.abi, written by abidw from Debian's abigail-tools) and
# fails on any difference: a changed, removed or added public function or
# type.  A change is then a decision (docs/development.md, "ABI"): bump
# the ABI version (meson.build's project version: the minor one before
# 1.0; the SONAME follows) when it breaks callers, and record the new
# baseline.
#   scripts/abi-check.sh            build build-abi/, compare (exit 0: same)
#   scripts/abi-check.sh --update   build build-abi/, rewrite the baseline
set -e
cd "$(dirname "$0")/.."
mode=${1:-check}
case "$mode" in
check|--update) ;;
*) echo "usage: $0 [--update]" >&2; exit 2 ;;
esac
for t in abidw abidiff; do
	command -v $t >/dev/null || {
		echo "abi-check: $t not found (Debian package abigail-tools; scripts/deps.sh installs it)" >&2
		exit 2
	}
done
dir=build-abi
# debug information describes the types; -O0 keeps every one of them
[ -f "$dir/build.ninja" ] ||
	meson setup "$dir" -Dbuildtype=debug >/dev/null
lib=$(meson introspect "$dir" --targets | python3 -c '
import json, sys
for t in json.load(sys.stdin):
    if t["name"] == "profcore" and t["type"] == "shared library":
        print(t["filename"][0])
')
[ -n "$lib" ] || { echo "abi-check: no shared libprofcore target in $dir" >&2; exit 2; }
ninja -C "$dir" "$(basename "$lib")" >/dev/null
# the public types only (those of libprofcore/include), no file locations
# or build paths: the baseline depends on the header and the exported
# symbols, not on where or with which options it was built
abidw --headers-dir libprofcore/include --no-corpus-path --no-show-locs \
	--no-comp-dir-path --no-elf-needed --drop-undefined-syms \
	--type-id-style hash --drop-private-types \
	--out-file "$dir/libprofcore.abi" "$lib"
if [ "$mode" = --update ]; then
	mkdir -p abi
	cp "$dir/libprofcore.abi" abi/libprofcore.abi
	echo "abi-check: abi/libprofcore.abi written from $lib"
	exit 0
fi
[ -f abi/libprofcore.abi ] || {
	echo "abi-check: no baseline abi/libprofcore.abi (scripts/abi-check.sh --update writes it)" >&2
	exit 2
}
set +e
abidiff --no-show-locs abi/libprofcore.abi "$dir/libprofcore.abi" >"$dir/abidiff.txt"
st=$?
set -e
# abidiff's status is a bit mask (1 error, 2 usage, 4 ABI change, 8
# incompatible change); an added function leaves it 0 but is listed
if [ $st -eq 0 ] && ! grep -qE '[1-9][0-9]* Added (function|variable)' "$dir/abidiff.txt"; then
	echo "abi-check: libprofcore's ABI matches abi/libprofcore.abi"
	exit 0
fi
cat "$dir/abidiff.txt"
echo "abi-check: the ABI differs from abi/libprofcore.abi (abidiff status $st)." >&2
echo "abi-check: if intended, bump the SONAME when callers break and run scripts/abi-check.sh --update (docs/development.md)" >&2
exit 1
