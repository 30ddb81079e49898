/* peak_pattern.h - how an IR operation is built from the others: its normal
 * form covered by the normal forms of other operations, e.g. mac is
 * add(mul(a, b), c) and add_const is add(a, const(k)). The compiler's mapper
 * uses these patterns to match rules against its graphs of primitive ops. */
#ifndef PEAK_PATTERN_H
#define PEAK_PATTERN_H

#include "peak.h"

/* Writes ops[k]'s pattern into buf and returns its size (the number of
 * operations in it; 1 for a primitive); 0 if ops[k] has several outputs. */
int peak_pattern(PeakSpec *const *ops, int nops, int k, char *buf, int n);

#endif
