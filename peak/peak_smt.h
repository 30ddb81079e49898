/* peak_smt.h - the SMT reading of a spec: its normal form as Z3 bit-vector
 * terms. Contexts made with Z3_mk_context keep every term alive until the
 * context is deleted, so no reference counting is needed here. */
#ifndef PEAK_SMT_H
#define PEAK_SMT_H

#include <z3.h>

#include "peak.h"

/* Terms for every node of s's normal form (an array the caller frees);
 * leaves[k][i] is the term of leaf kind k (PEAK_INPUT, PEAK_STATE, PEAK_FIELD,
 * PEAK_PARAM) index i. */
__give Z3_ast *peak_smt_terms(Z3_context ctx, const PeakSpec *s, Z3_ast *const leaves[4]);

/* A bit-vector constant of width w. */
Z3_ast peak_smt_const(Z3_context ctx, uint64_t v, int w);
/* A fresh bit-vector variable named name. */
Z3_ast peak_smt_var(Z3_context ctx, const char *name, int w);
/* The value of a bit-vector term in a model (0 if it has none). */
uint64_t peak_smt_value(Z3_context ctx, Z3_model m, Z3_ast t);

#endif
