/* hl_simplify.c - substitution and a small simplifier for the expressions the
 * lowering builds: constant folding, neutral elements (x + 0, x * 1, x * 0,
 * x >> 0), and for int32 index expressions the collection of constant terms
 * (x + 1 + 2 is x + 3). Everything is rebuilt in the arena; inputs are not
 * changed. */
#include <string.h>

#include "front.h"

static int is_k(const HExpr *e, int64_t k)
{
	int64_t v;
	return he_is_const(e, &v) && v == k;
}

/* x + c as (x, c) for int32 expressions. */
static const HExpr *split_const(const HExpr *e, int64_t *c)
{
	int64_t v;
	*c = 0;
	if (e->kind == HE_BIN && e->type.is_signed && e->type.bits == 32 && he_is_const(e->b, &v)) {
		if (e->op == HB_ADD) {
			*c = v;
			return e->a;
		}
		if (e->op == HB_SUB) {
			*c = -v;
			return e->a;
		}
	}
	return e;
}

static HExpr *simplify_bin(Arena *a, HExpr *e)
{
	HExpr *x = e->a, *y = e->b;
	int64_t v;
	switch (e->op) {
	case HB_ADD:
		if (is_k(y, 0))
			return x;
		if (is_k(x, 0))
			return y;
		if (he_is_const(x, &v) && !he_is_const(y, NULL))
			return hs_simplify(a, he_bin(a, HB_ADD, e->type, y, x));
		break;
	case HB_SUB:
		if (is_k(y, 0))
			return x;
		break;
	case HB_MUL:
		if (is_k(y, 1))
			return x;
		if (is_k(x, 1))
			return y;
		if (is_k(x, 0) || is_k(y, 0))
			return he_const(a, e->type, 0);
		break;
	case HB_DIV:
		if (is_k(y, 1))
			return x;
		break;
	case HB_SHL:
	case HB_SHR:
		if (is_k(y, 0))
			return x;
		break;
	default:
		break;
	}
	/* int32: (x + c1) + c2 and (x + c1) - c2 */
	if ((e->op == HB_ADD || e->op == HB_SUB) && e->type.is_signed && e->type.bits == 32 &&
	    he_is_const(y, &v)) {
		int64_t c1;
		const HExpr *base = split_const(x, &c1);
		if (base != x) {
			int64_t c = c1 + (e->op == HB_ADD ? v : -v);
			if (c == 0)
				return (HExpr *)base;
			HExpr *r = he_bin(a, c > 0 ? HB_ADD : HB_SUB, e->type, (HExpr *)base,
					  he_const(a, e->type, c > 0 ? c : -c));
			r->line = e->line;
			r->col = e->col;
			return r;
		}
		if (e->op == HB_ADD && v < 0) {
			HExpr *r = he_bin(a, HB_SUB, e->type, x, he_const(a, e->type, -v));
			r->line = e->line;
			r->col = e->col;
			return r;
		}
	}
	return e;
}

HExpr *hs_simplify(Arena *a, HExpr *e)
{
	e = he_fold(a, e);
	/* floating point: constant folding only (x * 1 and the like keep IEEE's signs and NaNs) */
	if (e->kind == HE_BIN && !ht_is_float(e->type) && !ht_is_float(e->a->type))
		return simplify_bin(a, e);
	return e;
}

static HExpr *subst(Arena *a, const HExpr *e, const HSubst *s)
{
	if (!e)
		return NULL;
	if (e->kind == HE_VAR) {
		for (int i = 0; i < s->n; i++)
			if (s->sym[i] == e->sym)
				return s->val[i];
		return (HExpr *)e;
	}
	if (e->kind == HE_CALL && s->call_fn) {
		HExpr *r = s->call_fn(a, e, s);
		if (r)
			return r;
	}
	HExpr *c = he_copy(a, e);
	c->a = subst(a, e->a, s);
	c->b = subst(a, e->b, s);
	c->c = subst(a, e->c, s);
	if (e->nargs) {
		c->args = arena_alloc(a, sizeof *c->args * (size_t)e->nargs);
		for (int i = 0; i < e->nargs; i++)
			c->args[i] = subst(a, e->args[i], s);
	}
	he_set_depth(c);
	return hs_simplify(a, c);
}

HExpr *hs_subst(Arena *a, const HExpr *e, const HSubst *s)
{
	return subst(a, e, s);
}

HExpr *hs_subst1(Arena *a, const HExpr *e, int sym, HExpr *val)
{
	HSubst s = { &sym, &val, 1, NULL, NULL };
	return subst(a, e, &s);
}

/* Collects the terms of an add chain of type t. */
static void terms(HExpr *e, HType t, HExpr ***out, int *n, int *cap)
{
	if (e->kind == HE_BIN && e->op == HB_ADD && ht_eq(e->type, t)) {
		terms(e->a, t, out, n, cap);
		terms(e->b, t, out, n, cap);
		return;
	}
	if (*n == *cap) {
		*cap = *cap ? *cap * 2 : 16;
		*out = xrealloc(*out, sizeof **out * (size_t)*cap);
	}
	(*out)[(*n)++] = e;
}

static HExpr *balance(Arena *a, HType t, HExpr **v, int n)
{
	if (n == 1)
		return v[0];
	int h = n / 2;
	return he_bin(a, HB_ADD, t, balance(a, t, v, h), balance(a, t, v + h, n - h));
}

HExpr *hs_balance(Arena *a, HBinOp op, HType t, HExpr **v, int n)
{
	if (n == 1)
		return v[0];
	int h = n / 2;
	return he_bin(a, op, t, hs_balance(a, op, t, v, h), hs_balance(a, op, t, v + h, n - h));
}

HExpr *hs_balance_sum(Arena *a, HType t, HExpr **v, int n)
{
	HExpr **all = NULL;
	int m = 0, cap = 0;
	int64_t k = 0;
	for (int i = 0; i < n; i++)
		terms(v[i], t, &all, &m, &cap);
	int kept = 0;
	for (int i = 0; i < m; i++) {
		int64_t c;
		if (he_is_const(all[i], &c))
			k += c;
		else
			all[kept++] = all[i];
	}
	k = ht_wrap(t, k);
	if (k != 0 || kept == 0) {
		if (kept == cap) {
			cap = cap ? cap * 2 : 16;
			all = xrealloc(all, sizeof *all * (size_t)cap);
		}
		all[kept++] = he_const(a, t, k);
	}
	HExpr *r = balance(a, t, all, kept);
	free(all);
	return r;
}
