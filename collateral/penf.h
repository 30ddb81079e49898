/* penf.h - `<pe>.nf` (peak/COLLATERAL.md): the PE's normal form, the DAG of
 * bit-vector operations that its functional model, Verilog and SMT model
 * interpret, restricted to the nodes its outputs and next state depend on
 * and numbered densely in a topological order. A simulator of the configured
 * array folds each PE's instruction fields into constants and executes the
 * nodes in order with nf_op_apply (nfops.h). Read with errors at their line
 * and column, and checked against the PE's info file: names, widths and the
 * width rule of every operation. */
#ifndef COLLATERAL_PENF_H
#define COLLATERAL_PENF_H

#include <stdint.h>

#include "../common/arena.h"
#include "../common/diag.h"
#include "../common/util.h"
#include "nfops.h"
#include "peinfo.h"

/* What a reader takes, checked before it allocates; the file's size is
 * bounded by lines.h. */
#define PENF_MAX_NODES 1000000
#define PENF_MAX_STATE 4096

/* One node. Operands a, b, c are ids of earlier nodes (-1 when unused):
 * ite is a ? b : c, concat has a in its high bits, extract takes bits hi..lo
 * of a. Leaves hold in a the index of their input (PeInfo.inputs), state
 * variable (PeNf.state) or instruction field (PeInfo.fields); NF_CONST its
 * value. NF_PARAM never occurs. */
typedef struct PnNode {
	NfOp op;
	int width;              /* 1..64 */
	int a, b, c;
	int hi, lo;
	uint64_t value;
} PnNode;

typedef struct PnState {
	const char *name;
	int width;
	uint64_t reset;         /* the value after reset */
} PnState;

typedef struct PeNf {
	Arena *arena;           /* holds everything below */
	const char *pe;
	PnNode *nodes;          /* in topological order */
	int nnodes;
	int *out;               /* per PeInfo output: its node */
	PnState *state;         /* in the info file's order */
	int nstate;
	int *next;              /* per state variable: the node of its next value */
} PeNf;

/* Reads the file path for the PE pi describes; NULL with every error of the
 * file in d (up to LINES_MAX_ERRORS). The file is refused unless it is
 * whole (its header first, the count of its end line that of its nodes,
 * every output and state variable with exactly one record) and every record
 * agrees with pi and with the operation's width rule. _load_string reads
 * text, named name in messages. */
__give PeNf *penf_load(const char *path, __keep const PeInfo *pi, __keep Diags *d);
__give PeNf *penf_load_string(const char *name, const char *text, __keep const PeInfo *pi, __keep Diags *d);
void penf_free(__take PeNf *n);

#endif
