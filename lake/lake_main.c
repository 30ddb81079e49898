/* lake_main.c - the `lake` command: MEM specs to memory-tile Verilog and
 * collateral, and the configuration solver on that collateral. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/diag.h"
#include "../common/util.h"
#include "lake.h"
#include "lake_cmds.h"

static const char usage[] =
	"usage: lake SPEC -o DIR [-q]\n"
	"           generate DIR/<mem>.v, DIR/<mem>.info.yaml and DIR/<mem>.smt2\n"
	"       lake check SPEC...\n"
	"           read and check MEM specs (docs/mem.md) and print a summary\n"
	"       lake solve DIR/<mem>.info.yaml --ctrl NAME (--stream FILE | --affine FILE) [-o REGS]\n"
	"           solve a controller's configuration registers for a stream of operations\n"
	"           (see lake/COLLATERAL.md for the request formats)\n"
	"       lake sim DIR/<mem>.info.yaml --config FILE --cycles N [--seed S]\n"
	"           run the functional model on a configuration (lines 'AAAAAAAA DDDDDDDD') with\n"
	"           random inputs and print the per-cycle trace\n"
	"       lake vectors DIR/<mem>.info.yaml (--cycles N [--seed S] | --scenario NAME) -o DIR [-q]\n"
	"           a random valid configuration (DIR/config.hex), inputs (DIR/inputs.hex) and the\n"
	"           model's trace (DIR/expected.trace) for the Verilator bench; with --scenario a\n"
	"           designed configuration checked against its known outputs: linebuffer:D,\n"
	"           widefetch, transpose, chain (two tiles), lookup\n"
	"       lake tb DIR/<mem>.info.yaml -o DIR [--tiles N] [-q]\n"
	"           the Verilog test bench that replays bench files against <mem>.v\n"
	"Every command exits non-zero on error and writes nothing partial.\n";

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
	       "%d in, %d out, %d edges, %d-level controllers with %d-bit counters (%s%s)%s",
	       path, s->name, s->word, s->nunits, s->nunits == 1 ? "" : "s",
	       lake_capacity(s, LAKE_SRAM), lake_capacity(s, LAKE_REGFILE), s->nins, s->nouts,
	       s->nedges, s->dims, s->counter_bits,
	       s->affine == LAKE_AFFINE_RECURRENCE ? "recurrence" : "multiply",
	       s->share ? ", shared schedules" : "", s->chain ? ", chaining" : "");
	if (s->lookup.present)
		printf(", table look-up at %s (%s -> %s)", lake_end_name(f, s->lookup.port), s->ins[s->lookup.in],
		       s->outs[s->lookup.out]);
	putchar('\n');
	lake_file_free(f);
	diags_free(d);
	return 0;
}

static int cmd_check(int argc, char **argv)
{
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

static int cmd_generate(int argc, char **argv)
{
	const char *spec = NULL, *dir = NULL;
	int quiet = 0;
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "-o") == 0 && i + 1 < argc)
			dir = argv[++i];
		else if (strcmp(argv[i], "-q") == 0)
			quiet = 1;
		else if (argv[i][0] == '-') {
			fprintf(stderr, "lake: unknown option '%s' (see lake --help)\n", argv[i]);
			return 2;
		} else if (!spec)
			spec = argv[i];
		else {
			fprintf(stderr, "lake: one spec at a time ('%s' and '%s')\n", spec, argv[i]);
			return 2;
		}
	}
	if (!spec || !dir) {
		fputs(usage, stderr);
		return 2;
	}
	double t0 = util_now();
	Diags *d = diags_new(stderr);
	LakeFile *f = lake_load(spec, d);
	if (!f) {
		fprintf(stderr, "lake: %d error%s in %s; nothing written\n", diags_errors(d),
			diags_errors(d) == 1 ? "" : "s", spec);
		diags_free(d);
		return 1;
	}
	MemInfo *mi = lake_info(f->spec);
	if (util_mkdir_p(dir) != 0) {
		fprintf(stderr, "lake: cannot create '%s': %s\n", dir, strerror(errno));
		meminfo_free(mi);
		lake_file_free(f);
		diags_free(d);
		return 1;
	}
	char *vpath = util_path_join(dir, mi->verilog);
	char *ipath = xasprintf("%s/%s.info.yaml", dir, mi->name);
	char *spath = xasprintf("%s/%s.smt2", dir, mi->name);
	OutSet *out = outset_new();
	/* the info file is the marker: canal takes it as "the memory tile is there" */
	FILE *fv = outset_open(out, vpath), *fi = fv ? outset_open_marker(out, ipath) : NULL;
	FILE *fs = fi ? outset_open(out, spath) : NULL;
	int status = 1;
	if (!fs) {
		outset_abort(out);
	} else {
		lake_verilog(mi, fv);
		meminfo_write(mi, fi);
		lake_smt2(mi, fs);
		status = outset_commit(out) == 0 ? 0 : 1;
	}
	if (status == 0 && !quiet)
		printf("lake: %s: %d storage units, %d edges, %d controllers, %d configuration registers "
		       "(%ld bits) -> %s, %s, %s in %.3f s\n",
		       mi->name, mi->nunits, mi->nedges, mi->nctrls, mi->nregs, mem_config_bits(mi),
		       vpath, ipath, spath, util_now() - t0);
	free(vpath);
	free(ipath);
	free(spath);
	meminfo_free(mi);
	lake_file_free(f);
	diags_free(d);
	return status;
}

int main(int argc, char **argv)
{
	/* solve and tb have their own --help */
	int own_help = argc > 1 && (strcmp(argv[1], "solve") == 0 || strcmp(argv[1], "tb") == 0);
	for (int i = 1; i < argc && !own_help; i++)
		if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
			fputs(usage, stdout);
			return 0;
		}
	if (argc < 2) {
		fputs(usage, stderr);
		return 2;
	}
	if (strcmp(argv[1], "check") == 0)
		return argc < 3 ? (fputs(usage, stderr), 2) : cmd_check(argc, argv);
	if (strcmp(argv[1], "solve") == 0)
		return lake_cmd_solve(argc - 1, argv + 1);
	if (strcmp(argv[1], "sim") == 0)
		return lake_cmd_sim(argc - 1, argv + 1);
	if (strcmp(argv[1], "tb") == 0)
		return lake_cmd_tb(argc - 1, argv + 1);
	if (strcmp(argv[1], "vectors") == 0)
		return lake_cmd_vectors(argc - 1, argv + 1);
	return cmd_generate(argc, argv);
}
