/* fuzz_penf.c - libFuzzer harness of the normal-form reader
 * (collateral/penf.h): the input is a <pe>.info.yaml, the separator byte of
 * fuzz.h and a <pe>.nf, the info read by peinfo_load_string and the normal
 * form by penf_load_string against it, as a simulator reads them. A normal
 * form that loads must hold only what the reader promises (every operand an
 * earlier node, every operation within its width rule, leaves naming ports
 * of the info file, outputs and next values of their widths), and execute
 * once on random values with nf_op_apply, every value within its width.
 * Diagnostics go to a sink (fuzz.h). */
#include "fuzz.h"

#include "../collateral/penf.h"
#include "../common/bv.h"
#include "../common/rng.h"

/* The width of a leaf's port, from the info file or the state records. */
static int leaf_width(const PeNf *n, const PeInfo *pi, const PnNode *x)
{
	if (x->op == NF_INPUT)
		return x->a < pi->ninputs ? pi->inputs[x->a].width : -1;
	if (x->op == NF_FIELD)
		return x->a < pi->nfields ? pi->fields[x->a].width : -1;
	return x->a < n->nstate ? n->state[x->a].width : -1;
}

/* What the reader promises of node i. */
static void check_node(const PeNf *n, const PeInfo *pi, int i)
{
	const PnNode *x = &n->nodes[i];
	FUZZ_CHECK(x->op < NF_NUM_OPS && x->op != NF_PARAM && x->width >= 1 && x->width <= 64, "node %d: op %d, %d bits",
		   i, (int)x->op, x->width);
	if (x->op == NF_INPUT || x->op == NF_STATE || x->op == NF_FIELD) {
		FUZZ_CHECK(x->a >= 0 && leaf_width(n, pi, x) == x->width, "leaf %d: index %d", i, x->a);
		return;
	}
	if (x->op == NF_CONST) {
		FUZZ_CHECK(x->value == bv_trunc(x->value, x->width), "const %d does not fit", i);
		return;
	}
	int ops[3] = { x->a, x->b, x->c };
	for (int k = 0; k < 3; k++)
		FUZZ_CHECK(ops[k] < i && ops[k] >= (k == 0 ? 0 : -1), "node %d: operand %d is %d", i, k, ops[k]);
	int wa = n->nodes[x->a].width;
	if (x->op == NF_EXTRACT)
		FUZZ_CHECK(0 <= x->lo && x->lo <= x->hi && x->hi < wa && x->width == x->hi - x->lo + 1,
			   "extract %d: bits %d..%d of %d", i, x->hi, x->lo, wa);
	if (x->op == NF_CONCAT)
		FUZZ_CHECK(x->b >= 0 && wa + n->nodes[x->b].width == x->width, "concat %d of the wrong width", i);
	if (x->op == NF_ITE)
		FUZZ_CHECK(x->c >= 0 && wa == 1 && n->nodes[x->b].width == x->width && n->nodes[x->c].width == x->width,
			   "ite %d of the wrong widths", i);
}

/* One execution on random values: every value within its width. */
static void execute(const PeNf *n, const PeInfo *pi, Rng *rng)
{
	uint64_t *vals = xcalloc((size_t)n->nnodes + 1, sizeof *vals);
	for (int i = 0; i < n->nnodes; i++) {
		const PnNode *x = &n->nodes[i];
		if (x->op == NF_INPUT || x->op == NF_STATE || x->op == NF_FIELD) {
			vals[i] = rng_bits(rng, leaf_width(n, pi, x));
			continue;
		}
		vals[i] = nf_op_apply(x->op, x->width, x->a >= 0 ? vals[x->a] : 0, x->b >= 0 ? vals[x->b] : 0,
				      x->c >= 0 ? vals[x->c] : 0, x->a >= 0 ? n->nodes[x->a].width : 0,
				      x->b >= 0 ? n->nodes[x->b].width : 0, x->hi, x->lo, x->value);
		FUZZ_CHECK(vals[i] == bv_trunc(vals[i], x->width), "node %d (%s) gives %llx, wider than %d bits", i,
			   nf_op_name(x->op), (unsigned long long)vals[i], x->width);
	}
	free(vals);
}

static void walk(const PeNf *n, const PeInfo *pi, Rng *rng)
{
	for (int i = 0; i < n->nnodes; i++)
		check_node(n, pi, i);
	for (int o = 0; o < pi->noutputs; o++)
		FUZZ_CHECK(n->out[o] >= 0 && n->out[o] < n->nnodes && n->nodes[n->out[o]].width == pi->outputs[o].width,
			   "output %d is node %d", o, n->out[o]);
	for (int s = 0; s < n->nstate; s++)
		FUZZ_CHECK(n->next[s] >= 0 && n->next[s] < n->nnodes && n->nodes[n->next[s]].width == n->state[s].width,
			   "next value of state %d is node %d", s, n->next[s]);
	execute(n, pi, rng);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	Diags *d = fuzz_diags();
	char *info = fuzz_text(d, "pe.info.yaml", data, size);
	char *nf = info ? fuzz_split(info) : NULL;
	PeInfo *pi = nf ? peinfo_load_string("pe.info.yaml", info, NULL, NULL, d) : NULL;
	PeNf *n = pi ? penf_load_string("pe.nf", nf, pi, d) : NULL;
	if (n) {
		Rng rng;
		rng_seed(&rng, util_fnv1a(UTIL_FNV_INIT, data, size));
		walk(n, pi, &rng);
	}
	penf_free(n);
	peinfo_free(pi);
	diags_free(d);
	free(info);
	return 0;
}
