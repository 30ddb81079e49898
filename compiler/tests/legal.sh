#!/usr/bin/env bash
# Legal chips the default family does not cover, compiled and co-simulated
# under Verilator bit for bit against the reference interpreter:
#   - cgra_6x5_noreg (Wilton, 3 tracks, no switch-box registers): brighten_blur
#     pipelined with its registers retimed onto PE input registers and the rest
#     in delay PEs; gaussian, whose pipelined netlist does not fit, with
#     pipelining lowered (said on stderr and in the report); blur3 unpipelined;
#     without register packing, the registers have nowhere but delay PEs;
#   - cgra_4x4_nomem (no MEM tile): a pointwise and a register-chain
#     application map; one that needs a line buffer is refused naming it,
#     nothing written, and one with a look-up table names the table; a
#     division by 3 (a multiply-high and a shift) maps;
#   - a PE without input registers (peak/specs/tiny.yaml) on a chip without
#     switch-box registers: a register the application needs is refused
#     naming the net, the sink and what the chip lacks; the division by 3
#     is refused naming the IR operation tiny lacks;
#   - a 32-bit PE beside a 16-bit memory tile: refused naming both widths;
#   - a chip of one 16-bit track too few for gaussian: refused naming the
#     tracks, nothing written.
#   usage: compiler/tests/legal.sh   (CGRAC=... picks the binary)
set -u
cd "$(dirname "$0")/../.." || exit 1
. scripts/suite_lib.sh
suite_tmp
cgrac=${CGRAC:-bin/cgrac}
t=compiler/tests/legal

# golden HL DIR: the inputs and the reference interpreter's output in DIR.
golden() {
	$cgrac "$1" -q --golden "$2"
}

# run DESIGN HL [OPTION...]: compiled into $tmp/DESIGN/APP (stderr in
# compile.log) and simulated on the fast simulator; the first application of
# each design (VERILATOR) also under Verilator, its output streams compared.
run() {
	local d=$1 hl=$2 a o
	shift 2
	a=$(basename "$hl" .hl)
	o=$tmp/$d/$a
	if ! golden "$hl" "$o" || ! $cgrac "$hl" --design "rtl_out/$d" -o "$o" "$@" >/dev/null 2>"$o/compile.log"; then
		fail "$a on $d: not compiled: $(grep -m1 error: "$o/compile.log")"
		return 1
	fi
	pass "$a on $d $*: compiled ($(sed -n 's/^pes: //p' "$o/$a.report.yaml") PEs, $(sed -n 's/^delay_pes: //p' "$o/$a.report.yaml") delay PEs)"
	if APP_DIR=$o SIM=fast bash verif/sim.sh "$d" "$a" >"$o/sim.log" 2>&1; then
		pass "$a on $d $*: bit-exact on the fast simulator"
	else
		fail "$a on $d $*: fast simulation: $(tail -n 1 "$o/sim.log")"
		return 0
	fi
	# one application per design also under Verilator: the same output streams
	case " $VERILATOR " in *" $d:$a "*) ;; *) return 0 ;; esac
	local f same=1
	if APP_DIR=$o bash verif/sim.sh "$d" "$a" >"$o/vsim.log" 2>&1; then
		for f in "$o"/sim/out_*.hex; do cmp -s "$f" "$o/fast/sim/${f##*/}" || same=0; done
		[ $same = 1 ] && pass "$a on $d $*: bit-exact under Verilator, the same output streams in every cycle" ||
			fail "$a on $d $*: the output streams under Verilator and on the fast simulator differ"
	else
		fail "$a on $d $*: co-simulation: $(tail -n 1 "$o/vsim.log")"
	fi
}
VERILATOR="cgra_6x5_noreg:brighten_blur cgra_4x4_nomem:bright"

field() { sed -n "s/^$1: //p" "$tmp/$2/$3/$3.report.yaml"; }

for d in cgra_6x5_noreg cgra_4x4_nomem; do
	suite_design "$d" "$tmp/$d.log" || fail "$d: not generated: $(tail -n 1 "$tmp/$d.log")"
done

# ---- no switch-box registers
d=cgra_6x5_noreg
grep -q '^reg ' "rtl_out/$d/routing.graph" && fail "$d has reg nodes" || pass "$d: no pipeline register in routing.graph"
if run $d apps/brighten_blur/brighten_blur.hl; then
	[ "$(field delay_pes $d brighten_blur)" -gt 0 ] && [ "$(field pipelined $d brighten_blur)" = true ] &&
		pass "brighten_blur: pipelined, with delay PEs" || fail "brighten_blur: delay PEs or pipelining wrong"
fi
if run $d apps/gaussian/gaussian.hl; then
	[ "$(field pipelined $d gaussian)" = false ] && grep -q 'pipelining lowered (off)' "$tmp/$d/gaussian/compile.log" &&
		pass "gaussian: pipelining lowered, said on stderr and in the report" ||
		fail "gaussian: pipelining not lowered as it should be"
	[ "$(field delay_pes $d gaussian)" = 0 ] && pass "gaussian: its tap registers retimed onto PE inputs" ||
		fail "gaussian: delay PEs left ($(field delay_pes $d gaussian))"
fi
if run $d $t/blur3.hl --no-pipeline; then
	[ "$(field delay_pes $d blur3)" = 0 ] && pass "blur3: both tap registers retimed onto PE inputs" ||
		fail "blur3: $(field delay_pes $d blur3) delay PEs left"
fi
if run $d $t/blur3.hl --no-register-packing --no-pipeline; then
	[ "$(field packed_registers $d blur3)" = 2 ] && [ "$(field delay_pes $d blur3)" = 2 ] &&
		pass "blur3 without packing: its two registers are delay PEs (their own input registers)" ||
		fail "blur3 without packing: $(field delay_pes $d blur3) delay PEs, $(field packed_registers $d blur3) packed"
fi

# ---- a division by a constant that is not a power of two: a multiply-high and a shift
run cgra_4x4_nomem $t/div3.hl

# ---- no MEM tile
d=cgra_4x4_nomem
run $d $t/bright.hl
run $d $t/blur3.hl
mkdir -p "$tmp/nomem"
if $cgrac $t/blur2d.hl --design rtl_out/$d -o "$tmp/nomem" 2>"$tmp/err"; then
	fail "blur2d on $d: compiled without a line buffer"
else
	grep -q 'error: the application needs 1 line buffer (input: .*) and the design has no MEM tile' "$tmp/err" &&
		pass "blur2d on $d: refused, the line buffer named" || fail "blur2d on $d: $(grep -m1 error "$tmp/err")"
	[ -z "$(ls -A "$tmp/nomem")" ] && pass "blur2d on $d: nothing written" || fail "blur2d on $d: files written"
fi

if $cgrac apps/unsharp/unsharp.hl --design rtl_out/$d -o "$tmp/nomem" 2>"$tmp/err"; then
	fail "unsharp on $d: compiled its table without a memory tile"
else
	grep -q "unsharp.hl:24:1: error: the IR operation 'a table look-up (ROM)' of table 'lut' has no rule on the PE pe_base that covers it, and the design has no MEM tile to hold the table" "$tmp/err" &&
		pass "unsharp on $d: refused, its table named" || fail "unsharp on $d: $(grep -m1 error "$tmp/err")"
fi

# ---- a PE without input registers on a chip without switch-box registers
mkdir -p "$tmp/tiny"
cat >"$tmp/tiny/spec.yaml" <<EOF
interconnect: tiny_noreg
array: { cols: 3, rows: 3 }
cores:
  pe: { spec: $PWD/peak/specs/tiny.yaml }
io: { side: north }
tracks: { 16: 2, 1: 1 }
EOF
if bin/peak peak/specs/tiny.yaml -o "$tmp/tiny" -q $(printf -- '--ir %s ' peak/ir/*.yaml) && bin/canal "$tmp/tiny/spec.yaml" -o "$tmp/tiny" -q; then
	mkdir -p "$tmp/tiny/out"
	if $cgrac $t/and2.hl --design "$tmp/tiny" -o "$tmp/tiny/out" 2>"$tmp/err"; then
		fail "and2 on tiny_noreg: compiled without any register"
	else
		grep -q "error: net 'io0.io2f_16' needs 1 register before pe[0-9]*_and.[A-Z] and the design has none for it: its 16-bit routing network has no pipeline registers, and no rule of the PE tiny passes a 16-bit value through the PE's input register" "$tmp/err" &&
			pass "and2 on tiny_noreg: refused, the net and what it lacks named" ||
			fail "and2 on tiny_noreg: $(grep -m1 error "$tmp/err")"
		[ -z "$(ls -A "$tmp/tiny/out")" ] && pass "and2 on tiny_noreg: nothing written" ||
			fail "and2 on tiny_noreg: files written"
	fi
	# a division by 3 needs a multiply-high and a shift, which tiny has not
	if $cgrac $t/div3.hl --design "$tmp/tiny" -o "$tmp/tiny/out" 2>"$tmp/err"; then
		fail "div3 on tiny_noreg: compiled on a PE without a shift or a multiply-high"
	else
		grep -q "div3.hl:6:1: error: the IR operation 'lshr' has no rule on the PE tiny that covers it" "$tmp/err" &&
			pass "div3 on tiny_noreg: refused, naming the operation the PE lacks" ||
			fail "div3 on tiny_noreg: $(grep -m1 error "$tmp/err")"
	fi
else
	fail "tiny_noreg: not generated"
fi

# ---- a 32-bit PE beside the 16-bit memory tile
mkdir -p "$tmp/w32"
sed 's/Data: bits(16)/Data: bits(32)/; s/^pe: pe_lite/pe: pe_w32/' peak/specs/pe_lite.yaml >"$tmp/w32/pe_w32.yaml"
cat >"$tmp/w32/spec.yaml" <<EOF
interconnect: w32
array: { cols: 4, rows: 2 }
cores:
  pe: { spec: $tmp/w32/pe_w32.yaml }
  mem: { spec: $PWD/lake/specs/pub.yaml, columns: { every: 4, first: 3 } }
io: { side: north }
tracks: { 32: 2, 16: 2, 1: 1 }
registers: { switchbox_outputs: true }
EOF
if bin/peak "$tmp/w32/pe_w32.yaml" -o "$tmp/w32" -q $(printf -- '--ir %s ' peak/ir/*.yaml) && bin/lake lake/specs/pub.yaml -o "$tmp/w32" -q &&
	bin/canal "$tmp/w32/spec.yaml" -o "$tmp/w32" -q; then
	mkdir -p "$tmp/w32/out"
	if $cgrac apps/upsample/upsample.hl --design "$tmp/w32" -o "$tmp/w32/out" 2>"$tmp/err"; then
		fail "upsample on w32: compiled across two word widths"
	else
		grep -q "error: the design's PE pe_w32 computes on 32-bit words and its memory tile pub stores 16-bit words: the compiler needs one word width for both" "$tmp/err" &&
			pass "upsample on w32: refused, both word widths named" || fail "upsample on w32: $(grep -m1 error "$tmp/err")"
	fi
else
	fail "w32: not generated"
fi

# ---- one 16-bit track: an application that needs more is refused naming the tracks
mkdir -p "$tmp/t1/out"
cp rtl_out/cgra_6x5_noreg/pe_base.* rtl_out/cgra_6x5_noreg/pub.* "$tmp/t1/"
cat >"$tmp/t1/spec.yaml" <<EOF
interconnect: one_track
array: { cols: 6, rows: 6 }
cores:
  pe: { spec: $PWD/peak/specs/pe_base.yaml }
  mem: { spec: $PWD/lake/specs/pub.yaml, columns: { every: 6, first: 5 } }
io: { side: north }
tracks: { 16: 1, 1: 1 }
registers: { switchbox_outputs: true }
EOF
if bin/canal "$tmp/t1/spec.yaml" -o "$tmp/t1" -q; then
	if $cgrac apps/gaussian/gaussian.hl --design "$tmp/t1" -o "$tmp/t1/out" 2>"$tmp/err"; then
		fail "gaussian on one_track: routed on one track"
	else
		grep -q "error: the application cannot be routed on one_track: too few 16-bit tracks for its placement, [0-9]* routing nodes still carrying two nets or more after 50 iterations (the first sb16_x[0-9]*_y[0-9]*_[NESW]_[a-z]*_t0, used by [0-9]* nets: [^;]*; the router's report is above)" "$tmp/err" &&
			pass "gaussian on one_track: refused, the tracks and the first node's nets named" || fail "gaussian on one_track: $(grep -m1 error "$tmp/err")"
		[ -z "$(ls -A "$tmp/t1/out")" ] && pass "gaussian on one_track: nothing written" ||
			fail "gaussian on one_track: files written"
	fi
else
	fail "one_track: not generated"
fi

suite_end "legal chips"
