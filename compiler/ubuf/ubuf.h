/* ubuf.h - unified buffers, the one header other folders include: buffer
 * extraction and the stencil schedule (ub.c, ub_sched.c), buffer mapping to
 * wires, register chains and configured memory tiles (ub_map.c, with one
 * bank on the tile planned and solved by ub_mem.c), and the buffer-level
 * simulator (ub_sim.c). */
#ifndef COMPILER_UBUF_H
#define COMPILER_UBUF_H

#include <stdint.h>
#include <stdio.h>

#include "../../collateral/coll.h"
#include "../../collateral/memsolve.h"
#include "../../common/image.h"
#include "../lower/lower.h"

/* ---- buffers and their schedule (ub.c, ub_sched.c) ----
 * Unified buffers (Unified Buffer paper, sections 2 and 4.2): every
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

/* Loop levels of a statement and dimensions of a buffer (a reduction kept in
 * time adds one: the step). A memory tile's controllers have their own limit
 * (<mem>.info.yaml, controller dims), which the configuration solver checks. */
#define UB_MAXD 8

/* Loops of the host around the accelerator (lower.h): each iteration is a
 * run of the accelerator. Buffers, statements and schedules are those of
 * the first run; a later run does the same on regions moved by a constant
 * per host loop (UbIndex.host). */
#define UB_MAXH L_MAX_HOST

/* An index of a buffer dimension: floor((sum_l coef[l] * i_l + c) / div) in
 * the first run; host[k] is what host loop k adds to the numerator per
 * iteration (a run moves the index by host[k] / div, checked to divide). */
typedef struct UbIndex {
	int64_t coef[UB_MAXD];
	int64_t c, div;
	int64_t host[UB_MAXH];
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
	int coarse;             /* a stage of the coarse-grained pipeline scheduled on its own:
				 * its levels inside the pipeline loop in its own order, a value
				 * a cycle (the coarse-grained policy, UbProgram.coarse) */
	int apart;              /* an input stream run apart from the fused nest, one value a
				 * cycle in its own order (its rows padded to the fetch width),
				 * because its loops would stretch the steps of a reduction kept
				 * in time (ub_sched.c, set_apart) */
	int image;              /* input: the image; split_dim its dimension fixed at split_val, or -1 */
	int split_dim;
	int64_t split_val;      /* in the first run; */
	int64_t split_stride;   /* 0: the dimension fixed at split_val; else the stream takes every
				 * split_stride-th value from split_val (a channel of each block
				 * of a loop inside the accelerator), its buffer's dimension
				 * split_dim counting them */
	int64_t split_shift[UB_MAXH];   /* what each host loop adds per iteration */
	int nout;               /* output: the coordinates it stores */
	UbIndex out_index[UB_MAXD];
} UbStmt;

typedef struct UbPort {
	int buffer, stmt;
	int write;
	int node;               /* read port: the kernel's load node; -1 for a write */
	int previous;           /* a reduction's read of its previous step: a read outside
				 * the buffer's box (before the first step) is a value the
				 * kernel does not use */
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
	int64_t versions;       /* a reduction kept in time: its last dimension is the step
				 * (0 .. versions - 1) that wrote the value; 0 otherwise */
	VEC(int) ports;         /* writes first */
	int nwrites;
	int64_t capacity;       /* values live at once, at most */
	int64_t blocks;         /* a Func computed at a loop inside the accelerator: a block of
				 * its values per iteration of the loops around it, this many,
				 * counted in its outermost coordinate; 0 otherwise */
} UbBuffer;

typedef struct UbProgram {
	const LProgram *L;
	const DGraph *g;
	int nhost;              /* the host's loops around the accelerator (L->host) */
	int64_t runs;           /* the product of their extents: runs of the accelerator */
	VEC(UbStmt) stmts;      /* producers before consumers */
	VEC(UbBuffer) bufs;
	VEC(UbPort) ports;
	int fetch;              /* the MEM's fetch width: level 0 padded to it */
	int64_t period[UB_MAXD];/* cycles of one iteration of fused level l */
	int64_t first_in, last_out;
	int64_t last_in;        /* the last input value's cycle (an input region rounded up may
				 * stream on after the last output) */
	/* the policy: the stencil scheduler's one fused nest, or (inputs_apart) every input
	 * stream apart from it, chosen when the costliest statement (its kernel's operations
	 * times its iterations) is busy less than its span in the fused nest and the
	 * inputs apart end sooner (section 4.2's choice, for the load and compute stages) */
	int inputs_apart;
	int fused_only;         /* the inputs apart did not map: the fused nest alone */
	/* the coarse-grained policy (with the inputs apart): each stage inside the pipeline
	 * loop in its own order, the loop's period the longest stage's; chosen when it ends
	 * sooner than the others (section 4.2: the costliest stage cannot keep busy after
	 * fusion); no_coarse once its schedule did not map */
	int coarse, no_coarse;
	const char *costliest;  /* its statement, NULL if none */
	int64_t busy, span;     /* its iterations and its span in the fused nest */
	int64_t fused_last_out; /* the fused nest's last output, when inputs_apart */
	/* A coarse-grained pipeline (section 4.2): the innermost loop of the accelerator
	 * that statements of several stages share (a Func computed at a loop inside
	 * the accelerator, and that loop's other statements), at fused level pipe_level
	 * (-1: none). Its iterations overlap by default, as far as the dependences
	 * allow: each Func computed in it keeps a block per iteration, so iteration
	 * t + 1 writes while iteration t is still read (double buffering), and no flush
	 * separates them (loop flattening: the loops around it are levels of the one
	 * fused nest, not runs of the accelerator). With `sequential` an iteration
	 * starts only when the one before has ended (the paper's sequential
	 * scheduling, for comparison). */
	int pipe_level;
	const char *pipe_var;
	int64_t pipe_extent;
	int sequential;
	int64_t pipe_ii;        /* cycles between iterations (the level's period) */
	int64_t pipe_latency;   /* one iteration: its first statement's start to its last's end */
	int pipe_sym;           /* the loop's variable */
	int64_t pipe_stretch;   /* sequential: the least period of the level (ub_sched.c) */
	Arena *arena;
} UbProgram;

/* Extracts the buffers and ports of L's accelerator (kernels g); fetch is
 * the memory tile's fetch width. An image dimension read only at constant
 * indices (channels), or at c + a * (a loop a Func is computed at inside the
 * accelerator) (the channels of a block), is streamed apart, one stream per
 * value of c, while the input streams fit io_tiles (0: no limit). 0 with
 * errors in d (an access that is not affine in the loops, a loop whose start
 * is not affine in the loops around it, a Func computed at an unrolled loop,
 * runs of the accelerator that differ by more than a shift of each buffer). */
int ub_extract(UbProgram *u, const LProgram *L, const DGraph *g, int fetch, int io_tiles, __keep Diags *d);
/* Rates, delays, dependence distances and capacities; 0 with errors in d
 * (a schedule longer than `max_cycle`, reads of values never written). */
int ub_schedule(UbProgram *u, int64_t max_cycle, __keep Diags *d);
void ub_free(UbProgram *u);

/* Per value of b (ub_flat order): the cycle it is written and the cycle of
 * its last read, -1 if none (__give: free both). */
void ub_lifetimes(const UbProgram *u, const UbBuffer *b, int64_t **wt, int64_t **rt);
/* The cycle of statement s at loop values i[level]. */
int64_t ub_time(const UbStmt *s, const int64_t *i);
/* A reduction kept in time whose read of its step before is p: the lowest of
 * the outermost levels of its statement that its step depends on, below the
 * loops of the accelerator around it (its RVar loops in time are levels
 * [ub_step_top, ub_step_end) when they are outermost). */
int ub_step_top(const UbProgram *u, const UbPort *p);
int ub_step_end(const UbProgram *u, const UbPort *p);
/* The position of buffer coordinates c in b's box (dimension 0 fastest), or
 * -1 outside it. */
int64_t ub_flat(const UbBuffer *b, const int64_t *c);
/* Buffer coordinate j of port p at loop values i. */
int64_t ub_index_at(const UbIndex *x, const int64_t *i);
/* The host's iteration of run r (0 .. runs - 1, the innermost host loop
 * fastest), h[k] from 0, in L->host's order; and what it adds to x. */
void ub_run_iteration(const UbProgram *u, int64_t r, int64_t *h);
int64_t ub_run_shift(const UbProgram *u, const UbIndex *x, const int64_t *h);
/* The greatest common divisor, not negative (gcd(0, 0) = 0). */
int64_t ub_gcd(int64_t a, int64_t b);
/* Walks a statement's domain in schedule order: first sets i to the first
 * point, next advances; 0 when done. */
void ub_first(const UbStmt *s, int64_t *i);
int ub_next(const UbStmt *s, int64_t *i);

/* The buffers as Fig. 3 of the paper: per port its domain, access map and
 * schedule in isl notation, dependence distances, capacity. */
void ub_print(const UbProgram *u, FILE *f);

/* ---- a bank's memory tiles configured (ub_mem.c) ----
 * A bank's streams of writes and reads (cycle and word address of every
 * operation), and the configuration of the chain of tiles that holds it:
 * every register's value per tile and which tile port serves which stream. */

typedef struct UmStream {
	long n;
	int64_t *cycle;         /* strictly increasing, >= 0 */
	int64_t *addr;          /* in [0, UmRequest.words) */
	uint8_t *care;          /* a read stream's: 0 for a read whose value nobody takes (it
				 * completes a fetch block so that the fetches keep one rhythm),
				 * 1 otherwise; NULL: every read is taken */
} UmStream;

typedef struct UmConfig {
	int ntiles;             /* tiles of the chain (1 without chaining) */
	uint32_t **regs;        /* [tile][mi->nregs]: every register's value */
	int *win;               /* write stream k -> tile input index (same on every tile) */
	int *rout;              /* read stream k -> tile output index (of the chain's last tile) */
	int nw, nr;
	int controllers;        /* controllers enabled per tile */
	double seconds;         /* solving */
	/* What was solved, for inspection: the events each controller performs
	 * (indexed like mi->ctrls; n 0 for a disabled one), in memsolve's form. */
	int nctrls;
	MemStream *streams;
	int solves;             /* memsolve calls (controllers whose streams differ
				 * only by constant shifts share one) */
	int64_t *offsets;       /* [nw + nr]: the planned slack of each write
				 * stream's storage write (cycles after its block is
				 * complete) and each read stream's fetch (cycles before
				 * the latest possible one) */
} UmConfig;

/* ---- buffer mapping (ub_map.c) ----
 * Buffer mapping (Unified Buffer paper 4.3): each read port of a
 * unified buffer is served by a wire, a register chain or a memory tile.
 *
 * Shift-register optimization is exhaustive: a read port whose values all
 * come from one write port at a constant dependence distance k is that
 * port's stream delayed by k cycles. Per write port the distinct distances
 * become taps: distances below the register limit hang off the write port
 * itself (k = 0 is a wire), longer ones off a memory delay line that
 * delivers the whole stream D cycles late (the smallest such distance), with
 * k - D registers after it. Delay lines are grouped into banks of as many
 * taps as the tile has outputs; ports that are not shift registers are
 * banked by the same rule with their own address streams. Each bank's
 * streams (cycles and linearized, padded, ring-folded addresses) go to
 * ub_mem.h, which vectorizes, chains and solves the tile's registers.
 *
 * When a memory cannot serve its reads as early as scheduled, the consumer
 * ports get that much extra latency and the program is rescheduled. */

typedef enum { UB_SRC_WRITE, UB_SRC_BANK } UbSrcKind;

/* Where a read port's values come from: a write port's stream or a bank's
 * output, `regs` cycles later (0: a wire). */
typedef struct UbSource {
	UbSrcKind kind;
	int write;              /* UB_SRC_WRITE: the write port */
	int bank, out;          /* UB_SRC_BANK: the bank and its read stream */
	int64_t regs;
} UbSource;

typedef struct UbBank {
	int buffer;
	int delay_line;         /* taps of one write port's stream */
	int nw, nr;
	int wport[8];           /* write streams: the buffer's write ports */
	int64_t delay[8];       /* delay line: each read stream's delay */
	UmStream w[8], r[8];
	int64_t words;
	int64_t ring, rows;     /* addressed: rows of the ring that dimension 1 folds into, of all rows */
	int whole;              /* addressed: its read rows completed to whole fetch blocks */
	UmConfig cfg;
	int configured;
} UbBank;

typedef struct UbMap {
	UbSource *src;          /* per port (read ports only) */
	VEC(UbBank) banks;
	int64_t regs;           /* registers of all chains */
	int tiles;              /* memory tiles (chained tiles counted) */
	int naive_tiles;        /* one memory per read port, as before the optimization */
	int sr_max;             /* distances below this are register chains */
	int iterations;         /* schedule-and-map rounds */
	double seconds;         /* mapping and solving */
} UbMap;

/* Extracts, schedules and maps L's buffers on c's memory tile until every
 * bank is configured (at most a few rounds). latency (NULL: all 0) gives
 * each kernel of g its pipeline depth in cycles; sequential: the iterations
 * of a coarse-grained pipeline loop one after another (UbProgram). 0 with
 * errors in d. */
int ub_build(UbProgram *u, UbMap *m, const LProgram *L, const DGraph *g, const Collateral *c,
	     const int *latency, int sequential, __keep Diags *d);
void ub_map_free(UbMap *m);

/* Per bank: the buffer, taps or ports, words, tiles and each tile's
 * configuration as bus writes (`AAAAAAAA DDDDDDDD`, tile k in the x field). */
void ub_map_print(const UbProgram *u, const UbMap *m, const MemInfo *mi, FILE *f);

/* ---- the buffer-level simulator (ub_sim.c) ----
 * The buffer-level simulator: an application's input streamed
 * cycle by cycle through the extracted schedules, the register chains and
 * wires of the buffer mapping, the configured memory tiles (their functional
 * model, through ub_mem.h) and the compute kernels on hardware words. Every
 * value a port delivers is checked against the value the program stored at
 * that coordinate, so a scheduling or mapping mistake is caught before
 * place and route, at the cycle and port where it happens. */

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
