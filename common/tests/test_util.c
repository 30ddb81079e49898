/* test_util.c - unit tests of the small utilities: util.h (atomic output
 * sets, mkdir -p, whole-file reading, path joining, FNV-1a, xasprintf), the
 * seeded random generator (rng.h) and the Verilog writing helpers (vwrite.h:
 * literals, ranges, keywords, indented lines).
 *
 * Each test is a function run by main (check.h); the last line is
 * "util: N passed, M failed"; the exit status is 1 if anything failed. */

#define _POSIX_C_SOURCE 200809L

#include <dirent.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "fixtures.h"
#include "../image.h"
#include "../rng.h"
#include "../util.h"
#include "../vwrite.h"

/* ---- util ---- */

/* A fresh temporary folder; the caller removes it. */
static char *make_temp_dir(void)
{
	const char *base = getenv("TMPDIR");
	char *templ = xasprintf("%s/test_util.XXXXXX", base && *base ? base : "/tmp");
	if (!mkdtemp(templ)) {
		free(templ);
		return NULL;
	}
	return templ;
}

static int file_exists(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0;
}

/* Entries of dir other than . and .. (-1 if it cannot be read). */
static int dir_entries(const char *dir)
{
	DIR *d = opendir(dir);
	if (!d)
		return -1;
	int n = 0;
	for (struct dirent *e; (e = readdir(d));)
		n += strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0;
	closedir(d);
	return n;
}

static int file_has(const char *path, const char *want)
{
	char *text = util_read_file(path, NULL);
	int ok = text && strcmp(text, want) == 0;
	free(text);
	return ok;
}

/* outset_open with its error message (expected here) sent to /dev/null. */
static FILE *outset_open_quietly(OutSet *set, const char *path)
{
	fflush(stderr);
	int saved = dup(2), null = open("/dev/null", O_WRONLY);
	if (null >= 0)
		dup2(null, 2);
	FILE *f = outset_open(set, path);
	fflush(stderr);
	if (saved >= 0)
		dup2(saved, 2);
	if (saved >= 0)
		close(saved);
	if (null >= 0)
		close(null);
	return f;
}

static void test_outset_commit_abort(void)
{
	char *dir = make_temp_dir();
	if (!CHECK(dir != NULL, "mkdtemp failed"))
		return;
	char *a = util_path_join(dir, "a.v"), *b = util_path_join(dir, "b.yaml");
	OutSet *set = outset_new();
	FILE *fa = outset_open(set, a), *fb = outset_open(set, b);
	CHECK(fa && fb, "outset_open failed");
	if (fa && fb) {
		fputs("module a;\n", fa);
		fputs("b: 1\n", fb);
		CHECK(!file_exists(a) && !file_exists(b), "files appear before commit");
	}
	CHECK(outset_commit(set) == 0, "outset_commit failed");
	CHECK(file_has(a, "module a;\n") && file_has(b, "b: 1\n"), "committed contents");
	CHECK(dir_entries(dir) == 2, "%d entries after commit, want 2", dir_entries(dir));
	remove(a);
	remove(b);

	set = outset_new();
	fa = outset_open(set, a);
	fb = outset_open(set, b);
	if (fa && fb) {
		fputs("x", fa);
		fputs("y", fb);
	}
	outset_abort(set);
	CHECK(!file_exists(a) && !file_exists(b) && dir_entries(dir) == 0,
	      "files or temporaries remain after abort");

	set = outset_new();
	char *missing = util_path_join(dir, "no/such/dir/f");
	CHECK(outset_open_quietly(set, missing) == NULL, "outset_open into a missing folder");
	outset_abort(set);
	free(missing);
	free(a);
	free(b);
	rmdir(dir);
	free(dir);
}

static void test_util_mkdir_and_read(void)
{
	char *dir = make_temp_dir();
	if (!CHECK(dir != NULL, "mkdtemp failed"))
		return;
	char *deep = xasprintf("%s/x/y/z", dir);
	CHECK(util_mkdir_p(deep) == 0 && file_exists(deep), "util_mkdir_p nested");
	CHECK(util_mkdir_p(deep) == 0, "util_mkdir_p on an existing folder");
	char *slash = xasprintf("%s/x/w/", dir);
	CHECK(util_mkdir_p(slash) == 0 && file_exists(slash), "util_mkdir_p with a trailing slash");
	char *file = util_path_join(deep, "f.bin");
	FILE *f = fopen(file, "wb");
	size_t big = 10000;
	for (size_t i = 0; f && i < big; i++)
		fputc(i == 5 ? 0 : 'a' + (int)(i % 26), f);
	if (f)
		fclose(f);
	size_t len = 0;
	char *text = util_read_file(file, &len);
	CHECK(text && len == big && text[len] == '\0' && text[5] == 0 && text[6] == 'g' &&
		      text[big - 1] == 'a' + (int)((big - 1) % 26),
	      "util_read_file of %zu bytes gave %zu", big, len);
	free(text);
	CHECK(util_read_file(dir, NULL) == NULL, "reading a folder gives text");
	char *none = util_path_join(dir, "missing");
	CHECK(util_read_file(none, &len) == NULL, "reading a missing file");
	static const char *const made[] = { "x/y/z/f.bin", "x/y/z", "x/y", "x/w", "x", "" };
	int cleaned = 1;
	for (int i = 0; i < COUNT(made); i++) {
		char *p = util_path_join(dir, made[i]);
		cleaned &= remove(p) == 0;
		free(p);
	}
	CHECK(cleaned, "%s did not hold exactly what the test made", dir);
	free(none);
	free(file);
	free(slash);
	free(deep);
	free(dir);
}

static void test_util_strings_and_hash(void)
{
	static const struct {
		const char *s;
		uint64_t want;
	} fnv[] = {
		{ "", 0xcbf29ce484222325ULL },
		{ "a", 0xaf63dc4c8601ec8cULL },
		{ "foobar", 0x85944171f73967e8ULL },
	};
	for (int i = 0; i < COUNT(fnv); i++) {
		uint64_t h = util_fnv1a(UTIL_FNV_INIT, fnv[i].s, strlen(fnv[i].s));
		CHECK(h == fnv[i].want, "fnv1a(\"%s\") = 0x%llx, want 0x%llx", fnv[i].s, U64(h),
		      U64(fnv[i].want));
	}
	uint64_t chained = util_fnv1a(util_fnv1a(UTIL_FNV_INIT, "foo", 3), "bar", 3);
	CHECK(chained == 0x85944171f73967e8ULL, "chained fnv1a differs");
	static const struct {
		const char *dir, *name, *want;
	} joins[] = { { "a", "b", "a/b" }, { "a/", "b", "a/b" }, { "", "b", "b" }, { "/", "b", "/b" } };
	for (int i = 0; i < COUNT(joins); i++) {
		char *p = util_path_join(joins[i].dir, joins[i].name);
		CHECK(str_eq(p, joins[i].want), "util_path_join(\"%s\", \"%s\") = \"%s\"",
		      joins[i].dir, joins[i].name, p);
		free(p);
	}
	char *s = xasprintf("%d-%s", 12, "ab");
	CHECK(str_eq(s, "12-ab"), "xasprintf");
	free(s);
	double t0 = util_now(), t1 = util_now();
	CHECK(t1 >= t0 && t0 > 0, "util_now is not monotonic");
}

/* ---- rng ---- */

static void test_rng_reproducible(void)
{
	Rng a, b, c;
	rng_seed(&a, 42);
	rng_seed(&b, 42);
	rng_seed(&c, 43);
	int same = 1, equal_c = 0;
	for (int i = 0; i < 1000; i++) {
		uint64_t x = rng_next(&a), y = rng_next(&b), z = rng_next(&c);
		same &= x == y;
		equal_c += x == z;
	}
	CHECK(same, "the same seed gives different sequences");
	CHECK(equal_c == 0, "seeds 42 and 43 agree on %d of 1000 outputs", equal_c);
	Rng zero;
	rng_seed(&zero, 0);
	CHECK(zero.s[0] | zero.s[1] | zero.s[2] | zero.s[3], "seed 0 gives an all-zero state");
	CHECK(rng_next(&zero) != rng_next(&zero), "seed 0 repeats itself");
}

static void test_rng_below(void)
{
	static const uint64_t ns[] = { 1, 2, 3, 7, 10, 1000, (1ULL << 63) + 1, ~0ULL };
	Rng r;
	rng_seed(&r, 7);
	for (int i = 0; i < COUNT(ns); i++) {
		uint64_t seen_or = 0;
		int ok = 1;
		for (int k = 0; k < 2000; k++) {
			uint64_t x = rng_below(&r, ns[i]);
			ok &= x < ns[i];
			seen_or |= x;
		}
		CHECK(ok, "rng_below(%llu) returned a value >= n", U64(ns[i]));
		if (ns[i] == 1)
			CHECK(seen_or == 0, "rng_below(1) returned nonzero");
		if (ns[i] == 2)
			CHECK(seen_or == 1, "rng_below(2) never returned 1");
	}
	double lo = 1, hi = 0;
	for (int k = 0; k < 2000; k++) {
		double d = rng_double(&r);
		lo = d < lo ? d : lo;
		hi = d > hi ? d : hi;
	}
	CHECK(lo >= 0 && hi < 1 && hi - lo > 0.9, "rng_double range [%g, %g]", lo, hi);
}

static void test_rng_bits(void)
{
	static const int widths[] = { 1, 2, 7, 32, 63, 64 };
	Rng r;
	rng_seed(&r, 99);
	for (int i = 0; i < COUNT(widths); i++) {
		int w = widths[i];
		uint64_t mask = ref_mask(w), seen_or = 0, seen_and = ~0ULL;
		int ok = 1;
		for (int k = 0; k < 2000; k++) {
			uint64_t x = rng_bits(&r, w);
			ok &= (x & ~mask) == 0;
			seen_or |= x;
			seen_and &= x;
		}
		CHECK(ok, "rng_bits(%d) set bits above the width", w);
		CHECK(seen_or == mask && (seen_and & mask) == 0,
		      "rng_bits(%d) never set or never cleared some bit (or 0x%llx, and 0x%llx)", w,
		      U64(seen_or), U64(seen_and));
	}
}

/* ---- vwrite ---- */

static void test_vwrite_literals(void)
{
	static const struct {
		uint64_t v;
		int w;
		const char *want;
	} lits[] = {
		{ 1, 1, "1'b1" },
		{ 0, 1, "1'b0" },
		{ 3, 1, "1'b1" },
		{ 0x11, 16, "16'h0011" },
		{ 5, 3, "3'h5" },
		{ 0x1ff, 8, "8'hff" },
		{ ~0ULL, 64, "64'hffffffffffffffff" },
	};
	char buf[32];
	for (int i = 0; i < COUNT(lits); i++)
		CHECK(str_eq(vw_literal(buf, lits[i].v, lits[i].w), lits[i].want),
		      "vw_literal(0x%llx, %d) = \"%s\", want \"%s\"", U64(lits[i].v), lits[i].w, buf,
		      lits[i].want);
	static const struct {
		int w;
		const char *want;
	} ranges[] = { { 1, "" }, { 2, "[1:0] " }, { 16, "[15:0] " }, { 64, "[63:0] " } };
	for (int i = 0; i < COUNT(ranges); i++)
		CHECK(str_eq(vw_range(buf, ranges[i].w), ranges[i].want),
		      "vw_range(%d) = \"%s\", want \"%s\"", ranges[i].w, buf, ranges[i].want);
}

static void test_vwrite_keywords(void)
{
	static const struct {
		const char *name;
		int want;
	} cases[] = {
		{ "module", 1 }, { "wire", 1 },    { "logic", 1 },  { "always_ff", 1 },
		{ "xor", 1 },    { "tran", 1 },    { "wand", 1 },   { "supply0", 1 },
		{ "ref", 1 },    { "import", 1 },  { "cmos", 1 },   { "endprimitive", 1 },
		{ "foo", 0 },    { "Module", 0 },  { "", 0 },       { "in", 0 },
		{ "a", 0 },      { "data", 0 },    { "out", 0 },    { "wire_", 0 },
	};
	for (int i = 0; i < COUNT(cases); i++)
		CHECK(vw_is_keyword(cases[i].name) == cases[i].want, "vw_is_keyword(\"%s\") = %d",
		      cases[i].name, vw_is_keyword(cases[i].name));
}

static void test_vwrite_lines(void)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	if (!CHECK(f != NULL, "open_memstream failed"))
		return;
	VWriter w;
	vw_init(&w, f);
	vw_line(&w, "module %s;", "m");
	vw_indent(&w);
	vw_line(&w, "wire a;");
	vw_dedent(&w);
	vw_line(&w, "endmodule");
	fclose(f);
	CHECK(str_eq(buf, "module m;\n    wire a;\nendmodule\n"), "vw_line output \"%s\"", buf);
	free(buf);
}

/* util_parse_number: the whole string a number, decimal, 0x or 0b, checked
 * against its range however many digits it has. */
static void test_util_parse_number(void)
{
	static const struct {
		const char *text;
		uint64_t lo, hi;
		int rc;
		uint64_t want;
	} cases[] = {
		{ "0", 0, 10, 0, 0 },
		{ "10", 0, 10, 0, 10 },
		{ "007", 0, 10, 0, 7 },
		{ "0x1F", 0, 100, 0, 31 },
		{ "0b101", 0, 100, 0, 5 },
		{ "18446744073709551615", 0, UINT64_MAX, 0, UINT64_MAX },
		{ "0xffffffffffffffff", 0, UINT64_MAX, 0, UINT64_MAX },
		{ "18446744073709551616", 0, UINT64_MAX, -2, 0 },
		{ "99999999999999999999", 0, 1000000, -2, 0 },
		{ "0x10000000000000000", 0, UINT64_MAX, -2, 0 },
		{ "2147483648", 0, 100000000, -2, 0 },
		{ "11", 0, 10, -2, 0 },
		{ "0", 1, 16, -2, 0 },
		{ "", 0, 10, -1, 0 },
		{ "-1", 0, 10, -1, 0 },
		{ "+1", 0, 10, -1, 0 },
		{ " 1", 0, 10, -1, 0 },
		{ "1 ", 0, 10, -1, 0 },
		{ "4x", 0, 10, -1, 0 },
		{ "1e5", 0, 1000000, -1, 0 },
		{ "0x", 0, 10, -1, 0 },
		{ "0b2", 0, 10, -1, 0 },
		{ "0xg", 0, 10, -1, 0 },
	};
	for (int i = 0; i < COUNT(cases); i++) {
		uint64_t v = 12345;
		int rc = util_parse_number(cases[i].text, cases[i].lo, cases[i].hi, &v);
		CHECK(rc == cases[i].rc && (rc ? v == 12345 : v == cases[i].want),
		      "util_parse_number('%s', %llu, %llu) = %d, %llu", cases[i].text, (unsigned long long)cases[i].lo,
		      (unsigned long long)cases[i].hi, rc, (unsigned long long)v);
	}
}

/* An image written and read back in every format that holds it: PGM/PPM with 8- and
 * 16-bit samples, .npy of any shape (also a C-order file, as numpy writes by default). */
static void test_image_formats(void)
{
	char dir[] = "/tmp/test_image_XXXXXX";
	if (!CHECK(mkdtemp(dir) != NULL, "a temporary folder"))
		return;
	static const struct { int dims, ext[4], bits; const char *name; } cases[] = {
		{ 2, { 5, 3 }, 8, "a.pgm" },         { 2, { 5, 3 }, 16, "b.pgm" },      { 3, { 4, 2, 3 }, 16, "c.ppm" },
		{ 3, { 3, 4, 2 }, 8, "d.npy" },      { 4, { 2, 3, 2, 2 }, 16, "e.npy" }, { 1, { 7 }, 8, "f.npy" },
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
		ok = ok && image_read(path, NULL, &back, &err);
		CHECK(ok && image_size(&back) == image_size(&im) && back.bits == im.bits &&
			      !memcmp(back.px, im.px, sizeof *im.px * (size_t)image_size(&im)),
		      "%s: written and read back the same (%s)", cases[k].name, err ? err : "");
		if (im.dims > 1)        /* a row is written as a PGM by default */
			CHECK(!strcmp(image_ext(im.dims, im.extent), strrchr(cases[k].name, '.') + 1),
			      "%s: the extension image_ext gives", cases[k].name);
		free(err);
		image_free(&back);
		image_free(&im);
		remove(path);
		free(path);
	}
	/* C order, shape (2, 3): element [i][j] at i * 3 + j; it is pixel (i, j) */
	char *path = xasprintf("%s/c.npy", dir), *err = NULL;
	FILE *f = fopen(path, "wb");
	const char hdr[] = "{'descr': '<u2', 'fortran_order': False, 'shape': (2, 3), }";
	char pad[128];
	int n = (int)strlen(hdr), p = 63 - (10 + n) % 64;
	memset(pad, ' ', (size_t)p);
	fwrite("\x93NUMPY\x01\x00", 1, 8, f);
	fputc((n + p + 1) & 0xff, f);
	fputc((n + p + 1) >> 8, f);
	fwrite(hdr, 1, (size_t)n, f);
	fwrite(pad, 1, (size_t)p, f);
	fputc('\n', f);
	for (int v = 0; v < 6; v++) {
		fputc(v * 10, f);
		fputc(0, f);
	}
	fclose(f);
	Image c = { 0 };
	int ok = image_read(path, NULL, &c, &err);
	CHECK(ok && c.dims == 2 && c.extent[0] == 2 && c.extent[1] == 3 && c.px[0 + 2 * 1] == 10 && c.px[1 + 2 * 0] == 30 &&
		      c.px[1 + 2 * 2] == 50, "a C-order .npy read by its indices (%s)", err ? err : "");
	free(err);
	image_free(&c);
	remove(path);
	free(path);
	rmdir(dir);
}

static const TestCase tests[] = {
	{ "image_formats", test_image_formats },
	{ "util_parse_number", test_util_parse_number },
	{ "outset_commit_abort", test_outset_commit_abort },
	{ "util_mkdir_and_read", test_util_mkdir_and_read },
	{ "util_strings_and_hash", test_util_strings_and_hash },
	{ "rng_reproducible", test_rng_reproducible },
	{ "rng_below", test_rng_below },
	{ "rng_bits", test_rng_bits },
	{ "vwrite_literals", test_vwrite_literals },
	{ "vwrite_keywords", test_vwrite_keywords },
	{ "vwrite_lines", test_vwrite_lines },
};

int main(void)
{
	return check_run("util", tests, COUNT(tests));
}
