/* image.c - PGM/PPM/raw reading and writing (image.h). */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "image.h"

typedef enum { FMT_NONE, FMT_PGM, FMT_PPM, FMT_RAW, FMT_NPY } Format;

static Format format_of(const char *path)
{
	const char *dot = strrchr(path, '.');
	if (!dot)
		return FMT_NONE;
	if (strcmp(dot, ".pgm") == 0)
		return FMT_PGM;
	if (strcmp(dot, ".ppm") == 0)
		return FMT_PPM;
	if (strcmp(dot, ".raw") == 0)
		return FMT_RAW;
	if (strcmp(dot, ".npy") == 0)
		return FMT_NPY;
	return FMT_NONE;
}

int image_format_known(const char *path)
{
	return format_of(path) != FMT_NONE;
}

long image_size(const Image *im)
{
	long n = 1;
	for (int i = 0; i < im->dims; i++)
		n *= im->extent[i];
	return n;
}

long image_index(const Image *im, const int64_t *idx)
{
	long off = 0;
	for (int i = im->dims - 1; i >= 0; i--) {
		if (idx[i] < 0 || idx[i] >= im->extent[i])
			return -1;
		off = off * im->extent[i] + (long)idx[i];
	}
	return off;
}

void image_alloc(Image *im)
{
	im->px = xcalloc((size_t)image_size(im), sizeof *im->px);
}

void image_free(Image *im)
{
	free(im->px);
	im->px = NULL;
}

/* The next header number of a PNM file, skipping white space and comments. */
static long pnm_number(const unsigned char *s, size_t n, size_t *i)
{
	for (;;) {
		while (*i < n && isspace(s[*i]))
			(*i)++;
		if (*i < n && s[*i] == '#') {
			while (*i < n && s[*i] != '\n')
				(*i)++;
			continue;
		}
		break;
	}
	if (*i >= n || !isdigit(s[*i]))
		return -1;
	long v = 0;
	while (*i < n && isdigit(s[*i]) && v < 1000000)
		v = v * 10 + (s[(*i)++] - '0');
	return v;
}

static int read_pnm(const char *path, const unsigned char *s, size_t n, Image *out, char **err)
{
	int channels = s[1] == '5' ? 1 : 3;
	size_t i = 2;
	long w = pnm_number(s, n, &i), h = pnm_number(s, n, &i), maxval = pnm_number(s, n, &i);
	if (w <= 0 || h <= 0 || maxval <= 0 || maxval > 65535 || i >= n || !isspace(s[i])) {
		*err = xasprintf("%s: malformed P%c header", path, s[1]);
		return 0;
	}
	i++;
	int bytes = maxval > 255 ? 2 : 1;
	size_t need = (size_t)w * (size_t)h * (size_t)channels * (size_t)bytes;
	if (n - i < need) {
		*err = xasprintf("%s: %zu bytes of pixels for a %ldx%ld image need %zu", path, n - i, w, h, need);
		return 0;
	}
	out->dims = channels == 1 ? 2 : 3;
	out->extent[0] = (int)w;
	out->extent[1] = (int)h;
	out->extent[2] = channels;
	out->bits = bytes * 8;
	image_alloc(out);
	for (long y = 0; y < h; y++)
		for (long x = 0; x < w; x++)
			for (int c = 0; c < channels; c++) {
				const unsigned char *p = s + i + (size_t)(((y * w + x) * channels + c) * bytes);
				out->px[x + w * (y + h * c)] = bytes == 2 ? (uint16_t)(p[0] << 8 | p[1]) : p[0];
			}
	return 1;
}

/* ---- NumPy's .npy (format 1.0 or 2.0): unsigned or signed 8- or 16-bit
 * little-endian samples, 1 to 4 dimensions; written in Fortran order, so
 * that array[x, y, c] is pixel (x, y) of channel c ---- */

/* The value of 'key' in the header dictionary text h: its start, or NULL. */
static const char *npy_value(const char *h, const char *key)
{
	char k[32];
	snprintf(k, sizeof k, "'%s'", key);
	const char *p = strstr(h, k);
	if (!p)
		return NULL;
	p += strlen(k);
	while (*p == ' ' || *p == ':')
		p++;
	return p;
}

static int read_npy(const char *path, const unsigned char *s, size_t n, Image *out, char **err)
{
	if (n < 10 || memcmp(s, "\x93NUMPY", 6) != 0 || (s[6] != 1 && s[6] != 2)) {
		*err = xasprintf("%s: not a .npy file (format 1.0 or 2.0)", path);
		return 0;
	}
	size_t hl = s[6] == 1 ? (size_t)(s[8] | s[9] << 8) : n >= 12 ? (size_t)(s[8] | s[9] << 8 | s[10] << 16 | (size_t)s[11] << 24) : n;
	size_t start = s[6] == 1 ? 10 : 12;
	if (start + hl > n || hl > 65536) {
		*err = xasprintf("%s: a .npy header longer than the file", path);
		return 0;
	}
	char *h = xcalloc(hl + 1, 1);
	memcpy(h, s + start, hl);
	const char *descr = npy_value(h, "descr"), *fo = npy_value(h, "fortran_order"), *shape = npy_value(h, "shape");
	int bytes = 0, fortran = fo && !strncmp(fo, "True", 4), dims = 0, ok = 0;
	long ext[4] = { 1, 1, 1, 1 };
	if (descr && (!strncmp(descr, "'|u1'", 5) || !strncmp(descr, "'|i1'", 5) || !strncmp(descr, "'<u1'", 5) ||
		      !strncmp(descr, "'<i1'", 5)))
		bytes = 1;
	else if (descr && (!strncmp(descr, "'<u2'", 5) || !strncmp(descr, "'<i2'", 5)))
		bytes = 2;
	if (shape && *shape == '(') {
		const char *p = shape + 1;
		while (dims < 5) {
			while (*p == ' ')
				p++;
			if (*p == ')')
				break;
			char *end;
			long v = strtol(p, &end, 10);
			if (end == p || v < 1 || v > 65535)
				break;
			if (dims < 4)
				ext[dims] = v;
			dims++;
			p = end;
			while (*p == ' ')
				p++;
			if (*p == ',')
				p++;
		}
	}
	free(h);
	if (!bytes || !fo || dims < 1 || dims > 4) {
		*err = xasprintf("%s: a .npy file of %s (expected 8- or 16-bit integers, '|u1', '|i1', '<u2' or '<i2', "
				 "in 1 to 4 dimensions)", path, !bytes ? "another sample type" : "another shape");
		return 0;
	}
	long total = ext[0] * ext[1] * ext[2] * ext[3];
	if ((size_t)(n - start - hl) != (size_t)total * (size_t)bytes) {
		*err = xasprintf("%s: %zu bytes of samples for a shape of %ld samples of %d byte%s", path, n - start - hl,
				 total, bytes, bytes == 1 ? "" : "s");
		return 0;
	}
	out->dims = dims;
	for (int i = 0; i < 4; i++)
		out->extent[i] = i < dims ? (int)ext[i] : 0;
	out->bits = bytes * 8;
	image_alloc(out);
	const unsigned char *d = s + start + hl;
	for (long k = 0; k < total; k++) {
		/* sample k of the file is at index (i0, i1, ...) of the shape, dimension 0 fastest in
		 * Fortran order, the last fastest in C order */
		long idx[4] = { 0 }, r = k;
		for (int i = 0; i < dims; i++) {
			int dim = fortran ? i : dims - 1 - i;
			idx[dim] = r % ext[dim];
			r /= ext[dim];
		}
		long off = idx[0] + ext[0] * (idx[1] + ext[1] * (idx[2] + ext[2] * idx[3]));
		out->px[off] = (uint16_t)(bytes == 2 ? d[2 * k] | d[2 * k + 1] << 8 : d[k]);
	}
	ok = 1;
	return ok;
}

static void write_npy(const Image *im, FILE *f)
{
	char h[256];
	int len = snprintf(h, sizeof h, "{'descr': '%s', 'fortran_order': True, 'shape': (", im->bits == 8 ? "|u1" : "<u2");
	/* the shape as NumPy writes a tuple: (16,) and (2, 16, 16) */
	for (int i = 0; i < im->dims; i++)
		len += snprintf(h + len, sizeof h - (size_t)len, "%s%d", i ? ", " : "", im->extent[i]);
	len += snprintf(h + len, sizeof h - (size_t)len, "%s), }", im->dims == 1 ? "," : "");
	/* the header padded with spaces to a multiple of 64 bytes, ending in a newline */
	int total = 10 + len + 1, pad = (64 - total % 64) % 64;
	fwrite("\x93NUMPY\x01\x00", 1, 8, f);
	int hl = len + pad + 1;
	fputc(hl & 0xff, f);
	fputc(hl >> 8, f);
	fwrite(h, 1, (size_t)len, f);
	for (int i = 0; i < pad; i++)
		fputc(' ', f);
	fputc('\n', f);
	for (long i = 0; i < image_size(im); i++) {
		fputc(im->px[i] & 0xff, f);
		if (im->bits != 8)
			fputc(im->px[i] >> 8, f);
	}
}

int image_read(const char *path, const Image *want, Image *out, char **err)
{
	Format fmt = format_of(path);
	memset(out, 0, sizeof *out);
	if (fmt == FMT_NONE) {
		*err = xasprintf("%s: unknown image format (expected .pgm, .ppm, .npy or .raw)", path);
		return 0;
	}
	size_t n;
	unsigned char *s = (unsigned char *)util_read_file(path, &n);
	if (!s) {
		*err = xasprintf("%s: cannot read the file: %s", path, strerror(errno));
		return 0;
	}
	int ok;
	if (fmt == FMT_RAW) {
		if (!want) {
			*err = xasprintf("%s: a raw image needs its size", path);
			ok = 0;
		} else if ((long)n != 2 * image_size(want)) {
			*err = xasprintf("%s: %zu bytes, expected %ld for the image's size", path, n, 2 * image_size(want));
			ok = 0;
		} else {
			out->dims = want->dims;
			memcpy(out->extent, want->extent, sizeof out->extent);
			image_alloc(out);
			for (long i = 0; i < image_size(out); i++)
				out->px[i] = (uint16_t)(s[2 * i] | s[2 * i + 1] << 8);
			ok = 1;
		}
	} else if (fmt == FMT_NPY) {
		ok = read_npy(path, s, n, out, err);
	} else if (n < 2 || s[0] != 'P' || s[1] != (fmt == FMT_PGM ? '5' : '6')) {
		*err = xasprintf("%s: not a binary %s file (P%c)", path, fmt == FMT_PGM ? "PGM" : "PPM",
				 fmt == FMT_PGM ? '5' : '6');
		ok = 0;
	} else {
		ok = read_pnm(path, s, n, out, err);
	}
	free(s);
	return ok;
}

int image_write(const Image *im, const char *path, FILE *f, char **err)
{
	Format fmt = format_of(path);
	if (fmt == FMT_NPY) {
		write_npy(im, f);
		return 1;
	}
	if (fmt == FMT_RAW) {
		for (long i = 0; i < image_size(im); i++) {
			fputc(im->px[i] & 0xff, f);
			fputc(im->px[i] >> 8, f);
		}
		return 1;
	}
	int w = im->extent[0], h = im->dims >= 2 ? im->extent[1] : 1;
	int channels = fmt == FMT_PPM ? 3 : 1;
	if (fmt == FMT_NONE || (fmt == FMT_PGM && im->dims > 2) ||
	    (fmt == FMT_PPM && (im->dims != 3 || im->extent[2] != 3))) {
		*err = xasprintf("%s: a %d-dimensional image cannot be written as %s", path, im->dims,
				 fmt == FMT_PGM ? "PGM (1 or 2 dimensions; use .ppm for 3 channels or .raw)"
				 : fmt == FMT_PPM ? "PPM (3 channels)" : "this format (use .pgm, .ppm or .raw)");
		return 0;
	}
	int byte = im->bits == 8;
	fprintf(f, "P%c\n%d %d\n%d\n", channels == 1 ? '5' : '6', w, h, byte ? 255 : 65535);
	for (int y = 0; y < h; y++)
		for (int x = 0; x < w; x++)
			for (int c = 0; c < channels; c++) {
				uint16_t v = im->px[x + w * (y + h * c)];
				if (!byte)
					fputc(v >> 8, f);
				fputc(v & 0xff, f);
			}
	return 1;
}

const char *image_ext(int dims, const int *extent)
{
	return dims <= 2 ? "pgm" : dims == 3 && extent[2] == 3 ? "ppm" : "npy";
}
