/* ub_map.c - buffer mapping (ub_map.h): shift-register optimization,
 * banking, address linearization with ring folding and fetch padding, and
 * the schedule-and-map rounds that give memory-served ports the latency
 * their tile needs. */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "ub_mem.h"
#include "ubuf.h"

/* Register chains up to this long instead of a memory (the paper replaces
 * line buffers of fewer than 20 words by registers); raised to the tile's
 * smallest delay line. */
#define SR_MAX_DEFAULT 20
#define MAX_ROUNDS 8

typedef struct Mapper {
	UbProgram *u;
	UbMap *m;
	const MemInfo *mi;
	MemSolver *solver;      /* the tile's controllers, solved for every bank */
	Diags *d;
	int fetch;
	int retry;              /* a bank asked for later reads */
	int *same;              /* per read port of an addressed bank: an earlier one that reads
				 * the same words of its buffer in the same cycles, whose source
				 * it shares (one input channel for many output channels), or -1 */
} Mapper;

static int64_t round_up(int64_t v, int64_t k)
{
	return (v + k - 1) / k * k;
}

static void merr(Mapper *M, const UbStmt *s, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void merr(Mapper *M, const UbStmt *s, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	diag_vreport(M->d, DIAG_ERROR, M->u->L->p->file, s ? s->store->line : 0, s ? s->store->col : 0, fmt, ap);
	va_end(ap);
}

/* ---- streams ---- */

typedef struct Ev {
	int64_t t, a;
} Ev;
typedef VEC(Ev) EvVec;

static void stream_from(UmStream *s, const EvVec *v)
{
	s->n = v->len;
	s->cycle = xcalloc((size_t)v->len + 1, sizeof *s->cycle);
	s->addr = xcalloc((size_t)v->len + 1, sizeof *s->addr);
	vec_foreach(v, k) {
		s->cycle[k] = v->data[k].t;
		s->addr[k] = v->data[k].a;
	}
}

static void stream_free(UmStream *s)
{
	free(s->cycle);
	free(s->addr);
	free(s->care);
	memset(s, 0, sizeof *s);
}

/* A write port's events over its domain with level 0 padded to the fetch
 * width: the padding words are don't-cares that complete the last block of
 * each row. Coordinates of padding extrapolate the access map. */
typedef struct WEv {
	int64_t t;
	int64_t c[UB_MAXD];
	int pad;
} WEv;
typedef VEC(WEv) WEvVec;

static void write_events(const Mapper *M, const UbPort *wp, WEvVec *out)
{
	const UbStmt *s = &M->u->stmts.data[wp->stmt];
	UbStmt padded = *s;
	if (s->nloops)
		padded.extent[0] = round_up(s->extent[0], M->fetch);
	int64_t i[UB_MAXD];
	ub_first(&padded, i);
	do {
		WEv e = { ub_time(&padded, i) + s->latency, { 0 }, s->nloops && i[0] >= s->min[0] + s->extent[0] };
		for (int j = 0; j < wp->ndims; j++)
			e.c[j] = ub_index_at(&wp->index[j], i);
		vec_push(out, e);
	} while (ub_next(&padded, i));
}

/* ---- address layout ---- */

/* Linear address of buffer coordinates: dimension 0 padded to a row of p0
 * words, dimension 1 folded into a ring of `ring` rows. -1 outside. */
typedef struct Layout {
	int64_t min[UB_MAXD], ext[UB_MAXD];
	int nd;
	int64_t p0, ring;
} Layout;

static int64_t lay_addr(const Layout *l, const int64_t *c)
{
	int64_t a = 0, scale = 1;
	for (int j = 0; j < l->nd; j++) {
		int64_t x = c[j] - l->min[j];
		int64_t e = j == 0 ? l->p0 : j == 1 ? l->ring : l->ext[j];
		if (x < 0 || (j != 1 && x >= e) || (j == 1 && x >= l->ext[1]))
			return -1;
		if (j == 1)
			x %= l->ring;
		a += x * scale;
		scale *= e;
	}
	return a;
}

static int64_t lay_words(const Layout *l)
{
	int64_t w = 1;
	for (int j = 0; j < l->nd; j++)
		w *= j == 0 ? l->p0 : j == 1 ? l->ring : l->ext[j];
	return w;
}

/* The smallest ring (a divisor of the rows) such that no value is
 * overwritten before its last read, with a margin for block transfers. */
static int64_t choose_ring(const Mapper *M, const UbBuffer *b, const int64_t *wt, const int64_t *rt, int64_t from)
{
	if (b->ndims < 2)
		return 1;
	int64_t rows = b->extent[1], row = b->extent[0], n = 1;
	for (int j = 0; j < b->ndims; j++)
		n *= b->extent[j];
	int64_t margin = 4 * M->fetch + 4;
	for (int64_t r = from; r < rows; r++) {
		if (rows % r)
			continue;
		int ok = 1;
		for (int64_t a = 0; a + r * row < n && ok; a++) {
			int64_t next = a + r * row;
			if ((next / row) / rows != (a / row) / rows)
				continue;       /* another plane */
			if (rt[a] >= 0 && wt[next] >= 0 && wt[next] <= rt[a] + margin)
				ok = 0;
		}
		if (ok)
			return r;
	}
	return rows;
}

/* ---- shift registers ---- */

static int cmp64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
	return x < y ? -1 : x > y;
}

static int is_sr(const UbPort *p)
{
	return !p->write && p->src >= 0 && p->dmin == p->dmax;
}

/* The taps of write port w: distances >= sr_max that start a memory delay
 * line (each at least sr_max past the previous base). */
static int taps_of(const Mapper *M, int w, int64_t *taps, int max)
{
	VEC(int64_t) ds = { 0 };
	vec_foreach(&M->u->ports, pi) {
		const UbPort *p = &M->u->ports.data[pi];
		if (is_sr(p) && p->src == w)
			vec_push(&ds, p->dmin);
	}
	if (ds.len)
		qsort(ds.data, (size_t)ds.len, sizeof *ds.data, cmp64);
	int n = 0;
	int64_t base = 0;
	vec_foreach(&ds, k) {
		int64_t dk = ds.data[k];
		if (dk - base >= M->m->sr_max && n < max) {
			taps[n++] = dk;
			base = dk;
		}
	}
	vec_free(&ds);
	return n;
}

/* ---- banks ---- */

static UbBank *new_bank(Mapper *M, int buffer, int delay_line)
{
	UbBank b = { 0 };
	b.buffer = buffer;
	b.delay_line = delay_line;
	vec_push(&M->m->banks, b);
	return &M->m->banks.data[M->m->banks.len - 1];
}

/* Words of the tile's largest SRAM (of its largest unit if it has none):
 * what one tile of a chain adds to a bank. */
static int64_t tile_words(const MemInfo *mi)
{
	int64_t sram = 0, any = 1;
	for (int u = 0; u < mi->nunits; u++) {
		if (mi->units[u].words > any)
			any = mi->units[u].words;
		if (mi->units[u].kind == MEM_SRAM && mi->units[u].words > sram)
			sram = mi->units[u].words;
	}
	return sram ? sram : any;
}

/* 1 if a ring of r rows of statement s's stream wraps where a loop of its
 * rows ends: r divides the extent of level 1, or is that extent times a
 * divisor of level 2's, and so on; the addresses then follow the loop nest
 * (a reduction kept in time: rows of y within steps). */
static int ring_fits_nest(const UbStmt *s, int64_t r)
{
	int64_t below = 1;
	for (int l = 1; l < s->nloops; l++) {
		if (r % below == 0 && s->extent[l] % (r / below) == 0)
			return 1;
		below *= s->extent[l];
	}
	return r == below;
}

/* The rows of a delay line's ring holding `need` words: the smallest divisor
 * of `rows` that wraps at a loop's end (ring_fits_nest), so that the stream
 * is whole rings, unless a row count with a large prime factor makes that
 * take more tiles than the smallest ring (1082 rows = 2 x 541 of 1924 words
 * and a need of 3868: 541 rows, 509 tiles, where 3 rows take 3). Then *pad
 * is 1: the stream must be completed to whole rings (pad_rings; rows of one
 * loop only). */
static int64_t delay_ring(const Mapper *M, const UbStmt *s, int64_t row, int64_t rows, int64_t need, int *pad)
{
	int64_t ring = rows, rmin = (need + row - 1) / row, tw = tile_words(M->mi);
	for (int64_t r = 1; r <= rows; r++)
		if (rows % r == 0 && r * row >= need && ring_fits_nest(s, r)) {
			ring = r;
			break;
		}
	*pad = s->nloops == 2 && rows >= 2 && rmin < ring && (rmin * row + tw - 1) / tw < (ring * row + tw - 1) / tw;
	return *pad ? rmin : ring;
}

/* Completes the write stream `we` of `rows` rows of `row` words to whole
 * rings of `ring` rows: rows past the end, one row period apart at the ring's
 * addresses. Their writes overwrite only words whose reads are over (the
 * ring holds what the deepest tap needs) and their reads feed nothing. */
static void pad_rings(EvVec *we, int64_t row, int64_t rows, int64_t ring)
{
	int64_t n = we->len, words = ring * row;
	int64_t period = we->data[n - row].t - we->data[n - 2 * row].t;
	for (int64_t k = n; k < (rows + ring - 1) / ring * words; k++)
		vec_push(we, ((Ev){ we->data[k - row].t + period, k % words }));
}

/* A delay line of write port w with the given taps: the padded stream in
 * order, in a ring of whole rows, read back D cycles later per tap. */
static void delay_bank(Mapper *M, int w, const int64_t *taps, int ntaps)
{
	const UbPort *wp = &M->u->ports.data[w];
	const UbStmt *s = &M->u->stmts.data[wp->stmt];
	UbBank *b = new_bank(M, wp->buffer, 1);
	WEvVec ev = { 0 };
	write_events(M, wp, &ev);
	/* rows: of every level above the innermost (a stream z, y, x has
	 * extent(y) * extent(z) rows; a tap may reach across planes) */
	int64_t row = s->nloops ? round_up(s->extent[0], M->fetch) : 1, rows = 1;
	for (int l = 1; l < s->nloops; l++)
		rows *= s->extent[l];
	int pad;
	int64_t need = taps[ntaps - 1] + 4 * M->fetch + 4, ring = delay_ring(M, s, row, rows, need, &pad);
	int64_t words = ring * row;
	if (s->nloops < 2)
		words = ev.len, pad = 0;
	EvVec we = { 0 };
	vec_foreach(&ev, k) vec_push(&we, ((Ev){ ev.data[k].t, (int64_t)k % words }));
	if (pad)
		pad_rings(&we, row, rows, ring);
	b->nw = 1;
	b->wport[0] = w;
	stream_from(&b->w[0], &we);
	b->nr = ntaps;
	for (int k = 0; k < ntaps; k++) {
		EvVec re = { 0 };
		vec_foreach(&we, e) vec_push(&re, ((Ev){ we.data[e].t + taps[k], we.data[e].a }));
		b->delay[k] = taps[k];
		stream_from(&b->r[k], &re);
		vec_free(&re);
	}
	b->words = words;
	vec_free(&we);
	vec_free(&ev);
}

/* A read stream of a tile that fetches blocks of several words: when its
 * rows (its statement's level 0, one word and one cycle a step) start inside
 * a block or end inside one, the blocks a row touches vary from row to row
 * (a window moved by one word per plane), and the fetches form no loop nest.
 * Each row is then completed to the same number of whole blocks by reads
 * whose value nobody takes, before and after it in time; 1 if it was (out
 * filled), 0 if the rows need no completion or leave no room for it. */
static int whole_blocks(const Mapper *M, const UbStmt *s, const EvVec *re, int64_t words, UmStream *out)
{
	int64_t f = M->fetch, e = s->nloops ? s->extent[0] : 1;
	if (f <= 1 || !s->nloops || re->len % e)
		return 0;
	long rows = re->len / e;
	int64_t span = 0;
	int ragged = e % f != 0;
	for (long r = 0; r < rows; r++) {
		const Ev *v = &re->data[r * e];
		for (int64_t x = 1; x < e; x++)
			if (v[x].a != v[0].a + x || v[x].t != v[0].t + x)
				return 0;
		if (v[0].a < 0)
			return 0;
		ragged |= v[0].a % f != 0;
		span = span > v[0].a % f + e ? span : v[0].a % f + e;
	}
	if (!ragged)
		return 0;
	span = round_up(span, f);
	int64_t last = -1;
	for (long r = 0; r < rows; r++) {
		const Ev *v = &re->data[r * e];
		int64_t lead = v[0].a % f;
		if (v[0].t - lead <= last || v[0].t < lead || v[0].a - lead + span > words)
			return 0;
		last = v[0].t - lead + span - 1;
	}
	out->n = rows * span;
	out->cycle = xcalloc((size_t)out->n + 1, sizeof *out->cycle);
	out->addr = xcalloc((size_t)out->n + 1, sizeof *out->addr);
	out->care = xcalloc((size_t)out->n + 1, sizeof *out->care);
	for (long r = 0; r < rows; r++) {
		const Ev *v = &re->data[r * e];
		int64_t lead = v[0].a % f;
		for (int64_t x = 0; x < span; x++) {
			long k = r * span + x;
			out->cycle[k] = v[0].t - lead + x;
			out->addr[k] = v[0].a - lead + x;
			out->care[k] = x >= lead && x < lead + e;
		}
	}
	return 1;
}

/* A bank of general read ports: every write port of the buffer, reads at
 * their own addresses, dimension 0 padded to the fetch width and dimension 1
 * folded into the smallest safe ring. */
static int general_bank(Mapper *M, int buffer, const int *reads, int nr, int64_t from_ring, int whole)
{
	const UbBuffer *buf = &M->u->bufs.data[buffer];
	if (buf->nwrites > M->mi->nins || buf->nwrites > 8) {
		merr(M, &M->u->stmts.data[M->u->ports.data[reads[0]].stmt],
		     "buffer %s: its reads need values from %d write ports, but a %s tile has %d inputs and no "
		     "bank split separates them", buf->name, buf->nwrites, M->mi->name, M->mi->nins);
		return 0;
	}
	UbBank *b = new_bank(M, buffer, 0);
	Layout l = { { 0 }, { 0 }, buf->ndims, round_up(buf->extent[0], M->fetch), 1 };
	for (int j = 0; j < buf->ndims; j++)
		l.min[j] = buf->min[j], l.ext[j] = buf->extent[j];
	int64_t *wt, *rt;
	ub_lifetimes(M->u, buf, &wt, &rt);
	l.ring = buf->ndims > 1 ? choose_ring(M, buf, wt, rt, from_ring) : 1;
	free(wt);
	free(rt);
	b->words = lay_words(&l);
	b->nw = buf->nwrites;
	for (int k = 0; k < buf->nwrites; k++) {
		int w = buf->ports.data[k];
		WEvVec ev = { 0 };
		EvVec we = { 0 };
		write_events(M, &M->u->ports.data[w], &ev);
		vec_foreach(&ev, e) {
			int64_t a = lay_addr(&l, ev.data[e].c);
			if (a < 0) {
				merr(M, &M->u->stmts.data[M->u->ports.data[w].stmt],
				     "buffer %s: the writes padded to the %d-word fetch fall outside the buffer's rows",
				     buf->name, M->fetch);
				vec_free(&ev);
				vec_free(&we);
				return 0;
			}
			vec_push(&we, ((Ev){ ev.data[e].t, a }));
		}
		b->wport[k] = w;
		stream_from(&b->w[k], &we);
		vec_free(&we);
		vec_free(&ev);
	}
	b->nr = nr;
	for (int k = 0; k < nr; k++) {
		const UbPort *p = &M->u->ports.data[reads[k]];
		const UbStmt *s = &M->u->stmts.data[p->stmt];
		EvVec re = { 0 };
		int64_t i[UB_MAXD], c[UB_MAXD] = { 0 };
		ub_first(s, i);
		do {
			for (int j = 0; j < p->ndims; j++)
				c[j] = ub_index_at(&p->index[j], i);
			vec_push(&re, ((Ev){ ub_time(s, i), lay_addr(&l, c) }));
		} while (ub_next(s, i));
		if (!whole || !whole_blocks(M, s, &re, b->words, &b->r[k]))
			stream_from(&b->r[k], &re);
		vec_free(&re);
		M->m->src[reads[k]] = (UbSource){ UB_SRC_BANK, -1, M->m->banks.len - 1, k, 0 };
	}
	b->ring = l.ring;
	b->rows = buf->ndims > 1 ? buf->extent[1] : 1;
	b->whole = whole;
	return 1;
}

/* Shift registers and delay lines of every write port. */
static void map_shift_registers(Mapper *M)
{
	int nouts = M->mi->nouts < 8 ? M->mi->nouts : 8;
	vec_foreach(&M->u->ports, w) {
		if (!M->u->ports.data[w].write)
			continue;
		int64_t taps[64];
		int nt = taps_of(M, w, taps, 64);
		int first_bank = M->m->banks.len;
		for (int k = 0; k < nt; k += nouts)
			delay_bank(M, w, taps + k, nt - k < nouts ? nt - k : nouts);
		vec_foreach(&M->u->ports, pi) {
			const UbPort *p = &M->u->ports.data[pi];
			if (!is_sr(p) || p->src != w)
				continue;
			int best = -1;
			for (int k = 0; k < nt; k++)
				if (taps[k] <= p->dmin)
					best = k;
			UbSource *s = &M->m->src[pi];
			if (best < 0)
				*s = (UbSource){ UB_SRC_WRITE, w, -1, -1, p->dmin };
			else
				*s = (UbSource){ UB_SRC_BANK, -1, first_bank + best / nouts, best % nouts,
						 p->dmin - taps[best] };
		}
	}
}

/* A reduction kept in time (its read of the step before: p) whose
 * reduction loops are its outermost (the order the steps need) but whose
 * steps the fused nest makes unequal: the stencil schedule fuses every
 * statement's loops level by level, so a level below the reduction's where
 * another statement runs more iterations stretches the steps that end there.
 * Reports it and returns 1 if so. */
static int unequal_steps(Mapper *M, const UbPort *p)
{
	const UbStmt *s = &M->u->stmts.data[p->stmt];
	const UbIndex *step = &p->index[p->ndims - 1];  /* nonzero on the reduction's levels */
	int top = ub_step_top(M->u, p), end = ub_step_end(M->u, p);     /* the reduction's levels */
	for (int l = 0; l < top; l++)
		if (step->coef[l])
			return 0;       /* not outermost: the other message says so */
	for (int l = top; l < end - 1; l++) {
		int64_t own = s->rate[l] * s->extent[l];
		vec_foreach(&M->u->stmts, k) {
			const UbStmt *o = &M->u->stmts.data[k];
			if (o == s || o->apart || l >= o->nloops || o->rate[l] * o->extent[l] <= own)
				continue;
			merr(M, s,
			     "%s: the reduction kept in time needs steps of equal length, but the stencil schedule "
			     "fuses every statement's loops level by level, and at level %d, where %s runs %lld "
			     "iteration%s, %s runs %lld: its steps take %lld to %lld cycles (a Func computed in the "
			     "accelerator over a dimension the reduction unrolls, such as its channels, has such an "
			     "extra level; input streams run apart); the coarse-grained policy schedules the stages "
			     "of a loop inside the accelerator apart: compute the reduction at such a loop",
			     s->name, l, s->name, (long long)own, own == 1 ? "" : "s", o->name,
			     (long long)(o->rate[l] * o->extent[l]), (long long)p->dmin, (long long)p->dmax);
			return 1;
		}
	}
	return 0;
}

/* 1 if read ports p and q read the same words of one buffer in the same
 * cycles: their statements' schedules and their access maps are equal. */
static int same_reads(const UbProgram *u, const UbPort *p, const UbPort *q)
{
	const UbStmt *a = &u->stmts.data[p->stmt], *b = &u->stmts.data[q->stmt];
	if (p->buffer != q->buffer || p->ndims != q->ndims || p->previous != q->previous || a->nloops != b->nloops ||
	    a->delay != b->delay)
		return 0;
	for (int l = 0; l < a->nloops; l++)
		if (a->min[l] != b->min[l] || a->extent[l] != b->extent[l] || a->stride[l] != b->stride[l])
			return 0;
	for (int j = 0; j < p->ndims; j++) {
		const UbIndex *x = &p->index[j], *y = &q->index[j];
		if (x->c != y->c || x->div != y->div)
			return 0;
		for (int l = 0; l < a->nloops; l++)
			if (x->coef[l] != y->coef[l])
				return 0;
	}
	return 1;
}

/* The ports that read as an earlier one does take its source. */
static void share_sources(Mapper *M)
{
	vec_foreach(&M->u->ports, pi) if (M->same[pi] >= 0) M->m->src[pi] = M->m->src[M->same[pi]];
}

static int map_general(Mapper *M)
{
	int nouts = M->mi->nouts < 8 ? M->mi->nouts : 8;
	vec_foreach(&M->u->ports, pi) M->same[pi] = -1;
	vec_foreach(&M->u->bufs, bi) {
		const UbBuffer *b = &M->u->bufs.data[bi];
		int reads[8], n = 0;
		vec_foreach(&b->ports, k) {
			int pi = b->ports.data[k];
			const UbPort *p = &M->u->ports.data[pi];
			if (p->write || is_sr(p))
				continue;
			if (b->versions) {
				/* every step of a reduction kept in time is written; an addressed
				 * bank would hold them all (ubuf.h) */
				const UbStmt *s = &M->u->stmts.data[p->stmt];
				if (p->previous && unequal_steps(M, p))
					return 0;
				if (p->previous)
					merr(M, s,
					     "%s: the reduction kept in time reads its step before at distances of %lld to "
					     "%lld cycles, not at one: its reduction loops must be its outermost loops "
					     "(%s.update().reorder(...) with them last)",
					     s->name, (long long)p->dmin, (long long)p->dmax, b->name);
				else
					merr(M, s,
					     "%s reads %s, a reduction kept in time, at distances of %lld to %lld cycles from "
					     "its last step, not at one: a reader must take the last step's values in the "
					     "order and at the rate the step writes them (the reduction's loops outermost, "
					     "and the reader at the same points as its pure variables; a reduction whose "
					     "initial value reads another reduction reads it at every step)",
					     s->name, b->name, (long long)p->dmin, (long long)p->dmax);
				return 0;
			}
			for (int j = 0; j < k && M->same[pi] < 0; j++) {
				int qi = b->ports.data[j];
				const UbPort *q = &M->u->ports.data[qi];
				if (!q->write && !is_sr(q) && M->same[qi] < 0 && same_reads(M->u, p, q))
					M->same[pi] = qi;
			}
			if (M->same[pi] >= 0)
				continue;
			reads[n++] = pi;
			if (n == nouts) {
				if (!general_bank(M, bi, reads, n, 1, 0))
					return 0;
				n = 0;
			}
		}
		if (n && !general_bank(M, bi, reads, n, 1, 0))
			return 0;
	}
	share_sources(M);
	return 1;
}

/* Addressed bank bi is to be replaced: its read ports in reads (in the order
 * of its outputs), their number returned, its streams freed. */
static int release_bank(Mapper *M, int bi, int reads[8])
{
	UbBank *old = &M->m->banks.data[bi];
	int nr = 0;
	vec_foreach(&M->u->ports, pi) {
		const UbSource *s = &M->m->src[pi];
		if (!M->u->ports.data[pi].write && M->same[pi] < 0 && s->kind == UB_SRC_BANK && s->bank == bi)
			reads[s->out] = pi, nr++;
	}
	for (int k = 0; k < old->nw; k++)
		stream_free(&old->w[k]);
	for (int k = 0; k < old->nr; k++)
		stream_free(&old->r[k]);
	return nr;
}

/* A bank of buffer for the nr reads, with a ring of at least `from` rows
 * and its reads completed to whole blocks if whole, in place of bank bi. */
static int replace_bank(Mapper *M, int bi, int buffer, const int *reads, int nr, int64_t from, int whole)
{
	if (!general_bank(M, buffer, reads, nr, from, whole))
		return 0;
	/* the new bank went to the end: move it into place */
	UbBank nb = M->m->banks.data[M->m->banks.len - 1];
	M->m->banks.len--;
	M->m->banks.data[bi] = nb;
	for (int k = 0; k < nr; k++)
		M->m->src[reads[k]].bank = bi;
	return 1;
}

/* Replaces addressed bank bi by one with a ring of at least `from` rows. */
static int rebuild_bank(Mapper *M, int bi, int64_t from, int whole)
{
	int reads[8], buffer = M->m->banks.data[bi].buffer;
	int nr = release_bank(M, bi, reads);
	return replace_bank(M, bi, buffer, reads, nr, from, whole);
}

/* Replaces addressed bank bi, whose reads one memory tile cannot serve
 * together (their fetches need more of its storage's operations than it
 * has), by two copies of its buffer, each written by all of its writes and
 * serving half of the reads. */
static int split_bank(Mapper *M, int bi)
{
	int reads[8], buffer = M->m->banks.data[bi].buffer;
	int whole = M->m->banks.data[bi].whole;
	int nr = release_bank(M, bi, reads), h = nr / 2;
	return replace_bank(M, bi, buffer, reads, h, 1, whole) && general_bank(M, buffer, reads + h, nr - h, 1, whole);
}

/* Configures every bank; on reads too early, gives their ports the extra
 * latency and asks for another round. */
static int configure(Mapper *M)
{
	vec_foreach(&M->m->banks, bi) {
		UbBank *b = &M->m->banks.data[bi];
		UmRequest rq = { b->words, b->nw, b->nr, b->w, b->r };
		char why[512];
		int64_t later = 0;
		if (um_configure(M->mi, M->solver, &rq, &b->cfg, &later, why, sizeof why)) {
			b->configured = 1;
			continue;
		}
		if (later > 0) {
			vec_foreach(&M->u->ports, pi) {
				const UbSource *s = &M->m->src[M->same[pi] >= 0 ? M->same[pi] : pi];
				if (!M->u->ports.data[pi].write && s->kind == UB_SRC_BANK && s->bank == bi)
					M->u->ports.data[pi].extra += later;
			}
			M->retry = 1;
			continue;
		}
		if (!b->delay_line && !b->whole && M->fetch > 1) {
			/* rows that start or end inside a fetch block may make fetches that
			 * form no loop nest: rows of whole blocks */
			if (!rebuild_bank(M, bi, b->ring, 1))
				return 0;
			bi--;
			continue;
		}
		if (!b->delay_line && b->ring < b->rows) {
			/* the ring's wrap may not suit the reads' loop nest: a larger one */
			if (!rebuild_bank(M, bi, b->ring + 1, b->whole))
				return 0;
			bi--;
			continue;
		}
		if (!b->delay_line && b->nr > 1) {
			if (!split_bank(M, bi))
				return 0;
			bi--;
			continue;
		}
		merr(M, NULL, "buffer %s: %s", M->u->bufs.data[b->buffer].name, why);
		return 0;
	}
	share_sources(M);
	return 1;
}

static void clear_banks(UbMap *m)
{
	vec_foreach(&m->banks, bi) {
		UbBank *b = &m->banks.data[bi];
		for (int k = 0; k < b->nw; k++)
			stream_free(&b->w[k]);
		for (int k = 0; k < b->nr; k++)
			stream_free(&b->r[k]);
		if (b->configured)
			um_config_free(&b->cfg);
	}
	m->banks.len = 0;
}

static void count(const UbProgram *u, UbMap *m)
{
	m->regs = 0;
	m->tiles = 0;
	m->naive_tiles = 0;
	vec_foreach(&m->banks, bi) m->tiles += m->banks.data[bi].cfg.ntiles;
	/* registers: per source, the longest chain hanging off it */
	vec_foreach(&u->ports, pi) {
		const UbPort *p = &u->ports.data[pi];
		if (p->write)
			continue;
		if (!(is_sr(p) && p->dmin == 0))
			m->naive_tiles++;
		int64_t longest = m->src[pi].regs;
		int first = 1;
		vec_foreach(&u->ports, qi) {
			const UbSource *a = &m->src[pi], *b = &m->src[qi];
			if (u->ports.data[qi].write || a->kind != b->kind || a->write != b->write || a->bank != b->bank ||
			    a->out != b->out)
				continue;
			if (qi < pi)
				first = 0;
			if (b->regs > longest)
				longest = b->regs;
		}
		if (first)
			m->regs += longest;
	}
}

/* A design without memory tiles: every read port must be a wire or a
 * register chain off a write port (a constant distance below the register
 * limit); the buffers that need more are named in the error. */
static int map_without_memory(UbProgram *u, UbMap *m, const LProgram *L, Diags *d)
{
	m->sr_max = SR_MAX_DEFAULT;
	if (!ub_schedule(u, INT64_MAX / 4, d))
		return 0;
	VEC(char) names = { 0 };
	int need = 0;
	vec_foreach(&u->bufs, bi) {
		const UbBuffer *b = &u->bufs.data[bi];
		int mem = 0;
		vec_foreach(&b->ports, k) {
			const UbPort *p = &u->ports.data[b->ports.data[k]];
			mem |= !p->write && !(is_sr(p) && p->dmin < m->sr_max);
		}
		if (!mem)
			continue;
		const char *sep = need++ ? ", " : "";
		for (const char *t = sep; *t; t++)
			vec_push(&names, *t);
		for (const char *t = b->name; *t; t++)
			vec_push(&names, *t);
	}
	vec_push(&names, 0);
	if (need)
		diag_report(d, DIAG_ERROR, L->p->file, 0, 0, "the application needs %d line buffer%s (%s: values read "
			    "%d or more cycles after they are written, or not in the order written) and the design "
			    "has no MEM tile", need, need == 1 ? "" : "s", names.data, m->sr_max);
	vec_free(&names);
	if (need)
		return 0;
	m->src = xcalloc((size_t)u->ports.len + 1, sizeof *m->src);
	vec_foreach(&u->ports, pi) {
		const UbPort *p = &u->ports.data[pi];
		if (!p->write)
			m->src[pi] = (UbSource){ UB_SRC_WRITE, p->src, -1, -1, p->dmin };
	}
	m->iterations = 1;
	count(u, m);
	return 1;
}

/* Scheduling and mapping, again while a bank asks for later reads. */
static int map_rounds(Mapper *M, const LProgram *L, const Collateral *c)
{
	UbProgram *u = M->u;
	UbMap *m = M->m;
	Diags *d = M->d;
	int min_delay = um_min_delay(c->mem);
	m->sr_max = min_delay > SR_MAX_DEFAULT ? min_delay : SR_MAX_DEFAULT;
	m->src = xcalloc((size_t)u->ports.len + 1, sizeof *m->src);
	M->same = xcalloc((size_t)u->ports.len + 1, sizeof *M->same);
	int64_t max_cycle = ((int64_t)1 << c->mem->counter_bits) - 1;
	for (m->iterations = 1; m->iterations <= MAX_ROUNDS; m->iterations++) {
		clear_banks(m);
		M->retry = 0;
		if (!ub_schedule(u, max_cycle, d))
			return 0;
		map_shift_registers(M);
		if (!map_general(M) || !configure(M))
			return 0;
		if (!M->retry)
			break;
	}
	if (M->retry) {
		diag_report(d, DIAG_ERROR, L->p->file, 0, 0, "the schedule cannot be met: the memories still "
			    "ask for later reads after %d rounds", MAX_ROUNDS);
		return 0;
	}
	return 1;
}

/* A mapping given up: its banks, sources and the extra latency it asked for. */
static void unmap(Mapper *M)
{
	vec_foreach(&M->u->ports, pi) M->u->ports.data[pi].extra = 0;
	clear_banks(M->m);
	free(M->m->src);
	M->m->src = NULL;
	free(M->same);
	M->same = NULL;
}

int ub_build(UbProgram *u, UbMap *m, const LProgram *L, const DGraph *g, const Collateral *c, const int *latency,
	     int sequential, Diags *d)
{
	memset(m, 0, sizeof *m);
	double t0 = util_now();
	int io_tiles = 0;
	for (int y = 0; c->tiles && y < c->rows; y++)
		for (int x = 0; x < c->cols; x++)
			io_tiles += c->tiles[y][x] == 'I';
	if (!ub_extract(u, L, g, c->mem ? c->mem->units[0].fetch : 1, io_tiles, d))
		return 0;
	u->sequential = sequential && u->pipe_level >= 0;
	if (sequential && u->pipe_level < 0)
		diag_note(d, L->p->file, 0, 0, "--sequential: no loop of the accelerator (above its innermost) has "
			  "Funcs computed at it, so there are no iterations to run one after another");
	vec_foreach(&u->stmts, s) if (latency && u->stmts.data[s].kernel) u->stmts.data[s].latency =
	    latency[u->stmts.data[s].kernel - g->kernels.data];
	if (!c->mem) {
		int ok = map_without_memory(u, m, L, d);
		m->seconds = util_now() - t0;
		return ok;
	}
	/* quietly first: if the schedule the policy chose (ub_sched.c) does not map, the next
	 * one is mapped instead (coarse-grained, then the inputs apart alone, then the fused
	 * nest); a last failure is mapped again to report it, with why the better ones failed */
	Mapper M = { u, m, c->mem, memsolver_new(c->mem, c->mem_smt2), NULL, c->mem->units[0].fetch, 0, NULL };
	VEC(char) why = { 0 };
	int ok = 0;
	for (;;) {
		Diags *quiet = diags_new(NULL);
		M.d = quiet;
		ok = map_rounds(&M, L, c);
		int coarse = u->coarse, apart = u->inputs_apart;       /* the policy it chose */
		int64_t last = u->last_out;
		const Diag *first = ok ? NULL : diags_first_error(quiet, 0);
		if (first && (coarse || apart)) {
			char line[1024];
			snprintf(line, sizeof line, "%sthe schedule %s (last output at cycle %lld) did not map: %s",
				 why.len ? "; " : "", coarse ? "of the coarse-grained policy" : "with the input streams apart",
				 (long long)last, first->msg);
			for (const char *q = line; *q; q++)
				vec_push(&why, *q);
		}
		diags_free(quiet);
		if (ok || (!coarse && !apart))
			break;
		/* the next policy */
		if (coarse) {
			u->no_coarse = 1;
			u->coarse = u->inputs_apart = 0;
		} else {
			u->fused_only = 1;
			u->inputs_apart = 0;
		}
		unmap(&M);
	}
	if (!ok) {
		/* the fused nest's failure, reported */
		unmap(&M);
		M.d = d;
		ok = map_rounds(&M, L, c);
		if (!ok && why.len) {
			vec_push(&why, 0);
			diag_note(d, L->p->file, 0, 0, "%s", why.data);
		}
	}
	vec_free(&why);
	memsolver_free(M.solver);
	free(M.same);
	if (!ok)
		return 0;
	count(u, m);
	m->seconds = util_now() - t0;
	return 1;
}

void ub_map_free(UbMap *m)
{
	clear_banks(m);
	vec_free(&m->banks);
	free(m->src);
	memset(m, 0, sizeof *m);
}

static void print_source(const UbProgram *u, const UbMap *m, int pi, FILE *f)
{
	const UbSource *s = &m->src[pi];
	const UbPort *p = &u->ports.data[pi];
	fprintf(f, "  port %d (%s): ", pi, u->stmts.data[p->stmt].name);
	if (s->kind == UB_SRC_WRITE && s->regs)
		fprintf(f, "%lld registers after input port %d\n", (long long)s->regs, s->write);
	else if (s->kind == UB_SRC_WRITE)
		fprintf(f, "wire from input port %d\n", s->write);
	else
		fprintf(f, "memory bank %d output %d + %lld registers\n", s->bank, s->out, (long long)s->regs);
}

void ub_map_print(const UbProgram *u, const UbMap *m, const MemInfo *mi, FILE *f)
{
	fprintf(f, "# buffer mapping of %s on %s: %d memory tiles, %lld registers (register chains up to %d)\n",
		u->L->p->file, mi ? mi->name : "no memory tile", m->tiles, (long long)m->regs, m->sr_max - 1);
	vec_foreach(&u->bufs, bi) {
		const UbBuffer *b = &u->bufs.data[bi];
		fprintf(f, "buffer %s:\n", b->name);
		vec_foreach(&b->ports, k) if (!u->ports.data[b->ports.data[k]].write)
			print_source(u, m, b->ports.data[k], f);
	}
	vec_foreach(&m->banks, bi) {
		const UbBank *b = &m->banks.data[bi];
		fprintf(f, "bank %d: buffer %s, %s, %lld words, %d tile%s, inputs from port", bi,
			u->bufs.data[b->buffer].name, b->delay_line ? "delay line" : "addressed", (long long)b->words,
			b->cfg.ntiles, b->cfg.ntiles == 1 ? "" : "s");
		for (int k = 0; k < b->nw; k++)
			fprintf(f, " %d -> %s", b->wport[k], mi->ins[b->cfg.win[k]]);
		fprintf(f, "; outputs");
		for (int k = 0; k < b->nr; k++) {
			fprintf(f, " %s", mi->outs[b->cfg.rout[k]]);
			if (b->delay_line)
				fprintf(f, " (delay %lld)", (long long)b->delay[k]);
			if (b->r[k].care) {
				long idle = 0;
				for (long i = 0; i < b->r[k].n; i++)
					idle += !b->r[k].care[i];
				fprintf(f, " (rows of whole %d-word fetch blocks, %ld reads not taken)", mi->units[0].fetch,
					idle);
			}
		}
		fprintf(f, "\n");
		for (int t = 0; t < b->cfg.ntiles; t++)
			for (int r = 0; r < mi->nregs; r++)
				if (b->cfg.regs[t][r])
					fprintf(f, "  %08x %08x  # tile %d %s\n",
						mem_reg_address(&mi->regs[r]) | (uint32_t)t << 8, b->cfg.regs[t][r], t,
						mi->regs[r].name);
	}
}
