/* fuzz_bitstream.c - libFuzzer harness of the bitstream (collateral/
 * bitstream.h), which the compiler and verif build from the collateral
 * alone and the simulators read back: the input is a config.map, the
 * separator byte of fuzz.h and a routing.graph, each read by its reader;
 * when both load, every edge of the graph is routed, every core field set to
 * a value that fits it and one appended, and the bitstream written, then
 * read back against the map (every write must be accepted, in order). The
 * second file is also read as a bitstream against the map: whatever it
 * accepts must address the map's registers within their fields' bits. */
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
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	bitstream_write(b, f);
	fclose(f);
	bitstream_free(b);
	Diags *d = fuzz_diags();
	uint32_t *addr = NULL, *data = NULL;
	long n = bitstream_read_string("built.bs", text, m, &addr, &data, d);
	long lines = 0;
	for (size_t i = 0; i < len; i++)
		lines += text[i] == '\n';
	FUZZ_CHECK(n == lines, "a bitstream built from the map reads back with %ld of %ld writes", n, lines);
	free(addr);
	free(data);
	diags_free(d);
	free(text);
}

/* Whatever the reader accepts as a bitstream addresses the map's registers,
 * in their fields' bits. */
static void read_back(const ConfigMap *m, const char *text)
{
	Diags *d = fuzz_diags();
	uint32_t *addr = NULL, *data = NULL;
	long n = bitstream_read_string("input.bs", text, m, &addr, &data, d);
	for (long i = 0; i < n; i++) {
		uint32_t covered = 0;
		int found = 0;
		for (int k = 0; k < m->nfields; k++)
			if (m->fields[k].address == addr[i]) {
				int w = m->fields[k].hi - m->fields[k].lo + 1;
				covered |= (uint32_t)((w >= 32 ? 0xffffffffu : (1u << w) - 1) << m->fields[k].lo);
				found = 1;
			}
		FUZZ_CHECK(found && !(data[i] & ~covered), "write %ld (%08x %08x) accepted outside the map", i, addr[i],
			   data[i]);
	}
	free(addr);
	free(data);
	diags_free(d);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	Diags *d = fuzz_diags();
	char *text = fuzz_text(d, "config.map", data, size);
	char *graph = text ? fuzz_split(text) : NULL;
	ConfigMap *m = text ? configmap_load_string("config.map", text, d) : NULL;
	RGraph *g = graph ? rgraph_load_string("routing.graph", graph, d) : NULL;
	if (m && graph)
		read_back(m, graph);
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
