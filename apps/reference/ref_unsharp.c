/* ref_unsharp.c - unsharp mask of an RGB image:
 *   gray(x, y) = (77 R + 150 G + 29 B) >> 8                         uint16, wraps
 *   blur(x, y) = (sum over i, j < 7 of k(i, j) gray(x+i, y+j)) / 256  uint16, wraps
 *   sharpen(x, y) = uint16(clamp(2 int16(gray(x+3, y+3)) - int16(blur(x, y)), 0, 255))   int16
 *   lut(v) = uint16(256 / v)                                         int32
 *   ratio(x, y) = sharpen(x, y) lut(max(gray(x+3, y+3), 1))          uint16, wraps
 *   unsharp(x, y, c) = uint16((uint32(ratio(x, y)) uint32(input(x+3, y+3, c))) >> 8)
 * with k the 7x7 Gaussian (sigma 1.5) of apps/README.md, over 3 x 58 x 58 outputs
 * from a 3 x 64 x 64 input. */
#include "ref.h"

#define N 64

static const int taps[7][7] = {
	{ 0, 1, 2, 2, 2, 1, 0 },     { 1, 3, 6, 7, 6, 3, 1 },     { 2, 6, 12, 15, 12, 6, 2 },
	{ 2, 7, 15, 18, 15, 7, 2 },  { 2, 6, 12, 15, 12, 6, 2 },  { 1, 3, 6, 7, 6, 3, 1 },
	{ 0, 1, 2, 2, 2, 1, 0 },
};

static uint16_t gray_at(const RefImage *in, int x, int y)
{
	uint16_t sum = ref_u16(77 * refimg_get(in, x, y, 0) + 150 * refimg_get(in, x, y, 1) +
			       29 * refimg_get(in, x, y, 2));
	return sum >> 8;
}

static uint16_t blur_at(const uint16_t gray[N][N], int x, int y)
{
	uint16_t sum = 0;
	for (int j = 0; j < 7; j++)
		for (int i = 0; i < 7; i++)
			sum = ref_u16(sum + taps[j][i] * gray[y + j][x + i]);
	return sum >> 8;
}

static uint16_t lut(int32_t v)
{
	return ref_u16(256 / v);
}

static uint16_t ratio_at(const uint16_t gray[N][N], int x, int y)
{
	uint16_t g = gray[y + 3][x + 3];
	int16_t s = ref_i16(2 * ref_i16(g) - ref_i16(blur_at(gray, x, y)));
	uint16_t sharpen = ref_u16(s < 0 ? 0 : s > 255 ? 255 : s);
	return ref_u16((int64_t)sharpen * lut(g > 1 ? g : 1));
}

static void run(const RefImage *in, RefImage *out)
{
	static uint16_t gray[N][N];
	for (int y = 0; y < N; y++)
		for (int x = 0; x < N; x++)
			gray[y][x] = gray_at(in, x, y);
	for (int y = 0; y < out->h; y++)
		for (int x = 0; x < out->w; x++) {
			uint32_t ratio = ratio_at(gray, x, y);
			for (int c = 0; c < 3; c++)
				refimg_set(out, x, y, c,
					  ref_u16((ratio * (uint32_t)refimg_get(in, x + 3, y + 3, c)) >> 8));
		}
}

const RefApp ref_unsharp = { "unsharp", N, N, 3, N - 6, N - 6, 3, run };
