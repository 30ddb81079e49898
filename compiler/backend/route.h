/* route.h - routing nets on a design's routing graph (routing.graph,
 * canal/COLLATERAL.md): negotiated congestion (PathFinder: the present-
 * congestion factor grows each iteration, a history cost accumulates on
 * nodes that stay over-used, both capped) with an A* search per sink, for
 * every width the graph has.
 *
 * Each sink asks for an exact number of pipeline registers between the
 * net's source and it: a path passes through that many `reg` nodes (a reg
 * is entered from its `sb_out` and leaves through its `rmux`, select 1).
 * The search runs over (node, registers so far) states; a net's routing is a
 * tree in which every node has one register count, so two sinks share a
 * node only if they reach it with the same count. A node carries at most one
 * net. Nothing is retried with other seeds: when the iteration limit is
 * reached with nodes still over-used, or a sink cannot be reached at all,
 * rt_route fails with a report naming the over-used nodes and their nets. */
#ifndef COMPILER_ROUTE_H
#define COMPILER_ROUTE_H

#include <stdio.h>

#include "../../collateral/bitstream.h"

typedef struct RtSink {
	int node;               /* a port_in node of the graph */
	int regs;               /* reg nodes on the path from the source, exactly */
	int spare;              /* rt_retime only: the sink's core has a register of its own
				 * holding one more (a PE input register): its path may take
				 * regs + 1 instead, leaving that register unused */
} RtSink;

typedef struct RtNet {
	const char *name;       /* for reports */
	int source;             /* a port_out node */
	const RtSink *sinks;
	int nsinks;
} RtNet;

typedef struct RtOptions {
	int max_iterations;     /* PathFinder iterations before giving up */
	double pres_first;      /* present-congestion factor of iteration 1 */
	double pres_mult;       /* its growth per iteration */
	double pres_max;        /* its cap */
	double hist_fac;        /* history cost added per iteration a node stays over-used */
	double hist_max;        /* cap of a node's history cost */
	double astar;           /* weight of the A* distance estimate (1: admissible) */
	FILE *progress;         /* one line per iteration, or NULL */
} RtOptions;

/* One edge of a routed net: `to` is driven from `from` (both graph node
 * ids); its select is rgraph_select(g, from, to). */
typedef struct RtEdge {
	int from, to;
} RtEdge;

typedef struct RtRoute {
	RtEdge *edges;          /* the tree, each node's driving edge once, parents before children */
	int nedges;
	int *sink_regs;         /* per sink: registers found on its path (= asked) */
	double *sink_delay;     /* per sink: ns of the path after its last register (node delays) */
} RtRoute;

typedef struct RtResult {
	RtRoute *routes;        /* per net */
	int nnets;
	int iterations;
	int nodes_used;         /* nodes in all trees, sources included */
	int tracks16, tracks1;  /* sb_out nodes used, per width 16 and 1 (other widths not counted) */
	double seconds;
	char *report;           /* on failure: the over-used nodes and their nets, or the sink that
				 * has no path (with its register count); NULL on success */
	int overused;           /* on failure by congestion: the nodes still shared, else 0 */
	int over_node;          /* the first of them, or -1 */
} RtResult;

void rt_options_default(RtOptions *o);

/* Routes nets on g with options o (NULL: the defaults). Returns 1 with
 * every sink routed and no node shared, or 0 with r->report set (r->routes
 * then holds the last iteration's trees; a sink not routed has sink_regs
 * -1). Nets are checked first: a source must be a port_out, a sink a
 * port_in listed once in its net. Free r with rt_result_free either way.
 * Deterministic: the same graph, nets and options give the same routes. */
int rt_route(__keep const RGraph *g, __keep const RtNet *nets, int nnets, __keep const RtOptions *o,
	     RtResult *r);
void rt_result_free(RtResult *r);

#endif
