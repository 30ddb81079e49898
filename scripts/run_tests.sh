#!/usr/bin/env bash
# Runs every test suite of the project (what `make test` and CI run), shows each
# suite's output, and closes with the total over all suites:
#   total: N passed, M failed
set -u
cd "$(dirname "$0")/.."
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=0}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
total_pass=0 total_fail=0 t_start=$(date +%s)

# suite NAME COMMAND...: runs a suite and adds its closing "N passed, M failed".
suite() {
	local name=$1
	shift
	echo "== $name"
	local t0 out status line p f
	t0=$(date +%s)
	out=$("$@" 2>&1)
	status=$?
	echo "$out"
	line=$(echo "$out" | grep -E '[0-9]+ passed, [0-9]+ failed' | tail -1)
	p=$(echo "$line" | sed -n 's/.*\b\([0-9][0-9]*\) passed, \([0-9][0-9]*\) failed.*/\1/p')
	f=$(echo "$line" | sed -n 's/.*\b\([0-9][0-9]*\) passed, \([0-9][0-9]*\) failed.*/\2/p')
	p=${p:-0} f=${f:-0}
	if [ "$status" -ne 0 ] && [ "$f" -eq 0 ]; then
		echo "FAIL $name exited with status $status"
		f=1
	fi
	if [ "$p" -eq 0 ] && [ "$f" -eq 0 ]; then
		echo "FAIL $name ran no test"
		f=1
	fi
	echo "== $name: $p passed, $f failed ($(($(date +%s) - t0)) s)"
	total_pass=$((total_pass + p))
	total_fail=$((total_fail + f))
}

suite "common unit tests" bin/test_common
suite "common unit tests (ASan+UBSan)" build/san/bin/test_common
suite "peak unit tests" bin/test_peak
suite "peak unit tests (ASan+UBSan)" build/san/bin/test_peak
suite "peak bad input" bash peak/tests/bad.sh
suite "peak bad input (ASan+UBSan)" env PEAK=build/san/bin/peak bash peak/tests/bad.sh
suite "peak golden files" bash peak/tests/golden.sh
suite "peak rules: proofs, random re-checks, coverage, determinism" bash peak/tests/rules.sh
suite "peak generation under ASan+UBSan" env PEAK=build/san/bin/peak bash peak/tests/san_generate.sh
suite "lake specs" bash lake/tests/specs.sh
suite "lake unit tests: SMT model, configuration solver" bin/test_lake
suite "lake unit tests (ASan+UBSan)" build/san/bin/test_lake
suite "lake bad input" bash lake/tests/bad.sh
suite "lake bad input (ASan+UBSan)" env LAKE=build/san/bin/lake bash lake/tests/bad.sh
suite "lake bad collateral" bash lake/tests/bad_info.sh
suite "lake bad collateral (ASan+UBSan)" env LAKE=build/san/bin/lake bash lake/tests/bad_info.sh
suite "lake golden files and determinism" bash lake/tests/golden.sh
suite "lake solve" bash lake/tests/solve.sh
suite "lake solve (ASan+UBSan)" env LAKE=build/san/bin/lake bash lake/tests/solve.sh
suite "lake scenarios: line buffers, wide fetch, transpose, chaining" bash lake/tests/scenarios.sh
suite "lake Verilator benches" bash lake/tests/verilator_bench.sh
suite "canal unit tests: topologies, fan-in, reachability, edits" bin/test_canal
suite "canal unit tests (ASan+UBSan)" build/san/bin/test_canal
suite "canal bad input" bash canal/tests/bad.sh
suite "canal bad input (ASan+UBSan)" env CANAL=build/san/bin/canal bash canal/tests/bad.sh
suite "canal golden files and determinism" bash canal/tests/golden.sh
suite "canal cgra.v: determinism, lint -Wall, Verilator build (4x4 designs)" bash canal/tests/lint.sh
suite "canal configuration bus: every register written and read back (cgra_4x4)" bash canal/tests/config_bus.sh
suite "verif tools: usage, errors, generator under ASan+UBSan, determinism, harness commands" bash verif/tests/tools.sh
suite "verif connectivity under Verilator: cgra_4x4 (imran)" bash verif/tests/conn.sh cgra_4x4
suite "verif connectivity under Verilator: cgra_4x4_wilton" bash verif/tests/conn.sh cgra_4x4_wilton
suite "verif connectivity under Verilator: cgra_4x4_disjoint" bash verif/tests/conn.sh cgra_4x4_disjoint
suite "verif connectivity under Verilator: cgra_8x8" bash verif/tests/conn.sh cgra_8x8
suite "verif connectivity: a broken cgra.v fails the bench (cgra_4x4)" bash verif/tests/mutation.sh
suite "verif co-simulation: hand-made applications under Verilator (cgra_4x4)" bash verif/tests/app.sh
suite "peak Verilator benches" bash peak/tests/verilator_bench.sh
suite "cgrac unit tests: Halide arithmetic and types, lexer, ranges, lowering" bin/test_cgrac
suite "cgrac unit tests (ASan+UBSan)" build/san/bin/test_cgrac
suite "unified buffers: extraction, shift-register detection and banking on hand-written buffers" bin/test_ub
suite "unified buffers (ASan+UBSan)" build/san/bin/test_ub
suite "ub_mem: unified buffer banks on the pub and dp memory tiles" bin/test_ubmem
suite "ub_mem (ASan+UBSan)" build/san/bin/test_ubmem
suite "router: PathFinder with register counts on small graphs" bin/test_route
suite "router (ASan+UBSan)" build/san/bin/test_route
suite "placer: analytic global placement and annealing" bin/test_place
suite "placer (ASan+UBSan)" build/san/bin/test_place
suite "cgrac bad input" bash compiler/tests/bad.sh
suite "cgrac bad input (ASan+UBSan)" env CGRAC=build/san/bin/cgrac bash compiler/tests/bad.sh
suite "cgrac golden files: lowered loop nests, compute graphs, unified buffers and their mapping, determinism" \
	bash compiler/tests/golden.sh
suite "cgrac applications: lowered kernels on 16-bit words vs. the interpreter" bash compiler/tests/apps.sh
suite "cgrac applications under ASan+UBSan" env CGRAC=build/san/bin/cgrac bash compiler/tests/apps.sh \
	brighten_blur harris unsharp upsample
suite "cgrac unified buffers: Fig. 3 and 8(a), buffer-level simulation of the suite on pub and dp, MEM tiles" \
	bash compiler/tests/ubuf.sh
suite "cgrac unified buffers under ASan+UBSan" env CGRAC=build/san/bin/cgrac bash compiler/tests/ubuf.sh \
	brighten_blur upsample
suite "end to end: applications compiled, placed, routed and co-simulated bit-exact under Verilator" \
	bash compiler/tests/e2e.sh
suite "end to end under ASan+UBSan: the compiler on brighten_blur, upsample (cgra_4x4) and unsharp (cgra_16x8_mac_dp, a table look-up)" \
	env CGRAC=build/san/bin/cgrac bash compiler/tests/e2e.sh cgra_4x4:brighten_blur cgra_4x4:upsample cgra_16x8_mac_dp:unsharp
suite "halide-check: the applications under real Halide vs. cgrac's golden images and the C references" \
	bash apps/reference/tests/halide_check.sh
suite "cgrac interpreter vs. the C references on random inputs" bash apps/reference/tests/interp_check.sh

echo "all suites took $(($(date +%s) - t_start)) s"
echo "total: $total_pass passed, $total_fail failed"
[ "$total_fail" -eq 0 ]
