/* test_canal.c - unit tests of the interconnect graph: switch-box topologies
 * (bijections, the Imran rotation, Wilton as in VPR), fan-in of switch and
 * connection boxes, reachability of core inputs from neighbouring core
 * outputs and from the IO row, edits (and what they may not do: loops with no
 * register, driving a core output, an input twice), registers on the tiles
 * a pattern picks, the design's name against its cores' modules, missing
 * networks and determinism.
 * Cores are built in code with the ports of pe_base and pub; the specs name
 * the real core specs so that their paths check. Run from the repository
 * root. Closing line: "canal: N passed, M failed". */
#define _POSIX_C_SOURCE 200809L

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../common/tests/check.h"
#include "../../collateral/bitstream.h"
#include "../../common/util.h"
#include "../canal.h"


/* ---- fixtures ---- */

static CoreInfo *make_core(CoreKind kind, const char *name, const CorePort *ins, int nins, const CorePort *outs,
			   int nouts, int nregs)
{
	Arena *a = arena_new();
	CoreInfo *c = arena_alloc(a, sizeof *c);
	memset(c, 0, sizeof *c);
	c->arena = a;
	c->kind = kind;
	c->name = name;
	c->verilog = arena_printf(a, "%s.v", name);
	c->ins = arena_alloc(a, (size_t)nins * sizeof(CorePort));
	memcpy(c->ins, ins, (size_t)nins * sizeof(CorePort));
	c->nins = nins;
	c->outs = arena_alloc(a, (size_t)nouts * sizeof(CorePort));
	memcpy(c->outs, outs, (size_t)nouts * sizeof(CorePort));
	c->nouts = nouts;
	c->regs = arena_alloc(a, (size_t)nregs * sizeof(CoreReg));
	for (int i = 0; i < nregs; i++)
		c->regs[i] = (CoreReg){ arena_printf(a, "r%d", i), 32, 0, i };
	c->nregs = nregs;
	return c;
}

static CoreInfo *pe_core(void)
{
	static const CorePort ins[] = { { "data0", 16 }, { "data1", 16 }, { "data2", 16 },
					{ "bit0", 1 },	 { "bit1", 1 },	  { "bit2", 1 } };
	static const CorePort outs[] = { { "res", 16 }, { "res_p", 1 } };
	return make_core(CORE_PE, "pe_base", ins, 6, outs, 2, 3);
}

static CoreInfo *mem_core(void)
{
	static const CorePort ins[] = { { "in0", 16 }, { "in1", 16 } };
	static const CorePort outs[] = { { "out0", 16 }, { "out0_valid", 1 }, { "out1", 16 }, { "out1_valid", 1 } };
	return make_core(CORE_MEM, "pub", ins, 2, outs, 4, 5);
}

typedef struct Fixture {
	Diags *d;
	CanalFile *f;
	CoreInfo *pe, *mem;
	CanalGraph *g;
} Fixture;

static char *spec_text(int cols, int rows, const char *tracks, const char *topo, const char *cb, int regs,
		       const char *edits)
{
	return xasprintf("interconnect: t\n"
			 "array: { cols: %d, rows: %d }\n"
			 "cores:\n"
			 "  pe:  { spec: ../../peak/specs/pe_base.yaml }\n"
			 "  mem: { spec: ../../lake/specs/pub.yaml, columns: { every: 4, first: 3 } }\n"
			 "io: { side: north }\n"
			 "tracks: %s\n"
			 "switchbox: %s\n"
			 "connection_box: { tracks: %s }\n"
			 "registers: { switchbox_outputs: %s }\n%s",
			 cols, rows, tracks, topo, cb, regs ? "true" : "false", edits ? edits : "");
}

static int setup(Fixture *x, char *text)
{
	memset(x, 0, sizeof *x);
	x->d = diags_new(NULL);
	x->f = canal_load_string("canal/specs/test.yaml", text, x->d);
	free(text);
	x->pe = pe_core();
	x->mem = mem_core();
	if (x->f)
		x->g = canal_build(x->f->spec, x->pe, x->mem, x->f, x->d);
	return x->g != NULL;
}

static void teardown(Fixture *x)
{
	canal_graph_free(x->g);
	canal_file_free(x->f);
	coreinfo_free(x->pe);
	coreinfo_free(x->mem);
	diags_free(x->d);
}

/* Marks everything reachable from the marked nodes. */
static void reach(const CanalGraph *g, char *mark)
{
	int *stack = xcalloc((size_t)g->nnodes, sizeof(int)), n = 0;
	for (int i = 0; i < g->nnodes; i++)
		if (mark[i])
			stack[n++] = i;
	while (n) {
		const CanalNode *v = &g->nodes[stack[--n]];
		for (int k = 0; k < v->nout; k++)
			if (!mark[v->out[k]]) {
				mark[v->out[k]] = 1;
				stack[n++] = v->out[k];
			}
	}
	free(stack);
}

/* ---- topologies ---- */

static void test_topologies_are_bijections(void)
{
	int bad = 0;
	for (int topo = SB_DISJOINT; topo <= SB_IMRAN; topo++)
		for (int T = 1; T <= 8; T++)
			for (int si = 0; si < 4; si++)
				for (int so = 0; so < 4; so++) {
					unsigned seen = 0;
					for (int t = 0; si != so && t < T; t++) {
						int f = canal_sb_track((CanalTopology)topo, si, so, t, T);
						if (f < 0 || f >= T || (seen >> f & 1))
							bad++;
						seen |= 1u << (f < 0 || f >= T ? 0 : f);
					}
				}
	CHECK(bad == 0, "%d track maps are not permutations", bad);
}

static void test_imran_rotation(void)
{
	CHECK(canal_sb_track(SB_IMRAN, SIDE_W, SIDE_N, 2, 5) == 3, "Imran: IW2 drives ON3 (AHA 4.3)");
	CHECK(canal_sb_track(SB_IMRAN, SIDE_W, SIDE_E, 2, 5) == 2, "Imran: straight keeps the track");
	CHECK(canal_sb_track(SB_IMRAN, SIDE_W, SIDE_S, 0, 5) == 4, "Imran: counter-clockwise turns go down one");
	int bad = 0;
	for (int si = 0; si < 4; si++)
		for (int t = 0; t < 5; t++) {
			int so = (si + 1) % 4, f = canal_sb_track(SB_IMRAN, si, so, t, 5);
			bad += canal_sb_track(SB_IMRAN, so, si, f, 5) != t;
		}
	CHECK(bad == 0, "a clockwise turn and its counter-clockwise return undo each other (%d do not)", bad);
}

static void test_wilton_as_vpr(void)
{
	static const struct {
		int si, so, t, want;
	} cases[] = {
		{ SIDE_W, SIDE_N, 1, 4 }, { SIDE_W, SIDE_S, 0, 4 }, { SIDE_E, SIDE_N, 0, 4 }, { SIDE_E, SIDE_S, 1, 2 },
		{ SIDE_S, SIDE_W, 4, 0 }, { SIDE_S, SIDE_E, 3, 0 }, { SIDE_N, SIDE_W, 2, 3 }, { SIDE_N, SIDE_E, 4, 0 },
		{ SIDE_N, SIDE_S, 3, 3 },
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		int got = canal_sb_track(SB_WILTON, cases[i].si, cases[i].so, cases[i].t, 5);
		CHECK(got == cases[i].want, "Wilton %c%d -> %c: track %d, want %d", "NESW"[cases[i].si], cases[i].t,
		      "NESW"[cases[i].so], got, cases[i].want);
	}
}

/* ---- the graph ---- */

static void test_fanin(void)
{
	for (int regs = 0; regs < 2; regs++) {
		Fixture x;
		CHECK(setup(&x, spec_text(4, 4, "{ 16: 3, 1: 2 }", "imran", "all", regs, NULL)), "the graph builds");
		int bad_sb = 0, bad_cb = 0, bad_reg = 0, nsb = 0;
		for (int i = 0; x.g && i < x.g->nnodes; i++) {
			const CanalNode *n = &x.g->nodes[i];
			const CoreInfo *c = canal_tile_core(x.g, n->x, n->y);
			int outs = 0;
			for (int k = 0; k < c->nouts; k++)
				outs += c->outs[k].width == n->width;
			if (n->kind == CN_SB_OUT) {
				nsb++;
				bad_sb += n->nin != 3 + outs;
			} else if (n->kind == CN_PORT_IN) {
				bad_cb += n->nin != 4 * (n->width == 16 ? 3 : 2);
			} else if (n->kind == CN_RMUX || n->kind == CN_REG) {
				bad_reg += n->nin != (n->kind == CN_RMUX ? 2 : 1);
			}
		}
		CHECK(nsb == 5 * 4 * 4 * (3 + 2), "%d switch-box outputs", nsb);
		CHECK(bad_sb == 0, "registers %d: every switch-box output has 3 tracks + the core outputs (%d differ)",
		      regs, bad_sb);
		CHECK(bad_cb == 0, "every connection box sees all 4T tracks (%d differ)", bad_cb);
		CHECK(bad_reg == 0, "registers have one input, bypass muxes two (%d differ)", bad_reg);
		teardown(&x);
	}
	Fixture x;
	CHECK(setup(&x, spec_text(4, 4, "{ 16: 3, 1: 2 }", "wilton", "[ 0 ]", 0, NULL)), "a subset CB builds");
	int bad = 0;
	for (int i = 0; x.g && i < x.g->nnodes; i++)
		bad += x.g->nodes[i].kind == CN_PORT_IN && x.g->nodes[i].nin != 4;
	CHECK(bad == 0, "connection boxes on track 0 only have 4 inputs (%d differ)", bad);
	teardown(&x);
}

/* Every core input is reachable from a core output of the same width on a
 * neighbouring tile; every IO output reaches every core input of its width;
 * every core output reaches an IO input. */
static void test_reachability(void)
{
	static const char *const topo[] = { "disjoint", "wilton", "imran" };
	for (int k = 0; k < 3; k++) {
		Fixture x;
		CHECK(setup(&x, spec_text(5, 4, "{ 16: 2, 1: 1 }", topo[k], "all", 1, NULL)), "%s builds", topo[k]);
		const CanalGraph *g = x.g;
		if (!g)
			continue;
		char *mark = xcalloc((size_t)g->nnodes, 1);
		int unreached = 0, io_unreached = 0, to_io = 0;
		for (int id = 0; id < g->nnodes; id++) {
			const CanalNode *in = &g->nodes[id];
			if (in->kind != CN_PORT_IN || in->y == 0)
				continue;
			memset(mark, 0, (size_t)g->nnodes);
			for (int j = 0; j < g->nnodes; j++) {
				const CanalNode *o = &g->nodes[j];
				int dist = abs(o->x - in->x) + abs(o->y - in->y);
				mark[j] = o->kind == CN_PORT_OUT && o->width == in->width && dist == 1 && o->y > 0;
			}
			reach(g, mark);
			unreached += !mark[id];
		}
		memset(mark, 0, (size_t)g->nnodes);
		for (int j = 0; j < g->nnodes; j++)
			mark[j] = g->nodes[j].kind == CN_PORT_OUT && g->nodes[j].y == 0 && g->nodes[j].width == 16;
		reach(g, mark);
		for (int id = 0; id < g->nnodes; id++)
			io_unreached += g->nodes[id].kind == CN_PORT_IN && g->nodes[id].y > 0 && g->nodes[id].width == 16 &&
					!mark[id];
		for (int id = 0; id < g->nnodes; id++) {
			if (g->nodes[id].kind != CN_PORT_OUT || g->nodes[id].y == 0)
				continue;
			memset(mark, 0, (size_t)g->nnodes);
			mark[id] = 1;
			reach(g, mark);
			int found = 0;
			for (int j = 0; j < g->nnodes && !found; j++)
				found = mark[j] && g->nodes[j].kind == CN_PORT_IN && g->nodes[j].y == 0;
			to_io += !found;
		}
		CHECK(unreached == 0, "%s: %d core inputs unreachable from neighbouring core outputs", topo[k], unreached);
		CHECK(io_unreached == 0, "%s: %d 16-bit core inputs unreachable from the IO row", topo[k], io_unreached);
		CHECK(to_io == 0, "%s: %d core outputs cannot reach the IO row", topo[k], to_io);
		free(mark);
		teardown(&x);
	}
}

/* A registers pattern (even columns, odd rows): a register and its bypass
 * after every switch-box output of exactly the tiles it picks, the IO row by
 * its columns alone; elsewhere the multiplexer drives the neighbour itself. */
static void test_register_pattern(void)
{
	Fixture x;
	char *text = xasprintf("interconnect: t\n"
			       "array: { cols: 5, rows: 4 }\n"
			       "cores:\n"
			       "  pe:  { spec: ../../peak/specs/pe_base.yaml }\n"
			       "  mem: { spec: ../../lake/specs/pub.yaml, columns: { every: 4, first: 3 } }\n"
			       "io: { side: north }\n"
			       "tracks: { 16: 2, 1: 1 }\n"
			       "registers: { switchbox_outputs: true, columns: { every: 2, first: 0 }, "
			       "rows: { every: 2, first: 1 } }\n");
	CHECK(setup(&x, text), "a registers pattern builds");
	int regs[5][5] = { { 0 } }, sbs[5][5] = { { 0 } }, bad_site = 0, bad_tiles = 0;
	for (int i = 0; x.g && i < x.g->nnodes; i++) {
		const CanalNode *n = &x.g->nodes[i];
		if (n->kind != CN_SB_OUT)
			continue;
		int rmux = 0, reg = 0;
		for (int k = 0; k < n->nout; k++) {
			const CanalNode *o = &x.g->nodes[n->out[k]];
			int site = o->x == n->x && o->y == n->y && o->side == n->side && o->track == n->track;
			rmux += site && o->kind == CN_RMUX;
			reg += site && o->kind == CN_REG;
		}
		int want = canal_tile_registers(x.f->spec, n->x, n->y);
		bad_site += rmux != want || reg != want;
		sbs[n->y][n->x]++;
		regs[n->y][n->x] += reg;
	}
	for (int y = 0; x.g && y < 5; y++)
		for (int xx = 0; xx < 5; xx++) {
			int want = xx % 2 == 0 && (y == 0 || y % 2 == 1);
			bad_tiles += regs[y][xx] != (want ? sbs[y][xx] : 0) ||
				     canal_tile_registers(x.f->spec, xx, y) != want;
		}
	CHECK(x.g && bad_site == 0, "each switch-box output has a register and a bypass where its tile has them, "
	      "none elsewhere (%d differ)", bad_site);
	CHECK(x.g && bad_tiles == 0, "registers on the tiles of even columns and odd rows, the IO row's by column "
	      "(%d tiles differ)", bad_tiles);
	teardown(&x);
}

static void test_edits(void)
{
	Fixture x;
	CHECK(setup(&x, spec_text(4, 4, "{ 16: 2, 1: 2 }", "disjoint", "all", 0,
				  "edits:\n"
				  "  - { remove: [ sb16_x1_y1_N_in_t0, sb16_x1_y1_S_out_t0 ] }\n"
				  "  - { add: [ x0_y1_res, x1_y1_data2 ] }\n")),
	      "edits apply");
	if (x.g) {
		const CanalNode *s = &x.g->nodes[canal_find(x.g, "sb16_x1_y1_S_out_t0")];
		const CanalNode *p = &x.g->nodes[canal_find(x.g, "x1_y1_data2")];
		CHECK(s->nin == 3 && strcmp(x.g->nodes[s->in[0]].name, "sb16_x1_y1_E_in_t0") == 0,
		      "the removed edge is gone and the others keep their order");
		CHECK(p->nin == 9 && p->in[8] == canal_find(x.g, "x0_y1_res"), "the added edge is the last select");
	}
	teardown(&x);
	CHECK(!setup(&x, spec_text(4, 4, "{ 16: 2, 1: 2 }", "disjoint", "all", 0,
				   "edits:\n  - { add: [ nowhere, x1_y1_data2 ] }\n")) &&
	      diags_errors(x.d) == 1 && strstr(diags_get(x.d, 0)->msg, "no node named 'nowhere'"),
	      "an edit naming no node is an error");
	teardown(&x);
	CHECK(!setup(&x, spec_text(4, 4, "{ 16: 2, 1: 2 }", "disjoint", "all", 0,
				   "edits:\n  - { add: [ x0_y1_res_p, x1_y1_data2 ] }\n")) &&
	      diags_errors(x.d) == 1 && strstr(diags_get(x.d, 0)->msg, "is 1 bits wide"),
	      "an edit between widths is an error");
	teardown(&x);
}

/* A 4 x 4 spec with switch-box registers and these edits (new string). */
static char *edits_spec(const char *edits)
{
	return spec_text(4, 4, "{ 16: 2, 1: 2 }", "imran", "all", 1, edits);
}

/* What an edit may not do: close a loop with no register on it within one
 * tile or two, drive a core output, repeat an input; what it may. */
static void test_edit_checks(void)
{
	static const char *const fine[] = {
		/* a loop through a register */
		"  - { add: [ reg16_x1_y1_E_t0, sb16_x1_y1_W_in_t0 ] }\n",
		/* a U-turn and a diagonal: their loops go round the array */
		"  - { add: [ sb16_x1_y1_E_in_t0, sb16_x1_y1_E_out_t0 ] }\n",
		"  - { add: [ sb16_x1_y1_W_in_t0, sb16_x2_y2_N_out_t0 ] }\n",
		/* a loop added, then taken out again */
		"  - { add: [ sb16_x1_y1_E_out_t0, sb16_x1_y1_W_in_t0 ] }\n"
		"  - { remove: [ sb16_x1_y1_E_out_t0, sb16_x1_y1_W_in_t0 ] }\n",
		/* the documentation's: a core output to a neighbour's input */
		"  - { add: [ x0_y1_res, x1_y1_data0 ] }\n",
	};
	for (int i = 0; i < COUNT(fine); i++) {
		Fixture x;
		char *edits = xasprintf("edits:\n%s", fine[i]);
		int ok = setup(&x, edits_spec(edits));
		CHECK(ok, "edits %d are accepted (%d errors, first '%s')", i, diags_errors(x.d),
		      diags_errors(x.d) ? diags_get(x.d, 0)->msg : "");
		free(edits);
		teardown(&x);
	}
	static const struct {
		const char *edits, *msg;
		int line;
	} bad[] = {
		{ "  - { add: [ sb16_x1_y1_E_out_t0, sb16_x1_y1_W_in_t0 ] }\n",
		  "the edge closes a combinational loop (no register on it): sb16_x1_y1_E_out_t0 -> sb16_x1_y1_W_in_t0 -> "
		  "sb16_x1_y1_E_out_t0", 12 },
		{ "  - { add: [ rmux16_x1_y1_E_t0, sb16_x1_y1_W_in_t0 ] }\n",
		  "the edge closes a combinational loop (no register on it): rmux16_x1_y1_E_t0 -> sb16_x1_y1_W_in_t0 -> "
		  "sb16_x1_y1_E_out_t0 -> rmux16_x1_y1_E_t0", 12 },
		{ "  - { add: [ sb1_x2_y2_S_out_t0, sb1_x2_y2_S_out_t0 ] }\n",
		  "the edge closes a combinational loop (no register on it): sb1_x2_y2_S_out_t0 -> sb1_x2_y2_S_out_t0", 12 },
		{ "  - { add: [ sb16_x2_y1_W_in_t0, sb16_x1_y1_E_out_t0 ] }\n",
		  "the edge closes a combinational loop (no register on it): sb16_x2_y1_W_in_t0 -> sb16_x1_y1_E_out_t0 -> "
		  "rmux16_x1_y1_E_t0 -> sb16_x2_y1_W_in_t0", 12 },
		/* two edits, each fine alone: the loop is the second's */
		{ "  - { add: [ sb16_x1_y3_E_in_t1, sb16_x1_y3_E_out_t1 ] }\n"
		  "  - { add: [ sb16_x2_y3_W_in_t1, sb16_x2_y3_W_out_t1 ] }\n",
		  "the edge closes a combinational loop (no register on it): sb16_x2_y3_W_in_t1 -> sb16_x2_y3_W_out_t1 -> "
		  "rmux16_x2_y3_W_t1 -> sb16_x1_y3_E_in_t1 -> sb16_x1_y3_E_out_t1 -> rmux16_x1_y3_E_t1 -> sb16_x2_y3_W_in_t1",
		  13 },
		{ "  - { add: [ sb16_x1_y1_N_in_t0, x1_y1_res ] }\n",
		  "'x1_y1_res' is an output of core 'pe_base': only its core drives it", 12 },
		{ "  - { add: [ x1_y1_res, x3_y1_out0 ] }\n", "'x3_y1_out0' is an output of core 'pub': only its core drives it",
		  12 },
		{ "  - { add: [ sb16_x1_y1_N_in_t0, x1_y1_data0 ] }\n",
		  "'sb16_x1_y1_N_in_t0' already drives 'x1_y1_data0': a multiplexer takes each input once", 12 },
		{ "  - { add: [ x0_y1_res, x1_y1_data0 ] }\n  - { add: [ x0_y1_res, x1_y1_data0 ] }\n",
		  "this edit repeats the one at line 12: add x0_y1_res -> x1_y1_data0 once is enough", 13 },
	};
	for (int i = 0; i < COUNT(bad); i++) {
		Fixture x;
		char *edits = xasprintf("edits:\n%s", bad[i].edits);
		int ok = setup(&x, edits_spec(edits));
		const Diag *g = diags_errors(x.d) ? diags_get(x.d, 0) : NULL;
		CHECK(!ok && diags_errors(x.d) == 1 && g && !strcmp(g->msg, bad[i].msg) && g->line == bad[i].line && g->col == 5,
		      "case %d: expected '%s' at %d:5, got %d errors, first '%s' at %d:%d", i, bad[i].msg, bad[i].line,
		      diags_errors(x.d), g ? g->msg : "", g ? g->line : 0, g ? g->col : 0);
		free(edits);
		teardown(&x);
	}
}

/* The design's name against its cores': no two modules of one name. */
static void test_module_names(void)
{
	static const struct {
		const char *design, *pe, *mem;
		int ok;
	} cases[] = {
		{ "cgra", "pe_base", "pub", 1 },
		{ "cgra", "cgra_pe", "cgra_m", 1 },      /* no module of the design is named so */
		{ "x", "x_pe_tile_0", NULL, 1 },         /* _<N> counts from 2, without leading zeros */
		{ "x", "x_pe_ic2", NULL, 1 },
		{ "pe_base", "pe_base", "pub", 0 },
		{ "x", "x_io_ic", NULL, 0 },
		{ "x", "x_pe_tile_12", NULL, 0 },
		{ "x", "pe_base", "x_mem_ic", 0 },
		{ "x", "pe_base", "x_pe", 0 },           /* x_pe_tile among the memory's x_pe_* */
		{ "pub_big", "pe_base", "pub", 0 },      /* the design among the memory's pub_* */
		{ "cgra", "pub_pe", "pub", 0 },          /* the PE among them */
		{ "cgra", "pub", "pub", 0 },
	};
	for (int i = 0; i < COUNT(cases); i++) {
		char *text = xasprintf("interconnect: %s\narray: { cols: 4, rows: 4 }\ncores:\n"
				       "  pe:  { spec: ../../peak/specs/pe_base.yaml }\nio: { side: north }\n"
				       "tracks: { 16: 2, 1: 2 }\n", cases[i].design);
		Diags *d = diags_new(NULL);
		CanalFile *f = canal_load_string("canal/specs/test.yaml", text, d);
		int ok = f && canal_check_names(f->spec, cases[i].pe, cases[i].mem, d);
		const Diag *g = diags_errors(d) ? diags_get(d, 0) : NULL;
		CHECK(f && ok == cases[i].ok && (ok || (g && g->line == (strstr(g->msg, "the PE's module '") == g->msg ? 4 : 1))),
		      "case %d: design %s, PE %s, memory %s: %s (%s)", i, cases[i].design, cases[i].pe,
		      cases[i].mem ? cases[i].mem : "-", ok ? "accepted" : "refused", g ? g->msg : "");
		canal_file_free(f);
		diags_free(d);
		free(text);
	}
}

static void test_missing_network(void)
{
	Fixture x;
	CHECK(!setup(&x, spec_text(4, 4, "{ 16: 2 }", "imran", "all", 0, NULL)), "no 1-bit network: refused");
	CHECK(diags_errors(x.d) == 6 && strstr(diags_get(x.d, 0)->msg, "no 1-bit network"),
	      "each 1-bit core port is named (%d errors)", diags_errors(x.d));
	teardown(&x);
}

static char *graph_text(const CanalGraph *g)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	canal_write_graph(g, f);
	CanalField *fields;
	int n = canal_fields(g, &fields);
	canal_write_map(g, fields, n, f);
	free(fields);
	fclose(f);
	return buf;
}

static void test_determinism_and_fields(void)
{
	Fixture a, b;
	setup(&a, spec_text(4, 4, "{ 16: 5, 1: 5 }", "imran", "all", 1, NULL));
	setup(&b, spec_text(4, 4, "{ 16: 5, 1: 5 }", "imran", "all", 1, NULL));
	char *ta = a.g ? graph_text(a.g) : NULL, *tb = b.g ? graph_text(b.g) : NULL;
	CHECK(ta && tb && strcmp(ta, tb) == 0, "two builds write the same graph and map");
	CanalField *fields;
	int n = a.g ? canal_fields(a.g, &fields) : 0, bad = 0, muxes = 0;
	for (int i = 0; i < n; i++) {
		const CanalField *f = &fields[i];
		bad += f->lo < 0 || f->hi > 31 || f->lo > f->hi;
		if (f->kind == FIELD_MUX) {
			muxes++;
			bad += (1 << (f->hi - f->lo + 1)) < a.g->nodes[f->node].nin || (f->address >> 16 & 0xff) != CANAL_FEATURE ||
			       (int)(f->address >> 8 & 0xff) != a.g->nodes[f->node].x || (int)(f->address & 0xff) != a.g->nodes[f->node].y;
		}
	}
	int need = 0;
	for (int i = 0; a.g && i < a.g->nnodes; i++)
		need += a.g->nodes[i].nin > 1;
	CHECK(bad == 0 && muxes == need, "%d fields, %d bad; %d mux fields for %d muxes", n, bad, muxes, need);
	if (n)
		free(fields);
	free(ta);
	free(tb);
	teardown(&a);
	teardown(&b);
}

/* The collateral readers of common/ (what the compiler uses) read back what
 * canal wrote: same nodes, same select order, a field for every mux. */
static void test_collateral_reads_back(void)
{
	Fixture x;
	setup(&x, spec_text(4, 4, "{ 16: 2, 1: 2 }", "imran", "all", 1, NULL));
	if (!x.g)
		return;
	char *gt = NULL, *mt = NULL;
	size_t gl = 0, ml = 0;
	FILE *fg = open_memstream(&gt, &gl), *fm = open_memstream(&mt, &ml);
	CanalField *fields;
	int n = canal_fields(x.g, &fields);
	canal_write_graph(x.g, fg);
	canal_write_map(x.g, fields, n, fm);
	fclose(fg);
	fclose(fm);
	Diags *d = diags_new(NULL);
	RGraph *rg = rgraph_load_string("routing.graph", gt, d);
	ConfigMap *cm = configmap_load_string("config.map", mt, d);
	CHECK(rg && cm && diags_errors(d) == 0, "routing.graph and config.map read back");
	int bad = 0;
	for (int i = 0; rg && cm && i < x.g->nnodes; i++) {
		const CanalNode *a = &x.g->nodes[i];
		const RNode *b = &rg->nodes[i];
		bad += strcmp(a->name, b->name) != 0 || a->nin != b->nin || a->width != b->width ||
		       (a->nin > 1 && configmap_find(cm, a->name) < 0);
		for (int k = 0; k < a->nin && k < b->nin; k++)
			bad += a->in[k] != b->in[k];
	}
	CHECK(rg && cm && rg->nnodes == x.g->nnodes && cm->nfields == n && bad == 0,
	      "%d nodes and %d fields read back, %d differences", rg ? rg->nnodes : 0, cm ? cm->nfields : 0, bad);
	rgraph_free(rg);
	configmap_free(cm);
	diags_free(d);
	free(fields);
	free(gt);
	free(mt);
	teardown(&x);
}

static const TestCase tests[] = {
	{ "topologies_are_bijections", test_topologies_are_bijections },
	{ "imran_rotation", test_imran_rotation },
	{ "wilton_as_vpr", test_wilton_as_vpr },
	{ "fanin", test_fanin },
	{ "reachability", test_reachability },
	{ "register_pattern", test_register_pattern },
	{ "edits", test_edits },
	{ "edit_checks", test_edit_checks },
	{ "module_names", test_module_names },
	{ "missing_network", test_missing_network },
	{ "determinism_and_fields", test_determinism_and_fields },
	{ "collateral_reads_back", test_collateral_reads_back },
};

int main(void)
{
	return check_run("canal", tests, COUNT(tests));
}
