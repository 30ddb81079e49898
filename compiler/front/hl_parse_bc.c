/* hl_parse_bc.c - an input image's size and Halide's boundary conditions
 * (hl_parse.h):
 *
 *   input.dim(0).set_bounds(0, 64);            the size Halide checks when it runs
 *   input.width(), input.dim(1).extent()       that size in expressions
 *   Func b = BoundaryConditions::repeat_edge(input);            (or with bounds
 *            BoundaryConditions::constant_exterior(f, 0, {{0, 64}, {0, 64}}))
 *
 * A boundary condition is a Func of the source's dimensions whose value is
 * the source's inside the bounds and, outside, the source at the nearest edge
 * (repeat_edge), a constant (constant_exterior), or the source mirrored about
 * its edge, the edge repeated (mirror_image) or not (mirror_interior). Without
 * bounds the source must be an ImageParam whose size is set. The host
 * computes it: its values are what the input stream carries (streamed, as a
 * stream_to_accelerator Func is). */
#include <stdlib.h>
#include <string.h>

#include "hl_parse.h"

/* ---- the image's size ---- */

Val hlp_dim_method(Parser *P, Val v, const HTok *m)
{
	HImage *im = &P->p->images.data[v.id];
	Val a[2];
	int n = hlp_parse_args(P, a, 2);
	if (n < 0)
		return hlp_none;
	int64_t mn = 0, ext = 0;
	if (hlx_is(m, "set_bounds")) {
		if (n != 2)
			return hlp_err_tok(P, m, "set_bounds() takes a min and an extent");
		if (!hlp_int_arg(P, a[0], "set_bounds min", INT32_MIN, &mn) ||
		    !hlp_int_arg(P, a[1], "set_bounds extent", 1, &ext))
			return hlp_none;
	} else if (hlx_is(m, "set_extent")) {
		if (n != 1 || !hlp_int_arg(P, a[0], "set_extent", 1, &ext))
			return n != 1 ? hlp_err_tok(P, m, "set_extent() takes an extent") : hlp_none;
	} else if (hlx_is(m, "set_min")) {
		if (n != 1 || !hlp_int_arg(P, a[0], "set_min", INT32_MIN, &mn))
			return n != 1 ? hlp_err_tok(P, m, "set_min() takes a min") : hlp_none;
	} else {
		return hlp_err_tok(P, m, "unsupported call '%s' on a dimension of '%s' (supported: set_bounds, "
				     "set_extent, set_min)", m->text, im->name);
	}
	if (mn != 0)
		return hlp_err_at(P, a[0].line, a[0].col, "%s: the min of '%s' in dimension %d is %lld; an input image "
				  "starts at 0", m->text, im->name, v.def, (long long)mn);
	if (ext > 65535)
		return hlp_err_at(P, a[n - 1].line, a[n - 1].col, "%s: an extent of %lld; an input image has at most 65535 "
				  "in each dimension", m->text, (long long)ext);
	if (ext)
		im->extent[v.def] = ext;
	return v;
}

int hlp_dim_arg(Parser *P, Val v, const HTok *m)
{
	Val a[1];
	int64_t d;
	if (hlp_parse_args(P, a, 1) != 1 || !hlp_int_arg(P, a[0], "dim", 0, &d)) {
		if (!P->failed)
			hlp_err_tok(P, m, "dim() takes a dimension");
		return -1;
	}
	const HImage *im = &P->p->images.data[v.id];
	if (d >= im->dims) {
		hlp_err_at(P, a[0].line, a[0].col, "dim(%lld) of '%s', which has %d dimension%s", (long long)d, im->name,
			   im->dims, im->dims == 1 ? "" : "s");
		return -1;
	}
	return (int)d;
}

/* The size of image v in dimension d as an integer, or an error. */
static Val dim_size(Parser *P, Val v, int d, const char *what, const HTok *t)
{
	const HImage *im = &P->p->images.data[v.id];
	if (d < 0 || d >= im->dims)
		return hlp_err_tok(P, t, "%s: '%s' has %d dimension%s", what, im->name, im->dims, im->dims == 1 ? "" : "s");
	if (!im->extent[d])
		return hlp_err_tok(P, t, "%s: the size of '%s' in dimension %d is not known when compiling: declare it "
				     "(%s.dim(%d).set_bounds(0, EXTENT))", what, im->name, d, im->name, d);
	Val r = hlp_vint(im->extent[d], t);
	return r;
}

Val hlp_image_member(Parser *P, Val v)
{
	hlp_next(P);    /* '.' */
	HTok *m = hlp_cur(P);
	if (!hlp_expect_name(P))
		return hlp_none;
	static const char *const axes[] = { "width", "height", "channels" };
	for (int i = 0; i < 3; i++)
		if (hlx_is(m, axes[i])) {
			if (hlp_parse_args(P, NULL, 0) < 0)
				return hlp_none;
			return dim_size(P, v, i, arena_printf(P->a, "%s()", m->text), m);
		}
	if (!hlx_is(m, "dim"))
		return hlp_err_tok(P, m, "unsupported member '%s' of ImageParam '%s' (supported: in, width, height, "
				     "channels, dim)", m->text, P->p->images.data[v.id].name);
	int d = hlp_dim_arg(P, v, m);
	if (d < 0)
		return hlp_none;
	if (!hlp_accept(P, "."))
		return hlp_err_tok(P, hlp_cur(P), "expected .min(), .extent() or .max() after dim(%d)", d);
	HTok *f = hlp_cur(P);
	if (!hlp_expect_name(P) || hlp_parse_args(P, NULL, 0) < 0)
		return hlp_none;
	Val s = dim_size(P, v, d, arena_printf(P->a, "dim(%d).%s()", d, f->text), f);
	if (s.k != V_INT)
		return s;
	if (hlx_is(f, "min"))
		s.i = 0;
	else if (hlx_is(f, "max"))
		s.i -= 1;
	else if (!hlx_is(f, "extent"))
		return hlp_err_tok(P, f, "unsupported call '%s' on a dimension (supported here: min, extent, max)", f->text);
	return s;
}

/* ---- boundary conditions ---- */

/* {{min, extent}, {min, extent}, ...} into mn, ext; the count, or -1. */
static int parse_region(Parser *P, int64_t *mn, int64_t *ext, int max)
{
	int n = 0;
	if (!hlp_expect(P, "{"))
		return -1;
	if (hlp_accept(P, "}"))
		return 0;
	do {
		if (n == max) {
			hlp_err_tok(P, hlp_cur(P), "more than %d dimensions in the bounds", max);
			return -1;
		}
		Val a[2];
		if (!hlp_expect(P, "{"))
			return -1;
		a[0] = hlp_parse_expr(P);
		if (P->failed || !hlp_expect(P, ","))
			return -1;
		a[1] = hlp_parse_expr(P);
		if (P->failed || !hlp_expect(P, "}"))
			return -1;
		if (!hlp_int_arg(P, a[0], "bound min", INT32_MIN, &mn[n]) ||
		    !hlp_int_arg(P, a[1], "bound extent", 1, &ext[n]))
			return -1;
		/* the folded coordinates are int32: the last one and a mirror's period fit it */
		if (mn[n] + ext[n] - 1 > INT32_MAX || 2 * ext[n] > INT32_MAX) {
			hlp_err_at(P, a[1].line, a[1].col, "bounds {%lld, %lld}: the region must end below 2^31 and "
				   "its extent be at most 2^30", (long long)mn[n], (long long)ext[n]);
			return -1;
		}
		n++;
	} while (hlp_accept(P, ","));
	return hlp_expect(P, "}") ? n : -1;
}

/* The coordinate of the source that point x of dimension (mn, ext) reads. */
static HExpr *coordinate(Parser *P, const char *kind, HExpr *x, int64_t mn, int64_t ext)
{
	Arena *a = P->a;
	HExpr *lo = he_const(a, HT_I32, mn), *hi = he_const(a, HT_I32, mn + ext - 1);
	if (!strcmp(kind, "repeat_edge") || !strcmp(kind, "constant_exterior") || ext == 1 ||
	    (!strcmp(kind, "mirror_interior") && ext == 1))
		return he_bin(a, HB_MAX, HT_I32, he_bin(a, HB_MIN, HT_I32, x, hi), lo);
	/* t = (x - min) mod period, folded back into [0, ext) */
	int interior = !strcmp(kind, "mirror_interior");
	int64_t period = interior ? 2 * (ext - 1) : 2 * ext;
	HExpr *t = he_bin(a, HB_MOD, HT_I32, he_bin(a, HB_SUB, HT_I32, x, lo), he_const(a, HT_I32, period));
	HExpr *back = he_bin(a, HB_SUB, HT_I32, he_const(a, HT_I32, interior ? period : period - 1), t);
	HExpr *in = he_bin(a, HB_LT, HT_BOOL, t, he_const(a, HT_I32, ext));
	return he_bin(a, HB_ADD, HT_I32, he_select(a, in, t, back), lo);
}

Val hlp_boundary(Parser *P, const char *kind, const HTok *t)
{
	static const char *const kinds[] = { "repeat_edge", "constant_exterior", "mirror_image", "mirror_interior",
					     NULL };
	int known = 0;
	for (int i = 0; kinds[i]; i++)
		known |= !strcmp(kinds[i], kind);
	if (!known)
		return hlp_err_tok(P, t, "unsupported boundary condition 'BoundaryConditions::%s' (supported: "
				     "repeat_edge, constant_exterior, mirror_image, mirror_interior)", kind);
	int value_arg = !strcmp(kind, "constant_exterior");
	if (!hlp_expect(P, "("))
		return hlp_none;
	Val src = hlp_parse_expr(P);
	if (P->failed)
		return hlp_none;
	if (src.k != V_IMAGE && src.k != V_FUNC)
		return hlp_err_at(P, src.line, src.col, "BoundaryConditions::%s: the source is an ImageParam or a Func, "
				  "not %s", kind, hlp_val_desc(P, src));
	int dims = src.k == V_IMAGE ? P->p->images.data[src.id].dims : P->p->funcs.data[src.id].dims;
	HType type = src.k == V_IMAGE ? P->p->images.data[src.id].type : P->p->funcs.data[src.id].type;
	const char *sname = src.k == V_IMAGE ? P->p->images.data[src.id].name : P->p->funcs.data[src.id].name;
	if (src.k == V_FUNC && !P->p->funcs.data[src.id].defined)
		return hlp_failed_func(P, src.id) ? hlp_none
						  : hlp_err_at(P, src.line, src.col, "BoundaryConditions::%s of Func '%s', "
									       "which has no definition", kind, sname);
	HExpr *value = NULL;
	if (value_arg) {
		if (!hlp_expect(P, ","))
			return hlp_none;
		Val v = hlp_parse_expr(P);
		if (P->failed)
			return hlp_none;
		if (!(value = v.k == V_INT ? hlp_coerce_int(P, v, type) : hlp_to_expr(P, v)))
			return hlp_none;
		if (!ht_eq(value->type, type))
			return hlp_err_at(P, v.line, v.col, "constant_exterior: the value has type %s, the source %s",
					  ht_name(value->type), ht_name(type));
	}
	int64_t mn[4] = { 0 }, ext[4] = { 0 };
	int n = 0;
	if (hlp_accept(P, ",")) {
		if ((n = parse_region(P, mn, ext, 4)) < 0)
			return hlp_none;
		if (n > dims)
			return hlp_err_tok(P, t, "BoundaryConditions::%s: bounds of %d dimensions for '%s', which has %d",
					   kind, n, sname, dims);
	} else if (src.k == V_FUNC) {
		return hlp_err_tok(P, t, "BoundaryConditions::%s of Func '%s' needs its bounds ({{min, extent}, ...})",
				   kind, sname);
	} else {
		const HImage *im = &P->p->images.data[src.id];
		for (n = 0; n < dims; n++) {
			if (!im->extent[n])
				return hlp_err_tok(P, t, "BoundaryConditions::%s(%s) takes its bounds from the size of '%s', "
						     "which is not known when compiling in dimension %d: declare it "
						     "(%s.dim(%d).set_bounds(0, EXTENT)) or give the bounds", kind,
						     sname, sname, n, sname, n);
			ext[n] = im->extent[n];
		}
	}
	if (!hlp_expect(P, ")"))
		return hlp_none;
	/* the Func: its pure variables, the source read at the folded coordinates */
	const char *name = arena_printf(P->a, "%s_%s", sname, kind);
	int f = hlp_new_func(P, name, t->line, t->col);
	hl_pure_vars(P->p, f, type, dims);
	HFunc *fn = &P->p->funcs.data[f];
	HExpr **args = arena_alloc(P->a, sizeof *args * (size_t)dims);
	HExpr *outside = NULL;
	for (int i = 0; i < dims; i++) {
		HExpr *x = he_var(P->a, fn->vars[i]);
		args[i] = i < n ? coordinate(P, kind, x, mn[i], ext[i]) : x;
		if (value && i < n) {
			HExpr *o = he_bin(P->a, HB_LOR, HT_BOOL,
					  he_bin(P->a, HB_LT, HT_BOOL, x, he_const(P->a, HT_I32, mn[i])),
					  he_bin(P->a, HB_GE, HT_BOOL, x, he_const(P->a, HT_I32, mn[i] + ext[i])));
			outside = outside ? he_bin(P->a, HB_LOR, HT_BOOL, outside, o) : o;
		}
	}
	HExpr *body = he_call(P->a, src.id, src.k == V_IMAGE, type, args, dims);
	if (outside)
		body = he_select(P->a, outside, value, body);
	hl_define_pure(P->p, f, body);
	fn = &P->p->funcs.data[f];
	fn->streamed = 1;       /* the host pads the input it streams */
	fn->stream_line = t->line;
	fn->stream_col = t->col;
	Val r = { .k = V_FUNC, .id = f, .line = t->line, .col = t->col };
	return r;
}
