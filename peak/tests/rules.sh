#!/usr/bin/env bash
# Verification level 2: for every PE spec, synthesize the rules, then read the
# rules file back and prove each rule again with Z3 and run it on random vectors
# through both functional models; check that every IR operation is either ruled
# or listed as unsupported, that pe_base supports everything but the patterns
# (and pe_mac everything), and that two runs give byte-identical files.
set -u
cd "$(dirname "$0")/../.."
peak=${PEAK:-bin/peak}
ir=(peak/ir/*.yaml)
irargs=()
for f in "${ir[@]}"; do irargs+=(--ir "$f"); done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
passed=0 failed=0
check() { if eval "$2"; then echo "PASS $1"; passed=$((passed + 1)); else echo "FAIL $1"; failed=$((failed + 1)); fi; }

for spec in peak/specs/*.yaml; do
	pe=$(basename "$spec" .yaml)
	if ! $peak "$spec" -o "$tmp/a" "${irargs[@]}" -q >"$tmp/$pe.gen" 2>&1; then
		echo "FAIL $pe: generation"; cat "$tmp/$pe.gen"; failed=$((failed + 1)); continue
	fi
	cat "$tmp/$pe.gen"
	out=$($peak verify-rules "$spec" "$tmp/a/$pe.rules.yaml" "${irargs[@]}" --vectors 1000 --seed 3)
	status=$?
	echo "$out" | grep -v '^verify-rules' | head -20
	check "$pe: $(echo "$out" | tail -1)" '[ $status -eq 0 ] && echo "$out" | tail -1 | grep -q " 0 failed"'
	$peak "$spec" -o "$tmp/b" "${irargs[@]}" -q >/dev/null 2>&1
	check "$pe: two runs give byte-identical Verilog, info and rules" \
		'cmp -s "$tmp/a/$pe.v" "$tmp/b/$pe.v" && cmp -s "$tmp/a/$pe.info.yaml" "$tmp/b/$pe.info.yaml" && cmp -s "$tmp/a/$pe.rules.yaml" "$tmp/b/$pe.rules.yaml"'
done

# verify-rules must catch a wrong rule: the rule for add given alu sub.
$peak "peak/specs/pe_base.yaml" -o "$tmp/c" "${irargs[@]}" -q >/dev/null 2>&1
sed '/^  - ir: add$/,/proof/s/alu: add,/alu: sub,/' "$tmp/c/pe_base.rules.yaml" >"$tmp/c/broken.rules.yaml"
out=$($peak verify-rules peak/specs/pe_base.yaml "$tmp/c/broken.rules.yaml" "${irargs[@]}" --vectors 200 2>&1)
status=$?
check "verify-rules rejects a rule whose instruction was changed (add with alu sub)" \
	'! cmp -s "$tmp/c/pe_base.rules.yaml" "$tmp/c/broken.rules.yaml" && [ $status -ne 0 ] && echo "$out" | grep -q "^FAIL add:"'
# ... and a rule that binds a 16-bit IR input to a 1-bit PE input, with the position
sed '0,/inputs: { a: data0, b: data1 }/s//inputs: { a: data0, b: bit0 }/' "$tmp/c/pe_base.rules.yaml" >"$tmp/c/badbind.rules.yaml"
out=$($peak verify-rules peak/specs/pe_base.yaml "$tmp/c/badbind.rules.yaml" "${irargs[@]}" --vectors 10 2>&1)
status=$?
check "verify-rules rejects a width-mismatched binding with its position" \
	'[ $status -ne 0 ] && echo "$out" | grep -qE "badbind.rules.yaml:[0-9]+:[0-9]+: error: input .b. has 16 bits but .bit0. has 1"'

# A search that runs out of its work limit says so (and stays deterministic).
$peak peak/specs/pe_base.yaml -o "$tmp/d" "${irargs[@]}" --search-limit 1000 -q >/dev/null 2>&1
check "a search stopped by --search-limit is reported as such, not as a proof" \
	'grep -q "ir: mac, reason: .*work limit of 1000 Z3 resource units" "$tmp/d/pe_base.rules.yaml"'

# What each PE must and must not implement.
unsupported() { sed -n '/^unsupported:/,$p' "$tmp/a/$1.rules.yaml" | sed -n 's/.*{ ir: \([a-z0-9_]*\),.*/\1/p' | sort | tr '\n' ' '; }
check "pe_base supports every IR operation but the patterns mac and add3 [$(unsupported pe_base)]" \
	'[ "$(unsupported pe_base)" = "add3 mac " ]'
check "pe_mac supports every IR operation [$(unsupported pe_mac)]" '[ -z "$(unsupported pe_mac)" ]'
check "pe_lite lacks exactly the multiplier operations [$(unsupported pe_lite)]" \
	'[ "$(unsupported pe_lite)" = "add3 mac mul mul_const mulmid smulhi smulmid umulhi " ]'
check "tiny maps and (its only exact operation)" 'grep -q "ir: and$" "$tmp/a/tiny.rules.yaml"'
check "pe_mac maps mac onto one instruction with alu mac" \
	'sed -n "/ir: mac$/,/proof/p" "$tmp/a/pe_mac.rules.yaml" | grep -q "alu: mac"'
echo "rules: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
