#!/usr/bin/env bash
# The performance figures of the generators (apps/README.md, "Figures"):
#  - PEak: rewrite-rule synthesis time per rule and in total, for every PE
#    spec; generation time of Verilog and info alone; Verilator bench
#    throughput (vectors per second) and build time;
#  - Lake: generation time and configuration bits per memory spec; time to
#    solve a 64x64 line-buffer port's configuration; the Verilator benches;
#  - the array: generation time, lines of Verilog, hierarchical Verilator
#    build time and simulation speed of cgra_8x8 and cgra_32x16, and the
#    connectivity bench of cgra_8x8;
#  - cgrac: front end, unified buffers, and the whole flow to a bitstream per
#    application with its co-simulation under Verilator and on the fast
#    simulator, their output streams compared cycle by cycle;
#  - the fast simulator (bin/cgrasim): start-up on cgra_32x16, cycles per
#    second beside Verilator's, a 1920x1080 gaussian end to end;
#  - the layers whose reductions are kept in time: resources, latency beside
#    the physical bound, multiplier occupancy;
#  - the property test on 200 random chips, five of them under Verilator
#    (scripts/property.sh): the count of each outcome and the failures.
#   usage: scripts/bench.sh [SECTION...]   (make bench: all of them, in order)
# SECTION: peak, lake, canal, front, ubuf, flow, cgrasim, layers or property; cgrasim
# compares with the Verilator runs flow left in build/.
set -u
cd "$(dirname "$0")/.."
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# ---- PEak (processing elements) ----
section_peak() {
	echo "== rule synthesis ($(nproc) cores)"
	for spec in peak/specs/*.yaml; do
		pe=$(basename "$spec" .yaml)
		t0=$(date +%s.%N)
		bin/peak "$spec" -o "$tmp/$pe" --ir peak/ir/ops.yaml 2>"$tmp/$pe.log" >"$tmp/$pe.out"
		t1=$(date +%s.%N)
		sed -n 's/.*rule [0-9]* of [0-9]*: *\([a-z0-9_]*\) *\([a-z]*\) ([0-9]* rounds*, \([0-9.]*\) s)/\1 \2 \3/p' "$tmp/$pe.log" |
			awk -v pe="$pe" -v a="$t0" -v b="$t1" '
				{ n++; s += $3; if ($3 > max) { max = $3; slow = $1 } if ($2 == "proved") p++ }
				END { printf "  %-8s %d IR operations, %d rules: wall %.2f s; solver time per operation %.3f s on average, slowest %s %.2f s\n", pe, n, p, b - a, s / n, slow, max }'
		if [ "$pe" = pe_base ]; then
			echo "  per rule for pe_base (seconds, solver time):"
			sed -n 's/.*rule [0-9]* of [0-9]*: *\([a-z0-9_]*\) *\([a-z]*\) (\([0-9]*\) rounds*, \([0-9.]*\) s)/\1 \2 \4/p' "$tmp/$pe.log" |
				sort | awk '{ printf "    %-12s %-11s %s\n", $1, $2, $3 }' | column -c 120
		fi
	done
	echo "== generation without rules (Verilog + info)"
	for spec in peak/specs/*.yaml; do
		pe=$(basename "$spec" .yaml)
		t0=$(date +%s.%N)
		bin/peak "$spec" -o "$tmp/norules" --no-rules -q >/dev/null
		t1=$(date +%s.%N)
		awk -v pe="$pe" -v a="$t0" -v b="$t1" 'BEGIN { printf "  %-8s %.3f s\n", pe, b - a }'
	done
	echo "== Verilator benches (30000 sequences of 4 cycles per PE)"
	bash peak/tests/verilator_bench.sh --count 30000 --cycles 4 peak/specs/pe_base.yaml peak/specs/tiny.yaml | grep -E 'vectors/s|bench:'
}

# ---- Lake (memory tiles) ----
section_lake() {
	echo "== memory-tile generation (Verilog + info + SMT model) and configuration bits"
	for spec in lake/specs/*.yaml; do
		mem=$(basename "$spec" .yaml)
		t0=$(date +%s.%N)
		bin/lake "$spec" -o "$tmp/lake/$mem" -q
		t1=$(date +%s.%N)
		bits=$(sed -n 's/^config_bits: //p' "$tmp/lake/$mem/$mem.info.yaml")
		regs=$(sed -n '/^registers:/,/^config_bits:/p' "$tmp/lake/$mem/$mem.info.yaml" | grep -c '^  - { name: ')
		lines=$(wc -l <"$tmp/lake/$mem/$mem.v")
		awk -v m="$mem" -v a="$t0" -v b="$t1" -v bits="$bits" -v regs="$regs" -v lines="$lines" \
			'BEGIN { printf "  %-8s %.3f s, %5d lines of Verilog, %4d configuration registers, %5d configuration bits per tile\n", m, b - a, lines, regs, bits }'
	done
	echo "== configuration solve: a 64x64 line-buffer port (4096 events)"
	printf '%s\n' 'extents: [64, 64]' 'schedule: { start: 65, strides: [1, 64] }' \
		'addresses: [ { start: 0, strides: [1, 64] } ]' >"$tmp/lb.yaml"
	awk 'BEGIN { for (y = 0; y < 64; y++) for (x = 0; x < 64; x++) print 65 + 64 * y + x, (64 * y + x) % 128 }' >"$tmp/lb.txt"
	for mem in dp pub; do
		ctrl=$([ $mem = dp ] && echo e1 || echo e0)
		[ $mem = pub ] && awk 'BEGIN { for (y = 0; y < 64; y++) for (x = 0; x < 64; x++) print 65 + 64 * y + x, x % 4 }' >"$tmp/lb.txt"
		for form in stream affine; do
			file=$([ $form = stream ] && echo "$tmp/lb.txt" || echo "$tmp/lb.yaml")
			[ $mem = pub ] && [ $form = affine ] && continue
			t0=$(date +%s.%N)
			bin/lake solve "$tmp/lake/$mem/$mem.info.yaml" --ctrl "$ctrl" --$form "$file" -o "$tmp/regs" 2>"$tmp/solve.log"
			t1=$(date +%s.%N)
			awk -v m="$mem" -v c="$ctrl" -v f="$form" -v a="$t0" -v b="$t1" -v s="$(sed -n 's/.* \([0-9.]*\) s -> .*/\1/p' "$tmp/solve.log")" \
				'BEGIN { printf "  %-4s %-3s %-7s solver %.3f s, wall %.3f s (target < 0.5 s)\n", m, c, f, s, b - a }'
		done
	done
	echo "== memory-tile Verilator benches"
	bash lake/tests/verilator_bench.sh --seeds 5 2>&1 | grep -E 'match|bench:'
}

# ---- Canal (the whole chip) ----
section_canal() {
	echo "== make rtl DESIGN=cgra_32x16 from clean (peak with rule synthesis, lake, canal)"
	rm -rf "$tmp/rtl" && mkdir -p "$tmp/rtl"
	for design in cgra_8x8 cgra_32x16; do
		t0=$(date +%s.%N)
		spec=canal/specs/$design.yaml
		mapfile -t cores < <(bin/canal cores "$spec")
		bin/peak "${cores[0]}" -o "$tmp/rtl/$design" $(printf -- '--ir %s ' peak/ir/*.yaml) -q >/dev/null
		bin/lake "${cores[1]}" -o "$tmp/rtl/$design" -q
		bin/canal "$spec" -o "$tmp/rtl/$design" -q
		t1=$(date +%s.%N)
		awk -v d="$design" -v a="$t0" -v b="$t1" \
			-v n="$(grep -c '^node ' "$tmp/rtl/$design/routing.graph")" -v e="$(grep -c '^edge ' "$tmp/rtl/$design/routing.graph")" \
			-v f="$(grep -c '^field ' "$tmp/rtl/$design/config.map")" \
			'BEGIN { printf "  %-10s %.2f s (target < 10 s for cgra_32x16): %d nodes, %d edges, %d configuration fields\n", d, b - a, n, e, f }'
	done
	echo "== the largest interconnect canal takes: 64 x 63 tiles and the IO row, 32 + 32 tracks (tiles x tracks at"
	echo "   the limit of 262144, docs/interconnect.md \"Limits\"; measured about 20 s and 1.8 GB)"
	sed -e 's/^interconnect: .*/interconnect: cgra_limit/' -e 's/^array: .*/array: { cols: 64, rows: 63 }/' \
		-e 's/^tracks: .*/tracks: { 16: 32, 1: 32 }/' -e 's#\.\./\.\./#'"$PWD"'/#g' canal/specs/cgra_8x8.yaml >"$tmp/limit.yaml"
	mkdir -p "$tmp/rtl/limit" && cp "$tmp"/rtl/cgra_8x8/{pe_base,pub}.* "$tmp/rtl/limit/"
	/usr/bin/time -f '  %e s, %M KB at most' bin/canal "$tmp/limit.yaml" -o "$tmp/rtl/limit" 2>&1 | sed 's/^canal: /  /'
	rm -rf "$tmp/rtl/limit"
	echo "== cgra.v of cgra_8x8: lint -Wall (a flat Verilator build takes minutes: verif/ builds hierarchically)"
	bash canal/tests/lint.sh --no-build cgra_8x8 2>&1 | grep -E 'PASS|FAIL|lint:'
	echo "== cgra.v of cgra_4x4 built flat by Verilator (C++ at -O0; verif/ builds hierarchically)"
	bash canal/tests/lint.sh cgra_4x4 2>&1 | grep -E 'Verilator build|FAIL'
	echo "== the array under Verilator (verif/build.sh from clean, each tile a hierarchical block, no probes)"
	# speed DESIGN CYCLES: configuration 1 of the connectivity bench loaded, its IO inputs driven, CYCLES cycles
	speed() {
		local conn=$tmp/conn/$1
		bin/verif conn "$tmp/rtl/$1" -o "$conn" -q | sed -n 's/^verif conn: \([^:]*\): \([0-9]* configurations\), \([0-9]* of [0-9]* edges exercised ([0-9.]*%)\).* in \([0-9.]* s\) .*/  \1: connectivity bench generated in \4: \2, \3/p'
		{ echo reset; sed -n '/^# configuration 2:/q; /^set /p' "$conn/conn.cmd"; echo "bitstream cfg001.bs"; echo "step $2"; } >"$conn/speed.cmd"
		"$tmp/vl/$1/vsim" "$conn/speed.cmd" | sed -n "s/.* \([0-9]*\) cycles in \([0-9.]*\) s (\([0-9]*\) cycles\/s)/  $1: \3 cycles\/s (\1 cycles, configuration 1 of the connectivity bench loaded)/p"
	}
	for design in cgra_8x8 cgra_32x16; do
		echo "  $design: $(cat "$tmp/rtl/$design"/*.v | wc -l) lines of Verilog ($(wc -l <"$tmp/rtl/$design/cgra.v") in cgra.v)"
		bash verif/build.sh "$tmp/rtl/$design" --probes none -o "$tmp/vl/$design" | sed 's/^/  /'
		speed "$design" $([ "$design" = cgra_8x8 ] && echo 20000 || echo 5000)
	done
	echo "== the connectivity bench of cgra_8x8 with every node probed (each interconnect module and core a block)"
	bash verif/build.sh "$tmp/rtl/cgra_8x8" -o "$tmp/vl/cgra_8x8-probes" | sed 's/^/  /'
	"$tmp/vl/cgra_8x8-probes/vsim" "$tmp/conn/cgra_8x8/conn.cmd" | tail -1 | sed 's/^/  /'
}

# ---- cgrac (the front end) ----
section_front() {
	echo "== cgrac: parse + lower + compute kernels per application (target well under 100 ms), IR operations"
	[ -f rtl_out/cgra_4x4/design.yaml ] || bash scripts/rtl.sh cgra_4x4 >/dev/null
	for hl in apps/*/*.hl; do
		app=$(basename "$hl" .hl)
		t0=$(date +%s.%N)
		for _ in 1 2 3 4 5 6 7 8 9 10; do bin/cgrac "$hl" -q --design rtl_out/cgra_4x4 --emit dfg >"$tmp/dfg.txt"; done
		t1=$(date +%s.%N)
		awk -v a="$app" -v t0="$t0" -v t1="$t1" '
			/operation/ { n += $4; sub(/^[^;]*; /, ""); for (i = 1; i < NF; i += 2) c[$i] += $(i + 1) }
			END {
				printf "  %-14s %5.1f ms per run (whole process, mean of 10); %3d IR operations:", a, (t1 - t0) * 100, n
				for (op in c) if (op != "load" && op != "const") printf " %s %d", op, c[op]
				printf "\n"
			}' "$tmp/dfg.txt"
	done
}

# ---- unified buffers ----
section_ubuf() {
	echo "== cgrac: .hl to configured memories per application (target under 1 s), MEM tiles and latency"
	echo "   anchors: UB Table 7 on pub (gaussian 1, harris 5, unsharp 6), Table 6 on dp (gaussian 2, harris 11,"
	echo "   upsample 2), latency Table 6 (gaussian 4095, harris 4095, upsample 16399 on PUB)"
	[ -f rtl_out/cgra_8x8_mac_dp/design.yaml ] || bash scripts/rtl.sh cgra_8x8_mac_dp >/dev/null
	for d in cgra_4x4 cgra_8x8_mac_dp; do
		for hl in apps/*/*.hl; do
			app=$(basename "$hl" .hl)
			t0=$(date +%s.%N)
			for _ in 1 2 3; do bin/cgrac "$hl" --design rtl_out/$d --emit ubuf -o "$tmp/ub" 2>"$tmp/ub.log" >/dev/null; done
			t1=$(date +%s.%N)
			line=$(grep 'unified buffers on' "$tmp/ub.log" | sed 's/^cgrac: [^:]*: //')
			awk -v a="$app" -v t0="$t0" -v t1="$t1" -v l="$line" \
				'BEGIN { printf "  %-14s %6.0f ms per run (whole process, mean of 3): %s\n", a, (t1 - t0) * 1000 / 3, l }'
		done
	done
}

# ---- the whole flow ----
section_flow() {
	echo "== cgrac: .hl to bitstream on cgra_32x16, cgra_16x8_mac_dp and cgra_12x12 (target under 5 s per application),"
	echo "   then the Verilator co-simulation and the fast simulator, their streams compared; anchors: PEs per AHA Fig. 27 (harris 91 / 80, unsharp 101 / 74),"
	echo "   MEMs per UB Table 7 (gaussian 1, harris 5, unsharp 6)"
	for d in cgra_32x16 cgra_16x8_mac_dp cgra_12x12; do
		[ -f rtl_out/$d/design.yaml ] || bash scripts/rtl.sh $d >/dev/null
		bash verif/build.sh rtl_out/$d --probes none -o build/verilator/$d-noprobes | sed 's/^/  /'
		for hl in apps/*/*.hl; do
			app=$(basename "$hl" .hl)
			o=build/$d/$app
			# every check and the fast simulator's run (cgrac --verify --simulate); its summary lines
			bin/cgrac "$hl" --design rtl_out/$d -o "$o" --verify --simulate >"$tmp/v.out" 2>"$tmp/c.log"
			if [ "$(cut -f1 "$o/app.txt" 2>/dev/null)" = - ] || [ ! -f "$o/app.txt" ]; then
				printf '  %-14s %-18s %s\n' "$app" "$d" "$(cut -f8 "$o/app.txt" 2>/dev/null | cut -c1-100)"
				continue
			fi
			printf '  %-14s %-18s %.2f s: %s\n' "$app" "$d" "$(cut -f7 "$o/app.txt" | awk '{ print $1 / 1000 }')" \
				"$(grep "^cgrac: $app on $d: " "$tmp/c.log" | sed 's/^cgrac: [^:]*: //; s/; place .*//')"
			sed -n '/^seconds:/,$p' "$o/$app.report.yaml" | tail -n +2 | tr -d '\n' | sed 's/  */ /g; s/^/                                    stages (s):/; s/$/\n/'
			bash verif/sim.sh "$d" "$app" 2>&1 | tail -1 | sed 's/^/                                    /'
			# the fast simulator: bit-exact, and the same output streams as Verilator in every cycle
			same=yes
			for f in "$o"/sim/out_*.hex; do cmp -s "$f" "$o/fast/sim/${f##*/}" || same=no; done
			echo "$(grep '^sim ' "$tmp/v.out" || cut -f8- "$o/app.txt"); output streams equal to Verilator's in every cycle: $same" |
				sed 's/^/                                    /'
		done
	done
}

# ---- the fast simulator ----
section_cgrasim() {
	echo "== the fast simulator (bin/cgrasim) on cgra_32x16: start-up, cycles per second beside Verilator's"
	d=cgra_32x16
	for i in 1 2 3; do
		printf 'reset\n' >"$tmp/empty.cmd"
		bin/cgrasim run rtl_out/$d "$tmp/empty.cmd" | sed -n 's/^cgrasim: \(.* read in .*\)/  start-up: \1/p'
	done
	for app in harris unsharp camera_pipe; do
		o=build/$d/$app
		[ -f "$o/sim/sim.cmd" ] && [ -f "$o/sim.log" ] || continue
		# Verilator's rate from its run of the application (the frame); the fast simulator's from
		# the same commands, its first cycle apart (where the configured array is compiled): the
		# frame's other cycles, every tile at work, then 200,000 more (the inputs zeros: the PEs
		# compute every cycle, the memory tiles wait, which the fast simulator lets pass at once)
		v=$(sed -n 's/.*run: [0-9]* cycles in [0-9.]* s (\([0-9]*\) cycles\/s).*/\1/p' "$o/sim.log" | head -1)
		n=$(sed -n 's/^run //p' "$o/fast/sim/sim.cmd")
		sed "s/^run .*/run 1\nrun $((n - 1))\nrun 200000/" "$o/fast/sim/sim.cmd" >"$o/fast/sim/long.cmd"
		rates=$(cd "$o/fast/sim" && "$OLDPWD/bin/cgrasim" run "$OLDPWD/rtl_out/$d" long.cmd |
			sed -n 's/.*run: [0-9]* cycles in [0-9.]* s (\([0-9]*\) cycles\/s).*/\1/p' | tail -n 2 | tr '\n' ' ')
		read -r frame long <<<"$rates"
		awk -v a="$app" -v v="$v" -v f="$frame" -v l="$long" -v n="$((n - 1))" 'BEGIN {
			printf "  %-12s Verilator %5d cycles/s; fast: the frame (%d cycles) %7d cycles/s, %5.0fx; 200,000 more %8d cycles/s, %5.0fx\n",
				a, v, n, f, (v > 0 ? f / v : 0), l, (v > 0 ? l / v : 0) }'
	done
	echo "== a 1920x1080 gaussian on cgra_32x16_wide (22-bit MEM counters), end to end on the fast simulator"
	[ -f rtl_out/cgra_32x16_wide/design.yaml ] || bash scripts/rtl.sh cgra_32x16_wide >/dev/null
	o=build/cgra_32x16_wide/gaussian_1080p
	mkdir -p "$o"
	# every check and a first run (cgrac --verify --simulate), then the run timed with its start-up
	if bin/cgrac apps/large/gaussian_1080p/gaussian_1080p.hl -q --design rtl_out/cgra_32x16_wide -o "$o" \
		--verify --simulate; then
		t0=$(date +%s.%N)
		bin/cgrasim "$o/gaussian_1080p.io.yaml" --design rtl_out/cgra_32x16_wide -q | sed 's/^/  /'
		awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { printf "  wall time, start-up and image files included: %.1f s\n", b - a }'
	else
		echo "  gaussian_1080p: $(cut -f8- "$o/app.txt" 2>/dev/null)"
	fi
}

# ---- machine-learning layers ----

# occupancy DIR APP CYCLES: the multipliers (PEs whose rule multiplies) and their busy cycles over
# all cycles, from the fast simulator's activity in DIR/fast
occupancy() {
	awk 'NR == FNR { if ($1 ~ /_(mul|mac|mula?[a-z]*)$/ && $4 == "pe") at[$2 " " $3] = 1; next }
		/kind: PE/ { x = $0; sub(/.*x: /, "", x); sub(/,.*/, "", x); y = $0; sub(/.* y: /, "", y); sub(/,.*/, "", y)
			if ((x " " y) in at) { b = $0; sub(/.*core_busy: /, "", b); sub(/ .*/, "", b); n++; s += b } }
		END { if (n) printf "%d multiplier%s, occupancy %.0f%%", n, n == 1 ? "" : "s", 100 * s / n / c; else printf "no multiplier" }' \
		c="$3" "$1/$2.place" "$1/fast/activity.yaml"
}

# The coarse-grained pipeline (UB Fig. 13): one layer's blocks of output channels as runs of the
# accelerator (the host's loop ko around it: a flush between runs, each run's inputs streamed
# again), as a loop of the array with its iterations one after another (cgrac --sequential), and
# overlapped (the default). The runs variant is apps/resnet_flat with its two schedule lines
# rewritten (ko the host's loop), compiler/tests/map/channel_blocks.hl that of blocks_in_accel.hl,
# transpose_tiles.hl with hw_accelerate at yt that of transpose_tiles.hl.
section_fig13() {
	echo "== the coarse-grained pipeline (UB Fig. 13): blocks of output channels as runs of the accelerator, as a loop"
	echo "   of the array one iteration after another (--sequential), overlapped (default); bound: multiply-accumulates"
	echo "   per multiplier"
	local f=$tmp/fig13 d v hl flag o cycles
	mkdir -p "$f"
	sed -e 's/^hw_output.tile(x, y, xh, yh, xi, yi, 14, 14).split(k, ko, ki, 4).reorder(ki, xi, yi, ko, xh, yh);/hw_output.split(k, ko, ki, 4).reorder(ki, x, y, ko);/' \
		-e 's/^hw_output.hw_accelerate(ki, xh).unroll(ki);/hw_output.hw_accelerate(ki, ko).unroll(ki);/' \
		apps/resnet_flat/resnet_flat.hl >"$f/resnet_runs.hl"
	sed 's/^hw_accelerate(f, xi, xo);/hw_accelerate(f, xi, yt);/' compiler/tests/map/transpose_tiles.hl >"$f/transpose_runs.hl"
	for d in cgra_16x8_mac_dp cgra_32x16; do
		[ -f rtl_out/$d/design.yaml ] || bash scripts/rtl.sh $d >/dev/null
		for v in "$f/resnet_runs.hl:runs" apps/resnet_flat/resnet_flat.hl:sequential apps/resnet_flat/resnet_flat.hl:overlapped \
			compiler/tests/map/channel_blocks.hl:runs compiler/tests/map/blocks_in_accel.hl:sequential \
			compiler/tests/map/blocks_in_accel.hl:overlapped "$f/transpose_runs.hl:runs" \
			compiler/tests/map/transpose_tiles.hl:sequential compiler/tests/map/transpose_tiles.hl:overlapped; do
			hl=${v%:*} flag=
			[ "${v#*:}" = sequential ] && flag=--sequential
			o=$f/$d/$(basename "$hl" .hl)${flag}
			mkdir -p "$o"
			bin/cgrac "$hl" --design rtl_out/$d -o "$o" --verify --simulate $flag >/dev/null 2>"$tmp/c.log"
			if [ "$(cut -f8 "$o/app.txt" 2>/dev/null)" != bit-exact ]; then
				printf '  %-16s %-11s %-18s %s\n' "$(basename "$hl" .hl)" "${v#*:}" "$d" "$(cut -f8- "$o/app.txt" 2>/dev/null | cut -c1-90)"
				continue
			fi
			cycles=$(sed -n 's/^cycles: //p' "$o/fast/activity.yaml")
			printf '  %-16s %-11s %-18s %6d cycles, %3d PEs, %2d MEMs, %s\n' "$(basename "$hl" .hl)" "${v#*:}" "$d" "$cycles" \
				"$(sed -n 's/^pes: //p' "$o"/*.report.yaml)" "$(sed -n 's/^mems: //p' "$o"/*.report.yaml)" \
				"$(occupancy "$o" "$(basename "$hl" .hl)" "$cycles")"
		done
	done
	echo "  bounds: resnet_flat 4 blocks x 36 steps x 196 pixels = 28,224; channel_blocks 2 x 18 x 36 = 1,296;"
	echo "  transpose_tiles (the coarse-grained policy: each stage in its own order) 4 blocks x 64 values = 256"
}

# The 3 x 3 convolution layers of ResNet-18 at full size (apps/large/resnet18_*): on the 32 x 16
# chip with the MAC PE and the dual-port memory, every check and the fast simulator's run of the
# whole layer (every run of the accelerator); on cgra_32x16 (pub), the compilation.
section_resnet18() {
	echo "== ResNet-18's 3 x 3 layers at full size: per run latency beside its bound (steps x pixels of a tile), runs,"
	echo "   the whole layer bit-exact on the fast simulator (cgra_32x16_mac_dp); cgra_32x16 (pub) compiled"
	local l d o hl
	for d in cgra_32x16_mac_dp cgra_32x16; do
		[ -f rtl_out/$d/design.yaml ] || bash scripts/rtl.sh $d >/dev/null
		for hl in apps/large/resnet18_*/resnet18_*.hl; do
			l=$(basename "$hl" .hl) o=$tmp/resnet18/$d/$l
			mkdir -p "$o"
			if [ $d = cgra_32x16_mac_dp ]; then
				bin/cgrac "$hl" --design rtl_out/$d -o "$o" --verify --simulate >/dev/null 2>"$tmp/c.log"
				printf '  %-18s %-18s %s\n' "$l" "$d" "$(grep "^cgrac: $l on $d: " "$tmp/c.log" |
					sed 's/^cgrac: [^:]*: //; s/, tracks.*latency/, latency/; s/; place .*//')"
				printf '  %-37s %s\n' "" "$(cut -f8- "$o/app.txt" 2>/dev/null | cut -c1-100); $(tail -1 "$o/fast/sim.log" 2>/dev/null |
					sed 's/.* bit-exact, //; s/ in .*(\([0-9]*\) cycles\/s)/ (\1 cycles\/s)/; s/;.*//')"
			else
				bin/cgrac "$hl" --design rtl_out/$d -o "$o" >/dev/null 2>"$tmp/c.log"
				printf '  %-18s %-18s %s\n' "$l" "$d" "$( (grep "^cgrac: $l on $d: " "$tmp/c.log" || grep -m1 'error' "$tmp/c.log") |
					sed 's/^cgrac: [^:]*: //; s/, tracks.*latency/, latency/; s/; place .*//; s/^[^ ]*: error: /error: /' | cut -c1-150)"
			fi
		done
	done
}

section_layers() {
	echo "== layers with their reductions kept in time, on the fast simulator: PEs, MEMs, registers, latency beside the"
	echo "   physical bound (one multiply-accumulate per multiplier per cycle: the longest statement's iterations),"
	echo "   compute occupancy (multiplier-busy cycles over all cycles, cgrasim's activity); anchors: UB Table 6"
	echo "   (resnet 9,807 cycles on PUB, 8,739 dual-port, 80 MEMs) and Table 7 (resnet 136 -> 81 MEMs)"
	for pair in cgra_32x16:resnet_block cgra_32x16:resnet_layer cgra_16x8_mac_dp:conv_layer_time cgra_12x12:conv_layer_time \
		cgra_16x8_mac_dp:conv_pool cgra_12x12:conv_pool cgra_16x8_mac_dp:layer_chain cgra_16x8_mac_dp:mobilenet_layer \
		cgra_32x16:matmul_time cgra_16x8_mac_dp:matmul_time cgra_16x8_mac_dp:resnet_flat cgra_32x16:resnet_flat; do
		d=${pair%%:*} app=${pair#*:} o=$tmp/layers/$pair
		[ -f rtl_out/$d/design.yaml ] || bash scripts/rtl.sh $d >/dev/null
		mkdir -p "$o"
		bin/cgrac apps/$app/$app.hl --design rtl_out/$d -o "$o" --verify --simulate >"$tmp/v.out" 2>"$tmp/c.log"
		if [ "$(cut -f8 "$o/app.txt" 2>/dev/null)" != bit-exact ]; then
			printf '  %-14s %-18s %s\n' "$app" "$d" "$(cut -f8- "$o/app.txt" 2>/dev/null | cut -c1-100)"
			continue
		fi
		line=$(grep "^cgrac: $app on $d: " "$tmp/c.log" | sed 's/^cgrac: [^:]*: //; s/, tracks.*latency/, latency/; s/; place .*//')
		naive=$(sed -n 's/.*unified buffers on [a-z_0-9]*: [0-9]* MEM tiles (\([0-9]*\) before shift registers).*/\1/p' "$tmp/c.log" | tail -1)
		# the bound: the largest iteration domain of a statement; the multipliers: the PEs whose rule multiplies
		bound=$(awk '/domain:/ { n = 1; s = $0; while (match(s, /[0-9]+ <= [a-z_0-9]+ <= [0-9]+/)) {
				split(substr(s, RSTART, RLENGTH), f, " "); n *= f[5] - f[1] + 1; s = substr(s, RSTART + RLENGTH) }
				if (n > m) m = n } END { print m + 0 }' "$o/$app.ubuf")
		cycles=$(sed -n 's/^cycles: //p' "$o/fast/activity.yaml")
		occ=$(occupancy "$o" "$app" "$cycles")
		lat=$(sed -n 's/.*latency \([0-9]*\) cycles.*/\1/p' <<<"$line")
		printf '  %-14s %-18s %s\n' "$app" "$d" "$line"
		awk -v b="$bound" -v l="$lat" -v o="$occ" -v n="$naive" -v s="$(cut -f7 "$o/app.txt" | awk '{ print $1 / 1000 }')" \
			'BEGIN { printf "                                    bound %d cycles, latency %.2fx of it; %s; %s MEMs before the shift-register optimization; compile and checks %.1f s\n", b, l / b, o, n, s }'
	done
}

# ---- the property test ----
section_property() {
	echo "== the property test: 200 random chips, 5 under Verilator (scripts/property.sh --verilator 5 1-200)"
	bash scripts/property.sh --verilator 5 1-200 | sed -n '/^== outcomes/,$p' | sed 's/^/  /'
}

sections=(peak lake canal front ubuf flow cgrasim layers fig13 resnet18 property)
[ $# -eq 0 ] || sections=("$@")
for s in "${sections[@]}"; do
	declare -F "section_$s" >/dev/null || { echo "bench: no section '$s' (sections: peak lake canal front ubuf flow cgrasim layers fig13 resnet18 property)" >&2; exit 2; }
done
for s in "${sections[@]}"; do
	"section_$s"
done
