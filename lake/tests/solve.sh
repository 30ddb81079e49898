#!/usr/bin/env bash
# `lake solve` end to end: requests in both formats of lake/COLLATERAL.md
# ("Solver requests") are solved from the collateral of the shipped specs, and
# the registers replayed with `lake sim INFO --config REGS --cycles N`: every
# requested operation must appear in the trace at its cycle with its address,
# and no other operation on that port. Then the error contract (messages,
# positions, exit status, nothing written), byte-identical answers on a
# rerun, and the numeric options of sim, vectors and tb (out of range or not
# numbers: exit status 2). LAKE=... picks the binary. Last line: "solve: N passed, M failed".
set -u
cd "$(dirname "$0")/../.." || exit 1
. scripts/suite_lib.sh || exit 1
lake=${LAKE:-bin/lake}
suite_tmp
check() { if eval "$2"; then pass "$1"; else fail "$1"; fi; }

for s in pub dp regfile; do
	$lake "lake/specs/$s.yaml" -o "$tmp/$s" -q || { echo "FAIL cannot generate $s"; exit 1; }
done

# ---- the .smt2 model loads in the z3 binary and answers a query ----
if command -v z3 > /dev/null; then
	for s in pub dp regfile; do
		check "z3 -smt2 loads $s.smt2 silently" \
			'out=$(z3 -smt2 "$tmp/$s/$s.smt2" 2>&1) && [ -z "$out" ]'
	done
	# dp e0 as the 4 x 3 nest below: cycle 3 + x + 10 y; operation 5 is x = 1, y = 1
	{ cat "$tmp/dp/dp.smt2"; cat <<'EOF'
(assert (= e0_max0 #x0003)) (assert (= e0_max1 #x0002))
(assert (= e0_max2 #x0000)) (assert (= e0_max3 #x0000)) (assert (= e0_max4 #x0000)) (assert (= e0_max5 #x0000))
(assert (= e0_sched_start #x0003)) (assert (= e0_sched_stride0 #x0001)) (assert (= e0_sched_stride1 #x000a))
(check-sat)
(get-value (e0_ops (e0_cycle_at (_ bv5 97))))
EOF
	} > "$tmp/q.smt2"
	check "z3: a query on dp.smt2 gives 12 operations and cycle 14 for operation 5" \
		'z3 -smt2 "$tmp/q.smt2" | tr -d "\n " | grep -q "^sat((e0_ops#b0*1100)((e0_cycle_at(_bv597))#x000e))$"'
else
	echo "  (no z3 binary: the .smt2 is checked through the library only)"
fi

# ops TRACE PORT R|W: "cycle address" (decimal) of each read or write of PORT
# in a `lake sim` trace.
ops() {
	awk -v port="$2" -v kind="$3" '
	function hex(s,   v, i) { v = 0; for (i = 1; i <= length(s); i++) v = v * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1; return v }
	{ for (f = 2; f <= NF; f++) if (index($f, port ":") == 1) {
		split($f, p, ":")
		if (substr(p[2], kind == "R" ? 1 : 2, 1) == "1") print hex($1), hex(p[3])
	} }' "$1"
}

# want FILE DELAY: the expected "cycle address" lines of a stream file's
# events (address column COL), DELAY cycles after each firing.
want() {
	grep -v '^[[:space:]]*#' "$1" | sed 's/#.*//' | awk -v d="$2" -v col="$3" 'NF { print $1 + d, $col }'
}

# ---- a stream file: dp e0 (in0 -> sram.w), a 4 x 3 nest with comments ----
cat > "$tmp/s1.txt" <<'EOF'
# cycle address: x in 0..3 (address step 2), y in 0..2 (cycle step 10, address step 32)
3 100
4 102
5 104
6 106   # end of row 0

13 132
14 134
15 136
16 138
23 164
24 166
25 168
26 170
EOF
info=$tmp/dp/dp.info.yaml
$lake solve "$info" --ctrl e0 --stream "$tmp/s1.txt" -o "$tmp/s1.regs" 2> "$tmp/s1.err"
check "stream: solved (exit 0)" '[ $? -eq 0 ] && [ -s "$tmp/s1.regs" ]'
check "stream: summary names the events, the nest and the Z3 calls" \
	'grep -q "^lake solve: dp e0: 12 events, loop nest 4 x 3, 1 Z3 call (3 events given), [0-9.]* s -> " "$tmp/s1.err"'
check "stream: bus writes 'AAAAAAAA DDDDDDDD', tile_en last" \
	'tail -1 "$tmp/s1.regs" | grep -qx "00000000 00000001" && ! grep -qvE "^[0-9a-f]{8} [0-9a-f]{8}$" "$tmp/s1.regs"'
check "stream: the 21 registers of e0 (feature 1) and tile_en are written" \
	'[ "$(grep -c "^..01" "$tmp/s1.regs")" -eq 21 ] && [ "$(wc -l < "$tmp/s1.regs")" -eq 22 ]'
$lake sim "$info" --config "$tmp/s1.regs" --cycles 40 > "$tmp/s1.trace" 2> /dev/null
check "stream: replayed, the writes of sram.w are the requested ones" \
	'ops "$tmp/s1.trace" sram_w W | diff -q - <(want "$tmp/s1.txt" 0 2) > /dev/null'
check "stream: the read port stays idle" '[ -z "$(ops "$tmp/s1.trace" sram_r R)" ]'

# ---- an affine file: dp e1 (sram.r -> out0), the downsample of UB Fig. 5(c) ----
cat > "$tmp/a1.yaml" <<'EOF'
# an 8x8 image read at every other pixel of every other row, one word a cycle
extents: [4, 4]
schedule: { start: 20, strides: [1, 4] }
addresses:
  - { start: 0, strides: [2, 16] }
EOF
$lake solve "$info" --ctrl e1 --affine "$tmp/a1.yaml" -o "$tmp/a1.regs" -q 2> "$tmp/a1.err"
check "affine: solved quietly (exit 0, nothing on stderr)" '[ $? -eq 0 ] && [ ! -s "$tmp/a1.err" ]'
$lake sim "$info" --config "$tmp/a1.regs" --cycles 40 > "$tmp/a1.trace" 2> /dev/null
for n in $(seq 0 15); do echo "$((20 + n)) $((16 * (n / 4) + 2 * (n % 4)))"; done > "$tmp/a1.want"
check "affine: replayed, sram.r reads 0 2 4 6 16 18 ... at cycles 20..35" \
	'ops "$tmp/a1.trace" sram_r R | diff -q - "$tmp/a1.want" > /dev/null'

# ---- two addresses: pub e4 (sram.rw -> tb0.w), the write one latency later ----
cat > "$tmp/s2.txt" <<'EOF'
# cycle sram.rw tb0.w
5 7 0
7 8 1
9 9 0
11 10 1
EOF
pinfo=$tmp/pub/pub.info.yaml
$lake solve "$pinfo" --ctrl e4 --stream "$tmp/s2.txt" -o "$tmp/s2.regs" -q
check "two addresses: solved" '[ $? -eq 0 ]'
$lake sim "$pinfo" --config "$tmp/s2.regs" --cycles 20 > "$tmp/s2.trace" 2> /dev/null
check "two addresses: sram.rw reads at the requested cycles" \
	'ops "$tmp/s2.trace" sram_rw R | diff -q - <(want "$tmp/s2.txt" 0 2) > /dev/null'
check "two addresses: tb0.w writes one cycle later (sram latency 1)" \
	'ops "$tmp/s2.trace" tb0_w W | diff -q - <(want "$tmp/s2.txt" 1 3) > /dev/null'

# ---- a 64x64 line buffer port, delay 64 (4,096 events) ----
awk 'BEGIN { for (i = 0; i < 4096; i++) print i + 64, i % 128 }' > "$tmp/lb.txt"
$lake solve "$info" --ctrl e1 --stream "$tmp/lb.txt" -o "$tmp/lb.regs" 2> "$tmp/lb.err"
check "line buffer: 4096 events, nest 128 x 32" \
	'grep -q "4096 events, loop nest 128 x 32" "$tmp/lb.err"'
sed -n 's/.*), \([0-9.]*\) s ->.*/  line buffer 64x64 (4096 events): solved in \1 s/p' "$tmp/lb.err"
$lake sim "$info" --config "$tmp/lb.regs" --cycles 4170 > "$tmp/lb.trace" 2> /dev/null
check "line buffer: replayed, 4096 reads at the requested cycles and addresses" \
	'ops "$tmp/lb.trace" sram_r R | diff -q - "$tmp/lb.txt" > /dev/null'

# ---- determinism ----
$lake solve "$info" --ctrl e0 --stream "$tmp/s1.txt" -o "$tmp/s1b.regs" -q
$lake solve "$info" --ctrl e1 --affine "$tmp/a1.yaml" > "$tmp/a1b.regs" 2> /dev/null
check "determinism: byte-identical registers on a rerun (file and stdout)" \
	'cmp -s "$tmp/s1.regs" "$tmp/s1b.regs" && cmp -s "$tmp/a1.regs" "$tmp/a1b.regs"'

# ---- requests that cannot be served ----
# refused NAME INFO CTRL --stream|--affine FILE EXPECTED: exit 1, the message
# on stderr, no output file.
refused() {
	local name=$1 inf=$2 ctrl=$3 how=$4 file=$5 expect=$6
	rm -f "$tmp/out.regs"
	$lake solve "$inf" --ctrl "$ctrl" "$how" "$file" -o "$tmp/out.regs" > "$tmp/out.txt" 2> "$tmp/err.txt"
	local status=$?
	check "$name" '[ $status -eq 1 ] && grep -qF -- "$expect" "$tmp/err.txt" && [ ! -e "$tmp/out.regs" ]'
}
rinfo=$tmp/regfile/regfile.info.yaml
printf '0 0\n1 1\n2 2\n3 4\n' > "$tmp/na.txt"
refused "not affine: reason and event" "$info" e0 --stream "$tmp/na.txt" \
	"lake: cannot be configured: not an affine stream: event 3 (cycle 3, sram.w address 4)"
check "not affine: the event's line is shown" \
	'grep -q "na.txt:4:1: note: event 3" "$tmp/err.txt" && grep -q "^    4 | 3 4$" "$tmp/err.txt"'
cat > "$tmp/deep.yaml" <<'EOF'
extents: [2, 2, 2, 2, 2]
schedule: { start: 0, strides: [1, 3, 7, 15, 31] }
addresses: [ { start: 0, strides: [1, 2, 4, 8, 16] } ]
EOF
refused "too many loop levels" "$rinfo" e0 --affine "$tmp/deep.yaml" \
	"lake: cannot be configured: the stream needs 5 loop levels (extents 2 x 2 x 2 x 2 x 2, innermost first); the controllers have 4"
awk 'BEGIN { for (i = 0; i < 300; i++) print i, i % 32 }' > "$tmp/long.txt"
refused "counter overflow" "$rinfo" e0 --stream "$tmp/long.txt" \
	"lake: cannot be configured: event 256: cycle 256 overflows the 8-bit schedule counter (at most 255)"
printf '0 31\n1 32\n' > "$tmp/range.txt"
refused "address out of a port's range" "$rinfo" e0 --stream "$tmp/range.txt" \
	"lake: cannot be configured: event 1: address 32 is out of the range of regs.w (0 to 31)"
printf '4 0\n4 1\n' > "$tmp/order.txt"
refused "cycles must increase" "$info" e0 --stream "$tmp/order.txt" \
	"event 1: cycle 4 does not come after cycle 4 of event 0"
printf '# nothing\n' > "$tmp/empty.txt"
refused "empty stream" "$info" e0 --stream "$tmp/empty.txt" "lake: cannot be configured: the stream is empty"

# ---- bad request files: file:line:col, the line and a caret ----
printf '0 0\n1 x1\n2 2 5\n3\n4 99999999999999999999\n' > "$tmp/syntax.txt"
refused "stream syntax: every error reported" "$info" e0 --stream "$tmp/syntax.txt" "lake: 4 errors in"
check "stream syntax: position, line and caret" \
	'grep -q "syntax.txt:2:3: error: expected a decimal number" "$tmp/err.txt" &&
	 grep -q "^      |   \^$" "$tmp/err.txt" &&
	 grep -q "syntax.txt:3:5: error: too many numbers: an event is the cycle, then the address at sram.w" "$tmp/err.txt" &&
	 grep -q "syntax.txt:4:2: error: expected 2 numbers: the cycle, then the address at sram.w" "$tmp/err.txt" &&
	 grep -q "syntax.txt:5:3: error: number too large" "$tmp/err.txt"'
cat > "$tmp/bad.yaml" <<'EOF'
extents: [4, 0]
schedule: { start: x, strides: [1] }
adresses: []
EOF
refused "affine file: every error reported" "$info" e0 --affine "$tmp/bad.yaml" "lake: 4 errors in"
check "affine file: unknown key, extent, start, missing addresses" \
	'grep -q "bad.yaml:3:1: error: unknown key .adresses." "$tmp/err.txt" &&
	 grep -q "bad.yaml:1:14: error: the extent 0 is less than 1" "$tmp/err.txt" &&
	 grep -q "bad.yaml:2:20: error: expected a number for the start" "$tmp/err.txt" &&
	 grep -q "bad.yaml:1:1: error: 0 address maps; the controller takes the address at sram.w" "$tmp/err.txt"'
printf 'extents: [4]\nschedule: { start: 0, strides: [1, 2] }\naddresses: [ { start: 0, strides: [1] } ]\n' > "$tmp/n.yaml"
refused "affine file: strides per extent" "$info" e0 --affine "$tmp/n.yaml" \
	"n.yaml:2:32: error: 2 strides for 1 extents (one per level, innermost first)"
refused "unknown controller" "$info" e7 --stream "$tmp/s1.txt" "lake: no controller 'e7' in dp (controllers: e0 e1)"
mkdir -p "$tmp/nosmt" && cp "$info" "$tmp/nosmt/"
refused "missing .smt2 next to the info file" "$tmp/nosmt/dp.info.yaml" e0 --stream "$tmp/s1.txt" \
	"lake: error: $tmp/nosmt/dp.smt2: cannot read: No such file or directory"
refused "an endless stream file (/dev/zero): bounded, named" "$info" e0 --stream /dev/zero \
	"lake: error: /dev/zero: cannot read: file too large: more than 67108864 bytes, the limit is 67108864"
$lake solve "$info" --stream "$tmp/s1.txt" > /dev/null 2> "$tmp/err.txt"
check "usage: --ctrl is required (exit 2)" '[ $? -eq 2 ] && grep -q "^usage: lake solve" "$tmp/err.txt"'
$lake solve "$info" --ctrl e0 --stream "$tmp/s1.txt" --affine "$tmp/a1.yaml" > /dev/null 2>&1
check "usage: one request at a time (exit 2)" '[ $? -eq 2 ]'

# 32-bit counters: events four billion cycles apart are confirmed without
# simulating every cycle in between
sed 's/counter_bits: 16/counter_bits: 32/; s/^mem: dp/mem: dp32/' lake/specs/dp.yaml >"$tmp/dp32.yaml"
$lake "$tmp/dp32.yaml" -o "$tmp/dp32" -q
printf '0 0\n4000000000 1\n' >"$tmp/far.txt"
check "far-apart events on 32-bit counters solve at once" \
	'timeout 10 $lake solve "$tmp/dp32/dp32.info.yaml" --ctrl e0 --stream "$tmp/far.txt" -q | grep -qx "08010000 ee6b2800"'
# configuration files that lake sim refuses, with positions
printf '00000000 00000001 garbage\n' >"$tmp/junk.hex"
check "sim: trailing text after a configuration write is an error at its column" \
	'! $lake sim "$tmp/dp32/dp32.info.yaml" --config "$tmp/junk.hex" --cycles 1 >/dev/null 2>"$tmp/junk.err" &&
	 grep -q "junk.hex:1:19: error: expected a configuration write" "$tmp/junk.err"'
printf '01000000 00000000 # chain_id\n7f000000 00000001\n' >"$tmp/noreg.hex"
check "sim: a write to no register is an error at its line" \
	'! $lake sim "$tmp/dp32/dp32.info.yaml" --config "$tmp/noreg.hex" --cycles 1 >/dev/null 2>"$tmp/noreg.err" &&
	 grep -q "noreg.hex:2:1: error: no configuration register at address 0x7f000000" "$tmp/noreg.err"'

# numeric options of sim, vectors and tb: read whole and range-checked, exit
# status 2 with exactly this message on stderr, nothing written
# usage_error WHAT MESSAGE COMMAND...
usage_error() {
	local what=$1 msg=$2 status
	shift 2
	rm -rf "$tmp/opt"
	timeout 20 "$@" >"$tmp/opt.out" 2>"$tmp/opt.err"
	status=$?
	if [ "$status" -eq 2 ] && [ "$(cat "$tmp/opt.err")" = "$msg" ] && [ ! -e "$tmp/opt" ]; then
		pass "$what: $msg"
	else
		fail "$what: exit status $status, stderr: $(head -3 "$tmp/opt.err")"
	fi
}
usage_error "sim --cycles with 20 digits" "lake: --cycles expects a number from 0 to 100000000, got '99999999999999999999'" \
	$lake sim "$info" --config "$tmp/s1.regs" --cycles 99999999999999999999
usage_error "vectors --cycles negative" "lake: --cycles expects a number from 0 to 100000000, got '-1'" \
	$lake vectors "$info" --cycles -1 -o "$tmp/opt"
usage_error "vectors --seed -1 (was read as 2^64 - 1)" "lake: --seed expects a number from 0 to 18446744073709551615, got '-1'" \
	$lake vectors "$info" --cycles 5 --seed -1 -o "$tmp/opt"
usage_error "vectors --seed past 64 bits" \
	"lake: --seed expects a number from 0 to 18446744073709551615, got '18446744073709551616'" \
	$lake vectors "$info" --cycles 5 --seed 18446744073709551616 -o "$tmp/opt"
usage_error "tb --tiles past its range" "lake: --tiles expects a number from 1 to 16, got '17'" \
	$lake tb "$info" --tiles 17 -o "$tmp/opt"
usage_error "tb --tiles with a suffix" "lake: --tiles expects a number from 1 to 16, got '2x'" \
	$lake tb "$info" --tiles 2x -o "$tmp/opt"
check "vectors: the largest seed and a hex cycle count are read" \
	'$lake vectors "$info" --cycles 0x10 --seed 18446744073709551615 -o "$tmp/big" -q && [ -s "$tmp/big/expected.trace" ]'
suite_end "solve"
