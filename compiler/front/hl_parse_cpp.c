/* hl_parse_cpp.c - the C++ a generator uses to build its pipeline, run when
 * compiling (hl_parse.h): blocks, for loops over an int, if/else on a
 * compile-time condition, assignments to Expr, int and float variables
 * (=, +=, -=, *=, /=, ++, --), arrays of them (Expr sum_kernel[9];
 * int k[3] = {1, 2, 1};), and variables declared without a value. A loop's
 * body is parsed again for every iteration, its names scoped to it. */
#include <stdlib.h>
#include <string.h>

#include "hl_parse.h"

#define MAX_ITERATIONS 100000

/* Skips one statement without running it: a block, a for or an if (with its
 * else), or tokens up to a ';' outside brackets. */
void hlp_skip_statement(Parser *P)
{
	HTok *t = hlp_cur(P);
	if (t->kind == TK_EOF)
		return;
	if (hlx_is(t, "{")) {
		hlp_next(P);
		while (!hlp_at(P, "}") && hlp_cur(P)->kind != TK_EOF)
			hlp_skip_statement(P);
		hlp_accept(P, "}");
		return;
	}
	if (t->kind == TK_NAME && (hlx_is(t, "for") || hlx_is(t, "if"))) {
		hlp_next(P);
		int depth = 0;
		do {
			HTok *u = hlp_next(P);
			if (hlx_is(u, "("))
				depth++;
			else if (hlx_is(u, ")"))
				depth--;
		} while (depth > 0 && hlp_cur(P)->kind != TK_EOF);
		hlp_skip_statement(P);
		if (hlx_is(t, "if") && hlp_accept(P, "else"))
			hlp_skip_statement(P);
		return;
	}
	hlp_sync(P);
}

/* The condition of a for or an if: a C++ number; -1 after an error. */
static int condition(Parser *P, const char *what)
{
	Val c = hlp_parse_expr(P);
	if (P->failed)
		return -1;
	if (c.k == V_FLOAT)
		return c.f != 0;
	if (c.k != V_INT) {
		hlp_err_at(P, c.line, c.col, "the condition of %s is run when compiling: a C++ int, not %s", what,
			   c.k == V_EXPR ? arena_printf(P->a, "an Expr (a %s computed when the pipeline runs)",
							ht_name(c.e->type))
					 : hlp_val_desc(P, c));
		return -1;
	}
	return c.i != 0;
}

/* The position just after the bracket closing the one at P->pos - 1. */
static void skip_to_close(Parser *P, const char *close, int stop_at_semicolon)
{
	int depth = 0;
	while (hlp_cur(P)->kind != TK_EOF) {
		HTok *t = hlp_cur(P);
		if (hlx_is(t, "(") || hlx_is(t, "[") || hlx_is(t, "{"))
			depth++;
		else if (depth == 0 && ((stop_at_semicolon && hlx_is(t, ";")) || hlx_is(t, close)))
			return;
		else if (hlx_is(t, ")") || hlx_is(t, "]") || hlx_is(t, "}"))
			depth--;
		hlp_next(P);
	}
}

/* A statement with its names scoped to it. */
static void scoped_statement(Parser *P)
{
	int mark = P->names.len;
	hlp_statement(P);
	strmap_truncate(&P->names, mark);
}

void hlp_block(Parser *P)
{
	int mark = P->names.len;
	while (!P->failed && !hlp_at(P, "}") && hlp_cur(P)->kind != TK_EOF)
		hlp_statement(P);
	strmap_truncate(&P->names, mark);
	if (!P->failed)
		hlp_expect(P, "}");
}

void hlp_for(Parser *P, const HTok *t)
{
	int mark = P->names.len, errors = diags_errors(P->d);
	if (!hlp_expect(P, "("))
		return;
	/* the init: a declaration or an assignment */
	if (!hlp_at(P, ";"))
		hlp_statement(P);
	else
		hlp_next(P);
	if (P->failed)
		return;
	int cond = P->pos;
	skip_to_close(P, ";", 1);
	if (!hlp_expect(P, ";"))
		return;
	int step = P->pos;
	skip_to_close(P, ")", 0);
	if (!hlp_expect(P, ")"))
		return;
	int body = P->pos;
	int failed0 = P->failed;
	hlp_skip_statement(P);
	long length = P->pos - body;
	P->failed = failed0;
	for (int iter = 0;; iter++) {
		P->pos = cond;
		int c = hlp_at(P, ";") ? 1 : condition(P, "a for loop");
		if (c <= 0)
			break;
		if (iter == MAX_ITERATIONS) {
			hlp_err_tok(P, t, "the for loop runs more than %d times when compiling", MAX_ITERATIONS);
			break;
		}
		P->loop_tokens += length + 1;
		if (P->loop_tokens > HL_MAX_LOOP_TOKENS) {
			hlp_err_tok(P, t, "the for loops run more than %d tokens of their bodies when compiling",
				    HL_MAX_LOOP_TOKENS);
			break;
		}
		P->pos = body;
		scoped_statement(P);
		if (P->failed || diags_errors(P->d) > errors)
			break;
		P->pos = step;
		if (!hlp_at(P, ")"))
			hlp_assignment(P, ")");
		if (P->failed)
			break;
	}
	P->pos = body;
	int failed = P->failed;
	P->failed = 0;
	hlp_skip_statement(P);
	P->failed = failed;
	strmap_truncate(&P->names, mark);
}

void hlp_if(Parser *P)
{
	if (!hlp_expect(P, "("))
		return;
	int c = condition(P, "an if");
	if (c < 0 || !hlp_expect(P, ")"))
		return;
	if (c)
		scoped_statement(P);
	else
		hlp_skip_statement(P);
	if (P->failed)
		return;
	if (hlp_accept(P, "else")) {
		if (!c)
			scoped_statement(P);
		else
			hlp_skip_statement(P);
	}
}

/* ---- variables ---- */

/* The variable an assignment writes, at the current token: its Name (an
 * array element when indexed), or NULL after an error. */
static Name *target(Parser *P)
{
	HTok *t = hlp_cur(P);
	if (!hlp_expect_name(P))
		return NULL;
	Name *n = hlp_lookup(P, t->text);
	if (!n) {
		hlp_err_tok(P, t, "unknown name '%s'", t->text);
		return NULL;
	}
	if (n->k == N_BROKEN) {
		P->failed = 1;
		return NULL;
	}
	if (n->k == N_ARRAY && n->elems[0].k != N_FUNC)
		return hlp_array_elem(P, n, t);
	if (n->k != N_EXPR && n->k != N_INT && n->k != N_FLOAT) {
		hlp_err_tok(P, t, "'%s' is not a variable that can be assigned (an Expr, int or float)", t->text);
		return NULL;
	}
	return n;
}

Name *hlp_array_elem(Parser *P, Name *n, const HTok *t)
{
	if (!hlp_expect(P, "["))
		return NULL;
	Val i = hlp_parse_expr(P);
	if (P->failed || !hlp_expect(P, "]"))
		return NULL;
	if (i.k != V_INT || i.i < 0 || i.i >= n->i) {
		hlp_err_at(P, i.line, i.col, "index %s of array '%s' of %lld elements",
			   i.k == V_INT ? arena_printf(P->a, "%lld", (long long)i.i) : "that is not a C++ int", t->text,
			   (long long)n->i);
		return NULL;
	}
	return &n->elems[i.i];
}

/* Stores v into variable n (of its kind). */
static int store(Parser *P, Name *n, Val v)
{
	if (n->k == N_INT) {
		if (v.k == V_FLOAT && (v = hlp_cpp_convert(P, HT_I32, v, hlp_cur(P))).k == V_NONE)
			return 0;
		if (v.k != V_INT) {
			hlp_err_at(P, v.line, v.col, "an int is given %s when compiling", hlp_val_desc(P, v));
			return 0;
		}
		n->i = v.i;
		n->set = 1;
		return 1;
	}
	if (n->k == N_FLOAT) {
		if (v.k != V_INT && v.k != V_FLOAT) {
			hlp_err_at(P, v.line, v.col, "a float is given %s when compiling", hlp_val_desc(P, v));
			return 0;
		}
		double f = v.k == V_INT ? (double)v.i : v.f;
		n->f = n->id ? (double)(float)f : f;
		n->set = 1;
		return 1;
	}
	HExpr *e = hlp_to_expr(P, v);
	if (!e)
		return 0;
	n->e = e;
	n->set = 1;
	return 1;
}

/* The value of variable n, as an expression reads it. */
Val hlp_variable(Parser *P, Name *n, const HTok *t)
{
	if (!n->set)
		return hlp_err_tok(P, t, "'%s' is used before it is given a value", t->text);
	if (n->k == N_INT)
		return hlp_vint(n->i, t);
	if (n->k == N_FLOAT)
		return hlp_vfloat(n->f, n->id, t->line, t->col);
	Val v = { .k = V_EXPR, .e = n->e, .line = t->line, .col = t->col };
	return v;
}

void hlp_assignment(Parser *P, const char *end)
{
	HTok *pre = hlp_cur(P);
	int inc = hlp_accept(P, "++") ? 1 : hlp_accept(P, "--") ? -1 : 0;
	HTok *t = hlp_cur(P);
	Name *n = target(P);
	if (!n)
		return;
	static const struct { const char *tok; HBinOp op; } ops[] = {
		{ "+=", HB_ADD }, { "-=", HB_SUB }, { "*=", HB_MUL }, { "/=", HB_DIV },
	};
	HTok *o = hlp_cur(P);
	Val v;
	if (!inc && (hlp_at(P, "++") || hlp_at(P, "--")))
		inc = hlx_is(hlp_next(P), "++") ? 1 : -1;
	if (inc) {
		v = hlp_binop(P, HB_ADD, hlp_variable(P, n, t), hlp_vint(inc, pre), pre);
	} else if (hlp_accept(P, "=")) {
		v = hlp_parse_expr(P);
	} else {
		int k = -1;
		for (int i = 0; i < 4; i++)
			if (hlx_is(o, ops[i].tok))
				k = i;
		if (k < 0) {
			hlp_err_tok(P, o, "expected '=', '+=', '-=', '*=', '/=', '++' or '--' after '%s'", t->text);
			return;
		}
		hlp_next(P);
		Val r = hlp_parse_expr(P);
		if (P->failed)
			return;
		v = hlp_binop(P, ops[k].op, hlp_variable(P, n, t), r, o);
	}
	if (P->failed || v.k == V_NONE)
		return;
	if (!store(P, n, v))
		return;
	if (!strcmp(end, ";"))
		hlp_expect(P, ";");
}

/* TYPE name[N] [= {v, ...}]: an array (after the name). */
int hlp_array_decl(Parser *P, const HTok *t, NameKind kind, int single)
{
	Val sz = hlp_parse_expr(P);
	if (P->failed || !hlp_expect(P, "]"))
		return 0;
	if (sz.k != V_INT || sz.i < 1 || sz.i > 4096) {
		hlp_err_at(P, sz.line, sz.col, "the size of array '%s' must be a C++ int from 1 to 4096", t->text);
		return 0;
	}
	Name a = { N_ARRAY, 0, NULL, sz.i, 0, NULL, 1 };
	a.elems = arena_alloc(P->a, sizeof *a.elems * (size_t)sz.i);
	for (int i = 0; i < sz.i; i++) {
		Name e = { kind, single, NULL, 0, 0, NULL, 0 };
		a.elems[i] = e;
	}
	if (hlp_accept(P, "=")) {
		if (!hlp_expect(P, "{"))
			return 0;
		int i = 0;
		if (!hlp_at(P, "}"))
			do {
				Val v = hlp_parse_expr(P);
				if (P->failed)
					return 0;
				if (i == sz.i) {
					hlp_err_at(P, v.line, v.col, "more values than the %lld elements of '%s'", (long long)sz.i,
						   t->text);
					return 0;
				}
				if (!store(P, &a.elems[i++], v))
					return 0;
			} while (hlp_accept(P, ","));
		if (!hlp_expect(P, "}"))
			return 0;
		/* C++ zero-initialises the elements not given */
		for (; i < sz.i && kind != N_EXPR; i++)
			store(P, &a.elems[i], hlp_vint(0, t));
	}
	return hlp_declare(P, t, a);
}
