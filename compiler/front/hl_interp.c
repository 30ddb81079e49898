/* hl_interp.c - bounds inference and the reference interpreter (hl_interp.h).
 *
 * Regions: the output's region is its bounds; walking the Funcs from
 * consumers to producers, every call in a consumer's definitions, with the
 * consumer's pure variables over its region and reduction variables over
 * their domains, adds the intervals of its arguments to the callee's region;
 * a Func's region also covers what its updates write.
 *
 * Evaluation: every Func the output needs is realized over its region,
 * producers first: the pure definition at every point, then each update in
 * order, reduction variables innermost (r.x fastest), as Halide runs them. */
#include <stdlib.h>
#include <string.h>

#include "hl_interp.h"

/* ---- regions ---- */

static void visit(const HProgram *p, int f, char *state, HRegions *r);

static void visit_calls(const HProgram *p, const HExpr *e, char *state, HRegions *r)
{
	if (!e)
		return;
	if (e->kind == HE_CALL) {
		if (e->is_image)
			r->image_used[e->callee] = 1;
		else
			visit(p, e->callee, state, r);
	}
	visit_calls(p, e->a, state, r);
	visit_calls(p, e->b, state, r);
	visit_calls(p, e->c, state, r);
	for (int i = 0; i < e->nargs; i++)
		visit_calls(p, e->args[i], state, r);
}

/* Depth-first: a Func is listed after everything it calls. */
static void visit(const HProgram *p, int f, char *state, HRegions *r)
{
	if (state[f])
		return;
	state[f] = 1;
	const HFunc *fn = &p->funcs.data[f];
	vec_foreach(&fn->defs, k) {
		visit_calls(p, fn->defs.data[k].value, state, r);
		for (int i = 0; i < fn->defs.data[k].nlhs; i++)
			visit_calls(p, fn->defs.data[k].lhs[i], state, r);
	}
	r->func_used[f] = 1;
	r->order[r->norder++] = f;
}

static void add_interval(Interval *dst, Interval iv)
{
	*dst = iv_union(*dst, iv);
}

static void footprint(RangeCtx *c, const HExpr *e, HRegions *r)
{
	if (!e)
		return;
	if (e->kind == HE_CALL) {
		Interval(*reg)[4] = e->is_image ? r->image : r->func;
		for (int i = 0; i < e->nargs; i++)
			add_interval(&reg[e->callee][i], range_of(c, e->args[i]));
	}
	footprint(c, e->a, r);
	footprint(c, e->b, r);
	footprint(c, e->c, r);
	for (int i = 0; i < e->nargs; i++)
		footprint(c, e->args[i], r);
}

/* The pure variables of f over its region (those written on the left of
 * definition d, for an update). */
static void bind_region(RangeCtx *c, const HFunc *fn, const HDef *d, Interval *reg)
{
	for (int i = 0; i < fn->dims; i++)
		range_unset(c, fn->vars[i]);
	for (int i = 0; i < d->nlhs; i++)
		if (d->lhs[i]->kind == HE_VAR && c->p->syms.data[d->lhs[i]->sym].kind == SYM_VAR)
			range_set(c, d->lhs[i]->sym, reg[i]);
}

static int check_bounded(const HProgram *p, HRegions *r, Diags *d)
{
	int ok = 1;
	for (int f = 0; f < r->nfuncs; f++)
		for (int i = 0; r->func_used[f] && i < p->funcs.data[f].dims; i++) {
			Interval iv = r->func[f][i];
			if (iv.hi - iv.lo >= (1 << 24)) {
				const HFunc *fn = &p->funcs.data[f];
				diag_error(d, p->file, fn->line, fn->col,
					   "cannot bound the region of '%s' read in dimension %d ([%lld, %lld]): "
					   "clamp the index", fn->name, i, (long long)iv.lo, (long long)iv.hi);
				ok = 0;
			}
		}
	for (int m = 0; m < r->nimages; m++)
		for (int i = 0; r->image_used[m] && i < p->images.data[m].dims; i++) {
			const HImage *im = &p->images.data[m];
			Interval iv = r->image[m][i];
			if (iv.lo < 0 || iv.hi >= (1 << 16)) {
				diag_error(d, p->file, im->line, im->col,
					   "the program reads '%s' over [%lld, %lld] in dimension %d; an input image "
					   "covers 0 to 65535", im->name, (long long)iv.lo, (long long)iv.hi, i);
				ok = 0;
			}
		}
	return ok;
}

int hli_regions(const HProgram *p, HRegions *r, Diags *d)
{
	memset(r, 0, sizeof *r);
	r->nfuncs = p->funcs.len;
	r->nimages = p->images.len;
	size_t nf = (size_t)(r->nfuncs ? r->nfuncs : 1), ni = (size_t)(r->nimages ? r->nimages : 1);
	r->func = xcalloc(nf, sizeof *r->func);
	r->image = xcalloc(ni, sizeof *r->image);
	r->func_used = xcalloc(nf, 1);
	r->image_used = xcalloc(ni, 1);
	r->order = xcalloc(nf, sizeof *r->order);
	for (size_t f = 0; f < nf; f++)
		for (int i = 0; i < 4; i++)
			r->func[f][i] = (Interval){ 1, 0 };
	for (size_t m = 0; m < ni; m++)
		for (int i = 0; i < 4; i++)
			r->image[m][i] = (Interval){ 1, 0 };
	char *state = xcalloc(nf, 1);
	visit(p, p->output, state, r);
	free(state);
	const HFunc *out = &p->funcs.data[p->output];
	vec_foreach(&out->bounds, k) {
		const HBound *b = &out->bounds.data[k];
		for (int i = 0; i < out->dims; i++)
			if (out->vars[i] == b->var)
				r->func[p->output][i] = (Interval){ b->min, b->min + b->extent - 1 };
	}
	RangeCtx c;
	range_init(&c, p);
	for (int k = r->norder - 1; k >= 0; k--) {
		int f = r->order[k];
		const HFunc *fn = &p->funcs.data[f];
		/* what the updates write, then (twice, for reads of itself) what
		 * every definition reads */
		for (int pass = 0; pass < 3; pass++)
			vec_foreach(&fn->defs, j) {
				const HDef *df = &fn->defs.data[j];
				bind_region(&c, fn, df, r->func[f]);
				if (pass == 0) {
					for (int i = 0; df->update && i < df->nlhs; i++)
						add_interval(&r->func[f][i], range_of(&c, df->lhs[i]));
				} else {
					footprint(&c, df->value, r);
				}
			}
		for (int i = 0; i < fn->dims; i++)
			range_unset(&c, fn->vars[i]);
	}
	range_free(&c);
	if (!check_bounded(p, r, d)) {
		hli_regions_free(r);
		return 0;
	}
	return 1;
}

void hli_regions_free(HRegions *r)
{
	free(r->func);
	free(r->image);
	free(r->func_used);
	free(r->image_used);
	free(r->order);
	memset(r, 0, sizeof *r);
}

/* ---- evaluation ---- */

typedef HTable Buf;

typedef struct Interp {
	const HProgram *p;
	Buf *funcs;
	const Image *images;
	int64_t *env;           /* per symbol */
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
	if (!v)
		ICE("interpreter: %s read outside its region", I->p->funcs.data[e->callee].name);
	return *v;
}

static int64_t eval_sum(Interp *I, const HExpr *e)
{
	const HRDom *r = &I->p->rdoms.data[e->rdom];
	int64_t pt[4], acc = 0, saved[4];
	for (int i = 0; i < r->ndims; i++)
		saved[i] = I->env[r->sym[i]];
	hrdom_first(r, pt);
	do {
		for (int i = 0; i < r->ndims; i++)
			I->env[r->sym[i]] = pt[i];
		acc = ht_wrap(e->type, acc + eval(I, e->a));
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
	case HE_CAST: return ht_wrap(e->type, eval(I, e->a));
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

static int check_inputs(const HProgram *p, const HRegions *r, const Image *inputs, Diags *d)
{
	int ok = 1;
	for (int m = 0; m < p->images.len; m++) {
		const HImage *im = &p->images.data[m];
		if (!r->image_used[m])
			continue;
		if (inputs[m].dims != im->dims) {
			diag_error(d, p->file, im->line, im->col, "the input image for '%s' has %d dimensions, not %d",
				   im->name, inputs[m].dims, im->dims);
			ok = 0;
			continue;
		}
		for (int i = 0; i < im->dims; i++)
			if (r->image[m][i].hi >= inputs[m].extent[i]) {
				diag_error(d, p->file, im->line, im->col,
					   "the input image for '%s' is %d wide in dimension %d; the program reads it up to %lld",
					   im->name, inputs[m].extent[i], i, (long long)r->image[m][i].hi);
				ok = 0;
			}
	}
	return ok;
}

static int output_image(const HProgram *p, Buf *b, Image *out, Diags *d)
{
	const HFunc *fn = &p->funcs.data[p->output];
	if (fn->type.bits > 16) {
		diag_error(d, p->file, fn->line, fn->col,
			   "the output '%s' has type %s; images hold 16-bit values (cast it)", fn->name,
			   ht_name(fn->type));
		return 0;
	}
	memset(out, 0, sizeof *out);
	out->dims = b->dims;
	for (int i = 0; i < b->dims; i++)
		out->extent[i] = (int)b->extent[i];
	image_alloc(out);
	for (long i = 0; i < image_size(out); i++)
		out->px[i] = (uint16_t)b->v[i];
	return 1;
}

void hli_const_tables(const HProgram *p, const HRegions *r, const char *is_const, HTable *tables)
{
	Interp I = { p, tables, NULL, NULL };
	I.env = xcalloc((size_t)(p->syms.len ? p->syms.len : 1), sizeof *I.env);
	for (int k = 0; k < r->norder; k++)
		if (is_const[r->order[k]])
			realize(&I, r->order[k], r->func[r->order[k]]);
	free(I.env);
}

int hli_run(const HProgram *p, const Image *inputs, Image *out, Diags *d)
{
	HRegions r;
	if (!hli_regions(p, &r, d))
		return 0;
	if (!check_inputs(p, &r, inputs, d)) {
		hli_regions_free(&r);
		return 0;
	}
	Interp I = { p, NULL, inputs, NULL };
	I.funcs = xcalloc((size_t)(p->funcs.len ? p->funcs.len : 1), sizeof *I.funcs);
	I.env = xcalloc((size_t)(p->syms.len ? p->syms.len : 1), sizeof *I.env);
	for (int k = 0; k < r.norder; k++)
		realize(&I, r.order[k], r.func[r.order[k]]);
	int ok = output_image(p, &I.funcs[p->output], out, d);
	for (int f = 0; f < p->funcs.len; f++)
		free(I.funcs[f].v);
	free(I.funcs);
	free(I.env);
	hli_regions_free(&r);
	return ok;
}
