#!/usr/bin/env bash
# halide_check.sh - `make halide-check`: every application file, unchanged, run
# by the real Halide library (bin/halide_run), checked bit for bit:
#   1. Halide's arithmetic rules that the C references and cgrac's interpreter
#      assume (halide_run semantics);
#   2. per application, on its own input (bin/cgrac APP.hl --gen-input): Halide's
#      output against the interpreter's golden image (bin/cgrac APP.hl --run)
#      and against the C reference (bin/appref run);
#   3. per application, on random inputs (SEEDS, samples in 0..255 and in
#      0..65535): Halide's output against the C reference;
#   4. per semantics probe (apps/reference/semantics/*.hl: division, modulo,
#      shifts, mixed signedness, abs, select's literals ... on every pixel), on
#      random 16-bit inputs (SEEDS): Halide's output against cgrac --run.
# While bin/cgrac does not exist, the inputs of step 2 come from bin/appref gen
# with apps/<app>/input.yaml's settings, and the comparisons with cgrac (step 2's
# golden images, step 4) are skipped (SKIP lines, ", N skipped" in the closing
# line).
set -u
cd "$(dirname "$0")/../../.." || exit 1
suite_name=halide-check
. apps/reference/tests/lib.sh
need "$HALIDE_RUN" "$APPREF"
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

# own_input APP HL DIR EXT: the application's own input as DIR/in.EXT, and
# with cgrac its golden image as DIR/golden.EXT.
own_input() {
	local app=$1 hl=$2 dir=$3 ext=$4
	if [ -x "$CGRAC" ]; then
		"$CGRAC" "$hl" --gen-input -o "$dir/in.$ext" &&
			"$CGRAC" "$hl" --run "$dir/in.$ext" -o "$dir/golden.$ext"
	else
		"$APPREF" gen "$app" --yaml "apps/$app/input.yaml" -o "$dir/in.$ext"
	fi
}

# check_app APP: steps 2 and 3 for one application.
check_app() {
	local app=$1 hl dir ext range seed args=() inputs=() labels=() i err
	hl=apps/$app/$app.hl dir=$tmp/$app ext=$(input_ext "$app" halide)
	mkdir -p "$dir"
	if ! err=$(own_input "$app" "$hl" "$dir" "$ext" 2>&1); then
		fail "$app: making its own input and golden image: $err"
		return
	fi
	inputs+=("$dir/in.$ext") labels+=("own input")
	for seed in $SEEDS; do
		for range in "${RANGES[@]}"; do
			i=${#inputs[@]}
			# shellcheck disable=SC2086
			"$APPREF" gen "$app" --seed "$seed" --range $range -o "$dir/in$i.$ext" 2>/dev/null
			inputs+=("$dir/in$i.$ext") labels+=("random ${range/ /..}, seed $seed")
		done
	done
	for i in "${!inputs[@]}"; do
		args+=("${inputs[$i]}" -o "$dir/halide$i.$ext")
	done
	if ! err=$("$HALIDE_RUN" run "$app" "${args[@]}" 2>&1); then
		fail "$app: Halide refused or failed to run it: $err"
		return
	fi
	if [ -x "$CGRAC" ]; then
		same "$app: Halide = cgrac golden (own input)" "$dir/halide0.$ext" "$dir/golden.$ext"
	else
		skip "$app: Halide = cgrac golden (own input): $CGRAC not built yet"
	fi
	for i in "${!inputs[@]}"; do
		if ! err=$("$APPREF" run "$app" "${inputs[$i]}" -o "$dir/ref$i.$ext" 2>&1); then
			fail "$app: Halide = C reference (${labels[$i]}): $err"
			continue
		fi
		same "$app: Halide = C reference (${labels[$i]})" "$dir/halide$i.$ext" "$dir/ref$i.$ext"
	done
}

# check_probe HL: step 4 for one semantics probe.
check_probe() {
	local hl=$1 name dir seed args=() err i=0
	name=sem_$(basename "$hl" .hl) dir=$tmp/$name
	if [ ! -x "$CGRAC" ]; then
		skip "$name: Halide = cgrac --run: $CGRAC not built yet"
		return
	fi
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

[ -x "$CGRAC" ] || echo "halide-check: $CGRAC is not built yet: the inputs come from bin/appref gen" \
	"(apps/<app>/input.yaml) and the comparisons with cgrac's golden images are skipped"
check_semantics
for app in $(app_names); do
	check_app "$app"
done
for hl in apps/reference/semantics/*.hl; do
	[ -e "$hl" ] && check_probe "$hl"
done
closing "$suite_name"
