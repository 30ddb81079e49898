#!/usr/bin/env bash
# Records every artefact the flow produces for the application suite into one
# folder, so that two trees (before and after a change that should not change
# behaviour) can be compared with `diff -r`: each design's collateral (all of
# rtl_out/<design>/), and per design and application --emit
# lowered/dfg/ubuf/mapped/place/route, cgrac --verify's files (the input, the
# golden image, the lowered kernels' and the buffers' outputs, the whole
# flow's, the report and table line without their times) and the variants
# --hop-limit 1, --no-register-packing and
# --no-pipeline. A compile that fails records its exit status and error lines.
#   usage: scripts/artefacts.sh OUT [DESIGN...]   (default: every canal/specs design)
set -u
cd "$(dirname "$0")/.."
out=$(realpath -m "$1")
shift
designs=("$@")
[ ${#designs[@]} -gt 0 ] || mapfile -t designs < <(ls canal/specs | sed 's/\.yaml$//')
mkdir -p "$out"

# run LOG CMD...: runs a compile; on failure records its status and errors.
run() {
	local log=$1
	shift
	if ! "$@" >"$log.stdout" 2>"$log.stderr"; then
		echo "exit $?" >"$log.failed"
		grep 'error:' "$log.stderr" >>"$log.failed"
	fi
	grep -v '^cgrac: \|^route: \|^place: \|^ub: ' "$log.stderr" >"$log.msgs"
	rm -f "$log.stderr"
	[ -s "$log.msgs" ] || rm -f "$log.msgs"
}

# full DIR FLAGS...: the whole flow into DIR, the report without its times.
full() {
	local d=$1
	shift
	mkdir -p "$d"
	run "$d/flow" bin/cgrac "$hl" --design "$rtl" -o "$d" -q "$@"
	rm -f "$d/flow.stdout"
	[ -f "$d/$app.report.yaml" ] && sed -i '/^seconds:/,$d' "$d/$app.report.yaml"
}

# verify DIR: cgrac --verify into DIR, the report and app.txt without their times.
verify() {
	local d=$1
	mkdir -p "$d"
	run "$d/verify" bin/cgrac "$hl" --design "$rtl" -o "$d" -q --verify
	rm -f "$d/verify.stdout"
	[ -f "$d/$app.report.yaml" ] && sed -i '/^seconds:/,$d' "$d/$app.report.yaml"
	[ -f "$d/app.txt" ] && awk -F'\t' -v OFS='\t' '{ $7 = "-"; print }' "$d/app.txt" >"$d/app.txt.untimed" &&
		mv "$d/app.txt.untimed" "$d/app.txt"
}

for design in "${designs[@]}"; do
	rtl=rtl_out/$design
	bash scripts/rtl.sh "$design" >/dev/null 2>&1 || { echo "artefacts: $design does not generate" >&2; continue; }
	mkdir -p "$out/$design"
	cp -r "$rtl" "$out/$design/rtl"
	for hl in apps/*/*.hl; do
		app=$(basename "$hl" .hl)
		o=$out/$design/$app
		mkdir -p "$o/emit"
		for stage in lowered dfg ubuf mapped place route; do
			run "$o/emit/$stage" bin/cgrac "$hl" -q --design "$rtl" -o "$o/emit" --emit $stage
		done
		# the input, golden image, lowered kernels' and buffers' outputs, the whole flow and
		# the table line (without its compile time)
		verify "$o/flow"
		full "$o/hop1" --hop-limit 1
		full "$o/nopack" --no-register-packing
		full "$o/nopipe" --no-pipeline
		full "$o/seed7" --place-seed 7
	done
	echo "artefacts: $design done"
done
