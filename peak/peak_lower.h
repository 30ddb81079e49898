/* peak_lower.h - type checking and SSA lowering of a behaviour into the normal
 * form (private to peak/). */
#ifndef PEAK_LOWER_H
#define PEAK_LOWER_H

#include "peak.h"
#include "peak_ast.h"

/* Lowers b into s->g, filling s->out_nodes and s->next_nodes. Returns the
 * number of errors reported to d. */
int peak_lower(__keep PeakSpec *s, const Behavior *b, __keep Arena *arena, __keep Diags *d);

/* 1 if name is a builtin function of the behaviour language (adc, sext, ...). */
int peak_is_builtin(const char *name);

#endif
