/* peak_synth.h - rewrite-rule synthesis (AHA 3.1.3) by counterexample-guided
 * inductive synthesis: a synthesis solver looks for an instruction and bindings
 * that agree with the IR operation on a set of examples; a verification solver
 * proves the candidate for all inputs, params and states or returns a
 * counterexample, which joins the examples. */
#ifndef PEAK_SYNTH_H
#define PEAK_SYNTH_H

#include "peak.h"

/* The instruction changes that make a rule's PE read one IR input one cycle
 * late, through an input register (AHA 5.3.1): fields[i] set to values[i]. */
typedef struct PeakRegistered {
	int n;                  /* 0: the input has no packable register */
	int *fields;
	uint64_t *values;
} PeakRegistered;

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
	PeakRegistered *registered; /* per IR input, or NULL (none derived or read) */
	int iterations;         /* CEGIS rounds */
	double seconds;
} PeakRule;

/* Z3 resource units (deterministic work, about 0.3 s per million here) for
 * the last, unrestricted search phase; see peak_synth.c. */
#define PEAK_SEARCH_LIMIT 3000000u

/* Z3 resource units of one register-packing proof: some seconds at worst; the
 * proofs of real entries take milliseconds. */
#define PEAK_REGISTER_LIMIT 20000000u

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

/* Derives r->registered for a found rule (replacing what it held): for each IR
 * input in turn, the first single-field change (fields in declaration order,
 * param fields skipped; enum members in order, or every value of a bits field
 * of at most 4 bits) that proves to delay that input by one cycle and to read
 * it from a state variable in its place (an input register, never an output
 * register); then inputs are dropped, the last of a failing subset first,
 * until every subset of them proves together (peak/COLLATERAL.md,
 * registered:). Random vectors filter the candidates, Z3 proves each under
 * the work limit rlimit (PEAK_REGISTER_LIMIT); a query the solver gives up on
 * counts as not proved. Deterministic for a given seed. Returns the number of
 * registered inputs. */
int peak_rule_registers(const PeakSpec *pe, PeakRule *r, uint64_t seed, unsigned rlimit);

/* The number of IR inputs of r with a registered entry. */
int peak_rule_nregistered(const PeakRule *r);

/* Re-checks r's registered entries on `vectors` random vectors through the
 * functional models: every non-empty subset of the registered inputs over two
 * cycles, and each entry's read from a state variable. Returns the number of
 * failed checks and describes the first (rule input(s), entries and a
 * counterexample) in *why (caller frees; NULL if none) when why is not NULL. */
int peak_rule_check_registers(const PeakSpec *pe, const PeakRule *r, int vectors, uint64_t seed,
			      char **why);

/* The same checks proved with Z3. 1 if all prove; else *why (caller frees)
 * names the entries and gives a counterexample or says the solver gave up. */
int peak_rule_prove_registers(const PeakSpec *pe, const PeakRule *r, char **why);

#endif
