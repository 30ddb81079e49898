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
#  - image files read strictly (.npy header keys and values, shapes beyond
#    the limits or whose size would overflow, PGM numbers of 8 digits, a byte
#    too many, /dev/zero): one error naming the file, nothing written;
#  - the command line: two modes, an option the mode does not use, an option
#    given twice, --range beyond LO:HI, empty values and list items: usage
#    errors (exit status 2) with their message; the combinations the scripts
#    use accepted;
#  - --golden writing nothing when a later step fails, and naming the folder
#    it cannot make or write into with the reason (a read-only one as another
#    user when run as root); --streams naming a file or with nothing to
#    stream; input.yaml as a dangling link;
#  - an error the lowering meets on several copies of one expression (a
#    sum(), an Expr used twice, a Func inlined twice) or on both levels one
#    compute_at sets is shown once;
#  - --verify: every step's files and the table line app.txt (bit-exact on the
#    fast simulator with its figures, DIFFERENT with a corrupted golden
#    image, NOT MAPPED and FAILED before the back end with their reasons),
#    the bitstream of the plain compilation.
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
funcs inline4000 4000
refused "4000 Funcs inlined into each other (the parser takes at most 4096)" 1 "$tmp/inline4000.hl:4004:1: error: 'f4000' $inlined" \
	"$tmp/inline4000.hl" "${emit[@]}"
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
	chip=(--design $design)
	[ $mode = --run ] && chip=()        # the interpreter reads no chip
	refused "$mode with a 3-channel image for a 2-D program" 1 "$tmp/rgb.ppm: $channels" \
		$hl "${chip[@]}" $mode "$tmp/rgb.ppm" -o "$out.pgm" -q
	refused "$mode with a 1 x 1 image" 1 \
		"$tmp/tiny.pgm: error: the image for 'input' is 1 x 1; the program reads at least 64 x 64" \
		$hl "${chip[@]}" $mode "$tmp/tiny.pgm" -o "$out.pgm" -q
	refused "$mode with a 10 x 10 image" 1 \
		"$tmp/small.pgm: error: the image for 'input' is 10 x 10; the program reads at least 64 x 64" \
		$hl "${chip[@]}" $mode "$tmp/small.pgm" -o "$out.pgm" -q
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
	"cgrac: error: $tmp/dir.pgm/$(basename "$hl" .hl).input.pgm: cannot read the file: No such file or directory" \
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

# ---- image files read strictly (common/image.c; each reader's cases in test_image):
# through cgrac, one error naming the file, exit status 1, nothing written ----
# npy FILE HEADER NBYTES: a .npy 1.0 file with that header dictionary and NBYTES samples (zeros)
npy() {
	local hdr=$2 pad
	pad=$(((64 - (10 + ${#hdr} + 1) % 64) % 64))
	{
		printf '\x93NUMPY\x01\x00'
		printf "\\x$(printf %02x $(((${#hdr} + pad + 1) % 256)))\\x$(printf %02x $(((${#hdr} + pad + 1) / 256)))"
		printf '%s%*s\n' "$hdr" $pad ''
		head -c "$3" /dev/zero
	} >"$1"
}
npy "$tmp/key.npy" "{'descr': '<u2', 'fortran_order': False, 'shape': (64, 64), 'x': 1}" 8192
refused "--run: a .npy header with an unknown key" 1 \
	"cgrac: error: $tmp/key.npy: .npy header, byte 60: unknown key 'x' (a .npy header has exactly 'descr', 'fortran_order' and 'shape')" \
	$hl --run "$tmp/key.npy" -o "$out.pgm"
npy "$tmp/maybe.npy" "{'descr': '<u2', 'fortran_order': Maybe, 'shape': (64, 64)}" 8192
refused "--run: fortran_order: Maybe" 1 \
	"cgrac: error: $tmp/maybe.npy: .npy header, byte 34: the value of 'fortran_order' must be True or False, found 'Maybe'" \
	$hl --run "$tmp/maybe.npy" -o "$out.pgm"
npy "$tmp/big.npy" "{'descr': '<u2', 'fortran_order': False, 'shape': (65535, 65535, 65535, 65535)}" 16
refused "--run: a shape of 65535^4 samples (no overflow)" 1 \
	"cgrac: error: $tmp/big.npy: a 65535 x 65535 x 65535 x 65535 image is larger than the 16777216 samples an image may hold" \
	$hl --run "$tmp/big.npy" -o "$out.pgm"
npy "$tmp/ext.npy" "{'descr': '<u2', 'fortran_order': False, 'shape': (64, 64, 70000)}" 8192
refused "--run: an extent above 65536 (not dropped)" 1 \
	"cgrac: error: $tmp/ext.npy: .npy header, byte 59: extent 70000 in dimension 2 is outside 1 to 65536" \
	$hl --run "$tmp/ext.npy" -o "$out.pgm"
npy "$tmp/long.npy" "{'descr': '<u2', 'fortran_order': False, 'shape': (64, 64)}" 8193
refused "--run: a .npy file one byte longer than its shape" 1 \
	"cgrac: error: $tmp/long.npy: 8193 bytes of samples after the .npy header; a shape of 64 x 64 has 8192 (2 bytes a sample)" \
	$hl --run "$tmp/long.npy" -o "$out.pgm"
{ printf 'P5\n12345678 64\n255\n'; head -c 4096 /dev/zero; } >"$tmp/wide.pgm"
refused "--run: a PGM width of 8 digits" 1 \
	"cgrac: error: $tmp/wide.pgm: the PGM width 12345678 is out of range (1 to 65536)" \
	$hl --run "$tmp/wide.pgm" -o "$out.pgm"
{ printf 'P5\n64 64\n255\n'; head -c 4097 /dev/zero; } >"$tmp/trail.pgm"
refused "--run: a PGM with a byte after its samples" 1 \
	"cgrac: error: $tmp/trail.pgm: 4097 bytes of samples after the PGM header; a 64 x 64 image with maxval 255 has 4096 (1 byte a sample): a file holds one image and nothing after it" \
	$hl --run "$tmp/trail.pgm" -o "$out.pgm"
ln -s /dev/zero "$tmp/zero.pgm"
refused "--run: /dev/zero as a PGM (a bounded read)" 1 \
	"cgrac: error: $tmp/zero.pgm: file too large: more than 33619979 bytes, the limit is 33619979 (an image holds at most 16777216 samples)" \
	$hl --run "$tmp/zero.pgm" -o "$out.pgm"

# ---- the command line: one mode, the options it uses, each once (exit status 2, nothing
# written); every pair of options decided: see cgrac --help ----
modes='give one of --check, --emit, --run, --run-lowered, --sim-buffers, --gen-input, --golden and --verify (none: the compilation)'
flow_where='the compilation, --emit, --run-lowered, --sim-buffers and --verify'
o_where='the compilation, --emit, --run, --run-lowered, --sim-buffers and --gen-input (--golden DIR names its folder; --check writes nothing)'
bb=apps/brighten_blur/brighten_blur.hl
$cgrac $hl --gen-input -o "$tmp/in.pgm" -q || fail "the input of $hl"
usage() {       # usage NAME LINE ARGS...: refused with exit status 2 and LINE
	local name=$1 line=$2
	shift 2
	refused "usage: $name" 2 "$line" "$@"
}
usage "--gen-input with --run" "cgrac: --gen-input and --run are two modes: $modes" \
	$hl --gen-input --run "$tmp/in.pgm" -o "$out.pgm"
usage "--run with --sim-buffers" "cgrac: --run and --sim-buffers are two modes: $modes" \
	$hl --run "$tmp/in.pgm" --sim-buffers "$tmp/in.pgm" --design $design -o "$out.pgm"
usage "--golden with --gen-input" "cgrac: --golden and --gen-input are two modes: $modes" \
	$hl --golden "$out" --gen-input
usage "--check with --emit" "cgrac: --check and --emit are two modes: $modes" $hl --check --emit lowered
usage "--emit with --run" "cgrac: --emit and --run are two modes: $modes" \
	$hl --design $design --emit dfg --run "$tmp/in.pgm" -o "$out.pgm"
usage "-o twice" "cgrac: -o given twice ($out.pgm and $tmp/b.pgm): give it once" \
	$hl --run "$tmp/in.pgm" -o "$out.pgm" -o "$tmp/b.pgm"
usage "--run twice" "cgrac: --run given twice ($tmp/in.pgm and $tmp/in.pgm): give it once" \
	$hl --run "$tmp/in.pgm" --run "$tmp/in.pgm" -o "$out.pgm"
usage "--design twice" "cgrac: --design given twice ($design and $design): give it once" \
	$bb --design $design --design $design -o "$out"
usage "--seed twice" "cgrac: --seed given twice (1 and 2): give it once" $hl --gen-input --seed 1 --seed 2 -o "$out.pgm"
usage "--range 0:255:3" "cgrac: --range expects LO:HI, two numbers from 0 to 65535 with LO <= HI, got '0:255:3'" \
	$hl --gen-input --range 0:255:3 -o "$out.pgm"
usage "--range 9:1" "cgrac: --range expects LO:HI, two numbers from 0 to 65535 with LO <= HI, got '9:1'" \
	$hl --gen-input --range 9:1 -o "$out.pgm"
usage "--range -1:5" "cgrac: --range expects LO:HI, two numbers from 0 to 65535 with LO <= HI, got '-1:5'" \
	$hl --gen-input --range -1:5 -o "$out.pgm"
usage "--range 0:65536" "cgrac: --range expects LO:HI, two numbers from 0 to 65535 with LO <= HI, got '0:65536'" \
	$hl --golden "$out" --range 0:65536
usage "--range with --run" "cgrac: --range does not apply to --run: it is for --gen-input, --golden and --verify" \
	$hl --run "$tmp/in.pgm" --range 0:255 -o "$out.pgm"
usage "--seed with --sim-buffers" "cgrac: --seed does not apply to --sim-buffers: it is for --gen-input, --golden and --verify" \
	$hl --design $design --sim-buffers "$tmp/in.pgm" --seed 3 -o "$out.pgm"
usage "--seed with the compilation" "cgrac: --seed does not apply to the compilation: it is for --gen-input, --golden and --verify" \
	$bb --design $design --seed 3 -o "$out"
usage "--design with --run" \
	"cgrac: --design does not apply to --run: it is for $flow_where (which read the chip)" \
	$hl --design $design --run "$tmp/in.pgm" -o "$out.pgm"
usage "--design with --golden" \
	"cgrac: --design does not apply to --golden: it is for $flow_where (which read the chip)" \
	$hl --design $design --golden "$out"
usage "--design with --check" \
	"cgrac: --design does not apply to --check: it is for $flow_where (which read the chip)" $hl --design $design --check
usage "--hop-limit with --run" "cgrac: --hop-limit does not apply to --run: it is for $flow_where" \
	$hl --run "$tmp/in.pgm" --hop-limit 2 -o "$out.pgm"
usage "--no-pipeline with --gen-input" "cgrac: --no-pipeline does not apply to --gen-input: it is for $flow_where" \
	$hl --gen-input --no-pipeline -o "$out.pgm"
usage "--place-seed with --golden" "cgrac: --place-seed does not apply to --golden: it is for $flow_where" \
	$hl --golden "$out" --place-seed 3
usage "--no-register-packing with --check" \
	"cgrac: --no-register-packing does not apply to --check: it is for $flow_where" $hl --check --no-register-packing
usage "--streams with --golden" \
	"cgrac: --streams does not apply to --golden: it is for --run (--golden writes the streams into its folder)" \
	$hl --golden "$out" --streams "$tmp/s"
usage "--streams with --run-lowered" \
	"cgrac: --streams does not apply to --run-lowered: it is for --run (--golden writes the streams into its folder)" \
	$hl --design $design --run-lowered "$tmp/in.pgm" --streams "$tmp/s" -o "$out.pgm"
usage "-o with --golden" "cgrac: -o does not apply to --golden: it is for $o_where" $hl --golden "$out" -o "$out.pgm"
usage "-o with --check" "cgrac: -o does not apply to --check: it is for $o_where" $hl --check -o "$out.pgm"
usage "--run without -o" "cgrac: --run needs -o OUT" $hl --run "$tmp/in.pgm"
usage "--gen-input without -o" "cgrac: --gen-input needs -o IN" $hl --gen-input
usage "--sim-buffers without --design" "cgrac: --sim-buffers needs --design DIR" $hl --sim-buffers "$tmp/in.pgm" -o "$out.pgm"
usage "--design without its value" "cgrac: --design needs a value: --design DIR" $hl --design
usage "--golden without its value" "cgrac: --golden needs a value: --golden DIR" $hl --golden
usage "an unknown option" "cgrac: unknown option --gen-inputs" $hl --gen-inputs -o "$out.pgm"
usage "--run with an empty name in its list" \
	"cgrac: --run expects image files separated by commas, got '$tmp/in.pgm,,$tmp/in.pgm' (an empty name)" \
	$hl --run "$tmp/in.pgm,,$tmp/in.pgm" -o "$out.pgm"
usage "--sim-buffers with a list ending in a comma" \
	"cgrac: --sim-buffers expects image files separated by commas, got '$tmp/in.pgm,' (an empty name)" \
	$hl --design $design --sim-buffers "$tmp/in.pgm," -o "$out.pgm"
usage "an empty --golden" "cgrac: --golden needs a value, got an empty one: --golden DIR" $hl --golden ''
usage "an empty -o" "cgrac: -o needs a value, got an empty one: -o OUT" $hl --run "$tmp/in.pgm" -o ''
mkdir -p "$tmp/odir"
refused "--run -o a folder" 1 \
	"cgrac: error: $tmp/odir: unknown image format (the name must end in .pgm, .ppm, .npy or .raw)" \
	$hl --run "$tmp/in.pgm" -o "$tmp/odir"

# ---- input.yaml: a file of that name that cannot be read is an error, not the defaults ----
mkdir -p "$tmp/iy"
cp $hl "$tmp/iy/app.hl"
ln -s "$tmp/iy/none.yaml" "$tmp/iy/input.yaml"
refused "input.yaml, a dangling link" 1 "$tmp/iy/input.yaml: error: cannot read file: No such file or directory" \
	"$tmp/iy/app.hl" --gen-input -o "$out.pgm"
rm "$tmp/iy/input.yaml"
echo 'input: 5' >"$tmp/iy/input.yaml"
refused "input.yaml: input not a mapping, shown at its value" 1 \
	"$tmp/iy/input.yaml:1:8: error: expected 'input: { pattern: ..., range: [lo, hi], seed: ... }'" \
	"$tmp/iy/app.hl" --golden "$out"
# the combinations the scripts use (make app, dse, the suites) stay accepted
accepted "--sim-buffers with the flow options (scripts/dse_point.sh)" $hl -q --design $design --hop-limit 2 \
	--place-seed 3 --no-pipeline --no-register-packing --sim-buffers "$tmp/in.pgm" -o "$tmp/sb.pgm"
accepted "--golden with --seed and --range" $hl -q --golden "$tmp/g1" --seed 7 --range 0:65535
accepted "--emit with a flow option" $hl -q --design $design --emit lowered --no-pipeline
accepted "-q twice" $hl -q -q --check

# ---- --golden: nothing written unless the whole step succeeds; the folder's real trouble ----
cat >"$tmp/wide.hl" <<'EOF2'
ImageParam input(UInt(16), 2, "input");
Var x("x"), y("y");
Func f("f");
f(x, y) = cast<uint32_t>(input(x, y)) * 70000;
f.bound(x, 0, 8).bound(y, 0, 8);
hw_accelerate(f);
stream_to_accelerator(input);
EOF2
# (the interpreter's message is the front end's: only its start is checked here)
run "$tmp/wide.hl" --golden "$out"
if [ "$status" -eq 1 ] && grep -q "^$tmp/wide.hl:3:6: error: the output 'f' has type uint32" "$tmp/err" &&
	[ ! -e "$out" ]; then
	pass "--golden of a program the interpreter refuses: no input written, no folder"
else
	fail "--golden of a program the interpreter refuses: exit status $status, or $out written"
	show
fi
accepted "--golden: the inputs and the golden image" $hl -q --golden "$tmp/g2"
[ "$(ls "$tmp/g2" | tr '\n' ' ')" = "gaussian.input.pgm golden.pgm " ] &&
	pass "--golden: the inputs and the golden image, nothing else" || fail "--golden wrote: $(ls "$tmp/g2")"
: >"$tmp/afile"
refused "--golden under a file" 1 "cgrac: error: $tmp/afile/g: cannot create the folder: Not a directory" \
	$hl --golden "$tmp/afile/g"
refused "--golden naming a file" 1 "cgrac: error: $tmp/afile: not a folder (--golden names the folder to write into)" \
	$hl --golden "$tmp/afile"
# a read-only folder: as another user when the suite runs as root (root may write anywhere)
as_user=()
[ "$(id -u)" = 0 ] && command -v setpriv >/dev/null && as_user=(setpriv --reuid=65534 --regid=65534 --clear-groups)
if [ "$(id -u)" != 0 ] || [ ${#as_user[@]} -gt 0 ]; then
	# the binary and the application copied where the other user may read them (a clone's
	# folder may be private to its owner)
	chmod 755 "$tmp" && mkdir "$tmp/ro" "$tmp/app" && chmod 555 "$tmp/ro"
	cp "$cgrac" "$tmp/app/cgrac" && cp "$hl" "$(dirname "$hl")/input.yaml" "$tmp/app/" && chmod -R a+rX "$tmp/app"
	real=$cgrac real_hl=$hl
	printf '#!/bin/sh\nexec %s "%s" "$@"\n' "${as_user[*]}" "$tmp/app/cgrac" >"$tmp/as_user.sh"
	chmod 755 "$tmp/as_user.sh"
	cgrac=$tmp/as_user.sh hl=$tmp/app/$(basename "$hl")
	refused "--golden inside a read-only folder: the folder and the reason" 1 \
		"cgrac: error: $tmp/ro/g: cannot create the folder: Permission denied" $hl --golden "$tmp/ro/g"
	refused "--golden into a read-only folder" 1 "cgrac: error: $tmp/ro: cannot write into the folder: Permission denied" \
		$hl --golden "$tmp/ro"
	cgrac=$real hl=$real_hl
	[ -z "$(ls "$tmp/ro")" ] && pass "--golden into a read-only folder: nothing in it" || fail "--golden: $(ls "$tmp/ro")"
else
	pass "--golden inside a read-only folder: not tried (root without setpriv)"
fi

# ---- --streams: a file, a program without streams; the output image not written either ----
sapp=apps/blur_u8/blur_u8.hl
$cgrac $sapp --gen-input -o "$tmp/sin.pgm" -q || fail "the input of $sapp"
refused "--streams naming a file" 1 "cgrac: error: $tmp/afile: not a folder (--streams names the folder to write into)" \
	$sapp --run "$tmp/sin.pgm" --streams "$tmp/afile" -o "$out.pgm"
refused "--streams of a program without streams" 1 \
	"cgrac: error: --streams $tmp/s: the program streams no Func into the accelerator, so there is nothing to write" \
	$hl --run "$tmp/in.pgm" --streams "$tmp/s" -o "$out.pgm"
[ ! -e "$tmp/s" ] && pass "--streams of a program without streams: no folder" || fail "--streams made $tmp/s"
accepted "--streams into a new folder" $sapp -q --run "$tmp/sin.pgm" --streams "$tmp/s2" -o "$tmp/sout.pgm"
[ -s "$tmp/s2/blur_u8.hw_input.pgm" ] && [ -s "$tmp/sout.pgm" ] && pass "--streams: the stream and the output" ||
	fail "--streams: $(ls "$tmp/s2")"

# ---- --verify: every check and the table line app.txt, whatever the verdict ----
usage "--simulate without --verify" "cgrac: --simulate does not apply to the compilation: it is for --verify" \
	$bb --design $design --simulate -o "$out"
usage "--corrupt-golden with --golden" "cgrac: --corrupt-golden does not apply to --golden: it is for --verify" \
	$bb --golden "$out" --corrupt-golden
usage "--verify without --design" "cgrac: --verify needs --design DIR" $bb --verify -o "$out"
usage "--verify without -o" "cgrac: --verify needs -o OUT" $bb --verify --design $design
# field N of app.txt in DIR
field() { cut -f"$2" "$1/app.txt"; }
v=$tmp/verify
accepted "--verify --simulate of brighten_blur on cgra_4x4" $bb -q --design $design -o "$v" --verify --simulate
missing=
for f in golden.pgm lowered.pgm buffers.pgm brighten_blur.lowered brighten_blur.bs brighten_blur.io.yaml \
	brighten_blur.report.yaml fast/output.pgm fast/activity.yaml fast/sim.log; do
	[ -s "$v/$f" ] || missing="$missing $f"
done
pes=$(sed -n 's/^pes: //p' "$v/brighten_blur.report.yaml")
if [ -z "$missing" ] && [ "$(field "$v" 8)" = bit-exact ] && [ "$(field "$v" 1)" = "$pes" ] &&
	[[ $(field "$v" 9-11) =~ ^cycles=[0-9]+$'\t'pe_used=$pes/[0-9]+$'\t'pe_busy=[0-9]+$ ]] &&
	cmp -s "$v/golden.pgm" "$v/fast/output.pgm"; then
	pass "--verify --simulate: every step's files, and app.txt's line: $(tr '\t' ' ' <"$v/app.txt")"
else
	fail "--verify --simulate: missing$missing; app.txt: $(cat "$v/app.txt" 2>/dev/null)"
fi
$cgrac $bb -q --design $design -o "$tmp/plain" >/dev/null 2>&1
cmp -s "$v/brighten_blur.bs" "$tmp/plain/brighten_blur.bs" && cmp -s "$v/brighten_blur.io.yaml" "$tmp/plain/brighten_blur.io.yaml" &&
	pass "--verify: the bitstream and io.yaml of the plain compilation, byte for byte" ||
	fail "--verify: the bitstream or io.yaml differs from the plain compilation's"
run $bb --design $design -o "$v" --verify --simulate --corrupt-golden -q
[ "$status" = 1 ] && [ "$(field "$v" 8)" = DIFFERENT ] &&
	pass "--verify --corrupt-golden: DIFFERENT, exit status 1" ||
	fail "--verify --corrupt-golden: exit status $status, app.txt: $(cat "$v/app.txt" 2>/dev/null)"
run $hl --design $design -o "$tmp/nm" --verify -q
[ "$status" = 1 ] && [ "$(field "$tmp/nm" 1)" = - ] && [[ $(field "$tmp/nm" 7) =~ ^[0-9]+$ ]] &&
	[ "$(field "$tmp/nm" 8)" = "NOT MAPPED: the application does not fit cgra_4x4: needs 18 PE tiles, the array has 12" ] &&
	[ ! -e "$tmp/nm/gaussian.bs" ] && [ -s "$tmp/nm/golden.pgm" ] &&
	pass "--verify of an application larger than the chip: NOT MAPPED and the reason, no bitstream, exit status 1" ||
	fail "--verify of an application larger than the chip: exit status $status, app.txt: $(cat "$tmp/nm/app.txt" 2>/dev/null)"
# a refusal the buffers' check meets first and the compilation again: the compilation's reason
nomem=rtl_out/cgra_4x4_nomem
[ -f $nomem/design.yaml ] || bash scripts/rtl.sh cgra_4x4_nomem >/dev/null 2>&1
run $bb --design $nomem -o "$tmp/nomem" --verify -q
[ "$status" = 1 ] && [[ $(field "$tmp/nomem" 8) == "NOT MAPPED: the application needs 1 line buffer (brighten: "*"and the design has no MEM tile" ]] &&
	pass "--verify on a chip without MEM tiles: NOT MAPPED with the reason the buffers' check also met" ||
	fail "--verify on a chip without MEM tiles: exit status $status, app.txt: $(cat "$tmp/nomem/app.txt" 2>/dev/null)"
# an earlier run's outputs in the folder: none taken for this run's
mkdir -p "$tmp/stale" && cp -r "$v"/. "$tmp/stale/" && cp $bb "$tmp/stale_app.hl" && echo 'garbage(' >>"$tmp/stale_app.hl"
mv "$tmp/stale/brighten_blur.bs" "$tmp/stale/stale_app.bs"
run "$tmp/stale_app.hl" --design $design -o "$tmp/stale" --verify -q
[ "$status" = 1 ] && [[ $(field "$tmp/stale" 8) == "FAILED before the back end: "* ]] && [ ! -e "$tmp/stale/stale_app.bs" ] &&
	[ ! -e "$tmp/stale/golden.pgm" ] && [ ! -e "$tmp/stale/fast" ] &&
	pass "--verify of a program that does not parse, into an earlier run's folder: its line, the old outputs gone" ||
	fail "--verify of a program that does not parse: exit status $status, app.txt: $(cat "$tmp/stale/app.txt" 2>/dev/null), left: $(ls "$tmp/stale" | tr '\n' ' ')"
run "$tmp/wide.hl" --design $design -o "$tmp/wv" --verify -q
[ "$status" = 1 ] && [ "$(field "$tmp/wv" 7)" = - ] &&
	[[ $(field "$tmp/wv" 8) == "FAILED before the back end: the output 'f' has type uint32"* ]] &&
	pass "--verify of a program the interpreter refuses: FAILED before the back end, its first error" ||
	fail "--verify of a program the interpreter refuses: exit status $status, app.txt: $(cat "$tmp/wv/app.txt" 2>/dev/null)"

# --sequential: a coarse-grained pipeline loop's iterations one after another, not overlapped
bl=compiler/tests/map/transpose_tiles.hl
for mode in overlapped sequential; do
	flag=
	[ $mode = sequential ] && flag=--sequential
	run $bl --design $design --emit ubuf -o "$tmp/$mode" -q $flag
done
ov=$(sed -n 's/^\/\/ latency: first input at cycle 0, last output at cycle //p' "$tmp/overlapped/transpose_tiles.ubuf" 2>/dev/null)
sq=$(sed -n 's/^\/\/ latency: first input at cycle 0, last output at cycle //p' "$tmp/sequential/transpose_tiles.ubuf" 2>/dev/null)
grep -q '^// coarse-grained pipeline: loop yt (level 2), 4 iterations, .*overlapped by' "$tmp/overlapped/transpose_tiles.ubuf" 2>/dev/null &&
	grep -q '^// coarse-grained pipeline: loop yt .*one after another (sequential scheduling)$' "$tmp/sequential/transpose_tiles.ubuf" 2>/dev/null &&
	[ -n "$ov" ] && [ -n "$sq" ] && [ "$sq" -gt "$ov" ] &&
	pass "--sequential: the pipeline loop's iterations one after another, $sq cycles where they overlap in $ov" ||
	fail "--sequential: overlapped '$ov', sequential '$sq' cycles, or the pipeline lines missing"
# a pipeline loop inside another loop of the array (its period found from its first iteration)
run compiler/tests/map/compute_in_tiles2.hl --design $design --emit ubuf -o "$tmp/seq2" -q --sequential
[ "$status" = 0 ] && grep -q '^// coarse-grained pipeline: loop xt (level 2), 2 iterations, .*one after another (sequential scheduling)$' \
	"$tmp/seq2/compute_in_tiles2.ubuf" 2>/dev/null &&
	pass "--sequential with the pipeline loop inside another loop of the array" ||
	fail "--sequential with the pipeline loop inside another loop: exit status $status"
# no pipeline loop: a note says --sequential has nothing to do
run $hl --design $design --emit ubuf -o "$tmp/seq3" -q --sequential
[ "$status" = 0 ] && grep -q 'note: --sequential: no loop of the accelerator (above its innermost) has Funcs computed at it' \
	"$tmp/err" 2>/dev/null && pass "--sequential without a pipeline loop: a note" ||
	fail "--sequential without a pipeline loop: exit status $status, no note"
usage "--sequential with --check" "cgrac: --sequential does not apply to --check: it is for $flow_where" \
	$hl --check --sequential

suite_end "cgrac command line"
