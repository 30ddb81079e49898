/* cs.h - the fast simulator of a configured array: a design read from its
 * collateral alone (design.yaml, routing.graph, config.map, the PE's info and
 * normal form, the memory's info), configured through the same bus as the
 * Verilog, and run cycle by cycle with the Verilog's timing.
 *
 * Two ways of evaluating one cycle, with the same values:
 *   - while the array is being configured (reset, bus writes, flush), every
 *     node of the routing graph is kept up to date event by event: a change
 *     re-evaluates only what reads it, so the hundreds of mostly idle cycles
 *     of a bitstream cost little;
 *   - at the first cycle after a configuration, the configured array is
 *     compiled: each node is reduced to the driver its multiplexers select
 *     (a register, a core's output, an input of the array, or a constant),
 *     each PE's instruction is folded into its normal form, only the cores and
 *     registers that an observed signal depends on are kept, and they are
 *     ordered once by their combinational dependencies; a cycle is then one
 *     pass over flat arrays.
 * Signals are the nodes of routing.graph (by name) and the array's ports
 * (io_in_x<X>_<w>, io_out_x<X>_<w>), which are aliases of their IO tiles'
 * nodes. */
#ifndef CGRASIM_CS_H
#define CGRASIM_CS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "../common/diag.h"
#include "../common/util.h"

typedef struct Cs Cs;

/* A signal: its node, its width, whether the array drives it from outside
 * (an io_in port). */
typedef struct CsSignal {
	int node;
	int width;
	int input;
	int port;               /* its index among the array's inputs or outputs; -1 for a node's name */
} CsSignal;

/* Reads the design in dir; NULL with errors in d. */
__give Cs *cs_load(const char *dir, __keep Diags *d);
void cs_free(__take Cs *s);

const char *cs_design_name(const Cs *s);
/* The signal of a port or node name; 0 if there is none. */
int cs_signal(const Cs *s, const char *name, CsSignal *out);
/* How many nodes; node k's name and width. */
int cs_nodes(const Cs *s);
const char *cs_node_name(const Cs *s, int node);
int cs_node_width(const Cs *s, int node);
/* The array's ports: k-th input and output (NULL past the last). */
const char *cs_port_name(const Cs *s, int input, int k);

/* What must stay exact after the configuration: the signals that will be
 * read. Cores and registers outside their cone are not simulated. By default
 * the array's outputs; cs_observe_all keeps everything. Takes effect at the
 * next compilation (the first cycle after a configuration). */
void cs_observe(Cs *s, int node);
void cs_observe_all(Cs *s);

/* Every function that runs cycles returns 0, or -1 with the reason in
 * cs_error: a combinational loop in the configured array (named by its
 * nodes). */
const char *cs_error(const Cs *s);
/* A configuration that closes a combinational loop is not compiled: its
 * cycles run event by event, as a Verilog simulator iterates the loop until
 * it settles, and cs_warning returns (once) the loop's cores. With
 * cs_strict_loops(s, 1) such a loop is an error instead. */
void cs_strict_loops(Cs *s, int on);
const char *cs_warning(Cs *s);

/* An input of the array takes a value (no clock). */
int cs_set(Cs *s, int node, uint64_t v);
/* A signal's value now: the cycle's inputs applied, before the clock edge. */
int cs_get(Cs *s, int node, uint64_t *v);

/* Clock cycles: with rst high, with flush high, with a bus write (which the
 * next cycle sees; as in the Verilog, a write to an address no register has
 * changes nothing, and bits no field holds are not kept: applications'
 * bitstreams are checked against config.map before they run), plain. */
int cs_reset(Cs *s, long cycles);
int cs_flush(Cs *s, long cycles);
int cs_write(Cs *s, uint32_t addr, uint32_t data);
int cs_step(Cs *s, long cycles);
/* The read-back of the register at addr (0 if none), as config_rdata. */
uint32_t cs_read(const Cs *s, uint32_t addr);

/* A cycle in halves, for streaming: cs_settle evaluates the cycle with the
 * inputs set since the last edge (cs_get then returns the cycle's values),
 * cs_edge is the rising clock edge. */
int cs_settle(Cs *s);
int cs_edge(Cs *s);

/* Cycles so far, reset and configuration included. */
long cs_cycles(const Cs *s);

/* What the compiled array holds: cores, registers and folded PE operations
 * in the cone of the observed signals, and the compilation's time. */
typedef struct CsStats {
	int pes, mems, regs, ops, nodes;
	int pes_total, mems_total;
	double compile_s;
} CsStats;
void cs_stats(const Cs *s, CsStats *st);

/* A VCD waveform into f (the caller closes it): from the first cycle of the
 * compiled array, every node it keeps exact, named as in routing.graph in a
 * scope per tile, two time points per cycle (2k: the cycle's values before
 * the clock edge; 2k + 1: the edge) as the Verilator harness numbers them. */
void cs_trace(Cs *s, FILE *f);
/* Counts, per tile, the cycles in which a node changed and the bit toggles
 * of its nodes, from the next compiled cycle on; cs_activity_write writes
 * them (cgrasim/README.md, "Activity"). */
void cs_activity(Cs *s);
void cs_activity_write(const Cs *s, FILE *f);
/* One line: PEs used and how busy, memory tiles used. */
void cs_utilization(const Cs *s, char *buf, size_t len);

#endif
