#!/usr/bin/env bash
# Compiles applications as far as the compiler goes today, into
# build/<design>/<app>/: the input image (<app>.input.pgm/.ppm), the golden
# output of the reference interpreter (golden.*), the lowered loop nest
# (<app>.lowered), the compute graph (<app>.dfg.json), and the output of the
# lowered kernels on hardware words (lowered.*), the unified buffers and their
# mapping on the chip's memory tiles (<app>.ubuf, <app>.mem), and the output
# of the buffer-level simulation (buffers.*); both outputs must equal the
# golden image. One line per application.
#   usage: scripts/app.sh DESIGN APP...
set -u
cd "$(dirname "$0")/.."
design=$1
shift
dir=rtl_out/$design
[ -f "$dir/design.yaml" ] || bash scripts/rtl.sh "$design" >/dev/null || exit 1
status=0
printf '%-14s %8s %8s %5s %5s %8s %12s %10s  %s\n' app kernels "IR ops" MEMs regs latency "compile ms" golden \
	"build/$design/<app>/"
for app in "$@"; do
	hl=apps/$app/$app.hl
	out=build/$design/$app
	[ -f "$hl" ] || { echo "app: no application $hl" >&2; status=1; continue; }
	ext=pgm
	grep -q 'ImageParam.*, 3,' "$hl" && ext=ppm
	mkdir -p "$out"
	t0=$(date +%s%N)
	if bin/cgrac "$hl" -q --gen-input -o "$out/$app.input.$ext" &&
		bin/cgrac "$hl" -q --run "$out/$app.input.$ext" -o "$out/golden.$ext" &&
		bin/cgrac "$hl" -q --design "$dir" -o "$out" --emit lowered >/dev/null &&
		bin/cgrac "$hl" -q --design "$dir" -o "$out" --emit dfg >"$out/$app.dfg.txt" &&
		bin/cgrac "$hl" -q --design "$dir" --run-lowered "$out/$app.input.$ext" -o "$out/lowered.$ext" &&
		bin/cgrac "$hl" --design "$dir" -o "$out" --emit ubuf 2>"$out/ubuf.log" >/dev/null &&
		bin/cgrac "$hl" -q --design "$dir" --sim-buffers "$out/$app.input.$ext" -o "$out/buffers.$ext"; then
		ms=$(( ($(date +%s%N) - t0) / 1000000 ))
		kernels=$(grep -c '^[a-z_0-9]* (line' "$out/$app.dfg.txt")
		ops=$(awk '/operation/ { n += $4 } END { print n + 0 }' "$out/$app.dfg.txt")
		line=$(grep 'unified buffers on' "$out/ubuf.log")
		mems=$(echo "$line" | sed -n 's/.*: \([0-9]*\) MEM tiles.*/\1/p')
		regs=$(echo "$line" | sed -n 's/.* \([0-9]*\) registers.*/\1/p')
		lat=$(echo "$line" | sed -n 's/.*latency \([0-9]*\) cycles.*/\1/p')
		same=same
		cmp -s "$out/golden.$ext" "$out/lowered.$ext" || { same=DIFFERENT; status=1; }
		cmp -s "$out/golden.$ext" "$out/buffers.$ext" || { same=DIFFERENT; status=1; }
		printf '%-14s %8s %8s %5s %5s %8s %12s %10s  %s\n' "$app" "$kernels" "$ops" "$mems" "$regs" "$lat" "$ms" \
			"$same" "$out"
	else
		printf '%-14s %s\n' "$app" "FAILED (see the messages above)"
		status=1
	fi
done
exit $status
