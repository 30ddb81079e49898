/* lake_sim.c - `lake sim` and `lake vectors`: the functional model
 * (collateral/memmodel.h) run on a configuration, and the files of the Verilator
 * bench (lake/COLLATERAL.md, "Bench files"): a random valid configuration
 * (with random look-up table loads), random inputs and the model's per-cycle
 * trace. Both read only the collateral. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../collateral/affine.h"
#include "../common/diag.h"
#include "../collateral/memmodel.h"
#include "../common/rng.h"
#include "../common/util.h"
#include "lake_cmds.h"
#include "lake_scenario.h"

typedef struct SimOpts {
	const char *info, *config, *out, *scenario;
	long cycles;
	uint64_t seed;
	int quiet;
} SimOpts;

static int parse_opts(int argc, char **argv, SimOpts *o, int want_config)
{
	memset(o, 0, sizeof *o);
	o->cycles = -1;
	o->seed = 1;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		int has = i + 1 < argc;
		if (strcmp(a, "--config") == 0 && has && want_config)
			o->config = argv[++i];
		else if (strcmp(a, "-o") == 0 && has && !want_config)
			o->out = argv[++i];
		else if (strcmp(a, "--scenario") == 0 && has && !want_config)
			o->scenario = argv[++i];
		else if (strcmp(a, "--cycles") == 0 && has)
			o->cycles = (long)util_option_number("lake", a, argv[++i], 0, 100000000);
		else if (strcmp(a, "--seed") == 0 && has)
			o->seed = util_option_number("lake", a, argv[++i], 0, UINT64_MAX);
		else if (strcmp(a, "-q") == 0)
			o->quiet = 1;
		else if (a[0] != '-' && !o->info)
			o->info = a;
		else {
			fprintf(stderr, "lake %s: unexpected argument '%s' (see lake --help)\n", argv[0], a);
			return 0;
		}
	}
	if (!o->info || (o->cycles < 0 && !o->scenario) || (want_config ? !o->config : !o->out)) {
		fprintf(stderr, "lake %s: needs INFO --cycles N %s (see lake --help)\n", argv[0],
			want_config ? "--config FILE" : "-o DIR");
		return 0;
	}
	return 1;
}

/* ---- configuration files ---- */

/* Only hex digits and blanks from s to end (strtoul would also take "0x",
 * signs and more). */
static int plain_hex(const char *s, const char *end)
{
	for (; s < end; s++)
		if (!strchr("0123456789abcdefABCDEF \t", *s))
			return 0;
	return 1;
}

/* Reads "AAAAAAAA DDDDDDDD" lines into the model; errors with positions. */
static int read_config(const char *path, MemModel *m, Diags *d)
{
	size_t len;
	char *text = util_read_file(path, &len);
	if (!text) {
		fprintf(stderr, "lake: error: %s: cannot read: %s\n", path, util_read_why(errno));
		return 0;
	}
	diags_add_source(d, path, text);
	int line = 1, ok = 1;
	for (char *p = text; *p; line++) {
		char *eol = strchr(p, '\n');
		if (eol)
			*eol = '\0';
		char *s = p;
		while (*s == ' ' || *s == '\t')
			s++;
		if (*s && *s != '#') {
			char *end1, *end2;
			unsigned long addr = strtoul(s, &end1, 16), data = end1 > s ? strtoul(end1, &end2, 16) : 0;
			const char *rest = end1 > s && end2 > end1 ? end2 : "";
			while (*rest == ' ' || *rest == '\t' || *rest == '\r')
				rest++;
			if (end1 == s || end2 == end1 || addr > 0xffffffffUL || data > 0xffffffffUL ||
			    (*rest && *rest != '#') || !plain_hex(s, end2)) {
				const char *at = *rest && *rest != '#' ? rest : s;
				diag_error(d, path, line, (int)(at - p) + 1,
					   "expected a configuration write 'AAAAAAAA DDDDDDDD' (hex)%s",
					   at == rest ? ", then the end of the line or a # comment" : "");
				ok = 0;
			} else if (!memmodel_config_write(m, (uint32_t)addr, (uint32_t)data)) {
				diag_error(d, path, line, (int)(s - p) + 1,
					   "no configuration register at address 0x%08lx", addr);
				ok = 0;
			}
		}
		if (!eol)
			break;
		p = eol + 1;
	}
	free(text);
	return ok;
}

/* ---- stimulus ---- */

typedef struct Stim {
	Rng rng;
	uint64_t *in, *chain_in;
	int *chain_valid;
} Stim;

static void stim_init(Stim *s, const MemInfo *mi, uint64_t seed)
{
	rng_seed(&s->rng, seed * 2 + 1);
	s->in = xcalloc((size_t)mi->nins + 1, sizeof(uint64_t));
	s->chain_in = xcalloc((size_t)mi->nouts + 1, sizeof(uint64_t));
	s->chain_valid = xcalloc((size_t)mi->nouts + 1, sizeof(int));
}

static void stim_next(Stim *s, const MemInfo *mi)
{
	for (int i = 0; i < mi->nins; i++)
		s->in[i] = rng_bits(&s->rng, mi->word);
	for (int o = 0; mi->chain && o < mi->nouts; o++) {
		s->chain_in[o] = rng_bits(&s->rng, mi->word);
		s->chain_valid[o] = (int)rng_bits(&s->rng, 1);
	}
}

static void stim_write(const Stim *s, const MemInfo *mi, FILE *f)
{
	int digits = (mi->word + 3) / 4;
	for (int i = 0; i < mi->nins; i++)
		fprintf(f, "%s%0*llx", i ? " " : "", digits, (unsigned long long)s->in[i]);
	for (int o = 0; mi->chain && o < mi->nouts; o++)
		fprintf(f, " %0*llx %d", digits, (unsigned long long)s->chain_in[o], s->chain_valid[o]);
	fputc('\n', f);
}

static void stim_free(Stim *s)
{
	free(s->in);
	free(s->chain_in);
	free(s->chain_valid);
}

/* Runs the model for o->cycles cycles, writing the trace to trace and the
 * inputs to inputs (either may be NULL). Returns the number of firings. */
static long run(MemModel *m, const MemInfo *mi, const SimOpts *o, FILE *trace, FILE *inputs)
{
	Stim s;
	stim_init(&s, mi, o->seed);
	long fires = 0;
	for (long k = 0; k < o->cycles; k++) {
		stim_next(&s, mi);
		if (inputs)
			stim_write(&s, mi, inputs);
		const MemCycle *c = memmodel_step(m, s.in, s.chain_in, s.chain_valid);
		for (int i = 0; i < mi->nctrls; i++)
			fires += c->fire[i];
		if (trace)
			memmodel_trace_line(m, c, trace);
	}
	stim_free(&s);
	return fires;
}

int lake_cmd_sim(int argc, char **argv)
{
	SimOpts o;
	if (!parse_opts(argc, argv, &o, 1))
		return 2;
	MemInfo *mi = lake_load_info(o.info);
	if (!mi)
		return 1;
	MemModel *m = memmodel_new(mi);
	Diags *d = diags_new(stderr);
	int ok = read_config(o.config, m, d);
	diags_free(d);
	if (ok) {
		memmodel_flush(m);
		long fires = run(m, mi, &o, stdout, NULL);
		if (!o.quiet)
			fprintf(stderr, "lake sim: %s: %ld cycles, %ld controller firings, %ld dropped requests, "
				"%ld ii violations\n", mi->name, o.cycles, fires, memmodel_conflicts(m),
				memmodel_ii_violations(m));
	}
	memmodel_free(m);
	meminfo_free(mi);
	return ok ? 0 : 1;
}

/* ---- random valid configurations ---- */

static void random_addr(const MemInfo *mi, const MemAddrGen *ag, AffineMap *a, uint32_t chain_id, Rng *r)
{
	const MemUnitInfo *u = &mi->units[ag->end.unit];
	int ab = u->ports[ag->end.port].addr_bits;
	int64_t slots = 1LL << ab;
	int64_t reach = slots < 8 ? slots : 8;
	a->offset = (int64_t)rng_below(r, (uint64_t)slots);
	if (u->chained)   /* mostly this tile's part of the chain */
		a->offset += (int64_t)(rng_below(r, 4) == 0 ? rng_below(r, 4) : chain_id) << ab;
	for (int l = 0; l < a->dims; l++)
		a->stride[l] = (int64_t)rng_below(r, (uint64_t)(2 * reach + 1)) - reach;
}

static void random_ctrl(const MemInfo *mi, const MemCtrl *ct, uint32_t chain_id, Rng *r, uint32_t *regs)
{
	regs[ct->en] = rng_below(r, 10) < 9;
	if (rng_below(r, 12) == 0) {  /* anything at all: generators wrap, schedules rarely met */
		for (int l = 0; l < mi->dims; l++)
			regs[ct->max[l]] = (uint32_t)rng_bits(r, mi->counter_bits);
		return;
	}
	AffineMap sched = { .dims = mi->dims };
	int levels = 1 + (int)rng_below(r, (uint64_t)(mi->dims < 4 ? mi->dims : 4));
	int64_t span = 1, ops = 1;
	sched.offset = (int64_t)rng_below(r, 64);
	for (int l = 0; l < mi->dims; l++) {
		/* 2 to 9 iterations per level, at most 600 operations in all */
		sched.extent[l] = l < levels ? 2 + (int64_t)rng_below(r, 8) : 1;
		while (ops * sched.extent[l] > 600)
			sched.extent[l]--;
		ops *= sched.extent[l];
		sched.stride[l] = l == 0 ? 1 + (int64_t)rng_below(r, 3) : span + (int64_t)rng_below(r, 4);
		span = sched.stride[l] * (sched.extent[l] - 1) + (l == 0 ? 1 : span);
		regs[ct->max[l]] = (uint32_t)(sched.extent[l] - 1);
	}
	mem_set_gen(mi, &ct->sched, &sched, regs);
	const MemAddrGen *ags[2] = { ct->src, ct->dst };
	for (int i = 0; i < 2; i++) {
		if (!ags[i])
			continue;
		AffineMap a = sched;
		random_addr(mi, ags[i], &a, chain_id, r);
		mem_set_gen(mi, &ags[i]->gen, &a, regs);
	}
}

static void random_config(const MemInfo *mi, uint64_t seed, uint32_t *regs)
{
	Rng r;
	rng_seed(&r, seed * 2);
	for (int i = 0; i < mi->nregs; i++)  /* junk in what stays disabled */
		regs[i] = (uint32_t)rng_bits(&r, mi->regs[i].width);
	regs[mi->tile_en] = 1;
	uint32_t chain_id = 0;
	if (mi->chain_id >= 0)
		regs[mi->chain_id] = chain_id = (uint32_t)rng_below(&r, 2);
	for (int c = 0; c < mi->nctrls; c++)
		random_ctrl(mi, &mi->ctrls[c], chain_id, &r, regs);
}

/* One configuration bus write to config.hex and to the model. */
static void bus_write(MemModel *m, uint32_t addr, uint32_t data, FILE *f)
{
	fprintf(f, "%08x %08x\n", addr, data);
	memmodel_config_write(m, addr, data);
}

/* Configuration bus writes for every register of tile x, then the look-up
 * table's loads (writes of lookup_wr), tile_en last: the tile runs from the
 * cycle tile_en is written, so it must not start before the rest of its
 * configuration is in place. The model m sees the same writes as the bench
 * (the loads, and the write of lookup_wr's register value, store words). */
static void write_config(const MemInfo *mi, const uint32_t *regs, const uint32_t *loads, long nloads, int x,
			 MemModel *m, FILE *f)
{
	uint32_t tile = (uint32_t)x << 8;
	for (int i = 0; i < mi->nregs; i++)
		if (i != mi->tile_en)
			bus_write(m, mem_reg_address(&mi->regs[i]) | tile, regs[i], f);
	for (long k = 0; k < nloads; k++)
		bus_write(m, mem_reg_address(&mi->regs[mi->lookup.wr]) | tile, loads[k], f);
	bus_write(m, mem_reg_address(&mi->regs[mi->tile_en]) | tile, regs[mi->tile_en], f);
}

/* Random table loads for a random configuration: up to max words at random
 * addresses among the first 128, so that some share a row and some are
 * loaded twice. */
static long random_loads(const MemInfo *mi, uint64_t seed, uint32_t *loads, long max)
{
	Rng r;
	rng_seed(&r, seed * 2 + 7);
	if (!mem_has_lookup(mi))
		return 0;
	uint64_t span = mi->lookup.words < 128 ? (uint64_t)mi->lookup.words : 128;
	long n = (long)rng_below(&r, (uint64_t)max + 1);
	for (long k = 0; k < n; k++)
		loads[k] = (uint32_t)(rng_below(&r, span) << mi->word | rng_bits(&r, mi->word));
	return n;
}

/* ---- scenarios ---- */

/* A scenario in progress: the tiles' models and the check of the last
 * tile's outputs against the designed words. */
typedef struct ScenarioRun {
	const MemInfo *mi;
	const Scenario *sc;
	MemModel *m[SCENARIO_MAX_TILES];
	uint64_t *in, *chain;
	int *cvalid;
	long next, wrong, extra;
} ScenarioRun;

/* The inputs of cycle t (chain inputs of tile 0 stay 0), also to inputs.hex. */
static void scenario_inputs(ScenarioRun *sr, long t, FILE *fi)
{
	const MemInfo *mi = sr->mi;
	int digits = (mi->word + 3) / 4;
	for (int i = 0; i < mi->nins; i++) {
		sr->in[i] = scenario_input(mi, sr->sc, i, t);
		fprintf(fi, "%s%0*llx", i ? " " : "", digits, (unsigned long long)sr->in[i]);
	}
	for (int o = 0; mi->chain && o < mi->nouts; o++)
		fprintf(fi, " %0*x 0", digits, 0);
	fputc('\n', fi);
}

/* One cycle of the chain: tile k-1's outputs are tile k's chain inputs.
 * Returns the last tile's cycle. */
static const MemCycle *scenario_step(ScenarioRun *sr, FILE *ft)
{
	const MemInfo *mi = sr->mi;
	const MemCycle *c = NULL;
	memset(sr->chain, 0, (size_t)mi->nouts * sizeof *sr->chain);
	memset(sr->cvalid, 0, (size_t)mi->nouts * sizeof *sr->cvalid);
	for (int k = 0; k < sr->sc->tiles; k++) {
		c = memmodel_step(sr->m[k], sr->in, sr->chain, sr->cvalid);
		if (k)
			fputs(" | ", ft);
		memmodel_trace_fields(sr->m[k], c, ft);
		memcpy(sr->chain, c->out, (size_t)mi->nouts * sizeof *sr->chain);
		memcpy(sr->cvalid, c->out_valid, (size_t)mi->nouts * sizeof *sr->cvalid);
	}
	fputc('\n', ft);
	return c;
}

/* Compares cycle t's outputs with the designed words due then. */
static void scenario_check(ScenarioRun *sr, long t, const MemCycle *c)
{
	const Scenario *sc = sr->sc;
	for (int o = 0; o < sr->mi->nouts; o++) {
		const ScenarioOut *x = sr->next < sc->nexpect ? &sc->expect[sr->next] : NULL;
		int want = x && x->t == t && x->out == o;
		if (want && (!c->out_valid[o] || c->out[o] != x->value)) {
			if (sr->wrong++ < 5)
				fprintf(stderr, "lake vectors: %s: cycle %ld: %s is %s0x%llx, want 0x%llx\n", sc->name,
					t, sr->mi->outs[o], c->out_valid[o] ? "" : "not valid, ",
					(unsigned long long)c->out[o], (unsigned long long)x->value);
		} else if (!want && c->out_valid[o]) {
			sr->extra++;
		}
		sr->next += want;
	}
}

/* Runs a scenario's tiles, writes the bench files and checks the designed
 * outputs on the last tile. Returns 0 (with messages) if the model misses any
 * or drops a request. */
static int run_scenario(const MemInfo *mi, const Scenario *sc, FILE *fc, FILE *fi, FILE *ft)
{
	ScenarioRun sr = { .mi = mi, .sc = sc };
	for (int k = 0; k < sc->tiles; k++) {
		sr.m[k] = memmodel_new(mi);
		write_config(mi, sc->regs[k], sc->loads, sc->nloads, k, sr.m[k], fc);
		memmodel_flush(sr.m[k]);
	}
	sr.in = xcalloc((size_t)mi->nins + 1, sizeof *sr.in);
	sr.chain = xcalloc((size_t)mi->nouts + 1, sizeof *sr.chain);
	sr.cvalid = xcalloc((size_t)mi->nouts + 1, sizeof *sr.cvalid);
	for (long t = 0; t < sc->cycles; t++) {
		scenario_inputs(&sr, t, fi);
		scenario_check(&sr, t, scenario_step(&sr, ft));
	}
	long conflicts = 0;
	for (int k = 0; k < sc->tiles; k++) {
		conflicts += memmodel_conflicts(sr.m[k]);
		memmodel_free(sr.m[k]);
	}
	free(sr.in);
	free(sr.chain);
	free(sr.cvalid);
	int ok = sr.wrong == 0 && sr.extra == 0 && conflicts == 0 && sr.next == sc->nexpect;
	if (!ok)
		fprintf(stderr, "lake vectors: scenario %s: %ld of %ld words wrong, %ld unexpected, %ld dropped "
			"requests\n", sc->name, sr.wrong, sc->nexpect, sr.extra, conflicts);
	return ok;
}

/* The random configuration of seed o->seed and its run. */
static void random_vectors(const MemInfo *mi, const SimOpts *o, FILE *fc, FILE *fi, FILE *ft)
{
	uint32_t *regs = xcalloc((size_t)mi->nregs + 1, sizeof *regs), loads[64];
	random_config(mi, o->seed, regs);
	long nloads = random_loads(mi, o->seed, loads, 64);
	MemModel *m = memmodel_new(mi);
	write_config(mi, regs, loads, nloads, 0, m, fc);
	memmodel_flush(m);
	long fires = run(m, mi, o, ft, fi);
	if (!o->quiet)
		printf("lake vectors: %s seed %llu: %d registers, %ld cycles, %ld controller firings, "
		       "%ld dropped requests -> %s\n", mi->name, (unsigned long long)o->seed, mi->nregs,
		       o->cycles, fires, memmodel_conflicts(m), o->out);
	memmodel_free(m);
	free(regs);
}

/* Writes config.hex, inputs.hex and expected.trace into o->out, all or
 * nothing; sc is the scenario or NULL for a random configuration. */
static int write_vectors(const MemInfo *mi, const SimOpts *o, const Scenario *sc)
{
	char *cpath = util_path_join(o->out, "config.hex");
	char *ipath = util_path_join(o->out, "inputs.hex");
	char *tpath = util_path_join(o->out, "expected.trace");
	OutSet *set = outset_new();
	FILE *fc = outset_open(set, cpath), *fi = fc ? outset_open(set, ipath) : NULL;
	FILE *ft = fi ? outset_open(set, tpath) : NULL;
	int ok = ft != NULL;
	if (ok && sc)
		ok = run_scenario(mi, sc, fc, fi, ft);
	else if (ok)
		random_vectors(mi, o, fc, fi, ft);
	int status = !ok ? (outset_abort(set), 1) : outset_commit(set) == 0 ? 0 : 1;
	if (status == 0 && sc && !o->quiet)
		printf("lake vectors: %s scenario %s: %d tile%s, %ld cycles, %ld output words as designed -> "
		       "%s\n", mi->name, sc->name, sc->tiles, sc->tiles == 1 ? "" : "s", sc->cycles,
		       sc->nexpect, o->out);
	free(cpath);
	free(ipath);
	free(tpath);
	return status;
}

int lake_cmd_vectors(int argc, char **argv)
{
	SimOpts o;
	if (!parse_opts(argc, argv, &o, 0))
		return 2;
	MemInfo *mi = lake_load_info(o.info);
	if (!mi)
		return 1;
	Scenario sc;
	char why[256];
	int status = 1;
	if (o.scenario && !scenario_build(mi, o.scenario, &sc, why, sizeof why)) {
		fprintf(stderr, "lake vectors: %s\n", why);
		meminfo_free(mi);
		return 1;
	}
	if (util_mkdir_p(o.out) != 0)
		fprintf(stderr, "lake: cannot create '%s': %s\n", o.out, strerror(errno));
	else
		status = write_vectors(mi, &o, o.scenario ? &sc : NULL);
	if (o.scenario)
		scenario_free(&sc);
	meminfo_free(mi);
	return status;
}
