#!/usr/bin/env bash
# Regenerates a whole chip from its three specs: the interconnect spec
# canal/specs/DESIGN.yaml names the PE and MEM specs; peak and lake write their
# collateral into rtl_out/DESIGN/, then canal builds the array on it.
#   usage: scripts/rtl.sh DESIGN
set -eu
cd "$(dirname "$0")/.."
design=$1
spec=canal/specs/$design.yaml
out=rtl_out/$design
[ -f "$spec" ] || { echo "rtl: no interconnect spec $spec (designs: $(ls canal/specs | sed 's/\.yaml//' | tr '\n' ' '))" >&2; exit 1; }
t0=$(date +%s.%N)
mapfile -t cores < <(bin/canal cores "$spec")
bin/peak "${cores[0]}" -o "$out" $(printf -- '--ir %s ' peak/ir/*.yaml)
[ ${#cores[@]} -lt 2 ] || bin/lake "${cores[1]}" -o "$out"
bin/canal "$spec" -o "$out"
awk -v a="$t0" -v b="$(date +%s.%N)" -v d="$design" 'BEGIN { printf "rtl: %s regenerated in %.2f s\n", d, b - a }'
