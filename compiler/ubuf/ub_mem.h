/* ub_mem.h - (private to compiler/ubuf/) one physical buffer on the chip's memory tile: given the
 * streams of writes and reads a bank of a unified buffer must perform (cycle
 * and word address of every operation), choose the tile ports, the
 * vectorization for wide fetch (aggregator fill and SRAM write of each block,
 * SRAM fetch into the transpose buffer and its reads), the chaining of tiles
 * when the words do not fit one tile, and solve every controller's
 * configuration registers through `<mem>.smt2` (collateral/memsolve.h). Reads the
 * MEM collateral only (collateral/meminfo.h); the answer is confirmed by running
 * the functional model (collateral/memmodel.h) over the whole request.
 *
 * Timing contract (lake/COLLATERAL.md semantics):
 *  - a write event k of stream w presents its word on the tile input the
 *    configuration assigns to w during cycle w.cycle[k] (counted from flush);
 *  - a read event k of stream r must make word r.addr[k] appear, valid, on
 *    the tile output assigned to r during cycle r.cycle[k];
 *  - the last write of a word before a read's cycle is the value read; a
 *    word never written reads as unspecified.
 * On a tile with fetch F > 1, every write stream must be made of whole
 * aligned blocks: events F*b .. F*b+F-1 write addresses F*a .. F*a+F-1 in
 * order (the caller pads rows to a multiple of F with don't-care words).
 *
 * What else the caller must know:
 *  - write stream k uses tile input k, read stream k tile output k;
 *  - each controller's events must form an affine loop nest of at most
 *    mi->dims levels (memsolve's run-length decomposition): the write and
 *    read streams themselves, every F-th write (a block's storage write),
 *    and the first read of each run of consecutive reads of one block (its
 *    fetch), all with cycles below 2^counter_bits; a ring of addresses must
 *    be a whole number of laps (refusals name the stream and controller);
 *  - a read of a word that is written later but not before the read is "too
 *    early" (with *later), not unspecified; a word never written at all
 *    reads as unspecified (valid is still 1);
 *  - an aggregator with one row must be emptied in the cycle after its
 *    block is complete when the next block follows at once, so two
 *    full-rate write streams into one single-port storage must not complete
 *    their blocks in the same cycles (no offset of the reads helps: *later
 *    stays 0);
 *  - storage operations of different streams never meet on a port: the
 *    plan keeps them apart rather than relying on arbitration. */
#ifndef COMPILER_UBUF_UB_MEM_H
#define COMPILER_UBUF_UB_MEM_H

#include <stddef.h>
#include <stdint.h>

#include "../../collateral/meminfo.h"
#include "../../collateral/memsolve.h"
#include "ubuf.h"

typedef struct UmRequest {
	int64_t words;          /* the bank's address space */
	int nw, nr;
	const UmStream *w, *r;
} UmRequest;


/* Configures the tiles for rq. Returns 1 and fills cfg (__give: free with
 * um_config_free), or 0 with a one-line reason in why ("the bank needs 3
 * read ports; pub has 2 outputs", "read 17 of word 40 at cycle 12 comes
 * before the word can be stored and fetched (the earliest is cycle 19)",
 * ...) and cfg zeroed. If the storage ports cannot serve the reads at their
 * cycles and a uniform delay of every read cycle would make the plan
 * feasible (the delayed reads show the last write before their new cycles),
 * *later (if not NULL) gets the smallest such delay (>0, searched up to 512
 * cycles past a lower bound); otherwise 0. The controllers are solved with
 * solver (memsolver_new of mi and its .smt2, shared by every bank of a
 * mapping). mi and rq are __keep. */
int um_configure(const MemInfo *mi, MemSolver *solver, const UmRequest *rq, UmConfig *cfg,
		 int64_t *later, char *why, size_t whylen);
/* Frees what um_configure gave cfg (safe on a zeroed or failed cfg). */
void um_config_free(UmConfig *cfg);

/* The smallest constant distance (cycles from a word's write to its read on
 * a delay line: every word of a stream read back in order d cycles later)
 * that this tile serves; the scheduler uses it for memory-mapped ports.
 * Found by planning a 64-word delay line for d = 0, 1, ...; -1 if none up
 * to 256 serves (pub: 7, dp: 2). */
int um_min_delay(const MemInfo *mi);
/* Does the planner find a schedule for rq (no solving, no model run)? */
int um_plan_feasible(const MemInfo *mi, const UmRequest *rq, char *why, size_t whylen);

/* Cycle-by-cycle model of a configured chain of tiles (memmodel per tile,
 * chain outputs wired tile k -> k+1 as lake/COLLATERAL.md says). */
typedef struct UmSim UmSim;
/* __give; mi and cfg are __keep (mi must outlive the model, cfg need not). */
UmSim *um_sim_new(const MemInfo *mi, const UmConfig *cfg);
/* One cycle: in[k] is the word of write stream k this cycle (don't care when
 * it has no event); out[k], valid[k] what read stream k's output shows. */
void um_sim_step(UmSim *s, const uint64_t *in, uint64_t *out, int *valid);
/* The same cycle in two halves, for a bank whose writer reads it too (a
 * reduction's previous step): the outputs, from the inputs if in is not NULL
 * (the tiles' same-cycle paths from an input to an output; none without
 * in), then the inputs' words, the writes and the step. */
void um_sim_outputs(UmSim *s, const uint64_t *in, uint64_t *out, int *valid);
void um_sim_inputs(UmSim *s, const uint64_t *in);
void um_sim_free(UmSim *s);

#endif
