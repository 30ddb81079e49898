/* retime.h - moving routed nets' pipeline registers along their trees.
 *
 * rt_route gives each sink exactly its register count but puts the
 * registers wherever its searches found them. A register site of the
 * routing graph is an `sb_out` node S, a `reg` G whose only input is S, and
 * an `rmux` M with inputs S (bypass) and G: a tree passing S -> M or
 * S -> G -> M can switch between the two without touching another net (G
 * is reachable through S only). rt_retime chooses, at every site each net's
 * tree passes, bypass or register so that the longest register-to-register
 * stretch of the net is as short as it can be.
 *
 * Timing follows the backend's static timing: a node's arrival is its
 * driver's plus its own delay (RNode.delay), restarting from 0 after a reg
 * node (whose own delay is not counted); a stretch ends at a reg (the
 * arrival of the reg's driver) or at a sink (its arrival plus the time
 * spent after it); the source's arrival is given. */
#ifndef COMPILER_RETIME_H
#define COMPILER_RETIME_H

#include "route.h"

/* For each net i of a routed result r (rt_route returned 1): chooses bypass
 * or register at each site its tree passes, so that every sink keeps
 * exactly its register count and each tree node one register count, and
 * the net's longest stretch is the least possible: from its source
 * (arriving at src_arrival[i] ns) to the first register, between two
 * registers, and from the last register to sink k plus sink_after[i][k] ns.
 * A spare sink (RtSink.spare) keeps its count, its stretch ending at the
 * sink (the core's own register takes the last one), or takes one more
 * register on its path, its stretch then running sink_after[i][k] past it;
 * sink_regs says which (the first only when it is no worse).
 * src_arrival, sink_after and any sink_after[i] may be NULL (0 ns).
 *
 * Rewrites r->routes[i].edges (the same nodes but for the site registers;
 * the order stays parents before children) and recomputes sink_regs,
 * sink_delay and r->nodes_used; a net whose tree is already optimal is left
 * as it is, and no net's longest stretch grows. Times are summed exactly
 * in units of 1e-6 ns. Nets whose route is not a tree reaching every sink
 * with its count (a failed rt_route) are left alone and not counted.
 * Deterministic. Returns the longest stretch over all nets (ns), 0 if there
 * is none. */
double rt_retime(__keep const RGraph *g, __keep const RtNet *nets, int nnets, __keep const double *src_arrival,
		 __keep const double *const *sink_after, RtResult *r);

#endif
