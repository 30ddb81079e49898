/* ref_harris.c - Harris corner detector, all in int16 (wrapping):
 *   p(x, y) = int16(input(x+3, y+3))                 (the bits of the uint16)
 *   gx = clamp(p(x+1,y-1) + 2p(x+1,y) + p(x+1,y+1) - p(x-1,y-1) - 2p(x-1,y) - p(x-1,y+1), -180, 180)
 *   gy = clamp(p(x-1,y+1) + 2p(x,y+1) + p(x+1,y+1) - p(x-1,y-1) - 2p(x,y-1) - p(x+1,y-1), -180, 180)
 *   lxx = (gx gx) >> 6, lyy = (gy gy) >> 6, lxy = (gx gy) >> 6
 *   lgxx, lgyy, lgxy = (3x3 box sum centred on (x, y)) >> 6
 *   cim = lgxx lgyy - lgxy lgxy - ((lgxx + lgyy)^2 >> 4)
 *   harris(x, y) = 255 if cim(x, y) > each of its 8 neighbours and cim(x, y) >= 1, else 0
 * over 58 x 58 outputs from a 64 x 64 input. Every plane below is indexed by
 * the pipeline's own coordinates shifted by 3 (p covers -3..60). */
#include "ref.h"

#define N 64
#define AT(a, x, y) ((a)[(y) + 3][(x) + 3])

typedef int16_t Plane[N][N];

static int16_t clamp180(int16_t v)
{
	return v < -180 ? -180 : v > 180 ? 180 : v;
}

/* Sobel gradients over -2..59. */
static void gradients(const Plane p, Plane gx, Plane gy)
{
	for (int y = -2; y < N - 4; y++)
		for (int x = -2; x < N - 4; x++) {
			AT(gx, x, y) = clamp180(ref_i16(AT(p, x + 1, y - 1) + 2 * AT(p, x + 1, y) +
							AT(p, x + 1, y + 1) - AT(p, x - 1, y - 1) -
							2 * AT(p, x - 1, y) - AT(p, x - 1, y + 1)));
			AT(gy, x, y) = clamp180(ref_i16(AT(p, x - 1, y + 1) + 2 * AT(p, x, y + 1) +
							AT(p, x + 1, y + 1) - AT(p, x - 1, y - 1) -
							2 * AT(p, x, y - 1) - AT(p, x + 1, y - 1)));
		}
}

/* prod = (a b) >> 6 over -2..59. */
static void product(const Plane a, const Plane b, Plane prod)
{
	for (int y = -2; y < N - 4; y++)
		for (int x = -2; x < N - 4; x++)
			AT(prod, x, y) = ref_i16(ref_asr(ref_i16(AT(a, x, y) * AT(b, x, y)), 6));
}

/* box = (3x3 sum of l) >> 6 over -1..58. */
static void box_sum(const Plane l, Plane box)
{
	for (int y = -1; y < N - 5; y++)
		for (int x = -1; x < N - 5; x++) {
			int16_t sum = 0;
			for (int j = -1; j <= 1; j++)
				for (int i = -1; i <= 1; i++)
					sum = ref_i16(sum + AT(l, x + i, y + j));
			AT(box, x, y) = ref_i16(ref_asr(sum, 6));
		}
}

/* The corner response over -1..58. */
static void response(const Plane gxx, const Plane gyy, const Plane gxy, Plane cim)
{
	for (int y = -1; y < N - 5; y++)
		for (int x = -1; x < N - 5; x++) {
			int16_t det = ref_i16(AT(gxx, x, y) * AT(gyy, x, y) - AT(gxy, x, y) * AT(gxy, x, y));
			int16_t trace = ref_i16(AT(gxx, x, y) + AT(gyy, x, y));
			int16_t t2 = ref_i16(ref_asr(ref_i16(trace * trace), 4));
			AT(cim, x, y) = ref_i16(det - t2);
		}
}

static int is_max(const Plane cim, int x, int y)
{
	int16_t c = AT(cim, x, y);
	for (int j = -1; j <= 1; j++)
		for (int i = -1; i <= 1; i++)
			if ((i || j) && !(c > AT(cim, x + i, y + j)))
				return 0;
	return c >= 1;
}

static void run(const RefImage *in, RefImage *out)
{
	static Plane p, gx, gy, lxx, lyy, lxy, gxx, gyy, gxy, cim;
	for (int y = -3; y < N - 3; y++)
		for (int x = -3; x < N - 3; x++)
			AT(p, x, y) = ref_i16(refimg_get(in, x + 3, y + 3, 0));
	gradients(p, gx, gy);
	product(gx, gx, lxx);
	product(gy, gy, lyy);
	product(gx, gy, lxy);
	box_sum(lxx, gxx);
	box_sum(lyy, gyy);
	box_sum(lxy, gxy);
	response(gxx, gyy, gxy, cim);
	for (int y = 0; y < out->h; y++)
		for (int x = 0; x < out->w; x++)
			refimg_set(out, x, y, 0, is_max(cim, x, y) ? 255 : 0);
}

const RefApp ref_harris = { "harris", N, N, 1, N - 6, N - 6, 1, run };
