#!/usr/bin/env bash
# Configuration bus smoke test of cgra.v: builds the 4x4 array (scripts/rtl.sh;
# make test-canal generates it first, else it is regenerated when older than a
# generator or spec)
# under Verilator with a Verilog bench that, after rst, reads every register
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

bench() {
	cat <<EOF
// The configuration bus of \`DESIGN: every register written once, read back.
module config_tb;
    reg clk = 1'b0, rst = 1'b1, flush = 1'b0, config_wr = 1'b0;
    reg [31:0] config_addr = 32'h0, config_data = 32'h0;
    wire [31:0] config_rdata;
    \`DESIGN dut (.clk(clk), .rst(rst), .flush(flush), .config_addr(config_addr),
        .config_data(config_data), .config_wr(config_wr), .config_rdata(config_rdata));
    reg [31:0] v [0:\`WORDS - 1];
    integer n, m, i, reads = 0, errors = 0;
    task tick; begin #1 clk = 1'b1; #1 clk = 1'b0; end endtask
    task check(input [31:0] a, input [31:0] x, input [8*8-1:0] when); begin
        config_addr = a;
        #1 reads = reads + 1;
        if (config_rdata !== x) begin
            errors = errors + 1;
            if (errors <= 10)
                \$display("config_tb: %0s: read of %h gives %h, expected %h", when, a, config_rdata, x);
        end
    end endtask
    initial begin
        \$readmemh("vectors.hex", v);
        tick; tick;
        rst = 1'b0;
        n = v[0];
        m = v[1 + 3 * n];
        for (i = 0; i < n; i = i + 1) check(v[1 + 3 * i], 32'h0, "reset");
        for (i = 0; i < n; i = i + 1) begin
            config_addr = v[1 + 3 * i];
            config_data = v[2 + 3 * i];
            config_wr = 1'b1;
            tick;
            config_wr = 1'b0;
        end
        for (i = 0; i < n; i = i + 1) check(v[1 + 3 * i], v[3 + 3 * i], "written");
        for (i = 0; i < m; i = i + 1) check(v[2 + 3 * n + 2 * i], v[3 + 3 * n + 2 * i], "none");
        \$display("config_tb: %0d registers, %0d reads, %0d wrong", n, reads, errors);
        \$finish;
    end
endmodule
EOF
}

if suite_design "$design" "$tmp/rtl.log"; then
	pass "$design generated (scripts/rtl.sh)"
else
	tail -5 "$tmp/rtl.log"; fail "$design: scripts/rtl.sh failed"; finish
fi
vectors "$out/config.map" "$seed" >"$tmp/vectors.hex"
bench >"$tmp/config_tb.v"
words=$(wc -l <"$tmp/vectors.hex")
t0=$(date +%s.%N)
if verilator --binary -j 2 -Wno-fatal -Wno-PINMISSING -Mdir "$tmp/obj" --top-module config_tb \
	-DDESIGN="$design" -DWORDS="$words" -MAKEFLAGS "OPT_FAST=-O0 OPT_GLOBAL=-O0" \
	"$tmp/config_tb.v" "$out"/*.v >"$tmp/build.log" 2>&1; then
	pass "$design: the bench builds ($(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.0f", b - a }') s)"
else
	grep -m5 -E '^%Error' "$tmp/build.log"; fail "$design: the bench does not build"; finish
fi
(cd "$tmp" && ./obj/Vconfig_tb) >"$tmp/run.log" 2>&1
cat "$tmp/run.log" | grep -v '^- ' | head -12
if grep -q ', 0 wrong' "$tmp/run.log"; then
	pass "$design: every register of config.map reads back what was written (seed $seed)"
else
	fail "$design: read-back differs from the writes"
fi
finish
