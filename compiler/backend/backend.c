/* backend.c - the back end's stages (backend.h): netlist, placement and the
 * register requests it makes, routing with retiming, timing and bitstream;
 * the files are written by be_files.c. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "be.h"

static char *base_name(const char *app)
{
	const char *b = strrchr(app, '/');
	b = b ? b + 1 : app;
	return xasprintf("%.*s", (int)strcspn(b, "."), b);
}

Backend *be_new(const char *app, const Collateral *c, const BeOptions *o)
{
	Backend *B = xcalloc(1, sizeof *B);
	B->app = app;
	B->base = base_name(app);
	B->c = c;
	B->o = o;
	return B;
}

/* Frees one round's netlist, placement, routes and bitstream. */
static void free_round(Backend *B)
{
	if (B->routed)
		rt_result_free(&B->rr);
	if (B->rnets)
		for (int i = 0; i < B->nl.nets.len; i++)
			free((void *)B->rnets[i].sinks);
	free(B->rnets);
	if (B->pl.x)
		pl_result_free(&B->pl);
	if (B->has_netlist)
		nl_free(&B->nl);
	if (B->bs)
		bitstream_free(B->bs);
	B->routed = B->has_netlist = 0;
	B->rnets = NULL;
	B->bs = NULL;
	memset(&B->pl, 0, sizeof B->pl);
	memset(&B->nl, 0, sizeof B->nl);
	B->regs_used = 0;
}

void be_free(Backend *B)
{
	if (!B)
		return;
	free_round(B);
	if (B->g)
		rgraph_free(B->g);
	if (B->cfg)
		configmap_free(B->cfg);
	free(B->base);
	free(B);
}

int be_node_of(const Backend *B, int cell, const char *port)
{
	const NlCell *c = &B->nl.cells.data[cell];
	char name[96];
	snprintf(name, sizeof name, "x%d_y%d_%s", c->x, c->y, port);
	return rgraph_find(B->g, name);
}

double be_cell_delay(const Backend *B, int cell)
{
	const NlCell *c = &B->nl.cells.data[cell];
	return c->kind == NL_PE ? c->rule->cost : 0;
}

/* ---- netlist ---- */

/* The files design.yaml names, checked against it and the cores. */
static int load_interconnect(Backend *B, Diags *d)
{
	Interconnect ic;
	if (!coll_load_interconnect(B->c, &ic, d))
		return 0;
	B->g = ic.graph;
	B->cfg = ic.map;
	for (int v = 0; B->g && v < B->g->nnodes; v++)
		if (!strcmp(B->g->nodes[v].kind, "reg") && B->g->nodes[v].width >= 1 && B->g->nodes[v].width <= 64)
			B->reg_widths |= (uint64_t)1 << (B->g->nodes[v].width - 1);
	return B->g && B->cfg;
}

/* 1 if the routes of net i can hold pipeline registers. */
static int route_registers(const Backend *B, int i)
{
	int w = B->nl.nets.data[i].width;
	return w >= 1 && w <= 64 && B->reg_widths >> (w - 1) & 1;
}

int be_netlist(Backend *B, const UbProgram *u, const UbMap *m, const CMap *cm, Diags *d)
{
	free_round(B);
	if ((!B->g || !B->cfg) && !load_interconnect(B, d))
		return 0;
	B->u = u, B->m = m, B->cm = cm;
	B->latency = u->last_out - u->first_in;
	B->last_cycle = u->last_out > u->last_in ? u->last_out : u->last_in;  /* every stream's values */
	B->has_netlist = 1;
	if (!nl_build(&B->nl, u, m, cm, B->c, B->o->pack, d))
		return 0;
	if (!B->reg_widths)
		nl_retime_inputs(&B->nl, cm->pe, B->o->pack);
	B->lacking = !nl_delay_cells(&B->nl, cm->pe, B->reg_widths, B->app, B->may_lower ? NULL : d);
	return !B->lacking || B->may_lower;
}

void be_netlist_lowerable(Backend *B, int may_lower)
{
	B->may_lower = may_lower;
}

int be_lacking(const Backend *B)
{
	return B->lacking;
}

int be_delay_cells(const Backend *B)
{
	return B->nl.delays;
}

int be_pe_overflow(const Backend *B)
{
	int tiles = 0;
	for (int y = 0; y < B->c->rows; y++)
		for (int x = 0; x < B->c->cols; x++)
			tiles += B->c->tiles[y][x] == 'P';
	return B->nl.pes > tiles ? B->nl.pes - tiles : 0;
}

/* ---- placement ---- */

static char cell_kind(NlKind k)
{
	return k == NL_PE ? 'P' : k == NL_MEM ? 'M' : 'I';
}

/* Registers the route from a driver to a sink h tiles away needs so that no
 * stretch between registers is longer than the hop limit H. */
static int regs_needed(int h, int H)
{
	return H > 0 ? (h + H - 1) / H - 1 : 0;
}

/* The Manhattan distance between the driver of net i and its sink k. */
static int sink_distance(const Netlist *n, int i, int k)
{
	const NlCell *dc = &n->cells.data[n->nets.data[i].cell];
	const NlCell *sc = &n->cells.data[n->nets.data[i].sinks.data[k].cell];
	return abs(dc->x - sc->x) + abs(dc->y - sc->y);
}

/* After placement: a register packed into a PE input leaves its route
 * without it; where the route then has fewer registers than its length
 * asks for, the register goes back into the switch boxes (packing never
 * lengthens a connection's longest stretch nor asks for more registers). */
static void unpack_long_routes(Backend *B)
{
	Netlist *n = &B->nl;
	vec_foreach(&n->nets, i) vec_foreach(&n->nets.data[i].sinks, k)
	{
		const NlSink *s = &n->nets.data[i].sinks.data[k];
		if (s->packed && route_registers(B, i) &&
		    s->regs < regs_needed(sink_distance(n, i, k), B->o->hop_limit))
			nl_unpack(n, B->cm, i, k);
	}
}


/* The buffers that take the most memory tiles, for a message: "hw_kernel_0 in 3 tiles (4608
 * words), ...", the largest first (at most four, and how many buffers in all). */
static const char *mem_users(const Backend *B)
{
	const UbProgram *u = B->u;
	int nb = u->bufs.len;
	int64_t *tiles = xcalloc((size_t)nb + 1, sizeof *tiles), *words = xcalloc((size_t)nb + 1, sizeof *words);
	vec_foreach(&B->m->banks, k) {
		const UbBank *b = &B->m->banks.data[k];
		tiles[b->buffer] += b->cfg.ntiles;
		words[b->buffer] += b->words;
	}
	StrBuf t = { 0 };
	int users = 0;
	for (int i = 0; i < nb; i++)
		users += tiles[i] > 0;
	for (int shown = 0; shown < 4; shown++) {
		int best = -1;
		for (int i = 0; i < nb; i++)
			if (tiles[i] > 0 && (best < 0 || tiles[i] > tiles[best]))
				best = i;
		if (best < 0)
			break;
		sb_printf(&t, "%s%s in %lld tile%s (%lld words)", shown ? ", " : "", u->bufs.data[best].name,
			  (long long)tiles[best], tiles[best] == 1 ? "" : "s", (long long)words[best]);
		tiles[best] = 0;
	}
	const char *r = arena_printf(u->arena, "the buffers that take the most: %s; %d buffer%s in memory tiles",
				     t.s ? t.s : "none", users, users == 1 ? "" : "s");
	free(t.s);
	free(tiles);
	free(words);
	return r;
}

int be_place(Backend *B, Diags *d)
{
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
	if (!ok && B->cm->roms.len && strstr(why, "MEM")) {
		/* the memory tiles that hold tables, and the parts of the split ones */
		StrBuf tabs = { 0 };
		vec_foreach(&B->cm->roms, r) {
			const CmRom *rm = &B->cm->roms.data[r];
			if (r && B->cm->roms.data[r - 1].table == rm->table && B->cm->roms.data[r - 1].kernel == rm->kernel)
				continue;
			int parts = 0;
			for (int k = r; k < B->cm->roms.len && B->cm->roms.data[k].table == rm->table &&
					B->cm->roms.data[k].kernel == rm->kernel; k++)
				parts++;
			sb_printf(&tabs, "%s'%s' in %d", tabs.len ? ", " : "", B->u->L->p->funcs.data[rm->table].name, parts);
		}
		diag_error(d, B->app, 0, 0, "the application does not fit %s: %s (look-up tables take %d: %s, a %d-word "
			   "look-up port each)", B->g->design, why, B->cm->roms.len, tabs.s, B->c->mem->lookup.words);
		free(tabs.s);
	} else if (!ok && B->m && strstr(why, "MEM")) {
		diag_error(d, B->app, 0, 0, "the application does not fit %s: %s (%s)", B->g->design, why,
			   mem_users(B));
	} else if (!ok)
		diag_error(d, B->app, 0, 0, "the application does not fit %s: %s", B->g->design, why);
	else
		vec_foreach(&n->cells, i) {
			B->nl.cells.data[i].x = B->pl.x[i];
			B->nl.cells.data[i].y = B->pl.y[i];
		}
	vec_foreach(&n->nets, i) free(members[i]);
	free(members);
	free(nets);
	free(cells);
	if (ok)
		unpack_long_routes(B);
	return ok;
}

/* ---- register requests for long connections (AHA 5.4) ---- */

/* A sink whose route crosses h tiles with r registers has stretches of
 * about h / (r + 1) tiles; with fewer than ceil(h / H) - 1 registers (H the
 * hop limit), the register count it follows from must grow by the
 * difference, every path still balanced by cm_pipeline. */
int be_register_requests(const Backend *B, RegRequests *r)
{
	const CMap *cm = B->cm;
	const Netlist *n = &B->nl;
	int H = B->o->hop_limit, asked = 0, nin = cm->pe->ninputs;
	if (H <= 0)
		return 0;
	vec_foreach(&n->nets, i) vec_foreach(&n->nets.data[i].sinks, k)
	{
		const NlSink *s = &n->nets.data[i].sinks.data[k];
		int need = regs_needed(sink_distance(n, i, k), H);
		if (s->demand == NL_FIXED || need <= s->regs || !route_registers(B, i))
			continue;
		asked++;
		RegRequest q = { REG_PE_INPUT, s->index, 0 };
		if (s->demand == NL_PE_INPUT) {
			/* regs = the shift register's taps + the stage difference
			 * (unpack_long_routes left it unpacked) */
			int taps = s->regs - cm_input_regs(cm, s->index / nin, s->index % nin);
			q.extra = need - taps - cm->pipelined;
		} else if (s->demand == NL_ROM_ADDRESS) {    /* likewise extra_rom */
			q.target = REG_ROM_ADDRESS;
			q.extra = cm->extra_rom[s->index] + need - s->regs;
		} else {    /* the result's registers follow extra_out one for one */
			q.target = REG_RESULT;
			q.extra = cm->extra_out[s->index] + need - s->regs;
		}
		vec_push(r, q);
	}
	return asked;
}

/* ---- routing ---- */

/* Each net's registers moved along its tree to cut its longest stretch,
 * counting its driver's computation before it and each sink's after; a
 * register packed into a PE input goes back onto the route where that cuts
 * the stretch better (the retimer's spare sinks). */
static void retime(Backend *B)
{
	const Netlist *n = &B->nl;
	double *src = xcalloc((size_t)n->nets.len + 1, sizeof *src);
	double **after = xcalloc((size_t)n->nets.len + 1, sizeof *after);
	vec_foreach(&n->nets, i) {
		const NlNet *net = &n->nets.data[i];
		src[i] = be_cell_delay(B, net->cell);
		after[i] = xcalloc((size_t)net->sinks.len + 1, sizeof **after);
		vec_foreach(&net->sinks, k) after[i][k] = be_cell_delay(B, net->sinks.data[k].cell);
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

/* The router's nets: each netlist net from its driver's port node to its
 * sinks' port nodes with their register counts. */
static int route_nets(Backend *B, Diags *d)
{
	const Netlist *n = &B->nl;
	B->rnets = xcalloc((size_t)n->nets.len + 1, sizeof *B->rnets);
	int ok = 1;
	vec_foreach(&n->nets, i) {
		const NlNet *net = &n->nets.data[i];
		RtSink *s = xcalloc((size_t)net->sinks.len + 1, sizeof *s);
		B->rnets[i].name = net->name;
		B->rnets[i].source = be_node_of(B, net->cell, net->port);
		B->rnets[i].sinks = s;
		B->rnets[i].nsinks = net->sinks.len;
		if (B->rnets[i].source < 0)
			ok = 0, diag_error(d, B->app, 0, 0, "internal: no routing node for %s", net->name);
		vec_foreach(&net->sinks, k) {
			s[k].node = be_node_of(B, net->sinks.data[k].cell, net->sinks.data[k].port);
			s[k].regs = net->sinks.data[k].regs;
			s[k].spare = net->sinks.data[k].packed;
			if (s[k].node < 0)
				ok = 0, diag_error(d, B->app, 0, 0, "internal: no routing node for %s.%s",
						   n->cells.data[net->sinks.data[k].cell].name, net->sinks.data[k].port);
		}
	}
	return ok;
}

int be_route(Backend *B, Diags *d)
{
	if (!route_nets(B, d))
		return 0;
	RtOptions ro;
	rt_options_default(&ro);
	ro.progress = B->o->quiet ? NULL : stderr;
	B->routed = 1;
	int ok = rt_route(B->g, B->rnets, B->nl.nets.len, &ro, &B->rr);
	if (!ok) {
		fputs(B->rr.report ? B->rr.report : "", stderr);
		if (B->rr.overused > 0 && B->rr.over_node >= 0) {
			/* the nets on the first node, from the report's first line, so that the
			 * message says the whole reason wherever it is read */
			const char *rep = B->rr.report ? B->rr.report : "", *used = strstr(rep, " is used by ");
			int n = used && used < rep + strcspn(rep, "\n") ? (int)strcspn(used + 4, "\n") : 0;
			diag_error(d, B->app, 0, 0, "the application cannot be routed on %s: too few %d-bit tracks for "
				   "its placement, %d routing node%s still carrying two nets or more after %d iterations "
				   "(the first %s%s%.*s; the router's report is above)", B->g->design,
				   B->g->nodes[B->rr.over_node].width, B->rr.overused, B->rr.overused == 1 ? "" : "s",
				   B->rr.iterations, B->g->nodes[B->rr.over_node].name, n ? ", " : "", n,
				   n ? used + 4 : "");
		} else {
			const char *rep = B->rr.report ? B->rr.report : "";
			diag_error(d, B->app, 0, 0, "the application cannot be routed on %s: %.*s", B->g->design,
				   (int)strcspn(rep, "\n"), rep);
		}
		return 0;
	}
	retime(B);
	for (int i = 0; i < B->rr.nnets; i++)
		for (int e = 0; e < B->rr.routes[i].nedges; e++)
			B->regs_used += !strcmp(B->g->nodes[B->rr.routes[i].edges[e].to].kind, "reg");
	return 1;
}

/* ---- timing and bitstream ---- */

int be_bitstream(Backend *B, Diags *d)
{
	be_timing(B);
	B->bs = be_bits(B, d);
	return B->bs != NULL;
}

void be_summary(const Backend *B, const BeSeconds *s, double total, FILE *f)
{
	fprintf(f, "cgrac: %s on %s: %d PEs, %d MEMs, %d IOs, %d registers (%d in PE inputs), tracks %d/%d "
		   "(16/1 bit), critical path %.2f ns (%.0f MHz), latency %lld cycles%s; place %.3f s, route %.3f s "
		   "(%d iterations), %.3f s in all\n",
		B->base, B->g->design, B->nl.pes, B->nl.mems, B->nl.ios, B->regs_used + B->nl.packed, B->nl.packed,
		B->rr.tracks16, B->rr.tracks1, B->crit, B->crit > 0 ? 1000.0 / B->crit : 0.0, (long long)B->latency,
		B->u->runs > 1 ? arena_printf(B->u->arena, " per run, %lld runs", (long long)B->u->runs) : "",
		s->placement, s->routing, B->rr.iterations, total);
}
