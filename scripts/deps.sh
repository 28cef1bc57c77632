#!/bin/sh
# Installs every Debian package profcore's build and tests need (as root, or
# through sudo).  Safe to run again: only missing packages are installed.
set -e
PKGS="build-essential meson ninja-build pkg-config libelf-dev libdw-dev zlib1g-dev
libyaml-dev libcmocka-dev libiberty-dev python3 binutils gcc-multilib hatari cmake
gcc-arm-none-eabi libcapstone-dev binutils-m68k-linux-gnu
valgrind clang libclang-rt-14-dev
golang-go chromium python3-venv python3-mesonpy
gcc-mingw-w64-x86-64-posix libz-mingw-w64-dev wine wine64
abigail-tools binutils-aarch64-linux-gnu binutils-mips-linux-gnu binutils-powerpc-linux-gnu
gcc-riscv64-unknown-elf
gcc-avr binutils-avr
lld llvm"
# (the last three lines: tests/realworld/check_addr2line.py builds its
# program for RISC-V with GNU ld's --gc-sections as ESP-IDF does, for AVR,
# and for AArch64/RISC-V with Clang and lld, and compares with
# llvm-symbolizer)
missing=""
for p in $PKGS; do
	dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null | grep -q '^install ok installed' || missing="$missing $p"
done
# npm checkers for the export tests (speedscope schema, headless import)
"$(dirname "$0")/../tests/exports/setup-checkers.sh" || true
[ -z "$missing" ] && exit 0
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO=sudo
echo "deps: installing$missing" >&2
export DEBIAN_FRONTEND=noninteractive
# a mirror that is mid-sync can fail one index; the install below says
# clearly if a package is then really missing
$SUDO apt-get update -qq || echo "deps: apt-get update reported errors; trying the install anyway" >&2
$SUDO apt-get install -y -qq --no-install-recommends $missing >/dev/null
