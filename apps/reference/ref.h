/* ref.h - independent C references of the application suite (apps/<app>/<app>.hl),
 * written directly from the definitions of apps/README.md and the exact arithmetic of
 * the .hl files under Halide's rules, not through any interpreter. They check
 * cgrac's interpreter, and real Halide checks them (apps/reference/tests/).
 *
 * Halide's arithmetic as written here (each rule checked against Halide 14 by
 * bin/halide_run semantics):
 *   - uint16 and int16 operations wrap modulo 2^16 (ref_u16, ref_i16 reduce a
 *     wider exact result, which is the same thing for +, - and *);
 *   - an integer literal takes the type of the other operand;
 *   - >> of a signed value is arithmetic (rounds down), / of unsigned by a
 *     power of two is a shift;
 *   - casts between 16-bit types keep the bits; clamp converts its bounds to
 *     the clamped value's type. */
#ifndef APPS_REFERENCE_REF_H
#define APPS_REFERENCE_REF_H

#include <stdint.h>

#include "refimg.h"

typedef struct RefApp {
	const char *name;
	int in_w, in_h, in_c;     /* input image */
	int out_w, out_h, out_c;  /* output image */
	/* Computes out (allocated by the caller at out_w x out_h x out_c) from in
	 * (in_w x in_h x in_c). */
	void (*run)(const RefImage *in, RefImage *out);
} RefApp;

extern const RefApp ref_brighten_blur, ref_gaussian, ref_cascade, ref_harris, ref_unsharp,
    ref_upsample;

/* The application named name, or NULL. */
const RefApp *ref_find(const char *name);
/* The i-th application (NULL past the last), in a fixed order. */
const RefApp *ref_app(int i);

/* v reduced to 16 bits, unsigned or as two's complement signed. */
static inline uint16_t ref_u16(int64_t v)
{
	return (uint16_t)(v & 0xffff);
}

static inline int16_t ref_i16(int64_t v)
{
	int64_t low = v & 0xffff;
	return (int16_t)(low >= 0x8000 ? low - 0x10000 : low);
}

/* Arithmetic shift right: floor(v / 2^s), whatever C does with negative >>. */
static inline int64_t ref_asr(int64_t v, int s)
{
	return v >= 0 ? v >> s : -((-v - 1) >> s) - 1;
}

#endif
