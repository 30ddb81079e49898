/* hl_bounds.c - bounds inference (front.h): the region of every Func the
 * output needs and the part of each input image that is read.
 *
 * The output's region is its bounds; walking the Funcs from consumers to
 * producers, every call in a consumer's definitions, with the consumer's pure
 * variables over its region and reduction variables over their domains, adds
 * the intervals of its arguments to the callee's region; a Func's region also
 * covers what its updates write. The interpreter, the preparation for
 * lowering and the input generator all start from it. */
#include <stdlib.h>
#include <string.h>

#include "front.h"

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

/* Halide's Func::bound on a Func other than the output: its region is the
 * bound, and a read or update beyond it is an error (Halide stops such a
 * pipeline when it runs). 0 with the error in d. */
static int apply_bounds(const HProgram *p, int f, HRegions *r, Diags *d)
{
	const HFunc *fn = &p->funcs.data[f];
	vec_foreach(&fn->bounds, k) {
		const HBound *b = &fn->bounds.data[k];
		for (int i = 0; i < fn->dims; i++) {
			if (fn->vars[i] != b->var)
				continue;
			Interval *iv = &r->func[f][i], want = { b->min, b->min + b->extent - 1 };
			if (iv->lo <= iv->hi && (iv->lo < want.lo || iv->hi > want.hi)) {
				diag_error(d, p->file, b->line, b->col,
					   "'%s' is needed over [%lld, %lld] in '%s', beyond its bound() [%lld, %lld] "
					   "(Halide stops such a pipeline with an error)", fn->name, (long long)iv->lo,
					   (long long)iv->hi, p->syms.data[b->var].name, (long long)want.lo,
					   (long long)want.hi);
				return 0;
			}
			*iv = want;
		}
	}
	return 1;
}

/* Halide's TailStrategy::RoundUp on a split of a pure variable of a Func
 * that is computed (not inlined): its region grows to a multiple of the
 * factor, and its producers are needed over the larger region. */
int64_t hl_rounded_extent(const HFunc *fn, int dim, int64_t extent)
{
	vec_foreach(&fn->defs, j) vec_foreach(&fn->defs.data[j].sched.splits, k) {
		const HSplit *sp = &fn->defs.data[j].sched.splits.data[k];
		if (sp->tail && !strcmp(sp->tail, "RoundUp") && sp->old == fn->vars[dim] && extent % sp->factor)
			extent += sp->factor - extent % sp->factor;
	}
	return extent;
}

static void round_up_splits(const HProgram *p, int f, HRegions *r)
{
	const HFunc *fn = &p->funcs.data[f];
	if (f == p->output || fn->compute.kind == LEVEL_INLINE)
		return;
	for (int i = 0; i < fn->dims; i++) {
		Interval *iv = &r->func[f][i];
		if (iv->lo <= iv->hi)
			iv->hi = iv->lo + hl_rounded_extent(fn, i, iv->hi - iv->lo + 1) - 1;
	}
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

int hl_bounds(const HProgram *p, HRegions *r, Diags *d)
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
	int ok = 1;
	for (int k = r->norder - 1; ok && k >= 0; k--) {
		int f = r->order[k];
		const HFunc *fn = &p->funcs.data[f];
		if (f != p->output && !(ok = apply_bounds(p, f, r, d)))
			break;
		round_up_splits(p, f, r);
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
		if (f != p->output)
			ok = apply_bounds(p, f, r, d);
	}
	range_free(&c);
	/* an image whose size is declared (set_bounds) is that size */
	for (int m = 0; m < r->nimages; m++)
		for (int i = 0; r->image_used[m] && i < p->images.data[m].dims; i++)
			if (p->images.data[m].extent[i])
				r->image[m][i] = (Interval){ 0, p->images.data[m].extent[i] - 1 };
	if (!ok || !check_bounded(p, r, d)) {
		hl_bounds_free(r);
		return 0;
	}
	return 1;
}

void hl_bounds_free(HRegions *r)
{
	free(r->func);
	free(r->image);
	free(r->func_used);
	free(r->image_used);
	free(r->order);
	memset(r, 0, sizeof *r);
}

const char *hl_region_ext(int dims, const Interval *region, int from_zero)
{
	int ext[4] = { 1, 1, 1, 1 };
	for (int i = 0; i < dims && i < 4; i++)
		ext[i] = (int)(region[i].hi + 1 - (from_zero ? 0 : region[i].lo));
	return image_ext(dims, ext);
}
