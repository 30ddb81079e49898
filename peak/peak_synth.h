/* peak_synth.h - rewrite-rule synthesis (AHA 3.1.3) by counterexample-guided
 * inductive synthesis: a synthesis solver looks for an instruction and bindings
 * that agree with the IR operation on a set of examples; a verification solver
 * proves the candidate for all inputs, params and states or returns a
 * counterexample, which joins the examples. */
#ifndef PEAK_SYNTH_H
#define PEAK_SYNTH_H

#include "peak.h"

/* A rule owns its arrays (free them with peak_rule_free); ir points into the
 * loaded IR file, which must outlive the rule. */
typedef struct PeakRule {
	const PeakSpec *ir;
	int found;
	char *reason;           /* why no rule exists (found == 0) */
	uint64_t *fields;       /* per PE field; a param-bound field holds 0 */
	int *in_bind;           /* per IR input: PE input index */
	int *param_bind;        /* per IR param: PE field index */
	int *out_bind;          /* per IR output: PE output index */
	int iterations;         /* CEGIS rounds */
	double seconds;
} PeakRule;

/* Z3 resource units (deterministic work, about 0.3 s per million here) for
 * the last, unrestricted search phase; see peak_synth.c. */
#define PEAK_SEARCH_LIMIT 3000000u

/* Synthesizes and proves a rule mapping ir onto pe. search_limit bounds the
 * search in which every instruction field is free (PEAK_SEARCH_LIMIT). */
void peak_synth_rule(const PeakSpec *pe, const PeakSpec *ir, uint64_t seed, unsigned search_limit,
		     PeakRule *r);
void peak_rule_free(PeakRule *r);

/* Runs a rule on `vectors` random inputs, params, unbound PE inputs and
 * states through both functional models; returns the number of mismatches and
 * describes the first in *why (caller frees) when why is not NULL. */
int peak_rule_check(const PeakSpec *pe, const PeakRule *r, int vectors, uint64_t seed,
		    char **why);

/* Proves a rule (read back from a rules file, say) for all inputs, params,
 * unbound PE inputs and states with Z3. 1 if proved; else *why (caller frees)
 * gives a counterexample or says the solver gave up. */
int peak_rule_prove(const PeakSpec *pe, const PeakRule *r, char **why);

#endif
