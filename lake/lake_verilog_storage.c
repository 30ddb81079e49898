/* lake_verilog_storage.c - the storage units of a memory tile's Verilog
 * (lake_verilog.c): a module <mem>_<unit>_storage per unit over its rows,
 * register files as flip-flops, SRAMs around a behavioural macro
 * <mem>_<unit>_macro that a real one can replace. */
#include "lake_verilog.h"

/* ---- storage ---- */

/* The storage module's ports for one storage port. */
static void storage_port_decls(Gen *g, MemEnd e, List *l)
{
	const MemInfo *mi = g->mi;
	const MemPortInfo *pi = lv_port_of(mi, e);
	const char *n = pi->name;
	int bits = lv_port_bits(mi, e);
	if (!lv_is_regfile(mi, e) && (pi->op & MEM_READ))
		vec_push(l, arena_printf(g->a, "input  wire %s_ren", n));
	if (pi->op & MEM_WRITE)
		vec_push(l, arena_printf(g->a, "input  wire %s_wen", n));
	if (lv_has_wmask(mi, e))
		vec_push(l, arena_printf(g->a, "input  wire %s%s_wmask", lv_rng(g, pi->width), n));
	if (pi->addr_bits > 0)
		vec_push(l, arena_printf(g->a, "input  wire %s%s_addr", lv_rng(g, pi->addr_bits), n));
	if (pi->op & MEM_WRITE)
		vec_push(l, arena_printf(g->a, "input  wire %s%s_wdata", lv_rng(g, bits), n));
	if ((pi->op & MEM_WRITE) && lv_has_flags(mi, e))
		vec_push(l, arena_printf(g->a, "input  wire %s_wflag", n));
	if (pi->op & MEM_READ)
		vec_push(l, arena_printf(g->a, "output wire %s%s_rdata", lv_rng(g, bits), n));
	if ((pi->op & MEM_READ) && lv_has_flags(mi, e))
		vec_push(l, arena_printf(g->a, "output wire %s_rflag", n));
}

static void emit_storage_header(Gen *g, int u, const char *what)
{
	const MemInfo *mi = g->mi;
	const MemUnitInfo *un = &mi->units[u];
	List l = { 0 };
	vw_line(&g->w, "// %s '%s': %d rows of %d x %d-bit words.", what, un->name, un->words / un->fetch,
		un->fetch, mi->word);
	vw_line(&g->w, "module %s_%s_storage (", mi->name, un->name);
	vec_push(&l, "input  wire clk");
	if (un->kind == MEM_REGFILE)
		vec_push(&l, "input  wire rst");
	vec_push(&l, "input  wire en");
	for (int p = 0; p < un->nports; p++)
		storage_port_decls(g, (MemEnd){ u, p }, &l);
	vw_indent(&g->w);
	lv_emit_list(g, &l);
	vw_dedent(&g->w);
	vw_line(&g->w, ");");
}

/* Read stages after the first read value: for an SRAM the macro's register
 * is the first, for a register file the combinational read. */
int lv_read_stages(const MemInfo *mi, MemEnd e)
{
	const MemPortInfo *pi = lv_port_of(mi, e);
	if (!(pi->op & MEM_READ))
		return 0;
	if (lv_is_regfile(mi, e))
		return pi->latency;
	return pi->latency > 1 ? pi->latency - 1 : 0;
}

/* The wrapper's en (the tile runs) is used only by read stages. */
static void sink_unused_en(Gen *g, int u)
{
	for (int p = 0; p < g->mi->units[u].nports; p++)
		if (lv_read_stages(g->mi, (MemEnd){ u, p }))
			return;
	vw_line(&g->w, "/* verilator lint_off UNUSEDSIGNAL */");
	vw_line(&g->w, "wire unused_ok = en;");
	vw_line(&g->w, "/* verilator lint_on UNUSEDSIGNAL */");
}

/* Read data of a port after `latency` cycles: stage 0 is rd0/rf0 (or the
 * macro's registered output), the others advance while the tile runs. */
static void emit_read_stages(Gen *g, MemEnd e, const char *src, int stages, int flags)
{
	const MemInfo *mi = g->mi;
	const char *n = lv_port_of(mi, e)->name;
	int bits = lv_port_bits(mi, e) + flags;
	const char *d = flags ? arena_printf(g->a, "{%s, %s_rf0}", src, n) : src;
	const char *q = flags ? arena_printf(g->a, "{%s_rdata, %s_rflag}", n, n) : arena_printf(g->a, "%s_rdata", n);
	if (stages == 0) {
		vw_line(&g->w, "assign %s = %s;", q, d);
		return;
	}
	vw_line(&g->w, "%s_delay #(.W(%d), .L(%d)) %s_stages (.clk(clk), .clear(1'b0), .en(en), .d(%s), .q(%s));",
		mi->name, bits, stages, n, d, q);
}

/* Bits [addr * w + w - 1 : addr * w] of a bus of w-bit elements; the whole
 * bus when the port has one slot. */
static const char *at_slot(Gen *g, const char *bus, const MemPortInfo *pi, int w)
{
	if (!pi->addr_bits)
		return arena_printf(g->a, "%s[%d:0]", bus, w - 1);
	return arena_printf(g->a, "%s[%s_addr * %d +: %d]", bus, pi->name, w, w);
}

/* Element k (w bits each) of the slot of a port in a bus of such elements. */
static const char *at_slot_word(Gen *g, const char *bus, const MemPortInfo *pi, int w, int k)
{
	if (!pi->addr_bits)
		return arena_printf(g->a, "%s[%d +: %d]", bus, k * w, w);
	return arena_printf(g->a, "%s[%s_addr * %d + %d +: %d]", bus, pi->name, pi->width * w, k * w, w);
}

/* A masked write: each word of the slot whose mask bit is set. */
static void emit_regfile_masked_write(Gen *g, const MemPortInfo *pi)
{
	const MemInfo *mi = g->mi;
	int wb = mi->word;
	vw_line(&g->w, "if (%s_wen) begin", pi->name);
	vw_indent(&g->w);
	for (int k = 0; k < pi->width; k++) {
		vw_line(&g->w, "if (%s_wmask[%d]) begin", pi->name, k);
		vw_line(&g->w, "    %s <= %s_wdata[%d +: %d];", at_slot_word(g, "data", pi, wb, k), pi->name, k * wb, wb);
		if (mi->chain)
			vw_line(&g->w, "    %s <= %s_wflag;", at_slot_word(g, "flags", pi, 1, k), pi->name);
		vw_line(&g->w, "end");
	}
	vw_dedent(&g->w);
	vw_line(&g->w, "end");
}

static void emit_regfile_writes(Gen *g, int u)
{
	const MemInfo *mi = g->mi;
	const MemUnitInfo *un = &mi->units[u];
	for (int p = 0; p < un->nports; p++) {
		const MemPortInfo *pi = &un->ports[p];
		if (!(pi->op & MEM_WRITE))
			continue;
		if (lv_has_wmask(mi, (MemEnd){ u, p })) {
			emit_regfile_masked_write(g, pi);
			continue;
		}
		vw_line(&g->w, "if (%s_wen) begin", pi->name);
		vw_line(&g->w, "    %s <= %s_wdata;", at_slot(g, "data", pi, pi->width * mi->word), pi->name);
		if (mi->chain)
			vw_line(&g->w, "    %s <= {%d{%s_wflag}};", at_slot(g, "flags", pi, pi->width), pi->width,
				pi->name);
		vw_line(&g->w, "end");
	}
}

/* Register files: flip-flops (words and, with chaining, their flags) that rst
 * clears; reads are combinational, then `latency` stages. */
static void emit_regfile(Gen *g, int u)
{
	const MemInfo *mi = g->mi;
	const MemUnitInfo *un = &mi->units[u];
	int words = un->words, wb = mi->word, fl = mi->chain;
	emit_storage_header(g, u, "Register file");
	vw_indent(&g->w);
	vw_line(&g->w, "reg [%d:0] data;", words * wb - 1);
	if (fl)
		vw_line(&g->w, "reg %sflags;", lv_rng(g, words));
	vw_line(&g->w, "always @(posedge clk)");
	vw_indent(&g->w);
	vw_line(&g->w, "if (rst) begin");
	vw_line(&g->w, "    data <= %s;", lv_zero(g, words * wb));
	if (fl)
		vw_line(&g->w, "    flags <= %s;", lv_zero(g, words));
	vw_line(&g->w, "end else begin");
	vw_indent(&g->w);
	emit_regfile_writes(g, u);
	vw_dedent(&g->w);
	vw_line(&g->w, "end");
	vw_dedent(&g->w);
	for (int p = 0; p < un->nports; p++) {
		const MemPortInfo *pi = &un->ports[p];
		MemEnd e = { u, p };
		if (!(pi->op & MEM_READ))
			continue;
		vw_line(&g->w, "wire %s%s_rd0 = %s;", lv_rng(g, pi->width * wb), pi->name,
			at_slot(g, "data", pi, pi->width * wb));
		if (fl)
			vw_line(&g->w, "wire %s_rf0 = &%s;", pi->name, at_slot(g, "flags", pi, pi->width));
		emit_read_stages(g, e, arena_printf(g->a, "%s_rd0", pi->name), lv_read_stages(mi, e), fl);
	}
	sink_unused_en(g, u);
	vw_dedent(&g->w);
	vw_line(&g->w, "endmodule");
	vw_line(&g->w, "%s", "");
}

/* The behavioural SRAM macro: rows of fetch words, per port a row address, a
 * word write mask and, for latency >= 1, a read register loaded on ren. */
static void emit_macro_ports(Gen *g, int u)
{
	const MemInfo *mi = g->mi;
	const MemUnitInfo *un = &mi->units[u];
	int rb = lv_log2i(un->words / un->fetch), rowbits = un->fetch * mi->word;
	List l = { 0 };
	vec_push(&l, "input  wire clk");
	for (int p = 0; p < un->nports; p++) {
		const MemPortInfo *pi = &un->ports[p];
		const char *n = pi->name;
		if (rb)
			vec_push(&l, arena_printf(g->a, "input  wire %s%s_row", lv_rng(g, rb), n));
		if (pi->op & MEM_WRITE) {
			vec_push(&l, arena_printf(g->a, "input  wire %s_wen", n));
			if (un->fetch > 1)
				vec_push(&l, arena_printf(g->a, "input  wire %s%s_wmask", lv_rng(g, un->fetch), n));
			vec_push(&l, arena_printf(g->a, "input  wire [%d:0] %s_wdata", rowbits - 1, n));
		}
		if (pi->op & MEM_READ) {
			vec_push(&l, arena_printf(g->a, "input  wire %s_ren", n));
			vec_push(&l, arena_printf(g->a, "output %s [%d:0] %s_rdata", pi->latency ? "reg " : "wire", rowbits - 1, n));
		}
	}
	vw_line(&g->w, "module %s_%s_macro (", mi->name, un->name);
	vw_indent(&g->w);
	lv_emit_list(g, &l);
	vw_dedent(&g->w);
	vw_line(&g->w, ");");
}

static void emit_macro(Gen *g, int u)
{
	const MemInfo *mi = g->mi;
	const MemUnitInfo *un = &mi->units[u];
	VWriter *w = &g->w;
	int rows = un->words / un->fetch, rb = lv_log2i(rows), rowbits = un->fetch * mi->word;
	vw_line(w, "// Behavioural model of the SRAM macro of '%s' (%d x %d bits, word write mask):",
		un->name, rows, rowbits);
	vw_line(w, "// a read returns the row before this cycle's writes.");
	emit_macro_ports(g, u);
	vw_indent(w);
	vw_line(w, "reg [%d:0] mem [0:%d];", rowbits - 1, rows - 1);
	if (un->fetch > 1)
		vw_line(w, "integer k;");
	vw_line(w, "always @(posedge clk) begin");
	vw_indent(w);
	for (int p = 0; p < un->nports; p++) {
		const MemPortInfo *pi = &un->ports[p];
		const char *row = rb ? arena_printf(g->a, "mem[%s_row]", pi->name) : "mem[0]";
		if ((pi->op & MEM_READ) && pi->latency)
			vw_line(w, "if (%s_ren) %s_rdata <= %s;", pi->name, pi->name, row);
		if ((pi->op & MEM_WRITE) && un->fetch == 1)
			vw_line(w, "if (%s_wen) %s <= %s_wdata;", pi->name, row, pi->name);
		else if (pi->op & MEM_WRITE) {
			vw_line(w, "for (k = 0; k < %d; k = k + 1)", un->fetch);
			vw_line(w, "    if (%s_wen & %s_wmask[k]) %s[k*%d +: %d] <= %s_wdata[k*%d +: %d];",
				pi->name, pi->name, row, mi->word, mi->word, pi->name, mi->word, mi->word);
		}
	}
	vw_dedent(w);
	vw_line(w, "end");
	for (int p = 0; p < un->nports; p++) {
		const MemPortInfo *pi = &un->ports[p];
		if ((pi->op & MEM_READ) && !pi->latency) {
			vw_line(w, "assign %s_rdata = %s;", pi->name, rb ? arena_printf(g->a, "mem[%s_row]", pi->name) : "mem[0]");
			vw_line(w, "/* verilator lint_off UNUSEDSIGNAL */");
			vw_line(w, "wire unused_%s = %s_ren;", pi->name, pi->name);
			vw_line(w, "/* verilator lint_on UNUSEDSIGNAL */");
		}
	}
	vw_dedent(w);
	vw_line(w, "endmodule");
	vw_line(w, "%s", "");
}

/* The slot of a port in the macro's rows: the row, the word mask and the
 * word of a read, kept with the read data. */
static void emit_sram_port(Gen *g, int u, int p)
{
	const MemInfo *mi = g->mi;
	const MemUnitInfo *un = &mi->units[u];
	const MemPortInfo *pi = &un->ports[p];
	MemEnd e = { u, p };
	const char *n = pi->name;
	int per_row = un->fetch / pi->width, sb = lv_log2i(per_row), rb = pi->addr_bits - sb;
	int bits = lv_port_bits(mi, e), wb = lv_log2i(pi->width);
	if (rb)
		vw_line(&g->w, "wire %s%s_row = %s;", lv_rng(g, rb), n, lv_slice(g, arena_printf(g->a, "%s_addr", n), pi->addr_bits, sb, rb));
	if (sb)
		vw_line(&g->w, "wire %s%s_sub = %s;", lv_rng(g, sb), n, lv_slice(g, arena_printf(g->a, "%s_addr", n), pi->addr_bits, 0, sb));
	if ((pi->op & MEM_WRITE) && lv_has_wmask(mi, e)) {
		/* the slot's words of the port's word mask */
		const char *mine = un->fetch > pi->width
				   ? arena_printf(g->a, "{{%d{1'b0}}, %s_wmask}", un->fetch - pi->width, n)
				   : arena_printf(g->a, "%s_wmask", n);
		if (!sb)
			vw_line(&g->w, "wire %s%s_row_wmask = %s;", lv_rng(g, un->fetch), n, mine);
		else
			vw_line(&g->w, "wire %s%s_row_wmask = %s << %s;", lv_rng(g, un->fetch), n, mine,
				wb ? arena_printf(g->a, "{%s_sub, %d'b0}", n, wb) : arena_printf(g->a, "%s_sub", n));
	} else if (pi->op & MEM_WRITE) {
		const char *ones = arena_printf(g->a, "{{%d{1'b0}}, {%d{1'b1}}}", un->fetch - pi->width, pi->width);
		if (!sb && un->fetch > 1)
			vw_line(&g->w, "wire %s%s_wmask = {%d{1'b1}};", lv_rng(g, un->fetch), n, un->fetch);
		else if (sb)
			vw_line(&g->w, "wire %s%s_wmask = %s << %s;", lv_rng(g, un->fetch), n, ones,
				wb ? arena_printf(g->a, "{%s_sub, %d'b0}", n, wb) : arena_printf(g->a, "%s_sub", n));
	}
	if (!(pi->op & MEM_READ))
		return;
	vw_line(&g->w, "wire [%d:0] %s_row_rdata;", un->fetch * mi->word - 1, n);
	const char *sel = arena_printf(g->a, "%s_sub", n);
	if (sb && pi->latency) {
		vw_line(&g->w, "reg  %s%s_sub_q;", lv_rng(g, sb), n);
		vw_line(&g->w, "always @(posedge clk)");
		vw_line(&g->w, "    if (%s_ren) %s_sub_q <= %s_sub;", n, n, n);
		sel = arena_printf(g->a, "%s_sub_q", n);
	}
	if (sb)
		vw_line(&g->w, "wire %s%s_rd0 = %s_row_rdata[%s * %d +: %d];", lv_rng(g, bits), n, n, sel, bits, bits);
	else
		vw_line(&g->w, "wire %s%s_rd0 = %s_row_rdata;", lv_rng(g, bits), n, n);
	emit_read_stages(g, e, arena_printf(g->a, "%s_rd0", n), lv_read_stages(mi, e), 0);
}

static void emit_macro_inst(Gen *g, int u)
{
	const MemInfo *mi = g->mi;
	const MemUnitInfo *un = &mi->units[u];
	int rb = lv_log2i(un->words / un->fetch);
	List l = { 0 };
	vec_push(&l, ".clk(clk)");
	for (int p = 0; p < un->nports; p++) {
		const MemPortInfo *pi = &un->ports[p];
		const char *n = pi->name;
		if (rb)
			vec_push(&l, arena_printf(g->a, ".%s_row(%s_row)", n, n));
		if (pi->op & MEM_WRITE)
			vec_push(&l, arena_printf(g->a, ".%s_wen(%s_wen), %s.%s_wdata({%d{%s_wdata}})", n, n,
					 un->fetch > 1 ? arena_printf(g->a, ".%s_wmask(%s_%swmask), ", n, n,
								      lv_has_wmask(mi, (MemEnd){ u, p }) ? "row_" : "")
						       : "", n,
					 un->fetch / pi->width, n));
		if (pi->op & MEM_READ)
			vec_push(&l, arena_printf(g->a, ".%s_ren(%s_ren), .%s_rdata(%s_row_rdata)", n, n, n, n));
	}
	vw_line(&g->w, "%s_%s_macro macro (", mi->name, un->name);
	vw_indent(&g->w);
	lv_emit_list(g, &l);
	vw_dedent(&g->w);
	vw_line(&g->w, ");");
}

static void emit_sram(Gen *g, int u)
{
	const MemUnitInfo *un = &g->mi->units[u];
	emit_macro(g, u);
	emit_storage_header(g, u, "SRAM");
	vw_indent(&g->w);
	vw_line(&g->w, "// a port of width w addresses slots of w words: the slot's row, then its word");
	for (int p = 0; p < un->nports; p++)
		emit_sram_port(g, u, p);
	emit_macro_inst(g, u);
	sink_unused_en(g, u);
	vw_dedent(&g->w);
	vw_line(&g->w, "endmodule");
	vw_line(&g->w, "%s", "");
}

void lv_storage(Gen *g, int u)
{
	if (g->mi->units[u].kind == MEM_SRAM)
		emit_sram(g, u);
	else
		emit_regfile(g, u);
}
