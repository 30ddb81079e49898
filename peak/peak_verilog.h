/* peak_verilog.h - the Verilog reading of a PE spec: one synthesizable module
 * with clk, rst (synchronous, active high), the instruction as an input bus
 * `inst`, the spec's inputs and outputs, and its state as registers. */
#ifndef PEAK_VERILOG_H
#define PEAK_VERILOG_H

#include <stdio.h>

#include "peak.h"

void peak_emit_verilog(const PeakSpec *s, FILE *f);

#endif
