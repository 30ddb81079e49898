/* hl_dfg.c - compute kernels as graphs of IR operations (hl_dfg.h). */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "../../common/strmap.h"
#include "lower.h"
#include "../front/front.h"

typedef struct DVal {
	int node;
	HType t;                /* how the word is read: W-bit signed/unsigned, or bool */
	int dirty;              /* a type narrower than the word: only its low bits are right */
} DVal;

typedef struct Builder {
	DGraph *g;
	const LProgram *L;
	const Collateral *c;
	Diags *d;
	DKernel *k;
	StrMap cse;             /* node key -> id */
	RangeCtx rc;
	int W;
	int failed;
	int need;               /* of a value lowered with low_only: the low bits its user needs (W at most) */
} Builder;

static const DVal bad = { -1, { 0, 0 }, 0 };

static void berr(Builder *B, const HExpr *e, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void berr(Builder *B, const HExpr *e, const char *fmt, ...)
{
	if (B->failed)
		return;
	B->failed = 1;
	va_list ap;
	va_start(ap, fmt);
	diag_vreport(B->d, DIAG_ERROR, B->L->p->file, e->line, e->col, fmt, ap);
	va_end(ap);
}

static HType word(Builder *B, int is_signed)
{
	HType t = { (uint8_t)is_signed, (uint8_t)B->W };
	return t;
}

/* ---- nodes ---- */

static int add_node(Builder *B, DNode n, const char *key)
{
	intptr_t id;
	if (key && strmap_get(&B->cse, key, &id))
		return (int)id;
	vec_push(&B->k->nodes, n);
	id = B->k->nodes.len - 1;
	if (key)
		strmap_put(&B->cse, key, id);
	return (int)id;
}

static int need_op(Builder *B, const HExpr *at, const char *op)
{
	if (coll_has_op(B->c, op))
		return 1;
	berr(B, at, "the IR operation '%s' this expression needs is not among the operations of %s (%s)", op,
	     B->c->pe, B->c->rules_file);
	return 0;
}

static DVal op_node(Builder *B, const HExpr *at, const char *op, int width, HType t, DVal *in, int nin)
{
	for (int i = 0; i < nin; i++)
		if (in[i].node < 0)
			return bad;
	if (!need_op(B, at, op))
		return bad;
	DNode n = { DN_OP, op, { 0 }, nin, width, 0, -1, 0, NULL, 0, 0, 0 };
	char key[96];
	int len = snprintf(key, sizeof key, "%s", op);
	for (int i = 0; i < nin; i++) {
		n.in[i] = in[i].node;
		len += snprintf(key + len, sizeof key - (size_t)len, " %d", in[i].node);
	}
	DVal v = { add_node(B, n, key), t, 0 };
	return v;
}

static DVal const_node(Builder *B, const HExpr *at, int64_t value, HType t)
{
	int bit = ht_is_bool(t);
	const char *op = bit ? "const1" : "const";
	if (!need_op(B, at, op))
		return bad;
	int64_t v = bit ? value != 0 : (int64_t)((uint64_t)value & (((uint64_t)1 << B->W) - 1));
	DNode n = { DN_CONST, op, { 0 }, 0, bit ? 1 : B->W, v, -1, 0, NULL, 0, 0, 0 };
	char key[64];
	snprintf(key, sizeof key, "%s %lld", op, (long long)v);
	DVal r = { add_node(B, n, key), t, 0 };
	return r;
}

static DVal un(Builder *B, const HExpr *at, const char *op, DVal a, HType t)
{
	return op_node(B, at, op, ht_is_bool(t) ? 1 : B->W, t, &a, 1);
}

static DVal bin(Builder *B, const HExpr *at, const char *op, DVal a, DVal b, HType t)
{
	DVal in[2] = { a, b };
	return op_node(B, at, op, ht_is_bool(t) ? 1 : B->W, t, in, 2);
}

/* ---- leaves ---- */

static DVal load(Builder *B, const HExpr *e)
{
	const HPrep *P = &B->L->prep;
	if (!e->is_image && P->is_const[e->callee]) {
		berr(B, e, "internal: constant table '%s' read in a kernel", B->L->p->funcs.data[e->callee].name);
		return bad;
	}
	DNode n = { DN_LOAD, "load", { 0 }, 0, ht_is_bool(e->type) ? 1 : B->W, 0, e->callee, e->is_image, e->args,
		    e->nargs, 0, 0 };
	char *s = he_str(B->L->p, e);
	DVal v = { add_node(B, n, s), e->type, 0 };
	free(s);
	if (e->type.bits > B->W) {
		berr(B, e, "'%s' holds %s values, wider than the %d-bit word",
		     e->is_image ? B->L->p->images.data[e->callee].name : B->L->p->funcs.data[e->callee].name,
		     ht_name(e->type), B->W);
		return bad;
	}
	return v;
}

static DVal lower(Builder *B, const HExpr *e, int low_only);

/* A read of table e->callee at addr: of the whole table (words 0), or of
 * the part from entry base that one tile holds (words entries). */
static DVal rom_part(Builder *B, const HExpr *e, DVal addr, int64_t base, int64_t words)
{
	DNode n = { DN_ROM, "rom", { addr.node }, 1, B->W, 0, e->callee, 0, NULL, 0, base, words };
	char key[80];
	snprintf(key, sizeof key, "rom %d %d %lld", e->callee, addr.node, (long long)base);
	DVal v = { add_node(B, n, key), e->type, 0 };
	return v;
}

static int log2_exact(int64_t v);

/* A look-up table read: the address is computed by the kernel, relative to
 * the table's first entry, row-major. */
static DVal rom(Builder *B, const HExpr *e)
{
	const HTable *t = &B->L->prep.tables[e->callee];
	DVal addr = bad;
	int64_t stride = 1;
	for (int i = 0; i < e->nargs; i++) {
		Interval r = range_of(&B->rc, e->args[i]);
		if (r.lo < t->min[i] || r.hi >= t->min[i] + t->extent[i]) {
			berr(B, e, "look-up table '%s' is read at [%lld, %lld] in dimension %d, outside its %lld entries",
			     B->L->p->funcs.data[e->callee].name, (long long)r.lo, (long long)r.hi, i,
			     (long long)t->extent[i]);
			return bad;
		}
		DVal a = lower(B, e->args[i], 0);
		if (a.node < 0)
			return bad;
		HType u = word(B, 0);
		if (t->min[i])
			a = bin(B, e, "sub", a, const_node(B, e, t->min[i], u), u);
		if (stride != 1)
			a = bin(B, e, "mul", a, const_node(B, e, stride, u), u);
		addr = addr.node < 0 ? a : bin(B, e, "add", addr, a, u);
		stride *= t->extent[i];
	}
	if (stride > ((int64_t)1 << B->W)) {
		berr(B, e, "look-up table '%s' has %lld entries, more than a %d-bit address reaches",
		     B->L->p->funcs.data[e->callee].name, (long long)stride, B->W);
		return bad;
	}
	if (addr.node < 0)
		return bad;
	const MemInfo *mi = B->c->mem;
	int64_t words = mi && mem_has_lookup(mi) ? mi->lookup.words : 0;
	int shift = words ? log2_exact(words) : -1;
	if (stride <= words || shift < 0)
		return rom_part(B, e, addr, 0, 0);
	/* parts of `words` entries, one per tile: part j holds entries j * words
	 * onwards; a tree of muxes chooses, level l by bit log2(words) + l of
	 * the address */
	HType u = word(B, 0);
	int nparts = (int)((stride + words - 1) / words);
	DVal *v = xcalloc((size_t)nparts, sizeof *v);
	for (int j = 0; j < nparts; j++)
		v[j] = rom_part(B, e, addr, j * words, words);
	for (int l = 0, n = nparts; n > 1; l++, n = (n + 1) / 2) {
		DVal bit = bin(B, e, "and", addr, const_node(B, e, (int64_t)1 << (shift + l), u), u);
		DVal sel = bin(B, e, "neq", bit, const_node(B, e, 0, u), HT_BOOL);
		for (int j = 0; j < n / 2; j++) {
			DVal in[3] = { v[2 * j], v[2 * j + 1], sel };
			v[j] = op_node(B, e, "mux", B->W, e->type, in, 3);
		}
		if (n % 2)
			v[n / 2] = v[n - 1];
	}
	DVal r = v[0];
	free(v);
	return r;
}

/* ---- operations on words ---- */

static int log2_exact(int64_t v)
{
	for (int k = 0; k < 63; k++)
		if (v == (int64_t)1 << k)
			return k;
	return -1;
}

static const char *cmp_op(HBinOp op, int is_signed)
{
	static const char *const u[] = { "ult", "ule", "ugt", "uge" };
	static const char *const s[] = { "slt", "sle", "sgt", "sge" };
	return (is_signed ? s : u)[op - HB_LT];
}

/* A bool from a word, a word from a bool. */
static DVal to_bool(Builder *B, const HExpr *at, DVal v)
{
	if (ht_is_bool(v.t))
		return v;
	return bin(B, at, "neq", v, const_node(B, at, 0, v.t), HT_BOOL);
}

static DVal from_bool(Builder *B, const HExpr *at, DVal c, HType t)
{
	DVal in[3] = { const_node(B, at, 0, t), const_node(B, at, 1, t), c };
	return op_node(B, at, "mux", B->W, t, in, 3);
}

/* ---- division by a constant ---- */

/* 1 if floor(x * m / 2^sh) == floor(x / d) for every x in [0, hi]. */
static int magic_holds(int64_t hi, int64_t d, uint64_t m, int sh)
{
	for (int64_t x = 0; x <= hi; x++)
		if ((int64_t)(((unsigned __int128)x * m) >> sh) != x / d)
			return 0;
	return 1;
}

/* floor(x / d) of an unsigned word x in [0, hi], d > 0 a constant (Granlund
 * and Montgomery, as Halide lowers it): a shift for a power of two; else the
 * high word of x * m, shifted right by s, for the smallest s whose multiplier
 * m < 2^W gives floor(x / d) for every x of the range; else, for an even d, x
 * shifted right first; else m of W + 1 bits, its top bit added back:
 * t = umulhi(x, m - 2^W), ((x - t) >> 1) + t) >> (s - 1). Every choice is
 * checked on every value of the range. */
static DVal udiv_const(Builder *B, const HExpr *e, DVal x, int64_t hi, int64_t d, HType ut)
{
	int W = B->W, k = log2_exact(d);
	if (d == 1 || hi < d)
		return d == 1 ? x : const_node(B, e, 0, ut);
	if (k >= 0)
		return bin(B, e, "lshr", x, const_node(B, e, k, ut), ut);
	for (int s = 0; s < W; s++) {
		uint64_t m = (uint64_t)((((unsigned __int128)1 << (W + s)) + (uint64_t)d - 1) / (uint64_t)d);
		if (m >> W)
			break;
		if (magic_holds(hi, d, m, W + s)) {
			DVal q = bin(B, e, "umulhi", x, const_node(B, e, (int64_t)m, ut), ut);
			return s ? bin(B, e, "lshr", q, const_node(B, e, s, ut), ut) : q;
		}
	}
	if (d % 2 == 0) {
		int z = 0;
		while (!((d >> z) & 1))
			z++;
		DVal x2 = bin(B, e, "lshr", x, const_node(B, e, z, ut), ut);
		return udiv_const(B, e, x2, hi >> z, d >> z, ut);
	}
	for (int s = 1; s <= W; s++) {
		uint64_t m = (uint64_t)((((unsigned __int128)1 << (W + s)) + (uint64_t)d - 1) / (uint64_t)d);
		if (m >> (W + 1))
			break;
		if (!(m >> W) || !magic_holds(hi, d, m, W + s))
			continue;
		DVal t = bin(B, e, "umulhi", x, const_node(B, e, (int64_t)(m - ((uint64_t)1 << W)), ut), ut);
		DVal h = bin(B, e, "lshr", bin(B, e, "sub", x, t, ut), const_node(B, e, 1, ut), ut);
		DVal q = bin(B, e, "add", h, t, ut);
		return s > 1 ? bin(B, e, "lshr", q, const_node(B, e, s - 1, ut), ut) : q;
	}
	berr(B, e, "internal: no multiplier divides [0, %lld] by %lld", (long long)hi, (long long)d);
	return bad;
}

/* x / d or x % d (mod) of a word x of type t over range rx, d a constant:
 * Halide's Euclidean division (the remainder is never negative; division by
 * zero gives zero). A signed x is divided as Halide does it: with s = x >> (W-1)
 * (all ones when x < 0), floor(x / |d|) = ((x ^ s) / |d|) ^ s, the inner
 * division unsigned; a negative d negates the quotient; the remainder is
 * x - q * |d|. */
static DVal div_const(Builder *B, const HExpr *e, DVal x, Interval rx, int64_t d, HType t, HType rt, int mod)
{
	HType ut = word(B, 0);
	int64_t ad = d < 0 ? -d : d;
	if (d == 0)
		return const_node(B, e, 0, rt);
	DVal q;
	if (!t.is_signed || rx.lo >= 0) {
		q = udiv_const(B, e, x, rx.hi, ad, ut);
	} else {
		DVal s = bin(B, e, "ashr", x, const_node(B, e, B->W - 1, t), t);
		DVal u = bin(B, e, "xor", x, s, ut);
		int64_t hi = rx.hi > -rx.lo - 1 ? rx.hi : -rx.lo - 1;
		q = bin(B, e, "xor", udiv_const(B, e, u, hi, ad, ut), s, t);
	}
	if (mod) {
		DVal r = ad == 1 ? const_node(B, e, 0, rt) : bin(B, e, "sub", x, bin(B, e, "mul", q, const_node(B, e, ad, t), t), rt);
		return r;
	}
	if (d < 0)
		q = bin(B, e, "sub", const_node(B, e, 0, t), q, t);
	q.t = rt;
	return q;
}

/* x op y on words of type t (the operands' type). */
static DVal word_bin(Builder *B, const HExpr *e, HBinOp op, DVal x, DVal y, HType t, HType rt)
{
	int s = t.is_signed, bit = ht_is_bool(t);
	int64_t k;
	switch (op) {
	case HB_ADD: return bin(B, e, "add", x, y, rt);
	case HB_SUB: return bin(B, e, "sub", x, y, rt);
	case HB_MUL: return bin(B, e, "mul", x, y, rt);
	case HB_DIV:
	case HB_MOD:
		if (!he_is_const(e->b, &k)) {
			berr(B, e, "%s by a value that is not a constant: the PE has no divider (a constant divisor is "
				   "a multiply-high and shifts)", op == HB_DIV ? "division" : "modulo");
			return bad;
		}
		if (k > 0 && log2_exact(k) >= 0) {
			if (op == HB_MOD)
				return bin(B, e, "and", x, const_node(B, e, k - 1, t), rt);
			return bin(B, e, s ? "ashr" : "lshr", x, const_node(B, e, log2_exact(k), t), rt);
		}
		return div_const(B, e, x, range_of(&B->rc, e->a), k, t, rt, op == HB_MOD);
	case HB_SHL:
	case HB_SHR: {
		const char *right = s ? "ashr" : "lshr";
		if (range_of(&B->rc, e->b).lo >= 0)
			return bin(B, e, op == HB_SHL ? "shl" : right, x, y, rt);
		/* a negative amount shifts the other way (Halide) */
		DVal neg = bin(B, e, "slt", y, const_node(B, e, 0, e->b->type), HT_BOOL);
		DVal ny = bin(B, e, "sub", const_node(B, e, 0, e->b->type), y, e->b->type);
		DVal fwd = bin(B, e, op == HB_SHL ? "shl" : right, x, y, rt);
		DVal back = bin(B, e, op == HB_SHL ? right : "shl", x, ny, rt);
		DVal in[3] = { fwd, back, neg };
		return op_node(B, e, "mux", B->W, rt, in, 3);
	}
	case HB_AND: return bin(B, e, bit ? "and1" : "and", x, y, rt);
	case HB_OR: return bin(B, e, bit ? "or1" : "or", x, y, rt);
	case HB_XOR: return bin(B, e, bit ? "xor1" : "xor", x, y, rt);
	case HB_LAND: return bin(B, e, "and1", x, y, rt);
	case HB_LOR: return bin(B, e, "or1", x, y, rt);
	case HB_EQ:
	case HB_NE:
		if (bit) {
			DVal r = bin(B, e, "xor1", x, y, rt);
			return op == HB_NE ? r : un(B, e, "not1", r, rt);
		}
		return bin(B, e, op == HB_EQ ? "eq" : "neq", x, y, rt);
	case HB_LT: case HB_LE: case HB_GT: case HB_GE:
		return bin(B, e, cmp_op(op, s), x, y, rt);
	case HB_MIN: return bin(B, e, s ? "smin" : "umin", x, y, rt);
	case HB_MAX: return bin(B, e, s ? "smax" : "umax", x, y, rt);
	case HB_ABSD:
		if (!s)
			return bin(B, e, "absd", x, y, rt);
		return bin(B, e, "sub", bin(B, e, "smax", x, y, t), bin(B, e, "smin", x, y, t), rt);
	case HB_COUNT: break;
	}
	return bad;
}

/* ---- narrowing ---- */

/* The W-bit type holding every value of r, preferring signedness s; 0 if
 * none does. */
static int narrow_type(Builder *B, Interval r, int s, HType *t)
{
	int64_t smin = -((int64_t)1 << (B->W - 1)), smax = ((int64_t)1 << (B->W - 1)) - 1;
	int64_t umax = ((int64_t)1 << B->W) - 1;
	int fs = r.lo >= smin && r.hi <= smax, fu = r.lo >= 0 && r.hi <= umax;
	if ((s && fs) || (fs && !fu)) {
		*t = word(B, 1);
		return 1;
	}
	if (fu) {
		*t = word(B, 0);
		return 1;
	}
	return 0;
}

static int low_closed(const HExpr *e)
{
	if (e->kind == HE_UN)
		return e->op == HU_NEG || e->op == HU_NOT;
	if (e->kind != HE_BIN)
		return 0;
	int64_t k;
	switch (e->op) {
	case HB_ADD: case HB_SUB: case HB_MUL: case HB_AND: case HB_OR: case HB_XOR: return 1;
	case HB_SHL: return he_is_const(e->b, &k);
	default: return 0;
	}
}

/* The operand of a widening cast from a word-sized value, or NULL. */
static const HExpr *widened(Builder *B, const HExpr *e)
{
	if (e->kind == HE_CAST && e->a->type.bits <= B->W && !ht_is_bool(e->a->type))
		return e->a;
	return NULL;
}

/* A constant operand of a wide product that a word holds as a signed (s)
 * or unsigned value: the constant itself, else NULL. */
static const HExpr *word_const(Builder *B, const HExpr *e, int s)
{
	int64_t v;
	if (!he_is_const(e, &v))
		return NULL;
	int64_t lo = s ? -((int64_t)1 << (B->W - 1)) : 0, hi = s ? ((int64_t)1 << (B->W - 1)) - 1 : ((int64_t)1 << B->W) - 1;
	return v >= lo && v <= hi ? e : NULL;
}

/* (a * b) >> 8 and >> 16 of two widened words, or of a widened word and a
 * constant that fits a word ((u32(x) * 43691) >> 16): mulmid, mulhi. */
static DVal mul_high(Builder *B, const HExpr *e, int k)
{
	const HExpr *m = e->a, *a, *b;
	if (m->kind != HE_BIN || m->op != HB_MUL)
		return bad;
	a = widened(B, m->a);
	b = widened(B, m->b);
	if (!a && b)
		a = word_const(B, m->a, b->type.is_signed && m->b->type.is_signed);
	if (a && !b)
		b = word_const(B, m->b, a->type.is_signed && m->a->type.is_signed);
	if (!a || !b)
		return bad;
	int sa = (a->kind == HE_CONST ? b : a)->type.is_signed && m->type.is_signed;
	int sb = (b->kind == HE_CONST ? a : b)->type.is_signed && m->type.is_signed;
	if (sa != sb || (k != B->W / 2 && k != B->W))
		return bad;
	static const char *const ops[2][2] = { { "mulmid", "umulhi" }, { "smulmid", "smulhi" } };
	DVal x = a->kind == HE_CONST ? const_node(B, e, a->value, word(B, sa)) : lower(B, a, 0);
	DVal y = b->kind == HE_CONST ? const_node(B, e, b->value, word(B, sa)) : lower(B, b, 0);
	return bin(B, e, ops[sa][k == B->W], x, y, word(B, sa));
}

static DVal lower_wide(Builder *B, const HExpr *e, int low_only)
{
	Interval r = range_of(&B->rc, e);
	HType t;
	int fits = narrow_type(B, r, e->type.is_signed, &t);
	if (!fits)
		t = word(B, e->type.is_signed);
	int64_t k;
	if (e->kind == HE_CONST) {
		if (!fits && !low_only)
			goto wide;
		return const_node(B, e, e->value, t);
	}
	if (e->kind == HE_CAST) {
		if (e->a->type.bits <= B->W) {
			DVal v = lower(B, e->a, 0);
			v.t = fits ? t : word(B, e->a->type.is_signed);
			return v;
		}
		if (!fits && !low_only)
			goto wide;
		DVal v = lower(B, e->a, low_only || fits);
		v.t = t;
		return v;
	}
	if ((low_only || fits) && low_closed(e)) {
		DVal x = lower(B, e->a, 1);
		if (e->kind == HE_UN)
			return e->op == HU_NEG ? bin(B, e, "sub", const_node(B, e, 0, t), x, t) : un(B, e, "not", x, t);
		DVal y = lower(B, e->b, 1);
		return word_bin(B, e, (HBinOp)e->op, x, y, t, t);
	}
	/* the low n bits of x >> k (or x / 2^k, floor) are bits k .. k + n - 1 of x: with n + k <= W,
	 * x's low W bits (a sum of products of words, say) are enough */
	if (low_only && e->kind == HE_BIN && (e->op == HB_SHR || e->op == HB_DIV) && he_is_const(e->b, &k) &&
	    (e->op == HB_SHR ? k >= 0 && k < B->W : k > 0 && log2_exact(k) >= 0) &&
	    B->need + (e->op == HB_SHR ? k : log2_exact(k)) <= B->W && low_closed(e->a)) {
		int sh = e->op == HB_SHR ? (int)k : log2_exact(k), saved = B->need;
		B->need = B->W;
		DVal x = lower(B, e->a, 1);
		B->need = saved;
		DVal v = bin(B, e, "lshr", x, const_node(B, e, sh, t), t);
		v.t = t;
		return v;
	}
	if ((low_only || fits) && e->kind == HE_BIN && e->op == HB_SHR && he_is_const(e->b, &k)) {
		DVal v = mul_high(B, e, (int)k);
		if (v.node >= 0 || B->failed) {
			v.t = t;
			return v;
		}
	}
	if (!fits && !low_only)
		goto wide;
	if (e->kind == HE_BIN || e->kind == HE_SELECT || e->kind == HE_UN) {
		/* every operand must be exact */
		const HExpr *ops[3] = { e->a, e->b, e->c };
		int n = e->kind == HE_UN ? 1 : e->kind == HE_BIN ? 2 : 3;
		Interval all = { 1, 0 };
		for (int i = e->kind == HE_SELECT ? 1 : 0; i < n; i++)
			all = iv_union(all, range_of(&B->rc, ops[i]));
		HType ot;
		if (!narrow_type(B, all, e->a->type.is_signed, &ot)) {
			char *s = he_str(B->L->p, e);
			berr(B, e, "'%s' cannot be computed on %d-bit words: its operands range over [%lld, %lld] and "
				   "it needs their exact values (of wide products only (a * b) >> %d and >> %d are PE "
				   "operations: mulmid, mulhi)", s, B->W, (long long)all.lo, (long long)all.hi, B->W / 2,
			     B->W);
			free(s);
			return bad;
		}
		if (e->kind == HE_SELECT) {
			DVal c = lower(B, e->a, 0), x = lower(B, e->b, 0), y = lower(B, e->c, 0);
			DVal in[3] = { y, x, c };
			return op_node(B, e, "mux", B->W, t, in, 3);
		}
		if (e->kind == HE_UN) {
			DVal x = lower(B, e->a, 0);
			x.t = ot;
			return e->op == HU_ABS && ot.is_signed ? un(B, e, "abs", x, t) : x;
		}
		DVal x = lower(B, e->a, 0);
		DVal y = e->op == HB_DIV || e->op == HB_MOD ? x : lower(B, e->b, 0);
		return word_bin(B, e, (HBinOp)e->op, x, y, ot, hb_is_compare(e->op) ? HT_BOOL : t);
	}
wide:
	{
		char *s = he_str(B->L->p, e);
		berr(B, e, "'%s' needs %d bits: its value ranges over [%lld, %lld], wider than the %d-bit word, "
			   "and it is not a form the PE computes exactly (such as (a * b) >> %d, the mulmid operation)",
		     s, e->type.bits, (long long)r.lo, (long long)r.hi, B->W, B->W / 2);
		free(s);
		return bad;
	}
}

/* ---- types narrower than the word ---- */

/* A value of a type narrower than the word (8-bit data on 16-bit PEs) is held
 * in the word as its value: zero-extended if unsigned, sign-extended if
 * signed. Operations that keep that form (comparisons, min, max, shifts right,
 * bitwise operations of signed values, ...) need nothing more. Those whose
 * exact result can leave the type's range (add, sub, mul, shl, neg, a
 * narrowing cast, ~ of an unsigned value) leave the word "dirty": its low
 * bits are the value's, the others are not. Operations whose low bits depend
 * only on their operands' low bits (add, sub, mul, and, or, xor, shl, neg, ~)
 * take dirty operands as they are; any other use of a dirty word first gets
 * Halide's wrap-around: an and with the type's mask, or a shift left and an
 * arithmetic shift right. */

/* 1 if t is an integer type narrower than the word. */
static int narrow(Builder *B, HType t)
{
	return !ht_is_bool(t) && t.bits < B->W;
}

static int64_t lo4(int64_t a, int64_t b, int64_t c, int64_t d)
{
	int64_t m = a < b ? a : b, n = c < d ? c : d;
	return m < n ? m : n;
}

static int64_t hi4(int64_t a, int64_t b, int64_t c, int64_t d)
{
	int64_t m = a > b ? a : b, n = c > d ? c : d;
	return m > n ? m : n;
}

/* 1 if e's exact (unwrapped) value, given its operands' ranges, can leave
 * its type's range. The operands are at most 16 bits wide here, so no
 * product overflows. */
static int may_wrap(Builder *B, const HExpr *e)
{
	Interval a = { 0, 0 }, b = { 0, 0 }, r;
	if (e->kind == HE_CAST || e->kind == HE_UN || e->kind == HE_BIN)
		a = range_of(&B->rc, e->a);
	if (e->kind == HE_BIN)
		b = range_of(&B->rc, e->b);
	switch (e->kind) {
	case HE_CAST:
		r = a;
		break;
	case HE_UN:
		if (e->op == HU_NOT)
			return !e->type.is_signed;
		if (e->op != HU_NEG)
			return 0;
		r.lo = -a.hi;
		r.hi = -a.lo;
		break;
	case HE_BIN:
		switch (e->op) {
		case HB_ADD: r.lo = a.lo + b.lo; r.hi = a.hi + b.hi; break;
		case HB_SUB: r.lo = a.lo - b.hi; r.hi = a.hi - b.lo; break;
		case HB_MUL:
			r.lo = lo4(a.lo * b.lo, a.lo * b.hi, a.hi * b.lo, a.hi * b.hi);
			r.hi = hi4(a.lo * b.lo, a.lo * b.hi, a.hi * b.lo, a.hi * b.hi);
			break;
		case HB_SHL:
			if (b.lo != b.hi || b.lo < 0 || b.lo >= e->type.bits)
				return 1;
			r.lo = a.lo * ((int64_t)1 << b.lo);
			r.hi = a.hi * ((int64_t)1 << b.lo);
			break;
		case HB_SHR:    /* a negative amount shifts left */
			return b.lo < 0;
		case HB_DIV:    /* by a constant: only -1 leaves the range (-128 / -1) */
			if (b.lo != -1 || b.hi != -1)
				return 0;
			r.lo = -a.hi;
			r.hi = -a.lo;
			break;
		default:
			return 0;
		}
		break;
	default:
		return 0;
	}
	return r.lo < ht_min(e->type) || r.hi > ht_max(e->type);
}

/* v, the dirty word computed for e, brought back into e's type. */
static DVal wrap_narrow(Builder *B, const HExpr *e, DVal v)
{
	HType t = e->type;
	if (!t.is_signed)
		return bin(B, e, "and", v, const_node(B, e, ht_max(t), t), t);
	DVal k = const_node(B, e, B->W - t.bits, t);
	return bin(B, e, "ashr", bin(B, e, "shl", v, k, t), k, t);
}

static DVal lower_exact(Builder *B, const HExpr *e, int low_only);

/* e on W-bit words: its value exactly, or (low_only) its low W bits. */
static DVal lower(Builder *B, const HExpr *e, int low_only)
{
	if (!B->failed && (ht_is_float(e->type) || (e->kind == HE_CAST && ht_is_float(e->a->type)))) {
		const HExpr *f = ht_is_float(e->type) ? e : e->a;
		char *s = he_str(B->L->p, f);
		berr(B, f, "'%s' computes with %s at run time: the PE has no floating-point unit (floating point "
			   "that only constants and table indices reach is folded when compiling)", s, ht_name(f->type));
		free(s);
		return bad;
	}
	DVal v = lower_exact(B, e, low_only);
	if (v.node < 0 || !v.dirty || low_only)
		return v;
	return wrap_narrow(B, e, v);
}

static DVal lower_exact(Builder *B, const HExpr *e, int low_only)
{
	if (B->failed)
		return bad;
	if (e->type.bits > B->W)
		return lower_wide(B, e, low_only);
	switch (e->kind) {
	case HE_CONST:
		return const_node(B, e, e->value, e->type);
	case HE_VAR:
		berr(B, e, "the loop variable '%s' is used as a value and no index stream carries it (one holds "
			   "at most 2^20 points of at most 4 variables): the kernels compute on data only",
		     B->L->p->syms.data[e->sym].name);
		return bad;
	case HE_CALL:
		if (!e->is_image && B->L->prep.is_const[e->callee])
			return rom(B, e);
		return load(B, e);
	case HE_CAST: {
		if (ht_is_bool(e->type))
			return to_bool(B, e, lower(B, e->a, 0));
		if (ht_is_bool(e->a->type))
			return from_bool(B, e, lower(B, e->a, 0), e->type);
		int saved = B->need;
		if (e->a->type.bits > e->type.bits)
			B->need = e->type.bits < B->W ? e->type.bits : B->W;
		DVal v = lower(B, e->a, e->a->type.bits > e->type.bits ? 1 : 0);
		B->need = saved;
		v.t = e->type;
		v.dirty = narrow(B, e->type) && (v.dirty || may_wrap(B, e));
		return v;
	}
	case HE_UN: {
		DVal x = lower(B, e->a, narrow(B, e->type) && low_closed(e)), r;
		switch (e->op) {
		case HU_NEG:
		case HU_NOT:
			r = e->op == HU_NEG ? bin(B, e, "sub", const_node(B, e, 0, e->type), x, e->type)
					    : un(B, e, "not", x, e->type);
			r.dirty = narrow(B, e->type) && (x.dirty || may_wrap(B, e));
			return r;
		case HU_LNOT: return un(B, e, "not1", x, HT_BOOL);
		default:
			if (!e->a->type.is_signed)
				return x;
			return un(B, e, "abs", x, e->type);
		}
	}
	case HE_BIN: {
		/* of an operation whose result's low bits depend only on its operands' low bits, the
		 * operands of a narrow type are not brought back into it: the result is */
		int low = narrow(B, e->type) && low_closed(e);
		DVal x = lower(B, e->a, low);
		DVal y = e->op == HB_DIV || e->op == HB_MOD ? x : lower(B, e->b, low);
		if (x.node < 0 || y.node < 0)
			return bad;
		DVal r = word_bin(B, e, (HBinOp)e->op, x, y, e->a->type, e->type);
		r.dirty = narrow(B, e->type) && (x.dirty || y.dirty || may_wrap(B, e));
		return r;
	}
	case HE_SELECT: {
		DVal c = lower(B, e->a, 0), x = lower(B, e->b, 0), y = lower(B, e->c, 0);
		DVal in[3] = { y, x, c };
		return op_node(B, e, ht_is_bool(e->type) ? "mux1" : "mux", ht_is_bool(e->type) ? 1 : B->W, e->type, in,
			       3);
	}
	case HE_SUM:
	case HE_MATH:
		break;
	}
	berr(B, e, "internal: an unexpanded sum() in a kernel");
	return bad;
}

/* ---- kernels ---- */

static void collect(Builder *B, const LStmt *s)
{
	if (s->kind == LS_STORE && s->func >= 0) {
		DKernel k = { s, { 0 }, -1 };
		vec_push(&B->g->kernels, k);
		B->k = &vec_last(&B->g->kernels);
		strmap_free(&B->cse);
		strmap_init(&B->cse);
		B->failed = 0;
		DVal v = lower(B, s->value, 0);
		B->k->result = v.node;
		return;
	}
	vec_foreach(&s->body, i) collect(B, s->body.data[i]);
}

/* Value ranges of the constant tables are their actual values. */
static void table_ranges(Builder *B)
{
	const HPrep *P = &B->L->prep;
	for (int f = 0; f < B->L->p->funcs.len; f++) {
		const HTable *t = &P->tables[f];
		if (!P->is_const[f] || !t->v)
			continue;
		int64_t n = 1;
		for (int i = 0; i < t->dims; i++)
			n *= t->extent[i];
		Interval r = { 1, 0 };
		for (int64_t i = 0; i < n; i++) {
			Interval one = { t->v[i], t->v[i] };
			r = iv_union(r, one);
		}
		B->rc.func[f] = r;
		B->rc.func_state[f] = 2;
	}
}

int dfg_build(DGraph *g, const LProgram *L, const Collateral *c, Diags *d)
{
	memset(g, 0, sizeof *g);
	g->L = L;
	g->word = c->word;
	Builder B = { g, L, c, d, NULL, { 0 }, { 0 }, c->word, 0, c->word };
	strmap_init(&B.cse);
	range_init(&B.rc, L->p);
	table_ranges(&B);
	int errors = diags_errors(d);
	if (L->accel)
		collect(&B, L->accel);
	strmap_free(&B.cse);
	range_free(&B.rc);
	return diags_errors(d) == errors;
}

void dfg_free(DGraph *g)
{
	vec_foreach(&g->kernels, i) vec_free(&g->kernels.data[i].nodes);
	vec_free(&g->kernels);
}

/* ---- output ---- */

static const char *buf_name(const DGraph *g, int buffer, int is_image)
{
	return is_image ? g->L->p->images.data[buffer].name : g->L->p->funcs.data[buffer].name;
}

static void json_str(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			fputc('\\', f);
		fputc(*s, f);
	}
	fputc('"', f);
}

static void json_index(const DGraph *g, HExpr *const *idx, int n, FILE *f)
{
	fputc('[', f);
	for (int i = 0; i < n; i++) {
		char *s = he_str(g->L->p, idx[i]);
		fputs(i ? ", " : "", f);
		json_str(f, s);
		free(s);
	}
	fputc(']', f);
}

static void json_region(const LRegion *r, FILE *f)
{
	fputc('[', f);
	for (int i = 0; i < r->dims; i++)
		fprintf(f, "%s[%lld, %lld]", i ? ", " : "", (long long)r->min[i], (long long)r->extent[i]);
	fputc(']', f);
}

/* One item { "<key>": name, "region": ... } of a list. */
static void json_region_item(FILE *f, int *first, const char *key, const char *name, const LRegion *r)
{
	fprintf(f, "%s\n    { \"%s\": ", *first ? "" : ",", key);
	json_str(f, name);
	fputs(", \"region\": ", f);
	json_region(r, f);
	fputs(" }", f);
	*first = 0;
}

static void json_node(const DGraph *g, const DNode *n, int id, FILE *f)
{
	fprintf(f, "        { \"id\": %d, \"op\": ", id);
	json_str(f, n->op);
	fprintf(f, ", \"width\": %d", n->width);
	if (n->kind == DN_CONST)
		fprintf(f, ", \"value\": %lld", (long long)n->value);
	if (n->kind == DN_LOAD) {
		fputs(", \"buffer\": ", f);
		json_str(f, buf_name(g, n->buffer, n->is_image));
		fputs(", \"index\": ", f);
		json_index(g, n->index, n->nindex, f);
	}
	if (n->kind == DN_ROM) {
		fputs(", \"table\": ", f);
		json_str(f, buf_name(g, n->buffer, 0));
		if (n->words)
			fprintf(f, ", \"part\": { \"base\": %lld, \"words\": %lld }", (long long)n->base,
				(long long)n->words);
	}
	if (n->nin) {
		fputs(", \"in\": [", f);
		for (int i = 0; i < n->nin; i++)
			fprintf(f, "%s%d", i ? ", " : "", n->in[i]);
		fputc(']', f);
	}
	fputs(" }", f);
}

static void json_tables(const DGraph *g, FILE *f)
{
	const HPrep *P = &g->L->prep;
	int first = 1;
	fputs("  \"roms\": [", f);
	for (int t = 0; t < g->L->p->funcs.len; t++) {
		if (!P->rom[t])
			continue;
		const HTable *tb = &P->tables[t];
		fprintf(f, "%s\n    { \"table\": ", first ? "" : ",");
		json_str(f, g->L->p->funcs.data[t].name);
		LRegion r;
		memset(&r, 0, sizeof r);
		r.dims = tb->dims;
		int64_t n = 1;
		for (int i = 0; i < tb->dims; i++) {
			r.min[i] = tb->min[i];
			r.extent[i] = tb->extent[i];
			n *= tb->extent[i];
		}
		fputs(", \"region\": ", f);
		json_region(&r, f);
		fputs(", \"values\": [", f);
		for (int64_t i = 0; i < n; i++)
			fprintf(f, "%s%lld", i ? ", " : "", (long long)tb->v[i]);
		fputs("] }", f);
		first = 0;
	}
	fputs(first ? "],\n" : "\n  ],\n", f);
}

void dfg_write_json(const DGraph *g, FILE *f)
{
	const HProgram *p = g->L->p;
	fputs("{\n  \"app\": ", f);
	json_str(f, p->file);
	fprintf(f, ",\n  \"word\": %d,\n  \"streams\": [", g->word);
	int first = 1;
	for (int m = 0; m < p->images.len; m++)
		if (g->L->images[m].dims)
			json_region_item(f, &first, "image", p->images.data[m].name, &g->L->images[m]);
	fputs(first ? "],\n" : "\n  ],\n", f);
	fputs("  \"buffers\": [", f);
	first = 1;
	for (int b = 0; b < p->funcs.len; b++)
		if (g->L->funcs[b].dims && b != p->output)
			json_region_item(f, &first, "func", p->funcs.data[b].name, &g->L->funcs[b]);
	fputs(first ? "],\n" : "\n  ],\n", f);
	json_tables(g, f);
	fputs("  \"kernels\": [", f);
	vec_foreach(&g->kernels, i) {
		const DKernel *k = &g->kernels.data[i];
		fprintf(f, "%s\n    {\n      \"func\": ", i ? "," : "");
		json_str(f, p->funcs.data[k->store->func].name);
		fprintf(f, ", \"stage\": %d, \"output\": %s, \"line\": %d,\n      \"store\": ", k->store->def,
			k->store->output ? "true" : "false", k->store->line);
		json_index(g, k->store->index, k->store->nindex, f);
		fprintf(f, ", \"result\": %d,\n      \"nodes\": [\n", k->result);
		vec_foreach(&k->nodes, j) {
			json_node(g, &k->nodes.data[j], j, f);
			fputs(j + 1 < k->nodes.len ? ",\n" : "\n", f);
		}
		fputs("      ]\n    }", f);
	}
	fputs(g->kernels.len ? "\n  ]\n}\n" : "]\n}\n", f);
}

void dfg_print(const DGraph *g, FILE *f)
{
	const HProgram *p = g->L->p;
	fprintf(f, "// %s: %d compute kernel%s on %d-bit words (cgrac --emit dfg)\n", p->file, g->kernels.len,
		g->kernels.len == 1 ? "" : "s", g->word);
	vec_foreach(&g->kernels, i) {
		const DKernel *k = &g->kernels.data[i];
		StrMap counts;
		strmap_init(&counts);
		int ops = 0;
		vec_foreach(&k->nodes, j) {
			const DNode *n = &k->nodes.data[j];
			intptr_t c = 0;
			strmap_get(&counts, n->op, &c);
			strmap_put(&counts, n->op, c + 1);
			ops += n->kind == DN_OP;
		}
		fprintf(f, "%s (line %d): %d operation%s;", p->funcs.data[k->store->func].name, k->store->line, ops,
			ops == 1 ? "" : "s");
		for (int j = 0; j < counts.len; j++)
			fprintf(f, " %s %ld", counts.keys[j], (long)counts.vals[j]);
		fputc('\n', f);
		strmap_free(&counts);
	}
}
