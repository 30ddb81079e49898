/* bv.h - bit-vector arithmetic for widths 1 to 64, held in the low bits of a
 * uint64_t (bits above the width are always zero), and wide bit strings (such as
 * a packed instruction) held in arrays of 64-bit words, least significant first. */
#ifndef COMMON_BV_H
#define COMMON_BV_H

#include <stddef.h>
#include <stdint.h>

#define BV_MAX_WIDTH 64

static inline uint64_t bv_mask(int w)
{
	return w >= 64 ? ~0ULL : ((1ULL << w) - 1);
}

static inline uint64_t bv_trunc(uint64_t a, int w) { return a & bv_mask(w); }
static inline int bv_msb(uint64_t a, int w) { return (int)((a >> (w - 1)) & 1); }
/* The value as a signed integer. */
static inline int64_t bv_sval(uint64_t a, int w)
{
	return bv_msb(a, w) ? (int64_t)(a | ~bv_mask(w)) : (int64_t)a;
}

uint64_t bv_add(uint64_t a, uint64_t b, int w);
uint64_t bv_sub(uint64_t a, uint64_t b, int w);
uint64_t bv_mul(uint64_t a, uint64_t b, int w);
uint64_t bv_neg(uint64_t a, int w);
uint64_t bv_not(uint64_t a, int w);
/* Shifts by an unsigned amount; amounts >= w give 0 (or all sign bits for ashr). */
uint64_t bv_shl(uint64_t a, uint64_t s, int w);
uint64_t bv_lshr(uint64_t a, uint64_t s, int w);
uint64_t bv_ashr(uint64_t a, uint64_t s, int w);
int bv_ult(uint64_t a, uint64_t b, int w);
int bv_slt(uint64_t a, uint64_t b, int w);
/* Upper w bits of the 2w-bit product. */
uint64_t bv_umulhi(uint64_t a, uint64_t b, int w);
uint64_t bv_smulhi(uint64_t a, uint64_t b, int w);
/* Bits hi..lo inclusive. */
uint64_t bv_extract(uint64_t a, int hi, int lo);
uint64_t bv_sext(uint64_t a, int w, int to);

/* Parses a decimal, 0x, 0b (or negative decimal, two's complement) literal into
 * width w. Returns 0 on success, -1 if malformed, -2 if it does not fit. */
int bv_parse(const char *s, int w, uint64_t *out);
/* Writes w bits as hexadecimal digits (ceil(w/4) of them, no prefix). */
void bv_format_hex(char *buf, uint64_t v, int w);

/* Wide bit strings: nwords = (width + 63) / 64. */
#define BITS_WORDS(w) (((w) + 63) / 64)
void bits_set(uint64_t *words, int offset, int width, uint64_t value);
/* Reads width (at most 64) bits at offset. */
uint64_t bits_get(const uint64_t *words, int offset, int width);
/* Writes width bits as hexadecimal digits, most significant first; buf holds
 * at least width/4 + 2 characters. */
void bits_format_hex(char *buf, const uint64_t *words, int width);
/* Parses hexadecimal digits (optional 0x) into width bits; 0 on success. */
int bits_parse_hex(const char *s, uint64_t *words, int width);

#endif
