#!/usr/bin/env bash
# make.sh - the make targets behave as make users expect: `make app` and
# `make sim` build what they depend on, redo nothing when nothing changed,
# redo what a removed file stands for, and a second run prints the same
# table (brighten_blur on cgra_4x4); the same for make sim SIM=fast, and
# its waveform with TRACE=1.
#   usage: bash scripts/tests/make.sh
cd "$(dirname "$0")/../.." || exit 1
. scripts/suite_lib.sh
suite_tmp
app=brighten_blur design=cgra_4x4
out=build/$design/$app
mk() { make --no-print-directory "$@" APP=$app DESIGN=$design; }

rm -rf "$out"
mk sim >"$tmp/sim1" 2>&1
st=$?
if [ $st -eq 0 ] && grep -q "^app: $app for $design" "$tmp/sim1" && grep -q "^sim: $app on $design" "$tmp/sim1" &&
	grep -q "^$app .* bit-exact  $out" "$tmp/sim1"; then
	pass "make sim on a clean application: compiled, co-simulated, bit-exact"
else
	fail "make sim on a clean application (exit $st)"
	sed 's/^/    | /' "$tmp/sim1" | tail -15
fi
mk sim >"$tmp/sim2" 2>&1
st=$?
if [ $st -eq 0 ] && ! grep -q '^app: \|^sim: ' "$tmp/sim2" && [ "$(tail -n 1 "$tmp/sim2")" = "$(tail -n 1 "$tmp/sim1")" ]; then
	pass "make sim again: nothing redone, the same table line"
else
	fail "make sim again redid something (exit $st)"
	sed 's/^/    | /' "$tmp/sim2"
fi
mk app >"$tmp/app1" 2>&1
if ! grep -q "^app: $app" "$tmp/app1" && grep -q "^$app .* same  $out" "$tmp/app1"; then
	pass "make app after make sim: nothing redone, the golden checks' table line"
else
	fail "make app after make sim"
	sed 's/^/    | /' "$tmp/app1"
fi
rm "$out/sim.ok"
mk sim >"$tmp/sim3" 2>&1
if grep -q "^sim: $app" "$tmp/sim3" && ! grep -q "^app: $app" "$tmp/sim3"; then
	pass "a removed sim.ok: the co-simulation alone is redone"
else
	fail "a removed sim.ok"
	sed 's/^/    | /' "$tmp/sim3"
fi
rm "$out/app.txt"
mk sim >"$tmp/sim4" 2>&1
if grep -q "^app: $app" "$tmp/sim4" && grep -q "^sim: $app" "$tmp/sim4"; then
	pass "a removed app.txt: compiled and co-simulated again"
else
	fail "a removed app.txt"
	sed 's/^/    | /' "$tmp/sim4"
fi
# the fast simulator: make sim SIM=fast runs it once, beside Verilator's result in the table
mk sim SIM=fast >"$tmp/fast1" 2>&1
st=$?
if [ $st -eq 0 ] && grep -q "^sim: $app on $design with the fast simulator" "$tmp/fast1" &&
	grep -q "^$app .* bit-exact  bit-exact  $out" "$tmp/fast1" && [ -f "$out/fast/output.pgm" ] &&
	grep -q 'kind: PE' "$out/fast/activity.yaml"; then
	pass "make sim SIM=fast: the fast simulator's run, bit-exact beside Verilator's, with its activity"
else
	fail "make sim SIM=fast (exit $st)"
	sed 's/^/    | /' "$tmp/fast1" | tail -10
fi
mk sim SIM=fast >"$tmp/fast2" 2>&1
if ! grep -q '^app: \|^sim: ' "$tmp/fast2" && [ "$(tail -n 1 "$tmp/fast2")" = "$(tail -n 1 "$tmp/fast1")" ]; then
	pass "make sim SIM=fast again: nothing redone, the same table line"
else
	fail "make sim SIM=fast again redid something"
	sed 's/^/    | /' "$tmp/fast2"
fi
rm -f "$out/fast/$app.vcd"
if mk sim SIM=fast TRACE=1 >"$tmp/fast3" 2>&1 && grep -q '^\$enddefinitions' "$out/fast/$app.vcd"; then
	pass "make sim SIM=fast TRACE=1: a waveform of the used nodes in $out/fast/$app.vcd"
else
	fail "make sim SIM=fast TRACE=1: no waveform"
	sed 's/^/    | /' "$tmp/fast3" | tail -5
fi
make --no-print-directory app APP=no_such_app DESIGN=$design >"$tmp/bad" 2>&1
st=$?
if [ $st -ne 0 ] && grep -q 'app: no application apps/no_such_app/no_such_app.hl' "$tmp/bad"; then
	pass "make app with an unknown application: its message, non-zero exit"
else
	fail "make app with an unknown application (exit $st)"
	sed 's/^/    | /' "$tmp/bad"
fi
rm -rf build/$design/no_such_app
suite_end make
