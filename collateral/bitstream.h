/* bitstream.h - configuring an array from its collateral alone: the
 * configuration fields of `config.map` and the routing graph of
 * `routing.graph` (canal/COLLATERAL.md), and the bitstream built from them:
 * routed edges set their multiplexers' selects, core registers take their
 * values, and the result is the lines `AAAAAAAA DDDDDDDD` of every register
 * written. The compiler and the benches use this, never canal/. */
#ifndef COMMON_BITSTREAM_H
#define COMMON_BITSTREAM_H

#include <stdint.h>
#include <stdio.h>

#include "../common/arena.h"
#include "../common/diag.h"
#include "../common/util.h"

typedef struct CfgField {
	uint32_t address;
	int lo, hi;
	int mux;                /* 1: selects of a node; 0: a core register */
	const char *target;     /* node name, or x<X>_y<Y>.<register> */
} CfgField;

typedef struct ConfigMap {
	Arena *arena;
	CfgField *fields;
	int nfields;
	void *index;            /* target -> field */
} ConfigMap;

__give ConfigMap *configmap_load(const char *path, __keep Diags *d);
__give ConfigMap *configmap_load_string(const char *name, const char *text, __keep Diags *d);
void configmap_free(__take ConfigMap *m);
/* The field of a target, or -1. */
int configmap_find(const ConfigMap *m, const char *target);

/* ---- routing graph ---- */

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
	Arena *arena;
	const char *design;
	int cols, rows;         /* rows including the IO row */
	RNode *nodes;
	int nnodes;
	void *index;            /* name -> id */
} RGraph;

__give RGraph *rgraph_load(const char *path, __keep Diags *d);
__give RGraph *rgraph_load_string(const char *name, const char *text, __keep Diags *d);
void rgraph_free(__take RGraph *g);
int rgraph_find(const RGraph *g, const char *name);
/* The select of edge from -> to (its position among to's inputs), or -1. */
int rgraph_select(const RGraph *g, int from, int to);

/* ---- bitstreams ---- */

typedef struct Bitstream Bitstream;

__give Bitstream *bitstream_new(__keep const ConfigMap *m);
void bitstream_free(__take Bitstream *b);
/* Sets a field by target; 0 if there is no such field or the value does
 * not fit its bits. */
int bitstream_set(Bitstream *b, const char *target, uint32_t value);
/* Adds a write of the register holding target's field (value in the field,
 * the register's other bits 0) after all the registers bitstream_write
 * writes, in the order of these calls: for registers written more than once
 * (a memory tile's table loaded through one register) and for writes that
 * must come after others. 0 if there is no such field or the value does not
 * fit. */
int bitstream_append(Bitstream *b, const char *target, uint32_t value);
/* Routes edge from -> to of g: sets to's select if it is a multiplexer
 * (a node with one input needs nothing). 0 if there is no such edge or the
 * map has no field for the multiplexer. */
int bitstream_route(Bitstream *b, const RGraph *g, int from, int to);
/* Writes every register that holds a set field, in address order, as
 * "AAAAAAAA DDDDDDDD" lines (bits of fields not set are 0), then the
 * appended writes. */
void bitstream_write(const Bitstream *b, FILE *f);

#endif
