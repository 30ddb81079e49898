/* peak_bench.h - random test vectors from the functional model and the
 * Verilator C++ bench that checks a PE's Verilog against them. */
#ifndef PEAK_BENCH_H
#define PEAK_BENCH_H

#include <stdint.h>

/* `peak vectors`: count sequences of cycles cycles into out (stdout if NULL).
 * Returns the exit status. */
int peak_vectors(const char *spec, const char *out, int count, int cycles, uint64_t seed);
/* `peak tb`: writes DIR/<pe>_tb.cpp. Returns the exit status. */
int peak_tb(const char *spec, const char *dir);

#endif
