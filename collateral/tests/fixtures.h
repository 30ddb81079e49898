/* fixtures.h - the small memory tile the tests of meminfo and memmodel share:
 * built in code rather than read from an info.yaml, with one storage unit `rf`
 * (a write and a read port) that every tile input writes and the one output
 * reads. Header-only. */
#ifndef COLLATERAL_TESTS_FIXTURES_H
#define COLLATERAL_TESTS_FIXTURES_H

#include <string.h>

#include "../meminfo.h"
#include "../../common/arena.h"

/* A small tile built in code: one storage unit `rf` with a write port and a
 * read port, inputs in0..in{nins-1} all writing it, one output. */
static inline MemInfo *tiny_mem(MemKind kind, int words, int latency, int nins, MemAffine affine, int chain,
				int counter_bits)
{
	Arena *a = arena_new();
	MemInfo *mi = arena_alloc(a, sizeof *mi);
	memset(mi, 0, sizeof *mi);
	mi->arena = a;
	mi->name = "tiny";
	mi->verilog = "tiny.v";
	mi->word = 16;
	mi->dims = 3;
	mi->counter_bits = counter_bits;
	mi->affine = affine;
	mi->chain = chain;
	mi->nunits = 1;
	mi->units = arena_alloc(a, sizeof(MemUnitInfo));
	memset(mi->units, 0, sizeof(MemUnitInfo));
	mi->units[0] = (MemUnitInfo){ "rf", kind, words, 1, 0, NULL, 2 };
	mi->units[0].ports = arena_alloc(a, 2 * sizeof(MemPortInfo));
	mi->units[0].ports[0] = (MemPortInfo){ "w", MEM_WRITE, 1, latency, 1, 0 };
	mi->units[0].ports[1] = (MemPortInfo){ "r", MEM_READ, 1, latency, 1, 0 };
	static const char *ins[] = { "in0", "in1" }, *outs[] = { "out0" };
	mi->ins = ins;
	mi->nins = nins;
	mi->outs = outs;
	mi->nouts = 1;
	mi->nedges = nins + 1;
	mi->edges = arena_alloc(a, (size_t)mi->nedges * sizeof(MemEdgeInfo));
	memset(mi->edges, 0, (size_t)mi->nedges * sizeof(MemEdgeInfo));
	for (int i = 0; i < nins; i++) {
		mi->edges[i].src = (MemEnd){ MEM_TILE_IN, i };
		mi->edges[i].dst = (MemEnd){ 0, 0 };
	}
	mi->edges[nins].src = (MemEnd){ 0, 1 };
	mi->edges[nins].dst = (MemEnd){ MEM_TILE_OUT, 0 };
	mi->lookup.port = (MemEnd){ -1, 0 };
	meminfo_derive(mi);
	return mi;
}

#endif
