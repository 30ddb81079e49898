/* hl_parse_def.c - definitions of Funcs (hl_parse.h): pure definitions,
 * updates (=, +=, ... at constant or reduction indices) and the implicit
 * pure definition they may start with, and the wrapper Funcs of f.in(). */
#include <stdlib.h>
#include <string.h>

#include "hl_parse.h"

/* ---- Funcs ---- */

int hlp_new_func(Parser *P, const char *name, int line, int col)
{
	hl_new_func(P->p, name, line, col);
	FuncUse u = { -1, 0, 0 };
	vec_push(&P->used, u);
	vec_push(&P->def_failed, 0);
	vec_push(&P->sched_undef, NULL);
	return P->p->funcs.len - 1;
}

/* Records the Funcs other than f that e calls as used by f. */
static void record_uses(Parser *P, int f, const HExpr *e)
{
	if (!e)
		return;
	if (e->kind == HE_CALL && !e->is_image && e->callee != f && P->used.data[e->callee].by < 0) {
		FuncUse u = { f, e->line, e->col };
		P->used.data[e->callee] = u;
	}
	record_uses(P, f, e->a);
	record_uses(P, f, e->b);
	record_uses(P, f, e->c);
	for (int i = 0; i < e->nargs; i++)
		record_uses(P, f, e->args[i]);
}

static HDef *push_def(Parser *P, int f, HExpr **lhs, int n, HExpr *value, const HTok *t)
{
	HFunc *fn = &P->p->funcs.data[f];
	HDef d = { 0 };
	d.lhs = arena_alloc(P->a, sizeof *lhs * (size_t)(n ? n : 1));
	memcpy(d.lhs, lhs, sizeof *lhs * (size_t)n);
	d.nlhs = n;
	d.value = value;
	d.update = fn->defs.len;
	d.line = t->line;
	d.col = t->col;
	vec_push(&fn->defs, d);
	return &vec_last(&fn->defs);
}

/* f.in() / f.in(g): the wrapper Func of a Func or image (one per caller). */
Val hlp_wrapper_of(Parser *P, Val v, const HTok *t, int for_func)
{
	HProgram *p = P->p;
	int key = v.k == V_IMAGE ? -2 - v.id : v.id;
	for (int i = 0; i < p->funcs.len; i++)
		if (p->funcs.data[i].wrapper_of == key && p->funcs.data[i].wrapper_for == for_func) {
			Val r = { .k = V_FUNC, .id = i, .line = t->line, .col = t->col };
			return r;
		}
	int dims;
	HType type;
	const char *base;
	const int *vars = NULL;
	if (v.k == V_IMAGE) {
		HImage *im = &p->images.data[v.id];
		dims = im->dims;
		type = im->type;
		base = im->name;
	} else {
		HFunc *f = &p->funcs.data[v.id];
		if (!f->defined && hlp_failed_func(P, v.id))
			return hlp_none;
		if (!f->defined)
			return hlp_err_tok(P, t, "in() of Func '%s', which has no definition", f->name);
		dims = f->dims;
		type = f->type;
		base = f->name;
		vars = f->vars;
	}
	const char *name = for_func < 0 ? arena_printf(P->a, "%s_in", base)
					: arena_printf(P->a, "%s_in_%s", base, hlp_func_name(P, for_func));
	int w = hlp_new_func(P, name, t->line, t->col);
	HFunc *wf = &p->funcs.data[w];
	wf->wrapper_of = key;
	wf->wrapper_for = for_func;
	wf->defined = 1;
	wf->dims = dims;
	wf->type = type;
	wf->vars = arena_alloc(P->a, sizeof *wf->vars * (size_t)dims);
	HExpr *args[16];
	for (int i = 0; i < dims; i++) {
		wf->vars[i] = vars ? vars[i] : hlp_new_sym(P, SYM_VAR, arena_printf(P->a, "_%d", i), t->line, t->col);
		args[i] = he_var(P->a, wf->vars[i]);
	}
	HExpr *call = he_call(P->a, v.k == V_IMAGE ? v.id : v.id, v.k == V_IMAGE, type, args, dims);
	HDef *d = push_def(P, w, args, dims, call, t);
	if (v.k == V_FUNC && P->used.data[v.id].by < 0) {
		FuncUse u = { w, t->line, t->col };     /* as in Halide, a wrapper uses what it wraps */
		P->used.data[v.id] = u;
	}
	for (int i = 0; i < dims; i++) {
		vec_push(&d->sched.dims, wf->vars[i]);
		vec_push(&d->sched.unrolled, 0);
	}
	Val r = { .k = V_FUNC, .id = w, .line = t->line, .col = t->col };
	return r;
}

/* Free variables of e of one kind (RVars bound by a sum() excluded). */
static void free_syms(Parser *P, const HExpr *e, HSymKind k, int bound_rdom, int *out, int *n, int max)
{
	if (!e)
		return;
	if (e->kind == HE_VAR) {
		HSym *s = &P->p->syms.data[e->sym];
		if (s->kind != k || (k == SYM_RVAR && s->rdom == bound_rdom))
			return;
		for (int i = 0; i < *n; i++)
			if (out[i] == e->sym)
				return;
		if (*n < max)
			out[(*n)++] = e->sym;
		return;
	}
	if (e->kind == HE_SUM) {
		free_syms(P, e->a, k, e->rdom, out, n, max);
		return;
	}
	free_syms(P, e->a, k, bound_rdom, out, n, max);
	free_syms(P, e->b, k, bound_rdom, out, n, max);
	free_syms(P, e->c, k, bound_rdom, out, n, max);
	for (int i = 0; i < e->nargs; i++)
		free_syms(P, e->args[i], k, bound_rdom, out, n, max);
}

static const HExpr *find_var(const HExpr *e, int sym)
{
	if (!e)
		return NULL;
	if (e->kind == HE_VAR && e->sym == sym)
		return e;
	const HExpr *r;
	if ((r = find_var(e->a, sym)) || (r = find_var(e->b, sym)) || (r = find_var(e->c, sym)))
		return r;
	for (int i = 0; i < e->nargs; i++)
		if ((r = find_var(e->args[i], sym)))
			return r;
	return NULL;
}

static int pure_def(Parser *P, int f, Val *args, int n, Val rhs, const HTok *ft)
{
	HFunc *fn = &P->p->funcs.data[f];
	HExpr *lhs[16];
	for (int i = 0; i < n; i++) {
		lhs[i] = hlp_to_expr(P, args[i]);
		if (!lhs[i])
			return 0;
		if (lhs[i]->kind != HE_VAR || P->p->syms.data[lhs[i]->sym].kind != SYM_VAR) {
			hlp_err_at(P, args[i].line, args[i].col,
			       "the pure definition of '%s' takes distinct Vars as arguments", fn->name);
			return 0;
		}
		for (int j = 0; j < i; j++)
			if (lhs[j]->sym == lhs[i]->sym) {
				hlp_err_at(P, args[i].line, args[i].col, "variable '%s' appears twice on the left of '%s'",
				       hl_sym_name(P->p, lhs[i]->sym), fn->name);
				return 0;
			}
	}
	HExpr *v = hlp_to_expr(P, rhs);
	if (!v)
		return 0;
	int syms[32], ns = 0;
	free_syms(P, v, SYM_VAR, -1, syms, &ns, 32);
	for (int i = 0; i < ns; i++) {
		int ok = 0;
		for (int j = 0; j < n; j++)
			ok |= lhs[j]->sym == syms[i];
		if (!ok) {
			const HExpr *at_e = find_var(v, syms[i]);
			hlp_err_at(P, at_e->line, at_e->col, "undefined variable '%s' in the definition of '%s'",
			       hl_sym_name(P->p, syms[i]), fn->name);
			return 0;
		}
	}
	ns = 0;
	free_syms(P, v, SYM_RVAR, -1, syms, &ns, 32);
	if (ns) {
		const HExpr *at_e = find_var(v, syms[0]);
		hlp_err_at(P, at_e->line, at_e->col,
		       "the pure definition of '%s' uses the reduction variable '%s': write an update definition or sum()",
		       fn->name, hl_sym_name(P->p, syms[0]));
		return 0;
	}
	fn = &P->p->funcs.data[f];
	fn->defined = 1;
	fn->dims = n;
	fn->type = v->type;
	fn->vars = arena_alloc(P->a, sizeof *fn->vars * (size_t)(n ? n : 1));
	for (int i = 0; i < n; i++)
		fn->vars[i] = lhs[i]->sym;
	HDef *d = push_def(P, f, lhs, n, v, ft);
	for (int i = 0; i < n; i++) {
		vec_push(&d->sched.dims, lhs[i]->sym);
		vec_push(&d->sched.unrolled, 0);
	}
	return 1;
}

/* The implicit pure definition of `f(args) op= e` on an undefined Func:
 * the identity of op, of e's type. */
static int implicit_pure(Parser *P, int f, Val *args, int n, HBinOp op, Val rhs, const HTok *ft)
{
	HExpr *e = hlp_to_expr(P, rhs);
	if (!e)
		return 0;
	Val vars[16];
	for (int i = 0; i < n; i++) {
		HExpr *a = hlp_to_expr(P, args[i]);
		if (!a)
			return 0;
		if (a->kind == HE_VAR && P->p->syms.data[a->sym].kind == SYM_VAR) {
			vars[i] = hlp_vexpr(a, args[i].line, args[i].col);
		} else {
			int s = hlp_new_sym(P, SYM_VAR, arena_printf(P->a, "_%d", i), ft->line, ft->col);
			vars[i] = hlp_vexpr(he_var(P->a, s), args[i].line, args[i].col);
		}
	}
	HExpr *init = he_const(P->a, e->type, op == HB_MUL ? 1 : 0);
	return pure_def(P, f, vars, n, hlp_vexpr(init, ft->line, ft->col), ft);
}

Val hlp_named_reduction(Parser *P, int f, HBinOp op, HExpr *e, int rdom, const HTok *t)
{
	HFunc *fn = &P->p->funcs.data[f];
	if (fn->defined || P->def_failed.data[f])
		return hlp_err_tok(P, t, "%s(): the Func given for its result, '%s', already has a definition (Halide "
				   "defines it here)", t->text, fn->name);
	int vars[16], n = 0;
	free_syms(P, e, SYM_VAR, -1, vars, &n, 16);
	HExpr *args[16];
	Val vargs[16];
	for (int i = 0; i < n; i++) {
		args[i] = he_var(P->a, vars[i]);
		vargs[i] = hlp_vexpr(args[i], t->line, t->col);
	}
	HExpr *init = he_const(P->a, e->type, he_reduce_init(op, e->type));
	if (!pure_def(P, f, vargs, n, hlp_vexpr(init, t->line, t->col), t))
		return hlp_none;
	fn = &P->p->funcs.data[f];
	HExpr *self = he_call(P->a, f, 0, fn->type, args, n);
	HExpr *v = he_bin(P->a, op, fn->type, self, e);
	HDef *d = push_def(P, f, args, n, v, t);
	const HRDom *r = &P->p->rdoms.data[rdom];
	for (int i = 0; i < r->ndims; i++) {
		vec_push(&d->sched.dims, r->sym[i]);
		vec_push(&d->sched.unrolled, 0);
	}
	for (int i = 0; i < n; i++) {
		vec_push(&d->sched.dims, vars[i]);
		vec_push(&d->sched.unrolled, 0);
	}
	record_uses(P, f, e);
	return hlp_vexpr(he_call(P->a, f, 0, fn->type, args, n), t->line, t->col);
}

/* The arguments on the left of an update: Int(32), affine in pure vars (at
 * their pure positions), RVars and constants; no data-dependent address. */
static int update_lhs(Parser *P, HFunc *fn, Val *args, int n, HExpr **lhs)
{
	for (int i = 0; i < n; i++) {
		if (!(lhs[i] = hlp_call_arg(P, args[i], fn->name, i)))
			return 0;
		if (he_calls_any(lhs[i])) {
			hlp_err_at(P, args[i].line, args[i].col,
			       "data-dependent write to '%s': the address depends on data (a histogram); "
			       "only affine write addresses are supported (Unified Buffer Table 2)",
			       fn->name);
			return 0;
		}
		int syms[16], ns = 0;
		free_syms(P, lhs[i], SYM_VAR, -1, syms, &ns, 16);
		for (int k = 0; k < ns; k++) {
			int pos = -1;
			for (int j = 0; j < fn->dims; j++)
				if (fn->vars[j] == syms[k])
					pos = j;
			if (pos != i || lhs[i]->kind != HE_VAR) {
				hlp_err_at(P, args[i].line, args[i].col,
				       pos < 0 ? "undefined variable '%s' on the left of an update of '%s'"
					       : "pure variable '%s' of '%s' must appear alone at its own position in an update",
				       hl_sym_name(P->p, syms[k]), fn->name);
				return 0;
			}
		}
	}
	return 1;
}

static int update_def(Parser *P, int f, Val *args, int n, HBinOp op, int has_op, Val rhs, const HTok *ft,
		      const HTok *opt)
{
	HFunc *fn = &P->p->funcs.data[f];
	if (n != fn->dims) {
		hlp_err_tok(P, ft, "update of '%s' with %d argument%s; it has %d dimension%s", fn->name, n,
			n == 1 ? "" : "s", fn->dims, fn->dims == 1 ? "" : "s");
		return 0;
	}
	HExpr *lhs[16];
	if (!update_lhs(P, fn, args, n, lhs))
		return 0;
	Val v = rhs;
	if (has_op) {
		HExpr *self = he_call(P->a, f, 0, fn->type, lhs, n);
		v = hlp_binop(P, op, hlp_vexpr(self, ft->line, ft->col), rhs, opt);
	} else if (v.k == V_INT) {
		v = hlp_vexpr(hlp_to_expr(P, v), v.line, v.col);
	}
	HExpr *e = v.k == V_NONE ? NULL : hlp_to_expr(P, v);
	if (!e)
		return 0;
	fn = &P->p->funcs.data[f];
	if (!ht_eq(e->type, fn->type)) {
		hlp_err_at(P, rhs.line, rhs.col, "cannot update '%s' (of type %s) with a value of type %s",
		       fn->name, ht_name(fn->type), ht_name(e->type));
		return 0;
	}
	int rd[8], nr = 0;
	for (int i = 0; i < n; i++)
		hlp_collect_rdoms(P, lhs[i], rd, &nr);
	hlp_collect_rdoms(P, e, rd, &nr);
	if (nr > 1) {
		hlp_err_tok(P, ft, "an update of '%s' uses two RDoms (%s and %s)", fn->name,
			P->p->rdoms.data[rd[0]].name, P->p->rdoms.data[rd[1]].name);
		return 0;
	}
	int syms[32], ns = 0;
	free_syms(P, e, SYM_VAR, -1, syms, &ns, 32);
	for (int k = 0; k < ns; k++) {
		int ok = 0;
		for (int i = 0; i < n; i++)
			ok |= lhs[i]->kind == HE_VAR && lhs[i]->sym == syms[k];
		if (!ok) {
			const HExpr *at_e = find_var(e, syms[k]);
			hlp_err_at(P, at_e->line, at_e->col, "undefined variable '%s' in an update of '%s'",
			       hl_sym_name(P->p, syms[k]), fn->name);
			return 0;
		}
	}
	HDef *d = push_def(P, f, lhs, n, e, ft);
	if (nr == 1) {
		HRDom *r = &P->p->rdoms.data[rd[0]];
		for (int i = 0; i < r->ndims; i++) {
			vec_push(&d->sched.dims, r->sym[i]);
			vec_push(&d->sched.unrolled, 0);
		}
	}
	for (int i = 0; i < n; i++)
		if (lhs[i]->kind == HE_VAR && P->p->syms.data[lhs[i]->sym].kind == SYM_VAR) {
			vec_push(&d->sched.dims, lhs[i]->sym);
			vec_push(&d->sched.unrolled, 0);
		}
	return 1;
}

/* The first RVar of no RDom (a split's loop name) in e, or NULL. */
static const HExpr *unbound_rvar(Parser *P, const HExpr *e)
{
	if (!e)
		return NULL;
	if (e->kind == HE_VAR && P->p->syms.data[e->sym].kind == SYM_RVAR && P->p->syms.data[e->sym].rdom < 0)
		return e;
	const HExpr *r;
	if ((r = unbound_rvar(P, e->a)) || (r = unbound_rvar(P, e->b)) || (r = unbound_rvar(P, e->c)))
		return r;
	for (int i = 0; i < e->nargs; i++)
		if ((r = unbound_rvar(P, e->args[i])))
			return r;
	return NULL;
}

/* 0 (an error) if one of the n values uses an RVar of no RDom. */
static int rvars_bound(Parser *P, const Val *v, int n)
{
	for (int i = 0; i < n; i++) {
		const HExpr *r = v[i].k == V_EXPR ? unbound_rvar(P, v[i].e) : NULL;
		if (r) {
			hlp_err_at(P, r->line ? r->line : v[i].line, r->line ? r->col : v[i].col,
				   "RVar '%s' belongs to no RDom: it names a loop of a split in a schedule; a "
				   "definition reads the variables of an RDom (r.x, r.y, ...)", hl_sym_name(P->p, r->sym));
			return 0;
		}
	}
	return 1;
}

void hlp_definition(Parser *P, int f, const HTok *ft)
{
	Val args[16];
	int n = hlp_parse_args(P, args, 16);
	if (n < 0)
		return;
	HTok *opt = hlp_cur(P);
	static const char *const ops[] = { "=", "+=", "-=", "*=", "/=" };
	static const HBinOp bops[] = { HB_ADD, HB_ADD, HB_SUB, HB_MUL, HB_DIV };
	int k = -1;
	for (int i = 0; i < 5; i++)
		if (hlx_is(opt, ops[i]))
			k = i;
	if (k < 0) {
		hlp_err_tok(P, opt, "expected '=' or an update operator after a call of '%s' before %s",
			hlp_func_name(P, f), hlp_tok_desc(opt));
		return;
	}
	hlp_next(P);
	Val rhs = hlp_parse_expr(P);
	if (P->failed || !hlp_expect(P, ";") || !rvars_bound(P, args, n) || !rvars_bound(P, &rhs, 1))
		return;
	HFunc *fn = &P->p->funcs.data[f];
	const FuncUse *u = &P->used.data[f];
	if (fn->defined && u->by >= 0) {
		hlp_err_tok(P, ft, "Func '%s' cannot be given another definition: '%s' already uses it (line %d)",
			    fn->name, hlp_func_name(P, u->by), u->line);
		return;
	}
	int ok;
	if (!fn->defined)
		ok = k == 0 ? pure_def(P, f, args, n, rhs, ft)
			    : implicit_pure(P, f, args, n, bops[k], rhs, ft) &&
				      update_def(P, f, args, n, bops[k], 1, rhs, ft, opt);
	else
		ok = update_def(P, f, args, n, bops[k], k > 0, rhs, ft, opt);
	if (ok) {
		const HDef *d = &vec_last(&P->p->funcs.data[f].defs);
		record_uses(P, f, d->value);
		for (int i = 0; i < d->nlhs; i++)
			record_uses(P, f, d->lhs[i]);
	}
}
