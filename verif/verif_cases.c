/* verif_cases.c - hand-made applications for the co-simulation's tests (see
 * verif_cases.h). Each case routes IO inputs, through PEs or not, to IO
 * outputs with a breadth-first search over the routing graph (nodes of
 * earlier routes of the case are avoided, pipeline registers bypassed unless
 * asked for), sets the PEs' instructions from their rewrite rules, and writes
 * the streams that the compiler would: which pixel goes in or comes out in
 * which cycle. The golden images are computed here from what the case
 * computes, not from its schedule. */
#include "verif_cases.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../collateral/bitstream.h"
#include "../common/bv.h"
#include "../common/image.h"
#include "../common/util.h"

#define W 16                    /* the images of the cases */
#define H 12

typedef struct Stream {
	const char *name, *port, *image;
	int out, width, ndims, dims[3];
	int fixed_dim, fixed_value; /* fixed_dim -1 without */
	long start;
	int nloops;
	long min[2], extent[2], stride[2];
	long coef[3][2], c[3], div[3];  /* one per dimension but the fixed one */
} Stream;

typedef struct Case {
	const Chip *chip;
	const char *name, *ext;
	Bitstream *b;
	unsigned char *used;    /* nodes taken by the case's routes */
	Image in, golden;
	Stream streams[8];
	int nstreams;
	long cycles;
	char note[256];
} Case;

static int is_routing(const RNode *n)
{
	return !strcmp(n->kind, "sb_in") || !strcmp(n->kind, "sb_out") || !strcmp(n->kind, "rmux");
}

/* Routes src to dst through nodes no route of the case took, bypassing every
 * register but the first nregs the route passes (its rmux select 1); the
 * number of registers placed, or -1 if there is no route. */
static int route(Case *k, int src, int dst, int nregs)
{
	const RGraph *g = k->chip->graph;
	int *prev = xmalloc(sizeof(int) * (size_t)g->nnodes), *queue = xmalloc(sizeof(int) * (size_t)g->nnodes);
	for (int i = 0; i < g->nnodes; i++)
		prev[i] = -1;
	int head = 0, tail = 0;
	prev[src] = src;
	queue[tail++] = src;
	while (head < tail && prev[dst] < 0) {
		int u = queue[head++];
		for (int e = 0; e < g->nodes[u].nout; e++) {
			int w = g->nodes[u].out[e];
			if (prev[w] < 0 && !k->used[w] && (w == dst || is_routing(&g->nodes[w]))) {
				prev[w] = u;
				queue[tail++] = w;
			}
		}
	}
	int placed = -1;
	if (prev[dst] >= 0) {
		int len = 0;
		for (int w = dst; w != src; w = prev[w])
			queue[len++] = w;
		queue[len++] = src;
		placed = 0;
		for (int i = len - 1; i >= 0; i--) {   /* from the source */
			int w = queue[i];
			k->used[w] = 1;
			if (w == src)
				continue;
			ALWAYS(bitstream_route(k->b, g, prev[w], w));
			const RNode *n = &g->nodes[w];
			const RNode *reg = n->nin == 2 ? &g->nodes[n->in[1]] : NULL;
			if (placed < nregs && !strcmp(n->kind, "rmux") && reg && !strcmp(reg->kind, "reg") &&
			    reg->nin == 1 && reg->in[0] == prev[w] && !k->used[n->in[1]]) {
				k->used[n->in[1]] = 1;
				ALWAYS(bitstream_route(k->b, g, prev[w], n->in[1]));
				ALWAYS(bitstream_route(k->b, g, n->in[1], w));
				placed++;
			}
		}
	}
	free(prev);
	free(queue);
	return placed;
}

static int node(const Case *k, const char *fmt, int x, int y, const char *port)
{
	char name[128];
	snprintf(name, sizeof name, fmt, x, y, port);
	return rgraph_find(k->chip->graph, name);
}

static int io_in(const Case *k, int x, int w)
{
	char port[32];
	snprintf(port, sizeof port, "io2f_%d", w);
	return node(k, "x%d_y%d_%s", x, 0, port);
}

static int io_out(const Case *k, int x, int w)
{
	char port[32];
	snprintf(port, sizeof port, "f2io_%d", w);
	return node(k, "x%d_y%d_%s", x, 0, port);
}

/* The PE at (x, y) runs IR operation ir with constant kval; its input and
 * output nodes. 0 if the PE has no rule for ir. */
static int pe(Case *k, int x, int y, const char *ir, uint64_t kval, int *in, int *out)
{
	const PeInfo *p = k->chip->pe_info;
	const PeRule *r = peinfo_rule(p, ir);
	uint64_t word[BITS_WORDS(PE_MAX_INST_WIDTH)];
	if (!r || r->ninputs != 1 || r->noutputs != 1 || r->nparams != 1 || !peinfo_encode(p, r, &kval, word))
		return 0;
	for (int reg = 0; reg < (p->inst_width + 31) / 32; reg++) {
		char target[64];
		int w = p->inst_width - 32 * reg;
		snprintf(target, sizeof target, "x%d_y%d.inst%d", x, y, reg);
		if (!bitstream_set(k->b, target, (uint32_t)bits_get(word, 32 * reg, w > 32 ? 32 : w)))
			return 0;
	}
	*in = node(k, "x%d_y%d_%s", x, y, p->inputs[r->inputs[0].index].name);
	*out = node(k, "x%d_y%d_%s", x, y, p->outputs[r->outputs[0].index].name);
	return *in >= 0 && *out >= 0;
}

/* The first PE tile at or after column x of row y. */
static int pe_tile(const Case *k, int x, int y, int *px)
{
	for (; x < k->chip->m->cols; x++)
		if (design_tile(k->chip->m, x, y) == 'P') {
			*px = x;
			return 1;
		}
	return 0;
}

/* Input pixel values: every bit used. */
static uint16_t pattern(long i)
{
	uint32_t h = (uint32_t)(i + 1) * 2654435761u;
	return (uint16_t)(h >> 13);
}

static void image_new(Image *im, int dims, int w, int h, int c)
{
	*im = (Image){ .dims = dims, .extent = { w, h, c } };
	image_alloc(im);
}

/* A stream over a w x h image (dimensions 0 and 1 from loops 0 and 1, x
 * fastest), one point per cycle from start. */
static Stream *raster(Case *k, const char *name, int out, const char *port, int width, const Image *im, long start)
{
	Stream *s = &k->streams[k->nstreams++];
	*s = (Stream){ .name = name, .out = out, .port = port, .width = width, .ndims = im->dims, .fixed_dim = -1,
		       .start = start, .nloops = 2 };
	for (int i = 0; i < im->dims; i++)
		s->dims[i] = im->extent[i];
	s->image = out ? arena_printf(k->chip->m->arena, "golden.%s", k->ext)
		       : arena_printf(k->chip->m->arena, "%s.input.%s", k->name, k->ext);
	int w = im->extent[0], h = im->extent[1];
	s->extent[0] = w, s->stride[0] = 1;
	s->extent[1] = h, s->stride[1] = w;
	s->coef[0][0] = 1, s->coef[1][1] = 1;
	s->div[0] = s->div[1] = s->div[2] = 1;
	return s;
}

static void write_stream(FILE *f, const Stream *s)
{
	fprintf(f, "  - name: %s\n    dir: %s\n    port: %s\n    width: %d\n    image: %s\n    dims: [", s->name,
		s->out ? "out" : "in", s->port, s->width, s->image);
	for (int i = 0; i < s->ndims; i++)
		fprintf(f, "%s%d", i ? ", " : "", s->dims[i]);
	fprintf(f, "]\n");
	if (s->fixed_dim >= 0)
		fprintf(f, "    fixed: { dim: %d, value: %d }\n", s->fixed_dim, s->fixed_value);
	fprintf(f, "    start: %ld\n    loops:\n", s->start);
	for (int l = 0; l < s->nloops; l++)
		fprintf(f, "      - { min: %ld, extent: %ld, stride: %ld }\n", s->min[l], s->extent[l], s->stride[l]);
	fprintf(f, "    index:\n");
	for (int i = 0; i < s->ndims - (s->fixed_dim >= 0); i++) {
		fprintf(f, "      - { coef: [");
		for (int l = 0; l < s->nloops; l++)
			fprintf(f, "%s%ld", l ? ", " : "", s->coef[i][l]);
		fprintf(f, "], c: %ld, div: %ld }\n", s->c[i], s->div[i]);
	}
}

static int write_case(Case *k, const char *dir)
{
	char *cdir = util_path_join(dir, k->name);
	int ok = util_mkdir_p(cdir) == 0;
	OutSet *set = outset_new();
	const char *bs = arena_printf(k->chip->m->arena, "%s/%s.bs", cdir, k->name);
	const char *io = arena_printf(k->chip->m->arena, "%s/%s.io.yaml", cdir, k->name);
	const char *in = arena_printf(k->chip->m->arena, "%s/%s.input.%s", cdir, k->name, k->ext);
	const char *gold = arena_printf(k->chip->m->arena, "%s/golden.%s", cdir, k->ext);
	FILE *fb = ok ? outset_open(set, bs) : NULL, *fy = fb ? outset_open(set, io) : NULL;
	FILE *fi = fy ? outset_open(set, in) : NULL, *fg = fi ? outset_open(set, gold) : NULL;
	char *err = NULL;
	ok = fg && image_write(&k->in, in, fi, &err) && image_write(&k->golden, gold, fg, &err);
	if (ok) {
		bitstream_write(k->b, fb);
		fprintf(fy, "# Written by bin/verif cases (format: verif/README.md, \"Applications\"): %s.\n"
			    "app: %s\ndesign: %s\nbitstream: %s.bs\ncycles: %ld\nstreams:\n",
			k->note, k->name, k->chip->m->name, k->name, k->cycles);
		for (int i = 0; i < k->nstreams; i++)
			write_stream(fy, &k->streams[i]);
	}
	if (err)
		fprintf(stderr, "verif cases: %s\n", err);
	free(err);
	free(cdir);
	if (!ok) {
		outset_abort(set);
		return 0;
	}
	return outset_commit(set) == 0;
}

/* ---- the cases ---- */

/* An input image through the switch boxes to an output: output = input. */
static int identity(Case *k)
{
	if (route(k, io_in(k, 0, 16), io_out(k, 1, 16), 0) < 0)
		return 0;
	image_new(&k->in, 2, W, H, 1);
	image_new(&k->golden, 2, W, H, 1);
	for (long i = 0; i < W * H; i++)
		k->golden.px[i] = k->in.px[i] = pattern(i);
	raster(k, "input", 0, "io_in_x0_16", 16, &k->in, 0);
	raster(k, "output", 1, "io_out_x1_16", 16, &k->golden, 0);
	k->cycles = W * H + 2;
	snprintf(k->note, sizeof k->note, "io_in_x0_16 routed to io_out_x1_16");
	return 1;
}

/* Through one PE: output = 2 * input (mul_const). */
static int twice(Case *k)
{
	int x, in, out;
	if (!pe_tile(k, 0, 1, &x) || !pe(k, x, 1, "mul_const", 2, &in, &out) || route(k, io_in(k, 0, 16), in, 0) < 0 ||
	    route(k, out, io_out(k, 1, 16), 0) < 0)
		return 0;
	image_new(&k->in, 2, W, H, 1);
	image_new(&k->golden, 2, W, H, 1);
	for (long i = 0; i < W * H; i++) {
		k->in.px[i] = pattern(i);
		k->golden.px[i] = (uint16_t)(2 * k->in.px[i]);
	}
	raster(k, "input", 0, "io_in_x0_16", 16, &k->in, 0);
	raster(k, "output", 1, "io_out_x1_16", 16, &k->golden, 0);
	k->cycles = W * H + 2;
	snprintf(k->note, sizeof k->note, "the PE at (%d, 1) computes mul_const(a, 2)", x);
	return 1;
}

/* Through two PEs: output = (input + 7) * 3 (add_const, then mul_const). */
static int affine(Case *k)
{
	int x0, x1, in0, out0, in1, out1;
	if (!pe_tile(k, 0, 2, &x0) || !pe_tile(k, x0 + 1, 2, &x1) || !pe(k, x0, 2, "add_const", 7, &in0, &out0) ||
	    !pe(k, x1, 2, "mul_const", 3, &in1, &out1) || route(k, io_in(k, 0, 16), in0, 0) < 0 ||
	    route(k, out0, in1, 0) < 0 || route(k, out1, io_out(k, 1, 16), 0) < 0)
		return 0;
	image_new(&k->in, 2, W, H, 1);
	image_new(&k->golden, 2, W, H, 1);
	for (long i = 0; i < W * H; i++) {
		k->in.px[i] = pattern(i);
		k->golden.px[i] = (uint16_t)((k->in.px[i] + 7) * 3);
	}
	raster(k, "input", 0, "io_in_x0_16", 16, &k->in, 0);
	raster(k, "output", 1, "io_out_x1_16", 16, &k->golden, 0);
	k->cycles = W * H + 2;
	snprintf(k->note, sizeof k->note, "the PEs at (%d, 2) and (%d, 2) compute add_const(a, 7), mul_const(a, 3)", x0,
		 x1);
	return 1;
}

/* Through a PE with three switch-box pipeline registers on the way: the
 * output stream starts three cycles later. */
static int pipeline(Case *k)
{
	int x, in, out, regs = 3;
	if (!pe_tile(k, 1, 2, &x) || !pe(k, x, 2, "add_const", 0x1234, &in, &out))
		return 0;
	int r0 = route(k, io_in(k, 0, 16), in, regs);
	int r1 = r0 < 0 ? -1 : route(k, out, io_out(k, 2, 16), regs - r0);
	if (r1 < 0 || r0 + r1 != regs)
		return 0;
	image_new(&k->in, 2, W, H, 1);
	image_new(&k->golden, 2, W, H, 1);
	for (long i = 0; i < W * H; i++) {
		k->in.px[i] = pattern(i);
		k->golden.px[i] = (uint16_t)(k->in.px[i] + 0x1234);
	}
	raster(k, "input", 0, "io_in_x0_16", 16, &k->in, 0);
	raster(k, "output", 1, "io_out_x2_16", 16, &k->golden, regs);
	k->cycles = W * H + regs + 2;
	snprintf(k->note, sizeof k->note, "the PE at (%d, 2) computes add_const(a, 0x1234), %d registers on the way (%d "
		 "before it)", x, regs, r0);
	return 1;
}

/* Three colour channels: two of them one after the other on one port, the
 * third in parallel on another (streams with `fixed`). */
static int rgb(Case *k)
{
	if (k->chip->m->cols < 4 || route(k, io_in(k, 0, 16), io_out(k, 1, 16), 0) < 0 ||
	    route(k, io_in(k, 2, 16), io_out(k, 3, 16), 0) < 0)
		return 0;
	k->ext = "ppm";
	image_new(&k->in, 3, W, H, 3);
	image_new(&k->golden, 3, W, H, 3);
	for (long i = 0; i < W * H * 3; i++)
		k->golden.px[i] = k->in.px[i] = pattern(i);
	static const char *const names[][2] = { { "red_in", "red_out" }, { "green_in", "green_out" },
						{ "blue_in", "blue_out" } };
	for (int ch = 0; ch < 3; ch++) {
		long start = ch == 1 ? W * H : 0;
		Stream *si = raster(k, names[ch][0], 0, ch < 2 ? "io_in_x0_16" : "io_in_x2_16", 16, &k->in, start);
		Stream *so = raster(k, names[ch][1], 1, ch < 2 ? "io_out_x1_16" : "io_out_x3_16", 16, &k->golden, start);
		si->fixed_dim = so->fixed_dim = 2;
		si->fixed_value = so->fixed_value = ch;
	}
	k->cycles = 2 * W * H + 2;
	snprintf(k->note, sizeof k->note, "red and green on io_in_x0_16 to io_out_x1_16, blue on io_in_x2_16 to "
		 "io_out_x3_16");
	return 1;
}

/* Loop bounds, offsets, divisions and a negative stride: the input image
 * (H/2 x W/2) is read transposed and upsampled by 2, the output written
 * mirrored in x: golden(x, y) = in(floor(y / 2), floor((W - 1 - x) / 2)). */
static int resample(Case *k)
{
	if (route(k, io_in(k, 0, 16), io_out(k, 1, 16), 0) < 0)
		return 0;
	int iw = H / 2, ih = W / 2;
	image_new(&k->in, 2, iw, ih, 1);
	image_new(&k->golden, 2, W, H, 1);
	for (long i = 0; i < iw * ih; i++)
		k->in.px[i] = pattern(i);
	for (int y = 0; y < H; y++)
		for (int x = 0; x < W; x++)
			k->golden.px[x + W * y] = k->in.px[y / 2 + iw * ((W - 1 - x) / 2)];
	/* the input: loop i_0 = x (0..W-1), i_1 = y + 1 (1..H), one point per cycle */
	Stream *si = raster(k, "input", 0, "io_in_x0_16", 16, &k->in, 0);
	si->extent[0] = W, si->stride[0] = 1;
	si->min[1] = 1, si->extent[1] = H, si->stride[1] = W;
	si->coef[0][0] = 0, si->coef[0][1] = 1, si->c[0] = -1, si->div[0] = 2;  /* floor((i_1 - 1) / 2) */
	si->coef[1][0] = 1, si->coef[1][1] = 0, si->c[1] = 0, si->div[1] = 2;   /* floor(i_0 / 2) */
	/* the output: pixel (i_0, i_1 - 1) in cycle W - 1 - i_0 + W * (i_1 - 1) */
	Stream *so = raster(k, "output", 1, "io_out_x1_16", 16, &k->golden, W - 1);
	so->stride[0] = -1;
	so->min[1] = 1;
	so->c[1] = -1;
	k->cycles = W * H + 2;
	snprintf(k->note, sizeof k->note, "io_in_x0_16 routed to io_out_x1_16; a %dx%d image read transposed and "
		 "upsampled, written mirrored", iw, ih);
	return 1;
}

/* The 1-bit network: a pattern of bits from io_in_x0_1 to io_out_x1_1. */
static int bits(Case *k)
{
	if (io_in(k, 0, 1) < 0 || io_out(k, 1, 1) < 0 || route(k, io_in(k, 0, 1), io_out(k, 1, 1), 0) < 0)
		return 0;
	image_new(&k->in, 2, W, H, 1);
	image_new(&k->golden, 2, W, H, 1);
	for (long i = 0; i < W * H; i++)
		k->golden.px[i] = k->in.px[i] = pattern(i) & 1;
	raster(k, "input", 0, "io_in_x0_1", 1, &k->in, 0);
	raster(k, "output", 1, "io_out_x1_1", 1, &k->golden, 0);
	k->cycles = W * H + 2;
	snprintf(k->note, sizeof k->note, "io_in_x0_1 routed to io_out_x1_1");
	return 1;
}

int verif_cases_write(const Chip *chip, const char *dir)
{
	static const struct {
		const char *name;
		int (*make)(Case *);
	} cases[] = { { "identity", identity }, { "twice", twice },   { "affine", affine }, { "pipeline", pipeline },
		      { "rgb", rgb },           { "resample", resample }, { "bits", bits } };
	int status = 0;
	if (util_mkdir_p(dir) != 0) {
		fprintf(stderr, "verif cases: cannot create %s\n", dir);
		return 1;
	}
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		Case k = { .chip = chip, .name = cases[i].name, .ext = "pgm", .b = bitstream_new(chip->map),
			   .used = xcalloc((size_t)chip->graph->nnodes, 1) };
		if (chip->graph->cols < 2 || io_in(&k, 0, 16) < 0 || io_out(&k, 1, 16) < 0 || !cases[i].make(&k)) {
			printf("verif cases: %-9s cannot be built on %s (skipped)\n", k.name, chip->m->name);
		} else if (!write_case(&k, dir)) {
			fprintf(stderr, "verif cases: cannot write %s/%s\n", dir, k.name);
			status = 1;
		} else {
			printf("verif cases: %-9s %s\n", k.name, k.note);
		}
		image_free(&k.in);
		image_free(&k.golden);
		free(k.used);
		bitstream_free(k.b);
	}
	return status;
}
