/* hl_lower.h - the loop nest of an application lowered by its schedule, like
 * Halide's lowered statement: bounds inference from the output's bound()s,
 * split/tile/reorder/unroll, compute_at/compute_root placement, the
 * accelerator block of hw_accelerate and the input streams of
 * stream_to_accelerator. Statements read stored Funcs, streamed images and
 * ROMs (look-up tables) at indices in the loop variables. */
#ifndef COMPILER_HL_LOWER_H
#define COMPILER_HL_LOWER_H

#include <stdio.h>

#include "../front/front.h"
#include "hl_prep.h"

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
 * and the box of every value it ever holds. */
typedef struct LRegion {
	int dims;
	int64_t min[4], extent[4];
	int64_t box_min[4], box_extent[4];
} LRegion;

typedef struct LProgram {
	HProgram *p;
	HPrep prep;
	LStmt *root;
	LStmt *accel;           /* the hardware's part of root */
	LRegion *funcs;         /* per Func (stored ones) */
	LRegion *images;        /* per image (streamed ones) */
	Arena *arena;           /* the statements */
} LProgram;

/* Lowers p (prepared in place by hp_prepare); 0 with errors in d. */
int hl_lower(LProgram *L, HProgram *p, __keep Diags *d);
void hl_lower_free(LProgram *L);
/* Prints the loop nest and the tables. */
void hl_lower_print(const LProgram *L, FILE *f);

#endif
