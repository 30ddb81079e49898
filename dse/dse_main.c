/* dse_main.c - the `dse` command: plans a design-space sweep into point
 * folders and a make file, and reports its results (dse/README.md). `make
 * dse SWEEP=...` runs the three steps: plan, the points, report. `dse
 * charts` draws the charts again from a results.csv; `dse random` writes
 * the random chip of a seed for the property test (scripts/property.sh). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/diag.h"
#include "../common/util.h"
#include "dse.h"

static const char usage[] =
	"usage: dse plan SWEEP.yaml -o DIR\n"
	"           check the sweep and write its points under DIR: DIR/<point>/spec.yaml (the base\n"
	"           interconnect spec with the point's knobs), DIR/<point>/point.env (applications,\n"
	"           cgrac options) and DIR/points.mk (a target per point, run by scripts/dse_point.sh);\n"
	"           files whose text is unchanged are not rewritten\n"
	"       dse report SWEEP.yaml -o DIR [--seconds S]\n"
	"           gather the points' results into DIR/results.csv, results.md and the charts summary.svg,\n"
	"           runtime_area.svg and resources.svg; S, the sweep's wall time, goes into the summary\n"
	"       dse charts DIR\n"
	"           draw the charts again from DIR/results.csv (as dse report draws them)\n"
	"       dse check SWEEP.yaml\n"
	"           check the sweep and print its points\n"
	"       dse random --seed N -o DIR [--mem MEM.yaml] [--no-register-pattern]\n"
	"           the random chip of seed N (0 to 2^64-1) for the property test (scripts/property.sh):\n"
	"           DIR/pe.yaml (a PE of some of pe_base's operations and fields), DIR/spec.yaml (a legal\n"
	"           interconnect spec named prop_N naming that PE and, in four chips of five, MEM.yaml,\n"
	"           default lake/specs/pub.yaml) and DIR/seed.txt (the choices in one line, also printed);\n"
	"           the same seed and options give the same bytes. --no-register-pattern: switch-box\n"
	"           registers on every tile or none, never on some columns or rows only\n"
	"Sweep files: dse/README.md. Errors are reported as file:line:col; nothing is written then.\n";

/* The usage on stderr after what was wrong (arg: the word, or NULL); 2. */
static int usage_error(const char *arg)
{
	if (arg)
		fprintf(stderr, "dse: error: '%s': an unknown, repeated or incomplete option\n", arg);
	fputs(usage, stderr);
	return 2;
}

/* --seconds S: a decimal number from 0 to 1e9; 1 if s is one. */
static int seconds_arg(const char *s, double *out)
{
	char *end;
	if (!*s || !strchr("0123456789", *s))
		return 0;
	*out = strtod(s, &end);
	return !*end && *out <= 1e9;
}

/* dse random's options after the command word; 2 on a usage error. */
static int random_main(int argc, char **argv)
{
	RandomOpts o = { .mem_spec = "lake/specs/pub.yaml", .reg_pattern = 1 };
	const char *dir = NULL;
	int seeded = 0;
	int mem = 0, pattern = 0;
	for (int i = 2; i < argc; i++) {
		if (strcmp(argv[i], "--seed") == 0 && i + 1 < argc && !seeded) {
			o.seed = util_option_number("dse", "--seed", argv[++i], 0, UINT64_MAX);
			seeded = 1;
		} else if (strcmp(argv[i], "-o") == 0 && i + 1 < argc && !dir) {
			dir = argv[++i];
		} else if (strcmp(argv[i], "--mem") == 0 && i + 1 < argc && !mem++) {
			o.mem_spec = argv[++i];
		} else if (strcmp(argv[i], "--no-register-pattern") == 0 && !pattern++) {
			o.reg_pattern = 0;
		} else {
			return usage_error(argv[i]);
		}
	}
	if (!seeded || !dir)
		return usage_error(NULL);
	const char *why = dse_file_problem(o.mem_spec, YAML_READ_MAX);
	if (why) {
		fprintf(stderr, "dse: error: %s: %s (--mem: the MEM spec a random chip names)\n", o.mem_spec, why);
		return 1;
	}
	return dse_random(&o, dir) ? 0 : 1;
}

int main(int argc, char **argv)
{
	const char *cmd = argc > 1 ? argv[1] : NULL, *sweep = NULL, *dir = NULL;
	double seconds = 0;
	for (int i = 1; i < argc; i++)
		if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
			fputs(usage, stdout);
			return 0;
		}
	if (cmd && strcmp(cmd, "random") == 0)
		return random_main(argc, argv);
	if (cmd && strcmp(cmd, "charts") == 0) {
		if (argc != 3 || argv[2][0] == '-')
			return usage_error(argc > 3 ? argv[3] : argc == 3 ? argv[2] : NULL);
		return dse_charts(argv[2]) ? 0 : 1;
	}
	if (!cmd || (strcmp(cmd, "plan") != 0 && strcmp(cmd, "report") != 0 && strcmp(cmd, "check") != 0))
		return usage_error(cmd);
	int timed = 0;
	for (int i = 2; i < argc; i++) {
		if (strcmp(argv[i], "-o") == 0 && i + 1 < argc && !dir && strcmp(cmd, "check") != 0) {
			dir = argv[++i];
		} else if (strcmp(argv[i], "--seconds") == 0 && i + 1 < argc && strcmp(cmd, "report") == 0 && !timed++) {
			if (!seconds_arg(argv[++i], &seconds)) {
				fprintf(stderr, "dse: error: --seconds expects a number from 0 to 1e9, got '%s'\n", argv[i]);
				return 2;
			}
		} else if (argv[i][0] != '-' && !sweep) {
			sweep = argv[i];
		} else {
			return usage_error(argv[i]);
		}
	}
	if (!sweep || (strcmp(cmd, "check") != 0) != (dir != NULL))
		return usage_error(NULL);
	Diags *d = diags_new(stderr);
	Sweep *s = dse_sweep_load(sweep, d);
	int errors = diags_errors(d);
	diags_free(d);
	if (!s) {
		fprintf(stderr, "dse: %d error%s in %s; nothing run\n", errors, errors == 1 ? "" : "s", sweep);
		return 1;
	}
	int ok = 1;
	if (strcmp(cmd, "check") == 0) {
		printf("%s: %d points x %d applications over %s\n", sweep, s->npoints, s->napps, s->base_path);
		for (int i = 0; i < s->npoints; i++)
			printf("  %d. %s: %s\n", i + 1, s->points[i].name, s->points[i].label);
	} else if (strcmp(cmd, "plan") == 0) {
		ok = dse_plan(s, dir);
		if (ok)
			printf("dse: %s: %d points x %d applications over %s, planned in %s\n", s->name, s->npoints,
			       s->napps, s->base_path, dir);
	} else {
		ok = dse_report(s, dir, seconds);
	}
	dse_sweep_free(s);
	return ok ? 0 : 1;
}
