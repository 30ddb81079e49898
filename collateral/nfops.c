/* nfops.c - names and meanings of the normal form's operations (nfops.h). */
#include "nfops.h"

#include <string.h>

#include "../common/bv.h"
#include "../common/util.h"

static const char *const op_names[NF_NUM_OPS] = {
	"input", "state", "field", "param", "const", "not", "neg", "and", "or", "xor", "add", "sub",
	"mul", "umulhi", "smulhi", "shl", "lshr", "ashr", "eq", "ult", "ule", "slt", "sle", "ite",
	"extract", "concat", "zext", "sext",
};

const char *nf_op_name(NfOp op)
{
	return op_names[op];
}

int nf_op_from_name(const char *name)
{
	for (int op = 0; op < NF_NUM_OPS; op++)
		if (strcmp(op_names[op], name) == 0)
			return op;
	return -1;
}

uint64_t nf_op_apply(NfOp op, int width, uint64_t a, uint64_t b, uint64_t c, int wa, int wb, int hi, int lo,
		     uint64_t value)
{
	int w = width;
	switch (op) {
	case NF_INPUT:
	case NF_STATE:
	case NF_FIELD:
	case NF_PARAM:
		ICE("leaf nodes have no operation to apply");
	case NF_CONST:
		return value;
	case NF_NOT:
		return bv_not(a, w);
	case NF_NEG:
		return bv_neg(a, w);
	case NF_AND:
		return a & b;
	case NF_OR:
		return a | b;
	case NF_XOR:
		return a ^ b;
	case NF_ADD:
		return bv_add(a, b, w);
	case NF_SUB:
		return bv_sub(a, b, w);
	case NF_MUL:
		return bv_mul(a, b, w);
	case NF_UMULHI:
		return bv_umulhi(a, b, w);
	case NF_SMULHI:
		return bv_smulhi(a, b, w);
	case NF_SHL:
		return bv_shl(a, b, w);
	case NF_LSHR:
		return bv_lshr(a, b, w);
	case NF_ASHR:
		return bv_ashr(a, b, w);
	case NF_EQ:
		return a == b;
	case NF_ULT:
		return a < b;
	case NF_ULE:
		return a <= b;
	case NF_SLT:
		return bv_slt(a, b, wa);
	case NF_SLE:
		return !bv_slt(b, a, wa);
	case NF_ITE:
		return a ? b : c;
	case NF_EXTRACT:
		return bv_extract(a, hi, lo);
	case NF_CONCAT:
		return bv_trunc((a << wb) | b, w);
	case NF_ZEXT:
		return a;
	case NF_SEXT:
		return bv_sext(a, wa, w);
	case NF_NUM_OPS:
		break;
	}
	ICE("bad normal-form operation %d", (int)op);
}
