/* ywrite.c - see ywrite.h. */
#include "ywrite.h"

#include <ctype.h>
#include <stdarg.h>
#include <string.h>

#include "util.h"

void yw_init(YWriter *w, FILE *f)
{
	memset(w, 0, sizeof *w);
	w->f = f;
}

static void begin_line(YWriter *w)
{
	if (w->dash_pending) {
		w->dash_pending = 0;
		return;
	}
	for (int i = 0; i < w->depth; i++)
		fputs("  ", w->f);
}

static int needs_quotes(const char *s)
{
	static const char *const words[] = { "true", "false", "yes", "no", "on", "off", "null",
					     "y", "n", "~", NULL };
	if (!*s || isspace((unsigned char)s[0]) || isspace((unsigned char)s[strlen(s) - 1]))
		return 1;
	for (const char *const *w = words; *w; w++) {
		size_t n = strlen(*w);
		if (strlen(s) == n) {
			size_t i = 0;
			while (i < n && tolower((unsigned char)s[i]) == (*w)[i])
				i++;
			if (i == n)
				return 1;
		}
	}
	if (strchr("-?:,[]{}#&*!|>'\"%@`", s[0]))
		return 1;
	for (const char *p = s; *p; p++) {
		if ((unsigned char)*p < 0x20 || *p == 0x7f || *p == '"' || *p == '\\')
			return 1;
		if ((*p == ':' || *p == '#') && (p[1] == ' ' || p[1] == '\0' || p[-1] == ' '))
			return 1;
		if (strchr(",[]{}", *p))
			return 1;
	}
	return 0;
}

void yw_scalar(FILE *f, const char *s)
{
	if (!needs_quotes(s)) {
		fputs(s, f);
		return;
	}
	fputc('"', f);
	for (const char *p = s; *p; p++) {
		unsigned char c = (unsigned char)*p;
		if (c == '"' || c == '\\')
			fprintf(f, "\\%c", c);
		else if (c == '\n')
			fputs("\\n", f);
		else if (c == '\t')
			fputs("\\t", f);
		else if (c < 0x20 || c == 0x7f)
			fprintf(f, "\\x%02x", c);
		else
			fputc(c, f);
	}
	fputc('"', f);
}

void yw_comment(YWriter *w, const char *fmt, ...)
{
	begin_line(w);
	fputs("# ", w->f);
	va_list ap;
	va_start(ap, fmt);
	vfprintf(w->f, fmt, ap);
	va_end(ap);
	fputc('\n', w->f);
}

static void key_prefix(YWriter *w, const char *key)
{
	begin_line(w);
	yw_scalar(w->f, key);
	fputc(':', w->f);
}

void yw_map(YWriter *w, const char *key)
{
	key_prefix(w, key);
	fputc('\n', w->f);
	w->depth++;
}

void yw_seq(YWriter *w, const char *key)
{
	yw_map(w, key);
}

void yw_end(YWriter *w)
{
	if (w->depth <= 0)
		ICE("yw_end without an open block");
	w->depth--;
}

void yw_item(YWriter *w)
{
	begin_line(w);
	fputs("- ", w->f);
	w->dash_pending = 1;
	w->depth++;
}

void yw_item_str(YWriter *w, const char *value)
{
	begin_line(w);
	fputs("- ", w->f);
	yw_scalar(w->f, value);
	fputc('\n', w->f);
}

void yw_str(YWriter *w, const char *key, const char *value)
{
	key_prefix(w, key);
	fputc(' ', w->f);
	yw_scalar(w->f, value);
	fputc('\n', w->f);
}

void yw_int(YWriter *w, const char *key, long long value)
{
	key_prefix(w, key);
	fprintf(w->f, " %lld\n", value);
}

void yw_hex(YWriter *w, const char *key, const char *hexdigits)
{
	key_prefix(w, key);
	fprintf(w->f, " 0x%s\n", hexdigits);
}

/* Shortest text that reads back as the same double. */
static void format_double(char *buf, size_t n, double v)
{
	for (int prec = 1; prec <= 17; prec++) {
		snprintf(buf, n, "%.*g", prec, v);
		double back;
		if (sscanf(buf, "%lf", &back) == 1 && back == v)
			break;
	}
	if (!strpbrk(buf, ".eEn"))
		strncat(buf, ".0", n - strlen(buf) - 1);
}

void yw_double(YWriter *w, const char *key, double value)
{
	char buf[64];
	format_double(buf, sizeof buf, value);
	key_prefix(w, key);
	fprintf(w->f, " %s\n", buf);
}

void yw_bool(YWriter *w, const char *key, int value)
{
	key_prefix(w, key);
	fputs(value ? " true\n" : " false\n", w->f);
}

void yw_flow_begin(YWriter *w, const char *key)
{
	if (key) {
		key_prefix(w, key);
		fputs(" {", w->f);
	} else {
		begin_line(w);
		fputs("- {", w->f);
	}
	w->flow_count[w->flow_depth++] = 0;
}

static void flow_key(YWriter *w, const char *key)
{
	fputs(w->flow_count[w->flow_depth - 1]++ ? ", " : " ", w->f);
	yw_scalar(w->f, key);
	fputs(": ", w->f);
}

void yw_fstr(YWriter *w, const char *key, const char *value)
{
	flow_key(w, key);
	yw_scalar(w->f, value);
}

void yw_fint(YWriter *w, const char *key, long long value)
{
	flow_key(w, key);
	fprintf(w->f, "%lld", value);
}

void yw_fbool(YWriter *w, const char *key, int value)
{
	flow_key(w, key);
	fputs(value ? "true" : "false", w->f);
}

void yw_fuint(YWriter *w, const char *key, uint64_t value)
{
	flow_key(w, key);
	fprintf(w->f, "%llu", (unsigned long long)value);
}

void yw_fdouble(YWriter *w, const char *key, double value)
{
	char buf[64];
	format_double(buf, sizeof buf, value);
	flow_key(w, key);
	fputs(buf, w->f);
}

void yw_flow_end(YWriter *w)
{
	w->flow_depth--;
	fputs(w->flow_count[w->flow_depth] ? " }\n" : "}\n", w->f);
}
