/* canal_verilog.c - cgra.v, the Verilog of the array, from the interconnect
 * graph and its configuration fields (canal/COLLATERAL.md; AHA 3.3.2).
 *
 * Every edge is a wire; a node with several incoming edges is a multiplexer
 * whose select, the node's mux field, is the position of the edge; a `reg`
 * node is a register on clk, cleared by rst. Tiles whose structure (nodes,
 * internal edges, fields relative to the tile) is identical share one module
 * named by kind, <design>_io_tile, _pe_tile, _mem_tile (then _2, _3, ... when
 * edits or a registers pattern make tiles of one kind differ). A tile module
 * is two instances: its interconnect <design>_<kind>_ic (switch and
 * connection boxes, pipeline registers, the interconnect's configuration
 * registers (feature 0x80) and, for a PE, the registers inst0.. of the
 * instruction, with the read-back) and its core (the PE or memory module; a
 * memory takes the bus itself for features below 0x80). Every node of a tile is thus a signal of the tile
 * module named by its local name, visible from outside even when a simulator
 * compiles the interconnect and core modules separately (Verilator's
 * hierarchical mode). The tile's ports: an input per switch-box input (or per
 * edge that enters a node from another tile), an output per node that
 * drives another tile in some tile of the group, and an IO tile's data.
 * The top module <design> instantiates one module per tile, wires the
 * neighbours (0 at the array's edge), qualifies config_wr by x/y and ORs the
 * read-back of the tile the address names. */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "../common/util.h"
#include "../common/vec.h"
#include "../common/vwrite.h"
#include "canal.h"

typedef VEC(char) Text;
typedef VEC(const char *) List;

typedef struct Tile {
	int x, y;
	CanalTileKind kind;
	int *nodes;             /* global ids, in id order */
	int nnodes;
	int field0, nfields;    /* its fields: fields[field0 .. field0 + nfields) */
	int group;
} Tile;

/* A configuration register a tile module holds. */
typedef struct TileReg {
	uint32_t key;           /* address >> 16: register << 8 | feature */
	int width;
	const char *name;
} TileReg;

typedef struct Group {
	int rep;                /* its first tile */
	const char *module;     /* the tile: its interconnect and its core */
	const char *ic_module;  /* the interconnect */
	const char *sig;        /* the structure its tiles share */
	char *out;              /* per local node: drives a node of another tile */
	TileReg *regs;
	int nregs;
} Group;

typedef struct Emit {
	const CanalGraph *g;
	const CanalField *fields;
	int nfields;
	VWriter w;
	Arena *a;               /* names and signatures of this run */
	Tile *tiles;
	int ntiles;
	Group *groups;
	int ngroups;
	const char **lname;     /* per node: its name inside its tile module */
	int *local;             /* per node: its index in its tile */
	int *field;             /* per node: its mux field, or -1 */
	char *used;             /* per node: the top module reads its wire */
} Emit;

static const char *const kind_key[] = { "io", "pe", "mem" };

/* ---- text ---- */

static void text_add(Text *t, const char *s)
{
	size_t n = strlen(s);
	vec_reserve(t, t->len + (int)n + 1);
	memcpy(t->data + t->len, s, n + 1);
	t->len += (int)n;
}

/* Lines of a port or connection list, with commas between them. */
static void emit_list(Emit *e, List *l)
{
	for (int i = 0; i < l->len; i++)
		vw_line(&e->w, "%s%s", l->data[i], i + 1 < l->len ? "," : "");
	vec_free(l);
}

static const char *rng(Emit *e, int w)
{
	char buf[32];
	return arena_strdup(e->a, vw_range(buf, w));
}

static const char *zero(Emit *e, int w)
{
	char buf[32];
	return arena_strdup(e->a, vw_literal(buf, 0, w));
}

/* The unused-signal sink of a module, as peak and lake write it. */
static void emit_sink(Emit *e, const Text *sink, const char *what)
{
	if (!sink->len)
		return;
	vw_line(&e->w, "// %s", what);
	vw_line(&e->w, "/* verilator lint_off UNUSEDSIGNAL */");
	vw_line(&e->w, "wire unused_ok = &{1'b0%s};", sink->data);
	vw_line(&e->w, "/* verilator lint_on UNUSEDSIGNAL */");
}

/* ---- nodes ---- */

static const CanalNode *node(const Emit *e, int id)
{
	return &e->g->nodes[id];
}

static int tile_of(const Emit *e, int id)
{
	return node(e, id)->y * e->g->spec->cols + node(e, id)->x;
}

/* Edge i into node id comes from another tile. */
static int is_ext(const Emit *e, int id, int i)
{
	return tile_of(e, node(e, id)->in[i]) != tile_of(e, id);
}

static int is_io_port(const Emit *e, int id)
{
	const CanalNode *n = node(e, id);
	return (n->kind == CN_PORT_IN || n->kind == CN_PORT_OUT) && e->tiles[tile_of(e, id)].kind == TILE_IO;
}

/* A node its tile module takes whole from an input port: a switch-box input
 * fed by a neighbour (or by nothing, at the edge of the array), or the data
 * an IO tile gets from the top. */
static int is_input(const Emit *e, int id)
{
	const CanalNode *n = node(e, id);
	if (n->kind == CN_SB_IN)
		return n->nin == 0 || (n->nin == 1 && is_ext(e, id, 0));
	return n->kind == CN_PORT_OUT && is_io_port(e, id);
}

/* A node driven by a port or by the core: its incoming edges are not read. */
static int is_driven(const Emit *e, int id)
{
	return is_input(e, id) || node(e, id)->kind == CN_PORT_OUT;
}

/* Inside a tile: sb16_N_in_t0, rmux16_E_t1, core_data0 (io2f_16 in IO tiles). */
static const char *local_name(Emit *e, int id)
{
	static const char *const prefix[] = { "sb", "sb", "reg", "rmux" };
	static const char *const dir[] = { "_in", "_out", "", "" };
	const CanalNode *n = node(e, id);
	if (n->kind <= CN_RMUX)
		return arena_printf(e->a, "%s%d_%c%s_t%d", prefix[n->kind], n->width, "NESW"[n->side], dir[n->kind], n->track);
	const char *port = n->name + strlen(arena_printf(e->a, "x%d_y%d_", n->x, n->y));
	return is_io_port(e, id) ? port : arena_printf(e->a, "core_%s", port);
}

/* ---- tiles and their groups ---- */

static void collect_tiles(Emit *e)
{
	const CanalSpec *s = e->g->spec;
	e->ntiles = s->cols * (s->rows + 1);
	e->tiles = xcalloc((size_t)e->ntiles, sizeof(Tile));
	for (int t = 0; t < e->ntiles; t++)
		e->tiles[t] = (Tile){ t % s->cols, t / s->cols, canal_tile_kind(s, t % s->cols, t / s->cols),
				      NULL, 0, 0, 0, -1 };
	for (int id = 0; id < e->g->nnodes; id++)
		e->tiles[tile_of(e, id)].nnodes++;
	for (int t = 0; t < e->ntiles; t++) {
		e->tiles[t].nodes = xcalloc((size_t)e->tiles[t].nnodes + 1, sizeof(int));
		e->tiles[t].nnodes = 0;
	}
	for (int id = 0; id < e->g->nnodes; id++) {
		Tile *t = &e->tiles[tile_of(e, id)];
		e->local[id] = t->nnodes;
		t->nodes[t->nnodes++] = id;
		e->lname[id] = local_name(e, id);
	}
}

/* canal_fields lists the fields tile by tile, row-major. */
static void collect_fields(Emit *e)
{
	int cols = e->g->spec->cols, prev = -1;
	for (int id = 0; id < e->g->nnodes; id++)
		e->field[id] = -1;
	for (int i = 0; i < e->nfields; i++) {
		const CanalField *f = &e->fields[i];
		int t = f->y * cols + f->x;
		ALWAYS(t >= prev);
		if (t != prev)
			e->tiles[t].field0 = i;
		e->tiles[t].nfields++;
		prev = t;
		if (f->kind == FIELD_MUX)
			e->field[f->node] = i;
	}
}

/* Everything of a tile that its module depends on, as text. */
static const char *signature(Emit *e, const Tile *t)
{
	Text s = { 0 };
	text_add(&s, arena_printf(e->a, "%s\n", kind_key[t->kind]));
	for (int k = 0; k < t->nnodes; k++) {
		int id = t->nodes[k];
		const CanalNode *n = node(e, id);
		text_add(&s, arena_printf(e->a, "%d %d %s", n->kind, n->width, e->lname[id]));
		for (int i = 0; !is_input(e, id) && i < n->nin; i++)
			text_add(&s, is_ext(e, id, i) ? " ext" : arena_printf(e->a, " %d", e->local[n->in[i]]));
		if (e->field[id] >= 0) {
			const CanalField *f = &e->fields[e->field[id]];
			text_add(&s, arena_printf(e->a, " @%x:%d:%d", f->address >> 16, f->lo, f->hi));
		}
		text_add(&s, is_input(e, id) ? " input\n" : "\n");
	}
	for (int i = t->field0; i < t->field0 + t->nfields; i++)
		if (e->fields[i].kind == FIELD_CORE)
			text_add(&s, arena_printf(e->a, "core %x:%d:%d %d\n", e->fields[i].address >> 16, e->fields[i].lo,
					 e->fields[i].hi, e->fields[i].reg));
	const char *sig = arena_strdup(e->a, s.len ? s.data : "");
	vec_free(&s);
	return sig;
}

/* <design>_pe_tile and <design>_pe_ic, then <design>_pe_tile_2 and _pe_ic_2, ... */
static void name_groups(Emit *e)
{
	int count[3] = { 0, 0, 0 };
	for (int gi = 0; gi < e->ngroups; gi++) {
		CanalTileKind k = e->tiles[e->groups[gi].rep].kind;
		const char *suffix = ++count[k] == 1 ? "" : arena_printf(e->a, "_%d", count[k]);
		e->groups[gi].module = arena_printf(e->a, "%s_%s_tile%s", e->g->spec->name, kind_key[k], suffix);
		e->groups[gi].ic_module = arena_printf(e->a, "%s_%s_ic%s", e->g->spec->name, kind_key[k], suffix);
	}
}

/* The outputs of a group: every node that drives another tile in one of its
 * tiles, and an IO tile's data to the top. */
static void mark_outputs(Emit *e)
{
	for (int t = 0; t < e->ntiles; t++) {
		const Tile *tile = &e->tiles[t];
		Group *gr = &e->groups[tile->group];
		if (!gr->out) {
			gr->out = arena_alloc(e->a, (size_t)tile->nnodes + 1);
			memset(gr->out, 0, (size_t)tile->nnodes + 1);
		}
		for (int k = 0; k < tile->nnodes; k++) {
			int id = tile->nodes[k];
			const CanalNode *n = node(e, id);
			if (is_input(e, id))
				continue;
			if (n->kind == CN_PORT_IN && is_io_port(e, id))
				gr->out[k] = 1;
			for (int o = 0; o < n->nout; o++)
				if (tile_of(e, n->out[o]) != t)
					gr->out[k] = 1;
		}
	}
}

/* The registers a tile module holds: its interconnect's, and its core's
 * unless the core takes the bus. */
static void collect_regs(Emit *e, Group *gr)
{
	const Tile *t = &e->tiles[gr->rep];
	const CoreInfo *c = canal_tile_core(e->g, t->x, t->y);
	gr->regs = arena_alloc(e->a, (size_t)(t->nfields + 1) * sizeof(TileReg));
	for (int i = t->field0; i < t->field0 + t->nfields; i++) {
		const CanalField *f = &e->fields[i];
		if (f->kind == FIELD_CORE && c->config_bus)
			continue;
		uint32_t key = f->address >> 16;
		int r = 0;
		while (r < gr->nregs && gr->regs[r].key != key)
			r++;
		if (r == gr->nregs)
			gr->regs[gr->nregs++] = (TileReg){ key, 0, f->kind == FIELD_MUX
								     ? arena_printf(e->a, "cfg_ic%u", key >> 8)
								     : arena_printf(e->a, "cfg_%s", c->regs[f->reg].name) };
		if (f->hi + 1 > gr->regs[r].width)
			gr->regs[r].width = f->hi + 1;
	}
}

static void group_tiles(Emit *e)
{
	e->groups = xcalloc((size_t)e->ntiles, sizeof(Group));
	for (int t = 0; t < e->ntiles; t++) {
		const char *sig = signature(e, &e->tiles[t]);
		int gi = 0;
		while (gi < e->ngroups && strcmp(e->groups[gi].sig, sig) != 0)
			gi++;
		if (gi == e->ngroups)
			e->groups[e->ngroups++] = (Group){ .rep = t, .sig = sig };
		e->tiles[t].group = gi;
	}
	name_groups(e);
	mark_outputs(e);
	for (int gi = 0; gi < e->ngroups; gi++)
		collect_regs(e, &e->groups[gi]);
}

/* ---- a tile: its interconnect module and the tile module ---- */

static const Tile *rep(const Emit *e, const Group *gr)
{
	return &e->tiles[gr->rep];
}

static const CoreInfo *group_core(const Emit *e, const Group *gr)
{
	return canal_tile_core(e->g, rep(e, gr)->x, rep(e, gr)->y);
}

/* A core's output: the interconnect module takes it from the core. */
static int is_core_out(const Emit *e, int id)
{
	return node(e, id)->kind == CN_PORT_OUT && !is_io_port(e, id);
}

static void push_fixed(List *l, const char *const *fixed, size_t n)
{
	for (size_t i = 0; i < n; i++)
		vec_push(l, fixed[i]);
}

static void emit_module_header(Emit *e, const char *module, List *l)
{
	vw_line(&e->w, "module %s (", module);
	vw_indent(&e->w);
	emit_list(e, l);
	vw_dedent(&e->w);
	vw_line(&e->w, ");");
}

/* The interconnect module's ports: the bus, the nodes it takes (switch-box
 * inputs, edges from other tiles, the core's outputs), every node it computes
 * (so that a bench can observe each one, canal/COLLATERAL.md), and the
 * PE's instruction or the memory's read-back. */
static void emit_ic_ports(Emit *e, const Group *gr)
{
	const Tile *t = rep(e, gr);
	const CoreInfo *c = group_core(e, gr);
	List l = { 0 };
	static const char *const fixed[] = { "input  wire clk", "input  wire rst", "input  wire [31:0] config_addr",
					     "input  wire [31:0] config_data", "input  wire config_wr",
					     "output reg  [31:0] config_rdata" };
	push_fixed(&l, fixed, sizeof fixed / sizeof *fixed);
	if (c->config_bus)
		vec_push(&l, "input  wire [31:0] mem_rdata");
	for (int k = 0; k < t->nnodes; k++) {
		int id = t->nodes[k];
		const CanalNode *n = node(e, id);
		if (is_input(e, id) || is_core_out(e, id))
			vec_push(&l, arena_printf(e->a, "input  wire %s%s", rng(e, n->width), e->lname[id]));
		for (int i = 0; !is_driven(e, id) && i < n->nin; i++)
			if (is_ext(e, id, i))
				vec_push(&l, arena_printf(e->a, "input  wire %s%s_e%d", rng(e, n->width), e->lname[id], i));
	}
	for (int k = 0; k < t->nnodes; k++) {
		int id = t->nodes[k];
		if (!is_driven(e, id))
			vec_push(&l, arena_printf(e->a, "output %s %s%s", node(e, id)->kind == CN_REG ? "reg " : "wire",
					 rng(e, node(e, id)->width), e->lname[id]));
	}
	if (c->inst)
		vec_push(&l, arena_printf(e->a, "output wire %spe_inst", rng(e, c->inst_width)));
	emit_module_header(e, gr->ic_module, &l);
}

static void emit_reg_writes(Emit *e, const Group *gr)
{
	VwCfgReg *regs = arena_alloc(e->a, (size_t)(gr->nregs + 1) * sizeof *regs);
	for (int r = 0; r < gr->nregs; r++)
		regs[r] = (VwCfgReg){ gr->regs[r].name, gr->regs[r].width, gr->regs[r].key };
	vw_config_writes(&e->w, regs, gr->nregs);
}

/* config_rdata: the register at config_addr[31:16]; a memory core answers
 * for features below 0x80. */
static void emit_reg_reads(Emit *e, const Group *gr)
{
	VWriter *w = &e->w;
	int mem = group_core(e, gr)->config_bus;
	vw_line(w, "always @(*)");
	vw_indent(w);
	vw_line(w, "case (config_addr[31:16])");
	vw_indent(w);
	for (int r = 0; r < gr->nregs; r++) {
		int wd = gr->regs[r].width;
		vw_line(w, "16'h%04x: config_rdata = %s;", gr->regs[r].key,
			wd == 32 ? gr->regs[r].name : arena_printf(e->a, "{%d'h0, %s}", 32 - wd, gr->regs[r].name));
	}
	vw_line(w, "default: config_rdata = %s;", mem ? "config_addr[23] ? 32'h0 : mem_rdata" : "32'h0");
	vw_dedent(w);
	vw_line(w, "endcase");
	vw_dedent(w);
}

static void emit_ic_config(Emit *e, const Group *gr)
{
	vw_line(&e->w, "// configuration registers (config.map), written when config_wr and config_addr[31:16]");
	vw_line(&e->w, "// names them, read back on config_rdata; rst clears them");
	for (int r = 0; r < gr->nregs; r++)
		vw_line(&e->w, "reg %s%s;", rng(e, gr->regs[r].width), gr->regs[r].name);
	if (gr->nregs)
		emit_reg_writes(e, gr);
	emit_reg_reads(e, gr);
}

/* How a tile module names input i of node id. */
static const char *in_ref(Emit *e, int id, int i)
{
	if (is_ext(e, id, i))
		return arena_printf(e->a, "%s_e%d", e->lname[id], i);
	return e->lname[node(e, id)->in[i]];
}

/* The select of node id: its bits of a configuration register. */
static const char *select_of(Emit *e, const Group *gr, int id)
{
	const CanalField *f = &e->fields[e->field[id]];
	int r = 0;
	while (r < gr->nregs && gr->regs[r].key != f->address >> 16)
		r++;
	ALWAYS(r < gr->nregs);
	if (f->lo == f->hi)
		return arena_printf(e->a, "%s[%d]", gr->regs[r].name, f->lo);
	return arena_printf(e->a, "%s[%d:%d]", gr->regs[r].name, f->hi, f->lo);
}

/* assign lhs = the input of node id its select picks (0 out of range). */
static void emit_mux(Emit *e, const Group *gr, int id, const char *lhs)
{
	const CanalNode *n = node(e, id);
	if (n->nin <= 1) {
		vw_line(&e->w, "assign %s = %s;", lhs, n->nin ? in_ref(e, id, 0) : zero(e, n->width));
		return;
	}
	ALWAYS(e->field[id] >= 0);
	const char *sel = select_of(e, gr, id);
	if (n->nin == 2) {
		vw_line(&e->w, "assign %s = %s ? %s : %s;", lhs, sel, in_ref(e, id, 1), in_ref(e, id, 0));
		return;
	}
	int b = canal_sel_bits(n->nin);
	vw_line(&e->w, "assign %s =", lhs);
	vw_indent(&e->w);
	for (int i = 0; i < n->nin; i++)
		vw_line(&e->w, "%s == %d'd%d ? %s :", sel, b, i, in_ref(e, id, i));
	vw_line(&e->w, "%s;", zero(e, n->width));
	vw_dedent(&e->w);
}

/* A register's input: its one edge, or a multiplexer before it. */
static const char *reg_input(Emit *e, const Group *gr, int id)
{
	const CanalNode *n = node(e, id);
	if (n->nin == 1)
		return in_ref(e, id, 0);
	const char *d = arena_printf(e->a, "%s_d", e->lname[id]);
	vw_line(&e->w, "wire %s%s;", rng(e, n->width), d);
	emit_mux(e, gr, id, d);
	return d;
}

static void emit_ic_muxes(Emit *e, const Group *gr)
{
	const Tile *t = rep(e, gr);
	vw_line(&e->w, "// switch and connection boxes: select = the position of the incoming edge");
	for (int k = 0; k < t->nnodes; k++) {
		int id = t->nodes[k];
		if (!is_driven(e, id) && node(e, id)->kind != CN_REG)
			emit_mux(e, gr, id, e->lname[id]);
	}
}

static void emit_ic_registers(Emit *e, const Group *gr)
{
	const Tile *t = rep(e, gr);
	VWriter *w = &e->w;
	VEC(int) regs = { 0 };
	List ins = { 0 };
	for (int k = 0; k < t->nnodes; k++)
		if (node(e, t->nodes[k])->kind == CN_REG) {
			vec_push(&regs, t->nodes[k]);
			vec_push(&ins, reg_input(e, gr, t->nodes[k]));
		}
	if (regs.len) {
		vw_line(w, "// pipeline registers");
		vw_line(w, "always @(posedge clk)");
		vw_indent(w);
		vw_line(w, "if (rst) begin");
		vw_indent(w);
		vec_foreach(&regs, i)
			vw_line(w, "%s <= %s;", e->lname[regs.data[i]], zero(e, node(e, regs.data[i])->width));
		vw_dedent(w);
		vw_line(w, "end else begin");
		vw_indent(w);
		vec_foreach(&regs, i)
			vw_line(w, "%s <= %s;", e->lname[regs.data[i]], ins.data[i]);
		vw_dedent(w);
		vw_line(w, "end");
		vw_dedent(w);
	}
	vec_free(&regs);
	vec_free(&ins);
}

/* The instruction bus of a PE: registers inst0.. concatenated LSB first. */
static void emit_pe_inst(Emit *e, const Group *gr)
{
	const CoreInfo *c = group_core(e, gr);
	Text cat = { 0 };
	for (int i = c->nregs - 1; i >= 0; i--)
		text_add(&cat, arena_printf(e->a, "%scfg_%s", i == c->nregs - 1 ? "" : ", ", c->regs[i].name));
	vw_line(&e->w, "// the PE's instruction");
	vw_line(&e->w, "assign pe_inst = {%s};", cat.len ? cat.data : "");
	vec_free(&cat);
}

/* Inputs nothing in the interconnect module reads: a switch-box input no
 * multiplexer of the tile uses, the clock of a tile without registers, bus
 * bits no register takes. */
static void emit_ic_unused(Emit *e, const Group *gr)
{
	const Tile *t = rep(e, gr);
	const CoreInfo *c = group_core(e, gr);
	char *read = arena_alloc(e->a, (size_t)t->nnodes + 1);
	int maxw = 0, clocked = gr->nregs > 0;
	memset(read, 0, (size_t)t->nnodes + 1);
	for (int k = 0; k < t->nnodes; k++) {
		int id = t->nodes[k];
		const CanalNode *n = node(e, id);
		read[k] |= !is_driven(e, id);
		clocked |= n->kind == CN_REG;
		for (int i = 0; !is_driven(e, id) && i < n->nin; i++)
			if (!is_ext(e, id, i))
				read[e->local[n->in[i]]] = 1;
	}
	Text sink = { 0 };
	for (int k = 0; k < t->nnodes; k++)
		if (!read[k])
			text_add(&sink, arena_printf(e->a, ", %s", e->lname[t->nodes[k]]));
	for (int r = 0; r < gr->nregs; r++)
		maxw = gr->regs[r].width > maxw ? gr->regs[r].width : maxw;
	if (!clocked)
		text_add(&sink, ", clk, rst");
	if (gr->nregs || c->config_bus)
		text_add(&sink, gr->nregs ? ", config_addr[15:0]" : ", config_addr[15:0], config_wr");
	else
		text_add(&sink, ", config_addr, config_wr");
	if (maxw < 32)
		text_add(&sink, maxw ? arena_printf(e->a, ", config_data[31:%d]", maxw) : ", config_data");
	emit_sink(e, &sink, "inputs nothing in the interconnect reads");
	vec_free(&sink);
}

static int group_size(const Emit *e, const Group *gr)
{
	int n = 0;
	for (int t = 0; t < e->ntiles; t++)
		n += &e->groups[e->tiles[t].group] == gr;
	return n;
}

static void emit_ic_module(Emit *e, const Group *gr)
{
	vw_line(&e->w, "// interconnect of the %s tile (%d of the array, first at x %d, y %d): switch and", kind_key[rep(e, gr)->kind],
		group_size(e, gr), rep(e, gr)->x, rep(e, gr)->y);
	vw_line(&e->w, "// connection boxes, pipeline registers, configuration registers; every node an output");
	emit_ic_ports(e, gr);
	vw_indent(&e->w);
	emit_ic_config(e, gr);
	emit_ic_muxes(e, gr);
	emit_ic_registers(e, gr);
	if (group_core(e, gr)->inst)
		emit_pe_inst(e, gr);
	emit_ic_unused(e, gr);
	vw_dedent(&e->w);
	vw_line(&e->w, "endmodule");
	vw_line(&e->w, "%s", "");
}

static void emit_tile_ports(Emit *e, const Group *gr)
{
	const Tile *t = rep(e, gr);
	List l = { 0 };
	static const char *const fixed[] = { "input  wire clk", "input  wire rst", "input  wire flush",
					     "input  wire [31:0] config_addr", "input  wire [31:0] config_data",
					     "input  wire config_wr", "output wire [31:0] config_rdata" };
	push_fixed(&l, fixed, sizeof fixed / sizeof *fixed);
	for (int k = 0; k < t->nnodes; k++) {
		int id = t->nodes[k];
		const CanalNode *n = node(e, id);
		if (is_input(e, id))
			vec_push(&l, arena_printf(e->a, "input  wire %s%s", rng(e, n->width), e->lname[id]));
		for (int i = 0; !is_driven(e, id) && i < n->nin; i++)
			if (is_ext(e, id, i))
				vec_push(&l, arena_printf(e->a, "input  wire %s%s_e%d", rng(e, n->width), e->lname[id], i));
	}
	for (int k = 0; k < t->nnodes; k++)
		if (gr->out[k])
			vec_push(&l, arena_printf(e->a, "output wire %s%s", rng(e, node(e, t->nodes[k])->width),
					 e->lname[t->nodes[k]]));
	emit_module_header(e, gr->module, &l);
}

/* The tile's wires: every node that is not a port of the tile. */
static void emit_tile_decls(Emit *e, const Group *gr)
{
	const Tile *t = rep(e, gr);
	const CoreInfo *c = group_core(e, gr);
	for (int k = 0; k < t->nnodes; k++) {
		int id = t->nodes[k];
		if (!is_input(e, id) && !gr->out[k])
			vw_line(&e->w, "wire %s%s;", rng(e, node(e, id)->width), e->lname[id]);
	}
	if (c->inst)
		vw_line(&e->w, "wire %spe_inst;", rng(e, c->inst_width));
	if (c->config_bus)
		vw_line(&e->w, "wire [31:0] mem_rdata;");
}

static void emit_tile_ic(Emit *e, const Group *gr)
{
	const Tile *t = rep(e, gr);
	const CoreInfo *c = group_core(e, gr);
	List l = { 0 };
	vec_push(&l, ".clk(clk), .rst(rst), .config_addr(config_addr), .config_data(config_data)");
	vec_push(&l, ".config_wr(config_wr), .config_rdata(config_rdata)");
	if (c->config_bus)
		vec_push(&l, ".mem_rdata(mem_rdata)");
	for (int k = 0; k < t->nnodes; k++) {
		int id = t->nodes[k];
		const CanalNode *n = node(e, id);
		if (is_input(e, id) || is_core_out(e, id))
			vec_push(&l, arena_printf(e->a, ".%s(%s)", e->lname[id], e->lname[id]));
		for (int i = 0; !is_driven(e, id) && i < n->nin; i++)
			if (is_ext(e, id, i))
				vec_push(&l, arena_printf(e->a, ".%s_e%d(%s_e%d)", e->lname[id], i, e->lname[id], i));
	}
	for (int k = 0; k < t->nnodes; k++)
		if (!is_driven(e, t->nodes[k]))
			vec_push(&l, arena_printf(e->a, ".%s(%s)", e->lname[t->nodes[k]], e->lname[t->nodes[k]]));
	if (c->inst)
		vec_push(&l, ".pe_inst(pe_inst)");
	vw_line(&e->w, "%s ic (", gr->ic_module);
	vw_indent(&e->w);
	emit_list(e, &l);
	vw_dedent(&e->w);
	vw_line(&e->w, ");");
}

/* The core's connections: clock, reset, its configuration (the instruction
 * of a PE, the bus of a memory), its ports. */
static void core_connections(Emit *e, const Group *gr, List *l)
{
	const CoreInfo *c = group_core(e, gr);
	const Tile *t = rep(e, gr);
	vec_push(l, arena_printf(e->a, ".%s(clk)", c->clock));
	vec_push(l, arena_printf(e->a, ".%s(rst)", c->reset));
	if (c->inst)
		vec_push(l, arena_printf(e->a, ".%s(pe_inst)", c->inst));
	if (c->config_bus) {
		vec_push(l, ".flush(flush)");
		vec_push(l, ".config_addr(config_addr)");
		vec_push(l, ".config_data(config_data)");
		vec_push(l, ".config_wr(config_wr && !config_addr[23])");
		vec_push(l, ".config_rdata(mem_rdata)");
	}
	for (int k = 0; k < t->nnodes; k++) {
		int id = t->nodes[k];
		if (node(e, id)->kind == CN_PORT_IN || node(e, id)->kind == CN_PORT_OUT)
			vec_push(l, arena_printf(e->a, ".%s(%s)", node(e, id)->name + strlen(arena_printf(e->a, "x%d_y%d_", t->x, t->y)),
					e->lname[id]));
	}
}

static void emit_tile_core(Emit *e, const Group *gr)
{
	const CoreInfo *c = group_core(e, gr);
	if (c->kind == CORE_IO)
		return;
	vw_line(&e->w, "// the core (%s)", c->verilog);
	List l = { 0 };
	core_connections(e, gr, &l);
	vw_line(&e->w, "%s core (", c->name);
	vw_indent(&e->w);
	emit_list(e, &l);
	vw_dedent(&e->w);
	vw_line(&e->w, ");");
}

/* Nodes the interconnect computes that neither leave the tile nor feed the
 * core: they are there for benches to observe. */
static void emit_tile_unused(Emit *e, const Group *gr)
{
	const Tile *t = rep(e, gr);
	const CoreInfo *c = group_core(e, gr);
	Text sink = { 0 };
	for (int k = 0; k < t->nnodes; k++) {
		int id = t->nodes[k];
		int read = is_driven(e, id) || gr->out[k] || (node(e, id)->kind == CN_PORT_IN && c->kind != CORE_IO);
		if (!read)
			text_add(&sink, arena_printf(e->a, ", %s", e->lname[id]));
	}
	if (!c->config_bus)
		text_add(&sink, ", flush");
	emit_sink(e, &sink, "nodes only a bench observes, inputs nothing in the tile reads");
	vec_free(&sink);
}

static void emit_tile_module(Emit *e, const Group *gr)
{
	vw_line(&e->w, "// %s tile (%d of the array, first at x %d, y %d): its interconnect and its core", kind_key[rep(e, gr)->kind],
		group_size(e, gr), rep(e, gr)->x, rep(e, gr)->y);
	emit_tile_ports(e, gr);
	vw_indent(&e->w);
	emit_tile_decls(e, gr);
	emit_tile_ic(e, gr);
	emit_tile_core(e, gr);
	emit_tile_unused(e, gr);
	vw_dedent(&e->w);
	vw_line(&e->w, "endmodule");
	vw_line(&e->w, "%s", "");
}

/* ---- the top module ---- */

/* io_in_x<X>_<w> drives an IO tile's io2f node, io_out_x<X>_<w> is its f2io. */
static const char *io_top_name(Emit *e, int id)
{
	const CanalNode *n = node(e, id);
	return arena_printf(e->a, "io_%s_x%d_%d", n->kind == CN_PORT_OUT ? "in" : "out", n->x, n->width);
}

/* What the top module connects for the value of node id: the wire of the
 * tile output, or what feeds a tile's input node (0 at the array's edge). */
static const char *top_value(Emit *e, int id, int depth)
{
	const CanalNode *n = node(e, id);
	if (is_io_port(e, id))
		return io_top_name(e, id);
	if (!is_input(e, id)) {
		e->used[id] = 1;
		return n->name;
	}
	if (n->nin == 0)
		return zero(e, n->width);
	if (depth > e->g->nnodes)
		ICE("switch-box inputs feed each other in a loop through %s", n->name);
	return top_value(e, n->in[0], depth + 1);
}

static void emit_top_ports(Emit *e)
{
	const CanalSpec *s = e->g->spec;
	List l = { 0 };
	static const char *const fixed[] = { "input  wire clk", "input  wire rst", "input  wire flush",
					     "input  wire [31:0] config_addr", "input  wire [31:0] config_data",
					     "input  wire config_wr", "output wire [31:0] config_rdata" };
	for (size_t i = 0; i < sizeof fixed / sizeof *fixed; i++)
		vec_push(&l, fixed[i]);
	for (int x = 0; x < s->cols; x++)
		for (int wi = 0; wi < s->nwidths; wi++) {
			int w = s->width[wi];
			int in = canal_find(e->g, arena_printf(e->a, "x%d_y0_io2f_%d", x, w));
			int out = canal_find(e->g, arena_printf(e->a, "x%d_y0_f2io_%d", x, w));
			if (in >= 0)
				vec_push(&l, arena_printf(e->a, "input  wire %s%s", rng(e, w), io_top_name(e, in)));
			if (out >= 0)
				vec_push(&l, arena_printf(e->a, "output wire %s%s", rng(e, w), io_top_name(e, out)));
		}
	vw_line(&e->w, "module %s (", s->name);
	vw_indent(&e->w);
	emit_list(e, &l);
	vw_dedent(&e->w);
	vw_line(&e->w, ");");
}

static void emit_top_wires(Emit *e, const Tile *t)
{
	const Group *gr = &e->groups[t->group];
	vw_line(&e->w, "wire sel_x%d_y%d = config_addr[15:0] == 16'h%02x%02x;", t->x, t->y, t->x, t->y);
	vw_line(&e->w, "wire [31:0] rdata_x%d_y%d;", t->x, t->y);
	for (int k = 0; k < t->nnodes; k++)
		if (gr->out[k] && !is_io_port(e, t->nodes[k]))
			vw_line(&e->w, "wire %s%s;", rng(e, node(e, t->nodes[k])->width), node(e, t->nodes[k])->name);
}

/* The connections of a tile's instance: the bus, its inputs, its outputs. */
static void tile_connections(Emit *e, const Tile *t, List *l)
{
	const Group *gr = &e->groups[t->group];
	vec_push(l, ".clk(clk), .rst(rst), .flush(flush)");
	vec_push(l, ".config_addr(config_addr), .config_data(config_data)");
	vec_push(l, arena_printf(e->a, ".config_wr(config_wr && sel_x%d_y%d), .config_rdata(rdata_x%d_y%d)", t->x, t->y,
			t->x, t->y));
	for (int k = 0; k < t->nnodes; k++) {
		int id = t->nodes[k];
		const CanalNode *n = node(e, id);
		if (is_io_port(e, id) && is_input(e, id))
			vec_push(l, arena_printf(e->a, ".%s(%s)", e->lname[id], io_top_name(e, id)));
		else if (is_input(e, id))
			vec_push(l, arena_printf(e->a, ".%s(%s)", e->lname[id], n->nin ? top_value(e, n->in[0], 0) : zero(e, n->width)));
		for (int i = 0; !is_driven(e, id) && i < n->nin; i++)
			if (is_ext(e, id, i))
				vec_push(l, arena_printf(e->a, ".%s_e%d(%s)", e->lname[id], i, top_value(e, n->in[i], 0)));
	}
	for (int k = 0; k < t->nnodes; k++)
		if (gr->out[k])
			vec_push(l, arena_printf(e->a, ".%s(%s)", e->lname[t->nodes[k]],
					is_io_port(e, t->nodes[k]) ? io_top_name(e, t->nodes[k]) : node(e, t->nodes[k])->name));
}

static void emit_top_tile(Emit *e, const Tile *t)
{
	List l = { 0 };
	vw_line(&e->w, "// tile x %d, y %d", t->x, t->y);
	emit_top_wires(e, t);
	tile_connections(e, t, &l);
	vw_line(&e->w, "%s tile_x%d_y%d (", e->groups[t->group].module, t->x, t->y);
	vw_indent(&e->w);
	emit_list(e, &l);
	vw_dedent(&e->w);
	vw_line(&e->w, ");");
}

/* config_rdata: the read-back of the tile the address's x/y name. */
static void emit_top_readback(Emit *e)
{
	vw_line(&e->w, "// read-back: the tile at config_addr[15:8], config_addr[7:0] answers");
	vw_line(&e->w, "assign config_rdata =");
	vw_indent(&e->w);
	for (int t = 0; t < e->ntiles; t++)
		vw_line(&e->w, "({32{sel_x%d_y%d}} & rdata_x%d_y%d)%s", e->tiles[t].x, e->tiles[t].y, e->tiles[t].x,
			e->tiles[t].y, t + 1 < e->ntiles ? " |" : ";");
	vw_dedent(&e->w);
}

/* Tile outputs no other tile reads: tracks that leave the array. */
static void emit_top_unused(Emit *e)
{
	Text sink = { 0 };
	for (int t = 0; t < e->ntiles; t++) {
		const Tile *tile = &e->tiles[t];
		for (int k = 0; k < tile->nnodes; k++) {
			int id = tile->nodes[k];
			if (e->groups[tile->group].out[k] && !is_io_port(e, id) && !e->used[id])
				text_add(&sink, arena_printf(e->a, ", %s", node(e, id)->name));
		}
	}
	emit_sink(e, &sink, "tracks that leave the array");
	vec_free(&sink);
}

static void emit_top(Emit *e)
{
	const CanalSpec *s = e->g->spec;
	vw_line(&e->w, "// The array: %d x %d tiles and a row of IO tiles (row 0) to the north.", s->cols, s->rows);
	emit_top_ports(e);
	vw_indent(&e->w);
	for (int t = 0; t < e->ntiles; t++)
		emit_top_tile(e, &e->tiles[t]);
	emit_top_readback(e);
	emit_top_unused(e);
	vw_dedent(&e->w);
	vw_line(&e->w, "endmodule");
}

void canal_verilog(const CanalGraph *g, const CanalField *fields, int nfields, FILE *f)
{
	Emit e = { .g = g, .fields = fields, .nfields = nfields, .a = arena_new() };
	vw_init(&e.w, f);
	e.lname = xcalloc((size_t)g->nnodes + 1, sizeof(const char *));
	e.local = xcalloc((size_t)g->nnodes + 1, sizeof(int));
	e.field = xcalloc((size_t)g->nnodes + 1, sizeof(int));
	e.used = xcalloc((size_t)g->nnodes + 1, 1);
	collect_tiles(&e);
	collect_fields(&e);
	group_tiles(&e);
	vw_line(&e.w, "// Generated by canal; do not edit. The array %s (canal/COLLATERAL.md): %d tile", g->spec->name,
		e.ngroups);
	vw_line(&e.w, "// module%s with %s interconnect module%s, the top module %s. The cores' modules are in %s%s%s.",
		e.ngroups == 1 ? "" : "s", e.ngroups == 1 ? "its" : "their", e.ngroups == 1 ? "" : "s", g->spec->name,
		g->pe->verilog, g->mem ? " and " : "", g->mem ? g->mem->verilog : "");
	vw_line(&e.w, "`default_nettype none");
	vw_line(&e.w, "/* verilator lint_off DECLFILENAME */");
	vw_line(&e.w, "// Multiplexers, bypassed registers and the cores' combinational paths close loops");
	vw_line(&e.w, "// through the tiles; a routed configuration closes none: they are false paths.");
	vw_line(&e.w, "`ifdef VERILATOR");
	vw_line(&e.w, "`verilator_config");
	vw_line(&e.w, "lint_off -rule UNOPTFLAT");
	vw_line(&e.w, "`verilog");
	vw_line(&e.w, "`endif");
	vw_line(&e.w, "%s", "");
	for (int gi = 0; gi < e.ngroups; gi++) {
		emit_ic_module(&e, &e.groups[gi]);
		emit_tile_module(&e, &e.groups[gi]);
	}
	emit_top(&e);
	vw_line(&e.w, "`default_nettype wire");
	for (int t = 0; t < e.ntiles; t++)
		free(e.tiles[t].nodes);
	free(e.tiles);
	free(e.groups);
	free(e.lname);
	free(e.local);
	free(e.field);
	free(e.used);
	arena_free(e.a);
}
