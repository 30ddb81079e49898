/* dse_main.c - the `dse` command: plans a design-space sweep into point
 * folders and a make file, and reports its results (dse/README.md). `make
 * dse SWEEP=...` runs the three steps: plan, the points, report. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/diag.h"
#include "dse.h"

static const char usage[] =
	"usage: dse plan SWEEP.yaml -o DIR\n"
	"           check the sweep and write its points under DIR: DIR/<point>/spec.yaml (the base\n"
	"           interconnect spec with the point's knobs), DIR/<point>/point.env (applications,\n"
	"           cgrac options) and DIR/points.mk (a target per point, run by scripts/dse_point.sh);\n"
	"           files whose text is unchanged are not rewritten\n"
	"       dse report SWEEP.yaml -o DIR [--seconds S]\n"
	"           gather the points' results into DIR/results.csv, results.md, runtime_area.svg and\n"
	"           resources.svg; S, the sweep's wall time, goes into the summary\n"
	"       dse check SWEEP.yaml\n"
	"           check the sweep and print its points\n"
	"Sweep files: dse/README.md. Errors are reported as file:line:col; nothing is written then.\n";

int main(int argc, char **argv)
{
	const char *cmd = argc > 1 ? argv[1] : NULL, *sweep = NULL, *dir = NULL;
	double seconds = 0;
	for (int i = 1; i < argc; i++)
		if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
			fputs(usage, stdout);
			return 0;
		}
	int bad = !cmd || (strcmp(cmd, "plan") != 0 && strcmp(cmd, "report") != 0 && strcmp(cmd, "check") != 0);
	for (int i = 2; i < argc && !bad; i++) {
		if (strcmp(argv[i], "-o") == 0 && i + 1 < argc) {
			dir = argv[++i];
		} else if (strcmp(argv[i], "--seconds") == 0 && i + 1 < argc && strcmp(cmd, "report") == 0) {
			char *end;
			seconds = strtod(argv[++i], &end);
			bad = *end || seconds < 0 || seconds > 1e9;
		} else if (argv[i][0] != '-' && !sweep) {
			sweep = argv[i];
		} else {
			bad = 1;
		}
	}
	if (bad || !sweep || (strcmp(cmd, "check") != 0) != (dir != NULL)) {
		fputs(usage, stderr);
		return 2;
	}
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
