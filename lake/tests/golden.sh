#!/usr/bin/env bash
# Golden files and determinism: the pub memory tile's Verilog, info and SMT
# model must match the reviewed copies in lake/tests/golden/ byte for byte, and
# every spec must generate byte-identical files twice. --update rewrites the
# golden copies (review the diff before committing).
set -u
cd "$(dirname "$0")/../.."
. scripts/suite_lib.sh || exit 1
lake=${LAKE:-bin/lake}
golden=lake/tests/golden
suite_tmp
files="pub.v pub.info.yaml pub.smt2"
$lake lake/specs/pub.yaml -o "$tmp/a" -q || { echo "golden: generation failed"; failed=1; suite_end "golden"; exit 1; }
if [ "${1:-}" = --update ]; then
	mkdir -p "$golden"
	for f in $files; do cp "$tmp/a/$f" "$golden/"; done
	echo "golden: updated $golden"
	exit 0
fi
for f in $files; do
	if diff -u "$golden/$f" "$tmp/a/$f" >"$tmp/$f.diff"; then
		pass "golden $f"
	else
		fail "golden $f differs (make update-golden after review):"; head -40 "$tmp/$f.diff"
	fi
done
for spec in lake/specs/*.yaml lake/tests/specs/*.yaml; do
	name=$(basename "$spec" .yaml)
	if $lake "$spec" -o "$tmp/1/$name" -q && $lake "$spec" -o "$tmp/2/$name" -q &&
		diff -r "$tmp/1/$name" "$tmp/2/$name" >/dev/null; then
		pass "$name: two generations are byte-identical"
	else
		fail "$name: generation is not deterministic"
	fi
done
suite_end "golden"
