/* hl_interp.c - the reference interpreter (front.h): every Func the output
 * needs is realized over its region (hl_bounds.c), producers first: the pure
 * definition at every point, then each update in order, reduction variables
 * innermost (r.x fastest), as Halide runs them. */
#include <stdlib.h>
#include <string.h>

#include "front.h"

typedef HTable Buf;

typedef struct Interp {
	const HProgram *p;
	Buf *funcs;
	const Image *images;
	int64_t *env;           /* per symbol */
	int *outside;           /* set by a read outside a realized Func (hli_eval), else NULL: an ICE */
} Interp;

int64_t *htable_at(const HTable *b, const int64_t *idx)
{
	int64_t off = 0;
	for (int i = b->dims - 1; i >= 0; i--) {
		int64_t k = idx[i] - b->min[i];
		if (k < 0 || k >= b->extent[i])
			return NULL;
		off = off * b->extent[i] + k;
	}
	return &b->v[off];
}

static int64_t eval(Interp *I, const HExpr *e);

static int64_t eval_call(Interp *I, const HExpr *e)
{
	int64_t idx[4] = { 0 };
	for (int i = 0; i < e->nargs; i++)
		idx[i] = eval(I, e->args[i]);
	if (e->is_image) {
		const Image *im = &I->images[e->callee];
		long off = image_index(im, idx);
		if (off < 0)
			ICE("interpreter: %s read outside its region", I->p->images.data[e->callee].name);
		return ht_wrap(e->type, im->px[off]);
	}
	int64_t *v = htable_at(&I->funcs[e->callee], idx);
	if (!v && I->outside) {
		*I->outside = 1;
		return 0;
	}
	if (!v)
		ICE("interpreter: %s read outside its region", I->p->funcs.data[e->callee].name);
	return *v;
}

static int64_t eval_sum(Interp *I, const HExpr *e)
{
	const HRDom *r = &I->p->rdoms.data[e->rdom];
	int64_t pt[4], acc = he_reduce_init((HBinOp)e->op, e->type), saved[4];
	for (int i = 0; i < r->ndims; i++)
		saved[i] = I->env[r->sym[i]];
	hrdom_first(r, pt);
	do {
		for (int i = 0; i < r->ndims; i++)
			I->env[r->sym[i]] = pt[i];
		acc = hb_eval((HBinOp)e->op, e->type, acc, eval(I, e->a));
	} while (hrdom_next(r, pt));
	for (int i = 0; i < r->ndims; i++)
		I->env[r->sym[i]] = saved[i];
	return acc;
}

static int64_t eval(Interp *I, const HExpr *e)
{
	switch (e->kind) {
	case HE_CONST: return e->value;
	case HE_VAR: return I->env[e->sym];
	case HE_CALL: return eval_call(I, e);
	case HE_CAST: return hv_cast(e->type, e->a->type, eval(I, e->a));
	case HE_MATH: return hm_eval((HMathOp)e->op, e->type, eval(I, e->a), e->b ? eval(I, e->b) : 0);
	case HE_UN: return hu_eval(e->op, e->type, eval(I, e->a));
	case HE_BIN: return hb_eval(e->op, e->a->type, eval(I, e->a), eval(I, e->b));
	case HE_SELECT: return eval(I, e->a) ? eval(I, e->b) : eval(I, e->c);
	case HE_SUM: return eval_sum(I, e);
	}
	ICE("eval: kind %d", e->kind);
}

/* Runs definition d of f at every point of its loops: the pure variables it
 * writes over the region, reduction variables over their domain (r.x
 * innermost). */
static void run_def(Interp *I, int f, const HDef *d)
{
	const HFunc *fn = &I->p->funcs.data[f];
	Buf *b = &I->funcs[f];
	int loops[8], n = 0;
	int64_t lo[8], hi[8];
	/* innermost first: the RVars of the update's RDom, then pure variables */
	int rd = he_def_rdom(I->p, d);
	if (rd >= 0) {
		const HRDom *r = &I->p->rdoms.data[rd];
		for (int k = 0; k < r->ndims; k++) {
			lo[n] = r->min[k];
			hi[n] = r->min[k] + r->extent[k] - 1;
			loops[n++] = r->sym[k];
		}
	}
	for (int i = 0; i < d->nlhs; i++)
		if (d->lhs[i]->kind == HE_VAR && I->p->syms.data[d->lhs[i]->sym].kind == SYM_VAR) {
			lo[n] = b->min[i];
			hi[n] = b->min[i] + b->extent[i] - 1;
			loops[n++] = d->lhs[i]->sym;
		}
	int64_t pt[8];
	for (int i = 0; i < n; i++) {
		pt[i] = lo[i];
		if (lo[i] > hi[i])
			return;
	}
	for (;;) {
		for (int i = 0; i < n; i++)
			I->env[loops[i]] = pt[i];
		int64_t idx[4];
		for (int i = 0; i < d->nlhs; i++)
			idx[i] = eval(I, d->lhs[i]);
		int64_t v = ht_wrap(fn->type, eval(I, d->value));
		int64_t *slot = htable_at(b, idx);
		if (!slot)
			ICE("interpreter: %s written outside its region", fn->name);
		*slot = v;
		int i = 0;
		while (i < n && ++pt[i] > hi[i]) {
			pt[i] = lo[i];
			i++;
		}
		if (i == n)
			break;
	}
}

static void realize(Interp *I, int f, const Interval *reg)
{
	const HFunc *fn = &I->p->funcs.data[f];
	Buf *b = &I->funcs[f];
	int64_t size = 1;
	b->dims = fn->dims;
	for (int i = 0; i < fn->dims; i++) {
		b->min[i] = reg[i].lo;
		b->extent[i] = reg[i].hi >= reg[i].lo ? reg[i].hi - reg[i].lo + 1 : 0;
		size *= b->extent[i];
	}
	b->v = xcalloc((size_t)(size ? size : 1), sizeof *b->v);
	vec_foreach(&fn->defs, k) run_def(I, f, &fn->defs.data[k]);
}

/* "20 x 12 x 3": the extents of dims dimensions. */
static void extents_str(char *buf, size_t n, int dims, const int64_t *ext)
{
	size_t k = 0;
	buf[0] = 0;
	for (int i = 0; i < dims && k < n; i++)
		k += (size_t)snprintf(buf + k, n - k, "%s%lld", i ? " x " : "", (long long)ext[i]);
}

int hli_check_inputs(const HProgram *p, const HRegions *r, Image *inputs, const char *const *files, Diags *d)
{
	int ok = 1;
	for (int m = 0; m < p->images.len; m++) {
		const HImage *im = &p->images.data[m];
		Image *in = &inputs[m];
		if (!r->image_used[m])
			continue;
		int64_t need[4], have[4];
		int fits = in->dims >= 1 && in->dims <= 4, exact = 0;
		for (int i = 0; i < 4; i++) {
			need[i] = i < im->dims ? r->image[m][i].hi + 1 : 1;
			have[i] = i < in->dims ? in->extent[i] : 1;
			fits = fits && have[i] >= need[i] && (i < im->dims || have[i] == 1);
			/* a declared size (set_bounds) is checked as Halide checks it: exactly */
			if (i < im->dims && im->extent[i] && have[i] != im->extent[i])
				fits = 0, exact = 1;
		}
		if (fits) {
			/* missing or extra dimensions of extent 1 (a PGM for a 1-D image) */
			in->dims = im->dims;
			for (int i = 0; i < 4; i++)
				in->extent[i] = i < im->dims ? (int)have[i] : 0;
			continue;
		}
		ok = 0;
		char given[64], wanted[64];
		extents_str(given, sizeof given, in->dims, have);
		extents_str(wanted, sizeof wanted, im->dims, need);
		const char *file = files ? files[m] : p->file;
		int line = files ? 0 : im->line, col = files ? 0 : im->col;
		if (exact)
			diag_error(d, file, line, col, "the image for '%s' is %s; the program declares it %s (set_bounds)",
				   im->name, given, wanted);
		else if (in->dims != im->dims)
			diag_error(d, file, line, col,
				   "the image for '%s' is %s%s; the program reads '%s' as a %d-dimensional image of at "
				   "least %s",
				   im->name, given, in->dims == 3 ? " (3 channels)" : im->dims == 3 ? " (1 channel)" : "",
				   im->name, im->dims, wanted);
		else
			diag_error(d, file, line, col, "the image for '%s' is %s; the program reads at least %s", im->name,
				   given, wanted);
	}
	return ok;
}

/* The values of Func f (the output, or a streamed Func) as an image. */
static void func_image(const HProgram *p, int f, Buf *b, Image *out)
{
	const HFunc *fn = &p->funcs.data[f];
	ALWAYS(fn->type.bits <= 16 && !ht_is_float(fn->type));   /* hl_bounds checked it */
	memset(out, 0, sizeof *out);
	out->dims = b->dims;
	out->bits = ht_sample_bits(fn->type);
	for (int i = 0; i < b->dims; i++)
		out->extent[i] = (int)b->extent[i];
	image_alloc(out);
	for (long i = 0; i < image_size(out); i++)
		out->px[i] = (uint16_t)b->v[i];
}

int64_t hli_eval(const HProgram *p, const HTable *tables, int64_t *env, const HExpr *e, int *outside)
{
	Interp I = { p, (Buf *)tables, NULL, env, outside };
	return eval(&I, e);
}

void hli_const_tables(const HProgram *p, const HRegions *r, const char *is_const, HTable *tables)
{
	Interp I = { p, tables, NULL, NULL, NULL };
	I.env = xcalloc((size_t)(p->syms.len ? p->syms.len : 1), sizeof *I.env);
	for (int k = 0; k < r->norder; k++)
		if (is_const[r->order[k]])
			realize(&I, r->order[k], r->func[r->order[k]]);
	free(I.env);
}

/* Runs p; the output into out, and (streams not NULL) every streamed Func
 * the output needs, in the order of the Funcs, into streams[0], ... */
static int interpret(const HProgram *p, const Image *inputs, Image *out, Image *streams, int *nstreams, Diags *d)
{
	HRegions r;
	if (!hl_bounds(p, &r, d))
		return 0;
	Image *ins = xcalloc((size_t)(p->images.len ? p->images.len : 1), sizeof *ins);
	if (p->images.len)
		memcpy(ins, inputs, sizeof *ins * (size_t)p->images.len);
	if (!hli_check_inputs(p, &r, ins, NULL, d)) {
		free(ins);
		hl_bounds_free(&r);
		return 0;
	}
	Interp I = { p, NULL, ins, NULL, NULL };
	I.funcs = xcalloc((size_t)(p->funcs.len ? p->funcs.len : 1), sizeof *I.funcs);
	I.env = xcalloc((size_t)(p->syms.len ? p->syms.len : 1), sizeof *I.env);
	for (int k = 0; k < r.norder; k++)
		realize(&I, r.order[k], r.func[r.order[k]]);
	func_image(p, p->output, &I.funcs[p->output], out);
	if (streams)
		*nstreams = 0;
	for (int f = 0; streams && f < p->funcs.len; f++)
		if (p->funcs.data[f].streamed && r.func_used[f])
			func_image(p, f, &I.funcs[f], &streams[(*nstreams)++]);
	for (int f = 0; f < p->funcs.len; f++)
		free(I.funcs[f].v);
	free(I.funcs);
	free(I.env);
	free(ins);
	hl_bounds_free(&r);
	return 1;
}

int hli_run(const HProgram *p, const Image *inputs, Image *out, Diags *d)
{
	return interpret(p, inputs, out, NULL, NULL, d);
}

int hli_run_streams(const HProgram *p, const Image *inputs, Image *out, Image *streams, int *nstreams, Diags *d)
{
	return interpret(p, inputs, out, streams, nstreams, d);
}
