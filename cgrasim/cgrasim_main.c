/* cgrasim_main.c - `cgrasim`: the fast simulator of a configured array.
 * An application (its io.yaml, as `bin/verif app` takes it) or a command
 * file of verif/README.md on a design read from rtl_out/<design>/. */
#define _POSIX_C_SOURCE 200809L

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/diag.h"
#include "../common/util.h"
#include "../verif/verif_app.h"
#include "cs.h"
#include "cs_cmd.h"

static const char usage[] =
	"usage: cgrasim IO_YAML [--design DIR] [-o DIR] [--trace FILE.vcd] [--activity FILE] [--note TEXT] [-q]\n"
	"           an application's bitstream on the fast simulator of its design (rtl_out/<design>/\n"
	"           unless --design): the input images streamed in, the output images assembled and\n"
	"           compared bit for bit with the golden images, as `bin/verif app` does under\n"
	"           Verilator; writes output.<ext>, sim.log and sim/ beside the io.yaml (or into -o DIR)\n"
	"       cgrasim run DESIGN_DIR COMMANDS [--max-report N] [-q] [--progress] [--trace FILE.vcd]\n"
	"                   [--activity FILE] [--expect-out FILE] [--strict-loops] [--max-cycles N]\n"
	"           a command file of verif/README.md (\"The harness\") on the design: the same\n"
	"           commands and messages as the Verilator harness vsim (--max-report -1: every\n"
	"           mismatch in full); --expect-out writes the commands again with every node's\n"
	"           value expected before every clock edge, for vsim; a configuration that closes a\n"
	"           combinational loop runs event by event with a warning naming the loop's nodes,\n"
	"           or is an error with --strict-loops; --max-cycles N: more cycles are an error\n"
	"Exit status: 0 bit-exact (no mismatch), 1 differences, 2 usage or input errors.\n";

static int usage_error(const char *fmt, const char *arg)
{
	fprintf(stderr, "cgrasim: ");
	fprintf(stderr, fmt, arg);
	fprintf(stderr, " (cgrasim --help)\n");
	return 2;
}

static int run_commands(int argc, char **argv)
{
	const char *dir = NULL, *file = NULL;
	CsCmdOptions o = { .max_report = 20 };
	for (int i = 2; i < argc; i++) {
		if (!strcmp(argv[i], "--max-report") && i + 1 < argc) {
			/* -1 reports every mismatch, as vsim's */
			i++;
			o.max_report = !strcmp(argv[i], "-1") ? -1
				: (int)util_option_number("cgrasim", "--max-report", argv[i], 0, 1000000000);
		} else if (!strcmp(argv[i], "-q")) {
			o.quiet = 1;
		} else if (!strcmp(argv[i], "--progress")) {
			o.progress = 1;
		} else if (!strcmp(argv[i], "--strict-loops")) {
			o.strict_loops = 1;
		} else if (!strcmp(argv[i], "--max-cycles") && i + 1 < argc) {
			o.max_cycles = (long)util_option_number("cgrasim", "--max-cycles", argv[++i], 1, 1ull << 40);
		} else if (!strcmp(argv[i], "--trace") && i + 1 < argc) {
			o.trace = argv[++i];
		} else if (!strcmp(argv[i], "--activity") && i + 1 < argc) {
			o.activity = argv[++i];
		} else if (!strcmp(argv[i], "--expect-out") && i + 1 < argc) {
			o.expect_out = argv[++i];
		} else if (argv[i][0] != '-' && !dir) {
			dir = argv[i];
		} else if (argv[i][0] != '-' && !file) {
			file = argv[i];
		} else {
			return usage_error("unknown argument '%s'", argv[i]);
		}
	}
	if (!dir || !file)
		return usage_error("%s", "run needs a design folder and a command file");
	double t0 = util_now();
	Diags *d = diags_new(stderr);
	Cs *s = cs_load(dir, d);
	diags_flush(d);
	int status = 2;
	if (s) {
		if (!o.quiet)
			printf("cgrasim: %s read in %.2f s\n", cs_design_name(s), util_now() - t0);
		status = cs_cmd_run(s, file, &o);
		cs_free(s);
	}
	diags_free(d);
	return status;
}

int main(int argc, char **argv)
{
	if (argc > 1 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
		fputs(usage, stdout);
		return 0;
	}
	if (argc > 1 && !strcmp(argv[1], "run"))
		return run_commands(argc, argv);
	VerifAppOptions o = { 0 };
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--design") && i + 1 < argc)
			o.design = argv[++i];
		else if (!strcmp(argv[i], "-o") && i + 1 < argc)
			o.out = argv[++i];
		else if (!strcmp(argv[i], "--trace") && i + 1 < argc)
			o.trace = argv[++i];
		else if (!strcmp(argv[i], "--activity") && i + 1 < argc)
			o.activity = argv[++i];
		else if (!strcmp(argv[i], "--note") && i + 1 < argc)
			o.note = argv[++i];
		else if (!strcmp(argv[i], "-q"))
			o.quiet = 1;
		else if (argv[i][0] != '-' && !o.io_yaml)
			o.io_yaml = argv[i];
		else
			return usage_error("unknown argument '%s'", argv[i]);
	}
	if (!o.io_yaml) {
		fputs(usage, stderr);
		return 2;
	}
	if (!o.note)
		o.note = "fast simulator";
	/* the simulator verif_app runs the commands on: this program */
	char *self = util_exe_path();
	if (!self) {
		fprintf(stderr, "cgrasim: cannot find its own program (/proc/self/exe)\n");
		return 2;
	}
	o.fast = self;
	int status = verif_app_run(&o);
	free(self);
	return status;
}
