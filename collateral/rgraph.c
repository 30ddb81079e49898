/* rgraph.c - the reader of routing.graph (rgraph.h). Each record is checked
 * on its own and against the graph line (networks, array); the end line
 * proves the file whole. The reader stops at the first record in error, as
 * the later ones would mostly repeat it. */
#include "rgraph.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../common/vec.h"
#include "lines.h"

const char *const rgraph_kinds[] = { "sb_in", "sb_out", "reg", "rmux", "port_in", "port_out", NULL };

/* Kinds below this one sit on a side and a track of a switch box. */
#define FIRST_PORT_KIND 4


typedef struct Reading {
	RGraph *g;
	VEC(RNode) nodes;
	VEC(char) dashed;       /* per node: its one edge had the select '-' */
	int header, ended;
} Reading;

static int side_of(const char *s)
{
	const char *p = strchr("NESW", s[0]);
	return s[0] && !s[1] && p ? (int)(p - "NESW") : -1;
}

static int kind_of(const char *s)
{
	for (int k = 0; rgraph_kinds[k]; k++)
		if (strcmp(s, rgraph_kinds[k]) == 0)
			return k;
	return -1;
}

static int has_width(const RGraph *g, int w)
{
	for (int i = 0; i < g->nwidths; i++)
		if (g->widths[i] == w)
			return 1;
	return 0;
}

static char *widths_text(const RGraph *g, char *buf, size_t size)
{
	size_t n = 0;
	buf[0] = '\0';
	for (int i = 0; i < g->nwidths && n < size; i++)
		n += (size_t)snprintf(buf + n, size - n, "%s%d", i ? ", " : "", g->widths[i]);
	return buf;
}

/* graph NAME cols C rows R widths W... */
static void read_header(Lines *l, Reading *r)
{
	RGraph *g = r->g;
	long c, rows, w;
	if (r->header) {
		diag_error(l->d, l->file, l->line, 1, "a second graph line (the first is line %d)", g->line);
		return;
	}
	r->header = 1;
	g->line = l->line;
	if (l->ntok < 8 || l->ntok > 7 + RGRAPH_MAX_WIDTHS || strcmp(l->tok[2], "cols") != 0 ||
	    strcmp(l->tok[4], "rows") != 0 || strcmp(l->tok[6], "widths") != 0) {
		diag_error(l->d, l->file, l->line, 1, "expected 'graph NAME cols C rows R widths W...' with 1 to %d widths",
			   RGRAPH_MAX_WIDTHS);
		return;
	}
	if (!util_is_identifier(l->tok[1])) {
		diag_error(l->d, l->file, l->line, l->col[1], "'%s' is not a design name (letters, digits, '_')", l->tok[1]);
		return;
	}
	g->design = arena_strdup(g->store.arena, l->tok[1]);
	if (!lines_long(l, 3, 10, 1, 255, &c) || !lines_long(l, 5, 10, 2, 256, &rows))
		return;
	g->cols = (int)c, g->rows = (int)rows;
	for (int k = 7; k < l->ntok; k++) {
		if (!lines_long(l, k, 10, 1, 64, &w))
			return;
		if (has_width(g, (int)w)) {
			diag_error(l->d, l->file, l->line, l->col[k], "the %ld-bit network is listed twice", w);
			return;
		}
		g->widths[g->nwidths++] = (int)w;
	}
}

/* DELAY: a finite number of ns from 0 to RGRAPH_MAX_DELAY. */
static int read_delay(Lines *l, int k, double *out)
{
	char *end;
	double v = strtod(l->tok[k], &end);
	if (*end || end == l->tok[k] || !isfinite(v) || v < 0 || v > RGRAPH_MAX_DELAY) {
		diag_error(l->d, l->file, l->line, l->col[k], "expected a delay in ns from 0 to %g, not '%s'",
			   RGRAPH_MAX_DELAY, l->tok[k]);
		return 0;
	}
	*out = v;
	return 1;
}

/* SIDE and TRACK: both given for a switch-box kind, both '-' for a port. */
static int read_place(Lines *l, int kind, RNode *n)
{
	long t;
	int port = kind >= FIRST_PORT_KIND;
	n->side = side_of(l->tok[6]);
	n->track = -1;
	if (port ? strcmp(l->tok[6], "-") != 0 : n->side < 0) {
		diag_error(l->d, l->file, l->line, l->col[6], port ? "a %s node has no side: expected '-', not '%s'"
			   : "a %s node sits on a side: expected N, E, S or W, not '%s'", rgraph_kinds[kind], l->tok[6]);
		return 0;
	}
	if (port ? strcmp(l->tok[7], "-") != 0 : !lines_long(l, 7, 10, 0, RGRAPH_MAX_TRACK, &t)) {
		if (port)
			diag_error(l->d, l->file, l->line, l->col[7], "a %s node has no track: expected '-', not '%s'",
				   rgraph_kinds[kind], l->tok[7]);
		return 0;
	}
	if (!port)
		n->track = (int)t;
	return 1;
}

/* node ID KIND WIDTH X Y SIDE TRACK DELAY NAME */
static int read_node(Lines *l, RGraph *g, RNode *n)
{
	long id, w, x, y;
	char buf[64];
	if (l->ntok != 10) {
		diag_error(l->d, l->file, l->line, 1, "expected 'node ID KIND WIDTH X Y SIDE TRACK DELAY NAME'");
		return 0;
	}
	if (g->nnodes >= RGRAPH_MAX_NODES) {
		diag_error(l->d, l->file, l->line, 1, "more than %d nodes", RGRAPH_MAX_NODES);
		return 0;
	}
	memset(n, 0, sizeof *n);
	int kind = kind_of(l->tok[2]);
	if (!lines_long(l, 1, 10, g->nnodes, g->nnodes, &id))
		return 0;
	if (kind < 0) {
		diag_error(l->d, l->file, l->line, l->col[2],
			   "unknown kind of node '%s' (sb_in, sb_out, reg, rmux, port_in or port_out)", l->tok[2]);
		return 0;
	}
	if (!lines_long(l, 3, 10, 1, 64, &w))
		return 0;
	if (!has_width(g, (int)w)) {
		diag_error(l->d, l->file, l->line, l->col[3], "a %ld-bit node, but the graph's networks are of %s bits", w,
			   widths_text(g, buf, sizeof buf));
		return 0;
	}
	if (!lines_long(l, 4, 10, 0, 255, &x) || !lines_long(l, 5, 10, 0, 256, &y))
		return 0;
	if (x >= g->cols || y >= g->rows) {
		int k = x >= g->cols ? 4 : 5;
		diag_error(l->d, l->file, l->line, l->col[k], "%s %ld is outside the graph's array (%c 0 to %d)",
			   k == 4 ? "column" : "row", k == 4 ? x : y, k == 4 ? 'x' : 'y', (k == 4 ? g->cols : g->rows) - 1);
		return 0;
	}
	if (!read_place(l, kind, n) || !read_delay(l, 8, &n->delay))
		return 0;
	if (!util_is_identifier(l->tok[9])) {
		diag_error(l->d, l->file, l->line, l->col[9], "'%s' is not a node name (letters, digits, '_')", l->tok[9]);
		return 0;
	}
	n->kind = rgraph_kinds[kind];
	n->name = arena_strdup(g->store.arena, l->tok[9]);
	n->width = (int)w;
	n->x = (int)x;
	n->y = (int)y;
	n->line = l->line;
	int first = gstore_find(&g->store, n->name);
	if (first >= 0) {
		diag_error(l->d, l->file, l->line, l->col[9], "a second node named '%s' (the first is line %d)", n->name,
			   g->nodes[first].line);
		return 0;
	}
	gstore_name(&g->store, n->name, (int)id);
	return 1;
}

/* The checks of an edge from -> to against the inputs to already has. */
static int check_edge(Lines *l, Reading *r, int from, int to)
{
	RGraph *g = r->g;
	const RNode *f = &g->nodes[from], *t = &g->nodes[to];
	if (from == to) {
		diag_error(l->d, l->file, l->line, l->col[2], "node %d cannot be an input of itself", to);
		return 0;
	}
	if (f->width != t->width) {
		diag_error(l->d, l->file, l->line, l->col[1], "an edge from a %d-bit node to a %d-bit node: "
			   "an edge stays within one network", f->width, t->width);
		return 0;
	}
	if (rgraph_select(g, from, to) >= 0) {
		diag_error(l->d, l->file, l->line, l->col[1], "a second edge from node %d to node %d: a multiplexer "
			   "takes each input once", from, to);
		return 0;
	}
	if (t->nin >= RGRAPH_MAX_FANIN) {
		diag_error(l->d, l->file, l->line, l->col[2], "node %d has more than %d inputs", to, RGRAPH_MAX_FANIN);
		return 0;
	}
	if (g->nedges >= RGRAPH_MAX_EDGES) {
		diag_error(l->d, l->file, l->line, 1, "more than %d edges", RGRAPH_MAX_EDGES);
		return 0;
	}
	return 1;
}

/* edge FROM TO SELECT: SELECT '-' for a node's only input, else its place
 * among the node's inputs. */
static int read_edge(Lines *l, Reading *r)
{
	RGraph *g = r->g;
	long from, to, sel = -1;
	if (l->ntok != 4) {
		diag_error(l->d, l->file, l->line, 1, "expected 'edge FROM TO SELECT'");
		return 0;
	}
	if (g->nnodes == 0) {
		diag_error(l->d, l->file, l->line, 1, "an edge before any node");
		return 0;
	}
	if (!lines_long(l, 1, 10, 0, g->nnodes - 1, &from) || !lines_long(l, 2, 10, 0, g->nnodes - 1, &to) ||
	    !check_edge(l, r, (int)from, (int)to))
		return 0;
	RNode *t = &g->nodes[to];
	int dash = strcmp(l->tok[3], "-") == 0;
	if (!dash && !lines_long(l, 3, 10, 0, RGRAPH_MAX_FANIN - 1, &sel))
		return 0;
	if (dash ? t->nin != 0 : sel != t->nin || r->dashed.data[to]) {
		diag_error(l->d, l->file, l->line, l->col[3], dash || r->dashed.data[to]
			   ? "node %ld has several inputs: each edge into it gives its select (0, 1, ...), not '-'"
			   : "edges into a node are listed in select order", to);
		return 0;
	}
	r->dashed.data[to] = (char)dash;
	gstore_link(g->nodes, (int)from, (int)to);
	g->nedges++;
	return 1;
}

/* end NODES EDGES: the counts of the whole file. */
static void read_end(Lines *l, Reading *r)
{
	RGraph *g = r->g;
	long n, e;
	r->ended = 1;
	if (l->ntok != 3) {
		diag_error(l->d, l->file, l->line, 1, "expected 'end NODES EDGES'");
		return;
	}
	if (!lines_long(l, 1, 10, 0, RGRAPH_MAX_NODES, &n) || !lines_long(l, 2, 10, 0, RGRAPH_MAX_EDGES, &e))
		return;
	if (n != g->nnodes || e != g->nedges)
		diag_error(l->d, l->file, l->line, 1, "the end line counts %ld nodes and %ld edges, the file has %d and %ld: "
			   "lines are missing or were added by hand (" LINES_REGENERATE ")", n, e, g->nnodes, g->nedges);
}

static void record(Lines *l, void *ctx)
{
	Reading *r = ctx;
	RGraph *g = r->g;
	const char *what = l->tok[0];
	if (l->bad)
		return;
	if (r->ended) {
		diag_error(l->d, l->file, l->line, 1, "a record after the end line");
	} else if (strcmp(what, "graph") == 0) {
		read_header(l, r);
	} else if (!r->header) {
		diag_error(l->d, l->file, l->line, 1, "expected the 'graph NAME cols C rows R widths W...' line first, not '%s'",
			   what);
	} else if (strcmp(what, "node") == 0) {
		RNode n;
		if (read_node(l, g, &n)) {
			vec_push(&r->nodes, n);
			vec_push(&r->dashed, 0);
		}
		g->nodes = r->nodes.data;
		g->nnodes = r->nodes.len;
	} else if (strcmp(what, "edge") == 0) {
		read_edge(l, r);
	} else if (strcmp(what, "end") == 0) {
		read_end(l, r);
	} else {
		diag_error(l->d, l->file, l->line, 1, "expected a graph, node, edge or end record, not '%s'", what);
	}
}

RGraph *rgraph_load_string(const char *name, const char *text, Diags *d)
{
	Reading r = { xcalloc(1, sizeof(RGraph)), { 0 }, { 0 }, 0, 0 };
	gstore_init(&r.g->store);
	r.g->file = arena_strdup(r.g->store.arena, name);
	int errors = diags_errors(d);
	int ok = lines_read(name, text, d, 1, record, &r);
	r.g->nodes = r.nodes.data;
	r.g->nnodes = r.nodes.len;
	free(r.dashed.data);
	if (ok && !r.ended)
		diag_error(d, name, 0, 0, "%s without its 'end NODES EDGES' line: the file is cut short, or older than "
			   "its reader (" LINES_REGENERATE ")", r.header ? "the graph ends" : "no graph line, and the file ends");
	if (!ok || diags_errors(d) != errors) {
		rgraph_free(r.g);
		return NULL;
	}
	return r.g;
}

RGraph *rgraph_load(const char *path, Diags *d)
{
	return rgraph_load_string(path, NULL, d);
}

void rgraph_free(RGraph *g)
{
	if (!g)
		return;
	gstore_free_nodes(g->nodes, g->nnodes);
	gstore_free(&g->store);
	free(g);
}

int rgraph_find(const RGraph *g, const char *name)
{
	return gstore_find(&g->store, name);
}

int rgraph_select(const RGraph *g, int from, int to)
{
	for (int i = 0; i < g->nodes[to].nin; i++)
		if (g->nodes[to].in[i] == from)
			return i;
	return -1;
}
