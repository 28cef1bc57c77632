#!/bin/sh
# Cross legs (docs/portability.md ("Portability")): build profcore for another host and run
# the test suite there.
#   scripts/cross.sh s390x   64-bit big-endian, clang cross build run under qemu-user
#   scripts/cross.sh i386    32-bit x86 (gcc -m32), run natively
#   scripts/cross.sh mingw   Windows x86-64 (mingw-w64 gcc, posix threads),
#                            run under wine when wine is installed
# The target's libelf, libyaml, zlib and cmocka are Debian packages fetched
# with `apt-get download` and unpacked into build-LEG-sysroot/ (multiarch
# installs of the -dev packages fail on a mirror whose versions are skewed).
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
	wdir=$repo/build-mingw-wine   # wine prefix and the generated cross file
	mkdir -p "$wdir"
	# no libelf or libyaml for Windows: the ELF loader is left out, YAML
	# dialect files are read only if libyaml is found (the built-in map
	# dialects are compiled in); plugins are DLLs loaded with LoadLibraryW
	SETUP_ARGS="-Delf=disabled -Dplugins=enabled -Dwarning_level=3"
	wine=$(command -v wine64 || command -v wine || true)
	# PC_MINGW_BUILD_ONLY=1: build only, no wine run
	[ "${PC_MINGW_BUILD_ONLY:-0}" = 1 ] && wine=
	if [ -z "$wine" ]; then
		echo "cross: mingw: wine is not installed: build only, no tests run"
		build_leg "$repo/cross/mingw.ini"
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
	build_leg "$repo/cross/mingw.ini" "$wdir/paths.ini" "$repo/cross/mingw-wine.ini"
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
		echo "cross: mingw: $(wc -l < "$retries") run(s) ended by wine with exit 1 and no output were run again:"
		sed 's/^/  /' "$retries"
	else
		echo "cross: mingw: no run needed a second try (no silent exit 1 from wine)"
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
	for f in libprofcore-0.dll libprofcore.a cli/profcat.exe; do
		[ -f "$dir/$f" ] || { echo "cross: mingw: $dir/$f was not built" >&2; exit 1; }
	done
	echo "cross: mingw: built $dir/libprofcore-0.dll, libprofcore.a, cli/profcat.exe"
}

DEVPKGS="libelf1 libelf-dev zlib1g zlib1g-dev libzstd1 libyaml-0-2 libyaml-dev libcmocka0 libcmocka-dev"
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
	# zlib for Windows comes from libz-mingw-w64-dev; wine runs the tests
	need gcc-mingw-w64-x86-64-posix libz-mingw-w64-dev wine wine64 pkg-config meson ninja-build
	mingw_leg ;;
*)
	echo "usage: $0 s390x|i386|mingw" >&2; exit 2 ;;
esac
