/* diag.c - see diag.h. */
#include "diag.h"

#include <stdlib.h>
#include <string.h>

#include "strmap.h"
#include "vec.h"

#define DIAG_MAX_ERRORS 100

struct Diags {
	FILE *out;
	VEC(Diag) list;
	int printed;      /* diagnostics before this index have been printed */
	StrMap sources;  /* file name -> index in texts */
	VEC(char *) texts;
	int errors;
	int repeated;     /* errors counted but not kept: equal to one kept */
};

Diags *diags_new(FILE *out)
{
	Diags *d = xcalloc(1, sizeof *d);
	d->out = out;
	strmap_init(&d->sources);
	return d;
}

void diags_free(Diags *d)
{
	if (!d)
		return;
	diags_flush(d);
	vec_foreach(&d->list, i) {
		free(d->list.data[i].file);
		free(d->list.data[i].msg);
	}
	vec_free(&d->list);
	vec_foreach(&d->texts, i) free(d->texts.data[i]);
	vec_free(&d->texts);
	strmap_free(&d->sources);
	free(d);
}

void diags_add_source(Diags *d, const char *file, const char *text)
{
	intptr_t k;
	if (strmap_get(&d->sources, file, &k)) {
		free(d->texts.data[k]);
		d->texts.data[k] = xstrdup(text);
		return;
	}
	strmap_put(&d->sources, file, d->texts.len);
	vec_push(&d->texts, xstrdup(text));
}

int diags_check_nul(Diags *d, const char *file, const char *text, size_t len)
{
	const char *nul = memchr(text, '\0', len);
	if (!nul)
		return 1;
	int line = 1, col = 1;
	for (const char *p = text; p < nul; p++)
		line += *p == '\n', col = *p == '\n' ? 1 : col + 1;
	diags_add_source(d, file, text);
	diag_error(d, file, line, col, "the file contains a NUL byte");
	return 0;
}

/* The text of line `line` (1-based) of a registered file, and its length. */
static const char *source_line(const Diags *d, const char *file, int line, int *len)
{
	intptr_t k;
	if (!file || line <= 0 || !strmap_get(&d->sources, file, &k))
		return NULL;
	const char *p = d->texts.data[k];
	for (int l = 1; l < line; l++) {
		p = strchr(p, '\n');
		if (!p)
			return NULL;
		p++;
	}
	const char *e = strchr(p, '\n');
	*len = e ? (int)(e - p) : (int)strlen(p);
	if (*len > 0 && p[*len - 1] == '\r')
		(*len)--;
	return p;
}

static const char *severity_name(DiagSeverity s)
{
	switch (s) {
	case DIAG_ERROR:
		return "error";
	case DIAG_WARNING:
		return "warning";
	case DIAG_NOTE:
		return "note";
	}
	return "?";
}

/* The part of a source line shown under a message: at most
 * DIAG_WINDOW characters around the caret, with "..." where it is cut (a
 * minified or generated file can have lines of megabytes). Cuts fall
 * between UTF-8 characters. */
#define DIAG_WINDOW 120

static int utf8_continuation(const char *text, int i, int len)
{
	return i > 0 && i < len && ((unsigned char)text[i] & 0xc0) == 0x80;
}

void diags_print(const Diags *d, const Diag *g, FILE *out)
{
	if (g->file && g->line > 0)
		fprintf(out, "%s:%d:%d: ", g->file, g->line, g->col > 0 ? g->col : 1);
	else if (g->file)
		fprintf(out, "%s: ", g->file);
	fprintf(out, "%s: %s\n", severity_name(g->sev), g->msg);
	int len;
	const char *text = source_line(d, g->file, g->line, &len);
	if (!text)
		return;
	int caret = g->col > 1 ? g->col - 1 : 0;    /* may be just past the end */
	if (caret > len)
		caret = len;
	int from = 0, to = len;
	if (len > DIAG_WINDOW) {
		from = caret - DIAG_WINDOW / 2;
		if (from + DIAG_WINDOW > len)
			from = len - DIAG_WINDOW;
		if (from < 0)
			from = 0;
		to = from + DIAG_WINDOW;
		while (utf8_continuation(text, from, len) && from < caret)
			from++;
		while (utf8_continuation(text, to, len) && to > caret)
			to--;
	}
	const char *pre = from > 0 ? "..." : "", *post = to < len ? "..." : "";
	fprintf(out, "%5d | %s%.*s%s\n      | %s", g->line, pre, to - from, text + from, post,
		from > 0 ? "   " : "");
	/* keep tabs so that the caret lines up under tab-indented text */
	for (int i = from; i < caret; i++)
		fputc(text[i] == '\t' ? '\t' : ' ', out);
	fputs("^\n", out);
}

/* A message stays on one line: control characters from quoted input become
 * \n, \t or \xNN. Takes msg, returns the new string. */
static char *escape_controls(char *msg)
{
	size_t n = 0;
	for (const char *p = msg; *p; p++)
		n += (unsigned char)*p < 0x20 || *p == 0x7f ? 4 : 1;
	if (n == strlen(msg))
		return msg;
	char *out = xmalloc(n + 1), *q = out;
	for (const char *p = msg; *p; p++) {
		unsigned char c = (unsigned char)*p;
		if (c == '\n')
			q += sprintf(q, "\\n");
		else if (c == '\t')
			q += sprintf(q, "\\t");
		else if (c < 0x20 || c == 0x7f)
			q += sprintf(q, "\\x%02x", c);
		else
			*q++ = (char)c;
	}
	*q = '\0';
	free(msg);
	return out;
}

static int same_file(const char *a, const char *b)
{
	return a == b || (a && b && strcmp(a, b) == 0);
}

/* 1 if d holds a diagnostic equal to g: a check run on each copy of one
 * written expression (an Expr used twice, a sum() expanded, a Func inlined
 * at several places) reports the same thing at the same place; it is shown
 * once. (Notes are kept: the same note may belong to two errors.) */
static int already_reported(const Diags *d, const Diag *g)
{
	for (int i = d->list.len - 1; i >= 0; i--) {
		const Diag *o = &d->list.data[i];
		if (o->line == g->line && o->col == g->col && o->sev == g->sev && same_file(o->file, g->file) &&
		    strcmp(o->msg, g->msg) == 0)
			return 1;
	}
	return 0;
}

void diag_vreport(Diags *d, DiagSeverity sev, const char *file, int line, int col,
		  const char *fmt, va_list ap)
{
	if (sev == DIAG_ERROR && d->errors - d->repeated >= DIAG_MAX_ERRORS) {
		d->errors++;
		return;
	}
	va_list ap2;
	va_copy(ap2, ap);
	int n = vsnprintf(NULL, 0, fmt, ap2);
	va_end(ap2);
	Diag g = { file ? xstrdup(file) : NULL, line, col, sev, xmalloc((size_t)n + 1) };
	vsnprintf(g.msg, (size_t)n + 1, fmt, ap);
	g.msg = escape_controls(g.msg);
	/* A repeat still counts as an error (the caller failed), but is shown once. */
	if (sev == DIAG_ERROR)
		d->errors++;
	if (sev != DIAG_NOTE && already_reported(d, &g)) {
		d->repeated += sev == DIAG_ERROR;
		free(g.file);
		free(g.msg);
		return;
	}
	vec_push(&d->list, g);
}

/* Orders diagnostics by file (in order of first mention), line and column,
 * keeping the order of arrival for equal positions. */
static int by_position(const Diags *d, const Diag *a, const Diag *b, int ia, int ib)
{
	int fa = -1, fb = -1;
	for (int i = 0; i < d->list.len && (fa < 0 || fb < 0); i++) {
		const char *f = d->list.data[i].file;
		if (fa < 0 && (f == a->file || (f && a->file && strcmp(f, a->file) == 0)))
			fa = i;
		if (fb < 0 && (f == b->file || (f && b->file && strcmp(f, b->file) == 0)))
			fb = i;
	}
	if (fa != fb)
		return fa - fb;
	if (a->line != b->line)
		return a->line - b->line;
	if (a->col != b->col)
		return a->col - b->col;
	return ia - ib;
}

const Diag *diags_first_error(const Diags *d, int from)
{
	for (int i = from; i < d->list.len; i++)
		if (d->list.data[i].sev == DIAG_ERROR)
			return &d->list.data[i];
	return NULL;
}

void diags_flush(Diags *d)
{
	int n = d->list.len - d->printed;
	if (n <= 0 || !d->out) {
		d->printed = d->list.len;
		return;
	}
	/* insertion sort of the new ones: few, and stable */
	Diag *v = d->list.data + d->printed;
	int *seq = xmalloc((size_t)n * sizeof *seq);
	for (int i = 0; i < n; i++)
		seq[i] = i;
	for (int i = 1; i < n; i++) {
		Diag g = v[i];
		int s = seq[i], j = i - 1;
		for (; j >= 0 && by_position(d, &v[j], &g, seq[j], s) > 0; j--) {
			v[j + 1] = v[j];
			seq[j + 1] = seq[j];
		}
		v[j + 1] = g;
		seq[j + 1] = s;
	}
	free(seq);
	for (int i = 0; i < n; i++)
		diags_print(d, &v[i], d->out);
	if (d->errors - d->repeated > DIAG_MAX_ERRORS)
		fprintf(d->out, "error: too many errors (%d), only the first %d are shown\n",
			d->errors - d->repeated, DIAG_MAX_ERRORS);
	d->printed = d->list.len;
}

void diag_report(Diags *d, DiagSeverity sev, const char *file, int line, int col,
		 const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	diag_vreport(d, sev, file, line, col, fmt, ap);
	va_end(ap);
}

int diags_errors(const Diags *d)
{
	return d->errors;
}

int diags_count(const Diags *d)
{
	return d->list.len;
}

const Diag *diags_get(const Diags *d, int i)
{
	return &d->list.data[i];
}
