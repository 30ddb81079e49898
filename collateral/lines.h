/* lines.h - the line records of the interconnect's collateral files
 * (config.map, routing.graph: canal/COLLATERAL.md): whitespace-separated
 * tokens, '#' comments, numbers checked against their range, errors at their
 * line and column. Private to collateral/. */
#ifndef COLLATERAL_LINES_H
#define COLLATERAL_LINES_H

#include "../common/diag.h"

#define LINES_MAX_TOKENS 12
#define LINES_MAX_BYTES (1L << 30)      /* the largest file a reader takes */
#define LINES_MAX_ERRORS 20             /* errors reported before a reader gives up on a file */
/* What to do about a file that is stale or was edited by hand. */
#define LINES_REGENERATE "regenerate the design's collateral: make rtl DESIGN=..."

typedef struct Lines {
	const char *file;
	char *text;             /* a copy of the file's text, cut into tokens in place */
	Diags *d;
	int line;
	char *tok[LINES_MAX_TOKENS];
	int col[LINES_MAX_TOKENS];
	int ntok;
	int bad;                /* the line had too many tokens (reported): skip it */
} Lines;

/* Starts reading text (named name in diagnostics); the caller frees l->text. */
void lines_open(Lines *l, const char *name, const char *text, __keep Diags *d);
/* Splits the next non-empty, non-comment line at *p into l->tok (a line of
 * more than LINES_MAX_TOKENS tokens is reported and cut); 0 at the end. */
int lines_next(Lines *l, char **p);
/* Token k as a number in [lo, hi] in base; 0 with an error at its column. */
int lines_long(Lines *l, int k, int base, long lo, long hi, long *out);
/* Every record of text (named name in diagnostics; text NULL: the file
 * name; a file that cannot be read, or a file or text of more than
 * LINES_MAX_BYTES bytes or with a NUL byte, is refused with an error in d
 * before any record is read) through fn, with
 * its tokens in l; with stop, only up to the first record that reports an
 * error; else up to LINES_MAX_ERRORS errors. 1 if no error was reported. */
int lines_read(const char *name, const char *text, __keep Diags *d, int stop, void (*fn)(Lines *l, void *ctx),
	       void *ctx);

#endif
