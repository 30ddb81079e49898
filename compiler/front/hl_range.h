/* hl_range.h - interval analysis of expressions: the values an expression can
 * take given intervals for its variables, under Halide's semantics (a result
 * that may wrap around its type gives the type's whole range). Used for
 * bounds inference (the region of a Func or image that is read), the size of
 * look-up tables, and to prove that wide intermediates fit the hardware word. */
#ifndef COMPILER_HL_RANGE_H
#define COMPILER_HL_RANGE_H

#include "front.h"

typedef struct Interval {
	int64_t lo, hi;         /* inclusive; lo > hi: empty */
} Interval;

typedef struct RangeCtx {
	const HProgram *p;
	Interval *var;          /* per symbol; NULL entries are unknown (the type's range) */
	char *known;            /* per symbol */
	Interval *func;         /* per Func: its value range, computed on demand */
	char *func_state;       /* 0 not computed, 1 in progress, 2 done */
} RangeCtx;

void range_init(RangeCtx *c, const HProgram *p);
void range_free(RangeCtx *c);
void range_set(RangeCtx *c, int sym, Interval iv);
void range_unset(RangeCtx *c, int sym);
Interval range_of(RangeCtx *c, const HExpr *e);
/* The values a Func can hold (its definitions over any arguments). */
Interval range_func(RangeCtx *c, int f);
Interval iv_type(HType t);
Interval iv_union(Interval a, Interval b);

#endif
