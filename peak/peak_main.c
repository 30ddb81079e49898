/* peak_main.c - the `peak` command: PE spec to Verilog, info and rewrite
 * rules; the functional model; test vectors and a Verilator bench for the
 * generated Verilog; re-checking rules. */
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/bv.h"
#include "../common/diag.h"
#include "../common/util.h"
#include "peak.h"
#include "peak_bench.h"
#include "peak_eval.h"
#include "peak_gen.h"
#include "peak_synth.h"

static const char usage[] =
	"usage: peak SPEC -o DIR [--ir IR.yaml]... [--seed N] [--search-limit N] [--no-rules] [-q]\n"
	"           generate DIR/<pe>.v, DIR/<pe>.info.yaml, DIR/<pe>.rules.yaml and DIR/<pe>.nf;\n"
	"           --search-limit bounds (in Z3 resource units, default 3000000) the last\n"
	"           phase of rule synthesis, where every instruction field is free\n"
	"       peak check SPEC...\n"
	"           parse and type-check specs (PE specs or IR files)\n"
	"       peak eval SPEC --inst F=V,... --in X=V,... [--state S=V,...] [--cycles N]\n"
	"       peak eval IR.yaml --op NAME --in X=V,... [--param K=V,...]\n"
	"           run the functional model and print outputs and next state\n"
	"       peak vectors SPEC [--count N] [--cycles K] [--seed S] [-o FILE]\n"
	"           random instruction/input/state sequences with the model's results\n"
	"       peak tb SPEC -o DIR\n"
	"           a Verilator C++ bench that checks <pe>.v against such vectors\n"
	"       peak verify-rules SPEC RULES.yaml --ir IR.yaml... [--vectors N] [--seed S]\n"
	"           re-check every rule and its registered inputs on random vectors with the\n"
	"           functional model, and prove them again with Z3\n"
	"\n"
	"Values are decimal, 0x.., 0b.. or negative decimal; enum fields take member names.\n"
	"Numeric options are whole numbers, decimal, 0x.. or 0b..: --cycles 0 to 1000000, --count and\n"
	"--vectors 0 to 100000000, --seed 0 to 2^64 - 1, --search-limit 0 to 2^32 - 1 (else exit status 2).\n";

/* Bounds of the numeric options: cycles of `eval` and of each sequence of
 * `vectors`; sequences of `vectors` and random vectors of `verify-rules`. */
#define PEAK_MAX_CYCLES 1000000
#define PEAK_MAX_COUNT 100000000

typedef struct Args {
	int argc;
	char **argv;
	int i;
} Args;

static int usage_error(const char *fmt, const char *arg)
{
	fprintf(stderr, "peak: ");
	fprintf(stderr, fmt, arg);
	fprintf(stderr, "\n(see peak --help)\n");
	return 2;
}

/* Finds option name's value in argv (NULL if absent). */
static const char *option(int argc, char **argv, const char *name)
{
	for (int i = 0; i < argc - 1; i++)
		if (strcmp(argv[i], name) == 0)
			return argv[i + 1];
	return NULL;
}

/* The value of numeric option name (its first, as option() finds it), dflt
 * if absent. Every value given is read by util_option_number, which exits
 * with status 2 on anything but a number from lo to hi. */
static uint64_t option_number(int argc, char **argv, const char *name, uint64_t lo, uint64_t hi, uint64_t dflt)
{
	int found = 0;
	uint64_t first = dflt;
	for (int i = 0; i < argc - 1; i++)
		if (strcmp(argv[i], name) == 0) {
			uint64_t v = util_option_number("peak", name, argv[++i], lo, hi);
			if (!found++)
				first = v;
		}
	return first;
}

/* Collects every value of a repeatable option; more than max is an error. */
static int options_all(int argc, char **argv, const char *name, const char **out, int max)
{
	int n = 0;
	for (int i = 0; i < argc - 1; i++) {
		if (strcmp(argv[i], name) != 0)
			continue;
		if (n == max) {
			fprintf(stderr, "peak: at most %d %s options\n", max, name);
			exit(2);
		}
		out[n++] = argv[++i];
	}
	return n;
}

/* Checks that every argument is a known option (with a value) or a positional. */
static int check_options(int argc, char **argv, const char *const *with_value,
			 const char *const *flags, int npos, const char **pos)
{
	int np = 0;
	for (int i = 0; i < argc; i++) {
		const char *a = argv[i];
		int known = 0;
		for (const char *const *o = with_value; *o && !known; o++)
			if (strcmp(*o, a) == 0) {
				if (i + 1 >= argc)
					return usage_error("option %s needs a value", a);
				known = 1;
				i++;
			}
		for (const char *const *o = flags; *o && !known; o++)
			known = strcmp(*o, a) == 0;
		if (known)
			continue;
		if (a[0] == '-' && a[1])
			return usage_error("unknown option '%s'", a);
		if (np >= npos)
			return usage_error("unexpected argument '%s'", a);
		pos[np++] = a;
	}
	if (np < npos)
		return usage_error("%s", "missing SPEC argument");
	return 0;
}

static PeakFile *load_or_die(const char *path, Diags *d)
{
	PeakFile *f = peak_load(path, d);
	if (!f) {
		fprintf(stderr, "peak: %d error%s in %s\n", diags_errors(d),
			diags_errors(d) == 1 ? "" : "s", path);
	}
	return f;
}

/* ---- peak check ---- */

static int cmd_check(int argc, char **argv)
{
	if (argc < 1)
		return usage_error("%s", "check needs at least one SPEC");
	int bad = 0;
	for (int i = 0; i < argc; i++) {
		Diags *d = diags_new(stderr);
		PeakFile *f = load_or_die(argv[i], d);
		if (f) {
			for (int k = 0; k < f->nspecs; k++) {
				const PeakSpec *s = f->specs[k];
				printf("%s: %s %s: %d inputs, %d outputs, %d state, %d-bit instruction, "
				       "%d nodes\n",
				       argv[i], s->kind == PEAK_PE ? "pe" : "ir", s->name,
				       s->nports[PEAK_INPUT], s->nports[PEAK_OUTPUT],
				       s->nports[PEAK_STATE], s->inst_width, s->g.nodes.len);
			}
		}
		bad |= !f;
		peak_file_free(f);
		diags_free(d);
	}
	return bad;
}

/* ---- peak eval ---- */

/* Parses "a=1,b=Add" into values of class cls of s. */
static int parse_assignments(const PeakSpec *s, int cls, const char *text, uint64_t *vals,
			     const char *what)
{
	char *buf = xstrdup(text);
	int ok = 1;
	for (char *tok = strtok(buf, ","); tok && ok; tok = strtok(NULL, ",")) {
		char *eq = strchr(tok, '=');
		if (!eq) {
			fprintf(stderr, "peak: expected NAME=VALUE in %s, got '%s'\n", what, tok);
			ok = 0;
			break;
		}
		*eq = '\0';
		int k = peak_port_index(s, cls, tok);
		if (k < 0) {
			fprintf(stderr, "peak: %s has no %s '%s'\n", s->name, what, tok);
			ok = 0;
			break;
		}
		const PeakPort *p = &s->ports[cls][k];
		const char *v = eq + 1;
		if (p->type.enum_id >= 0) {
			const PeakEnum *e = &s->enums[p->type.enum_id];
			int m = peak_enum_member(e, v);
			if (m >= 0) {
				vals[k] = e->codes[m];
				continue;
			}
		}
		int r = bv_parse(v, p->type.width, &vals[k]);
		if (r) {
			fprintf(stderr, "peak: %s=%s: %s\n", tok, v,
				r == -2 ? "does not fit in the width" : "not a number or member name");
			ok = 0;
		}
	}
	free(buf);
	return ok;
}

static void print_value(const PeakSpec *s, const PeakPort *p, uint64_t v)
{
	if (p->type.enum_id >= 0) {
		const PeakEnum *e = &s->enums[p->type.enum_id];
		for (int m = 0; m < e->n; m++)
			if (e->codes[m] == v) {
				printf("%s", e->members[m]);
				return;
			}
	}
	char hex[24];
	bv_format_hex(hex, v, p->type.width);
	if (p->type.width == 1)
		printf("%llu", (unsigned long long)v);
	else
		printf("%llu (0x%s)", (unsigned long long)v, hex);
}

static const PeakSpec *find_op(const PeakFile *f, const char *name)
{
	if (f->nspecs == 1 && f->specs[0]->kind == PEAK_PE && !name)
		return f->specs[0];
	if (!name) {
		fprintf(stderr, "peak: %s holds IR operations; choose one with --op NAME\n",
			f->doc->file);
		return NULL;
	}
	for (int i = 0; i < f->nspecs; i++)
		if (strcmp(f->specs[i]->name, name) == 0)
			return f->specs[i];
	fprintf(stderr, "peak: no operation '%s' in %s\n", name, f->doc->file);
	return NULL;
}

static int cmd_eval(int argc, char **argv)
{
	static const char *const with_value[] = { "--inst", "--in", "--state", "--param",
						  "--cycles", "--op", NULL };
	static const char *const flags[] = { NULL };
	const char *pos[1];
	int r = check_options(argc, argv, with_value, flags, 1, pos);
	if (r)
		return r;
	long cycles = (long)option_number(argc, argv, "--cycles", 0, PEAK_MAX_CYCLES, 1);
	Diags *d = diags_new(stderr);
	PeakFile *f = load_or_die(pos[0], d);
	if (!f) {
		diags_free(d);
		return 1;
	}
	const PeakSpec *s = find_op(f, option(argc, argv, "--op"));
	PeakValues pv;
	int ok = s != NULL;
	if (s) {
		peak_values_init(&pv, s);
		const char *inst = option(argc, argv, "--inst"), *in = option(argc, argv, "--in");
		const char *st = option(argc, argv, "--state"), *par = option(argc, argv, "--param");
		ok = (!inst || parse_assignments(s, PEAK_FIELD, inst, pv.v[PEAK_FIELD], "instruction field")) &&
		     (!in || parse_assignments(s, PEAK_INPUT, in, pv.v[PEAK_INPUT], "input")) &&
		     (!st || parse_assignments(s, PEAK_STATE, st, pv.v[PEAK_STATE], "state variable")) &&
		     (!par || parse_assignments(s, PEAK_PARAM, par, pv.v[PEAK_PARAM], "param"));
	}
	if (ok) {
		uint64_t *next = xcalloc((size_t)s->nports[PEAK_STATE] + 1, sizeof(uint64_t));
		for (long c = 0; c < cycles; c++) {
			peak_eval(s, &pv, next, NULL);
			if (cycles > 1)
				printf("cycle %ld\n", c);
			for (int i = 0; i < s->nports[PEAK_OUTPUT]; i++) {
				printf("%s%s = ", cycles > 1 ? "  " : "", s->ports[PEAK_OUTPUT][i].name);
				print_value(s, &s->ports[PEAK_OUTPUT][i], pv.v[PEAK_OUTPUT][i]);
				printf("\n");
			}
			for (int i = 0; i < s->nports[PEAK_STATE]; i++) {
				printf("%snext %s = ", cycles > 1 ? "  " : "", s->ports[PEAK_STATE][i].name);
				print_value(s, &s->ports[PEAK_STATE][i], next[i]);
				printf("\n");
			}
			memcpy(pv.v[PEAK_STATE], next, (size_t)s->nports[PEAK_STATE] * sizeof(uint64_t));
		}
		free(next);
	}
	if (s)
		peak_values_free(&pv);
	peak_file_free(f);
	diags_free(d);
	return ok ? 0 : 1;
}

/* ---- peak SPEC -o DIR ---- */

static int cmd_generate(int argc, char **argv)
{
	static const char *const with_value[] = { "-o", "--ir", "--seed", "--search-limit", NULL };
	static const char *const flags[] = { "--no-rules", "-q", NULL };
	const char *pos[1];
	int r = check_options(argc, argv, with_value, flags, 1, pos);
	if (r)
		return r;
	const char *dir = option(argc, argv, "-o");
	if (!dir)
		return usage_error("%s", "missing -o DIR");
	PeakGenOptions o = { 0 };
	o.spec = pos[0];
	o.dir = dir;
	o.nir = options_all(argc, argv, "--ir", o.ir, PEAK_GEN_MAX_IR);
	o.seed = option_number(argc, argv, "--seed", 0, UINT64_MAX, 1);
	o.search_limit = (unsigned)option_number(argc, argv, "--search-limit", 0, UINT_MAX, PEAK_SEARCH_LIMIT);
	for (int i = 0; i < argc; i++) {
		o.no_rules |= strcmp(argv[i], "--no-rules") == 0;
		o.quiet |= strcmp(argv[i], "-q") == 0;
	}
	return peak_generate(&o);
}

static int cmd_vectors(int argc, char **argv)
{
	static const char *const with_value[] = { "--count", "--cycles", "--seed", "-o", NULL };
	static const char *const flags[] = { NULL };
	const char *pos[1];
	int r = check_options(argc, argv, with_value, flags, 1, pos);
	if (r)
		return r;
	return peak_vectors(pos[0], option(argc, argv, "-o"),
			    (int)option_number(argc, argv, "--count", 0, PEAK_MAX_COUNT, 1000),
			    (int)option_number(argc, argv, "--cycles", 0, PEAK_MAX_CYCLES, 4),
			    option_number(argc, argv, "--seed", 0, UINT64_MAX, 1));
}

static int cmd_tb(int argc, char **argv)
{
	static const char *const with_value[] = { "-o", NULL };
	static const char *const flags[] = { NULL };
	const char *pos[1];
	int r = check_options(argc, argv, with_value, flags, 1, pos);
	if (r)
		return r;
	const char *dir = option(argc, argv, "-o");
	if (!dir)
		return usage_error("%s", "missing -o DIR");
	return peak_tb(pos[0], dir);
}

static int cmd_verify_rules(int argc, char **argv)
{
	static const char *const with_value[] = { "--ir", "--vectors", "--seed", NULL };
	static const char *const flags[] = { NULL };
	const char *pos[2];
	int r = check_options(argc, argv, with_value, flags, 2, pos);
	if (r)
		return r;
	const char *ir[PEAK_GEN_MAX_IR];
	int nir = options_all(argc, argv, "--ir", ir, PEAK_GEN_MAX_IR);
	return peak_verify_rules(pos[0], pos[1], ir, nir,
				 (int)option_number(argc, argv, "--vectors", 0, PEAK_MAX_COUNT, 1000),
				 option_number(argc, argv, "--seed", 0, UINT64_MAX, 1));
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		fputs(usage, stderr);
		return 2;
	}
	for (int i = 1; i < argc; i++)
		if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
			fputs(usage, stdout);
			return 0;
		}
	const char *cmd = argv[1];
	if (strcmp(cmd, "check") == 0)
		return cmd_check(argc - 2, argv + 2);
	if (strcmp(cmd, "eval") == 0)
		return cmd_eval(argc - 2, argv + 2);
	if (strcmp(cmd, "vectors") == 0)
		return cmd_vectors(argc - 2, argv + 2);
	if (strcmp(cmd, "tb") == 0)
		return cmd_tb(argc - 2, argv + 2);
	if (strcmp(cmd, "verify-rules") == 0)
		return cmd_verify_rules(argc - 2, argv + 2);
	return cmd_generate(argc - 1, argv + 1);
}
