/* lake_verilog_ctrl.c - the controllers of a memory tile's Verilog
 * (lake_verilog.c): the helper modules a controller is made of (an iteration
 * domain, its affine generators as recurrences or with multipliers, the
 * delay stages), the configuration registers they read, and each
 * controller's instance in the tile. */
#include "lake_verilog.h"

/* ---- helper modules ---- */

/* Read-back: config_rdata is the register at config_addr[31:16], 0 if none. */
static void emit_config_read(Gen *g)
{
	const MemInfo *mi = g->mi;
	VWriter *w = &g->w;
	vw_line(w, "always @(*)");
	vw_indent(w);
	vw_line(w, "case (config_addr[31:16])");
	vw_indent(w);
	for (int i = 0; i < mi->nregs; i++) {
		const MemReg *r = &mi->regs[i];
		if (r->width < 32)
			vw_line(w, "16'h%04x: config_rdata = {%d'h0, cfg_%s};", mem_reg_address(r) >> 16, 32 - r->width,
				r->name);
		else
			vw_line(w, "16'h%04x: config_rdata = cfg_%s;", mem_reg_address(r) >> 16, r->name);
	}
	vw_line(w, "default: config_rdata = 32'h0;");
	vw_dedent(w);
	vw_line(w, "endcase");
	vw_dedent(w);
}

static void emit_config(Gen *g)
{
	const MemInfo *mi = g->mi;
	VWriter *w = &g->w;
	int maxw = 1;
	vw_line(w, "// Configuration registers: config_wr writes the one whose address (register << 8 |");
	vw_line(w, "// feature) is config_addr[31:16]; rst clears them. config_rdata reads that register");
	vw_line(w, "// back (0 if there is none).");
	vw_line(w, "module %s_config (", mi->name);
	vw_indent(w);
	vw_line(w, "input  wire clk,");
	vw_line(w, "input  wire rst,");
	vw_line(w, "input  wire [31:0] config_addr,");
	vw_line(w, "input  wire [31:0] config_data,");
	vw_line(w, "input  wire config_wr,");
	vw_line(w, "output reg  [31:0] config_rdata,");
	for (int i = 0; i < mi->nregs; i++) {
		const MemReg *r = &mi->regs[i];
		vw_line(w, "output reg  %scfg_%s%s", lv_rng(g, r->width), r->name, i + 1 < mi->nregs ? "," : "");
		if (r->width > maxw)
			maxw = r->width;
	}
	vw_dedent(w);
	vw_line(w, ");");
	vw_indent(w);
	emit_config_read(g);
	VwCfgReg *regs = arena_alloc(g->a, (size_t)(mi->nregs + 1) * sizeof *regs);
	for (int i = 0; i < mi->nregs; i++)
		regs[i] = (VwCfgReg){ arena_printf(g->a, "cfg_%s", mi->regs[i].name), mi->regs[i].width,
				      mem_reg_address(&mi->regs[i]) >> 16 };
	vw_config_writes(w, regs, mi->nregs);
	vw_line(w, "/* verilator lint_off UNUSEDSIGNAL */");
	vw_line(w, "wire unused_ok = &{1'b0, config_addr[15:0]%s};",
		maxw < 32 ? arena_printf(g->a, ", %s", lv_slice(g, "config_data", 32, maxw, 32 - maxw)) : "");
	vw_line(w, "/* verilator lint_on UNUSEDSIGNAL */");
	vw_dedent(w);
	vw_line(w, "endmodule");
	vw_line(w, "%s", "");
}

/* inc[l]: level l is the lowest below its extent (it increments on a firing). */
static void emit_domain_levels(Gen *g)
{
	const MemInfo *mi = g->mi;
	int cb = mi->counter_bits, d = mi->dims;
	char one[32];
	vw_literal(one, 1, cb);
	for (int l = 0; l < d; l++)
		vw_line(&g->w, "assign at_max[%d] = %s == %s;", l, lv_slice(g, "idx", d * cb, l * cb, cb),
			lv_slice(g, "max", d * cb, l * cb, cb));
	vw_line(&g->w, "assign inc[0] = ~at_max[0];");
	for (int l = 1; l < d; l++)
		vw_line(&g->w, "assign inc[%d] = ~at_max[%d] & (&at_max[%d:0]);", l, l, l - 1);
	vw_line(&g->w, "always @(posedge clk)");
	vw_indent(&g->w);
	vw_line(&g->w, "if (rst | flush) begin");
	vw_line(&g->w, "    idx <= %s;", lv_zero(g, d * cb));
	vw_line(&g->w, "    done <= 1'b0;");
	vw_line(&g->w, "end else if (fire) begin");
	vw_indent(&g->w);
	vw_line(&g->w, "if (&at_max)");
	vw_line(&g->w, "    done <= 1'b1;");
	for (int l = 0; l < d; l++) {
		const char *s = lv_slice(g, "idx", d * cb, l * cb, cb);
		if (l + 1 < d)
			vw_line(&g->w, "%s <= inc[%d] ? %s + %s : |inc[%d:%d] ? %s : %s;", s, l, s, one, d - 1,
				l + 1, lv_zero(g, cb), s);
		else
			vw_line(&g->w, "%s <= inc[%d] ? %s + %s : %s;", s, l, s, one, s);
	}
	vw_dedent(&g->w);
	vw_line(&g->w, "end");
	vw_dedent(&g->w);
}

static void emit_domain(Gen *g)
{
	const MemInfo *mi = g->mi;
	VWriter *w = &g->w;
	int cb = mi->counter_bits, d = mi->dims;
	int expose = mi->affine == MEM_MULTIPLY;
	vw_line(w, "// An iteration domain: %d counters of %d bits, level 0 innermost. A firing", d, cb);
	vw_line(w, "// increments the lowest level below its extent (max) and restarts the levels");
	vw_line(w, "// under it; at the last point it sets done. flush restarts it.");
	vw_line(w, "module %s_domain (", mi->name);
	vw_indent(w);
	vw_line(w, "input  wire clk,");
	vw_line(w, "input  wire rst,");
	vw_line(w, "input  wire flush,");
	vw_line(w, "input  wire fire,");
	vw_line(w, "input  wire [%d:0] max,", d * cb - 1);
	if (expose)
		vw_line(w, "output reg  [%d:0] idx,", d * cb - 1);
	if (!expose)
		vw_line(w, "output wire %sinc,", lv_rng(g, d));
	vw_line(w, "output reg  done");
	vw_dedent(w);
	vw_line(w, ");");
	vw_indent(w);
	if (!expose)
		vw_line(w, "reg  [%d:0] idx;", d * cb - 1);
	else
		vw_line(w, "wire %sinc;", lv_rng(g, d));
	vw_line(w, "wire %sat_max;", lv_rng(g, d));
	emit_domain_levels(g);
	vw_dedent(w);
	vw_line(w, "endmodule");
	vw_line(w, "%s", "");
}

/* Fig. 5(b): the value register adds the delta of the level that increments. */
static void emit_recur(Gen *g)
{
	const MemInfo *mi = g->mi;
	VWriter *w = &g->w;
	int d = mi->dims;
	vw_line(w, "// An affine generator as a recurrence (UB paper Fig. 5(b)): one register, one");
	vw_line(w, "// adder and a multiplexer of the per-level deltas; flush loads start.");
	vw_line(w, "module %s_recur #(parameter W = 16) (", mi->name);
	vw_indent(w);
	vw_line(w, "input  wire clk,");
	vw_line(w, "input  wire rst,");
	vw_line(w, "input  wire flush,");
	vw_line(w, "input  wire step,");
	vw_line(w, "input  wire %sinc,", lv_rng(g, d));
	vw_line(w, "input  wire [W-1:0] start,");
	vw_line(w, "input  wire [%d*W-1:0] delta,", d);
	vw_line(w, "output reg  [W-1:0] value");
	vw_dedent(w);
	vw_line(w, ");");
	vw_indent(w);
	vw_line(w, "wire [W-1:0] d =");
	for (int l = 0; l < d; l++)
		vw_line(w, "    ({W{inc[%d]}} & delta[%d*W +: W])%s", l, l, l + 1 < d ? " |" : ";");
	vw_line(w, "always @(posedge clk)");
	vw_indent(w);
	vw_line(w, "if (rst)");
	vw_line(w, "    value <= {W{1'b0}};");
	vw_line(w, "else if (flush)");
	vw_line(w, "    value <= start;");
	vw_line(w, "else if (step)");
	vw_line(w, "    value <= value + d;");
	vw_dedent(w);
	vw_dedent(w);
	vw_line(w, "endmodule");
	vw_line(w, "%s", "");
}

/* Fig. 5(a): start + sum of stride[l] * idx[l], modulo 2^W. */
static void emit_affine(Gen *g)
{
	const MemInfo *mi = g->mi;
	VWriter *w = &g->w;
	int d = mi->dims, cb = mi->counter_bits;
	vw_line(w, "// An affine generator with multipliers (UB paper Fig. 5(a)): start plus the");
	vw_line(w, "// stride of each level times its counter, modulo 2^W (W <= %d).", cb);
	vw_line(w, "module %s_affine #(parameter W = 16) (", mi->name);
	vw_indent(w);
	vw_line(w, "input  wire [%d:0] idx,", d * cb - 1);
	vw_line(w, "input  wire [W-1:0] start,");
	vw_line(w, "input  wire [%d*W-1:0] stride,", d);
	vw_line(w, "output wire [W-1:0] value");
	vw_dedent(w);
	vw_line(w, ");");
	vw_indent(w);
	vw_line(w, "assign value = start");
	for (int l = 0; l < d; l++)
		vw_line(w, "    + stride[%d*W +: W] * idx[%d +: W]%s", l, l * cb, l + 1 < d ? "" : ";");
	vw_line(w, "/* verilator lint_off UNUSEDSIGNAL */");
	vw_line(w, "wire unused_ok = &{1'b0, idx};");
	vw_line(w, "/* verilator lint_on UNUSEDSIGNAL */");
	vw_dedent(w);
	vw_line(w, "endmodule");
	vw_line(w, "%s", "");
}

static void emit_delay(Gen *g)
{
	VWriter *w = &g->w;
	vw_line(w, "// L >= 1 pipeline stages of W bits; they advance while en, clear clears them.");
	vw_line(w, "module %s_delay #(parameter W = 1, parameter L = 1) (", g->mi->name);
	vw_indent(w);
	vw_line(w, "input  wire clk,");
	vw_line(w, "input  wire clear,");
	vw_line(w, "input  wire en,");
	vw_line(w, "input  wire [W-1:0] d,");
	vw_line(w, "output wire [W-1:0] q");
	vw_dedent(w);
	vw_line(w, ");");
	vw_indent(w);
	vw_line(w, "reg [W*L-1:0] stages;");
	vw_line(w, "generate");
	vw_indent(w);
	vw_line(w, "if (L == 1) begin : g_one");
	vw_line(w, "    always @(posedge clk)");
	vw_line(w, "        if (clear) stages <= {W*L{1'b0}};");
	vw_line(w, "        else if (en) stages <= d;");
	vw_line(w, "end else begin : g_many");
	vw_line(w, "    always @(posedge clk)");
	vw_line(w, "        if (clear) stages <= {W*L{1'b0}};");
	vw_line(w, "        else if (en) stages <= {stages[W*(L-1)-1:0], d};");
	vw_line(w, "end");
	vw_dedent(w);
	vw_line(w, "endgenerate");
	vw_line(w, "assign q = stages[W*L-1 -: W];");
	vw_dedent(w);
	vw_line(w, "endmodule");
	vw_line(w, "%s", "");
}

void lv_modules(Gen *g, int delay)
{
	emit_config(g);
	emit_domain(g);
	if (g->mi->affine == MEM_RECURRENCE)
		emit_recur(g);
	else
		emit_affine(g);
	if (delay)
		emit_delay(g);
}

/* ---- the controllers in the tile ---- */

/* {reg(dims-1), ..., reg(0)} of a generator's or a domain's per-level registers. */
static const char *levels(Gen *g, const int *regs)
{
	const MemInfo *mi = g->mi;
	const char *s = "";
	for (int l = mi->dims - 1; l >= 0; l--)
		s = arena_printf(g->a, "%s%scfg_%s", s, l == mi->dims - 1 ? "" : ", ", mi->regs[regs[l]].name);
	return arena_printf(g->a, "{%s}", s);
}

/* One generator of controller c, named <c>_<what>, value on that wire. */
static void emit_gen_inst(Gen *g, const MemCtrl *c, const MemGen *gen, const char *what)
{
	const MemInfo *mi = g->mi;
	vw_line(&g->w, "wire %s%s_%s;", lv_rng(g, gen->width), c->name, what);
	if (mi->affine == MEM_RECURRENCE)
		vw_line(&g->w, "%s_recur #(.W(%d)) %s_%s_gen (.clk(clk), .rst(rst), .flush(flush), "
			".step(%s_fire), .inc(%s_inc),", mi->name, gen->width, c->name, what, c->name, c->name);
	else
		vw_line(&g->w, "%s_affine #(.W(%d)) %s_%s_gen (.idx(%s_idx),", mi->name, gen->width, c->name,
			what, c->name);
	vw_line(&g->w, "    .start(cfg_%s),", mi->regs[gen->start].name);
	vw_line(&g->w, "    .%s(%s),", mi->affine == MEM_RECURRENCE ? "delta" : "stride", levels(g, gen->step));
	vw_line(&g->w, "    .value(%s_%s));", c->name, what);
}

void lv_ctrl(Gen *g, int ci)
{
	const MemInfo *mi = g->mi;
	const MemCtrl *c = &mi->ctrls[ci];
	const MemEdgeInfo *e = &mi->edges[c->edge];
	int d = mi->dims, cb = mi->counter_bits;
	vw_line(&g->w, "// controller %s: %s -> %s%s", c->name, mem_end_name(mi, e->src),
		mem_end_name(mi, e->dst),
		c->side == MEM_SIDE_READ ? " (read side)" : c->side == MEM_SIDE_WRITE ? " (write side)" : "");
	vw_line(&g->w, "wire %s_fire, %s_done;", c->name, c->name);
	if (mi->affine == MEM_MULTIPLY)
		vw_line(&g->w, "wire [%d:0] %s_idx;", d * cb - 1, c->name);
	else
		vw_line(&g->w, "wire %s%s_inc;", lv_rng(g, d), c->name);
	vw_line(&g->w, "%s_domain %s_dom (.clk(clk), .rst(rst), .flush(flush), .fire(%s_fire),", mi->name,
		c->name, c->name);
	vw_line(&g->w, "    .max(%s),", levels(g, c->max));
	if (mi->affine == MEM_MULTIPLY)
		vw_line(&g->w, "    .idx(%s_idx), .done(%s_done));", c->name, c->name);
	else
		vw_line(&g->w, "    .inc(%s_inc), .done(%s_done));", c->name, c->name);
	emit_gen_inst(g, c, &c->sched, "sched");
	if (c->src)
		emit_gen_inst(g, c, &c->src->gen, "src");
	if (c->dst)
		emit_gen_inst(g, c, &c->dst->gen, "dst");
	vw_line(&g->w, "assign %s_fire = run & cfg_%s & ~%s_done & (cycle == %s_sched);", c->name,
		mi->regs[c->en].name, c->name, c->name);
	vw_line(&g->w, "%s", "");
}
