#!/bin/sh
# Builds profcore and runs the whole test suite.
#   scripts/test.sh            normal build in build/
#   scripts/test.sh --sanitize ASan+UBSan build in build-asan/
#   scripts/test.sh --valgrind the suite under valgrind memcheck (build-vg/)
#   scripts/test.sh --warnings builds everything with gcc and with clang at
#                              -Wall -Wextra -Wpedantic -Werror (build-warn-gcc/,
#                              build-warn-clang/): a new warning fails CI
set -e
cd "$(dirname "$0")/.."
./scripts/deps.sh
mode=${1:-normal}
case "$mode" in
normal)   dir=build; setup="" ;;
--sanitize) dir=build-asan; setup="-Db_sanitize=address,undefined -Db_lundef=false" ;;
--valgrind) dir=build-vg; setup="" ;;
--warnings)
	# warning_level 3 = -Wall -Wextra -Wpedantic
	for c in gcc clang; do
		d=build-warn-$c
		[ -f "$d/build.ninja" ] ||
			CC=$c meson setup "$d" -Dwarning_level=3 -Dwerror=true >/dev/null
		ninja -C "$d" >"$d/ninja.log" 2>&1 || { grep -A5 -E 'error|warning' "$d/ninja.log"; exit 1; }
		echo "test.sh: $c: no warnings at -Wall -Wextra -Wpedantic"
	done
	exit 0 ;;
*) echo "usage: $0 [--sanitize|--valgrind|--warnings]" >&2; exit 2 ;;
esac
if [ ! -f "$dir/build.ninja" ]; then
	meson setup "$dir" $setup >/dev/null
fi
ninja -C "$dir" >/dev/null
if [ "$mode" = "--valgrind" ]; then
	exec meson test -C "$dir" --print-errorlogs --num-processes 2 \
		--wrapper 'valgrind --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite --quiet' \
		--timeout-multiplier 10
fi
# time limits catch hangs; on a loaded machine a test may take a few times
# its usual wall time, which is not a failure (speed is bench/'s job)
exec meson test -C "$dir" --print-errorlogs --num-processes 2 \
	--timeout-multiplier "${PC_TIMEOUT_MULTIPLIER:-3}"
