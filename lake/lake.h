/* lake.h - Lake memory specifications (docs/mem.md): a graph of
 * storage units (SRAMs, register files) with ports, the tile's input and
 * output word ports, and the edges between them, plus what the controllers
 * (iteration domains, address and schedule generators) may do and an
 * optional table look-up (docs/mem.md). This is the reading and checking
 * of a spec; generators start from a LakeSpec. */
#ifndef LAKE_H
#define LAKE_H

#include "../common/arena.h"
#include "../common/diag.h"
#include "../collateral/meminfo.h"
#include "../common/yamlr.h"

#include <stdio.h>

typedef enum { LAKE_SRAM, LAKE_REGFILE } LakeKind;
/* Bit flags: a readwrite port can do both. */
typedef enum { LAKE_READ = 1, LAKE_WRITE = 2, LAKE_READWRITE = 3 } LakeOp;

typedef struct LakePort {
	const char *name;
	LakeOp op;
	int width;          /* words per access (divides the unit's fetch) */
	int latency;        /* cycles from issuing the operation to the data */
	int ii;             /* cycles between successive operations */
	int line, col;
} LakePort;

typedef struct LakeUnit {
	const char *name;
	LakeKind kind;
	int words;          /* capacity in words */
	int fetch;          /* words per storage row (the wide-fetch width) */
	LakePort *ports;
	int nports;
	int line, col;
} LakeUnit;

/* An edge end: a storage port (unit >= 0) or the tile's input or output word
 * port number `port` (unit == LAKE_TILE_IN or LAKE_TILE_OUT). */
enum { LAKE_TILE_IN = -1, LAKE_TILE_OUT = -2 };
/* Edges per tile: each may need two controllers, each a configuration feature. */
#define LAKE_MAX_EDGES 126
typedef struct LakeEnd {
	int unit, port;
} LakeEnd;

typedef struct LakeEdge {
	LakeEnd src, dst;
	int line, col;
} LakeEdge;

typedef enum { LAKE_AFFINE_RECURRENCE, LAKE_AFFINE_MULTIPLY } LakeAffine;

/* `lookup: { port, addr, out }`: tile input `in` addresses the words of the
 * unit of storage port `port`, which reads them for tile output `out`
 * (lake/COLLATERAL.md, "Table look-up"). */
typedef struct LakeLookup {
	int present;
	LakeEnd port;
	int in, out;            /* tile input and output numbers */
	int line, col;
} LakeLookup;

typedef struct LakeSpec {
	const char *name;
	const char *file;
	int word;               /* bits per word */
	LakeUnit *units;
	int nunits;
	const char **ins, **outs; /* the tile's word ports */
	int nins, nouts;
	LakeEdge *edges;
	int nedges;
	int dims;               /* loop levels of each iteration domain */
	int counter_bits;       /* width of every counter and affine value */
	LakeAffine affine;
	int share;              /* coupled edges share a schedule generator */
	int chain;              /* tiles can be chained for larger buffers */
	LakeLookup lookup;      /* at most one table look-up */
} LakeSpec;

typedef struct LakeFile {
	Arena *arena;
	YDoc *doc;
	LakeSpec *spec;
} LakeFile;

/* Reads and checks a spec; NULL if it has errors (all reported to d). */
__give LakeFile *lake_load(const char *path, __keep Diags *d);
__give LakeFile *lake_load_string(const char *name, const char *text, __keep Diags *d);
void lake_file_free(__take LakeFile *f);

/* Total capacity in words over all storage units of kind k. */
long lake_capacity(const LakeSpec *s, LakeKind k);
/* "unit.port", "in0" and so on for messages (in the file's arena). */
const char *lake_end_name(const LakeFile *f, LakeEnd e);

/* The collateral's view of a checked spec (controllers and configuration
 * registers derived, lake/COLLATERAL.md). */
__give MemInfo *lake_info(const LakeSpec *s);
/* Writes the tile's Verilog (lake/COLLATERAL.md) for mi. */
void lake_verilog(const MemInfo *mi, FILE *f);
/* Writes the controllers' semantics as SMT-LIB 2 (`<mem>.smt2`). */
void lake_smt2(const MemInfo *mi, FILE *f);

#endif
