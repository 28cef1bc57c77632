#!/bin/sh
# Cross legs (docs/portability.md ("Portability")): build profcore for another host and run
# the test suite there.
#   scripts/cross.sh s390x   64-bit big-endian, clang cross build run under qemu-user
#   scripts/cross.sh i386    32-bit x86 (gcc -m32), run natively
#   scripts/cross.sh mingw   Windows x86-64 (mingw-w64 gcc, posix threads),
#                            run under wine when wine is installed
# The target's libelf, libyaml, zlib, liblzma, libzstd and cmocka are
# Debian packages fetched with `apt-get download` and unpacked into build-LEG-sysroot/ (multiarch
# installs of the -dev packages fail on a mirror whose versions are skewed).
# The mingw leg's libyaml, cmocka, libiberty and libelf/libdw have no
# mingw-w64 packages: they are cross-built from pinned Debian source
# packages into build-mingw-deps/ (MINGW_SRCPKGS below).
# At the end the skipped tests are counted and each one's reason printed.
set -e
cd "$(dirname "$0")/.."
repo=$(pwd)
leg=${1:-}
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO=sudo

need() {   # install the Debian packages given that are missing
	missing=""
	for p in "$@"; do
		dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null | grep -q '^install ok installed' || missing="$missing $p"
	done
	[ -z "$missing" ] && return 0
	echo "cross: installing$missing" >&2
	export DEBIAN_FRONTEND=noninteractive
	$SUDO apt-get update -qq || echo "cross: apt-get update reported errors; trying the install anyway" >&2
	$SUDO apt-get install -y -qq --no-install-recommends $missing >/dev/null
}

sysroot() {   # sysroot ARCH: unpack $DEVPKGS for ARCH into build-LEG-sysroot
	arch=$1; shift
	dir=$repo/build-$leg-sysroot
	if [ ! -f "$dir/.done" ]; then
		rm -rf "$dir"; mkdir -p "$dir/debs"
		# a private apt state for ARCH: the system's dpkg architectures and
		# package lists are left alone (adding i386 breaks apt-get update on
		# some mirrors); an index that fails to download is reported by apt
		# and the download below says if a package is then really missing
		a=$dir/apt
		mkdir -p "$a/lists/partial" "$a/cache/archives/partial" "$a/sources"
		touch "$a/status"
		cp /etc/apt/sources.list.d/*.sources "$a/sources/" 2>/dev/null || true
		[ -f /etc/apt/sources.list ] && cp /etc/apt/sources.list "$a/sources/main.list"
		set -- -q -o Dir::State="$a" -o Dir::State::Lists="$a/lists" \
			-o Dir::State::status="$a/status" -o Dir::Cache="$a/cache" \
			-o Dir::Etc::SourceList=/dev/null -o Dir::Etc::SourceParts="$a/sources" \
			-o APT::Architecture="$arch" -o APT::Architectures::="$arch" "$@"
		apt-get "$@" update >/dev/null 2>&1 || echo "cross: apt-get update ($arch) reported errors; trying the download anyway" >&2
		pkgs=""
		for p in $DEVPKGS; do pkgs="$pkgs $p:$arch"; done
		(cd "$dir/debs" && apt-get "$@" download $pkgs >/dev/null 2>&1) || {
			echo "cross: apt-get download of$pkgs failed" >&2; exit 1; }
		for d in "$dir"/debs/*.deb; do dpkg -x "$d" "$dir"; done
		# absolute symlinks (libz.so -> /lib/...) must point into the sysroot
		find "$dir" -path "$a" -prune -o -type l -print | while read -r l; do
			t=$(readlink "$l")
			case "$t" in /*) ln -sf "$dir$t" "$l" ;; esac
		done
		printf "[constants]\nsysroot = '%s'\nrepo = '%s'\n" "$dir" "$repo" > "$dir/paths.ini"
		touch "$dir/.done"
	fi
	SYSROOT=$dir
}

summary() {   # the skipped tests of build dir $1, each with its reason
	python3 - "$1/meson-logs/testlog.json" <<'PY'
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
counts = {}
for r in rows:
    counts[r["result"]] = counts.get(r["result"], 0) + 1
print("cross: " + ", ".join("%s %d" % kv for kv in sorted(counts.items())))
skipped = [r for r in rows if r["result"] == "SKIP"]
print("cross: %d skipped:" % len(skipped))
for r in skipped:
    lines = [l for l in (r.get("stdout") or "").splitlines() if l.strip()]
    why = lines[-1].strip() if lines else "(no reason printed)"
    print("  %-28s %s" % (r["name"], why))
PY
}

build_leg() {   # build_leg CROSSFILE...: setup and build build-LEG
	dir=build-$leg
	if [ ! -f "$dir/build.ninja" ]; then
		args=""
		for f in "$@"; do args="$args --cross-file $f"; done
		out=$(meson setup "$dir" $args $SETUP_ARGS 2>&1) || { echo "$out"; exit 1; }
	fi
	ninja -C "$dir" > "$dir/ninja.log" 2>&1 || { cat "$dir/ninja.log"; exit 1; }
	nw=$(grep -c 'warning:' "$dir/ninja.log" || true)
	echo "cross: $leg build: $nw compiler warning(s)"
	grep 'warning:' "$dir/ninja.log" || true
}

test_leg() {   # test_leg [TESTNAME...]: meson test (all tests if none given), summary
	rc=0
	meson test -C "$dir" --print-errorlogs --num-processes 2 \
		--timeout-multiplier "${CROSS_TIMEOUT_MULTIPLIER:-4}" "$@" || rc=$?
	summary "$dir"
	return $rc
}

run_leg() {   # run_leg CROSSFILE...: setup, build, test, summary
	build_leg "$@"
	test_leg
}

mingw_leg() {
	wdir=$repo/build-mingw-wine   # wine prefix and the generated cross files
	mkdir -p "$wdir"
	# the libraries with no mingw-w64 package, from Debian source packages
	# (cached in build-mingw-deps/: a second run builds nothing)
	DEPS=$repo/build-mingw-deps
	for d in libyaml cmocka libiberty elfutils capstone; do
		mingw_dep $d
	done
	printf "[constants]\ndeps = '%s'\n" "$DEPS/prefix" > "$wdir/deps.ini"
	# every feature the Linux build has, required (a library that is not
	# found fails the setup instead of leaving a feature out); plugins
	# are DLLs loaded with LoadLibraryW
	# xz and zstd input are off: liblzma and libzstd have no mingw-w64
	# package and are not cross-built here (such a build names the
	# compression and says to decompress first: tests/hostile/test_compressed.py)
	SETUP_ARGS="-Delf=enabled -Ddwarf=enabled -Dyaml=enabled -Ddemangle=enabled -Dcapstone=enabled -Dplugins=enabled -Dxz=disabled -Dzstd=disabled -Dwarning_level=3"
	wine=$(command -v wine64 || command -v wine || true)
	# PC_MINGW_BUILD_ONLY=1: build only, no wine run
	[ "${PC_MINGW_BUILD_ONLY:-0}" = 1 ] && wine=
	if [ -z "$wine" ]; then
		echo "cross: mingw: wine is not installed: build only, no tests run"
		build_leg "$repo/cross/mingw.ini" "$wdir/deps.ini" "$repo/cross/mingw-deps.ini"
		check_mingw_build
		return 0
	fi
	# the reference: a native profcat from the same sources
	ndir=build-mingw-native
	[ -f "$ndir/build.ninja" ] || meson setup "$ndir" >/dev/null
	ninja -C "$ndir" cli/profcat >/dev/null
	printf "[constants]\nsysroot = '%s'\nrepo = '%s'\nbuilddir = '%s'\n\n[properties]\npc_native_profcat = '%s'\n" \
		"$wdir" "$repo" "$repo/build-$leg" "$repo/$ndir/cli/profcat" > "$wdir/paths.ini"
	export WINEPREFIX="$wdir/prefix" WINEDEBUG=-all
	if [ ! -f "$WINEPREFIX/system.reg" ]; then
		echo "cross: mingw: creating the wine prefix $WINEPREFIX"
		"$wine" wineboot -i </dev/null >/dev/null 2>&1 || true
	fi
	trap 'wineserver -k 2>/dev/null || true' EXIT
	trap 'exit 130' INT
	trap 'exit 143' TERM
	wine_up   # meson's sanity check runs a program through wine
	build_leg "$repo/cross/mingw.ini" "$wdir/deps.ini" "$repo/cross/mingw-deps.ini" \
		"$wdir/paths.ini" "$repo/cross/mingw-wine.ini"
	check_mingw_build
	# a server of its own for the tests: the build can take longer than any
	# idle time a server outlives
	wine_up
	spid=$(wine_server_pid)
	retries="$repo/build-$leg/wine-retries.log"   # see crosshook/sitecustomize.py
	rm -f "$retries"
	rc=0
	test_leg || rc=$?
	if [ -s "$retries" ]; then
		echo "cross: mingw: $(wc -l < "$retries") run(s) ended by wine (exit 1 and no output, or exit 127 and ld.so's assertion at exit) were run again:"
		sed 's/^/  /' "$retries"
	else
		echo "cross: mingw: no run needed a second try (no silent exit 1 and no ld.so assertion from wine)"
	fi
	if [ -n "$spid" ] && [ "$(wine_server_pid)" = "$spid" ]; then
		echo "cross: mingw: one wine server (pid $spid) ran the whole suite"
	else
		echo "cross: mingw: warning: the wine server was restarted during the tests (pid '$spid', now '$(wine_server_pid)'): failures may be wine's own start-up failures" >&2
	fi
	return $rc
}

# One wine server for the leg's prefix that stays up until `wineserver -k`
# (-p: no idle timeout), and wine's own services, started with their output
# on /dev/null.  A server that wine starts on demand exits as soon as no
# Windows program runs (/usr/bin/wineserver passes -p0); the next program
# then starts a new one and runs wineboot, whose services inherit that
# program's output pipes: seconds per program (the malformed corpus's time
# limit is exceeded), a service's crash report in a test's standard error,
# and now and then a program that ends with exit status 1 having printed
# nothing (seen only while servers come and go, never with one kept up).
wine_up() {
	wineserver -k 2>/dev/null || true
	wineserver -w 2>/dev/null || true
	wineserver -p </dev/null >/dev/null 2>&1 || true
	"$wine" wineboot </dev/null >/dev/null 2>&1 || true
}

# The pid of the wine server of $WINEPREFIX (its working directory is
# .../server-DEV-INODE of the prefix), or nothing.
wine_server_pid() {
	key=$(printf 'server-%x-%x' $(stat -c '%d %i' "$WINEPREFIX"))
	for p in /proc/[0-9]*; do
		case "$(cat "$p/comm" 2>/dev/null)" in wineserver*) ;; *) continue ;; esac
		case "$(readlink "$p/cwd" 2>/dev/null)" in */"$key") echo "${p#/proc/}"; return ;; esac
	done
}

check_mingw_build() {
	[ "$nw" -eq 0 ] || { echo "cross: mingw build must be warning-free" >&2; exit 1; }
	# the DLL is named by the ABI version (libprofcore-MAJOR.MINOR.dll
	# before 1.0: meson.build's soversion)
	dll=$(meson introspect --targets "$dir" | python3 -c 'import json, sys
print(" ".join(f.split("/")[-1] for t in json.load(sys.stdin) if t["name"] == "profcore" and t["type"] == "shared library" for f in t["filename"]))')
	for f in $dll libprofcore.a cli/profcat.exe; do
		[ -f "$dir/$f" ] || { echo "cross: mingw: $dir/$f was not built" >&2; exit 1; }
	done
	echo "cross: mingw: built $dir/$dll, libprofcore.a, cli/profcat.exe"
}

# The mingw leg's libraries that Debian has no mingw-w64 package of,
# cross-built from Debian source packages into build-mingw-deps/
# (docs/portability.md ("Windows")): NAME VERSION and the SHA-256 of the
# version's .dsc (which in turn holds the checksums of the tarballs that
# dpkg-source checks when it unpacks them).  Each is built once: a stamp
# prefix/.NAME names the version and the checksum of the recipe (this
# script and cross/elfutils-*), so a change to either rebuilds it.
MINGW_SRCPKGS="
libyaml 0.2.5-1 1edbf86e5cd76937ff62892ba6c2537456d645d834d4cd4a82430b8be7051bf4
cmocka 1.1.5-2.1 9f94190b571e059dd6a359c7effd40b982c6c2796959ea201cf41e7cac0b6730
libiberty 20230104-1 5c3222cdb4b00baef3abfb3fbcd677ca4a37b1e8efd0e4993a7b922ad1069527
elfutils 0.188-2.1 2e73c5bfe9d0ddbf837742d638c43b049590ae1de8f6e3d9c2740c28e2550760
capstone 4.0.2-5 29f42b7c5070a89b3a2bcc814eee60abd0e1ba67097f5ff433b49ab2c92fd06b
"
MINGW_HOST=x86_64-w64-mingw32
MINGW_CC=x86_64-w64-mingw32-gcc-posix

srcpkg() {   # srcpkg NAME VERSION SHA256: fetch and unpack into $DEPS/src/NAME-UPSTREAM
	name=$1 ver=$2 sum=$3
	d=$DEPS/src
	mkdir -p "$d"
	a=$DEPS/apt
	if [ ! -f "$d/${name}_$ver.dsc" ]; then
		# a private apt state whose sources are the system's Debian
		# entries as deb-src: the system's own apt configuration is left
		# alone (and needs no root)
		if [ ! -f "$a/.updated" ]; then
			rm -rf "$a"
			mkdir -p "$a/lists/partial" "$a/cache/archives/partial" "$a/sources"
			touch "$a/status"
			for f in /etc/apt/sources.list.d/*.sources; do
				[ -f "$f" ] && sed 's/^Types:.*/Types: deb-src/' "$f" > "$a/sources/$(basename "$f")"
			done
			[ -f /etc/apt/sources.list ] && sed -n 's/^deb /deb-src /p' /etc/apt/sources.list > "$a/sources/main.list"
		fi
		set -- -q -o Dir::State="$a" -o Dir::State::Lists="$a/lists" \
			-o Dir::State::status="$a/status" -o Dir::Cache="$a/cache" \
			-o Dir::Etc::SourceList=/dev/null -o Dir::Etc::SourceParts="$a/sources"
		if [ ! -f "$a/.updated" ]; then
			apt-get "$@" update >/dev/null 2>&1 || echo "cross: apt-get update (deb-src) reported errors; trying the download anyway" >&2
			touch "$a/.updated"
		fi
		(cd "$d" && apt-get "$@" source --download-only "$name=$ver" >/dev/null 2>&1) || {
			echo "cross: mingw: apt-get source $name=$ver failed (is the version still in the archive?)" >&2; exit 1; }
	fi
	got=$(sha256sum "$d/${name}_$ver.dsc" | cut -d' ' -f1)
	[ "$got" = "$sum" ] || {
		echo "cross: mingw: $d/${name}_$ver.dsc has SHA-256 $got, expected $sum" >&2; exit 1; }
	SRC=$d/$name-${ver%-*}
	rm -rf "$SRC"
	# checks the tarballs against the .dsc's checksums and applies
	# Debian's patches
	dpkg-source -x "$d/${name}_$ver.dsc" "$SRC" >/dev/null 2>&1 || {
		echo "cross: mingw: dpkg-source -x ${name}_$ver.dsc failed (checksum mismatch?)" >&2; exit 1; }
}

mingw_dep() {   # mingw_dep NAME: build NAME into $DEPS/prefix unless its stamp is current
	line=$(printf '%s\n' "$MINGW_SRCPKGS" | grep "^$1 ")
	set -- $line
	recipe=$(sed -n "/^build_$1()/,/^}/p" "$repo/scripts/cross.sh"
		if [ "$1" = elfutils ]; then find "$repo"/cross/elfutils-shims "$repo"/cross/elfutils-mingw.patch -type f | LC_ALL=C sort | xargs cat; fi)
	stamp="$1 $2 $(printf '%s' "$recipe" | sha256sum | cut -c1-16)"
	P=$DEPS/prefix
	if [ "$(cat "$P/.$1" 2>/dev/null)" = "$stamp" ]; then
		return 0
	fi
	echo "cross: mingw: building $1 $2 from its Debian source package"
	srcpkg "$@"
	B=$DEPS/build/$1
	rm -rf "$B"; mkdir -p "$B"
	log=$DEPS/build/$1.log
	mkdir -p "$P/include" "$P/lib/pkgconfig"
	( set -e; "build_$1" ) > "$log" 2>&1 || {
		tail -40 "$log"; echo "cross: mingw: building $1 failed (log: $log)" >&2; exit 1; }
	echo "$stamp" > "$P/.$1"
}

mingw_cmake() {   # mingw_cmake SRCDIR [ARG]...: configure a CMake project for mingw-w64 in $B
	s=$1; shift
	cmake -S "$s" -B "$B" -DCMAKE_SYSTEM_NAME=Windows \
		-DCMAKE_C_COMPILER="$MINGW_CC" -DCMAKE_RC_COMPILER=$MINGW_HOST-windres \
		-DCMAKE_AR="$(command -v $MINGW_HOST-ar)" -DCMAKE_RANLIB="$(command -v $MINGW_HOST-ranlib)" \
		-DCMAKE_FIND_ROOT_PATH=/usr/$MINGW_HOST -DCMAKE_BUILD_TYPE=Release \
		-DCMAKE_INSTALL_PREFIX="$P" "$@"
}

pcfile() {   # pcfile NAME VERSION CFLAGS LIBS [REQUIRES]: write $P/lib/pkgconfig/NAME.pc
	{
		echo "prefix=$P"
		echo "Name: $1"
		echo "Description: $1 for mingw-w64 (scripts/cross.sh mingw)"
		echo "Version: $2"
		[ -n "${5:-}" ] && echo "Requires: $5"
		echo "Cflags: -I\${prefix}/include $3"
		echo "Libs: -L\${prefix}/lib $4"
	} > "$P/lib/pkgconfig/$1.pc"
}

build_libyaml() {   # static: YAML_DECLARE_STATIC (no __declspec(dllimport))
	mingw_cmake "$SRC" -DBUILD_SHARED_LIBS=OFF -DBUILD_TESTING=OFF -DINSTALL_CMAKE_DIR=lib/cmake/yaml
	cmake --build "$B" -j2
	cmake --install "$B"
	pcfile yaml-0.1 0.2.5 -DYAML_DECLARE_STATIC -lyaml
}

build_cmocka() {   # the static library, libcmocka-static.a
	mingw_cmake "$SRC" -DWITH_STATIC_LIB=ON -DWITH_EXAMPLES=OFF -DUNIT_TESTING=OFF
	cmake --build "$B" -j2
	cmake --install "$B"
	pcfile cmocka 1.1.5 "" -lcmocka-static
}

build_capstone() {   # the static library, only the architectures -r disasm uses
	# project(capstone) would also enable C++, which has no mingw-w64
	# compiler here: the library is C only
	sed -i 's/^project(capstone)$/project(capstone C)/' "$SRC/CMakeLists.txt"
	mingw_cmake "$SRC" -DCAPSTONE_BUILD_SHARED=OFF -DCAPSTONE_BUILD_TESTS=OFF \
		-DCAPSTONE_BUILD_CSTOOL=OFF -DCAPSTONE_ARCHITECTURE_DEFAULT=OFF \
		-DCAPSTONE_X86_SUPPORT=ON -DCAPSTONE_ARM_SUPPORT=ON -DCAPSTONE_ARM64_SUPPORT=ON \
		-DCAPSTONE_M68K_SUPPORT=ON -DCAPSTONE_MIPS_SUPPORT=ON -DCAPSTONE_PPC_SUPPORT=ON
	cmake --build "$B" -j2
	cmake --install "$B"
	pcfile capstone 4.0.2 "-I\${prefix}/include/capstone" -lcapstone
}

build_libiberty() {   # only the libiberty directory: libiberty.a, <libiberty/demangle.h>
	cd "$B"
	"$SRC/libiberty/configure" --host=$MINGW_HOST CC="$MINGW_CC" CFLAGS=-O2
	make -j2
	cp libiberty.a "$P/lib/"
	mkdir -p "$P/include/libiberty"
	for h in ansidecl.h demangle.h libiberty.h; do
		cp "$SRC/include/$h" "$P/include/libiberty/"
	done
}

# elfutils' libelf and libdw (with libdwfl, libdwelf, libebl and the
# backends, which libdw.so holds on Linux) as static libraries, with the
# portability shims of cross/elfutils-shims (forced in with -include) and
# cross/elfutils-mingw.patch.  Only the libraries are built; the objects
# that serve only the tools or Linux-only features are left out, and any
# other object failing to build is an error:
ELFUTILS_SKIP="color.o printversion.o argp-std.o linux-kernel-modules.o linux-proc-maps.o"
build_elfutils() {
	sh=$repo/cross/elfutils-shims
	(cd "$SRC" && patch -p1 < "$repo/cross/elfutils-mingw.patch")
	cd "$B"
	# argp, fts and obstack serve only the tools and
	# linux-kernel-modules.c: configure need not find them
	"$SRC/configure" --host=$MINGW_HOST CC="$MINGW_CC" \
		--disable-debuginfod --disable-libdebuginfod --disable-nls \
		--disable-symbol-versioning --without-bzlib --without-lzma --without-zstd \
		ac_cv_search_argp_parse="none required" \
		ac_cv_search_fts_close="none required" \
		ac_cv_search__obstack_free="none required"
	f="-O2 -I$sh -include $sh/mingw-compat.h -Wno-error"
	for sub in lib libelf libebl backends libdwelf libdwfl libdw; do
		make -k -j2 -C $sub CFLAGS="$f" $([ $sub = libdw ] && echo libdw.a) > "$B/make-$sub.log" 2>&1 || true
		cat "$B/make-$sub.log"
	done
	bad=$(sed -n 's/.*\*\*\* \[Makefile:[0-9]*: \([^]]*\.o\)\] Error.*/\1/p' "$B"/make-*.log | sort -u)
	for o in $bad; do
		case " $ELFUTILS_SKIP " in *" $o "*) ;; *) echo "elfutils: $o failed to build"; return 1 ;; esac
	done
	objs=""
	for sub in lib libelf libebl backends libdwelf libdwfl libdw; do
		for o in "$sub"/*.o; do
			case " $ELFUTILS_SKIP " in *" ${o##*/} "*) ;; *) objs="$objs $o" ;; esac
		done
	done
	# libcpu's decoders: stubs (cross/elfutils-shims/disasm-stubs.c)
	$MINGW_CC -O2 -c -DHAVE_CONFIG_H -I. -I"$SRC/lib" -I"$SRC/libelf" -I"$SRC/libebl" \
		-I"$SRC/libdw" -I"$SRC/libasm" -o disasm-stubs.o "$sh/disasm-stubs.c"
	objs="$objs disasm-stubs.o"
	rm -f "$P/lib/libelf.a" "$P/lib/libdw.a"
	$MINGW_HOST-ar rcs "$P/lib/libelf.a" libelf/*.o
	$MINGW_HOST-ar rcs "$P/lib/libdw.a" $(printf '%s\n' $objs | grep -v '^libelf/')
	mkdir -p "$P/include/elfutils"
	cp "$SRC/libelf/libelf.h" "$SRC/libelf/gelf.h" "$SRC/libelf/nlist.h" "$SRC/libelf/elf.h" "$P/include/"
	cp "$SRC/libdw/dwarf.h" "$P/include/"
	cp "$SRC/libdw/libdw.h" "$SRC/libdwfl/libdwfl.h" "$SRC/libdwelf/libdwelf.h" \
		"$SRC/libdw/known-dwarf.h" version.h "$P/include/elfutils/"
	pcfile libelf 0.188 "" "-lelf -lz"
	pcfile libdw 0.188 "" "-ldw -lelf -lz" libelf
}

DEVPKGS="libelf1 libelf-dev zlib1g zlib1g-dev libzstd1 libzstd-dev liblzma5 liblzma-dev libyaml-0-2 libyaml-dev libcmocka0 libcmocka-dev"
case "$leg" in
s390x)
	# not gcc-s390x-linux-gnu: it conflicts with gcc-multilib (scripts/deps.sh)
	need clang binutils-s390x-linux-gnu libc6-dev-s390x-cross libgcc-12-dev-s390x-cross qemu-user pkg-config meson ninja-build
	sysroot s390x
	run_leg "$SYSROOT/paths.ini" "$repo/cross/s390x.ini" ;;
i386)
	# gcc -m32 (gcc-multilib); the i386 programs run natively
	need gcc-multilib binutils pkg-config meson ninja-build
	sysroot i386
	# some kernels are built without IA-32 emulation ("Exec format
	# error"): then the i386 programs run under qemu-user instead
	mkdir -p build-i386-probe
	printf 'int main(void){return 0;}\n' > build-i386-probe/p.c
	gcc -m32 -o build-i386-probe/p build-i386-probe/p.c
	if ! build-i386-probe/p 2>/dev/null; then
		echo "cross: i386: this kernel does not run 32-bit x86 programs: running them under qemu-i386" >&2
		need qemu-user
		PC_I386_QEMU=1
		export PC_I386_QEMU
	fi
	run_leg "$SYSROOT/paths.ini" "$repo/cross/i386.ini" ;;
mingw)
	# zlib for Windows comes from libz-mingw-w64-dev; wine runs the tests;
	# dpkg-dev (dpkg-source), cmake, make and patch build the dependencies
	need gcc-mingw-w64-x86-64-posix libz-mingw-w64-dev wine wine64 pkg-config meson ninja-build \
		dpkg-dev cmake make patch m4
	mingw_leg ;;
*)
	echo "usage: $0 s390x|i386|mingw" >&2; exit 2 ;;
esac
