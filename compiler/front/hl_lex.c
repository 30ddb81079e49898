/* hl_lex.c - the lexer of the application language: C++ comments, names,
 * decimal and hexadecimal integer literals (with C++'s suffixes u, l, ll and
 * their combinations; the parser types them), floating-point
 * literals (1.5, .5, 1e-3, with an f suffix for a float, else a double),
 * string literals without escapes and the punctuators the language uses. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "../../common/vec.h"
#include "hl_lex.h"

/* Longest first, so that "<<=" wins over "<<" and "<". */
static const char *const puncts[] = {
	"<<=", ">>=", "<<", ">>", "<=", ">=", "==", "!=", "&&", "||", "+=", "-=", "*=", "/=", "++", "--",
	"::", "(", ")", "{", "}", "[", "]", "<", ">", ",", ";", ".", "=", "+", "-", "*", "/",
	"%", "&", "|", "^", "~", "!", "?", ":",
};

typedef struct Lexer {
	const char *file, *s;
	int line, col;
	Diags *d;
	VEC(HTok) toks;
	StrBuf strs;
	VEC(size_t) offs;       /* text offsets into strs, resolved at the end */
} Lexer;

static void advance(Lexer *L, int n)
{
	while (n-- > 0 && *L->s) {
		if (*L->s == '\n') {
			L->line++;
			L->col = 1;
		} else {
			L->col++;
		}
		L->s++;
	}
}

static void push(Lexer *L, HTokKind k, const char *text, size_t n, int64_t v, int line, int col)
{
	HTok t = { k, NULL, v, line, col, 0 };
	vec_push(&L->offs, L->strs.len);
	sb_printf(&L->strs, "%.*s", (int)n, text);
	L->strs.len++;          /* keep the terminating zero sb_printf wrote */
	vec_push(&L->toks, t);
}

/* Skips white space and comments; 0 at the end of the text. */
static int skip_space(Lexer *L)
{
	for (;;) {
		if (*L->s == ' ' || *L->s == '\t' || *L->s == '\r' || *L->s == '\n') {
			advance(L, 1);
		} else if (L->s[0] == '/' && L->s[1] == '/') {
			while (*L->s && *L->s != '\n')
				advance(L, 1);
		} else if (L->s[0] == '/' && L->s[1] == '*') {
			int line = L->line, col = L->col;
			advance(L, 2);
			while (*L->s && !(L->s[0] == '*' && L->s[1] == '/'))
				advance(L, 1);
			if (!*L->s) {
				diag_error(L->d, L->file, line, col, "unterminated comment");
				return 0;
			}
			advance(L, 2);
		} else {
			return *L->s != 0;
		}
	}
}

/* A floating-point literal (1.5, 2., .25, 1e-3, 1.5f): 1 if there is one at
 * L->s (pushed), else 0. */
static int lex_float(Lexer *L)
{
	const char *p = L->s;
	int digits = 0, dot = 0, exp = 0;
	while (isdigit((unsigned char)*p))
		p++, digits++;
	if (*p == '.') {
		dot = 1;
		p++;
		while (isdigit((unsigned char)*p))
			p++, digits++;
	}
	if (digits && (*p == 'e' || *p == 'E')) {
		const char *q = p + 1;
		if (*q == '+' || *q == '-')
			q++;
		if (isdigit((unsigned char)*q)) {
			exp = 1;
			for (p = q; isdigit((unsigned char)*p); p++)
				;
		}
	}
	if (!digits || (!dot && !exp) || (L->s[0] == '0' && (L->s[1] == 'x' || L->s[1] == 'X')))
		return 0;
	int single = *p == 'f' || *p == 'F';
	const char *end = p + single;
	if (isalnum((unsigned char)*end) || *end == '_' || *end == '.')
		return 0;       /* malformed: reported by lex_number */
	int line = L->line, col = L->col;
	double v = strtod(L->s, NULL);
	push(L, TK_FLOAT, L->s, (size_t)(end - L->s), single, line, col);
	vec_last(&L->toks).fvalue = single ? (double)(float)v : v;
	advance(L, (int)(end - L->s));
	return 1;
}

static void lex_number(Lexer *L)
{
	int line = L->line, col = L->col;
	const char *p = L->s;
	if (lex_float(L))
		return;
	int base = 10;
	if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) {
		base = 16;
		p += 2;
	}
	uint64_t v = 0;
	int digits = 0, overflow = 0;
	for (; isxdigit((unsigned char)*p) && (base == 16 || isdigit((unsigned char)*p)); p++) {
		int dv = isdigit((unsigned char)*p) ? *p - '0' : (tolower((unsigned char)*p) - 'a' + 10);
		if (v > (UINT64_MAX - (uint64_t)dv) / (uint64_t)base)
			overflow = 1;
		v = v * (uint64_t)base + (uint64_t)dv;
		digits++;
	}
	/* the suffix: u or U, and l, L, ll or LL, in either order */
	const char *q = p;
	int u = 0, l = 0;
	for (int k = 0; k < 2; k++) {
		if (!u && (*q == 'u' || *q == 'U')) {
			u = 1;
			q++;
		} else if (!l && (*q == 'l' || *q == 'L')) {
			l = 1;
			q += q[1] == q[0] ? 2 : 1;
		}
	}
	const char *end = q;
	while (isalnum((unsigned char)*end) || *end == '_' || *end == '.')
		end++;
	if (end != q || digits == 0) {
		int isfloat = memchr(L->s, '.', (size_t)(end - L->s)) != NULL;
		diag_error(L->d, L->file, line, col,
			   isfloat ? "floating-point literal '%.*s': only integer arithmetic is supported"
				   : "malformed integer literal '%.*s'",
			   (int)(end - L->s), L->s);
	} else if (overflow || (!u && base == 10 && v > INT64_MAX)) {
		diag_error(L->d, L->file, line, col, "integer literal '%.*s' does not fit in a %s",
			   (int)(end - L->s), L->s, u || base == 16 ? "64-bit unsigned long" : "64-bit long");
	} else {
		push(L, TK_INT, L->s, (size_t)(end - L->s), (int64_t)v, line, col);
	}
	advance(L, (int)(end - L->s));
}

static void lex_string(Lexer *L)
{
	int line = L->line, col = L->col;
	const char *p = L->s + 1;
	while (*p && *p != '"' && *p != '\n' && *p != '\\')
		p++;
	if (*p != '"') {
		diag_error(L->d, L->file, line, col,
			   *p == '\\' ? "escape sequences are not supported in strings"
				      : "unterminated string literal");
		while (*L->s && *L->s != '\n')
			advance(L, 1);
		return;
	}
	push(L, TK_STRING, L->s + 1, (size_t)(p - L->s - 1), 0, line, col);
	advance(L, (int)(p - L->s + 1));
}

static int lex_punct(Lexer *L)
{
	for (size_t i = 0; i < sizeof puncts / sizeof *puncts; i++) {
		size_t n = strlen(puncts[i]);
		if (strncmp(L->s, puncts[i], n) == 0) {
			push(L, TK_PUNCT, L->s, n, 0, L->line, L->col);
			advance(L, (int)n);
			return 1;
		}
	}
	return 0;
}

void hlx_tokenize(const char *file, const char *text, HToks *out, Diags *d)
{
	Lexer L = { .file = file, .s = text, .line = 1, .col = 1, .d = d };
	while (skip_space(&L)) {
		unsigned char c = (unsigned char)*L.s;
		if (isalpha(c) || c == '_') {
			const char *p = L.s;
			while (isalnum((unsigned char)*p) || *p == '_')
				p++;
			push(&L, TK_NAME, L.s, (size_t)(p - L.s), 0, L.line, L.col);
			advance(&L, (int)(p - L.s));
		} else if (isdigit(c) || (c == '.' && isdigit((unsigned char)L.s[1]))) {
			lex_number(&L);
		} else if (c == '"') {
			lex_string(&L);
		} else if (!lex_punct(&L)) {
			if (c < 0x20 || c >= 0x7f)
				diag_error(d, file, L.line, L.col, "unexpected character 0x%02x", c);
			else
				diag_error(d, file, L.line, L.col, "unexpected character '%c'", c);
			advance(&L, 1);
		}
	}
	push(&L, TK_EOF, "", 0, 0, L.line, L.col);
	out->len = L.toks.len;
	out->toks = L.toks.data;
	out->strings = L.strs.s;
	for (int i = 0; i < out->len; i++)
		out->toks[i].text = out->strings + L.offs.data[i];
	vec_free(&L.offs);
}

void hlx_free(HToks *t)
{
	free(t->toks);
	free(t->strings);
	t->toks = NULL;
	t->strings = NULL;
	t->len = 0;
}

int hlx_is(const HTok *t, const char *s)
{
	/* the first two characters before the rest: the parser asks this of every token many times,
	 * mostly of one- and two-character punctuators */
	if ((t->kind != TK_PUNCT && t->kind != TK_NAME) || t->text[0] != s[0])
		return 0;
	if (!s[0])
		return 1;
	return t->text[1] == s[1] && (!s[1] || strcmp(t->text + 2, s + 2) == 0);
}
