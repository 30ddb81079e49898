/* test_coreinfo.c - unit tests of the reader of a core's collateral as the
 * interconnect takes it (coreinfo.h): a tiny PE's info read into its ports and
 * instruction registers, a memory tile's from its info.yaml; each broken PE
 * info (a port given twice, an enum code of 2^63, a negative or repeated code,
 * widths out of range, keywords, a clock named like a port, another Verilog
 * file) and a memory info with a negative register index giving exactly its
 * error at its position.
 *
 * Each test is a function run by main (check.h); the last line is
 * "coreinfo: N passed, M failed"; the exit status is 1 if anything failed. */

#define _POSIX_C_SOURCE 200809L

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../common/tests/check.h"
#include "fixtures.h"
#include "../coreinfo.h"
#include "../meminfo.h"
#include "../../common/diag.h"
#include "../../common/util.h"

static const char pe_info[] = "pe: tiny\n"
			      "verilog: tiny.v\n"
			      "module:\n"
			      "  name: tiny\n"
			      "  clock: clk\n"
			      "  reset: rst\n"
			      "  instruction: inst\n"
			      "instruction:\n"
			      "  width: 40\n"
			      "  fields:\n"
			      "    - { name: op, width: 2, type: Opcode, offset: 0 }\n"
			      "    - { name: k, width: 38, offset: 2 }\n"
			      "enums:\n"
			      "  Opcode: { width: 2, values: { Add: 0, And: 1, Pass: 2 } }\n"
			      "inputs:\n"
			      "  - { name: A, width: 16 }\n"
			      "  - { name: c_in, width: 1 }\n"
			      "outputs:\n"
			      "  - { name: res, width: 16 }\n";

/* Reads text as the file name in a fresh folder. */
static CoreInfo *load_text(const char *name, const char *text, Diags *d)
{
	char dir[] = "/tmp/test_coreinfo.XXXXXX";
	if (!mkdtemp(dir))
		return NULL;
	char *path = util_path_join(dir, name);
	FILE *f = fopen(path, "w");
	fputs(text, f);
	fclose(f);
	CoreInfo *c = coreinfo_load(path, d);
	remove(path);
	rmdir(dir);
	free(path);
	return c;
}

static char *mem_text(void)
{
	MemInfo *mi = tiny_mem(MEM_REGFILE, 8, 0, 1, MEM_RECURRENCE, 0, 8);
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	meminfo_write(mi, f);
	fclose(f);
	meminfo_free(mi);
	return buf;
}

static void test_coreinfo_read(void)
{
	Diags *d = diags_new(NULL);
	CoreInfo *c = load_text("tiny.info.yaml", pe_info, d);
	CHECK(c && diags_errors(d) == 0, "the tiny PE's info reads (%d errors)", diags_errors(d));
	if (c)
		CHECK(c->kind == CORE_PE && !strcmp(c->name, "tiny") && c->line == 1 && c->col == 5 && c->nins == 2 &&
		      c->nouts == 1 && c->ins[1].width == 1 && !strcmp(c->inst, "inst") && c->inst_width == 40 &&
		      c->nregs == 2 && c->regs[1].width == 8 && c->regs[1].index == 1,
		      "its ports and two instruction registers (inst1 of 8 bits)");
	coreinfo_free(c);
	diags_free(d);
	char *text = mem_text();
	d = diags_new(NULL);
	c = load_text("tiny.info.yaml", text, d);
	CHECK(c && diags_errors(d) == 0, "the tiny memory's info reads (%d errors)", diags_errors(d));
	if (c)
		CHECK(c->kind == CORE_MEM && c->config_bus && c->nregs > 0 && c->regs[c->nregs - 1].feature == 2,
		      "a memory with its configuration registers");
	coreinfo_free(c);
	diags_free(d);
	free(text);
}

/* Each broken PE info gives exactly this error at the first occurrence of
 * `at` in the broken text. */
static void test_coreinfo_pe_errors(void)
{
	static const struct {
		const char *from, *to, *msg, *at;
	} cases[] = {
		{ "  - { name: res, width: 16 }", "  - { name: A, width: 8 }", "a second port 'A'", "{ name: A, width: 8 }" },
		{ "  - { name: c_in, width: 1 }", "  - { name: A, width: 1 }", "a second port 'A'", "{ name: A, width: 1 }" },
		{ "Pass: 2", "Pass: 9223372036854775808", "the code of member 'Pass' does not fit the enum's width",
		  "9223372036854775808" },
		{ "Pass: 2", "Pass: -1", "the code of member 'Pass' does not fit the enum's width", "-1" },
		{ "Pass: 2", "Pass: 1", "members 'And' and 'Pass' of enum 'Opcode' have the same code", "1 }" },
		{ "name: A, width: 16", "name: A, width: 65", "width 65 is out of range (1 to 64)", "65" },
		{ "name: k, width: 38", "name: k, width: 0", "width 0 is out of range (1 to 64)", "0, offset: 2" },
		{ "width: 40", "width: 9000", "width 9000 is out of range (1 to 8192)", "9000" },
		{ "name: c_in", "name: module", "'module' is a Verilog keyword, not a name the PE's module can use",
		  "module, width" },
		{ "name: c_in", "name: c-in", "'c-in' is not a name", "c-in" },
		{ "clock: clk", "clock: A", "'A' names both the module's clock and one of its ports", "A\n" },
		{ "reset: rst", "reset: clk", "the module's clock, reset and instruction need three names", "name: tiny\n  clock" },
		{ "instruction: inst", "instruction: always", "'always' is not a name the PE's module can use", "always" },
		{ "verilog: tiny.v", "verilog: other.v", "the Verilog of PE 'tiny' is 'tiny.v', not 'other.v'", "other.v" },
		{ "  name: tiny\n", "  name: other\n", "the module of PE 'tiny' is named 'tiny', not 'other'", "other" },
		{ "pe: tiny", "pe: wire", "'wire' is a Verilog keyword, not a name the PE's module can use", "wire" },
	};
	for (int i = 0; i < COUNT(cases); i++) {
		char *text = text_replace1(pe_info, cases[i].from, cases[i].to);
		int line, col;
		text_position(text, cases[i].at, &line, &col);
		Diags *d = diags_new(NULL);
		CoreInfo *c = load_text("tiny.info.yaml", text, d);
		const Diag *g = diags_errors(d) ? diags_get(d, 0) : NULL;
		CHECK(!c && diags_errors(d) == 1 && g && !strcmp(g->msg, cases[i].msg) && g->line == line && g->col == col,
		      "case %d: expected '%s' at %d:%d, got %d errors, first '%s' at %d:%d", i, cases[i].msg, line, col,
		      diags_errors(d), g ? g->msg : "", g ? g->line : 0, g ? g->col : 0);
		coreinfo_free(c);
		diags_free(d);
		free(text);
	}
}

/* A memory's registers repeat their number and feature: a negative index
 * is refused at its position. */
static void test_coreinfo_mem_errors(void)
{
	char *text = mem_text();
	const char *reg = strstr(text, "name: e0_max1,");
	const char *idx = reg ? strstr(reg, "reg: ") : NULL;
	CHECK(idx != NULL, "e0_max1 lists its register number");
	if (!idx) {
		free(text);
		return;
	}
	int n = atoi(idx + 5);
	char *bad = xasprintf("%.*sreg: -1%s", (int)(idx - text), text, strchr(idx, ','));
	int line, col;
	text_position(bad, "-1, feature", &line, &col);
	char *want = xasprintf("'reg' is -1; the structure gives %d", n);
	Diags *d = diags_new(NULL);
	CoreInfo *c = load_text("tiny.info.yaml", bad, d);
	const Diag *g = diags_errors(d) ? diags_get(d, 0) : NULL;
	CHECK(!c && diags_errors(d) == 1 && g && !strcmp(g->msg, want) && g->line == line && g->col == col,
	      "a negative register index: expected '%s' at %d:%d, got %d errors, first '%s' at %d:%d", want, line, col,
	      diags_errors(d), g ? g->msg : "", g ? g->line : 0, g ? g->col : 0);
	coreinfo_free(c);
	diags_free(d);
	free(want);
	free(bad);
	free(text);
}

static const TestCase tests[] = {
	{ "coreinfo_read", test_coreinfo_read },
	{ "coreinfo_pe_errors", test_coreinfo_pe_errors },
	{ "coreinfo_mem_errors", test_coreinfo_mem_errors },
};

int main(void)
{
	return check_run("coreinfo", tests, COUNT(tests));
}
