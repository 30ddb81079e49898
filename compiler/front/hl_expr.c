/* hl_expr.c - Halide's types and typed expressions: constructors, Halide's
 * type matching (match_types of IROperator.cpp: equal types stay; two
 * unsigned types widen to the wider; otherwise both become the signed type of
 * the wider width), evaluation of constant operations with Halide's semantics,
 * constant folding, structural equality and printing. */
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "front.h"

/* ---- types ---- */

int ht_eq(HType a, HType b)
{
	return a.is_signed == b.is_signed && a.bits == b.bits;
}

int ht_is_bool(HType t)
{
	return !t.is_signed && t.bits == 1;
}

int ht_is_float(HType t)
{
	return t.is_signed == 2;
}

const char *ht_name(HType t)
{
	static const char *const u[] = { "bool", "uint8", "uint16", "uint32" };
	static const char *const s[] = { "int1", "int8", "int16", "int32" };
	if (ht_is_float(t))
		return t.bits == 64 ? "float64" : "float32";
	int i = t.bits == 1 ? 0 : t.bits == 8 ? 1 : t.bits == 16 ? 2 : 3;
	return t.is_signed ? s[i] : u[i];
}

int64_t ht_min(HType t)
{
	if (ht_is_float(t))
		return INT64_MIN / 4;
	return t.is_signed ? -((int64_t)1 << (t.bits - 1)) : 0;
}

int64_t ht_max(HType t)
{
	if (ht_is_float(t))
		return INT64_MAX / 4;
	return t.is_signed ? ((int64_t)1 << (t.bits - 1)) - 1 : ((int64_t)1 << t.bits) - 1;
}

double hv_float(int64_t bits)
{
	double v;
	memcpy(&v, &bits, sizeof v);
	return v;
}

int64_t hv_bits(HType t, double v)
{
	if (t.bits == 32)
		v = (float)v;
	int64_t b;
	memcpy(&b, &v, sizeof b);
	return b;
}

int64_t hv_cast(HType to, HType from, int64_t v)
{
	if (ht_is_float(to))
		return hv_bits(to, ht_is_float(from) ? hv_float(v) : (double)v);
	if (!ht_is_float(from))
		return ht_wrap(to, v);
	double f = hv_float(v);
	if (ht_is_bool(to))
		return f != 0;
	/* towards zero; beyond int64 (undefined in Halide) saturated */
	f = trunc(f);
	int64_t i = f != f ? 0 : f >= 9.2e18 ? INT64_MAX : f <= -9.2e18 ? INT64_MIN : (int64_t)f;
	return ht_wrap(to, i);
}

int64_t ht_wrap(HType t, int64_t v)
{
	if (ht_is_float(t))
		return v;
	if (t.bits == 1)
		return v != 0;
	uint64_t mask = ((uint64_t)1 << t.bits) - 1;
	uint64_t u = (uint64_t)v & mask;
	if (t.is_signed && (u >> (t.bits - 1)))
		return (int64_t)(u | ~mask);
	return (int64_t)u;
}

int ht_sample_bits(HType t)
{
	return t.bits <= 8 ? 8 : 16;
}

uint64_t ht_stream_word(HType t, uint16_t sample, int W)
{
	uint64_t mask = W >= 64 ? ~(uint64_t)0 : ((uint64_t)1 << W) - 1;
	return (uint64_t)ht_wrap(t, sample) & mask;
}

/* ---- operators ---- */

static const char *const bin_names[HB_COUNT] = {
	"+", "-", "*", "/", "%", "<<", ">>", "&", "|", "^", "&&", "||",
	"==", "!=", "<", "<=", ">", ">=", "min", "max", "absd",
};

const char *hb_name(HBinOp op)
{
	return bin_names[op];
}

int hb_is_compare(HBinOp op)
{
	return op >= HB_EQ && op <= HB_GE;
}

HType hb_result_type(HBinOp op, HType t)
{
	if (hb_is_compare(op) || op == HB_LAND || op == HB_LOR)
		return HT_BOOL;
	if (op == HB_ABSD && !ht_is_float(t))
		return (HType){ 0, t.bits };
	return t;
}

/* Euclidean division and remainder as Halide defines them for integers:
 * the remainder is never negative; dividing by zero gives zero. */
static int64_t div_euclid(int64_t x, int64_t y)
{
	if (y == 0)
		return 0;
	int64_t q = x / y, r = x % y;
	if (r < 0)
		q += y > 0 ? -1 : 1;
	return q;
}

static int64_t mod_euclid(int64_t x, int64_t y)
{
	if (y == 0)
		return 0;
	int64_t r = x % y;
	if (r < 0)
		r += y > 0 ? y : -y;
	return r;
}

static int64_t shift(HType t, int64_t x, int64_t s, int left)
{
	if (s < 0) {
		s = -s;
		left = !left;
	}
	if (left)
		return s >= t.bits ? 0 : ht_wrap(t, (int64_t)((uint64_t)x << s));
	if (s >= t.bits)
		return t.is_signed && x < 0 ? -1 : 0;
	return x >> s;          /* x is already in range: arithmetic for signed */
}

/* op on float values of type t: computed in double and rounded to the type,
 * which for + - * / of float32 values is float32 arithmetic exactly. */
static int64_t fb_eval(HBinOp op, HType t, int64_t xb, int64_t yb)
{
	double x = hv_float(xb), y = hv_float(yb), r;
	switch (op) {
	case HB_ADD: r = x + y; break;
	case HB_SUB: r = x - y; break;
	case HB_MUL: r = x * y; break;
	case HB_DIV: r = x / y; break;
	case HB_MOD: r = y == 0 ? 0 : x - y * floor(x / y); break;    /* Halide's float %: the floor remainder */
	case HB_EQ: return x == y;
	case HB_NE: return x != y;
	case HB_LT: return x < y;
	case HB_LE: return x <= y;
	case HB_GT: return x > y;
	case HB_GE: return x >= y;
	case HB_MIN: r = x < y ? x : y; break;
	case HB_MAX: r = x > y ? x : y; break;
	case HB_ABSD: r = fabs(x - y); break;
	default: ICE("binary operator %d on floats", op);
	}
	return hv_bits(t, r);
}

const char *hm_name(HMathOp op)
{
	static const char *const n[HM_COUNT] = { "exp", "log", "sqrt", "pow", "floor", "ceil", "round", "trunc",
						 "sin", "cos" };
	return n[op];
}

int64_t hm_eval(HMathOp op, HType t, int64_t xb, int64_t yb)
{
	double x = hv_float(xb), y = hv_float(yb), r;
	int f = t.bits == 32;
	switch (op) {
	case HM_EXP: r = f ? expf((float)x) : exp(x); break;
	case HM_LOG: r = f ? logf((float)x) : log(x); break;
	case HM_SQRT: r = f ? sqrtf((float)x) : sqrt(x); break;
	case HM_POW: r = f ? powf((float)x, (float)y) : pow(x, y); break;
	case HM_FLOOR: r = floor(x); break;
	case HM_CEIL: r = ceil(x); break;
	case HM_ROUND: r = rint(x); break;      /* to nearest, ties to even */
	case HM_TRUNC: r = trunc(x); break;
	case HM_SIN: r = f ? sinf((float)x) : sin(x); break;
	case HM_COS: r = f ? cosf((float)x) : cos(x); break;
	default: ICE("math function %d", op);
	}
	return hv_bits(t, r);
}

int64_t hb_eval(HBinOp op, HType t, int64_t x, int64_t y)
{
	HType rt = hb_result_type(op, t);
	if (ht_is_float(t))
		return fb_eval(op, t, x, y);
	switch (op) {
	case HB_ADD: return ht_wrap(rt, x + y);
	case HB_SUB: return ht_wrap(rt, x - y);
	case HB_MUL: return ht_wrap(rt, (int64_t)((uint64_t)x * (uint64_t)y));
	case HB_DIV: return ht_wrap(rt, div_euclid(x, y));
	case HB_MOD: return ht_wrap(rt, mod_euclid(x, y));
	case HB_SHL: return shift(t, x, y, 1);
	case HB_SHR: return shift(t, x, y, 0);
	case HB_AND: return ht_wrap(rt, x & y);
	case HB_OR: return ht_wrap(rt, x | y);
	case HB_XOR: return ht_wrap(rt, x ^ y);
	case HB_LAND: return x && y;
	case HB_LOR: return x || y;
	case HB_EQ: return x == y;
	case HB_NE: return x != y;
	case HB_LT: return x < y;
	case HB_LE: return x <= y;
	case HB_GT: return x > y;
	case HB_GE: return x >= y;
	case HB_MIN: return x < y ? x : y;
	case HB_MAX: return x > y ? x : y;
	case HB_ABSD: return ht_wrap(rt, x > y ? x - y : y - x);
	case HB_COUNT: break;
	}
	ICE("binary operator %d", op);
}

int64_t hu_eval(HUnOp op, HType rt, int64_t x)
{
	if (ht_is_float(rt) && op != HU_LNOT)
		return hv_bits(rt, op == HU_NEG ? -hv_float(x) : fabs(hv_float(x)));
	switch (op) {
	case HU_NEG: return ht_wrap(rt, -x);
	case HU_NOT: return ht_wrap(rt, ~x);
	case HU_LNOT: return !x;
	case HU_ABS: return ht_wrap(rt, x < 0 ? -x : x);
	}
	ICE("unary operator %d", op);
}

/* ---- constructors ---- */

static HExpr *node(Arena *a, HExprKind k, HType t)
{
	HExpr *e = arena_alloc(a, sizeof *e);
	e->kind = k;
	e->type = t;
	e->sym = e->callee = e->rdom = -1;
	e->depth = 1;
	e->size = 1;
	return e;
}

static void add_kid(const HExpr *k, int *depth, int64_t *size)
{
	if (!k)
		return;
	if (k->depth > *depth)
		*depth = k->depth;
	*size += k->size;
}

void he_set_depth(HExpr *e)
{
	int m = 0;
	int64_t n = 1;
	add_kid(e->a, &m, &n);
	add_kid(e->b, &m, &n);
	add_kid(e->c, &m, &n);
	for (int i = 0; i < e->nargs; i++)
		add_kid(e->args[i], &m, &n);
	e->depth = m + 1;
	e->size = n > INT_MAX ? INT_MAX : (int)n;
}

HExpr *he_const(Arena *a, HType t, int64_t v)
{
	HExpr *e = node(a, HE_CONST, t);
	e->value = ht_wrap(t, v);
	return e;
}

HExpr *he_math(Arena *a, HMathOp op, HExpr *x, HExpr *y)
{
	HExpr *e = node(a, HE_MATH, x->type);
	e->op = op;
	e->a = x;
	e->b = y;
	he_set_depth(e);
	return e;
}

HExpr *he_var(Arena *a, int sym)
{
	HExpr *e = node(a, HE_VAR, HT_I32);
	e->sym = sym;
	return e;
}

HExpr *he_cast(Arena *a, HType t, HExpr *x)
{
	if (ht_eq(t, x->type))
		return x;
	HExpr *e = node(a, HE_CAST, t);
	e->a = x;
	he_set_depth(e);
	return e;
}

HExpr *he_un(Arena *a, HUnOp op, HType t, HExpr *x)
{
	HExpr *e = node(a, HE_UN, t);
	e->op = op;
	e->a = x;
	he_set_depth(e);
	return e;
}

HExpr *he_bin(Arena *a, HBinOp op, HType t, HExpr *x, HExpr *y)
{
	HExpr *e = node(a, HE_BIN, t);
	e->op = op;
	e->a = x;
	e->b = y;
	he_set_depth(e);
	return e;
}

HExpr *he_select(Arena *a, HExpr *c, HExpr *t, HExpr *f)
{
	HExpr *e = node(a, HE_SELECT, t->type);
	e->a = c;
	e->b = t;
	e->c = f;
	he_set_depth(e);
	return e;
}

HExpr *he_call(Arena *a, int callee, int is_image, HType t, HExpr **args, int nargs)
{
	HExpr *e = node(a, HE_CALL, t);
	e->callee = callee;
	e->is_image = is_image;
	e->args = arena_alloc(a, sizeof *e->args * (size_t)(nargs ? nargs : 1));
	memcpy(e->args, args, sizeof *args * (size_t)nargs);
	e->nargs = nargs;
	he_set_depth(e);
	return e;
}

HExpr *he_copy(Arena *a, const HExpr *e)
{
	HExpr *c = arena_alloc(a, sizeof *c);
	*c = *e;
	return c;
}

static void match_types(Arena *a, HExpr **x, HExpr **y)
{
	HType tx = (*x)->type, ty = (*y)->type;
	if (ht_eq(tx, ty))
		return;
	if (ht_is_float(tx) || ht_is_float(ty)) {
		/* a float meets an integer: the integer becomes the float type; two floats: the wider */
		HType t = !ht_is_float(ty) ? tx : !ht_is_float(tx) ? ty : tx.bits > ty.bits ? tx : ty;
		*x = he_cast(a, t, *x);
		*y = he_cast(a, t, *y);
		return;
	}
	if (!tx.is_signed && !ty.is_signed) {
		if (tx.bits > ty.bits)
			*y = he_cast(a, tx, *y);
		else
			*x = he_cast(a, ty, *x);
		return;
	}
	HType t = { 1, tx.bits > ty.bits ? tx.bits : ty.bits };
	*x = he_cast(a, t, *x);
	*y = he_cast(a, t, *y);
}

HExpr *he_binop_matched(Arena *a, HBinOp op, HExpr *x, HExpr *y)
{
	match_types(a, &x, &y);
	return he_bin(a, op, hb_result_type(op, x->type), x, y);
}

int he_is_const(const HExpr *e, int64_t *v)
{
	if (e->kind != HE_CONST)
		return 0;
	if (v)
		*v = e->value;
	return 1;
}

int he_equal(const HExpr *x, const HExpr *y)
{
	if (x == y)
		return 1;
	if (x->kind != y->kind || !ht_eq(x->type, y->type) || x->op != y->op)
		return 0;
	switch (x->kind) {
	case HE_CONST: return x->value == y->value;
	case HE_VAR: return x->sym == y->sym;
	case HE_CALL:
		if (x->callee != y->callee || x->is_image != y->is_image || x->nargs != y->nargs)
			return 0;
		for (int i = 0; i < x->nargs; i++)
			if (!he_equal(x->args[i], y->args[i]))
				return 0;
		return 1;
	case HE_CAST:
	case HE_UN: return he_equal(x->a, y->a);
	case HE_BIN: return he_equal(x->a, y->a) && he_equal(x->b, y->b);
	case HE_SELECT: return he_equal(x->a, y->a) && he_equal(x->b, y->b) && he_equal(x->c, y->c);
	case HE_SUM: return x->rdom == y->rdom && x->op == y->op && he_equal(x->a, y->a);
	case HE_MATH: return he_equal(x->a, y->a) && (!x->b || he_equal(x->b, y->b));
	}
	return 0;
}

int he_fold_overflows(const HExpr *e)
{
	int64_t x, y, r;
	if ((e->kind != HE_BIN && e->kind != HE_UN) || ht_is_float(e->type) || !e->type.is_signed ||
	    e->type.bits < 32 || !he_is_const(e->a, &x) || (e->kind == HE_BIN && !he_is_const(e->b, &y)))
		return 0;
	int64_t lo = ht_min(e->type), hi = ht_max(e->type);
	if (e->kind == HE_UN)
		return e->op == HU_NEG && x == lo;
	switch (e->op) {
	case HB_ADD: return __builtin_add_overflow(x, y, &r) || r < lo || r > hi;
	case HB_SUB: return __builtin_sub_overflow(x, y, &r) || r < lo || r > hi;
	case HB_MUL: return __builtin_mul_overflow(x, y, &r) || r < lo || r > hi;
	case HB_DIV: return x == lo && y == -1;
	default: return 0;
	}
}

HExpr *he_fold(Arena *a, HExpr *e)
{
	int64_t x, y, c;
	switch (e->kind) {
	case HE_CAST:
		if (he_is_const(e->a, &x))
			return he_const(a, e->type, hv_cast(e->type, e->a->type, x));
		break;
	case HE_MATH:
		if (he_is_const(e->a, &x) && (!e->b || he_is_const(e->b, &y)))
			return he_const(a, e->type, hm_eval((HMathOp)e->op, e->type, x, e->b ? e->b->value : 0));
		break;
	case HE_UN:
		if (he_is_const(e->a, &x))
			return he_const(a, e->type, hu_eval(e->op, e->type, x));
		break;
	case HE_BIN:
		if (he_is_const(e->a, &x) && he_is_const(e->b, &y))
			return he_const(a, e->type, hb_eval(e->op, e->a->type, x, y));
		break;
	case HE_SELECT:
		if (he_is_const(e->a, &c))
			return c ? e->b : e->c;
		break;
	default:
		break;
	}
	return e;
}

/* ---- walks ---- */

static int calls(const HExpr *e, int f)
{
	if (!e)
		return 0;
	if (e->kind == HE_CALL && (f < 0 || (!e->is_image && e->callee == f)))
		return 1;
	if (calls(e->a, f) || calls(e->b, f) || calls(e->c, f))
		return 1;
	for (int i = 0; i < e->nargs; i++)
		if (calls(e->args[i], f))
			return 1;
	return 0;
}

int he_calls_any(const HExpr *e)
{
	return calls(e, -1);
}

int he_calls(const HExpr *e, int f)
{
	return calls(e, f);
}

void hrdom_first(const HRDom *r, int64_t *pt)
{
	for (int i = 0; i < r->ndims; i++)
		pt[i] = r->min[i];
}

int hrdom_next(const HRDom *r, int64_t *pt)
{
	for (int i = 0; i < r->ndims; i++) {
		if (++pt[i] < r->min[i] + r->extent[i])
			return 1;
		pt[i] = r->min[i];
	}
	return 0;
}

/* ---- reduction domains ---- */

static int rdom_of(const HProgram *p, const HExpr *e, int bound)
{
	if (!e)
		return -1;
	if (e->kind == HE_VAR && p->syms.data[e->sym].kind == SYM_RVAR && p->syms.data[e->sym].rdom != bound)
		return p->syms.data[e->sym].rdom;
	if (e->kind == HE_SUM)
		return rdom_of(p, e->a, e->rdom);
	int r;
	if ((r = rdom_of(p, e->a, bound)) >= 0 || (r = rdom_of(p, e->b, bound)) >= 0 ||
	    (r = rdom_of(p, e->c, bound)) >= 0)
		return r;
	for (int i = 0; i < e->nargs; i++)
		if ((r = rdom_of(p, e->args[i], bound)) >= 0)
			return r;
	return -1;
}

int he_expr_rdom(const HProgram *p, const HExpr *e)
{
	return rdom_of(p, e, -1);
}

int he_def_rdom(const HProgram *p, const HDef *d)
{
	int r = rdom_of(p, d->value, -1);
	for (int i = 0; r < 0 && i < d->nlhs; i++)
		r = rdom_of(p, d->lhs[i], -1);
	return r;
}

/* ---- printing ---- */

/* Precedence of a printed node: higher binds tighter. */
static int prec(const HExpr *e)
{
	if (e->kind == HE_UN && e->op != HU_ABS)
		return 14;
	if (e->kind == HE_CONST && !ht_is_float(e->type) && e->value < 0)
		return 14;      /* written with its sign: -(-5), not --5 */
	if (e->kind != HE_BIN)
		return 100;
	switch (e->op) {
	case HB_MUL: case HB_DIV: case HB_MOD: return 13;
	case HB_ADD: case HB_SUB: return 12;
	case HB_SHL: case HB_SHR: return 11;
	case HB_LT: case HB_LE: case HB_GT: case HB_GE: return 10;
	case HB_EQ: case HB_NE: return 9;
	case HB_AND: return 8;
	case HB_XOR: return 7;
	case HB_OR: return 6;
	case HB_LAND: return 5;
	case HB_LOR: return 4;
	default: return 100;    /* min, max, absd print as calls */
	}
}

const char *hl_sym_name(const HProgram *p, int sym)
{
	return p->syms.data[sym].name;
}

static void print(const HProgram *p, const HExpr *e, StrBuf *out);

static void print_sub(const HProgram *p, const HExpr *e, StrBuf *out, int need)
{
	if (prec(e) < need) {
		sb_printf(out, "(");
		print(p, e, out);
		sb_printf(out, ")");
	} else {
		print(p, e, out);
	}
}

static void print_args(const HProgram *p, HExpr *const *args, int n, StrBuf *out)
{
	for (int i = 0; i < n; i++) {
		sb_printf(out, "%s", i ? ", " : "");
		print(p, args[i], out);
	}
}

static void print(const HProgram *p, const HExpr *e, StrBuf *out)
{
	static const char *const un[] = { "-", "~", "!", "abs" };
	switch (e->kind) {
	case HE_CONST:
		if (ht_is_float(e->type))
			sb_printf(out, "%.9g%s", hv_float(e->value), e->type.bits == 32 ? "f" : "");
		else if (e->type.is_signed && e->type.bits == 32)
			sb_printf(out, "%lld", (long long)e->value);
		else if (ht_is_bool(e->type))
			sb_printf(out, "%s", e->value ? "true" : "false");
		else
			sb_printf(out, "(%s)%lld", ht_name(e->type), (long long)e->value);
		return;
	case HE_VAR:
		sb_printf(out, "%s", hl_sym_name(p, e->sym));
		return;
	case HE_CALL:
		sb_printf(out, "%s(", e->is_image ? p->images.data[e->callee].name
						  : p->funcs.data[e->callee].name);
		print_args(p, e->args, e->nargs, out);
		sb_printf(out, ")");
		return;
	case HE_CAST:
		sb_printf(out, "%s(", ht_name(e->type));
		print(p, e->a, out);
		sb_printf(out, ")");
		return;
	case HE_UN:
		if (e->op == HU_ABS) {
			sb_printf(out, "abs(");
			print(p, e->a, out);
			sb_printf(out, ")");
		} else {
			sb_printf(out, "%s", un[e->op]);
			print_sub(p, e->a, out, 15);
		}
		return;
	case HE_BIN:
		if (prec(e) == 100) {
			sb_printf(out, "%s(", hb_name(e->op));
			print(p, e->a, out);
			sb_printf(out, ", ");
			print(p, e->b, out);
			sb_printf(out, ")");
		} else {
			print_sub(p, e->a, out, prec(e));
			sb_printf(out, " %s ", hb_name(e->op));
			print_sub(p, e->b, out, prec(e) + 1);
		}
		return;
	case HE_SELECT:
		sb_printf(out, "select(");
		print(p, e->a, out);
		sb_printf(out, ", ");
		print(p, e->b, out);
		sb_printf(out, ", ");
		print(p, e->c, out);
		sb_printf(out, ")");
		return;
	case HE_SUM:
		sb_printf(out, "%s(%s: ", e->op == HB_MUL ? "product" : e->op == HB_MAX ? "maximum" : e->op == HB_MIN ?
			  "minimum" : "sum", p->rdoms.data[e->rdom].name);
		print(p, e->a, out);
		sb_printf(out, ")");
		return;
	case HE_MATH:
		sb_printf(out, "%s(", hm_name((HMathOp)e->op));
		print(p, e->a, out);
		if (e->b) {
			sb_printf(out, ", ");
			print(p, e->b, out);
		}
		sb_printf(out, ")");
		return;
	}
}

void he_print(const HProgram *p, const HExpr *e, StrBuf *out)
{
	print(p, e, out);
}

char *he_str(const HProgram *p, const HExpr *e)
{
	StrBuf b = { 0 };
	sb_printf(&b, "%s", "");
	print(p, e, &b);
	return b.s;
}

int64_t he_reduce_init(HBinOp op, HType t)
{
	if (ht_is_float(t))
		return hv_bits(t, op == HB_MUL ? 1.0 : op == HB_MAX ? -INFINITY : op == HB_MIN ? INFINITY : 0.0);
	switch (op) {
	case HB_MUL: return 1;
	case HB_MAX: return ht_min(t);
	case HB_MIN: return ht_max(t);
	default: return 0;
	}
}

int hl_new_func(HProgram *p, const char *name, int line, int col)
{
	HFunc f = { 0 };
	f.name = arena_strdup(p->arena, name);
	f.line = line;
	f.col = col;
	f.compute.kind = f.store.kind = LEVEL_INLINE;
	f.compute.func = f.store.func = f.compute.var = f.store.var = -1;
	f.wrapper_of = f.wrapper_for = -1;
	vec_push(&p->funcs, f);
	return p->funcs.len - 1;
}

void hl_pure_vars(HProgram *p, int f, HType type, int dims)
{
	HFunc *fn = &p->funcs.data[f];
	fn->dims = dims;
	fn->type = type;
	fn->vars = arena_alloc(p->arena, sizeof *fn->vars * (size_t)(dims ? dims : 1));
	for (int i = 0; i < dims; i++) {
		HSym s = { SYM_VAR, arena_printf(p->arena, "%s.v%d", fn->name, i), -1, -1, fn->line, fn->col };
		vec_push(&p->syms, s);
		p->funcs.data[f].vars[i] = p->syms.len - 1;
	}
}

void hl_define_pure(HProgram *p, int f, HExpr *body)
{
	HFunc *fn = &p->funcs.data[f];
	HExpr **lhs = arena_alloc(p->arena, sizeof *lhs * (size_t)(fn->dims ? fn->dims : 1));
	HDef d = { lhs, fn->dims, body, 0, fn->line, fn->col, { { 0 }, { 0 }, { 0 }, 0, 0 } };
	for (int i = 0; i < fn->dims; i++) {
		lhs[i] = he_var(p->arena, fn->vars[i]);
		vec_push(&d.sched.dims, fn->vars[i]);
		vec_push(&d.sched.unrolled, 0);
	}
	vec_push(&fn->defs, d);
	fn->defined = 1;
}
