/* test_route.c - unit tests of compiler/backend/route.c: the router on hand-written
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
 * bitstream_route on the chip's config.map.
 *
 * Retiming (compiler/backend/retime.c): hand-written chains and forks whose best
 * register places and stretches are worked out by hand (one register to
 * the middle, two on six sites, a later source or a slower sink shifting
 * it, a trunk's count forced by its sinks, a reg that is no site kept, an
 * optimal tree unchanged, a failed route left alone); on cgra_4x4 and
 * cgra_8x8, routed nets retimed and checked independently: verify's checks,
 * no stretch longer, the same nodes but the regs, the least stretch an
 * enumeration of every site's choice finds, shorter stretches, the same
 * result twice. `-v` prints the figures, timings, and routes and retimes a
 * few hundred nets on cgra_32x16 (if generated). */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../../common/rng.h"
#include "../../../common/tests/check.h"
#include "../../../common/util.h"
#include "../retime.h"
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
	int edges = 0;
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
					edges++;
				}
		} else if (sscanf(line, "%15s %15s %d %d", kind, name, &x, &y) == 4 && t.n < MAXN) {
			strcpy(t.name[t.n], name);
			int port = strncmp(kind, "port_", 5) == 0;   /* switch-box kinds sit on a side and track */
			sb_printf(&b, "node %d %s 16 %d %d %s %.2f %s\n", t.n, kind, x, y, port ? "- -" : "N 0",
				  kind_delay(kind), name);
			t.n++;
		}
	}
	sb_printf(&b, "end %d %d\n", t.n, edges);
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
			/* T/1+: a spare sink */
			ns->sink[i][ns->net[i].nsinks++] = (RtSink){ find_node(g, w), atoi(slash + 1), !!strchr(slash + 1, '+') };
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
	{ "fanout: b holds one count only, so U first and T the long way", graph_a, "n: S -> T/1 U/0", 0, 1,
	  "S-a a-ma ma-b b-U S-e e-re re-me me-f f-g g-mg mg-h h-i i-mi mi-j j-l l-ml ml-k k-T", "1:0.64 0:0.27", 1,
	  NULL },
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
			ns->sink[ns->nsinks++] = (RtSink){ pool[k], (int)rng_below(&rng, (uint64_t)maxregs + 1), 0 };
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
		s[i] = (RtSink){ find_node(g8, sinks[i].name), sinks[i].regs, 0 };
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
			RtSink s = { find_node(g8, pairs[p][1]), regs, 0 };
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

/* ---- retiming on hand-written graphs ----
 * Delays: a site (sb_out s, rmux m) 0.17 ns without its register, s 0.14
 * before it and m 0.03 after it; a port_in 0.10; sb_in, reg, port_out 0. */

/* Seven sites in a row from S to T; T6 hangs off the sixth. */
static const char graph_chain[] = "port_out S 0 0\nport_in T 0 0\nport_in T6 0 0\n"
				  "sb_out s1 0 0\nreg r1 0 0\nrmux m1 0 0\nsb_out s2 0 0\nreg r2 0 0\nrmux m2 0 0\n"
				  "sb_out s3 0 0\nreg r3 0 0\nrmux m3 0 0\nsb_out s4 0 0\nreg r4 0 0\nrmux m4 0 0\n"
				  "sb_out s5 0 0\nreg r5 0 0\nrmux m5 0 0\nsb_out s6 0 0\nreg r6 0 0\nrmux m6 0 0\n"
				  "sb_out s7 0 0\nreg r7 0 0\nrmux m7 0 0\n"
				  "> S s1 m1 s2 m2 s3 m3 s4 m4 s5 m5 s6 m6 s7 m7 T\n> m6 T6\n"
				  "> s1 r1 m1\n> s2 r2 m2\n> s3 r3 m3\n> s4 r4 m4\n> s5 r5 m5\n> s6 r6 m6\n> s7 r7 m7\n";

/* A trunk of sites 1-3 to X, where T1 hangs; sites 4-6 from X to T2. */
static const char graph_fork[] = "port_out S 0 0\nsb_in X 0 0\nport_in T1 0 0\nport_in T2 0 0\n"
				 "sb_out s1 0 0\nreg r1 0 0\nrmux m1 0 0\nsb_out s2 0 0\nreg r2 0 0\nrmux m2 0 0\n"
				 "sb_out s3 0 0\nreg r3 0 0\nrmux m3 0 0\nsb_out s4 0 0\nreg r4 0 0\nrmux m4 0 0\n"
				 "sb_out s5 0 0\nreg r5 0 0\nrmux m5 0 0\nsb_out s6 0 0\nreg r6 0 0\nrmux m6 0 0\n"
				 "> S s1 m1 s2 m2 s3 m3 X T1\n> X s4 m4 s5 m5 s6 m6 T2\n"
				 "> s1 r1 m1\n> s2 r2 m2\n> s3 r3 m3\n> s4 r4 m4\n> s5 r5 m5\n> s6 r6 m6\n";

/* Sites 1-3 with a register R between y and z that is no site (z has R
 * as its only input): R stays, the other register moves. */
static const char graph_kept[] = "port_out S 0 0\nsb_in y 0 0\nreg R 0 0\nsb_in z 0 0\nport_in T 0 0\n"
				 "sb_out s1 0 0\nreg r1 0 0\nrmux m1 0 0\nsb_out s2 0 0\nreg r2 0 0\nrmux m2 0 0\n"
				 "sb_out s3 0 0\nreg r3 0 0\nrmux m3 0 0\n"
				 "> S s1 m1 y R z s2 m2 s3 m3 T\n> s1 r1 m1\n> s2 r2 m2\n> s3 r3 m3\n";

/* The edges of a chain of sites from S to sink T, "1" or "0" per site for
 * its register. */
static char *chain_text(const char *regs, const char *sink)
{
	StrBuf b = { 0 };
	sb_printf(&b, "S-s1");
	for (int k = 1; regs[k - 1]; k++) {
		if (regs[k - 1] == '1')
			sb_printf(&b, " s%d-r%d r%d-m%d", k, k, k, k);
		else
			sb_printf(&b, " s%d-m%d", k, k);
		if (regs[k])
			sb_printf(&b, " m%d-s%d", k, k + 1);
	}
	sb_printf(&b, " m%d-%s", (int)strlen(regs), sink);
	return b.s;
}

/* The driver of v in a route, or -1. */
static int driver_in(const RtRoute *r, int v)
{
	for (int e = 0; e < r->nedges; e++)
		if (r->edges[e].to == v)
			return r->edges[e].from;
	return -1;
}

/* The registers on the path from the source to v and the delay after the
 * last one (rt_route's sink_regs and sink_delay, counted up from v). */
static void path_timing(const RGraph *g, const RtRoute *r, int v, int *regs, double *delay)
{
	*regs = 0;
	*delay = 0;
	for (; v >= 0; v = driver_in(r, v)) {
		if (!strcmp(g->nodes[v].kind, "reg"))
			++*regs;
		else if (*regs == 0)
			*delay += g->nodes[v].delay;
	}
}

/* A routed result written by hand: per net "a-b c-d ..." ("|" between
 * nets); sink_regs and sink_delay counted on the paths. */
static void hand_result(const RGraph *g, const NetSet *ns, const char *trees, RtResult *r)
{
	char *text = xstrdup(trees), *save = NULL, *part = strtok_r(text, "|", &save);
	memset(r, 0, sizeof *r);
	r->nnets = ns->n;
	r->routes = xcalloc((size_t)ns->n, sizeof *r->routes);
	for (int i = 0; i < ns->n; i++, part = strtok_r(NULL, "|", &save)) {
		RtRoute *rt = &r->routes[i];
		int nsk = ns->net[i].nsinks;
		char *s2 = NULL;
		rt->edges = xmalloc(MAXN * sizeof *rt->edges);
		rt->sink_regs = xcalloc((size_t)nsk, sizeof *rt->sink_regs);
		rt->sink_delay = xcalloc((size_t)nsk, sizeof *rt->sink_delay);
		for (char *w = part ? strtok_r(part, " ", &s2) : NULL; w && rt->nedges < MAXN; w = strtok_r(NULL, " ", &s2)) {
			char *dash = strchr(w, '-');
			*dash = 0;
			rt->edges[rt->nedges++] = (RtEdge){ find_node(g, w), find_node(g, dash + 1) };
		}
		r->nodes_used += rt->nedges + 1;
		for (int j = 0; j < nsk; j++)
			path_timing(g, rt, ns->net[i].sinks[j].node, &rt->sink_regs[j], &rt->sink_delay[j]);
	}
	free(text);
}

/* A net's longest register-to-register stretch, the way the backend's
 * static timing walks a route: arrival src at the source, each node adds
 * its delay to its driver's (0 after a reg), a stretch ends at a reg (its
 * driver's arrival) or at sink k (its arrival + after[k]). */
static double net_stretch(const RGraph *g, const RtNet *n, const RtRoute *r, double src, const double *after)
{
	double *at = xcalloc((size_t)g->nnodes, sizeof *at), worst = 0;
	at[n->source] = src;
	for (int e = 0; e < r->nedges; e++) {
		int from = r->edges[e].from, to = r->edges[e].to;
		double base = strcmp(g->nodes[from].kind, "reg") ? at[from] : 0;
		at[to] = base + g->nodes[to].delay;
		if (!strcmp(g->nodes[to].kind, "reg") && base > worst)
			worst = base;
	}
	for (int j = 0; j < n->nsinks; j++) {
		double t = at[n->sinks[j].node] + (after ? after[j] : 0);
		worst = t > worst ? t : worst;
	}
	free(at);
	return worst;
}

typedef struct RetimeCase {
	const char *name, *graph, *nets;
	const char *before;     /* the hand-made route of the net */
	double before_stretch;
	double src, after[2];   /* the net's source arrival, its sinks' time after */
	const char *trees;      /* after rt_retime */
	double stretch;         /* rt_retime's answer */
} RetimeCase;

/* Worked out by hand (delays above): with one register at site j of
 * seven, the stretches are 0.17 j - 0.03 and 0.13 + 0.17 (7 - j). */
static const RetimeCase retime_cases[] = {
	{ "one register moves to the middle", graph_chain, "n: S -> T/1", "1000000", 1.15, 0, { 0 }, "0001000", 0.65 },
	{ "from the far end too", graph_chain, "n: S -> T/1", "0000001", 1.16, 0, { 0 }, "0001000", 0.65 },
	{ "already in the middle: unchanged", graph_chain, "n: S -> T/1", "0001000", 0.65, 0, { 0 }, "0001000", 0.65 },
	{ "no registers: unchanged", graph_chain, "n: S -> T/0", "0000000", 1.29, 0, { 0 }, "0000000", 1.29 },
	{ "a later source moves it earlier", graph_chain, "n: S -> T/1", "0000001", 1.50, 0.34, { 0 }, "0010000", 0.82 },
	{ "time after the sink moves it later", graph_chain, "n: S -> T/1", "1000000", 1.49, 0, { 0.34 }, "0000100",
	  0.82 },
	{ "two registers on six sites", graph_chain, "n: S -> T6/2", "110000", 0.81, 0, { 0 }, "010100", 0.47 },
	{ "a register that is no site stays", graph_kept, "n: S -> T/2",
	  "S-s1 s1-r1 r1-m1 m1-y y-R R-z z-s2 s2-m2 m2-s3 s3-m3 m3-T", 0.44, 0, { 0 },
	  "S-s1 s1-m1 m1-y y-R R-z z-s2 s2-r2 r2-m2 m2-s3 s3-m3 m3-T", 0.30 },
	/* T1 right after the trunk takes 1, T2 2: one register on the trunk
	 * (forced), one on the branch */
	{ "sinks with 1 and 2 registers", graph_fork, "n: S -> T1/1 T2/2",
	  "S-s1 s1-r1 r1-m1 m1-s2 s2-m2 m2-s3 s3-m3 m3-X X-T1 X-s4 s4-m4 m4-s5 s5-m5 m5-s6 s6-r6 r6-m6 m6-T2", 0.85, 0,
	  { 0, 0 }, "S-s1 s1-m1 m1-s2 s2-r2 r2-m2 m2-s3 s3-m3 m3-X X-T1 X-s4 s4-r4 r4-m4 m4-s5 s5-m5 m5-s6 s6-m6 m6-T2",
	  0.47 },
	/* 0 and 1: none on the trunk (forced), T1 at 0.61 */
	{ "sinks with 0 and 1 registers", graph_fork, "n: S -> T1/0 T2/1",
	  "S-s1 s1-m1 m1-s2 s2-m2 m2-s3 s3-m3 m3-X X-T1 X-s4 s4-m4 m4-s5 s5-m5 m5-s6 s6-r6 r6-m6 m6-T2", 0.99, 0,
	  { 0, 0 }, "S-s1 s1-m1 m1-s2 s2-m2 m2-s3 s3-m3 m3-X X-T1 X-s4 s4-r4 r4-m4 m4-s5 s5-m5 m5-s6 s6-m6 m6-T2", 0.65 },
	/* 0.40 after T1 makes the trunk the longest stretch whatever T2 does:
	 * T2's register stays where it is */
	{ "a stretch that cannot move keeps the rest", graph_fork, "n: S -> T1/0 T2/1",
	  "S-s1 s1-m1 m1-s2 s2-m2 m2-s3 s3-m3 m3-X X-T1 X-s4 s4-m4 m4-s5 s5-r5 r5-m5 m5-s6 s6-m6 m6-T2", 1.01, 0,
	  { 0.40, 0 }, "S-s1 s1-m1 m1-s2 s2-m2 m2-s3 s3-m3 m3-X X-T1 X-s4 s4-m4 m4-s5 s5-r5 r5-m5 m5-s6 s6-m6 m6-T2",
	  1.01 },
};

/* A case's route: a chain ("0"/"1" per site) or the edges as written. */
static char *case_tree(const char *text)
{
	if (strchr(text, '-'))
		return xstrdup(text);
	return chain_text(text, strlen(text) == 6 ? "T6" : "T");
}

static void run_retime_case(const RetimeCase *c)
{
	RGraph *g = tiny_graph(c->graph);
	if (!CHECK(g != NULL, "%s: the graph does not load", c->name))
		return;
	NetSet ns;
	parse_nets(g, c->nets, &ns);
	char *before = case_tree(c->before), *expect = case_tree(c->trees);
	RtResult r;
	hand_result(g, &ns, before, &r);
	const double *after[1] = { c->after };
	double b = net_stretch(g, &ns.net[0], &r.routes[0], c->src, c->after);
	CHECK(fabs(b - c->before_stretch) < 1e-9, "%s: the route by hand has %.3f ns, expected %.3f", c->name, b,
	      c->before_stretch);
	double w = rt_retime(g, ns.net, 1, &c->src, after, &r);
	char *t = tree_text(g, &r.routes[0]);
	CHECK(!strcmp(t, expect), "%s: tree\n  %s\nexpected\n  %s", c->name, t, expect);
	CHECK(fabs(w - c->stretch) < 1e-9, "%s: rt_retime returned %.3f ns, expected %.3f", c->name, w, c->stretch);
	double a = net_stretch(g, &ns.net[0], &r.routes[0], c->src, c->after);
	CHECK(fabs(a - w) < 1e-9, "%s: the retimed route has %.3f ns, rt_retime says %.3f", c->name, a, w);
	CHECK(r.nodes_used == r.routes[0].nedges + 1, "%s: nodes_used %d for %d edges", c->name, r.nodes_used,
	      r.routes[0].nedges);
	verify(g, ns.net, 1, &r, c->name);
	free(t);
	free(before);
	free(expect);
	rt_result_free(&r);
	rgraph_free(g);
}

static void test_retime_cases(void)
{
	for (int i = 0; i < COUNT(retime_cases); i++)
		run_retime_case(&retime_cases[i]);
}

/* A spare sink (a PE input register that can hold its last register)
 * keeps its count while that is no worse, else takes one more register on
 * its path. On the chain: without a register the stretch ends at T, 1.29
 * ns; with one at site j it is max(0.17 j - 0.03, 0.13 + 0.17 (7 - j) +
 * after): at best 1.63 (j = 7) for 1.5 ns after T, 0.82 (j = 5) for 0.2. */
static void test_retime_spare(void)
{
	static const struct {
		const char *name;
		double after;
		const char *tree;
		int regs;
		double stretch;
	} spare_cases[] = {
		{ "a spare sink keeps its count when one more register is worse", 1.5, "0000000", 0, 1.29 },
		{ "a spare sink takes a register that cuts its stretch", 0.2, "0000100", 1, 0.82 },
	};
	RGraph *g = tiny_graph(graph_chain);
	if (!CHECK(g != NULL, "the chain graph does not load"))
		return;
	for (int i = 0; i < COUNT(spare_cases); i++) {
		NetSet ns;
		parse_nets(g, "n: S -> T/0+", &ns);
		char *before = chain_text("0000000", "T"), *expect = chain_text(spare_cases[i].tree, "T");
		RtResult r;
		hand_result(g, &ns, before, &r);
		const double *after[1] = { &spare_cases[i].after };
		double w = rt_retime(g, ns.net, 1, NULL, after, &r);
		char *t = tree_text(g, &r.routes[0]);
		CHECK(!strcmp(t, expect) && r.routes[0].sink_regs[0] == spare_cases[i].regs && fabs(w - spare_cases[i].stretch) < 1e-9,
		      "%s: tree %s, %d registers, %.3f ns; expected %s, %d, %.3f", spare_cases[i].name, t,
		      r.routes[0].sink_regs[0], w, expect, spare_cases[i].regs, spare_cases[i].stretch);
		free(t);
		free(before);
		free(expect);
		rt_result_free(&r);
	}
	rgraph_free(g);
}

/* A failed rt_route's trees (a sink not reached) are left alone. */
static void test_retime_failed(void)
{
	RGraph *g = tiny_graph(graph_a);
	NetSet ns;
	parse_nets(g, "n: S -> U/1 T/3", &ns);
	RtResult r;
	int ok = rt_route(g, ns.net, ns.n, NULL, &r);
	char *t0 = tree_text(g, &r.routes[0]);
	double w = rt_retime(g, ns.net, ns.n, NULL, NULL, &r);
	char *t1 = tree_text(g, &r.routes[0]);
	CHECK(!ok && w == 0 && !strcmp(t0, t1), "failed route: rt_route %d, rt_retime %.3f, tree %s then %s", ok, w, t0,
	      t1);
	free(t0);
	free(t1);
	rt_result_free(&r);
	rgraph_free(g);
}

/* ---- retiming on real graphs ---- */

/* The least longest stretch of a net over every choice of bypass or
 * register at the sites its tree passes (an rmux driven by its sb_out or by
 * the reg between them), by enumeration; -1 with more than maxsites sites
 * or a reg that is not a site's. */
static double brute_stretch(const RGraph *g, const RtNet *n, const RtRoute *r, double src, const double *after,
			    int maxsites)
{
	int cap = r->nedges + 1, len = 0, nsites = 0;
	int *node = xmalloc((size_t)cap * sizeof *node), *up = xmalloc((size_t)cap * sizeof *up);
	int *site = xmalloc((size_t)cap * sizeof *site), *k = xmalloc((size_t)cap * sizeof *k);
	int *sink = xmalloc((size_t)cap * sizeof *sink), *local = xmalloc((size_t)g->nnodes * sizeof *local);
	double *a = xmalloc((size_t)cap * sizeof *a), best = -1;
	for (int v = 0; v < g->nnodes; v++)
		local[v] = -1;
	local[n->source] = len;
	node[len] = n->source, up[len] = -1, site[len] = -1, len++;
	for (int e = 0; e < r->nedges && nsites <= maxsites; e++) {
		int from = r->edges[e].from, to = r->edges[e].to;
		const RNode *t = &g->nodes[to];
		if (!strcmp(t->kind, "reg"))
			continue;
		int via_reg = !strcmp(g->nodes[from].kind, "reg");
		int s = via_reg ? driver_in(r, from) : from;
		int is_site = !strcmp(t->kind, "rmux") && t->nin == 2 && t->in[0] == s;
		if (via_reg && !is_site)
			nsites = maxsites + 1;
		local[to] = len;
		node[len] = to, up[len] = local[s], site[len] = is_site ? nsites++ : -1, len++;
	}
	for (int i = 0; i < len; i++)
		sink[i] = -1;
	for (int j = 0; j < n->nsinks && nsites <= maxsites; j++)
		sink[local[n->sinks[j].node]] = j;
	for (long m = 0; nsites <= maxsites && m < 1L << nsites; m++) {
		double worst = 0;
		int ok = 1;
		a[0] = src, k[0] = 0;
		for (int i = 1; i < len && ok; i++) {
			double d = g->nodes[node[i]].delay;
			int reg = site[i] >= 0 && (m >> site[i] & 1);
			if (reg && a[up[i]] > worst)
				worst = a[up[i]];
			a[i] = reg ? d : a[up[i]] + d;
			k[i] = k[up[i]] + reg;
			if (sink[i] >= 0) {
				ok = k[i] == n->sinks[sink[i]].regs;
				double t = a[i] + (after ? after[sink[i]] : 0);
				worst = t > worst ? t : worst;
			}
		}
		if (ok && (best < 0 || worst < best))
			best = worst;
	}
	free(node), free(up), free(site), free(k), free(sink), free(local), free(a);
	return nsites <= maxsites ? best : -1;
}

static int int_cmp(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;
	return x < y ? -1 : x > y;
}

/* The nodes of a route but its reg nodes, sorted. */
static int *wire_nodes(const RGraph *g, const RtRoute *r, int *len)
{
	int *v = xmalloc((size_t)(r->nedges + 1) * sizeof *v);
	*len = 0;
	for (int e = 0; e < r->nedges; e++)
		if (strcmp(g->nodes[r->edges[e].to].kind, "reg"))
			v[(*len)++] = r->edges[e].to;
	qsort(v, (size_t)*len, sizeof *v, int_cmp);
	return v;
}

/* What one net looked like before rt_retime. */
typedef struct Before {
	double stretch, best;   /* its longest stretch; the least by enumeration, or -1 */
	int *wires, nwires;
	int regs;               /* registers asked by its sinks */
} Before;

/* Time before and after each net's ends: none, or drawn from seed, in
 * steps of 0.01 ns up to most. */
typedef struct Timing {
	double *src;
	double **after;
} Timing;

static Timing timing_new(const Nets *ns, uint64_t seed, double most)
{
	Timing t = { NULL, NULL };
	if (!seed)
		return t;
	Rng rng;
	rng_seed(&rng, seed);
	t.src = xmalloc((size_t)ns->n * sizeof *t.src);
	t.after = xmalloc((size_t)ns->n * sizeof *t.after);
	for (int i = 0; i < ns->n; i++) {
		t.src[i] = 0.01 * (double)rng_below(&rng, (uint64_t)(100 * most) + 1);
		t.after[i] = xmalloc((size_t)ns->net[i].nsinks * sizeof **t.after);
		for (int j = 0; j < ns->net[i].nsinks; j++)
			t.after[i][j] = 0.01 * (double)rng_below(&rng, (uint64_t)(100 * most) + 1);
	}
	return t;
}

static void timing_free(Timing *t, int n)
{
	for (int i = 0; t->after && i < n; i++)
		free(t->after[i]);
	free(t->after);
	free(t->src);
}

static Before *before_retime(const RGraph *g, const Nets *ns, const RtResult *r, const Timing *tm)
{
	Before *b = xcalloc((size_t)ns->n, sizeof *b);
	for (int i = 0; i < ns->n; i++) {
		double src = tm->src ? tm->src[i] : 0;
		const double *after = tm->after ? tm->after[i] : NULL;
		b[i].stretch = net_stretch(g, &ns->net[i], &r->routes[i], src, after);
		b[i].best = brute_stretch(g, &ns->net[i], &r->routes[i], src, after, 12);
		b[i].wires = wire_nodes(g, &r->routes[i], &b[i].nwires);
		for (int j = 0; j < ns->net[i].nsinks; j++)
			b[i].regs += ns->net[i].sinks[j].regs;
	}
	return b;
}

/* Nets to route and retime. */
typedef struct Draw {
	const char *what;
	int n16, n1, maxsinks, maxregs;
	uint64_t seed, tseed;   /* of the nets; of the times at their ends (0: none) */
	double ends;            /* the longest time at an end */
	int most_shorter;       /* most nets with registers must get shorter (else one at least) */
} Draw;

/* Retimes routed nets with the timing drawn from tseed (0: none) and checks
 * the result independently: verify's checks, every net's longest stretch
 * not longer, the same nodes but the regs, the least stretch where
 * enumeration finds it, rt_retime's answer the longest, shorter stretches
 * on most nets with registers, the same result a second time. */
static void retime_design(const RGraph *g, const Draw *dr)
{
	const char *what = dr->what;
	if (!CHECK(g != NULL, "%s: no routing graph", what))
		return;
	Nets ns = nets_new(dr->n16 + dr->n1);
	nets_add(&ns, g, dr->seed, 16, dr->maxsinks, dr->maxregs, dr->n16, 0);
	nets_add(&ns, g, dr->seed + 1, 1, dr->maxsinks, dr->maxregs, dr->n16 + dr->n1, 0);
	nets_link(&ns);
	RtResult r, r2;
	int ok = rt_route(g, ns.net, ns.n, NULL, &r) & rt_route(g, ns.net, ns.n, NULL, &r2);
	if (!CHECK(ok, "%s: not routed:\n%s", what, r.report ? r.report : "")) {
		rt_result_free(&r);
		rt_result_free(&r2);
		nets_free(&ns);
		return;
	}
	Timing tm = timing_new(&ns, dr->tseed, dr->ends);
	Before *b = before_retime(g, &ns, &r, &tm);
	double t0 = util_now();
	double w = rt_retime(g, ns.net, ns.n, tm.src, (const double *const *)tm.after, &r);
	double secs = util_now() - t0;
	verify(g, ns.net, ns.n, &r, what);
	int longer = 0, moved = 0, nonopt = 0, enumerated = 0, with_regs = 0, shorter = 0, nodes = 0;
	double most = 0, sum_b = 0, sum_a = 0, max_b = 0;
	for (int i = 0; i < ns.n; i++) {
		double src = tm.src ? tm.src[i] : 0;
		double a = net_stretch(g, &ns.net[i], &r.routes[i], src, tm.after ? tm.after[i] : NULL);
		int nw, *wires = wire_nodes(g, &r.routes[i], &nw);
		longer += a > b[i].stretch + 1e-9;
		moved += nw != b[i].nwires || memcmp(wires, b[i].wires, (size_t)nw * sizeof *wires);
		if (b[i].best >= 0) {
			enumerated++;
			nonopt += fabs(a - b[i].best) > 1e-9;
		}
		if (b[i].regs) {
			with_regs++;
			shorter += a < b[i].stretch - 1e-9;
			sum_b += b[i].stretch;
			sum_a += a;
		}
		most = a > most ? a : most;
		max_b = b[i].stretch > max_b ? b[i].stretch : max_b;
		nodes += r.routes[i].nedges + 1;
		free(wires);
	}
	CHECK(longer == 0, "%s: %d nets have a longer stretch after rt_retime", what, longer);
	CHECK(moved == 0, "%s: %d nets changed nodes other than regs", what, moved);
	CHECK(enumerated > 0 && nonopt == 0, "%s: %d of %d nets not at the least stretch found by enumeration", what,
	      nonopt, enumerated);
	CHECK(fabs(w - most) < 1e-9, "%s: rt_retime returned %.3f ns, the longest stretch is %.3f", what, w, most);
	if (dr->most_shorter)
		CHECK(2 * shorter > with_regs, "%s: only %d of %d nets with registers shorter", what, shorter,
		      with_regs);
	else
		CHECK(shorter > 0, "%s: none of %d nets with registers shorter", what, with_regs);
	CHECK(r.nodes_used == nodes, "%s: nodes_used %d, the trees have %d", what, r.nodes_used, nodes);
	rt_retime(g, ns.net, ns.n, tm.src, (const double *const *)tm.after, &r2);
	CHECK(same_result(&r, &r2, ns.net), "%s: a second run retimes differently", what);
	if (verbose)
		printf("  %s: %d nets, %d with registers, %d shorter; longest stretch %.2f -> %.2f ns, mean over "
		       "nets with registers %.3f -> %.3f ns; %d nets enumerated; %.4f s\n",
		       what, ns.n, with_regs, shorter, max_b, w, with_regs ? sum_b / with_regs : 0,
		       with_regs ? sum_a / with_regs : 0, enumerated, secs);
	for (int i = 0; i < ns.n; i++)
		free(b[i].wires);
	free(b);
	timing_free(&tm, ns.n);
	rt_result_free(&r);
	rt_result_free(&r2);
	nets_free(&ns);
}

/* On cgra_4x4 most nets span one to three tiles, where the router's
 * registers are mostly where they should be already (enumeration agrees):
 * only some nets get shorter. */
static const Draw draws_4x4[] = {
	{ "retime cgra_4x4, 0..2 registers", 12, 6, 2, 2, 1, 0, 0, 0 },
	{ "retime cgra_4x4, 0..6 registers", 12, 6, 2, 6, 1, 0, 0, 0 },
	{ "retime cgra_4x4, 0..6 registers, timed ends", 12, 4, 3, 6, 7, 3, 0.6, 0 },
};

static const Draw draws_8x8[] = {
	{ "retime cgra_8x8, 0..6 registers", 48, 16, 3, 6, 11, 0, 0, 1 },
	{ "retime cgra_8x8, 0..3 registers, timed ends", 48, 16, 3, 3, 13, 5, 0.6, 1 },
};

static void test_retime_4x4(void)
{
	for (int i = 0; i < COUNT(draws_4x4); i++)
		retime_design(g4, &draws_4x4[i]);
}

static void test_retime_8x8(void)
{
	for (int i = 0; i < COUNT(draws_8x8); i++)
		retime_design(g8, &draws_8x8[i]);
}

/* rt_retime on the routes of a bench run: checked by verify, timed, and
 * the stretches before and after. */
static void bench_retime(const RGraph *g, const Nets *ns, RtResult *r)
{
	double most = 0, sum_b = 0, sum_a = 0;
	int with_regs = 0, shorter = 0;
	double *b = xmalloc((size_t)ns->n * sizeof *b);
	for (int i = 0; i < ns->n; i++) {
		b[i] = net_stretch(g, &ns->net[i], &r->routes[i], 0, NULL);
		most = b[i] > most ? b[i] : most;
	}
	double t0 = util_now(), w = rt_retime(g, ns->net, ns->n, NULL, NULL, r), secs = util_now() - t0;
	verify(g, ns->net, ns->n, r, "cgra_32x16 retimed");
	for (int i = 0; i < ns->n; i++) {
		int regs = 0;
		for (int j = 0; j < ns->net[i].nsinks; j++)
			regs += ns->net[i].sinks[j].regs;
		if (!regs)
			continue;
		double a = net_stretch(g, &ns->net[i], &r->routes[i], 0, NULL);
		with_regs++;
		shorter += a < b[i] - 1e-9;
		sum_b += b[i];
		sum_a += a;
	}
	printf("  cgra_32x16 retimed: %d of %d nets with registers shorter; longest stretch %.2f -> %.2f ns, mean over "
	       "nets with registers %.3f -> %.3f ns; %.3f s\n",
	       shorter, with_regs, most, w, with_regs ? sum_b / with_regs : 0, with_regs ? sum_a / with_regs : 0, secs);
	free(b);
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
		if (ok)
			bench_retime(g, &ns, &r);
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
		{ "retime: hand-written graphs", test_retime_cases },
		{ "retime: a failed route", test_retime_failed },
		{ "retime: spare sinks", test_retime_spare },
		{ "retime: cgra_4x4", test_retime_4x4 },
		{ "retime: cgra_8x8", test_retime_8x8 },
		{ "cgra_32x16 timing", bench_32x16 },   /* -v only: the last entry */
	};
	int status = check_run("test_route", tests, COUNT(tests) - !verbose);
	rgraph_free(g4);
	rgraph_free(g8);
	return status;
}
