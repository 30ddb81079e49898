/* ub.h - unified buffers (Unified Buffer paper, sections 2 and 4.2): every
 * stored Func and streamed image of the accelerator becomes a buffer whose
 * ports are the static reads and writes of the lowered loop nest, each with
 * an iteration domain, an access map and a cycle-accurate schedule.
 *
 * Statements are the accelerator's stores and input streams. Their loop
 * nests are fused level by level (level 0 innermost) into one perfect nest:
 * per level a relative rate (SDF style: a consumer reading x/2 runs its
 * producer at half rate), and per statement a delay so that it starts after
 * its producers end (equations 1 and 2: dependence distances from isl, the
 * compute kernel's latency, and the extra latency of ports served by
 * memories); the innermost level runs at II = 1. A statement's schedule is
 *     t(i) = delay + sum_l stride[l] * (i_l - min_l).
 * Buffer mapping (ub_map.h) turns the ports into wires, register chains and
 * configured memory tiles. */
#ifndef COMPILER_UB_H
#define COMPILER_UB_H

#include <stdio.h>

#include "../../collateral/coll.h"
#include "../lower/hl_dfg.h"

#define UB_MAXD 4

/* An index of a buffer dimension: floor((sum_l coef[l] * i_l + c) / div). */
typedef struct UbIndex {
	int64_t coef[UB_MAXD];
	int64_t c, div;
} UbIndex;

typedef struct UbStmt {
	const char *name;       /* isl tuple name */
	const LStmt *store;     /* LS_STORE or LS_STREAM */
	const DKernel *kernel;  /* NULL for a stream */
	int buffer;             /* the buffer it writes (-1: the output, streamed out) */
	int nloops;             /* levels, [0] innermost */
	int sym[UB_MAXD];       /* loop variable, -1 for a padding level */
	const char *var[UB_MAXD];
	int64_t min[UB_MAXD], extent[UB_MAXD];
	int64_t rate[UB_MAXD];  /* relative rate per fused level */
	int64_t stride[UB_MAXD];
	int64_t delay;
	int latency;            /* of the compute kernel, cycles */
	int output;             /* streams to the global buffer */
	int input;              /* streamed from the global buffer */
	int image;              /* input: the image; split_dim its dimension fixed at split_val, or -1 */
	int split_dim;
	int64_t split_val;
	int nout;               /* output: the coordinates it stores */
	UbIndex out_index[UB_MAXD];
} UbStmt;

typedef struct UbPort {
	int buffer, stmt;
	int write;
	int node;               /* read port: the kernel's load node; -1 for a write */
	int ndims;
	UbIndex index[UB_MAXD]; /* buffer dimension j as a function of the statement's loops */
	int64_t extra;          /* latency the mapping asks for on top of the dependence */
	/* filled by ub_schedule for read ports */
	int src;                /* the write port every value comes from, or -1 (several) */
	int64_t dmin, dmax;     /* dependence distance: cycles from write to read */
} UbPort;

typedef struct UbBuffer {
	const char *name;
	int func, image;        /* one of them >= 0 */
	int ndims;
	int64_t min[UB_MAXD], extent[UB_MAXD];   /* the box of every value */
	VEC(int) ports;         /* writes first */
	int nwrites;
	int64_t capacity;       /* values live at once, at most */
} UbBuffer;

typedef struct UbProgram {
	const LProgram *L;
	const DGraph *g;
	VEC(UbStmt) stmts;      /* producers before consumers */
	VEC(UbBuffer) bufs;
	VEC(UbPort) ports;
	int fetch;              /* the MEM's fetch width: level 0 padded to it */
	int64_t period[UB_MAXD];/* cycles of one iteration of fused level l */
	int64_t first_in, last_out;
	Arena *arena;
} UbProgram;

/* Extracts the buffers and ports of L's accelerator (kernels g); fetch is
 * the memory tile's fetch width. 0 with errors in d (an access that is not
 * affine in the loops, a reduction kept as its own stage, which needs the
 * coarse-grained scheduler). */
int ub_extract(UbProgram *u, const LProgram *L, const DGraph *g, int fetch, __keep Diags *d);
/* Rates, delays, dependence distances and capacities; 0 with errors in d
 * (a schedule longer than `max_cycle`, reads of values never written). */
int ub_schedule(UbProgram *u, int64_t max_cycle, __keep Diags *d);
void ub_free(UbProgram *u);

/* Per value of b (ub_flat order): the cycle it is written and the cycle of
 * its last read, -1 if none (__give: free both). */
void ub_lifetimes(const UbProgram *u, const UbBuffer *b, int64_t **wt, int64_t **rt);
/* The cycle of statement s at loop values i[level]. */
int64_t ub_time(const UbStmt *s, const int64_t *i);
/* The position of buffer coordinates c in b's box (dimension 0 fastest), or
 * -1 outside it. */
int64_t ub_flat(const UbBuffer *b, const int64_t *c);
/* Buffer coordinate j of port p at loop values i. */
int64_t ub_index_at(const UbIndex *x, const int64_t *i);
/* Walks a statement's domain in schedule order: first sets i to the first
 * point, next advances; 0 when done. */
void ub_first(const UbStmt *s, int64_t *i);
int ub_next(const UbStmt *s, int64_t *i);

/* The buffers as Fig. 3 of the paper: per port its domain, access map and
 * schedule in isl notation, dependence distances, capacity. */
void ub_print(const UbProgram *u, FILE *f);

#endif
