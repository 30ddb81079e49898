/* diag.h - diagnostics as data. Each is {file, line, col, severity, message};
 * they are printed as the compilers do,
 *     spec.yaml:12:5: error: unknown type 'Dta'
 *        12 |   A: Dta
 *           |      ^
 * and collected so that a tool reports every error of a file, not only the first,
 * in the order they stand in the file, and tests can compare them. A
 * diagnostic equal to one already reported (file, position, severity and
 * message; notes excepted) is counted but shown once. A source line longer
 * than 120 characters is shown as a window around the caret, cut with "...". */
#ifndef COMMON_DIAG_H
#define COMMON_DIAG_H

#include <stdarg.h>
#include <stdio.h>

#include "util.h"

typedef enum { DIAG_ERROR, DIAG_WARNING, DIAG_NOTE } DiagSeverity;

typedef struct Diag {
	char *file;     /* may be NULL for messages about no file */
	int line, col;  /* 1-based; 0 when unknown */
	DiagSeverity sev;
	char *msg;
} Diag;

typedef struct Diags Diags;

/* out: where diagnostics are printed by diags_flush, sorted by position
 * (NULL: collect only). */
__give Diags *diags_new(FILE *out);
/* Flushes, then frees. */
void diags_free(__take Diags *d);
/* Prints the diagnostics reported since the last flush, in file, line and
 * column order. Readers flush when they finish a file. */
void diags_flush(__keep Diags *d);
/* Registers a file's text so that messages can show its lines (copied). */
void diags_add_source(__keep Diags *d, const char *file, const char *text);
/* A file's text of len bytes as read (util_read_file) is text only up to a
 * NUL byte, where every reader would stop: registers the text and reports
 * "the file contains a NUL byte" at the first one. 1 if there is none. */
int diags_check_nul(__keep Diags *d, const char *file, const char *text, size_t len);

void diag_report(__keep Diags *d, DiagSeverity sev, const char *file, int line, int col,
		 const char *fmt, ...) __attribute__((format(printf, 6, 7)));
void diag_vreport(__keep Diags *d, DiagSeverity sev, const char *file, int line, int col,
		  const char *fmt, va_list ap);
#define diag_error(d, file, line, col, ...) diag_report(d, DIAG_ERROR, file, line, col, __VA_ARGS__)
#define diag_warning(d, file, line, col, ...) \
	diag_report(d, DIAG_WARNING, file, line, col, __VA_ARGS__)
#define diag_note(d, file, line, col, ...) diag_report(d, DIAG_NOTE, file, line, col, __VA_ARGS__)

int diags_errors(const Diags *d);
int diags_count(const Diags *d);
const Diag *diags_get(const Diags *d, int i);
/* The first error reported from diagnostic `from` on (a repeat of an
 * earlier one is not listed again), or NULL. */
const Diag *diags_first_error(const Diags *d, int from);
/* Writes one diagnostic with its source line and caret. */
void diags_print(const Diags *d, const Diag *g, FILE *out);

#endif
