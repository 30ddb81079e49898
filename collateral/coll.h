/* coll.h - what the compiler reads of a chip's collateral
 * (rtl_out/<design>/, docs/architecture.md): the array's tiles and the PE
 * named by design.yaml (read by collateral/design.h), the PE's word
 * width (the widest data input of <pe>.info.yaml) and the IR
 * operations its <pe>.rules.yaml knows (those with a rule and those it
 * lists as unsupported), read through collateral/peinfo; and the memory tile:
 * <mem>.info.yaml (collateral/meminfo) and the text of <mem>.smt2. The PE's info
 * and rules stay loaded for compute mapping, the manifest for the back end,
 * which reads the interconnect's files it names through collateral/ic. Every
 * rule and every unsupported operation of the rules file must name an IR
 * operation of the compiler (coll_ir_ops), each rule binding its inputs,
 * params and output. */
#ifndef COLLATERAL_COLL_H
#define COLLATERAL_COLL_H

#include "../common/diag.h"
#include "design.h"
#include "ic.h"
#include "meminfo.h"
#include "peinfo.h"
#include "../common/strmap.h"

typedef struct Collateral {
	char *dir;              /* the design's collateral directory */
	Design *design;         /* its manifest */
	char *pe;               /* the PE's name */
	PeInfo *peinfo;         /* its instruction layout and rules */
	char *rules_file;       /* <pe>.rules.yaml */
	int word;               /* bits */
	StrMap ops;             /* IR operation -> 1 with a rule, 0 unsupported */
	MemInfo *mem;           /* the memory tile, NULL if the design has none */
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

/* 0 with errors in d. */
int coll_load(const char *dir, Collateral *c, __keep Diags *d);
/* The routing graph and configuration map the manifest names, checked
 * against it and the cores (collateral/ic.h); 0 with errors in d, flushed. */
int coll_load_interconnect(const Collateral *c, Interconnect *ic, __keep Diags *d);
void coll_free(Collateral *c);
int coll_has_op(const Collateral *c, const char *op);

#endif
