/* fuzz_rgraph.c - libFuzzer harness of routing.graph's reader
 * (collateral/rgraph.h): the input is the file, read by rgraph_load_string
 * as the compiler's router and verif read it; a graph that loads must find
 * every node by its name and every edge at its select, which is what the
 * router relies on, and hold only what the reader promises: known kinds,
 * widths of the graph's networks, tiles of its array, finite delays from 0
 * to RGRAPH_MAX_DELAY, each input once and of its node's width, the edges
 * its end line counts. Diagnostics go to a sink (fuzz.h). */
#include "fuzz.h"

#include "../collateral/rgraph.h"

/* What the reader promises of a node on its own. */
static void check_node(const RGraph *g, int i)
{
	const RNode *n = &g->nodes[i];
	int kind = 0, width = 0;
	for (int k = 0; rgraph_kinds[k]; k++)
		kind |= n->kind == rgraph_kinds[k];
	for (int k = 0; k < g->nwidths; k++)
		width |= n->width == g->widths[k];
	FUZZ_CHECK(kind && width, "node %d: kind '%s', %d bits", i, n->kind, n->width);
	FUZZ_CHECK(n->x >= 0 && n->x < g->cols && n->y >= 0 && n->y < g->rows, "node %d at (%d, %d)", i, n->x, n->y);
	FUZZ_CHECK(n->delay >= 0 && n->delay <= RGRAPH_MAX_DELAY, "node %d: delay %g", i, n->delay);
	FUZZ_CHECK(n->nin <= RGRAPH_MAX_FANIN, "node %d: %d inputs", i, n->nin);
}

/* The graph as its readers use it: names and selects. */
static void walk(const RGraph *g)
{
	long edges = 0;
	for (int i = 0; i < g->nnodes; i++) {
		const RNode *n = &g->nodes[i];
		FUZZ_CHECK(rgraph_find(g, n->name) == i, "node %d '%s' found as %d", i, n->name,
			   rgraph_find(g, n->name));
		check_node(g, i);
		edges += n->nin;
		for (int k = 0; k < n->nin; k++) {
			FUZZ_CHECK(n->in[k] >= 0 && n->in[k] < g->nnodes, "input %d of node %d is %d", k, i, n->in[k]);
			int sel = rgraph_select(g, n->in[k], i);
			FUZZ_CHECK(sel == k, "edge %d -> %d at select %d, found at %d", n->in[k], i, k, sel);
			FUZZ_CHECK(g->nodes[n->in[k]].width == n->width, "edge %d -> %d across networks", n->in[k], i);
		}
		for (int k = 0; k < n->nout; k++)
			FUZZ_CHECK(rgraph_select(g, i, n->out[k]) >= 0, "edge %d -> %d not among its inputs", i,
				   n->out[k]);
	}
	FUZZ_CHECK(edges == g->nedges, "%ld edges, %ld counted", edges, g->nedges);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	Diags *d = fuzz_diags();
	char *text = fuzz_text(d, "routing.graph", data, size);
	RGraph *g = text ? rgraph_load_string("routing.graph", text, d) : NULL;
	if (g)
		walk(g);
	rgraph_free(g);
	diags_free(d);
	free(text);
	return 0;
}
