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
 * the Verilog.
 *
 * Speed. The simulators run a tile every cycle, and most cycles of most
 * tiles do nothing, so the model is specialized to its registers once they
 * are set (prepare: rebuilt after any register changes): the enabled
 * controllers and the edges they drive as lists, each storage port's masks
 * and shifts flattened (PortPlan), each controller's generator values kept
 * from one step to the next with the cycle it fires next (CtrlState.due),
 * and the cycle the last transfer in flight arrives. In a cycle only the
 * edges a controller of theirs fires on or a transfer arrives on are visited
 * (edges_cycle; transfers in flight age without a visit). A cycle before both
 * (a quiet one: no controller fires, nothing arrives, no look-up reads)
 * only passes the chain inputs to the outputs and counts; memmodel_quiet
 * tells a simulator how many such cycles come, to let them pass at once. */
#include "memmodel.h"

#include <limits.h>
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
/* The cycle a controller that is done or never meets the counter fires. */
#define NEVER LONG_MAX

/* A transfer in flight on a shared (or single-controller) edge. */
typedef struct Flight {
	int live;               /* the read (or tile input) was granted */
	int write;              /* a write on the destination follows */
	uint32_t dst_addr;      /* generator value at issue */
	int flag;
	uint64_t *data;         /* width words */
} Flight;

typedef struct EdgeState {
	Flight *line;           /* LINE(m, es, k): issued k cycles ago (k = 0 this cycle); mask + 1 of them */
	uint64_t *words;        /* their data, one block */
	int mask;
	int lat, width, c0, c1; /* its MemEdgeInfo's latency, width and controllers */
	uint64_t *hold;         /* last delivered data */
	int hold_flag;
	int delivered;          /* this cycle */
	const uint64_t *now;    /* this cycle's data: the arriving flight's, or hold */
	int now_flag;
	int src, dst;           /* storage ends: flat port indices (PortPlan), -1 for a tile port */
	long last_live;         /* the last cycle a flight that is still to arrive may have been issued in */
} EdgeState;

typedef struct CtrlState {
	uint32_t idx[MEM_MAX_DIMS];
	int done;
	uint32_t sched, src, dst;  /* recurrence registers (whether it fires this cycle: MemCycle.fire) */
	/* the generators' values, from the registers and the state above (set
	 * when either changes: prepare, step), and the cycle (MemModel.cycles)
	 * the schedule meets the counter: NEVER once done */
	uint32_t sched_val, src_val, dst_val;
	long due;
	/* from the registers, for the enabled controllers (prepare): the
	 * counters' extents minus one, each generator's start, steps per level
	 * and mask (generator 0 the schedule, 1 the source's, 2 the
	 * destination's), which generators there are */
	uint32_t max[MEM_MAX_DIMS];
	uint32_t start[3], step[3][MEM_MAX_DIMS], gmask[3];
	int has[3];
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

/* A storage port as a cycle uses it, flattened from its MemUnitInfo: slot s
 * of the port is words (s >> shift) * fetch + (s & rest) * width on; a
 * generator value v is slot v & amask, and with chaining is served here when
 * its bits above the address, masked by hmask, equal chain_val (chain_id's,
 * set by prepare). */
typedef struct PortPlan {
	int unit, port;
	int width, fetch, shift;
	uint32_t rest, amask;
	int abits, chained;
	uint32_t hmask, chain_val;
	int stored_flag;        /* a read's flag is the AND of the slot's (a register file with chaining) */
	int ii;
	uint64_t *words;
	int *flags;
	Request *req;
	MemPortOp *op;
	long *last_op;
} PortPlan;

/* The table look-up's reads in flight: live[k] and word[k], the read issued k
 * cycles ago. */
typedef struct LookupState {
	int live[RING];         /* LIVE(ls, k), WORD(ls, k): issued k cycles ago */
	uint64_t word[RING];
	int head, mask;
	int delivered;          /* this cycle */
} LookupState;

/* An edge's flights are indexed by the cycle they were issued in, so that
 * they age without a step (an edge that does nothing in a cycle is not
 * visited); a flight is cleared when it arrives. */
#define LINE(m, es, k) (&(es)->line[((unsigned long)(m)->cycles - (unsigned long)(k)) & (unsigned long)(es)->mask])
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
	uint32_t tmask;         /* the counter's bits */
	uint64_t wmask;         /* a word's bits */
	CtrlState *ctrl;
	EdgeState *edge;
	UnitState *unit;
	PortPlan *port;         /* every storage port, unit by unit */
	int nports;
	LookupState lookup;
	int lookup_port;        /* the look-up's flat port, or -1 */
	MemCycle cyc;
	int running;            /* this cycle's tile_en, from memmodel_begin */
	int flush_in;           /* the flush input is high this cycle (memmodel_set_flush) */
	int quiet;              /* this cycle is quiet (see the file's comment), from memmodel_begin */
	int takes_inputs;       /* memmodel_finish reads the inputs, from memmodel_begin */
	/* What a cycle visits, from the registers (rebuilt after any of them
	 * changes): the enabled controllers, the edges with an enabled controller
	 * or a transfer in flight, per output those of them that deliver to it,
	 * the ports they write in port order; and the ports a request or an
	 * operation touched this cycle. */
	int prepared;
	int *act_ctrl, nact_ctrl;
	int *act_edge, nact_edge;
	int *busy, nbusy;               /* this cycle: the edges a controller fires or a flight arrives on */
	int *out_first, *out_edges;     /* out_edges[out_first[o] .. out_first[o + 1] - 1] */
	int *wports, nwports;           /* flat port indices */
	int *touched, ntouched;         /* flat port indices */
	unsigned char *is_touched;
	int lookup_on;                  /* lookup_en */
	int *fired, nfired;             /* this cycle: the controllers that fire */
	int fire_dirty;                 /* a controller's fire may be 1 */
	long next_due;                  /* the earliest due of the enabled controllers */
	long rest_due;                  /* this cycle: the earliest due of those that do not fire */
	long last_arrival;              /* the last cycle a transfer in flight (or the look-up's) may arrive */
	int any_ii;             /* a port's ii is above 1 */
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

/* Port p of unit u flattened (chain_val is prepare's). */
static PortPlan port_plan(MemModel *m, int u, int p)
{
	const MemInfo *mi = m->mi;
	const MemUnitInfo *ui = &mi->units[u];
	const MemPortInfo *pi = &ui->ports[p];
	/* fetch and width are powers of two (meminfo checks it): shifts, not divisions */
	int shift = __builtin_ctz((unsigned)(ui->fetch / pi->width));
	int ab = pi->addr_bits;
	return (PortPlan){
		.unit = u, .port = p, .width = pi->width, .fetch = ui->fetch, .shift = shift,
		.rest = ((uint32_t)1 << shift) - 1, .amask = mask32(ab), .abits = ab,
		.chained = ui->chained, .hmask = ui->chained ? mask32(mi->counter_bits - ab) : 0,
		.stored_flag = mi->chain && ui->kind != MEM_SRAM, .ii = pi->ii,
		.words = m->unit[u].words, .flags = m->unit[u].flags, .req = &m->unit[u].req[p],
		.op = &m->cyc.ports[u][p], .last_op = &m->unit[u].last_op[p],
	};
}

/* The flat index of a storage end, or -1 for a tile port. */
static int flat_port(const MemModel *m, MemEnd e)
{
	if (e.unit < 0)
		return -1;
	int k = 0;
	for (int u = 0; u < e.unit; u++)
		k += m->mi->units[u].nports;
	return k + e.port;
}

static void new_edges(MemModel *m)
{
	const MemInfo *mi = m->mi;
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
		es->src = flat_port(m, mi->edges[e].src);
		es->dst = flat_port(m, mi->edges[e].dst);
		es->lat = mi->edges[e].latency;
		es->width = w;
		es->c0 = mi->edges[e].ctrl[0];
		es->c1 = mi->edges[e].ctrl[1];
	}
}

static void new_units(MemModel *m)
{
	const MemInfo *mi = m->mi;
	m->unit = xcalloc((size_t)mi->nunits + 1, sizeof *m->unit);
	m->cyc.ports = xcalloc((size_t)mi->nunits + 1, sizeof *m->cyc.ports);
	m->nports = 0;
	for (int u = 0; u < mi->nunits; u++) {
		const MemUnitInfo *ui = &mi->units[u];
		m->unit[u].words = xcalloc((size_t)ui->words, sizeof(uint64_t));
		m->unit[u].flags = xcalloc((size_t)ui->words, sizeof(int));
		m->unit[u].last_op = xcalloc((size_t)ui->nports, sizeof(long));
		m->unit[u].req = xcalloc((size_t)ui->nports, sizeof(Request));
		m->cyc.ports[u] = xcalloc((size_t)ui->nports, sizeof(MemPortOp));
		for (int p = 0; p < ui->nports; p++) {
			m->cyc.ports[u][p].wdata = xcalloc((size_t)ui->ports[p].width, sizeof(uint64_t));
			m->unit[u].req[p].edge = -1;
		}
		m->nports += ui->nports;
	}
	m->port = xcalloc((size_t)m->nports + 1, sizeof *m->port);
	for (int u = 0, k = 0; u < mi->nunits; u++)
		for (int p = 0; p < mi->units[u].nports; p++, k++) {
			m->port[k] = port_plan(m, u, p);
			m->any_ii |= m->port[k].ii > 1;
		}
}

MemModel *memmodel_new(const MemInfo *mi)
{
	MemModel *m = xcalloc(1, sizeof *m);
	m->mi = mi;
	m->tmask = mask32(mi->counter_bits);
	m->wmask = word_mask(mi);
	m->regs = xcalloc((size_t)mi->nregs + 1, sizeof *m->regs);
	m->ctrl = xcalloc((size_t)mi->nctrls + 1, sizeof *m->ctrl);
	new_units(m);
	new_edges(m);
	m->lookup_port = mem_has_lookup(mi) ? flat_port(m, mi->lookup.port) : -1;
	m->cyc.out_valid = xcalloc((size_t)mi->nouts + 1, sizeof(int));
	m->cyc.out = xcalloc((size_t)mi->nouts + 1, sizeof(uint64_t));
	m->cyc.fire = xcalloc((size_t)mi->nctrls + 1, sizeof(int));
	m->act_ctrl = xcalloc((size_t)mi->nctrls + 1, sizeof(int));
	m->fired = xcalloc((size_t)mi->nctrls + 1, sizeof(int));
	m->act_edge = xcalloc((size_t)mi->nedges + 1, sizeof(int));
	m->busy = xcalloc((size_t)mi->nedges + 1, sizeof(int));
	m->out_first = xcalloc((size_t)mi->nouts + 2, sizeof(int));
	m->out_edges = xcalloc((size_t)mi->nedges + 1, sizeof(int));
	m->wports = xcalloc((size_t)m->nports + 1, sizeof(int));
	m->touched = xcalloc((size_t)m->nports + 1, sizeof(int));
	m->is_touched = xcalloc((size_t)m->nports + 1, 1);
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
	free(m->port);
	free(m->edge);
	free(m->ctrl);
	free(m->regs);
	free(m->act_ctrl);
	free(m->fired);
	free(m->act_edge);
	free(m->busy);
	free(m->out_first);
	free(m->out_edges);
	free(m->wports);
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
		for (int k = 0; k <= es->mask; k++) {
			es->line[k].live = es->line[k].write = es->line[k].flag = 0;
			es->line[k].dst_addr = 0;
			memset(es->line[k].data, 0, (size_t)w * sizeof(uint64_t));
		}
		memset(es->hold, 0, (size_t)w * sizeof(uint64_t));
		es->hold_flag = 0;
		es->last_live = -2 * (MAX_LAT + 1);
	}
	for (int k = 0; k < m->nports; k++)
		*m->port[k].last_op = -1000000;
	memset(&m->lookup, 0, sizeof m->lookup);
	m->lookup.mask = ring_mask(mem_has_lookup(mi) ? mi->lookup.latency : 0);
	m->prepared = 0;
}

void memmodel_set_flush(MemModel *m, int on)
{
	m->flush_in = on;
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

/* Enabled controller c's registers into its state, where a cycle reads
 * them without looking them up (prepare). */
static void ctrl_cache(MemModel *m, int c)
{
	const MemInfo *mi = m->mi;
	const MemCtrl *ct = &mi->ctrls[c];
	CtrlState *cs = &m->ctrl[c];
	const MemGen *g[3] = { &ct->sched, ct->src ? &ct->src->gen : NULL, ct->dst ? &ct->dst->gen : NULL };
	for (int l = 0; l < mi->dims; l++)
		cs->max[l] = m->regs[ct->max[l]];
	for (int k = 0; k < 3; k++) {
		cs->has[k] = g[k] != NULL;
		cs->start[k] = g[k] ? m->regs[g[k]->start] : 0;
		cs->gmask[k] = g[k] ? mask32(g[k]->width) : 0;
		for (int l = 0; l < mi->dims; l++)
			cs->step[k][l] = g[k] ? m->regs[g[k]->step[l]] : 0;
	}
}

/* gen_value from the controller's cached registers: generator k (0 the
 * schedule, 1 the source's, 2 the destination's; 0 if there is none). */
static uint32_t ctrl_gen(const MemModel *m, const CtrlState *cs, int k, uint32_t reg)
{
	if (m->mi->affine == MEM_RECURRENCE)
		return reg & cs->gmask[k];
	uint32_t v = cs->start[k];
	for (int l = 0; l < m->mi->dims; l++)
		v += cs->step[k][l] * cs->idx[l];
	return v & cs->gmask[k];
}

/* Controller c's generator values and the cycle it fires next, from its
 * state, the registers and the counter as they are now. */
static void ctrl_values(MemModel *m, int c)
{
	CtrlState *cs = &m->ctrl[c];
	cs->sched_val = ctrl_gen(m, cs, 0, cs->sched);
	cs->src_val = ctrl_gen(m, cs, 1, cs->src);
	cs->dst_val = ctrl_gen(m, cs, 2, cs->dst);
	cs->due = cs->done || cs->sched_val > m->tmask ? NEVER
						       : m->cycles + (long)((cs->sched_val - m->t) & m->tmask);
}

static void find_next_due(MemModel *m)
{
	m->next_due = NEVER;
	for (int i = 0; i < m->nact_ctrl; i++)
		if (m->ctrl[m->act_ctrl[i]].due < m->next_due)
			m->next_due = m->ctrl[m->act_ctrl[i]].due;
}

/* Which enabled controllers fire this cycle (with tile_en 0: none), and
 * the earliest due of those that do not (step_fired's next_due with theirs). */
static void eval_fires(MemModel *m, int running)
{
	long rest = NEVER;
	m->nfired = 0;
	for (int i = 0; i < m->nact_ctrl; i++) {
		int c = m->act_ctrl[i];
		const CtrlState *cs = &m->ctrl[c];
		int fire = m->cyc.fire[c] = running && cs->due == m->cycles;
		if (fire)
			m->fired[m->nfired++] = c;
		else if (cs->due < rest)
			rest = cs->due;
	}
	m->rest_due = rest;
	m->fire_dirty = m->nfired > 0;
}

static void prepare_ctrls(MemModel *m)
{
	const MemInfo *mi = m->mi;
	m->nact_ctrl = 0;
	for (int c = 0; c < mi->nctrls; c++) {
		m->cyc.fire[c] = 0;
		if (m->regs[mi->ctrls[c].en]) {
			m->act_ctrl[m->nact_ctrl++] = c;
			ctrl_cache(m, c);
			ctrl_values(m, c);
		}
	}
	m->nfired = m->fire_dirty = 0;
	find_next_due(m);
}

/* The edges a cycle visits: a disabled controller never fires; an edge
 * whose controllers are both disabled and that has nothing in flight neither
 * requests nor delivers. */
static void prepare_edges(MemModel *m)
{
	const MemInfo *mi = m->mi;
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
	m->nwports = 0;
	for (int k = 0; k < m->nports; k++)
		for (int i = 0; i < m->nact_edge; i++)
			if (m->edge[m->act_edge[i]].dst == k) {
				m->wports[m->nwports++] = k;
				break;
			}
}

/* The lists and values a cycle uses, from the registers as they are now.
 * Transfers in flight before may arrive for up to MAX_LAT cycles. */
static void prepare(MemModel *m)
{
	const MemInfo *mi = m->mi;
	prepare_ctrls(m);
	prepare_edges(m);
	uint32_t chain = mi->chain_id >= 0 ? m->regs[mi->chain_id] : 0;
	for (int k = 0; k < m->nports; k++)
		m->port[k].chain_val = chain & m->port[k].hmask;
	m->lookup_on = mem_has_lookup(mi) && m->regs[mi->lookup.en];
	m->last_arrival = m->cycles + MAX_LAT;
	m->prepared = 1;
}

/* A port's request or operation this cycle: cleared at the next. */
static void touch(MemModel *m, int k)
{
	if (!m->is_touched[k]) {
		m->is_touched[k] = 1;
		m->touched[m->ntouched++] = k;
	}
}

/* An enabled controller's step (its registers cached). */
static void step_ctrl(MemModel *m, int c)
{
	CtrlState *cs = &m->ctrl[c];
	int dims = m->mi->dims, l = 0;
	while (l < dims && cs->idx[l] == cs->max[l])
		l++;
	if (l == dims) {
		cs->done = 1;
		return;
	}
	cs->idx[l] = (cs->idx[l] + 1) & m->tmask;
	for (int k = 0; k < l; k++)
		cs->idx[k] = 0;
	cs->sched = (cs->sched + cs->step[0][l]) & cs->gmask[0];
	if (cs->has[1])
		cs->src = (cs->src + cs->step[1][l]) & cs->gmask[1];
	if (cs->has[2])
		cs->dst = (cs->dst + cs->step[2][l]) & cs->gmask[2];
}

/* ---- ports ---- */

/* Local slot of a generator value on a port; *hit whether the port serves
 * it (its chain bits are the tile's). */
static uint32_t local_addr(const PortPlan *pp, uint32_t value, int *hit)
{
	*hit = 1;
	if (pp->chained) {
		uint32_t high = pp->abits >= 32 ? 0 : value >> pp->abits;
		*hit = (high & pp->hmask) == pp->chain_val;
	}
	return value & pp->amask;
}

/* Offers a request at flat port k; returns 1 if it wins (no lower edge
 * requested the port). */
static int request(MemModel *m, int k, int edge, int write, uint32_t value)
{
	Request *r = m->port[k].req;
	if (r->edge >= 0) {
		m->cyc_conflicts++;
		return 0;
	}
	*r = (Request){ edge, write, value, 1 };
	touch(m, k);
	return 1;
}

/* The first of the width words of slot addr of a port. */
static int slot_base(const PortPlan *pp, uint32_t addr)
{
	return (int)(addr >> pp->shift) * pp->fetch + (int)(addr & pp->rest) * pp->width;
}

/* Reads slot addr into out; returns the AND of its words' flags. */
static int read_slot(const PortPlan *pp, uint32_t addr, uint64_t *out)
{
	int base = slot_base(pp, addr), flag = 1;
	for (int i = 0; i < pp->width; i++) {
		out[i] = pp->words[base + i];
		flag &= pp->flags[base + i];
	}
	return flag;
}

/* ---- one cycle ---- */

static void clear_cycle(MemModel *m)
{
	for (int i = 0; i < m->ntouched; i++) {
		int k = m->touched[i];
		const PortPlan *pp = &m->port[k];
		MemPortOp *op = pp->op;
		if (op->wen)
			for (int w = 0; w < pp->width; w++)
				op->wdata[w] = 0;
		op->ren = op->wen = 0;
		op->addr = 0;
		pp->req->edge = -1;
		m->is_touched[k] = 0;
	}
	m->ntouched = 0;
}

/* Edge e's granted read: the slot into the flight issued now (zeros and
 * flag 0 where the port does not serve the address). Reads see the contents
 * at the start of the cycle: writes come at memmodel_finish. */
static void edge_read(MemModel *m, const EdgeState *es, Flight *f0)
{
	const PortPlan *pp = &m->port[es->src];
	int hit;
	uint32_t addr = local_addr(pp, pp->req->value, &hit);
	f0->flag = hit;
	if (hit) {
		/* flags live in register files, and only matter with chaining */
		int stored = read_slot(pp, addr, f0->data);
		f0->flag = pp->stored_flag ? stored : 1;
		pp->op->ren = 1;
		pp->op->addr = addr;
	} else {
		memset(f0->data, 0, (size_t)es->width * sizeof(uint64_t));
	}
}

/* Edge e in a cycle where a controller of its fires or a flight arrives:
 * its requests in priority order (the read of a firing read side, performed
 * if granted; the write of the transfer arriving, or of a firing write
 * side), then its delivery, the data it carries now. */
static void edge_cycle(MemModel *m, int e, EdgeState *es, const uint64_t *in)
{
	const CtrlState *rs = &m->ctrl[es->c0];
	Flight *f0 = LINE(m, es, 0);
	f0->live = f0->write = 0;
	if (m->cyc.fire[es->c0]) {
		if (es->src < 0) {
			f0->live = 1;
			f0->flag = 1;
			f0->data[0] = in[m->mi->edges[e].src.port] & m->wmask;
			m->takes_inputs = 1;
		} else if ((f0->live = request(m, es->src, e, 0, rs->src_val))) {
			edge_read(m, es, f0);
		}
		f0->write = f0->live && es->c1 < 0 && es->dst >= 0;
		f0->dst_addr = rs->dst_val;
	}
	const Flight *arr = LINE(m, es, es->lat);
	if (es->c1 < 0 && arr->write && arr->live)
		request(m, es->dst, e, 1, arr->dst_addr);
	if (es->c1 >= 0 && m->cyc.fire[es->c1])
		request(m, es->dst, e, 1, m->ctrl[es->c1].dst_val);
	es->delivered = arr->live;
	es->now = arr->live ? arr->data : es->hold;
	es->now_flag = arr->live ? arr->flag : es->hold_flag;
}

/* The edges with something to do this cycle, in index order: a controller
 * of theirs fires or a flight arrives (one issued `latency` cycles ago:
 * none if the last was issued before). The others deliver nothing. Requests
 * of an edge depend only on grants of lower-numbered edges, so each edge's
 * requests, read and delivery are done before the next edge's. */
static void edges_cycle(MemModel *m, const uint64_t *in)
{
	const int *fire = m->cyc.fire;
	m->nbusy = 0;
	for (int i = 0; i < m->nact_edge; i++) {
		int e = m->act_edge[i];
		EdgeState *es = &m->edge[e];
		if (fire[es->c0] || (es->c1 >= 0 && fire[es->c1]) ||
		    (m->cycles - es->lat <= es->last_live && LINE(m, es, es->lat)->live)) {
			m->busy[m->nbusy++] = e;
			edge_cycle(m, e, es, in);
		} else {
			es->delivered = 0;
		}
	}
}

/* The look-up's read request, after every edge's: in cycle t it reads word
 * a mod words (a the value of its input), slot (a mod words) / w, whatever
 * chain_id is. */
static void lookup_request(MemModel *m, const uint64_t *in)
{
	const MemInfo *mi = m->mi;
	const MemLookup *lk = &mi->lookup;
	LIVE(&m->lookup, 0) = 0;
	if (!m->lookup_on)
		return;
	const PortPlan *pp = &m->port[m->lookup_port];
	uint32_t a = in ? (uint32_t)(in[lk->in] & (uint64_t)(lk->words - 1)) : 0;
	if (pp->req->edge >= 0) {
		m->cyc_conflicts++;
		return;
	}
	pp->op->ren = 1;
	pp->op->addr = a / (uint32_t)pp->width;
	touch(m, m->lookup_port);
	LIVE(&m->lookup, 0) = 1;
	WORD(&m->lookup, 0) = pp->words[a];
	m->takes_inputs = 1;
}

/* The writes granted this cycle, in port order. */
static void do_writes(MemModel *m)
{
	for (int i = 0; i < m->nwports; i++) {
		int k = m->wports[i];
		const PortPlan *pp = &m->port[k];
		const Request *r = pp->req;
		if (!m->is_touched[k] || r->edge < 0 || !r->write)
			continue;
		int hit;
		uint32_t addr = local_addr(pp, r->value, &hit);
		if (!hit)
			continue;
		const EdgeState *es = &m->edge[r->edge];
		int base = slot_base(pp, addr);
		pp->op->wen = 1;
		pp->op->addr = addr;
		for (int w = 0; w < pp->width; w++) {
			pp->op->wdata[w] = es->now[w];
			pp->words[base + w] = es->now[w];
			pp->flags[base + w] = es->now_flag;
		}
	}
}

/* The chain inputs (or 0 without chaining) at the outputs: what a tile
 * delivers where it does not itself. */
static void chain_outputs(MemModel *m, const uint64_t *chain_in, const int *chain_valid)
{
	int n = m->mi->nouts, chain = m->mi->chain;
	int *valid = m->cyc.out_valid;
	uint64_t *out = m->cyc.out, wmask = m->wmask;
	if (chain && chain_valid)
		for (int o = 0; o < n; o++)
			valid[o] = chain_valid[o] != 0;
	else
		memset(valid, 0, (size_t)n * sizeof *valid);
	if (chain && chain_in)
		for (int o = 0; o < n; o++)
			out[o] = chain_in[o] & wmask;
	else
		memset(out, 0, (size_t)n * sizeof *out);
}

static void drive_outputs(MemModel *m, const uint64_t *chain_in, const int *chain_valid)
{
	const MemInfo *mi = m->mi;
	chain_outputs(m, chain_in, chain_valid);
	for (int o = 0; o < mi->nouts; o++) {
		for (int i = m->out_first[o]; i < m->out_first[o + 1]; i++) {
			const EdgeState *es = &m->edge[m->out_edges[i]];
			if (es->delivered) {
				if (es->now_flag) {
					m->cyc.out_valid[o] = 1;
					m->cyc.out[o] = es->now[0];
				}
				goto next;
			}
		}
		if (m->lookup.delivered && o == mi->lookup.out) {
			m->cyc.out_valid[o] = 1;
			m->cyc.out[o] = WORD(&m->lookup, mi->lookup.latency);
		}
	next:;
	}
}

/* The operations on ports closer than their ii to the last (an ii of 1
 * holds whatever a cycle does: one operation per port and cycle). */
static void count_ii(MemModel *m)
{
	if (!m->any_ii)
		return;
	for (int i = 0; i < m->ntouched; i++) {
		const PortPlan *pp = &m->port[m->touched[i]];
		if (pp->ii <= 1 || (!pp->op->ren && !pp->op->wen))
			continue;
		if (m->cycles - *pp->last_op < pp->ii)
			m->ii_violations++;
		*pp->last_op = m->cycles;
	}
}

/* Keeps what was delivered, clears what arrived (a ring holds only
 * transfers still to come) and notes the cycle the transfers issued now
 * arrive. */
static void advance_edges(MemModel *m)
{
	for (int i = 0; i < m->nbusy; i++) {
		EdgeState *es = &m->edge[m->busy[i]];
		if (es->delivered) {
			for (int k = 0; k < es->width; k++)
				es->hold[k] = es->now[k];
			es->hold_flag = es->now_flag;
		}
		Flight *arr = LINE(m, es, es->lat);
		arr->live = arr->write = 0;
		if (es->lat > 0 && LINE(m, es, 0)->live) {
			es->last_live = m->cycles;
			if (m->cycles + es->lat > m->last_arrival)
				m->last_arrival = m->cycles + es->lat;
		}
	}
	LookupState *ls = &m->lookup;
	ls->head = (ls->head - 1) & ls->mask;
	LIVE(ls, 0) = 0;
}

/* Is this cycle quiet: no controller fires, no transfer arrives, no look-up
 * reads? */
static int quiet(const MemModel *m)
{
	return m->cycles < m->next_due && m->cycles > m->last_arrival && !m->lookup_on;
}

/* Everything of a cycle that leaves the tile's state as it was: which
 * controllers fire, the requests and their arbitration, the reads, the
 * deliveries and the outputs. It only writes the cycle's scratch (line[0]
 * of each edge, the requests, MemCycle), so it may run again in the same
 * cycle with other inputs. */
const MemCycle *memmodel_begin(MemModel *m, const uint64_t *in, const uint64_t *chain_in, const int *chain_valid)
{
	if (!m->prepared)
		prepare(m);
	m->running = m->regs[m->mi->tile_en] != 0 && !m->flush_in;
	m->cyc_conflicts = 0;
	m->takes_inputs = 0;
	clear_cycle(m);
	m->cyc.t = m->t;
	m->quiet = m->running && quiet(m);
	if (!m->running || m->quiet) {
		if (m->fire_dirty)
			eval_fires(m, 0);
		m->lookup.delivered = 0;
		chain_outputs(m, chain_in, chain_valid);
		return &m->cyc;
	}
	if (m->cycles >= m->next_due)
		eval_fires(m, 1);
	else if (m->fire_dirty)
		eval_fires(m, 0);
	edges_cycle(m, in);
	lookup_request(m, in);
	m->lookup.delivered = m->lookup_port >= 0 && LIVE(&m->lookup, m->mi->lookup.latency);
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
	for (int i = 0; i < m->nbusy; i++) {
		int e = m->busy[i];
		EdgeState *es = &m->edge[e];
		Flight *f0 = LINE(m, es, 0);
		if (es->src >= 0 || !f0->live)
			continue;
		f0->data[0] = in[mi->edges[e].src.port] & m->wmask;   /* es->now with latency 0 */
	}
	const MemLookup *lk = &mi->lookup;
	if (m->lookup_port >= 0 && LIVE(&m->lookup, 0)) {
		const PortPlan *pp = &m->port[m->lookup_port];
		uint32_t a = (uint32_t)(in[lk->in] & (uint64_t)(lk->words - 1));
		pp->op->addr = a / (uint32_t)pp->width;
		WORD(&m->lookup, 0) = pp->words[a];
	}
}

/* The controllers that fired step; their values and dues follow (after the
 * counter has advanced). */
static void step_fired(MemModel *m)
{
	for (int i = 0; i < m->nfired; i++)
		step_ctrl(m, m->fired[i]);
	m->t = (m->t + 1) & m->tmask;
	m->cycles++;
	if (!m->nfired)
		return;
	m->next_due = m->rest_due;
	for (int i = 0; i < m->nfired; i++) {
		ctrl_values(m, m->fired[i]);
		if (m->ctrl[m->fired[i]].due < m->next_due)
			m->next_due = m->ctrl[m->fired[i]].due;
	}
}

int memmodel_finish(MemModel *m, const uint64_t *in)
{
	if (!m->running)
		return 0;
	if (m->quiet) {
		m->t = (m->t + 1) & m->tmask;
		m->cycles++;
		return 1;
	}
	if (in)
		take_inputs(m, in);
	m->conflicts += m->cyc_conflicts;
	do_writes(m);
	count_ii(m);
	advance_edges(m);
	step_fired(m);
	return 1;
}

const MemCycle *memmodel_step(MemModel *m, const uint64_t *in, const uint64_t *chain_in,
			      const int *chain_valid)
{
	const MemCycle *c = memmodel_begin(m, in, chain_in, chain_valid);
	memmodel_finish(m, NULL);
	return c;
}

long memmodel_quiet(MemModel *m)
{
	if (!m->prepared)
		prepare(m);
	if (!m->regs[m->mi->tile_en] || !quiet(m))
		return 0;
	return m->next_due - m->cycles;
}

void memmodel_pass(MemModel *m, long n)
{
	m->t = (uint32_t)(((uint64_t)m->t + (uint64_t)n) & m->tmask);
	m->cycles += n;
}

int memmodel_running(const MemModel *m)
{
	return m->regs[m->mi->tile_en] != 0;
}

int memmodel_takes_inputs(const MemModel *m)
{
	return m->running && !m->quiet && m->takes_inputs;
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
			if (LINE(m, &m->edge[e], k)->live)
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
