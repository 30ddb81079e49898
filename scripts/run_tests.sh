#!/usr/bin/env bash
# The test suites of the project in groups. `make test` (and CI) runs the
# groups two at a time, each as the make target test-GROUP, which first builds
# what the group needs (binaries, designs, Verilator models); then the table
# of the groups and the total over all of them:
#   total: N passed, M failed
#
#   scripts/run_tests.sh GROUP...            runs these groups, one after another
#   scripts/run_tests.sh                     runs every group, one after another
#   scripts/run_tests.sh --list              the groups, longest first
#   scripts/run_tests.sh --summary [--since T] GROUP...
#                                            the table of the groups' results and
#                                            the total (T: the start, in epoch s)
#
# Each suite prints its closing line "N passed, M failed"; a suite that exits
# non-zero with 0 failures counts as one failure, a suite that ran no test as
# one failure. A group's output is written to build/test/GROUP.log as well, its
# result to build/test/GROUP.result ("passed failed seconds start", the start in
# epoch seconds: the table shows when each group started); a group without
# a result (not run, or its prerequisites failed) counts as one failure.
# Run alone, a group expects what make builds for it (`make test-GROUP`).
# The unit group runs bin/T and build/san/bin/T for each T of $TESTS (the
# Makefile's TESTS; asked of make when unset).
set -u
cd "$(dirname "$0")/.."
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=0}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
results=build/test

# ---- the groups, longest first in a fresh clone, Verilator models included (the
# order make starts them in: a long group started last leaves a processor idle) ----
GROUPS_LONGEST_FIRST=(e2e compiler canal property dse verif lake-bench peak peak-bench fuzz halide unit e2e-san lake cgrasim docs)

group_unit() {
	local t
	[ -n "${TESTS:-}" ] || TESTS=$(make --no-print-directory -s print-TESTS)
	for t in $TESTS; do
		suite "$t" "bin/$t"
		suite "$t (ASan+UBSan)" "build/san/bin/$t"
	done
}

group_peak() {
	suite "peak bad input" bash peak/tests/bad.sh
	suite "peak bad input (ASan+UBSan)" env PEAK=build/san/bin/peak bash peak/tests/bad.sh
	suite "peak golden files" bash peak/tests/golden.sh
	suite "peak rules: proofs, random re-checks, coverage, determinism" bash peak/tests/rules.sh
	suite "peak generation under ASan+UBSan" env PEAK=build/san/bin/peak bash peak/tests/san_generate.sh
}

group_peak-bench() {
	suite "peak Verilator benches" bash peak/tests/verilator_bench.sh
}

group_lake() {
	suite "lake specs" bash lake/tests/specs.sh
	suite "lake bad input" bash lake/tests/bad.sh
	suite "lake bad input (ASan+UBSan)" env LAKE=build/san/bin/lake bash lake/tests/bad.sh
	suite "lake bad collateral" bash lake/tests/bad_info.sh
	suite "lake bad collateral (ASan+UBSan)" env LAKE=build/san/bin/lake bash lake/tests/bad_info.sh
	suite "lake golden files and determinism" bash lake/tests/golden.sh
	suite "lake solve" bash lake/tests/solve.sh
	suite "lake solve (ASan+UBSan)" env LAKE=build/san/bin/lake bash lake/tests/solve.sh
	suite "lake scenarios: line buffers, wide fetch, transpose, chaining" bash lake/tests/scenarios.sh
}

group_lake-bench() {
	suite "lake Verilator benches" bash lake/tests/verilator_bench.sh
}

group_canal() {
	suite "canal bad input" bash canal/tests/bad.sh
	suite "canal bad input (ASan+UBSan)" env CANAL=build/san/bin/canal bash canal/tests/bad.sh
	suite "canal golden files and determinism" bash canal/tests/golden.sh
	suite "canal cgra.v: determinism, lint -Wall (4x4 designs; the flat Verilator build is make bench's)" \
		bash canal/tests/lint.sh --no-build
	suite "canal configuration bus: every register written and read back (cgra_4x4)" bash canal/tests/config_bus.sh
}

group_verif() {
	suite "verif tools: usage, errors, generator under ASan+UBSan, determinism, harness commands" bash verif/tests/tools.sh
	suite "verif connectivity under Verilator: cgra_4x4 (imran)" bash verif/tests/conn.sh cgra_4x4
	suite "verif connectivity under Verilator: cgra_4x4_wilton" bash verif/tests/conn.sh cgra_4x4_wilton
	suite "verif connectivity under Verilator: cgra_4x4_disjoint" bash verif/tests/conn.sh cgra_4x4_disjoint
	suite "verif connectivity: a broken cgra.v fails the bench (cgra_4x4)" bash verif/tests/mutation.sh
	suite "verif co-simulation: hand-made applications under Verilator (cgra_4x4)" bash verif/tests/app.sh
}

group_cgrasim() {
	suite "cgrasim: usage, an application with its waveform and activity, determinism, bad input, combinational loops, ASan+UBSan" \
		bash cgrasim/tests/tools.sh
	suite "cgrasim against Verilator on every node and cycle: the connectivity bench, random PE instructions, mutations caught (cgra_4x4)" \
		bash cgrasim/tests/agree.sh
}

group_compiler() {
	suite "cgrac bad input" bash compiler/tests/bad.sh
	suite "cgrac bad input (ASan+UBSan)" env CGRAC=build/san/bin/cgrac bash compiler/tests/bad.sh
	suite "cgrac on hand-edited and stale collateral" bash collateral/tests/bad_collateral.sh
	suite "cgrac on hand-edited and stale collateral (ASan+UBSan)" env CGRAC=build/san/bin/cgrac \
		bash collateral/tests/bad_collateral.sh
	suite "cgrac golden files: lowered loop nests, compute graphs, unified buffers and their mapping, determinism" \
		bash compiler/tests/golden.sh
	suite "cgrac applications: lowered kernels on 16-bit words vs. the interpreter" bash compiler/tests/apps.sh
	suite "cgrac applications under ASan+UBSan" env CGRAC=build/san/bin/cgrac bash compiler/tests/apps.sh \
		brighten_blur harris unsharp upsample
	suite "cgrac unified buffers: Fig. 3 and 8(a), buffer-level simulation of the suite on pub and dp, MEM tiles" \
		bash compiler/tests/ubuf.sh
	suite "cgrac unified buffers under ASan+UBSan" env CGRAC=build/san/bin/cgrac bash compiler/tests/ubuf.sh \
		brighten_blur upsample
}

group_e2e() {
	suite "end to end: applications compiled, placed, routed and co-simulated bit-exact under Verilator" \
		bash compiler/tests/e2e.sh
	suite "legal chips: no switch-box registers (retiming, delay PEs, lowered pipelining), no MEM tile, a PE without input registers" \
		bash compiler/tests/legal.sh
}

group_e2e-san() {
	suite "end to end under ASan+UBSan: the compiler on brighten_blur, upsample, vignette (cgra_4x4, index streams), matmul_time (cgra_4x4, a reduction kept in time) and unsharp (cgra_16x8_mac_dp, a table look-up)" \
		env CGRAC=build/san/bin/cgrac bash compiler/tests/e2e.sh cgra_4x4:brighten_blur cgra_4x4:upsample cgra_4x4:vignette cgra_4x4:matmul_time cgra_16x8_mac_dp:unsharp
}

group_halide() {
	suite "halide-check: the applications under real Halide vs. cgrac's golden images and the C references" \
		bash apps/reference/tests/halide_check.sh
	suite "cgrac interpreter vs. the C references on random inputs" bash apps/reference/tests/interp_check.sh
}

group_property() {
	suite "property: 11 random chips (seeds 1 to 10, and 54: one 16-bit track, where the router once let two nets share a node), their applications bit-exact or refused for a precise reason, one under Verilator" \
		bash scripts/property.sh --verilator 1 1-10 54
	suite "property test checks: dse random deterministic and legal, bad usage, corrupted golden images reported" \
		bash scripts/tests/property.sh
}

group_dse() {
	suite "dse: a two-point sweep on cgra_4x4 (CSV, determinism, resume, a failing point, bad sweeps, Slurm)" \
		bash dse/tests/dse.sh
	suite "area: Yosys's transistor count of cgra_4x4 per tile and part, cached by module" bash scripts/tests/area.sh
	suite "slurm-local: a one-node Slurm cluster up, jobs through srun, down" bash scripts/tests/slurm.sh
	suite "make app and make sim: real prerequisites, nothing redone (brighten_blur on cgra_4x4)" \
		bash scripts/tests/make.sh
	suite "faults: outputs that cannot be written, a full disk, failing renames, kills and signals; make redoes the step" \
		bash scripts/tests/faults.sh
}

group_fuzz() {
	suite "fuzz: each libFuzzer harness on its committed corpus and its regression inputs, then a few seconds of fuzzing" \
		bash fuzz/run.sh smoke
}

group_docs() {
	suite "docs examples: the marked examples of docs/*.md and dse/README.md run by the tools" bash docs/tests/examples.sh
}

# ---- running them ----
group_pass=0 group_fail=0 log=/dev/null

# say TEXT...: to the output and the group's log
say() { printf '%s\n' "$*" | tee -a "$log"; }

# suite NAME COMMAND...: runs a suite and adds its closing "N passed, M failed".
suite() {
	local name=$1
	shift
	say "== $name"
	local t0 out status line p f
	t0=$(date +%s)
	out=$("$@" 2>&1)
	status=$?
	say "$out"
	line=$(echo "$out" | grep -E '[0-9]+ passed, [0-9]+ failed' | tail -1)
	p=$(echo "$line" | sed -n 's/.*\b\([0-9][0-9]*\) passed, \([0-9][0-9]*\) failed.*/\1/p')
	f=$(echo "$line" | sed -n 's/.*\b\([0-9][0-9]*\) passed, \([0-9][0-9]*\) failed.*/\2/p')
	p=${p:-0} f=${f:-0}
	if [ "$status" -ne 0 ] && [ "$f" -eq 0 ]; then
		say "FAIL $name exited with status $status"
		f=1
	fi
	if [ "$p" -eq 0 ] && [ "$f" -eq 0 ]; then
		say "FAIL $name ran no test"
		f=1
	fi
	say "== $name: $p passed, $f failed ($(($(date +%s) - t0)) s)"
	group_pass=$((group_pass + p))
	group_fail=$((group_fail + f))
}

# run_group GROUP: its suites; the closing "GROUP: N passed, M failed (S s)",
# build/test/GROUP.log and .result; status 0 when nothing failed
run_group() {
	local g=$1 t0
	t0=$(date +%s)
	group_pass=0 group_fail=0 log=$results/$g.log
	rm -f "$results/$g.result"
	: >"$log"
	"group_$g"
	say "== group $g: $group_pass passed, $group_fail failed ($(($(date +%s) - t0)) s)"
	echo "$group_pass $group_fail $(($(date +%s) - t0)) $t0" >"$results/$g.result"
	log=/dev/null
	[ "$group_fail" -eq 0 ]
}

known() { declare -F "group_$1" >/dev/null; }

# summary [--since T] GROUP...: the table and the total
summary() {
	local since= g p f s total_p=0 total_f=0 total_s=0
	[ "${1:-}" = --since ] && { since=$2; shift 2; }
	echo
	printf '%-12s %8s %8s %8s%s\n' group passed failed seconds "${since:+  started at}"
	for g in "$@"; do
		local st=
		if read -r p f s st 2>/dev/null <"$results/$g.result"; then
			printf '%-12s %8d %8d %8d%s\n' "$g" "$p" "$f" "$s" \
				"$([ -n "$since" ] && [ -n "$st" ] && printf '  %6d s' $((st - since)))"
		else
			p=0 f=1 s=0
			printf '%-12s %8s %8d %8s   (did not run: see the errors above)\n' "$g" - 1 -
		fi
		total_p=$((total_p + p)) total_f=$((total_f + f)) total_s=$((total_s + s))
	done
	printf '%-12s %8d %8d %8d\n' all "$total_p" "$total_f" "$total_s"
	[ -z "$since" ] || echo "make test took $(($(date +%s) - since)) s (the groups' own times add up to $total_s s)"
	echo "total: $total_p passed, $total_f failed"
	[ "$total_f" -eq 0 ]
}

case "${1:-}" in
--list) printf '%s\n' "${GROUPS_LONGEST_FIRST[@]}"; exit 0 ;;
--summary) shift; summary "$@"; exit ;;
-h|--help) sed -n '2,22p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
esac
groups=("$@")
[ ${#groups[@]} -gt 0 ] || groups=("${GROUPS_LONGEST_FIRST[@]}")
for g in "${groups[@]}"; do
	known "$g" || { echo "run_tests: no group '$g' (groups: ${GROUPS_LONGEST_FIRST[*]})" >&2; exit 2; }
done
mkdir -p "$results"
status=0
for g in "${groups[@]}"; do
	run_group "$g" || status=1
done
if [ ${#groups[@]} -gt 1 ]; then
	summary "${groups[@]}"
fi
exit $status
