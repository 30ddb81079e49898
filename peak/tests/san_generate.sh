#!/usr/bin/env bash
# Runs the peak command's main paths under AddressSanitizer and
# UndefinedBehaviorSanitizer (PEAK=build/san/bin/peak): generation with rules,
# eval, vectors, tb and verify-rules (also rejecting wrong registered entries);
# any sanitizer or leak report fails.
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
run "check every spec" $peak check peak/specs/tiny.yaml peak/specs/pe_base.yaml peak/specs/pe_mac.yaml peak/specs/pe_lite.yaml peak/ir/ops.yaml
echo "san-generate: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
