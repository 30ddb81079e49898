/* route.c - the router of route.h: PathFinder's negotiated congestion over
 * A* searches of (node, registers so far) states.
 *
 * Negotiation. Entering a node costs (1 + history) * (1 + present factor *
 * the other nets on it). Iteration 1 routes every net in the order given;
 * each later one rips up and re-routes, in the same order, the nets that
 * still touch an over-used node when their turn comes. After an iteration
 * with over-used nodes, their history grows by hist_fac (up to hist_max) and
 * the present factor by pres_mult (up to pres_max).
 *
 * Search. A sink's A* search starts from every node of its net's tree whose
 * register count is at most the sink's, and ends on the sink with exactly
 * its count; a reg raises the count, other nets' port_in nodes and all
 * port_out nodes are never entered, nor a node of the tree or one already on
 * the path (at another count). Ties go to the deeper state, then the lower
 * state number.
 *
 * Estimate. A path from n to the sink crosses tile boundaries at least as
 * often as the Manhattan distance between their tiles; when no reg reaches
 * another reg or a port_in without a crossing (canal's graphs: reg -> rmux
 * -> the neighbour's sb_in), also once per register still missing (once
 * more if n can no longer take one in its tile), and on a grid of one-tile
 * crossings the count has the distance's parity. The estimate is the
 * cheapest way out of n's tile, then each crossing but the last starts a
 * segment costing at least `seg` (3 on canal's graphs: sb_in, sb_out,
 * rmux), each missing register costs `regx` more (1), and the last crossing
 * needs `fin` to reach a port_in (2: sb_in, port_in); with no crossing
 * needed, the cheaper of the way to a port_in of the tile and out and back.
 * These minima are measured on the graph once (breadth-first within tiles),
 * every node costs at least 1, so the estimate never exceeds the real cost,
 * and along a path without detours it stays exact, which keeps the searches
 * for many registers narrow.
 *
 * Memory: one record per (node, count) state up to the largest register
 * count asked, allocated once and reset by stamps. */
#include "route.h"

#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../../common/vec.h"

#define NONE INT_MAX
#define MAX_STATES (1 << 27)    /* (node, count) records: 16 bytes each */

enum { NK_OTHER, NK_SB_IN, NK_SB_OUT, NK_REG, NK_RMUX, NK_PORT_IN, NK_PORT_OUT };

typedef struct HeapItem {
	double f, g;
	int s;
} HeapItem;

typedef VEC(HeapItem) Heap;

/* One node of a net's tree: its graph node, its register count and the tree
 * index of its driver (-1 for the source). */
typedef struct TNode {
	int node, k, up;
} TNode;

typedef struct Tree {
	VEC(TNode) t;
	int *sink;              /* per sink: tree index, or -1 */
} Tree;

/* What the A* estimate knows of the graph (file comment). */
typedef struct Estimate {
	int *out_cost;          /* per node: cheapest cost to leave its tile, NONE if it cannot */
	int *in_cost;           /* per node: cheapest cost to a port_in of its tile, NONE if none */
	unsigned char *host;    /* per node: a reg is reachable before the next crossing */
	int seg;                /* cheapest segment between two crossings */
	int fin;                /* cheapest way from a crossing to a port_in */
	int regx;               /* extra cost of a segment holding a register */
	int kmax;               /* longest crossing (Manhattan tiles) */
	int unit;               /* every crossing is one tile */
	int regs_sep;           /* a crossing follows every reg before another reg or port_in */
} Estimate;

typedef struct Router {
	const RGraph *g;
	const RtNet *nets;
	int nnets;
	RtOptions o;
	unsigned char *kind;
	int *occ;               /* nets on each node */
	double *hist;
	double pres;
	Estimate est;
	Tree *trees;
	/* search state: states are node * stride + count */
	int stride;
	double *best;
	int *parent;
	unsigned *mark;         /* search stamp: open, +1 closed */
	unsigned stamp;
	unsigned *node_mark;    /* per node: closed at some count in this search ... */
	uint64_t *node_closed;  /* ... at these counts (bit 63: 63 or more) */
	unsigned *tree_mark;    /* per node: in the tree being routed */
	int *tree_idx;
	unsigned net_stamp;
	Heap heap;
	VEC(int) path;
	StrBuf report;
	int overused, over_node;        /* after the last iteration, when it failed */
	int plain;              /* every node costs 1: congestion left out (route_net) */
} Router;

void rt_options_default(RtOptions *o)
{
	o->max_iterations = 50;
	o->pres_first = 0.5;
	o->pres_mult = 1.5;
	o->pres_max = 1000.0;
	o->hist_fac = 0.2;
	o->hist_max = 100.0;
	o->astar = 1.0;
	o->progress = NULL;
}

/* ---- binary heap: least f, then deepest g, then least state ---- */

static int heap_less(const HeapItem *a, const HeapItem *b)
{
	if (a->f != b->f)
		return a->f < b->f;
	if (a->g != b->g)
		return a->g > b->g;
	return a->s < b->s;
}

static void heap_push(Heap *h, double f, double g, int s)
{
	HeapItem it = { f, g, s };
	vec_push(h, it);
	int i = h->len - 1;
	while (i > 0 && heap_less(&it, &h->data[(i - 1) / 2])) {
		h->data[i] = h->data[(i - 1) / 2];
		i = (i - 1) / 2;
	}
	h->data[i] = it;
}

static int heap_pop(Heap *h, HeapItem *top)
{
	if (h->len == 0)
		return 0;
	*top = h->data[0];
	HeapItem last = h->data[--h->len];
	int i = 0, n = h->len;
	for (;;) {
		int c = 2 * i + 1;
		if (c >= n)
			break;
		if (c + 1 < n && heap_less(&h->data[c + 1], &h->data[c]))
			c++;
		if (!heap_less(&h->data[c], &last))
			break;
		h->data[i] = h->data[c];
		i = c;
	}
	if (n > 0)
		h->data[i] = last;
	return 1;
}

/* ---- the graph as the router sees it ---- */

static unsigned char kind_of(const char *k)
{
	static const char *const names[] = { "sb_in", "sb_out", "reg", "rmux", "port_in", "port_out" };
	for (int i = 0; i < 6; i++)
		if (strcmp(k, names[i]) == 0)
			return (unsigned char)(i + 1);
	return NK_OTHER;
}

static int tile_dist(const RNode *a, const RNode *b)
{
	return abs(a->x - b->x) + abs(a->y - b->y);
}

static int is_port(const Router *rt, int v)
{
	return rt->kind[v] == NK_PORT_IN || rt->kind[v] == NK_PORT_OUT;
}

/* An in-tile step u -> v a path may take through v (no port). */
static int in_tile_step(const Router *rt, int u, int v)
{
	return tile_dist(&rt->g->nodes[u], &rt->g->nodes[v]) == 0 && !is_port(rt, v);
}

/* Reverse breadth-first search over in-tile edges: dist[p] = dist[v] + 1
 * for each edge p -> v from the queued nodes on, passing through no port. */
static void bfs_back(const Router *rt, int *dist, int *queue, int tail)
{
	const RGraph *g = rt->g;
	for (int head = 0; head < tail; head++) {
		int v = queue[head];
		for (int j = 0; j < g->nodes[v].nin; j++) {
			int p = g->nodes[v].in[j];
			if (dist[p] == NONE && tile_dist(&g->nodes[p], &g->nodes[v]) == 0) {
				dist[p] = dist[v] + 1;
				if (!is_port(rt, p))
					queue[tail++] = p;
			}
		}
	}
}

static int crosses_out(const Router *rt, int u)
{
	const RNode *n = &rt->g->nodes[u];
	for (int j = 0; j < n->nout; j++)
		if (tile_dist(n, &rt->g->nodes[n->out[j]]) > 0 && rt->kind[n->out[j]] != NK_PORT_OUT)
			return 1;
	return 0;
}

/* out_cost: 0 on a node with a crossing edge, else 1 + the least over its
 * in-tile successors; in_cost: 0 on a port_in, else 1 + the least over its
 * in-tile successors. */
static void est_tile_costs(Router *rt)
{
	const RGraph *g = rt->g;
	int *queue = xmalloc((size_t)(g->nnodes ? g->nnodes : 1) * sizeof *queue), tail = 0;
	for (int u = 0; u < g->nnodes; u++) {
		rt->est.out_cost[u] = crosses_out(rt, u) ? 0 : NONE;
		if (rt->est.out_cost[u] == 0 && !is_port(rt, u))
			queue[tail++] = u;
	}
	bfs_back(rt, rt->est.out_cost, queue, tail);
	tail = 0;
	for (int u = 0; u < g->nnodes; u++) {
		rt->est.in_cost[u] = rt->kind[u] == NK_PORT_IN ? 0 : NONE;
		if (rt->kind[u] == NK_PORT_IN)
			queue[tail++] = u;
	}
	bfs_back(rt, rt->est.in_cost, queue, tail);
	free(queue);
}

/* The cheapest in-tile cost from each node (excluded) through a reg to an
 * exit: Dijkstra backwards from the predecessors of the regs. */
static int *est_reg_cost(Router *rt)
{
	const RGraph *g = rt->g;
	const int *e = rt->est.out_cost;
	int *er = xmalloc((size_t)(g->nnodes ? g->nnodes : 1) * sizeof *er);
	Heap h = { 0 };
	for (int u = 0; u < g->nnodes; u++)
		er[u] = NONE;
	for (int v = 0; v < g->nnodes; v++)
		if (rt->kind[v] == NK_REG && e[v] != NONE)
			for (int j = 0; j < g->nodes[v].nin; j++) {
				int p = g->nodes[v].in[j];
				if (in_tile_step(rt, p, v) && e[v] + 1 < er[p]) {
					er[p] = e[v] + 1;
					heap_push(&h, er[p], 0, p);
				}
			}
	HeapItem it;
	while (heap_pop(&h, &it)) {
		int v = it.s;
		if ((int)it.f != er[v] || rt->kind[v] == NK_REG || is_port(rt, v))
			continue;
		for (int j = 0; j < g->nodes[v].nin; j++) {
			int p = g->nodes[v].in[j];
			if (in_tile_step(rt, p, v) && er[v] + 1 < er[p]) {
				er[p] = er[v] + 1;
				heap_push(&h, er[p], 0, p);
			}
		}
	}
	vec_free(&h);
	return er;
}

/* 1 if no reg reaches another reg or a port_in without a crossing. */
static int est_regs_separated(const Router *rt)
{
	const RGraph *g = rt->g;
	int *seen = xcalloc((size_t)(g->nnodes ? g->nnodes : 1), sizeof *seen), ok = 1;
	VEC(int) stack = { 0 };
	for (int r = 0; r < g->nnodes && ok; r++) {
		if (rt->kind[r] != NK_REG)
			continue;
		vec_push(&stack, r);
		while (stack.len && ok) {
			int u = stack.data[--stack.len];
			for (int j = 0; j < g->nodes[u].nout && ok; j++) {
				int v = g->nodes[u].out[j];
				if (tile_dist(&g->nodes[u], &g->nodes[v]) > 0 || seen[v] == r + 1)
					continue;
				seen[v] = r + 1;
				if (rt->kind[v] == NK_REG || rt->kind[v] == NK_PORT_IN)
					ok = 0;
				else if (rt->kind[v] != NK_PORT_OUT)
					vec_push(&stack, v);
			}
		}
		stack.len = 0;
	}
	vec_free(&stack);
	free(seen);
	return ok;
}

/* seg, fin, regx, kmax and unit from the crossing edges. */
static void est_crossings(Router *rt, const int *er)
{
	const RGraph *g = rt->g;
	Estimate *est = &rt->est;
	int seg = NONE, seg_reg = NONE, regx = NONE, fin = NONE;
	est->kmax = 1;
	est->unit = 1;
	for (int u = 0; u < g->nnodes; u++)
		for (int j = 0; j < g->nodes[u].nout; j++) {
			int v = g->nodes[u].out[j], d = tile_dist(&g->nodes[u], &g->nodes[v]);
			if (d == 0)
				continue;
			est->kmax = d > est->kmax ? d : est->kmax;
			est->unit &= d == 1;
			if (rt->kind[v] == NK_PORT_IN)
				fin = 1;
			else if (rt->kind[v] != NK_PORT_OUT && est->in_cost[v] != NONE && 1 + est->in_cost[v] < fin)
				fin = 1 + est->in_cost[v];
			if (is_port(rt, v) || est->out_cost[v] == NONE)
				continue;
			int cost = 1 + est->out_cost[v];
			int with_reg = rt->kind[v] == NK_REG ? cost : er[v] == NONE ? NONE : 1 + er[v];
			seg = cost < seg ? cost : seg;
			seg_reg = with_reg < seg_reg ? with_reg : seg_reg;
		}
	est->seg = seg == NONE ? 0 : seg;
	est->fin = fin == NONE ? 1 : fin;
	if (seg != NONE && seg_reg != NONE)
		regx = seg_reg - seg;
	for (int u = 0; u < g->nnodes; u++)
		if (er[u] != NONE && est->out_cost[u] != NONE && er[u] - est->out_cost[u] < regx)
			regx = er[u] - est->out_cost[u];
	est->regx = regx == NONE || regx < 0 ? 0 : regx;
}

static void est_build(Router *rt)
{
	int n = rt->g->nnodes ? rt->g->nnodes : 1;
	rt->est.out_cost = xmalloc((size_t)n * sizeof *rt->est.out_cost);
	rt->est.in_cost = xmalloc((size_t)n * sizeof *rt->est.in_cost);
	rt->est.host = xcalloc((size_t)n, 1);
	est_tile_costs(rt);
	int *er = est_reg_cost(rt);
	for (int u = 0; u < rt->g->nnodes; u++)
		rt->est.host[u] = er[u] != NONE;
	est_crossings(rt, er);
	rt->est.regs_sep = est_regs_separated(rt);
	free(er);
}

/* A lower bound of the cost from v (entered, count k) to sink t with R
 * registers; INFINITY when v cannot reach t. With no crossing needed, the
 * way to a port_in of the tile or out and back in; else out of the tile,
 * c - 1 segments, the registers and the way from the last crossing in. */
static double estimate(const Router *rt, int v, int k, int t, int R)
{
	const Estimate *est = &rt->est;
	if (v == t)
		return 0;
	int r = R - k, d = tile_dist(&rt->g->nodes[v], &rt->g->nodes[t]);
	int c = (d + est->kmax - 1) / est->kmax;
	if (est->regs_sep && r > 0 && r + !est->host[v] > c)
		c = r + !est->host[v];
	if (est->unit && ((c - d) & 1))
		c++;
	int out = est->out_cost[v];
	if (c == 0) {
		int in = est->in_cost[v], back = out == NONE ? NONE : out + est->fin;
		return in == NONE && back == NONE ? INFINITY : in < back ? in : back;
	}
	if (out == NONE)
		return INFINITY;
	return out + (double)(c - 1) * est->seg + (est->regs_sep ? (double)r * est->regx : 0) + est->fin;
}

/* ---- one sink's search ---- */

static double node_cost(const Router *rt, int v)
{
	return rt->plain ? 1.0 : (1.0 + rt->hist[v]) * (1.0 + rt->pres * rt->occ[v]);
}

static uint64_t count_bit(int k)
{
	return (uint64_t)1 << (k < 63 ? k : 63);
}

static void close_state(Router *rt, int s)
{
	int v = s / rt->stride;
	rt->mark[s] = rt->stamp + 1;
	if (rt->node_mark[v] != rt->stamp) {
		rt->node_mark[v] = rt->stamp;
		rt->node_closed[v] = 0;
	}
	rt->node_closed[v] |= count_bit(s % rt->stride);
}

/* 1 if v is on the path to state s (count k). The path's states are closed
 * and their counts do not decrease, so only v's closed counts up to k need
 * looking for, and the walk stops below the least of them. */
static int revisits(const Router *rt, int s, int v, int k)
{
	if (rt->node_mark[v] != rt->stamp)
		return 0;
	uint64_t m = rt->node_closed[v] & (count_bit(k) | (count_bit(k) - 1));
	if (m == 0)
		return 0;
	int least = 0;
	while (!(m & 1))
		m >>= 1, least++;
	for (int a = s; a >= 0 && a % rt->stride >= least; a = rt->parent[a])
		if (a / rt->stride == v)
			return 1;
	return 0;
}

static void open_state(Router *rt, int s, double g, int parent, double h)
{
	rt->mark[s] = rt->stamp;
	rt->best[s] = g;
	rt->parent[s] = parent;
	heap_push(&rt->heap, g + rt->o.astar * h, g, s);
}

static void expand(Router *rt, int s, double g, int t, int R)
{
	const RNode *u = &rt->g->nodes[s / rt->stride];
	int k = s % rt->stride;
	for (int j = 0; j < u->nout; j++) {
		int v = u->out[j], kv = rt->kind[v];
		if (kv == NK_PORT_OUT || (kv == NK_PORT_IN && v != t) || rt->tree_mark[v] == rt->net_stamp)
			continue;
		int k2 = k + (kv == NK_REG), s2 = v * rt->stride + k2;
		if (k2 > R || (v == t && k2 != R) || rt->mark[s2] == rt->stamp + 1)
			continue;
		double g2 = g + node_cost(rt, v);
		if (rt->mark[s2] == rt->stamp && g2 >= rt->best[s2])
			continue;
		double h = estimate(rt, v, k2, t, R);
		if (h == INFINITY || revisits(rt, s, v, k2))
			continue;
		open_state(rt, s2, g2, s, h);
	}
}

static void tree_add(Router *rt, Tree *tr, int node, int k, int up)
{
	TNode n = { node, k, up };
	rt->tree_mark[node] = rt->net_stamp;
	rt->tree_idx[node] = tr->t.len;
	vec_push(&tr->t, n);
}

/* Adds the path ending at state s (from a tree node) to the tree. */
static void add_branch(Router *rt, Tree *tr, int si, int s)
{
	rt->path.len = 0;
	for (int a = s; a >= 0; a = rt->parent[a])
		vec_push(&rt->path, a);
	int up = rt->tree_idx[rt->path.data[rt->path.len - 1] / rt->stride];
	for (int i = rt->path.len - 2; i >= 0; i--) {
		int a = rt->path.data[i];
		tree_add(rt, tr, a / rt->stride, a % rt->stride, up);
		up = tr->t.len - 1;
	}
	tr->sink[si] = up;
}

/* Routes sink si of net ni from the net's tree; 0 if there is no path. */
static int route_sink(Router *rt, int ni, int si)
{
	Tree *tr = &rt->trees[ni];
	int t = rt->nets[ni].sinks[si].node, R = rt->nets[ni].sinks[si].regs;
	rt->stamp += 2;
	rt->heap.len = 0;
	vec_foreach(&tr->t, i) {
		const TNode *n = &tr->t.data[i];
		double h = n->k <= R ? estimate(rt, n->node, n->k, t, R) : INFINITY;
		if (h != INFINITY)
			open_state(rt, n->node * rt->stride + n->k, 0, -1, h);
	}
	HeapItem it;
	while (heap_pop(&rt->heap, &it)) {
		if (rt->mark[it.s] != rt->stamp || it.g > rt->best[it.s])
			continue;
		close_state(rt, it.s);
		if (it.s / rt->stride == t) {
			add_branch(rt, tr, si, it.s);
			return 1;
		}
		expand(rt, it.s, it.g, t, R);
	}
	return 0;
}

/* ---- nets ---- */

static const char *net_name(const RtNet *n)
{
	return n->name ? n->name : "(unnamed)";
}

/* Empties net ni's tree; its nodes' occupancy is the caller's. */
static void clear_tree(Router *rt, int ni)
{
	Tree *tr = &rt->trees[ni];
	tr->t.len = 0;
	for (int j = 0; j < rt->nets[ni].nsinks; j++)
		tr->sink[j] = -1;
}

/* Takes net ni's routed tree off the nodes it occupies. */
static void rip_up(Router *rt, int ni)
{
	Tree *tr = &rt->trees[ni];
	vec_foreach(&tr->t, i)
		rt->occ[tr->t.data[i].node]--;
	clear_tree(rt, ni);
}

/* Routes net ni's sinks in the order `first`, then the others in theirs;
 * the sink that found no path, or -1. The tree occupies nothing until
 * route_net counts it: a try that failed half-way is dropped as it is. */
static int route_sinks(Router *rt, int ni, int first)
{
	const RtNet *net = &rt->nets[ni];
	clear_tree(rt, ni);
	rt->net_stamp++;
	tree_add(rt, &rt->trees[ni], net->source, 0, -1);
	if (first >= 0 && !route_sink(rt, ni, first))
		return first;
	for (int j = 0; j < net->nsinks; j++)
		if (j != first && !route_sink(rt, ni, j))
			return j;
	return -1;
}

/* Rips net ni up and routes it again; 0 (report written) if a sink has no
 * path. A sink's path must branch off the tree where it holds no more
 * registers than the sink asks for: when the sinks routed before it took
 * the only way (one track, registers on few tiles), the net is routed
 * again with that sink first, each sink leading at most once; and if the
 * congestion costs still steer one sink's path across another's only way,
 * all of that again with every node costing the same (the negotiation
 * sorts out the sharing in later iterations). */
static int route_net(Router *rt, int ni)
{
	const RtNet *net = &rt->nets[ni];
	Tree *tr = &rt->trees[ni];
	rip_up(rt, ni);
	int failed = route_sinks(rt, ni, -1), first_failed = failed;
	for (rt->plain = 0; failed >= 0 && rt->plain < 2; rt->plain++) {
		if (rt->plain)
			failed = route_sinks(rt, ni, -1);
		for (int tries = 0; failed >= 0 && tries < net->nsinks; tries++) {
			int lead = failed;
			failed = route_sinks(rt, ni, lead);
			if (failed == lead)
				break;
		}
	}
	rt->plain = 0;
	if (failed >= 0) {
		int j = first_failed;
		sb_printf(&rt->report, "net '%s': no path from %s to sink %s with %d register%s\n", net_name(net),
			  rt->g->nodes[net->source].name, rt->g->nodes[net->sinks[j].node].name, net->sinks[j].regs,
			  net->sinks[j].regs == 1 ? "" : "s");
		return 0;
	}
	vec_foreach(&tr->t, i)
		rt->occ[tr->t.data[i].node]++;
	return 1;
}

static int net_congested(const Router *rt, int ni)
{
	const Tree *tr = &rt->trees[ni];
	vec_foreach(&tr->t, i)
		if (rt->occ[tr->t.data[i].node] > 1)
			return 1;
	return 0;
}

/* The occupancy kept as the nets' trees say it is: each tree node counted
 * once, nothing below zero (a bookkeeping slip would hide a node two nets
 * share: a wrong bitstream, not a routing failure). */
static void check_occupancy(const Router *rt)
{
	int *n = xcalloc((size_t)rt->g->nnodes + 1, sizeof *n);
	for (int i = 0; i < rt->nnets; i++)
		vec_foreach(&rt->trees[i].t, k) n[rt->trees[i].t.data[k].node]++;
	for (int v = 0; v < rt->g->nnodes; v++)
		if (n[v] != rt->occ[v])
			ICE("route: node %s is in %d nets' trees but counted %d times", rt->g->nodes[v].name, n[v],
			    rt->occ[v]);
	free(n);
}

static int count_overused(const Router *rt)
{
	int n = 0;
	for (int v = 0; v < rt->g->nnodes; v++)
		n += rt->occ[v] > 1;
	return n;
}

static double capped(double x, double max)
{
	return x < max ? x : max;
}

static void update_history(Router *rt)
{
	for (int v = 0; v < rt->g->nnodes; v++)
		if (rt->occ[v] > 1)
			rt->hist[v] = capped(rt->hist[v] + rt->o.hist_fac, rt->o.hist_max);
}

/* ---- input checks ---- */

static int bad_net(Router *rt, const RtNet *n, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

static int bad_net(Router *rt, const RtNet *n, const char *fmt, ...)
{
	va_list ap;
	char msg[512];
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	sb_printf(&rt->report, "net '%s': %s\n", net_name(n), msg);
	return 0;
}

static int node_ok(const Router *rt, int v, int kind)
{
	return v >= 0 && v < rt->g->nnodes && rt->kind[v] == kind;
}

/* Sources are port_out nodes, sinks port_in nodes listed once per net, with
 * register counts from 0 to the number of reg nodes of the graph and within
 * the search's states (MAX_STATES). */
static int check_net(Router *rt, const RtNet *n, int nregs)
{
	int most = (int)(MAX_STATES / (rt->g->nnodes ? rt->g->nnodes : 1)) - 1;
	if (!node_ok(rt, n->source, NK_PORT_OUT))
		return bad_net(rt, n, "source %d is not a port_out node", n->source);
	for (int j = 0; j < n->nsinks; j++) {
		const RtSink *s = &n->sinks[j];
		if (!node_ok(rt, s->node, NK_PORT_IN))
			return bad_net(rt, n, "sink %d is not a port_in node", s->node);
		for (int i = 0; i < j; i++)
			if (n->sinks[i].node == s->node)
				return bad_net(rt, n, "sink %s is listed twice", rt->g->nodes[s->node].name);
		if (s->regs < 0 || s->regs > nregs)
			return bad_net(rt, n, "no path from %s to sink %s with %d registers (the graph has %d)",
				       rt->g->nodes[n->source].name, rt->g->nodes[s->node].name, s->regs, nregs);
		if (s->regs > most)
			return bad_net(rt, n, "sink %s: %d registers are more than the search holds (%d on this graph)",
				       rt->g->nodes[s->node].name, s->regs, most);
	}
	return 1;
}

static int check_nets(Router *rt)
{
	int nregs = 0, ok = 1;
	for (int v = 0; v < rt->g->nnodes; v++)
		nregs += rt->kind[v] == NK_REG;
	for (int i = 0; i < rt->nnets && ok; i++)
		ok = check_net(rt, &rt->nets[i], nregs);
	return ok;
}

/* ---- set-up, results and reports ---- */

static void router_init(Router *rt, const RGraph *g, const RtNet *nets, int nnets, const RtOptions *o)
{
	memset(rt, 0, sizeof *rt);
	rt->g = g;
	rt->nets = nets;
	rt->nnets = nnets;
	if (o)
		rt->o = *o;
	else
		rt_options_default(&rt->o);
	size_t n = (size_t)(g->nnodes ? g->nnodes : 1);
	rt->kind = xmalloc(n);
	for (int v = 0; v < g->nnodes; v++)
		rt->kind[v] = kind_of(g->nodes[v].kind);
	rt->occ = xcalloc(n, sizeof *rt->occ);
	rt->hist = xcalloc(n, sizeof *rt->hist);
	rt->trees = xcalloc((size_t)(nnets ? nnets : 1), sizeof *rt->trees);
	for (int i = 0; i < nnets; i++) {
		rt->trees[i].sink = xmalloc((size_t)(nets[i].nsinks ? nets[i].nsinks : 1) * sizeof(int));
		for (int j = 0; j < nets[i].nsinks; j++)
			rt->trees[i].sink[j] = -1;
	}
}

/* The search arrays, once the nets are known to be valid. */
static void router_alloc_search(Router *rt)
{
	int rmax = 0;
	for (int i = 0; i < rt->nnets; i++)
		for (int j = 0; j < rt->nets[i].nsinks; j++)
			rmax = rt->nets[i].sinks[j].regs > rmax ? rt->nets[i].sinks[j].regs : rmax;
	size_t n = (size_t)(rt->g->nnodes ? rt->g->nnodes : 1), ns = n * (size_t)(rmax + 1);
	rt->stride = rmax + 1;
	rt->best = xmalloc(ns * sizeof *rt->best);
	rt->parent = xmalloc(ns * sizeof *rt->parent);
	rt->mark = xcalloc(ns, sizeof *rt->mark);
	rt->node_mark = xcalloc(n, sizeof *rt->node_mark);
	rt->node_closed = xmalloc(n * sizeof *rt->node_closed);
	rt->tree_mark = xcalloc(n, sizeof *rt->tree_mark);
	rt->tree_idx = xmalloc(n * sizeof *rt->tree_idx);
	est_build(rt);
}

static void router_free(Router *rt)
{
	for (int i = 0; i < rt->nnets; i++) {
		vec_free(&rt->trees[i].t);
		free(rt->trees[i].sink);
	}
	free(rt->trees);
	free(rt->kind);
	free(rt->occ);
	free(rt->hist);
	free(rt->est.out_cost);
	free(rt->est.in_cost);
	free(rt->est.host);
	free(rt->best);
	free(rt->parent);
	free(rt->mark);
	free(rt->node_mark);
	free(rt->node_closed);
	free(rt->tree_mark);
	free(rt->tree_idx);
	vec_free(&rt->heap);
	vec_free(&rt->path);
}

/* Registers on the path of tree node i, and the delay after the last one. */
static void sink_timing(const Router *rt, const Tree *tr, int i, int *regs, double *delay)
{
	*regs = 0;
	*delay = 0;
	for (; i >= 0; i = tr->t.data[i].up) {
		const RNode *n = &rt->g->nodes[tr->t.data[i].node];
		if (rt->kind[tr->t.data[i].node] == NK_REG)
			++*regs;
		else if (*regs == 0)
			*delay += n->delay;
	}
}

static void fill_route(const Router *rt, int ni, RtRoute *out, RtResult *r)
{
	const Tree *tr = &rt->trees[ni];
	int ns = rt->nets[ni].nsinks;
	out->edges = xmalloc((size_t)(tr->t.len ? tr->t.len : 1) * sizeof *out->edges);
	out->sink_regs = xmalloc((size_t)(ns ? ns : 1) * sizeof *out->sink_regs);
	out->sink_delay = xmalloc((size_t)(ns ? ns : 1) * sizeof *out->sink_delay);
	vec_foreach(&tr->t, i) {
		const TNode *n = &tr->t.data[i];
		const RNode *g = &rt->g->nodes[n->node];
		if (n->up >= 0)
			out->edges[out->nedges++] = (RtEdge){ tr->t.data[n->up].node, n->node };
		r->nodes_used++;
		if (rt->kind[n->node] == NK_SB_OUT) {
			r->tracks16 += g->width == 16;
			r->tracks1 += g->width == 1;
		}
	}
	for (int j = 0; j < ns; j++) {
		out->sink_regs[j] = -1;
		out->sink_delay[j] = 0;
		if (tr->sink[j] >= 0)
			sink_timing(rt, tr, tr->sink[j], &out->sink_regs[j], &out->sink_delay[j]);
	}
}

static void fill_result(const Router *rt, RtResult *r)
{
	r->nnets = rt->nnets;
	r->routes = xcalloc((size_t)(rt->nnets ? rt->nnets : 1), sizeof *r->routes);
	for (int i = 0; i < rt->nnets; i++)
		fill_route(rt, i, &r->routes[i], r);
}

typedef struct Use {
	int node, net;
} Use;

static int use_cmp(const void *a, const void *b)
{
	const Use *x = a, *y = b;
	if (x->node != y->node)
		return x->node < y->node ? -1 : 1;
	return x->net < y->net ? -1 : x->net > y->net;
}

/* One line per over-used node, in node order, with its nets in net order. */
static void report_overuse(Router *rt, int over, int iterations)
{
	VEC(Use) uses = { 0 };
	for (int i = 0; i < rt->nnets; i++)
		vec_foreach(&rt->trees[i].t, j) {
			int v = rt->trees[i].t.data[j].node;
			if (rt->occ[v] > 1)
				vec_push(&uses, ((Use){ v, i }));
		}
	if (uses.len)
		qsort(uses.data, (size_t)uses.len, sizeof *uses.data, use_cmp);
	rt->overused = over;
	rt->over_node = uses.len ? uses.data[0].node : -1;
	for (int a = 0, b; a < uses.len; a = b) {
		for (b = a; b < uses.len && uses.data[b].node == uses.data[a].node; b++)
			;
		sb_printf(&rt->report, "node %s is used by %d nets:", rt->g->nodes[uses.data[a].node].name, b - a);
		for (int i = a; i < b; i++)
			sb_printf(&rt->report, "%s %s", i > a ? "," : "", net_name(&rt->nets[uses.data[i].net]));
		sb_printf(&rt->report, "\n");
	}
	sb_printf(&rt->report, "route: %d node%s over-used after %d iterations\n", over, over == 1 ? "" : "s",
		  iterations);
	vec_free(&uses);
}

static void progress_summary(const Router *rt, const RtResult *r, int ok)
{
	if (!rt->o.progress)
		return;
	if (!ok) {
		const char *s = rt->report.s ? rt->report.s : "";
		const char *last = s + strlen(s);
		while (last > s && last[-1] == '\n')
			last--;
		const char *nl = last;
		while (nl > s && nl[-1] != '\n')
			nl--;
		fprintf(rt->o.progress, "route: failed: %.*s\n", (int)(last - nl), nl);
		return;
	}
	int sinks = 0;
	for (int i = 0; i < rt->nnets; i++)
		sinks += rt->nets[i].nsinks;
	fprintf(rt->o.progress, "route: %d nets, %d sinks in %d iterations: %d nodes, %d 16-bit and %d 1-bit tracks, "
		"%.3f s\n", rt->nnets, sinks, r->iterations, r->nodes_used, r->tracks16, r->tracks1, r->seconds);
}

/* The PathFinder iterations; 1 when no node is over-used. */
static int negotiate(Router *rt, RtResult *r)
{
	int limit = rt->o.max_iterations > 0 ? rt->o.max_iterations : 1, over = 0;
	rt->pres = rt->o.pres_first;
	for (int it = 1; it <= limit; it++) {
		int rerouted = 0;
		r->iterations = it;
		for (int i = 0; i < rt->nnets; i++) {
			if (it > 1 && !net_congested(rt, i))
				continue;
			rerouted++;
			if (!route_net(rt, i))
				return 0;
		}
		check_occupancy(rt);
		over = count_overused(rt);
		if (rt->o.progress)
			fprintf(rt->o.progress, "route: iteration %d: %d over-used nodes, %d nets rerouted\n", it, over,
				rerouted);
		if (over == 0)
			return 1;
		update_history(rt);
		rt->pres = capped(rt->pres * rt->o.pres_mult, rt->o.pres_max);
	}
	report_overuse(rt, over, limit);
	return 0;
}

int rt_route(const RGraph *g, const RtNet *nets, int nnets, const RtOptions *o, RtResult *r)
{
	double t0 = util_now();
	Router rt;
	memset(r, 0, sizeof *r);
	router_init(&rt, g, nets, nnets, o);
	int ok = check_nets(&rt);
	if (ok) {
		router_alloc_search(&rt);
		ok = negotiate(&rt, r);
	}
	fill_result(&rt, r);
	r->overused = ok ? 0 : rt.overused;
	r->over_node = ok ? -1 : rt.over_node;
	r->seconds = util_now() - t0;
	r->report = ok ? NULL : rt.report.s;
	if (ok)
		free(rt.report.s);
	progress_summary(&rt, r, ok);
	router_free(&rt);
	return ok;
}

void rt_result_free(RtResult *r)
{
	if (!r)
		return;
	for (int i = 0; i < r->nnets; i++) {
		free(r->routes[i].edges);
		free(r->routes[i].sink_regs);
		free(r->routes[i].sink_delay);
	}
	free(r->routes);
	free(r->report);
	memset(r, 0, sizeof *r);
}
