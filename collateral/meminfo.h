/* meminfo.h - what the compiler knows about a memory tile: the contents of
 * `<mem>.info.yaml` (lake/COLLATERAL.md). Lake builds a MemInfo from a spec and
 * writes it; the compiler, the functional model (memmodel.h) and the
 * configuration solver (memsolve.h) read it back and never see the spec. */
#ifndef COMMON_MEMINFO_H
#define COMMON_MEMINFO_H

#include <stdint.h>
#include <stdio.h>

#include "affine.h"
#include "../common/arena.h"
#include "../common/diag.h"
#include "../common/util.h"

#define MEM_MAX_DIMS 16
/* Limits of a storage unit and its ports (the spec checker and the
 * collateral reader agree on them). */
#define MEM_MAX_WORDS (1 << 24)
#define MEM_MAX_FETCH 64
#define MEM_MAX_LATENCY 16
#define MEM_MAX_II 16

typedef enum { MEM_SRAM, MEM_REGFILE } MemKind;
typedef enum { MEM_READ = 1, MEM_WRITE = 2, MEM_READWRITE = 3 } MemOp;
typedef enum { MEM_RECURRENCE, MEM_MULTIPLY } MemAffine;
/* The roles of Fig. 7 of the AHA paper. */
typedef enum { ROLE_SOLVE, ROLE_SET0, ROLE_SET1, ROLE_SEQUENCE, ROLE_X, ROLE_CLK, ROLE_RST } MemRole;

typedef struct MemPortInfo {
	const char *name;
	MemOp op;
	int width;              /* words per access */
	int latency, ii;
	int addr_bits;          /* log2(words / width) */
} MemPortInfo;

typedef struct MemUnitInfo {
	const char *name;
	MemKind kind;
	int words, fetch;       /* powers of two */
	int chained;            /* SRAM of a chain: address generators are counter_bits wide */
	MemPortInfo *ports;
	int nports;
} MemUnitInfo;

/* An edge end: a storage port, or tile input/output number `port`. */
enum { MEM_TILE_IN = -1, MEM_TILE_OUT = -2 };
typedef struct MemEnd {
	int unit, port;
} MemEnd;

typedef enum { MEM_SIDE_BOTH, MEM_SIDE_READ, MEM_SIDE_WRITE } MemSide;

/* An affine generator: its start register and one step register per level
 * (strides or recurrence deltas, see MemInfo.affine). Register ids index
 * MemInfo.regs. */
typedef struct MemGen {
	int width;              /* bits of the value */
	int start;
	int step[MEM_MAX_DIMS];
} MemGen;

/* An address generator of a controller, for one storage end of its edge. */
typedef struct MemAddrGen {
	MemEnd end;
	MemGen gen;
} MemAddrGen;

typedef struct MemCtrl {
	const char *name;       /* e0, e3r, e3w, ... (the register name prefix) */
	int edge;
	MemSide side;
	int en;                 /* register ids */
	int max[MEM_MAX_DIMS];  /* extent - 1 of each level */
	MemGen sched;
	MemAddrGen *src, *dst;  /* NULL when that end is a tile port, is not this side's, or has one slot */
} MemCtrl;

typedef struct MemEdgeInfo {
	MemEnd src, dst;
	int latency;            /* of the source: 0 for a tile input */
	int width;              /* words moved */
	int ctrl[2];            /* controllers: [0] read side or only, [1] write side or -1 */
} MemEdgeInfo;

typedef struct MemReg {
	const char *name;
	int width;              /* 1..32 */
	int feature, index;     /* address = index << 24 | feature << 16 */
	MemRole role;
	const char *doc;        /* what it sets */
} MemReg;

/* The table look-up port (the spec's `lookup:`, lake/COLLATERAL.md "Table
 * look-up"); unit -1 in port when the tile has none. A builder that zeroes a
 * MemInfo sets port.unit to -1 before meminfo_derive (unit 0 is a unit). */
typedef struct MemLookup {
	MemEnd port;            /* the storage port read at the looked-up address */
	int in, out;            /* tile input carrying the word address; tile output delivering the word */
	int latency;            /* cycles from the address at `in` to the word at `out` (the port's latency) */
	int words;              /* addressable words (the unit's words) */
	int en, wr;             /* register ids: lookup_en (1 bit), lookup_wr (32 bits) */
	int load;               /* the port of the same unit that lookup_wr writes through: its first
				 * write-capable one */
} MemLookup;

/* An interface signal of the tile module and its role for the solver. */
typedef struct MemSignal {
	const char *name;
	int input;
	int width;
	MemRole role;
} MemSignal;

typedef struct MemInfo {
	Arena *arena;
	const char *name;
	const char *verilog;    /* file name of the module */
	int word;
	int dims, counter_bits;
	MemAffine affine;
	int share, chain;
	MemUnitInfo *units;
	int nunits;
	const char **ins, **outs;
	int nins, nouts;
	MemEdgeInfo *edges;
	int nedges;
	MemCtrl *ctrls;
	int nctrls;
	MemReg *regs;
	int nregs;
	int tile_en, chain_id;  /* register ids; chain_id -1 without chaining */
	MemLookup lookup;       /* derived: latency, words, en, wr, load */
	MemSignal *signals;
	int nsignals;
} MemInfo;

/* Reads `<mem>.info.yaml`; NULL (errors in d) if it is malformed or
 * inconsistent. */
__give MemInfo *meminfo_load(const char *path, __keep Diags *d);
__give MemInfo *meminfo_load_string(const char *name, const char *text, __keep Diags *d);
void meminfo_write(const MemInfo *mi, FILE *f);
void meminfo_free(__take MemInfo *mi);

/* Helpers for builders and readers. */
const char *mem_role_name(MemRole r);
const char *mem_end_name(const MemInfo *mi, MemEnd e);   /* in mi's arena */
long mem_config_bits(const MemInfo *mi);
uint32_t mem_reg_address(const MemReg *r);
/* The register with this name, or -1. */
int mem_reg_find(const MemInfo *mi, const char *name);

/* Sets generator g's registers to compute the affine map a (levels beyond
 * a->dims get extent 1 and stride 0): strides, or recurrence deltas; values
 * masked to the generator's width. */
void mem_set_gen(const MemInfo *mi, const MemGen *g, const AffineMap *a, uint32_t *regs);

/* Does the tile have a table look-up? */
int mem_has_lookup(const MemInfo *mi);

/* Fills the derived parts of a MemInfo whose units, tile ports, edges,
 * controller options and look-up port (lookup.port, .in, .out) are set: edge
 * latencies and widths, controllers, the look-up's latency, words and load
 * port, configuration registers and interface signals. Lake calls it after reading
 * a spec; the reader calls it and then checks the file against the result. */
void meminfo_derive(MemInfo *mi);

#endif
