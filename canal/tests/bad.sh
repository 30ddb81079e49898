#!/usr/bin/env bash
# The bad-input suite of Canal (see scripts/bad_input.sh for the contract), in
# three parts, each input refused with its positioned message and a caret:
#   canal/tests/bad/*.yaml        interconnect specs, through `canal SPEC -o DIR`,
#                                 which must write nothing;
#   canal/tests/bad/graph/*.yaml  specs whose mistakes show only on the graph
#                                 (edits), through `canal check --cores CORES SPEC`
#                                 on the collateral of pe_base and pub, which
#                                 bin/peak and bin/lake write into CORES first;
#   canal/tests/bad_info/*.yaml   cores' collateral (<pe>.info.yaml,
#                                 <mem>.info.yaml), through `canal info INFO`.
# Two controls: sound edits and sound collateral accepted. CANAL=... picks the
# binary. Closes with "bad-input: N passed, M failed" over everything.
cd "$(dirname "$0")/../.." || exit 1
canal=${CANAL:-bin/canal}
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
passed=0 failed=0

# part DIR ARG...: scripts/bad_input.sh on DIR, its counts added to the total
part() {
	local out p f
	out=$(bash scripts/bad_input.sh "$@")
	echo "$out" | grep -v '^bad-input: [0-9]* passed, [0-9]* failed$'
	p=$(echo "$out" | sed -n 's/^bad-input: \([0-9]*\) passed, \([0-9]*\) failed$/\1/p' | tail -1)
	f=$(echo "$out" | sed -n 's/^bad-input: \([0-9]*\) passed, \([0-9]*\) failed$/\2/p' | tail -1)
	passed=$((passed + ${p:-0})) failed=$((failed + ${f:-1}))
}

# control NAME COMMAND...: a sound input the command accepts (exit status 0,
# no error), beside the refused ones
control() {
	local name=$1
	shift
	if "$@" >"$tmp/out" 2>"$tmp/err" && ! grep -q 'error' "$tmp/err"; then
		echo "PASS $name"; passed=$((passed + 1))
	else
		echo "FAIL $name"; head -5 "$tmp/err"; failed=$((failed + 1))
	fi
}

part canal/tests/bad "$canal" @SPEC@ -o @OUT@
if bin/peak peak/specs/pe_base.yaml -o "$tmp/cores" --no-rules -q >/dev/null && bin/lake lake/specs/pub.yaml -o "$tmp/cores" -q; then
	part canal/tests/bad/graph "$canal" check --cores "$tmp/cores" @SPEC@
	# the controls: edits that are fine (a loop through a register, a U-turn,
	# a diagonal, a core output to a neighbour's input) and sound collateral
	sed -n '/^interconnect:/,/^edits:/p' canal/tests/bad/graph/01_loop_in_tile.yaml |
		sed 's#\.\./\.\./\.\./\.\./#'"$PWD"'/#' >"$tmp/fine.yaml"
	cat >>"$tmp/fine.yaml" <<'EOF'
  - { add: [reg16_x1_y1_E_t0, sb16_x1_y1_W_in_t0] }
  - { add: [sb16_x1_y2_E_in_t0, sb16_x1_y2_E_out_t0] }
  - { add: [sb16_x1_y3_W_in_t0, sb16_x2_y2_N_out_t0] }
  - { add: [x0_y1_res, x1_y1_data0] }
EOF
	control "canal check --cores accepts sound edits" "$canal" check --cores "$tmp/cores" "$tmp/fine.yaml"
	control "canal info reads pe_base's and pub's collateral" "$canal" info "$tmp/cores/pe_base.info.yaml" \
		"$tmp/cores/pub.info.yaml"
else
	echo "FAIL the cores' collateral for canal/tests/bad/graph (bin/peak, bin/lake)"
	failed=$((failed + 1))
fi
part canal/tests/bad_info "$canal" info @SPEC@
# the limits of docs/interconnect.md: the largest interconnect (64 x 63 tiles, 32 + 32 tracks: tiles x
# tracks 262144) is a sound spec; one more row is refused (tests/bad/27_too_large.yaml: the largest
# array); generating it is in `make bench` (about 20 s)
sed -e 's/^array: .*/array: { cols: 64, rows: 63 }/' -e 's#\.\./\.\./\.\./#'"$PWD"'/#' canal/tests/bad/27_too_large.yaml \
	>"$tmp/limit.yaml"
control "canal check accepts the largest interconnect (64 x 63 tiles, 32 + 32 tracks)" "$canal" check \
	"$tmp/limit.yaml"
sed -e 's/^array: .*/array: { cols: 64, rows: 64 }/' "$tmp/limit.yaml" >"$tmp/over.yaml"
if "$canal" check "$tmp/over.yaml" 2>"$tmp/err" >/dev/null; then
	echo "FAIL 64 x 64 tiles with 32 + 32 tracks accepted"; failed=$((failed + 1))
elif grep -q "^$tmp/over.yaml:9:9: error: 64 x 64 tiles (and the IO row) with 64 tracks per direction in all is too large an interconnect: tiles times tracks may be at most 262144 (docs/interconnect.md, \"Limits\"), here 266240$" "$tmp/err"; then
	echo "PASS one row past the limit is refused"; passed=$((passed + 1))
else
	echo "FAIL one row past the limit: unexpected message"; head -3 "$tmp/err"; failed=$((failed + 1))
fi

echo "bad-input: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
