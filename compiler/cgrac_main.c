/* cgrac_main.c - the application compiler's command line. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/util.h"
#include "front/front.h"
#include "flow.h"

static void usage(FILE *f)
{
	fputs("usage: cgrac APP.hl --design DIR -o OUT [--emit STAGE]\n"
	      "       cgrac APP.hl --run IN[,IN...] -o OUT.pgm\n"
	      "       cgrac APP.hl --gen-input -o IN.pgm\n"
	      "       cgrac APP.hl --check\n"
	      "       cgrac --stages\n"
	      "\n"
	      "Compiles an application written in the Halide subset of docs/applications.md.\n"
	      "\n"
	      "  --design DIR     the chip's collateral (rtl_out/<design>/): the word width and the\n"
	      "                   IR operations come from its PE collateral\n"
	      "  -o OUT           the output folder (compilation), or the output image; needed by\n"
	      "                   everything but --check and --emit (which print)\n"
	      "                   Without --emit: the whole flow, buffers, compute mapping, placement,\n"
	      "                   routing, timing, bitstream: OUT/<app>.bs, .io.yaml, .report.yaml, .svg,\n"
	      "                   .mapped.json, .place, .route, .ubuf, .mem, .dfg.json\n"
	      "  --emit STAGE     stop after a stage (cgrac --stages lists them in order) and print\n"
	      "                   its result; lowered, dfg and ubuf also write it into OUT:\n"
	      "  --emit lowered   print the loop nest lowered by the schedule (and write OUT/<app>.lowered)\n"
	      "  --emit dfg       write the compute kernels as graphs of IR operations (OUT/<app>.dfg.json)\n"
	      "  --emit ubuf      write the unified buffers: ports, domains, access maps, cycle schedules\n"
	      "                   in isl notation, dependence distances, capacities (OUT/<app>.ubuf), and\n"
	      "                   their mapping: wires, register chains, memory tiles and each tile's\n"
	      "                   configuration solved on <mem>.smt2 (OUT/<app>.mem)\n"
	      "                   and print them\n"
	      "  --emit mapped    print the compute mapping (rules used) and the netlist\n"
	      "  --emit place     print the placement: cell, tile, kind\n"
	      "  --emit route     print every net's routed tree\n"
	      "  --emit bitstream print the bitstream\n"
	      "  --stages         list the stages in order: folder, what each consumes and produces\n"
	      "  --run IN,...     run the reference interpreter on the input images (one per ImageParam\n"
	      "                   the program reads, in declaration order) and write the output image\n"
	      "  --run-lowered IN,...  the same through the lowered loop nest and the compute kernels on\n"
	      "                   hardware words (needs --design): what the chip should compute\n"
	      "  --streams DIR    with --run: also write the values of every streamed Func (stream_to_\n"
	      "                   accelerator, accelerator_input: computed by the host, streamed into the\n"
	      "                   accelerator) the output needs, over its region, as DIR/<app>.<func>.<ext>\n"
	      "  --sim-buffers IN,...  the same through the unified buffers (needs --design): schedules,\n"
	      "                   register chains and memory tiles configured from the collateral, cycle\n"
	      "                   by cycle; fails at the first value a port delivers wrong\n"
	      "  --gen-input      write the application's deterministic input image(s), as set by\n"
	      "                   input.yaml beside APP.hl (several inputs: into the folder OUT, as\n"
	      "                   OUT/<app>.<image>.<ext>, which --run OUT reads)\n"
	      "  --golden DIR     what running the application on a chip needs, into DIR: the generated\n"
	      "                   inputs (DIR/<app>.<image>.<ext>), the host's streams (--streams DIR) and\n"
	      "                   the interpreter's output DIR/golden.<ext>\n"
	      "  --seed S, --range LO:HI  with --gen-input, --golden: override input.yaml's seed and range\n"
	      "  --no-pipeline    no registers before the PEs (combinational kernels)\n"
	      "  --hop-limit N    at most N tiles between registers: longer connections get more\n"
	      "                   registers, kernels rebalanced and buffers rescheduled (default 4;\n"
	      "                   0: no limit)\n"
	      "  --no-register-packing  every pipeline register in the switch boxes (by default the last\n"
	      "                   register before a PE input is the PE's input register where its rule\n"
	      "                   allows, per <pe>.rules.yaml's registered:)\n"
	      "  --place-seed S   the placer's seed (default 1); the same seed, the same bitstream\n"
	      "  --check          parse and check only\n"
	      "  -q               no progress or summary lines\n"
	      "  -h, --help       this text\n"
	      "\n"
	      "Images: .pgm (1 channel), .ppm (3 channels), .raw (16-bit little-endian, no header).\n",
	      f);
}

typedef struct Opts {
	const char *app, *design, *out, *run, *streams;
	int emit;               /* the stage --emit stops after, or -1 */
	int lowered;            /* 1: --run-lowered, 2: --sim-buffers */
	int gen_input, golden, check, quiet;
	long seed;              /* -1: from input.yaml */
	int range_lo, range_hi; /* range_hi < 0: from input.yaml */
	CgracFlags flags;
} Opts;

static int parse_opts(int argc, char **argv, Opts *o)
{
	memset(o, 0, sizeof *o);
	o->seed = o->range_hi = o->emit = -1;
	o->flags.pipeline = 1;
	o->flags.hop_limit = CGRAC_HOP_LIMIT;
	o->flags.pack = 1;
	o->flags.place_seed = 1;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		int more = i + 1 < argc;
		if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			usage(stdout);
			exit(0);
		} else if (!strcmp(a, "--design") && more) {
			o->design = argv[++i];
		} else if (!strcmp(a, "-o") && more) {
			o->out = argv[++i];
		} else if (!strcmp(a, "--emit") && more) {
			o->emit = flow_stage(argv[++i]);
			if (o->emit < 0) {
				fprintf(stderr, "cgrac: --emit %s: expected %s\n", argv[i], flow_emit_names());
				return 0;
			}
		} else if (!strcmp(a, "--stages")) {
			flow_list(stdout);
			exit(0);
		} else if ((!strcmp(a, "--run") || !strcmp(a, "--run-lowered") || !strcmp(a, "--sim-buffers")) &&
			   more) {
			o->lowered = !strcmp(a, "--run-lowered") ? 1 : !strcmp(a, "--sim-buffers") ? 2 : 0;
			o->run = argv[++i];
		} else if (!strcmp(a, "--streams") && more) {
			o->streams = argv[++i];
		} else if (!strcmp(a, "--seed") && more) {
			o->seed = (long)util_option_number("cgrac", a, argv[++i], 0, INT64_MAX);
		} else if (!strcmp(a, "--range") && more) {
			if (sscanf(argv[++i], "%d:%d", &o->range_lo, &o->range_hi) != 2 || o->range_lo < 0 ||
			    o->range_hi > 65535 || o->range_lo > o->range_hi) {
				fprintf(stderr, "cgrac: --range %s: expected LO:HI within 0:65535\n", argv[i]);
				return 0;
			}
		} else if (!strcmp(a, "--gen-input")) {
			o->gen_input = 1;
		} else if (!strcmp(a, "--golden") && more) {
			o->golden = 1;
			o->out = argv[++i];
		} else if (!strcmp(a, "--no-pipeline")) {
			o->flags.pipeline = 0;
		} else if (!strcmp(a, "--no-register-packing")) {
			o->flags.pack = 0;
		} else if (!strcmp(a, "--hop-limit") && more) {
			o->flags.hop_limit = (int)util_option_number("cgrac", a, argv[++i], 0, 1000);
		} else if (!strcmp(a, "--place-seed") && more) {
			o->flags.place_seed = util_option_number("cgrac", a, argv[++i], 0, 2147483647L);
		} else if (!strcmp(a, "--check")) {
			o->check = 1;
		} else if (!strcmp(a, "-q")) {
			o->quiet = 1;
		} else if (a[0] == '-') {
			fprintf(stderr, "cgrac: unknown option or missing value: %s\n", a);
			return 0;
		} else if (o->app) {
			fprintf(stderr, "cgrac: two applications given (%s and %s)\n", o->app, a);
			return 0;
		} else {
			o->app = a;
		}
	}
	if (!o->app) {
		fprintf(stderr, "cgrac: no application given\n");
		return 0;
	}
	o->flags.quiet = o->quiet;
	if ((o->run || o->gen_input) && !o->out) {
		fprintf(stderr, "cgrac: %s needs -o\n", o->run ? "--run" : "--gen-input");
		return 0;
	}
	/* only --check and --emit (which prints) have nothing to write */
	if (!o->out && !o->check && o->emit < 0 && !o->run && !o->gen_input) {
		fprintf(stderr, "cgrac: compiling to a bitstream needs -o OUT (--emit STAGE prints one stage, "
				"--check only checks)\n");
		return 0;
	}
	return 1;
}

/* Writes one image atomically. */
static int write_image(const Image *im, const char *path)
{
	OutSet *set = outset_new();
	FILE *f = outset_open(set, path);
	char *err = NULL;
	if (!f || !image_write(im, path, f, &err)) {
		if (err)
			fprintf(stderr, "cgrac: %s\n", err);
		free(err);
		outset_abort(set);
		return 0;
	}
	return outset_commit(set) == 0;
}

/* "gaussian" of "apps/gaussian/gaussian.hl" (arena-less: a static buffer). */
static const char *app_base(const char *app)
{
	static char buf[256];
	const char *b = strrchr(app, '/') ? strrchr(app, '/') + 1 : app;
	size_t n = strlen(b);
	if (n > 3 && !strcmp(b + n - 3, ".hl"))
		n -= 3;
	snprintf(buf, sizeof buf, "%.*s", (int)(n < sizeof buf ? n : sizeof buf - 1), b);
	return buf;
}

/* The generated inputs: into o->out (one image) or o->out/<image>.<ext>; with
 * list (--golden), always into o->out/<app>.<image>.<ext>, their paths
 * appended to list, comma-separated. */
static int gen_input(const HProgram *p, const Opts *o, Diags *d, StrBuf *list)
{
	HRegions r;
	if (!hl_bounds(p, &r, d))
		return 0;
	char *dir = xstrdup(o->app);
	char *slash = strrchr(dir, '/');
	if (slash)
		slash[1] = 0;
	else
		dir[0] = 0;
	char *spec_path = xasprintf("%sinput.yaml", dir);
	free(dir);
	InputSpec spec;
	int ok = input_spec_load(spec_path, &spec, d), used = 0;
	free(spec_path);
	if (o->seed >= 0)
		spec.seed = (uint64_t)o->seed;
	if (o->range_hi >= 0) {
		spec.lo = o->range_lo;
		spec.hi = o->range_hi;
	}
	for (int m = 0; m < p->images.len; m++)
		used += r.image_used[m];
	for (int m = 0, k = 0; ok && m < p->images.len; m++) {
		if (!r.image_used[m])
			continue;
		const HImage *hi = &p->images.data[m];
		Image im = { .dims = hi->dims, .bits = ht_sample_bits(hi->type) };
		for (int i = 0; i < hi->dims; i++)
			im.extent[i] = (int)r.image[m][i].hi + 1;
		input_generate(&spec, k++, &im);
		const char *ext = image_ext(im.dims, im.extent);
		char *path = used == 1 && !list ? xstrdup(o->out)
			     : xasprintf("%s/%s.%s.%s", o->out, app_base(o->app), hi->name, ext);
		if (used > 1 || list)
			util_mkdir_p(o->out);
		if (list)
			sb_printf(list, "%s%s", list->len ? "," : "", path);
		ok = write_image(&im, path);
		if (ok && !o->quiet)
			fprintf(stderr, "cgrac: %s: input %s (%d x %d x %d) -> %s\n", p->file, hi->name,
				im.extent[0], im.dims > 1 ? im.extent[1] : 1, im.dims > 2 ? im.extent[2] : 1, path);
		free(path);
		image_free(&im);
	}
	hl_bounds_free(&r);
	return ok;
}

/* The streamed Funcs' values (hli_run_streams' order) into DIR/<app>.<func>.<ext>. */
static int write_streams(const HProgram *p, const Opts *o, const Image *streams)
{
	int ok = util_mkdir_p(o->streams) == 0, k = 0;
	for (int f = 0; ok && f < p->funcs.len; f++) {
		const HFunc *fn = &p->funcs.data[f];
		if (!fn->streamed || !streams[k].px)
			continue;
		const Image *im = &streams[k++];
		char *path = xasprintf("%s/%s.%s.%s", o->streams, app_base(o->app), fn->name,
				       image_ext(im->dims, im->extent));
		ok = write_image(im, path);
		if (ok && !o->quiet)
			fprintf(stderr, "cgrac: %s: host stream %s (%d x %d x %d) -> %s\n", p->file, fn->name,
				im->extent[0], im->dims > 1 ? im->extent[1] : 1, im->dims > 2 ? im->extent[2] : 1, path);
		free(path);
	}
	return ok;
}

/* The next item of a comma-separated list at *cur, cut in place; NULL at
 * the end. */
static char *next_item(char **cur)
{
	char *s = *cur;
	if (!s || !*s)
		return NULL;
	char *comma = strchr(s, ',');
	if (comma) {
		*comma = 0;
		*cur = comma + 1;
	} else {
		*cur = s + strlen(s);
	}
	return s;
}

/* The inputs of --run DIR: DIR/<app>.<image>.<ext> of every image read, comma-separated. */
static char *input_paths(const HProgram *p, const HRegions *r, const Opts *o)
{
	StrBuf b = { 0 };
	for (int m = 0; m < p->images.len; m++) {
		if (!r->image_used[m])
			continue;
		sb_printf(&b, "%s%s/%s.%s.%s", b.len ? "," : "", o->run, app_base(o->app), p->images.data[m].name,
			  hl_region_ext(p->images.data[m].dims, r->image[m], 1));
	}
	return b.s ? b.s : xstrdup("");
}

static int run(HProgram *p, const Opts *o, Diags *d)
{
	HRegions r;
	if (!hl_bounds(p, &r, d))
		return 0;
	Image *inputs = xcalloc((size_t)(p->images.len ? p->images.len : 1), sizeof *inputs);
	const char **files = xcalloc((size_t)(p->images.len ? p->images.len : 1), sizeof *files);
	char *list = util_is_dir(o->run) ? input_paths(p, &r, o) : xstrdup(o->run), *cursor = list;
	char *tok = next_item(&cursor);
	int ok = 1;
	for (int m = 0; ok && m < p->images.len; m++) {
		if (!r.image_used[m])
			continue;
		if (!tok) {
			fprintf(stderr, "cgrac: --run: no image given for input '%s'\n", p->images.data[m].name);
			ok = 0;
			break;
		}
		Image want = { .dims = p->images.data[m].dims };
		for (int i = 0; i < want.dims; i++)
			want.extent[i] = (int)r.image[m][i].hi + 1;
		char *err = NULL;
		if (!image_read(tok, &want, &inputs[m], &err)) {
			fprintf(stderr, "cgrac: %s\n", err);
			free(err);
			ok = 0;
		}
		files[m] = tok;
		tok = next_item(&cursor);
	}
	if (ok && tok) {
		fprintf(stderr, "cgrac: --run: more images than inputs the program reads (%s)\n", tok);
		ok = 0;
	}
	/* one check for the interpreter, the lowered kernels and the buffers */
	if (ok)
		ok = hli_check_inputs(p, &r, inputs, files, d);
	free(files);
	free(list);
	hl_bounds_free(&r);
	Image out = { 0 };
	double t0 = util_now();
	/* the streamed Funcs, computed by the host: inputs of the accelerator's view after the images */
	Image *streams = xcalloc((size_t)(p->funcs.len ? p->funcs.len : 1), sizeof *streams);
	int nstreams = 0;
	if (ok && (o->lowered || o->streams)) {
		ok = hli_run_streams(p, inputs, &out, streams, &nstreams, d);
		inputs = xrealloc(inputs, sizeof *inputs * (size_t)(p->images.len + nstreams + 1));
		memcpy(inputs + p->images.len, streams, sizeof *streams * (size_t)nstreams);
		memset(streams, 0, sizeof *streams * (size_t)nstreams);
	}
	int nimages = p->images.len;
	if (ok && o->streams && !o->lowered)
		ok = write_streams(p, o, inputs + nimages) && write_image(&out, o->out);
	else if (ok && o->lowered) {
		image_free(&out);
		FlowRequest fr = { o->design, NULL, o->lowered == 2 ? FS_UBUF : FS_DFG, 0, inputs, &out, &o->flags };
		ok = flow_run(p, &fr, d) && write_image(&out, o->out);
	} else if (ok)
		ok = hli_run(p, inputs, &out, d) && write_image(&out, o->out);
	if (ok && !o->quiet)
		fprintf(stderr, "cgrac: %s: %s %s (%d x %d x %d) in %.3f s -> %s\n", p->file,
			o->lowered == 2 ? "simulated the buffers of" : o->lowered ? "ran the lowered kernels of" : "interpreted", p->funcs.data[p->output].name, out.extent[0], out.dims > 1 ? out.extent[1] : 1,
			out.dims > 2 ? out.extent[2] : 1, util_now() - t0, o->out);
	for (int m = 0; m < nimages + nstreams; m++)
		image_free(&inputs[m]);
	for (int f = 0; f < p->funcs.len; f++)
		image_free(&streams[f]);
	free(streams);
	free(inputs);
	image_free(&out);
	return ok;
}

/* --golden DIR: what a run of the application on the chip needs, in DIR. */
static int golden(HProgram *p, const Opts *o, Diags *d)
{
	StrBuf list = { 0 };
	int ok = gen_input(p, o, d, &list);
	HRegions r;
	if (ok && !(ok = hl_bounds(p, &r, d)))
		ok = 0;
	char *out = NULL;
	if (ok) {
		out = xasprintf("%s/golden.%s", o->out, hl_region_ext(p->funcs.data[p->output].dims, r.func[p->output], 0));
		hl_bounds_free(&r);
		Opts ro = *o;
		ro.run = list.s ? list.s : "";
		ro.out = out;
		ro.streams = o->out;
		ok = run(p, &ro, d);
	}
	free(out);
	free(list.s);
	return ok;
}

int main(int argc, char **argv)
{
	Opts o;
	if (!parse_opts(argc, argv, &o)) {
		fprintf(stderr, "cgrac: --help for usage\n");
		return 2;
	}
	size_t len;
	char *text = util_read_file(o.app, &len);
	Diags *d = diags_new(stderr);
	if (!text || !diags_check_nul(d, o.app, text, len)) {
		if (!text)
			diag_error(d, o.app, 0, 0, "cannot read file: %s", strerror(errno));
		free(text);
		diags_free(d);
		return 1;
	}
	HProgram *p = hl_parse(o.app, text, d);
	free(text);
	int ok = p != NULL;
	if (ok && o.golden)
		ok = golden(p, &o, d);
	else if (ok && o.gen_input)
		ok = gen_input(p, &o, d, NULL);
	else if (ok && o.run && o.lowered && !o.design)
		ok = 0, fprintf(stderr, "cgrac: --%s needs --design DIR\n", o.lowered == 2 ? "sim-buffers" : "run-lowered");
	else if (ok && o.run)
		ok = run(p, &o, d);
	else if (ok && !o.check) {
		FlowRequest fr = { o.design, o.out, o.emit >= 0 ? (FlowStage)o.emit : FS_BITSTREAM, o.emit >= 0, NULL,
				   NULL, &o.flags };
		ok = flow_run(p, &fr, d);
	}
	diags_flush(d);
	hl_free(p);
	diags_free(d);
	return ok ? 0 : 1;
}
