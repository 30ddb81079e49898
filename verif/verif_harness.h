/* verif_harness.h - the design-specific part of the Verilator harness
 * (verif/verif_sim.cpp): the table of the design's data ports and of the
 * probed nodes (each node of routing.graph is a signal of its tile module,
 * canal/COLLATERAL.md, read through Verilator's scope table), and the
 * Verilator configuration: with probes, each interconnect module and each
 * core a hierarchical block and the tile modules' signals readable; without,
 * each tile module a hierarchical block. */
#ifndef VERIF_HARNESS_H
#define VERIF_HARNESS_H

#include "../collateral/chip.h"

/* Which nodes the harness can read. */
typedef enum { VERIF_PROBES_NONE, VERIF_PROBES_ALL } VerifProbes;

/* Writes DIR/verif_ports.h and DIR/hier.vlt (atomically); 0 on success, -1
 * with a message on stderr. */
int verif_harness_write(const Chip *chip, VerifProbes probes, const char *dir);

/* Where node id lives: its tile's instance in the top module and its local
 * name there (in the arena of chip's manifest). */
void verif_harness_signal(const Chip *chip, int id, const char **tile, const char **name);

#endif
