/* lines.c - line records of config.map and routing.graph (lines.h). */
#include "lines.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int lines_next(Lines *l, char **p)
{
	while (**p) {
		char *s = *p, *eol = strchr(s, '\n');
		if (eol)
			*eol = '\0';
		*p = eol ? eol + 1 : s + strlen(s);
		l->line++;
		char *hash = strchr(s, '#');
		if (hash)
			*hash = '\0';
		l->ntok = 0;
		l->bad = 0;
		for (char *t = strtok(s, " \t\r"); t; t = strtok(NULL, " \t\r")) {
			if (l->ntok == LINES_MAX_TOKENS) {
				diag_error(l->d, l->file, l->line, (int)(t - s) + 1,
					   "more than %d fields on a line: no record has that many", LINES_MAX_TOKENS);
				l->bad = 1;
				break;
			}
			l->col[l->ntok] = (int)(t - s) + 1;
			l->tok[l->ntok++] = t;
		}
		if (l->ntok)
			return 1;
	}
	return 0;
}

int lines_long(Lines *l, int k, int base, long lo, long hi, long *out)
{
	char *end;
	errno = 0;
	long v = strtol(l->tok[k], &end, base);
	if (*end || errno || v < lo || v > hi) {
		diag_error(l->d, l->file, l->line, l->col[k], "expected a number from %ld to %ld, not '%s'", lo, hi,
			   l->tok[k]);
		return 0;
	}
	*out = v;
	return 1;
}

void lines_open(Lines *l, const char *name, const char *text, Diags *d)
{
	memset(l, 0, sizeof *l);
	l->file = name;
	l->text = xstrdup(text);
	l->d = d;
	diags_add_source(d, name, text);
}

/* The whole file, or NULL with an error in d: it cannot be read, is larger
 * than LINES_MAX_BYTES or holds a NUL byte. */
static char *lines_read_file(const char *path, Diags *d)
{
	size_t len;
	char *text = util_read_file_max(path, &len, (size_t)LINES_MAX_BYTES);
	if (!text)
		diag_error(d, path, 0, 0, "cannot read the file: %s", util_read_why(errno));
	else if (!diags_check_nul(d, path, text, len)) {
		free(text);
		return NULL;
	}
	return text;
}

int lines_read(const char *name, const char *text, Diags *d, int stop, void (*fn)(Lines *l, void *ctx), void *ctx)
{
	char *file = NULL;
	if (text && strlen(text) > (size_t)LINES_MAX_BYTES) {
		diag_error(d, name, 0, 0, "the text has more than the %ld bytes a reader takes", LINES_MAX_BYTES);
		return 0;
	}
	if (!text && !(text = file = lines_read_file(name, d)))
		return 0;
	Lines l;
	lines_open(&l, name, text, d);
	free(file);
	int errors = diags_errors(d);
	char *p = l.text;
	while ((!stop || diags_errors(d) == errors) && lines_next(&l, &p)) {
		fn(&l, ctx);
		if (diags_errors(d) - errors >= LINES_MAX_ERRORS && *p) {
			diag_error(d, name, l.line, 1, "%d errors: the rest of the file is not read (is it a %s at all?)",
				   LINES_MAX_ERRORS, strrchr(name, '/') ? strrchr(name, '/') + 1 : name);
			break;
		}
	}
	free(l.text);
	return diags_errors(d) == errors;
}
