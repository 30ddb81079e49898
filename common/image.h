/* image.h - the images applications read and write: PGM (P5, one channel) and
 * PPM (P6, three channels), 8-bit (maxval < 256) or 16-bit big-endian samples,
 * NumPy's .npy (any shape of 1 to 4 dimensions, 8- or 16-bit samples '|u1',
 * '|i1', '<u2', '<i2' read in either order; written '|u1' or '<u2' in Fortran
 * order, so that numpy's array[x, y, c] is pixel (x, y) of channel c, as
 * Halide indexes f(x, y, c)), and raw files (16-bit little-endian samples, x
 * fastest, then y, then the channel; no header, so the caller gives the
 * size). A PGM/PPM file is written
 * with maxval 255 and a byte per sample when the image's samples are 8 bits
 * wide (bits 8: the low byte of each value, the two's complement of a signed
 * one), else with maxval 65535. Pixel (x, y) of channel c is
 * px[x + w * (y + h * c)]. */
#ifndef COMMON_IMAGE_H
#define COMMON_IMAGE_H

#include <stdint.h>

#include "util.h"

typedef struct Image {
	int dims;               /* 1 to 4 */
	int extent[4];
	uint16_t *px;
	int bits;               /* of a sample in the file: 8, or 16 (also when 0) */
} Image;

/* Reads path (its format from the extension .pgm, .ppm or .raw; a raw file
 * takes its dims and extents from want, which may be NULL otherwise). On
 * failure returns 0 and *err holds a message (to free). */
int image_read(const char *path, const Image *want, Image *out, char **err);
/* Writes im to f in the format of path's extension; 0 and *err on failure
 * (a PGM holds 1 or 2 dimensions, a PPM 3 with 3 channels). */
int image_write(const Image *im, const char *path, FILE *f, char **err);
/* Allocates px for the extents set in im (zeroed). */
void image_alloc(Image *im);
void image_free(Image *im);
long image_size(const Image *im);
/* The position in px of the pixel at idx (one coordinate per dimension), or
 * -1 outside the image. */
long image_index(const Image *im, const int64_t *idx);
/* The extension an image of these extents is written with: "pgm" (1 or 2
 * dimensions), "ppm" (3 dimensions, the last of extent 3), else "npy"
 * (NumPy's format, any shape: a channel-first output, 4 channels, 4-D). */
const char *image_ext(int dims, const int *extent);
/* 1 if the path's extension names a format image_read knows. */
int image_format_known(const char *path);

#endif
