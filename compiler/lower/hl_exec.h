/* hl_exec.h - runs an application's lowered loop nest (hl_lower.h) with its
 * compute kernels (hl_dfg.h) evaluated on hardware words, and writes the
 * output: compared with the reference interpreter, it shows that lowering
 * and the narrowing to the word keep the program's meaning. */
#ifndef COMPILER_HL_EXEC_H
#define COMPILER_HL_EXEC_H

#include "../../common/image.h"
#include "hl_dfg.h"

/* inputs: one image per ImageParam (as for hli_run); out: the output over
 * its region. Lowering and the kernels have been checked: it cannot fail. */
void hx_run(const LProgram *L, const DGraph *g, const Image *inputs, Image *out);

/* Evaluates one kernel on hardware words with the values of its load nodes
 * given in loads[node] (other entries unused). */
uint64_t hx_kernel(const LProgram *L, const DGraph *g, const DKernel *k, const uint64_t *loads);

#endif
