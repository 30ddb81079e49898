#!/usr/bin/env bash
# The connectivity bench of the interconnect under Verilator (issue 4): for
# each design, regenerate rtl_out/<design>/ if a generator or spec is newer
# (scripts/rtl.sh), build its model with every node probed (verif/build.sh,
# cached), generate the configurations that exercise every edge of
# routing.graph from the collateral alone (bin/verif conn), run them on the
# model and require 100% of the edges exercised and no probe or output that
# differs from the model of the configured graph (route values where routed,
# 0 elsewhere).
#   usage: verif/tests/conn.sh [DESIGN...]    (default: the three 4x4 designs)
set -u
cd "$(dirname "$0")/../.."
. scripts/suite_lib.sh || exit 1
designs=("$@")
[ ${#designs[@]} -eq 0 ] && designs=(cgra_4x4 cgra_4x4_wilton cgra_4x4_disjoint)
now() { date +%s.%N; }
since() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.1f", b - a }'; }

bench() {
	local d=$1 out=build/verif/$1/conn t0 line
	if ! suite_design "$d" "build/verif/$d.rtl.log"; then
		tail -5 "build/verif/$d.rtl.log"
		fail "$d: scripts/rtl.sh failed"
		return
	fi
	if ! bash verif/build.sh "rtl_out/$d"; then
		fail "$d: the Verilator model does not build"
		return
	fi
	t0=$(now)
	if line=$(bin/verif conn "rtl_out/$d" -o "$out" -q); then
		echo "$line"
		pass "$d: $(echo "$line" | sed -n 's/.*: \([0-9]* configurations\), \([0-9]* of [0-9]* edges exercised ([0-9.]*%)\).*/\1, \2/p')"
	else
		echo "$line"
		fail "$d: not every edge of routing.graph is exercised"
		return
	fi
	t0=$(now)
	if build/verilator/$d/vsim "$out/conn.cmd" >"$out/run.log" 2>&1; then
		tail -1 "$out/run.log"
		pass "$d: every probe and output as the model predicts, $(sed -n 's/vsim: \([0-9]* checks, [0-9]* values compared\).*/\1/p' "$out/run.log") ($(since "$t0") s)"
	else
		head -20 "$out/run.log"
		tail -1 "$out/run.log"
		fail "$d: the array differs from the model of its configured graph"
	fi
}

mkdir -p build/verif
for d in "${designs[@]}"; do
	t0=$(now)
	bench "$d"
	echo "$d: $(since "$t0") s in all"
done
suite_end "verif conn"
