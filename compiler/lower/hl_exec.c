/* hl_exec.c - runs the lowered loop nest with its compute kernels on W-bit
 * words (hl_exec.h): the check that lowering, fusion, inlining and the
 * narrowing to the hardware word keep the program's meaning. */
#include <stdlib.h>
#include <string.h>

#include "lower.h"

typedef struct Exec {
	const LProgram *L;
	const DGraph *g;
	int W;
	uint64_t mask;
	HTable *bufs;           /* per Func (stored) */
	const Image *inputs;
	int64_t *env;
} Exec;

/* Index expressions and loop bounds: plain int32 arithmetic. */
static int64_t ev(Exec *X, const HExpr *e)
{
	switch (e->kind) {
	case HE_CONST: return e->value;
	case HE_VAR: return X->env[e->sym];
	case HE_CAST: return ht_wrap(e->type, ev(X, e->a));
	case HE_UN: return hu_eval(e->op, e->type, ev(X, e->a));
	case HE_BIN: return hb_eval(e->op, e->a->type, ev(X, e->a), ev(X, e->b));
	case HE_SELECT: return ev(X, e->a) ? ev(X, e->b) : ev(X, e->c);
	default: ICE("exec: index expression of kind %d", e->kind);
	}
}

static int64_t sx(Exec *X, uint64_t v)
{
	return (v >> (X->W - 1)) & 1 ? (int64_t)(v | ~X->mask) : (int64_t)v;
}

/* The IR operations of peak/ir/ops.yaml on W-bit words. */
static uint64_t ir_op(Exec *X, const char *op, const uint64_t *a)
{
	uint64_t m = X->mask, x = a[0], y = a[1];
	int W = X->W;
	int64_t p;
	if (!strcmp(op, "add")) return (x + y) & m;
	if (!strcmp(op, "sub")) return (x - y) & m;
	if (!strcmp(op, "mul")) return (x * y) & m;
	if (!strcmp(op, "mulmid")) return ((x * y) >> (W / 2)) & m;
	if (!strcmp(op, "umulhi")) return ((x * y) >> W) & m;
	if (!strcmp(op, "smulmid")) { p = sx(X, x) * sx(X, y); return (uint64_t)(p >> (W / 2)) & m; }
	if (!strcmp(op, "smulhi")) { p = sx(X, x) * sx(X, y); return (uint64_t)(p >> W) & m; }
	if (!strcmp(op, "and") || !strcmp(op, "and1")) return x & y;
	if (!strcmp(op, "or") || !strcmp(op, "or1")) return x | y;
	if (!strcmp(op, "xor") || !strcmp(op, "xor1")) return x ^ y;
	if (!strcmp(op, "not")) return ~x & m;
	if (!strcmp(op, "not1")) return !x;
	if (!strcmp(op, "shl")) return y >= (uint64_t)W ? 0 : (x << y) & m;
	if (!strcmp(op, "lshr")) return y >= (uint64_t)W ? 0 : x >> y;
	if (!strcmp(op, "ashr")) return (uint64_t)(sx(X, x) >> (y >= (uint64_t)W ? W - 1 : (int)y)) & m;
	if (!strcmp(op, "eq")) return x == y;
	if (!strcmp(op, "neq")) return x != y;
	if (!strcmp(op, "ult")) return x < y;
	if (!strcmp(op, "ule")) return x <= y;
	if (!strcmp(op, "ugt")) return x > y;
	if (!strcmp(op, "uge")) return x >= y;
	if (!strcmp(op, "slt")) return sx(X, x) < sx(X, y);
	if (!strcmp(op, "sle")) return sx(X, x) <= sx(X, y);
	if (!strcmp(op, "sgt")) return sx(X, x) > sx(X, y);
	if (!strcmp(op, "sge")) return sx(X, x) >= sx(X, y);
	if (!strcmp(op, "umin")) return x < y ? x : y;
	if (!strcmp(op, "umax")) return x > y ? x : y;
	if (!strcmp(op, "smin")) return sx(X, x) < sx(X, y) ? x : y;
	if (!strcmp(op, "smax")) return sx(X, x) > sx(X, y) ? x : y;
	if (!strcmp(op, "abs")) return (uint64_t)(sx(X, x) < 0 ? -sx(X, x) : sx(X, x)) & m;
	if (!strcmp(op, "absd")) return x > y ? x - y : y - x;
	if (!strcmp(op, "mux") || !strcmp(op, "mux1")) return a[2] ? y : x;
	ICE("exec: IR operation %s", op);
}

static uint64_t load(Exec *X, const DNode *n)
{
	int64_t idx[4];
	for (int i = 0; i < n->nindex; i++)
		idx[i] = ev(X, n->index[i]);
	if (n->is_image) {
		const Image *im = hp_image(&X->L->prep, X->inputs, n->buffer);
		long off = image_index(im, idx);
		if (off < 0)
			ICE("exec: %s read outside the image", X->L->p->images.data[n->buffer].name);
		return ht_stream_word(X->L->p->images.data[n->buffer].type, im->px[off], X->W);
	}
	int64_t *v = htable_at(&X->bufs[n->buffer], idx);
	if (!v)
		ICE("exec: %s read outside its buffer", X->L->p->funcs.data[n->buffer].name);
	return (uint64_t)*v & X->mask;
}

static uint64_t rom(Exec *X, const DNode *n, uint64_t addr)
{
	const HTable *t = &X->L->prep.tables[n->buffer];
	int64_t size = 1;
	for (int i = 0; i < t->dims; i++)
		size *= t->extent[i];
	/* a part of a split table: the tile's word at the address mod its words */
	if (n->words)
		addr = (uint64_t)n->base + addr % (uint64_t)n->words;
	if ((int64_t)addr >= size && n->words)
		return 0;       /* the last part beyond the table's end: a value no mux chooses */
	if ((int64_t)addr >= size)
		ICE("exec: ROM %s read at %llu of %lld", X->L->p->funcs.data[n->buffer].name,
		    (unsigned long long)addr, (long long)size);
	return (uint64_t)t->v[addr] & X->mask;
}

/* The kernel's value; loads come from X's buffers, or from `loads` (indexed
 * by node) when it is not NULL. */
static uint64_t run_kernel(Exec *X, const DKernel *k, const uint64_t *loads)
{
	uint64_t *val = xcalloc((size_t)(k->nodes.len ? k->nodes.len : 1), sizeof *val);
	vec_foreach(&k->nodes, i) {
		const DNode *n = &k->nodes.data[i];
		uint64_t in[3] = { 0, 0, 0 };
		for (int j = 0; j < n->nin; j++)
			in[j] = val[n->in[j]];
		switch (n->kind) {
		case DN_CONST: val[i] = (uint64_t)n->value; break;
		case DN_LOAD: val[i] = loads ? loads[i] & X->mask : load(X, n); break;
		case DN_ROM: val[i] = rom(X, n, in[0]); break;
		case DN_OP: val[i] = ir_op(X, n->op, in); break;
		}
	}
	uint64_t r = val[k->result];
	free(val);
	return r;
}

uint64_t hx_kernel(const LProgram *L, const DGraph *g, const DKernel *k, const uint64_t *loads)
{
	Exec X = { L, g, g->word, g->word >= 64 ? ~0ULL : ((uint64_t)1 << g->word) - 1, NULL, NULL, NULL };
	return run_kernel(&X, k, loads);
}

static void store(Exec *X, const LStmt *s, const DKernel *k)
{
	int64_t idx[4];
	for (int i = 0; i < s->nindex; i++)
		idx[i] = ev(X, s->index[i]);
	uint64_t v = run_kernel(X, k, NULL);
	int64_t *slot = htable_at(&X->bufs[s->func], idx);
	if (!slot)
		ICE("exec: %s written outside its buffer", X->L->p->funcs.data[s->func].name);
	*slot = (int64_t)v;
}

static const DKernel *kernel_of(const DGraph *g, const LStmt *s)
{
	vec_foreach(&g->kernels, i) if (g->kernels.data[i].store == s) return &g->kernels.data[i];
	return NULL;
}

/* Runs a statement: loops over their ranges, stores by their kernels. */
static void run_stmt(Exec *X, const LStmt *s)
{
	if (s->kind == LS_LOOP) {
		int64_t m = ev(X, s->min);
		for (int64_t i = 0; i < s->extent; i++) {
			X->env[s->sym] = m + i;
			vec_foreach(&s->body, j) run_stmt(X, s->body.data[j]);
		}
		return;
	}
	if (s->kind == LS_STORE) {
		if (s->func >= 0)
			store(X, s, kernel_of(X->g, s));
		return;
	}
	vec_foreach(&s->body, j) run_stmt(X, s->body.data[j]);
}

void hx_run(const LProgram *L, const DGraph *g, const Image *inputs, Image *out)
{
	const HProgram *p = L->p;
	Exec X = { L, g, g->word, g->word >= 64 ? ~0ULL : ((uint64_t)1 << g->word) - 1, NULL, inputs, NULL };
	X.bufs = xcalloc((size_t)(p->funcs.len ? p->funcs.len : 1), sizeof *X.bufs);
	X.env = xcalloc((size_t)p->syms.len + 1, sizeof *X.env);
	for (int f = 0; f < p->funcs.len; f++) {
		const LRegion *r = &L->funcs[f];
		if (!r->dims)
			continue;
		HTable *b = &X.bufs[f];
		int64_t n = 1;
		b->dims = r->dims;
		for (int i = 0; i < r->dims; i++) {
			b->min[i] = r->box_min[i];
			b->extent[i] = r->box_extent[i];
			n *= r->box_extent[i];
		}
		b->v = xcalloc((size_t)n, sizeof *b->v);
	}
	run_stmt(&X, L->root);
	/* the output: its buffer, as an image */
	const HTable *ob = &X.bufs[p->output];
	memset(out, 0, sizeof *out);
	out->dims = ob->dims;
	out->bits = ht_sample_bits(p->funcs.data[p->output].type);
	for (int i = 0; i < ob->dims; i++)
		out->extent[i] = (int)ob->extent[i];
	image_alloc(out);
	for (long i = 0; i < image_size(out); i++)
		out->px[i] = (uint16_t)ob->v[i];
	for (int f = 0; f < p->funcs.len; f++)
		free(X.bufs[f].v);
	free(X.bufs);
	free(X.env);
}
