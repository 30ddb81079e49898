/* ub.c - buffer extraction and the stencil scheduler (ub.h). Extraction walks
 * the accelerator's loop nest: every store and input stream is a statement
 * with a write port, every load of its compute kernel a read port. The
 * scheduler fuses the nests level by level (relative rates from the access
 * maps), pads the innermost level to the memory's fetch width, and sets each
 * statement's delay from isl: the largest distance between a value's write
 * and its read over the dependence relation of every read port. */
#include <isl/ctx.h>
#include <isl/aff.h>
#include <isl/ilp.h>
#include <isl/options.h>
#include <isl/set.h>
#include <isl/val.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "ubuf.h"

#define X_MAXLOOPS 16

/* A loop of the accelerator. Its variable is its counter (min .. min +
 * extent - 1) plus base[k] times the counter of each loop k around it: a
 * loop whose start moves with another (a Func computed at a loop inside the
 * accelerator runs over a region that moves with that loop). */
typedef struct Loop {
	int sym;
	int64_t min, extent;    /* min: in the first run */
	int64_t host[UB_MAXH];  /* what each host loop adds to min per iteration */
	int64_t base[X_MAXLOOPS];
} Loop;

/* A Func computed at a loop inside the accelerator: it is computed again
 * in every iteration of the loops around it (the loops of more than one
 * iteration, outermost first), each time over a region of the same size
 * whose minimum moves with them (LRegion.min_at). Each iteration's values
 * are a block of their own: its buffer's outermost dimension (or, for a
 * Func of one dimension, a dimension added) counts the iterations, so that
 * every value is written once; buffer mapping folds it into a ring. */
typedef struct IterLoops {
	int n;
	int sym[UB_MAXD];
	int64_t extent[UB_MAXD];
	int64_t count;          /* the product of the extents */
} IterLoops;

typedef struct Ext {
	UbProgram *u;
	const LProgram *L;
	Diags *d;
	int ok;
	Loop loops[X_MAXLOOPS];
	int nloops;
	IterLoops *iter;        /* per Func */
	int split_dim[16];      /* per image: the dimension split into streams, or -1 */
	int64_t split_stride[16];       /* per image: 0, or the stride of a split by blocks */
	int io_tiles;           /* the chip's IO tiles (0: no limit) */
	int *func_buf;          /* Func -> buffer (the first of a split one) */
	int *func_split;        /* Func -> its dimension split into buffers, or -1 */
	int *image_buf;         /* image -> first buffer (one per value of a split dimension) */
	int64_t host_min[UB_MAXH];      /* the host's loops (L->host): their first values */
} Ext;

static void xerr(Ext *X, int line, int col, const char *fmt, ...) __attribute__((format(printf, 4, 5)));
static void xerr(Ext *X, int line, int col, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	diag_vreport(X->d, DIAG_ERROR, X->L->p->file, line, col, fmt, ap);
	va_end(ap);
	X->ok = 0;
}

/* ---- access maps ---- */

static int level_of(const UbStmt *s, int sym)
{
	for (int l = 0; s && l < s->nloops; l++)
		if (s->sym[l] == sym)
			return l;
	return -1;
}

/* 1 if x depends on no loop. */
static int constant_index(const UbIndex *x)
{
	for (int l = 0; l < UB_MAXD; l++)
		if (x->coef[l])
			return 0;
	return 1;
}

/* e as floor((sum coef * i + c) / div); 0 if it is not of that form. */
static int index_of(const Ext *X, const UbStmt *s, const HExpr *e, UbIndex *out)
{
	UbIndex a, b;
	int64_t v;
	memset(out, 0, sizeof *out);
	out->div = 1;
	switch (e->kind) {
	case HE_CONST:
		out->c = e->value;
		return 1;
	case HE_VAR: {
		int l = level_of(s, e->sym);
		for (int k = 0; k < X->nloops; k++)
			if (X->loops[k].sym == e->sym && (l >= 0 || X->loops[k].extent == 1)) {
				/* a loop of the statement, or one of one iteration (its value) */
				if (l >= 0)
					out->coef[l] = 1;
				else
					out->c = X->loops[k].min;
				memcpy(out->host, X->loops[k].host, sizeof out->host);
				/* plus the counters of the loops its start moves with */
				for (int j = 0; j < k; j++) {
					int64_t bj = X->loops[k].base[j];
					if (!bj)
						continue;
					int lj = level_of(s, X->loops[j].sym);
					if (lj >= 0)
						out->coef[lj] += bj;
					else if (X->loops[j].extent == 1)
						out->c += bj * X->loops[j].min;
					else
						return 0;
				}
				return 1;
			}
		for (int k = 0; k < X->L->nhost; k++)
			if (X->L->host[k]->sym == e->sym) {
				out->c = X->host_min[k];
				out->host[k] = 1;
				return 1;
			}
		if (l >= 0)
			ICE("ub: a level of %s outside the loops", s->name);
		return 0;
	}
	case HE_CAST:
		return index_of(X, s, e->a, out);
	case HE_UN:
		if (e->op != HU_NEG || !index_of(X, s, e->a, &a) || a.div != 1)
			return 0;
		for (int l = 0; l < UB_MAXD; l++)
			out->coef[l] = -a.coef[l];
		for (int k = 0; k < UB_MAXH; k++)
			out->host[k] = -a.host[k];
		out->c = -a.c;
		return 1;
	case HE_BIN:
		if (e->op == HB_ADD || e->op == HB_SUB) {
			if (!index_of(X, s, e->a, &a) || !index_of(X, s, e->b, &b))
				return 0;
			int64_t sg = e->op == HB_ADD ? 1 : -1;
			if (b.div == 1 && constant_index(&b)) {
				*out = a;
				out->c += sg * b.c * a.div;
				for (int k = 0; k < UB_MAXH; k++)
					out->host[k] += sg * b.host[k] * a.div;
				return 1;
			}
			if (a.div != 1 || b.div != 1)
				return 0;
			for (int l = 0; l < UB_MAXD; l++)
				out->coef[l] = a.coef[l] + sg * b.coef[l];
			for (int k = 0; k < UB_MAXH; k++)
				out->host[k] = a.host[k] + sg * b.host[k];
			out->c = a.c + sg * b.c;
			return 1;
		}
		if (e->op == HB_MUL) {
			const HExpr *k = he_is_const(e->b, &v) ? e->b : he_is_const(e->a, &v) ? e->a : NULL;
			if (!k || !index_of(X, s, k == e->b ? e->a : e->b, &a) || a.div != 1)
				return 0;
			for (int l = 0; l < UB_MAXD; l++)
				out->coef[l] = a.coef[l] * v;
			for (int h = 0; h < UB_MAXH; h++)
				out->host[h] = a.host[h] * v;
			out->c = a.c * v;
			return 1;
		}
		if (e->op == HB_DIV && he_is_const(e->b, &v) && v > 0) {
			if (!index_of(X, s, e->a, &a))
				return 0;
			*out = a;
			out->div = a.div * v;
			return 1;
		}
		return 0;
	default:
		return 0;
	}
}

/* e is a constant in each run of the accelerator: v in the first, moving by
 * host[k] per iteration of host loop k (host may be NULL). */
static int run_constant(const Ext *X, const HExpr *e, int64_t *v, int64_t *host)
{
	UbIndex x;
	if (!index_of(X, NULL, e, &x) || x.div != 1 || !constant_index(&x))
		return 0;
	*v = x.c;
	if (host)
		memcpy(host, x.host, sizeof x.host);
	return 1;
}

int64_t ub_flat(const UbBuffer *b, const int64_t *c)
{
	int64_t a = 0;
	for (int j = b->ndims - 1; j >= 0; j--) {
		if (c[j] < b->min[j] || c[j] >= b->min[j] + b->extent[j])
			return -1;
		a = a * b->extent[j] + (c[j] - b->min[j]);
	}
	return a;
}

int64_t ub_index_at(const UbIndex *x, const int64_t *i)
{
	int64_t n = x->c;
	for (int l = 0; l < UB_MAXD; l++)
		n += x->coef[l] * i[l];
	int64_t q = n / x->div;
	if (n % x->div != 0 && n < 0)
		q--;
	return q;
}

/* The buffer of a split dimension's value that index e (a constant in each
 * run, moving by host[k] per iteration of host loop k; host may be NULL)
 * takes, counted from the first value min of the extent it splits; an
 * internal error outside it (lowering bounds every index by the region). */
static int split_offset(const Ext *X, const HExpr *e, int64_t min, int64_t extent, int64_t *host, const char *what,
			const char *name)
{
	int64_t v;
	if (!run_constant(X, e, &v, host) || v < min || v >= min + extent)
		ICE("ub: %s %s at an index not constant in a run or outside its region", what, name);
	return (int)(v - min);
}

/* ---- statements and ports ---- */

static int new_buffer(Ext *X, const char *name, int func, int image, const LRegion *r, int skip_dim)
{
	UbBuffer b = { 0 };
	b.name = name;
	b.func = func;
	b.image = image;
	for (int j = 0; j < r->dims; j++) {
		if (j == skip_dim)
			continue;
		b.min[b.ndims] = r->run_min[j];
		b.extent[b.ndims] = r->run_extent[j];
		b.ndims++;
	}
	vec_push(&X->u->bufs, b);
	return X->u->bufs.len - 1;
}

static int add_port(Ext *X, int buf, int stmt, int write, int node, const UbIndex *idx, int n)
{
	UbPort p = { 0 };
	p.buffer = buf;
	p.stmt = stmt;
	p.write = write;
	p.node = node;
	p.ndims = n;
	memcpy(p.index, idx, sizeof *idx * (size_t)n);
	p.src = -1;
	vec_push(&X->u->ports, p);
	int id = X->u->ports.len - 1;
	UbBuffer *b = &X->u->bufs.data[buf];
	if (write) {
		vec_push(&b->ports, 0);
		memmove(b->ports.data + b->nwrites + 1, b->ports.data + b->nwrites,
			sizeof(int) * (size_t)(b->ports.len - 1 - b->nwrites));
		b->ports.data[b->nwrites++] = id;
	} else {
		vec_push(&b->ports, id);
	}
	return id;
}

static const char *var_name(Ext *X, int sym, int level)
{
	const char *n = hl_sym_name(X->L->p, sym);
	const char *dot = strrchr(n, '.');
	const char *v = dot ? dot + 1 : n;
	if (v[0] == '_' || !v[0])
		return arena_printf(X->u->arena, "i%d", level);
	const HSym *s = &X->L->p->syms.data[sym];
	if (s->rdom >= 0)       /* a reduction's loop: k.x as k_x */
		return arena_printf(X->u->arena, "%s_%s", X->L->p->rdoms.data[s->rdom].name, v);
	return arena_strdup(X->u->arena, v);
}

/* The statement of the store at the current loops (without the loop at
 * index fixed_dim of X->loops, a split stream's). */
static int new_stmt(Ext *X, const LStmt *st, const char *name, int fixed_dim)
{
	UbStmt s = { 0 };
	s.name = name;
	s.store = st;
	s.buffer = -1;
	s.split_dim = -1;
	/* a statement of one iteration keeps a loop of extent 1: one of its own
	 * if it has one (the innermost), else a loop of no variable */
	int n = 0, only = -1, longer = 0;
	for (int k = X->nloops - 1; k >= 0; k--) {
		if (k == fixed_dim)
			continue;
		if (X->loops[k].extent > 1)
			longer = 1;
		else if (only < 0)
			only = k;
	}
	if (longer)
		only = -1;
	for (int k = X->nloops - 1; k >= 0; k--) {
		const Loop *lp = &X->loops[k];
		if ((lp->extent == 1 && k != only) || (fixed_dim >= 0 && k == fixed_dim))
			continue;
		if (n == UB_MAXD) {
			xerr(X, st->line, st->col, "%s has more than %d loop levels in the accelerator", name, UB_MAXD);
			return -1;
		}
		s.sym[n] = lp->sym;
		s.min[n] = lp->min;
		s.extent[n] = lp->extent;
		n++;
	}
	for (int l = 0; l < n; l++)
		s.var[l] = var_name(X, s.sym[l], l);
	if (n == 0) {   /* one iteration (a point, every loop unrolled): a loop of extent 1 */
		s.sym[0] = -1;
		s.extent[0] = 1;
		s.var[0] = "i0";
		n = 1;
	}
	s.nloops = n;
	vec_push(&X->u->stmts, s);
	return X->u->stmts.len - 1;
}

static int store_index(Ext *X, int si, HExpr **index, int nindex, int skip, UbIndex *out, int line, int col)
{
	const UbStmt *s = &X->u->stmts.data[si];
	int n = 0;
	for (int j = 0; j < nindex; j++) {
		if (j == skip)
			continue;
		if (!index_of(X, s, index[j], &out[n])) {
			xerr(X, line, col, "%s: index %d is not an affine function of the loops (floor division "
			     "by a constant allowed)", s->name, j);
			return 0;
		}
		n++;
	}
	return n;
}

/* A variable of e that is neither a loop around the current statement nor
 * a loop of the host (an unrolled loop's), or -1. */
static int unknown_loop(const Ext *X, const HExpr *e)
{
	if (!e)
		return -1;
	if (e->kind == HE_VAR) {
		for (int k = 0; k < X->nloops; k++)
			if (X->loops[k].sym == e->sym)
				return -1;
		for (int k = 0; k < X->L->nhost; k++)
			if (X->L->host[k]->sym == e->sym)
				return -1;
		return e->sym;
	}
	int a = unknown_loop(X, e->a), b = a >= 0 ? a : unknown_loop(X, e->b);
	return b >= 0 ? b : unknown_loop(X, e->c);
}

/* Func f's coordinates idx[0..n) at statement s as its buffer's: when f is
 * computed at a loop inside the accelerator, each coordinate less what its
 * region's minimum has moved since the first iteration, and the iteration
 * counted in the outermost dimension (or a dimension added); the dimensions
 * after, or 0 with an error. */
static int iteration_index(Ext *X, int si, int f, UbIndex *idx, int n)
{
	const IterLoops *it = &X->iter[f];
	const UbStmt *s = &X->u->stmts.data[si];
	const LRegion *r = &X->L->funcs[f];
	int skip = X->func_split[f];    /* a dimension split into buffers: not among idx */
	if (!it->n)
		return n;
	if (n != r->dims - (skip >= 0))
		ICE("ub: an access of %s with %d of its %d coordinates", X->L->p->funcs.data[f].name, n, r->dims);
	for (int i = 0; i < n; i++) {
		int j = i + (skip >= 0 && i >= skip);  /* the Func's dimension */
		UbIndex m;
		if (!r->min_at[j] || !index_of(X, s, r->min_at[j], &m) || m.div != 1) {
			int u = unknown_loop(X, r->min_at[j]);
			if (u >= 0)
				xerr(X, s->store->line, s->store->col,
				     "%s is computed at a loop that is unrolled (%s): its region moves with each copy; "
				     "compute it at a loop around that one", X->L->p->funcs.data[f].name,
				     hl_sym_name(X->L->p, u));
			else
				xerr(X, s->store->line, s->store->col,
				     "%s: the region of %s moves with the loops of the accelerator in a way that is "
				     "not affine (dimension %d)", s->name, X->L->p->funcs.data[f].name, j);
			return 0;
		}
		m.c -= r->min[j];
		UbIndex *x = &idx[i];
		for (int l = 0; l < UB_MAXD; l++)
			x->coef[l] -= m.coef[l] * x->div;
		for (int h = 0; h < UB_MAXH; h++)
			x->host[h] -= m.host[h] * x->div;
		x->c -= m.c * x->div;
	}
	UbIndex t = { .div = 1 };
	int64_t mult = 1;
	for (int k = it->n - 1; k >= 0; k--) {
		int l = level_of(s, it->sym[k]);
		if (l < 0)
			ICE("ub: %s accesses %s outside the loop it is computed in", s->name,
			    X->L->p->funcs.data[f].name);
		t.coef[l] += mult;
		t.c -= mult * s->min[l];
		mult *= it->extent[k];
	}
	if (n == 1) {
		idx[n++] = t;
		return n;
	}
	int last = n - 1 + (skip >= 0 && n - 1 >= skip);        /* the outermost's dimension */
	UbIndex *x = &idx[n - 1];
	for (int l = 0; l < UB_MAXD; l++)
		x->coef[l] += t.coef[l] * r->extent[last] * x->div;
	x->c += t.c * r->extent[last] * x->div;
	return n;
}

/* The streams of image m: one per value of its split dimension
 * (per channel of a block, with a split by blocks). */
static int split_streams(const Ext *X, int m)
{
	int sd = X->split_dim[m];
	return sd < 0 ? 1 : X->split_stride[m] ? (int)X->split_stride[m] : (int)X->L->images[m].extent[sd];
}

static void stream_stmt(Ext *X, const LStmt *st)
{
	int m = st->def;
	const HImage *im = &X->L->p->images.data[m];
	int sd = X->split_dim[m];
	int64_t a = X->split_stride[m];
	int nsplit = split_streams(X, m);
	for (int v = 0; v < nsplit; v++) {
		int64_t val = sd >= 0 ? X->L->images[m].min[sd] + v : 0;
		const char *name = sd >= 0 ? arena_printf(X->u->arena, "%s_%lld", im->name, (long long)val)
					   : im->name;
		/* the stream's loops: the split dimension's loop is the outermost */
		int fixed = -1;
		if (sd >= 0 && !a)
			for (int k = 0; k < X->nloops; k++)
				if (st->index[sd]->kind == HE_VAR && X->loops[k].sym == st->index[sd]->sym)
					fixed = k;
		int si = new_stmt(X, st, name, fixed);
		if (si < 0)
			return;
		UbStmt *s = &X->u->stmts.data[si];
		s->input = 1;
		if (fixed >= 0)         /* the channel a run streams moves with the host's loops */
			memcpy(s->split_shift, X->loops[fixed].host, sizeof s->split_shift);
		s->image = m;
		s->split_dim = sd;
		s->split_val = val;
		s->split_stride = a;
		s->buffer = X->image_buf[m] + v;
		UbIndex idx[UB_MAXD];
		int n = store_index(X, si, st->index, st->nindex, a ? -1 : sd, idx, im->line, im->col);
		if (n && a) {
			/* every a-th value from val: its loop counts the blocks */
			int l = st->index[sd]->kind == HE_VAR ? level_of(s, st->index[sd]->sym) : -1;
			if (l < 0)
				ICE("ub: the stream of %s's dimension %d has no loop of its own", im->name, sd);
			s->min[l] = 0;
			s->extent[l] = X->L->images[m].extent[sd] / a;
			idx[sd] = (UbIndex){ .div = 1 };
			idx[sd].coef[l] = 1;
		}
		if (n)
			add_port(X, s->buffer, si, 1, -1, idx, n);
	}
}

static int count_stores(const LStmt *s, int f)
{
	int n = s->kind == LS_STORE && s->func == f;
	vec_foreach(&s->body, i) n += count_stores(s->body.data[i], f);
	return n;
}

static const DKernel *kernel_of(const DGraph *g, const LStmt *s)
{
	vec_foreach(&g->kernels, i) if (g->kernels.data[i].store == s) return &g->kernels.data[i];
	return NULL;
}

/* A reduction kept in time (HFunc.init_in_update): its step as an index,
 * the reduction's loops of the statement linearized in their order (the
 * innermost fastest), and how many steps there are. */
static UbIndex step_index(const Ext *X, const UbStmt *s, int64_t *steps)
{
	UbIndex v = { .div = 1 };
	int64_t mult = 1;
	for (int l = 0; l < s->nloops; l++)
		if (s->sym[l] >= 0 && X->L->p->syms.data[s->sym[l]].rdom >= 0) {
			v.coef[l] = mult;
			v.c -= mult * s->min[l];
			mult *= s->extent[l];
		}
	*steps = mult;
	return v;
}

static void read_ports(Ext *X, int si)
{
	const UbStmt *s = &X->u->stmts.data[si];
	const DKernel *k = s->kernel;
	vec_foreach(&k->nodes, i) {
		const DNode *n = &k->nodes.data[i];
		if (n->kind != DN_LOAD)
			continue;
		int buf, skip = -1, blocks = -1;
		int64_t bc = 0, ba = 1;
		if (n->is_image && X->split_stride[n->buffer]) {
			/* a stream per channel of a block: the channel's buffer, at the block */
			int m = n->buffer;
			LAff x;
			blocks = X->split_dim[m];
			ba = X->split_stride[m];
			if (!laff_of(n->index[blocks], &x) || x.c < X->L->images[m].min[blocks] ||
			    x.c >= X->L->images[m].min[blocks] + ba)
				ICE("ub: a read of %s's dimension %d outside the channels of its blocks",
				    X->L->p->images.data[m].name, blocks);
			bc = x.c;
			buf = X->image_buf[m] + (int)(x.c - X->L->images[m].min[blocks]);
		} else if (n->is_image) {
			int m = n->buffer;
			buf = X->image_buf[m];
			skip = X->split_dim[m];
			if (skip >= 0) {
				int64_t host[UB_MAXH];
				buf += split_offset(X, n->index[skip], X->L->images[m].min[skip], X->L->images[m].extent[skip],
						    host, "a read of a split channel of", X->L->p->images.data[m].name);
				const UbStmt *in = NULL;
				vec_foreach(&X->u->stmts, q) if (X->u->stmts.data[q].input && X->u->stmts.data[q].buffer == buf)
					in = &X->u->stmts.data[q];
				if (in && memcmp(in->split_shift, host, sizeof host) != 0) {
					xerr(X, s->store->line, s->store->col,
					     "%s: the host's loops move the channel it reads of %s (dimension %d) otherwise "
					     "than its region: each run of the accelerator must do the first run's work on "
					     "regions moved by whole values", s->name, X->L->p->images.data[m].name, skip);
					return;
				}
			}
		} else {
			buf = X->func_buf[n->buffer];
			skip = X->func_split[n->buffer];
			if (skip >= 0) {
				const LRegion *r = &X->L->funcs[n->buffer];
				buf += split_offset(X, n->index[skip], r->run_min[skip], r->run_extent[skip], NULL,
						    "a read of a split", X->L->p->funcs.data[n->buffer].name);
			}
		}
		int self = !n->is_image && n->buffer == s->store->func;     /* the output has no buffer */
		if (buf < 0 && !self)
			ICE("ub: load of a buffer outside the accelerator");
		const UbBuffer *b = buf >= 0 ? &X->u->bufs.data[buf] : NULL;
		if (self && b && b->versions) {
			/* the reduction's previous step: the value of this point one step back */
			UbIndex idx[UB_MAXD];
			int64_t steps;
			int nd = store_index(X, si, n->index, n->nindex, skip, idx, s->store->line, s->store->col);
			if (nd)
				nd = iteration_index(X, si, n->buffer, idx, nd);
			if (!nd)
				return;
			idx[nd] = step_index(X, s, &steps);
			idx[nd].c -= 1;
			int pi = add_port(X, buf, si, 0, i, idx, nd + 1);
			X->u->ports.data[pi].previous = 1;
			continue;
		}
		if (self || buf == s->buffer) {
			xerr(X, s->store->line, s->store->col,
			     "%s reads the buffer it writes: the accelerator keeps a reduction in time only when it "
			     "is the Func's one update, writes and reads the Func at its pure variables "
			     "(f(x, y) = f(x, y) + ...), none of its loops is split, its RVars in time keep their "
			     "order (r.x the innermost of them) and, unless it is a sum, those it unrolls are inner "
			     "to those in time; unroll the reduction to fuse it into one statement",
			     X->L->p->funcs.data[s->store->func].name);
			return;
		}
		UbIndex idx[UB_MAXD];
		int nd = store_index(X, si, n->index, n->nindex, skip, idx, s->store->line, s->store->col);
		if (nd && !n->is_image)
			nd = iteration_index(X, si, n->buffer, idx, nd);
		if (nd && blocks >= 0) {
			/* (c + a * block) -> block */
			UbIndex *x = &idx[blocks];
			x->c -= bc * x->div;
			for (int l = 0; l < UB_MAXD; l++) {
				if (x->coef[l] % ba)
					ICE("ub: a read of a block's channel at a step other than the block's");
				x->coef[l] /= ba;
			}
			if (x->c % ba)
				ICE("ub: a read of a block's channel off the block");
			x->c /= ba;
		}
		if (nd && b->versions)  /* a reduction's result: its last step */
			idx[nd++] = (UbIndex){ .c = b->versions - 1, .div = 1 };
		if (nd)
			add_port(X, buf, si, 0, i, idx, nd);
	}
}

static void store_stmt(Ext *X, const DGraph *g, const LStmt *st)
{
	const HProgram *p = X->L->p;
	const char *fname = p->funcs.data[st->func].name;
	int nst = count_stores(X->L->accel, st->func);
	int k = 0;
	vec_foreach(&X->u->stmts, i) if (X->u->stmts.data[i].store && X->u->stmts.data[i].store->func == st->func &&
					 X->u->stmts.data[i].kernel) k++;
	const char *name = nst > 1 ? arena_printf(X->u->arena, "%s_%d", fname, k) : fname;
	int si = new_stmt(X, st, name, -1);
	if (si < 0)
		return;
	UbStmt *s = &X->u->stmts.data[si];
	s->kernel = kernel_of(g, st);
	s->output = st->output;
	s->buffer = st->output ? -1 : X->func_buf[st->func];
	int skip = st->output ? -1 : X->func_split[st->func];
	if (skip >= 0) {
		const LRegion *r = &X->L->funcs[st->func];
		s->buffer += split_offset(X, st->index[skip], r->run_min[skip], r->run_extent[skip], NULL,
					  "a store of a split", fname);
	}
	if (!s->kernel)
		ICE("ub: a store without its kernel");
	UbIndex idx[UB_MAXD];
	int n = store_index(X, si, st->index, st->nindex, skip, idx, st->line, st->col);
	if (n && !st->output)
		n = iteration_index(X, si, st->func, idx, n);
	if (!n)
		return;
	if (p->funcs.data[st->func].init_in_update) {
		/* a reduction kept in time: each step writes a version of its own */
		if (s->buffer < 0) {
			xerr(X, st->line, st->col,
			     "%s: a reduction kept in time cannot be the accelerator's output, which streams each "
			     "value out once; compute it in a Func of its own and copy that to the output",
			     fname);
			return;
		}
		UbBuffer *b = &X->u->bufs.data[s->buffer];
		int64_t steps;
		if (n == UB_MAXD) {
			xerr(X, st->line, st->col, "%s: a reduction kept in time over a %d-dimensional Func (at most %d)",
			     fname, n, UB_MAXD - 1);
			return;
		}
		idx[n] = step_index(X, s, &steps);
		if (b->versions) {
			/* another copy of an unrolled update: the same steps */
			if (steps != b->versions)
				ICE("ub: the copies of %s's update take %lld and %lld steps", fname, (long long)steps,
				    (long long)b->versions);
			n++;
		} else {
			if (b->ndims == UB_MAXD) {
				xerr(X, st->line, st->col,
				     "%s: a reduction kept in time over a %d-dimensional Func (at most %d)", fname,
				     b->ndims, UB_MAXD - 1);
				return;
			}
			n++;
			b->versions = steps;
			b->min[b->ndims] = 0;
			b->extent[b->ndims] = b->versions;
			b->ndims++;
		}
	}
	if (s->buffer >= 0) {
		add_port(X, s->buffer, si, 1, -1, idx, n);
	} else {
		s->nout = n;
		memcpy(s->out_index, idx, sizeof *idx * (size_t)n);
	}
	read_ports(X, si);
}

static void walk(Ext *X, const DGraph *g, const LStmt *s)
{
	if (!X->ok)
		return;
	switch (s->kind) {
	case LS_LOOP: {
		/* its start in the counters of the loops around it (of more than one iteration) */
		UbStmt around = { .nloops = 0 };
		int pos[UB_MAXD];
		for (int k = 0; k < X->nloops; k++)
			if (X->loops[k].extent > 1) {
				if (around.nloops == UB_MAXD) {
					xerr(X, 0, 0, "loop %s: more than %d loops of the accelerator around it",
					     hl_sym_name(X->L->p, s->sym), UB_MAXD);
					return;
				}
				pos[around.nloops] = k;
				around.sym[around.nloops++] = X->loops[k].sym;
			}
		UbIndex m;
		if (!index_of(X, &around, s->min, &m) || m.div != 1) {
			xerr(X, 0, 0, "loop %s of the accelerator starts at a value that is not an affine function "
			     "of the loops around it", hl_sym_name(X->L->p, s->sym));
			return;
		}
		if (X->nloops == X_MAXLOOPS) {
			xerr(X, 0, 0, "loop %s: more than %d loops in the accelerator", hl_sym_name(X->L->p, s->sym),
			     X->nloops);
			return;
		}
		Loop *lp = &X->loops[X->nloops++];
		*lp = (Loop){ s->sym, m.c, s->extent, { 0 }, { 0 } };
		memcpy(lp->host, m.host, sizeof lp->host);
		for (int l = 0; l < around.nloops; l++)
			lp->base[pos[l]] = m.coef[l];
		vec_foreach(&s->body, i) walk(X, g, s->body.data[i]);
		X->nloops--;
		return;
	}
	case LS_STORE:
		if (s->func < 0)
			stream_stmt(X, s);
		else
			store_stmt(X, g, s);
		return;
	default:
		vec_foreach(&s->body, i) walk(X, g, s->body.data[i]);
	}
}

/* The loop of variable sym in s's tree, or NULL. */
static const LStmt *find_loop(const LStmt *s, int sym)
{
	if (s->kind == LS_LOOP && s->sym == sym)
		return s;
	vec_foreach(&s->body, i) {
		const LStmt *l = find_loop(s->body.data[i], sym);
		if (l)
			return l;
	}
	return NULL;
}

/* 1 if sym is the variable of a loop of the accelerator that a Func is
 * computed in (IterLoops) and whose start does not move with the host's
 * loops: a loop over blocks. */
static int block_loop(const Ext *X, int sym)
{
	int found = 0;
	for (int f = 0; f < X->L->p->funcs.len && !found; f++)
		for (int k = 0; k < X->iter[f].n; k++)
			found |= X->iter[f].sym[k] == sym;
	const LStmt *lp = found ? find_loop(X->L->accel, sym) : NULL;
	LAff m;
	if (!lp || !laff_of(lp->min, &m))
		return 0;
	for (int j = 0; j < m.n; j++)
		for (int h = 0; h < X->L->nhost; h++)
			if (X->L->host[h]->sym == m.sym[j])
				return 0;
	return 1;
}

/* Image m's dimension d read by every kernel at c + a * (a combination of
 * loops of the accelerator), the same loops alike in every read and c in
 * the region's first a values: a (> 1), else 0. A stream per value of c,
 * each taking every a-th value (a block's channel per iteration of a loop
 * inside the accelerator, as a run's channel is streamed apart). */
static int64_t block_stride(const Ext *X, const DGraph *g, int m, int d)
{
	const LRegion *r = &X->L->images[m];
	LAff first = { 0 };
	int reads = 0;
	int64_t a = 0;
	vec_foreach(&g->kernels, k) vec_foreach(&g->kernels.data[k].nodes, i) {
		const DNode *n = &g->kernels.data[k].nodes.data[i];
		LAff x;
		if (n->kind != DN_LOAD || !n->is_image || n->buffer != m)
			continue;
		if (!laff_of(n->index[d], &x) || !x.n)
			return 0;
		for (int j = 0; j < x.n; j++)
			if (!block_loop(X, x.sym[j]))
				return 0;
		if (reads++ == 0) {
			first = x;
			for (int j = 0; j < x.n; j++)
				a = ub_gcd(a, x.k[j]);
		} else {
			LAff dlt = x;
			if (!laff_add(&dlt, &first, -1) || dlt.n)
				return 0;
		}
		if (x.c < r->min[d] || x.c >= r->min[d] + a)
			return 0;
	}
	return reads && a > 1 && r->extent[d] % a == 0 ? a : 0;
}

/* An image dimension read only at constant indices, the outermost such
 * (a planar image's channel, or a channel-first one's): each value becomes
 * its own stream and buffer (a channel streamed apart). */
static int split_dimension(const Ext *X, const DGraph *g, int m)
{
	const HImage *im = &X->L->p->images.data[m];
	if (im->dims < 2)
		return -1;
	for (int d = im->dims - 1; d >= 0; d--) {
		int reads = 0, constant = 1;
		vec_foreach(&g->kernels, k) vec_foreach(&g->kernels.data[k].nodes, i) {
			const DNode *n = &g->kernels.data[k].nodes.data[i];
			int64_t v;
			if (n->kind == DN_LOAD && n->is_image && n->buffer == m) {
				constant &= run_constant(X, n->index[d], &v, NULL);
				reads++;
			}
		}
		if (reads && constant)
			return d;
	}
	return -1;
}

/* Stores of Func f in s's tree: 1 if each writes index d at a constant of
 * the run, 0 otherwise; *n counts them. */
static int stores_constant(const Ext *X, const LStmt *s, int f, int d, int *n, int64_t *host)
{
	int ok = 1;
	int64_t v, h[UB_MAXH];
	if (s->kind == LS_STORE && s->func == f) {
		ok = d < s->nindex && run_constant(X, s->index[d], &v, h);
		/* every store and read moves it alike with the runs (the first sets host) */
		if (ok && (*n)++ == 0)
			memcpy(host, h, sizeof h);
		else if (ok)
			ok = memcmp(host, h, sizeof h) == 0;
	}
	vec_foreach(&s->body, i) ok &= stores_constant(X, s->body.data[i], f, d, n, host);
	return ok;
}

/* A dimension of a stored Func (not a reduction kept in time) that its
 * several stores (the copies of an unrolled loop: its channels) write, and
 * every kernel reads, at constants only, the outermost such: each value of
 * it becomes a buffer of its own, so that its banks take only their own
 * writers and lay out only their own rows; -1 if none. */
static int func_split_dimension(const Ext *X, const DGraph *g, int f)
{
	const HFunc *fn = &X->L->p->funcs.data[f];
	if (fn->init_in_update || X->L->funcs[f].dims < 2)
		return -1;
	for (int d = X->L->funcs[f].dims - 1; d >= 0; d--) {
		int stores = 0;
		int64_t host[UB_MAXH] = { 0 };
		if (X->L->funcs[f].run_extent[d] < 2 || !stores_constant(X, X->L->accel, f, d, &stores, host) ||
		    stores < 2)
			continue;
		int constant = 1;
		vec_foreach(&g->kernels, k) vec_foreach(&g->kernels.data[k].nodes, i) {
			const DNode *n = &g->kernels.data[k].nodes.data[i];
			int64_t v, h[UB_MAXH];
			if (n->kind == DN_LOAD && !n->is_image && n->buffer == f)
				constant &= run_constant(X, n->index[d], &v, h) && memcmp(h, host, sizeof h) == 0;
		}
		if (constant)
			return d;
	}
	return -1;
}

/* The loops of more than one iteration around each Func's production inside
 * the accelerator (stack: the loops around s, n of them). */
static void find_iter_loops(Ext *X, const LStmt *s, const LStmt **stack, int n)
{
	if (s->kind == LS_PRODUCE && s->func >= 0 && s->func < X->L->p->funcs.len) {
		IterLoops *it = &X->iter[s->func];
		it->n = 0;      /* the copies of an unrolled loop: the same loops again */
		it->count = 1;
		for (int k = 0; k < n; k++)
			if (stack[k]->extent > 1) {
				if (it->n == UB_MAXD) {
					xerr(X, 0, 0, "%s is computed inside more than %d loops of the accelerator",
					     X->L->p->funcs.data[s->func].name, UB_MAXD);
					return;
				}
				it->sym[it->n] = stack[k]->sym;
				it->extent[it->n++] = stack[k]->extent;
				it->count *= stack[k]->extent;
			}
	}
	if (s->kind == LS_LOOP) {
		if (n == X_MAXLOOPS)
			return;         /* walk refuses the nest */
		stack[n++] = s;
	}
	vec_foreach(&s->body, i) find_iter_loops(X, s->body.data[i], stack, n);
}

static void make_buffers(Ext *X, const DGraph *g)
{
	const HProgram *p = X->L->p;
	X->iter = xcalloc((size_t)p->funcs.len + 1, sizeof *X->iter);
	const LStmt *stack[X_MAXLOOPS];
	vec_foreach(&X->L->accel->body, i) find_iter_loops(X, X->L->accel->body.data[i], stack, 0);
	X->func_buf = xcalloc((size_t)p->funcs.len + 1, sizeof *X->func_buf);
	X->func_split = xcalloc((size_t)p->funcs.len + 1, sizeof *X->func_split);
	X->image_buf = xcalloc((size_t)p->images.len + 1, sizeof *X->image_buf);
	for (int f = 0; f < p->funcs.len; f++) {
		X->func_buf[f] = X->func_split[f] = -1;
		if (f == p->output || !X->L->funcs[f].dims || !count_stores(X->L->accel, f))
			continue;
		const LRegion *r = &X->L->funcs[f];
		int sd = X->func_split[f] = func_split_dimension(X, g, f);
		int n = sd >= 0 ? (int)r->run_extent[sd] : 1;
		for (int v = 0; v < n; v++) {
			const char *name = sd >= 0 ? arena_printf(X->u->arena, "%s_%lld", p->funcs.data[f].name,
								  (long long)(r->run_min[sd] + v))
						   : p->funcs.data[f].name;
			int b = new_buffer(X, name, f, -1, r, sd);
			const IterLoops *it = &X->iter[f];
			if (it->n) {    /* a block per iteration of the loops it is computed in */
				UbBuffer *bf = &X->u->bufs.data[b];
				bf->blocks = it->count;
				for (int i = 0; i < bf->ndims; i++) {
					int j = i + (sd >= 0 && i >= sd);
					bf->min[i] = r->min[j];
					bf->extent[i] = r->extent[j];
				}
				if (bf->ndims == 1) {
					bf->min[1] = 0;
					bf->extent[1] = it->count;
					bf->ndims = 2;
				} else {
					bf->extent[bf->ndims - 1] *= it->count;
				}
			}
			if (v == 0)
				X->func_buf[f] = b;
		}
	}
	/* a split image takes an IO tile per value: split while the input
	 * streams fit the chip's IO tiles, the largest splits given up first
	 * (each then one stream, buffered in memory tiles) */
	int streams = 0;
	for (int m = 0; m < p->images.len && m < 16; m++) {
		X->split_dim[m] = X->L->images[m].dims ? split_dimension(X, g, m) : -1;
		X->split_stride[m] = 0;
		for (int d = X->L->images[m].dims - 1; X->split_dim[m] < 0 && X->L->images[m].dims > 1 && d >= 0; d--)
			if ((X->split_stride[m] = block_stride(X, g, m, d)) > 0)
				X->split_dim[m] = d;
		streams += X->L->images[m].dims ? split_streams(X, m) : 0;
	}
	while (X->io_tiles && streams > X->io_tiles) {
		int widest = -1;
		for (int m = 0; m < p->images.len && m < 16; m++)
			if (X->split_dim[m] >= 0 && (widest < 0 || split_streams(X, m) > split_streams(X, widest)))
				widest = m;
		if (widest < 0)
			break;
		streams -= split_streams(X, widest) - 1;
		X->split_dim[widest] = -1;
		X->split_stride[widest] = 0;
	}
	for (int m = 0; m < p->images.len && m < 16; m++) {
		X->image_buf[m] = -1;
		const LRegion *r = &X->L->images[m];
		if (!r->dims)
			continue;
		int sd = X->split_dim[m];
		int64_t a = X->split_stride[m];
		int n = split_streams(X, m);
		for (int v = 0; v < n; v++) {
			const char *name = sd >= 0 ? arena_printf(X->u->arena, "%s_%lld", p->images.data[m].name,
								  (long long)(r->min[sd] + v))
						   : p->images.data[m].name;
			int b = new_buffer(X, name, -1, m, r, a ? -1 : sd);
			if (a) {        /* its dimension sd counts the blocks */
				X->u->bufs.data[b].min[sd] = 0;
				X->u->bufs.data[b].extent[sd] = r->extent[sd] / a;
			}
			if (v == 0)
				X->image_buf[m] = b;
		}
	}
}

/* 1 if statement r is a reduction kept in time (it reads its previous step). */
static int kept_reduction(const UbProgram *u, int r)
{
	vec_foreach(&u->ports, pi) if (u->ports.data[pi].stmt == r && u->ports.data[pi].previous) return 1;
	return 0;
}

/* The coefficients of n indices over from levels, level l moved to to[l]. */
static void move_coefs(UbIndex *x, int n, const int *to, int from)
{
	for (int d = 0; d < n; d++) {
		int64_t c[UB_MAXD];
		memcpy(c, x[d].coef, sizeof c);
		memset(x[d].coef, 0, sizeof x[d].coef);
		for (int l = 0; l < from; l++)
			x[d].coef[to[l]] = c[l];
	}
}

/* Moves statement si's level l to level to[l] (rising with l), n levels in
 * all, the others of one iteration (their variables NULL: the caller names
 * them), in its ports' and its output's indices. */
static void move_levels(UbProgram *u, int si, const int *to, int n)
{
	UbStmt *s = &u->stmts.data[si];
	UbStmt t = *s;
	for (int L = 0; L < n; L++) {
		s->sym[L] = -1;
		s->min[L] = 0;
		s->extent[L] = 1;
		s->var[L] = NULL;
	}
	for (int l = 0; l < t.nloops; l++) {
		s->sym[to[l]] = t.sym[l];
		s->min[to[l]] = t.min[l];
		s->extent[to[l]] = t.extent[l];
		s->var[to[l]] = t.var[l];
	}
	s->nloops = n;
	vec_foreach(&u->ports, pi) if (u->ports.data[pi].stmt == si) move_coefs(u->ports.data[pi].index,
									       u->ports.data[pi].ndims, to, t.nloops);
	move_coefs(s->out_index, s->nout, to, t.nloops);
}

/* Where input statement s's loops belong among the levels of reduction r
 * reading it through port p: per loop of s, the lowest level of r that
 * moves the coordinate s's loop writes; 0 if there is none or the levels do
 * not rise with s's loops. */
static int stream_levels(const UbProgram *u, const UbStmt *s, const UbPort *wp, const UbPort *p, int *at)
{
	const UbStmt *r = &u->stmts.data[p->stmt];
	for (int l = 0; l < s->nloops; l++) {
		int j = -1;
		for (int d = 0; d < wp->ndims; d++)
			if (wp->index[d].coef[l])
				j = j < 0 ? d : -2;
		if (j < 0 || j >= p->ndims)
			return 0;
		at[l] = -1;
		for (int L = 0; L < r->nloops && at[l] < 0; L++)
			if (p->index[j].coef[L])
				at[l] = L;
		if (at[l] < 0 || (l && at[l] <= at[l - 1]))
			return 0;
	}
	return 1;
}

/* An input stream read by a reduction kept in time whose loops move the
 * stream's coordinates at levels apart (a block of channels read again in
 * every step of a window: levels x, y and the block's, the window's
 * between them) gets levels of one iteration in those gaps, so that fusing
 * the nests level by level aligns each of its loops with the reduction's
 * loop over the same coordinate: the block is streamed in during the first
 * step of the window, not stretched over the window's levels. */
static void align_streams(Ext *X)
{
	UbProgram *u = X->u;
	vec_foreach(&u->stmts, si) {
		UbStmt *s = &u->stmts.data[si];
		const UbPort *wp = NULL;
		vec_foreach(&u->ports, pi) if (u->ports.data[pi].stmt == si && u->ports.data[pi].write) wp =
		    &u->ports.data[pi];
		if (!s->input || !wp || s->nloops < 2)
			continue;
		int at[UB_MAXD], found = 0, agree = 1;
		vec_foreach(&u->ports, pi) {
			const UbPort *p = &u->ports.data[pi];
			if (p->write || p->buffer != s->buffer)
				continue;
			int here[UB_MAXD];
			if (!kept_reduction(u, p->stmt)) {
				/* another reader keeps the stream's levels as they are */
				agree = 0;
				break;
			}
			if (!stream_levels(u, s, wp, p, here))
				agree = 0;
			else if (!found)
				memcpy(at, here, sizeof here), found = 1;
			else
				agree &= memcmp(at, here, sizeof(int) * (size_t)s->nloops) == 0;
		}
		/* its rows stay rows (level 0: the fetch blocks its writes fill) */
		if (!found || !agree || at[0] != 0 || at[s->nloops - 1] == s->nloops - 1 ||
		    at[s->nloops - 1] >= UB_MAXD)
			continue;
		int n = at[s->nloops - 1] + 1;
		move_levels(u, si, at, n);
		for (int L = 0; L < n; L++)
			s->var[L] = arena_printf(u->arena, "i%d", L);
	}
}

/* Inserts k levels of one iteration into statement si at level `at` (its
 * levels from `at` up move up by k). */
static int insert_levels(Ext *X, int si, int at, int k)
{
	UbProgram *u = X->u;
	UbStmt *s = &u->stmts.data[si];
	if (s->nloops + k > UB_MAXD) {
		xerr(X, s->store->line, s->store->col, "%s: more than %d loop levels once aligned with the loops "
		     "it shares with other statements", s->name, UB_MAXD);
		return 0;
	}
	int to[UB_MAXD];
	for (int l = 0; l < s->nloops; l++)
		to[l] = l < at ? l : l + k;
	move_levels(u, si, to, s->nloops + k);
	for (int l = at; l < at + k; l++) {
		const char *v = arena_printf(u->arena, "p%d", l);
		for (int q = 0; q < s->nloops; q++)
			if ((q < at || q >= at + k) && !strcmp(s->var[q], v))
				q = -1, v = arena_printf(u->arena, "%s_", v);
		s->var[l] = v;
	}
	return 1;
}

/* The coarse-grained pipeline loop: the innermost level whose loop statements
 * of two stages (Func and definition) share, once aligned; -1 if none. */
static void find_pipeline(UbProgram *u)
{
	u->pipe_level = -1;
	vec_foreach(&u->stmts, si) {
		const UbStmt *s = &u->stmts.data[si];
		for (int l = 1; l < s->nloops; l++) {   /* level 0 runs at II = 1: no stages below it */
			if (s->sym[l] < 0 || (u->pipe_level >= 0 && l >= u->pipe_level))
				continue;
			vec_foreach(&u->stmts, sj) {
				const UbStmt *t = &u->stmts.data[sj];
				if (level_of(t, s->sym[l]) == l && t->store && s->store &&
				    (t->store->func != s->store->func || t->store->def != s->store->def)) {
					u->pipe_level = l;
					u->pipe_sym = s->sym[l];
					u->pipe_var = s->var[l];
					u->pipe_extent = s->extent[l];
					break;
				}
			}
		}
	}
}

/* Statements that share a loop of the accelerator (a Func computed at a loop
 * inside it, and that loop's other statements) must have it at the same
 * fused level, as a perfect nest of the loop tree: levels of one iteration
 * are inserted below it in the statements with fewer levels inside it (the
 * paper's loop perfection; the scheduler places those statements' point in
 * the levels they lack by their dependences). */
static void align_loops(Ext *X)
{
	UbProgram *u = X->u;
	for (int round = 0, changed = 1; changed && X->ok; round++) {
		if (round > 4 * UB_MAXD)
			ICE("ub: aligning the shared loops does not settle");
		changed = 0;
		vec_foreach(&u->stmts, si) {
			const UbStmt *s = &u->stmts.data[si];
			for (int l = 0; l < s->nloops && !changed; l++) {
				int sym = s->sym[l], top = l;
				if (sym < 0)
					continue;
				vec_foreach(&u->stmts, sj) {
					int lj = level_of(&u->stmts.data[sj], sym);
					if (lj > top)
						top = lj;
				}
				if (top > l) {
					if (!insert_levels(X, si, l, top - l))
						return;
					changed = 1;
				}
			}
			if (changed)
				break;
		}
	}
}

static const char *shift_text(Ext *X, const UbIndex *x, int k)
{
	if (x->host[k] % x->div == 0)
		return arena_printf(X->u->arena, "%lld", (long long)(x->host[k] / x->div));
	return arena_printf(X->u->arena, "%lld/%lld", (long long)x->host[k], (long long)x->div);
}

/* Every run of the accelerator does the first run's work on regions moved
 * by a constant per host loop: each dimension of a buffer moves alike at
 * every port, by whole values. */
static void check_runs(Ext *X)
{
	const UbProgram *u = X->u;
	for (int k = 0; k < X->L->nhost; k++) {
		const char *hn = hl_sym_name(X->L->p, X->L->host[k]->sym);
		vec_foreach(&u->bufs, bi) {
			const UbBuffer *b = &u->bufs.data[bi];
			for (int j = 0; j < b->ndims; j++) {
				const UbIndex *first = NULL;
				vec_foreach(&b->ports, q) {
					const UbPort *p = &u->ports.data[b->ports.data[q]];
					if (j >= p->ndims)
						continue;
					const UbIndex *x = &p->index[j];
					const LStmt *st = u->stmts.data[p->stmt].store;
					int ok = x->host[k] % x->div == 0;
					if (ok && first)
						ok = x->host[k] / x->div == first->host[k] / first->div;
					if (!ok) {
						if (first)
							xerr(X, st->line, st->col,
							     "%s: the host's loop %s moves dimension %d of buffer %s by %s at this "
							     "access and by %s at another: each run of the accelerator must do the "
							     "first run's work on regions moved by whole values",
							     u->stmts.data[p->stmt].name, hn, j, b->name, shift_text(X, x, k),
							     shift_text(X, first, k));
						else
							xerr(X, st->line, st->col,
							     "%s: the host's loop %s moves dimension %d of buffer %s by %s: each "
							     "run of the accelerator must do the first run's work on regions "
							     "moved by whole values", u->stmts.data[p->stmt].name, hn, j, b->name,
							     shift_text(X, x, k));
						return;
					}
					if (!first)
						first = x;
				}
			}
		}
		vec_foreach(&u->stmts, si) {
			const UbStmt *s = &u->stmts.data[si];
			for (int j = 0; s->output && j < s->nout; j++)
				if (s->out_index[j].host[k] % s->out_index[j].div) {
					xerr(X, s->store->line, s->store->col,
					     "%s: the host's loop %s moves dimension %d of the output by %s: each run of "
					     "the accelerator must write a region moved by whole values", s->name, hn, j,
					     shift_text(X, &s->out_index[j], k));
					return;
				}
		}
	}
}

void ub_run_iteration(const UbProgram *u, int64_t r, int64_t *h)
{
	for (int k = u->nhost - 1; k >= 0; k--) {
		int64_t e = u->L->host[k]->extent;
		h[k] = r % e;
		r /= e;
	}
}

int64_t ub_run_shift(const UbProgram *u, const UbIndex *x, const int64_t *h)
{
	int64_t v = 0;
	for (int k = 0; k < u->nhost; k++)
		v += x->host[k] / x->div * h[k];
	return v;
}

int ub_extract(UbProgram *u, const LProgram *L, const DGraph *g, int fetch, int io_tiles, Diags *d)
{
	memset(u, 0, sizeof *u);
	u->L = L;
	u->g = g;
	u->fetch = fetch > 0 ? fetch : 1;
	u->arena = arena_new();
	if (L->p->images.len > 16) {
		diag_report(d, DIAG_ERROR, L->p->file, 0, 0, "more than 16 input images");
		return 0;
	}
	Ext X = { .u = u, .L = L, .d = d, .ok = 1, .io_tiles = io_tiles };
	u->nhost = L->nhost;
	u->runs = 1;
	for (int k = 0; k < L->nhost; k++) {
		he_is_const(L->host[k]->min, &X.host_min[k]);
		u->runs *= L->host[k]->extent;
	}
	make_buffers(&X, g);
	walk(&X, g, L->accel);
	if (X.ok)
		align_loops(&X);
	if (X.ok)
		find_pipeline(u);
	if (X.ok)
		align_streams(&X);
	if (X.ok)
		check_runs(&X);
	free(X.func_buf);
	free(X.func_split);
	free(X.iter);
	free(X.image_buf);
	return X.ok;
}

void ub_free(UbProgram *u)
{
	vec_foreach(&u->bufs, i) vec_free(&u->bufs.data[i].ports);
	vec_free(&u->bufs);
	vec_free(&u->stmts);
	vec_free(&u->ports);
	arena_free(u->arena);
	memset(u, 0, sizeof *u);
}

/* ---- walking a domain ---- */

int ub_step_end(const UbProgram *u, const UbPort *p)
{
	const UbIndex *step = &p->index[p->ndims - 1];  /* nonzero on the reduction's levels */
	int end = u->stmts.data[p->stmt].nloops;
	while (end > 0 && !step->coef[end - 1])
		end--;  /* the loops around it: a pipeline loop of the accelerator */
	return end;
}

int ub_step_top(const UbProgram *u, const UbPort *p)
{
	const UbIndex *step = &p->index[p->ndims - 1];
	int top = ub_step_end(u, p);
	while (top > 0 && step->coef[top - 1])
		top--;
	return top;
}

int64_t ub_time(const UbStmt *s, const int64_t *i)
{
	int64_t t = s->delay;
	for (int l = 0; l < s->nloops; l++)
		t += s->stride[l] * (i[l] - s->min[l]);
	return t;
}

void ub_first(const UbStmt *s, int64_t *i)
{
	for (int l = 0; l < UB_MAXD; l++)
		i[l] = l < s->nloops ? s->min[l] : 0;
}

int ub_next(const UbStmt *s, int64_t *i)
{
	for (int l = 0; l < s->nloops; l++) {
		if (++i[l] < s->min[l] + s->extent[l])
			return 1;
		i[l] = s->min[l];
	}
	return 0;
}
