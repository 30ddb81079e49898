/* front.h - the compiler's front end, the one header other folders include:
 *   - the application language (docs/applications.md) as the compiler holds
 *     it after parsing (hl_parse*.c, hl_expr.c): Halide's types, typed
 *     expressions, Funcs with their pure and update definitions, reduction
 *     domains, image parameters and the schedule. Everything lives in the
 *     program's arena and refers to everything else by integer id (symbols,
 *     Funcs, images, RDoms), so later phases can copy and rewrite
 *     expressions freely;
 *   - interval analysis (hl_range.c), substitution and simplification
 *     (hl_simplify.c), bounds inference (hl_bounds.c);
 *   - the reference interpreter (hl_interp.c) and the input generator
 *     (app_input.c).
 *
 * Types follow Halide: Bool is UInt(1); a C++ integer literal has no Halide
 * type until it meets an Expr (then it takes that Expr's type) or becomes an
 * Expr on its own (Int(32)). */
#ifndef COMPILER_FRONT_H
#define COMPILER_FRONT_H

#include <stdint.h>
#include <stdlib.h>

#include "../../common/arena.h"
#include "../../common/diag.h"
#include "../../common/image.h"
#include "../../common/vec.h"

/* ---- types ---- */

typedef struct HType {
	uint8_t is_signed;      /* 1: Int(bits), 0: UInt(bits) (UInt(1) is Bool), 2: Float(bits) */
	uint8_t bits;           /* 1, 8, 16 or 32; a float 32 or 64 */
} HType;

#define HT_BOOL ((HType){ 0, 1 })
#define HT_U16 ((HType){ 0, 16 })
#define HT_I16 ((HType){ 1, 16 })
#define HT_U32 ((HType){ 0, 32 })
#define HT_I32 ((HType){ 1, 32 })
#define HT_F32 ((HType){ 2, 32 })
#define HT_F64 ((HType){ 2, 64 })

int ht_eq(HType a, HType b);
int ht_is_bool(HType t);
/* Floating point is folded at compile time only: a value of a float type is
 * held as the bits of a double (rounded to float for Float(32)). */
int ht_is_float(HType t);
double hv_float(int64_t bits);
int64_t hv_bits(HType t, double v);
/* v of type from as a value of type to, as Halide converts (float to integer
 * rounds towards zero, integer to float rounds to nearest). */
int64_t hv_cast(HType to, HType from, int64_t v);
/* "uint16", "int32", "bool": the spelling of Halide's printer. */
const char *ht_name(HType t);
/* Smallest and largest value of the type. */
int64_t ht_min(HType t);
int64_t ht_max(HType t);
/* v reduced to the type: wrapped to its bits, sign-extended if signed. */
int64_t ht_wrap(HType t, int64_t v);
/* The W-bit word an image sample of type t enters the array as: the sample's
 * value in t (a uint8 image's sample 300 is 44, an int8 image's 200 is -56),
 * in W bits (two's complement). Every model of the array (the lowered kernels,
 * the buffer simulator, the Verilator harness) streams inputs this way. */
uint64_t ht_stream_word(HType t, uint16_t sample, int W);
/* The width of an image file's samples holding values of t: 8 for 8-bit
 * types (and Bool), else 16 (common/image.h). */
int ht_sample_bits(HType t);

/* ---- expressions ---- */

typedef enum {
	HE_CONST,               /* value */
	HE_VAR,                 /* sym: a pure Var, an RVar or a loop variable */
	HE_CALL,                /* callee (a Func, or an image when is_image) (args) */
	HE_CAST,                /* (type) a */
	HE_UN,                  /* op a */
	HE_BIN,                 /* a op b */
	HE_SELECT,              /* a ? b : c */
	HE_SUM,                 /* an inline reduction of a over RDom rdom: op HB_ADD sum(),
				 * HB_MUL product(), HB_MAX maximum(), HB_MIN minimum() */
	HE_MATH,                /* op (HMathOp) of a (and b) of a float type: exp(a), pow(a, b), ... */
} HExprKind;

typedef enum { HU_NEG, HU_NOT, HU_LNOT, HU_ABS } HUnOp;

typedef enum { HM_EXP, HM_LOG, HM_SQRT, HM_POW, HM_FLOOR, HM_CEIL, HM_ROUND, HM_TRUNC, HM_SIN, HM_COS,
	       HM_COUNT } HMathOp;

typedef enum {
	HB_ADD, HB_SUB, HB_MUL, HB_DIV, HB_MOD, HB_SHL, HB_SHR, HB_AND, HB_OR, HB_XOR,
	HB_LAND, HB_LOR, HB_EQ, HB_NE, HB_LT, HB_LE, HB_GT, HB_GE, HB_MIN, HB_MAX, HB_ABSD,
	HB_COUNT
} HBinOp;

typedef struct HExpr HExpr;
struct HExpr {
	HExprKind kind;
	HType type;
	int op;                 /* HUnOp or HBinOp */
	int64_t value;          /* HE_CONST, already wrapped to type */
	int sym;                /* HE_VAR */
	int callee;             /* HE_CALL */
	int is_image;           /* HE_CALL: callee is an image */
	int rdom;               /* HE_SUM */
	HExpr *a, *b, *c;
	HExpr **args;           /* HE_CALL */
	int nargs;
	int line, col;          /* where it was written (0 if made by the compiler) */
	int depth;              /* of the tree: 1 for a leaf (set by the constructors) */
	int size;               /* nodes of the tree, shared subtrees counted each time they appear
				 * (set by the constructors; at most INT_MAX) */
};

/* Limits that keep every recursive pass within its stack, whatever the
 * input: the parser refuses expressions nested (parentheses, unary
 * operators, calls, casts, select) deeper than HL_MAX_NESTING levels, and
 * expression trees (chains of operators, Exprs built from Exprs) deeper
 * than HL_MAX_DEPTH; the lowering refuses a definition deeper than
 * HL_MAX_DEPTH once its inlined Funcs are substituted and its unrolled
 * reductions expanded; a stage is split at most HL_MAX_SPLITS times. An
 * expression tree, counted with its shared parts as often as they appear
 * (an Expr used twice, a Func inlined twice), holds at most HL_MAX_SIZE
 * operations, in the parser and after inlining, so that no pass over it
 * takes exponential time. */
#define HL_MAX_NESTING 200
/* Statements (blocks, for and if bodies) nest at most this deep. */
#define HL_MAX_STATEMENT_NESTING 200
#define HL_MAX_DEPTH 1000
#define HL_MAX_SIZE 100000
#define HL_MAX_SPLITS 16
/* A Func's region, and an input image, hold at most this many points: what
 * the interpreter, a constant table and an image file are allocated for. */
#define HL_MAX_POINTS (1 << 24)
/* Computing every Func's region evaluates definitions at most this many
 * times (each region's points times its definitions' reduction domains): the
 * interpreter's work is bounded. */
#define HL_MAX_WORK (1LL << 32)

const char *hb_name(HBinOp op);         /* "+", "min", ... */
int hb_is_compare(HBinOp op);

/* ---- symbols ---- */

typedef enum { SYM_VAR, SYM_RVAR, SYM_LOOP } HSymKind;

typedef struct HSym {
	HSymKind kind;
	const char *name;
	int rdom, dim;          /* SYM_RVAR; a SYM_LOOP over an RVar: that RVar's (else -1) */
	int line, col;
} HSym;

typedef struct HRDom {
	const char *name;
	int ndims;
	int64_t min[4], extent[4];
	int sym[4];             /* its RVars r.x, r.y, r.z, r.w */
	int line, col;
} HRDom;

typedef struct Interval {
	int64_t lo, hi;         /* inclusive; lo > hi: empty */
} Interval;

typedef struct HImage {
	const char *name;
	HType type;
	int dims;
	int streamed;           /* stream_to_accelerator */
	int line, col;
	/* In the accelerator's view (hl_accel_view), a streamed Func's values as
	 * an input: the Func (-1 for an ImageParam) and the first point of its
	 * region (image pixel 0 holds the Func's value there). */
	int host_func;
	int64_t origin[4];
	/* input.dim(i).set_bounds(0, extent): the image's size, which Halide
	 * checks when the pipeline runs; 0 where not set. */
	int64_t extent[4];
	/* The values it holds: its type's range, or narrower (a streamed
	 * Func's by its definition, an index stream's as computed). */
	Interval values;
} HImage;

/* ---- Funcs and their schedules ---- */

/* A loop level: inlined, root, or the loop of variable `var` in stage 0 of
 * Func `func`. */
typedef enum { LEVEL_INLINE, LEVEL_ROOT, LEVEL_AT } HLevelKind;
typedef struct HLevel {
	HLevelKind kind;
	int func, var;
	int line, col;
} HLevel;

typedef struct HSplit {
	int old, outer, inner;  /* symbols */
	int64_t factor;
	const char *tail;       /* the TailStrategy given ("RoundUp", ...), NULL if none */
	int line, col;          /* the schedule call */
} HSplit;

/* The loops of one stage, innermost first, as the schedule leaves them. */
typedef struct HStageSched {
	VEC(int) dims;          /* symbols */
	VEC(char) unrolled;     /* per dim */
	VEC(HSplit) splits;     /* in the order written */
	int unroll_line, unroll_col;    /* the last unroll call, 0 if none */
} HStageSched;

typedef struct HDef {
	HExpr **lhs;            /* the arguments written on the left */
	int nlhs;
	HExpr *value;           /* for `f(..) op= e` already `f(..) op e` */
	int update;             /* 0 for the pure definition */
	int line, col;
	HStageSched sched;
} HDef;

typedef struct HBound {
	int var;
	int64_t min, extent;
	int line, col;
} HBound;

typedef struct HFunc {
	const char *name;
	int line, col;          /* where declared */
	int defined;            /* has a pure definition */
	int dims;
	int *vars;              /* its pure variables (symbols), from the pure definition */
	HType type;
	VEC(HDef) defs;
	HLevel compute, store;
	VEC(HBound) bounds;
	int wrapper_of;         /* f.in(): the Func (>= 0) or image (-2 - id) it wraps; -1 */
	int wrapper_for;        /* f.in(g): calls from g only; -1 for every caller */
	int streamed;           /* stream_to_accelerator() / accelerator_input(): computed by the
				 * host, its values streamed into the accelerator */
	int stream_line, stream_col;
	/* Hints of Halide-to-Hardware's schedule the compiler accepts and records
	 * (docs/applications.md, "Hardware hints"): */
	int64_t fifo_depth;     /* fifo_depth(n), 0 if none */
	int linebuffer;         /* linebuffer() */
	const char *memory;     /* store_in(MemoryType::X): "GLB", "Register", ...; NULL if none */
	/* Set by lowering's preparation (lower.h): a reduction kept in time, its
	 * pure definition folded into the update (the initial value selected at
	 * the reduction's first point), so that no store of its own is emitted. */
	int init_in_update;
} HFunc;

typedef struct HProgram {
	Arena *arena;
	const char *file;
	VEC(HSym) syms;
	VEC(HRDom) rdoms;
	VEC(HImage) images;
	VEC(HFunc) funcs;
	int output;             /* the program's output: the Func given to hw_accelerate, or the
				 * host stage after it that took over its schedule (hl_parse_accel.c) */
	int accel_func;         /* that Func given to hw_accelerate when it is not the output; -1 */
	int accel_inner, accel_outer;   /* symbols, -1 for hw_accelerate(f) */
	int accel_line, accel_col;
} HProgram;

/* ---- building expressions (hl_expr.c) ---- */

HExpr *he_const(Arena *a, HType t, int64_t v);
HExpr *he_var(Arena *a, int sym);
HExpr *he_cast(Arena *a, HType t, HExpr *e);
HExpr *he_un(Arena *a, HUnOp op, HType t, HExpr *e);
/* op on operands of the right types already (no matching). */
HExpr *he_bin(Arena *a, HBinOp op, HType t, HExpr *x, HExpr *y);
HExpr *he_select(Arena *a, HExpr *c, HExpr *t, HExpr *f);
HExpr *he_call(Arena *a, int callee, int is_image, HType t, HExpr **args, int nargs);
/* A shallow copy (same children). */
HExpr *he_copy(Arena *a, const HExpr *e);
/* Sets e->depth and e->size from its children's, after they were replaced (a copy). */
void he_set_depth(HExpr *e);
/* The result type of op on operands of type t (comparisons give Bool, absd
 * and abs of signed types the unsigned type). */
HType hb_result_type(HBinOp op, HType t);
/* x op y after Halide's match_types. */
HExpr *he_binop_matched(Arena *a, HBinOp op, HExpr *x, HExpr *y);
/* 1 if e is HE_CONST, with *v its value. */
int he_is_const(const HExpr *e, int64_t *v);
/* Structural equality. */
int he_equal(const HExpr *x, const HExpr *y);
/* 1 if e is an operation on constants whose folding overflows a signed
 * 32- or 64-bit type (Halide refuses it: such overflow is undefined; 8- and
 * 16-bit values wrap). */
int he_fold_overflows(const HExpr *e);
/* Constant folding of one node whose children are folded: returns a constant
 * node or e. */
HExpr *he_fold(Arena *a, HExpr *e);
/* Evaluates op on constants of type t, Halide's semantics (wrapping, floor
 * division, Euclidean modulo, division by zero gives zero). */
int64_t hb_eval(HBinOp op, HType t, int64_t x, int64_t y);
int64_t hu_eval(HUnOp op, HType rt, int64_t x);
/* A math function of Halide's on float values of type t (glibc's float or
 * double functions, as Halide's JIT calls them). */
int64_t hm_eval(HMathOp op, HType t, int64_t x, int64_t y);
const char *hm_name(HMathOp op);
HExpr *he_math(Arena *a, HMathOp op, HExpr *x, HExpr *y);

/* 1 if e calls anything (a Func or an image); he_calls: Func f. */
int he_calls_any(const HExpr *e);
int he_calls(const HExpr *e, int f);
/* The points of an RDom in Halide's order (r.x fastest): hrdom_first sets
 * pt to the first; hrdom_next steps it, 0 after the last. */
void hrdom_first(const HRDom *r, int64_t *pt);
int hrdom_next(const HRDom *r, int64_t *pt);

/* The RDom whose variables definition d uses outside any sum(), or -1. */
int he_def_rdom(const HProgram *p, const HDef *d);
/* The same for an expression. */
int he_expr_rdom(const HProgram *p, const HExpr *e);

/* Prints e in the syntax of the application language (a program is needed
 * for names). */
void he_print(const HProgram *p, const HExpr *e, StrBuf *out);
__give char *he_str(const HProgram *p, const HExpr *e);

/* ---- parsing (hl_parse.c) ---- */

/* Parses and checks an application; NULL with errors in d. */
__give HProgram *hl_parse(const char *file, const char *text, __keep Diags *d);
void hl_free(__take HProgram *p);

const char *hl_sym_name(const HProgram *p, int sym);
/* A new Func named name, inlined and undefined; its id. */
int hl_new_func(HProgram *p, const char *name, int line, int col);
/* Defines Func f (from hl_new_func) over dims new pure variables
 * (<name>.v0, ...): f(v0, ...) = body(v0, ...), body made by the caller from
 * the variables (their symbols in f's vars, set here before body is asked
 * for: call hl_pure_vars, build the body, then hl_define_pure). */
void hl_pure_vars(HProgram *p, int f, HType type, int dims);
void hl_define_pure(HProgram *p, int f, HExpr *body);

/* ---- interval analysis (hl_range.c) ----
 * The values an expression can take given intervals for its variables, under
 * Halide's semantics (a result that may wrap around its type gives the type's
 * whole range): for bounds inference, the size of look-up tables, and to
 * prove that wide intermediates fit the hardware word. */


#define RANGE_NARROW_MAX 8

typedef struct RangeCtx {
	const HProgram *p;
	Interval *var;          /* per symbol; NULL entries are unknown (the type's range) */
	char *known;            /* per symbol */
	Interval *func;         /* per Func: its value range, computed on demand */
	char *func_state;       /* 0 not computed, 1 in progress, 2 done */
	/* Inside a branch of a select, what its condition says of one operand
	 * (select(t < 16, t, 31 - t): t is below 16 in the first branch). */
	const HExpr *narrow_e[RANGE_NARROW_MAX];
	Interval narrow_iv[RANGE_NARROW_MAX];
	int nnarrow;
} RangeCtx;

void range_init(RangeCtx *c, const HProgram *p);
void range_free(RangeCtx *c);
void range_set(RangeCtx *c, int sym, Interval iv);
void range_unset(RangeCtx *c, int sym);
Interval range_of(RangeCtx *c, const HExpr *e);
/* The values a Func can hold (its definitions over any arguments). */
Interval range_func(RangeCtx *c, int f);
Interval iv_type(HType t);
Interval iv_union(Interval a, Interval b);

/* ---- substitution and simplification (hl_simplify.c) ----
 * Substitution of variables (and, through a hook, of calls) in expressions, a
 * small simplifier, and balanced sums. */

typedef struct HSubst HSubst;
struct HSubst {
	const int *sym;         /* variables replaced ... */
	HExpr **val;            /* ... by these, simultaneously */
	int n;
	/* Optional: called on every call node (children not yet substituted);
	 * returns its replacement, or NULL to substitute inside it as usual. */
	HExpr *(*call_fn)(Arena *a, const HExpr *call, const HSubst *s);
	void *ctx;
};

HExpr *hs_simplify(Arena *a, HExpr *e);
HExpr *hs_subst(Arena *a, const HExpr *e, const HSubst *s);
HExpr *hs_subst1(Arena *a, const HExpr *e, int sym, HExpr *val);
/* The sum of v[0..n) (add chains in them flattened), constants combined, as
 * a balanced tree of additions of type t. */
HExpr *hs_balance_sum(Arena *a, HType t, HExpr **v, int n);
/* v[0] op v[1] op ... as a balanced tree (op associative: mul, min, max). */
HExpr *hs_balance(Arena *a, HBinOp op, HType t, HExpr **v, int n);
/* The value an inline reduction with op starts from (0, 1, the type's
 * smallest or largest value). */
int64_t he_reduce_init(HBinOp op, HType t);

/* ---- bounds inference (hl_bounds.c) ---- */

typedef struct HRegions {
	int nfuncs, nimages;
	Interval (*func)[4];    /* per Func and dimension; lo > hi when unused */
	Interval (*image)[4];
	char *func_used, *image_used;
	int *order;             /* the Funcs the output needs, producers first */
	int norder;
} HRegions;

/* The accelerator's view of a program: every streamed Func (stream_to_
 * accelerator, accelerator_input) the accelerator reads becomes an input
 * image of the same name, type and dimensions holding the Func's values over
 * its region (computed by the host: hli_run_streams), and the accelerator's
 * calls of the Func read that image; the Funcs only the host computes are
 * then no longer called. No change without streamed Funcs. 0 with errors in
 * d. The interpreter runs the program itself; the lowering runs this view. */
int hl_accel_view(HProgram *p, __keep Diags *d);
/* Reads of an ImageParam at clamped indices (input(clamp(x - 1, 0, 63), y),
 * constant bounds) read instead a streamed Func the host computes, the input
 * with those clamps, at the index inside the clamp (hl_parse does it: the
 * values are the same, and the accelerator's address generators see an
 * affine index). */
void hl_pad_clamped_reads(HProgram *p);

/* Bounds inference; 0 with errors in d (a region that cannot be bounded, an
 * image read at a negative coordinate). */
int hl_bounds(const HProgram *p, HRegions *r, __keep Diags *d);
void hl_bounds_free(HRegions *r);
/* The extent of pure dimension dim of fn, extent, grown by Halide's
 * TailStrategy::RoundUp of its splits to a multiple of their factors. */
int64_t hl_rounded_extent(const HFunc *fn, int dim, int64_t extent);
/* The extension (image_ext) of the file of an image over a region of dims
 * intervals: from 0 to the region's end (an input, whose pixel 0 is at 0),
 * or over the region itself (an output). */
const char *hl_region_ext(int dims, const Interval *region, int from_zero);

/* ---- the reference interpreter (hl_interp.c) ----
 * Runs an application with Halide's semantics, ignoring its schedule (which
 * cannot change the values): the golden output everything later is checked
 * against. */

/* A realized Func: its values over a box. */
typedef struct HTable {
	int dims;
	int64_t min[4], extent[4];
	int64_t *v;             /* NULL when not realized */
} HTable;

/* The value at idx, or NULL outside the box. */
int64_t *htable_at(const HTable *t, const int64_t *idx);

/* Checks input images (one per image, in declaration order; those the
 * program does not read are skipped) against the regions r (hl_bounds)
 * the program reads, for the interpreter, the lowered kernels and the
 * buffer simulation alike: each must cover its region from 0 in every
 * dimension; missing or extra dimensions of extent 1 are accepted and the
 * image reshaped to its ImageParam's (a PGM, always 2-D, for a 1-D image).
 * Errors name files[m], image m's file ("in.ppm: error: ..."), or with files
 * NULL stand at the ImageParam in the program. 0 with errors in d. */
int hli_check_inputs(const HProgram *p, const HRegions *r, Image *inputs, const char *const *files,
		     __keep Diags *d);

/* Runs the program on inputs (one per image, in declaration order; unused
 * images may be empty; checked by hli_check_inputs) and fills out (the
 * output over its bounds, as 16-bit values); 0 with errors in d. */
int hli_run(const HProgram *p, const Image *inputs, Image *out, __keep Diags *d);
/* hli_run, and the values of every streamed Func the output needs (what the
 * host streams into the accelerator, hl_accel_view) into streams[0], ...
 * (room for one per Func; *nstreams set), in the order of the Funcs, each
 * over its region: the inputs the accelerator's view reads after p's images.
 * Image k may be left allocated after a failure (free them all). */
int hli_run_streams(const HProgram *p, const Image *inputs, Image *out, Image *streams, int *nstreams,
		    __keep Diags *d);

/* Realizes, over their regions, the Funcs with is_const set that the output
 * needs (they may call only each other); tables has one entry per Func. */
void hli_const_tables(const HProgram *p, const HRegions *r, const char *is_const, HTable *tables);
/* The value of e, which reads only Funcs realized in tables (one entry per
 * Func), no image, with env holding a value per symbol; a read outside a
 * table's region sets *outside and counts as 0. */
int64_t hli_eval(const HProgram *p, const HTable *tables, int64_t *env, const HExpr *e, int *outside);

/* ---- the input generator (app_input.c) ----
 * The deterministic input of an application, set by the optional
 * apps/<app>/input.yaml beside its .hl file:
 *     input: { pattern: random | blocks, range: [LO, HI], seed: S }
 * `random` draws every pixel uniformly in [LO, HI]; `blocks` draws a smooth
 * gradient with random rectangles of flat values on it and a little noise,
 * so that edges and corners exist. Without the file: random, [0, 255], 1. */

typedef enum { PATTERN_RANDOM, PATTERN_BLOCKS } InputPattern;

typedef struct InputSpec {
	InputPattern pattern;
	int lo, hi;
	uint64_t seed;
} InputSpec;

/* Reads path into s (defaults when the file does not exist); 0 with errors
 * in d. */
int input_spec_load(const char *path, InputSpec *s, __keep Diags *d);
/* Fills im (dims and extents set, px allocated here) for input number k. */
void input_generate(const InputSpec *s, int k, Image *im);

#endif
