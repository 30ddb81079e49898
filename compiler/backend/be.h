/* be.h - the back end's state (private to compiler/backend/): what the
 * stages of backend.h build round after round (netlist, placement, routes)
 * and what they read once (routing.graph, config.map), shared by backend.c
 * (the stages), be_timing.c, be_bits.c and be_files.c. */
#ifndef COMPILER_BACKEND_BE_H
#define COMPILER_BACKEND_BE_H

#include "../../collateral/bitstream.h"
#include "backend.h"
#include "netlist.h"
#include "place.h"
#include "retime.h"
#include "route.h"

struct Backend {
	const char *app;        /* the application file */
	char *base;             /* its name without folder and extension */
	const Collateral *c;
	const BeOptions *o;
	RGraph *g;              /* routing.graph, read once */
	ConfigMap *cfg;         /* config.map, read once */
	uint64_t reg_widths;    /* bit w - 1: the graph has w-bit pipeline registers */
	int may_lower;          /* pipelining can still be lowered (be_netlist_lowerable) */
	int lacking;            /* this round's netlist needs delay cells the PE cannot make */
	/* this round's */
	const UbProgram *u;
	const UbMap *m;
	const CMap *cm;
	Netlist nl;
	int has_netlist;
	PlResult pl;
	RtNet *rnets;
	RtResult rr;
	int routed;
	Bitstream *bs;
	int regs_used;          /* reg nodes on routes */
	int64_t latency;        /* first input to last output, cycles */
	int64_t last_cycle;     /* the last cycle of any stream (io.yaml: cycles) */
	/* static timing */
	double crit;            /* ns */
	int crit_from;          /* the cell the critical path leaves last, or -1 */
	const char *crit_to;    /* the node it ends at */
	char crit_path[512];
	double t_timing, t_bits;
};

/* The routing node of a cell's port, or -1. */
int be_node_of(const Backend *B, int cell, const char *port);
/* The time a cell spends computing (its rule's delay; memories and IOs 0). */
double be_cell_delay(const Backend *B, int cell);

/* Static timing over the routed nets (be_timing.c): B->crit, crit_path. */
void be_timing(Backend *B);
/* The bitstream of the routes and every cell's configuration (be_bits.c);
 * NULL with an internal error in d. */
__give Bitstream *be_bits(Backend *B, __keep Diags *d);

#endif
