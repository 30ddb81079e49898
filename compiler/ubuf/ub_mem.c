/* ub_mem.c - see ub_mem.h. Configuring a bank takes five steps, each a
 * section below:
 *   1. the tile's shape: from the MemInfo edges, the storage unit every used
 *      tile input and output reaches (the same one for all), through an
 *      aggregator on the way in and a transpose buffer on the way out when the
 *      tile has them;
 *   2. versions: for every read event, the write event whose value it must
 *      show (the last write of its word before its cycle) and the next write
 *      of that word, which must not reach the storage before the read's fetch;
 *   3. the plan: each write stream's storage writes are its blocks' completion
 *      cycles plus an offset, each read stream's fetches its groups' first
 *      read cycles minus a lead and an offset; the offsets are searched in
 *      order (smallest first, depth first) until no storage port does two
 *      operations in a cycle, no aggregator or transpose buffer row is
 *      overwritten while still needed, and every fetch sees the right version;
 *   4. the controllers' event streams follow from the plan and are solved with
 *      memsolve (controllers whose streams differ by constant shifts of the
 *      cycle and addresses share one answer, its start registers moved);
 *   5. confirmation: the tiles' functional models run the whole request with
 *      random data and must show every read's word, valid, at its cycle.
 * Timing follows lake/COLLATERAL.md: a firing at t reads a port at t and
 * delivers at t + L (the source latency); a read sees the contents before its
 * cycle's writes; a write takes effect at the end of its cycle. */
#include "ub_mem.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../collateral/memmodel.h"
#include "../../common/rng.h"
#include "../../common/util.h"

/* Offsets searched per stream (cycles of slack of a storage write or fetch). */
#define UM_MAX_OFFSET 64
/* Collision checks of one search before it gives up, beyond those of trying
 * every offset of every stream once. */
#define UM_BUDGET 200000L
/* Read delays tried beyond the lower bound when searching *later. */
#define UM_LATER_SPAN 512
/* Largest delay um_min_delay tries. */
#define UM_MAX_DELAY 256
#define UM_SEED 0x75622d6d656d2121ULL

static int64_t max64(int64_t a, int64_t b)
{
	return a > b ? a : b;
}

static int64_t min64(int64_t a, int64_t b)
{
	return a < b ? a : b;
}

/* ---- 1. the tile's shape ---- */

/* The storage a tile input or output reaches: the edge at the tile port, the
 * aggregator or transpose buffer between it and the storage (or -1), the edge
 * between that buffer and the storage (or -1) and the storage's end. */
typedef struct Path {
	int io;
	int buf;
	int sedge;
	MemEnd send;
} Path;

static const MemPortInfo *port_of(const MemInfo *mi, MemEnd e)
{
	return &mi->units[e.unit].ports[e.port];
}

static int edge_at(const MemInfo *mi, int in_side, MemEnd e)
{
	for (int k = 0; k < mi->nedges; k++) {
		MemEnd x = in_side ? mi->edges[k].src : mi->edges[k].dst;
		if (x.unit == e.unit && x.port == e.port)
			return k;
	}
	return -1;
}

/* The edges between unit u and another storage unit, leaving it (out) or
 * entering it; the number found, the first in *e. */
static int storage_edges(const MemInfo *mi, int u, int out, int *e)
{
	int n = 0;
	for (int k = 0; k < mi->nedges; k++) {
		const MemEdgeInfo *ed = &mi->edges[k];
		MemEnd self = out ? ed->src : ed->dst, other = out ? ed->dst : ed->src;
		if (self.unit == u && other.unit >= 0 && n++ == 0)
			*e = k;
	}
	return n;
}

/* The path of tile input k (in) or tile output k: from the tile port's edge
 * to the unit at its other end, and on through that unit's one edge to
 * another storage unit, if it has one (a buffer). */
static int path_walk(const MemInfo *mi, int in, int k, Path *p, char *why, size_t whylen)
{
	const char *name = in ? mi->ins[k] : mi->outs[k];
	p->io = edge_at(mi, in, (MemEnd){ in ? MEM_TILE_IN : MEM_TILE_OUT, k });
	if (p->io < 0)
		return util_why(why, whylen,
				in ? "%s: input %s reaches no storage" : "%s: output %s is driven by no storage",
				mi->name, name);
	MemEnd u = in ? mi->edges[p->io].dst : mi->edges[p->io].src;
	int e = -1, n = storage_edges(mi, u.unit, in, &e);
	if (n > 1)
		return util_why(why, whylen,
				in ? "%s: %s feeds %d storage units after %s; unsupported shape"
				   : "%s: %s is fed by %d storage units before %s; unsupported shape",
				mi->name, name, n, mi->units[u.unit].name);
	p->buf = n ? u.unit : -1;
	p->sedge = n ? e : -1;
	p->send = !n ? u : in ? mi->edges[e].dst : mi->edges[e].src;
	return 1;
}

/* Words per storage operation of a path and the buffer's rows; checks that
 * the ports' widths fit the vectorization this planner does. */
static int path_geometry(const MemInfo *mi, const Path *p, int in, int *width, int *rows, char *why,
			 size_t whylen)
{
	const MemEdgeInfo *io = &mi->edges[p->io];
	const char *name = in ? mi->ins[io->src.port] : mi->outs[io->dst.port];
	if (io->width != 1)
		return util_why(why, whylen, "%s: %s moves %d words a cycle; unsupported", mi->name, name,
			    io->width);
	if (p->buf < 0) {
		*width = 1;
		*rows = 0;
		if (port_of(mi, p->send)->width != 1)
			return util_why(why, whylen, "%s: %s reaches the %d-wide %s without a buffer; unsupported",
				    mi->name, name, port_of(mi, p->send)->width, mem_end_name(mi, p->send));
		return 1;
	}
	const MemEdgeInfo *se = &mi->edges[p->sedge];
	const MemUnitInfo *b = &mi->units[p->buf];
	*width = se->width;
	*rows = b->words / se->width;
	MemEnd bio = in ? io->dst : io->src, bs = in ? se->src : se->dst;
	if (port_of(mi, se->src)->width != se->width || port_of(mi, se->dst)->width != se->width ||
	    port_of(mi, bio)->width != 1 || *rows < 1 || b->words % se->width)
		return util_why(why, whylen, "%s: the ports of %s (%s, %s) do not fit a %d-word fetch; unsupported",
			    mi->name, b->name, mem_end_name(mi, bio), mem_end_name(mi, bs), se->width);
	return 1;
}

/* ---- the plan's data ---- */

typedef struct WPlan {
	const UmStream *st;
	Path p;
	int width, rows;        /* words per storage write; aggregator rows (0: direct) */
	int64_t lat;            /* from the aggregator's read to the storage write */
	long nb;                /* blocks */
	int64_t hi;             /* the largest offset the aggregator rows allow */
	int off;
} WPlan;

typedef struct RPlan {
	int64_t *cycle;         /* the read cycles, delayed by the trial delay */
	const int64_t *addr;
	const uint8_t *care;    /* UmStream.care */
	long n;
	Path p;
	int width, rows;        /* words per fetch; transpose buffer rows (0: direct) */
	int64_t ls, ltb, lead;  /* storage and buffer latencies; fetch = first read - lead - off */
	long ng;
	long *g0;               /* [ng + 1]: the first read event of each group */
	int64_t *start;         /* [ng]: the cycle the group's block would start being read: its
				 * first read, less the words of the block before it (a row read
				 * from a word that does not start a block) at the stream's rate */
	long *req, *next;       /* per read: the write (global index) it shows, the next one */
	int64_t lo, hi;
	int off;
} RPlan;

/* A write event of every stream: its word and cycle, in (word, cycle) order. */
typedef struct WordWrite {
	int64_t word, cycle;
	long g;
} WordWrite;

typedef struct Plan {
	const MemInfo *mi;
	const UmRequest *rq;
	int s;                  /* the storage unit */
	int64_t cmax;           /* the last cycle a schedule counter reaches */
	WPlan *w;
	RPlan *r;
	long nwe;               /* write events of all streams */
	long *wbase;            /* [nw]: global index of each stream's first event */
	int *wstream;           /* [nwe] */
	int64_t *sw0;           /* [nwe]: storage write cycle with offset 0 */
	WordWrite *ww;          /* [nwe], sorted */
	long *wfirst;           /* [words + 1]: each word's first entry of ww */
	int nports;
	int *pbase;             /* [nunits]: the first port index of each unit */
	int *ii;                /* [nports]: cycles between two operations of a port */
	uint8_t **occ;          /* [nports][horizon]: operations placed */
	int64_t horizon;
	long budget;
} Plan;

static int port_index(const Plan *pl, MemEnd e)
{
	return pl->pbase[e.unit] + e.port;
}

static int64_t sw_at(const Plan *pl, long g)
{
	return pl->sw0[g] + pl->w[pl->wstream[g]].off;
}

/* ---- checking the request ---- */

static int check_stream(const UmStream *s, int64_t words, const char *kind, int k, char *why,
			size_t whylen)
{
	for (long i = 0; i < s->n; i++) {
		if (s->cycle[i] < 0)
			return util_why(why, whylen, "%s stream %d: event %ld: cycle %" PRId64 " is negative", kind, k,
				    i, s->cycle[i]);
		if (i && s->cycle[i] <= s->cycle[i - 1])
			return util_why(why, whylen, "%s stream %d: event %ld at cycle %" PRId64
				    " does not come after the one before", kind, k, i, s->cycle[i]);
		if (s->addr[i] < 0 || s->addr[i] >= words)
			return util_why(why, whylen, "%s stream %d: event %ld: word %" PRId64
				    " is outside the bank's %" PRId64 " words", kind, k, i, s->addr[i], words);
	}
	return 1;
}

static int check_blocks(const UmStream *s, int f, int k, char *why, size_t whylen)
{
	if (s->n % f)
		return util_why(why, whylen, "write stream %d: %ld writes are not whole blocks of %d words "
			    "(pad rows to a multiple of %d)", k, s->n, f, f);
	for (long i = 0; i < s->n; i++)
		if (s->addr[i] != s->addr[i - i % f] + i % f || s->addr[i - i % f] % f)
			return util_why(why, whylen, "write stream %d: event %ld writes word %" PRId64
				    "; blocks of %d events must write %d aligned words in order "
				    "(pad rows to a multiple of %d)", k, i, s->addr[i], f, f, f);
	return 1;
}

/* ---- 2. versions ---- */

static int cmp_ww(const void *a, const void *b)
{
	const WordWrite *x = a, *y = b;
	if (x->word != y->word)
		return x->word < y->word ? -1 : 1;
	if (x->cycle != y->cycle)
		return x->cycle < y->cycle ? -1 : 1;
	return x->g < y->g ? -1 : x->g > y->g;
}

static void index_writes(Plan *pl)
{
	const UmRequest *rq = pl->rq;
	pl->wbase = xcalloc((size_t)rq->nw + 1, sizeof(long));
	for (int k = 0; k < rq->nw; k++)
		pl->wbase[k + 1] = pl->wbase[k] + rq->w[k].n;
	pl->nwe = pl->wbase[rq->nw];
	pl->wstream = xcalloc((size_t)pl->nwe + 1, sizeof(int));
	pl->sw0 = xcalloc((size_t)pl->nwe + 1, sizeof(int64_t));
	pl->ww = xcalloc((size_t)pl->nwe + 1, sizeof(WordWrite));
	for (int k = 0; k < rq->nw; k++) {
		const WPlan *w = &pl->w[k];
		for (long i = 0; i < w->st->n; i++) {
			long g = pl->wbase[k] + i;
			pl->wstream[g] = k;
			pl->sw0[g] = w->rows ? w->st->cycle[i - i % w->width + w->width - 1] + 1 + w->lat
					     : w->st->cycle[i] + w->lat;
			pl->ww[g] = (WordWrite){ w->st->addr[i], w->st->cycle[i], g };
		}
	}
	qsort(pl->ww, (size_t)pl->nwe, sizeof *pl->ww, cmp_ww);
	pl->wfirst = xcalloc((size_t)rq->words + 2, sizeof(long));
	for (long j = 0; j < pl->nwe; j++)
		pl->wfirst[pl->ww[j].word + 1]++;
	for (int64_t a = 0; a < rq->words; a++)
		pl->wfirst[a + 1] += pl->wfirst[a];
}

/* The versions of read event i of r: the last write of its word before its
 * cycle and the write after that one (-1 when there is none). */
static void version_of(const Plan *pl, RPlan *r, long i)
{
	if (r->care && !r->care[i]) {
		r->req[i] = r->next[i] = -1;
		return;
	}
	long lo = pl->wfirst[r->addr[i]], hi = pl->wfirst[r->addr[i] + 1];
	long at = lo, end = hi;
	while (at < end) {
		long mid = at + (end - at) / 2;
		if (pl->ww[mid].cycle < r->cycle[i])
			at = mid + 1;
		else
			end = mid;
	}
	r->req[i] = at > lo ? pl->ww[at - 1].g : -1;
	r->next[i] = at < hi ? pl->ww[at].g : -1;
}

/* The first event of the block a write belongs to: reads of one row showing
 * one block version are one fetch. */
static long block_of(const Plan *pl, long g)
{
	if (g < 0)
		return -1;
	const WPlan *w = &pl->w[pl->wstream[g]];
	long i = g - pl->wbase[pl->wstream[g]];
	return g - i % w->width;
}

/* Cycles per word of a read stream that reads its words in order: between
 * the starts of two whole blocks, one after the other, if whole; 0 if no
 * two such blocks follow each other. */
static int64_t read_rate(const RPlan *r)
{
	for (long g = 0; g + 1 < r->ng; g++) {
		long a = r->g0[g], b = r->g0[g + 1];
		int64_t dc = r->cycle[b] - r->cycle[a];
		if (r->addr[a] % r->width == 0 && r->addr[b] == r->addr[a] + r->width && dc > 0 && dc % r->width == 0)
			return dc / r->width;
	}
	return 0;
}

static int taken(const RPlan *r, long i)
{
	return !r->care || r->care[i];
}

static void group_reads(const Plan *pl, RPlan *r)
{
	r->g0 = xcalloc((size_t)r->n + 1, sizeof(long));
	r->ng = 0;
	long shown = -1;        /* a taken read of the group: the block version it shows */
	for (long i = 0; i < r->n; i++) {
		int same = i && r->rows && r->addr[i] / r->width == r->addr[i - 1] / r->width &&
			   (!taken(r, i) || shown < 0 || block_of(pl, r->req[i]) == block_of(pl, r->req[shown]));
		if (!same) {
			r->g0[r->ng++] = i;
			shown = -1;
		}
		if (taken(r, i) && shown < 0)
			shown = i;
	}
	r->g0[r->ng] = r->n;
	/* a group that starts inside its block (the row starts at x + 1) is
	 * fetched as if the block were read from its first word: the fetches
	 * then keep the rhythm of the row's other blocks */
	free(r->start);
	r->start = xcalloc((size_t)r->ng + 1, sizeof(int64_t));
	int64_t rate = r->rows ? read_rate(r) : 0;
	for (long g = 0; g < r->ng; g++)
		r->start[g] = r->cycle[r->g0[g]] - (r->addr[r->g0[g]] % r->width) * rate;
}

/* ---- 3. the plan ---- */

static int64_t fetch_at(const RPlan *r, long g, int off)
{
	return r->start[g] - r->lead - off;
}

/* The operations of write stream w's storage writes at offset off (the
 * aggregator read and the storage write of each block), or of a direct
 * stream's writes; calls visit for each until it returns 0. */
typedef int (*OpVisit)(Plan *pl, int port, int64_t t, int mark);

static int visit_write(Plan *pl, int k, int off, OpVisit v, int mark)
{
	const WPlan *w = &pl->w[k];
	const MemInfo *mi = pl->mi;
	if (!w->rows) {
		int ps = port_index(pl, w->p.send);
		for (long i = 0; i < w->st->n; i++)
			if (!v(pl, ps, w->st->cycle[i] + w->lat, mark))
				return 0;
		return 1;
	}
	int pa = port_index(pl, mi->edges[w->p.sedge].src), ps = port_index(pl, w->p.send);
	for (long b = 0; b < w->nb; b++) {
		int64_t a = w->st->cycle[b * w->width + w->width - 1] + 1 + off;
		if (!v(pl, pa, a, mark) || !v(pl, ps, a + w->lat, mark))
			return 0;
	}
	return 1;
}

static int visit_read(Plan *pl, int k, int off, OpVisit v, int mark)
{
	const RPlan *r = &pl->r[k];
	int ps = port_index(pl, r->p.send);
	int pt = r->rows ? port_index(pl, pl->mi->edges[r->p.sedge].dst) : -1;
	for (long g = 0; g < r->ng; g++) {
		int64_t f = fetch_at(r, g, off);
		if (!v(pl, ps, f, mark) || (pt >= 0 && !v(pl, pt, f + r->ls, mark)))
			return 0;
	}
	return 1;
}

/* The fixed operations at the tile ports' buffers: aggregator writes and
 * transpose buffer reads. */
static int visit_fixed(Plan *pl, OpVisit v, int mark)
{
	const MemInfo *mi = pl->mi;
	for (int k = 0; k < pl->rq->nw; k++) {
		const WPlan *w = &pl->w[k];
		if (!w->rows)
			continue;
		int pa = port_index(pl, mi->edges[w->p.io].dst);
		for (long i = 0; i < w->st->n; i++)
			if (!v(pl, pa, w->st->cycle[i] + mi->edges[w->p.io].latency, mark))
				return 0;
	}
	for (int k = 0; k < pl->rq->nr; k++) {
		const RPlan *r = &pl->r[k];
		if (!r->rows)
			continue;
		int pt = port_index(pl, mi->edges[r->p.io].src);
		for (long i = 0; i < r->n; i++)
			if (!v(pl, pt, r->cycle[i] - r->ltb, mark))
				return 0;
	}
	return 1;
}

/* Is port free at t (and within its ii)? */
static int op_free(Plan *pl, int port, int64_t t, int mark)
{
	(void)mark;
	pl->budget--;
	if (t < 0 || t > pl->cmax || t >= pl->horizon)
		return 0;
	int ii = pl->ii[port];
	for (int64_t x = max64(0, t - ii + 1); x < min64(pl->horizon, t + ii); x++)
		if (pl->occ[port][x])
			return 0;
	return 1;
}

static int op_mark(Plan *pl, int port, int64_t t, int mark)
{
	pl->occ[port][t] = (uint8_t)mark;
	return 1;
}

/* Places a set of operations if every one is free. */
static int place(Plan *pl, int (*vis)(Plan *, int, int, OpVisit, int), int k, int off)
{
	if (!vis(pl, k, off, op_free, 0))
		return 0;
	vis(pl, k, off, op_mark, 1);
	return 1;
}

/* The offsets the aggregator rows of write stream w allow: a block must
 * leave its row before the row's next block starts to fill it. */
static int64_t write_hi(const WPlan *w)
{
	int64_t hi = UM_MAX_OFFSET;
	if (!w->rows)
		return 0;
	for (long b = 0; b + w->rows < w->nb; b++) {
		int64_t last = w->st->cycle[b * w->width + w->width - 1];
		int64_t next_first = w->st->cycle[(b + w->rows) * w->width];
		hi = min64(hi, next_first - last - 1);
	}
	return hi;
}

/* The offsets read stream r allows with the current write offsets: fetches
 * not before cycle 0, a buffer row not overwritten before its last read,
 * each fetch after the storage write of the version its reads show and not
 * after the next version's. */
static void read_range(const Plan *pl, RPlan *r)
{
	r->lo = 0;
	r->hi = r->rows ? UM_MAX_OFFSET : 0;
	for (long g = 0; g < r->ng; g++) {
		int64_t f0 = fetch_at(r, g, 0);
		r->hi = min64(r->hi, f0);
		if (g >= r->rows && r->rows) {
			int64_t last = r->cycle[r->g0[g - r->rows + 1] - 1];
			r->hi = min64(r->hi, f0 + r->ls - (last - r->ltb));
		}
		for (long i = r->g0[g]; i < r->g0[g + 1]; i++) {
			if (r->req[i] >= 0)
				r->hi = min64(r->hi, f0 - sw_at(pl, r->req[i]) - 1);
			if (r->next[i] >= 0)
				r->lo = max64(r->lo, f0 - sw_at(pl, r->next[i]));
		}
	}
}

static int search(Plan *pl, int depth);

static int search_reads(Plan *pl, int k)
{
	if (k == pl->rq->nr)
		return 1;
	RPlan *r = &pl->r[k];
	for (int64_t off = r->lo; off <= r->hi && pl->budget > 0; off++) {
		if (!place(pl, visit_read, k, (int)off))
			continue;
		r->off = (int)off;
		if (search_reads(pl, k + 1))
			return 1;
		visit_read(pl, k, (int)off, op_mark, 0);
	}
	return 0;
}

/* Depth-first over the write offsets, then the read offsets (each smallest
 * first). */
static int search(Plan *pl, int k)
{
	if (k == pl->rq->nw) {
		for (int j = 0; j < pl->rq->nr; j++) {
			read_range(pl, &pl->r[j]);
			if (pl->r[j].lo > pl->r[j].hi)
				return 0;
		}
		return search_reads(pl, 0);
	}
	WPlan *w = &pl->w[k];
	for (int64_t off = 0; off <= w->hi && pl->budget > 0; off++) {
		if (!place(pl, visit_write, k, (int)off))
			continue;
		w->off = (int)off;
		if (search(pl, k + 1))
			return 1;
		visit_write(pl, k, (int)off, op_mark, 0);
	}
	w->off = 0;
	return 0;
}

/* ---- building and freeing a plan ---- */

static void plan_free(Plan *pl)
{
	if (pl->r)
		for (int k = 0; k < pl->rq->nr; k++) {
			free(pl->r[k].cycle);
			free(pl->r[k].g0);
			free(pl->r[k].start);
			free(pl->r[k].req);
			free(pl->r[k].next);
		}
	free(pl->r);
	free(pl->w);
	free(pl->wbase);
	free(pl->wstream);
	free(pl->sw0);
	free(pl->ww);
	free(pl->wfirst);
	for (int p = 0; p < pl->nports && pl->occ; p++)
		free(pl->occ[p]);
	free(pl->occ);
	free(pl->pbase);
	free(pl->ii);
	memset(pl, 0, sizeof *pl);
}

/* The shape and the static parts of the plan: paths, geometry, the request's
 * checks, write indexes. */
static int plan_init(Plan *pl, const MemInfo *mi, const UmRequest *rq, char *why, size_t whylen)
{
	memset(pl, 0, sizeof *pl);
	pl->mi = mi;
	pl->rq = rq;
	pl->s = -1;
	pl->cmax = ((int64_t)1 << mi->counter_bits) - 1;
	if (rq->nr > mi->nouts)
		return util_why(why, whylen, "the bank needs %d read ports; %s has %d output%s", rq->nr, mi->name,
			    mi->nouts, mi->nouts == 1 ? "" : "s");
	if (rq->nw > mi->nins)
		return util_why(why, whylen, "the bank needs %d write ports; %s has %d input%s", rq->nw, mi->name,
			    mi->nins, mi->nins == 1 ? "" : "s");
	pl->w = xcalloc((size_t)rq->nw + 1, sizeof *pl->w);
	pl->r = xcalloc((size_t)rq->nr + 1, sizeof *pl->r);
	for (int k = 0; k < rq->nw; k++) {
		WPlan *w = &pl->w[k];
		w->st = &rq->w[k];
		if (!path_walk(mi, 1, k, &w->p, why, whylen) ||
		    !path_geometry(mi, &w->p, 1, &w->width, &w->rows, why, whylen) ||
		    !check_stream(w->st, rq->words, "write", k, why, whylen) ||
		    !check_blocks(w->st, w->width, k, why, whylen))
			return 0;
		w->lat = w->rows ? mi->edges[w->p.sedge].latency : mi->edges[w->p.io].latency;
		w->nb = w->st->n / w->width;
		w->hi = write_hi(w);
	}
	for (int k = 0; k < rq->nr; k++) {
		RPlan *r = &pl->r[k];
		if (!path_walk(mi, 0, k, &r->p, why, whylen) ||
		    !path_geometry(mi, &r->p, 0, &r->width, &r->rows, why, whylen) ||
		    !check_stream(&rq->r[k], rq->words, "read", k, why, whylen))
			return 0;
		r->addr = rq->r[k].addr;
		r->care = rq->r[k].care;
		r->n = rq->r[k].n;
		r->ltb = r->rows ? mi->edges[r->p.io].latency : 0;
		r->ls = r->rows ? mi->edges[r->p.sedge].latency : mi->edges[r->p.io].latency;
		r->lead = r->rows ? r->ltb + r->ls + 1 : r->ls;
	}
	for (int k = 0; k < rq->nw + rq->nr; k++) {
		int u = k < rq->nw ? pl->w[k].p.send.unit : pl->r[k - rq->nw].p.send.unit;
		if (pl->s >= 0 && u != pl->s)
			return util_why(why, whylen, "%s: the tile ports reach different storage units (%s, %s); "
				    "unsupported shape", mi->name, mi->units[pl->s].name, mi->units[u].name);
		pl->s = u;
	}
	if (pl->s < 0) {
		Path p;
		if (!path_walk(mi, mi->nins > 0, 0, &p, why, whylen))
			return 0;
		pl->s = p.send.unit;
	}
	pl->pbase = xcalloc((size_t)mi->nunits + 1, sizeof(int));
	for (int u = 0, n = 0; u < mi->nunits; u++) {
		pl->pbase[u] = n;
		n += mi->units[u].nports;
		pl->nports = n;
	}
	pl->ii = xcalloc((size_t)pl->nports + 1, sizeof(int));
	for (int u = 0; u < mi->nunits; u++)
		for (int p = 0; p < mi->units[u].nports; p++)
			pl->ii[pl->pbase[u] + p] = mi->units[u].ports[p].ii > 1 ? mi->units[u].ports[p].ii : 1;
	index_writes(pl);
	return 1;
}

/* The read streams delayed by d: cycles, versions, groups, occupancy. */
static void plan_reads(Plan *pl, int64_t d)
{
	int64_t last = 0;
	for (int k = 0; k < pl->rq->nr; k++) {
		RPlan *r = &pl->r[k];
		free(r->cycle);
		free(r->g0);
		free(r->req);
		free(r->next);
		r->cycle = xcalloc((size_t)r->n + 1, sizeof(int64_t));
		r->req = xcalloc((size_t)r->n + 1, sizeof(long));
		r->next = xcalloc((size_t)r->n + 1, sizeof(long));
		for (long i = 0; i < r->n; i++) {
			r->cycle[i] = pl->rq->r[k].cycle[i] + d;
			version_of(pl, r, i);
			last = max64(last, r->cycle[i]);
		}
		group_reads(pl, r);
		r->off = 0;
	}
	for (int k = 0; k < pl->rq->nw; k++) {
		const WPlan *w = &pl->w[k];
		if (w->st->n)
			last = max64(last, w->st->cycle[w->st->n - 1] + 1 + w->hi + w->lat);
	}
	pl->horizon = min64(last + 4, pl->cmax + 1);
	if (!pl->occ)
		pl->occ = xcalloc((size_t)pl->nports + 1, sizeof(uint8_t *));
	for (int p = 0; p < pl->nports; p++) {
		free(pl->occ[p]);
		pl->occ[p] = xcalloc((size_t)pl->horizon + 1, 1);
	}
}

/* The earliest cycle read i of r can have: its version's storage write with
 * no slack, a fetch, the buffer (the group's first read leads). */
static int64_t earliest_read(const Plan *pl, const RPlan *r, long g, long i)
{
	long v = r->req[i] >= 0 ? r->req[i] : pl->ww[pl->wfirst[r->addr[i]]].g;
	return pl->sw0[v] + 1 + r->lead + (r->cycle[i] - r->start[g]);
}

/* The first read (stream order) that comes before its word can be there;
 * fills why and returns 1 if there is one. */
static int too_early(const Plan *pl, char *why, size_t whylen)
{
	for (int k = 0; k < pl->rq->nr; k++) {
		const RPlan *r = &pl->r[k];
		for (long g = 0; g < r->ng; g++)
			for (long i = r->g0[g]; i < r->g0[g + 1]; i++) {
				if (!taken(r, i) || pl->wfirst[r->addr[i]] == pl->wfirst[r->addr[i] + 1])
					continue;
				int64_t e = earliest_read(pl, r, g, i);
				if (r->req[i] >= 0 && e <= r->cycle[i])
					continue;
				char stream[32] = "";
				if (pl->rq->nr > 1)
					snprintf(stream, sizeof stream, " (read stream %d)", k);
				util_why(why, whylen, "read %ld of word %" PRId64 " at cycle %" PRId64 "%s comes "
				     "before the word can be stored and fetched (the earliest is cycle %" PRId64 ")",
				     i, r->addr[i], r->cycle[i], stream, max64(e, r->cycle[i] + 1));
				return 1;
			}
	}
	return 0;
}

/* What the offsets of the write streams may be: the cycles after a block is
 * complete its storage write may come (an aggregator row must be emptied
 * before the row fills again). */
static void offset_ranges(const Plan *pl, char *buf, size_t len)
{
	size_t at = 0;
	buf[0] = '\0';
	for (int k = 0; k < pl->rq->nw && at < len; k++)
		at += (size_t)snprintf(buf + at, len - at, "%swrite stream %d needs its blocks stored at "
				       "offset 0..%" PRId64 " after they are complete", k ? ", " : "", k,
				       pl->w[k].hi);
	if (at < len)
		snprintf(buf + at, len - at, "%sfetches searched at offsets up to %d before the latest cycle",
			 at ? "; " : "", UM_MAX_OFFSET);
}

/* Plans the request with its reads delayed by d. */
static int plan_run(Plan *pl, int64_t d, char *why, size_t whylen)
{
	plan_reads(pl, d);
	if (too_early(pl, why, whylen))
		return 0;
	for (int k = 0; k < pl->rq->nr; k++)
		if (pl->r[k].n && pl->r[k].cycle[pl->r[k].n - 1] > pl->cmax)
			return util_why(why, whylen, "read stream %d ends at cycle %" PRId64 ", beyond the %d-bit "
				    "schedule counters", k, pl->r[k].cycle[pl->r[k].n - 1], pl->mi->counter_bits);
	pl->budget = UM_BUDGET;
	for (int k = 0; k < pl->rq->nw; k++)
		pl->budget += 2L * UM_MAX_OFFSET * pl->w[k].nb;
	for (int k = 0; k < pl->rq->nr; k++)
		pl->budget += 2L * UM_MAX_OFFSET * pl->r[k].ng;
	if (!visit_fixed(pl, op_free, 0)) {
		return util_why(why, whylen, "%s: two tile-port operations meet on one buffer port", pl->mi->name);
	}
	visit_fixed(pl, op_mark, 1);
	if (search(pl, 0))
		return 1;
	char ranges[256];
	offset_ranges(pl, ranges, sizeof ranges);
	return util_why(why, whylen, "no schedule of %s's storage ports serves the request: the %s "
		    "operations of the streams collide or a fetch misses its word's version with every "
		    "offset%s (%s)", pl->mi->name, pl->mi->units[pl->s].name,
		    pl->budget <= 0 ? "; search budget exhausted" : "", ranges);
}

/* The smallest delay of the reads that can let them come after their words
 * are stored and fetched. */
static int64_t later_bound(const Plan *pl)
{
	int64_t lb = 1;
	for (int k = 0; k < pl->rq->nr; k++) {
		const RPlan *r = &pl->r[k];
		for (long g = 0; g < r->ng; g++)
			for (long i = r->g0[g]; i < r->g0[g + 1]; i++)
				if (taken(r, i) && pl->wfirst[r->addr[i]] < pl->wfirst[r->addr[i] + 1]) {
					long v = pl->ww[pl->wfirst[r->addr[i]]].g;
					lb = max64(lb, pl->sw0[v] + 1 + r->lead - r->cycle[i]);
				}
	}
	return lb;
}

/* The smallest delay of every read that lets the plan succeed, or 0 with
 * the smallest delay tried in *tried and why it fails in why. */
static int64_t find_later(Plan *pl, int64_t *tried, char *why, size_t whylen)
{
	int64_t lb = later_bound(pl);
	*tried = lb;
	char scratch[8];
	for (int64_t d = lb; d < lb + UM_LATER_SPAN; d++)
		if (plan_run(pl, d, d == lb ? why : scratch, d == lb ? whylen : sizeof scratch))
			return d;
	return 0;
}

/* ---- 4. controller streams ---- */

/* The value of an address generator's end for an operation: addr_of gives
 * the word position at that end; the slot is it over the port's width. */
static void edge_stream(const MemInfo *mi, int e, long n, const int64_t *cyc, const int64_t *src,
			const int64_t *dst, MemStream *streams)
{
	const MemEdgeInfo *ed = &mi->edges[e];
	for (int k = 0; k < 2; k++) {
		int c = ed->ctrl[k];
		if (c < 0)
			continue;
		const MemCtrl *ct = &mi->ctrls[c];
		MemStream *s = &streams[c];
		int64_t shift = ct->side == MEM_SIDE_WRITE ? ed->latency : 0;
		s->n = n;
		s->cycle = xcalloc((size_t)n + 1, sizeof(int64_t));
		for (long i = 0; i < n; i++)
			s->cycle[i] = cyc[i] + shift;
		s->naddr = 0;
		const int64_t *vals[2] = { ct->src ? src : NULL, ct->dst ? dst : NULL };
		for (int j = 0; j < 2; j++) {
			if (!vals[j])
				continue;
			int64_t *a = xcalloc((size_t)n + 1, sizeof(int64_t));
			memcpy(a, vals[j], (size_t)n * sizeof(int64_t));
			s->addr[s->naddr++] = a;
		}
	}
}

static int64_t slot(const MemInfo *mi, MemEnd e, int64_t word)
{
	return word / port_of(mi, e)->width;
}

static void write_streams(const Plan *pl, const WPlan *w, MemStream *streams)
{
	const MemInfo *mi = pl->mi;
	long n = w->st->n;
	int64_t *a = xcalloc((size_t)n + 1, sizeof(int64_t));
	if (!w->rows) {
		for (long i = 0; i < n; i++)
			a[i] = slot(mi, w->p.send, w->st->addr[i]);
		edge_stream(mi, w->p.io, n, w->st->cycle, NULL, a, streams);
		free(a);
		return;
	}
	MemEnd bw = mi->edges[w->p.io].dst, br = mi->edges[w->p.sedge].src;
	for (long i = 0; i < n; i++)
		a[i] = slot(mi, bw, (i / w->width % w->rows) * w->width + i % w->width);
	edge_stream(mi, w->p.io, n, w->st->cycle, NULL, a, streams);
	int64_t *cyc = xcalloc((size_t)w->nb + 1, sizeof(int64_t));
	int64_t *src = xcalloc((size_t)w->nb + 1, sizeof(int64_t));
	for (long b = 0; b < w->nb; b++) {
		cyc[b] = w->st->cycle[b * w->width + w->width - 1] + 1 + w->off;
		src[b] = slot(mi, br, (b % w->rows) * w->width);
		a[b] = slot(mi, w->p.send, w->st->addr[b * w->width]);
	}
	edge_stream(mi, w->p.sedge, w->nb, cyc, src, a, streams);
	free(cyc);
	free(src);
	free(a);
}

static void read_streams(const Plan *pl, const RPlan *r, MemStream *streams)
{
	const MemInfo *mi = pl->mi;
	long n = r->n;
	int64_t *a = xcalloc((size_t)n + 1, sizeof(int64_t));
	int64_t *cyc = xcalloc((size_t)n + 1, sizeof(int64_t));
	if (!r->rows) {
		for (long i = 0; i < n; i++) {
			cyc[i] = r->cycle[i] - r->ls;
			a[i] = slot(mi, r->p.send, r->addr[i]);
		}
		edge_stream(mi, r->p.io, n, cyc, a, NULL, streams);
		free(a);
		free(cyc);
		return;
	}
	MemEnd tw = mi->edges[r->p.sedge].dst, tr = mi->edges[r->p.io].src;
	for (long g = 0; g < r->ng; g++)
		for (long i = r->g0[g]; i < r->g0[g + 1]; i++) {
			cyc[i] = r->cycle[i] - r->ltb;
			a[i] = slot(mi, tr, (g % r->rows) * r->width + r->addr[i] % r->width);
		}
	edge_stream(mi, r->p.io, n, cyc, a, NULL, streams);
	int64_t *src = xcalloc((size_t)r->ng + 1, sizeof(int64_t));
	for (long g = 0; g < r->ng; g++) {
		cyc[g] = fetch_at(r, g, r->off);
		src[g] = slot(mi, r->p.send, r->addr[r->g0[g]] / r->width * r->width);
		a[g] = slot(mi, tw, (g % r->rows) * r->width);
	}
	edge_stream(mi, r->p.sedge, r->ng, cyc, src, a, streams);
	free(src);
	free(a);
	free(cyc);
}

/* ---- solving, sharing answers between shifted streams ---- */

/* The generators of a controller in stream column order: the schedule, then
 * src and dst where present. */
static int ctrl_gens(const MemCtrl *c, const MemGen **g)
{
	int n = 0;
	g[n++] = &c->sched;
	if (c->src)
		g[n++] = &c->src->gen;
	if (c->dst)
		g[n++] = &c->dst->gen;
	return n;
}

static uint64_t mask_w(int w)
{
	return w >= 64 ? ~0ULL : (1ULL << w) - 1;
}

static int64_t column(const MemStream *s, int j, long i)
{
	return j == 0 ? s->cycle[i] : s->addr[j - 1][i];
}

/* Can controller b use controller a's answer with only its start registers
 * changed: the same generators' widths and the same stream up to a constant
 * per column (modulo each width)? */
static int shifted_same(const MemInfo *mi, int a, int b, const MemStream *sa, const MemStream *sb)
{
	const MemGen *ga[3], *gb[3];
	int na = ctrl_gens(&mi->ctrls[a], ga), nb = ctrl_gens(&mi->ctrls[b], gb);
	if (na != nb || sa->n != sb->n || sa->naddr != sb->naddr)
		return 0;
	for (int j = 0; j < na; j++) {
		if (ga[j]->width != gb[j]->width)
			return 0;
		uint64_t m = mask_w(ga[j]->width);
		for (long i = 1; i < sa->n; i++)
			if ((((uint64_t)column(sa, j, i) - (uint64_t)column(sa, j, 0)) & m) !=
			    (((uint64_t)column(sb, j, i) - (uint64_t)column(sb, j, 0)) & m))
				return 0;
	}
	return 1;
}

/* b's registers from a's answer: the same extents and steps, b's starts. */
static void copy_shifted(const MemInfo *mi, int a, int b, const MemStream *sb, uint32_t *regs)
{
	const MemCtrl *ca = &mi->ctrls[a], *cb = &mi->ctrls[b];
	const MemGen *ga[3], *gb[3];
	int n = ctrl_gens(ca, ga);
	ctrl_gens(cb, gb);
	regs[cb->en] = regs[ca->en];
	for (int l = 0; l < mi->dims; l++)
		regs[cb->max[l]] = regs[ca->max[l]];
	for (int j = 0; j < n; j++) {
		regs[gb[j]->start] = (uint32_t)((uint64_t)column(sb, j, 0) & mask_w(gb[j]->width));
		for (int l = 0; l < mi->dims; l++)
			regs[gb[j]->step[l]] = regs[ga[j]->step[l]];
	}
}

/* "write stream 0, controller e2 (agg0.r -> sram.rw)": what a refusal of
 * controller c concerns. */
static const char *ctrl_text(const Plan *pl, int c, char *buf, size_t len)
{
	const MemInfo *mi = pl->mi;
	int e = mi->ctrls[c].edge;
	const char *kind = "";
	int k = -1;
	for (int j = 0; j < pl->rq->nw && k < 0; j++)
		if (e == pl->w[j].p.io || e == pl->w[j].p.sedge)
			kind = "write", k = j;
	for (int j = 0; j < pl->rq->nr && k < 0; j++)
		if (e == pl->r[j].p.io || e == pl->r[j].p.sedge)
			kind = "read", k = j;
	snprintf(buf, len, "%s stream %d, controller %s (%s -> %s)", kind, k, mi->ctrls[c].name,
		 mem_end_name(mi, mi->edges[e].src), mem_end_name(mi, mi->edges[e].dst));
	return buf;
}

static int solve_all(const Plan *pl, MemSolver *solver, UmConfig *cfg, uint32_t *regs, char *why,
		     size_t whylen)
{
	const MemInfo *mi = pl->mi;
	double t0 = util_now();
	int ok = 1;
	for (int c = 0; c < mi->nctrls && ok; c++) {
		const MemStream *s = &cfg->streams[c];
		if (s->n == 0)
			continue;
		cfg->controllers++;
		int from = -1;
		for (int a = 0; a < c && from < 0; a++)
			if (cfg->streams[a].n && shifted_same(mi, a, c, &cfg->streams[a], s))
				from = a;
		if (from >= 0) {
			copy_shifted(mi, from, c, s, regs);
			continue;
		}
		char msg[400], name[160];
		cfg->solves++;
		if (!memsolver_stream(solver, c, s, regs, msg, sizeof msg, NULL))
			ok = util_why(why, whylen, "%s: %s", ctrl_text(pl, c, name, sizeof name), msg);
	}
	cfg->seconds = util_now() - t0;
	return ok;
}

/* ---- 5. confirmation and the chain model ---- */

struct UmSim {
	const MemInfo *mi;
	int ntiles, nw, nr;
	int *win, *rout;
	MemModel **m;
	uint64_t *in, *chain;
	int *chain_valid;
};

UmSim *um_sim_new(const MemInfo *mi, const UmConfig *cfg)
{
	UmSim *s = xcalloc(1, sizeof *s);
	s->mi = mi;
	s->ntiles = cfg->ntiles;
	s->nw = cfg->nw;
	s->nr = cfg->nr;
	s->win = xcalloc((size_t)cfg->nw + 1, sizeof(int));
	s->rout = xcalloc((size_t)cfg->nr + 1, sizeof(int));
	memcpy(s->win, cfg->win, (size_t)cfg->nw * sizeof(int));
	memcpy(s->rout, cfg->rout, (size_t)cfg->nr * sizeof(int));
	s->m = xcalloc((size_t)cfg->ntiles, sizeof *s->m);
	for (int t = 0; t < cfg->ntiles; t++) {
		s->m[t] = memmodel_new(mi);
		memmodel_config(s->m[t], cfg->regs[t]);
		memmodel_flush(s->m[t]);
	}
	s->in = xcalloc((size_t)mi->nins + 1, sizeof(uint64_t));
	s->chain = xcalloc((size_t)mi->nouts + 1, sizeof(uint64_t));
	s->chain_valid = xcalloc((size_t)mi->nouts + 1, sizeof(int));
	return s;
}

/* The write streams' words at the tile inputs they enter (0 elsewhere, and
 * everywhere without in). */
static void tile_inputs(UmSim *s, const uint64_t *in)
{
	memset(s->in, 0, (size_t)s->mi->nins * sizeof(uint64_t));
	for (int k = 0; in && k < s->nw; k++)
		s->in[s->win[k]] = in[k];
}

void um_sim_outputs(UmSim *s, const uint64_t *in, uint64_t *out, int *valid)
{
	const MemInfo *mi = s->mi;
	tile_inputs(s, in);
	memset(s->chain, 0, (size_t)mi->nouts * sizeof(uint64_t));
	memset(s->chain_valid, 0, (size_t)mi->nouts * sizeof(int));
	for (int t = 0; t < s->ntiles; t++) {
		const MemCycle *cy = memmodel_begin(s->m[t], s->in, mi->chain ? s->chain : NULL,
						    mi->chain ? s->chain_valid : NULL);
		for (int o = 0; o < mi->nouts; o++) {
			s->chain[o] = cy->out[o];
			s->chain_valid[o] = cy->out_valid[o];
		}
	}
	for (int k = 0; k < s->nr; k++) {
		out[k] = s->chain[s->rout[k]];
		valid[k] = s->chain_valid[s->rout[k]];
	}
}

void um_sim_inputs(UmSim *s, const uint64_t *in)
{
	tile_inputs(s, in);
	for (int t = 0; t < s->ntiles; t++)
		memmodel_finish(s->m[t], s->in);
}

void um_sim_step(UmSim *s, const uint64_t *in, uint64_t *out, int *valid)
{
	um_sim_outputs(s, in, out, valid);
	um_sim_inputs(s, in);
}

void um_sim_free(UmSim *s)
{
	if (!s)
		return;
	for (int t = 0; t < s->ntiles; t++)
		memmodel_free(s->m[t]);
	free(s->m);
	free(s->win);
	free(s->rout);
	free(s->in);
	free(s->chain);
	free(s->chain_valid);
	free(s);
}

/* Runs the whole request on the configured chain with random words and
 * checks every read; 1, or 0 with the first mismatch in why. */
static int confirm(const Plan *pl, const UmConfig *cfg, char *why, size_t whylen)
{
	const MemInfo *mi = pl->mi;
	const UmRequest *rq = pl->rq;
	Rng rng;
	rng_seed(&rng, UM_SEED);
	uint64_t *data = xcalloc((size_t)pl->nwe + 1, sizeof(uint64_t));
	for (long g = 0; g < pl->nwe; g++)
		data[g] = rng_bits(&rng, mi->word);
	int64_t end = 0;
	for (int k = 0; k < rq->nr; k++)
		if (rq->r[k].n)
			end = max64(end, pl->r[k].cycle[rq->r[k].n - 1] + 1);
	UmSim *sim = um_sim_new(mi, cfg);
	long *wi = xcalloc((size_t)rq->nw + 1, sizeof(long)), *ri = xcalloc((size_t)rq->nr + 1, sizeof(long));
	uint64_t *in = xcalloc((size_t)rq->nw + 1, sizeof(uint64_t)), *out = xcalloc((size_t)rq->nr + 1, sizeof(uint64_t));
	int *valid = xcalloc((size_t)rq->nr + 1, sizeof(int));
	int ok = 1;
	for (int64_t t = 0; t < end && ok; t++) {
		for (int k = 0; k < rq->nw; k++) {
			const UmStream *w = &rq->w[k];
			int due = wi[k] < w->n && w->cycle[wi[k]] == t;
			in[k] = due ? data[pl->wbase[k] + wi[k]++] : rng_bits(&rng, mi->word);
		}
		um_sim_step(sim, in, out, valid);
		for (int k = 0; k < rq->nr && ok; k++) {
			const RPlan *r = &pl->r[k];
			long i = ri[k];
			if (i >= r->n || r->cycle[i] != t)
				continue;
			ri[k]++;
			if (!taken(r, i))
				continue;
			int known = r->req[i] >= 0;
			if (!valid[k] || (known && out[k] != data[r->req[i]]))
				ok = util_why(why, whylen, "internal error: the model of the configured tiles shows "
					  "%s%" PRIx64 " for read %ld of read stream %d (word %" PRId64 " at "
					  "cycle %" PRId64 "), expected %" PRIx64 " (%s:%d)", valid[k] ? "" : "no valid ",
					  out[k], i, k, r->addr[i], t, known ? data[r->req[i]] : 0, __FILE__, __LINE__);
		}
	}
	um_sim_free(sim);
	free(wi);
	free(ri);
	free(in);
	free(out);
	free(valid);
	free(data);
	return ok;
}

/* ---- the entry points ---- */

static int chain_tiles(const Plan *pl, int *ntiles, char *why, size_t whylen)
{
	const MemInfo *mi = pl->mi;
	const MemUnitInfo *s = &mi->units[pl->s];
	int64_t words = pl->rq->words;
	*ntiles = 1;
	if (words <= s->words)
		return 1;
	if (!mi->chain || !s->chained || mi->chain_id < 0)
		return util_why(why, whylen, "the bank needs %" PRId64 " words; %s holds %d and does not chain",
			    words, mi->name, s->words);
	int64_t n = (words + s->words - 1) / s->words;
	int idbits = mi->regs[mi->chain_id].width;
	int64_t slots = 0;
	for (int p = 0; p < s->nports; p++)
		slots = max64(slots, (words - 1) / s->ports[p].width + 1);
	if ((idbits < 62 && n > ((int64_t)1 << idbits)) || slots > ((int64_t)1 << mi->counter_bits))
		return util_why(why, whylen, "the bank needs %" PRId64 " words: %" PRId64 " tiles of %s, more than "
			    "its chain addresses", words, n, mi->name);
	*ntiles = (int)n;
	return 1;
}

static void fill_config(const Plan *pl, UmConfig *cfg, int ntiles)
{
	const MemInfo *mi = pl->mi;
	cfg->ntiles = ntiles;
	cfg->nw = pl->rq->nw;
	cfg->nr = pl->rq->nr;
	cfg->win = xcalloc((size_t)cfg->nw + 1, sizeof(int));
	cfg->rout = xcalloc((size_t)cfg->nr + 1, sizeof(int));
	cfg->offsets = xcalloc((size_t)(cfg->nw + cfg->nr) + 1, sizeof(int64_t));
	for (int k = 0; k < cfg->nw; k++) {
		cfg->win[k] = k;
		cfg->offsets[k] = pl->w[k].off;
	}
	for (int k = 0; k < cfg->nr; k++) {
		cfg->rout[k] = k;
		cfg->offsets[cfg->nw + k] = pl->r[k].off;
	}
	cfg->nctrls = mi->nctrls;
	cfg->streams = xcalloc((size_t)mi->nctrls + 1, sizeof(MemStream));
	for (int k = 0; k < cfg->nw; k++)
		write_streams(pl, &pl->w[k], cfg->streams);
	for (int k = 0; k < cfg->nr; k++)
		read_streams(pl, &pl->r[k], cfg->streams);
	cfg->regs = xcalloc((size_t)ntiles, sizeof(uint32_t *));
	for (int t = 0; t < ntiles; t++)
		cfg->regs[t] = xcalloc((size_t)mi->nregs + 1, sizeof(uint32_t));
}

static void tile_regs(const MemInfo *mi, UmConfig *cfg)
{
	for (int t = 0; t < cfg->ntiles; t++) {
		if (t)
			memcpy(cfg->regs[t], cfg->regs[0], (size_t)mi->nregs * sizeof(uint32_t));
		cfg->regs[t][mi->tile_en] = 1;
		if (mi->chain_id >= 0)
			cfg->regs[t][mi->chain_id] = (uint32_t)t;
	}
}

int um_configure(const MemInfo *mi, MemSolver *solver, const UmRequest *rq, UmConfig *cfg, int64_t *later,
		 char *why, size_t whylen)
{
	Plan pl;
	int ntiles = 1;
	memset(cfg, 0, sizeof *cfg);
	if (later)
		*later = 0;
	if (why && whylen)
		why[0] = '\0';
	int ok = plan_init(&pl, mi, rq, why, whylen) && chain_tiles(&pl, &ntiles, why, whylen);
	if (ok && !plan_run(&pl, 0, why, whylen)) {
		ok = 0;
		char delayed[512] = "";
		int64_t tried = 0;
		if (later)
			*later = find_later(&pl, &tried, delayed, sizeof delayed);
		/* reads too early that no delay helps: what stops the delayed ones */
		if (later && !*later && delayed[0] && why && strstr(why, "comes before the word can be stored")) {
			char early[512];
			snprintf(early, sizeof early, "%s", why);
			util_why(why, whylen, "%s; with the reads %" PRId64 " to %" PRId64 " cycles later, %s", early,
				 tried, tried + UM_LATER_SPAN - 1, delayed);
		}
	}
	if (ok) {
		fill_config(&pl, cfg, ntiles);
		ok = solve_all(&pl, solver, cfg, cfg->regs[0], why, whylen);
		if (ok) {
			tile_regs(mi, cfg);
			ok = confirm(&pl, cfg, why, whylen);
		}
		if (!ok)
			um_config_free(cfg);
	}
	plan_free(&pl);
	return ok;
}

void um_config_free(UmConfig *cfg)
{
	if (!cfg)
		return;
	for (int t = 0; t < cfg->ntiles && cfg->regs; t++)
		free(cfg->regs[t]);
	free(cfg->regs);
	for (int c = 0; c < cfg->nctrls && cfg->streams; c++)
		memstream_free(&cfg->streams[c]);
	free(cfg->streams);
	free(cfg->win);
	free(cfg->rout);
	free(cfg->offsets);
	memset(cfg, 0, sizeof *cfg);
}

int um_plan_feasible(const MemInfo *mi, const UmRequest *rq, char *why, size_t whylen)
{
	Plan pl;
	int ntiles;
	int ok = plan_init(&pl, mi, rq, why, whylen) && chain_tiles(&pl, &ntiles, why, whylen) &&
		 plan_run(&pl, 0, why, whylen);
	plan_free(&pl);
	return ok;
}

/* A delay line: n words written one a cycle from cycle 0, each read back d
 * cycles after its write. */
int um_min_delay(const MemInfo *mi)
{
	enum { N = 64 };
	int64_t wc[N], wa[N], rc[N];
	for (int i = 0; i < N; i++) {
		wc[i] = i;
		wa[i] = i;
	}
	UmStream w = { N, wc, wa, NULL }, r = { N, rc, wa, NULL };
	UmRequest rq = { N, 1, 1, &w, &r };
	for (int d = 0; d <= UM_MAX_DELAY; d++) {
		for (int i = 0; i < N; i++)
			rc[i] = i + d;
		char why[16];
		if (um_plan_feasible(mi, &rq, why, sizeof why))
			return d;
	}
	return -1;
}
