/* test_common.c - unit tests of the shared library in common/.
 *
 * Covers bit-vector arithmetic (table cases at widths 1, small and 64, shifts
 * by amounts at and past the width, and random high-half products checked
 * against an __int128 reference), literal parsing and hex formatting, wide bit
 * strings; the seeded random generator; the insertion-ordered string map; the
 * arena; growable vectors; diagnostics (collected as data and printed with
 * source line and caret); YAML reading with positions, duplicate keys,
 * malformed input, aliases, scalar positions inside block and folded plain
 * scalars, and number parsing; YAML writing read back for exact round trips;
 * Verilog literal helpers; file utilities (atomic output sets, mkdir -p,
 * whole-file reading, FNV-1a); and the PE collateral reader (rules checked
 * against the instruction layout, each broken file's error and position).
 *
 * Each test is a function run by main; CHECK records a pass or a failure and
 * prints failures as "FAIL test: message". The last line is
 * "common: N passed, M failed"; the exit status is 1 if anything failed. */
#define _POSIX_C_SOURCE 200809L

#include <dirent.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "../../collateral/affine.h"
#include "../arena.h"
#include "../../collateral/bitstream.h"
#include "../bv.h"
#include "../diag.h"
#include "../../collateral/meminfo.h"
#include "../../collateral/memmodel.h"
#include "../../collateral/peinfo.h"
#include "../rng.h"
#include "../strmap.h"
#include "../util.h"
#include "../vec.h"
#include "../vwrite.h"
#include "../yamlr.h"
#include "../ywrite.h"

#define U64(x) ((unsigned long long)(x))

static int str_eq(const char *a, const char *b)
{
	return a && b && strcmp(a, b) == 0;
}

/* ---- bv: table cases ---- */

typedef uint64_t (*BinOp)(uint64_t, uint64_t, int);

static void test_bv_binary_ops(void)
{
	static const uint64_t M64 = ~0ULL, MSB64 = 1ULL << 63;
	static const struct {
		const char *name;
		BinOp op;
		int w;
		uint64_t a, b, want;
	} cases[] = {
		{ "add", bv_add, 8, 0xff, 1, 0 },
		{ "add", bv_add, 16, 0x1234, 0x1111, 0x2345 },
		{ "add", bv_add, 4, 7, 9, 0 },
		{ "add", bv_add, 1, 1, 1, 0 },
		{ "add", bv_add, 1, 1, 0, 1 },
		{ "add", bv_add, 64, M64, 1, 0 },
		{ "add", bv_add, 64, MSB64, MSB64, 0 },
		{ "sub", bv_sub, 8, 0, 1, 0xff },
		{ "sub", bv_sub, 32, 5, 7, 0xfffffffe },
		{ "sub", bv_sub, 1, 0, 1, 1 },
		{ "sub", bv_sub, 64, 0, 1, M64 },
		{ "sub", bv_sub, 64, 10, 3, 7 },
		{ "mul", bv_mul, 8, 0x10, 0x10, 0 },
		{ "mul", bv_mul, 8, 15, 17, 255 },
		{ "mul", bv_mul, 12, 0x800, 2, 0 },
		{ "mul", bv_mul, 1, 1, 1, 1 },
		{ "mul", bv_mul, 64, M64, M64, 1 },
		{ "mul", bv_mul, 64, 0x100000000ULL, 0x100000000ULL, 0 },
		{ "shl", bv_shl, 8, 1, 7, 0x80 },
		{ "shl", bv_shl, 8, 1, 8, 0 },
		{ "shl", bv_shl, 8, 0xff, 4, 0xf0 },
		{ "shl", bv_shl, 8, 1, 100, 0 },
		{ "shl", bv_shl, 8, 1, M64, 0 },
		{ "shl", bv_shl, 1, 1, 0, 1 },
		{ "shl", bv_shl, 1, 1, 1, 0 },
		{ "shl", bv_shl, 64, 1, 63, MSB64 },
		{ "shl", bv_shl, 64, 1, 64, 0 },
		{ "shl", bv_shl, 64, M64, 65, 0 },
		{ "shl", bv_shl, 64, M64, 0, M64 },
		{ "lshr", bv_lshr, 8, 0x80, 7, 1 },
		{ "lshr", bv_lshr, 8, 0x80, 8, 0 },
		{ "lshr", bv_lshr, 8, 0xf0, 4, 0x0f },
		{ "lshr", bv_lshr, 8, 0xff, 1000, 0 },
		{ "lshr", bv_lshr, 1, 1, 0, 1 },
		{ "lshr", bv_lshr, 1, 1, 1, 0 },
		{ "lshr", bv_lshr, 64, M64, 63, 1 },
		{ "lshr", bv_lshr, 64, M64, 64, 0 },
		{ "lshr", bv_lshr, 64, M64, M64, 0 },
		{ "ashr", bv_ashr, 8, 0x80, 1, 0xc0 },
		{ "ashr", bv_ashr, 8, 0x80, 7, 0xff },
		{ "ashr", bv_ashr, 8, 0x80, 8, 0xff },
		{ "ashr", bv_ashr, 8, 0x80, 200, 0xff },
		{ "ashr", bv_ashr, 8, 0x7f, 3, 0x0f },
		{ "ashr", bv_ashr, 8, 0x40, 8, 0 },
		{ "ashr", bv_ashr, 5, 0x10, 2, 0x1c },
		{ "ashr", bv_ashr, 1, 1, 0, 1 },
		{ "ashr", bv_ashr, 1, 1, 5, 1 },
		{ "ashr", bv_ashr, 1, 0, 5, 0 },
		{ "ashr", bv_ashr, 64, MSB64, 63, M64 },
		{ "ashr", bv_ashr, 64, MSB64, 64, M64 },
		{ "ashr", bv_ashr, 64, MSB64, M64, M64 },
		{ "ashr", bv_ashr, 64, MSB64 >> 1, 64, 0 },
		{ "ashr", bv_ashr, 64, 0xf000000000000000ULL, 4, 0xff00000000000000ULL },
	};
	for (int i = 0; i < COUNT(cases); i++) {
		uint64_t got = cases[i].op(cases[i].a, cases[i].b, cases[i].w);
		CHECK(got == cases[i].want, "bv_%s(0x%llx, 0x%llx, %d) = 0x%llx, want 0x%llx",
		      cases[i].name, U64(cases[i].a), U64(cases[i].b), cases[i].w, U64(got),
		      U64(cases[i].want));
	}
}

static void test_bv_unary_ops(void)
{
	static const struct {
		const char *name;
		uint64_t (*op)(uint64_t, int);
		int w;
		uint64_t a, want;
	} cases[] = {
		{ "neg", bv_neg, 8, 1, 0xff },       { "neg", bv_neg, 8, 0x80, 0x80 },
		{ "neg", bv_neg, 8, 0, 0 },          { "neg", bv_neg, 1, 1, 1 },
		{ "neg", bv_neg, 1, 0, 0 },          { "neg", bv_neg, 64, 1, ~0ULL },
		{ "neg", bv_neg, 64, 1ULL << 63, 1ULL << 63 },
		{ "not", bv_not, 8, 0, 0xff },       { "not", bv_not, 3, 5, 2 },
		{ "not", bv_not, 1, 1, 0 },          { "not", bv_not, 1, 0, 1 },
		{ "not", bv_not, 64, 0, ~0ULL },     { "not", bv_not, 64, 0x0f0f, ~0x0f0fULL },
	};
	for (int i = 0; i < COUNT(cases); i++) {
		uint64_t got = cases[i].op(cases[i].a, cases[i].w);
		CHECK(got == cases[i].want, "bv_%s(0x%llx, %d) = 0x%llx, want 0x%llx", cases[i].name,
		      U64(cases[i].a), cases[i].w, U64(got), U64(cases[i].want));
	}
}

static void test_bv_compare(void)
{
	static const struct {
		int w;
		uint64_t a, b;
		int ult, slt;
	} cases[] = {
		{ 8, 0x7f, 0x80, 1, 0 },
		{ 8, 0x80, 0x7f, 0, 1 },
		{ 8, 0xff, 0, 0, 1 },
		{ 8, 0, 0xff, 1, 0 },
		{ 8, 0x80, 0xff, 1, 1 },
		{ 8, 3, 3, 0, 0 },
		{ 1, 0, 1, 1, 0 },
		{ 1, 1, 0, 0, 1 },
		{ 1, 1, 1, 0, 0 },
		{ 64, 1ULL << 63, 0, 0, 1 },
		{ 64, ~0ULL, 0, 0, 1 },
		{ 64, 0x7fffffffffffffffULL, 1ULL << 63, 1, 0 },
		{ 64, 1ULL << 63, ~0ULL, 1, 1 },
		{ 64, 5, 5, 0, 0 },
	};
	for (int i = 0; i < COUNT(cases); i++) {
		int u = bv_ult(cases[i].a, cases[i].b, cases[i].w);
		int s = bv_slt(cases[i].a, cases[i].b, cases[i].w);
		CHECK(u == cases[i].ult, "bv_ult(0x%llx, 0x%llx, %d) = %d", U64(cases[i].a),
		      U64(cases[i].b), cases[i].w, u);
		CHECK(s == cases[i].slt, "bv_slt(0x%llx, 0x%llx, %d) = %d", U64(cases[i].a),
		      U64(cases[i].b), cases[i].w, s);
	}
}

static void test_bv_mulhi_table(void)
{
	static const struct {
		int w;
		uint64_t a, b, uhi, shi;
	} cases[] = {
		{ 8, 0xff, 0xff, 0xfe, 0x00 },   /* 255*255 = 0xfe01; -1*-1 = 1 */
		{ 8, 0x80, 0x80, 0x40, 0x40 },   /* 128*128 = 0x4000; -128*-128 = 0x4000 */
		{ 8, 0x80, 0x01, 0x00, 0xff },   /* -128*1 = 0xff80 */
		{ 8, 0x10, 0x10, 0x01, 0x01 },
		{ 1, 1, 1, 0, 0 },               /* 1*1 = 01; -1*-1 = 01 */
		{ 1, 1, 0, 0, 0 },
		{ 64, ~0ULL, ~0ULL, 0xfffffffffffffffeULL, 0 },
		{ 64, 1ULL << 63, 1ULL << 63, 1ULL << 62, 1ULL << 62 },
		{ 64, 1ULL << 63, 2, 1, ~0ULL },
		{ 64, 0x100000000ULL, 0x100000000ULL, 1, 1 },
	};
	for (int i = 0; i < COUNT(cases); i++) {
		uint64_t u = bv_umulhi(cases[i].a, cases[i].b, cases[i].w);
		uint64_t s = bv_smulhi(cases[i].a, cases[i].b, cases[i].w);
		CHECK(u == cases[i].uhi, "bv_umulhi(0x%llx, 0x%llx, %d) = 0x%llx, want 0x%llx",
		      U64(cases[i].a), U64(cases[i].b), cases[i].w, U64(u), U64(cases[i].uhi));
		CHECK(s == cases[i].shi, "bv_smulhi(0x%llx, 0x%llx, %d) = 0x%llx, want 0x%llx",
		      U64(cases[i].a), U64(cases[i].b), cases[i].w, U64(s), U64(cases[i].shi));
	}
}

/* ---- bv: random cases against an __int128 reference ---- */

/* The value of w-bit a read as a signed integer, computed without bv.h. */
static __int128 ref_signed(uint64_t a, int w)
{
	__int128 v = (__int128)a;
	if (a >> (w - 1) & 1)
		v -= (__int128)1 << w;
	return v;
}

static uint64_t ref_mask(int w)
{
	return (uint64_t)((((unsigned __int128)1) << w) - 1);
}

/* floor(p / 2^k), rounding toward minus infinity. */
static __int128 ref_floor_shift(__int128 p, int k)
{
	__int128 d = (__int128)1 << k;
	__int128 q = p / d;
	if (p < 0 && p % d != 0)
		q -= 1;
	return q;
}

/* floor(p / 2^k) reduced to w bits. */
static uint64_t ref_shift_bits(__int128 p, int k, int w)
{
	return (uint64_t)((unsigned __int128)ref_floor_shift(p, k) & ref_mask(w));
}

/* A w-bit operand, often an edge value (0, 1, all ones, sign bit, max signed). */
static uint64_t random_operand(Rng *r, int w)
{
	uint64_t msb = 1ULL << (w - 1);
	switch (rng_below(r, 8)) {
	case 0:
		return 0;
	case 1:
		return 1 & ref_mask(w);
	case 2:
		return ref_mask(w);
	case 3:
		return msb;
	case 4:
		return msb - 1;
	default:
		return rng_bits(r, w);
	}
}

typedef struct {
	int bad;
	char first[200];
} Mismatches;

static void note_mismatch(Mismatches *m, const char *what, uint64_t a, uint64_t b, int w,
			  uint64_t got, uint64_t want)
{
	if (m->bad++ == 0)
		snprintf(m->first, sizeof m->first, "%s(0x%llx, 0x%llx, %d) = 0x%llx, want 0x%llx",
			 what, U64(a), U64(b), w, U64(got), U64(want));
}

static void check_random_case(Mismatches *m, uint64_t a, uint64_t b, int w)
{
	unsigned __int128 ua = a, ub = b, mask = ref_mask(w);
	__int128 sa = ref_signed(a, w), sb = ref_signed(b, w);
	uint64_t want;
	want = (uint64_t)((ua * ub) >> w);
	if (bv_umulhi(a, b, w) != want)
		note_mismatch(m, "bv_umulhi", a, b, w, bv_umulhi(a, b, w), want);
	want = ref_shift_bits(sa * sb, w, w);
	if (bv_smulhi(a, b, w) != want)
		note_mismatch(m, "bv_smulhi", a, b, w, bv_smulhi(a, b, w), want);
	want = (uint64_t)((ua * ub) & mask);
	if (bv_mul(a, b, w) != want)
		note_mismatch(m, "bv_mul", a, b, w, bv_mul(a, b, w), want);
	want = (uint64_t)((ua + ub) & mask);
	if (bv_add(a, b, w) != want)
		note_mismatch(m, "bv_add", a, b, w, bv_add(a, b, w), want);
	want = (uint64_t)((ua - ub) & mask);
	if (bv_sub(a, b, w) != want)
		note_mismatch(m, "bv_sub", a, b, w, bv_sub(a, b, w), want);
	if (bv_slt(a, b, w) != (sa < sb))
		note_mismatch(m, "bv_slt", a, b, w, (uint64_t)bv_slt(a, b, w), sa < sb);
	uint64_t s = b % (uint64_t)(w + 2); /* includes amounts w and w + 1 */
	/* shifting in sign bits is floor(sa / 2^min(s, w - 1)) */
	int k = s < (uint64_t)w ? (int)s : w - 1;
	want = ref_shift_bits(sa, k, w);
	if (bv_ashr(a, s, w) != want)
		note_mismatch(m, "bv_ashr", a, s, w, bv_ashr(a, s, w), want);
}

static void test_bv_random_vs_int128(void)
{
	Rng r;
	rng_seed(&r, 2024);
	Mismatches m = { 0, "" };
	int n = 0;
	for (int w = 1; w <= 64; w++) {
		for (int i = 0; i < 80; i++, n++)
			check_random_case(&m, random_operand(&r, w), random_operand(&r, w), w);
	}
	CHECK(n >= 5000, "only %d random cases", n);
	CHECK(m.bad == 0, "%d of %d random cases differ from __int128; first: %s", m.bad, n,
	      m.first);
}

/* ---- bv: extract, sext, parse, format ---- */

static void test_bv_extract_sext(void)
{
	static const struct {
		uint64_t a;
		int hi, lo;
		uint64_t want;
	} ext[] = {
		{ 0xabcd, 15, 12, 0xa },
		{ 0xabcd, 7, 0, 0xcd },
		{ 0xabcd, 4, 4, 0 },
		{ 0xabcd, 0, 0, 1 },
		{ ~0ULL, 63, 0, ~0ULL },
		{ 1ULL << 63, 63, 63, 1 },
		{ 0x123456789abcdef0ULL, 63, 32, 0x12345678 },
		{ 0x123456789abcdef0ULL, 35, 28, 0x89 },
	};
	for (int i = 0; i < COUNT(ext); i++) {
		uint64_t got = bv_extract(ext[i].a, ext[i].hi, ext[i].lo);
		CHECK(got == ext[i].want, "bv_extract(0x%llx, %d, %d) = 0x%llx, want 0x%llx",
		      U64(ext[i].a), ext[i].hi, ext[i].lo, U64(got), U64(ext[i].want));
	}
	static const struct {
		uint64_t a;
		int w, to;
		uint64_t want;
	} sx[] = {
		{ 0x80, 8, 16, 0xff80 },
		{ 0x7f, 8, 16, 0x7f },
		{ 1, 1, 64, ~0ULL },
		{ 0, 1, 64, 0 },
		{ 1, 1, 1, 1 },
		{ 0x8, 4, 64, 0xfffffffffffffff8ULL },
		{ 0xff, 8, 4, 0xf },
		{ 1ULL << 63, 64, 64, 1ULL << 63 },
	};
	for (int i = 0; i < COUNT(sx); i++) {
		uint64_t got = bv_sext(sx[i].a, sx[i].w, sx[i].to);
		CHECK(got == sx[i].want, "bv_sext(0x%llx, %d, %d) = 0x%llx, want 0x%llx",
		      U64(sx[i].a), sx[i].w, sx[i].to, U64(got), U64(sx[i].want));
	}
}

static void test_bv_parse(void)
{
	static const struct {
		const char *s;
		int w, rc;
		uint64_t want;
	} cases[] = {
		{ "0", 8, 0, 0 },
		{ "255", 8, 0, 255 },
		{ "256", 8, -2, 0 },
		{ "0xff", 8, 0, 0xff },
		{ "0XFF", 8, 0, 0xff },
		{ "0xAbC", 12, 0, 0xabc },
		{ "0x100", 8, -2, 0 },
		{ "0b101", 3, 0, 5 },
		{ "0B1", 1, 0, 1 },
		{ "0b1010", 3, -2, 0 },
		{ "1_000", 16, 0, 1000 },
		{ "1", 1, 0, 1 },
		{ "2", 1, -2, 0 },
		{ "-1", 8, 0, 0xff },
		{ "-128", 8, 0, 0x80 },
		{ "-129", 8, -2, 0 },
		{ "-0", 8, 0, 0 },
		{ "-1", 1, 0, 1 },
		{ "-2", 1, -2, 0 },
		{ "-1", 64, 0, ~0ULL },
		{ "18446744073709551615", 64, 0, ~0ULL },
		{ "18446744073709551616", 64, -2, 0 },
		{ "0xffffffffffffffff", 64, 0, ~0ULL },
		{ "0x1ffffffffffffffff", 64, -2, 0 },
		{ "99999999999999999999999999999999999999999999999", 64, -2, 0 },
		{ "-9223372036854775808", 64, 0, 1ULL << 63 },
		{ "-9223372036854775809", 64, -2, 0 },
		{ "4294967295", 32, 0, 0xffffffff },
		{ "4294967296", 32, -2, 0 },
		{ "", 8, -1, 0 },
		{ "-", 8, -1, 0 },
		{ "0x", 8, -1, 0 },
		{ "0b", 8, -1, 0 },
		{ "_", 8, -1, 0 },
		{ "0x_", 8, -1, 0 },
		{ "12a", 8, -1, 0 },
		{ "0b102", 8, -1, 0 },
		{ "0xfg", 8, -1, 0 },
		{ "abc", 8, -1, 0 },
		{ " 1", 8, -1, 0 },
		{ "+1", 8, -1, 0 },
		{ "1.5", 8, -1, 0 },
		{ "--1", 8, -1, 0 },
	};
	for (int i = 0; i < COUNT(cases); i++) {
		uint64_t got = 0x5a5a;
		int rc = bv_parse(cases[i].s, cases[i].w, &got);
		CHECK(rc == cases[i].rc, "bv_parse(\"%s\", %d) returned %d, want %d", cases[i].s,
		      cases[i].w, rc, cases[i].rc);
		if (rc == 0 && cases[i].rc == 0)
			CHECK(got == cases[i].want, "bv_parse(\"%s\", %d) = 0x%llx, want 0x%llx",
			      cases[i].s, cases[i].w, U64(got), U64(cases[i].want));
	}
}

static void test_bv_format_hex(void)
{
	static const struct {
		uint64_t v;
		int w;
		const char *want;
	} cases[] = {
		{ 1, 1, "1" },          { 0, 1, "0" },
		{ 0x5, 4, "5" },        { 0x1f, 5, "1f" },
		{ 0, 8, "00" },         { 0xabc, 12, "abc" },
		{ 0x1, 13, "0001" },    { 0x1abc, 13, "1abc" },
		{ ~0ULL, 64, "ffffffffffffffff" },
		{ 0x0123456789abcdefULL, 64, "0123456789abcdef" },
	};
	for (int i = 0; i < COUNT(cases); i++) {
		char buf[32];
		memset(buf, 'X', sizeof buf);
		bv_format_hex(buf, cases[i].v, cases[i].w);
		CHECK(str_eq(buf, cases[i].want), "bv_format_hex(0x%llx, %d) = \"%.20s\", want \"%s\"",
		      U64(cases[i].v), cases[i].w, buf, cases[i].want);
	}
}

/* ---- bv: wide bit strings on 130 bits ---- */

#define WIDE 130

static void fill_wide(uint64_t *w)
{
	memset(w, 0, BITS_WORDS(WIDE) * sizeof *w);
	bits_set(w, 0, 64, 0x0123456789abcdefULL);
	bits_set(w, 64, 64, 0xfedcba9876543210ULL);
	bits_set(w, 128, 2, 0x3);
}

static void test_bits_set_get(void)
{
	uint64_t w[BITS_WORDS(WIDE)];
	CHECK(BITS_WORDS(WIDE) == 3, "BITS_WORDS(130) = %d", BITS_WORDS(WIDE));
	fill_wide(w);
	CHECK(w[0] == 0x0123456789abcdefULL && w[1] == 0xfedcba9876543210ULL && w[2] == 3,
	      "words after bits_set: %llx %llx %llx", U64(w[0]), U64(w[1]), U64(w[2]));
	static const struct {
		int off, width;
		uint64_t want;
	} gets[] = {
		{ 0, 64, 0x0123456789abcdefULL },
		{ 56, 16, 0x1001 },
		{ 120, 10, 0x3fe },
		{ 129, 1, 1 },
		{ 4, 8, 0xde },
		{ 66, 64, 0xffb72ea61d950c84ULL }, /* (w1 >> 2) | (w2 << 62) */
	};
	for (int i = 0; i < COUNT(gets); i++) {
		uint64_t got = bits_get(w, gets[i].off, gets[i].width);
		CHECK(got == gets[i].want, "bits_get(%d, %d) = 0x%llx, want 0x%llx", gets[i].off,
		      gets[i].width, U64(got), U64(gets[i].want));
	}
	bits_set(w, 60, 8, 0xa5);
	CHECK(w[0] == 0x5123456789abcdefULL && w[1] == 0xfedcba987654321aULL,
	      "bits_set across a word boundary: %llx %llx", U64(w[0]), U64(w[1]));
	bits_set(w, 127, 3, 0x2);
	CHECK(w[1] == 0x7edcba987654321aULL && w[2] == 1,
	      "bits_set over the top word: %llx %llx", U64(w[1]), U64(w[2]));
}

static void test_bits_hex(void)
{
	uint64_t w[BITS_WORDS(WIDE)], back[BITS_WORDS(WIDE)];
	char buf[WIDE / 4 + 2];
	fill_wide(w);
	bits_format_hex(buf, w, WIDE);
	CHECK(str_eq(buf, "3fedcba98765432100123456789abcdef"), "bits_format_hex = \"%s\"", buf);
	CHECK(bits_parse_hex(buf, back, WIDE) == 0 && memcmp(w, back, sizeof w) == 0,
	      "bits_parse_hex does not read back bits_format_hex");
	CHECK(bits_parse_hex("0x00003FEDCBA98765432100123456789ABCDEF", back, WIDE) == 0 &&
		  memcmp(w, back, sizeof w) == 0,
	      "bits_parse_hex with 0x, leading zeros and upper case");
	static const struct {
		const char *s;
		int rc;
	} bad[] = {
		{ "43fedcba98765432100123456789abcdef", -2 }, /* bit 130 set */
		{ "", -1 },
		{ "0x", -1 },
		{ "xyz", -1 },
		{ "12 3", -1 },
	};
	for (int i = 0; i < COUNT(bad); i++) {
		int rc = bits_parse_hex(bad[i].s, back, WIDE);
		CHECK(rc == bad[i].rc, "bits_parse_hex(\"%s\") = %d, want %d", bad[i].s, rc,
		      bad[i].rc);
	}
	CHECK(bits_parse_hex("1", back, WIDE) == 0 && back[0] == 1 && back[1] == 0 && back[2] == 0,
	      "bits_parse_hex clears the words it does not set");
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

/* ---- strmap ---- */

static void test_strmap_basic(void)
{
	StrMap m;
	strmap_init(&m);
	intptr_t v = -1;
	CHECK(!strmap_get(&m, "a", &v) && v == -1, "an empty map finds 'a'");
	CHECK(strmap_put(&m, "a", 1) == 1, "inserting 'a' is not new");
	CHECK(strmap_put(&m, "b", 2) == 1, "inserting 'b' is not new");
	CHECK(strmap_put(&m, "a", 3) == 0, "replacing 'a' is reported as new");
	CHECK(strmap_get(&m, "a", &v) && v == 3, "'a' = %ld after replacing, want 3", (long)v);
	CHECK(strmap_get(&m, "b", NULL), "get with out NULL misses 'b'");
	CHECK(!strmap_get(&m, "c", &v) && !strmap_get(&m, "", &v) && !strmap_get(&m, "A", &v),
	      "missing keys are found");
	CHECK(m.len == 2 && str_eq(m.keys[0], "a") && str_eq(m.keys[1], "b"),
	      "keys not kept in insertion order");
	CHECK(strmap_put(&m, "", 9) == 1 && strmap_get(&m, "", &v) && v == 9,
	      "the empty key is not stored");
	strmap_free(&m);
	CHECK(m.len == 0 && m.keys == NULL && !strmap_get(&m, "a", NULL), "free does not reset");
}

static void test_strmap_many(void)
{
	StrMap m;
	strmap_init(&m);
	char key[32];
	int news = 0;
	for (int i = 0; i < 1000; i++) {
		snprintf(key, sizeof key, "k%d", (i * 7919) % 1000);
		news += strmap_put(&m, key, (intptr_t)i * 3);
	}
	CHECK(news == 1000 && m.len == 1000, "%d new keys, len %d, want 1000", news, m.len);
	CHECK(m.nslots >= 2 * m.len, "load factor above 1/2 (%d slots)", m.nslots);
	int order_ok = 1, values_ok = 1;
	for (int i = 0; i < 1000; i++) {
		snprintf(key, sizeof key, "k%d", (i * 7919) % 1000);
		intptr_t v;
		order_ok &= str_eq(m.keys[i], key) && m.vals[i] == (intptr_t)i * 3;
		values_ok &= strmap_get(&m, key, &v) && v == (intptr_t)i * 3;
	}
	CHECK(order_ok, "insertion order lost across rehashing");
	CHECK(values_ok, "a value is lost across rehashing");
	CHECK(!strmap_get(&m, "k1000", NULL) && !strmap_get(&m, "k", NULL) &&
		  !strmap_get(&m, "K1", NULL),
	      "a missing key is found among 1000");
	strmap_free(&m);
}

/* ---- arena ---- */

static void test_arena_many_allocations(void)
{
	Arena *a = arena_new();
	enum { N = 20000 };
	unsigned char **ptrs = xmalloc(N * sizeof *ptrs);
	int aligned = 1, zeroed = 1, intact = 1;
	for (int i = 0; i < N; i++) {
		size_t n = (size_t)(i % 97) + 1;
		ptrs[i] = arena_alloc(a, n);
		aligned &= ((uintptr_t)ptrs[i] % 16) == 0;
		for (size_t k = 0; k < n; k++)
			zeroed &= ptrs[i][k] == 0;
		memset(ptrs[i], i & 0xff, n);
	}
	for (int i = 0; i < N; i++)
		for (size_t k = 0; k < (size_t)(i % 97) + 1; k++)
			intact &= ptrs[i][k] == (i & 0xff);
	CHECK(aligned, "an allocation is not aligned to 16");
	CHECK(zeroed, "an allocation is not zeroed");
	CHECK(intact, "allocations overlap");
	free(ptrs);
	arena_free(a);
}

static void test_arena_large(void)
{
	Arena *a = arena_new();
	size_t big = 1 << 20;
	unsigned char *first = arena_alloc(a, big); /* a large request on an empty arena */
	char *small = arena_strdup(a, "after");
	unsigned char *second = arena_alloc(a, big);
	char *small2 = arena_strdup(a, "still");
	int zero = 1;
	for (size_t i = 0; i < big; i++)
		zero &= first[i] == 0 && second[i] == 0;
	CHECK(zero, "large allocations are not zeroed");
	CHECK((uintptr_t)first % 16 == 0 && (uintptr_t)second % 16 == 0,
	      "large allocations are not aligned");
	memset(first, 1, big);
	memset(second, 2, big);
	CHECK(str_eq(small, "after") && str_eq(small2, "still"),
	      "small allocations clobbered by large ones");
	CHECK(arena_alloc(a, 0) != NULL, "arena_alloc(0) returned NULL");
	arena_free(a);
	arena_free(NULL);
}

static void test_arena_strings(void)
{
	Arena *a = arena_new();
	CHECK(str_eq(arena_strdup(a, "hello"), "hello"), "arena_strdup");
	CHECK(str_eq(arena_strdup(a, ""), ""), "arena_strdup of \"\"");
	CHECK(str_eq(arena_strndup(a, "hello world", 5), "hello"), "arena_strndup");
	CHECK(str_eq(arena_printf(a, "%s-%d-%04x", "x", 42, 255), "x-42-00ff"), "arena_printf");
	char *longs = arena_printf(a, "%5000d|", 7);
	CHECK(strlen(longs) == 5001 && longs[4999] == '7' && longs[5000] == '|',
	      "arena_printf of 5001 characters");
	arena_free(a);
}

/* ---- vec ---- */

static void test_vec_push_grow(void)
{
	VEC(int) v = { 0 };
	for (int i = 0; i < 1000; i++)
		vec_push(&v, i * i);
	CHECK(v.len == 1000 && v.cap >= 1000 && (v.cap & (v.cap - 1)) == 0,
	      "len %d cap %d after 1000 pushes", v.len, v.cap);
	int ok = 1;
	vec_foreach(&v, i) ok &= v.data[i] == i * i;
	CHECK(ok, "an element changed while growing");
	CHECK(vec_last(&v) == 999 * 999, "vec_last = %d", vec_last(&v));
	vec_free(&v);
	CHECK(v.data == NULL && v.len == 0 && v.cap == 0, "vec_free does not reset");

	typedef struct {
		char name[8];
		double x;
	} Pair;
	VEC(Pair) p = { 0 };
	vec_reserve(&p, 3);
	CHECK(p.cap == 8 && p.len == 0, "vec_reserve(3): cap %d len %d", p.cap, p.len);
	vec_push(&p, ((Pair){ "a", 1.5 }));
	vec_push(&p, ((Pair){ "b", 2.5 }));
	CHECK(p.len == 2 && str_eq(p.data[1].name, "b") && p.data[0].x == 1.5,
	      "a vector of structs");
	vec_free(&p);
}

/* ---- diag ---- */

static void test_diag_collect(void)
{
	Diags *d = diags_new(NULL);
	diag_error(d, "f.yaml", 2, 5, "bad %s", "thing");
	diag_warning(d, "g.yaml", 7, 1, "odd");
	diag_note(d, NULL, 0, 0, "just so you know");
	CHECK(diags_count(d) == 3 && diags_errors(d) == 1, "count %d errors %d, want 3 and 1",
	      diags_count(d), diags_errors(d));
	const Diag *g = diags_get(d, 0);
	CHECK(str_eq(g->file, "f.yaml") && g->line == 2 && g->col == 5 && g->sev == DIAG_ERROR &&
		  str_eq(g->msg, "bad thing"),
	      "fields of the first diagnostic");
	g = diags_get(d, 1);
	CHECK(g->sev == DIAG_WARNING && str_eq(g->msg, "odd") && g->line == 7,
	      "fields of the warning");
	g = diags_get(d, 2);
	CHECK(g->sev == DIAG_NOTE && g->file == NULL && g->line == 0, "fields of the note");
	diags_free(d);
	diags_free(NULL);
}

static void test_diag_error_limit(void)
{
	Diags *d = diags_new(NULL);
	for (int i = 0; i < 150; i++)
		diag_error(d, "f", i + 1, 1, "error %d", i);
	CHECK(diags_count(d) == 100, "%d of 150 errors kept, want 100", diags_count(d));
	CHECK(diags_errors(d) >= 100, "errors counted %d", diags_errors(d));
	diags_free(d);
}

/* The text diags_print writes for diagnostic i of d. */
static char *print_to_string(const Diags *d, int i)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	if (!f)
		return xstrdup("(open_memstream failed)");
	diags_print(d, diags_get(d, i), f);
	fclose(f);
	return buf;
}

/* Splits s into at most 3 lines in place; returns how many there are. */
static int split_lines(char *s, char *lines[3])
{
	int n = 0;
	while (*s && n < 3) {
		lines[n++] = s;
		char *nl = strchr(s, '\n');
		if (!nl)
			break;
		*nl = '\0';
		s = nl + 1;
	}
	return n;
}

static void test_diag_print_caret(void)
{
	Diags *d = diags_new(NULL);
	diags_add_source(d, "f.yaml", "a: 1\nb:  xyz\nc: 3\n");
	diag_error(d, "f.yaml", 2, 5, "msg");
	char *out = print_to_string(d, 0);
	char *l[3];
	int n = split_lines(out, l);
	CHECK(n == 3, "%d lines printed, want 3", n);
	if (n == 3) {
		CHECK(str_eq(l[0], "f.yaml:2:5: error: msg"), "first line \"%s\"", l[0]);
		char *text = strstr(l[1], "b:  xyz");
		CHECK(text && str_eq(text, "b:  xyz"), "second line \"%s\" lacks the source", l[1]);
		char *caret = strchr(l[2], '^');
		CHECK(text && caret && caret - l[2] == (text - l[1]) + 4 && caret[1] == '\0',
		      "caret line \"%s\" not under column 5 of \"%s\"", l[2], l[1]);
		CHECK(text && caret && strspn(l[2] + (text - l[1]), " ") == 4,
		      "caret line \"%s\" pads with other than spaces", l[2]);
	}
	free(out);
	diags_free(d);
}

static void test_diag_print_tab_and_replace(void)
{
	Diags *d = diags_new(NULL);
	diags_add_source(d, "t.yaml", "old\n");
	diags_add_source(d, "t.yaml", "\tx: 1\r\n");
	diag_error(d, "t.yaml", 1, 2, "tabbed");
	char *out = print_to_string(d, 0);
	CHECK(str_eq(out, "t.yaml:1:2: error: tabbed\n    1 | \tx: 1\n      | \t^\n"),
	      "tab-indented caret or replaced source, got \"%s\"", out);
	free(out);
	diags_free(d);
}

static void test_diag_print_without_source(void)
{
	static const struct {
		const char *file;
		int line, col;
		const char *want;
	} cases[] = {
		{ "g.yaml", 3, 1, "g.yaml:3:1: error: m\n" },
		{ "f.yaml", 9, 2, "f.yaml:9:2: error: m\n" }, /* f.yaml has 2 lines */
		{ "g.yaml", 0, 0, "g.yaml: error: m\n" },
		{ NULL, 0, 0, "error: m\n" },
	};
	Diags *d = diags_new(NULL);
	diags_add_source(d, "f.yaml", "a\nb\n");
	for (int i = 0; i < COUNT(cases); i++) {
		diag_error(d, cases[i].file, cases[i].line, cases[i].col, "m");
		char *out = print_to_string(d, i);
		CHECK(str_eq(out, cases[i].want), "printed \"%s\", want \"%s\"", out, cases[i].want);
		free(out);
	}
	diags_free(d);
}

/* Nothing is printed before a flush; a flush prints in position order. */
static void test_diag_prints_sorted_on_flush(void)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	if (!CHECK(f != NULL, "open_memstream failed"))
		return;
	Diags *d = diags_new(f);
	diag_warning(d, "w.c", 4, 2, "careful");
	diag_error(d, "w.c", 2, 7, "first");
	diag_error(d, "w.c", 4, 1, "second");
	fflush(f);
	CHECK(len == 0, "printed before the flush: \"%s\"", buf);
	diags_flush(d);
	fflush(f);
	CHECK(str_eq(buf, "w.c:2:7: error: first\nw.c:4:1: error: second\nw.c:4:2: warning: careful\n"),
	      "printed \"%s\"", buf);
	diags_free(d);
	fclose(f);
	free(buf);
}

/* ---- affine ---- */

/* The downsample-by-2 of an 8x8 image (Unified Buffer Fig. 5(c)): x steps by 2
 * over 4 columns, y by 16 over 4 rows; the y delta undoes the x walk. */
static void test_affine_downsample(void)
{
	AffineMap m = { 2, { 4, 4 }, { 2, 16 }, 0 };
	int64_t delta[2];
	affine_deltas(&m, delta);
	CHECK(delta[0] == 2 && delta[1] == 10, "deltas %lld %lld, want 2 10", (long long)delta[0],
	      (long long)delta[1]);
	AffineIter it;
	affine_iter_start(&it, &m);
	int64_t want = 0, n = 0;
	int ok = 1;
	do {
		want = 16 * (n / 4) + 2 * (n % 4);
		ok &= it.value == want && it.step == n;
		n++;
	} while (affine_iter_next(&it));
	CHECK(ok && n == 16 && affine_count(&m) == 16, "walk of 16 points, got %lld", (long long)n);
}

/* Random maps: the recurrence walk equals the multiply form at every point,
 * and deltas convert back to the strides. */
static void test_affine_random(void)
{
	Rng rng;
	rng_seed(&rng, 21);
	int bad = 0;
	for (int t = 0; t < 300; t++) {
		AffineMap m = { (int)rng_below(&rng, 7), { 0 }, { 0 }, (int64_t)rng_below(&rng, 100) - 50 };
		for (int l = 0; l < m.dims; l++) {
			m.extent[l] = 1 + (int64_t)rng_below(&rng, 5);
			m.stride[l] = (int64_t)rng_below(&rng, 41) - 20;
		}
		AffineIter it;
		affine_iter_start(&it, &m);
		int64_t n = 0;
		do {
			bad += it.value != affine_at(&m, it.idx);
			n++;
		} while (affine_iter_next(&it));
		bad += n != affine_count(&m);
		int64_t delta[AFFINE_MAX_DIMS];
		AffineMap back = m;
		affine_deltas(&m, delta);
		affine_strides(&back, delta);
		bad += memcmp(back.stride, m.stride, sizeof m.stride) != 0;
	}
	CHECK(bad == 0, "%d mismatches between recurrence and multiply forms", bad);
}

static void test_affine_point(void)
{
	AffineMap m = { 0, { 0 }, { 0 }, 7 };
	AffineIter it;
	affine_iter_start(&it, &m);
	CHECK(affine_count(&m) == 1 && it.value == 7 && !affine_iter_next(&it) && it.done,
	      "a 0-dimensional domain is one point");
}

/* ---- yamlr ---- */

/* The node at a dotted path of map keys and sequence indices, e.g. "ports.1.y". */
static const YNode *ypath(const YNode *n, const char *path)
{
	char buf[128];
	snprintf(buf, sizeof buf, "%s", path);
	for (char *save = NULL, *tok = strtok_r(buf, ".", &save); tok && n;
	     tok = strtok_r(NULL, ".", &save)) {
		if (n->kind == YN_SEQ) {
			int i = atoi(tok);
			n = i >= 0 && i < n->len ? n->items[i] : NULL;
		} else {
			n = ymap_get(n, tok);
		}
	}
	return n;
}

/* The text of the scalar at path, or NULL. */
static const char *yval(const YNode *n, const char *path)
{
	const YNode *v = ypath(n, path);
	return v && v->kind == YN_SCALAR ? v->value : NULL;
}

static const char *shown(const char *s)
{
	return s ? s : "(none)";
}

static int style_at(const YNode *n, const char *path)
{
	const YNode *v = ypath(n, path);
	return v ? (int)v->style : -1;
}

/* The character of doc's text at 1-based line and column (0 if none). */
static char text_at(const YDoc *doc, int line, int col)
{
	const char *p = doc->text;
	for (int l = 1; l < line && p; l++) {
		p = strchr(p, '\n');
		if (p)
			p++;
	}
	if (!p || col < 1 || (int)strlen(p) < col)
		return 0;
	return p[col - 1];
}

static const char nested_yaml[] =
	"name: pe\n"              /* 1 */
	"ports:\n"                /* 2 */
	"  - a\n"                 /* 3 */
	"  - {x: 1, y: 'two'}\n"  /* 4 */
	"map:\n"                  /* 5 */
	"  k: \"v w\"\n"          /* 6 */
	"  deeper:\n"             /* 7 */
	"    list: [p, q]\n";     /* 8 */

static void test_yaml_positions(void)
{
	static const struct {
		const char *path;
		YNodeKind kind;
		int line, col;
		const char *value;
		int len;
	} cases[] = {
		{ "", YN_MAP, 1, 1, "", 3 },
		{ "name", YN_SCALAR, 1, 7, "pe", 0 },
		{ "ports", YN_SEQ, 3, 3, "", 2 },
		{ "ports.0", YN_SCALAR, 3, 5, "a", 0 },
		{ "ports.1", YN_MAP, 4, 5, "", 2 },
		{ "ports.1.x", YN_SCALAR, 4, 9, "1", 0 },
		{ "ports.1.y", YN_SCALAR, 4, 15, "two", 0 },
		{ "map", YN_MAP, 6, 3, "", 2 },
		{ "map.k", YN_SCALAR, 6, 6, "v w", 0 },
		{ "map.deeper.list", YN_SEQ, 8, 11, "", 2 },
		{ "map.deeper.list.1", YN_SCALAR, 8, 15, "q", 0 },
	};
	Diags *d = diags_new(NULL);
	YDoc *doc = ydoc_load_string("n.yaml", nested_yaml, d);
	if (!CHECK(doc && doc->root && diags_count(d) == 0, "nested document did not load")) {
		ydoc_free(doc);
		diags_free(d);
		return;
	}
	for (int i = 0; i < COUNT(cases); i++) {
		const YNode *n = *cases[i].path ? ypath(doc->root, cases[i].path) : doc->root;
		if (!CHECK(n != NULL, "no node at '%s'", cases[i].path))
			continue;
		CHECK(n->kind == cases[i].kind && n->line == cases[i].line && n->col == cases[i].col &&
			      str_eq(n->value, cases[i].value) && n->len == cases[i].len &&
			      str_eq(n->file, "n.yaml"),
		      "'%s': kind %d at %d:%d value \"%s\" len %d, want kind %d at %d:%d \"%s\" len %d",
		      cases[i].path, n->kind, n->line, n->col, n->value, n->len, cases[i].kind,
		      cases[i].line, cases[i].col, cases[i].value, cases[i].len);
	}
	const YNode *key = ymap_key(ypath(doc->root, "map"), "deeper");
	CHECK(key && key->line == 7 && key->col == 3, "key 'deeper' position");
	CHECK(style_at(doc->root, "ports.1.y") == YS_SINGLE &&
		      style_at(doc->root, "map.k") == YS_DOUBLE &&
		      style_at(doc->root, "name") == YS_PLAIN,
	      "scalar styles");
	CHECK(!ymap_get(doc->root, "nope") && !ymap_key(doc->root, "nope") &&
		      !ymap_get(ypath(doc->root, "ports"), "a") && !ymap_get(NULL, "a"),
	      "lookups of missing keys or in non-maps");
	ydoc_free(doc);
	diags_free(d);
}

static void test_yaml_empty_collections(void)
{
	Diags *d = diags_new(NULL);
	YDoc *doc = ydoc_load_string("z.yaml", "a: []\nb: {}\nc:\nd: [[], {}]\n", d);
	if (!CHECK(doc && doc->root && diags_count(d) == 0, "empty collections did not load")) {
		ydoc_free(doc);
		diags_free(d);
		return;
	}
	const YNode *a = ypath(doc->root, "a"), *b = ypath(doc->root, "b");
	const YNode *c = ypath(doc->root, "c"), *dd = ypath(doc->root, "d");
	CHECK(a && a->kind == YN_SEQ && a->len == 0 && a->line == 1 && a->col == 4, "[]");
	CHECK(b && b->kind == YN_MAP && b->len == 0 && !ymap_get(b, "x"), "{}");
	CHECK(c && c->kind == YN_SCALAR && str_eq(c->value, ""), "an empty value");
	CHECK(dd && dd->len == 2 && dd->items[0]->kind == YN_SEQ && dd->items[0]->len == 0 &&
		      dd->items[1]->kind == YN_MAP && dd->items[1]->len == 0,
	      "nested empty collections");
	ydoc_free(doc);
	diags_free(d);
}

static void test_yaml_load_file_and_empty(void)
{
	Diags *d = diags_new(NULL);
	YDoc *doc = ydoc_load_string("e.yaml", "", d);
	CHECK(doc && doc->root == NULL && diags_count(d) == 0, "empty document");
	ydoc_free(doc);
	doc = ydoc_load_string("c.yaml", "# only a comment\n", d);
	CHECK(doc && doc->root == NULL && diags_count(d) == 0, "comment-only document");
	ydoc_free(doc);
	doc = ydoc_load_file("/nonexistent/dir/x.yaml", d);
	CHECK(doc == NULL && diags_errors(d) == 1 &&
		      strstr(diags_get(d, 0)->msg, "cannot read file") != NULL,
	      "a missing file is reported");
	ydoc_free(doc);
	diags_free(d);
}

/* Loads text expecting failure; checks the first error's position and message. */
static void expect_load_error(const char *text, int line, int col, const char *msg_part)
{
	Diags *d = diags_new(NULL);
	YDoc *doc = ydoc_load_string("bad.yaml", text, d);
	CHECK(doc == NULL, "\"%s\" loaded", text);
	const Diag *g = diags_count(d) ? diags_get(d, 0) : NULL;
	if (CHECK(g && diags_errors(d) >= 1, "\"%s\" gave no error", text)) {
		CHECK(str_eq(g->file, "bad.yaml") && strstr(g->msg, msg_part) &&
			      (line ? g->line == line && g->col == col : g->line > 0 && g->col > 0),
		      "\"%s\": %d:%d %s", text, g->line, g->col, g->msg);
	}
	ydoc_free(doc);
	diags_free(d);
}

static void test_yaml_errors(void)
{
	expect_load_error("a: 1\nb: 2\na: 3\n", 3, 1, "duplicate key 'a' (first given at line 1)");
	expect_load_error("top:\n  x: 1\n  x: 2\n", 3, 3, "duplicate key 'x'");
	expect_load_error("m: {p: 1, p: 2}\n", 1, 11, "duplicate key 'p'");
	expect_load_error("a: [1, 2", 0, 0, "malformed YAML");
	expect_load_error("a: 1\n b: 2\n", 0, 0, "malformed YAML");
	expect_load_error("a: \"open\n", 0, 0, "malformed YAML");
	expect_load_error("a: *nowhere\n", 1, 4, "unknown alias 'nowhere'");
	expect_load_error("a: 1\n---\nb: 2\n", 2, 1, "second");
	expect_load_error("? [x]\n: 1\n", 1, 3, "mapping keys must be plain names");
}

static void test_yaml_check_keys(void)
{
	Diags *d = diags_new(NULL);
	YDoc *doc = ydoc_load_string("k.yaml", "name: a\nbogus: 1\nports: []\nextra: 2\n", d);
	static const char *const allowed[] = { "name", "ports", NULL };
	int bad = doc ? ymap_check_keys(doc->root, allowed, "a PE spec", d) : -1;
	CHECK(bad == 2 && diags_errors(d) == 2, "%d unknown keys, %d errors, want 2", bad,
	      diags_errors(d));
	if (diags_count(d) == 2) {
		const Diag *g = diags_get(d, 0);
		CHECK(g->line == 2 && g->col == 1 &&
			      str_eq(g->msg, "unknown key 'bogus' in a PE spec (expected one of: "
					     "name, ports)"),
		      "%d:%d %s", g->line, g->col, g->msg);
		g = diags_get(d, 1);
		CHECK(g->line == 4 && strstr(g->msg, "'extra'"), "%d:%d %s", g->line, g->col, g->msg);
	}
	static const char *const all[] = { "name", "bogus", "ports", "extra", NULL };
	CHECK(doc && ymap_check_keys(doc->root, all, "x", d) == 0, "all keys allowed");
	if (doc) {
		CHECK(!ynode_expect(ymap_get(doc->root, "name"), YN_MAP, "a mapping", d) &&
			      strstr(diags_get(d, diags_count(d) - 1)->msg,
				     "expected a mapping, found a scalar"),
		      "ynode_expect on a scalar");
		CHECK(ynode_expect(ymap_get(doc->root, "ports"), YN_SEQ, "a list", d),
		      "ynode_expect on a sequence");
	}
	ydoc_free(doc);
	diags_free(d);
}

static void test_yaml_literal_pos(void)
{
	static const char text[] = "ops:\n"               /* 1 */
				   "  add:\n"             /* 2 */
				   "    behavior: |\n"    /* 3 */
				   "      x = a + b\n"    /* 4 */
				   "      y = x * 2\n"    /* 5 */
				   "\n"                   /* 6 */
				   "      z = y\n"        /* 7 */
				   "    other: 1\n";      /* 8 */
	Diags *d = diags_new(NULL);
	YDoc *doc = ydoc_load_string("l.yaml", text, d);
	const YNode *n = doc ? ypath(doc->root, "ops.add.behavior") : NULL;
	if (!CHECK(n && n->style == YS_LITERAL, "literal block did not load")) {
		ydoc_free(doc);
		diags_free(d);
		return;
	}
	CHECK(str_eq(n->value, "x = a + b\ny = x * 2\n\nz = y\n"), "literal value \"%s\"", n->value);
	static const struct {
		int tline, tcol, line, col;
		char c;
	} cases[] = {
		{ 0, 0, 4, 7, 'x' },
		{ 1, 2, 5, 9, '=' },
		{ 1, 8, 5, 15, '2' },
		{ 3, 4, 7, 11, 'y' },
	};
	for (int i = 0; i < COUNT(cases); i++) {
		int line = 0, col = 0;
		yscalar_pos(doc, n, cases[i].tline, cases[i].tcol, &line, &col);
		CHECK(line == cases[i].line && col == cases[i].col && text_at(doc, line, col) == cases[i].c,
		      "literal (%d, %d) -> %d:%d, want %d:%d '%c'", cases[i].tline, cases[i].tcol,
		      line, col, cases[i].line, cases[i].col, cases[i].c);
	}
	ydoc_free(doc);
	diags_free(d);
}

static void test_yaml_plain_pos(void)
{
	static const char text[] = "desc: the quick\n"   /* 1 */
				   "  brown fox\n"       /* 2 */
				   "    jumps\n"         /* 3 */
				   "one: 'ab cd'\n";     /* 4 */
	Diags *d = diags_new(NULL);
	YDoc *doc = ydoc_load_string("p.yaml", text, d);
	const YNode *n = doc ? ymap_get(doc->root, "desc") : NULL;
	if (!CHECK(n && str_eq(n->value, "the quick brown fox jumps"), "folded plain scalar")) {
		ydoc_free(doc);
		diags_free(d);
		return;
	}
	static const struct {
		const char *path;
		int tcol, line, col;
		char c;
	} cases[] = {
		{ "desc", 0, 1, 7, 't' },  { "desc", 4, 1, 11, 'q' },
		{ "desc", 10, 2, 3, 'b' }, { "desc", 16, 2, 9, 'f' },
		{ "desc", 20, 3, 5, 'j' }, { "desc", 24, 3, 9, 's' },
		{ "one", 0, 4, 7, 'a' },   { "one", 3, 4, 10, 'c' },
	};
	for (int i = 0; i < COUNT(cases); i++) {
		int line = 0, col = 0;
		const YNode *s = ymap_get(doc->root, cases[i].path);
		yscalar_pos(doc, s, 0, cases[i].tcol, &line, &col);
		CHECK(line == cases[i].line && col == cases[i].col &&
			      text_at(doc, line, col) == cases[i].c,
		      "%s offset %d -> %d:%d, want %d:%d '%c'", cases[i].path, cases[i].tcol, line, col,
		      cases[i].line, cases[i].col, cases[i].c);
	}
	ydoc_free(doc);
	diags_free(d);
}

static void test_yaml_aliases(void)
{
	Diags *d = diags_new(NULL);
	YDoc *doc = ydoc_load_string("a.yaml",
				     "base: &b {x: 1, y: [2, 3]}\n"
				     "use: *b\n"
				     "list: [&s hi, *s]\n"
				     "seq: &q [7]\n"
				     "again: *q\n",
				     d);
	if (!CHECK(doc && diags_count(d) == 0, "document with aliases did not load")) {
		ydoc_free(doc);
		diags_free(d);
		return;
	}
	const YNode *base = ymap_get(doc->root, "base"), *use = ymap_get(doc->root, "use");
	CHECK(use == base && str_eq(yval(use, "y.1"), "3"), "*b does not resolve to &b");
	CHECK(str_eq(yval(doc->root, "list.1"), "hi"), "*s does not resolve to the scalar");
	CHECK(ymap_get(doc->root, "again") == ymap_get(doc->root, "seq") &&
		      str_eq(yval(doc->root, "again.0"), "7"),
	      "*q does not resolve to the sequence");
	ydoc_free(doc);
	diags_free(d);
}

static void test_yaml_numbers(void)
{
	static const struct {
		const char *text;
		int rc;
		long long want;
	} ints[] = {
		{ "42", 0, 42 },
		{ "-7", 0, -7 },
		{ "0", 0, 0 },
		{ "0x1f", 0, 31 },
		{ "0X1F", 0, 31 },
		{ "0b101", 0, 5 },
		{ "010", 0, 10 },
		{ "9223372036854775807", 0, LLONG_MAX },
		{ "-9223372036854775808", 0, LLONG_MIN },
		{ "9223372036854775808", -1, 0 },
		{ "''", -1, 0 },
		{ "abc", -1, 0 },
		{ "1.5", -1, 0 },
		{ "12x", -1, 0 },
		{ "0x", -1, 0 },
		{ "0b", -1, 0 },
		{ "0b12", -1, 0 },
		{ "0b-1", -1, 0 },
		{ "' 5'", -1, 0 },
		{ "[1]", -1, 0 },
	};
	Diags *d = diags_new(NULL);
	for (int i = 0; i < COUNT(ints); i++) {
		YDoc *doc = ydoc_load_string("i.yaml", ints[i].text, d);
		long long v = 12345;
		int rc = doc && doc->root ? yscalar_int(doc->root, &v) : -99;
		CHECK(rc == ints[i].rc && (rc || v == ints[i].want),
		      "yscalar_int(%s) = %d, %lld; want %d, %lld", ints[i].text, rc, v, ints[i].rc,
		      ints[i].want);
		ydoc_free(doc);
	}
	static const struct {
		const char *text;
		int rc;
		double want;
	} dbls[] = {
		{ "1.5", 0, 1.5 },  { "-2", 0, -2.0 }, { "1e-9", 0, 1e-9 }, { "0.1", 0, 0.1 },
		{ "abc", -1, 0 },   { "''", -1, 0 },   { "1.5x", -1, 0 },   { "1e999", -1, 0 },
		{ "-1e999", -1, 0 }, { "5e-324", 0, 5e-324 }, { "1e-400", 0, 0.0 }, { "0x10", 0, 16.0 },
	};
	for (int i = 0; i < COUNT(dbls); i++) {
		YDoc *doc = ydoc_load_string("d.yaml", dbls[i].text, d);
		double v = -1;
		int rc = doc && doc->root ? yscalar_double(doc->root, &v) : -99;
		CHECK(rc == dbls[i].rc && (rc || v == dbls[i].want), "yscalar_double(%s) = %d, %g",
		      dbls[i].text, rc, v);
		ydoc_free(doc);
	}
	CHECK(diags_count(d) == 0, "number documents gave %d diagnostics", diags_count(d));
	diags_free(d);
}

/* ---- ywrite ---- */

static const char *const tricky_strings[] = {
	"a: b", "yes", "Yes", "NO", "on", "null", "~", "true", "y", "-1x", "-", "- x", "",
	"say \"hi\"\nbye", "back\\slash", "tab\there", "cr\rhere", " lead", "trail ", "#c",
	"a #b", "a#b", "x:", "a:b", "[1]", "{a}", "a,b", "&anchor", "*alias", "!tag", "|", ">",
	"%", "@", "`", "'q'", "?", "plain", "with space", "1.5", "0x10", "h\xc3\xa9llo",
	"del\x7f", "...", "---",
};

static const double tricky_doubles[] = { 0.1, 1.0, 1e-9, -2.5, 1e300, 123456789.123, 5e-324,
					 -0.0, 1e21, 3.0e10 };

/* Writes the round-trip document; the caller frees the returned text. */
static char *write_roundtrip_doc(void)
{
	char *buf = NULL, key[16];
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	if (!f)
		return NULL;
	YWriter w;
	yw_init(&w, f);
	yw_comment(&w, "generated by %s", "test_common");
	yw_str(&w, "name", "pe");
	yw_map(&w, "outer");
	yw_map(&w, "inner");
	yw_int(&w, "neg", -5);
	yw_int(&w, "min", LLONG_MIN);
	yw_str(&w, "a: b", "key needs quotes");
	yw_end(&w);
	yw_bool(&w, "on", 1);
	yw_bool(&w, "off", 0);
	yw_hex(&w, "mask", "00ff");
	yw_end(&w);
	yw_map(&w, "strings");
	for (int i = 0; i < COUNT(tricky_strings); i++) {
		snprintf(key, sizeof key, "s%d", i);
		yw_str(&w, key, tricky_strings[i]);
	}
	yw_end(&w);
	yw_seq(&w, "flows");
	for (int i = 0; i < COUNT(tricky_strings); i++) {
		yw_flow_begin(&w, NULL);
		yw_fstr(&w, "s", tricky_strings[i]);
		yw_fint(&w, "i", i);
		yw_fdouble(&w, "d", tricky_doubles[i % COUNT(tricky_doubles)]);
		yw_flow_end(&w);
	}
	yw_end(&w);
	yw_seq(&w, "items");
	for (int i = 0; i < COUNT(tricky_strings); i++)
		yw_item_str(&w, tricky_strings[i]);
	yw_item(&w);
	yw_str(&w, "k", "v");
	yw_map(&w, "sub");
	yw_int(&w, "z", 26);
	yw_end(&w);
	yw_flow_begin(&w, "fm");
	yw_fstr(&w, "a", "x, y");
	yw_fdouble(&w, "one", 1.0);
	yw_flow_end(&w);
	yw_end(&w);
	yw_end(&w);
	yw_map(&w, "doubles");
	for (int i = 0; i < COUNT(tricky_doubles); i++) {
		snprintf(key, sizeof key, "d%d", i);
		yw_double(&w, key, tricky_doubles[i]);
	}
	yw_end(&w);
	fclose(f);
	return buf;
}

static int same_double(double a, double b)
{
	return a == b && signbit(a) == signbit(b);
}

static void check_roundtrip_strings(const YNode *root)
{
	char path[32];
	for (int i = 0; i < COUNT(tricky_strings); i++) {
		snprintf(path, sizeof path, "strings.s%d", i);
		const YNode *a = ypath(root, path);
		snprintf(path, sizeof path, "flows.%d.s", i);
		const YNode *b = ypath(root, path);
		snprintf(path, sizeof path, "items.%d", i);
		const YNode *c = ypath(root, path);
		CHECK(a && str_eq(a->value, tricky_strings[i]) && a->kind == YN_SCALAR,
		      "block value %d (\"%s\") read back as \"%s\"", i, tricky_strings[i],
		      a ? a->value : "(none)");
		CHECK(b && str_eq(b->value, tricky_strings[i]), "flow value %d (\"%s\") read back as \"%s\"",
		      i, tricky_strings[i], b ? b->value : "(none)");
		CHECK(c && str_eq(c->value, tricky_strings[i]), "item %d (\"%s\") read back as \"%s\"", i,
		      tricky_strings[i], c ? c->value : "(none)");
	}
}

static void check_roundtrip_numbers(const YNode *root)
{
	char path[32];
	for (int i = 0; i < COUNT(tricky_doubles); i++) {
		double v = -1;
		snprintf(path, sizeof path, "doubles.d%d", i);
		const YNode *n = ypath(root, path);
		CHECK(n && yscalar_double(n, &v) == 0 && same_double(v, tricky_doubles[i]),
		      "double %.17g read back as %s", tricky_doubles[i], n ? n->value : "(none)");
	}
	int flows_ok = 1;
	for (int i = 0; i < COUNT(tricky_strings); i++) {
		long long k = -1;
		double v = -1;
		snprintf(path, sizeof path, "flows.%d.i", i);
		flows_ok &= ypath(root, path) && yscalar_int(ypath(root, path), &k) == 0 && k == i;
		snprintf(path, sizeof path, "flows.%d.d", i);
		flows_ok &= ypath(root, path) && yscalar_double(ypath(root, path), &v) == 0 &&
			    same_double(v, tricky_doubles[i % COUNT(tricky_doubles)]);
	}
	CHECK(flows_ok, "a number in a flow mapping does not read back");
	long long k = 0;
	CHECK(yscalar_int(ypath(root, "outer.inner.neg"), &k) == 0 && k == -5, "int -5");
	CHECK(yscalar_int(ypath(root, "outer.inner.min"), &k) == 0 && k == LLONG_MIN, "LLONG_MIN");
	CHECK(yscalar_int(ypath(root, "outer.mask"), &k) == 0 && k == 0xff, "hex 0x00ff");
	CHECK(str_eq(yval(root, "doubles.d1"), "1.0") &&
		      str_eq(yval(root, "doubles.d0"), "0.1"),
	      "1.0 and 0.1 written as \"%s\" and \"%s\"", shown(yval(root, "doubles.d1")),
	      shown(yval(root, "doubles.d0")));
}

static void check_roundtrip_structure(const YNode *root)
{
	CHECK(str_eq(yval(root, "name"), "pe"), "name");
	CHECK(str_eq(yval(root, "outer.inner.a: b"), "key needs quotes"),
	      "a quoted key");
	CHECK(str_eq(yval(root, "outer.on"), "true") &&
		      str_eq(yval(root, "outer.off"), "false"),
	      "booleans");
	const YNode *items = ypath(root, "items");
	int n = COUNT(tricky_strings);
	CHECK(items && items->kind == YN_SEQ && items->len == n + 1, "items length %d",
	      items ? items->len : -1);
	const YNode *last = items && items->len == n + 1 ? items->items[n] : NULL;
	CHECK(last && str_eq(yval(last, "k"), "v") && str_eq(yval(last, "sub.z"), "26") &&
		      str_eq(yval(last, "fm.a"), "x, y") &&
		      str_eq(yval(last, "fm.one"), "1.0"),
	      "the mapping item of the sequence");
	CHECK(ypath(root, "flows") && ypath(root, "flows")->len == n, "flows length");
}

static void test_ywrite_roundtrip(void)
{
	char *text = write_roundtrip_doc();
	if (!CHECK(text != NULL, "open_memstream failed"))
		return;
	Diags *d = diags_new(NULL);
	YDoc *doc = ydoc_load_string("w.yaml", text, d);
	if (!CHECK(doc && doc->root && diags_count(d) == 0, "written YAML does not read back: %s",
		   diags_count(d) ? diags_get(d, 0)->msg : "")) {
		printf("%s", text);
	} else {
		check_roundtrip_structure(doc->root);
		check_roundtrip_strings(doc->root);
		check_roundtrip_numbers(doc->root);
	}
	CHECK(strncmp(text, "# generated by test_common\nname: pe\nouter:\n  inner:\n    neg: -5\n",
		      62) == 0,
	      "layout of the first lines");
	ydoc_free(doc);
	diags_free(d);
	free(text);
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

/* ---- util ---- */

/* A fresh temporary folder; the caller removes it. */
static char *make_temp_dir(void)
{
	const char *base = getenv("TMPDIR");
	char *templ = xasprintf("%s/test_common.XXXXXX", base && *base ? base : "/tmp");
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

/* ---- main ---- */

/* ---- memory-tile collateral and functional model ---- */

/* A small tile built in code: one storage unit `rf` with a write port and a
 * read port, inputs in0..in{nins-1} all writing it, one output. */
static MemInfo *tiny_mem(MemKind kind, int words, int latency, int nins, MemAffine affine, int chain,
			 int counter_bits)
{
	Arena *a = arena_new();
	MemInfo *mi = arena_alloc(a, sizeof *mi);
	memset(mi, 0, sizeof *mi);
	mi->arena = a;
	mi->name = "tiny";
	mi->verilog = "tiny.v";
	mi->word = 16;
	mi->dims = 3;
	mi->counter_bits = counter_bits;
	mi->affine = affine;
	mi->chain = chain;
	mi->nunits = 1;
	mi->units = arena_alloc(a, sizeof(MemUnitInfo));
	memset(mi->units, 0, sizeof(MemUnitInfo));
	mi->units[0] = (MemUnitInfo){ "rf", kind, words, 1, 0, NULL, 2 };
	mi->units[0].ports = arena_alloc(a, 2 * sizeof(MemPortInfo));
	mi->units[0].ports[0] = (MemPortInfo){ "w", MEM_WRITE, 1, latency, 1, 0 };
	mi->units[0].ports[1] = (MemPortInfo){ "r", MEM_READ, 1, latency, 1, 0 };
	static const char *ins[] = { "in0", "in1" }, *outs[] = { "out0" };
	mi->ins = ins;
	mi->nins = nins;
	mi->outs = outs;
	mi->nouts = 1;
	mi->nedges = nins + 1;
	mi->edges = arena_alloc(a, (size_t)mi->nedges * sizeof(MemEdgeInfo));
	memset(mi->edges, 0, (size_t)mi->nedges * sizeof(MemEdgeInfo));
	for (int i = 0; i < nins; i++) {
		mi->edges[i].src = (MemEnd){ MEM_TILE_IN, i };
		mi->edges[i].dst = (MemEnd){ 0, 0 };
	}
	mi->edges[nins].src = (MemEnd){ 0, 1 };
	mi->edges[nins].dst = (MemEnd){ MEM_TILE_OUT, 0 };
	mi->lookup.port = (MemEnd){ -1, 0 };
	meminfo_derive(mi);
	return mi;
}

/* Sets controller c's registers for the affine schedule and (one) address
 * map sharing the schedule's domain. */
static void set_ctrl(const MemInfo *mi, uint32_t *regs, int c, const AffineMap *sched, const AffineMap *addr)
{
	const MemCtrl *ct = &mi->ctrls[c];
	regs[ct->en] = 1;
	for (int l = 0; l < mi->dims; l++)
		regs[ct->max[l]] = (uint32_t)(sched->extent[l] - 1);
	mem_set_gen(mi, &ct->sched, sched, regs);
	const MemAddrGen *ag = ct->src ? ct->src : ct->dst;
	if (ag)
		mem_set_gen(mi, &ag->gen, addr, regs);
}

static AffineMap map3(int64_t e0, int64_t e1, int64_t e2, int64_t s0, int64_t s1, int64_t s2, int64_t off)
{
	AffineMap m = { 3, { e0, e1, e2 }, { s0, s1, s2 }, off };
	return m;
}

static char *info_text(const MemInfo *mi)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	meminfo_write(mi, f);
	fclose(f);
	return buf;
}

static void test_meminfo_roundtrip(void)
{
	MemInfo *mi = tiny_mem(MEM_REGFILE, 8, 0, 1, MEM_RECURRENCE, 0, 8);
	CHECK(mi->nctrls == 2 && mi->nregs == 1 + 2 * (1 + 3 + 4 + 4), "%d controllers, %d registers",
	      mi->nctrls, mi->nregs);
	CHECK(mi->ctrls[0].dst && !mi->ctrls[0].src && mi->ctrls[0].dst->gen.width == 3,
	      "the write controller addresses rf.w with 3 bits");
	CHECK(mem_reg_address(&mi->regs[mi->ctrls[1].en]) == 0x00020000u, "e1_en at feature 2, reg 0");
	char *text = info_text(mi);
	Diags *d = diags_new(NULL);
	MemInfo *back = meminfo_load_string("tiny.info.yaml", text, d);
	CHECK(back != NULL, "the written info.yaml reads back (%d errors)", diags_errors(d));
	if (back) {
		char *again = info_text(back);
		CHECK(strcmp(text, again) == 0, "write, read, write gives the same text");
		free(again);
		meminfo_free(back);
	}
	diags_free(d);
	/* a register whose width disagrees with the structure is refused */
	char *bad = xstrdup(text);
	char *p = strstr(bad, "name: e0_max1, width: 8");
	CHECK(p != NULL, "e0_max1 is listed with 8 bits");
	if (p) {
		p[strlen("name: e0_max1, width: ")] = '9';
		d = diags_new(NULL);
		CHECK(meminfo_load_string("bad.info.yaml", bad, d) == NULL && diags_errors(d) == 1,
		      "a tampered register width is an error");
		diags_free(d);
	}
	free(bad);
	free(text);
	meminfo_free(mi);
}

/* A line buffer: each input word comes out `delay` (+ latency) cycles later. */
static void test_memmodel_delay_line(void)
{
	for (int lat = 0; lat <= 2; lat += 2)
		for (int delay = 1; delay <= 8; delay++) {
			MemInfo *mi = tiny_mem(lat ? MEM_SRAM : MEM_REGFILE, 8, lat, 1,
					       delay % 2 ? MEM_MULTIPLY : MEM_RECURRENCE, 0, 8);
			uint32_t *regs = xcalloc((size_t)mi->nregs, sizeof *regs);
			regs[mi->tile_en] = 1;
			AffineMap sched = map3(8, 4, 1, 1, 8, 0, 0), addr = map3(8, 4, 1, 1, 0, 0, 0);
			set_ctrl(mi, regs, 0, &sched, &addr);
			sched.offset = delay;
			set_ctrl(mi, regs, 1, &sched, &addr);
			MemModel *m = memmodel_new(mi);
			memmodel_config(m, regs);
			memmodel_flush(m);
			uint64_t in[64];
			int bad = 0, valid = 0;
			for (int t = 0; t < 64; t++) {
				in[t] = (uint64_t)(t * 7919 + 13) & 0xffff;
				const MemCycle *c = memmodel_step(m, &in[t], NULL, NULL);
				int src = t - delay - lat, want = src >= 0 && src < 32;
				valid += c->out_valid[0];
				if (c->out_valid[0] != want || (want && c->out[0] != in[src]))
					bad++;
			}
			CHECK(bad == 0 && valid == 32, "latency %d delay %d: %d wrong cycles, %d valid", lat,
			      delay, bad, valid);
			CHECK(memmodel_done(m, 0) && memmodel_done(m, 1), "both domains finish");
			memmodel_free(m);
			free(regs);
			meminfo_free(mi);
		}
}

/* Two inputs write the same port in the same cycle: edge 0 wins. */
static void test_memmodel_arbitration(void)
{
	MemInfo *mi = tiny_mem(MEM_REGFILE, 8, 0, 2, MEM_RECURRENCE, 0, 8);
	uint32_t *regs = xcalloc((size_t)mi->nregs, sizeof *regs);
	regs[mi->tile_en] = 1;
	AffineMap sched = map3(4, 1, 1, 1, 0, 0, 0), a0 = map3(4, 1, 1, 1, 0, 0, 0),
		  a1 = map3(4, 1, 1, 1, 0, 0, 4);
	set_ctrl(mi, regs, 0, &sched, &a0);
	sched.offset = 2;
	set_ctrl(mi, regs, 1, &sched, &a1);   /* cycles 2..5, addresses 4..7 */
	MemModel *m = memmodel_new(mi);
	memmodel_config(m, regs);
	memmodel_flush(m);
	int writes = 0;
	uint32_t addrs = 0;
	for (int t = 0; t < 8; t++) {
		uint64_t in[2] = { 100 + (uint64_t)t, 200 + (uint64_t)t };
		const MemCycle *c = memmodel_step(m, in, NULL, NULL);
		if (c->ports[0][0].wen) {
			writes++;
			addrs |= 1u << c->ports[0][0].addr;
		}
	}
	CHECK(writes == 6 && addrs == 0xcf && memmodel_conflicts(m) == 2,
	      "%d writes (addresses 0x%x), %ld dropped; want 6 (0xcf), 2", writes, addrs, memmodel_conflicts(m));
	memmodel_free(m);
	free(regs);
	meminfo_free(mi);
}

/* Two chained tiles of 16 SRAM words hold and replay 32 words. */
static void test_memmodel_chain(void)
{
	MemInfo *mi = tiny_mem(MEM_SRAM, 16, 1, 1, MEM_RECURRENCE, 1, 8);
	CHECK(mi->chain_id >= 0 && mi->regs[mi->chain_id].width == 4, "chain_id has 8 - 4 bits");
	MemModel *tile[2];
	for (int k = 0; k < 2; k++) {
		uint32_t *regs = xcalloc((size_t)mi->nregs, sizeof *regs);
		regs[mi->tile_en] = 1;
		regs[mi->chain_id] = (uint32_t)k;
		AffineMap sched = map3(32, 1, 1, 1, 0, 0, 0), addr = map3(32, 1, 1, 1, 0, 0, 0);
		set_ctrl(mi, regs, 0, &sched, &addr);
		sched.offset = 40;
		set_ctrl(mi, regs, 1, &sched, &addr);
		tile[k] = memmodel_new(mi);
		memmodel_config(tile[k], regs);
		memmodel_flush(tile[k]);
		free(regs);
	}
	int bad = 0, valid = 0;
	uint64_t in[100];
	for (int t = 0; t < 100; t++) {
		in[t] = (uint64_t)(t * 31 + 5);
		const MemCycle *c0 = memmodel_step(tile[0], &in[t], NULL, NULL);
		uint64_t d0 = c0->out[0];
		int v0 = c0->out_valid[0];
		const MemCycle *c1 = memmodel_step(tile[1], &in[t], &d0, &v0);
		int src = t - 41;
		int want = src >= 0 && src < 32;
		valid += c1->out_valid[0];
		if (c1->out_valid[0] != want || (want && c1->out[0] != in[src]))
			bad++;
	}
	CHECK(bad == 0 && valid == 32, "chain of two: %d wrong cycles, %d valid", bad, valid);
	memmodel_free(tile[0]);
	memmodel_free(tile[1]);
	meminfo_free(mi);
}

/* Recurrence deltas and multiplier strides configure the same behaviour. */
static void test_memmodel_recurrence_is_multiply(void)
{
	Rng r;
	rng_seed(&r, 99);
	int bad = 0, fires = 0;
	for (int trial = 0; trial < 40; trial++) {
		MemInfo *rec = tiny_mem(MEM_REGFILE, 8, 0, 1, MEM_RECURRENCE, 0, 8);
		MemInfo *mul = tiny_mem(MEM_REGFILE, 8, 0, 1, MEM_MULTIPLY, 0, 8);
		uint32_t *rr = xcalloc((size_t)rec->nregs, sizeof *rr), *rm = xcalloc((size_t)mul->nregs, sizeof *rm);
		rr[rec->tile_en] = rm[mul->tile_en] = 1;
		for (int c = 0; c < 2; c++) {
			AffineMap s = map3(1 + (int64_t)rng_below(&r, 4), 1 + (int64_t)rng_below(&r, 3),
					   1 + (int64_t)rng_below(&r, 3), 0, 0, 0, (int64_t)rng_below(&r, 20));
			s.stride[0] = 1 + (int64_t)rng_below(&r, 2);
			s.stride[1] = s.stride[0] * s.extent[0] + (int64_t)rng_below(&r, 3);
			s.stride[2] = s.stride[1] * s.extent[1] + (int64_t)rng_below(&r, 3);
			AffineMap a = s;
			for (int l = 0; l < 3; l++)
				a.stride[l] = (int64_t)rng_below(&r, 7) - 3;
			a.offset = (int64_t)rng_below(&r, 8);
			set_ctrl(rec, rr, c, &s, &a);
			set_ctrl(mul, rm, c, &s, &a);
		}
		MemModel *mr = memmodel_new(rec), *mm = memmodel_new(mul);
		memmodel_config(mr, rr);
		memmodel_config(mm, rm);
		memmodel_flush(mr);
		memmodel_flush(mm);
		for (int t = 0; t < 120; t++) {
			uint64_t in = (uint64_t)t * 3;
			const MemCycle *a = memmodel_step(mr, &in, NULL, NULL);
			int f0 = a->fire[0], f1 = a->fire[1], w = a->ports[0][0].wen, ren = a->ports[0][1].ren;
			uint32_t wa = a->ports[0][0].addr, ra = a->ports[0][1].addr;
			int ov = a->out_valid[0];
			uint64_t o = a->out[0];
			const MemCycle *b = memmodel_step(mm, &in, NULL, NULL);
			fires += f0 + f1;
			if (f0 != b->fire[0] || f1 != b->fire[1] || w != b->ports[0][0].wen ||
			    ren != b->ports[0][1].ren || wa != b->ports[0][0].addr || ra != b->ports[0][1].addr ||
			    ov != b->out_valid[0] || o != b->out[0])
				bad++;
		}
		memmodel_free(mr);
		memmodel_free(mm);
		free(rr);
		free(rm);
		meminfo_free(rec);
		meminfo_free(mul);
	}
	CHECK(bad == 0 && fires > 500, "%d cycles differ (%d firings)", bad, fires);
}

/* ---- bitstreams from config.map and routing.graph ---- */

static void test_bitstream(void)
{
	static const char map[] = "# two muxes sharing a register, and a core register\n"
				  "field 00800102 0 1 mux sb16_x1_y2_N_out_t0\n"
				  "field 00800102 2 4 mux x1_y2_data0\n"
				  "field 00000102 0 31 core x1_y2.inst0\n";
	static const char graph[] = "graph g cols 2 rows 3 widths 16\n"
				    "node 0 sb_in 16 1 2 S 0 0.00 a\n"
				    "node 1 sb_in 16 1 2 E 0 0.00 b\n"
				    "node 2 sb_out 16 1 2 N 0 0.14 sb16_x1_y2_N_out_t0\n"
				    "node 3 port_in 16 1 2 - - 0.10 x1_y2_data0\n"
				    "node 4 sb_in 16 1 2 W 0 0.00 c\n"
				    "edge 1 2 0\n"
				    "edge 0 2 1\n"
				    "edge 4 3 0\n"
				    "edge 0 3 1\n"
				    "edge 1 3 2\n";
	Diags *d = diags_new(NULL);
	ConfigMap *m = configmap_load_string("config.map", map, d);
	RGraph *g = rgraph_load_string("routing.graph", graph, d);
	CHECK(m && g && diags_errors(d) == 0, "config.map and routing.graph read");
	if (m && g) {
		CHECK(m->nfields == 3 && configmap_find(m, "x1_y2_data0") == 1, "three fields, found by target");
		CHECK(g->nnodes == 5 && g->nodes[3].nin == 3 && rgraph_select(g, 1, 3) == 2, "edges in select order");
		Bitstream *b = bitstream_new(m);
		CHECK(bitstream_route(b, g, 0, 2) && bitstream_route(b, g, 1, 3), "routes set the selects");
		CHECK(!bitstream_route(b, g, 4, 2), "an edge that does not exist is refused");
		CHECK(bitstream_set(b, "x1_y2.inst0", 0xdeadbeef) && !bitstream_set(b, "x1_y2_data0", 8),
		      "a core register takes a value; a value wider than its field is refused");
		char *text = NULL;
		size_t len = 0;
		FILE *f = open_memstream(&text, &len);
		bitstream_write(b, f);
		fclose(f);
		CHECK(strcmp(text, "00000102 deadbeef\n00800102 00000009\n") == 0, "bitstream:\n%s", text);
		free(text);
		bitstream_free(b);
	}
	configmap_free(m);
	rgraph_free(g);
	diags_free(d);
	d = diags_new(NULL);
	CHECK(!configmap_load_string("bad.map", "field 00800102 5 3 mux a\n", d) && diags_errors(d) == 1 &&
	      diags_get(d, 0)->line == 1 && diags_get(d, 0)->col == 18,
	      "a field whose bits run backwards is an error at the column");
	diags_free(d);
	d = diags_new(NULL);
	CHECK(!rgraph_load_string("bad.graph", "node 0 sb_in 16 0 0 N 0 0 a\nedge 0 0 3\n", d) && diags_errors(d) == 1,
	      "an edge out of select order is an error");
	diags_free(d);
}

/* ---- PE collateral: instruction layout and rules ---- */

static const char pe_info[] = "pe: tiny\n"
			      "instruction:\n"
			      "  width: 10\n"
			      "  fields:\n"
			      "    - { name: op, width: 2, type: Opcode, offset: 0 }\n"
			      "    - { name: k, width: 8, offset: 2 }\n"
			      "enums:\n"
			      "  Opcode: { width: 2, values: { Add: 0, And: 1, Pass: 2 } }\n"
			      "inputs:\n"
			      "  - { name: A, width: 8 }\n"
			      "outputs:\n"
			      "  - { name: res, width: 8 }\n";

static const char pe_rules[] = "pe: tiny\n"
			       "instruction_width: 10\n"
			       "rules:\n"
			       "  - ir: add_const\n"
			       "    pattern: \"add(a, const(k))\"\n"
			       "    size: 2\n"
			       "    cost: 0.5\n"
			       "    instruction: { op: Add, k: $k }\n"
			       "    word: 0x000\n"
			       "    inputs: { a: A }\n"
			       "    params: { k: k }\n"
			       "    outputs: { out: res }\n"
			       "    proof: { status: proved, solver: z3, cegis_rounds: 1 }\n"
			       "  - ir: const\n"
			       "    pattern: const(k)\n"
			       "    size: 1\n"
			       "    cost: 0.1\n"
			       "    instruction: { op: Pass, k: $k }\n"
			       "    word: 0x002\n"
			       "    inputs: {}\n"
			       "    params: { k: k }\n"
			       "    outputs: { out: res }\n"
			       "    proof: { status: proved, solver: z3, cegis_rounds: 1 }\n";

/* text with the first occurrence of from replaced by to (new string) */
static char *replace1(const char *text, const char *from, const char *to)
{
	const char *at = strstr(text, from);
	if (!at)
		return xstrdup(text);
	return xasprintf("%.*s%s%s", (int)(at - text), text, to, at + strlen(from));
}

static void test_peinfo_read(void)
{
	Diags *d = diags_new(NULL);
	PeInfo *p = peinfo_load_string("tiny.info.yaml", pe_info, "tiny.rules.yaml", pe_rules, d);
	CHECK(p != NULL && diags_errors(d) == 0, "the tiny PE's info and rules read (%d errors)", diags_errors(d));
	if (p) {
		CHECK(p->inst_width == 10 && p->nfields == 2 && p->fields[1].offset == 2 && p->fields[0].type == 0,
		      "fields and their enum");
		CHECK(p->nrules == 2 && peinfo_rule(p, "const") == &p->rules[1] && !peinfo_rule(p, "mul"),
		      "rules found by IR operation");
		const PeRule *r = peinfo_rule(p, "const");
		CHECK(r->nparams == 1 && r->params[0].index == 1 && r->noutputs == 1 && r->outputs[0].index == 0 &&
		      r->proved && r->line == 14 && r->col == 5,
		      "the const rule binds k to field k and out to res, at its position");
		uint64_t word[1], k = 0x5a;
		CHECK(peinfo_encode(p, r, &k, word) && word[0] == (0x5aull << 2 | 2), "const(0x5a) encodes to %llx",
		      U64(word[0]));
		k = 0x100;
		CHECK(!peinfo_encode(p, r, &k, word), "a constant wider than its field is refused");
		CHECK(peinfo_input(p, "A") == 0 && peinfo_output(p, "res") == 0 && peinfo_field(p, "z") == -1,
		      "ports and fields by name");
		r = peinfo_rule(p, "add_const");
		CHECK(r->registered && r->registered[0].nsets == 0 && !peinfo_register_input(p, r, 0, word),
		      "a rule without registered: reads its inputs directly");
	}
	peinfo_free(p);
	diags_free(d);
	/* registered: the fields that make the PE read an input one cycle late */
	char *rules = replace1(pe_rules, "inputs: { a: A }", "inputs: { a: A }\n    registered: { a: { op: Pass } }");
	d = diags_new(NULL);
	p = peinfo_load_string("tiny.info.yaml", pe_info, "tiny.rules.yaml", rules, d);
	CHECK(p != NULL && diags_errors(d) == 0, "a rule with a registered input reads (%d errors)", diags_errors(d));
	if (p) {
		const PeRule *r = peinfo_rule(p, "add_const");
		uint64_t word[1], k = 0x5a;
		CHECK(r->registered[0].nsets == 1 && r->registered[0].sets[0].field == 0 &&
		      r->registered[0].sets[0].value == 2,
		      "input a is registered by op = Pass");
		CHECK(peinfo_encode(p, r, &k, word) && peinfo_register_input(p, r, 0, word) &&
		      word[0] == (0x5aull << 2 | 2),
		      "the registered instruction keeps the constant and sets op (%llx)", U64(word[0]));
	}
	peinfo_free(p);
	diags_free(d);
	free(rules);
}

/* Each broken file gives exactly this error at this position. */
static void test_peinfo_errors(void)
{
	static const struct {
		int rules;              /* 1: the change is in the rules file */
		const char *from, *to, *msg;
		int line, col;
	} cases[] = {
		{ 1, "word: 0x002", "word: 0x003", "the word differs from the instruction's fields", 19, 11 },
		{ 1, "{ op: Pass, k: $k }", "{ op: Pass, k: $k, z: 1 }", "no instruction field 'z'", 18, 37 },
		{ 1, "{ op: Pass, k: $k }", "{ k: $k }", "the instruction does not set field 'op'", 18, 18 },
		{ 1, "{ op: Pass, k: $k }", "{ op: Sub, k: $k }", "'Sub' is not a member of the field's enum", 18, 24 },
		{ 1, "k: $k }\n    word: 0x000\n    inputs: { a: A }\n    params: { k: k }",
		  "k: 256 }\n    word: 0x000\n    inputs: { a: A }\n    params: {}", "'256' is not a number that fits the field", 8, 32 },
		{ 1, "{ op: Pass, k: $k }", "{ op: Pass, k: 0 }", "param 'k' is not written $<param> in its field", 21, 13 },
		{ 1, "params: { k: k }\n    outputs: { out: res }\n    proof: { status: proved, solver: z3, cegis_rounds: 1 }\n  - ir: const",
		  "params: {}\n    outputs: { out: res }\n    proof: { status: proved, solver: z3, cegis_rounds: 1 }\n  - ir: const",
		  "'$k' is not bound to its field in params", 8, 18 },
		{ 1, "inputs: { a: A }", "inputs: { a: B }", "no PE input 'B'", 10, 18 },
		{ 1, "outputs: { out: res }", "outputs: { out: flag }", "no PE output 'flag'", 12, 21 },
		{ 1, "pe: tiny\n", "pe: other\n", "the rules are for PE 'other', not for the PE of the info file", 1, 5 },
		{ 1, "instruction_width: 10", "instruction_width: 11", "the instruction width differs from the info file's", 2, 20 },
		{ 1, "    cost: 0.1\n", "    cost: -1\n", "the cost is a delay in ns, not '-1'", 17, 11 },
		{ 1, "    size: 1\n", "    sise: 1\n", "unknown key 'sise'", 16, 5 },
		{ 1, "inputs: { a: A }", "inputs: { a: A }\n    registered: { b: { op: And } }",
		  "'b' is not an input bound in the rule's inputs", 11, 19 },
		{ 1, "inputs: { a: A }", "inputs: { a: A }\n    registered: { a: { z: 1 } }", "no instruction field 'z'", 11, 24 },
		{ 1, "inputs: { a: A }", "inputs: { a: A }\n    registered: { a: { k: 1 } }",
		  "field 'k' holds a param of the rule", 11, 24 },
		{ 1, "inputs: { a: A }", "inputs: { a: A }\n    registered: { a: { op: Sub } }",
		  "'Sub' is not a member of the field's enum", 11, 28 },
		{ 1, "inputs: { a: A }", "inputs: { a: A }\n    registered: { a: {} }", "input 'a' is registered by no field",
		  11, 22 },
		{ 1, "inputs: { a: A }", "inputs: { a: A }\n    registered: [ a ]",
		  "expected a mapping of IR inputs to { field: value }", 11, 17 },
		{ 0, "name: k, width: 8, offset: 2", "name: k, width: 8, offset: 3", "fields are packed LSB-first in order: field 'k' is at the wrong offset", 6, 36 },
		{ 0, "type: Opcode", "type: Op", "unknown enum type 'Op'", 5, 35 },
		{ 0, "width: 10", "width: 12", "the fields do not add up to the instruction width", 3, 10 },
		{ 0, "Pass: 2", "Pass: 4", "the code of member 'Pass' does not fit the enum's width", 8, 55 },
		{ 0, "  - { name: res, width: 8 }", "  - { name: A, width: 8 }", "a second port 'A'", 12, 5 },
	};
	for (int i = 0; i < COUNT(cases); i++) {
		char *info = replace1(pe_info, cases[i].rules ? "\x01" : cases[i].from, cases[i].to);
		char *rules = replace1(pe_rules, cases[i].rules ? cases[i].from : "\x01", cases[i].to);
		Diags *d = diags_new(NULL);
		PeInfo *p = peinfo_load_string("tiny.info.yaml", info, "tiny.rules.yaml", rules, d);
		const Diag *g = diags_errors(d) ? diags_get(d, 0) : NULL;
		CHECK(!p && diags_errors(d) == 1 && g && strstr(g->msg, cases[i].msg) && g->line == cases[i].line &&
		      g->col == cases[i].col,
		      "case %d: expected '%s' at %d:%d, got %d errors, first '%s' at %d:%d", i, cases[i].msg,
		      cases[i].line, cases[i].col, diags_errors(d), g ? g->msg : "", g ? g->line : 0, g ? g->col : 0);
		peinfo_free(p);
		diags_free(d);
		free(info);
		free(rules);
	}
}

static const TestCase tests[] = {
	{ "bv_binary_ops", test_bv_binary_ops },
	{ "bv_unary_ops", test_bv_unary_ops },
	{ "bv_compare", test_bv_compare },
	{ "bv_mulhi_table", test_bv_mulhi_table },
	{ "bv_random_vs_int128", test_bv_random_vs_int128 },
	{ "bv_extract_sext", test_bv_extract_sext },
	{ "bv_parse", test_bv_parse },
	{ "bv_format_hex", test_bv_format_hex },
	{ "bits_set_get", test_bits_set_get },
	{ "bits_hex", test_bits_hex },
	{ "rng_reproducible", test_rng_reproducible },
	{ "rng_below", test_rng_below },
	{ "rng_bits", test_rng_bits },
	{ "strmap_basic", test_strmap_basic },
	{ "strmap_many", test_strmap_many },
	{ "arena_many_allocations", test_arena_many_allocations },
	{ "arena_large", test_arena_large },
	{ "arena_strings", test_arena_strings },
	{ "vec_push_grow", test_vec_push_grow },
	{ "diag_collect", test_diag_collect },
	{ "diag_error_limit", test_diag_error_limit },
	{ "diag_print_caret", test_diag_print_caret },
	{ "diag_print_tab_and_replace", test_diag_print_tab_and_replace },
	{ "diag_print_without_source", test_diag_print_without_source },
	{ "diag_prints_sorted_on_flush", test_diag_prints_sorted_on_flush },
	{ "affine_downsample", test_affine_downsample },
	{ "affine_random", test_affine_random },
	{ "affine_point", test_affine_point },
	{ "yaml_positions", test_yaml_positions },
	{ "yaml_empty_collections", test_yaml_empty_collections },
	{ "yaml_load_file_and_empty", test_yaml_load_file_and_empty },
	{ "yaml_errors", test_yaml_errors },
	{ "yaml_check_keys", test_yaml_check_keys },
	{ "yaml_literal_pos", test_yaml_literal_pos },
	{ "yaml_plain_pos", test_yaml_plain_pos },
	{ "yaml_aliases", test_yaml_aliases },
	{ "yaml_numbers", test_yaml_numbers },
	{ "ywrite_roundtrip", test_ywrite_roundtrip },
	{ "vwrite_literals", test_vwrite_literals },
	{ "vwrite_keywords", test_vwrite_keywords },
	{ "vwrite_lines", test_vwrite_lines },
	{ "outset_commit_abort", test_outset_commit_abort },
	{ "util_mkdir_and_read", test_util_mkdir_and_read },
	{ "util_strings_and_hash", test_util_strings_and_hash },
	{ "meminfo_roundtrip", test_meminfo_roundtrip },
	{ "memmodel_delay_line", test_memmodel_delay_line },
	{ "memmodel_arbitration", test_memmodel_arbitration },
	{ "memmodel_chain", test_memmodel_chain },
	{ "memmodel_recurrence_is_multiply", test_memmodel_recurrence_is_multiply },
	{ "bitstream", test_bitstream },
	{ "peinfo_read", test_peinfo_read },
	{ "peinfo_errors", test_peinfo_errors },
};

int main(void)
{
	return check_run("common", tests, COUNT(tests));
}
