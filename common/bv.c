/* bv.c - see bv.h. */
#include "bv.h"

#include <ctype.h>
#include <string.h>

uint64_t bv_add(uint64_t a, uint64_t b, int w) { return bv_trunc(a + b, w); }
uint64_t bv_sub(uint64_t a, uint64_t b, int w) { return bv_trunc(a - b, w); }
uint64_t bv_mul(uint64_t a, uint64_t b, int w) { return bv_trunc(a * b, w); }
uint64_t bv_neg(uint64_t a, int w) { return bv_trunc(0 - a, w); }
uint64_t bv_not(uint64_t a, int w) { return bv_trunc(~a, w); }

uint64_t bv_shl(uint64_t a, uint64_t s, int w)
{
	return s >= (uint64_t)w ? 0 : bv_trunc(a << s, w);
}

uint64_t bv_lshr(uint64_t a, uint64_t s, int w)
{
	return s >= (uint64_t)w ? 0 : a >> s;
}

uint64_t bv_ashr(uint64_t a, uint64_t s, int w)
{
	int64_t v = bv_sval(a, w);
	if (s >= (uint64_t)w)
		s = (uint64_t)w - 1;
	/* arithmetic shift of a negative value, written without relying on
	 * implementation-defined right shifts */
	uint64_t r = v < 0 ? ~(~(uint64_t)v >> s) : (uint64_t)v >> s;
	return bv_trunc(r, w);
}

int bv_ult(uint64_t a, uint64_t b, int w)
{
	(void)w;
	return a < b;
}

int bv_slt(uint64_t a, uint64_t b, int w)
{
	return bv_sval(a, w) < bv_sval(b, w);
}

uint64_t bv_umulhi(uint64_t a, uint64_t b, int w)
{
	unsigned __int128 p = (unsigned __int128)a * b;
	return bv_trunc((uint64_t)(p >> w), w);
}

uint64_t bv_smulhi(uint64_t a, uint64_t b, int w)
{
	__int128 p = (__int128)bv_sval(a, w) * bv_sval(b, w);
	return bv_trunc((uint64_t)((unsigned __int128)p >> w), w);
}

uint64_t bv_extract(uint64_t a, int hi, int lo)
{
	return bv_trunc(a >> lo, hi - lo + 1);
}

uint64_t bv_sext(uint64_t a, int w, int to)
{
	return bv_trunc((uint64_t)bv_sval(a, w), to);
}

static int digit_value(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	c = tolower(c);
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	return 99;
}

int bv_parse(const char *s, int w, uint64_t *out)
{
	int neg = 0, base = 10;
	if (*s == '-') {
		neg = 1;
		s++;
	}
	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		base = 16;
		s += 2;
	} else if (s[0] == '0' && (s[1] == 'b' || s[1] == 'B')) {
		base = 2;
		s += 2;
	}
	if (!*s)
		return -1;
	unsigned __int128 v = 0;
	int overflow = 0, digits = 0;
	for (; *s; s++) {
		if (*s == '_')
			continue;
		int d = digit_value((unsigned char)*s);
		if (d >= base)
			return -1;
		digits++;
		v = v * (unsigned)base + (unsigned)d;
		if (v >> 64)
			overflow = 1;
	}
	if (!digits)
		return -1;
	if (overflow)
		return -2;
	uint64_t u = (uint64_t)v;
	if (neg) {
		/* -x fits in w bits when x <= 2^(w-1) */
		if (w < 64 ? u > (1ULL << (w - 1)) : u > (1ULL << 63))
			return -2;
		*out = bv_neg(u, w);
		return 0;
	}
	if (u & ~bv_mask(w))
		return -2;
	*out = u;
	return 0;
}

void bv_format_hex(char *buf, uint64_t v, int w)
{
	bits_format_hex(buf, &v, w);
}

void bits_set(uint64_t *words, int offset, int width, uint64_t value)
{
	for (int i = 0; i < width; i++) {
		int b = offset + i;
		uint64_t bit = 1ULL << (b % 64);
		if ((value >> i) & 1)
			words[b / 64] |= bit;
		else
			words[b / 64] &= ~bit;
	}
}

uint64_t bits_get(const uint64_t *words, int offset, int width)
{
	uint64_t v = 0;
	for (int i = 0; i < width; i++) {
		int b = offset + i;
		v |= ((words[b / 64] >> (b % 64)) & 1) << i;
	}
	return v;
}

void bits_format_hex(char *buf, const uint64_t *words, int width)
{
	int nd = (width + 3) / 4;
	if (nd == 0)
		nd = 1;
	for (int d = 0; d < nd; d++) {
		int lo = (nd - 1 - d) * 4;
		int n = width - lo < 4 ? width - lo : 4;
		uint64_t v = n > 0 ? bits_get(words, lo, n) : 0;
		buf[d] = "0123456789abcdef"[v];
	}
	buf[nd] = '\0';
}

int bits_parse_hex(const char *s, uint64_t *words, int width)
{
	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
		s += 2;
	size_t n = strlen(s);
	if (n == 0)
		return -1;
	memset(words, 0, (size_t)BITS_WORDS(width) * sizeof *words);
	for (size_t i = 0; i < n; i++) {
		int d = digit_value((unsigned char)s[n - 1 - i]);
		if (d > 15)
			return -1;
		for (int k = 0; k < 4; k++) {
			int b = (int)i * 4 + k;
			if (!((d >> k) & 1))
				continue;
			if (b >= width)
				return -2;
			words[b / 64] |= 1ULL << (b % 64);
		}
	}
	return 0;
}
