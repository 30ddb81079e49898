/* hl_prep.h - the memory optimizations of the scheduling step (AHA 5.1,
 * Unified Buffer 4.1) applied to a parsed program before it is lowered:
 *   - constant Funcs (reading no image) are evaluated at compile time; a read
 *     at constant indices becomes an immediate (stencil taps), a read at a
 *     computed index stays a read of a ROM (a look-up table);
 *   - Funcs without a compute level are inlined into their consumers;
 *   - reductions are fused into one update: sum() always, an update whose
 *     reduction domain is unrolled (or whose Func is inlined) into the pure
 *     definition, additions as a balanced tree;
 *   - every other Func (compute_root / compute_at, and the output) is stored
 *     and keeps its definitions, rewritten to read only stored Funcs,
 *     streamed images and ROMs. */
#ifndef COMPILER_HL_PREP_H
#define COMPILER_HL_PREP_H

#include "../front/front.h"

typedef struct HPrep {
	HProgram *p;
	HRegions reg;
	char *is_const;         /* per Func: reads no image */
	char *stored;           /* per Func: realized in a buffer */
	char *rom;              /* per Func: a constant table read at a computed index */
	HTable *tables;         /* per Func: values of the constant ones */
	HExpr **inlined;        /* per Func: its single (fused) definition, when inlined */
	char *inline_state;
	Diags *d;
} HPrep;

/* Rewrites p's stored Funcs in place; 0 with errors in d (a reduction that
 * cannot be fused into an inlined Func, ...). */
int hp_prepare(HPrep *P, HProgram *p, __keep Diags *d);
void hp_free(HPrep *P);
/* Folds reads of constant tables at constant indices in e. */
HExpr *hp_fold_tables(HPrep *P, HExpr *e);

#endif
