/* hl_parse.h - the parser's state and the helpers its four files share
 * (private to compiler/front/): hl_parse.c (tokens, errors, names, values,
 * declarations and statements, the checks after the last statement),
 * hl_parse_expr.c (types and expressions with Halide's type rules),
 * hl_parse_def.c (Func definitions: pure, update, constant-index, wrappers),
 * hl_parse_sched.c (schedule calls and the accelerator directives). */
#ifndef COMPILER_FRONT_HL_PARSE_H
#define COMPILER_FRONT_HL_PARSE_H

#include "../../common/strmap.h"
#include "front.h"
#include "hl_lex.h"

typedef enum { V_NONE, V_INT, V_EXPR, V_FUNC, V_IMAGE, V_RDOM, V_TYPE, V_STRING, V_STAGE, V_ENUM, V_DIM,
	       V_FLOAT, V_ARRAY, V_LVALUE } VKind;

/* A value as C++ sees it: a C++ integer, a typed Expr, or a name. */
typedef struct Val {
	VKind k;
	int64_t i;              /* V_INT */
	HExpr *e;               /* V_EXPR */
	int id;                 /* V_FUNC, V_IMAGE, V_RDOM; V_STAGE: the Func */
	int def;                /* V_STAGE: its definition; V_DIM: the dimension of image id */
	HType t;                /* V_TYPE */
	const char *s;          /* V_STRING; V_ENUM: "TailStrategy::RoundUp", "MemoryType::GLB" */
	int line, col;
	double f;               /* V_FLOAT: a C++ float (single) or double */
	int single;
	int cbool;              /* V_INT: a C++ bool (an Expr of it is a Bool constant) */
	/* V_INT: its C++ type after the integer promotions: int (neither),
	 * unsigned, long (c64) or unsigned long (both); i holds the value, the
	 * bits of an unsigned long */
	uint8_t cuns, c64;
	struct Name *ref;       /* V_ARRAY: a C++ array named without an index (passed to a function);
				 * else the variable the value was read from, if it is one (an lvalue) */
} Val;

/* What a declared name stands for. */
struct Name;
/* N_BROKEN: an Expr or int whose declaration failed (its error reported):
 * a use of it fails the statement silently instead of adding an unknown
 * name to every later line. */
/* N_RVAR: an RVar declared by name (RVar rxo;), a loop name for the splits of
 * reduction loops; its symbol is an RVar of no RDom. */
/* N_CPPFN: a C++ function the program defines (CppFn), its id in Parser.fns. */
typedef enum { N_VAR, N_FUNC, N_IMAGE, N_RDOM, N_EXPR, N_INT, N_BROKEN, N_FLOAT, N_ARRAY, N_RVAR,
	       N_CPPFN, N_STRING } NameKind;
typedef struct Name Name;
struct Name {
	NameKind k;
	int id;                 /* symbol, Func, image or RDom; N_FLOAT: 1 for a float, 0 for a double */
	HExpr *e;
	int64_t i;              /* N_INT; N_ARRAY: its size */
	double f;               /* N_FLOAT */
	Name *elems;            /* N_ARRAY: its elements (N_EXPR, N_INT, N_FLOAT or N_FUNC) */
	int set;                /* N_EXPR, N_INT, N_FLOAT: given a value */
	const char *s;          /* N_STRING: a std::string's text */
	int cnst;               /* declared const: never assigned again */
};

/* A name of an outer scope that an inner one declares again (C++'s
 * shadowing): its meaning there, given back when the inner scope ends. */
typedef struct Shadow {
	const char *key;
	intptr_t old;           /* its index in Parser.nm before */
	int scope;              /* the scope that shadowed it (Parser.scope_id) */
} Shadow;

/* An enclosing scope, given back when the inner one ends. */
typedef struct ScopeFrame {
	int mark, id;
	int redecl_mark, redecl_id;
} ScopeFrame;

/* A C++ function of the program (Expr mul(Expr a, Expr b) { return ...; }),
 * run by the parser at each call: its parameters and return value of the
 * kinds of Name (N_EXPR, N_FUNC, N_INT with its type code, N_FLOAT, N_VAR,
 * N_IMAGE, N_RDOM; the return N_BROKEN for void). */
#define HL_MAX_PARAMS 16
typedef struct CppFn {
	const char *name;
	NameKind ret;
	int ret_code;           /* N_INT: the type code; N_FLOAT: single */
	int nparams;
	NameKind param[HL_MAX_PARAMS];
	int param_code[HL_MAX_PARAMS];
	const char *param_name[HL_MAX_PARAMS];
	int param_ref[HL_MAX_PARAMS];   /* a reference (TYPE &name, not const): the caller's variable */
	int param_const[HL_MAX_PARAMS]; /* const: a value never assigned in the body */
	int body, body_len;     /* token of its '{', and the tokens of its body */
	int failed;             /* a call reported errors: later calls fail quietly */
	StrMap *visible;        /* the names visible at its definition, its own included */
} CppFn;

/* The first use of a Func in the definition of another: after it the Func
 * cannot be given another definition (Halide's rule). */
typedef struct FuncUse {
	int by;                 /* the Func whose definition calls it, -1 if none yet */
	int line, col;          /* the call */
} FuncUse;

typedef struct P {
	HProgram *p;
	Arena *a;
	Diags *d;
	const char *file;
	HTok *t;
	signed char *binop;     /* per token: the binary operator it is (hlp_index_binops), -1 */
	char *builtin;          /* per token: 0 not known yet, 1 a built-in function's name, 2 not */
	int ntoks;
	int pos;
	int failed;             /* the current statement has reported an error */
	int nesting;            /* of the expression being parsed (HL_MAX_NESTING) */
	int stmt_nesting;       /* of the statement being parsed or skipped (HL_MAX_STATEMENT_NESTING) */
	int abandoned;          /* nesting too deep: the rest of the file is not parsed */
	StrMap names;
	VEC(Name *) nm;         /* every Name declared, in the arena; names maps to indices here */
	VEC(FuncUse) used;      /* per Func */
	VEC(char) def_failed;   /* per Func: a definition of it reported an error */
	long loop_tokens;       /* tokens of for-loop bodies run so far (HL_MAX_LOOP_TOKENS) */
	long array_elems;       /* elements of the C++ arrays declared so far (HL_MAX_ARRAY_ELEMENTS) */
	int using_bc;           /* using namespace Halide::BoundaryConditions: its names unqualified */
	int using_std;          /* using namespace std: std::sqrt(float) and the like unqualified */
	int decl_const;         /* the statement being parsed declares const names */
	int scope;              /* the names of the innermost scope start here in names */
	int scope_id, scope_ids;        /* the innermost scope's id; ids given so far */
	int scopes;             /* open scopes (0 at file scope) */
	/* A name may not be declared again from names index redecl_mark on:
	 * the innermost scope's, or for the block of a for loop's body or of a
	 * function's, also the scope of the loop's init or of the parameters
	 * (C++ refuses `for (int i...) { int i; }`), whose shadows have
	 * redecl_id. join_mark, join_id: that scope, for the next block (-1 if
	 * none). */
	int redecl_mark, redecl_id;
	int join_mark, join_id;
	VEC(ScopeFrame) frames; /* the enclosing scopes */
	VEC(Shadow) shadows;
	const StrMap *outer;    /* in a C++ function's call: the names visible at its definition,
				 * looked up after names (its parameters and locals) */
	int fn;                 /* the function running, -1 */
	VEC(CppFn) fns;
	int calls;              /* C++ function calls running (HL_MAX_CALLS) */
	int returning;          /* a return statement ran: the call's statements stop */
	Val ret;                /* its value */
	VEC(HTok *) sched_undef;        /* per Func: its first schedule call while it had no
					 * definition (NULL if none): a warning if it never gets one */
} Parser;

/* The C++ a program runs when compiling is bounded: its for loops and
 * function calls run at most this many tokens of their bodies in all, and
 * calls nest at most HL_MAX_CALLS deep. */
#define HL_MAX_LOOP_TOKENS 1000000
/* What the statements a program runs may make: Funcs, elements of C++ arrays
 * (each run of a declaration in a loop counting again), and the characters
 * of a string. */
#define HL_MAX_FUNCS 4096
#define HL_MAX_ARRAY_ELEMENTS (1 << 20)
#define HL_MAX_STRING 4096
#define HL_MAX_CALLS 64

/* No value (after an error). */
extern const Val hlp_none;

/* ---- tokens and errors (hl_parse.c) ---- */

HTok *hlp_cur(Parser *P);
HTok *hlp_next(Parser *P);
/* The current token is s. */
int hlp_at(Parser *P, const char *s);
/* Takes the current token if it is s. */
int hlp_accept(Parser *P, const char *s);
/* An error at a position or a token (once per statement); returns hlp_none. */
Val hlp_err_at(Parser *P, int line, int col, const char *fmt, ...) __attribute__((format(printf, 4, 5)));
Val hlp_err_tok(Parser *P, const HTok *t, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* A token as an error message names it. */
const char *hlp_tok_desc(const HTok *t);
int hlp_expect(Parser *P, const char *s);
const char *hlp_expect_name(Parser *P);
/* Skips to the end of the statement (a ';' outside brackets). */
void hlp_sync(Parser *P);
/* After a statement that began at token start failed: out of the brackets
 * the error is in, then to the statement's end (hlp_sync_to), so the next
 * statement parses from its start. */
void hlp_recover(Parser *P, int start, int in_block);
/* The error for e, an operation on constants whose folding overflows
 * (he_fold_overflows), at t. */
Val hlp_fold_overflow(Parser *P, const HExpr *e, const HTok *t);
/* The same, or (in_block) to the '}' closing the block the statement is in,
 * which it leaves. */
void hlp_sync_to(Parser *P, int in_block);

/* ---- names and values (hl_parse.c) ---- */

Name *hlp_lookup(Parser *P, const char *s);
int hlp_declare(Parser *P, const HTok *t, Name n);
/* Declares t's name as another name of variable n (a reference parameter). */
int hlp_declare_alias(Parser *P, const HTok *t, Name *n);
/* 1 if s is a reserved word (a declaration cannot take it). */
int hlp_reserved(const char *s);
/* Declares t's name as one whose declaration failed (its error reported):
 * its uses fail quietly. */
void hlp_declare_broken(Parser *P, const HTok *t);
/* 1 if Func f has no definition because its definition failed (reported):
 * fails the statement without a second error. */
int hlp_failed_func(Parser *P, int f);
int hlp_new_sym(Parser *P, HSymKind k, const char *name, int line, int col);
const char *hlp_func_name(Parser *P, int f);
Val hlp_vint(int64_t i, const HTok *t);
/* A C++ string: a literal, or a std::string (std_string) as std::to_string
 * and + on strings make. */
Val hlp_vstring(const char *s, int std_string, int line, int col);
/* A C++ float (single) or double value, rounded to float when single. */
Val hlp_vfloat(double f, int single, int line, int col);
/* A C++ bool: an int 0 or 1 that converts to a Bool Expr. */
Val hlp_vbool(int b, const HTok *t);
Val hlp_vexpr(HExpr *e, int line, int col);
const char *hlp_val_desc(Parser *P, Val v);
/* The Expr a value converts to where Halide takes one: a C++ int becomes an
 * Int(32) constant, a float a Float(32) one; a double is an error (C++ finds
 * the conversion ambiguous). */
HExpr *hlp_to_expr(Parser *P, Val v);
/* Expr(v), the explicit constructor: a double is a Float(64) constant. */
HExpr *hlp_expr_ctor(Parser *P, Val v);
/* Halide's check_representable: a C++ int meeting an Expr of type t. */
HExpr *hlp_coerce_int(Parser *P, Val v, HType t);
/* C++ int arithmetic on two integers, in their common type (C++'s usual
 * arithmetic conversions: unsigned wraps, a signed overflow is an error). */
Val hlp_int_binop(Parser *P, HBinOp op, Val x, Val y, const HTok *t);
/* -v or ~v of a C++ integer (op '-' or '~'), in its type. */
Val hlp_int_unary(Parser *P, char op, Val v, const HTok *t);
/* A C++ integer as a double (an unsigned long read as unsigned). */
double hlp_int_double(Val v);
/* A binary operator on two values, with Halide's type rules. */
Val hlp_binop(Parser *P, HBinOp op, Val x, Val y, const HTok *t);

/* v, a true or false (a Bool constant: Halide's Expr of the C++ literal) as
 * a C++ int where C++ needs a bool (a bool variable, a condition). */
Val hlp_cpp_bool(Val v);
/* A C++ integer type's name at t (taken; unsigned takes an int after it):
 * 1 and its code (-1 for int, else is_signed * 256 + bits: long, int64_t
 * 256 + 64, size_t and uint64_t 64). */
int hlp_int_type_name(Parser *P, const HTok *t, int *code);
/* The type of a C++ integer variable from its code (-1: int). */
HType hlp_int_type(int code);
/* The value i as a C++ integer of type t: wrapped to t, then promoted (a
 * type narrower than int becomes int; a bool is a C++ bool). */
Val hlp_cpp_int(HType t, int64_t i, const HTok *what);
/* C++'s conversion of a C++ number v to type t ((int) 2.5, float(x),
 * uint8_t(300)): a C++ int or float again; what sets the error's place. */
Val hlp_cpp_convert(Parser *P, HType t, Val v, const HTok *what);
/* The element of array n (its name at t) that the tokens "[ index ]" next
 * name; NULL after an error. */
Name *hlp_array_elem(Parser *P, Name *n, const HTok *t);

/* ---- expressions (hl_parse_expr.c) ---- */

/* P->binop for the n tokens of P->t (in P's arena): which binary operator
 * each token is, looked up once rather than at every precedence level of
 * every operand; and P->builtin, filled as tokens are met. */
void hlp_index_binops(Parser *P, int n);

Val hlp_parse_expr(Parser *P);
Val hlp_parse_postfix(Parser *P);
/* '(' expr {',' expr} ')' into vals; returns the count or -1. */
int hlp_parse_args(Parser *P, Val *vals, int max);
/* Halide's check_call_arg_types: arguments become Int(32). */
HExpr *hlp_call_arg(Parser *P, Val v, const char *callee, int i);
/* The RDoms e reads (at most 8), each once, into rdoms[*n...]. */
void hlp_collect_rdoms(Parser *P, const HExpr *e, int *rdoms, int *n);

/* ---- Funcs (hl_parse_def.c) ---- */

int hlp_new_func(Parser *P, const char *name, int line, int col);
/* f(args) = / += ... : a definition of Func f whose name is token ft. */
void hlp_definition(Parser *P, int f, const HTok *ft);
/* sum(r, e, f) and the like: Halide's inline reduction into Func f, named
 * by the program and so schedulable: f(v...) = the identity of op;
 * f(v...) = f(v...) op e, v the pure Vars of e; the value is f(v...). */
Val hlp_named_reduction(Parser *P, int f, HBinOp op, HExpr *e, int rdom, const HTok *t);
/* f.in() / f.in(g): the wrapper Func of a Func or image (one per caller). */
Val hlp_wrapper_of(Parser *P, Val v, const HTok *t, int for_func);

/* ---- schedules and directives (hl_parse_sched.c) ---- */

/* A chain of schedule calls on v: f.bound(...).tile(...)...; */
/* The loop level of compute_at(f, Var::outermost()) until it is known:
 * hlp_resolve_outermost makes it the outermost loop of f's stage 0. */
#define HL_OUTERMOST (-2)
void hlp_resolve_outermost(Parser *P);
/* Warns of Funcs scheduled and never defined (their calls ignored, as
 * Halide ignores them). */
void hlp_warn_undefined_schedules(Parser *P);
void hlp_schedule_chain(Parser *P, Val v);
/* image.dim(k).set_bounds(...) and the like, on the dimension value v. */
/* The k of an ImageParam's `dim(k)` (m the `dim` token, the arguments next):
 * 0 to its dimensions - 1; -1 after an error. */
int hlp_dim_arg(Parser *P, Val v, const HTok *m);
Val hlp_dim_method(Parser *P, Val v, const HTok *m);
/* image.width(), .height(), .channels(), .dim(k) and dim(k).min(), .extent(),
 * .max() in an expression (the size set by set_bounds); at the '.'. */
Val hlp_image_member(Parser *P, Val v);
/* BoundaryConditions::NAME(...): the Func it makes; t the name's token. */
Val hlp_boundary(Parser *P, const char *name, const HTok *t);
/* hw_accelerate(...), stream_to_accelerator(...) */
void hlp_directive(Parser *P, const HTok *t);
int hlp_int_arg(Parser *P, Val v, const char *what, int64_t lo, int64_t *out);
int hlp_dim_index(const HStageSched *s, int sym);

/* ---- C++ statements run when compiling (hl_parse.c, hl_parse_cpp.c) ---- */

void hlp_statement(Parser *P);
/* Enters one more statement level (the caller leaves it: P->stmt_nesting--,
 * whatever happens); 0 beyond HL_MAX_STATEMENT_NESTING, after an error that
 * abandons the rest of the file (P->abandoned, P at its end). */
int hlp_enter_statement(Parser *P);
/* A scope of names opens (a block, a loop, a branch) and closes: its names
 * go when it closes, and the names of outer scopes it declared again mean
 * what they meant before. */
void hlp_scope_begin(Parser *P);
void hlp_scope_end(Parser *P);
void hlp_skip_statement(Parser *P);
void hlp_block(Parser *P);                      /* after '{' */
/* The same, names from join_mark on (and the shadows of scope join_id) not
 * declared again in it: a for loop's init, a function's parameters. */
void hlp_block_joined(Parser *P, int join_mark, int join_id);
void hlp_for(Parser *P, const HTok *t);         /* after 'for' */
void hlp_if(Parser *P);                         /* after 'if' */
/* At a type word t (the current token its function's name): 1 if a C++
 * function definition follows (NAME '(' ... ')' '{'). */
int hlp_function_ahead(Parser *P);
/* TYPE NAME(PARAMS) { BODY }: a C++ function, after its return type t. */
void hlp_function_def(Parser *P, const HTok *t);
/* A call of C++ function fn, at its '(': the value it returns. */
Val hlp_call_function(Parser *P, int fn, const HTok *t);
/* return [value]; after 'return'. */
void hlp_return(Parser *P, const HTok *t);
/* name = value; name += value; ++name; name[i] = value ... up to end (";" or
 * ")", which it takes when ";"). */
void hlp_assignment(Parser *P, const char *end);
/* The value of an Expr, int or float variable; an error if it has none yet. */
Val hlp_variable(Parser *P, Name *n, const HTok *t);
/* After "TYPE name[": the array's size, initializer and declaration. */
int hlp_array_decl(Parser *P, const HTok *t, NameKind kind, int single);

/* ---- the accelerator's boundary (hl_parse_accel.c) ---- */

/* Host stages after the accelerator's output, reading it point by point,
 * brought into the accelerator (the program's output becomes the pipeline's);
 * 0 after an error. */
int hlp_host_output(Parser *P);
/* "x, y": the pure variables of Func f. */
const char *hlp_func_vars(Parser *P, int f);
const char *hlp_stage_loops(Parser *P, const HStageSched *s);

#endif
