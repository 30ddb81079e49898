/* place.h - placing a netlist's cells on the tiles of an array (AHA 5.3.2).
 *
 * Global placement is analytic: conjugate gradient on the sum over nets of
 * the squared L2 distance of each driver-sink connection (AHA equation 1's
 * wirelength estimate), a potential that pulls memory cells towards the
 * memory columns, and a per-kind density that spreads cells over their
 * kind's tiles; cells are then legalized onto free tiles of their kind
 * (place.c says why each choice). Detailed placement is
 * simulated annealing on the real half-perimeter wirelength minus gamma
 * times the overlap of each net's bounding box with the area the other
 * nets already cover (equation 2: nets that share tiles need fewer
 * pass-through tiles). IO cells go to the IO row (the north edge). Every
 * random choice comes from the seed: the same problem and seed give the
 * same placement. */
#ifndef COMPILER_PLACE_H
#define COMPILER_PLACE_H

#include <stdint.h>
#include <stdio.h>

#include "../../common/util.h"

/* Equation 2 rewards a box for every tile it shares, so a net can gain by
 * stretching its box over covered area: on random 200-cell netlists on the
 * 32x16 array, gamma 0.05 shrinks the union of the boxes by 3% at no cost
 * in HPWL, 0.1 already costs 50% more HPWL, 0.2 spreads every box over the
 * array. */
#define PL_DEFAULT_GAMMA 0.05
#define PL_DEFAULT_EFFORT 50

typedef struct PlCell {
	const char *name;       /* for messages */
	char kind;              /* the tile kind it needs: 'P' (PE), 'M' (MEM), 'I' (IO) */
	int fixed_x, fixed_y;   /* a tile it must take, or -1, -1 */
} PlCell;

typedef struct PlNet {
	const int *cells;       /* cells[0] drives the others; a cell may appear more than once */
	int ncells;
	double weight;          /* 1 for an ordinary net */
} PlNet;

typedef struct PlProblem {
	int cols, rows;         /* rows including the IO row 0 */
	const char *const *tiles;       /* rows strings of cols characters: 'I', 'P', 'M' (design.yaml) */
	const PlCell *cells;
	int ncells;
	const PlNet *nets;
	int nnets;
	uint64_t seed;
	double gamma;           /* weight of equation 2's shared area (PL_DEFAULT_GAMMA; 0: HPWL only) */
	int effort;             /* annealing moves per movable cell per temperature (0: PL_DEFAULT_EFFORT) */
	FILE *progress;         /* progress lines (global iterations, annealing temperatures), or NULL */
} PlProblem;

typedef struct PlResult {
	int *x, *y;             /* per cell */
	double hpwl;            /* final half-perimeter wirelength, all nets, weighted */
	double hpwl_legal;      /* the same after legalizing the global placement, before annealing */
	double cost;            /* final annealing cost */
	int global_iterations;
	long moves, accepted;
	double seconds_global, seconds_detailed;
} PlResult;

/* Places p. Returns 1 with r filled (free with pl_result_free), or 0 with a
 * one-line reason in why, r's arrays NULL: a kind short of tiles ("needs 20
 * PE tiles, the array has 12"), a fixed tile outside the array, of the
 * wrong kind ("cell c0 (PE) is fixed to (3, 1), a MEM tile") or taken twice
 * ("cells c0 and c1 are both fixed to (1, 1)"), or a malformed problem (a
 * kind other than P, M, I, a net naming no cell, a negative weight). */
int pl_place(__keep const PlProblem *p, PlResult *r, char *why, size_t whylen);
void pl_result_free(PlResult *r);

/* The annealing cost of a complete placement x, y (per cell) of p: the sum
 * over nets of weight * HPWL, minus gamma times the sum over nets of the
 * tiles of the net's bounding box that another net's box also covers
 * (equation 2; nets of fewer than two cells have no box). *hpwl, if not
 * NULL, gets the wirelength part. */
double pl_cost(__keep const PlProblem *p, const int *x, const int *y, double *hpwl);

#endif
