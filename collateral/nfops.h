/* nfops.h - the operations of a PE's normal form (peak/peak_nf.h): their
 * names as the `.nf` file writes them (peak/COLLATERAL.md) and the meaning of
 * each on bit-vector values. peak builds, folds and interprets its graphs
 * with these, and the readers of `<pe>.nf` (collateral/penf.h) execute the
 * same definition, so the simulator of a configured array and the PE
 * generator never disagree on what an operation computes. */
#ifndef COLLATERAL_NFOPS_H
#define COLLATERAL_NFOPS_H

#include <stdint.h>

typedef enum {
	/* leaves: index says which input, state variable, instruction field or param */
	NF_INPUT, NF_STATE, NF_FIELD, NF_PARAM, NF_CONST,
	/* unary */
	NF_NOT, NF_NEG,
	/* binary, operands of one width, result of that width */
	NF_AND, NF_OR, NF_XOR, NF_ADD, NF_SUB, NF_MUL, NF_UMULHI, NF_SMULHI,
	/* shifts: the amount may have any width */
	NF_SHL, NF_LSHR, NF_ASHR,
	/* comparisons, result 1 bit */
	NF_EQ, NF_ULT, NF_ULE, NF_SLT, NF_SLE,
	/* structure */
	NF_ITE, NF_EXTRACT, NF_CONCAT, NF_ZEXT, NF_SEXT,
	NF_NUM_OPS
} NfOp;

/* The operation's name in the `.nf` file ("input", "add", "extract", ...). */
const char *nf_op_name(NfOp op);
/* The operation of a name, or -1 if none has it. */
int nf_op_from_name(const char *name);

/* The value of a non-leaf operation of result width `width` on operand
 * values a, b, c (each within its width; unused ones 0), where wa and wb are
 * the widths of operands a and b, hi and lo the bounds of NF_EXTRACT and
 * value the constant of NF_CONST. NF_ITE is a ? b : c; NF_CONCAT puts a in
 * the high bits and b in the low ones. The result is within `width` bits.
 * The leaves NF_INPUT, NF_STATE, NF_FIELD and NF_PARAM have no operation: an
 * internal error. */
uint64_t nf_op_apply(NfOp op, int width, uint64_t a, uint64_t b, uint64_t c, int wa, int wb, int hi, int lo,
		     uint64_t value);

#endif
