/* flow.c - the compiler as one ordered table of stages (flow.h). Each entry
 * names the stage, the folder that implements it, what it consumes and
 * produces, and its hooks: run (the stage itself), emit (print its result:
 * --emit NAME), exec (run its result: --run-lowered, --sim-buffers), files
 * (what it adds to the whole flow's outputs), and asks (a later stage asking
 * an earlier one for registers, and where the walk then resumes). flow_run
 * walks the table up to the goal; adding a stage is one entry.
 *
 * Stages whose `from` is later than themselves run only when the goal is at
 * least `from`: compute mapping and pipelining give the kernels' latencies
 * to the buffers' schedule only when the back end follows, so --emit ubuf
 * and --sim-buffers show the buffers of combinational kernels. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../collateral/coll.h"
#include "backend/backend.h"
#include "flow.h"
#include "lower/lower.h"
#include "ubuf/ubuf.h"

/* Rounds of pipelining, buffers, netlist and placement while long
 * connections ask for registers; the last round keeps what it has. */
#define REGISTER_ROUNDS 4

typedef struct Flow {
	HProgram *p;
	const FlowRequest *r;
	const CgracFlags *fl;
	Diags *d;
	char ran[FS_COUNT];     /* the stages that ran (their results to free) */
	double seconds[FS_COUNT];
	double t0;
	int round;              /* of register feedback, from 1 */
	int pipeline;           /* pipelining on: asked for, unless lowered */
	Collateral c;
	int has_c;
	LProgram L;
	DGraph g;
	CMap cm;
	UbProgram u;
	UbMap m;
	BeOptions bo;
	Backend *be;
} Flow;

typedef struct Stage {
	const char *name;
	const char *folder;
	const char *consumes, *produces;
	FlowStage from;                         /* runs only for goals from this stage on */
	int (*run)(Flow *F);
	int (*emit)(Flow *F);                   /* --emit NAME */
	int (*exec)(Flow *F);                   /* --run-lowered, --sim-buffers */
	int (*files)(Flow *F, BeFile *f);       /* the whole flow's files of this stage; returns how many */
	int (*asks)(Flow *F);                   /* registers asked of earlier stages and granted; how many */
	FlowStage redo_from;                    /* after asks: where the walk resumes */
} Stage;

static const Stage stages[FS_COUNT];

static void progress(const Flow *F, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void progress(const Flow *F, const char *fmt, ...)
{
	if (F->fl->quiet)
		return;
	va_list ap;
	va_start(ap, fmt);
	fprintf(stderr, "cgrac: %s: ", F->p->file);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
}

/* ---- writing a stage's result ---- */

/* OUT/<app>.<ext> for the application file app. */
static char *out_path(const char *out, const char *app, const char *ext)
{
	const char *base = strrchr(app, '/');
	base = base ? base + 1 : app;
	size_t n = strcspn(base, ".");
	return xasprintf("%s/%.*s.%s", out, (int)n, base, ext);
}

/* Writes OUT/<app>.<ext> of each of the n files, all or none (one OutSet);
 * 1 if out is NULL. */
static int write_outs(const char *out, const char *app, const BeFile *files, int n)
{
	if (!out)
		return 1;
	if (util_mkdir_p(out) != 0) {
		fprintf(stderr, "cgrac: cannot create %s\n", out);
		return 0;
	}
	OutSet *set = outset_new();
	for (int i = 0; i < n; i++) {
		char *path = out_path(out, app, files[i].ext);
		FILE *f = outset_open(set, path);
		free(path);
		if (!f) {
			outset_abort(set);
			return 0;
		}
		files[i].write(files[i].arg, f);
	}
	return outset_commit(set) == 0;
}

/* write_outs of one file. */
static int write_out(const char *out, const char *app, const char *ext, void (*fn)(const void *, FILE *),
		     const void *arg)
{
	BeFile file = { ext, fn, arg };
	return write_outs(out, app, &file, 1);
}

static void print_lowered(const void *L, FILE *f)
{
	hl_lower_print(L, f);
}

static void print_dfg_json(const void *g, FILE *f)
{
	dfg_write_json(g, f);
}

static void print_ubuf(const void *u, FILE *f)
{
	ub_print(u, f);
}

static void print_mem(const void *arg, FILE *f)
{
	const Flow *F = arg;
	ub_map_print(&F->u, &F->m, F->c.mem, f);
}

/* ---- lowered: front/ and lower/ ---- */

static int lowered_run(Flow *F)
{
	double t0 = util_now();
	int ok = hl_accel_view(F->p, F->d) && hl_lower(&F->L, F->p, F->d);
	if (!ok)
		return 0;
	const HPrep *P = &F->L.prep;
	progress(F, "lowered in %.3f s%s\n", util_now() - t0,
		 P->index.len ? arena_printf(F->L.arena, ", %d index stream%s", P->index.len,
					     P->index.len == 1 ? "" : "s") : "");
	return 1;
}

/* An index stream's values, in the format of their extension. */
static void write_index_image(const void *arg, FILE *f)
{
	const Image *im = arg;
	char fmt[8];
	snprintf(fmt, sizeof fmt, ".%s", image_ext(im->dims, im->extent));
	image_write(im, fmt, f, NULL);
}

static int lowered_files(Flow *F, BeFile *f)
{
	const HPrep *P = &F->L.prep;
	vec_foreach(&P->index, k) {
		const Image *v = &P->index.data[k].values;
		f[k] = (BeFile){ arena_printf(F->L.arena, "%s.%s", F->p->images.data[P->index.data[k].image].name,
					      image_ext(v->dims, v->extent)),
				 write_index_image, v };
	}
	return P->index.len;
}

static int lowered_emit(Flow *F)
{
	if (!F->r->no_print)
		hl_lower_print(&F->L, stdout);
	return write_out(F->r->out, F->p->file, "lowered", print_lowered, &F->L);
}

/* ---- dfg: lower/ ---- */

static int dfg_run(Flow *F)
{
	if (!F->r->design) {
		const char *goal = stages[F->r->goal].name;
		fprintf(stderr, "cgrac: %s%s needs --design DIR (the word and the IR operations come from the PE "
				"collateral)\n", F->r->emit ? "--emit " : "compiling to ", F->r->emit ? goal : "a bitstream");
		return 0;
	}
	F->has_c = 1;
	if (!coll_load(F->r->design, &F->c, F->d))
		return 0;
	if (F->c.mem && F->c.mem->word != F->c.word) {
		diag_error(F->d, F->p->file, 0, 0, "the design's PE %s computes on %d-bit words and its memory tile %s "
			   "stores %d-bit words: the compiler needs one word width for both", F->c.pe, F->c.word,
			   F->c.mem->name, F->c.mem->word);
		return 0;
	}
	double t0 = util_now();
	int ok = dfg_build(&F->g, &F->L, &F->c, F->d);
	if (ok)
		progress(F, "%d kernels on %s in %.3f s\n", F->g.kernels.len, F->c.pe, util_now() - t0);
	return ok;
}

static int dfg_emit(Flow *F)
{
	dfg_print(&F->g, stdout);
	return write_out(F->r->out, F->p->file, "dfg.json", print_dfg_json, &F->g);
}

static int dfg_exec(Flow *F)
{
	hx_run(&F->L, &F->g, F->r->inputs, F->r->result);
	return 1;
}

static int dfg_files(Flow *F, BeFile *f)
{
	f[0] = (BeFile){ "dfg.json", print_dfg_json, &F->g };
	return 1;
}

/* ---- cover and pipeline: backend/ ---- */

static int cover_run(Flow *F)
{
	if (!cm_map(&F->cm, &F->g, F->c.peinfo, F->c.mem, F->d))
		return 0;
	progress(F, "compute mapping on %s: %d PEs, %d constants folded, %d table look-ups, %.3f s\n", F->c.pe,
		 F->cm.insts.len, F->cm.folded, F->cm.roms.len, F->cm.seconds);
	return 1;
}

static int pipeline_run(Flow *F)
{
	cm_pipeline(&F->cm, F->pipeline);
	return 1;
}

/* ---- ubuf: ubuf/ ---- */

static void free_buffers(Flow *F)
{
	if (F->u.arena)
		ub_map_free(&F->m), ub_free(&F->u);
	memset(&F->u, 0, sizeof F->u);
	memset(&F->m, 0, sizeof F->m);
}

static int ubuf_run(Flow *F)
{
	free_buffers(F);
	double t0 = util_now();
	const int *latency = F->ran[FS_PIPELINE] ? F->cm.latency : NULL;
	if (!ub_build(&F->u, &F->m, &F->L, &F->g, &F->c, latency, F->fl->sequential, F->d))
		return 0;
	long rom = 0;
	const DGraph *g = F->u.g;
	vec_foreach(&g->kernels, k) vec_foreach(&g->kernels.data[k].nodes, i) rom +=
		g->kernels.data[k].nodes.data[i].kind == DN_ROM;
	progress(F, "%d unified buffers on %s: %d MEM tiles (%d before shift registers), %lld registers, %d ROM "
		    "reads, latency %lld cycles, %d schedule round%s, %.3f s\n",
		 F->u.bufs.len, F->c.mem ? F->c.mem->name : "no memory tile", F->m.tiles, F->m.naive_tiles, (long long)F->m.regs, (int)rom,
		 (long long)(F->u.last_out - F->u.first_in), F->m.iterations, F->m.iterations == 1 ? "" : "s",
		 util_now() - t0);
	return 1;
}

static int ubuf_emit(Flow *F)
{
	const BeFile files[] = { { "ubuf", print_ubuf, &F->u }, { "mem", print_mem, F } };
	int ok = write_outs(F->r->out, F->p->file, files, 2);
	if (!F->r->out)
		ub_print(&F->u, stdout);
	return ok;
}

static int ubuf_exec(Flow *F)
{
	double t0 = util_now();
	UbSimStats st;
	int ok = ub_simulate(&F->u, &F->m, F->c.mem, F->r->inputs, F->r->result, &st);
	if (!F->fl->quiet || !ok)
		fprintf(stderr, "cgrac: %s: buffer-level simulation: %lld cycles, %ld values delivered, %ld wrong, "
				"%.3f s\n", F->p->file, (long long)st.cycles, st.reads, st.wrong, util_now() - t0);
	if (!ok)
		fprintf(stderr, "cgrac: %s: first wrong value: %s\n", F->p->file, st.first);
	return ok;
}

static int ubuf_files(Flow *F, BeFile *f)
{
	f[0] = (BeFile){ "ubuf", print_ubuf, &F->u };
	f[1] = (BeFile){ "mem", print_mem, F };
	return 2;
}

/* ---- mapped, place, route, bitstream: backend/ ---- */

static int mapped_run(Flow *F)
{
	if (!F->be) {
		F->bo = (BeOptions){ F->fl->place_seed, F->fl->quiet, F->fl->hop_limit, F->fl->pack };
		F->be = be_new(F->p->file, &F->c, &F->bo);
	}
	be_netlist_lowerable(F->be, F->pipeline);
	return be_netlist(F->be, &F->u, &F->m, &F->cm, F->d);
}

/* Lowered pipelining: when the routing network has no registers, the
 * netlist holds the pipeline's in PEs (delay cells); if they do not fit the
 * array, or the PE has no rule to make them, the walk resumes at pipelining
 * with it off, trading the clock (longer combinational paths) for the PEs;
 * what is still lacking then is an error. */
static int mapped_asks(Flow *F)
{
	int over = be_pe_overflow(F->be), delays = be_delay_cells(F->be);
	if (!F->pipeline || (!be_lacking(F->be) && (!over || !delays)))
		return 0;
	if (be_lacking(F->be))
		progress(F, "the pipeline registers the interconnect lacks cannot be delay PEs on %s: pipelining "
			    "lowered (off)\n", F->c.pe);
	else
		progress(F, "%d delay PE%s for the pipeline registers the interconnect lacks leave %d PE%s too many: "
			    "pipelining lowered (off)\n", delays, delays == 1 ? "" : "s", over, over == 1 ? "" : "s");
	F->pipeline = 0;
	return 1;
}

static int mapped_emit(Flow *F)
{
	be_print_mapped(F->be, stdout);
	return 1;
}

static int place_run(Flow *F)
{
	return be_place(F->be, F->d);
}

static int place_emit(Flow *F)
{
	be_print_place(F->be, stdout);
	return 1;
}

/* Register feedback (AHA 5.4): after placement, the connections longer than
 * the hop limit allows for their registers ask for more; the compute map
 * grants them, and the walk resumes at pipelining (every path balanced
 * again), so the buffers are rescheduled and the same netlist placed again
 * (the same placement). At most REGISTER_ROUNDS rounds. */
static int place_asks(Flow *F)
{
	if (F->round >= REGISTER_ROUNDS)
		return 0;
	RegRequests rq = { 0 };
	int asked = be_register_requests(F->be, &rq);
	if (asked) {
		cm_grant_registers(&F->cm, &rq);
		F->round++;
		progress(F, "%d connection%s longer than %d tiles per register: pipelining again (register round %d of "
			    "at most %d)\n", asked, asked == 1 ? "" : "s", F->fl->hop_limit, F->round, REGISTER_ROUNDS);
	}
	vec_free(&rq);
	return asked;
}

static int route_run(Flow *F)
{
	return be_route(F->be, F->d);
}

static int route_emit(Flow *F)
{
	be_print_route(F->be, stdout);
	return 1;
}

static int bitstream_run(Flow *F)
{
	return be_bitstream(F->be, F->d);
}

static int bitstream_emit(Flow *F)
{
	be_print_bitstream(F->be, stdout);
	return 1;
}

/* ---- the table ---- */

static const Stage stages[FS_COUNT] = {
	[FS_LOWERED] = { "lowered", "front/, lower/", "APP.hl",
			 "the loop nest by the schedule (<app>.lowered); index streams (<app>.<image>.<ext>)", FS_LOWERED,
			 lowered_run, lowered_emit, NULL, lowered_files },
	[FS_DFG] = { "dfg", "lower/", "the loop nest, the PE's IR operations (<pe>.rules.yaml)",
		     "compute kernels on hardware words (<app>.dfg.json); --run-lowered runs them", FS_DFG, dfg_run,
		     dfg_emit, dfg_exec, dfg_files },
	[FS_COVER] = { "cover", "backend/", "the kernels, <pe>.rules.yaml",
		       "PE instructions covering the kernels (only when the back end follows)", FS_MAPPED, cover_run },
	[FS_PIPELINE] = { "pipeline", "backend/", "the PE instructions, granted register requests",
			  "registers before PEs, paths balanced, the kernels' latencies", FS_MAPPED, pipeline_run },
	[FS_UBUF] = { "ubuf", "ubuf/", "the loop nest, the kernels' latencies, <mem>.info.yaml, <mem>.smt2",
		      "unified buffers, their schedule, register chains and configured MEM tiles (<app>.ubuf, "
		      "<app>.mem); --sim-buffers runs them",
		      FS_UBUF, ubuf_run, ubuf_emit, ubuf_exec, ubuf_files },
	[FS_MAPPED] = { "mapped", "backend/", "the PE instructions, the buffers",
			"the netlist of PE, MEM and IO cells (<app>.mapped.json); delay PEs for registers the "
			"interconnect lacks, pipelining lowered when they do not fit",
			FS_MAPPED, mapped_run, mapped_emit, NULL, NULL, mapped_asks, FS_PIPELINE },
	[FS_PLACE] = { "place", "backend/", "the netlist, design.yaml",
		       "a tile for every cell (<app>.place); long connections ask for registers: pipeline to place "
		       "again",
		       FS_PLACE, place_run, place_emit, NULL, NULL, place_asks, FS_PIPELINE },
	[FS_ROUTE] = { "route", "backend/", "the placement, routing.graph",
		       "every net's tree with its registers, retimed (<app>.route)", FS_ROUTE, route_run, route_emit },
	[FS_BITSTREAM] = { "bitstream", "backend/", "the routes, config.map",
			   "timing, the bitstream (<app>.bs, .io.yaml, .report.yaml, .svg)", FS_BITSTREAM,
			   bitstream_run, bitstream_emit },
};

int flow_stage(const char *name)
{
	for (int s = 0; s < FS_COUNT; s++)
		if (stages[s].emit && !strcmp(stages[s].name, name))
			return s;
	return -1;
}

const char *flow_emit_names(void)
{
	static char names[256];
	if (!names[0]) {
		int n = 0, k = 0;
		for (int s = 0; s < FS_COUNT; s++)
			n += stages[s].emit != NULL;
		for (int s = 0; s < FS_COUNT; s++)
			if (stages[s].emit) {
				k++;
				size_t len = strlen(names);
				snprintf(names + len, sizeof names - len, "%s%s", k == 1 ? "" : k == n ? " or " : ", ",
					 stages[s].name);
			}
	}
	return names;
}

void flow_list(FILE *f)
{
	fputs("The stages of cgrac, in order (--emit NAME stops after a stage and prints its result):\n", f);
	for (int s = 0; s < FS_COUNT; s++) {
		const Stage *st = &stages[s];
		fprintf(f, "  %d. %-10s compiler/%s\n       in:  %s\n       out: %s\n", s + 1, st->name, st->folder,
			st->consumes, st->produces);
		if (!st->emit)
			fputs("       (no --emit of its own)\n", f);
	}
}

/* ---- the walk ---- */

/* The whole flow's files, together or none, and its summary line. */
static int write_all(Flow *F)
{
	BeFile *extra = xcalloc((size_t)(8 + F->L.prep.index.len), sizeof *extra);
	int n = 0;
	for (int s = 0; s < FS_COUNT; s++)
		if (F->ran[s] && stages[s].files)
			n += stages[s].files(F, extra + n);
	const double *t = F->seconds;
	BeSeconds sec = { t[FS_LOWERED] + t[FS_DFG], t[FS_UBUF], t[FS_COVER] + t[FS_PIPELINE], t[FS_MAPPED],
			  t[FS_PLACE], t[FS_ROUTE] };
	int ok = be_write(F->be, F->r->out, extra, n, &sec);
	free(extra);
	if (!ok)
		return 0;
	if (!F->fl->quiet)
		be_summary(F->be, &sec, util_now() - F->t0, stderr);
	if (F->r->figures) {
		BeFigures b;
		be_figures(F->be, &b);
		*F->r->figures = (FlowFigures){ b.pes, b.mems, b.registers, b.tracks16, b.tracks1, b.clock_mhz,
						b.latency };
	}
	return 1;
}

/* What the request asks of the goal's result. */
static int finish(Flow *F)
{
	const Stage *goal = &stages[F->r->goal];
	if (F->r->emit)
		return goal->emit(F);
	if (F->r->inputs)
		return goal->exec(F);
	return write_all(F);
}

static void flow_free(Flow *F)
{
	be_free(F->be);
	free_buffers(F);
	if (F->ran[FS_COVER])
		cm_free(&F->cm);
	if (F->ran[FS_DFG])
		dfg_free(&F->g);
	if (F->has_c)
		coll_free(&F->c);
	if (F->ran[FS_LOWERED])
		hl_lower_free(&F->L);
}

int flow_run(HProgram *p, const FlowRequest *r, Diags *d)
{
	Flow F;
	memset(&F, 0, sizeof F);
	F.p = p, F.r = r, F.fl = r->flags, F.d = d;
	F.t0 = util_now();
	F.round = 1;
	F.pipeline = F.fl->pipeline;
	int ok = 1;
	for (int s = 0; ok && s <= (int)r->goal; s++) {
		const Stage *st = &stages[s];
		if ((int)r->goal < (int)st->from)
			continue;
		double t0 = util_now();
		F.ran[s] = 1;
		ok = st->run(&F);
		F.seconds[s] += util_now() - t0;
		if (ok && st->asks && st->asks(&F))
			s = (int)st->redo_from - 1;
	}
	if (ok)
		ok = finish(&F);
	flow_free(&F);
	return ok;
}
