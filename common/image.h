/* image.h - the images applications read and write: PGM (P5, one channel) and
 * PPM (P6, three channels), 8-bit (maxval < 256) or 16-bit big-endian samples,
 * NumPy's .npy (format 1.0, 2.0 or 3.0; any shape of 1 to 4 dimensions, 8- or
 * 16-bit integer samples: '|u1', '|i1', '<u2', '<i2', '>u2', '>i2' read in
 * either order; written '|u1' or '<u2' in Fortran order, so that numpy's
 * array[x, y, c] is pixel (x, y) of channel c, as Halide indexes f(x, y, c)),
 * and raw files (16-bit little-endian samples, x fastest, then y, then the
 * channel; no header, so the caller gives the size). A PGM/PPM file is written
 * with maxval 255 and a byte per sample when the image's samples are 8 bits
 * wide (bits 8: the low byte of each value, the two's complement of a signed
 * one), else with maxval 65535. Pixel (x, y) of channel c is
 * px[x + w * (y + h * c)].
 *
 * Reading is strict: a header is checked against its format's definition
 * (docs/applications.md, "Images and channels") and the limits below before
 * anything is allocated, the samples must fill the rest of the file exactly,
 * and every refusal is a message naming the file and what is wrong. */
#ifndef COMMON_IMAGE_H
#define COMMON_IMAGE_H

#include <stddef.h>
#include <stdint.h>

#include "util.h"

/* The limits of an image read or generated: each extent from 1 to
 * IMAGE_MAX_EXTENT (pixels 0 to 65535, the coordinates a program may read),
 * at most IMAGE_MAX_SAMPLES samples in all (4096 x 4096), a .npy header
 * dictionary of at most IMAGE_MAX_HEADER bytes; so a file of more than
 * IMAGE_READ_MAX bytes is refused unread (an endless one such as /dev/zero
 * after that many bytes). */
#define IMAGE_MAX_EXTENT 65536L
#define IMAGE_MAX_SAMPLES (1L << 24)
#define IMAGE_MAX_HEADER 65535L
#define IMAGE_READ_MAX ((size_t)(2 * IMAGE_MAX_SAMPLES + IMAGE_MAX_HEADER + 12))

typedef struct Image {
	int dims;               /* 1 to 4 */
	int extent[4];
	uint16_t *px;
	int bits;               /* of a sample in the file: 8, or 16 (also when 0) */
} Image;

/* Reads path (its format from the extension .pgm, .ppm, .npy or .raw; a raw
 * file takes its dims and extents from want, which may be NULL otherwise).
 * On failure returns 0, out is empty and *err holds a message (to free),
 * "PATH: what is wrong". */
int image_read(const char *path, const Image *want, Image *out, __give char **err);
/* image_read of a file's n bytes already in memory (data need not end in a
 * NUL); path gives the format and the name in messages. */
int image_read_mem(const char *path, const unsigned char *data, size_t n, const Image *want, Image *out,
		   __give char **err);
/* 1 if an image of dims (1 to 4) extents is within the limits above; else 0
 * and *err (to free) says why, without a file name ("a 5000 x 5000 image
 * (25000000 samples) is larger than ..."). */
int image_shape_ok(int dims, const int64_t *extent, __give char **err);
/* Writes im to f in the format of path's extension; 0 and *err on failure
 * (a PGM holds 1 or 2 dimensions, a PPM 3 with 3 channels). */
int image_write(const Image *im, const char *path, FILE *f, __give char **err);
/* Allocates px for the extents set in im (zeroed). */
void image_alloc(Image *im);
void image_free(Image *im);
/* The number of samples: the product of the extents (0 if one is below 1,
 * LONG_MAX if the product does not fit a long). */
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
