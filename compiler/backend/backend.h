/* backend.h - the back end, the one header other folders include: compute
 * mapping with the PE's rewrite rules and pipelining (cmap.c), the register
 * requests by which later stages ask pipelining for registers, and the
 * stages from mapped buffers and kernels to a configured array: the netlist
 * (netlist.c), placement (place.c), routing on routing.graph and retiming
 * (route.c, retime.c), static timing from the collateral's delays
 * (be_timing.c), the bitstream from config.map (be_bits.c), and the files of
 * build/<design>/<app>/ (be_files.c): <app>.mapped.json, .place, .route,
 * .bs, .io.yaml, .report.yaml and .svg. backend.c holds the stages together
 * (be.h). */
#ifndef COMPILER_BACKEND_H
#define COMPILER_BACKEND_H

#include <stdint.h>
#include <stdio.h>

#include "../lower/lower.h"
#include "../ubuf/ubuf.h"

/* ---- compute mapping (cmap.c) ----
 * Compute mapping (AHA 5.2.1): each kernel DAG (lower.h) covered
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
	int64_t base;           /* its first entry: 0, or a part's of a split table (DNode.base) */
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

/* ---- register requests ----
 * After placement, a connection longer than the hop limit allows for its
 * registers asks for more (AHA 5.4). A request names what the sink's
 * register count follows from and the extra registers it wants there; the
 * flow grants them (cm_grant_registers) and pipelines, schedules the buffers
 * and places again. */

typedef enum {
	REG_PE_INPUT,           /* index: inst * pe->ninputs + j (CMap.extra_in) */
	REG_ROM_ADDRESS,        /* index: the look-up (CMap.extra_rom) */
	REG_RESULT              /* index: the kernel, after its result (CMap.extra_out) */
} RegTarget;

typedef struct RegRequest {
	RegTarget target;
	int index;
	int extra;              /* the extra registers wanted there (at least) */
} RegRequest;

typedef VEC(RegRequest) RegRequests;

/* Raises each target's extra registers to what its requests want (never
 * lowers them); cm_pipeline then balances every path around them. */
void cm_grant_registers(CMap *m, const RegRequests *r);
/* Registers asked for beyond pipelining's (per target, not per sink). */
int cm_extra_registers(const CMap *m);

/* ---- the back end's stages (backend.c) ---- */

typedef struct BeOptions {
	uint64_t seed;          /* the placer's */
	int quiet;
	int hop_limit;          /* tiles a value may cross between registers (0: no limit) */
	int pack;               /* registers packed into the PEs' input registers (AHA 5.3.1) */
} BeOptions;

/* A file of the set written together: OUT/<app>.<ext>. */
typedef struct BeFile {
	const char *ext;
	void (*write)(const void *arg, FILE *f);
	const void *arg;
} BeFile;

/* The earlier stages' times, for the report. */
typedef struct BeSeconds {
	double front_end, buffers, compute_mapping, netlist, placement, routing;
} BeSeconds;

typedef struct Backend Backend;

/* A back end for app (its file name) on c's chip; o and c are __keep and
 * must outlive it. */
__give Backend *be_new(const char *app, const Collateral *c, const BeOptions *o);
void be_free(__take Backend *B);

/* The netlist of u's statements mapped by m and cm (cm's registers after
 * pipelining; __keep, they must outlive the stages that follow). Replaces
 * the previous round's netlist, placement and routes; reads routing.graph
 * and config.map the first time. When the graph has no pipeline registers
 * at all, the registers are first retimed onto the PEs' input registers;
 * those a net of a width without them still needs become delay cells.
 * 0 with errors in d. */
int be_netlist(Backend *B, const UbProgram *u, const UbMap *m, const CMap *cm, __keep Diags *d);
/* Whether pipelining can still be lowered: if so, a netlist needing delay
 * cells that the PE cannot make is built without an error, be_lacking
 * saying so, for the flow to lower pipelining and build it again. */
void be_netlist_lowerable(Backend *B, int may_lower);
int be_lacking(const Backend *B);
/* The netlist's delay cells: PEs holding the registers its routes cannot
 * (netlist.h, nl_delay_cells). */
int be_delay_cells(const Backend *B);
/* PE cells beyond the array's PE tiles, 0 if they fit. */
int be_pe_overflow(const Backend *B);
/* Places the netlist (the same netlist and seed, the same placement); a
 * register packed into a PE input whose route would then be too long for
 * the hop limit goes back onto the route. 0 with an error in d when the
 * application does not fit (needed vs available tiles). */
int be_place(Backend *B, __keep Diags *d);
/* After placement: the sinks whose routes cross more tiles than the hop
 * limit allows for their registers, as requests appended to r (one per
 * sink). Returns how many sinks asked. */
int be_register_requests(const Backend *B, RegRequests *r);
/* Routes every net (the router's report and an error in d when it cannot),
 * then moves each net's registers along its tree to cut its longest
 * stretch. */
int be_route(Backend *B, __keep Diags *d);
/* Static timing and the bitstream; 0 with an (internal) error in d. */
int be_bitstream(Backend *B, __keep Diags *d);

/* Each stage's result, for people (--emit). */
void be_print_mapped(const Backend *B, FILE *f);
void be_print_place(const Backend *B, FILE *f);
void be_print_route(const Backend *B, FILE *f);
void be_print_bitstream(const Backend *B, FILE *f);
/* Writes, together or not at all, OUT/<app>.mapped.json, .place, .route,
 * .bs, .io.yaml, .report.yaml and .svg, and the extra files of the earlier
 * stages; 0 if a file cannot be written. */
int be_write(const Backend *B, const char *out, const BeFile *extra, int nextra, const BeSeconds *s);
/* One line: what the application uses of the array, its clock and latency,
 * and how long placement, routing and the whole compile (total) took. */
void be_summary(const Backend *B, const BeSeconds *s, double total, FILE *f);
/* The figures of <app>.report.yaml a table of applications shows, once the
 * bitstream is made. */
typedef struct BeFigures {
	int pes, mems, registers, tracks16, tracks1;
	double clock_mhz;
	long long latency;
} BeFigures;
void be_figures(const Backend *B, BeFigures *f);

#endif
