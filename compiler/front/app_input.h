/* app_input.h - the deterministic input generator of an application, set by
 * the optional apps/<app>/input.yaml beside its .hl file:
 *     input: { pattern: random | blocks, range: [LO, HI], seed: S }
 * `random` draws every pixel uniformly in [LO, HI]; `blocks` draws a smooth
 * gradient with random rectangles of flat values on it and a little noise,
 * so that edges and corners exist. Without the file: random, [0, 255], 1. */
#ifndef COMPILER_APP_INPUT_H
#define COMPILER_APP_INPUT_H

#include <stdint.h>

#include "../../common/diag.h"
#include "../../common/image.h"

typedef enum { PATTERN_RANDOM, PATTERN_BLOCKS } InputPattern;

typedef struct InputSpec {
	InputPattern pattern;
	int lo, hi;
	uint64_t seed;
} InputSpec;

/* Reads path into s (defaults when the file does not exist); 0 with errors
 * in d. */
int input_spec_load(const char *path, InputSpec *s, __keep Diags *d);
/* Fills im (dims and extents set, px allocated here) for input number k. */
void input_generate(const InputSpec *s, int k, Image *im);

#endif
