/* refimg.h - the application suite's image files, shared by the C references
 * (bin/appref) and the real-Halide runner (bin/halide_run).
 *
 * Formats:
 *   PGM (P5, one channel) and PPM (P6, three channels); pixel (x, y) channel c
 *   is f(x, y, c). maxval <= 255: one byte per sample; maxval > 255: two bytes,
 *   big-endian. Files are written with maxval 65535, or 255 (the low byte of
 *   each sample) for an image whose bits are 8.
 *   raw: 16-bit little-endian samples, x fastest, then y, then c; no header, so
 *   the reader is told the size.
 * The kind of a file is told by its extension (.pgm, .ppm, .raw).
 * Errors are printed to stderr as "error: PATH: ..." and signalled by the return
 * value. This reader and writer are written apart from cgrac's (common/image.c)
 * on purpose: a format mistake in either shows up as a failed comparison. */
#ifndef APPS_REFERENCE_REFIMG_H
#define APPS_REFERENCE_REFIMG_H

#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct RefImage {
	int w, h, c;    /* width, height, channels */
	int d;          /* a fourth dimension's extent (a 4-D .npy), else 1: its slice k holds
			 * channels k * c to k * c + c - 1 of px */
	uint16_t *px;   /* px[(c * h + y) * w + x] */
	int bits;       /* of a written sample: 8, or 16 (refimg_new sets 16) */
} RefImage;

/* A zeroed w x h x c image (each at least 1, w * h * c at most 2^28); NULL if
 * the size is out of range or memory is short. */
RefImage *refimg_new(int w, int h, int c);
void refimg_free(RefImage *im);

static inline uint16_t refimg_get(const RefImage *im, int x, int y, int c)
{
	return im->px[((long)c * im->h + y) * im->w + x];
}

static inline void refimg_set(RefImage *im, int x, int y, int c, uint16_t v)
{
	im->px[((long)c * im->h + y) * im->w + x] = v;
}

/* Reads a PGM or PPM file (any maxval 1..65535; a sample above maxval is an
 * error). NULL on error. */
RefImage *refimg_read(const char *path);
/* Reads a raw file of exactly w x h x c samples. NULL on error. */
RefImage *refimg_read_raw(const char *path, int w, int h, int c);
/* Writes im as path's extension says (.pgm needs 1 channel, .ppm 3, .raw any),
 * to a temporary name renamed when complete; 0 on success. */
int refimg_write(const char *path, const RefImage *im);

/* Compares two images pixel by pixel. Prints to out (if not NULL) the sizes
 * when they differ, else the number of differing samples and the first few.
 * Returns the number of differing samples, or -1 when the sizes differ. */
long refimg_compare(const RefImage *a, const RefImage *b, FILE *out);

#ifdef __cplusplus
}
#endif

#endif
