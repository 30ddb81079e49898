#!/usr/bin/env bash
# Verification level 2: for every PE spec, synthesize the rules, then read the
# rules file back and prove each rule again with Z3 and run it on random vectors
# through both functional models; check that every IR operation is either ruled
# or listed as unsupported, that pe_base supports everything but the patterns
# (and pe_mac everything), and that two runs give byte-identical files. Then
# register packing (registered:): the entries of pe_base, pe_mac, tiny and a
# mutant PE, and verify-rules and the reader on wrong entries.
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
	# the second run: the chip step's (scripts/rtl.sh's cache of bin/peak's files, made for
	# the test designs' PEs already), else one more
	if [ "$peak" = bin/peak ]; then
		b=$(bash scripts/rtl.sh --core peak "$spec" -q 2>/dev/null) || b=$tmp/b
	else
		b=$tmp/b
	fi
	[ "$b" != "$tmp/b" ] || $peak "$spec" -o "$b" "${irargs[@]}" -q >/dev/null 2>&1
	check "$pe: two runs give byte-identical Verilog, normal form, info and rules" \
		'cmp -s "$tmp/a/$pe.v" "$b/$pe.v" && cmp -s "$tmp/a/$pe.nf" "$b/$pe.nf" && cmp -s "$tmp/a/$pe.info.yaml" "$b/$pe.info.yaml" && cmp -s "$tmp/a/$pe.rules.yaml" "$b/$pe.rules.yaml"'
done

# verify-rules must catch a wrong rule: the rule for add given alu sub.
# (pe_base's rules as generated above: two runs were byte-identical)
mkdir -p "$tmp/c" && cp "$tmp/a/pe_base.rules.yaml" "$tmp/c/" 2>/dev/null
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
# ---- register packing (registered:, AHA 5.3.1)
# The line after each rule's inputs: is registered:, and for pe_base and pe_mac it
# lists every input: on data<k> with mode<k>: reg, on bit<k> with modeb<k>: reg.
after_inputs() { sed -n '/^    inputs:/{n;p}' "$1"; }
registered_from_inputs() {
	sed -n '/^    inputs:/{s/inputs:/registered:/;'"$2"'p}' "$1"
}
every_input='s/\([a-z0-9_]*\): data\([0-9]\)/\1: { mode\2: reg }/g;s/\([a-z0-9_]*\): bit\([0-9]\)/\1: { modeb\2: reg }/g;'
for pe in pe_base pe_mac; do
	f=$tmp/a/$pe.rules.yaml
	check "$pe: every rule's 16-bit and 1-bit inputs are registered by their own mode<k>/modeb<k>: reg ($(after_inputs "$f" | grep -c '{ mode') rules)" \
		'[ "$(after_inputs "$f")" = "$(registered_from_inputs "$f" "$every_input")" ] && [ "$(after_inputs "$f" | wc -l)" -eq "$(grep -c "^  - ir:" "$f")" ]'
done
rule_lines() { sed -n "/^  - ir: $2\$/,/proof/p" "$tmp/a/$1.rules.yaml" | grep -A1 '^    inputs:'; }
check "pe_base add: exact inputs and registered lines" \
	'[ "$(rule_lines pe_base add)" = "$(printf "    inputs: { a: data0, b: data1 }\n    registered: { a: { mode0: reg }, b: { mode1: reg } }")" ]'
check "pe_base mux: exact inputs and registered lines" \
	'[ "$(rule_lines pe_base mux)" = "$(printf "    inputs: { a: data0, b: data1, s: bit0 }\n    registered: { a: { mode0: reg }, b: { mode1: reg }, s: { modeb0: reg } }")" ]'
check "pe_mac mac: exact inputs and registered lines" \
	'[ "$(rule_lines pe_mac mac)" = "$(printf "    inputs: { a: data0, b: data1, c: data2 }\n    registered: { a: { mode0: reg }, b: { mode1: reg }, c: { mode2: reg } }")" ]'
check "tiny (no input registers): every rule has registered: {}" \
	'[ "$(after_inputs "$tmp/a/tiny.rules.yaml" | sort -u)" = "    registered: {}" ]'
check "the summary line counts registered inputs" \
	'grep -qE "^peak: pe_base: .* rules \([0-9]+ IR operations unsupported\), [1-9][0-9]* registered inputs in " "$tmp/pe_base.gen"'

# A mutant whose mode0 reg reads data1's register: no input on data0 is registered
# (not by reg_out either), inputs on data1 and bit0 are, and the rules stay correct.
mutant=peak/tests/specs/pe_reg_mutant.yaml
$peak $mutant -o "$tmp/m" "${irargs[@]}" -q >/dev/null 2>&1
mf=$tmp/m/pe_reg_mutant.rules.yaml
but_data0='s/\([a-z0-9_]*\): data1/\1: { mode1: reg }/g;s/\([a-z0-9_]*\): bit0/\1: { modeb0: reg }/g;s/{ [a-z0-9_]*: data0 }/{}/;s/[a-z0-9_]*: data0, //;s/, [a-z0-9_]*: data0//;'
check "pe_reg_mutant: inputs on data0 are not registered, on data1 and bit0 they are ($(grep -c "data0" "$mf") rules read data0)" \
	'[ -s "$mf" ] && grep -q "data0" "$mf" && [ "$(after_inputs "$mf")" = "$(registered_from_inputs "$mf" "$but_data0")" ]'
out=$($peak verify-rules $mutant "$mf" "${irargs[@]}" --vectors 500 2>&1)
check "pe_reg_mutant: verify-rules passes ($(echo "$out" | tail -1 | sed 's/.*: //'))" \
	'[ $? -eq 0 ] && echo "$out" | tail -1 | grep -q " 0 failed"'

# verify-rules must catch a wrong entry: add's a registered by mode0: const.
base=$tmp/c/pe_base.rules.yaml
sed '/^  - ir: add$/,/proof/s/registered: { a: { mode0: reg }/registered: { a: { mode0: const }/' "$base" >"$tmp/c/wrongreg.rules.yaml"
out=$($peak verify-rules peak/specs/pe_base.yaml "$tmp/c/wrongreg.rules.yaml" "${irargs[@]}" --vectors 200 2>&1)
status=$?
check "verify-rules rejects add's a: { mode0: const } with the rule, the input and a counterexample" \
	'! cmp -s "$base" "$tmp/c/wrongreg.rules.yaml" && [ $status -ne 0 ] && echo "$out" | grep -qE "^FAIL add: registered input .a. \{ mode0: const \} is not read one cycle late: cycle 0 data0=0x[0-9a-f]+ data1=0x[0-9a-f]+; cycle 1 "'
# ... and an output register posing as not's input register
sed '/^  - ir: not$/,/proof/s/registered: { a: { mode[0-9]: reg } }/registered: { a: { reg_out: 1 } }/' "$base" >"$tmp/c/outreg.rules.yaml"
out=$($peak verify-rules peak/specs/pe_base.yaml "$tmp/c/outreg.rules.yaml" "${irargs[@]}" --vectors 200 2>&1)
status=$?
check "verify-rules rejects not's a: { reg_out: 1 } (an output register)" \
	'! cmp -s "$base" "$tmp/c/outreg.rules.yaml" && [ $status -ne 0 ] && echo "$out" | grep -q "^FAIL not: registered input .a. { reg_out: 1 } is not read from a state variable"'
# registered: is optional (absent: none)
grep -v '^    registered:' "$base" >"$tmp/c/noreg.rules.yaml"
out=$($peak verify-rules peak/specs/pe_base.yaml "$tmp/c/noreg.rules.yaml" "${irargs[@]}" --vectors 20 2>&1)
check "a rules file without registered: keys is read (no registered inputs)" '[ $? -eq 0 ]'

# Reading errors carry the entry's position: file:line:col of the bad key or value.
bad_entry() { # NAME RULE FROM TO WANT-MESSAGE LINE-ANCHOR [WORD-AT-COLUMN]
	sed "/^  - ir: $2\$/,/proof/s/$3/$4/" "$base" >"$tmp/c/$1.rules.yaml"
	local name=$1 want=$5 line col
	line=$(grep -nF "$6" "$tmp/c/$name.rules.yaml" | grep registered: | head -1 | cut -d: -f1)
	col=$(sed -n "${line}p" "$tmp/c/$name.rules.yaml" | awk -v w="${7:-$6}" '{ print index($0, w) }')
	out=$($peak verify-rules peak/specs/pe_base.yaml "$tmp/c/$name.rules.yaml" "${irargs[@]}" --vectors 10 2>&1)
	status=$?
	check "a registered entry with $name is an error at $line:$col: $want" \
		'[ $status -ne 0 ] && [ -n "$line" ] && echo "$out" | grep -qF "$name.rules.yaml:$line:$col: error: $want"'
}
bad_entry unknown_field add 'a: { mode0: reg }' 'a: { mode9: reg }' "pe_base has no instruction field 'mode9'" mode9
bad_entry param_field add_const 'a: { mode0: reg }' 'a: { const1: 3 }' "field 'const1' holds param 'k' of the rule" const1
bad_entry unknown_input add 'a: { mode0: reg }' 'q: { mode0: reg }' "add has no input 'q'" 'q:'
bad_entry bad_value add 'a: { mode0: reg }' 'a: { mode0: later }' "bad value 'later' for field 'mode0'" later
bad_entry no_field add 'a: { mode0: reg }' 'a: {}' "input 'a' needs a mapping of one or more instruction fields to values" 'a: {}' '{}'
echo "rules: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
