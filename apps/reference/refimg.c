/* refimg.c - PGM/PPM and raw 16-bit image files: see refimg.h. */
#include "refimg.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define IMAGE_MAX_SAMPLES (1L << 28)

RefImage *refimg_new(int w, int h, int c)
{
	if (w < 1 || h < 1 || c < 1 || (long)w * h > IMAGE_MAX_SAMPLES ||
	    (long)w * h * c > IMAGE_MAX_SAMPLES)
		return NULL;
	RefImage *im = malloc(sizeof *im);
	if (!im)
		return NULL;
	im->px = calloc((size_t)w * h * c, sizeof *im->px);
	if (!im->px) {
		free(im);
		return NULL;
	}
	im->w = w, im->h = h, im->c = c, im->d = 1, im->bits = 16;
	return im;
}

void refimg_free(RefImage *im)
{
	if (!im)
		return;
	free(im->px);
	free(im);
}

static const char *extension(const char *path)
{
	const char *dot = strrchr(path, '.');
	const char *slash = strrchr(path, '/');
	return dot && (!slash || dot > slash) ? dot + 1 : "";
}

/* The whole file in a new buffer; NULL (message printed) on error. */
static unsigned char *read_all(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	if (!f) {
		fprintf(stderr, "error: %s: %s\n", path, strerror(errno));
		return NULL;
	}
	size_t cap = 1 << 16, n = 0, got;
	unsigned char *buf = malloc(cap);
	while (buf && (got = fread(buf + n, 1, cap - n, f)) > 0) {
		n += got;
		if (n == cap) {
			unsigned char *bigger = realloc(buf, cap *= 2);
			if (!bigger)
				free(buf);
			buf = bigger;
		}
	}
	int bad = ferror(f) || !buf;
	fclose(f);
	if (bad) {
		fprintf(stderr, "error: %s: cannot read the file\n", path);
		free(buf);
		return NULL;
	}
	*len = n;
	return buf;
}

static int is_space(unsigned char ch)
{
	return ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r' || ch == '\v' || ch == '\f';
}

/* Skips whitespace and '#' comments of a PNM header. */
static void skip_space(const unsigned char *buf, size_t len, size_t *pos)
{
	while (*pos < len) {
		if (buf[*pos] == '#') {
			while (*pos < len && buf[*pos] != '\n')
				(*pos)++;
		} else if (is_space(buf[*pos])) {
			(*pos)++;
		} else {
			return;
		}
	}
}

/* A header number in [1, max]; -1 if there is none or it is out of range. */
static long header_number(const unsigned char *buf, size_t len, size_t *pos, long max)
{
	skip_space(buf, len, pos);
	long v = 0;
	size_t start = *pos;
	while (*pos < len && buf[*pos] >= '0' && buf[*pos] <= '9') {
		v = v * 10 + (buf[*pos] - '0');
		if (v > max)
			return -1;
		(*pos)++;
	}
	return *pos == start || v < 1 ? -1 : v;
}

static RefImage *decode_pnm(const char *path, const unsigned char *buf, size_t len)
{
	if (len < 2 || buf[0] != 'P' || (buf[1] != '5' && buf[1] != '6')) {
		fprintf(stderr, "error: %s: not a binary PGM (P5) or PPM (P6) file\n", path);
		return NULL;
	}
	int c = buf[1] == '5' ? 1 : 3;
	size_t pos = 2;
	long w = header_number(buf, len, &pos, 1L << 20);
	long h = header_number(buf, len, &pos, 1L << 20);
	long maxval = header_number(buf, len, &pos, 65535);
	if (w < 0 || h < 0 || maxval < 0 || pos >= len || !is_space(buf[pos])) {
		fprintf(stderr, "error: %s: bad header (width, height, maxval 1..65535)\n", path);
		return NULL;
	}
	pos++; /* the single whitespace character before the samples */
	int bytes = maxval > 255 ? 2 : 1;
	RefImage *im = refimg_new((int)w, (int)h, c);
	if (!im) {
		fprintf(stderr, "error: %s: image too large\n", path);
		return NULL;
	}
	size_t need = (size_t)w * h * c * bytes;
	if (len - pos != need) {
		fprintf(stderr, "error: %s: %zu bytes of samples, expected %zu\n", path, len - pos,
			need);
		refimg_free(im);
		return NULL;
	}
	const unsigned char *p = buf + pos;
	for (long y = 0; y < h; y++)
		for (long x = 0; x < w; x++)
			for (int ch = 0; ch < c; ch++, p += bytes) {
				unsigned v = bytes == 2 ? (unsigned)p[0] << 8 | p[1] : p[0];
				if (v > (unsigned long)maxval) {
					fprintf(stderr,
						"error: %s: sample (%ld, %ld, %d) = %u above maxval %ld\n",
						path, x, y, ch, v, maxval);
					refimg_free(im);
					return NULL;
				}
				refimg_set(im, (int)x, (int)y, ch, (uint16_t)v);
			}
	return im;
}

/* A .npy file of at most 4 dimensions (w, h, c, d), 8- or 16-bit samples, in
 * either order. */
static RefImage *decode_npy(const char *path, const unsigned char *buf, size_t len)
{
	if (len < 10 || memcmp(buf, "\x93NUMPY", 6) != 0 || buf[6] != 1) {
		fprintf(stderr, "error: %s: not a .npy file of format 1.0\n", path);
		return NULL;
	}
	size_t hl = (size_t)buf[8] | (size_t)buf[9] << 8;
	if (10 + hl > len) {
		fprintf(stderr, "error: %s: truncated .npy header\n", path);
		return NULL;
	}
	char hdr[65537];
	memcpy(hdr, buf + 10, hl);
	hdr[hl] = 0;
	int bytes = strstr(hdr, "u2'") || strstr(hdr, "i2'") ? 2 : strstr(hdr, "u1'") || strstr(hdr, "i1'") ? 1 : 0;
	int fortran = strstr(hdr, "'fortran_order': True") != NULL;
	const char *s = strstr(hdr, "'shape': (");
	long ext[4] = { 1, 1, 1, 1 };
	int n = 0;
	if (s) {
		s += strlen("'shape': (");
		while (n < 4) {
			char *end;
			long v = strtol(s, &end, 10);
			if (end == s)
				break;
			ext[n++] = v;
			s = end;
			while (*s == ',' || *s == ' ')
				s++;
		}
	}
	if (!bytes || !n) {
		fprintf(stderr, "error: %s: a .npy file of 8- or 16-bit integers expected\n", path);
		return NULL;
	}
	for (int j = 0; j < 4; j++)
		if (ext[j] < 1 || ext[j] > IMAGE_MAX_SAMPLES) {
			fprintf(stderr, "error: %s: the .npy shape has an extent of %ld (1 to %ld)\n", path, ext[j],
				(long)IMAGE_MAX_SAMPLES);
			return NULL;
		}
	if (ext[2] * ext[3] > IMAGE_MAX_SAMPLES) {
		fprintf(stderr, "error: %s: the .npy shape is too large\n", path);
		return NULL;
	}
	RefImage *im = refimg_new((int)ext[0], (int)ext[1], (int)(ext[2] * ext[3]));
	size_t total = (size_t)ext[0] * ext[1] * ext[2] * ext[3];
	if (!im || len - 10 - hl != total * bytes) {
		fprintf(stderr, "error: %s: the samples do not match the .npy shape\n", path);
		refimg_free(im);
		return NULL;
	}
	const unsigned char *p = buf + 10 + hl;
	for (size_t k = 0; k < total; k++) {
		long i[4] = { 0, 0, 0, 0 };
		size_t r = k;
		for (int j = 0; j < n; j++) {
			int d = fortran ? j : n - 1 - j;       /* the dimension that varies fastest first */
			i[d] = (long)(r % (size_t)ext[d]);
			r /= (size_t)ext[d];
		}
		uint16_t v = bytes == 2 ? (uint16_t)(p[2 * k] | p[2 * k + 1] << 8) : p[k];
		refimg_set(im, (int)i[0], (int)i[1], (int)(i[2] + ext[2] * i[3]), v);
	}
	im->c = (int)ext[2];
	im->d = (int)ext[3];
	im->bits = bytes * 8;
	return im;
}

RefImage *refimg_read(const char *path)
{
	size_t len;
	unsigned char *buf = read_all(path, &len);
	if (!buf)
		return NULL;
	RefImage *im = strcmp(extension(path), "npy") == 0 ? decode_npy(path, buf, len) : decode_pnm(path, buf, len);
	free(buf);
	return im;
}

RefImage *refimg_read_raw(const char *path, int w, int h, int c)
{
	RefImage *im = refimg_new(w, h, c);
	if (!im) {
		fprintf(stderr, "error: %s: bad raw image size %dx%dx%d\n", path, w, h, c);
		return NULL;
	}
	size_t len;
	unsigned char *buf = read_all(path, &len);
	size_t n = (size_t)w * h * c;
	if (buf && len != 2 * n)
		fprintf(stderr, "error: %s: %zu bytes, expected %zu for %dx%dx%d\n", path, len,
			2 * n, w, h, c);
	if (!buf || len != 2 * n) {
		free(buf);
		refimg_free(im);
		return NULL;
	}
	for (size_t i = 0; i < n; i++)
		im->px[i] = (uint16_t)(buf[2 * i] | buf[2 * i + 1] << 8);
	free(buf);
	return im;
}

/* A .npy file in Fortran order (array[x, y, c, d]), of (w, h), (w, h, c) or
 * (w, h, c, d). */
static void write_npy(FILE *f, const RefImage *im)
{
	char hdr[200];
	const char *descr = im->bits == 8 ? "|u1" : "<u2";
	int n = im->d > 1 ? snprintf(hdr, sizeof hdr, "{'descr': '%s', 'fortran_order': True, 'shape': (%d, %d, %d, %d), }",
				     descr, im->w, im->h, im->c, im->d)
		: im->c > 1 ? snprintf(hdr, sizeof hdr, "{'descr': '%s', 'fortran_order': True, 'shape': (%d, %d, %d), }",
				       descr, im->w, im->h, im->c)
			    : snprintf(hdr, sizeof hdr, "{'descr': '%s', 'fortran_order': True, 'shape': (%d, %d), }",
				       descr, im->w, im->h);
	int pad = 63 - (10 + n) % 64;   /* spaces, then the newline, to a multiple of 64 */
	fwrite("\x93NUMPY\x01\x00", 1, 8, f);
	putc((n + pad + 1) & 0xff, f);
	putc((n + pad + 1) >> 8, f);
	fwrite(hdr, 1, (size_t)n, f);
	for (int i = 0; i < pad; i++)
		putc(' ', f);
	putc('\n', f);
	for (long i = 0; i < (long)im->w * im->h * im->c * im->d; i++) {
		putc(im->px[i] & 0xff, f);
		if (im->bits != 8)
			putc(im->px[i] >> 8, f);
	}
}

static void write_samples(FILE *f, const RefImage *im, int raw)
{
	if (raw) {
		for (long i = 0; i < (long)im->w * im->h * im->c; i++) {
			putc(im->px[i] & 0xff, f);
			putc(im->px[i] >> 8, f);
		}
		return;
	}
	int byte = im->bits == 8;
	fprintf(f, "P%c\n%d %d\n%s\n", im->c == 1 ? '5' : '6', im->w, im->h, byte ? "255" : "65535");
	for (int y = 0; y < im->h; y++)
		for (int x = 0; x < im->w; x++)
			for (int ch = 0; ch < im->c; ch++) {
				uint16_t v = refimg_get(im, x, y, ch);
				if (!byte)
					putc(v >> 8, f);
				putc(v & 0xff, f);
			}
}

int refimg_write(const char *path, const RefImage *im)
{
	const char *ext = extension(path);
	int raw = strcmp(ext, "raw") == 0, npy = strcmp(ext, "npy") == 0;
	if (im->d > 1 && !npy) {
		fprintf(stderr, "error: %s: a 4-D image is written as .npy\n", path);
		return -1;
	}
	if (!raw && !npy && !(strcmp(ext, "pgm") == 0 && im->c == 1) &&
	    !(strcmp(ext, "ppm") == 0 && im->c == 3)) {
		fprintf(stderr, "error: %s: a %d-channel image is written as .%s\n", path, im->c,
			im->c == 1 ? "pgm or .raw" : im->c == 3 ? "ppm or .raw" : "raw");
		return -1;
	}
	size_t n = strlen(path) + 32;
	char *tmp = malloc(n);
	if (!tmp)
		return -1;
	snprintf(tmp, n, "%s.tmp%ld", path, (long)getpid());
	FILE *f = fopen(tmp, "wb");
	if (!f) {
		fprintf(stderr, "error: %s: %s\n", path, strerror(errno));
		free(tmp);
		return -1;
	}
	if (npy)
		write_npy(f, im);
	else
		write_samples(f, im, raw);
	int bad = ferror(f);
	bad |= fclose(f) != 0;
	if (bad || rename(tmp, path) != 0) {
		fprintf(stderr, "error: %s: cannot write the file\n", path);
		remove(tmp);
		free(tmp);
		return -1;
	}
	free(tmp);
	return 0;
}

long refimg_compare(const RefImage *a, const RefImage *b, FILE *out)
{
	if (a->w != b->w || a->h != b->h || a->c != b->c || a->d != b->d) {
		if (out)
			fprintf(out, "sizes differ: %dx%dx%dx%d vs %dx%dx%dx%d\n", a->w, a->h, a->c, a->d,
				b->w, b->h, b->c, b->d);
		return -1;
	}
	long diffs = 0;
	for (int ch = 0; ch < a->c * a->d; ch++)
		for (int y = 0; y < a->h; y++)
			for (int x = 0; x < a->w; x++) {
				uint16_t u = refimg_get(a, x, y, ch), v = refimg_get(b, x, y, ch);
				if (u == v)
					continue;
				if (out && diffs < 5)
					fprintf(out, "  (%d, %d, %d): %u vs %u\n", x, y, ch, u, v);
				diffs++;
			}
	if (out && diffs)
		fprintf(out, "%ld of %ld samples differ\n", diffs, (long)a->w * a->h * a->c * a->d);
	return diffs;
}
