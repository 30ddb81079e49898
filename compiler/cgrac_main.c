/* cgrac_main.c - the application compiler's command line: one mode (the
 * compilation, --check, --emit, the runs, --gen-input, --golden, --verify), the options
 * that mode uses and nothing else, and every file a mode writes kept until
 * the whole step has succeeded, then written at once (one OutSet). */
#define _POSIX_C_SOURCE 200809L /* open_memstream */

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../common/util.h"
#include "front/front.h"
#include "flow.h"
#include "verify.h"

static void usage(FILE *f)
{
	fputs("usage: cgrac APP.hl --design DIR -o OUT [--emit STAGE] [--no-pipeline] [--hop-limit N] [--sequential]\n"
	      "                                 [--no-register-packing] [--place-seed S]\n"
	      "       cgrac APP.hl --run IN[,IN...] -o OUT.pgm [--streams DIR]\n"
	      "       cgrac APP.hl --design DIR --run-lowered|--sim-buffers IN[,IN...] -o OUT.pgm\n"
	      "       cgrac APP.hl --gen-input -o IN.pgm [--seed S] [--range LO:HI]\n"
	      "       cgrac APP.hl --golden DIR [--seed S] [--range LO:HI]\n"
	      "       cgrac APP.hl --design DIR -o OUT --verify [--simulate] [--seed S] [--range LO:HI]\n"
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
	      "  --sequential     the iterations of a coarse-grained pipeline loop (a loop of the\n"
	      "                   accelerator that Funcs are computed at) one after another, not\n"
	      "                   overlapped: sequential scheduling, for comparison\n"
	      "  --verify         the whole flow with its checks, into OUT (an earlier run's outputs removed\n"
	      "                   first): --golden's files, the loop nest (<app>.lowered), the lowered\n"
	      "                   kernels' and the buffers' outputs (lowered.<ext>, buffers.<ext>) compared\n"
	      "                   with the golden image, the compilation's files, and last OUT/app.txt,\n"
	      "                   also when the program cannot be read, the application's line of a table:\n"
	      "                   PEs, MEMs, registers, tracks (16-bit+1-bit), MHz, latency, compile ms and\n"
	      "                   the verdict (same, DIFFERENT, bit-exact, or FAILED before the back end:,\n"
	      "                   NOT MAPPED:, CHECK FAILED:, SIM FAILED: and why), tab-separated; exit\n"
	      "                   status 0 when every check holds\n"
	      "  --simulate       with --verify: the compiled application also run on the fast simulator\n"
	      "                   (cgrasim beside cgrac) into OUT/fast/; a bit-exact run's line adds its\n"
	      "                   cycles=N, pe_used=USED/TOTAL and pe_busy=PERCENT\n"
	      "  --corrupt-golden with --verify: a bit of the golden image flipped before the checks (the\n"
	      "                   test of a test: every check must then find a difference)\n"
	      "  --check          parse and check only\n"
	      "  -q               no progress or summary lines\n"
	      "  -h, --help       this text\n"
	      "\n"
	      "Modes: --check, --emit, --run, --run-lowered, --sim-buffers, --gen-input, --golden, --verify,\n"
	      "one at most (none: the compilation). An option the mode does not use is a usage error (exit\n"
	      "status 2), as is an option with a value given twice: --design and the flow options\n"
	      "(--no-pipeline, --hop-limit, --no-register-packing, --place-seed, --sequential) are for the\n"
	      "compilation, --emit, --run-lowered, --sim-buffers and --verify; --streams for --run; --seed\n"
	      "and --range for --gen-input, --golden and --verify; --simulate and --corrupt-golden for\n"
	      "--verify; -o for all but --check and --golden.\n"
	      "\n"
	      "Images: .pgm (1 channel), .ppm (3 channels), .npy (NumPy, 1 to 4 dimensions), .raw\n"
	      "(16-bit little-endian, no header); at most 16777216 samples, 65536 in a dimension.\n",
	      f);
}

/* ---- the command line: one mode, and the options that mode uses ---- */

typedef enum { M_COMPILE, M_CHECK, M_EMIT, M_RUN, M_RUN_LOWERED, M_SIM_BUFFERS, M_GEN_INPUT, M_GOLDEN, M_VERIFY } Mode;

typedef enum {
	O_DESIGN, O_OUT, O_EMIT, O_RUN, O_RUN_LOWERED, O_SIM_BUFFERS, O_STREAMS, O_SEED, O_RANGE, O_GEN_INPUT,
	O_GOLDEN, O_NO_PIPELINE, O_HOP_LIMIT, O_NO_PACKING, O_PLACE_SEED, O_SEQUENTIAL, O_CHECK, O_VERIFY, O_SIMULATE, O_CORRUPT_GOLDEN, O_QUIET,
	O_COUNT
} OptId;

#define MB(m) (1u << (m))
#define ALL_MODES 0x1ffu
#define FLOW_MODES (MB(M_COMPILE) | MB(M_EMIT) | MB(M_RUN_LOWERED) | MB(M_SIM_BUFFERS) | MB(M_VERIFY))
#define FLOW_WHERE "the compilation, --emit, --run-lowered, --sim-buffers and --verify"

/* Each option: its name, what its value is (NULL: none), the mode it selects
 * (-1: none), else the modes it applies to and those modes in words. */
static const struct OptDef {
	const char *name, *value;
	int mode;
	unsigned modes;
	const char *where;
} opt_defs[O_COUNT] = {
	[O_DESIGN] = { "--design", "DIR", -1, FLOW_MODES, FLOW_WHERE " (which read the chip)" },
	[O_OUT] = { "-o", "OUT", -1, ALL_MODES & ~(MB(M_CHECK) | MB(M_GOLDEN)),
		    "the compilation, --emit, --run, --run-lowered, --sim-buffers and --gen-input (--golden DIR names "
		    "its folder; --check writes nothing)" },
	[O_EMIT] = { "--emit", "STAGE", M_EMIT, 0, NULL },
	[O_RUN] = { "--run", "IN[,IN...]", M_RUN, 0, NULL },
	[O_RUN_LOWERED] = { "--run-lowered", "IN[,IN...]", M_RUN_LOWERED, 0, NULL },
	[O_SIM_BUFFERS] = { "--sim-buffers", "IN[,IN...]", M_SIM_BUFFERS, 0, NULL },
	[O_STREAMS] = { "--streams", "DIR", -1, MB(M_RUN), "--run (--golden writes the streams into its folder)" },
	[O_SEED] = { "--seed", "S", -1, MB(M_GEN_INPUT) | MB(M_GOLDEN) | MB(M_VERIFY),
		     "--gen-input, --golden and --verify" },
	[O_RANGE] = { "--range", "LO:HI", -1, MB(M_GEN_INPUT) | MB(M_GOLDEN) | MB(M_VERIFY),
		      "--gen-input, --golden and --verify" },
	[O_GEN_INPUT] = { "--gen-input", NULL, M_GEN_INPUT, 0, NULL },
	[O_GOLDEN] = { "--golden", "DIR", M_GOLDEN, 0, NULL },
	[O_NO_PIPELINE] = { "--no-pipeline", NULL, -1, FLOW_MODES, FLOW_WHERE },
	[O_HOP_LIMIT] = { "--hop-limit", "N", -1, FLOW_MODES, FLOW_WHERE },
	[O_NO_PACKING] = { "--no-register-packing", NULL, -1, FLOW_MODES, FLOW_WHERE },
	[O_PLACE_SEED] = { "--place-seed", "S", -1, FLOW_MODES, FLOW_WHERE },
	[O_SEQUENTIAL] = { "--sequential", NULL, -1, FLOW_MODES, FLOW_WHERE },
	[O_CHECK] = { "--check", NULL, M_CHECK, 0, NULL },
	[O_VERIFY] = { "--verify", NULL, M_VERIFY, 0, NULL },
	[O_SIMULATE] = { "--simulate", NULL, -1, MB(M_VERIFY), "--verify" },
	[O_CORRUPT_GOLDEN] = { "--corrupt-golden", NULL, -1, MB(M_VERIFY), "--verify" },
	[O_QUIET] = { "-q", NULL, -1, ALL_MODES, NULL },
};

typedef struct Opts {
	const char *app, *design, *out, *run, *streams;
	Mode mode;
	OptId mode_opt;         /* the option that chose the mode (when not M_COMPILE) */
	const char *given[O_COUNT];     /* each option's value ("" for a flag), NULL if not given */
	int emit;               /* the stage --emit stops after, or -1 */
	int lowered;            /* 1: --run-lowered, 2: --sim-buffers */
	int quiet;
	int simulate;           /* --verify --simulate */
	int corrupt_golden;     /* --verify --corrupt-golden */
	long seed;              /* -1: from input.yaml */
	int range_lo, range_hi; /* range_hi < 0: from input.yaml */
	CgracFlags flags;
} Opts;

static const char *mode_name(const Opts *o)
{
	return o->mode == M_COMPILE ? "the compilation" : opt_defs[o->mode_opt].name;
}

/* --range LO:HI: two numbers from 0 to 65535, LO <= HI, and nothing else. */
static int parse_range(const char *v, Opts *o)
{
	const char *colon = strchr(v, ':');
	uint64_t lo = 0, hi = 0;
	int ok = colon != NULL;
	if (ok) {
		char *first = xasprintf("%.*s", (int)(colon - v), v);
		ok = util_parse_number(first, 0, 65535, &lo) == 0 && util_parse_number(colon + 1, 0, 65535, &hi) == 0 &&
		     lo <= hi;
		free(first);
	}
	if (!ok) {
		fprintf(stderr, "cgrac: --range expects LO:HI, two numbers from 0 to 65535 with LO <= HI, got '%s'\n", v);
		return 0;
	}
	o->range_lo = (int)lo;
	o->range_hi = (int)hi;
	return 1;
}

/* The value of option k (at argv[i]) taken into o; 0 with a message. */
static int take_option(Opts *o, OptId k, const char *v)
{
	switch (k) {
	case O_DESIGN: o->design = v; break;
	case O_OUT: o->out = v; break;
	case O_EMIT:
		o->emit = flow_stage(v);
		if (o->emit < 0) {
			fprintf(stderr, "cgrac: --emit %s: expected %s\n", v, flow_emit_names());
			return 0;
		}
		break;
	case O_RUN: case O_RUN_LOWERED: case O_SIM_BUFFERS:
		o->run = v;
		o->lowered = k == O_RUN_LOWERED ? 1 : k == O_SIM_BUFFERS ? 2 : 0;
		break;
	case O_STREAMS: o->streams = v; break;
	case O_SEED: o->seed = (long)util_option_number("cgrac", "--seed", v, 0, INT64_MAX); break;
	case O_RANGE: return parse_range(v, o);
	case O_GOLDEN: o->out = v; break;
	case O_NO_PIPELINE: o->flags.pipeline = 0; break;
	case O_HOP_LIMIT: o->flags.hop_limit = (int)util_option_number("cgrac", "--hop-limit", v, 0, 1000); break;
	case O_NO_PACKING: o->flags.pack = 0; break;
	case O_PLACE_SEED: o->flags.place_seed = util_option_number("cgrac", "--place-seed", v, 0, 2147483647L); break;
	case O_SEQUENTIAL: o->flags.sequential = 1; break;
	case O_QUIET: o->quiet = 1; break;
	case O_SIMULATE: o->simulate = 1; break;
	case O_CORRUPT_GOLDEN: o->corrupt_golden = 1; break;
	default: break;
	}
	return 1;
}

/* One argument (and its value, at argv[*i + 1]); 0 with a message. */
static int parse_arg(int argc, char **argv, int *i, Opts *o)
{
	const char *a = argv[*i];
	if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
		usage(stdout);
		exit(0);
	} else if (!strcmp(a, "--stages")) {
		flow_list(stdout);
		exit(0);
	}
	int k = 0;
	while (k < O_COUNT && strcmp(a, opt_defs[k].name))
		k++;
	if (k == O_COUNT) {
		if (a[0] == '-') {
			fprintf(stderr, "cgrac: unknown option %s\n", a);
			return 0;
		}
		if (o->app) {
			fprintf(stderr, "cgrac: two applications given (%s and %s)\n", o->app, a);
			return 0;
		}
		o->app = a;
		return 1;
	}
	const struct OptDef *def = &opt_defs[k];
	const char *v = "";
	if (def->value) {
		if (*i + 1 >= argc) {
			fprintf(stderr, "cgrac: %s needs a value: %s %s\n", a, a, def->value);
			return 0;
		}
		v = argv[++*i];
		if (!*v) {
			fprintf(stderr, "cgrac: %s needs a value, got an empty one: %s %s\n", a, a, def->value);
			return 0;
		}
		if (def->mode == M_RUN || def->mode == M_RUN_LOWERED || def->mode == M_SIM_BUFFERS) {
			size_t n = strlen(v);
			if (v[0] == ',' || v[n - 1] == ',' || strstr(v, ",,")) {
				fprintf(stderr, "cgrac: %s expects image files separated by commas, got '%s' (an empty "
						"name)\n", a, v);
				return 0;
			}
		}
		if (o->given[k]) {
			fprintf(stderr, "cgrac: %s given twice (%s and %s): give it once\n", a, o->given[k], v);
			return 0;
		}
	}
	if (def->mode >= 0 && o->mode != M_COMPILE && o->mode_opt != (OptId)k) {
		fprintf(stderr, "cgrac: %s and %s are two modes: give one of --check, --emit, --run, --run-lowered, "
				"--sim-buffers, --gen-input, --golden and --verify (none: the compilation)\n",
			opt_defs[o->mode_opt].name, a);
		return 0;
	}
	if (def->mode >= 0) {
		o->mode = (Mode)def->mode;
		o->mode_opt = (OptId)k;
	}
	o->given[k] = v;
	return take_option(o, (OptId)k, v);
}

/* What the mode needs and what it does not use; 0 with a message. */
static int check_opts(const Opts *o)
{
	if (!o->app) {
		fprintf(stderr, "cgrac: no application given\n");
		return 0;
	}
	for (int k = 0; k < O_COUNT; k++)
		if (o->given[k] && opt_defs[k].mode < 0 && !(opt_defs[k].modes & MB(o->mode))) {
			fprintf(stderr, "cgrac: %s does not apply to %s: it is for %s\n", opt_defs[k].name, mode_name(o),
				opt_defs[k].where);
			return 0;
		}
	if ((o->mode == M_RUN || o->mode == M_RUN_LOWERED || o->mode == M_SIM_BUFFERS || o->mode == M_GEN_INPUT ||
	     o->mode == M_VERIFY) && !o->out) {
		fprintf(stderr, "cgrac: %s needs -o %s\n", mode_name(o), o->mode == M_GEN_INPUT ? "IN" : "OUT");
		return 0;
	}
	if ((o->mode == M_RUN_LOWERED || o->mode == M_SIM_BUFFERS || o->mode == M_VERIFY) && !o->design) {
		fprintf(stderr, "cgrac: %s needs --design DIR\n", mode_name(o));
		return 0;
	}
	/* only --check and --emit (which prints) have nothing to write */
	if (o->mode == M_COMPILE && !o->out) {
		fprintf(stderr, "cgrac: compiling to a bitstream needs -o OUT (--emit STAGE prints one stage, "
				"--check only checks)\n");
		return 0;
	}
	return 1;
}

static int parse_opts(int argc, char **argv, Opts *o)
{
	memset(o, 0, sizeof *o);
	o->seed = o->range_hi = o->emit = -1;
	o->flags.pipeline = 1;
	o->flags.hop_limit = CGRAC_HOP_LIMIT;
	o->flags.pack = 1;
	o->flags.place_seed = 1;
	for (int i = 1; i < argc; i++)
		if (!parse_arg(argc, argv, &i, o))
			return 0;
	o->flags.quiet = o->quiet;
	return check_opts(o);
}

/* ---- outputs: every file of a step kept in memory, then written at once
 * through one OutSet, so that a failure anywhere writes nothing ---- */

typedef struct Pending {
	char *path, *data;
	size_t len;
	char *note;             /* the progress line once written, or NULL */
} Pending;

typedef struct Outputs {
	Pending *v;
	int n;
	const char *dir, *dir_opt;      /* a folder to create for them (and the option naming it), or NULL */
} Outputs;

/* im encoded in path's format, added to w with the progress line note
 * (taken); with back, the image as a reader will find it in the file (an
 * 8-bit file keeps the low byte of each value). 0 with a message. */
static int outputs_image(Outputs *w, const Image *im, const char *path, Image *back, __take char *note)
{
	char *buf = NULL, *err = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	if (!f)
		ICE("open_memstream: %s", strerror(errno));
	int ok = image_write(im, path, f, &err);
	fclose(f);
	if (ok && back)
		ok = image_read_mem(path, (const unsigned char *)buf, len, im, back, &err);
	if (!ok) {
		fprintf(stderr, "cgrac: error: %s\n", err);
		free(err);
		free(buf);
		free(note);
		return 0;
	}
	w->v = xrealloc(w->v, sizeof *w->v * (size_t)(w->n + 1));
	w->v[w->n++] = (Pending){ xstrdup(path), buf, len, note };
	return 1;
}

static void outputs_free(Outputs *w)
{
	for (int k = 0; k < w->n; k++) {
		free(w->v[k].path);
		free(w->v[k].data);
		free(w->v[k].note);
	}
	free(w->v);
	w->v = NULL;
	w->n = 0;
}

/* The folder dir of option opt, made if missing (*made set then) and
 * writable; 0 with a message naming it and the reason. */
static int make_dir(const char *dir, const char *opt, int *made)
{
	struct stat st;
	*made = 0;
	if (stat(dir, &st) == 0) {
		if (!S_ISDIR(st.st_mode)) {
			fprintf(stderr, "cgrac: error: %s: not a folder (%s names the folder to write into)\n", dir, opt);
			return 0;
		}
	} else if (util_mkdir_p(dir) != 0) {
		fprintf(stderr, "cgrac: error: %s: cannot create the folder: %s\n", dir, strerror(errno));
		return 0;
	} else {
		*made = 1;
	}
	if (access(dir, W_OK | X_OK) != 0) {
		fprintf(stderr, "cgrac: error: %s: cannot write into the folder: %s\n", dir, strerror(errno));
		if (*made)
			rmdir(dir);
		return 0;
	}
	return 1;
}

/* Writes every file of w (its folder made first), all or none; prints their
 * progress lines unless quiet; frees w. */
static int outputs_commit(Outputs *w, int quiet)
{
	int made = 0, ok = !w->dir || make_dir(w->dir, w->dir_opt, &made);
	OutSet *set = ok ? outset_new() : NULL;
	for (int k = 0; ok && k < w->n; k++) {
		FILE *f = outset_open(set, w->v[k].path);
		ok = f && fwrite(w->v[k].data, 1, w->v[k].len, f) == w->v[k].len;
	}
	if (set && !ok)
		outset_abort(set);
	else if (set)
		ok = outset_commit(set) == 0;
	if (!ok && made)
		rmdir(w->dir);
	for (int k = 0; ok && !quiet && k < w->n; k++)
		if (w->v[k].note)
			fprintf(stderr, "%s\n", w->v[k].note);
	outputs_free(w);
	return ok;
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

/* "cgrac: APP: WHAT NAME (W x H x C) -> PATH", a progress line. */
static char *note(const HProgram *p, const char *what, const char *name, const Image *im, const char *path)
{
	return xasprintf("cgrac: %s: %s %s (%d x %d x %d) -> %s", p->file, what, name, im->extent[0],
			 im->dims > 1 ? im->extent[1] : 1, im->dims > 2 ? im->extent[2] : 1, path);
}

/* ---- generated inputs (input.yaml beside the application) ---- */

/* inputs[m] for every image m the program reads (r), generated as the
 * input.yaml beside the application says, --seed and --range overriding it;
 * 0 with errors in d. */
static int generate_inputs(const HProgram *p, const HRegions *r, const Opts *o, Image *inputs, Diags *d)
{
	char *dir = xstrdup(o->app);
	char *slash = strrchr(dir, '/');
	if (slash)
		slash[1] = 0;
	else
		dir[0] = 0;
	char *spec_path = xasprintf("%sinput.yaml", dir);
	free(dir);
	InputSpec spec;
	int ok = input_spec_load(spec_path, &spec, d);
	free(spec_path);
	if (o->seed >= 0)
		spec.seed = (uint64_t)o->seed;
	if (o->range_hi >= 0) {
		spec.lo = o->range_lo;
		spec.hi = o->range_hi;
	}
	for (int m = 0, k = 0; ok && m < p->images.len; m++) {
		if (!r->image_used[m])
			continue;
		const HImage *hi = &p->images.data[m];
		int64_t ext[4] = { 0 };
		for (int i = 0; i < hi->dims; i++)
			ext[i] = r->image[m][i].hi + 1;
		char *why = NULL;
		if (!image_shape_ok(hi->dims, ext, &why)) {
			diag_error(d, p->file, hi->line, hi->col, "cannot generate the input '%s': %s", hi->name, why);
			free(why);
			ok = 0;
			break;
		}
		Image *im = &inputs[m];
		*im = (Image){ .dims = hi->dims, .bits = ht_sample_bits(hi->type) };
		for (int i = 0; i < hi->dims; i++)
			im->extent[i] = (int)ext[i];
		input_generate(&spec, k++, im);
	}
	return ok;
}

/* The path of a file of a folder's set: DIR/<app>.<name>.<ext>. */
static char *set_path(const char *dir, const Opts *o, const char *name, const Image *im)
{
	return xasprintf("%s/%s.%s.%s", dir, app_base(o->app), name, image_ext(im->dims, im->extent));
}

/* --gen-input: into o->out (one image) or o->out/<app>.<image>.<ext>. */
static int gen_input(const HProgram *p, const Opts *o, Diags *d)
{
	HRegions r;
	if (!hl_bounds(p, &r, d))
		return 0;
	Image *inputs = xcalloc((size_t)(p->images.len ? p->images.len : 1), sizeof *inputs);
	int ok = generate_inputs(p, &r, o, inputs, d), used = 0;
	for (int m = 0; m < p->images.len; m++)
		used += r.image_used[m];
	Outputs w = { .dir = used > 1 ? o->out : NULL, .dir_opt = "-o" };
	for (int m = 0; ok && m < p->images.len; m++) {
		if (!r.image_used[m])
			continue;
		const char *name = p->images.data[m].name;
		char *path = used == 1 ? xstrdup(o->out) : set_path(o->out, o, name, &inputs[m]);
		ok = outputs_image(&w, &inputs[m], path, NULL, note(p, "input", name, &inputs[m], path));
		free(path);
	}
	ok = ok && outputs_commit(&w, o->quiet);
	outputs_free(&w);
	for (int m = 0; m < p->images.len; m++)
		image_free(&inputs[m]);
	free(inputs);
	hl_bounds_free(&r);
	return ok;
}

/* ---- running the program ---- */

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

/* inputs[m] read from the files of --run (a list, or a folder written by
 * --golden or --gen-input), files[m] their names (pointing into *list, to
 * free); 0 with a message. */
static int read_inputs(const HProgram *p, const HRegions *r, const Opts *o, Image *inputs, const char **files,
		       char **list)
{
	*list = util_is_dir(o->run) ? input_paths(p, r, o) : xstrdup(o->run);
	char *cursor = *list, *tok = next_item(&cursor);
	for (int m = 0; m < p->images.len; m++) {
		if (!r->image_used[m])
			continue;
		if (!tok) {
			fprintf(stderr, "cgrac: error: %s: no image given for input '%s'\n", mode_name(o),
				p->images.data[m].name);
			return 0;
		}
		Image want = { .dims = p->images.data[m].dims };
		for (int i = 0; i < want.dims; i++)
			want.extent[i] = (int)r->image[m][i].hi + 1;
		char *err = NULL;
		if (!image_read(tok, &want, &inputs[m], &err)) {
			fprintf(stderr, "cgrac: error: %s\n", err);
			free(err);
			return 0;
		}
		files[m] = tok;
		tok = next_item(&cursor);
	}
	if (tok) {
		fprintf(stderr, "cgrac: error: %s: more images than inputs the program reads (%s)\n", mode_name(o), tok);
		return 0;
	}
	return 1;
}

/* The program run on checked inputs (one per image; the lowered modes
 * append the streams to *inputs) into out; with streams_dir, every streamed
 * Func's values also added to w as streams_dir/<app>.<func>.<ext>. 0 with
 * errors. */
static int compute(HProgram *p, const Opts *o, Image **inputs, Image *out, const char *streams_dir, Outputs *w,
		   Diags *d)
{
	int nimages = p->images.len, nstreams = 0, ok = 1;
	Image *streams = xcalloc((size_t)(p->funcs.len ? p->funcs.len : 1), sizeof *streams);
	if (o->lowered || streams_dir) {
		/* the streamed Funcs, computed by the host: inputs of the accelerator's view after the images */
		ok = hli_run_streams(p, *inputs, out, streams, &nstreams, d);
		*inputs = xrealloc(*inputs, sizeof **inputs * (size_t)(nimages + nstreams + 1));
		memcpy(*inputs + nimages, streams, sizeof *streams * (size_t)nstreams);
		memset(streams, 0, sizeof *streams * (size_t)nstreams);
	}
	if (ok && streams_dir) {
		for (int f = 0, k = 0; ok && f < p->funcs.len && k < nstreams; f++) {
			const Image *im = *inputs + nimages + k;
			if (!p->funcs.data[f].streamed || !im->px)
				continue;
			k++;
			char *path = set_path(streams_dir, o, p->funcs.data[f].name, im);
			ok = outputs_image(w, im, path, NULL, note(p, "host stream", p->funcs.data[f].name, im, path));
			free(path);
		}
	} else if (ok && o->lowered) {
		image_free(out);
		FlowRequest fr = { .design = o->design, .goal = o->lowered == 2 ? FS_UBUF : FS_DFG, .inputs = *inputs,
				   .result = out, .flags = &o->flags };
		ok = flow_run(p, &fr, d);
	} else if (ok) {
		ok = hli_run(p, *inputs, out, d);
	}
	for (int m = nimages; m < nimages + nstreams; m++)
		image_free(&(*inputs)[m]);
	for (int f = 0; f < p->funcs.len; f++)
		image_free(&streams[f]);
	free(streams);
	return ok;
}

/* The line for the output image once written. */
static char *run_note(const HProgram *p, const Opts *o, const Image *out, double seconds, const char *path)
{
	return xasprintf("cgrac: %s: %s %s (%d x %d x %d) in %.3f s -> %s", p->file,
			 o->lowered == 2 ? "simulated the buffers of" : o->lowered ? "ran the lowered kernels of"
			 : "interpreted", p->funcs.data[p->output].name, out->extent[0], out->dims > 1 ? out->extent[1] : 1,
			 out->dims > 2 ? out->extent[2] : 1, seconds, path);
}

/* --run, --run-lowered, --sim-buffers: the output image into o->out, the
 * streams (--streams) into their folder, all or nothing. */
static int run(HProgram *p, const Opts *o, Diags *d)
{
	HRegions r;
	if (!hl_bounds(p, &r, d))
		return 0;
	int nimages = p->images.len;
	Image *inputs = xcalloc((size_t)(nimages ? nimages : 1), sizeof *inputs);
	const char **files = xcalloc((size_t)(nimages ? nimages : 1), sizeof *files);
	char *list = NULL;
	/* one check for the interpreter, the lowered kernels and the buffers */
	int ok = read_inputs(p, &r, o, inputs, files, &list) && hli_check_inputs(p, &r, inputs, files, d);
	free(files);
	free(list);
	hl_bounds_free(&r);
	Image out = { 0 };
	Outputs w = { .dir = o->streams, .dir_opt = "--streams" };
	double t0 = util_now();
	ok = ok && compute(p, o, &inputs, &out, o->streams, &w, d);
	if (ok && o->streams && w.n == 0) {
		fprintf(stderr, "cgrac: error: --streams %s: the program streams no Func into the accelerator, so there "
				"is nothing to write\n", o->streams);
		ok = 0;
	}
	ok = ok && outputs_image(&w, &out, o->out, NULL, run_note(p, o, &out, util_now() - t0, o->out)) &&
	     outputs_commit(&w, o->quiet);
	outputs_free(&w);
	for (int m = 0; m < nimages; m++)
		image_free(&inputs[m]);
	free(inputs);
	image_free(&out);
	return ok;
}

/* --golden DIR: what a run of the application on the chip needs, in DIR:
 * the generated inputs, the host's streams and the interpreter's output
 * DIR/golden.<ext> (its path into *golden_path unless NULL, to free), all
 * or nothing. The interpreter reads the inputs as they are in their files. */
static int golden(HProgram *p, const Opts *o, char **golden_path, Diags *d)
{
	HRegions r;
	if (!hl_bounds(p, &r, d))
		return 0;
	int nimages = p->images.len;
	Image *gen = xcalloc((size_t)(nimages ? nimages : 1), sizeof *gen);
	Image *inputs = xcalloc((size_t)(nimages ? nimages : 1), sizeof *inputs);
	char **paths = xcalloc((size_t)(nimages ? nimages : 1), sizeof *paths);
	Outputs w = { .dir = o->out, .dir_opt = "--golden" };
	int ok = generate_inputs(p, &r, o, gen, d);
	for (int m = 0; ok && m < nimages; m++) {
		if (!r.image_used[m])
			continue;
		const char *name = p->images.data[m].name;
		paths[m] = set_path(o->out, o, name, &gen[m]);
		ok = outputs_image(&w, &gen[m], paths[m], &inputs[m], note(p, "input", name, &gen[m], paths[m]));
	}
	ok = ok && hli_check_inputs(p, &r, inputs, (const char *const *)paths, d);
	char *out_path = xasprintf("%s/golden.%s", o->out,
				   hl_region_ext(p->funcs.data[p->output].dims, r.func[p->output], 0));
	hl_bounds_free(&r);
	Image out = { 0 };
	double t0 = util_now();
	/* the output last: the marker of the set */
	ok = ok && compute(p, o, &inputs, &out, o->out, &w, d) &&
	     outputs_image(&w, &out, out_path, NULL, run_note(p, o, &out, util_now() - t0, out_path)) &&
	     outputs_commit(&w, o->quiet);
	outputs_free(&w);
	for (int m = 0; m < nimages; m++) {
		image_free(&gen[m]);
		image_free(&inputs[m]);
		free(paths[m]);
	}
	free(gen);
	free(inputs);
	free(paths);
	if (golden_path)
		*golden_path = out_path;
	else
		free(out_path);
	image_free(&out);
	return ok;
}

/* ---- --verify: the whole flow with its checks, and the application's
 * line in a table of applications (OUT/app.txt, verify.h) ---- */

/* Each step after the golden set parses the program again (each prepares
 * it in place) and reports into diagnostics of its own, as a command of its
 * own would: an error a step repeats from an earlier one is its reason too. */

/* --run-lowered (lowered 1) or --sim-buffers (2) of the inputs in o->out
 * into OUT/<name>.<ext>; 1 if it ran and equals golden. *why: the reason it
 * did not run. */
static int check_against(const char *text, const Opts *o, int lowered, const char *name, const char *ext,
			 const char *golden_path, char **why)
{
	Diags *d = diags_new(stderr);
	HProgram *q = hl_parse(o->app, text, d);
	Opts r = *o;
	char *out = xasprintf("%s/%s.%s", o->out, name, ext);
	r.mode = lowered == 1 ? M_RUN_LOWERED : M_SIM_BUFFERS;
	r.mode_opt = lowered == 1 ? O_RUN_LOWERED : O_SIM_BUFFERS;
	r.lowered = lowered;
	r.run = o->out;
	r.out = out;
	int ran = q && run(q, &r, d);
	if (!ran)
		*why = verify_failure(d, 0, lowered == 1 ? "running the lowered kernels" : "the buffer-level simulation");
	int same = ran && verify_same(golden_path, out);
	hl_free(q);
	diags_free(d);
	free(out);
	return same;
}

/* The whole compilation into o->out, its figures and milliseconds (from
 * the parse to the files written); NULL, or why it failed. */
static char *compile_all(const char *text, const Opts *o, FlowFigures *fig, long *ms)
{
	Diags *d = diags_new(stderr);
	double t0 = util_now();
	HProgram *q = hl_parse(o->app, text, d);
	FlowRequest fr = { .design = o->design, .out = o->out, .goal = FS_BITSTREAM, .flags = &o->flags,
			   .figures = fig };
	int ok = q && flow_run(q, &fr, d);
	*ms = (long)(1000 * (util_now() - t0) + 0.5);
	char *why = ok ? NULL : verify_failure(d, 0, "the compilation");
	hl_free(q);
	diags_free(d);
	return why;
}

/* The golden set in o->out (--golden's files), corrupted on request: the
 * golden image's path, or NULL with *why. */
static char *golden_set(HProgram *p, const Opts *o, char **why, Diags *d)
{
	int from = diags_count(d);
	char *path = NULL;
	if (golden(p, o, &path, d) && (!o->corrupt_golden || verify_corrupt(path)))
		return path;
	*why = verify_failure(d, from, "writing the golden image");
	free(path);
	return NULL;
}

/* The loop nest's file (<app>.lowered, as --emit lowered writes it), then
 * the lowered kernels' and the buffers' outputs compared with the golden
 * image: 1 if both equal it; *why if a step could not run. */
static int checks(const char *text, const Opts *o, const char *golden_path, char **why)
{
	Diags *d = diags_new(stderr);
	HProgram *q = hl_parse(o->app, text, d);
	FlowRequest fr = { .design = o->design, .out = o->out, .goal = FS_LOWERED, .emit = 1, .flags = &o->flags,
			   .no_print = 1 };
	if (!q || !flow_run(q, &fr, d))
		*why = verify_failure(d, 0, "lowering");
	hl_free(q);
	diags_free(d);
	const char *ext = strrchr(golden_path, '.') + 1;
	int lowered = !*why && check_against(text, o, 1, "lowered", ext, golden_path, why);
	int buffers = !*why && check_against(text, o, 2, "buffers", ext, golden_path, why);
	return lowered && buffers;
}

/* --verify, once the folder is cleared and the program parsed: in OUT, the
 * golden set; the lowered kernels and the buffers checked against the
 * golden image; the whole compilation; with --simulate the bitstream's run
 * on the fast simulator; then the line app.txt, written last, whatever the
 * verdict (a refusal of the compilation before a failed check). 1 when
 * every check holds. */
static int verify(HProgram *p, const char *text, const Opts *o, Diags *d)
{
	double t0 = util_now();
	char *why = NULL, *unmapped = NULL, *sim = NULL, *golden_path = golden_set(p, o, &why, d);
	int same = golden_path && checks(text, o, golden_path, &why);
	FlowFigures fig;
	long ms = -1;
	if (golden_path)
		unmapped = compile_all(text, o, &fig, &ms);
	const char *verdict = "same", *message = NULL;
	if (!golden_path)
		verdict = "FAILED before the back end: ", message = why;
	else if (unmapped)
		verdict = "NOT MAPPED: ", message = unmapped;
	else if (why)
		verdict = "CHECK FAILED: ", message = why;
	else if (!same)
		verdict = "DIFFERENT";
	else if (o->simulate)
		verdict = sim = verify_simulate(o->out, app_base(o->app), o->design, o->quiet);
	int ok = verify_write_line(o->out, !golden_path || unmapped ? NULL : &fig, ms, verdict, message) &&
		 (!strcmp(verdict, "same") || !strncmp(verdict, "bit-exact", 9));
	if (!o->quiet)
		fprintf(stderr, "cgrac: %s: verified in %.2f s: %.*s%s -> %s/app.txt\n", o->app, util_now() - t0,
			(int)strcspn(verdict, "\t"), verdict, message ? message : "", o->out);
	free(sim);
	free(why);
	free(unmapped);
	free(golden_path);
	return ok;
}

/* --verify of a program that could not be read or parsed: its line, with
 * the first error. */
static int verify_unparsed(const Opts *o, const Diags *d)
{
	char *why = verify_failure(d, 0, "reading the program");
	verify_write_line(o->out, NULL, -1, "FAILED before the back end: ", why);
	free(why);
	return 0;
}

int main(int argc, char **argv)
{
	Opts o;
	if (!parse_opts(argc, argv, &o)) {
		fprintf(stderr, "cgrac: --help for usage\n");
		return 2;
	}
	int made;
	if (o.mode == M_VERIFY && (!make_dir(o.out, "-o", &made) || !verify_clear(o.out, app_base(o.app))))
		return 1;
	size_t len;
	char *text = util_read_file(o.app, &len);
	Diags *d = diags_new(stderr);
	if (!text || !diags_check_nul(d, o.app, text, len)) {
		if (!text)
			diag_error(d, o.app, 0, 0, "cannot read file: %s", util_read_why(errno));
		if (o.mode == M_VERIFY)
			verify_unparsed(&o, d);
		free(text);
		diags_free(d);
		return 1;
	}
	HProgram *p = hl_parse(o.app, text, d);
	int ok = p != NULL;
	if (!ok && o.mode == M_VERIFY)
		verify_unparsed(&o, d);
	else if (ok && o.mode == M_VERIFY)
		ok = verify(p, text, &o, d);
	else if (ok && o.mode == M_GOLDEN)
		ok = golden(p, &o, NULL, d);
	else if (ok && o.mode == M_GEN_INPUT)
		ok = gen_input(p, &o, d);
	else if (ok && (o.mode == M_RUN || o.mode == M_RUN_LOWERED || o.mode == M_SIM_BUFFERS))
		ok = run(p, &o, d);
	else if (ok && o.mode != M_CHECK) {
		FlowRequest fr = { .design = o.design, .out = o.out, .goal = o.emit >= 0 ? (FlowStage)o.emit : FS_BITSTREAM,
				   .emit = o.emit >= 0, .flags = &o.flags };
		ok = flow_run(p, &fr, d);
	}
	free(text);
	diags_flush(d);
	hl_free(p);
	diags_free(d);
	return ok ? 0 : 1;
}
