#!/usr/bin/env bash
# property.sh - the property test's own checks: bin/dse random gives the
# same bytes for a seed and different chips for different seeds, switching
# the register pattern off changes nothing else, every spec of 300 seeds is
# accepted by bin/peak check and bin/canal check, bad usage is refused; and
# the test can fail: a golden image corrupted before the buffer check, and
# one corrupted before the co-simulation, are reported as FAILED with the
# seed and the command that reproduces it.
#   usage: bash scripts/tests/property.sh [SEED]
# SEED (default: a seed scripts/property.sh co-simulated last, else 1) is
# the one run with corrupted golden images; its chip's files and Verilator
# model are then in the caches already.
cd "$(dirname "$0")/../.." || exit 1
. scripts/suite_lib.sh
suite_tmp

# ---- the generator ----
# shellcheck disable=SC2154 # tmp: suite_tmp's
gen() { bin/dse random --seed "$1" -o "$tmp/$2" "${@:3}" >"$tmp/$2.out" 2>&1; }
ok=1
for s in 0 1 42 18446744073709551615; do
	gen "$s" "a$s" && gen "$s" "b$s" || ok=0
	for f in pe.yaml spec.yaml seed.txt; do cmp -s "$tmp/a$s/$f" "$tmp/b$s/$f" || ok=0; done
	[ "$(cat "$tmp/a$s.out")" = "$(cat "$tmp/a$s/seed.txt")" ] || ok=0
done
[ $ok = 1 ] && pass "dse random: the same seed gives the same bytes, and prints seed.txt" ||
	fail "dse random: a seed gave different files"
if ! cmp -s "$tmp/a0/pe.yaml" "$tmp/a1/pe.yaml" && ! cmp -s "$tmp/a0/spec.yaml" "$tmp/a1/spec.yaml"; then
	pass "dse random: two seeds, two chips"
else
	fail "dse random: seeds 0 and 1 gave the same PE or spec"
fi
ok=1 patterns=0
for s in $(seq 1 60); do
	gen "$s" "p$s" && gen "$s" "n$s" --no-register-pattern || ok=0
	cmp -s "$tmp/p$s/pe.yaml" "$tmp/n$s/pe.yaml" || ok=0
	diff "$tmp/p$s/spec.yaml" "$tmp/n$s/spec.yaml" | grep '^[<>]' | grep -qv '^. registers:' && ok=0
	grep -qE '^registers: .*(columns|rows):' "$tmp/p$s/spec.yaml" && patterns=$((patterns + 1))
	grep -qE '^registers: .*(columns|rows):' "$tmp/n$s/spec.yaml" && ok=0
done
[ $ok = 1 ] && [ $patterns -gt 0 ] &&
	pass "dse random --no-register-pattern: the same chips without the $patterns register patterns of 60 seeds" ||
	fail "dse random --no-register-pattern changed more than the registers' pattern (or no seed had one)"

# 300 seeds: every PE and chip legal (rule synthesis, seconds per PE, is
# scripts/property.sh's part)
bad=0
for s in $(seq 1000 1299); do
	gen "$s" "l$s" || { bad=$((bad + 1)); continue; }
	bin/peak check "$tmp/l$s/pe.yaml" >/dev/null 2>"$tmp/l.err" &&
		bin/canal check "$tmp/l$s/spec.yaml" >/dev/null 2>>"$tmp/l.err" ||
		{ bad=$((bad + 1)); echo "    seed $s: $(head -n 1 "$tmp/l.err")"; }
done
[ $bad = 0 ] && pass "dse random: 300 seeds, every PE and interconnect spec accepted by peak check and canal check" ||
	fail "dse random: $bad of 300 seeds gave a spec the tools reject"
mems=$(grep -l '^  mem:' "$tmp"/l*/spec.yaml | wc -l)
nosb=$(grep -l 'switchbox_outputs: false' "$tmp"/l*/spec.yaml | wc -l)
cols=$(sed -n 's/^array: { cols: \([0-9]*\), rows: \([0-9]*\) }/\1 \2/p' "$tmp"/l*/spec.yaml | tr ' ' '\n' |
	sort -n | uniq | tr '\n' ' ')
if [ "$mems" -gt 200 ] && [ "$mems" -lt 280 ] && [ "$nosb" -gt 60 ] && [ "$cols" = "2 3 4 5 6 7 8 " ]; then
	pass "dse random: the choices spread (MEM on $mems of 300, no switch-box registers on $nosb, sides $cols)"
else
	fail "dse random: the choices do not spread as documented (MEM $mems, no registers $nosb, sides $cols)"
fi

bin/dse random -o "$tmp/x" >/dev/null 2>&1
st1=$?
bin/dse random --seed -1 -o "$tmp/x" >/dev/null 2>&1
st2=$?
bash scripts/property.sh --corrupt-golden maybe 1 >/dev/null 2>&1
st3=$?
bash scripts/property.sh 5- >/dev/null 2>&1
st4=$?
[ "$st1$st2$st3$st4" = 2222 ] &&
	pass "bad usage: dse random without a seed or with -1, property.sh with a bad option or range (exit 2)" ||
	fail "bad usage: exit statuses $st1 $st2 $st3 $st4, expected 2 2 2 2"

# --help: the whole of the script's header, its last line included
[ "$(bash scripts/property.sh --help | tail -n 1)" = "the sanitizers." ] &&
	[ "$(bash scripts/dse_point.sh --help | tail -n 1)" = "  usage: scripts/dse_point.sh DIR" ] &&
	pass "property.sh --help and dse_point.sh --help: their whole headers" ||
	fail "property.sh --help or dse_point.sh --help cuts its header short"

# ---- the test can fail ----
seed=${1:-$(ls -t build/property/*/sim.txt 2>/dev/null | head -n 1 | sed 's|build/property/\([0-9]*\)/.*|\1|')}
seed=${seed:-1}
run() { bash scripts/property.sh --out "$tmp/prop" "$@" "$seed" >"$tmp/run.out" 2>&1; }
run --corrupt-golden buffers
st=$?
if [ $st = 1 ] && grep -q "FAILED: the lowered kernels' or the buffer-level output differs from the golden image" "$tmp/run.out" &&
	grep -q "reproduce: scripts/property.sh --out $tmp/prop --corrupt-golden buffers $seed" "$tmp/run.out" &&
	grep -qE '^property: [0-9]+ passed, [1-9][0-9]* failed$' "$tmp/run.out"; then
	pass "a golden image corrupted before the buffer check: FAILED, seed $seed and its command printed, exit 1"
else
	fail "a corrupted golden image was not reported (seed $seed, exit $st)"
	sed 's/^/    | /' "$tmp/run.out" | tail -n 15
fi
run --corrupt-golden verilator --verilator 1
st=$?
if [ $st = 1 ] && grep -q "under Verilator: FAILED" "$tmp/run.out" &&
	grep -qF "reproduce: scripts/property.sh --out $tmp/prop --corrupt-golden verilator --verilator 1 $seed" \
		"$tmp/run.out"; then
	pass "a golden image corrupted before the co-simulation: FAILED under Verilator, exit 1"
elif ! grep -q 'bit-exact' "$tmp/run.out"; then
	fail "seed $seed has no bit-exact application to co-simulate: give another seed"
else
	fail "a corrupted golden image was not reported by the co-simulation (seed $seed, exit $st)"
	sed 's/^/    | /' "$tmp/run.out" | tail -n 15
fi
suite_end "property test checks"
