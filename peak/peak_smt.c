/* peak_smt.c - see peak_smt.h. Comparisons give 1-bit vectors, as in the
 * language; conditions are turned into Booleans where Z3 needs them. */
#include "peak_smt.h"

#include <stdlib.h>

Z3_ast peak_smt_const(Z3_context ctx, uint64_t v, int w)
{
	return Z3_mk_unsigned_int64(ctx, v, Z3_mk_bv_sort(ctx, (unsigned)w));
}

Z3_ast peak_smt_var(Z3_context ctx, const char *name, int w)
{
	return Z3_mk_const(ctx, Z3_mk_string_symbol(ctx, name), Z3_mk_bv_sort(ctx, (unsigned)w));
}

uint64_t peak_smt_value(Z3_context ctx, Z3_model m, Z3_ast t)
{
	Z3_ast v;
	uint64_t out = 0;
	if (Z3_model_eval(ctx, m, t, 1, &v) && Z3_get_numeral_uint64(ctx, v, &out))
		return out;
	return 0;
}

static Z3_ast bit_of(Z3_context ctx, Z3_ast b)
{
	return Z3_mk_ite(ctx, b, peak_smt_const(ctx, 1, 1), peak_smt_const(ctx, 0, 1));
}

static Z3_ast is_one(Z3_context ctx, Z3_ast bit)
{
	return Z3_mk_eq(ctx, bit, peak_smt_const(ctx, 1, 1));
}

/* A shift amount of any width brought to width w, saturating so that amounts
 * of w or more still shift everything out. */
static Z3_ast shift_amount(Z3_context ctx, Z3_ast amt, int wamt, int w)
{
	if (wamt == w)
		return amt;
	if (wamt < w)
		return Z3_mk_zero_ext(ctx, (unsigned)(w - wamt), amt);
	Z3_ast small = Z3_mk_bvult(ctx, amt, peak_smt_const(ctx, (uint64_t)w, wamt));
	return Z3_mk_ite(ctx, small, Z3_mk_extract(ctx, (unsigned)(w - 1), 0, amt),
			 peak_smt_const(ctx, ~0ULL, w));
}

static Z3_ast mulhi(Z3_context ctx, Z3_ast a, Z3_ast b, int w, int sign)
{
	Z3_ast x = sign ? Z3_mk_sign_ext(ctx, (unsigned)w, a) : Z3_mk_zero_ext(ctx, (unsigned)w, a);
	Z3_ast y = sign ? Z3_mk_sign_ext(ctx, (unsigned)w, b) : Z3_mk_zero_ext(ctx, (unsigned)w, b);
	return Z3_mk_extract(ctx, (unsigned)(2 * w - 1), (unsigned)w, Z3_mk_bvmul(ctx, x, y));
}

static Z3_ast node_term(Z3_context ctx, const NfGraph *g, const NfNode *n, const Z3_ast *t)
{
	Z3_ast a = n->a >= 0 ? t[n->a] : NULL, b = n->b >= 0 ? t[n->b] : NULL;
	int w = n->width;
	switch (n->op) {
	case NF_CONST:
		return peak_smt_const(ctx, n->value, w);
	case NF_NOT:
		return Z3_mk_bvnot(ctx, a);
	case NF_NEG:
		return Z3_mk_bvneg(ctx, a);
	case NF_AND:
		return Z3_mk_bvand(ctx, a, b);
	case NF_OR:
		return Z3_mk_bvor(ctx, a, b);
	case NF_XOR:
		return Z3_mk_bvxor(ctx, a, b);
	case NF_ADD:
		return Z3_mk_bvadd(ctx, a, b);
	case NF_SUB:
		return Z3_mk_bvsub(ctx, a, b);
	case NF_MUL:
		return Z3_mk_bvmul(ctx, a, b);
	case NF_UMULHI:
		return mulhi(ctx, a, b, w, 0);
	case NF_SMULHI:
		return mulhi(ctx, a, b, w, 1);
	case NF_SHL:
		return Z3_mk_bvshl(ctx, a, shift_amount(ctx, b, nf_width(g, n->b), w));
	case NF_LSHR:
		return Z3_mk_bvlshr(ctx, a, shift_amount(ctx, b, nf_width(g, n->b), w));
	case NF_ASHR:
		return Z3_mk_bvashr(ctx, a, shift_amount(ctx, b, nf_width(g, n->b), w));
	case NF_EQ:
		return bit_of(ctx, Z3_mk_eq(ctx, a, b));
	case NF_ULT:
		return bit_of(ctx, Z3_mk_bvult(ctx, a, b));
	case NF_ULE:
		return bit_of(ctx, Z3_mk_bvule(ctx, a, b));
	case NF_SLT:
		return bit_of(ctx, Z3_mk_bvslt(ctx, a, b));
	case NF_SLE:
		return bit_of(ctx, Z3_mk_bvsle(ctx, a, b));
	case NF_ITE:
		return Z3_mk_ite(ctx, is_one(ctx, a), b, t[n->c]);
	case NF_EXTRACT:
		return Z3_mk_extract(ctx, (unsigned)n->hi, (unsigned)n->lo, a);
	case NF_CONCAT:
		return Z3_mk_concat(ctx, a, b);
	case NF_ZEXT:
		return Z3_mk_zero_ext(ctx, (unsigned)(w - nf_width(g, n->a)), a);
	case NF_SEXT:
		return Z3_mk_sign_ext(ctx, (unsigned)(w - nf_width(g, n->a)), a);
	default:
		ICE("no SMT term for %s", nf_op_name(n->op));
	}
}

Z3_ast *peak_smt_terms(Z3_context ctx, const PeakSpec *s, Z3_ast *const leaves[4])
{
	const NfGraph *g = &s->g;
	Z3_ast *t = xcalloc((size_t)g->nodes.len + 1, sizeof(Z3_ast));
	vec_foreach(&g->nodes, i) {
		const NfNode *n = nf_node(g, i);
		t[i] = n->op < NF_CONST ? leaves[n->op][n->lo] : node_term(ctx, g, n, t);
	}
	return t;
}
