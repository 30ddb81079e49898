/* verif_main.c - the `verif` command: what the Verilator benches of a whole
 * array need, generated from a design's collateral alone (rtl_out/<design>/):
 * the design-specific part of the harness (verif harness), the connectivity
 * bench of the interconnect (verif conn), the co-simulation of an
 * application (verif app) and the hand-made applications of its tests
 * (verif cases). */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../collateral/chip.h"
#include "../common/diag.h"
#include "../common/util.h"
#include "verif_app.h"
#include "verif_cases.h"
#include "verif_conn.h"
#include "verif_harness.h"

static const char usage[] =
	"usage: verif harness DESIGN_DIR -o DIR [--probes all|none]\n"
	"           the design's part of the Verilator harness: DIR/verif_ports.h, its data ports and\n"
	"           (with --probes all, the default) every node of routing.graph as a probe, and\n"
	"           DIR/hier.vlt, the hierarchical blocks and readable signals of the model\n"
	"       verif conn DESIGN_DIR -o DIR [--seed S] [-q]\n"
	"           the connectivity bench: configurations (DIR/cfgNNN.bs, built from config.map alone)\n"
	"           that together route every edge of routing.graph, and DIR/conn.cmd, the harness\n"
	"           commands that load each, drive its sources and check every probe against the\n"
	"           model of the configured graph; prints the coverage, fails below 100%%\n"
	"       verif app IO_YAML [--design DESIGN_DIR] [--vsim VSIM] [-o DIR] [--trace FILE.vcd]\n"
	"                 [--note TEXT] [-q]\n"
	"           the co-simulation of an application (make sim): the compiler's <app>.io.yaml and\n"
	"           the bitstream and images it names, run on the design's model VSIM (default\n"
	"           build/verilator/<design>-noprobes/vsim, verif/build.sh); writes DIR/output.<ext>\n"
	"           (the io.yaml's folder by default), DIR/sim.log and DIR/sim/ (the commands and\n"
	"           streams), prints a summary line (TEXT appended); exit status 0 only when every\n"
	"           pixel equals the golden image's\n"
	"       verif cases DESIGN_DIR -o DIR\n"
	"           hand-made applications for the tests of verif app: DIR/<case>/ with a bitstream,\n"
	"           an io.yaml, an input and a golden image\n"
	"DESIGN_DIR is a folder written by make rtl (rtl_out/<design>/). The harness commands and\n"
	"the io.yaml are described in verif/README.md. Every command exits non-zero on error.\n";

typedef struct Args {
	const char *cmd, *design, *out, *probes;
	unsigned long seed;
	int quiet;
} Args;

static int parse_args(int argc, char **argv, Args *a)
{
	*a = (Args){ .probes = "all", .seed = 1 };
	for (int i = 1; i < argc; i++) {
		const char *s = argv[i];
		if (!strcmp(s, "-o") && i + 1 < argc)
			a->out = argv[++i];
		else if (!strcmp(s, "--probes") && i + 1 < argc)
			a->probes = argv[++i];
		else if (!strcmp(s, "--seed") && i + 1 < argc)
			a->seed = util_option_number("verif", s, argv[++i], 0, ULONG_MAX);
		else if (!strcmp(s, "-q"))
			a->quiet = 1;
		else if (s[0] != '-' && !a->cmd)
			a->cmd = s;
		else if (s[0] != '-' && !a->design)
			a->design = s;
		else {
			fprintf(stderr, "verif: unexpected argument '%s'\n%s", s, usage);
			return 0;
		}
	}
	if (!a->cmd || !a->design || !a->out || (strcmp(a->probes, "all") && strcmp(a->probes, "none"))) {
		fprintf(stderr, "%s", usage);
		return 0;
	}
	return 1;
}

static int run(const Args *a)
{
	int conn = !strcmp(a->cmd, "conn");
	if (!conn && strcmp(a->cmd, "harness") != 0) {
		fprintf(stderr, "verif: unknown command '%s'\n%s", a->cmd, usage);
		return 1;
	}
	Diags *d = diags_new(stderr);
	Chip *chip = chip_load(a->design, conn ? CHIP_INTERCONNECT | CHIP_CORES : CHIP_INTERCONNECT, NULL, d);
	diags_flush(d);
	int status = 1;
	if (!chip)
		fprintf(stderr, "verif: cannot read the design in %s\n", a->design);
	else if (conn)
		status = verif_conn_run(chip, &(VerifConnOptions){ a->out, a->seed, a->quiet }) == 0 ? 0 : 1;
	else
		status = verif_harness_write(chip, strcmp(a->probes, "all") ? VERIF_PROBES_NONE : VERIF_PROBES_ALL,
					     a->out) ? 1 : 0;
	chip_free(chip);
	diags_free(d);
	return status;
}

/* verif app IO_YAML [options] */
static int app_main(int argc, char **argv)
{
	VerifAppOptions o = { 0 };
	for (int i = 2; i < argc; i++) {
		const char *s = argv[i];
		const char **opt = !strcmp(s, "--design") ? &o.design : !strcmp(s, "--vsim") ? &o.vsim
				 : !strcmp(s, "-o") ? &o.out : !strcmp(s, "--trace") ? &o.trace
				 : !strcmp(s, "--note") ? &o.note : NULL;
		if (opt && i + 1 < argc)
			*opt = argv[++i];
		else if (!strcmp(s, "-q"))
			o.quiet = 1;
		else if (s[0] != '-' && !o.io_yaml)
			o.io_yaml = s;
		else {
			fprintf(stderr, "verif: unexpected argument '%s'\n%s", s, usage);
			return 2;
		}
	}
	if (!o.io_yaml) {
		fprintf(stderr, "%s", usage);
		return 2;
	}
	return verif_app_run(&o);
}

/* verif cases DESIGN_DIR -o DIR */
static int cases_main(const Args *a)
{
	Diags *d = diags_new(stderr);
	Chip *chip = chip_load(a->design, CHIP_INTERCONNECT | CHIP_CORES, NULL, d);
	diags_flush(d);
	int status = 1;
	if (!chip)
		fprintf(stderr, "verif: cannot read the design in %s\n", a->design);
	else
		status = verif_cases_write(chip, a->out);
	chip_free(chip);
	diags_free(d);
	return status;
}

int main(int argc, char **argv)
{
	for (int i = 1; i < argc; i++)
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			printf("%s", usage);
			return 0;
		}
	if (argc > 1 && !strcmp(argv[1], "app"))
		return app_main(argc, argv);
	Args a;
	if (!parse_args(argc, argv, &a))
		return 2;
	if (!strcmp(a.cmd, "cases"))
		return cases_main(&a);
	return run(&a);
}
