#!/usr/bin/env bash
# Runs the peak command's main paths under AddressSanitizer and
# UndefinedBehaviorSanitizer (PEAK=build/san/bin/peak): generation with rules,
# eval, vectors, tb and verify-rules (also rejecting wrong registered entries);
# numeric options out of range or not numbers (exit status 2, a message naming
# the option and its range); any sanitizer or leak report fails.
set -u
cd "$(dirname "$0")/../.."
peak=${PEAK:-build/san/bin/peak}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
passed=0 failed=0
run() {
	local name=$1
	shift
	if "$@" >"$tmp/log" 2>&1 && ! grep -qE 'ERROR: (AddressSanitizer|LeakSanitizer)|runtime error' "$tmp/log"; then
		echo "PASS $name"; passed=$((passed + 1))
	else
		echo "FAIL $name"; tail -30 "$tmp/log"; failed=$((failed + 1))
	fi
}
# run_fails NAME PATTERN COMMAND...: the command must fail with PATTERN in its
# output and no sanitizer report.
run_fails() {
	local name=$1 pattern=$2
	shift 2
	if ! "$@" >"$tmp/log" 2>&1 && grep -qE "$pattern" "$tmp/log" &&
		! grep -qE 'ERROR: (AddressSanitizer|LeakSanitizer)|runtime error' "$tmp/log"; then
		echo "PASS $name"; passed=$((passed + 1))
	else
		echo "FAIL $name"; tail -30 "$tmp/log"; failed=$((failed + 1))
	fi
}
run "generate tiny with rules" $peak peak/specs/tiny.yaml -o "$tmp/t" --ir peak/ir/ops.yaml -q
run "generate pe_lite with rules" $peak peak/specs/pe_lite.yaml -o "$tmp/l" --ir peak/ir/ops.yaml -q
run "eval pe_base over 3 cycles" $peak eval peak/specs/pe_base.yaml --inst alu=mul_lo,mode1=const,const1=3,reg_out=1 --in data0=7 --cycles 3
run "eval an IR operation" $peak eval peak/ir/ops.yaml --op mulmid --in a=0x1234,b=0x5678
run "vectors for pe_base" $peak vectors peak/specs/pe_base.yaml --count 50 -o "$tmp/v.txt"
run "tb for pe_base" $peak tb peak/specs/pe_base.yaml -o "$tmp/tb"
run "verify-rules for pe_lite" $peak verify-rules peak/specs/pe_lite.yaml "$tmp/l/pe_lite.rules.yaml" --ir peak/ir/ops.yaml --vectors 200
run "generate the register mutant with rules" $peak peak/tests/specs/pe_reg_mutant.yaml -o "$tmp/m" --ir peak/ir/ops.yaml -q
sed '/^  - ir: sub$/,/proof/s/registered: { a: { mode\([0-9]\): reg }/registered: { a: { mode\1: const }/' \
	"$tmp/l/pe_lite.rules.yaml" >"$tmp/wrong.rules.yaml"
run_fails "verify-rules rejects a wrong registered entry" '^FAIL sub: registered input .a.' \
	$peak verify-rules peak/specs/pe_lite.yaml "$tmp/wrong.rules.yaml" --ir peak/ir/ops.yaml --vectors 50
sed '/^  - ir: sub$/,/proof/s/registered: { a: { mode[0-9]: reg }/registered: { a: { nofield: reg }/' \
	"$tmp/l/pe_lite.rules.yaml" >"$tmp/unknown.rules.yaml"
run_fails "a registered entry naming an unknown field is an error" "unknown.rules.yaml:[0-9]+:[0-9]+: error: pe_lite has no instruction field 'nofield'" \
	$peak verify-rules peak/specs/pe_lite.yaml "$tmp/unknown.rules.yaml" --ir peak/ir/ops.yaml --vectors 50
# run_usage NAME MESSAGE COMMAND...: a numeric option out of range or not a
# number: within 20 s, exit status 2 with exactly MESSAGE on stderr, nothing
# on stdout (and no sanitizer report).
run_usage() {
	local name=$1 message=$2 status
	shift 2
	timeout 20 "$@" >"$tmp/out" 2>"$tmp/log"
	status=$?
	if [ "$status" -eq 2 ] && [ "$(cat "$tmp/log")" = "$message" ] && [ ! -s "$tmp/out" ]; then
		echo "PASS $name"; passed=$((passed + 1))
	else
		echo "FAIL $name: exit status $status"; head -5 "$tmp/log"; failed=$((failed + 1))
	fi
}
tiny=peak/specs/tiny.yaml
run_usage "eval --cycles with 20 digits" "peak: --cycles expects a number from 0 to 1000000, got '99999999999999999999'" \
	$peak eval $tiny --inst op=Add --in A=1 --cycles 99999999999999999999
run_usage "eval --cycles past its range" "peak: --cycles expects a number from 0 to 1000000, got '1000001'" \
	$peak eval $tiny --inst op=Add --in A=1 --cycles 1000001
run_usage "eval --cycles negative" "peak: --cycles expects a number from 0 to 1000000, got '-1'" \
	$peak eval $tiny --inst op=Add --in A=1 --cycles -1
run_usage "vectors --count 2147483648" "peak: --count expects a number from 0 to 100000000, got '2147483648'" \
	$peak vectors $tiny --count 2147483648 -o "$tmp/vc.txt"
run_usage "vectors --cycles with a suffix" "peak: --cycles expects a number from 0 to 1000000, got '4x'" \
	$peak vectors $tiny --cycles 4x
run_usage "vectors --seed past 64 bits" "peak: --seed expects a number from 0 to 18446744073709551615, got '18446744073709551616'" \
	$peak vectors $tiny --seed 18446744073709551616
run_usage "vectors --seed, a second value not a number" "peak: --seed expects a number from 0 to 18446744073709551615, got ' 7'" \
	$peak vectors $tiny --seed 3 --seed ' 7'
run_usage "generate --search-limit past 32 bits" "peak: --search-limit expects a number from 0 to 4294967295, got '4294967296'" \
	$peak $tiny -o "$tmp/sl" --search-limit 4294967296
run_usage "generate --seed empty" "peak: --seed expects a number from 0 to 18446744073709551615, got ''" \
	$peak $tiny -o "$tmp/sl" --seed ''
run_usage "verify-rules --vectors 2^31" "peak: --vectors expects a number from 0 to 100000000, got '2147483648'" \
	$peak verify-rules $tiny peak/tests/golden/tiny.rules.yaml --ir peak/ir/ops.yaml --vectors 2147483648
if [ ! -e "$tmp/vc.txt" ] && [ ! -e "$tmp/sl" ]; then
	echo "PASS rejected options write nothing"; passed=$((passed + 1))
else
	echo "FAIL rejected options wrote $(ls -d "$tmp/vc.txt" "$tmp/sl" 2>/dev/null)"; failed=$((failed + 1))
fi
run "the largest values are read: eval --cycles 0x3, vectors --seed 2^64-1 --count 0b10" \
	bash -c "[ \"\$($peak eval $tiny --inst op=Add --in A=1 --cycles 0x3 | grep -c '^cycle')\" = 3 ] &&
		[ \"\$($peak vectors $tiny --seed 18446744073709551615 --count 0b10 --cycles 1 | grep -c '^S')\" = 2 ]"
run "check every spec" $peak check peak/specs/tiny.yaml peak/specs/pe_base.yaml peak/specs/pe_mac.yaml peak/specs/pe_lite.yaml peak/ir/ops.yaml
echo "san-generate: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
