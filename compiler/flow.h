/* flow.h - the compiler's stages in order, as one table (flow.c) that the
 * command line walks: from a parsed program to a bitstream for the chip
 * whose collateral is in --design DIR, stopping after any stage to print or
 * write its result (--emit) or to run it (--run-lowered, --sim-buffers). */
#ifndef COMPILER_FLOW_H
#define COMPILER_FLOW_H

#include <stdint.h>
#include <stdio.h>

#include "../common/image.h"
#include "front/front.h"

/* The stages, in the order they run (flow_list prints what each consumes
 * and produces). */
typedef enum {
	FS_LOWERED,             /* front/, lower/: prepared and lowered by the schedule */
	FS_DFG,                 /* lower/: compute kernels of IR operations on hardware words */
	FS_COVER,               /* backend/: kernels covered by the PE's rewrite rules */
	FS_PIPELINE,            /* backend/: registers before PEs, paths balanced */
	FS_UBUF,                /* ubuf/: unified buffers, schedule, memory tiles configured */
	FS_MAPPED,              /* backend/: the netlist of PE, MEM and IO cells */
	FS_PLACE,               /* backend/: placement; asks for registers on long connections */
	FS_ROUTE,               /* backend/: routing and retiming */
	FS_BITSTREAM,           /* backend/: timing, bitstream, io.yaml, report, svg */
	FS_COUNT
} FlowStage;

/* The back end's knobs (cgrac --help). */
#define CGRAC_HOP_LIMIT 4       /* tiles a value may cross between registers */
typedef struct CgracFlags {
	int quiet;              /* no progress or summary lines */
	int pipeline;           /* registers before PEs, paths balanced (AHA 5.4) */
	int hop_limit;          /* more registers on longer connections (0: none) */
	int pack;               /* registers packed into the PEs' input registers (AHA 5.3.1) */
	uint64_t place_seed;
	int sequential;         /* a coarse-grained pipeline loop's iterations not overlapped */
} CgracFlags;

/* What a whole compilation used and reached: the figures of its
 * <app>.report.yaml that a table of applications shows. */
typedef struct FlowFigures {
	int pes, mems, registers;
	int tracks16, tracks1;          /* routing tracks used, per network width */
	double clock_mhz;
	long long latency;              /* cycles from the first input to the last output */
} FlowFigures;

/* What to do: run the stages up to and including `goal`, then
 *   - with emit, print (and for lowered, dfg and ubuf, write into out) the
 *     goal's result;
 *   - with inputs, run the goal's result on them into *result (dfg: the
 *     loop nest with the kernels on hardware words; ubuf: the buffer-level
 *     simulation);
 *   - else (goal FS_BITSTREAM) write every stage's files into out
 *     together, or none (out NULL: nothing written). */
typedef struct FlowRequest {
	const char *design;     /* the collateral directory; needed from FS_DFG on */
	const char *out;
	FlowStage goal;
	int emit;
	const Image *inputs;    /* one per ImageParam, in declaration order */
	Image *result;
	const CgracFlags *flags;
	int no_print;           /* with emit: write the files, print nothing */
	FlowFigures *figures;   /* the whole flow: its figures, once its files are written */
} FlowRequest;

/* Runs p through the stages; 0 with errors in d. p is prepared in place. */
int flow_run(HProgram *p, const FlowRequest *r, __keep Diags *d);

/* The stage named name (cgrac --emit NAME) that can print its result, or
 * -1. */
int flow_stage(const char *name);
/* The names --emit accepts, "a, b, ... or z", for messages. */
const char *flow_emit_names(void);
/* The stages in order, one line each: name, folder, what it consumes and
 * produces, and the --emit that stops after it (cgrac --stages). */
void flow_list(FILE *f);

#endif
