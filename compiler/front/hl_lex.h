/* hl_lex.h - tokens of the application language (a subset of C++): names,
 * integer literals, string literals and punctuators, each with its position.
 * Comments and white space are skipped. */
#ifndef COMPILER_HL_LEX_H
#define COMPILER_HL_LEX_H

#include <stdint.h>

#include "../../common/diag.h"

typedef enum { TK_EOF, TK_NAME, TK_INT, TK_STRING, TK_PUNCT, TK_FLOAT } HTokKind;

typedef struct HTok {
	HTokKind kind;
	const char *text;       /* owned by the token list; the name, punctuator or string body */
	int64_t value;          /* TK_INT; TK_FLOAT: 1 for a float (suffix f), 0 for a double */
	int line, col;
	double fvalue;          /* TK_FLOAT */
} HTok;

typedef struct HToks {
	HTok *toks;
	int len;
	char *strings;          /* storage of the texts */
} HToks;

/* Splits text into tokens (the last is TK_EOF); lexical errors go to d and
 * the offending characters are skipped. */
void hlx_tokenize(const char *file, const char *text, HToks *out, __keep Diags *d);
void hlx_free(HToks *t);
/* 1 if t is the punctuator or name s. */
int hlx_is(const HTok *t, const char *s);

#endif
