#!/usr/bin/env bash
# The area of a generated design, measured with Yosys, split per kind of tile
# into core, switch box, connection boxes and configuration logic, for
# design-space sweeps. Writes a small YAML (to FILE, default stdout):
#     unit: transistors
#     tiles:
#       pe:  { count: 12, core: N, switch_box: N, connection_boxes: N, config: N, total: N, core_sram: N }
#       mem: { ... }
#       io:  { ... }
#     top: N
#     array: N
# usage: scripts/area.sh rtl_out/DESIGN [-o FILE] [-j JOBS] [--cache DIR] [-q]
#   -o FILE      write the YAML there (default stdout; written only on success)
#   -j JOBS      Yosys runs at once (default: the number of cores)
#   --cache DIR  the cache (default build/area/cache)
#   -q           no line per module on stderr
#
# Unit: transistors, Yosys's CMOS estimate (`stat -tech cmos`): every cell of
# the gate-level netlist counts as NOT 2, NAND/NOR 4, AOI3/OAI3 6, AOI4/OAI4 8,
# NMUX 10, MUX/XOR/XNOR 12, D flip-flop 16 transistors; ABC maps the logic onto
# these gates with exactly these costs as areas. scripts/README.md, "Area",
# says how this relates to µm².
#
# The flow, the same for every module (the FLOW variables below): read the
# module's Verilog, `synth -top M -flatten -noabc`, `dfflegalize -cell $_DFF_P_
# 01` (enables and synchronous resets become gates before a plain flip-flop),
# `abc -g cmos` with ABC's default gate-mapping script except that SAT
# sweeping is bounded (`&fraig -x -C 1000`: the unbounded one does not finish
# on pe_base's multipliers), `opt_clean`, `stat -tech cmos`. Each distinct
# module is synthesized once: alone, its submodules black boxes (read from
# their headers only), its name and the design's name normalized away, so
# designs with the same module share it. Results are cached in
# CACHE/<hash>.txt, the hash over the module's Verilog (full-line comments
# dropped, the design's name replaced), the headers of the modules it
# instantiates, the Yosys version and this flow: a sweep that changes only the
# interconnect re-synthesizes only the modules whose text changed (the _ic,
# _tile and top modules); the PE and MEM cores come from the cache.
#
# What each column counts (per tile of the kind; modules of cgra.v,
# canal/COLLATERAL.md):
#   core              the core module (<pe>.v or <mem>.v, with its submodules;
#                     a memory core's own configuration registers are inside
#                     it), plus the cells of the tile's interconnect module
#                     <design>_<kind>_ic that only the core's instruction
#                     depends on: the PE's instruction registers inst0.. and
#                     their write logic. IO tiles have no core: 0.
#   core_sram         the part of core that is SRAM macros, not synthesized: a
#                     module <mem>_<unit>_macro (lake's behavioural model of a
#                     macro a real one replaces; as flip-flops it would be
#                     about 30 transistors a bit and dominate) is a black box
#                     counted as ROWS x BITS bit cells of 6 + 2 (PORTS - 1)
#                     transistors (6T single port, 8T for a read and a write
#                     port); bit cells only, no decoders or sense amplifiers.
#   switch_box        the cells of the _ic module in the fan-in cone of its
#                     switch-box nodes (outputs sb<w>_*, reg<w>_*, rmux<w>_*)
#                     and of no other part: the switch-box multiplexers, the
#                     pipeline registers on their outputs with their bypass
#                     multiplexers, and the configuration-register bits that
#                     hold these multiplexers' selects with their write logic.
#   connection_boxes  likewise for the core inputs (outputs core_*; f2io_* in IO
#                     tiles): the connection-box multiplexers and their select
#                     bits.
#   config            what no single part owns: the cells of the _ic module in
#                     the cones of several parts or of none (the address
#                     decoding and write enables a register's parts share, the
#                     read-back multiplexer) and the cells of the tile module
#                     <design>_<kind>_tile itself (a memory's write enable).
#   total             core + switch_box + connection_boxes + config.
#   top               the cells of the top module itself: each tile's address
#                     match, the qualified write strobe and the read-back OR.
#   array             the sum over tile kinds of count x total, plus top.
# The parts of an _ic module are found on its gate-level netlist (nets split
# to single bits) with Yosys's input-cone selection; every cell is in exactly
# one part and the parts add up to the module's synthesized total (checked).
# Counts come from design.yaml's tiles; tiles whose modules differ (_tile_2,
# after edits) get their own line (pe_2, ...) with the count of instances.
#
# Prints on stderr one line per module (cached, or synthesized in S s) and a
# summary; errors as "area: ..." with a non-zero status. Deterministic: the
# YAML depends only on the design's Verilog, Yosys and this flow.
{
# (the body is one block: bash reads it whole before running it, so a sweep
# that is running the script is not upset by an edit of it)
set -u
here=$(pwd)
cd "$(dirname "$0")/.." || exit 1
root=$(pwd)

die() { echo "area: $*" >&2; exit 1; }
usage() { awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; }

dir= out= jobs= cache=build/area/cache quiet=0
while [ $# -gt 0 ]; do
	case "$1" in
	-h|--help) usage; exit 0 ;;
	-o) [ $# -ge 2 ] || die "-o needs a FILE"; out=$2; shift 2 ;;
	-j) [ $# -ge 2 ] || die "-j needs a number"; jobs=$2; shift 2 ;;
	--cache) [ $# -ge 2 ] || die "--cache needs a DIR"; cache=$2; shift 2 ;;
	-q) quiet=1; shift ;;
	-*) echo "area: unknown option '$1' (scripts/area.sh --help)" >&2; exit 2 ;;
	*) [ -z "$dir" ] || die "one design at a time ('$dir' and '$1')"; dir=$1; shift ;;
	esac
done
[ -n "$dir" ] || { echo "usage: scripts/area.sh rtl_out/DESIGN [-o FILE] [-j JOBS] [--cache DIR] [-q]" >&2; exit 2; }
abspath() { case "$1" in /*) echo "$1" ;; *) echo "$here/$1" ;; esac; }
dir=$(abspath "$dir") cache=$(abspath "$cache")
[ -z "$out" ] || out=$(abspath "$out")
[ -n "$jobs" ] || jobs=$(nproc 2>/dev/null || echo 1)
case "$jobs" in '' | *[!0-9]* | 0) die "-j needs a positive number, not '$jobs'" ;; esac
command -v yosys >/dev/null || die "yosys is not installed (apt-get install -y yosys)"
command -v berkeley-abc >/dev/null || command -v yosys-abc >/dev/null || die "ABC is not installed (apt-get install -y yosys)"
[ -f "$dir/design.yaml" ] || die "no design in $dir (no design.yaml; bash scripts/rtl.sh DESIGN)"

# ---- the flow (part of every cache key) ----
FLOW_VERSION=1
ABC_SCRIPT='strash; &get -n; &fraig -x -C 1000; &put; scorr; dc2; dretime; strash; &get -n; &dch -f; &nf; &put'
# transistors of an SRAM bit cell with P ports
sram_cell() { echo $((6 + 2 * ($1 - 1))); }
# the Yosys script of a unit: KIND (core, ic, tile, top), TOP, its Verilog, its
# black boxes' headers (or none), the macros to black-box (core)
ys_script() {
	local kind=$1 top=$2 src=$3 lib=$4 macros=$5
	echo "read_verilog -sv $src"
	[ -z "$lib" ] || echo "read_verilog -sv -lib $lib"
	echo "hierarchy -check -top $top"
	[ -z "$macros" ] || echo "blackbox $macros"
	echo "synth -top $top -flatten -noabc"
	echo "dfflegalize -cell \$_DFF_P_ 01"
	echo "abc -g cmos -script abc.script"
	echo "opt_clean"
	echo "splitnets"
	echo "tee -q -o total.stat stat -tech cmos"
	[ "$kind" = ic ] || return 0
	# every output belongs to a part; a cell belongs to the one part whose
	# outputs' fan-in cones hold it, to config if several or none do
	echo "select -assert-none o:* o:sb* %d o:reg* %d o:rmux* %d o:core_* %d o:f2io_* %d o:pe_inst %d o:config_rdata %d"
	echo "select -set sb o:sb* o:reg* %u o:rmux* %u %ci*"
	echo "select -set cb o:core_* o:f2io_* %u %ci*"
	echo "select -set inst o:pe_inst %ci*"
	echo "select -set sbx @sb @cb %d @inst %d"
	echo "select -set cbx @cb @sb %d @inst %d"
	echo "select -set instx @inst @sb %d @cb %d"
	echo "select -set rest * @sbx %d @cbx %d @instx %d"
	echo "tee -q -o switch_box.stat stat -tech cmos @sbx"
	echo "tee -q -o connection_boxes.stat stat -tech cmos @cbx"
	echo "tee -q -o core_config.stat stat -tech cmos @instx"
	echo "tee -q -o config.stat stat -tech cmos @rest"
}
yosys_version=$(yosys -V 2>/dev/null | head -1)
yver=$(echo "$yosys_version" | sed -n 's/^Yosys \([0-9][0-9.+a-z-]*\).*/\1/p')
[ -n "$yver" ] || die "cannot read the version of yosys ('$yosys_version')"
flow_id=$( { echo "scripts/area.sh flow $FLOW_VERSION"; echo "$yosys_version"; echo "$ABC_SCRIPT";
	declare -f sram_cell ys_script; } | sha1sum | cut -c1-40)

# ---- the design ----
manifest=$dir/design.yaml
design=$(sed -n 's/^design: *\([A-Za-z_][A-Za-z0-9_]*\) *$/\1/p' "$manifest")
[ -n "$design" ] || die "$manifest: no design name"
verilog=$(sed -n 's/^files:.* verilog: *\([^ ,}]*\).*/\1/p' "$manifest")
[ -n "$verilog" ] || verilog=cgra.v
[ -f "$dir/$verilog" ] || die "$dir/$verilog is missing"
core_field() { sed -n "s/^  $1: *{.* $2: *\([^ ,}]*\).*/\1/p" "$manifest" | head -1; }
pe_name=$(core_field pe name) pe_v=$(core_field pe verilog)
mem_name=$(core_field mem name) mem_v=$(core_field mem verilog)
[ -n "$pe_name" ] && [ -n "$pe_v" ] || die "$manifest: no PE core (cores: pe: { name, verilog })"
[ -z "$mem_name" ] || [ -n "$mem_v" ] || die "$manifest: the MEM core has no verilog file"
rows=$(awk '/^tiles:/ { t = 1; next } t && /^  *- / { s = $2; gsub(/"/, "", s); print s; next } t { exit }' "$manifest")
[ -n "$rows" ] || die "$manifest: no tiles"
count_kind() { echo "$rows" | tr -cd "$1" | wc -c; }
declare -A tiles=([io]=$(count_kind I) [pe]=$(count_kind P) [mem]=$(count_kind M))

work=$(mktemp -d) || exit 1
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/raw" "$work/unit" || exit 1

# cgra.v into one file per module, and its header (module ... ");") beside it
awk -v dir="$work/raw" '
	/^module / { name = $2; sub(/\(.*/, "", name); f = dir "/" name ".v"; h = dir "/" name ".h"; inhdr = 1; print name > (dir "/modules") }
	f != "" { print > f; if (inhdr) print > h }
	f != "" && inhdr && /^ *\);/ { inhdr = 0; print "endmodule" > h; close(h) }
	/^endmodule/ && f != "" { close(f); f = "" }' "$dir/$verilog" || die "cannot split $dir/$verilog"
[ -s "$work/raw/modules" ] || die "$dir/$verilog has no modules"
# a core's header from its file
core_header() {
	awk -v m="$2" '$1 == "module" && ($2 == m || $2 ~ "^" m "[(#]") { h = 1 } h { print } h && /^ *\);/ { print "endmodule"; exit }' "$1"
}
# the text Yosys reads and the key hashes: no full-line comments, the
# design's name as DESIGN
norm() { sed -E -e '/^[[:space:]]*\/\//d' -e "s/\\b${design}(_|\\b)/DESIGN\\1/g"; }
# modules a module instantiates: lines "    NAME INSTANCE ("
instances() { sed -n 's/^ \{1,\}\([A-Za-z_][A-Za-z0-9_$]*\) \([A-Za-z_][A-Za-z0-9_]*\) ($/\1/p' "$1" | sort -u; }

# ---- the units: each distinct module synthesized alone ----
n=0
declare -a u_kind u_mod u_top u_key u_macros u_sram
add_unit() { # KIND MODULE TOP SRC LIB MACROS SRAM
	local d=$work/unit/$n
	mkdir -p "$d"
	cp "$4" "$d/src.v"
	if [ -n "$5" ]; then cp "$5" "$d/lib.v"; else : >"$d/lib.v"; fi
	u_kind[n]=$1 u_mod[n]=$2 u_top[n]=$3 u_macros[n]=$6 u_sram[n]=$7
	u_key[n]=$( { echo "$flow_id"; echo "$1 $3 $6 $7"; cat "$d/src.v"; echo "// black boxes"; cat "$d/lib.v"; } |
		sha1sum | cut -c1-40)
	n=$((n + 1))
}

# A core: its file; SRAM macros black boxes counted by the formula above
add_core() { # NAME FILE
	local name=$1 file=$dir/$2 macros= sram= m text rb ports
	[ -f "$file" ] || die "$file (the core $name) is missing"
	grep -q "^module $name\b" "$file" || die "$file has no module $name"
	for m in $(sed -n 's/^module \([A-Za-z_][A-Za-z0-9_]*_macro\)\b.*/\1/p' "$file"); do
		text=$(awk -v m="$m" '$1 == "module" && ($2 == m || index($2, m "(") == 1) { p = 1 } p { print } p && /^endmodule/ { exit }' "$file")
		# reg [BITS-1:0] mem [0:ROWS-1]; one ROW input per port
		rb=$(echo "$text" | sed -n 's/.*reg *\[\([0-9]*\):0\] *[A-Za-z_][A-Za-z0-9_]* *\[0:\([0-9]*\)\] *;.*/\1 \2/p' | head -1)
		ports=$(echo "$text" | grep -cE 'input +wire +(\[[0-9]+:0\] +)?[A-Za-z0-9_]+_row,?$')
		[ -n "$rb" ] && [ "$ports" -gt 0 ] || die "$file: cannot read the SRAM macro $m (reg [BITS-1:0] mem [0:ROWS-1], ROW inputs)"
		set -- $rb
		macros="$macros $m"
		sram="$sram $m:$((($1 + 1) * ($2 + 1) * $(sram_cell "$ports")))"
	done
	norm <"$file" >"$work/core_$name.v"
	add_unit core "$name" "$name" "$work/core_$name.v" "" "${macros# }" "${sram# }"
}
add_core "$pe_name" "$pe_v"
[ -z "$mem_name" ] || add_core "$mem_name" "$mem_v"

declare -A unit_of
for i in $(seq 0 $((n - 1))); do unit_of[core:${u_mod[i]}]=$i; done
# the modules of cgra.v: DESIGN_KIND_ic[_N], DESIGN_KIND_tile[_N], DESIGN
groups=()
while read -r m; do
	case "$m" in
	"$design") kind=top ;;
	"${design}"_*_ic | "${design}"_*_ic_[0-9]*) kind=ic ;;
	"${design}"_*_tile | "${design}"_*_tile_[0-9]*) kind=tile; groups+=("$m") ;;
	*) die "$dir/$verilog: module $m is not a tile, interconnect or top module of $design (canal/COLLATERAL.md)" ;;
	esac
	: >"$work/lib_$m.v"
	for sub in $(instances "$work/raw/$m.v"); do
		if [ -f "$work/raw/$sub.h" ]; then
			cat "$work/raw/$sub.h" >>"$work/lib_$m.v"
		elif [ "$sub" = "$pe_name" ]; then
			core_header "$dir/$pe_v" "$sub" >>"$work/lib_$m.v"
		elif [ -n "$mem_name" ] && [ "$sub" = "$mem_name" ]; then
			core_header "$dir/$mem_v" "$sub" >>"$work/lib_$m.v"
		else
			die "$dir/$verilog: module $m instantiates $sub, which is neither in it nor a core"
		fi
	done
	norm <"$work/raw/$m.v" >"$work/src_$m.v"
	norm <"$work/lib_$m.v" >"$work/nlib_$m.v"
	unit_of[$kind:$m]=$n
	add_unit "$kind" "$m" "$(echo "$m" | norm)" "$work/src_$m.v" \
		"$([ -s "$work/nlib_$m.v" ] && echo "$work/nlib_$m.v")" "" ""
done <"$work/raw/modules"
[ -n "${unit_of[top:$design]:-}" ] || die "$dir/$verilog has no top module $design"
[ ${#groups[@]} -gt 0 ] || die "$dir/$verilog has no tile modules"

# ---- synthesis of the units not in the cache ----
now() { date +%s.%N; }
secs() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f", b - a }'; }
# transistors of a stat file ("Estimated number of transistors: N", N+ with
# black boxes, which count nothing)
stat_n() { sed -n 's/.*Estimated number of transistors: *\([0-9][0-9]*\).*/\1/p' "$1" | tail -1; }
synth_unit() {
	local i=$1 d=$work/unit/$1 t0 t1 key=${u_key[$1]} kind=${u_kind[$1]} total p v ok=1 sram=0 m count
	echo "$ABC_SCRIPT" >"$d/abc.script"
	ys_script "$kind" "${u_top[i]}" src.v "$([ -s "$d/lib.v" ] && echo lib.v)" "${u_macros[i]}" >"$d/run.ys"
	t0=$(now)
	(cd "$d" && yosys -q -l yosys.log -s run.ys >/dev/null 2>&1)
	local status=$?
	t1=$(now)
	total=$(stat_n "$d/total.stat" 2>/dev/null)
	if [ "$status" -ne 0 ] || [ -z "$total" ]; then
		mkdir -p "$root/build/area/failed" && cp "$d/yosys.log" "$root/build/area/failed/${u_mod[i]}.log" 2>/dev/null
		echo "area: yosys failed on ${u_mod[i]} ($kind; log: build/area/failed/${u_mod[i]}.log)" >&2
		grep -m3 -E 'ERROR|Error' "$d/yosys.log" | sed 's/^/area:   /' >&2
		return 1
	fi
	{
		echo "# scripts/area.sh cache: $kind ${u_top[i]}, $yosys_version, flow $FLOW_VERSION"
		echo "kind $kind"
		echo "module ${u_top[i]}"
		echo "seconds $(secs "$t0" "$t1")"
		if [ "$kind" = ic ]; then
			local sum=0
			for p in switch_box connection_boxes core_config config; do
				# (an empty part prints no estimate)
				[ -f "$d/$p.stat" ] || { echo "area: ${u_mod[i]}: yosys wrote no $p.stat" >&2; ok=0; }
				v=$(stat_n "$d/$p.stat" 2>/dev/null)
				echo "$p ${v:-0}"
				sum=$((sum + ${v:-0}))
			done
			[ "$sum" = "$total" ] || { echo "area: ${u_mod[i]}: its parts add up to $sum, not $total" >&2; ok=0; }
		fi
		if [ "$kind" = core ]; then
			for m in ${u_sram[i]}; do
				count=$(sed -n "s/^ *${m%%:*} *\([0-9][0-9]*\)$/\1/p" "$d/total.stat" | head -1)
				sram=$((sram + ${count:-0} * ${m#*:}))
				echo "macro ${m%%:*} ${count:-0} x ${m#*:}"
			done
			echo "logic $total"
			echo "sram $sram"
		fi
		echo "total $((total + sram))"
	} >"$d/result" || ok=0
	[ "$ok" = 1 ] || return 1
	mkdir -p "$cache" && cp "$d/result" "$cache/$key.txt.$$.$i" && mv -f "$cache/$key.txt.$$.$i" "$cache/$key.txt" ||
		{ echo "area: cannot write $cache/$key.txt" >&2; return 1; }
	[ "$quiet" = 1 ] || echo "area: $kind ${u_mod[i]}: synthesized in $(secs "$t0" "$t1") s" >&2
}

t_start=$(now)
todo=() cached=0
for i in $(seq 0 $((n - 1))); do
	if [ -f "$cache/${u_key[i]}.txt" ] && grep -q '^total [0-9]' "$cache/${u_key[i]}.txt"; then
		cached=$((cached + 1))
		[ "$quiet" = 1 ] || echo "area: ${u_kind[i]} ${u_mod[i]}: cached" >&2
	fi
done
# the longest first: the top module (55 s on a 32 x 16 array), the cores, the rest
for kind in top core ic tile; do
	for i in $(seq 0 $((n - 1))); do
		[ "${u_kind[i]}" = "$kind" ] && ! grep -qs '^total [0-9]' "$cache/${u_key[i]}.txt" && todo+=("$i")
	done
done
running=0 failed=0
for i in "${todo[@]}"; do
	if [ "$running" -ge "$jobs" ]; then
		wait -n || failed=1
		running=$((running - 1))
	fi
	synth_unit "$i" &
	running=$((running + 1))
done
while [ "$running" -gt 0 ]; do
	wait -n || failed=1
	running=$((running - 1))
done
[ "$failed" = 0 ] || die "synthesis failed"

# ---- the YAML ----
# every unit's results, R[UNIT:FIELD]
declare -A R
for i in $(seq 0 $((n - 1))); do
	while read -r field v; do
		case "$v" in '' | *[!0-9]*) ;; *) R[$i:$field]=$v ;; esac
	done <"$cache/${u_key[i]}.txt"
done
val() { # UNIT FIELD -> $v
	v=${R[$1:$2]:-}
	[ -n "$v" ] || die "$cache/${u_key[$1]}.txt has no $2 (remove it and run again)"
}
val "${unit_of[top:$design]}" total; top=$v
lines=() keys=() array=$top
for kind in pe mem io; do
	instances_of_kind=0
	for g in "${groups[@]}"; do
		case "$g" in "${design}_${kind}_tile" | "${design}_${kind}_tile_"[0-9]*) ;; *) continue ;; esac
		suffix=${g#"${design}_${kind}_tile"}
		ic=${unit_of[ic:${design}_${kind}_ic$suffix]:-}
		[ -n "$ic" ] || die "$dir/$verilog: no interconnect module ${design}_${kind}_ic$suffix for $g"
		count=$(grep -c "^ \{1,\}$g tile_x[0-9]*_y[0-9]* ($" "$work/raw/$design.v")
		instances_of_kind=$((instances_of_kind + count))
		core=0 sram=0 c=
		case "$kind" in
		pe) c=${unit_of[core:$pe_name]} ;;
		mem) [ -n "$mem_name" ] || die "$manifest: MEM tiles but no MEM core"; c=${unit_of[core:$mem_name]} ;;
		esac
		[ -z "$c" ] || { val "$c" total; core=$v; val "$c" sram; sram=$v; }
		val "$ic" core_config; core=$((core + v))
		val "$ic" switch_box; sb=$v
		val "$ic" connection_boxes; cb=$v
		val "$ic" config; config=$v
		val "${unit_of[tile:$g]}" total; config=$((config + v))
		total=$((core + sb + cb + config))
		array=$((array + count * total))
		keys+=("$kind${suffix:+_${suffix#_}}")
		lines+=("{ count: $count, core: $core, switch_box: $sb, connection_boxes: $cb, config: $config, total: $total, core_sram: $sram }")
	done
	[ "$instances_of_kind" = "${tiles[$kind]}" ] ||
		die "$manifest lists ${tiles[$kind]} $kind tiles, $verilog instantiates $instances_of_kind"
done
width=0
for k in "${keys[@]}"; do [ ${#k} -le "$width" ] || width=${#k}; done
yaml=$work/area.yaml
{
	echo "# area of $design from yosys $yver \`stat -tech cmos\` (transistor count; scripts/area.sh --help)"
	echo "design: $design"
	echo "unit: transistors"
	echo "tiles:"
	for k in $(seq 0 $((${#keys[@]} - 1))); do
		printf '  %-*s %s\n' "$((width + 1))" "${keys[k]}:" "${lines[k]}"
	done
	echo "top: $top"
	echo "array: $array"
} >"$yaml"
if [ -n "$out" ]; then
	cp "$yaml" "$out.tmp.$$" && mv -f "$out.tmp.$$" "$out" || die "cannot write $out"
else
	cat "$yaml"
fi
[ "$quiet" = 1 ] || echo "area: $design: $n modules ($((n - cached)) synthesized, $cached cached) in $(secs "$t_start" "$(now)") s${out:+ -> $out}" >&2
exit 0
}
