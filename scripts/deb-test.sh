#!/bin/sh
# The Debian packages (debian/): builds profcat, the library's package
# (named by its SONAME), profcore-data, libprofcore-dev and python3-profcore with dpkg-buildpackage from a copy
# of this tree, checks them with lintian (no errors), installs them, runs
# /usr/bin/profcat on the bundled capture, builds examples/linking against
# the installed libprofcore-dev with pkg-config alone and runs it, imports
# the Python module, then purges the packages again, so that what runs
# after this (CI's other legs) tests the build tree, not /usr.
# Debian 12, as root or with sudo; installs its own build tools.
#   scripts/deb-test.sh [OUTDIR]   the .debs are left in OUTDIR
#                                  (default build-deb/)
set -e
cd "$(dirname "$0")/.."
repo=$(pwd)
out=${1:-$repo/build-deb}
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO=sudo
# the build set of deps.sh (debian/control's Build-Depends) and the tools
./scripts/deps.sh build deb

# a copy of the sources: dpkg-buildpackage writes beside the tree
rm -rf "$out"
mkdir -p "$out/src"
tar --exclude='./build*' --exclude=./.git --exclude='./obj-*' --exclude='./.mesonpy*' -cf - . | tar -xf - -C "$out/src"
cd "$out/src"
# the test suite ran already (scripts/test.sh); here: the packaging
echo "deb-test: dpkg-buildpackage -us -uc -b -Pnocheck" >&2
DEB_BUILD_OPTIONS="nocheck parallel=$(nproc)" dpkg-buildpackage -us -uc -b -Pnocheck >"$out/build.log" 2>&1 ||
	{ tail -n 40 "$out/build.log"; echo "deb-test: dpkg-buildpackage failed ($out/build.log)" >&2; exit 1; }
cd "$out"
ls *.deb
lintian --fail-on error *.changes >lintian.txt 2>&1 ||
	{ cat lintian.txt; echo "deb-test: lintian reports errors" >&2; exit 1; }
echo "deb-test: lintian: no errors; $(grep -c '^[WIPX]: ' lintian.txt || true) warnings, notes and infos ($out/lintian.txt)" >&2

# the library's package is named by its SONAME (libprofcoreMAJOR.MINOR)
lib=$(sed -n 's/^Package: \(libprofcore[0-9][0-9.]*\)$/\1/p' "$repo/debian/control")
pkgs="profcat $lib profcore-data libprofcore-dev python3-profcore"
cleanup() { $SUDO env DEBIAN_FRONTEND=noninteractive apt-get purge -y -qq $pkgs >/dev/null 2>&1 || true; }
trap cleanup EXIT
$SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
	./profcat_*.deb ./"$lib"_*.deb ./profcore-data_*.deb ./libprofcore-dev_*.deb ./python3-profcore_*.deb >/dev/null

# profcat from /usr/bin on the bundled capture: the quick start's report
demo=$repo/tests/unix/fixtures/x86_64-nopie
cd "$demo"
[ "$(command -v profcat)" = /usr/bin/profcat ]
env -u LD_LIBRARY_PATH /usr/bin/profcat callgraph gmon.out >"$out/flat.txt"
"$repo/build/cli/profcat" callgraph gmon.out | cmp - "$out/flat.txt"
head -n 3 "$out/flat.txt"
man -w profcat >/dev/null 2>&1 || [ -f /usr/share/man/man1/profcat.1.gz ]
# the C example, built against the installed -dev package with pkg-config
cp -r "$repo/examples/linking" "$out/linking"
env -u PKG_CONFIG_PATH make -s -C "$out/linking" CC=cc
env -u LD_LIBRARY_PATH "$out/linking/pc-top" -n 3 callgraph gmon.out >"$out/pc-top.txt"
printf '%s\n' "365.00 samples, 365.57 attributed" \
	" 72.44%     264.41  hot" "  9.74%      35.56  tiny_b" "  9.06%      33.05  tiny_a" |
	diff - "$out/pc-top.txt"
# the Python module of Debian's python3
cd /
/usr/bin/python3 -c 'import profcore; print("deb-test: python3-profcore", profcore.__version__, profcore.library_path())'
echo "deb-test: the .debs build, install and run; purging them" >&2
