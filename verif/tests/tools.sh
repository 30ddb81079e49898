#!/usr/bin/env bash
# The verif tools themselves: bin/verif's usage and errors (a broken
# design.yaml reported at its position, a --seed not a number in range), the
# connectivity generator under ASan+UBSan giving byte-identical output to the
# optimized build (and twice the same: deterministic), and the harness: its
# command errors (file:line:col), a configuration read-back, and an
# expectation changed by hand reported as exactly one mismatch at its line.
#   usage: verif/tests/tools.sh [DESIGN]   (default cgra_4x4; its model is built if needed)
set -u
cd "$(dirname "$0")/../.."
. scripts/suite_lib.sh || exit 1
d=${1:-cgra_4x4}
verif=bin/verif san=${VERIF_SAN:-build/san/bin/verif}
suite_tmp

# expect_error WHAT TEXT COMMAND...: COMMAND fails and its stderr holds TEXT
expect_error() {
	local what=$1 text=$2
	shift 2
	if "$@" >"$tmp/out" 2>"$tmp/err"; then
		fail "$what: exit status 0"
	elif grep -qF -- "$text" "$tmp/err"; then
		pass "$what: $(grep -F -- "$text" "$tmp/err" | head -1)"
	else
		fail "$what: expected '$text', got: $(head -3 "$tmp/err")"
	fi
}

# ---- bin/verif ----
if $verif --help | grep -q 'usage: verif harness'; then pass "verif --help"; else fail "verif --help"; fi
expect_error "verif without a command" "usage: verif harness" $verif
expect_error "verif on a folder without a design" "cannot read the design in $tmp/none" $verif conn "$tmp/none" -o "$tmp/x"
[ -f "rtl_out/$d/design.yaml" ] || bash scripts/rtl.sh "$d" >/dev/null 2>&1
cp -r "rtl_out/$d" "$tmp/bad"
sed -i 's/^array: { cols: \([0-9]*\), rows: \([0-9]*\) }/array: { cols: \1, rows: many }/' "$tmp/bad/design.yaml"
expect_error "a broken design.yaml is reported at its position" "$tmp/bad/design.yaml:3:" $verif conn "$tmp/bad" -o "$tmp/x"
cp "rtl_out/$d/design.yaml" "$tmp/bad/design.yaml"
sed -i '1,/^node/{/^node/s/^node 0 sb_in/node 0 sb_in 99/}' "$tmp/bad/routing.graph"
expect_error "a broken routing.graph is reported at its position" "$tmp/bad/routing.graph:" $verif conn "$tmp/bad" -o "$tmp/x"

# numeric options: the whole value a number in range, else exit status 2
for v in 1e5 -1 18446744073709551616 ''; do
	$verif conn "rtl_out/$d" -o "$tmp/seed" --seed "$v" >/dev/null 2>"$tmp/err"
	status=$?
	want="verif: --seed expects a number from 0 to 18446744073709551615, got '$v'"
	if [ "$status" -eq 2 ] && [ "$(cat "$tmp/err")" = "$want" ] && [ ! -e "$tmp/seed" ]; then
		pass "verif conn --seed '$v': $want"
	else
		fail "verif conn --seed '$v': exit status $status, $(head -3 "$tmp/err")"
	fi
done

# ---- the generator: sanitizers, determinism ----
if $verif conn "rtl_out/$d" -o "$tmp/a" -q >"$tmp/a.log" && $san conn "rtl_out/$d" -o "$tmp/b" -q >"$tmp/b.log" 2>"$tmp/b.err"; then
	if diff -r "$tmp/a" "$tmp/b" >/dev/null; then
		pass "$d: verif conn under ASan+UBSan writes the same $(ls "$tmp/a" | wc -l) files as the optimized build"
	else
		fail "$d: verif conn under ASan+UBSan writes other files"
	fi
else
	cat "$tmp/b.err" | head -20
	fail "$d: verif conn fails (or the sanitizers report) on $d"
fi
$verif conn "rtl_out/$d" -o "$tmp/c" -q >/dev/null
if diff -r "$tmp/a" "$tmp/c" >/dev/null; then pass "$d: verif conn is deterministic"; else fail "$d: verif conn is not deterministic"; fi
# collateral that does not hold together is refused where it is read (collateral/ic), not an internal error later
cp -r "rtl_out/$d" "$tmp/stale"
sed -i 's/ x1_y1_data0$/ x1_y1_dataX/' "$tmp/stale/routing.graph"
if $verif conn "$tmp/stale" -o "$tmp/stale_out" -q >/dev/null 2>"$tmp/stale.err"; then
	fail "$d: verif conn accepts a routing graph whose PE port was renamed by hand"
elif grep -q "^$tmp/stale/routing.graph: error: no port_in node 'x1_y1_data0' for input data0 of the PE" "$tmp/stale.err" &&
	! grep -q "internal error" "$tmp/stale.err" && [ ! -e "$tmp/stale_out" ]; then
	pass "$d: verif conn on a routing graph with a PE port renamed: $(head -1 "$tmp/stale.err" | sed "s|$tmp/||")"
else
	cat "$tmp/stale.err"
	fail "$d: verif conn on a routing graph with a PE port renamed: not the collateral's message"
fi
# the bitstreams and conn.cmd are one set: a conn.cmd that cannot be replaced leaves no bitstream
mkdir -p "$tmp/blocked/conn.cmd"
if $verif conn "rtl_out/$d" -o "$tmp/blocked" -q >/dev/null 2>"$tmp/blocked.err"; then
	fail "$d: verif conn succeeds though conn.cmd cannot be written"
elif grep -q "error: $tmp/blocked/conn.cmd: cannot replace" "$tmp/blocked.err" && [ "$(ls "$tmp/blocked")" = conn.cmd ]; then
	pass "$d: verif conn into a folder whose conn.cmd cannot be replaced: $(head -1 "$tmp/blocked.err"), no bitstream left"
else
	cat "$tmp/blocked.err"; ls "$tmp/blocked"
	fail "$d: verif conn with conn.cmd blocked: no message or files left"
fi
if $san harness "rtl_out/$d" -o "$tmp/h" >"$tmp/h.log" 2>&1 && grep -q '^VERIF_PROBE(' "$tmp/h/verif_ports.h" &&
	grep -q "^hier_block -module \"${d}_pe_ic\"" "$tmp/h/hier.vlt"; then
	pass "$d: verif harness under ASan+UBSan: $(grep -c '^VERIF_PROBE(' "$tmp/h/verif_ports.h") probes, $(grep -c '^hier_block' "$tmp/h/hier.vlt") hierarchical blocks"
else
	cat "$tmp/h.log"
	fail "$d: verif harness fails under ASan+UBSan"
fi

# ---- the harness ----
if ! bash verif/build.sh "rtl_out/$d"; then
	fail "$d: the model does not build"
else
	vsim=build/verilator/$d/vsim
	cp "$tmp/a"/*.bs "$tmp/"
	run() { printf '%s\n' "$@" >"$tmp/t.cmd"; $vsim "$tmp/t.cmd"; }
	expect_error "an unknown command" "t.cmd:2:1: error: unknown command 'poke'" run reset "poke 1"
	expect_error "a number that does not fit" "t.cmd:1:20: error: '0x10000' is not a number of 16 bits" run "set io_in_x0_16    0x10000"
	expect_error "an unknown probe" "t.cmd:1:8: error: no port or probe named 'nowhere'" run "expect nowhere 0"
	expect_error "setting an output" "t.cmd:1:5: error: 'io_out_x0_16' is not an input of the array" run "set io_out_x0_16 1"
	expect_error "a missing operand" "t.cmd:1:11: error: 'write' needs 2 operands" run "write 0080"
	expect_error "a missing bitstream" "error: cannot read bitstream" run "bitstream nothing.bs"
	first=$(head -1 "$tmp/cfg001.bs")
	addr=${first% *} data=${first#* }
	if run reset "bitstream cfg001.bs" "read $addr $data" >"$tmp/out" 2>&1 && grep -q ', 0 mismatches' "$tmp/out"; then
		pass "$d: a register of the bitstream reads back ($addr = $data)"
	else
		fail "$d: the read-back of $addr differs: $(cat "$tmp/out")"
	fi
	if run reset "bitstream cfg001.bs" "read $addr 0x$(printf %08x $((0x$data ^ 1)))" >"$tmp/out" 2>&1; then
		fail "$d: a wrong read-back expectation passes"
	elif grep -q "t.cmd:3: mismatch: config_rdata at $addr" "$tmp/out"; then
		pass "$d: a wrong read-back expectation is a mismatch at its line"
	else
		fail "$d: a wrong read-back expectation: $(cat "$tmp/out")"
	fi
	# one expectation of the connectivity bench changed: exactly one mismatch, at that line
	line=$(grep -n '^expect [a-z]*16_[A-Za-z0-9_]* 0x' "$tmp/a/conn.cmd" | sed -n '500p')
	n=${line%%:*} node=$(echo "$line" | cut -d' ' -f2) value=$(echo "$line" | cut -d' ' -f3)
	sed "${n}s/ $value\$/ 0x$(printf %x $((value ^ 0x4)))/" "$tmp/a/conn.cmd" >"$tmp/a/broken.cmd"
	$vsim "$tmp/a/broken.cmd" >"$tmp/out" 2>&1
	status=$?
	if [ "$status" -eq 1 ] && grep -q "mismatch: $node is" "$tmp/out"; then
		pass "$d: an expectation changed by hand is reported: $(grep -m1 "mismatch: $node" "$tmp/out")"
	else
		fail "$d: an expectation changed by hand (line $n, $node) is not reported: $(tail -2 "$tmp/out")"
	fi
fi
suite_end "verif tools"
