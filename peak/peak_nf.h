/* peak_nf.h - the normal form every PEak program is lowered to: a hash-consed
 * DAG of bit-vector operations with `ite` for control flow (AHA 3.1.3). Nodes are
 * kept in an array in creation order, which is a topological order, and refer to
 * each other by index. The three readings of a spec (functional model, Verilog,
 * SMT) are three interpretations of this graph; the fourth, `<pe>.nf`
 * (peak/COLLATERAL.md), hands its live part to a simulator. The operations
 * and their meaning are shared with that file's reader (collateral/nfops.h). */
#ifndef PEAK_NF_H
#define PEAK_NF_H

#include <stdint.h>

#include "../collateral/nfops.h"
#include "../common/vec.h"

typedef struct NfNode {
	NfOp op;
	int width;
	int a, b, c;        /* operands (-1 when unused); ite: c ? a : b is (a=cond, b=then, c=else) */
	int hi, lo;         /* extract bounds; leaves: lo = index */
	uint64_t value;     /* NF_CONST */
	int rank;           /* orders commutative operands: the smallest leaf rank
			       below (inputs first, then params, fields, state;
			       constants last), so that x*y + z keeps x*y first */
} NfNode;

typedef struct NfGraph {
	VEC(NfNode) nodes;
	int *slots;         /* hash-consing table of node ids, -1 empty */
	int nslots;
} NfGraph;

void nf_init(NfGraph *g);
void nf_free(NfGraph *g);

int nf_leaf(NfGraph *g, NfOp op, int index, int width);
int nf_const(NfGraph *g, uint64_t value, int width);
/* Builds an operation, folding constants and simple identities. */
int nf_unary(NfGraph *g, NfOp op, int a);
int nf_binary(NfGraph *g, NfOp op, int a, int b);
int nf_ite(NfGraph *g, int cond, int then_, int else_);
int nf_extract(NfGraph *g, int a, int hi, int lo);
int nf_concat(NfGraph *g, int hi, int lo);
int nf_ext(NfGraph *g, NfOp op, int a, int width); /* NF_ZEXT or NF_SEXT to width */

static inline const NfNode *nf_node(const NfGraph *g, int id) { return &g->nodes.data[id]; }
static inline int nf_width(const NfGraph *g, int id) { return g->nodes.data[id].width; }
int nf_is_leaf(NfOp op);
/* 1 if swapping the two operands never changes the result. */
int nf_is_commutative(NfOp op);

/* Applies a non-leaf node's operation to operand values; wa and wb are the
 * widths of operands a and b (nf_op_apply of collateral/nfops.h). */
uint64_t nf_apply(const NfNode *n, const uint64_t ops[3], int wa, int wb);
/* Evaluates every node in order into vals (one per node); leaves[k][i] is the
 * value of leaf kind k (NF_INPUT, NF_STATE, NF_FIELD, NF_PARAM) with index i. */
void nf_eval(const NfGraph *g, uint64_t *vals, const uint64_t *const leaves[4]);
/* Marks in live (one flag per node, the roots already set) every node a
 * marked node depends on: one backward sweep, as creation order is
 * topological. */
void nf_mark_live(const NfGraph *g, char *live);

#endif
