/* memmodel.h - the cycle-accurate functional model of a memory tile, built
 * from its MemInfo alone and implementing the semantics of lake/COLLATERAL.md:
 * controllers (iteration domain, schedule and address generators), port
 * arbitration, storage with wide fetch, latencies, chaining and the table
 * look-up. The Verilator benches compare the generated Verilog against it
 * cycle by cycle; the configuration solver confirms its answers with it. */
#ifndef COMMON_MEMMODEL_H
#define COMMON_MEMMODEL_H

#include <stdint.h>
#include <stdio.h>

#include "meminfo.h"

typedef struct MemModel MemModel;

/* What a storage port did in one cycle (after arbitration and chain gating). */
typedef struct MemPortOp {
	int ren, wen;
	uint32_t addr;          /* local slot; 0 when idle */
	uint64_t *wdata;        /* width words; all 0 when idle */
} MemPortOp;

/* One cycle's observable behaviour. */
typedef struct MemCycle {
	uint32_t t;             /* the cycle counter during this cycle */
	MemPortOp **ports;      /* [unit][port] */
	int *out_valid;         /* per tile output */
	uint64_t *out;
	int *fire;              /* per controller */
} MemCycle;

__give MemModel *memmodel_new(__keep const MemInfo *mi);
void memmodel_free(__take MemModel *m);
/* Sets every configuration register (values indexed like mi->regs, masked to
 * their widths). Does not flush, and does not load the look-up table (only a
 * bus write of lookup_wr does). */
void memmodel_config(MemModel *m, const uint32_t *regs);
/* Writes one register through the configuration bus address, as a bus write
 * while the tile stands still; a write of lookup_wr also stores its word in
 * the look-up's unit (lake/COLLATERAL.md, "Table look-up"). Returns 0 if no
 * register has that address. */
int memmodel_config_write(MemModel *m, uint32_t addr, uint32_t data);
/* State (not configuration) to 0, as the `flush` input. */
void memmodel_flush(MemModel *m);
/* The `flush` input during a cycle: while on, the tile does nothing that
 * cycle (memmodel_begin's outputs are those of a tile that does not run, as
 * the Verilog's); memmodel_flush is its edge. */
void memmodel_set_flush(MemModel *m, int on);
/* The tile after a cycle of `rst`: every register and all state 0, register
 * files cleared (SRAM contents are kept, as in the Verilog). */
void memmodel_reset(MemModel *m);
/* Storage contents to 0 (the Verilog's after `rst`). */
void memmodel_clear_storage(MemModel *m);

/* Advances one clock cycle with the tile inputs in[nins] and, with chaining,
 * chain inputs chain_in[nouts], chain_valid[nouts] (NULL: all 0). Returns
 * this cycle's behaviour (owned by the model, valid until the next step). */
const MemCycle *memmodel_step(MemModel *m, const uint64_t *in, const uint64_t *chain_in,
			      const int *chain_valid);

/* memmodel_step in two halves, for a simulator that evaluates the tile among
 * other blocks in one cycle. memmodel_begin computes the cycle's outputs and
 * changes no state: it may run again in the same cycle as inputs settle. Of
 * in (and chain_in, chain_valid) it needs final values only for what reaches
 * an output within the cycle: each output's chain inputs (with chaining) and
 * the inputs memmodel_comb names; the others may still change until
 * memmodel_finish, which takes every input's final value (in NULL: those
 * memmodel_begin saw), performs the writes and steps the tile: 1 if it
 * ran (tile_en was 1), 0 if it stood still. */
const MemCycle *memmodel_begin(MemModel *m, const uint64_t *in, const uint64_t *chain_in,
			       const int *chain_valid);
int memmodel_finish(MemModel *m, const uint64_t *in);
/* After memmodel_begin: 1 if memmodel_finish of this cycle reads in (a
 * firing edge from a tile input, or the look-up); otherwise it may be given
 * NULL whatever the inputs' final values. */
int memmodel_takes_inputs(const MemModel *m);
/* The cycles from the next memmodel_begin on that are quiet: the tile runs,
 * no controller fires, no transfer arrives and the look-up does not read,
 * so that its outputs are its chain inputs (0 without chaining) and nothing
 * in it changes but its cycle counter; 0 if the next cycle is not quiet.
 * Holds until a register is written, the tile is flushed or reset. */
long memmodel_quiet(MemModel *m);
/* Lets n quiet cycles pass at once (n at most what memmodel_quiet said):
 * the tile as after n cycles of memmodel_begin and memmodel_finish. The
 * MemCycle of the last memmodel_begin is not updated. */
void memmodel_pass(MemModel *m, long n);
/* 1 if tile_en is set: the tile runs (otherwise its outputs are its chain
 * inputs, and nothing in it changes). */
int memmodel_running(const MemModel *m);
/* 1 if tile input i reaches output o within one cycle under the current
 * configuration: an enabled edge from i to o (a tile input's latency is 0),
 * or the look-up from i to o with latency 0. */
int memmodel_comb(const MemModel *m, int o, int i);

/* Lets up to max cycles pass at once while nothing can happen: no transfer
 * in flight and no enabled controller due to fire. Returns the cycles
 * skipped (0 if something happens in the next cycle); the tile's state is as
 * if memmodel_step had run that often with no outputs to see. */
uint64_t memmodel_skip(MemModel *m, uint64_t max);

/* Counts since the last flush. */
long memmodel_conflicts(const MemModel *m);   /* requests dropped by arbitration */
long memmodel_ii_violations(const MemModel *m);
/* Has controller c finished its domain? */
int memmodel_done(const MemModel *m, int c);

/* Writes one line describing a cycle in the bench trace format:
 *   t <port>:<ren><wen>:<addr>:<wdata> ... <out>:<valid>:<data> ...
 * fields zero-padded hex of their width, in unit/port and output order. */
void memmodel_trace_line(const MemModel *m, const MemCycle *c, FILE *f);
/* The same without the newline (the tiles of a chain share a line). */
void memmodel_trace_fields(const MemModel *m, const MemCycle *c, FILE *f);

#endif
