/* hl_parse_sched.c - schedules (hl_parse.h): the calls chained on a Func
 * or one of its updates (bound, split, tile, reorder, unroll, compute_at,
 * store_at, compute_root, in, ...) and the accelerator directives
 * hw_accelerate and stream_to_accelerator. */
#include <stdlib.h>
#include <string.h>

#include "hl_parse.h"

/* ---- schedules ---- */

static int var_arg(Parser *P, Val v, const char *what)
{
	HExpr *e = v.k == V_RDOM ? hlp_to_expr(P, v) : v.k == V_EXPR ? v.e : NULL;
	if (!e || e->kind != HE_VAR) {
		if (!P->failed)
			hlp_err_at(P, v.line, v.col, "%s: expected a Var or RVar", what);
		return -1;
	}
	return e->sym;
}

int hlp_int_arg(Parser *P, Val v, const char *what, int64_t lo, int64_t *out)
{
	if (v.k != V_INT) {
		hlp_err_at(P, v.line, v.col, "%s: expected an integer constant", what);
		return 0;
	}
	if (v.i < lo) {
		hlp_err_at(P, v.line, v.col, "%s: %lld is below %lld", what, (long long)v.i, (long long)lo);
		return 0;
	}
	*out = v.i;
	return 1;
}

int hlp_dim_index(const HStageSched *s, int sym)
{
	for (int i = 0; i < s->dims.len; i++)
		if (s->dims.data[i] == sym)
			return i;
	return -1;
}

static const char *stage_name(Parser *P, int f, int def)
{
	return arena_printf(P->a, "%s.s%d", hlp_func_name(P, f), def);
}

const char *hlp_stage_loops(Parser *P, const HStageSched *s)
{
	StrBuf b = { 0 };
	for (int i = s->dims.len - 1; i >= 0; i--)
		sb_printf(&b, "%s%s", i == s->dims.len - 1 ? "" : ", ", hl_sym_name(P->p, s->dims.data[i]));
	const char *r = arena_strdup(P->a, b.s ? b.s : "");
	free(b.s);
	return r;
}

static int find_dim(Parser *P, HStageSched *s, int sym, Val v, const char *what, int f, int def)
{
	int i = hlp_dim_index(s, sym);
	if (i < 0)
		hlp_err_at(P, v.line, v.col, "%s: '%s' is not a loop of %s (its loops, outermost first: %s)", what,
		       hl_sym_name(P->p, sym), stage_name(P, f, def), hlp_stage_loops(P, s));
	return i;
}

static int do_split(Parser *P, HStageSched *s, int f, int def, Val *a, int64_t factor, const char *tail)
{
	int old = var_arg(P, a[0], "split"), outer = var_arg(P, a[1], "split"),
	    inner = var_arg(P, a[2], "split");
	if (old < 0 || outer < 0 || inner < 0)
		return 0;
	int i = find_dim(P, s, old, a[0], "split", f, def);
	if (i < 0)
		return 0;
	int rold = P->p->syms.data[old].kind == SYM_RVAR;
	for (int k = 1; k < 3; k++) {
		int sym = k == 1 ? outer : inner;
		if ((P->p->syms.data[sym].kind == SYM_RVAR) != rold) {
			hlp_err_at(P, a[k].line, a[k].col, "split of %s '%s' into %s '%s': Halide splits a Var into Vars "
				   "and an RVar into RVars", rold ? "RVar" : "Var", hl_sym_name(P->p, old),
				   rold ? "Var" : "RVar", hl_sym_name(P->p, sym));
			return 0;
		}
	}
	if (s->splits.len >= HL_MAX_SPLITS) {
		hlp_err_at(P, a[0].line, a[0].col, "split of '%s': %s is split %d times already, the most there can be",
			   hl_sym_name(P->p, old), stage_name(P, f, def), HL_MAX_SPLITS);
		return 0;
	}
	if (outer == inner || (outer != old && hlp_dim_index(s, outer) >= 0) || hlp_dim_index(s, inner) >= 0) {
		hlp_err_at(P, a[1].line, a[1].col, "split of '%s': the new loop names must be fresh in %s",
		       hl_sym_name(P->p, old), stage_name(P, f, def));
		return 0;
	}
	HSplit sp = { old, outer, inner, factor, tail, a[0].line, a[0].col };
	vec_push(&s->splits, sp);
	vec_push(&s->dims, 0);
	vec_push(&s->unrolled, 0);
	for (int k = s->dims.len - 1; k > i + 1; k--) {
		s->dims.data[k] = s->dims.data[k - 1];
		s->unrolled.data[k] = s->unrolled.data[k - 1];
	}
	s->dims.data[i] = inner;
	s->dims.data[i + 1] = outer;
	s->unrolled.data[i] = s->unrolled.data[i + 1] = 0;
	return 1;
}

static int do_reorder(Parser *P, HStageSched *s, int f, int def, Val *a, int n)
{
	int pos[16], syms[16];
	for (int i = 0; i < n; i++) {
		if ((syms[i] = var_arg(P, a[i], "reorder")) < 0)
			return 0;
		if ((pos[i] = find_dim(P, s, syms[i], a[i], "reorder", f, def)) < 0)
			return 0;
		for (int j = 0; j < i; j++)
			if (syms[j] == syms[i]) {
				hlp_err_at(P, a[i].line, a[i].col, "reorder: '%s' appears twice", hl_sym_name(P->p, syms[i]));
				return 0;
			}
	}
	char unr[16];
	for (int i = 0; i < n; i++)
		unr[i] = s->unrolled.data[pos[i]];
	int sorted[16];
	memcpy(sorted, pos, sizeof *pos * (size_t)n);
	for (int i = 1; i < n; i++)
		for (int j = i; j > 0 && sorted[j - 1] > sorted[j]; j--) {
			int t = sorted[j];
			sorted[j] = sorted[j - 1];
			sorted[j - 1] = t;
		}
	for (int i = 0; i < n; i++) {
		s->dims.data[sorted[i]] = syms[i];
		s->unrolled.data[sorted[i]] = unr[i];
	}
	return 1;
}

static int do_tile(Parser *P, HStageSched *s, int f, int def, Val *a, int n, const char *tail)
{
	Val sx[3], sy[3], order[4];
	int64_t fx, fy;
	if (n == 8) {
		sx[0] = a[0], sx[1] = a[2], sx[2] = a[4];
		sy[0] = a[1], sy[1] = a[3], sy[2] = a[5];
		order[0] = a[4], order[1] = a[5], order[2] = a[2], order[3] = a[3];
	} else {
		sx[0] = a[0], sx[1] = a[0], sx[2] = a[2];
		sy[0] = a[1], sy[1] = a[1], sy[2] = a[3];
		order[0] = a[2], order[1] = a[3], order[2] = a[0], order[3] = a[1];
	}
	if (!hlp_int_arg(P, a[n - 2], "tile factor", 1, &fx) || !hlp_int_arg(P, a[n - 1], "tile factor", 1, &fy))
		return 0;
	return do_split(P, s, f, def, sx, fx, tail) && do_split(P, s, f, def, sy, fy, tail) &&
	       do_reorder(P, s, f, def, order, 4);
}

static int do_unroll(Parser *P, HStageSched *s, int f, int def, Val *a, int n, const char *tail)
{
	int v = var_arg(P, a[0], "unroll");
	if (v < 0)
		return 0;
	int i = find_dim(P, s, v, a[0], "unroll", f, def);
	if (i < 0)
		return 0;
	if (n == 2) {
		int64_t factor;
		if (!hlp_int_arg(P, a[1], "unroll factor", 1, &factor))
			return 0;
		HSym *sym = &P->p->syms.data[v];
		/* by its reduction domain's whole extent: the whole loop */
		if (sym->kind == SYM_RVAR && sym->rdom >= 0 && factor == P->p->rdoms.data[sym->rdom].extent[sym->dim]) {
			s->unrolled.data[i] = 1;
			return 1;
		}
		/* the loop inside: a Var, or an RVar for an RVar's (as Halide names them) */
		int inner = hlp_new_sym(P, sym->kind == SYM_RVAR ? SYM_RVAR : SYM_VAR,
					arena_printf(P->a, "%s_u", sym->name), a[0].line, a[0].col);
		Val sp[3] = { a[0], a[0], hlp_vexpr(he_var(P->a, inner), a[0].line, a[0].col) };
		if (!do_split(P, s, f, def, sp, factor, tail))
			return 0;
		v = inner;
		i = hlp_dim_index(s, v);
	}
	s->unrolled.data[i] = 1;
	return 1;
}

static int level_arg(Parser *P, Val *a, HLevel *l, const HTok *t)
{
	if (a[0].k != V_FUNC) {
		hlp_err_at(P, a[0].line, a[0].col, "%s: expected a Func, not %s", t->text, hlp_val_desc(P, a[0]));
		return 0;
	}
	/* Var::outermost(): the outermost loop of the Func's stage 0, known once
	 * its schedule is (hlp_resolve_outermost) */
	int v = a[1].k == V_ENUM && !strcmp(a[1].s, "Var::outermost") ? HL_OUTERMOST : var_arg(P, a[1], t->text);
	if (v < 0 && v != HL_OUTERMOST)
		return 0;
	l->kind = LEVEL_AT;
	l->func = a[0].id;
	l->var = v;
	l->line = a[1].line;
	l->col = a[1].col;
	return 1;
}

static int bound_call(Parser *P, HFunc *fn, Val *a)
{
	int v = var_arg(P, a[0], "bound");
	int64_t mn, ext;
	if (v < 0 || !hlp_int_arg(P, a[1], "bound min", INT32_MIN, &mn) || !hlp_int_arg(P, a[2], "bound extent", 1, &ext))
		return 0;
	int pos = -1;
	for (int i = 0; i < fn->dims; i++)
		if (fn->vars[i] == v)
			pos = i;
	if (pos < 0) {
		hlp_err_at(P, a[0].line, a[0].col, "bound: '%s' is not a pure variable of '%s'",
		       hl_sym_name(P->p, v), fn->name);
		return 0;
	}
	vec_foreach(&fn->bounds, i) if (fn->bounds.data[i].var == v) {
		hlp_err_at(P, a[0].line, a[0].col, "bound: '%s' of '%s' is already bounded", hl_sym_name(P->p, v),
		       fn->name);
		return 0;
	}
	HBound b = { v, mn, ext, a[0].line, a[0].col };
	vec_push(&fn->bounds, b);
	return 1;
}

/* v as a pure variable of fn: its position, or -1 (an error). */
static int pure_var(Parser *P, HFunc *fn, Val v, const char *what)
{
	int sym = var_arg(P, v, what);
	if (sym < 0)
		return -1;
	for (int i = 0; i < fn->dims; i++)
		if (fn->vars[i] == sym)
			return i;
	hlp_err_at(P, v.line, v.col, "%s: '%s' is not a pure variable of '%s'", what, hl_sym_name(P->p, sym), fn->name);
	return -1;
}

/* reorder_storage(v, ...): the storage order of the listed dimensions, a hint
 * (buffers are laid out by the compiler); checked as Halide checks it. */
static int storage_order(Parser *P, HFunc *fn, Val *a, int n)
{
	int seen[16];
	for (int i = 0; i < n; i++) {
		if ((seen[i] = pure_var(P, fn, a[i], "reorder_storage")) < 0)
			return 0;
		for (int j = 0; j < i; j++)
			if (seen[j] == seen[i]) {
				hlp_err_at(P, a[i].line, a[i].col, "reorder_storage: '%s' appears twice",
					   hl_sym_name(P->p, fn->vars[seen[i]]));
				return 0;
			}
	}
	return 1;
}

/* hw_accelerate: Func f is the accelerator's output; a (if not NULL) its
 * inner and outer loop Vars. */
static int accelerate(Parser *P, int f, Val *a, const HTok *t)
{
	if (P->p->output >= 0) {
		hlp_err_tok(P, t, "hw_accelerate() is called twice (first at line %d)", P->p->accel_line);
		return 0;
	}
	int inner = -1, outer = -1;
	if (a && ((inner = var_arg(P, a[0], "hw_accelerate")) < 0 || (outer = var_arg(P, a[1], "hw_accelerate")) < 0))
		return 0;
	P->p->output = f;
	P->p->accel_inner = inner;
	P->p->accel_outer = outer;
	P->p->accel_line = t->line;
	P->p->accel_col = t->col;
	return 1;
}

/* stream_to_accelerator / accelerator_input of Func f: the host computes
 * it, the accelerator reads it as a stream. */
static int stream_func(Parser *P, int f, const HTok *t)
{
	HFunc *fn = &P->p->funcs.data[f];
	if (!fn->streamed) {
		fn->streamed = 1;
		fn->stream_line = t->line;
		fn->stream_col = t->col;
	}
	return 1;
}

typedef struct Method {
	const char *name;
	int min, max;           /* argument counts */
	int stage_ok;           /* allowed on update stages */
	int func_level;         /* the Func's, not its loops': allowed before its definition */
} Method;

static const Method methods[] = {
	{ "bound", 3, 3, 0, 0 }, { "tile", 6, 8, 1, 0 }, { "split", 4, 4, 1, 0 }, { "reorder", 1, 16, 1, 0 },
	{ "unroll", 1, 2, 1, 0 }, { "compute_at", 2, 2, 0, 1 }, { "store_at", 2, 2, 0, 1 },
	{ "compute_root", 0, 0, 0, 1 }, { "store_root", 0, 0, 0, 1 }, { "compute_inline", 0, 0, 0, 1 },
	{ "update", 0, 1, 0, 0 }, { "in", 0, 1, 0, 0 },
	/* the accelerator directives as methods (Halide-to-Hardware's spelling) */
	{ "hw_accelerate", 0, 2, 0, 0 }, { "stream_to_accelerator", 0, 0, 0, 1 }, { "accelerator_input", 0, 0, 0, 1 },
	/* hardware hints, recorded */
	{ "linebuffer", 0, 0, 0, 1 }, { "fifo_depth", 1, 2, 0, 1 }, { "store_in", 1, 1, 0, 1 },
	{ "reorder_storage", 1, 16, 0, 0 }, { "bound_extent", 2, 2, 0, 0 },
};

#define SUPPORTED_CALLS "bound, tile, split, reorder, unroll, compute_at, store_at, compute_root, store_root, " \
	"compute_inline, update, in, hw_accelerate, stream_to_accelerator, accelerator_input, linebuffer, " \
	"fifo_depth, store_in, reorder_storage, bound_extent"

/* One `.method(args)` of a schedule chain applied to v; returns the value
 * the chain continues with. */
static Val method(Parser *P, Val v, const HTok *m)
{
	if (v.k == V_DIM)
		return hlp_dim_method(P, v, m);
	if (v.k == V_IMAGE && hlx_is(m, "dim")) {
		int d = hlp_dim_arg(P, v, m);
		if (d < 0)
			return hlp_none;
		Val r = { .k = V_DIM, .id = v.id, .def = d, .line = m->line, .col = m->col };
		return r;
	}
	const Method *md = NULL;
	for (size_t i = 0; i < sizeof methods / sizeof *methods; i++)
		if (hlx_is(m, methods[i].name))
			md = &methods[i];
	if (!md)
		return hlp_err_tok(P, m, "unsupported schedule call '%s' (supported: " SUPPORTED_CALLS ")", m->text);
	Val a[16];
	int n = hlp_parse_args(P, a, 16);
	if (n < 0)
		return hlp_none;
	if (v.k == V_IMAGE) {
		if (!hlx_is(m, "in"))
			return hlp_err_tok(P, m, "'%s' on ImageParam '%s': only in() and dim(k).set_bounds() apply to an "
					   "image", m->text, P->p->images.data[v.id].name);
	} else if (v.k == V_STAGE && !md->stage_ok) {
		return hlp_err_tok(P, m, "'%s' applies to a Func, not to an update stage", m->text);
	}
	/* a trailing TailStrategy of split, tile, unroll */
	const char *tail = NULL;
	if (n > 0 && a[n - 1].k == V_ENUM && strncmp(a[n - 1].s, "TailStrategy::", 14) == 0 &&
	    (hlx_is(m, "split") || hlx_is(m, "tile") || hlx_is(m, "unroll"))) {
		tail = a[n - 1].s + 14;
		n--;
		if (hlx_is(m, "unroll") && n != 2)
			return hlp_err_tok(P, m, "unroll() with a tail strategy takes a variable and a factor");
	}
	if (hlx_is(m, "tile") && n != 6 && n != 8)
		return hlp_err_tok(P, m, "tile() takes 6 or 8 arguments (and a tail strategy), not %d", n);
	if (hlx_is(m, "split") && n != 4)
		return hlp_err_tok(P, m, "split() takes 4 arguments (and a tail strategy), not %d", n);
	if (hlx_is(m, "hw_accelerate") && n == 1)
		return hlp_err_tok(P, m, "hw_accelerate() takes no argument, or two loop Vars (inner, outer)");
	if (n < md->min || n > md->max) {
		if (md->max == md->min)
			return hlp_err_tok(P, m, "%s() takes %d argument%s, not %d", m->text, md->min,
					   md->min == 1 ? "" : "s", n);
		return hlp_err_tok(P, m, "%s() takes %d %s %d arguments, not %d", m->text, md->min,
				   md->max == md->min + 1 ? "or" : "to", md->max, n);
	}
	if (hlx_is(m, "in")) {
		if (n == 1 && a[0].k != V_FUNC)
			return hlp_err_at(P, a[0].line, a[0].col, "in() takes a Func, not %s", hlp_val_desc(P, a[0]));
		return hlp_wrapper_of(P, v, m, n == 1 ? a[0].id : -1);
	}
	int f = v.id, def = v.k == V_STAGE ? v.def : 0;
	HFunc *fn = &P->p->funcs.data[f];
	if (!fn->defined && hlp_failed_func(P, f))
		return hlp_none;
	/* as in Halide, what schedules the Func itself applies before its
	 * definition, and is ignored (with a warning) if none ever comes */
	if (!fn->defined && md->func_level && !P->sched_undef.data[f])
		P->sched_undef.data[f] = (HTok *)m;
	if (!fn->defined && !md->func_level)
		return hlp_err_tok(P, m, "'%s' on Func '%s', which has no definition (yet): its loops come from its "
				   "definition", m->text, fn->name);
	HStageSched *s = fn->defined ? &fn->defs.data[def].sched : NULL;
	int ok = 1;
	if (hlx_is(m, "update")) {
		int64_t k = 0;
		if (n == 1 && !hlp_int_arg(P, a[0], "update index", 0, &k))
			return hlp_none;
		if (k + 1 >= fn->defs.len)
			return hlp_err_tok(P, m, "update(%lld) of '%s', which has %d update definition%s", (long long)k,
				       fn->name, fn->defs.len - 1, fn->defs.len == 2 ? "" : "s");
		Val r = { .k = V_STAGE, .id = f, .def = (int)k + 1, .line = m->line, .col = m->col };
		return r;
	} else if (hlx_is(m, "bound")) {
		ok = bound_call(P, fn, a);
	} else if (hlx_is(m, "tile")) {
		ok = do_tile(P, s, f, def, a, n, tail);
	} else if (hlx_is(m, "split")) {
		int64_t factor;
		ok = hlp_int_arg(P, a[3], "split factor", 1, &factor) && do_split(P, s, f, def, a, factor, tail);
	} else if (hlx_is(m, "reorder")) {
		ok = do_reorder(P, s, f, def, a, n);
	} else if (hlx_is(m, "unroll")) {
		ok = do_unroll(P, s, f, def, a, n, tail);
		s->unroll_line = m->line;
		s->unroll_col = m->col;
	} else if (hlx_is(m, "hw_accelerate")) {
		ok = accelerate(P, f, n ? a : NULL, m);
	} else if (hlx_is(m, "stream_to_accelerator") || hlx_is(m, "accelerator_input")) {
		ok = stream_func(P, f, m);
	} else if (hlx_is(m, "linebuffer")) {
		fn->linebuffer = 1;
	} else if (hlx_is(m, "fifo_depth")) {
		/* fifo_depth(n), or the fork's fifo_depth(consumer, n) */
		if (n == 2 && a[0].k != V_FUNC)
			return hlp_err_at(P, a[0].line, a[0].col, "fifo_depth(consumer, depth): expected a Func, not %s",
					  hlp_val_desc(P, a[0]));
		ok = hlp_int_arg(P, a[n - 1], "fifo_depth", 1, &fn->fifo_depth);
	} else if (hlx_is(m, "store_in")) {
		if (a[0].k != V_ENUM || strncmp(a[0].s, "MemoryType::", 12) != 0) {
			hlp_err_at(P, a[0].line, a[0].col, "store_in: expected a MemoryType (MemoryType::GLB, ...), not %s",
				   hlp_val_desc(P, a[0]));
			ok = 0;
		} else {
			fn->memory = a[0].s + 12;
		}
	} else if (hlx_is(m, "reorder_storage")) {
		ok = storage_order(P, fn, a, n);
	} else if (hlx_is(m, "bound_extent")) {
		int64_t ext;
		ok = pure_var(P, fn, a[0], "bound_extent") >= 0 && hlp_int_arg(P, a[1], "bound_extent extent", 1, &ext);
	} else if (hlx_is(m, "compute_at")) {
		ok = level_arg(P, a, &fn->compute, m);
		if (ok && fn->store.kind == LEVEL_INLINE)
			fn->store = fn->compute;
	} else if (hlx_is(m, "store_at")) {
		ok = level_arg(P, a, &fn->store, m);
	} else if (hlx_is(m, "compute_root") || hlx_is(m, "store_root")) {
		HLevel root = { LEVEL_ROOT, -1, -1, m->line, m->col };
		if (hlx_is(m, "compute_root")) {
			fn->compute = root;
			if (fn->store.kind == LEVEL_INLINE)
				fn->store = root;
		} else {
			fn->store = root;
		}
	} else {
		fn->compute.kind = fn->store.kind = LEVEL_INLINE;
	}
	return ok ? v : hlp_none;
}

void hlp_resolve_outermost(Parser *P)
{
	vec_foreach(&P->p->funcs, f) {
		HFunc *fn = &P->p->funcs.data[f];
		HLevel *lv[2] = { &fn->compute, &fn->store };
		for (int k = 0; k < 2; k++) {
			if (lv[k]->kind != LEVEL_AT || lv[k]->var != HL_OUTERMOST)
				continue;
			const HFunc *g = &P->p->funcs.data[lv[k]->func];
			if (!g->defined || !g->defs.data[0].sched.dims.len) {
				P->failed = 0;
				hlp_err_at(P, lv[k]->line, lv[k]->col, "%s of '%s' at Var::outermost() of '%s', which has no "
					   "loops", k ? "store_at" : "compute_at", fn->name, g->name);
				lv[k]->kind = LEVEL_ROOT;
				continue;
			}
			lv[k]->var = vec_last(&g->defs.data[0].sched.dims);
		}
	}
}

void hlp_warn_undefined_schedules(Parser *P)
{
	vec_foreach(&P->p->funcs, f) {
		HFunc *fn = &P->p->funcs.data[f];
		const HTok *m = P->sched_undef.data[f];
		if (fn->defined || !m || P->def_failed.data[f])
			continue;
		diag_warning(P->d, P->file, m->line, m->col,
			     "'%s' schedules Func '%s', which is never defined: ignored, as Halide ignores it", m->text,
			     fn->name);
		fn->compute.kind = fn->store.kind = LEVEL_INLINE;
		fn->streamed = 0;
	}
}

void hlp_schedule_chain(Parser *P, Val v)
{
	while (!P->failed && hlp_accept(P, ".")) {
		HTok *m = hlp_cur(P);
		if (!hlp_expect_name(P))
			return;
		v = method(P, v, m);
	}
	if (!P->failed)
		hlp_expect(P, ";");
}

/* ---- directives ---- */

void hlp_directive(Parser *P, const HTok *t)
{
	Val a[3];
	int n = hlp_parse_args(P, a, 3);
	if (n < 0)
		return;
	if (hlx_is(t, "stream_to_accelerator")) {
		if (n != 1 || (a[0].k != V_IMAGE && a[0].k != V_FUNC)) {
			hlp_err_tok(P, t, "stream_to_accelerator() takes one ImageParam or Func");
			return;
		}
		if (a[0].k == V_IMAGE)
			P->p->images.data[a[0].id].streamed = 1;
		else if (!stream_func(P, a[0].id, t))
			return;
	} else {
		if ((n != 1 && n != 3) || a[0].k != V_FUNC) {
			hlp_err_tok(P, t, "hw_accelerate() takes a Func, or a Func and two loop Vars (inner, outer)");
			return;
		}
		if (!accelerate(P, a[0].id, n == 3 ? a + 1 : NULL, t))
			return;
	}
	hlp_expect(P, ";");
}
