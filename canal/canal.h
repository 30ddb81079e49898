/* canal.h - Canal interconnect specs (docs/interconnect.md) and the graph
 * built from them (canal/COLLATERAL.md): the array, the cores it holds, and
 * the directed graph of switch boxes, connection boxes and pipeline
 * registers from which the Verilog, routing.graph and config.map follow. */
#ifndef CANAL_H
#define CANAL_H

#include <stdint.h>
#include <stdio.h>

#include "../common/arena.h"
#include "../collateral/coreinfo.h"
#include "../common/diag.h"
#include "../common/gstore.h"
#include "../common/yamlr.h"

#define CANAL_MAX_WIDTHS 4
#define CANAL_MAX_TRACKS 32
#define CANAL_MAX_DIM 255
/* The size of an interconnect: tiles (IO row included) times tracks per
 * direction over all networks. At this bound canal builds about 4.2 million
 * nodes in about 20 s and 1.8 GB (docs/interconnect.md, "Limits"). */
#define CANAL_MAX_TRACK_TILES 262144
/* The inputs of one multiplexer, edits included (RGRAPH_MAX_FANIN of the
 * readers, collateral/rgraph.h). */
#define CANAL_MAX_FANIN 1024

typedef enum { SB_DISJOINT, SB_WILTON, SB_IMRAN } CanalTopology;
enum { SIDE_N, SIDE_E, SIDE_S, SIDE_W };

typedef struct CanalEdit {
	int add;                /* 1 add, 0 remove */
	const char *from, *to;
	int line, col;
} CanalEdit;

/* Every `every`-th column or row from `first`: index i matches when
 * i >= first and (i - first) % every == 0. every 0 is no pattern given,
 * which matches every index. */
typedef struct CanalPattern {
	int every, first;
} CanalPattern;

typedef struct CanalSpec {
	const char *name;
	int name_line, name_col;
	const char *file;
	int cols, rows;          /* core rows; row 0 of the array is IO */
	const char *pe_spec, *mem_spec;   /* paths as written (relative to the spec's folder) */
	const char *pe_path, *mem_path;   /* resolved */
	int pe_line, pe_col, mem_line, mem_col;
	CanalPattern mem_cols;            /* the columns of memory tiles */
	int has_mem;
	int nwidths;
	int width[CANAL_MAX_WIDTHS];      /* in the order given */
	int tracks[CANAL_MAX_WIDTHS];
	CanalTopology topology;
	int cb_all;                       /* connection boxes see every track */
	int cb_tracks[CANAL_MAX_TRACKS];  /* else these */
	int ncb_tracks;
	int sb_registers;
	CanalPattern reg_cols, reg_rows;  /* the tiles with those registers */
	CanalEdit *edits;
	int nedits;
} CanalSpec;

typedef struct CanalFile {
	Arena *arena;
	YDoc *doc;
	CanalSpec *spec;
} CanalFile;

__give CanalFile *canal_load(const char *path, __keep Diags *d);
/* The design's name against the names of its cores (the `pe:` and `mem:` of
 * their specs; mem NULL without memory tiles): no two modules of cgra.v,
 * <pe>.v and <mem>.v may share a name. The design's modules are <name> and
 * <name>_{io,pe,mem}_{tile,ic}[_N] (canal/COLLATERAL.md), the PE's <pe>, the
 * memory's <mem> and <mem>_*. 0 with errors at the name (or at the PE spec)
 * in d. */
int canal_check_names(const CanalSpec *s, const char *pe, const char *mem, __keep Diags *d);
__give CanalFile *canal_load_string(const char *name, const char *text, __keep Diags *d);
void canal_file_free(__take CanalFile *f);

/* ---- the graph ---- */

typedef enum { CN_SB_IN, CN_SB_OUT, CN_REG, CN_RMUX, CN_PORT_IN, CN_PORT_OUT } CanalNodeKind;
typedef enum { TILE_IO, TILE_PE, TILE_MEM } CanalTileKind;

typedef struct CanalNode {
	CanalNodeKind kind;
	int width, x, y;
	int side, track;        /* -1 when not a track node */
	const char *name;
	int *in;                /* incoming edges: source node ids, in select order */
	int nin;
	int *out;
	int nout;
} CanalNode;

typedef struct CanalGraph {
	GStore store;           /* node names, their index and the arena */
	const CanalSpec *spec;
	const CoreInfo *pe, *mem, *io;
	CanalNode *nodes;
	int nnodes, capnodes;
} CanalGraph;

/* 1 if column or row i is one of pattern p's. */
int canal_pattern_match(const CanalPattern *p, int i);
/* The kind of tile at (x, y). */
CanalTileKind canal_tile_kind(const CanalSpec *s, int x, int y);
/* 1 if the switch-box outputs of tile (x, y) have registers: x matches
 * reg_cols and y reg_rows; the IO row (y 0) follows reg_cols alone. */
int canal_tile_registers(const CanalSpec *s, int x, int y);
const CoreInfo *canal_tile_core(const CanalGraph *g, int x, int y);

/* Builds the graph by its passes; NULL (errors in d, at the spec's edits)
 * if an edit names an unknown node or edge, joins two widths, drives a core
 * output, repeats a multiplexer's input or closes a loop with no register on
 * it within one tile or two (docs/interconnect.md, "Edits"). */
__give CanalGraph *canal_build(const CanalSpec *s, const CoreInfo *pe, const CoreInfo *mem,
			       const CanalFile *f, __keep Diags *d);
void canal_graph_free(__take CanalGraph *g);
int canal_find(const CanalGraph *g, const char *name);
/* The track a topology connects track t of side si to on side so (T tracks). */
int canal_sb_track(CanalTopology topo, int si, int so, int t, int T);
/* Estimated delay of a node in ns (canal/COLLATERAL.md). */
double canal_node_delay(const CanalNode *n);

/* ---- configuration ---- */

#define CANAL_FEATURE 0x80      /* the interconnect's registers in a tile */

typedef enum { FIELD_MUX, FIELD_CORE } CanalFieldKind;

/* A configuration field: bits lo..hi of the 32-bit register at `address`
 * (x and y included). A mux field holds the select of node `node`; a core
 * field is register `reg` of the tile's core. */
typedef struct CanalField {
	CanalFieldKind kind;
	uint32_t address;
	int lo, hi;
	int node;               /* FIELD_MUX */
	int x, y, reg;          /* FIELD_CORE: index into the core's regs */
} CanalField;

/* Every configuration field of the array, tile by tile (row-major), core
 * fields first; returns the count, *out owned by the caller. */
int canal_fields(const CanalGraph *g, CanalField **out);
/* Bits to select among n inputs (0 for n <= 1). */
int canal_sel_bits(int n);

/* Writers of the collateral (canal/COLLATERAL.md). */
void canal_write_graph(const CanalGraph *g, FILE *f);
void canal_write_map(const CanalGraph *g, const CanalField *fields, int nfields, FILE *f);
void canal_write_design(const CanalGraph *g, FILE *f);
/* cgra.v: a module per group of identical tiles and the top module named
 * after the design (canal/canal_verilog.c). */
void canal_verilog(const CanalGraph *g, const CanalField *fields, int nfields, FILE *f);

#endif
