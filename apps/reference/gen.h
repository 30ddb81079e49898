/* gen.h - deterministic input images for the application suite: the settings
 * of apps/<app>/input.yaml,
 *     input: { pattern: random | blocks, range: [LO, HI], seed: N }
 * and the two patterns. The same settings and size give the same image on
 * every machine (the generator is common/rng's).
 *
 *   random: every sample uniform in [LO, HI], drawn x fastest, then y, then c.
 *   blocks: per channel, a diagonal gradient from LO at (0, 0) to HI at
 *           (w-1, h-1); then 12 rectangles, each at a uniform corner in the
 *           image, 4 to max(4, w/3) by 4 to max(4, h/3) pixels (clipped to the
 *           image), filled with a uniform level in [LO, HI], later ones on top;
 *           then noise uniform in [-a, a], a = max(1, (HI - LO) / 64), clamped
 *           to [LO, HI]. */
#ifndef APPS_REFERENCE_GEN_H
#define APPS_REFERENCE_GEN_H

#include <stdint.h>

#include "refimg.h"

typedef enum { GEN_RANDOM, GEN_BLOCKS } GenPattern;

typedef struct GenSettings {
	GenPattern pattern;
	int lo, hi;       /* 0 <= lo <= hi <= 65535 */
	uint64_t seed;
} GenSettings;

/* Reads the settings of an input.yaml file into *s; 0 on success, else the
 * errors are printed with their positions. */
int gen_read_settings(const char *path, GenSettings *s);
/* The pattern named word ("random", "blocks"); -1 if none. */
int gen_pattern(const char *word);
/* A new w x h x c image made by s; NULL if the size is out of range. */
RefImage *gen_image(const GenSettings *s, int w, int h, int c);

#endif
