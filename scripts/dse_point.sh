#!/usr/bin/env bash
# One point of a design-space sweep (make dse; dse/README.md), in the folder
# that bin/dse plan wrote (spec.yaml, the interconnect spec; point.env, its
# settings): regenerates the chip into DIR/rtl/ with scripts/rtl.sh (the
# PE's files and the MEM's from build/cache/, keyed by a hash of the spec, the
# IR and the generator, so a sweep that changes only the interconnect
# synthesizes no rule), measures its area (scripts/area.sh, when yosys is there), then
# compiles and checks every application into DIR/apps/<app>/ with cgrac
# --verify --simulate (the lowered kernels and the buffers against the golden
# image, then the run on the configured array by the fast simulator, its
# table line in app.txt). Writes DIR/result.txt last, in
# one rename, so an interrupted point is redone and a finished one is not:
#   generate ok|failed SECONDS [MESSAGE]
#   area ok|failed|skipped [MESSAGE]
#   app NAME bit-exact COMPILE_SECONDS cycles=N pe_used=USED/TOTAL pe_busy=PERCENT
#   app NAME different|not-mapped|not-run COMPILE_SECONDS [MESSAGE]
# (tab-separated; a bit-exact row's figures are the fast simulator's: the
# cycles of its run, the PEs used of the array's, the percentage of their
# cycles in which an output changed). A chip or application that fails is
# a line with its reason, not a failed job: the exit status is non-zero
# only when the point could not be run at all. Prints one line: point K of
# N: LABEL: ...
#   usage: scripts/dse_point.sh DIR
set -u
main() {
cd "$(dirname "$0")/.."
case "${1:-}" in
-h|--help) awk 'NR > 1 && !/^#/ { exit } NR > 1' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
esac
[ $# -eq 1 ] && [ -f "$1/point.env" ] && [ -f "$1/spec.yaml" ] ||
	{ echo "usage: scripts/dse_point.sh DIR (a point folder written by bin/dse plan)" >&2; exit 2; }
dir=$1
INDEX= COUNT= LABEL= APPS=
CGRAC_OPTS=()   # an array: each option one word, never split or globbed
. "$dir/point.env"
t0=$(date +%s%N)
res=$dir/result.txt.tmp
: >"$res"
rtl=$dir/rtl
rm -rf "$rtl" "$dir/apps" "$dir/area.yaml"

secs() { awk -v a="$1" -v b="$(date +%s%N)" 'BEGIN { printf "%.3f", (b - a) / 1e9 }'; }
# The first error of a log (the chip step's) without its position.
reason() {
	grep -m1 'error' "$1" | sed 's/^[^ ]*: error: //; s/\t/ /g'
}

# The point's chip (scripts/rtl.sh: peak's and lake's files from build/cache/).
generate() {
	bash scripts/rtl.sh "$dir/spec.yaml" -o "$rtl" -q >"$dir/generate.log" 2>&1
}

# The result row of an application from the table line cgrac --verify
# wrote (app.txt: seven figures, the verdict, and a bit-exact run's
# cycles=N, pe_used=U/T and pe_busy=P, the row's own fields).
#   row APP OUT
row() {
	local pes ms verdict figures
	IFS=$'\t' read -r pes _ _ _ _ _ ms verdict figures <"$2/app.txt" || return 1
	local secs
	secs=$(awk -v ms="$ms" 'BEGIN { printf "%.3f", (ms ~ /^[0-9]+$/ ? ms : 0) / 1000 }')
	case $pes/$verdict in
	-/"NOT MAPPED: "*) printf 'app\t%s\tnot-mapped\t%s\t%s\n' "$1" "$secs" "${verdict#NOT MAPPED: }" ;;
	-/*) printf 'app\t%s\tdifferent\t%s\t%s\n' "$1" "$secs" "${verdict#FAILED before the back end: }" ;;
	*/bit-exact) printf 'app\t%s\tbit-exact\t%s%s\n' "$1" "$secs" "${figures:+$'\t'$figures}" ;;
	*/DIFFERENT) printf 'app\t%s\tdifferent\t%s\t%s\n' "$1" "$secs" \
		"the lowered kernels' or the buffer-level output differs from the golden image" ;;
	*/"CHECK FAILED: "*) printf 'app\t%s\tdifferent\t%s\t%s\n' "$1" "$secs" "${verdict#CHECK FAILED: }" ;;
	*) printf 'app\t%s\tdifferent\t%s\tthe fast simulator: %s\n' "$1" "$secs" "${verdict#SIM FAILED: }" ;;
	esac
}

g0=$(date +%s%N)
if generate; then
	printf 'generate\tok\t%s\n' "$(secs "$g0")" >>"$res"
	gen=1
else
	why=$(reason "$dir/generate.log")
	printf 'generate\tfailed\t%s\t%s\n' "$(secs "$g0")" "$why" >>"$res"
	gen=0
fi

# The area, measured while the applications compile: its line goes into
# the result at the end.
area() {
	if [ $gen = 0 ]; then
		printf 'area\tskipped\tno chip\n'
	elif [ ! -f scripts/area.sh ] || ! command -v yosys >/dev/null; then
		printf 'area\tskipped\tyosys is not installed (make deps)\n'
	elif bash scripts/area.sh "$rtl" -o "$dir/area.yaml" 2>"$dir/area.log"; then
		printf 'area\tok\n'
	else
		printf 'area\tfailed\t%s\n' "$(grep -v '^ *$' "$dir/area.log" | tail -n 1 | tr '\t' ' ')"
	fi
}
area >"$dir/area.txt" &
area_pid=$!

ok=0 bad=0
for app in $APPS; do
	hl=apps/$app/$app.hl
	out=$dir/apps/$app
	if [ $gen = 0 ]; then
		printf 'app\t%s\tnot-run\t0\tthe chip was not generated: %s\n' "$app" "${why:-see generate.log}" >>"$res"
		bad=$((bad + 1))
		continue
	fi
	mkdir -p "$out"
	# every check, then the run on the configured array (the fast simulator)
	bin/cgrac "$hl" -q --design "$rtl" -o "$out" --verify --simulate ${CGRAC_OPTS[@]+"${CGRAC_OPTS[@]}"} \
		>"$out/compile.log" 2>&1
	if [ -f "$out/app.txt" ] && row "$app" "$out" >>"$res"; then
		case $(tail -n 1 "$res") in *$'\t'bit-exact$'\t'*) ok=$((ok + 1)) ;; *) bad=$((bad + 1)) ;; esac
	else
		printf 'app\t%s\tdifferent\t0\tcgrac wrote no table line (see %s)\n' "$app" "$out/compile.log" >>"$res"
		bad=$((bad + 1))
	fi
done
wait $area_pid
cat "$dir/area.txt" >>"$res"
rm -f "$dir/area.txt"
mv "$res" "$dir/result.txt"
echo "point $INDEX of $COUNT: $LABEL: $ok bit-exact, $bad failed, $(awk -v a="$t0" -v b="$(date +%s%N)" \
	'BEGIN { printf "%.1f", (b - a) / 1e9 }') s"
}
main "$@"
exit
