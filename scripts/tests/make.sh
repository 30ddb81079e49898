#!/usr/bin/env bash
# make.sh - the make targets behave as make users expect: `make app` and
# `make sim` build what they depend on, redo nothing when nothing changed,
# redo what a removed file stands for, and a second run prints the same
# table (brighten_blur on cgra_4x4).
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
