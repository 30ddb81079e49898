/* hl_parse.c - the parser and checker of the application language
 * (LANGUAGES.md section 4): declarations (ImageParam, Var, Func, RDom, Expr,
 * int), definitions (pure, update, constant-index), schedule calls and the
 * accelerator directives, written as the body of a Halide program.
 *
 * Expressions are built as Halide builds them in C++: a value is either a C++
 * integer (literals and arithmetic on them, folded as C++ does) or a typed
 * Expr; an integer meeting an Expr takes the Expr's type and must be
 * representable in it; two Exprs are matched by Halide's match_types. The
 * parser reports every error of the file: after an error it skips to the end
 * of the statement and goes on. */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "../../common/strmap.h"
#include "front.h"
#include "hl_lex.h"

typedef enum { V_NONE, V_INT, V_EXPR, V_FUNC, V_IMAGE, V_RDOM, V_TYPE, V_STRING, V_STAGE } VKind;

typedef struct Val {
	VKind k;
	int64_t i;              /* V_INT */
	HExpr *e;               /* V_EXPR */
	int id;                 /* V_FUNC, V_IMAGE, V_RDOM; V_STAGE: the Func */
	int def;                /* V_STAGE: its definition */
	HType t;                /* V_TYPE */
	const char *s;          /* V_STRING */
	int line, col;
} Val;

/* What a declared name stands for. */
typedef enum { N_VAR, N_FUNC, N_IMAGE, N_RDOM, N_EXPR, N_INT } NameKind;
typedef struct Name {
	NameKind k;
	int id;                 /* symbol, Func, image or RDom */
	HExpr *e;
	int64_t i;
} Name;

typedef struct P {
	HProgram *p;
	Arena *a;
	Diags *d;
	const char *file;
	HTok *t;
	int pos;
	int failed;             /* the current statement has reported an error */
	StrMap names;
	VEC(Name) nm;
} Parser;

static const Val none = { .k = V_NONE };

/* ---- tokens and errors ---- */

static HTok *cur(Parser *P)
{
	return &P->t[P->pos];
}

static HTok *next(Parser *P)
{
	HTok *t = &P->t[P->pos];
	if (t->kind != TK_EOF)
		P->pos++;
	return t;
}

static int at(Parser *P, const char *s)
{
	return hlx_is(cur(P), s);
}

static int accept(Parser *P, const char *s)
{
	if (!at(P, s))
		return 0;
	next(P);
	return 1;
}

static void verr(Parser *P, int line, int col, const char *fmt, va_list ap)
{
	if (P->failed)
		return;
	P->failed = 1;
	diag_vreport(P->d, DIAG_ERROR, P->file, line, col, fmt, ap);
}

static Val err_at(Parser *P, int line, int col, const char *fmt, ...) __attribute__((format(printf, 4, 5)));
static Val err_at(Parser *P, int line, int col, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	verr(P, line, col, fmt, ap);
	va_end(ap);
	return none;
}

static Val err_tok(Parser *P, const HTok *t, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static Val err_tok(Parser *P, const HTok *t, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	verr(P, t->line, t->col, fmt, ap);
	va_end(ap);
	return none;
}

static const char *tok_desc(const HTok *t)
{
	static char buf[64];
	switch (t->kind) {
	case TK_EOF: return "end of file";
	case TK_INT: return "an integer";
	case TK_STRING: return "a string";
	default:
		snprintf(buf, sizeof buf, "'%.40s'", t->text);
		return buf;
	}
}

static int expect(Parser *P, const char *s)
{
	if (accept(P, s))
		return 1;
	err_tok(P, cur(P), "expected '%s' before %s", s, tok_desc(cur(P)));
	return 0;
}

static const char *expect_name(Parser *P)
{
	if (cur(P)->kind == TK_NAME)
		return next(P)->text;
	err_tok(P, cur(P), "expected a name before %s", tok_desc(cur(P)));
	return NULL;
}

/* Skips to the end of the statement (a ';' outside brackets). */
static void sync(Parser *P)
{
	int depth = 0;
	while (cur(P)->kind != TK_EOF) {
		HTok *t = next(P);
		if (hlx_is(t, "(") || hlx_is(t, "{") || hlx_is(t, "["))
			depth++;
		else if ((hlx_is(t, ")") || hlx_is(t, "}") || hlx_is(t, "]")) && depth > 0)
			depth--;
		else if (hlx_is(t, ";") && depth == 0)
			return;
	}
}

/* ---- names ---- */

static const char *const reserved[] = {
	"ImageParam", "Var", "Func", "RDom", "Expr", "int", "const", "cast", "select", "min",
	"max", "abs", "absd", "clamp", "sum", "hw_accelerate", "stream_to_accelerator", "UInt",
	"Int", "Bool", "u8", "u16", "u32", "i8", "i16", "i32", "true", "false", NULL,
};

static Name *lookup(Parser *P, const char *s)
{
	intptr_t i;
	return strmap_get(&P->names, s, &i) ? &P->nm.data[i] : NULL;
}

static int declare(Parser *P, const HTok *t, Name n)
{
	for (int i = 0; reserved[i]; i++)
		if (strcmp(reserved[i], t->text) == 0) {
			err_tok(P, t, "'%s' is a reserved name", t->text);
			return 0;
		}
	if (lookup(P, t->text)) {
		err_tok(P, t, "'%s' is already declared", t->text);
		return 0;
	}
	strmap_put(&P->names, t->text, P->nm.len);
	vec_push(&P->nm, n);
	return 1;
}

static int new_sym(Parser *P, HSymKind k, const char *name, int line, int col)
{
	HSym s = { k, arena_strdup(P->a, name), -1, -1, line, col };
	vec_push(&P->p->syms, s);
	return P->p->syms.len - 1;
}

static const char *func_name(Parser *P, int f)
{
	return P->p->funcs.data[f].name;
}

/* ---- values ---- */

static Val vint(int64_t i, const HTok *t)
{
	Val v = { .k = V_INT, .i = i, .line = t->line, .col = t->col };
	return v;
}

static Val vexpr(HExpr *e, int line, int col)
{
	Val v = { .k = V_EXPR, .e = e, .line = line, .col = col };
	if (!e->line) {
		e->line = line;
		e->col = col;
	}
	return v;
}

static const char *val_desc(Parser *P, Val v)
{
	switch (v.k) {
	case V_FUNC: return arena_printf(P->a, "Func %s", func_name(P, v.id));
	case V_IMAGE: return arena_printf(P->a, "ImageParam %s", P->p->images.data[v.id].name);
	case V_RDOM: return arena_printf(P->a, "RDom %s", P->p->rdoms.data[v.id].name);
	case V_TYPE: return "a type";
	case V_STRING: return "a string";
	case V_STAGE: return "a stage";
	default: return "a value";
	}
}

/* The Expr of a value: a C++ int becomes an Int(32) constant. */
static HExpr *to_expr(Parser *P, Val v)
{
	if (v.k == V_INT) {
		if (v.i < INT32_MIN || v.i > INT32_MAX) {
			err_at(P, v.line, v.col, "integer %lld does not fit in int32", (long long)v.i);
			return NULL;
		}
		HExpr *e = he_const(P->a, HT_I32, v.i);
		e->line = v.line;
		e->col = v.col;
		return e;
	}
	if (v.k == V_EXPR)
		return v.e;
	if (v.k == V_RDOM) {
		HRDom *r = &P->p->rdoms.data[v.id];
		if (r->ndims == 1)
			return he_var(P->a, r->sym[0]);
		err_at(P, v.line, v.col, "RDom %s has %d dimensions: name one (%s.x, %s.y, ...)", r->name,
		       r->ndims, r->name, r->name);
		return NULL;
	}
	if (v.k != V_NONE)
		err_at(P, v.line, v.col, "expected an expression, found %s", val_desc(P, v));
	return NULL;
}

/* Halide's check_representable: a C++ int meeting an Expr of type t. */
static HExpr *coerce_int(Parser *P, Val v, HType t)
{
	if (v.i < ht_min(t) || v.i > ht_max(t)) {
		err_at(P, v.line, v.col,
		       "integer constant %lld will be implicitly coerced to type %s, which changes its value",
		       (long long)v.i, ht_name(t));
		return NULL;
	}
	HExpr *e = he_const(P->a, t, v.i);
	e->line = v.line;
	e->col = v.col;
	return e;
}

static int int32_ok(Parser *P, int64_t r, int line, int col)
{
	if (r < INT32_MIN || r > INT32_MAX) {
		err_at(P, line, col, "integer overflow in a constant expression (%lld)", (long long)r);
		return 0;
	}
	return 1;
}

/* C++ int arithmetic on two integers. */
static Val int_binop(Parser *P, HBinOp op, Val x, Val y, const HTok *t)
{
	int64_t a = x.i, b = y.i, r;
	switch (op) {
	case HB_ADD: r = a + b; break;
	case HB_SUB: r = a - b; break;
	case HB_MUL: r = a * b; break;
	case HB_DIV:
	case HB_MOD:
		if (b == 0)
			return err_tok(P, t, "division by zero in a constant expression");
		r = op == HB_DIV ? a / b : a % b;
		break;
	case HB_SHL:
	case HB_SHR:
		if (b < 0 || b > 31)
			return err_tok(P, t, "shift by %lld in a constant expression", (long long)b);
		r = op == HB_SHL ? a * ((int64_t)1 << b) : a >> b;
		break;
	case HB_AND: r = a & b; break;
	case HB_OR: r = a | b; break;
	case HB_XOR: r = a ^ b; break;
	case HB_LAND: r = a && b; break;
	case HB_LOR: r = a || b; break;
	case HB_EQ: r = a == b; break;
	case HB_NE: r = a != b; break;
	case HB_LT: r = a < b; break;
	case HB_LE: r = a <= b; break;
	case HB_GT: r = a > b; break;
	case HB_GE: r = a >= b; break;
	case HB_MIN: r = a < b ? a : b; break;
	case HB_MAX: r = a > b ? a : b; break;
	case HB_ABSD: r = a > b ? a - b : b - a; break;
	default: ICE("int_binop %d", op);
	}
	if (!int32_ok(P, r, t->line, t->col))
		return none;
	return vint(r, t);
}

static int is_bitwise(HBinOp op)
{
	return op == HB_AND || op == HB_OR || op == HB_XOR || op == HB_SHL || op == HB_SHR;
}

/* x op y with Halide's rules for Exprs. */
static Val expr_binop(Parser *P, HBinOp op, HExpr *x, HExpr *y, const HTok *t)
{
	HType tx = x->type, ty = y->type;
	if (op == HB_LAND || op == HB_LOR) {
		if (!ht_is_bool(tx) || !ht_is_bool(ty))
			return err_tok(P, t, "the operands of '%s' must be boolean, not %s and %s", hb_name(op),
				       ht_name(tx), ht_name(ty));
	} else if ((ht_is_bool(tx) || ht_is_bool(ty)) && op != HB_EQ && op != HB_NE) {
		return err_tok(P, t, "operator '%s' on a boolean value", hb_name(op));
	}
	if (is_bitwise(op) && !ht_eq(tx, ty))
		return err_tok(P, t, "the operands of '%s' have different types %s and %s: cast one",
			       hb_name(op), ht_name(tx), ht_name(ty));
	int64_t k;
	if ((op == HB_SHL || op == HB_SHR) && he_is_const(y, &k) && (k < 0 || k >= tx.bits))
		return err_tok(P, t, "shift of a %s value by %lld: the amount must be from 0 to %d", ht_name(tx),
			       (long long)k, tx.bits - 1);
	HExpr *e = he_fold(P->a, he_binop_matched(P->a, op, x, y));
	return vexpr(e, t->line, t->col);
}

static Val binop(Parser *P, HBinOp op, Val x, Val y, const HTok *t)
{
	if (x.k == V_NONE || y.k == V_NONE)
		return none;
	if (x.k == V_INT && y.k == V_INT)
		return int_binop(P, op, x, y, t);
	HExpr *ex, *ey;
	if (x.k == V_INT && y.k == V_EXPR) {
		ey = y.e;
		ex = coerce_int(P, x, ey->type);
	} else if (y.k == V_INT && x.k == V_EXPR) {
		ex = x.e;
		ey = coerce_int(P, y, ex->type);
	} else {
		ex = to_expr(P, x);
		ey = to_expr(P, y);
	}
	if (!ex || !ey)
		return none;
	return expr_binop(P, op, ex, ey, t);
}

/* ---- types ---- */

static int check_type(Parser *P, HType t, const HTok *at_tok)
{
	if (t.bits == 8) {
		err_tok(P, at_tok, "8-bit types are not supported: the hardware word is 16 bits; use uint16_t or int16_t");
		return 0;
	}
	return 1;
}

/* A C++ type name in cast<T> or a concise cast name. */
static int ctype(const char *s, HType *t)
{
	static const struct { const char *n; HType t; } tab[] = {
		{ "uint16_t", { 0, 16 } }, { "int16_t", { 1, 16 } }, { "uint32_t", { 0, 32 } },
		{ "int32_t", { 1, 32 } }, { "int", { 1, 32 } }, { "bool", { 0, 1 } },
		{ "uint8_t", { 0, 8 } }, { "int8_t", { 1, 8 } }, { "u16", { 0, 16 } },
		{ "i16", { 1, 16 } }, { "u32", { 0, 32 } }, { "i32", { 1, 32 } }, { "u8", { 0, 8 } },
		{ "i8", { 1, 8 } },
	};
	for (size_t i = 0; i < sizeof tab / sizeof *tab; i++)
		if (strcmp(tab[i].n, s) == 0) {
			*t = tab[i].t;
			return 1;
		}
	return 0;
}

static HExpr *make_cast(Parser *P, HType t, Val v, const HTok *tok)
{
	if (!check_type(P, t, tok))
		return NULL;
	if (v.k == V_INT)
		return he_const(P->a, t, v.i);
	HExpr *e = to_expr(P, v);
	if (!e)
		return NULL;
	return he_fold(P->a, he_cast(P->a, t, e));
}

/* ---- expressions ---- */

static Val parse_expr(Parser *P);

/* '(' expr {',' expr} ')' into vals; returns the count or -1. */
static int parse_args(Parser *P, Val *vals, int max)
{
	int n = 0;
	if (!expect(P, "("))
		return -1;
	if (accept(P, ")"))
		return 0;
	do {
		if (n == max) {
			err_tok(P, cur(P), "too many arguments (at most %d)", max);
			return -1;
		}
		vals[n++] = parse_expr(P);
		if (P->failed)
			return -1;
	} while (accept(P, ","));
	if (!expect(P, ")"))
		return -1;
	return n;
}

/* Halide's check_call_arg_types: arguments become Int(32). */
static HExpr *call_arg(Parser *P, Val v, const char *callee, int i)
{
	HExpr *e = to_expr(P, v);
	if (!e)
		return NULL;
	HType t = e->type;
	if ((!t.is_signed && t.bits >= 32) || ht_is_bool(t)) {
		err_at(P, v.line, v.col,
		       "implicit cast from %s to int in argument %d in call to '%s' is not allowed: use an explicit cast",
		       ht_name(t), i + 1, callee);
		return NULL;
	}
	return he_fold(P->a, he_cast(P->a, HT_I32, e));
}

static Val parse_call(Parser *P, int callee, int is_image, const HTok *t)
{
	Val args[16];
	int n = parse_args(P, args, 16);
	if (n < 0)
		return none;
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
		if (!f->defined)
			return err_tok(P, t, "Func '%s' is called before it has a definition", name);
		dims = f->dims;
		type = f->type;
	}
	if (n != dims)
		return err_tok(P, t, "%d-argument call to '%s', which has %d dimension%s", n, name, dims,
			       dims == 1 ? "" : "s");
	HExpr *ea[16];
	for (int i = 0; i < n; i++)
		if (!(ea[i] = call_arg(P, args[i], name, i)))
			return none;
	HExpr *e = he_call(P->a, callee, is_image, type, ea, n);
	return vexpr(e, t->line, t->col);
}

static void collect_rdoms(Parser *P, const HExpr *e, int *rdoms, int *n);

/* sum(e): an inline reduction over the one RDom whose variables e uses. */
static Val make_sum(Parser *P, Val v, const HTok *t)
{
	HExpr *e = to_expr(P, v);
	if (!e)
		return none;
	int rd[8], n = 0;
	collect_rdoms(P, e, rd, &n);
	if (n == 0)
		return err_tok(P, t, "sum() of an expression with no reduction variable");
	if (n > 1)
		return err_tok(P, t, "sum() over two RDoms (%s and %s)", P->p->rdoms.data[rd[0]].name,
			       P->p->rdoms.data[rd[1]].name);
	if (ht_is_bool(e->type))
		return err_tok(P, t, "sum() of a boolean expression");
	HExpr *s = arena_alloc(P->a, sizeof *s);
	s->kind = HE_SUM;
	s->type = e->type;
	s->rdom = rd[0];
	s->a = e;
	s->sym = s->callee = -1;
	return vexpr(s, t->line, t->col);
}

/* min/max/absd of two values. */
static Val minmax(Parser *P, HBinOp op, Val x, Val y, const HTok *t)
{
	if (x.k == V_INT && y.k == V_INT)
		return int_binop(P, op, x, y, t);
	Val r = binop(P, op, x, y, t);
	return r;
}

static Val make_clamp(Parser *P, Val a, Val lo, Val hi, const HTok *t)
{
	if (a.k == V_INT && lo.k == V_INT && hi.k == V_INT)
		return vint(a.i < lo.i ? lo.i : a.i > hi.i ? hi.i : a.i, t);
	HExpr *ea = to_expr(P, a);
	if (!ea)
		return none;
	HExpr *b[2];
	Val bv[2] = { lo, hi };
	for (int i = 0; i < 2; i++) {
		if (bv[i].k == V_INT) {
			if (!(b[i] = coerce_int(P, bv[i], ea->type)))
				return none;
		} else {
			if (!(b[i] = to_expr(P, bv[i])))
				return none;
			int64_t c;
			if (he_is_const(b[i], &c) && c >= ht_min(ea->type) && c <= ht_max(ea->type))
				b[i] = he_const(P->a, ea->type, c);
			else if (!ht_eq(b[i]->type, ea->type))
				return err_at(P, bv[i].line, bv[i].col,
					      "clamp: the bound has type %s, which cannot be losslessly cast to %s",
					      ht_name(b[i]->type), ht_name(ea->type));
		}
	}
	if (ht_is_bool(ea->type))
		return err_tok(P, t, "clamp of a boolean value");
	HExpr *e = he_fold(P->a, he_bin(P->a, HB_MIN, ea->type, ea, b[1]));
	e = he_fold(P->a, he_bin(P->a, HB_MAX, ea->type, e, b[0]));
	return vexpr(e, t->line, t->col);
}

/* Halide's select: a signed integer constant takes the other value's type. */
static Val make_select(Parser *P, Val c, Val tv, Val fv, const HTok *t)
{
	HExpr *ec = to_expr(P, c), *et = to_expr(P, tv), *ef = to_expr(P, fv);
	if (!ec || !et || !ef)
		return none;
	if (!ht_is_bool(ec->type))
		return err_at(P, c.line, c.col, "the condition of select must be boolean, not %s",
			      ht_name(ec->type));
	int64_t k;
	if (he_is_const(et, &k) && et->type.is_signed)
		et = he_const(P->a, ef->type, k);
	if (he_is_const(ef, &k) && ef->type.is_signed)
		ef = he_const(P->a, et->type, k);
	if (!ht_eq(et->type, ef->type))
		return err_tok(P, t, "select: the values have different types %s and %s", ht_name(et->type),
			       ht_name(ef->type));
	return vexpr(he_fold(P->a, he_select(P->a, ec, et, ef)), t->line, t->col);
}

static Val make_abs(Parser *P, Val v, const HTok *t)
{
	if (v.k == V_INT)
		return vint(v.i < 0 ? -v.i : v.i, t);
	HExpr *e = to_expr(P, v);
	if (!e)
		return none;
	if (ht_is_bool(e->type))
		return err_tok(P, t, "abs of a boolean value");
	HType rt = { 0, e->type.bits };
	return vexpr(he_fold(P->a, he_un(P->a, HU_ABS, rt, e)), t->line, t->col);
}

/* cast<T>(e) */
static Val parse_cast(Parser *P, const HTok *t)
{
	if (!expect(P, "<"))
		return none;
	HTok *tt = cur(P);
	HType ty;
	if (tt->kind != TK_NAME || !ctype(tt->text, &ty))
		return err_tok(P, tt, "expected a type (uint16_t, int16_t, uint32_t, int32_t, bool) before %s",
			       tok_desc(tt));
	next(P);
	if (!expect(P, ">"))
		return none;
	Val a[1];
	int n = parse_args(P, a, 1);
	if (n != 1)
		return n < 0 ? none : err_tok(P, t, "cast<%s> takes one argument", tt->text);
	HExpr *e = make_cast(P, ty, a[0], tt);
	return e ? vexpr(e, t->line, t->col) : none;
}

/* Halide's type values: UInt(16), Int(16), Bool(). */
static Val parse_type(Parser *P, const HTok *t)
{
	Val a[1];
	int n = parse_args(P, a, 1);
	if (n < 0)
		return none;
	Val v = { .k = V_TYPE, .line = t->line, .col = t->col };
	if (hlx_is(t, "Bool")) {
		if (n != 0)
			return err_tok(P, t, "Bool() takes no argument");
		v.t = HT_BOOL;
		return v;
	}
	if (n != 1 || a[0].k != V_INT)
		return err_tok(P, t, "%s() takes a bit width", t->text);
	if (a[0].i != 8 && a[0].i != 16 && a[0].i != 32)
		return err_at(P, a[0].line, a[0].col, "bit width %lld of %s(): expected 16 or 32",
			      (long long)a[0].i, t->text);
	v.t = (HType){ hlx_is(t, "Int"), (uint8_t)a[0].i };
	if (!check_type(P, v.t, t))
		return none;
	return v;
}

static Val builtin(Parser *P, const HTok *t)
{
	HType ty;
	if (hlx_is(t, "cast"))
		return parse_cast(P, t);
	if (hlx_is(t, "UInt") || hlx_is(t, "Int") || hlx_is(t, "Bool"))
		return parse_type(P, t);
	Val a[3];
	int n = parse_args(P, a, 3);
	if (n < 0)
		return none;
	struct { const char *name; int nargs; } tab[] = {
		{ "select", 3 }, { "min", 2 }, { "max", 2 }, { "abs", 1 }, { "absd", 2 },
		{ "clamp", 3 }, { "sum", 1 }, { "Expr", 1 },
	};
	for (size_t i = 0; i < sizeof tab / sizeof *tab; i++)
		if (hlx_is(t, tab[i].name) && n != tab[i].nargs)
			return err_tok(P, t, "%s() takes %d argument%s, not %d", t->text, tab[i].nargs,
				       tab[i].nargs == 1 ? "" : "s", n);
	if (ctype(t->text, &ty)) {
		if (n != 1)
			return err_tok(P, t, "%s() takes one argument", t->text);
		HExpr *e = make_cast(P, ty, a[0], t);
		return e ? vexpr(e, t->line, t->col) : none;
	}
	if (hlx_is(t, "select"))
		return make_select(P, a[0], a[1], a[2], t);
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
		return make_sum(P, a[0], t);
	HExpr *e = to_expr(P, a[0]);   /* Expr(v) */
	return e ? vexpr(e, t->line, t->col) : none;
}

static int is_builtin(const HTok *t)
{
	static const char *const b[] = {
		"cast", "select", "min", "max", "abs", "absd", "clamp", "sum", "Expr", "UInt", "Int",
		"Bool", NULL,
	};
	HType ty;
	for (int i = 0; b[i]; i++)
		if (hlx_is(t, b[i]))
			return 1;
	return ctype(t->text, &ty) && strcmp(t->text, "int") != 0;
}

static Val name_value(Parser *P, const HTok *t)
{
	Name *n = lookup(P, t->text);
	if (!n)
		return err_tok(P, t, "unknown name '%s'", t->text);
	Val v = { .line = t->line, .col = t->col };
	switch (n->k) {
	case N_VAR: return vexpr(he_var(P->a, n->id), t->line, t->col);
	case N_EXPR: v.k = V_EXPR; v.e = n->e; return v;
	case N_INT: v.k = V_INT; v.i = n->i; return v;
	case N_FUNC: v.k = V_FUNC; v.id = n->id; return v;
	case N_IMAGE: v.k = V_IMAGE; v.id = n->id; return v;
	case N_RDOM: v.k = V_RDOM; v.id = n->id; return v;
	}
	return none;
}

static Val wrapper_of(Parser *P, Val v, const HTok *t, int for_func);

static Val parse_primary(Parser *P)
{
	HTok *t = cur(P);
	if (t->kind == TK_INT) {
		next(P);
		return vint(t->value, t);
	}
	if (accept(P, "(")) {
		Val v = parse_expr(P);
		if (!expect(P, ")"))
			return none;
		return v;
	}
	if (t->kind == TK_NAME) {
		next(P);
		if (hlx_is(t, "true") || hlx_is(t, "false"))
			return vexpr(he_const(P->a, HT_BOOL, hlx_is(t, "true")), t->line, t->col);
		if (is_builtin(t) && (at(P, "(") || (hlx_is(t, "cast") && at(P, "<"))))
			return builtin(P, t);
		return name_value(P, t);
	}
	if (t->kind == TK_STRING) {
		next(P);
		Val v = { .k = V_STRING, .s = t->text, .line = t->line, .col = t->col };
		return v;
	}
	return err_tok(P, t, "expected an expression before %s", tok_desc(t));
}

static Val rdom_member(Parser *P, Val v, const HTok *t)
{
	static const char *const members = "xyzw";
	HRDom *r = &P->p->rdoms.data[v.id];
	const char *m = strchr(members, t->text[0]);
	if (!m || t->text[1] || (int)(m - members) >= r->ndims)
		return err_tok(P, t, "RDom %s has no member '%s' (it has %d dimension%s: %.*s)", r->name,
			       t->text, r->ndims, r->ndims == 1 ? "" : "s", r->ndims, members);
	return vexpr(he_var(P->a, r->sym[m - members]), t->line, t->col);
}

static Val parse_postfix(Parser *P)
{
	Val v = parse_primary(P);
	for (;;) {
		if (P->failed)
			return none;
		HTok *t = cur(P);
		if ((v.k == V_FUNC || v.k == V_IMAGE) && at(P, "(")) {
			v = parse_call(P, v.id, v.k == V_IMAGE, t);
		} else if (v.k == V_RDOM && accept(P, ".")) {
			HTok *m = cur(P);
			if (!expect_name(P))
				return none;
			v = rdom_member(P, v, m);
		} else if ((v.k == V_FUNC || v.k == V_IMAGE) && at(P, ".") && hlx_is(&P->t[P->pos + 1], "in")) {
			next(P);
			HTok *m = next(P);
			Val a[1];
			int n = parse_args(P, a, 1);
			if (n < 0)
				return none;
			if (n == 1 && a[0].k != V_FUNC)
				return err_at(P, a[0].line, a[0].col, "in() takes a Func, not %s", val_desc(P, a[0]));
			v = wrapper_of(P, v, m, n == 1 ? a[0].id : -1);
		} else {
			return v;
		}
	}
}

static Val parse_unary(Parser *P)
{
	HTok *t = cur(P);
	if (accept(P, "-") || accept(P, "+") || accept(P, "!") || accept(P, "~")) {
		Val v = parse_unary(P);
		if (v.k == V_NONE)
			return none;
		if (hlx_is(t, "+"))
			return v;
		if (v.k == V_INT) {
			int64_t r = hlx_is(t, "-") ? -v.i : hlx_is(t, "!") ? !v.i : ~v.i;
			return vint(r, t);
		}
		HExpr *e = to_expr(P, v);
		if (!e)
			return none;
		if (hlx_is(t, "!")) {
			if (!ht_is_bool(e->type))
				return err_tok(P, t, "the operand of '!' must be boolean, not %s", ht_name(e->type));
			e = he_un(P->a, HU_LNOT, HT_BOOL, e);
		} else {
			if (ht_is_bool(e->type))
				return err_tok(P, t, "operator '%s' on a boolean value", t->text);
			e = he_un(P->a, hlx_is(t, "-") ? HU_NEG : HU_NOT, e->type, e);
		}
		return vexpr(he_fold(P->a, e), t->line, t->col);
	}
	return parse_postfix(P);
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

static Val parse_level(Parser *P, int l)
{
	if (l == NLEVELS)
		return parse_unary(P);
	Val x = parse_level(P, l + 1);
	for (;;) {
		if (P->failed)
			return none;
		int i, found = -1;
		for (i = 0; i < 4 && levels[l].tok[i]; i++)
			if (at(P, levels[l].tok[i]))
				found = i;
		if (found < 0)
			return x;
		HTok *t = next(P);
		Val y = parse_level(P, l + 1);
		x = binop(P, levels[l].op[found], x, y, t);
	}
}

static Val parse_expr(Parser *P)
{
	if (at(P, "?"))
		return err_tok(P, cur(P), "the conditional operator is not supported: use select()");
	Val v = parse_level(P, 0);
	if (at(P, "?"))
		return err_tok(P, cur(P), "the conditional operator is not supported: use select()");
	return v;
}

static void collect_rdoms(Parser *P, const HExpr *e, int *rdoms, int *n)
{
	if (!e)
		return;
	if (e->kind == HE_VAR && P->p->syms.data[e->sym].kind == SYM_RVAR) {
		int r = P->p->syms.data[e->sym].rdom;
		for (int i = 0; i < *n; i++)
			if (rdoms[i] == r)
				return;
		if (*n < 8)
			rdoms[(*n)++] = r;
		return;
	}
	if (e->kind == HE_SUM) {
		int inner[8], m = 0;
		collect_rdoms(P, e->a, inner, &m);
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
	collect_rdoms(P, e->a, rdoms, n);
	collect_rdoms(P, e->b, rdoms, n);
	collect_rdoms(P, e->c, rdoms, n);
	for (int i = 0; i < e->nargs; i++)
		collect_rdoms(P, e->args[i], rdoms, n);
}


/* ---- Funcs ---- */

static int new_func(Parser *P, const char *name, int line, int col)
{
	HFunc f = { 0 };
	f.name = arena_strdup(P->a, name);
	f.line = line;
	f.col = col;
	f.compute.kind = f.store.kind = LEVEL_INLINE;
	f.compute.func = f.store.func = f.compute.var = f.store.var = -1;
	f.wrapper_of = f.wrapper_for = -1;
	vec_push(&P->p->funcs, f);
	return P->p->funcs.len - 1;
}

static HDef *push_def(Parser *P, int f, HExpr **lhs, int n, HExpr *value, const HTok *t)
{
	HFunc *fn = &P->p->funcs.data[f];
	HDef d = { 0 };
	d.lhs = arena_alloc(P->a, sizeof *lhs * (size_t)(n ? n : 1));
	memcpy(d.lhs, lhs, sizeof *lhs * (size_t)n);
	d.nlhs = n;
	d.value = value;
	d.update = fn->defs.len;
	d.line = t->line;
	d.col = t->col;
	vec_push(&fn->defs, d);
	return &vec_last(&fn->defs);
}

/* f.in() / f.in(g): the wrapper Func of a Func or image (one per caller). */
static Val wrapper_of(Parser *P, Val v, const HTok *t, int for_func)
{
	HProgram *p = P->p;
	int key = v.k == V_IMAGE ? -2 - v.id : v.id;
	for (int i = 0; i < p->funcs.len; i++)
		if (p->funcs.data[i].wrapper_of == key && p->funcs.data[i].wrapper_for == for_func) {
			Val r = { .k = V_FUNC, .id = i, .line = t->line, .col = t->col };
			return r;
		}
	int dims;
	HType type;
	const char *base;
	const int *vars = NULL;
	if (v.k == V_IMAGE) {
		HImage *im = &p->images.data[v.id];
		dims = im->dims;
		type = im->type;
		base = im->name;
	} else {
		HFunc *f = &p->funcs.data[v.id];
		if (!f->defined)
			return err_tok(P, t, "in() of Func '%s', which has no definition", f->name);
		dims = f->dims;
		type = f->type;
		base = f->name;
		vars = f->vars;
	}
	const char *name = for_func < 0 ? arena_printf(P->a, "%s_in", base)
					: arena_printf(P->a, "%s_in_%s", base, func_name(P, for_func));
	int w = new_func(P, name, t->line, t->col);
	HFunc *wf = &p->funcs.data[w];
	wf->wrapper_of = key;
	wf->wrapper_for = for_func;
	wf->defined = 1;
	wf->dims = dims;
	wf->type = type;
	wf->vars = arena_alloc(P->a, sizeof *wf->vars * (size_t)dims);
	HExpr *args[16];
	for (int i = 0; i < dims; i++) {
		wf->vars[i] = vars ? vars[i] : new_sym(P, SYM_VAR, arena_printf(P->a, "_%d", i), t->line, t->col);
		args[i] = he_var(P->a, wf->vars[i]);
	}
	HExpr *call = he_call(P->a, v.k == V_IMAGE ? v.id : v.id, v.k == V_IMAGE, type, args, dims);
	HDef *d = push_def(P, w, args, dims, call, t);
	for (int i = 0; i < dims; i++) {
		vec_push(&d->sched.dims, wf->vars[i]);
		vec_push(&d->sched.unrolled, 0);
	}
	Val r = { .k = V_FUNC, .id = w, .line = t->line, .col = t->col };
	return r;
}

/* Free variables of e of one kind (RVars bound by a sum() excluded). */
static void free_syms(Parser *P, const HExpr *e, HSymKind k, int bound_rdom, int *out, int *n, int max)
{
	if (!e)
		return;
	if (e->kind == HE_VAR) {
		HSym *s = &P->p->syms.data[e->sym];
		if (s->kind != k || (k == SYM_RVAR && s->rdom == bound_rdom))
			return;
		for (int i = 0; i < *n; i++)
			if (out[i] == e->sym)
				return;
		if (*n < max)
			out[(*n)++] = e->sym;
		return;
	}
	if (e->kind == HE_SUM) {
		free_syms(P, e->a, k, e->rdom, out, n, max);
		return;
	}
	free_syms(P, e->a, k, bound_rdom, out, n, max);
	free_syms(P, e->b, k, bound_rdom, out, n, max);
	free_syms(P, e->c, k, bound_rdom, out, n, max);
	for (int i = 0; i < e->nargs; i++)
		free_syms(P, e->args[i], k, bound_rdom, out, n, max);
}

static const HExpr *find_var(const HExpr *e, int sym)
{
	if (!e)
		return NULL;
	if (e->kind == HE_VAR && e->sym == sym)
		return e;
	const HExpr *r;
	if ((r = find_var(e->a, sym)) || (r = find_var(e->b, sym)) || (r = find_var(e->c, sym)))
		return r;
	for (int i = 0; i < e->nargs; i++)
		if ((r = find_var(e->args[i], sym)))
			return r;
	return NULL;
}

static int pure_def(Parser *P, int f, Val *args, int n, Val rhs, const HTok *ft)
{
	HFunc *fn = &P->p->funcs.data[f];
	HExpr *lhs[16];
	for (int i = 0; i < n; i++) {
		lhs[i] = to_expr(P, args[i]);
		if (!lhs[i])
			return 0;
		if (lhs[i]->kind != HE_VAR || P->p->syms.data[lhs[i]->sym].kind != SYM_VAR) {
			err_at(P, args[i].line, args[i].col,
			       "the pure definition of '%s' takes distinct Vars as arguments", fn->name);
			return 0;
		}
		for (int j = 0; j < i; j++)
			if (lhs[j]->sym == lhs[i]->sym) {
				err_at(P, args[i].line, args[i].col, "variable '%s' appears twice on the left of '%s'",
				       hl_sym_name(P->p, lhs[i]->sym), fn->name);
				return 0;
			}
	}
	HExpr *v = to_expr(P, rhs);
	if (!v)
		return 0;
	int syms[32], ns = 0;
	free_syms(P, v, SYM_VAR, -1, syms, &ns, 32);
	for (int i = 0; i < ns; i++) {
		int ok = 0;
		for (int j = 0; j < n; j++)
			ok |= lhs[j]->sym == syms[i];
		if (!ok) {
			const HExpr *at_e = find_var(v, syms[i]);
			err_at(P, at_e->line, at_e->col, "undefined variable '%s' in the definition of '%s'",
			       hl_sym_name(P->p, syms[i]), fn->name);
			return 0;
		}
	}
	ns = 0;
	free_syms(P, v, SYM_RVAR, -1, syms, &ns, 32);
	if (ns) {
		const HExpr *at_e = find_var(v, syms[0]);
		err_at(P, at_e->line, at_e->col,
		       "the pure definition of '%s' uses the reduction variable '%s': write an update definition or sum()",
		       fn->name, hl_sym_name(P->p, syms[0]));
		return 0;
	}
	fn = &P->p->funcs.data[f];
	fn->defined = 1;
	fn->dims = n;
	fn->type = v->type;
	fn->vars = arena_alloc(P->a, sizeof *fn->vars * (size_t)(n ? n : 1));
	for (int i = 0; i < n; i++)
		fn->vars[i] = lhs[i]->sym;
	HDef *d = push_def(P, f, lhs, n, v, ft);
	for (int i = 0; i < n; i++) {
		vec_push(&d->sched.dims, lhs[i]->sym);
		vec_push(&d->sched.unrolled, 0);
	}
	return 1;
}

/* The implicit pure definition of `f(args) op= e` on an undefined Func:
 * the identity of op, of e's type. */
static int implicit_pure(Parser *P, int f, Val *args, int n, HBinOp op, Val rhs, const HTok *ft)
{
	HExpr *e = to_expr(P, rhs);
	if (!e)
		return 0;
	Val vars[16];
	for (int i = 0; i < n; i++) {
		HExpr *a = to_expr(P, args[i]);
		if (!a)
			return 0;
		if (a->kind == HE_VAR && P->p->syms.data[a->sym].kind == SYM_VAR) {
			vars[i] = vexpr(a, args[i].line, args[i].col);
		} else {
			int s = new_sym(P, SYM_VAR, arena_printf(P->a, "_%d", i), ft->line, ft->col);
			vars[i] = vexpr(he_var(P->a, s), args[i].line, args[i].col);
		}
	}
	HExpr *init = he_const(P->a, e->type, op == HB_MUL ? 1 : 0);
	return pure_def(P, f, vars, n, vexpr(init, ft->line, ft->col), ft);
}

/* The arguments on the left of an update: Int(32), affine in pure vars (at
 * their pure positions), RVars and constants; no data-dependent address. */
static int update_lhs(Parser *P, HFunc *fn, Val *args, int n, HExpr **lhs)
{
	for (int i = 0; i < n; i++) {
		if (!(lhs[i] = call_arg(P, args[i], fn->name, i)))
			return 0;
		if (he_calls_any(lhs[i])) {
			err_at(P, args[i].line, args[i].col,
			       "data-dependent write to '%s': the address depends on data (a histogram); "
			       "only affine write addresses are supported (Unified Buffer Table 2)",
			       fn->name);
			return 0;
		}
		int syms[16], ns = 0;
		free_syms(P, lhs[i], SYM_VAR, -1, syms, &ns, 16);
		for (int k = 0; k < ns; k++) {
			int pos = -1;
			for (int j = 0; j < fn->dims; j++)
				if (fn->vars[j] == syms[k])
					pos = j;
			if (pos != i || lhs[i]->kind != HE_VAR) {
				err_at(P, args[i].line, args[i].col,
				       pos < 0 ? "undefined variable '%s' on the left of an update of '%s'"
					       : "pure variable '%s' of '%s' must appear alone at its own position in an update",
				       hl_sym_name(P->p, syms[k]), fn->name);
				return 0;
			}
		}
	}
	return 1;
}

static int update_def(Parser *P, int f, Val *args, int n, HBinOp op, int has_op, Val rhs, const HTok *ft,
		      const HTok *opt)
{
	HFunc *fn = &P->p->funcs.data[f];
	if (n != fn->dims) {
		err_tok(P, ft, "update of '%s' with %d argument%s; it has %d dimension%s", fn->name, n,
			n == 1 ? "" : "s", fn->dims, fn->dims == 1 ? "" : "s");
		return 0;
	}
	HExpr *lhs[16];
	if (!update_lhs(P, fn, args, n, lhs))
		return 0;
	Val v = rhs;
	if (has_op) {
		HExpr *self = he_call(P->a, f, 0, fn->type, lhs, n);
		v = binop(P, op, vexpr(self, ft->line, ft->col), rhs, opt);
	} else if (v.k == V_INT) {
		v = vexpr(to_expr(P, v), v.line, v.col);
	}
	HExpr *e = v.k == V_NONE ? NULL : to_expr(P, v);
	if (!e)
		return 0;
	fn = &P->p->funcs.data[f];
	if (!ht_eq(e->type, fn->type)) {
		err_at(P, rhs.line, rhs.col, "cannot update '%s' (of type %s) with a value of type %s",
		       fn->name, ht_name(fn->type), ht_name(e->type));
		return 0;
	}
	int rd[8], nr = 0;
	for (int i = 0; i < n; i++)
		collect_rdoms(P, lhs[i], rd, &nr);
	collect_rdoms(P, e, rd, &nr);
	if (nr > 1) {
		err_tok(P, ft, "an update of '%s' uses two RDoms (%s and %s)", fn->name,
			P->p->rdoms.data[rd[0]].name, P->p->rdoms.data[rd[1]].name);
		return 0;
	}
	int syms[32], ns = 0;
	free_syms(P, e, SYM_VAR, -1, syms, &ns, 32);
	for (int k = 0; k < ns; k++) {
		int ok = 0;
		for (int i = 0; i < n; i++)
			ok |= lhs[i]->kind == HE_VAR && lhs[i]->sym == syms[k];
		if (!ok) {
			const HExpr *at_e = find_var(e, syms[k]);
			err_at(P, at_e->line, at_e->col, "undefined variable '%s' in an update of '%s'",
			       hl_sym_name(P->p, syms[k]), fn->name);
			return 0;
		}
	}
	HDef *d = push_def(P, f, lhs, n, e, ft);
	if (nr == 1) {
		HRDom *r = &P->p->rdoms.data[rd[0]];
		for (int i = 0; i < r->ndims; i++) {
			vec_push(&d->sched.dims, r->sym[i]);
			vec_push(&d->sched.unrolled, 0);
		}
	}
	for (int i = 0; i < n; i++)
		if (lhs[i]->kind == HE_VAR && P->p->syms.data[lhs[i]->sym].kind == SYM_VAR) {
			vec_push(&d->sched.dims, lhs[i]->sym);
			vec_push(&d->sched.unrolled, 0);
		}
	return 1;
}

static void definition(Parser *P, int f, const HTok *ft)
{
	Val args[16];
	int n = parse_args(P, args, 16);
	if (n < 0)
		return;
	HTok *opt = cur(P);
	static const char *const ops[] = { "=", "+=", "-=", "*=", "/=" };
	static const HBinOp bops[] = { HB_ADD, HB_ADD, HB_SUB, HB_MUL, HB_DIV };
	int k = -1;
	for (int i = 0; i < 5; i++)
		if (hlx_is(opt, ops[i]))
			k = i;
	if (k < 0) {
		err_tok(P, opt, "expected '=' or an update operator after a call of '%s' before %s",
			func_name(P, f), tok_desc(opt));
		return;
	}
	next(P);
	Val rhs = parse_expr(P);
	if (P->failed || !expect(P, ";"))
		return;
	HFunc *fn = &P->p->funcs.data[f];
	if (!fn->defined) {
		if (k == 0)
			pure_def(P, f, args, n, rhs, ft);
		else if (implicit_pure(P, f, args, n, bops[k], rhs, ft))
			update_def(P, f, args, n, bops[k], 1, rhs, ft, opt);
		return;
	}
	update_def(P, f, args, n, bops[k], k > 0, rhs, ft, opt);
}

/* ---- schedules ---- */

static int var_arg(Parser *P, Val v, const char *what)
{
	HExpr *e = v.k == V_RDOM ? to_expr(P, v) : v.k == V_EXPR ? v.e : NULL;
	if (!e || e->kind != HE_VAR) {
		if (!P->failed)
			err_at(P, v.line, v.col, "%s: expected a Var or RVar", what);
		return -1;
	}
	return e->sym;
}

static int int_arg(Parser *P, Val v, const char *what, int64_t lo, int64_t *out)
{
	if (v.k != V_INT) {
		err_at(P, v.line, v.col, "%s: expected an integer constant", what);
		return 0;
	}
	if (v.i < lo) {
		err_at(P, v.line, v.col, "%s: %lld is below %lld", what, (long long)v.i, (long long)lo);
		return 0;
	}
	*out = v.i;
	return 1;
}

static int dim_index(const HStageSched *s, int sym)
{
	for (int i = 0; i < s->dims.len; i++)
		if (s->dims.data[i] == sym)
			return i;
	return -1;
}

static const char *stage_name(Parser *P, int f, int def)
{
	return arena_printf(P->a, "%s.s%d", func_name(P, f), def);
}

static const char *stage_loops(Parser *P, const HStageSched *s)
{
	StrBuf b = { 0 };
	for (int i = s->dims.len - 1; i >= 0; i--)
		sb_printf(&b, "%s%s", i == s->dims.len - 1 ? "" : ", ", hl_sym_name(P->p, s->dims.data[i]));
	const char *r = arena_strdup(P->a, b.s ? b.s : "");
	free(b.s);
	return r;
}

static int find_dim(Parser *P, HStageSched *s, int sym, Val v, const char *what, int f, int def)
{
	int i = dim_index(s, sym);
	if (i < 0)
		err_at(P, v.line, v.col, "%s: '%s' is not a loop of %s (its loops, outermost first: %s)", what,
		       hl_sym_name(P->p, sym), stage_name(P, f, def), stage_loops(P, s));
	return i;
}

static int do_split(Parser *P, HStageSched *s, int f, int def, Val *a, int64_t factor)
{
	int old = var_arg(P, a[0], "split"), outer = var_arg(P, a[1], "split"),
	    inner = var_arg(P, a[2], "split");
	if (old < 0 || outer < 0 || inner < 0)
		return 0;
	int i = find_dim(P, s, old, a[0], "split", f, def);
	if (i < 0)
		return 0;
	if (outer == inner || (outer != old && dim_index(s, outer) >= 0) || dim_index(s, inner) >= 0) {
		err_at(P, a[1].line, a[1].col, "split of '%s': the new loop names must be fresh in %s",
		       hl_sym_name(P->p, old), stage_name(P, f, def));
		return 0;
	}
	HSplit sp = { old, outer, inner, factor, a[0].line, a[0].col };
	vec_push(&s->splits, sp);
	vec_push(&s->dims, 0);
	vec_push(&s->unrolled, 0);
	for (int k = s->dims.len - 1; k > i + 1; k--) {
		s->dims.data[k] = s->dims.data[k - 1];
		s->unrolled.data[k] = s->unrolled.data[k - 1];
	}
	s->dims.data[i] = inner;
	s->dims.data[i + 1] = outer;
	s->unrolled.data[i] = s->unrolled.data[i + 1] = 0;
	return 1;
}

static int do_reorder(Parser *P, HStageSched *s, int f, int def, Val *a, int n)
{
	int pos[16], syms[16];
	for (int i = 0; i < n; i++) {
		if ((syms[i] = var_arg(P, a[i], "reorder")) < 0)
			return 0;
		if ((pos[i] = find_dim(P, s, syms[i], a[i], "reorder", f, def)) < 0)
			return 0;
		for (int j = 0; j < i; j++)
			if (syms[j] == syms[i]) {
				err_at(P, a[i].line, a[i].col, "reorder: '%s' appears twice", hl_sym_name(P->p, syms[i]));
				return 0;
			}
	}
	char unr[16];
	for (int i = 0; i < n; i++)
		unr[i] = s->unrolled.data[pos[i]];
	int sorted[16];
	memcpy(sorted, pos, sizeof *pos * (size_t)n);
	for (int i = 1; i < n; i++)
		for (int j = i; j > 0 && sorted[j - 1] > sorted[j]; j--) {
			int t = sorted[j];
			sorted[j] = sorted[j - 1];
			sorted[j - 1] = t;
		}
	for (int i = 0; i < n; i++) {
		s->dims.data[sorted[i]] = syms[i];
		s->unrolled.data[sorted[i]] = unr[i];
	}
	return 1;
}

static int do_tile(Parser *P, HStageSched *s, int f, int def, Val *a, int n)
{
	Val sx[3], sy[3], order[4];
	int64_t fx, fy;
	if (n == 8) {
		sx[0] = a[0], sx[1] = a[2], sx[2] = a[4];
		sy[0] = a[1], sy[1] = a[3], sy[2] = a[5];
		order[0] = a[4], order[1] = a[5], order[2] = a[2], order[3] = a[3];
	} else {
		sx[0] = a[0], sx[1] = a[0], sx[2] = a[2];
		sy[0] = a[1], sy[1] = a[1], sy[2] = a[3];
		order[0] = a[2], order[1] = a[3], order[2] = a[0], order[3] = a[1];
	}
	if (!int_arg(P, a[n - 2], "tile factor", 1, &fx) || !int_arg(P, a[n - 1], "tile factor", 1, &fy))
		return 0;
	return do_split(P, s, f, def, sx, fx) && do_split(P, s, f, def, sy, fy) &&
	       do_reorder(P, s, f, def, order, 4);
}

static int do_unroll(Parser *P, HStageSched *s, int f, int def, Val *a, int n)
{
	int v = var_arg(P, a[0], "unroll");
	if (v < 0)
		return 0;
	int i = find_dim(P, s, v, a[0], "unroll", f, def);
	if (i < 0)
		return 0;
	if (n == 2) {
		int64_t factor;
		if (!int_arg(P, a[1], "unroll factor", 1, &factor))
			return 0;
		HSym *sym = &P->p->syms.data[v];
		int inner = new_sym(P, SYM_VAR, arena_printf(P->a, "%s_u", sym->name), a[0].line, a[0].col);
		Val sp[3] = { a[0], a[0], vexpr(he_var(P->a, inner), a[0].line, a[0].col) };
		if (!do_split(P, s, f, def, sp, factor))
			return 0;
		v = inner;
		i = dim_index(s, v);
	}
	s->unrolled.data[i] = 1;
	return 1;
}

static int level_arg(Parser *P, Val *a, HLevel *l, const HTok *t)
{
	if (a[0].k != V_FUNC) {
		err_at(P, a[0].line, a[0].col, "%s: expected a Func, not %s", t->text, val_desc(P, a[0]));
		return 0;
	}
	int v = var_arg(P, a[1], t->text);
	if (v < 0)
		return 0;
	l->kind = LEVEL_AT;
	l->func = a[0].id;
	l->var = v;
	l->line = a[1].line;
	l->col = a[1].col;
	return 1;
}

static int bound_call(Parser *P, HFunc *fn, Val *a)
{
	int v = var_arg(P, a[0], "bound");
	int64_t mn, ext;
	if (v < 0 || !int_arg(P, a[1], "bound min", INT32_MIN, &mn) || !int_arg(P, a[2], "bound extent", 1, &ext))
		return 0;
	int pos = -1;
	for (int i = 0; i < fn->dims; i++)
		if (fn->vars[i] == v)
			pos = i;
	if (pos < 0) {
		err_at(P, a[0].line, a[0].col, "bound: '%s' is not a pure variable of '%s'",
		       hl_sym_name(P->p, v), fn->name);
		return 0;
	}
	vec_foreach(&fn->bounds, i) if (fn->bounds.data[i].var == v) {
		err_at(P, a[0].line, a[0].col, "bound: '%s' of '%s' is already bounded", hl_sym_name(P->p, v),
		       fn->name);
		return 0;
	}
	HBound b = { v, mn, ext, a[0].line, a[0].col };
	vec_push(&fn->bounds, b);
	return 1;
}

typedef struct Method {
	const char *name;
	int min, max;           /* argument counts */
	int stage_ok;           /* allowed on update stages */
} Method;

static const Method methods[] = {
	{ "bound", 3, 3, 0 }, { "tile", 6, 8, 1 }, { "split", 4, 4, 1 }, { "reorder", 1, 16, 1 },
	{ "unroll", 1, 2, 1 }, { "compute_at", 2, 2, 0 }, { "store_at", 2, 2, 0 },
	{ "compute_root", 0, 0, 0 }, { "store_root", 0, 0, 0 }, { "compute_inline", 0, 0, 0 },
	{ "update", 0, 1, 0 }, { "in", 0, 1, 0 },
};

/* One `.method(args)` of a schedule chain applied to v; returns the value
 * the chain continues with. */
static Val method(Parser *P, Val v, const HTok *m)
{
	const Method *md = NULL;
	for (size_t i = 0; i < sizeof methods / sizeof *methods; i++)
		if (hlx_is(m, methods[i].name))
			md = &methods[i];
	if (!md)
		return err_tok(P, m, "unsupported schedule call '%s' (supported: bound, tile, split, reorder, "
				     "unroll, compute_at, store_at, compute_root, store_root, compute_inline, "
				     "update, in)", m->text);
	Val a[16];
	int n = parse_args(P, a, 16);
	if (n < 0)
		return none;
	if (v.k == V_IMAGE) {
		if (!hlx_is(m, "in"))
			return err_tok(P, m, "'%s' on ImageParam '%s': only in() applies to an image", m->text,
				       P->p->images.data[v.id].name);
	} else if (v.k == V_STAGE && !md->stage_ok) {
		return err_tok(P, m, "'%s' applies to a Func, not to an update stage", m->text);
	}
	if (n < md->min || n > md->max || (hlx_is(m, "tile") && n == 7))
		return err_tok(P, m, "%s() takes %d%s argument%s, not %d", m->text, md->min,
			       md->max == md->min ? "" : md->max == 8 ? " or 8" : " or more",
			       md->max == 1 ? "" : "s", n);
	if (hlx_is(m, "in")) {
		if (n == 1 && a[0].k != V_FUNC)
			return err_at(P, a[0].line, a[0].col, "in() takes a Func, not %s", val_desc(P, a[0]));
		return wrapper_of(P, v, m, n == 1 ? a[0].id : -1);
	}
	int f = v.id, def = v.k == V_STAGE ? v.def : 0;
	HFunc *fn = &P->p->funcs.data[f];
	if (!fn->defined)
		return err_tok(P, m, "'%s' on Func '%s', which has no definition", m->text, fn->name);
	HStageSched *s = &fn->defs.data[def].sched;
	int ok = 1;
	if (hlx_is(m, "update")) {
		int64_t k = 0;
		if (n == 1 && !int_arg(P, a[0], "update index", 0, &k))
			return none;
		if (k + 1 >= fn->defs.len)
			return err_tok(P, m, "update(%lld) of '%s', which has %d update definition%s", (long long)k,
				       fn->name, fn->defs.len - 1, fn->defs.len == 2 ? "" : "s");
		Val r = { .k = V_STAGE, .id = f, .def = (int)k + 1, .line = m->line, .col = m->col };
		return r;
	} else if (hlx_is(m, "bound")) {
		ok = bound_call(P, fn, a);
	} else if (hlx_is(m, "tile")) {
		ok = do_tile(P, s, f, def, a, n);
	} else if (hlx_is(m, "split")) {
		int64_t factor;
		ok = int_arg(P, a[3], "split factor", 1, &factor) && do_split(P, s, f, def, a, factor);
	} else if (hlx_is(m, "reorder")) {
		ok = do_reorder(P, s, f, def, a, n);
	} else if (hlx_is(m, "unroll")) {
		ok = do_unroll(P, s, f, def, a, n);
	} else if (hlx_is(m, "compute_at")) {
		ok = level_arg(P, a, &fn->compute, m);
		if (ok && fn->store.kind == LEVEL_INLINE)
			fn->store = fn->compute;
	} else if (hlx_is(m, "store_at")) {
		ok = level_arg(P, a, &fn->store, m);
	} else if (hlx_is(m, "compute_root") || hlx_is(m, "store_root")) {
		HLevel root = { LEVEL_ROOT, -1, -1, m->line, m->col };
		if (hlx_is(m, "compute_root")) {
			fn->compute = root;
			if (fn->store.kind == LEVEL_INLINE)
				fn->store = root;
		} else {
			fn->store = root;
		}
	} else {
		fn->compute.kind = fn->store.kind = LEVEL_INLINE;
	}
	return ok ? v : none;
}

static void schedule_chain(Parser *P, Val v)
{
	while (!P->failed && accept(P, ".")) {
		HTok *m = cur(P);
		if (!expect_name(P))
			return;
		v = method(P, v, m);
	}
	if (!P->failed)
		expect(P, ";");
}

/* ---- directives ---- */

static void directive(Parser *P, const HTok *t)
{
	Val a[3];
	int n = parse_args(P, a, 3);
	if (n < 0)
		return;
	if (hlx_is(t, "stream_to_accelerator")) {
		if (n != 1 || a[0].k != V_IMAGE) {
			err_tok(P, t, "stream_to_accelerator() takes one ImageParam");
			return;
		}
		P->p->images.data[a[0].id].streamed = 1;
	} else {
		if ((n != 1 && n != 3) || a[0].k != V_FUNC) {
			err_tok(P, t, "hw_accelerate() takes a Func, or a Func and two loop Vars (inner, outer)");
			return;
		}
		if (P->p->output >= 0) {
			err_tok(P, t, "hw_accelerate() is called twice (first at line %d)", P->p->accel_line);
			return;
		}
		int inner = -1, outer = -1;
		if (n == 3 && ((inner = var_arg(P, a[1], "hw_accelerate")) < 0 ||
			       (outer = var_arg(P, a[2], "hw_accelerate")) < 0))
			return;
		P->p->output = a[0].id;
		P->p->accel_inner = inner;
		P->p->accel_outer = outer;
		P->p->accel_line = t->line;
		P->p->accel_col = t->col;
	}
	expect(P, ";");
}

/* ---- declarations ---- */

/* name ["(" "string" ")"] : the name the program uses and its Halide name. */
static const HTok *decl_name(Parser *P, const char **hname)
{
	HTok *t = cur(P);
	if (!expect_name(P))
		return NULL;
	*hname = t->text;
	if (at(P, "(") && !P->failed) {
		Val a[1];
		int n = parse_args(P, a, 1);
		if (n < 0)
			return NULL;
		if (n == 1 && a[0].k == V_STRING && a[0].s[0]) {
			*hname = a[0].s;
		} else if (n != 0) {
			err_tok(P, t, "expected a name string in the declaration of '%s'", t->text);
			return NULL;
		}
	}
	return t;
}

static void decl_var(Parser *P)
{
	do {
		const char *hname;
		const HTok *t = decl_name(P, &hname);
		if (!t)
			return;
		Name n = { N_VAR, new_sym(P, SYM_VAR, hname, t->line, t->col), NULL, 0 };
		if (!declare(P, t, n))
			return;
	} while (accept(P, ","));
	expect(P, ";");
}

static void decl_func(Parser *P)
{
	do {
		HTok *t = cur(P);
		if (!expect_name(P))
			return;
		if (accept(P, "=")) {
			Val v = parse_postfix(P);
			if (P->failed)
				return;
			if (v.k != V_FUNC) {
				err_at(P, v.line, v.col, "a Func is initialized by another Func (such as f.in()), not %s",
				       val_desc(P, v));
				return;
			}
			Name n = { N_FUNC, v.id, NULL, 0 };
			if (!declare(P, t, n))
				return;
			continue;
		}
		const char *hname = t->text;
		P->pos--;
		if (!decl_name(P, &hname))
			return;
		Name n = { N_FUNC, -1, NULL, 0 };
		if (!declare(P, t, n))
			return;
		vec_last(&P->nm).id = new_func(P, hname, t->line, t->col);
	} while (accept(P, ","));
	expect(P, ";");
}

static void decl_image(Parser *P)
{
	do {
		HTok *t = cur(P);
		if (!expect_name(P))
			return;
		Val a[3];
		int n = parse_args(P, a, 3);
		if (n < 0)
			return;
		if (n < 2 || a[0].k != V_TYPE || a[1].k != V_INT) {
			err_tok(P, t, "ImageParam %s: expected (type, dimensions, \"name\")", t->text);
			return;
		}
		if (a[1].i < 1 || a[1].i > 4) {
			err_at(P, a[1].line, a[1].col, "ImageParam %s: %lld dimensions (1 to 4 are supported)",
			       t->text, (long long)a[1].i);
			return;
		}
		if (ht_is_bool(a[0].t)) {
			err_at(P, a[0].line, a[0].col, "ImageParam %s: a boolean image is not supported", t->text);
			return;
		}
		HImage im = { t->text, a[0].t, (int)a[1].i, 0, t->line, t->col };
		if (n == 3 && a[2].k == V_STRING && a[2].s[0])
			im.name = a[2].s;
		im.name = arena_strdup(P->a, im.name);
		vec_push(&P->p->images, im);
		Name nm = { N_IMAGE, P->p->images.len - 1, NULL, 0 };
		if (!declare(P, t, nm))
			return;
	} while (accept(P, ","));
	expect(P, ";");
}

static void decl_rdom(Parser *P)
{
	HTok *t = cur(P);
	if (!expect_name(P))
		return;
	Val a[9];
	int n = parse_args(P, a, 9);
	if (n < 0)
		return;
	HRDom r = { 0 };
	r.name = arena_strdup(P->a, t->text);
	r.line = t->line;
	r.col = t->col;
	if (n > 0 && a[n - 1].k == V_STRING) {
		r.name = arena_strdup(P->a, a[n - 1].s);
		n--;
	}
	if (n == 0 || n % 2 || n > 8) {
		err_tok(P, t, "RDom %s: expected pairs of (min, extent) for 1 to 4 dimensions", t->text);
		return;
	}
	r.ndims = n / 2;
	for (int i = 0; i < r.ndims; i++) {
		if (!int_arg(P, a[2 * i], "RDom min", INT32_MIN, &r.min[i]) ||
		    !int_arg(P, a[2 * i + 1], "RDom extent", 1, &r.extent[i]))
			return;
		r.sym[i] = new_sym(P, SYM_RVAR, arena_printf(P->a, "%s.%c", r.name, "xyzw"[i]), t->line, t->col);
		P->p->syms.data[r.sym[i]].rdom = P->p->rdoms.len;
		P->p->syms.data[r.sym[i]].dim = i;
	}
	vec_push(&P->p->rdoms, r);
	Name nm = { N_RDOM, P->p->rdoms.len - 1, NULL, 0 };
	if (declare(P, t, nm))
		expect(P, ";");
}

static void decl_value(Parser *P, int is_int)
{
	do {
		HTok *t = cur(P);
		if (!expect_name(P) || !expect(P, "="))
			return;
		Val v = parse_expr(P);
		if (P->failed)
			return;
		Name nm = { is_int ? N_INT : N_EXPR, -1, NULL, 0 };
		if (is_int) {
			if (v.k != V_INT) {
				err_at(P, v.line, v.col, "int %s: expected an integer constant expression", t->text);
				return;
			}
			nm.i = v.i;
		} else if (!(nm.e = to_expr(P, v))) {
			return;
		}
		if (!declare(P, t, nm))
			return;
	} while (accept(P, ","));
	expect(P, ";");
}

/* ---- statements ---- */

static void statement(Parser *P)
{
	HTok *t = cur(P);
	if (accept(P, ";"))
		return;
	if (t->kind != TK_NAME) {
		err_tok(P, t, "expected a declaration, a definition or a schedule call before %s", tok_desc(t));
		return;
	}
	next(P);
	if (hlx_is(t, "ImageParam"))
		return decl_image(P);
	if (hlx_is(t, "Var"))
		return decl_var(P);
	if (hlx_is(t, "Func"))
		return decl_func(P);
	if (hlx_is(t, "RDom"))
		return decl_rdom(P);
	if (hlx_is(t, "Expr"))
		return decl_value(P, 0);
	if (hlx_is(t, "int") || (hlx_is(t, "const") && accept(P, "int")))
		return decl_value(P, 1);
	if (hlx_is(t, "hw_accelerate") || hlx_is(t, "stream_to_accelerator"))
		return directive(P, t);
	Name *n = lookup(P, t->text);
	if (!n) {
		err_tok(P, t, "unknown name '%s'", t->text);
		return;
	}
	if (n->k == N_FUNC && at(P, "("))
		return definition(P, n->id, t);
	if ((n->k == N_FUNC || n->k == N_IMAGE) && at(P, ".")) {
		Val v = { .k = n->k == N_FUNC ? V_FUNC : V_IMAGE, .id = n->id, .line = t->line, .col = t->col };
		return schedule_chain(P, v);
	}
	if (n->k == N_IMAGE && at(P, "("))
		err_tok(P, t, "ImageParam '%s' cannot be defined: it is an input", t->text);
	else
		err_tok(P, t, "expected a definition or a schedule call of a Func after '%s'", t->text);
}

/* ---- after the last statement ---- */

static void redirect_calls(HProgram *p, HExpr *e, int wrapped, int is_image, int to)
{
	if (!e)
		return;
	if (e->kind == HE_CALL && e->is_image == is_image && e->callee == wrapped) {
		e->is_image = 0;
		e->callee = to;
	}
	redirect_calls(p, e->a, wrapped, is_image, to);
	redirect_calls(p, e->b, wrapped, is_image, to);
	redirect_calls(p, e->c, wrapped, is_image, to);
	for (int i = 0; i < e->nargs; i++)
		redirect_calls(p, e->args[i], wrapped, is_image, to);
}

/* Calls of a wrapped Func or image go to its wrapper (f.in(g): from g only;
 * the more specific wrapper wins). */
static void apply_wrappers(HProgram *p)
{
	for (int pass = 0; pass < 2; pass++)
		vec_foreach(&p->funcs, w) {
			HFunc *wf = &p->funcs.data[w];
			if (wf->wrapper_of == -1 || (pass == 0) != (wf->wrapper_for >= 0))
				continue;
			int is_image = wf->wrapper_of < -1;
			int wrapped = is_image ? -2 - wf->wrapper_of : wf->wrapper_of;
			vec_foreach(&p->funcs, g) {
				HFunc *gf = &p->funcs.data[g];
				if (g == w || (wf->wrapper_for >= 0 && wf->wrapper_for != g))
					continue;
				if (gf->wrapper_of != -1 && gf->wrapper_for < 0 && pass == 1)
					continue;
				vec_foreach(&gf->defs, k) {
					HDef *d = &gf->defs.data[k];
					redirect_calls(p, d->value, wrapped, is_image, w);
					for (int i = 0; i < d->nlhs; i++)
						redirect_calls(p, d->lhs[i], wrapped, is_image, w);
				}
			}
		}
}

static void check_program(Parser *P)
{
	HProgram *p = P->p;
	HTok *end = cur(P);
	P->failed = 0;
	if (p->output < 0) {
		err_tok(P, end, "no hw_accelerate(): name the accelerator's output Func");
		return;
	}
	HFunc *out = &p->funcs.data[p->output];
	for (int i = 0; i < out->dims; i++) {
		int ok = 0;
		vec_foreach(&out->bounds, k) ok |= out->bounds.data[k].var == out->vars[i];
		if (!ok) {
			P->failed = 0;
			err_at(P, p->accel_line, p->accel_col,
			       "the output '%s' needs bound() on every dimension; '%s' has none", out->name,
			       hl_sym_name(p, out->vars[i]));
		}
	}
	const HStageSched *s = &out->defs.data[0].sched;
	int vars[2] = { p->accel_inner, p->accel_outer };
	for (int i = 0; i < 2; i++)
		if (vars[i] >= 0 && dim_index(s, vars[i]) < 0) {
			P->failed = 0;
			err_at(P, p->accel_line, p->accel_col, "hw_accelerate: '%s' is not a loop of %s.s0 (%s)",
			       hl_sym_name(p, vars[i]), out->name, stage_loops(P, s));
		}
	if (vars[0] >= 0 && dim_index(s, vars[0]) >= 0 && dim_index(s, vars[1]) >= 0 &&
	    dim_index(s, vars[0]) >= dim_index(s, vars[1])) {
		P->failed = 0;
		err_at(P, p->accel_line, p->accel_col, "hw_accelerate: the inner loop '%s' is not inside '%s'",
		       hl_sym_name(p, vars[0]), hl_sym_name(p, vars[1]));
	}
	vec_foreach(&p->funcs, f) {
		HFunc *fn = &p->funcs.data[f];
		HLevel *lv[2] = { &fn->compute, &fn->store };
		for (int k = 0; k < 2; k++) {
			if (lv[k]->kind != LEVEL_AT)
				continue;
			HFunc *g = &p->funcs.data[lv[k]->func];
			if (!g->defined || dim_index(&g->defs.data[0].sched, lv[k]->var) < 0) {
				P->failed = 0;
				err_at(P, lv[k]->line, lv[k]->col, "%s of '%s': '%s' is not a loop of %s.s0",
				       k ? "store_at" : "compute_at", fn->name, hl_sym_name(p, lv[k]->var), g->name);
			}
		}
	}
	apply_wrappers(p);
}

HProgram *hl_parse(const char *file, const char *text, Diags *d)
{
	HToks toks;
	int errors = diags_errors(d);
	diags_add_source(d, file, text);
	hlx_tokenize(file, text, &toks, d);
	HProgram *p = xcalloc(1, sizeof *p);
	p->arena = arena_new();
	p->file = arena_strdup(p->arena, file);
	p->output = p->accel_inner = p->accel_outer = -1;
	Parser P = { .p = p, .a = p->arena, .d = d, .file = p->file, .t = toks.toks };
	strmap_init(&P.names);
	while (cur(&P)->kind != TK_EOF) {
		P.failed = 0;
		int start = P.pos;
		statement(&P);
		if (P.failed) {
			if (P.pos == start)
				next(&P);
			if (!hlx_is(&P.t[P.pos - 1], ";"))
				sync(&P);
		}
	}
	if (diags_errors(d) == errors)
		check_program(&P);
	strmap_free(&P.names);
	vec_free(&P.nm);
	hlx_free(&toks);
	diags_flush(d);
	if (diags_errors(d) > errors) {
		hl_free(p);
		return NULL;
	}
	return p;
}

void hl_free(HProgram *p)
{
	if (!p)
		return;
	vec_foreach(&p->funcs, f) {
		HFunc *fn = &p->funcs.data[f];
		vec_foreach(&fn->defs, k) {
			vec_free(&fn->defs.data[k].sched.dims);
			vec_free(&fn->defs.data[k].sched.unrolled);
			vec_free(&fn->defs.data[k].sched.splits);
		}
		vec_free(&fn->defs);
		vec_free(&fn->bounds);
	}
	vec_free(&p->syms);
	vec_free(&p->rdoms);
	vec_free(&p->images);
	vec_free(&p->funcs);
	arena_free(p->arena);
	free(p);
}
