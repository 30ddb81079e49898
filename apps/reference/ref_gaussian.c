/* ref_gaussian.c - 3x3 Gaussian blur:
 *   conv(x, y) = sum over i, j < 3 of uint16(w(i, j)) * input(x+i, y+j)   uint16, wraps
 *   gaussian(x, y) = conv(x, y) >> 8
 * with w = [[24,30,24],[30,37,30],[24,30,24]] (w(i, j): column i, row j),
 * over 62 x 62 outputs from a 64 x 64 input. */
#include "ref.h"

static const int taps[3][3] = { { 24, 30, 24 }, { 30, 37, 30 }, { 24, 30, 24 } };

static void run(const RefImage *in, RefImage *out)
{
	for (int y = 0; y < out->h; y++)
		for (int x = 0; x < out->w; x++) {
			uint16_t conv = 0;
			for (int j = 0; j < 3; j++)
				for (int i = 0; i < 3; i++)
					conv = ref_u16(conv + taps[j][i] * refimg_get(in, x + i, y + j, 0));
			refimg_set(out, x, y, 0, conv >> 8);
		}
}

const RefApp ref_gaussian = { "gaussian", 64, 64, 1, 62, 62, 1, run };
