/* cmap.h - compute mapping (AHA 5.2.1): each kernel DAG of hl_dfg.h covered
 * by the rewrite rules of the PE's `<pe>.rules.yaml`, read through
 * collateral/peinfo and nothing else.
 *
 * A rule matches a DAG node either by its IR operation (the node's op, its
 * operands in the operation's order) or by its pattern, a tree of IR
 * operations whose `const(k)` leaves fold constants into instruction fields
 * and whose interior nodes must have no other user. Commutative operations
 * match either way round. The cover is chosen node by node, producers
 * first, for the fewest PEs (an unfolded constant costs a PE of its own),
 * then the shortest delay (the rules' costs), then the rules' order; nodes
 * with several users are the roots of their own matches. */
#ifndef COMPILER_CMAP_H
#define COMPILER_CMAP_H

#include <stdio.h>

#include "../lower/lower.h"

/* One PE: a rule at a DAG node with its instruction. */
typedef struct CmInst {
	int kernel;
	int node;               /* the node whose value it computes */
	const PeRule *rule;
	int form_pattern;       /* matched by the pattern (1) or by the IR operation (0) */
	uint64_t *word;         /* BITS_WORDS(inst_width): the instruction, constants included */
	int *in;                /* per PE input (PeInfo.inputs): the node feeding it, or -1 */
	int out;                /* the PE output (PeInfo.outputs) that carries the value */
	int covered;            /* DAG nodes the match covers (constants folded included) */
	int stage;              /* pipeline registers between the kernel's inputs and this PE's
				 * inputs (cm_pipeline); a constant PE has none and is never waited for */
	int constant;           /* no inputs: its output never changes */
} CmInst;

/* A table look-up: a DAG node read from the look-up port of a memory tile
 * (MemInfo.lookup) holding the table. */
typedef struct CmRom {
	int kernel;
	int node;               /* the DN_ROM node */
	int table;              /* the table's Func (DNode.buffer) */
	int addr;               /* the node whose value is the tile's read address */
	int offset;             /* entry i of the table is stored at address i + offset (the
				 * index's `sub(x, const k)` taken into the placement of the table) */
	int64_t entries;
	int stage;              /* cycles from the kernel's inputs to its word (cm_pipeline) */
} CmRom;

typedef struct CMap {
	const DGraph *g;
	const PeInfo *pe;
	const MemInfo *mem;     /* the memory tile (its look-up port), or NULL */
	VEC(CmInst) insts;
	VEC(CmRom) roms;
	int **inst_of;          /* [kernel][node]: the instance computing it, or -1 */
	int **rom_of;           /* [kernel][node]: the look-up reading it, or -1 */
	int folded;             /* constants folded into instruction fields */
	int *latency;           /* per kernel: cycles from its loads to its result (cm_pipeline) */
	/* Registers asked beyond pipelining's, for timing (long routes, AHA 5.4): */
	int *extra_in;          /* [inst * pe->ninputs + j]: on PE input j of instance inst */
	int *extra_rom;         /* per look-up: on its address */
	int *extra_out;         /* per kernel: after its result, before the buffers and outputs */
	int pipelined;          /* cm_pipeline's `on` */
	double seconds;
} CMap;

/* Covers every kernel of g with pe's rules, and puts each table look-up on
 * a memory tile's look-up port (mem may be NULL: none). 0 with an error in d
 * naming the operation, the PE and the application line when a node has no
 * rule, or a table that the tile cannot hold. */
int cm_map(CMap *m, const DGraph *g, const PeInfo *pe, const MemInfo *mem, __keep Diags *d);
void cm_free(CMap *m);

/* Pipelining (AHA 5.4): with on, a register before every PE and every path
 * balanced: a PE's stage is one more than the latest stage among the PEs
 * and look-ups feeding it (loads are stage 0), and each of its inputs gets
 * as many registers as its stage minus its producer's; the kernel's latency
 * is its result's stage. A look-up's word comes the look-up port's latency
 * after its address. Without, PEs add no stage (combinational kernels; only
 * look-ups take cycles). The extra registers (zero after cm_map; the back
 * end raises them for long routes) lengthen their connections and the
 * stages and latencies after them, every path still balanced. */
void cm_pipeline(CMap *m, int on);
/* Registers the netlist puts on PE input j of instance i: the stage
 * difference to its producer (a load is stage 0; a constant needs none). */
int cm_input_regs(const CMap *m, int i, int j);
/* Registers on the address of look-up r (from its producer). */
int cm_rom_input_regs(const CMap *m, int r);

/* The mapped kernels as JSON (compiler/README.md, `<app>.mapped.json`). */
void cm_write_json(const CMap *m, FILE *f);
/* Rule use counts, for people. */
void cm_print(const CMap *m, FILE *f);

#endif
