/* test_affine.c - unit tests of affine.h: the downsample-by-2 walk, random
 * maps whose recurrence walk equals the multiply form at every point (and
 * whose deltas convert back to the strides), and the 0-dimensional domain.
 *
 * Each test is a function run by main (check.h); the last line is
 * "affine: N passed, M failed"; the exit status is 1 if anything failed. */

#include <stdint.h>
#include <string.h>

#include "../../common/tests/check.h"
#include "../affine.h"
#include "../../common/rng.h"

/* ---- affine ---- */

/* The downsample-by-2 of an 8x8 image (Unified Buffer Fig. 5(c)): x steps by 2
 * over 4 columns, y by 16 over 4 rows; the y delta undoes the x walk. */
static void test_affine_downsample(void)
{
	AffineMap m = { 2, { 4, 4 }, { 2, 16 }, 0 };
	int64_t delta[2];
	affine_deltas(&m, delta);
	CHECK(delta[0] == 2 && delta[1] == 10, "deltas %lld %lld, want 2 10", (long long)delta[0],
	      (long long)delta[1]);
	AffineIter it;
	affine_iter_start(&it, &m);
	int64_t want = 0, n = 0;
	int ok = 1;
	do {
		want = 16 * (n / 4) + 2 * (n % 4);
		ok &= it.value == want && it.step == n;
		n++;
	} while (affine_iter_next(&it));
	CHECK(ok && n == 16 && affine_count(&m) == 16, "walk of 16 points, got %lld", (long long)n);
}

/* Random maps: the recurrence walk equals the multiply form at every point,
 * and deltas convert back to the strides. */
static void test_affine_random(void)
{
	Rng rng;
	rng_seed(&rng, 21);
	int bad = 0;
	for (int t = 0; t < 300; t++) {
		AffineMap m = { (int)rng_below(&rng, 7), { 0 }, { 0 }, (int64_t)rng_below(&rng, 100) - 50 };
		for (int l = 0; l < m.dims; l++) {
			m.extent[l] = 1 + (int64_t)rng_below(&rng, 5);
			m.stride[l] = (int64_t)rng_below(&rng, 41) - 20;
		}
		AffineIter it;
		affine_iter_start(&it, &m);
		int64_t n = 0;
		do {
			bad += it.value != affine_at(&m, it.idx);
			n++;
		} while (affine_iter_next(&it));
		bad += n != affine_count(&m);
		int64_t delta[AFFINE_MAX_DIMS];
		AffineMap back = m;
		affine_deltas(&m, delta);
		affine_strides(&back, delta);
		bad += memcmp(back.stride, m.stride, sizeof m.stride) != 0;
	}
	CHECK(bad == 0, "%d mismatches between recurrence and multiply forms", bad);
}

static void test_affine_point(void)
{
	AffineMap m = { 0, { 0 }, { 0 }, 7 };
	AffineIter it;
	affine_iter_start(&it, &m);
	CHECK(affine_count(&m) == 1 && it.value == 7 && !affine_iter_next(&it) && it.done,
	      "a 0-dimensional domain is one point");
}

static const TestCase tests[] = {
	{ "affine_downsample", test_affine_downsample },
	{ "affine_random", test_affine_random },
	{ "affine_point", test_affine_point },
};

int main(void)
{
	return check_run("affine", tests, COUNT(tests));
}
