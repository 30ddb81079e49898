/* peak_gen.c - the commands behind `peak SPEC -o DIR` and `peak verify-rules`
 * (see peak_gen.h). */
#define _DEFAULT_SOURCE
#include "peak_gen.h"

#include <glob.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../common/bv.h"
#include "../common/rng.h"
#include "../common/util.h"
#include "../common/vec.h"
#include "peak.h"
#include "../common/yamlr.h"
#include "peak_collateral.h"
#include "peak_eval.h"
#include "peak_verilog.h"

/* The loaded PE and IR operations of one run. */
typedef struct Loaded {
	Diags *d;
	PeakFile *pe_file;
	const PeakSpec *pe;
	VEC(PeakFile *) ir_files;
	VEC(PeakSpec *) ops;
} Loaded;

static void loaded_free(Loaded *l)
{
	peak_file_free(l->pe_file);
	vec_foreach(&l->ir_files, i) peak_file_free(l->ir_files.data[i]);
	vec_free(&l->ir_files);
	vec_free(&l->ops);
	diags_free(l->d);
}

static int load_pe(Loaded *l, const char *spec)
{
	memset(l, 0, sizeof *l);
	l->d = diags_new(stderr);
	l->pe_file = peak_load(spec, l->d);
	if (!l->pe_file) {
		fprintf(stderr, "peak: %d error%s in %s; nothing written\n", diags_errors(l->d),
			diags_errors(l->d) == 1 ? "" : "s", spec);
		return 0;
	}
	if (l->pe_file->specs[0]->kind != PEAK_PE) {
		fprintf(stderr, "peak: %s holds IR operations, not a PE spec\n", spec);
		return 0;
	}
	l->pe = l->pe_file->specs[0];
	return 1;
}

static int load_ir(Loaded *l, const char *const *ir, int nir)
{
	for (int i = 0; i < nir; i++) {
		PeakFile *f = peak_load(ir[i], l->d);
		if (!f) {
			fprintf(stderr, "peak: errors in IR file %s\n", ir[i]);
			return 0;
		}
		if (f->specs[0]->kind != PEAK_IR) {
			fprintf(stderr, "peak: %s is a PE spec, not an IR file\n", ir[i]);
			peak_file_free(f);
			return 0;
		}
		vec_push(&l->ir_files, f);
		for (int k = 0; k < f->nspecs; k++)
			vec_push(&l->ops, f->specs[k]);
	}
	return 1;
}

/* The IR files beside the executable (bin/../peak/ir/NAME.yaml), sorted. */
static int default_ir(char ***paths)
{
	char *exe = util_exe_path();
	*paths = NULL;
	if (!exe)
		return 0;
	char *slash = strrchr(exe, '/');
	if (slash)
		*slash = '\0';
	char *pattern = xasprintf("%s/../peak/ir/*.yaml", exe);
	free(exe);
	glob_t g;
	int count = 0;
	if (glob(pattern, 0, NULL, &g) == 0) {
		*paths = xcalloc(g.gl_pathc + 1, sizeof(char *));
		for (size_t i = 0; i < g.gl_pathc; i++)
			(*paths)[count++] = xstrdup(g.gl_pathv[i]);
		globfree(&g);
	}
	free(pattern);
	return count;
}

/* Rules are independent: worker threads take IR operations in turn, each with
 * its own Z3 context, and store results by index so the output is the same
 * whatever the scheduling. */
typedef struct SynthJob {
	const Loaded *l;
	const PeakGenOptions *o;
	PeakRuleInfo *rules;
	int next, done;
	pthread_mutex_t lock;
} SynthJob;

static void *synth_worker(void *arg)
{
	SynthJob *job = arg;
	const Loaded *l = job->l;
	int n = l->ops.len;
	for (;;) {
		pthread_mutex_lock(&job->lock);
		int i = job->next++;
		pthread_mutex_unlock(&job->lock);
		if (i >= n)
			return NULL;
		const PeakSpec *ir = l->ops.data[i];
		uint64_t seed = util_fnv1a(job->o->seed, ir->name, strlen(ir->name));
		PeakRule *r = &job->rules[i].rule;
		peak_synth_rule(l->pe, ir, seed, job->o->search_limit, r);
		double t0 = util_now();
		int nreg = peak_rule_registers(l->pe, r, seed, PEAK_REGISTER_LIMIT);
		double treg = util_now() - t0;
		pthread_mutex_lock(&job->lock);
		job->done++;
		if (!job->o->quiet && r->found)
			fprintf(stderr, "peak: rule %d of %d: %-12s proved (%d round%s, %.3f s), %d of %d "
				"inputs registered (%.3f s)\n", job->done, n, ir->name, r->iterations,
				r->iterations == 1 ? "" : "s", r->seconds, nreg, ir->nports[PEAK_INPUT], treg);
		else if (!job->o->quiet)
			fprintf(stderr, "peak: rule %d of %d: %-12s unsupported (%d round%s, %.3f s)\n",
				job->done, n, ir->name, r->iterations, r->iterations == 1 ? "" : "s",
				r->seconds);
		pthread_mutex_unlock(&job->lock);
	}
}

static void synthesize_all(const Loaded *l, const PeakGenOptions *o, PeakRuleInfo *rules)
{
	SynthJob job = { l, o, rules, 0, 0, PTHREAD_MUTEX_INITIALIZER };
	long cores = sysconf(_SC_NPROCESSORS_ONLN);
	int nthreads = cores < 1 ? 1 : cores > 8 ? 8 : (int)cores;
	pthread_t threads[8];
	for (int t = 0; t < nthreads; t++)
		if (pthread_create(&threads[t], NULL, synth_worker, &job) != 0)
			ICE("cannot start a synthesis thread");
	for (int t = 0; t < nthreads; t++)
		pthread_join(threads[t], NULL);
	peak_rules_annotate(l->pe, l->ops.data, l->ops.len, rules);
}

static char *out_path(const char *dir, const char *name, const char *ext)
{
	char *file = xasprintf("%s%s", name, ext);
	char *path = util_path_join(dir, file);
	free(file);
	return path;
}

static int count_lines(const char *path)
{
	char *text = util_read_file(path, NULL);
	int n = 0;
	for (const char *p = text; p && *p; p++)
		n += *p == '\n';
	free(text);
	return n;
}

/* Writes <pe>.v, <pe>.nf, <pe>.info.yaml and (with rules) <pe>.rules.yaml
 * into dir, all or nothing; prints the one-line summary. Returns the exit
 * status. */
static int write_collateral(const Loaded *l, PeakRuleInfo *rules, const PeakGenOptions *o,
			    const char *const *ir, int nir, double t0)
{
	if (util_mkdir_p(o->dir) != 0) {
		fprintf(stderr, "peak: cannot create '%s'\n", o->dir);
		return 1;
	}
	int status = 1;
	OutSet *out = outset_new();
	char *vpath = out_path(o->dir, l->pe->name, ".v");
	char *ipath = out_path(o->dir, l->pe->name, ".info.yaml");
	char *rpath = out_path(o->dir, l->pe->name, ".rules.yaml");
	char *npath = out_path(o->dir, l->pe->name, ".nf");
	/* the marker, the file a caller takes as done: the rules, else the info */
	FILE *fv = outset_open(out, vpath);
	FILE *fn = fv ? outset_open(out, npath) : NULL;
	FILE *fi = !fn ? NULL : o->no_rules ? outset_open_marker(out, ipath) : outset_open(out, ipath);
	FILE *fr = fi && !o->no_rules ? outset_open_marker(out, rpath) : NULL;
	if (!fv || !fn || !fi || (!o->no_rules && !fr)) {
		outset_abort(out);
	} else {
		peak_emit_verilog(l->pe, fv);
		peak_write_nf(l->pe, fn);
		peak_write_info(l->pe, l->pe_file->doc->text, fi);
		if (fr)
			peak_write_rules(l->pe, rules, l->ops.len, ir, nir, fr);
		status = outset_commit(out) == 0 ? 0 : 1;
	}
	if (status == 0) {
		int found = 0, registered = 0;
		for (int i = 0; i < l->ops.len; i++) {
			found += rules[i].rule.found;
			registered += peak_rule_nregistered(&rules[i].rule);
		}
		printf("peak: %s: %d-bit instruction, %d lines of Verilog", l->pe->name,
		       l->pe->inst_width, count_lines(vpath));
		if (!o->no_rules)
			printf(", %d rules (%d IR operations unsupported), %d registered inputs", found,
			       l->ops.len - found, registered);
		printf(" in %.2f s -> %s\n", util_now() - t0, o->dir);
	}
	free(vpath), free(ipath), free(rpath), free(npath);
	return status;
}

int peak_generate(const PeakGenOptions *o)
{
	double t0 = util_now();
	char **dflt = NULL;
	int ndflt = 0;
	const char *const *ir = o->ir;
	int nir = o->nir;
	if (!o->no_rules && nir == 0) {
		ndflt = default_ir(&dflt);
		ir = (const char *const *)dflt;
		nir = ndflt;
		if (!nir) {
			fprintf(stderr, "peak: no IR operations found; pass --ir FILE or --no-rules\n");
			return 1;
		}
	}
	Loaded l;
	int status = 1;
	if (load_pe(&l, o->spec) && (o->no_rules || load_ir(&l, ir, nir))) {
		PeakRuleInfo *rules = xcalloc((size_t)l.ops.len + 1, sizeof *rules);
		if (!o->no_rules)
			synthesize_all(&l, o, rules);
		status = write_collateral(&l, rules, o, ir, nir, t0);
		for (int i = 0; i < l.ops.len; i++)
			peak_rule_free(&rules[i].rule);
		free(rules);
	}
	loaded_free(&l);
	for (int i = 0; i < ndflt; i++)
		free(dflt[i]);
	free(dflt);
	return status;
}

/* ---- peak verify-rules ---- */

/* IR operations that the rules file neither has a rule for nor lists as
 * unsupported (each is reported). */
static int unlisted_ops(const char *path, const Loaded *l)
{
	Diags *d = diags_new(stderr);
	YDoc *doc = ydoc_load_file(path, d);
	int missing = 0;
	for (int i = 0; doc && i < l->ops.len; i++) {
		const char *name = l->ops.data[i]->name;
		int seen = 0;
		const char *lists[2] = { "rules", "unsupported" };
		for (int k = 0; k < 2; k++) {
			const YNode *list = ymap_get(doc->root, lists[k]);
			for (int j = 0; list && list->kind == YN_SEQ && j < list->len; j++) {
				const YNode *ir = ymap_get(list->items[j], "ir");
				seen |= ir && strcmp(ir->value, name) == 0;
			}
		}
		if (!seen) {
			printf("FAIL %s: neither a rule nor listed as unsupported\n", name);
			missing++;
		}
	}
	ydoc_free(doc);
	diags_free(d);
	return missing;
}

int peak_verify_rules(const char *spec, const char *rules_path, const char **ir, int nir,
		      int vectors, uint64_t seed)
{
	Loaded l;
	int status = 1;
	if (!load_pe(&l, spec) || !load_ir(&l, ir, nir)) {
		loaded_free(&l);
		return 1;
	}
	PeakRule *rules;
	int n = peak_read_rules(rules_path, l.pe, l.ops.data, l.ops.len, &rules, l.d);
	if (n < 0)
		fprintf(stderr, "peak: %s is not a valid rules file for %s\n", rules_path, l.pe->name);
	if (n >= 0) {
		int passed = 0, failed = 0;
		for (int i = 0; i < n; i++) {
			char *why = NULL;
			uint64_t s = util_fnv1a(seed, rules[i].ir->name, strlen(rules[i].ir->name));
			int bad = peak_rule_check(l.pe, &rules[i], vectors, s, &why), badreg = 0;
			if (bad) {
				printf("FAIL %s: %d of %d vectors differ, first at %s\n", rules[i].ir->name,
				       bad, vectors, why);
				failed++;
			} else if ((badreg = peak_rule_check_registers(l.pe, &rules[i], vectors, s, &why))) {
				printf("FAIL %s: %s (%d failed check%s of its registered inputs)\n",
				       rules[i].ir->name, why, badreg, badreg == 1 ? "" : "s");
				failed++;
			} else if (!peak_rule_prove(l.pe, &rules[i], &why)) {
				printf("FAIL %s: not proved by Z3: %s\n", rules[i].ir->name, why);
				failed++;
			} else if (!peak_rule_prove_registers(l.pe, &rules[i], &why)) {
				printf("FAIL %s: %s\n", rules[i].ir->name, why);
				failed++;
			} else {
				passed++;
			}
			free(why);
			peak_rule_free(&rules[i]);
		}
		free(rules);
		int missing = unlisted_ops(rules_path, &l);
		printf("verify-rules %s: %d rules, each proved by Z3 and run on %d vectors; %d IR "
		       "operations neither ruled nor listed unsupported: %d passed, %d failed\n",
		       l.pe->name, n, vectors, missing, passed, failed + missing);
		failed += missing;
		status = failed ? 1 : 0;
	}
	loaded_free(&l);
	return status;
}
