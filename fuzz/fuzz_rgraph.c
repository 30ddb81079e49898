/* fuzz_rgraph.c - libFuzzer harness of routing.graph's reader
 * (collateral/rgraph.h): the input is the file, read by rgraph_load_string
 * as the compiler's router and verif read it; a graph that loads must find
 * every node by its name and every edge at its select, which is what the
 * router relies on. Diagnostics go to a sink (fuzz.h). */
#include "fuzz.h"

#include "../collateral/rgraph.h"

/* The graph as its readers use it: names and selects. */
static void walk(const RGraph *g)
{
	for (int i = 0; i < g->nnodes; i++) {
		const RNode *n = &g->nodes[i];
		FUZZ_CHECK(rgraph_find(g, n->name) == i, "node %d '%s' found as %d", i, n->name,
			   rgraph_find(g, n->name));
		for (int k = 0; k < n->nin; k++) {
			FUZZ_CHECK(n->in[k] >= 0 && n->in[k] < g->nnodes, "input %d of node %d is %d", k, i, n->in[k]);
			int sel = rgraph_select(g, n->in[k], i);
			FUZZ_CHECK(sel >= 0 && sel <= k, "edge %d -> %d at select %d, found at %d", n->in[k], i, k, sel);
		}
		for (int k = 0; k < n->nout; k++)
			FUZZ_CHECK(rgraph_select(g, i, n->out[k]) >= 0, "edge %d -> %d not among its inputs", i,
				   n->out[k]);
	}
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
