/* rng.h - a seeded, portable random generator (xoshiro256** seeded by
 * splitmix64) so that every random choice in the project is reproducible. */
#ifndef COMMON_RNG_H
#define COMMON_RNG_H

#include <stdint.h>

typedef struct Rng {
	uint64_t s[4];
} Rng;

void rng_seed(Rng *r, uint64_t seed);
uint64_t rng_next(Rng *r);
/* Uniform in [0, n); n > 0. */
uint64_t rng_below(Rng *r, uint64_t n);
/* Uniform w-bit value, 1 <= w <= 64. */
uint64_t rng_bits(Rng *r, int w);
/* Uniform in [0, 1). */
double rng_double(Rng *r);

#endif
