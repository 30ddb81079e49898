/* hl_parse_accel.c - the accelerator's boundary (hl_parse.h), as programs
 * written for Halide-to-Hardware draw it:
 *
 *     hw_input(x, y) = cast<uint16_t>(input(x, y));   // streamed Func
 *     ...
 *     hw_output(x, y) = ...;                          // hw_accelerate
 *     output(x, y) = cast<uint8_t>(hw_output(x, y));  // a host stage after it
 *
 * Host stages after the accelerator's output that read it point by point
 * (the pipeline's output Func and the Funcs between) are brought into the
 * accelerator: the pipeline's output takes over the accelerator's schedule
 * (its loops, splits and hw_accelerate's loop levels), the accelerator's
 * output is inlined into it (or, with update definitions, computed at its
 * outer loop). The program's output is then the pipeline's output, for the
 * interpreter and the compiler alike.
 *
 * A streamed Func is computed by the host and streamed in: hl_accel_view()
 * turns it into an input image of the accelerator's program. */
#include <stdlib.h>
#include <string.h>

#include "hl_parse.h"

/* ---- Funcs after the accelerator's output ---- */

static void reach_callers(const HProgram *p, int f, char *down)
{
	vec_foreach(&p->funcs, g) {
		const HFunc *gf = &p->funcs.data[g];
		if (down[g] || g == f || !gf->defined)
			continue;
		int calls = 0;
		vec_foreach(&gf->defs, k) calls |= he_calls(gf->defs.data[k].value, f);
		if (calls) {
			down[g] = 1;
			reach_callers(p, g, down);
		}
	}
}

/* The stages after the accelerator read one another point by point, each
 * at its own variables in any order (a transpose): a Func's variables then
 * stand for the pipeline output's variables, through a permutation. */
typedef struct PointMap {
	const HProgram *p;
	const char *set;        /* the Funcs after the accelerator, and the accelerator's output */
	int n;                  /* their dimensions */
	int (*to)[16];          /* per Func: to[f][i], the output's variable f's variable i stands for */
	char *known;            /* per Func: to[f] is set */
} PointMap;

/* 1 if every call in e (of Func g, whose to[] is known) is a call of a Func
 * in the set at a permutation of g's variables, whose own variables then
 * stand for what g's do (set here, or the same as set before); the first
 * other read into *bad. */
static int pointwise(PointMap *M, int g, const HExpr *e, const HExpr **bad)
{
	if (!e)
		return 1;
	if (e->kind == HE_CALL) {
		const HFunc *gf = &M->p->funcs.data[g];
		if (e->is_image || !M->set[e->callee] || e->nargs != M->n) {
			*bad = e;
			return 0;
		}
		int map[16];
		for (int i = 0; i < M->n; i++) {
			const HExpr *a = e->args[i];
			while (a->kind == HE_CAST)
				a = a->a;
			int j = 0;
			while (j < M->n && (a->kind != HE_VAR || a->sym != gf->vars[j]))
				j++;
			for (int k = 0; k < i && j < M->n; k++)
				if (map[k] == M->to[g][j])
					j = M->n;       /* a variable twice: not a permutation */
			if (j == M->n) {
				*bad = e;
				return 0;
			}
			map[i] = M->to[g][j];
		}
		if (M->known[e->callee] && memcmp(M->to[e->callee], map, sizeof *map * (size_t)M->n)) {
			*bad = e;
			return 0;
		}
		if (!M->known[e->callee]) {     /* checked once, from its first reader */
			memcpy(M->to[e->callee], map, sizeof *map * (size_t)M->n);
			M->known[e->callee] = 1;
		}
	}
	if (e->kind == HE_SUM) {
		*bad = e;
		return 0;
	}
	if (!pointwise(M, g, e->a, bad) || !pointwise(M, g, e->b, bad) || !pointwise(M, g, e->c, bad))
		return 0;
	for (int i = 0; i < e->nargs; i++)
		if (!pointwise(M, g, e->args[i], bad))
			return 0;
	return 1;
}

static int rename_sym(int sym, const int *from, const int *to, int n)
{
	for (int i = 0; i < n; i++)
		if (sym == from[i])
			return to[i];
	return sym;
}

/* Moves the accelerator from Func a to the pipeline's output r, a's
 * variables standing for r's variables a_to. */
static void move_accelerator(HProgram *p, int a, int r, const char *post, const int *a_to)
{
	HFunc *af = &p->funcs.data[a], *rf = &p->funcs.data[r];
	HStageSched *from = &af->defs.data[0].sched, *to = &rf->defs.data[0].sched;
	/* r's loops become a's, its pure variables in place of a's */
	to->dims.len = to->unrolled.len = to->splits.len = 0;
	vec_foreach(&from->dims, i) {
		vec_push(&to->dims, rename_sym(from->dims.data[i], af->vars, a_to, af->dims));
		vec_push(&to->unrolled, from->unrolled.data[i]);
	}
	vec_foreach(&from->splits, i) {
		HSplit sp = from->splits.data[i];
		sp.old = rename_sym(sp.old, af->vars, a_to, af->dims);
		vec_push(&to->splits, sp);
	}
	if (!rf->bounds.len)
		vec_foreach(&af->bounds, i) {
			HBound b = af->bounds.data[i];
			b.var = rename_sym(b.var, af->vars, a_to, af->dims);
			vec_push(&rf->bounds, b);
		}
	/* what was computed at a's loops is computed at r's */
	vec_foreach(&p->funcs, g) {
		HFunc *gf = &p->funcs.data[g];
		if (gf->compute.kind == LEVEL_AT && gf->compute.func == a)
			gf->compute.func = r;
		if (gf->store.kind == LEVEL_AT && gf->store.func == a)
			gf->store.func = r;
	}
	/* a itself, and the stages between, are inlined into r: a point-wise
	 * Func with updates is stored at r's outer loop instead */
	vec_foreach(&p->funcs, g) {
		if (!post[g] && g != a)
			continue;
		HFunc *gf = &p->funcs.data[g];
		if (g == r)
			continue;
		if (gf->defs.len > 1) {
			HLevel at = { p->accel_outer >= 0 ? LEVEL_AT : LEVEL_ROOT, r, p->accel_outer, p->accel_line,
				      p->accel_col };
			gf->compute = gf->store = at;
		} else {
			gf->compute.kind = gf->store.kind = LEVEL_INLINE;
		}
	}
	/* a's loops are r's now: a keeps its pure variables, in order */
	from->splits.len = 0;
	from->dims.len = from->unrolled.len = 0;
	for (int i = 0; i < af->dims; i++) {
		vec_push(&from->dims, af->vars[i]);
		vec_push(&from->unrolled, 0);
	}
	from->unroll_line = from->unroll_col = 0;
	p->accel_func = a;
	p->output = r;
}

/* Host stage g after the accelerator's output a: 1 if it reads the stages
 * before it point by point (M), else an error. */
static int check_host_stage(Parser *P, PointMap *M, int a, int g)
{
	const HProgram *p = P->p;
	const HFunc *gf = &p->funcs.data[g], *af = &p->funcs.data[a];
	const HExpr *bad = NULL;
	if (gf->defs.len > 1) {
		hlp_err_at(P, gf->defs.data[1].line, gf->defs.data[1].col,
			   "'%s' is computed after the accelerator's output '%s' (a host stage) and has an update "
			   "definition: only point-wise stages after the accelerator are supported, which the "
			   "accelerator then computes", gf->name, af->name);
		return 0;
	}
	if (gf->dims == af->dims && gf->dims <= 16 && pointwise(M, g, gf->defs.data[0].value, &bad))
		return 1;
	const HDef *d = &gf->defs.data[0];
	char *s = bad ? he_str(p, bad) : NULL;
	hlp_err_at(P, bad && bad->line ? bad->line : d->line, bad && bad->line ? bad->col : d->col,
		   "'%s' is computed after the accelerator's output '%s' (a host stage)%s%s%s: only point-wise "
		   "stages after the accelerator are supported (each reading the accelerator's output and the "
		   "stages after it at its own variables (%s), in any order, each Func always in the same one), "
		   "which the accelerator then computes", gf->name, af->name, s ? " and reads " : "", s ? s : "",
		   gf->dims != af->dims ? " with another number of dimensions" : "", hlp_func_vars(P, g));
	free(s);
	return 0;
}

int hlp_host_output(Parser *P)
{
	HProgram *p = P->p;
	int a = p->output, n = p->funcs.len;
	char *down = xcalloc((size_t)n, 1);
	reach_callers(p, a, down);
	int r = -1, sinks = 0, ok = 1;
	const char *names[2] = { NULL, NULL };
	for (int g = 0; g < n; g++) {
		if (!down[g])
			continue;
		/* a pipeline output: no Func after the accelerator reads it */
		int called = 0;
		for (int h = 0; h < n && !called; h++)
			if (down[h] && h != g)
				vec_foreach(&p->funcs.data[h].defs, k) called |= he_calls(p->funcs.data[h].defs.data[k].value, g);
		if (!called) {
			if (sinks < 2)
				names[sinks] = p->funcs.data[g].name;
			sinks++;
			r = g;
		}
	}
	const HFunc *af = &p->funcs.data[a];
	if (sinks > 1) {
		hlp_err_at(P, p->accel_line, p->accel_col,
			   "the accelerator's output '%s' is read by Funcs that lead to %d pipeline outputs ('%s', '%s'%s): "
			   "a program has one output", af->name, sinks, names[0], names[1], sinks > 2 ? ", ..." : "");
		ok = 0;
	} else if (sinks == 1) {
		/* every stage after the accelerator reads the stages before it point by
		 * point, from the pipeline's output back */
		char *set = xcalloc((size_t)n, 1);
		memcpy(set, down, (size_t)n);
		set[a] = 1;
		PointMap M = { p, set, af->dims, xcalloc((size_t)n, sizeof *M.to), xcalloc((size_t)n, 1) };
		const HFunc *rf = &p->funcs.data[r];
		for (int i = 0; i < rf->dims && i < 16; i++)
			M.to[r][i] = rf->vars[i];
		M.known[r] = 1;
		for (int g = 0; ok && g < n; g++)
			if (down[g] && M.known[g] == 1) {
				M.known[g] = 2;
				ok = check_host_stage(P, &M, a, g);
				g = -1;         /* from the first again: g's reads are known now */
			}
		if (ok)
			move_accelerator(p, a, r, down, M.to[a]);
		free(M.to);
		free(M.known);
		free(set);
	}
	free(down);
	const HFunc *out = &p->funcs.data[p->output];
	if (ok && out->streamed) {
		hlp_err_at(P, out->stream_line, out->stream_col,
			   "'%s' is the program's output: it cannot also be streamed into the accelerator (stream the "
			   "Funcs it reads)", out->name);
		ok = 0;
	}
	return ok;
}

const char *hlp_func_vars(Parser *P, int f)
{
	const HFunc *fn = &P->p->funcs.data[f];
	StrBuf b = { 0 };
	for (int i = 0; i < fn->dims; i++)
		sb_printf(&b, "%s%s", i ? ", " : "", hl_sym_name(P->p, fn->vars[i]));
	const char *r = arena_strdup(P->a, b.s ? b.s : "");
	free(b.s);
	return r;
}
