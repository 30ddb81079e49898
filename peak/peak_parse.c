/* peak_parse.c - lexer and recursive-descent parser for PEak behaviours, the
 * small Python-like language of docs/pe.md. The text sits in a YAML
 * scalar; every token keeps its position in the YAML file. Indentation gives
 * INDENT and DEDENT tokens as in Python; newlines inside brackets are ignored. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "../common/vec.h"
#include "peak_ast.h"

typedef enum { T_NAME, T_NUM, T_OP, T_NEWLINE, T_INDENT, T_DEDENT, T_EOF } TokKind;

typedef struct Token {
	TokKind kind;
	const char *text;  /* arena copy */
	int line, col;     /* in the YAML file */
} Token;

typedef struct Parser {
	Arena *arena;
	const YDoc *doc;
	const YNode *node;
	YPosMap where;     /* positions of the behaviour's characters in the file */
	Diags *d;
	VEC(Token) toks;
	int pos;
	int errors;
	int last_line, last_col;
	int blocks;        /* if/elif nesting */
	int depth;         /* expression nesting, bounded so deep input cannot overflow the stack */
} Parser;

#define MAX_DEPTH 200
#define MAX_TREE_DEPTH 2000
#define MAX_BLOCKS 2000

static void error_at(Parser *p, int line, int col, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static void error_at(Parser *p, int line, int col, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	diag_vreport(p->d, DIAG_ERROR, p->doc->file, line, col, fmt, ap);
	va_end(ap);
	p->errors++;
}

/* ---- lexer ---- */

static void push_tok(Parser *p, TokKind k, const char *s, size_t n, int tline, int tcol)
{
	Token t = { k, arena_strndup(p->arena, s, n), 0, 0 };
	ypos_get(&p->where, tline, tcol, &t.line, &t.col);
	vec_push(&p->toks, t);
}

static const char *const operators[] = { "<<", ">>", "==", "!=", "<=", ">=", "+", "-", "*",
					 "&", "|", "^", "~", "<", ">", "=", "(", ")", "[",
					 "]", ":", ",", ".", NULL };

/* Length of the operator at s, 0 if none. */
static int match_operator(const char *s)
{
	for (const char *const *o = operators; *o; o++)
		if (strncmp(s, *o, strlen(*o)) == 0)
			return (int)strlen(*o);
	return 0;
}

/* Tokenizes one physical line; depth is the bracket nesting carried across lines. */
static void lex_line(Parser *p, const char *s, int n, int tline, int start, int *depth)
{
	int i = start;
	while (i < n) {
		char c = s[i];
		if (c == ' ' || c == '\t' || c == '\r') {
			i++;
		} else if (c == '#') {
			break;
		} else if (isalpha((unsigned char)c) || c == '_') {
			int j = i;
			while (j < n && (isalnum((unsigned char)s[j]) || s[j] == '_'))
				j++;
			push_tok(p, T_NAME, s + i, (size_t)(j - i), tline, i);
			i = j;
		} else if (isdigit((unsigned char)c)) {
			int j = i;
			while (j < n && (isalnum((unsigned char)s[j]) || s[j] == '_'))
				j++;
			push_tok(p, T_NUM, s + i, (size_t)(j - i), tline, i);
			i = j;
		} else {
			int k = match_operator(s + i);
			if (!k) {
				int line, col;
				ypos_get(&p->where, tline, i, &line, &col);
				int len = 1;
				if ((unsigned char)c >= 0x80) /* a whole UTF-8 character */
					while (i + len < n && ((unsigned char)s[i + len] & 0xc0) == 0x80)
						len++;
				if (c == '/' || c == '%')
					error_at(p, line, col,
						 "'%c' is not supported: division is not part of the PE language",
						 c);
				else
					error_at(p, line, col, "unexpected character '%.*s'", len, s + i);
				i += len;
				continue;
			}
			if (strchr("([", c))
				(*depth)++;
			else if (strchr(")]", c) && *depth > 0)
				(*depth)--;
			push_tok(p, T_OP, s + i, (size_t)k, tline, i);
			i += k;
		}
	}
}

static void lex(Parser *p)
{
	const char *text = p->node->value;
	VEC(int) indents = { 0 };
	vec_push(&indents, 0);
	int depth = 0, tline = 0;
	for (const char *s = text; *s; tline++) {
		const char *e = strchr(s, '\n');
		int n = e ? (int)(e - s) : (int)strlen(s);
		int ind = 0;
		while (ind < n && (s[ind] == ' ' || s[ind] == '\t'))
			ind++;
		int blank = ind == n || s[ind] == '#' || s[ind] == '\r';
		if (!blank && depth == 0) {
			int line, col;
			ypos_get(&p->where, tline, ind, &line, &col);
			const char *tab = memchr(s, '\t', (size_t)ind);
			if (tab) {
				int tl, tc;
				ypos_get(&p->where, tline, (int)(tab - s), &tl, &tc);
				error_at(p, tl, tc, "tabs are not allowed in indentation");
			}
			if (ind > vec_last(&indents)) {
				vec_push(&indents, ind);
				push_tok(p, T_INDENT, "", 0, tline, ind);
			}
			while (ind < vec_last(&indents)) {
				indents.len--;
				push_tok(p, T_DEDENT, "", 0, tline, ind);
			}
			if (ind != vec_last(&indents))
				error_at(p, line, col, "indentation does not match any outer block");
		}
		if (!blank) {
			lex_line(p, s, n, tline, ind, &depth);
			if (depth == 0)
				push_tok(p, T_NEWLINE, "", 0, tline, n);
		}
		s = e ? e + 1 : s + n;
	}
	while (indents.len > 1) {
		indents.len--;
		push_tok(p, T_DEDENT, "", 0, tline, 0);
	}
	push_tok(p, T_EOF, "", 0, tline > 0 ? tline - 1 : 0, 0);
	vec_free(&indents);
}

/* ---- parser helpers ---- */

static Token *peek(Parser *p)
{
	return &p->toks.data[p->pos];
}

static Token *advance(Parser *p)
{
	Token *t = peek(p);
	if (t->kind != T_EOF)
		p->pos++;
	return t;
}

static int is_op(Parser *p, const char *op)
{
	return peek(p)->kind == T_OP && strcmp(peek(p)->text, op) == 0;
}

static int is_kw(Parser *p, const char *kw)
{
	return peek(p)->kind == T_NAME && strcmp(peek(p)->text, kw) == 0;
}

static const char *token_desc(Arena *a, const Token *t)
{
	switch (t->kind) {
	case T_NEWLINE:
		return "end of line";
	case T_INDENT:
		return "indentation";
	case T_DEDENT:
		return "end of block";
	case T_EOF:
		return "end of behavior";
	default:
		return arena_printf(a, "'%s'", t->text);
	}
}

/* Reports "expected X near T" at the current token. */
static void expected(Parser *p, const char *what)
{
	Token *t = peek(p);
	error_at(p, t->line, t->col, "expected %s, found %s", what, token_desc(p->arena, t));
}

static int accept_op(Parser *p, const char *op)
{
	if (!is_op(p, op))
		return 0;
	advance(p);
	return 1;
}

static int expect_op(Parser *p, const char *op)
{
	if (accept_op(p, op))
		return 1;
	expected(p, arena_printf(p->arena, "'%s'", op));
	return 0;
}

static Expr *new_expr(Parser *p, ExprKind k, const Token *at)
{
	Expr *e = arena_alloc(p->arena, sizeof *e);
	e->kind = k;
	e->line = at->line;
	e->col = at->col;
	return e;
}

static const char *const keywords[] = { "if", "elif", "else", "and", "or", "not", "pass",
					"True", "False", NULL };

static int is_keyword(const char *s)
{
	for (const char *const *k = keywords; *k; k++)
		if (strcmp(*k, s) == 0)
			return 1;
	return 0;
}

/* ---- expressions ---- */

static Expr *parse_expr(Parser *p);
static Expr *parse_factor(Parser *p);
static Expr *parse_factor_inner(Parser *p);

static Expr *parse_number(Parser *p)
{
	Token *t = advance(p);
	Expr *e = new_expr(p, EX_NUM, t);
	e->text = t->text;
	const char *s = t->text;
	int base = 10;
	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
		base = 16, s += 2;
	else if (s[0] == '0' && (s[1] == 'b' || s[1] == 'B'))
		base = 2, s += 2;
	unsigned __int128 v = 0;
	int ok = *s != '\0';
	for (; *s; s++) {
		if (*s == '_')
			continue;
		int dgt = isdigit((unsigned char)*s) ? *s - '0'
			  : isxdigit((unsigned char)*s) ? tolower((unsigned char)*s) - 'a' + 10
							: 99;
		if (dgt >= base) {
			ok = 0;
			break;
		}
		v = v * (unsigned)base + (unsigned)dgt;
		if (v >> 64)
			e->num_overflow = 1;
	}
	if (!ok)
		error_at(p, t->line, t->col, "malformed number '%s'", t->text);
	e->num = (uint64_t)v;
	return e;
}

/* atom := NAME | NUM | '(' expr ')' | True | False */
static Expr *parse_atom(Parser *p)
{
	Token *t = peek(p);
	if (t->kind == T_NUM)
		return parse_number(p);
	if (t->kind == T_NAME && (strcmp(t->text, "True") == 0 || strcmp(t->text, "False") == 0)) {
		advance(p);
		Expr *e = new_expr(p, EX_NUM, t);
		e->text = t->text;
		e->num = t->text[0] == 'T';
		e->name = "bool";
		return e;
	}
	if (t->kind == T_NAME && !is_keyword(t->text)) {
		advance(p);
		Expr *e = new_expr(p, EX_NAME, t);
		e->name = t->text;
		return e;
	}
	if (accept_op(p, "(")) {
		Expr *e = parse_expr(p);
		if (e && !expect_op(p, ")"))
			return NULL;
		return e;
	}
	expected(p, "an expression");
	return NULL;
}

static Expr *parse_call(Parser *p, Expr *fn, const Token *at)
{
	Expr *e = new_expr(p, EX_CALL, at);
	e->line = fn->line;
	e->col = fn->col;
	e->name = fn->name;
	VEC(Expr *) args = { 0 };
	if (!is_op(p, ")")) {
		do {
			Expr *a = parse_expr(p);
			if (!a) {
				vec_free(&args);
				return NULL;
			}
			vec_push(&args, a);
		} while (accept_op(p, ","));
	}
	if (!expect_op(p, ")")) {
		vec_free(&args);
		return NULL;
	}
	e->nargs = args.len;
	e->args = arena_alloc(p->arena, (size_t)(args.len + 1) * sizeof(Expr *));
	if (args.len)
		memcpy(e->args, args.data, (size_t)args.len * sizeof(Expr *));
	vec_free(&args);
	return e;
}

/* postfix := atom ( '(' args ')' | '.' NAME | '[' expr (':' expr)? ']' )* */
static Expr *parse_postfix(Parser *p)
{
	Expr *e = parse_atom(p);
	while (e) {
		Token *t = peek(p);
		if (accept_op(p, "(")) {
			if (e->kind != EX_NAME) {
				error_at(p, t->line, t->col, "only builtin functions can be called");
				return NULL;
			}
			e = parse_call(p, e, t);
		} else if (accept_op(p, ".")) {
			Token *m = peek(p);
			if (m->kind != T_NAME) {
				expected(p, "a name after '.'");
				return NULL;
			}
			advance(p);
			if (e->kind != EX_NAME) {
				error_at(p, m->line, m->col,
					 "'.' may follow only 'inst' or an enum type name");
				return NULL;
			}
			Expr *x = new_expr(p, EX_ATTR, t);
			x->line = e->line;
			x->col = e->col;
			x->base = e->name;
			x->name = m->text;
			x->name_line = m->line;
			x->name_col = m->col;
			e = x;
		} else if (accept_op(p, "[")) {
			Expr *hi = parse_expr(p);
			if (!hi)
				return NULL;
			Expr *x = new_expr(p, EX_INDEX, t);
			x->a = e;
			x->b = hi;
			if (accept_op(p, ":")) {
				x->kind = EX_SLICE;
				x->c = parse_expr(p);
				if (!x->c)
					return NULL;
			}
			if (!expect_op(p, "]"))
				return NULL;
			e = x;
		} else {
			break;
		}
	}
	return e;
}

/* Enters one more level of *level (expression or if/elif nesting); beyond max
 * it reports `what` at the current token and returns 0 with *level unchanged.
 * The passes after the parser walk these trees recursively, so their depth is
 * bounded here. */
static int enter(Parser *p, int *level, int max, const char *what)
{
	if (++*level <= max)
		return 1;
	--*level;
	Token *t = peek(p);
	error_at(p, t->line, t->col, "%s (more than %d levels)", what, max);
	return 0;
}

#define EXPR_TOO_DEEP "expression is nested too deeply"

/* factor := ('~' | '-') factor | postfix */
static Expr *parse_factor(Parser *p)
{
	if (!enter(p, &p->depth, MAX_DEPTH, EXPR_TOO_DEEP))
		return NULL;
	Expr *e = parse_factor_inner(p);
	p->depth--;
	return e;
}

static Expr *parse_factor_inner(Parser *p)
{
	Token *t = peek(p);
	if (is_op(p, "~") || is_op(p, "-")) {
		advance(p);
		Expr *a = parse_factor(p);
		if (!a)
			return NULL;
		Expr *e = new_expr(p, EX_UNARY, t);
		e->op = t->text[0] == '~' ? OP_INV : OP_NEG;
		e->a = a;
		return e;
	}
	return parse_postfix(p);
}

/* Chains such as a + b + c + ... parse without recursion but make deep trees,
 * which later passes walk recursively: their depth is bounded too. */
static int deepen(Parser *p, const Expr *a, const Expr *b, const Token *at)
{
	int d = 1 + (a->depth > b->depth ? a->depth : b->depth);
	if (d <= MAX_TREE_DEPTH)
		return 1;
	error_at(p, at->line, at->col, "%s (more than %d levels)", EXPR_TOO_DEEP, MAX_TREE_DEPTH);
	return 0;
}

typedef struct BinLevel {
	const char *ops[3];
	PeakOp codes[3];
} BinLevel;

/* Binary levels from loosest to tightest, after Python: | ^ & shifts + * */
static const BinLevel bin_levels[] = {
	{ { "|" }, { OP_OR } },
	{ { "^" }, { OP_XOR } },
	{ { "&" }, { OP_AND } },
	{ { "<<", ">>" }, { OP_SHL, OP_SHR } },
	{ { "+", "-" }, { OP_ADD, OP_SUB } },
	{ { "*" }, { OP_MUL } },
};
#define NUM_BIN_LEVELS ((int)(sizeof bin_levels / sizeof bin_levels[0]))

static Expr *parse_binary(Parser *p, int level)
{
	if (level == NUM_BIN_LEVELS)
		return parse_factor(p);
	Expr *e = parse_binary(p, level + 1);
	for (;;) {
		if (!e)
			return NULL;
		const BinLevel *L = &bin_levels[level];
		int k = -1;
		for (int i = 0; i < 3 && L->ops[i]; i++)
			if (is_op(p, L->ops[i]))
				k = i;
		if (k < 0)
			return e;
		Token *t = advance(p);
		Expr *b = parse_binary(p, level + 1);
		if (!b || !deepen(p, e, b, t))
			return NULL;
		Expr *x = new_expr(p, EX_BINARY, t);
		x->op = L->codes[k];
		x->a = e;
		x->b = b;
		x->depth = 1 + (e->depth > b->depth ? e->depth : b->depth);
		e = x;
	}
}

static PeakOp comparison_op(Parser *p)
{
	static const char *const ops[] = { "==", "!=", "<", "<=", ">", ">=" };
	static const PeakOp codes[] = { OP_EQ, OP_NE, OP_LT, OP_LE, OP_GT, OP_GE };
	for (int i = 0; i < 6; i++)
		if (is_op(p, ops[i]))
			return codes[i];
	return OP_NONE;
}

/* comparison := bitor (cmpop bitor)? ; chains are rejected */
static Expr *parse_comparison(Parser *p)
{
	Expr *e = parse_binary(p, 0);
	PeakOp op = comparison_op(p);
	if (!e || op == OP_NONE)
		return e;
	Token *t = advance(p);
	Expr *b = parse_binary(p, 0);
	if (!b)
		return NULL;
	Expr *x = new_expr(p, EX_BINARY, t);
	x->op = op;
	x->a = e;
	x->b = b;
	if (comparison_op(p) != OP_NONE) {
		Token *u = peek(p);
		error_at(p, u->line, u->col,
			 "chained comparisons are not supported; combine them with 'and'");
		return NULL;
	}
	return x;
}

/* not_expr := 'not' not_expr | comparison */
static Expr *parse_not(Parser *p)
{
	if (!is_kw(p, "not"))
		return parse_comparison(p);
	Token *t = advance(p);
	if (!enter(p, &p->depth, MAX_DEPTH, EXPR_TOO_DEEP))
		return NULL;
	Expr *a = parse_not(p);
	p->depth--;
	if (!a)
		return NULL;
	Expr *e = new_expr(p, EX_UNARY, t);
	e->op = OP_LNOT;
	e->a = a;
	return e;
}

static Expr *parse_logic(Parser *p, const char *kw, PeakOp op, Expr *(*sub)(Parser *))
{
	Expr *e = sub(p);
	while (e && is_kw(p, kw)) {
		Token *t = advance(p);
		Expr *b = sub(p);
		if (!b || !deepen(p, e, b, t))
			return NULL;
		Expr *x = new_expr(p, EX_BINARY, t);
		x->op = op;
		x->a = e;
		x->b = b;
		x->depth = 1 + (e->depth > b->depth ? e->depth : b->depth);
		e = x;
	}
	return e;
}

static Expr *parse_and(Parser *p)
{
	return parse_logic(p, "and", OP_LAND, parse_not);
}

static Expr *parse_or(Parser *p)
{
	return parse_logic(p, "or", OP_LOR, parse_and);
}

/* expr := or_expr ('if' or_expr 'else' expr)? */
static Expr *parse_expr(Parser *p)
{
	Expr *e = parse_or(p);
	if (!e || !is_kw(p, "if"))
		return e;
	Token *t = advance(p);
	Expr *cond = parse_or(p);
	if (!cond)
		return NULL;
	if (!is_kw(p, "else")) {
		expected(p, "'else' in a conditional expression");
		return NULL;
	}
	advance(p);
	if (!enter(p, &p->depth, MAX_DEPTH, EXPR_TOO_DEEP))
		return NULL;
	Expr *other = parse_expr(p);
	p->depth--;
	if (!other)
		return NULL;
	Expr *x = new_expr(p, EX_COND, t);
	x->line = e->line;
	x->col = e->col;
	x->a = e;
	x->b = cond;
	x->c = other;
	return x;
}

/* expr_list := expr (',' expr)* ; a list of two or more is a tuple */
static Expr *parse_expr_list(Parser *p)
{
	Token *t = peek(p);
	Expr *e = parse_expr(p);
	if (!e || !is_op(p, ","))
		return e;
	VEC(Expr *) items = { 0 };
	vec_push(&items, e);
	while (accept_op(p, ",")) {
		Expr *x = parse_expr(p);
		if (!x) {
			vec_free(&items);
			return NULL;
		}
		vec_push(&items, x);
	}
	Expr *tu = new_expr(p, EX_TUPLE, t);
	tu->nargs = items.len;
	tu->args = arena_alloc(p->arena, (size_t)items.len * sizeof(Expr *));
	memcpy(tu->args, items.data, (size_t)items.len * sizeof(Expr *));
	vec_free(&items);
	return tu;
}

/* ---- statements ---- */

static Stmt **parse_block(Parser *p, int *n, int top);
static Stmt *parse_if_inner(Parser *p);


static Stmt *new_stmt(Parser *p, StmtKind k, const Token *at)
{
	Stmt *s = arena_alloc(p->arena, sizeof *s);
	s->kind = k;
	s->line = at->line;
	s->col = at->col;
	return s;
}

/* Skips to the end of the current logical line after an error, and over the
 * indented block that belongs to it (the body of a broken if or else). */
static void recover(Parser *p)
{
	int depth = 0;
	while (peek(p)->kind != T_EOF) {
		TokKind k = peek(p)->kind;
		if (k == T_INDENT)
			depth++;
		if (k == T_DEDENT && --depth < 0)
			return;
		advance(p);
		if (k == T_NEWLINE && depth <= 0 && peek(p)->kind != T_INDENT)
			return;
	}
}

static int expect_newline(Parser *p)
{
	if (peek(p)->kind == T_NEWLINE) {
		advance(p);
		return 1;
	}
	expected(p, "end of line");
	return 0;
}

/* suite := NEWLINE INDENT stmt+ DEDENT */
static Stmt **parse_suite(Parser *p, int *n)
{
	if (!expect_op(p, ":"))
		return NULL;
	if (!expect_newline(p))
		return NULL;
	if (peek(p)->kind != T_INDENT) {
		expected(p, "an indented block");
		return NULL;
	}
	advance(p);
	Stmt **body = parse_block(p, n, 0);
	if (peek(p)->kind == T_DEDENT)
		advance(p);
	return body;
}

/* if_stmt := ('if'|'elif') expr suite ('elif' ... | 'else' suite)? */
static Stmt *parse_if(Parser *p)
{
	if (!enter(p, &p->blocks, MAX_BLOCKS, "if/elif nesting is too deep"))
		return NULL;
	Stmt *s = parse_if_inner(p);
	p->blocks--;
	return s;
}

static Stmt *parse_if_inner(Parser *p)
{
	Token *t = advance(p);
	Stmt *s = new_stmt(p, ST_IF, t);
	s->cond = parse_expr(p);
	if (!s->cond)
		return NULL;
	s->then_body = parse_suite(p, &s->nthen);
	if (!s->then_body)
		return NULL;
	s->end_line = p->last_line;
	s->end_col = p->last_col;
	if (is_kw(p, "elif")) {
		Stmt *e = parse_if(p);
		if (!e)
			return NULL;
		s->else_body = arena_alloc(p->arena, sizeof(Stmt *));
		s->else_body[0] = e;
		s->nelse = 1;
		s->has_else = 1;
		s->end_line = e->end_line;
		s->end_col = e->end_col;
	} else if (is_kw(p, "else")) {
		advance(p);
		s->else_body = parse_suite(p, &s->nelse);
		if (!s->else_body)
			return NULL;
		s->has_else = 1;
		s->end_line = p->last_line;
		s->end_col = p->last_col;
	}
	return s;
}

/* assignment := NAME (',' NAME)* '=' expr_list | NAME '<=' expr */
static Stmt *parse_assignment(Parser *p)
{
	Token *first = peek(p);
	VEC(Token *) names = { 0 };
	for (;;) {
		Token *t = peek(p);
		if (t->kind != T_NAME || is_keyword(t->text)) {
			expected(p, names.len ? "a name" : "a statement");
			vec_free(&names);
			return NULL;
		}
		vec_push(&names, advance(p));
		if (!accept_op(p, ","))
			break;
	}
	Stmt *s = new_stmt(p, ST_ASSIGN, first);
	if (names.len == 1 && accept_op(p, "<="))
		s->kind = ST_NEXT;
	else if (!accept_op(p, "=")) {
		expected(p, names.len == 1 ? "'=' or '<='" : "'='");
		vec_free(&names);
		return NULL;
	}
	s->ntargets = names.len;
	s->targets = arena_alloc(p->arena, (size_t)names.len * sizeof(char *));
	s->target_cols = arena_alloc(p->arena, (size_t)names.len * sizeof(int));
	vec_foreach(&names, i) {
		s->targets[i] = names.data[i]->text;
		s->target_cols[i] = names.data[i]->col;
	}
	vec_free(&names);
	s->value = s->kind == ST_NEXT ? parse_expr(p) : parse_expr_list(p);
	if (!s->value || !expect_newline(p))
		return NULL;
	return s;
}

static Stmt *parse_stmt(Parser *p)
{
	Token *t = peek(p);
	p->last_line = t->line;
	p->last_col = t->col;
	if (is_kw(p, "if"))
		return parse_if(p);
	if (is_kw(p, "elif") || is_kw(p, "else")) {
		error_at(p, t->line, t->col, "'%s' without a matching 'if'", t->text);
		return NULL;
	}
	if (is_kw(p, "pass")) {
		advance(p);
		Stmt *s = new_stmt(p, ST_PASS, t);
		return expect_newline(p) ? s : NULL;
	}
	if (t->kind == T_INDENT) {
		error_at(p, t->line, t->col, "unexpected indentation");
		return NULL;
	}
	return parse_assignment(p);
}

/* block := stmt+ up to a DEDENT (or EOF at top level) */
static Stmt **parse_block(Parser *p, int *n, int top)
{
	VEC(Stmt *) list = { 0 };
	while (peek(p)->kind != T_EOF && (top || peek(p)->kind != T_DEDENT)) {
		int errors = p->errors;
		Stmt *s = parse_stmt(p);
		if (s)
			vec_push(&list, s);
		else if (p->errors == errors)
			expected(p, "a statement");
		if (!s) {
			if (peek(p)->kind == T_DEDENT && top)
				advance(p);
			else
				recover(p);
		}
	}
	*n = list.len;
	Stmt **body = arena_alloc(p->arena, (size_t)(list.len + 1) * sizeof(Stmt *));
	if (list.len)
		memcpy(body, list.data, (size_t)list.len * sizeof(Stmt *));
	vec_free(&list);
	return body;
}

Behavior *peak_parse_behavior(Arena *arena, const YDoc *doc, const YNode *n, Diags *d)
{
	Parser p = { .arena = arena, .doc = doc, .node = n, .d = d };
	ypos_init(&p.where, doc, n);
	lex(&p);
	ypos_free(&p.where);
	if (p.errors) {
		/* the parser would only repeat what the lexer found */
		vec_free(&p.toks);
		return NULL;
	}
	Behavior *b = arena_alloc(arena, sizeof *b);
	b->body = parse_block(&p, &b->nbody, 1);
	b->last_line = p.last_line;
	if (b->nbody == 0 && !p.errors)
		error_at(&p, n->line, n->col, "the behavior is empty");
	vec_free(&p.toks);
	return p.errors ? NULL : b;
}
