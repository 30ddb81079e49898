/* ub_sim.h - the buffer-level simulator: an application's input streamed
 * cycle by cycle through the extracted schedules, the register chains and
 * wires of the buffer mapping, the configured memory tiles (their functional
 * model, through ub_mem.h) and the compute kernels on hardware words. Every
 * value a port delivers is checked against the value the program stored at
 * that coordinate, so a scheduling or mapping mistake is caught before
 * place and route, at the cycle and port where it happens. */
#ifndef COMPILER_UB_SIM_H
#define COMPILER_UB_SIM_H

#include "../../common/image.h"
#include "ub_map.h"

typedef struct UbSimStats {
	int64_t cycles;
	long reads;             /* values delivered to kernels */
	long wrong;             /* of them, not the value stored at that coordinate */
	char first[512];        /* the first wrong one */
} UbSimStats;

/* inputs: one image per ImageParam; out: the output over its region.
 * Returns 1 if every delivered value was right. */
int ub_simulate(const UbProgram *u, const UbMap *m, const MemInfo *mi, const Image *inputs, Image *out,
		UbSimStats *st);

#endif
