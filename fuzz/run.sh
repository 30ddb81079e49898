#!/usr/bin/env bash
# Runs the libFuzzer harnesses of fuzz/ (fuzz/README.md), built by make into
# build/fuzz/bin/fuzz_NAME. Run from anywhere; works from the repository root.
#
#   fuzz/run.sh run NAME SECONDS   fuzzes one harness for SECONDS on a fresh
#                                  working corpus (build/fuzz/corpus/NAME, a
#                                  copy of fuzz/corpus/NAME) with its
#                                  dictionary; crashes, hangs (10 s an input,
#                                  30 s for front and cpp),
#                                  leaks and OOMs into build/fuzz/crashes/NAME/;
#                                  the log in build/fuzz/logs/NAME.log; prints
#                                  one line: executions, coverage, crashes
#   fuzz/run.sh summary NAME...    the table of the last runs of these harnesses
#                                  and its closing line; status 1 if one crashed
#   fuzz/run.sh smoke [NAME...]    the test group (scripts/run_tests.sh fuzz):
#                                  for each harness, the committed corpus and
#                                  the regression inputs (fuzz/regress/NAME/)
#                                  replayed, then SMOKE_S seconds (default 2)
#                                  of fuzzing from a fixed seed; one check each,
#                                  closing with "fuzz: N passed, M failed"
set -u
cd "$(dirname "$0")/.." || exit 1
ALL=(peak lake canal front cpp dse cgrasim rgraph configmap bitstream peinfo penf meminfo design image)
out=build/fuzz
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}

# The seconds an input may take before it is a hang: 10, and 30 for the
# harnesses that run a generator's C++ loops (front, cpp), whose work the
# compiler bounds at 1,000,000 tokens run: about 5 s under the sanitizers
# and the fuzzer's comparison tracing, 0.3 s in the compiler as built.
hang_s() { case $1 in front|cpp) echo 30 ;; *) echo 10 ;; esac; }

# The options every fuzzing run shares.
common_opts() {
	local name=$1
	echo -timeout="$(hang_s "$name")" -rss_limit_mb=2048 -print_final_stats=1 -dict=fuzz/dict/$name.dict \
		-artifact_prefix=$out/crashes/$name/
}

# The artifacts (crash-, leak-, timeout-, oom-, slow-unit- files) of a harness.
artifacts() { ls "$out/crashes/$1" 2>/dev/null | grep -v '^slow-unit-' | sort; }

# lock KEY: holds build/fuzz/locks/KEY.lock until this script exits (fd 9),
# so that two runs in one tree (two make fuzz, or two make test) never
# share a working corpus, a log or a result; 1 if another run holds it.
lock() {
	mkdir -p "$out/locks"
	exec 9>"$out/locks/$1.lock"
	flock -n 9
}

# fuzz NAME SECONDS CORPUS LOG [OPTION...]: one libFuzzer run on a fresh copy
# of the committed corpus; its status.
fuzz() {
	local name=$1 seconds=$2 corpus=$3 log=$4
	shift 4
	rm -rf "$corpus" && mkdir -p "$corpus" "$out/crashes/$name" "$(dirname "$log")"
	cp fuzz/corpus/"$name"/* "$corpus"/
	"$out/bin/fuzz_$name" $(common_opts "$name") -max_total_time="$seconds" "$@" "$corpus" >"$log" 2>&1
}

# The last "cov: N ft: M" of a log, and its executed units.
log_stats() {
	local log=$1 cov ft execs
	cov=$(grep -ao 'cov: [0-9]*' "$log" | tail -1 | cut -d' ' -f2)
	ft=$(grep -ao 'ft: [0-9]*' "$log" | tail -1 | cut -d' ' -f2)
	execs=$(grep -a '^stat::number_of_executed_units:' "$log" | sed 's/.*: *//' | tail -1)
	echo "${execs:-0} ${cov:-0} ${ft:-0}"
}

cmd_run() {
	local name=$1 seconds=$2 before after new t0 status
	[ -x "$out/bin/fuzz_$name" ] || { echo "fuzz: no harness $out/bin/fuzz_$name (make fuzz-build)" >&2; return 1; }
	if ! lock "$name"; then
		echo "fuzz: $name is being fuzzed by another run in this tree ($out/locks/$name.lock); not run" >&2
		return 0
	fi
	mkdir -p "$out/results"
	rm -f "$out/results/$name"
	before=$(artifacts "$name")
	echo "fuzz: $name for $seconds s"
	t0=$(date +%s)
	fuzz "$name" "$seconds" "$out/corpus/$name" "$out/logs/$name.log"
	status=$?
	after=$(artifacts "$name")
	new=$(comm -13 <(echo "$before") <(echo "$after") | grep -c .)
	# 72: libFuzzer's exit on SIGINT or SIGTERM (interrupted, not a crash);
	# another failure without a new file is a crash libFuzzer could not save
	local note=
	case $status in
	0) ;;
	72 | 130 | 143) note=" (interrupted)" ;;
	*) [ "$new" -gt 0 ] || new=1 ;;
	esac
	read -r execs cov ft < <(log_stats "$out/logs/$name.log")
	echo "$name $execs $cov $ft $new $(($(date +%s) - t0))" >"$out/results/$name"
	printf 'fuzz: %-10s %10s executions  cov %6s  ft %6s  %s%s\n' "$name" "$execs" "$cov" "$ft" \
		"$([ "$new" -eq 0 ] && echo "no crash" || echo "$new crash(es): $out/crashes/$name/, log $out/logs/$name.log")" \
		"$note"
	if [ "$new" -gt 0 ]; then
		comm -13 <(echo "$before") <(echo "$after") | sed "s|^|      $out/crashes/$name/|"
		grep -m1 -E '^==[0-9]+==ERROR|^SUMMARY|runtime error|check failed|ALARM|out-of-memory' \
			"$out/logs/$name.log" | sed 's/^/      /'
	fi
	return 0
}

cmd_summary() {
	local name execs cov ft crashes secs total=0 bad=0
	echo
	printf '%-10s %12s %8s %8s %8s %8s\n' harness executions cov ft crashes seconds
	for name in "$@"; do
		if read -r _ execs cov ft crashes secs 2>/dev/null <"$out/results/$name"; then
			printf '%-10s %12s %8s %8s %8s %8s\n' "$name" "$execs" "$cov" "$ft" "$crashes" "$secs"
			total=$((total + execs))
			[ "$crashes" -eq 0 ] || bad=$((bad + 1))
		else
			printf '%-10s %12s %8s %8s %8s %8s   (did not run)\n' "$name" - - - - -
			bad=$((bad + 1))
		fi
	done
	echo "fuzz: $# harnesses, $total executions, $bad with crashes (build/fuzz/crashes/)"
	[ "$bad" -eq 0 ]
}

# check NAME WHAT COMMAND...: one check of the smoke run.
pass=0 fail=0
check() {
	local name=$1 what=$2 log=$out/smoke/$1.$3.log
	shift 3
	mkdir -p "$out/smoke"
	if "$@" >"$log" 2>&1; then
		echo "PASS $name: $what"
		pass=$((pass + 1))
	else
		echo "FAIL $name: $what (log $log)"
		grep -m3 -E '^==[0-9]+==ERROR|^SUMMARY|runtime error|check failed|ALARM|^fuzz:' "$log" | sed 's/^/    /'
		fail=$((fail + 1))
	fi
}

# replay NAME FILE...: each input run once (none: nothing to do).
replay() {
	local name=$1
	shift
	[ $# -eq 0 ] || "$out/bin/fuzz_$name" -timeout="$(hang_s "$name")" -rss_limit_mb=2048 "$@"
}

cmd_smoke() {
	local name seconds=${SMOKE_S:-2} n r
	if ! lock smoke; then
		echo "FAIL: another smoke run holds $out/locks/smoke.lock"
		echo "fuzz: 0 passed, 1 failed"
		return 1
	fi
	for name in "$@"; do
		if [ ! -x "$out/bin/fuzz_$name" ]; then
			echo "FAIL $name: no harness $out/bin/fuzz_$name (make test-fuzz builds them)"
			fail=$((fail + 3))
			continue
		fi
		shopt -s nullglob
		local corpus=(fuzz/corpus/"$name"/*) regress=(fuzz/regress/"$name"/*)
		shopt -u nullglob
		n=${#corpus[@]} r=${#regress[@]}
		check "$name" "the committed corpus ($n inputs)" corpus replay "$name" "${corpus[@]}"
		check "$name" "the regression inputs ($r)" regress replay "$name" ${regress[@]+"${regress[@]}"}
		check "$name" "$seconds s of fuzzing" run fuzz "$name" "$seconds" "$out/smoke/corpus/$name" \
			/dev/stdout -seed=1
	done
	echo "fuzz: $pass passed, $fail failed"
	[ "$fail" -eq 0 ]
}

main() {
	case "${1:-}" in
	run) [ $# -eq 3 ] || { echo "usage: fuzz/run.sh run NAME SECONDS" >&2; return 2; }; cmd_run "$2" "$3" ;;
	summary) shift; cmd_summary "$@" ;;
	smoke) shift; [ $# -gt 0 ] || set -- "${ALL[@]}"; cmd_smoke "$@" ;;
	*) sed -n '2,20p' "$0" | sed 's/^# \{0,1\}//'; return 2 ;;
	esac
}

# One line, read whole before it runs: a run that lasts an hour is not
# disturbed by an edit of this file meanwhile (bash reads a script as it goes).
main "$@"; exit
