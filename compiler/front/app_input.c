/* app_input.c - input images of applications (app_input.h). */
#define _POSIX_C_SOURCE 200809L /* lstat */

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "../../common/rng.h"
#include "../../common/yamlr.h"
#include "front.h"

int input_spec_load(const char *path, InputSpec *s, Diags *d)
{
	static const char *const patterns[] = { "random", "blocks", NULL };
	static const char *const top[] = { "input", NULL };
	static const char *const keys[] = { "pattern", "range", "seed", NULL };
	s->pattern = PATTERN_RANDOM;
	s->lo = 0;
	s->hi = 255;
	s->seed = 1;
	/* no file: the defaults; anything else of that name (a dangling link, a
	 * folder, a file that cannot be read) is read and refused */
	struct stat st;
	if (lstat(path, &st) != 0 && errno == ENOENT)
		return 1;
	YDoc *doc = ydoc_load_file(path, d);
	if (!doc)
		return 0;
	int ok = 0, seed = 1;
	const YNode *root = doc->root, *in = root && root->kind == YN_MAP ? ymap_get(root, "input") : NULL;
	if (!in || in->kind != YN_MAP) {
		const YNode *at = in ? in : root;
		diag_error(d, path, at ? at->line : 1, at ? at->col : 1,
			   "expected 'input: { pattern: ..., range: [lo, hi], seed: ... }'");
		goto done;
	}
	if (ymap_check_keys(root, top, "the input generator", d) ||
	    ymap_check_keys(in, keys, "input", d))
		goto done;
	const YNode *pat = ymap_get(in, "pattern"), *range = ymap_get(in, "range");
	if (pat) {
		int k = yread_choice(d, pat, "pattern", patterns);
		if (k < 0)
			goto done;
		s->pattern = (InputPattern)k;
	}
	if (range) {
		if (range->kind != YN_SEQ || range->len != 2) {
			ynode_error(d, range, "expected range: [lo, hi]");
			goto done;
		}
		if (!yread_int(d, range->items[0], "range low end", 0, 65535, 0, &s->lo) ||
		    !yread_int(d, range->items[1], "range high end", s->lo, 65535, 255, &s->hi))
			goto done;
	}
	if (!yread_int(d, ymap_get(in, "seed"), "seed", 0, 2147483647, 1, &seed))
		goto done;
	s->seed = (uint64_t)seed;
	ok = 1;
done:
	ydoc_free(doc);
	diags_flush(d);
	return ok;
}

static int clampi(int v, int lo, int hi)
{
	return v < lo ? lo : v > hi ? hi : v;
}

/* A gradient, 24 rectangles of flat random values, and noise of +-3. */
static void blocks(const InputSpec *s, Rng *r, Image *im)
{
	int w = im->extent[0], h = im->dims > 1 ? im->extent[1] : 1;
	long plane = (long)w * h, planes = image_size(im) / (plane ? plane : 1);
	int span = s->hi - s->lo;
	for (long c = 0; c < planes; c++) {
		uint16_t *px = im->px + c * plane;
		for (int y = 0; y < h; y++)
			for (int x = 0; x < w; x++)
				px[x + (long)w * y] = (uint16_t)(s->lo + (long)span * (x + y + (int)c * 7) /
									 (2 * (w + h) + 14));
		for (int k = 0; k < 24; k++) {
			int x0 = (int)rng_below(r, (uint64_t)w), y0 = (int)rng_below(r, (uint64_t)h);
			int x1 = clampi(x0 + 2 + (int)rng_below(r, (uint64_t)(w / 4 + 1)), 0, w);
			int y1 = clampi(y0 + 2 + (int)rng_below(r, (uint64_t)(h / 4 + 1)), 0, h);
			uint16_t v = (uint16_t)(s->lo + (int)rng_below(r, (uint64_t)span + 1));
			for (int y = y0; y < y1; y++)
				for (int x = x0; x < x1; x++)
					px[x + (long)w * y] = v;
		}
		for (long i = 0; i < plane; i++)
			px[i] = (uint16_t)clampi(px[i] + (int)rng_below(r, 7) - 3, s->lo, s->hi);
	}
}

void input_generate(const InputSpec *s, int k, Image *im)
{
	Rng r;
	rng_seed(&r, s->seed * 0x9e3779b97f4a7c15ULL + (uint64_t)k);
	image_alloc(im);
	if (s->pattern == PATTERN_BLOCKS) {
		blocks(s, &r, im);
		return;
	}
	for (long i = 0; i < image_size(im); i++)
		im->px[i] = (uint16_t)(s->lo + (int)rng_below(&r, (uint64_t)(s->hi - s->lo) + 1));
}
