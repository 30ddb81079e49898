#!/usr/bin/env bash
# Golden files and determinism for the interconnect: the 4x4 design's
# routing.graph and config.map must match the reviewed copies in
# canal/tests/golden/ byte for byte, and every design must generate
# byte-identical collateral twice. --update rewrites the golden copies (review
# the diff before committing).
set -u
cd "$(dirname "$0")/../.."
. scripts/suite_lib.sh || exit 1
canal=${CANAL:-bin/canal}
golden=canal/tests/golden
suite_tmp

# gen DESIGN OUT: the cores' collateral (no rules: the interconnect needs
# only their ports and registers; the memory's only if the chip has one),
# then the interconnect
gen() {
	local spec=canal/specs/$1.yaml cores
	mapfile -t cores < <($canal cores "$spec")
	bin/peak "${cores[0]}" -o "$2" --no-rules -q >/dev/null &&
		{ [ ${#cores[@]} -lt 2 ] || bin/lake "${cores[1]}" -o "$2" -q; } &&
		$canal "$spec" -o "$2" -q
}

gen cgra_4x4 "$tmp/a" || { echo "golden: generation failed"; failed=1; suite_end "golden"; exit 1; }
if [ "${1:-}" = --update ]; then
	mkdir -p "$golden"
	cp "$tmp/a/routing.graph" "$tmp/a/config.map" "$golden/"
	echo "golden: updated $golden"
	exit 0
fi
for f in routing.graph config.map; do
	if diff -u "$golden/$f" "$tmp/a/$f" >"$tmp/$f.diff"; then
		pass "golden $f (cgra_4x4)"
	else
		fail "golden $f differs (make update-golden after review):"; head -30 "$tmp/$f.diff"
	fi
done
for spec in canal/specs/*.yaml; do
	d=$(basename "$spec" .yaml)
	if gen "$d" "$tmp/1/$d" && gen "$d" "$tmp/2/$d" && diff -r "$tmp/1/$d" "$tmp/2/$d" >/dev/null; then
		pass "$d: two generations are byte-identical"
	else
		fail "$d: generation is not deterministic"
	fi
done
suite_end "golden"
