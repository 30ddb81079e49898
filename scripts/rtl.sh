#!/usr/bin/env bash
# Regenerates a whole chip from its three specs: the interconnect spec
# canal/specs/DESIGN.yaml names the PE and MEM specs; peak and lake write their
# collateral, then canal builds the array on it, into rtl_out/DESIGN/.
#   usage: scripts/rtl.sh DESIGN [--pe DIR] [-o OUT]
# --pe DIR takes the PE's files (<pe>.v, <pe>.nf, <pe>.info.yaml,
# <pe>.rules.yaml) from DIR, where bin/peak wrote them from the same spec and
# IR (the Makefile's build/pe/, made once for every design on that PE),
# instead of running bin/peak again; without them all there (a DIR written by
# an older peak has no <pe>.nf), bin/peak runs. -o OUT writes into OUT
# instead of rtl_out/DESIGN/.
# The three tools write into a fresh folder beside OUT (.NAME.tmpPID, removed
# on failure or on SIGINT, SIGTERM, SIGHUP); only when all succeeded are the
# files renamed into OUT, OUT/design.yaml (the file make takes for the chip)
# removed first and renamed last. So OUT/design.yaml stands only beside a
# complete chip of the same run, and a run that fails or is killed leaves
# either the old chip whole or no design.yaml, and make redoes it.
set -eu
cd "$(dirname "$0")/.."
design=${1:-} pe_dir= out=
[ -n "$design" ] || { echo "usage: scripts/rtl.sh DESIGN [--pe DIR] [-o OUT]" >&2; exit 2; }
shift
while [ $# -gt 0 ]; do
	case $1 in
	--pe) [ $# -ge 2 ] || { echo "rtl: --pe expects a folder" >&2; exit 2; }; pe_dir=$2; shift 2 ;;
	-o) [ $# -ge 2 ] || { echo "rtl: -o expects a folder" >&2; exit 2; }; out=$2; shift 2 ;;
	*) echo "rtl: unknown argument '$1' (usage: scripts/rtl.sh DESIGN [--pe DIR] [-o OUT])" >&2; exit 2 ;;
	esac
done
spec=canal/specs/$design.yaml
out=${out:-rtl_out/$design}
out=${out%/}
[ -f "$spec" ] || { echo "rtl: no interconnect spec $spec (designs: $(ls canal/specs | sed 's/\.yaml//' | tr '\n' ' '))" >&2; exit 1; }
t0=$(date +%s.%N)
mapfile -t cores < <(bin/canal cores "$spec")
[ ${#cores[@]} -ge 1 ] || { echo "rtl: $spec names no cores" >&2; exit 1; }
pe=$(sed -n 's/^pe: *\([A-Za-z0-9_]*\).*/\1/p' "${cores[0]}" | head -1)

mkdir -p "$(dirname "$out")"
stage=$(dirname "$out")/.$(basename "$out").tmp$$
cleanup() { rm -rf "$stage"; }
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
trap 'exit 129' HUP
rm -rf "$stage"
mkdir "$stage"
if [ -n "$pe_dir" ] && [ -n "$pe" ] && [ -f "$pe_dir/$pe.rules.yaml" ] && [ -f "$pe_dir/$pe.nf" ]; then
	cp "$pe_dir/$pe.v" "$pe_dir/$pe.nf" "$pe_dir/$pe.info.yaml" "$pe_dir/$pe.rules.yaml" "$stage/"
	echo "rtl: $pe from $pe_dir"
else
	bin/peak "${cores[0]}" -o "$stage" $(printf -- '--ir %s ' peak/ir/*.yaml)
fi
[ ${#cores[@]} -lt 2 ] || bin/lake "${cores[1]}" -o "$stage"
bin/canal "$spec" -o "$stage"
[ -f "$stage/design.yaml" ] || { echo "rtl: canal wrote no design.yaml" >&2; exit 1; }

# into place: the marker out first, the other files, the marker last
mkdir -p "$out"
rm -f "$out/design.yaml"
placed() {
	for f in "$stage"/*; do
		[ "${f##*/}" = design.yaml ] || mv -fT "$f" "$out/${f##*/}" || return 1
	done
	mv -fT "$stage/design.yaml" "$out/design.yaml"
}
placed || { echo "rtl: error: $out: the new files could not be put in place; it has no design.yaml now" >&2; exit 1; }
awk -v a="$t0" -v b="$(date +%s.%N)" -v d="$design" -v o="$out" \
	'BEGIN { printf "rtl: %s regenerated in %.2f s -> %s\n", d, b - a, o }'
