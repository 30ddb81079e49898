#!/usr/bin/env bash
# One point of a design-space sweep (make dse; dse/README.md), in the folder
# that bin/dse plan wrote (spec.yaml, the interconnect spec; point.env, its
# settings): regenerates the chip into DIR/rtl/ (the PE's files and the
# MEM's from build/dse/cache/, keyed by a hash of the spec, the IR and the
# generator, so a sweep that changes only the interconnect synthesizes no
# rule), measures its area (scripts/area.sh, when yosys is there), then
# compiles every application into DIR/apps/<app>/ and checks it at the
# buffer level against the golden image and at cycle level on the configured
# array (bin/cgrasim, the fast simulator). Writes DIR/result.txt last, in
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
-h|--help) sed -n '2,22p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
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
mkdir -p "$rtl" build/dse/cache

secs() { awk -v a="$1" -v b="$(date +%s%N)" 'BEGIN { printf "%.3f", (b - a) / 1e9 }'; }
# The first error of a log without its position; the router's report (the
# log's first line) appended where the error points to it.
reason() {
	local m
	m=$(grep -m1 'error' "$1" | sed 's/^[^ ]*: error: //; s/\t/ /g')
	case $m in
	*"report is above"*) m="$m: $(head -n 1 "$1" | tr '\t' ' ')" ;;
	esac
	printf '%s\n' "$m"
}

# Runs a generator into the cache folder named by the hash of its inputs,
# unless it is there; copies its files into the point's rtl/.
#   cached TOOL SPEC INPUT...
cached() {
	local tool=$1 spec=$2
	shift 2
	local key
	key=$(cat "$spec" "$@" "bin/$tool" | sha256sum | cut -c1-20)
	local c=build/dse/cache/$tool-$key
	if [ ! -f "$c/ok" ]; then
		local t
		t=$(mktemp -d build/dse/cache/tmp.XXXXXX)
		local args=("$spec" -o "$t")
		[ "$tool" = peak ] && args+=($(printf -- '--ir %s ' peak/ir/*.yaml) -q)
		if ! "bin/$tool" "${args[@]}" >"$t/log" 2>&1; then
			cp "$t/log" "$dir/generate.log"
			rm -rf "$t"
			return 1
		fi
		touch "$t/ok"
		mv -T "$t" "$c" 2>/dev/null || rm -rf "$t"
	fi
	find "$c" -maxdepth 1 -type f ! -name ok ! -name log -exec cp {} "$rtl/" \;
}

generate() {
	local cores
	mapfile -t cores < <(bin/canal cores "$dir/spec.yaml" 2>"$dir/generate.log") &&
		[ ${#cores[@]} -ge 1 ] &&
		cached peak "${cores[0]}" peak/ir/*.yaml &&
		{ [ ${#cores[@]} -lt 2 ] || cached lake "${cores[1]}"; } &&
		bin/canal "$dir/spec.yaml" -o "$rtl" -q 2>"$dir/generate.log"
}

# The fast simulator's figures of a bit-exact run, from its summary line
# (cgrasim/README.md: "sim APP on DESIGN: P pixels bit-exact, C cycles in
# ...; U of T PEs used (X%), busy B% of their cycles; ..."), as the fields
# that follow a bit-exact row's seconds; nothing, and a warning, if the
# line is not there or not in that form.
#   sim_figures APP FAST_OUT
sim_figures() {
	local re="^sim $1 on .*: [0-9]+ pixels bit-exact, ([0-9]+) cycles in .*; ([0-9]+) of ([0-9]+) PEs used \\([0-9]+%\\), busy ([0-9]+)% of their cycles(;|\$)"
	local line
	line=$(grep -m1 "^sim $1 on " "$2")
	if [[ $line =~ $re ]]; then
		printf '\tcycles=%s\tpe_used=%s/%s\tpe_busy=%s' "${BASH_REMATCH[1]}" "${BASH_REMATCH[2]}" \
			"${BASH_REMATCH[3]}" "${BASH_REMATCH[4]}"
	else
		echo "dse_point.sh: warning: $1: no cycles or PE utilization in the fast simulator's summary ($2)" >&2
	fi
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
	c0=$(date +%s%N)
	if ! bin/cgrac "$hl" -q --design "$rtl" -o "$out" ${CGRAC_OPTS[@]+"${CGRAC_OPTS[@]}"} 2>"$out/compile.log"; then
		printf 'app\t%s\tnot-mapped\t%s\t%s\n' "$app" "$(secs "$c0")" "$(reason "$out/compile.log")" >>"$res"
		bad=$((bad + 1))
		continue
	fi
	ct=$(secs "$c0")
	# the inputs and golden image (cgrac --golden), then the buffers' output
	rm -f "$out"/golden.*
	if bin/cgrac "$hl" -q --golden "$out" 2>"$out/check.log" && g=$(echo "$out"/golden.*) && ext=${g##*.} &&
		bin/cgrac "$hl" -q --design "$rtl" ${CGRAC_OPTS[@]+"${CGRAC_OPTS[@]}"} --sim-buffers "$out" \
			-o "$out/buffers.$ext" 2>>"$out/check.log" &&
		cmp -s "$out/golden.$ext" "$out/buffers.$ext"; then
		# then at cycle level, on the configured array (the fast simulator)
		mkdir -p "$out/fast"
		if bin/cgrasim "$out/$app.io.yaml" --design "$rtl" -o "$out/fast" -q >"$out/fast.out" 2>&1; then
			printf 'app\t%s\tbit-exact\t%s%s\n' "$app" "$ct" "$(sim_figures "$app" "$out/fast.out")" >>"$res"
			ok=$((ok + 1))
		else
			printf 'app\t%s\tdifferent\t%s\tthe fast simulator: %s\n' "$app" "$ct" \
				"$(grep -m1 -e 'error' -e 'FAILED' "$out/fast.out" | tr '\t' ' ')" >>"$res"
			bad=$((bad + 1))
		fi
	else
		why=$(reason "$out/check.log")
		printf 'app\t%s\tdifferent\t%s\t%s\n' "$app" "$ct" "${why:-the buffer-level output differs from the golden image}" >>"$res"
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
