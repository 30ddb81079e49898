/* peak_eval.h - the functional model: a spec's normal form evaluated on
 * concrete values, one clock cycle at a time. */
#ifndef PEAK_EVAL_H
#define PEAK_EVAL_H

#include "peak.h"

/* Values of one cycle, each array indexed like the spec's ports of that class. */
typedef struct PeakValues {
	uint64_t *v[PEAK_NUM_CLASSES];
} PeakValues;

/* Allocates arrays for every class of s (zeroed; state set to reset values). */
void peak_values_init(PeakValues *pv, const PeakSpec *s);
void peak_values_free(PeakValues *pv);

/* Computes outputs (pv->v[PEAK_OUTPUT]) and the next state (into next, one per
 * state variable) from inputs, state, fields and params in pv. scratch holds
 * one value per normal-form node (NULL: allocated here). */
void peak_eval(const PeakSpec *s, PeakValues *pv, uint64_t *next, uint64_t *scratch);

/* Packs the fields of pv into an instruction word (BITS_WORDS(inst_width) words). */
void peak_pack_inst(const PeakSpec *s, const uint64_t *fields, uint64_t *words);

#endif
