/* lower.h - lowering, the one header other folders include: the program
 * prepared (constant tables, inlining, reduction fusion: hl_prep.c), lowered
 * by its schedule to a loop nest (hl_lower.c), its statements turned into
 * compute kernels of the PE's IR operations on hardware words (hl_dfg.c),
 * and the loop nest run with those kernels (hl_exec.c). */
#ifndef COMPILER_LOWER_H
#define COMPILER_LOWER_H

#include <stdint.h>
#include <stdio.h>

#include "../../collateral/coll.h"
#include "../../common/image.h"
#include "../front/front.h"

/* ---- preparation (hl_prep.c) ----
 * The memory optimizations of the scheduling step (AHA 5.1,
 * Unified Buffer 4.1) applied to a parsed program before it is lowered:
 *   - constant Funcs (reading no image) are evaluated at compile time; a read
 *     at constant indices becomes an immediate (stencil taps), a read at a
 *     computed index stays a read of a ROM (a look-up table);
 *   - Funcs without a compute level are inlined into their consumers;
 *   - reductions are fused into one update: sum() always, an update whose
 *     reduction domain is unrolled (or whose Func is inlined) into the pure
 *     definition, additions as a balanced tree;
 *   - every other Func (compute_root / compute_at, and the output) is stored
 *     and keeps its definitions, rewritten to read only stored Funcs,
 *     streamed images and ROMs;
 *   - a value of the loop variables alone that a stored Func computes with
 *     (select(x % 2 == 0, ...), a table read at a loop variable, u16(x)) is
 *     read from an index stream instead (hl_index.c). */

/* An index stream: the values of an expression of loop variables (and
 * constant tables) over the box of its variables, computed by the compiler
 * and streamed into the array like an input image (the file beside the
 * bitstream, <app>.<image>.<ext>), in the narrowest type that holds them. */
typedef struct HIndexStream {
	int image;              /* the HImage the kernels read */
	int func;               /* the stored Func that reads it */
	const HExpr *expr;      /* the expression it stands for, in the Func's variables */
	Image values;           /* over the box, from 0 */
} HIndexStream;

typedef struct HPrep {
	HProgram *p;
	HRegions reg;
	char *is_const;         /* per Func: reads no image */
	char *stored;           /* per Func: realized in a buffer */
	char *rom;              /* per Func: a constant table read at a computed index */
	HTable *tables;         /* per Func: values of the constant ones */
	VEC(HIndexStream) index;        /* appended to the program's images */
	HExpr **inlined;        /* per Func: its single (fused) definition, when inlined */
	char *inline_state;
	Diags *d;
	int failed;             /* an error was reported: every flattening stops */
	int nesting;            /* of the flattening's recursion */
	int at_func, at_def;    /* the stored Func and definition being flattened */
} HPrep;

/* Rewrites p's stored Funcs in place; 0 with errors in d (a reduction that
 * cannot be fused into an inlined Func, a definition deeper than
 * HL_MAX_DEPTH once inlined and unrolled, ...). */
int hp_prepare(HPrep *P, HProgram *p, __keep Diags *d);
void hp_free(HPrep *P);
/* Replaces, in the stored Funcs' definitions, every largest expression of
 * loop variables that kernels would compute with by a read of an index
 * stream (a new streamed image). Loop variables that lowering makes
 * constants (unrolled loops, loops of one iteration) do not count; an
 * expression whose values do not fit 16 bits, with more than 4 variables or
 * 2^20 points, or beyond 16 images in all, is left as it is (and refused
 * later). */
void hp_index_streams(HPrep *P);
/* Image m's values: an index stream's (computed), else inputs[m]. */
const Image *hp_image(const HPrep *P, const Image *inputs, int m);
/* Folds reads of constant tables at constant indices in e. */
HExpr *hp_fold_tables(HPrep *P, HExpr *e);

/* An affine form of variables: c + sum k[i] * sym[i], no term 0 (hl_lower.c). */
#define L_AFF_MAX 16
typedef struct LAff {
	int64_t c;
	int n;
	int sym[L_AFF_MAX];
	int64_t k[L_AFF_MAX];
} LAff;

/* a += scale * b; 0 if it has too many terms. */
int laff_add(LAff *a, const LAff *b, int64_t scale);
/* e as an affine form (sums, differences, negations and products by
 * constants of variables and constants); 0 if it is not one. */
int laff_of(const HExpr *e, LAff *out);

/* ---- the loop nest (hl_lower.c) ----
 * The loop nest of an application lowered by its schedule, like
 * Halide's lowered statement: bounds inference from the output's bound()s,
 * split/tile/reorder/unroll, compute_at/compute_root placement, the
 * accelerator block of hw_accelerate and the input streams of
 * stream_to_accelerator. Statements read stored Funcs, streamed images and
 * ROMs (look-up tables) at indices in the loop variables. */

typedef enum { LS_BLOCK, LS_LOOP, LS_PRODUCE, LS_STORE, LS_STREAM, LS_ACCEL } LKind;

typedef struct LStmt LStmt;
struct LStmt {
	LKind kind;
	int func, def;          /* PRODUCE, STORE: the Func and definition; STREAM: the image */
	int sym;                /* LOOP: its variable (a SYM_LOOP symbol) */
	HExpr *min;             /* LOOP: int32, in enclosing loop variables */
	int64_t extent;         /* LOOP */
	HExpr **index;          /* STORE, STREAM: where it writes */
	int nindex;
	HExpr *value;           /* STORE */
	int output;             /* STORE: a value of the accelerator's output (streamed out) */
	int line, col;          /* STORE: the definition */
	VEC(LStmt *) body;
};

/* The region a stored Func or streamed image holds: per iteration of the
 * loop it is computed at (its minimum there with every loop at its start),
 * the box of every value it ever holds, and the box of the values one run
 * of the accelerator holds (the first run: the host's loops around the
 * accelerator at their start; the box itself without them). */
typedef struct LRegion {
	int dims;
	int64_t min[4], extent[4];
	int64_t box_min[4], box_extent[4];
	int64_t run_min[4], run_extent[4];
	HExpr *min_at[4];       /* a stored Func's minimum per iteration, in the variables of
				 * the loops around the loop it is computed at (NULL: images) */
} LRegion;

/* Loops of the host around the accelerator: each iteration of them is one
 * run of the accelerator, on a region that moves with them. */
#define L_MAX_HOST 4

typedef struct LProgram {
	HProgram *p;
	HPrep prep;
	LStmt *root;
	LStmt *accel;           /* the hardware's part of root */
	int nhost;              /* root's loops around accel of more than one iteration, */
	const LStmt *host[L_MAX_HOST];  /* outermost first (their minimums constants) */
	LRegion *funcs;         /* per Func (stored ones) */
	LRegion *images;        /* per image (streamed ones) */
	Arena *arena;           /* the statements */
} LProgram;

/* Lowers p (prepared in place by hp_prepare); 0 with errors in d. */
int hl_lower(LProgram *L, HProgram *p, __keep Diags *d);
void hl_lower_free(LProgram *L);
/* Prints the loop nest and the tables. */
void hl_lower_print(const LProgram *L, FILE *f);

/* ---- compute kernels (hl_dfg.c) ----
 * Compute kernels: each statement of the accelerator's loop nest
 * as a graph (a DAG, common subexpressions shared) of the IR operations of
 * peak/ir/ on hardware words. Leaves are loads from buffers and streams,
 * ROM reads (look-up tables) and constants; the root is the store.
 *
 * Halide computes in the types the program says; the hardware word is W bits
 * (from the PE collateral). Wider intermediates are lowered only where that
 * is exact: an operation whose low W bits depend only on its operands' low W
 * bits (+, -, *, <<, &, |, ^) when only the low bits are needed, an
 * expression whose value range fits a W-bit type, and (a * b) >> 8 or >> 16
 * of W-bit operands, the mulmid and mulhi operations. */

typedef enum { DN_OP, DN_CONST, DN_LOAD, DN_ROM } DNodeKind;

typedef struct DNode {
	DNodeKind kind;
	const char *op;         /* the IR operation ("const", "const1" for constants) */
	int in[3], nin;
	int width;              /* W or 1 */
	int64_t value;          /* DN_CONST */
	int buffer;             /* DN_LOAD: a Func, or an image as -2 - id; DN_ROM: the table's Func */
	int is_image;
	HExpr **index;          /* DN_LOAD */
	int nindex;
	/* DN_ROM: the part of the table one memory tile holds, entries base to
	 * base + words - 1, read at the address mod words (words 0: the whole
	 * table); a table larger than the tile's look-up port is split so. */
	int64_t base, words;
} DNode;

typedef struct DKernel {
	const LStmt *store;     /* the statement */
	VEC(DNode) nodes;
	int result;             /* the node stored */
} DKernel;

typedef struct DGraph {
	const LProgram *L;
	int word;
	VEC(DKernel) kernels;
} DGraph;

/* The kernels of every statement of L's accelerator; 0 with errors in d (an
 * expression that needs more than W bits, a division the PE cannot do, an
 * IR operation the collateral does not know). */
int dfg_build(DGraph *g, const LProgram *L, const Collateral *c, __keep Diags *d);
void dfg_free(DGraph *g);
/* The graph as JSON (compiler/README.md). */
void dfg_write_json(const DGraph *g, FILE *f);
/* Operation counts per kernel, for people. */
void dfg_print(const DGraph *g, FILE *f);

/* ---- execution on hardware words (hl_exec.c) ----
 * Runs an application's lowered loop nest (hl_lower.h) with its
 * compute kernels (hl_dfg.h) evaluated on hardware words, and writes the
 * output: compared with the reference interpreter, it shows that lowering
 * and the narrowing to the word keep the program's meaning. */

/* inputs: one image per ImageParam (as for hli_run); out: the output over
 * its region. Lowering and the kernels have been checked: it cannot fail. */
void hx_run(const LProgram *L, const DGraph *g, const Image *inputs, Image *out);

/* Evaluates one kernel on hardware words with the values of its load nodes
 * given in loads[node] (other entries unused). */
uint64_t hx_kernel(const LProgram *L, const DGraph *g, const DKernel *k, const uint64_t *loads);

#endif
