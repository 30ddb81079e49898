/* gen.c - deterministic input images: see gen.h. */
#include "gen.h"

#include <string.h>

#include "../../common/diag.h"
#include "../../common/rng.h"
#include "../../common/yamlr.h"

static const char *const pattern_words[] = { "random", "blocks", NULL };

int gen_pattern(const char *word)
{
	for (int i = 0; pattern_words[i]; i++)
		if (strcmp(word, pattern_words[i]) == 0)
			return i;
	return -1;
}

/* range: [LO, HI] with 0 <= LO <= HI <= 65535. */
static void read_range(Diags *d, const YNode *n, GenSettings *s)
{
	if (!n) {
		diag_error(d, NULL, 0, 0, "input: missing 'range'");
		return;
	}
	if (n->kind != YN_SEQ || n->len != 2) {
		ynode_error(d, n, "range must be [LO, HI]");
		return;
	}
	if (yread_int(d, n->items[0], "range's low end", 0, 65535, 0, &s->lo) &&
	    yread_int(d, n->items[1], "range's high end", 0, 65535, 0, &s->hi) && s->lo > s->hi)
		ynode_error(d, n, "range [%d, %d] is empty", s->lo, s->hi);
}

static void read_input(Diags *d, const YNode *in, GenSettings *s)
{
	static const char *const keys[] = { "pattern", "range", "seed", NULL };
	if (!ynode_expect(in, YN_MAP, "a mapping { pattern, range, seed }", d))
		return;
	ymap_check_keys(in, keys, "input", d);
	const YNode *pattern = ymap_get(in, "pattern");
	if (pattern)
		s->pattern = (GenPattern)yread_choice(d, pattern, "pattern", pattern_words);
	else
		diag_error(d, in->file, in->line, in->col, "input: missing 'pattern'");
	read_range(d, ymap_get(in, "range"), s);
	int seed = 0;
	if (yread_int(d, ymap_get(in, "seed"), "seed", 0, 2147483647, 1, &seed))
		s->seed = (uint64_t)seed;
}

int gen_read_settings(const char *path, GenSettings *s)
{
	static const char *const keys[] = { "input", NULL };
	Diags *d = diags_new(stderr);
	YDoc *doc = ydoc_load_file(path, d);
	if (doc && doc->root && ynode_expect(doc->root, YN_MAP, "a mapping with 'input'", d)) {
		ymap_check_keys(doc->root, keys, "the settings", d);
		const YNode *in = ymap_get(doc->root, "input");
		if (in)
			read_input(d, in, s);
		else
			diag_error(d, path, doc->root->line, doc->root->col, "missing 'input'");
	} else if (doc) {
		diag_error(d, path, 1, 1, "expected a mapping with 'input'");
	}
	int errors = diags_errors(d);
	if (doc)
		ydoc_free(doc);
	diags_free(d);
	return errors ? -1 : 0;
}

static int uniform(Rng *r, int lo, int hi)
{
	return lo + (int)rng_below(r, (uint64_t)(hi - lo) + 1);
}

static void fill_random(RefImage *im, Rng *r, int lo, int hi)
{
	for (int c = 0; c < im->c; c++)
		for (int y = 0; y < im->h; y++)
			for (int x = 0; x < im->w; x++)
				refimg_set(im, x, y, c, (uint16_t)uniform(r, lo, hi));
}

static void fill_rect(RefImage *im, int c, int x0, int y0, int w, int h, uint16_t v)
{
	for (int y = y0; y < y0 + h && y < im->h; y++)
		for (int x = x0; x < x0 + w && x < im->w; x++)
			refimg_set(im, x, y, c, v);
}

static void fill_blocks(RefImage *im, Rng *r, int lo, int hi)
{
	long span = im->w + im->h - 2 > 0 ? im->w + im->h - 2 : 1;
	int noise = (hi - lo) / 64 > 1 ? (hi - lo) / 64 : 1;
	int max_w = im->w / 3 > 4 ? im->w / 3 : 4, max_h = im->h / 3 > 4 ? im->h / 3 : 4;
	for (int c = 0; c < im->c; c++) {
		for (int y = 0; y < im->h; y++)
			for (int x = 0; x < im->w; x++)
				refimg_set(im, x, y, c, (uint16_t)(lo + (long)(hi - lo) * (x + y) / span));
		for (int k = 0; k < 12; k++) {
			int x0 = uniform(r, 0, im->w - 1), y0 = uniform(r, 0, im->h - 1);
			int w = uniform(r, 4, max_w), h = uniform(r, 4, max_h);
			fill_rect(im, c, x0, y0, w, h, (uint16_t)uniform(r, lo, hi));
		}
		for (int y = 0; y < im->h; y++)
			for (int x = 0; x < im->w; x++) {
				int v = refimg_get(im, x, y, c) + uniform(r, -noise, noise);
				refimg_set(im, x, y, c, (uint16_t)(v < lo ? lo : v > hi ? hi : v));
			}
	}
}

RefImage *gen_image(const GenSettings *s, int w, int h, int c)
{
	RefImage *im = refimg_new(w, h, c);
	if (!im)
		return NULL;
	Rng r;
	rng_seed(&r, s->seed);
	if (s->pattern == GEN_BLOCKS)
		fill_blocks(im, &r, s->lo, s->hi);
	else
		fill_random(im, &r, s->lo, s->hi);
	return im;
}
