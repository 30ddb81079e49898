#!/usr/bin/env bash
# Compiles applications for a design into build/<design>/<app>/ (make app):
# the input images (<app>.<image>.pgm/.ppm/.raw, one per ImageParam) and the
# streams the host computes (<app>.<func>.*: cgrac --golden), the golden output of the reference
# interpreter (golden.*), the lowered kernels on hardware words (lowered.*)
# and the buffer-level simulation (buffers.*), both checked against the
# golden image, then the whole flow: <app>.bs, .io.yaml, .report.yaml, .svg
# and the intermediate files (compile.log). Each application's table line is
# kept in app.txt; prints the table. Exit status 1 if any step failed.
#   usage: scripts/app.sh DESIGN APP...
#          scripts/app.sh --table [--sim] DESIGN APP...
# --table prints the table from the app.txt files alone, compiling nothing;
# with --sim its last columns are the simulations' results instead of the
# golden-image checks: the fast simulator's (fast.ok beside a bit-exact
# output, fast.out its log) and Verilator's (sim.ok, sim.out). `make` prints
# the suite's table this way.
set -u
cd "$(dirname "$0")/.."
table=0 sim=0
[ "${1:-}" = --table ] && { table=1; shift; }
[ "${1:-}" = --sim ] && { sim=1; shift; }
[ $# -ge 2 ] || { echo "usage: scripts/app.sh [--table [--sim]] DESIGN APP..." >&2; exit 2; }
design=$1
shift
dir=rtl_out/$design
status=0

header() {
	if [ "$sim" = 1 ]; then
		printf '%-14s %5s %5s %5s %6s %8s %8s %10s %10s %10s  %s\n' app PEs MEMs regs tracks MHz latency \
			"compile ms" fast Verilator "build/$design/<app>/"
	else
		printf '%-14s %5s %5s %5s %6s %8s %8s %10s %10s  %s\n' app PEs MEMs regs tracks MHz latency "compile ms" \
			golden "build/$design/<app>/"
	fi
}

# sim_result OUT OK LOG: the result of a simulation from its marker and log.
sim_result() {
	if [ -f "$1/$2" ] && [ "$1/$2" -nt "$1/app.txt" ]; then
		echo bit-exact
	elif [ -f "$1/$3" ] && [ "$1/$3" -nt "$1/app.txt" ]; then
		echo DIFFERENT
	else
		echo "not run"
	fi
}

# golden_ext DIR: the extension of DIR/golden.* (cgrac --golden chose it).
golden_ext() {
	local g
	g=$(ls "$1"/golden.* 2>/dev/null | head -1)
	[ -n "$g" ] && echo "${g##*.}"
}

# The table line of an application from its app.txt (and sim.ok); 1 if it
# failed or has not run.
line() {
	local app=$1 out=build/$design/$1 pes mems regs tracks mhz lat ms check
	if [ ! -f "$out/app.txt" ]; then
		printf '%-14s %s\n' "$app" "not compiled (make app APP=$app DESIGN=$design)"
		return 1
	fi
	IFS=$'\t' read -r pes mems regs tracks mhz lat ms check <"$out/app.txt"
	if [ "$pes" = - ]; then
		printf '%-14s %s\n' "$app" "$check"
		return 1
	fi
	if [ "$sim" = 1 ]; then
		local fast verilator
		fast=$(sim_result "$out" fast.ok fast.out)
		verilator=$(sim_result "$out" sim.ok sim.out)
		printf '%-14s %5s %5s %5s %6s %8.0f %8s %10s %10s %10s  %s\n' "$app" "$pes" "$mems" "$regs" "$tracks" \
			"$mhz" "$lat" "$ms" "$fast" "$verilator" "$out"
		# a simulation that ran must be bit-exact, and one of them must have run
		[ "$fast" != DIFFERENT ] && [ "$verilator" != DIFFERENT ] &&
			{ [ "$fast" = bit-exact ] || [ "$verilator" = bit-exact ]; }
		return
	fi
	printf '%-14s %5s %5s %5s %6s %8.0f %8s %10s %10s  %s\n' "$app" "$pes" "$mems" "$regs" "$tracks" "$mhz" \
		"$lat" "$ms" "$check" "$out"
	[ "$check" = same ] || [ "$check" = bit-exact ]
}

if [ $table = 1 ]; then
	header
	for app in "$@"; do
		line "$app" || status=1
	done
	exit $status
fi

[ -f "$dir/design.yaml" ] || bash scripts/rtl.sh "$design" >/dev/null || exit 1
# put_app_txt OUT: stdin into OUT/app.txt, the file make waits for, whole or
# not at all (a full disk leaves no empty app.txt that make would take as done)
put_app_txt() {
	cat >"$1/app.txt.tmp" && mv -f "$1/app.txt.tmp" "$1/app.txt" && return 0
	rm -f "$1/app.txt.tmp"
	echo "app: error: $1/app.txt: cannot write" >&2
	return 1
}
header
for app in "$@"; do
	hl=apps/$app/$app.hl
	[ -f "$hl" ] || [ ! -f "apps/large/$app/$app.hl" ] || hl=apps/large/$app/$app.hl   # the large frames
	out=build/$design/$app
	[ -f "$hl" ] || { echo "app: no application $hl" >&2; status=1; continue; }
	mkdir -p "$out"
	rm -f "$out/app.txt" "$out/sim.ok" "$out"/golden.*
	# the inputs (<app>.<image>.<ext>), the host's streams and golden.<ext>; then
	# the same through the lowered kernels and through the buffers
	if ! bin/cgrac "$hl" -q --golden "$out" ||
		! ext=$(golden_ext "$out") ||
		! bin/cgrac "$hl" -q --design "$dir" -o "$out" --emit lowered >/dev/null ||
		! bin/cgrac "$hl" -q --design "$dir" --run-lowered "$out" -o "$out/lowered.$ext" ||
		! bin/cgrac "$hl" -q --design "$dir" --sim-buffers "$out" -o "$out/buffers.$ext"; then
		printf -- '-\t-\t-\t-\t-\t-\t-\t%s\n' "FAILED before the back end (see the messages above)" | put_app_txt "$out"
		line "$app"
		status=1
		continue
	fi
	same=same
	cmp -s "$out/golden.$ext" "$out/lowered.$ext" || same=DIFFERENT
	cmp -s "$out/golden.$ext" "$out/buffers.$ext" || same=DIFFERENT
	t0=$(date +%s%N)
	if ! bin/cgrac "$hl" --design "$dir" -o "$out" 2>"$out/compile.log" >/dev/null; then
		printf -- '-\t-\t-\t-\t-\t-\t-\t%s\n' "NOT MAPPED: $(grep -m1 'error:' "$out/compile.log" | sed 's/.*error: //')" \
			| put_app_txt "$out"
		line "$app"
		status=1
		continue
	fi
	ms=$(( ($(date +%s%N) - t0) / 1000000 ))
	r=$out/$app.report.yaml
	get() { sed -n "s/^$1: //p" "$r"; }
	tracks=$(sed -n 's/^tracks: { 16: \([0-9]*\), 1: \([0-9]*\) }/\1+\2/p' "$r")
	printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$(get pes)" "$(get mems)" "$(get registers)" "$tracks" \
		"$(get clock_mhz)" "$(get latency_cycles)" "$ms" "$same" | put_app_txt "$out"
	line "$app" || status=1
done
exit $status
