#!/usr/bin/env bash
# The performance figures of the PEak generator (BENCHMARKS.md):
#  - rewrite-rule synthesis time per rule and in total, for every PE spec;
#  - generation time of Verilog and info alone;
#  - Verilator bench throughput (vectors per second) and build time.
set -u
cd "$(dirname "$0")/.."
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
echo "== rule synthesis ($(nproc) cores)"
for spec in peak/specs/*.yaml; do
	pe=$(basename "$spec" .yaml)
	t0=$(date +%s.%N)
	bin/peak "$spec" -o "$tmp/$pe" --ir peak/ir/ops.yaml 2>"$tmp/$pe.log" >"$tmp/$pe.out"
	t1=$(date +%s.%N)
	sed -n 's/.*rule [0-9]* of [0-9]*: *\([a-z0-9_]*\) *\([a-z]*\) ([0-9]* rounds*, \([0-9.]*\) s)/\1 \2 \3/p' "$tmp/$pe.log" |
		awk -v pe="$pe" -v a="$t0" -v b="$t1" '
			{ n++; s += $3; if ($3 > max) { max = $3; slow = $1 } if ($2 == "proved") p++ }
			END { printf "  %-8s %d IR operations, %d rules: wall %.2f s; solver time per operation %.3f s on average, slowest %s %.2f s\n", pe, n, p, b - a, s / n, slow, max }'
	if [ "$pe" = pe_base ]; then
		echo "  per rule for pe_base (seconds, solver time):"
		sed -n 's/.*rule [0-9]* of [0-9]*: *\([a-z0-9_]*\) *\([a-z]*\) (\([0-9]*\) rounds*, \([0-9.]*\) s)/\1 \2 \4/p' "$tmp/$pe.log" |
			sort | awk '{ printf "    %-12s %-11s %s\n", $1, $2, $3 }' | column -c 120
	fi
done
echo "== generation without rules (Verilog + info)"
for spec in peak/specs/*.yaml; do
	pe=$(basename "$spec" .yaml)
	t0=$(date +%s.%N)
	bin/peak "$spec" -o "$tmp/norules" --no-rules -q >/dev/null
	t1=$(date +%s.%N)
	awk -v pe="$pe" -v a="$t0" -v b="$t1" 'BEGIN { printf "  %-8s %.3f s\n", pe, b - a }'
done
echo "== Verilator benches (30000 sequences of 4 cycles per PE)"
bash peak/tests/verilator_bench.sh --count 30000 --cycles 4 peak/specs/pe_base.yaml peak/specs/tiny.yaml | grep -E 'vectors/s|bench:'
