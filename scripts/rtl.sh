#!/usr/bin/env bash
# Regenerates a whole chip from its three specs: the interconnect spec
# canal/specs/DESIGN.yaml names the PE and MEM specs; peak and lake write their
# collateral into rtl_out/DESIGN/, then canal builds the array on it.
#   usage: scripts/rtl.sh DESIGN [--pe DIR]
# --pe DIR takes the PE's files (<pe>.v, <pe>.info.yaml, <pe>.rules.yaml) from
# DIR, where bin/peak wrote them from the same spec and IR (the Makefile's
# build/pe/, made once for every design on that PE), instead of running
# bin/peak again; without them there, bin/peak runs.
set -eu
cd "$(dirname "$0")/.."
design=$1 pe_dir=
[ "${2:-}" != --pe ] || pe_dir=$3
spec=canal/specs/$design.yaml
out=rtl_out/$design
[ -f "$spec" ] || { echo "rtl: no interconnect spec $spec (designs: $(ls canal/specs | sed 's/\.yaml//' | tr '\n' ' '))" >&2; exit 1; }
t0=$(date +%s.%N)
mapfile -t cores < <(bin/canal cores "$spec")
pe=$(sed -n 's/^pe: *\([A-Za-z0-9_]*\).*/\1/p' "${cores[0]}" | head -1)
if [ -n "$pe_dir" ] && [ -n "$pe" ] && [ -f "$pe_dir/$pe.rules.yaml" ]; then
	mkdir -p "$out"
	cp "$pe_dir/$pe.v" "$pe_dir/$pe.info.yaml" "$pe_dir/$pe.rules.yaml" "$out/"
	echo "rtl: $pe from $pe_dir"
else
	bin/peak "${cores[0]}" -o "$out" $(printf -- '--ir %s ' peak/ir/*.yaml)
fi
[ ${#cores[@]} -lt 2 ] || bin/lake "${cores[1]}" -o "$out"
bin/canal "$spec" -o "$out"
awk -v a="$t0" -v b="$(date +%s.%N)" -v d="$design" 'BEGIN { printf "rtl: %s regenerated in %.2f s\n", d, b - a }'
