/* verify.h - what cgrac --verify needs besides the compiler's stages: the
 * folder cleared of an earlier run's outputs, the golden image corrupted on
 * request, files compared, the compiled application run on the fast
 * simulator (through verif/'s verif_app and bin/cgrasim beside cgrac), and
 * the application's line of a table, OUT/app.txt, the step's verdict. */
#ifndef COMPILER_VERIFY_H
#define COMPILER_VERIFY_H

#include "../common/diag.h"
#include "flow.h"

/* Removes from out what an earlier --verify of app wrote there (app.txt
 * first, the golden set's output, the checks' outputs, the compilation's
 * files, the fast simulator's folder), so that none is taken for this
 * run's; the inputs are rewritten by the golden set. 0 with a message. */
int verify_clear(const char *out, const char *app);

/* The lowest bit of the file's last byte flipped (--corrupt-golden). 0 with
 * a message. */
int verify_corrupt(const char *path);

/* 1 if the files a and b hold the same bytes. */
int verify_same(const char *a, const char *b);

/* The first error reported to d from diagnostic `from` on, else "WHAT
 * failed (the messages above say why)"; to free. */
char *verify_failure(const Diags *d, int from, const char *what);

/* The compiled application (OUT/<app>.io.yaml) on the fast simulator into
 * OUT/fast/; its summary line printed unless quiet. The verdict: "bit-exact"
 * and, tab-separated, cycles=N and (when the simulator reported them)
 * pe_used=USED/TOTAL and pe_busy=PERCENT; else "SIM FAILED: " and why. To
 * free. */
char *verify_simulate(const char *out, const char *app, const char *design, int quiet);

/* OUT/app.txt: PEs, MEMs, registers, tracks (16-bit+1-bit), MHz, latency
 * (each '-' without figures), the compilation's milliseconds ('-' if
 * negative), then the verdict and message, tab-separated on one line (the
 * message's tabs and line breaks made spaces), written whole or not at all.
 * 0 with a message. */
int verify_write_line(const char *out, const FlowFigures *f, long ms, const char *verdict, const char *message);

#endif
