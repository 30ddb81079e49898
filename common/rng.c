/* rng.c - see rng.h. */
#include "rng.h"

#include "bv.h"

static uint64_t splitmix64(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

void rng_seed(Rng *r, uint64_t seed)
{
	for (int i = 0; i < 4; i++)
		r->s[i] = splitmix64(&seed);
}

static uint64_t rotl(uint64_t x, int k)
{
	return (x << k) | (x >> (64 - k));
}

uint64_t rng_next(Rng *r)
{
	uint64_t *s = r->s;
	uint64_t result = rotl(s[1] * 5, 7) * 9;
	uint64_t t = s[1] << 17;
	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = rotl(s[3], 45);
	return result;
}

uint64_t rng_below(Rng *r, uint64_t n)
{
	/* rejection sampling keeps the result unbiased */
	uint64_t limit = ~0ULL - (~0ULL % n);
	uint64_t x;
	do
		x = rng_next(r);
	while (x >= limit);
	return x % n;
}

uint64_t rng_bits(Rng *r, int w)
{
	return rng_next(r) & bv_mask(w);
}

double rng_double(Rng *r)
{
	return (double)(rng_next(r) >> 11) * 0x1.0p-53;
}
