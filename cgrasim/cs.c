/* cs.c - the fast simulator of a configured array (see cs.h).
 *
 * State: a value per routing node (val[], plus one constant-0 slot after the
 * last node), the multiplexers' selects, each PE's instruction, state and
 * folded program, each memory tile's functional model (collateral/memmodel),
 * and the configuration registers' read-back.
 *
 * Timing is the Verilog's (canal/COLLATERAL.md, lake/COLLATERAL.md,
 * peak/COLLATERAL.md): in a cycle the combinational network settles with the
 * cycle's inputs; at the rising edge every pipeline register takes its input,
 * every PE its next state, every memory tile steps (or is flushed or reset),
 * and a bus write sets its register, which the next cycle sees. */
#define _POSIX_C_SOURCE 200809L

#include "cs_impl.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- names and ports ---- */

static int node_kind(const char *k)
{
	static const char *const names[] = { "sb_in", "sb_out", "reg", "rmux", "port_in", "port_out" };
	for (int i = 0; i < 6; i++)
		if (!strcmp(k, names[i]))
			return i;
	return K_SB_IN;
}

static int find_node(const Cs *s, int x, int y, const char *port)
{
	char *name = xasprintf("x%d_y%d_%s", x, y, port);
	int n = rgraph_find(s->g, name);
	free(name);
	return n;
}

/* A port node of a core that collateral/ic checked exists: found by name. */
static void bind_port(Cs *s, int node, int core, int index, int port)
{
	if (node < 0)
		return;
	s->core[node] = core;
	s->core_index[node] = index;
	s->core_port[node] = port;
}

static void add_pe(Cs *s, int x, int y)
{
	const PeInfo *pi = s->chip->pe_info;
	int k = s->npes++;
	Pe *p = &s->pes[k];
	p->x = x;
	p->y = y;
	p->in_node = xcalloc((size_t)pi->ninputs + 1, sizeof(int));
	p->out_node = xcalloc((size_t)pi->noutputs + 1, sizeof(int));
	for (int i = 0; i < pi->ninputs; i++)
		bind_port(s, p->in_node[i] = find_node(s, x, y, pi->inputs[i].name), CORE_PE, k, i);
	for (int i = 0; i < pi->noutputs; i++)
		bind_port(s, p->out_node[i] = find_node(s, x, y, pi->outputs[i].name), CORE_PE, k, i);
	p->inst = xcalloc((size_t)BITS_WORDS(pi->inst_width ? pi->inst_width : 1), sizeof(uint64_t));
	p->live = xcalloc((size_t)pi->noutputs + 1, 1);
	p->out_slot = xcalloc((size_t)pi->noutputs + 1, sizeof(int));
	p->next_slot = xcalloc((size_t)s->nf->nstate + 1, sizeof(int));
	p->deps = xcalloc((size_t)(pi->noutputs + 1) * (size_t)BITS_WORDS(pi->ninputs + 1), sizeof(uint64_t));
	p->needs = xcalloc((size_t)BITS_WORDS(pi->ninputs + 1), sizeof(uint64_t));
	/* the state starts at its reset values once reset; before, at 0 */
	p->nslots = pi->ninputs + s->nf->nstate;
	p->slot = xcalloc((size_t)p->nslots + 1, sizeof(uint64_t));
}

static void add_mem(Cs *s, int x, int y)
{
	const MemInfo *mi = s->chip->mem_info;
	int k = s->nmems++;
	Mem *m = &s->mems[k];
	m->x = x;
	m->y = y;
	m->m = memmodel_new(mi);
	m->in_node = xcalloc((size_t)mi->nins + 1, sizeof(int));
	m->in = xcalloc((size_t)mi->nins + 1, sizeof(uint64_t));
	m->in_root = xcalloc((size_t)mi->nins + 1, sizeof(int));
	int no = mi->nouts + 1;
	m->out_node = xcalloc((size_t)no, sizeof(int));
	m->valid_node = xcalloc((size_t)no, sizeof(int));
	m->cin_node = xcalloc((size_t)no, sizeof(int));
	m->cvalid_node = xcalloc((size_t)no, sizeof(int));
	m->cin = xcalloc((size_t)no, sizeof(uint64_t));
	m->cvalid = xcalloc((size_t)no, sizeof(int));
	m->cin_root = xcalloc((size_t)no, sizeof(int));
	m->cvalid_root = xcalloc((size_t)no, sizeof(int));
	m->dout = xcalloc((size_t)no, sizeof(int));
	m->dvalid = xcalloc((size_t)no, sizeof(int));
	/* ports: inputs 0..nins-1, then per output the chain inputs at nins + 2o and +1;
	 * outputs: data at 2o, valid at 2o + 1 */
	for (int i = 0; i < mi->nins; i++)
		bind_port(s, m->in_node[i] = find_node(s, x, y, mi->ins[i]), CORE_MEM, k, i);
	for (int o = 0; o < mi->nouts; o++) {
		static const char *const suffix[4] = { "", "_valid", "_chain_in", "_chain_valid_in" };
		int *node[4] = { &m->out_node[o], &m->valid_node[o], &m->cin_node[o], &m->cvalid_node[o] };
		int port[4] = { 2 * o, 2 * o + 1, mi->nins + 2 * o, mi->nins + 2 * o + 1 };
		for (int j = 0; j < 4; j++) {
			char *name = xasprintf("%s%s", mi->outs[o], suffix[j]);
			bind_port(s, *node[j] = find_node(s, x, y, name), CORE_MEM, k, port[j]);
			free(name);
		}
	}
}

static void add_io(Cs *s, int x, int y)
{
	for (int i = 0; i < s->g->nwidths; i++) {
		int w = s->g->widths[i];
		char port[64], name[64];
		snprintf(port, sizeof port, "io2f_%d", w);
		int in = find_node(s, x, y, port);
		snprintf(port, sizeof port, "f2io_%d", w);
		int out = find_node(s, x, y, port);
		bind_port(s, in, CORE_IO, x, i);
		bind_port(s, out, CORE_IO, x, i);
		if (in >= 0) {
			snprintf(name, sizeof name, "io_in_x%d_%d", x, w);
			strmap_put(&s->names, name, in);
			s->in_ports[s->nin_ports++] = arena_strdup(s->chip->m->arena, name);
		}
		if (out >= 0) {
			snprintf(name, sizeof name, "io_out_x%d_%d", x, w);
			strmap_put(&s->names, name, out);
			s->out_ports[s->nout_ports++] = arena_strdup(s->chip->m->arena, name);
		}
	}
}

/* ---- configuration fields ---- */

static int by_address(const void *x, const void *y)
{
	const Field *a = x, *b = y;
	if (a->address != b->address)
		return a->address < b->address ? -1 : 1;
	return (a->lo > b->lo) - (a->lo < b->lo);
}

/* The core a `core` field's target x<X>_y<Y>.<register> names, and for a
 * PE's inst<k> the word k. */
static void core_field(Cs *s, const CfgField *cf, Field *f)
{
	int x, y, used = 0;
	if (sscanf(cf->target, "x%d_y%d.%n", &x, &y, &used) != 2 || !used)
		return;
	const char *reg = cf->target + used;
	for (int k = 0; k < s->npes; k++)
		if (s->pes[k].x == x && s->pes[k].y == y) {
			char *end;
			if (!strncmp(reg, "inst", 4)) {
				long w = strtol(reg + 4, &end, 10);
				if (end != reg + 4 && !*end && w >= 0 && w * 32 < s->chip->pe_info->inst_width + 32) {
					f->pe = k;
					f->word = (int)w;
				}
			}
			return;
		}
	for (int k = 0; k < s->nmems; k++)
		if (s->mems[k].x == x && s->mems[k].y == y)
			f->mem = k;
}

static void load_fields(Cs *s)
{
	const ConfigMap *map = s->chip->map;
	s->fields = xcalloc((size_t)map->nfields + 1, sizeof(Field));
	for (int i = 0; i < map->nfields; i++) {
		const CfgField *cf = &map->fields[i];
		Field *f = &s->fields[s->nfields++];
		*f = (Field){ cf->address, cf->lo, cf->hi, -1, -1, 0, -1 };
		if (cf->mux)
			f->node = rgraph_find(s->g, cf->target);
		else
			core_field(s, cf, f);
	}
	qsort(s->fields, (size_t)s->nfields, sizeof(Field), by_address);
	/* the map's registers are in address order too: the fields of each in a run */
	s->regs = xcalloc((size_t)map->nregs + 1, sizeof(Reg));
	s->nregs = map->nregs;
	for (int i = 0, r = -1; i < s->nfields; i++) {
		if (r < 0 || map->regs[r].address != s->fields[i].address)
			s->regs[++r].first = i;
		s->regs[r].n++;
	}
}

/* ---- loading ---- */

Cs *cs_load(const char *dir, Diags *d)
{
	Chip *chip = chip_load(dir, CHIP_INTERCONNECT | CHIP_CORES, NULL, d);
	diags_flush(d);
	if (!chip)
		return NULL;
	char *name = xasprintf("%s.nf", chip->m->pe.name);
	PeNf *nf = penf_load(design_path(chip->m, name), chip->pe_info, d);
	free(name);
	diags_flush(d);
	if (!nf) {
		chip_free(chip);
		return NULL;
	}
	Cs *s = xcalloc(1, sizeof *s);
	s->chip = chip;
	s->nf = nf;
	s->d = d;
	s->g = chip->graph;
	s->n = s->g->nnodes;
	int n = s->n;
	s->kind = xcalloc((size_t)n + 1, 1);
	s->val = xcalloc((size_t)n + 1, sizeof(uint64_t));
	s->mask = xcalloc((size_t)n + 1, sizeof(uint64_t));
	s->sel = xcalloc((size_t)n + 1, sizeof(int));
	s->core = xcalloc((size_t)n + 1, sizeof(int));
	s->core_index = xcalloc((size_t)n + 1, sizeof(int));
	s->core_port = xcalloc((size_t)n + 1, sizeof(int));
	s->queue = xmalloc(((size_t)n + 1) * sizeof(int));
	s->queued = xcalloc((size_t)n + 1, 1);
	s->pending = xcalloc((size_t)n + 1, 1);
	s->observed = xcalloc((size_t)n + 1, 1);
	s->root = xcalloc((size_t)n + 1, sizeof(int));
	s->used = xcalloc((size_t)n + 1, 1);
	s->dense = xmalloc(((size_t)n + 1) * sizeof(int));
	s->dnodes = xmalloc(((size_t)n + 1) * sizeof(int));
	s->cval_cap = n + 1;
	s->cval = xcalloc((size_t)s->cval_cap, sizeof(uint64_t));
	s->last = xcalloc((size_t)n + 1, sizeof(uint64_t));
	for (int i = 0; i < n; i++) {
		s->kind[i] = (unsigned char)node_kind(s->g->nodes[i].kind);
		s->mask[i] = bv_mask(s->g->nodes[i].width);
	}
	strmap_init(&s->names);
	const Design *m = chip->m;
	int ncores = m->cols * m->rows, nw = s->g->nwidths;
	s->pes = xcalloc((size_t)ncores + 1, sizeof(Pe));
	s->mems = xcalloc((size_t)ncores + 1, sizeof(Mem));
	s->in_ports = xcalloc((size_t)(m->cols * nw) + 1, sizeof(char *));
	s->out_ports = xcalloc((size_t)(m->cols * nw) + 1, sizeof(char *));
	for (int y = 0; y < m->rows; y++)
		for (int x = 0; x < m->cols; x++) {
			char t = design_tile(m, x, y);
			if (t == 'P')
				add_pe(s, x, y);
			else if (t == 'M' && chip->mem_info)
				add_mem(s, x, y);
			else if (t == 'I' && y == 0)
				add_io(s, x, y);
		}
	for (int i = 0; i < s->nout_ports; i++) {
		intptr_t node;
		strmap_get(&s->names, s->out_ports[i], &node);
		s->observed[node] = 1;
	}
	load_fields(s);
	/* before any reset every register holds 0, as in the Verilog model */
	cs_touch_all(s);
	return s;
}

static void free_pe(Pe *p)
{
	free(p->in_node);
	free(p->out_node);
	free(p->inst);
	free(p->live);
	free(p->ops);
	free(p->slot);
	free(p->out_slot);
	free(p->next_slot);
	free(p->deps);
	free(p->needs);
	free(p->map);
	free(p->direct);
}

static void free_mem(Mem *m)
{
	memmodel_free(m->m);
	free(m->in_node);
	free(m->in);
	free(m->in_root);
	free(m->out_node);
	free(m->valid_node);
	free(m->cin_node);
	free(m->cvalid_node);
	free(m->cin);
	free(m->cvalid);
	free(m->cin_root);
	free(m->cvalid_root);
	free(m->dout);
	free(m->dvalid);
}

void cs_free(Cs *s)
{
	if (!s)
		return;
	for (int k = 0; k < s->npes; k++)
		free_pe(&s->pes[k]);
	for (int k = 0; k < s->nmems; k++)
		free_mem(&s->mems[k]);
	free(s->pes);
	free(s->mems);
	free(s->in_ports);
	free(s->out_ports);
	free(s->fields);
	free(s->regs);
	free(s->kind);
	free(s->val);
	free(s->mask);
	free(s->sel);
	free(s->core);
	free(s->core_index);
	free(s->core_port);
	free(s->queue);
	free(s->queued);
	free(s->pending);
	free(s->observed);
	free(s->root);
	free(s->used);
	vec_free(&s->used_list);
	free(s->last);
	free(s->tile_toggles);
	free(s->tile_busy);
	free(s->tile_now);
	free(s->creg);
	free(s->creg_d);
	free(s->order);
	vec_free(&s->emits);
	vec_free(&s->run_mems);
	free(s->dense);
	free(s->dnodes);
	free(s->cval);
	free(s->uops);
	free(s->copy_tmp);
	vec_free(&s->copies);
	vec_free(&s->pending_regs);
	vec_free(&s->dirty_pes);
	vec_free(&s->dirty_mems);
	vec_free(&s->pending_pes);
	strmap_free(&s->names);
	penf_free(s->nf);
	chip_free(s->chip);
	free(s);
}

/* ---- signals ---- */

const char *cs_design_name(const Cs *s)
{
	return s->chip->m->name;
}

int cs_signal(const Cs *s, const char *name, CsSignal *out)
{
	intptr_t node;
	int input = 0, port = -1;
	if (strmap_get(&s->names, name, &node)) {
		input = !strncmp(name, "io_in_", 6);
		for (int k = 0; k < (input ? s->nin_ports : s->nout_ports) && port < 0; k++)
			if (!strcmp(input ? s->in_ports[k] : s->out_ports[k], name))
				port = k;
	} else {
		node = rgraph_find(s->g, name);
		if (node < 0)
			return 0;
	}
	out->node = (int)node;
	out->width = s->g->nodes[node].width;
	out->input = input;
	out->port = port;
	return 1;
}

int cs_nodes(const Cs *s)
{
	return s->n;
}

const char *cs_node_name(const Cs *s, int node)
{
	return s->g->nodes[node].name;
}

int cs_node_width(const Cs *s, int node)
{
	return s->g->nodes[node].width;
}

const char *cs_port_name(const Cs *s, int input, int k)
{
	if (k < 0 || k >= (input ? s->nin_ports : s->nout_ports))
		return NULL;
	return input ? s->in_ports[k] : s->out_ports[k];
}

long cs_cycles(const Cs *s)
{
	return s->cycles;
}

void cs_stats(const Cs *s, CsStats *st)
{
	*st = s->stats;
	st->pes_total = s->npes;
	st->mems_total = s->nmems;
}

/* ---- the two modes ---- */

/* Back to configuring: every node's value from the drivers. */
static int to_events(Cs *s)
{
	if (!s->compiled)
		return 0;
	s->compiled = 0;
	for (int k = 1; k < s->ndense; k++)
		s->val[s->dnodes[k]] = s->cval[k];
	cs_unpack_state(s);
	for (int k = 0; k < s->nmems; k++)
		s->mems[k].begun = 0;
	cs_touch_all(s);
	return cs_gen_settle(s);
}

/* Compiles the configured array unless it closes a combinational loop:
 * then, unless loops are errors, its cycles run event by event, as the
 * Verilog simulator iterates a loop until it settles (a loop that does not
 * settle is reported by gen_settle). */
static int to_compiled(Cs *s)
{
	if (s->compiled || s->loop_events)
		return 0;
	if (!s->settled && cs_gen_settle(s))
		return -1;
	/* the memory tiles begun by the last settle start their cycle again in
	 * the compiled array */
	for (int k = 0; k < s->nmems; k++)
		s->mems[k].begun = 0;
	int status = cs_compile(s);
	if (status != -2)
		return status;
	if (s->strict_loops)
		return -1;
	s->loop_events = 1;
	snprintf(s->warning, sizeof s->warning, "%s: evaluated event by event", s->err);
	cs_touch_all(s);
	return cs_gen_settle(s);
}

void cs_strict_loops(Cs *s, int on)
{
	s->strict_loops = on;
}

const char *cs_warning(Cs *s)
{
	if (!s->warning[0])
		return NULL;
	memcpy(s->warning_taken, s->warning, sizeof s->warning_taken);
	s->warning[0] = 0;
	return s->warning_taken;
}

const char *cs_error(const Cs *s)
{
	return s->err;
}

void cs_observe(Cs *s, int node)
{
	if (!s->observed[node]) {
		s->observed[node] = 1;
		if (s->compiled)
			(void)to_events(s);
	}
}

void cs_observe_all(Cs *s)
{
	if (!s->observe_all) {
		s->observe_all = 1;
		if (s->compiled)
			(void)to_events(s);
	}
}

int cs_set(Cs *s, int node, uint64_t v)
{
	v &= s->mask[node];
	if (s->compiled) {
		if (s->dense[node] >= 0)
			s->cval[s->dense[node]] = v;
		else
			s->val[node] = v;
		s->settled = 0;
		return 0;
	}
	cs_set_node(s, node, v);
	s->settled = 0;
	return 0;
}

int cs_settle(Cs *s)
{
	if (!s->compiled && to_compiled(s))
		return -1;
	if (!s->settled)
		return s->compiled ? (cs_comp_settle(s), 0) : cs_gen_settle(s);
	return 0;
}

int cs_get(Cs *s, int node, uint64_t *v)
{
	if (!s->settled && (s->compiled ? (cs_comp_settle(s), 0) : cs_gen_settle(s)))
		return -1;
	*v = s->compiled ? cs_comp_value(s, node) : s->val[node];
	return 0;
}

int cs_edge(Cs *s)
{
	if (cs_settle(s))
		return -1;
	if (!s->compiled) {
		cs_gen_edge(s, EDGE_RUN);
		return 0;
	}
	if (s->vcd || s->activity)
		cs_watch_cycle(s);
	cs_comp_edge(s);
	s->run_cycles++;
	if (s->vcd)
		fprintf(s->vcd, "#%ld\n1!\n", 2 * s->cycles - 1);
	return 0;
}

int cs_step(Cs *s, long cycles)
{
	for (long i = 0; i < cycles; i++)
		if (cs_edge(s))
			return -1;
	return 0;
}

/* A cycle while configuring. */
static int gen_cycle(Cs *s, int kind)
{
	s->loop_events = 0;
	if (to_events(s))
		return -1;
	if (kind == EDGE_FLUSH)
		cs_flush_begin(s);
	if (kind != EDGE_RESET && !s->settled && cs_gen_settle(s))
		return -1;
	cs_gen_edge(s, kind);
	return 0;
}

int cs_reset(Cs *s, long cycles)
{
	for (long i = 0; i < cycles; i++)
		if (gen_cycle(s, EDGE_RESET))
			return -1;
	return 0;
}

int cs_flush(Cs *s, long cycles)
{
	for (long i = 0; i < cycles; i++)
		if (gen_cycle(s, EDGE_FLUSH))
			return -1;
	return 0;
}

int cs_write(Cs *s, uint32_t addr, uint32_t data)
{
	int r = configmap_reg(s->chip->map, addr);
	if (gen_cycle(s, EDGE_RUN))
		return -1;
	if (r >= 0)
		cs_apply_write(s, r, data);
	return 0;
}

uint32_t cs_read(const Cs *s, uint32_t addr)
{
	int r = configmap_reg(s->chip->map, addr);
	return r < 0 ? 0 : s->regs[r].value;
}
