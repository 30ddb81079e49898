/* ub_map.h - buffer mapping (Unified Buffer paper 4.3): each read port of a
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
#ifndef COMPILER_UB_MAP_H
#define COMPILER_UB_MAP_H

#include "ub.h"
#include "ub_mem.h"

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
 * each kernel of g its pipeline depth in cycles. 0 with errors in d. */
int ub_build(UbProgram *u, UbMap *m, const LProgram *L, const DGraph *g, const Collateral *c,
	     const int *latency, __keep Diags *d);
void ub_map_free(UbMap *m);

/* Per bank: the buffer, taps or ports, words, tiles and each tile's
 * configuration as bus writes (`AAAAAAAA DDDDDDDD`, tile k in the x field). */
void ub_map_print(const UbProgram *u, const UbMap *m, const MemInfo *mi, FILE *f);

#endif
