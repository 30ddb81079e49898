#!/usr/bin/env bash
# Golden files of the compiler's front end: for every application of apps/,
# the lowered loop nest (--emit lowered) and the compute graph
# (<app>.dfg.json, --emit dfg), the unified buffers and their mapping with
# every memory tile's configuration (<app>.ubuf, <app>.mem, --emit ubuf) on
# cgra_4x4's collateral (or a larger chip's: small_design in scripts/suite_lib.sh),
# compared with
# compiler/tests/golden/; and determinism (a second run gives the same bytes).
#   usage: compiler/tests/golden.sh [--update]
set -u
cd "$(dirname "$0")/../.."
. scripts/suite_lib.sh || exit 1
update=0
[ "${1:-}" = --update ] && update=1
for d in cgra_4x4 cgra_12x12 cgra_32x16; do
	[ -f rtl_out/$d/design.yaml ] || bash scripts/rtl.sh $d >/dev/null || exit 1
done
gold=compiler/tests/golden
suite_tmp

for hl in apps/*/*.hl; do
	app=$(basename "$hl" .hl)
	design=rtl_out/$(small_design "$app")
	for run in 1 2; do
		if ! bin/cgrac "$hl" --design $design -o "$tmp/$run" --emit lowered -q >/dev/null ||
			! bin/cgrac "$hl" --design $design -o "$tmp/$run" --emit dfg -q >/dev/null ||
			! bin/cgrac "$hl" --design $design -o "$tmp/$run" --emit ubuf -q >/dev/null; then
			fail "$app: cgrac failed"
			continue 2
		fi
	done
	for ext in lowered dfg.json ubuf mem; do
		if [ $update = 1 ]; then
			cp "$tmp/1/$app.$ext" "$gold/$app.$ext"
		fi
		if cmp -s "$tmp/1/$app.$ext" "$gold/$app.$ext"; then
			pass "$app.$ext matches the golden file"
		else
			diff "$gold/$app.$ext" "$tmp/1/$app.$ext" | head -10
			fail "$app.$ext differs from $gold/$app.$ext (make update-golden after review)"
		fi
		if cmp -s "$tmp/1/$app.$ext" "$tmp/2/$app.$ext"; then
			pass "$app.$ext is deterministic"
		else
			fail "$app.$ext differs between two runs"
		fi
	done
done
suite_end "compiler golden files"
