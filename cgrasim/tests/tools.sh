#!/usr/bin/env bash
# bin/cgrasim as a tool (cgrasim/README.md): usage, an application bit-exact on
# cgra_4x4 with its waveform and activity, byte-identical outputs from two runs, and
# bad input, each with its message and nothing written: a bitstream with an address no
# register has, with a word that is not hex, with bits no field holds, a bitstream of
# another design, an io.yaml port that is no IO port, an input image of the wrong
# size, a PE normal form that does not match the PE's info, a PE whose instruction is
# wider than its registers, errors in command files, and a combinational loop (an
# error with --strict-loops, which applications use). The same under ASan+UBSan.
#   usage: cgrasim/tests/tools.sh     (CGRASIM=... picks the binary; needs bin/cgrac,
#                                       bin/verif and rtl_out/cgra_4x4: make test-cgrasim)
set -u
cd "$(dirname "$0")/../.." || exit 1
. scripts/suite_lib.sh
suite_tmp
sim=${CGRASIM:-bin/cgrasim}
d=cgra_4x4
rtl=rtl_out/$d

# expect_error NAME TEXT DIR COMMAND...: the command fails, says TEXT, and leaves no
# output image and no sim.log in DIR.
expect_error() {
	local name=$1 text=$2 dir=$3
	shift 3
	if "$@" >"$tmp/out" 2>&1; then
		fail "$name: exit status 0"
	elif ! grep -qF -- "$text" "$tmp/out"; then
		fail "$name: expected '$text', got: $(head -3 "$tmp/out")"
	elif [ -n "$dir" ] && ls "$dir"/output.* "$dir"/sim.log >/dev/null 2>&1; then
		fail "$name: outputs written: $(ls "$dir")"
	else
		pass "$name: $(grep -F -- "$text" "$tmp/out" | head -1 | sed "s|$tmp/||")"
	fi
}

# ---- usage
if $sim --help | grep -q 'cgrasim IO_YAML' && $sim --help | grep -q 'cgrasim run DESIGN_DIR COMMANDS'; then
	pass "cgrasim --help describes both uses"
else
	fail "cgrasim --help"
fi
$sim --no-such-option >/dev/null 2>&1
[ $? -eq 2 ] && pass "an unknown option: exit status 2" || fail "an unknown option: not exit status 2"
$sim run "$rtl" >/dev/null 2>&1
[ $? -eq 2 ] && pass "run without a command file: exit status 2" || fail "run without a command file"

# ---- an application, its waveform and activity, twice
a=brighten_blur
o=$tmp/$a
mkdir -p "$o"
if ! bin/cgrac apps/$a/$a.hl -q --golden "$o" || ! bin/cgrac apps/$a/$a.hl -q --design "$rtl" -o "$o"; then
	fail "$a does not compile"
	suite_end "cgrasim tools"
	exit
fi
cp -r "$o" "$tmp/good"
if $sim "$o/$a.io.yaml" --design "$rtl" --trace "$o/$a.vcd" --activity "$o/activity.yaml" >"$tmp/out" 2>&1 &&
	grep -q "pixels bit-exact" "$tmp/out"; then
	pass "$a on $d: $(tail -1 "$tmp/out")"
else
	cat "$tmp/out"
	fail "$a on $d: not bit-exact"
fi
if grep -q '^\$enddefinitions' "$o/$a.vcd" && grep -q ' x0_y0_f2io_16 \$end\|x[0-9]*_y0_f2io_16 \$end' "$o/$a.vcd" &&
	grep -q '^#2' "$o/$a.vcd"; then
	pass "$a: a waveform of the used nodes, named as in routing.graph ($(grep -c '\$var' "$o/$a.vcd") signals)"
else
	fail "$a: no waveform, or not of routing.graph's nodes"
fi
if grep -q 'kind: PE, busy: [1-9]' "$o/activity.yaml" && grep -q 'kind: MEM' "$o/activity.yaml"; then
	pass "$a: activity of $(grep -c 'kind:' "$o/activity.yaml") used tiles"
else
	fail "$a: no activity of PE and MEM tiles"
fi
mkdir -p "$tmp/again"
if $sim "$o/$a.io.yaml" --design "$rtl" -o "$tmp/again" --trace "$tmp/again/$a.vcd" --activity "$tmp/again/activity.yaml" \
	>/dev/null 2>&1 && cmp -s "$o/output.pgm" "$tmp/again/output.pgm" && cmp -s "$o/$a.vcd" "$tmp/again/$a.vcd" &&
	cmp -s "$o/activity.yaml" "$tmp/again/activity.yaml" && cmp -s "$o/sim/out_io_out_x1_16.hex" "$tmp/again/sim/out_io_out_x1_16.hex"; then
	pass "$a: a second run writes the same output, streams, waveform and activity byte for byte"
else
	fail "$a: a second run differs"
fi

# ---- bad bitstreams, images and io.yaml files (each in a fresh copy)
fresh() {
	rm -rf "$tmp/bad"
	cp -r "$tmp/good" "$tmp/bad"
	rm -f "$tmp/bad"/output.* "$tmp/bad/sim.log"
}
fresh
echo "0f0f0f0f 00000001" >>"$tmp/bad/$a.bs"
expect_error "a write to an address no register has" "$a.bs:$(wc -l <"$tmp/bad/$a.bs"):1: error: address 0f0f0f0f is no configuration register" \
	"$tmp/bad" $sim "$tmp/bad/$a.io.yaml" --design "$rtl"
fresh
sed -i '3s/ .*/ 0000zz00/' "$tmp/bad/$a.bs"
expect_error "a data word that is not hex" "$a.bs:3:10: error: '0000zz00' is not a 32-bit word" "$tmp/bad" \
	$sim "$tmp/bad/$a.io.yaml" --design "$rtl"
fresh
reg=$(awk '$1 == "field" && $5 == "mux" && $3 == 0 && $4 == 0 { print $2; exit }' "$rtl/config.map")
if [ -n "$reg" ] && ! awk -v r="$reg" '$1 == "field" && $2 == r && $3 <= 31 && $4 >= 31 { f = 1 } END { exit !f }' "$rtl/config.map"; then
	echo "$reg 80000000" >>"$tmp/bad/$a.bs"
	expect_error "data in bits no field holds" "error: data 80000000 sets bits 80000000 that no field of register $reg holds" \
		"$tmp/bad" $sim "$tmp/bad/$a.io.yaml" --design "$rtl"
fi
fresh
b=$tmp/b12
mkdir -p "$b"
if bin/cgrac apps/gaussian/gaussian.hl -q --design rtl_out/cgra_12x12 -o "$b" 2>/dev/null; then
	cp "$b/gaussian.bs" "$tmp/bad/$a.bs"
	expect_error "a bitstream of another design (cgra_12x12)" "a bitstream for another design?" "$tmp/bad" \
		$sim "$tmp/bad/$a.io.yaml" --design "$rtl"
fi
fresh
sed -i 's/port: io_in_x[0-9]*_16/port: io_in_x9_16/' "$tmp/bad/$a.io.yaml"
expect_error "an io.yaml port that is no IO port of the design" "has no port io_in_x9_16" "$tmp/bad" \
	$sim "$tmp/bad/$a.io.yaml" --design "$rtl"
fresh
printf 'P5\n8 8\n255\n%064d' 0 >"$tmp/bad/$a.input.pgm"
expect_error "an input image of the wrong size" "error:" "$tmp/bad" $sim "$tmp/bad/$a.io.yaml" --design "$rtl"

# ---- bad collateral: the PE's normal form, the PE's instruction width
cp -r "$rtl" "$tmp/d1"
sed -i '0,/^node [0-9]* add 16 /s/^\(node [0-9]*\) add 16 /\1 add 8 /' "$tmp/d1/pe_base.nf"
fresh
expect_error "a PE normal form whose widths disagree" "pe_base.nf:" "$tmp/bad" \
	$sim "$tmp/bad/$a.io.yaml" --design "$tmp/d1"
cp -r "$rtl" "$tmp/d2"
sed -i 's/^  width: \([0-9]*\)/  width: 1\1/' "$tmp/d2/pe_base.info.yaml"
expect_error "a PE info whose instruction is wider than its registers" "error:" "$tmp/bad" \
	$sim "$tmp/bad/$a.io.yaml" --design "$tmp/d2"

# ---- command files
cmd_error() {
	local name=$1 text=$2
	shift 2
	printf '%s\n' "$@" >"$tmp/c.cmd"
	expect_error "run: $name" "$text" "" $sim run "$rtl" "$tmp/c.cmd"
}
cmd_error "an unknown command" "c.cmd:1:1: error: unknown command 'poke'" "poke"
# as in the Verilog (and vsim), a write to an address no register has changes nothing
printf 'write 0f0f0f0f 1\nread 0f0f0f0f 0\nwrite 02000001 ffffffff\nread 02000001 0001ffff\n' >"$tmp/c.cmd"
if $sim run "$rtl" "$tmp/c.cmd" -q >"$tmp/out" 2>&1; then
	pass "run: writes to no register and to bits no field holds change nothing, as in the Verilog"
else
	fail "run: writes to no register or uncovered bits: $(head -3 "$tmp/out")"
fi
cmd_error "an unknown signal" "c.cmd:1:8: error: no port or probe named 'nowhere'" "expect nowhere 1"
cmd_error "driving an output" "c.cmd:1:7: error: 'io_out_x1_16' is not an input of the array" "drive io_out_x1_16 x.hex"
cmd_error "a value too wide" "c.cmd:1:17: error: '70000' is not a number of 16 bits" "set io_in_x0_16 70000"
cmd_error "one file recorded twice" "c.cmd:2:21: error:" "record io_out_x1_16 r.hex" "record io_out_x0_16 r.hex"
printf 'zz\n' >"$tmp/bad.hex"
cmd_error "a stream file with a bad value" "bad.hex:1:1: error: 'zz' is not a hexadecimal number" "drive io_in_x0_16 $tmp/bad.hex"
cmd_error "an error after a record" "c.cmd:3:1: error: unknown command" "record io_out_x1_16 $tmp/r.hex" "run 3" "poke"
[ ! -e "$tmp/r.hex" ] && pass "run: nothing recorded is written after an error" || fail "run: a recorded file after an error"

# ---- a combinational loop: the connectivity bench's PE phases close one
conn=$tmp/conn
if bin/verif conn "$rtl" -o "$conn" -q >/dev/null; then
	$sim run "$rtl" "$conn/conn.cmd" -q >"$tmp/out" 2>&1
	if grep -q 'warning: a combinational loop in the configured array: x[0-9]*_y[0-9]*_[a-z_0-9]* -> ' "$tmp/out"; then
		pass "a configuration closing a combinational loop: $(grep -m1 'warning' "$tmp/out" | sed "s|$tmp/||")"
	else
		fail "no warning for the connectivity bench's combinational loops"
	fi
	expect_error "a combinational loop with --strict-loops" "error: a combinational loop in the configured array: x" "" \
		$sim run "$rtl" "$conn/conn.cmd" -q --strict-loops
fi

# ---- under ASan+UBSan
san=build/san/bin/cgrasim
if [ -x "$san" ] && [ -z "${CGRASIM:-}" ]; then
	fresh
	if $san "$tmp/bad/$a.io.yaml" --design "$rtl" --trace "$tmp/bad/t.vcd" --activity "$tmp/bad/a.yaml" \
		>"$tmp/out" 2>&1 && grep -q "bit-exact" "$tmp/out"; then
		pass "$a under ASan+UBSan: $(tail -1 "$tmp/out" | cut -c1-60)..."
	else
		cat "$tmp/out"
		fail "$a under ASan+UBSan"
	fi
	if [ -f "$conn/conn.cmd" ] && $san run "$rtl" "$conn/conn.cmd" -q --expect-out "$tmp/t.cmd" >"$tmp/out" 2>&1; then
		pass "the connectivity bench transcribed under ASan+UBSan"
	else
		grep -v warning "$tmp/out" | head
		fail "the connectivity bench under ASan+UBSan"
	fi
	fresh
	echo "0f0f0f0f 00000001" >>"$tmp/bad/$a.bs"
	expect_error "a bad bitstream under ASan+UBSan" "error: address 0f0f0f0f" "$tmp/bad" \
		$san "$tmp/bad/$a.io.yaml" --design "$rtl"
fi

suite_end "cgrasim tools"
