/* delay.c - registers where the routing network has none (netlist.h):
 * retiming onto the PEs' input registers (nl_retime_inputs), then delay
 * cells for what is left (nl_delay_cells).
 *
 * Retiming (Leiserson and Saxe). A cell v moved by r(v) changes each net's
 * sink count w(u -> v) to w + r(v) - r(u); memories and IOs keep r = 0, so
 * every path between them keeps its registers and every buffer its
 * schedule, and a PE (a function of its inputs' values, its input
 * registers loading every cycle) computes the same values r(v) cycles
 * apart. What a sink's count costs: nothing for the register a PE input
 * can read itself through (when its rule can), a delay cell for each
 * further one, shared along its net (a net costs its deepest sink's). The
 * search moves a PE by one register, forward (a register off each input
 * onto each output) or backward, and then, if that alone saves no delay
 * cell, the PEs the register went to, a chain of up to CHAIN_DEPTH more,
 * keeping the chain only when it saves one: on a kernel's adder tree this
 * takes a tap's second register through the multiplier and the adder onto
 * the next adder's free input register. A chain that saves nothing is
 * never kept, nor one that makes the longest combinational path of PE
 * delays longer than it was: pipelining put the registers where they cut
 * those paths, and draining them towards the memories would cost clock.
 * Constant PEs never change value: the registers after them are dropped.
 *
 * Delay cells. The registers that retiming leaves become PEs configured as
 * delays.
 *
 * A delay cell is a PE running a rule whose value is its input, read
 * through the PE's input register: one cycle late. The rule comes from the
 * PE's rules file, never assumed: an IR operation with an identity constant
 * (add_const with 0, mul_const with 1, and_const with all ones, ...) or one
 * that gives back an input fed to both its operands (and, or, umin, ...),
 * of the net's width, every input of it readable through the input
 * register. Of those the fastest (the rule's cost), then one input before
 * two (one route instead of two), then the rules' order.
 *
 * A net whose sinks ask up to R registers gets one chain of R delay cells
 * after its driver; a sink asking r reads the r-th cell's output with no
 * register on its route (its own packed PE-input register still counts on
 * top). Every sink of the net shares the chain, as the registers of one
 * routed tree would be shared. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../../common/arena.h"
#include "../../common/bv.h"
#include "netlist.h"

/* The constant that makes an operation give back its input. */
typedef enum { ID_ZERO, ID_ONE, ID_ONES, ID_SMAX, ID_SMIN, ID_SAME } IdKind;

static const struct {
	const char *ir;
	IdKind kind;
} identities[] = {
	{ "add_const", ID_ZERO },  { "sub_const", ID_ZERO },  { "or_const", ID_ZERO },   { "xor_const", ID_ZERO },
	{ "shl_const", ID_ZERO },  { "lshr_const", ID_ZERO }, { "ashr_const", ID_ZERO }, { "umax_const", ID_ZERO },
	{ "mul_const", ID_ONE },   { "and_const", ID_ONES },  { "umin_const", ID_ONES }, { "smin_const", ID_SMAX },
	{ "smax_const", ID_SMIN }, { "and", ID_SAME },        { "or", ID_SAME },         { "umin", ID_SAME },
	{ "umax", ID_SAME },       { "smin", ID_SAME },       { "smax", ID_SAME },       { "and1", ID_SAME },
	{ "or1", ID_SAME },
};

typedef struct Delay {
	const PeRule *rule;
	uint64_t *word;         /* constants in, inputs read directly */
	unsigned late;          /* the PE inputs it reads */
} Delay;

static uint64_t identity_constant(IdKind k, int width)
{
	uint64_t ones = bv_mask(width);
	switch (k) {
	case ID_ONE:
		return 1;
	case ID_ONES:
		return ones;
	case ID_SMAX:
		return ones >> 1;
	case ID_SMIN:
		return (ones >> 1) + 1;
	default:
		return 0;
	}
}

/* 1 if rule r gives back its input on a width-bit net as a delay (its
 * instruction into word) */
static int delay_rule(const PeInfo *pe, const PeRule *r, IdKind k, int width, uint64_t *word)
{
	int nin = k == ID_SAME ? 2 : 1, nparams = k == ID_SAME ? 0 : 1;
	if (r->ninputs != nin || r->nparams != nparams || r->noutputs != 1 ||
	    pe->outputs[r->outputs[0].index].width != width)
		return 0;
	for (int i = 0; i < nin; i++)
		if (pe->inputs[r->inputs[i].index].width != width || r->registered[i].nsets == 0 ||
		    r->inputs[i].index >= 32)
			return 0;
	uint64_t param = identity_constant(k, width);
	return peinfo_encode(pe, r, &param, word);
}

/* The delay of a width-bit value on pe (the file comment), or 0. */
static int find_delay(Arena *a, const PeInfo *pe, int width, Delay *out)
{
	int best = -1;
	uint64_t *word = arena_alloc(a, (size_t)BITS_WORDS(pe->inst_width) * sizeof *word);
	for (int i = 0; i < pe->nrules; i++) {
		const PeRule *r = &pe->rules[i];
		for (size_t k = 0; k < sizeof identities / sizeof *identities; k++) {
			if (strcmp(r->ir, identities[k].ir) || !delay_rule(pe, r, identities[k].kind, width, word))
				continue;
			const PeRule *b = best >= 0 ? out->rule : NULL;
			if (b && (b->cost < r->cost || (b->cost == r->cost && b->ninputs <= r->ninputs)))
				continue;
			best = i;
			out->rule = r;
			out->word = arena_alloc(a, (size_t)BITS_WORDS(pe->inst_width) * sizeof *word);
			memcpy(out->word, word, (size_t)BITS_WORDS(pe->inst_width) * sizeof *word);
			out->late = 0;
			for (int j = 0; j < r->ninputs; j++)
				out->late |= 1u << r->inputs[j].index;
		}
	}
	return best >= 0;
}

static int new_net(Netlist *n, int cell, const char *port, int width)
{
	NlNet net;
	memset(&net, 0, sizeof net);
	net.name = arena_printf(n->arena, "%s.%s", n->cells.data[cell].name, port);
	net.width = width;
	net.cell = cell;
	net.port = port;
	vec_push(&n->nets, net);
	return n->nets.len - 1;
}

/* A delay cell reading net i: its inputs become sinks of net i; the net of
 * its output. */
static int add_delay(Netlist *n, const PeInfo *pe, const Delay *dl, int i)
{
	NlCell c;
	memset(&c, 0, sizeof c);
	c.kind = NL_PE;
	snprintf(c.name, sizeof c.name, "delay%d", n->delays);
	c.inst = c.bank = c.rom = c.in_stmt = c.out_stmt = -1;
	c.x = c.y = -1;
	c.rule = dl->rule;
	c.word = dl->word;
	c.late = dl->late;
	vec_push(&n->cells, c);
	int cell = n->cells.len - 1;
	n->pes++;
	n->delays++;
	for (int j = 0; j < pe->ninputs; j++)
		if (dl->late >> j & 1) {
			NlSink s = { cell, pe->inputs[j].name, 0, 1, NL_FIXED, j };
			vec_push(&n->nets.data[i].sinks, s);
			n->packed++;
		}
	return new_net(n, cell, pe->outputs[dl->rule->outputs[0].index].name, n->nets.data[i].width);
}

/* The registers net i's sinks ask of its route, at most. */
static int depth(const NlNet *net)
{
	int r = 0;
	vec_foreach(&net->sinks, k) if (net->sinks.data[k].regs > r) r = net->sinks.data[k].regs;
	return r;
}

static void lacking(const Netlist *n, const PeInfo *pe, int i, int r, const char *app, Diags *d)
{
	const NlNet *net = &n->nets.data[i];
	const NlSink *s = NULL;
	vec_foreach(&net->sinks, k) if (net->sinks.data[k].regs == r) s = &net->sinks.data[k];
	diag_error(d, app, 0, 0, "net '%s' needs %d register%s before %s.%s and the design has none for it: its %d-bit "
		   "routing network has no pipeline registers, and no rule of the PE %s passes a %d-bit value "
		   "through the PE's input register (add_const, or_const, mul_const, and, or, ... of the IR)",
		   net->name, r, r == 1 ? "" : "s", n->cells.data[s->cell].name, s->port, net->width, pe->name,
		   net->width);
}

/* ---- retiming onto PE input registers ---- */

typedef struct Ref {
	int net, sink;
} Ref;

typedef struct Retime {
	Netlist *n;
	const PeInfo *pe;
	int pack;
	int *r;                 /* per cell */
	VEC(Ref) *in;           /* per cell: the sinks on its inputs */
	VEC(int) *out;          /* per cell: the nets it drives */
	unsigned *seen;         /* per net: the epoch it was last priced in */
	unsigned epoch;
	double *at;             /* per cell: arrival (logic_depth) */
	unsigned *at_epoch;     /* per cell: the epoch of at */
	double depth0;          /* the longest combinational path before retiming */
	VEC(int) moved;         /* the chain being tried */
} Retime;

/* Cells a chain of moves may pass through before it must save a delay cell. */
#define CHAIN_DEPTH 4

static int is_constant(const NlCell *c)
{
	return c->kind == NL_PE && c->rule->ninputs == 0;
}

/* The registers sink k of net i carries after the moves (packed included). */
static int count(const Retime *T, int i, int k)
{
	const NlNet *net = &T->n->nets.data[i];
	const NlSink *s = &net->sinks.data[k];
	int t = s->regs + s->packed + T->r[s->cell] - T->r[net->cell];
	return is_constant(&T->n->cells.data[net->cell]) && t < 0 ? 0 : t;
}

/* 1 if sink s can hold one register in its PE's input register. */
static int holds_one(const Retime *T, const NlSink *s)
{
	const NlCell *c = &T->n->cells.data[s->cell];
	if (!T->pack || c->kind != NL_PE)
		return 0;
	int j = peinfo_input(T->pe, s->port), k = j >= 0 ? nl_rule_input(c->rule, j) : -1;
	return k >= 0 && j < 32 && c->rule->registered[k].nsets > 0;
}

/* The delay cells net i needs: its deepest sink's registers beyond the one
 * its PE input can hold. */
static int net_cost(const Retime *T, int i)
{
	const NlNet *net = &T->n->nets.data[i];
	if (is_constant(&T->n->cells.data[net->cell]))
		return 0;
	int worst = 0;
	vec_foreach(&net->sinks, k) {
		int extra = count(T, i, k) - holds_one(T, &net->sinks.data[k]);
		worst = extra > worst ? extra : worst;
	}
	return worst;
}

/* 1 if moving cell v by d (+1: a register from each output onto each
 * input; -1: the other way) leaves every count non-negative. */
static int movable(Retime *T, int v, int d)
{
	if (d < 0) {
		vec_foreach(&T->in[v], k) {
			Ref e = T->in[v].data[k];
			if (!is_constant(&T->n->cells.data[T->n->nets.data[e.net].cell]) && count(T, e.net, e.sink) < 1)
				return 0;
		}
		return T->in[v].len > 0;
	}
	vec_foreach(&T->out[v], k) {
		const NlNet *net = &T->n->nets.data[T->out[v].data[k]];
		vec_foreach(&net->sinks, j) if (count(T, T->out[v].data[k], j) < 1) return 0;
	}
	return T->out[v].len > 0;
}

/* A net's input sinks counted once per cell even when it feeds two inputs. */
static void index_cells(Retime *T)
{
	Netlist *n = T->n;
	vec_foreach(&n->nets, i) {
		vec_push(&T->out[n->nets.data[i].cell], i);
		vec_foreach(&n->nets.data[i].sinks, k) vec_push(&T->in[n->nets.data[i].sinks.data[k].cell], ((Ref){ i, k }));
	}
}

/* Writes the moves into the sinks: counts, packing, the PEs' late inputs. */
static void apply(Retime *T)
{
	Netlist *n = T->n;
	n->packed = 0;
	vec_foreach(&n->cells, c) n->cells.data[c].late = 0;
	vec_foreach(&n->nets, i) vec_foreach(&n->nets.data[i].sinks, k)
	{
		int t = count(T, i, k);
		NlSink *s = &n->nets.data[i].sinks.data[k];
		s->packed = t >= 1 && holds_one(T, s);
		s->regs = t - s->packed;
		if (s->packed) {
			n->cells.data[s->cell].late |= 1u << peinfo_input(T->pe, s->port);
			n->packed++;
		}
	}
}

/* The delay cells of the nets around the moved cells, each net once. */
static int chain_cost(Retime *T)
{
	T->epoch++;
	int c = 0;
	vec_foreach(&T->moved, m) {
		int v = T->moved.data[m];
		for (int side = 0; side < 2; side++) {
			int len = side ? T->out[v].len : T->in[v].len;
			for (int k = 0; k < len; k++) {
				int i = side ? T->out[v].data[k] : T->in[v].data[k].net;
				if (T->seen[i] != T->epoch) {
					T->seen[i] = T->epoch;
					c += net_cost(T, i);
				}
			}
		}
	}
	return c;
}

/* 1 if cell v is a PE that can move. */
static int moves(const Retime *T, int v)
{
	const NlCell *c = &T->n->cells.data[v];
	return c->kind == NL_PE && !is_constant(c);
}

/* The arrival of cell v's output (ns): its rule's delay after the latest
 * of its inputs that no register separates from a PE (memories and IOs
 * start at 0); memoized per epoch of `at`. */
static double arrival(Retime *T, int v)
{
	if (T->at_epoch[v] == T->epoch)
		return T->at[v];
	const NlCell *c = &T->n->cells.data[v];
	double a = 0;
	if (c->kind == NL_PE) {
		vec_foreach(&T->in[v], k) {
			Ref e = T->in[v].data[k];
			int u = T->n->nets.data[e.net].cell;
			if (count(T, e.net, e.sink) == 0 && !is_constant(&T->n->cells.data[u])) {
				double x = arrival(T, u);
				a = x > a ? x : a;
			}
		}
		a += c->rule->cost;
	}
	T->at_epoch[v] = T->epoch;
	T->at[v] = a;
	return a;
}

/* The longest path of PE delays no register cuts (routing left out). */
static double logic_depth(Retime *T)
{
	T->epoch++;
	double worst = 0;
	vec_foreach(&T->n->cells, v) {
		double a = arrival(T, v);
		worst = a > worst ? a : worst;
	}
	return worst;
}

/* 1 if the chain's moves (each by d, done) lower the delay cells of the
 * nets around them without lengthening the longest combinational path
 * beyond what it was before retiming. */
static int saves(Retime *T, int d)
{
	int now = chain_cost(T);
	vec_foreach(&T->moved, m) T->r[T->moved.data[m]] -= d;
	int then = chain_cost(T);
	vec_foreach(&T->moved, m) T->r[T->moved.data[m]] += d;
	return now < then && logic_depth(T) <= T->depth0 + 1e-9;
}

/* Moves v by d, then, unless the chain so far saves a delay cell, the
 * cells the register went to (v's sinks going forward, its drivers going
 * back), up to depth more; 1 if a chain saved one (its moves kept), else 0
 * with everything undone. */
static int chain(Retime *T, int v, int d, int depth)
{
	if (!moves(T, v) || !movable(T, v, d))
		return 0;
	vec_foreach(&T->moved, m) if (T->moved.data[m] == v) return 0;
	vec_push(&T->moved, v);
	T->r[v] += d;
	if (saves(T, d))
		return 1;
	if (depth > 0 && d < 0) {
		vec_foreach(&T->out[v], k) {
			const NlNet *net = &T->n->nets.data[T->out[v].data[k]];
			vec_foreach(&net->sinks, j) if (chain(T, net->sinks.data[j].cell, d, depth - 1)) return 1;
		}
	} else if (depth > 0) {
		vec_foreach(&T->in[v], k) if (chain(T, T->n->nets.data[T->in[v].data[k].net].cell, d, depth - 1)) return 1;
	}
	T->r[v] -= d;
	T->moved.len--;
	return 0;
}

int nl_retime_inputs(Netlist *n, const PeInfo *pe, int pack)
{
	Retime T;
	memset(&T, 0, sizeof T);
	T.n = n, T.pe = pe, T.pack = pack;
	int nc = n->cells.len;
	T.r = xcalloc((size_t)nc + 1, sizeof *T.r);
	T.in = xcalloc((size_t)nc + 1, sizeof *T.in);
	T.out = xcalloc((size_t)nc + 1, sizeof *T.out);
	T.seen = xcalloc((size_t)n->nets.len + 1, sizeof *T.seen);
	T.at = xcalloc((size_t)nc + 1, sizeof *T.at);
	T.at_epoch = xcalloc((size_t)nc + 1, sizeof *T.at_epoch);
	index_cells(&T);
	T.depth0 = logic_depth(&T);
	int before = 0, after;
	vec_foreach(&n->nets, i) before += net_cost(&T, i);
	for (int pass = 0, saved = 1; saved && pass < nc + 4; pass++) {
		saved = 0;
		for (int v = 0; v < nc; v++)
			for (int d = -1; d <= 1; d += 2) {
				T.moved.len = 0;
				if (chain(&T, v, d, CHAIN_DEPTH)) {
					saved = 1;
					break;
				}
			}
	}
	after = 0;
	vec_foreach(&n->nets, i) after += net_cost(&T, i);
	apply(&T);
	for (int c = 0; c < nc; c++) {
		vec_free(&T.in[c]);
		vec_free(&T.out[c]);
	}
	vec_free(&T.moved);
	free(T.in);
	free(T.out);
	free(T.r);
	free(T.seen);
	free(T.at);
	free(T.at_epoch);
	return before - after;
}

/* ---- delay cells ---- */

int nl_delay_cells(Netlist *n, const PeInfo *pe, uint64_t reg_widths, const char *app, Diags *d)
{
	Delay found[65];
	signed char have[65];
	memset(have, -1, sizeof have);
	int nnets = n->nets.len, ok = 1;
	for (int i = 0; i < nnets; i++) {
		int w = n->nets.data[i].width, R = depth(&n->nets.data[i]);
		if (R == 0 || w < 1 || w > 64 || reg_widths >> (w - 1) & 1)
			continue;
		if (have[w] < 0)
			have[w] = (signed char)find_delay(n->arena, pe, w, &found[w]);
		if (!have[w]) {
			if (d)
				lacking(n, pe, i, R, app, d);
			ok = 0;
			continue;
		}
		/* the chain: out[r] is the net carrying the value r cycles late */
		int out[R + 1];
		out[0] = i;
		for (int r = 1; r <= R; r++)
			out[r] = add_delay(n, pe, &found[w], out[r - 1]);
		NlNet *net = &n->nets.data[i];
		int kept = 0;
		vec_foreach(&net->sinks, k) {
			NlSink s = net->sinks.data[k];
			if (s.regs == 0) {
				net->sinks.data[kept++] = s;
				continue;
			}
			int r = s.regs;
			s.regs = 0;
			vec_push(&n->nets.data[out[r]].sinks, s);
		}
		net->sinks.len = kept;
	}
	return ok;
}
