#!/bin/sh
# Builds the libFuzzer harnesses (clang, ASan+UBSan) and runs each for a
# bounded time.  Usage: scripts/fuzz.sh [SECONDS_PER_FUZZER] [NAME...]
# Seeds: every file under tests/*/fixtures and fuzz/seeds, plus megabyte inputs written
# by fuzz/gen_seeds.py (many histograms, long call chains, long lines; not
# committed; FUZZ_BIG=0 leaves them out); dictionaries: fuzz/dict/NAME.dict
# (the "auto" fuzzer gets them all).  Inputs up to 2 MB.  Findings go to
# build-fuzz/crashes.
# FUZZ_RUNS=N instead runs N inputs per fuzzer from seed 1 and an empty
# corpus (build-fuzz/corpus-runs; repeatable:
# what CI runs).  FUZZ_TIMEOUT=S: seconds one input may take (default 1):
# an input that runs S seconds or more fails the run, whether libFuzzer's
# timer (-timeout, which looks every S/2+1 s and so misses inputs a little
# over S) stops it or it finishes: -report_slow_units=S records it as
# "slowest input" and in build-fuzz/crashes/NAME-slow-unit-*; a busy
# machine may need more.
# Exit status: 0 when no fuzzer found anything, 1 otherwise.
set -e
cd "$(dirname "$0")/.."
secs=${1:-60}
[ $# -gt 0 ] && shift
if [ ! -f build-fuzz/build.ninja ]; then
	CC=clang meson setup build-fuzz -Dfuzz=true -Db_sanitize=address,undefined \
		-Db_lundef=false -Ddefault_library=static >/dev/null
fi
ninja -C build-fuzz >/dev/null
mkdir -p build-fuzz/crashes build-fuzz/seeds
# one flat seed directory (libFuzzer reads directories, not trees)
find tests -path '*/fixtures/*' -type f -size -1024k | while read -r f; do
	cp "$f" "build-fuzz/seeds/$(echo "$f" | tr '/' '_')"
done
# seeds of the harnesses whose inputs no fixture resembles (fuzz_srcpath)
cp fuzz/seeds/* build-fuzz/seeds/
# the megabyte seeds (FUZZ_BIG=0: without them)
rm -f build-fuzz/seeds/gen-*
if [ "${FUZZ_BIG:-1}" != 0 ]; then
	python3 fuzz/gen_seeds.py build-fuzz/seeds
fi
cat fuzz/dict/*.dict >build-fuzz/all.dict
# ASan keeps freed memory in a quarantine (256 MB by default): with
# megabyte inputs it held the fuzzers' RSS at 450-500 MB, near the
# 512 MB limit; 64 MB still catches a use after free of recent blocks
# (ASAN_OPTIONS given by the caller come after, and win)
ASAN_OPTIONS="quarantine_size_mb=64${ASAN_OPTIONS:+:$ASAN_OPTIONS}"
export ASAN_OPTIONS
names="$*"
[ -n "$names" ] || names=$(find build-fuzz/fuzz -maxdepth 1 -type f -perm -u+x -name 'fuzz_*' | sed 's|.*/fuzz_||' | sort)
limit="-max_total_time=$secs"
corpus=build-fuzz/corpus
# FUZZ_RUNS: each fuzzer starts from an empty corpus of its own, so that a
# run depends on the seeds only (the corpora that timed runs grow in
# build-fuzz/corpus, megabyte units among them, are left alone)
[ -n "${FUZZ_RUNS:-}" ] && limit="-runs=$FUZZ_RUNS -seed=1" && corpus=build-fuzz/corpus-runs &&
	rm -rf "$corpus"
status=0
for n in $names; do
	mkdir -p "$corpus/$n"
	log="build-fuzz/fuzz_$n.log"
	dict=
	[ -f "fuzz/dict/$n.dict" ] && dict="-dict=fuzz/dict/$n.dict"
	[ "$n" = auto ] && dict="-dict=build-fuzz/all.dict"
	timeout=${FUZZ_TIMEOUT:-1}
	if ./build-fuzz/fuzz/"fuzz_$n" $limit $dict -max_len=2097152 \
		-timeout="$timeout" -report_slow_units="$timeout" -rss_limit_mb=512 \
		-malloc_limit_mb=512 -artifact_prefix="build-fuzz/crashes/$n-" \
		-print_final_stats=1 "$corpus/$n" build-fuzz/seeds >"$log" 2>&1; then
		execs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$')
		# libFuzzer's whole seconds ("Done N runs in S second(s)"): its
		# average_exec_per_sec is N/S, 0 when every run took under 1 s
		took=$(grep -o 'Done [0-9]* runs in [0-9]* second' "$log" | grep -o 'in [0-9]*' | grep -o '[0-9]*$')
		cov=$(grep -o 'cov: [0-9]* ft: [0-9]*' "$log" | tail -n 1)
		slow=$(grep -o 'stat::slowest_unit_time_sec: *[0-9]*' "$log" | grep -o '[0-9]*$')
		rss=$(grep -o 'stat::peak_rss_mb: *[0-9]*' "$log" | grep -o '[0-9]*$')
		# (whole seconds: 0 is under 1 s)
		if [ "${slow:-0}" -ge "$timeout" ]; then
			echo "fuzz_$n: FAILED, an input ran ${slow}s (limit: under ${timeout}s; it is build-fuzz/crashes/$n-slow-unit-*)"
			grep -A1 'Slowest unit' "$log" | tail -n 2
			status=1
		else
			echo "fuzz_$n: ok, $execs runs in ${took:-?} s, $cov, slowest input under ${timeout}s, peak RSS ${rss} MB"
		fi
	else
		echo "fuzz_$n: FAILED (see $log; reproducer in build-fuzz/crashes/)"
		tail -n 30 "$log"
		status=1
	fi
done
exit $status
