/* verif_conn.c - the connectivity bench (see verif_conn.h).
 *
 * Each configuration sets every multiplexer of the array. Its routes are
 * trees: each grows from a source the bench can drive (an IO tile's input
 * io_in_x<X>_<w>; a PE output, by the PE's own `const`/`const1` rule with the
 * value in the rule's constant field; a memory output, which an unconfigured
 * memory passes through from its chain input, lake/COLLATERAL.md) and takes
 * a multiplexer into the tree by selecting a node of the tree. Trees first
 * take edges not yet exercised, then edges that lead to such edges; a
 * multiplexer never takes a tree's value when another of its inputs carries
 * the same value at the same register depth, so each select shows. Every
 * multiplexer no tree takes selects an input that is 0 (the inputs at the
 * edge of the array that nothing drives, and whatever they reach; a bypass
 * multiplexer its register), so the configured graph is a forest and no
 * loop closes.
 *
 * The bench drives each tree with its own value in each phase (trees of 8
 * bits or more two random values, narrower ones digits of distinct codes, so
 * that each value changes at least once), steps
 * until every register has taken it and checks every probed node and output
 * after each cycle against the model of the configured graph (verif_model.h):
 * a tree's value where the tree runs, 0 elsewhere. An edge is exercised when
 * its multiplexer selects it and a check sees a driven (non-zero) value
 * there; an edge from an input nothing drives, when its multiplexer selects
 * it while another input carries a value. */
#define _POSIX_C_SOURCE 200809L

#include "verif_conn.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../collateral/bitstream.h"
#include "../common/bv.h"
#include "../common/rng.h"
#include "../common/util.h"
#include "../common/vec.h"
#include "verif_model.h"

#define MAX_CONFIGS 500
#define MAX_ROUNDS 16
#define WIDE 8                  /* trees at least this wide take two random values */

typedef enum { K_SB_IN, K_SB_OUT, K_REG, K_RMUX, K_PORT_IN, K_PORT_OUT, K_OTHER } Kind;
typedef enum { S_UNSET, S_TREE, S_QUIET, S_UNKNOWN } State;

/* A tree of a configuration: its source node and its value in each phase. */
typedef struct Tree {
	int root;
	int width;
	uint64_t *value;        /* per phase */
} Tree;

/* A top-level output and the node it shows. */
typedef struct IoOut {
	const char *name;
	int node;
} IoOut;

typedef struct Conn {
	const Chip *chip;
	const RGraph *g;
	const VerifConnOptions *opt;
	Arena *a;
	Rng rng;
	int n;
	/* the graph as the bench sees it */
	char *kind;
	char *dead;             /* an input nothing drives: constant 0 */
	int *pass;              /* a memory output: the chain input it passes, or -1 */
	int *passed;            /* a chain input: the memory output passing it, or -1 */
	const PeRule **rule;    /* a PE output: the rule driving it with a constant */
	const char **input;     /* an IO tile's data: its top-level input */
	int *ebase;             /* edge in[i] -> v has id ebase[v] + i */
	int nedges;
	char *covered;
	IoOut *outs;
	int nouts;
	/* one configuration */
	char *state;
	int *tree, *dep, *sel;
	int *dist, *parent, *path;     /* the search for targets */
	int *queue, qhead, qtail;
	VEC(Tree) trees;
	int phases;
	/* the outputs: the command file (the set's marker) and the bitstreams,
	 * renamed into place together when the bench is complete */
	OutSet *out;
	FILE *cmd;
	long t;                 /* cycles since the configuration's reset */
	char *exp_known;        /* per probe and output: the expectation the harness holds */
	uint64_t *exp_value;
	char *lit;              /* per node: a check saw a driven value there */
	long checks, compared, lines;
} Conn;

/* ---- the graph ---- */

static Kind kind_of(const char *s)
{
	static const char *const names[] = { "sb_in", "sb_out", "reg", "rmux", "port_in", "port_out" };
	for (int k = 0; k < K_OTHER; k++)
		if (strcmp(s, names[k]) == 0)
			return (Kind)k;
	return K_OTHER;
}

static const RNode *node(const Conn *c, int n)
{
	return &c->g->nodes[n];
}

static int is_mux(const Conn *c, int n)
{
	return node(c, n)->nin > 1;
}

static int is_reg(const Conn *c, int n)
{
	return c->kind[n] == K_REG;
}

/* x<X>_y<Y>_<port> -> <port> */
static const char *port_name(const Conn *c, int n)
{
	const RNode *nd = node(c, n);
	return nd->name + strlen(arena_printf(c->a, "x%d_y%d_", nd->x, nd->y));
}

/* The rule driving PE output port p with its constant: the IR's constant
 * operations const and const1 (out = k, peak/ir/ops.yaml), one param, the
 * output bound to p. */
static const PeRule *const_rule(const PeInfo *pe, int p)
{
	for (int i = 0; i < pe->nrules; i++) {
		const PeRule *r = &pe->rules[i];
		if ((strcmp(r->ir, "const") && strcmp(r->ir, "const1")) || r->ninputs || r->nparams != 1 ||
		    r->noutputs != 1 || r->outputs[0].index != p || !r->proved)
			continue;
		if (pe->fields[r->params[0].index].width >= pe->outputs[p].width)
			return r;
	}
	return NULL;
}

static void classify_output(Conn *c, int n)
{
	const RNode *nd = node(c, n);
	const char *port = port_name(c, n);
	char tile = design_tile(c->chip->m, nd->x, nd->y);
	if (tile == 'I') {
		c->input[n] = arena_printf(c->a, "io_in_x%d_%d", nd->x, nd->width);
	} else if (tile == 'P') {
		int p = peinfo_output(c->chip->pe_info, port);
		c->rule[n] = p >= 0 ? const_rule(c->chip->pe_info, p) : NULL;
		if (configmap_find(c->chip->map, arena_printf(c->a, "x%d_y%d.inst0", nd->x, nd->y)) < 0)
			c->rule[n] = NULL;
	} else if (tile == 'M' && c->chip->mem_info && c->chip->mem_info->chain) {
		const MemInfo *mi = c->chip->mem_info;
		for (int i = 0; i < mi->nouts; i++) {
			const char *chain = NULL;
			if (strcmp(port, mi->outs[i]) == 0)
				chain = arena_printf(c->a, "x%d_y%d_%s_chain_in", nd->x, nd->y, mi->outs[i]);
			else if (strcmp(port, arena_printf(c->a, "%s_valid", mi->outs[i])) == 0)
				chain = arena_printf(c->a, "x%d_y%d_%s_chain_valid_in", nd->x, nd->y, mi->outs[i]);
			int in = chain ? rgraph_find(c->g, chain) : -1;
			if (in >= 0 && node(c, in)->width == nd->width) {
				c->pass[n] = in;
				c->passed[in] = n;
			}
		}
	}
}

static void collect_outputs(Conn *c)
{
	c->outs = arena_alloc(c->a, (size_t)(c->chip->m->cols * c->chip->m->nwidths + 1) * sizeof(IoOut));
	for (int x = 0; x < c->chip->m->cols; x++)
		for (int wi = 0; wi < c->chip->m->nwidths; wi++) {
			int n = rgraph_find(c->g, arena_printf(c->a, "x%d_y0_f2io_%d", x, c->chip->m->widths[wi]));
			if (n >= 0)
				c->outs[c->nouts++] = (IoOut){ arena_printf(c->a, "io_out_x%d_%d", x, c->chip->m->widths[wi]), n };
		}
}

static void setup(Conn *c)
{
	int n = c->n = c->g->nnodes;
	size_t sz = (size_t)n + 1;
	c->kind = xcalloc(sz, 1);
	c->dead = xcalloc(sz, 1);
	c->pass = xcalloc(sz, sizeof(int));
	c->passed = xcalloc(sz, sizeof(int));
	c->rule = xcalloc(sz, sizeof(PeRule *));
	c->input = xcalloc(sz, sizeof(char *));
	c->ebase = xcalloc(sz, sizeof(int));
	for (int i = 0; i < n; i++) {
		c->kind[i] = (char)kind_of(node(c, i)->kind);
		c->pass[i] = c->passed[i] = -1;
		c->ebase[i] = c->nedges;
		c->nedges += node(c, i)->nin;
	}
	for (int i = 0; i < n; i++) {
		if (c->kind[i] == K_PORT_OUT)
			classify_output(c, i);
		c->dead[i] = node(c, i)->nin == 0 && c->kind[i] != K_PORT_OUT;
	}
	c->covered = xcalloc((size_t)c->nedges + 1, 1);
	c->state = xcalloc(sz, 1);
	c->tree = xcalloc(sz, sizeof(int));
	c->dep = xcalloc(sz, sizeof(int));
	c->sel = xcalloc(sz, sizeof(int));
	c->dist = xcalloc(sz, sizeof(int));
	c->parent = xcalloc(sz, sizeof(int));
	c->path = xcalloc(sz, sizeof(int));
	c->queue = xcalloc(sz, sizeof(int));
	c->lit = xcalloc(sz, 1);
	collect_outputs(c);
	c->exp_known = xcalloc((size_t)(n + c->nouts + 1), 1);
	c->exp_value = xcalloc((size_t)(n + c->nouts + 1), sizeof(uint64_t));
}

static void teardown(Conn *c)
{
	free(c->kind);
	free(c->dead);
	free(c->pass);
	free(c->passed);
	free(c->rule);
	free(c->input);
	free(c->ebase);
	free(c->covered);
	free(c->state);
	free(c->tree);
	free(c->dep);
	free(c->sel);
	free(c->dist);
	free(c->parent);
	free(c->path);
	free(c->queue);
	free(c->lit);
	free(c->exp_known);
	free(c->exp_value);
	vec_free(&c->trees);
}

/* ---- a configuration: trees ---- */

static void push(Conn *c, int n)
{
	c->queue[c->qtail++ % c->n] = n;
}

/* The nodes that follow n without a choice, one per call with *k from 0,
 * then -1: each node whose only input is n, then the memory output passing
 * n. */
static int follower(const Conn *c, int n, int *k)
{
	const RNode *nd = node(c, n);
	while (*k < nd->nout) {
		int o = nd->out[(*k)++];
		if (node(c, o)->nin == 1)
			return o;
	}
	return (*k)++ == nd->nout ? c->passed[n] : -1;
}

/* Node a carries tree t at depth d: the same value at every cycle. */
static int same(const Conn *c, int a, int t, int d)
{
	return c->state[a] == S_TREE && c->tree[a] == t && c->dep[a] == d;
}

/* Node n (and the nodes that follow it) may carry tree t at depth d: no
 * multiplexer it feeds selects another input with that value. */
static int fits(const Conn *c, int n, int t, int d)
{
	const RNode *nd = node(c, n);
	for (int i = 0; i < nd->nout; i++) {
		int o = nd->out[i];
		if (c->sel[o] >= 0 && node(c, o)->in[c->sel[o]] != n && same(c, node(c, o)->in[c->sel[o]], t, d))
			return 0;
		for (int j = 0; c->sel[o] < 0 && is_mux(c, o) && j < node(c, o)->nin; j++) {
			int w = node(c, o)->in[j];
			if (w != n && same(c, w, t, d) && (c->kind[o] == K_PORT_IN || (c->pass[n] >= 0 && c->pass[w] >= 0)))
				return 0;       /* two inputs o could never tell apart */
		}
	}
	for (int k = 0, f; (f = follower(c, n, &k)) >= 0;)
		if (!fits(c, f, t, d + is_reg(c, f)))
			return 0;
	return 1;
}

/* n and the nodes that follow it take state s (tree t at depth d); queued. */
static void join(Conn *c, int n, State s, int t, int d)
{
	c->state[n] = (char)s;
	c->tree[n] = t;
	c->dep[n] = d;
	push(c, n);
	for (int k = 0, f; (f = follower(c, n, &k)) >= 0;)
		if (c->state[f] == S_UNSET)
			join(c, f, s, t, d + is_reg(c, f));
}

/* Multiplexer v may take input i's tree. */
static int can_select(const Conn *c, int v, int i)
{
	const RNode *nd = node(c, v);
	int u = nd->in[i];
	if (c->state[u] != S_TREE)
		return 0;
	for (int j = 0; j < nd->nin; j++)
		if (j != i && same(c, nd->in[j], c->tree[u], c->dep[u]))
			return 0;
	return fits(c, v, c->tree[u], c->dep[u] + is_reg(c, v));
}

static void select_input(Conn *c, int v, int i)
{
	int u = node(c, v)->in[i];
	c->sel[v] = i;
	join(c, v, (State)c->state[u], c->tree[u], c->dep[u] + is_reg(c, v));
}

/* Input i of multiplexer v is a memory output whose chain input is unset:
 * the chain input takes a tree input that keeps v's inputs apart, then v
 * takes the memory output; 1 if it did. */
static int feed_memory(Conn *c, int v, int i)
{
	int m = node(c, v)->in[i], ci = c->pass[m];
	if (ci < 0 || c->state[ci] != S_UNSET)
		return 0;
	const RNode *cn = node(c, ci);
	for (int r = 0; r < cn->nin; r++) {
		int u = cn->in[r], apart = 1;
		if (c->state[u] != S_TREE || !can_select(c, ci, r))
			continue;
		for (int j = 0; j < node(c, v)->nin; j++)
			apart &= j == i || !same(c, node(c, v)->in[j], c->tree[u], c->dep[u]);
		if (!apart)
			continue;
		select_input(c, ci, r);
		if (can_select(c, v, i)) {
			select_input(c, v, i);
			return 1;
		}
		return 0;
	}
	return 0;
}

/* Multiplexer v, reached by a tree: an input whose edge is still to be
 * exercised, a driven one first (a memory output fed through its chain
 * input if need be), else an undriven one (another input shows the
 * select). */
static void offer(Conn *c, int v)
{
	const RNode *nd = node(c, v);
	for (int i = 0; i < nd->nin; i++)
		if (!c->covered[c->ebase[v] + i] && can_select(c, v, i)) {
			select_input(c, v, i);
			return;
		}
	for (int i = 0; i < nd->nin; i++)
		if (!c->covered[c->ebase[v] + i] && feed_memory(c, v, i))
			return;
	for (int i = 0; i < nd->nin; i++)
		if (!c->covered[c->ebase[v] + i] && c->dead[nd->in[i]]) {
			c->sel[v] = i;
			join(c, v, S_QUIET, -1, 0);
			return;
		}
}

/* Trees take every edge still to be exercised they reach, connection
 * boxes first (they have the most inputs). */
static int grow(Conn *c)
{
	int joined = 0;
	while (c->qhead < c->qtail) {
		int u = c->queue[c->qhead++ % c->n];
		if (c->state[u] != S_TREE)
			continue;
		for (int boxes = 1; boxes >= 0; boxes--)
			for (int k = 0; k < node(c, u)->nout; k++) {
				int v = node(c, u)->out[k];
				if ((c->kind[v] == K_PORT_IN) == boxes && c->state[v] == S_UNSET && is_mux(c, v)) {
					offer(c, v);
					joined += c->state[v] != S_UNSET;
				}
			}
	}
	c->qhead = c->qtail = 0;
	return joined;
}

/* Every tree node queued again. */
static void requeue_trees(Conn *c)
{
	for (int n = 0; n < c->n; n++)
		if (c->state[n] == S_TREE)
			push(c, n);
}

/* Distances from the trees through unset nodes (a multiplexer by selecting,
 * a node that follows its input without a choice), with parents. */
static void search(Conn *c)
{
	for (int n = 0; n < c->n; n++) {
		c->dist[n] = c->state[n] == S_TREE ? 0 : -1;
		c->parent[n] = -1;
		if (c->state[n] == S_TREE)
			c->queue[c->qtail++] = n;
	}
	while (c->qhead < c->qtail) {
		int u = c->queue[c->qhead++];
		for (int k = 0; k < node(c, u)->nout; k++) {
			int v = node(c, u)->out[k];
			if (c->state[v] == S_UNSET && c->dist[v] < 0) {
				c->dist[v] = c->dist[u] + 1;
				c->parent[v] = u;
				c->queue[c->qtail++] = v;
			}
		}
		int v = c->passed[u];
		if (v >= 0 && c->state[v] == S_UNSET && c->dist[v] < 0) {
			c->dist[v] = c->dist[u] + 1;
			c->parent[v] = u;
			c->queue[c->qtail++] = v;
		}
	}
	c->qhead = c->qtail = 0;
}

/* The input by which multiplexer x can take the tree of node p: p itself,
 * or a register after p (another register depth may keep x's fan-out
 * apart); -1 if neither. */
static int via(const Conn *c, int x, int p)
{
	const RNode *nd = node(c, x);
	for (int i = 0; i < nd->nin; i++)
		if (nd->in[i] == p && can_select(c, x, i))
			return i;
	for (int i = 0; i < nd->nin; i++) {
		const RNode *r = node(c, nd->in[i]);
		if (r->nin == 1 && r->in[0] == p && can_select(c, x, i))
			return i;
	}
	return -1;
}

/* Brings a tree to node w along the search's parents; 1 if w is then on a
 * tree. */
static int connect(Conn *c, int w)
{
	int len = 0;
	for (int x = w; x >= 0 && c->state[x] == S_UNSET; x = c->parent[x])
		c->path[len++] = x;
	for (int k = len - 1; k >= 0; k--) {
		int x = c->path[k], i;
		if (c->state[x] != S_UNSET)
			continue;               /* joined with the node before it */
		if (!is_mux(c, x) || (i = via(c, x, c->parent[x])) < 0)
			return 0;
		select_input(c, x, i);
	}
	return c->state[w] == S_TREE;
}

typedef struct Target {
	int dist, v, take;      /* multiplexer v is to select input take */
	int reach;              /* the node a tree must reach first */
	int chain;              /* take a memory output: the input its chain input selects, else -1 */
	int forced;             /* v cannot tell take from another input: selected all the same */
} Target;

static int by_dist(const void *a, const void *b)
{
	const Target *x = a, *y = b;
	if (x->dist != y->dist)
		return x->dist - y->dist;
	return x->v != y->v ? x->v - y->v : x->take - y->take;
}

static int is_input_of(const Conn *c, int x, int v)
{
	for (int i = 0; i < node(c, v)->nin; i++)
		if (node(c, v)->in[i] == x)
			return 1;
	return 0;
}

static void consider(Target *best, int dist, int v, int take, int reach, int chain, int forced)
{
	if (dist >= 0 && (best->dist < 0 || dist < best->dist))
		*best = (Target){ dist, v, take, reach, chain, forced };
}

/* The nearest way to exercise an edge of unset multiplexer v still to be
 * exercised: a tree reaches its input; for an undriven input, another
 * input; for an unset memory output, an input of its chain input that is
 * not an input of v (it would carry the same value), or if every live one
 * is (a single track at the array's edge), one that is, the select then
 * forced. */
static Target target_of(const Conn *c, int v)
{
	const RNode *nd = node(c, v);
	Target best = { -1, v, -1, -1, -1, 0 };
	for (int i = 0; i < nd->nin; i++) {
		int u = nd->in[i], ci = c->pass[u];
		if (c->covered[c->ebase[v] + i])
			continue;
		if (c->dead[u]) {
			for (int r = 0; r < nd->nin; r++)
				if (!c->dead[nd->in[r]])
					consider(&best, c->dist[nd->in[r]], v, i, nd->in[r], -1, 0);
		} else if (ci >= 0 && c->state[ci] == S_UNSET) {
			for (int r = 0; r < node(c, ci)->nin; r++) {
				int x = node(c, ci)->in[r], twin = is_input_of(c, x, v);
				if (c->dist[x] >= 0)
					consider(&best, c->dist[x] + 1 + (twin ? c->n : 0), v, i, x, r, twin);
			}
		} else {
			consider(&best, c->dist[u], v, i, u, -1, 0);
		}
	}
	return best;
}

/* Brings a tree to the target's multiplexer; 1 if it then exercises the
 * target's edge. */
static int apply_target(Conn *c, const Target *t)
{
	int v = t->v, u = node(c, v)->in[t->take];
	if (c->state[v] != S_UNSET || !connect(c, t->reach) || c->state[v] != S_UNSET)
		return 0;
	if (t->chain >= 0) {
		int ci = c->pass[u];
		if (c->state[ci] != S_UNSET || (!t->forced && !can_select(c, ci, t->chain)))
			return 0;
		select_input(c, ci, t->chain);
	}
	if (c->dead[u]) {
		c->sel[v] = t->take;
		join(c, v, S_QUIET, -1, 0);
		return 1;
	}
	if (!t->forced && !can_select(c, v, t->take))
		return 0;
	select_input(c, v, t->take);
	return 1;
}

/* Trees extended towards edges still to be exercised, nearest first; with
 * one_by_one, each from a search of its own (slower, for the last edges). */
static int reach_targets(Conn *c, int one_by_one)
{
	Target *t = xcalloc((size_t)c->n + 1, sizeof *t);
	int n = 0, done = 0;
	search(c);
	for (int v = 0; v < c->n; v++)
		if (c->state[v] == S_UNSET && is_mux(c, v) && (t[n] = target_of(c, v)).dist >= 0)
			n++;
	qsort(t, (size_t)n, sizeof *t, by_dist);
	for (int k = 0; k < n; k++) {
		if (one_by_one && k) {
			search(c);
			t[k] = target_of(c, t[k].v);
			if (t[k].dist < 0)
				continue;
		}
		done += apply_target(c, &t[k]);
	}
	c->qhead = c->qtail = 0;
	free(t);
	return done;
}

/* Multiplexers with an unexercised edge from an undriven input take it
 * while another input carries a value. */
static void take_dead_edges(Conn *c)
{
	for (int v = 0; v < c->n; v++) {
		const RNode *nd = node(c, v);
		if (c->state[v] != S_UNSET || !is_mux(c, v))
			continue;
		int dead = -1, lit = 0;
		for (int i = 0; i < nd->nin; i++) {
			if (c->dead[nd->in[i]] && !c->covered[c->ebase[v] + i] && dead < 0)
				dead = i;
			lit |= c->state[nd->in[i]] == S_TREE;
		}
		if (dead >= 0 && lit) {
			c->sel[v] = dead;
			join(c, v, S_QUIET, -1, 0);
		}
	}
	c->qhead = c->qtail = 0;
}

/* The input an unset multiplexer takes to be 0: a register (a bypass
 * multiplexer's), else the first quiet one; -1 if none is quiet. */
static int quiet_input(const Conn *c, int v)
{
	int best = -1;
	for (int i = 0; i < node(c, v)->nin; i++) {
		int u = node(c, v)->in[i];
		if (c->state[u] == S_QUIET && (best < 0 || is_reg(c, u)))
			best = i;
	}
	return best;
}

/* Everything else 0: a search out from the quiet nodes. */
static void ground(Conn *c)
{
	for (int n = 0; n < c->n; n++)
		if (c->state[n] == S_QUIET)
			push(c, n);
	while (c->qhead < c->qtail) {
		int u = c->queue[c->qhead++ % c->n];
		for (int k = 0; k < node(c, u)->nout; k++) {
			int v = node(c, u)->out[k];
			int i = c->state[v] == S_UNSET && is_mux(c, v) ? quiet_input(c, v) : -1;
			if (i >= 0) {
				c->sel[v] = i;
				join(c, v, S_QUIET, -1, 0);
			}
		}
	}
	c->qhead = c->qtail = 0;
}

/* Multiplexers no quiet node reaches (every input on a tree): a tree's
 * value, one that keeps other multiplexers' inputs apart if there is one. */
static void settle_rest(Conn *c)
{
	for (int changed = 1; changed;) {
		changed = 0;
		for (int v = 0; v < c->n; v++) {
			if (c->state[v] != S_UNSET || !is_mux(c, v))
				continue;
			int best = -1;
			for (int i = 0; i < node(c, v)->nin && best < 0; i++)
				if (can_select(c, v, i))
					best = i;
			for (int i = 0; i < node(c, v)->nin && best < 0; i++)
				if (c->state[node(c, v)->in[i]] != S_UNSET)
					best = i;
			if (best >= 0) {
				int u = node(c, v)->in[best];
				c->sel[v] = best;
				join(c, v, (State)c->state[u], c->tree[u], c->dep[u] + is_reg(c, v));
				changed = 1;
			}
		}
		c->qhead = c->qtail = 0;
	}
	for (int v = 0; v < c->n; v++)
		if (c->state[v] == S_UNSET)
			ICE("node %s is left without a driver", node(c, v)->name);
}

/* The edges out of n still to be exercised. */
static int open_edges(const Conn *c, int n)
{
	int open = 0;
	for (int k = 0; k < node(c, n)->nout; k++) {
		int o = node(c, n)->out[k];
		open += !c->covered[c->ebase[o] + rgraph_select(c->g, n, o)];
	}
	return open;
}

/* Each PE drives the output with the most edges still to be exercised (ties
 * alternate between configurations); its other outputs are unknown. */
static void choose_pe_sources(Conn *c, int cfg)
{
	const Chip *chip = c->chip;
	int ntiles = chip->m->cols * chip->m->rows;
	int *best = xcalloc((size_t)ntiles, sizeof(int)), *most = xcalloc((size_t)ntiles, sizeof(int));
	for (int t = 0; t < ntiles; t++)
		best[t] = -1;
	for (int n = 0; n < c->n; n++) {
		if (!c->rule[n])
			continue;
		int t = node(c, n)->y * chip->m->cols + node(c, n)->x, open = open_edges(c, n);
		if (best[t] < 0 || open > most[t] || (open == most[t] && (cfg + t) % 2 == 0))
			best[t] = n, most[t] = open;
		c->state[n] = S_UNKNOWN;
	}
	for (int t = 0; t < ntiles; t++)
		if (best[t] >= 0)
			c->state[best[t]] = S_UNSET;
	free(best);
	free(most);
}

static void new_tree(Conn *c, int root)
{
	Tree t = { root, node(c, root)->width, NULL };
	vec_push(&c->trees, t);
	join(c, root, S_TREE, c->trees.len - 1, 0);
}

/* The trees of configuration cfg and the select of every multiplexer:
 * trees take the edges they reach, then are extended towards the others
 * (targets_first: extended towards each first, for the last few edges that
 * greedy growth keeps taking from them). */
static void build_config(Conn *c, int cfg, int targets_first)
{
	for (int i = 0; i < c->trees.len; i++)
		free(c->trees.data[i].value);
	c->trees.len = 0;
	memset(c->state, S_UNSET, (size_t)c->n);
	for (int n = 0; n < c->n; n++)
		c->sel[n] = -1;
	c->qhead = c->qtail = 0;
	for (int n = 0; n < c->n; n++)
		if (c->kind[n] == K_PORT_OUT && !c->input[n] && !c->rule[n] && c->pass[n] < 0)
			c->state[n] = S_UNKNOWN;
	choose_pe_sources(c, cfg);
	for (int n = 0; n < c->n; n++)
		if ((c->input[n] || c->rule[n]) && c->state[n] == S_UNSET)
			new_tree(c, n);
	for (int n = 0; n < c->n; n++)
		if (c->dead[n])
			join(c, n, S_QUIET, -1, 0);
	c->qhead = c->qtail = 0;
	if (targets_first)
		reach_targets(c, 1);
	requeue_trees(c);
	grow(c);
	for (int round = 0; round < MAX_ROUNDS && reach_targets(c, 0); round++) {
		requeue_trees(c);
		grow(c);
	}
	take_dead_edges(c);
	ground(c);
	settle_rest(c);
}

/* ---- values ---- */

/* Digits of width w of code k, phase by phase. */
static uint64_t digit(uint64_t k, int w, int p)
{
	return w >= 64 ? k : (k >> (w * p)) & bv_mask(w);
}

/* A code whose digits are not all equal (so its value changes between two
 * phases and is not 0 throughout). */
static int varied(uint64_t k, int w, int phases)
{
	for (int p = 1; p < phases; p++)
		if (digit(k, w, p) != digit(k, w, 0))
			return 1;
	return 0;
}

/* Phases enough for distinct varied codes for the narrow trees of each width. */
static int count_phases(const Conn *c)
{
	int phases = 2;
	for (int wi = 0; wi < c->chip->m->nwidths; wi++) {
		int w = c->chip->m->widths[wi], k = 0;
		if (w >= WIDE)
			continue;
		for (int i = 0; i < c->trees.len; i++)
			k += c->trees.data[i].width == w;
		while (w * phases < 62 && (1ULL << (w * phases)) - (1ULL << w) < (uint64_t)k)
			phases++;
	}
	return phases;
}

static int taken(const Conn *c, int upto, int w, int p, uint64_t v)
{
	for (int i = 0; i < upto; i++)
		if (c->trees.data[i].width == w && c->trees.data[i].value[p] == v)
			return 1;
	return 0;
}

/* Wide trees: distinct non-zero random values in phase 0 and from phase 1 on;
 * narrow trees: distinct varied codes, a digit per phase. */
static void assign_values(Conn *c)
{
	c->phases = count_phases(c);
	uint64_t next_code[DESIGN_MAX_WIDTHS] = { 0 };
	for (int i = 0; i < c->trees.len; i++) {
		Tree *t = &c->trees.data[i];
		t->value = xcalloc((size_t)c->phases, sizeof(uint64_t));
		if (t->width >= WIDE) {
			for (int p = 0; p < 2; p++)
				do
					t->value[p] = rng_bits(&c->rng, t->width);
				while (!t->value[p] || taken(c, i, t->width, p, t->value[p]) || (p && t->value[1] == t->value[0]));
			for (int p = 2; p < c->phases; p++)
				t->value[p] = t->value[1];
			continue;
		}
		int wi = 0;
		while (c->chip->m->widths[wi] != t->width)
			wi++;
		do
			next_code[wi]++;
		while (!varied(next_code[wi], t->width, c->phases));
		for (int p = 0; p < c->phases; p++)
			t->value[p] = digit(next_code[wi], t->width, p);
	}
}

/* ---- the model and the bitstream ---- */

static VerifModel *model_of(const Conn *c)
{
	VerifModel *m = verif_model_new(c->g);
	for (int n = 0; n < c->n; n++) {
		m->sel[n] = c->sel[n];
		if (c->pass[n] >= 0)
			m->drive[n] = VM_PASS, m->pass[n] = c->pass[n];
		else if (c->kind[n] == K_PORT_OUT)
			m->drive[n] = c->state[n] == S_TREE ? VM_SOURCE : VM_UNKNOWN;
	}
	if (verif_model_solve(m) != 0)
		ICE("the configuration closes a cycle");
	for (int n = 0; n < c->n; n++)
		if (c->state[n] == S_TREE &&
		    (m->root[n] != c->trees.data[c->tree[n]].root || m->depth[n] != c->dep[n]))
			ICE("the model and the construction disagree at %s", node(c, n)->name);
	return m;
}

/* The 32-bit registers inst0.. of PE output n's rule with value k. */
static void pe_registers(const Conn *c, int n, uint64_t k, uint32_t *regs, int nregs)
{
	const PeInfo *pe = c->chip->pe_info;
	uint64_t word[BITS_WORDS(PE_MAX_INST_WIDTH)];
	ALWAYS(peinfo_encode(pe, c->rule[n], &k, word));
	for (int r = 0; r < nregs; r++) {
		int w = pe->inst_width - 32 * r;
		regs[r] = (uint32_t)bits_get(word, 32 * r, w > 32 ? 32 : w);
	}
}

/* The config.map field of register r of the instruction of PE output n. */
static int pe_field(const Conn *c, int n, int r)
{
	int f = configmap_find(c->chip->map, arena_printf(c->a, "x%d_y%d.inst%d", node(c, n)->x, node(c, n)->y, r));
	if (f < 0)
		ICE("config.map has no register inst%d for the PE at %s", r, node(c, n)->name);
	return f;
}

static int pe_nregs(const Conn *c)
{
	return (c->chip->pe_info->inst_width + 31) / 32;
}

/* The bitstream of configuration cfg into the output set; its file name, or
 * NULL (message printed) if it cannot be written. */
static const char *write_bitstream(Conn *c, int cfg)
{
	Bitstream *b = bitstream_new(c->chip->map);
	for (int n = 0; n < c->n; n++)
		if (is_mux(c, n) && !bitstream_set(b, node(c, n)->name, (uint32_t)c->sel[n]))
			ICE("config.map has no field for the select of %s", node(c, n)->name);
	int nregs = pe_nregs(c);
	uint32_t regs[PE_MAX_INST_WIDTH / 32];
	for (int i = 0; i < c->trees.len; i++) {
		int n = c->trees.data[i].root;
		if (!c->rule[n])
			continue;
		pe_registers(c, n, c->trees.data[i].value[0], regs, nregs);
		for (int r = 0; r < nregs; r++)
			if (!bitstream_set(b, c->chip->map->fields[pe_field(c, n, r)].target, regs[r]))
				ICE("the register inst%d of the PE at %s does not take %08" PRIx32, r, node(c, n)->name, regs[r]);
	}
	const char *name = arena_printf(c->a, "cfg%03d.bs", cfg);
	char *path = util_path_join(c->opt->out, name);
	FILE *f = outset_open(c->out, path);
	free(path);
	if (f)
		bitstream_write(b, f);
	bitstream_free(b);
	return f ? name : NULL;
}

/* ---- the schedule: drive, step, check ---- */

static void emit(Conn *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* One line of the command file. */
static void emit(Conn *c, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vfprintf(c->cmd, fmt, ap);
	va_end(ap);
	fputc('\n', c->cmd);
	c->lines++;
}

static const char *hex(Conn *c, uint64_t v)
{
	return arena_printf(c->a, "0x%" PRIx64, v);
}

static void expect(Conn *c, int slot, const char *name, int known, uint64_t v)
{
	if (c->exp_known[slot] == known && (!known || c->exp_value[slot] == v))
		return;
	c->exp_known[slot] = (char)known;
	c->exp_value[slot] = v;
	emit(c, "expect %s %s", name, known ? hex(c, v) : "x");
}

/* Every probe and output at cycle c->t, as the model predicts. */
static void check(Conn *c, const VerifModel *m, const char *label)
{
	for (int n = 0; n < c->n; n++) {
		int known;
		uint64_t v = verif_model_value(m, n, c->t, &known);
		expect(c, n, node(c, n)->name, known, v);
		c->lit[n] |= known && v != 0;
	}
	for (int i = 0; i < c->nouts; i++) {
		int known;
		uint64_t v = verif_model_value(m, c->outs[i].node, c->t, &known);
		expect(c, c->n + i, c->outs[i].name, known, v);
	}
	emit(c, "check %s", label);
	c->checks++;
	c->compared += c->n + c->nouts;
}

/* The constant PE output n shows while its instruction registers hold regs:
 * its rule's param field (a field across two registers takes its new value
 * in two steps). */
static uint64_t param_value(const Conn *c, int n, const uint32_t *regs)
{
	const PeInstField *f = &c->chip->pe_info->fields[c->rule[n]->params[0].index];
	uint64_t v = 0;
	for (int b = f->width - 1; b >= 0; b--)
		v = v << 1 | (regs[(f->offset + b) / 32] >> ((f->offset + b) % 32) & 1);
	return v & bv_mask(node(c, n)->width);
}

/* Phase p's values: PE registers that change (a cycle each; the output
 * follows each write), then the IO inputs. */
static void drive_phase(Conn *c, VerifModel *m, int p)
{
	int nregs = pe_nregs(c);
	uint32_t old[PE_MAX_INST_WIDTH / 32], now[PE_MAX_INST_WIDTH / 32];
	for (int i = 0; i < c->trees.len; i++) {
		const Tree *t = &c->trees.data[i];
		if (!c->rule[t->root] || (p && t->value[p] == t->value[p - 1]))
			continue;
		if (!p) {
			verif_model_drive(m, t->root, c->t, t->value[p]);
			continue;
		}
		pe_registers(c, t->root, t->value[p - 1], old, nregs);
		pe_registers(c, t->root, t->value[p], now, nregs);
		for (int r = 0; r < nregs; r++)
			if (old[r] != now[r]) {
				const CfgField *f = &c->chip->map->fields[pe_field(c, t->root, r)];
				emit(c, "write %08" PRIx32 " %08" PRIx32, f->address, now[r] << f->lo);
				c->t++;
				old[r] = now[r];
				verif_model_drive(m, t->root, c->t, param_value(c, t->root, old));
			}
	}
	for (int i = 0; i < c->trees.len; i++) {
		const Tree *t = &c->trees.data[i];
		if (!c->input[t->root] || (p && t->value[p] == t->value[p - 1]))
			continue;
		emit(c, "set %s %s", c->input[t->root], hex(c, t->value[p]));
		verif_model_drive(m, t->root, c->t, t->value[p]);
	}
}

/* The command lines of configuration cfg: reset, the sources' first values,
 * the bitstream, cycles until every register holds them, a check; then for
 * each further phase the new values and a check after each cycle. */
static void schedule(Conn *c, int cfg, VerifModel *m, const char *bitstream)
{
	int depth = verif_model_max_depth(m);
	emit(c, "# configuration %d: %d trees, %d phases, register depth %d", cfg, c->trees.len, c->phases, depth);
	emit(c, "reset");
	c->t = 0;
	drive_phase(c, m, 0);
	emit(c, "bitstream %s", bitstream);
	int lines = 0;
	char *text = util_read_file(arena_printf(c->a, "%s/%s", c->opt->out, bitstream), NULL);
	for (char *s = text; s && *s; s++)
		lines += *s == '\n';
	free(text);
	c->t += lines;
	emit(c, "step %d", depth);
	c->t += depth;
	check(c, m, arena_printf(c->a, "configuration %d phase 0", cfg));
	for (int p = 1; p < c->phases; p++) {
		drive_phase(c, m, p);
		for (int k = 0; k <= depth; k++) {
			if (k) {
				emit(c, "step");
				c->t++;
			}
			check(c, m, arena_printf(c->a, "configuration %d phase %d cycle %d", cfg, p, k));
		}
	}
}

/* ---- coverage ---- */

typedef struct Tally {
	int driven, dead, distinguished, selects;
} Tally;

/* Input u of multiplexer v differs from input w at some check: another
 * source, 0 against a driven value, or the same source through another
 * number of registers (the values change between phases). */
static int differs(const VerifModel *m, int u, int w)
{
	int ru = m->root[u], rw = m->root[w];
	if (m->drive[rw] == VM_UNKNOWN)
		return 1;       /* not counted: see account() */
	return ru != rw || m->depth[u] != m->depth[w];
}

/* Marks the edges this configuration exercised; returns how many are new. */
static int account(Conn *c, const VerifModel *m, Tally *tally)
{
	int fresh = 0;
	for (int v = 0; v < c->n; v++) {
		const RNode *nd = node(c, v);
		int i = nd->nin == 1 ? 0 : c->sel[v];
		if (i < 0 || i >= nd->nin)
			continue;
		int u = nd->in[i], ok = c->lit[v], lit_other = 0, apart = 1;
		for (int j = 0; j < nd->nin; j++)
			if (j != i) {
				lit_other |= c->lit[nd->in[j]];
				apart &= differs(m, u, nd->in[j]);
			}
		if (c->dead[u])
			ok = lit_other;
		if (!ok)
			continue;
		if (!c->covered[c->ebase[v] + i]) {
			c->covered[c->ebase[v] + i] = 1;
			fresh++;
			if (c->dead[u])
				tally->dead++;
			else
				tally->driven++;
			if (!c->dead[u] && nd->nin > 1) {
				tally->selects++;
				tally->distinguished += apart;
			}
		}
	}
	return fresh;
}

static void report_uncovered(const Conn *c)
{
	int shown = 0, missing = 0;
	for (int v = 0; v < c->n; v++)
		for (int i = 0; i < node(c, v)->nin; i++)
			if (!c->covered[c->ebase[v] + i]) {
				if (shown++ < 10)
					printf("verif conn: not exercised: %s -> %s (select %d)\n", node(c, node(c, v)->in[i])->name,
					       node(c, v)->name, i);
				missing++;
			}
	if (missing > 10)
		printf("verif conn: ... and %d more edges not exercised\n", missing - 10);
}

/* ---- the run ---- */

static int open_out(Conn *c)
{
	if (util_mkdir_p(c->opt->out) != 0) {
		fprintf(stderr, "verif conn: cannot create %s\n", c->opt->out);
		return -1;
	}
	char *path = util_path_join(c->opt->out, "conn.cmd");
	c->out = outset_new();
	c->cmd = outset_open_marker(c->out, path);
	free(path);
	if (!c->cmd)
		return -1;
	fprintf(c->cmd, "# Generated by bin/verif conn; do not edit. The connectivity bench of %s\n"
			"# (verif/README.md): each configuration routes trees from driven sources, every\n"
			"# probe and output is checked against the model of the configured graph.\n"
			"expect-all 0\n",
		c->chip->m->name);
	memset(c->exp_known, 1, (size_t)(c->n + c->nouts));
	return 0;
}

/* One configuration; the number of edges it newly exercised, -1 if its
 * bitstream cannot be written. */
static int run_config(Conn *c, int cfg, int targets_first, Tally *tally)
{
	build_config(c, cfg, targets_first);
	assign_values(c);
	const char *bs = write_bitstream(c, cfg);
	if (!bs)
		return -1;
	VerifModel *m = model_of(c);
	memset(c->lit, 0, (size_t)c->n);
	schedule(c, cfg, m, bs);
	int fresh = account(c, m, tally);
	if (!c->opt->quiet)
		printf("verif conn: configuration %d: %d trees, %d phases, register depth %d: %d edges newly exercised\n",
		       cfg, c->trees.len, c->phases, verif_model_max_depth(m), fresh);
	verif_model_free(m);
	return fresh;
}

int verif_conn_run(const Chip *chip, const VerifConnOptions *opt)
{
	Conn c = { .chip = chip, .g = chip->graph, .opt = opt, .a = arena_new() };
	rng_seed(&c.rng, opt->seed);
	setup(&c);
	int status = open_out(&c), cfgs = 0, covered = 0, stalled = 0;
	Tally tally = { 0 };
	double t0 = util_now();
	while (status == 0 && covered < c.nedges && cfgs < MAX_CONFIGS) {
		int fresh = run_config(&c, ++cfgs, stalled, &tally);
		if (fresh < 0) {
			status = -1;
			break;
		}
		covered += fresh;
		if (!fresh && stalled)
			break;
		stalled = !fresh;
	}
	if (status == 0 && covered < c.nedges) {
		fprintf(stderr, "verif conn: %s: %d of %d edges exercised after %d configurations: the bench is "
			"incomplete, nothing written\n", chip->m->name, covered, c.nedges, cfgs);
		report_uncovered(&c);
		status = -1;
	}
	if (c.out && status == 0)
		status = outset_commit(c.out);  /* closes conn.cmd too */
	else if (c.out)
		outset_abort(c.out);
	if (status == 0)
		printf("verif conn: %s: %d configurations, %d of %d edges exercised (100.0%%): %d carrying a driven value, "
		       "%d from inputs nothing drives (their constant 0); %d of %d selects distinguished from every other "
		       "input the model knows; %d probes and %d outputs compared at %ld checks (%ld comparisons), %ld command "
		       "lines in %.2f s -> %s/conn.cmd\n",
		       chip->m->name, cfgs, c.nedges, c.nedges, tally.driven, tally.dead, tally.distinguished, tally.selects, c.n,
		       c.nouts, c.checks, c.compared, c.lines, util_now() - t0, opt->out);
	for (int i = 0; i < c.trees.len; i++)
		free(c.trees.data[i].value);
	teardown(&c);
	arena_free(c.a);
	return status;
}
