/* image.c - reading and writing the images of applications (image.h): PGM
 * and PPM (binary P5, P6), NumPy's .npy and headerless raw files. Each
 * reader checks its header strictly against the format's definition and the
 * limits of image.h before it allocates, then that the samples fill the rest
 * of the file exactly; a refusal is a message "PATH: what is wrong". */
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
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
	for (int i = 0; i < im->dims; i++) {
		if (im->extent[i] < 1)
			return 0;
		if (n > LONG_MAX / im->extent[i])
			return LONG_MAX;
		n *= im->extent[i];
	}
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

/* ---- what every reader shares: the file, its position, the message ---- */

typedef struct Src {
	const char *path;
	const unsigned char *s;
	size_t n, i;
	char **err;
} Src;

static int fail(Src *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Sets *r->err to "PATH: " and the message; returns 0. */
static int fail(Src *r, const char *fmt, ...)
{
	char buf[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	*r->err = xasprintf("%s: %s", r->path, buf);
	return 0;
}

/* The bytes s[0..n) for a message, at most 24 of them (then "..."): printable
 * ASCII as it is, any other byte as \xNN. */
static const char *shown(const unsigned char *s, size_t n, char *buf, size_t cap)
{
	size_t k = 0, j = 0;
	for (; j < n && j < 24 && k + 8 < cap; j++)
		if (s[j] >= 0x20 && s[j] < 0x7f && s[j] != '\\')
			buf[k++] = (char)s[j];
		else
			k += (size_t)snprintf(buf + k, cap - k, "\\x%02x", s[j]);
	buf[k] = '\0';
	if (j < n && k + 4 < cap)
		strcpy(buf + k, "...");
	return buf;
}

/* "9 x 9 x 70000" */
static const char *shape_text(int dims, const int64_t *ext, char *buf, size_t cap)
{
	size_t k = 0;
	buf[0] = '\0';
	for (int i = 0; i < dims && k < cap; i++)
		k += (size_t)snprintf(buf + k, cap - k, "%s%lld", i ? " x " : "", (long long)ext[i]);
	return buf;
}

int image_shape_ok(int dims, const int64_t *extent, char **err)
{
	char t[96];
	if (dims < 1 || dims > 4) {
		*err = xasprintf("an image of %d dimensions (an image has 1 to 4)", dims);
		return 0;
	}
	int64_t n = 1;
	for (int i = 0; i < dims; i++) {
		if (extent[i] < 1 || extent[i] > IMAGE_MAX_EXTENT) {
			*err = xasprintf("a %s image: extent %lld in dimension %d is outside 1 to %ld",
					 shape_text(dims, extent, t, sizeof t), (long long)extent[i], i, IMAGE_MAX_EXTENT);
			return 0;
		}
		n *= extent[i];         /* at most 2^24 * 2^16: no overflow */
		if (n > IMAGE_MAX_SAMPLES) {
			int64_t all = 1;
			int wraps = 0;
			for (int k = 0; k < dims; k++)
				if (all > INT64_MAX / extent[k])
					wraps = 1;
				else
					all *= extent[k];
			*err = wraps ? xasprintf("a %s image is larger than the %ld samples an image may hold",
						 shape_text(dims, extent, t, sizeof t), IMAGE_MAX_SAMPLES)
				     : xasprintf("a %s image (%lld samples) is larger than the %ld samples an image may "
						 "hold", shape_text(dims, extent, t, sizeof t), (long long)all,
						 IMAGE_MAX_SAMPLES);
			return 0;
		}
	}
	return 1;
}

/* image_shape_ok for a file: the message names it. */
static int shape_checked(Src *r, int dims, const int64_t *ext)
{
	char *why = NULL;
	if (image_shape_ok(dims, ext, &why))
		return 1;
	fail(r, "%s", why);
	free(why);
	return 0;
}

/* ---- PGM and PPM (Netpbm's binary P5 and P6): the magic number, white
 * space, the width, white space, the height, white space, the maxval, one
 * white-space character, then the samples, row by row; white space is
 * blanks, tabs, CRs and LFs, and a comment (# to the end of the line) may
 * stand in the white space before the maxval's ---- */

#define PNM_FORM "P%c, the width, the height and the maxval, as decimal numbers separated by white space or comments"

static int pnm_space(unsigned char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

static int is_digit(unsigned char c)
{
	return c >= '0' && c <= '9';
}

/* The header number `what` of a PNM file (after white space and comments):
 * decimal digits ending at white space, from 1 to max, into *v. */
static int pnm_number(Src *r, const char *fmt, char magic, const char *what, long max, long *v)
{
	char t[128];
	for (;;) {
		while (r->i < r->n && pnm_space(r->s[r->i]))
			r->i++;
		if (r->i >= r->n || r->s[r->i] != '#')
			break;
		while (r->i < r->n && r->s[r->i] != '\n' && r->s[r->i] != '\r')
			r->i++;
	}
	if (r->i >= r->n)
		return fail(r, "the %s header ends before its %s (a header is " PNM_FORM ")", fmt, what, magic);
	size_t start = r->i, end = start;
	while (end < r->n && !pnm_space(r->s[end]))
		end++;
	long x = 0;
	for (r->i = start; r->i < end && is_digit(r->s[r->i]); r->i++)
		if (x <= max)
			x = x * 10 + (r->s[r->i] - '0');
	if (r->i < end)
		return fail(r, "the %s %s '%s' is not a decimal number (a header is " PNM_FORM ")", fmt, what,
			    shown(r->s + start, end - start, t, sizeof t), magic);
	if (x < 1 || x > max)
		return fail(r, "the %s %s %s is out of range (1 to %ld)", fmt, what,
			    shown(r->s + start, end - start, t, sizeof t), max);
	*v = x;
	return 1;
}

static int read_pnm(Src *r, int channels, Image *out)
{
	const char *fmt = channels == 1 ? "PGM" : "PPM";
	char magic = channels == 1 ? '5' : '6', t[128];
	const unsigned char *s = r->s;
	if (r->n < 2 || s[0] != 'P' || s[1] != magic) {
		if (r->n >= 2 && s[0] == 'P' && s[1] == magic - 3)
			return fail(r, "a plain (ASCII) %s file (P%c): only binary %s files (P%c) are read", fmt, s[1],
				    fmt, magic);
		return fail(r, "not a binary %s file: it starts with '%s', not P%c", fmt,
			    shown(s, r->n < 2 ? r->n : 2, t, sizeof t), magic);
	}
	r->i = 2;
	if (r->i >= r->n || !pnm_space(s[r->i]))
		return fail(r, "expected white space after P%c, found '%s'", magic,
			    r->i < r->n ? shown(s + r->i, 1, t, sizeof t) : "the end of the file");
	long w, h, maxval;
	if (!pnm_number(r, fmt, magic, "width", IMAGE_MAX_EXTENT, &w) ||
	    !pnm_number(r, fmt, magic, "height", IMAGE_MAX_EXTENT, &h) ||
	    !pnm_number(r, fmt, magic, "maxval", 65535, &maxval))
		return 0;
	if (r->i >= r->n)
		return fail(r, "the %s header ends at its maxval: expected one white-space character, then the samples",
			    fmt);
	r->i++;
	int64_t ext[3] = { w, h, channels };
	if (!shape_checked(r, channels == 1 ? 2 : 3, ext))
		return 0;
	int bytes = maxval > 255 ? 2 : 1;
	size_t need = (size_t)w * (size_t)h * (size_t)channels * (size_t)bytes, have = r->n - r->i;
	if (have != need)
		return fail(r, "%zu bytes of samples after the %s header; a %ld x %ld image with maxval %ld has %zu "
			    "(%d byte%s a sample)%s", have, fmt, w, h, maxval, need, bytes, bytes == 1 ? "" : "s",
			    have > need ? ": a file holds one image and nothing after it" : "");
	const unsigned char *d = s + r->i;
	for (long k = 0; k < w * h * channels; k++) {
		unsigned v = bytes == 2 ? (unsigned)(d[2 * k] << 8 | d[2 * k + 1]) : d[k];
		long x = k / channels % w, y = k / channels / w;
		int c = (int)(k % channels);
		if ((long)v > maxval) {
			if (channels == 1)
				return fail(r, "sample %u at (%ld, %ld) is above the maxval %ld", v, x, y, maxval);
			return fail(r, "sample %u at (%ld, %ld), channel %d, is above the maxval %ld", v, x, y, c,
				    maxval);
		}
	}
	out->dims = channels == 1 ? 2 : 3;
	out->extent[0] = (int)w;
	out->extent[1] = (int)h;
	out->extent[2] = channels;
	out->bits = bytes * 8;
	image_alloc(out);
	for (long k = 0; k < w * h * channels; k++) {
		long x = k / channels % w, y = k / channels / w, c = k % channels;
		out->px[x + w * (y + h * c)] = bytes == 2 ? (uint16_t)(d[2 * k] << 8 | d[2 * k + 1]) : d[k];
	}
	return 1;
}

/* ---- NumPy's .npy (format 1.0, 2.0 or 3.0): "\x93NUMPY", the major and
 * minor version, the header's length (2 bytes little-endian for 1.0, 4 for
 * 2.0 and 3.0), the header: a Python dictionary literal with exactly the
 * keys 'descr' (a string), 'fortran_order' (True or False) and 'shape' (a
 * tuple of integers), padded with spaces and ended by a newline; then the
 * samples. Read here: integer samples of 8 or 16 bits, 1 to 4 dimensions
 * (written in Fortran order, so that array[x, y, c] is pixel (x, y) of
 * channel c) ---- */

typedef struct Npy {
	Src *r;
	size_t start, end;      /* the header's bytes in the file, its newline at end - 1 */
	int seen[3];            /* descr, fortran_order, shape */
	int bytes, swap, fortran, dims;
	int64_t ext[4];
} Npy;

static const char *const npy_keys[3] = { "descr", "fortran_order", "shape" };

static int npy_fail(Npy *h, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* A message about the header at the current position. */
static int npy_fail(Npy *h, const char *fmt, ...)
{
	char buf[400];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	return fail(h->r, ".npy header, byte %zu: %s", h->r->i - h->start, buf);
}

/* What stands at the current position, for a message. */
static const char *npy_here(Npy *h, char *buf, size_t cap)
{
	Src *r = h->r;
	if (r->i >= h->end - 1)
		return "the end of the header";
	size_t e = r->i;
	while (e < h->end - 1 && e - r->i < 24 && r->s[e] != ',' && r->s[e] != ' ' && r->s[e] != '\n')
		e++;
	char t[128];
	snprintf(buf, cap, "'%s'", shown(r->s + r->i, e > r->i ? e - r->i : 1, t, sizeof t));
	return buf;
}

/* Python's white space inside the braces (the header's newline excluded). */
static void npy_ws(Npy *h)
{
	Src *r = h->r;
	while (r->i < h->end - 1 && (r->s[r->i] == ' ' || r->s[r->i] == '\t' || r->s[r->i] == '\n'))
		r->i++;
}

static int npy_peek(Npy *h)
{
	return h->r->i < h->end - 1 ? h->r->s[h->r->i] : -1;
}

/* A string literal, '...' or "...", without escapes, of at most cap - 1
 * characters, into buf. */
static int npy_string(Npy *h, const char *what, char *buf, size_t cap)
{
	Src *r = h->r;
	char t[64];
	int q = npy_peek(h);
	if (q != '\'' && q != '"')
		return npy_fail(h, "expected %s, a string in quotes, found %s", what, npy_here(h, t, sizeof t));
	size_t k = 0;
	for (r->i++; npy_peek(h) != q; r->i++) {
		int c = npy_peek(h);
		if (c < 0x20 || c >= 0x7f || c == '\\')
			return npy_fail(h, "%s in %s: a string holds printable ASCII characters without escapes",
					c < 0 ? "the header ends" : "an unexpected character", what);
		if (k + 1 >= cap)
			return npy_fail(h, "%s is longer than %zu characters", what, cap - 2);
		buf[k++] = (char)c;
	}
	r->i++;
	buf[k] = '\0';
	return 1;
}

/* The sample types read: 8- or 16-bit integers, signed or not, whose
 * samples are kept as their bits. */
static int npy_descr(Npy *h)
{
	static const struct { const char *descr; int bytes, swap; } types[] = {
		{ "|u1", 1, 0 }, { "|i1", 1, 0 }, { "<u1", 1, 0 }, { "<i1", 1, 0 }, { ">u1", 1, 0 }, { ">i1", 1, 0 },
		{ "u1", 1, 0 },  { "i1", 1, 0 },  { "<u2", 2, 0 }, { "<i2", 2, 0 }, { ">u2", 2, 1 }, { ">i2", 2, 1 },
	};
	char d[40], t[64];
	if (npy_peek(h) == '[' || npy_peek(h) == '{')
		return npy_fail(h, "a structured sample type %s: expected 8- or 16-bit integers ('|u1', '|i1', "
				"'<u2', '<i2', '>u2', '>i2')", npy_here(h, t, sizeof t));
	if (!npy_string(h, "the value of 'descr'", d, sizeof d))
		return 0;
	for (size_t k = 0; k < sizeof types / sizeof types[0]; k++)
		if (!strcmp(d, types[k].descr)) {
			h->bytes = types[k].bytes;
			h->swap = types[k].swap;
			return 1;
		}
	return npy_fail(h, "sample type '%s' is not read: expected 8- or 16-bit integers ('|u1', '|i1', '<u2', '<i2', "
			"'>u2', '>i2')", d);
}

static int npy_fortran(Npy *h)
{
	Src *r = h->r;
	char t[64];
	size_t left = h->end - 1 - r->i;
	for (int v = 0; v < 2; v++) {
		const char *word = v ? "True" : "False";
		size_t len = strlen(word);
		if (left >= len && !memcmp(r->s + r->i, word, len) &&
		    (left == len || !(is_digit(r->s[r->i + len]) || r->s[r->i + len] == '_' ||
				      (unsigned)((r->s[r->i + len] | 0x20) - 'a') < 26u))) {
			h->fortran = v;
			r->i += len;
			return 1;
		}
	}
	return npy_fail(h, "the value of 'fortran_order' must be True or False, found %s", npy_here(h, t, sizeof t));
}

/* An extent of the shape: a decimal integer (no sign, no leading zero) from
 * 1 to IMAGE_MAX_EXTENT. */
static int npy_extent(Npy *h, int dim)
{
	Src *r = h->r;
	char t[64];
	if (!is_digit((unsigned char)npy_peek(h)))
		return npy_fail(h, "expected an extent (a positive integer) in the shape, found %s",
				npy_here(h, t, sizeof t));
	size_t start = r->i;
	int64_t v = 0;
	for (; is_digit((unsigned char)npy_peek(h)); r->i++)
		if (v <= IMAGE_MAX_EXTENT)
			v = v * 10 + (r->s[r->i] - '0');
	size_t len = r->i - start;
	r->i = start;
	if (r->s[start] == '0' && len > 1)
		return npy_fail(h, "an extent with a leading zero (%s): Python does not read it",
				shown(r->s + start, len, t, sizeof t));
	if (v < 1 || v > IMAGE_MAX_EXTENT)
		return npy_fail(h, "extent %s in dimension %d is outside 1 to %ld", shown(r->s + start, len, t, sizeof t),
				dim, IMAGE_MAX_EXTENT);
	r->i = start + len;
	if (dim >= 4)
		return npy_fail(h, "a shape of more than 4 dimensions (an image has 1 to 4)");
	h->ext[dim] = v;
	return 1;
}

/* The shape: (), (N,), (N, M), ... with an optional comma at the end. */
static int npy_shape(Npy *h)
{
	char t[64];
	if (npy_peek(h) != '(')
		return npy_fail(h, "the value of 'shape' must be a tuple of extents such as (64, 64), found %s",
				npy_here(h, t, sizeof t));
	h->r->i++;
	npy_ws(h);
	int commas = 0;
	while (npy_peek(h) != ')') {
		if (!npy_extent(h, h->dims))
			return 0;
		h->dims++;
		npy_ws(h);
		if (npy_peek(h) == ',') {
			commas++;
			h->r->i++;
			npy_ws(h);
		} else if (npy_peek(h) != ')') {
			return npy_fail(h, "expected ',' or ')' after an extent of the shape, found %s",
					npy_here(h, t, sizeof t));
		}
	}
	if (h->dims == 0)
		return npy_fail(h, "an empty shape (): an image has 1 to 4 dimensions");
	if (h->dims == 1 && commas == 0)
		return npy_fail(h, "(%lld) is a number, not a shape: a shape of one dimension is written (%lld,)",
				(long long)h->ext[0], (long long)h->ext[0]);
	h->r->i++;
	return 1;
}

/* One "'key': value" of the dictionary. */
static int npy_entry(Npy *h)
{
	char key[40], t[64];
	size_t at = h->r->i;
	if (!npy_string(h, "a key", key, sizeof key))
		return 0;
	int k = 0;
	while (k < 3 && strcmp(key, npy_keys[k]))
		k++;
	if (k == 3 || h->seen[k]) {
		h->r->i = at;
		return npy_fail(h, k == 3 ? "unknown key '%s' (a .npy header has exactly 'descr', 'fortran_order' and "
				"'shape')" : "key '%s' given twice", key);
	}
	h->seen[k] = 1;
	npy_ws(h);
	if (npy_peek(h) != ':')
		return npy_fail(h, "expected ':' after '%s', found %s", key, npy_here(h, t, sizeof t));
	h->r->i++;
	npy_ws(h);
	return k == 0 ? npy_descr(h) : k == 1 ? npy_fortran(h) : npy_shape(h);
}

/* The header dictionary, then spaces up to its newline. */
static int npy_dict(Npy *h)
{
	Src *r = h->r;
	char t[64];
	for (size_t i = h->start; i < h->end; i++)
		if (r->s[i] >= 0x80 || (r->s[i] < 0x20 && r->s[i] != '\n' && r->s[i] != '\t')) {
			r->i = i;
			return npy_fail(h, "byte 0x%02x: a header holds printable ASCII", r->s[i]);
		}
	r->i = h->start;
	if (npy_peek(h) != '{')
		return npy_fail(h, "expected '{', the dictionary of 'descr', 'fortran_order' and 'shape', found %s",
				npy_here(h, t, sizeof t));
	r->i++;
	npy_ws(h);
	while (npy_peek(h) != '}') {
		if (!npy_entry(h))
			return 0;
		npy_ws(h);
		if (npy_peek(h) == ',') {
			r->i++;
			npy_ws(h);
		} else if (npy_peek(h) != '}') {
			return npy_fail(h, "expected ',' or '}' after a value, found %s", npy_here(h, t, sizeof t));
		}
	}
	r->i++;
	while (r->i < h->end - 1 && r->s[r->i] == ' ')
		r->i++;
	if (r->i < h->end - 1)
		return npy_fail(h, "%s after the dictionary (only spaces may pad it)", npy_here(h, t, sizeof t));
	for (int k = 0; k < 3; k++)
		if (!h->seen[k])
			return fail(r, ".npy header: no '%s' (a .npy header has exactly 'descr', 'fortran_order' and "
				    "'shape')", npy_keys[k]);
	return 1;
}

/* The magic string, the version and the header's length. */
static int npy_preamble(Src *r, Npy *h)
{
	const unsigned char *s = r->s;
	if (r->n < 6 || memcmp(s, "\x93NUMPY", 6) != 0)
		return fail(r, "not a .npy file: it does not start with \\x93NUMPY");
	if (r->n < 8 || s[6] < 1 || s[6] > 3 || s[7] != 0)
		return r->n < 8 ? fail(r, "a .npy file that ends in its version")
				: fail(r, ".npy format %d.%d: the formats read are 1.0, 2.0 and 3.0", s[6], s[7]);
	h->start = s[6] == 1 ? 10 : 12;
	if (r->n < h->start)
		return fail(r, "a .npy file that ends in its header's length");
	size_t hl = s[6] == 1 ? (size_t)(s[8] | s[9] << 8)
			      : (size_t)s[8] | (size_t)s[9] << 8 | (size_t)s[10] << 16 | (size_t)s[11] << 24;
	if (hl > (size_t)IMAGE_MAX_HEADER)
		return fail(r, "a .npy header of %zu bytes: the limit is %ld", hl, IMAGE_MAX_HEADER);
	if (hl > r->n - h->start)
		return fail(r, "the .npy header's length is %zu bytes, but only %zu follow it", hl, r->n - h->start);
	h->end = h->start + hl;
	if (hl == 0 || s[h->end - 1] != '\n')
		return fail(r, "the .npy header does not end with a newline");
	return 1;
}

static int read_npy(Src *r, Image *out)
{
	Npy h = { .r = r, .ext = { 1, 1, 1, 1 } };
	if (!npy_preamble(r, &h) || !npy_dict(&h) || !shape_checked(r, h.dims, h.ext))
		return 0;
	int64_t total = h.ext[0] * h.ext[1] * h.ext[2] * h.ext[3];
	size_t have = r->n - h.end, need = (size_t)total * (size_t)h.bytes;
	if (have != need) {
		char t[96];
		return fail(r, "%zu bytes of samples after the .npy header; a shape of %s has %zu (%d byte%s a sample)",
			    have, shape_text(h.dims, h.ext, t, sizeof t), need, h.bytes, h.bytes == 1 ? "" : "s");
	}
	out->dims = h.dims;
	for (int i = 0; i < 4; i++)
		out->extent[i] = i < h.dims ? (int)h.ext[i] : 0;
	out->bits = h.bytes * 8;
	image_alloc(out);
	const unsigned char *d = r->s + h.end;
	const int64_t *ext = h.ext;
	for (int64_t k = 0; k < total; k++) {
		/* sample k of the file is at index (i0, i1, ...) of the shape, dimension 0 fastest in
		 * Fortran order, the last fastest in C order */
		int64_t idx[4] = { 0 }, rest = k;
		for (int i = 0; i < h.dims; i++) {
			int dim = h.fortran ? i : h.dims - 1 - i;
			idx[dim] = rest % ext[dim];
			rest /= ext[dim];
		}
		int64_t off = idx[0] + ext[0] * (idx[1] + ext[1] * (idx[2] + ext[2] * idx[3]));
		const unsigned char *p = d + k * h.bytes;
		out->px[off] = (uint16_t)(h.bytes == 1 ? p[0] : h.swap ? p[0] << 8 | p[1] : p[0] | p[1] << 8);
	}
	return 1;
}

/* ---- raw: 16-bit little-endian samples, the size given by the caller ---- */

static int read_raw(Src *r, const Image *want, Image *out)
{
	if (!want)
		return fail(r, "a raw image has no header: its size must be given");
	int64_t ext[4] = { 0 };
	for (int i = 0; i < 4 && i < want->dims; i++)
		ext[i] = want->extent[i];
	if (!shape_checked(r, want->dims, ext))
		return 0;
	size_t need = 2 * (size_t)image_size(want);
	if (r->n != need) {
		char t[96];
		return fail(r, "%zu bytes; a raw %s image has %zu (2 bytes a sample)", r->n,
			    shape_text(want->dims, ext, t, sizeof t), need);
	}
	out->dims = want->dims;
	memcpy(out->extent, want->extent, sizeof out->extent);
	out->bits = 16;
	image_alloc(out);
	for (size_t i = 0; i < need / 2; i++)
		out->px[i] = (uint16_t)(r->s[2 * i] | r->s[2 * i + 1] << 8);
	return 1;
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

int image_read_mem(const char *path, const unsigned char *data, size_t n, const Image *want, Image *out, char **err)
{
	Format fmt = format_of(path);
	Src r = { path, data, n, 0, err };
	memset(out, 0, sizeof *out);
	switch (fmt) {
	case FMT_PGM: return read_pnm(&r, 1, out);
	case FMT_PPM: return read_pnm(&r, 3, out);
	case FMT_NPY: return read_npy(&r, out);
	case FMT_RAW: return read_raw(&r, want, out);
	default: return fail(&r, "unknown image format (expected .pgm, .ppm, .npy or .raw)");
	}
}

int image_read(const char *path, const Image *want, Image *out, char **err)
{
	memset(out, 0, sizeof *out);
	if (format_of(path) == FMT_NONE)
		return image_read_mem(path, NULL, 0, want, out, err);
	size_t n;
	unsigned char *s = (unsigned char *)util_read_file_max(path, &n, IMAGE_READ_MAX);
	if (!s) {
		int e = errno;
		*err = e == EFBIG ? xasprintf("%s: %s (an image holds at most %ld samples)", path, util_read_why(e),
					      IMAGE_MAX_SAMPLES)
				  : xasprintf("%s: cannot read the file: %s", path, util_read_why(e));
		return 0;
	}
	int ok = image_read_mem(path, s, n, want, out, err);
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
	if (fmt == FMT_NONE) {
		*err = xasprintf("%s: unknown image format (the name must end in .pgm, .ppm, .npy or .raw)", path);
		return 0;
	}
	if ((fmt == FMT_PGM && im->dims > 2) || (fmt == FMT_PPM && (im->dims != 3 || im->extent[2] != 3))) {
		*err = xasprintf("%s: a %d-dimensional image cannot be written as %s", path, im->dims,
				 fmt == FMT_PGM ? "PGM (1 or 2 dimensions; use .npy, or .ppm for 3 channels)"
				 : "PPM (3 dimensions, the last of extent 3; use .npy)");
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
