#!/usr/bin/env bash
# dse.sh - design-space sweeps (dse/README.md) on small chips: a two-point
# sweep over the 16-bit tracks of cgra_4x4 with brighten_blur through make
# dse (the CSV's columns and values, the Markdown and the charts), two runs
# identical apart from compile times, a deleted point redone alone and
# nothing redone when nothing changed, a point whose chip canal rejects as a
# row with canal's message, bad sweep files stopped before anything runs,
# and the same sweep through a local one-node Slurm cluster
# (scripts/slurm-local.sh; LAUNCH="srun -N1 -n1") giving the same CSV.
# dse/tests/dse_inputs.sh (sourced) checks the inputs and outputs of bin/dse
# without running a point: bad sweeps, bad results, plans that cannot be
# written, charts of extreme values; dse/tests/dse_charts.sh (sourced) the
# charts of 32 applications over 8 points drawn by `dse charts`; --quick
# runs only those two, --charts only the second (a second or two).
#   usage: bash dse/tests/dse.sh [--no-slurm] [--quick | --charts]
cd "$(dirname "$0")/../.." || exit 1
. scripts/suite_lib.sh
suite_tmp
for t in dse peak lake canal cgrac cgrasim; do
	[ -x "bin/$t" ] || { fail "bin/$t exists (make build)"; suite_end dse; exit 1; }
done
slurm=1 quick=0 charts=0
for a in "$@"; do
	case $a in
	--no-slurm) slurm=0 ;;
	--quick) quick=1 ;;
	--charts) charts=1 ;;
	*) echo "usage: bash dse/tests/dse.sh [--no-slurm] [--quick | --charts]" >&2; exit 2 ;;
	esac
done
# the checks of inputs and outputs through the sanitized dse when built
DSE=${DSE:-build/san/bin/dse}
[ -x "$DSE" ] || DSE=bin/dse

[ $charts = 1 ] || . dse/tests/dse_inputs.sh
. dse/tests/dse_charts.sh
[ $quick = 1 ] || [ $charts = 1 ] && { suite_end dse; exit; }

# CSV without the columns that are times: compile_s.
untimed() { awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "compile_s") c = i } { $c = ""; print }' OFS=, "$1"; }
# The value of column NAME in row N (1: the first data row) of a CSV without quoted commas.
col() { awk -F, -v n="$2" -v name="$3" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == name) c = i } NR == n + 1 { print $c }' "$1"; }

# the sweeps are named per run, so that two runs of this suite in one tree
# (build/dse/<sweep>/) do not meet
two=dse_two_$$ failing=dse_fail_$$
sweep=$tmp/$two.yaml
# (--place-seed 1 is cgrac's default: the options reach cgrac as words of
# point.env's array without changing a figure)
cat >"$sweep" <<'EOF'
base: cgra_4x4
apps: [brighten_blur]
cgrac: [--place-seed, "1"]
cross:
  tracks16: [2, 3]
EOF
out=build/dse/$two
rm -rf "$out"

# ---- the sweep through make dse
make --no-print-directory -s dse SWEEP="$sweep" >"$tmp/run1" 2>&1
st=$?
if [ $st -eq 0 ] && grep -q '^point 1 of 2: tracks16=2: 1 bit-exact, 0 failed' "$tmp/run1" &&
	grep -q '^point 2 of 2: tracks16=3: 1 bit-exact, 0 failed' "$tmp/run1" &&
	grep -q "^dse: $two: 2 points x 1 applications: 2 bit-exact, 0 failed -> $out/results.csv" "$tmp/run1"; then
	pass "make dse: a line per point and the summary"
else
	fail "make dse: exit $st"
	sed 's/^/    | /' "$tmp/run1" | tail -20
fi
csv=$out/results.csv
want='sweep,point,tracks16,app,status,reason,pes,mems,ios,registers,packed_registers,tracks16_used,tracks1_used,critical_path_ns,clock_mhz,latency_cycles,runtime_us,compile_s,sim_cycles,sim_pes_used,sim_pes_total,sim_pe_busy_pct,area_pe_core,area_pe_sb,area_pe_cb,area_pe_config,area_pe_tile,area_mem_core,area_mem_sb,area_mem_cb,area_mem_config,area_mem_tile,area_io_core,area_io_sb,area_io_cb,area_io_config,area_io_tile,area_array,area_unit'
if [ "$(head -1 "$csv" 2>/dev/null)" = "$want" ] && [ "$(wc -l <"$csv")" -eq 3 ]; then
	pass "results.csv: the columns, two rows"
else
	fail "results.csv: header or row count"
	head -3 "$csv" 2>/dev/null | sed 's/^/    | /'
fi
if [ "$(col "$csv" 1 point)" = tracks16_2 ] && [ "$(col "$csv" 2 point)" = tracks16_3 ] &&
	[ "$(col "$csv" 1 tracks16)" = 2 ] && [ "$(col "$csv" 2 tracks16)" = 3 ] &&
	[ "$(col "$csv" 1 status)" = bit-exact ] && [ "$(col "$csv" 2 status)" = bit-exact ] &&
	[ "$(col "$csv" 1 pes)" = 5 ] && [ "$(col "$csv" 1 mems)" = 1 ] && [ "$(col "$csv" 1 ios)" = 1 ]; then
	pass "results.csv: knob values, bit-exact, brighten_blur's 5 PEs, 1 MEM, 1 IO"
else
	fail "results.csv: values"
	cat "$csv" | sed 's/^/    | /'
fi
# Area from scripts/area.sh: the switch box grows with the tracks, the core does not.
if awk -v a="$(col "$csv" 1 area_pe_sb)" -v b="$(col "$csv" 2 area_pe_sb)" -v c="$(col "$csv" 1 area_array)" \
	-v p="$(col "$csv" 1 area_pe_core)" -v q="$(col "$csv" 2 area_pe_core)" \
	'BEGIN { exit !(a > 0 && b > a && c > 0 && p > 0 && (p - q) ^ 2 <= (p / 1000) ^ 2) }'; then
	pass "area: the PE tile's switch box $(col "$csv" 1 area_pe_sb) -> $(col "$csv" 2 area_pe_sb) transistors from 2 to 3 tracks, the core the same"
else
	fail "area columns"
	grep -h . "$out"/*/result.txt | sed 's/^/    | /'
fi
# Figures as the compiler's report gives them; runtime = latency / clock.
rep=$out/tracks16_2/apps/brighten_blur/brighten_blur.report.yaml
lat=$(sed -n 's/^latency_cycles: //p' "$rep") mhz=$(sed -n 's/^clock_mhz: //p' "$rep")
if [ -n "$lat" ] && [ "$(col "$csv" 1 latency_cycles)" = "$lat" ] && [ "$(col "$csv" 1 clock_mhz)" = "$mhz" ] &&
	awk -v r="$(col "$csv" 1 runtime_us)" -v l="$lat" -v m="$mhz" 'BEGIN { exit !(r > 0 && (r - l / m) ^ 2 < 1e-12) }'; then
	pass "results.csv: latency $lat cycles and clock $mhz MHz from the report, runtime their ratio"
else
	fail "results.csv: latency, clock or runtime"
fi
# The fast simulator's figures: its summary line's cycles and PE utilization,
# the PEs used those cgrac placed, of the 12 PEs of cgra_4x4.
fast=$out/tracks16_2/apps/brighten_blur/fast/sim.log
if [[ $(tail -n 1 "$fast" 2>/dev/null) =~ bit-exact,\ ([0-9]+)\ cycles\ in\ .*\ ([0-9]+)\ of\ ([0-9]+)\ PEs\ used\ .*busy\ ([0-9]+)% ]] &&
	[ "$(col "$csv" 1 sim_cycles)" = "${BASH_REMATCH[1]}" ] && [ "${BASH_REMATCH[1]}" -gt 0 ] &&
	[ "$(col "$csv" 1 sim_pes_used)" = "${BASH_REMATCH[2]}" ] && [ "$(col "$csv" 1 sim_pes_used)" = "$(col "$csv" 1 pes)" ] &&
	[ "$(col "$csv" 1 sim_pes_total)" = "${BASH_REMATCH[3]}" ] && [ "${BASH_REMATCH[3]}" = 12 ] &&
	[ "$(col "$csv" 1 sim_pe_busy_pct)" = "${BASH_REMATCH[4]}" ] && [ -n "$(col "$csv" 2 sim_cycles)" ] &&
	grep -qxF "| brighten_blur | ${BASH_REMATCH[1]} | $(col "$csv" 2 sim_cycles) |" "$out/results.md" &&
	grep -qF "| brighten_blur | ${BASH_REMATCH[2]} of 12 (" "$out/results.md"; then
	pass "results.csv and results.md: the fast simulator's ${BASH_REMATCH[1]} cycles, ${BASH_REMATCH[2]} of 12 PEs used, busy ${BASH_REMATCH[4]}%"
else
	fail "the fast simulator's cycles or PE utilization"
	cat "$fast" "$out"/*/result.txt 2>&1 | sed 's/^/    | /'
fi
# The points' specs: the base with the knob, core paths from the point's folder.
if grep -qx 'tracks: { 16: 3, 1: 2 }' "$out/tracks16_3/spec.yaml" &&
	grep -qx "interconnect: ${two}_2" "$out/tracks16_3/spec.yaml" &&
	bin/canal check "$out/tracks16_3/spec.yaml" >/dev/null 2>&1; then
	pass "a point's spec: the base's with tracks 16: 3, accepted by canal"
else
	fail "a point's spec"
	sed 's/^/    | /' "$out/tracks16_3/spec.yaml"
fi
if grep -q '^| brighten_blur | 5 | 5 |$' "$out/results.md" && grep -q '<svg' "$out/runtime_area.svg" &&
	grep -q '<circle' "$out/resources.svg"; then
	pass "results.md tables with the points as columns; the charts"
else
	fail "results.md or the charts"
fi

# ---- plan and report under ASan+UBSan: the same files, no leak
san=build/san/bin/dse
if [ -x "$san" ]; then
	cp "$csv" "$tmp/plain.csv"
	cp "$out/tracks16_2/spec.yaml" "$tmp/plain_spec.yaml"
	if "$san" plan "$sweep" -o "$out" >"$tmp/san.log" 2>&1 && "$san" report "$sweep" -o "$out" >>"$tmp/san.log" 2>&1 &&
		cmp -s "$tmp/plain.csv" "$csv" && cmp -s "$tmp/plain_spec.yaml" "$out/tracks16_2/spec.yaml" &&
		"$san" check "$sweep" >>"$tmp/san.log" 2>&1; then
		pass "dse plan, report and check under ASan+UBSan: the same files, no error"
	else
		fail "dse under ASan+UBSan"
		sed 's/^/    | /' "$tmp/san.log" | head -30
	fi
else
	fail "$san exists (make test builds it)"
fi

# ---- resume: nothing redone, then a deleted point alone
make --no-print-directory -s dse SWEEP="$sweep" >"$tmp/run2" 2>&1
if ! grep -q '^point' "$tmp/run2" && grep -q '2 bit-exact' "$tmp/run2"; then
	pass "a second make dse redoes no point"
else
	fail "a second make dse redid points"
	sed 's/^/    | /' "$tmp/run2"
fi
cp "$csv" "$tmp/first.csv"
cp "$out/tracks16_2/rtl/cgra.v" "$tmp/first.v"
rm "$out/tracks16_3/result.txt"
make --no-print-directory -s dse SWEEP="$sweep" >"$tmp/run3" 2>&1
if grep -q '^point 2 of 2' "$tmp/run3" && ! grep -q '^point 1 of 2' "$tmp/run3"; then
	pass "a deleted point is redone alone"
else
	fail "resume after a deleted point"
	sed 's/^/    | /' "$tmp/run3"
fi

# ---- determinism: everything again from nothing
rm -rf "$out"
make --no-print-directory -s dse SWEEP="$sweep" >"$tmp/run4" 2>&1
if cmp -s <(untimed "$tmp/first.csv") <(untimed "$csv") && cmp -s "$tmp/first.v" "$out/tracks16_2/rtl/cgra.v"; then
	pass "two runs give the same CSV apart from compile times, and the same cgra.v"
else
	fail "two runs differ"
	diff <(untimed "$tmp/first.csv") <(untimed "$csv") | sed 's/^/    | /' | head
fi

# ---- a point whose chip canal rejects: a row with canal's message
cat >"$tmp/$failing.yaml" <<'EOF'
base: cgra_4x4
apps: [brighten_blur]
points:
  - { mem_first: 3 }
  - { mem_first: 9 }
EOF
rm -rf "build/dse/$failing"
make --no-print-directory -s dse SWEEP="$tmp/$failing.yaml" >"$tmp/run5" 2>&1
fcsv=build/dse/$failing/results.csv
if [ "$(col "$fcsv" 1 status)" = bit-exact ] && [ "$(col "$fcsv" 2 status)" = not-run ] &&
	grep -q 'MEM column 9 is outside the array (columns 0 to 3)' "$fcsv" &&
	grep -q '1 bit-exact, 1 failed' "$tmp/run5"; then
	pass "a point canal rejects: its row says not-run with canal's message; the sweep goes on"
else
	fail "a failing point's row"
	sed 's/^/    | /' "$fcsv" "$tmp/run5" 2>/dev/null | head -20
fi
rm -rf "build/dse/$failing"

# ---- the same sweep through Slurm
if [ $slurm = 1 ]; then
	rm -rf "$out"
	if bash scripts/slurm-local.sh up >"$tmp/slurm.log" 2>&1; then
		eval "$(bash scripts/slurm-local.sh env)"
		make --no-print-directory -s dse SWEEP="$sweep" LAUNCH="srun -N1 -n1" >"$tmp/run6" 2>&1
		if grep -q '^point 2 of 2' "$tmp/run6" && cmp -s <(untimed "$tmp/first.csv") <(untimed "$csv"); then
			pass "through Slurm (srun -N1 -n1): the same CSV apart from compile times"
		else
			fail "the sweep through Slurm"
			sed 's/^/    | /' "$tmp/run6" | tail -10
		fi
		bash scripts/slurm-local.sh down >>"$tmp/slurm.log" 2>&1 || fail "slurm-local.sh down"
	else
		fail "scripts/slurm-local.sh up"
		sed 's/^/    | /' "$tmp/slurm.log" | tail -10
	fi
fi
rm -rf "$out"
suite_end dse
