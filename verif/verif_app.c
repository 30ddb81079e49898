/* verif_app.c - the co-simulation of an application (see verif_app.h).
 *
 * The io.yaml is read with positions and checked before anything runs: its
 * ports against the design, its images against their `dims`, every point of
 * every stream (its cycle within the run, distinct within the stream; its
 * pixel within the image; an input value that fits the port; no two input
 * streams on one port in one cycle; every pixel of a golden image written by
 * exactly one output point). The streams are then expanded into one file per
 * input port (its value in each cycle) and a command file for vsim
 * (`reset`, `bitstream`, `flush`, `drive`, `record`, `run`), which records
 * every output port in every cycle; the recorded values are put back at
 * their points' pixels. */
#define _POSIX_C_SOURCE 200809L

#include "verif_app.h"

#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../collateral/bitstream.h"
#include "../collateral/chip.h"
#include "../common/arena.h"
#include "../common/diag.h"
#include "../common/image.h"
#include "../common/util.h"
#include "../common/vec.h"
#include "../common/yamlr.h"

#define MAX_CYCLES 100000000LL
#define MAX_LOOPS 16
#define MAX_DIMS 4
#define MAX_LISTED 10           /* mismatches printed; sim.log holds up to 100 */
#define MAX_LOGGED 100
#define BIG (1LL << 30)         /* bound of loop bounds, extents and constants */
#define COEF (1LL << 20)        /* bound of coefficients and strides */
#define FORMAT "(verif/README.md, \"Applications\")"

typedef struct Loop {
	long long min, extent, stride;
} Loop;

#define MAX_RUN_LOOPS 4

typedef struct Index {
	long long coef[MAX_LOOPS], c, div;
	long long shift[MAX_RUN_LOOPS]; /* added per iteration of each run loop */
	const YNode *node;
} Index;

/* An image of the application: an input, or a golden image with the output
 * assembled for it. */
typedef struct AppImage {
	const char *name, *path;        /* as written; resolved */
	int golden;
	Image im;
	uint16_t *got;                  /* golden: the assembled output */
	int *src;                       /* golden: per pixel, the stream that wrote it (-1: none) */
	int32_t *cycle;                 /* golden: per pixel, its point's cycle */
	const YNode *node;              /* the first image: of the streams naming it */
} AppImage;

typedef struct Stream {
	const char *name, *port, *image;
	int out, width, ndims;
	int tbits, tsigned;             /* the values' type ('type', default uint<width>) */
	long long dims[MAX_DIMS];
	int fixed_dim;                  /* -1 without */
	long long fixed_value;
	long long fixed_shift[MAX_RUN_LOOPS];   /* added per iteration of each run loop */
	long long start;
	Loop loops[MAX_LOOPS];
	int nloops;
	Index index[MAX_DIMS];
	int nindex;
	const YNode *node, *port_node, *image_node, *start_node, *loops_node;
	int img;                        /* index into App.images */
	int slot;                       /* index into App.ports */
	long npoints;
	int32_t *cycle;                 /* per point */
	long *pixel;                    /* per point: its position in the image's px */
} Stream;

/* A top-level port of the array the run drives (inputs) or records (outputs). */
typedef struct PortUse {
	const char *name;
	int out, width;
	uint16_t *value;                /* per cycle: driven, or recorded */
	int *owner;                     /* inputs: per cycle, the stream driving it (-1: none) */
	long last;                      /* inputs: the last driven cycle (-1: none) */
} PortUse;

typedef struct App {
	Arena *a;
	Diags *d;
	const VerifAppOptions *opt;
	const char *file, *dir;         /* the io.yaml and its folder */
	const char *ddir;               /* the design's folder */
	const char *util;               /* the fast simulator's line on the PEs' utilization */
	const char *app, *design, *bitstream;
	const YNode *design_node, *bitstream_node;
	long long cycles;               /* of one run */
	long long runs, total;          /* runs (1 without 'runs'), and the cycles of them all */
	int nrun_loops;
	long long run_extent[MAX_RUN_LOOPS];    /* level 0 innermost */
	long long run_n;                /* cycles the simulator reported running, and */
	double run_s;                   /*   in how many seconds */
	Stream *streams;
	int nstreams;
	AppImage images[64];
	int nimages;
	PortUse ports[64];
	int nports;
	const char *out, *work, *work_tmp;
	StrBuf log;
} App;

/* ---- reading the io.yaml ---- */

static const YNode *need(App *p, const YNode *map, const char *key, YNodeKind kind, const char *what)
{
	const YNode *n = ymap_get(map, key);
	if (!n) {
		ynode_error(p->d, map, "missing '%s' " FORMAT, key);
		return NULL;
	}
	return ynode_expect(n, kind, what, p->d) ? n : NULL;
}

static int number(App *p, const YNode *n, const char *key, long long lo, long long hi, long long *out)
{
	long long v;
	if (n->kind != YN_SCALAR || yscalar_int(n, &v) != 0) {
		ynode_error(p->d, n, "expected an integer for '%s'", key);
		return 0;
	}
	if (v < lo || v > hi) {
		ynode_error(p->d, n, "'%s' is %lld, out of range (%lld to %lld)", key, v, lo, hi);
		return 0;
	}
	*out = v;
	return 1;
}

/* map[key], an integer in [lo, hi]; dflt when absent unless required. */
static int field(App *p, const YNode *map, const char *key, long long lo, long long hi, int required, long long dflt,
		 long long *out)
{
	const YNode *n = ymap_get(map, key);
	if (!n && !required) {
		*out = dflt;
		return 1;
	}
	if (!n) {
		ynode_error(p->d, map, "missing '%s' " FORMAT, key);
		return 0;
	}
	return number(p, n, key, lo, hi, out);
}

static const char *text(App *p, const YNode *map, const char *key, const char *what)
{
	const YNode *n = need(p, map, key, YN_SCALAR, what);
	if (n && !n->value[0]) {
		ynode_error(p->d, n, "'%s' is empty", key);
		return NULL;
	}
	return n ? n->value : NULL;
}

static const char *resolve(App *p, const char *name)
{
	return name[0] == '/' ? name : arena_printf(p->a, "%s/%s", p->dir, name);
}

static int read_loops(App *p, Stream *s, const YNode *map)
{
	const YNode *l = s->loops_node = need(p, map, "loops", YN_SEQ, "a list of loops, level 0 (innermost) first");
	if (!l)
		return 0;
	if (l->len > MAX_LOOPS) {
		ynode_error(p->d, l, "%d loops; at most %d", l->len, MAX_LOOPS);
		return 0;
	}
	static const char *const keys[] = { "min", "extent", "stride", NULL };
	int ok = 1;
	s->nloops = l->len;
	for (int i = 0; i < l->len; i++) {
		const YNode *e = l->items[i];
		Loop *lp = &s->loops[i];
		if (!ynode_expect(e, YN_MAP, "a loop: { min, extent, stride }", p->d)) {
			ok = 0;
			continue;
		}
		ok &= ymap_check_keys(e, keys, "a loop", p->d) == 0;
		ok &= field(p, e, "min", -BIG, BIG, 1, 0, &lp->min);
		ok &= field(p, e, "extent", 1, BIG, 1, 0, &lp->extent);
		ok &= field(p, e, "stride", -COEF, COEF, 1, 0, &lp->stride);
	}
	return ok;
}

/* A map's optional 'shift': one per loop of 'runs'. */
static int read_shift(App *p, const YNode *map, long long *shift)
{
	const YNode *sh = ymap_get(map, "shift");
	if (!sh)
		return 1;
	if (!ynode_expect(sh, YN_SEQ, "a list of shifts, one per loop of 'runs'", p->d))
		return 0;
	if (sh->len != p->nrun_loops) {
		ynode_error(p->d, sh, "%d shifts; 'runs' has %d loop%s", sh->len, p->nrun_loops,
			    p->nrun_loops == 1 ? "" : "s");
		return 0;
	}
	int ok = 1;
	for (int l = 0; l < sh->len; l++)
		ok &= number(p, sh->items[l], "shift", -BIG, BIG, &shift[l]);
	return ok;
}

static int read_index(App *p, Stream *s, const YNode *map)
{
	const YNode *x = need(p, map, "index", YN_SEQ, "a list of coordinate maps, one per image dimension");
	if (!x)
		return 0;
	int want = s->ndims - (s->fixed_dim >= 0);
	if (x->len != want) {
		ynode_error(p->d, x, "%d coordinate maps; the image has %d dimension%s%s, so %d are needed", x->len,
			    s->ndims, s->ndims == 1 ? "" : "s", s->fixed_dim >= 0 ? " and one is fixed" : "", want);
		return 0;
	}
	static const char *const keys[] = { "coef", "c", "div", "shift", NULL };
	int ok = 1;
	s->nindex = x->len;
	for (int i = 0; i < x->len; i++) {
		const YNode *e = x->items[i];
		Index *ix = &s->index[i];
		ix->node = e;
		if (!ynode_expect(e, YN_MAP, "a coordinate map: { coef, c, div }", p->d)) {
			ok = 0;
			continue;
		}
		ok &= ymap_check_keys(e, keys, "a coordinate map", p->d) == 0;
		const YNode *coef = need(p, e, "coef", YN_SEQ, "a list of coefficients, one per loop");
		if (coef && coef->len != s->nloops) {
			ynode_error(p->d, coef, "%d coefficients; the stream has %d loop%s", coef->len, s->nloops,
				    s->nloops == 1 ? "" : "s");
			ok = 0;
		} else if (coef) {
			for (int l = 0; l < coef->len; l++)
				ok &= number(p, coef->items[l], "coef", -COEF, COEF, &ix->coef[l]);
		} else {
			ok = 0;
		}
		ok &= field(p, e, "c", -BIG, BIG, 0, 0, &ix->c);
		ok &= field(p, e, "div", 1, BIG, 0, 1, &ix->div);
		ok &= read_shift(p, e, ix->shift);
	}
	return ok;
}

/* The stream's optional 'type' (uint8, int8, uint16, int16, bool; uint<width>
 * without it): an input sample enters the port as its value in the type,
 * zero- or sign-extended to the port's width; an output pixel is compared in
 * the type's bits (an 8-bit image file holds the low byte). */
static int read_type(App *p, Stream *s, const YNode *m)
{
	static const char *const names[] = { "uint8", "int8", "uint16", "int16", "bool", NULL };
	static const int bits[] = { 8, 8, 16, 16, 1 };
	const YNode *t = ymap_get(m, "type");
	s->tbits = s->width;
	s->tsigned = 0;
	if (!t)
		return 1;
	int k = yread_choice(p->d, t, "type", names);
	if (k < 0)
		return 0;
	if (bits[k] > s->width && s->width) {
		ynode_error(p->d, t, "%s values do not fit the %d-bit port", names[k], s->width);
		return 0;
	}
	s->tbits = bits[k];
	s->tsigned = k == 1 || k == 3;
	return 1;
}

/* Sample v of stream s's image as the port's word. */
static uint16_t stream_word(const Stream *s, uint16_t v)
{
	uint32_t mask = (1u << s->tbits) - 1, w = v & mask;
	if (s->tsigned && (w >> (s->tbits - 1)) & 1)
		w |= ~mask;
	return (uint16_t)(w & ((1u << s->width) - 1));
}

static int read_stream(App *p, Stream *s, const YNode *m)
{
	static const char *const keys[] = { "name", "dir", "port", "width", "type", "image", "dims", "fixed",
					     "start", "loops", "index", NULL };
	static const char *const dirs[] = { "in", "out", NULL };
	s->node = m;
	s->fixed_dim = -1;
	int ok = ymap_check_keys(m, keys, "a stream", p->d) == 0;
	s->name = text(p, m, "name", "the stream's name");
	const YNode *dir = need(p, m, "dir", YN_SCALAR, "in or out");
	int di = dir ? yread_choice(p->d, dir, "dir", dirs) : -1;
	s->out = di == 1;
	s->port = text(p, m, "port", "a port of the array (io_in_x<X>_<w>, io_out_x<X>_<w>)");
	s->port_node = ymap_get(m, "port");
	long long width = 0;
	ok &= field(p, m, "width", 1, 16, 1, 0, &width);
	s->width = (int)width;
	ok &= read_type(p, s, m);
	s->image = text(p, m, "image", "an image file");
	s->image_node = ymap_get(m, "image");
	if (s->image && !image_format_known(s->image)) {
		ynode_error(p->d, s->image_node, "'%s' is not a .pgm, .ppm or .raw image", s->image);
		ok = 0;
	}
	const YNode *dims = need(p, m, "dims", YN_SEQ, "the image's extents, dimension 0 first");
	if (dims && (dims->len < 1 || dims->len > MAX_DIMS)) {
		ynode_error(p->d, dims, "%d dimensions; 1 to %d", dims->len, MAX_DIMS);
		ok = 0;
	} else if (dims) {
		s->ndims = dims->len;
		for (int i = 0; i < dims->len; i++)
			ok &= number(p, dims->items[i], "dims", 1, 65535, &s->dims[i]);
	} else {
		ok = 0;
	}
	const YNode *fixed = ymap_get(m, "fixed");
	if (fixed && !ynode_expect(fixed, YN_MAP, "{ dim, value }", p->d)) {
		ok = 0;
	} else if (fixed && s->ndims) {
		static const char *const fkeys[] = { "dim", "value", "shift", NULL };
		long long fd = 0, fv = 0;
		ok &= ymap_check_keys(fixed, fkeys, "'fixed'", p->d) == 0;
		ok &= read_shift(p, fixed, s->fixed_shift);
		if (field(p, fixed, "dim", 0, s->ndims - 1, 1, 0, &fd) &&
		    field(p, fixed, "value", 0, s->dims[fd] - 1, 1, 0, &fv)) {
			s->fixed_dim = (int)fd;
			s->fixed_value = fv;
		} else {
			ok = 0;
		}
	}
	s->start_node = ymap_get(m, "start");
	ok &= field(p, m, "start", -(1LL << 40), 1LL << 40, 1, 0, &s->start);
	if (read_loops(p, s, m) && s->ndims)
		ok &= read_index(p, s, m);
	else
		ok = 0;
	return ok && s->name && di >= 0 && s->port && s->image;
}

/* 'runs': the host's loops around the accelerator, level 0 innermost; the
 * accelerator runs once per iteration, each run after a flush. */
static int read_runs(App *p, const YNode *root)
{
	p->runs = 1;
	const YNode *r = ymap_get(root, "runs");
	if (!r)
		return 1;
	if (!ynode_expect(r, YN_SEQ, "a list of loops, level 0 (innermost) first", p->d))
		return 0;
	if (r->len < 1 || r->len > MAX_RUN_LOOPS) {
		ynode_error(p->d, r, "%d loops; 1 to %d", r->len, MAX_RUN_LOOPS);
		return 0;
	}
	static const char *const keys[] = { "loop", "extent", NULL };
	int ok = 1;
	p->nrun_loops = r->len;
	for (int i = 0; i < r->len; i++) {
		const YNode *e = r->items[i];
		if (!ynode_expect(e, YN_MAP, "a loop of the host: { loop, extent }", p->d)) {
			ok = 0;
			continue;
		}
		ok &= ymap_check_keys(e, keys, "a loop of the host", p->d) == 0;
		ok &= text(p, e, "loop", "the loop's name") != NULL;
		if (!field(p, e, "extent", 1, MAX_CYCLES, 1, 0, &p->run_extent[i])) {
			ok = 0;
			continue;
		}
		/* runs and runs * cycles stay within MAX_CYCLES (no overflow) */
		long long per = p->cycles > 0 ? p->cycles : 1;
		if (p->runs > MAX_CYCLES / per / p->run_extent[i]) {
			ynode_error(p->d, e, "%lld runs or more of %lld cycles: more than %lld cycles in all",
				    p->runs * p->run_extent[i], per, MAX_CYCLES);
			return 0;
		}
		p->runs *= p->run_extent[i];
	}
	return ok;
}

static int read_io(App *p, const YDoc *doc)
{
	const YNode *root = doc->root;
	if (!root || root->kind != YN_MAP) {
		diag_error(p->d, p->file, 1, 1, "expected the streams of an application " FORMAT);
		return 0;
	}
	static const char *const keys[] = { "app", "design", "bitstream", "cycles", "runs", "streams", NULL };
	int ok = ymap_check_keys(root, keys, "the io.yaml", p->d) == 0;
	p->app = text(p, root, "app", "the application's name");
	p->design = text(p, root, "design", "the design's name");
	p->design_node = ymap_get(root, "design");
	p->bitstream = text(p, root, "bitstream", "the bitstream file");
	p->bitstream_node = ymap_get(root, "bitstream");
	ok &= field(p, root, "cycles", 1, MAX_CYCLES, 1, 0, &p->cycles);
	ok &= read_runs(p, root);
	p->total = p->runs * p->cycles;
	const YNode *st = need(p, root, "streams", YN_SEQ, "a list of streams");
	if (st && st->len == 0) {
		ynode_error(p->d, st, "no stream");
		ok = 0;
	}
	if (st) {
		p->nstreams = st->len;
		p->streams = arena_alloc(p->a, sizeof(Stream) * (size_t)(st->len ? st->len : 1));
		for (int i = 0; i < st->len; i++) {
			if (!ynode_expect(st->items[i], YN_MAP, "a stream", p->d)) {
				ok = 0;
				continue;
			}
			ok &= read_stream(p, &p->streams[i], st->items[i]);
			for (int j = 0; j < i; j++)
				if (p->streams[i].name && p->streams[j].name &&
				    !strcmp(p->streams[i].name, p->streams[j].name)) {
					ynode_error(p->d, ymap_get(st->items[i], "name"), "a second stream named '%s'",
						    p->streams[i].name);
					ok = 0;
				}
		}
	}
	return ok && p->app && p->design && p->bitstream && st;
}

/* ---- the design's ports, the bitstream, the images ---- */

static int check_ports(App *p, const Chip *chip)
{
	int ok = 1;
	if (strcmp(p->design, chip->m->name) != 0) {
		ynode_error(p->d, p->design_node, "the application is compiled for '%s'; %s holds '%s'", p->design,
			    chip->m->dir, chip->m->name);
		return 0;
	}
	for (int i = 0; i < p->nstreams; i++) {
		Stream *s = &p->streams[i];
		int x, w, n = -1;
		const char *pre = s->out ? "io_out_x" : "io_in_x";
		if (strncmp(s->port, pre, strlen(pre)) != 0 || sscanf(s->port + strlen(pre), "%d_%d%n", &x, &w, &n) != 2 ||
		    n != (int)strlen(s->port + strlen(pre)) || x < 0 || w < 1) {
			ynode_error(p->d, s->port_node, "'%s' is not %s port of the array (%s<X>_<w>)", s->port,
				    s->out ? "an output" : "an input", pre);
			ok = 0;
			continue;
		}
		if (rgraph_find(chip->graph, arena_printf(p->a, "x%d_y0_%s_%d", x, s->out ? "f2io" : "io2f", w)) < 0) {
			ynode_error(p->d, s->port_node, "%s has no port %s", chip->m->name, s->port);
			ok = 0;
		} else if (w != s->width) {
			ynode_error(p->d, ymap_get(s->node, "width"), "port %s is %d bits wide, the stream %d", s->port, w,
				    s->width);
			ok = 0;
		}
		int slot;
		for (slot = 0; slot < p->nports && strcmp(p->ports[slot].name, s->port) != 0; slot++)
			;
		if (slot == p->nports) {
			if (p->nports == (int)(sizeof p->ports / sizeof p->ports[0])) {
				ynode_error(p->d, s->port_node, "more than %d ports", p->nports);
				return 0;
			}
			p->ports[p->nports++] = (PortUse){ .name = s->port, .out = s->out, .width = s->width, .last = -1 };
		}
		s->slot = slot;
	}
	return ok;
}

/* The bitstream readable and every write a register of the design's. */
static int check_bitstream(App *p, const Chip *chip)
{
	const char *path = resolve(p, p->bitstream);
	FILE *f = fopen(path, "r");
	if (!f) {
		ynode_error(p->d, p->bitstream_node, "cannot read the bitstream '%s': %s (the compiler writes it with the "
			    "io.yaml: make app)", path, strerror(errno));
		return 0;
	}
	fclose(f);
	uint32_t *a = NULL, *d = NULL;
	long n = bitstream_read(path, chip->map, &a, &d, p->d);
	free(a);
	free(d);
	return n >= 0;
}

/* The extents of an image and of a stream's dims agree (missing trailing
 * extents count as 1). */
static int same_dims(const Image *im, const Stream *s)
{
	for (int i = 0; i < MAX_DIMS; i++) {
		long long a = i < im->dims ? im->extent[i] : 1, b = i < s->ndims ? s->dims[i] : 1;
		if (a != b)
			return 0;
	}
	return 1;
}

static const char *dims_text(App *p, const int *ext, int n)
{
	StrBuf b = { 0 };
	for (int i = 0; i < n; i++)
		sb_printf(&b, "%s%d", i ? " x " : "", ext[i]);
	const char *s = arena_strdup(p->a, b.s ? b.s : "");
	free(b.s);
	return s;
}

static int load_images(App *p)
{
	int ok = 1;
	for (int i = 0; i < p->nstreams; i++) {
		Stream *s = &p->streams[i];
		const char *path = resolve(p, s->image);
		int k;
		for (k = 0; k < p->nimages && (strcmp(p->images[k].path, path) != 0 || p->images[k].golden != s->out); k++)
			;
		if (k == p->nimages) {
			if (p->nimages == (int)(sizeof p->images / sizeof p->images[0])) {
				ynode_error(p->d, s->image_node, "more than %d images", p->nimages);
				return 0;
			}
			AppImage *im = &p->images[p->nimages];
			*im = (AppImage){ .name = s->image, .path = path, .golden = s->out, .node = s->image_node };
			Image want = { .dims = s->ndims };
			for (int j = 0; j < s->ndims; j++)
				want.extent[j] = (int)s->dims[j];
			char *err = NULL;
			if (!image_read(path, &want, &im->im, &err)) {
				ynode_error(p->d, s->image_node, "cannot read %s image: %s", s->out ? "the golden" : "the input", err);
				free(err);
				ok = 0;
				s->img = -1;
				continue;
			}
			p->nimages++;
		}
		s->img = k;
		if (!same_dims(&p->images[k].im, s)) {
			ynode_error(p->d, ymap_get(s->node, "dims"), "'%s' is %s, the stream's dims say otherwise", s->image,
				    dims_text(p, p->images[k].im.extent, p->images[k].im.dims));
			ok = 0;
		}
	}
	return ok;
}

/* ---- points ---- */

static long long floordiv(long long n, long long d)
{
	long long q = n / d;
	return (n % d != 0 && n < 0) ? q - 1 : q;
}

/* The loop values of point k of s (level 0 fastest). */
static void point_loops(const Stream *s, long k, long long *iv)
{
	for (int l = 0; l < s->nloops; l++) {
		iv[l] = s->loops[l].min + k % s->loops[l].extent;
		k /= s->loops[l].extent;
	}
}

static const char *point_text(App *p, const Stream *s, long k)
{
	long long iv[MAX_LOOPS];
	point_loops(s, k, iv);
	StrBuf b = { 0 };
	sb_printf(&b, "(");
	for (int l = 0; l < s->nloops; l++)
		sb_printf(&b, "%si_%d = %lld", l ? ", " : "", l, iv[l]);
	sb_printf(&b, ")");
	const char *t = arena_strdup(p->a, b.s);
	free(b.s);
	return t;
}

/* The coordinates of pixel px of im. */
static const char *pixel_text(App *p, const Image *im, long px)
{
	StrBuf b = { 0 };
	sb_printf(&b, "(");
	for (int i = 0; i < im->dims; i++) {
		sb_printf(&b, "%s%ld", i ? ", " : "", px % im->extent[i]);
		px /= im->extent[i];
	}
	sb_printf(&b, ")");
	const char *t = arena_strdup(p->a, b.s);
	free(b.s);
	return t;
}

/* Every point of s in every run: its cycle and pixel, each checked (its
 * cycle in the run's, the same in every run). */
static int expand(App *p, Stream *s, unsigned char *seen)
{
	long long n = 1;
	for (int l = 0; l < s->nloops; l++) {
		n *= s->loops[l].extent;
		if (n > p->cycles) {
			ynode_error(p->d, s->loops_node, "stream '%s' has more points than the run's %lld cycles, so their "
				    "cycles cannot be distinct", s->name, p->cycles);
			return 0;
		}
	}
	const Image *im = &p->images[s->img].im;
	s->npoints = (long)(n * p->runs);
	s->cycle = arena_alloc(p->a, sizeof(int32_t) * (size_t)s->npoints);
	s->pixel = arena_alloc(p->a, sizeof(long) * (size_t)s->npoints);
	memset(seen, 0, (size_t)p->cycles);
	for (long q = 0; q < s->npoints; q++) {
		long k = q % n, run = q / n;
		long long iv[MAX_LOOPS], cyc = s->start, h[MAX_RUN_LOOPS];
		for (int l = 0; l < p->nrun_loops; l++) {
			h[l] = run % p->run_extent[l];
			run /= p->run_extent[l];
		}
		point_loops(s, k, iv);
		for (int l = 0; l < s->nloops; l++)
			cyc += s->loops[l].stride * (iv[l] - s->loops[l].min);
		if (q < n && (cyc < 0 || cyc >= p->cycles)) {
			ynode_error(p->d, s->start_node, "stream '%s': point %s is at cycle %lld, %s", s->name,
				    point_text(p, s, k), cyc,
				    cyc < 0 ? "before the run" : arena_printf(p->a, "past the run's %lld cycles", p->cycles));
			return 0;
		}
		if (q < n && seen[cyc]) {
			ynode_error(p->d, s->loops_node, "stream '%s': point %s is at cycle %lld, as an earlier point", s->name,
				    point_text(p, s, k), cyc);
			return 0;
		}
		if (q < n)
			seen[cyc] = 1;
		s->cycle[q] = (int32_t)(cyc + q / n * p->cycles);
		long px = 0, scale = 1;
		for (int dim = 0, e = 0; dim < s->ndims; dim++) {
			long long coord;
			if (dim == s->fixed_dim) {
				coord = s->fixed_value;
				for (int l = 0; l < p->nrun_loops; l++)
					coord += s->fixed_shift[l] * h[l];
				if (coord < 0 || coord >= s->dims[dim]) {
					ynode_error(p->d, s->node, "stream '%s': run %lld streams value %lld of dimension %d, "
						    "outside 0..%lld", s->name, (long long)(q / n), coord, dim, s->dims[dim] - 1);
					return 0;
				}
			} else {
				const Index *ix = &s->index[e++];
				long long sum = ix->c;
				for (int l = 0; l < s->nloops; l++)
					sum += ix->coef[l] * iv[l];
				coord = floordiv(sum, ix->div);
				for (int l = 0; l < p->nrun_loops; l++)
					coord += ix->shift[l] * h[l];
				if (coord < 0 || coord >= s->dims[dim]) {
					ynode_error(p->d, ix->node, "stream '%s': point %s%s has coordinate %lld in dimension "
						    "%d, outside 0..%lld", s->name, point_text(p, s, k),
						    p->runs > 1 ? arena_printf(p->a, " of run %lld", (long long)(q / n)) : "", coord, dim,
						    s->dims[dim] - 1);
					return 0;
				}
			}
			px += (long)coord * scale;
			scale *= (long)s->dims[dim];
		}
		s->pixel[q] = px;
		uint16_t v = s->out ? im->px[px] : stream_word(s, im->px[px]);
		if (v >> s->width) {
			ynode_error(p->d, s->image_node, "pixel %s of '%s' is %u, which does not fit the %d-bit port %s",
				    pixel_text(p, im, px), s->image, v, s->width, s->port);
			return 0;
		}
	}
	return 1;
}

/* Input streams into their ports' values; output points onto their golden
 * images' pixels, each exactly once. */
static int schedule(App *p)
{
	int ok = 1;
	size_t cycles = (size_t)p->total;
	for (int i = 0; i < p->nports; i++) {
		PortUse *u = &p->ports[i];
		u->value = xcalloc(cycles, sizeof *u->value);
		if (!u->out) {
			u->owner = xmalloc(cycles * sizeof *u->owner);
			for (size_t c = 0; c < cycles; c++)
				u->owner[c] = -1;
		}
	}
	for (int i = 0; i < p->nimages; i++) {
		AppImage *im = &p->images[i];
		if (!im->golden)
			continue;
		long n = image_size(&im->im);
		im->got = xcalloc((size_t)n, sizeof *im->got);
		im->src = xmalloc((size_t)n * sizeof *im->src);
		im->cycle = xcalloc((size_t)n, sizeof *im->cycle);
		for (long k = 0; k < n; k++)
			im->src[k] = -1;
	}
	for (int i = 0; i < p->nstreams; i++) {
		Stream *s = &p->streams[i];
		AppImage *im = &p->images[s->img];
		PortUse *u = &p->ports[s->slot];
		for (long k = 0; k < s->npoints; k++) {
			long px = s->pixel[k];
			int32_t c = s->cycle[k];
			if (!s->out && u->owner[c] >= 0) {
				ynode_error(p->d, s->start_node, "stream '%s' drives %s in cycle %d, as stream '%s' does", s->name,
					    s->port, c, p->streams[u->owner[c]].name);
				ok = 0;
				break;
			}
			if (!s->out) {
				u->owner[c] = i;
				u->value[c] = stream_word(s, im->im.px[px]);
				if (c > u->last)
					u->last = c;
				continue;
			}
			if (im->src[px] >= 0) {
				const Stream *o = &p->streams[im->src[px]];
				ynode_error(p->d, s->loops_node, "pixel %s of '%s' is written twice: by stream '%s' in cycle %d "
					    "and by stream '%s' in cycle %d", pixel_text(p, &im->im, px), s->image, o->name,
					    im->cycle[px], s->name, c);
				ok = 0;
				break;
			}
			if (im->im.px[px] >> s->tbits) {
				ynode_error(p->d, s->image_node, "golden pixel %s of '%s' is %u, which does not fit the "
					    "%d-bit port %s", pixel_text(p, &im->im, px), s->image, im->im.px[px], s->width,
					    s->port);
				ok = 0;
				break;
			}
			im->src[px] = i;
			im->cycle[px] = c;
		}
	}
	for (int i = 0; ok && i < p->nimages; i++) {
		AppImage *im = &p->images[i];
		if (!im->golden)
			continue;
		long n = image_size(&im->im), missing = 0, first = -1;
		for (long k = 0; k < n; k++)
			if (im->src[k] < 0 && missing++ == 0)
				first = k;
		if (missing) {
			ynode_error(p->d, im->node, "%ld of the %ld pixels of '%s' are written by no output stream, the first "
				    "%s", missing, n, im->name, pixel_text(p, &im->im, first));
			ok = 0;
		}
	}
	return ok;
}

/* ---- the run ---- */

/* Removes the files of a folder and the folder (it holds only files). */
static void remove_dir(const char *dir)
{
	DIR *d = opendir(dir);
	if (!d)
		return;
	struct dirent *e;
	while ((e = readdir(d)))
		if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0) {
			char *f = util_path_join(dir, e->d_name);
			remove(f);
			free(f);
		}
	closedir(d);
	rmdir(dir);
}

static int write_file_error(const char *path)
{
	fprintf(stderr, "verif app: cannot write %s: %s\n", path, strerror(errno));
	return 0;
}

static const char *port_file(App *p, const PortUse *u)
{
	return arena_printf(p->a, "%s_%s.hex", u->out ? "out" : "in", u->name);
}

/* path as seen from any folder. */
static const char *absolute(App *p, const char *path)
{
	char cwd[4096];
	if (path[0] == '/' || !getcwd(cwd, sizeof cwd))
		return path;
	return arena_printf(p->a, "%s/%s", cwd, path);
}

/* OUT/sim.tmp/: the input streams and sim.cmd. */
static int write_work(App *p)
{
	remove_dir(p->work_tmp);
	if (mkdir(p->work_tmp, 0777) != 0)
		return write_file_error(p->work_tmp);
	for (int i = 0; i < p->nports; i++) {
		PortUse *u = &p->ports[i];
		if (u->out)
			continue;
		const char *path = arena_printf(p->a, "%s/%s", p->work_tmp, port_file(p, u));
		FILE *f = fopen(path, "w");
		if (!f)
			return write_file_error(path);
		for (long c = 0; c <= u->last; c++)
			fprintf(f, "%0*x\n", (u->width + 3) / 4, u->value[c]);
		if (ferror(f) | fclose(f))
			return write_file_error(path);
	}
	const char *bs = absolute(p, resolve(p, p->bitstream));
	const char *path = arena_printf(p->a, "%s/sim.cmd", p->work_tmp);
	FILE *f = fopen(path, "w");
	if (!f)
		return write_file_error(path);
	fprintf(f, "# Written by bin/verif app from %s: the co-simulation of %s on %s\n"
		   "# (verif/README.md, \"Applications\"). Run again with: vsim sim.cmd\n"
		   "reset\nbitstream %s\nflush\n",
		p->file, p->app, p->design, bs);
	for (int i = 0; i < p->nports; i++)
		fprintf(f, "%s %s %s\n", p->ports[i].out ? "record" : "drive", p->ports[i].name,
			port_file(p, &p->ports[i]));
	/* each run of the accelerator after a flush */
	for (long long r = 0; r < p->runs; r++)
		fprintf(f, "%srun %lld\n", r ? "flush\n" : "", p->cycles);
	if (ferror(f) | fclose(f))
		return write_file_error(path);
	return 1;
}

/* A line of vsim's output: progress to the terminal, the rest to the log. */
static void vsim_line(App *p, const char *line, int *nprogress, double *run_s)
{
	int tty = isatty(2);
	if (!strncmp(line, "vsim: run: ", 11) || !strncmp(line, "cgrasim: run: ", 14)) {
		if (!p->opt->quiet && (tty || ++*nprogress % 10 == 0)) {
			fprintf(stderr, tty ? "\r%.*s" : "%.*s\n", (int)strcspn(line, "\n"), line);
			fflush(stderr);
		}
		return;
	}
	if (!strncmp(line, "cgrasim: utilization: ", 22))
		p->util = arena_strndup(p->a, line + 22, strcspn(line + 22, "\n"));
	const char *r = strstr(line, ": run: ");
	double s, rate;
	long n;
	if (r && sscanf(r, ": run: %ld cycles in %lf s (%lf cycles/s)", &n, &s, &rate) == 3) {
		/* one line per run of the accelerator: their sum */
		p->run_n += n;
		p->run_s += s;
		run_s[0] = p->run_s;
		run_s[1] = p->run_s > 0 ? (double)p->run_n / p->run_s : rate;
	}
	sb_printf(&p->log, "%s", line);
}

/* Runs vsim on sim.cmd in OUT/sim.tmp/ (its working folder); its status (-1
 * if it cannot run) and the seconds and cycles per second of its run
 * (run_s[0], run_s[1]). */
static int run_vsim(App *p, const char *vsim, double *run_s)
{
	const char *argv[14];
	int n = 0;
	argv[n++] = absolute(p, vsim);
	if (p->opt->fast) {
		argv[n++] = "run";
		argv[n++] = absolute(p, p->ddir);
		argv[n++] = "--strict-loops";
	}
	argv[n++] = "sim.cmd";
	argv[n++] = "--progress";
	if (p->opt->trace) {
		argv[n++] = "--trace";
		argv[n++] = absolute(p, p->opt->trace);
	}
	if (p->opt->fast && p->opt->activity) {
		argv[n++] = "--activity";
		argv[n++] = absolute(p, p->opt->activity);
	}
	argv[n] = NULL;
	sb_printf(&p->log, "$ cd %s &&", p->work);
	for (int i = 0; i < n; i++)
		sb_printf(&p->log, " %s", argv[i]);
	sb_printf(&p->log, "\n");
	int fd[2];
	if (pipe(fd) != 0) {
		fprintf(stderr, "verif app: cannot run %s: %s\n", vsim, strerror(errno));
		return -1;
	}
	fflush(stdout);
	fflush(stderr);
	pid_t pid = fork();
	if (pid < 0) {
		fprintf(stderr, "verif app: cannot run %s: %s\n", vsim, strerror(errno));
		close(fd[0]);
		close(fd[1]);
		return -1;
	}
	if (pid == 0) {
		dup2(fd[1], 1);
		dup2(fd[1], 2);
		close(fd[0]);
		close(fd[1]);
		if (chdir(p->work_tmp) != 0) {
			fprintf(stderr, "verif app: cannot enter %s: %s\n", p->work_tmp, strerror(errno));
			_exit(127);
		}
		execv(argv[0], (char *const *)argv);
		fprintf(stderr, "verif app: cannot run %s: %s\n", vsim, strerror(errno));
		_exit(127);
	}
	close(fd[1]);
	FILE *in = fdopen(fd[0], "r");
	char *line = NULL;
	size_t cap = 0;
	int nprogress = 0;
	size_t logged = p->log.len;
	while (in && getline(&line, &cap, in) > 0)
		vsim_line(p, line, &nprogress, run_s);
	free(line);
	if (in)
		fclose(in);
	else
		close(fd[0]);
	if (!p->opt->quiet && isatty(2) && nprogress)
		fprintf(stderr, "\r%*s\r", 79, "");
	int status;
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -1;
	int code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + (WIFSIGNALED(status) ? WTERMSIG(status) : 0);
	if (code != 0) /* vsim's messages, for the user too */
		fprintf(stderr, "%s", p->log.s + logged);
	return code;
}

/* The recorded values of output port u: one line per cycle. */
static int read_record(App *p, PortUse *u)
{
	const char *path = arena_printf(p->a, "%s/%s", p->work, port_file(p, u));
	FILE *f = fopen(path, "r");
	if (!f) {
		fprintf(stderr, "verif app: vsim wrote no %s: %s\n", path, strerror(errno));
		return 0;
	}
	char buf[64];
	long c = 0;
	int ok = 1;
	while (ok && fgets(buf, sizeof buf, f)) {
		char *end;
		unsigned long v = strtoul(buf, &end, 16);
		if (end == buf || (*end && *end != '\n') || c >= p->total || (v >> u->width)) {
			fprintf(stderr, "%s:%ld:1: error: not a %d-bit value of cycle %ld of %lld\n", path, c + 1, u->width,
				c, p->total);
			ok = 0;
		} else {
			u->value[c++] = (uint16_t)v;
		}
	}
	fclose(f);
	if (ok && c != p->total) {
		fprintf(stderr, "verif app: %s holds %ld cycles, the runs %lld\n", path, c, p->total);
		ok = 0;
	}
	return ok;
}

typedef struct Mismatch {
	int img;
	long px;
	int32_t cycle;
} Mismatch;

static int by_cycle(const void *x, const void *y)
{
	const Mismatch *a = x, *b = y;
	if (a->cycle != b->cycle)
		return a->cycle < b->cycle ? -1 : 1;
	return a->img != b->img ? (a->img < b->img ? -1 : 1) : (a->px > b->px) - (a->px < b->px);
}

static const char *output_name(App *p, const AppImage *im, int ngolden)
{
	const char *base = strrchr(im->path, '/') ? strrchr(im->path, '/') + 1 : im->path;
	const char *dot = strrchr(base, '.');
	if (ngolden == 1)
		return arena_printf(p->a, "output%s", dot);
	return arena_printf(p->a, "output.%.*s%s", (int)(dot - base), base, dot);
}

/* Puts the recorded values at their pixels and compares; the mismatches. */
static Mismatch *compare(App *p, long *nmis, long *npx)
{
	VEC(Mismatch) m = { 0 };
	*npx = 0;
	for (int i = 0; i < p->nstreams; i++) {
		Stream *s = &p->streams[i];
		if (!s->out)
			continue;
		AppImage *im = &p->images[s->img];
		for (long k = 0; k < s->npoints; k++)
			im->got[s->pixel[k]] = p->ports[s->slot].value[s->cycle[k]];
	}
	for (int i = 0; i < p->nimages; i++) {
		AppImage *im = &p->images[i];
		if (!im->golden)
			continue;
		long n = image_size(&im->im);
		*npx += n;
		for (long k = 0; k < n; k++)
			if ((im->got[k] ^ im->im.px[k]) & ((1u << p->streams[im->src[k]].tbits) - 1))
				vec_push(&m, ((Mismatch){ i, k, im->cycle[k] }));
	}
	if (m.len)
		qsort(m.data, (size_t)m.len, sizeof *m.data, by_cycle);
	*nmis = m.len;
	return m.data;
}

static const char *mismatch_text(App *p, const Mismatch *x)
{
	const AppImage *im = &p->images[x->img];
	const Stream *s = &p->streams[im->src[x->px]];
	uint16_t want = im->im.px[x->px], got = im->got[x->px];
	const char *at = p->runs > 1 ? arena_printf(p->a, "run %lld, cycle %lld", x->cycle / p->cycles,
						    x->cycle % p->cycles)
				     : arena_printf(p->a, "cycle %d", x->cycle);
	return arena_printf(p->a, "pixel %s of %s: expected %u (0x%04x), got %u (0x%04x), %s on %s (stream '%s')",
			    pixel_text(p, &im->im, x->px), im->name, want, want, got, got, at, s->port, s->name);
}

static int write_outputs(App *p, const char *summary)
{
	OutSet *set = outset_new();
	int ngolden = 0, ok = 1;
	for (int i = 0; i < p->nimages; i++)
		ngolden += p->images[i].golden;
	for (int i = 0; i < p->nimages && ok; i++) {
		AppImage *im = &p->images[i];
		if (!im->golden)
			continue;
		char *path = util_path_join(p->out, output_name(p, im, ngolden));
		FILE *f = outset_open(set, path);
		Image out = im->im;
		out.px = im->got;
		char *err = NULL;
		if (!f || !image_write(&out, path, f, &err)) {
			if (err)
				fprintf(stderr, "verif app: %s\n", err);
			free(err);
			ok = 0;
		}
		free(path);
	}
	char *log = util_path_join(p->out, "sim.log");
	FILE *f = ok ? outset_open(set, log) : NULL;
	if (f)
		fprintf(f, "%s%s\n", p->log.s ? p->log.s : "", summary);
	free(log);
	if (!f || !ok) {
		outset_abort(set);
		return 0;
	}
	return outset_commit(set) == 0;
}

static const char *seconds_text(App *p, double s)
{
	return arena_printf(p->a, s < 1 ? "%.2f" : "%.1f", s);
}

/* The run's figures into the caller's result, when it asked for them; the
 * fast simulator's utilization read from its own line ("U of T PEs used
 * (X%), busy B% of their cycles; ..."). */
static void put_result(const App *p, long npx, long nmis, const char *summary)
{
	VerifAppResult *r = p->opt->result;
	if (!r)
		return;
	r->pixels = npx;
	r->mismatches = nmis;
	r->cycles = p->total;
	r->util = p->util && sscanf(p->util, "%d of %d PEs used (%*d%%), busy %d%% of their cycles", &r->pes_used,
				    &r->pes_total, &r->pe_busy) == 3;
	snprintf(r->summary, sizeof r->summary, "%s", summary);
}

static int simulate(App *p, const char *vsim)
{
	if (!write_work(p))
		return 1;
	sb_printf(&p->log, "streams:\n");
	for (int i = 0; i < p->nstreams; i++) {
		const Stream *s = &p->streams[i];
		int32_t lo = INT32_MAX, hi = -1;
		for (long k = 0; k < s->npoints; k++) {
			lo = s->cycle[k] < lo ? s->cycle[k] : lo;
			hi = s->cycle[k] > hi ? s->cycle[k] : hi;
		}
		sb_printf(&p->log, "  %-12s %-3s %-14s %2d bits  %-22s %ld points in cycles %d..%d\n", s->name,
			  s->out ? "out" : "in", s->port, s->width, s->image, s->npoints, lo, hi);
	}
	double t0 = util_now(), run_s[2] = { -1, 0 };
	int status = run_vsim(p, vsim, run_s);
	double wall = util_now() - t0;
	/* the work folder, complete: sim.tmp becomes sim */
	remove_dir(p->work);
	if (rename(p->work_tmp, p->work) != 0) {
		fprintf(stderr, "verif app: cannot rename %s to %s: %s\n", p->work_tmp, p->work, strerror(errno));
		return 1;
	}
	if (status != 0) {
		const char *why = arena_printf(p->a, "%s %s (commands: %s/sim.cmd)", vsim,
					       status < 0 ? "could not run" : arena_printf(p->a, "failed with status %d",
											  status), p->work);
		fprintf(stderr, "verif app: %s\n", why);
		if (p->opt->result)
			snprintf(p->opt->result->summary, sizeof p->opt->result->summary, "%s", why);
		return 1;
	}
	for (int i = 0; i < p->nports; i++)
		if (p->ports[i].out && !read_record(p, &p->ports[i]))
			return 1;
	long nmis, npx;
	Mismatch *mis = compare(p, &nmis, &npx);
	if (run_s[0] < 0) {
		run_s[0] = wall;
		run_s[1] = wall > 0 ? (double)p->total / wall : 0;
	}
	const char *speed = arena_printf(p->a, "%lld cycles in %s s (%.0f cycles/s)%s%s%s%s%s", p->total,
					 seconds_text(p, run_s[0]), run_s[1],
					 p->runs > 1 ? arena_printf(p->a, ", %lld runs of %lld", p->runs, p->cycles) : "",
					 p->opt->note ? "; " : "", p->opt->note ? p->opt->note : "", p->util ? "; " : "",
					 p->util ? p->util : "");
	const char *summary;
	if (nmis == 0) {
		summary = arena_printf(p->a, "sim %s on %s: %ld pixels bit-exact, %s", p->app, p->design, npx, speed);
	} else {
		summary = arena_printf(p->a, "sim %s on %s: FAILED: %ld of %ld pixels differ from the golden image, %s",
				       p->app, p->design, nmis, npx, speed);
		sb_printf(&p->log, "%ld mismatches, in cycle order%s:\n", nmis,
			  nmis > MAX_LOGGED ? arena_printf(p->a, " (the first %d)", MAX_LOGGED) : "");
		printf("%ld pixel%s differ%s from the golden image; the first in cycle order:\n", nmis, nmis == 1 ? "" : "s",
		       nmis == 1 ? "s" : "");
		for (long i = 0; i < nmis && i < MAX_LOGGED; i++) {
			const char *t = mismatch_text(p, &mis[i]);
			sb_printf(&p->log, "  %s\n", t);
			if (i < MAX_LISTED)
				printf("  %s\n", t);
		}
		if (nmis > MAX_LISTED)
			printf("  ... (%ld more; sim.log lists up to %d)\n", nmis - MAX_LISTED, MAX_LOGGED);
	}
	free(mis);
	if (!write_outputs(p, summary))
		return 1;
	if (!p->opt->silent)
		printf("%s\n", summary);
	put_result(p, npx, nmis, summary);
	return nmis ? 1 : 0;
}

/* ---- the whole ---- */

static void free_app(App *p)
{
	for (int i = 0; i < p->nports; i++) {
		free(p->ports[i].value);
		free(p->ports[i].owner);
	}
	for (int i = 0; i < p->nimages; i++) {
		image_free(&p->images[i].im);
		free(p->images[i].got);
		free(p->images[i].src);
		free(p->images[i].cycle);
	}
	free(p->log.s);
	arena_free(p->a);
}

/* Outputs of an earlier run: stale once the inputs change. */
static void remove_stale(App *p)
{
	static const char *const names[] = { "output.pgm", "output.ppm", "output.raw", "sim.log" };
	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
		char *f = util_path_join(p->out, names[i]);
		remove(f);
		free(f);
	}
}

/* The first error of the inputs' checks as the reason a run did not
 * happen, when there is one. */
static void first_error(const App *p, VerifAppResult *r)
{
	const Diag *g = diags_first_error(p->d, 0);
	if (g)
		snprintf(r->summary, sizeof r->summary, "%s%s%s", g->file ? g->file : "", g->file ? ": " : "", g->msg);
}

int verif_app_run(const VerifAppOptions *o)
{
	App app = { .a = arena_new(), .opt = o, .file = o->io_yaml };
	App *p = &app;
	const char *slash = strrchr(o->io_yaml, '/');
	p->dir = slash ? arena_strndup(p->a, o->io_yaml, (size_t)(slash - o->io_yaml)) : ".";
	p->out = o->out ? o->out : p->dir;
	p->work = arena_printf(p->a, "%s/sim", p->out);
	p->work_tmp = arena_printf(p->a, "%s/sim.tmp", p->out);
	p->d = diags_new(stderr);
	if (o->result) {
		memset(o->result, 0, sizeof *o->result);
		snprintf(o->result->summary, sizeof o->result->summary, "the simulation did not run (the messages "
			 "above say why)");
	}
	int status = 1;
	Chip *chip = NULL;
	unsigned char *seen = NULL;
	YDoc *doc = NULL;
	struct stat st;
	if (stat(p->out, &st) != 0 || !S_ISDIR(st.st_mode)) {
		fprintf(stderr, "verif app: no folder %s\n", p->out);
		goto done;
	}
	remove_stale(p);
	if (!(doc = ydoc_load_file(o->io_yaml, p->d)) || !read_io(p, doc))
		goto done;
	const char *ddir = o->design ? o->design : arena_printf(p->a, "rtl_out/%s", p->design);
	p->ddir = ddir;
	diags_flush(p->d);
	if (!(chip = chip_load(ddir, CHIP_INTERCONNECT, NULL, p->d))) {
		diags_flush(p->d);
		fprintf(stderr, "verif app: cannot read the design in %s (make rtl DESIGN=%s)\n", ddir, p->design);
		goto done;
	}
	int ok = check_ports(p, chip);
	ok &= check_bitstream(p, chip);
	if (!ok || !load_images(p))
		goto done;
	seen = xmalloc((size_t)p->cycles);
	for (int i = 0; i < p->nstreams; i++)
		ok &= expand(p, &p->streams[i], seen);
	if (!ok || !schedule(p))
		goto done;
	diags_flush(p->d);
	const char *vsim = o->fast ? o->fast
			   : o->vsim ? o->vsim : arena_printf(p->a, "build/verilator/%s-noprobes/vsim", p->design);
	if (!o->fast && access(vsim, X_OK) != 0) {
		fprintf(stderr, "verif app: no model %s (verif/build.sh %s --probes none)\n", vsim, ddir);
		goto done;
	}
	sb_printf(&p->log, "sim %s on %s: %s\ndesign: %s\n%s: %s\nbitstream: %s\n%s%lld cycles after the flush\n",
		  p->app, p->design, o->io_yaml, ddir, o->fast ? "simulator" : "model", vsim, resolve(p, p->bitstream),
		  p->runs > 1 ? arena_printf(p->a, "%lld runs of the accelerator, each ", p->runs) : "", p->cycles);
	status = simulate(p, vsim);
	remove_dir(p->work_tmp);
done:
	diags_flush(p->d);
	if (status && o->result && !o->result->cycles)
		first_error(p, o->result);
	free(seen);
	if (doc)
		ydoc_free(doc);
	chip_free(chip);
	diags_free(p->d);
	free_app(p);
	return status;
}
