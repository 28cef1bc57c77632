#!/bin/sh
# Installs what is missing (Debian 12), builds profcore, and prints the flat
# profile of the bundled default capture: a gmon.out written by a gcc -pg
# program (tests/unix/fixtures/x86_64-nopie) read together with its ELF,
# then says where profcat is.
set -e
cd "$(dirname "$0")/.."
./scripts/deps.sh
[ -f build/build.ninja ] || meson setup build >/dev/null
ninja -C build >/dev/null
demo=tests/unix/fixtures/x86_64-nopie
./build/cli/profcat "$demo/callgraph" "$demo/gmon.out"
# where profcat is now (standard error, so the report above stays clean)
echo >&2
echo "profcat is $(pwd)/build/cli/profcat; to run it by name:" >&2
echo "  export PATH=\"$(pwd)/build/cli:\$PATH\"   (or: meson install -C build)" >&2
