/* coll.h - what the compiler reads of a chip's collateral
 * (rtl_out/<design>/, docs/architecture.md): the manifest and the cores,
 * loaded and checked against each other by collateral/chip (the PE's info and
 * rules, the memory tile's info), and what only the compiler takes of them:
 * the array's tiles, the PE's word width (the widest data input of
 * <pe>.info.yaml), the IR operations its <pe>.rules.yaml knows (those with a
 * rule and those it lists as unsupported) and the text of <mem>.smt2. The
 * PE's info and rules stay loaded for compute mapping, the manifest for the
 * back end, which reads the interconnect's files it names through
 * collateral/ic. Every rule and every unsupported operation of the rules file
 * must name an IR operation of the compiler (coll_ir_ops), each rule binding
 * its inputs, params and output. */
#ifndef COLLATERAL_COLL_H
#define COLLATERAL_COLL_H

#include "../common/diag.h"
#include "chip.h"
#include "ic.h"
#include "../common/strmap.h"

typedef struct Collateral {
	Chip *chip;             /* the manifest and the cores' collateral */
	char *pe;               /* the PE's name */
	PeInfo *peinfo;         /* its instruction layout and rules: the chip's */
	char *rules_file;       /* <pe>.rules.yaml */
	int word;               /* bits */
	StrMap ops;             /* IR operation -> 1 with a rule, 0 unsupported */
	MemInfo *mem;           /* the memory tile, the chip's; NULL if the design has none */
	int cols, rows;         /* tiles, rows including the IO row 0 */
	char **tiles;           /* rows strings of cols kinds: 'I' (IO), 'P' (PE), 'M' (MEM) */
	char *mem_smt2;         /* the text of <mem>.smt2 */
} Collateral;

/* An IR operation of the compiler: its name, the one-letter names of its
 * inputs and of its params (its output is 'out'). */
typedef struct CollIrOp {
	const char *name, *inputs, *params;
} CollIrOp;

/* The IR operations of the compiler (peak/ir/ops.yaml), in its order, up to
 * one whose name is NULL. */
extern const CollIrOp coll_ir_ops[];

/* Reads DIR's manifest and cores (chip_load) and what the compiler takes of
 * them. 0 with errors in d, flushed. */
int coll_load(const char *dir, Collateral *c, __keep Diags *d);
/* The routing graph and configuration map the chip's manifest names,
 * checked against it and the cores (collateral/ic.h), given to the caller;
 * 0 with errors in d, flushed. */
int coll_load_interconnect(const Collateral *c, Interconnect *ic, __keep Diags *d);
void coll_free(Collateral *c);
int coll_has_op(const Collateral *c, const char *op);

#endif
