/* memmodel.c - the cycle-accurate functional model of a memory tile
 * (lake/COLLATERAL.md, "Semantics"). One step is one clock cycle:
 *   1. controllers that fire this cycle (schedule value == cycle counter);
 *   2. requests: reads of firing read sides, writes of firing write sides and
 *      of shared transfers whose data arrives now (delay lines of L stages);
 *   3. arbitration: at each port the lowest-numbered edge's request wins; a
 *      shared transfer whose read loses is dropped altogether;
 *   4. reads see the contents at the start of the cycle; deliveries (reads
 *      issued L cycles ago) reach edges, tile outputs and writes;
 *   5. writes take effect, controllers step, the counter advances.
 * The table look-up (MemInfo.lookup) requests its port after every edge, so
 * it wins only when no edge wants the port; its word reaches its tile output
 * `latency` cycles later unless an edge delivers there. A bus write of
 * lookup_wr stores a word at once (memmodel_config_write).
 * Edges are processed in index order, so a transfer's write request on its
 * destination exists before that port is arbitrated: requests of an edge
 * depend only on grants of lower-numbered edges, as in the priority chains of
 * the Verilog. */
#include "memmodel.h"

#include <stdlib.h>
#include <string.h>

#include "../common/util.h"

#define MAX_LAT MEM_MAX_LATENCY
/* Transfers in flight live in a ring of RING entries (a power of two above
 * MAX_LAT): aging them is one index step, not a copy. An edge uses only the
 * first mask + 1 of them (the power of two above its latency), so that the
 * lines a cycle touches stay close together. */
#define RING 32
_Static_assert(RING > MAX_LAT && (RING & (RING - 1)) == 0, "RING must be a power of two above MAX_LAT");

/* A transfer in flight on a shared (or single-controller) edge. */
typedef struct Flight {
	int live;               /* the read (or tile input) was granted */
	int write;              /* a write on the destination follows */
	uint32_t dst_addr;      /* generator value at issue */
	int flag;
	uint64_t *data;         /* width words */
} Flight;

typedef struct EdgeState {
	Flight *line;           /* LINE(es, k): issued k cycles ago (k = 0 this cycle); mask + 1 of them */
	uint64_t *words;        /* their data, one block */
	int head, mask;
	uint64_t *hold;         /* last delivered data */
	int hold_flag;
	int delivered;          /* this cycle */
	uint64_t *now;          /* this cycle's data (delivered or held) */
	int now_flag;
} EdgeState;

typedef struct CtrlState {
	uint32_t idx[MEM_MAX_DIMS];
	int done;
	uint32_t sched, src, dst;  /* recurrence registers */
	int fire;
	uint32_t sched_val, src_val, dst_val;
} CtrlState;

typedef struct Request {
	int edge;               /* lowest edge wins */
	int write;
	uint32_t value;         /* generator value (address, chain bits above) */
	int granted;
} Request;

typedef struct UnitState {
	uint64_t *words;
	int *flags;
	long *last_op;          /* per port, for ii */
	Request *req;           /* per port: the winning request this cycle, edge -1 if none */
} UnitState;

/* The table look-up's reads in flight: live[k] and word[k], the read issued k
 * cycles ago. */
typedef struct LookupState {
	int live[RING];         /* LIVE(ls, k), WORD(ls, k): issued k cycles ago */
	uint64_t word[RING];
	int head, mask;
	int delivered;          /* this cycle */
} LookupState;

#define LINE(es, k) (&(es)->line[((es)->head + (k)) & (es)->mask])
#define LIVE(ls, k) ((ls)->live[((ls)->head + (k)) & (ls)->mask])
#define WORD(ls, k) ((ls)->word[((ls)->head + (k)) & (ls)->mask])

/* The ring mask for a delay of `latency` cycles. */
static int ring_mask(int latency)
{
	int n = 1;
	while (n < latency + 1)
		n *= 2;
	return n - 1;
}

struct MemModel {
	const MemInfo *mi;
	uint32_t *regs;
	uint32_t t;
	long cycles;            /* since flush */
	CtrlState *ctrl;
	EdgeState *edge;
	UnitState *unit;
	LookupState lookup;
	MemCycle cyc;
	int running;            /* this cycle's tile_en, from memmodel_begin */
	/* What a cycle visits, from the registers (rebuilt after any of them
	 * changes): the enabled controllers, the edges with an enabled controller
	 * or a transfer in flight, per output those of them that deliver to it;
	 * and the ports a request or an operation touched this cycle. */
	int prepared;
	int *act_ctrl, nact_ctrl;
	int *act_edge, nact_edge;
	int *out_first, *out_edges;     /* out_edges[out_first[o] .. out_first[o + 1] - 1] */
	int *port_base;                 /* per unit: its first port's flat index */
	int *touched, ntouched;         /* flat port indices */
	unsigned char *is_touched;
	long cyc_conflicts;     /* requests dropped this cycle (added at memmodel_finish) */
	long conflicts, ii_violations;
};

static uint32_t mask32(int width)
{
	return width >= 32 ? 0xffffffffu : (1u << width) - 1;
}

static uint64_t word_mask(const MemInfo *mi)
{
	return mi->word >= 64 ? ~0ull : (1ull << mi->word) - 1;
}

MemModel *memmodel_new(const MemInfo *mi)
{
	MemModel *m = xcalloc(1, sizeof *m);
	m->mi = mi;
	m->regs = xcalloc((size_t)mi->nregs + 1, sizeof *m->regs);
	m->ctrl = xcalloc((size_t)mi->nctrls + 1, sizeof *m->ctrl);
	m->edge = xcalloc((size_t)mi->nedges + 1, sizeof *m->edge);
	for (int e = 0; e < mi->nedges; e++) {
		EdgeState *es = &m->edge[e];
		int w = mi->edges[e].width;
		es->mask = ring_mask(mi->edges[e].latency);
		es->line = xcalloc((size_t)es->mask + 1, sizeof(Flight));
		es->words = xcalloc((size_t)(es->mask + 1) * (size_t)w, sizeof(uint64_t));
		for (int k = 0; k <= es->mask; k++)
			es->line[k].data = es->words + (size_t)k * (size_t)w;
		es->hold = xcalloc((size_t)w, sizeof(uint64_t));
		es->now = xcalloc((size_t)w, sizeof(uint64_t));
	}
	m->unit = xcalloc((size_t)mi->nunits + 1, sizeof *m->unit);
	m->cyc.ports = xcalloc((size_t)mi->nunits + 1, sizeof *m->cyc.ports);
	for (int u = 0; u < mi->nunits; u++) {
		const MemUnitInfo *ui = &mi->units[u];
		m->unit[u].words = xcalloc((size_t)ui->words, sizeof(uint64_t));
		m->unit[u].flags = xcalloc((size_t)ui->words, sizeof(int));
		m->unit[u].last_op = xcalloc((size_t)ui->nports, sizeof(long));
		m->unit[u].req = xcalloc((size_t)ui->nports, sizeof(Request));
		m->cyc.ports[u] = xcalloc((size_t)ui->nports, sizeof(MemPortOp));
		for (int p = 0; p < ui->nports; p++)
			m->cyc.ports[u][p].wdata = xcalloc((size_t)ui->ports[p].width, sizeof(uint64_t));
	}
	m->cyc.out_valid = xcalloc((size_t)mi->nouts + 1, sizeof(int));
	m->cyc.out = xcalloc((size_t)mi->nouts + 1, sizeof(uint64_t));
	m->cyc.fire = xcalloc((size_t)mi->nctrls + 1, sizeof(int));
	m->act_ctrl = xcalloc((size_t)mi->nctrls + 1, sizeof(int));
	m->act_edge = xcalloc((size_t)mi->nedges + 1, sizeof(int));
	m->out_first = xcalloc((size_t)mi->nouts + 2, sizeof(int));
	m->out_edges = xcalloc((size_t)mi->nedges + 1, sizeof(int));
	m->port_base = xcalloc((size_t)mi->nunits + 1, sizeof(int));
	int nports = 0;
	for (int u = 0; u < mi->nunits; u++) {
		m->port_base[u] = nports;
		nports += mi->units[u].nports;
	}
	m->touched = xcalloc((size_t)nports + 1, sizeof(int));
	m->is_touched = xcalloc((size_t)nports + 1, 1);
	for (int u = 0; u < mi->nunits; u++)
		for (int p = 0; p < mi->units[u].nports; p++)
			m->unit[u].req[p].edge = -1;
	memmodel_flush(m);
	return m;
}

void memmodel_free(MemModel *m)
{
	if (!m)
		return;
	const MemInfo *mi = m->mi;
	for (int e = 0; e < mi->nedges; e++) {
		free(m->edge[e].line);
		free(m->edge[e].words);
		free(m->edge[e].hold);
		free(m->edge[e].now);
	}
	for (int u = 0; u < mi->nunits; u++) {
		free(m->unit[u].words);
		free(m->unit[u].flags);
		free(m->unit[u].last_op);
		free(m->unit[u].req);
		for (int p = 0; p < mi->units[u].nports; p++)
			free(m->cyc.ports[u][p].wdata);
		free(m->cyc.ports[u]);
	}
	free(m->cyc.ports);
	free(m->cyc.out_valid);
	free(m->cyc.out);
	free(m->cyc.fire);
	free(m->unit);
	free(m->edge);
	free(m->ctrl);
	free(m->regs);
	free(m->act_ctrl);
	free(m->act_edge);
	free(m->out_first);
	free(m->out_edges);
	free(m->port_base);
	free(m->touched);
	free(m->is_touched);
	free(m);
}

void memmodel_config(MemModel *m, const uint32_t *regs)
{
	for (int i = 0; i < m->mi->nregs; i++)
		m->regs[i] = regs[i] & mask32(m->mi->regs[i].width);
	m->prepared = 0;
}

/* A bus write of lookup_wr: word (v >> word) mod words of the look-up's
 * unit takes the low `word` bits of v (a valid word: flag 1). */
static void lookup_load(MemModel *m, uint32_t v)
{
	const MemInfo *mi = m->mi;
	const MemLookup *lk = &mi->lookup;
	UnitState *us = &m->unit[lk->port.unit];
	uint32_t a = mi->word >= 32 ? 0 : (v >> mi->word) & (uint32_t)(lk->words - 1);
	us->words[a] = v & word_mask(mi);
	us->flags[a] = 1;
}

int memmodel_config_write(MemModel *m, uint32_t addr, uint32_t data)
{
	for (int i = 0; i < m->mi->nregs; i++)
		if (mem_reg_address(&m->mi->regs[i]) == (addr & 0xffff0000u)) {
			m->regs[i] = data & mask32(m->mi->regs[i].width);
			m->prepared = 0;
			if (i == m->mi->lookup.wr && mem_has_lookup(m->mi))
				lookup_load(m, data);
			return 1;
		}
	return 0;
}

void memmodel_flush(MemModel *m)
{
	const MemInfo *mi = m->mi;
	m->t = 0;
	m->cycles = 0;
	m->conflicts = m->ii_violations = 0;
	for (int c = 0; c < mi->nctrls; c++) {
		const MemCtrl *ct = &mi->ctrls[c];
		CtrlState *cs = &m->ctrl[c];
		memset(cs->idx, 0, sizeof cs->idx);
		cs->done = 0;
		cs->sched = m->regs[ct->sched.start];
		cs->src = ct->src ? m->regs[ct->src->gen.start] : 0;
		cs->dst = ct->dst ? m->regs[ct->dst->gen.start] : 0;
	}
	for (int e = 0; e < mi->nedges; e++) {
		EdgeState *es = &m->edge[e];
		int w = mi->edges[e].width;
		es->head = 0;
		for (int k = 0; k <= es->mask; k++) {
			es->line[k].live = es->line[k].write = es->line[k].flag = 0;
			es->line[k].dst_addr = 0;
			memset(es->line[k].data, 0, (size_t)w * sizeof(uint64_t));
		}
		memset(es->hold, 0, (size_t)w * sizeof(uint64_t));
		es->hold_flag = 0;
	}
	for (int u = 0; u < mi->nunits; u++)
		for (int p = 0; p < mi->units[u].nports; p++)
			m->unit[u].last_op[p] = -1000000;
	memset(&m->lookup, 0, sizeof m->lookup);
	m->lookup.mask = ring_mask(mem_has_lookup(mi) ? mi->lookup.latency : 0);
	m->prepared = 0;
}

void memmodel_clear_storage(MemModel *m)
{
	for (int u = 0; u < m->mi->nunits; u++) {
		memset(m->unit[u].words, 0, (size_t)m->mi->units[u].words * sizeof(uint64_t));
		memset(m->unit[u].flags, 0, (size_t)m->mi->units[u].words * sizeof(int));
	}
}

void memmodel_reset(MemModel *m)
{
	const MemInfo *mi = m->mi;
	memset(m->regs, 0, (size_t)mi->nregs * sizeof *m->regs);
	m->prepared = 0;
	memmodel_flush(m);
	for (int u = 0; u < mi->nunits; u++)
		if (mi->units[u].kind == MEM_REGFILE) {
			memset(m->unit[u].words, 0, (size_t)mi->units[u].words * sizeof(uint64_t));
			memset(m->unit[u].flags, 0, (size_t)mi->units[u].words * sizeof(int));
		}
}

long memmodel_conflicts(const MemModel *m)
{
	return m->conflicts;
}

long memmodel_ii_violations(const MemModel *m)
{
	return m->ii_violations;
}

int memmodel_done(const MemModel *m, int c)
{
	return m->ctrl[c].done;
}

/* ---- controllers ---- */

/* The value of generator g at the controller's counters (multiply), or its
 * recurrence register. */
static uint32_t gen_value(const MemModel *m, const MemGen *g, const CtrlState *cs, uint32_t reg)
{
	if (m->mi->affine == MEM_RECURRENCE)
		return reg & mask32(g->width);
	uint32_t v = m->regs[g->start];
	for (int l = 0; l < m->mi->dims; l++)
		v += m->regs[g->step[l]] * cs->idx[l];
	return v & mask32(g->width);
}

static void eval_ctrls(MemModel *m, int running)
{
	const MemInfo *mi = m->mi;
	for (int i = 0; i < m->nact_ctrl; i++) {
		int c = m->act_ctrl[i];
		const MemCtrl *ct = &mi->ctrls[c];
		CtrlState *cs = &m->ctrl[c];
		cs->sched_val = gen_value(m, &ct->sched, cs, cs->sched);
		cs->src_val = ct->src ? gen_value(m, &ct->src->gen, cs, cs->src) : 0;
		cs->dst_val = ct->dst ? gen_value(m, &ct->dst->gen, cs, cs->dst) : 0;
		cs->fire = running && !cs->done && cs->sched_val == m->t;
		m->cyc.fire[c] = cs->fire;
	}
}

/* The lists a cycle visits, from the registers as they are now. A disabled
 * controller never fires; an edge whose controllers are both disabled and
 * that has nothing in flight neither requests nor delivers. */
static void prepare(MemModel *m)
{
	const MemInfo *mi = m->mi;
	m->nact_ctrl = 0;
	for (int c = 0; c < mi->nctrls; c++) {
		m->ctrl[c].fire = 0;
		m->cyc.fire[c] = 0;
		if (m->regs[mi->ctrls[c].en])
			m->act_ctrl[m->nact_ctrl++] = c;
	}
	m->nact_edge = 0;
	for (int e = 0; e < mi->nedges; e++) {
		const MemEdgeInfo *ei = &mi->edges[e];
		EdgeState *es = &m->edge[e];
		int on = m->regs[mi->ctrls[ei->ctrl[0]].en] || (ei->ctrl[1] >= 0 && m->regs[mi->ctrls[ei->ctrl[1]].en]);
		for (int k = 0; k <= es->mask && !on; k++)
			on = es->line[k].live;
		if (on)
			m->act_edge[m->nact_edge++] = e;
		else
			es->delivered = 0;
	}
	int n = 0;
	for (int o = 0; o < mi->nouts; o++) {
		m->out_first[o] = n;
		for (int i = 0; i < m->nact_edge; i++) {
			const MemEdgeInfo *ei = &mi->edges[m->act_edge[i]];
			if (ei->dst.unit == MEM_TILE_OUT && ei->dst.port == o)
				m->out_edges[n++] = m->act_edge[i];
		}
	}
	m->out_first[mi->nouts] = n;
	m->prepared = 1;
}

/* A port's request or operation this cycle: cleared at the next. */
static void touch(MemModel *m, MemEnd e)
{
	int k = m->port_base[e.unit] + e.port;
	if (!m->is_touched[k]) {
		m->is_touched[k] = 1;
		m->touched[m->ntouched++] = k;
	}
}

static void step_gen(const MemModel *m, const MemGen *g, uint32_t *reg, int level)
{
	*reg = (*reg + m->regs[g->step[level]]) & mask32(g->width);
}

static void step_ctrl(MemModel *m, int c)
{
	const MemInfo *mi = m->mi;
	const MemCtrl *ct = &mi->ctrls[c];
	CtrlState *cs = &m->ctrl[c];
	int l = 0;
	while (l < mi->dims && cs->idx[l] == m->regs[ct->max[l]])
		l++;
	if (l == mi->dims) {
		cs->done = 1;
		return;
	}
	cs->idx[l] = (cs->idx[l] + 1) & mask32(mi->counter_bits);
	for (int k = 0; k < l; k++)
		cs->idx[k] = 0;
	step_gen(m, &ct->sched, &cs->sched, l);
	if (ct->src)
		step_gen(m, &ct->src->gen, &cs->src, l);
	if (ct->dst)
		step_gen(m, &ct->dst->gen, &cs->dst, l);
}

/* ---- ports ---- */

/* Local slot and chain hit of a generator value on a port. */
static uint32_t local_addr(const MemModel *m, MemEnd e, uint32_t value, int *hit)
{
	const MemUnitInfo *u = &m->mi->units[e.unit];
	int ab = u->ports[e.port].addr_bits;
	uint32_t addr = value & mask32(ab);
	*hit = 1;
	if (u->chained) {
		int hb = m->mi->counter_bits - ab;
		uint32_t high = ab >= 32 ? 0 : value >> ab;
		*hit = (high & mask32(hb)) == (m->regs[m->mi->chain_id] & mask32(hb));
	}
	return addr;
}

/* Offers a request; returns 1 if it wins (no lower edge requested the port). */
static int request(MemModel *m, MemEnd e, int edge, int write, uint32_t value)
{
	Request *r = &m->unit[e.unit].req[e.port];
	if (r->edge >= 0) {
		m->cyc_conflicts++;
		return 0;
	}
	*r = (Request){ edge, write, value, 1 };
	touch(m, e);
	return 1;
}

/* The w words of slot addr of a port, and the AND of their flags. */
static int slot_base(const MemModel *m, MemEnd e, uint32_t addr)
{
	const MemUnitInfo *u = &m->mi->units[e.unit];
	int w = u->ports[e.port].width;
	/* fetch and width are powers of two (meminfo checks it): shifts, not divisions */
	int shift = __builtin_ctz((unsigned)(u->fetch / w));
	uint32_t rest = addr & (((uint32_t)1 << shift) - 1);
	return (int)(addr >> shift) * u->fetch + (int)rest * w;
}

static int read_slot(const MemModel *m, MemEnd e, uint32_t addr, uint64_t *out)
{
	const UnitState *us = &m->unit[e.unit];
	int w = m->mi->units[e.unit].ports[e.port].width;
	int base = slot_base(m, e, addr), flag = 1;
	for (int i = 0; i < w; i++) {
		out[i] = us->words[base + i];
		flag &= us->flags[base + i];
	}
	return flag;
}

/* ---- one cycle ---- */

static void clear_cycle(MemModel *m)
{
	const MemInfo *mi = m->mi;
	for (int i = 0; i < m->ntouched; i++) {
		int k = m->touched[i], u = 0;
		while (u + 1 < mi->nunits && m->port_base[u + 1] <= k)
			u++;
		int p = k - m->port_base[u];
		MemPortOp *op = &m->cyc.ports[u][p];
		op->ren = op->wen = 0;
		op->addr = 0;
		memset(op->wdata, 0, (size_t)mi->units[u].ports[p].width * sizeof(uint64_t));
		m->unit[u].req[p].edge = -1;
		m->is_touched[k] = 0;
	}
	m->ntouched = 0;
}

/* Requests of edge e this cycle (reads of firing read sides, writes of
 * arriving transfers and firing write sides) in priority order. */
static void edge_requests(MemModel *m, int e, const uint64_t *in)
{
	const MemInfo *mi = m->mi;
	const MemEdgeInfo *ei = &mi->edges[e];
	EdgeState *es = &m->edge[e];
	const CtrlState *rs = &m->ctrl[ei->ctrl[0]];
	Flight *f0 = LINE(es, 0);
	f0->live = f0->write = 0;
	if (rs->fire) {
		if (ei->src.unit == MEM_TILE_IN) {
			f0->live = 1;
			f0->flag = 1;
			f0->data[0] = in[ei->src.port] & word_mask(mi);
		} else {
			f0->live = request(m, ei->src, e, 0, rs->src_val);
		}
		f0->write = f0->live && ei->ctrl[1] < 0 && ei->dst.unit >= 0;
		f0->dst_addr = rs->dst_val;
	}
	/* the write of a transfer issued L cycles ago */
	const Flight *arr = LINE(es, ei->latency);
	if (ei->ctrl[1] < 0 && arr->write && arr->live)
		request(m, ei->dst, e, 1, arr->dst_addr);
	if (ei->ctrl[1] >= 0 && m->ctrl[ei->ctrl[1]].fire)
		request(m, ei->dst, e, 1, m->ctrl[ei->ctrl[1]].dst_val);
}

/* The look-up's read request, after every edge's: in cycle t it reads word
 * a mod words (a the value of its input), slot (a mod words) / w, whatever
 * chain_id is. */
static void lookup_request(MemModel *m, const uint64_t *in)
{
	const MemInfo *mi = m->mi;
	const MemLookup *lk = &mi->lookup;
	LIVE(&m->lookup, 0) = 0;
	if (!mem_has_lookup(mi) || !m->regs[lk->en])
		return;
	uint32_t a = in ? (uint32_t)(in[lk->in] & (uint64_t)(lk->words - 1)) : 0;
	uint32_t w = (uint32_t)mi->units[lk->port.unit].ports[lk->port.port].width;
	Request *r = &m->unit[lk->port.unit].req[lk->port.port];
	if (r->edge >= 0) {
		m->cyc_conflicts++;
		return;
	}
	MemPortOp *op = &m->cyc.ports[lk->port.unit][lk->port.port];
	op->ren = 1;
	op->addr = a / w;
	touch(m, lk->port);
	LIVE(&m->lookup, 0) = 1;
	WORD(&m->lookup, 0) = m->unit[lk->port.unit].words[a];
}

/* Performs the granted reads: data into the edge's flight of this cycle. */
static void do_reads(MemModel *m)
{
	const MemInfo *mi = m->mi;
	for (int i = 0; i < m->nact_edge; i++) {
		int e = m->act_edge[i];
		const MemEdgeInfo *ei = &mi->edges[e];
		Flight *f0 = LINE(&m->edge[e], 0);
		if (ei->src.unit < 0 || !f0->live)
			continue;
		const Request *r = &m->unit[ei->src.unit].req[ei->src.port];
		int hit;
		uint32_t addr = local_addr(m, ei->src, r->value, &hit);
		f0->flag = hit;
		if (hit) {
			/* flags live in register files, and only matter with chaining */
			int stored = read_slot(m, ei->src, addr, f0->data);
			f0->flag = !mi->chain || mi->units[ei->src.unit].kind == MEM_SRAM ? 1 : stored;
			MemPortOp *op = &m->cyc.ports[ei->src.unit][ei->src.port];
			op->ren = 1;
			op->addr = addr;
		} else {
			memset(f0->data, 0, (size_t)ei->width * sizeof(uint64_t));
		}
	}
}

/* Deliveries of this cycle: the data each edge carries now. */
static void deliver(MemModel *m)
{
	const MemInfo *mi = m->mi;
	for (int i = 0; i < m->nact_edge; i++) {
		int e = m->act_edge[i];
		const MemEdgeInfo *ei = &mi->edges[e];
		EdgeState *es = &m->edge[e];
		const Flight *arr = LINE(es, ei->latency);
		es->delivered = arr->live;
		const uint64_t *from = arr->live ? arr->data : es->hold;
		for (int k = 0; k < ei->width; k++)
			es->now[k] = from[k];
		es->now_flag = arr->live ? arr->flag : es->hold_flag;
	}
	m->lookup.delivered = mem_has_lookup(mi) && LIVE(&m->lookup, mi->lookup.latency);
}

static void do_writes(MemModel *m)
{
	const MemInfo *mi = m->mi;
	for (int u = 0; u < mi->nunits; u++)
		for (int p = 0; p < mi->units[u].nports; p++) {
			const Request *r = &m->unit[u].req[p];
			if (!m->is_touched[m->port_base[u] + p] || r->edge < 0 || !r->write)
				continue;
			MemEnd end = { u, p };
			int hit;
			uint32_t addr = local_addr(m, end, r->value, &hit);
			if (!hit)
				continue;
			const EdgeState *es = &m->edge[r->edge];
			int w = mi->units[u].ports[p].width, base = slot_base(m, end, addr);
			MemPortOp *op = &m->cyc.ports[u][p];
			op->wen = 1;
			op->addr = addr;
			for (int i = 0; i < w; i++) {
				op->wdata[i] = es->now[i];
				m->unit[u].words[base + i] = es->now[i];
				m->unit[u].flags[base + i] = es->now_flag;
			}
		}
}

static void drive_outputs(MemModel *m, const uint64_t *chain_in, const int *chain_valid)
{
	const MemInfo *mi = m->mi;
	for (int o = 0; o < mi->nouts; o++) {
		int local = 0, edge = 0;
		uint64_t data = 0;
		for (int i = m->out_first[o]; i < m->out_first[o + 1] && !edge; i++) {
			const EdgeState *es = &m->edge[m->out_edges[i]];
			if (es->delivered) {
				edge = 1;
				local = es->now_flag;
				data = es->now[0];
			}
		}
		if (!edge && m->lookup.delivered && o == mi->lookup.out) {
			local = 1;
			data = WORD(&m->lookup, mi->lookup.latency);
		}
		int cv = mi->chain && chain_valid ? chain_valid[o] != 0 : 0;
		uint64_t cd = mi->chain && chain_in ? chain_in[o] & word_mask(mi) : 0;
		m->cyc.out_valid[o] = local || cv;
		m->cyc.out[o] = local ? data : cd;
	}
}

static void count_ii(MemModel *m)
{
	const MemInfo *mi = m->mi;
	for (int u = 0; u < mi->nunits; u++)
		for (int p = 0; p < mi->units[u].nports; p++) {
			const MemPortOp *op = &m->cyc.ports[u][p];
			if (!m->is_touched[m->port_base[u] + p] || (!op->ren && !op->wen))
				continue;
			if (m->cycles - m->unit[u].last_op[p] < mi->units[u].ports[p].ii)
				m->ii_violations++;
			m->unit[u].last_op[p] = m->cycles;
		}
}

/* Ages the transfers in flight and keeps what was delivered. */
static void advance_edges(MemModel *m)
{
	const MemInfo *mi = m->mi;
	for (int i = 0; i < m->nact_edge; i++) {
		int e = m->act_edge[i];
		EdgeState *es = &m->edge[e];
		int w = mi->edges[e].width;
		if (es->delivered) {
			for (int k = 0; k < w; k++)
				es->hold[k] = es->now[k];
			es->hold_flag = es->now_flag;
		}
		es->head = (es->head - 1) & es->mask;
		LINE(es, 0)->live = LINE(es, 0)->write = 0;
	}
	LookupState *ls = &m->lookup;
	ls->head = (ls->head - 1) & ls->mask;
	LIVE(ls, 0) = 0;
}

/* Everything of a cycle that leaves the tile's state as it was: which
 * controllers fire, the requests and their arbitration, the reads, the
 * deliveries and the outputs. It only writes the cycle's scratch (line[0]
 * of each edge, the requests, MemCycle), so it may run again in the same
 * cycle with other inputs. */
const MemCycle *memmodel_begin(MemModel *m, const uint64_t *in, const uint64_t *chain_in, const int *chain_valid)
{
	const MemInfo *mi = m->mi;
	if (!m->prepared)
		prepare(m);
	m->running = m->regs[mi->tile_en] != 0;
	m->cyc_conflicts = 0;
	clear_cycle(m);
	m->cyc.t = m->t;
	eval_ctrls(m, m->running);
	if (!m->running) {
		for (int i = 0; i < m->nact_edge; i++)
			m->edge[m->act_edge[i]].delivered = 0;
		m->lookup.delivered = 0;
		drive_outputs(m, chain_in, chain_valid);
		return &m->cyc;
	}
	for (int i = 0; i < m->nact_edge; i++)
		edge_requests(m, m->act_edge[i], in);
	lookup_request(m, in);
	do_reads(m);
	deliver(m);
	drive_outputs(m, chain_in, chain_valid);
	return &m->cyc;
}

/* The tile inputs' final values of the cycle where memmodel_begin read them:
 * the data a firing edge from a tile input carries (delivered now, its
 * latency being 0) and the look-up's address. Requests and grants do not
 * depend on input values, so nothing else changes. */
static void take_inputs(MemModel *m, const uint64_t *in)
{
	const MemInfo *mi = m->mi;
	for (int i = 0; i < m->nact_edge; i++) {
		int e = m->act_edge[i];
		const MemEdgeInfo *ei = &mi->edges[e];
		EdgeState *es = &m->edge[e];
		if (ei->src.unit != MEM_TILE_IN || !LINE(es, 0)->live)
			continue;
		LINE(es, 0)->data[0] = in[ei->src.port] & word_mask(mi);
		if (ei->latency == 0)
			es->now[0] = LINE(es, 0)->data[0];
	}
	const MemLookup *lk = &mi->lookup;
	if (mem_has_lookup(mi) && LIVE(&m->lookup, 0)) {
		uint32_t a = (uint32_t)(in[lk->in] & (uint64_t)(lk->words - 1));
		uint32_t w = (uint32_t)mi->units[lk->port.unit].ports[lk->port.port].width;
		m->cyc.ports[lk->port.unit][lk->port.port].addr = a / w;
		WORD(&m->lookup, 0) = m->unit[lk->port.unit].words[a];
	}
}

int memmodel_finish(MemModel *m, const uint64_t *in)
{
	const MemInfo *mi = m->mi;
	if (!m->running)
		return 0;
	if (in)
		take_inputs(m, in);
	m->conflicts += m->cyc_conflicts;
	do_writes(m);
	count_ii(m);
	for (int i = 0; i < m->nact_ctrl; i++)
		if (m->ctrl[m->act_ctrl[i]].fire)
			step_ctrl(m, m->act_ctrl[i]);
	advance_edges(m);
	m->t = (m->t + 1) & mask32(mi->counter_bits);
	m->cycles++;
	return 1;
}

const MemCycle *memmodel_step(MemModel *m, const uint64_t *in, const uint64_t *chain_in,
			      const int *chain_valid)
{
	const MemCycle *c = memmodel_begin(m, in, chain_in, chain_valid);
	memmodel_finish(m, NULL);
	return c;
}

int memmodel_running(const MemModel *m)
{
	return m->regs[m->mi->tile_en] != 0;
}

int memmodel_comb(const MemModel *m, int o, int i)
{
	const MemInfo *mi = m->mi;
	for (int e = 0; e < mi->nedges; e++) {
		const MemEdgeInfo *ei = &mi->edges[e];
		if (ei->src.unit == MEM_TILE_IN && ei->src.port == i && ei->dst.unit == MEM_TILE_OUT &&
		    ei->dst.port == o && m->regs[mi->ctrls[ei->ctrl[0]].en])
			return 1;
	}
	const MemLookup *lk = &mi->lookup;
	return mem_has_lookup(mi) && m->regs[lk->en] && lk->latency == 0 && lk->in == i && lk->out == o;
}

uint64_t memmodel_skip(MemModel *m, uint64_t max)
{
	const MemInfo *mi = m->mi;
	if (!m->regs[mi->tile_en])
		return 0;
	if (mem_has_lookup(mi) && m->regs[mi->lookup.en])
		return 0;  /* the look-up reads every cycle */
	for (int k = 1; mem_has_lookup(mi) && k <= mi->lookup.latency; k++)
		if (LIVE(&m->lookup, k))   /* delivered in a cycle to come */
			return 0;
	for (int e = 0; e < mi->nedges; e++)
		for (int k = 1; k <= MAX_LAT; k++)
			if (LINE(&m->edge[e], k)->live)
				return 0;
	uint64_t n = max, period = (uint64_t)mask32(mi->counter_bits) + 1;
	for (int c = 0; c < mi->nctrls; c++) {
		const MemCtrl *ct = &mi->ctrls[c];
		CtrlState *cs = &m->ctrl[c];
		if (!m->regs[ct->en] || cs->done)
			continue;
		uint64_t due = (gen_value(m, &ct->sched, cs, cs->sched) - m->t) & mask32(mi->counter_bits);
		if (due < n)
			n = due;
	}
	if (n >= period)  /* the counter wraps: stop short of meeting a schedule again */
		n = period - 1;
	m->t = (uint32_t)((m->t + n) & mask32(mi->counter_bits));
	m->cycles += (long)n;
	return n;
}

/* ---- trace ---- */

/* Prints `bits` bits of the little-endian words v (each `wbits` wide) as
 * zero-padded hex, as Verilog's %h does. */
static void put_hex(FILE *f, const uint64_t *v, int nwords, int wbits)
{
	int bits = nwords * wbits, digits = (bits + 3) / 4;
	for (int d = digits - 1; d >= 0; d--) {
		int nib = 0;
		for (int b = 3; b >= 0; b--) {
			int bit = d * 4 + b;
			if (bit < bits)
				nib = nib << 1 | (int)(v[bit / wbits] >> (bit % wbits) & 1);
			else
				nib <<= 1;
		}
		fputc("0123456789abcdef"[nib], f);
	}
}

void memmodel_trace_line(const MemModel *m, const MemCycle *c, FILE *f)
{
	memmodel_trace_fields(m, c, f);
	fputc('\n', f);
}

void memmodel_trace_fields(const MemModel *m, const MemCycle *c, FILE *f)
{
	const MemInfo *mi = m->mi;
	uint64_t t = c->t;
	put_hex(f, &t, 1, mi->counter_bits);
	for (int u = 0; u < mi->nunits; u++)
		for (int p = 0; p < mi->units[u].nports; p++) {
			const MemPortInfo *pi = &mi->units[u].ports[p];
			const MemPortOp *op = &c->ports[u][p];
			uint64_t a = op->addr;
			fprintf(f, " %s_%s:%d%d:", mi->units[u].name, pi->name, op->ren, op->wen);
			put_hex(f, &a, 1, pi->addr_bits > 0 ? pi->addr_bits : 1);
			fputc(':', f);
			put_hex(f, op->wdata, pi->width, mi->word);
		}
	for (int o = 0; o < mi->nouts; o++) {
		fprintf(f, " %s:%d:", mi->outs[o], c->out_valid[o]);
		put_hex(f, &c->out[o], 1, mi->word);
	}
}
