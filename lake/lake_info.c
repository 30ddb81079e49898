/* lake_info.c - a checked spec to the MemInfo the collateral describes
 * (collateral/meminfo.h): the structure is copied and the controllers,
 * configuration registers and interface are derived from it. */
#include <stdio.h>
#include <string.h>

#include "lake.h"
#include "lake_cmds.h"

MemInfo *lake_info(const LakeSpec *s)
{
	Arena *a = arena_new();
	MemInfo *mi = arena_alloc(a, sizeof *mi);
	memset(mi, 0, sizeof *mi);
	mi->arena = a;
	mi->name = arena_strdup(a, s->name);
	mi->verilog = arena_printf(a, "%s.v", s->name);
	mi->word = s->word;
	mi->dims = s->dims;
	mi->counter_bits = s->counter_bits;
	mi->affine = s->affine == LAKE_AFFINE_MULTIPLY ? MEM_MULTIPLY : MEM_RECURRENCE;
	mi->share = s->share;
	mi->chain = s->chain;
	mi->nunits = s->nunits;
	mi->units = arena_alloc(a, (size_t)(s->nunits + 1) * sizeof(MemUnitInfo));
	memset(mi->units, 0, (size_t)(s->nunits + 1) * sizeof(MemUnitInfo));
	for (int u = 0; u < s->nunits; u++) {
		const LakeUnit *lu = &s->units[u];
		MemUnitInfo *mu = &mi->units[u];
		mu->name = arena_strdup(a, lu->name);
		mu->kind = lu->kind == LAKE_SRAM ? MEM_SRAM : MEM_REGFILE;
		mu->words = lu->words;
		mu->fetch = lu->fetch;
		mu->nports = lu->nports;
		mu->ports = arena_alloc(a, (size_t)(lu->nports + 1) * sizeof(MemPortInfo));
		memset(mu->ports, 0, (size_t)(lu->nports + 1) * sizeof(MemPortInfo));
		for (int p = 0; p < lu->nports; p++) {
			mu->ports[p].name = arena_strdup(a, lu->ports[p].name);
			mu->ports[p].op = (MemOp)lu->ports[p].op;
			mu->ports[p].width = lu->ports[p].width;
			mu->ports[p].latency = lu->ports[p].latency;
			mu->ports[p].ii = lu->ports[p].ii;
		}
	}
	mi->nins = s->nins;
	mi->nouts = s->nouts;
	mi->ins = arena_alloc(a, (size_t)(s->nins + 1) * sizeof(char *));
	mi->outs = arena_alloc(a, (size_t)(s->nouts + 1) * sizeof(char *));
	for (int i = 0; i < s->nins; i++)
		mi->ins[i] = arena_strdup(a, s->ins[i]);
	for (int i = 0; i < s->nouts; i++)
		mi->outs[i] = arena_strdup(a, s->outs[i]);
	mi->nedges = s->nedges;
	mi->edges = arena_alloc(a, (size_t)(s->nedges + 1) * sizeof(MemEdgeInfo));
	memset(mi->edges, 0, (size_t)(s->nedges + 1) * sizeof(MemEdgeInfo));
	for (int i = 0; i < s->nedges; i++) {
		mi->edges[i].src = (MemEnd){ s->edges[i].src.unit, s->edges[i].src.port };
		mi->edges[i].dst = (MemEnd){ s->edges[i].dst.unit, s->edges[i].dst.port };
	}
	mi->lookup.port = (MemEnd){ -1, 0 };
	if (s->lookup.present) {
		mi->lookup.port = (MemEnd){ s->lookup.port.unit, s->lookup.port.port };
		mi->lookup.in = s->lookup.in;
		mi->lookup.out = s->lookup.out;
	}
	meminfo_derive(mi);
	return mi;
}

MemInfo *lake_load_info(const char *path)
{
	Diags *d = diags_new(stderr);
	MemInfo *mi = meminfo_load(path, d);
	int errors = diags_errors(d);
	diags_free(d);
	if (!mi)
		fprintf(stderr, "lake: %d error%s in %s; nothing written\n", errors, errors == 1 ? "" : "s",
			path);
	return mi;
}
