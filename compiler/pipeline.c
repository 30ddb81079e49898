/* cgrac.c - the pipeline of the compiler after parsing (cgrac.h): lowering
 * by the schedule, then what --emit asks for. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend/backend.h"
#include "pipeline.h"
#include "backend/cmap.h"
#include "../collateral/coll.h"
#include "lower/lower.h"
#include "ubuf/ubuf.h"

/* OUT/<app>.<ext> for the application file app. */
static char *out_path(const char *out, const char *app, const char *ext)
{
	const char *base = strrchr(app, '/');
	base = base ? base + 1 : app;
	size_t n = strcspn(base, ".");
	return xasprintf("%s/%.*s.%s", out, (int)n, base, ext);
}

/* Writes OUT/<app>.<ext> by fn (atomically); 1 if out is NULL. */
static int write_out(const char *out, const char *app, const char *ext, void (*fn)(const void *, FILE *),
		     const void *arg)
{
	if (!out)
		return 1;
	if (util_mkdir_p(out) != 0) {
		fprintf(stderr, "cgrac: cannot create %s\n", out);
		return 0;
	}
	OutSet *set = outset_new();
	char *path = out_path(out, app, ext);
	FILE *f = outset_open(set, path);
	free(path);
	if (!f) {
		outset_abort(set);
		return 0;
	}
	fn(arg, f);
	return outset_commit(set) == 0;
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

typedef struct UbOut {
	const UbProgram *u;
	const UbMap *m;
	const MemInfo *mi;
} UbOut;

static void print_mem(const void *arg, FILE *f)
{
	const UbOut *o = arg;
	ub_map_print(o->u, o->m, o->mi, f);
}

/* The buffers' summary for people and for make bench. */
static void buffer_summary(const UbProgram *u, const UbMap *m, const Collateral *c, double secs)
{
	long rom = 0;
	vec_foreach(&u->g->kernels, k) vec_foreach(&u->g->kernels.data[k].nodes, i) rom +=
		u->g->kernels.data[k].nodes.data[i].kind == DN_ROM;
	fprintf(stderr, "cgrac: %s: %d unified buffers on %s: %d MEM tiles (%d before shift registers), %lld "
		"registers, %d ROM reads, latency %lld cycles, %d schedule round%s, %.3f s\n", u->L->p->file,
		u->bufs.len, c->mem->name, m->tiles, m->naive_tiles, (long long)m->regs, (int)rom,
		(long long)(u->last_out - u->first_in), m->iterations, m->iterations == 1 ? "" : "s", secs);
}

static int emit_ubuf(const LProgram *L, const Collateral *c, const DGraph *g, const char *out, int quiet,
		     Diags *d)
{
	double t0 = util_now();
	UbProgram u;
	UbMap m;
	int ok = ub_build(&u, &m, L, g, c, NULL, d);
	if (ok) {
		UbOut o = { &u, &m, c->mem };
		ok = write_out(out, L->p->file, "ubuf", print_ubuf, &u) &&
		     write_out(out, L->p->file, "mem", print_mem, &o);
		if (!out)
			ub_print(&u, stdout);
	}
	if (ok && !quiet)
		buffer_summary(&u, &m, c, util_now() - t0);
	ub_map_free(&m);
	ub_free(&u);
	return ok;
}

/* Buffers, compute mapping and the back end: the whole flow to a bitstream,
 * or as far as emit asks (mapped, place, route). */
/* Rounds of pipelining, buffers and placement while long connections ask
 * for registers; the last round routes whatever it has. */
#define REGISTER_ROUNDS 4

/* Buffers, compute mapping and the back end: the whole flow to a bitstream,
 * or as far as emit asks (mapped, place, route). */
static int compile_all(const LProgram *L, const Collateral *c, const DGraph *g, const char *out, const char *emit,
		       const CgracFlags *fl, double t_front, Diags *d)
{
	CMap cm;
	if (!cm_map(&cm, g, c->peinfo, c->mem, d)) {
		cm_free(&cm);
		return 0;
	}
	if (!fl->quiet)
		fprintf(stderr, "cgrac: %s: compute mapping on %s: %d PEs, %d constants folded, %d table look-ups, %.3f s\n",
			L->p->file, c->pe, cm.insts.len, cm.folded, cm.roms.len, cm.seconds);
	int ok = 0;
	double t_buf = 0;
	for (int round = 1; round <= REGISTER_ROUNDS; round++) {
		cm_pipeline(&cm, fl->pipeline);
		double t0 = util_now();
		UbProgram u;
		UbMap m;
		ok = ub_build(&u, &m, L, g, c, cm.latency, d);
		double t1 = util_now();
		t_buf += t1 - t0;
		if (ok && !fl->quiet)
			buffer_summary(&u, &m, c, t1 - t0);
		UbOut o = { &u, &m, c->mem };
		const BeFile extra[] = { { "dfg.json", print_dfg_json, g }, { "ubuf", print_ubuf, &u },
					 { "mem", print_mem, &o } };
		BeOptions bo = { fl->place_seed, fl->quiet, emit, t_front, t_buf, cm.seconds, extra, 3, fl->hop_limit,
				 round < REGISTER_ROUNDS && (!emit || strcmp(emit, "mapped")), fl->pack };
		if (ok)
			ok = be_run(L->p->file, emit ? NULL : out, &u, &m, &cm, c, &bo, d);
		if (u.arena)
			ub_map_free(&m), ub_free(&u);
		if (ok != BE_MORE_REGISTERS)
			break;
	}
	cm_free(&cm);
	return ok == 1;
}

static int emit_dfg(const LProgram *L, const char *design, const char *out, const char *emit, const CgracFlags *fl,
		    double t_front, Diags *d)
{
	if (!design) {
		fprintf(stderr, "cgrac: --emit dfg needs --design DIR (the word and the IR operations come from the PE collateral)\n");
		return 0;
	}
	Collateral c;
	if (!coll_load(design, &c, d)) {
		coll_free(&c);
		return 0;
	}
	double t0 = util_now();
	DGraph g;
	int ok = dfg_build(&g, L, &c, d);
	if (ok && emit && !strcmp(emit, "ubuf")) {
		ok = emit_ubuf(L, &c, &g, out, fl->quiet, d);
	} else if (ok && (!emit || strcmp(emit, "dfg") != 0)) {
		ok = compile_all(L, &c, &g, out, emit, fl, t_front + util_now() - t0, d);
	} else if (ok) {
		dfg_print(&g, stdout);
		ok = write_out(out, L->p->file, "dfg.json", print_dfg_json, &g);
	}
	if (ok && !fl->quiet)
		fprintf(stderr, "cgrac: %s: %d kernels on %s in %.3f s\n", L->p->file, g.kernels.len, c.pe,
			util_now() - t0);
	dfg_free(&g);
	coll_free(&c);
	return ok;
}

int cgrac_compile(HProgram *p, const char *design, const char *out, const char *emit, const CgracFlags *fl, Diags *d)
{
	int quiet = fl->quiet;
	double t0 = util_now();
	LProgram L;
	int ok = hl_lower(&L, p, d);
	double t_lower = util_now() - t0;
	if (ok && !quiet)
		fprintf(stderr, "cgrac: %s: lowered in %.3f s\n", p->file, t_lower);
	if (ok && emit && strcmp(emit, "lowered") == 0) {
		hl_lower_print(&L, stdout);
		ok = write_out(out, p->file, "lowered", print_lowered, &L);
	} else if (ok) {
		ok = emit_dfg(&L, design, out, emit, fl, t_lower, d);
	}
	hl_lower_free(&L);
	return ok;
}

int cgrac_sim_buffers(HProgram *p, const char *design, const Image *inputs, Image *out, int quiet, Diags *d)
{
	Collateral c;
	if (!coll_load(design, &c, d)) {
		coll_free(&c);
		return 0;
	}
	LProgram L;
	DGraph g = { 0 };
	UbProgram u = { 0 };
	UbMap m = { 0 };
	double t0 = util_now();
	int ok = hl_lower(&L, p, d) && dfg_build(&g, &L, &c, d) && ub_build(&u, &m, &L, &g, &c, NULL, d);
	if (ok) {
		double t1 = util_now();
		UbSimStats st;
		ok = ub_simulate(&u, &m, c.mem, inputs, out, &st);
		if (!quiet)
			buffer_summary(&u, &m, &c, t1 - t0);
		if (!quiet || !ok)
			fprintf(stderr, "cgrac: %s: buffer-level simulation: %lld cycles, %ld values delivered, %ld "
				"wrong, %.3f s\n", p->file, (long long)st.cycles, st.reads, st.wrong, util_now() - t1);
		if (!ok)
			fprintf(stderr, "cgrac: %s: first wrong value: %s\n", p->file, st.first);
	}
	if (u.arena)
		ub_map_free(&m), ub_free(&u);
	dfg_free(&g);
	hl_lower_free(&L);
	coll_free(&c);
	return ok;
}

int cgrac_run_lowered(HProgram *p, const char *design, const Image *inputs, Image *out, Diags *d)
{
	Collateral c;
	if (!coll_load(design, &c, d)) {
		coll_free(&c);
		return 0;
	}
	LProgram L;
	DGraph g = { 0 };
	int ok = hl_lower(&L, p, d) && dfg_build(&g, &L, &c, d);
	if (ok)
		hx_run(&L, &g, inputs, out);
	dfg_free(&g);
	hl_lower_free(&L);
	coll_free(&c);
	return ok;
}
