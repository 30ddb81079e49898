/* backend.h - from mapped buffers and kernels to a configured array: the
 * netlist (netlist.h), placement (place.h), routing on routing.graph
 * (route.h), static timing from the collateral's delays, the bitstream
 * from config.map, and the files of build/<design>/<app>/ (ARCHITECTURE.md
 * "Application outputs"): <app>.mapped.json, .place, .route, .bs, .io.yaml,
 * .report.yaml and .svg, written together or not at all. */
#ifndef COMPILER_BACKEND_H
#define COMPILER_BACKEND_H

#include <stdint.h>
#include <stdio.h>

#include "cmap.h"
#include "../ubuf/ubuf.h"

/* A file the caller adds to the set written together: OUT/<app>.<ext>. */
typedef struct BeFile {
	const char *ext;
	void (*write)(const void *arg, FILE *f);
	const void *arg;
} BeFile;

typedef struct BeOptions {
	uint64_t seed;
	int quiet;
	const char *emit;       /* "mapped", "place" or "route": stop after that stage and print it */
	double seconds_front;   /* front end, buffers and compute mapping (for the report) */
	double seconds_buffers;
	double seconds_cmap;
	const BeFile *extra;    /* the earlier stages' files (dfg.json, ubuf, mem) */
	int nextra;
	int hop_limit;          /* tiles a value may cross between registers (0: no limit) */
	int ask_regs;           /* may ask for more registers (BE_MORE_REGISTERS) */
	int pack;               /* registers packed into the PEs' input registers (AHA 5.3.1) */
} BeOptions;

/* be_run's answer when, after placement, connections are longer than
 * hop_limit tiles per register: cm's extra registers have been raised;
 * pipeline, schedule the buffers again and call again (the placement of
 * the same netlist comes out the same). */
#define BE_MORE_REGISTERS 2

/* The back end of app (its file name) into out (NULL: nothing written).
 * 0 with errors in d: a netlist larger than the array (needed vs
 * available), an unroutable design (the router's report); 1 when done;
 * BE_MORE_REGISTERS (only with o->ask_regs). */
int be_run(const char *app, const char *out, const UbProgram *u, const UbMap *m, CMap *cm,
	   const Collateral *c, const BeOptions *o, __keep Diags *d);

#endif
