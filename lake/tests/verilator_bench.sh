#!/usr/bin/env bash
# Verification level 1 for memory tiles: each tile's generated Verilog against
# the functional model (collateral/memmodel.c) under Verilator, cycle by cycle, on
# random configurations and inputs from `lake vectors`; the Verilog is also
# linted with -Wall, and deliberately broken copies of it must fail the same
# comparison.
#   usage: lake/tests/verilator_bench.sh [--seeds S] [--cycles N] [SPEC...]
set -u
cd "$(dirname "$0")/../.."
. scripts/suite_lib.sh || exit 1
seeds=20 cycles=3000
while [ $# -gt 0 ]; do
	case "$1" in
	--seeds) seeds=$2; shift 2 ;;
	--cycles) cycles=$2; shift 2 ;;
	*) break ;;
	esac
done
specs=("$@")
[ ${#specs[@]} -eq 0 ] && specs=(lake/specs/*.yaml lake/tests/specs/pub_noshare.yaml lake/tests/specs/lb2.yaml
	lake/tests/specs/lut_rf.yaml lake/tests/specs/lut_wide.yaml)
suite_tmp

# build DIR MEM: verilates DIR/MEM.v with its bench DIR/MEM_tb.v into DIR/obj
build() {
	verilator --binary -j 2 -Wno-fatal -Mdir "$1/obj" --top-module "$2_tb" \
		-MAKEFLAGS "OPT_FAST=-O0 OPT_GLOBAL=-O0" "$1/$2.v" "$1/$2_tb.v" >"$1/build.log" 2>&1
}

# replay DIR MEM RUN: runs the bench of DIR on the files of RUN into
# DIR/verilog.trace; 0 if it is the model's trace, else prints the first
# differing pair of lines
replay() {
	local out=$1/verilog.trace n
	"$1/obj/V$2_tb" +config="$3/config.hex" +inputs="$3/inputs.hex" +trace="$out" \
		>"$1/run.log" 2>&1 || { cat "$1/run.log"; return 1; }
	cmp -s "$out" "$3/expected.trace" && return 0
	n=$(cmp "$out" "$3/expected.trace" 2>&1 | sed -n 's/.* line \([0-9]*\).*/\1/p')
	[ -n "$n" ] || n=$(($(wc -l <"$out") + 1))
	echo "    cycle $((n - 1)) (trace line $n):"
	echo "    verilog: $(sed -n "${n}p" "$out")"
	echo "    model:   $(sed -n "${n}p" "$3/expected.trace")"
	return 1
}

# first_mismatch DIR MEM RUNS: the first seed whose trace differs (and the
# lines that differ), or nothing
first_mismatch() {
	local s
	for s in $(seq 1 "$seeds"); do
		if ! replay "$1" "$2" "$3/run$s" >"$1/diff.log"; then
			echo "    seed $s"; cat "$1/diff.log"; return
		fi
	done
}

# other_source INFO: with a table look-up, an edge from another port also
# delivers to the look-up's output (otherwise the edges to it read the
# look-up's own port with its latency and never deliver with it)
other_source() {
	local unit port out
	unit=$(sed -n 's/^lookup: { unit: \([^,]*\), port: \([^,]*\), in: [^,]*, out: \([^,]*\),.*/\1/p' "$1")
	port=$(sed -n 's/^lookup: { unit: \([^,]*\), port: \([^,]*\), in: [^,]*, out: \([^,]*\),.*/\2/p' "$1")
	out=$(sed -n 's/^lookup: { unit: \([^,]*\), port: \([^,]*\), in: [^,]*, out: \([^,]*\),.*/\3/p' "$1")
	[ -n "$out" ] && grep -E "^  - \{ src: [^,]*, dst: $out," "$1" | grep -qv "src: $unit\.$port,"
}

# mutants MEM.v DROPS INFO: "what|sed script" lines, each breaking one rule:
# the generators' arithmetic always, the port priority when requests met;
# with a table look-up, its load's word mask and its place after the edges at
# its port and (when another port delivers there) at its output
mutants() {
	grep -q 'value <= value + d;' "$1" &&
		echo "recurrence adder subtracts|s/value <= value + d;/value <= value - d;/"
	grep -q '+ stride\[1\*W' "$1" &&
		echo "level-1 multiplier adds|s/+ stride\[1\*W +: W\] \* idx/+ stride[1*W +: W] + idx/"
	[ "$2" -gt 0 ] && grep -q '_win_e[0-9]* = .* & ~(' "$1" &&
		echo "every request wins|s/\(_win_e[0-9]* = [^ ]*\) & ~(.*);/\1;/"
	grep -q '_st_wmask = lookup_load ?' "$1" &&
		echo "a table load writes its whole slot|s/\(_st_wmask = \)lookup_load ? [^ ]* << [^ ]* : \(.*\);/\1\2;/"
	[ "$2" -gt 0 ] && grep -q '_win_lookup = lookup_req & ~(' "$1" &&
		echo "the look-up's request wins over the edges'|s/\(_win_lookup = lookup_req\) & ~(.*);/\1;/"
	other_source "$3" && grep -q '_sel_lookup = lookup_del & ~(' "$1" &&
		echo "the looked-up word wins over an edge's at the output|s/\(_sel_lookup = lookup_del\) & ~(.*);/\1;/"
}

for spec in "${specs[@]}"; do
	mem=$(sed -n 's/^mem: *\([A-Za-z0-9_]*\).*/\1/p' "$spec" | head -1)
	d=$tmp/$mem
	mkdir -p "$d"
	if ! bin/lake "$spec" -o "$d" -q >"$d/gen.log" 2>&1 ||
		! bin/lake tb "$d/$mem.info.yaml" -o "$d" -q >>"$d/gen.log" 2>&1; then
		fail "$mem: generation"; cat "$d/gen.log"; continue
	fi
	if (cd "$d" && verilator --lint-only -Wall "$mem.v" >lint.log 2>&1); then
		pass "$mem: verilator --lint-only -Wall is clean"
	else
		fail "$mem: lint"; head -20 "$d/lint.log"
	fi
	fires=0 drops=0 ok=1
	for s in $(seq 1 "$seeds"); do
		if ! bin/lake vectors "$d/$mem.info.yaml" --cycles "$cycles" --seed "$s" -o "$d/run$s" >"$d/vec.log" 2>&1; then
			ok=0; break
		fi
		fires=$((fires + $(sed -n 's/.* \([0-9]*\) controller firings.*/\1/p' "$d/vec.log")))
		drops=$((drops + $(sed -n 's/.* \([0-9]*\) dropped requests.*/\1/p' "$d/vec.log")))
	done
	if [ $ok = 0 ]; then
		fail "$mem: lake vectors"; cat "$d/vec.log"; continue
	fi
	t0=$(date +%s.%N)
	if ! build "$d" "$mem"; then
		fail "$mem: verilator build"; tail -20 "$d/build.log"; continue
	fi
	build_s=$(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }')
	first_mismatch "$d" "$mem" "$d" >"$d/seeds.log"
	if [ ! -s "$d/seeds.log" ]; then
		pass "$mem: $seeds seeds x $cycles cycles match the functional model ($fires firings, $drops dropped requests; build ${build_s} s)"
	else
		fail "$mem: Verilog differs from the functional model"; cat "$d/seeds.log"
		continue
	fi
	# broken copies: each must fail the same comparison
	k=0
	while IFS='|' read -r what script; do
		k=$((k + 1))
		b=$tmp/${mem}_broken$k
		mkdir -p "$b"
		cp "$d/${mem}_tb.v" "$b/"
		sed "$script" "$d/$mem.v" >"$b/$mem.v"
		if cmp -s "$d/$mem.v" "$b/$mem.v"; then
			fail "$mem: could not make a broken copy ($what)"
		elif ! build "$b" "$mem"; then
			fail "$mem: broken copy ($what) does not build"; tail -5 "$b/build.log"
		else
			first_mismatch "$b" "$mem" "$d" >"$b/seeds.log"
			if [ -s "$b/seeds.log" ]; then
				pass "$mem: a broken copy ($what) fails the bench ($(head -1 "$b/seeds.log" | sed 's/^ *//'))"
			else
				fail "$mem: the bench did not notice a broken copy ($what)"
			fi
		fi
	done < <(mutants "$d/$mem.v" "$drops" "$d/$mem.info.yaml")
done
suite_end "verilator bench"
