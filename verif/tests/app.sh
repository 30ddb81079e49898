#!/usr/bin/env bash
# The co-simulation of applications (make sim, verif/sim.sh, bin/verif app,
# vsim's drive/record/run) on hand-made applications: bin/verif cases builds
# them from the design's collateral alone (routes searched in routing.graph,
# PE instructions from the PE's rules, collateral/bitstream.h) with an io.yaml in
# the compiler's format and golden images computed from what each computes.
# Each must come out bit-exact: an input routed to an output, one and two PEs,
# switch-box pipeline registers (the output stream later by as many cycles,
# and wrong one cycle earlier or later), colour channels sharing a port,
# loop bounds, offsets, divisions and a negative stride, the 1-bit network.
# Then what must fail, and how: a golden image wrong in one pixel (the pixel,
# its cycle and port named), malformed io.yaml files (file:line:col), a
# missing bitstream, a missing design or application, bad stream files for
# vsim; a waveform with TRACE=1; the generator deterministic and clean under
# ASan+UBSan.
#   usage: verif/tests/app.sh [DESIGN]   (default cgra_4x4; its models are built if needed)
set -u
cd "$(dirname "$0")/../.."
. scripts/suite_lib.sh || exit 1
d=${1:-cgra_4x4}
verif=bin/verif san=${VERIF_SAN:-build/san/bin/verif}
suite_tmp
cases=(identity twice affine pipeline rgb resample bits)

# sim CASE [ENV...]: verif/sim.sh on the case's folder; output in $tmp/out, status in $status
sim() {
	local c=$1
	shift
	env APP_DIR="$tmp/c/$c" "$@" bash verif/sim.sh "$d" "$c" >"$tmp/out" 2>&1
	status=$?
}

# expect_fail WHAT TEXT CASE: the case fails and its output holds TEXT
expect_fail() {
	sim "$3"
	if [ "$status" -eq 0 ]; then
		fail "$1: exit status 0"
	elif grep -qF -- "$2" "$tmp/out"; then
		pass "$1: $(grep -F -- "$2" "$tmp/out" | head -1 | sed 's|^[^ ]*/||')"
	else
		fail "$1: expected '$2', got: $(head -5 "$tmp/out")"
	fi
}

# edit CASE SED: a copy of the case's io.yaml changed by SED, as the case "bad"
edit() {
	rm -rf "$tmp/c/bad" && cp -r "$tmp/c/$1" "$tmp/c/bad"
	rm -rf "$tmp/c/bad/sim" "$tmp/c/bad/sim.log" "$tmp/c/bad"/output.*
	mv "$tmp/c/bad/$1.io.yaml" "$tmp/c/bad/bad.io.yaml"
	sed -i "$2" "$tmp/c/bad/bad.io.yaml"
}

# ---- tools ----
if $verif --help | grep -q 'verif app IO_YAML' && bash verif/sim.sh --help | grep -q 'TRACE=1'; then
	pass "verif --help and verif/sim.sh --help describe the co-simulation"
else
	fail "verif --help or verif/sim.sh --help"
fi
[ -f "rtl_out/$d/design.yaml" ] || bash scripts/rtl.sh "$d" >/dev/null 2>&1
if ! $verif cases "rtl_out/$d" -o "$tmp/c" >"$tmp/cases.log" 2>&1; then
	cat "$tmp/cases.log"
	fail "$d: bin/verif cases fails"
	suite_end "app.sh"
	exit 1
fi
$verif cases "rtl_out/$d" -o "$tmp/again" >/dev/null 2>&1
if diff -r "$tmp/c" "$tmp/again" >/dev/null; then
	pass "$d: bin/verif cases is deterministic ($(ls "$tmp/c" | wc -l) cases)"
else
	fail "$d: bin/verif cases is not deterministic"
fi
if [ -x "$san" ]; then
	if $san cases "rtl_out/$d" -o "$tmp/san" >/dev/null 2>"$tmp/san.err" && diff -r "$tmp/c" "$tmp/san" >/dev/null; then
		pass "$d: bin/verif cases under ASan+UBSan writes the same files"
	else
		head -20 "$tmp/san.err"
		fail "$d: bin/verif cases under ASan+UBSan"
	fi
fi

# ---- every case bit-exact ----
for c in "${cases[@]}"; do
	if [ ! -f "$tmp/c/$c/$c.io.yaml" ]; then
		fail "$d: no case $c ($(grep "$c" "$tmp/cases.log"))"
		continue
	fi
	sim "$c"
	ext=$(ls "$tmp/c/$c" | sed -n 's/^golden\.//p')
	if [ "$status" -eq 0 ] && grep -q "^sim $c on $d: [0-9]* pixels bit-exact" "$tmp/out" &&
		cmp -s "$tmp/c/$c/golden.$ext" "$tmp/c/$c/output.$ext" && grep -q 'bit-exact' "$tmp/c/$c/sim.log"; then
		pass "$d: $c ($(sed -n 's/^# Written by bin\/verif cases .*"Applications"): \(.*\)\.$/\1/p' "$tmp/c/$c/$c.io.yaml")): $(tail -1 "$tmp/out")"
	else
		cat "$tmp/out"
		fail "$d: $c is not bit-exact"
	fi
done

# the commands vsim ran are kept and run again by hand
model=build/verilator/$d-noprobes/vsim
if (cd "$tmp/c/identity/sim" && "$OLDPWD/$model" sim.cmd -q) && cmp -s "$tmp/c/identity/sim/in_io_in_x0_16.hex" \
	<(head -n "$(wc -l <"$tmp/c/identity/sim/in_io_in_x0_16.hex")" "$tmp/c/identity/sim/out_io_out_x1_16.hex"); then
	pass "$d: identity: sim/sim.cmd runs again, the output port recorded the input stream"
else
	fail "$d: identity: sim/sim.cmd does not run again or the recorded output differs from the input"
fi

# ---- the pipeline registers: one cycle off either way fails ----
start=$(sed -n '/name: output/,$ s/^    start: //p' "$tmp/c/pipeline/pipeline.io.yaml")
for off in -1 1; do
	edit pipeline "/name: output/,\$ s/^    start: .*/    start: $((start + off))/"
	expect_fail "$d: pipeline output stream starting at cycle $((start + off)) instead of $start" \
		"FAILED: 192 of 192 pixels differ" bad
done

# ---- a golden image wrong in one pixel ----
edit twice ''
g=$tmp/c/bad/golden.pgm
off=$(($(head -3 "$g" | wc -c) + 2 * (5 + 16 * 3) + 1))   # pixel (5, 3), its low byte
byte=$(od -An -tu1 -j "$off" -N1 "$g" | tr -d ' ')
printf "$(printf '\\%03o' $((byte ^ 1)))" | dd of="$g" bs=1 seek="$off" conv=notrunc status=none
sim bad
if [ "$status" -eq 1 ] && grep -q "FAILED: 1 of 192 pixels differ" "$tmp/out" &&
	grep -q "pixel (5, 3) of golden.pgm: expected .*, got .*, cycle 53 on io_out_x1_16 (stream 'output')" "$tmp/out" &&
	grep -q "pixel (5, 3)" "$tmp/c/bad/sim.log" && [ -f "$tmp/c/bad/output.pgm" ]; then
	pass "$d: a golden image wrong in one pixel: $(grep 'pixel (5, 3)' "$tmp/out")"
else
	cat "$tmp/out"
	fail "$d: a golden image wrong in one pixel is not reported as such"
fi

# ---- malformed io.yaml files: file:line:col ----
# bad_yaml WHAT SED TEXT: the identity case's io.yaml changed by SED fails with TEXT at a position
bad_yaml() {
	edit identity "$2"
	sim bad
	if [ "$status" -eq 0 ]; then
		fail "io.yaml with $1: exit status 0"
	elif grep -qE "bad\.io\.yaml:[0-9]+:[0-9]+: error: .*$3" "$tmp/out"; then
		pass "io.yaml with $1: $(grep -E "bad\.io\.yaml:[0-9]+:[0-9]+: error: .*$3" "$tmp/out" | head -1 | sed 's|^[^ ]*/||')"
	else
		fail "io.yaml with $1: expected '$3' at a position, got: $(head -5 "$tmp/out")"
	fi
}
bad_yaml "a division by 0" 's/div: 1 }/div: 0 }/' "'div' is 0, out of range"
bad_yaml "broken YAML" '0,/^  - name: input/ s/^  - name: input/  - name: [input/' ""
bad_yaml "an unknown key" 's/^    width: 16$/    widht: 16/' "widht"
bad_yaml "a port the design lacks" 's/io_in_x0_16/io_in_x9_16/' "has no port io_in_x9_16"
bad_yaml "an output port as input" 's/port: io_in_x0_16/port: io_out_x0_16/' "is not an input port"
bad_yaml "a wrong width" '0,/width: 16/ s/width: 16/width: 8/' "port io_in_x0_16 is 16 bits wide"
bad_yaml "dims that are not the image's" '0,/dims: \[16, 12\]/ s/dims: \[16, 12\]/dims: [12, 16]/' "is 16 x 12"
bad_yaml "a point outside the image" '0,/coef: \[1, 0\], c: 0/ s/coef: \[1, 0\], c: 0/coef: [1, 0], c: 1/' \
	"coordinate 16 in dimension 0"
bad_yaml "too few cycles" 's/^cycles: .*/cycles: 100/' "more points than the run's 100 cycles"
bad_yaml "two points in one cycle" '0,/stride: 16/ s/stride: 16/stride: 8/' "as an earlier point"
bad_yaml "another design" 's/^design: .*/design: cgra_9x9/' "compiled for 'cgra_9x9'"
bad_yaml "a missing bitstream" 's/^bitstream: .*/bitstream: nowhere.bs/' "cannot read the bitstream"
bad_yaml "a missing golden image" 's/image: golden.pgm/image: nothing.pgm/' "cannot read the golden image"
bad_yaml "a pixel written by no output stream" '/name: output/,$ s/extent: 12/extent: 11/' \
	"of the 192 pixels of 'golden.pgm' are written by no output stream, the first \\(0, 11\\)"
bad_yaml "a shift without runs" '0,/coef: \[1, 0\], c: 0/ s/coef: \[1, 0\], c: 0/coef: [1, 0], shift: [1], c: 0/' \
	"1 shifts; 'runs' has 0 loops"
bad_yaml "a run whose shift moves a point outside the image" \
	's/^cycles: \(.*\)/cycles: \1\nruns:\n  - { loop: xo, extent: 2 }/; 0,/coef: \[1, 0\], c: 0/ s/coef: \[1, 0\], c: 0/coef: [1, 0], shift: [1], c: 0/' \
	"point \\(i_0 = 15, i_1 = 0\\) of run 1 has coordinate 16 in dimension 0"
bad_yaml "runs of no loop" 's/^cycles: \(.*\)/cycles: \1\nruns: []/' "0 loops; 1 to 4"
bad_yaml "a run loop beyond the cycle limit" 's/^cycles: \(.*\)/cycles: \1\nruns:\n  - { loop: a, extent: 2 }\n  - { loop: b, extent: 1000000000 }/' \
	"'extent' is 1000000000"
bad_yaml "too many cycles in all" 's/^cycles: \(.*\)/cycles: \1\nruns:\n  - { loop: a, extent: 100000000 }/' \
	"more than 100000000 cycles in all"
edit rgb 's/name: green_in/name: red_in/'
expect_fail "io.yaml with two streams of one name" "a second stream named 'red_in'" bad
edit rgb '/name: green_in/,/start/ s/start: .*/start: 5/'
expect_fail "io.yaml with two input streams in one port's cycle" "drives io_in_x0_16 in cycle 5, as stream 'red_in' does" bad
edit rgb '/name: green_out/,/start/ s/value: 1/value: 0/'
expect_fail "io.yaml with a pixel written twice" "is written twice: by stream 'red_out'" bad
if [ -z "$(ls "$tmp/c/bad" | grep -E '^(output\.|sim\.log|sim$|sim\.tmp)')" ]; then
	pass "a failed check writes nothing (no output, sim.log or sim/)"
else
	fail "a failed check leaves $(ls "$tmp/c/bad" | grep -E '^(output|sim)' | tr '\n' ' ')"
fi

# ---- missing design, application, bitstream ----
rm -f "$tmp/c/bad/bad.bs"
edit identity 's/^bitstream: .*/bitstream: bad.bs/'
expect_fail "a missing bitstream" "error: cannot read the bitstream" bad
if APP_DIR=$tmp/c/identity bash verif/sim.sh "${d}_nothing" identity >"$tmp/out" 2>&1; then
	fail "a missing design: exit status 0"
elif grep -q "run make rtl DESIGN=${d}_nothing" "$tmp/out"; then
	pass "a missing design: $(cat "$tmp/out")"
else
	fail "a missing design: $(cat "$tmp/out")"
fi
if bash verif/sim.sh "$d" no_such_app >"$tmp/out" 2>&1; then
	fail "a missing application: exit status 0"
elif grep -q "run make app APP=no_such_app DESIGN=$d" "$tmp/out"; then
	pass "a missing application: $(cat "$tmp/out")"
else
	fail "a missing application: $(cat "$tmp/out")"
fi

# ---- vsim's streams ----
vrun() { printf '%s\n' "$@" >"$tmp/v.cmd"; "$model" "$tmp/v.cmd"; }
printf '1\n2\nzz\n' >"$tmp/bad.hex"
printf '1\n10000\n' >"$tmp/wide.hex"
# vsim_error WHAT TEXT COMMAND...: fails with TEXT
vsim_error() {
	local what=$1 text=$2
	shift 2
	if vrun "$@" >"$tmp/out" 2>&1; then
		fail "vsim $what: exit status 0"
	elif grep -qF -- "$text" "$tmp/out"; then
		pass "vsim $what: $(grep -F -- "$text" "$tmp/out" | head -1 | sed 's|^[^ ]*/||')"
	else
		fail "vsim $what: expected '$text', got: $(head -3 "$tmp/out")"
	fi
}
vsim_error "a stream file with a bad value" "bad.hex:3:1: error: 'zz' is not a hexadecimal number" "drive io_in_x0_16 bad.hex"
vsim_error "a value too wide for its port" "wide.hex:2:1: error: '10000' does not fit the 16-bit port" "drive io_in_x0_16 wide.hex"
vsim_error "driving an output" "v.cmd:1:7: error: 'io_out_x1_16' is not an input" "drive io_out_x1_16 bad.hex"
vsim_error "a missing stream file" "v.cmd:1:19: error: cannot read" "drive io_in_x0_16 none.hex"
vsim_error "one file recorded twice" "v.cmd:2:21: error:" "record io_out_x1_16 r.hex" "record io_out_x0_16 r.hex"
if "$model" "$tmp/v.cmd" --trace "$tmp/w.vcd" >"$tmp/out" 2>&1; then
	fail "vsim --trace on a model without waveforms: exit status 0"
elif grep -q "built without waveforms (verif/build.sh --trace)" "$tmp/out" && [ ! -e "$tmp/w.vcd" ]; then
	pass "vsim --trace on a model without waveforms: $(cat "$tmp/out")"
else
	fail "vsim --trace on a model without waveforms: $(cat "$tmp/out")"
fi
rm -f "$tmp/r.hex"
vsim_error "an error after a record" "v.cmd:3:1: error: unknown command" "record io_out_x1_16 r.hex" "run 3" "poke"
if [ ! -e "$tmp/r.hex" ] && [ ! -e "$tmp/r.hex.tmp" ]; then
	pass "vsim writes no recorded file when the command file has an error"
else
	fail "vsim leaves a recorded file after an error"
fi

# ---- a waveform ----
sim identity TRACE=1
vcd=$tmp/c/identity/identity.vcd
if [ "$status" -eq 0 ] && grep -q 'bit-exact' "$tmp/out" && [ -s "$vcd" ] &&
	grep -q '\$var wire 16 .* io_in_x0_16 ' "$vcd" && grep -q '\$var wire 16 .* sb16_E_out_t0 ' "$vcd" &&
	[ ! -e "$vcd.tmp" ]; then
	pass "$d: TRACE=1 writes $(basename "$vcd") ($(grep -c '\$var' "$vcd") signals, $(grep -c '^#' "$vcd") time points): $(tail -1 "$tmp/out")"
else
	cat "$tmp/out"
	fail "$d: TRACE=1 writes no waveform"
fi

# ---- the driver under ASan+UBSan ----
if [ -x "$san" ]; then
	if $san app "$tmp/c/rgb/rgb.io.yaml" --design "rtl_out/$d" --vsim "$model" -q >"$tmp/out" 2>&1 &&
		grep -q 'bit-exact' "$tmp/out"; then
		pass "$d: bin/verif app under ASan+UBSan: $(tail -1 "$tmp/out")"
	else
		cat "$tmp/out"
		fail "$d: bin/verif app under ASan+UBSan"
	fi
	edit identity 's/div: 1 }/div: 0 }/; s/^cycles: .*/cycles: 0/; s/io_in_x0_16/io_in_x9_16/'
	if ! $san app "$tmp/c/bad/bad.io.yaml" --design "rtl_out/$d" --vsim "$model" >"$tmp/out" 2>&1 &&
		[ "$(grep -c 'error:' "$tmp/out")" -ge 3 ] && ! grep -q 'Sanitizer\|runtime error' "$tmp/out"; then
		pass "$d: bin/verif app under ASan+UBSan reports every error of a bad io.yaml ($(grep -c 'error:' "$tmp/out"))"
	else
		cat "$tmp/out"
		fail "$d: bin/verif app under ASan+UBSan on a bad io.yaml"
	fi
fi
suite_end "app.sh"
