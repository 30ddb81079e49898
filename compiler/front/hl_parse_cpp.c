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

/* Skips a parenthesised group, from its '(' past its ')'. */
static void skip_parentheses(Parser *P)
{
	int depth = 0;
	do {
		HTok *u = hlp_next(P);
		if (hlx_is(u, "("))
			depth++;
		else if (hlx_is(u, ")"))
			depth--;
	} while (depth > 0 && hlp_cur(P)->kind != TK_EOF);
}

/* Skips one statement without running it: a block, a for or an if (with its
 * else), or tokens up to a ';' outside brackets. */
static void skip_statement(Parser *P);

void hlp_skip_statement(Parser *P)
{
	if (hlp_enter_statement(P))
		skip_statement(P);
	P->stmt_nesting--;
}

static void skip_statement(Parser *P)
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
		skip_parentheses(P);
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
	Val c = hlp_cpp_bool(hlp_parse_expr(P));
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

void hlp_scope_begin(Parser *P)
{
	ScopeFrame f = { P->scope, P->scope_id, P->redecl_mark, P->redecl_id };
	vec_push(&P->frames, f);
	P->scope = P->redecl_mark = P->names.len;
	P->scope_id = ++P->scope_ids;
	P->redecl_id = 0;
	P->scopes++;
}

void hlp_scope_end(Parser *P)
{
	strmap_truncate(&P->names, P->scope);
	while (P->shadows.len && vec_last(&P->shadows).scope == P->scope_id) {
		Shadow sh = vec_last(&P->shadows);
		P->shadows.len--;
		strmap_put(&P->names, sh.key, sh.old);
	}
	ScopeFrame f = vec_last(&P->frames);
	P->frames.len--;
	P->scope = f.mark;
	P->scope_id = f.id;
	P->redecl_mark = f.redecl_mark;
	P->redecl_id = f.redecl_id;
	P->scopes--;
}

/* A statement with its names scoped to it. */
static void scoped_statement(Parser *P)
{
	hlp_scope_begin(P);
	hlp_statement(P);
	hlp_scope_end(P);
}

static void for_loop(Parser *P, const HTok *t, int init_mark, int init_id);
static void function_head(Parser *P, const HTok *t, CppFn *out);

/* The statements of a block, after its '{', each error reported and the
 * next statement parsed in the block's names; P->failed at the end if any
 * statement failed. */
void hlp_block(Parser *P)
{
	hlp_block_joined(P, -1, 0);
}

void hlp_block_joined(Parser *P, int join_mark, int join_id)
{
	int errors = diags_errors(P->d), any_failed = 0;
	hlp_scope_begin(P);
	if (join_mark >= 0) {
		P->redecl_mark = join_mark;
		P->redecl_id = join_id;
	}
	while (!hlp_at(P, "}") && hlp_cur(P)->kind != TK_EOF) {
		int start = P->pos;
		P->failed = 0;
		hlp_statement(P);
		if (P->returning) {     /* the call restores the position */
			hlp_scope_end(P);
			return;
		}
		if (!P->failed)
			continue;
		any_failed = 1;
		if (P->calls) {         /* a call stops at its first error; it restores the position */
			hlp_scope_end(P);
			return;
		}
		hlp_recover(P, start, 1);
	}
	hlp_scope_end(P);
	P->failed = 0;
	if (!P->abandoned)
		hlp_expect(P, "}");
	if (diags_errors(P->d) > errors || any_failed)
		P->failed = 1;
}

void hlp_for(Parser *P, const HTok *t)
{
	hlp_scope_begin(P);
	int mark = P->scope, id = P->scope_id;
	for_loop(P, t, mark, id);
	hlp_scope_end(P);
}

/* for (init; condition; step) body, after 'for': the body run while the
 * condition holds. */
static void for_loop(Parser *P, const HTok *t, int init_mark, int init_id)
{
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
		if (c >= 0 && !hlp_at(P, ";")) {
			hlp_err_tok(P, hlp_cur(P), "expected ';' after the condition of the for loop before %s",
				    hlp_tok_desc(hlp_cur(P)));
			break;
		}
		if (c <= 0)
			break;
		if (iter == MAX_ITERATIONS) {
			hlp_err_tok(P, t, "the for loop runs more than %d times when compiling", MAX_ITERATIONS);
			break;
		}
		P->loop_tokens += length + (body - cond) + 1;
		if (P->loop_tokens > HL_MAX_LOOP_TOKENS) {
			hlp_err_tok(P, t, "the for loops run more than %d tokens (conditions, steps and bodies) when "
				    "compiling", HL_MAX_LOOP_TOKENS);
			break;
		}
		P->pos = body;
		P->join_mark = init_mark;       /* the body's block may not declare the init's names again */
		P->join_id = init_id;
		scoped_statement(P);
		if (P->failed || P->returning)
			break;
		/* after an error the program is not compiled: one run of the body and the step
		 * reports theirs */
		int stop = diags_errors(P->d) > 0;
		P->pos = step;
		if (!hlp_at(P, ")"))
			hlp_assignment(P, ")");
		if (P->failed || stop)
			break;
	}
	if (P->returning)
		return;
	P->pos = body;
	int failed = P->failed;
	P->failed = 0;
	hlp_skip_statement(P);
	P->failed = failed;
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
	if (P->failed || P->returning)
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
	if (n->k == N_ARRAY && n->elems[0].k != N_FUNC && n->cnst) {
		/* (a const array parameter shares its caller's elements, which need not be const) */
		hlp_err_tok(P, t, "'%s' is const: its elements cannot be assigned", t->text);
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
	while (n->k == N_ARRAY) {
		if (!hlp_expect(P, "["))
			return NULL;
		Val i = hlp_parse_expr(P);
		if (P->failed || !hlp_expect(P, "]"))
			return NULL;
		if (i.k != V_INT || i.i < 0 || i.i >= n->i) {
			hlp_err_at(P, i.line, i.col, "index %s of array '%s' of %lld elements",
				   i.k == V_INT ? arena_printf(P->a, "%lld", (long long)i.i) : "that is not a C++ int",
				   t->text, (long long)n->i);
			return NULL;
		}
		n = &n->elems[i.i];
	}
	return n;
}

Val hlp_cpp_bool(Val v)
{
	int64_t k;
	if (v.k == V_EXPR && ht_is_bool(v.e->type) && he_is_const(v.e, &k)) {
		Val r = { .k = V_INT, .i = k, .line = v.line, .col = v.col };
		return r;
	}
	return v;
}

/* Stores v into variable n (of its kind). */
static int store(Parser *P, Name *n, Val v)
{
	if (n->k == N_INT) {
		v = hlp_cpp_bool(v);
		if ((v.k == V_FLOAT || v.k == V_INT) && (v = hlp_cpp_convert(P, hlp_int_type(n->id), v, hlp_cur(P))).k == V_NONE)
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
		double f = v.k == V_INT ? hlp_int_double(v) : v.f;
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
		return hlp_cpp_int(hlp_int_type(n->id), n->i, t);
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
	if (n->cnst) {
		hlp_err_tok(P, t, "'%s' is const: it cannot be assigned", t->text);
		return;
	}
	if (n->k == N_EXPR && (inc || hlp_at(P, "++") || hlp_at(P, "--"))) {
		hlp_err_tok(P, inc ? pre : hlp_cur(P), "operator '%s' on the Expr '%s': Halide defines no increment or "
			    "decrement (write %s += 1)", inc ? pre->text : hlp_cur(P)->text, t->text, t->text);
		return;
	}
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
	hlp_expect(P, end);     /* ')' ends a for loop's step */
}

/* An array of the sizes dims[0..nd) (elements of kind and single, as
 * decl_value's): arrays of arrays for more than one size. */
static Name new_array(Parser *P, NameKind kind, int single, const int64_t *dims, int nd)
{
	Name a = { N_ARRAY, 0, NULL, dims[0], 0, NULL, 1, NULL, 0 };
	a.elems = arena_alloc(P->a, sizeof *a.elems * (size_t)dims[0]);
	for (int64_t i = 0; i < dims[0]; i++)
		a.elems[i] = nd > 1 ? new_array(P, kind, single, dims + 1, nd - 1)
				    : (Name){ kind, single, NULL, 0, 0, NULL, 0, NULL, 0 };
	return a;
}

static void mark_const(Name *n)
{
	n->cnst = 1;
	for (int64_t i = 0; n->k == N_ARRAY && i < n->i; i++)
		mark_const(&n->elems[i]);
}

/* C++ zero-initialises the elements an initialiser does not give. */
static void zero_fill(Parser *P, Name *a, int from, const HTok *t)
{
	for (int64_t i = from; i < a->i; i++) {
		Name *e = &a->elems[i];
		if (e->k == N_ARRAY)
			zero_fill(P, e, 0, t);
		else if (e->k != N_EXPR)
			store(P, e, hlp_vint(0, t));
	}
}

/* '{' values '}' into array a (nested braces for arrays of arrays); 0
 * after an error. */
static int array_init(Parser *P, Name *a, const HTok *t)
{
	if (!hlp_expect(P, "{"))
		return 0;
	int i = 0;
	if (!hlp_at(P, "}"))
		do {
			if (i == a->i) {
				hlp_err_tok(P, hlp_cur(P), "more values than the %lld elements of '%s'", (long long)a->i,
					    t->text);
				return 0;
			}
			if (a->elems[i].k == N_ARRAY) {
				if (!array_init(P, &a->elems[i++], t))
					return 0;
				continue;
			}
			Val v = hlp_parse_expr(P);
			if (P->failed || !store(P, &a->elems[i++], v))
				return 0;
		} while (hlp_accept(P, ",") && !hlp_at(P, "}"));
	if (!hlp_expect(P, "}"))
		return 0;
	zero_fill(P, a, i, t);
	return 1;
}

/* TYPE name[N][M]... [= {v, ...}]: an array (after "name["). */
int hlp_array_decl(Parser *P, const HTok *t, NameKind kind, int single)
{
	int64_t dims[4], total = 1;
	int nd = 0;
	do {
		if (nd == 4) {
			hlp_err_tok(P, t, "array '%s' has more than 4 dimensions", t->text);
			return 0;
		}
		Val sz = hlp_parse_expr(P);
		if (P->failed || !hlp_expect(P, "]"))
			return 0;
		if (sz.k != V_INT || sz.i < 1 || sz.i > 4096 || (total *= sz.i) > 4096) {
			hlp_err_at(P, sz.line, sz.col, "the size of array '%s' must be a C++ int from 1 to 4096 (all its "
				   "dimensions together)", t->text);
			return 0;
		}
		dims[nd++] = sz.i;
	} while (hlp_accept(P, "["));
	int64_t elems = 1;
	for (int i = 0; i < nd; i++)
		elems *= dims[i];       /* at most 4096 */
	P->array_elems += elems;
	Name a = new_array(P, kind, single, dims, nd);
	if (hlp_accept(P, "=")) {
		if (!array_init(P, &a, t))
			return 0;
	} else if (P->decl_const) {
		hlp_err_tok(P, t, "const array '%s' without values: C++ requires them", t->text);
		return 0;
	}
	if (P->decl_const)
		mark_const(&a);
	return hlp_declare(P, t, a);
}

/* ---- C++ functions of the program ---- */

/* A parameter's or return value's type, its word t taken (const before it
 * and & after it are the caller's): the Name kind of its values (N_BROKEN
 * for void) and its code; 0 if t names no such type. */
static int type_of_word(Parser *P, const HTok *t, NameKind *k, int *code)
{
	static const struct { const char *name; NameKind k; int code; } tab[] = {
		{ "Expr", N_EXPR, 0 }, { "Func", N_FUNC, 0 }, { "Var", N_VAR, 0 }, { "ImageParam", N_IMAGE, 0 },
		{ "RDom", N_RDOM, 0 }, { "float", N_FLOAT, 1 }, { "double", N_FLOAT, 0 }, { "void", N_BROKEN, 0 },
	};
	for (size_t i = 0; i < sizeof tab / sizeof *tab; i++)
		if (hlx_is(t, tab[i].name)) {
			*k = tab[i].k;
			*code = tab[i].code;
			return 1;
		}
	if (hlx_is(t, "std") && hlx_is(hlp_cur(P), "::") && hlx_is(&P->t[P->pos + 1], "string")) {
		P->pos += 2;
		*k = N_STRING;
		return 1;
	}
	*k = N_INT;
	return hlp_int_type_name(P, t, code);
}

/* The token of the name of a function whose definition starts with a type
 * word just taken (NAME '(' ... ')' '{' after the rest of its type), or -1. */
static int function_name_at(Parser *P)
{
	int i = P->pos;
	/* the rest of a type of several words: unsigned int, long long, std::string */
	while (hlx_is(&P->t[i], "int") || hlx_is(&P->t[i], "long") || hlx_is(&P->t[i], "::") ||
	       (hlx_is(&P->t[i], "string") && i > P->pos && hlx_is(&P->t[i - 1], "::")))
		i++;
	if (hlx_is(&P->t[i], "&"))
		i++;
	if (P->t[i].kind != TK_NAME || !hlx_is(&P->t[i + 1], "("))
		return -1;
	int name = i++, depth = 0;
	for (; P->t[i].kind != TK_EOF; i++) {
		if (hlx_is(&P->t[i], "("))
			depth++;
		else if (hlx_is(&P->t[i], ")") && --depth == 0)
			break;
	}
	return P->t[i].kind != TK_EOF && hlx_is(&P->t[i + 1], "{") ? name : -1;
}

int hlp_function_ahead(Parser *P)
{
	return function_name_at(P) >= 0;
}

/* ( [const] TYPE [&] NAME, ... ) of function fn. */
static int parameters(Parser *P, CppFn *fn)
{
	if (!hlp_expect(P, "("))
		return 0;
	if (hlp_accept(P, ")"))
		return 1;
	do {
		int is_const = hlp_accept(P, "const");
		HTok *t = hlp_next(P);
		if (fn->nparams == HL_MAX_PARAMS)
			return hlp_err_tok(P, t, "function '%s' has more than %d parameters", fn->name, HL_MAX_PARAMS), 0;
		NameKind k;
		int code;
		if (!type_of_word(P, t, &k, &code) || k == N_BROKEN)
			return hlp_err_tok(P, t, "a parameter of '%s' is an Expr, a Func, a Var, an ImageParam, an RDom, "
					   "a std::string, an integer type, float or double, not %s", fn->name,
					   hlp_tok_desc(t)), 0;
		int ref = hlp_accept(P, "&") && !is_const;  /* a const reference is a value */
		const char *name = hlp_expect_name(P);
		if (!name)
			return 0;
		if (hlp_reserved(name))
			return hlp_err_tok(P, &P->t[P->pos - 1], "'%s' is a reserved name", name), 0;
		/* an array (int m[3][4], int m[]): the caller's, as C++ passes it */
		while (hlp_accept(P, "[")) {
			k = N_ARRAY;
			while (!hlp_at(P, "]") && hlp_cur(P)->kind != TK_EOF)
				hlp_next(P);
			if (!hlp_expect(P, "]"))
				return 0;
		}
		for (int i = 0; i < fn->nparams; i++)
			if (!strcmp(fn->param_name[i], name))
				return hlp_err_tok(P, &P->t[P->pos - 1], "parameter '%s' of '%s' appears twice", name,
						   fn->name), 0;
		fn->param[fn->nparams] = k;
		fn->param_ref[fn->nparams] = ref && k != N_ARRAY;
		fn->param_const[fn->nparams] = is_const;
		fn->param_code[fn->nparams] = code;
		fn->param_name[fn->nparams++] = name;
	} while (hlp_accept(P, ","));
	return hlp_expect(P, ")");
}

/* After an error in a function's head: past its body (hlp_function_ahead
 * has seen its '(' ... ')' '{'). */
static void skip_function(Parser *P, int name_pos)
{
	P->pos = name_pos + 1;
	skip_parentheses(P);
	hlp_skip_statement(P);
}

void hlp_function_def(Parser *P, const HTok *t)
{
	int name_pos = function_name_at(P);
	CppFn fn = { 0 };
	function_head(P, t, &fn);
	if (P->failed) {
		skip_function(P, name_pos);
		if (P->t[name_pos].kind == TK_NAME)
			hlp_declare_broken(P, &P->t[name_pos]);
		return;
	}
	fn.body = P->pos;
	hlp_skip_statement(P);
	fn.body_len = P->pos - fn.body;
	Name n = { N_CPPFN, P->fns.len, NULL, 0, 0, NULL, 1, NULL, 0 };
	if (!hlp_declare(P, &P->t[name_pos], n))
		return;
	fn.visible = xcalloc(1, sizeof *fn.visible);  /* its own name too: it may call itself */
	strmap_copy(fn.visible, &P->names, P->names.len);
	vec_push(&P->fns, fn);
}

/* TYPE NAME(PARAMS) of a function (t its type's word): into fn. */
static void function_head(Parser *P, const HTok *t, CppFn *out)
{
	CppFn fn = { 0 };
	if (!type_of_word(P, t, &fn.ret, &fn.ret_code)) {
		hlp_err_tok(P, t, "a function returns an Expr, a Func, a Var, an ImageParam, an RDom, a std::string, an integer "
			       "type, float, double or void, not %s", hlp_tok_desc(t));
		return;
	}
	hlp_accept(P, "&");
	HTok *nt = hlp_cur(P);
	fn.name = hlp_expect_name(P);
	if (!fn.name || !parameters(P, &fn))
		return;
	if (P->calls || P->scopes) {
		hlp_err_tok(P, nt, "function '%s' is defined inside a block or a function: C++ defines functions at "
			    "file scope", fn.name);
		return;
	}
	*out = fn;
}

/* Argument a of a call of fn as parameter i: the Name it binds; 0 (an
 * error) if C++ would not pass it. */
static int argument(Parser *P, const CppFn *fn, int i, Val a, Name *out)
{
	if (fn->param_ref[i]) {
		/* a reference: the caller's variable of the parameter's type itself */
		const Name *r = a.ref;
		if (r && r->k == fn->param[i] && (r->k != N_INT || r->id == fn->param_code[i]) &&
		    (r->k != N_FLOAT || r->id == fn->param_code[i]))
			return 1;
		hlp_err_at(P, a.line, a.col, "argument %d of '%s' (%s) is a reference: expected a variable of its "
			   "type, not %s", i + 1, fn->name, fn->param_name[i], hlp_val_desc(P, a));
		return 0;
	}
	*out = (Name){ fn->param[i], -1, NULL, 0, 0, NULL, 1, NULL, fn->param_const[i] };
	a = fn->param[i] == N_INT ? hlp_cpp_bool(a) : a;
	switch (fn->param[i]) {
	case N_EXPR:
		if (a.k != V_INT && a.k != V_FLOAT && a.k != V_EXPR && a.k != V_RDOM)
			break;
		return (out->e = hlp_to_expr(P, a)) != NULL;
	case N_INT:
	case N_FLOAT:
		if (a.k != V_INT && a.k != V_FLOAT)
			break;
		if (fn->param[i] == N_FLOAT) {
			out->id = fn->param_code[i];
			out->f = a.k == V_INT ? hlp_int_double(a) : out->id ? (double)(float)a.f : a.f;
			return 1;
		}
		out->id = fn->param_code[i];
		a = hlp_cpp_convert(P, hlp_int_type(out->id), a, &P->t[P->pos - 1]);
		out->i = a.i;
		return a.k == V_INT;
	case N_VAR:
		if (a.k != V_EXPR || a.e->kind != HE_VAR || P->p->syms.data[a.e->sym].kind != SYM_VAR)
			break;
		out->id = a.e->sym;
		return 1;
	case N_FUNC:
	case N_IMAGE:
	case N_RDOM:
		if (a.k != (fn->param[i] == N_FUNC ? V_FUNC : fn->param[i] == N_IMAGE ? V_IMAGE : V_RDOM))
			break;
		out->id = a.id;
		return 1;
	case N_STRING:
		out->s = a.s;
		return a.k == V_STRING;
	case N_ARRAY:
		if (a.k != V_ARRAY)
			break;
		if (a.ref->cnst && !fn->param_const[i]) {
			hlp_err_at(P, a.line, a.col, "argument %d of '%s' (%s): a const array where the parameter is "
				   "not const (C++ refuses it: declare the parameter const)", i + 1, fn->name,
				   fn->param_name[i]);
			return 0;
		}
		*out = *a.ref;          /* the same elements: C++ passes the array itself */
		out->cnst = fn->param_const[i];
		return 1;
	default:
		break;
	}
	static const char *const kinds[] = { [N_EXPR] = "an Expr", [N_INT] = "an integer", [N_FLOAT] = "a number",
					     [N_VAR] = "a Var", [N_FUNC] = "a Func", [N_IMAGE] = "an ImageParam",
					     [N_RDOM] = "an RDom", [N_ARRAY] = "an array", [N_STRING] = "a string" };
	hlp_err_at(P, a.line, a.col, "argument %d of '%s' (%s): expected %s, not %s", i + 1, fn->name,
		   fn->param_name[i], kinds[fn->param[i]], hlp_val_desc(P, a));
	return 0;
}

/* The value a call of fn returns, from what its return statement gave. */
static Val returned(Parser *P, const CppFn *fn, Val v, int got, const HTok *t)
{
	if (fn->ret == N_BROKEN)
		return (Val){ .k = V_NONE, .line = t->line, .col = t->col };
	if (!got)
		return hlp_err_tok(P, t, "'%s' ends without returning a value", fn->name);
	if (fn->ret == N_INT)
		v = hlp_cpp_bool(v);
	if (fn->ret == N_EXPR && (v.k == V_INT || v.k == V_FLOAT || v.k == V_EXPR)) {
		HExpr *e = hlp_to_expr(P, v);
		return e ? hlp_vexpr(e, t->line, t->col) : hlp_none;
	}
	if (fn->ret == N_INT && (v.k == V_INT || v.k == V_FLOAT))
		return hlp_cpp_convert(P, hlp_int_type(fn->ret_code), v, t);
	if (fn->ret == N_FLOAT && (v.k == V_INT || v.k == V_FLOAT))
		return hlp_cpp_convert(P, fn->ret_code ? HT_F32 : HT_F64, v, t);
	if ((fn->ret == N_FUNC && v.k == V_FUNC) || (fn->ret == N_IMAGE && v.k == V_IMAGE) ||
	    (fn->ret == N_STRING && v.k == V_STRING) ||
	    (fn->ret == N_RDOM && v.k == V_RDOM) || (fn->ret == N_VAR && v.k == V_EXPR && v.e->kind == HE_VAR)) {
		v.line = t->line;
		v.col = t->col;
		return v;
	}
	return hlp_err_at(P, v.line, v.col, "'%s' returns %s where its declaration says another type", fn->name,
			  hlp_val_desc(P, v));
}

Val hlp_call_function(Parser *P, int id, const HTok *t)
{
	Val a[HL_MAX_PARAMS];
	int n = hlp_parse_args(P, a, HL_MAX_PARAMS);
	if (n < 0)
		return hlp_none;
	const CppFn *fn = &P->fns.data[id];
	if (n != fn->nparams)
		return hlp_err_tok(P, t, "'%s' takes %d argument%s, not %d", fn->name, fn->nparams,
				   fn->nparams == 1 ? "" : "s", n);
	Name args[HL_MAX_PARAMS];
	for (int i = 0; i < n; i++)
		if (!argument(P, fn, i, a[i], &args[i]))
			return hlp_none;
	if (fn->failed) {
		P->failed = 1;  /* its errors are reported */
		return hlp_none;
	}
	if (P->calls == HL_MAX_CALLS)
		return hlp_err_tok(P, t, "calls of C++ functions nested more than %d deep", HL_MAX_CALLS);
	/* each call counts its body's tokens before it runs (calls may branch) */
	P->loop_tokens += fn->body_len + 1;
	if (P->loop_tokens > HL_MAX_LOOP_TOKENS)
		return hlp_err_tok(P, t, "the for loops and function calls run more than %d tokens when compiling",
				   HL_MAX_LOOP_TOKENS);
	/* the body sees its parameters and locals (names, new), then the names
	 * visible where the function is defined (outer) */
	int pos = P->pos, scope = P->scope, scope_id = P->scope_id, scopes = P->scopes, frames = P->frames.len;
	int redecl_mark = P->redecl_mark, redecl_id = P->redecl_id, decl_const = P->decl_const;
	int shadows = P->shadows.len, running = P->fn, errors = diags_errors(P->d);
	StrMap caller = P->names;
	const StrMap *outer = P->outer;
	strmap_init(&P->names);
	P->outer = fn->visible;
	P->scope = P->redecl_mark = P->redecl_id = P->decl_const = 0;
	P->scope_id = ++P->scope_ids;
	for (int i = 0; i < n; i++) {
		HTok pt = *t;
		pt.text = fn->param_name[i];
		if (fn->param_ref[i])
			hlp_declare_alias(P, &pt, a[i].ref);
		else
			hlp_declare(P, &pt, args[i]);
	}
	P->pos = fn->body;
	P->calls++;
	P->fn = id;
	P->failed = 0;
	P->join_mark = 0;       /* the body may not declare a parameter again */
	P->join_id = P->scope_id;
	hlp_statement(P);
	int failed = P->failed;
	P->calls--;
	P->fn = running;
	int got = P->returning;
	Val v = P->ret;
	P->returning = 0;
	strmap_free(&P->names);
	P->names = caller;
	P->outer = outer;
	P->shadows.len = shadows;
	P->frames.len = frames;
	P->scope = scope;
	P->scope_id = scope_id;
	P->redecl_mark = redecl_mark;
	P->redecl_id = redecl_id;
	P->decl_const = decl_const;
	P->scopes = scopes;
	P->pos = pos;
	if (diags_errors(P->d) > errors || failed) {
		if (diags_errors(P->d) > errors) {
			P->fns.data[id].failed = 1;
			if (!P->calls)  /* the program's own statement */
				diag_note(P->d, P->file, t->line, t->col, "in this call of '%s'", P->fns.data[id].name);
		}
		P->failed = 1;
		return hlp_none;
	}
	fn = &P->fns.data[id];
	return returned(P, fn, v, got, t);
}

void hlp_return(Parser *P, const HTok *t)
{
	if (!P->calls) {
		hlp_err_tok(P, t, "return outside a function");
		return;
	}
	const CppFn *fn = &P->fns.data[P->fn];
	Val v = hlp_none;
	if (!hlp_at(P, ";")) {
		if (fn->ret == N_BROKEN) {
			hlp_err_tok(P, t, "'%s' returns void: its return takes no value", fn->name);
			return;
		}
		v = hlp_parse_expr(P);
		if (P->failed)
			return;
	} else if (fn->ret != N_BROKEN) {
		hlp_err_tok(P, t, "'%s' returns a value: its return needs one", fn->name);
		return;
	}
	if (!hlp_expect(P, ";"))
		return;
	P->ret = v;
	P->returning = 1;
}
