#!/usr/bin/env bash
# Prints what `make` generated: one line per PE and per memory tile in
# rtl_out/<design>/, and the array's size.
#   usage: scripts/summary.sh DIR
set -u
dir=$1
echo
echo "Generated in $dir:"
found=0
printf '  %-10s %12s %14s %7s %12s\n' PE instruction "Verilog lines" rules unsupported
for info in "$dir"/*.info.yaml; do
	[ -e "$info" ] || break
	grep -q '^pe:' "$info" || continue
	found=1
	pe=$(basename "$info" .info.yaml)
	width=$(sed -n '/^instruction:/,/^[a-z]/s/^  width: \([0-9]*\)/\1/p' "$info")
	lines=$(wc -l <"$dir/$pe.v")
	rules=$(grep -c '^  - ir:' "$dir/$pe.rules.yaml" 2>/dev/null)
	unsup=$(sed -n '/^unsupported:/,$p' "$dir/$pe.rules.yaml" 2>/dev/null | grep -c '{ ir:')
	printf '  %-10s %9s bit %14s %7s %12s\n' "$pe" "$width" "$lines" "${rules:-0}" "${unsup:-0}"
done
printf '  %-10s %12s %14s %11s %12s\n' MEM capacity "Verilog lines" controllers "config bits"
for info in "$dir"/*.info.yaml; do
	[ -e "$info" ] || break
	grep -q '^mem:' "$info" || continue
	found=1
	mem=$(basename "$info" .info.yaml)
	cap=$(sed -n 's/^capacity: //p' "$info")
	bits=$(sed -n 's/^config_bits: //p' "$info")
	ctrls=$(sed -n '/^controllers:/,/^registers:/p' "$info" | grep -c '^  - name: ')
	lines=$(wc -l <"$dir/$mem.v")
	printf '  %-10s %7s words %14s %11s %12s\n' "$mem" "$cap" "$lines" "$ctrls" "$bits"
done
if [ -f "$dir/design.yaml" ]; then
	nodes=$(grep -c '^node ' "$dir/routing.graph")
	edges=$(grep -c '^edge ' "$dir/routing.graph")
	fields=$(grep -c '^field ' "$dir/config.map")
	printf '  array: %s, %s routing nodes, %s edges, %s configuration fields\n' \
		"$(sed -n 's/^array: { cols: \([0-9]*\), rows: \([0-9]*\) }/\1 x \2 tiles + an IO row/p' "$dir/design.yaml")" \
		"$nodes" "$edges" "$fields"
fi
[ "$found" -eq 1 ] || { echo "  (nothing yet: run make)"; exit 1; }
echo "Next: make test (every test), make bench (figures)."
