/* fuzz_bitstream.c - libFuzzer harness of the bitstream (collateral/
 * bitstream.h), which the compiler and verif build from the collateral
 * alone: the input is a config.map, the separator byte of fuzz.h and a
 * routing.graph, each read by its reader; when both load, every edge of the
 * graph is routed, every core field set to a value that fits it and one
 * appended, and the bitstream written (to a sink, as are diagnostics). */
#include "fuzz.h"

#include "../collateral/bitstream.h"
#include "../collateral/configmap.h"
#include "../collateral/rgraph.h"
#include "../common/bv.h"
#include "../common/rng.h"

static void build(const ConfigMap *m, const RGraph *g, Rng *rng)
{
	Bitstream *b = bitstream_new(m);
	for (int to = 0; to < g->nnodes; to++)
		for (int k = 0; k < g->nodes[to].nin; k++)
			bitstream_route(b, g, g->nodes[to].in[k], to);
	for (int i = 0; i < m->nfields; i++) {
		const CfgField *f = &m->fields[i];
		uint32_t v = (uint32_t)rng_bits(rng, f->hi - f->lo + 1);
		if (!f->mux)
			FUZZ_CHECK(bitstream_set(b, f->target, v), "core field '%s' refused %u", f->target, v);
		if (i == m->nfields - 1)
			FUZZ_CHECK(bitstream_append(b, f->target, v), "field '%s' refused an append of %u", f->target,
				   v);
	}
	bitstream_write(b, fuzz_sink());
	bitstream_free(b);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	Diags *d = fuzz_diags();
	char *text = fuzz_text(d, "config.map", data, size);
	char *graph = text ? fuzz_split(text) : NULL;
	ConfigMap *m = text ? configmap_load_string("config.map", text, d) : NULL;
	RGraph *g = graph ? rgraph_load_string("routing.graph", graph, d) : NULL;
	if (m && g) {
		Rng rng;
		rng_seed(&rng, util_fnv1a(UTIL_FNV_INIT, data, size));
		build(m, g, &rng);
	}
	rgraph_free(g);
	configmap_free(m);
	diags_free(d);
	free(text);
	return 0;
}
