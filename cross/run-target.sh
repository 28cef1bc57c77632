#!/bin/sh
# Meson exe_wrapper for the cross legs (scripts/cross.sh): runs one target
# executable with the leg's sysroot libraries (libelf, libyaml, zlib, liblzma, libzstd,
# cmocka unpacked from Debian packages) on its library path.
#   run-target.sh LEG SYSROOT PROGRAM [ARG]...
# mingw: runs a Windows program under wine (wine64 or wine), with the wine
# prefix SYSROOT/prefix (made by scripts/cross.sh) and DLLDIR, the build
# directory holding libprofcore's DLL, on wine's DLL search path.
#   run-target.sh mingw SYSROOT DLLDIR PROGRAM [ARG]...
leg=$1 sysroot=$2
shift 2
case "$leg" in
s390x)
	libs=$sysroot/lib/s390x-linux-gnu:$sysroot/usr/lib/s390x-linux-gnu
	exec qemu-s390x -L /usr/s390x-linux-gnu \
		-E LD_LIBRARY_PATH="$libs${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" "$@" ;;
i386)
	libs=$sysroot/lib/i386-linux-gnu:$sysroot/usr/lib/i386-linux-gnu
	if [ "${PC_I386_QEMU:-0}" = 1 ]; then   # a kernel without IA-32 emulation
		exec qemu-i386 -L / -E LD_LIBRARY_PATH="$libs${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" "$@"
	fi
	LD_LIBRARY_PATH="$libs${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
	export LD_LIBRARY_PATH
	exec "$@" ;;
mingw)
	WINEPREFIX=$sysroot/prefix WINEDEBUG=-all
	WINEPATH="Z:$(printf '%s' "$1" | tr / '\\')${WINEPATH:+;$WINEPATH}"
	export WINEPREFIX WINEDEBUG WINEPATH
	shift
	wine=$(command -v wine64 || command -v wine) || {
		echo "run-target.sh: wine is not installed" >&2; exit 2; }
	exec "$wine" "$@" ;;
*)
	echo "run-target.sh: unknown leg $leg" >&2; exit 2 ;;
esac
