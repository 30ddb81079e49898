#!/usr/bin/env bash
# Compiles applications for a design into build/<design>/<app>/ and, with
# SIM=1, co-simulates them under Verilator (make sim): the input image
# (<app>.input.pgm/.ppm), the golden output of the reference interpreter
# (golden.*), the lowered kernels on hardware words (lowered.*) and the
# buffer-level simulation (buffers.*), both checked against the golden
# image, then the whole flow: <app>.bs, .io.yaml, .report.yaml, .svg and the
# intermediate files (compile.log), and with SIM=1 output.* and sim.log.
# One line per application; exit status 1 if any step failed.
#   usage: [SIM=1] scripts/app.sh DESIGN APP...
set -u
cd "$(dirname "$0")/.."
design=$1
shift
dir=rtl_out/$design
sim=${SIM:-0}
[ -f "$dir/design.yaml" ] || bash scripts/rtl.sh "$design" >/dev/null || exit 1
status=0
printf '%-14s %5s %5s %5s %6s %8s %8s %10s %10s  %s\n' app PEs MEMs regs tracks MHz latency "compile ms" \
	"$([ "$sim" = 1 ] && echo Verilator || echo golden)" "build/$design/<app>/"
for app in "$@"; do
	hl=apps/$app/$app.hl
	out=build/$design/$app
	[ -f "$hl" ] || { echo "app: no application $hl" >&2; status=1; continue; }
	ext=pgm
	grep -q 'ImageParam.*, 3,' "$hl" && ext=ppm
	mkdir -p "$out"
	if ! bin/cgrac "$hl" -q --gen-input -o "$out/$app.input.$ext" ||
		! bin/cgrac "$hl" -q --run "$out/$app.input.$ext" -o "$out/golden.$ext" ||
		! bin/cgrac "$hl" -q --design "$dir" -o "$out" --emit lowered >/dev/null ||
		! bin/cgrac "$hl" -q --design "$dir" --run-lowered "$out/$app.input.$ext" -o "$out/lowered.$ext" ||
		! bin/cgrac "$hl" -q --design "$dir" --sim-buffers "$out/$app.input.$ext" -o "$out/buffers.$ext"; then
		printf '%-14s %s\n' "$app" "FAILED before the back end (see the messages above)"
		status=1
		continue
	fi
	same=same
	cmp -s "$out/golden.$ext" "$out/lowered.$ext" || { same=DIFFERENT; status=1; }
	cmp -s "$out/golden.$ext" "$out/buffers.$ext" || { same=DIFFERENT; status=1; }
	t0=$(date +%s%N)
	if ! bin/cgrac "$hl" --design "$dir" -o "$out" 2>"$out/compile.log" >/dev/null; then
		printf '%-14s %s\n' "$app" "NOT MAPPED: $(grep -m1 'error:' "$out/compile.log" | sed 's/.*error: //')"
		status=1
		continue
	fi
	ms=$(( ($(date +%s%N) - t0) / 1000000 ))
	r=$out/$app.report.yaml
	get() { sed -n "s/^$1: //p" "$r"; }
	tracks=$(sed -n 's/^tracks: { 16: \([0-9]*\), 1: \([0-9]*\) }/\1+\2/p' "$r")
	if [ "$sim" = 1 ]; then
		if bash verif/sim.sh "$design" "$app" >"$out/sim.out" 2>&1; then
			same=bit-exact
		else
			same=DIFFERENT
			status=1
			tail -5 "$out/sim.out"
		fi
	fi
	printf '%-14s %5s %5s %5s %6s %8.0f %8s %10s %10s  %s\n' "$app" "$(get pes)" "$(get mems)" "$(get registers)" \
		"$tracks" "$(get clock_mhz)" "$(get latency_cycles)" "$ms" "$same" "$out"
done
exit $status
