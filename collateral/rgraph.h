/* rgraph.h - routing.graph (canal/COLLATERAL.md): the interconnect as a
 * directed graph of nodes (core ports, switch-box ports, pipeline registers)
 * with each node's inputs in the order of its multiplexer's selects. Read with
 * errors at their line and column. */
#ifndef COLLATERAL_RGRAPH_H
#define COLLATERAL_RGRAPH_H

#include "../common/diag.h"
#include "../common/gstore.h"
#include "../common/util.h"

/* What a reader takes (canal/COLLATERAL.md, "Limits"): the file's size is
 * bounded by lines.h; within it, the counts are checked before anything is
 * allocated for them. */
#define RGRAPH_MAX_NODES (1 << 23)
#define RGRAPH_MAX_EDGES (1 << 25)
#define RGRAPH_MAX_FANIN 1024   /* inputs of one node */
#define RGRAPH_MAX_WIDTHS 4
#define RGRAPH_MAX_TRACK 1023
#define RGRAPH_MAX_DELAY 10.0   /* ns, a node's delay */

typedef struct RNode {
	const char *kind, *name;        /* kind: one of rgraph_kinds */
	int width, x, y, side, track;   /* side 0..3 (N E S W) or -1; track or -1 */
	double delay;
	int *in;                /* source node ids in select order */
	int nin;
	int *out;
	int nout;
	int line;               /* of its record in the file */
} RNode;

typedef struct RGraph {
	GStore store;           /* the names, their index and the arena */
	const char *design;
	int cols, rows;         /* rows including the IO row */
	int widths[RGRAPH_MAX_WIDTHS], nwidths;
	int line;               /* of the graph line */
	const char *file;       /* as named in messages */
	RNode *nodes;
	int nnodes;
	long nedges;
} RGraph;

/* The kinds of node, NULL-terminated: sb_in, sb_out, reg, rmux, port_in,
 * port_out. */
extern const char *const rgraph_kinds[];

/* Reads the file path; NULL with errors in d. The file is refused unless
 * it is whole: its graph line first, the counts of its end line those of its
 * nodes and edges, and every record sound on its own (known kinds, widths of
 * the graph's networks, tiles of its array, finite delays from 0 to
 * RGRAPH_MAX_DELAY, each multiplexer input once, edges within one network).
 * _load_string reads text, named name in messages. */
__give RGraph *rgraph_load(const char *path, __keep Diags *d);
__give RGraph *rgraph_load_string(const char *name, const char *text, __keep Diags *d);
void rgraph_free(__take RGraph *g);
int rgraph_find(const RGraph *g, const char *name);
/* The select of edge from -> to (its position among to's inputs), or -1. */
int rgraph_select(const RGraph *g, int from, int to);

#endif
