/* test_route.c - unit tests of compiler/route: the router on hand-written
 * graphs whose answers are worked out by hand (shortest paths, register
 * detours, a loop back through a node refused, fanout trees and the one
 * register count of each tree node, a negotiation between two nets with the
 * iteration it settles in, failure reports naming the sink or the shared
 * node and its nets, progress lines), and on the routing graphs of cgra_4x4
 * and cgra_8x8 (rtl_out/, generated if missing), where every result is
 * checked independently: trees connected from their sources over edges of
 * the graph, each sink's path with exactly its register count and the
 * delay after its last register, no node shared, no port passed through,
 * the same routes on a second run, paths as short as a plain Dijkstra
 * search finds on the uncongested graph, and every edge accepted by
 * bitstream_route on the chip's config.map. `-v` prints timings and routes
 * a few hundred nets on cgra_32x16 (if generated). */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../common/rng.h"
#include "../../common/tests/check.h"
#include "../../common/util.h"
#include "../route.h"

static int verbose;

/* ---- hand-written graphs ----
 * A description is lines "KIND NAME X Y" (a node) and "> A B C ..." (edges
 * A -> B -> C, each the next select of its target); delays follow canal. */

static double kind_delay(const char *kind)
{
	return !strcmp(kind, "sb_out") ? 0.14 : !strcmp(kind, "rmux") ? 0.03 : !strcmp(kind, "port_in") ? 0.10 : 0;
}

#define MAXN 64

typedef struct Names {
	char name[MAXN][16];
	int n, nin[MAXN];
} Names;

static int name_id(const Names *t, const char *s)
{
	for (int i = 0; i < t->n; i++)
		if (!strcmp(t->name[i], s))
			return i;
	printf("FAIL test graph: no node %s\n", s);
	exit(1);
}

static RGraph *tiny_graph(const char *desc)
{
	Names t = { .n = 0 };
	StrBuf b = { 0 };
	char *text = xstrdup(desc), *save = NULL;
	sb_printf(&b, "graph tiny cols 4 rows 4 widths 16\n");
	for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char kind[16], name[16];
		int x, y;
		if (line[0] == '>') {
			char *s2 = NULL, *prev = NULL;
			for (char *w = strtok_r(line + 1, " ", &s2); w; prev = w, w = strtok_r(NULL, " ", &s2))
				if (prev) {
					int from = name_id(&t, prev), to = name_id(&t, w);
					sb_printf(&b, "edge %d %d %d\n", from, to, t.nin[to]++);
				}
		} else if (sscanf(line, "%15s %15s %d %d", kind, name, &x, &y) == 4 && t.n < MAXN) {
			strcpy(t.name[t.n], name);
			sb_printf(&b, "node %d %s 16 %d %d - - %.2f %s\n", t.n, kind, x, y, kind_delay(kind), name);
			t.n++;
		}
	}
	Diags *d = diags_new(stdout);
	RGraph *g = rgraph_load_string("tiny", b.s, d);
	diags_free(d);
	free(text);
	free(b.s);
	return g;
}

/* Two ways from S (tile 0,0) to T (tile 2,0): east through b, one register
 * (ra); or south and round through f, h, j, two registers (re, rg). U hangs
 * off b. Z is connected to nothing. */
static const char graph_a[] = "port_out S 0 0\n"
			      "sb_out a 0 0\nreg ra 0 0\nrmux ma 0 0\n"
			      "sb_out e 0 0\nreg re 0 0\nrmux me 0 0\n"
			      "sb_in b 1 0\nsb_out c 1 0\nrmux mc 1 0\nport_in U 1 0\n"
			      "sb_in d 2 0\nsb_in k 2 0\nport_in T 2 0\n"
			      "sb_in f 0 1\nsb_out g 0 1\nreg rg 0 1\nrmux mg 0 1\n"
			      "sb_in h 1 1\nsb_out i 1 1\nrmux mi 1 1\n"
			      "sb_in j 2 1\nsb_out l 2 1\nrmux ml 2 1\n"
			      "port_in Z 3 3\n"
			      "> S a ma b c mc d T\n> a ra ma\n"
			      "> S e me f g mg h i mi j l ml k T\n> e re me\n> g rg mg\n"
			      "> b U\n";

/* Both nets' shortest way is through X (4 nodes); S1 has a detour of 6,
 * S2 one of 8: negotiation moves S1 off X in iteration 4 (X's cost
 * (1 + 0.6) * (1 + 1.6875) makes 7.3 > 6, while 5.975 < 6 in iteration 3). */
static const char graph_b[] = "port_out S1 0 0\nport_out S2 0 0\nport_in T1 0 0\nport_in T2 0 0\n"
			      "sb_out X 0 0\nsb_in p 0 0\nsb_in q 0 0\nsb_in r 0 0\nsb_in s 0 0\n"
			      "sb_in d1 0 0\nsb_in d2 0 0\nsb_in d3 0 0\nsb_in d4 0 0\nsb_in d5 0 0\n"
			      "sb_in e1 0 0\nsb_in e2 0 0\nsb_in e3 0 0\nsb_in e4 0 0\n"
			      "sb_in e5 0 0\nsb_in e6 0 0\nsb_in e7 0 0\n"
			      "> S1 p X q T1\n> S2 r X s T2\n"
			      "> S1 d1 d2 d3 d4 d5 T1\n> S2 e1 e2 e3 e4 e5 e6 e7 T2\n";

/* From x, a loop through the reg R comes back to x: the path S x R x T
 * would put x on the path twice, so one register takes the long way. */
static const char graph_d[] = "port_out S 0 0\nsb_out x 0 0\nreg R 0 0\nport_in T 0 0\n"
			      "sb_in y1 0 0\nsb_in y2 0 0\nreg Rb 0 0\nsb_in y3 0 0\n"
			      "> S x T\n> x R x\n> S y1 y2 Rb y3 T\n";

/* X is the only way for both nets. */
static const char graph_c[] = "port_out S1 0 0\nport_out S2 0 0\nsb_out X 0 0\nport_in T1 0 0\nport_in T2 0 0\n"
			      "> S1 X T1\n> S2 X T2\n";

/* ---- nets from text: "n1: S -> T/0 U/1; n2: ..." ---- */

#define MAXNETS 8
#define MAXSINKS 8

typedef struct NetSet {
	RtNet net[MAXNETS];
	RtSink sink[MAXNETS][MAXSINKS];
	char name[MAXNETS][16];
	int n;
} NetSet;

static int find_node(const RGraph *g, const char *name)
{
	int v = rgraph_find(g, name);
	if (v < 0) {
		printf("FAIL test nets: no node %s\n", name);
		exit(1);
	}
	return v;
}

static void parse_nets(const RGraph *g, const char *spec, NetSet *ns)
{
	char *text = xstrdup(spec), *save = NULL;
	memset(ns, 0, sizeof *ns);
	for (char *part = strtok_r(text, ";", &save); part && ns->n < MAXNETS; part = strtok_r(NULL, ";", &save)) {
		char *s2 = NULL, *name = strtok_r(part, ": ", &s2), *src = strtok_r(NULL, ": ->", &s2);
		int i = ns->n++;
		snprintf(ns->name[i], sizeof ns->name[i], "%s", name);
		ns->net[i] = (RtNet){ ns->name[i], find_node(g, src), ns->sink[i], 0 };
		for (char *w = strtok_r(NULL, " ->", &s2); w && ns->net[i].nsinks < MAXSINKS; w = strtok_r(NULL, " ", &s2)) {
			char *slash = strchr(w, '/');
			*slash = 0;
			ns->sink[i][ns->net[i].nsinks++] = (RtSink){ find_node(g, w), atoi(slash + 1) };
		}
	}
	free(text);
}

/* "from-to from-to ..." of a route. */
static char *tree_text(const RGraph *g, const RtRoute *r)
{
	StrBuf b = { 0 };
	sb_printf(&b, "%s", "");
	for (int i = 0; i < r->nedges; i++)
		sb_printf(&b, "%s%s-%s", i ? " " : "", g->nodes[r->edges[i].from].name, g->nodes[r->edges[i].to].name);
	return b.s;
}

/* "regs:delay ..." of a route's sinks. */
static char *sinks_text(const RtRoute *r, int nsinks)
{
	StrBuf b = { 0 };
	sb_printf(&b, "%s", "");
	for (int j = 0; j < nsinks; j++)
		sb_printf(&b, "%s%d:%.2f", j ? " " : "", r->sink_regs[j], r->sink_delay[j]);
	return b.s;
}

/* ---- known answers on hand-written graphs ---- */

typedef struct Case {
	const char *name, *graph, *nets;
	int max_iterations;     /* 0: the default */
	int ok;                 /* rt_route's answer */
	const char *trees;      /* per net, "|" between nets (the last iteration's on failure) */
	const char *sinks;      /* regs:delay per sink, "|" between nets */
	int iterations;
	const char *report;     /* expected report on failure */
} Case;

static const Case cases[] = {
	{ "shortest path", graph_a, "n: S -> T/0", 0, 1, "S-a a-ma ma-b b-c c-mc mc-d d-T", "0:0.44", 1, NULL },
	{ "one register on the short way", graph_a, "n: S -> T/1", 0, 1, "S-a a-ra ra-ma ma-b b-c c-mc mc-d d-T",
	  "1:0.30", 1, NULL },
	{ "two registers force the long way", graph_a, "n: S -> T/2", 0, 1,
	  "S-e e-re re-me me-f f-g g-rg rg-mg mg-h h-i i-mi mi-j j-l l-ml ml-k k-T", "2:0.47", 1, NULL },
	{ "three registers: no path", graph_a, "n: S -> T/3", 0, 0, NULL, NULL, 1,
	  "net 'n': no path from S to sink T with 3 registers\n" },
	{ "more registers than the graph has", graph_a, "n: S -> T/10", 0, 0, NULL, NULL, 0,
	  "net 'n': no path from S to sink T with 10 registers (the graph has 3)\n" },
	{ "disconnected sink", graph_a, "n: S -> T/0 Z/0", 0, 0, NULL, NULL, 1,
	  "net 'n': no path from S to sink Z with 0 registers\n" },
	{ "source not a port_out", graph_a, "n: U -> T/0", 0, 0, NULL, NULL, 0,
	  "net 'n': source 10 is not a port_out node\n" },
	{ "sink listed twice", graph_a, "n: S -> T/0 T/1", 0, 0, NULL, NULL, 0, "net 'n': sink T is listed twice\n" },
	{ "fanout, both without registers", graph_a, "n: S -> T/0 U/0", 0, 1,
	  "S-a a-ma ma-b b-c c-mc mc-d d-T b-U", "0:0.44 0:0.27", 1, NULL },
	{ "fanout branching after the register", graph_a, "n: S -> T/1 U/1", 0, 1,
	  "S-a a-ra ra-ma ma-b b-c c-mc mc-d d-T b-U", "1:0.30 1:0.13", 1, NULL },
	{ "fanout, a second branch from the source", graph_a, "n: S -> U/0 T/2", 0, 1,
	  "S-a a-ma ma-b b-U S-e e-re re-me me-f f-g g-rg rg-mg mg-h h-i i-mi mi-j j-l l-ml ml-k k-T",
	  "0:0.27 2:0.47", 1, NULL },
	{ "fanout: b holds one count only", graph_a, "n: S -> T/1 U/0", 0, 0, NULL, NULL, 1,
	  "net 'n': no path from S to sink U with 0 registers\n" },
	{ "negotiation", graph_b, "A: S1 -> T1/0; B: S2 -> T2/0", 0, 1,
	  "S1-d1 d1-d2 d2-d3 d3-d4 d4-d5 d5-T1|S2-r r-X X-s s-T2", "0:0.10|0:0.24", 4, NULL },
	{ "a loop back through x is refused", graph_d, "n: S -> T/1", 0, 1, "S-y1 y1-y2 y2-Rb Rb-y3 y3-T", "1:0.10", 1,
	  NULL },
	{ "without the register, through x", graph_d, "n: S -> T/0", 0, 1, "S-x x-T", "0:0.24", 1, NULL },
	{ "unroutable", graph_c, "n1: S1 -> T1/0; n2: S2 -> T2/0", 10, 0, "S1-X X-T1|S2-X X-T2", "0:0.24|0:0.24", 10,
	  "node X is used by 2 nets: n1, n2\nroute: 1 node over-used after 10 iterations\n" },
};

static void run_case(const Case *c)
{
	RGraph *g = tiny_graph(c->graph);
	if (!CHECK(g != NULL, "%s: the graph does not load", c->name))
		return;
	NetSet ns;
	parse_nets(g, c->nets, &ns);
	RtOptions o;
	rt_options_default(&o);
	if (c->max_iterations)
		o.max_iterations = c->max_iterations;
	RtResult r;
	int ok = rt_route(g, ns.net, ns.n, &o, &r);
	CHECK(ok == c->ok, "%s: rt_route returned %d", c->name, ok);
	CHECK(r.iterations == c->iterations, "%s: %d iterations, expected %d", c->name, r.iterations, c->iterations);
	if (c->report)
		CHECK(r.report && !strcmp(r.report, c->report), "%s: report\n%s\nexpected\n%s", c->name,
		      r.report ? r.report : "(none)", c->report);
	else
		CHECK(!r.report, "%s: a report on success: %s", c->name, r.report);
	if (c->trees && r.routes) {
		StrBuf trees = { 0 }, sinks = { 0 };
		for (int i = 0; i < ns.n; i++) {
			char *t = tree_text(g, &r.routes[i]), *s = sinks_text(&r.routes[i], ns.net[i].nsinks);
			sb_printf(&trees, "%s%s", i ? "|" : "", t);
			sb_printf(&sinks, "%s%s", i ? "|" : "", s);
			free(t);
			free(s);
		}
		CHECK(!strcmp(trees.s, c->trees), "%s: trees\n  %s\nexpected\n  %s", c->name, trees.s, c->trees);
		CHECK(!strcmp(sinks.s, c->sinks), "%s: sinks %s, expected %s", c->name, sinks.s, c->sinks);
		free(trees.s);
		free(sinks.s);
	}
	rt_result_free(&r);
	rgraph_free(g);
}

static void test_cases(void)
{
	for (int i = 0; i < COUNT(cases); i++)
		run_case(&cases[i]);
}

/* The progress lines of the negotiation: iterations 1 to 4, then the summary. */
static void test_progress(void)
{
	RGraph *g = tiny_graph(graph_b);
	NetSet ns;
	parse_nets(g, "A: S1 -> T1/0; B: S2 -> T2/0", &ns);
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	RtOptions o;
	rt_options_default(&o);
	o.progress = f;
	RtResult r;
	int ok = rt_route(g, ns.net, ns.n, &o, &r);
	fclose(f);
	static const char expect[] = "route: iteration 1: 1 over-used nodes, 2 nets rerouted\n"
				     "route: iteration 2: 1 over-used nodes, 2 nets rerouted\n"
				     "route: iteration 3: 1 over-used nodes, 2 nets rerouted\n"
				     "route: iteration 4: 0 over-used nodes, 1 nets rerouted\n"
				     "route: 2 nets, 2 sinks in 4 iterations: 12 nodes, 1 16-bit and 0 1-bit tracks, ";
	CHECK(ok && !strncmp(buf, expect, strlen(expect)), "progress:\n%s", buf);
	free(buf);
	rt_result_free(&r);

	/* a failure ends with its summary line */
	rgraph_free(g);
	g = tiny_graph(graph_c);
	parse_nets(g, "n1: S1 -> T1/0; n2: S2 -> T2/0", &ns);
	f = open_memstream(&buf, &len);
	o.progress = f;
	o.max_iterations = 2;
	ok = rt_route(g, ns.net, ns.n, &o, &r);
	fclose(f);
	CHECK(!ok && strstr(buf, "route: iteration 2: 1 over-used nodes, 2 nets rerouted\n"
				 "route: failed: route: 1 node over-used after 2 iterations\n"),
	      "progress of a failure:\n%s", buf);
	free(buf);
	rt_result_free(&r);
	rgraph_free(g);
}

/* ---- real graphs ---- */

static RGraph *design_graph(const char *design, int generate)
{
	char path[256], cmd[512];
	snprintf(path, sizeof path, "rtl_out/%s/routing.graph", design);
	FILE *f = fopen(path, "r");
	if (f)
		fclose(f);
	else if (generate) {
		snprintf(cmd, sizeof cmd, "bash scripts/rtl.sh %s >/dev/null", design);
		if (system(cmd) != 0)
			printf("test_route: %s failed\n", cmd);
	} else
		return NULL;
	Diags *d = diags_new(stdout);
	RGraph *g = rgraph_load(path, d);
	diags_free(d);
	return g;
}

/* Nets generated from a seed: each PE's output of the width drives 1 to
 * maxsinks inputs of that width on other tiles (within radius tiles unless
 * 0, as a placer would keep them), each with 0 to maxregs registers; no
 * input is used twice. */
typedef struct Nets {
	RtNet *net;
	RtSink *sink;
	char **name;
	int n, nsinks;
} Nets;

static int ends_with(const char *s, const char *tail)
{
	size_t a = strlen(s), b = strlen(tail);
	return a >= b && !strcmp(s + a - b, tail);
}

static int is_pe_input(const RGraph *g, int v, int width)
{
	const RNode *n = &g->nodes[v];
	return !strcmp(n->kind, "port_in") && n->width == width &&
	       (strstr(n->name, width == 16 ? "_data" : "_bit") != NULL);
}

static void nets_add(Nets *ns, const RGraph *g, uint64_t seed, int width, int maxsinks, int maxregs, int limit,
		     int radius)
{
	Rng rng;
	rng_seed(&rng, seed);
	int *pool = xmalloc((size_t)g->nnodes * sizeof *pool), npool = 0;
	for (int v = 0; v < g->nnodes; v++)
		if (is_pe_input(g, v, width))
			pool[npool++] = v;
	for (int i = npool - 1; i > 0; i--) {
		int j = (int)rng_below(&rng, (uint64_t)i + 1), t = pool[i];
		pool[i] = pool[j], pool[j] = t;
	}
	for (int v = 0; v < g->nnodes && ns->n < limit && npool; v++) {
		const RNode *src = &g->nodes[v];
		if (strcmp(src->kind, "port_out") || src->width != width || !ends_with(src->name, width == 16 ? "_res" : "_res_p"))
			continue;
		int want = 1 + (int)rng_below(&rng, (uint64_t)maxsinks), first = ns->nsinks;
		for (int k = npool - 1; k >= 0 && ns->nsinks - first < want; k--) {
			const RNode *s = &g->nodes[pool[k]];
			int d = abs(s->x - src->x) + abs(s->y - src->y);
			if (d == 0 || (radius && d > radius))
				continue;
			ns->sink[ns->nsinks++] = (RtSink){ pool[k], (int)rng_below(&rng, (uint64_t)maxregs + 1) };
			pool[k] = pool[--npool];
		}
		if (ns->nsinks == first)
			continue;
		ns->name[ns->n] = xasprintf("%s", src->name);
		ns->net[ns->n] = (RtNet){ ns->name[ns->n], v, NULL, ns->nsinks - first };
		ns->n++;
	}
	free(pool);
}

/* Points each net at its sinks once the sink array stops moving. */
static void nets_link(Nets *ns)
{
	int k = 0;
	for (int i = 0; i < ns->n; i++) {
		ns->net[i].sinks = &ns->sink[k];
		k += ns->net[i].nsinks;
	}
}

static Nets nets_new(int cap)
{
	Nets ns = { 0 };
	ns.net = xcalloc((size_t)cap, sizeof *ns.net);
	ns.sink = xcalloc((size_t)cap * 8, sizeof *ns.sink);
	ns.name = xcalloc((size_t)cap, sizeof *ns.name);
	return ns;
}

static void nets_free(Nets *ns)
{
	for (int i = 0; i < ns->n; i++)
		free(ns->name[i]);
	free(ns->net);
	free(ns->sink);
	free(ns->name);
}

/* Problems found by verify: printed (the first ten) and counted. */
static int problems;

static void problem(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static void problem(const char *fmt, ...)
{
	if (problems++ >= 10)
		return;
	va_list ap;
	va_start(ap, fmt);
	printf("  ");
	vprintf(fmt, ap);
	putchar('\n');
	va_end(ap);
}

static int sinks_contain(const RtNet *n, int v)
{
	for (int j = 0; j < n->nsinks; j++)
		if (n->sinks[j].node == v)
			return 1;
	return 0;
}

/* The edges of one net: each from a node already in the tree (drv[] not -2)
 * to a new one, over an edge of the graph, never through a port_out or
 * another net's port_in, never onto a node of another net (owner[]). */
static void verify_edges(const RGraph *g, const RtNet *nets, int i, const RtRoute *rt, int *owner, int *drv)
{
	const RtNet *n = &nets[i];
	for (int e = 0; e < rt->nedges; e++) {
		int from = rt->edges[e].from, to = rt->edges[e].to;
		const char *f = g->nodes[from].name, *t = g->nodes[to].name, *k = g->nodes[to].kind;
		if (drv[from] == -2)
			problem("net %s: edge %s -> %s before its driver", n->name, f, t);
		if (drv[to] != -2)
			problem("net %s: %s twice in the tree", n->name, t);
		if (rgraph_select(g, from, to) < 0)
			problem("net %s: no edge %s -> %s in the graph", n->name, f, t);
		if (!strcmp(k, "port_out") || (!strcmp(k, "port_in") && !sinks_contain(n, to)))
			problem("net %s: passes through %s", n->name, t);
		if (owner[to] >= 0)
			problem("%s used by nets %s and %s", t, nets[owner[to]].name, n->name);
		drv[to] = from;
		owner[to] = i;
	}
}

/* Each sink's path back to the source: its registers and the delay after
 * the last one. */
static void verify_sinks(const RGraph *g, const RtNet *n, const RtRoute *rt, const int *drv)
{
	for (int j = 0; j < n->nsinks; j++) {
		int regs = 0, steps = 0, t = n->sinks[j].node, v = t;
		double delay = 0;
		for (; v >= 0 && drv[v] != -2 && steps <= g->nnodes; v = drv[v], steps++) {
			if (!strcmp(g->nodes[v].kind, "reg"))
				regs++;
			else if (regs == 0)
				delay += g->nodes[v].delay;
		}
		if (v != -1 || drv[t] == -2)
			problem("net %s: sink %s not connected to the source", n->name, g->nodes[t].name);
		if (regs != n->sinks[j].regs || rt->sink_regs[j] != regs)
			problem("net %s: sink %s: %d registers on its path, %d reported, %d asked", n->name,
				g->nodes[t].name, regs, rt->sink_regs[j], n->sinks[j].regs);
		if (fabs(delay - rt->sink_delay[j]) > 1e-9)
			problem("net %s: sink %s: delay %.3f, %.3f reported", n->name, g->nodes[t].name, delay,
				rt->sink_delay[j]);
	}
}

/* Checks a successful result against the graph, independently of the
 * router: one CHECK, the problems printed. */
static void verify(const RGraph *g, const RtNet *nets, int nnets, const RtResult *r, const char *what)
{
	int *owner = xmalloc((size_t)g->nnodes * sizeof *owner), *drv = xmalloc((size_t)g->nnodes * sizeof *drv);
	for (int v = 0; v < g->nnodes; v++)
		owner[v] = -1, drv[v] = -2;
	problems = 0;
	if (r->nnets != nnets)
		problem("%d routes for %d nets", r->nnets, nnets);
	for (int i = 0; i < nnets && i < r->nnets; i++) {
		const RtNet *n = &nets[i];
		if (owner[n->source] >= 0)
			problem("source %s shared", g->nodes[n->source].name);
		owner[n->source] = i;
		drv[n->source] = -1;
		verify_edges(g, nets, i, &r->routes[i], owner, drv);
		verify_sinks(g, n, &r->routes[i], drv);
		drv[n->source] = -2;
		for (int e = 0; e < r->routes[i].nedges; e++)
			drv[r->routes[i].edges[e].to] = -2;
	}
	CHECK(problems == 0, "%s: %d problems in the routes (above)", what, problems);
	free(owner);
	free(drv);
}

static int same_result(const RtResult *a, const RtResult *b, const RtNet *nets)
{
	if (a->nnets != b->nnets || a->iterations != b->iterations || a->nodes_used != b->nodes_used)
		return 0;
	for (int i = 0; i < a->nnets; i++) {
		const RtRoute *x = &a->routes[i], *y = &b->routes[i];
		if (x->nedges != y->nedges || memcmp(x->edges, y->edges, (size_t)x->nedges * sizeof *x->edges))
			return 0;
		for (int j = 0; j < nets[i].nsinks; j++)
			if (x->sink_regs[j] != y->sink_regs[j] || x->sink_delay[j] != y->sink_delay[j])
				return 0;
	}
	return 1;
}

static RGraph *g4, *g8;

static void route_design(const RGraph *g, const char *what, int n16, int n1, int maxsinks, int maxregs,
			 uint64_t seed)
{
	if (!CHECK(g != NULL, "%s: no routing graph", what))
		return;
	Nets ns = nets_new(n16 + n1);
	nets_add(&ns, g, seed, 16, maxsinks, maxregs, n16, 0);
	nets_add(&ns, g, seed + 1, 1, maxsinks, maxregs, n16 + n1, 0);
	nets_link(&ns);
	RtOptions o;
	rt_options_default(&o);
	RtResult r, r2;
	int ok = rt_route(g, ns.net, ns.n, &o, &r);
	CHECK(ok, "%s: %d nets not routed:\n%s", what, ns.n, r.report ? r.report : "");
	if (ok) {
		verify(g, ns.net, ns.n, &r, what);
		CHECK(r.tracks16 > 0 && (n1 == 0 || r.tracks1 > 0), "%s: tracks %d and %d", what, r.tracks16, r.tracks1);
	}
	int ok2 = rt_route(g, ns.net, ns.n, &o, &r2);
	CHECK(ok2 == ok && same_result(&r, &r2, ns.net), "%s: a second run routes differently", what);
	if (verbose)
		printf("  %s: %d nets, %d sinks, %d iterations, %d nodes, %d+%d tracks, %.3f s\n", what, ns.n, ns.nsinks,
		       r.iterations, r.nodes_used, r.tracks16, r.tracks1, r.seconds);
	rt_result_free(&r);
	rt_result_free(&r2);
	nets_free(&ns);
}

static void test_cgra_4x4(void)
{
	route_design(g4, "cgra_4x4", 12, 6, 2, 6, 1);
	route_design(g4, "cgra_4x4 (another draw)", 12, 4, 3, 6, 7);
}

static void test_cgra_8x8(void)
{
	route_design(g8, "cgra_8x8", 48, 16, 3, 6, 11);
}

/* One source, five sinks with different register counts. */
static void test_fanout(void)
{
	if (!CHECK(g8 != NULL, "fanout: no cgra_8x8 graph"))
		return;
	static const struct {
		const char *name;
		int regs;
	} sinks[] = { { "x5_y6_data0", 3 }, { "x2_y2_data1", 0 }, { "x6_y1_data2", 5 }, { "x1_y7_data0", 1 },
		      { "x4_y3_data2", 6 } };
	RtSink s[5];
	for (int i = 0; i < 5; i++)
		s[i] = (RtSink){ find_node(g8, sinks[i].name), sinks[i].regs };
	RtNet n = { "fan", find_node(g8, "x2_y4_res"), s, 5 };
	RtResult r;
	int ok = rt_route(g8, &n, 1, NULL, &r);
	if (CHECK(ok, "fanout: not routed: %s", r.report ? r.report : ""))
		verify(g8, &n, 1, &r, "fanout");
	CHECK(ok && r.iterations == 1, "fanout: %d iterations", r.iterations);
	rt_result_free(&r);
}

/* With no congestion every node costs 1, so A* (astar 1) must find paths as
 * short as Dijkstra's (astar 0): the estimate never overestimates. */
static void test_astar(void)
{
	if (!CHECK(g8 != NULL, "astar: no cgra_8x8 graph"))
		return;
	static const char *const pairs[][2] = { { "x1_y1_res", "x6_y7_data1" }, { "x4_y5_res", "x4_y5_data0" },
						{ "x2_y8_res", "x1_y8_data2" }, { "x0_y0_io2f_16", "x5_y4_data1" } };
	RtOptions o1, o0;
	rt_options_default(&o1);
	rt_options_default(&o0);
	o0.astar = 0;
	for (int p = 0; p < COUNT(pairs); p++)
		for (int regs = 0; regs <= 6; regs += 2) {
			RtSink s = { find_node(g8, pairs[p][1]), regs };
			RtNet n = { "n", find_node(g8, pairs[p][0]), &s, 1 };
			RtResult a, d;
			int ok = rt_route(g8, &n, 1, &o1, &a) & rt_route(g8, &n, 1, &o0, &d);
			CHECK(ok && a.nodes_used == d.nodes_used, "astar: %s -> %s with %d registers: %d nodes, Dijkstra %d",
			      pairs[p][0], pairs[p][1], regs, a.nodes_used, d.nodes_used);
			if (ok)
				verify(g8, &n, 1, &a, "astar");
			rt_result_free(&a);
			rt_result_free(&d);
		}
}

/* Every routed edge sets its multiplexer through config.map. */
static void test_bitstream(void)
{
	if (!CHECK(g4 != NULL, "bitstream: no cgra_4x4 graph"))
		return;
	Diags *d = diags_new(stdout);
	ConfigMap *m = configmap_load("rtl_out/cgra_4x4/config.map", d);
	diags_free(d);
	if (!CHECK(m != NULL, "bitstream: rtl_out/cgra_4x4/config.map does not load"))
		return;
	Nets ns = nets_new(18);
	nets_add(&ns, g4, 1, 16, 2, 6, 12, 0);
	nets_add(&ns, g4, 2, 1, 2, 6, 18, 0);
	nets_link(&ns);
	RtResult r;
	int ok = rt_route(g4, ns.net, ns.n, NULL, &r), edges = 0, refused = 0;
	CHECK(ok, "bitstream: not routed");
	Bitstream *b = bitstream_new(m);
	for (int i = 0; ok && i < r.nnets; i++)
		for (int e = 0; e < r.routes[i].nedges; e++, edges++)
			if (!bitstream_route(b, g4, r.routes[i].edges[e].from, r.routes[i].edges[e].to) && refused++ < 5)
				printf("FAIL bitstream: edge %s -> %s refused\n", g4->nodes[r.routes[i].edges[e].from].name,
				       g4->nodes[r.routes[i].edges[e].to].name);
	CHECK(ok && edges > 0 && refused == 0, "bitstream: %d of %d edges refused", refused, edges);
	bitstream_free(b);
	rt_result_free(&r);
	nets_free(&ns);
	configmap_free(m);
}

/* -v: a few hundred nets with up to 20 registers on cgra_32x16, each sink
 * within 6 tiles of its source (random nets across the whole array need
 * more tracks across its middle than it has). The last run is dense: 300 of
 * the 384 PEs in node order, most of the 16-bit tracks of their region. */
static void bench_32x16(void)
{
	RGraph *g = design_graph("cgra_32x16", 0);
	if (!g) {
		printf("  cgra_32x16 not generated: no timing\n");
		return;
	}
	static const struct {
		int n16, n1, maxsinks, maxregs;
	} runs[] = { { 300, 0, 3, 6 }, { 200, 100, 3, 20 }, { 300, 0, 3, 20 } };
	for (int k = 0; k < COUNT(runs); k++) {
		Nets ns = nets_new(runs[k].n16 + runs[k].n1);
		nets_add(&ns, g, 5, 16, runs[k].maxsinks, runs[k].maxregs, runs[k].n16, 6);
		nets_add(&ns, g, 6, 1, runs[k].maxsinks, runs[k].maxregs, runs[k].n16 + runs[k].n1, 6);
		nets_link(&ns);
		RtResult r;
		int ok = rt_route(g, ns.net, ns.n, NULL, &r);
		if (CHECK(ok, "cgra_32x16: not routed:\n%s", r.report ? r.report : ""))
			verify(g, ns.net, ns.n, &r, "cgra_32x16");
		printf("  cgra_32x16: %d nets, %d sinks, 0..%d registers: %d iterations, %d nodes, %d+%d tracks, %.3f s\n",
		       ns.n, ns.nsinks, runs[k].maxregs, r.iterations, r.nodes_used, r.tracks16, r.tracks1, r.seconds);
		rt_result_free(&r);
		nets_free(&ns);
	}
	rgraph_free(g);
}

int main(int argc, char **argv)
{
	verbose = argc > 1 && !strcmp(argv[1], "-v");
	g4 = design_graph("cgra_4x4", 1);
	g8 = design_graph("cgra_8x8", 1);
	static const TestCase tests[] = {
		{ "hand-written graphs", test_cases },
		{ "progress", test_progress },
		{ "cgra_4x4", test_cgra_4x4 },
		{ "cgra_8x8", test_cgra_8x8 },
		{ "fanout", test_fanout },
		{ "astar", test_astar },
		{ "bitstream", test_bitstream },
		{ "cgra_32x16 timing", bench_32x16 },   /* -v only: the last entry */
	};
	int status = check_run("test_route", tests, COUNT(tests) - !verbose);
	rgraph_free(g4);
	rgraph_free(g8);
	return status;
}
