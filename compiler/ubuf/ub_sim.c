/* ub_sim.c - the buffer-level simulator (ub_sim.h). Each cycle, statements
 * run in producer order: a statement due at this cycle reads each of its
 * ports from the port's source (a write port's stream or a memory bank's
 * output, `regs` cycles ago), evaluates its kernel and presents the result
 * on its write port; a bank steps once all its writers have had their turn
 * (no tile passes an input to an output in the same cycle). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../lower/lower.h"
#include "ub_mem.h"
#include "ubuf.h"

typedef struct Hist {
	uint64_t *v;
	unsigned char *ok;
} Hist;

typedef struct Sim {
	const UbProgram *u;
	const UbMap *m;
	int64_t T;
	Hist *wh;               /* per port: a write port's stream */
	Hist **bh;              /* per bank, per read stream: its output */
	UmSim **tiles;          /* per bank */
	int *bank_after;        /* per bank: the last statement writing it */
	unsigned char *early;   /* per bank: a statement at or before its last writer reads it
				 * (a reduction's previous step): its outputs come at the
				 * cycle's start, its inputs after the writer */
	int64_t **ideal;        /* per buffer: the stored values */
	const int64_t *h;       /* the run: the host's iteration (ub_run_iteration) */
	int *wport;             /* per statement: its write port, or -1 */
	VEC(int) *rports;       /* per statement: its read ports */
	UbSimStats *st;
} Sim;

static void hist_new(Hist *h, int64_t T)
{
	h->v = xcalloc((size_t)T, sizeof *h->v);
	h->ok = xcalloc((size_t)T, 1);
}

static void hist_free(Hist *h)
{
	free(h->v);
	free(h->ok);
}

static int64_t buf_size(const UbBuffer *b)
{
	int64_t n = 1;
	for (int j = 0; j < b->ndims; j++)
		n *= b->extent[j];
	return n;
}

/* The value port pi delivers at cycle t, checked against the stored one. */
static uint64_t read_port(Sim *S, int pi, int64_t t, const int64_t *i)
{
	const UbPort *p = &S->u->ports.data[pi];
	const UbSource *src = &S->m->src[pi];
	const UbBuffer *b = &S->u->bufs.data[p->buffer];
	int64_t at = t - src->regs;
	const Hist *h = src->kind == UB_SRC_WRITE ? &S->wh[src->write] : &S->bh[src->bank][src->out];
	uint64_t v = at >= 0 && at < S->T ? h->v[at] : 0;
	int ok = at >= 0 && at < S->T && h->ok[at];
	int64_t c[UB_MAXD] = { 0 };
	for (int j = 0; j < p->ndims; j++)
		c[j] = ub_index_at(&p->index[j], i);
	int64_t a = ub_flat(b, c);
	if (a < 0 && p->previous)  /* before a reduction's first step: not used */
		return v;
	int64_t want = a >= 0 ? S->ideal[p->buffer][a] : -1;
	S->st->reads++;
	if (!ok || want < 0 || (uint64_t)want != v) {
		if (!S->st->wrong++) {
			char cs[64] = "";
			for (int j = 0; j < p->ndims; j++)
				snprintf(cs + strlen(cs), sizeof cs - strlen(cs), "%s%lld", j ? ", " : "", (long long)c[j]);
			snprintf(S->st->first, sizeof S->st->first,
				 "cycle %lld: port %d of %s (%s) delivered %s%llu, but %s(%s) is %s%lld", (long long)t,
				 pi, b->name, S->u->stmts.data[p->stmt].name, ok ? "" : "no value, last ",
				 (unsigned long long)v, b->name, cs, want < 0 ? "not written yet: " : "", (long long)want);
		}
	}
	return v;
}

static uint64_t input_value(const Sim *S, const UbStmt *s, const UbPort *wp, const Image *inputs, const int64_t *i)
{
	const Image *im = hp_image(&S->u->L->prep, inputs, s->image);
	int64_t c[4] = { 0 };
	int k = 0;
	for (int j = 0; j < im->dims; j++) {
		if (j == s->split_dim && s->split_stride) {
			c[j] = s->split_val + s->split_stride * ub_index_at(&wp->index[k], i);
			k++;
			continue;
		}
		if (j == s->split_dim) {
			c[j] = s->split_val;
			for (int h = 0; h < S->u->nhost; h++)
				c[j] += s->split_shift[h] * S->h[h];
			continue;
		}
		c[j] = ub_index_at(&wp->index[k], i) + ub_run_shift(S->u, &wp->index[k], S->h);
		k++;
	}
	long off = image_index(im, c);
	return off >= 0 ? ht_stream_word(S->u->L->p->images.data[s->image].type, im->px[off], S->u->g->word) : 0;
}

/* Runs statement s at its iteration i (due at cycle t). */
static void run_stmt(Sim *S, int s, const int64_t *i, int64_t t, const Image *inputs, Image *out, uint64_t *loads)
{
	const UbStmt *st = &S->u->stmts.data[s];
	int wp = S->wport[s];
	uint64_t v;
	if (st->input) {
		v = input_value(S, st, &S->u->ports.data[wp], inputs, i);
	} else {
		vec_foreach(&S->rports[s], k) {
			int pi = S->rports[s].data[k];
			loads[S->u->ports.data[pi].node] = read_port(S, pi, t, i);
		}
		v = hx_kernel(S->u->L, S->u->g, st->kernel, loads);
	}
	int64_t tw = t + st->latency;
	if (wp >= 0) {
		const UbPort *p = &S->u->ports.data[wp];
		int64_t c[UB_MAXD] = { 0 };
		for (int j = 0; j < p->ndims; j++)
			c[j] = ub_index_at(&p->index[j], i);
		int64_t a = ub_flat(&S->u->bufs.data[p->buffer], c);
		if (a >= 0)
			S->ideal[p->buffer][a] = (int64_t)v;
		if (tw < S->T) {
			S->wh[wp].v[tw] = v;
			S->wh[wp].ok[tw] = 1;
		}
	}
	if (st->output) {
		int64_t c[4] = { 0 };
		for (int j = 0; j < st->nout; j++)
			c[j] = ub_index_at(&st->out_index[j], i) + ub_run_shift(S->u, &st->out_index[j], S->h);
		const LRegion *r = &S->u->L->funcs[S->u->L->p->output];
		for (int j = 0; j < r->dims; j++)
			c[j] -= r->box_min[j];
		long off = image_index(out, c);
		if (off >= 0)
			out->px[off] = (uint16_t)v;
	}
}

static void bank_outputs(Sim *S, int bi, int64_t t, const uint64_t *in)
{
	const UbBank *b = &S->m->banks.data[bi];
	uint64_t o[8] = { 0 };
	int valid[8] = { 0 };
	um_sim_outputs(S->tiles[bi], in, o, valid);
	for (int k = 0; k < b->nr; k++) {
		S->bh[bi][k].v[t] = o[k];
		S->bh[bi][k].ok[t] = (unsigned char)valid[k];
	}
}

/* A bank's cycle once its writers have had their turn (an early bank's
 * outputs are out already). */
static void step_bank(Sim *S, int bi, int64_t t)
{
	const UbBank *b = &S->m->banks.data[bi];
	uint64_t in[8] = { 0 };
	for (int k = 0; k < b->nw; k++)
		in[k] = S->wh[b->wport[k]].ok[t] ? S->wh[b->wport[k]].v[t] : 0;
	if (!S->early[bi])
		bank_outputs(S, bi, t, in);
	um_sim_inputs(S->tiles[bi], in);
}

static void sim_init(Sim *S, const UbProgram *u, const UbMap *m, const MemInfo *mi, UbSimStats *st)
{
	memset(S, 0, sizeof *S);
	S->u = u;
	S->m = m;
	S->st = st;
	S->T = u->last_out + 2;
	S->wh = xcalloc((size_t)u->ports.len + 1, sizeof *S->wh);
	vec_foreach(&u->ports, pi) if (u->ports.data[pi].write) hist_new(&S->wh[pi], S->T);
	int nb = m->banks.len;
	S->bh = xcalloc((size_t)nb + 1, sizeof *S->bh);
	S->tiles = xcalloc((size_t)nb + 1, sizeof *S->tiles);
	S->bank_after = xcalloc((size_t)nb + 1, sizeof *S->bank_after);
	S->early = xcalloc((size_t)nb + 1, 1);
	for (int bi = 0; bi < nb; bi++) {
		const UbBank *b = &m->banks.data[bi];
		S->bh[bi] = xcalloc((size_t)b->nr + 1, sizeof **S->bh);
		for (int k = 0; k < b->nr; k++)
			hist_new(&S->bh[bi][k], S->T);
		S->tiles[bi] = um_sim_new(mi, &b->cfg);
		for (int k = 0; k < b->nw; k++)
			if (u->ports.data[b->wport[k]].stmt > S->bank_after[bi])
				S->bank_after[bi] = u->ports.data[b->wport[k]].stmt;
	}
	vec_foreach(&u->ports, pi) {
		const UbSource *src = &m->src[pi];
		if (!u->ports.data[pi].write && src->kind == UB_SRC_BANK &&
		    u->ports.data[pi].stmt <= S->bank_after[src->bank])
			S->early[src->bank] = 1;
	}
	S->wport = xcalloc((size_t)u->stmts.len + 1, sizeof *S->wport);
	S->rports = xcalloc((size_t)u->stmts.len + 1, sizeof *S->rports);
	vec_foreach(&u->stmts, s) S->wport[s] = -1;
	vec_foreach(&u->ports, pi) {
		const UbPort *p = &u->ports.data[pi];
		if (p->write)
			S->wport[p->stmt] = pi;
		else
			vec_push(&S->rports[p->stmt], pi);
	}
	S->ideal = xcalloc((size_t)u->bufs.len + 1, sizeof *S->ideal);
	vec_foreach(&u->bufs, bi) {
		int64_t n = buf_size(&u->bufs.data[bi]);
		S->ideal[bi] = xcalloc((size_t)n, sizeof **S->ideal);
		for (int64_t a = 0; a < n; a++)
			S->ideal[bi][a] = -1;
	}
}

static void sim_free(Sim *S)
{
	vec_foreach(&S->u->ports, pi) if (S->u->ports.data[pi].write) hist_free(&S->wh[pi]);
	free(S->wh);
	for (int bi = 0; bi < S->m->banks.len; bi++) {
		for (int k = 0; k < S->m->banks.data[bi].nr; k++)
			hist_free(&S->bh[bi][k]);
		free(S->bh[bi]);
		um_sim_free(S->tiles[bi]);
	}
	free(S->bh);
	free(S->tiles);
	free(S->bank_after);
	free(S->early);
	vec_foreach(&S->u->bufs, bi) free(S->ideal[bi]);
	free(S->ideal);
	vec_foreach(&S->u->stmts, s) vec_free(&S->rports[s]);
	free(S->rports);
	free(S->wport);
}

/* One run of the accelerator, the host's iteration h. */
static void run_once(const UbProgram *u, const UbMap *m, const MemInfo *mi, const Image *inputs, Image *out,
		     UbSimStats *st, const int64_t *h)
{
	Sim S;
	sim_init(&S, u, m, mi, st);
	S.h = h;
	int ns = u->stmts.len;
	int64_t(*it)[UB_MAXD] = xcalloc((size_t)ns + 1, sizeof *it);
	int *live = xcalloc((size_t)ns + 1, sizeof *live);
	int maxnodes = 1;
	for (int s = 0; s < ns; s++) {
		ub_first(&u->stmts.data[s], it[s]);
		live[s] = 1;
		if (u->stmts.data[s].kernel && u->stmts.data[s].kernel->nodes.len > maxnodes)
			maxnodes = u->stmts.data[s].kernel->nodes.len;
	}
	uint64_t *loads = xcalloc((size_t)maxnodes, sizeof *loads);
	for (int64_t t = 0; t < S.T - 1; t++) {
		for (int bi = 0; bi < m->banks.len; bi++)
			if (S.early[bi])
				bank_outputs(&S, bi, t, NULL);
		for (int s = 0; s < ns; s++) {
			const UbStmt *stm = &u->stmts.data[s];
			if (live[s] && ub_time(stm, it[s]) == t) {
				run_stmt(&S, s, it[s], t, inputs, out, loads);
				live[s] = ub_next(stm, it[s]);
			}
			for (int bi = 0; bi < m->banks.len; bi++)
				if (S.bank_after[bi] == s)
					step_bank(&S, bi, t);
		}
	}
	st->cycles += S.T - 1;
	free(loads);
	free(live);
	free(it);
	sim_free(&S);
}

int ub_simulate(const UbProgram *u, const UbMap *m, const MemInfo *mi, const Image *inputs, Image *out,
		UbSimStats *st)
{
	memset(st, 0, sizeof *st);
	const LRegion *r = &u->L->funcs[u->L->p->output];
	memset(out, 0, sizeof *out);
	out->dims = r->dims;
	out->bits = ht_sample_bits(u->L->p->funcs.data[u->L->p->output].type);
	for (int j = 0; j < r->dims; j++)
		out->extent[j] = (int)r->box_extent[j];
	image_alloc(out);
	/* each run from the start: the memory tiles' schedules restart (a flush) */
	for (int64_t run = 0; run < u->runs; run++) {
		int64_t h[UB_MAXH] = { 0 };
		ub_run_iteration(u, run, h);
		run_once(u, m, mi, inputs, out, st, h);
	}
	return st->wrong == 0;
}
