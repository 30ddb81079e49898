/* affine.c - see affine.h. */
#include "affine.h"

#include <string.h>

int64_t affine_count(const AffineMap *m)
{
	int64_t n = 1;
	for (int l = 0; l < m->dims; l++)
		n *= m->extent[l];
	return n;
}

int64_t affine_at(const AffineMap *m, const int64_t *idx)
{
	int64_t v = m->offset;
	for (int l = 0; l < m->dims; l++)
		v += m->stride[l] * idx[l];
	return v;
}

void affine_deltas(const AffineMap *m, int64_t *delta)
{
	int64_t wrapped = 0; /* what the levels below l added before they wrap */
	for (int l = 0; l < m->dims; l++) {
		delta[l] = m->stride[l] - wrapped;
		wrapped += m->stride[l] * (m->extent[l] - 1);
	}
}

void affine_strides(AffineMap *m, const int64_t *delta)
{
	int64_t wrapped = 0;
	for (int l = 0; l < m->dims; l++) {
		m->stride[l] = delta[l] + wrapped;
		wrapped += m->stride[l] * (m->extent[l] - 1);
	}
}

void affine_iter_start(AffineIter *it, const AffineMap *m)
{
	memset(it, 0, sizeof *it);
	it->m = m;
	it->value = m->offset;
	affine_deltas(m, it->delta);
	it->done = affine_count(m) == 0;
}

int affine_iter_next(AffineIter *it)
{
	const AffineMap *m = it->m;
	if (it->done)
		return 0;
	/* the lowest level that does not wrap increments; those below it reset */
	for (int l = 0; l < m->dims; l++) {
		if (it->idx[l] + 1 < m->extent[l]) {
			it->idx[l]++;
			for (int k = 0; k < l; k++)
				it->idx[k] = 0;
			it->value += it->delta[l];
			it->step++;
			return 1;
		}
	}
	it->done = 1;
	return 0;
}
