/* test_image.c - unit tests of the image readers and writers (image.h):
 * every format written and read back, a C-order .npy read by its indices,
 * then the refusals, each with its exact message: .npy headers (version,
 * length, the dictionary's syntax, its keys and values, the shape and its
 * limits, sizes that would overflow), PGM and PPM headers (magic, numbers
 * and their limits, comments, white space, samples above the maxval), the
 * data length of every format, and files too large or endless (/dev/zero).
 *
 * The last line is "image: N passed, M failed"; the exit status is 1 if
 * anything failed. */

#define _POSIX_C_SOURCE 200809L

#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "../image.h"
#include "../util.h"

/* A fresh temporary folder (to free and remove). */
static char *temp_dir(void)
{
	const char *base = getenv("TMPDIR");
	char *templ = xasprintf("%s/test_image.XXXXXX", base && *base ? base : "/tmp");
	if (!mkdtemp(templ)) {
		free(templ);
		return NULL;
	}
	return templ;
}

/* A .npy file of version ver (1, 2 or 3) with the header dictionary hdr
 * (padded with spaces to 64 bytes and a newline) and ndata sample bytes
 * (0, 1, 2, ...); its length in *n. */
static unsigned char *npy_file(int ver, const char *hdr, size_t ndata, size_t *n)
{
	size_t pre = ver == 1 ? 10 : 12, len = strlen(hdr), pad = (64 - (pre + len + 1) % 64) % 64;
	size_t hl = len + pad + 1;
	*n = pre + hl + ndata;
	unsigned char *s = xmalloc(*n + 1);
	memcpy(s, "\x93NUMPY", 6);
	s[6] = (unsigned char)ver;
	s[7] = 0;
	for (size_t i = 0; i < pre - 8; i++)
		s[8 + i] = (unsigned char)(hl >> (8 * i));
	memcpy(s + pre, hdr, len);
	memset(s + pre + len, ' ', pad);
	s[pre + hl - 1] = '\n';
	for (size_t i = 0; i < ndata; i++)
		s[pre + hl + i] = (unsigned char)i;
	return s;
}

/* An image written and read back in every format that holds it: PGM/PPM with 8- and
 * 16-bit samples, .npy of any shape (also a C-order file, as numpy writes by default). */
static void test_image_formats(void)
{
	char *dir = temp_dir();
	if (!CHECK(dir != NULL, "a temporary folder"))
		return;
	static const struct { int dims, ext[4], bits; const char *name; } cases[] = {
		{ 2, { 5, 3 }, 8, "a.pgm" },         { 2, { 5, 3 }, 16, "b.pgm" },      { 3, { 4, 2, 3 }, 16, "c.ppm" },
		{ 3, { 3, 4, 2 }, 8, "d.npy" },      { 4, { 2, 3, 2, 2 }, 16, "e.npy" }, { 1, { 7 }, 8, "f.npy" },
		{ 2, { 4, 4 }, 16, "g.raw" },
	};
	for (int k = 0; k < COUNT(cases); k++) {
		Image im = { cases[k].dims, { 0 }, NULL, cases[k].bits };
		memcpy(im.extent, cases[k].ext, sizeof im.extent);
		image_alloc(&im);
		for (long i = 0; i < image_size(&im); i++)
			im.px[i] = (uint16_t)((i * 37 + 11) & (cases[k].bits == 8 ? 0xff : 0xffff));
		char *path = xasprintf("%s/%s", dir, cases[k].name), *err = NULL;
		FILE *f = fopen(path, "wb");
		int ok = f && image_write(&im, path, f, &err);
		if (f)
			fclose(f);
		Image back = { 0 };
		ok = ok && image_read(path, &im, &back, &err);
		CHECK(ok && image_size(&back) == image_size(&im) && back.bits == im.bits &&
			      !memcmp(back.px, im.px, sizeof *im.px * (size_t)image_size(&im)),
		      "%s: written and read back the same (%s)", cases[k].name, err ? err : "");
		if (im.dims > 1 && strcmp(cases[k].name, "g.raw"))  /* a row is written as a PGM by default */
			CHECK(!strcmp(image_ext(im.dims, im.extent), strrchr(cases[k].name, '.') + 1),
			      "%s: the extension image_ext gives", cases[k].name);
		free(err);
		image_free(&back);
		image_free(&im);
		remove(path);
		free(path);
	}
	rmdir(dir);
	free(dir);
}

/* C order, shape (2, 3): element [i][j] at i * 3 + j is pixel (i, j); big-endian
 * 16-bit samples; format 2.0 and 3.0 headers, double quotes, no trailing comma. */
static void test_npy_orders(void)
{
	size_t n;
	unsigned char *s = npy_file(1, "{'descr': '<u2', 'fortran_order': False, 'shape': (2, 3), }", 12, &n);
	Image c;
	char *err = NULL;
	int ok = image_read_mem("c.npy", s, n, NULL, &c, &err);
	/* sample k is the bytes 2k, 2k + 1 little-endian: 256 * (2k + 1) + 2k */
	CHECK(ok && c.dims == 2 && c.extent[0] == 2 && c.extent[1] == 3 && c.bits == 16 && c.px[0 + 2 * 1] == 0x0302 &&
		      c.px[1 + 2 * 0] == 0x0706 && c.px[1 + 2 * 2] == 0x0b0a,
	      "a C-order .npy read by its indices (%s)", err ? err : "");
	image_free(&c);
	free(err);
	free(s);
	err = NULL;
	s = npy_file(2, "{\"descr\": \">u2\", \"fortran_order\": True, \"shape\": (2, 2)}", 8, &n);
	ok = image_read_mem("b.npy", s, n, NULL, &c, &err);
	CHECK(ok && c.dims == 2 && c.px[0] == 0x0001 && c.px[3] == 0x0607, "a big-endian .npy, format 2.0 (%s)",
	      err ? err : "");
	image_free(&c);
	free(err);
	free(s);
	err = NULL;
	s = npy_file(3, "{'shape': (3,), 'fortran_order': False, 'descr': '|i1'}", 3, &n);
	ok = image_read_mem("r.npy", s, n, NULL, &c, &err);
	CHECK(ok && c.dims == 1 && c.extent[0] == 3 && c.bits == 8 && c.px[2] == 2,
	      "format 3.0, keys in another order (%s)", err ? err : "");
	image_free(&c);
	free(err);
	free(s);
}

/* Each header refused with its message (the file has the samples the shape would need,
 * 9 x 9 bytes, where that matters). */
static void test_npy_headers(void)
{
	static const struct { int ver; const char *hdr; size_t ndata; const char *msg; } cases[] = {
		{ 1, "{'descr': '|u1', 'fortran_order': False, 'shape': (9, 9), 'extra': 1}", 81,
		  "x.npy: .npy header, byte 58: unknown key 'extra' (a .npy header has exactly 'descr', "
		  "'fortran_order' and 'shape')" },
		{ 1, "{'descr': '|u1', 'fortran_order': Maybe, 'shape': (9, 9)}", 81,
		  "x.npy: .npy header, byte 34: the value of 'fortran_order' must be True or False, found 'Maybe'" },
		{ 1, "{'descr': '|u1', 'fortran_order': Trueish, 'shape': (9, 9)}", 81,
		  "x.npy: .npy header, byte 34: the value of 'fortran_order' must be True or False, found 'Trueish'" },
		{ 1, "{'descr': '|u1', 'fortran_order': False, 'shape': (9 9)}", 81,
		  "x.npy: .npy header, byte 53: expected ',' or ')' after an extent of the shape, found '9)}'" },
		{ 1, "{'note': 'descr', 'fortran_order': False, 'shape': (9, 9)}", 81,
		  "x.npy: .npy header, byte 1: unknown key 'note' (a .npy header has exactly 'descr', "
		  "'fortran_order' and 'shape')" },
		{ 1, "{'fortran_order': False, 'shape': (9, 9)}", 81,
		  "x.npy: .npy header: no 'descr' (a .npy header has exactly 'descr', 'fortran_order' and 'shape')" },
		{ 1, "{'descr': '|u1', 'descr': '|u1', 'fortran_order': False, 'shape': (9, 9)}", 81,
		  "x.npy: .npy header, byte 17: key 'descr' given twice" },
		{ 1, "{'descr': '|u1', 'fortran_order': False, 'shape': (9, 9, 70000)}", 81,
		  "x.npy: .npy header, byte 57: extent 70000 in dimension 2 is outside 1 to 65536" },
		{ 1, "{'descr': '|u1', 'fortran_order': False, 'shape': (9, 0)}", 0,
		  "x.npy: .npy header, byte 54: extent 0 in dimension 1 is outside 1 to 65536" },
		{ 1, "{'descr': '|u1', 'fortran_order': False, 'shape': (65535, 65535, 65535, 65535)}", 81,
		  "x.npy: a 65535 x 65535 x 65535 x 65535 image is larger than the 16777216 samples an image may hold" },
		{ 1, "{'descr': '<u2', 'fortran_order': False, 'shape': (65536, 65536, 2)}", 81,
		  "x.npy: a 65536 x 65536 x 2 image (8589934592 samples) is larger than the 16777216 samples an image "
		  "may hold" },
		{ 1, "{'descr': '|u1', 'fortran_order': False, 'shape': (1, 1, 1, 1, 1)}", 1,
		  "x.npy: .npy header, byte 64: a shape of more than 4 dimensions (an image has 1 to 4)" },
		{ 1, "{'descr': '|u1', 'fortran_order': False, 'shape': ()}", 1,
		  "x.npy: .npy header, byte 51: an empty shape (): an image has 1 to 4 dimensions" },
		{ 1, "{'descr': '|u1', 'fortran_order': False, 'shape': (9)}", 9,
		  "x.npy: .npy header, byte 52: (9) is a number, not a shape: a shape of one dimension is written (9,)" },
		{ 1, "{'descr': '|u1', 'fortran_order': False, 'shape': (-9, 9)}", 81,
		  "x.npy: .npy header, byte 51: expected an extent (a positive integer) in the shape, found '-9'" },
		{ 1, "{'descr': '|u1', 'fortran_order': False, 'shape': (09, 9)}", 81,
		  "x.npy: .npy header, byte 51: an extent with a leading zero (09): Python does not read it" },
		{ 1, "{'descr': '<f4', 'fortran_order': False, 'shape': (9, 9)}", 324,
		  "x.npy: .npy header, byte 15: sample type '<f4' is not read: expected 8- or 16-bit integers ('|u1', "
		  "'|i1', '<u2', '<i2', '>u2', '>i2')" },
		{ 1, "{'descr': [('a', '|u1')], 'fortran_order': False, 'shape': (9, 9)}", 81,
		  "x.npy: .npy header, byte 10: a structured sample type '[('a'': expected 8- or 16-bit integers "
		  "('|u1', '|i1', '<u2', '<i2', '>u2', '>i2')" },
		{ 1, "{'descr': '|u1', 'fortran_order': False, 'shape': [9, 9]}", 81,
		  "x.npy: .npy header, byte 50: the value of 'shape' must be a tuple of extents such as (64, 64), "
		  "found '[9'" },
		{ 1, "{'descr': '|u1' 'fortran_order': False, 'shape': (9, 9)}", 81,
		  "x.npy: .npy header, byte 16: expected ',' or '}' after a value, found ''fortran_order':'" },
		{ 1, "{'descr': '|u1', 'fortran_order': False, 'shape': (9, 9)} x", 81,
		  "x.npy: .npy header, byte 58: 'x' after the dictionary (only spaces may pad it)" },
		{ 1, "['descr', '|u1']", 81,
		  "x.npy: .npy header, byte 0: expected '{', the dictionary of 'descr', 'fortran_order' and 'shape', "
		  "found '['descr''" },
		{ 1, "{'descr': '\\x7cu1', 'fortran_order': False, 'shape': (9, 9)}", 81,
		  "x.npy: .npy header, byte 11: an unexpected character in the value of 'descr': a string holds "
		  "printable ASCII characters without escapes" },
		{ 1, "{'descr': '|u1', 'fortran_order': False, 'shape': (9, 9), }", 80,
		  "x.npy: 80 bytes of samples after the .npy header; a shape of 9 x 9 has 81 (1 byte a sample)" },
		{ 1, "{'descr': '<u2', 'fortran_order': False, 'shape': (9, 9), }", 163,
		  "x.npy: 163 bytes of samples after the .npy header; a shape of 9 x 9 has 162 (2 bytes a sample)" },
	};
	for (int k = 0; k < COUNT(cases); k++) {
		size_t n;
		unsigned char *s = npy_file(cases[k].ver, cases[k].hdr, cases[k].ndata, &n);
		Image im;
		char *err = NULL;
		int ok = image_read_mem("x.npy", s, n, NULL, &im, &err);
		CHECK(!ok && err && !strcmp(err, cases[k].msg) && !im.px, "%s:\n    got  %s\n    want %s", cases[k].hdr,
		      err ? err : "(accepted)", cases[k].msg);
		image_free(&im);
		free(err);
		free(s);
	}
}

/* The magic string, the version and the header's length, byte by byte. */
static void test_npy_preamble(void)
{
	static const struct { const char *bytes; size_t n; const char *msg; } cases[] = {
		{ "\x93NUMPZ\x01\x00", 8, "x.npy: not a .npy file: it does not start with \\x93NUMPY" },
		{ "\x93NUMPY\x01", 7, "x.npy: a .npy file that ends in its version" },
		{ "\x93NUMPY\x04\x00", 8, "x.npy: .npy format 4.0: the formats read are 1.0, 2.0 and 3.0" },
		{ "\x93NUMPY\x01\x01\x00\x00", 10, "x.npy: .npy format 1.1: the formats read are 1.0, 2.0 and 3.0" },
		{ "\x93NUMPY\x02\x00\x10\x00", 10, "x.npy: a .npy file that ends in its header's length" },
		{ "\x93NUMPY\x02\x00\x00\x00\x01\x00", 12, "x.npy: a .npy header of 65536 bytes: the limit is 65535" },
		{ "\x93NUMPY\x02\x00\xff\xff\xff\xff", 12, "x.npy: a .npy header of 4294967295 bytes: the limit is 65535" },
		{ "\x93NUMPY\x01\x00\x40\x00{}", 12, "x.npy: the .npy header's length is 64 bytes, but only 2 follow it" },
		{ "\x93NUMPY\x01\x00\x02\x00{}", 12, "x.npy: the .npy header does not end with a newline" },
		{ "\x93NUMPY\x01\x00\x00\x00", 10, "x.npy: the .npy header does not end with a newline" },
		{ "\x93NUMPY\x01\x00\x03\x00{\xe9\n", 13, "x.npy: .npy header, byte 1: byte 0xe9: a header holds printable ASCII" },
	};
	for (int k = 0; k < COUNT(cases); k++) {
		Image im;
		char *err = NULL;
		int ok = image_read_mem("x.npy", (const unsigned char *)cases[k].bytes, cases[k].n, NULL, &im, &err);
		CHECK(!ok && err && !strcmp(err, cases[k].msg), "case %d:\n    got  %s\n    want %s", k,
		      err ? err : "(accepted)", cases[k].msg);
		image_free(&im);
		free(err);
	}
}

/* PGM and PPM headers: each number strictly, comments, white space, limits, the data
 * length, samples above the maxval. The samples after the header are data (zeros
 * when NULL), ndata bytes. */
static void test_pnm(void)
{
	static const char *const form = "(a header is P5, the width, the height and the maxval, as decimal numbers "
					"separated by white space or comments)";
	static const struct { const char *name, *head, *data; size_t ndata; const char *msg; } cases[] = {
		{ "x.pgm", "P5\n12345678 1\n255\n", NULL, 12345678,
		  "x.pgm: the PGM width 12345678 is out of range (1 to 65536)" },
		{ "x.pgm", "P5\n123456789012345678901234567 1\n255\n", NULL, 1,
		  "x.pgm: the PGM width 123456789012345678901234... is out of range (1 to 65536)" },
		{ "x.pgm", "P5\n65537 1\n255\n", NULL, 65537, "x.pgm: the PGM width 65537 is out of range (1 to 65536)" },
		{ "x.pgm", "P5\n0 1\n255\n", NULL, 0, "x.pgm: the PGM width 0 is out of range (1 to 65536)" },
		{ "x.pgm", "P5\n4 -1\n255\n", NULL, 4, "x.pgm: the PGM height '-1' is not a decimal number %s" },
		{ "x.pgm", "P5\n4x 1\n255\n", NULL, 4, "x.pgm: the PGM width '4x' is not a decimal number %s" },
		{ "x.pgm", "P5\n4 1\n65536\n", NULL, 8, "x.pgm: the PGM maxval 65536 is out of range (1 to 65535)" },
		{ "x.pgm", "P5\n4 1\n0\n", NULL, 4, "x.pgm: the PGM maxval 0 is out of range (1 to 65535)" },
		{ "x.pgm", "P5\n4 1\n", NULL, 0, "x.pgm: the PGM header ends before its maxval %s" },
		{ "x.pgm", "P5\n4 1\n255", NULL, 0,
		  "x.pgm: the PGM header ends at its maxval: expected one white-space character, then the samples" },
		{ "x.pgm", "P5\n4 1 255#c\n", NULL, 4, "x.pgm: the PGM maxval '255#c' is not a decimal number %s" },
		{ "x.pgm", "P5\n4 1\n\f255\n", NULL, 4, "x.pgm: the PGM maxval '\\x0c255' is not a decimal number %s" },
		{ "x.pgm", "P54 1 255\n", NULL, 4, "x.pgm: expected white space after P5, found '4'" },
		{ "x.pgm", "P6\n4 1\n255\n", NULL, 12, "x.pgm: not a binary PGM file: it starts with 'P6', not P5" },
		{ "x.pgm", "P2\n4 1\n255\n", NULL, 4, "x.pgm: a plain (ASCII) PGM file (P2): only binary PGM files (P5) are read" },
		{ "x.ppm", "P3\n4 1\n255\n", NULL, 12,
		  "x.ppm: a plain (ASCII) PPM file (P3): only binary PPM files (P6) are read" },
		{ "x.ppm", "\x89PNG", NULL, 0, "x.ppm: not a binary PPM file: it starts with '\\x89P', not P6" },
		{ "x.ppm", "", NULL, 0, "x.ppm: not a binary PPM file: it starts with '', not P6" },
		{ "x.pgm", "P5\n4 1\n255\n", NULL, 3,
		  "x.pgm: 3 bytes of samples after the PGM header; a 4 x 1 image with maxval 255 has 4 (1 byte a sample)" },
		{ "x.pgm", "P5\n4 1\n255\n", NULL, 5,
		  "x.pgm: 5 bytes of samples after the PGM header; a 4 x 1 image with maxval 255 has 4 (1 byte a "
		  "sample): a file holds one image and nothing after it" },
		{ "x.pgm", "P5\n4 1\n256\n", NULL, 4,
		  "x.pgm: 4 bytes of samples after the PGM header; a 4 x 1 image with maxval 256 has 8 (2 bytes a "
		  "sample)" },
		{ "x.ppm", "P6\n4 1\n255\n", NULL, 4,
		  "x.ppm: 4 bytes of samples after the PPM header; a 4 x 1 image with maxval 255 has 12 (1 byte a "
		  "sample)" },
		{ "x.pgm", "P5\n5000 5000\n255\n", NULL, 0,
		  "x.pgm: a 5000 x 5000 image (25000000 samples) is larger than the 16777216 samples an image may hold" },
		{ "x.pgm", "P5\n4 1\n2\n", "\x01\x02\x03\x00", 4, "x.pgm: sample 3 at (2, 0) is above the maxval 2" },
		{ "x.ppm", "P6\n1 2\n300\n", "\x00\x01\x00\x02\x00\x03\x00\x04\x01\x2d\x00\x00", 12,
		  "x.ppm: sample 301 at (0, 1), channel 1, is above the maxval 300" },
	};
	for (int k = 0; k < COUNT(cases); k++) {
		size_t hl = strlen(cases[k].head), n = hl + cases[k].ndata;
		unsigned char *s = xcalloc(n + 1, 1);
		memcpy(s, cases[k].head, hl);
		if (cases[k].data)
			memcpy(s + hl, cases[k].data, cases[k].ndata);
		char *want = xasprintf(cases[k].msg, form);
		Image im;
		char *err = NULL;
		int ok = image_read_mem(cases[k].name, s, n, NULL, &im, &err);
		CHECK(!ok && err && !strcmp(err, want) && !im.px, "%s '%s':\n    got  %s\n    want %s", cases[k].name,
		      cases[k].head, err ? err : "(accepted)", want);
		image_free(&im);
		free(want);
		free(err);
		free(s);
	}
}

/* Headers the definition allows: comments, tabs and CRs, maxvals below 255. */
static void test_pnm_accepted(void)
{
	static const struct { const char *name, *file; size_t n; int w, h, bits; uint16_t last; } cases[] = {
		{ "a.pgm", "P5 # a comment\n# another\n2\t1\r100\n\x05\x64", 35, 2, 1, 8, 100 },
		{ "b.pgm", "P5\n2 1\n1000\n\x00\x05\x03\xe8", 16, 2, 1, 16, 1000 },
		{ "c.ppm", "P6\n1 1\n255\r\x01\x02\x03", 14, 1, 1, 8, 3 },
		{ "d.pgm", "P5\n1 1\n255\n\n", 12, 1, 1, 8, 10 },   /* the sample is a newline */
		{ "e.pgm", "P5\n1 1\n255\n#", 12, 1, 1, 8, 35 },    /* or a '#' */
	};
	for (int k = 0; k < COUNT(cases); k++) {
		Image im;
		char *err = NULL;
		int ok = image_read_mem(cases[k].name, (const unsigned char *)cases[k].file, cases[k].n, NULL, &im, &err);
		long last = ok ? image_size(&im) - 1 : 0;
		CHECK(ok && im.extent[0] == cases[k].w && im.extent[1] == cases[k].h && im.bits == cases[k].bits &&
			      im.px[last] == cases[k].last,
		      "%s read (%s)", cases[k].name, err ? err : "");
		image_free(&im);
		free(err);
	}
}

/* A raw image: exactly 2 bytes a sample of the size asked, a size within the limits. */
static void test_raw(void)
{
	unsigned char s[8] = { 1, 0, 2, 0, 3, 0, 4, 1 };
	Image want = { 2, { 2, 2 }, NULL, 0 }, im;
	char *err = NULL;
	int ok = image_read_mem("a.raw", s, 8, &want, &im, &err);
	CHECK(ok && im.px[3] == 0x104 && im.bits == 16, "a raw 2 x 2 image (%s)", err ? err : "");
	image_free(&im);
	free(err);
	static const struct { int dims, ext[4]; size_t n; const char *msg; } cases[] = {
		{ 2, { 2, 2 }, 7, "a.raw: 7 bytes; a raw 2 x 2 image has 8 (2 bytes a sample)" },
		{ 2, { 2, 2 }, 9, "a.raw: 9 bytes; a raw 2 x 2 image has 8 (2 bytes a sample)" },
		{ 4, { 65536, 65536, 65536, 65536 }, 8,
		  "a.raw: a 65536 x 65536 x 65536 x 65536 image is larger than the 16777216 samples an image may hold" },
		{ 2, { 2, -1 }, 8, "a.raw: a 2 x -1 image: extent -1 in dimension 1 is outside 1 to 65536" },
		{ 5, { 2, 2 }, 8, "a.raw: an image of 5 dimensions (an image has 1 to 4)" },
	};
	for (int k = 0; k < COUNT(cases); k++) {
		Image w = { cases[k].dims > 4 ? 5 : cases[k].dims, { 0 }, NULL, 0 };
		memcpy(w.extent, cases[k].ext, sizeof w.extent);
		err = NULL;
		ok = image_read_mem("a.raw", s, cases[k].n, &w, &im, &err);
		CHECK(!ok && err && !strcmp(err, cases[k].msg), "case %d:\n    got  %s\n    want %s", k,
		      err ? err : "(accepted)", cases[k].msg);
		image_free(&im);
		free(err);
	}
	err = NULL;
	ok = image_read_mem("a.raw", s, 8, NULL, &im, &err);
	CHECK(!ok && err && !strcmp(err, "a.raw: a raw image has no header: its size must be given"), "no size: %s",
	      err ? err : "(accepted)");
	free(err);
}

/* Files: an endless one (/dev/zero), one too large, one missing, an unknown format. */
static void test_files(void)
{
	char *dir = temp_dir();
	if (!CHECK(dir != NULL, "a temporary folder"))
		return;
	char *zero = xasprintf("%s/zero.pgm", dir), *big = xasprintf("%s/big.pgm", dir);
	char *none = xasprintf("%s/none.npy", dir), *gif = xasprintf("%s/a.gif", dir);
	CHECK(symlink("/dev/zero", zero) == 0, "a link to /dev/zero");
	FILE *f = fopen(big, "wb");
	if (f) {
		fprintf(f, "P5\n4096 4096\n65535\n");
		fseek(f, (long)IMAGE_READ_MAX, SEEK_CUR);
		fputc(0, f);
		fclose(f);
	}
	static const char *const tail[] = { "/zero.pgm", "/big.pgm", "/none.npy", "/a.gif" };
	char *want[4] = {
		xasprintf("%s: file too large: more than %zu bytes, the limit is %zu (an image holds at most 16777216 "
			  "samples)", zero, IMAGE_READ_MAX, IMAGE_READ_MAX),
		xasprintf("%s: file too large: %zu bytes, the limit is %zu (an image holds at most 16777216 samples)",
			  big, IMAGE_READ_MAX + 19 + 1, IMAGE_READ_MAX),
		xasprintf("%s: cannot read the file: No such file or directory", none),
		xasprintf("%s: unknown image format (expected .pgm, .ppm, .npy or .raw)", gif),
	};
	const char *paths[4] = { zero, big, none, gif };
	for (int k = 0; k < 4; k++) {
		Image im;
		char *err = NULL;
		int ok = image_read(paths[k], NULL, &im, &err);
		CHECK(!ok && err && !strcmp(err, want[k]), "%s:\n    got  %s\n    want %s", tail[k],
		      err ? err : "(accepted)", want[k]);
		free(err);
		free(want[k]);
	}
	remove(zero);
	remove(big);
	rmdir(dir);
	free(dir);
	free(zero);
	free(big);
	free(none);
	free(gif);
}

/* image_shape_ok and image_size at and past the limits (no overflow). */
static void test_limits(void)
{
	char *err = NULL;
	int64_t ok4[4] = { 4096, 4096, 1, 1 }, over[4] = { 4097, 4096, 1, 1 };
	CHECK(image_shape_ok(4, ok4, &err), "4096 x 4096 x 1 x 1 within the limits");
	CHECK(!image_shape_ok(2, over, &err) &&
		      !strcmp(err, "a 4097 x 4096 image (16781312 samples) is larger than the 16777216 samples an image may "
				   "hold"), "4097 x 4096: %s", err ? err : "(accepted)");
	free(err);
	Image huge = { 4, { 2147483647, 2147483647, 2147483647, 2147483647 }, NULL, 0 };
	CHECK(image_size(&huge) == LONG_MAX, "image_size saturates");
	Image empty = { 2, { 5, 0 }, NULL, 0 };
	CHECK(image_size(&empty) == 0, "image_size of an empty extent");
}

/* Formats that cannot hold an image, named in the message. */
static void test_write_refusals(void)
{
	Image im = { 3, { 2, 2, 2 }, NULL, 8 };
	image_alloc(&im);
	static const struct { const char *path, *msg; } cases[] = {
		{ "out", "out: unknown image format (the name must end in .pgm, .ppm, .npy or .raw)" },
		{ "o.png", "o.png: unknown image format (the name must end in .pgm, .ppm, .npy or .raw)" },
		{ "o.pgm", "o.pgm: a 3-dimensional image cannot be written as PGM (1 or 2 dimensions; use .npy, or .ppm for "
			   "3 channels)" },
		{ "o.ppm", "o.ppm: a 3-dimensional image cannot be written as PPM (3 dimensions, the last of extent 3; use "
			   ".npy)" },
	};
	for (int k = 0; k < COUNT(cases); k++) {
		char *buf = NULL, *err = NULL;
		size_t len = 0;
		FILE *f = open_memstream(&buf, &len);
		int ok = image_write(&im, cases[k].path, f, &err);
		fclose(f);
		CHECK(!ok && err && !strcmp(err, cases[k].msg) && len == 0, "%s:\n    got  %s\n    want %s", cases[k].path,
		      err ? err : "(written)", cases[k].msg);
		free(err);
		free(buf);
	}
	image_free(&im);
}

static const TestCase tests[] = {
	{ "write_refusals", test_write_refusals },
	{ "image_formats", test_image_formats },
	{ "npy_orders", test_npy_orders },
	{ "npy_headers", test_npy_headers },
	{ "npy_preamble", test_npy_preamble },
	{ "pnm", test_pnm },
	{ "pnm_accepted", test_pnm_accepted },
	{ "raw", test_raw },
	{ "files", test_files },
	{ "limits", test_limits },
};

int main(void)
{
	return check_run("image", tests, COUNT(tests));
}
