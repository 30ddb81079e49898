/* peak_nf.c - see peak_nf.h. Construction folds constants, so a spec's
 * instruction-independent logic costs nothing in any of the three readings. */
#include "peak_nf.h"

#include <stdlib.h>
#include <string.h>

#include "../common/bv.h"
#include "../common/util.h"

int nf_is_leaf(NfOp op)
{
	return op <= NF_CONST;
}

void nf_init(NfGraph *g)
{
	memset(g, 0, sizeof *g);
}

void nf_free(NfGraph *g)
{
	vec_free(&g->nodes);
	free(g->slots);
	memset(g, 0, sizeof *g);
}

static uint64_t node_hash(const NfNode *n)
{
	uint64_t h = UTIL_FNV_INIT;
	int f[7] = { (int)n->op, n->width, n->a, n->b, n->c, n->hi, n->lo };
	h = util_fnv1a(h, f, sizeof f);
	return util_fnv1a(h, &n->value, sizeof n->value);
}

static int node_equal(const NfNode *x, const NfNode *y)
{
	return x->op == y->op && x->width == y->width && x->a == y->a && x->b == y->b &&
	       x->c == y->c && x->hi == y->hi && x->lo == y->lo && x->value == y->value;
}

static int find_slot(const NfGraph *g, const NfNode *n)
{
	unsigned mask = (unsigned)g->nslots - 1;
	for (unsigned s = (unsigned)node_hash(n) & mask;; s = (s + 1) & mask) {
		int id = g->slots[s];
		if (id < 0 || node_equal(&g->nodes.data[id], n))
			return (int)s;
	}
}

static void grow(NfGraph *g)
{
	free(g->slots);
	g->nslots = g->nslots ? 2 * g->nslots : 256;
	g->slots = xmalloc((size_t)g->nslots * sizeof *g->slots);
	memset(g->slots, 0xff, (size_t)g->nslots * sizeof *g->slots);
	vec_foreach(&g->nodes, i) g->slots[find_slot(g, &g->nodes.data[i])] = i;
}

/* Returns the id of an equal node, creating it if needed. */
static int intern(NfGraph *g, NfNode n)
{
	if (2 * (g->nodes.len + 1) > g->nslots)
		grow(g);
	int s = find_slot(g, &n);
	if (g->slots[s] >= 0)
		return g->slots[s];
	vec_push(&g->nodes, n);
	return g->slots[s] = g->nodes.len - 1;
}

static NfNode blank(NfOp op, int width)
{
	return (NfNode){ op, width, -1, -1, -1, 0, 0, 0, 0 };
}

#define RANK_CONST (1 << 30)

static int leaf_rank(NfOp op, int index)
{
	static const int base[] = { [NF_INPUT] = 0, [NF_PARAM] = 1 << 20, [NF_FIELD] = 2 << 20,
				    [NF_STATE] = 3 << 20 };
	return base[op] + index;
}

/* Interns n after deriving its rank from its operands. */
static int intern_ranked(NfGraph *g, NfNode n)
{
	n.rank = RANK_CONST;
	int ops[3] = { n.a, n.b, n.c };
	for (int i = 0; i < 3; i++)
		if (ops[i] >= 0 && g->nodes.data[ops[i]].rank < n.rank)
			n.rank = g->nodes.data[ops[i]].rank;
	return intern(g, n);
}

int nf_leaf(NfGraph *g, NfOp op, int index, int width)
{
	NfNode n = blank(op, width);
	n.lo = index;
	n.rank = leaf_rank(op, index);
	return intern(g, n);
}

int nf_const(NfGraph *g, uint64_t value, int width)
{
	NfNode n = blank(NF_CONST, width);
	n.value = bv_trunc(value, width);
	n.rank = RANK_CONST;
	return intern(g, n);
}

static int is_const(const NfGraph *g, int id)
{
	return g->nodes.data[id].op == NF_CONST;
}

static uint64_t cval(const NfGraph *g, int id)
{
	return g->nodes.data[id].value;
}

/* Interns n, or its value if every operand is constant. */
static int fold(NfGraph *g, NfNode n)
{
	int ids[3] = { n.a, n.b, n.c };
	uint64_t ops[3] = { 0, 0, 0 };
	for (int i = 0; i < 3; i++) {
		if (ids[i] < 0)
			continue;
		if (!is_const(g, ids[i]))
			return intern_ranked(g, n);
		ops[i] = cval(g, ids[i]);
	}
	return nf_const(g, nf_apply(&n, ops, n.a >= 0 ? nf_width(g, n.a) : 0,
				    n.b >= 0 ? nf_width(g, n.b) : 0),
			n.width);
}

static int result_width(const NfGraph *g, NfOp op, int a)
{
	if (op == NF_EQ || op == NF_ULT || op == NF_ULE || op == NF_SLT || op == NF_SLE)
		return 1;
	return nf_width(g, a);
}

int nf_unary(NfGraph *g, NfOp op, int a)
{
	const NfNode *x = nf_node(g, a);
	if (op == NF_NOT && x->op == NF_NOT)
		return x->a;
	NfNode n = blank(op, x->width);
	n.a = a;
	return fold(g, n);
}

int nf_is_commutative(NfOp op)
{
	return op == NF_AND || op == NF_OR || op == NF_XOR || op == NF_ADD || op == NF_MUL ||
	       op == NF_EQ || op == NF_UMULHI || op == NF_SMULHI;
}

/* Identities with one constant operand: x&0, x&~0, x|0, x+0, x*1, ... */
static int simplify_binary(NfGraph *g, NfOp op, int a, int b)
{
	int w = nf_width(g, a);
	if (!is_const(g, b))
		return -1;
	uint64_t v = cval(g, b);
	switch (op) {
	case NF_AND:
		return v == 0 ? b : v == bv_mask(w) ? a : -1;
	case NF_OR:
		return v == 0 ? a : v == bv_mask(w) ? b : -1;
	case NF_XOR:
		return v == 0 ? a : v == bv_mask(w) ? nf_unary(g, NF_NOT, a) : -1;
	case NF_ADD:
	case NF_SUB:
	case NF_SHL:
	case NF_LSHR:
	case NF_ASHR:
		return v == 0 ? a : -1;
	case NF_MUL:
		return v == 1 ? a : v == 0 ? b : -1;
	case NF_EQ:
		/* a 1-bit x == 1 is x, x == 0 is ~x */
		if (w == 1)
			return v ? a : nf_unary(g, NF_NOT, a);
		return -1;
	default:
		return -1;
	}
}

int nf_binary(NfGraph *g, NfOp op, int a, int b)
{
	const NfNode *x = nf_node(g, a), *y = nf_node(g, b);
	if (nf_is_commutative(op) && (x->rank > y->rank || (x->rank == y->rank && a > b))) {
		int t = a;
		a = b;
		b = t;
	}
	if (!is_const(g, a)) {
		int s = simplify_binary(g, op, a, b);
		if (s >= 0)
			return s;
	}
	if (a == b) {
		if (op == NF_AND || op == NF_OR)
			return a;
		if (op == NF_XOR || op == NF_SUB)
			return nf_const(g, 0, nf_width(g, a));
		if (op == NF_EQ || op == NF_ULE || op == NF_SLE)
			return nf_const(g, 1, 1);
		if (op == NF_ULT || op == NF_SLT)
			return nf_const(g, 0, 1);
	}
	NfNode n = blank(op, result_width(g, op, a));
	n.a = a;
	n.b = b;
	return fold(g, n);
}

int nf_ite(NfGraph *g, int cond, int then_, int else_)
{
	if (then_ == else_)
		return then_;
	if (is_const(g, cond))
		return cval(g, cond) ? then_ : else_;
	const NfNode *c = nf_node(g, cond);
	if (c->op == NF_NOT)
		return nf_ite(g, c->a, else_, then_);
	if (nf_width(g, then_) == 1 && is_const(g, then_) && is_const(g, else_))
		return cval(g, then_) ? cond : nf_unary(g, NF_NOT, cond);
	NfNode n = blank(NF_ITE, nf_width(g, then_));
	n.a = cond;
	n.b = then_;
	n.c = else_;
	return fold(g, n);
}

int nf_extract(NfGraph *g, int a, int hi, int lo)
{
	const NfNode *x = nf_node(g, a);
	if (lo == 0 && hi == x->width - 1)
		return a;
	if (x->op == NF_EXTRACT)
		return nf_extract(g, x->a, x->lo + hi, x->lo + lo);
	if (x->op == NF_ZEXT || x->op == NF_SEXT) {
		int inner = nf_width(g, x->a);
		if (hi < inner)
			return nf_extract(g, x->a, hi, lo);
		if (x->op == NF_ZEXT && lo >= inner)
			return nf_const(g, 0, hi - lo + 1);
	}
	if (x->op == NF_CONCAT) {
		int low_w = nf_width(g, x->b);
		if (hi < low_w)
			return nf_extract(g, x->b, hi, lo);
		if (lo >= low_w)
			return nf_extract(g, x->a, hi - low_w, lo - low_w);
	}
	NfNode n = blank(NF_EXTRACT, hi - lo + 1);
	n.a = a;
	n.hi = hi;
	n.lo = lo;
	return fold(g, n);
}

int nf_concat(NfGraph *g, int hi, int lo)
{
	if (is_const(g, hi) && cval(g, hi) == 0)
		return nf_ext(g, NF_ZEXT, lo, nf_width(g, hi) + nf_width(g, lo));
	NfNode n = blank(NF_CONCAT, nf_width(g, hi) + nf_width(g, lo));
	n.a = hi;
	n.b = lo;
	return fold(g, n);
}

int nf_ext(NfGraph *g, NfOp op, int a, int width)
{
	if (width == nf_width(g, a))
		return a;
	NfNode n = blank(op, width);
	n.a = a;
	return fold(g, n);
}

uint64_t nf_apply(const NfNode *n, const uint64_t ops[3], int wa, int wb)
{
	return nf_op_apply(n->op, n->width, ops[0], ops[1], ops[2], wa, wb, n->hi, n->lo, n->value);
}

void nf_eval(const NfGraph *g, uint64_t *vals, const uint64_t *const leaves[4])
{
	vec_foreach(&g->nodes, i) {
		const NfNode *n = &g->nodes.data[i];
		if (n->op < NF_CONST) {
			vals[i] = leaves[n->op][n->lo];
			continue;
		}
		uint64_t ops[3] = { n->a >= 0 ? vals[n->a] : 0, n->b >= 0 ? vals[n->b] : 0,
				    n->c >= 0 ? vals[n->c] : 0 };
		vals[i] = nf_apply(n, ops, n->a >= 0 ? nf_width(g, n->a) : 0,
				   n->b >= 0 ? nf_width(g, n->b) : 0);
	}
}

void nf_mark_live(const NfGraph *g, char *live)
{
	for (int id = g->nodes.len - 1; id >= 0; id--) {
		const NfNode *n = nf_node(g, id);
		if (!live[id])
			continue;
		if (n->a >= 0)
			live[n->a] = 1;
		if (n->b >= 0)
			live[n->b] = 1;
		if (n->c >= 0)
			live[n->c] = 1;
	}
}
