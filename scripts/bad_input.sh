#!/usr/bin/env bash
# bad_input.sh - a bad-input suite: every DIR/*.yaml (or DIR/*.hl, an
# application, whose comments start with '//') is an input with a deliberate
# mistake. Its leading comment block holds one or more lines
#     # expect: FILE:LINE:COL: error: MESSAGE
# giving a diagnostic exactly as the tool must print it, with the spec's path
# written as FILE, and optionally a line '# errors: N' (the tool reports
# exactly N errors: no error follows from another). A spec passes when
#   - the tool exits with a non-zero status (and does not crash or hang),
#   - stderr holds every expected line (FILE replaced by the path as passed on
#     the command line), as a whole line, and N lines with ': error: ' when
#     '# errors: N' is given,
#   - stderr shows a caret line (a line ending in '^'),
#   - the output directory was not created, or is empty (nothing written).
#
#   usage: scripts/bad_input.sh DIR TOOL ARG...
# where ARG may be @SPEC@ (the spec's path) or @OUT@ (an output directory).
# Run from the repository root. Needs only bash, coreutils and grep.
set -u

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root" || exit 1

dir=$1
tool=$2
shift 2
args=("$@")

if [ ! -x "$tool" ]; then
	echo "bad-input: $tool not found; run 'make build' first" >&2
	echo "bad-input: 0 passed, 1 failed"
	exit 1
fi

tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
trap 'exit 130' INT TERM

# Seconds one run may take; a hang counts as a failure.
limit=${BAD_TIMEOUT:-60}

pass=0
fail=0

# Prints the tool's stderr, indented, after a failure.
show() {
	echo "    --- exit status $status; stderr:"
	if [ -s "$tmp/err" ]; then
		head -n 40 "$tmp/err" | sed 's/^/    | /'
		local n
		n=$(wc -l <"$tmp/err")
		[ "$n" -gt 40 ] && echo "    | ... ($n lines)"
	else
		echo "    | (empty)"
	fi
	return 0
}

shopt -s nullglob
files=("$dir"/*.yaml "$dir"/*.hl)
if [ ${#files[@]} -eq 0 ]; then
	echo "bad-input: no specs in $dir" >&2
	echo "bad-input: 0 passed, 1 failed"
	exit 1
fi

for f in "${files[@]}"; do
	name=$(basename "$f")
	name=${name%.*}

	# The expected lines: '# expect: ' lines of the leading comment block.
	expects=() nerrors=
	while IFS= read -r line || [ -n "$line" ]; do
		case $line in
		'# expect: '*) expects+=("${line#'# expect: '}") ;;
		'// expect: '*) expects+=("${line#'// expect: '}") ;;
		'# errors: '*) nerrors=${line#'# errors: '} ;;
		'// errors: '*) nerrors=${line#'// errors: '} ;;
		'#'* | '//'*) ;;
		*) break ;;
		esac
	done <"$f"
	if [ ${#expects[@]} -eq 0 ]; then
		echo "FAIL $name: no '# expect:' line at the top of $f"
		fail=$((fail + 1))
		continue
	fi

	rm -rf "$tmp/out"
	: >"$tmp/err"
	# (The subshell keeps bash's own "Segmentation fault" notice off the report.)
	cmd=()
	for a in "${args[@]}"; do
		case $a in
		@SPEC@) cmd+=("$f") ;;
		@OUT@) cmd+=("$tmp/out") ;;
		*) cmd+=("$a") ;;
		esac
	done
	(timeout "$limit" "$tool" "${cmd[@]}" >"$tmp/stdout" 2>"$tmp/err"; exit $?) 2>/dev/null
	status=$?

	why=
	if [ "$status" -eq 124 ]; then
		why="timed out after ${limit}s"
	elif [ "$status" -ge 128 ]; then
		why="crashed (killed by signal $((status - 128)))"
	elif [ "$status" -eq 0 ]; then
		why="accepted the spec (exit status 0)"
	fi
	if [ -z "$why" ]; then
		for e in "${expects[@]}"; do
			want=$e
			case $e in FILE*) want=$f${e#FILE} ;; esac
			if ! grep -qxF -- "$want" "$tmp/err"; then
				why="${why:+$why; }missing expected line: $want"
			fi
		done
		got=$(grep -c ': error: ' "$tmp/err")
		if [ -n "$nerrors" ] && [ "$got" != "$nerrors" ]; then
			why="${why:+$why; }$got errors reported, expected $nerrors"
		fi
	fi
	if [ -z "$why" ] && ! grep -q '\^$' "$tmp/err"; then
		why="no caret line (a line ending in '^')"
	fi
	if [ -z "$why" ]; then
		if [ -d "$tmp/out" ] && [ -n "$(ls -A "$tmp/out")" ]; then
			why="wrote output despite the error: $(ls -A "$tmp/out" | tr '\n' ' ')"
		elif [ -f "$tmp/out" ] && [ -s "$tmp/out" ]; then
			why="wrote output despite the error (a non-empty file $tmp/out)"
		fi
	fi

	if [ -z "$why" ]; then
		echo "PASS $name"
		pass=$((pass + 1))
	else
		echo "FAIL $name: $why"
		show
		fail=$((fail + 1))
	fi
done

echo "bad-input: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
