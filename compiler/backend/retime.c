/* retime.c - rt_retime of retime.h: each net's registers moved along its
 * routed tree to the least longest stretch.
 *
 * Tree. A net's tree is read into local nodes (0 the source, then each
 * edge's target in edge order, so drivers come first) and each site's reg
 * contracted away: the site's rmux hangs from its sb_out with a choice,
 * register or bypass. Reg nodes that are not part of a site stay as they
 * are. Times are integers (1e-6 ns) so that every sum is exact.
 *
 * Feasibility of a bound D, bottom-up: best[v][c] is the largest arrival at
 * v, reached with c registers, for which everything below v meets D (one
 * number suffices: a later arrival never helps). A wire child w asks
 * best[w][c] - delay(w) of v; a kept reg asks v's arrival within D (the
 * stretch ends there) and best[w][c + 1] >= 0; a site the more lenient of
 * its bypass (a wire) and its register (v within D, best[w][c + 1] at least
 * w's delay); a sink asks c to be its count and its arrival plus the time
 * after it within D.
 *
 * Bound. Every stretch is a sum of delays from a start (the source at its
 * arrival, a kept reg at 0, a site's rmux after its register at its delay)
 * down through wires and bypassed sites to an end (a sink plus the time
 * after it, a node driving a reg or a site). These sums, up to the tree's
 * current longest stretch (feasible: the current choices meet it), are
 * bisected for the least feasible one.
 *
 * Choices, top-down: a site keeps its current choice whenever that stays
 * feasible, so a tree already optimal is left as it is. */
#include "retime.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../../common/vec.h"

#define TICKS_PER_NS 1e6
#define NEG (INT64_MIN / 4)     /* no arrival is early enough */
#define INF (INT64_MAX / 4)     /* any arrival will do */

enum { TN_WIRE, TN_REG, TN_SITE, TN_GONE };

/* One node of a net's tree. */
typedef struct TNode {
	int node;               /* graph node */
	int orig;               /* driver in the routed tree (local index), -1 for the source */
	int up;                 /* driver with the site regs contracted, -1 for the source and those regs */
	int role;               /* TN_SITE: a site's rmux; TN_GONE: the reg of a site, when the tree uses it */
	int reg;                /* TN_SITE: the site's reg node */
	int used, pick;         /* TN_SITE: the register is used in the routed tree, in the chosen one */
	int nchild;             /* children in the routed tree */
	int first, next;        /* first child and next sibling with the site regs contracted, or -1 */
	int sink;               /* sink index, or -1 */
	int k;                  /* registers from the source: routed, then chosen */
	int64_t d, a;           /* delay; arrival (candidates, then chosen) */
} TNode;

typedef struct Retimer {
	const RGraph *g;
	unsigned char *is_reg;  /* per graph node */
	int *local;             /* per graph node: local index in the tree being read, or -1 */
	int *drv;               /* per graph node: driver in a rewritten tree */
	int64_t *at;            /* per graph node: arrival (route_stretch) */
	const RtNet *net;
	int64_t src;            /* the net's source arrival */
	VEC(int64_t) after;     /* per sink: time after it */
	VEC(int) kcur;          /* per sink: registers on its path now */
	VEC(TNode) t;
	int rmax;               /* most registers on a path of the tree */
	int nsites;
	VEC(int64_t) best;      /* per (local node, count): file comment */
	VEC(int64_t) cand;
	VEC(int) stack;
	VEC(RtEdge) edges;
} Retimer;

static int64_t ticks(double ns)
{
	return (int64_t)llround(ns * TICKS_PER_NS);
}

static int64_t min64(int64_t a, int64_t b)
{
	return a < b ? a : b;
}

static int64_t max64(int64_t a, int64_t b)
{
	return a > b ? a : b;
}

static int64_t minus_delay(int64_t x, int64_t d)
{
	return x >= INF ? INF : x <= NEG ? NEG : x - d;
}

/* ---- a net's timing as the backend sees it ---- */

static void set_net(Retimer *rt, const RtNet *net, double src, const double *after)
{
	rt->net = net;
	rt->src = ticks(src);
	rt->after.len = rt->kcur.len = 0;
	for (int j = 0; j < net->nsinks; j++) {
		vec_push(&rt->after, after ? ticks(after[j]) : 0);
		vec_push(&rt->kcur, net->sinks[j].regs);
	}
}

/* The time after sink j reached with c registers: none when a spare sink's
 * own register ends the stretch. */
static int64_t after_sink(const Retimer *rt, int j, int c)
{
	return rt->net->sinks[j].spare && c == rt->net->sinks[j].regs ? 0 : rt->after.data[j];
}

/* The longest stretch of the tree given by e[0..ne) (parents first). */
static int64_t route_stretch(Retimer *rt, const RtEdge *e, int ne)
{
	int64_t worst = NEG;
	rt->at[rt->net->source] = rt->src;
	for (int i = 0; i < ne; i++) {
		int64_t base = rt->is_reg[e[i].from] ? 0 : rt->at[e[i].from];
		rt->at[e[i].to] = base + ticks(rt->g->nodes[e[i].to].delay);
		if (rt->is_reg[e[i].to])
			worst = max64(worst, base);
	}
	for (int j = 0; j < rt->net->nsinks; j++)
		worst = max64(worst, rt->at[rt->net->sinks[j].node] + after_sink(rt, j, rt->kcur.data[j]));
	return worst == NEG ? 0 : worst;
}

/* ---- the tree ---- */

static void add_node(Retimer *rt, int node, int orig)
{
	TNode n = { .node = node, .orig = orig, .up = orig, .role = rt->is_reg[node] ? TN_REG : TN_WIRE,
		    .reg = -1, .first = -1, .next = -1, .sink = -1, .d = ticks(rt->g->nodes[node].delay) };
	if (orig >= 0) {
		n.k = rt->t.data[orig].k + rt->is_reg[node];
		rt->t.data[orig].nchild++;
	}
	rt->rmax = n.k > rt->rmax ? n.k : rt->rmax;
	rt->local[node] = rt->t.len;
	vec_push(&rt->t, n);
}

static int node_ok(const Retimer *rt, int v)
{
	return v >= 0 && v < rt->g->nnodes;
}

/* Reads a routed tree; 0 unless it is a tree of graph edges from the
 * source reaching each sink once with its register count. */
static int read_tree(Retimer *rt, const RtRoute *r)
{
	rt->t.len = 0;
	rt->rmax = 0;
	if (!node_ok(rt, rt->net->source))
		return 0;
	add_node(rt, rt->net->source, -1);
	for (int i = 0; i < r->nedges; i++) {
		int from = r->edges[i].from, to = r->edges[i].to;
		if (!node_ok(rt, from) || !node_ok(rt, to) || rt->local[from] < 0 || rt->local[to] >= 0 ||
		    rgraph_select(rt->g, from, to) < 0)
			return 0;
		add_node(rt, to, rt->local[from]);
	}
	for (int j = 0; j < rt->net->nsinks; j++) {
		int v = node_ok(rt, rt->net->sinks[j].node) ? rt->local[rt->net->sinks[j].node] : -1;
		if (v < 0 || rt->t.data[v].sink >= 0 || rt->t.data[v].k != rt->net->sinks[j].regs)
			return 0;
		rt->t.data[v].sink = j;
		if (rt->net->sinks[j].spare && rt->net->sinks[j].regs + 1 > rt->rmax)
			rt->rmax = rt->net->sinks[j].regs + 1;
	}
	return 1;
}

static void clear_local(Retimer *rt)
{
	vec_foreach(&rt->t, i)
		rt->local[rt->t.data[i].node] = -1;
}

/* The reg of a site s -> m the tree passes as a bypass: a reg out of s with
 * s its only input, an input of m, not in the tree; or -1. */
static int bypassed_reg(const Retimer *rt, int s, int m)
{
	const RNode *n = &rt->g->nodes[s];
	for (int j = 0; j < n->nout; j++) {
		int r = n->out[j];
		if (rt->is_reg[r] && rt->g->nodes[r].nin == 1 && rt->local[r] < 0 && rgraph_select(rt->g, r, m) >= 0)
			return r;
	}
	return -1;
}

/* 1 if p is a site's reg the tree uses for m only: its one input drives m too. */
static int used_reg(const Retimer *rt, const TNode *p, int m)
{
	return p->role == TN_REG && p->nchild == 1 && p->orig >= 0 && rt->g->nodes[p->node].nin == 1 &&
	       rgraph_select(rt->g, rt->t.data[p->orig].node, m) >= 0;
}

static void set_site(Retimer *rt, TNode *m, int reg, int used, int up)
{
	m->role = TN_SITE;
	m->reg = reg;
	m->used = m->pick = used;
	m->up = up;
	rt->nsites++;
}

/* Marks the sites of the tree and contracts the regs it uses in them. */
static void find_sites(Retimer *rt)
{
	rt->nsites = 0;
	for (int v = 1; v < rt->t.len; v++) {
		TNode *m = &rt->t.data[v], *p = &rt->t.data[m->orig];
		int r;
		if (m->role != TN_WIRE)
			continue;
		if (used_reg(rt, p, m->node)) {
			set_site(rt, m, p->node, 1, p->orig);
			p->role = TN_GONE;
			p->up = -1;
		} else if (p->role != TN_REG && (r = bypassed_reg(rt, p->node, m->node)) >= 0)
			set_site(rt, m, r, 0, m->orig);
	}
}

/* Children lists of the contracted tree, in local order. */
static void link_children(Retimer *rt)
{
	for (int v = rt->t.len - 1; v > 0; v--) {
		TNode *n = &rt->t.data[v];
		if (n->role == TN_GONE)
			continue;
		n->next = rt->t.data[n->up].first;
		rt->t.data[n->up].first = v;
	}
}

/* ---- feasibility of a bound ---- */

static const int64_t *best_of(const Retimer *rt, int v)
{
	return &rt->best.data[(size_t)v * (size_t)(rt->rmax + 1)];
}

/* The latest arrival at w's driver, holding c registers, for which w's
 * subtree meets D. */
static int64_t child_bound(const Retimer *rt, int w, int c, int64_t D)
{
	const TNode *n = &rt->t.data[w];
	const int64_t *b = best_of(rt, w);
	int more = c < rt->rmax;
	if (n->role == TN_REG)
		return more && b[c + 1] >= 0 ? D : NEG;
	int64_t bypass = minus_delay(b[c], n->d);
	if (n->role == TN_SITE && more && b[c + 1] >= n->d)
		return max64(bypass, D);
	return bypass;
}

static int64_t node_bound(const Retimer *rt, int v, int c, int64_t D)
{
	const TNode *n = &rt->t.data[v];
	int64_t m = INF;
	if (n->sink >= 0) {
		const RtSink *s = &rt->net->sinks[n->sink];
		m = c == s->regs || (s->spare && c == s->regs + 1) ? D - after_sink(rt, n->sink, c) : NEG;
	}
	for (int w = n->first; w >= 0; w = rt->t.data[w].next)
		m = min64(m, child_bound(rt, w, c, D));
	return m;
}

/* Fills best[][] for D; 1 if the source's arrival meets it. */
static int feasible(Retimer *rt, int64_t D)
{
	int R = rt->rmax + 1;
	for (int v = rt->t.len - 1; v >= 0; v--)
		if (rt->t.data[v].role != TN_GONE)
			for (int c = 0; c < R; c++)
				rt->best.data[(size_t)v * (size_t)R + (size_t)c] = node_bound(rt, v, c, D);
	return best_of(rt, 0)[0] >= rt->src;
}

/* ---- the least bound ---- */

/* The stretches from start s (arrival a) to the ends below it. */
static void walk_from(Retimer *rt, int s, int64_t a)
{
	rt->t.data[s].a = a;
	rt->stack.len = 0;
	vec_push(&rt->stack, s);
	while (rt->stack.len) {
		TNode *x = &rt->t.data[rt->stack.data[--rt->stack.len]];
		int ends = 0;
		if (x->sink >= 0) {
			vec_push(&rt->cand, x->a + rt->after.data[x->sink]);
			if (rt->net->sinks[x->sink].spare)
				vec_push(&rt->cand, x->a);
		}
		for (int w = x->first; w >= 0; w = rt->t.data[w].next) {
			TNode *c = &rt->t.data[w];
			ends |= c->role != TN_WIRE;
			if (c->role != TN_REG) {
				c->a = x->a + c->d;
				vec_push(&rt->stack, w);
			}
		}
		if (ends)
			vec_push(&rt->cand, x->a);
	}
}

static int cmp64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
	return x < y ? -1 : x > y;
}

/* The stretches the tree can have, up to now (included), sorted, once each. */
static void candidates(Retimer *rt, int64_t now)
{
	rt->cand.len = 0;
	walk_from(rt, 0, rt->src);
	for (int s = 1; s < rt->t.len; s++) {
		const TNode *n = &rt->t.data[s];
		if (n->role == TN_REG)
			walk_from(rt, s, 0);
		else if (n->role == TN_SITE)
			walk_from(rt, s, n->d);
	}
	vec_push(&rt->cand, now);
	qsort(rt->cand.data, (size_t)rt->cand.len, sizeof *rt->cand.data, cmp64);
	int k = 0;
	vec_foreach(&rt->cand, i)
		if (rt->cand.data[i] <= now && (k == 0 || rt->cand.data[i] != rt->cand.data[k - 1]))
			rt->cand.data[k++] = rt->cand.data[i];
	rt->cand.len = k;
}

/* The least feasible bound, now being feasible. */
static int64_t least_bound(Retimer *rt, int64_t now)
{
	candidates(rt, now);
	int lo = 0, hi = rt->cand.len - 1;
	ALWAYS(rt->cand.data[hi] == now && feasible(rt, now));
	while (lo < hi) {
		int mid = lo + (hi - lo) / 2;
		if (feasible(rt, rt->cand.data[mid]))
			hi = mid;
		else
			lo = mid + 1;
	}
	return rt->cand.data[lo];
}

/* ---- choices and the rewritten tree ---- */

/* Site v's choice given its driver's arrival and count: the current one if
 * it meets best[][], else the other (which then does). */
static void choose_site(Retimer *rt, int v, int64_t D)
{
	TNode *n = &rt->t.data[v];
	const TNode *p = &rt->t.data[n->up];
	const int64_t *b = best_of(rt, v);
	int bypass = p->a + n->d <= b[p->k];
	int reg = p->k < rt->rmax && p->a <= D && n->d <= b[p->k + 1];
	n->pick = n->used ? reg : !bypass;
	ALWAYS(n->pick ? reg : bypass);
	n->k = p->k + n->pick;
	n->a = n->pick ? n->d : p->a + n->d;
}

/* Chooses every site top-down for D (best[][] filled for it); 1 if a
 * choice changed. */
static int choose(Retimer *rt, int64_t D)
{
	int changed = 0;
	rt->t.data[0].a = rt->src;
	rt->t.data[0].k = 0;
	for (int v = 1; v < rt->t.len; v++) {
		TNode *n = &rt->t.data[v];
		if (n->role == TN_GONE)
			continue;
		const TNode *p = &rt->t.data[n->up];
		if (n->role == TN_SITE) {
			choose_site(rt, v, D);
			changed |= n->pick != n->used;
		} else if (n->role == TN_REG) {
			n->a = 0;
			n->k = p->k + 1;
		} else {
			n->a = p->a + n->d;
			n->k = p->k;
		}
	}
	return changed;
}

static void push_edge(Retimer *rt, int from, int to)
{
	vec_push(&rt->edges, ((RtEdge){ from, to }));
}

/* The route's edges with the chosen sites: a site's edge (S -> M, or
 * S -> G and G -> M) becomes S -> M or S -> G, G -> M where M's was. */
static void rewrite(Retimer *rt, RtRoute *r)
{
	rt->edges.len = 0;
	for (int i = 0; i < r->nedges; i++) {
		const TNode *n = &rt->t.data[rt->local[r->edges[i].to]];
		if (n->role == TN_GONE)
			continue;
		if (n->role != TN_SITE) {
			vec_push(&rt->edges, r->edges[i]);
			continue;
		}
		int s = rt->t.data[n->up].node;
		if (n->pick) {
			push_edge(rt, s, n->reg);
			push_edge(rt, n->reg, n->node);
		} else
			push_edge(rt, s, n->node);
	}
	free(r->edges);
	r->edges = xmalloc((size_t)(rt->edges.len ? rt->edges.len : 1) * sizeof *r->edges);
	if (rt->edges.len)
		memcpy(r->edges, rt->edges.data, (size_t)rt->edges.len * sizeof *r->edges);
	r->nedges = rt->edges.len;
}

/* sink_regs and sink_delay as rt_route computes them: up from each sink. */
static void sink_timing(Retimer *rt, RtRoute *r)
{
	rt->drv[rt->net->source] = -1;
	for (int i = 0; i < r->nedges; i++)
		rt->drv[r->edges[i].to] = r->edges[i].from;
	for (int j = 0; j < rt->net->nsinks; j++) {
		int regs = 0;
		double delay = 0;
		for (int v = rt->net->sinks[j].node; v >= 0; v = rt->drv[v]) {
			if (rt->is_reg[v])
				regs++;
			else if (regs == 0)
				delay += rt->g->nodes[v].delay;
		}
		r->sink_regs[j] = regs;
		r->sink_delay[j] = delay;
	}
}

/* ---- nets ---- */

/* Retimes one net (set_net first); its longest stretch after, or NEG if
 * its route is not a valid tree. Adds the change of its node count to
 * *nodes. */
static int64_t retime_net(Retimer *rt, RtRoute *r, int *nodes)
{
	int64_t res = NEG;
	if (read_tree(rt, r)) {
		int64_t now = route_stretch(rt, r->edges, r->nedges);
		res = now;
		find_sites(rt);
		if (rt->nsites && rt->rmax > 0) {
			link_children(rt);
			vec_reserve(&rt->best, rt->t.len * (rt->rmax + 1));
			int64_t D = least_bound(rt, now);
			feasible(rt, D);
			if (choose(rt, D)) {
				*nodes -= r->nedges;
				rewrite(rt, r);
				*nodes += r->nedges;
				sink_timing(rt, r);
				memcpy(rt->kcur.data, r->sink_regs, (size_t)rt->net->nsinks * sizeof *r->sink_regs);
				res = route_stretch(rt, r->edges, r->nedges);
				ALWAYS(res <= D && res <= now);
			}
		}
	}
	clear_local(rt);
	return res;
}

static void retimer_init(Retimer *rt, const RGraph *g)
{
	memset(rt, 0, sizeof *rt);
	rt->g = g;
	size_t n = (size_t)(g->nnodes ? g->nnodes : 1);
	rt->is_reg = xmalloc(n);
	rt->local = xmalloc(n * sizeof *rt->local);
	rt->drv = xmalloc(n * sizeof *rt->drv);
	rt->at = xmalloc(n * sizeof *rt->at);
	for (int v = 0; v < g->nnodes; v++) {
		rt->is_reg[v] = !strcmp(g->nodes[v].kind, "reg");
		rt->local[v] = -1;
	}
}

static void retimer_free(Retimer *rt)
{
	free(rt->is_reg);
	free(rt->local);
	free(rt->drv);
	free(rt->at);
	vec_free(&rt->after);
	vec_free(&rt->kcur);
	vec_free(&rt->t);
	vec_free(&rt->best);
	vec_free(&rt->cand);
	vec_free(&rt->stack);
	vec_free(&rt->edges);
}

double rt_retime(const RGraph *g, const RtNet *nets, int nnets, const double *src_arrival,
		 const double *const *sink_after, RtResult *r)
{
	Retimer rt;
	int64_t worst = NEG;
	retimer_init(&rt, g);
	for (int i = 0; i < nnets && i < r->nnets; i++) {
		set_net(&rt, &nets[i], src_arrival ? src_arrival[i] : 0, sink_after ? sink_after[i] : NULL);
		worst = max64(worst, retime_net(&rt, &r->routes[i], &r->nodes_used));
	}
	retimer_free(&rt);
	return worst == NEG ? 0 : (double)worst / TICKS_PER_NS;
}
