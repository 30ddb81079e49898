/* memsolve.c - see memsolve.h. Solving a controller for a stream takes four
 * steps, each a section below:
 *   1. ranges: the cycles increase and fit the schedule counter, every address
 *      fits its generator;
 *   2. the loop nest: the greedy run-length decomposition of the joint
 *      difference sequence of (cycle, addresses...), taken modulo each value's
 *      width as the hardware computes, gives the minimal nest (extents, level 0
 *      innermost) or the event where the stream stops being affine;
 *   3. Z3: `<mem>.smt2` plus assertions (the nest's extents, unused levels'
 *      steps 0, and for a working set of events the model's cycle and address
 *      functions equal the requested values) gives the registers; the .smt2
 *      is parsed once per controller and solver (MemSolver), its functions as
 *      equations in placeholders that each event's values replace;
 *   4. confirmation: the functional model runs the whole stream with them; the
 *      first event it performs differently joins the working set and Z3 is
 *      asked again.
 * The nest fixes every register but the steps of the levels it does not use,
 * so the first answer is normally right; the loop guards against a model and
 * a `.smt2` that disagree, which it reports rather than hides. */
#include "memsolve.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <z3.h>

#include "memmodel.h"
#include "../common/util.h"
#include "../common/vec.h"

/* Z3 calls before giving up: each adds one event, so this is far more than a
 * consistent model and .smt2 ever need. */
#define MAX_ROUNDS 16
/* Tiles of a chain checked by confirmation runs (one run per high address). */
#define MAX_CHAIN_RUNS 4
/* The largest affine request expanded into a stream. */
#define MAX_EXPAND (1L << 24)
#define MAX_LEVELS 64
/* Z3's work limit per call ("rlimit": work, not time, so that an outcome never
 * depends on the machine); the queries are linear once the extents are fixed
 * and need a small fraction of it. */
#define SOLVER_RLIMIT 50000000u

/* The values of one event: the cycle, then the addresses. */
#define MAX_COMP 3

/* What a stream is matched against: the controller's schedule generator and
 * its address generators, in the stream's column order. */
typedef struct Target {
	const MemInfo *mi;
	const MemCtrl *c;
	int ncomp; /* 1 + addresses */
	const MemGen *gen[MAX_COMP];
	const MemAddrGen *ag[MAX_COMP]; /* NULL for the schedule */
	const char *fn[MAX_COMP];       /* value functions of the .smt2: cycle, src_addr, dst_addr */
	int width[MAX_COMP];
} Target;

typedef struct Nest {
	int levels;
	int64_t extent[MAX_LEVELS];
} Nest;

/* A controller's value functions as Z3 terms (parsed from the .smt2 on its
 * first stream): eq[k] is (= (C_<fn k> i0 .. i<dims-1>) v<k>) in the
 * placeholders, instantiated per event by substitution. */
typedef struct CtrlTerms {
	int state;              /* 0 not parsed yet, 1 parsed, -1 the parse failed (err) */
	char err[300];
	int ncomp;
	Z3_ast eq[MAX_COMP];
	Z3_ast val[MAX_COMP];   /* the placeholders v<k> */
} CtrlTerms;

struct MemSolver {
	const MemInfo *mi;
	const char *smt2;
	Z3_context ctx;
	Z3_ast idx[MEM_MAX_DIMS];      /* the placeholders i<l> (counter_bits wide) */
	CtrlTerms *terms;              /* per controller */
};

typedef struct Solve {
	Target tg;
	MemSolver *ms;
	const MemStream *s;
	Nest nest;
	VEC(long) work; /* event numbers given to Z3, ascending */
	uint32_t *regs; /* the candidate, indexed like mi->regs */
	char *why;
	size_t whylen;
	MemSolveStats st;
} Solve;

static int fail(Solve *sv, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int fail_at(Solve *sv, long event, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

static void vfail(Solve *sv, const char *fmt, va_list ap)
{
	if (!sv->why || sv->whylen == 0)
		return;
	int n = snprintf(sv->why, sv->whylen, "cannot be configured: ");
	if (n >= 0 && (size_t)n < sv->whylen)
		vsnprintf(sv->why + n, sv->whylen - (size_t)n, fmt, ap);
}

/* Writes "cannot be configured: <reason>" to why; returns 0. */
static int fail(Solve *sv, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vfail(sv, fmt, ap);
	va_end(ap);
	return 0;
}

/* The same for a reason about one event (recorded in the stats). */
static int fail_at(Solve *sv, long event, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vfail(sv, fmt, ap);
	va_end(ap);
	sv->st.event = event;
	return 0;
}

static int64_t value(const MemStream *s, int comp, long i)
{
	return comp == 0 ? s->cycle[i] : s->addr[comp - 1][i];
}

static uint64_t mask(int w)
{
	return w >= 64 ? ~0ULL : (1ULL << w) - 1;
}

/* "4 x 3 x 2" into buf. */
static const char *extents_text(const Nest *n, char *buf, size_t len)
{
	size_t at = 0;
	buf[0] = '\0';
	if (n->levels == 0)
		snprintf(buf, len, "none: one event");
	for (int l = 0; l < n->levels && at < len; l++)
		at += (size_t)snprintf(buf + at, len - at, "%s%" PRId64, l ? " x " : "", n->extent[l]);
	return buf;
}

/* ---- the target ---- */

static void add_comp(Target *tg, const MemGen *g, const MemAddrGen *a, const char *fn)
{
	tg->gen[tg->ncomp] = g;
	tg->ag[tg->ncomp] = a;
	tg->fn[tg->ncomp] = fn;
	tg->width[tg->ncomp] = g->width;
	tg->ncomp++;
}

static int setup_target(Solve *sv, const MemInfo *mi, int ctrl, int naddr)
{
	Target *tg = &sv->tg;
	memset(tg, 0, sizeof *tg);
	tg->mi = mi;
	if (ctrl < 0 || ctrl >= mi->nctrls)
		return fail(sv, "no controller %d (the tile has %d)", ctrl, mi->nctrls);
	tg->c = &mi->ctrls[ctrl];
	add_comp(tg, &tg->c->sched, NULL, "cycle");
	if (tg->c->src)
		add_comp(tg, &tg->c->src->gen, tg->c->src, "src_addr");
	if (tg->c->dst)
		add_comp(tg, &tg->c->dst->gen, tg->c->dst, "dst_addr");
	if (naddr != tg->ncomp - 1) {
		char gens[160] = "";
		if (tg->ncomp > 1)
			snprintf(gens, sizeof gens, " (%s%s%s)", mem_end_name(mi, tg->ag[1]->end),
				 tg->ncomp > 2 ? ", then " : "",
				 tg->ncomp > 2 ? mem_end_name(mi, tg->ag[2]->end) : "");
		return fail(sv, "controller %s has %d address generator%s%s, the request gives %d address%s",
			    tg->c->name, tg->ncomp - 1, tg->ncomp == 2 ? "" : "s", gens, naddr,
			    naddr == 1 ? "" : "es");
	}
	return 1;
}

/* ---- 1. ranges ---- */

static int check_cycles(Solve *sv)
{
	const MemStream *s = sv->s;
	int cb = sv->tg.mi->counter_bits;
	int64_t top = (int64_t)mask(cb);
	for (long i = 0; i < s->n; i++) {
		int64_t t = s->cycle[i];
		if (t < 0)
			return fail_at(sv, i, "event %ld: cycle %" PRId64 " is negative", i, t);
		if (t > top)
			return fail_at(sv, i,
				       "event %ld: cycle %" PRId64 " overflows the %d-bit schedule counter "
				       "(at most %" PRId64 ")",
				       i, t, cb, top);
		if (i > 0 && t <= s->cycle[i - 1])
			return fail_at(sv, i,
				       "event %ld: cycle %" PRId64 " does not come after cycle %" PRId64
				       " of event %ld (a controller performs its operations in increasing "
				       "cycles)",
				       i, t, s->cycle[i - 1], i - 1);
	}
	return 1;
}

static int check_addresses(Solve *sv)
{
	const Target *tg = &sv->tg;
	const MemInfo *mi = tg->mi;
	for (int k = 1; k < tg->ncomp; k++) {
		const MemAddrGen *a = tg->ag[k];
		const MemUnitInfo *u = &mi->units[a->end.unit];
		int64_t top = (int64_t)mask(a->gen.width);
		for (long i = 0; i < sv->s->n; i++) {
			int64_t v = value(sv->s, k, i);
			if (v >= 0 && v <= top)
				continue;
			if (u->chained)
				return fail_at(sv, i,
					       "event %ld: address %" PRId64
					       " of %s is out of the range of its "
					       "chained %d-bit address generator (0 to %" PRId64 ")",
					       i, v, mem_end_name(mi, a->end), a->gen.width, top);
			return fail_at(sv, i,
				       "event %ld: address %" PRId64
				       " is out of the range of %s (0 to %" PRId64 ")",
				       i, v, mem_end_name(mi, a->end), top);
		}
	}
	return 1;
}

/* ---- 2. the loop nest ---- */

/* The differences of the values of events j and i, each modulo its width:
 * stored in want if fill, else compared with it (1 if all equal). */
static int same_step(const Solve *sv, long i, long j, uint64_t *want, int fill)
{
	for (int k = 0; k < sv->tg.ncomp; k++) {
		uint64_t d =
			((uint64_t)value(sv->s, k, j) - (uint64_t)value(sv->s, k, i)) & mask(sv->tg.width[k]);
		if (fill)
			want[k] = d;
		else if (d != want[k])
			return 0;
	}
	return 1;
}

static void describe_event(const Solve *sv, long i, char *buf, size_t len)
{
	size_t at = (size_t)snprintf(buf, len, "cycle %" PRId64, sv->s->cycle[i]);
	for (int k = 1; k < sv->tg.ncomp && at < len; k++)
		at += (size_t)snprintf(buf + at, len - at, ", %s address %" PRId64,
				       mem_end_name(sv->tg.mi, sv->tg.ag[k]->end), value(sv->s, k, i));
}

/* The stream stops being affine at event i; detail (or "") says more. */
static int not_affine(Solve *sv, long i, const char *detail)
{
	char ev[160], ext[160];
	describe_event(sv, i, ev, sizeof ev);
	return fail_at(sv, i,
		       "not an affine stream: event %ld (%s) does not continue the loop nest "
		       "of the events before it (extents %s, innermost first)%s",
		       i, ev, extents_text(&sv->nest, ext, sizeof ext), detail);
}

/* One level: the points are events j * span, j < count. Finds the run of
 * equal steps from the first point, checks that every block of that length
 * repeats it and returns the extent (0 after reporting a break). */
static int64_t find_level(Solve *sv, long span, long count)
{
	uint64_t d[MAX_COMP];
	same_step(sv, 0, span, d, 1);
	long run = 1;
	while (run < count - 1 && same_step(sv, run * span, (run + 1) * span, d, 0))
		run++;
	long e = run + 1;
	sv->nest.extent[sv->nest.levels] = e;
	sv->nest.levels++;
	for (long b = 0; b * e < count; b++)
		for (long j = 1; j < e && b * e + j < count; j++)
			if (!same_step(sv, (b * e + j - 1) * span, (b * e + j) * span, d, 0))
				return not_affine(sv, (b * e + j) * span, ""), 0;
	if (count % e != 0) {
		char detail[96];
		snprintf(detail, sizeof detail, ": the %ld events are not a whole number of its iterations",
			 sv->s->n);
		return not_affine(sv, (count - count % e) * span, detail), 0;
	}
	return e;
}

static int find_nest(Solve *sv)
{
	const MemInfo *mi = sv->tg.mi;
	long span = 1, count = sv->s->n;
	sv->nest.levels = 0;
	while (count > 1) {
		if (sv->nest.levels == MAX_LEVELS)
			return fail(sv, "not an affine stream");
		int64_t e = find_level(sv, span, count);
		if (e == 0)
			return 0;
		span *= e;
		count /= e;
	}
	char ext[160];
	if (sv->nest.levels > mi->dims)
		return fail(sv,
			    "the stream needs %d loop levels (extents %s, innermost first); the "
			    "controllers have %d",
			    sv->nest.levels, extents_text(&sv->nest, ext, sizeof ext), mi->dims);
	int64_t most = (int64_t)1 << mi->counter_bits;
	for (int l = 0; l < sv->nest.levels; l++)
		if (sv->nest.extent[l] > most)
			return fail(sv,
				    "level %d has %" PRId64 " iterations; the %d-bit counters count at "
				    "most %" PRId64,
				    l, sv->nest.extent[l], mi->counter_bits, most);
	return 1;
}

/* The counter values of event i. */
static void counters(const Nest *n, long i, int64_t *idx, int dims)
{
	for (int l = 0; l < dims; l++) {
		idx[l] = l < n->levels ? i % n->extent[l] : 0;
		i = l < n->levels ? i / n->extent[l] : i;
	}
}

/* Event 0 and the first event of each level. */
static void initial_work(Solve *sv)
{
	long span = 1;
	vec_push(&sv->work, 0L);
	for (int l = 0; l < sv->nest.levels; l++) {
		vec_push(&sv->work, span);
		span *= (long)sv->nest.extent[l];
	}
}

static int in_work(const Solve *sv, long i)
{
	vec_foreach(&sv->work, k) {
		if (sv->work.data[k] == i)
			return 1;
	}
	return 0;
}

/* ---- 3. Z3 ---- */

/* Z3's last error as a line (its message without the `(error "...")`
 * around it) into buf; 0 if there is none. */
static int z3_error(Z3_context ctx, char *buf, size_t len)
{
	Z3_error_code e = Z3_get_error_code(ctx);
	if (e == Z3_OK)
		return 0;
	const char *msg = Z3_get_error_msg(ctx, e);
	const char *prefix = "(error \"";
	if (strncmp(msg, prefix, strlen(prefix)) == 0)
		msg += strlen(prefix);
	size_t n = strcspn(msg, "\n");
	if (n >= 2 && strncmp(msg + n - 2, "\")", 2) == 0)
		n -= 2;
	snprintf(buf, len, "%.*s", (int)n, msg);
	return 1;
}

static Z3_sort bv_sort(Z3_context ctx, int width)
{
	return Z3_mk_bv_sort(ctx, (unsigned)width);
}

static Z3_ast bv_const(Z3_context ctx, const char *name, int width)
{
	return Z3_mk_const(ctx, Z3_mk_string_symbol(ctx, name), bv_sort(ctx, width));
}

static Z3_ast bv_num(Z3_context ctx, uint64_t v, int width)
{
	return Z3_mk_unsigned_int64(ctx, v & mask(width), bv_sort(ctx, width));
}

MemSolver *memsolver_new(const MemInfo *mi, const char *smt2)
{
	MemSolver *ms = xcalloc(1, sizeof *ms);
	ms->mi = mi;
	ms->smt2 = smt2;
	ms->terms = xcalloc((size_t)mi->nctrls + 1, sizeof *ms->terms);
	Z3_config cfg = Z3_mk_config();
	Z3_set_param_value(cfg, "model", "true");
	ms->ctx = Z3_mk_context_rc(cfg);
	Z3_del_config(cfg);
	Z3_set_error_handler(ms->ctx, NULL);
	for (int l = 0; l < mi->dims; l++) {
		char name[32];
		snprintf(name, sizeof name, "memsolve_i%d", l);
		ms->idx[l] = bv_const(ms->ctx, name, mi->counter_bits);
		Z3_inc_ref(ms->ctx, ms->idx[l]);
	}
	return ms;
}

void memsolver_free(MemSolver *ms)
{
	if (!ms)
		return;
	for (int c = 0; c < ms->mi->nctrls; c++)
		for (int k = 0; ms->terms[c].state == 1 && k < ms->terms[c].ncomp; k++) {
			Z3_dec_ref(ms->ctx, ms->terms[c].eq[k]);
			Z3_dec_ref(ms->ctx, ms->terms[c].val[k]);
		}
	for (int l = 0; l < ms->mi->dims; l++)
		Z3_dec_ref(ms->ctx, ms->idx[l]);
	Z3_del_context(ms->ctx);
	free(ms->terms);
	free(ms);
}

/* The controller's value functions as terms: the .smt2 parsed with one
 * equation per function in the placeholders (once per controller and
 * solver; a failure is kept and reported again). */
static CtrlTerms *ctrl_terms(Solve *sv)
{
	MemSolver *ms = sv->ms;
	const Target *tg = &sv->tg;
	CtrlTerms *t = &ms->terms[tg->c - tg->mi->ctrls];
	if (t->state)
		return t;
	Z3_context ctx = ms->ctx;
	StrBuf b = { 0 };
	sb_printf(&b, "%s\n; ---- memsolve: the value functions of controller %s ----\n", ms->smt2, tg->c->name);
	for (int l = 0; l < tg->mi->dims; l++)
		sb_printf(&b, "(declare-const memsolve_i%d (_ BitVec %d))\n", l, tg->mi->counter_bits);
	for (int k = 0; k < tg->ncomp; k++) {
		sb_printf(&b, "(declare-const memsolve_v%d (_ BitVec %d))\n(assert (= (%s_%s", k, tg->width[k],
			  tg->c->name, tg->fn[k]);
		for (int l = 0; l < tg->mi->dims; l++)
			sb_printf(&b, " memsolve_i%d", l);
		sb_printf(&b, ") memsolve_v%d))\n", k);
	}
	Z3_ast_vector v = Z3_parse_smtlib2_string(ctx, b.s, 0, NULL, NULL, 0, NULL, NULL);
	free(b.s);
	t->state = -1;
	if (z3_error(ctx, t->err, sizeof t->err))
		return t;
	Z3_ast_vector_inc_ref(ctx, v);
	if (Z3_ast_vector_size(ctx, v) == (unsigned)tg->ncomp) {
		t->state = 1;
		t->ncomp = tg->ncomp;
		for (int k = 0; k < tg->ncomp; k++) {
			char name[32];
			snprintf(name, sizeof name, "memsolve_v%d", k);
			t->eq[k] = Z3_ast_vector_get(ctx, v, (unsigned)k);
			t->val[k] = bv_const(ctx, name, tg->width[k]);
			Z3_inc_ref(ctx, t->eq[k]);
			Z3_inc_ref(ctx, t->val[k]);
		}
	} else {
		snprintf(t->err, sizeof t->err, "it asserts something of its own (%u assertions, %d expected)",
			 Z3_ast_vector_size(ctx, v), tg->ncomp);
	}
	Z3_ast_vector_dec_ref(ctx, v);
	return t;
}

static void assert_eq(Z3_context ctx, Z3_solver s, Z3_ast a, Z3_ast b)
{
	Z3_ast eq = Z3_mk_eq(ctx, a, b);
	Z3_inc_ref(ctx, eq);
	Z3_solver_assert(ctx, s, eq);
	Z3_dec_ref(ctx, eq);
}

static void assert_reg(Solve *sv, Z3_solver s, int reg, uint64_t v)
{
	const MemReg *r = &sv->tg.mi->regs[reg];
	Z3_context ctx = sv->ms->ctx;
	Z3_ast x = bv_const(ctx, r->name, r->width);
	Z3_inc_ref(ctx, x);
	Z3_ast n = bv_num(ctx, v, r->width);
	Z3_inc_ref(ctx, n);
	assert_eq(ctx, s, x, n);
	Z3_dec_ref(ctx, n);
	Z3_dec_ref(ctx, x);
}

/* The query: the nest's shape, then the working set's events, each value
 * function's equation with the event's counters and value in place of the
 * placeholders. */
static void assert_query(Solve *sv, Z3_solver s, const CtrlTerms *t)
{
	const Target *tg = &sv->tg;
	const MemInfo *mi = tg->mi;
	const MemCtrl *c = tg->c;
	Z3_context ctx = sv->ms->ctx;
	assert_reg(sv, s, c->en, 1);
	for (int l = 0; l < mi->dims; l++)
		assert_reg(sv, s, c->max[l], l < sv->nest.levels ? (uint64_t)sv->nest.extent[l] - 1 : 0);
	for (int k = 0; k < tg->ncomp; k++)
		for (int l = sv->nest.levels; l < mi->dims; l++)
			assert_reg(sv, s, tg->gen[k]->step[l], 0);
	int64_t idx[MEM_MAX_DIMS];
	Z3_ast from[MEM_MAX_DIMS + 1], to[MEM_MAX_DIMS + 1];
	for (int l = 0; l < mi->dims; l++)
		from[l] = sv->ms->idx[l];
	vec_foreach(&sv->work, w) {
		long i = sv->work.data[w];
		counters(&sv->nest, i, idx, mi->dims);
		for (int l = 0; l < mi->dims; l++) {
			to[l] = bv_num(ctx, (uint64_t)idx[l], mi->counter_bits);
			Z3_inc_ref(ctx, to[l]);
		}
		for (int k = 0; k < tg->ncomp; k++) {
			from[mi->dims] = t->val[k];
			to[mi->dims] = bv_num(ctx, (uint64_t)value(sv->s, k, i), tg->width[k]);
			Z3_inc_ref(ctx, to[mi->dims]);
			Z3_ast e = Z3_substitute(ctx, t->eq[k], (unsigned)mi->dims + 1, from, to);
			Z3_inc_ref(ctx, e);
			Z3_solver_assert(ctx, s, e);
			Z3_dec_ref(ctx, e);
			Z3_dec_ref(ctx, to[mi->dims]);
		}
		for (int l = 0; l < mi->dims; l++)
			Z3_dec_ref(ctx, to[l]);
	}
}

/* Reads the controller's registers from a model into sv->regs. */
static void read_model(Solve *sv, Z3_context ctx, Z3_model m)
{
	const MemInfo *mi = sv->tg.mi;
	const MemCtrl *c = sv->tg.c;
	int ids[1 + MEM_MAX_DIMS * 4 + 8], n = 0;
	ids[n++] = c->en;
	for (int l = 0; l < mi->dims; l++)
		ids[n++] = c->max[l];
	for (int k = 0; k < sv->tg.ncomp; k++) {
		ids[n++] = sv->tg.gen[k]->start;
		for (int l = 0; l < mi->dims; l++)
			ids[n++] = sv->tg.gen[k]->step[l];
	}
	for (int j = 0; j < n; j++) {
		const MemReg *r = &mi->regs[ids[j]];
		Z3_ast x = bv_const(ctx, r->name, r->width);
		Z3_inc_ref(ctx, x);
		Z3_ast v = NULL;
		uint64_t out = 0;
		if (Z3_model_eval(ctx, m, x, 1, &v) && v) {
			Z3_inc_ref(ctx, v);
			Z3_get_numeral_uint64(ctx, v, &out);
			Z3_dec_ref(ctx, v);
		}
		Z3_dec_ref(ctx, x);
		sv->regs[ids[j]] = (uint32_t)out;
	}
}

/* Asks Z3 for registers that produce the working set's events; 1 and
 * sv->regs filled, or 0 with the reason. */
static int ask_z3(Solve *sv)
{
	Z3_context ctx = sv->ms->ctx;
	sv->st.iterations++;
	sv->st.events_used = sv->work.len;
	const CtrlTerms *t = ctrl_terms(sv);
	if (t->state < 0)
		return fail(sv,
			    "Z3 failed to load the .smt2 model with the query (is it the one written with "
			    "this info file?): %s",
			    t->err);
	Z3_solver s = Z3_mk_solver_for_logic(ctx, Z3_mk_string_symbol(ctx, "QF_BV"));
	Z3_solver_inc_ref(ctx, s);
	Z3_params p = Z3_mk_params(ctx);
	Z3_params_inc_ref(ctx, p);
	Z3_params_set_uint(ctx, p, Z3_mk_string_symbol(ctx, "rlimit"), SOLVER_RLIMIT);
	Z3_solver_set_params(ctx, s, p);
	Z3_params_dec_ref(ctx, p);
	assert_query(sv, s, t);
	char err[300];
	Z3_lbool r = Z3_solver_check(ctx, s);
	int ok = 0;
	if (r == Z3_L_TRUE) {
		Z3_model m = Z3_solver_get_model(ctx, s);
		Z3_model_inc_ref(ctx, m);
		read_model(sv, ctx, m);
		Z3_model_dec_ref(ctx, m);
		ok = 1;
	} else if (z3_error(ctx, err, sizeof err)) {
		fail(sv, "Z3 failed to solve: %s", err);
	} else {
		char ext[160];
		if (r == Z3_L_FALSE)
			fail(sv,
			     "no register values give the loop nest %s the requested events (%d events "
			     "given to Z3)",
			     extents_text(&sv->nest, ext, sizeof ext), sv->work.len);
		else
			fail(sv, "Z3 gave up: %s", Z3_solver_get_reason_unknown(ctx, s));
	}
	Z3_solver_dec_ref(ctx, s);
	return ok;
}

/* ---- 4. confirmation by the functional model ---- */

/* A storage end's expected operations. */
typedef struct EndCheck {
	int unit, port;
	int write; /* a write request (else a read) */
	int delay; /* cycles from the fire to the request */
	int comp;  /* value column of its address, or -1 (address 0) */
	int chained, addr_bits;
	uint64_t tile; /* the high address bits this run's chain_id selects */
} EndCheck;

static int end_checks(const Solve *sv, EndCheck *ec)
{
	const Target *tg = &sv->tg;
	const MemInfo *mi = tg->mi;
	const MemCtrl *c = tg->c;
	const MemEdgeInfo *e = &mi->edges[c->edge];
	int n = 0;
	for (int side = 0; side < 2; side++) {
		MemEnd end = side == 0 ? e->src : e->dst;
		if (end.unit < 0 || (side == 0 && c->side == MEM_SIDE_WRITE) ||
		    (side == 1 && c->side == MEM_SIDE_READ))
			continue;
		const MemAddrGen *a = side == 0 ? c->src : c->dst;
		EndCheck *x = &ec[n++];
		memset(x, 0, sizeof *x);
		x->unit = end.unit;
		x->port = end.port;
		x->write = side == 1;
		x->delay = side == 1 && c->side == MEM_SIDE_BOTH ? e->latency : 0;
		x->comp = -1;
		for (int k = 1; k < tg->ncomp; k++)
			if (tg->ag[k] == a && a)
				x->comp = k;
		x->chained = mi->units[end.unit].chained;
		x->addr_bits = mi->units[end.unit].ports[end.port].addr_bits;
	}
	return n;
}

static uint64_t address_of(const Solve *sv, const EndCheck *x, long i)
{
	return x->comp < 0 ? 0 : (uint64_t)value(sv->s, x->comp, i);
}

/* Does the operation of event i at end x happen in this run? */
static int hits(const Solve *sv, const EndCheck *x, long i)
{
	return !x->chained || address_of(sv, x, i) >> x->addr_bits == x->tile;
}

/* The chain_id runs: the distinct high bits of the chained ends' addresses,
 * in order of appearance (up to MAX_CHAIN_RUNS); one run of tile 0 without
 * chaining. */
static int chain_tiles(const Solve *sv, const EndCheck *ec, int nec, uint64_t *tiles)
{
	const MemInfo *mi = sv->tg.mi;
	int n = 0;
	if (mi->chain_id >= 0) {
		uint64_t cmask = mask(mi->regs[mi->chain_id].width);
		for (int j = 0; j < nec; j++)
			for (long i = 0; ec[j].chained && i < sv->s->n && n < MAX_CHAIN_RUNS; i++) {
				uint64_t t = (address_of(sv, &ec[j], i) >> ec[j].addr_bits) & cmask;
				int seen = 0;
				for (int k = 0; k < n; k++)
					seen |= tiles[k] == t;
				if (!seen)
					tiles[n++] = t;
			}
	}
	if (n == 0)
		tiles[n++] = 0;
	return n;
}

/* The high bits a chain_id value selects at an end: zero-extended or
 * truncated to the end's cb - addr_bits bits. */
static uint64_t selected_tile(const MemInfo *mi, const EndCheck *x, uint64_t chain_id)
{
	return chain_id & mask(mi->counter_bits - x->addr_bits);
}

/* Runs the model with regs (chain_id set to tile) over the stream; returns -1
 * if every event happens as requested, else the first event that does not. */
static long run_model(Solve *sv, const uint32_t *regs, EndCheck *ec, int nec)
{
	const MemInfo *mi = sv->tg.mi;
	const MemStream *s = sv->s;
	int ctrl = (int)(sv->tg.c - mi->ctrls);
	int delay = 0;
	for (int j = 0; j < nec; j++)
		delay = ec[j].delay > delay ? ec[j].delay : delay;
	int64_t end = s->cycle[s->n - 1] + delay + 2;
	long fired = 0, *next = xcalloc((size_t)nec + 1, sizeof(long));
	uint64_t *in = xcalloc((size_t)mi->nins + 1, sizeof(uint64_t));
	MemModel *m = memmodel_new(mi);
	memmodel_config(m, regs);
	memmodel_flush(m);
	long bad = -1;
	for (int64_t t = 0; t < end && bad < 0; t++) {
		/* long quiet stretches pass at once */
		int64_t target = fired < s->n ? s->cycle[fired] : end;
		if (target > t + 1)
			t += (int64_t)memmodel_skip(m, (uint64_t)(target - t));
		if (t >= end)
			break;
		const MemCycle *cy = memmodel_step(m, in, NULL, NULL);
		int want = fired < s->n && s->cycle[fired] == t;
		if (!!cy->fire[ctrl] != want || cy->t != ((uint64_t)t & mask(mi->counter_bits))) {
			bad = fired < s->n ? fired : s->n - 1;
			break;
		}
		fired += want;
		for (int j = 0; j < nec && bad < 0; j++) {
			EndCheck *x = &ec[j];
			const MemPortOp *op = &cy->ports[x->unit][x->port];
			while (next[j] < s->n && !hits(sv, x, next[j]))
				next[j]++;
			int due = next[j] < s->n && s->cycle[next[j]] + x->delay == t;
			int did = x->write ? op->wen : op->ren;
			if (did != due ||
			    (due && op->addr != (address_of(sv, x, next[j]) & mask(x->addr_bits))))
				bad = next[j] < s->n ? next[j] : s->n - 1;
			next[j] += due;
		}
	}
	memmodel_free(m);
	free(in);
	free(next);
	return bad;
}

/* Confirms sv->regs over the whole stream: -1, or the first event performed
 * differently. */
static long confirm(Solve *sv)
{
	const MemInfo *mi = sv->tg.mi;
	EndCheck ec[2];
	int nec = end_checks(sv, ec);
	uint64_t tiles[MAX_CHAIN_RUNS];
	int nt = chain_tiles(sv, ec, nec, tiles);
	uint32_t *regs = xcalloc((size_t)mi->nregs + 1, sizeof(uint32_t));
	long bad = -1;
	for (int r = 0; r < nt && bad < 0; r++) {
		memcpy(regs, sv->regs, (size_t)mi->nregs * sizeof(uint32_t));
		regs[mi->tile_en] = 1;
		if (mi->chain_id >= 0)
			regs[mi->chain_id] = (uint32_t)tiles[r];
		for (int j = 0; j < nec; j++)
			ec[j].tile = selected_tile(mi, &ec[j], tiles[r]);
		bad = run_model(sv, regs, ec, nec);
	}
	free(regs);
	return bad;
}

/* ---- the loop ---- */

static int solve_loop(Solve *sv)
{
	int ok = 0;
	initial_work(sv);
	for (int round = 0; round < MAX_ROUNDS; round++) {
		if (!ask_z3(sv))
			break;
		long bad = confirm(sv);
		if (bad < 0) {
			ok = 1;
			break;
		}
		if (in_work(sv, bad)) {
			char ev[160];
			describe_event(sv, bad, ev, sizeof ev);
			fail_at(sv, bad,
				"the functional model does not perform event %ld (%s) as the .smt2 model "
				"solved for it (the collateral disagrees with itself)",
				bad, ev);
			break;
		}
		vec_push(&sv->work, bad);
		if (round == MAX_ROUNDS - 1)
			fail(sv, "no configuration confirmed after %d Z3 calls", MAX_ROUNDS);
	}
	return ok;
}

/* The controller's registers of the solution into out (others untouched). */
static void write_regs(const Solve *sv, uint32_t *out)
{
	const MemInfo *mi = sv->tg.mi;
	const MemCtrl *c = sv->tg.c;
	out[c->en] = 1;
	for (int l = 0; l < mi->dims; l++)
		out[c->max[l]] = sv->regs[c->max[l]];
	for (int k = 0; k < sv->tg.ncomp; k++) {
		out[sv->tg.gen[k]->start] = sv->regs[sv->tg.gen[k]->start];
		for (int l = 0; l < mi->dims; l++)
			out[sv->tg.gen[k]->step[l]] = sv->regs[sv->tg.gen[k]->step[l]];
	}
}

int memsolver_stream(MemSolver *ms, int ctrl, const MemStream *s, uint32_t *regs, char *why, size_t whylen,
		     MemSolveStats *st)
{
	const MemInfo *mi = ms->mi;
	double t0 = util_now();
	Solve sv;
	memset(&sv, 0, sizeof sv);
	sv.ms = ms;
	sv.s = s;
	sv.why = why;
	sv.whylen = whylen;
	sv.st.event = -1;
	if (why && whylen)
		why[0] = '\0';
	int ok = setup_target(&sv, mi, ctrl, s->naddr);
	if (ok && s->n < 1)
		ok = fail(&sv, "the stream is empty");
	ok = ok && check_cycles(&sv) && check_addresses(&sv) && find_nest(&sv);
	sv.st.levels = sv.nest.levels;
	for (int l = 0; l < sv.nest.levels && l < MEM_MAX_DIMS; l++)
		sv.st.extent[l] = sv.nest.extent[l];
	if (ok) {
		sv.regs = xcalloc((size_t)mi->nregs + 1, sizeof(uint32_t));
		ok = solve_loop(&sv);
		if (ok)
			write_regs(&sv, regs);
		free(sv.regs);
	}
	vec_free(&sv.work);
	sv.st.seconds = util_now() - t0;
	if (st)
		*st = sv.st;
	return ok;
}

int memsolve_stream(const MemInfo *mi, const char *smt2, int ctrl, const MemStream *s, uint32_t *regs,
		    char *why, size_t whylen, MemSolveStats *st)
{
	MemSolver *ms = memsolver_new(mi, smt2);
	int ok = memsolver_stream(ms, ctrl, s, regs, why, whylen, st);
	memsolver_free(ms);
	return ok;
}

/* ---- affine requests ---- */

/* Checks the request's shape; its number of points, or `cap + 1` if it has
 * more than cap (0 after reporting a malformed shape). */
/* Does |offset| + Σ |stride| (extent - 1) over the domain of d stay below
 * 2^62, so that expanding m cannot overflow? */
static int map_fits(const AffineMap *m, const AffineMap *d)
{
	const int64_t lim = INT64_C(1) << 62;
	int64_t sum = m->offset < 0 ? -m->offset : m->offset;
	if (m->offset <= -lim || sum >= lim)
		return 0;
	for (int l = 0; l < d->dims; l++) {
		int64_t st = m->stride[l], term;
		if (st <= -lim || st >= lim || __builtin_mul_overflow(st < 0 ? -st : st, d->extent[l] - 1, &term) ||
		    __builtin_add_overflow(sum, term, &sum) || sum >= lim)
			return 0;
	}
	return 1;
}

static long domain_points(Solve *sv, const MemAffineReq *r, long cap)
{
	const AffineMap *sm = &r->sched;
	if (r->naddr < 0 || r->naddr > 2)
		return fail(sv, "%d address maps (at most 2)", r->naddr);
	if (sm->dims < 0 || sm->dims > AFFINE_MAX_DIMS)
		return fail(sv, "%d loop levels (at most %d)", sm->dims, AFFINE_MAX_DIMS);
	long n = 1;
	for (int l = 0; l < sm->dims; l++) {
		if (sm->extent[l] < 1)
			return fail(sv, "level %d has extent %" PRId64 " (at least 1)", l, sm->extent[l]);
		if (sm->extent[l] > cap || n > cap / sm->extent[l])
			return cap + 1;
		n *= (long)sm->extent[l];
	}
	for (int a = -1; a < r->naddr; a++)
		if (!map_fits(a < 0 ? sm : &r->addr[a], sm))
			return fail(sv, "the %s of the request reaches values beyond 2^62",
				    a < 0 ? "schedule" : a == 0 ? "first address map" : "second address map");
	return n;
}

static void expand(const MemAffineReq *r, long n, MemStream *out)
{
	const AffineMap *sm = &r->sched;
	out->n = n;
	out->naddr = r->naddr;
	out->cycle = xcalloc((size_t)n, sizeof(int64_t));
	for (int a = 0; a < r->naddr; a++)
		out->addr[a] = xcalloc((size_t)n, sizeof(int64_t));
	AffineMap am[2];
	for (int a = 0; a < r->naddr; a++) {
		am[a] = r->addr[a];
		am[a].dims = sm->dims;
		memcpy(am[a].extent, sm->extent, sizeof am[a].extent);
	}
	AffineIter it;
	affine_iter_start(&it, sm);
	long i = 0;
	do {
		out->cycle[i] = it.value;
		for (int a = 0; a < r->naddr; a++)
			out->addr[a][i] = affine_at(&am[a], it.idx);
		i++;
	} while (affine_iter_next(&it));
}

int memsolve_expand(const MemAffineReq *r, long max_events, MemStream *out, char *why, size_t whylen)
{
	Solve sv;
	memset(&sv, 0, sizeof sv);
	sv.why = why;
	sv.whylen = whylen;
	memset(out, 0, sizeof *out);
	long n = domain_points(&sv, r, max_events);
	if (n == 0)
		return 0;
	if (n > max_events)
		return fail(&sv, "the domain has more than %ld points", max_events);
	expand(r, n, out);
	return 1;
}

void memstream_free(MemStream *s)
{
	if (!s)
		return;
	free(s->cycle);
	free(s->addr[0]);
	free(s->addr[1]);
	memset(s, 0, sizeof *s);
}

int memsolve_affine(const MemInfo *mi, const char *smt2, int ctrl, const MemAffineReq *r, uint32_t *regs,
		    char *why, size_t whylen, MemSolveStats *st)
{
	double t0 = util_now();
	Solve sv;
	memset(&sv, 0, sizeof sv);
	sv.why = why;
	sv.whylen = whylen;
	sv.st.event = -1;
	if (why && whylen)
		why[0] = '\0';
	MemStream s;
	memset(&s, 0, sizeof s);
	int cb = mi->counter_bits;
	long most = cb < 24 ? 1L << cb : MAX_EXPAND;
	long n = domain_points(&sv, r, most);
	int ok = 0;
	if (n > most && most == MAX_EXPAND)
		fail(&sv, "the domain has more than %ld points, more than the solver expands", most);
	else if (n > most)
		fail(&sv,
		     "the domain has more than %ld points: more operations than a %d-bit schedule "
		     "counter has cycles",
		     most, cb);
	else if (n > 0) {
		expand(r, n, &s);
		ok = memsolve_stream(mi, smt2, ctrl, &s, regs, why, whylen, &sv.st);
	}
	memstream_free(&s);
	sv.st.seconds = util_now() - t0;
	if (st)
		*st = sv.st;
	return ok;
}
