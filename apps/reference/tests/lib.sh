# lib.sh - what the application-reference suites share (sourced, from the
# repository root): tool paths, counters, the list of applications, the input
# file of an application, and a bit-for-bit image comparison.

HALIDE_RUN=${HALIDE_RUN:-bin/halide_run}
APPREF=${APPREF:-bin/appref}
CGRAC=${CGRAC:-bin/cgrac}
# Random inputs: each seed with samples in 0..255 and in the full 16-bit range.
SEEDS=${SEEDS:-1 2 3}
RANGES=("0 255" "0 65535")

passed=0 failed=0 skipped=0

pass() { echo "PASS $*"; passed=$((passed + 1)); }
fail() { echo "FAIL $*"; failed=$((failed + 1)); }
skip() { echo "SKIP $*"; skipped=$((skipped + 1)); }

# closing NAME: the suite's closing line; the exit status says whether all passed.
closing() {
	local tail=""
	[ "$skipped" -gt 0 ] && tail=", $skipped skipped"
	echo "$1: $passed passed, $failed failed$tail"
	[ "$failed" -eq 0 ]
}

# need TOOL...: stops the suite (one failure) unless every tool is built.
need() {
	local t
	for t in "$@"; do
		if [ ! -x "$t" ]; then
			echo "FAIL $t is not built (make $t)"
			echo "$suite_name: 0 passed, 1 failed"
			exit 1
		fi
	done
}

# The applications: every apps/<app>/<app>.hl.
app_names() {
	local hl
	for hl in apps/*/*.hl; do
		[ -e "$hl" ] && basename "$hl" .hl
	done
}

# input_ext APP [halide]: pgm or ppm, by the channels of the application's
# input as its C reference says, or with "halide" by the dimensions of its first
# input as real Halide says.
input_ext() {
	local three
	if [ "${2:-}" = halide ]; then
		three=$("$HALIDE_RUN" inputs "$1" 2>/dev/null | awk 'NR == 1 { print ($2 == 3) }')
	else
		three=$("$APPREF" info "$1" 2>/dev/null | awk '{ print ($2 ~ /x3$/) }')
	fi
	[ "$three" = 1 ] && echo ppm || echo pgm
}

# same LABEL A B: PASS when images A and B hold the same samples, else FAIL
# with the first differences.
same() {
	local label=$1 out
	if out=$("$APPREF" cmp "$2" "$3" 2>&1); then
		pass "$label"
	else
		fail "$label"
		echo "$out" | sed 's/^/    /'
	fi
}
