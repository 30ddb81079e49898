/* affine.h - the arithmetic of affine controllers (Unified Buffer paper, Fig. 5):
 * an iteration domain of nested counters and affine functions of it
 *     value(i) = offset + sum_l stride[l] * i[l]      (level 0 innermost)
 * computed either with multipliers or, as a recurrence, with one adder that
 * adds the delta of the outermost level that increments:
 *     delta[l] = stride[l] - sum_{k<l} stride[k] * (extent[k] - 1).
 * Lake's functional model, its configuration solver and the compiler share
 * these definitions. */
#ifndef COMMON_AFFINE_H
#define COMMON_AFFINE_H

#include <stdint.h>

#define AFFINE_MAX_DIMS 16

typedef struct AffineMap {
	int dims;                          /* loop levels, 0 (a single point) to AFFINE_MAX_DIMS */
	int64_t extent[AFFINE_MAX_DIMS];   /* iterations of each level, >= 1 */
	int64_t stride[AFFINE_MAX_DIMS];
	int64_t offset;
} AffineMap;

/* Points of the domain (the product of the extents). */
int64_t affine_count(const AffineMap *m);
/* The value at counter values idx. */
int64_t affine_at(const AffineMap *m, const int64_t *idx);
/* The recurrence deltas of m's strides, and back. */
void affine_deltas(const AffineMap *m, int64_t *delta);
void affine_strides(AffineMap *m, const int64_t *delta);

/* Walks the domain in order (innermost level fastest), keeping the value
 * with the recurrence: one addition per step. */
typedef struct AffineIter {
	const AffineMap *m;
	int64_t idx[AFFINE_MAX_DIMS];
	int64_t delta[AFFINE_MAX_DIMS];
	int64_t value;
	int64_t step;       /* points visited before the current one */
	int done;
} AffineIter;

void affine_iter_start(AffineIter *it, const AffineMap *m);
/* Moves to the next point; returns 0 (and sets done) after the last one. */
int affine_iter_next(AffineIter *it);

#endif
