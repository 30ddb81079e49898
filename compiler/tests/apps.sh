#!/usr/bin/env bash
# The applications through the front end: for every app of apps/, on its own
# generated input and on random inputs (seeds 1-3, pixels over 0:255 and over
# the whole 16-bit range), the lowered loop nest run with its compute kernels
# on hardware words (cgrac --run-lowered) must give the reference
# interpreter's output bit for bit (cgrac --run). Also reports the time to
# parse and lower each application and its IR operation counts. Then the same
# for Halide's arithmetic (the semantics probes of apps/reference/semantics,
# checked against real Halide by halide-check, 8-bit types among them) on
# random 16-bit inputs; a probe the array cannot compute (a division by a
# value that is not a power of two) is listed with its reason.
#   usage: compiler/tests/apps.sh [APP...]   (CGRAC=... picks the binary)
set -u
cd "$(dirname "$0")/../.."
. scripts/suite_lib.sh || exit 1
cgrac=${CGRAC:-bin/cgrac}
design=rtl_out/cgra_4x4
[ -f $design/design.yaml ] || bash scripts/rtl.sh cgra_4x4 >/dev/null || exit 1
suite_tmp
apps=("$@")
[ ${#apps[@]} -eq 0 ] && apps=($(ls apps/*/*.hl | xargs -n1 basename | sed 's/\.hl$//'))

for app in "${apps[@]}"; do
	hl=apps/$app/$app.hl
	cases=("own:" "s1:--seed 1" "s2:--seed 2 --range 0:65535" "s3:--seed 3 --range 0:65535")
	for c in "${cases[@]}"; do
		name=${c%%:*} args=${c#*:}
		in=$tmp/$app.$name
		# shellcheck disable=SC2086
		if ! $cgrac "$hl" -q --golden "$in" $args || ! g=$(echo "$in"/golden.*) ||
			! $cgrac "$hl" -q --design $design --run-lowered "$in" -o "$in/hw.${g##*.}"; then
			fail "$app ($name): cgrac failed"
			continue
		fi
		if cmp -s "$g" "$in/hw.${g##*.}"; then
			pass "$app ($name${args:+: $args}): lowered kernels on 16-bit words = interpreter, bit for bit"
		else
			fail "$app ($name${args:+: $args}): lowered kernels differ from the interpreter"
		fi
	done
	t0=$(date +%s%N)
	for _ in 1 2 3 4 5 6 7 8 9 10; do $cgrac "$hl" -q --design $design --emit lowered >/dev/null; done
	ms=$(awk -v a="$t0" -v b="$(date +%s%N)" 'BEGIN { printf "%.1f", (b - a) / 1e7 }')
	counts=$($cgrac "$hl" -q --design $design --emit dfg | awk '/operation/ { n += $4 } END { print n }')
	echo "     $app: parse + lower + print ${ms} ms (mean of 10 runs, whole process); $counts IR operations in its kernels"
done

[ $# -eq 0 ] && for hl in apps/reference/semantics/*.hl; do
	probe=sem_$(basename "$hl" .hl)
	if ! why=$($cgrac "$hl" -q --design $design --emit dfg 2>&1 >/dev/null); then
		echo "     $probe: not computed on the array: $(echo "${why#*error: }" | head -1)"
		continue
	fi
	for seed in 1 2 3; do
		in=$tmp/$probe.$seed.in.pgm
		if ! $cgrac "$hl" -q --gen-input --seed $seed --range 0:65535 -o "$in" ||
			! $cgrac "$hl" -q --run "$in" -o "$tmp/$probe.$seed.gold.pgm" ||
			! $cgrac "$hl" -q --design $design --run-lowered "$in" -o "$tmp/$probe.$seed.hw.pgm"; then
			fail "$probe (seed $seed): cgrac failed"
		elif cmp -s "$tmp/$probe.$seed.gold.pgm" "$tmp/$probe.$seed.hw.pgm"; then
			pass "$probe (seed $seed, 0:65535): lowered kernels on 16-bit words = interpreter, bit for bit"
		else
			fail "$probe (seed $seed): lowered kernels differ from the interpreter"
		fi
	done
done
suite_end "compiler applications"
