/* vwrite.c - see vwrite.h. */
#include "vwrite.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "bv.h"
#include "util.h"

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
	if (width < 1 || width > 64)
		ICE("a %d-bit literal: literals hold 1 to 64 bits", width);
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

/* The reserved words of IEEE 1364-2005 and IEEE 1800-2017 (Annex B). */
static const char *const keywords[] = {
	"accept_on", "alias", "always", "always_comb", "always_ff", "always_latch", "and",
	"assert", "assign", "assume", "automatic", "before", "begin", "bind", "bins", "binsof",
	"bit", "break", "buf", "bufif0", "bufif1", "byte", "case", "casex", "casez", "cell",
	"chandle", "checker", "class", "clocking", "cmos", "config", "const", "constraint",
	"context", "continue", "cover", "covergroup", "coverpoint", "cross", "deassign",
	"default", "defparam", "design", "disable", "dist", "do", "edge", "else", "end",
	"endcase", "endchecker", "endclass", "endclocking", "endconfig", "endfunction",
	"endgenerate", "endgroup", "endinterface", "endmodule", "endpackage", "endprimitive",
	"endprogram", "endproperty", "endsequence", "endspecify", "endtable", "endtask", "enum",
	"event", "eventually", "expect", "export", "extends", "extern", "final", "first_match",
	"for", "force", "foreach", "forever", "fork", "forkjoin", "function", "generate",
	"genvar", "global", "highz0", "highz1", "if", "iff", "ifnone", "ignore_bins",
	"illegal_bins", "implements", "implies", "import", "incdir", "include", "initial",
	"inout", "input", "inside", "instance", "int", "integer", "interconnect", "interface",
	"intersect", "join", "join_any", "join_none", "large", "let", "liblist", "library",
	"local", "localparam", "logic", "longint", "macromodule", "matches", "medium",
	"modport", "module", "nand", "negedge", "nettype", "new", "nexttime", "nmos", "nor",
	"noshowcancelled", "not", "notif0", "notif1", "null", "or", "output", "package",
	"packed", "parameter", "pmos", "posedge", "primitive", "priority", "program",
	"property", "protected", "pull0", "pull1", "pulldown", "pullup", "pulsestyle_ondetect",
	"pulsestyle_onevent", "pure", "rand", "randc", "randcase", "randsequence", "rcmos",
	"real", "realtime", "ref", "reg", "reject_on", "release", "repeat", "restrict",
	"return", "rnmos", "rpmos", "rtran", "rtranif0", "rtranif1", "s_always", "s_eventually",
	"s_nexttime", "s_until", "s_until_with", "scalared", "sequence", "shortint",
	"shortreal", "showcancelled", "signed", "small", "soft", "solve", "specify",
	"specparam", "static", "string", "strong", "strong0", "strong1", "struct", "super",
	"supply0", "supply1", "sync_accept_on", "sync_reject_on", "table", "tagged", "task",
	"this", "throughout", "time", "timeprecision", "timeunit", "tran", "tranif0", "tranif1",
	"tri", "tri0", "tri1", "triand", "trior", "trireg", "type", "typedef", "union",
	"unique", "unique0", "unsigned", "until", "until_with", "untyped", "use", "uwire",
	"var", "vectored", "virtual", "void", "wait", "wait_order", "wand", "weak", "weak0",
	"weak1", "while", "wildcard", "wire", "with", "within", "wor", "xnor", "xor", NULL
};

int vw_is_keyword(const char *name)
{
	for (const char *const *k = keywords; *k; k++)
		if (strcmp(*k, name) == 0)
			return 1;
	return 0;
}

void vw_config_writes(VWriter *w, const VwCfgReg *regs, int n)
{
	char buf[32];
	vw_line(w, "always @(posedge clk)");
	vw_indent(w);
	vw_line(w, "if (rst) begin");
	vw_indent(w);
	for (int i = 0; i < n; i++)
		vw_line(w, "%s <= %s;", regs[i].name, vw_literal(buf, 0, regs[i].width));
	vw_dedent(w);
	vw_line(w, "end else if (config_wr) begin");
	vw_indent(w);
	vw_line(w, "case (config_addr[31:16])");
	vw_indent(w);
	for (int i = 0; i < n; i++) {
		int wd = regs[i].width;
		if (wd == 32)
			vw_line(w, "16'h%04x: %s <= config_data;", (unsigned)regs[i].key, regs[i].name);
		else if (wd == 1)
			vw_line(w, "16'h%04x: %s <= config_data[0];", (unsigned)regs[i].key, regs[i].name);
		else
			vw_line(w, "16'h%04x: %s <= config_data[%d:0];", (unsigned)regs[i].key, regs[i].name, wd - 1);
	}
	vw_line(w, "default: ;");
	vw_dedent(w);
	vw_line(w, "endcase");
	vw_dedent(w);
	vw_line(w, "end");
	vw_dedent(w);
}
