/* hl_accel.c - the accelerator's view of a program (front.h): streamed
 * Funcs become input images. */
#include <stdlib.h>
#include <string.h>

#include "front.h"

/* Calls of Func f in e read image m instead, shifted by its origin. */
static void redirect(Arena *a, HExpr *e, int f, int m, const int64_t *origin)
{
	if (!e)
		return;
	if (e->kind == HE_CALL && !e->is_image && e->callee == f) {
		e->is_image = 1;
		e->callee = m;
		for (int i = 0; i < e->nargs; i++)
			if (origin[i])
				e->args[i] = he_fold(a, he_bin(a, HB_SUB, HT_I32, e->args[i],
							       he_const(a, HT_I32, origin[i])));
	}
	redirect(a, e->a, f, m, origin);
	redirect(a, e->b, f, m, origin);
	redirect(a, e->c, f, m, origin);
	for (int i = 0; i < e->nargs; i++)
		redirect(a, e->args[i], f, m, origin);
}

/* ---- clamped reads of an input ---- */

/* e is clamp(x, lo, hi) (max(min(x, hi), lo) or min(max(x, lo), hi)) with
 * constant bounds: x, *lo, *hi; else NULL. */
static HExpr *clamped(HExpr *e, int64_t *lo, int64_t *hi)
{
	while (e->kind == HE_CAST && e->type.bits == 32 && e->type.is_signed && e->a->type.bits < 32 &&
	       e->a->kind == HE_CAST)
		e = e->a;
	if (e->kind != HE_BIN || (e->op != HB_MAX && e->op != HB_MIN))
		return NULL;
	HExpr *in = e->a;
	int64_t outer;
	if (!he_is_const(e->b, &outer) || in->kind != HE_BIN || (in->op != HB_MAX && in->op != HB_MIN) ||
	    in->op == e->op)
		return NULL;
	int64_t inner;
	if (!he_is_const(in->b, &inner))
		return NULL;
	*lo = e->op == HB_MAX ? outer : inner;
	*hi = e->op == HB_MAX ? inner : outer;
	return *lo <= *hi ? in->a : NULL;
}

typedef struct Pad {
	int image;
	int64_t lo[4], hi[4];
	char on[4];
	int func;
} Pad;
typedef VEC(Pad) Pads;

/* Reads of an ImageParam at clamped indices (input(clamp(x - 1, 0, 63), y))
 * read a Func the host computes instead, the input with those clamps
 * (streamed padded, as a boundary condition is): the accelerator's address
 * generators then see the affine index inside the clamp. */
static void pad_reads(HProgram *p, HExpr *e, Pads *pads)
{
	if (!e)
		return;
	pad_reads(p, e->a, pads);
	pad_reads(p, e->b, pads);
	pad_reads(p, e->c, pads);
	for (int i = 0; i < e->nargs; i++)
		pad_reads(p, e->args[i], pads);
	if (e->kind != HE_CALL || !e->is_image || p->images.data[e->callee].host_func >= 0 || e->nargs > 4)
		return;
	Pad pd = { e->callee, { 0 }, { 0 }, { 0 }, -1 };
	HExpr *inner[4];
	int any = 0;
	for (int i = 0; i < e->nargs; i++) {
		inner[i] = clamped(e->args[i], &pd.lo[i], &pd.hi[i]);
		pd.on[i] = inner[i] != NULL;
		any |= pd.on[i];
	}
	if (!any)
		return;
	vec_foreach(pads, k) {
		Pad *q = &pads->data[k];
		if (q->image == pd.image && !memcmp(q->lo, pd.lo, sizeof pd.lo) && !memcmp(q->hi, pd.hi, sizeof pd.hi) &&
		    !memcmp(q->on, pd.on, sizeof pd.on))
			pd.func = q->func;
	}
	const HImage *im = &p->images.data[e->callee];
	if (pd.func < 0) {
		int f = hl_new_func(p, arena_printf(p->arena, "%s_clamped%d", im->name, pads->len), e->line, e->col);
		hl_pure_vars(p, f, im->type, e->nargs);
		const HFunc *fn = &p->funcs.data[f];
		HExpr **args = arena_alloc(p->arena, sizeof *args * (size_t)e->nargs);
		for (int i = 0; i < e->nargs; i++) {
			HExpr *x = he_var(p->arena, fn->vars[i]);
			args[i] = pd.on[i] ? he_bin(p->arena, HB_MAX, HT_I32,
						   he_bin(p->arena, HB_MIN, HT_I32, x, he_const(p->arena, HT_I32, pd.hi[i])),
						   he_const(p->arena, HT_I32, pd.lo[i]))
					   : x;
		}
		hl_define_pure(p, f, he_call(p->arena, e->callee, 1, im->type, args, e->nargs));
		HFunc *g = &p->funcs.data[f];
		g->streamed = 1;
		g->stream_line = e->line;
		g->stream_col = e->col;
		pd.func = f;
		vec_push(pads, pd);
	}
	e->is_image = 0;
	e->callee = pd.func;
	for (int i = 0; i < e->nargs; i++)
		if (pd.on[i])
			e->args[i] = inner[i];
}

void hl_pad_clamped_reads(HProgram *p)
{
	Pads pads = { 0 };
	int nfuncs0 = p->funcs.len;
	for (int f = 0; f < nfuncs0; f++) {
		if (p->funcs.data[f].streamed)
			continue;       /* the host's */
		vec_foreach(&p->funcs.data[f].defs, k) pad_reads(p, p->funcs.data[f].defs.data[k].value, &pads);
	}
	vec_free(&pads);
}

int hl_accel_view(HProgram *p, Diags *d)
{
	int any = 0;
	vec_foreach(&p->funcs, f) any |= p->funcs.data[f].streamed;
	if (!any)
		return 1;
	HRegions r;
	if (!hl_bounds(p, &r, d))
		return 0;
	int nfuncs = p->funcs.len;
	RangeCtx rc;
	range_init(&rc, p);
	for (int f = 0; f < nfuncs; f++) {
		HFunc *fn = &p->funcs.data[f];
		if (!fn->streamed || !r.func_used[f])
			continue;
		/* the values: by the Func's definitions (u16(input(x, y)) of an
		 * 8-bit input holds 0 to 255) */
		HImage im = { fn->name, fn->type, fn->dims, 1, fn->stream_line, fn->stream_col, f, { 0 }, { 0 },
			      range_func(&rc, f) };
		for (int i = 0; i < fn->dims; i++)
			im.origin[i] = r.func[f][i].lo;
		vec_push(&p->images, im);
		int m = p->images.len - 1;
		vec_foreach(&p->funcs, g) {
			if (g == f)
				continue;
			HFunc *gf = &p->funcs.data[g];
			vec_foreach(&gf->defs, k) {
				HDef *df = &gf->defs.data[k];
				redirect(p->arena, df->value, f, m, im.origin);
				for (int i = 0; i < df->nlhs; i++)
					redirect(p->arena, df->lhs[i], f, m, im.origin);
			}
		}
	}
	range_free(&rc);
	hl_bounds_free(&r);
	return 1;
}
