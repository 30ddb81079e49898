/* peak_ast.h - the syntax tree of a PEak behaviour (private to peak/). The
 * parser builds it in the spec's arena; lowering turns it into the normal form. */
#ifndef PEAK_AST_H
#define PEAK_AST_H

#include <stdint.h>

#include "../common/arena.h"
#include "../common/diag.h"
#include "../common/yamlr.h"

typedef enum {
	EX_NAME,     /* name */
	EX_NUM,      /* integer literal: num */
	EX_ATTR,     /* base.name: inst.field or Enum.Member (base is a name) */
	EX_UNARY,    /* op a: ~ - not */
	EX_BINARY,   /* a op b: arithmetic, bitwise, shifts, comparisons, and/or */
	EX_COND,     /* a if b else c (a: then, b: condition, c: else) */
	EX_CALL,     /* name(args) */
	EX_SLICE,    /* a[hi:lo] (hi, lo are constant expressions) */
	EX_INDEX,    /* a[i] */
	EX_TUPLE,    /* a, b, ... */
} ExprKind;

typedef enum {
	OP_NONE,
	OP_ADD, OP_SUB, OP_MUL, OP_AND, OP_OR, OP_XOR, OP_SHL, OP_SHR,
	OP_EQ, OP_NE, OP_LT, OP_LE, OP_GT, OP_GE,
	OP_LAND, OP_LOR,        /* and, or */
	OP_INV, OP_NEG, OP_LNOT /* ~ - not */
} PeakOp;

typedef struct Expr Expr;
struct Expr {
	ExprKind kind;
	int line, col;          /* source position in the spec file */
	PeakOp op;
	const char *name;       /* EX_NAME, EX_ATTR (member), EX_CALL (function) */
	const char *base;       /* EX_ATTR */
	int name_line, name_col; /* EX_ATTR: position of the member after the '.' */
	const char *text;       /* EX_NUM: literal as written */
	uint64_t num;           /* EX_NUM */
	int num_overflow;       /* EX_NUM: does not fit in 64 bits */
	Expr *a, *b, *c;
	Expr **args;            /* EX_CALL, EX_TUPLE */
	int nargs;
	int depth;              /* height of binary chains below (bounded by the parser) */
};

typedef enum { ST_ASSIGN, ST_NEXT, ST_IF, ST_PASS } StmtKind;

typedef struct Stmt Stmt;
struct Stmt {
	StmtKind kind;
	int line, col;
	/* ST_ASSIGN: targets = value; ST_NEXT: targets[0] <= value */
	const char **targets;
	int *target_cols;
	int ntargets;
	Expr *value;
	/* ST_IF: if cond: then_body else: else_body (elif nests in else_body) */
	Expr *cond;
	Stmt **then_body, **else_body;
	int nthen, nelse;
	int has_else;
	int end_line, end_col;  /* ST_IF: the last statement inside it */
};

typedef struct Behavior {
	Stmt **body;
	int nbody;
	int last_line;          /* line of the final statement, where the paths end */
} Behavior;

/* Parses the behaviour held in YAML scalar n of doc; positions are mapped back
 * into the YAML file. NULL when it has syntax errors (all reported to d). */
Behavior *peak_parse_behavior(__keep Arena *arena, const YDoc *doc, const YNode *n,
			      __keep Diags *d);

#endif
