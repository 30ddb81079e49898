/* vwrite.c - see vwrite.h. */
#include "vwrite.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "bv.h"

void vw_init(VWriter *w, FILE *f)
{
	w->f = f;
	w->indent = 0;
}

void vw_line(VWriter *w, const char *fmt, ...)
{
	for (int i = 0; i < w->indent; i++)
		fputs("    ", w->f);
	va_list ap;
	va_start(ap, fmt);
	vfprintf(w->f, fmt, ap);
	va_end(ap);
	fputc('\n', w->f);
}

char *vw_literal(char *buf, uint64_t value, int width)
{
	if (width == 1) {
		snprintf(buf, 32, "1'b%d", (int)(value & 1));
		return buf;
	}
	char hex[20];
	bv_format_hex(hex, value, width);
	snprintf(buf, 32, "%d'h%s", width, hex);
	return buf;
}

char *vw_range(char *buf, int width)
{
	if (width == 1)
		buf[0] = '\0';
	else
		snprintf(buf, 24, "[%d:0] ", width - 1);
	return buf;
}

static const char *const keywords[] = {
	"always", "always_comb", "always_ff", "always_latch", "and", "assign", "automatic", "begin",
	"bit", "buf", "byte", "case", "casex", "casez", "cell", "class", "config", "const",
	"default", "defparam", "design", "disable", "do", "edge", "else", "end", "endcase",
	"endfunction", "endgenerate", "endmodule", "endtask", "enum", "event", "final", "for",
	"force", "forever", "fork", "function", "generate", "genvar", "if", "initial", "inout",
	"input", "int", "integer", "interface", "join", "localparam", "logic", "longint",
	"module", "nand", "negedge", "nor", "not", "or", "output", "package", "parameter",
	"posedge", "priority", "real", "reg", "release", "repeat", "return", "shortint",
	"signed", "specify", "static", "string", "struct", "supply0", "supply1", "table", "task",
	"time", "tri", "type", "typedef", "union", "unique", "unsigned", "var", "void", "wait",
	"while", "wire", "wor", "xnor", "xor", NULL
};

int vw_is_keyword(const char *name)
{
	for (const char *const *k = keywords; *k; k++)
		if (strcmp(*k, name) == 0)
			return 1;
	return 0;
}
