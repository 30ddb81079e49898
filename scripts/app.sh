#!/usr/bin/env bash
# Compiles applications for a design into build/<design>/<app>/ (make app)
# with cgrac --verify, which writes there the input images, the host's
# streams and the golden output of the reference interpreter (golden.*), the
# lowered kernels' and the buffer-level simulation's outputs (lowered.*,
# buffers.*), both compared with the golden image, the whole flow's files
# (<app>.bs, .io.yaml, .report.yaml, .svg, ...) and last the application's
# table line, app.txt; its messages go to compile.log. Prints the table;
# exit status 1 if any step failed.
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
header
for app in "$@"; do
	hl=apps/$app/$app.hl
	[ -f "$hl" ] || [ ! -f "apps/large/$app/$app.hl" ] || hl=apps/large/$app/$app.hl   # the large frames
	out=build/$design/$app
	[ -f "$hl" ] || { echo "app: no application $hl" >&2; status=1; continue; }
	mkdir -p "$out"
	rm -f "$out/app.txt" "$out/sim.ok"
	# every step and the table line app.txt (cgrac --verify); its messages in compile.log
	bin/cgrac "$hl" --design "$dir" -o "$out" --verify 2>"$out/compile.log" >/dev/null
	[ -f "$out/app.txt" ] || { echo "app: $app: cgrac wrote no $out/app.txt (see $out/compile.log)" >&2; status=1; continue; }
	line "$app" || status=1
done
exit $status
