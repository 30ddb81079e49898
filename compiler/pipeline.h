/* cgrac.h - the compiler's pipeline after parsing: reads the chip's
 * collateral from --design DIR, lowers the program by its schedule, builds
 * the compute kernels, and writes what --emit asks for into OUT. */
#ifndef COMPILER_CGRAC_H
#define COMPILER_CGRAC_H

#include "../common/image.h"
#include "front/front.h"

#include <stdint.h>

/* The back end's knobs (cgrac --help). */
#define CGRAC_HOP_LIMIT 4       /* tiles a value may cross between registers */
typedef struct CgracFlags {
	int quiet;              /* no progress or summary lines */
	int pipeline;           /* registers before PEs, paths balanced (AHA 5.4) */
	int hop_limit;          /* more registers on longer connections (0: none) */
	int pack;               /* registers packed into the PEs' input registers (AHA 5.3.1) */
	uint64_t place_seed;
} CgracFlags;

/* 0 with errors in d. design and out may be NULL (then nothing is written). */
int cgrac_compile(HProgram *p, const char *design, const char *out, const char *emit, const CgracFlags *fl,
		  __keep Diags *d);

/* Runs p through its lowered loop nest and compute kernels on hardware
 * words (hl_exec.h); 0 with errors in d. */
int cgrac_run_lowered(HProgram *p, const char *design, const Image *inputs, Image *out, __keep Diags *d);

/* Runs p through its unified buffers: schedules, register chains, memory
 * tiles configured from the collateral and compute kernels, cycle by cycle
 * (ub_sim.h); 0 with errors in d or when a delivered value is wrong. */
int cgrac_sim_buffers(HProgram *p, const char *design, const Image *inputs, Image *out, int quiet,
		      __keep Diags *d);

#endif
