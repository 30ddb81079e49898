/* hl_prep.c - constant tables, inlining and reduction fusion (hl_prep.h). */
#include <stdlib.h>
#include <string.h>

#include "lower.h"
#include "../front/front.h"

static HExpr *flat(HPrep *P, const HExpr *e);

/* ---- constant Funcs ---- */

static int reads_only_constants(HPrep *P, const HExpr *e, int self)
{
	if (!e)
		return 1;
	if (e->kind == HE_CALL && (e->is_image || (e->callee != self && !P->is_const[e->callee])))
		return 0;
	if (!reads_only_constants(P, e->a, self) || !reads_only_constants(P, e->b, self) ||
	    !reads_only_constants(P, e->c, self))
		return 0;
	for (int i = 0; i < e->nargs; i++)
		if (!reads_only_constants(P, e->args[i], self))
			return 0;
	return 1;
}

static void find_constants(HPrep *P)
{
	const HProgram *p = P->p;
	for (int k = 0; k < P->reg.norder; k++) {
		int f = P->reg.order[k];
		const HFunc *fn = &p->funcs.data[f];
		int c = f != p->output;
		vec_foreach(&fn->defs, j) {
			const HDef *d = &fn->defs.data[j];
			c = c && reads_only_constants(P, d->value, f);
			for (int i = 0; i < d->nlhs; i++)
				c = c && reads_only_constants(P, d->lhs[i], f);
		}
		P->is_const[f] = (char)c;
	}
}

static HExpr *table_value(HPrep *P, const HExpr *call)
{
	int64_t idx[4];
	for (int i = 0; i < call->nargs; i++)
		if (!he_is_const(call->args[i], &idx[i]))
			return NULL;
	int64_t *v = htable_at(&P->tables[call->callee], idx);
	if (!v)
		ICE("constant table %s read outside its region", P->p->funcs.data[call->callee].name);
	HExpr *c = he_const(P->p->arena, call->type, *v);
	c->line = call->line;
	c->col = call->col;
	return c;
}

static HExpr *fold_call(Arena *a, const HExpr *call, const HSubst *s)
{
	HPrep *P = s->ctx;
	if (call->is_image || !P->is_const[call->callee])
		return NULL;
	HExpr *c = he_copy(a, call);
	c->args = arena_alloc(a, sizeof *c->args * (size_t)call->nargs);
	for (int i = 0; i < call->nargs; i++)
		c->args[i] = hs_subst(a, call->args[i], s);
	he_set_depth(c);
	HExpr *v = table_value(P, c);
	return v ? v : c;
}

HExpr *hp_fold_tables(HPrep *P, HExpr *e)
{
	HSubst s = { NULL, NULL, 0, fold_call, P };
	return hs_subst(P->p->arena, e, &s);
}

/* ---- reductions ---- */

/* Each point of RDom r, r.x fastest: calls fn(P, ctx, vals). */
static void for_each_point(HPrep *P, int rd, void (*fn)(HPrep *, void *, HExpr **), void *ctx)
{
	const HRDom *r = &P->p->rdoms.data[rd];
	int64_t pt[4];
	HExpr *vals[4];
	hrdom_first(r, pt);
	do {
		for (int i = 0; i < r->ndims; i++)
			vals[i] = he_const(P->p->arena, HT_I32, pt[i]);
		fn(P, ctx, vals);
	} while (hrdom_next(r, pt));
}

typedef struct Terms {
	const HExpr *body;
	int rd;
	VEC(HExpr *) v;
} Terms;

static void add_term(HPrep *P, void *ctx, HExpr **vals)
{
	Terms *t = ctx;
	const HRDom *r = &P->p->rdoms.data[t->rd];
	HSubst s = { r->sym, vals, r->ndims, NULL, NULL };
	if (!P->failed)
		vec_push(&t->v, flat(P, hs_subst(P->p->arena, t->body, &s)));
}

static HExpr *expand_sum(HPrep *P, const HExpr *e)
{
	Terms t = { e->a, e->rdom, { 0 } };
	for_each_point(P, e->rdom, add_term, &t);
	HExpr *r = P->failed ? NULL
		   : e->op == HB_ADD ? hs_balance_sum(P->p->arena, e->type, t.v.data, t.v.len)
				     : hs_simplify(P->p->arena, hs_balance(P->p->arena, (HBinOp)e->op, e->type, t.v.data,
								       t.v.len));
	vec_free(&t.v);
	return r;
}

/* ---- flattening ---- */

static HExpr *inline_def(HPrep *P, int g, const HExpr *at);

static HExpr *flat_call(HPrep *P, const HExpr *e)
{
	Arena *a = P->p->arena;
	HExpr *c = he_copy(a, e);
	c->args = arena_alloc(a, sizeof *c->args * (size_t)(e->nargs ? e->nargs : 1));
	for (int i = 0; i < e->nargs; i++)
		if (!(c->args[i] = flat(P, e->args[i])))
			return NULL;
	he_set_depth(c);
	if (e->is_image || P->stored[e->callee])
		return c;
	if (P->is_const[e->callee]) {
		HExpr *v = table_value(P, c);
		if (v)
			return v;
		P->rom[e->callee] = 1;
		return c;
	}
	const HFunc *g = &P->p->funcs.data[e->callee];
	HExpr *body = inline_def(P, e->callee, e);
	if (!body)
		return NULL;
	HSubst s = { g->vars, c->args, g->dims, NULL, NULL };
	return hs_subst(a, body, &s);
}

/* The stored Func being flattened is too deep (once). */
static void too_deep(HPrep *P, int large)
{
	const HFunc *fn = &P->p->funcs.data[P->at_func];
	const HDef *d = &fn->defs.data[P->at_def];
	diag_error(P->d, P->p->file, d->line, d->col,
		   "'%s' is %s than %d operations once the Funcs it calls are inlined and its reductions "
		   "unrolled: store some of those Funcs (compute_root or compute_at) or unroll less",
		   fn->name, large ? "larger" : "deeper", large ? HL_MAX_SIZE : HL_MAX_DEPTH);
	P->failed = 1;
}

static HExpr *flat_node(HPrep *P, const HExpr *e);

/* e with inlined Funcs substituted, constant tables folded and sums
 * expanded; NULL after an error. The recursion (through the Funcs inlined
 * into each other) and the result are bounded, so that neither this nor
 * the later passes can run out of stack. */
static HExpr *flat(HPrep *P, const HExpr *e)
{
	if (!e || P->failed)
		return NULL;
	if (++P->nesting > 4 * HL_MAX_DEPTH) {
		P->nesting--;
		too_deep(P, 0);
		return NULL;
	}
	HExpr *r = flat_node(P, e);
	P->nesting--;
	if (!r) {
		P->failed = 1;
		return NULL;
	}
	if (r->depth > HL_MAX_DEPTH || r->size > HL_MAX_SIZE) {
		too_deep(P, r->depth <= HL_MAX_DEPTH);
		return NULL;
	}
	return r;
}

static HExpr *flat_node(HPrep *P, const HExpr *e)
{
	switch (e->kind) {
	case HE_CONST:
	case HE_VAR:
		return (HExpr *)e;
	case HE_CALL:
		return flat_call(P, e);
	case HE_SUM:
		return expand_sum(P, e);
	default:
		break;
	}
	HExpr *c = he_copy(P->p->arena, e);
	c->a = flat(P, e->a);
	c->b = e->b ? flat(P, e->b) : NULL;
	c->c = e->c ? flat(P, e->c) : NULL;
	if (!c->a || (e->b && !c->b) || (e->c && !c->c))
		return NULL;
	he_set_depth(c);
	return hs_simplify(P->p->arena, c);
}

/* 1 if update d of f writes f at its pure variables (in order) and reads f
 * only there: it can be folded into the pure definition point by point. */
static int pure_update(const HFunc *fn, int f, const HDef *d);

static int self_reads_pure(const HFunc *fn, int f, const HExpr *e)
{
	if (!e)
		return 1;
	if (e->kind == HE_CALL && !e->is_image && e->callee == f) {
		for (int i = 0; i < e->nargs; i++)
			if (e->args[i]->kind != HE_VAR || e->args[i]->sym != fn->vars[i])
				return 0;
		return 1;
	}
	if (!self_reads_pure(fn, f, e->a) || !self_reads_pure(fn, f, e->b) || !self_reads_pure(fn, f, e->c))
		return 0;
	for (int i = 0; i < e->nargs; i++)
		if (!self_reads_pure(fn, f, e->args[i]))
			return 0;
	return 1;
}

static int pure_update(const HFunc *fn, int f, const HDef *d)
{
	for (int i = 0; i < d->nlhs; i++)
		if (d->lhs[i]->kind != HE_VAR || d->lhs[i]->sym != fn->vars[i])
			return 0;
	return self_reads_pure(fn, f, d->value);
}

typedef struct Fold {
	int f;
	const HFunc *fn;
	const HDef *d;
	HExpr *acc;             /* the value so far */
	const HExpr *term;      /* f(vars) + term: the added term, else NULL */
	VEC(HExpr *) terms;
} Fold;

static HExpr *self_to_acc(Arena *a, const HExpr *call, const HSubst *s)
{
	(void)a;
	Fold *F = s->ctx;
	if (!call->is_image && call->callee == F->f)
		return F->acc;
	return NULL;
}

static void fold_point(HPrep *P, void *ctx, HExpr **vals)
{
	Fold *F = ctx;
	int rd = he_def_rdom(P->p, F->d);
	const HRDom *r = &P->p->rdoms.data[rd];
	HSubst s = { r->sym, vals, r->ndims, NULL, NULL };
	if (P->failed)
		return;
	if (F->term) {
		vec_push(&F->terms, flat(P, hs_subst(P->p->arena, F->term, &s)));
		return;
	}
	HSubst self = { r->sym, vals, r->ndims, self_to_acc, F };
	F->acc = flat(P, hs_subst(P->p->arena, F->d->value, &self));
}

static const HExpr *added_term(int f, const HExpr *v)
{
	if (v->kind != HE_BIN || v->op != HB_ADD)
		return NULL;
	if (v->a->kind == HE_CALL && !v->a->is_image && v->a->callee == f)
		return v->b;
	if (v->b->kind == HE_CALL && !v->b->is_image && v->b->callee == f)
		return v->a;
	return NULL;
}

/* The updates of f folded into its pure definition: one expression. */
static HExpr *fuse(HPrep *P, int f)
{
	const HFunc *fn = &P->p->funcs.data[f];
	HExpr *acc = flat(P, fn->defs.data[0].value);
	for (int k = 1; acc && k < fn->defs.len; k++) {
		const HDef *d = &fn->defs.data[k];
		if (f == P->at_func)
			P->at_def = k;  /* an error is this update's */
		Fold F = { f, fn, d, acc, NULL, { 0 } };
		int rd = he_def_rdom(P->p, d);
		if (rd < 0) {
			HSubst self = { NULL, NULL, 0, self_to_acc, &F };
			acc = flat(P, hs_subst(P->p->arena, d->value, &self));
			continue;
		}
		F.term = added_term(f, d->value);
		if (F.term && he_calls(F.term, f))
			F.term = NULL;
		for_each_point(P, rd, fold_point, &F);
		if (P->failed) {
			vec_free(&F.terms);
			return NULL;
		}
		if (F.term) {
			vec_push(&F.terms, acc);
			acc = hs_balance_sum(P->p->arena, fn->type, F.terms.data, F.terms.len);
			vec_free(&F.terms);
		} else {
			acc = F.acc;
		}
	}
	return acc;
}

/* 1 if loop sym of stage schedule s is unrolled, or is the outer loop of a
 * split whose inner loop is (a partial unroll: unroll(r.x, 2) of an extent
 * of 3 or more). */
static int unrolled_loop(const HStageSched *s, int sym)
{
	for (int i = 0; i < s->dims.len; i++)
		if (s->dims.data[i] == sym && s->unrolled.data[i])
			return 1;
	vec_foreach(&s->splits, j) if (s->splits.data[j].outer == sym && unrolled_loop(s, s->splits.data[j].inner))
		return 1;
	return 0;
}

/* With need_unrolled: every update's reduction loops unrolled, fully or
 * partly. A partial unroll is expanded whole: the array computes every point
 * of a reduction in space, and the fold keeps Halide's order (the split
 * leaves r.x's order as it is), so the values are Halide's; the unrolled part
 * is the parallel trees the schedule asks for, the rest their residue. The
 * splits and unrolls of an update's pure variables (update().unroll(x, 2))
 * do not stand in the way: fused, the update is computed in the pure
 * definition's loops. */
static int updates_fusable(HPrep *P, int f, int need_unrolled)
{
	const HFunc *fn = &P->p->funcs.data[f];
	for (int k = 1; k < fn->defs.len; k++) {
		const HDef *d = &fn->defs.data[k];
		if (!pure_update(fn, f, d))
			return 0;
		if (!need_unrolled)
			continue;
		for (int i = 0; i < d->sched.dims.len; i++)
			if (P->p->syms.data[d->sched.dims.data[i]].kind == SYM_RVAR &&
			    !unrolled_loop(&d->sched, d->sched.dims.data[i]))
				return 0;
		vec_foreach(&d->sched.splits, j) {
			const HSplit *sp = &d->sched.splits.data[j];
			if (P->p->syms.data[sp->old].kind == SYM_RVAR && !unrolled_loop(&d->sched, sp->inner))
				return 0;
		}
	}
	return 1;
}

static HExpr *inline_def(HPrep *P, int g, const HExpr *at)
{
	const HFunc *fn = &P->p->funcs.data[g];
	if (P->inline_state[g] == 2)
		return P->inlined[g];
	if (P->inline_state[g] == 1)
		ICE("inlining %s: a cycle", fn->name);
	if (!updates_fusable(P, g, 0)) {
		diag_error(P->d, P->p->file, at->line, at->col,
			   "'%s' has an update definition that is not a pure reduction (it writes or reads "
			   "other points of '%s'), so it cannot be inlined here: schedule it with compute_at",
			   fn->name, fn->name);
		return NULL;
	}
	P->inline_state[g] = 1;
	HExpr *v = fuse(P, g);
	P->inline_state[g] = 2;
	P->inlined[g] = v;
	return v;
}

/* 1 if update d of f is f(vars) + term, term not reading f, in an integer
 * type: its terms may be added in any order (a wrapping sum); a float sum
 * keeps Halide's order. */
static int sum_of_terms(HPrep *P, int f, const HDef *d)
{
	const HExpr *term = added_term(f, d->value);
	return term && !he_calls(term, f) && !ht_is_float(P->p->funcs.data[f].type);
}

/* The RDom index of loop sym in r, or -1. */
static int rvar_index(const HRDom *r, int sym)
{
	for (int j = 0; j < r->ndims; j++)
		if (r->sym[j] == sym)
			return j;
	return -1;
}

/* With a reduction kept in time (one pure update over an RDom, some of its
 * RVars in time and the rest unrolled, none split; the RVars in time keep
 * their order, r.x the fastest, as Halide runs them; the steps are numbered
 * in that order): each step folds the unrolled RVars' points in one
 * expression (a balanced tree for f(vars) + term; in Halide's order
 * otherwise, which asks the unrolled RVars to be the innermost ones), and the
 * self-read f(vars) becomes
 * select(every RVar in time at its minimum, init(vars), f(vars)), so that the
 * update alone computes f and each point is written once per reduction step
 * (the buffers give it a version per step, ubuf.h). The update's pure
 * variables may be unrolled: each copy is a reduction of its own. Sets
 * *unrolled to the mask of the unrolled RVars. */
static int kept_in_time(HPrep *P, int f, unsigned *unrolled)
{
	const HFunc *fn = &P->p->funcs.data[f];
	if (fn->defs.len != 2 || !pure_update(fn, f, &fn->defs.data[1]))
		return 0;
	const HDef *d = &fn->defs.data[1];
	if (he_def_rdom(P->p, d) < 0 || d->sched.splits.len)
		return 0;
	const HRDom *r = &P->p->rdoms.data[he_def_rdom(P->p, d)];
	int additive = sum_of_terms(P, f, d);
	unsigned mask = 0;
	int last = -1, last_unrolled = -1, kept = 0, in_order = 1;
	for (int i = 0; i < d->sched.dims.len; i++) {
		int j = rvar_index(r, d->sched.dims.data[i]);
		if (j < 0)
			continue;
		if (d->sched.unrolled.data[i]) {
			mask |= 1u << j;
			/* innermost first: unrolled ones before those in time, in their order */
			in_order &= !kept && j > last_unrolled;
			last_unrolled = j;
			continue;
		}
		if (j < last)
			return 0;
		last = j;
		kept++;
	}
	if (!kept)
		return 0;
	/* a fold other than an integer sum keeps Halide's order only with the
	 * unrolled RVars innermost, in their order, and r.x the first of them */
	if (!additive && (!in_order || (mask & (mask + 1))))
		return 0;
	*unrolled = mask;
	return 1;
}

/* An update whose RVars are each split at most once, the inner loop unrolled
 * (update().unroll(r.z, 2) beside RVars in time), gets an RDom of its own in
 * which each split RVar is two, its inner part first (r.z = r.z.min +
 * r'.zi + 2 * r'.zo): the same points in the same order (r.x fastest), so the
 * unrolled part folds into each step as a fully unrolled RVar does and the
 * outer part stays in time. Returns 1 if the update has no split or was so
 * rewritten, 0 if its splits are not of that form (left as they were). */
static int split_rvars(HPrep *P, int f)
{
	HProgram *p = P->p;
	HDef *d = &p->funcs.data[f].defs.data[1];
	int rd = he_def_rdom(p, d);
	if (!d->sched.splits.len)
		return 1;
	if (rd < 0)
		return 0;
	HRDom r = p->rdoms.data[rd];    /* a copy: the RDoms grow below */
	int split[4] = { -1, -1, -1, -1 };      /* per RVar, its split */
	int n = r.ndims;
	vec_foreach(&d->sched.splits, k) {
		const HSplit *sp = &d->sched.splits.data[k];
		int j = rvar_index(&r, sp->old), in = -1, out = -1;
		for (int i = 0; i < d->sched.dims.len; i++) {
			in = d->sched.dims.data[i] == sp->inner ? i : in;
			out = d->sched.dims.data[i] == sp->outer ? i : out;
		}
		if (j < 0 || split[j] >= 0 || in < 0 || out < 0 || !d->sched.unrolled.data[in] ||
		    d->sched.unrolled.data[out] || sp->factor < 1 || r.extent[j] % sp->factor || n == 4)
			return 0;
		split[j] = k;
		n++;
	}
	/* the new RDom: per RVar its inner part (or itself), then its outer part */
	HRDom r2 = { arena_printf(p->arena, "%s.split", r.name), n, { 0 }, { 0 }, { 0 }, r.line, r.col };
	int rd2 = p->rdoms.len, k2 = 0;
	int inner_of[4], outer_of[4];
	HExpr *val[4];
	Arena *a = p->arena;
	for (int j = 0; j < r.ndims; j++) {
		const HSplit *sp = split[j] >= 0 ? &d->sched.splits.data[split[j]] : NULL;
		int parts = sp ? 2 : 1;
		for (int q = 0; q < parts; q++) {
			int of = !sp ? r.sym[j] : q == 0 ? sp->inner : sp->outer;
			HSym sym = { SYM_RVAR, p->syms.data[of].name, rd2, k2, r.line, r.col };
			r2.sym[k2] = p->syms.len;
			r2.min[k2] = sp ? 0 : r.min[j];
			r2.extent[k2] = !sp ? r.extent[j] : q == 0 ? sp->factor : r.extent[j] / sp->factor;
			vec_push(&p->syms, sym);
			k2++;
		}
		inner_of[j] = r2.sym[k2 - parts];
		outer_of[j] = r2.sym[k2 - 1];
		val[j] = !sp ? he_var(a, inner_of[j])
			     : he_bin(a, HB_ADD, HT_I32, he_const(a, HT_I32, r.min[j]),
				      he_bin(a, HB_ADD, HT_I32, he_var(a, inner_of[j]),
					     he_bin(a, HB_MUL, HT_I32, he_var(a, outer_of[j]),
						    he_const(a, HT_I32, sp->factor))));
	}
	vec_push(&p->rdoms, r2);
	HSubst sub = { r.sym, val, r.ndims, NULL, NULL };
	d->value = hs_subst(a, d->value, &sub);
	/* the loops: the RVars' and the splits' symbols become the new RDom's */
	for (int i = 0; i < d->sched.dims.len; i++) {
		int sym = d->sched.dims.data[i];
		for (int j = 0; j < r.ndims; j++) {
			const HSplit *sp = split[j] >= 0 ? &d->sched.splits.data[split[j]] : NULL;
			if (sym == (sp ? sp->inner : r.sym[j]))
				d->sched.dims.data[i] = inner_of[j];
			else if (sp && sym == sp->outer)
				d->sched.dims.data[i] = outer_of[j];
		}
	}
	d->sched.splits.len = 0;
	return 1;
}

typedef struct FirstStep {
	int f;
	HExpr *first;           /* the reduction at its first point */
	HExpr *init;            /* the pure definition's value */
} FirstStep;

static HExpr *select_init(Arena *a, const HExpr *call, const HSubst *s)
{
	FirstStep *F = s->ctx;
	if (call->is_image || call->callee != F->f)
		return NULL;
	return he_select(a, F->first, F->init, he_copy(a, call));
}

/* The update's value over one step: its unrolled RVars' points folded. */
static HExpr *fold_unrolled(HPrep *P, int f, const HDef *d, const HRDom *r, unsigned mask)
{
	Arena *a = P->p->arena;
	if (!mask)
		return d->value;
	int sym[4], n = 0;
	int64_t pt[4];
	HExpr *val[4];
	for (int j = 0; j < r->ndims; j++)
		if (mask & 1u << j)
			sym[n++] = r->sym[j];
	const HExpr *term = added_term(f, d->value);
	int additive = sum_of_terms(P, f, d);
	Fold F = { f, &P->p->funcs.data[f], d, NULL, NULL, { 0 } };    /* acc: the value so far */
	hrdom_first(r, pt);
	do {
		int k = 0, first_of_step = 1;
		for (int j = 0; j < r->ndims; j++) {
			if (!(mask & 1u << j))
				continue;
			val[k++] = he_const(a, HT_I32, pt[j]);
		}
		for (int j = 0; j < r->ndims; j++)
			if (!(mask & 1u << j) && pt[j] != r->min[j])
				first_of_step = 0;
		if (!first_of_step)
			continue;       /* one step's points: the RVars in time at their minimum */
		if (additive) {
			HSubst s = { sym, val, n, NULL, NULL };
			vec_push(&F.terms, hs_subst(a, term, &s));
		} else {
			HSubst s = { sym, val, n, F.acc ? self_to_acc : NULL, &F };
			F.acc = hs_subst(a, d->value, &s);
		}
	} while (hrdom_next(r, pt));
	if (!additive)
		return F.acc;
	HType t = P->p->funcs.data[f].type;
	HExpr *sum = hs_balance_sum(a, t, F.terms.data, F.terms.len);
	HExpr *self = term == d->value->b ? d->value->a : d->value->b;
	vec_free(&F.terms);
	return he_bin(a, HB_ADD, t, he_copy(a, self), sum);
}

static int fold_init(HPrep *P, int f, unsigned mask)
{
	HFunc *fn = &P->p->funcs.data[f];
	HDef *d = &fn->defs.data[1];
	Arena *a = P->p->arena;
	const HRDom *r = &P->p->rdoms.data[he_def_rdom(P->p, d)];
	FirstStep F = { f, NULL, flat(P, fn->defs.data[0].value) };
	if (!F.init)
		return 0;
	for (int i = 0; i < r->ndims; i++) {
		if (mask & 1u << i)
			continue;
		HExpr *eq = he_bin(a, HB_EQ, HT_BOOL, he_var(a, r->sym[i]), he_const(a, HT_I32, r->min[i]));
		F.first = F.first ? he_bin(a, HB_LAND, HT_BOOL, F.first, eq) : eq;
	}
	HSubst s = { NULL, NULL, 0, select_init, &F };
	P->at_def = 1;
	HExpr *v = flat(P, hs_subst(a, fold_unrolled(P, f, d, r, mask), &s));
	if (!v)
		return 0;
	d->value = v;
	/* the unrolled RVars are folded: their loops go */
	int k = 0;
	for (int i = 0; i < d->sched.dims.len; i++) {
		int j = rvar_index(r, d->sched.dims.data[i]);
		if (j >= 0 && mask & 1u << j)
			continue;
		d->sched.dims.data[k] = d->sched.dims.data[i];
		d->sched.unrolled.data[k++] = d->sched.unrolled.data[i];
	}
	d->sched.dims.len = d->sched.unrolled.len = k;
	fn->init_in_update = 1;
	return 1;
}

/* Rewrites the definitions of a stored Func. */
static int flatten_stored(HPrep *P, int f)
{
	HFunc *fn = &P->p->funcs.data[f];
	P->at_func = f;
	P->at_def = 0;
	unsigned unrolled = 0;
	if (fn->defs.len > 1 && !updates_fusable(P, f, 1) && kept_in_time(P, f, &unrolled))
		return fold_init(P, f, unrolled);
	if (fn->defs.len == 2 && fn->defs.data[1].sched.splits.len && !updates_fusable(P, f, 1) &&
	    pure_update(fn, f, &fn->defs.data[1]) && split_rvars(P, f)) {
		fn = &P->p->funcs.data[f];
		if (kept_in_time(P, f, &unrolled))
			return fold_init(P, f, unrolled);
	}
	if (fn->defs.len > 1 && updates_fusable(P, f, 1)) {
		HExpr *v = fuse(P, f);
		if (!v)
			return 0;
		for (int k = 1; k < fn->defs.len; k++) {
			vec_free(&fn->defs.data[k].sched.dims);
			vec_free(&fn->defs.data[k].sched.unrolled);
			vec_free(&fn->defs.data[k].sched.splits);
		}
		fn->defs.len = 1;
		fn->defs.data[0].value = v;
		return 1;
	}
	vec_foreach(&fn->defs, k) {
		HDef *d = &fn->defs.data[k];
		P->at_def = k;
		HExpr *v = flat(P, d->value);
		if (!v)
			return 0;
		d->value = v;
		for (int i = 0; i < d->nlhs; i++)
			if (!(d->lhs[i] = flat(P, d->lhs[i])))
				return 0;
	}
	return 1;
}

int hp_prepare(HPrep *P, HProgram *p, Diags *d)
{
	memset(P, 0, sizeof *P);
	P->p = p;
	P->d = d;
	if (!hl_bounds(p, &P->reg, d))
		return 0;
	size_t nf = (size_t)(p->funcs.len ? p->funcs.len : 1);
	P->is_const = xcalloc(nf, 1);
	P->stored = xcalloc(nf, 1);
	P->rom = xcalloc(nf, 1);
	P->tables = xcalloc(nf, sizeof *P->tables);
	P->inlined = xcalloc(nf, sizeof *P->inlined);
	P->inline_state = xcalloc(nf, 1);
	find_constants(P);
	hli_const_tables(p, &P->reg, P->is_const, P->tables);
	for (int k = 0; k < P->reg.norder; k++) {
		int f = P->reg.order[k];
		const HFunc *fn = &p->funcs.data[f];
		P->stored[f] = f == p->output || (fn->compute.kind != LEVEL_INLINE && !P->is_const[f]);
	}
	int errors = diags_errors(d);
	for (int k = 0; k < P->reg.norder; k++)
		if (P->stored[P->reg.order[k]] && !flatten_stored(P, P->reg.order[k]))
			break;
	if (diags_errors(d) != errors)
		return 0;
	hp_index_streams(P);
	return 1;
}

void hp_free(HPrep *P)
{
	for (int f = 0; P->tables && f < P->p->funcs.len; f++)
		free(P->tables[f].v);
	free(P->tables);
	free(P->is_const);
	free(P->stored);
	free(P->rom);
	free(P->inlined);
	free(P->inline_state);
	vec_foreach(&P->index, k) image_free(&P->index.data[k].values);
	vec_free(&P->index);
	hl_bounds_free(&P->reg);
	memset(P, 0, sizeof *P);
}
