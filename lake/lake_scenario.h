/* lake_scenario.h - designed configurations of a memory tile whose output is
 * known in advance: the tile's use cases (line buffers, wide-fetch
 * streaming, a 4x4-block transpose, chained tiles) and the table look-up. Each configures the
 * controllers from affine maps, drives known input streams and lists the
 * output words it must produce; `lake vectors --scenario` checks the
 * functional model against that list and writes the bench files, so the
 * Verilator bench checks the Verilog on the same cycles. */
#ifndef LAKE_SCENARIO_H
#define LAKE_SCENARIO_H

#include <stddef.h>
#include <stdint.h>

#include "../collateral/meminfo.h"

#define SCENARIO_MAX_TILES 4

typedef struct ScenarioOut {
	long t;                 /* cycle after flush */
	int out;                /* tile output (of the last tile of a chain) */
	uint64_t value;
} ScenarioOut;

typedef struct Scenario {
	const char *name;
	int tiles;              /* > 1: a chain, tile k at x = k on the configuration bus */
	uint32_t *regs[SCENARIO_MAX_TILES];
	long cycles;
	long stream;            /* input words per input port (cycles 0 .. stream-1) */
	uint64_t *input;        /* stream x nins words (cycle-major), or NULL: a hash of the cycle */
	uint32_t *loads;        /* lookup_wr bus writes after the registers, before tile_en */
	long nloads;
	ScenarioOut *expect;
	long nexpect;
} Scenario;

/* The input word of port `port` in cycle t (the stream, then 0). */
uint64_t scenario_input(const MemInfo *mi, const Scenario *sc, int port, long t);
/* Builds scenario `name` (see lake --help) for mi; 0 with a reason in why if
 * mi lacks what it needs. */
int scenario_build(const MemInfo *mi, const char *name, Scenario *sc, char *why, size_t whylen);
void scenario_free(Scenario *sc);

#endif
