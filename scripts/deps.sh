#!/bin/sh
# Installs the Debian packages profcore needs (Debian 12; as root, or
# through sudo).  Safe to run again: only missing packages are installed.
#   scripts/deps.sh          all: build, test, check and windows, what
#                            scripts/test.sh and CI's legs use
#   scripts/deps.sh build    only what building profcore and its demo need
#                            (scripts/quickstart.sh)
#   scripts/deps.sh deb      the tools of scripts/deb-test.sh
#   scripts/deps.sh --print SET...   print the packages of the sets, one a
#                            line, and install nothing
# One list per purpose: add a package to the list of the purpose it serves,
# on a line of its own with a comment when it is not obvious.
set -e

# building libprofcore and profcat, with every optional feature on
BUILD="build-essential meson ninja-build pkg-config python3
zlib1g-dev libelf-dev libdw-dev libyaml-dev libiberty-dev libcapstone-dev
liblzma-dev libzstd-dev"
# (liblzma-dev, libzstd-dev: xz and zstd input, libprofcore/decomp.c)

# the test suite (scripts/test.sh): unit tests, reference tools, live
# programs, the install test, the Python package (python3-pip: pip
# --python in tests/packaging), the ABI check
TEST="libcmocka-dev binutils gcc-multilib cmake
python3-venv python3-mesonpy
python3-pip
hatari
gcc-arm-none-eabi binutils-m68k-linux-gnu
binutils-aarch64-linux-gnu binutils-mips-linux-gnu binutils-powerpc-linux-gnu
abigail-tools
golang-go
chromium
gcc-riscv64-unknown-elf
gcc-avr binutils-avr
lld llvm
dwz
cc65
mame
qemu-system-arm qemu-user
libglib2.0-dev
xz-utils zstd"
# (cc65 and mame: tests/traces/check_mame.py builds a 6502 NES program
# and traces it in MAME; qemu-system-arm, qemu-user and libglib2.0-dev
# (QEMU's plugins built from its Debian source): tests/qemu; dwz: see
# below; gcc-riscv64-unknown-elf to llvm: tests/realworld/check_addr2line.py builds its
# program for RISC-V with GNU ld's --gc-sections as ESP-IDF does, for AVR,
# and for AArch64/RISC-V with Clang and lld, and compares with
# llvm-symbolizer; tests/qemu runs a Cortex-M firmware in qemu-system-arm
# and a RISC-V program in qemu-riscv64 (qemu-user),
# and builds QEMU's execlog plugin, which Debian does not ship, from the
# qemu source package: it needs the glib headers)
# (xz-utils, zstd: tests/hostile/test_compressed.py compresses its inputs
# with Debian's xz and zstd tools)
# (dwz: tests/source/check_dwz.py shares two programs' DWARF through a
# .gnu_debugaltlink file)

# the sanitizer, valgrind and clang legs (scripts/test.sh --sanitize,
# --valgrind, --warnings)
CHECK="valgrind clang libclang-rt-14-dev"

# the Windows leg (scripts/cross.sh mingw: the suite under wine)
WINDOWS="gcc-mingw-w64-x86-64-posix libz-mingw-w64-dev wine wine64"

# the Debian packages (scripts/deb-test.sh; not in all): dpkg-buildpackage
# and lintian, besides the build set (debian/control's Build-Depends)
DEB="dpkg-dev debhelper dh-python fakeroot lintian"

sets() {   # the package lists of the named sets
	for s in "$@"; do
		case $s in
		build) echo "$BUILD" ;;
		test) echo "$TEST" ;;
		check) echo "$CHECK" ;;
		windows) echo "$WINDOWS" ;;
		deb) echo "$DEB" ;;
		all) echo "$BUILD $TEST $CHECK $WINDOWS" ;;
		*) echo "deps: no package set '$s' (build, test, check, windows, deb or all)" >&2
		   exit 2 ;;
		esac
	done
}

print=""
[ "$1" != --print ] || { print=1; shift; }
[ $# -gt 0 ] || set -- all
PKGS=$(sets "$@")
if [ -n "$print" ]; then
	for p in $PKGS; do echo "$p"; done
	exit 0
fi
missing=""
for p in $PKGS; do
	dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null | grep -q '^install ok installed' || missing="$missing $p"
done
case " $* " in
*" test "*|*" all "*)
	# npm checkers for the export tests (speedscope schema, headless import)
	"$(dirname "$0")/../tests/exports/setup-checkers.sh" || true ;;
esac
[ -z "$missing" ] && exit 0
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO=sudo
set -- $missing
echo "deps: installing $# Debian packages:$missing" >&2
export DEBIAN_FRONTEND=noninteractive
# a mirror that is mid-sync can fail one index; the install below says
# clearly if a package is then really missing
$SUDO apt-get update -qq || echo "deps: apt-get update reported errors; trying the install anyway" >&2
# one line per package unpacked and set up, on standard error: the
# progress of a first install that takes minutes
$SUDO apt-get install -y -q --no-install-recommends "$@" |
	grep --line-buffered -E '^(Unpacking|Setting up) ' >&2 || true
# the pipe hides apt-get's status: check that everything is there now
for p in "$@"; do
	dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null | grep -q '^install ok installed' ||
		{ echo "deps: $p was not installed (see apt-get's messages above)" >&2; exit 1; }
done
