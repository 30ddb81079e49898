/* test_bv.c - unit tests of bv.h: bit-vector arithmetic on 1..64 bits (table
 * cases at widths 1, small and 64, shifts by amounts at and past the width,
 * random cases checked against an __int128 reference computed without bv.h),
 * extraction and sign extension, literal parsing and hex formatting, and the
 * wide bit strings (bits_set/get and hex on 130 bits).
 *
 * Each test is a function run by main (check.h); the last line is
 * "bv: N passed, M failed"; the exit status is 1 if anything failed. */

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "fixtures.h"
#include "../bv.h"
#include "../rng.h"

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
};

int main(void)
{
	return check_run("bv", tests, COUNT(tests));
}
