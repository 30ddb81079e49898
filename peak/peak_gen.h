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

/* Writes <pe>.v, <pe>.info.yaml and (unless no_rules) <pe>.rules.yaml into
 * dir, all or nothing. Returns the exit status. */
int peak_generate(const PeakGenOptions *o);
int peak_verify_rules(const char *spec, const char *rules, const char **ir, int nir,
		      int vectors, uint64_t seed);

#endif
