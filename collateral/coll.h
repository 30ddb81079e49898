/* coll.h - what the compiler reads of a chip's collateral
 * (rtl_out/<design>/, docs/architecture.md): the array's tiles and the PE
 * named by design.yaml (read by collateral/design.h), the PE's word
 * width (the widest data input of <pe>.info.yaml) and the IR
 * operations its <pe>.rules.yaml knows (those with a rule and those it
 * lists as unsupported), read through collateral/peinfo; and the memory tile:
 * <mem>.info.yaml (collateral/meminfo) and the text of <mem>.smt2. The PE's info
 * and rules stay loaded for compute mapping. */
#ifndef COLLATERAL_COLL_H
#define COLLATERAL_COLL_H

#include "../common/diag.h"
#include "meminfo.h"
#include "peinfo.h"
#include "../common/strmap.h"

typedef struct Collateral {
	char *dir;              /* the design's collateral directory */
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

/* 0 with errors in d. */
int coll_load(const char *dir, Collateral *c, __keep Diags *d);
void coll_free(Collateral *c);
int coll_has_op(const Collateral *c, const char *op);

#endif
