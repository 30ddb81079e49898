/* test_meminfo.c - unit tests of meminfo.h: the controllers and registers
 * derived for a small tile built in code, its info.yaml written, read back and
 * written again to the same text, and a tampered register width or number
 * refused.
 *
 * Each test is a function run by main (check.h); the last line is
 * "meminfo: N passed, M failed"; the exit status is 1 if anything failed. */

#define _POSIX_C_SOURCE 200809L

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../common/tests/check.h"
#include "fixtures.h"
#include "../meminfo.h"
#include "../../common/diag.h"
#include "../../common/util.h"

static __attribute__((noinline)) char *info_text(const MemInfo *mi)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	meminfo_write(mi, f);
	fclose(f);
	return buf;
}

static void test_meminfo_roundtrip(void)
{
	MemInfo *mi = tiny_mem(MEM_REGFILE, 8, 0, 1, MEM_RECURRENCE, 0, 8);
	CHECK(mi->nctrls == 2 && mi->nregs == 1 + 2 * (1 + 3 + 4 + 4), "%d controllers, %d registers",
	      mi->nctrls, mi->nregs);
	CHECK(mi->ctrls[0].dst && !mi->ctrls[0].src && mi->ctrls[0].dst->gen.width == 3,
	      "the write controller addresses rf.w with 3 bits");
	CHECK(mem_reg_address(&mi->regs[mi->ctrls[1].en]) == 0x00020000u, "e1_en at feature 2, reg 0");
	char *text = info_text(mi);
	Diags *d = diags_new(NULL);
	MemInfo *back = meminfo_load_string("tiny.info.yaml", text, d);
	CHECK(back != NULL, "the written info.yaml reads back (%d errors)", diags_errors(d));
	if (back) {
		char *again = info_text(back);
		CHECK(strcmp(text, again) == 0, "write, read, write gives the same text");
		free(again);
		meminfo_free(back);
	}
	diags_free(d);
	/* a register whose width disagrees with the structure is refused */
	char *bad = xstrdup(text);
	char *p = strstr(bad, "name: e0_max1, width: 8");
	CHECK(p != NULL, "e0_max1 is listed with 8 bits");
	if (p) {
		p[strlen("name: e0_max1, width: ")] = '9';
		d = diags_new(NULL);
		CHECK(meminfo_load_string("bad.info.yaml", bad, d) == NULL && diags_errors(d) == 1,
		      "a tampered register width is an error");
		diags_free(d);
	}
	free(bad);
	free(text);
	meminfo_free(mi);
}

/* A register whose number (which its address repeats) is negative is refused. */
static void test_meminfo_register_number(void)
{
	MemInfo *mi = tiny_mem(MEM_REGFILE, 8, 0, 1, MEM_RECURRENCE, 0, 8);
	char *text = info_text(mi);
	const char *q = strstr(text, "name: e0_max1,");
	q = q ? strstr(q, ", reg: ") : NULL;
	CHECK(q != NULL, "e0_max1 lists its register number");
	if (q) {
		char *bad = xasprintf("%.*s, reg: -1%s", (int)(q - text), text, strchr(q + 2, ','));
		Diags *d = diags_new(NULL);
		const Diag *g;
		CHECK(meminfo_load_string("bad.info.yaml", bad, d) == NULL && diags_errors(d) == 1 &&
		      (g = diags_get(d, 0)) && strncmp(g->msg, "'reg' is -1; the structure gives ", 33) == 0,
		      "a negative register number is an error");
		diags_free(d);
		free(bad);
	}
	free(text);
	meminfo_free(mi);
}

static const TestCase tests[] = {
	{ "meminfo_roundtrip", test_meminfo_roundtrip },
	{ "meminfo_register_number", test_meminfo_register_number },
};

int main(void)
{
	return check_run("meminfo", tests, COUNT(tests));
}
