/* rgraph.c - the reader of routing.graph (rgraph.h). */
#include "rgraph.h"

#include <stdlib.h>
#include <string.h>

#include "../common/vec.h"
#include "lines.h"

static int side_of(const char *s)
{
	const char *p = strchr("NESW", s[0]);
	return s[0] && !s[1] && p ? (int)(p - "NESW") : -1;
}

static int read_node(Lines *l, RGraph *g, RNode *n)
{
	long id, w, x, y, t = -1;
	if (l->ntok != 10 || !lines_long(l, 1, 10, g->nnodes, g->nnodes, &id) || !lines_long(l, 3, 10, 1, 64, &w) ||
	    !lines_long(l, 4, 10, 0, 255, &x) || !lines_long(l, 5, 10, 0, 255, &y) ||
	    (strcmp(l->tok[7], "-") != 0 && !lines_long(l, 7, 10, 0, 1000, &t))) {
		if (l->ntok != 10)
			diag_error(l->d, l->file, l->line, 1, "expected 'node ID KIND WIDTH X Y SIDE TRACK DELAY NAME'");
		return 0;
	}
	memset(n, 0, sizeof *n);
	n->kind = arena_strdup(g->store.arena, l->tok[2]);
	n->name = arena_strdup(g->store.arena, l->tok[9]);
	n->width = (int)w;
	n->x = (int)x;
	n->y = (int)y;
	n->side = side_of(l->tok[6]);
	n->track = (int)t;
	n->delay = strtod(l->tok[8], NULL);
	if (!gstore_name(&g->store, n->name, (int)id)) {
		diag_error(l->d, l->file, l->line, l->col[9], "a second node named '%s'", n->name);
		return 0;
	}
	return 1;
}

static int read_edge(Lines *l, RGraph *g)
{
	long from, to, sel = -1;
	if (l->ntok != 4 || !lines_long(l, 1, 10, 0, g->nnodes - 1, &from) || !lines_long(l, 2, 10, 0, g->nnodes - 1, &to)) {
		if (l->ntok != 4)
			diag_error(l->d, l->file, l->line, 1, "expected 'edge FROM TO SELECT'");
		return 0;
	}
	RNode *t = &g->nodes[to];
	if (strcmp(l->tok[3], "-") != 0 && !lines_long(l, 3, 10, 0, 1 << 20, &sel))
		return 0;
	if (sel != (strcmp(l->tok[3], "-") == 0 ? -1 : t->nin)) {
		diag_error(l->d, l->file, l->line, l->col[3], "edges into a node are listed in select order");
		return 0;
	}
	gstore_link(g->nodes, (int)from, (int)to);
	return 1;
}

typedef struct Reading {
	RGraph *g;
	VEC(RNode) nodes;
} Reading;

static void record(Lines *l, void *ctx)
{
	Reading *r = ctx;
	RGraph *g = r->g;
	if (strcmp(l->tok[0], "graph") == 0 && l->ntok >= 6) {
		long c, rows;
		g->design = arena_strdup(g->store.arena, l->tok[1]);
		if (lines_long(l, 3, 10, 1, 255, &c) && lines_long(l, 5, 10, 1, 256, &rows))
			g->cols = (int)c, g->rows = (int)rows;
	} else if (strcmp(l->tok[0], "node") == 0) {
		RNode n;
		g->nnodes = r->nodes.len;
		if (read_node(l, g, &n))
			vec_push(&r->nodes, n);
		g->nodes = r->nodes.data;
		g->nnodes = r->nodes.len;
	} else if (strcmp(l->tok[0], "edge") == 0) {
		read_edge(l, g);
	} else {
		diag_error(l->d, l->file, l->line, 1, "expected a graph, node or edge record, not '%s'", l->tok[0]);
	}
}

RGraph *rgraph_load_string(const char *name, const char *text, Diags *d)
{
	Reading r = { xcalloc(1, sizeof(RGraph)), { 0 } };
	gstore_init(&r.g->store);
	int ok = lines_read(name, text, d, 1, record, &r);
	r.g->nodes = r.nodes.data;
	r.g->nnodes = r.nodes.len;
	if (!ok) {
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
