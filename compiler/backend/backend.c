/* backend.c - netlist, placement, routing, timing, bitstream and the
 * application's output files (backend.h). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../../collateral/bitstream.h"
#include "../../common/bv.h"
#include "backend.h"
#include "netlist.h"
#include "place.h"
#include "retime.h"
#include "route.h"

typedef struct Be {
	const char *app;        /* the application file */
	char *base;             /* its name without folder and extension */
	const UbProgram *u;
	const UbMap *m;
	const CMap *cm;
	const Collateral *c;
	const BeOptions *o;
	Diags *d;
	Netlist nl;
	PlResult pl;
	RGraph *g;
	ConfigMap *cfg;
	RtNet *rnets;
	RtResult rr;
	int routed;
	double t_net, t_place, t_route, t_timing, t_bits;
	double crit;            /* ns */
	int crit_from;          /* the cell the critical path leaves last, or -1 */
	const char *crit_to;    /* the node it ends at */
	char crit_path[512];
	int regs_used;          /* reg nodes on routes */
	int64_t latency;        /* first input to last output, cycles */
	int64_t last_cycle;
} Be;

static int node_of(const Be *B, int cell, const char *port)
{
	const NlCell *c = &B->nl.cells.data[cell];
	char name[96];
	snprintf(name, sizeof name, "x%d_y%d_%s", c->x, c->y, port);
	return rgraph_find(B->g, name);
}

/* ---- placement ---- */

static char cell_kind(NlKind k)
{
	return k == NL_PE ? 'P' : k == NL_MEM ? 'M' : 'I';
}

static int be_place(Be *B)
{
	double t0 = util_now();
	const Netlist *n = &B->nl;
	PlCell *cells = xcalloc((size_t)n->cells.len + 1, sizeof *cells);
	vec_foreach(&n->cells, i) {
		cells[i].name = n->cells.data[i].name;
		cells[i].kind = cell_kind(n->cells.data[i].kind);
		cells[i].fixed_x = cells[i].fixed_y = -1;
	}
	PlNet *nets = xcalloc((size_t)n->nets.len + 1, sizeof *nets);
	int **members = xcalloc((size_t)n->nets.len + 1, sizeof *members);
	vec_foreach(&n->nets, i) {
		const NlNet *net = &n->nets.data[i];
		members[i] = xcalloc((size_t)net->sinks.len + 1, sizeof **members);
		members[i][0] = net->cell;
		vec_foreach(&net->sinks, k) members[i][k + 1] = net->sinks.data[k].cell;
		nets[i].cells = members[i];
		nets[i].ncells = net->sinks.len + 1;
		nets[i].weight = 1;
	}
	PlProblem p = { B->c->cols, B->c->rows, (const char *const *)B->c->tiles, cells, n->cells.len, nets,
			n->nets.len, B->o->seed, PL_DEFAULT_GAMMA, 0, NULL };
	char why[256];
	int ok = pl_place(&p, &B->pl, why, sizeof why);
	if (!ok)
		diag_error(B->d, B->app, 0, 0, "the application does not fit %s: %s", B->g->design, why);
	else
		vec_foreach(&n->cells, i) {
			B->nl.cells.data[i].x = B->pl.x[i];
			B->nl.cells.data[i].y = B->pl.y[i];
		}
	vec_foreach(&n->nets, i) free(members[i]);
	free(members);
	free(nets);
	free(cells);
	B->t_place = util_now() - t0;
	return ok;
}

/* ---- registers for long connections (AHA 5.4) ---- */

/* Registers asked for beyond pipelining's (per demand, not per sink). */
static int extra_registers(const CMap *cm)
{
	int n = 0;
	for (int i = 0; i < cm->insts.len * cm->pe->ninputs; i++)
		n += cm->extra_in[i];
	vec_foreach(&cm->roms, r) n += cm->extra_rom[r];
	vec_foreach(&cm->g->kernels, k) n += cm->extra_out[k];
	return n;
}

/* Registers the route from a driver to a sink h tiles away needs so that no
 * stretch between registers is longer than the hop limit H. */
static int regs_needed(int h, int H)
{
	return H > 0 ? (h + H - 1) / H - 1 : 0;
}

/* After placement: a register packed into a PE input leaves its route
 * without it; where the route then has fewer registers than its length
 * asks for, the register goes back into the switch boxes (packing never
 * lengthens a connection's longest stretch nor asks for more registers). */
static void unpack_long_routes(Be *B)
{
	Netlist *n = &B->nl;
	vec_foreach(&n->nets, i) {
		const NlCell *dc = &n->cells.data[n->nets.data[i].cell];
		vec_foreach(&n->nets.data[i].sinks, k) {
			const NlSink *s = &n->nets.data[i].sinks.data[k];
			const NlCell *sc = &n->cells.data[s->cell];
			if (s->packed && s->regs < regs_needed(abs(dc->x - sc->x) + abs(dc->y - sc->y), B->o->hop_limit))
				nl_unpack(n, B->cm, i, k);
		}
	}
}

/* After placement: a sink whose route crosses h tiles with r registers has
 * stretches of about h / (r + 1) tiles; with fewer than ceil(h / H) - 1
 * registers (H the hop limit), the register count it follows from is
 * raised so that it gets them, every path still balanced by cm_pipeline.
 * Returns the number of sinks that asked. */
static int long_routes(Be *B, CMap *cm)
{
	int H = B->o->hop_limit, asked = 0, on = cm->pipelined;
	if (H <= 0)
		return 0;
	const Netlist *n = &B->nl;
	int nin = cm->pe->ninputs;
	int *want_in = xcalloc((size_t)cm->insts.len * (size_t)nin + 1, sizeof *want_in);
	int *want_rom = xcalloc((size_t)cm->roms.len + 1, sizeof *want_rom);
	int *want_out = xcalloc((size_t)cm->g->kernels.len + 1, sizeof *want_out);
	vec_foreach(&n->nets, i) {
		const NlNet *net = &n->nets.data[i];
		const NlCell *dc = &n->cells.data[net->cell];
		vec_foreach(&net->sinks, k) {
			const NlSink *s = &net->sinks.data[k];
			const NlCell *sc = &n->cells.data[s->cell];
			int need = regs_needed(abs(dc->x - sc->x) + abs(dc->y - sc->y), H);
			if (s->demand == NL_FIXED || need <= s->regs)
				continue;
			asked++;
			if (s->demand == NL_PE_INPUT) {
				/* regs = the shift register's taps + the stage difference
				 * (unpack_long_routes left it unpacked) */
				int taps = s->regs - cm_input_regs(cm, s->index / nin, s->index % nin);
				int w = need - taps - on;
				want_in[s->index] = w > want_in[s->index] ? w : want_in[s->index];
			} else if (s->demand == NL_ROM_ADDRESS) {    /* likewise extra_rom */
				int w = cm->extra_rom[s->index] + need - s->regs;
				want_rom[s->index] = w > want_rom[s->index] ? w : want_rom[s->index];
			} else {    /* the result's registers follow extra_out one for one */
				int w = cm->extra_out[s->index] + need - s->regs;
				want_out[s->index] = w > want_out[s->index] ? w : want_out[s->index];
			}
		}
	}
	for (int i = 0; i < cm->insts.len * nin; i++)
		cm->extra_in[i] = want_in[i] > cm->extra_in[i] ? want_in[i] : cm->extra_in[i];
	vec_foreach(&cm->roms, r) cm->extra_rom[r] = want_rom[r] > cm->extra_rom[r] ? want_rom[r] : cm->extra_rom[r];
	vec_foreach(&cm->g->kernels, k) cm->extra_out[k] = want_out[k] > cm->extra_out[k] ? want_out[k] : cm->extra_out[k];
	free(want_in);
	free(want_rom);
	free(want_out);
	if (asked && !B->o->quiet)
		fprintf(stderr, "cgrac: %s: %d connection%s longer than %d tiles per register: pipelining again\n",
			B->app, asked, asked == 1 ? "" : "s", H);
	return asked;
}

/* ---- routing ---- */

/* The time a cell spends computing (its rule's delay; memories and IOs 0). */
static double cell_delay(const Be *B, int cell)
{
	const NlCell *c = &B->nl.cells.data[cell];
	return c->kind == NL_PE ? B->cm->insts.data[c->inst].rule->cost : 0;
}

/* Each net's registers moved along its tree to cut its longest stretch,
 * counting its driver's computation before it and each sink's after; a
 * register packed into a PE input goes back onto the route where that cuts
 * the stretch better (the retimer's spare sinks). */
static void retime(Be *B)
{
	const Netlist *n = &B->nl;
	double *src = xcalloc((size_t)n->nets.len + 1, sizeof *src);
	double **after = xcalloc((size_t)n->nets.len + 1, sizeof *after);
	vec_foreach(&n->nets, i) {
		const NlNet *net = &n->nets.data[i];
		src[i] = cell_delay(B, net->cell);
		after[i] = xcalloc((size_t)net->sinks.len + 1, sizeof **after);
		vec_foreach(&net->sinks, k) after[i][k] = cell_delay(B, net->sinks.data[k].cell);
	}
	rt_retime(B->g, B->rnets, n->nets.len, src, (const double *const *)after, &B->rr);
	vec_foreach(&n->nets, i) vec_foreach(&n->nets.data[i].sinks, k) if (B->rr.routes[i].sink_regs[k] ==
									    n->nets.data[i].sinks.data[k].regs + 1)
	{
		nl_unpack(&B->nl, B->cm, i, k);
		((RtSink *)B->rnets[i].sinks)[k].regs++;
	}
	vec_foreach(&n->nets, i) free(after[i]);
	free(after);
	free(src);
}

static int be_route(Be *B)
{
	double t0 = util_now();
	const Netlist *n = &B->nl;
	B->rnets = xcalloc((size_t)n->nets.len + 1, sizeof *B->rnets);
	int ok = 1;
	vec_foreach(&n->nets, i) {
		const NlNet *net = &n->nets.data[i];
		RtSink *s = xcalloc((size_t)net->sinks.len + 1, sizeof *s);
		B->rnets[i].name = net->name;
		B->rnets[i].source = node_of(B, net->cell, net->port);
		B->rnets[i].sinks = s;
		B->rnets[i].nsinks = net->sinks.len;
		if (B->rnets[i].source < 0)
			ok = 0, diag_error(B->d, B->app, 0, 0, "internal: no routing node for %s", net->name);
		vec_foreach(&net->sinks, k) {
			s[k].node = node_of(B, net->sinks.data[k].cell, net->sinks.data[k].port);
			s[k].regs = net->sinks.data[k].regs;
			s[k].spare = net->sinks.data[k].packed;
			if (s[k].node < 0)
				ok = 0, diag_error(B->d, B->app, 0, 0, "internal: no routing node for %s.%s",
						   n->cells.data[net->sinks.data[k].cell].name, net->sinks.data[k].port);
		}
	}
	if (!ok)
		return 0;
	RtOptions ro;
	rt_options_default(&ro);
	ro.progress = B->o->quiet ? NULL : stderr;
	B->routed = 1;
	ok = rt_route(B->g, B->rnets, n->nets.len, &ro, &B->rr);
	if (!ok) {
		fputs(B->rr.report ? B->rr.report : "", stderr);
		diag_error(B->d, B->app, 0, 0, "the application cannot be routed on %s (the router's report is above)",
			   B->g->design);
	}
	if (ok)
		retime(B);
	for (int i = 0; i < B->rr.nnets && ok; i++)
		for (int e = 0; e < B->rr.routes[i].nedges; e++)
			B->regs_used += !strcmp(B->g->nodes[B->rr.routes[i].edges[e].to].kind, "reg");
	B->t_route = util_now() - t0;
	return ok;
}

/* ---- static timing ---- */

typedef struct Sta {
	double *arr;            /* per cell: arrival at its output (PEs), ns */
	int *pred;              /* per cell: the cell its latest input comes from, or -1 */
	double *at;             /* per graph node, scratch */
	double *in_arr;         /* per cell: latest input arrival so far */
	int *in_pred;
} Sta;

static void note_end(Be *B, double t, int from_cell, const char *to)
{
	if (t <= B->crit)
		return;
	B->crit = t;
	B->crit_from = from_cell;
	B->crit_to = to;
}

/* One pass over every net: arrival times along its tree from its driver's
 * arrival; registers restart the clock. Returns 1 if a PE's arrival grew. */
static int sta_pass(Be *B, Sta *S)
{
	const Netlist *n = &B->nl;
	int changed = 0;
	vec_foreach(&n->cells, c) S->in_arr[c] = 0, S->in_pred[c] = -1;
	vec_foreach(&n->nets, i) {
		const NlNet *net = &n->nets.data[i];
		const RtRoute *r = &B->rr.routes[i];
		const NlCell *dc = &n->cells.data[net->cell];
		if (dc->kind == NL_PE && B->cm->insts.data[dc->inst].constant)
			continue;       /* a constant's value never changes: no path to time */
		S->at[B->rnets[i].source] = S->arr[net->cell];
		for (int e = 0; e < r->nedges; e++) {
			const RNode *from = &B->g->nodes[r->edges[e].from], *to = &B->g->nodes[r->edges[e].to];
			double base = strcmp(from->kind, "reg") ? S->at[r->edges[e].from] : 0;
			S->at[r->edges[e].to] = base + to->delay;
			if (!strcmp(to->kind, "reg"))
				note_end(B, base, net->cell, to->name);
		}
		vec_foreach(&net->sinks, k) {
			const NlSink *sk = &net->sinks.data[k];
			double t = S->at[B->rnets[i].sinks[k].node];
			if (n->cells.data[sk->cell].kind != NL_PE || sk->packed)
				note_end(B, t, net->cell, B->g->nodes[B->rnets[i].sinks[k].node].name);
			if (sk->packed)
				t = 0;  /* from the PE's input register */
			if (n->cells.data[sk->cell].kind == NL_PE && (t > S->in_arr[sk->cell] || S->in_pred[sk->cell] < 0)) {
				S->in_arr[sk->cell] = t;
				S->in_pred[sk->cell] = sk->regs || sk->packed ? -1 : net->cell;
			}
		}
	}
	vec_foreach(&n->cells, c) if (n->cells.data[c].kind == NL_PE)
	{
		double t = S->in_arr[c] + B->cm->insts.data[n->cells.data[c].inst].rule->cost;
		if (t > S->arr[c] + 1e-12) {
			S->arr[c] = t;
			changed = 1;
		}
		S->pred[c] = S->in_pred[c];
	}
	return changed;
}

static void be_timing(Be *B)
{
	double t0 = util_now();
	const Netlist *n = &B->nl;
	Sta S;
	S.arr = xcalloc((size_t)n->cells.len + 1, sizeof *S.arr);
	S.pred = xcalloc((size_t)n->cells.len + 1, sizeof *S.pred);
	S.in_arr = xcalloc((size_t)n->cells.len + 1, sizeof *S.in_arr);
	S.in_pred = xcalloc((size_t)n->cells.len + 1, sizeof *S.in_pred);
	S.at = xcalloc((size_t)B->g->nnodes + 1, sizeof *S.at);
	for (int pass = 0; pass <= n->cells.len && sta_pass(B, &S); pass++)
		;
	B->crit = 0;
	B->crit_from = -1;
	B->crit_to = "";
	sta_pass(B, &S);
	/* the chain of PEs behind the critical endpoint, first to last */
	int chain[64], len = 0;
	for (int cell = B->crit_from; cell >= 0 && len < 64; cell = n->cells.data[cell].kind == NL_PE ? S.pred[cell] : -1)
		chain[len++] = cell;
	StrBuf sb = { 0 };
	for (int i = len - 1; i >= 0; i--)
		sb_printf(&sb, "%s -> ", n->cells.data[chain[i]].name);
	sb_printf(&sb, "%s", B->crit_to);
	snprintf(B->crit_path, sizeof B->crit_path, "%s", sb.s);
	free(sb.s);
	free(S.arr);
	free(S.pred);
	free(S.in_arr);
	free(S.in_pred);
	free(S.at);
	B->t_timing = util_now() - t0;
}

/* ---- bitstream ---- */

static int set_field(Be *B, Bitstream *bs, const char *target, uint32_t v)
{
	if (v == 0 && configmap_find(B->cfg, target) < 0)
		return 1;
	if (bitstream_set(bs, target, v))
		return 1;
	diag_error(B->d, B->app, 0, 0, "internal: config.map has no field %s for value %u", target, v);
	return 0;
}

static int pe_bits(Be *B, Bitstream *bs, const NlCell *c)
{
	const PeInfo *pe = B->cm->pe;
	uint64_t w[BITS_WORDS(PE_MAX_INST_WIDTH)];
	nl_pe_word(&B->nl, B->cm, (int)(c - B->nl.cells.data), w);
	int ok = 1;
	for (int k = 0; 32 * k < pe->inst_width; k++) {
		uint32_t v = (uint32_t)(w[k / 2] >> (32 * (k % 2)));
		char t[64];
		snprintf(t, sizeof t, "x%d_y%d.inst%d", c->x, c->y, k);
		ok &= set_field(B, bs, t, v);
	}
	return ok;
}

/* A tile holding a table: running (tile_en) with every controller off, the
 * table loaded word by word through `lookup_wr` after the registers, then
 * the look-up port enabled (lake/COLLATERAL.md, "Table look-up"). */
static int rom_bits(Be *B, Bitstream *bs, const NlCell *c)
{
	const MemInfo *mi = B->c->mem;
	const CmRom *rm = &B->cm->roms.data[c->rom];
	const HTable *t = &B->u->L->prep.tables[rm->table];
	char tgt[96];
	int ok = 1;
	for (int r = 0; r < mi->nregs; r++) {
		if (r == mi->lookup.en || r == mi->lookup.wr)
			continue;
		snprintf(tgt, sizeof tgt, "x%d_y%d.%s", c->x, c->y, mi->regs[r].name);
		ok &= set_field(B, bs, tgt, r == mi->tile_en);
	}
	uint32_t mask = mi->word >= 32 ? ~0u : (1u << mi->word) - 1;
	snprintf(tgt, sizeof tgt, "x%d_y%d.%s", c->x, c->y, mi->regs[mi->lookup.wr].name);
	for (int64_t i = 0; i < rm->entries && ok; i++) {
		uint32_t v = (uint32_t)(i + rm->offset) << mi->word | ((uint32_t)t->v[i] & mask);
		if (!bitstream_append(bs, tgt, v)) {
			diag_error(B->d, B->app, 0, 0, "internal: no configuration field %s for 0x%08x", tgt, v);
			ok = 0;
		}
	}
	snprintf(tgt, sizeof tgt, "x%d_y%d.%s", c->x, c->y, mi->regs[mi->lookup.en].name);
	if (ok && !bitstream_append(bs, tgt, 1)) {
		diag_error(B->d, B->app, 0, 0, "internal: no configuration field %s", tgt);
		ok = 0;
	}
	return ok;
}

static int mem_bits(Be *B, Bitstream *bs, const NlCell *c)
{
	const MemInfo *mi = B->c->mem;
	if (c->rom >= 0)
		return rom_bits(B, bs, c);
	const UbBank *b = &B->m->banks.data[c->bank];
	int ok = 1;
	for (int r = 0; r < mi->nregs; r++) {
		char t[96];
		snprintf(t, sizeof t, "x%d_y%d.%s", c->x, c->y, mi->regs[r].name);
		ok &= set_field(B, bs, t, b->cfg.regs[c->tile][r]);
	}
	return ok;
}

static Bitstream *be_bitstream(Be *B)
{
	double t0 = util_now();
	Bitstream *bs = bitstream_new(B->cfg);
	int ok = 1;
	for (int i = 0; i < B->rr.nnets; i++)
		for (int e = 0; e < B->rr.routes[i].nedges; e++) {
			const RtEdge *ed = &B->rr.routes[i].edges[e];
			if (!bitstream_route(bs, B->g, ed->from, ed->to)) {
				diag_error(B->d, B->app, 0, 0, "internal: no configuration for the edge %s -> %s",
					   B->g->nodes[ed->from].name, B->g->nodes[ed->to].name);
				ok = 0;
			}
		}
	vec_foreach(&B->nl.cells, i) {
		const NlCell *c = &B->nl.cells.data[i];
		if (c->kind == NL_PE)
			ok &= pe_bits(B, bs, c);
		else if (c->kind == NL_MEM)
			ok &= mem_bits(B, bs, c);
	}
	B->t_bits = util_now() - t0;
	if (!ok) {
		bitstream_free(bs);
		return NULL;
	}
	return bs;
}

/* ---- io.yaml ---- */

static const char *image_ext(const LRegion *r)
{
	return r->dims == 3 && r->box_min[2] + r->box_extent[2] == 3 ? "ppm" : "pgm";
}

static void write_loops(const UbStmt *s, FILE *f)
{
	fputs("    loops:\n", f);
	for (int l = 0; l < s->nloops; l++)
		fprintf(f, "      - { min: %lld, extent: %lld, stride: %lld }\n", (long long)s->min[l],
			(long long)s->extent[l], (long long)s->stride[l]);
}

static void write_index(const UbStmt *s, const UbIndex *x, int64_t sub, FILE *f)
{
	fputs("      - { coef: [", f);
	for (int l = 0; l < s->nloops; l++)
		fprintf(f, "%s%lld", l ? ", " : "", (long long)x->coef[l]);
	fprintf(f, "], c: %lld, div: %lld }\n", (long long)(x->c - sub * x->div), (long long)x->div);
}

static void write_stream(const Be *B, int si, FILE *f)
{
	const UbStmt *s = &B->u->stmts.data[si];
	const LProgram *L = B->u->L;
	const NlCell *io = &B->nl.cells.data[B->nl.io_of_stmt[si]];
	int W = B->u->g->word;
	const LRegion *r = s->input ? &L->images[s->image] : &L->funcs[L->p->output];
	/* the statement's name: one stream per channel of an unrolled image is input_0, input_1, ... */
	const char *name = s->name;
	fprintf(f, "  - name: %s\n    dir: %s\n    port: io_%s_x%d_%d\n    width: %d\n", name,
		s->input ? "in" : "out", s->input ? "in" : "out", io->x, W, W);
	if (s->input)
		fprintf(f, "    image: %s.input.%s\n", B->base, image_ext(r));
	else
		fprintf(f, "    image: golden.%s\n", image_ext(r));
	fputs("    dims: [", f);
	for (int j = 0; j < r->dims; j++)
		fprintf(f, "%s%lld", j ? ", " : "",
			(long long)(s->input ? r->box_min[j] + r->box_extent[j] : r->box_extent[j]));
	fputs("]\n", f);
	if (s->input && s->split_dim >= 0)
		fprintf(f, "    fixed: { dim: %d, value: %lld }\n", s->split_dim, (long long)s->split_val);
	fprintf(f, "    start: %lld\n", (long long)(s->delay + (s->input ? 0 : s->latency)));
	write_loops(s, f);
	fputs("    index:\n", f);
	if (s->input) {
		const UbPort *wp = NULL;
		vec_foreach(&B->u->ports, pi) if (B->u->ports.data[pi].stmt == si && B->u->ports.data[pi].write) wp =
		    &B->u->ports.data[pi];
		for (int j = 0; wp && j < wp->ndims; j++)
			write_index(s, &wp->index[j], 0, f);
	} else {
		for (int j = 0; j < s->nout; j++)
			write_index(s, &s->out_index[j], r->box_min[j], f);
	}
}

static void write_io(const void *arg, FILE *f)
{
	const Be *B = arg;
	fprintf(f, "# Written by cgrac (format: verif/README.md, \"Applications\").\napp: %s\ndesign: %s\n"
		   "bitstream: %s.bs\ncycles: %lld\nstreams:\n", B->base, B->g->design, B->base,
		(long long)B->last_cycle + 2);
	vec_foreach(&B->u->stmts, s) if (B->u->stmts.data[s].input) write_stream(B, s, f);
	vec_foreach(&B->u->stmts, s) if (B->u->stmts.data[s].output) write_stream(B, s, f);
}

/* ---- the other files ---- */

static void write_place(const void *arg, FILE *f)
{
	const Be *B = arg;
	fprintf(f, "# placement of %s on %s (seed %llu): cell x y kind\n", B->base, B->g->design,
		(unsigned long long)B->o->seed);
	vec_foreach(&B->nl.cells, i) {
		const NlCell *c = &B->nl.cells.data[i];
		fprintf(f, "%-24s %3d %3d %s\n", c->name, c->x, c->y, c->kind == NL_PE ? "pe" : c->kind == NL_MEM ? "mem" : "io");
	}
}

static void write_route(const void *arg, FILE *f)
{
	const Be *B = arg;
	fprintf(f, "# routes of %s on %s: per net its tree, its sinks with the registers on their paths (a packed one in the PE), one edge per line (from -> to)\n", B->base, B->g->design);
	vec_foreach(&B->nl.nets, i) {
		const NlNet *net = &B->nl.nets.data[i];
		fprintf(f, "net %s\n", net->name);
		vec_foreach(&net->sinks, k) fprintf(f, "  sink %s regs %d%s\n", B->g->nodes[B->rnets[i].sinks[k].node].name,
						     net->sinks.data[k].regs,
						     net->sinks.data[k].packed ? " + the PE's input register" : "");
		for (int e = 0; e < B->rr.routes[i].nedges; e++)
			fprintf(f, "  %s -> %s\n", B->g->nodes[B->rr.routes[i].edges[e].from].name,
				B->g->nodes[B->rr.routes[i].edges[e].to].name);
	}
}

static void write_mapped(const void *arg, FILE *f)
{
	cm_write_json(arg, f);
}

static void write_bits(const void *arg, FILE *f)
{
	bitstream_write(arg, f);
}

static void write_report(const void *arg, FILE *f)
{
	const Be *B = arg;
	const BeOptions *o = B->o;
	fprintf(f, "# Written by cgrac: what %s uses of %s and how long each stage took.\n", B->base, B->g->design);
	fprintf(f, "app: %s\ndesign: %s\npes: %d\nmems: %d\nios: %d\nregisters: %d\npacked_registers: %d\n", B->base,
		B->g->design, B->nl.pes, B->nl.mems, B->nl.ios, B->regs_used + B->nl.packed, B->nl.packed);
	fprintf(f, "tracks: { 16: %d, 1: %d }\n", B->rr.tracks16, B->rr.tracks1);
	fprintf(f, "critical_path_ns: %.3f\ncritical_path: \"%s\"\nclock_mhz: %.1f\n", B->crit, B->crit_path,
		B->crit > 0 ? 1000.0 / B->crit : 0.0);
	fprintf(f, "latency_cycles: %lld\nroute_iterations: %d\n", (long long)B->latency, B->rr.iterations);
	fprintf(f, "hop_limit: %d\nextra_registers: %d\ntable_lookups: %d\n", o->hop_limit, extra_registers(B->cm),
		B->cm->roms.len);
	fprintf(f, "seconds:\n  front_end: %.4f\n  buffers: %.4f\n  compute_mapping: %.4f\n  netlist: %.4f\n"
		   "  placement: %.4f\n  routing: %.4f\n  timing: %.4f\n  bitstream: %.4f\n",
		o->seconds_front, o->seconds_buffers, o->seconds_cmap, B->t_net, B->t_place, B->t_route,
		B->t_timing, B->t_bits);
}

/* The placement and the routes on the array, as AHA Fig. 20. */
static void write_svg(const void *arg, FILE *f)
{
	const Be *B = arg;
	const Collateral *c = B->c;
	const int S = 40;
	fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" font-family=\"monospace\" "
		   "font-size=\"7\">\n", c->cols * S + 2, c->rows * S + 2);
	char **label = xcalloc((size_t)(c->cols * c->rows) + 1, sizeof *label);
	vec_foreach(&B->nl.cells, i) {
		const NlCell *cl = &B->nl.cells.data[i];
		label[cl->y * c->cols + cl->x] = (char *)cl->name;
	}
	for (int y = 0; y < c->rows; y++)
		for (int x = 0; x < c->cols; x++) {
			char k = c->tiles[y][x];
			const char *used = label[y * c->cols + x];
			const char *fill = k == 'I' ? (used ? "#9ecae1" : "#eef5fb")
					   : k == 'M' ? (used ? "#a1d99b" : "#eef8ec")
						      : (used ? "#fdae6b" : "#fdf1e6");
			fprintf(f, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"%s\" stroke=\"#999\"/>\n",
				x * S + 1, y * S + 1, S, S, fill);
			if (used)
				fprintf(f, "<text x=\"%d\" y=\"%d\">%.9s</text>\n", x * S + 3, y * S + 10, used);
		}
	free(label);
	for (int i = 0; i < B->rr.nnets; i++)
		for (int e = 0; e < B->rr.routes[i].nedges; e++) {
			const RNode *a = &B->g->nodes[B->rr.routes[i].edges[e].from];
			const RNode *b = &B->g->nodes[B->rr.routes[i].edges[e].to];
			if (a->x == b->x && a->y == b->y)
				continue;
			int off = 8 + 4 * (a->track < 0 ? 0 : a->track) + (a->width == 1 ? 2 : 0);
			fprintf(f, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"%s\" stroke-width=\"1\"/>\n",
				a->x * S + off, a->y * S + off, b->x * S + off, b->y * S + off,
				a->width == 1 ? "#756bb1" : "#de2d26");
		}
	fputs("</svg>\n", f);
}

/* ---- driver ---- */

static int write_all(Be *B, const char *out, Bitstream *bs)
{
	if (!out)
		return 1;
	if (util_mkdir_p(out) != 0) {
		fprintf(stderr, "cgrac: cannot create %s\n", out);
		return 0;
	}
	const BeFile files[] = { { "mapped.json", write_mapped, B->cm }, { "place", write_place, B },
				 { "route", write_route, B },	      { "bs", write_bits, bs },
				 { "io.yaml", write_io, B },	      { "report.yaml", write_report, B },
				 { "svg", write_svg, B } };
	int nfiles = (int)(sizeof files / sizeof *files);
	OutSet *set = outset_new();
	for (int i = 0; i < nfiles + B->o->nextra; i++) {
		const BeFile *bf = i < nfiles ? &files[i] : &B->o->extra[i - nfiles];
		char *path = xasprintf("%s/%s.%s", out, B->base, bf->ext);
		FILE *f = outset_open(set, path);
		free(path);
		if (!f) {
			outset_abort(set);
			return 0;
		}
		bf->write(bf->arg, f);
	}
	return outset_commit(set) == 0;
}

static char *base_name(const char *app)
{
	const char *b = strrchr(app, '/');
	b = b ? b + 1 : app;
	return xasprintf("%.*s", (int)strcspn(b, "."), b);
}

static void be_free(Be *B)
{
	if (B->routed)
		rt_result_free(&B->rr);
	if (B->rnets)
		for (int i = 0; i < B->nl.nets.len; i++)
			free((void *)B->rnets[i].sinks);
	free(B->rnets);
	if (B->pl.x)
		pl_result_free(&B->pl);
	nl_free(&B->nl);
	if (B->g)
		rgraph_free(B->g);
	if (B->cfg)
		configmap_free(B->cfg);
	free(B->base);
}

static int load_interconnect(Be *B)
{
	char *gp = util_path_join(B->c->dir, "routing.graph"), *cp = util_path_join(B->c->dir, "config.map");
	B->g = rgraph_load(gp, B->d);
	B->cfg = B->g ? configmap_load(cp, B->d) : NULL;
	free(gp);
	free(cp);
	return B->g && B->cfg;
}

static void summary(const Be *B)
{
	fprintf(stderr, "cgrac: %s on %s: %d PEs, %d MEMs, %d IOs, %d registers (%d in PE inputs), tracks %d/%d "
			"(16/1 bit), critical path %.2f ns (%.0f MHz), latency %lld cycles; place %.3f s, route %.3f s "
			"(%d iterations)\n",
		B->base, B->g->design, B->nl.pes, B->nl.mems, B->nl.ios, B->regs_used + B->nl.packed, B->nl.packed,
		B->rr.tracks16, B->rr.tracks1,
		B->crit, B->crit > 0 ? 1000.0 / B->crit : 0.0, (long long)B->latency, B->t_place, B->t_route,
		B->rr.iterations);
}

int be_run(const char *app, const char *out, const UbProgram *u, const UbMap *m, CMap *cm,
	   const Collateral *c, const BeOptions *o, Diags *d)
{
	Be B;
	memset(&B, 0, sizeof B);
	B.app = app;
	B.base = base_name(app);
	B.u = u, B.m = m, B.cm = cm, B.c = c, B.o = o, B.d = d;
	B.latency = u->last_out - u->first_in;
	B.last_cycle = u->last_out;
	double t0 = util_now();
	int ok = load_interconnect(&B) && nl_build(&B.nl, u, m, cm, c, o->pack, d);
	B.t_net = util_now() - t0;
	if (ok && o->emit && !strcmp(o->emit, "mapped")) {
		cm_print(cm, stdout);
		nl_print(&B.nl, stdout);
		be_free(&B);
		return 1;
	}
	ok = ok && be_place(&B);
	if (ok)
		unpack_long_routes(&B);
	if (ok && o->ask_regs && long_routes(&B, cm)) {
		be_free(&B);
		return BE_MORE_REGISTERS;
	}
	if (ok && o->emit && !strcmp(o->emit, "place")) {
		write_place(&B, stdout);
		be_free(&B);
		return 1;
	}
	ok = ok && be_route(&B);
	Bitstream *bs = NULL;
	if (ok) {
		be_timing(&B);
		bs = be_bitstream(&B);
		ok = bs != NULL;
	}
	if (ok && o->emit && !strcmp(o->emit, "route"))
		write_route(&B, stdout);
	else if (ok)
		ok = write_all(&B, out, bs);
	if (ok && !o->quiet)
		summary(&B);
	if (bs)
		bitstream_free(bs);
	be_free(&B);
	return ok;
}
