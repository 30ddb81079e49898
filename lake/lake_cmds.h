/* lake_cmds.h - the `lake` subcommands that work on collateral rather than on
 * a spec. Each takes argv from the subcommand name on and returns the exit
 * status. */
#ifndef LAKE_CMDS_H
#define LAKE_CMDS_H

/* lake solve INFO --ctrl NAME (--stream FILE | --affine FILE) [-o REGS] (lake_solve_cmd.c) */
int lake_cmd_solve(int argc, char **argv);
/* lake sim / lake vectors: the functional model on configurations (lake_sim.c) */
int lake_cmd_sim(int argc, char **argv);
int lake_cmd_vectors(int argc, char **argv);
/* lake tb INFO -o DIR: the Verilog test bench that replays bench files (lake_tb.c) */
int lake_cmd_tb(int argc, char **argv);

#include "../collateral/meminfo.h"

/* Reads DIR/<mem>.info.yaml, printing its diagnostics and a count on error
 * (lake_info.c). */
__give MemInfo *lake_load_info(const char *path);

#endif
