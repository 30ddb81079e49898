/* test_place.c - unit tests of the placer (place.h) on small arrays with
 * known answers: chains, stars and meshes that must reach their optimum
 * half-perimeter wirelength, tile kinds and fixed cells respected, the
 * refusals (too many cells of a kind, fixed tiles of the wrong kind or taken
 * twice), determinism, equation 2's shared-area term (Fig. 15), and a random
 * 200-cell netlist on the 32x16 array against a random placement. `-v`
 * prints the figures (time, HPWL) and the placer's progress lines. */
#include <stdlib.h>
#include <string.h>

#include "../../../common/rng.h"
#include "../../../common/tests/check.h"
#include "../place.h"

#define MAXC 256
#define MAXP 1024

static int verbose;

static const char *const A4[] = { "IIII", "PPPM", "PPPM", "PPPM", "PPPM" };
static const char *const A8[] = { "IIIIIIII", "PPPMPPPM", "PPPMPPPM", "PPPMPPPM", "PPPMPPPM",
				  "PPPMPPPM", "PPPMPPPM", "PPPMPPPM", "PPPMPPPM" };
static const char *const P5[] = { "IIIII", "PPPPP", "PPPPP", "PPPPP", "PPPPP", "PPPPP" };
static const char *const P6[] = { "IIIIII", "PPPPPP", "PPPPPP", "PPPPPP", "PPPPPP", "PPPPPP", "PPPPPP" };

/* A problem built from a cell string (one kind letter per cell, named c0,
 * c1, ...), a net string ("D:S,S,... D:S ..."), and a fixed-tile string
 * ("C@X,Y ..."). */
typedef struct Prob {
	PlProblem p;
	PlCell cells[MAXC];
	PlNet nets[MAXC];
	int pins[MAXP];
	char names[MAXC][8];
} Prob;

static const char *const *array_32x16(void)
{
	static char rows[17][33];
	static const char *ptr[17];
	for (int y = 0; y < 17; y++) {
		for (int x = 0; x < 32; x++)
			rows[y][x] = y == 0 ? 'I' : x >= 3 && (x - 3) % 4 == 0 ? 'M' : 'P';
		rows[y][32] = 0;
		ptr[y] = rows[y];
	}
	return ptr;
}

static void prob_init(Prob *b, const char *const *tiles, int cols, int rows, const char *kinds)
{
	memset(b, 0, sizeof *b);
	b->p.tiles = tiles, b->p.cols = cols, b->p.rows = rows;
	b->p.cells = b->cells, b->p.nets = b->nets;
	b->p.seed = 1;
	for (int i = 0; kinds[i]; i++) {
		snprintf(b->names[i], sizeof b->names[i], "c%d", i);
		b->cells[i] = (PlCell){ b->names[i], kinds[i], -1, -1 };
		b->p.ncells++;
	}
}

static int prob_pins(const Prob *b)
{
	int n = 0;
	for (int i = 0; i < b->p.nnets; i++)
		n += b->nets[i].ncells;
	return n;
}

/* Adds the net driver -> sinks[0..n). */
static void add_net(Prob *b, int driver, const int *sinks, int n, double weight)
{
	int *pins = b->pins + prob_pins(b);
	pins[0] = driver;
	memcpy(pins + 1, sinks, (size_t)n * sizeof(int));
	b->nets[b->p.nnets++] = (PlNet){ pins, n + 1, weight };
}

static void parse_nets(Prob *b, const char *s)
{
	while (*s) {
		char *end;
		int d = (int)strtol(s, &end, 10), sinks[32], n = 0;
		s = end + 1;            /* ':' */
		do {
			sinks[n++] = (int)strtol(s, &end, 10);
			s = end;
		} while (*s == ',' && s++);
		add_net(b, d, sinks, n, 1);
		while (*s == ' ')
			s++;
	}
}

static void parse_fixed(Prob *b, const char *s)
{
	while (s && *s) {
		char *end;
		int c = (int)strtol(s, &end, 10);
		int x = (int)strtol(end + 1, &end, 10);
		int y = (int)strtol(end + 1, &end, 10);
		b->cells[c].fixed_x = x, b->cells[c].fixed_y = y;
		s = end;
		while (*s == ' ')
			s++;
	}
}

/* Every cell on a tile of its kind, no two on one tile, fixed cells on
 * theirs; prints what is wrong. */
static int legal(const PlProblem *p, const PlResult *r)
{
	int ok = 1;
	char *used = calloc((size_t)(p->cols * p->rows), 1);
	for (int c = 0; c < p->ncells; c++) {
		int x = r->x[c], y = r->y[c];
		if (x < 0 || y < 0 || x >= p->cols || y >= p->rows) {
			ok = CHECK(0, "%s at (%d, %d), outside the array", p->cells[c].name, x, y);
			continue;
		}
		if (p->tiles[y][x] != p->cells[c].kind)
			ok = CHECK(0, "%s (%c) on (%d, %d), a '%c' tile", p->cells[c].name, p->cells[c].kind, x,
				   y, p->tiles[y][x]);
		if (p->cells[c].kind == 'I' && y != 0)
			ok = CHECK(0, "IO cell %s on row %d", p->cells[c].name, y);
		if (used[y * p->cols + x]++)
			ok = CHECK(0, "%s on (%d, %d), taken twice", p->cells[c].name, x, y);
		if (p->cells[c].fixed_x >= 0 && (x != p->cells[c].fixed_x || y != p->cells[c].fixed_y))
			ok = CHECK(0, "%s fixed to (%d, %d) moved to (%d, %d)", p->cells[c].name,
				   p->cells[c].fixed_x, p->cells[c].fixed_y, x, y);
	}
	free(used);
	return ok;
}

static void print_placement(const PlProblem *p, const PlResult *r)
{
	for (int y = 0; y < p->rows; y++) {
		printf("  ");
		for (int x = 0; x < p->cols; x++) {
			int c = 0;
			while (c < p->ncells && !(r->x[c] == x && r->y[c] == y))
				c++;
			if (c < p->ncells)
				printf("%3d", c);
			else
				printf("  %c", p->tiles[y][x] | 0x20);
		}
		printf("\n");
	}
}

/* ---- known optimum wirelength ------------------------------------------- */

typedef struct Known {
	const char *name;
	const char *const *tiles;
	int cols, rows;
	const char *cells, *nets, *fixed;
	double hpwl;
} Known;

static const Known known[] = {
	{ "chain of 2", A4, 4, 5, "PP", "0:1", NULL, 1 },
	{ "chain of 3", A4, 4, 5, "PPP", "0:1 1:2", NULL, 2 },
	{ "star of 4 connections", A4, 4, 5, "PPPPP", "0:1 0:2 0:3 0:4", NULL, 4 },
	{ "one net of 5 cells", A4, 4, 5, "PPPPP", "0:1,2,3,4", NULL, 3 },
	{ "2x2 ring", A4, 4, 5, "PPPP", "0:1 1:3 3:2 2:0", NULL, 4 },
	{ "3x3 mesh", A4, 4, 5, "PPPPPPPPP", "0:1 1:2 3:4 4:5 6:7 7:8 0:3 3:6 1:4 4:7 2:5 5:8", NULL, 12 },
	{ "3x4 mesh filling every PE tile", A4, 4, 5, "PPPPPPPPPPPP",
	  "0:1 1:2 3:4 4:5 6:7 7:8 9:10 10:11 0:3 3:6 6:9 1:4 4:7 7:10 2:5 5:8 8:11", NULL, 17 },
	{ "4x4 mesh", P5, 5, 6, "PPPPPPPPPPPPPPPP",
	  "0:1 1:2 2:3 4:5 5:6 6:7 8:9 9:10 10:11 12:13 13:14 14:15 "
	  "0:4 4:8 8:12 1:5 5:9 9:13 2:6 6:10 10:14 3:7 7:11 11:15", NULL, 24 },
	{ "PE, MEM, PE (one PE beside each MEM)", A4, 4, 5, "PMP", "0:1 1:2", NULL, 3 },
	{ "MEM between PE chains", A8, 8, 9, "PPMPP", "0:1 1:2 2:3 3:4", NULL, 4 },
	{ "IO into a chain", A4, 4, 5, "IPP", "0:1 1:2", NULL, 2 },
	{ "IO to IO through PEs", A8, 8, 9, "IPPPI", "0:1 1:2 2:3 3:4", NULL, 4 },
	{ "fixed IO, chain to it", A8, 8, 9, "IPPP", "0:1 1:2 2:3", "0@5,0", 3 },
	{ "chain between fixed ends", P6, 6, 7, "PPPPP", "0:1 1:2 2:3 3:4", "0@0,1 4@4,1", 4 },
	{ "chain around a fixed PE", A4, 4, 5, "PPP", "0:1 1:2", "1@1,2", 2 },
};

static void test_known_optimum(void)
{
	for (int i = 0; i < COUNT(known); i++) {
		const Known *k = &known[i];
		for (uint64_t seed = 1; seed <= 3; seed++) {
			Prob b;
			PlResult r;
			char why[200];
			prob_init(&b, k->tiles, k->cols, k->rows, k->cells);
			parse_nets(&b, k->nets);
			parse_fixed(&b, k->fixed);
			b.p.seed = seed;
			if (!CHECK(pl_place(&b.p, &r, why, sizeof why), "%s: %s", k->name, why))
				continue;
			int ok = legal(&b.p, &r);
			ok &= CHECK(r.hpwl == k->hpwl, "%s, seed %d: HPWL %g, want %g", k->name, (int)seed, r.hpwl,
				    k->hpwl);
			ok &= CHECK(r.cost == r.hpwl, "%s: cost %g with gamma 0, HPWL %g", k->name, r.cost, r.hpwl);
			if (!ok || verbose)
				print_placement(&b.p, &r);
			pl_result_free(&r);
		}
	}
}

/* c2 between fixed c0 (0, 1) and c1 (2, 4): every tile on a shortest path
 * costs 5 unweighted, but with c1's connection weighing 3 the best is next
 * to c1: 1 * 4 + 3 * 1. */
static void test_weights(void)
{
	for (uint64_t seed = 1; seed <= 3; seed++) {
		Prob b;
		PlResult r;
		char why[200];
		int sink[] = { 2 };
		prob_init(&b, A4, 4, 5, "PPP");
		parse_fixed(&b, "0@0,1 1@2,4");
		add_net(&b, 0, sink, 1, 1);
		add_net(&b, 1, sink, 1, 3);
		b.p.seed = seed;
		if (!CHECK(pl_place(&b.p, &r, why, sizeof why), "%s", why))
			continue;
		legal(&b.p, &r);
		int d1 = abs(r.x[2] - 2) + abs(r.y[2] - 4);
		CHECK(r.hpwl == 7 && d1 == 1, "seed %d: c2 at (%d, %d), weighted HPWL %g; want 7, next to c1", (int)seed,
		      r.x[2], r.y[2], r.hpwl);
		pl_result_free(&r);
	}
}

/* ---- kinds and fixed cells on a mixed netlist --------------------------- */

static void random_netlist(Prob *b, Rng *rng, int nin, int nout, int nmem, int npe, int span);

static void test_kinds_and_fixed(void)
{
	Prob b;
	PlResult r;
	char why[200];
	Rng rng;
	rng_seed(&rng, 7);
	prob_init(&b, A8, 8, 9, "");
	random_netlist(&b, &rng, 3, 3, 6, 30, 6);
	int mem = 0, pe = 0;
	while (b.cells[mem].kind != 'M')
		mem++;
	while (b.cells[pe].kind != 'P')
		pe++;
	b.cells[0].fixed_x = 2, b.cells[0].fixed_y = 0;         /* an IO input */
	b.cells[mem].fixed_x = 7, b.cells[mem].fixed_y = 4;
	b.cells[pe].fixed_x = 0, b.cells[pe].fixed_y = 8;
	b.p.gamma = PL_DEFAULT_GAMMA;
	if (!CHECK(pl_place(&b.p, &r, why, sizeof why), "mixed: %s", why))
		return;
	if (!legal(&b.p, &r) || verbose)
		print_placement(&b.p, &r);
	double h, cost = pl_cost(&b.p, r.x, r.y, &h);
	CHECK(cost == r.cost && h == r.hpwl, "pl_cost %g (HPWL %g), the placer %g (%g)", cost, h, r.cost, r.hpwl);
	pl_result_free(&r);
}

/* ---- refusals ----------------------------------------------------------- */

typedef struct Refusal {
	const char *cells, *fixed;
	const char *why;
} Refusal;

static const Refusal refusals[] = {
	{ "PPPPPPPPPPPPP", NULL, "needs 13 PE tiles, the array has 12" },
	{ "PPPMMMMM", NULL, "needs 5 MEM tiles, the array has 4" },
	{ "IIIIIP", NULL, "needs 5 IO tiles, the array has 4" },
	{ "PPPPPPPPPPPPPPPPPPPP", NULL, "needs 20 PE tiles, the array has 12" },
	{ "PP", "0@3,1", "cell c0 (PE) is fixed to (3, 1), a MEM tile" },
	{ "PM", "1@0,0", "cell c1 (MEM) is fixed to (0, 0), an IO tile" },
	{ "IP", "0@0,1", "cell c0 (IO) is fixed to (0, 1), a PE tile" },
	{ "PP", "0@1,1 1@1,1", "cells c0 and c1 are both fixed to (1, 1)" },
	{ "PP", "1@4,1", "cell c1 is fixed to (4, 1), outside the 4x5 array" },
	{ "PP", "1@2,-1", "cell c1 is fixed to (2, -1), outside the 4x5 array" },
	{ "PQ", NULL, "cell c1 has kind 'Q' (not P, M or I)" },
};

static void test_refusals(void)
{
	for (int i = 0; i < COUNT(refusals); i++) {
		Prob b;
		PlResult r;
		char why[200] = "";
		prob_init(&b, A4, 4, 5, refusals[i].cells);
		parse_fixed(&b, refusals[i].fixed);
		int ok = pl_place(&b.p, &r, why, sizeof why);
		CHECK(!ok && !strcmp(why, refusals[i].why), "%s: got %s \"%s\", want \"%s\"", refusals[i].cells,
		      ok ? "success" : "failure", why, refusals[i].why);
		CHECK(!r.x && !r.y, "a refusal leaves no placement");
		pl_result_free(&r);
	}
	Prob b;
	PlResult r;
	char why[200] = "";
	int sinks[] = { 5 };
	prob_init(&b, A4, 4, 5, "PP");
	add_net(&b, 0, sinks, 1, 1);
	CHECK(!pl_place(&b.p, &r, why, sizeof why) && !strcmp(why, "net 0 names cell 5, not one of the 2 cells"),
	      "bad net: \"%s\"", why);
}

static void test_empty(void)
{
	Prob b;
	PlResult r;
	char why[200];
	prob_init(&b, A4, 4, 5, "");
	CHECK(pl_place(&b.p, &r, why, sizeof why) && r.hpwl == 0 && r.moves == 0, "no cells: %s", why);
	pl_result_free(&r);
	prob_init(&b, A4, 4, 5, "PPMI");
	CHECK(pl_place(&b.p, &r, why, sizeof why), "no nets: %s", why);
	legal(&b.p, &r);
	CHECK(r.hpwl == 0 && r.moves == 0, "no nets: HPWL %g, %ld moves", r.hpwl, r.moves);
	pl_result_free(&r);
}

/* ---- equation 2 --------------------------------------------------------- */

/* Fig. 15: a net a-b covers the 2x2 box (1..2, 1..2); a second net c-d of
 * HPWL 2 either lies apart from it (option 1) or shares two of its tiles
 * (option 2). Each net's box meets the other's in 2 tiles: overlap 4. */
static void test_fig15_cost(void)
{
	Prob b;
	prob_init(&b, P6, 6, 7, "PPPP");
	parse_nets(&b, "0:1 2:3");
	b.p.gamma = 0.5;
	int x1[] = { 1, 2, 3, 4 }, y1[] = { 1, 2, 4, 5 };
	int x2[] = { 1, 2, 1, 2 }, y2[] = { 1, 2, 2, 3 };
	double h1, h2, c1 = pl_cost(&b.p, x1, y1, &h1), c2 = pl_cost(&b.p, x2, y2, &h2);
	CHECK(h1 == 4 && h2 == 4, "HPWL %g and %g, want 4 and 4", h1, h2);
	CHECK(c1 == 4 && c2 == 2, "cost %g and %g, want 4 and 4 - 0.5 * 4", c1, c2);
	b.p.gamma = 0;
	CHECK(pl_cost(&b.p, x2, y2, NULL) == 4, "gamma 0: cost is HPWL");
	/* three boxes on one tile count it three times */
	prob_init(&b, P6, 6, 7, "PPPP");
	parse_nets(&b, "0:1 0:2 0:3");
	b.p.gamma = 1;
	int x3[] = { 1, 1, 2, 0 }, y3[] = { 1, 2, 1, 1 };
	CHECK(pl_cost(&b.p, x3, y3, NULL) == 3 - 3, "three boxes sharing (1, 1): cost %g, want 0",
	      pl_cost(&b.p, x3, y3, NULL));
}

/* Net a-b is fixed along column 0 (rows 1 to 3); c is fixed at (1, 2) and d
 * may take any of c's four neighbours at HPWL 1. Only (0, 2) shares area with
 * a-b, and only gamma > 0 prefers it. */
static void test_fig15_anneal(void)
{
	for (uint64_t seed = 1; seed <= 5; seed++) {
		for (int g = 0; g < 2; g++) {
			Prob b;
			PlResult r;
			char why[200];
			prob_init(&b, A4, 4, 5, "PPPP");
			parse_nets(&b, "0:1 2:3");
			parse_fixed(&b, "0@0,1 1@0,3 2@1,2");
			b.p.gamma = g ? PL_DEFAULT_GAMMA : 0;
			b.p.seed = seed;
			if (!CHECK(pl_place(&b.p, &r, why, sizeof why), "%s", why))
				continue;
			legal(&b.p, &r);
			CHECK(r.hpwl == 3, "seed %d gamma %g: HPWL %g, want 3", (int)seed, b.p.gamma, r.hpwl);
			if (g)
				CHECK(r.x[3] == 0 && r.y[3] == 2 && r.cost == 3 - 2 * b.p.gamma,
				      "seed %d: d at (%d, %d), cost %g; want (0, 2), %g", (int)seed, r.x[3], r.y[3],
				      r.cost, 3 - 2 * b.p.gamma);
			pl_result_free(&r);
		}
	}
}

/* ---- a random netlist on the 32x16 array -------------------------------- */

/* A dataflow-like netlist: nin IO inputs, then nmem MEM and npe PE cells in
 * random order, then nout IO outputs; every cell after the inputs is driven by
 * one or two cells among the span before it; each driver's sinks are one net. */
static void random_netlist(Prob *b, Rng *rng, int nin, int nout, int nmem, int npe, int span)
{
	int n = nin + nmem + npe + nout, drv[MAXC][2], nd[MAXC] = { 0 };
	char kinds[MAXC + 1];
	for (int i = 0; i < n; i++)
		kinds[i] = i < nin || i >= n - nout ? 'I' : 'P';
	for (int m = 0; m < nmem;) {
		int i = nin + (int)rng_below(rng, (uint64_t)(nmem + npe));
		if (kinds[i] == 'P')
			kinds[i] = 'M', m++;
	}
	kinds[n] = 0;
	prob_init(b, b->p.tiles, b->p.cols, b->p.rows, kinds);
	for (int i = nin; i < n; i++) {
		int lo = i - span < 0 ? 0 : i - span, k = i >= n - nout ? 1 : 1 + (int)rng_below(rng, 2);
		for (int j = 0; j < k; j++) {
			int d = lo + (int)rng_below(rng, (uint64_t)(i - lo));
			if (d >= n - nout)
				d = lo;
			drv[i][nd[i]++] = d;
		}
	}
	for (int d = 0; d < n; d++) {
		int sinks[MAXC], ns = 0;
		for (int i = 0; i < n; i++)
			for (int j = 0; j < nd[i]; j++)
				if (drv[i][j] == d && (ns == 0 || sinks[ns - 1] != i))
					sinks[ns++] = i;
		if (ns)
			add_net(b, d, sinks, ns, 1);
	}
}

/* Each kind's cells on a random permutation of its tiles. */
static double random_placement_hpwl(const PlProblem *p, Rng *rng, int *x, int *y)
{
	for (const char *k = "PMI"; *k; k++) {
		int tiles[1024], nt = 0;
		for (int t = 0; t < p->cols * p->rows; t++)
			if (p->tiles[t / p->cols][t % p->cols] == *k)
				tiles[nt++] = t;
		for (int c = 0; c < p->ncells; c++) {
			if (p->cells[c].kind != *k)
				continue;
			int j = (int)rng_below(rng, (uint64_t)nt), t = tiles[j];
			tiles[j] = tiles[--nt];
			x[c] = t % p->cols, y[c] = t / p->cols;
		}
	}
	double h;
	pl_cost(p, x, y, &h);
	return h;
}

static void big_problem(Prob *b, uint64_t seed)
{
	Rng rng;
	rng_seed(&rng, seed);
	b->p.tiles = array_32x16(), b->p.cols = 32, b->p.rows = 17;
	random_netlist(b, &rng, 8, 8, 24, 160, 12);
}

static void test_random_200(void)
{
	static Prob b;
	PlResult r;
	char why[200];
	int x[MAXC], y[MAXC];
	Rng rng;
	big_problem(&b, 11);
	b.p.gamma = PL_DEFAULT_GAMMA;
	b.p.progress = verbose ? stdout : NULL;
	if (!CHECK(pl_place(&b.p, &r, why, sizeof why), "200 cells: %s", why))
		return;
	legal(&b.p, &r);
	rng_seed(&rng, 3);
	double rnd = random_placement_hpwl(&b.p, &rng, x, y);
	CHECK(r.hpwl < 0.2 * rnd, "200 cells: HPWL %g, a random placement's %g", r.hpwl, rnd);
	CHECK(r.hpwl <= r.hpwl_legal, "annealing made HPWL worse: %g after %g", r.hpwl, r.hpwl_legal);
	if (verbose)
		printf("%d cells, %d nets on 32x16: HPWL %g (legalized global %g, random %g), cost %g; "
		       "%.3f s global (%d iterations), %.3f s annealing (%ld moves)\n",
		       b.p.ncells, b.p.nnets, r.hpwl, r.hpwl_legal, rnd, r.cost, r.seconds_global,
		       r.global_iterations, r.seconds_detailed, r.moves);
	pl_result_free(&r);
}

static void test_determinism(void)
{
	static Prob b;
	PlResult r1, r2;
	char why[200];
	big_problem(&b, 5);
	b.p.gamma = PL_DEFAULT_GAMMA;
	b.p.seed = 42;
	if (!CHECK(pl_place(&b.p, &r1, why, sizeof why) && pl_place(&b.p, &r2, why, sizeof why), "%s", why))
		return;
	size_t n = (size_t)b.p.ncells * sizeof(int);
	CHECK(!memcmp(r1.x, r2.x, n) && !memcmp(r1.y, r2.y, n) && r1.cost == r2.cost && r1.moves == r2.moves &&
		      r1.accepted == r2.accepted && r1.global_iterations == r2.global_iterations,
	      "the same seed placed differently");
	pl_result_free(&r1);
	pl_result_free(&r2);
}

/* The progress lines: a few global rounds, one anneal line per ten
 * temperatures, a closing summary. */
static void test_progress(void)
{
	Prob b;
	PlResult r;
	char why[200], line[400], last[400] = "";
	FILE *f = tmpfile();
	if (!CHECK(f != NULL, "tmpfile"))
		return;
	prob_init(&b, A4, 4, 5, "PPPPPPPPP");
	parse_nets(&b, "0:1 1:2 3:4 4:5 6:7 7:8 0:3 3:6 1:4 4:7 2:5 5:8");
	b.p.progress = f;
	CHECK(pl_place(&b.p, &r, why, sizeof why), "%s", why);
	rewind(f);
	int lines = 0, global = 0, anneal = 0;
	while (fgets(line, sizeof line, f)) {
		lines++;
		global += !strncmp(line, "place: global round", 19);
		anneal += !strncmp(line, "place: anneal step", 18);
		snprintf(last, sizeof last, "%s", line);
	}
	fclose(f);
	CHECK(global >= 1 && anneal >= 1 && lines == global + anneal + 2, "%d lines: %d global, %d anneal", lines,
	      global, anneal);
	CHECK(!strncmp(last, "place: 9 cells, HPWL 12 (legalized ", 35), "closing line: %s", last);
	pl_result_free(&r);
}

int main(int argc, char **argv)
{
	verbose = argc > 1 && !strcmp(argv[1], "-v");
	static const TestCase tests[] = {
		{ "known optimum", test_known_optimum },
		{ "weights", test_weights },
		{ "kinds and fixed cells", test_kinds_and_fixed },
		{ "refusals", test_refusals },
		{ "empty", test_empty },
		{ "Fig. 15 cost", test_fig15_cost },
		{ "Fig. 15 annealing", test_fig15_anneal },
		{ "random 200 cells", test_random_200 },
		{ "determinism", test_determinism },
		{ "progress", test_progress },
	};
	return check_run("test_place", tests, COUNT(tests));
}
