/* cs_compile.c - the configured array compiled, and its cycles
 * (cs_impl.h). Each node reduced to the driver its multiplexers select; the
 * cores and registers the observed signals depend on; their outputs ordered
 * by what each reads within a cycle; the PEs' folded programs, the memory
 * tiles and the outputs' copies as one stream of micro-operations over a
 * packed array of values (cval); the registers and PE state as the clock
 * edge's copies. */
#define _POSIX_C_SOURCE 200809L

#include "cs_impl.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>


/* Each node's root: the driver whose value it carries through the
 * multiplexers its configuration selects (a register, a core's output, an
 * input of the array, the constant 0, or for a closed loop of multiplexers,
 * which keeps whatever value it holds, a node of the loop). */
static void find_roots(Cs *s)
{
	unsigned char *state = xcalloc((size_t)s->n + 1, 1);     /* 0 new, 1 on the path, 2 done */
	int *path = xmalloc(((size_t)s->n + 1) * sizeof(int));
	s->root[s->n] = s->n;
	for (int n = 0; n < s->n; n++) {
		int len = 0, cur = n, r;
		for (;;) {
			if (cur == s->n || s->kind[cur] == K_REG || s->kind[cur] == K_PORT_OUT) {
				r = cur;
				break;
			}
			if (state[cur] == 2) {
				r = s->root[cur];
				break;
			}
			if (state[cur] == 1) {
				r = cur;
				break;
			}
			state[cur] = 1;
			path[len++] = cur;
			cur = cs_mux_src(s, cur);
		}
		for (int i = 0; i < len; i++) {
			s->root[path[i]] = r;
			state[path[i]] = 2;
		}
		if (cur < s->n && (s->kind[cur] == K_REG || s->kind[cur] == K_PORT_OUT)) {
			s->root[cur] = cur;
			state[cur] = 2;
		}
	}
	free(state);
	free(path);
}

typedef struct Cone {
	unsigned char *seen;            /* per root */
	int *stack, sp;
	unsigned char *pe_on, *mem_on;
	unsigned char *reg_on;
} Cone;

static void cone_add(Cs *s, Cone *c, int r)
{
	if (r == s->n || c->seen[r])
		return;
	c->seen[r] = 1;
	c->stack[c->sp++] = r;
}

/* The cores and registers the observed signals depend on; each PE's outputs
 * in the cone are its live ones. */
static void find_cone(Cs *s, Cone *c)
{
	const PeInfo *pi = s->chip->pe_info;
	const MemInfo *mi = s->chip->mem_info;
	for (int k = 0; k < s->npes; k++) {
		memset(s->pes[k].live, 0, (size_t)pi->noutputs);
		s->pes[k].folded = 0;
	}
	for (int n = 0; n < s->n; n++)
		if (s->observe_all || s->observed[n])
			cone_add(s, c, s->root[n]);
	for (;;) {
		while (c->sp) {
			int r = c->stack[--c->sp];
			if (s->kind[r] == K_REG) {
				c->reg_on[r] = 1;
				cone_add(s, c, s->root[cs_mux_src(s, r)]);
			} else if (s->kind[r] == K_PORT_OUT && s->core[r] == CORE_PE) {
				Pe *p = &s->pes[s->core_index[r]];
				c->pe_on[s->core_index[r]] = 1;
				p->live[s->core_port[r]] = 1;
				p->folded = 0;
			} else if (s->kind[r] == K_PORT_OUT && s->core[r] == CORE_MEM && !c->mem_on[s->core_index[r]]) {
				Mem *m = &s->mems[s->core_index[r]];
				c->mem_on[s->core_index[r]] = 1;
				for (int i = 0; i < mi->nins; i++)
					if (m->in_node[i] >= 0)
						cone_add(s, c, s->root[m->in_node[i]]);
				for (int o = 0; o < mi->nouts; o++) {
					if (m->cin_node[o] >= 0)
						cone_add(s, c, s->root[m->cin_node[o]]);
					if (m->cvalid_node[o] >= 0)
						cone_add(s, c, s->root[m->cvalid_node[o]]);
				}
			}
		}
		/* a PE's inputs once its live outputs are known */
		int more = 0;
		for (int k = 0; k < s->npes; k++) {
			Pe *p = &s->pes[k];
			if (!c->pe_on[k] || p->folded)
				continue;
			cs_fold(s, p);
			for (int i = 0; i < pi->ninputs; i++)
				if ((p->needs[i / 64] >> (i % 64) & 1) && p->in_node[i] >= 0) {
					int before = c->sp;
					cone_add(s, c, s->root[p->in_node[i]]);
					more |= c->sp != before;
				}
		}
		if (!more && !c->sp)
			break;
	}
}

/* owner() of a root no core drives. */
#define NO_CORE (-0x7fffffff)

/* The core whose output is root r: PE k as k, memory k as ~k; or NO_CORE. */
static int owner(const Cs *s, int r)
{
	if (r == s->n || s->kind[r] != K_PORT_OUT)
		return NO_CORE;
	if (s->core[r] == CORE_PE)
		return s->core_index[r];
	if (s->core[r] == CORE_MEM)
		return ~s->core_index[r];
	return NO_CORE;
}

/* A core's index among all cores: PE k is k, memory tile k is npes + k. */
static int core_slot(const Cs *s, int core)
{
	return core >= 0 ? core : s->npes + ~core;
}

static const char *core_text(const Cs *s, int core, char *buf, size_t len)
{
	if (core >= 0)
		snprintf(buf, len, "the PE at x%d y%d", s->pes[core].x, s->pes[core].y);
	else
		snprintf(buf, len, "the memory tile at x%d y%d", s->mems[~core].x, s->mems[~core].y);
	return buf;
}

/* A dependency within the cycle: output `to` (an index of Plan.out) is
 * computed from input node `in`, whose root is output `from`. */
typedef struct Dep {
	int from, to, in;
} Dep;

/* The outputs of the cone's cores, each a node the compiled array orders:
 * a core's outputs may read different inputs, so that two cores can each
 * feed the other without a loop (A's first output into B, B's second into
 * A). */
typedef struct Plan {
	VEC(int) out;                   /* the output nodes */
	VEC(int) core;                  /* each one's core */
	int *index;                     /* per graph node: its index in out, or -1 */
	VEC(Dep) deps;
} Plan;

static void plan_output(Plan *pl, int node, int core)
{
	if (node < 0 || pl->index[node] >= 0)
		return;
	pl->index[node] = pl->out.len;
	vec_push(&pl->out, node);
	vec_push(&pl->core, core);
}

static void plan_dep(const Cs *s, Plan *pl, int to, int in)
{
	if (in < 0)
		return;
	int from = pl->index[s->root[in]];
	if (from >= 0)
		vec_push(&pl->deps, ((Dep){ from, to, in }));
}

/* Each output's dependencies within the cycle: a PE output's inputs (those
 * its folded program reads for it), a memory output's chain inputs and the
 * tile inputs memmodel_comb says reach it. */
static void plan_deps(const Cs *s, Plan *pl)
{
	const PeInfo *pi = s->chip->pe_info;
	const MemInfo *mi = s->chip->mem_info;
	int dw = BITS_WORDS(pi->ninputs + 1);
	vec_foreach(&pl->out, x) {
		int node = pl->out.data[x], core = pl->core.data[x], port = s->core_port[node];
		if (core >= 0) {
			const Pe *p = &s->pes[core];
			const uint64_t *dep = p->deps + (size_t)port * (size_t)dw;
			for (int j = 0; j < pi->ninputs; j++)
				if (dep[j / 64] >> (j % 64) & 1)
					plan_dep(s, pl, x, p->in_node[j]);
			continue;
		}
		const Mem *m = &s->mems[~core];
		int o = port / 2;
		plan_dep(s, pl, x, m->cin_node[o]);
		plan_dep(s, pl, x, m->cvalid_node[o]);
		for (int i = 0; i < mi->nins; i++)
			if (memmodel_comb(m->m, o, i))
				plan_dep(s, pl, x, m->in_node[i]);
	}
}

/* The loop among the outputs Kahn's order left (each still waits for
 * another of them): walked back from one until an output repeats; its nodes,
 * output to input, into s->err. */
static void name_loop(Cs *s, const Plan *pl, const int *indeg)
{
	int n = pl->out.len, x = 0;
	int *step = xmalloc((size_t)(n + 1) * sizeof(int));     /* per output: the dep walked into it */
	unsigned char *seen = xcalloc((size_t)n + 1, 1);
	while (x < n && indeg[x] <= 0)
		x++;
	while (!seen[x]) {
		seen[x] = 1;
		int d = 0;
		while (d < pl->deps.len && !(pl->deps.data[d].to == x && indeg[pl->deps.data[d].from] > 0))
			d++;
		step[x] = d;
		x = pl->deps.data[d].from;
	}
	int *cyc = xmalloc((size_t)(n + 1) * sizeof(int)), len = 0, y = x;
	do {
		cyc[len++] = step[y];
		y = pl->deps.data[step[y]].from;
	} while (y != x);
	size_t at = 0;
	char buf[sizeof s->err], who[64];
	buf[0] = 0;
	for (int i = len - 1; i >= 0 && at < sizeof buf - 1; i--) {
		const Dep *d = &pl->deps.data[cyc[i]];
		at += (size_t)snprintf(buf + at, sizeof buf - at, "%s%s -> %s (%s)", i == len - 1 ? "" : ", ",
				       s->g->nodes[pl->out.data[d->from]].name, s->g->nodes[d->in].name,
				       core_text(s, pl->core.data[d->to], who, sizeof who));
	}
	cs_fail(s, "a combinational loop in the configured array: %s", buf);
	free(cyc);
	free(step);
	free(seen);
}

/* Counts of a relation between outputs turned into lists: the entries of
 * output x are list[first[x] .. first[x + 1] - 1]; by `to` (byto) or by
 * `from`. */
static void dep_lists(const Plan *pl, int byto, int **first, int **list)
{
	int n = pl->out.len;
	*first = xcalloc((size_t)n + 2, sizeof(int));
	*list = xmalloc((size_t)(pl->deps.len + 1) * sizeof(int));
	vec_foreach(&pl->deps, i)
		(*first)[(byto ? pl->deps.data[i].to : pl->deps.data[i].from) + 1]++;
	for (int x = 0; x < n; x++)
		(*first)[x + 1] += (*first)[x];
	int *fill = xmalloc((size_t)(n + 1) * sizeof(int));
	memcpy(fill, *first, (size_t)(n + 1) * sizeof(int));
	vec_foreach(&pl->deps, i) {
		const Dep *d = &pl->deps.data[i];
		(*list)[fill[byto ? d->to : d->from]++] = byto ? d->from : d->to;
	}
	free(fill);
}

/* The evaluations in the order of the outputs: a core at its first
 * output's place, and again at a later output's if an input that output
 * reads was computed since its last evaluation (a core's program is pure
 * until the clock edge, so evaluating it again changes only what was stale);
 * then once more at the end each PE whose next state reads a value computed
 * after its last evaluation, its own output among them. */
static void plan_evaluations(Cs *s, const Plan *pl, const int *order)
{
	const PeInfo *pi = s->chip->pe_info;
	int n = pl->out.len, *first, *from;
	long *last = xcalloc((size_t)(s->npes + s->nmems) + 1, sizeof(long)), seq = 0;
	dep_lists(pl, 1, &first, &from);
	for (int q = 0; q < n; q++) {
		int x = order[q], core = pl->core.data[x], ci = core_slot(s, core);
		int again = !last[ci];
		for (int i = first[x]; i < first[x + 1] && !again; i++)
			again = last[core_slot(s, pl->core.data[from[i]])] > last[ci];
		if (!again)
			continue;
		if (!last[ci])
			s->order[s->norder++] = core;
		last[ci] = ++seq;
		vec_push(&s->emits, core);
	}
	for (int i = 0; i < s->norder; i++) {
		int core = s->order[i], late = 0;
		for (int j = 0; core >= 0 && j < pi->ninputs && !late; j++) {
			const Pe *p = &s->pes[core];
			if (!(p->needs[j / 64] >> (j % 64) & 1) || p->in_node[j] < 0)
				continue;
			int o = owner(s, s->root[p->in_node[j]]);
			late = o != NO_CORE && (o == core || last[core_slot(s, o)] > last[core_slot(s, core)]);
		}
		if (late)
			vec_push(&s->emits, core);
	}
	free(last);
	free(first);
	free(from);
}

/* The order of evaluation (plan_evaluations) of the cone's outputs, each
 * after the outputs it reads within the cycle (Kahn). s->order: the cores in
 * the order of their first evaluation; s->emits: every evaluation. -2 with
 * the loop's nodes in s->err if the outputs form a combinational loop. */
static int plan_order(Cs *s, const Cone *c)
{
	const PeInfo *pi = s->chip->pe_info;
	const MemInfo *mi = s->chip->mem_info;
	Plan pl = { 0 };
	pl.index = xmalloc(((size_t)s->n + 1) * sizeof(int));
	memset(pl.index, -1, ((size_t)s->n + 1) * sizeof(int));
	for (int k = 0; k < s->npes; k++)
		for (int o = 0; o < pi->noutputs && c->pe_on[k]; o++)
			if (s->pes[k].live[o])
				plan_output(&pl, s->pes[k].out_node[o], k);
	for (int k = 0; k < s->nmems; k++)
		for (int o = 0; o < (mi ? mi->nouts : 0) && c->mem_on[k]; o++) {
			plan_output(&pl, s->mems[k].out_node[o], ~k);
			plan_output(&pl, s->mems[k].valid_node[o], ~k);
		}
	plan_deps(s, &pl);
	int n = pl.out.len, *first, *to;
	dep_lists(&pl, 0, &first, &to);
	int *indeg = xcalloc((size_t)n + 1, sizeof(int));
	vec_foreach(&pl.deps, i)
		indeg[pl.deps.data[i].to]++;
	int *queue = xmalloc((size_t)(n + 1) * sizeof(int)), head = 0, tail = 0;
	for (int x = 0; x < n; x++)
		if (!indeg[x])
			queue[tail++] = x;
	while (head < tail) {
		int x = queue[head++];
		for (int i = first[x]; i < first[x + 1]; i++)
			if (!--indeg[to[i]])
				queue[tail++] = to[i];
	}
	int status = 0;
	s->norder = 0;
	s->emits.len = 0;
	if (tail < n) {
		name_loop(s, &pl, indeg);
		status = -2;
	} else {
		plan_evaluations(s, &pl, queue);
	}
	free(indeg);
	free(first);
	free(to);
	free(queue);
	free(pl.index);
	vec_free(&pl.out);
	vec_free(&pl.core);
	vec_free(&pl.deps);
	return status;
}

static void dense_add(Cs *s, int r)
{
	if (s->dense[r] < 0) {
		s->dense[r] = s->ndense;
		s->dnodes[s->ndense++] = r;
	}
}

/* The value of node n while compiled. */
uint64_t cs_comp_value(const Cs *s, int n)
{
	int r = s->root[n];
	return s->dense[r] >= 0 ? s->cval[s->dense[r]] : s->val[r];
}

static int new_slot(Cs *s, uint64_t v)
{
	if (s->ncval == s->cval_cap) {
		s->cval_cap *= 2;
		s->cval = xrealloc(s->cval, (size_t)s->cval_cap * sizeof(uint64_t));
	}
	s->cval[s->ncval] = v;
	return s->ncval++;
}

static void emit(Cs *s, Uop u)
{
	if (s->nuops == s->uops_cap) {
		s->uops_cap = s->uops_cap ? 2 * s->uops_cap : 256;
		s->uops = xrealloc(s->uops, (size_t)s->uops_cap * sizeof(Uop));
	}
	s->uops[s->nuops++] = u;
}

/* A PE's folded operations as micro-operations on cval: its inputs read
 * where their roots' values are, its state, constants and intermediate
 * values in slots of their own, each used output copied to its node. */
static void emit_pe(Cs *s, int k, int first)
{
	Pe *p = &s->pes[k];
	const PeInfo *pi = s->chip->pe_info;
	int nin = pi->ninputs, nst = s->nf->nstate;
	/* an output an operation computes is computed into its node's slot;
	 * one that is an input, a state variable, a constant or another
	 * output's value is copied there */
	if (first) {
		p->map = xrealloc(p->map, (size_t)(p->nslots + 1) * sizeof(int));
		p->direct = xrealloc(p->direct, (size_t)(pi->noutputs + 1));
		memset(p->direct, 0, (size_t)(pi->noutputs + 1));
		for (int j = 0; j < p->nslots; j++)
			p->map[j] = -1;
		/* an input the program does not read may have no place (0: the constant) */
		for (int j = 0; j < nin; j++) {
			int d = s->dense[p->in_node[j] >= 0 ? s->root[p->in_node[j]] : s->n];
			p->map[j] = d >= 0 ? d : 0;
		}
		for (int i = 0; i < p->nops; i++)
			for (int o = 0; o < pi->noutputs; o++)
				if (p->out_slot[o] == p->ops[i].dst && p->out_node[o] >= 0 && p->map[p->ops[i].dst] < 0) {
					p->map[p->ops[i].dst] = s->dense[p->out_node[o]];
					p->direct[o] = 1;
				} else if (p->out_slot[o] == p->ops[i].dst) {
					p->direct[o] = 0;
				}
		for (int j = nin; j < p->nslots; j++)
			if (p->map[j] < 0)
				p->map[j] = new_slot(s, p->slot[j]);
	}
	for (int i = 0; i < p->nops; i++) {
		const FOp *o = &p->ops[i];
		int out = 0;
		for (int j = 0; j < pi->noutputs && !out; j++)
			out = p->out_slot[j] == o->dst && p->direct[j];
		emit(s, (Uop){ o->op, o->width, o->wa, o->wb, o->hi, o->lo, out ? k : -1, p->map[o->dst], p->map[o->a],
			       p->map[o->b], p->map[o->c], bv_mask(o->width) });
	}
	for (int o = 0; o < pi->noutputs; o++)
		if (p->out_slot[o] >= 0 && p->out_node[o] >= 0 && !p->direct[o])
			emit(s, (Uop){ U_OUT, 0, 0, 0, 0, 0, k, s->dense[p->out_node[o]], p->map[p->out_slot[o]], 0, 0, 0 });
	if (!first)
		return;
	for (int j = 0; j < nst; j++)
		if (p->next_slot[j] >= 0 && p->next_slot[j] != nin + j) {
			vec_push(&s->copies, p->map[nin + j]);
			vec_push(&s->copies, p->map[p->next_slot[j]]);
		}
}

/* The quiet cycles a memory tile let pass without its model, passed to it. */
static void pass_quiet(Mem *m)
{
	if (m->passed)
		memmodel_pass(m->m, m->passed);
	m->idle = m->passed = 0;
}

/* The clock edge's copies reordered so that most need no temporary: copy j
 * reads a value copy writer[src j] overwrites, so j goes first (Kahn's
 * order on these pairs; each copy reads one value, so what remains are
 * loops of registers, copied through copy_tmp after the others). */
static void order_copies(Cs *s)
{
	int n = s->copies.len / 2, *cp = s->copies.data, k = 0;
	int *writer = xmalloc(((size_t)s->ncval + 1) * sizeof(int));
	int *readers = xcalloc((size_t)n + 1, sizeof(int)), *queue = xmalloc(((size_t)n + 1) * sizeof(int));
	int *sorted = xmalloc(((size_t)2 * n + 1) * sizeof(int));
	unsigned char *out = xcalloc((size_t)n + 1, 1);
	memset(writer, -1, ((size_t)s->ncval + 1) * sizeof(int));
	for (int i = 0; i < n; i++)
		writer[cp[2 * i]] = i;
	for (int i = 0; i < n; i++)
		if (writer[cp[2 * i + 1]] >= 0 && writer[cp[2 * i + 1]] != i)
			readers[writer[cp[2 * i + 1]]]++;
	int qn = 0;
	for (int i = 0; i < n; i++)
		if (!readers[i])
			queue[qn++] = i;
	for (int q = 0; q < qn; q++) {
		int i = queue[q], w = writer[cp[2 * i + 1]];
		out[i] = 1;
		sorted[k++] = cp[2 * i];
		sorted[k++] = cp[2 * i + 1];
		if (w >= 0 && w != i && --readers[w] == 0)
			queue[qn++] = w;
	}
	s->ndirect = qn;
	for (int i = 0; i < n; i++)
		if (!out[i]) {
			sorted[k++] = cp[2 * i];
			sorted[k++] = cp[2 * i + 1];
		}
	if (k)
		memcpy(cp, sorted, (size_t)k * sizeof(int));
	free(writer);
	free(readers);
	free(queue);
	free(sorted);
	free(out);
}

/* The compiled array as one stream of micro-operations (in the cores'
 * order), the copies of the clock edge (pipeline registers and PE state:
 * pairs of destination and source) and the values they work on, packed in
 * cval: first every root the array reads or writes, in evaluation order, then
 * each PE's state, constants and intermediate values. */
static void build_stream(Cs *s)
{
	const MemInfo *mi = s->chip->mem_info;
	const PeInfo *pi = s->chip->pe_info;
	memset(s->dense, -1, ((size_t)s->n + 1) * sizeof(int));
	s->ndense = 0;
	dense_add(s, s->n);
	for (int i = 0; i < s->norder; i++) {
		int core = s->order[i];
		if (core >= 0) {
			Pe *p = &s->pes[core];
			for (int j = 0; j < pi->ninputs; j++)
				if (p->needs[j / 64] >> (j % 64) & 1)
					dense_add(s, p->in_node[j] >= 0 ? s->root[p->in_node[j]] : s->n);
			for (int o = 0; o < pi->noutputs; o++)
				if (p->out_slot[o] >= 0 && p->out_node[o] >= 0)
					dense_add(s, p->out_node[o]);
		} else {
			Mem *m = &s->mems[~core];
			for (int j = 0; j < mi->nins; j++)
				dense_add(s, m->in_node[j] >= 0 ? s->root[m->in_node[j]] : s->n);
			for (int o = 0; o < mi->nouts; o++) {
				dense_add(s, m->cin_node[o] >= 0 ? s->root[m->cin_node[o]] : s->n);
				dense_add(s, m->cvalid_node[o] >= 0 ? s->root[m->cvalid_node[o]] : s->n);
				if (m->out_node[o] >= 0)
					dense_add(s, m->out_node[o]);
				if (m->valid_node[o] >= 0)
					dense_add(s, m->valid_node[o]);
			}
		}
	}
	for (int i = 0; i < s->ncregs; i++) {
		dense_add(s, s->creg[i]);
		dense_add(s, s->creg_d[i]);
	}
	for (int k = 0; k < s->nin_ports; k++) {
		CsSignal g;
		if (cs_signal(s, s->in_ports[k], &g))
			dense_add(s, g.node);
	}
	s->ncval = s->ndense;
	if (s->cval_cap < s->ncval + 1) {
		s->cval_cap = s->ncval + 1;
		s->cval = xrealloc(s->cval, (size_t)s->cval_cap * sizeof(uint64_t));
	}
	for (int k = 0; k < s->ndense; k++)
		s->cval[k] = s->val[s->dnodes[k]];
	s->nuops = 0;
	s->copies.len = 0;
	s->run_mems.len = 0;
	for (int i = 0; i < s->ncregs; i++) {
		vec_push(&s->copies, s->dense[s->creg[i]]);
		vec_push(&s->copies, s->dense[s->creg_d[i]]);
	}
	unsigned char *done = xcalloc((size_t)(s->npes + s->nmems) + 1, 1);
	vec_foreach(&s->emits, i) {
		int core = s->emits.data[i], ci = core_slot(s, core), once = !done[ci];
		done[ci] = 1;
		if (core >= 0) {
			emit_pe(s, core, once);
			continue;
		}
		Mem *m = &s->mems[~core];
		pass_quiet(m);
		for (int j = 0; j < mi->nins && once; j++)
			m->in_root[j] = s->dense[m->in_node[j] >= 0 ? s->root[m->in_node[j]] : s->n];
		for (int o = 0; o < mi->nouts && once; o++) {
			m->cin_root[o] = s->dense[m->cin_node[o] >= 0 ? s->root[m->cin_node[o]] : s->n];
			m->cvalid_root[o] = s->dense[m->cvalid_node[o] >= 0 ? s->root[m->cvalid_node[o]] : s->n];
			m->dout[o] = m->out_node[o] >= 0 ? s->dense[m->out_node[o]] : -1;
			m->dvalid[o] = m->valid_node[o] >= 0 ? s->dense[m->valid_node[o]] : -1;
		}
		/* a tile that stands (tile_en 0) passes its chain inputs through, or drives
		 * 0 without chaining, for as long as the configuration holds */
		m->standing = !memmodel_running(m->m);
		if (!m->standing) {
			emit(s, (Uop){ U_MEM, 0, 0, 0, 0, 0, ~core, 0, 0, 0, 0, 0 });
			if (once)
				vec_push(&s->run_mems, ~core);
			continue;
		}
		for (int o = 0; o < mi->nouts; o++) {
			uint64_t word = mi->chain ? bv_mask(mi->word) : 0;
			if (m->dout[o] >= 0)
				emit(s, (Uop){ U_PASS, 0, 0, 0, 0, 0, -1, m->dout[o], m->cin_root[o], 0, 0, word });
			if (m->dvalid[o] >= 0)
				emit(s, (Uop){ U_PASS_VALID, 0, 0, 0, 0, 0, -1, m->dvalid[o], m->cvalid_root[o], 0, 0,
					       (uint64_t)mi->chain });
		}
	}
	free(done);
	order_copies(s);
	s->copy_tmp = xrealloc(s->copy_tmp, (size_t)(s->copies.len / 2 + 1) * sizeof(uint64_t));
}

/* Back from cval: each PE's state where the configuring cycles keep it, each
 * memory tile's model up to date. */
void cs_unpack_state(Cs *s)
{
	const PeInfo *pi = s->chip->pe_info;
	for (int k = 0; k < s->nmems; k++)
		pass_quiet(&s->mems[k]);
	for (int i = 0; i < s->norder; i++) {
		int core = s->order[i];
		if (core < 0)
			continue;
		Pe *p = &s->pes[core];
		for (int j = pi->ninputs; j < pi->ninputs + s->nf->nstate; j++)
			p->slot[j] = s->cval[p->map[j]];
	}
}

int cs_compile(Cs *s)
{
	double t0 = util_now();
	/* a state variable no observed signal depends on is dropped only when the
	 * array will not be configured again (nothing then reads it) */
	s->keep_state = s->observe_all;
	find_roots(s);
	Cone c = { 0 };
	c.seen = xcalloc((size_t)s->n + 1, 1);
	c.stack = xmalloc(((size_t)s->n + 1) * sizeof(int));
	c.pe_on = xcalloc((size_t)s->npes + 1, 1);
	c.mem_on = xcalloc((size_t)s->nmems + 1, 1);
	c.reg_on = xcalloc((size_t)s->n + 1, 1);
	find_cone(s, &c);
	free(s->order);
	s->order = xmalloc((size_t)(s->npes + s->nmems + 1) * sizeof(int));
	int status = plan_order(s, &c);
	memset(&s->stats, 0, sizeof s->stats);
	/* registers of the cone and their inputs */
	free(s->creg);
	free(s->creg_d);
	s->ncregs = 0;
	for (int n = 0; n < s->n; n++)
		s->ncregs += c.reg_on[n];
	s->creg = xmalloc((size_t)(s->ncregs + 1) * sizeof(int));
	s->creg_d = xmalloc((size_t)(s->ncregs + 1) * sizeof(int));
	for (int n = 0, i = 0; n < s->n; n++)
		if (c.reg_on[n]) {
			s->creg[i] = n;
			s->creg_d[i++] = s->root[cs_mux_src(s, n)];
		}
	for (int i = 0; i < s->norder && !status; i++) {
		int core = s->order[i];
		if (core >= 0) {
			s->stats.pes++;
			s->stats.ops += s->pes[core].nops;
		} else {
			s->stats.mems++;
		}
	}
	if (!status)
		build_stream(s);
	s->stats.regs = s->ncregs;
	s->stats.nodes = 0;
	s->used_list.len = 0;
	for (int n = 0; n < s->n; n++) {
		s->used[n] = s->root[n] != s->n && c.seen[s->root[n]];
		s->stats.nodes += s->used[n];
		if (s->used[n])
			vec_push(&s->used_list, n);
	}
	free(c.seen);
	free(c.stack);
	free(c.pe_on);
	free(c.mem_on);
	free(c.reg_on);
	s->stats.compile_s = util_now() - t0;
	if (status)
		return status;
	s->compiled = 1;
	s->settled = 0;
	return 0;
}

/* A PE output changed in this cycle: the PE was busy. */
static void count_busy(Cs *s, int k)
{
	Pe *p = &s->pes[k];
	if (p->busy_mark != s->run_cycles + 1) {
		p->busy_mark = s->run_cycles + 1;
		p->busy++;
	}
}

/* A running memory tile's inputs from cval (its chain inputs are read by
 * memmodel_begin only). */
static void gather_inputs(const uint64_t *cv, Mem *m, const MemInfo *mi)
{
	for (int i = 0; i < mi->nins; i++)
		m->in[i] = cv[m->in_root[i]];
}

/* A quiet memory tile's outputs: its chain inputs, as memmodel_begin drives
 * them then. */
static void quiet_outputs(uint64_t *cv, const Mem *m, const MemInfo *mi)
{
	uint64_t word = bv_mask(mi->word);
	for (int o = 0; o < mi->nouts; o++) {
		if (m->dout[o] >= 0)
			cv[m->dout[o]] = mi->chain ? cv[m->cin_root[o]] & word : 0;
		if (m->dvalid[o] >= 0)
			cv[m->dvalid[o]] = mi->chain && (int)cv[m->cvalid_root[o]] != 0;
	}
}

void cs_comp_settle(Cs *s)
{
	const MemInfo *mi = s->chip->mem_info;
	uint64_t *cv = s->cval;
	for (int i = 0; i < s->nuops; i++) {
		const Uop *u = &s->uops[i];
		uint64_t v;
		switch (u->op) {
		case NF_AND:
			v = cv[u->a] & cv[u->b];
			break;
		case NF_OR:
			v = cv[u->a] | cv[u->b];
			break;
		case NF_XOR:
			v = cv[u->a] ^ cv[u->b];
			break;
		case NF_ADD:
			v = (cv[u->a] + cv[u->b]) & u->mask;
			break;
		case NF_SUB:
			v = (cv[u->a] - cv[u->b]) & u->mask;
			break;
		case NF_ITE:
			v = cv[u->a] ? cv[u->b] : cv[u->c];
			break;
		case NF_EQ:
			v = cv[u->a] == cv[u->b];
			break;
		/* as nf_op_apply computes them (common/bv.c), without the call */
		case NF_NOT:
			v = ~cv[u->a] & u->mask;
			break;
		case NF_MUL:
			v = (cv[u->a] * cv[u->b]) & u->mask;
			break;
		case NF_SHL:
			v = cv[u->b] >= (uint64_t)u->width ? 0 : (cv[u->a] << cv[u->b]) & u->mask;
			break;
		case NF_LSHR:
			v = cv[u->b] >= (uint64_t)u->width ? 0 : cv[u->a] >> cv[u->b];
			break;
		case NF_ULT:
			v = cv[u->a] < cv[u->b];
			break;
		case NF_ULE:
			v = cv[u->a] <= cv[u->b];
			break;
		case NF_SLT:
			v = bv_sval(cv[u->a], u->wa) < bv_sval(cv[u->b], u->wa);
			break;
		case U_OUT:
			v = cv[u->a];
			break;
		case U_PASS:
			v = cv[u->a] & u->mask;
			break;
		case U_PASS_VALID:
			v = u->mask && cv[u->a] != 0;
			break;
		case U_MEM: {
			Mem *m = &s->mems[u->core];
			if (m->idle) {
				quiet_outputs(cv, m, mi);
				continue;
			}
			gather_inputs(cv, m, mi);
			for (int o = 0; o < mi->nouts; o++) {
				m->cin[o] = cv[m->cin_root[o]];
				m->cvalid[o] = (int)cv[m->cvalid_root[o]];
			}
			const MemCycle *c = m->cyc = memmodel_begin(m->m, m->in, m->cin, m->cvalid);
			for (int o = 0; o < mi->nouts; o++) {
				if (m->dout[o] >= 0)
					cv[m->dout[o]] = c->out[o];
				if (m->dvalid[o] >= 0)
					cv[m->dvalid[o]] = (uint64_t)c->out_valid[o];
			}
			continue;
		}
		default:
			v = nf_op_apply((NfOp)u->op, u->width, cv[u->a], cv[u->b], cv[u->c], u->wa, u->wb, u->hi, u->lo, 0);
		}
		if (u->core >= 0 && cv[u->dst] != v)
			count_busy(s, u->core);
		cv[u->dst] = v;
	}
	s->settled = 1;
}

/* Did a memory tile do anything this cycle: a storage operation or an
 * output with valid data? */
static int mem_busy(const Cs *s, const Mem *m)
{
	const MemInfo *mi = s->chip->mem_info;
	const MemCycle *c = m->cyc;
	if (!c)
		return 0;
	for (int o = 0; o < mi->nouts; o++)
		if (c->out_valid[o])
			return 1;
	for (int u = 0; u < mi->nunits; u++)
		for (int k = 0; k < mi->units[u].nports; k++)
			if (c->ports[u][k].ren || c->ports[u][k].wen)
				return 1;
	return 0;
}

/* Did a quiet memory tile do anything this cycle: a valid chain input at an
 * output? */
static int quiet_busy(const Cs *s, const Mem *m)
{
	const MemInfo *mi = s->chip->mem_info;
	for (int o = 0; o < mi->nouts; o++)
		if (mi->chain && (int)s->cval[m->cvalid_root[o]] != 0)
			return 1;
	return 0;
}

/* A running memory tile's clock edge: its model's, or one more quiet cycle
 * (passed to the model when they end); then how many cycles to come are
 * quiet. */
static void mem_edge(Cs *s, Mem *m)
{
	if (m->idle) {
		if (s->activity)
			m->busy += quiet_busy(s, m);
		m->passed++;
		if (--m->idle == 0)
			pass_quiet(m);
		return;
	}
	int fresh = memmodel_takes_inputs(m->m);
	if (fresh)
		gather_inputs(s->cval, m, s->chip->mem_info);
	memmodel_finish(m->m, fresh ? m->in : NULL);
	if (s->activity)
		m->busy += mem_busy(s, m);
	m->idle = memmodel_quiet(m->m);
}

void cs_comp_edge(Cs *s)
{
	vec_foreach(&s->run_mems, i)
		mem_edge(s, &s->mems[s->run_mems.data[i]]);
	const int *cp = s->copies.data;
	uint64_t *cv = s->cval;
	int n = s->copies.len / 2;
	for (int i = 0; i < s->ndirect; i++)
		cv[cp[2 * i]] = cv[cp[2 * i + 1]];
	for (int i = s->ndirect; i < n; i++)
		s->copy_tmp[i] = cv[cp[2 * i + 1]];
	for (int i = s->ndirect; i < n; i++)
		cv[cp[2 * i]] = s->copy_tmp[i];
	s->cycles++;
	s->settled = 0;
}

