/* fixtures.h - helpers shared by the unit-test programs of common/ and
 * collateral/: U64 for printing 64-bit values with %llx, str_eq (two strings,
 * neither NULL, equal) and ref_mask (the w low bits set, computed without
 * bv.h). Header-only, like check.h. */
#ifndef COMMON_TESTS_FIXTURES_H
#define COMMON_TESTS_FIXTURES_H

#include <stdint.h>
#include <string.h>

#define U64(x) ((unsigned long long)(x))

static inline int str_eq(const char *a, const char *b)
{
	return a && b && strcmp(a, b) == 0;
}

/* The mask of the w low bits, 1 <= w <= 64. */
static inline uint64_t ref_mask(int w)
{
	return (uint64_t)((((unsigned __int128)1) << w) - 1);
}

#endif
