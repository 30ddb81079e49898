#!/usr/bin/env bash
# Unified buffers and their mapping, checked end to end:
#  - brighten_blur on 64x64: the brighten buffer has one input and four output
#    ports at distances 0, 1, 64 and 65 with the first output at cycle 65 (UB
#    Fig. 3), and maps to one memory tile and two registers (UB Fig. 8(a));
#  - every application of apps/, on the pub tile (cgra_4x4, or a larger chip:
#    small_design in scripts/suite_lib.sh) and the dual-port
#    tile (cgra_8x8_mac_dp; not the layers of LAYER_APPS), through the buffer-level simulator
#    (cgrac --sim-buffers: schedules, register chains, memory tiles configured
#    on <mem>.smt2 and run on their functional model, kernels on hardware
#    words) on its own input and a random one over 16 bits: no port may deliver a wrong
#    value and the output must equal the reference interpreter's bit for bit;
#  - the MEM tiles, registers and latency of each, beside the Unified Buffer
#    paper's anchors (Table 7 on pub, Table 6 on dp).
#   usage: compiler/tests/ubuf.sh [APP...]   (CGRAC=... picks the binary)
set -u
cd "$(dirname "$0")/../.."
. scripts/suite_lib.sh || exit 1
cgrac=${CGRAC:-bin/cgrac}
designs=(cgra_4x4 cgra_8x8_mac_dp)
for d in "${designs[@]}" cgra_12x12 cgra_32x16; do
	[ -f rtl_out/$d/design.yaml ] || bash scripts/rtl.sh $d >/dev/null || exit 1
done
suite_tmp
apps=("$@")
[ ${#apps[@]} -eq 0 ] && apps=($(ls apps/*/*.hl | xargs -n1 basename | sed 's/\.hl$//'))

# The figure of the paper, from the printed buffers.
fig3() {
	local u=$1
	local ports
	ports=$(awk '/^buffer brighten /,/^$/' "$u")
	if echo "$ports" | grep -q '^buffer brighten over \[0, 64) x \[0, 64): 1 input, 4 output ports'; then
		pass "brighten_blur: the brighten buffer has 1 input and 4 output ports"
	else
		fail "brighten_blur: the brighten buffer's ports: $(echo "$ports" | head -1)"
	fi
	local dists
	dists=$(echo "$ports" | sed -n 's/^    distance: \([0-9]*\) from input port .*/\1/p' | sort -n | tr '\n' ' ')
	[ "$dists" = "0 1 64 65 " ] && pass "brighten_blur: output port distances 0 1 64 65" ||
		fail "brighten_blur: output port distances are '$dists', expected 0 1 64 65"
	if echo "$ports" | grep -q 'schedule: { blur\[yi, xi\] -> \[65 + 64yi + xi\] }' &&
		echo "$ports" | grep -q 'schedule: { brighten\[y, x\] -> \[64y + x\] }'; then
		pass "brighten_blur: input port at 64y + x, output ports at 65 + 64y + x (first output at cycle 65)"
	else
		fail "brighten_blur: the schedules are not those of Fig. 3"
	fi
}

# anchors: MEM tiles on pub (UB Table 7; resnet: Table 6, a layer of its own size) and on dp (Table 6), latency (Table 6)
anchor_pub() { case $1 in gaussian) echo 1 ;; harris) echo 5 ;; unsharp) echo 6 ;; upsample) echo 1 ;; resnet_block) echo 80 ;; *) echo - ;; esac; }
anchor_dp() { case $1 in gaussian) echo 2 ;; harris) echo 11 ;; upsample) echo 2 ;; *) echo - ;; esac; }
anchor_lat() { case $1 in gaussian) echo 4095 ;; harris) echo 4095 ;; upsample) echo 16399 ;; resnet_block) echo 9807 ;; *) echo - ;; esac; }

report=$tmp/report
for app in "${apps[@]}"; do
	hl=apps/$app/$app.hl
	ext=pgm
	grep -q 'ImageParam.*, 3,' "$hl" && ext=ppm
	for d in "${designs[@]}"; do
		[ $d = cgra_4x4 ] && d=$(small_design "$app")
		# a layer's streams need more IO tiles than cgra_8x8_mac_dp has
		case "$d $LAYER_APPS" in "cgra_8x8_mac_dp "*" $app "*) continue ;; esac
		out=$tmp/$d/$app
		mkdir -p "$out"
		if ! $cgrac "$hl" --design rtl_out/$d -o "$out" --emit ubuf 2>"$out/log" >/dev/null; then
			cat "$out/log"
			fail "$app on $d: cgrac --emit ubuf failed"
			continue
		fi
		line=$(grep 'unified buffers on' "$out/log")
		mems=$(echo "$line" | sed -n 's/.*: \([0-9]*\) MEM tiles.*/\1/p')
		regs=$(echo "$line" | sed -n 's/.* \([0-9]*\) registers.*/\1/p')
		lat=$(echo "$line" | sed -n 's/.*latency \([0-9]*\) cycles.*/\1/p')
		secs=$(echo "$line" | sed -n 's/.*, \([0-9.]*\) s$/\1/p')
		mem=$(sed -n 's/^# buffer mapping of .* on \([a-z0-9_]*\):.*/\1/p' "$out/$app.mem")
		printf '%s %s %s %s %s %s\n' "$app" "$mem" "$mems" "$regs" "$lat" "$secs" >>"$report"
		if [ "$app" = brighten_blur ] && [ "$d" = cgra_4x4 ]; then
			fig3 "$out/$app.ubuf"
			[ "$mems" = 1 ] && [ "$regs" = 2 ] &&
				pass "brighten_blur: after shift-register optimization 1 memory tile and 2 registers (Fig. 8(a))" ||
				fail "brighten_blur: $mems memory tiles and $regs registers, expected 1 and 2"
		fi
		for c in "own:" "s2:--seed 2 --range 0:65535"; do
			name=${c%%:*} args=${c#*:}
			in=$tmp/inputs/$app/$name      # the inputs and golden image, made once for both designs
			# shellcheck disable=SC2086
			if [ ! -d "$in" ] && ! $cgrac "$hl" -q --golden "$in" $args; then
				fail "$app ($name): cgrac --golden failed"
				continue
			fi
			g=$(echo "$in"/golden.*)
			ext=${g##*.}
			cp "$g" "$out/$name.gold.$ext"
			if ! $cgrac "$hl" -q --design rtl_out/$d --sim-buffers "$in" -o "$out/$name.sim.$ext" 2>"$out/simlog"; then
				cat "$out/simlog"
				fail "$app on $d ($name): the buffer-level simulation delivered a wrong value"
			elif cmp -s "$out/$name.gold.$ext" "$out/$name.sim.$ext"; then
				pass "$app on $d ($name${args:+: $args}): buffer-level simulation = interpreter, bit for bit"
			else
				fail "$app on $d ($name): the buffer-level simulation's output differs from the interpreter's"
			fi
		done
	done
done
echo "     app            MEM    tiles (anchor)  registers  latency (anchor)  .hl -> configured memories"
while read -r app mem mems regs lat secs; do
	if [ "$mem" = pub ]; then anchor=$(anchor_pub "$app"); else anchor=$(anchor_dp "$app"); fi
	printf '     %-14s %-6s %5s (%s) %10s %9s (%s) %8s s\n' "$app" "$mem" "$mems" "$anchor" "$regs" "$lat" \
		"$(anchor_lat "$app")" "$secs"
done <"$report"
suite_end "unified buffers"
