/* memsolve.h - configuring a memory tile controller with Z3: given the stream
 * of operations a controller must perform (its cycles and the addresses at its
 * storage ends), find configuration register values. The controllers'
 * semantics come from `<mem>.smt2` (loaded with Z3's SMT-LIB parser) and the
 * MemInfo; every answer is confirmed by running the functional model over the
 * whole stream, and a mismatch is added to the problem as a counterexample.
 * Reads only collateral, so the compiler calls it as Lake's `solve` does. */
#ifndef COMMON_MEMSOLVE_H
#define COMMON_MEMSOLVE_H

#include <stdint.h>

#include "affine.h"
#include "meminfo.h"

/* A stream: n operations in order, each with its cycle and, per storage end
 * of the controller (src then dst, those that have an address generator),
 * an address. Addresses are the generator's values (on a chained unit the
 * high bits select the tile). */
typedef struct MemStream {
	long n;
	int64_t *cycle;
	int naddr;              /* 0, 1 or 2 */
	int64_t *addr[2];
} MemStream;

/* The same in affine form, as the compiler's scheduler produces it:
 * an iteration domain (extents, level 0 innermost), the schedule and access
 * maps as affine functions of it. */
typedef struct MemAffineReq {
	AffineMap sched;        /* dims and extents shared by all maps */
	int naddr;
	AffineMap addr[2];
} MemAffineReq;

typedef struct MemSolveStats {
	int iterations;         /* Z3 calls */
	int events_used;        /* events given to Z3 in the last call */
	double seconds;
	/* the minimal loop nest of the stream (level 0 innermost; on a failure as
	 * far as it was found); extent holds its first MEM_MAX_DIMS levels */
	int levels;
	int64_t extent[MEM_MAX_DIMS];
	long event;             /* the event a failure's reason names, or -1 */
} MemSolveStats;

/* Solves controller `ctrl` of mi for the stream. On success fills regs[]
 * (indexed like mi->regs; only the controller's registers are written, its
 * enable set to 1, levels the stream does not use get max 0 and steps 0) and
 * returns 1. Otherwise returns 0 with a one-line reason in why ("cannot be
 * configured: ..."), naming the event at fault where there is one. Requests
 * the hardware cannot serve: cycles that do not increase or overflow the
 * schedule counter, addresses outside their generator's range (addr_bits of a
 * port, counter_bits on a chained unit), sequences that are not affine (mod
 * 2^width), more loop levels than mi->dims. smt2 is the text of `<mem>.smt2`
 * (__keep); st may be NULL. The answer is confirmed by the functional model
 * with tile_en 1, every other controller disabled and, on a chained unit,
 * chain_id set to each tile the stream addresses (up to 4 runs). */
int memsolve_stream(const MemInfo *mi, const char *smt2, int ctrl, const MemStream *s,
		    uint32_t *regs, char *why, size_t whylen, MemSolveStats *st);
/* The same with a solver kept for many streams of one tile kind: a Z3
 * context in which the .smt2 is parsed once per controller (on its first
 * stream), each value function as an equation in placeholders that every
 * event's counters and value replace, so that configuring a chip's many
 * buffers parses nothing twice (memsolve_stream makes one for its call).
 * mi and smt2 are __keep, and outlive the solver. */
typedef struct MemSolver MemSolver;
__give MemSolver *memsolver_new(__keep const MemInfo *mi, __keep const char *smt2);
void memsolver_free(__take MemSolver *ms);
int memsolver_stream(MemSolver *ms, int ctrl, const MemStream *s, uint32_t *regs, char *why, size_t whylen,
		     MemSolveStats *st);

/* The affine form is expanded (memsolve_expand) and solved as a stream;
 * event numbers in reasons count points of the domain in its order. A domain
 * with more points than the schedule counter has cycles is refused. */
int memsolve_affine(const MemInfo *mi, const char *smt2, int ctrl, const MemAffineReq *r,
		    uint32_t *regs, char *why, size_t whylen, MemSolveStats *st);

/* Expands an affine request into its stream (__give: free with
 * memstream_free), walking the domain in order (level 0 fastest); values are
 * not reduced modulo any width. Returns 0 with a reason if it has more than
 * max_events events or a malformed shape. */
int memsolve_expand(const MemAffineReq *r, long max_events, MemStream *out, char *why, size_t whylen);
void memstream_free(MemStream *s);

#endif
