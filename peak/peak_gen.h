/* peak_gen.h - the commands behind `peak SPEC -o DIR` (the collateral) and
 * `peak verify-rules`. */
#ifndef PEAK_GEN_H
#define PEAK_GEN_H

#include <stdint.h>

#define PEAK_GEN_MAX_IR 32

typedef struct PeakGenOptions {
	const char *spec;
	const char *dir;
	const char *ir[PEAK_GEN_MAX_IR];
	int nir;
	uint64_t seed;
	unsigned search_limit;  /* see PEAK_SEARCH_LIMIT */
	int no_rules;
	int quiet;
} PeakGenOptions;

/* Writes <pe>.v, <pe>.nf, <pe>.info.yaml and (unless no_rules)
 * <pe>.rules.yaml into dir, all or nothing: rules are synthesized and their registered inputs
 * derived in parallel, one IR operation per worker at a time. Returns the exit
 * status. */
int peak_generate(const PeakGenOptions *o);
/* Reads a rules file back and re-checks every rule and its registered
 * entries on random vectors and with Z3; prints a FAIL line per wrong rule and
 * a closing "N passed, M failed" line. Returns the exit status. */
int peak_verify_rules(const char *spec, const char *rules, const char **ir, int nir,
		      int vectors, uint64_t seed);

#endif
