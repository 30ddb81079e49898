#!/usr/bin/env bash
# Regenerates a whole chip from its three specs: the interconnect spec
# (canal/specs/DESIGN.yaml, or any SPEC.yaml) names the PE and MEM specs; peak
# and lake write their collateral, then canal builds the array on it, into
# rtl_out/DESIGN/ (or -o OUT). The one chip step of the flow: make, the
# design-space sweep's points and the property test's random chips all run it.
#   usage: scripts/rtl.sh DESIGN|SPEC.yaml [-o OUT] [--cache DIR] [-q]
#          scripts/rtl.sh --core peak|lake SPEC [--cache DIR] [-q]
# peak's and lake's files are cached in DIR (default build/cache/), each set
# in a folder named by a hash of the core's spec, the IR (for peak) and the
# generator's binary, so that designs on one PE synthesize its rules once and
# a change of any of those makes them again; a lock per set lets one run make
# it while another waits for it (make -j). -q: the tools quiet. --core
# prints the cache folder of one core's files, made first when missing (the
# PE's rules made by another run than the caller's, for its determinism test).
# The three tools' files are gathered in a fresh folder beside OUT
# (.NAME.tmpPID, removed on failure or on SIGINT, SIGTERM, SIGHUP); only when
# all succeeded are the files renamed into OUT, OUT/design.yaml (the file make
# takes for the chip) removed first and renamed last. So OUT/design.yaml
# stands only beside a complete chip of the same run, and a run that fails or
# is killed leaves either the old chip whole or no design.yaml, and make
# redoes it. A generator that rejects its spec: its messages, then
# "rtl: error: bin/TOOL rejects SPEC", exit status 1.
set -euo pipefail
cd "$(dirname "$0")/.."
usage() {
	echo "usage: scripts/rtl.sh DESIGN|SPEC.yaml [-o OUT] [--cache DIR] [-q]" >&2
	echo "       scripts/rtl.sh --core peak|lake SPEC [--cache DIR] [-q]" >&2
	exit 2
}
design=${1:-} out= cache=build/cache quiet=() only=
[ -n "$design" ] || usage
shift
if [ "$design" = --core ]; then
	[ $# -ge 2 ] && [[ $1 =~ ^(peak|lake)$ ]] || usage
	only=$1 design=$2
	shift 2
fi
while [ $# -gt 0 ]; do
	case $1 in
	-o) [ $# -ge 2 ] || { echo "rtl: -o expects a folder" >&2; exit 2; }; out=$2; shift 2 ;;
	--cache) [ $# -ge 2 ] || { echo "rtl: --cache expects a folder" >&2; exit 2; }; cache=$2; shift 2 ;;
	-q) quiet=(-q); shift ;;
	*) echo "rtl: unknown argument '$1'" >&2; usage ;;
	esac
done
# core_entry TOOL SPEC [IR...]: the cache folder of TOOL's files for SPEC, made
# there first when missing (under the folder's lock); its path in $entry.
core_entry() {
	local tool=$1 cspec=$2
	shift 2
	local ir args=()
	# the spec's name too: the generators write it into their files
	entry=$cache/$tool-$({ basename "$cspec"; cat "$cspec" "$@" "bin/$tool"; } | sha256sum | cut -c1-20)
	for ir in "$@"; do args+=(--ir "$ir"); done
	mkdir -p "$cache"
	(
		flock 9
		[ -f "$entry/ok" ] && exit 0
		t=$(mktemp -d "$cache/tmp.XXXXXX")
		trap 'rm -rf "$t"' EXIT
		trap 'exit 130' INT
		trap 'exit 143' TERM
		trap 'exit 129' HUP
		if ! "bin/$tool" "$cspec" -o "$t" "${args[@]}" "${quiet[@]}" >&2; then
			echo "rtl: error: bin/$tool rejects $cspec" >&2
			exit 1
		fi
		touch "$t/ok"
		mv -T "$t" "$entry"
	) 9>"$entry.lock"
}
if [ -n "$only" ]; then
	[ -f "$design" ] || { echo "rtl: error: no spec $design" >&2; exit 1; }
	if [ "$only" = peak ]; then core_entry peak "$design" peak/ir/*.yaml; else core_entry lake "$design"; fi
	echo "$entry"
	exit
fi

case $design in
*.yaml) spec=$design design=$(basename "$design" .yaml)
	[ -f "$spec" ] || { echo "rtl: error: no interconnect spec $spec" >&2; exit 1; } ;;
*) spec=canal/specs/$design.yaml
   [ -f "$spec" ] || { echo "rtl: error: no interconnect spec $spec (designs: $(ls canal/specs | sed 's/\.yaml//' | tr '\n' ' '))" >&2; exit 1; } ;;
esac
out=${out:-rtl_out/$design}
out=${out%/}
t0=$(date +%s.%N)
mapfile -t cores < <(bin/canal cores "$spec")
[ ${#cores[@]} -ge 1 ] || { echo "rtl: error: bin/canal rejects $spec: it names no cores" >&2; exit 1; }

mkdir -p "$(dirname "$out")"
stage=$(dirname "$out")/.$(basename "$out").tmp$$
cleanup() { rm -rf "$stage"; }
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
trap 'exit 129' HUP
rm -rf "$stage"
mkdir "$stage"

# core TOOL SPEC [IR...]: TOOL's files for SPEC into the stage, from the cache.
core() {
	core_entry "$@"
	[ ${#quiet[@]} -gt 0 ] || echo "rtl: $1's files for $(basename "$2") from $entry"
	local f
	for f in "$entry"/*; do
		[ "${f##*/}" = ok ] || cp "$f" "$stage/" || { echo "rtl: error: cannot copy $f into $stage" >&2; return 1; }
	done
}
core peak "${cores[0]}" peak/ir/*.yaml
[ ${#cores[@]} -lt 2 ] || core lake "${cores[1]}"
bin/canal "$spec" -o "$stage" "${quiet[@]}" || { echo "rtl: error: bin/canal rejects $spec" >&2; exit 1; }
[ -f "$stage/design.yaml" ] || { echo "rtl: error: canal wrote no design.yaml" >&2; exit 1; }

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
[ ${#quiet[@]} -gt 0 ] || awk -v a="$t0" -v b="$(date +%s.%N)" -v d="$design" -v o="$out" \
	'BEGIN { printf "rtl: %s regenerated in %.2f s -> %s\n", d, b - a, o }'
