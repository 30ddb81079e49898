#!/usr/bin/env bash
# The fast simulator against Verilator on every node, every cycle (cgrasim/README.md,
# "Agreement"), on cgra_4x4 and its model with every node probed:
#   - the connectivity bench (bin/verif conn: every edge of routing.graph exercised) run
#     on bin/cgrasim: no mismatch with the bench's own model of the configured graph;
#   - the same bench transcribed by bin/cgrasim --expect-out (every node's value before
#     every clock edge, configuration cycles included) and checked by vsim;
#   - random PE instructions (every instruction register written with random bits) on
#     the bench's placements and routes, random inputs streamed for 24 cycles,
#     transcribed and checked by vsim;
#   - two hand-written configurations (cmd/): a PE counting through its own registered
#     output, two PEs feeding each other with no combinational loop;
#   - mutations the comparison must catch: a transcript made from a bitstream with one
#     multiplexer select changed, one pipeline register bypassed, one PE instruction bit
#     flipped, and from collateral whose routing.graph has a connection box's inputs in
#     reverse order, each checked by vsim against the unchanged configuration: mismatches.
#   usage: cgrasim/tests/agree.sh      (needs bin/cgrasim, bin/verif, rtl_out/cgra_4x4 and
#                                       build/verilator/cgra_4x4/vsim: make test-cgrasim)
set -u
cd "$(dirname "$0")/../.." || exit 1
. scripts/suite_lib.sh
suite_tmp
[ -n "${KEEP:-}" ] && { trap - EXIT; echo "tmp: $tmp"; }
d=cgra_4x4
rtl=rtl_out/$d
vsim=build/verilator/$d/vsim
for f in bin/cgrasim bin/verif "$rtl/design.yaml" "$vsim"; do
	[ -e "$f" ] || { fail "missing $f (make test-cgrasim)"; suite_end "cgrasim agree"; exit; }
done

# The connectivity bench, on the fast simulator.
conn=$tmp/conn
if bin/verif conn "$rtl" -o "$conn" -q >/dev/null; then
	if bin/cgrasim run "$rtl" "$conn/conn.cmd" >"$tmp/run.log" 2>&1; then
		pass "$d: the connectivity bench on cgrasim: $(grep '^cgrasim: .* checks' "$tmp/run.log")"
	else
		grep -v warning "$tmp/run.log" | head -20
		fail "$d: the connectivity bench on cgrasim has mismatches"
	fi
else
	fail "$d: bin/verif conn failed"
fi

# transcribe NAME CMD [DESIGN]: CMD on cgrasim into $tmp/NAME.tx (every node expected).
transcribe() {
	bin/cgrasim run "${3:-$rtl}" "$2" -q --expect-out "$tmp/$1.tx" 2>"$tmp/$1.err"
}

# checked NAME: vsim runs $tmp/NAME.tx; its status (0: every value agreed).
checked() {
	"$vsim" "$tmp/$1.tx" --max-report 3 >"$tmp/$1.vsim" 2>&1
}

if transcribe conn "$conn/conn.cmd" && checked conn; then
	pass "$d: the bench's every node before every edge, transcribed by cgrasim, agrees under Verilator: $(tail -1 "$tmp/conn.vsim" | sed 's/; [0-9]* configuration.*//')"
else
	head -5 "$tmp/conn.err" "$tmp/conn.vsim" 2>/dev/null
	fail "$d: cgrasim and Verilator disagree on the connectivity bench"
fi

# Random PE instructions on the bench's placements: a command file per configuration.
# random_cmd CFG SEED OUT: reset, the configuration, every PE instruction register at
# random, flush, random 16-bit (and 1-bit) inputs on every IO port for 24 cycles.
random_cmd() {
	local cfg=$1 seed=$2 out=$3 p w
	{
		echo "reset"
		echo "bitstream $cfg"
		awk -v seed="$seed" '$1 == "field" && $5 == "core" && $6 ~ /\.inst[0-9]+$/ {
			srand(seed + NR); bits = $4 - $3 + 1; v = 0
			for (i = 0; i < bits; i++) if (rand() < 0.5) v += 2 ^ i
			printf "write %s %08x\n", $2, v * 2 ^ $3 }' "$rtl/config.map"
		echo "flush"
		for p in $(sed -n 's/.*VERIF_INPUT(\([a-z0-9_]*\), *\([0-9]*\)).*/\1:\2/p' "${vsim%/vsim}/verif_ports.h"); do
			w=${p#*:}
			awk -v seed="$seed" -v w="$w" -v name="${p%:*}" 'BEGIN { srand(seed + length(name) * 131)
				for (c = 0; c < 24; c++) printf "%x\n", int(rand() * 2 ^ w) }' >"$out.${p%:*}.hex"
			echo "drive ${p%:*} $(basename "$out").${p%:*}.hex"
		done
		echo "run 24"
	} >"$out"
}
agreed=0 runs=0
for cfg in "$conn"/cfg00[1-6].bs; do
	for seed in 1 2; do
		n=$(basename "$cfg" .bs)_$seed
		random_cmd "$cfg" "$seed" "$tmp/$n.cmd"
		runs=$((runs + 1))
		if transcribe "$n" "$tmp/$n.cmd" && checked "$n"; then
			agreed=$((agreed + 1))
		else
			grep -v warning "$tmp/$n.err" | head -3
			head -3 "$tmp/$n.vsim"
		fi
	done
done
if [ "$agreed" = "$runs" ]; then
	pass "$d: random PE instructions on $runs placements, random inputs: every node agrees under Verilator"
else
	fail "$d: random PE instructions: $((runs - agreed)) of $runs runs disagree"
fi

# Two hand-written configurations (cmd/): a PE whose registered output feeds its own input
# (it counts), and two PEs feeding each other through outputs that read other inputs (no
# loop): the same under both, and no loop reported.
for c in acc twoway; do
	if transcribe "$c" "cgrasim/tests/cmd/$c.cmd" && checked "$c" && ! grep -q "combinational loop" "$tmp/$c.err"; then
		pass "$d: cmd/$c.cmd: every node agrees under Verilator, no loop reported"
	else
		cat "$tmp/$c.err" 2>/dev/null | head -3
		head -3 "$tmp/$c.vsim" 2>/dev/null
		fail "$d: cmd/$c.cmd: cgrasim and Verilator disagree, or a loop is reported"
	fi
done

# Mutations. candidates KIND CFG: "ADDRESS DATA" lines of CFG with one field changed:
# mux (a switch-box or connection-box select one up), bypass (a register's multiplexer
# from the register to the bypass), pe (bit 0 of a PE's first instruction register).
candidates() {
	awk -v kind="$1" 'function hex(x,   i, v) { v = 0; x = tolower(x)
			for (i = 1; i <= length(x); i++) v = v * 16 + index("0123456789abcdef", substr(x, i, 1)) - 1
			return v }
		FNR == NR { if ($1 == "field") { n++; a[n] = $2; lo[n] = $3; hi[n] = $4; k[n] = $5; t[n] = $6 }; next }
		{ data[$1] = hex($2) }
		END {
			for (i = 1; i <= n; i++) {
				if (!(a[i] in data)) continue
				v = data[a[i]]; w = hi[i] - lo[i] + 1; f = int(v / 2 ^ lo[i]) % 2 ^ w
				if (kind == "mux" && k[i] == "mux" && t[i] !~ /^rmux/ && w > 1) nf = (f + 1) % 2 ^ w
				else if (kind == "bypass" && k[i] == "mux" && t[i] ~ /^rmux/ && f == 1) nf = 0
				else if (kind == "pe" && k[i] == "core" && t[i] ~ /\.inst0$/) nf = f % 2 ? f - 1 : f + 1
				else continue
				printf "%s %08x\n", a[i], v - f * 2 ^ lo[i] + nf * 2 ^ lo[i]
			}
		}' "$rtl/config.map" "$2"
}

# mutant NAME KIND CFG CMD: the first mutation of KIND in CFG (of the first 30) that
# vsim sees differ, the transcript made from the mutated configuration and given the
# original line back.
mutant() {
	local name=$1 kind=$2 cfg=$3 cmd=$4 addr data orig tries=0
	while read -r addr data; do
		tries=$((tries + 1))
		[ $tries -le 30 ] || break
		orig=$(awk -v a="$addr" '$1 == a { print $2; exit }' "$cfg")
		awk -v a="$addr" -v dd="$data" '$1 == a { $2 = dd } { print }' "$cfg" >"$tmp/mut.bs"
		sed "s#^bitstream .*#bitstream $tmp/mut.bs#" "$cmd" >"$tmp/mut.cmd"
		transcribe "$name" "$tmp/mut.cmd" || continue
		sed -i "s/^write $addr $data\$/write $addr $(echo "$orig" | tr A-F a-f)/" "$tmp/$name.tx"
		if ! checked "$name" && grep -q "mismatch" "$tmp/$name.vsim"; then
			pass "$d: $name ($addr: $orig -> $data) makes cgrasim and Verilator disagree: $(grep -m1 mismatch "$tmp/$name.vsim" | sed 's/^[^:]*:[0-9]*: //')"
			return
		fi
	done < <(candidates "$kind" "$cfg")
	fail "$d: no $name among $tries tried makes cgrasim and Verilator disagree"
}
mutant "a multiplexer select changed" mux "$conn/cfg001.bs" "$tmp/cfg001_1.cmd"
mutant "a pipeline register bypassed" bypass "$conn/cfg003.bs" "$tmp/cfg003_1.cmd"
mutant "a PE instruction bit flipped" pe "$conn/cfg002.bs" "$tmp/cfg002_1.cmd"

# The collateral: a copy of the design whose routing.graph has the inputs of one
# connection box (PE x1 y1's data0) in reverse order: select k now takes what
# select n-1-k took.
mutd=$tmp/mutdesign
cp -r "$rtl" "$mutd"
awk 'FNR == NR { if ($1 == "node" && $NF == "x1_y1_data0") id = $2
		if ($1 == "edge" && $3 == id && id != "") from[n++] = $2
		next }
	$1 == "edge" && $3 == id { $2 = from[n - 1 - $4] }
	{ print }' "$rtl/routing.graph" "$rtl/routing.graph" >"$mutd/routing.graph"
if cmp -s "$rtl/routing.graph" "$mutd/routing.graph"; then
	fail "$d: the routing graph could not be mutated"
else
	hit=0
	for cfg in "$conn"/cfg00[1-6].bs; do
		n=$(basename "$cfg" .bs)
		transcribe graph "$tmp/${n}_1.cmd" "$mutd" || continue
		if ! checked graph && grep -q mismatch "$tmp/graph.vsim"; then
			hit=1
			pass "$d: routing.graph with the inputs of x1_y1_data0 reversed makes them disagree ($n): $(grep -m1 mismatch "$tmp/graph.vsim" | sed 's/^[^:]*:[0-9]*: //')"
			break
		fi
	done
	[ $hit = 1 ] || fail "$d: routing.graph with the inputs of x1_y1_data0 reversed goes unnoticed on every configuration"
fi

suite_end "cgrasim agree"
