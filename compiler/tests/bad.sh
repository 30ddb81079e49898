#!/usr/bin/env bash
# The bad-input suite of the compiler (see scripts/bad_input.sh for the
# contract): compiler/tests/bad/*.hl through
# `cgrac APP --design rtl_out/cgra_4x4 -o DIR --emit ubuf` (every stage up to buffer mapping), which must refuse
# each with its positioned message and write nothing; then compiler/tests/cli.sh,
# the bad inputs no committed file holds (generated deep nesting, images,
# command lines). The closing line adds up both. CGRAC=... picks the binary.
cd "$(dirname "$0")/../.." || exit 1
[ -f rtl_out/cgra_4x4/design.yaml ] || bash scripts/rtl.sh cgra_4x4 >/dev/null || exit 1
log=$(mktemp) || exit 1
trap 'rm -f "$log"' EXIT
passed=0 failed=0
# part CMD...: runs a suite, shows its output and adds its closing "N passed, M failed"
part() {
	"$@" 2>&1 | tee "$log"
	local status=${PIPESTATUS[0]} line p f
	line=$(grep -E '[0-9]+ passed, [0-9]+ failed' "$log" | tail -1)
	p=$(echo "$line" | sed -n 's/.* \([0-9][0-9]*\) passed, \([0-9][0-9]*\) failed.*/\1/p')
	f=$(echo "$line" | sed -n 's/.* \([0-9][0-9]*\) passed, \([0-9][0-9]*\) failed.*/\2/p')
	p=${p:-0} f=${f:-0}
	[ "$status" -ne 0 ] && [ "$f" -eq 0 ] && f=1
	passed=$((passed + p)) failed=$((failed + f))
}
part bash scripts/bad_input.sh compiler/tests/bad "${CGRAC:-bin/cgrac}" @SPEC@ --design rtl_out/cgra_4x4 \
	-o @OUT@ --emit ubuf -q
part bash compiler/tests/cli.sh
echo "cgrac bad input and command line: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
