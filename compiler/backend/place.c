/* place.c - see place.h. Three steps, each a section below.
 *
 * 1. Global placement moves cells as points (x, y), in tiles, minimizing
 *        W + 0.05 P + lambda D
 *    by conjugate gradient. W is equation 1's wirelength estimate: for every
 *    net, weight times the squared L2 distance from the driver to each sink,
 *    halved. (The squared distance gave better placements than the smoothed
 *    L2 distance on random 200-cell netlists: legalized HPWL 474 against 499,
 *    annealed 388 against 408.) P is equation 1's potential: the squared
 *    distance from a MEM cell to the nearest memory column, widened by 0.4
 *    tile on either side, and from any cell to the span of its kind's tiles.
 *    Its weight is small because D already steers MEM cells to MEM columns;
 *    a weight of 1 pinned them to the columns nearest the starting cluster
 *    (legalized HPWL 813 against 687 with 80 MEM cells). A kind whose tiles
 *    lie on one row (IO, row 0) or one column has that coordinate fixed. D is
 *    an APlace-style density, one per kind (kinds never compete for a tile):
 *    a cell spreads a unit of mass over the 4 x 4 tile-sized bins around it
 *    with the bell phi(dx) phi(dy), phi(d) = 1/2 - d^2/4 for |d| <= 1 and
 *    (2 - |d|)^2 / 4 for 1 <= |d| <= 2 (smooth, and a partition of unity on
 *    the integer grid). A bin's capacity is the mass the kind's tiles would
 *    spread if each held a cell, and D sums the squared overflow
 *    max(0, mass - capacity) over bins: a legal placement has none, so D
 *    pushes apart only cells that crowd, each kind over its own tiles.
 *    Movable cells start at the centre of their kind's tiles with a seeded
 *    jitter of half a tile; lambda starts at |grad W| / |grad D| and doubles
 *    after each round of Polak-Ribiere conjugate gradient (Armijo
 *    backtracking line search, restart when the direction is not downhill),
 *    until the overflow is under a tenth of a cell per cell.
 *
 * 2. Legalization takes the movable cells by global x, then y, then index,
 *    and puts each on the free tile of its kind nearest its global position
 *    (ties: the first in row-major order).
 *
 * 3. Detailed placement anneals equation 2's cost
 *        sum of weight * HPWL - gamma * sum over nets n of |box(n) & others(n)|
 *    where others(n) is the union of the other nets' bounding boxes. With
 *    cover[t] the number of boxes holding tile t, the second sum is the sum
 *    over tiles of cover[t] where cover[t] >= 2; a move updates cover on the
 *    tiles where a box it changes gained or lost and reads its delta on the
 *    way. A move takes a random movable cell to a random tile of its kind
 *    inside the window around it (at least as wide as the gap between the
 *    kind's columns, so MEM cells can change column), swapping with a movable
 *    occupant. A large problem is annealed cold, from the legalized global
 *    placement: the window starts at 3 tiles and the temperature at a fifth
 *    of the standard deviation of the deltas of random moves in it. A small
 *    one (at most 32 movable cells), whose global placement is a blob a few
 *    tiles wide, starts hot as in VPR: the whole array and 20 deviations.
 *    Cooling and the window follow VPR (factor 0.5, 0.9, 0.95 as the
 *    acceptance rate falls past 0.96, 0.8, 0.15, and 0.9 below;
 *    window * (0.56 + rate), between 1 and the array); each temperature
 *    tries effort * movable cells moves, at least 2000. Moves that do not
 *    change the cost (a cell inside its nets' boxes) are always accepted, so
 *    the run stops when the accepted moves that change the cost fall under
 *    0.2% of the tries. The cheapest placement seen is the result (small
 *    problems are glassy: a star's driver can freeze on an edge tile). */
#include "place.h"

#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "../../common/arena.h"
#include "../../common/rng.h"

enum { PE, MEM, IO, NKINDS };
static const char KIND_CHAR[NKINDS] = { 'P', 'M', 'I' };
static const char *const KIND_NAME[NKINDS] = { "PE", "MEM", "IO" };
static const char *const KIND_A[NKINDS] = { "a PE", "a MEM", "an IO" };

#define RUN_MARGIN 0.4          /* a run of a kind's columns, widened on each side */
#define BIN_PAD 2               /* density bins beyond the array on each side */
#define GP_ROUNDS 30            /* lambda doublings at most */
#define GP_ITERS 60             /* conjugate-gradient iterations per round at most */
#define GP_OVERFLOW 0.1         /* target overflow per cell */
#define GP_STEP 4.0             /* longest first step of a line search, tiles */
#define GP_POTENTIAL 0.05       /* weight of the MEM-column potential */
#define AN_T0 0.2               /* initial temperature / deviation of random deltas */
#define AN_T0_HOT 20            /* the same for small problems */
#define AN_SMALL 32             /* movable cells of a small problem */
#define AN_RANGE0 3             /* first window half-width, tiles */
#define AN_STOP 0.002           /* cost-changing acceptance rate that ends annealing */
#define AN_STEPS 1000           /* temperatures at most */
#define AN_TRIES 16             /* attempts at finding a move's target tile */
#define AN_MIN_MOVES 2000       /* moves per temperature at least, for small problems */

typedef struct Run {
	double lo, hi;
} Run;

typedef struct Kind {
	int *tiles, ntiles, ncells;     /* tile ids y * cols + x, row-major */
	int xmin, xmax, ymin, ymax;     /* span of its tiles */
	int xgap, ygap;                 /* widest step between neighbouring columns (rows) */
	Run *xr, *yr;
	int nxr, nyr;
	double *cap, *dens;             /* per density bin */
} Kind;

typedef struct Pl {
	const PlProblem *p;
	Arena *a;
	int n, cols, rows, nnets;
	signed char *tk;                /* kind per tile, -1 for none */
	int *kind, *fixed;              /* per cell */
	Kind k[NKINDS];
	int *coff, *cnets;              /* nets of cell c: cnets[coff[c] .. coff[c + 1]), once each */
	unsigned char *boxed;           /* per net: it has a box (two cells or more) */
	Rng rng;
	FILE *log;
	/* global placement */
	int nv, nbx, nby;
	double *v, *g, *gn, *d, *vt;    /* coordinates x0 y0 x1 y1 ..., gradients, direction */
	unsigned char *vfree;
	double lambda, overflow;
	/* detailed placement */
	int *x, *y, *occ, *cover;
	int *mov, nmov;
	int (*bb)[4];                   /* per net: xmin xmax ymin ymax */
	double hpwl, overlap;
	unsigned *stamp, stampv;
	int *aff, naff;
	int (*oldbb)[4];
	int mc, md, mcx, mcy;           /* the pending move: cell, occupant, old tile */
	double mdh, mdov;               /* its changes of HPWL and overlap */
	int mtiles, mcovered;           /* tiles entering or leaving its boxes; cover updated */
	int *bestx, *besty;             /* the cheapest placement seen */
	double best;
} Pl;

static void progress(Pl *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void progress(Pl *s, const char *fmt, ...)
{
	if (!s->log)
		return;
	va_list ap;
	va_start(ap, fmt);
	fputs("place: ", s->log);
	vfprintf(s->log, fmt, ap);
	fputc('\n', s->log);
	va_end(ap);
}

static void *zalloc(Pl *s, size_t count, size_t size)
{
	return arena_alloc(s->a, count ? count * size : 1);
}

static int imin(int a, int b)
{
	return a < b ? a : b;
}

static int imax(int a, int b)
{
	return a > b ? a : b;
}

static int kind_of(char ch)
{
	for (int k = 0; k < NKINDS; k++)
		if (KIND_CHAR[k] == ch)
			return k;
	return -1;
}

static const char *cell_name(const PlProblem *p, int c, char *buf, size_t len)
{
	if (p->cells[c].name)
		return p->cells[c].name;
	snprintf(buf, len, "#%d", c);
	return buf;
}

/* ---- the array ---------------------------------------------------------- */

/* The runs of consecutive set entries of has[0..n), widened by RUN_MARGIN;
 * *gap gets the widest step between neighbouring set entries (1 if none). */
static Run *axis_runs(Pl *s, const unsigned char *has, int n, int *nruns, int *gap)
{
	Run *r = zalloc(s, (size_t)n, sizeof *r);
	int last = -1;
	*nruns = 0;
	*gap = 1;
	for (int i = 0; i < n; i++) {
		if (!has[i])
			continue;
		if (last >= 0)
			*gap = imax(*gap, i - last);
		if (last >= 0 && last == i - 1)
			r[*nruns - 1].hi = i + RUN_MARGIN;
		else
			r[(*nruns)++] = (Run){ i - RUN_MARGIN, i + RUN_MARGIN };
		last = i;
	}
	return r;
}

static void setup_kind(Pl *s, int k)
{
	Kind *K = &s->k[k];
	unsigned char *hx = zalloc(s, (size_t)s->cols, 1), *hy = zalloc(s, (size_t)s->rows, 1);
	K->tiles = zalloc(s, (size_t)(s->cols * s->rows), sizeof(int));
	K->xmin = s->cols, K->ymin = s->rows, K->xmax = K->ymax = -1;
	for (int t = 0; t < s->cols * s->rows; t++) {
		if (s->tk[t] != k)
			continue;
		int x = t % s->cols, y = t / s->cols;
		K->tiles[K->ntiles++] = t;
		hx[x] = hy[y] = 1;
		K->xmin = imin(K->xmin, x), K->xmax = imax(K->xmax, x);
		K->ymin = imin(K->ymin, y), K->ymax = imax(K->ymax, y);
	}
	K->xr = axis_runs(s, hx, s->cols, &K->nxr, &K->xgap);
	K->yr = axis_runs(s, hy, s->rows, &K->nyr, &K->ygap);
	if (k != MEM && K->ntiles) {
		/* only MEM cells feel their columns; the others stay in their span */
		K->nxr = K->nyr = 1;
		K->xr[0] = (Run){ K->xmin - RUN_MARGIN, K->xmax + RUN_MARGIN };
		K->yr[0] = (Run){ K->ymin - RUN_MARGIN, K->ymax + RUN_MARGIN };
	}
}

static void setup_tiles(Pl *s)
{
	const PlProblem *p = s->p;
	s->tk = zalloc(s, (size_t)(s->cols * s->rows), 1);
	for (int y = 0; y < s->rows; y++) {
		size_t len = p->tiles[y] ? strlen(p->tiles[y]) : 0;
		for (int x = 0; x < s->cols; x++)
			s->tk[y * s->cols + x] = (signed char)((size_t)x < len ? kind_of(p->tiles[y][x]) : -1);
	}
	for (int k = 0; k < NKINDS; k++)
		setup_kind(s, k);
}

/* ---- checking the problem ----------------------------------------------- */

static int check_cells(Pl *s, char *why, size_t whylen)
{
	const PlProblem *p = s->p;
	char buf[32];
	for (int c = 0; c < s->n; c++) {
		int k = kind_of(p->cells[c].kind);
		if (k < 0)
			return util_why(why, whylen, "cell %s has kind '%c' (not P, M or I)",
				    cell_name(p, c, buf, sizeof buf), p->cells[c].kind);
		s->kind[c] = k;
		s->k[k].ncells++;
	}
	for (int k = 0; k < NKINDS; k++)
		if (s->k[k].ncells > s->k[k].ntiles)
			return util_why(why, whylen, "needs %d %s tiles, the array has %d", s->k[k].ncells,
				    KIND_NAME[k], s->k[k].ntiles);
	return 1;
}

static int check_nets(Pl *s, char *why, size_t whylen)
{
	for (int i = 0; i < s->nnets; i++) {
		const PlNet *net = &s->p->nets[i];
		if (!(net->weight >= 0) || !isfinite(net->weight))
			return util_why(why, whylen, "net %d has weight %g (not a finite number >= 0)", i, net->weight);
		for (int j = 0; j < net->ncells; j++)
			if (net->cells[j] < 0 || net->cells[j] >= s->n)
				return util_why(why, whylen, "net %d names cell %d, not one of the %d cells", i,
					    net->cells[j], s->n);
	}
	return 1;
}

/* Fixed cells: inside the array, on a tile of their kind, one per tile.
 * Fills s->occ with them. */
static int check_fixed(Pl *s, char *why, size_t whylen)
{
	const PlProblem *p = s->p;
	char b1[32], b2[32];
	for (int c = 0; c < s->n; c++) {
		int x = p->cells[c].fixed_x, y = p->cells[c].fixed_y, k = s->kind[c];
		if (x < 0 && y < 0)
			continue;
		const char *name = cell_name(p, c, b1, sizeof b1);
		if (x < 0 || y < 0 || x >= s->cols || y >= s->rows)
			return util_why(why, whylen, "cell %s is fixed to (%d, %d), outside the %dx%d array", name, x,
				    y, s->cols, s->rows);
		int t = y * s->cols + x;
		if (s->tk[t] != k && s->tk[t] >= 0)
			return util_why(why, whylen, "cell %s (%s) is fixed to (%d, %d), %s tile", name,
				    KIND_NAME[k], x, y, KIND_A[s->tk[t]]);
		if (s->tk[t] != k)
			return util_why(why, whylen, "cell %s (%s) is fixed to (%d, %d), not a %s tile", name,
				    KIND_NAME[k], x, y, KIND_NAME[k]);
		if (s->occ[t] >= 0)
			return util_why(why, whylen, "cells %s and %s are both fixed to (%d, %d)",
				    cell_name(p, s->occ[t], b2, sizeof b2), name, x, y);
		s->occ[t] = c;
		s->fixed[c] = 1;
		s->x[c] = x, s->y[c] = y;
	}
	return 1;
}

/* The nets of every cell, each once. */
static void setup_cell_nets(Pl *s)
{
	int *last = zalloc(s, (size_t)s->n, sizeof(int)), m = 0;
	s->coff = zalloc(s, (size_t)s->n + 1, sizeof(int));
	s->boxed = zalloc(s, (size_t)s->nnets, 1);
	for (int pass = 0; pass < 2; pass++) {
		for (int c = 0; c < s->n; c++)
			last[c] = -1;
		for (int i = 0; i < s->nnets; i++) {
			const PlNet *net = &s->p->nets[i];
			s->boxed[i] = net->ncells >= 2;
			for (int j = 0; j < net->ncells; j++) {
				int c = net->cells[j];
				if (last[c] == i)
					continue;
				last[c] = i;
				if (pass)
					s->cnets[s->coff[c + 1]++] = i;
				else
					s->coff[c + 1]++;
			}
		}
		if (pass)
			break;
		for (int c = 0; c < s->n; c++)
			s->coff[c + 1] += s->coff[c];
		m = s->coff[s->n];
		s->cnets = zalloc(s, (size_t)m, sizeof(int));
		for (int c = s->n; c > 0; c--)
			s->coff[c] = s->coff[c - 1];
	}
}

static int setup(Pl *s, const PlProblem *p, char *why, size_t whylen)
{
	memset(s, 0, sizeof *s);
	s->p = p;
	s->a = arena_new();
	s->n = p->ncells, s->cols = p->cols, s->rows = p->rows, s->nnets = p->nnets;
	s->log = p->progress;
	rng_seed(&s->rng, p->seed);
	if (s->cols <= 0 || s->rows <= 0 || !p->tiles)
		return util_why(why, whylen, "the array has %d columns and %d rows", s->cols, s->rows);
	setup_tiles(s);
	s->kind = zalloc(s, (size_t)s->n, sizeof(int));
	s->fixed = zalloc(s, (size_t)s->n, sizeof(int));
	s->x = zalloc(s, (size_t)s->n, sizeof(int));
	s->y = zalloc(s, (size_t)s->n, sizeof(int));
	s->occ = zalloc(s, (size_t)(s->cols * s->rows), sizeof(int));
	for (int t = 0; t < s->cols * s->rows; t++)
		s->occ[t] = -1;
	if (!check_cells(s, why, whylen) || !check_nets(s, why, whylen) || !check_fixed(s, why, whylen))
		return 0;
	setup_cell_nets(s);
	s->mov = zalloc(s, (size_t)s->n, sizeof(int));
	for (int c = 0; c < s->n; c++)
		if (!s->fixed[c])
			s->mov[s->nmov++] = c;
	return 1;
}

/* ---- global placement --------------------------------------------------- */

static double phi(double d)
{
	double a = fabs(d);
	return a <= 1 ? 0.5 - a * a / 4 : a < 2 ? (2 - a) * (2 - a) / 4 : 0;
}

static double dphi(double d)
{
	double a = fabs(d);
	return a <= 1 ? -d / 2 : a < 2 ? (d < 0 ? 1 : -1) * (2 - a) / 2 : 0;
}

/* The four bins along one axis a point at u may touch (bin i is at
 * i - BIN_PAD), their weights and the weights' derivatives. Callers skip
 * bins outside [0, nb); a point far outside gets an i0 that puts all four
 * there. */
typedef struct Taps {
	int i0;
	double w[4], dw[4];
} Taps;

static void taps(double u, int nb, Taps *t)
{
	if (!(u > -BIN_PAD - 2 && u < nb + 2)) {
		t->i0 = -100;
		return;
	}
	int f = (int)floor(u);
	t->i0 = f - 1 + BIN_PAD;
	for (int j = 0; j < 4; j++) {
		t->w[j] = phi(u - (f - 1 + j));
		t->dw[j] = dphi(u - (f - 1 + j));
	}
}

/* Adds a unit of mass at (x, y) to the bins m. */
static void spread(const Pl *s, double *m, double x, double y)
{
	Taps tx, ty;
	taps(x, s->nbx, &tx);
	taps(y, s->nby, &ty);
	for (int j = 0; j < 4; j++) {
		int iy = ty.i0 + j;
		for (int i = 0; i < 4 && iy >= 0 && iy < s->nby; i++) {
			int ix = tx.i0 + i;
			if (ix >= 0 && ix < s->nbx)
				m[iy * s->nbx + ix] += tx.w[i] * ty.w[j];
		}
	}
}

/* The gradient at (x, y) of the sum over bins of o * mass, o per bin. */
static void spread_grad(const Pl *s, const double *o, double x, double y, double *gx, double *gy)
{
	Taps tx, ty;
	taps(x, s->nbx, &tx);
	taps(y, s->nby, &ty);
	*gx = *gy = 0;
	for (int j = 0; j < 4; j++) {
		int iy = ty.i0 + j;
		for (int i = 0; i < 4 && iy >= 0 && iy < s->nby; i++) {
			int ix = tx.i0 + i;
			if (ix < 0 || ix >= s->nbx)
				continue;
			double ob = o[iy * s->nbx + ix];
			*gx += ob * tx.dw[i] * ty.w[j];
			*gy += ob * tx.w[i] * ty.dw[j];
		}
	}
}

static double gp_wirelength(const Pl *s, const double *v, double *g)
{
	double f = 0;
	for (int i = 0; i < s->nnets; i++) {
		const PlNet *net = &s->p->nets[i];
		if (net->ncells < 2)
			continue;
		int a = net->cells[0];
		for (int j = 1; j < net->ncells; j++) {
			int b = net->cells[j];
			if (b == a)
				continue;
			double dx = v[2 * a] - v[2 * b], dy = v[2 * a + 1] - v[2 * b + 1], w = net->weight;
			f += w * (dx * dx + dy * dy) / 2;
			g[2 * a] += w * dx, g[2 * a + 1] += w * dy;
			g[2 * b] -= w * dx, g[2 * b + 1] -= w * dy;
		}
	}
	return f;
}

/* The density penalty; adds scale times its gradient to g and leaves the
 * total overflow in s->overflow. */
static double gp_density(Pl *s, const double *v, double *g, double scale)
{
	size_t nb = (size_t)(s->nbx * s->nby);
	double f = 0;
	s->overflow = 0;
	for (int k = 0; k < NKINDS; k++)
		if (s->k[k].ncells)
			memset(s->k[k].dens, 0, nb * sizeof(double));
	for (int c = 0; c < s->n; c++)
		spread(s, s->k[s->kind[c]].dens, v[2 * c], v[2 * c + 1]);
	for (int k = 0; k < NKINDS; k++) {
		Kind *K = &s->k[k];
		for (size_t b = 0; K->ncells && b < nb; b++) {
			double o = K->dens[b] > K->cap[b] ? K->dens[b] - K->cap[b] : 0;
			f += o * o;
			s->overflow += o;
			K->dens[b] = 2 * o;     /* from here on: the penalty's derivative */
		}
	}
	for (int c = 0; c < s->n; c++) {
		double gx, gy;
		spread_grad(s, s->k[s->kind[c]].dens, v[2 * c], v[2 * c + 1], &gx, &gy);
		g[2 * c] += scale * gx, g[2 * c + 1] += scale * gy;
	}
	return f;
}

/* u minus the nearest point of the runs (0 inside one). */
static double run_offset(const Run *r, int n, double u)
{
	double best = INFINITY;
	for (int i = 0; i < n; i++) {
		double o = u < r[i].lo ? u - r[i].lo : u > r[i].hi ? u - r[i].hi : 0;
		if (fabs(o) < fabs(best))
			best = o;
	}
	return n ? best : 0;
}

static double gp_potential(const Pl *s, const double *v, double *g, double scale)
{
	double f = 0;
	for (int c = 0; c < s->n; c++) {
		const Kind *K = &s->k[s->kind[c]];
		double ox = s->vfree[2 * c] ? run_offset(K->xr, K->nxr, v[2 * c]) : 0;
		double oy = s->vfree[2 * c + 1] ? run_offset(K->yr, K->nyr, v[2 * c + 1]) : 0;
		f += ox * ox + oy * oy;
		g[2 * c] += scale * 2 * ox, g[2 * c + 1] += scale * 2 * oy;
	}
	return f;
}

static double gp_eval(Pl *s, const double *v, double *g)
{
	memset(g, 0, (size_t)s->nv * sizeof(double));
	double f = gp_wirelength(s, v, g);
	f += GP_POTENTIAL * gp_potential(s, v, g, GP_POTENTIAL);
	f += s->lambda * gp_density(s, v, g, s->lambda);
	for (int i = 0; i < s->nv; i++)
		if (!s->vfree[i])
			g[i] = 0;
	return f;
}

static double dot(const double *a, const double *b, int n)
{
	double r = 0;
	for (int i = 0; i < n; i++)
		r += a[i] * b[i];
	return r;
}

static double norm1(const Pl *s, const double *g)
{
	double r = 0;
	for (int i = 0; i < s->nv; i++)
		r += s->vfree[i] ? fabs(g[i]) : 0;
	return r;
}

/* The lambda at which density pulls as hard as the wirelength. */
static double gp_initial_lambda(Pl *s)
{
	memset(s->g, 0, (size_t)s->nv * sizeof(double));
	memset(s->gn, 0, (size_t)s->nv * sizeof(double));
	gp_wirelength(s, s->v, s->g);
	gp_density(s, s->v, s->gn, 1);
	double w = norm1(s, s->g), d = norm1(s, s->gn);
	return w > 0 && d > 0 ? w / d : 1;
}

/* Backtracking along s->d from s->v (value *f, slope gd): the first step
 * that decreases the value enough (Armijo) replaces s->v, *f and s->gn. The
 * first try is *alpha, cut to move no coordinate more than GP_STEP; *alpha
 * becomes twice the step taken. 0 if no step helps. */
static int gp_line_search(Pl *s, double *f, double gd, double *alpha)
{
	double dmax = 0;
	for (int i = 0; i < s->nv; i++)
		dmax = fmax(dmax, fabs(s->d[i]));
	if (dmax == 0)
		return 0;
	double a = fmin(*alpha, GP_STEP / dmax);
	for (int t = 0; t < 40; t++, a /= 2) {
		for (int i = 0; i < s->nv; i++)
			s->vt[i] = s->v[i] + a * s->d[i];
		double ft = gp_eval(s, s->vt, s->gn);
		if (ft <= *f + 1e-4 * a * gd) {
			memcpy(s->v, s->vt, (size_t)s->nv * sizeof(double));
			*f = ft;
			*alpha = 2 * a;
			return 1;
		}
	}
	return 0;
}

/* Polak-Ribiere (non-negative beta) conjugate gradient at the current
 * lambda; returns the iterations. */
static int gp_minimize(Pl *s)
{
	int it, nv = s->nv;
	double f = gp_eval(s, s->v, s->g), alpha = INFINITY;
	for (int i = 0; i < nv; i++)
		s->d[i] = -s->g[i];
	for (it = 0; it < GP_ITERS; it++) {
		double gg = dot(s->g, s->g, nv), gd = dot(s->g, s->d, nv), f0 = f;
		if (gg < 1e-18)
			break;
		if (gd >= 0) {
			for (int i = 0; i < nv; i++)
				s->d[i] = -s->g[i];
			gd = -gg;
		}
		if (!gp_line_search(s, &f, gd, &alpha))
			break;
		double beta = fmax(0, (dot(s->gn, s->gn, nv) - dot(s->gn, s->g, nv)) / gg);
		for (int i = 0; i < nv; i++)
			s->d[i] = -s->gn[i] + beta * s->d[i];
		double *t = s->g;
		s->g = s->gn, s->gn = t;
		if (f0 - f <= 1e-6 * fabs(f0))
			return it + 1;
	}
	return it;
}

/* Coordinates, masks, density bins and capacities; movable cells near the
 * centre of their kind's tiles, jittered. */
static void gp_setup(Pl *s)
{
	s->nv = 2 * s->n;
	s->nbx = s->cols + 2 * BIN_PAD, s->nby = s->rows + 2 * BIN_PAD;
	double **vec[] = { &s->v, &s->g, &s->gn, &s->d, &s->vt };
	for (size_t i = 0; i < sizeof vec / sizeof vec[0]; i++)
		*vec[i] = zalloc(s, (size_t)s->nv, sizeof(double));
	s->vfree = zalloc(s, (size_t)s->nv, 1);
	for (int k = 0; k < NKINDS; k++) {
		Kind *K = &s->k[k];
		K->cap = zalloc(s, (size_t)(s->nbx * s->nby), sizeof(double));
		K->dens = zalloc(s, (size_t)(s->nbx * s->nby), sizeof(double));
		for (int i = 0; i < K->ntiles; i++)
			spread(s, K->cap, K->tiles[i] % s->cols, K->tiles[i] / s->cols);
	}
	for (int c = 0; c < s->n; c++) {
		const Kind *K = &s->k[s->kind[c]];
		if (s->fixed[c]) {
			s->v[2 * c] = s->x[c], s->v[2 * c + 1] = s->y[c];
			continue;
		}
		double cx = 0, cy = 0;
		for (int i = 0; i < K->ntiles; i++)
			cx += K->tiles[i] % s->cols, cy += K->tiles[i] / s->cols;
		cx /= K->ntiles, cy /= K->ntiles;
		s->vfree[2 * c] = K->xmin < K->xmax;
		s->vfree[2 * c + 1] = K->ymin < K->ymax;
		s->v[2 * c] = cx + (s->vfree[2 * c] ? rng_double(&s->rng) - 0.5 : 0);
		s->v[2 * c + 1] = cy + (s->vfree[2 * c + 1] ? rng_double(&s->rng) - 0.5 : 0);
	}
}

static void gp_run(Pl *s, PlResult *r)
{
	gp_setup(s);
	if (!s->nmov)
		return;
	s->lambda = gp_initial_lambda(s);
	for (int round = 1;; round++) {
		r->global_iterations += gp_minimize(s);
		gp_eval(s, s->v, s->gn);
		double ovf = s->overflow / s->n;
		memset(s->gn, 0, (size_t)s->nv * sizeof(double));
		double w = gp_wirelength(s, s->v, s->gn);
		progress(s, "global round %d: lambda %.3g, %d iterations so far, quadratic wirelength %.1f, "
			 "overflow %.3f per cell", round, s->lambda, r->global_iterations, w, ovf);
		if (ovf < GP_OVERFLOW || round == GP_ROUNDS)
			break;
		s->lambda *= 2;
	}
}

/* ---- legalization ------------------------------------------------------- */

typedef struct Spot {
	double x, y;
	int c;
} Spot;

static int spot_cmp(const void *pa, const void *pb)
{
	const Spot *a = pa, *b = pb;
	if (a->x != b->x)
		return a->x < b->x ? -1 : 1;
	if (a->y != b->y)
		return a->y < b->y ? -1 : 1;
	return (a->c > b->c) - (a->c < b->c);
}

static void legalize(Pl *s)
{
	Spot *o = zalloc(s, (size_t)s->nmov, sizeof *o);
	for (int i = 0; i < s->nmov; i++) {
		int c = s->mov[i];
		o[i] = (Spot){ s->v[2 * c], s->v[2 * c + 1], c };
	}
	qsort(o, (size_t)s->nmov, sizeof *o, spot_cmp);
	for (int i = 0; i < s->nmov; i++) {
		const Kind *K = &s->k[s->kind[o[i].c]];
		int best = -1;
		double bd = INFINITY;
		for (int j = 0; j < K->ntiles; j++) {
			int t = K->tiles[j];
			double dx = t % s->cols - o[i].x, dy = t / s->cols - o[i].y;
			if (s->occ[t] < 0 && dx * dx + dy * dy < bd)
				bd = dx * dx + dy * dy, best = t;
		}
		ALWAYS(best >= 0);
		s->occ[best] = o[i].c;
		s->x[o[i].c] = best % s->cols, s->y[o[i].c] = best / s->cols;
	}
}

/* ---- detailed placement ------------------------------------------------- */

static void net_box(const PlNet *net, const int *x, const int *y, int bb[4])
{
	bb[0] = bb[2] = 1 << 30, bb[1] = bb[3] = -1;
	for (int j = 0; j < net->ncells; j++) {
		int c = net->cells[j];
		bb[0] = imin(bb[0], x[c]), bb[1] = imax(bb[1], x[c]);
		bb[2] = imin(bb[2], y[c]), bb[3] = imax(bb[3], y[c]);
	}
}

static int box_hpwl(const int bb[4])
{
	return bb[1] < 0 ? 0 : bb[1] - bb[0] + bb[3] - bb[2];
}

/* Adds (dir 1) or removes (dir -1) a box from the cover counts; returns the
 * change of the sum over tiles of cover where cover >= 2. */
static int cover_box(int *cover, int cols, const int bb[4], int dir)
{
	int d = 0;
	for (int y = bb[2]; y <= bb[3]; y++)
		for (int x = bb[0]; x <= bb[1]; x++) {
			int *c = &cover[y * cols + x];
			if (dir > 0)
				d += *c == 1 ? 2 : *c >= 2 ? 1 : 0;
			else
				d -= *c == 2 ? 2 : *c > 2 ? 1 : 0;
			*c += dir;
		}
	return d;
}

/* Moves a box in the cover counts from a to b, touching only the tiles of
 * one and not the other (a minus b is at most four boxes: the bands above
 * and below b, and the parts left and right of b between them); returns the
 * change of the overlap sum. */
static int cover_move(int *cover, int cols, const int a[4], const int b[4])
{
	int d = 0;
	for (int pass = 0; pass < 2; pass++) {
		const int *u = pass ? b : a, *w = pass ? a : b;
		int dir = pass ? 1 : -1;
		int y0 = imax(u[2], w[2]), y1 = imin(u[3], w[3]);
		if (y0 > y1 || imax(u[0], w[0]) > imin(u[1], w[1])) {
			d += cover_box(cover, cols, u, dir);
			continue;
		}
		int part[4][4] = { { u[0], u[1], u[2], w[2] - 1 }, { u[0], u[1], w[3] + 1, u[3] },
				   { u[0], w[0] - 1, y0, y1 }, { w[1] + 1, u[1], y0, y1 } };
		for (int i = 0; i < 4; i++) {
			part[i][0] = imax(part[i][0], u[0]), part[i][1] = imin(part[i][1], u[1]);
			part[i][2] = imax(part[i][2], u[2]), part[i][3] = imin(part[i][3], u[3]);
			d += cover_box(cover, cols, part[i], dir);
		}
	}
	return d;
}

static double an_cost(const Pl *s)
{
	return s->hpwl - s->p->gamma * s->overlap;
}

static void put(Pl *s, int c, int x, int y)
{
	s->x[c] = x, s->y[c] = y;
	s->occ[y * s->cols + x] = c;
}

/* Boxes, cover counts, HPWL and overlap from the cells' tiles. */
static void an_recount(Pl *s)
{
	memset(s->cover, 0, (size_t)(s->cols * s->rows) * sizeof(int));
	s->hpwl = s->overlap = 0;
	for (int i = 0; i < s->nnets; i++) {
		net_box(&s->p->nets[i], s->x, s->y, s->bb[i]);
		s->hpwl += s->p->nets[i].weight * box_hpwl(s->bb[i]);
		if (s->boxed[i] && s->p->gamma != 0)
			s->overlap += cover_box(s->cover, s->cols, s->bb[i], 1);
	}
}

static void an_setup(Pl *s)
{
	s->bb = zalloc(s, (size_t)s->nnets, sizeof *s->bb);
	s->oldbb = zalloc(s, (size_t)s->nnets, sizeof *s->oldbb);
	s->aff = zalloc(s, (size_t)s->nnets, sizeof(int));
	s->stamp = zalloc(s, (size_t)s->nnets, sizeof(unsigned));
	s->cover = zalloc(s, (size_t)(s->cols * s->rows), sizeof(int));
	s->bestx = zalloc(s, (size_t)s->n, sizeof(int));
	s->besty = zalloc(s, (size_t)s->n, sizeof(int));
	an_recount(s);
}

static void an_save_best(Pl *s)
{
	s->best = an_cost(s);
	memcpy(s->bestx, s->x, (size_t)s->n * sizeof(int));
	memcpy(s->besty, s->y, (size_t)s->n * sizeof(int));
}

/* Goes back to the cheapest placement seen if the current one costs more. */
static void an_restore_best(Pl *s)
{
	if (an_cost(s) <= s->best + 1e-9)
		return;
	for (int t = 0; t < s->cols * s->rows; t++)
		s->occ[t] = -1;
	for (int c = 0; c < s->n; c++)
		put(s, c, s->bestx[c], s->besty[c]);
	an_recount(s);
}

static void add_affected(Pl *s, int c)
{
	for (int i = s->coff[c]; i < s->coff[c + 1]; i++) {
		int net = s->cnets[i];
		if (s->stamp[net] != s->stampv) {
			s->stamp[net] = s->stampv;
			s->aff[s->naff++] = net;
		}
	}
}

static int box_area(const int b[4])
{
	return b[1] < b[0] || b[3] < b[2] ? 0 : (b[1] - b[0] + 1) * (b[3] - b[2] + 1);
}

/* Tiles in exactly one of the boxes a and b. */
static int box_difference(const int a[4], const int b[4])
{
	int both[4] = { imax(a[0], b[0]), imin(a[1], b[1]), imax(a[2], b[2]), imin(a[3], b[3]) };
	return box_area(a) + box_area(b) - 2 * box_area(both);
}

static int box_changed(const Pl *s, int i)
{
	int net = s->aff[i];
	return s->p->gamma != 0 && s->boxed[net] && memcmp(s->oldbb[i], s->bb[net], sizeof s->bb[net]);
}

/* Moves c to (tx, ty), swapping with the cell there if any: the cells, their
 * nets' boxes and the change of HPWL. The cover counts wait for
 * an_move_cover; an_commit or an_undo follows. */
static void an_move(Pl *s, int c, int tx, int ty)
{
	int d = s->occ[ty * s->cols + tx];
	s->mc = c, s->md = d, s->mcx = s->x[c], s->mcy = s->y[c];
	s->occ[s->mcy * s->cols + s->mcx] = -1;
	put(s, c, tx, ty);
	if (d >= 0)
		put(s, d, s->mcx, s->mcy);
	if (++s->stampv == 0)
		memset(s->stamp, 0, (size_t)s->nnets * sizeof(unsigned)), s->stampv = 1;
	s->naff = 0;
	add_affected(s, c);
	if (d >= 0)
		add_affected(s, d);
	s->mdh = 0, s->mdov = 0, s->mtiles = 0, s->mcovered = 0;
	for (int i = 0; i < s->naff; i++) {
		int net = s->aff[i];
		memcpy(s->oldbb[i], s->bb[net], sizeof s->bb[net]);
		net_box(&s->p->nets[net], s->x, s->y, s->bb[net]);
		s->mdh += s->p->nets[net].weight * (box_hpwl(s->bb[net]) - box_hpwl(s->oldbb[i]));
		if (box_changed(s, i))
			s->mtiles += box_difference(s->oldbb[i], s->bb[net]);
	}
}

/* The pending move's cover counts and change of overlap. */
static void an_move_cover(Pl *s)
{
	for (int i = 0; i < s->naff; i++)
		if (box_changed(s, i))
			s->mdov += cover_move(s->cover, s->cols, s->oldbb[i], s->bb[s->aff[i]]);
	s->mcovered = 1;
}

/* The pending move's change of cost (equation 2). */
static double an_delta(const Pl *s)
{
	return s->mdh - s->p->gamma * s->mdov;
}

/* Makes a move and returns its change of cost; an_commit or an_undo
 * follows. */
static double an_apply(Pl *s, int c, int tx, int ty)
{
	an_move(s, c, tx, ty);
	an_move_cover(s);
	return an_delta(s);
}

static void an_commit(Pl *s)
{
	s->hpwl += s->mdh;
	s->overlap += s->mdov;
}

static void an_undo(Pl *s)
{
	int c = s->mc, d = s->md, tx = s->x[c], ty = s->y[c];
	for (int i = 0; i < s->naff; i++) {
		int net = s->aff[i];
		if (s->mcovered && box_changed(s, i))
			cover_move(s->cover, s->cols, s->bb[net], s->oldbb[i]);
		memcpy(s->bb[net], s->oldbb[i], sizeof s->bb[net]);
	}
	s->occ[ty * s->cols + tx] = -1;
	put(s, c, s->mcx, s->mcy);
	if (d >= 0)
		put(s, d, tx, ty);
}

/* A target for c: a tile of its kind inside the window of half-width
 * range (at least the gap between the kind's columns or rows), not c's own,
 * not a fixed cell's. 0 if AN_TRIES random picks found none. */
static int an_pick(Pl *s, int c, int range, int *tx, int *ty)
{
	const Kind *K = &s->k[s->kind[c]];
	int rx = imax(range, K->xgap), ry = imax(range, K->ygap);
	int x0 = imax(K->xmin, s->x[c] - rx), x1 = imin(K->xmax, s->x[c] + rx);
	int y0 = imax(K->ymin, s->y[c] - ry), y1 = imin(K->ymax, s->y[c] + ry);
	for (int i = 0; i < AN_TRIES; i++) {
		int x = x0 + (int)rng_below(&s->rng, (uint64_t)(x1 - x0 + 1));
		int y = y0 + (int)rng_below(&s->rng, (uint64_t)(y1 - y0 + 1));
		int t = y * s->cols + x;
		if ((x == s->x[c] && y == s->y[c]) || s->tk[t] != s->kind[c])
			continue;
		if (s->occ[t] >= 0 && s->fixed[s->occ[t]])
			continue;
		*tx = x, *ty = y;
		return 1;
	}
	return 0;
}

static int random_movable(Pl *s)
{
	return s->mov[rng_below(&s->rng, (uint64_t)s->nmov)];
}

/* The standard deviation of the cost deltas of random moves within the
 * window (tried and undone). */
static double an_deviation(Pl *s, int range)
{
	double sum = 0, sum2 = 0;
	int m = 0;
	for (int i = 0; i < imax(s->nmov, 64); i++) {
		int c = random_movable(s), tx, ty;
		if (!an_pick(s, c, range, &tx, &ty))
			continue;
		double d = an_apply(s, c, tx, ty);
		an_undo(s);
		sum += d, sum2 += d * d, m++;
	}
	double mean = m ? sum / m : 0, var = m ? sum2 / m - mean * mean : 0;
	return sqrt(fmax(var, 0));
}

static double cooling(double rate)
{
	return rate > 0.96 ? 0.5 : rate > 0.8 ? 0.9 : rate > 0.15 ? 0.95 : 0.9;
}

/* One temperature: tries moves, returns the accepted ones in *acc and the
 * accepted ones that changed the cost in *chg. A move is accepted when its
 * delta is at most -T log u, u uniform in (0, 1] (Metropolis); u is drawn
 * first so that a move whose HPWL change exceeds that even if every tile
 * entering or leaving its boxes gained the most overlap (2) is rejected
 * before the cover counts are touched. */
static void an_step(Pl *s, double T, int range, long moves, long *acc, long *chg)
{
	*acc = *chg = 0;
	for (long m = 0; m < moves; m++) {
		int c = random_movable(s), tx, ty;
		if (!an_pick(s, c, range, &tx, &ty))
			continue;
		double limit = -T * log(1 - rng_double(&s->rng));
		an_move(s, c, tx, ty);
		if (s->mdh - 2 * s->p->gamma * s->mtiles > limit) {
			an_undo(s);
			continue;
		}
		an_move_cover(s);
		double d = an_delta(s);
		if (d <= limit) {
			an_commit(s);
			++*acc;
			*chg += fabs(d) > 1e-9;
			if (d < 0 && an_cost(s) < s->best - 1e-9)
				an_save_best(s);
		} else {
			an_undo(s);
		}
	}
}

static void an_run(Pl *s, PlResult *r)
{
	int boxes = 0;
	for (int i = 0; i < s->nnets; i++)
		boxes += s->boxed[i];
	if (!s->nmov || !boxes)
		return;
	int effort = s->p->effort > 0 ? s->p->effort : PL_DEFAULT_EFFORT;
	long moves = (long)effort * s->nmov;
	if (moves < AN_MIN_MOVES)
		moves = AN_MIN_MOVES;
	int hot = s->nmov <= AN_SMALL;
	double rmax = imax(s->cols, s->rows), range = hot ? rmax : fmin(AN_RANGE0, rmax);
	double T = fmax((hot ? AN_T0_HOT : AN_T0) * an_deviation(s, (int)range), 1e-9);
	an_save_best(s);
	for (int step = 1; step <= AN_STEPS; step++) {
		long acc, chg;
		an_step(s, T, (int)range, moves, &acc, &chg);
		r->moves += moves, r->accepted += acc;
		double rate = (double)acc / moves;
		int stop = (double)chg / moves < AN_STOP || step == AN_STEPS;
		if (step % 10 == 1 || stop)
			progress(s, "anneal step %d: T %.3g, range %d, cost %.2f, HPWL %.0f, accepted %.1f%%", step,
				 T, (int)range, an_cost(s), s->hpwl, 100 * rate);
		if (stop)
			break;
		T *= cooling(rate);
		range = fmin(rmax, fmax(1, range * (0.56 + rate)));
	}
	an_restore_best(s);
}

/* ---- the interface ------------------------------------------------------ */

double pl_cost(const PlProblem *p, const int *x, const int *y, double *hpwl)
{
	int *cover = xcalloc((size_t)(p->cols * p->rows) + 1, sizeof(int)), bb[4];
	double h = 0;
	long overlap = 0;
	for (int i = 0; i < p->nnets; i++) {
		net_box(&p->nets[i], x, y, bb);
		h += p->nets[i].weight * box_hpwl(bb);
		if (p->nets[i].ncells >= 2)
			cover_box(cover, p->cols, bb, 1);
	}
	for (int t = 0; t < p->cols * p->rows; t++)
		overlap += cover[t] >= 2 ? cover[t] : 0;
	free(cover);
	if (hpwl)
		*hpwl = h;
	return h - p->gamma * (double)overlap;
}

static void fill_result(Pl *s, PlResult *r)
{
	r->x = xmalloc((size_t)(s->n ? s->n : 1) * sizeof(int));
	r->y = xmalloc((size_t)(s->n ? s->n : 1) * sizeof(int));
	if (s->n) {
		memcpy(r->x, s->x, (size_t)s->n * sizeof(int));
		memcpy(r->y, s->y, (size_t)s->n * sizeof(int));
	}
	r->cost = pl_cost(s->p, r->x, r->y, &r->hpwl);
	if (fabs(r->cost - an_cost(s)) > 1e-6 * (1 + fabs(r->cost)))
		ICE("the annealer's cost %g drifted from the placement's %g", an_cost(s), r->cost);
}

int pl_place(const PlProblem *p, PlResult *r, char *why, size_t whylen)
{
	Pl s;
	memset(r, 0, sizeof *r);
	if (!setup(&s, p, why, whylen)) {
		arena_free(s.a);
		return 0;
	}
	double t0 = util_now();
	gp_run(&s, r);
	legalize(&s);
	double t1 = util_now();
	an_setup(&s);
	r->hpwl_legal = s.hpwl;
	progress(&s, "legalized: HPWL %.0f, cost %.2f", s.hpwl, an_cost(&s));
	an_run(&s, r);
	r->seconds_global = t1 - t0, r->seconds_detailed = util_now() - t1;
	fill_result(&s, r);
	progress(&s, "%d cells, HPWL %.0f (legalized %.0f), cost %.2f; %d CG iterations, %ld moves (%ld accepted); "
		 "%.3f s global, %.3f s annealing",
		 s.n, r->hpwl, r->hpwl_legal, r->cost, r->global_iterations, r->moves, r->accepted,
		 r->seconds_global, r->seconds_detailed);
	arena_free(s.a);
	return 1;
}

void pl_result_free(PlResult *r)
{
	free(r->x);
	free(r->y);
	r->x = r->y = NULL;
}
