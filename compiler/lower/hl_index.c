/* hl_index.c - index streams (lower.h): a stored Func that computes with its
 * loop variables (a parity select(x % 2 == 0, a, b), a constant table read
 * at a loop variable, u16(x) + input(x, y)) reads those values from a stream
 * instead. The values depend on no data, so the compiler computes them over
 * the box of the variables and the stream carries them in the narrowest
 * type that holds them: the kernels see a word of known range, as for any
 * input, and nothing 32-bit is left to compute. */
#include <stdlib.h>
#include <string.h>

#include "lower.h"

/* Largest index stream, in points; the images (inputs, streamed Funcs and
 * index streams) the buffers take at most. */
#define INDEX_MAX_POINTS (1 << 20)
#define INDEX_MAX_IMAGES 16

typedef struct Ix {
	HPrep *P;
	int f;                  /* the stored Func */
	const HDef *d;          /* its definition being rewritten */
	int count;              /* index streams of f so far */
} Ix;

/* The dimension of the Func whose pure variable sym is, or -1. */
static int pure_dim(const Ix *X, int sym)
{
	const HFunc *fn = &X->P->p->funcs.data[X->f];
	for (int i = 0; i < fn->dims; i++)
		if (fn->vars[i] == sym)
			return i;
	return -1;
}

/* The values sym takes in definition X->d: a pure variable of the Func over
 * its region, a reduction variable over its domain; 0 for another symbol. */
static int var_range(const Ix *X, int sym, Interval *iv)
{
	const HProgram *p = X->P->p;
	int i = pure_dim(X, sym);
	if (i >= 0) {
		*iv = X->P->reg.func[X->f][i];
		return iv->lo <= iv->hi;
	}
	const HSym *s = &p->syms.data[sym];
	if (s->kind != SYM_RVAR || s->rdom < 0)
		return 0;
	const HRDom *r = &p->rdoms.data[s->rdom];
	iv->lo = r->min[s->dim];
	iv->hi = r->min[s->dim] + r->extent[s->dim] - 1;
	return 1;
}

/* 1 if sym's loop in X->d is unrolled: lowering substitutes constants. */
static int unrolled(const Ix *X, int sym)
{
	const HStageSched *s = &X->d->sched;
	for (int i = 0; i < s->dims.len; i++)
		if (s->dims.data[i] == sym)
			return s->unrolled.data[i];
	return 0;
}

/* The position of sym in the order of an index stream's dimensions: the
 * Func's pure variables first, in their order, then reduction variables. */
static int var_rank(const Ix *X, int sym)
{
	int i = pure_dim(X, sym);
	return i >= 0 ? i : 4 + sym;
}

typedef struct Vars {
	int sym[5];
	int n;                  /* 5: too many */
	int moving;             /* a variable lowering leaves a variable */
} Vars;

static void add_var(const Ix *X, Vars *v, int sym)
{
	for (int i = 0; i < v->n && i < 5; i++)
		if (v->sym[i] == sym)
			return;
	if (v->n == 5)
		return;
	v->sym[v->n++] = sym;
	Interval iv;
	if (var_range(X, sym, &iv) && iv.lo < iv.hi && !unrolled(X, sym))
		v->moving = 1;
}

/* 1 if e depends on loop variables and constants only (no image, no stored
 * Func; constant tables may be read): its variables into v. */
static int index_only(const Ix *X, const HExpr *e, Vars *v)
{
	if (!e)
		return 1;
	switch (e->kind) {
	case HE_CONST:
		return 1;
	case HE_VAR: {
		Interval iv;
		if (!var_range(X, e->sym, &iv))
			return 0;
		add_var(X, v, e->sym);
		return 1;
	}
	case HE_SUM:
		return 0;
	case HE_CALL:
		if (e->is_image || !X->P->is_const[e->callee])
			return 0;
		for (int i = 0; i < e->nargs; i++)
			if (!index_only(X, e->args[i], v))
				return 0;
		return 1;
	default:
		return index_only(X, e->a, v) && index_only(X, e->b, v) && index_only(X, e->c, v);
	}
}

/* The narrowest type of a stream word holding [lo, hi]; 0 if none does. */
static int stream_type(int64_t lo, int64_t hi, HType *t)
{
	if (lo >= 0 && hi <= 255)
		*t = (HType){ 0, 8 };
	else if (lo >= 0 && hi <= 65535)
		*t = HT_U16;
	else if (lo >= -128 && hi <= 127)
		*t = (HType){ 1, 8 };
	else if (lo >= -32768 && hi <= 32767)
		*t = HT_I16;
	else
		return 0;
	return 1;
}

/* The values of e at every point of the box of v (the first variable
 * fastest) into *val (to free), and their range; 0 if the box has more than
 * INDEX_MAX_POINTS points or e reads a table outside its region there. */
static int box_values(Ix *X, const HExpr *e, const Vars *v, const Interval *box, int64_t **val, int64_t *points,
		      Interval *range)
{
	const HProgram *p = X->P->p;
	*points = 1;
	for (int i = 0; i < v->n; i++) {
		*points *= box[i].hi - box[i].lo + 1;
		if (*points > INDEX_MAX_POINTS)
			return 0;
	}
	int64_t *env = xcalloc((size_t)p->syms.len, sizeof *env);
	*val = xcalloc((size_t)*points, sizeof **val);
	range->lo = INT64_MAX;
	range->hi = INT64_MIN;
	for (int64_t k = 0; k < *points; k++) {
		int64_t rest = k;
		for (int i = 0; i < v->n; i++) {
			int64_t ext = box[i].hi - box[i].lo + 1;
			env[v->sym[i]] = box[i].lo + rest % ext;
			rest /= ext;
		}
		int outside = 0;
		int64_t x = hli_eval(p, X->P->tables, env, e, &outside);
		if (outside) {
			/* a table read beyond what bounds inference realized: not streamed */
			free(env);
			return 0;
		}
		(*val)[k] = x;
		range->lo = x < range->lo ? x : range->lo;
		range->hi = x > range->hi ? x : range->hi;
	}
	free(env);
	return 1;
}

/* The box of v's variables, in the Func's order of dimensions (v sorted). */
static void var_box(Ix *X, Vars *v, Interval *box)
{
	for (int i = 1; i < v->n; i++)
		for (int j = i; j > 0 && var_rank(X, v->sym[j]) < var_rank(X, v->sym[j - 1]); j--) {
			int s = v->sym[j];
			v->sym[j] = v->sym[j - 1];
			v->sym[j - 1] = s;
		}
	for (int i = 0; i < v->n; i++)
		var_range(X, v->sym[i], &box[i]);
}

/* A new index stream of e's values over the box of v; -1 if the box is too
 * large or a value does not fit 16 bits. */
static int new_stream(Ix *X, const HExpr *e, const Vars *v, const Interval *box)
{
	HPrep *P = X->P;
	HProgram *p = P->p;
	int64_t *val = NULL, points;
	Interval range;
	HType t;
	if (p->images.len >= INDEX_MAX_IMAGES)
		return -1;
	if (!box_values(X, e, v, box, &val, &points, &range) || !stream_type(range.lo, range.hi, &t)) {
		free(val);
		return -1;
	}
	HIndexStream s = { -1, X->f, e, { 0 } };
	s.values.dims = v->n;
	for (int i = 0; i < v->n; i++)
		s.values.extent[i] = (int)(box[i].hi - box[i].lo + 1);
	s.values.bits = t.bits == 8 ? 8 : 16;
	image_alloc(&s.values);
	for (int64_t k = 0; k < points; k++)
		s.values.px[k] = (uint16_t)val[k];
	free(val);
	const HFunc *fn = &p->funcs.data[X->f];
	HImage im = { arena_printf(p->arena, "%s_index%d", fn->name, X->count++), t, v->n, 1,
		      e->line ? e->line : X->d->line, e->line ? e->col : X->d->col, -1, { 0 }, { 0 }, range };
	for (int i = 0; i < v->n; i++)
		im.origin[i] = box[i].lo;
	vec_push(&p->images, im);
	s.image = p->images.len - 1;
	vec_push(&P->index, s);
	return s.image;
}

/* A read of the index stream standing for e (made, or shared with an equal
 * expression of the same Func), as e's type; NULL to leave e as it is. */
static HExpr *index_read(Ix *X, const HExpr *e, Vars *v)
{
	HPrep *P = X->P;
	Arena *a = P->p->arena;
	Interval box[4];
	var_box(X, v, box);
	int m = -1;
	vec_foreach(&P->index, k) if (P->index.data[k].func == X->f && he_equal(P->index.data[k].expr, e))
		m = P->index.data[k].image;
	if (m < 0 && (m = new_stream(X, e, v, box)) < 0)
		return NULL;
	const HImage *im = &P->p->images.data[m];
	HExpr **args = arena_alloc(a, sizeof *args * (size_t)v->n);
	for (int i = 0; i < v->n; i++)
		args[i] = he_fold(a, he_bin(a, HB_SUB, HT_I32, he_var(a, v->sym[i]), he_const(a, HT_I32, im->origin[i])));
	HExpr *r = he_cast(a, e->type, he_call(a, m, 1, im->type, args, v->n));
	r->line = e->line;
	r->col = e->col;
	return r;
}

/* A copy of call e with an arguments array of its own. */
static HExpr *copy_call(Arena *a, const HExpr *e)
{
	HExpr *c = he_copy(a, e);
	c->args = arena_alloc(a, sizeof *c->args * (size_t)(e->nargs ? e->nargs : 1));
	memcpy(c->args, e->args, sizeof *c->args * (size_t)e->nargs);
	return c;
}

static int is_div(const HExpr *e, int64_t *d)
{
	return e->kind == HE_BIN && e->op == HB_DIV && e->type.bits == 32 && e->type.is_signed &&
	       he_is_const(e->b, d) && *d > 0;
}

/* An index a / d + b (a floor division by a positive constant, as Halide's
 * is) as (a + b * d) / d, the same value: the address generators take an
 * affine index or one divided by a constant (x / 2 + 1 of an upsampling
 * read, a neighbour on a half-resolution plane). */
static HExpr *quasi_affine(Arena *a, HExpr *e)
{
	if (e->kind != HE_BIN || (e->op != HB_ADD && e->op != HB_SUB) || e->type.bits != 32 || !e->type.is_signed)
		return e;
	HExpr *x = quasi_affine(a, e->a), *y = quasi_affine(a, e->b);
	int64_t d, d2, c;
	/* b * d must not wrap where a / d + b does not */
	if ((he_is_const(x, &c) || he_is_const(y, &c)) && (c > (1 << 20) || c < -(1 << 20)))
		return e;
	if (is_div(x, &d) && !is_div(y, &d2)) {
		HExpr *scaled = he_bin(a, HB_MUL, HT_I32, y, he_const(a, HT_I32, d));
		return he_bin(a, HB_DIV, HT_I32, he_fold(a, he_bin(a, e->op, HT_I32, x->a, scaled)), x->b);
	}
	if (e->op == HB_ADD && is_div(y, &d) && !is_div(x, &d2)) {
		HExpr *scaled = he_bin(a, HB_MUL, HT_I32, x, he_const(a, HT_I32, d));
		return he_bin(a, HB_DIV, HT_I32, he_fold(a, he_bin(a, HB_ADD, HT_I32, y->a, scaled)), y->b);
	}
	return e;
}

/* 1 if e is affine in the variables. */
static int affine(const HExpr *e)
{
	int64_t c;
	switch (e->kind) {
	case HE_CONST:
	case HE_VAR:
		return 1;
	case HE_CAST:
		return affine(e->a);
	case HE_UN:
		return e->op == HU_NEG && affine(e->a);
	case HE_BIN:
		if (e->op == HB_ADD || e->op == HB_SUB)
			return affine(e->a) && affine(e->b);
		if (e->op == HB_MUL)
			return (he_is_const(e->a, &c) && affine(e->b)) || (he_is_const(e->b, &c) && affine(e->a));
		return 0;
	default:
		return 0;
	}
}

/* Most addresses a read selects among. */
#define MAX_ADDRESSES 16

static HExpr *rewrite(Ix *X, HExpr *e);

/* A read of an image or stored Func whose index k is a value of the loop
 * variables but no address an address generator makes (a constant table
 * read at a loop variable: vert_log(x, y, slice(t)); a parity x % 2): a
 * select among the reads at each value the index takes, on the index read
 * from an index stream; NULL if it takes more than MAX_ADDRESSES values. */
static HExpr *select_addresses(Ix *X, HExpr *call, int k, Vars *v)
{
	Arena *a = X->P->p->arena;
	Interval box[4], range;
	int64_t *val = NULL, points, addr[MAX_ADDRESSES];
	int n = 0;
	var_box(X, v, box);
	if (!box_values(X, call->args[k], v, box, &val, &points, &range)) {
		free(val);
		return NULL;
	}
	for (int64_t p = 0; p < points && n <= MAX_ADDRESSES; p++) {
		int j = 0;
		while (j < n && addr[j] != val[p])
			j++;
		if (j == n && n < MAX_ADDRESSES)
			addr[n] = val[p];
		if (j == n)
			n++;
	}
	free(val);
	if (n > MAX_ADDRESSES)
		return NULL;
	for (int i = 1; i < n; i++)
		for (int j = i; j > 0 && addr[j] < addr[j - 1]; j--) {
			int64_t t = addr[j];
			addr[j] = addr[j - 1];
			addr[j - 1] = t;
		}
	HExpr *index = n > 1 ? index_read(X, call->args[k], v) : NULL;
	if (n > 1 && !index)
		return NULL;
	HExpr *r = NULL;
	for (int j = n - 1; j >= 0; j--) {
		HExpr *at = copy_call(a, call);
		at->args[k] = he_const(a, HT_I32, addr[j]);
		he_set_depth(at);
		HExpr *read = rewrite(X, at);
		r = r ? he_select(a, he_bin(a, HB_EQ, HT_BOOL, index, he_const(a, HT_I32, addr[j])), read, r) : read;
	}
	return r;
}

/* A read of an image or stored Func: its indices as the address generators
 * take them, or a select among the addresses an index of loop variables
 * takes. */
static HExpr *rewrite_read(Ix *X, HExpr *e)
{
	Arena *a = X->P->p->arena;
	for (int i = 0; i < e->nargs; i++) {
		HExpr *q = quasi_affine(a, e->args[i]), *s;
		int64_t d;
		Vars v = { { 0 }, 0, 0 };
		if (!affine(is_div(q, &d) ? q->a : q) && index_only(X, q, &v) && v.moving && v.n <= 4 &&
		    (s = select_addresses(X, e, i, &v)))
			return s;
	}
	HExpr *c = NULL;
	for (int i = 0; i < e->nargs; i++) {
		HExpr *q = quasi_affine(a, e->args[i]);
		if (q == e->args[i])
			continue;
		if (!c)
			c = copy_call(a, e);
		c->args[i] = q;
	}
	if (c)
		he_set_depth(c);
	return c ? c : e;
}

/* e with its largest index expressions read from index streams. Indices of
 * images and stored Funcs stay (the address generators compute them; an
 * index a / d + b becomes (a + b * d) / d); the index of a table read at
 * data is data. */
static HExpr *rewrite(Ix *X, HExpr *e)
{
	if (!e || e->kind == HE_CONST)
		return e;
	Vars v = { { 0 }, 0, 0 };
	if (!ht_is_float(e->type) && index_only(X, e, &v) && v.moving && v.n <= 4) {
		HExpr *r = index_read(X, e, &v);
		if (r)
			return r;
	}
	if (e->kind == HE_CALL && (e->is_image || X->P->stored[e->callee]))
		return rewrite_read(X, e);
	HExpr *c = NULL;
	HExpr **kids[3] = { &e->a, &e->b, &e->c };
	for (int i = 0; i < 3; i++) {
		HExpr *r = rewrite(X, *kids[i]);
		if (r != *kids[i]) {
			if (!c)
				c = he_copy(X->P->p->arena, e);
			*(i == 0 ? &c->a : i == 1 ? &c->b : &c->c) = r;
		}
	}
	for (int i = 0; i < e->nargs; i++) {
		HExpr *r = rewrite(X, e->args[i]);
		if (r != e->args[i]) {
			if (!c || c->args == e->args)
				c = copy_call(X->P->p->arena, c ? c : e);
			c->args[i] = r;
		}
	}
	if (!c)
		return e;
	he_set_depth(c);
	return c;
}

const Image *hp_image(const HPrep *P, const Image *inputs, int m)
{
	vec_foreach(&P->index, k) if (P->index.data[k].image == m)
		return &P->index.data[k].values;
	return &inputs[m];
}

void hp_index_streams(HPrep *P)
{
	HProgram *p = P->p;
	for (int k = 0; k < P->reg.norder; k++) {
		int f = P->reg.order[k];
		if (!P->stored[f])
			continue;
		Ix X = { P, f, NULL, 0 };
		HFunc *fn = &p->funcs.data[f];
		vec_foreach(&fn->defs, j) {
			HDef *d = &fn->defs.data[j];
			X.d = d;
			d->value = rewrite(&X, d->value);
		}
	}
}
