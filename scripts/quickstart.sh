#!/bin/sh
# Installs what building profcore and its demo need (Debian 12; only the
# build set of scripts/deps.sh: the test suite's tools, wine, Chromium, Go
# and the cross compilers are scripts/test.sh's), builds profcore, and
# prints the flat profile of the bundled default capture: a gmon.out
# written by a gcc -pg program (tests/unix/fixtures/x86_64-nopie) read
# together with its ELF, then says where profcat is.  The progress (the
# packages installed, ninja's [n/N] lines) goes to standard error, the
# report to standard output.
set -e
cd "$(dirname "$0")/.."
./scripts/deps.sh build
if [ ! -f build/build.ninja ]; then
	echo "quickstart: configuring build/ (meson setup)" >&2
	meson setup build >/dev/null
fi
echo "quickstart: compiling (ninja -C build)" >&2
ninja -C build >&2
echo >&2
demo=tests/unix/fixtures/x86_64-nopie
./build/cli/profcat "$demo/callgraph" "$demo/gmon.out"
# where profcat is now (standard error, so the report above stays clean)
echo >&2
echo "profcat is $(pwd)/build/cli/profcat; to run it by name:" >&2
echo "  export PATH=\"$(pwd)/build/cli:\$PATH\"   (or: meson install -C build)" >&2
