/* ic.h - a design's interconnect collateral as the compiler and the benches
 * take it: the routing graph and the configuration map that design.yaml
 * names (files.graph, files.config), each read whole (collateral/rgraph,
 * collateral/configmap) and then checked against the manifest, the cores'
 * collateral it names and each other, so that a stale, truncated or
 * hand-edited file is refused where it is read, at its line, rather than
 * misread later. */
#ifndef COLLATERAL_IC_H
#define COLLATERAL_IC_H

#include "../common/diag.h"
#include "configmap.h"
#include "coreinfo.h"
#include "design.h"
#include "rgraph.h"

/* Errors of one kind reported per file before the rest are only counted. */
#define IC_MAX_REPORTED 10

typedef struct Interconnect {
	RGraph *graph;
	ConfigMap *map;
} Interconnect;

/* Reads the graph and the map manifest m names, and the cores' info files
 * for the checks of ic_check. 0 with every error found in d (ic's members
 * NULL). */
int ic_load(const Design *m, Interconnect *ic, __keep Diags *d);
/* The checks alone, of g and map against m and the cores of its tiles (mem
 * NULL if it has no memory tiles; io: coreinfo_io of m's widths):
 * - the graph's line: the manifest's design, array and networks;
 * - every port node: a port of its tile's core, of its direction and width;
 *   every port of every tile's core: its node;
 * - every field: a multiplexer with inputs to select among (enough bits, at
 *   its tile's interconnect address) or a register of its tile's core (its
 *   width, its address); every multiplexer and core register: its field.
 * 1 if all hold; else 0 with errors in d at the lines of g's and map's files. */
int ic_check(const Design *m, const RGraph *g, const ConfigMap *map, const CoreInfo *pe, const CoreInfo *mem,
	     const CoreInfo *io, __keep Diags *d);
void ic_free(Interconnect *ic);

#endif
