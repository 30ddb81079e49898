#!/usr/bin/env bash
# examples.sh - the examples of docs/*.md, run so that the documentation
# cannot drift from the tools. An example is a fenced block whose previous
# line is an HTML comment
#     <!-- example: KIND MODE [ARG] ["EXPECTED"] -->
# or, for several expected lines, the same comment spread over lines:
#     <!-- example: KIND error
#     spec.yaml:3:7: error: first message
#     spec.yaml:9:1: error: second message
#     -->
# KIND and what is run (the block is saved under the file name shown, in a
# fresh folder, and the tool is run from that folder):
#   pe            spec.yaml   bin/peak check spec.yaml; a PE spec that passes
#                             is also generated (bin/peak spec.yaml -o out --no-rules)
#   mem           spec.yaml   bin/lake spec.yaml -o out
#   interconnect  spec.yaml   saved as canal/specs/spec.yaml beside links to
#                             peak/ and lake/, so that core paths such as
#                             ../../peak/specs/pe_base.yaml resolve as in the
#                             repository; the cores' collateral is generated
#                             into out/ (bin/canal cores, bin/peak --no-rules,
#                             bin/lake), then bin/canal spec.yaml -o out
#   app           app.hl      MODE ok: bin/cgrac app.hl --check, then by ARG:
#                               check    nothing more
#                               lowered  --emit lowered (no design needed)
#                               dfg      --emit dfg on the design
#                               ubuf     --emit ubuf on the design
#                               (none)   the whole flow on the design (a .bs),
#                                        then the generated inputs and the
#                                        interpreter's output (--golden g) and
#                                        the lowered kernels on them
#                                        (--run-lowered g): the two images
#                                        must be equal
#                             MODE error: the whole flow on the design
#                             (--design DESIGN -o out)
#   input         input.yaml  beside a one-line-stencil app.hl:
#                             bin/cgrac app.hl --gen-input -o in.pgm
#   sweep         sweep.yaml  a design-space sweep (dse/README.md), in a folder
#                             linking apps/, canal/, peak/ and lake/:
#                             bin/dse check sweep.yaml
#   shell         console     run from the repository root: each line
#                             '$ COMMAND' is run with bash; the lines up to
#                             the next '$ ' line are its expected stdout,
#                             exactly (an exit status other than 0 fails)
# MODE ok: the tool must exit with 0. MODE error: it must exit non-zero,
# print each expected line on stderr as a whole line (and a caret line after
# a positioned message), and write nothing into out/.
# The design is rtl_out/cgra_4x4 (DOCS_DESIGN=NAME picks another), generated
# by scripts/rtl.sh when missing. Closes with
#     docs examples: N passed, M failed
# Usage: bash docs/tests/examples.sh [FILE.md...]   (default docs/*.md and
# dse/README.md)
cd "$(dirname "$0")/../.." || exit 1
. scripts/suite_lib.sh
suite_tmp
root=$PWD
design_name=${DOCS_DESIGN:-cgra_4x4}
design=$root/rtl_out/$design_name

for tool in peak lake canal cgrac dse; do
	if [ ! -x "bin/$tool" ]; then
		echo "docs examples: bin/$tool not found; run 'make build' first" >&2
		fail "bin/$tool exists"
		suite_end "docs examples"
		exit 1
	fi
done

files=("$@")
[ ${#files[@]} -gt 0 ] || files=(docs/*.md dse/README.md)

# ---- extraction: one folder per example, $tmp/ex/NNN/{meta,expect,block}
# meta: "FILE LINE KIND MODE ARG"; expect: the expected lines, one per line.
awk -v out="$tmp/ex" '
function flush_meta(   d) {
	d = sprintf("%s/%03d", out, n)
	system("mkdir -p " d)
	printf "%s %d %s %s %s\n", FILENAME, start, kind, mode, (arg == "" ? "-" : arg) > (d "/meta")
	printf "%s", expect > (d "/expect")
	close(d "/meta"); close(d "/expect")
}
FNR == 1 { state = 0; infence = 0 }
state == 0 && /^```/ { infence = !infence; next }
state == 0 && infence { next }
state == 0 && /^<!-- example: / {
	n++; start = FNR; expect = ""
	line = $0
	sub(/^<!-- example: /, "", line)
	closed = sub(/ *-->[ \t]*$/, "", line)
	q = index(line, "\"")
	if (q > 0) {
		rest = substr(line, q + 1)
		sub(/"[ \t]*$/, "", rest)
		expect = rest "\n"
		line = substr(line, 1, q - 1)
	}
	split(line, w, " ")
	kind = w[1]; mode = w[2]; arg = w[3]
	state = closed ? 2 : 1
	next
}
state == 1 {
	if ($0 ~ /^-->[ \t]*$/) { state = 2; next }
	expect = expect $0 "\n"
	next
}
state == 2 {
	if ($0 !~ /^```/) {
		printf "%s:%d: an example comment must be followed by a fenced block\n", FILENAME, start > "/dev/stderr"
		bad++
		state = 0
		next
	}
	flush_meta()
	d = sprintf("%s/%03d", out, n)
	state = 3
	printf "" > (d "/block")
	next
}
state == 3 {
	d = sprintf("%s/%03d", out, n)
	if ($0 ~ /^```[ \t]*$/) { close(d "/block"); state = 0; next }
	print > (d "/block")
	next
}
END { exit bad ? 1 : 0 }
' "${files[@]}" || fail "every example comment is followed by a fenced block"

# ---- helpers

# run DIR CMD... : runs CMD in DIR with stdout/stderr into $cur/{stdout,stderr};
# sets status.
run() {
	local dir=$1
	shift
	(cd "$dir" && timeout 300 "$@" >"$cur/stdout" 2>"$cur/stderr")
	status=$?
}

# Describes the last run for a failure report.
show() {
	echo "    --- exit status $status; stderr:"
	sed -n '1,25p' "$cur/stderr" | sed 's/^/    | /'
}

# check_error WHAT OUTDIR: the last run failed with every expected line.
check_error() {
	local what=$1 outdir=$2 why=
	if [ "$status" -eq 0 ]; then
		why="accepted (exit status 0)"
	elif [ "$status" -ge 124 ]; then
		why="crashed or timed out (exit status $status)"
	fi
	if [ -z "$why" ] && [ ! -s "$cur/expect" ]; then
		why="no expected message in the example's comment"
	fi
	while [ -z "$why" ] && IFS= read -r want; do
		[ -n "$want" ] || continue
		grep -qxF -- "$want" "$cur/stderr" || why="missing expected line: $want"
	done <"$cur/expect"
	if [ -z "$why" ] && grep -q ':[0-9]*:[0-9]*: error: ' "$cur/expect" && ! grep -q '\^$' "$cur/stderr"; then
		why="no caret line under the message"
	fi
	if [ -z "$why" ] && [ -n "$outdir" ] && [ -d "$outdir" ] && [ -n "$(ls -A "$outdir")" ]; then
		why="wrote output despite the error: $(ls -A "$outdir" | tr '\n' ' ')"
	fi
	if [ -z "$why" ]; then
		pass "$what"
	else
		fail "$what: $why"
		show
	fi
}

# check_ok WHAT [FILE...]: the last run succeeded and wrote the files.
check_ok() {
	local what=$1 f
	shift
	if [ "$status" -ne 0 ]; then
		fail "$what: exit status $status"
		show
		return 1
	fi
	for f in "$@"; do
		if [ ! -s "$f" ]; then
			fail "$what: $(basename "$f") was not written"
			return 1
		fi
	done
	return 0
}

ensure_design() {
	[ -f "$design/design.yaml" ] && return 0
	echo "docs examples: generating $design_name (scripts/rtl.sh)"
	bash scripts/rtl.sh "$design_name" >/dev/null 2>"$tmp/rtl.err" || {
		cat "$tmp/rtl.err" >&2
		return 1
	}
}

# The small application that input examples go with.
stencil_app='ImageParam input(UInt(16), 2, "input");
Var x("x"), y("y");
Func blur("blur");
blur(x, y) = (input(x, y) + input(x + 1, y)) / 2;
blur.bound(x, 0, 16).bound(y, 0, 8);
hw_accelerate(blur);
stream_to_accelerator(input);'

# ---- one function per kind

ex_pe() {
	local w=$cur/w
	mkdir -p "$w"
	cp "$cur/block" "$w/spec.yaml"
	run "$w" "$root/bin/peak" check spec.yaml
	if [ "$mode" = error ]; then
		check_error "$what"
		return
	fi
	check_ok "$what" || return
	if grep -q '^pe:' "$w/spec.yaml"; then
		run "$w" "$root/bin/peak" spec.yaml -o out --no-rules -q
		check_ok "$what (generated)" "$w/out/$(sed -n 's/^pe: *\([A-Za-z0-9_]*\).*/\1/p' "$w/spec.yaml").v" || return
	fi
	pass "$what"
}

ex_mem() {
	local w=$cur/w
	mkdir -p "$w"
	cp "$cur/block" "$w/spec.yaml"
	run "$w" "$root/bin/lake" spec.yaml -o out -q
	if [ "$mode" = error ]; then
		check_error "$what" "$w/out"
		return
	fi
	local name
	name=$(sed -n 's/^mem: *\([A-Za-z0-9_]*\).*/\1/p' "$w/spec.yaml")
	check_ok "$what" "$w/out/$name.v" "$w/out/$name.info.yaml" "$w/out/$name.smt2" && pass "$what"
}

ex_interconnect() {
	local w=$cur/w spec core
	mkdir -p "$w/canal/specs" "$w/canal/specs/out"
	ln -s "$root/peak" "$w/peak"
	ln -s "$root/lake" "$w/lake"
	spec=$w/canal/specs
	cp "$cur/block" "$spec/spec.yaml"
	# the cores' collateral, as make rtl writes it before canal runs
	local i=0
	while IFS= read -r core; do
		if [ $i -eq 0 ]; then
			(cd "$spec" && "$root/bin/peak" "$core" -o out --no-rules -q) >/dev/null 2>&1
		else
			(cd "$spec" && "$root/bin/lake" "$core" -o out -q) >/dev/null 2>&1
		fi
		i=$((i + 1))
	done < <(cd "$spec" && "$root/bin/canal" cores spec.yaml 2>/dev/null)
	# nothing but canal's own files counts as output
	ls -A "$spec/out" >"$cur/cores"
	run "$spec" "$root/bin/canal" spec.yaml -o out -q
	if [ "$mode" = error ]; then
		local extra
		extra=$(ls -A "$spec/out" | grep -vxF -f "$cur/cores" || true)
		if [ -n "$extra" ] && [ "$status" -ne 0 ]; then
			fail "$what: wrote output despite the error: $extra"
			return
		fi
		check_error "$what"
		return
	fi
	check_ok "$what" "$spec/out/cgra.v" "$spec/out/routing.graph" "$spec/out/config.map" \
		"$spec/out/design.yaml" && pass "$what"
}

ex_app() {
	local w=$cur/w
	mkdir -p "$w"
	cp "$cur/block" "$w/app.hl"
	if [ "$mode" = error ]; then
		ensure_design || { fail "$what: no design"; return; }
		run "$w" "$root/bin/cgrac" app.hl --design "$design" -o out -q
		check_error "$what" "$w/out"
		return
	fi
	run "$w" "$root/bin/cgrac" app.hl --check
	check_ok "$what (--check)" || return
	case $arg in
	check) ;;
	lowered)
		run "$w" "$root/bin/cgrac" app.hl -o out --emit lowered -q
		check_ok "$what (--emit lowered)" "$w/out/app.lowered" || return ;;
	dfg | ubuf)
		ensure_design || { fail "$what: no design"; return; }
		run "$w" "$root/bin/cgrac" app.hl --design "$design" -o out --emit "$arg" -q
		local f=app.dfg.json
		[ "$arg" = ubuf ] && f=app.ubuf
		check_ok "$what (--emit $arg)" "$w/out/$f" || return ;;
	-)
		ensure_design || { fail "$what: no design"; return; }
		run "$w" "$root/bin/cgrac" app.hl --design "$design" -o out -q
		check_ok "$what (bitstream)" "$w/out/app.bs" "$w/out/app.io.yaml" || return ;;
	*)
		fail "$what: unknown app stage '$arg'"
		return ;;
	esac
	if [ "$arg" = - ] || [ "$arg" = dfg ]; then
		same_results || return
	fi
	pass "$what"
}

# The generated input run by the interpreter and through the lowered kernels
# on hardware words: the two images must be equal. cgrac --golden writes the
# inputs and the interpreter's output into a folder (g/), --run-lowered g reads it.
same_results() {
	local oext g
	run "$w" "$root/bin/cgrac" app.hl --golden g -q
	check_ok "$what (--golden)" || return
	g=$(echo "$w"/g/golden.*)
	oext=${g##*.}
	cp "$g" "$w/golden.$oext"
	run "$w" "$root/bin/cgrac" app.hl --design "$design" --run-lowered g -o hw.$oext -q
	check_ok "$what (--run-lowered)" "$w/hw.$oext" || return
	if ! cmp -s "$w/golden.$oext" "$w/hw.$oext"; then
		fail "$what: --run-lowered differs from --run"
		return 1
	fi
}

ex_input() {
	local w=$cur/w
	mkdir -p "$w"
	cp "$cur/block" "$w/input.yaml"
	printf '%s\n' "$stencil_app" >"$w/app.hl"
	run "$w" "$root/bin/cgrac" app.hl --gen-input -o in.pgm -q
	if [ "$mode" = error ]; then
		if [ -e "$w/in.pgm" ]; then
			fail "$what: wrote in.pgm despite the error"
			return
		fi
		check_error "$what"
		return
	fi
	check_ok "$what" "$w/in.pgm" && pass "$what"
}

ex_sweep() {
	local w=$cur/w d
	mkdir -p "$w"
	for d in apps canal peak lake; do
		ln -s "$root/$d" "$w/$d"
	done
	cp "$cur/block" "$w/sweep.yaml"
	run "$w" "$root/bin/dse" check sweep.yaml
	if [ "$mode" = error ]; then
		check_error "$what"
		return
	fi
	check_ok "$what" && pass "$what"
}

ex_shell() {
	local cmd='' expected=$cur/want
	if grep -q 'rtl_out/' "$cur/block"; then
		ensure_design || { fail "$what: no design"; return; }
	fi
	: >"$expected"
	# Runs the pending command and compares its stdout with what followed it.
	finish() {
		[ -n "$cmd" ] || return 0
		(cd "$root" && timeout 300 bash -c "$cmd" >"$cur/stdout" 2>"$cur/stderr")
		status=$?
		if [ "$status" -ne 0 ]; then
			fail "$what: '$cmd' exited with $status"
			show
			return 1
		fi
		if ! cmp -s "$cur/stdout" "$expected"; then
			fail "$what: '$cmd' printed something else"
			diff "$expected" "$cur/stdout" | sed -n '1,20p' | sed 's/^/    | /'
			return 1
		fi
		: >"$expected"
		cmd=
	}
	local line
	while IFS= read -r line || [ -n "$line" ]; do
		if [ "${line#'$ '}" != "$line" ]; then
			finish || return
			cmd=${line#'$ '}
		else
			printf '%s\n' "$line" >>"$expected"
		fi
	done <"$cur/block"
	finish || return
	pass "$what"
}

# ---- run them all

shopt -s nullglob
for cur in "$tmp"/ex/*/; do
	cur=${cur%/}
	read -r file line kind mode arg <"$cur/meta"
	what="$file:$line: $kind $mode"
	[ "$arg" = - ] || what+=" $arg"
	case $kind in
	pe | mem | interconnect | app | input | sweep)
		case $mode in
		ok | error) "ex_$kind" ;;
		*) fail "$what: the mode must be ok or error" ;;
		esac ;;
	shell)
		what="$file:$line: shell"
		ex_shell ;;
	*) fail "$what: unknown example kind '$kind'" ;;
	esac
done

suite_end "docs examples"
