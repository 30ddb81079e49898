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
	for (int f = 0; f < nfuncs; f++) {
		HFunc *fn = &p->funcs.data[f];
		if (!fn->streamed || !r.func_used[f])
			continue;
		HImage im = { fn->name, fn->type, fn->dims, 1, fn->stream_line, fn->stream_col, f, { 0 }, { 0 } };
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
	hl_bounds_free(&r);
	return 1;
}
