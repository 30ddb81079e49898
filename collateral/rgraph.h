/* rgraph.h - routing.graph (canal/COLLATERAL.md): the interconnect as a
 * directed graph of nodes (core ports, switch-box ports, pipeline registers)
 * with each node's inputs in the order of its multiplexer's selects. Read with
 * errors at their line and column. */
#ifndef COLLATERAL_RGRAPH_H
#define COLLATERAL_RGRAPH_H

#include "../common/diag.h"
#include "../common/gstore.h"
#include "../common/util.h"

typedef struct RNode {
	const char *kind, *name;
	int width, x, y, side, track;   /* side 0..3 (N E S W) or -1; track or -1 */
	double delay;
	int *in;                /* source node ids in select order */
	int nin;
	int *out;
	int nout;
} RNode;

typedef struct RGraph {
	GStore store;           /* the names, their index and the arena */
	const char *design;
	int cols, rows;         /* rows including the IO row */
	RNode *nodes;
	int nnodes;
} RGraph;

/* Reads the file path; NULL with errors in d (a file that cannot be read:
 * a message on stderr). _load_string reads text, named name in messages. */
__give RGraph *rgraph_load(const char *path, __keep Diags *d);
__give RGraph *rgraph_load_string(const char *name, const char *text, __keep Diags *d);
void rgraph_free(__take RGraph *g);
int rgraph_find(const RGraph *g, const char *name);
/* The select of edge from -> to (its position among to's inputs), or -1. */
int rgraph_select(const RGraph *g, int from, int to);

#endif
