#!/usr/bin/env bash
# Golden files: the tiny PE's Verilog, normal form, info and rules must match the reviewed
# copies in peak/tests/golden/ byte for byte. --update rewrites them (review the
# diff before committing).
set -u
cd "$(dirname "$0")/../.."
golden=peak/tests/golden
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
bin/peak peak/specs/tiny.yaml -o "$tmp" --ir peak/ir/ops.yaml -q >/dev/null || { echo "golden: generation failed"; echo "golden: 0 passed, 1 failed"; exit 1; }
if [ "${1:-}" = --update ]; then
	mkdir -p "$golden"
	cp "$tmp"/tiny.v "$tmp"/tiny.nf "$tmp"/tiny.info.yaml "$tmp"/tiny.rules.yaml "$golden/"
	echo "golden: updated $golden"
	exit 0
fi
passed=0 failed=0
for f in tiny.v tiny.nf tiny.info.yaml tiny.rules.yaml; do
	if diff -u "$golden/$f" "$tmp/$f" >"$tmp/$f.diff"; then
		echo "PASS golden $f"; passed=$((passed + 1))
	else
		echo "FAIL golden $f differs (make update-golden after review):"; head -40 "$tmp/$f.diff"
		failed=$((failed + 1))
	fi
done
echo "golden: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
