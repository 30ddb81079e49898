/* lake_main.c - the `lake` command. This first part of Lake reads and checks
 * MEM specs; the generators (Verilog, collateral, SMT model) build on it. */
#include <stdio.h>
#include <string.h>

#include "../common/diag.h"
#include "lake.h"

static const char usage[] =
	"usage: lake check SPEC...\n"
	"           read and check MEM specs (LANGUAGES.md section 2) and print a summary\n";

static int check_one(const char *path)
{
	Diags *d = diags_new(stderr);
	LakeFile *f = lake_load(path, d);
	if (!f) {
		fprintf(stderr, "lake: %d error%s in %s\n", diags_errors(d),
			diags_errors(d) == 1 ? "" : "s", path);
		diags_free(d);
		return 1;
	}
	const LakeSpec *s = f->spec;
	printf("%s: mem %s: %d-bit words, %d storage unit%s (%ld words of SRAM, %ld of registers), "
	       "%d in, %d out, %d edges, %d-level controllers with %d-bit counters (%s%s)%s\n",
	       path, s->name, s->word, s->nunits, s->nunits == 1 ? "" : "s",
	       lake_capacity(s, LAKE_SRAM), lake_capacity(s, LAKE_REGFILE), s->nins, s->nouts,
	       s->nedges, s->dims, s->counter_bits,
	       s->affine == LAKE_AFFINE_RECURRENCE ? "recurrence" : "multiply",
	       s->share ? ", shared schedules" : "", s->chain ? ", chaining" : "");
	lake_file_free(f);
	diags_free(d);
	return 0;
}

int main(int argc, char **argv)
{
	for (int i = 1; i < argc; i++)
		if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
			fputs(usage, stdout);
			return 0;
		}
	if (argc < 3 || strcmp(argv[1], "check") != 0) {
		fputs(usage, stderr);
		return 2;
	}
	int bad = 0;
	for (int i = 2; i < argc; i++) {
		if (argv[i][0] == '-') {
			fprintf(stderr, "lake: unknown option '%s' (see lake --help)\n", argv[i]);
			return 2;
		}
		bad |= check_one(argv[i]);
	}
	return bad;
}
