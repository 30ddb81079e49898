/* hl_parse.c - the parser and checker of the application language
 * (docs/applications.md): the program's statements (declarations of
 * ImageParam, Var, Func, RDom, Expr and int; definitions; schedule calls;
 * the accelerator directives), written as the body of a Halide program, and
 * the checks after the last statement. Expressions are in hl_parse_expr.c,
 * definitions in hl_parse_def.c, schedules in hl_parse_sched.c (hl_parse.h).
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

#include "hl_parse.h"

const Val hlp_none = { .k = V_NONE };

/* ---- tokens and errors ---- */

HTok *hlp_cur(Parser *P)
{
	return &P->t[P->pos];
}

HTok *hlp_next(Parser *P)
{
	HTok *t = &P->t[P->pos];
	if (t->kind != TK_EOF)
		P->pos++;
	return t;
}

int hlp_at(Parser *P, const char *s)
{
	return hlx_is(hlp_cur(P), s);
}

int hlp_accept(Parser *P, const char *s)
{
	if (!hlp_at(P, s))
		return 0;
	hlp_next(P);
	return 1;
}

static void verr(Parser *P, int line, int col, const char *fmt, va_list ap)
{
	if (P->failed)
		return;
	P->failed = 1;
	diag_vreport(P->d, DIAG_ERROR, P->file, line, col, fmt, ap);
}

Val hlp_err_at(Parser *P, int line, int col, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	verr(P, line, col, fmt, ap);
	va_end(ap);
	return hlp_none;
}

Val hlp_err_tok(Parser *P, const HTok *t, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	verr(P, t->line, t->col, fmt, ap);
	va_end(ap);
	return hlp_none;
}

const char *hlp_tok_desc(const HTok *t)
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

int hlp_expect(Parser *P, const char *s)
{
	if (hlp_accept(P, s))
		return 1;
	hlp_err_tok(P, hlp_cur(P), "expected '%s' before %s", s, hlp_tok_desc(hlp_cur(P)));
	return 0;
}

const char *hlp_expect_name(Parser *P)
{
	if (hlp_cur(P)->kind == TK_NAME)
		return hlp_next(P)->text;
	hlp_err_tok(P, hlp_cur(P), "expected a name before %s", hlp_tok_desc(hlp_cur(P)));
	return NULL;
}

/* Skips to the end of the statement (a ';' outside brackets). */
void hlp_sync(Parser *P)
{
	hlp_sync_to(P, 0);
}

static int opens(const HTok *t)
{
	return hlx_is(t, "(") || hlx_is(t, "{") || hlx_is(t, "[");
}

static int closes(const HTok *t)
{
	return hlx_is(t, ")") || hlx_is(t, "}") || hlx_is(t, "]");
}

void hlp_recover(Parser *P, int start, int in_block)
{
	if (P->pos == start)
		hlp_next(P);
	int depth = 0;
	for (int i = start; i < P->pos; i++)
		depth += opens(&P->t[i]) ? 1 : closes(&P->t[i]) && depth > 0 ? -1 : 0;
	int inside = depth > 0;
	/* out of the brackets the error is in, then to the statement's end */
	while (depth > 0 && hlp_cur(P)->kind != TK_EOF) {
		HTok *t = hlp_next(P);
		depth += opens(t) ? 1 : closes(t) ? -1 : 0;
	}
	const HTok *last = &P->t[P->pos - 1];
	if (!hlx_is(last, ";") && (inside || !hlx_is(last, "}")))
		hlp_sync_to(P, in_block);
}

void hlp_sync_to(Parser *P, int in_block)
{
	int depth = 0;
	while (hlp_cur(P)->kind != TK_EOF) {
		if (in_block && depth == 0 && hlp_at(P, "}"))
			return;
		HTok *t = hlp_next(P);
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
	"max", "abs", "absd", "clamp", "sum", "product", "maximum", "minimum", "argmax", "argmin",
	"saturating_cast", "u8_sat", "i8_sat", "u16_sat", "i16_sat", "u32_sat", "i32_sat",
	"hw_accelerate", "stream_to_accelerator", "UInt", "for", "if", "else", "float", "double",
	"Int", "Bool", "u8", "u16", "u32", "i8", "i16", "i32", "true", "false", "RVar", "using", "auto",
	"assert", "return", "void", NULL,
};

Name *hlp_lookup(Parser *P, const char *s)
{
	intptr_t i;
	if (strmap_get(&P->names, s, &i) || (P->outer && strmap_get(P->outer, s, &i)))
		return P->nm.data[i];
	return NULL;
}

int hlp_reserved(const char *s)
{
	for (int i = 0; reserved[i]; i++)
		if (strcmp(reserved[i], s) == 0)
			return 1;
	return 0;
}

int hlp_failed_func(Parser *P, int f)
{
	if (!P->def_failed.data[f])
		return 0;
	P->failed = 1;
	return 1;
}

/* 1 if name was declared in the current scope (a name of an outer scope
 * the current one shadows keeps its first place in the map). */
static int in_scope(Parser *P, const char *name)
{
	if (strmap_index(&P->names, name) >= P->redecl_mark)
		return 1;
	for (int i = P->shadows.len - 1; i >= 0; i--) {
		const Shadow *sh = &P->shadows.data[i];
		if (sh->scope != P->scope_id && sh->scope != P->redecl_id)
			break;
		if (!strcmp(sh->key, name))
			return 1;
	}
	return 0;
}

/* Gives name the meaning *at in the current scope (a name of an outer
 * scope is shadowed until this one ends). */
static void bind_at(Parser *P, const char *name, Name *at)
{
	intptr_t old;
	if (strmap_get(&P->names, name, &old)) {
		Shadow sh = { arena_strdup(P->a, name), old, P->scope_id };
		vec_push(&P->shadows, sh);
	}
	strmap_put(&P->names, name, P->nm.len);
	vec_push(&P->nm, at);
}

/* The same for a new Name n (in the arena: a Name * stays valid). */
static void bind(Parser *P, const char *name, Name n)
{
	Name *at = arena_alloc(P->a, sizeof *at);
	*at = n;
	bind_at(P, name, at);
}

int hlp_declare_alias(Parser *P, const HTok *t, Name *n)
{
	if (in_scope(P, t->text)) {
		hlp_err_tok(P, t, "'%s' is already declared", t->text);
		return 0;
	}
	bind_at(P, t->text, n);
	return 1;
}

int hlp_declare(Parser *P, const HTok *t, Name n)
{
	for (int i = 0; reserved[i]; i++)
		if (strcmp(reserved[i], t->text) == 0) {
			hlp_err_tok(P, t, "'%s' is a reserved name", t->text);
			return 0;
		}
	if (in_scope(P, t->text)) {
		hlp_err_tok(P, t, "'%s' is already declared", t->text);
		return 0;
	}
	bind(P, t->text, n);
	return 1;
}

int hlp_new_sym(Parser *P, HSymKind k, const char *name, int line, int col)
{
	HSym s = { k, arena_strdup(P->a, name), -1, -1, line, col };
	vec_push(&P->p->syms, s);
	return P->p->syms.len - 1;
}

const char *hlp_func_name(Parser *P, int f)
{
	return P->p->funcs.data[f].name;
}

/* ---- values ---- */

Val hlp_vint(int64_t i, const HTok *t)
{
	Val v = { .k = V_INT, .i = i, .line = t->line, .col = t->col };
	return v;
}

Val hlp_vbool(int b, const HTok *t)
{
	Val v = hlp_vint(b != 0, t);
	v.cbool = 1;
	return v;
}

Val hlp_vexpr(HExpr *e, int line, int col)
{
	Val v = { .k = V_EXPR, .e = e, .line = line, .col = col };
	if (!e->line) {
		e->line = line;
		e->col = col;
	}
	return v;
}

const char *hlp_val_desc(Parser *P, Val v)
{
	switch (v.k) {
	case V_FUNC: return arena_printf(P->a, "Func %s", hlp_func_name(P, v.id));
	case V_IMAGE: return arena_printf(P->a, "ImageParam %s", P->p->images.data[v.id].name);
	case V_RDOM: return arena_printf(P->a, "RDom %s", P->p->rdoms.data[v.id].name);
	case V_TYPE: return "a type";
	case V_STRING: return v.single ? "a std::string" : "a string literal";
	case V_STAGE: return "a stage";
	case V_ENUM: return v.s;
	case V_FLOAT: return v.single ? "a C++ float" : "a C++ double";
	case V_INT: return "a C++ int";
	case V_ARRAY: return "a C++ array";
	case V_LVALUE: return "a variable without a value yet";
	case V_EXPR: return arena_printf(P->a, "an Expr of type %s", ht_name(v.e->type));
	default: return "a value";
	}
}

Val hlp_vstring(const char *s, int std_string, int line, int col)
{
	Val v = { .k = V_STRING, .s = s, .single = std_string, .line = line, .col = col };
	return v;
}

Val hlp_vfloat(double f, int single, int line, int col)
{
	Val v = { .k = V_FLOAT, .f = single ? (double)(float)f : f, .single = single, .line = line, .col = col };
	return v;
}

HExpr *hlp_to_expr(Parser *P, Val v)
{
	if (v.k == V_INT && (v.cuns || v.c64)) {
		/* Halide's implicit constructor takes an int: C++ converts an unsigned
		 * or a long to int first, modulo 2^32 */
		v.i = ht_wrap(HT_I32, v.i);
		v.cuns = v.c64 = 0;
	}
	if (v.k == V_FLOAT && !v.single) {
		hlp_err_at(P, v.line, v.col, "a C++ double where Halide takes an Expr: C++ finds the conversion "
			   "ambiguous (write a float, 2.0f, or Expr(...) for a Float(64) constant)");
		return NULL;
	}
	return hlp_expr_ctor(P, v);
}

HExpr *hlp_expr_ctor(Parser *P, Val v)
{
	if (v.k == V_FLOAT) {
		/* Expr(float) is a Float(32) constant, Expr(double) a Float(64) one */
		HType t = v.single ? HT_F32 : HT_F64;
		HExpr *e = he_const(P->a, t, hv_bits(t, v.f));
		e->line = v.line;
		e->col = v.col;
		return e;
	}
	if (v.k == V_INT && v.cbool) {
		HExpr *e = he_const(P->a, HT_BOOL, v.i != 0);     /* Expr(bool) */
		e->line = v.line;
		e->col = v.col;
		return e;
	}
	if (v.k == V_INT && v.c64) {
		hlp_err_at(P, v.line, v.col, "Expr of a 64-bit C++ integer (long, int64_t, size_t, uint64_t): this "
			   "compiler's Exprs are of 32 bits at most (write Expr((int)n))");
		return NULL;
	}
	if (v.k == V_INT) {
		if (v.i < INT32_MIN || v.i > (v.cuns ? UINT32_MAX : INT32_MAX)) {
			hlp_err_at(P, v.line, v.col, "integer %lld does not fit in int32", (long long)v.i);
			return NULL;
		}
		/* Expr(unsigned) is a UInt(32) constant */
		HExpr *e = he_const(P->a, v.cuns ? HT_U32 : HT_I32, v.i);
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
		hlp_err_at(P, v.line, v.col, "RDom %s has %d dimensions: name one (%s.x, %s.y, ...)", r->name,
		       r->ndims, r->name, r->name);
		return NULL;
	}
	if (v.k != V_NONE)
		hlp_err_at(P, v.line, v.col, "expected an expression, found %s", hlp_val_desc(P, v));
	return NULL;
}

/* Halide's check_representable: a C++ int meeting an Expr of type t. */
HExpr *hlp_coerce_int(Parser *P, Val v, HType t)
{
	if (v.cuns || v.c64) {  /* Halide's operators take an int: C++ converts to it */
		v.i = ht_wrap(HT_I32, v.i);
		v.cuns = v.c64 = 0;
	}
	if (ht_is_float(t)) {
		HExpr *e = he_const(P->a, t, hv_bits(t, (double)v.i));
		e->line = v.line;
		e->col = v.col;
		return e;
	}
	if (v.i < ht_min(t) || v.i > ht_max(t)) {
		hlp_err_at(P, v.line, v.col,
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
		hlp_err_at(P, line, col, "integer overflow in a constant expression (%lld)", (long long)r);
		return 0;
	}
	return 1;
}

double hlp_int_double(Val v)
{
	return v.c64 && v.cuns ? (double)(uint64_t)v.i : (double)v.i;
}

/* The C++ name of an integer's promoted type. */
static const char *cpp_int_name(int c64, int cuns)
{
	return c64 ? (cuns ? "unsigned long" : "long") : cuns ? "unsigned int" : "int";
}

/* a op b in C++'s integer type of bits (32 or 64), unsigned (uns: wrapping,
 * compared as unsigned, a and b its values' bits) or signed (an overflow is
 * an error); 0 after an error. */
static int int_op(Parser *P, HBinOp op, int64_t a, int64_t b, int bits, int uns, int64_t *r, const HTok *t)
{
	uint64_t mask = bits == 64 ? UINT64_MAX : ((uint64_t)1 << bits) - 1, ua = (uint64_t)a & mask,
		 ub = (uint64_t)b & mask, u = 0;
	if (uns) {
		a = (int64_t)ua;
		b = (int64_t)ub;
	}
	int less = uns ? ua < ub : a < b, over = 0;
	switch (op) {
	case HB_EQ: *r = a == b; return 1;
	case HB_NE: *r = a != b; return 1;
	case HB_LT: *r = less; return 1;
	case HB_LE: *r = less || a == b; return 1;
	case HB_GT: *r = !less && a != b; return 1;
	case HB_GE: *r = !less; return 1;
	case HB_MIN: *r = less ? a : b; return 1;
	case HB_MAX: *r = less ? b : a; return 1;
	case HB_AND: *r = a & b; return 1;
	case HB_OR: *r = a | b; return 1;
	case HB_XOR: *r = a ^ b; return 1;
	case HB_DIV:
	case HB_MOD:
		if (b == 0) {
			hlp_err_tok(P, t, "division by zero in a constant expression");
			return 0;
		}
		if (uns) {
			*r = (int64_t)(op == HB_DIV ? ua / ub : ua % ub);
			return 1;
		}
		over = a == INT64_MIN && b == -1;
		if (!over)
			*r = op == HB_DIV ? a / b : a % b;
		break;
	case HB_ADD: over = uns ? (u = ua + ub, 0) : __builtin_add_overflow(a, b, r); break;
	case HB_SUB: over = uns ? (u = ua - ub, 0) : __builtin_sub_overflow(a, b, r); break;
	case HB_MUL: over = uns ? (u = ua * ub, 0) : __builtin_mul_overflow(a, b, r); break;
	case HB_ABSD:
		over = uns ? (u = less ? ub - ua : ua - ub, 0)
			   : __builtin_sub_overflow(less ? b : a, less ? a : b, r);
		break;
	default: ICE("int_op %d", op);
	}
	if (uns) {
		*r = (int64_t)(u & mask);
		return 1;
	}
	if (over) {
		hlp_err_tok(P, t, "integer overflow in a constant expression of type long");
		return 0;
	}
	return bits == 64 || int32_ok(P, *r, t->line, t->col);
}

/* x << y or x >> y: of x's promoted type, y from 0 to its bits - 1; a signed
 * left shift that leaves the type is an error. */
static Val int_shift(Parser *P, HBinOp op, Val x, Val y, const HTok *t)
{
	int bits = x.c64 ? 64 : 32;
	if (y.i < 0 || y.i >= bits) {
		if (y.c64 && y.cuns)
			return hlp_err_tok(P, t, "shift by %llu in a constant expression (a %s takes 0 to %d)",
					   (unsigned long long)y.i, cpp_int_name(x.c64, x.cuns), bits - 1);
		return hlp_err_tok(P, t, "shift by %lld in a constant expression (a %s takes 0 to %d)",
				   (long long)y.i, cpp_int_name(x.c64, x.cuns), bits - 1);
	}
	int b = (int)y.i;
	Val r = x;
	r.line = t->line;
	r.col = t->col;
	r.cbool = 0;
	if (x.cuns) {
		uint64_t mask = bits == 64 ? UINT64_MAX : ((uint64_t)1 << bits) - 1, a = (uint64_t)x.i & mask;
		r.i = (int64_t)((op == HB_SHL ? a << b : a >> b) & mask);
		return r;
	}
	if (op == HB_SHR) {
		r.i = x.i >> b;
		return r;
	}
	int64_t m = (int64_t)1 << (bits - 1 - b);    /* x << b stays in the type iff -m <= x < m */
	if (x.i < -m || x.i >= m)
		return hlp_err_tok(P, t, "integer overflow in a constant expression: %lld << %d leaves %s",
				   (long long)x.i, b, cpp_int_name(x.c64, 0));
	r.i = (int64_t)((uint64_t)x.i << b);
	return r;
}

Val hlp_int_binop(Parser *P, HBinOp op, Val x, Val y, const HTok *t)
{
	if (op == HB_LAND || op == HB_LOR)
		return hlp_vbool(op == HB_LAND ? x.i && y.i : x.i || y.i, t);
	if (op == HB_SHL || op == HB_SHR)
		return int_shift(P, op, x, y, t);
	/* the usual arithmetic conversions: the larger rank; of one rank, unsigned
	 * if either is (a long holds every unsigned int) */
	int c64 = x.c64 || y.c64, cuns = x.c64 == y.c64 ? x.cuns || y.cuns : x.c64 ? x.cuns : y.cuns;
	int64_t r;
	if (!int_op(P, op, x.i, y.i, c64 ? 64 : 32, cuns, &r, t))
		return hlp_none;
	if (hb_is_compare(op))
		return hlp_vbool((int)r, t);
	Val v = hlp_vint(r, t);
	v.c64 = (uint8_t)c64;
	v.cuns = (uint8_t)cuns;
	return v;
}

Val hlp_int_unary(Parser *P, char op, Val v, const HTok *t)
{
	v.cbool = 0;
	Val k = v;
	k.i = op == '-' ? 0 : v.cuns && !v.c64 ? (int64_t)UINT32_MAX : -1;
	return op == '-' ? hlp_int_binop(P, HB_SUB, k, v, t) : hlp_int_binop(P, HB_XOR, v, k, t);
}

static int is_bitwise(HBinOp op)
{
	return op == HB_AND || op == HB_OR || op == HB_XOR || op == HB_SHL || op == HB_SHR;
}

Val hlp_fold_overflow(Parser *P, const HExpr *e, const HTok *t)
{
	char *s = he_str(P->p, e);
	hlp_err_tok(P, t, "signed integer overflow in constant folding of %s (%s): Halide refuses it, as "
		    "overflow of a signed 32- or 64-bit value is undefined", s, ht_name(e->type));
	free(s);
	return hlp_none;
}

/* x op y with Halide's rules for Exprs. */
static Val expr_binop(Parser *P, HBinOp op, HExpr *x, HExpr *y, const HTok *t)
{
	HType tx = x->type, ty = y->type;
	if (op == HB_LAND || op == HB_LOR) {
		if (!ht_is_bool(tx) || !ht_is_bool(ty))
			return hlp_err_tok(P, t, "the operands of '%s' must be boolean, not %s and %s", hb_name(op),
				       ht_name(tx), ht_name(ty));
	} else if ((ht_is_bool(tx) || ht_is_bool(ty)) && op != HB_EQ && op != HB_NE &&
		   !((op == HB_AND || op == HB_OR || op == HB_XOR) && ht_is_bool(tx) && ht_is_bool(ty))) {
		return hlp_err_tok(P, t, "operator '%s' on a boolean value", hb_name(op));
	}
	if (is_bitwise(op) && (ht_is_float(tx) || ht_is_float(ty)))
		return hlp_err_tok(P, t, "operator '%s' on a %s value: Halide's bitwise operators and shifts take "
				     "integers (or booleans for & | ^)", hb_name(op), ht_name(ht_is_float(tx) ? tx : ty));
	if (is_bitwise(op) && !ht_eq(tx, ty))
		return hlp_err_tok(P, t, "the operands of '%s' have different types %s and %s: cast one",
			       hb_name(op), ht_name(tx), ht_name(ty));
	int64_t k;
	if ((op == HB_SHL || op == HB_SHR) && he_is_const(y, &k) && (k < 0 || k >= tx.bits))
		return hlp_err_tok(P, t, "shift of a %s value by %lld: the amount must be from 0 to %d", ht_name(tx),
			       (long long)k, tx.bits - 1);
	HExpr *e = he_binop_matched(P->a, op, x, y);
	if (he_fold_overflows(e))
		return hlp_fold_overflow(P, e, t);
	/* Halide's simplifier turns a float division by a constant into a multiplication by its
	 * reciprocal (rounded to the type), which rounds differently: so here */
	if (op == HB_DIV && ht_is_float(e->type) && he_is_const(e->b, &k) && !he_is_const(e->a, NULL) &&
	    hv_float(k) != 0)
		e = he_bin(P->a, HB_MUL, e->type, e->a, he_const(P->a, e->type, hv_bits(e->type, 1.0 / hv_float(k))));
	/* and folds the constants of (x * c0) * c1 into x * (c0 * c1) */
	int64_t k0;
	if (e->kind == HE_BIN && e->op == HB_MUL && ht_is_float(e->type) && he_is_const(e->b, &k) &&
	    e->a->kind == HE_BIN && e->a->op == HB_MUL && he_is_const(e->a->b, &k0) && !he_is_const(e->a->a, NULL))
		e = he_bin(P->a, HB_MUL, e->type, e->a->a, he_const(P->a, e->type, hb_eval(HB_MUL, e->type, k0, k)));
	e = he_fold(P->a, e);
	return hlp_vexpr(e, t->line, t->col);
}

/* C++ arithmetic of an int or float with a float: float unless a double takes part. */
static Val float_binop(Parser *P, HBinOp op, Val x, Val y, const HTok *t)
{
	double a = x.k == V_INT ? hlp_int_double(x) : x.f, b = y.k == V_INT ? hlp_int_double(y) : y.f, r;
	int single = !((x.k == V_FLOAT && !x.single) || (y.k == V_FLOAT && !y.single));
	if (single) {
		a = (float)a;
		b = (float)b;
	}
	switch (op) {
	case HB_ADD: r = a + b; break;
	case HB_SUB: r = a - b; break;
	case HB_MUL: r = a * b; break;
	case HB_DIV: r = a / b; break;
	case HB_MIN: r = a < b ? a : b; break;
	case HB_MAX: r = a > b ? a : b; break;
	case HB_EQ: return hlp_vbool(a == b, t);
	case HB_NE: return hlp_vbool(a != b, t);
	case HB_LT: return hlp_vbool(a < b, t);
	case HB_LE: return hlp_vbool(a <= b, t);
	case HB_GT: return hlp_vbool(a > b, t);
	case HB_GE: return hlp_vbool(a >= b, t);
	case HB_LAND: return hlp_vbool(a && b, t);
	case HB_LOR: return hlp_vbool(a || b, t);
	default:
		return hlp_err_tok(P, t, "operator '%s' on a C++ floating-point value", hb_name(op));
	}
	return hlp_vfloat(r, single, t->line, t->col);
}

/* C++ on strings: a std::string + a string (a literal or another
 * std::string) concatenates them; two literals do not add, and a number
 * added to a literal moves its pointer. */
static Val string_binop(Parser *P, HBinOp op, Val x, Val y, const HTok *t)
{
	if ((op == HB_LAND || op == HB_LOR) && x.k != V_EXPR && y.k != V_EXPR) {
		/* a string literal is a pointer, never null: true */
		int a = x.k == V_STRING || (x.k == V_INT ? x.i != 0 : x.f != 0);
		int b = y.k == V_STRING || (y.k == V_INT ? y.i != 0 : y.f != 0);
		return hlp_vint(op == HB_LAND ? a && b : a || b, t);
	}
	if (op != HB_ADD || x.k != V_STRING || y.k != V_STRING)
		return hlp_err_tok(P, t, "'%s' of %s and %s: C++ adds strings only to strings (std::to_string(i) "
				     "turns a number into one)", hb_name(op), hlp_val_desc(P, x), hlp_val_desc(P, y));
	if (!x.single && !y.single)
		return hlp_err_tok(P, t, "'+' of two string literals: C++ does not add them (make one a std::string: "
				     "std::string(\"...\"))");
	if (strlen(x.s) + strlen(y.s) > HL_MAX_STRING)
		return hlp_err_tok(P, t, "a string longer than %d characters", HL_MAX_STRING);
	return hlp_vstring(arena_printf(P->a, "%s%s", x.s, y.s), 1, x.line, x.col);
}

Val hlp_binop(Parser *P, HBinOp op, Val x, Val y, const HTok *t)
{
	if (x.k == V_NONE || y.k == V_NONE)
		return hlp_none;
	if (x.k == V_STRING || y.k == V_STRING)
		return string_binop(P, op, x, y, t);
	if (x.k == V_INT && y.k == V_INT)
		return hlp_int_binop(P, op, x, y, t);
	if ((x.k == V_INT || x.k == V_FLOAT) && (y.k == V_INT || y.k == V_FLOAT))
		return float_binop(P, op, x, y, t);
	if ((x.k == V_FLOAT && !x.single) || (y.k == V_FLOAT && !y.single))
		return hlp_err_tok(P, t, "a C++ double meets an Expr in '%s': C++ finds the operator ambiguous (Halide "
				     "takes floats: write 2.0f, or Expr(2.0) for a Float(64) constant)", hb_name(op));
	HExpr *ex, *ey;
	if (x.k == V_INT && y.k == V_EXPR) {
		ey = y.e;
		ex = hlp_coerce_int(P, x, ey->type);
	} else if (y.k == V_INT && x.k == V_EXPR) {
		ex = x.e;
		ey = hlp_coerce_int(P, y, ex->type);
	} else {
		ex = hlp_to_expr(P, x);
		ey = hlp_to_expr(P, y);
	}
	if (!ex || !ey)
		return hlp_none;
	return expr_binop(P, op, ex, ey, t);
}

/* ---- declarations ---- */

/* name ["(" "string" ")"] : the name the program uses and its Halide name. */
static const HTok *decl_name(Parser *P, const char **hname)
{
	HTok *t = hlp_cur(P);
	if (!hlp_expect_name(P))
		return NULL;
	*hname = t->text;
	if (hlp_at(P, "(") && !P->failed) {
		Val a[1];
		int n = hlp_parse_args(P, a, 1);
		if (n < 0)
			return NULL;
		if (n == 1 && a[0].k == V_STRING && a[0].s[0]) {
			*hname = a[0].s;
		} else if (n != 0) {
			hlp_err_tok(P, t, "expected a name string in the declaration of '%s'", t->text);
			return NULL;
		}
	}
	return t;
}

/* (The name is left alone if it is taken in this scope or reserved: that
 * error, if any, is the one reported.) */
void hlp_declare_broken(Parser *P, const HTok *t)
{
	if (in_scope(P, t->text))
		return;
	for (int i = 0; reserved[i]; i++)
		if (strcmp(reserved[i], t->text) == 0)
			return;
	bind(P, t->text, (Name){ N_BROKEN, -1, NULL, 0, 0, NULL, 1, NULL, 0 });
}

/* Var names, or RVar names (rvar): the loops a split of a reduction loop
 * makes, an RVar of no RDom. */
static void decl_var(Parser *P, int rvar)
{
	do {
		const char *hname;
		const HTok *t = decl_name(P, &hname);
		if (!t)
			return;
		int sym = hlp_new_sym(P, rvar ? SYM_RVAR : SYM_VAR, hname, t->line, t->col);
		Name n = { rvar ? N_RVAR : N_VAR, sym, NULL, 0, 0, NULL, 1, NULL, 0 };
		if (!hlp_declare(P, t, n))
			return;
	} while (hlp_accept(P, ","));
	hlp_expect(P, ";");
}

/* Func name[N]: an array of Funcs, each a new Func named name_0, name_1, ...
 * (after "Func name["). */
static int func_array(Parser *P, const HTok *t)
{
	Val sz = hlp_parse_expr(P);
	if (P->failed || !hlp_expect(P, "]"))
		return 0;
	if (sz.k != V_INT || sz.i < 1 || sz.i > 4096) {
		hlp_err_at(P, sz.line, sz.col, "the size of array '%s' must be a C++ int from 1 to 4096", t->text);
		return 0;
	}
	Name a = { N_ARRAY, 0, NULL, sz.i, 0, NULL, 1, NULL, 0 };
	P->array_elems += sz.i;
	a.elems = arena_alloc(P->a, sizeof *a.elems * (size_t)sz.i);
	for (int i = 0; i < sz.i; i++) {
		int f = hlp_new_func(P, arena_printf(P->a, "%s_%d", t->text, i), t->line, t->col);
		a.elems[i] = (Name){ N_FUNC, f, NULL, 0, 0, NULL, 1, NULL, 0 };
	}
	return hlp_declare(P, t, a);
}

static void decl_func(Parser *P)
{
	do {
		hlp_accept(P, "&");     /* Func &f = g: the same as a copy of the handle */
		HTok *t = hlp_cur(P);
		if (!hlp_expect_name(P))
			return;
		if (hlp_accept(P, "[")) {
			if (!func_array(P, t)) {
				hlp_declare_broken(P, t);
				return;
			}
			continue;
		}
		if (hlp_accept(P, "=")) {
			Val v = hlp_parse_expr(P);
			if (P->failed) {
				hlp_declare_broken(P, t);
				return;
			}
			if (v.k != V_FUNC) {
				hlp_err_at(P, v.line, v.col, "a Func is initialized by another Func (such as f.in()), not %s",
				       hlp_val_desc(P, v));
				hlp_declare_broken(P, t);
				return;
			}
			Name n = { N_FUNC, v.id, NULL, 0, 0, NULL, 1, NULL, 0 };
			if (!hlp_declare(P, t, n))
				return;
			continue;
		}
		const char *hname = t->text;
		P->pos--;
		if (!decl_name(P, &hname))
			return;
		Name n = { N_FUNC, -1, NULL, 0, 0, NULL, 1, NULL, 0 };
		if (!hlp_declare(P, t, n))
			return;
		vec_last(&P->nm)->id = hlp_new_func(P, hname, t->line, t->col);
	} while (hlp_accept(P, ","));
	hlp_expect(P, ";");
}

static void decl_image(Parser *P)
{
	do {
		HTok *t = hlp_cur(P);
		if (!hlp_expect_name(P))
			return;
		Val a[3];
		int n = hlp_parse_args(P, a, 3);
		if (n >= 0 && (n < 2 || a[0].k != V_TYPE || a[1].k != V_INT))
			hlp_err_tok(P, t, "ImageParam %s: expected (type, dimensions, \"name\")", t->text);
		else if (n >= 0 && (a[1].i < 1 || a[1].i > 4))
			hlp_err_at(P, a[1].line, a[1].col, "ImageParam %s: %lld dimensions (1 to 4 are supported)",
			       t->text, (long long)a[1].i);
		else if (n >= 0 && ht_is_bool(a[0].t))
			hlp_err_at(P, a[0].line, a[0].col, "ImageParam %s: a boolean image is not supported", t->text);
		else if (n >= 0 && ht_is_float(a[0].t))
			hlp_err_at(P, a[0].line, a[0].col, "ImageParam %s: a floating-point image is not supported (images "
				   "hold integers; the array has no floating-point unit)", t->text);
		if (n < 0 || P->failed) {
			hlp_declare_broken(P, t);
			return;
		}
		HImage im = { t->text, a[0].t, (int)a[1].i, 0, t->line, t->col, -1, { 0 }, { 0 }, iv_type(a[0].t) };
		if (n == 3 && a[2].k == V_STRING && a[2].s[0])
			im.name = a[2].s;
		im.name = arena_strdup(P->a, im.name);
		vec_push(&P->p->images, im);
		Name nm = { N_IMAGE, P->p->images.len - 1, NULL, 0, 0, NULL, 1, NULL, 0 };
		if (!hlp_declare(P, t, nm))
			return;
	} while (hlp_accept(P, ","));
	hlp_expect(P, ";");
}

static void decl_rdom(Parser *P)
{
	HTok *t = hlp_cur(P);
	if (!hlp_expect_name(P))
		return;
	/* RDom r = RDom(...): the same */
	if (hlp_accept(P, "=") && !hlp_expect(P, "RDom")) {
		hlp_declare_broken(P, t);
		return;
	}
	Val a[9];
	int n = hlp_parse_args(P, a, 9);
	if (n < 0) {
		hlp_declare_broken(P, t);
		return;
	}
	HRDom r = { 0 };
	r.name = arena_strdup(P->a, t->text);
	r.line = t->line;
	r.col = t->col;
	if (n > 0 && a[n - 1].k == V_STRING) {
		r.name = arena_strdup(P->a, a[n - 1].s);
		n--;
	}
	if (n == 0 || n % 2 || n > 8) {
		hlp_err_tok(P, t, "RDom %s: expected pairs of (min, extent) for 1 to 4 dimensions", t->text);
		hlp_declare_broken(P, t);
		return;
	}
	r.ndims = n / 2;
	for (int i = 0; i < r.ndims; i++) {
		if (!hlp_int_arg(P, a[2 * i], "RDom min", INT32_MIN, &r.min[i]) ||
		    !hlp_int_arg(P, a[2 * i + 1], "RDom extent", 1, &r.extent[i])) {
			hlp_declare_broken(P, t);
			return;
		}
		r.sym[i] = hlp_new_sym(P, SYM_RVAR, arena_printf(P->a, "%s.%c", r.name, "xyzw"[i]), t->line, t->col);
		P->p->syms.data[r.sym[i]].rdom = P->p->rdoms.len;
		P->p->syms.data[r.sym[i]].dim = i;
	}
	vec_push(&P->p->rdoms, r);
	Name nm = { N_RDOM, P->p->rdoms.len - 1, NULL, 0, 0, NULL, 1, NULL, 0 };
	if (hlp_declare(P, t, nm))
		hlp_expect(P, ";");
}

/* Expr, int, float and double declarations: NAME = value, NAME (a value to
 * come), NAME[size] = {...}, separated by commas. kind is N_EXPR, N_INT or
 * N_FLOAT; single is, for N_FLOAT, 1 for a float and 0 for a double, for
 * N_INT the C++ integer type's code (hlp_int_type). */
static void decl_value(Parser *P, NameKind kind, int single)
{
	static const char *const types[] = { [N_EXPR] = "Expr", [N_INT] = "int", [N_FLOAT] = "float" };
	do {
		HTok *t = hlp_cur(P);
		if (!hlp_expect_name(P))
			return;
		if (hlp_accept(P, "[")) {
			if (!hlp_array_decl(P, t, kind, single)) {
				hlp_declare_broken(P, t);
				return;
			}
			continue;
		}
		Name nm = { kind, kind == N_EXPR ? -1 : single, NULL, 0, 0, NULL, 0, NULL, P->decl_const };
		if ((hlp_at(P, ";") || hlp_at(P, ",")) && nm.cnst) {
			hlp_err_tok(P, t, "const '%s' without a value: C++ requires one", t->text);
			hlp_declare_broken(P, t);
			return;
		}
		if (hlp_at(P, ";") || hlp_at(P, ",")) {
			if (!hlp_declare(P, t, nm))     /* a value to come */
				return;
			continue;
		}
		if (!hlp_expect(P, "="))
			return;
		Val v = hlp_parse_expr(P);
		if (P->failed) {
			hlp_declare_broken(P, t);
			return;
		}
		if (kind == N_INT)
			v = hlp_cpp_bool(v);
		if (kind == N_INT && (v.k == V_FLOAT || v.k == V_INT)) {   /* C++ converts it */
			v = hlp_cpp_convert(P, hlp_int_type(single), v, t);
			if (P->failed) {
				hlp_declare_broken(P, t);
				return;
			}
		}
		const char *bad = kind == N_INT && v.k != V_INT ? "an integer constant expression"
				  : kind == N_FLOAT && v.k != V_INT && v.k != V_FLOAT ? "a constant number" : NULL;
		if (bad) {
			hlp_err_at(P, v.line, v.col, "%s %s: expected %s, not %s",
				   kind == N_FLOAT && !single ? "double" : types[kind], t->text, bad, hlp_val_desc(P, v));
			hlp_declare_broken(P, t);
			return;
		}
		nm.set = 1;
		if (kind == N_INT) {
			nm.i = v.i;
		} else if (kind == N_FLOAT) {
			double f = v.k == V_INT ? hlp_int_double(v) : v.f;
			nm.f = single ? (double)(float)f : f;
		} else if (!(nm.e = hlp_to_expr(P, v))) {
			hlp_declare_broken(P, t);
			return;
		}
		if (!hlp_declare(P, t, nm))
			return;
	} while (hlp_accept(P, ","));
	hlp_expect(P, ";");
}

/* ---- statements ---- */

HType hlp_int_type(int code)
{
	return code < 0 ? HT_I32 : (HType){ (uint8_t)(code >> 8), (uint8_t)(code & 255) };
}

Val hlp_cpp_int(HType t, int64_t i, const HTok *what)
{
	if (ht_is_bool(t))
		return hlp_vbool(i != 0, what);
	Val v = hlp_vint(t.bits == 64 ? i : ht_wrap(t, i), what);     /* 64 bits: i is the value's bits */
	v.c64 = t.bits == 64;
	v.cuns = t.bits >= 32 && !t.is_signed;
	return v;
}

int hlp_int_type_name(Parser *P, const HTok *t, int *code)
{
	static const struct { const char *name; int code; } tab[] = {
		{ "int", -1 }, { "int32_t", -1 }, { "long", 256 + 64 }, { "int64_t", 256 + 64 }, { "size_t", 64 },
		{ "uint64_t", 64 }, { "short", 256 + 16 }, { "int16_t", 256 + 16 }, { "int8_t", 256 + 8 },
		{ "uint8_t", 8 }, { "uint16_t", 16 }, { "uint32_t", 32 }, { "unsigned", 32 }, { "bool", 1 },
	};
	for (size_t i = 0; i < sizeof tab / sizeof *tab; i++)
		if (hlx_is(t, tab[i].name) && !hlp_lookup(P, t->text)) {
			*code = tab[i].code;
			if (hlx_is(t, "unsigned") || hlx_is(t, "long") || hlx_is(t, "short"))
				while (hlp_at(P, "int") || hlp_at(P, "long"))
					hlp_next(P);
			return 1;
		}
	return 0;
}

/* 1 if t names a type a function may return. */
static int is_type_word(const HTok *t)
{
	static const char *const words[] = { "Expr", "Func", "Var", "ImageParam", "RDom", "float", "double", "void", "std",
					     "int", "int32_t", "long", "int64_t", "size_t", "uint64_t", "short", "int16_t",
					     "int8_t", "uint8_t", "uint16_t", "uint32_t", "unsigned", "bool", NULL };
	for (int i = 0; words[i]; i++)
		if (hlx_is(t, words[i]))
			return 1;
	return 0;
}

/* auto NAME = value; : an int, a float or double, an Expr or a Func, as the
 * value is. */
static void decl_auto(Parser *P)
{
	HTok *t = hlp_cur(P);
	if (!hlp_expect_name(P) || !hlp_expect(P, "="))
		return;
	Val v = hlp_parse_expr(P);
	if (P->failed) {
		hlp_declare_broken(P, t);
		return;
	}
	Name n = { N_EXPR, -1, NULL, 0, 0, NULL, 1, NULL, P->decl_const };
	switch (v.k) {
	case V_INT: n.k = N_INT; n.i = v.i; break;
	case V_FLOAT: n.k = N_FLOAT; n.id = v.single; n.f = v.f; break;
	case V_EXPR: n.e = v.e; break;
	case V_FUNC: n.k = N_FUNC; n.id = v.id; break;
	default:
		hlp_err_at(P, v.line, v.col, "auto %s: %s is not a value this compiler keeps in a variable (an int, a "
			   "float, an Expr or a Func)", t->text, hlp_val_desc(P, v));
		hlp_declare_broken(P, t);
		return;
	}
	if (hlp_declare(P, t, n))
		hlp_expect(P, ";");
}

/* std::string NAME = value, ... ; (after "std::string") */
static void decl_string(Parser *P)
{
	do {
		HTok *t = hlp_cur(P);
		if (!hlp_expect_name(P))
			return;
		Val v = hlp_vstring("", 1, t->line, t->col);
		if (hlp_accept(P, "=")) {
			v = hlp_parse_expr(P);
			if (!P->failed && v.k != V_STRING)
				hlp_err_at(P, v.line, v.col, "std::string %s: expected a string, not %s", t->text,
					   hlp_val_desc(P, v));
			if (P->failed) {
				hlp_declare_broken(P, t);
				return;
			}
		}
		Name n = { N_STRING, -1, NULL, 0, 0, NULL, 1, v.s, P->decl_const };
		if (!hlp_declare(P, t, n))
			return;
	} while (hlp_accept(P, ","));
	hlp_expect(P, ";");
}

/* assert(condition); : checked when compiling (a string literal in the
 * condition, as in assert(c && "why"), is true). */
static void cpp_assert(Parser *P, const HTok *t)
{
	Val a[1];
	int n = hlp_parse_args(P, a, 1);
	if (n < 0)
		return;
	if (n != 1 || (a[0].k != V_INT && a[0].k != V_FLOAT && a[0].k != V_STRING))
		hlp_err_tok(P, t, "assert() takes a condition known when compiling (a C++ int or bool)%s",
			    n == 1 && a[0].k == V_EXPR ? ", not an Expr" : "");
	else if (a[0].k == V_INT ? !a[0].i : a[0].k == V_FLOAT ? !a[0].f : 0)
		hlp_err_tok(P, t, "assert() fails when compiling");
	else
		hlp_expect(P, ";");
}

/* using namespace NAME; at the current token (after "using"): Halide's
 * namespaces and std. BoundaryConditions makes repeat_edge(...) and the
 * others names without their qualifier; ConciseCasts' names (u8, i16_sat,
 * ...) are always known. */
static void using_namespace(Parser *P, const HTok *t)
{
	if (!hlp_expect(P, "namespace"))
		return;
	StrBuf b = { 0 };
	do {
		HTok *n = hlp_cur(P);
		if (!hlp_expect_name(P)) {
			free(b.s);
			return;
		}
		sb_printf(&b, "%s%s", b.len ? "::" : "", n->text);
	} while (hlp_accept(P, "::"));
	static const char *const known[] = { "Halide", "std", "Halide::ConciseCasts", "Halide::BoundaryConditions", NULL };
	int k = -1;
	for (int i = 0; known[i]; i++)
		if (!strcmp(known[i], b.s))
			k = i;
	if (k < 0)
		hlp_err_tok(P, t, "using namespace %s: unknown namespace (known: Halide, Halide::BoundaryConditions, "
			       "Halide::ConciseCasts, std)", b.s);
	else if (k == 3)
		P->using_bc = 1;
	else if (k == 1)
		P->using_std = 1;
	free(b.s);
	if (!P->failed)
		hlp_expect(P, ";");
}

/* A statement on Func f named at token t: a definition, a schedule chain,
 * or `f = g` (f names Func g from now on, as a C++ Func handle does). */
static void func_statement(Parser *P, Name *n, const HTok *t)
{
	if (hlp_at(P, "(")) {
		hlp_definition(P, n->id, t);
		if (P->failed)
			P->def_failed.data[n->id] = 1;
		return;
	}
	if (hlp_at(P, ".")) {
		Val v = { .k = V_FUNC, .id = n->id, .line = t->line, .col = t->col };
		return hlp_schedule_chain(P, v);
	}
	if (hlp_accept(P, "=")) {
		Val v = hlp_parse_expr(P);
		if (P->failed)
			return;
		if (v.k != V_FUNC) {
			hlp_err_at(P, v.line, v.col, "a Func is assigned another Func (such as f.in() or "
				   "BoundaryConditions::repeat_edge(input)), not %s", hlp_val_desc(P, v));
			return;
		}
		n->id = v.id;
		hlp_expect(P, ";");
		return;
	}
	hlp_err_tok(P, t, "expected a definition, a schedule call or an assignment of Func '%s'",
		    hlp_func_name(P, n->id));
}

static void statement(Parser *P);

int hlp_enter_statement(Parser *P)
{
	++P->stmt_nesting;
	if (P->abandoned)
		return 0;
	if (P->stmt_nesting > HL_MAX_STATEMENT_NESTING)
		hlp_err_tok(P, hlp_cur(P), "statements nested deeper than %d levels: the rest of the file is not "
			    "read", HL_MAX_STATEMENT_NESTING);
	else if (P->p->funcs.len > HL_MAX_FUNCS)
		hlp_err_tok(P, hlp_cur(P), "more than %d Funcs (with their arrays, and those the statements run "
			    "make): the rest of the file is not read", HL_MAX_FUNCS);
	else if (P->array_elems > HL_MAX_ARRAY_ELEMENTS)
		hlp_err_tok(P, hlp_cur(P), "the C++ arrays declared hold more than %d elements in all (a declaration "
			    "a loop runs counts each time): the rest of the file is not read", HL_MAX_ARRAY_ELEMENTS);
	else
		return 1;
	P->abandoned = 1;
	while (hlp_cur(P)->kind != TK_EOF)
		hlp_next(P);
	return 0;
}

void hlp_statement(Parser *P)
{
	int decl_const = P->decl_const;
	int join_mark = P->join_mark, join_id = P->join_id;
	P->decl_const = 0;
	P->join_mark = -1;
	if (!hlp_enter_statement(P))
		P->failed = 1;
	else if (join_mark >= 0 && hlp_accept(P, "{"))
		hlp_block_joined(P, join_mark, join_id);
	else
		statement(P);
	P->stmt_nesting--;
	P->decl_const = decl_const;
}

static void statement(Parser *P)
{
	HTok *t = hlp_cur(P);
	if (hlp_accept(P, ";"))
		return;
	if (hlp_accept(P, "{"))
		return hlp_block(P);
	if (hlp_at(P, "++") || hlp_at(P, "--"))
		return hlp_assignment(P, ";");
	if (t->kind != TK_NAME) {
		hlp_err_tok(P, t, "expected a declaration, a definition or a schedule call before %s", hlp_tok_desc(t));
		return;
	}
	hlp_next(P);
	while ((hlx_is(t, "const") || hlx_is(t, "constexpr") || hlx_is(t, "static") || hlx_is(t, "inline")) &&
	       hlp_cur(P)->kind == TK_NAME) {
		P->decl_const |= hlx_is(t, "const") || hlx_is(t, "constexpr");
		t = hlp_next(P);
	}
	/* a function's definition (a type this compiler does not know is refused there) */
	if (!hlp_lookup(P, t->text) && (is_type_word(t) || !hlp_reserved(t->text)) && hlp_function_ahead(P))
		return hlp_function_def(P, t);
	if (hlx_is(t, "return"))
		return hlp_return(P, t);
	if (hlx_is(t, "for"))
		return hlp_for(P, t);
	if (hlx_is(t, "if"))
		return hlp_if(P);
	if (hlx_is(t, "ImageParam"))
		return decl_image(P);
	if (hlx_is(t, "Var") || hlx_is(t, "RVar"))
		return decl_var(P, hlx_is(t, "RVar"));
	if (hlx_is(t, "using"))
		return using_namespace(P, t);
	if (hlx_is(t, "Func"))
		return decl_func(P);
	if (hlx_is(t, "RDom"))
		return decl_rdom(P);
	if (hlx_is(t, "Expr"))
		return decl_value(P, N_EXPR, 0);
	int code;
	if (hlp_int_type_name(P, t, &code))
		return decl_value(P, N_INT, code);
	if (hlx_is(t, "float") || hlx_is(t, "double"))
		return decl_value(P, N_FLOAT, hlx_is(t, "float"));
	if (hlx_is(t, "auto"))
		return decl_auto(P);
	if (hlx_is(t, "std") && hlx_is(hlp_cur(P), "::") && hlx_is(&P->t[P->pos + 1], "string")) {
		P->pos += 2;
		return decl_string(P);
	}
	if (hlx_is(t, "assert"))
		return cpp_assert(P, t);
	if (hlx_is(t, "hw_accelerate") || hlx_is(t, "stream_to_accelerator"))
		return hlp_directive(P, t);
	Name *n = hlp_lookup(P, t->text);
	if (!n) {
		hlp_err_tok(P, t, "unknown name '%s'", t->text);
		return;
	}
	if (n->k == N_BROKEN) {
		P->failed = 1;
		return;
	}
	if (n->k == N_CPPFN && hlp_at(P, "(")) {
		hlp_call_function(P, n->id, t);
		if (!P->failed)
			hlp_expect(P, ";");
		return;
	}
	if (n->k == N_ARRAY && n->elems[0].k == N_FUNC) {
		Name *e = hlp_array_elem(P, n, t);
		if (e)
			func_statement(P, e, t);
		return;
	}
	if (n->k == N_EXPR || n->k == N_INT || n->k == N_FLOAT || n->k == N_ARRAY) {
		P->pos--;
		return hlp_assignment(P, ";");
	}
	if (n->k == N_FUNC)
		return func_statement(P, n, t);
	if (n->k == N_IMAGE && hlp_at(P, ".")) {
		Val v = { .k = V_IMAGE, .id = n->id, .line = t->line, .col = t->col };
		return hlp_schedule_chain(P, v);
	}
	if (n->k == N_IMAGE && hlp_at(P, "("))
		hlp_err_tok(P, t, "ImageParam '%s' cannot be defined: it is an input", t->text);
	else
		hlp_err_tok(P, t, "expected a definition or a schedule call of a Func after '%s'", t->text);
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

/* Halide-to-Hardware's meaning of f.in() after f.stream_to_accelerator():
 * the wrapper is the accelerator's copy of the stream, computed and stored
 * at the accelerator's outer loop whatever its own schedule says (the fork's
 * lowering puts it there), so that unrolling it (f.in().unroll(x, 2)) asks
 * for several values a cycle. In Halide 14 an unscheduled wrapper is inline
 * and cannot be unrolled: docs/applications.md lists the difference. */
static void place_stream_copies(HProgram *p)
{
	vec_foreach(&p->funcs, w) {
		HFunc *wf = &p->funcs.data[w];
		if (wf->wrapper_of < 0 || !p->funcs.data[wf->wrapper_of].streamed)
			continue;
		HLevel at = { p->accel_outer >= 0 ? LEVEL_AT : LEVEL_ROOT, p->output, p->accel_outer, p->accel_line,
			      p->accel_col };
		wf->compute = wf->store = at;
	}
}

static void check_program(Parser *P)
{
	HProgram *p = P->p;
	HTok *end = hlp_cur(P);
	int errors = diags_errors(P->d);
	P->failed = 0;
	if (p->output < 0) {
		hlp_err_tok(P, end, "no hw_accelerate(): name the accelerator's output Func");
		return;
	}
	HFunc *out = &p->funcs.data[p->output];
	/* declared only: it has no loops, no stage 0 to look into */
	if (!out->defined && P->def_failed.data[p->output])
		return;
	if (!out->defined) {
		hlp_err_at(P, p->accel_line, p->accel_col, "hw_accelerate: the output Func '%s' has no definition",
			   out->name);
		return;
	}
	const HStageSched *s = &out->defs.data[0].sched;
	int vars[2] = { p->accel_inner, p->accel_outer };
	for (int i = 0; i < 2; i++)
		if (vars[i] >= 0 && hlp_dim_index(s, vars[i]) < 0) {
			P->failed = 0;
			hlp_err_at(P, p->accel_line, p->accel_col, "hw_accelerate: '%s' is not a loop of %s.s0 (%s)",
			       hl_sym_name(p, vars[i]), out->name, hlp_stage_loops(P, s));
		}
	if (vars[0] >= 0 && hlp_dim_index(s, vars[0]) >= 0 && hlp_dim_index(s, vars[1]) >= 0 &&
	    hlp_dim_index(s, vars[0]) >= hlp_dim_index(s, vars[1])) {
		P->failed = 0;
		hlp_err_at(P, p->accel_line, p->accel_col, "hw_accelerate: the inner loop '%s' is not inside '%s'",
		       hl_sym_name(p, vars[0]), hl_sym_name(p, vars[1]));
	}
	hlp_warn_undefined_schedules(P);
	hlp_resolve_outermost(P);
	place_stream_copies(p);
	vec_foreach(&p->funcs, f) {
		HFunc *fn = &p->funcs.data[f];
		HLevel *lv[2] = { &fn->compute, &fn->store };
		for (int k = 0; k < 2; k++) {
			if (lv[k]->kind != LEVEL_AT)
				continue;
			/* compute_at alone sets the store level too: one error for both */
			if (k == 1 && fn->compute.kind == LEVEL_AT && fn->store.line == fn->compute.line &&
			    fn->store.col == fn->compute.col)
				continue;
			HFunc *g = &p->funcs.data[lv[k]->func];
			if (!g->defined || hlp_dim_index(&g->defs.data[0].sched, lv[k]->var) < 0) {
				P->failed = 0;
				hlp_err_at(P, lv[k]->line, lv[k]->col, "%s of '%s': '%s' is not a loop of %s.s0",
				       k ? "store_at" : "compute_at", fn->name, hl_sym_name(p, lv[k]->var), g->name);
			}
		}
	}
	apply_wrappers(p);
	P->failed = 0;
	if (diags_errors(P->d) > errors || !hlp_host_output(P))
		return;
	hl_pad_clamped_reads(p);
	/* Halide refuses loops of an inlined Func unrolled (it warns of splits) */
	vec_foreach(&p->funcs, f) {
		const HFunc *fn = &p->funcs.data[f];
		if (f == p->output || !fn->defined || fn->streamed || fn->compute.kind != LEVEL_INLINE)
			continue;
		const HStageSched *st = &fn->defs.data[0].sched;
		vec_foreach(&st->dims, i) if (st->unrolled.data[i]) {
			P->failed = 0;
			hlp_err_at(P, st->unroll_line, st->unroll_col,
				   "Cannot unroll dimension %s of function %s because the function is scheduled inline",
				   hl_sym_name(p, st->dims.data[i]), fn->name);
			break;
		}
	}
	out = &p->funcs.data[p->output];
	for (int i = 0; i < out->dims; i++) {
		int ok = 0;
		vec_foreach(&out->bounds, k) ok |= out->bounds.data[k].var == out->vars[i];
		if (!ok) {
			P->failed = 0;
			hlp_err_at(P, p->accel_line, p->accel_col,
			       "the output '%s' needs bound() on every dimension; '%s' has none", out->name,
			       hl_sym_name(p, out->vars[i]));
		}
	}
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
	p->output = p->accel_inner = p->accel_outer = p->accel_func = -1;
	Parser P = { .p = p, .a = p->arena, .d = d, .file = p->file, .t = toks.toks, .fn = -1, .join_mark = -1 };
	hlp_index_binops(&P, toks.len);
	strmap_init(&P.names);
	while (hlp_cur(&P)->kind != TK_EOF) {
		P.failed = 0;
		int start = P.pos;
		hlp_statement(&P);
		if (P.failed)
			hlp_recover(&P, start, 0);
	}
	if (diags_errors(d) == errors)
		check_program(&P);
	strmap_free(&P.names);
	vec_free(&P.nm);
	vec_free(&P.used);
	vec_free(&P.def_failed);
	vec_free(&P.sched_undef);
	vec_free(&P.shadows);
	vec_free(&P.frames);
	vec_foreach(&P.fns, i) {
		strmap_free(P.fns.data[i].visible);
		free(P.fns.data[i].visible);
	}
	vec_free(&P.fns);
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
