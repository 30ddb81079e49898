/* hl_range.c - interval arithmetic over typed expressions. Each operation is
 * computed exactly on 64-bit intervals and kept only if it fits the result
 * type (else the value may wrap: the type's full range). */
#include <stdlib.h>
#include <string.h>

#include "front.h"

static int64_t mn(int64_t a, int64_t b)
{
	return a < b ? a : b;
}

static int64_t mx(int64_t a, int64_t b)
{
	return a > b ? a : b;
}

Interval iv_type(HType t)
{
	Interval r = { ht_min(t), ht_max(t) };
	return r;
}

Interval iv_union(Interval a, Interval b)
{
	if (a.lo > a.hi)
		return b;
	if (b.lo > b.hi)
		return a;
	Interval r = { mn(a.lo, b.lo), mx(a.hi, b.hi) };
	return r;
}

/* r if it fits t, else t's range. */
static Interval fit(Interval r, HType t)
{
	if (r.lo >= ht_min(t) && r.hi <= ht_max(t))
		return r;
	return iv_type(t);
}

void range_init(RangeCtx *c, const HProgram *p)
{
	memset(c, 0, sizeof *c);
	c->p = p;
	int n = p->syms.len ? p->syms.len : 1;
	c->var = xcalloc((size_t)n, sizeof *c->var);
	c->known = xcalloc((size_t)n, 1);
	int nf = p->funcs.len ? p->funcs.len : 1;
	c->func = xcalloc((size_t)nf, sizeof *c->func);
	c->func_state = xcalloc((size_t)nf, 1);
	for (int i = 0; i < p->syms.len; i++)
		if (p->syms.data[i].kind == SYM_RVAR && p->syms.data[i].rdom >= 0) {
			const HRDom *r = &p->rdoms.data[p->syms.data[i].rdom];
			int d = p->syms.data[i].dim;
			Interval iv = { r->min[d], r->min[d] + r->extent[d] - 1 };
			range_set(c, i, iv);
		}
}

void range_free(RangeCtx *c)
{
	free(c->var);
	free(c->known);
	free(c->func);
	free(c->func_state);
}

void range_set(RangeCtx *c, int sym, Interval iv)
{
	if (sym >= c->p->syms.len)
		return;
	c->var[sym] = iv;
	c->known[sym] = 1;
}

void range_unset(RangeCtx *c, int sym)
{
	if (sym < c->p->syms.len)
		c->known[sym] = 0;
}

static Interval corners(Interval a, Interval b, int64_t (*f)(int64_t, int64_t))
{
	int64_t v[4] = { f(a.lo, b.lo), f(a.lo, b.hi), f(a.hi, b.lo), f(a.hi, b.hi) };
	Interval r = { v[0], v[0] };
	for (int i = 1; i < 4; i++) {
		r.lo = mn(r.lo, v[i]);
		r.hi = mx(r.hi, v[i]);
	}
	return r;
}

static int64_t op_mul(int64_t a, int64_t b)
{
	return a * b;
}

static int64_t op_floordiv(int64_t a, int64_t b)
{
	return hb_eval(HB_DIV, (HType){ 1, 32 }, a, b);
}

static int64_t bitmask_above(int64_t v)
{
	int64_t m = 0;
	while (m < v)
		m = m * 2 + 1;
	return m;
}

static Interval range_bin(HBinOp op, HType t, Interval a, Interval b)
{
	Interval r;
	HType rt = hb_result_type(op, t);
	switch (op) {
	case HB_ADD: r.lo = a.lo + b.lo; r.hi = a.hi + b.hi; return fit(r, rt);
	case HB_SUB: r.lo = a.lo - b.hi; r.hi = a.hi - b.lo; return fit(r, rt);
	case HB_MUL:
		if (t.bits == 32 && (mx(llabs(a.lo), llabs(a.hi)) > INT32_MAX * 2LL ||
				     mx(llabs(b.lo), llabs(b.hi)) > INT32_MAX * 2LL))
			return iv_type(rt);
		return fit(corners(a, b, op_mul), rt);
	case HB_DIV:
		if (b.lo > 0 || b.hi < 0)
			return fit(corners(a, b, op_floordiv), rt);
		if (b.lo == 0 && b.hi == 0)
			return (Interval){ 0, 0 };      /* Halide's x / 0 is 0 */
		r.lo = mn(0, mn(a.lo, -a.hi));
		r.hi = mx(0, mx(a.hi, -a.lo));
		return fit(r, rt);
	case HB_MOD:
		if (b.lo > 0 && a.lo >= 0 && a.hi < b.lo)
			return a;
		r.lo = 0;
		r.hi = mx(mx(llabs(b.lo), llabs(b.hi)) - 1, 0);
		return fit(r, rt);
	case HB_SHL:
		if (b.lo == b.hi && b.lo >= 0 && b.lo < t.bits) {
			r.lo = a.lo * ((int64_t)1 << b.lo);
			r.hi = a.hi * ((int64_t)1 << b.lo);
			return fit(r, rt);
		}
		return iv_type(rt);
	case HB_SHR:
		if (b.lo >= 0 && b.hi < t.bits) {
			r.lo = mn(a.lo >> b.lo, a.lo >> b.hi);
			r.hi = mx(a.hi >> b.lo, a.hi >> b.hi);
			return fit(r, rt);
		}
		return iv_type(rt);
	case HB_AND:
		if (a.lo >= 0 && b.lo >= 0) {
			r.lo = 0;
			r.hi = mn(a.hi, b.hi);
			return r;
		}
		if (a.lo >= 0 || b.lo >= 0) {
			r.lo = 0;
			r.hi = a.lo >= 0 ? a.hi : b.hi;
			return r;
		}
		return iv_type(rt);
	case HB_OR:
	case HB_XOR:
		if (a.lo >= 0 && b.lo >= 0) {
			r.lo = op == HB_OR ? mx(a.lo, b.lo) : 0;
			r.hi = bitmask_above(mx(a.hi, b.hi));
			return fit(r, rt);
		}
		return iv_type(rt);
	case HB_MIN: r.lo = mn(a.lo, b.lo); r.hi = mn(a.hi, b.hi); return r;
	case HB_MAX: r.lo = mx(a.lo, b.lo); r.hi = mx(a.hi, b.hi); return r;
	case HB_ABSD:
		r.lo = 0;
		if (a.lo > b.hi)
			r.lo = a.lo - b.hi;
		else if (b.lo > a.hi)
			r.lo = b.lo - a.hi;
		r.hi = mx(a.hi - b.lo, b.hi - a.lo);
		return fit(r, rt);
	default:
		r.lo = 0;
		r.hi = 1;
		return r;
	}
}

static Interval range_un(HUnOp op, HType t, HType rt, Interval a)
{
	Interval r;
	switch (op) {
	case HU_NEG: r.lo = -a.hi; r.hi = -a.lo; return fit(r, rt);
	case HU_NOT:
		if (t.is_signed) {
			r.lo = ~a.hi;
			r.hi = ~a.lo;
		} else {
			r.lo = ht_max(t) - a.hi;
			r.hi = ht_max(t) - a.lo;
		}
		return r;
	case HU_LNOT: r.lo = 0; r.hi = 1; return r;
	case HU_ABS:
		if (a.lo >= 0)
			return a;
		if (a.hi <= 0) {
			r.lo = -a.hi;
			r.hi = -a.lo;
		} else {
			r.lo = 0;
			r.hi = mx(-a.lo, a.hi);
		}
		return fit(r, rt);
	}
	return iv_type(rt);
}

static Interval range_sum(RangeCtx *c, const HExpr *e)
{
	const HRDom *r = &c->p->rdoms.data[e->rdom];
	int64_t n = 1;
	for (int i = 0; i < r->ndims; i++)
		n *= r->extent[i];
	Interval b = range_of(c, e->a), s;
	if (e->op == HB_MAX || e->op == HB_MIN)
		return b;
	if (e->op == HB_MUL)
		return iv_type(e->type);
	s.lo = b.lo < 0 ? b.lo * n : b.lo;
	s.hi = b.hi > 0 ? b.hi * n : b.hi;
	if (b.lo >= 0)
		s.lo = b.lo * n;
	if (b.hi <= 0)
		s.hi = b.hi * n;
	return fit(s, e->type);
}

/* cond narrowed to `e in [lo, hi]` for its true (then) or false branch:
 * a comparison of e with a constant. 0 if cond is not one. */
static int cond_interval(const HExpr *cond, int then, const HExpr **e, Interval *iv)
{
	int64_t k;
	if (cond->kind != HE_BIN || !hb_is_compare(cond->op) || ht_is_float(cond->a->type))
		return 0;
	HBinOp op = cond->op;
	if (he_is_const(cond->b, &k)) {
		*e = cond->a;
	} else if (he_is_const(cond->a, &k)) {
		*e = cond->b;           /* k op e is e op' k */
		op = op == HB_LT ? HB_GT : op == HB_GT ? HB_LT : op == HB_LE ? HB_GE : op == HB_GE ? HB_LE : op;
	} else {
		return 0;
	}
	if (!then)
		op = op == HB_LT ? HB_GE : op == HB_GE ? HB_LT : op == HB_LE ? HB_GT : op == HB_GT ? HB_LE : HB_COUNT;
	*iv = (Interval){ INT64_MIN, INT64_MAX };
	switch (op) {
	case HB_LT: iv->hi = k - 1; return 1;
	case HB_LE: iv->hi = k; return 1;
	case HB_GT: iv->lo = k + 1; return 1;
	case HB_GE: iv->lo = k; return 1;
	case HB_EQ: iv->lo = iv->hi = k; return 1;
	default: return 0;
	}
}

/* The range of one branch of a select, with what the condition says. */
static Interval range_branch(RangeCtx *c, const HExpr *cond, int then, const HExpr *branch)
{
	const HExpr *e;
	Interval by;
	if (c->nnarrow == RANGE_NARROW_MAX || !cond_interval(cond, then, &e, &by))
		return range_of(c, branch);
	Interval was = range_of(c, e);
	Interval now = { mx(was.lo, by.lo), mn(was.hi, by.hi) };
	if (now.lo > now.hi)
		return now;             /* the branch is never taken: empty */
	c->narrow_e[c->nnarrow] = e;
	c->narrow_iv[c->nnarrow++] = now;
	Interval r = range_of(c, branch);
	c->nnarrow--;
	return r;
}

Interval range_of(RangeCtx *c, const HExpr *e)
{
	Interval r;
	if (ht_is_float(e->type))
		return iv_type(e->type);        /* folded at compile time, never an index or a word */
	for (int i = c->nnarrow - 1; i >= 0; i--)
		if (e == c->narrow_e[i] || he_equal(e, c->narrow_e[i]))
			return c->narrow_iv[i];
	switch (e->kind) {
	case HE_CONST: r.lo = r.hi = e->value; return r;
	case HE_VAR:
		if (e->sym < c->p->syms.len && c->known[e->sym])
			return c->var[e->sym];
		return iv_type(e->type);
	case HE_CALL:
		if (e->is_image)
			return fit(c->p->images.data[e->callee].values, e->type);
		return range_func(c, e->callee);
	case HE_CAST: {
		if (ht_is_float(e->a->type))
			return iv_type(e->type);
		Interval a = range_of(c, e->a);
		if (ht_is_bool(e->type)) {
			r.lo = a.lo > 0 || a.hi < 0;
			r.hi = !(a.lo == 0 && a.hi == 0);
			return r;
		}
		return fit(a, e->type);
	}
	case HE_UN: return range_un(e->op, e->a->type, e->type, range_of(c, e->a));
	case HE_BIN: return range_bin(e->op, e->a->type, range_of(c, e->a), range_of(c, e->b));
	case HE_SELECT: return iv_union(range_branch(c, e->a, 1, e->b), range_branch(c, e->a, 0, e->c));
	case HE_SUM: return range_sum(c, e);
	case HE_MATH: break;
	}
	return iv_type(e->type);
}

Interval range_func(RangeCtx *c, int f)
{
	const HFunc *fn = &c->p->funcs.data[f];
	if (c->func_state[f] == 2)
		return c->func[f];
	if (c->func_state[f] == 1)
		return iv_type(fn->type);
	c->func_state[f] = 1;
	int nnarrow = c->nnarrow;       /* a caller's conditions say nothing of the callee's variables */
	c->nnarrow = 0;
	/* The pure variables range over anything while the definitions are
	 * read; their bindings in the caller's context are saved. */
	Interval saved[16];
	char was[16];
	for (int i = 0; i < fn->dims && i < 16; i++) {
		was[i] = c->known[fn->vars[i]];
		saved[i] = c->var[fn->vars[i]];
		range_unset(c, fn->vars[i]);
	}
	Interval r = { 1, 0 };
	vec_foreach(&fn->defs, k) r = iv_union(r, range_of(c, fn->defs.data[k].value));
	for (int i = 0; i < fn->dims && i < 16; i++) {
		c->known[fn->vars[i]] = was[i];
		c->var[fn->vars[i]] = saved[i];
	}
	c->nnarrow = nnarrow;
	c->func[f] = r;
	c->func_state[f] = 2;
	return r;
}
