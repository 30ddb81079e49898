/* ref_upsample.c - nearest-neighbour upsampling by 2:
 *   upsample(x, y) = input(x / 2, y / 2)
 * over 128 x 128 outputs from a 64 x 64 input. */
#include "ref.h"

static void run(const RefImage *in, RefImage *out)
{
	for (int y = 0; y < out->h; y++)
		for (int x = 0; x < out->w; x++)
			refimg_set(out, x, y, 0, refimg_get(in, x / 2, y / 2, 0));
}

const RefApp ref_upsample = { "upsample", 64, 64, 1, 128, 128, 1, run };
