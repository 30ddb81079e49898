#!/usr/bin/env bash
# The flow's property test (dse/README.md, "Random chips"): any legal chip
# compiles and runs an application, or refuses it with a precise reason.
# For each seed, bin/dse random writes a random PE and chip into
# build/property/<seed>/; scripts/rtl.sh regenerates the chip into
# <seed>/rtl/ (peak's and lake's files cached by a hash of the spec, the IR
# and the generator in build/cache/); a sample of 2 or 3
# applications chosen by the seed (one of apps/property/, the rest of those
# and the suite's) is compiled by cgrac and checked at the buffer level
# against the golden image and at cycle level on the configured array by the
# fast simulator (bin/cgrasim); on K seeds chosen by hash, among those with a
# bit-exact application, also under Verilator (verif/sim.sh, the chip
# copied to rtl_out/prop_<seed>/). Each (seed, application) is one check:
#   bit-exact          compiled, and bit for bit (buffers, the fast simulator; and
#                      Verilator when run)
#   refused: CLASS     cgrac refused it naming a resource the chip lacks and
#                      the application needs (REFUSALS below; the claim checked)
#   FAILED             anything else: a wrong value, a crash, a sanitizer
#                      report, an internal or vague error
# and each generated chip one more (FAILED when a generator rejects the
# random specs). A failure prints its seed and the command reproducing it;
# the end: counts by outcome, the wall time, "property: N passed, M failed".
#   usage: scripts/property.sh [--verilator K] [-j N] [--no-register-pattern]
#              [--out DIR] [--corrupt-golden buffers|verilator] SEED|FIRST-LAST...
# -j N runs N seeds at once (default 2). --no-register-pattern: chips with
# switch-box registers on every tile or none (bin/dse random's option).
# --out DIR: the seeds' folders there instead of build/property/.
# --corrupt-golden flips a bit of every golden image before the buffer
# check, or before the co-simulation, so that each application compiled must
# fail there: the test of the test. CGRAC=build/san/bin/cgrac compiles with
# the sanitizers.
set -u

# Refusals that are precise reasons: CLASS|REGEX on the message of cgrac's
# first error; claim_holds checks what each says against the chip before it
# counts.
no_register="^net '[^']+' needs [0-9]+ registers? before [^ ]+ and the design has none for it: its [0-9]+-bit "
no_register+="routing network has no pipeline registers, and no rule of the PE [A-Za-z0-9_]+ passes a [0-9]+-bit "
no_register+="value through the PE's input register"
no_table_mem="^the IR operation 'a table look-up \\(ROM\\)' of table '[^']+' has no rule on the PE [A-Za-z0-9_]+ that "
no_table_mem+="covers it, and the design has no MEM tile to hold the table$"
no_tracks="^the application cannot be routed on [A-Za-z0-9_]+: too few [0-9]+-bit tracks for its placement, [0-9]+ "
no_tracks+="routing nodes? still carrying two nets or more after [0-9]+ iterations \\(the first [^;]+; the router's report "
no_tracks+="is above\\)$"
REFUSALS=(
	"too few PE tiles|^the application does not fit [A-Za-z0-9_]+: needs [0-9]+ PE tiles, the array has [0-9]+$"
	"too few MEM tiles|^the application does not fit [A-Za-z0-9_]+: needs [0-9]+ MEM tiles, the array has [0-9]+ \(the buffers that take the most: [^;]+; [0-9]+ buffers? in memory tiles\)$"
	"too few IO tiles|^the application does not fit [A-Za-z0-9_]+: needs [0-9]+ IO tiles, the array has [0-9]+$"
	"no rule on the PE|^the IR operation '[^']+' has no rule on the PE [A-Za-z0-9_]+ that covers it$"
	"no MEM tile|^the application needs [0-9]+ line buffers? \(.*\) and the design has no MEM tile$"
	"no MEM tile|$no_table_mem"
	"no pipeline register|$no_register"
	"too few tracks|$no_tracks"
)
# The IR operations that give back their input (with a constant, or the
# input on both operands): a PE whose rule for one reads every input through
# its input register can delay a value by a cycle.
DELAY_OPS16=(add_const sub_const or_const xor_const shl_const lshr_const ashr_const umax_const mul_const and_const
	umin_const smin_const smax_const and or umin umax smin smax)
DELAY_OPS1=(and1 or1)

main() {
	cd "$(dirname "$0")/.." || exit 1
	local verilator=0 jobs=2 seeds=()
	gen_opts=() corrupt=none root=build/property
	while [ $# -gt 0 ]; do
		case "$1" in
		--verilator) verilator=${2:-x}; shift 2 || break ;;
		-j) jobs=${2:-x}; shift 2 || break ;;
		--no-register-pattern) gen_opts+=(--no-register-pattern); shift ;;
		--corrupt-golden) corrupt=${2:-x}; shift 2 || break ;;
		--out) root=${2:-}; shift 2 || break ;;
		-h|--help) awk 'NR > 1 && !/^#/ { exit } NR > 1' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
		*)
			if [[ $1 =~ ^([0-9]+)-([0-9]+)$ ]]; then
				mapfile -t -O "${#seeds[@]}" seeds < <(seq "${BASH_REMATCH[1]}" "${BASH_REMATCH[2]}")
			elif [[ $1 =~ ^[0-9]+$ ]]; then
				seeds+=("$1")
			else
				usage
			fi
			shift ;;
		esac
	done
	[[ $verilator =~ ^[0-9]+$ && $jobs =~ ^[1-9][0-9]*$ && $corrupt =~ ^(none|buffers|verilator)$ &&
		-n $root && ${#seeds[@]} -gt 0 ]] || usage
	# each seed once: two runs of one seed would share its folder
	mapfile -t seeds < <(printf '%s\n' "${seeds[@]}" | awk '!seen[$0]++')
	CGRAC=${CGRAC:-bin/cgrac}
	local b
	for b in bin/dse bin/peak bin/lake bin/canal "$CGRAC" "$(dirname "$CGRAC")/cgrasim" bin/verif; do
		[ -x "$b" ] || { echo "property: $b is missing (make build)" >&2; exit 2; }
	done
	mkdir -p "$root"
	t0=$(date +%s%N)
	suite_apps=(apps/*/*.hl)
	prop_apps=(apps/property/*/*.hl)

	run_all "$jobs" seed "${seeds[@]}"
	if [ "$verilator" -gt 0 ]; then
		local chosen
		mapfile -t chosen < <(sim_seeds "$verilator" "${seeds[@]}")
		[ ${#chosen[@]} -eq 0 ] || echo "== under Verilator: seed${chosen[1]:+s} ${chosen[*]}"
		[ ${#chosen[@]} -eq 0 ] || run_all "$jobs" sim "${chosen[@]}"
	fi
	tally "${seeds[@]}"
}

usage() {
	echo "usage: scripts/property.sh [--verilator K] [-j N] [--no-register-pattern] [--out DIR]" \
		"[--corrupt-golden buffers|verilator] SEED|FIRST-LAST..." >&2
	exit 2
}

# ---- running seeds side by side ----

# run_all JOBS STEP SEED...: STEP (seed or sim) of every seed, JOBS at a
# time; each seed's lines printed in seed order as soon as they can be.
run_all() {
	local jobs=$1 step=$2 i=0 shown=0 running=0
	shift 2
	local list=("$@")
	for s in "${list[@]}"; do rm -f "$root/$s/$step.done"; done
	while [ $shown -lt ${#list[@]} ]; do
		if [ $i -lt ${#list[@]} ] && [ $running -lt "$jobs" ]; then
			mkdir -p "$root/${list[$i]}"
			{ "run_$step" "${list[$i]}" >"$root/${list[$i]}/$step.out" 2>&1
			  touch "$root/${list[$i]}/$step.done"; } &
			i=$((i + 1)) running=$((running + 1))
			continue
		fi
		[ $running -gt 0 ] || break   # a step that left no .done: tally counts it
		wait -n
		running=$((running - 1))
		while [ $shown -lt ${#list[@]} ] && [ -f "$root/${list[$shown]}/$step.done" ]; do
			cat "$root/${list[$shown]}/$step.out"
			shown=$((shown + 1))
		done
	done
	wait
}

secs() { awk -v a="$1" -v b="$(date +%s%N)" 'BEGIN { printf "%.1f", (b - a) / 1e9 }'; }

# A number from a hash of the words, for seeded choices that do not depend
# on bash's own generator.
hashnum() { printf '%s' "$*" | sha256sum | cut -c1-12 | { read -r h; echo $((16#$h)); }; }

# The reproducing command of a seed, with the options that shape it.
repro() {
	local c="scripts/property.sh"
	[ "$CGRAC" = bin/cgrac ] || c="CGRAC=$CGRAC $c"
	[ ${#gen_opts[@]} -eq 0 ] || c="$c ${gen_opts[*]}"
	[ "$root" = build/property ] || c="$c --out $root"
	[ "$corrupt" = none ] || c="$c --corrupt-golden $corrupt"
	[ -z "${2:-}" ] || c="$c $2"
	echo "$c $1"
}

# ---- one seed: the chip, then its applications ----

# The first error message of a log without its file and position.
first_error() { grep -m1 'error: ' "$1" | sed 's/^.*error: //; s/\t/ /g'; }

chip() {
	bin/dse random --seed "$seed" -o "$dir" "${gen_opts[@]}" >/dev/null 2>"$dir/dse.log" ||
		{ echo "bin/dse random failed: $(head -n 1 "$dir/dse.log")" >"$dir/chip.why"; return 1; }
	# the one chip step (peak's and lake's files from build/cache/); which tool rejects the
	# spec, and its first error
	bash scripts/rtl.sh "$dir/spec.yaml" -o "$rtl" -q >"$dir/chip.log" 2>&1 ||
		{ echo "$(sed -n 's/^rtl: error: //p' "$dir/chip.log" | head -n 1): $(first_error "$dir/chip.log")" \
			>"$dir/chip.why"; return 1; }
}

# The seed's applications: one of apps/property/, then one or two of all
# the others, in the order of a hash of the seed and the name.
sample() {
	local k=$(($(hashnum apps "$seed") % 2 + 1)) first
	ranked() { for hl in "$@"; do echo "$(hashnum "$seed" "$hl") $hl"; done | sort -n | cut -d' ' -f2; }
	first=$(ranked "${prop_apps[@]}" | head -n 1)
	echo "$first"
	ranked "${suite_apps[@]}" "${prop_apps[@]}" | grep -vxF "$first" | head -n "$k"
}

# The IR operations of the PE's rules whose every input can be read through
# its input register.
registered_rules() {
	awk '/^  - ir: / { ir = $3 }
	     /^    inputs: / { n = gsub(/: [a-z]/, "&") }
	     /^    registered: / { sub(/^ *registered: /, ""); r = gsub(/[a-z0-9_]+: \{/, "&")
	                         if (n > 0 && r == n) print ir }' "$rtl"/*.rules.yaml
}

# claim_holds CLASS MESSAGE LOG: 0 if what the refusal says is true of the
# chip (of its placement, for tracks: the router's report in LOG names a
# routing node of that width that two nets share).
claim_holds() {
	local class=$1 msg=$2 log=$3 n m op w
	case $class in
	"too few "*" tiles")
		n=$(echo "$msg" | sed 's/.*needs \([0-9]*\) .*/\1/')
		m=$(echo "$msg" | sed 's/.*the array has \([0-9]*\)$/\1/')
		[ "$n" -gt "$m" ] ;;
	"no rule on the PE")
		op=$(echo "$msg" | sed "s/^the IR operation '\([^']*\)'.*/\1/")
		grep -q "^  - { ir: $op, reason:" "$rtl"/*.rules.yaml ;;
	"no MEM tile")
		! sed -n '/^tiles:/,/^[a-z]/p' "$rtl/design.yaml" | grep -q '^  - .*M' ;;
	"no pipeline register")
		w=$(echo "$msg" | sed 's/.*: its \([0-9]*\)-bit routing network.*/\1/')
		local ops=("${DELAY_OPS16[@]}")
		[ "$w" != 1 ] || ops=("${DELAY_OPS1[@]}")
		! grep -q "^node [0-9]* reg $w " "$rtl/routing.graph" &&
			! registered_rules | grep -qxF -f <(printf '%s\n' "${ops[@]}") ;;
	"too few tracks")
		w=$(echo "$msg" | sed 's/.*: too few \([0-9]*\)-bit tracks.*/\1/')
		grep -qE "^node [a-z]+${w}_[^ ]+ is used by [0-9]+ nets" "$log" ;;
	*) return 1 ;;
	esac
}

# The outcome of a compile that failed with MESSAGE (app.txt's): "refused\tCLASS\tMESSAGE" or
# "FAILED\tWHY".
refusal() {
	local log=$1 msg=$2 r class
	for r in "${REFUSALS[@]}"; do
		class=${r%%|*}
		if [[ $msg =~ ${r#*|} ]]; then
			if claim_holds "$class" "$msg" "$log"; then
				printf 'refused\t%s\t%s\n' "$class" "$msg"
			else
				printf 'FAILED\t%s (a refusal that does not hold here)\n' "$msg"
			fi
			return
		fi
	done
	printf 'FAILED\t%s\n' "$msg"
}

# Flips the lowest bit of an image's last sample.
corrupt_image() {
	local f=$1 size byte
	size=$(stat -c %s "$f")
	byte=$(tail -c 1 "$f" | od -An -tu1 | tr -d ' ')
	printf "\\$(printf '%03o' $((byte ^ 1)))" | dd of="$f" bs=1 seek=$((size - 1)) conv=notrunc status=none
}

# check_app HL: every check of cgrac --verify --simulate (the lowered
# kernels and the buffers against the golden image, the compilation, the
# fast simulator's run), its verdict read from app.txt; one result line.
check_app() {
	local hl=$1 app out st verdict
	app=$(basename "$hl" .hl)
	out=$dir/apps/$app
	mkdir -p "$out"
	local flags=(--verify --simulate -q)
	[ "$corrupt" != buffers ] || flags+=(--corrupt-golden)
	"$CGRAC" "$hl" --design "$rtl" -o "$out" "${flags[@]}" >"$out/compile.log" 2>&1
	st=$?
	verdict=
	[ -f "$out/app.txt" ] && IFS=$'\t' read -r _ _ _ _ _ _ _ verdict _ <"$out/app.txt"
	if grep -qE 'AddressSanitizer|LeakSanitizer|runtime error:' "$out/compile.log"; then
		printf 'app\t%s\tFAILED\tsanitizer report: %s\n' "$app" \
			"$(grep -m1 -E 'Sanitizer|runtime error:' "$out/compile.log")"
	elif [ -z "$verdict" ] || { [ $st != 0 ] && [ $st != 1 ]; }; then
		printf 'app\t%s\tFAILED\tcgrac exited with status %s: %s\n' "$app" "$st" "$(tail -n 1 "$out/compile.log")"
	else
		case $verdict in
		bit-exact) printf 'app\t%s\tbit-exact\n' "$app" ;;
		"NOT MAPPED: "*) printf 'app\t%s\t%s\n' "$app" "$(refusal "$out/compile.log" "${verdict#NOT MAPPED: }")" ;;
		DIFFERENT) printf 'app\t%s\tFAILED\t%s\n' "$app" \
			"the lowered kernels' or the buffer-level output differs from the golden image" ;;
		"SIM FAILED: "*) printf 'app\t%s\tFAILED\tthe fast simulator: %s\n' "$app" "${verdict#SIM FAILED: }" ;;
		"CHECK FAILED: "*) printf 'app\t%s\tFAILED\t%s\n' "$app" "${verdict#CHECK FAILED: }" ;;
		*) printf 'app\t%s\tFAILED\t%s\n' "$app" "$verdict" ;;
		esac
	fi
}

# Prints a seed's lines: the chip, each application, the failures with the
# command that reproduces them.
show() {
	local file=$1 kind app what a b note
	while IFS=$'\t' read -r kind app what a b; do
		case $kind in
		chip) [ "$app" = ok ] && note="$what" || { note="FAILED: $what"; }
		      echo "seed $seed: $note" ;;
		app) case $what in
		     refused) echo "  $app: refused: $a ($b)" ;;
		     FAILED) echo "  $app: FAILED: $a" ;;
		     *) echo "  $app: $what" ;;
		     esac ;;
		sim) [ "$what" = bit-exact ] && echo "  $app: under Verilator: bit-exact" ||
		     echo "  $app: under Verilator: FAILED: $a" ;;
		esac
	done <"$file"
	if grep -q 'FAILED' "$file"; then
		echo "  reproduce: $(repro "$seed" "$(grep -q '^sim' "$file" && echo '--verilator 1')")"
	fi
}

run_seed() {
	seed=$1 dir=$root/$1 rtl=$root/$1/rtl
	local t res=$dir/result.txt
	t=$(date +%s%N)
	rm -rf "$rtl" "$dir/apps" "$res" "$dir/chip.why" "$dir/sim.txt"
	mkdir -p "$rtl"
	if chip; then
		printf 'chip\tok\t%s\n' "$(sed 's/^seed [0-9]*: //' "$dir/seed.txt")" >"$res.tmp"
		local hl
		for hl in $(sample); do
			check_app "$hl" >>"$res.tmp"
		done
	else
		printf 'chip\tFAILED\t%s\n' "$(cat "$dir/chip.why")" >"$res.tmp"
	fi
	mv "$res.tmp" "$res"
	show "$res"
	echo "  ($(secs "$t") s)"
}

# ---- Verilator ----

# The K seeds to co-simulate: of those with a bit-exact application, the
# first by a hash of the seed.
sim_seeds() {
	local k=$1 s
	shift
	for s in "$@"; do
		grep -q $'^app\t[^\t]*\tbit-exact' "$root/$s/result.txt" 2>/dev/null &&
			echo "$(hashnum verilator "$s") $s"
	done | sort -n | head -n "$k" | cut -d' ' -f2
}

run_sim() {
	seed=$1 dir=$root/$1 rtl=$root/$1/rtl
	local design=prop_$1 app line t
	t=$(date +%s%N)
	rm -rf "rtl_out/$design" "$dir/sim.txt"
	cp -r "$rtl" "rtl_out/$design"
	for app in $(sed -n $'s/^app\t\\([^\t]*\\)\tbit-exact.*/\\1/p' "$dir/result.txt"); do
		[ "$corrupt" != verilator ] || corrupt_image "$(ls "$dir/apps/$app"/golden.*)"
		if APP_DIR=$dir/apps/$app bash verif/sim.sh "$design" "$app" >"$dir/apps/$app/sim.out" 2>&1; then
			printf 'sim\t%s\tbit-exact\n' "$app" >>"$dir/sim.txt"
		else
			line=$(tail -n 1 "$dir/apps/$app/sim.out" | tr '\t' ' ')
			printf 'sim\t%s\tFAILED\t%s\n' "$app" "$line" >>"$dir/sim.txt"
		fi
	done
	touch "$dir/sim.txt"
	show "$dir/sim.txt"
	echo "  (Verilator: $(secs "$t") s)"
}

# ---- the end: counts ----

tally() {
	local s kind app what a b pass=0 fail=0 class
	declare -A count=()
	local failures=()
	for s in "$@"; do
		local sims=$root/$s/sim.txt
		[ -f "$root/$s/result.txt" ] || { count[FAILED]=$((${count[FAILED]:-0} + 1)); fail=$((fail + 1));
			failures+=("seed $s: no result (the run was interrupted)"); continue; }
		while IFS=$'\t' read -r kind app what a b; do
			case $kind/$what in
			chip/*) [ "$app" = ok ] && class="chip generated" ||
			        { class="chip FAILED"; failures+=("seed $s: chip: $what"); } ;;
			app/bit-exact)
				class=bit-exact
				if [ -f "$sims" ] && grep -q $'^sim\t'"$app"$'\tbit-exact' "$sims"; then
					class="bit-exact, also under Verilator"
				elif [ -f "$sims" ] && grep -q $'^sim\t'"$app"$'\tFAILED' "$sims"; then
					class=FAILED
					failures+=("seed $s: $app: under Verilator: $(grep $'^sim\t'"$app" "$sims" | cut -f4)")
				fi ;;
			app/refused) class="refused: $a" ;;
			*) class=FAILED; failures+=("seed $s: $app: $a") ;;
			esac
			count[$class]=$((${count[$class]:-0} + 1))
			case $class in *FAILED) fail=$((fail + 1)) ;; *) pass=$((pass + 1)) ;; esac
		done <"$root/$s/result.txt"
	done
	echo "== outcomes of $# seed$([ $# = 1 ] || echo s)"
	for class in "${!count[@]}"; do printf '  %-44s %5d\n' "$class" "${count[$class]}"; done | sort
	if [ ${#failures[@]} -gt 0 ]; then
		echo "== failures (reproduce: $(repro SEED))"
		printf '  %s\n' "${failures[@]}"
	fi
	echo "wall time: $(secs "$t0") s"
	echo "property: $pass passed, $fail failed"
	[ "$fail" -eq 0 ]
}

# one line: bash has read all of it before main runs, so an edit of the
# script cannot change a run
main "$@"; exit
