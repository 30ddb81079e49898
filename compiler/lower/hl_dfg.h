/* hl_dfg.h - compute kernels: each statement of the accelerator's loop nest
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
#ifndef COMPILER_HL_DFG_H
#define COMPILER_HL_DFG_H

#include <stdio.h>

#include "../../collateral/coll.h"
#include "hl_lower.h"

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

#endif
