#!/usr/bin/env bash
# The use cases of a memory tile with designed configurations and known
# outputs (lake/lake_scenario.c): `lake vectors --scenario` fails unless the
# functional model produces every designed output word, and the generated
# Verilog must then produce the model's trace cycle for cycle under Verilator:
#   - line buffers on dp: a 64x64 stream read back with delays 1, 64 and 65;
#   - wide fetch on pub: both ports at one word per cycle through aggregator,
#     single-port SRAM (busy every cycle) and transpose buffer;
#   - a 16x16 transpose in 4x4 blocks at one word per cycle (pub with 16-word
#     transpose buffers; the 8-word buffers of pub hold only two rows);
#   - chaining: two dp tiles hold and replay 4,096 words, twice one tile;
#   - the table look-up on pub (4-word slots: loads keep a row's other words),
#     dp and lut_wide (latency 0, loaded through another port): 202 bus writes of lookup_wr load 200 scattered entries, then
#     1,400 addresses (in order, repeated, random, unloaded, high bits set)
#     give the table's words on out0 a latency later, one per cycle.
set -u
cd "$(dirname "$0")/../.."
. scripts/suite_lib.sh || exit 1
lake=${LAKE:-bin/lake}
suite_tmp

# bench SPEC TILES: generates, writes the bench for TILES chained tiles and
# verilates it (once per spec and tile count); prints the directory
bench() {
	local mem d
	mem=$(basename "$1" .yaml)
	d=$tmp/$mem.$2
	if [ ! -x "$d/obj/V${mem}_tb" ]; then
		mkdir -p "$d"
		$lake "$1" -o "$d" -q >"$d/gen.log" 2>&1 &&
			$lake tb "$d/$mem.info.yaml" -o "$d" --tiles "$2" -q >>"$d/gen.log" 2>&1 &&
			verilator --binary -j 2 -Wno-fatal -Mdir "$d/obj" --top-module "${mem}_tb" \
				-MAKEFLAGS "OPT_FAST=-O0 OPT_GLOBAL=-O0" "$d/$mem.v" "$d/${mem}_tb.v" >>"$d/gen.log" 2>&1 ||
			{ cat "$d/gen.log" >&2; return 1; }
	fi
	echo "$d"
}

# scenario SPEC NAME TILES WHAT
scenario() {
	local spec=$1 name=$2 tiles=$3 what=$4 mem d run
	mem=$(basename "$spec" .yaml)
	d=$(bench "$spec" "$tiles") || { fail "$what: generation or Verilator build"; return; }
	run=$d/run_${name//:/_}
	if ! $lake vectors "$d/$mem.info.yaml" --scenario "$name" -o "$run" >"$run.log" 2>&1; then
		fail "$what: the functional model"; cat "$run.log"; return
	fi
	pass "$what: model output as designed ($(sed -n 's/.* \([0-9]* cycles, [0-9]* output words\).*/\1/p' "$run.log"))"
	"$d/obj/V${mem}_tb" +config="$run/config.hex" +inputs="$run/inputs.hex" +trace="$run/verilog.trace" \
		>"$run/bench.log" 2>&1
	if cmp -s "$run/verilog.trace" "$run/expected.trace"; then
		pass "$what: Verilog trace equals the model's"
	else
		local n
		n=$(cmp "$run/verilog.trace" "$run/expected.trace" 2>&1 | sed -n 's/.* line \([0-9]*\).*/\1/p')
		fail "$what: Verilog differs from the model at trace line ${n:-?}"
		[ -n "$n" ] && { echo "    verilog: $(sed -n "${n}p" "$run/verilog.trace")"
			echo "    model:   $(sed -n "${n}p" "$run/expected.trace")"; }
	fi
}

for delay in 1 64 65; do
	scenario lake/specs/dp.yaml "linebuffer:$delay" 1 "dp line buffer, delay $delay"
done
scenario lake/specs/pub.yaml widefetch 1 "pub wide fetch, 2 ports at full rate"
scenario lake/tests/specs/pub_tb16.yaml transpose 1 "pub (16-word TBs) 4x4-block transpose at full rate"
scenario lake/specs/dp.yaml chain 2 "two chained dp tiles replay 4096 words"
scenario lake/specs/pub.yaml lookup 1 "pub table look-up: 200 entries loaded through lookup_wr, 1400 addresses"
scenario lake/specs/dp.yaml lookup 1 "dp table look-up: 200 entries loaded through lookup_wr, 1400 addresses"
scenario lake/tests/specs/lut_wide.yaml lookup 1 "lut_wide table look-up: 2-word slots, latency 0, a separate load port"

# what cannot be done is refused with its reason
if ! $lake vectors "$(bench lake/specs/pub.yaml 1)/pub.info.yaml" --scenario transpose -o "$tmp/no" 2>"$tmp/no.err" &&
	grep -q "needs a 16-word transpose buffer" "$tmp/no.err" && [ ! -e "$tmp/no" ]; then
	pass "pub's 8-word transpose buffers: the transpose is refused with its reason"
else
	fail "pub transpose was not refused"; cat "$tmp/no.err"
fi
suite_end "scenarios"
