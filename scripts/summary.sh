#!/usr/bin/env bash
# Prints what `make` generated: one line per PE in rtl_out/<design>/.
#   usage: scripts/summary.sh DIR
set -u
dir=$1
echo
echo "Generated in $dir:"
printf '  %-10s %12s %14s %7s %12s\n' PE instruction "Verilog lines" rules unsupported
for info in "$dir"/*.info.yaml; do
	[ -e "$info" ] || { echo "  (nothing yet: run make)"; exit 1; }
	pe=$(basename "$info" .info.yaml)
	width=$(sed -n '/^instruction:/,/^[a-z]/s/^  width: \([0-9]*\)/\1/p' "$info")
	lines=$(wc -l <"$dir/$pe.v")
	rules=$(grep -c '^  - ir:' "$dir/$pe.rules.yaml" 2>/dev/null)
	unsup=$(sed -n '/^unsupported:/,$p' "$dir/$pe.rules.yaml" 2>/dev/null | grep -c '{ ir:')
	printf '  %-10s %9s bit %14s %7s %12s\n' "$pe" "$width" "$lines" "${rules:-0}" "${unsup:-0}"
done
echo "Next: make test (every test), make bench (figures)."
