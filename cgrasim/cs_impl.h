/* cs_impl.h - the fast simulator's insides, shared by its modules (cs.h is
 * its interface): the state of a design being simulated and the functions
 * one module gives another.
 *
 *   cs.c          loading a design, signals, the public cycles (which mode runs them)
 *   cs_fold.c     a PE's instruction folded into its normal form
 *   cs_config.c   the cycles while the array is configured: event by event
 *   cs_compile.c  the configured array compiled and its cycles
 *   cs_watch.c    waveforms, activity, utilization */
#ifndef CGRASIM_CS_IMPL_H
#define CGRASIM_CS_IMPL_H

#include "cs.h"

#include "../collateral/chip.h"
#include "../collateral/memmodel.h"
#include "../collateral/nfops.h"
#include "../collateral/penf.h"
#include "../common/bv.h"
#include "../common/strmap.h"
#include "../common/vec.h"

enum { K_SB_IN, K_SB_OUT, K_REG, K_RMUX, K_PORT_IN, K_PORT_OUT };
enum { CORE_NONE, CORE_PE, CORE_MEM, CORE_IO };

/* A micro-operation of the compiled array: cval[dst] takes op (a normal-form
 * operation, or one below) of cval[a], cval[b], cval[c]. */
/* a PE output copied to its node; a memory tile's outputs; a standing memory
 * tile's output passing its chain input (data masked to the word, valid) */
enum { U_OUT = NF_NUM_OPS, U_MEM, U_PASS, U_PASS_VALID };
typedef struct Uop {
	int op, width, wa, wb, hi, lo;
	int core;                       /* U_OUT: the PE; U_MEM: the memory tile */
	int dst, a, b, c;
	uint64_t mask;                  /* the result's bits */
} Uop;

/* A folded PE operation: slot dst takes op applied to slots a, b, c. */
typedef struct FOp {
	NfOp op;
	int width, wa, wb, hi, lo;
	int dst, a, b, c;
} FOp;

typedef struct Pe {
	int x, y;
	int *in_node, *out_node;        /* per input / output of the PE's info: its node */
	uint64_t *inst;                 /* the instruction word */
	int folded;                     /* the program is that of inst (and of live) */
	unsigned char *live;            /* per output: computed (all while configuring) */
	FOp *ops;
	int nops, cap;
	uint64_t *slot;                 /* inputs, state, constants, then one per operation */
	int nslots;
	int *out_slot, *next_slot;      /* per output, per state variable (-1: not computed) */
	uint64_t *deps;                 /* per output: the inputs it reads within the cycle, a bitset of
					 * BITS_WORDS(inputs) words at deps + o * that */
	uint64_t *needs;                /* the inputs the program reads: bits, BITS_WORDS(ninputs) */
	int dirty, pending;             /* queued for evaluation; its next state differs */
	long busy;                      /* compiled cycles in which an output changed */
	long busy_mark;                 /* the cycle (+1) last counted busy */
	int *map;                       /* compiled: each slot's place in cval */
	unsigned char *direct;          /* compiled: per output, computed into its node's slot */
} Pe;

typedef struct Mem {
	int x, y;
	MemModel *m;
	int *in_node;                   /* per tile input */
	int *out_node, *valid_node;     /* per output: data and valid (-1: none) */
	int *cin_node, *cvalid_node;    /* per output: chain inputs (-1: none) */
	uint64_t *in, *cin;
	int *cvalid;
	int *in_root, *cin_root, *cvalid_root;  /* compiled: slots of cval */
	int *dout, *dvalid;                     /* compiled: the outputs' slots of cval */
	int dirty, begun;
	const MemCycle *cyc;            /* the cycle memmodel_begin last returned */
	int standing;                   /* compiled: tile_en 0, its outputs its chain inputs */
	long busy;                      /* compiled cycles with a storage operation or an output */
	long idle;                      /* compiled: the cycles to come that are quiet (memmodel_quiet),
					 * its outputs its chain inputs, the model not run */
	long passed;                    /* quiet cycles not yet passed to the model (memmodel_pass) */
} Mem;

/* A configuration field as the simulator applies it. */
typedef struct Field {
	uint32_t address;
	int lo, hi;
	int node;                       /* a multiplexer's node, or -1 */
	int pe, word;                   /* a PE's instruction register inst<word>, or pe -1 */
	int mem;                        /* a memory tile's register, or -1 */
} Field;

/* The fields of one bus address. */
/* A configuration register as the simulator keeps it, indexed as config.map's
 * registers (ConfigMap.regs, whose address and field bits it has). */
typedef struct Reg {
	uint32_t value;                 /* what it reads back */
	int first, n;                   /* its fields: into Cs.fields, sorted by address */
} Reg;

struct Cs {
	Chip *chip;
	PeNf *nf;
	Diags *d;
	const RGraph *g;
	int n;                          /* nodes; val[n] is the constant 0 */
	unsigned char *kind;
	uint64_t *val;
	uint64_t *mask;                 /* per node: its width's bits */
	int *sel;                       /* per node: its multiplexer's select */
	int *core, *core_index, *core_port;  /* per port node: its core (CORE_*), which, which port */
	StrMap names;                   /* port names -> node */
	const char **in_ports, **out_ports;
	int nin_ports, nout_ports;
	Pe *pes;
	int npes;
	Mem *mems;
	int nmems;
	Field *fields;
	int nfields;
	Reg *regs;                      /* as the map's registers */
	int nregs;
	/* configuring: events */
	int *queue, qhead, qlen;
	int settled;                    /* the values are this cycle's */
	char err[1024];                 /* the last error */
	char warning[1200];             /* a warning not yet taken by cs_warning */
	char warning_taken[1200];       /* the one cs_warning returned last */
	int strict_loops;               /* a combinational loop is an error */
	int loop_events;                /* the configuration closes a loop: its cycles run event by event */
	int keep_state;                 /* folds keep every PE state variable (see fold) */
	unsigned char *queued, *pending;     /* per node: in the queue; a register whose input changed */
	VEC(int) pending_regs;
	VEC(int) dirty_pes, dirty_mems, pending_pes;
	/* compiled */
	int compiled;
	unsigned char *observed;
	int observe_all;
	int *root;                      /* per node: the slot of val[] that holds its value */
	int *creg, *creg_d;             /* registers in the cone and their inputs' roots */
	int ncregs;
	int *order;                     /* cores in evaluation order: PE k as k, memory k as ~k */
	int norder;
	VEC(int) emits;                 /* compiled: every evaluation of a core, in order */
	VEC(int) run_mems;              /* compiled: the memory tiles that run (tile_en 1), by index */
	/* the values the compiled array reads and writes, packed: cval[dense[r]]
	 * is root r's value while compiled (dense -1: not in the array; 0 is the
	 * constant 0), dnodes[k] the root of cval[k] */
	int *dense, *dnodes, ndense;
	uint64_t *cval;
	int ncval, cval_cap;
	Uop *uops;
	int nuops, uops_cap;
	VEC(int) copies;                /* the clock edge's copies: destination, source; the first
					 * ndirect in an order that reads each value before it is
					 * overwritten, the others (loops of registers) through copy_tmp */
	int ndirect;
	uint64_t *copy_tmp;
	CsStats stats;
	long cycles;
	long run_cycles;                /* cycles of the compiled array */
	/* what the compiled array keeps exact, for waveforms and activity */
	unsigned char *used;            /* per node: its root is in the cone and not the constant 0 */
	VEC(int) used_list;             /* those nodes, in id order */
	uint64_t *last;                 /* per node: the value last written to the waveform or counted */
	FILE *vcd;                      /* the waveform being written, or NULL */
	int vcd_header;                 /* its header is written (at the first compiled cycle) */
	int activity;                   /* count toggles and busy cycles per tile */
	long *tile_toggles, *tile_busy; /* per tile (y * cols + x) */
	unsigned char *tile_now;        /* per tile: busy this cycle */
};

/* The kinds of clock edge while configuring. */
enum { EDGE_RUN, EDGE_FLUSH, EDGE_RESET };

/* cs_fold.c: p's program for its instruction and live outputs; one run of
 * it on its slots; whether its next state differs; its state takes the next. */
void cs_fold(Cs *s, Pe *p);
void cs_run_pe(Pe *p);
int cs_pe_changes(const Cs *s, const Pe *p);
void cs_pe_clock(const Cs *s, Pe *p);

/* cs_config.c: the reason of an error into s->err (returns -1); the slot of
 * val[] node n's multiplexer selects; a memory tile's inputs now (while
 * configuring, from val); a node's new value (what reads it queued); settling, every
 * node queued again, a bus write's fields, a clock edge while configuring. */
int cs_fail(Cs *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
int cs_mux_src(const Cs *s, int n);
void cs_gather_mem(const Cs *s, Mem *m);
void cs_set_node(Cs *s, int n, uint64_t v);
int cs_gen_settle(Cs *s);
void cs_touch_all(Cs *s);
void cs_flush_begin(Cs *s);
void cs_apply_write(Cs *s, int r, uint32_t data);
void cs_gen_edge(Cs *s, int kind);

/* cs_compile.c: the configured array compiled (-2: a combinational loop,
 * named in s->err); a compiled cycle's evaluation and clock edge; a node's
 * value while compiled; each PE's state back where configuring keeps it. */
int cs_compile(Cs *s);
void cs_comp_settle(Cs *s);
void cs_comp_edge(Cs *s);
uint64_t cs_comp_value(const Cs *s, int n);
void cs_unpack_state(Cs *s);

/* cs_watch.c: a compiled cycle, settled, into the waveform and the activity. */
void cs_watch_cycle(Cs *s);

#endif
