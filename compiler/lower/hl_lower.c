/* hl_lower.c - lowering by the schedule (hl_lower.h).
 *
 * Stored Funcs are placed from consumers to producers. A Func computed at
 * loop v of Func f runs inside that loop, over the region its consumers
 * within the loop read per iteration: each index is an affine expression
 * (or one divided by a constant) of loop variables; the loops inside the
 * placement range over their extents, which gives the lower and upper bound
 * as affine expressions of the loops around it. Loops of extent 1 are
 * replaced by their minimum, so the host loops of a single-tile accelerator
 * disappear from the regions. A stage's loops come from its schedule: each
 * split rewrites a variable as outer * factor + inner; unrolled loops are
 * expanded into copies of their body with the variable a constant. */
#include <stdlib.h>
#include <string.h>

#include "lower.h"
#include "../front/front.h"

/* ---- affine expressions of loop variables ---- */

#define AFF_MAX L_AFF_MAX
typedef LAff Aff;

static Aff aff_const(int64_t c)
{
	Aff a = { 0 };
	a.c = c;
	return a;
}

static int64_t aff_coef(const Aff *a, int sym)
{
	for (int i = 0; i < a->n; i++)
		if (a->sym[i] == sym)
			return a->k[i];
	return 0;
}

int laff_add(LAff *a, const LAff *b, int64_t scale)
{
	a->c += scale * b->c;
	for (int j = 0; j < b->n; j++) {
		int i;
		for (i = 0; i < a->n && a->sym[i] != b->sym[j]; i++)
			;
		if (i == a->n) {
			if (a->n == AFF_MAX)
				return 0;
			a->sym[a->n] = b->sym[j];
			a->k[a->n++] = 0;
		}
		a->k[i] += scale * b->k[j];
	}
	int m = 0;
	for (int i = 0; i < a->n; i++)
		if (a->k[i]) {
			a->sym[m] = a->sym[i];
			a->k[m++] = a->k[i];
		}
	a->n = m;
	return 1;
}

static void aff_drop(Aff *a, int sym)
{
	Aff z = { 0 };
	z.n = 1;
	z.sym[0] = sym;
	z.k[0] = 1;
	laff_add(a, &z, -aff_coef(a, sym));
}

int laff_of(const HExpr *e, LAff *out)
{
	Aff x, y;
	int64_t v;
	*out = aff_const(0);
	switch (e->kind) {
	case HE_CONST:
		out->c = e->value;
		return 1;
	case HE_VAR:
		out->n = 1;
		out->sym[0] = e->sym;
		out->k[0] = 1;
		return 1;
	case HE_CAST:
		return e->type.bits == 32 && e->type.is_signed && e->a->type.bits < 32 ? 0 : laff_of(e->a, out);
	case HE_UN:
		if (e->op != HU_NEG || !laff_of(e->a, &x))
			return 0;
		return laff_add(out, &x, -1);
	case HE_BIN:
		if (e->op == HB_ADD || e->op == HB_SUB)
			return laff_of(e->a, &x) && laff_of(e->b, &y) && laff_add(out, &x, 1) &&
			       laff_add(out, &y, e->op == HB_ADD ? 1 : -1);
		if (e->op == HB_MUL) {
			if (he_is_const(e->b, &v))
				return laff_of(e->a, &x) && laff_add(out, &x, v);
			if (he_is_const(e->a, &v))
				return laff_of(e->b, &x) && laff_add(out, &x, v);
		}
		return 0;
	default:
		return 0;
	}
}

static HExpr *aff_expr(Arena *a, const Aff *f)
{
	HExpr *e = NULL;
	for (int i = 0; i < f->n; i++) {
		int64_t k = f->k[i];
		HExpr *t = he_var(a, f->sym[i]);
		int64_t m = k < 0 ? -k : k;
		if (m != 1)
			t = he_bin(a, HB_MUL, HT_I32, t, he_const(a, HT_I32, m));
		if (!e)
			e = k < 0 ? he_bin(a, HB_SUB, HT_I32, he_const(a, HT_I32, 0), t) : t;
		else
			e = he_bin(a, k < 0 ? HB_SUB : HB_ADD, HT_I32, e, t);
	}
	if (!e)
		return he_const(a, HT_I32, f->c);
	if (f->c)
		e = he_bin(a, f->c < 0 ? HB_SUB : HB_ADD, HT_I32, e, he_const(a, HT_I32, f->c < 0 ? -f->c : f->c));
	return e;
}

/* ---- stages and their loops ---- */

typedef struct LLoop {
	int sym;                /* the loop variable */
	int dim;                /* the schedule's variable it iterates */
	Aff min;                /* in the variables of loops outside it */
	int64_t extent;
	int unrolled;
} LLoop;

typedef struct Stage {
	int func, def;
	LLoop *full;            /* the enclosing loops of the placement, then its own */
	int nfull, nenclosing;
	HExpr *value;           /* the definition in loop variables */
	HExpr **lhs;
	int nlhs;
	int line, col;
} Stage;

typedef struct Place {
	int placed;
	Stage *stages;
	int nstages;
	int enclosing_func;     /* -1: root */
	int enclosing_loop;     /* index in stage 0 of enclosing_func's full path */
	Aff rmin[4];
	int64_t rext[4];
} Place;

typedef struct Lower {
	LProgram *L;
	HProgram *p;
	Arena *a;
	Diags *d;
	Place *place;           /* per Func */
	int accel_func, accel_loop;     /* where the accelerator starts (-1: root) */
	Aff (*img_min)[4];      /* per streamed image: its region's minimum, in the host's loops */
	int errors;
	/* per symbol of the program as written (build_stage's scratch, zero
	 * between stages: a stage touches only its variables, so lowering
	 * many stages stays linear) */
	int64_t *ext;
	const char **name;
	int *orig;
	Aff *base;
} Lower;

static void lerr(Lower *W, int line, int col, const char *fmt, ...) __attribute__((format(printf, 4, 5)));
static void lerr(Lower *W, int line, int col, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	diag_vreport(W->d, DIAG_ERROR, W->p->file, line, col, fmt, ap);
	va_end(ap);
	W->errors++;
}

static const char *fname(Lower *W, int f)
{
	return W->p->funcs.data[f].name;
}

/* A loop's variable; over is the variable it runs over (an RVar's loop
 * keeps its RDom and dimension), or -1. */
static int new_loop_sym(Lower *W, const char *name, int over)
{
	const HSym *o = over >= 0 ? &W->p->syms.data[over] : NULL;
	int rvar = o && o->kind == SYM_RVAR;
	HSym s = { SYM_LOOP, arena_strdup(W->p->arena, name), rvar ? o->rdom : -1, rvar ? o->dim : -1, 0, 0 };
	vec_push(&W->p->syms, s);
	return W->p->syms.len - 1;
}

/* Replaces loops of extent 1 in a by their minimum (innermost first). */
static void fold_unit_loops(const LLoop *loops, int n, Aff *a)
{
	for (int i = n - 1; i >= 0; i--) {
		if (loops[i].extent != 1)
			continue;
		int64_t k = aff_coef(a, loops[i].sym);
		if (k) {
			aff_drop(a, loops[i].sym);
			laff_add(a, &loops[i].min, k);
		}
	}
}

/* a with loops[from..n) at their start (innermost first). */
static Aff aff_at_start(const LLoop *loops, int from, int n, Aff a)
{
	for (int i = n - 1; i >= from; i--) {
		int64_t k = aff_coef(&a, loops[i].sym);
		if (k) {
			aff_drop(&a, loops[i].sym);
			laff_add(&a, &loops[i].min, k);
		}
	}
	return a;
}

/* Bounds of a over loops[from..n) (innermost first), in the variables of
 * the loops outside them. */
static void aff_bounds(const LLoop *loops, int from, int n, const Aff *a, Aff *lo, Aff *hi)
{
	*lo = *a;
	*hi = *a;
	for (int i = n - 1; i >= from; i--) {
		const LLoop *l = &loops[i];
		Aff mx = l->min;
		mx.c += l->extent - 1;
		int64_t kl = aff_coef(lo, l->sym), kh = aff_coef(hi, l->sym);
		aff_drop(lo, l->sym);
		aff_drop(hi, l->sym);
		laff_add(lo, kl > 0 ? &l->min : &mx, kl);
		laff_add(hi, kh > 0 ? &mx : &l->min, kh);
	}
}

/* ---- regions ---- */

typedef struct Acc {
	int have[4];
	Aff lo[4], hi[4];
	int line, col;
} Acc;

static int same_var_part(const Aff *x, const Aff *y)
{
	Aff d = *x;
	laff_add(&d, y, -1);
	return d.n == 0;
}

static void acc_add(Lower *W, Acc *acc, int i, const Aff *lo, const Aff *hi, const HExpr *call, const char *what)
{
	if (!acc->have[i]) {
		acc->have[i] = 1;
		acc->lo[i] = *lo;
		acc->hi[i] = *hi;
		return;
	}
	if (!same_var_part(&acc->lo[i], lo) || !same_var_part(&acc->hi[i], hi)) {
		lerr(W, call->line, call->col,
		     "cannot bound the region of '%s' read here: its reads move with different loops "
		     "(dimension %d)", what, i);
		return;
	}
	if (lo->c < acc->lo[i].c)
		acc->lo[i] = *lo;
	if (hi->c > acc->hi[i].c)
		acc->hi[i] = *hi;
}

/* The interval of one index over the loops inside the placement. */
static int index_bounds(Lower *W, const Stage *S, int from, const HExpr *arg, Aff *lo, Aff *hi,
			const HExpr *call, const char *what)
{
	Aff a;
	int64_t d = 1;
	const HExpr *e = arg;
	if (e->kind == HE_BIN && e->op == HB_DIV && he_is_const(e->b, &d) && d > 0)
		e = e->a;
	else
		d = 1;
	if (!laff_of(e, &a) && he_calls_any(e)) {
		lerr(W, call->line, call->col,
		     "data-dependent read of '%s': its index depends on data; only constant tables (look-up "
		     "tables) may be read at computed addresses (Unified Buffer Table 2)", what);
		return 0;
	}
	if (!laff_of(e, &a)) {
		lerr(W, call->line, call->col,
		     "non-affine index in the read of '%s': the address generators handle affine indices "
		     "only (Unified Buffer Table 2)", what);
		return 0;
	}
	aff_bounds(S->full, from, S->nfull, &a, lo, hi);
	fold_unit_loops(S->full, from, lo);
	fold_unit_loops(S->full, from, hi);
	if (d > 1) {
		Aff *b[2] = { lo, hi };
		for (int k = 0; k < 2; k++) {
			for (int j = 0; j < b[k]->n; j++)
				if (b[k]->k[j] % d) {
					lerr(W, call->line, call->col,
					     "cannot bound the region of '%s': an index divided by %lld moves with a loop "
					     "by a step that is not a multiple of %lld", what, (long long)d, (long long)d);
					return 0;
				}
			for (int j = 0; j < b[k]->n; j++)
				b[k]->k[j] /= d;
			b[k]->c = hb_eval(HB_DIV, HT_I32, b[k]->c, d);
		}
	}
	return 1;
}

static int is_prefix(const LLoop *encl, int n, const Stage *S)
{
	if (S->nfull < n)
		return 0;
	for (int i = 0; i < n; i++)
		if (S->full[i].sym != encl[i].sym)
			return 0;
	return 1;
}

typedef struct Sites {
	Lower *W;
	int callee, is_image;
	const LLoop *encl;
	int nencl;
	Acc acc;
	int found;
	const char *what;
} Sites;

static void visit_sites(Sites *s, const Stage *S, const HExpr *e)
{
	if (!e)
		return;
	if (e->kind == HE_CALL && e->callee == s->callee && e->is_image == s->is_image) {
		if (!is_prefix(s->encl, s->nencl, S)) {
			lerr(s->W, e->line, e->col, "'%s' is read here, outside the loop where it is computed", s->what);
		} else {
			for (int i = 0; i < e->nargs; i++) {
				Aff lo, hi;
				if (index_bounds(s->W, S, s->nencl, e->args[i], &lo, &hi, e, s->what))
					acc_add(s->W, &s->acc, i, &lo, &hi, e, s->what);
			}
			if (!s->found) {
				s->acc.line = e->line;
				s->acc.col = e->col;
			}
			s->found = 1;
		}
	}
	visit_sites(s, S, e->a);
	visit_sites(s, S, e->b);
	visit_sites(s, S, e->c);
	for (int i = 0; i < e->nargs; i++)
		visit_sites(s, S, e->args[i]);
}

/* The region of a Func or image read by every placed stage, per iteration
 * of the enclosing loops; 0 after an error. */
static int region(Lower *W, int callee, int is_image, const LLoop *encl, int nencl, int dims, Aff *rmin,
		  int64_t *rext, int self)
{
	Sites s;
	memset(&s, 0, sizeof s);
	s.W = W;
	s.callee = callee;
	s.is_image = is_image;
	s.encl = encl;
	s.nencl = nencl;
	s.what = is_image ? W->p->images.data[callee].name : fname(W, callee);
	int errors = W->errors;
	for (int f = 0; f < W->p->funcs.len; f++) {
		const Place *pl = &W->place[f];
		if (!pl->placed || f == self)
			continue;
		for (int k = 0; k < pl->nstages; k++) {
			const Stage *S = &pl->stages[k];
			visit_sites(&s, S, S->value);
			for (int i = 0; i < S->nlhs; i++)
				visit_sites(&s, S, S->lhs[i]);
		}
	}
	if (W->errors > errors)
		return 0;
	if (!s.found)
		return -1;
	for (int i = 0; i < dims; i++) {
		Aff ext = s.acc.hi[i];
		laff_add(&ext, &s.acc.lo[i], -1);
		if (ext.n) {
			lerr(W, s.acc.line, s.acc.col, "the region of '%s' read per iteration changes size with the loops",
			     s.what);
			return 0;
		}
		rmin[i] = s.acc.lo[i];
		rext[i] = ext.c + 1;
	}
	return 1;
}

/* ---- placing a Func ---- */

static int dim_index_of(const HStageSched *sc, int sym)
{
	for (int i = 0; i < sc->dims.len; i++)
		if (sc->dims.data[i] == sym)
			return i;
	return -1;
}

static void clear_sym(Lower *W, int sym)
{
	W->ext[sym] = 0;
	W->name[sym] = NULL;
	W->orig[sym] = 0;
	W->base[sym] = (Aff){ 0 };
}

/* Builds the loops of definition k of f: its schedule's dims, outermost
 * first, after the enclosing loops. The original variables become
 * expressions of the loop variables. */
static int build_stage(Lower *W, int f, int k, const LLoop *encl, int nencl, Stage *S)
{
	HFunc *fn = &W->p->funcs.data[f];
	HDef *d = &fn->defs.data[k];
	const HStageSched *sc = &d->sched;
	int nd = sc->dims.len;
	int64_t *ext = W->ext;
	const char **name = W->name;
	int *orig = W->orig;
	Aff *base = W->base;
	/* the original variables: pure ones over the region, RVars over their domain */
	VEC(int) vars = { 0 };
	VEC(HExpr *) vexp = { 0 };
	for (int i = 0; i < d->nlhs; i++)
		if (d->lhs[i]->kind == HE_VAR && W->p->syms.data[d->lhs[i]->sym].kind == SYM_VAR) {
			int v = d->lhs[i]->sym;
			vec_push(&vars, v);
			ext[v] = W->place[f].rext[i];
			base[v] = W->place[f].rmin[i];
			orig[v] = 1;
		}
	int rd = he_def_rdom(W->p, d);
	if (rd >= 0) {
		const HRDom *r = &W->p->rdoms.data[rd];
		for (int i = 0; i < r->ndims; i++) {
			vec_push(&vars, r->sym[i]);
			ext[r->sym[i]] = r->extent[i];
			base[r->sym[i]] = aff_const(r->min[i]);
			orig[r->sym[i]] = 1;
		}
	}
	vec_foreach(&vars, i) {
		vec_push(&vexp, he_var(W->a, vars.data[i]));
		name[vars.data[i]] = W->p->syms.data[vars.data[i]].name;
	}
	int ok = 1;
	vec_foreach(&sc->splits, j) {
		const HSplit *sp = &sc->splits.data[j];
		if (ext[sp->old] % sp->factor) {
			const char *why = !sp->tail ? "the default tail strategy (Auto): a shifted or guarded last "
						      "iteration"
					  : !strcmp(sp->tail, "GuardWithIf") ? "TailStrategy::GuardWithIf: a guarded last "
									       "iteration"
					  : !strcmp(sp->tail, "RoundUp") ? NULL
					  : arena_printf(W->a, "TailStrategy::%s: a shifted last iteration", sp->tail);
			lerr(W, sp->line, sp->col, "%s.s%d: split of '%s' by %lld, which does not divide its extent %lld (%s%s)",
			     fn->name, k, W->p->syms.data[sp->old].name, (long long)sp->factor, (long long)ext[sp->old],
			     why ? why : "TailStrategy::RoundUp would compute points beyond the output's bounds and stream "
					 "them out; round up a Func computed inside the accelerator, or choose a factor that "
					 "divides",
			     why ? ", which the address generators' loop nests do not run; TailStrategy::RoundUp on a Func "
				   "computed inside the accelerator computes its region rounded up" : "");
			ok = 0;
			break;
		}
		HExpr *rep = he_bin(W->a, HB_ADD, HT_I32,
				    he_bin(W->a, HB_MUL, HT_I32, he_var(W->a, sp->outer), he_const(W->a, HT_I32, sp->factor)),
				    he_var(W->a, sp->inner));
		vec_foreach(&vexp, i) vexp.data[i] = hs_subst1(W->a, vexp.data[i], sp->old, rep);
		int64_t e_old = ext[sp->old];
		const char *n_old = name[sp->old];
		ext[sp->inner] = sp->factor;
		name[sp->inner] = arena_printf(W->a, "%s.%s", n_old, W->p->syms.data[sp->inner].name);
		ext[sp->outer] = e_old / sp->factor;
		if (sp->outer != sp->old)
			name[sp->outer] = arena_printf(W->a, "%s.%s", n_old, W->p->syms.data[sp->outer].name);
		orig[sp->inner] = orig[sp->outer] = 0;
	}
	S->func = f;
	S->def = k;
	S->line = d->line;
	S->col = d->col;
	S->nenclosing = nencl;
	S->nfull = nencl + nd;
	S->full = arena_alloc(W->a, sizeof *S->full * (size_t)(S->nfull ? S->nfull : 1));
	if (nencl)
		memcpy(S->full, encl, sizeof *encl * (size_t)nencl);
	int *from = xcalloc((size_t)(nd ? nd : 1), sizeof *from);
	int *to = xcalloc((size_t)(nd ? nd : 1), sizeof *to);
	HExpr **tov = xcalloc((size_t)(nd ? nd : 1), sizeof *tov);
	for (int j = 0; ok && j < nd; j++) {
		int dim = sc->dims.data[nd - 1 - j];
		LLoop *l = &S->full[nencl + j];
		l->sym = new_loop_sym(W, arena_printf(W->a, "%s.s%d.%s", fn->name, k, name[dim]), dim);
		l->dim = dim;
		l->extent = ext[dim];
		l->unrolled = sc->unrolled.data[nd - 1 - j];
		/* an unsplit variable's loop runs over its region; a split one's from 0 */
		l->min = orig[dim] ? base[dim] : aff_const(0);
		from[j] = dim;
		to[j] = l->sym;
		tov[j] = he_var(W->a, l->sym);
	}
	if (ok) {
		/* the original variables in loop variables: split ones add their region's minimum */
		HSubst toloops = { from, tov, nd, NULL, NULL };
		int nv = vars.len;
		HExpr **val = xcalloc((size_t)(nv ? nv : 1), sizeof *val);
		vec_foreach(&vars, i) {
			int v = vars.data[i];
			HExpr *e = hs_subst(W->a, vexp.data[i], &toloops);
			if (!orig[v] || dim_index_of(sc, v) < 0)
				e = hs_simplify(W->a, he_bin(W->a, HB_ADD, HT_I32, e, aff_expr(W->a, &base[v])));
			val[i] = e;
		}
		HSubst s = { vars.data, val, nv, NULL, NULL };
		S->value = hp_fold_tables(&W->L->prep, hs_subst(W->a, d->value, &s));
		S->nlhs = d->nlhs;
		S->lhs = arena_alloc(W->a, sizeof *S->lhs * (size_t)(d->nlhs ? d->nlhs : 1));
		for (int i = 0; i < d->nlhs; i++)
			S->lhs[i] = hs_subst(W->a, d->lhs[i], &s);
		free(val);
	}
	free(from);
	free(to);
	free(tov);
	vec_foreach(&vars, i) clear_sym(W, vars.data[i]);
	vec_foreach(&sc->splits, j) {
		clear_sym(W, sc->splits.data[j].inner);
		clear_sym(W, sc->splits.data[j].outer);
	}
	vec_free(&vars);
	vec_free(&vexp);
	return ok;
}

/* The index, in the full path of stage 0 of Func lv->func, of the loop of
 * variable lv->var where Func g is computed; -1 after an error. */
static int level_loop(Lower *W, int g, const HLevel *lv)
{
	const char *gn = W->p->funcs.data[g].name;
	const Place *fp = &W->place[lv->func];
	if (!W->L->prep.reg.func_used[lv->func]) {
		lerr(W, lv->line, lv->col, "compute_at of '%s' in '%s', which the output does not need: an invalid "
		     "location (Halide refuses it too)", gn, fname(W, lv->func));
		return -1;
	}
	if (!W->L->prep.stored[lv->func]) {
		lerr(W, lv->line, lv->col, "compute_at of '%s' in '%s', which is inlined: give '%s' a compute level",
		     gn, fname(W, lv->func), fname(W, lv->func));
		return -1;
	}
	if (!fp->placed) {
		lerr(W, lv->line, lv->col, "compute_at of '%s' in '%s', which does not read it", gn, fname(W, lv->func));
		return -1;
	}
	const Stage *S = &fp->stages[0];
	for (int i = S->nenclosing; i < S->nfull; i++)
		if (S->full[i].dim == lv->var)
			return i;
	lerr(W, lv->line, lv->col, "compute_at: '%s' is not a loop of %s.s0", W->p->syms.data[lv->var].name,
	     fname(W, lv->func));
	return -1;
}

/* The loops around a Func computed at level lv; 0 after an error. */
static int enclosing(Lower *W, int g, const HLevel *lv, const LLoop **encl, int *n)
{
	*encl = NULL;
	*n = 0;
	W->place[g].enclosing_func = -1;
	if (lv->kind != LEVEL_AT)
		return 1;
	int i = level_loop(W, g, lv);
	if (i < 0)
		return 0;
	*encl = W->place[lv->func].stages[0].full;
	*n = i + 1;
	W->place[g].enclosing_func = lv->func;
	W->place[g].enclosing_loop = i;
	return 1;
}

/* Halide's rule: a Func's storage level encloses its compute level (they
 * may be the same); 0 with an error when store_at is inside compute_at (or
 * inside a compute_root). nencl: the loops around its computation. */
static int storage_encloses(Lower *W, int g, int nencl)
{
	const HFunc *gn = &W->p->funcs.data[g];
	const HLevel *st = &gn->store;
	if (st->kind != LEVEL_AT)
		return 1;
	int inside = gn->compute.kind == LEVEL_ROOT;
	if (gn->compute.kind == LEVEL_AT && st->func == gn->compute.func && W->place[st->func].placed) {
		const Stage *S = &W->place[st->func].stages[0];
		for (int i = S->nenclosing; i < S->nfull; i++)
			if (S->full[i].dim == st->var)
				inside = i >= nencl;
	}
	if (inside)
		lerr(W, st->line, st->col, "store_at of '%s' in '%s' at '%s' is inside the loop it is computed at "
		     "(%s): its storage must enclose its computation (Halide refuses it too)", gn->name,
		     fname(W, st->func), W->p->syms.data[st->var].name,
		     gn->compute.kind == LEVEL_ROOT ? "compute_root" : W->p->syms.data[gn->compute.var].name);
	return !inside;
}

static int place_func(Lower *W, int g)
{
	HFunc *gn = &W->p->funcs.data[g];
	Place *pl = &W->place[g];
	const LLoop *encl;
	int nencl;
	if (g == W->p->output) {
		encl = NULL;
		nencl = 0;
		pl->enclosing_func = -1;
		for (int i = 0; i < gn->dims; i++)
			vec_foreach(&gn->bounds, k) if (gn->bounds.data[k].var == gn->vars[i]) {
				pl->rmin[i] = aff_const(gn->bounds.data[k].min);
				pl->rext[i] = gn->bounds.data[k].extent;
			}
	} else {
		if (!enclosing(W, g, &gn->compute, &encl, &nencl) || !storage_encloses(W, g, nencl))
			return 0;
		int r = region(W, g, 0, encl, nencl, gn->dims, pl->rmin, pl->rext, g);
		if (r == 0)
			return 0;
		if (r < 0) {
			lerr(W, gn->compute.line ? gn->compute.line : gn->line, gn->compute.line ? gn->compute.col : gn->col,
			     "'%s' is computed at a loop where nothing reads it", gn->name);
			return 0;
		}
		/* Halide's RoundUp: the region grows to a multiple of the factor
		 * (the points beyond it are computed, and never read) */
		for (int i = 0; i < gn->dims; i++)
			pl->rext[i] = hl_rounded_extent(gn, i, pl->rext[i]);
	}
	pl->nstages = gn->defs.len;
	pl->stages = arena_alloc(W->a, sizeof *pl->stages * (size_t)pl->nstages);
	for (int k = 0; k < pl->nstages; k++) {
		if (!build_stage(W, g, k, encl, nencl, &pl->stages[k]))
			return 0;
	}
	pl->placed = 1;
	return 1;
}

/* ---- the statement tree ---- */

static LStmt *stmt(Lower *W, LKind k)
{
	LStmt *s = arena_alloc(W->L->arena, sizeof *s);
	s->kind = k;
	s->func = s->def = s->sym = -1;
	return s;
}

static void add(LStmt *parent, LStmt *child)
{
	vec_push(&parent->body, child);
}

typedef struct Env {
	VEC(int) sym;
	VEC(HExpr *) val;
} Env;

static HExpr *in_env(Lower *W, const Env *env, HExpr *e)
{
	if (!env->sym.len)
		return e;
	HSubst s = { env->sym.data, env->val.data, env->sym.len, NULL, NULL };
	return hp_fold_tables(&W->L->prep, hs_subst(W->a, e, &s));
}

static void emit_func(Lower *W, int f, LStmt *parent, Env *env);

/* The Funcs computed at loop i of f's stage 0, producers first. */
static void emit_producers_at(Lower *W, int f, int i, LStmt *parent, Env *env)
{
	const HPrep *P = &W->L->prep;
	for (int k = 0; k < P->reg.norder; k++) {
		int g = P->reg.order[k];
		if (P->stored[g] && W->place[g].placed && W->place[g].enclosing_func == f &&
		    W->place[g].enclosing_loop == i)
			emit_func(W, g, parent, env);
	}
}

static void emit_streams(Lower *W, LStmt *parent, Env *env);

static void emit_loops(Lower *W, const Stage *S, int i, LStmt *parent, Env *env)
{
	if (i == S->nfull) {
		if (S->def == 0 && W->p->funcs.data[S->func].init_in_update)
			return;
		LStmt *st = stmt(W, LS_STORE);
		st->func = S->func;
		st->def = S->def;
		st->value = in_env(W, env, S->value);
		st->nindex = S->nlhs;
		st->index = arena_alloc(W->L->arena, sizeof *st->index * (size_t)(S->nlhs ? S->nlhs : 1));
		for (int k = 0; k < S->nlhs; k++)
			st->index[k] = in_env(W, env, S->lhs[k]);
		st->output = S->func == W->p->output;
		st->line = S->line;
		st->col = S->col;
		add(parent, st);
		return;
	}
	const LLoop *l = &S->full[i];
	HExpr *min = in_env(W, env, aff_expr(W->a, &l->min));
	int64_t m = 0;
	/* an unrolled loop that starts where another loop is (a block of channels
	 * per run of the host, or per iteration of a loop of the accelerator): its
	 * copies at that start plus 0, 1, ... */
	int moving = l->unrolled && !he_is_const(min, &m);
	int copies = l->unrolled ? (int)l->extent : 1;
	int unit = !l->unrolled && l->extent == 1;
	for (int c = 0; c < copies; c++) {
		LStmt *body = parent;
		if (unit) {
			/* a loop of one iteration: its variable is its minimum */
			LStmt *loop = stmt(W, LS_LOOP);
			loop->sym = l->sym;
			loop->min = min;
			loop->extent = 1;
			add(parent, loop);
			body = loop;
			vec_push(&env->sym, l->sym);
			vec_push(&env->val, min);
		} else if (l->unrolled) {
			vec_push(&env->sym, l->sym);
			vec_push(&env->val, moving ? he_bin(W->a, HB_ADD, HT_I32, min, he_const(W->a, HT_I32, c))
						   : he_const(W->a, HT_I32, m + c));
		} else {
			LStmt *loop = stmt(W, LS_LOOP);
			loop->sym = l->sym;
			loop->min = min;
			loop->extent = l->extent;
			add(parent, loop);
			body = loop;
		}
		if (S->def == 0) {
			if (W->accel_func == S->func && W->accel_loop == i) {
				LStmt *acc = stmt(W, LS_ACCEL);
				add(body, acc);
				W->L->accel = acc;
				body = acc;
				emit_streams(W, body, env);
			}
			emit_producers_at(W, S->func, i, body, env);
		}
		emit_loops(W, S, i + 1, body, env);
		if (l->unrolled || unit) {
			env->sym.len--;
			env->val.len--;
		}
	}
}

static void free_stmt(LStmt *s);

/* 1 if s stores nothing (loops whose bodies are empty). */
static int stores_nothing(const LStmt *s)
{
	if (s->kind == LS_STORE || s->kind == LS_STREAM || s->kind == LS_ACCEL)
		return 0;
	vec_foreach(&s->body, i) if (!stores_nothing(s->body.data[i])) return 0;
	return 1;
}

static void emit_func(Lower *W, int f, LStmt *parent, Env *env)
{
	LStmt *pr = stmt(W, LS_PRODUCE);
	pr->func = f;
	add(parent, pr);
	const Place *pl = &W->place[f];
	for (int k = 0; k < pl->nstages; k++) {
		int before = pr->body.len;
		emit_loops(W, &pl->stages[k], pl->stages[k].nenclosing, pr, env);
		/* a pure definition folded into a reduction kept in time: its
		 * loops stay only where they hold producers */
		while (k == 0 && W->p->funcs.data[f].init_in_update && pr->body.len > before &&
		       stores_nothing(vec_last(&pr->body)))
			free_stmt(pr->body.data[--pr->body.len]);
	}
}

/* ---- input streams ---- */

static void emit_streams(Lower *W, LStmt *parent, Env *env)
{
	for (int m = 0; m < W->p->images.len; m++) {
		const HImage *im = &W->p->images.data[m];
		LRegion *r = &W->L->images[m];
		if (!r->dims)
			continue;
		LStmt *st = stmt(W, LS_STREAM);
		st->func = m;
		LStmt *outer = st;
		HExpr *idx[4];
		for (int i = im->dims - 1; i >= 0; i--) {
			LStmt *loop = stmt(W, LS_LOOP);
			loop->sym = new_loop_sym(W, arena_printf(W->a, "%s.s0._%d", im->name, i), -1);
			loop->min = in_env(W, env, aff_expr(W->a, &W->img_min[m][i]));
			loop->extent = r->extent[i];
			idx[i] = he_var(W->a, loop->sym);
			add(outer, loop);
			outer = loop;
		}
		LStmt *w = stmt(W, LS_STORE);
		w->func = -1;
		w->def = m;
		w->nindex = im->dims;
		w->index = arena_alloc(W->L->arena, sizeof *w->index * (size_t)im->dims);
		memcpy(w->index, idx, sizeof *idx * (size_t)im->dims);
		add(outer, w);
		add(parent, st);
	}
}

/* The streamed images: their region per accelerator run. */
static int stream_regions(Lower *W, const LLoop *encl, int nencl)
{
	for (int m = 0; m < W->p->images.len; m++) {
		const HImage *im = &W->p->images.data[m];
		Aff rmin[4];
		int64_t rext[4];
		int r = region(W, m, 1, encl, nencl, im->dims, rmin, rext, -1);
		if (r == 0)
			return 0;
		if (r < 0)
			continue;
		if (!im->streamed) {
			lerr(W, im->line, im->col,
			     "the accelerator reads ImageParam '%s', which is not streamed to it: call "
			     "stream_to_accelerator(%s)", im->name, im->name);
			return 0;
		}
		LRegion *lr = &W->L->images[m];
		lr->dims = im->dims;
		for (int i = 0; i < im->dims; i++) {
			/* a region that moves with the host's loops: per run, and over them all */
			Aff top = rmin[i], lo, hi, x;
			top.c += rext[i] - 1;
			aff_bounds(encl, 0, nencl, &rmin[i], &lo, &x);
			aff_bounds(encl, 0, nencl, &top, &x, &hi);
			W->img_min[m][i] = rmin[i];
			lr->min[i] = lr->run_min[i] = aff_at_start(encl, 0, nencl, rmin[i]).c;
			lr->extent[i] = lr->run_extent[i] = rext[i];
			lr->box_min[i] = lo.c;
			lr->box_extent[i] = hi.c - lo.c + 1;
		}
	}
	return 1;
}

/* Funcs the schedule puts outside the accelerator are refused. */
static int check_inside(Lower *W, int accel_depth)
{
	const HPrep *P = &W->L->prep;
	for (int k = 0; k < P->reg.norder; k++) {
		int g = P->reg.order[k];
		if (!P->stored[g] || g == W->p->output)
			continue;
		const Place *pl = &W->place[g];
		const HFunc *gn = &W->p->funcs.data[g];
		int inside = W->accel_func < 0 || (pl->stages[0].nenclosing > accel_depth &&
						   W->place[W->p->output].stages[0].full[accel_depth].sym ==
						   pl->stages[0].full[accel_depth].sym);
		if (!inside) {
			lerr(W, gn->compute.line ? gn->compute.line : gn->line, gn->compute.line ? gn->compute.col : gn->col,
			     "'%s' is computed outside the accelerator (%s): compute it at the accelerator's loop "
			     "or inside it", gn->name, gn->compute.kind == LEVEL_ROOT ? "compute_root" : "at a host loop");
			return 0;
		}
	}
	return 1;
}

static int accel_level(Lower *W)
{
	W->accel_func = W->accel_loop = -1;
	if (W->p->accel_outer < 0)
		return 1;
	HLevel lv = { LEVEL_AT, W->p->output, W->p->accel_outer, W->p->accel_line, W->p->accel_col };
	int i = level_loop(W, W->p->output, &lv);
	if (i < 0)
		return 0;
	W->accel_func = W->p->output;
	W->accel_loop = i;
	return 1;
}

/* The loops of more than one iteration on the path from s to acc, innermost
 * first, into loops (at most 64); 1 if s holds acc. */
static int path_to_accel(const LStmt *s, const LStmt *acc, const LStmt **loops, int *n)
{
	if (s == acc)
		return 1;
	vec_foreach(&s->body, i) if (path_to_accel(s->body.data[i], acc, loops, n)) {
		if (s->kind == LS_LOOP && s->extent > 1 && *n < 64)
			loops[(*n)++] = s;
		return 1;
	}
	return 0;
}

/* The host's loops around the accelerator: each iteration a run of it. */
static int host_loops(Lower *W)
{
	LProgram *L = W->L;
	const LStmt *loops[64];
	int n = 0;
	if (!path_to_accel(L->root, L->accel, loops, &n))
		ICE("lower: the accelerator is not in the loop nest");
	const HFunc *out = &W->p->funcs.data[W->p->output];
	/* an unrolled loop of the host would make a copy of the accelerator per value */
	for (int i = 0; W->accel_func >= 0 && i <= W->accel_loop; i++) {
		const LLoop *l = &W->place[W->accel_func].stages[0].full[i];
		if (l->unrolled && l->extent > 1) {
			lerr(W, W->p->accel_line ? W->p->accel_line : out->line,
			     W->p->accel_line ? W->p->accel_col : out->col,
			     "the host's loop %s around the accelerator is unrolled: each of its iterations is a run "
			     "of the accelerator, which the host's loop repeats; do not unroll it",
			     W->p->syms.data[l->sym].name);
			return 0;
		}
	}
	if (n > L_MAX_HOST) {
		lerr(W, W->p->accel_line ? W->p->accel_line : out->line, W->p->accel_line ? W->p->accel_col : out->col,
		     "the accelerator runs inside %d loops of the host, at most %d: fuse some of them", n, L_MAX_HOST);
		return 0;
	}
	L->nhost = n;
	for (int k = 0; k < n; k++)
		L->host[k] = loops[n - 1 - k];
	for (int k = 0; k < L->nhost; k++) {
		int64_t m;
		if (!he_is_const(L->host[k]->min, &m)) {
			lerr(W, W->p->accel_line ? W->p->accel_line : out->line,
			     W->p->accel_line ? W->p->accel_col : out->col,
			     "the host's loop %s around the accelerator does not start at a constant",
			     W->p->syms.data[L->host[k]->sym].name);
			return 0;
		}
	}
	return 1;
}

int hl_lower(LProgram *L, HProgram *p, Diags *d)
{
	memset(L, 0, sizeof *L);
	L->p = p;
	L->arena = arena_new();
	if (!hp_prepare(&L->prep, p, d))
		return 0;
	Lower W = { .L = L, .p = p, .a = p->arena, .d = d, .accel_func = -1, .accel_loop = -1 };
	size_t nsyms = (size_t)p->syms.len + 1;
	W.ext = xcalloc(nsyms, sizeof *W.ext);
	W.name = xcalloc(nsyms, sizeof *W.name);
	W.orig = xcalloc(nsyms, sizeof *W.orig);
	W.base = xcalloc(nsyms, sizeof *W.base);
	size_t nf = (size_t)(p->funcs.len ? p->funcs.len : 1);
	W.place = xcalloc(nf, sizeof *W.place);
	L->funcs = xcalloc(nf, sizeof *L->funcs);
	L->images = xcalloc((size_t)(p->images.len ? p->images.len : 1), sizeof *L->images);
	W.img_min = xcalloc((size_t)(p->images.len ? p->images.len : 1), sizeof *W.img_min);
	const HPrep *P = &L->prep;
	int ok = 1;
	for (int k = P->reg.norder - 1; ok && k >= 0; k--) {
		int g = P->reg.order[k];
		if (P->stored[g])
			ok = place_func(&W, g);
		if (ok && g == p->output)
			ok = accel_level(&W);
	}
	const LLoop *encl = NULL;
	int nencl = 0;
	if (ok && W.accel_func >= 0) {
		encl = W.place[p->output].stages[0].full;
		nencl = W.accel_loop + 1;
	}
	ok = ok && check_inside(&W, W.accel_loop) && stream_regions(&W, encl, nencl);
	if (ok) {
		for (int f = 0; f < p->funcs.len; f++)
			if (W.place[f].placed) {
				LRegion *r = &L->funcs[f];
				const Stage *S = &W.place[f].stages[0];
				r->dims = p->funcs.data[f].dims;
				/* the host's loops: the output's, around the accelerator */
				int host = W.accel_func >= 0 && f != p->output ? W.accel_loop + 1 : 0;
				for (int i = 0; i < r->dims; i++) {
					Aff lo, hi, top = W.place[f].rmin[i], x;
					top.c += W.place[f].rext[i] - 1;
					r->min[i] = aff_at_start(S->full, 0, S->nenclosing, W.place[f].rmin[i]).c;
					Aff at = W.place[f].rmin[i];
					fold_unit_loops(S->full, S->nenclosing, &at);
					r->min_at[i] = aff_expr(W.a, &at);
					r->extent[i] = W.place[f].rext[i];
					aff_bounds(S->full, 0, S->nenclosing, &W.place[f].rmin[i], &lo, &x);
					aff_bounds(S->full, 0, S->nenclosing, &top, &x, &hi);
					r->box_min[i] = lo.c;
					r->box_extent[i] = hi.c - lo.c + 1;
					aff_bounds(S->full, host, S->nenclosing, &W.place[f].rmin[i], &lo, &x);
					aff_bounds(S->full, host, S->nenclosing, &top, &x, &hi);
					lo = aff_at_start(S->full, 0, host, lo);
					hi = aff_at_start(S->full, 0, host, hi);
					r->run_min[i] = lo.c;
					r->run_extent[i] = hi.c - lo.c + 1;
				}
			}
		Env env = { { 0 }, { 0 } };
		L->root = stmt(&W, LS_BLOCK);
		LStmt *body = L->root;
		if (W.accel_func < 0) {
			body = stmt(&W, LS_ACCEL);
			add(L->root, body);
			L->accel = body;
			emit_streams(&W, body, &env);
		}
		for (int k = 0; k < P->reg.norder; k++) {
			int g = P->reg.order[k];
			if (P->stored[g] && W.place[g].enclosing_func < 0 && g != p->output)
				emit_func(&W, g, body, &env);
		}
		emit_func(&W, p->output, body, &env);
		vec_free(&env.sym);
		vec_free(&env.val);
		ok = W.errors == 0;
	}
	if (ok && W.errors == 0)
		ok = host_loops(&W);
	free(W.place);
	free(W.img_min);
	free(W.ext);
	free(W.name);
	free(W.orig);
	free(W.base);
	return ok && W.errors == 0;
}

static void free_stmt(LStmt *s)
{
	if (!s)
		return;
	vec_foreach(&s->body, i) free_stmt(s->body.data[i]);
	vec_free(&s->body);
}

void hl_lower_free(LProgram *L)
{
	free_stmt(L->root);
	free(L->funcs);
	free(L->images);
	if (L->prep.p)
		hp_free(&L->prep);
	if (L->arena)
		arena_free(L->arena);
	memset(L, 0, sizeof *L);
}

/* ---- printing ---- */

static void indent(FILE *f, int n)
{
	fprintf(f, "%*s", 2 * n, "");
}

static void print_expr(const LProgram *L, const HExpr *e, FILE *f)
{
	char *s = he_str(L->p, e);
	fputs(s, f);
	free(s);
}

static void print_stmt(const LProgram *L, const LStmt *s, int depth, FILE *f)
{
	const HProgram *p = L->p;
	switch (s->kind) {
	case LS_BLOCK:
		vec_foreach(&s->body, i) print_stmt(L, s->body.data[i], depth, f);
		return;
	case LS_PRODUCE:
		indent(f, depth);
		fprintf(f, "produce %s:\n", p->funcs.data[s->func].name);
		vec_foreach(&s->body, i) print_stmt(L, s->body.data[i], depth + 1, f);
		return;
	case LS_ACCEL:
		indent(f, depth);
		fprintf(f, "accelerate:\n");
		vec_foreach(&s->body, i) print_stmt(L, s->body.data[i], depth + 1, f);
		return;
	case LS_STREAM:
		indent(f, depth);
		fprintf(f, "stream %s in:\n", p->images.data[s->func].name);
		vec_foreach(&s->body, i) print_stmt(L, s->body.data[i], depth + 1, f);
		return;
	case LS_LOOP:
		indent(f, depth);
		fprintf(f, "for %s in [", p->syms.data[s->sym].name);
		print_expr(L, s->min, f);
		int64_t m;
		if (he_is_const(s->min, &m))
			fprintf(f, ", %lld):\n", (long long)(m + s->extent));
		else
			fprintf(f, ", +%lld):\n", (long long)s->extent);
		vec_foreach(&s->body, i) print_stmt(L, s->body.data[i], depth + 1, f);
		return;
	case LS_STORE:
		indent(f, depth);
		fprintf(f, "%s(", s->func < 0 ? p->images.data[s->def].name : p->funcs.data[s->func].name);
		for (int i = 0; i < s->nindex; i++) {
			if (i)
				fputs(", ", f);
			print_expr(L, s->index[i], f);
		}
		fputs(") = ", f);
		if (s->func < 0)
			fputs("<stream from the global buffer>", f);
		else
			print_expr(L, s->value, f);
		if (s->output)
			fputs("   -> stream to the global buffer", f);
		fputc('\n', f);
		return;
	}
}

void hl_lower_print(const LProgram *L, FILE *f)
{
	const HProgram *p = L->p;
	const HPrep *P = &L->prep;
	fprintf(f, "// %s lowered by its schedule (cgrac --emit lowered)\n", p->file);
	for (int k = 0; k < P->reg.norder; k++) {
		int g = P->reg.order[k];
		if (!P->is_const[g])
			continue;
		const HTable *t = &P->tables[g];
		fprintf(f, "// %s: constant table over", p->funcs.data[g].name);
		for (int i = 0; i < t->dims; i++)
			fprintf(f, "%s[%lld, %lld)", i ? " x " : " ", (long long)t->min[i], (long long)(t->min[i] + t->extent[i]));
		fprintf(f, ", %s\n", P->rom[g] ? "a ROM read at computed addresses (look-up table)"
					       : "read at constant indices only: inlined as immediates");
	}
	for (int g = 0; g < p->funcs.len; g++)
		if (P->stored[g] && g != p->output && L->funcs[g].dims) {
			const LRegion *r = &L->funcs[g];
			fprintf(f, "// %s: buffer over", p->funcs.data[g].name);
			for (int i = 0; i < r->dims; i++)
				fprintf(f, "%s[%lld, %lld)", i ? " x " : " ", (long long)r->min[i],
					(long long)(r->min[i] + r->extent[i]));
			fprintf(f, "\n");
		}
	print_stmt(L, L->root, 0, f);
}
