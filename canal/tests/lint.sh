#!/usr/bin/env bash
# cgra.v under Verilator: for each design (the 4x4 designs by default; make
# bench runs cgra_8x8),
# regenerate the chip (scripts/rtl.sh), check that canal writes the same cgra.v
# twice and one module per kind of tile (IO, PE, MEM), and that
# `verilator --lint-only -Wall` is clean on cgra.v with the cores' Verilog;
# then build the last design with Verilator (C++ at -O0) and report the time.
#   usage: canal/tests/lint.sh [--no-build] [DESIGN...]
set -u
cd "$(dirname "$0")/../.."
. scripts/suite_lib.sh || exit 1
build=1
[ "${1:-}" = --no-build ] && { build=0; shift; }
designs=("$@")
[ ${#designs[@]} -eq 0 ] && designs=(cgra_4x4_wilton cgra_4x4_disjoint cgra_4x4)
suite_tmp
now() { date +%s.%N; }
since() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.1f", b - a }'; }

# verilog DIR: cgra.v and the cores' files, as design.yaml names them
verilog() {
	sed -n 's/.* verilog: \([^ ,}]*\).*/\1/p' "$1/design.yaml" | sort -u | sed "s|^|$1/|"
}

check() {
	local d=$1 out=rtl_out/$1 t0 files
	if ! bash scripts/rtl.sh "$d" >"$tmp/$d.rtl.log" 2>&1; then
		tail -5 "$tmp/$d.rtl.log"; fail "$d: scripts/rtl.sh failed"; return 1
	fi
	mkdir -p "$tmp/$d" && cp "$out"/*.info.yaml "$tmp/$d/"
	if bin/canal "canal/specs/$d.yaml" -o "$tmp/$d" -q && cmp -s "$tmp/$d/cgra.v" "$out/cgra.v"; then
		pass "$d: two generations of cgra.v are byte-identical ($(wc -l <"$out/cgra.v") lines)"
	else
		fail "$d: cgra.v is not deterministic"
	fi
	local mods
	mods=$(sed -n 's/^module \(.*_tile[_0-9]*\) (.*/\1/p' "$out/cgra.v" | tr '\n' ' ' | sed 's/ $//')
	if [ "$mods" = "${d}_io_tile ${d}_pe_tile ${d}_mem_tile" ]; then
		pass "$d: one module per kind of tile ($mods)"
	else
		fail "$d: tile modules are '$mods', expected the IO, PE and MEM tiles"
	fi
	mapfile -t files < <(verilog "$out")
	t0=$(now)
	if verilator --lint-only -Wall --top-module "$d" "${files[@]}" >"$tmp/$d.lint.log" 2>&1; then
		pass "$d: verilator --lint-only -Wall is clean ($(since "$t0") s)"
	else
		grep -m10 -E '^%' "$tmp/$d.lint.log"; fail "$d: verilator --lint-only -Wall reports problems"
	fi
}

for d in "${designs[@]}"; do
	check "$d"
done
if [ "$build" = 1 ]; then
	d=${designs[${#designs[@]} - 1]}
	mapfile -t files < <(verilog "rtl_out/$d")
	t0=$(now)
	if verilator --cc --build -j 2 -Wno-fatal --top-module "$d" -Mdir "$tmp/obj" --output-split-cfuncs 50 \
		-MAKEFLAGS "OPT_FAST=-O0 OPT_GLOBAL=-O0 OPT_SLOW=-O0" "${files[@]}" >"$tmp/build.log" 2>&1; then
		pass "$d: Verilator build (C++ at -O0) in $(since "$t0") s"
	else
		grep -m5 -E '^%Error|error' "$tmp/build.log"; fail "$d: the Verilator build failed"
	fi
fi
suite_end "canal lint"
