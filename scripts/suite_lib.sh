# suite_lib.sh - what the shell test suites share: PASS and FAIL lines with
# their counts, a temporary directory removed on exit, and the closing line
#     NAME: N passed, M failed
# that scripts/run_tests.sh, CI and the Makefile read. Sourced, not run, from
# the repository root, after the suite's own cd:
#     cd "$(dirname "$0")/../.." || exit 1
#     . scripts/suite_lib.sh
#     suite_tmp                     (only a suite that needs $tmp)
#     ... pass "what held" / fail "what did not" ...
#     suite_end "lake golden"       (the suite's last command: its exit status)
#
#   passed, failed     the counts, from 0
#   pass MSG           prints "PASS MSG" and counts a pass
#   fail MSG           prints "FAIL MSG" and counts a failure
#   suite_tmp          makes a temporary directory, sets tmp to it and sets an
#                      EXIT trap running suite_cleanup
#   suite_cleanup      removes $tmp; a suite with more to clean up sets its own
#                      trap and calls it there:
#                          trap 'kill "$server"; suite_cleanup' EXIT
#   suite_end NAME     prints the closing line; returns 1 if anything failed

passed=0 failed=0

pass() { echo "PASS $1"; passed=$((passed + 1)); }
fail() { echo "FAIL $1"; failed=$((failed + 1)); }

suite_tmp() {
	tmp=$(mktemp -d) || exit 1
	trap suite_cleanup EXIT
}

suite_cleanup() {
	[ -z "${tmp:-}" ] || rm -rf "$tmp"
}

suite_end() {
	echo "$1: $passed passed, $failed failed"
	[ "$failed" -eq 0 ]
}
