/* ref_cascade.c - two 3x3 binomial blurs in a row:
 *   blur1(x, y) = (sum over i, j < 3 of k(i, j) * input(x+i, y+j)) / 16   uint16, wraps
 *   cascade(x, y) = (sum over i, j < 3 of k(i, j) * blur1(x+i, y+j)) / 16
 * with k = [[1,2,1],[2,4,2],[1,2,1]], over 60 x 60 outputs from a 64 x 64 input
 * (blur1 over 62 x 62). */
#include "ref.h"

#include <stdlib.h>

static const int taps[3][3] = { { 1, 2, 1 }, { 2, 4, 2 }, { 1, 2, 1 } };

/* One blur of in into out (out->w x out->h from its top-left corner). */
static void blur(const RefImage *in, RefImage *out)
{
	for (int y = 0; y < out->h; y++)
		for (int x = 0; x < out->w; x++) {
			uint16_t conv = 0;
			for (int j = 0; j < 3; j++)
				for (int i = 0; i < 3; i++)
					conv = ref_u16(conv + taps[j][i] * refimg_get(in, x + i, y + j, 0));
			refimg_set(out, x, y, 0, conv >> 4);
		}
}

static void run(const RefImage *in, RefImage *out)
{
	RefImage *blur1 = refimg_new(out->w + 2, out->h + 2, 1);
	if (!blur1)
		abort();
	blur(in, blur1);
	blur(blur1, out);
	refimg_free(blur1);
}

const RefApp ref_cascade = { "cascade", 64, 64, 1, 60, 60, 1, run };
