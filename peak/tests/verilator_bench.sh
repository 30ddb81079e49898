#!/usr/bin/env bash
# Verification level 1: each PE's generated Verilog against the PEak functional
# model under Verilator, on random (instruction, input, state) sequences; the
# Verilog is also linted with -Wall, and a deliberately broken copy of it must
# fail the same bench.
#   usage: peak/tests/verilator_bench.sh [--count N] [--cycles K] [SPEC...]
set -u
cd "$(dirname "$0")/../.."
count=3000 cycles=4
while [ $# -gt 0 ]; do
	case "$1" in
	--count) count=$2; shift 2 ;;
	--cycles) cycles=$2; shift 2 ;;
	*) break ;;
	esac
done
specs=("$@")
[ ${#specs[@]} -eq 0 ] && specs=(peak/specs/*.yaml peak/tests/specs/*.yaml)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
passed=0 failed=0
pass() { echo "PASS $1"; passed=$((passed + 1)); }
fail() { echo "FAIL $1"; failed=$((failed + 1)); }

# build DIR PE: verilates DIR/PE.v with its bench into DIR/obj
build() {
	verilator --cc --exe --build -j 2 --public-flat-rw -Wno-fatal -Mdir "$1/obj" \
		--top-module "$2" -CFLAGS -O1 "$1/$2.v" "$1/$2_tb.cpp" >"$1/build.log" 2>&1
}

for spec in "${specs[@]}"; do
	pe=$(sed -n 's/^pe: *\([A-Za-z0-9_]*\).*/\1/p' "$spec" | head -1)
	d=$tmp/$pe
	mkdir -p "$d"
	if ! bin/peak "$spec" -o "$d" --no-rules -q >"$d/gen.log" 2>&1 ||
		! bin/peak tb "$spec" -o "$d" ||
		! bin/peak vectors "$spec" --count "$count" --cycles "$cycles" --seed 7 -o "$d/vec.txt"; then
		fail "$pe: generation"; cat "$d/gen.log"; continue
	fi
	if (cd "$d" && verilator --lint-only -Wall "$pe.v" >lint.log 2>&1); then
		pass "$pe: verilator --lint-only -Wall is clean"
	else
		fail "$pe: lint"; cat "$d/lint.log"
	fi
	t0=$(date +%s.%N)
	if ! build "$d" "$pe"; then
		fail "$pe: verilator build"; tail -20 "$d/build.log"; continue
	fi
	t1=$(date +%s.%N)
	if "$d/obj/V$pe" "$d/vec.txt" >"$d/run.log" 2>&1; then
		t2=$(date +%s.%N)
		n=$(sed -n 's/.*bench: \([0-9]*\) vectors.*/\1/p' "$d/run.log")
		rate=$(awk -v n="$n" -v a="$t1" -v b="$t2" 'BEGIN { printf "%.0f", n / (b - a) }')
		build_s=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", b - a }')
		pass "$pe: $n vectors ($count sequences of $cycles cycles) match the functional model; build ${build_s} s, ${rate} vectors/s"
	else
		fail "$pe: Verilog differs from the functional model"; head -12 "$d/run.log"
		continue
	fi
	# a broken copy: the first adder becomes a subtractor (or an AND an OR, or
	# a multiplier an adder)
	b=$tmp/${pe}_broken
	mkdir -p "$b"
	cp "$d/${pe}_tb.cpp" "$d/vec.txt" "$b/"
	if grep -q ' + ' "$d/$pe.v"; then
		sed '0,/ + /s// - /' "$d/$pe.v" >"$b/$pe.v"
	elif grep -q ' & ' "$d/$pe.v"; then
		sed '0,/ & /s// | /' "$d/$pe.v" >"$b/$pe.v"
	else
		sed '0,/ \* /s// + /' "$d/$pe.v" >"$b/$pe.v"
	fi
	if cmp -s "$d/$pe.v" "$b/$pe.v"; then
		fail "$pe: could not make a broken copy"
	elif ! build "$b" "$pe"; then
		fail "$pe: broken copy does not build"; tail -5 "$b/build.log"
	elif "$b/obj/V$pe" "$b/vec.txt" >"$b/run.log" 2>&1; then
		fail "$pe: the bench did not notice a broken copy of the Verilog"
	else
		pass "$pe: a broken copy of the Verilog fails the bench ($(grep -c 'line' "$b/run.log") mismatches shown)"
	fi
done
echo "verilator-bench: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
