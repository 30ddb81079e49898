/* hl_simplify.h - substitution of variables (and, through a hook, of calls)
 * in expressions, a small simplifier, and balanced sums. */
#ifndef COMPILER_HL_SIMPLIFY_H
#define COMPILER_HL_SIMPLIFY_H

#include <stdlib.h>

#include "front.h"

typedef struct HSubst HSubst;
struct HSubst {
	const int *sym;         /* variables replaced ... */
	HExpr **val;            /* ... by these, simultaneously */
	int n;
	/* Optional: called on every call node (children not yet substituted);
	 * returns its replacement, or NULL to substitute inside it as usual. */
	HExpr *(*call_fn)(Arena *a, const HExpr *call, const HSubst *s);
	void *ctx;
};

HExpr *hs_simplify(Arena *a, HExpr *e);
HExpr *hs_subst(Arena *a, const HExpr *e, const HSubst *s);
HExpr *hs_subst1(Arena *a, const HExpr *e, int sym, HExpr *val);
/* The sum of v[0..n) (add chains in them flattened), constants combined, as
 * a balanced tree of additions of type t. */
HExpr *hs_balance_sum(Arena *a, HType t, HExpr **v, int n);

#endif
