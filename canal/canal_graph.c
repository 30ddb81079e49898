/* canal_graph.c - the interconnect graph, built by passes over a CanalGraph
 * (canal/COLLATERAL.md, "The graph"): nodes of every tile, switch boxes,
 * connection boxes, pipeline registers, the wires between tiles, and the
 * spec's edits. A pass is a function of the graph; canal_build lays out the
 * tiles, runs the list `passes` (adding a pass is adding a line there), then
 * applies the spec's edits, which may fail with errors. */
#include <stdlib.h>
#include <string.h>

#include "../common/util.h"
#include "canal.h"

static const char side_letter[] = "NESW";

/* ---- topology ---- */

static int mod(int a, int m)
{
	return ((a % m) + m) % m;
}

int canal_sb_track(CanalTopology topo, int si, int so, int t, int T)
{
	if (topo == SB_DISJOINT || (si + 2) % 4 == so)
		return t;   /* straight through, or any turn of the disjoint box */
	if (topo == SB_IMRAN)
		return so == (si + 1) % 4 ? mod(t + 1, T) : mod(t - 1, T);
	/* Wilton, as in VPR: W left, E right, N top, S bottom */
	switch (si * 4 + so) {
	case SIDE_W * 4 + SIDE_N: return mod(T - t, T);
	case SIDE_W * 4 + SIDE_S: return mod(t - 1, T);
	case SIDE_E * 4 + SIDE_N: return mod(t - 1, T);
	case SIDE_E * 4 + SIDE_S: return mod(2 * T - 2 - t, T);
	case SIDE_S * 4 + SIDE_W: return mod(t + 1, T);
	case SIDE_S * 4 + SIDE_E: return mod(2 * T - 2 - t, T);
	case SIDE_N * 4 + SIDE_W: return mod(T - t, T);
	default: return mod(t + 1, T);   /* N -> E */
	}
}

/* ---- nodes and edges ---- */

static int add_node(CanalGraph *g, CanalNodeKind kind, int width, int x, int y, int side, int track,
		    const char *name)
{
	if (g->nnodes == g->capnodes) {
		g->capnodes = g->capnodes ? 2 * g->capnodes : 1024;
		g->nodes = xrealloc(g->nodes, (size_t)g->capnodes * sizeof *g->nodes);
	}
	CanalNode *n = &g->nodes[g->nnodes];
	memset(n, 0, sizeof *n);
	*n = (CanalNode){ .kind = kind, .width = width, .x = x, .y = y, .side = side, .track = track,
			  .name = name };
	ALWAYS(gstore_name(&g->store, name, g->nnodes));
	return g->nnodes++;
}

static void add_edge(CanalGraph *g, int from, int to)
{
	gstore_link(g->nodes, from, to);
}

static int remove_edge(CanalGraph *g, int from, int to)
{
	return gstore_unlink(g->nodes, from, to);
}

int canal_find(const CanalGraph *g, const char *name)
{
	return gstore_find(&g->store, name);
}

/* ---- the array ---- */

int canal_pattern_match(const CanalPattern *p, int i)
{
	return p->every == 0 || (i >= p->first && (i - p->first) % p->every == 0);
}

CanalTileKind canal_tile_kind(const CanalSpec *s, int x, int y)
{
	if (y == 0)
		return TILE_IO;
	if (s->has_mem && canal_pattern_match(&s->mem_cols, x))
		return TILE_MEM;
	return TILE_PE;
}

/* The IO row follows the columns alone: the rows pattern is over core rows,
 * and an IO tile's registers pipeline the column it feeds. */
int canal_tile_registers(const CanalSpec *s, int x, int y)
{
	return s->sb_registers && canal_pattern_match(&s->reg_cols, x) &&
	       (y == 0 || canal_pattern_match(&s->reg_rows, y));
}

const CoreInfo *canal_tile_core(const CanalGraph *g, int x, int y)
{
	CanalTileKind k = canal_tile_kind(g->spec, x, y);
	return k == TILE_IO ? g->io : k == TILE_MEM ? g->mem : g->pe;
}

static const char *track_name(CanalGraph *g, const char *kind, int w, int x, int y, int side, int t,
			      const char *dir)
{
	return arena_printf(g->store.arena, "%s%d_x%d_y%d_%c%s_t%d", kind, w, x, y, side_letter[side], dir, t);
}

/* The node ids of the track nodes are computed rather than looked up:
 * tile-major, then width, side, track, with sb_in before sb_out. */
typedef struct Layout {
	int per_tile;
	int width_base[CANAL_MAX_WIDTHS];
	int *tile_base;         /* first node of each tile */
} Layout;

static int sb_node(const CanalGraph *g, const Layout *lay, int wi, int x, int y, int side, int t, int out)
{
	const CanalSpec *s = g->spec;
	return lay->tile_base[y * s->cols + x] + lay->width_base[wi] + (side * s->tracks[wi] + t) * 2 + out;
}

/* Pass 1: the switch-box track nodes and core ports of every tile. */
static void pass_tiles(CanalGraph *g, Layout *lay)
{
	const CanalSpec *s = g->spec;
	int base = 0;
	for (int wi = 0; wi < s->nwidths; wi++) {
		lay->width_base[wi] = base;
		base += 4 * s->tracks[wi] * 2;
	}
	lay->tile_base = xcalloc((size_t)(s->cols * (s->rows + 1)), sizeof(int));
	for (int y = 0; y <= s->rows; y++)
		for (int x = 0; x < s->cols; x++) {
			lay->tile_base[y * s->cols + x] = g->nnodes;
			for (int wi = 0; wi < s->nwidths; wi++)
				for (int side = 0; side < 4; side++)
					for (int t = 0; t < s->tracks[wi]; t++) {
						int w = s->width[wi];
						add_node(g, CN_SB_IN, w, x, y, side, t, track_name(g, "sb", w, x, y, side, t, "_in"));
						add_node(g, CN_SB_OUT, w, x, y, side, t, track_name(g, "sb", w, x, y, side, t, "_out"));
					}
			const CoreInfo *c = canal_tile_core(g, x, y);
			for (int i = 0; i < c->nins; i++)
				add_node(g, CN_PORT_IN, c->ins[i].width, x, y, -1, -1,
					 arena_printf(g->store.arena, "x%d_y%d_%s", x, y, c->ins[i].name));
			for (int i = 0; i < c->nouts; i++)
				add_node(g, CN_PORT_OUT, c->outs[i].width, x, y, -1, -1,
					 arena_printf(g->store.arena, "x%d_y%d_%s", x, y, c->outs[i].name));
		}
}

static int width_index(const CanalSpec *s, int w)
{
	for (int i = 0; i < s->nwidths; i++)
		if (s->width[i] == w)
			return i;
	return -1;
}

/* Pass 2: switch-box multiplexers: the mapped track of each other side,
 * then the core's outputs of that width. */
static void pass_switchboxes(CanalGraph *g, const Layout *lay)
{
	const CanalSpec *s = g->spec;
	for (int y = 0; y <= s->rows; y++)
		for (int x = 0; x < s->cols; x++) {
			const CoreInfo *c = canal_tile_core(g, x, y);
			int first_out = canal_find(g, arena_printf(g->store.arena, "x%d_y%d_%s", x, y,
								    c->nouts ? c->outs[0].name : ""));
			for (int wi = 0; wi < s->nwidths; wi++)
				for (int so = 0; so < 4; so++)
					for (int t2 = 0; t2 < s->tracks[wi]; t2++) {
						int out = sb_node(g, lay, wi, x, y, so, t2, 1);
						for (int si = 0; si < 4; si++)
							for (int t = 0; si != so && t < s->tracks[wi]; t++)
								if (canal_sb_track(s->topology, si, so, t, s->tracks[wi]) == t2)
									add_edge(g, sb_node(g, lay, wi, x, y, si, t, 0), out);
						for (int i = 0; i < c->nouts; i++)
							if (c->outs[i].width == s->width[wi])
								add_edge(g, first_out + i, out);
					}
		}
}

/* Pass 3: a connection box per core input. */
static void pass_connection_boxes(CanalGraph *g, const Layout *lay)
{
	const CanalSpec *s = g->spec;
	for (int y = 0; y <= s->rows; y++)
		for (int x = 0; x < s->cols; x++) {
			const CoreInfo *c = canal_tile_core(g, x, y);
			for (int i = 0; i < c->nins; i++) {
				int wi = width_index(s, c->ins[i].width);
				if (wi < 0)
					continue;   /* no network of that width: reported by canal_build */
				int in = canal_find(g, arena_printf(g->store.arena, "x%d_y%d_%s", x, y, c->ins[i].name));
				for (int side = 0; side < 4; side++)
					for (int k = 0; k < (s->cb_all ? s->tracks[wi] : s->ncb_tracks); k++)
						add_edge(g, sb_node(g, lay, wi, x, y, side, s->cb_all ? k : s->cb_tracks[k], 0), in);
			}
		}
}

/* The node that drives the wire out of an sb_out: itself, or its rmux. */
static int driver(const CanalGraph *g, int sb_out)
{
	const CanalNode *n = &g->nodes[sb_out];
	for (int i = 0; i < n->nout; i++)
		if (g->nodes[n->out[i]].kind == CN_RMUX)
			return n->out[i];
	return sb_out;
}

/* Pass 4: a bypassable register after every switch-box multiplexer of the
 * tiles the spec's registers pattern picks (all of them without one). */
static void pass_registers(CanalGraph *g, const Layout *lay)
{
	const CanalSpec *s = g->spec;
	(void)lay;
	if (!s->sb_registers)
		return;
	int n = g->nnodes;
	for (int id = 0; id < n; id++) {
		const CanalNode c = g->nodes[id];
		if (c.kind != CN_SB_OUT || !canal_tile_registers(s, c.x, c.y))
			continue;
		int reg = add_node(g, CN_REG, c.width, c.x, c.y, c.side, c.track,
				   track_name(g, "reg", c.width, c.x, c.y, c.side, c.track, ""));
		int rmux = add_node(g, CN_RMUX, c.width, c.x, c.y, c.side, c.track,
				    track_name(g, "rmux", c.width, c.x, c.y, c.side, c.track, ""));
		add_edge(g, id, rmux);
		add_edge(g, id, reg);
		add_edge(g, reg, rmux);
	}
}

/* Pass 5: the wires between neighbouring tiles. */
static void pass_wires(CanalGraph *g, const Layout *lay)
{
	static const int dx[4] = { 0, 1, 0, -1 }, dy[4] = { -1, 0, 1, 0 };
	const CanalSpec *s = g->spec;
	for (int y = 0; y <= s->rows; y++)
		for (int x = 0; x < s->cols; x++)
			for (int side = 0; side < 4; side++) {
				int nx = x + dx[side], ny = y + dy[side];
				if (nx < 0 || nx >= s->cols || ny < 0 || ny > s->rows)
					continue;
				for (int wi = 0; wi < s->nwidths; wi++)
					for (int t = 0; t < s->tracks[wi]; t++)
						add_edge(g, driver(g, sb_node(g, lay, wi, x, y, side, t, 1)),
							 sb_node(g, lay, wi, nx, ny, (side + 2) % 4, t, 0));
			}
}

/* 1 if from is already one of to's inputs. */
static int has_edge(const CanalGraph *g, int from, int to)
{
	for (int i = 0; i < g->nodes[to].nin; i++)
		if (g->nodes[to].in[i] == from)
			return 1;
	return 0;
}

/* An edge the edits added: the edit, whether a later edit removed it, and
 * whether its loop is reported. */
typedef struct Added {
	int from, to, edit;
	int removed, reported;
} Added;

/* 1 if the edge a -> b is one of the edits' that the loop check of added[k]
 * does not see yet: added by a later edit, or already reported. */
static int hidden(const Added *added, int nadded, int k, int a, int b)
{
	for (int j = 0; j < nadded; j++)
		if (added[j].from == a && added[j].to == b && !added[j].removed)
			return j > k || added[j].reported;
	return 0;
}

/* The tile of node n, as one number. */
static int tile_of(const CanalGraph *g, int n)
{
	return g->nodes[n].y * g->spec->cols + g->nodes[n].x;
}

/* A loop search: the edits' edges, the node arrays of a depth-first search
 * and the tiles it may enter. */
typedef struct LoopSearch {
	const CanalGraph *g;
	const Added *added;
	int nadded, k;
	int *prev, *seen, *stack, *path;
	int stamp;
	int tile_a, tile_b;
} LoopSearch;

/* A path from added[k]'s `to` back to its `from` over nodes of tiles tile_a
 * and tile_b but registers, on the edges the passes made and those of edits
 * up to k: its length in path (to first), 0 if there is none. */
static int find_loop(LoopSearch *ls)
{
	const CanalGraph *g = ls->g;
	int to = ls->added[ls->k].to, from = ls->added[ls->k].from, top = 0;
	ls->stamp++;
	ls->seen[to] = ls->stamp;
	ls->prev[to] = -1;
	ls->stack[top++] = to;
	while (top) {
		int v = ls->stack[--top];
		if (v == from) {
			int n = 0;
			for (int u = v; u >= 0; u = ls->prev[u])
				ls->path[n++] = u;
			for (int i = 0; i < n / 2; i++) {
				int t = ls->path[i];
				ls->path[i] = ls->path[n - 1 - i];
				ls->path[n - 1 - i] = t;
			}
			return n;
		}
		const CanalNode *nv = &g->nodes[v];
		for (int i = 0; i < nv->nout; i++) {
			int w = nv->out[i], t = tile_of(g, w);
			if (ls->seen[w] == ls->stamp || g->nodes[w].kind == CN_REG || (t != ls->tile_a && t != ls->tile_b) ||
			    hidden(ls->added, ls->nadded, ls->k, v, w))
				continue;
			ls->seen[w] = ls->stamp;
			ls->prev[w] = v;
			ls->stack[top++] = w;
		}
	}
	return 0;
}

/* The loop, if any, that added[k] closes within one tile or two: within the
 * tiles of its ends, or, when both are in one tile, within that tile and any
 * tile an edge from it reaches. */
static int edit_loop(LoopSearch *ls)
{
	const CanalGraph *g = ls->g;
	int a = tile_of(g, ls->added[ls->k].from), b = tile_of(g, ls->added[ls->k].to), n;
	ls->tile_a = a;
	ls->tile_b = b;
	if ((n = find_loop(ls)) || a != b)
		return n;
	char *tried = xcalloc((size_t)(g->spec->cols * (g->spec->rows + 1)), 1);
	tried[a] = 1;
	for (int v = 0; v < g->nnodes && !n; v++)
		for (int i = 0; tile_of(g, v) == a && i < g->nodes[v].nout && !n; i++) {
			int t = tile_of(g, g->nodes[v].out[i]);
			if (tried[t]++)
				continue;
			ls->tile_b = t;
			n = find_loop(ls);
		}
	free(tried);
	return n;
}

/* No added edge may close a combinational loop (one with no register on it)
 * inside a tile or between two tiles. The passes' own loops all go round at
 * least four tiles (a 2 x 2 block: a switch box never turns a track back),
 * over multiplexers a routing sets and never closes; edits may add such
 * loops (a diagonal, a U-turn) but not shorter ones. Each loop is reported
 * at the edit that closes it, with its nodes. */
static int check_loops(const CanalGraph *g, const CanalFile *f, Added *added, int nadded, Diags *d)
{
	int ok = 1;
	LoopSearch ls = { g, added, nadded, 0, xmalloc((size_t)g->nnodes * sizeof(int)),
			  xcalloc((size_t)g->nnodes, sizeof(int)), xmalloc((size_t)g->nnodes * sizeof(int)),
			  xmalloc((size_t)g->nnodes * sizeof(int)), 0, 0, 0 };
	for (int k = 0; k < nadded; k++) {
		const CanalNode *a = &g->nodes[added[k].from], *b = &g->nodes[added[k].to];
		if (added[k].removed || a->kind == CN_REG || b->kind == CN_REG)
			continue;   /* a register breaks every loop through it */
		ls.k = k;
		int n = edit_loop(&ls);
		if (!n)
			continue;
		StrBuf cycle = { 0 };
		sb_printf(&cycle, "%s", a->name);
		for (int i = 0; i < n; i++)
			sb_printf(&cycle, " -> %s", g->nodes[ls.path[i]].name);
		const CanalEdit *e = &g->spec->edits[added[k].edit];
		diag_error(d, f->doc->file, e->line, e->col, "the edge closes a combinational loop (no register on "
			   "it): %s", cycle.s);
		free(cycle.s);
		added[k].reported = 1;
		ok = 0;
	}
	free(ls.prev);
	free(ls.seen);
	free(ls.stack);
	free(ls.path);
	return ok;
}

/* Pass 6: the spec's edits, by node name. An added edge must join nodes of
 * one width, not drive a core output (only its core does), not repeat an
 * input of its multiplexer, and not close a loop with no register on it
 * within one tile or two. */
static int pass_edits(CanalGraph *g, const CanalFile *f, Diags *d)
{
	const CanalSpec *s = g->spec;
	int ok = 1, nadded = 0;
	Added *added = xcalloc((size_t)s->nedits + 1, sizeof *added);
	for (int i = 0; i < s->nedits; i++) {
		const CanalEdit *e = &s->edits[i];
		int from = canal_find(g, e->from), to = canal_find(g, e->to);
		if (from < 0 || to < 0) {
			diag_error(d, f->doc->file, e->line, e->col, "no node named '%s'", from < 0 ? e->from : e->to);
			ok = 0;
		} else if (e->add && g->nodes[from].width != g->nodes[to].width) {
			diag_error(d, f->doc->file, e->line, e->col, "'%s' is %d bits wide and '%s' %d", e->from,
				   g->nodes[from].width, e->to, g->nodes[to].width);
			ok = 0;
		} else if (e->add && g->nodes[to].kind == CN_PORT_OUT) {
			diag_error(d, f->doc->file, e->line, e->col, "'%s' is an output of core '%s': only its core "
				   "drives it", e->to, canal_tile_core(g, g->nodes[to].x, g->nodes[to].y)->name);
			ok = 0;
		} else if (e->add && has_edge(g, from, to)) {
			diag_error(d, f->doc->file, e->line, e->col, "'%s' already drives '%s': a multiplexer takes each "
				   "input once", e->from, e->to);
			ok = 0;
		} else if (e->add && g->nodes[to].nin >= CANAL_MAX_FANIN) {
			diag_error(d, f->doc->file, e->line, e->col, "'%s' has %d inputs already, as many as a multiplexer "
				   "may have (the readers of routing.graph take no more)", e->to, CANAL_MAX_FANIN);
			ok = 0;
		} else if (e->add) {
			add_edge(g, from, to);
			added[nadded++] = (Added){ from, to, i, 0, 0 };
		} else if (!remove_edge(g, from, to)) {
			diag_error(d, f->doc->file, e->line, e->col, "there is no edge from '%s' to '%s'", e->from,
				   e->to);
			ok = 0;
		} else {
			for (int k = 0; k < nadded; k++)
				added[k].removed |= added[k].from == from && added[k].to == to;
		}
	}
	ok &= check_loops(g, f, added, nadded, d);
	free(added);
	return ok;
}

/* Every core port needs a network of its width. */
static int check_widths(const CanalSpec *s, const CoreInfo *core, const char *path, int line, int col,
			Diags *d)
{
	int ok = 1;
	for (int k = 0; k < 2; k++)
		for (int i = 0; i < (k ? core->nouts : core->nins); i++) {
			const CorePort *p = k ? &core->outs[i] : &core->ins[i];
			if (width_index(s, p->width) < 0) {
				diag_error(d, path, line, col, "the %s port '%s' of core '%s' is %d bits wide and the "
					   "interconnect has no %d-bit network", k ? "output" : "input", p->name, core->name,
					   p->width, p->width);
				ok = 0;
			}
		}
	return ok;
}

CanalGraph *canal_build(const CanalSpec *s, const CoreInfo *pe, const CoreInfo *mem, const CanalFile *f,
			Diags *d)
{
	int ok = check_widths(s, pe, s->file, s->pe_line, s->pe_col, d);
	if (mem)
		ok &= check_widths(s, mem, s->file, s->mem_line, s->mem_col, d);
	if (!ok)
		return NULL;
	CanalGraph *g = xcalloc(1, sizeof *g);
	gstore_init(&g->store);
	g->spec = s;
	g->pe = pe;
	g->mem = mem;
	g->io = coreinfo_io(s->width, s->nwidths);
	Layout lay;
	memset(&lay, 0, sizeof lay);
	void (*const passes[])(CanalGraph *, const Layout *) = { pass_switchboxes, pass_connection_boxes,
								 pass_registers, pass_wires, NULL };
	pass_tiles(g, &lay);
	for (int i = 0; passes[i]; i++)
		passes[i](g, &lay);
	free(lay.tile_base);
	if (!pass_edits(g, f, d)) {
		canal_graph_free(g);
		return NULL;
	}
	return g;
}

void canal_graph_free(CanalGraph *g)
{
	if (!g)
		return;
	gstore_free_nodes(g->nodes, g->nnodes);
	coreinfo_free((CoreInfo *)g->io);
	gstore_free(&g->store);
	free(g);
}
