/* ub_sched.c - the stencil scheduler of ub.h (Unified Buffer paper 4.2,
 * after Huff et al.): relative rates per fused loop level from the access
 * maps, periods with the innermost level at II = 1 and padded to the
 * memory's fetch width, delays in statement order from the dependence
 * distances that isl computes over each read port's dependence relation,
 * and the capacity each buffer needs. */
#include <isl/aff.h>
#include <isl/ctx.h>
#include <isl/ilp.h>
#include <isl/options.h>
#include <isl/set.h>
#include <isl/val.h>
#include <stdlib.h>
#include <string.h>

#include "ubuf.h"

/* ---- isl notation ---- */

static void index_text(StrBuf *b, const UbIndex *x, const char *const *names)
{
	StrBuf n = { 0 };
	int any = 0;
	for (int l = UB_MAXD - 1; l >= 0; l--) {
		int64_t c = x->coef[l];
		if (!c)
			continue;
		if (any)
			sb_printf(&n, c < 0 ? " - " : " + ");
		else if (c < 0)
			sb_printf(&n, "-");
		int64_t a = c < 0 ? -c : c;
		if (a != 1)
			sb_printf(&n, "%lld", (long long)a);
		sb_printf(&n, "%s", names[l]);
		any = 1;
	}
	if (x->c || !any) {
		if (any)
			sb_printf(&n, x->c < 0 ? " - %lld" : " + %lld", (long long)(x->c < 0 ? -x->c : x->c));
		else
			sb_printf(&n, "%lld", (long long)x->c);
	}
	if (x->div != 1)
		sb_printf(b, "floor((%s)/%lld)", n.s, (long long)x->div);
	else
		sb_printf(b, "%s", n.s);
	free(n.s);
}

/* "name[y, x]" with the statement's variables (outermost first). */
static void tuple_text(StrBuf *b, const UbStmt *s, const char *const *names)
{
	sb_printf(b, "%s[", s->name);
	for (int l = s->nloops - 1; l >= 0; l--)
		sb_printf(b, "%s%s", names[l], l ? ", " : "");
	sb_printf(b, "]");
}

static void bounds_text(StrBuf *b, const UbStmt *s, const char *const *names)
{
	for (int l = s->nloops - 1; l >= 0; l--)
		sb_printf(b, "%s%lld <= %s <= %lld", l == s->nloops - 1 ? "" : " and ", (long long)s->min[l],
			  names[l], (long long)(s->min[l] + s->extent[l] - 1));
}

static void time_text(StrBuf *b, const UbStmt *s, const char *const *names, int with_delay)
{
	int any = 0;
	if (with_delay && s->delay) {
		sb_printf(b, "%lld", (long long)s->delay);
		any = 1;
	}
	for (int l = s->nloops - 1; l >= 0; l--) {
		if (!s->stride[l])
			continue;
		sb_printf(b, "%s", any ? " + " : "");
		if (s->stride[l] != 1)
			sb_printf(b, s->min[l] ? "%lld*" : "%lld", (long long)s->stride[l]);
		if (s->min[l] > 0)
			sb_printf(b, "(%s - %lld)", names[l], (long long)s->min[l]);
		else if (s->min[l] < 0)
			sb_printf(b, "(%s + %lld)", names[l], (long long)-s->min[l]);
		else
			sb_printf(b, "%s", names[l]);
		any = 1;
	}
	if (!any)
		sb_printf(b, "0");
}

/* ---- rates and periods ---- */

int64_t ub_gcd(int64_t a, int64_t b)
{
	while (b) {
		int64_t t = a % b;
		a = b;
		b = t;
	}
	return a < 0 ? -a : a;
}

/* The single loop level an index depends on, with its coefficient; -1 if none
 * or several. */
static int single_level(const UbIndex *x, int64_t *coef)
{
	int lv = -1;
	*coef = 0;
	for (int l = 0; l < UB_MAXD; l++)
		if (x->coef[l]) {
			if (lv >= 0)
				return -1;
			lv = l;
			*coef = x->coef[l];
		}
	return lv;
}

typedef struct Rat {
	int64_t n, d;
} Rat;

static int rat_less(Rat a, Rat b)
{
	return a.n * b.d < b.n * a.d;
}

/* Rates: consumers first; a producer runs at the rate that keeps pace with
 * the fastest of its readers along each level the access maps align. */
static void set_rates(UbProgram *u)
{
	int ns = u->stmts.len;
	Rat(*r)[UB_MAXD] = xcalloc((size_t)ns + 1, sizeof *r);
	for (int s = 0; s < ns; s++)
		for (int l = 0; l < UB_MAXD; l++)
			r[s][l] = (Rat){ 0, 1 };
	for (int s = ns - 1; s >= 0; s--) {
		for (int l = 0; l < UB_MAXD; l++)
			if (!r[s][l].n)
				r[s][l] = (Rat){ 1, 1 };
		vec_foreach(&u->ports, pi) {
			const UbPort *rp = &u->ports.data[pi];
			if (rp->write || rp->stmt != s)
				continue;
			const UbBuffer *b = &u->bufs.data[rp->buffer];
			for (int w = 0; w < b->nwrites; w++) {
				const UbPort *wp = &u->ports.data[b->ports.data[w]];
				for (int j = 0; j < rp->ndims && j < wp->ndims; j++) {
					int64_t cr, cw;
					int lr = single_level(&rp->index[j], &cr), lw = single_level(&wp->index[j], &cw);
					if (lr < 0 || lr != lw || cr <= 0 || cw <= 0)
						continue;
					/* producer iteration = (cr / dr) / (cw / dw) * consumer iteration */
					Rat q = { r[s][lr].n * rp->index[j].div * cw, r[s][lr].d * cr * wp->index[j].div };
					int64_t g = ub_gcd(q.n, q.d);
					q.n /= g, q.d /= g;
					Rat *pr = &r[wp->stmt][lr];
					if (!pr->n || rat_less(q, *pr))
						*pr = q;
				}
			}
		}
	}
	for (int l = 0; l < UB_MAXD; l++) {
		int64_t den = 1, g = 0;
		for (int s = 0; s < ns; s++)
			den = den / ub_gcd(den, r[s][l].d) * r[s][l].d;
		for (int s = 0; s < ns; s++)
			g = ub_gcd(g, r[s][l].n * (den / r[s][l].d));
		for (int s = 0; s < ns; s++)
			u->stmts.data[s].rate[l] = r[s][l].n * (den / r[s][l].d) / (g ? g : 1);
	}
	free(r);
}

static int64_t round_up(int64_t v, int64_t m)
{
	return (v + m - 1) / m * m;
}

/* 1 if statement r reads what input statement o writes only at indices
 * that do not change with r's levels below top (within a step). */
static int step_constant(const UbProgram *u, int o, int r, int top)
{
	int reads = 0;
	vec_foreach(&u->ports, pi) {
		const UbPort *p = &u->ports.data[pi];
		if (p->write || p->stmt != r || p->buffer != u->stmts.data[o].buffer)
			continue;
		reads++;
		for (int j = 0; j < p->ndims; j++)
			for (int l = 0; l < top; l++)
				if (p->index[j].coef[l])
					return 0;
	}
	return reads > 0;
}

/* Input streams whose loops, fused level by level, would stretch some steps
 * of a reduction kept in time (more iterations at a level between the
 * reduction's outermost and its innermost RVar loop than the reduction runs
 * there: a weight stream over a window wider than the RVars in time, an
 * input of several channels as one stream) run apart: one value a cycle in
 * their own order, and their readers wait for their values as for any
 * producer's. So do inputs it reads at
 * indices constant within a step (its weights) whose loops would stretch the
 * step's levels. The reduction's step is then one period of the fused nest. */
static void set_apart(UbProgram *u)
{
	vec_foreach(&u->stmts, s) u->stmts.data[s].apart = u->inputs_apart && u->stmts.data[s].input;
	vec_foreach(&u->ports, pi) {
		const UbPort *p = &u->ports.data[pi];
		if (!p->previous)
			continue;
		const UbStmt *r = &u->stmts.data[p->stmt];
		int top = ub_step_top(u, p), end = ub_step_end(u, p);
		for (int l = top; l + 1 < end; l++)
			vec_foreach(&u->stmts, k) {
				UbStmt *o = &u->stmts.data[k];
				if (o->input && l < o->nloops && o->rate[l] * o->extent[l] > r->rate[l] * r->extent[l])
					o->apart = 1;
			}
		/* an input the reduction reads at values constant within each step (its
		 * weights) whose loops would stretch the step's */
		vec_foreach(&u->stmts, k) {
			UbStmt *o = &u->stmts.data[k];
			if (!o->input || o->apart || !step_constant(u, k, p->stmt, top))
				continue;
			for (int l = 0; l < top && l < o->nloops; l++)
				if (o->rate[l] * o->extent[l] > r->rate[l] * r->extent[l])
					o->apart = 1;
		}
	}
}

/* The coarse-grained policy's stages: the statements inside the pipeline
 * loop (not the inputs apart), and the cycles each takes per iteration of it
 * in its own order (level 0 padded to the fetch width). */
static int64_t own_span(const UbProgram *u, const UbStmt *st, int top)
{
	int64_t n = 1;
	for (int l = 0; l < top && l < st->nloops; l++)
		n *= l == 0 ? round_up(st->extent[0], u->fetch) : st->extent[l];
	return n;
}

static void set_periods(UbProgram *u)
{
	int pl = u->pipe_level;
	vec_foreach(&u->stmts, s) {
		UbStmt *st = &u->stmts.data[s];
		st->coarse = u->coarse && pl >= 0 && !st->apart && pl < st->nloops && st->sym[pl] == u->pipe_sym;
	}
	u->period[0] = 1;
	for (int l = 0; l + 1 < UB_MAXD; l++) {
		int64_t e = 1;
		vec_foreach(&u->stmts, s) {
			const UbStmt *st = &u->stmts.data[s];
			if (st->apart || (st->coarse && l < pl))
				continue;
			int64_t ext = l < st->nloops ? st->extent[l] : 1;
			if (l == 0)
				ext = round_up(ext, u->fetch);
			if (st->rate[l] * ext > e)
				e = st->rate[l] * ext;
		}
		u->period[l + 1] = u->period[l] * e;
		if (l + 1 == pl) {
			/* the pipeline loop: its longest stage, and its stretch (sequential) */
			vec_foreach(&u->stmts, s) {
				int64_t span = u->stmts.data[s].coarse ? own_span(u, &u->stmts.data[s], pl) : 0;
				if (span > u->period[pl])
					u->period[pl] = span;
			}
			if (u->period[pl] < u->pipe_stretch)
				u->period[pl] = u->pipe_stretch;
		}
	}
	vec_foreach(&u->stmts, s) {
		UbStmt *st = &u->stmts.data[s];
		int own = st->apart ? UB_MAXD : st->coarse ? pl : 0;   /* levels in its own order */
		for (int l = 0; l < UB_MAXD; l++)
			st->stride[l] = l >= st->nloops ? 0
					: l >= own   ? st->rate[l] * u->period[l]
					: l == 0     ? 1
						     : st->stride[l - 1] * (l == 1 ? round_up(st->extent[0], u->fetch)
										 : st->extent[l - 1]);
	}
}

/* ---- dependences with isl ---- */

typedef struct Pair {
	int read, write;
	int64_t lo, hi;         /* min and max of base_read(i) - base_write(j) */
} Pair;
typedef VEC(Pair) PairVec;

static const char *const S_NAMES[UB_MAXD] = { "s0", "s1", "s2", "s3", "s4", "s5", "s6", "s7" };
static const char *const P_NAMES[UB_MAXD] = { "p0", "p1", "p2", "p3", "p4", "p5", "p6", "p7" };

/* "{ [s1, s0, p1, p0]": a read iteration and a write iteration. */
static void pair_tuple_text(StrBuf *b, const UbStmt *s, const UbStmt *p)
{
	sb_printf(b, "{ [");
	for (int l = s->nloops - 1; l >= 0; l--)
		sb_printf(b, "%s, ", S_NAMES[l]);
	for (int l = p->nloops - 1; l >= 0; l--)
		sb_printf(b, "%s%s", P_NAMES[l], l ? ", " : "");
}

/* The set of (read iteration, write iteration) pairs that move a value. */
static void pair_set_text(StrBuf *b, const UbProgram *u, const UbPort *rp, const UbPort *wp)
{
	const UbStmt *s = &u->stmts.data[rp->stmt], *p = &u->stmts.data[wp->stmt];
	pair_tuple_text(b, s, p);
	sb_printf(b, "] : ");
	bounds_text(b, s, S_NAMES);
	sb_printf(b, " and ");
	bounds_text(b, p, P_NAMES);
	for (int j = 0; j < rp->ndims; j++) {
		sb_printf(b, " and ");
		index_text(b, &rp->index[j], S_NAMES);
		sb_printf(b, " = ");
		index_text(b, &wp->index[j], P_NAMES);
	}
	sb_printf(b, " }");
}

/* base_read - base_write as an isl_aff on the pair set's space. */
static void delta_text(StrBuf *b, const UbProgram *u, const UbPort *rp, const UbPort *wp)
{
	const UbStmt *s = &u->stmts.data[rp->stmt], *p = &u->stmts.data[wp->stmt];
	pair_tuple_text(b, s, p);
	sb_printf(b, "] -> [(");
	time_text(b, s, S_NAMES, 0);
	sb_printf(b, " - (");
	time_text(b, p, P_NAMES, 0);
	sb_printf(b, "))] }");
}

static int64_t val_si(isl_val *v, int *ok)
{
	if (!v || !isl_val_is_int(v)) {
		*ok = 0;
		isl_val_free(v);
		return 0;
	}
	int64_t r = isl_val_get_num_si(v);
	isl_val_free(v);
	return r;
}

/* Fills the pair's distance range; 0 if no value moves between the ports. */
static int pair_range(isl_ctx *ctx, const UbProgram *u, Pair *pr, int *ok)
{
	const UbPort *rp = &u->ports.data[pr->read], *wp = &u->ports.data[pr->write];
	StrBuf sb = { 0 }, ab = { 0 };
	pair_set_text(&sb, u, rp, wp);
	delta_text(&ab, u, rp, wp);
	isl_set *set = isl_set_read_from_str(ctx, sb.s);
	isl_aff *aff = isl_aff_read_from_str(ctx, ab.s);
	int moves = 0;
	if (!set || !aff) {
		*ok = 0;
	} else if (isl_set_is_empty(set) == isl_bool_false) {
		moves = 1;
		pr->hi = val_si(isl_set_max_val(set, aff), ok);
		pr->lo = val_si(isl_set_min_val(set, aff), ok);
	}
	isl_aff_free(aff);
	isl_set_free(set);
	free(sb.s);
	free(ab.s);
	return moves;
}

/* The values a port reads (or writes), as an isl set of buffer coordinates. */
static isl_set *values_of(isl_ctx *ctx, const UbProgram *u, const UbPort *p)
{
	const UbStmt *s = &u->stmts.data[p->stmt];
	StrBuf b = { 0 };
	sb_printf(&b, "{ [");
	for (int j = 0; j < p->ndims; j++)
		sb_printf(&b, "%sv%d", j ? ", " : "", j);
	sb_printf(&b, "] : exists (");
	for (int l = s->nloops - 1; l >= 0; l--)
		sb_printf(&b, "%s%s", S_NAMES[l], l ? ", " : "");
	if (!s->nloops)
		sb_printf(&b, "z");
	sb_printf(&b, " : ");
	bounds_text(&b, s, S_NAMES);
	if (!s->nloops)
		sb_printf(&b, "z = 0");
	for (int j = 0; j < p->ndims; j++) {
		sb_printf(&b, " and v%d = ", j);
		index_text(&b, &p->index[j], S_NAMES);
	}
	sb_printf(&b, ")");
	/* a reduction's first step reads no previous one */
	const UbBuffer *buf = &u->bufs.data[p->buffer];
	for (int j = 0; p->previous && j < p->ndims; j++)
		sb_printf(&b, " and %lld <= v%d < %lld", (long long)buf->min[j], j,
			  (long long)(buf->min[j] + buf->extent[j]));
	sb_printf(&b, " }");
	isl_set *r = isl_set_read_from_str(ctx, b.s);
	free(b.s);
	return r;
}

/* Every read port's pairs; the port's source when one write port provides
 * all its values. */
static int dependences(isl_ctx *ctx, UbProgram *u, PairVec *pairs, Diags *d)
{
	int ok = 1;
	vec_foreach(&u->ports, pi) {
		UbPort *rp = &u->ports.data[pi];
		if (rp->write)
			continue;
		const UbBuffer *b = &u->bufs.data[rp->buffer];
		isl_set *need = values_of(ctx, u, rp);
		isl_set *have = NULL;
		int nsrc = 0;
		for (int w = 0; w < b->nwrites; w++) {
			Pair pr = { pi, b->ports.data[w], 0, 0 };
			if (!pair_range(ctx, u, &pr, &ok))
				continue;
			vec_push(pairs, pr);
			isl_set *v = values_of(ctx, u, &u->ports.data[pr.write]);
			have = have ? isl_set_union(have, v) : v;
			rp->src = nsrc++ ? -1 : pr.write;
		}
		if (!need || (have && isl_set_is_subset(need, have) != isl_bool_true) || !have) {
			const UbStmt *s = &u->stmts.data[rp->stmt];
			diag_report(d, DIAG_ERROR, u->L->p->file, s->store->line, s->store->col,
				    "%s reads values of %s that the accelerator never writes", s->name, b->name);
			ok = 0;
		}
		isl_set_free(need);
		isl_set_free(have);
	}
	return ok;
}

/* Delays in statement order (producers first): equations 1 and 2. */
static void set_delays(UbProgram *u, const Pair *pairs, int npairs)
{
	vec_foreach(&u->stmts, s) {
		UbStmt *st = &u->stmts.data[s];
		int64_t d = 0;
		for (int k = 0; k < npairs; k++) {
			const UbPort *rp = &u->ports.data[pairs[k].read];
			if (rp->stmt != s)
				continue;
			int ps = u->ports.data[pairs[k].write].stmt;
			if (ps == s)    /* a reduction's previous step: recurrence_fits checks it */
				continue;
			const UbStmt *p = &u->stmts.data[ps];
			int64_t need = p->delay + p->latency + rp->extra - pairs[k].lo;
			if (need > d)
				d = need;
		}
		st->delay = st->input ? 0 : d;
	}
	vec_foreach(&u->ports, pi) {
		UbPort *rp = &u->ports.data[pi];
		if (rp->write)
			continue;
		int first = 1;
		for (int k = 0; k < npairs; k++) {
			if (pairs[k].read != pi)
				continue;
			const UbStmt *p = &u->stmts.data[u->ports.data[pairs[k].write].stmt];
			int64_t off = u->stmts.data[rp->stmt].delay - p->delay - p->latency;
			int64_t lo = off + pairs[k].lo, hi = off + pairs[k].hi;
			if (first || lo < rp->dmin)
				rp->dmin = lo;
			if (first || hi > rp->dmax)
				rp->dmax = hi;
			first = 0;
		}
	}
}

/* A reduction kept in time reads its previous step: that step's value must
 * be written (its kernel's latency after it started) before the read. */
static int recurrence_fits(const UbProgram *u, const Pair *pairs, int npairs, Diags *d)
{
	for (int k = 0; k < npairs; k++) {
		const UbPort *rp = &u->ports.data[pairs[k].read];
		const UbStmt *s = &u->stmts.data[rp->stmt];
		if (u->ports.data[pairs[k].write].stmt != rp->stmt || pairs[k].lo >= s->latency + rp->extra)
			continue;
		diag_report(d, DIAG_ERROR, u->L->p->file, s->store->line, s->store->col,
			    "%s: the reduction kept in time reads its previous step %lld cycle%s after that step "
			    "started, but the step's result comes %lld cycles after its start: the reduction's "
			    "loop is too fast for its kernel (reorder the reduction outward, or unroll it)",
			    s->name, (long long)pairs[k].lo, pairs[k].lo == 1 ? "" : "s",
			    (long long)(s->latency + rp->extra));
		return 0;
	}
	return 1;
}

/* ---- capacity ---- */

typedef struct Live {
	int64_t t;
	int delta;
} Live;

static int live_cmp(const void *a, const void *b)
{
	const Live *x = a, *y = b;
	if (x->t != y->t)
		return x->t < y->t ? -1 : 1;
	return x->delta - y->delta;     /* ends (-1) before starts at the same cycle */
}

void ub_lifetimes(const UbProgram *u, const UbBuffer *b, int64_t **wt, int64_t **rt)
{
	int64_t n = 1;
	for (int j = 0; j < b->ndims; j++)
		n *= b->extent[j];
	*wt = xcalloc((size_t)n, sizeof **wt);
	*rt = xcalloc((size_t)n, sizeof **rt);
	for (int64_t a = 0; a < n; a++)
		(*wt)[a] = (*rt)[a] = -1;
	vec_foreach(&b->ports, k) {
		const UbPort *p = &u->ports.data[b->ports.data[k]];
		const UbStmt *s = &u->stmts.data[p->stmt];
		int64_t i[UB_MAXD], c[UB_MAXD] = { 0 };
		ub_first(s, i);
		do {
			for (int j = 0; j < p->ndims; j++)
				c[j] = ub_index_at(&p->index[j], i);
			int64_t a = ub_flat(b, c), t = ub_time(s, i) + (p->write ? s->latency : 0);
			if (a < 0)
				continue;
			if (p->write)
				(*wt)[a] = t;
			else if (t > (*rt)[a])
				(*rt)[a] = t;
		} while (ub_next(s, i));
	}
}

/* Values live at once: each from its write to its last read. */
static void set_capacity(UbProgram *u, UbBuffer *b)
{
	int64_t n = 1, *wt, *rt;
	for (int j = 0; j < b->ndims; j++)
		n *= b->extent[j];
	ub_lifetimes(u, b, &wt, &rt);
	VEC(Live) ev = { 0 };
	for (int64_t a = 0; a < n; a++)
		if (wt[a] >= 0 && rt[a] >= wt[a]) {
			vec_push(&ev, ((Live){ wt[a], 1 }));
			vec_push(&ev, ((Live){ rt[a] + 1, -1 }));
		}
	if (ev.len)
		qsort(ev.data, (size_t)ev.len, sizeof *ev.data, live_cmp);
	int64_t cur = 0, best = 0;
	vec_foreach(&ev, k) {
		cur += ev.data[k].delta;
		if (cur > best)
			best = cur;
	}
	b->capacity = best;
	vec_free(&ev);
	free(wt);
	free(rt);
}

static void set_latency(UbProgram *u)
{
	u->first_in = -1;
	u->last_out = 0;
	u->last_in = 0;
	vec_foreach(&u->stmts, s) {
		const UbStmt *st = &u->stmts.data[s];
		int64_t i[UB_MAXD];
		for (int l = 0; l < UB_MAXD; l++)
			i[l] = l < st->nloops ? st->min[l] + st->extent[l] - 1 : 0;
		if (st->input && (u->first_in < 0 || st->delay < u->first_in))
			u->first_in = st->delay;
		if (st->input && ub_time(st, i) > u->last_in)
			u->last_in = ub_time(st, i);
		if (st->output && ub_time(st, i) + st->latency > u->last_out)
			u->last_out = ub_time(st, i) + st->latency;
	}
	if (u->first_in < 0)
		u->first_in = 0;
}

/* 1 if the schedule ends within max_cycle (0: no limit), else an error. */
static int within_counter(const UbProgram *u, int64_t max_cycle, Diags *d)
{
	if (max_cycle <= 0 || u->last_out <= max_cycle)
		return 1;
	diag_report(d, DIAG_ERROR, u->L->p->file, u->L->p->accel_line, u->L->p->accel_col,
		    "the schedule cannot be met: its last output is at cycle %lld, beyond the memory tile's "
		    "schedule counter (at most %lld)", (long long)u->last_out, (long long)max_cycle);
	return 0;
}

static int schedule_once(UbProgram *u, int64_t max_cycle, Diags *d)
{
	set_rates(u);
	set_apart(u);
	set_periods(u);
	isl_ctx *ctx = isl_ctx_alloc();
	isl_options_set_on_error(ctx, ISL_ON_ERROR_CONTINUE);
	PairVec pairs = { 0 };
	int ok = dependences(ctx, u, &pairs, d);
	isl_ctx_free(ctx);
	if (ok)
		ok = recurrence_fits(u, pairs.data, pairs.len, d);
	if (ok) {
		set_delays(u, pairs.data, pairs.len);
		set_latency(u);
		vec_foreach(&u->bufs, b) set_capacity(u, &u->bufs.data[b]);
		ok = within_counter(u, max_cycle, d);
	}
	vec_free(&pairs);
	return ok;
}

/* The coarse-grained pipeline loop's period and the latency of its first
 * iteration (the statements in it, from the first start to the last end). */
static void pipe_figures(UbProgram *u)
{
	int pl = u->pipe_level;
	if (pl < 0)
		return;
	int64_t first = INT64_MAX, last = INT64_MIN;
	vec_foreach(&u->stmts, k) {
		const UbStmt *s = &u->stmts.data[k];
		if (pl >= s->nloops || s->sym[pl] != u->pipe_sym)
			continue;
		int64_t lo[UB_MAXD], hi[UB_MAXD];
		for (int l = 0; l < s->nloops; l++) {
			lo[l] = s->min[l];
			hi[l] = l >= pl ? s->min[l] : s->min[l] + s->extent[l] - 1;   /* the first iteration */
		}
		if (ub_time(s, lo) < first)
			first = ub_time(s, lo);
		if (ub_time(s, hi) + s->latency > last)
			last = ub_time(s, hi) + s->latency;
		u->pipe_ii = s->stride[pl];
	}
	u->pipe_latency = last >= first ? last - first + 1 : 0;
}

/* Sequential scheduling: the pipeline level's period stretched to one
 * iteration's latency (which the stretch may change: a few rounds). */
static int stretch(UbProgram *u, int64_t max_cycle, Diags *d)
{
	pipe_figures(u);
	for (int round = 0; u->sequential && u->pipe_ii < u->pipe_latency; round++) {
		if (round == 8)
			ICE("ub: sequential scheduling of loop %s does not settle", u->pipe_var);
		u->pipe_stretch = u->pipe_latency;
		if (!schedule_once(u, max_cycle, d))
			return 0;
		pipe_figures(u);
	}
	return 1;
}

/* The costliest compute statement (its kernel's operations times its
 * iterations): its name, iterations and span in the current schedule. */
static void costliest(UbProgram *u)
{
	int64_t most = 0;
	u->costliest = NULL;
	vec_foreach(&u->stmts, k) {
		const UbStmt *s = &u->stmts.data[k];
		if (!s->kernel || s->input)
			continue;
		int64_t n = 1, lo[UB_MAXD], hi[UB_MAXD];
		for (int l = 0; l < s->nloops; l++) {
			n *= s->extent[l];
			lo[l] = s->min[l];
			hi[l] = s->min[l] + s->extent[l] - 1;
		}
		int64_t cost = n * s->kernel->nodes.len;
		if (cost <= most)
			continue;
		most = cost;
		u->costliest = s->name;
		u->busy = n;
		u->span = ub_time(s, hi) - ub_time(s, lo) + 1;
	}
}

/* One policy, quietly: its last output, or -1 if it cannot be met. */
static int64_t try_policy(UbProgram *u, int apart, int coarse, int64_t max_cycle)
{
	Diags *quiet = diags_new(NULL);
	u->inputs_apart = apart;
	u->coarse = coarse;
	u->pipe_stretch = 0;
	int ok = schedule_once(u, max_cycle, quiet) && stretch(u, max_cycle, quiet);
	diags_free(quiet);
	return ok ? u->last_out : -1;
}

int ub_schedule(UbProgram *u, int64_t max_cycle, Diags *d)
{
	if (u->inputs_apart || u->fused_only) {
		/* chosen in an earlier round of the mapping: kept (the stretch found again) */
		u->pipe_stretch = 0;
		return schedule_once(u, max_cycle, d) && stretch(u, max_cycle, d);
	}
	/* the fused nest, however long: the policies compare the others with it */
	u->pipe_stretch = 0;
	u->coarse = 0;
	if (!schedule_once(u, 0, d) || !stretch(u, 0, d))
		return 0;
	costliest(u);
	int any_input = 0;
	vec_foreach(&u->stmts, k) any_input |= u->stmts.data[k].input && !u->stmts.data[k].apart;
	int coarse = u->pipe_level >= 0 && !u->no_coarse;
	if (!u->costliest || (!any_input && !coarse) || u->busy >= u->span)
		return within_counter(u, max_cycle, d);
	/* the costliest statement waits on the fused nest: the inputs apart, and the stages of
	 * the pipeline loop each in its own order, if they end sooner (costliest, busy and span
	 * stay the fused nest's) */
	int64_t fused = u->last_out, best = fused, t;
	int pick = 0, last = 0;         /* 0 fused, 1 inputs apart, 2 coarse-grained */
	if (any_input && (t = try_policy(u, 1, 0, max_cycle), last = 1, t >= 0 && t < best))
		best = t, pick = 1;
	if (coarse && (t = try_policy(u, 1, 1, max_cycle), last = 2, t >= 0 && t < best))
		best = t, pick = 2;
	u->fused_last_out = fused;
	if (pick && pick == last)
		return 1;       /* the schedule is the last one tried */
	u->inputs_apart = pick >= 1;
	u->coarse = pick == 2;
	u->pipe_stretch = 0;
	if (!schedule_once(u, pick ? max_cycle : 0, d) || !stretch(u, pick ? max_cycle : 0, d))
		return 0;
	return within_counter(u, max_cycle, d);
}

/* ---- Fig. 3 ---- */

static void print_port(const UbProgram *u, int pi, FILE *f)
{
	const UbPort *p = &u->ports.data[pi];
	const UbStmt *s = &u->stmts.data[p->stmt];
	const UbBuffer *b = &u->bufs.data[p->buffer];
	StrBuf x = { 0 };
	fprintf(f, "  %s port %d (statement %s)\n", p->write ? "input" : "output", pi, s->name);
	tuple_text(&x, s, s->var);
	fprintf(f, "    domain:   { %s : ", x.s);
	free(x.s), x = (StrBuf){ 0 };
	bounds_text(&x, s, s->var);
	fprintf(f, "%s }\n", x.s);
	free(x.s), x = (StrBuf){ 0 };
	tuple_text(&x, s, s->var);
	sb_printf(&x, " -> %s[", b->name);
	for (int j = 0; j < p->ndims; j++) {
		index_text(&x, &p->index[j], s->var);
		sb_printf(&x, "%s", j + 1 < p->ndims ? ", " : "");
	}
	fprintf(f, "    access:   { %s] }\n", x.s);
	free(x.s), x = (StrBuf){ 0 };
	tuple_text(&x, s, s->var);
	sb_printf(&x, " -> [");
	time_text(&x, s, s->var, 1);
	if (p->write && s->latency)
		sb_printf(&x, " + %d", s->latency);
	fprintf(f, "    schedule: { %s] }\n", x.s);
	free(x.s);
	if (!p->write) {
		if (p->dmin == p->dmax)
			fprintf(f, "    distance: %lld from input port %d\n", (long long)p->dmin, p->src);
		else if (p->src >= 0)
			fprintf(f, "    distance: %lld to %lld from input port %d\n", (long long)p->dmin,
				(long long)p->dmax, p->src);
		else
			fprintf(f, "    distance: %lld to %lld from several input ports\n", (long long)p->dmin,
				(long long)p->dmax);
	}
}

void ub_print(const UbProgram *u, FILE *f)
{
	fprintf(f, "// unified buffers of %s (cgrac --emit ubuf)\n", u->L->p->file);
	int levels = 4;         /* at least four, as the first versions printed */
	vec_foreach(&u->stmts, s) if (u->stmts.data[s].nloops > levels) levels = u->stmts.data[s].nloops;
	fprintf(f, "// fused loop nest: periods");
	for (int l = 0; l < levels; l++)
		fprintf(f, " %lld", (long long)u->period[l]);
	fprintf(f, " cycles per iteration of levels 0 (innermost) to %d; fetch width %d\n", levels - 1, u->fetch);
	fprintf(f, "// latency: first input at cycle %lld, last output at cycle %lld\n", (long long)u->first_in,
		(long long)u->last_out);
	if (u->inputs_apart)
		fprintf(f, "// policy: %s: %s, the costliest statement, was busy %lld of its %lld cycles fused, "
			"whose last output was at cycle %lld\n",
			u->coarse ? "coarse-grained, the stages of the pipeline loop each in its own order and the "
				    "input streams apart" : "the input streams apart from the fused nest",
			u->costliest, (long long)u->busy, (long long)u->span, (long long)u->fused_last_out);
	if (u->pipe_level >= 0) {
		fprintf(f, "// coarse-grained pipeline: loop %s (level %d), %lld iterations, one every %lld cycles, "
			"each %lld cycles long: ", u->pipe_var, u->pipe_level, (long long)u->pipe_extent,
			(long long)u->pipe_ii, (long long)u->pipe_latency);
		if (u->pipe_ii < u->pipe_latency)
			fprintf(f, "overlapped by %lld cycles, the Funcs computed in it double-buffered (a block "
				"per iteration)\n", (long long)(u->pipe_latency - u->pipe_ii));
		else
			fprintf(f, "one after another%s\n", u->sequential ? " (sequential scheduling)" : "");
	}
	vec_foreach(&u->stmts, s) {
		const UbStmt *st = &u->stmts.data[s];
		fprintf(f, "// statement %s: delay %lld, rates", st->name, (long long)st->delay);
		for (int l = 0; l < st->nloops; l++)
			fprintf(f, " %lld", (long long)st->rate[l]);
		fprintf(f, ", latency %d%s%s%s%s\n", st->latency, st->input ? ", streamed in" : "",
			st->apart ? " apart from the fused nest, a value a cycle" : "",
			st->coarse ? ", a stage in its own order inside the pipeline loop" : "",
			st->output ? ", streamed out" : "");
	}
	vec_foreach(&u->bufs, bi) {
		const UbBuffer *b = &u->bufs.data[bi];
		fprintf(f, "\nbuffer %s", b->name);
		for (int j = 0; j < b->ndims; j++)
			fprintf(f, "%s[%lld, %lld)", j ? " x " : " over ", (long long)b->min[j],
				(long long)(b->min[j] + b->extent[j]));
		fprintf(f, ": %d input, %d output ports, capacity %lld words%s", b->nwrites,
			b->ports.len - b->nwrites, (long long)b->capacity,
			b->versions ? "; a reduction kept in time, its last dimension the step" : "");
		if (b->blocks)
			fprintf(f, "; a block per iteration of the loops it is computed in (%lld), counted in "
				"dimension %d", (long long)b->blocks, b->ndims - 1 - (b->versions > 0));
		fprintf(f, "\n");
		vec_foreach(&b->ports, k) print_port(u, b->ports.data[k], f);
	}
}
