/* ref_brighten_blur.c - brighten then blur (AHA Fig. 13):
 *   brighten(x, y) = input(x, y) * 2                        uint16, wraps
 *   blur(x, y) = (b(x, y) + b(x+1, y) + b(x, y+1) + b(x+1, y+1)) / 4   uint16
 * over 63 x 63 outputs from a 64 x 64 input. */
#include "ref.h"

static uint16_t brighten(const RefImage *in, int x, int y)
{
	return ref_u16(2 * refimg_get(in, x, y, 0));
}

static void run(const RefImage *in, RefImage *out)
{
	for (int y = 0; y < out->h; y++)
		for (int x = 0; x < out->w; x++) {
			uint16_t sum = ref_u16(brighten(in, x, y) + brighten(in, x + 1, y) +
					       brighten(in, x, y + 1) + brighten(in, x + 1, y + 1));
			refimg_set(out, x, y, 0, sum >> 2);
		}
}

const RefApp ref_brighten_blur = { "brighten_blur", 64, 64, 1, 63, 63, 1, run };
