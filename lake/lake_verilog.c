/* lake_verilog.c - the Verilog of a memory tile (lake/COLLATERAL.md), made from
 * its MemInfo alone by the generation rules of AHA 3.2.2. One file holds the
 * tile module `<mem>` and its helpers, all prefixed with the memory's name:
 *
 *   <mem>_config           the configuration registers on the bus
 *   <mem>_domain           an iteration domain (dims nested counters)
 *   <mem>_recur/_affine    an affine generator: a recurrence register with one
 *                          adder and a delta multiplexer (UB paper Fig. 5(b)),
 *                          or start plus stride-times-counter products (5(a))
 *   <mem>_delay            L pipeline stages that advance while the tile runs
 *   <mem>_<unit>_storage   a storage unit's ports over its rows; for an SRAM a
 *   <mem>_<unit>_macro     behavioural macro a real one can replace
 *
 * The tile instantiates one domain and its generators per controller, fires a
 * controller when the cycle counter `cycle` meets its schedule, and turns
 * firings into requests: reads at once, writes of single-controller edges
 * through L delay stages. Each port grants the lowest-numbered edge's request
 * (chained SRAMs then compare the high address bits with chain_id) and
 * exposes the performed operation as <unit>_<port>_ren/_wen/_addr/_wdata.
 * An edge with a write-side controller (share: false) keeps the last data it
 * delivered for writes without a delivery; each tile output takes its lowest
 * delivering edge, or the chain inputs. Nothing happens in a cycle of rst or
 * flush, nor while tile_en is 0: the counter, the domains and every pipeline
 * stage stand still.
 *
 * A tile with a table look-up (MemInfo.lookup) also requests its look-up port
 * every cycle at the slot its input addresses, after every edge; the word
 * goes through `latency` stages to its output, where any delivering edge
 * comes first. A bus write of lookup_wr stores a word through the unit's
 * first write port, whose storage port then has a per-word write mask.
 *
 * This file writes the tile module; the helper modules and the controllers
 * are in lake_verilog_ctrl.c, the storage units in lake_verilog_storage.c,
 * and lake_verilog.h holds what the three share. */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "lake_verilog.h"

/* A request of an edge on a port: a read of its source or a write of its
 * destination. An edge has at most one request per port. */
typedef struct Req {
	int edge, write;
} Req;

/* ---- names and widths ---- */

static void sink_add(Gen *g, const char *name)
{
	size_t n = strlen(name);
	vec_reserve(&g->sink, g->sink.len + (int)n + 3);
	memcpy(g->sink.data + g->sink.len, ", ", 2);
	memcpy(g->sink.data + g->sink.len + 2, name, n + 1);
	g->sink.len += (int)n + 2;
}

/* Lines of a port or connection list, with commas between them. */
void lv_emit_list(Gen *g, List *l)
{
	for (int i = 0; i < l->len; i++)
		vw_line(&g->w, "%s%s", l->data[i], i + 1 < l->len ? "," : "");
	vec_free(l);
}

int lv_log2i(long v)
{
	int b = 0;
	while ((1L << b) < v)
		b++;
	return b;
}

/* "[w-1:0] " or "" (w == 1). */
const char *lv_rng(Gen *g, int w)
{
	char buf[32];
	return arena_strdup(g->a, vw_range(buf, w));
}

const char *lv_zero(Gen *g, int w)
{
	char buf[32];
	if (w <= 64)
		return arena_strdup(g->a, vw_literal(buf, 0, w));
	return arena_printf(g->a, "{%d{1'b0}}", w);
}

/* Bits [lo + w - 1 : lo] of a bus of `total` bits. */
const char *lv_slice(Gen *g, const char *bus, int total, int lo, int w)
{
	if (lo == 0 && w == total)
		return bus;
	return w == 1 ? arena_printf(g->a, "%s[%d]", bus, lo) : arena_printf(g->a, "%s[%d:%d]", bus, lo + w - 1, lo);
}

const MemPortInfo *lv_port_of(const MemInfo *mi, MemEnd e)
{
	return &mi->units[e.unit].ports[e.port];
}

/* "<unit>_<port>": the prefix of a port's signals. */
static const char *pname(Gen *g, MemEnd e)
{
	return arena_printf(g->a, "%s_%s", g->mi->units[e.unit].name, lv_port_of(g->mi, e)->name);
}

/* Bits of a port's address generators: cb on a chained unit, else addr_bits
 * (0: the generator is omitted, the address is 0). */
static int gen_bits(const MemInfo *mi, MemEnd e)
{
	return mi->units[e.unit].chained ? mi->counter_bits : lv_port_of(mi, e)->addr_bits;
}

/* The trace's address width: addr_bits, at least 1. */
static int addr_width(const MemInfo *mi, MemEnd e)
{
	int ab = lv_port_of(mi, e)->addr_bits;
	return ab > 0 ? ab : 1;
}

int lv_port_bits(const MemInfo *mi, MemEnd e)
{
	return lv_port_of(mi, e)->width * mi->word;
}

static int edge_bits(const MemInfo *mi, int e)
{
	return mi->edges[e].width * mi->word;
}

int lv_is_regfile(const MemInfo *mi, MemEnd e)
{
	return mi->units[e.unit].kind == MEM_REGFILE;
}

/* Flags travel with data only with chaining; they are stored in register files. */
int lv_has_flags(const MemInfo *mi, MemEnd e)
{
	return mi->chain && lv_is_regfile(mi, e);
}

/* With chaining, deliveries to a tile output or a register file carry a
 * flag, and an edge into a register file holds its last flag. */
static int edge_flag(const MemInfo *mi, int e)
{
	MemEnd d = mi->edges[e].dst;
	return mi->chain && (d.unit == MEM_TILE_OUT || (d.unit >= 0 && lv_is_regfile(mi, d)));
}

static int edge_hold_flag(const MemInfo *mi, int e)
{
	return mi->chain && mi->edges[e].dst.unit >= 0 && lv_is_regfile(mi, mi->edges[e].dst);
}

static int same_end(MemEnd a, MemEnd b)
{
	return a.unit == b.unit && a.port == b.port;
}

/* The port the table look-up reads, and the one its table is loaded through. */
static int is_lookup_port(const MemInfo *mi, MemEnd e)
{
	return mem_has_lookup(mi) && same_end(mi->lookup.port, e);
}

static int is_load_port(const MemInfo *mi, MemEnd e)
{
	return mem_has_lookup(mi) && e.unit == mi->lookup.port.unit && e.port == mi->lookup.load;
}

/* A storage port with a per-word write mask: the load port, if wider than a word. */
int lv_has_wmask(const MemInfo *mi, MemEnd e)
{
	return is_load_port(mi, e) && lv_port_of(mi, e)->width > 1;
}

/* The requests on a port, lowest edge first; returns how many. */
static int port_reqs(const MemInfo *mi, MemEnd p, Req *out)
{
	int n = 0;
	for (int e = 0; e < mi->nedges; e++) {
		if (same_end(mi->edges[e].src, p))
			out[n++] = (Req){ e, 0 };
		else if (same_end(mi->edges[e].dst, p))
			out[n++] = (Req){ e, 1 };
	}
	return n;
}

static const MemCtrl *ctrl0(const MemInfo *mi, int e)
{
	return &mi->ctrls[mi->edges[e].ctrl[0]];
}

/* A single-controller edge from a storage port whose write waits L stages. */
static int delays_write(const MemInfo *mi, int e)
{
	const MemEdgeInfo *ei = &mi->edges[e];
	return ei->ctrl[1] < 0 && ei->src.unit >= 0 && ei->dst.unit >= 0;
}

/* A request's enable and generator value. */
static const char *req_sig(Gen *g, Req r)
{
	if (r.write)
		return arena_printf(g->a, "e%d_wreq", r.edge);
	return arena_printf(g->a, "%s_fire", ctrl0(g->mi, r.edge)->name);
}

static const char *req_value(Gen *g, Req r)
{
	if (r.write)
		return arena_printf(g->a, "e%d_waddr", r.edge);
	return arena_printf(g->a, "%s_src", ctrl0(g->mi, r.edge)->name);
}

/* ---- the tile ---- */

static void emit_top_ports(Gen *g)
{
	const MemInfo *mi = g->mi;
	vw_line(&g->w, "module %s (", mi->name);
	vw_indent(&g->w);
	for (int i = 0; i < mi->nsignals; i++) {
		const MemSignal *s = &mi->signals[i];
		vw_line(&g->w, "%s wire %s%s%s", s->input ? "input " : "output", lv_rng(g, s->width), s->name,
			i + 1 < mi->nsignals ? "," : "");
	}
	vw_dedent(&g->w);
	vw_line(&g->w, ");");
}

static void emit_config_inst(Gen *g)
{
	const MemInfo *mi = g->mi;
	vw_line(&g->w, "// ---- configuration (%d registers, %ld bits) ----", mi->nregs, mem_config_bits(mi));
	for (int i = 0; i < mi->nregs; i++)
		vw_line(&g->w, "wire %scfg_%s;", lv_rng(g, mi->regs[i].width), mi->regs[i].name);
	vw_line(&g->w, "%s_config config_regs (", mi->name);
	vw_indent(&g->w);
	vw_line(&g->w, ".clk(clk), .rst(rst), .config_addr(config_addr), .config_data(config_data),");
	vw_line(&g->w, ".config_wr(config_wr), .config_rdata(config_rdata),");
	for (int i = 0; i < mi->nregs; i++)
		vw_line(&g->w, ".cfg_%s(cfg_%s)%s", mi->regs[i].name, mi->regs[i].name,
			i + 1 < mi->nregs ? "," : "");
	vw_dedent(&g->w);
	vw_line(&g->w, ");");
	vw_line(&g->w, "%s", "");
}

static void emit_counter(Gen *g)
{
	int cb = g->mi->counter_bits;
	char one[32];
	vw_line(&g->w, "// ---- the cycle counter: counts while the tile runs; rst and flush restart it ----");
	vw_line(&g->w, "// (in a cycle of rst or flush nothing else happens either)");
	vw_line(&g->w, "wire run = cfg_tile_en & ~rst & ~flush;");
	vw_line(&g->w, "reg %scycle;", lv_rng(g, cb));
	vw_line(&g->w, "always @(posedge clk)");
	vw_line(&g->w, "    if (rst | flush) cycle <= %s;", lv_zero(g, cb));
	vw_line(&g->w, "    else if (run) cycle <= cycle + %s;", vw_literal(one, 1, cb));
	vw_line(&g->w, "%s", "");
}

/* Wires every section refers to: the operation of each port and the grants
 * of its requests, the deliveries and data of each edge. */
static void emit_nets(Gen *g)
{
	const MemInfo *mi = g->mi;
	Req reqs[2 * LAKE_MAX_EDGES + 2];
	vw_line(&g->w, "// ---- ports (the bench observes <unit>_<port>_ren/_wen/_addr/_wdata) ----");
	for (int u = 0; u < mi->nunits; u++)
		for (int p = 0; p < mi->units[u].nports; p++) {
			MemEnd e = { u, p };
			const char *n = pname(g, e);
			const MemPortInfo *pi = lv_port_of(mi, e);
			vw_line(&g->w, "wire %s_ren, %s_wen;", n, n);
			if (mi->units[u].chained)
				vw_line(&g->w, "wire %s_hit;", n);
			vw_line(&g->w, "wire %s%s_addr;", lv_rng(g, addr_width(mi, e)), n);
			vw_line(&g->w, "wire %s%s_wdata;", lv_rng(g, lv_port_bits(mi, e)), n);
			if (pi->op & MEM_READ)
				vw_line(&g->w, "wire %s%s_rdata;", lv_rng(g, lv_port_bits(mi, e)), n);
			if ((pi->op & MEM_READ) && lv_has_flags(mi, e))
				vw_line(&g->w, "wire %s_rflag;", n);
			int nr = port_reqs(mi, e, reqs);
			for (int i = 0; i < nr; i++)
				vw_line(&g->w, "wire %s_win_e%d;", n, reqs[i].edge);
			if (is_lookup_port(mi, e))
				vw_line(&g->w, "wire %s_win_lookup;", n);
		}
	vw_line(&g->w, "// ---- edges ----");
	for (int i = 0; i < mi->nedges; i++) {
		const MemEdgeInfo *e = &mi->edges[i];
		vw_line(&g->w, "wire e%d_del;", i);
		vw_line(&g->w, "wire %se%d_del_data;", lv_rng(g, edge_bits(mi, i)), i);
		if (edge_flag(mi, i))
			vw_line(&g->w, "wire e%d_del_flag;", i);
		if (e->dst.unit < 0)
			continue;
		vw_line(&g->w, "wire e%d_wreq;", i);
		if (gen_bits(mi, e->dst))
			vw_line(&g->w, "wire %se%d_waddr;", lv_rng(g, gen_bits(mi, e->dst)), i);
		vw_line(&g->w, "wire %se%d_data;", lv_rng(g, edge_bits(mi, i)), i);
		if (edge_hold_flag(mi, i))
			vw_line(&g->w, "wire e%d_flag;", i);
	}
	vw_line(&g->w, "%s", "");
}

/* The delivery of an edge from a storage port: its granted read, L cycles on
 * (with the chain hit and, for a single controller, the write address). */
static void emit_storage_delivery(Gen *g, int i)
{
	const MemInfo *mi = g->mi;
	const MemEdgeInfo *e = &mi->edges[i];
	const char *src = pname(g, e->src);
	int chained = mi->units[e->src.unit].chained, L = e->latency;
	int waddr = delays_write(mi, i) && gen_bits(mi, e->dst);
	const char *dst = arena_printf(g->a, "%s_dst", ctrl0(mi, i)->name);
	if (chained)
		vw_line(&g->w, "wire e%d_hit;", i);
	if (L == 0) {
		vw_line(&g->w, "assign e%d_del = %s_win_e%d;", i, src, i);
		if (chained)
			vw_line(&g->w, "assign e%d_hit = %s_hit;", i, src);
		if (waddr)
			vw_line(&g->w, "assign e%d_waddr = %s;", i, dst);
	} else {
		int bits = 1 + chained + (waddr ? gen_bits(mi, e->dst) : 0);
		const char *d = arena_printf(g->a, "{%s_win_e%d%s%s}", src, i, chained ? arena_printf(g->a, ", %s_hit", src) : "",
				    waddr ? arena_printf(g->a, ", %s", dst) : "");
		const char *q = arena_printf(g->a, "{e%d_granted%s%s}", i, chained ? arena_printf(g->a, ", e%d_hit", i) : "",
				    waddr ? arena_printf(g->a, ", e%d_waddr", i) : "");
		vw_line(&g->w, "wire e%d_granted;", i);
		vw_line(&g->w, "%s_delay #(.W(%d), .L(%d)) e%d_stages (.clk(clk), .clear(rst | flush), "
			".en(run),", mi->name, bits, L, i);
		vw_line(&g->w, "    .d(%s), .q(%s));", d, q);
		vw_line(&g->w, "assign e%d_del = run & e%d_granted;", i, i);
	}
	int bits = edge_bits(mi, i);
	if (chained)
		vw_line(&g->w, "assign e%d_del_data = e%d_hit ? %s_rdata : %s;", i, i, src, lv_zero(g, bits));
	else
		vw_line(&g->w, "assign e%d_del_data = %s_rdata;", i, src);
	if (edge_flag(mi, i))
		vw_line(&g->w, "assign e%d_del_flag = %s;", i,
			chained ? arena_printf(g->a, "e%d_hit", i) : lv_is_regfile(mi, e->src) ? arena_printf(g->a, "%s_rflag", src) : "1'b1");
}

/* Deliveries and write requests of an edge. */
static void emit_edge_source(Gen *g, int i)
{
	const MemInfo *mi = g->mi;
	const MemEdgeInfo *e = &mi->edges[i];
	const MemCtrl *c = ctrl0(mi, i);
	vw_line(&g->w, "// e%d: %s -> %s, latency %d", i, mem_end_name(mi, e->src), mem_end_name(mi, e->dst),
		e->latency);
	if (e->src.unit == MEM_TILE_IN) {
		vw_line(&g->w, "assign e%d_del = %s_fire;", i, c->name);
		vw_line(&g->w, "assign e%d_del_data = %s;", i, mi->ins[e->src.port]);
		if (edge_flag(mi, i))
			vw_line(&g->w, "assign e%d_del_flag = 1'b1;", i);
		if (e->dst.unit >= 0 && gen_bits(mi, e->dst))
			vw_line(&g->w, "assign e%d_waddr = %s_dst;", i, c->name);
	} else {
		emit_storage_delivery(g, i);
	}
	if (e->dst.unit < 0)
		return;
	if (e->ctrl[1] >= 0) {
		const MemCtrl *wc = &mi->ctrls[e->ctrl[1]];
		vw_line(&g->w, "assign e%d_wreq = %s_fire;", i, wc->name);
		if (gen_bits(mi, e->dst))
			vw_line(&g->w, "assign e%d_waddr = %s_dst;", i, wc->name);
	} else {
		vw_line(&g->w, "assign e%d_wreq = e%d_del;", i, i);
	}
}

/* What an edge writes: this cycle's delivery, else the last one (hold).
 * A single controller's write always meets its delivery, so only edges with
 * a write-side controller keep the last delivery. */
static void emit_edge_data(Gen *g, int i)
{
	const MemInfo *mi = g->mi;
	int bits = edge_bits(mi, i), fl = edge_hold_flag(mi, i);
	if (mi->edges[i].ctrl[1] < 0) {
		vw_line(&g->w, "assign e%d_data = e%d_del_data;", i, i);
		if (fl)
			vw_line(&g->w, "assign e%d_flag = e%d_del_flag;", i, i);
		return;
	}
	vw_line(&g->w, "reg %se%d_hold;", lv_rng(g, bits), i);
	if (fl)
		vw_line(&g->w, "reg e%d_hold_flag;", i);
	vw_line(&g->w, "always @(posedge clk)");
	vw_indent(&g->w);
	vw_line(&g->w, "if (rst | flush) begin");
	vw_line(&g->w, "    e%d_hold <= %s;", i, lv_zero(g, bits));
	if (fl)
		vw_line(&g->w, "    e%d_hold_flag <= 1'b0;", i);
	vw_line(&g->w, "end else if (e%d_del) begin", i);
	vw_line(&g->w, "    e%d_hold <= e%d_del_data;", i, i);
	if (fl)
		vw_line(&g->w, "    e%d_hold_flag <= e%d_del_flag;", i, i);
	vw_line(&g->w, "end");
	vw_dedent(&g->w);
	vw_line(&g->w, "assign e%d_data = e%d_del ? e%d_del_data : e%d_hold;", i, i, i, i);
	if (fl)
		vw_line(&g->w, "assign e%d_flag = e%d_del ? e%d_del_flag : e%d_hold_flag;", i, i, i, i);
}

static void emit_edges(Gen *g)
{
	for (int i = 0; i < g->mi->nedges; i++) {
		emit_edge_source(g, i);
		if (g->mi->edges[i].dst.unit >= 0)
			emit_edge_data(g, i);
	}
	vw_line(&g->w, "%s", "");
}

/* An OR of terms "{w{sel}} & value" over the requests r of a kind. */
static const char *and_or(Gen *g, const char *n, const Req *r, int nr, int write, int w,
			  const char *(*value)(Gen *, Req))
{
	const char *s = NULL;
	for (int i = 0; i < nr; i++) {
		if (r[i].write != write && write >= 0)
			continue;
		const char *sel = arena_printf(g->a, "%s_win_e%d", n, r[i].edge);
		const char *term = w == 1 ? arena_printf(g->a, "(%s & %s)", sel, value(g, r[i]))
					  : arena_printf(g->a, "({%d{%s}} & %s)", w, sel, value(g, r[i]));
		s = s ? arena_printf(g->a, "%s | %s", s, term) : term;
	}
	return s ? s : lv_zero(g, w);
}

static const char *req_data(Gen *g, Req r)
{
	return arena_printf(g->a, "e%d_data", r.edge);
}

static const char *req_flag(Gen *g, Req r)
{
	return arena_printf(g->a, "e%d_flag", r.edge);
}

/* Grants: the lowest-numbered edge's request wins, and on the look-up port
 * the look-up's request after them. */
static void emit_grants(Gen *g, MemEnd e, const char *n, const Req *r, int nr)
{
	const char *any = NULL;
	for (int i = 0; i < nr; i++) {
		const char *s = req_sig(g, r[i]);
		vw_line(&g->w, "assign %s_win_e%d = %s%s;", n, r[i].edge, s,
			any ? arena_printf(g->a, " & ~(%s)", any) : "");
		any = any ? arena_printf(g->a, "%s | %s", any, s) : s;
	}
	if (is_lookup_port(g->mi, e))
		vw_line(&g->w, "assign %s_win_lookup = lookup_req%s;", n,
			any ? arena_printf(g->a, " & ~(%s)", any) : "");
}

/* The generator value of a port: the granted request's, or the look-up's
 * slot (zero-extended). */
static const char *port_value(Gen *g, MemEnd e, const char *n, const Req *r, int nr, int gb)
{
	const char *v = and_or(g, n, r, nr, -1, gb, req_value);
	int ab = lv_port_of(g->mi, e)->addr_bits;
	if (!is_lookup_port(g->mi, e) || !ab)
		return v;
	const char *slot = gb == ab ? "lookup_slot" : arena_printf(g->a, "{%d'b0, lookup_slot}", gb - ab);
	const char *term = gb == 1 ? arena_printf(g->a, "(%s_win_lookup & %s)", n, slot)
				   : arena_printf(g->a, "({%d{%s_win_lookup}} & %s)", gb, n, slot);
	return nr ? arena_printf(g->a, "%s | %s", v, term) : term;
}

/* The chain hit of a port's value: its high bits against chain_id. */
static const char *chain_match(Gen *g, MemEnd e)
{
	const MemInfo *mi = g->mi;
	int ab = lv_port_of(mi, e)->addr_bits, hb = mi->counter_bits - ab;
	int cw = mi->regs[mi->chain_id].width;
	const char *id = hb == cw ? "cfg_chain_id"
		       : hb < cw ? lv_slice(g, "cfg_chain_id", cw, 0, hb)
				 : arena_printf(g->a, "{%d'b0, cfg_chain_id}", hb - cw);
	return arena_printf(g->a, "%s == %s", lv_slice(g, arena_printf(g->a, "%s_value", pname(g, e)), mi->counter_bits, ab, hb), id);
}

/* The OR of the grants of a kind of request ("1'b0" if none). */
static const char *any_win(Gen *g, const char *n, const Req *r, int nr, int write)
{
	const char *s = NULL;
	for (int i = 0; i < nr; i++)
		if (r[i].write == write)
			s = s ? arena_printf(g->a, "%s | %s_win_e%d", s, n, r[i].edge) : arena_printf(g->a, "%s_win_e%d", n, r[i].edge);
	return s ? s : "1'b0";
}

/* The granted request as the operation the port performs (ren/wen, slot
 * address, write data), after chain gating. */
static void emit_port_op(Gen *g, MemEnd e, const Req *r, int nr)
{
	const MemInfo *mi = g->mi;
	const MemPortInfo *pi = lv_port_of(mi, e);
	const char *n = pname(g, e);
	const char *hit = mi->units[e.unit].chained ? arena_printf(g->a, " & %s_hit", n) : "";
	int gb = gen_bits(mi, e), ab = pi->addr_bits, bits = lv_port_bits(mi, e);
	const char *rd = any_win(g, n, r, nr, 0), *wr = any_win(g, n, r, nr, 1);
	rd = strcmp(rd, "1'b0") ? arena_printf(g->a, "(%s)%s", rd, hit) : rd;
	if (is_lookup_port(mi, e))   /* the look-up reads whatever chain_id is */
		rd = strcmp(rd, "1'b0") ? arena_printf(g->a, "%s | %s_win_lookup", rd, n)
					: arena_printf(g->a, "%s_win_lookup", n);
	vw_line(&g->w, "assign %s_ren = %s;", n, rd);
	vw_line(&g->w, "assign %s_wen = %s;", n, strcmp(wr, "1'b0") ? arena_printf(g->a, "(%s)%s", wr, hit) : wr);
	if (ab)
		vw_line(&g->w, "assign %s_addr = (%s_ren | %s_wen) ? %s : %s;", n, n, n,
			lv_slice(g, arena_printf(g->a, "%s_value", n), gb, 0, ab), lv_zero(g, ab));
	else
		vw_line(&g->w, "assign %s_addr = 1'b0;", n);
	if (pi->op & MEM_WRITE)
		vw_line(&g->w, "assign %s_wdata = %s_wen ? %s : %s;", n, n,
			and_or(g, n, r, nr, 1, bits, req_data), lv_zero(g, bits));
	else
		vw_line(&g->w, "assign %s_wdata = %s;", n, lv_zero(g, bits));
	if ((pi->op & MEM_WRITE) && lv_has_flags(mi, e))
		vw_line(&g->w, "wire %s_wflag = %s;", n, and_or(g, n, r, nr, 1, 1, req_flag));
}

static void emit_port(Gen *g, MemEnd e)
{
	const MemInfo *mi = g->mi;
	const char *n = pname(g, e);
	Req r[2 * LAKE_MAX_EDGES + 2];
	int nr = port_reqs(mi, e, r), gb = gen_bits(mi, e);
	vw_line(&g->w, "// %s: %d request%s, the lowest edge wins%s", mem_end_name(mi, e), nr, nr == 1 ? "" : "s",
		is_lookup_port(mi, e) ? "; then the table look-up's" : "");
	emit_grants(g, e, n, r, nr);
	if (gb)
		vw_line(&g->w, "wire %s%s_value = %s;", lv_rng(g, gb), n, port_value(g, e, n, r, nr, gb));
	if (mi->units[e.unit].chained)
		vw_line(&g->w, "assign %s_hit = %s;", n, chain_match(g, e));
	emit_port_op(g, e, r, nr);
}

static void emit_ports(Gen *g)
{
	const MemInfo *mi = g->mi;
	for (int u = 0; u < mi->nunits; u++)
		for (int p = 0; p < mi->units[u].nports; p++)
			emit_port(g, (MemEnd){ u, p });
	vw_line(&g->w, "%s", "");
}

static void emit_storage_inst(Gen *g, int u)
{
	const MemInfo *mi = g->mi;
	const MemUnitInfo *un = &mi->units[u];
	List l = { 0 };
	vec_push(&l, un->kind == MEM_REGFILE ? ".clk(clk), .rst(rst), .en(run)" : ".clk(clk), .en(run)");
	for (int p = 0; p < un->nports; p++) {
		MemEnd e = { u, p };
		const MemPortInfo *pi = &un->ports[p];
		const char *n = pi->name, *s = pname(g, e), *line = "";
		/* the load port's signals with the bus write of lookup_wr */
		const char *st = is_load_port(mi, e) ? arena_printf(g->a, "%s_st", s) : s;
		if (!lv_is_regfile(mi, e) && (pi->op & MEM_READ))
			line = arena_printf(g->a, "%s, .%s_ren(%s_ren)", line, n, st);
		if (pi->op & MEM_WRITE)
			line = arena_printf(g->a, "%s, .%s_wen(%s_wen)", line, n, st);
		if (lv_has_wmask(mi, e))
			line = arena_printf(g->a, "%s, .%s_wmask(%s_wmask)", line, n, st);
		if (pi->addr_bits)
			line = arena_printf(g->a, "%s, .%s_addr(%s_addr)", line, n, st);
		if (pi->op & MEM_WRITE)
			line = arena_printf(g->a, "%s, .%s_wdata(%s_wdata)", line, n, st);
		if ((pi->op & MEM_WRITE) && lv_has_flags(mi, e))
			line = arena_printf(g->a, "%s, .%s_wflag(%s_wflag)", line, n, st);
		if (pi->op & MEM_READ)
			line = arena_printf(g->a, "%s, .%s_rdata(%s_rdata)", line, n, s);
		if ((pi->op & MEM_READ) && lv_has_flags(mi, e))
			line = arena_printf(g->a, "%s, .%s_rflag(%s_rflag)", line, n, s);
		vec_push(&l, line + 2);
	}
	vw_line(&g->w, "%s_%s_storage %s_storage (", mi->name, un->name, un->name);
	vw_indent(&g->w);
	lv_emit_list(g, &l);
	vw_dedent(&g->w);
	vw_line(&g->w, ");");
}

static void emit_output(Gen *g, int o)
{
	const MemInfo *mi = g->mi;
	const char *name = mi->outs[o], *prev = NULL;
	int wb = mi->word;
	const char *local = NULL, *data = NULL;
	for (int i = 0; i < mi->nedges; i++) {
		const MemEdgeInfo *e = &mi->edges[i];
		if (e->dst.unit != MEM_TILE_OUT || e->dst.port != o)
			continue;
		const char *sel = arena_printf(g->a, "%s_sel_e%d", name, i);
		vw_line(&g->w, "wire %s = e%d_del%s;", sel, i, prev ? arena_printf(g->a, " & ~(%s)", prev) : "");
		prev = prev ? arena_printf(g->a, "%s | e%d_del", prev, i) : arena_printf(g->a, "e%d_del", i);
		const char *l = mi->chain ? arena_printf(g->a, "(%s & e%d_del_flag)", sel, i) : sel;
		local = local ? arena_printf(g->a, "%s | %s", local, l) : l;
		const char *d = arena_printf(g->a, "({%d{%s}} & e%d_del_data)", wb, sel, i);
		data = data ? arena_printf(g->a, "%s | %s", data, d) : d;
	}
	if (mem_has_lookup(mi) && mi->lookup.out == o) {   /* after every edge, always valid */
		const char *sel = arena_printf(g->a, "%s_sel_lookup", name);
		vw_line(&g->w, "wire %s = lookup_del%s;", sel, prev ? arena_printf(g->a, " & ~(%s)", prev) : "");
		local = local ? arena_printf(g->a, "%s | %s", local, sel) : sel;
		const char *d = arena_printf(g->a, "({%d{%s}} & lookup_data)", wb, sel);
		data = data ? arena_printf(g->a, "%s | %s", data, d) : d;
	}
	vw_line(&g->w, "wire %s_local = %s;", name, local ? local : "1'b0");
	vw_line(&g->w, "wire %s%s_data = %s;", lv_rng(g, wb), name, data ? data : lv_zero(g, wb));
	if (mi->chain) {
		vw_line(&g->w, "assign %s = %s_local ? %s_data : %s_chain_in;", name, name, name, name);
		vw_line(&g->w, "assign %s_valid = %s_local | %s_chain_valid_in;", name, name, name);
	} else {
		vw_line(&g->w, "assign %s = %s_local ? %s_data : %s;", name, name, name, lv_zero(g, wb));
		vw_line(&g->w, "assign %s_valid = %s_local;", name, name);
	}
}

/* Does some edge leave this end (and, for flags, carry them)? */
static int end_read(const MemInfo *mi, MemEnd e, int flags)
{
	for (int i = 0; i < mi->nedges; i++)
		if (same_end(mi->edges[i].src, e) && (!flags || edge_flag(mi, i)))
			return 1;
	return 0;
}

/* The per-port signals storage does not take (the bench reads them), and
 * read data and inputs that no edge takes. */
static void emit_unused(Gen *g)
{
	const MemInfo *mi = g->mi;
	for (int i = 0; i < mi->nins; i++)
		if (!end_read(mi, (MemEnd){ MEM_TILE_IN, i }, 0))
			sink_add(g, mi->ins[i]);
	for (int u = 0; u < mi->nunits; u++)
		for (int p = 0; p < mi->units[u].nports; p++) {
			MemEnd e = { u, p };
			const MemPortInfo *pi = lv_port_of(mi, e);
			const char *n = pname(g, e);
			if (lv_is_regfile(mi, e) || !(pi->op & MEM_READ))
				sink_add(g, arena_printf(g->a, "%s_ren", n));
			if (!(pi->op & MEM_WRITE))
				sink_add(g, arena_printf(g->a, "%s_wen, %s_wdata", n, n));
			if (!pi->addr_bits)
				sink_add(g, arena_printf(g->a, "%s_addr", n));
			if ((pi->op & MEM_READ) && !end_read(mi, e, 0) && !is_lookup_port(mi, e))
				sink_add(g, arena_printf(g->a, "%s_rdata", n));
			if ((pi->op & MEM_READ) && lv_has_flags(mi, e) && !end_read(mi, e, 1))
				sink_add(g, arena_printf(g->a, "%s_rflag", n));
		}
	if (mem_has_lookup(mi)) {  /* read back by the bus; the input's bits above the word address */
		MemEnd in = { MEM_TILE_IN, mi->lookup.in };
		sink_add(g, "cfg_lookup_wr");
		if (mi->word > lv_log2i(mi->lookup.words) && end_read(mi, in, 0))
			sink_add(g, mi->ins[mi->lookup.in]);
	}
	vw_line(&g->w, "// signals only the bench reads, and data no edge takes");
	vw_line(&g->w, "/* verilator lint_off UNUSEDSIGNAL */");
	vw_line(&g->w, "wire unused_ok = &{1'b0%s};", g->sink.len ? g->sink.data : "");
	vw_line(&g->w, "/* verilator lint_on UNUSEDSIGNAL */");
}

/* The look-up's read: the slot and word its input addresses, the word
 * select and the grant through `latency` stages, the word selected from the
 * port's read data. */
static void emit_lookup(Gen *g)
{
	const MemInfo *mi = g->mi;
	const MemLookup *lk = &mi->lookup;
	const MemPortInfo *pi = lv_port_of(mi, lk->port);
	const char *n = pname(g, lk->port), *in = mi->ins[lk->in];
	int lw = lv_log2i(lk->words), sb = lv_log2i(pi->width), ab = pi->addr_bits, wb = mi->word, L = lk->latency;
	vw_line(&g->w, "// ---- table look-up: word a = %s mod %d of %s, read at %s after every edge's request%s, "
		"reaches %s %d cycle%s later ----", in, lk->words, mi->units[lk->port.unit].name, mem_end_name(mi, lk->port),
		pi->width > 1 ? arena_printf(g->a, " (slot a / %d, word a mod %d of it)", pi->width, pi->width) : "",
		mi->outs[lk->out], L, L == 1 ? "" : "s");
	vw_line(&g->w, "wire lookup_req = run & cfg_lookup_en;");
	if (lw)
		vw_line(&g->w, "wire %slookup_a = %s;", lv_rng(g, lw),
			wb >= lw ? lv_slice(g, in, wb, 0, lw) : arena_printf(g->a, "{%d'b0, %s}", lw - wb, in));
	if (ab)
		vw_line(&g->w, "wire %slookup_slot = %s;", lv_rng(g, ab), lv_slice(g, "lookup_a", lw, sb, ab));
	if (sb)
		vw_line(&g->w, "wire %slookup_word = %s;", lv_rng(g, sb), lv_slice(g, "lookup_a", lw, 0, sb));
	if (L == 0) {
		vw_line(&g->w, "wire lookup_del = %s_win_lookup;", n);
		if (sb)
			vw_line(&g->w, "wire %slookup_sel = lookup_word;", lv_rng(g, sb));
	} else {
		vw_line(&g->w, "wire lookup_granted;");
		if (sb)
			vw_line(&g->w, "wire %slookup_sel;", lv_rng(g, sb));
		vw_line(&g->w, "%s_delay #(.W(%d), .L(%d)) lookup_stages (.clk(clk), .clear(rst | flush), .en(run),",
			mi->name, 1 + sb, L);
		vw_line(&g->w, "    .d({%s_win_lookup%s}), .q({lookup_granted%s}));", n, sb ? ", lookup_word" : "",
			sb ? ", lookup_sel" : "");
		vw_line(&g->w, "wire lookup_del = run & lookup_granted;");
	}
	if (sb)
		vw_line(&g->w, "wire %slookup_data = %s_rdata[lookup_sel * %d +: %d];", lv_rng(g, wb), n, wb, wb);
	else
		vw_line(&g->w, "wire %slookup_data = %s_rdata;", lv_rng(g, wb), n);
	vw_line(&g->w, "%s", "");
}

/* Loading: a bus write of lookup_wr stores its low `word` bits at word
 * (value >> word) mod words through the load port: its storage port takes
 * the write, one word of the slot in its mask, instead of the port's
 * operation (<port>_st_*). */
static void emit_lookup_load(Gen *g)
{
	const MemInfo *mi = g->mi;
	const MemLookup *lk = &mi->lookup;
	MemEnd e = { lk->port.unit, lk->load };
	const MemPortInfo *pi = lv_port_of(mi, e);
	const char *n = pname(g, e);
	int lw = lv_log2i(lk->words), sb = lv_log2i(pi->width), ab = pi->addr_bits, wb = mi->word;
	const char *data = lv_slice(g, "config_data", 32, 0, wb);
	vw_line(&g->w, "// ---- loading the look-up table: a bus write of lookup_wr stores config_data%s at "
		"word config_data%s through %s ----", arena_printf(g->a, "[%d:0]", wb - 1),
		lw ? arena_printf(g->a, "[%d:%d]", wb + lw - 1, wb) : " (word 0)", mem_end_name(mi, e));
	vw_line(&g->w, "wire lookup_load = config_wr & ~rst & (config_addr[31:16] == 16'h%04x);",
		mem_reg_address(&mi->regs[lk->wr]) >> 16);
	if (lw)
		vw_line(&g->w, "wire %slookup_load_a = %s;", lv_rng(g, lw), lv_slice(g, "config_data", 32, wb, lw));
	if (!lv_is_regfile(mi, e) && (pi->op & MEM_READ))
		vw_line(&g->w, "wire %s_st_ren = %s_ren & ~lookup_load;", n, n);
	vw_line(&g->w, "wire %s_st_wen = %s_wen | lookup_load;", n, n);
	if (sb)
		vw_line(&g->w, "wire %s%s_st_wmask = lookup_load ? %d'b1 << %s : {%d{1'b1}};", lv_rng(g, pi->width), n,
			pi->width, lv_slice(g, "lookup_load_a", lw, 0, sb), pi->width);
	if (ab)
		vw_line(&g->w, "wire %s%s_st_addr = lookup_load ? %s : %s_addr;", lv_rng(g, ab), n,
			lv_slice(g, "lookup_load_a", lw, sb, ab), n);
	vw_line(&g->w, "wire %s%s_st_wdata = lookup_load ? %s : %s_wdata;", lv_rng(g, lv_port_bits(mi, e)), n,
		pi->width > 1 ? arena_printf(g->a, "{%d{%s}}", pi->width, data) : data, n);
	if (lv_has_flags(mi, e))
		vw_line(&g->w, "wire %s_st_wflag = lookup_load | %s_wflag;", n, n);
	vw_line(&g->w, "%s", "");
}

static void emit_top(Gen *g)
{
	const MemInfo *mi = g->mi;
	vw_line(&g->w, "// The tile: %d storage units, %d edges, %d controllers.", mi->nunits, mi->nedges,
		mi->nctrls);
	emit_top_ports(g);
	vw_indent(&g->w);
	emit_config_inst(g);
	emit_counter(g);
	emit_nets(g);
	vw_line(&g->w, "// ---- controllers: iteration domain, schedule and address generators ----");
	for (int c = 0; c < mi->nctrls; c++)
		lv_ctrl(g, c);
	vw_line(&g->w, "// ---- edges: deliveries, write requests and held data ----");
	emit_edges(g);
	if (mem_has_lookup(mi))
		emit_lookup(g);
	vw_line(&g->w, "// ---- port arbitration and chain gating ----");
	emit_ports(g);
	if (mem_has_lookup(mi))
		emit_lookup_load(g);
	vw_line(&g->w, "// ---- storage ----");
	for (int u = 0; u < mi->nunits; u++)
		emit_storage_inst(g, u);
	vw_line(&g->w, "%s", "");
	vw_line(&g->w, "// ---- tile outputs: the lowest delivering edge%s ----",
		mi->chain ? " with a valid flag, else the chain inputs" : "");
	for (int o = 0; o < mi->nouts; o++)
		emit_output(g, o);
	vw_line(&g->w, "%s", "");
	emit_unused(g);
	vw_dedent(&g->w);
	vw_line(&g->w, "endmodule");
}

/* Does any edge or storage port need pipeline stages? */
static int needs_delay(const MemInfo *mi)
{
	if (mem_has_lookup(mi) && mi->lookup.latency > 0)
		return 1;
	for (int i = 0; i < mi->nedges; i++)
		if (mi->edges[i].latency > 0)
			return 1;
	for (int u = 0; u < mi->nunits; u++)
		for (int p = 0; p < mi->units[u].nports; p++)
			if (lv_read_stages(mi, (MemEnd){ u, p }))
				return 1;
	return 0;
}

static void emit_header(Gen *g)
{
	const MemInfo *mi = g->mi;
	VWriter *w = &g->w;
	vw_line(w, "// Generated by lake; do not edit. Memory tile '%s' (lake/COLLATERAL.md):", mi->name);
	vw_line(w, "// %d-bit words, %d-level controllers with %d-bit counters (%s%s)%s.", mi->word, mi->dims,
		mi->counter_bits, mi->affine == MEM_RECURRENCE ? "recurrence" : "multiply",
		mi->share ? ", shared" : "", mi->chain ? ", chaining" : "");
	vw_line(w, "//");
	vw_line(w, "// Each controller is an iteration domain (%s_domain) with a schedule generator", mi->name);
	vw_line(w, "// and address generators (%s_%s); it fires when its schedule equals `cycle`.", mi->name,
		mi->affine == MEM_RECURRENCE ? "recur" : "affine");
	vw_line(w, "// A firing reads the edge's source port at once; the edge delivers L cycles later");
	vw_line(w, "// and a single controller's write follows through L delay stages (%s_delay).",
		mi->name);
	vw_line(w, "// Each port grants the lowest-numbered edge's request; chained SRAMs act only when");
	vw_line(w, "// the high address bits equal chain_id. Storage units are <mem>_<unit>_storage.");
	if (mem_has_lookup(mi)) {
		const MemLookup *lk = &mi->lookup;
		vw_line(w, "// Table look-up: while lookup_en, %s reads word %s mod %d after every edge's", mem_end_name(mi, lk->port),
			mi->ins[lk->in], lk->words);
		vw_line(w, "// request and %s delivers it %d cycle%s later; a bus write of lookup_wr stores a word.",
			mi->outs[lk->out], lk->latency, lk->latency == 1 ? "" : "s");
	}
	vw_line(w, "`default_nettype none");
	vw_line(w, "/* verilator lint_off DECLFILENAME */");
	vw_line(w, "%s", "");
}

void lake_verilog(const MemInfo *mi, FILE *f)
{
	Gen g;
	memset(&g, 0, sizeof g);
	g.mi = mi;
	g.a = arena_new();
	vw_init(&g.w, f);
	emit_header(&g);
	lv_modules(&g, needs_delay(mi));
	for (int u = 0; u < mi->nunits; u++)
		lv_storage(&g, u);
	emit_top(&g);
	vw_line(&g.w, "/* verilator lint_on DECLFILENAME */");
	vw_line(&g.w, "`default_nettype wire");
	vec_free(&g.sink);
	arena_free(g.a);
}
