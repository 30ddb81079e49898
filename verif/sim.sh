#!/usr/bin/env bash
# The co-simulation of an application (make sim; verification level 5 of
# docs/architecture.md): the compiler's bitstream and io.yaml for DESIGN, run on
# the design's Verilator model (verif/build.sh --probes none, built once and
# cached) by bin/verif app, which streams the input image in, assembles
# build/<design>/<app>/output.<ext> and compares it bit for bit with the
# golden image; sim.log and sim/ (the commands and streams) beside it. One
# summary line; exit status 0 only when every pixel is bit-exact.
#
# TRACE=1 also writes the waveform build/<design>/<app>/<app>.vcd, from a
# model built with tracing (build/verilator/<design>-trace: every node of the
# interconnect, the cores' ports; slower to build and to run).
# SIM=fast runs the fast simulator bin/cgrasim instead (cgrasim/README.md: no
# model to build), into build/<design>/<app>/fast/ (output, sim.log, sim/,
# activity.yaml; with TRACE=1 <app>.vcd, the nodes the configuration uses).
#   usage: [SIM=fast] [TRACE=1] verif/sim.sh DESIGN APP
#   APP_DIR=DIR takes the application from DIR instead of build/<design>/<app>/
set -u
cd "$(dirname "$0")/.."
case "${1:-}" in
-h|--help) sed -n '2,18p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
esac
[ $# -eq 2 ] || { echo "usage: [SIM=fast] [TRACE=1] verif/sim.sh DESIGN APP" >&2; exit 2; }
sim=${SIM:-verilator}
case $sim in
verilator|fast) ;;
*) echo "sim: SIM=$sim: expected verilator or fast" >&2; exit 2 ;;
esac
design=$1 app=$2
rtl=rtl_out/$design
dir=${APP_DIR:-build/$design/$app}
io=$dir/$app.io.yaml
trace=${TRACE:-0}
[ "$trace" = 0 ] && trace=
if [ ! -f "$rtl/design.yaml" ]; then
	echo "sim: no design $rtl (run make rtl DESIGN=$design first)" >&2
	exit 1
fi
if [ ! -f "$io" ]; then
	if [ -d "$dir" ]; then
		echo "sim: no $io: $app has not been compiled to a bitstream for $design yet" \
			"(run make app APP=$app DESIGN=$design; the compiler writes $app.bs and $app.io.yaml)" >&2
	else
		echo "sim: no $io (run make app APP=$app DESIGN=$design first)" >&2
	fi
	exit 1
fi
[ -x bin/verif ] || { echo "sim: bin/verif is missing (make build)" >&2; exit 1; }

if [ "$sim" = fast ]; then
	[ -x bin/cgrasim ] || { echo "sim: bin/cgrasim is missing (make build)" >&2; exit 1; }
	out=$dir/fast
	mkdir -p "$out" || exit 1
	args=("$io" --design "$rtl" -o "$out" --activity "$out/activity.yaml")
	[ -z "$trace" ] || args+=(--trace "$out/$app.vcd")
	exec bin/cgrasim "${args[@]}"
fi

if [ -n "$trace" ]; then
	model=build/verilator/$design-trace
	build=(--probes all --trace)
else
	model=build/verilator/$design-noprobes
	build=(--probes none)
fi
[ -x "$model/vsim" ] || echo "sim: building the Verilator model of $design into $model (once; then cached)"
line=$(bash verif/build.sh "$rtl" "${build[@]}" -o "$model") || { echo "$line"; exit 1; }
case "$line" in
*"up to date"*"built in "*) note="model build $(echo "$line" | sed -n 's/.*built in \([0-9.]*\) s.*/\1/p') s (cached)" ;;
*"up to date"*) note="model build cached" ;;
*) note="model build $(echo "$line" | sed -n 's/.* built in \([0-9.]*\) s.*/\1/p') s"
   echo "$line" ;;
esac
args=("$io" --design "$rtl" --vsim "$model/vsim" --note "$note")
[ -z "$trace" ] || args+=(--trace "$dir/$app.vcd")
bin/verif app "${args[@]}"
