/* be_bits.c - the bitstream (be.h): every routed edge sets its
 * multiplexer's select, every other multiplexer an input settled at 0 or a
 * register, every PE cell its instruction (constants and packed input
 * registers included), every memory cell its solved configuration or its
 * table, all through config.map; a combinational loop in the result is an
 * internal error. */
#include <stdlib.h>
#include <string.h>

#include "../../common/bv.h"
#include "be.h"

static int set_field(Backend *B, Bitstream *bs, const char *target, uint32_t v, Diags *d)
{
	if (v == 0 && configmap_find(B->cfg, target) < 0)
		return 1;
	if (bitstream_set(bs, target, v))
		return 1;
	diag_error(d, B->app, 0, 0, "internal: config.map has no field %s for value %u", target, v);
	return 0;
}

static int pe_bits(Backend *B, Bitstream *bs, const NlCell *c, Diags *d)
{
	const PeInfo *pe = B->cm->pe;
	uint64_t w[BITS_WORDS(PE_MAX_INST_WIDTH)];
	nl_pe_word(&B->nl, B->cm, (int)(c - B->nl.cells.data), w);
	int ok = 1;
	for (int k = 0; 32 * k < pe->inst_width; k++) {
		uint32_t v = (uint32_t)(w[k / 2] >> (32 * (k % 2)));
		char t[64];
		snprintf(t, sizeof t, "x%d_y%d.inst%d", c->x, c->y, k);
		ok &= set_field(B, bs, t, v, d);
	}
	return ok;
}

/* A tile holding a table: running (tile_en) with every controller off, the
 * table loaded word by word through `lookup_wr` after the registers, then
 * the look-up port enabled (lake/COLLATERAL.md, "Table look-up"). */
static int rom_bits(Backend *B, Bitstream *bs, const NlCell *c, Diags *d)
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
		ok &= set_field(B, bs, tgt, r == mi->tile_en, d);
	}
	uint32_t mask = mi->word >= 32 ? ~0u : (1u << mi->word) - 1;
	snprintf(tgt, sizeof tgt, "x%d_y%d.%s", c->x, c->y, mi->regs[mi->lookup.wr].name);
	for (int64_t i = 0; i < rm->entries && ok; i++) {
		uint32_t v = (uint32_t)(i + rm->offset) << mi->word | ((uint32_t)t->v[rm->base + i] & mask);
		if (!bitstream_append(bs, tgt, v)) {
			diag_error(d, B->app, 0, 0, "internal: no configuration field %s for 0x%08x", tgt, v);
			ok = 0;
		}
	}
	snprintf(tgt, sizeof tgt, "x%d_y%d.%s", c->x, c->y, mi->regs[mi->lookup.en].name);
	if (ok && !bitstream_append(bs, tgt, 1)) {
		diag_error(d, B->app, 0, 0, "internal: no configuration field %s", tgt);
		ok = 0;
	}
	return ok;
}

static int mem_bits(Backend *B, Bitstream *bs, const NlCell *c, Diags *d)
{
	const MemInfo *mi = B->c->mem;
	if (c->rom >= 0)
		return rom_bits(B, bs, c, d);
	const UbBank *b = &B->m->banks.data[c->bank];
	int ok = 1;
	for (int r = 0; r < mi->nregs; r++) {
		char t[96];
		snprintf(t, sizeof t, "x%d_y%d.%s", c->x, c->y, mi->regs[r].name);
		ok &= set_field(B, bs, t, b->cfg.regs[c->tile][r], d);
	}
	return ok;
}

/* Every multiplexer no route takes selects an input whose driver, followed
 * back, ends at an input tied to 0 at the array's edge (found first, by a
 * search out from those inputs) or else at a register (a bypass multiplexer
 * its register). Left at select 0, unused multiplexers chain tracks and
 * unconfigured PEs (which add their inputs) into combinational paths
 * across the whole array, along which a routed value ripples: a simulator
 * evaluating the tiles one boundary at a time then does not settle
 * (Verilator: "Active region did not converge", camera_pipe on cgra_32x16),
 * and nothing the application needs depends on them. */
static void ground_from(Backend *B, Bitstream *bs, const char *routed, int *drv, char *quiet, int registers)
{
	const RGraph *g = B->g;
	int *queue = xcalloc((size_t)g->nnodes + 1, sizeof *queue), head = 0, tail = 0;
	for (int n = 0; n < g->nnodes; n++) {
		const RNode *r = &g->nodes[n];
		int seed = registers ? !strcmp(r->kind, "reg") : r->nin == 0 && !strcmp(r->kind, "sb_in");
		if (seed || (registers && quiet[n])) {
			quiet[n] = 1;
			queue[tail++] = n;
		}
	}
	while (head < tail) {
		int u = queue[head++];
		for (int k = 0; k < g->nodes[u].nout; k++) {
			int v = g->nodes[u].out[k];
			const RNode *rv = &g->nodes[v];
			if (quiet[v] || routed[v] || !strcmp(rv->kind, "port_out"))
				continue;
			int from = u;
			if (registers && !strcmp(rv->kind, "rmux"))
				for (int i = 0; i < rv->nin; i++)
					if (!strcmp(g->nodes[rv->in[i]].kind, "reg"))
						from = rv->in[i];
			if (rv->nin > 1 && !bitstream_route(bs, g, from, v))
				continue;       /* no field for it: left as it is */
			drv[v] = from;
			quiet[v] = 1;
			queue[tail++] = v;
		}
	}
	free(queue);
}

static void ground_unused(Backend *B, Bitstream *bs, const char *routed, int *drv)
{
	char *quiet = xcalloc((size_t)B->g->nnodes + 1, 1);
	ground_from(B, bs, routed, drv, quiet, 0);
	ground_from(B, bs, routed, drv, quiet, 1);
	free(quiet);
}

/* A combinational loop of the configured array, or 0: every node depends on
 * the input its multiplexer selects (drv; -1 for none), a PE's outputs on
 * its inputs but those with a packed register; registers depend on nothing
 * within the cycle. Writes the loop's nodes into why. */
static int find_loop(const Backend *B, const int *drv, char *why, size_t len)
{
	const RGraph *g = B->g;
	int n = g->nnodes;
	/* the inputs of each PE tile, for its outputs */
	int *first = xcalloc((size_t)(g->cols * g->rows) + 1, sizeof *first), *pins = xcalloc((size_t)n + 1, sizeof *pins);
	int *fill = xcalloc((size_t)(g->cols * g->rows) + 1, sizeof *fill);
	for (int v = 0; v < n; v++)
		if (!strcmp(g->nodes[v].kind, "port_in"))
			first[g->nodes[v].y * g->cols + g->nodes[v].x + 1]++;
	for (int t = 0; t < g->cols * g->rows; t++)
		first[t + 1] += first[t];
	for (int v = 0; v < n; v++)
		if (!strcmp(g->nodes[v].kind, "port_in")) {
			int t = g->nodes[v].y * g->cols + g->nodes[v].x;
			pins[first[t] + fill[t]++] = v;
		}
	/* a PE input whose register is packed in holds the value a cycle */
	char *registered = xcalloc((size_t)n + 1, 1);
	vec_foreach(&B->nl.nets, i) vec_foreach(&B->nl.nets.data[i].sinks, k) {
		const NlSink *sk = &B->nl.nets.data[i].sinks.data[k];
		if (!sk->packed)
			continue;
		int v = be_node_of(B, sk->cell, sk->port);
		if (v >= 0)
			registered[v] = 1;
	}
	/* depth-first, iteratively: 1 on the path, 2 done */
	char *state = xcalloc((size_t)n + 1, 1);
	int *stack = xcalloc((size_t)n + 1, sizeof *stack), *next = xcalloc((size_t)n + 1, sizeof *next);
	int found = 0;
	for (int s = 0; s < n && !found; s++) {
		if (state[s])
			continue;
		int sp = 0;
		stack[sp++] = s;
		state[s] = 1;
		next[s] = 0;
		while (sp && !found) {
			int v = stack[sp - 1], dep = -1;
			const RNode *r = &g->nodes[v];
			int pe = !strcmp(r->kind, "port_out") && B->c->tiles[r->y][r->x] == 'P';
			int t = r->y * g->cols + r->x;
			int ndeps = strcmp(r->kind, "reg") == 0 ? 0 : pe ? first[t + 1] - first[t] : drv[v] >= 0;
			if (next[v] < ndeps)
				dep = pe ? pins[first[t] + next[v]] : drv[v];
			next[v]++;
			if (dep >= 0 && pe && registered[dep])
				continue;
			if (dep < 0) {
				state[v] = 2;
				sp--;
			} else if (state[dep] == 1) {
				size_t at = (size_t)snprintf(why, len, "%s", g->nodes[dep].name);
				for (int k = sp - 1; k >= 0 && stack[k] != dep && at < len; k--)
					at += (size_t)snprintf(why + at, len - at, " <- %s", g->nodes[stack[k]].name);
				found = 1;
			} else if (!state[dep]) {
				state[dep] = 1;
				next[dep] = 0;
				stack[sp++] = dep;
			}
		}
	}
	free(registered);
	free(state);
	free(stack);
	free(next);
	free(first);
	free(pins);
	free(fill);
	return found;
}

Bitstream *be_bits(Backend *B, Diags *d)
{
	double t0 = util_now();
	Bitstream *bs = bitstream_new(B->cfg);
	int ok = 1;
	char *routed = xcalloc((size_t)B->g->nnodes + 1, 1);
	/* what each node takes: a multiplexer left alone its input 0 */
	int *drv = xcalloc((size_t)B->g->nnodes + 1, sizeof *drv);
	for (int v = 0; v < B->g->nnodes; v++)
		drv[v] = B->g->nodes[v].nin ? B->g->nodes[v].in[0] : -1;
	for (int i = 0; i < B->rr.nnets; i++)
		for (int e = 0; e < B->rr.routes[i].nedges; e++) {
			const RtEdge *ed = &B->rr.routes[i].edges[e];
			routed[ed->to] = routed[ed->from] = 1;
			drv[ed->to] = ed->from;
			if (!bitstream_route(bs, B->g, ed->from, ed->to)) {
				diag_error(d, B->app, 0, 0, "internal: no configuration for the edge %s -> %s",
					   B->g->nodes[ed->from].name, B->g->nodes[ed->to].name);
				ok = 0;
			}
		}
	ground_unused(B, bs, routed, drv);
	free(routed);
	char why[512];
	if (ok && find_loop(B, drv, why, sizeof why)) {
		diag_error(d, B->app, 0, 0, "internal: the configuration closes a combinational loop: %s", why);
		ok = 0;
	}
	free(drv);
	vec_foreach(&B->nl.cells, i) {
		const NlCell *c = &B->nl.cells.data[i];
		if (c->kind == NL_PE)
			ok &= pe_bits(B, bs, c, d);
		else if (c->kind == NL_MEM)
			ok &= mem_bits(B, bs, c, d);
	}
	B->t_bits = util_now() - t0;
	if (!ok) {
		bitstream_free(bs);
		return NULL;
	}
	return bs;
}
