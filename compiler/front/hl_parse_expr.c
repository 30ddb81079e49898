/* hl_parse_expr.c - expressions of the application language with Halide's
 * type rules (hl_parse.h): casts and types, calls of Funcs and images,
 * builtins (min, max, clamp, select, abs, absd, sum, ...), operators by
 * C++ precedence. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "hl_parse.h"

/* ---- types ---- */

/* A C++ type name in cast<T> or a concise cast name. */
static int ctype(const char *s, HType *t)
{
	static const struct { const char *n; HType t; } tab[] = {
		{ "uint16_t", { 0, 16 } }, { "int16_t", { 1, 16 } }, { "uint32_t", { 0, 32 } },
		{ "int32_t", { 1, 32 } }, { "int", { 1, 32 } }, { "bool", { 0, 1 } },
		{ "uint8_t", { 0, 8 } }, { "int8_t", { 1, 8 } }, { "u16", { 0, 16 } },
		{ "i16", { 1, 16 } }, { "u32", { 0, 32 } }, { "i32", { 1, 32 } }, { "u8", { 0, 8 } },
		{ "i8", { 1, 8 } }, { "float", { 2, 32 } }, { "double", { 2, 64 } }, { "f32", { 2, 32 } },
		{ "f64", { 2, 64 } },
	};
	for (size_t i = 0; i < sizeof tab / sizeof *tab; i++)
		if (tab[i].n[0] == s[0] && strcmp(tab[i].n, s) == 0) {      /* (the parser asks often) */
			*t = tab[i].t;
			return 1;
		}
	return 0;
}

/* The names of C++'s own types: a conversion of a C++ number to one of them
 * ((int) 2.5, float(n), uint8_t(300)) is C++'s, giving a C++ number. */
static int cpp_type_name(const char *s)
{
	static const char *const names[] = { "int", "bool", "float", "double", "uint8_t", "int8_t", "uint16_t",
					     "int16_t", "uint32_t", "int32_t", NULL };
	for (int i = 0; names[i]; i++)
		if (!strcmp(names[i], s))
			return 1;
	return 0;
}

Val hlp_cpp_convert(Parser *P, HType t, Val v, const HTok *what)
{
	if (ht_is_float(t)) {
		double f = v.k == V_INT ? hlp_int_double(v) : v.f;
		return hlp_vfloat(f, t.bits == 32, what->line, what->col);
	}
	if (v.k == V_INT)
		return hlp_cpp_int(t, v.i, what);
	if (ht_is_bool(t))
		return hlp_vbool(v.f != 0, what);
	/* a floating-point value converts towards zero; out of the type's
	 * range the conversion is undefined in C++ */
	double r = trunc(v.f);
	double lo = t.bits == 64 ? (t.is_signed ? -0x1p63 : 0) : (double)ht_min(t);
	int below_hi = t.bits == 64 ? r < (t.is_signed ? 0x1p63 : 0x1p64) : r <= (double)ht_max(t);
	if (!(r >= lo && below_hi))
		return hlp_err_at(P, v.line, v.col, "C++ converts %g to %s towards zero, and %g is out of its range "
				  "(undefined in C++)", v.f, t.bits == 64 ? (t.is_signed ? "long" : "unsigned long")
				  : ht_name(t), r);
	return hlp_cpp_int(t, t.bits == 64 && !t.is_signed ? (int64_t)(uint64_t)r : (int64_t)r, what);
}

/* (TYPE) value: a C-style cast of a C++ number (after the ')'). */
static Val c_style_cast(Parser *P, const HTok *tt, Val v)
{
	HType t;
	ctype(tt->text, &t);
	if (v.k == V_INT || v.k == V_FLOAT)
		return hlp_cpp_convert(P, t, v, tt);
	if (v.k == V_NONE)
		return v;
	return hlp_err_tok(P, tt, "(%s) of %s: C++ converts only C++ numbers this way (an Expr has no conversion to "
			   "%s); write cast<%s>(...)", tt->text, hlp_val_desc(P, v), tt->text, tt->text);
}

static Val parse_operand(Parser *P);

/* The concise saturating casts of Halide::ConciseCasts. */
static int sat_ctype(const char *s, HType *t)
{
	static const struct { const char *n; HType t; } tab[] = {
		{ "u8_sat", { 0, 8 } }, { "i8_sat", { 1, 8 } }, { "u16_sat", { 0, 16 } },
		{ "i16_sat", { 1, 16 } }, { "u32_sat", { 0, 32 } }, { "i32_sat", { 1, 32 } },
	};
	for (size_t i = 0; i < sizeof tab / sizeof *tab; i++)
		if (tab[i].n[0] == s[0] && strcmp(tab[i].n, s) == 0) {
			*t = tab[i].t;
			return 1;
		}
	return 0;
}

static HExpr *make_cast(Parser *P, HType t, Val v)
{
	if (v.k == V_INT)
		return he_const(P->a, t, hv_cast(t, HT_I32, v.i));
	HExpr *e = hlp_to_expr(P, v);
	if (!e)
		return NULL;
	return he_fold(P->a, he_cast(P->a, t, e));
}

/* Halide's saturating_cast<T>(e): e clamped to the values both its type and T
 * hold, then cast (an integer literal is an Int(32) Expr there, so it is
 * clamped to T). */
static HExpr *make_sat_cast(Parser *P, HType t, Val v, const HTok *tok)
{
	if (ht_is_float(t))
		return make_cast(P, t, v);      /* a float holds every integer's range */
	if (v.k == V_INT)
		return he_const(P->a, t, v.i < ht_min(t) ? ht_min(t) : v.i > ht_max(t) ? ht_max(t) : v.i);
	HExpr *e = hlp_to_expr(P, v);
	if (!e)
		return NULL;
	if (ht_is_bool(t) || ht_is_bool(e->type)) {
		hlp_err_tok(P, tok, "saturating cast from %s to %s: only integer types saturate", ht_name(e->type),
			    ht_name(t));
		return NULL;
	}
	HType s = e->type;
	if (ht_is_float(s)) {
		/* a float clamped to the integer type's range, as floats, then cast */
		e = he_fold(P->a, he_bin(P->a, HB_MIN, s, e, he_const(P->a, s, hv_bits(s, (double)ht_max(t)))));
		e = he_fold(P->a, he_bin(P->a, HB_MAX, s, e, he_const(P->a, s, hv_bits(s, (double)ht_min(t)))));
		return he_fold(P->a, he_cast(P->a, t, e));
	}
	int64_t lo = ht_min(t) > ht_min(s) ? ht_min(t) : ht_min(s);
	int64_t hi = ht_max(t) < ht_max(s) ? ht_max(t) : ht_max(s);
	if (hi < ht_max(s))
		e = he_fold(P->a, he_bin(P->a, HB_MIN, s, e, he_const(P->a, s, hi)));
	if (lo > ht_min(s))
		e = he_fold(P->a, he_bin(P->a, HB_MAX, s, e, he_const(P->a, s, lo)));
	return he_fold(P->a, he_cast(P->a, t, e));
}

/* ---- expressions ---- */


/* '(' expr {',' expr} ')' into vals; returns the count or -1. */
int hlp_parse_args(Parser *P, Val *vals, int max)
{
	int n = 0;
	if (!hlp_expect(P, "("))
		return -1;
	if (hlp_accept(P, ")"))
		return 0;
	do {
		if (n == max) {
			hlp_err_tok(P, hlp_cur(P), "too many arguments (at most %d)", max);
			return -1;
		}
		vals[n++] = hlp_parse_expr(P);
		if (P->failed)
			return -1;
	} while (hlp_accept(P, ","));
	if (!hlp_expect(P, ")"))
		return -1;
	return n;
}

/* Halide's check_call_arg_types: arguments become Int(32). */
HExpr *hlp_call_arg(Parser *P, Val v, const char *callee, int i)
{
	HExpr *e = hlp_to_expr(P, v);
	if (!e)
		return NULL;
	HType t = e->type;
	if ((!t.is_signed && t.bits >= 32) || ht_is_bool(t) || ht_is_float(t)) {
		hlp_err_at(P, v.line, v.col,
		       "implicit cast from %s to int in argument %d in call to '%s' is not allowed: use an explicit cast",
		       ht_name(t), i + 1, callee);
		return NULL;
	}
	return he_fold(P->a, he_cast(P->a, HT_I32, e));
}

static Val parse_call(Parser *P, int callee, int is_image, const HTok *t)
{
	Val args[16];
	int n = hlp_parse_args(P, args, 16);
	if (n < 0)
		return hlp_none;
	const char *name;
	int dims;
	HType type;
	if (is_image) {
		HImage *im = &P->p->images.data[callee];
		name = im->name;
		dims = im->dims;
		type = im->type;
	} else {
		HFunc *f = &P->p->funcs.data[callee];
		name = f->name;
		if (!f->defined && hlp_failed_func(P, callee))
			return hlp_none;
		if (!f->defined)
			return hlp_err_tok(P, t, "Func '%s' is called before it has a definition", name);
		dims = f->dims;
		type = f->type;
	}
	if (n != dims)
		return hlp_err_tok(P, t, "%d-argument call to '%s', which has %d dimension%s", n, name, dims,
			       dims == 1 ? "" : "s");
	HExpr *ea[16];
	for (int i = 0; i < n; i++)
		if (!(ea[i] = hlp_call_arg(P, args[i], name, i)))
			return hlp_none;
	HExpr *e = he_call(P->a, callee, is_image, type, ea, n);
	return hlp_vexpr(e, t->line, t->col);
}


static Val sum_over(Parser *P, HExpr *e, int rd, const HTok *t, HBinOp op);

/* sum(e), product(e), maximum(e), minimum(e): an inline reduction over the
 * one RDom whose variables e uses. */
static Val make_sum(Parser *P, Val v, const HTok *t, HBinOp op)
{
	HExpr *e = hlp_to_expr(P, v);
	if (!e)
		return hlp_none;
	int rd[8], n = 0;
	hlp_collect_rdoms(P, e, rd, &n);
	if (n == 0)
		return hlp_err_tok(P, t, "%s() of an expression with no reduction variable", t->text);
	if (n > 1)
		return hlp_err_tok(P, t, "%s() over two RDoms (%s and %s)", t->text, P->p->rdoms.data[rd[0]].name,
			       P->p->rdoms.data[rd[1]].name);
	if (ht_is_bool(e->type))
		return hlp_err_tok(P, t, "%s() of a boolean expression", t->text);
	return sum_over(P, e, rd[0], t, op);
}

/* sum(r, e), sum(e, f), sum(r, e, f) (a name string in place of f): the
 * overloads of an inline reduction with its RDom stated (it must be the one
 * e uses) or a Func for its result (hlp_named_reduction). */
static Val reduction_overload(Parser *P, Val *a, int n, const HTok *t, HBinOp op)
{
	int has_rdom = a[0].k == V_RDOM;
	if (n > 3 || (n == 3 && !has_rdom) || (n == 2 && !has_rdom && a[1].k != V_FUNC))
		return hlp_err_tok(P, t, "%s() takes an expression, optionally after an RDom and before a name or a "
				   "Func for its result", t->text);
	Val ev = a[has_rdom];
	Val fv = n > 1 + has_rdom ? a[n - 1] : hlp_none;
	if (fv.k != V_NONE && fv.k != V_FUNC)
		return hlp_err_at(P, fv.line, fv.col, "%s(): expected a Func for its result, not %s", t->text,
				  hlp_val_desc(P, fv));
	Val s = make_sum(P, ev, t, op);
	if (s.k != V_EXPR)
		return hlp_none;
	if (has_rdom && s.e->rdom != a[0].id)
		return hlp_err_tok(P, t, "%s() over RDom '%s' of an expression of RDom '%s'", t->text,
				   P->p->rdoms.data[a[0].id].name, P->p->rdoms.data[s.e->rdom].name);
	if (fv.k == V_FUNC)
		return hlp_named_reduction(P, fv.id, op, s.e->a, s.e->rdom, t);
	return s;
}

/* The HE_SUM node of op over RDom rd of e. */
static Val sum_over(Parser *P, HExpr *e, int rd, const HTok *t, HBinOp op)
{
	HExpr *s = arena_alloc(P->a, sizeof *s);
	s->kind = HE_SUM;
	s->op = op;
	s->type = e->type;
	s->rdom = rd;
	s->a = e;
	s->sym = s->callee = -1;
	he_set_depth(s);
	return hlp_vexpr(s, t->line, t->col);
}

/* Most points of an argmax()/argmin() RDom (each a select of the result). */
#define ARGMAX_MAX_POINTS 256

/* argmax(e)[k], argmin(r, e)[k] (a name may follow e): Halide's Tuple of the
 * first point of the RDom (r.x fastest) where e is largest (smallest), then
 * that value. Element k below the RDom's dimensions is the point's
 * coordinate k: a select among the points on e(p) == maximum(e); element
 * `dimensions` is maximum(e) (minimum). */
static Val make_argmax(Parser *P, Val *a, int n, const HTok *t)
{
	int is_max = hlx_is(t, "argmax");
	if (n >= 2 && a[n - 1].k == V_STRING)
		n--;
	int rd = -1;
	if (n == 2 && a[0].k == V_RDOM)
		rd = a[0].id;
	else if (n != 1)
		return hlp_err_tok(P, t, "%s() takes an expression, or an RDom and an expression (then a name)", t->text);
	Val m = make_sum(P, a[n - 1], t, is_max ? HB_MAX : HB_MIN);
	if (m.k != V_EXPR)
		return hlp_none;
	HExpr *mx = m.e;
	if (rd >= 0 && mx->rdom != rd)
		return hlp_err_tok(P, t, "%s() over RDom '%s' of an expression of RDom '%s'", t->text,
				   P->p->rdoms.data[rd].name, P->p->rdoms.data[mx->rdom].name);
	const HRDom *r = &P->p->rdoms.data[mx->rdom];
	if (!hlp_accept(P, "["))
		return hlp_err_tok(P, t, "%s() gives a Tuple (the point's %d coordinate%s, then the value): take an "
				   "element, as in %s(...)[0]", t->text, r->ndims, r->ndims == 1 ? "" : "s", t->text);
	Val kv = hlp_parse_expr(P);
	if (P->failed || !hlp_expect(P, "]"))
		return hlp_none;
	if (kv.k != V_INT)
		return hlp_err_at(P, kv.line, kv.col, "the element of %s()'s Tuple is chosen by a C++ int known when "
				  "compiling, not %s", t->text, hlp_val_desc(P, kv));
	if (kv.i < 0 || kv.i > r->ndims)
		return hlp_err_at(P, kv.line, kv.col, "element %lld of %s()'s Tuple: it has elements 0 to %d (the "
				  "point's coordinates, then the value)", (long long)kv.i, t->text, r->ndims);
	if (kv.i == r->ndims)
		return m;
	int64_t points = 1;
	for (int i = 0; i < r->ndims; i++)
		if ((points *= r->extent[i]) > ARGMAX_MAX_POINTS)
			return hlp_err_tok(P, t, "%s() over more than %d points: its point is a select among them, at "
					   "most %d", t->text, ARGMAX_MAX_POINTS, ARGMAX_MAX_POINTS);
	/* the first point where the value is the maximum: a select chain in
	 * the RDom's order, built from the last point */
	int64_t pt[4];
	int64_t (*pts)[4] = xcalloc((size_t)points, sizeof *pts);
	hrdom_first(r, pt);
	for (int64_t j = 0; j < points; j++) {
		memcpy(pts[j], pt, sizeof pt);
		hrdom_next(r, pt);
	}
	HExpr *e = mx->a, *res = NULL;
	for (int64_t j = points - 1; j >= 0; j--) {
		HExpr *coord = he_const(P->a, HT_I32, pts[j][kv.i]);
		if (!res) {
			res = coord;
			continue;
		}
		HExpr *vals[4];
		for (int i = 0; i < r->ndims; i++)
			vals[i] = he_const(P->a, HT_I32, pts[j][i]);
		HSubst sb = { r->sym, vals, r->ndims, NULL, NULL };
		HExpr *ej = hs_simplify(P->a, hs_subst(P->a, e, &sb));
		res = he_select(P->a, he_bin(P->a, HB_EQ, HT_BOOL, ej, mx), coord, res);
	}
	free(pts);
	return hlp_vexpr(res, t->line, t->col);
}

/* min/max/absd of two values. */
static Val minmax(Parser *P, HBinOp op, Val x, Val y, const HTok *t)
{
	if (x.k == V_INT && y.k == V_INT)
		return hlp_int_binop(P, op, x, y, t);
	Val r = hlp_binop(P, op, x, y, t);
	return r;
}

static Val make_clamp(Parser *P, Val a, Val lo, Val hi, const HTok *t)
{
	if (a.k == V_INT && lo.k == V_INT && hi.k == V_INT)
		return hlp_vint(a.i < lo.i ? lo.i : a.i > hi.i ? hi.i : a.i, t);
	HExpr *ea = hlp_to_expr(P, a);
	if (!ea)
		return hlp_none;
	HExpr *b[2];
	Val bv[2] = { lo, hi };
	for (int i = 0; i < 2; i++) {
		if (bv[i].k == V_INT) {
			if (!(b[i] = hlp_coerce_int(P, bv[i], ea->type)))
				return hlp_none;
		} else {
			if (!(b[i] = hlp_to_expr(P, bv[i])))
				return hlp_none;
			int64_t c;
			if (he_is_const(b[i], &c) && c >= ht_min(ea->type) && c <= ht_max(ea->type))
				b[i] = he_const(P->a, ea->type, c);
			else if (!ht_eq(b[i]->type, ea->type))
				return hlp_err_at(P, bv[i].line, bv[i].col,
					      "clamp: the bound has type %s, which cannot be losslessly cast to %s",
					      ht_name(b[i]->type), ht_name(ea->type));
		}
	}
	if (ht_is_bool(ea->type))
		return hlp_err_tok(P, t, "clamp of a boolean value");
	HExpr *e = he_fold(P->a, he_bin(P->a, HB_MIN, ea->type, ea, b[1]));
	e = he_fold(P->a, he_bin(P->a, HB_MAX, ea->type, e, b[0]));
	return hlp_vexpr(e, t->line, t->col);
}

/* Halide's select: a signed integer constant takes the other value's type. */
static Val make_select(Parser *P, Val c, Val tv, Val fv, const HTok *t)
{
	HExpr *ec = hlp_to_expr(P, c), *et = hlp_to_expr(P, tv), *ef = hlp_to_expr(P, fv);
	if (!ec || !et || !ef)
		return hlp_none;
	int64_t kc;
	if (!ht_is_bool(ec->type) && !ht_is_float(ec->type) && he_is_const(ec, &kc))
		ec = he_const(P->a, HT_BOOL, kc & 1);   /* Halide casts a constant to Bool: its low bit */
	if (!ht_is_bool(ec->type))
		return hlp_err_at(P, c.line, c.col, "the condition of select must be boolean, not %s",
			      ht_name(ec->type));
	int64_t k;
	if (he_is_const(et, &k) && et->type.is_signed)
		et = he_const(P->a, ef->type, k);
	if (he_is_const(ef, &k) && ef->type.is_signed)
		ef = he_const(P->a, et->type, k);
	if (!ht_eq(et->type, ef->type))
		return hlp_err_tok(P, t, "select: the values have different types %s and %s", ht_name(et->type),
			       ht_name(ef->type));
	return hlp_vexpr(he_fold(P->a, he_select(P->a, ec, et, ef)), t->line, t->col);
}

static Val make_abs(Parser *P, Val v, const HTok *t)
{
	if (v.k == V_INT)
		return hlp_vint(v.i < 0 ? -v.i : v.i, t);
	if (v.k == V_FLOAT)
		return hlp_vfloat(v.f < 0 ? -v.f : v.f, v.single, t->line, t->col);
	HExpr *e = hlp_to_expr(P, v);
	if (!e)
		return hlp_none;
	if (ht_is_bool(e->type))
		return hlp_err_tok(P, t, "abs of a boolean value");
	HType rt = { ht_is_float(e->type) ? 2 : 0, e->type.bits };
	return hlp_vexpr(he_fold(P->a, he_un(P->a, HU_ABS, rt, e)), t->line, t->col);
}

/* cast<T>(e), saturating_cast<T>(e) */
static Val parse_cast(Parser *P, const HTok *t)
{
	int sat = hlx_is(t, "saturating_cast");
	if (hlp_at(P, "(")) {
		/* Halide's other form: cast(UInt(8), e) */
		Val a[2];
		int n = hlp_parse_args(P, a, 2);
		if (n < 0)
			return hlp_none;
		if (n != 2 || a[0].k != V_TYPE)
			return hlp_err_tok(P, t, "%s(type, value) takes a type (UInt(8), Int(16), Bool(), Float(32)) and "
					       "a value", t->text);
		HExpr *e = sat ? make_sat_cast(P, a[0].t, a[1], t) : make_cast(P, a[0].t, a[1]);
		return e ? hlp_vexpr(e, t->line, t->col) : hlp_none;
	}
	if (!hlp_expect(P, "<"))
		return hlp_none;
	HTok *tt = hlp_cur(P);
	HType ty;
	if (tt->kind != TK_NAME || !ctype(tt->text, &ty))
		return hlp_err_tok(P, tt, "expected a type (uint8_t, int8_t, uint16_t, int16_t, uint32_t, int32_t, bool) before %s",
			       hlp_tok_desc(tt));
	hlp_next(P);
	if (!hlp_expect(P, ">"))
		return hlp_none;
	Val a[1];
	int n = hlp_parse_args(P, a, 1);
	if (n != 1)
		return n < 0 ? hlp_none : hlp_err_tok(P, t, "%s<%s> takes one argument", t->text, tt->text);
	HExpr *e = sat ? make_sat_cast(P, ty, a[0], t) : make_cast(P, ty, a[0]);
	return e ? hlp_vexpr(e, t->line, t->col) : hlp_none;
}

/* Halide's type values: UInt(16), Int(16), Bool(). */
static Val parse_type(Parser *P, const HTok *t)
{
	Val a[1];
	int n = hlp_parse_args(P, a, 1);
	if (n < 0)
		return hlp_none;
	Val v = { .k = V_TYPE, .line = t->line, .col = t->col };
	if (hlx_is(t, "Bool")) {
		if (n != 0)
			return hlp_err_tok(P, t, "Bool() takes no argument");
		v.t = HT_BOOL;
		return v;
	}
	if (hlx_is(t, "Float")) {
		if (n != 1 || a[0].k != V_INT || (a[0].i != 32 && a[0].i != 64))
			return hlp_err_tok(P, t, "Float() takes a bit width, 32 or 64");
		v.t = (HType){ 2, (uint8_t)a[0].i };
		return v;
	}
	if (n != 1 || a[0].k != V_INT)
		return hlp_err_tok(P, t, "%s() takes a bit width", t->text);
	if (a[0].i != 8 && a[0].i != 16 && a[0].i != 32)
		return hlp_err_at(P, a[0].line, a[0].col, "bit width %lld of %s(): expected 8, 16 or 32",
			      (long long)a[0].i, t->text);
	v.t = (HType){ hlx_is(t, "Int"), (uint8_t)a[0].i };
	return v;
}

/* Math functions: Halide's on Exprs (exp, log, sqrt, pow, floor, ceil, round,
 * trunc, sin, cos: an integer Expr becomes Float(32)), C's on C++ numbers
 * (expf, sqrtf, ... on floats; exp, sqrt, ... and fabs on doubles). */
static const struct { const char *name; HMathOp op; int args; int single; int c_only; } maths[] = {
	{ "exp", HM_EXP, 1, 0, 0 }, { "log", HM_LOG, 1, 0, 0 }, { "sqrt", HM_SQRT, 1, 0, 0 },
	{ "pow", HM_POW, 2, 0, 0 }, { "floor", HM_FLOOR, 1, 0, 0 }, { "ceil", HM_CEIL, 1, 0, 0 },
	{ "round", HM_ROUND, 1, 0, 0 }, { "trunc", HM_TRUNC, 1, 0, 0 }, { "sin", HM_SIN, 1, 0, 0 },
	{ "cos", HM_COS, 1, 0, 0 }, { "expf", HM_EXP, 1, 1, 1 }, { "logf", HM_LOG, 1, 1, 1 },
	{ "sqrtf", HM_SQRT, 1, 1, 1 }, { "powf", HM_POW, 2, 1, 1 }, { "floorf", HM_FLOOR, 1, 1, 1 },
	{ "ceilf", HM_CEIL, 1, 1, 1 }, { "truncf", HM_TRUNC, 1, 1, 1 }, { "sinf", HM_SIN, 1, 1, 1 },
	{ "cosf", HM_COS, 1, 1, 1 },
};

static int math_function(const char *s)
{
	for (size_t i = 0; i < sizeof maths / sizeof *maths; i++)
		if (maths[i].name[0] == s[0] && !strcmp(maths[i].name, s))
			return (int)i;
	return -1;
}

/* std_overloads: C++'s float overloads are visible (std::sqrt, or using
 * namespace std): sqrt of a float is a float; else C's sqrt of a double. */
static Val parse_math(Parser *P, const HTok *t, int m, int std_overloads)
{
	Val a[2];
	int n = hlp_parse_args(P, a, 2);
	if (n < 0)
		return hlp_none;
	if (n != maths[m].args)
		return hlp_err_tok(P, t, "%s() takes %d argument%s, not %d", t->text, maths[m].args,
				   maths[m].args == 1 ? "" : "s", n);
	int cpp = 1;
	for (int i = 0; i < n; i++)
		cpp &= a[i].k == V_INT || a[i].k == V_FLOAT;
	if (cpp) {
		/* C's function on C++ numbers: expf on floats; exp on doubles (a float promoted), or
		 * on floats C++'s float overload (std::exp(float)) where it is visible */
		int single = maths[m].single;
		if (!single && std_overloads) {
			single = 1;
			for (int i = 0; i < n; i++)
				single &= a[i].k == V_FLOAT && a[i].single;
		}
		HType ft = single ? HT_F32 : HT_F64;
		double x = a[0].k == V_INT ? (double)a[0].i : a[0].f, y = n > 1 ? (a[1].k == V_INT ? (double)a[1].i : a[1].f) : 0;
		double r = hv_float(hm_eval(maths[m].op, ft, hv_bits(ft, x), hv_bits(ft, y)));
		if (maths[m].op == HM_ROUND)
			r = round(x);   /* C's round: half away from zero */
		return hlp_vfloat(r, single, t->line, t->col);
	}
	if (maths[m].c_only)
		return hlp_err_tok(P, t, "%s() is C's, on C++ floats: Halide's %.*s() takes Exprs", t->text,
				   (int)strlen(t->text) - 1, t->text);
	HExpr *x = hlp_to_expr(P, a[0]), *y = n > 1 ? hlp_to_expr(P, a[1]) : NULL;
	if (!x || (n > 1 && !y))
		return hlp_none;
	if (!ht_is_float(x->type))
		x = he_cast(P->a, HT_F32, x);
	if (y && !ht_eq(y->type, x->type))
		y = he_cast(P->a, x->type, y);
	return hlp_vexpr(he_fold(P->a, he_math(P->a, maths[m].op, x, y)), t->line, t->col);
}

static Val builtin(Parser *P, const HTok *t)
{
	HType ty;
	if (hlx_is(t, "cast") || hlx_is(t, "saturating_cast"))
		return parse_cast(P, t);
	if (hlx_is(t, "UInt") || hlx_is(t, "Int") || hlx_is(t, "Bool") || hlx_is(t, "Float"))
		return parse_type(P, t);
	int m = math_function(t->text);
	if (m >= 0)
		return parse_math(P, t, m, P->using_std);
	Val a[33];
	int n = hlp_parse_args(P, a, 33);
	if (n < 0)
		return hlp_none;
	/* an inline reduction may be given a name, as in Halide (not an empty one) */
	if ((hlx_is(t, "sum") || hlx_is(t, "product") || hlx_is(t, "maximum") || hlx_is(t, "minimum") ||
	     hlx_is(t, "argmax") || hlx_is(t, "argmin")) && n >= 2 && a[n - 1].k == V_STRING && !a[n - 1].s[0])
		return hlp_err_at(P, a[n - 1].line, a[n - 1].col, "%s(): an empty name (Halide: a Func may not have "
				  "an empty name)", t->text);
	static const char *const reductions[] = { "sum", "product", "maximum", "minimum", NULL };
	static const HBinOp reduction_ops[] = { HB_ADD, HB_MUL, HB_MAX, HB_MIN };
	for (int i = 0; reductions[i]; i++) {
		if (!hlx_is(t, reductions[i]))
			continue;
		if (n >= 2 && a[n - 1].k == V_STRING)
			n--;
		if (n >= 2)
			return reduction_overload(P, a, n, t, reduction_ops[i]);
	}
	if (hlx_is(t, "argmax") || hlx_is(t, "argmin"))
		return make_argmax(P, a, n, t);
	struct { const char *name; int nargs; } tab[] = {
		{ "min", 2 }, { "max", 2 }, { "abs", 1 }, { "absd", 2 }, { "clamp", 3 }, { "sum", 1 },
		{ "product", 1 }, { "maximum", 1 }, { "minimum", 1 }, { "Expr", 1 },
	};
	for (size_t i = 0; i < sizeof tab / sizeof *tab; i++)
		if (hlx_is(t, tab[i].name) && n != tab[i].nargs)
			return hlp_err_tok(P, t, "%s() takes %d argument%s, not %d", t->text, tab[i].nargs,
				       tab[i].nargs == 1 ? "" : "s", n);
	if (hlx_is(t, "select") && (n < 3 || n % 2 == 0))
		return hlp_err_tok(P, t, "select() takes an odd number of arguments, at least 3 (conditions and "
				     "values, then the value where no condition holds), not %d", n);
	if (n > 3 && !hlx_is(t, "select"))
		return hlp_err_tok(P, t, "too many arguments (%d) to %s()", n, t->text);
	if (ctype(t->text, &ty)) {
		if (n != 1)
			return hlp_err_tok(P, t, "%s() takes one argument", t->text);
		if (cpp_type_name(t->text) && (a[0].k == V_INT || a[0].k == V_FLOAT))
			return hlp_cpp_convert(P, ty, a[0], t);
		HExpr *e = make_cast(P, ty, a[0]);
		return e ? hlp_vexpr(e, t->line, t->col) : hlp_none;
	}
	if (sat_ctype(t->text, &ty)) {
		if (n != 1)
			return hlp_err_tok(P, t, "%s() takes one argument", t->text);
		HExpr *e = make_sat_cast(P, ty, a[0], t);
		return e ? hlp_vexpr(e, t->line, t->col) : hlp_none;
	}
	if (hlx_is(t, "select")) {
		/* select(c0, v0, c1, v1, ..., v): select(c0, v0, select(c1, v1, ... v)) */
		Val r = a[n - 1];
		for (int k = n - 3; k >= 0 && r.k != V_NONE; k -= 2)
			r = make_select(P, a[k], a[k + 1], r, t);
		return r;
	}
	if (hlx_is(t, "min"))
		return minmax(P, HB_MIN, a[0], a[1], t);
	if (hlx_is(t, "max"))
		return minmax(P, HB_MAX, a[0], a[1], t);
	if (hlx_is(t, "absd"))
		return minmax(P, HB_ABSD, a[0], a[1], t);
	if (hlx_is(t, "abs"))
		return make_abs(P, a[0], t);
	if (hlx_is(t, "clamp"))
		return make_clamp(P, a[0], a[1], a[2], t);
	if (hlx_is(t, "sum"))
		return make_sum(P, a[0], t, HB_ADD);
	if (hlx_is(t, "product"))
		return make_sum(P, a[0], t, HB_MUL);
	if (hlx_is(t, "maximum"))
		return make_sum(P, a[0], t, HB_MAX);
	if (hlx_is(t, "minimum"))
		return make_sum(P, a[0], t, HB_MIN);
	HExpr *e = hlp_expr_ctor(P, a[0]);         /* Expr(v) */
	return e ? hlp_vexpr(e, t->line, t->col) : hlp_none;
}

static int is_builtin(const HTok *t)
{
	static const char *const b[] = {
		"cast", "saturating_cast", "select", "min", "max", "abs", "absd", "clamp", "sum", "product",
		"maximum", "minimum", "argmax", "argmin", "Expr", "UInt", "Int", "Bool", "Float", NULL,
	};
	HType ty;
	for (int i = 0; b[i]; i++)
		if (hlx_is(t, b[i]))
			return 1;
	if (math_function(t->text) >= 0)
		return 1;
	return ctype(t->text, &ty) || sat_ctype(t->text, &ty);
}

/* is_builtin(t), remembered per token: a loop's body is parsed once per iteration. */
static int builtin_name(Parser *P, const HTok *t)
{
	ptrdiff_t k = t - P->t;
	if (k < 0 || k >= P->ntoks)
		return is_builtin(t);
	if (!P->builtin[k])
		P->builtin[k] = is_builtin(t) ? 1 : 2;
	return P->builtin[k] == 1;
}

/* Func("name") or Func(): a new Func as an expression's value. */
static Val new_func_value(Parser *P, const HTok *t)
{
	Val a[1];
	int n = hlp_parse_args(P, a, 1);
	if (n < 0)
		return hlp_none;
	if (n == 1 && (a[0].k != V_STRING || !a[0].s[0]))
		return hlp_err_at(P, a[0].line, a[0].col, "Func(...) takes a non-empty name string, not %s%s",
				  a[0].k == V_STRING ? "an empty " : "", a[0].k == V_STRING ? "string" : hlp_val_desc(P, a[0]));
	const char *name = n ? a[0].s : arena_printf(P->a, "f%d", P->p->funcs.len);
	Val v = { .k = V_FUNC, .id = hlp_new_func(P, name, t->line, t->col), .line = t->line, .col = t->col };
	return v;
}

/* The value of variable n (named at t), which it refers to (for a
 * reference parameter); one without a value yet is V_LVALUE where it stands
 * alone as an argument (a function may give it one). */
static Val variable_ref(Parser *P, Name *n, const HTok *t)
{
	if (!n->set && n->k != N_FUNC && (hlp_at(P, ",") || hlp_at(P, ")"))) {
		Val v = { .k = V_LVALUE, .ref = n, .line = t->line, .col = t->col };
		return v;
	}
	Val v;
	if (n->k == N_FUNC)
		v = (Val){ .k = V_FUNC, .id = n->id, .line = t->line, .col = t->col };
	else if (n->k == N_STRING)
		v = hlp_vstring(n->s, 1, t->line, t->col);
	else
		v = hlp_variable(P, n, t);
	v.ref = n;
	return v;
}

static Val name_value(Parser *P, const HTok *t)
{
	Name *n = hlp_lookup(P, t->text);
	if (!n)
		return hlp_err_tok(P, t, "unknown name '%s'", t->text);
	Val v = { .line = t->line, .col = t->col };
	switch (n->k) {
	case N_VAR: return hlp_vexpr(he_var(P->a, n->id), t->line, t->col);
	case N_EXPR:
	case N_INT:
	case N_FLOAT:
	case N_STRING:
	case N_FUNC: return variable_ref(P, n, t);
	case N_ARRAY: {
		if (!hlp_at(P, "[")) {
			v.k = V_ARRAY;
			v.ref = n;
			return v;
		}
		Name *e = hlp_array_elem(P, n, t);
		return e ? variable_ref(P, e, t) : hlp_none;
	}
	case N_RVAR: return hlp_vexpr(he_var(P->a, n->id), t->line, t->col);
	case N_CPPFN: {
		if (!hlp_at(P, "("))
			return hlp_err_tok(P, t, "function '%s' is used without a call", t->text);
		Val r = hlp_call_function(P, n->id, t);
		if (r.k == V_NONE && !P->failed)
			return hlp_err_tok(P, t, "'%s' returns void: its value cannot be used", t->text);
		return r;
	}
	case N_IMAGE: v.k = V_IMAGE; v.id = n->id; return v;
	case N_RDOM: v.k = V_RDOM; v.id = n->id; return v;
	case N_BROKEN: P->failed = 1; return hlp_none;    /* its error is reported */
	}
	return hlp_none;
}


/* The enumerations of Halide's that schedule calls take, each value as the
 * program writes it (Halide:: may precede). MemoryType::GLB is Halide-to-
 * Hardware's global buffer. */
static const char *const enums[] = {
	"TailStrategy::RoundUp", "TailStrategy::GuardWithIf", "TailStrategy::ShiftInwards",
	"TailStrategy::Predicate", "TailStrategy::PredicateLoads", "TailStrategy::PredicateStores",
	"TailStrategy::Auto", "MemoryType::Auto", "MemoryType::Heap", "MemoryType::Stack",
	"MemoryType::Register", "MemoryType::GLB", NULL,
};

/* A qualified name A::B (after Halide::), its first part at t. */
static Val qualified(Parser *P, const HTok *t)
{
	StrBuf b = { 0 };
	sb_printf(&b, "%s", t->text);
	while (hlp_accept(P, "::")) {
		HTok *n = hlp_cur(P);
		if (!hlp_expect_name(P)) {
			free(b.s);
			return hlp_none;
		}
		if (strcmp(b.s, "Halide") == 0)
			b.len = 0, b.s[0] = 0;
		sb_printf(&b, "%s%s", b.len ? "::" : "", n->text);
	}
	Val v = hlp_none;
	if ((!strcmp(b.s, "std::min") || !strcmp(b.s, "std::max") || !strcmp(b.s, "std::abs")) && hlp_at(P, "(")) {
		HTok *f = &P->t[P->pos - 1];
		free(b.s);
		Val a[2];
		int n = hlp_parse_args(P, a, 2);
		if (n < 0)
			return hlp_none;
		int want = hlx_is(f, "abs") ? 1 : 2;
		for (int i = 0; i < n; i++)
			if (a[i].k != V_INT && a[i].k != V_FLOAT)
				return hlp_err_at(P, a[i].line, a[i].col, "std::%s() takes C++ numbers, not %s (Halide's %s() "
						  "takes Exprs)", f->text, hlp_val_desc(P, a[i]), f->text);
		if (n != want)
			return hlp_err_tok(P, t, "std::%s() takes %d argument%s", f->text, want, want == 1 ? "" : "s");
		if (want == 1)
			return make_abs(P, a[0], t);
		return hlp_binop(P, hlx_is(f, "min") ? HB_MIN : HB_MAX, a[0], a[1], t);
	}
	int m = strncmp(b.s, "std::", 5) == 0 ? math_function(b.s + 5) : -1;
	if (m >= 0 && !maths[m].c_only && hlp_at(P, "(")) {
		free(b.s);
		return parse_math(P, &P->t[P->pos - 1], m, 1);
	}
	if (strcmp(b.s, "Var::outermost") == 0 && hlp_at(P, "(")) {
		free(b.s);
		if (!hlp_expect(P, "(") || !hlp_expect(P, ")"))
			return hlp_none;
		return (Val){ .k = V_ENUM, .s = "Var::outermost", .line = t->line, .col = t->col };
	}
	if (strcmp(b.s, "std::to_string") == 0 && hlp_at(P, "(")) {
		free(b.s);
		Val a[1];
		int n = hlp_parse_args(P, a, 1);
		if (n < 0)
			return hlp_none;
		if (n != 1 || (a[0].k != V_INT && a[0].k != V_FLOAT))
			return hlp_err_tok(P, t, "std::to_string() takes a C++ number");
		const char *str = a[0].k == V_INT ? arena_printf(P->a, "%lld", (long long)a[0].i)
						  : arena_printf(P->a, "%f", a[0].f);
		return hlp_vstring(str, 1, t->line, t->col);
	}
	if (strncmp(b.s, "ConciseCasts::", 14) == 0 && hlp_at(P, "(")) {
		HType ty;
		HTok *last = &P->t[P->pos - 1];
		free(b.s);
		if ((!ctype(last->text, &ty) && !sat_ctype(last->text, &ty)) || cpp_type_name(last->text))
			return hlp_err_tok(P, last, "unknown name 'Halide::ConciseCasts::%s'", last->text);
		return builtin(P, last);
	}
	if (strncmp(b.s, "BoundaryConditions::", 20) == 0 && hlp_at(P, "(")) {
		const char *kind = arena_strdup(P->a, b.s + 20);
		free(b.s);
		return hlp_boundary(P, kind, t);
	}
	for (int i = 0; enums[i]; i++)
		if (strcmp(enums[i], b.s) == 0) {
			v = (Val){ .k = V_ENUM, .s = enums[i], .line = t->line, .col = t->col };
		}
	if (v.k == V_NONE)
		v = hlp_err_tok(P, t, "unknown name '%s'", b.s);
	free(b.s);
	return v;
}

/* An integer literal of C++'s type for it: the first of int, unsigned int
 * (hexadecimal or u), long, unsigned long (hexadecimal or u) that holds it,
 * from long on with an l suffix. */
static Val int_literal(const HTok *t)
{
	const char *s = t->text;
	int hex = s[0] == '0' && (s[1] == 'x' || s[1] == 'X');
	int u = strpbrk(s + 2 * hex, "uU") != NULL, l = strpbrk(s + 2 * hex, "lL") != NULL;
	uint64_t v = (uint64_t)t->value;
	Val r = hlp_vint(t->value, t);
	if (!l && !u && v <= INT32_MAX)
		return r;
	if (!l && (u || hex) && v <= UINT32_MAX) {
		r.cuns = 1;
		return r;
	}
	r.c64 = 1;
	r.cuns = u || v > INT64_MAX;
	return r;
}

static Val parse_primary(Parser *P)
{
	HTok *t = hlp_cur(P);
	if (t->kind == TK_NAME && hlx_is(&P->t[P->pos + 1], "::")) {
		hlp_next(P);
		return qualified(P, t);
	}
	if (t->kind == TK_INT) {
		hlp_next(P);
		return int_literal(t);
	}
	if (t->kind == TK_FLOAT) {
		hlp_next(P);
		return hlp_vfloat(t->fvalue, (int)t->value, t->line, t->col);
	}
	if (t->kind == TK_NAME && (hlx_is(t, "M_PI") || hlx_is(t, "M_E")) && !hlp_lookup(P, t->text)) {
		hlp_next(P);
		return hlp_vfloat(hlx_is(t, "M_PI") ? 3.14159265358979323846 : 2.7182818284590452354, 0, t->line, t->col);
	}
	if (hlx_is(t, "(") && P->t[P->pos + 1].kind == TK_NAME && cpp_type_name(P->t[P->pos + 1].text) &&
	    hlx_is(&P->t[P->pos + 2], ")") && !hlp_lookup(P, P->t[P->pos + 1].text)) {
		HTok *tt = &P->t[P->pos + 1];
		P->pos += 3;
		return c_style_cast(P, tt, parse_operand(P));
	}
	if (hlp_accept(P, "(")) {
		Val v = hlp_parse_expr(P);
		if (!hlp_expect(P, ")"))
			return hlp_none;
		return v;
	}
	if (t->kind == TK_NAME && hlx_is(t, "Func") && hlx_is(&P->t[P->pos + 1], "(")) {
		hlp_next(P);
		return new_func_value(P, t);
	}
	if (t->kind == TK_NAME && P->using_bc && hlx_is(&P->t[P->pos + 1], "(") && !hlp_lookup(P, t->text) &&
	    (hlx_is(t, "repeat_edge") || hlx_is(t, "constant_exterior") || hlx_is(t, "mirror_image") ||
	     hlx_is(t, "mirror_interior") || hlx_is(t, "repeat_image"))) {
		hlp_next(P);
		return hlp_boundary(P, t->text, t);
	}
	if (t->kind == TK_NAME) {
		hlp_next(P);
		if (hlx_is(t, "true") || hlx_is(t, "false"))
			return hlp_vexpr(he_const(P->a, HT_BOOL, hlx_is(t, "true")), t->line, t->col);
		if (builtin_name(P, t) && !hlp_lookup(P, t->text) &&
		    (hlp_at(P, "(") || ((hlx_is(t, "cast") || hlx_is(t, "saturating_cast")) && hlp_at(P, "<"))))
			return builtin(P, t);
		return name_value(P, t);
	}
	if (t->kind == TK_STRING) {
		hlp_next(P);
		Val v = { .k = V_STRING, .s = t->text, .line = t->line, .col = t->col };
		return v;
	}
	return hlp_err_tok(P, t, "expected an expression before %s", hlp_tok_desc(t));
}

static Val rdom_member(Parser *P, Val v, const HTok *t)
{
	static const char *const members = "xyzw";
	HRDom *r = &P->p->rdoms.data[v.id];
	const char *m = strchr(members, t->text[0]);
	if (!m || t->text[1] || (int)(m - members) >= r->ndims)
		return hlp_err_tok(P, t, "RDom %s has no member '%s' (it has %d dimension%s: %.*s)", r->name,
			       t->text, r->ndims, r->ndims == 1 ? "" : "s", r->ndims, members);
	return hlp_vexpr(he_var(P->a, r->sym[m - members]), t->line, t->col);
}

Val hlp_parse_postfix(Parser *P)
{
	Val v = parse_primary(P);
	for (;;) {
		if (P->failed)
			return hlp_none;
		HTok *t = hlp_cur(P);
		if ((v.k == V_FUNC || v.k == V_IMAGE) && hlp_at(P, "(")) {
			v = parse_call(P, v.id, v.k == V_IMAGE, t);
		} else if (v.k == V_RDOM && hlp_accept(P, ".")) {
			HTok *m = hlp_cur(P);
			if (!hlp_expect_name(P))
				return hlp_none;
			v = rdom_member(P, v, m);
		} else if (v.k == V_IMAGE && hlp_at(P, ".") && !hlx_is(&P->t[P->pos + 1], "in")) {
			v = hlp_image_member(P, v);
		} else if ((v.k == V_FUNC || v.k == V_IMAGE) && hlp_at(P, ".") && hlx_is(&P->t[P->pos + 1], "in")) {
			hlp_next(P);
			HTok *m = hlp_next(P);
			Val a[1];
			int n = hlp_parse_args(P, a, 1);
			if (n < 0)
				return hlp_none;
			if (n == 1 && a[0].k != V_FUNC)
				return hlp_err_at(P, a[0].line, a[0].col, "in() takes a Func, not %s", hlp_val_desc(P, a[0]));
			v = hlp_wrapper_of(P, v, m, n == 1 ? a[0].id : -1);
		} else {
			return v;
		}
	}
}

/* Enters one more level of nesting, the expression starting at the current
 * token; 0 (an error there) beyond HL_MAX_NESTING. The caller leaves it
 * (P->nesting--) whatever happens. */
static int enter(Parser *P)
{
	if (++P->nesting <= HL_MAX_NESTING)
		return 1;
	hlp_err_tok(P, hlp_cur(P), "expressions nested deeper than %d levels", HL_MAX_NESTING);
	return 0;
}

/* v, or an error at (line, col) if its tree is deeper than HL_MAX_DEPTH
 * (a chain of operators, or Exprs built from Exprs) or larger than
 * HL_MAX_SIZE. */
static Val shallow(Parser *P, Val v, int line, int col)
{
	if (v.k == V_EXPR && v.e->depth > HL_MAX_DEPTH)
		return hlp_err_at(P, line, col, "expression deeper than %d operations", HL_MAX_DEPTH);
	if (v.k == V_EXPR && v.e->size > HL_MAX_SIZE)
		return hlp_err_at(P, line, col, "expression of more than %d operations once its Exprs are "
				  "substituted (an Expr used several times counts each time)", HL_MAX_SIZE);
	return v;
}

static Val parse_unary(Parser *P);

/* The operand of a unary operator, one level deeper. */
static Val parse_operand(Parser *P)
{
	Val v = enter(P) ? parse_unary(P) : hlp_none;
	P->nesting--;
	return v;
}

static Val parse_unary(Parser *P)
{
	HTok *t = hlp_cur(P);
	if (hlp_accept(P, "-") || hlp_accept(P, "+") || hlp_accept(P, "!") || hlp_accept(P, "~")) {
		Val v = parse_operand(P);
		if (v.k == V_NONE)
			return hlp_none;
		if (hlx_is(t, "+")) {
			v.cbool = 0;    /* C++'s unary + promotes a bool to int */
			return v;
		}
		if (v.k == V_INT) {
			if (hlx_is(t, "!"))
				return hlp_vbool(!v.i, t);
			return hlp_int_unary(P, t->text[0], v, t);
		}
		if (v.k == V_FLOAT) {
			if (hlx_is(t, "~"))
				return hlp_err_tok(P, t, "operator '~' on a C++ floating-point value");
			return hlx_is(t, "-") ? hlp_vfloat(-v.f, v.single, t->line, t->col) : hlp_vbool(!v.f, t);
		}
		HExpr *e = hlp_to_expr(P, v);
		if (!e)
			return hlp_none;
		if (hlx_is(t, "!")) {
			if (!ht_is_bool(e->type))
				return hlp_err_tok(P, t, "the operand of '!' must be boolean, not %s", ht_name(e->type));
			e = he_un(P->a, HU_LNOT, HT_BOOL, e);
		} else {
			if (ht_is_bool(e->type))
				return hlp_err_tok(P, t, "operator '%s' on a boolean value", t->text);
			if (hlx_is(t, "~") && ht_is_float(e->type))
				return hlp_err_tok(P, t, "operator '~' on a %s value: Halide's bitwise operators take "
						     "integers", ht_name(e->type));
			e = he_un(P->a, hlx_is(t, "-") ? HU_NEG : HU_NOT, e->type, e);
			if (he_fold_overflows(e))
				return hlp_fold_overflow(P, e, t);
		}
		return shallow(P, hlp_vexpr(he_fold(P->a, e), t->line, t->col), t->line, t->col);
	}
	Val v = hlp_parse_postfix(P);
	return shallow(P, v, v.line, v.col);
}

/* Binary levels, loosest first: each a list of (token, operator). */
typedef struct Level {
	const char *tok[4];
	HBinOp op[4];
} Level;

static const Level levels[] = {
	{ { "||" }, { HB_LOR } },
	{ { "&&" }, { HB_LAND } },
	{ { "|" }, { HB_OR } },
	{ { "^" }, { HB_XOR } },
	{ { "&" }, { HB_AND } },
	{ { "==", "!=" }, { HB_EQ, HB_NE } },
	{ { "<", "<=", ">", ">=" }, { HB_LT, HB_LE, HB_GT, HB_GE } },
	{ { "<<", ">>" }, { HB_SHL, HB_SHR } },
	{ { "+", "-" }, { HB_ADD, HB_SUB } },
	{ { "*", "/", "%" }, { HB_MUL, HB_DIV, HB_MOD } },
};
#define NLEVELS ((int)(sizeof levels / sizeof *levels))

void hlp_index_binops(Parser *P, int n)
{
	P->binop = arena_alloc(P->a, (size_t)n + 1);
	for (int k = 0; k < n; k++) {
		P->binop[k] = -1;
		for (int l = 0; l < NLEVELS; l++)
			for (int i = 0; i < 4 && levels[l].tok[i]; i++)
				if (hlx_is(&P->t[k], levels[l].tok[i]))
					P->binop[k] = (signed char)(l * 4 + i);
	}
	P->binop[n] = -1;
	P->builtin = arena_alloc(P->a, (size_t)n + 1);
	memset(P->builtin, 0, (size_t)n + 1);
	P->ntoks = n;
}

static Val parse_level(Parser *P, int l)
{
	if (l == NLEVELS)
		return parse_unary(P);
	Val x = parse_level(P, l + 1);
	for (;;) {
		if (P->failed)
			return hlp_none;
		int c = P->binop[P->pos], found = c >= 0 && c / 4 == l ? c % 4 : -1;
		if (found < 0)
			return x;
		HTok *t = hlp_next(P);
		Val y = parse_level(P, l + 1);
		x = shallow(P, hlp_binop(P, levels[l].op[found], x, y, t), t->line, t->col);
	}
}

/* Skips the branch of a conditional operator C++ does not evaluate: to its
 * ':' (of the same '?') or to the end of the expression (a ',', ';', ':' or
 * closing bracket outside brackets), which it leaves. */
static void skip_branch(Parser *P)
{
	int depth = 0, open = 0;
	for (;;) {
		HTok *t = hlp_cur(P);
		if (t->kind == TK_EOF)
			return;
		if (depth == 0 && (hlx_is(t, ",") || hlx_is(t, ";") || hlx_is(t, ")") || hlx_is(t, "]") ||
				   hlx_is(t, "}") || (hlx_is(t, ":") && open == 0)))
			return;
		if (hlx_is(t, "(") || hlx_is(t, "[") || hlx_is(t, "{"))
			depth++;
		else if (hlx_is(t, ")") || hlx_is(t, "]") || hlx_is(t, "}"))
			depth--;
		else if (depth == 0 && hlx_is(t, "?"))
			open++;
		else if (depth == 0 && hlx_is(t, ":"))
			open--;
		hlp_next(P);
	}
}

/* c ? a : b, C++'s conditional operator: run when compiling, on a
 * condition known then (both values are parsed; the value is one of them).
 * On an Expr it is select()'s work. */
static Val parse_expr(Parser *P)
{
	Val c = parse_level(P, 0);
	if (P->failed || !hlp_at(P, "?"))
		return c;
	c = hlp_cpp_bool(c);    /* true, false: C++ bools */
	HTok *q = hlp_next(P);
	if (c.k == V_EXPR)
		return hlp_err_tok(P, q, "the conditional operator on an Expr (a %s known when the pipeline runs): "
				   "use select()", ht_name(c.e->type));
	if (c.k != V_INT && c.k != V_FLOAT && c.k != V_STRING)
		return hlp_err_tok(P, q, "the condition of '?' is %s, not a C++ number", hlp_val_desc(P, c));
	int yes = c.k == V_STRING || (c.k == V_INT ? c.i != 0 : c.f != 0);
	Val v = hlp_none;
	if (yes)
		v = hlp_parse_expr(P);
	else
		skip_branch(P);
	if (P->failed || !hlp_expect(P, ":"))
		return hlp_none;
	if (yes)
		skip_branch(P);
	else
		v = hlp_parse_expr(P);
	return P->failed ? hlp_none : v;
}

/* An expression, one level deeper than where it stands (in parentheses, an
 * argument). */
Val hlp_parse_expr(Parser *P)
{
	Val v = enter(P) ? parse_expr(P) : hlp_none;
	P->nesting--;
	return v;
}

void hlp_collect_rdoms(Parser *P, const HExpr *e, int *rdoms, int *n)
{
	if (!e)
		return;
	if (e->kind == HE_VAR && P->p->syms.data[e->sym].kind == SYM_RVAR) {
		int r = P->p->syms.data[e->sym].rdom;
		if (r < 0)
			return;         /* a split's loop name: refused in definitions */
		for (int i = 0; i < *n; i++)
			if (rdoms[i] == r)
				return;
		if (*n < 8)
			rdoms[(*n)++] = r;
		return;
	}
	if (e->kind == HE_SUM) {
		int inner[8], m = 0;
		hlp_collect_rdoms(P, e->a, inner, &m);
		for (int i = 0; i < m; i++)
			if (inner[i] != e->rdom) {
				for (int j = 0; j < *n && inner[i] >= 0; j++)
					if (rdoms[j] == inner[i])
						inner[i] = -1;
				if (inner[i] >= 0 && *n < 8)
					rdoms[(*n)++] = inner[i];
			}
		return;
	}
	hlp_collect_rdoms(P, e->a, rdoms, n);
	hlp_collect_rdoms(P, e->b, rdoms, n);
	hlp_collect_rdoms(P, e->c, rdoms, n);
	for (int i = 0; i < e->nargs; i++)
		hlp_collect_rdoms(P, e->args[i], rdoms, n);
}
