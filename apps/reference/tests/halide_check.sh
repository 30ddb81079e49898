#!/usr/bin/env bash
# halide_check.sh - `make halide-check`: every application file, unchanged, run
# by the real Halide library (bin/halide_run), checked bit for bit:
#   1. Halide's arithmetic rules that the C references and cgrac's interpreter
#      assume (halide_run semantics);
#   2. per application, on its own input and on random inputs (SEEDS, samples
#      in 0..255 and in 0..65535), all written by bin/cgrac APP.hl --golden:
#      Halide's output against the interpreter's golden image, and, for the
#      applications with a C reference (bin/appref info), against it;
#   3. per semantics probe (apps/reference/semantics/*.hl: division, modulo,
#      shifts, mixed signedness, abs, select's literals, 8-bit types ... on
#      every pixel), on random 16-bit inputs (SEEDS): Halide's output against
#      cgrac --run.
set -u
cd "$(dirname "$0")/../../.." || exit 1
suite_name=halide-check
. apps/reference/tests/lib.sh
need "$HALIDE_RUN" "$APPREF" "$CGRAC"
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT

check_semantics() {
	local out
	out=$("$HALIDE_RUN" semantics 2>&1)
	echo "$out" | grep -E '^(PASS|FAIL) '
	passed=$((passed + $(echo "$out" | grep -c '^PASS ')))
	failed=$((failed + $(echo "$out" | grep -c '^FAIL ')))
	echo "$out" | grep -q '^semantics: ' || fail "halide_run semantics did not finish: $out"
}

# check_app APP: step 2 for one application. Each case (its own input,
# then each seed and range) is a folder written by cgrac --golden: the inputs
# (<app>.<image>.<ext>, one per ImageParam the output reads, in declaration
# order, as halide_run inputs lists them) and cgrac's golden image; Halide runs
# them all at once (compiled once). An application with a C reference (appref
# info knows it) is also compared with it.
check_app() {
	local app=$1 hl dir names n c name opts f err ref=0 args=() cases=("own:") seed range ext
	hl=apps/$app/$app.hl dir=$tmp/$app
	"$APPREF" info "$app" >/dev/null 2>&1 && ref=1
	if ! names=$("$HALIDE_RUN" inputs "$app" 2>&1); then
		fail "$app: Halide refused it: $names"
		return
	fi
	for seed in $SEEDS; do
		for range in "${RANGES[@]}"; do
			cases+=("random ${range/ /..}, seed $seed:--seed $seed --range ${range/ /:}")
		done
	done
	for c in "${!cases[@]}"; do
		opts=${cases[$c]#*:}
		# shellcheck disable=SC2086
		if ! err=$("$CGRAC" "$hl" -q --golden "$dir/$c" $opts 2>&1); then
			fail "$app: cgrac --golden ${cases[$c]%%:*}: $err"
			return
		fi
		while read -r n _; do
			f=$(ls "$dir/$c/$app.$n".* 2>/dev/null | head -1)
			args+=("${f:-$dir/$c/$app.$n.missing}")
		done <<<"$names"
		ext=$(ls "$dir/$c"/golden.* | head -1)
		args+=(-o "$dir/$c/halide.${ext##*.}")
	done
	if ! err=$("$HALIDE_RUN" run "$app" "${args[@]}" 2>&1); then
		fail "$app: Halide refused or failed to run it: $err"
		return
	fi
	for c in "${!cases[@]}"; do
		name=${cases[$c]%%:*}
		[ "$name" = own ] && name="own input"
		ext=$(ls "$dir/$c"/golden.* | head -1)
		ext=${ext##*.}
		same "$app: Halide = cgrac golden ($name)" "$dir/$c/halide.$ext" "$dir/$c/golden.$ext"
		[ $ref = 1 ] || continue
		f=$(ls "$dir/$c/$app".*.* | grep -v '/golden\.' | head -1)
		if ! err=$("$APPREF" run "$app" "$f" -o "$dir/$c/ref.$ext" 2>&1); then
			fail "$app: Halide = C reference ($name): $err"
			continue
		fi
		same "$app: Halide = C reference ($name)" "$dir/$c/halide.$ext" "$dir/$c/ref.$ext"
	done
}

# check_probe HL: step 3 for one semantics probe.
check_probe() {
	local hl=$1 name dir seed args=() err i=0
	name=sem_$(basename "$hl" .hl) dir=$tmp/$name
	mkdir -p "$dir"
	for seed in $SEEDS; do
		"$APPREF" gen 64x64x1 --seed "$seed" --range 0 65535 -o "$dir/in$seed.pgm"
		args+=("$dir/in$seed.pgm" -o "$dir/halide$seed.pgm")
	done
	if ! err=$("$HALIDE_RUN" run "$name" "${args[@]}" 2>&1); then
		fail "$name: Halide refused or failed to run it: $err"
		return
	fi
	for seed in $SEEDS; do
		if err=$("$CGRAC" "$hl" --run "$dir/in$seed.pgm" -o "$dir/cgrac$seed.pgm" 2>&1); then
			same "$name: Halide = cgrac --run (random 0..65535, seed $seed)" \
				"$dir/halide$seed.pgm" "$dir/cgrac$seed.pgm"
		else
			fail "$name: cgrac --run failed (seed $seed): $err"
		fi
	done
}

check_semantics
for app in $(app_names); do
	check_app "$app"
done
for hl in apps/reference/semantics/*.hl; do
	[ -e "$hl" ] && check_probe "$hl"
done
closing "$suite_name"
