/* peak_synth.c - see peak_synth.h. The unknowns of the synthesis query are
 * the PE's instruction fields, a selector per IR input (which PE input of the
 * same width it drives: commuted and swapped bindings included), a selector per
 * IR param (which instruction field of the same width holds it), and a selector
 * per IR output. Unbound PE inputs and the state are universally quantified, so
 * a combinational rule never relies on a register's contents. A found rule's
 * registered inputs (register packing) are then derived over two cycles: see
 * "register packing" below. */
#include "peak_synth.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <z3.h>

#include "../common/bv.h"
#include "../common/rng.h"
#include "../common/util.h"
#include "../common/vec.h"
#include "peak_eval.h"
#include "peak_smt.h"

#define MAX_ROUNDS 64
#define RANDOM_PRECHECK 48
/* Solver budgets are Z3 resource limits ("rlimit"), which count work rather
 * than time, so that a rule's outcome never depends on the machine's speed or
 * load; the wall-clock limit is a last resort for a solver that stops counting. */
#define SOLVER_RLIMIT 200000000u
#define SOLVER_TIMEOUT_MS 300000
#define NUM_PINS 4

/* The values multiplier-feeding fields are pinned to, phase by phase. */
static uint64_t pin_value(int pin, int w)
{
	switch (pin) {
	case 0:
		return 0;
	case 1:
		return bv_mask(w);
	case 2:
		return 1;
	default:
		return 1ULL << (w - 1);
	}
}

/* One concrete assignment of everything the rule must hold for. */
typedef struct Example {
	uint64_t *x;            /* IR inputs */
	uint64_t *k;            /* IR params */
	uint64_t *u;            /* PE inputs (used where no IR input is bound) */
	uint64_t *s;            /* PE state */
} Example;

typedef struct Synth {
	const PeakSpec *pe, *ir;
	Rng rng;
	VEC(Example) ex;
	/* candidates: PE inputs/fields/outputs of matching width */
	int **in_cand, *n_in_cand;
	int **par_cand, *n_par_cand;
	int **out_cand, *n_out_cand;
	/* fields that feed a multiplier operand (and are no enums): synthesis first
	 * pins them to plain constants, since a symbolic multiplier operand turns
	 * the search into factoring */
	char *mul_cone;
	int pin;                /* pin_values index in use, or -1: all fields free */
	unsigned free_rlimit;   /* work limit of the search with every field free */
	/* the candidate rule */
	uint64_t *fields;
	int *in_bind, *param_bind, *out_bind;
	uint64_t *scratch_pe, *scratch_ir;
	uint64_t *pe_in, *pe_fields;  /* the PE's inputs and fields in the concrete check */
	Z3_context ctx;
} Synth;

static void find_mul_cone(Synth *y);

/* ---- examples and the concrete check ---- */

static uint64_t interesting(Rng *rng, int w)
{
	switch (rng_below(rng, 8)) {
	case 0:
		return 0;
	case 1:
		return 1;
	case 2:
		return bv_mask(w);
	case 3:
		return 1ULL << (w - 1);
	case 4:
		return bv_trunc(rng_below(rng, (uint64_t)w + 2), w);
	default:
		return rng_bits(rng, w);
	}
}

static uint64_t *random_values(Rng *rng, const PeakSpec *s, int cls)
{
	uint64_t *v = xcalloc((size_t)s->nports[cls] + 1, sizeof(uint64_t));
	for (int i = 0; i < s->nports[cls]; i++)
		v[i] = interesting(rng, s->ports[cls][i].type.width);
	return v;
}

static Example random_example(Synth *y)
{
	return (Example){ random_values(&y->rng, y->ir, PEAK_INPUT),
			  random_values(&y->rng, y->ir, PEAK_PARAM),
			  random_values(&y->rng, y->pe, PEAK_INPUT),
			  random_values(&y->rng, y->pe, PEAK_STATE) };
}

static void example_free(Example *e)
{
	free(e->x);
	free(e->k);
	free(e->u);
	free(e->s);
}

/* Evaluates pe and ir on e under the candidate in y; 1 if every bound output agrees. */
static int agrees(Synth *y, const Example *e)
{
	const PeakSpec *pe = y->pe, *ir = y->ir;
	uint64_t nothing[1] = { 0 };
	memcpy(y->pe_in, e->u, (size_t)pe->nports[PEAK_INPUT] * sizeof(uint64_t));
	for (int j = 0; j < ir->nports[PEAK_INPUT]; j++)
		y->pe_in[y->in_bind[j]] = e->x[j];
	memcpy(y->pe_fields, y->fields, (size_t)pe->nports[PEAK_FIELD] * sizeof(uint64_t));
	for (int p = 0; p < ir->nports[PEAK_PARAM]; p++)
		y->pe_fields[y->param_bind[p]] = e->k[p];
	const uint64_t *const pl[4] = { y->pe_in, e->s, y->pe_fields, nothing };
	const uint64_t *const il[4] = { e->x, nothing, nothing, e->k };
	nf_eval(&pe->g, y->scratch_pe, pl);
	nf_eval(&ir->g, y->scratch_ir, il);
	for (int o = 0; o < ir->nports[PEAK_OUTPUT]; o++)
		if (y->scratch_pe[pe->out_nodes[y->out_bind[o]]] != y->scratch_ir[ir->out_nodes[o]])
			return 0;
	return 1;
}

/* ---- candidates of matching width ---- */

static void candidates(const PeakSpec *pe, int pcls, const PeakSpec *ir, int icls, int ***cand,
		       int **ncand)
{
	int n = ir->nports[icls];
	*cand = xcalloc((size_t)n + 1, sizeof(int *));
	*ncand = xcalloc((size_t)n + 1, sizeof(int));
	for (int j = 0; j < n; j++) {
		(*cand)[j] = xcalloc((size_t)pe->nports[pcls] + 1, sizeof(int));
		for (int i = 0; i < pe->nports[pcls]; i++)
			if (pe->ports[pcls][i].type.width == ir->ports[icls][j].type.width &&
			    (pcls != PEAK_FIELD || pe->ports[pcls][i].type.enum_id < 0))
				(*cand)[j][(*ncand)[j]++] = i;
	}
}

static void free_candidates(int **cand, int *ncand, int n)
{
	for (int j = 0; j < n; j++)
		free(cand[j]);
	free(cand);
	free(ncand);
}

/* A reason no rule can exist, from widths alone; NULL if one might. */
static char *signature_mismatch(Synth *y)
{
	const PeakSpec *ir = y->ir;
	const char *what[] = { "input", "state", "instruction field", "param", "output" };
	int cls_ir[] = { PEAK_INPUT, PEAK_PARAM, PEAK_OUTPUT };
	int *const *nc[] = { &y->n_in_cand, &y->n_par_cand, &y->n_out_cand };
	for (int c = 0; c < 3; c++) {
		int cls = cls_ir[c];
		for (int j = 0; j < ir->nports[cls]; j++) {
			if ((*nc[c])[j] > 0)
				continue;
			const PeakPort *p = &ir->ports[cls][j];
			return xasprintf("the PE has no %d-bit %s for %s '%s'", p->type.width,
					 what[cls == PEAK_PARAM ? 2 : cls], what[cls], p->name);
		}
	}
	return NULL;
}

/* ---- Z3 ---- */

/* Z3's error handler has no user data: each synthesis thread keeps its own
 * flag, cleared when a context is made and checked after every solver call. */
static _Thread_local int z3_failed;

static void z3_error(Z3_context ctx, Z3_error_code e)
{
	fprintf(stderr, "peak: Z3 error: %s\n", Z3_get_error_msg(ctx, e));
	z3_failed = 1;
}

static Z3_context new_context(void)
{
	Z3_config cfg = Z3_mk_config();
	Z3_set_param_value(cfg, "model", "true");
	Z3_context ctx = Z3_mk_context(cfg);
	Z3_del_config(cfg);
	Z3_set_error_handler(ctx, z3_error);
	z3_failed = 0;
	return ctx;
}

static Z3_solver new_solver(Z3_context ctx, unsigned rlimit)
{
	Z3_solver s = Z3_mk_solver_for_logic(ctx, Z3_mk_string_symbol(ctx, "QF_BV"));
	Z3_solver_inc_ref(ctx, s);
	Z3_params p = Z3_mk_params(ctx);
	Z3_params_inc_ref(ctx, p);
	Z3_params_set_uint(ctx, p, Z3_mk_string_symbol(ctx, "timeout"), SOLVER_TIMEOUT_MS);
	Z3_params_set_uint(ctx, p, Z3_mk_string_symbol(ctx, "rlimit"), rlimit);
	Z3_solver_set_params(ctx, s, p);
	Z3_params_dec_ref(ctx, p);
	return s;
}

/* Selectors hold a port index; 32 bits hold any index a spec can have. */
#define SEL_BITS 32

static Z3_ast sel_eq(Z3_context ctx, Z3_ast sel, int v)
{
	return Z3_mk_eq(ctx, sel, peak_smt_const(ctx, (uint64_t)v, SEL_BITS));
}

/* The unknowns of the synthesis query. */
typedef struct Unknowns {
	Z3_ast *fields, *in_sel, *par_sel, *out_sel;
} Unknowns;

static Z3_ast one_of(Z3_context ctx, Z3_ast x, const int *vals, int n, int w)
{
	Z3_ast *alts = xcalloc((size_t)n + 1, sizeof(Z3_ast));
	for (int i = 0; i < n; i++)
		alts[i] = Z3_mk_eq(ctx, x, peak_smt_const(ctx, (uint64_t)vals[i], w));
	Z3_ast r = n ? Z3_mk_or(ctx, (unsigned)n, alts) : Z3_mk_false(ctx);
	free(alts);
	return r;
}

static void assert_distinct(Z3_context ctx, Z3_solver s, Z3_ast *sels, int n)
{
	if (n > 1)
		Z3_solver_assert(ctx, s, Z3_mk_distinct(ctx, (unsigned)n, sels));
}

static Unknowns declare_unknowns(Synth *y, Z3_solver s)
{
	Z3_context ctx = y->ctx;
	const PeakSpec *pe = y->pe, *ir = y->ir;
	Unknowns u;
	u.fields = xcalloc((size_t)pe->nports[PEAK_FIELD] + 1, sizeof(Z3_ast));
	for (int f = 0; f < pe->nports[PEAK_FIELD]; f++) {
		const PeakPort *p = &pe->ports[PEAK_FIELD][f];
		char name[32];
		snprintf(name, sizeof name, "f%d", f);
		u.fields[f] = peak_smt_var(ctx, name, p->type.width);
		if (p->type.enum_id < 0)
			continue;
		/* enum fields hold one of their declared codes */
		const PeakEnum *e = &pe->enums[p->type.enum_id];
		Z3_ast *alts = xcalloc((size_t)e->n + 1, sizeof(Z3_ast));
		for (int m = 0; m < e->n; m++)
			alts[m] = Z3_mk_eq(ctx, u.fields[f], peak_smt_const(ctx, e->codes[m], e->width));
		Z3_solver_assert(ctx, s, Z3_mk_or(ctx, (unsigned)e->n, alts));
		free(alts);
	}
	struct {
		Z3_ast **sel;
		int cls;
		int **cand, *ncand;
		const char *prefix;
	} groups[3] = {
		{ &u.in_sel, PEAK_INPUT, y->in_cand, y->n_in_cand, "in_sel" },
		{ &u.par_sel, PEAK_PARAM, y->par_cand, y->n_par_cand, "param_sel" },
		{ &u.out_sel, PEAK_OUTPUT, y->out_cand, y->n_out_cand, "out_sel" },
	};
	for (int g = 0; g < 3; g++) {
		int n = ir->nports[groups[g].cls];
		*groups[g].sel = xcalloc((size_t)n + 1, sizeof(Z3_ast));
		for (int j = 0; j < n; j++) {
			char name[32];
			snprintf(name, sizeof name, "%s%d", groups[g].prefix, j);
			(*groups[g].sel)[j] = peak_smt_var(ctx, name, SEL_BITS);
			Z3_solver_assert(ctx, s, one_of(ctx, (*groups[g].sel)[j], groups[g].cand[j],
							groups[g].ncand[j], SEL_BITS));
		}
		assert_distinct(ctx, s, *groups[g].sel, n);
	}
	return u;
}

static void unknowns_free(Unknowns *u)
{
	free(u->fields);
	free(u->in_sel);
	free(u->par_sel);
	free(u->out_sel);
}

/* The PE's outputs on example e with symbolic instruction and bindings. */
static Z3_ast *symbolic_pe(Synth *y, const Unknowns *u, const Example *e)
{
	Z3_context ctx = y->ctx;
	const PeakSpec *pe = y->pe, *ir = y->ir;
	int nin = pe->nports[PEAK_INPUT], nf = pe->nports[PEAK_FIELD], ns = pe->nports[PEAK_STATE];
	Z3_ast *in = xcalloc((size_t)nin + 1, sizeof(Z3_ast));
	Z3_ast *fl = xcalloc((size_t)nf + 1, sizeof(Z3_ast));
	Z3_ast *st = xcalloc((size_t)ns + 1, sizeof(Z3_ast));
	for (int i = 0; i < nin; i++) {
		int w = pe->ports[PEAK_INPUT][i].type.width;
		in[i] = peak_smt_const(ctx, e->u[i], w);
		for (int j = 0; j < ir->nports[PEAK_INPUT]; j++)
			if (ir->ports[PEAK_INPUT][j].type.width == w)
				in[i] = Z3_mk_ite(ctx, sel_eq(ctx, u->in_sel[j], i),
						  peak_smt_const(ctx, e->x[j], w), in[i]);
	}
	for (int f = 0; f < nf; f++) {
		int w = pe->ports[PEAK_FIELD][f].type.width;
		fl[f] = y->pin >= 0 && y->mul_cone[f] ? peak_smt_const(ctx, pin_value(y->pin, w), w)
						      : u->fields[f];
		for (int p = 0; p < ir->nports[PEAK_PARAM]; p++)
			if (ir->ports[PEAK_PARAM][p].type.width == w && pe->ports[PEAK_FIELD][f].type.enum_id < 0)
				fl[f] = Z3_mk_ite(ctx, sel_eq(ctx, u->par_sel[p], f),
						  peak_smt_const(ctx, e->k[p], w), fl[f]);
	}
	for (int i = 0; i < ns; i++)
		st[i] = peak_smt_const(ctx, e->s[i], pe->ports[PEAK_STATE][i].type.width);
	Z3_ast none[1] = { NULL };
	Z3_ast *const leaves[4] = { in, st, fl, none };
	Z3_ast *t = peak_smt_terms(ctx, pe, leaves);
	Z3_ast *outs = xcalloc((size_t)pe->nports[PEAK_OUTPUT] + 1, sizeof(Z3_ast));
	for (int o = 0; o < pe->nports[PEAK_OUTPUT]; o++)
		outs[o] = t[pe->out_nodes[o]];
	free(t);
	free(in);
	free(fl);
	free(st);
	return outs;
}

/* Requires the candidate to agree with the IR operation on example e. */
static void assert_example(Synth *y, Z3_solver s, const Unknowns *u, const Example *e)
{
	Z3_context ctx = y->ctx;
	const PeakSpec *ir = y->ir;
	uint64_t nothing[1] = { 0 };
	const uint64_t *const il[4] = { e->x, nothing, nothing, e->k };
	nf_eval(&ir->g, y->scratch_ir, il);
	Z3_ast *outs = symbolic_pe(y, u, e);
	for (int o = 0; o < ir->nports[PEAK_OUTPUT]; o++) {
		uint64_t want = y->scratch_ir[ir->out_nodes[o]];
		int w = ir->ports[PEAK_OUTPUT][o].type.width;
		for (int c = 0; c < y->n_out_cand[o]; c++) {
			int m = y->out_cand[o][c];
			Z3_ast eq = Z3_mk_eq(ctx, outs[m], peak_smt_const(ctx, want, w));
			Z3_solver_assert(ctx, s, Z3_mk_implies(ctx, sel_eq(ctx, u->out_sel[o], m), eq));
		}
	}
	free(outs);
}

static void read_candidate(Synth *y, Z3_model m, const Unknowns *u)
{
	Z3_context ctx = y->ctx;
	const PeakSpec *ir = y->ir;
	for (int f = 0; f < y->pe->nports[PEAK_FIELD]; f++)
		y->fields[f] = y->pin >= 0 && y->mul_cone[f]
				       ? pin_value(y->pin, y->pe->ports[PEAK_FIELD][f].type.width)
				       : peak_smt_value(ctx, m, u->fields[f]);
	for (int j = 0; j < ir->nports[PEAK_INPUT]; j++)
		y->in_bind[j] = (int)peak_smt_value(ctx, m, u->in_sel[j]);
	for (int p = 0; p < ir->nports[PEAK_PARAM]; p++) {
		y->param_bind[p] = (int)peak_smt_value(ctx, m, u->par_sel[p]);
		y->fields[y->param_bind[p]] = 0;
	}
	for (int o = 0; o < ir->nports[PEAK_OUTPUT]; o++)
		y->out_bind[o] = (int)peak_smt_value(ctx, m, u->out_sel[o]);
}

/* ---- verification ---- */

typedef enum { PROVED, REFUTED, REFUTED_CHEAPLY, UNKNOWN } Verdict;

/* Proves the candidate for all inputs, params, unbound inputs and states, or
 * stores a counterexample in *cex. */
/* The universally quantified values of a verification query: IR inputs X,
 * params K, PE inputs U (used where no IR input is bound) and state S. */
typedef struct Universe {
	Z3_ast *v[4];
	int n[4];
} Universe;

enum { UX, UK, UU, US };

static Universe universe_new(Synth *y)
{
	static const char prefix[4] = { 'x', 'k', 'u', 's' };
	const PeakSpec *spec[4] = { y->ir, y->ir, y->pe, y->pe };
	const int cls[4] = { PEAK_INPUT, PEAK_PARAM, PEAK_INPUT, PEAK_STATE };
	Universe u;
	for (int g = 0; g < 4; g++) {
		u.n[g] = spec[g]->nports[cls[g]];
		u.v[g] = xcalloc((size_t)u.n[g] + 1, sizeof(Z3_ast));
		for (int i = 0; i < u.n[g]; i++) {
			char name[32];
			snprintf(name, sizeof name, "%c%d", prefix[g], i);
			u.v[g][i] = peak_smt_var(y->ctx, name, spec[g]->ports[cls[g]][i].type.width);
		}
	}
	return u;
}

static void universe_free(Universe *u)
{
	for (int g = 0; g < 4; g++)
		free(u->v[g]);
}

/* "Some bound output of the candidate differs from the IR operation's." */
static Z3_ast differs(Synth *y, const Universe *u)
{
	Z3_context ctx = y->ctx;
	const PeakSpec *pe = y->pe, *ir = y->ir;
	int nf = pe->nports[PEAK_FIELD], no = ir->nports[PEAK_OUTPUT];
	Z3_ast *pin = xcalloc((size_t)u->n[UU] + 1, sizeof(Z3_ast));
	Z3_ast *F = xcalloc((size_t)nf + 1, sizeof(Z3_ast));
	memcpy(pin, u->v[UU], (size_t)u->n[UU] * sizeof(Z3_ast));
	for (int j = 0; j < u->n[UX]; j++)
		pin[y->in_bind[j]] = u->v[UX][j];
	for (int f = 0; f < nf; f++)
		F[f] = peak_smt_const(ctx, y->fields[f], pe->ports[PEAK_FIELD][f].type.width);
	for (int p = 0; p < u->n[UK]; p++)
		F[y->param_bind[p]] = u->v[UK][p];
	Z3_ast none[1] = { NULL };
	Z3_ast *const pl[4] = { pin, u->v[US], F, none };
	Z3_ast *const il[4] = { u->v[UX], none, none, u->v[UK] };
	Z3_ast *pt = peak_smt_terms(ctx, pe, pl), *it = peak_smt_terms(ctx, ir, il);
	Z3_ast *diff = xcalloc((size_t)no + 1, sizeof(Z3_ast));
	for (int o = 0; o < no; o++)
		diff[o] = Z3_mk_not(ctx, Z3_mk_eq(ctx, it[ir->out_nodes[o]],
						 pt[pe->out_nodes[y->out_bind[o]]]));
	Z3_ast any = Z3_mk_or(ctx, (unsigned)no, diff);
	free(pin), free(F), free(pt), free(it), free(diff);
	return any;
}

static Example read_counterexample(Synth *y, Z3_model m, const Universe *u)
{
	uint64_t *vals[4];
	for (int g = 0; g < 4; g++) {
		vals[g] = xcalloc((size_t)u->n[g] + 1, sizeof(uint64_t));
		for (int i = 0; i < u->n[g]; i++)
			vals[g][i] = peak_smt_value(y->ctx, m, u->v[g][i]);
	}
	return (Example){ vals[UX], vals[UK], vals[UU], vals[US] };
}

/* Proves the candidate for all inputs, params, unbound inputs and states, or
 * stores a counterexample in *cex (which the caller then owns). */
static Verdict verify(Synth *y, Example *cex)
{
	Z3_context ctx = y->ctx;
	Universe u = universe_new(y);
	Z3_solver s = new_solver(ctx, SOLVER_RLIMIT);
	Z3_solver_assert(ctx, s, differs(y, &u));
	Z3_lbool r = Z3_solver_check(ctx, s);
	Verdict v = z3_failed ? UNKNOWN : r == Z3_L_FALSE ? PROVED : r == Z3_L_TRUE ? REFUTED : UNKNOWN;
	if (v == REFUTED) {
		Z3_model m = Z3_solver_get_model(ctx, s);
		Z3_model_inc_ref(ctx, m);
		*cex = read_counterexample(y, m, &u);
		Z3_model_dec_ref(ctx, m);
	}
	Z3_solver_dec_ref(ctx, s);
	universe_free(&u);
	return v;
}

/* Tries the candidate on stored and fresh random examples; a failing fresh
 * example is kept as a counterexample. 1 if all agree. */
static int precheck(Synth *y, int stored_must_agree)
{
	vec_foreach(&y->ex, i) {
		if (agrees(y, &y->ex.data[i]))
			continue;
		if (stored_must_agree)
			ICE("Z3 and the functional model disagree on %s example %d", y->ir->name, i);
		return 0;
	}
	for (int i = 0; i < RANDOM_PRECHECK; i++) {
		Example e = random_example(y);
		if (!agrees(y, &e)) {
			vec_push(&y->ex, e);
			return 0;
		}
		example_free(&e);
	}
	return 1;
}

/* Sets don't-care fields to their plainest value (0, or an enum's first code)
 * wherever the rule stays proven, so rules read cleanly and are canonical. */
static void canonicalize(Synth *y)
{
	const PeakSpec *pe = y->pe;
	for (int f = 0; f < pe->nports[PEAK_FIELD]; f++) {
		const PeakPort *p = &pe->ports[PEAK_FIELD][f];
		int bound = 0;
		for (int q = 0; q < y->ir->nports[PEAK_PARAM]; q++)
			bound |= y->param_bind[q] == f;
		uint64_t plain = p->type.enum_id >= 0 ? pe->enums[p->type.enum_id].codes[0] : 0;
		if (bound || y->fields[f] == plain)
			continue;
		uint64_t old = y->fields[f];
		y->fields[f] = plain;
		Example cex;
		if (!precheck(y, 0)) {
			y->fields[f] = old;
			continue;
		}
		Verdict v = verify(y, &cex);
		if (v == REFUTED)
			vec_push(&y->ex, cex);
		if (v != PROVED)
			y->fields[f] = old;
	}
}

/* Swaps pairs of input bindings into declaration order where the rule stays
 * proven (commutative operations then read a -> first input, b -> second). */
static void canonicalize_inputs(Synth *y)
{
	int n = y->ir->nports[PEAK_INPUT];
	for (int j = 0; j < n; j++) {
		for (int k = j + 1; k < n; k++) {
			if (y->in_bind[j] < y->in_bind[k] ||
			    y->ir->ports[PEAK_INPUT][j].type.width != y->ir->ports[PEAK_INPUT][k].type.width)
				continue;
			int t = y->in_bind[j];
			y->in_bind[j] = y->in_bind[k];
			y->in_bind[k] = t;
			Example cex;
			Verdict v = precheck(y, 0) ? verify(y, &cex) : REFUTED_CHEAPLY;
			if (v == REFUTED)
				vec_push(&y->ex, cex);
			if (v != PROVED) {
				y->in_bind[k] = y->in_bind[j];
				y->in_bind[j] = t;
			}
		}
	}
}

static void synth_init(Synth *y, const PeakSpec *pe, const PeakSpec *ir, uint64_t seed)
{
	memset(y, 0, sizeof *y);
	y->pe = pe;
	y->ir = ir;
	rng_seed(&y->rng, seed);
	candidates(pe, PEAK_INPUT, ir, PEAK_INPUT, &y->in_cand, &y->n_in_cand);
	candidates(pe, PEAK_FIELD, ir, PEAK_PARAM, &y->par_cand, &y->n_par_cand);
	candidates(pe, PEAK_OUTPUT, ir, PEAK_OUTPUT, &y->out_cand, &y->n_out_cand);
	y->fields = xcalloc((size_t)pe->nports[PEAK_FIELD] + 1, sizeof(uint64_t));
	y->in_bind = xcalloc((size_t)ir->nports[PEAK_INPUT] + 1, sizeof(int));
	y->param_bind = xcalloc((size_t)ir->nports[PEAK_PARAM] + 1, sizeof(int));
	y->out_bind = xcalloc((size_t)ir->nports[PEAK_OUTPUT] + 1, sizeof(int));
	y->scratch_pe = xcalloc((size_t)pe->g.nodes.len + 1, sizeof(uint64_t));
	y->scratch_ir = xcalloc((size_t)ir->g.nodes.len + 1, sizeof(uint64_t));
	y->pe_in = xcalloc((size_t)pe->nports[PEAK_INPUT] + 1, sizeof(uint64_t));
	y->pe_fields = xcalloc((size_t)pe->nports[PEAK_FIELD] + 1, sizeof(uint64_t));
	y->mul_cone = xcalloc((size_t)pe->nports[PEAK_FIELD] + 1, 1);
	y->pin = -1;
	find_mul_cone(y);
}

static void synth_free(Synth *y)
{
	vec_foreach(&y->ex, i) example_free(&y->ex.data[i]);
	vec_free(&y->ex);
	free_candidates(y->in_cand, y->n_in_cand, y->ir->nports[PEAK_INPUT]);
	free_candidates(y->par_cand, y->n_par_cand, y->ir->nports[PEAK_PARAM]);
	free_candidates(y->out_cand, y->n_out_cand, y->ir->nports[PEAK_OUTPUT]);
	free(y->scratch_pe);
	free(y->scratch_ir);
	free(y->pe_in);
	free(y->pe_fields);
	free(y->mul_cone);
}

typedef enum { FOUND, NONE, GAVE_UP } Outcome;

/* One CEGIS loop with the current pinning; *why says why it gave up. */
static Outcome cegis(Synth *y, PeakRule *r, unsigned rlimit, char **why)
{
	Z3_context ctx = y->ctx;
	Z3_solver s = new_solver(ctx, rlimit);
	Unknowns u = declare_unknowns(y, s);
	vec_foreach(&y->ex, i) assert_example(y, s, &u, &y->ex.data[i]);
	int asserted = y->ex.len;
	Outcome out = GAVE_UP;
	for (int round = 1;; round++) {
		if (round > MAX_ROUNDS) {
			*why = xasprintf("synthesis did not converge in %d rounds", MAX_ROUNDS);
			break;
		}
		r->iterations++;
		Z3_lbool res = Z3_solver_check(ctx, s);
		if (z3_failed) {
			*why = xasprintf("Z3 reported an error");
			break;
		}
		if (res == Z3_L_FALSE) {
			out = NONE;
			break;
		}
		if (res != Z3_L_TRUE) {
			const char *reason = Z3_solver_get_reason_unknown(ctx, s);
			if (strstr(reason, "canceled") || strstr(reason, "resource"))
				*why = xasprintf("it reached its work limit of %u Z3 resource units "
						 "(peak --search-limit)", rlimit);
			else
				*why = xasprintf("the synthesis solver gave up (%s)", reason);
			break;
		}
		Z3_model m = Z3_solver_get_model(ctx, s);
		Z3_model_inc_ref(ctx, m);
		read_candidate(y, m, &u);
		Z3_model_dec_ref(ctx, m);
		if (precheck(y, 1)) {
			Example cex;
			Verdict v = verify(y, &cex);
			if (v == PROVED) {
				out = FOUND;
				break;
			}
			if (v == UNKNOWN) {
				*why = xasprintf("the verification solver gave up");
				break;
			}
			vec_push(&y->ex, cex);
		}
		for (; asserted < y->ex.len; asserted++)
			assert_example(y, s, &u, &y->ex.data[asserted]);
	}
	unknowns_free(&u);
	Z3_solver_dec_ref(ctx, s);
	return out;
}

/* Marks the non-enum fields in the cone of a multiplier's operands. */
static void find_mul_cone(Synth *y)
{
	const NfGraph *g = &y->pe->g;
	int n = g->nodes.len;
	char *in_cone = xcalloc((size_t)n + 1, 1);
	for (int i = n - 1; i >= 0; i--) {
		const NfNode *x = nf_node(g, i);
		int is_mul = x->op == NF_MUL || x->op == NF_UMULHI || x->op == NF_SMULHI;
		if (is_mul || in_cone[i]) {
			if (x->a >= 0)
				in_cone[x->a] = 1;
			if (x->b >= 0)
				in_cone[x->b] = 1;
			if (in_cone[i] && x->c >= 0)
				in_cone[x->c] = 1;
		}
		if (x->op == NF_FIELD && in_cone[i] && y->pe->ports[PEAK_FIELD][x->lo].type.enum_id < 0)
			y->mul_cone[x->lo] = 1;
	}
	free(in_cone);
}

/* Searches with multiplier-feeding fields pinned to each plain constant in
 * turn, then with every field free under a short time limit. NULL on success,
 * else the reason no rule was found. */
static char *search(Synth *y, PeakRule *r)
{
	int any_pinned = 0;
	for (int f = 0; f < y->pe->nports[PEAK_FIELD]; f++)
		any_pinned |= y->mul_cone[f];
	char *why = NULL;
	for (y->pin = any_pinned ? 0 : -1;; y->pin++) {
		if (y->pin == NUM_PINS)
			y->pin = -1;
		free(why);
		why = NULL;
		unsigned limit = y->pin < 0 && any_pinned ? y->free_rlimit : SOLVER_RLIMIT;
		Outcome o = cegis(y, r, limit, &why);
		if (o == FOUND)
			return NULL;
		if (y->pin < 0)
			break;
	}
	if (!why)
		return xasprintf("no instruction computes it for every value of the PE's unbound inputs and "
				 "state (proved by Z3 over %d examples)",
				 y->ex.len);
	char *full = xasprintf("no instruction found: none with the multiplier-operand fields "
			       "pinned to 0, 1, all ones or the sign bit, and the unrestricted search "
			       "stopped: %s", why);
	free(why);
	return full;
}

void peak_synth_rule(const PeakSpec *pe, const PeakSpec *ir, uint64_t seed, unsigned search_limit,
		     PeakRule *r)
{
	double t0 = util_now();
	memset(r, 0, sizeof *r);
	r->ir = ir;
	Synth y;
	synth_init(&y, pe, ir, seed);
	y.free_rlimit = search_limit;
	r->reason = signature_mismatch(&y);
	if (!r->reason) {
		y.ctx = new_context();
		for (int i = 0; i < 4; i++)
			vec_push(&y.ex, random_example(&y));
		r->reason = search(&y, r);
		if (!r->reason) {
			canonicalize_inputs(&y);
			canonicalize(&y);
		}
		Z3_del_context(y.ctx);
	}
	r->found = r->reason == NULL;
	r->fields = y.fields;
	r->in_bind = y.in_bind;
	r->param_bind = y.param_bind;
	r->out_bind = y.out_bind;
	synth_free(&y);
	r->seconds = util_now() - t0;
}

static void registered_clear(PeakRegistered *e)
{
	free(e->fields);
	free(e->values);
	memset(e, 0, sizeof *e);
}

static void registered_free(PeakRegistered *reg, int n)
{
	for (int j = 0; reg && j < n; j++)
		registered_clear(&reg[j]);
	free(reg);
}

void peak_rule_free(PeakRule *r)
{
	registered_free(r->registered, r->ir ? r->ir->nports[PEAK_INPUT] : 0);
	free(r->reason);
	free(r->fields);
	free(r->in_bind);
	free(r->param_bind);
	free(r->out_bind);
	memset(r, 0, sizeof *r);
}

/* A Synth whose candidate is the rule r (owned by the Synth: see
 * synth_free_rule). */
static void synth_from_rule(Synth *y, const PeakSpec *pe, const PeakRule *r, uint64_t seed)
{
	synth_init(y, pe, r->ir, seed);
	memcpy(y->fields, r->fields, (size_t)pe->nports[PEAK_FIELD] * sizeof(uint64_t));
	memcpy(y->in_bind, r->in_bind, (size_t)r->ir->nports[PEAK_INPUT] * sizeof(int));
	memcpy(y->param_bind, r->param_bind, (size_t)r->ir->nports[PEAK_PARAM] * sizeof(int));
	memcpy(y->out_bind, r->out_bind, (size_t)r->ir->nports[PEAK_OUTPUT] * sizeof(int));
}

static void synth_free_rule(Synth *y)
{
	free(y->fields);
	free(y->in_bind);
	free(y->param_bind);
	free(y->out_bind);
	synth_free(y);
}

/* "label a=0x.. b=0x.. k=0x.." for the IR inputs and params of e. */
static char *describe_example(const PeakSpec *ir, const Example *e, const char *label)
{
	char buf[512];
	int n = snprintf(buf, sizeof buf, "%s", label);
	for (int j = 0; j < ir->nports[PEAK_INPUT] && n < 400; j++)
		n += snprintf(buf + n, sizeof buf - (size_t)n, " %s=0x%llx", ir->ports[PEAK_INPUT][j].name,
			      (unsigned long long)e->x[j]);
	for (int p = 0; p < ir->nports[PEAK_PARAM] && n < 400; p++)
		n += snprintf(buf + n, sizeof buf - (size_t)n, " %s=0x%llx", ir->ports[PEAK_PARAM][p].name,
			      (unsigned long long)e->k[p]);
	return xstrdup(buf);
}

int peak_rule_check(const PeakSpec *pe, const PeakRule *r, int vectors, uint64_t seed, char **why)
{
	Synth y;
	synth_from_rule(&y, pe, r, seed);
	int bad = 0;
	for (int i = 0; i < vectors; i++) {
		Example e = random_example(&y);
		if (!agrees(&y, &e) && bad++ == 0 && why)
			*why = describe_example(r->ir, &e, "inputs");
		example_free(&e);
	}
	synth_free_rule(&y);
	return bad;
}

int peak_rule_prove(const PeakSpec *pe, const PeakRule *r, char **why)
{
	Synth y;
	synth_from_rule(&y, pe, r, 1);
	y.ctx = new_context();
	Example cex;
	Verdict v = verify(&y, &cex);
	if (v == REFUTED) {
		if (why)
			*why = describe_example(r->ir, &cex, "counterexample:");
		example_free(&cex);
	} else if (v == UNKNOWN && why) {
		*why = xstrdup("the solver gave up");
	}
	Z3_del_context(y.ctx);
	synth_free_rule(&y);
	return v == PROVED;
}

/* ---- register packing (AHA 5.3.1): inputs read one cycle late ----
 *
 * A set S of a rule's IR inputs is registered when, with the instruction
 * changed by the entries of every input in S, the PE's bound outputs in cycle
 * 1 equal the IR operation applied to the cycle-0 values of S's PE inputs and
 * the cycle-1 values of the others, for every state before cycle 0, every PE
 * input in both cycles and every param (held in its field in both cycles).
 * Each entry must moreover read its input from a register: with the entry
 * applied, the bound outputs equal the IR operation with that input taken
 * from some state variable, in any one cycle. An output register, which
 * delays the whole operation, thus never counts as an input's register, even
 * for a one-input operation whose outputs it would delay alike. */

/* Random vectors a candidate must pass before Z3 sees it. */
#define LATE_PRECHECK 32
/* Only the first this many IR inputs are considered (2^n - 1 subsets). */
#define LATE_MAX_INPUTS 8
/* Bits fields wider than this are not tried as candidates. */
#define LATE_MAX_BITS 4

/* Concrete values of a check: the PE inputs of cycles 0 and 1, the state
 * before cycle 0, the IR params. A one-cycle check uses U1 and S0 only. */
typedef struct TwoCycle {
	uint64_t *v[4];
} TwoCycle;

enum { T_U0, T_U1, T_S0, T_K };

/* What a check claims: with the entries of the inputs in subset applied,
 * either (cycles 2) those inputs are read in cycle 0 and the others in cycle
 * 1, or (cycles 1, subset one input) that input is read from state variable
 * v and the others from the PE's inputs. */
typedef struct Query {
	unsigned subset;
	int cycles;
	int v;
} Query;

static Query two_cycles(unsigned subset)
{
	return (Query){ subset, 2, -1 };
}

static Query from_state(int j, int v)
{
	return (Query){ 1u << j, 1, v };
}

typedef struct Late {
	const PeakSpec *pe, *ir;
	const PeakRule *r;      /* its registered entries are the ones under test */
	int nx;                 /* IR inputs considered */
	unsigned rlimit;        /* Z3 work limit of each proof */
	Rng rng;
	uint64_t *fields;       /* the changed instruction, params in their fields */
	uint64_t *x, *s1;       /* IR inputs; state after cycle 0 */
	uint64_t *scratch_pe, *scratch_ir;
	Z3_context ctx;         /* made when the first proof needs it */
} Late;

static const int late_cls[4] = { PEAK_INPUT, PEAK_INPUT, PEAK_STATE, PEAK_PARAM };

static const PeakSpec *late_spec(const Late *L, int g)
{
	return g == T_K ? L->ir : L->pe;
}

static void late_init(Late *L, const PeakSpec *pe, const PeakRule *r, uint64_t seed,
		      unsigned rlimit)
{
	memset(L, 0, sizeof *L);
	L->rlimit = rlimit;
	L->pe = pe;
	L->ir = r->ir;
	L->r = r;
	L->nx = r->ir->nports[PEAK_INPUT] < LATE_MAX_INPUTS ? r->ir->nports[PEAK_INPUT] : LATE_MAX_INPUTS;
	rng_seed(&L->rng, seed);
	L->fields = xcalloc((size_t)pe->nports[PEAK_FIELD] + 1, sizeof(uint64_t));
	L->x = xcalloc((size_t)r->ir->nports[PEAK_INPUT] + 1, sizeof(uint64_t));
	L->s1 = xcalloc((size_t)pe->nports[PEAK_STATE] + 1, sizeof(uint64_t));
	L->scratch_pe = xcalloc((size_t)pe->g.nodes.len + 1, sizeof(uint64_t));
	L->scratch_ir = xcalloc((size_t)r->ir->g.nodes.len + 1, sizeof(uint64_t));
}

static void late_free(Late *L)
{
	free(L->fields);
	free(L->x);
	free(L->s1);
	free(L->scratch_pe);
	free(L->scratch_ir);
	if (L->ctx)
		Z3_del_context(L->ctx);
}

static void two_cycle_free(TwoCycle *e)
{
	for (int g = 0; g < 4; g++)
		free(e->v[g]);
}

static TwoCycle random_two_cycle(Late *L)
{
	TwoCycle e;
	for (int g = 0; g < 4; g++)
		e.v[g] = random_values(&L->rng, late_spec(L, g), late_cls[g]);
	return e;
}

static int is_param_field(const PeakRule *r, int f)
{
	for (int p = 0; p < r->ir->nports[PEAK_PARAM]; p++)
		if (r->param_bind[p] == f)
			return 1;
	return 0;
}

/* L->fields: the rule's instruction with the entries of the inputs in subset
 * applied (params still 0); 0 if two entries set a field to different values. */
static int late_fields(Late *L, unsigned subset)
{
	const PeakRegistered *reg = L->r->registered;
	memcpy(L->fields, L->r->fields, (size_t)L->pe->nports[PEAK_FIELD] * sizeof(uint64_t));
	for (int j = 0; j < L->nx; j++)
		for (int i = 0; subset >> j & 1 && i < reg[j].n; i++)
			L->fields[reg[j].fields[i]] = reg[j].values[i];
	for (int j = 0; j < L->nx; j++)
		for (int i = 0; subset >> j & 1 && i < reg[j].n; i++)
			if (L->fields[reg[j].fields[i]] != reg[j].values[i])
				return 0;
	return 1;
}

/* Runs q on e with L->fields (from late_fields); 1 if every bound output
 * agrees in the last cycle. The outputs stay in L->scratch_pe and
 * L->scratch_ir. */
static int late_agrees(Late *L, Query q, const TwoCycle *e)
{
	const PeakSpec *pe = L->pe, *ir = L->ir;
	const PeakRule *r = L->r;
	uint64_t nothing[1] = { 0 };
	const uint64_t *state = e->v[T_S0];
	for (int p = 0; p < ir->nports[PEAK_PARAM]; p++)
		L->fields[r->param_bind[p]] = e->v[T_K][p];
	if (q.cycles == 2) {
		const uint64_t *const c0[4] = { e->v[T_U0], e->v[T_S0], L->fields, nothing };
		nf_eval(&pe->g, L->scratch_pe, c0);
		for (int i = 0; i < pe->nports[PEAK_STATE]; i++)
			L->s1[i] = L->scratch_pe[pe->next_nodes[i]];
		state = L->s1;
	}
	const uint64_t *const c1[4] = { e->v[T_U1], state, L->fields, nothing };
	nf_eval(&pe->g, L->scratch_pe, c1);
	for (int j = 0; j < ir->nports[PEAK_INPUT]; j++)
		L->x[j] = !(q.subset >> j & 1) ? e->v[T_U1][r->in_bind[j]]
			  : q.cycles == 2      ? e->v[T_U0][r->in_bind[j]]
					       : e->v[T_S0][q.v];
	const uint64_t *const il[4] = { L->x, nothing, nothing, e->v[T_K] };
	nf_eval(&ir->g, L->scratch_ir, il);
	for (int o = 0; o < ir->nports[PEAK_OUTPUT]; o++)
		if (L->scratch_pe[pe->out_nodes[r->out_bind[o]]] != L->scratch_ir[ir->out_nodes[o]])
			return 0;
	return 1;
}

/* Runs q on n random vectors; the number that differ, the first kept in *bad
 * (caller frees) when bad is not NULL. Conflicting entries fail all n. */
static int late_random(Late *L, Query q, int n, int stop_at_first, TwoCycle *bad)
{
	if (!late_fields(L, q.subset))
		return n;
	int differ = 0;
	for (int i = 0; i < n; i++) {
		TwoCycle e = random_two_cycle(L);
		int ok = late_agrees(L, q, &e);
		if (!ok && differ++ == 0 && bad)
			*bad = e;
		else
			two_cycle_free(&e);
		if (!ok && stop_at_first)
			break;
	}
	return differ;
}

static Z3_ast *fresh_vars(Z3_context ctx, const PeakSpec *s, int cls, const char *prefix)
{
	Z3_ast *v = xcalloc((size_t)s->nports[cls] + 1, sizeof(Z3_ast));
	for (int i = 0; i < s->nports[cls]; i++) {
		char name[48];
		snprintf(name, sizeof name, "%s%d", prefix, i);
		v[i] = peak_smt_var(ctx, name, s->ports[cls][i].type.width);
	}
	return v;
}

/* "Some bound output in the last cycle differs from the IR operation's": q
 * over the variables vars (u0, u1, s0, k), with L->fields. */
static Z3_ast late_differs(Late *L, Query q, Z3_ast *const vars[4])
{
	Z3_context ctx = L->ctx;
	const PeakSpec *pe = L->pe, *ir = L->ir;
	const PeakRule *r = L->r;
	int nf = pe->nports[PEAK_FIELD], ns = pe->nports[PEAK_STATE], no = ir->nports[PEAK_OUTPUT];
	Z3_ast *F = xcalloc((size_t)nf + 1, sizeof(Z3_ast));
	Z3_ast *s1 = xcalloc((size_t)ns + 1, sizeof(Z3_ast));
	Z3_ast *x = xcalloc((size_t)ir->nports[PEAK_INPUT] + 1, sizeof(Z3_ast));
	Z3_ast *diff = xcalloc((size_t)no + 1, sizeof(Z3_ast));
	Z3_ast none[1] = { NULL }, *state = vars[T_S0], *t0 = NULL;
	for (int f = 0; f < nf; f++)
		F[f] = peak_smt_const(ctx, L->fields[f], pe->ports[PEAK_FIELD][f].type.width);
	for (int p = 0; p < ir->nports[PEAK_PARAM]; p++)
		F[r->param_bind[p]] = vars[T_K][p];
	if (q.cycles == 2) {
		Z3_ast *const c0[4] = { vars[T_U0], vars[T_S0], F, none };
		t0 = peak_smt_terms(ctx, pe, c0);
		for (int i = 0; i < ns; i++)
			s1[i] = t0[pe->next_nodes[i]];
		state = s1;
	}
	Z3_ast *const c1[4] = { vars[T_U1], state, F, none };
	Z3_ast *t1 = peak_smt_terms(ctx, pe, c1);
	for (int j = 0; j < ir->nports[PEAK_INPUT]; j++)
		x[j] = !(q.subset >> j & 1) ? vars[T_U1][r->in_bind[j]]
		       : q.cycles == 2      ? vars[T_U0][r->in_bind[j]]
					    : vars[T_S0][q.v];
	Z3_ast *const il[4] = { x, none, none, vars[T_K] };
	Z3_ast *it = peak_smt_terms(ctx, ir, il);
	for (int o = 0; o < no; o++)
		diff[o] = Z3_mk_not(ctx, Z3_mk_eq(ctx, it[ir->out_nodes[o]],
						 t1[pe->out_nodes[r->out_bind[o]]]));
	Z3_ast any = Z3_mk_or(ctx, (unsigned)no, diff);
	free(F), free(s1), free(x), free(diff), free(t0), free(t1), free(it);
	return any;
}

/* Proves q for all values, or stores a counterexample in *cex (the caller
 * then owns it) when cex is not NULL. */
static Verdict late_prove(Late *L, Query q, TwoCycle *cex)
{
	if (!late_fields(L, q.subset))
		return UNKNOWN;
	if (!L->ctx)
		L->ctx = new_context();
	Z3_context ctx = L->ctx;
	static const char *const prefix[4] = { "u0_", "u1_", "s0_", "k" };
	Z3_ast *vars[4];
	for (int g = 0; g < 4; g++)
		vars[g] = fresh_vars(ctx, late_spec(L, g), late_cls[g], prefix[g]);
	Z3_solver s = new_solver(ctx, L->rlimit);
	Z3_solver_assert(ctx, s, late_differs(L, q, vars));
	Z3_lbool res = Z3_solver_check(ctx, s);
	Verdict v = z3_failed ? UNKNOWN : res == Z3_L_FALSE ? PROVED : res == Z3_L_TRUE ? REFUTED : UNKNOWN;
	if (v == REFUTED && cex) {
		Z3_model m = Z3_solver_get_model(ctx, s);
		Z3_model_inc_ref(ctx, m);
		for (int g = 0; g < 4; g++) {
			const PeakSpec *sp = late_spec(L, g);
			cex->v[g] = xcalloc((size_t)sp->nports[late_cls[g]] + 1, sizeof(uint64_t));
			for (int i = 0; i < sp->nports[late_cls[g]]; i++)
				cex->v[g][i] = peak_smt_value(ctx, m, vars[g][i]);
		}
		Z3_model_dec_ref(ctx, m);
	}
	Z3_solver_dec_ref(ctx, s);
	for (int g = 0; g < 4; g++)
		free(vars[g]);
	return v;
}

static int late_holds(Late *L, Query q)
{
	return late_random(L, q, LATE_PRECHECK, 1, NULL) == 0 && late_prove(L, q, NULL) == PROVED;
}

/* The state variable IR input j's entry reads the input from (the first that
 * passes `vectors` random vectors and, with prove, Z3), or -1. */
static int register_read(Late *L, int j, int vectors, int prove)
{
	const PeakSpec *pe = L->pe;
	for (int v = 0; v < pe->nports[PEAK_STATE]; v++) {
		if (pe->ports[PEAK_STATE][v].type.width != L->ir->ports[PEAK_INPUT][j].type.width)
			continue;
		Query q = from_state(j, v);
		if (late_random(L, q, vectors, 1, NULL) == 0 && (!prove || late_prove(L, q, NULL) == PROVED))
			return v;
	}
	return -1;
}

/* How many values candidate field f has (0: not tried). */
static int candidate_count(const PeakSpec *pe, int f)
{
	const PeakType *t = &pe->ports[PEAK_FIELD][f].type;
	if (t->enum_id >= 0)
		return pe->enums[t->enum_id].n;
	return t->width <= LATE_MAX_BITS ? 1 << t->width : 0;
}

static uint64_t candidate_value(const PeakSpec *pe, int f, int c)
{
	const PeakType *t = &pe->ports[PEAK_FIELD][f].type;
	return t->enum_id >= 0 ? pe->enums[t->enum_id].codes[c] : (uint64_t)c;
}

/* Finds IR input j's entry: the first single-field change that proves. */
static int find_register(Late *L, PeakRegistered *e, int j)
{
	const PeakSpec *pe = L->pe;
	e->fields = xcalloc(1, sizeof(int));
	e->values = xcalloc(1, sizeof(uint64_t));
	for (int f = 0; f < pe->nports[PEAK_FIELD]; f++) {
		if (is_param_field(L->r, f))
			continue;
		for (int c = 0; c < candidate_count(pe, f); c++) {
			uint64_t v = candidate_value(pe, f, c);
			if (v == L->r->fields[f])
				continue;
			*e = (PeakRegistered){ 1, e->fields, e->values };
			e->fields[0] = f;
			e->values[0] = v;
			if (late_holds(L, two_cycles(1u << j)) && register_read(L, j, LATE_PRECHECK, 1) >= 0)
				return 1;
		}
	}
	registered_clear(e);
	return 0;
}

static int highest_bit(unsigned m)
{
	int b = -1;
	for (; m; m >>= 1)
		b++;
	return b;
}

/* Drops registered inputs, the last one of a failing subset first, until
 * every subset of the rest holds together. Singletons have been proved. */
static void prune_subsets(Late *L, PeakRegistered *reg)
{
	unsigned all = 0;
	for (int j = 0; j < L->nx; j++)
		all |= reg[j].n ? 1u << j : 0;
	char *holds = xcalloc((size_t)all + 2, 1);
	for (int j = 0; j < L->nx; j++)
		if (all >> j & 1)
			holds[1u << j] = 1;
	for (unsigned s = 1; s <= all; s++) {
		if ((s & ~all) || holds[s])
			continue;
		if (late_holds(L, two_cycles(s))) {
			holds[s] = 1;
			continue;
		}
		int drop = highest_bit(s);
		registered_clear(&reg[drop]);
		all &= ~(1u << drop);
		s = 0;
	}
	free(holds);
}

int peak_rule_registers(const PeakSpec *pe, PeakRule *r, uint64_t seed, unsigned rlimit)
{
	int nx = r->ir->nports[PEAK_INPUT];
	registered_free(r->registered, nx);
	r->registered = xcalloc((size_t)nx + 1, sizeof(PeakRegistered));
	if (!r->found)
		return 0;
	Late L;
	late_init(&L, pe, r, seed, rlimit);
	for (int j = 0; j < L.nx; j++)
		find_register(&L, &r->registered[j], j);
	prune_subsets(&L, r->registered);
	late_free(&L);
	return peak_rule_nregistered(r);
}

int peak_rule_nregistered(const PeakRule *r)
{
	int n = 0;
	for (int j = 0; r->registered && j < r->ir->nports[PEAK_INPUT]; j++)
		n += r->registered[j].n > 0;
	return n;
}

/* ---- re-checking registered entries (peak verify-rules) ---- */

/* The inputs with an entry as a mask, or 0 if some entry lies beyond
 * LATE_MAX_INPUTS (*why then says so). */
static unsigned registered_mask(const Late *L, char **why)
{
	unsigned all = 0;
	for (int j = 0; L->r->registered && j < L->ir->nports[PEAK_INPUT]; j++) {
		if (!L->r->registered[j].n)
			continue;
		if (j >= L->nx) {
			*why = xasprintf("input '%s' is registered but only the first %d inputs can be",
					 L->ir->ports[PEAK_INPUT][j].name, LATE_MAX_INPUTS);
			return 0;
		}
		all |= 1u << j;
	}
	return all;
}

static void append(char *buf, size_t size, size_t *n, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static void append(char *buf, size_t size, size_t *n, const char *fmt, ...)
{
	if (*n >= size)
		return;
	va_list ap;
	va_start(ap, fmt);
	int k = vsnprintf(buf + *n, size - *n, fmt, ap);
	va_end(ap);
	*n += k > 0 ? (size_t)k : 0;
}

static void append_field_value(char *buf, size_t size, size_t *n, const PeakSpec *pe, int f,
			       uint64_t v)
{
	const PeakPort *p = &pe->ports[PEAK_FIELD][f];
	if (p->type.enum_id >= 0) {
		const PeakEnum *e = &pe->enums[p->type.enum_id];
		for (int m = 0; m < e->n; m++)
			if (e->codes[m] == v) {
				append(buf, size, n, "%s: %s", p->name, e->members[m]);
				return;
			}
	}
	append(buf, size, n, "%s: %llu", p->name, (unsigned long long)v);
}

/* "registered input 'a' { mode0: const }" or "registered inputs 'a' { ... },
 * 'b' { ... } together". */
static void append_subset(char *buf, size_t size, size_t *n, const Late *L, unsigned subset)
{
	int many = (subset & (subset - 1)) != 0, first = 1;
	append(buf, size, n, "registered input%s", many ? "s" : "");
	for (int j = 0; j < L->nx; j++) {
		if (!(subset >> j & 1))
			continue;
		const PeakRegistered *e = &L->r->registered[j];
		append(buf, size, n, "%s '%s' { ", first ? "" : ",", L->ir->ports[PEAK_INPUT][j].name);
		for (int i = 0; i < e->n; i++) {
			append(buf, size, n, "%s", i ? ", " : "");
			append_field_value(buf, size, n, L->pe, e->fields[i], e->values[i]);
		}
		append(buf, size, n, " }");
		first = 0;
	}
	append(buf, size, n, "%s", many ? " together" : "");
}

/* What goes wrong with subset on two-cycle run e (NULL: only what and the
 * entries): the bound PE inputs of both cycles, the params, and the bound
 * outputs of the PE in cycle 1 and of the IR operation. */
static char *describe_failure(Late *L, unsigned subset, const TwoCycle *e, const char *what)
{
	const PeakSpec *pe = L->pe, *ir = L->ir;
	const PeakRule *r = L->r;
	char buf[1024];
	size_t n = 0;
	append_subset(buf, sizeof buf, &n, L, subset);
	append(buf, sizeof buf, &n, " %s", what);
	if (!late_fields(L, subset)) {
		append(buf, sizeof buf, &n, ": its entries set a field to two values");
		return xstrdup(buf);
	}
	if (!e)
		return xstrdup(buf);
	late_agrees(L, two_cycles(subset), e);
	for (int c = 0; c < 2; c++) {
		append(buf, sizeof buf, &n, "%s cycle %d", c ? ";" : ":", c);
		for (int j = 0; j < ir->nports[PEAK_INPUT]; j++)
			append(buf, sizeof buf, &n, " %s=0x%llx", pe->ports[PEAK_INPUT][r->in_bind[j]].name,
			       (unsigned long long)e->v[c ? T_U1 : T_U0][r->in_bind[j]]);
	}
	for (int p = 0; p < ir->nports[PEAK_PARAM]; p++)
		append(buf, sizeof buf, &n, "%s %s=0x%llx", p ? "" : ";", ir->ports[PEAK_PARAM][p].name,
		       (unsigned long long)e->v[T_K][p]);
	for (int o = 0; o < ir->nports[PEAK_OUTPUT]; o++)
		append(buf, sizeof buf, &n, "; cycle 1 %s=0x%llx, IR %s=0x%llx",
		       pe->ports[PEAK_OUTPUT][r->out_bind[o]].name,
		       (unsigned long long)L->scratch_pe[pe->out_nodes[r->out_bind[o]]],
		       ir->ports[PEAK_OUTPUT][o].name, (unsigned long long)L->scratch_ir[ir->out_nodes[o]]);
	return xstrdup(buf);
}

/* Checks every subset of the registered inputs (two cycles) and every
 * entry's register read, on random vectors or (prove) with Z3 as well;
 * returns the number of failures, the first described in *first. */
static int recheck_registers(Late *L, int vectors, int prove, char **first)
{
	unsigned all = registered_mask(L, first);
	int bad = *first != NULL;
	for (unsigned s = 1; s <= all && !(prove && bad); s++) {
		if (s & ~all)
			continue;
		TwoCycle e = { { NULL } };
		Verdict v = late_random(L, two_cycles(s), vectors, 0, &e) ? REFUTED : PROVED;
		if (v == PROVED && prove) {
			two_cycle_free(&e);
			v = late_prove(L, two_cycles(s), &e);
		}
		if (v != PROVED && bad++ == 0)
			*first = describe_failure(L, s, v == REFUTED ? &e : NULL,
						  v == UNKNOWN  ? "was not proved: the solver gave up"
						  : prove ? "is not read one cycle late (Z3)"
							  : "is not read one cycle late");
		two_cycle_free(&e);
	}
	for (int j = 0; j < L->nx && !(prove && bad); j++) {
		if (!(all >> j & 1) || register_read(L, j, vectors, prove) >= 0)
			continue;
		if (bad++ == 0)
			*first = describe_failure(L, 1u << j, NULL,
						  "is not read from a state variable in the input's place "
						  "(an input register) under its instruction");
	}
	return bad;
}

int peak_rule_check_registers(const PeakSpec *pe, const PeakRule *r, int vectors, uint64_t seed,
			      char **why)
{
	Late L;
	late_init(&L, pe, r, seed, PEAK_REGISTER_LIMIT);
	char *first = NULL;
	int bad = recheck_registers(&L, vectors, 0, &first);
	late_free(&L);
	if (why)
		*why = first;
	else
		free(first);
	return bad;
}

int peak_rule_prove_registers(const PeakSpec *pe, const PeakRule *r, char **why)
{
	Late L;
	late_init(&L, pe, r, 1, PEAK_REGISTER_LIMIT);
	char *first = NULL;
	int bad = recheck_registers(&L, LATE_PRECHECK, 1, &first);
	late_free(&L);
	if (why)
		*why = first;
	else
		free(first);
	return bad == 0;
}
