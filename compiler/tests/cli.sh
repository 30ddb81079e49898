#!/usr/bin/env bash
# cli.sh - cgrac on what a file of compiler/tests/bad/ cannot hold: generated
# inputs too deep for a committed file, bad images and command lines.
#  - expressions nested deeper than 200 levels (parentheses, unary minus,
#    select(), cast<>()), a chain of operators deeper than 1000, Funcs inlined
#    into each other and an unrolled reduction deeper than 1000 once
#    substituted: each refused at its position without crashing, and inputs
#    just within the limits accepted by the later passes;
#  - input images that do not fit the program (3 channels for a 2-D image,
#    too small) for --run, --run-lowered and --sim-buffers: one error naming
#    the image file, exit status 1, nothing written; a 1-D program reading a
#    PGM gives the same image through all three;
#  - an Expr or a Func doubled 40 or 30 times (2^40 operations once
#    substituted): refused, once, without walking the tree;
#  - numeric options (--seed, --hop-limit, --place-seed): a number in range,
#    the whole string, else exit status 2;
#  - -o: the whole flow without it is a usage error (exit status 2); --check
#    and --emit, which print, need none;
#  - a folder given as the application or as an image: "Is a directory";
#  - an error the lowering meets on several copies of one expression (a
#    sum(), an Expr used twice, a Func inlined twice) or on both levels one
#    compute_at sets is shown once.
#   usage: compiler/tests/cli.sh   (CGRAC=... picks the binary)
set -u
cd "$(dirname "$0")/../.." || exit 1
. scripts/suite_lib.sh || exit 1
cgrac=${CGRAC:-bin/cgrac}
design=rtl_out/cgra_4x4
[ -f $design/design.yaml ] || bash scripts/rtl.sh cgra_4x4 >/dev/null || exit 1
suite_tmp
out=$tmp/out            # every command's output (folder or image): must not appear on an error

# run CMD...: cgrac with stdout in $tmp/stdout, stderr in $tmp/err, the exit status in $status
run() {
	rm -rf "$out" "$out.pgm"
	(timeout 120 "$cgrac" "$@" >"$tmp/stdout" 2>"$tmp/err"; exit $?) 2>/dev/null
	status=$?
}

# Prints the last stderr, indented, after a failure.
show() {
	echo "    --- exit status $status; stderr:"
	head -n 12 "$tmp/err" | cut -c1-200 | sed 's/^/    | /'
}

# refused NAME STATUS LINE CMD...: cgrac exits with STATUS (not a crash), its
# stderr holds LINE as a whole line, and it wrote nothing
refused() {
	local name=$1 want=$2 line=$3
	shift 3
	run "$@"
	local why=
	if [ "$status" -ge 124 ]; then
		why="crashed or timed out (status $status)"
	elif [ "$status" -ne "$want" ]; then
		why="exit status $status, want $want"
	elif ! grep -qxF -- "$line" "$tmp/err"; then
		why="missing: $line"
	elif [ -e "$out" ] || [ -e "$out.pgm" ]; then
		why="wrote output despite the error"
	fi
	if [ -z "$why" ]; then
		pass "$name"
	else
		fail "$name: $why"
		show
	fi
}

# accepted NAME CMD...: cgrac exits with status 0
accepted() {
	local name=$1
	shift
	run "$@"
	if [ "$status" -eq 0 ]; then
		pass "$name"
	else
		fail "$name: exit status $status"
		show
	fi
}

# once NAME LINE CMD...: cgrac fails, LINE is its only error line
once() {
	local name=$1 line=$2
	shift 2
	run "$@"
	local n
	n=$(grep -c ': error: ' "$tmp/err")
	if [ "$status" -eq 1 ] && [ "$n" -eq 1 ] && grep -qxF -- "$line" "$tmp/err"; then
		pass "$name"
	else
		fail "$name: exit status $status, $n error lines, want 1: $line"
		show
	fi
}

# rep S N: S repeated N times
rep() {
	local s= i
	for ((i = 0; i < $2; i++)); do s+=$1; done
	printf '%s' "$s"
}

# app NAME EXPR: $tmp/NAME.hl whose output f (8 x 8) is EXPR, on line 4 from column 11
app() {
	printf '%s\n' 'ImageParam input(UInt(16), 2, "input");' 'Var x("x"), y("y");' 'Func f("f");' \
		"f(x, y) = $2;" 'f.bound(x, 0, 8).bound(y, 0, 8);' 'hw_accelerate(f);' \
		'stream_to_accelerator(input);' >"$tmp/$1.hl"
}

nested='expressions nested deeper than 200 levels'
deep='expression deeper than 1000 operations'
inlined='is deeper than 1000 operations once the Funcs it calls are inlined and its reductions unrolled: store some of those Funcs (compute_root or compute_at) or unroll less'
emit=(--design $design -o "$out" --emit ubuf -q)

# ---- nesting: the right-hand side is level 1; what stands in a '(', after a unary
# operator or in a call's arguments one more ----
app parens "$(rep '(' 5000)input(x, y)$(rep ')' 5000)"
refused "5000 nested parentheses" 1 "$tmp/parens.hl:4:211: error: $nested" "$tmp/parens.hl" "${emit[@]}"
app parens200 "$(rep '(' 200)input(x, y)$(rep ')' 200)"
refused "200 nested parentheses (level 201)" 1 "$tmp/parens200.hl:4:211: error: $nested" "$tmp/parens200.hl" "${emit[@]}"
app parens198 "$(rep '(' 198)input(x, y)$(rep ')' 198)"
accepted "198 nested parentheses (the call's arguments at level 200) through the buffers" "$tmp/parens198.hl" \
	"${emit[@]}"
# (spaced: "--" is C++'s decrement)
app minus "$(rep '- ' 5000)input(x, y)"
refused "5000 unary minus" 1 "$tmp/minus.hl:4:411: error: $nested" "$tmp/minus.hl" "${emit[@]}"
app minus198 "$(rep '- ' 198)input(x, y)"
accepted "198 unary minus through the buffers" "$tmp/minus198.hl" "${emit[@]}"
app select "$(rep 'select(true, ' 3000)input(x, y)$(rep ', 0)' 3000)"
refused "3000 nested select()" 1 "$tmp/select.hl:4:2605: error: $nested" "$tmp/select.hl" "${emit[@]}"
app cast "$(rep 'cast<uint16_t>(' 3000)input(x, y)$(rep ')' 3000)"
refused "3000 nested cast<>()" 1 "$tmp/cast.hl:4:3011: error: $nested" "$tmp/cast.hl" "${emit[@]}"
# the 999th '+' makes the tree 1001 deep (a call is 2)
app chain "input(x, y)$(rep ' + input(x, y)' 20000)"
refused "a chain of 20000 additions" 1 "$tmp/chain.hl:4:13995: error: $deep" "$tmp/chain.hl" "${emit[@]}"
app chain900 "input(x, y)$(rep ' + input(x, y)' 900)"
accepted "a chain of 900 additions through the buffers" "$tmp/chain900.hl" "${emit[@]}"
accepted "a chain of 900 additions: its input" "$tmp/chain900.hl" --gen-input -o "$tmp/chain900.pgm" -q
accepted "a chain of 900 additions interpreted" "$tmp/chain900.hl" --run "$tmp/chain900.pgm" -o "$tmp/o1.pgm" -q
accepted "a chain of 900 additions on hardware words" "$tmp/chain900.hl" --design $design \
	--run-lowered "$tmp/chain900.pgm" -o "$tmp/o2.pgm" -q
cmp -s "$tmp/o1.pgm" "$tmp/o2.pgm" && pass "a chain of 900 additions: the same image both ways" ||
	fail "a chain of 900 additions: --run and --run-lowered differ"
# Exprs built from Exprs: the depth carries over
{
	printf '%s\n' 'ImageParam input(UInt(16), 2, "input");' 'Var x("x"), y("y");' 'Func f("f");' \
		'Expr e0 = input(x, y);'
	for ((i = 1; i <= 1200; i++)); do echo "Expr e$i = e$((i - 1)) + 1;"; done
	printf '%s\n' 'f(x, y) = e1200;' 'f.bound(x, 0, 8).bound(y, 0, 8);' 'hw_accelerate(f);' \
		'stream_to_accelerator(input);'
} >"$tmp/exprs.hl"
refused "1200 Exprs each adding to the last" 1 "$tmp/exprs.hl:1003:18: error: $deep" "$tmp/exprs.hl" "${emit[@]}"

# ---- sharing: an Expr (or an inlined Func) used twice counts twice; 40 doublings are 2^40
# operations, refused in the parser at the first Expr beyond 100000, with one error (the
# later uses of the refused Expr say nothing more), before any pass walks them ----
{
	printf '%s\n' 'ImageParam input(UInt(16), 2, "input");' 'Var x("x"), y("y");' 'Func f("f");' \
		'Expr e0 = input(x, y);'
	for ((k = 1; k <= 40; k++)); do echo "Expr e$k = e$((k - 1)) + e$((k - 1));"; done
	printf '%s\n' 'f(x, y) = e40;' 'f.bound(x, 0, 8).bound(y, 0, 8);' 'hw_accelerate(f);' 'stream_to_accelerator(input);'
} >"$tmp/doubled.hl"
large='expression of more than 100000 operations once its Exprs are substituted (an Expr used several times counts each time)'
refused "40 Exprs each the last twice" 1 "$tmp/doubled.hl:19:16: error: $large" "$tmp/doubled.hl" --check
[ "$(grep -c 'error:' "$tmp/err")" = 1 ] && pass "40 Exprs each the last twice: one error" ||
	fail "40 Exprs each the last twice: $(grep -c 'error:' "$tmp/err") errors"
{
	printf '%s\n' 'ImageParam input(UInt(16), 2, "input");' 'Var x("x"), y("y");'
	printf 'Func f0'
	for ((k = 1; k <= 30; k++)); do printf ', f%d' $k; done
	printf ';\nf0(x, y) = input(x, y);\n'
	for ((k = 1; k <= 30; k++)); do echo "f$k(x, y) = f$((k - 1))(x, y) + f$((k - 1))(x, y);"; done
	printf 'f30.bound(x, 0, 8).bound(y, 0, 8);\nhw_accelerate(f30);\nstream_to_accelerator(input);\n'
} >"$tmp/doubledf.hl"
refused "30 Funcs each calling the last twice, inlined" 1 \
	"$tmp/doubledf.hl:34:1: error: 'f30' is larger than 100000 operations once the Funcs it calls are inlined and its reductions unrolled: store some of those Funcs (compute_root or compute_at) or unroll less" \
	"$tmp/doubledf.hl" "${emit[@]}"

# ---- Funcs inlined into each other, an unrolled reduction ----
funcs() {       # funcs NAME N [SCHEDULE]: f0 = input, f_k = f_{k-1} + 1 (line 4 + k), output fN
	local n=$2 k
	{
		printf '%s\n' 'ImageParam input(UInt(16), 2, "input");' 'Var x("x"), y("y");'
		printf 'Func f0'
		for ((k = 1; k <= n; k++)); do printf ', f%d' $k; done
		printf ';\nf0(x, y) = input(x, y);\n'
		for ((k = 1; k <= n; k++)); do echo "f$k(x, y) = f$((k - 1))(x, y) + 1;"; done
		echo "${3:-}"
		printf 'f%d.bound(x, 0, 8).bound(y, 0, 8);\nhw_accelerate(f%d);\nstream_to_accelerator(input);\n' $n $n
	} >"$tmp/$1.hl"
}
funcs inline5000 5000
refused "5000 Funcs inlined into each other" 1 "$tmp/inline5000.hl:5004:1: error: 'f5000' $inlined" \
	"$tmp/inline5000.hl" "${emit[@]}"
funcs inline1100 1100
refused "1100 Funcs inlined into each other" 1 "$tmp/inline1100.hl:1104:1: error: 'f1100' $inlined" \
	"$tmp/inline1100.hl" "${emit[@]}"
funcs stored1100 1100 'f550.compute_root();'
accepted "1100 Funcs, the middle one stored: lowered" "$tmp/stored1100.hl" --design $design -o "$out" \
	--emit lowered -q
cat >"$tmp/unrolled.hl" <<'EOF'
ImageParam input(UInt(16), 2, "input");
Var x("x"), y("y");
Func f("f");
RDom r(0, 3000);
f(x, y) = input(x, y);
f(x, y) = max(f(x, y), input(x + r.x, y));
f.update().unroll(r.x);
f.bound(x, 0, 8).bound(y, 0, 8);
hw_accelerate(f);
stream_to_accelerator(input);
EOF
refused "a reduction of 3000 points unrolled" 1 "$tmp/unrolled.hl:6:1: error: 'f' $inlined" "$tmp/unrolled.hl" \
	"${emit[@]}"

# ---- images: one check for --run, --run-lowered and --sim-buffers ----
hl=apps/gaussian/gaussian.hl    # reads 64 x 64
{ printf 'P6\n70 70\n255\n'; head -c $((70 * 70 * 3)) /dev/zero; } >"$tmp/rgb.ppm"
{ printf 'P5\n1 1\n255\n'; head -c 1 /dev/zero; } >"$tmp/tiny.pgm"
{ printf 'P5\n10 10\n255\n'; head -c 100 /dev/zero; } >"$tmp/small.pgm"
channels="error: the image for 'input' is 70 x 70 x 3 (3 channels); the program reads 'input' as a 2-dimensional image of at least 64 x 64"
for mode in --run --run-lowered --sim-buffers; do
	refused "$mode with a 3-channel image for a 2-D program" 1 "$tmp/rgb.ppm: $channels" \
		$hl --design $design $mode "$tmp/rgb.ppm" -o "$out.pgm" -q
	refused "$mode with a 1 x 1 image" 1 \
		"$tmp/tiny.pgm: error: the image for 'input' is 1 x 1; the program reads at least 64 x 64" \
		$hl --design $design $mode "$tmp/tiny.pgm" -o "$out.pgm" -q
	refused "$mode with a 10 x 10 image" 1 \
		"$tmp/small.pgm: error: the image for 'input' is 10 x 10; the program reads at least 64 x 64" \
		$hl --design $design $mode "$tmp/small.pgm" -o "$out.pgm" -q
done
cat >"$tmp/line.hl" <<'EOF'
ImageParam input(UInt(16), 1, "input");
Var x("x");
Func f("f");
f(x) = input(x) + input(x + 1);
f.bound(x, 0, 16);
hw_accelerate(f);
stream_to_accelerator(input);
EOF
accepted "a 1-D program: its input (a PGM of one row)" "$tmp/line.hl" --gen-input -o "$tmp/line.pgm" -q
accepted "a 1-D program reads a PGM: --run" "$tmp/line.hl" --run "$tmp/line.pgm" -o "$tmp/l1.pgm" -q
accepted "a 1-D program reads a PGM: --run-lowered" "$tmp/line.hl" --design $design --run-lowered "$tmp/line.pgm" \
	-o "$tmp/l2.pgm" -q
accepted "a 1-D program reads a PGM: --sim-buffers" "$tmp/line.hl" --design $design --sim-buffers "$tmp/line.pgm" \
	-o "$tmp/l3.pgm" -q
cmp -s "$tmp/l1.pgm" "$tmp/l2.pgm" && cmp -s "$tmp/l1.pgm" "$tmp/l3.pgm" &&
	pass "a 1-D program: the same image three ways" || fail "a 1-D program: the three images differ"

# ---- -o ----
refused "the whole flow without -o (brighten_blur fits cgra_4x4)" 2 \
	"cgrac: compiling to a bitstream needs -o OUT (--emit STAGE prints one stage, --check only checks)" \
	apps/brighten_blur/brighten_blur.hl --design $design -q
accepted "the whole flow with -o (brighten_blur on cgra_4x4)" apps/brighten_blur/brighten_blur.hl --design $design \
	-o "$tmp/bb" -q
[ -s "$tmp/bb/brighten_blur.bs" ] && pass "the whole flow with -o: the bitstream written" ||
	fail "the whole flow with -o: no bitstream"
accepted "--check without -o" $hl --check
for stage in lowered dfg ubuf; do
	accepted "--emit $stage without -o prints" $hl --design $design --emit $stage -q
	[ -s "$tmp/stdout" ] && pass "--emit $stage without -o: printed" || fail "--emit $stage without -o: nothing printed"
done

# ---- folders ----
mkdir -p "$tmp/dir.hl" "$tmp/dir.pgm"
refused "a folder as the application" 1 "$tmp/dir.hl: error: cannot read file: Is a directory" "$tmp/dir.hl" --check
refused "a folder of inputs without the application's input" 1 \
	"cgrac: $tmp/dir.pgm/$(basename "$hl" .hl).input.pgm: cannot read the file: No such file or directory" \
	$hl --run "$tmp/dir.pgm" -o "$out.pgm"

# ---- an error once, however many copies of its expression the lowering checks ----
app sum 'sum(input(x * y + r.x, y))'
sed -i '3a RDom r(0, 3);' "$tmp/sum.hl"
once "non-affine read in a sum() of 3 terms" \
	"$tmp/sum.hl:5:20: error: non-affine index in the read of 'input': the address generators handle affine indices only (Unified Buffer Table 2)" \
	"$tmp/sum.hl" "${emit[@]}"
app twice 'e + e'
sed -i '3a Expr e = input(x * y, y);' "$tmp/twice.hl"
once "non-affine read in an Expr used twice" \
	"$tmp/twice.hl:4:15: error: non-affine index in the read of 'input': the address generators handle affine indices only (Unified Buffer Table 2)" \
	"$tmp/twice.hl" "${emit[@]}"
cat >"$tmp/inl.hl" <<'EOF'
ImageParam input(UInt(16), 2, "input");
Var x("x"), y("y");
Func f("f"), g("g");
RDom r(0, 3);
g(x, y) = input(x, y);
g(r.x, y) = g(r.x + 1, y);
Expr e = g(x, y);
f(x, y) = e + e;
f.bound(x, 0, 8).bound(y, 0, 8);
hw_accelerate(f);
stream_to_accelerator(input);
EOF
once "a Func that cannot be inlined, called twice" \
	"$tmp/inl.hl:7:11: error: 'g' has an update definition that is not a pure reduction (it writes or reads other points of 'g'), so it cannot be inlined here: schedule it with compute_at" \
	"$tmp/inl.hl" "${emit[@]}"
cat >"$tmp/at.hl" <<'EOF'
ImageParam input(UInt(16), 2, "input");
Var x("x"), y("y"), z("z");
Func f("f"), g("g");
g(x, y) = input(x, y);
f(x, y) = g(x, y) + 1;
g.compute_at(f, z);
f.bound(x, 0, 8).bound(y, 0, 8);
hw_accelerate(f);
stream_to_accelerator(input);
EOF
once "compute_at a loop that does not exist (its store level too)" \
	"$tmp/at.hl:6:17: error: compute_at of 'g': 'z' is not a loop of f.s0" "$tmp/at.hl" --check

# ---- numeric options: the whole string, in range, whatever its length (exit status 2)
refused "--seed of 23 digits" 2 "cgrac: --seed expects a number from 0 to 9223372036854775807, got '99999999999999999999999'" \
	apps/gaussian/gaussian.hl --gen-input --seed 99999999999999999999999 -o "$out.pgm"
refused "--hop-limit with a suffix" 2 "cgrac: --hop-limit expects a number from 0 to 1000, got '2x'" \
	apps/gaussian/gaussian.hl --design $design --hop-limit 2x -o "$out"
refused "--place-seed of 2^31" 2 "cgrac: --place-seed expects a number from 0 to 2147483647, got '2147483648'" \
	apps/gaussian/gaussian.hl --design $design --place-seed 2147483648 -o "$out"

suite_end "cgrac command line"
