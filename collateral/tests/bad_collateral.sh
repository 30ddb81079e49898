#!/usr/bin/env bash
# Hand-edited and stale collateral through the compiler: each case copies
# rtl_out/cgra_4x4 into a folder of its own, changes one of its files with sed
# as a user or an old build could, and runs `cgrac brighten_blur.hl --design
# DIR -o OUT`, which must refuse it (exit status 1, no crash) with exactly the
# expected first error (DIR stands for the folder), and write no bitstream.
# Two controls: the copy unchanged, and the routing graph under another name
# that design.yaml's files.graph gives, are compiled. CGRAC=... picks the
# binary. Closes with "bad collateral: N passed, M failed".
cd "$(dirname "$0")/../.." || exit 1
[ -f rtl_out/cgra_4x4/design.yaml ] || bash scripts/rtl.sh cgra_4x4 >/dev/null || exit 1
cgrac=${CGRAC:-bin/cgrac}
app=apps/brighten_blur/brighten_blur.hl
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
passed=0 failed=0

pass() { echo "PASS $1"; passed=$((passed + 1)); }
fail() { echo "FAIL $1"; failed=$((failed + 1)); }

# fresh: a new copy of the design in $tmp/d, the outputs' folder emptied
fresh() {
	rm -rf "$tmp/d" "$tmp/o"
	cp -r rtl_out/cgra_4x4 "$tmp/d"
}

# compile: cgrac on the copy; its status in $status, stderr in $tmp/err
compile() {
	"$cgrac" "$app" --design "$tmp/d" -o "$tmp/o" -q >"$tmp/out" 2>"$tmp/err"
	status=$?
}

# refused NAME FILE SED-SCRIPT EXPECTED [COMMAND]: FILE of the copy edited by
# SED-SCRIPT, then COMMAND run (DIR: the copy); cgrac exits 1 with EXPECTED
# as its first error
refused() {
	local name=$1 file=$2 script=$3 expected=${4//DIR/$tmp/d} command=${5//DIR/$tmp/d}
	fresh
	sed -i -e "$script" "$tmp/d/$file"
	[ -z "$command" ] || eval "$command"
	compile
	local first
	first=$(grep -m1 ': error: ' "$tmp/err")
	if [ "$status" -eq 1 ] && [ "$first" = "$expected" ] && [ ! -e "$tmp/o/brighten_blur.bs" ]; then
		pass "$name"
	else
		fail "$name (exit status $status)"
		echo "    expected: $expected"
		head -n 4 "$tmp/err" | cut -c1-240 | sed 's/^/    | /'
	fi
}

# ---- controls ----
fresh
compile
[ "$status" -eq 0 ] && [ -s "$tmp/o/brighten_blur.bs" ] && pass "the unchanged copy compiles" ||
	fail "the unchanged copy (exit status $status): $(head -c 300 "$tmp/err")"
fresh
mv "$tmp/d/routing.graph" "$tmp/d/other.graph"
sed -i 's/graph: routing.graph/graph: other.graph/' "$tmp/d/design.yaml"
compile
[ "$status" -eq 0 ] && [ -s "$tmp/o/brighten_blur.bs" ] && pass "the graph design.yaml's files.graph names is read" ||
	fail "files.graph: other.graph (exit status $status): $(head -c 300 "$tmp/err")"

end="regenerate the design's collateral: make rtl DESIGN=..."

# ---- design.yaml against the rest ----
refused "design.yaml: widths 16, 1 and 8, the graph's 16 and 1" design.yaml 's/^  - 1$/  - 1\n  - 8/' \
	"DIR/routing.graph:2:1: error: the graph's networks are not those of DIR/design.yaml (its 'widths')"
refused "design.yaml: files.graph names a missing file" design.yaml 's/graph: routing.graph/graph: nothere.graph/' \
	"DIR/nothere.graph: error: cannot read the file: No such file or directory"
refused "design.yaml: another design's name" design.yaml 's/^design: cgra_4x4/design: cgra_5x5/' \
	"DIR/routing.graph:2:1: error: the graph is of design 'cgra_4x4', DIR/design.yaml is of 'cgra_5x5'"
refused "design.yaml: files.config names the routing graph" design.yaml 's/config: config.map/config: routing.graph/' \
	"DIR/routing.graph:2:1: error: expected a field or end record, not 'graph'"
refused "design.yaml: a MEM column turned into PEs" design.yaml '0,/^  - PPPM$/s//  - PPPP/' \
	"DIR/routing.graph: error: no port_in node 'x3_y1_data0' for input data0 of the PE 'pe_base' at tile (3, 1): the graph does not hold the array of DIR/design.yaml"

# ---- routing.graph on its own ----
refused "routing.graph: an unknown kind of node" routing.graph 's/^node 5 sb_out/node 5 sb_zzz/' \
	"DIR/routing.graph:8:8: error: unknown kind of node 'sb_zzz' (sb_in, sb_out, reg, rmux, port_in or port_out)"
refused "routing.graph: a 17-bit port on the 16-bit network" routing.graph 's/^\(node 216 port_in\) 16 /\1 17 /' \
	"DIR/routing.graph:219:18: error: a 17-bit node, but the graph's networks are of 16, 1 bits"
for delay in -0.13 nan inf 1e308; do
	refused "routing.graph: a delay of $delay" routing.graph "4s/ 0.14 / $delay /" \
		"DIR/routing.graph:4:26: error: expected a delay in ns from 0 to 10, not '$delay'"
done
refused "routing.graph: a graph line without its widths" routing.graph 's/ widths 16 1$//' \
	"DIR/routing.graph:2:1: error: expected 'graph NAME cols C rows R widths W...' with 1 to 4 widths"
refused "routing.graph: an edge twice" routing.graph 's/^edge 8 1 1$/edge 8 1 1\nedge 8 1 2/' \
	"DIR/routing.graph:1437:6: error: a second edge from node 8 to node 1: a multiplexer takes each input once"
refused "routing.graph: cut short" routing.graph '3000,$d' \
	"DIR/routing.graph: error: the graph ends without its 'end NODES EDGES' line: the file is cut short, or older than its reader ($end)"
refused "routing.graph: its graph line alone" routing.graph '3,$d' \
	"DIR/routing.graph: error: the graph ends without its 'end NODES EDGES' line: the file is cut short, or older than its reader ($end)"
refused "routing.graph: its graph and end lines alone" routing.graph $'2a end 0 0\n3,$d' \
	"DIR/routing.graph: error: no port_in node 'x0_y0_f2io_16' for input f2io_16 of the IO tile 'io' at tile (0, 0): the graph does not hold the array of DIR/design.yaml"
refused "routing.graph: a line taken out" routing.graph '/^edge 781 1430 -$/d' \
	"DIR/routing.graph:4818:1: error: the end line counts 1432 nodes and 3384 edges, the file has 1432 and 3383: lines are missing or were added by hand ($end)"
refused "routing.graph: larger than a reader takes (a sparse file of 1100 MiB)" routing.graph '$a # past the limit' \
	"DIR/routing.graph: error: cannot read the file: file too large: 1153433600 bytes, the limit is 1073741824" \
	'truncate -s 1100M DIR/routing.graph'
refused "routing.graph: a core port renamed" routing.graph 's/ x1_y1_data0$/ x1_y1_dataX/' \
	"DIR/routing.graph: error: no port_in node 'x1_y1_data0' for input data0 of the PE 'pe_base' at tile (1, 1): the graph does not hold the array of DIR/design.yaml"

# ---- config.map ----
refused "config.map: two fields sharing bits" config.map '0,/^field 00800000 2 3 /s//field 00800000 1 3 /' \
	"DIR/config.map:3:1: error: bits 1..3 of register 00800000 are also bits of the field of 'sb16_x0_y0_N_out_t0' (line 2, bits 0..1): fields of a register do not overlap"
refused "config.map: cut short" config.map '300,$d' \
	"DIR/config.map: error: the map ends without its 'end FIELDS' line: the file is cut short, or older than its reader ($end)"
refused "config.map: a multiplexer's field gone (end line adjusted)" config.map \
	'/ mux sb16_x1_y1_N_out_t0$/d; s/^end 1524$/end 1523/' \
	"DIR/config.map: error: no field for the select of 'sb16_x1_y1_N_out_t0' (4 inputs, DIR/routing.graph line 188)"
refused "config.map: a field too narrow for its multiplexer" config.map \
	's/^field 01800101 0 2 mux x1_y1_data0$/field 01800101 0 0 mux x1_y1_data0/' \
	"DIR/config.map:198:1: error: the 8 inputs of 'x1_y1_data0' need 3 select bits, the field has 1"
refused "config.map: a core register at another address" config.map \
	's/^field 00000101 0 31 core x1_y1.inst0$/field 03000101 0 31 core x1_y1.inst0/' \
	"DIR/config.map:179:1: error: register inst0 of the PE 'pe_base' at tile (1, 1) is at address 00000101, not 03000101"

# ---- the cores' collateral ----
refused "pe_base.rules.yaml: a rule for an unknown IR operation" pe_base.rules.yaml 's/^  - ir: absd$/  - ir: absdiff/' \
	"DIR/pe_base.rules.yaml:9:5: error: a rule for 'absdiff', which is no IR operation of the compiler (peak/ir/ops.yaml)"
refused "pe_base.rules.yaml: and_const's rule relabelled as absd" pe_base.rules.yaml 's/^  - ir: and_const$/  - ir: absd/' \
	"DIR/pe_base.rules.yaml:20:5: error: the rule does not bind what IR operation 'absd' has, each once: inputs a, b, params none, output out (peak/ir/ops.yaml)"
refused "pe_base.rules.yaml: an unknown operation listed as unsupported" pe_base.rules.yaml 's/{ ir: add3,/{ ir: add4,/' \
	"DIR/pe_base.rules.yaml: error: 'add4' is listed as unsupported, but is no IR operation of the compiler (peak/ir/ops.yaml)"
refused "pe_base.rules.yaml: a cost of nan" pe_base.rules.yaml '0,/cost: 0.95/s//cost: nan/' \
	"DIR/pe_base.rules.yaml:12:11: error: the cost is a delay in ns from 0 to 100, not 'nan'"
refused "design.yaml: widths 8 and 1, the PE's words 16 bits" design.yaml 's/^  - 16$/  - 8/' \
	"DIR/pe_base.info.yaml: error: input data0 of PE 'pe_base' is 16 bits wide: DIR/design.yaml has no network of that width"
refused "pe_base.info.yaml: a 17-bit input on 16-bit networks" pe_base.info.yaml \
	's/{ name: data0, width: 16 }/{ name: data0, width: 17 }/' \
	"DIR/pe_base.info.yaml: error: input data0 of PE 'pe_base' is 17 bits wide: DIR/design.yaml has no network of that width"

refused "pub.smt2: larger than a reader takes (a sparse file of 20 MiB)" pub.smt2 '$a ; past the limit' \
	"DIR/pub.smt2: error: cannot read the memory tile's SMT model: file too large: 20971520 bytes, the limit is 16777216" \
	'truncate -s 20M DIR/pub.smt2'
refused "pub.smt2: missing" pub.smt2 '' \
	"DIR/pub.smt2: error: cannot read the memory tile's SMT model: No such file or directory" 'rm DIR/pub.smt2'

echo "bad collateral: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
