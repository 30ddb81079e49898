/* netlist.h - the application as cells and nets of the array (AHA 5.3.1):
 * a PE cell per compute-mapping instance (constants already folded into
 * their instructions), a MEM cell per memory tile of each bank with its
 * solved configuration and per table look-up (the tile's look-up port), an IO cell per pair of an input and an output
 * stream (an IO tile has one of each), and nets from each driver (a core
 * output port) to its sinks (core input ports). Register chains are not
 * cells: each sink asks its route for the number of pipeline registers
 * that the buffer mapping (shift-register taps) and pipelining put between
 * its driver and it, and the router finds them in the switch boxes.
 * Packing (AHA 5.3.1): constants are already folded into instructions;
 * with packing on, the last register before a PE input whose rule can read
 * it through the PE's input register (PeRule.registered) is that register,
 * and the route asks for one fewer. */
#ifndef COMPILER_NETLIST_H
#define COMPILER_NETLIST_H

#include <stdio.h>

#include "backend.h"
#include "../ubuf/ubuf.h"

typedef enum { NL_PE, NL_MEM, NL_IO } NlKind;

typedef struct NlCell {
	NlKind kind;
	char name[40];
	int inst;               /* NL_PE: the compute-mapping instance, or -1 for a delay cell */
	const PeRule *rule;     /* NL_PE: its rule */
	const uint64_t *word;   /* NL_PE: its instruction, constants in, inputs read directly */
	unsigned late;          /* NL_PE: bit j: PE input j is read through its input register */
	int bank, tile;         /* NL_MEM: the bank and the tile of its chain (bank -1: a table) */
	int rom;                /* NL_MEM holding a table (CMap.roms), or -1 */
	int in_stmt, out_stmt;  /* NL_IO: the input and output stream statements, or -1 */
	int x, y;               /* the tile it is placed on, -1 before placement */
} NlCell;

/* What a sink's register count follows from, so that more registers can be
 * asked for it (CMap's extra registers): a PE input, a look-up's address, a
 * kernel's result, or nothing that can change (a chain, an input stream's
 * writes into a memory, a constant). */
typedef enum { NL_FIXED, NL_PE_INPUT, NL_ROM_ADDRESS, NL_RESULT } NlDemand;

typedef struct NlSink {
	int cell;
	const char *port;       /* the core port: routing node x<X>_y<Y>_<port> */
	int regs;               /* pipeline registers on its route */
	int packed;             /* 1: one more, the PE's input register (so regs + 1 in all) */
	NlDemand demand;
	int index;              /* inst * pe->ninputs + j, the look-up, or the kernel */
} NlSink;

typedef struct NlNet {
	const char *name;
	int width;
	int cell;               /* the driver */
	const char *port;
	VEC(NlSink) sinks;
} NlNet;

typedef struct Netlist {
	VEC(NlCell) cells;
	VEC(NlNet) nets;
	int pes, mems, ios;
	int packed;             /* registers packed into PE inputs */
	int delays;             /* delay cells among the PEs (nl_delay_cells) */
	int *io_of_stmt;        /* per statement: its IO cell, or -1 */
	int *mem_of_bank;       /* per bank: the cell of its first tile (tiles follow) */
	int *pe_of_inst;        /* per compute-mapping instance: its cell */
	int *mem_of_rom;        /* per table look-up: its cell */
	Arena *arena;           /* names */
} Netlist;

/* The netlist of u's statements mapped by m (buffers) and cm (kernels) on
 * c's cores, registers packed into the PEs' inputs where their rules allow
 * with pack. 0 with an error in d (a value that no port drives). */
int nl_build(Netlist *n, const UbProgram *u, const UbMap *m, const CMap *cm, const Collateral *c, int pack,
	     __keep Diags *d);
/* Retiming onto the PEs' input registers (delay.c): moves registers
 * through PEs (memories and IOs keep their timing) while that lowers the
 * registers left beyond what each PE input's own register holds (packing
 * them there when pack); returns how many fewer are left. */
int nl_retime_inputs(Netlist *n, const PeInfo *pe, int pack);
/* Registers as cells (delay.c): every net whose width w has no pipeline
 * registers in the routing graph (bit w - 1 of reg_widths clear) and whose
 * sinks ask for some gets a chain of delay cells, PEs running a rule of pe
 * that passes its input through the PE's input register; each such sink
 * reads the cell as many cycles late as it asked, with no register on its
 * route. 0 with an error in d (d NULL: none) naming the net, the sink and
 * what it lacks when pe has no such rule for w. */
int nl_delay_cells(Netlist *n, const PeInfo *pe, uint64_t reg_widths, const char *app, __keep Diags *d);
/* Moves the packed register of sink k of net i back onto its route. */
void nl_unpack(Netlist *n, const CMap *cm, int i, int k);
/* The instruction of PE cell c (its rule's, inputs read late per c->late):
 * BITS_WORDS(inst_width) words into word. */
void nl_pe_word(const Netlist *n, const CMap *cm, int cell, uint64_t *word);
void nl_free(Netlist *n);
/* The input of rule r that PE input j carries, or -1. */
int nl_rule_input(const PeRule *r, int j);
/* Cells, and nets with their sinks and register counts, for people. */
void nl_print(const Netlist *n, FILE *f);

#endif
