/* cs_config.c - the cycles while the array is configured (cs_impl.h):
 * reset, the bitstream's writes, the flush. Every node is kept up to date
 * event by event: a node that changes queues what reads it, a core whose
 * input changes is evaluated again, a register whose input changed and a PE
 * whose next state differs wait for the clock edge. So a cycle costs what
 * changes in it, and everything holds what the Verilog holds when the
 * application starts. */
#define _POSIX_C_SOURCE 200809L

#include "cs_impl.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>


static void mark_pe(Cs *s, int k)
{
	if (!s->pes[k].dirty) {
		s->pes[k].dirty = 1;
		vec_push(&s->dirty_pes, k);
	}
}

static void mark_mem(Cs *s, int k)
{
	if (!s->mems[k].dirty) {
		s->mems[k].dirty = 1;
		vec_push(&s->dirty_mems, k);
	}
}

/* The queue is a ring of n + 1 places: a node is in it at most once. */
static void push(Cs *s, int n)
{
	if (!s->queued[n]) {
		s->queued[n] = 1;
		s->queue[(s->qhead + s->qlen++) % (s->n + 1)] = n;
	}
}

static int pop(Cs *s)
{
	int n = s->queue[s->qhead];
	s->qhead = (s->qhead + 1) % (s->n + 1);
	s->qlen--;
	s->queued[n] = 0;
	return n;
}

/* Node n took a new value: what reads it is evaluated again (a register at
 * the next edge, a core now). */
static void changed(Cs *s, int n)
{
	const RNode *r = &s->g->nodes[n];
	for (int i = 0; i < r->nout; i++) {
		int f = r->out[i];
		if (s->kind[f] != K_REG) {
			push(s, f);
		} else if (!s->pending[f]) {
			s->pending[f] = 1;
			vec_push(&s->pending_regs, f);
		}
	}
	if (s->kind[n] == K_PORT_IN && s->core[n] == CORE_PE)
		mark_pe(s, s->core_index[n]);
	else if (s->kind[n] == K_PORT_IN && s->core[n] == CORE_MEM)
		mark_mem(s, s->core_index[n]);
}

void cs_set_node(Cs *s, int n, uint64_t v)
{
	if (s->val[n] != v) {
		s->val[n] = v;
		changed(s, n);
	}
}

/* The input node n's multiplexer selects: its index in val[] (s->n, the
 * constant 0, for a node without inputs or a select past the last input,
 * which the Verilog drives with 0). */
int cs_mux_src(const Cs *s, int n)
{
	const RNode *r = &s->g->nodes[n];
	unsigned k = r->nin == 1 ? 0 : (unsigned)s->sel[n];
	return r->nin && k < (unsigned)r->nin ? r->in[k] : s->n;
}

void cs_gather_mem(const Cs *s, Mem *m)
{
	const MemInfo *mi = s->chip->mem_info;
	for (int i = 0; i < mi->nins; i++)
		m->in[i] = s->val[m->in_node[i] >= 0 ? m->in_node[i] : s->n];
	for (int o = 0; o < mi->nouts; o++) {
		m->cin[o] = s->val[m->cin_node[o] >= 0 ? m->cin_node[o] : s->n];
		m->cvalid[o] = (int)s->val[m->cvalid_node[o] >= 0 ? m->cvalid_node[o] : s->n];
	}
}

static void eval_pe(Cs *s, int k)
{
	Pe *p = &s->pes[k];
	const PeInfo *pi = s->chip->pe_info;
	p->dirty = 0;
	if (!p->folded)
		cs_fold(s, p);
	for (int i = 0; i < pi->ninputs; i++)
		p->slot[i] = s->val[p->in_node[i] >= 0 ? p->in_node[i] : s->n];
	cs_run_pe(p);
	for (int o = 0; o < pi->noutputs; o++)
		if (p->out_slot[o] >= 0 && p->out_node[o] >= 0)
			cs_set_node(s, p->out_node[o], p->slot[p->out_slot[o]]);
	if (!p->pending && cs_pe_changes(s, p)) {
		p->pending = 1;
		vec_push(&s->pending_pes, k);
	}
}

static void eval_mem(Cs *s, int k)
{
	Mem *m = &s->mems[k];
	const MemInfo *mi = s->chip->mem_info;
	m->dirty = 0;
	cs_gather_mem(s, m);
	const MemCycle *c = memmodel_begin(m->m, m->in, m->cin, m->cvalid);
	m->begun = 1;
	for (int o = 0; o < mi->nouts; o++) {
		if (m->out_node[o] >= 0)
			cs_set_node(s, m->out_node[o], c->out[o]);
		if (m->valid_node[o] >= 0)
			cs_set_node(s, m->valid_node[o], (uint64_t)c->out_valid[o]);
	}
}

int cs_fail(Cs *s, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(s->err, sizeof s->err, fmt, ap);
	va_end(ap);
	return -1;
}

/* Nodes of the queue, for a message: the first few names. */
static void queued_names(const Cs *s, char *buf, size_t len)
{
	size_t at = 0;
	buf[0] = 0;
	for (int i = 0; i < s->qlen && i < 8 && at < len; i++)
		at += (size_t)snprintf(buf + at, len - at, "%s%s", i ? ", " : "",
				       s->g->nodes[s->queue[(s->qhead + i) % (s->n + 1)]].name);
}

/* Evaluates until nothing changes. A network that does not settle within a
 * generous bound of evaluations oscillates: a combinational loop. */
int cs_gen_settle(Cs *s)
{
	long work = 0, bound = 64L * (s->n + s->npes + s->nmems) + 1000000;
	for (;;) {
		while (s->qlen) {
			int n = pop(s);
			cs_set_node(s, n, s->val[cs_mux_src(s, n)]);
			if (++work > bound) {
				char names[512];
				queued_names(s, names, sizeof names);
				while (s->qlen)
					pop(s);
				return cs_fail(s, "the configured array does not settle: a combinational loop through %s", names);
			}
		}
		if (!s->dirty_pes.len && !s->dirty_mems.len)
			break;
		while (s->dirty_pes.len)
			eval_pe(s, s->dirty_pes.data[--s->dirty_pes.len]);
		while (s->dirty_mems.len)
			eval_mem(s, s->dirty_mems.data[--s->dirty_mems.len]);
	}
	s->settled = 1;
	return 0;
}

/* Every node evaluated again, every core and register: after a reset, or
 * on leaving the compiled array. */
void cs_touch_all(Cs *s)
{
	for (int n = 0; n < s->n; n++) {
		if (s->kind[n] == K_REG) {
			if (!s->pending[n]) {
				s->pending[n] = 1;
				vec_push(&s->pending_regs, n);
			}
		} else if (s->kind[n] != K_PORT_OUT) {
			push(s, n);
		}
	}
	s->keep_state = 1;
	for (int k = 0; k < s->npes; k++) {
		memset(s->pes[k].live, 1, (size_t)s->chip->pe_info->noutputs);
		s->pes[k].folded = 0;
		mark_pe(s, k);
	}
	for (int k = 0; k < s->nmems; k++)
		mark_mem(s, k);
	s->settled = 0;
}

/* A cycle of the memory tiles' flush input: they stand still in it (their
 * outputs those of tiles that do not run); cs_gen_edge's flush ends it. */
void cs_flush_begin(Cs *s)
{
	for (int k = 0; k < s->nmems; k++) {
		memmodel_set_flush(s->mems[k].m, 1);
		mark_mem(s, k);
	}
	s->settled = 0;
}

static void reset_state(Cs *s)
{
	const PeInfo *pi = s->chip->pe_info;
	while (s->pending_pes.len)
		s->pes[s->pending_pes.data[--s->pending_pes.len]].pending = 0;
	for (int n = 0; n < s->n; n++)
		if (s->kind[n] == K_REG)
			s->val[n] = 0;
	memset(s->sel, 0, (size_t)s->n * sizeof(int));
	for (int r = 0; r < s->nregs; r++)
		s->regs[r].value = 0;
	for (int k = 0; k < s->npes; k++) {
		Pe *p = &s->pes[k];
		memset(p->inst, 0, (size_t)BITS_WORDS(pi->inst_width ? pi->inst_width : 1) * sizeof(uint64_t));
		for (int j = 0; j < s->nf->nstate; j++)
			p->slot[pi->ninputs + j] = s->nf->state[j].reset;
	}
	for (int k = 0; k < s->nmems; k++) {
		memmodel_reset(s->mems[k].m);
		s->mems[k].begun = 0;
	}
	cs_touch_all(s);
}

/* The configuration bus write of address a (known to have fields) at the
 * end of a cycle. */
void cs_apply_write(Cs *s, int r, uint32_t data)
{
	Reg *reg = &s->regs[r];
	reg->value = data & s->chip->map->regs[r].covered;
	for (int i = reg->first; i < reg->first + reg->n; i++) {
		const Field *f = &s->fields[i];
		uint64_t v = (data >> f->lo) & bv_mask(f->hi - f->lo + 1);
		if (f->node >= 0) {
			s->sel[f->node] = (int)v;
			push(s, f->node);
		} else if (f->pe >= 0) {
			Pe *p = &s->pes[f->pe];
			int w = s->chip->pe_info->inst_width, at = 32 * f->word, bits = f->hi - f->lo + 1;
			if (at + bits > w)
				bits = w - at;
			if (bits > 0)
				bits_set(p->inst, at, bits, v & bv_mask(bits));
			p->folded = 0;
			mark_pe(s, f->pe);
		} else if (f->mem >= 0) {
			memmodel_config_write(s->mems[f->mem].m, s->chip->map->regs[r].address, data);
			mark_mem(s, f->mem);
		}
	}
}

/* The rising edge, while configuring: registers whose input changed, PEs
 * whose next state differs, memory tiles that ran. */
void cs_gen_edge(Cs *s, int kind)
{
	if (kind == EDGE_RESET) {
		reset_state(s);
		s->cycles++;
		return;
	}
	for (int k = 0; k < s->nmems; k++) {
		Mem *m = &s->mems[k];
		if (kind == EDGE_FLUSH) {
			memmodel_flush(m->m);
			memmodel_set_flush(m->m, 0);
			m->begun = 0;
			mark_mem(s, k);
		} else if (m->begun) {
			cs_gather_mem(s, m);
			m->begun = 0;
			if (memmodel_finish(m->m, m->in))
				mark_mem(s, k);
		}
	}
	int nregs = s->pending_regs.len;
	int *regs = s->pending_regs.data;
	uint64_t *d = xmalloc((size_t)(nregs + 1) * sizeof(uint64_t));
	for (int i = 0; i < nregs; i++)
		d[i] = s->val[cs_mux_src(s, regs[i])];
	s->pending_regs.data = NULL;
	s->pending_regs.len = s->pending_regs.cap = 0;
	for (int i = 0; i < nregs; i++) {
		s->pending[regs[i]] = 0;
		cs_set_node(s, regs[i], d[i]);
	}
	free(d);
	free(regs);
	while (s->pending_pes.len) {
		int k = s->pending_pes.data[--s->pending_pes.len];
		s->pes[k].pending = 0;
		cs_pe_clock(s, &s->pes[k]);
		mark_pe(s, k);
	}
	s->cycles++;
	s->settled = 0;
}

