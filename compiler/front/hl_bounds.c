/* hl_bounds.c - bounds inference (front.h): the region of every Func the
 * output needs and the part of each input image that is read.
 *
 * The output's region is its bounds; walking the Funcs from consumers to
 * producers, every call in a consumer's definitions, with the consumer's pure
 * variables over its region and reduction variables over their domains, adds
 * the intervals of its arguments to the callee's region; a Func's region also
 * covers what its updates write. The interpreter, the preparation for
 * lowering and the input generator all start from it. */
#include <math.h>
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

/* An image whose size is declared (set_bounds) is that size, and the program
 * must read it only there: Halide stops a pipeline that reads outside the
 * declared bounds when it runs (a boundary condition's explicit bounds beyond
 * the image, say); here that is an error at compile time. */
static int check_declared(const HProgram *p, HRegions *r, Diags *d)
{
	int ok = 1;
	for (int m = 0; m < r->nimages; m++)
		for (int i = 0; r->image_used[m] && i < p->images.data[m].dims; i++) {
			const HImage *im = &p->images.data[m];
			Interval iv = r->image[m][i];
			if (!im->extent[i])
				continue;
			if (iv.lo <= iv.hi && (iv.lo < 0 || iv.hi >= im->extent[i])) {
				diag_error(d, p->file, im->line, im->col,
					   "the program reads '%s' over [%lld, %lld] in dimension %d, outside its "
					   "declared bounds 0 to %lld (Halide stops such a pipeline when it runs)",
					   im->name, (long long)iv.lo, (long long)iv.hi, i, (long long)im->extent[i] - 1);
				ok = 0;
			}
			r->image[m][i] = (Interval){ 0, im->extent[i] - 1 };
		}
	return ok;
}

/* The points of a region of dims dimensions (0 if empty), saturated above
 * HL_MAX_POINTS. */
static int64_t points(const Interval *reg, int dims)
{
	int64_t n = 1;
	for (int i = 0; i < dims; i++) {
		if (reg[i].lo > reg[i].hi)
			return 0;
		n *= reg[i].hi - reg[i].lo + 1;         /* each factor below 2^24 here */
		if (n > HL_MAX_POINTS)
			return HL_MAX_POINTS + 1;
	}
	return n;
}

/* The error for a region of more than HL_MAX_POINTS points; 0. */
static int too_many_points(const HProgram *p, Diags *d, int line, int col, const char *what, const char *name,
			   const Interval *reg, int dims)
{
	StrBuf b = { 0 };
	for (int i = 0; i < dims; i++)
		sb_printf(&b, "%s%lld", i ? " x " : "", (long long)(reg[i].hi - reg[i].lo + 1));
	diag_error(d, p->file, line, col, "%s '%s' is %s points; at most %d (2^24) are allowed: bound or clamp "
		   "what reads it", what, name, b.s, HL_MAX_POINTS);
	free(b.s);
	return 0;
}

static double rdom_points(const HProgram *p, int rd)
{
	double n = 1;
	for (int i = 0; rd >= 0 && i < p->rdoms.data[rd].ndims; i++)
		n *= (double)p->rdoms.data[rd].extent[i];
	return n;
}

/* How many times an evaluation of e evaluates its innermost operation:
 * the points of the inline reductions it nests. */
static double eval_factor(const HProgram *p, const HExpr *e)
{
	if (!e)
		return 1;
	double k = eval_factor(p, e->a);
	k = fmax(k, eval_factor(p, e->b));
	k = fmax(k, eval_factor(p, e->c));
	for (int i = 0; i < e->nargs; i++)
		k = fmax(k, eval_factor(p, e->args[i]));
	return e->kind == HE_SUM ? rdom_points(p, e->rdom) * k : k;
}

/* The evaluations of definitions that computing every Func's region takes
 * (an upper bound: an update over its Func's whole region). */
static double work(const HProgram *p, const HRegions *r)
{
	double w = 0;
	for (int f = 0; f < r->nfuncs; f++) {
		const HFunc *fn = &p->funcs.data[f];
		if (!r->func_used[f])
			continue;
		double pts = (double)points(r->func[f], fn->dims);
		vec_foreach(&fn->defs, k) {
			const HDef *df = &fn->defs.data[k];
			w += pts * rdom_points(p, he_def_rdom(p, df)) * eval_factor(p, df->value);
		}
	}
	return w;
}

/* The output and the Funcs the host streams are images: 8- or 16-bit
 * integers. */
static int check_image_types(const HProgram *p, const HRegions *r, Diags *d)
{
	int ok = 1;
	for (int f = 0; f < r->nfuncs; f++) {
		const HFunc *fn = &p->funcs.data[f];
		if ((f != p->output && !(fn->streamed && r->func_used[f])) ||
		    (!ht_is_bool(fn->type) && !ht_is_float(fn->type) && fn->type.bits <= 16))
			continue;
		diag_error(d, p->file, fn->line, fn->col, "%s '%s' has type %s; images hold 8- or 16-bit integers "
			   "(cast it: u8(...) or u16(...))", f == p->output ? "the output" : "the streamed Func",
			   fn->name, ht_name(fn->type));
		ok = 0;
	}
	return ok;
}

static int check_bounded(const HProgram *p, HRegions *r, Diags *d)
{
	int ok = check_image_types(p, r, d);
	for (int f = 0; f < r->nfuncs; f++) {
		const HFunc *fn = &p->funcs.data[f];
		int dims_ok = 1;
		for (int i = 0; r->func_used[f] && i < fn->dims; i++) {
			Interval iv = r->func[f][i];
			if (iv.hi - iv.lo >= (1 << 24)) {
				diag_error(d, p->file, fn->line, fn->col,
					   "cannot bound the region of '%s' read in dimension %d ([%lld, %lld]): "
					   "clamp the index", fn->name, i, (long long)iv.lo, (long long)iv.hi);
				ok = dims_ok = 0;
			}
		}
		if (dims_ok && r->func_used[f] && points(r->func[f], fn->dims) > HL_MAX_POINTS)
			ok = too_many_points(p, d, fn->line, fn->col, "the region of", fn->name, r->func[f], fn->dims);
	}
	for (int m = 0; m < r->nimages; m++) {
		const HImage *im = &p->images.data[m];
		int dims_ok = 1;
		for (int i = 0; r->image_used[m] && i < im->dims; i++) {
			Interval iv = r->image[m][i];
			if (iv.lo < 0 || iv.hi >= (1 << 16)) {
				diag_error(d, p->file, im->line, im->col,
					   "the program reads '%s' over [%lld, %lld] in dimension %d; an input image "
					   "covers 0 to 65535", im->name, (long long)iv.lo, (long long)iv.hi, i);
				ok = dims_ok = 0;
			}
		}
		Interval whole[4];      /* an image starts at 0 */
		for (int i = 0; i < im->dims && i < 4; i++)
			whole[i] = (Interval){ 0, r->image[m][i].hi };
		if (dims_ok && r->image_used[m] && points(whole, im->dims) > HL_MAX_POINTS)
			ok = too_many_points(p, d, im->line, im->col, "the input image", im->name, whole, im->dims);
	}
	double w = ok ? work(p, r) : 0;
	if (w > HL_MAX_WORK) {
		const HFunc *out = &p->funcs.data[p->output];
		diag_error(d, p->file, out->line, out->col,
			   "computing '%s' evaluates definitions about %.3g times (regions times reduction domains); "
			   "at most %.3g are allowed: bound the output or the reductions", out->name, w,
			   (double)HL_MAX_WORK);
		ok = 0;
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
	if (!ok || !check_declared(p, r, d) || !check_bounded(p, r, d)) {
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
