#!/usr/bin/env bash
# Configuration bus smoke test of cgra.v: the 4x4 array (scripts/rtl.sh;
# make test-canal generates it first, else it is regenerated when older than a
# generator or spec) on its Verilator model (verif/build.sh --probes none, the
# one the co-simulation runs) with a bench of the model's commands that, after
# reset, reads every register
# of config.map (expects 0), writes each one once with random values in its
# fields (fields sharing a 32-bit register composed) and random junk in the
# bits no field covers, then reads every register back: the field bits exactly,
# 0 elsewhere (interconnect and PE registers hold only field bits; a memory's
# registers are their width). Addresses with no register (a feature-0x7f and
# an unused feature-0x80 register of every tile, a tile outside the array)
# must read 0.
#   usage: canal/tests/config_bus.sh [DESIGN] [--seed S]
set -u
cd "$(dirname "$0")/../.."
. scripts/suite_lib.sh || exit 1
design=cgra_4x4 seed=1
while [ $# -gt 0 ]; do
	case "$1" in
	--seed) seed=$2; shift 2 ;;
	*) design=$1; shift ;;
	esac
done
out=rtl_out/$design
suite_tmp
finish() { suite_end "canal config bus"; exit; }

# vectors MAP SEED: the bench's words (hex, one per line): the number of
# registers, then address, data, expected read-back of each; the number of
# extra reads, then address, expected of each
vectors() {
	awk -v seed="$2" '
	function hex(v,   h) { h = int(v / 65536); return sprintf("%04x%04x", h, v - h * 65536) }
	$1 == "field" {
		a = $2
		if (!(a in seen)) { seen[a] = 1; order[n++] = a }
		t = substr(a, 5, 4)
		if (!(t in tile)) { tile[t] = 1; tiles[nt++] = t }
		for (b = $3; b <= $4; b++) cover[a, b] = 1
	}
	END {
		srand(seed)
		print hex(n)
		for (i = 0; i < n; i++) {
			a = order[i]; d = 0; x = 0
			for (b = 0; b < 32; b++) {
				if (rand() < 0.5) continue
				d += 2 ^ b
				if ((a, b) in cover) x += 2 ^ b
			}
			print a; print hex(d); print hex(x)
		}
		m = 0
		for (i = 0; i < nt; i++) {
			t = tiles[i]
			if (!(("007f" t) in seen)) extra[m++] = "007f" t
			if (!(("fe80" t) in seen)) extra[m++] = "fe80" t
		}
		extra[m++] = "0080ff00"
		print hex(m)
		for (i = 0; i < m; i++) { print extra[i]; print "00000000" }
	}' "$1"
}

# commands WORDS: the bench as commands of the harness's model (verif/README.md):
# after reset every register read (0), each written once, each read back, and
# the addresses with no register read (0)
commands() {
	awk 'function num(h,   v, i) { v = 0; for (i = 1; i <= length(h); i++) v = v * 16 + index("0123456789abcdef", substr(h, i, 1)) - 1; return v }
	     NR == 1 { n = num($1); next }
	     NR <= 1 + 3 * n { w[NR - 2] = $1; next }
	     NR == 2 + 3 * n { m = num($1); next }
	     { x[NR - 3 - 3 * n] = $1 }
	     END {
		print "reset"
		for (i = 0; i < n; i++) print "read " w[3 * i] " 00000000"
		for (i = 0; i < n; i++) print "write " w[3 * i] " " w[3 * i + 1]
		for (i = 0; i < n; i++) print "read " w[3 * i] " " w[3 * i + 2]
		for (i = 0; i < m; i++) print "read " x[2 * i] " " x[2 * i + 1]
		printf "# %d registers, %d reads\n", n, 2 * n + m
	     }' "$1"
}

if suite_design "$design" "$tmp/rtl.log"; then
	pass "$design generated (scripts/rtl.sh)"
else
	tail -5 "$tmp/rtl.log"; fail "$design: scripts/rtl.sh failed"; finish
fi
vectors "$out/config.map" "$seed" >"$tmp/vectors.hex"
commands "$tmp/vectors.hex" >"$tmp/bus.cmd"
# the model the co-simulation uses (built once, cached; make test-canal builds it first)
model=build/verilator/$design-noprobes
if bash verif/build.sh "$out" --probes none -o "$model" >"$tmp/build.log" 2>&1; then
	pass "$design: the Verilator model ($(sed -n 's/^verif build: //p' "$tmp/build.log" | head -1))"
else
	tail -5 "$tmp/build.log"; fail "$design: the Verilator model does not build"; finish
fi
"$model/vsim" "$tmp/bus.cmd" --max-report 10 >"$tmp/run.log" 2>&1
status=$?
head -12 "$tmp/run.log"
reads=$(tail -1 "$tmp/bus.cmd" | sed -n 's/.*, \([0-9]*\) reads$/\1/p')
if [ $status -eq 0 ] && [ "${reads:-0}" -gt 0 ] && tail -1 "$tmp/run.log" | grep -q " 0 mismatches; [0-9]* configuration writes, $reads reads"; then
	pass "$design: every register of config.map reads back what was written, $(tail -1 "$tmp/bus.cmd" | sed 's/^# //') (seed $seed)"
else
	fail "$design: read-back differs from the writes"
fi
finish
