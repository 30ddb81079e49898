#!/usr/bin/env bash
# The connectivity bench fails a broken array: two mutants of cgra.v of
# cgra_4x4, each built and run with the bench of the intact design (its
# configurations come from the collateral, which the mutants share), must be
# reported with mismatches:
#  - swap: the first two inputs of the first multiplexer of the PE
#    tiles' interconnect module exchanged (the wrong route is selected);
#  - leak: one bypass multiplexer of the memory tiles' interconnect module ORs in
#    another track (a value appears where nothing routes it).
#   usage: verif/tests/mutation.sh [DESIGN]
set -u
cd "$(dirname "$0")/../.."
. scripts/suite_lib.sh || exit 1
d=${1:-cgra_4x4}
rtl=rtl_out/$d conn=build/verif/$d/conn
suite_tmp
finish() { suite_end "verif mutation"; exit; }

[ -f "$rtl/design.yaml" ] || bash scripts/rtl.sh "$d" >"$tmp/rtl.log" 2>&1 || { tail -5 "$tmp/rtl.log"; fail "$d: scripts/rtl.sh failed"; finish; }
bin/verif conn "$rtl" -o "$conn" -q >"$tmp/conn.log" || { cat "$tmp/conn.log"; fail "$d: bin/verif conn failed"; finish; }

# swap MODULE: in module MODULE, the operands of the first two lines
# "SEL == N'd0 ? A :" and "SEL == N'd1 ? B :" of one multiplexer exchanged
swap() {
	awk -v m="$1" '
	$1 == "module" && $2 == m { inside = 1 }
	inside && !done && $2 == "==" && $3 ~ /d0$/ && $4 == "?" { sel = $1; a = $5; hold = $0; next }
	inside && !done && hold != "" {
		if ($1 == sel && $3 ~ /d1$/ && $4 == "?") {
			sub(a, $5, hold); sub($5, a, $0); print hold; print; done = 1; hold = ""; next
		}
		print hold; hold = ""
	}
	$1 == "endmodule" { inside = 0 }
	{ print }' "$rtl/cgra.v"
}

# leak MODULE: in module MODULE, the first two-input bypass multiplexer
# "assign rmux<w>_<S>_t0 = SEL ? reg : sb_out;" also ORs in track 1
leak() {
	awk -v m="$1" '
	$1 == "module" && $2 == m { inside = 1 }
	inside && !done && $1 == "assign" && $2 ~ /^rmux[0-9]+_[NESW]_t0$/ && $4 ~ /\]$/ && $5 == "?" {
		other = $8; sub(/;$/, "", other); t1 = other; sub(/_t0$/, "_t1", t1)
		sub(other ";", "(" other " | " t1 ");"); done = 1
	}
	$1 == "endmodule" { inside = 0 }
	{ print }' "$rtl/cgra.v"
}

# mutant NAME WHAT: build the mutant in $tmp/NAME and run the bench on it
mutant() {
	local name=$1 what=$2 changed
	mkdir -p "$tmp/$name"
	cp "$rtl"/* "$tmp/$name/"
	"$name" "${d}_${3}" >"$tmp/$name/cgra.v"
	changed=$(diff "$rtl/cgra.v" "$tmp/$name/cgra.v" | grep -c '^>')
	if [ "$changed" -lt 1 ] || [ "$changed" -gt 2 ]; then
		fail "$d: the $name mutant changes $changed lines of cgra.v (expected 1 or 2)"
		return
	fi
	diff "$rtl/cgra.v" "$tmp/$name/cgra.v" | grep '^[<>]'
	if ! bash verif/build.sh "$tmp/$name" -o "build/verilator/$d-$name"; then
		fail "$d: the $name mutant does not build"
		return
	fi
	"build/verilator/$d-$name/vsim" "$conn/conn.cmd" --max-report 3 >"$tmp/$name.log" 2>&1
	local status=$? summary
	summary=$(tail -1 "$tmp/$name.log")
	head -3 "$tmp/$name.log"
	echo "$summary"
	if [ "$status" -eq 1 ] && echo "$summary" | grep -q ' [1-9][0-9]* mismatch'; then
		pass "$d: the bench fails the $name mutant ($what): $(echo "$summary" | sed -n 's/.* \([0-9]* mismatch[a-z]*\);.*/\1/p')"
	else
		fail "$d: the bench does not notice the $name mutant ($what)"
	fi
}

mutant swap "two inputs of a multiplexer exchanged" pe_ic
mutant leak "a bypass multiplexer ORs in another track" mem_ic
finish
