/* peak_lower.c - type checking and SSA lowering of a PEak behaviour into the
 * normal form (AHA 3.1.3): every assignment makes a new value, an `if` becomes
 * `ite` selections of each name it changes, state updates (`<=`) become next-state
 * values that hold when a path does not assign them. Along the way it checks
 * widths and enum types, that locals and outputs are assigned on every path
 * before use, and that no path updates a state variable twice. */
#include <stdlib.h>
#include <string.h>

#include "../common/bv.h"
#include "../common/strmap.h"
#include "../common/vec.h"
#include "peak_lower.h"

typedef enum { V_ERR, V_NODE, V_LIT } ValKind;

/* A value during lowering: a node of the normal form, an unsized literal (its
 * expression is lowered once the width is known), or an error already reported. */
typedef struct Val {
	ValKind kind;
	int node;
	PeakType type;
	const Expr *lit;
} Val;

typedef enum { VK_INPUT, VK_OUTPUT, VK_LOCAL, VK_STATE, VK_PARAM } VarKind;
/* VS_POISON: assigned from an expression with an error already reported; reads
 * of it give errors silently, so one mistake is reported once. */
typedef enum { VS_UNSET, VS_SET, VS_MAYBE, VS_POISON } VarState;

typedef struct Var {
	const char *name;
	VarKind kind;
	int index;          /* port index for inputs, outputs, state, params */
	PeakType type;      /* declared, or fixed by a local's first assignment */
	int typed;          /* locals: type known */
	int type_line;
} Var;

typedef struct Slot {
	VarState st;
	int node;
	int miss_line, miss_col; /* VS_MAYBE: where a path without an assignment ends */
} Slot;

typedef struct Next {
	int assigned;       /* on some path so far */
	int node;
	int line;
} Next;

typedef struct Env {
	VEC(Slot) slots;    /* by variable index; missing entries are unset */
	Next *next;         /* by state index */
} Env;

typedef struct Lower {
	PeakSpec *s;
	NfGraph *g;
	Arena *arena;
	Diags *d;
	StrMap names;       /* name -> variable index */
	VEC(Var) vars;
	int errors;
} Lower;

static void error_at(Lower *L, int line, int col, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static void error_at(Lower *L, int line, int col, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	diag_vreport(L->d, DIAG_ERROR, L->s->file, line, col, fmt, ap);
	va_end(ap);
	L->errors++;
}

static const Val err_val = { V_ERR, -1, { 0, -1 }, NULL };

static Val node_val(Lower *L, int node, int enum_id)
{
	return (Val){ V_NODE, node, { nf_width(L->g, node), enum_id }, NULL };
}

static const char *type_str(Lower *L, PeakType t)
{
	char buf[96];
	return arena_strdup(L->arena, peak_type_name(L->s, t, buf, sizeof buf));
}

/* ---- environments ---- */

static Slot slot_get(const Env *e, int i)
{
	if (i < e->slots.len)
		return e->slots.data[i];
	return (Slot){ VS_UNSET, -1, 0, 0 };
}

static void slot_set(Env *e, int i, Slot s)
{
	while (e->slots.len <= i)
		vec_push(&e->slots, ((Slot){ VS_UNSET, -1, 0, 0 }));
	e->slots.data[i] = s;
}

static Env env_copy(Lower *L, const Env *e)
{
	Env c = { { 0 }, NULL };
	vec_reserve(&c.slots, e->slots.len);
	if (e->slots.len)
		memcpy(c.slots.data, e->slots.data, (size_t)e->slots.len * sizeof(Slot));
	c.slots.len = e->slots.len;
	int n = L->s->nports[PEAK_STATE];
	c.next = xmalloc((size_t)(n + 1) * sizeof(Next));
	memcpy(c.next, e->next, (size_t)n * sizeof(Next));
	return c;
}

static void env_free(Env *e)
{
	vec_free(&e->slots);
	free(e->next);
}

static int add_var(Lower *L, const char *name, VarKind k, int index, PeakType t)
{
	Var v = { name, k, index, t, 1, 0 };
	strmap_put(&L->names, name, L->vars.len);
	vec_push(&L->vars, v);
	return L->vars.len - 1;
}

/* ---- literals ---- */

static int is_lit_expr(const Expr *e)
{
	switch (e->kind) {
	case EX_NUM:
		return 1;
	case EX_UNARY:
		return e->op != OP_LNOT && is_lit_expr(e->a);
	case EX_BINARY:
		return e->op <= OP_SHR && is_lit_expr(e->a) && is_lit_expr(e->b);
	default:
		return 0;
	}
}

/* Decimal text of a literal value (in the lowering's arena). */
static const char *lit_text(Lower *L, __int128 v)
{
	char buf[48], *p = buf + sizeof buf - 1;
	int neg = v < 0;
	unsigned __int128 u = neg ? -(unsigned __int128)v : (unsigned __int128)v;
	*p = '\0';
	do
		*--p = (char)('0' + (int)(u % 10));
	while ((u /= 10) != 0);
	if (neg)
		*--p = '-';
	return arena_strdup(L->arena, p);
}

/* Literal expressions are computed exactly, as Python integers would be, in
 * 128 bits; a magnitude beyond LIT_LIMIT marks the value as too large for any
 * width. */
typedef __int128 LitInt;
#define LIT_LIMIT ((LitInt)1 << 100)

static LitInt lit_clamp(LitInt v)
{
	return v > LIT_LIMIT ? LIT_LIMIT : v < -LIT_LIMIT ? -LIT_LIMIT : v;
}

static LitInt lit_value(const Expr *e)
{
	if (e->kind == EX_NUM)
		return e->num_overflow ? LIT_LIMIT : (LitInt)e->num;
	LitInt a = lit_value(e->a);
	if (e->kind == EX_UNARY)
		return e->op == OP_INV ? -a - 1 : -a;
	LitInt b = lit_value(e->b);
	switch (e->op) {
	case OP_ADD:
		return lit_clamp(a + b);
	case OP_SUB:
		return lit_clamp(a - b);
	case OP_MUL:
		if (a != 0 && b != 0 && (a >= LIT_LIMIT / 2 || -a >= LIT_LIMIT / 2 || b >= LIT_LIMIT / 2 ||
					 -b >= LIT_LIMIT / 2))
			return (a < 0) == (b < 0) ? LIT_LIMIT : -LIT_LIMIT;
		return lit_clamp(a * b);
	case OP_AND:
		return a & b;
	case OP_OR:
		return a | b;
	case OP_XOR:
		return a ^ b;
	case OP_SHL:
		if (a == 0)
			return 0;
		if (b < 0 || b > 100 || a > LIT_LIMIT >> b || a < -(LIT_LIMIT >> b))
			return a < 0 ? -LIT_LIMIT : LIT_LIMIT;
		return a * ((LitInt)1 << b);
	default:
		/* floor division by 2^b, also for negative values */
		if (b < 0 || b > 100)
			return a < 0 ? -1 : 0;
		return a >= 0 ? a >> b : -((-a - 1) >> b) - 1;
	}
}

/* Lowers a literal expression at width w: its exact value must fit in w bits,
 * as an unsigned or (for a negative value) a signed number. */
static int lit_node(Lower *L, const Expr *e, int w)
{
	if (e->kind == EX_NUM && (e->num_overflow || (w < 64 && (e->num >> w)))) {
		error_at(L, e->line, e->col, "literal %s does not fit in %d bit%s", e->text, w,
			 w == 1 ? "" : "s");
		return -1;
	}
	LitInt v = lit_value(e);
	LitInt lim = (LitInt)1 << w;
	if (v >= lim || v < -(lim / 2)) {
		error_at(L, e->line, e->col, "the constant expression's value %s does not fit in %d bit%s",
			 v >= LIT_LIMIT || v <= -LIT_LIMIT ? "(beyond 2^100)" : lit_text(L, v), w,
			 w == 1 ? "" : "s");
		return -1;
	}
	return nf_const(L->g, (uint64_t)v, w);
}

/* Gives an unsized literal the type t. */
static Val coerce(Lower *L, Val v, PeakType t)
{
	if (v.kind != V_LIT)
		return v;
	if (t.enum_id >= 0) {
		error_at(L, v.lit->line, v.lit->col,
			 "a number cannot stand for a value of enum %s; write %s.<member>",
			 type_str(L, t), type_str(L, t));
		return err_val;
	}
	int n = lit_node(L, v.lit, t.width);
	return n < 0 ? err_val : node_val(L, n, -1);
}

/* A literal shift amount gets just the bits its value needs. */
static Val shift_amount_lit(Lower *L, Val b)
{
	LitInt v = lit_value(b.lit);
	if (v < 0) {
		error_at(L, b.lit->line, b.lit->col, "a shift amount cannot be negative");
		return err_val;
	}
	int w = 1;
	while (w < 64 && (v >> w))
		w++;
	return coerce(L, b, (PeakType){ w, -1 });
}

/* A literal value as an integer (slice bounds, widths). */
static int lit_int(Lower *L, const Expr *e, const char *what, long *out)
{
	if (!is_lit_expr(e)) {
		error_at(L, e->line, e->col, "%s must be a constant number", what);
		return 0;
	}
	LitInt v = lit_value(e);
	if (v < 0) {
		error_at(L, e->line, e->col, "%s cannot be negative", what);
		return 0;
	}
	if (v > 4096) {
		error_at(L, e->line, e->col, "%s %s is out of range", what, lit_text(L, v));
		return 0;
	}
	*out = (long)v;
	return 1;
}

/* ---- expressions ---- */

static Val lower_expr(Lower *L, Env *env, const Expr *e);

static int same_type(PeakType a, PeakType b)
{
	return a.width == b.width && a.enum_id == b.enum_id;
}

/* Brings two operands of `what` to one type: literals take the other's type. */
static int unify(Lower *L, const Expr *at, const char *what, Val *a, Val *b)
{
	if (a->kind == V_ERR || b->kind == V_ERR)
		return 0;
	if (a->kind == V_LIT && b->kind == V_LIT) {
		error_at(L, at->line, at->col,
			 "the width of '%s' between two numbers is unknown; give one operand a type", what);
		return 0;
	}
	*a = coerce(L, *a, b->kind == V_LIT ? a->type : b->type);
	*b = coerce(L, *b, a->type);
	if (a->kind == V_ERR || b->kind == V_ERR)
		return 0;
	if (!same_type(a->type, b->type)) {
		error_at(L, at->line, at->col, "mismatched types in '%s': %s and %s", what,
			 type_str(L, a->type), type_str(L, b->type));
		return 0;
	}
	return 1;
}

static int require_bits(Lower *L, const Expr *at, const char *what, Val v)
{
	if (v.kind == V_NODE && v.type.enum_id >= 0) {
		error_at(L, at->line, at->col, "'%s' is not defined on enum %s values", what,
			 type_str(L, v.type));
		return 0;
	}
	return v.kind != V_ERR;
}

static int require_bit(Lower *L, const Expr *at, const char *what, Val *v)
{
	*v = coerce(L, *v, (PeakType){ 1, -1 });
	if (v->kind == V_ERR)
		return 0;
	if (v->type.width != 1 || v->type.enum_id >= 0) {
		error_at(L, at->line, at->col, "%s must be a bit, not %s", what, type_str(L, v->type));
		return 0;
	}
	return 1;
}

static const char *op_text(PeakOp op)
{
	static const char *const t[] = { "", "+", "-", "*", "&", "|", "^", "<<", ">>", "==", "!=",
					 "<", "<=", ">", ">=", "and", "or", "~", "-", "not" };
	return t[op];
}

static Val lower_name(Lower *L, Env *env, const Expr *e)
{
	intptr_t k;
	if (!strmap_get(&L->names, e->name, &k)) {
		if (strcmp(e->name, "inst") == 0)
			error_at(L, e->line, e->col,
				 "the instruction is read field by field: inst.<field>");
		else
			error_at(L, e->line, e->col, "unknown name '%s'", e->name);
		return err_val;
	}
	Var *v = &L->vars.data[k];
	if (v->kind == VK_STATE)
		return node_val(L, nf_leaf(L->g, NF_STATE, v->index, v->type.width), v->type.enum_id);
	Slot s = slot_get(env, (int)k);
	if (s.st == VS_POISON)
		return err_val;
	if (s.st == VS_UNSET) {
		error_at(L, e->line, e->col, "'%s' is read before it is assigned", e->name);
		return err_val;
	}
	if (s.st == VS_MAYBE) {
		error_at(L, e->line, e->col,
			 "'%s' may be unassigned here: it is not assigned on the path ending at line %d",
			 e->name, s.miss_line);
		return err_val;
	}
	return node_val(L, s.node, v->type.enum_id);
}

static Val lower_attr(Lower *L, const Expr *e)
{
	PeakSpec *s = L->s;
	if (strcmp(e->base, "inst") == 0) {
		if (s->kind == PEAK_IR) {
			error_at(L, e->line, e->col, "an IR operation has no instruction");
			return err_val;
		}
		int f = peak_port_index(s, PEAK_FIELD, e->name);
		if (f < 0) {
			error_at(L, e->name_line, e->name_col, "unknown instruction field '%s'", e->name);
			return err_val;
		}
		PeakType t = s->ports[PEAK_FIELD][f].type;
		return node_val(L, nf_leaf(L->g, NF_FIELD, f, t.width), t.enum_id);
	}
	for (int i = 0; i < s->nenums; i++) {
		if (strcmp(s->enums[i].name, e->base) != 0)
			continue;
		int m = peak_enum_member(&s->enums[i], e->name);
		if (m < 0) {
			error_at(L, e->name_line, e->name_col, "enum %s has no member '%s'", e->base,
				 e->name);
			return err_val;
		}
		return node_val(L, nf_const(L->g, s->enums[i].codes[m], s->enums[i].width), i);
	}
	error_at(L, e->line, e->col, "'%s' is neither 'inst' nor an enum type", e->base);
	return err_val;
}

static Val lower_unary(Lower *L, Env *env, const Expr *e)
{
	Val a = lower_expr(L, env, e->a);
	if (a.kind == V_ERR)
		return a;
	if (e->op == OP_LNOT) {
		if (!require_bit(L, e->a, "the operand of 'not'", &a))
			return err_val;
		return node_val(L, nf_unary(L->g, NF_NOT, a.node), -1);
	}
	if (a.kind == V_LIT)
		return (Val){ V_LIT, -1, { 0, -1 }, e };
	if (!require_bits(L, e, op_text(e->op), a))
		return err_val;
	return node_val(L, nf_unary(L->g, e->op == OP_INV ? NF_NOT : NF_NEG, a.node), -1);
}

static Val lower_compare(Lower *L, const Expr *e, Val a, Val b)
{
	if (!unify(L, e, op_text(e->op), &a, &b))
		return err_val;
	if (e->op != OP_EQ && e->op != OP_NE && !require_bits(L, e, op_text(e->op), a))
		return err_val;
	NfGraph *g = L->g;
	int x = a.node, y = b.node, r;
	switch (e->op) {
	case OP_EQ:
		r = nf_binary(g, NF_EQ, x, y);
		break;
	case OP_NE:
		r = nf_unary(g, NF_NOT, nf_binary(g, NF_EQ, x, y));
		break;
	case OP_LT:
		r = nf_binary(g, NF_ULT, x, y);
		break;
	case OP_LE:
		r = nf_binary(g, NF_ULE, x, y);
		break;
	case OP_GT:
		r = nf_binary(g, NF_ULT, y, x);
		break;
	default:
		r = nf_binary(g, NF_ULE, y, x);
		break;
	}
	return node_val(L, r, -1);
}

static Val lower_binary(Lower *L, Env *env, const Expr *e)
{
	Val a = lower_expr(L, env, e->a), b = lower_expr(L, env, e->b);
	if (a.kind == V_ERR || b.kind == V_ERR)
		return err_val;
	if (e->op == OP_LAND || e->op == OP_LOR) {
		const char *what = e->op == OP_LAND ? "an operand of 'and'" : "an operand of 'or'";
		if (!require_bit(L, e->a, what, &a) || !require_bit(L, e->b, what, &b))
			return err_val;
		return node_val(L, nf_binary(L->g, e->op == OP_LAND ? NF_AND : NF_OR, a.node, b.node),
				-1);
	}
	if (e->op >= OP_EQ)
		return lower_compare(L, e, a, b);
	if (a.kind == V_LIT && b.kind == V_LIT)
		return (Val){ V_LIT, -1, { 0, -1 }, e };
	if (e->op == OP_SHL || e->op == OP_SHR) {
		/* the amount may have any width; a literal on either side takes the other's */
		if (a.kind == V_LIT)
			a = coerce(L, a, (PeakType){ b.type.width, -1 });
		if (b.kind == V_LIT)
			b = shift_amount_lit(L, b);
		if (!require_bits(L, e, op_text(e->op), a) || !require_bits(L, e, op_text(e->op), b))
			return err_val;
		return node_val(L, nf_binary(L->g, e->op == OP_SHL ? NF_SHL : NF_LSHR, a.node, b.node),
				-1);
	}
	if (!unify(L, e, op_text(e->op), &a, &b) || !require_bits(L, e, op_text(e->op), a))
		return err_val;
	static const NfOp ops[] = { [OP_ADD] = NF_ADD, [OP_SUB] = NF_SUB, [OP_MUL] = NF_MUL,
				    [OP_AND] = NF_AND, [OP_OR] = NF_OR,   [OP_XOR] = NF_XOR };
	return node_val(L, nf_binary(L->g, ops[e->op], a.node, b.node), -1);
}

static Val lower_cond(Lower *L, Env *env, const Expr *e)
{
	Val c = lower_expr(L, env, e->b);
	Val a = lower_expr(L, env, e->a), b = lower_expr(L, env, e->c);
	if (c.kind == V_ERR || !require_bit(L, e->b, "the condition", &c))
		return err_val;
	if (!unify(L, e, "if-else", &a, &b))
		return err_val;
	return node_val(L, nf_ite(L->g, c.node, a.node, b.node), a.type.enum_id);
}

static Val lower_slice(Lower *L, Env *env, const Expr *e)
{
	Val a = lower_expr(L, env, e->a);
	if (a.kind == V_LIT) {
		error_at(L, e->a->line, e->a->col, "cannot slice a number of unknown width");
		return err_val;
	}
	if (!require_bits(L, e, "[]", a))
		return err_val;
	long hi, lo;
	if (e->kind == EX_INDEX) {
		if (!is_lit_expr(e->b)) {
			error_at(L, e->b->line, e->b->col,
				 "a bit index must be a constant; for a variable index write (x >> i)[0]");
			return err_val;
		}
		if (!lit_int(L, e->b, "a bit index", &hi))
			return err_val;
		lo = hi;
	} else if (!lit_int(L, e->b, "a slice bound", &hi) || !lit_int(L, e->c, "a slice bound", &lo)) {
		return err_val;
	}
	if (lo > hi || hi >= a.type.width) {
		error_at(L, e->line, e->col, "bits [%ld:%ld] are out of range for %s", hi, lo,
			 type_str(L, a.type));
		return err_val;
	}
	return node_val(L, nf_extract(L->g, a.node, (int)hi, (int)lo), -1);
}

/* ---- builtins ---- */

typedef struct Builtin Builtin;
static const Builtin *find_builtin(const char *name);

struct Builtin {
	const char *name;
	int nargs;
	const char *signature;
};

static const Builtin builtins[] = {
	{ "adc", 3, "adc(a, b, cin) -> (sum, cout)" }, { "sbc", 3, "sbc(a, b, bin) -> (diff, bout)" },
	{ "sext", 2, "sext(x, width)" },               { "zext", 2, "zext(x, width)" },
	{ "concat", -2, "concat(hi, lo, ...)" },      { "ashr", 2, "ashr(a, amount)" },
	{ "slt", 2, "slt(a, b)" },                     { "sle", 2, "sle(a, b)" },
	{ "sgt", 2, "sgt(a, b)" },                     { "sge", 2, "sge(a, b)" },
	{ "smin", 2, "smin(a, b)" },                   { "smax", 2, "smax(a, b)" },
	{ "umin", 2, "umin(a, b)" },                   { "umax", 2, "umax(a, b)" },
	{ "abs", 1, "abs(a)" },                        { "mulhi", 2, "mulhi(a, b)" },
	{ "smulhi", 2, "smulhi(a, b)" },
};

int peak_is_builtin(const char *name)
{
	return find_builtin(name) != NULL;
}

static const Builtin *find_builtin(const char *name)
{
	for (size_t i = 0; i < sizeof builtins / sizeof builtins[0]; i++)
		if (strcmp(builtins[i].name, name) == 0)
			return &builtins[i];
	return NULL;
}

/* adc/sbc: the carry or borrow out is computed within the operand width. */
static int lower_carry(Lower *L, const Builtin *b, Val *args, Val out[2])
{
	NfGraph *g = L->g;
	int w = args[0].type.width;
	int cin = nf_ext(g, NF_ZEXT, args[2].node, w);
	if (strcmp(b->name, "adc") == 0) {
		int s1 = nf_binary(g, NF_ADD, args[0].node, args[1].node);
		int s = nf_binary(g, NF_ADD, s1, cin);
		int c = nf_binary(g, NF_OR, nf_binary(g, NF_ULT, s1, args[0].node),
				  nf_binary(g, NF_ULT, s, s1));
		out[0] = node_val(L, s, -1);
		out[1] = node_val(L, c, -1);
	} else {
		int d1 = nf_binary(g, NF_SUB, args[0].node, args[1].node);
		int d = nf_binary(g, NF_SUB, d1, cin);
		int bo = nf_binary(g, NF_OR, nf_binary(g, NF_ULT, args[0].node, args[1].node),
				   nf_binary(g, NF_ULT, d1, cin));
		out[0] = node_val(L, d, -1);
		out[1] = node_val(L, bo, -1);
	}
	return 2;
}

static int lower_ext(Lower *L, const Expr *e, const Builtin *b, Val *args, Val out[1])
{
	long w;
	if (args[0].kind == V_LIT) {
		error_at(L, e->args[0]->line, e->args[0]->col,
			 "%s of a number of unknown width; give it a type first", b->name);
		return 0;
	}
	if (!require_bits(L, e, b->name, args[0]) || !lit_int(L, e->args[1], "the new width", &w))
		return 0;
	if (w < args[0].type.width || w > 64) {
		error_at(L, e->args[1]->line, e->args[1]->col,
			 "%s to %ld bits: the width must be between %d and 64", b->name, w,
			 args[0].type.width);
		return 0;
	}
	NfOp op = b->name[0] == 's' ? NF_SEXT : NF_ZEXT;
	out[0] = node_val(L, nf_ext(L->g, op, args[0].node, (int)w), -1);
	return 1;
}

static int lower_concat(Lower *L, const Expr *e, Val *args, int n, Val out[1])
{
	int r = -1;
	for (int i = 0; i < n; i++) {
		if (args[i].kind == V_LIT) {
			error_at(L, e->args[i]->line, e->args[i]->col,
				 "the width of a number in concat is unknown; use zext or a typed value");
			return 0;
		}
		if (!require_bits(L, e->args[i], "concat", args[i]))
			return 0;
		if (r >= 0 && nf_width(L->g, r) + args[i].type.width > 64) {
			error_at(L, e->line, e->col, "concat is wider than 64 bits");
			return 0;
		}
		r = r < 0 ? args[i].node : nf_concat(L->g, r, args[i].node);
	}
	out[0] = node_val(L, r, -1);
	return 1;
}

/* Two-operand builtins of one width. */
static int lower_pair(Lower *L, const Expr *e, const Builtin *b, Val *args, Val out[1])
{
	NfGraph *g = L->g;
	const char *n = b->name;
	if (strcmp(n, "ashr") == 0) {
		if (args[0].kind == V_LIT || !require_bits(L, e, n, args[0])) {
			if (args[0].kind == V_LIT)
				error_at(L, e->line, e->col, "ashr of a number of unknown width");
			return 0;
		}
		if (args[1].kind == V_LIT)
			args[1] = shift_amount_lit(L, args[1]);
		if (!require_bits(L, e, n, args[1]))
			return 0;
		out[0] = node_val(L, nf_binary(g, NF_ASHR, args[0].node, args[1].node), -1);
		return 1;
	}
	if (!unify(L, e, n, &args[0], &args[1]) || !require_bits(L, e, n, args[0]))
		return 0;
	int x = args[0].node, y = args[1].node, r;
	if (strcmp(n, "slt") == 0)
		r = nf_binary(g, NF_SLT, x, y);
	else if (strcmp(n, "sle") == 0)
		r = nf_binary(g, NF_SLE, x, y);
	else if (strcmp(n, "sgt") == 0)
		r = nf_binary(g, NF_SLT, y, x);
	else if (strcmp(n, "sge") == 0)
		r = nf_binary(g, NF_SLE, y, x);
	else if (strcmp(n, "smin") == 0)
		r = nf_ite(g, nf_binary(g, NF_SLT, y, x), y, x);
	else if (strcmp(n, "smax") == 0)
		r = nf_ite(g, nf_binary(g, NF_SLT, x, y), y, x);
	else if (strcmp(n, "umin") == 0)
		r = nf_ite(g, nf_binary(g, NF_ULT, y, x), y, x);
	else if (strcmp(n, "umax") == 0)
		r = nf_ite(g, nf_binary(g, NF_ULT, x, y), y, x);
	else if (strcmp(n, "mulhi") == 0)
		r = nf_binary(g, NF_UMULHI, x, y);
	else
		r = nf_binary(g, NF_SMULHI, x, y);
	out[0] = node_val(L, r, -1);
	return 1;
}

/* Lowers a call; returns the number of results (0 on error). */
static int lower_call(Lower *L, Env *env, const Expr *e, Val out[2])
{
	const Builtin *b = find_builtin(e->name);
	if (!b) {
		error_at(L, e->line, e->col, "unknown function '%s'", e->name);
		return 0;
	}
	if (b->nargs >= 0 ? e->nargs != b->nargs : e->nargs < -b->nargs) {
		error_at(L, e->line, e->col, "'%s' takes %s%d argument%s (%s), got %d", b->name,
			 b->nargs < 0 ? "at least " : "", abs(b->nargs), abs(b->nargs) == 1 ? "" : "s",
			 b->signature, e->nargs);
		return 0;
	}
	Val *args = arena_alloc(L->arena, (size_t)(e->nargs + 1) * sizeof(Val));
	int bad = 0;
	for (int i = 0; i < e->nargs; i++) {
		args[i] = lower_expr(L, env, e->args[i]);
		bad |= args[i].kind == V_ERR;
	}
	if (bad)
		return 0;
	if (strcmp(b->name, "adc") == 0 || strcmp(b->name, "sbc") == 0) {
		if (!unify(L, e, b->name, &args[0], &args[1]) || !require_bits(L, e, b->name, args[0]) ||
		    !require_bit(L, e->args[2], arena_printf(L->arena, "the carry of %s", b->name),
				 &args[2]))
			return 0;
		return lower_carry(L, b, args, out);
	}
	if (strcmp(b->name, "sext") == 0 || strcmp(b->name, "zext") == 0)
		return lower_ext(L, e, b, args, out);
	if (strcmp(b->name, "concat") == 0)
		return lower_concat(L, e, args, e->nargs, out);
	if (strcmp(b->name, "abs") == 0) {
		if (args[0].kind == V_LIT) {
			error_at(L, e->line, e->col, "abs of a number of unknown width");
			return 0;
		}
		if (!require_bits(L, e, "abs", args[0]))
			return 0;
		NfGraph *g = L->g;
		int x = args[0].node, w = args[0].type.width;
		int neg = nf_binary(g, NF_SLT, x, nf_const(g, 0, w));
		out[0] = node_val(L, nf_ite(g, neg, nf_unary(g, NF_NEG, x), x), -1);
		return 1;
	}
	return lower_pair(L, e, b, args, out);
}

static Val lower_expr(Lower *L, Env *env, const Expr *e)
{
	Val out[2];
	int n;
	switch (e->kind) {
	case EX_NAME:
		return lower_name(L, env, e);
	case EX_NUM:
		if (e->name) /* True / False */
			return node_val(L, nf_const(L->g, e->num, 1), -1);
		if (e->num_overflow) {
			error_at(L, e->line, e->col, "literal %s does not fit in 64 bits", e->text);
			return err_val;
		}
		return (Val){ V_LIT, -1, { 0, -1 }, e };
	case EX_ATTR:
		return lower_attr(L, e);
	case EX_UNARY:
		return lower_unary(L, env, e);
	case EX_BINARY:
		return lower_binary(L, env, e);
	case EX_COND:
		return lower_cond(L, env, e);
	case EX_SLICE:
	case EX_INDEX:
		return lower_slice(L, env, e);
	case EX_CALL:
		n = lower_call(L, env, e, out);
		if (n == 2) {
			error_at(L, e->line, e->col,
				 "'%s' returns two values; assign them with 'x, y = %s(...)'", e->name,
				 e->name);
			return err_val;
		}
		return n ? out[0] : err_val;
	case EX_TUPLE:
		error_at(L, e->line, e->col, "a list of values can only be assigned to as many names");
		return err_val;
	}
	ICE("bad expression kind");
}

/* ---- statements ---- */

static void lower_body(Lower *L, Env *env, Stmt **body, int n);

/* The variable a name assigned with '=' refers to, creating locals. -1 on error. */
static int assign_target(Lower *L, const Stmt *s, int i)
{
	const char *name = s->targets[i];
	int line = s->line, col = s->target_cols[i];
	intptr_t k;
	if (strmap_get(&L->names, name, &k)) {
		Var *v = &L->vars.data[k];
		if (v->kind == VK_STATE) {
			error_at(L, line, col, "state '%s' is updated with '<=', not '='", name);
			return -1;
		}
		if (v->kind == VK_PARAM) {
			error_at(L, line, col, "param '%s' is a constant and cannot be assigned", name);
			return -1;
		}
		return (int)k;
	}
	if (strcmp(name, "inst") == 0 || find_builtin(name)) {
		error_at(L, line, col, "'%s' cannot be assigned", name);
		return -1;
	}
	for (int e = 0; e < L->s->ntypes; e++)
		if (strcmp(L->s->type_names[e], name) == 0) {
			error_at(L, line, col, "'%s' is a type and cannot be assigned", name);
			return -1;
		}
	Var v = { name, VK_LOCAL, -1, { 0, -1 }, 0, line };
	strmap_put(&L->names, name, L->vars.len);
	vec_push(&L->vars, v);
	return L->vars.len - 1;
}

static void poison(Env *env, int k)
{
	slot_set(env, k, (Slot){ VS_POISON, -1, 0, 0 });
}

static void assign_one(Lower *L, Env *env, const Stmt *s, int i, Val v)
{
	int k = assign_target(L, s, i);
	if (k < 0)
		return;
	if (v.kind == V_ERR) {
		poison(env, k);
		return;
	}
	Var *var = &L->vars.data[k];
	if (v.kind == V_LIT && !var->typed) {
		error_at(L, v.lit->line, v.lit->col,
			 "the width of %s is unknown here; assign a typed value to '%s' first, "
			 "or combine the number with one",
			 v.lit->text ? v.lit->text : "this number", var->name);
		return;
	}
	if (var->typed)
		v = coerce(L, v, var->type);
	if (v.kind == V_ERR) {
		poison(env, k);
		return;
	}
	if (!var->typed) {
		var->type = v.type;
		var->typed = 1;
		var->type_line = s->line;
	} else if (!same_type(var->type, v.type)) {
		if (var->kind == VK_LOCAL)
			error_at(L, s->line, s->target_cols[i], "'%s' was %s at line %d and is now %s",
				 var->name, type_str(L, var->type), var->type_line, type_str(L, v.type));
		else
			error_at(L, s->line, s->target_cols[i], "'%s' is %s but the value is %s",
				 var->name, type_str(L, var->type), type_str(L, v.type));
		poison(env, k);
		return;
	}
	slot_set(env, k, (Slot){ VS_SET, v.node, 0, 0 });
}

static void lower_assign(Lower *L, Env *env, const Stmt *s)
{
	const Expr *e = s->value;
	Val *vals = arena_alloc(L->arena, (size_t)(e->kind == EX_TUPLE ? e->nargs : 2) * sizeof(Val));
	int n;
	if (e->kind == EX_TUPLE) {
		n = e->nargs;
		for (int i = 0; i < n; i++)
			vals[i] = lower_expr(L, env, e->args[i]);
	} else if (e->kind == EX_CALL) {
		n = lower_call(L, env, e, vals);
		if (n == 0) {
			for (int i = 0; i < s->ntargets; i++) {
				intptr_t k;
				if (strmap_get(&L->names, s->targets[i], &k))
					poison(env, (int)k);
			}
			return;
		}
	} else {
		vals[0] = lower_expr(L, env, e);
		n = 1;
	}
	if (n != s->ntargets) {
		error_at(L, s->line, s->col, "%d name%s but %d value%s", s->ntargets,
			 s->ntargets == 1 ? "" : "s", n, n == 1 ? "" : "s");
		for (int i = 0; i < s->ntargets; i++)
			assign_one(L, env, s, i, err_val);
		return;
	}
	for (int i = 0; i < n; i++)
		assign_one(L, env, s, i, vals[i]);
}

static void lower_next(Lower *L, Env *env, const Stmt *s)
{
	const char *name = s->targets[0];
	intptr_t var;
	int k = strmap_get(&L->names, name, &var) && L->vars.data[var].kind == VK_STATE
			? L->vars.data[var].index
			: -1;
	Val v = lower_expr(L, env, s->value);
	if (k < 0) {
		if (peak_port_index(L->s, PEAK_OUTPUT, name) >= 0 ||
		    peak_port_index(L->s, PEAK_INPUT, name) >= 0)
			error_at(L, s->line, s->col,
				 "'<=' sets the next value of a state variable; '%s' is not one", name);
		else
			error_at(L, s->line, s->col, "unknown state variable '%s'", name);
		return;
	}
	Next *nx = &env->next[k];
	if (nx->assigned) {
		error_at(L, s->line, s->col,
			 "state '%s' is assigned twice on a path (first at line %d)", name, nx->line);
		return;
	}
	PeakType t = L->s->ports[PEAK_STATE][k].type;
	v = coerce(L, v, t);
	if (v.kind == V_ERR)
		return;
	if (!same_type(v.type, t)) {
		error_at(L, s->line, s->col, "state '%s' is %s but the value is %s", name,
			 type_str(L, t), type_str(L, v.type));
		return;
	}
	*nx = (Next){ 1, v.node, s->line };
}

/* Where the last statement of a body is (the innermost one, for an if). */
static void body_end(Stmt **body, int n, const Stmt *fallback, int *line, int *col)
{
	if (n == 0) {
		*line = fallback->line;
		*col = fallback->col;
		return;
	}
	const Stmt *s = body[n - 1];
	*line = s->kind == ST_IF ? s->end_line : s->line;
	*col = s->kind == ST_IF ? s->end_col : s->col;
}

/* Joins the environments of the two branches of an if. */
static void merge(Lower *L, Env *out, const Env *a, const Env *b, int cond, const Stmt *s)
{
	int then_line, then_col, else_line, else_col;
	body_end(s->then_body, s->nthen, s, &then_line, &then_col);
	body_end(s->else_body, s->has_else ? s->nelse : 0, s, &else_line, &else_col);
	int n = a->slots.len > b->slots.len ? a->slots.len : b->slots.len;
	for (int i = 0; i < n; i++) {
		Slot x = slot_get(a, i), y = slot_get(b, i), r;
		if (x.st == VS_POISON || y.st == VS_POISON)
			r = (Slot){ VS_POISON, -1, 0, 0 };
		else if (x.st == VS_SET && y.st == VS_SET)
			r = (Slot){ VS_SET, nf_ite(L->g, cond, x.node, y.node), 0, 0 };
		else if (x.st == VS_UNSET && y.st == VS_UNSET)
			r = x;
		else if (x.st != VS_SET)
			r = x.st == VS_MAYBE ? x : (Slot){ VS_MAYBE, y.node, then_line, then_col };
		else
			r = y.st == VS_MAYBE ? y : (Slot){ VS_MAYBE, x.node, else_line, else_col };
		slot_set(out, i, r);
	}
	for (int k = 0; k < L->s->nports[PEAK_STATE]; k++) {
		const Next *x = &a->next[k], *y = &b->next[k];
		int hold = nf_leaf(L->g, NF_STATE, k, L->s->ports[PEAK_STATE][k].type.width);
		if (!x->assigned && !y->assigned)
			continue;
		out->next[k] = (Next){ 1,
				       nf_ite(L->g, cond, x->assigned ? x->node : hold,
					      y->assigned ? y->node : hold),
				       x->assigned ? x->line : y->line };
	}
}

static void lower_if(Lower *L, Env *env, const Stmt *s)
{
	Val c = lower_expr(L, env, s->cond);
	int ok = c.kind != V_ERR && require_bit(L, s->cond, "an 'if' condition", &c);
	Env a = env_copy(L, env), b = env_copy(L, env);
	lower_body(L, &a, s->then_body, s->nthen);
	lower_body(L, &b, s->else_body, s->nelse);
	if (ok) {
		merge(L, env, &a, &b, c.node, s);
	} else {
		/* what either branch assigns is unknown after a bad condition */
		int n = a.slots.len > b.slots.len ? a.slots.len : b.slots.len;
		for (int i = 0; i < n; i++) {
			Slot x = slot_get(&a, i), y = slot_get(&b, i), o = slot_get(env, i);
			if (x.st != o.st || x.node != o.node || y.st != o.st || y.node != o.node)
				poison(env, i);
		}
	}
	env_free(&a);
	env_free(&b);
}

static void lower_body(Lower *L, Env *env, Stmt **body, int n)
{
	for (int i = 0; i < n; i++) {
		const Stmt *s = body[i];
		switch (s->kind) {
		case ST_ASSIGN:
			lower_assign(L, env, s);
			break;
		case ST_NEXT:
			lower_next(L, env, s);
			break;
		case ST_IF:
			lower_if(L, env, s);
			break;
		case ST_PASS:
			break;
		}
	}
}

static void declare_ports(Lower *L, Env *env)
{
	PeakSpec *s = L->s;
	static const VarKind kinds[] = { [PEAK_INPUT] = VK_INPUT, [PEAK_STATE] = VK_STATE,
					 [PEAK_PARAM] = VK_PARAM, [PEAK_OUTPUT] = VK_OUTPUT };
	static const int classes[] = { PEAK_INPUT, PEAK_STATE, PEAK_PARAM, PEAK_OUTPUT };
	for (int c = 0; c < 4; c++) {
		int cls = classes[c];
		for (int i = 0; i < s->nports[cls]; i++) {
			PeakPort *p = &s->ports[cls][i];
			int k = add_var(L, p->name, kinds[cls], i, p->type);
			if (cls == PEAK_INPUT || cls == PEAK_PARAM)
				slot_set(env, k,
					 (Slot){ VS_SET, nf_leaf(L->g, (NfOp)cls, i, p->type.width), 0, 0 });
		}
	}
}

static void finish_outputs(Lower *L, Env *env)
{
	PeakSpec *s = L->s;
	s->out_nodes = arena_alloc(L->arena, (size_t)(s->nports[PEAK_OUTPUT] + 1) * sizeof(int));
	for (int i = 0; i < s->nports[PEAK_OUTPUT]; i++) {
		const PeakPort *p = &s->ports[PEAK_OUTPUT][i];
		intptr_t k;
		strmap_get(&L->names, p->name, &k);
		Slot sl = slot_get(env, (int)k);
		if (sl.st == VS_POISON)
			continue;
		if (sl.st == VS_UNSET)
			error_at(L, p->line, p->col, "output '%s' is never assigned", p->name);
		else if (sl.st == VS_MAYBE)
			error_at(L, sl.miss_line, sl.miss_col,
				 "output '%s' is not assigned on every path: a path ending at line %d "
				 "leaves it unassigned",
				 p->name, sl.miss_line);
		s->out_nodes[i] = sl.node;
	}
	s->next_nodes = arena_alloc(L->arena, (size_t)(s->nports[PEAK_STATE] + 1) * sizeof(int));
	for (int k = 0; k < s->nports[PEAK_STATE]; k++)
		s->next_nodes[k] = env->next[k].assigned
					   ? env->next[k].node
					   : nf_leaf(L->g, NF_STATE, k, s->ports[PEAK_STATE][k].type.width);
}

int peak_lower(PeakSpec *s, const Behavior *b, Arena *arena, Diags *d)
{
	Lower L = { .s = s, .g = &s->g, .arena = arena, .d = d };
	strmap_init(&L.names);
	Env env = { { 0 }, xcalloc((size_t)s->nports[PEAK_STATE] + 1, sizeof(Next)) };
	declare_ports(&L, &env);
	lower_body(&L, &env, b->body, b->nbody);
	if (!L.errors)
		finish_outputs(&L, &env);
	env_free(&env);
	vec_free(&L.vars);
	strmap_free(&L.names);
	return L.errors;
}
