/* test_lake.c - unit tests of Lake's SMT-LIB model of the controllers
 * (lake_smt.c) and of the configuration solver (collateral/memsolve.c) on the
 * shipped specs pub, dp and regfile.
 *
 * Covers: `<mem>.smt2` loads with Z3's SMT-LIB parser and evaluator, declares
 * every register, is deterministic, and agrees with the functional model
 * (every firing's cycle and every port operation's address, for random
 * configurations of every controller, and a wrong value is refused); at least
 * 50 generated affine streams (1 to 6 loop levels on pub and dp, 1 to 4 on
 * regfile with 8-bit counters; random extents, strides and starts; through
 * both the stream and the affine entry points) are solved, and running the
 * functional model with the answer reproduces each stream exactly; the
 * downsample-by-2 of Fig. 5(c) of the Unified Buffer paper gives its strides
 * and deltas; a 64x64 delay-64 line buffer (4,096 events per port) is solved,
 * timed and run end to end; requests the hardware cannot serve are refused
 * with their reason (not affine, too many levels, counter overflow, address
 * ranges, order, shape); a corrupted `.smt2` is caught by the confirmation.
 *
 * The table look-up (lake/COLLATERAL.md, "Table look-up") in the functional
 * model: its collateral (registers, feature, roles, info.yaml round trip);
 * loads through lookup_wr keep the other words of a 4-word row (pub) and the
 * last load wins, memmodel_config loads nothing; its read loses to an edge's
 * at the same port (the edge's operation, nothing delivered, a dropped
 * request); an edge delivering to the output comes first (a chain miss then
 * passes the chain inputs); latencies 0, 1 and 3; a chained tile reads its
 * own storage whatever chain_id is; memmodel_skip never skips a running
 * look-up; the solver never writes lookup_en or lookup_wr.
 *
 * Each test is a function run by main; CHECK records a pass or a failure and
 * prints failures as "FAIL test: message". The last line is
 * "lake: N passed, M failed"; the exit status is 1 if anything failed. */
#define _POSIX_C_SOURCE 200809L

#include <inttypes.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <z3.h>

#include "../../common/tests/check.h"
#include "../../collateral/affine.h"
#include "../../collateral/memmodel.h"
#include "../../collateral/memsolve.h"
#include "../../common/rng.h"
#include "../../common/util.h"
#include "../lake.h"


#if defined(__SANITIZE_ADDRESS__)
#define SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define SANITIZED 1
#endif
#endif
#ifndef SANITIZED
#define SANITIZED 0
#endif

/* ---- the specs ---- */

typedef struct Spec {
	MemInfo *mi;
	char *smt2;
} Spec;

static const char *const spec_names[] = { "pub", "dp", "regfile" };

static char *smt2_text(const MemInfo *mi)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	lake_smt2(mi, f);
	fclose(f);
	return text;
}

/* Loads lake/specs/<name>.yaml; exits if it is missing (nothing else can run). */
static Spec spec_load(const char *name)
{
	char path[128];
	snprintf(path, sizeof path, "lake/specs/%s.yaml", name);
	Diags *d = diags_new(stderr);
	LakeFile *f = lake_load(path, d);
	diags_free(d);
	if (!f) {
		fprintf(stderr, "test_lake: cannot load %s (run from the repository root)\n", path);
		exit(1);
	}
	Spec s = { lake_info(f->spec), NULL };
	lake_file_free(f);
	s.smt2 = smt2_text(s.mi);
	return s;
}

/* pub with `share: false`: every storage-to-storage edge gets a read-side
 * and a write-side controller (e2r, e2w, ...). */
static Spec spec_unshared(void)
{
	char *text = util_read_file("lake/specs/pub.yaml", NULL);
	char *at = text ? strstr(text, "share: true") : NULL;
	if (!at) {
		fprintf(stderr, "test_lake: lake/specs/pub.yaml has no 'share: true'\n");
		exit(1);
	}
	char *unshared = xasprintf("%.*sshare: false%s", (int)(at - text), text, at + strlen("share: true"));
	Diags *d = diags_new(stderr);
	LakeFile *f = lake_load_string("pub_unshared.yaml", unshared, d);
	diags_free(d);
	free(unshared);
	free(text);
	if (!f)
		exit(1);
	Spec s = { lake_info(f->spec), NULL };
	lake_file_free(f);
	s.smt2 = smt2_text(s.mi);
	return s;
}

static void spec_free(Spec *s)
{
	free(s->smt2);
	meminfo_free(s->mi);
}

static int ctrl_find(const MemInfo *mi, const char *name)
{
	for (int c = 0; c < mi->nctrls; c++)
		if (strcmp(mi->ctrls[c].name, name) == 0)
			return c;
	return -1;
}

static int naddr_of(const MemCtrl *c)
{
	return (c->src != NULL) + (c->dst != NULL);
}

static uint64_t mask(int w)
{
	return w >= 64 ? ~0ULL : (1ULL << w) - 1;
}

/* ---- streams ---- */

static MemStream stream_new(long n, int naddr)
{
	MemStream s = { n, xcalloc((size_t)n + 1, sizeof(int64_t)), naddr, { NULL, NULL } };
	for (int a = 0; a < naddr; a++)
		s.addr[a] = xcalloc((size_t)n + 1, sizeof(int64_t));
	return s;
}

/* A storage end of a controller as the model shows it. */
typedef struct End {
	int unit, port, write, delay, col, chained, addr_bits;
} End;

static int ends_of(const MemInfo *mi, int c, End *ends)
{
	const MemCtrl *ct = &mi->ctrls[c];
	const MemEdgeInfo *e = &mi->edges[ct->edge];
	int n = 0;
	if (ct->side != MEM_SIDE_WRITE && e->src.unit >= 0)
		ends[n++] = (End){ e->src.unit, e->src.port, 0, 0, ct->src ? 0 : -1,
				   mi->units[e->src.unit].chained,
				   mi->units[e->src.unit].ports[e->src.port].addr_bits };
	if (ct->side != MEM_SIDE_READ && e->dst.unit >= 0)
		ends[n++] = (End){ e->dst.unit, e->dst.port, 1, ct->side == MEM_SIDE_BOTH ? e->latency : 0,
				   ct->dst ? (ct->src ? 1 : 0) : -1, mi->units[e->dst.unit].chained,
				   mi->units[e->dst.unit].ports[e->dst.port].addr_bits };
	return n;
}

/* Runs the functional model with the controller's registers (tile_en 1,
 * chain_id 0) and compares its firings and its ends' port operations with
 * the stream; 1 if they are the same, else 0 with the first difference. */
static int model_reproduces(const MemInfo *mi, int c, const uint32_t *solved, const MemStream *s, char *msg,
			    size_t len)
{
	uint32_t *regs = xcalloc((size_t)mi->nregs, sizeof *regs);
	memcpy(regs, solved, (size_t)mi->nregs * sizeof *regs);
	regs[mi->tile_en] = 1;
	End ends[2];
	int nends = ends_of(mi, c, ends);
	long next[2] = { 0, 0 }, fired = 0;
	MemModel *m = memmodel_new(mi);
	memmodel_config(m, regs);
	memmodel_flush(m);
	uint64_t in[4] = { 0 };
	int64_t last = s->cycle[s->n - 1] + 20;
	int ok = 1;
	snprintf(msg, len, "ok");
	for (int64_t t = 0; t <= last && ok; t++) {
		const MemCycle *cy = memmodel_step(m, in, NULL, NULL);
		if (cy->fire[c]) {
			if (fired >= s->n || s->cycle[fired] != t)
				ok = 0, snprintf(msg, len, "fires at cycle %" PRId64 " (firing %ld)", t,
						 fired);
			fired++;
		}
		for (int j = 0; j < nends && ok; j++) {
			const End *x = &ends[j];
			const MemPortOp *op = &cy->ports[x->unit][x->port];
			int did = x->write ? op->wen : op->ren;
			/* the next event this end performs in tile 0 */
			while (next[j] < s->n && x->chained && x->col >= 0 &&
			       ((uint64_t)s->addr[x->col][next[j]] >> x->addr_bits) != 0)
				next[j]++;
			int due = next[j] < s->n && s->cycle[next[j]] + x->delay == t;
			uint64_t want = 0;
			if (due && x->col >= 0)
				want = (uint64_t)s->addr[x->col][next[j]] & mask(x->addr_bits);
			if (did != due || (due && op->addr != want))
				ok = 0, snprintf(msg, len,
						 "cycle %" PRId64 ": %s at port %d.%d (address %u), want %s "
						 "(address %" PRIu64 ")", t, did ? "an operation" : "nothing",
						 x->unit, x->port, op->addr, due ? "an operation" : "nothing",
						 want);
			next[j] += due;
		}
	}
	if (ok && fired != s->n)
		ok = 0, snprintf(msg, len, "%ld firings, want %ld", fired, s->n);
	memmodel_free(m);
	free(regs);
	return ok;
}

/* ---- <mem>.smt2 loads ---- */

static void test_smt2_loads(void)
{
	for (int i = 0; i < COUNT(spec_names); i++) {
		Spec sp = spec_load(spec_names[i]);
		Z3_config cfg = Z3_mk_config();
		Z3_context ctx = Z3_mk_context_rc(cfg);
		Z3_del_config(cfg);
		Z3_set_error_handler(ctx, NULL);
		Z3_ast_vector v = Z3_parse_smtlib2_string(ctx, sp.smt2, 0, NULL, NULL, 0, NULL, NULL);
		CHECK(Z3_get_error_code(ctx) == Z3_OK, "%s: Z3_parse_smtlib2_string: %s", spec_names[i],
		      Z3_get_error_msg(ctx, Z3_get_error_code(ctx)));
		if (Z3_get_error_code(ctx) == Z3_OK) {
			Z3_ast_vector_inc_ref(ctx, v);
			CHECK(Z3_ast_vector_size(ctx, v) == 0, "%s: the model asserts nothing by itself",
			      spec_names[i]);
			Z3_ast_vector_dec_ref(ctx, v);
		}
		const char *out = Z3_eval_smtlib2_string(ctx, sp.smt2);
		CHECK(Z3_get_error_code(ctx) == Z3_OK && out && strstr(out, "error") == NULL,
		      "%s: Z3_eval_smtlib2_string: %s", spec_names[i], out ? out : "(null)");
		out = Z3_eval_smtlib2_string(ctx, "(check-sat)");
		CHECK(out && strncmp(out, "sat", 3) == 0, "%s: the declarations are satisfiable: %s",
		      spec_names[i], out ? out : "(null)");
		Z3_del_context(ctx);

		int decls = 0;
		for (const char *p = sp.smt2; (p = strstr(p, "(declare-const ")); p++)
			decls++;
		CHECK(decls == sp.mi->nregs, "%s: %d declare-const for %d registers", spec_names[i], decls,
		      sp.mi->nregs);
		for (int c = 0; c < sp.mi->nctrls; c++) {
			char fn[64];
			snprintf(fn, sizeof fn, "(define-fun %s_cycle_at ", sp.mi->ctrls[c].name);
			CHECK(strstr(sp.smt2, fn) != NULL, "%s: defines %s", spec_names[i], fn);
		}
		char *again = smt2_text(sp.mi);
		CHECK(strcmp(again, sp.smt2) == 0, "%s: the text is deterministic", spec_names[i]);
		free(again);
		spec_free(&sp);
	}
}

/* ---- <mem>.smt2 agrees with the functional model ---- */

/* Random registers for controller c: a schedule that increases, random
 * address strides; extents small enough for the counters. */
static void random_config(const MemInfo *mi, int c, Rng *rng, uint32_t *regs)
{
	const MemCtrl *ct = &mi->ctrls[c];
	int cb = mi->counter_bits;
	for (;;) {
		AffineMap sm = { mi->dims, { 0 }, { 0 }, (int64_t)rng_below(rng, 8) };
		int64_t span = 0;
		for (int l = 0; l < mi->dims; l++) {
			sm.extent[l] = 1 + (int64_t)rng_below(rng, l < 2 ? 5 : 2);
			sm.stride[l] = span + 1 + (int64_t)rng_below(rng, 3);
			span += sm.stride[l] * (sm.extent[l] - 1);
		}
		if (sm.offset + span + 4 >= (int64_t)1 << cb)
			continue;
		memset(regs, 0, (size_t)mi->nregs * sizeof *regs);
		regs[mi->tile_en] = 1;
		regs[ct->en] = 1;
		for (int l = 0; l < mi->dims; l++)
			regs[ct->max[l]] = (uint32_t)(sm.extent[l] - 1);
		const MemGen *g[3] = { &ct->sched, ct->src ? &ct->src->gen : NULL,
				       ct->dst ? &ct->dst->gen : NULL };
		for (int k = 0; k < 3; k++) {
			if (!g[k])
				continue;
			AffineMap m = sm;
			if (k > 0) {
				m.offset = (int64_t)rng_bits(rng, g[k]->width);
				for (int l = 0; l < mi->dims; l++)
					m.stride[l] = (int64_t)rng_bits(rng, g[k]->width);
			}
			int64_t step[AFFINE_MAX_DIMS];
			if (mi->affine == MEM_RECURRENCE)
				affine_deltas(&m, step);
			else
				memcpy(step, m.stride, sizeof step);
			regs[g[k]->start] = (uint32_t)((uint64_t)m.offset & mask(g[k]->width));
			for (int l = 0; l < mi->dims; l++)
				regs[g[k]->step[l]] = (uint32_t)((uint64_t)step[l] & mask(g[k]->width));
		}
		return;
	}
}

/* sat / unsat of the .smt2 text plus extra assertions. */
static Z3_lbool z3_check(const char *smt2, const char *extra)
{
	Z3_config cfg = Z3_mk_config();
	Z3_context ctx = Z3_mk_context_rc(cfg);
	Z3_del_config(cfg);
	Z3_set_error_handler(ctx, NULL);
	char *text = xasprintf("%s%s", smt2, extra);
	Z3_ast_vector v = Z3_parse_smtlib2_string(ctx, text, 0, NULL, NULL, 0, NULL, NULL);
	free(text);
	Z3_lbool r = Z3_L_UNDEF;
	if (Z3_get_error_code(ctx) == Z3_OK) {
		Z3_ast_vector_inc_ref(ctx, v);
		Z3_solver s = Z3_mk_solver(ctx);
		Z3_solver_inc_ref(ctx, s);
		for (unsigned i = 0; i < Z3_ast_vector_size(ctx, v); i++)
			Z3_solver_assert(ctx, s, Z3_ast_vector_get(ctx, v, i));
		r = Z3_solver_check(ctx, s);
		Z3_solver_dec_ref(ctx, s);
		Z3_ast_vector_dec_ref(ctx, v);
	}
	Z3_del_context(ctx);
	return r;
}

/* For a random configuration of controller c: the registers, and per firing
 * n of the model "(C_cycle_at n) = t" and the low address bits of each port
 * operation; sat, and unsat once one value is off by one. */
static void smt2_vs_model(const Spec *sp, int c, Rng *rng)
{
	const MemInfo *mi = sp->mi;
	const MemCtrl *ct = &mi->ctrls[c];
	int wn = mi->dims * mi->counter_bits + 1, cb = mi->counter_bits;
	uint32_t *regs = xcalloc((size_t)mi->nregs, sizeof *regs);
	random_config(mi, c, rng, regs);
	StrBuf b = { 0 };
	for (int i = 0; i < mi->nregs; i++)
		sb_printf(&b, "(assert (= %s (_ bv%u %d)))\n", mi->regs[i].name, regs[i], mi->regs[i].width);
	End ends[2];
	int nends = ends_of(mi, c, ends);
	const char *fn[2];
	for (int j = 0; j < nends; j++)
		fn[j] = ends[j].col < 0 ? NULL : ends[j].write ? "dst_addr" : "src_addr";
	MemModel *m = memmodel_new(mi);
	memmodel_config(m, regs);
	memmodel_flush(m);
	uint64_t in[4] = { 0 };
	long fired = 0, ops[2] = { 0, 0 }, after = 0;
	for (long t = 0; t < (1L << cb) && after < 20; t++) {
		after += memmodel_done(m, c);
		const MemCycle *cy = memmodel_step(m, in, NULL, NULL);
		if (cy->fire[c]) {
			sb_printf(&b, "(assert (= (%s_cycle_at (_ bv%ld %d)) (_ bv%ld %d)))\n", ct->name,
				   fired, wn, t, cb);
			fired++;
		}
		/* the operations of an end come in firing order; with chaining only
		 * tile-0 addresses happen, so they are checked without chaining only */
		for (int j = 0; j < nends; j++) {
			const MemPortOp *op = &cy->ports[ends[j].unit][ends[j].port];
			if (!(ends[j].write ? op->wen : op->ren) || ends[j].chained)
				continue;
			if (fn[j] && ends[j].addr_bits > 0)
				sb_printf(&b, "(assert (= ((_ extract %d 0) (%s_%s_at (_ bv%ld %d))) "
					   "(_ bv%u %d)))\n", ends[j].addr_bits - 1, ct->name, fn[j],
					   ops[j], wn, op->addr, ends[j].addr_bits);
			ops[j]++;
		}
	}
	memmodel_free(m);
	long want = 1;
	for (int l = 0; l < mi->dims; l++)
		want *= (long)regs[ct->max[l]] + 1;
	sb_printf(&b, "(assert (= %s_ops (_ bv%ld %d)))\n", ct->name, want, wn);
	CHECK(fired == want, "%s %s: the model fires %ld times, the domain has %ld points", mi->name,
	      ct->name, fired, want);
	Z3_lbool r = z3_check(sp->smt2, b.s);
	CHECK(r == Z3_L_TRUE, "%s %s: the .smt2 agrees with the model on %ld firings (Z3 says %d)", mi->name,
	      ct->name, fired, (int)r);
	/* the first firing one cycle later must be refused */
	char *wrong = xasprintf("(assert (= (%s_cycle_at (_ bv0 %d)) (_ bv%u %d)))\n", ct->name, wn,
				(unsigned)((regs[ct->sched.start] + 1) & mask(cb)), cb);
	StrBuf b2 = { 0 };
	sb_printf(&b2, "%s%s", b.s, wrong);
	CHECK(z3_check(sp->smt2, b2.s) == Z3_L_FALSE, "%s %s: a wrong cycle is refused", mi->name, ct->name);
	free(wrong);
	free(b2.s);
	free(b.s);
	free(regs);
}

static void test_smt2_matches_model(void)
{
	Rng rng;
	rng_seed(&rng, 7);
	for (int i = 0; i < COUNT(spec_names); i++) {
		Spec sp = spec_load(spec_names[i]);
		for (int c = 0; c < sp.mi->nctrls; c++)
			smt2_vs_model(&sp, c, &rng);
		spec_free(&sp);
	}
}

/* ---- generated affine streams ---- */

/* A random affine stream for controller c with `levels` loop levels; the
 * raw (unreduced) maps in r, the values the hardware produces in s. */
static void random_stream(const MemInfo *mi, int c, int levels, Rng *rng, MemAffineReq *r, MemStream *s)
{
	const MemCtrl *ct = &mi->ctrls[c];
	int cb = mi->counter_bits;
	int64_t budget = cb <= 8 ? 120 : 3000;
	const MemAddrGen *ag[2];
	int naddr = 0;
	if (ct->src)
		ag[naddr++] = ct->src;
	if (ct->dst)
		ag[naddr++] = ct->dst;
	for (;;) {
		memset(r, 0, sizeof *r);
		AffineMap *sm = &r->sched;
		sm->dims = levels;
		sm->offset = (int64_t)rng_below(rng, 16);
		int64_t span = 0, points = 1;
		for (int l = 0; l < levels; l++) {
			int64_t most = levels <= 2 ? 60 : levels <= 4 ? 7 : 4;
			sm->extent[l] = 2 + (int64_t)rng_below(rng, (uint64_t)most - 1);
			sm->stride[l] = span + 1 + (int64_t)rng_below(rng, 3);
			span += sm->stride[l] * (sm->extent[l] - 1);
			points *= sm->extent[l];
		}
		if (points > budget || sm->offset + span >= (int64_t)1 << cb)
			continue;
		r->naddr = naddr;
		for (int a = 0; a < naddr; a++) {
			const MemUnitInfo *u = &mi->units[ag[a]->end.unit];
			int ab = u->ports[ag[a]->end.port].addr_bits;
			/* small non-negative strides stay in range without wrapping */
			int small = rng_below(rng, 3) == 0;
			AffineMap *am = &r->addr[a];
			am->dims = levels;
			memcpy(am->extent, sm->extent, sizeof am->extent);
			am->offset = small ? 0 : (int64_t)rng_bits(rng, ab);
			for (int l = 0; l < levels; l++)
				am->stride[l] = small ? (int64_t)rng_below(rng, 3)
						      : (int64_t)rng_bits(rng, ab + 1) - (1 << ab);
		}
		break;
	}
	MemStream raw;
	char why[256];
	memsolve_expand(r, 1L << 20, &raw, why, sizeof why);
	*s = raw;
	/* the values the generators produce: modulo their widths (on a chained
	 * unit the high bits then pick tiles of a chain) */
	for (int a = 0; a < naddr; a++)
		for (long i = 0; i < s->n; i++)
			s->addr[a][i] = (int64_t)((uint64_t)s->addr[a][i] & mask(ag[a]->gen.width));
}

static int raw_in_range(const MemInfo *mi, int c, const MemAffineReq *r)
{
	const MemCtrl *ct = &mi->ctrls[c];
	const MemAddrGen *ag[2] = { ct->src ? ct->src : ct->dst, ct->src ? ct->dst : NULL };
	MemStream raw;
	char why[256];
	memsolve_expand(r, 1L << 20, &raw, why, sizeof why);
	int ok = 1;
	for (int a = 0; a < r->naddr; a++)
		for (long i = 0; i < raw.n; i++)
			ok &= raw.addr[a][i] >= 0 && (uint64_t)raw.addr[a][i] <= mask(ag[a]->gen.width);
	memstream_free(&raw);
	return ok;
}

static void test_solve_generated(void)
{
	Spec sp[3];
	for (int i = 0; i < 3; i++)
		sp[i] = spec_load(spec_names[i]);
	Rng rng;
	rng_seed(&rng, 2024);
	int solved = 0, via_affine = 0, levels_seen[3][7] = { { 0 } };
	double worst = 0;
	for (int k = 0; k < 66; k++) {
		const Spec *s = &sp[k % 3];
		const MemInfo *mi = s->mi;
		int levels = 1 + (k / 3) % mi->dims;
		int c = (int)rng_below(&rng, (uint64_t)mi->nctrls);
		MemAffineReq r;
		MemStream st;
		random_stream(mi, c, levels, &rng, &r, &st);
		uint32_t *regs = xcalloc((size_t)mi->nregs, sizeof *regs);
		char why[512], msg[256];
		MemSolveStats stats;
		int use_affine = raw_in_range(mi, c, &r);
		int ok = use_affine ? memsolve_affine(mi, s->smt2, c, &r, regs, why, sizeof why, &stats)
				    : memsolve_stream(mi, s->smt2, c, &st, regs, why, sizeof why, &stats);
		if (CHECK(ok, "stream %d (%s %s, %d levels, %ld events): %s", k, mi->name, mi->ctrls[c].name,
			  levels, st.n, why)) {
			solved++;
			via_affine += use_affine;
			levels_seen[k % 3][levels]++;
			worst = stats.seconds > worst ? stats.seconds : worst;
			CHECK(model_reproduces(mi, c, regs, &st, msg, sizeof msg),
			      "stream %d (%s %s, %d levels): %s", k, mi->name, mi->ctrls[c].name, levels,
			      msg);
			CHECK(stats.levels <= levels && regs[mi->ctrls[c].en] == 1,
			      "stream %d: nest of %d levels for %d requested", k, stats.levels, levels);
		}
		memstream_free(&st);
		free(regs);
	}
	CHECK(solved >= 50, "%d generated streams solved", solved);
	CHECK(via_affine >= 5 && solved - via_affine >= 5, "%d through the affine entry, %d as streams",
	      via_affine, solved - via_affine);
	for (int i = 0; i < 3; i++)
		for (int l = 1; l <= sp[i].mi->dims; l++)
			CHECK(levels_seen[i][l] > 0, "%s: a %d-level stream", spec_names[i], l);
	printf("  generated streams: %d solved (%d affine), slowest %.3f s\n", solved, via_affine, worst);
	for (int i = 0; i < 3; i++)
		spec_free(&sp[i]);
}

/* The same request twice gives the same registers. */
static void test_solve_deterministic(void)
{
	Spec sp = spec_load("pub");
	Rng rng;
	rng_seed(&rng, 99);
	int c = ctrl_find(sp.mi, "e4");
	MemAffineReq r;
	MemStream st;
	random_stream(sp.mi, c, 3, &rng, &r, &st);
	uint32_t *a = xcalloc((size_t)sp.mi->nregs, sizeof *a), *b = xcalloc((size_t)sp.mi->nregs, sizeof *b);
	char why[512];
	int ok = memsolve_stream(sp.mi, sp.smt2, c, &st, a, why, sizeof why, NULL) &&
		 memsolve_stream(sp.mi, sp.smt2, c, &st, b, why, sizeof why, NULL);
	CHECK(ok && memcmp(a, b, (size_t)sp.mi->nregs * sizeof *a) == 0, "identical registers: %s", why);
	memstream_free(&st);
	free(a);
	free(b);
	spec_free(&sp);
}

/* Split controllers (share: false): the read side reads at its own cycles,
 * the write side writes at its own; the .smt2 agrees with the model on them
 * and random streams of each side are solved and reproduced. */
static void test_split_sides(void)
{
	Spec sp = spec_unshared();
	const MemInfo *mi = sp.mi;
	Rng rng;
	rng_seed(&rng, 31);
	int sides[3] = { 0, 0, 0 };
	for (int c = 0; c < mi->nctrls; c++) {
		smt2_vs_model(&sp, c, &rng);
		for (int k = 0; k < 2; k++) {
			MemAffineReq r;
			MemStream st;
			random_stream(mi, c, 1 + (int)rng_below(&rng, 4), &rng, &r, &st);
			uint32_t *regs = xcalloc((size_t)mi->nregs, sizeof *regs);
			char why[512], msg[256];
			int ok = memsolve_stream(mi, sp.smt2, c, &st, regs, why, sizeof why, NULL);
			CHECK(ok, "%s: %s", mi->ctrls[c].name, why);
			CHECK(ok && model_reproduces(mi, c, regs, &st, msg, sizeof msg), "%s replay: %s",
			      mi->ctrls[c].name, msg);
			sides[mi->ctrls[c].side] += ok;
			memstream_free(&st);
			free(regs);
		}
	}
	CHECK(sides[MEM_SIDE_READ] > 0 && sides[MEM_SIDE_WRITE] > 0 && sides[MEM_SIDE_BOTH] > 0,
	      "read sides %d, write sides %d, single controllers %d solved", sides[MEM_SIDE_READ],
	      sides[MEM_SIDE_WRITE], sides[MEM_SIDE_BOTH]);
	spec_free(&sp);
}

/* ---- the examples of the issue ---- */

/* Fig. 5(c) of the Unified Buffer paper: an 8x8 image read with x stepping by
 * 2 over 4 columns and y by 16 over 4 rows: strides 2, 16, deltas 2, 10. */
static void test_downsample(void)
{
	MemAffineReq r;
	memset(&r, 0, sizeof r);
	r.sched = (AffineMap){ 2, { 4, 4 }, { 1, 4 }, 10 };
	r.addr[0] = (AffineMap){ 2, { 4, 4 }, { 2, 16 }, 0 };
	r.addr[1] = (AffineMap){ 2, { 4, 4 }, { 0, 0 }, 0 };
	r.naddr = 2;
	char why[512], msg[256];
	MemStream st;
	memsolve_expand(&r, 100, &st, why, sizeof why);

	Spec dp = spec_load("dp");
	int c = ctrl_find(dp.mi, "e1");
	uint32_t *regs = xcalloc((size_t)dp.mi->nregs, sizeof *regs);
	r.naddr = 1;
	st.naddr = 1;
	int ok = memsolve_affine(dp.mi, dp.smt2, c, &r, regs, why, sizeof why, NULL);
	const MemCtrl *ct = &dp.mi->ctrls[c];
	CHECK(ok, "dp e1: %s", why);
	CHECK(regs[ct->max[0]] == 3 && regs[ct->max[1]] == 3 && regs[ct->src->gen.step[0]] == 2 &&
	      regs[ct->src->gen.step[1]] == 16 && regs[ct->sched.start] == 10,
	      "dp (multiply): extents-1 %u %u, strides %u %u, start %u", regs[ct->max[0]], regs[ct->max[1]],
	      regs[ct->src->gen.step[0]], regs[ct->src->gen.step[1]], regs[ct->sched.start]);
	CHECK(ok && model_reproduces(dp.mi, c, regs, &st, msg, sizeof msg), "dp e1 replay: %s", msg);
	free(regs);
	spec_free(&dp);

	Spec pub = spec_load("pub");
	c = ctrl_find(pub.mi, "e4");
	ct = &pub.mi->ctrls[c];
	regs = xcalloc((size_t)pub.mi->nregs, sizeof *regs);
	r.naddr = 2;
	st.naddr = 2;
	ok = memsolve_affine(pub.mi, pub.smt2, c, &r, regs, why, sizeof why, NULL);
	CHECK(ok, "pub e4: %s", why);
	CHECK(regs[ct->src->gen.step[0]] == 2 && regs[ct->src->gen.step[1]] == 10 &&
	      regs[ct->sched.step[0]] == 1 && regs[ct->sched.step[1]] == 1,
	      "pub (recurrence): address deltas %u %u (want 2 10), schedule deltas %u %u (want 1 1)",
	      regs[ct->src->gen.step[0]], regs[ct->src->gen.step[1]], regs[ct->sched.step[0]],
	      regs[ct->sched.step[1]]);
	CHECK(ok && model_reproduces(pub.mi, c, regs, &st, msg, sizeof msg), "pub e4 replay: %s", msg);
	free(regs);
	spec_free(&pub);
	memstream_free(&st);
}

/* A 64x64 image through a delay-64 line buffer on dp: the write port takes
 * pixel i at cycle i, the read port gives it back at cycle i + 64, both at
 * address i mod 128 (two rows). 4,096 events per port; both solved, timed,
 * then run together: out0 carries pixel i at cycle i + 64 + latency. */
static void test_line_buffer(void)
{
	Spec dp = spec_load("dp");
	const MemInfo *mi = dp.mi;
	int cw = ctrl_find(mi, "e0"), cr = ctrl_find(mi, "e1");
	MemStream w = stream_new(4096, 1), rd = stream_new(4096, 1);
	for (long i = 0; i < 4096; i++) {
		w.cycle[i] = i;
		rd.cycle[i] = i + 64;
		w.addr[0][i] = rd.addr[0][i] = i % 128;
	}
	uint32_t *regs = xcalloc((size_t)mi->nregs, sizeof *regs);
	char why[512], msg[256];
	MemSolveStats sw, sr;
	int ok = memsolve_stream(mi, dp.smt2, cw, &w, regs, why, sizeof why, &sw);
	CHECK(ok, "write side: %s", why);
	ok = ok && memsolve_stream(mi, dp.smt2, cr, &rd, regs, why, sizeof why, &sr);
	CHECK(ok, "read side: %s", why);
	if (ok) {
		printf("  line buffer 64x64, delay 64: 4096 events per port solved in %.4f s (write) and "
		       "%.4f s (read), %d and %d Z3 call(s)\n", sw.seconds, sr.seconds, sw.iterations,
		       sr.iterations);
		CHECK(SANITIZED || (sw.seconds < 0.5 && sr.seconds < 0.5),
		      "solve times %.3f s, %.3f s (< 0.5 s)", sw.seconds, sr.seconds);
		CHECK(sw.levels == 2 && sw.extent[0] == 128 && sw.extent[1] == 32,
		      "the nest is 128 x 32 (got %d levels)", sw.levels);
		CHECK(model_reproduces(mi, cw, regs, &w, msg, sizeof msg), "write side replay: %s", msg);
		CHECK(model_reproduces(mi, cr, regs, &rd, msg, sizeof msg), "read side replay: %s", msg);
		regs[mi->tile_en] = 1;
		MemModel *m = memmodel_new(mi);
		memmodel_config(m, regs);
		memmodel_flush(m);
		int lat = mi->edges[mi->ctrls[cr].edge].latency, bad = 0, seen = 0;
		uint64_t *pix = xcalloc(4096 + 200, sizeof *pix);
		for (long t = 0; t < 4096 + 64 + lat + 4; t++) {
			uint64_t in = (uint64_t)(t * 2654435761u) & mask(mi->word);
			pix[t] = in;
			const MemCycle *cy = memmodel_step(m, &in, NULL, NULL);
			long src = t - 64 - lat;
			int want = src >= 0 && src < 4096;
			seen += cy->out_valid[0];
			bad += cy->out_valid[0] != want || (want && cy->out[0] != pix[src]);
		}
		CHECK(bad == 0 && seen == 4096, "out0 is in0 delayed by 64 + %d: %d wrong cycles, %d words",
		      lat, bad, seen);
		free(pix);
		memmodel_free(m);
	}
	free(regs);
	memstream_free(&w);
	memstream_free(&rd);
	spec_free(&dp);
}

/* ---- requests the hardware cannot serve ---- */

typedef struct Bad {
	const char *spec, *ctrl;
	const char *events;     /* "cycle addr; cycle addr; ..." or NULL: use the affine request */
	int ext[7], sstride[7], astride[7], levels;
	const char *want;       /* a substring of the reason */
} Bad;

static const Bad bad_requests[] = {
	{ "dp", "e0", "0 0; 1 1; 2 2; 3 4", { 0 }, { 0 }, { 0 }, 0, "not an affine stream: event 3" },
	{ "dp", "e0", "0 0; 1 1; 2 2; 4 3; 5 4; 6 5; 8 7", { 0 }, { 0 }, { 0 }, 0,
	  "not an affine stream: event 6" },
	{ "regfile", "e0", "0 0; 1 5; 2 9", { 0 }, { 0 }, { 0 }, 0, "not an affine stream: event 2" },
	{ "regfile", "e0", NULL, { 2, 2, 2, 2, 2 }, { 1, 3, 7, 15, 31 }, { 1, 2, 4, 8, 16 }, 5,
	  "needs 5 loop levels (extents 2 x 2 x 2 x 2 x 2, innermost first); the controllers have 4" },
	{ "pub", "e0", NULL, { 2, 2, 2, 2, 2, 2, 2 }, { 1, 3, 7, 15, 31, 63, 127 },
	  { 0, 1, 0, 1, 0, 1, 0 }, 7, "needs 7 loop levels" },
	{ "regfile", "e0", NULL, { 300 }, { 1 }, { 0 }, 1, "more operations than a 8-bit schedule counter" },
	{ "regfile", "e0", NULL, { 200 }, { 2 }, { 0 }, 1,
	  "overflows the 8-bit schedule counter (at most 255)" },
	{ "dp", "e1", NULL, { 70000 }, { 1 }, { 0 }, 1, "more operations than a 16-bit schedule counter" },
	{ "regfile", "e0", "0 30; 1 31; 2 32", { 0 }, { 0 }, { 0 }, 0,
	  "event 2: address 32 is out of the range of regs.w (0 to 31)" },
	{ "pub", "e0", "0 3; 1 4", { 0 }, { 0 }, { 0 }, 0,
	  "address 4 is out of the range of agg0.w (0 to 3)" },
	{ "dp", "e0", "0 0; 1 65536", { 0 }, { 0 }, { 0 }, 0,
	  "chained 16-bit address generator (0 to 65535)" },
	{ "dp", "e0", "0 0; 1 -1", { 0 }, { 0 }, { 0 }, 0,
	  "event 1: address -1 of sram.w is out of the range" },
	{ "dp", "e0", "5 0; 5 1", { 0 }, { 0 }, { 0 }, 0, "event 1: cycle 5 does not come after cycle 5" },
	{ "dp", "e0", "-1 0", { 0 }, { 0 }, { 0 }, 0, "cycle -1 is negative" },
	{ "dp", "e0", "", { 0 }, { 0 }, { 0 }, 0, "the stream is empty" },
};

/* "c a; c a; ..." into a stream with naddr addresses (missing ones 0). */
static MemStream parse_events(const char *text, int naddr)
{
	long n = 0;
	for (const char *p = text; *p; p++)
		n += *p == ';';
	n += *text != '\0';
	MemStream s = stream_new(n, naddr);
	const char *p = text;
	for (long i = 0; i < n; i++) {
		char *end;
		s.cycle[i] = strtoll(p, &end, 10);
		int64_t a = strtoll(end, &end, 10);
		for (int k = 0; k < naddr; k++)
			s.addr[k][i] = a;
		p = strchr(end, ';') ? strchr(end, ';') + 1 : end;
	}
	return s;
}

static void test_impossible(void)
{
	for (int i = 0; i < COUNT(bad_requests); i++) {
		const Bad *b = &bad_requests[i];
		Spec sp = spec_load(b->spec);
		int c = ctrl_find(sp.mi, b->ctrl);
		uint32_t *regs = xcalloc((size_t)sp.mi->nregs, sizeof *regs);
		char why[512] = "";
		int ok;
		if (b->events) {
			MemStream s = parse_events(b->events, naddr_of(&sp.mi->ctrls[c]));
			ok = memsolve_stream(sp.mi, sp.smt2, c, &s, regs, why, sizeof why, NULL);
			memstream_free(&s);
		} else {
			MemAffineReq r;
			memset(&r, 0, sizeof r);
			r.sched.dims = b->levels;
			for (int l = 0; l < b->levels; l++) {
				r.sched.extent[l] = b->ext[l];
				r.sched.stride[l] = b->sstride[l];
			}
			r.naddr = naddr_of(&sp.mi->ctrls[c]);
			for (int a = 0; a < r.naddr; a++) {
				r.addr[a] = r.sched;
				for (int l = 0; l < b->levels; l++)
					r.addr[a].stride[l] = b->astride[l];
			}
			ok = memsolve_affine(sp.mi, sp.smt2, c, &r, regs, why, sizeof why, NULL);
		}
		CHECK(!ok && strncmp(why, "cannot be configured: ", 22) == 0 && strstr(why, b->want),
		      "request %d (%s %s): want '%s', got %s'%s'", i, b->spec, b->ctrl, b->want,
		      ok ? "success " : "", why);
		uint32_t zero = 0;
		int untouched = 1;
		for (int r = 0; r < sp.mi->nregs; r++)
			untouched &= regs[r] == zero;
		CHECK(untouched, "request %d: no register written on failure", i);
		free(regs);
		spec_free(&sp);
	}
}

/* Shape errors of the request itself. */
static void test_bad_shape(void)
{
	Spec sp = spec_load("pub");
	uint32_t *regs = xcalloc((size_t)sp.mi->nregs, sizeof *regs);
	char why[512];
	MemStream s = parse_events("0 0; 1 1", 1);
	int c = ctrl_find(sp.mi, "e4");
	CHECK(!memsolve_stream(sp.mi, sp.smt2, c, &s, regs, why, sizeof why, NULL) &&
	      strstr(why, "controller e4 has 2 address generators (sram.rw, then tb0.w), the request "
			  "gives 1 address"),
	      "address count: %s", why);
	CHECK(!memsolve_stream(sp.mi, sp.smt2, 99, &s, regs, why, sizeof why, NULL) &&
	      strstr(why, "no controller 99"), "controller index: %s", why);
	MemSolveStats st;
	int64_t cyc[3] = { 0, 1, 2 }, addr[3] = { 0, 1, 3 };
	MemStream s3 = { 3, cyc, 1, { addr, NULL } };
	CHECK(!memsolve_stream(sp.mi, sp.smt2, ctrl_find(sp.mi, "e0"), &s3, regs, why, sizeof why, &st) &&
	      st.event == 2 && st.iterations == 0, "the reason's event is recorded (%ld), Z3 not called (%d)",
	      st.event, st.iterations);
	memstream_free(&s);
	MemAffineReq r;
	memset(&r, 0, sizeof r);
	r.sched = (AffineMap){ 1, { 0 }, { 1 }, 0 };
	CHECK(!memsolve_expand(&r, 100, &s, why, sizeof why) && strstr(why, "level 0 has extent 0"),
	      "empty level: %s", why);
	r.sched = (AffineMap){ 2, { 10, 11 }, { 1, 10 }, 0 };
	CHECK(!memsolve_expand(&r, 100, &s, why, sizeof why) && strstr(why, "more than 100 points"),
	      "large domain: %s", why);
	free(regs);
	spec_free(&sp);
}

/* ---- faults ---- */

/* A .smt2 that is not SMT-LIB, and one whose schedule is off by one cycle:
 * Z3's answer then fails confirmation on an event it was given, which is
 * reported as the collateral disagreeing with itself. */
static void test_faults(void)
{
	Spec sp = spec_load("dp");
	int c = ctrl_find(sp.mi, "e0");
	uint32_t *regs = xcalloc((size_t)sp.mi->nregs, sizeof *regs);
	char why[512];
	MemStream s = parse_events("0 0; 1 1; 2 2; 3 3", 1);
	CHECK(!memsolve_stream(sp.mi, "(declare-const", c, &s, regs, why, sizeof why, NULL) &&
	      strstr(why, "Z3 failed to load"), "garbage .smt2: %s", why);
	const char *from = "(define-fun e0_cycle ((idx0";
	char *at = strstr(sp.smt2, from);
	CHECK(at != NULL, "dp.smt2 defines e0_cycle");
	if (at) {
		char *body = strstr(at, "(bvadd e0_sched_start ");
		size_t pre = (size_t)(body - sp.smt2) + strlen("(bvadd e0_sched_start ");
		char *bad = xasprintf("%.*s(_ bv1 16) %s", (int)pre, sp.smt2, sp.smt2 + pre);
		MemSolveStats st;
		CHECK(!memsolve_stream(sp.mi, bad, c, &s, regs, why, sizeof why, &st) &&
		      strstr(why, "the functional model does not perform event 0") && st.iterations == 1,
		      "corrupted .smt2: %s (%d Z3 calls)", why, st.iterations);
		free(bad);
	}
	memstream_free(&s);
	free(regs);
	spec_free(&sp);
}

/* ---- the table look-up ---- */

/* A spec's text with one substring replaced, loaded (exits if it fails). */
static Spec spec_edited(const char *name, const char *from, const char *to)
{
	char path[128];
	snprintf(path, sizeof path, "lake/specs/%s.yaml", name);
	char *text = util_read_file(path, NULL);
	char *at = text ? strstr(text, from) : NULL;
	if (!at) {
		fprintf(stderr, "test_lake: %s has no '%s'\n", path, from);
		exit(1);
	}
	char *edited = xasprintf("%.*s%s%s", (int)(at - text), text, to, at + strlen(from));
	Diags *d = diags_new(stderr);
	LakeFile *f = lake_load_string(path, edited, d);
	diags_free(d);
	free(edited);
	free(text);
	if (!f)
		exit(1);
	Spec sp = { lake_info(f->spec), NULL };
	lake_file_free(f);
	sp.smt2 = smt2_text(sp.mi);
	return sp;
}

static void bus(MemModel *m, const MemInfo *mi, int reg, uint32_t data)
{
	memmodel_config_write(m, mem_reg_address(&mi->regs[reg]), data);
}

/* Loads `value` at word `addr` of the look-up's table. */
static void load(MemModel *m, const MemInfo *mi, uint32_t addr, uint32_t value)
{
	bus(m, mi, mi->lookup.wr, addr << mi->word | value);
}

/* Turns the look-up (and the tile) on and flushes. */
static void lookup_on(MemModel *m, const MemInfo *mi)
{
	bus(m, mi, mi->lookup.en, 1);
	bus(m, mi, mi->tile_en, 1);
	memmodel_flush(m);
}

static void test_lookup_collateral(void)
{
	Spec pub = spec_load("pub"), rf = spec_load("regfile");
	const MemInfo *mi = pub.mi;
	const MemLookup *lk = &mi->lookup;
	CHECK(mem_has_lookup(mi) && strcmp(mem_end_name(mi, lk->port), "sram.rw") == 0 && lk->in == 0 &&
	      lk->out == 0 && lk->latency == 1 && lk->words == 2048 && lk->load == 0,
	      "pub: look-up at sram.rw, in0 -> out0, latency 1, 2048 words, loaded through rw");
	CHECK(lk->en == mi->nregs - 2 && lk->wr == mi->nregs - 1 &&
	      strcmp(mi->regs[lk->en].name, "lookup_en") == 0 && strcmp(mi->regs[lk->wr].name, "lookup_wr") == 0,
	      "pub: lookup_en and lookup_wr are the last registers");
	CHECK(mem_reg_address(&mi->regs[lk->en]) == 0x00090000u && mem_reg_address(&mi->regs[lk->wr]) == 0x01090000u &&
	      mi->regs[lk->en].width == 1 && mi->regs[lk->wr].width == 32,
	      "pub: feature 9 (8 controllers + 1): lookup_en 1 bit at 0x00090000, lookup_wr 32 bits at 0x01090000");
	CHECK(mi->regs[lk->en].role == ROLE_SET0 && mi->regs[lk->wr].role == ROLE_SET0,
	      "the solver's roles keep them 0 (SET0)");
	CHECK(!mem_has_lookup(rf.mi) && rf.mi->lookup.en < 0 && mem_reg_find(rf.mi, "lookup_en") < 0,
	      "regfile has no look-up and no look-up registers");
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	meminfo_write(mi, f);
	fclose(f);
	CHECK(strstr(text, "\nlookup: { unit: sram, port: rw, in: in0, out: out0, latency: 1, words: 2048, load: rw, "
			   "feature: 9 }\n") != NULL, "info.yaml lists the look-up");
	Diags *d = diags_new(NULL);
	MemInfo *back = meminfo_load_string("pub.info.yaml", text, d);
	CHECK(back && back->lookup.port.unit == lk->port.unit && back->lookup.port.port == lk->port.port &&
	      back->lookup.en == lk->en && back->lookup.wr == lk->wr && back->lookup.latency == 1,
	      "the look-up reads back (%d errors)", diags_errors(d));
	meminfo_free(back);
	diags_free(d);
	free(text);
	spec_free(&pub);
	spec_free(&rf);
}

/* pub's SRAM has rows of 4 words: loads of one word keep the row's others;
 * the last load of a word wins; memmodel_config does not load. */
static void test_lookup_load(void)
{
	Spec pub = spec_load("pub");
	const MemInfo *mi = pub.mi;
	uint32_t *regs = xcalloc((size_t)mi->nregs, sizeof *regs);
	regs[mi->lookup.wr] = 200u << mi->word | 0x1234;
	MemModel *m = memmodel_new(mi);
	memmodel_config(m, regs);
	static const uint32_t addr[] = { 101, 100, 103, 102, 101, 7 }, value[] = { 0xa1, 0xa0, 0xa3, 0xa2, 0xb1, 0x77 };
	for (int i = 0; i < COUNT(addr); i++)
		load(m, mi, addr[i], value[i]);
	load(m, mi, 2048 + 9, 0x99);   /* the address is modulo the words */
	lookup_on(m, mi);
	static const uint64_t ask[] = { 100, 101, 102, 103, 104, 7, 9, 200, 2048 + 101 };
	static const uint64_t want[] = { 0xa0, 0xb1, 0xa2, 0xa3, 0, 0x77, 0x99, 0, 0xb1 };
	int bad = 0;
	for (int t = 0; t <= COUNT(ask); t++) {
		uint64_t in[2] = { t < COUNT(ask) ? ask[t] : 0, 0 };
		const MemCycle *c = memmodel_step(m, in, NULL, NULL);
		const MemPortOp *op = &c->ports[mi->lookup.port.unit][mi->lookup.port.port];
		if (t < COUNT(ask) && (!op->ren || op->wen || op->addr != (ask[t] % 2048) / 4))
			bad++, printf("  cycle %d: the look-up reads slot %u (ren %d), want %u\n", t, op->addr, op->ren,
				      (unsigned)((ask[t] % 2048) / 4));
		if (t > 0 && (!c->out_valid[0] || c->out[0] != want[t - 1]))
			bad++, printf("  cycle %d: out0 %d:%llx, want 1:%llx\n", t, c->out_valid[0],
				      (unsigned long long)c->out[0], (unsigned long long)want[t - 1]);
		if (t == 0 && c->out_valid[0])
			bad++, printf("  cycle 0: out0 valid before the latency\n");
	}
	CHECK(bad == 0, "row 25 (words 100..103) loaded word by word, 101 twice; 7, 9 (as 2057); 200 set by "
	      "memmodel_config only: %d wrong", bad);
	CHECK(memmodel_conflicts(m) == 0, "no request dropped");
	memmodel_free(m);
	free(regs);
	spec_free(&pub);
}

/* Sets controller c to fire `n` times from cycle `start`, one cycle apart,
 * with source and destination addresses from `addr` up. */
static void fire_run(const MemInfo *mi, int c, int start, int n, int addr, uint32_t *regs)
{
	const MemCtrl *ct = &mi->ctrls[c];
	AffineMap sched = { 1, { n }, { 1 }, start }, a = { 1, { n }, { 1 }, addr };
	regs[ct->en] = 1;
	for (int l = 0; l < mi->dims; l++)
		regs[ct->max[l]] = l == 0 ? (uint32_t)(n - 1) : 0;
	mem_set_gen(mi, &ct->sched, &sched, regs);
	if (ct->src)
		mem_set_gen(mi, &ct->src->gen, &a, regs);
	if (ct->dst)
		mem_set_gen(mi, &ct->dst->gen, &a, regs);
}

/* pub: while sram.rw -> tb0.w (e4) requests sram.rw in cycles 5..8 the
 * look-up loses the port, even though e4's reads miss (they address the
 * next tile of the chain, so the port does nothing): out0 has no looked-up
 * word in cycles 6..9 and 4 requests are dropped. e4 writes those misses
 * (flag 0) into tb0; tb0.r -> out0 (e6) delivers one in cycle 12: it comes
 * first, and out0 passes the chain input instead of the looked-up word. */
static void test_lookup_priority(void)
{
	Spec pub = spec_load("pub");
	const MemInfo *mi = pub.mi;
	uint32_t *regs = xcalloc((size_t)mi->nregs, sizeof *regs);
	fire_run(mi, ctrl_find(mi, "e4"), 5, 4, 512 + 40, regs);
	fire_run(mi, ctrl_find(mi, "e6"), 12, 1, 0, regs);
	MemModel *m = memmodel_new(mi);
	memmodel_config(m, regs);
	for (uint32_t a = 0; a < 64; a++)
		load(m, mi, a, 0x100 + a);
	lookup_on(m, mi);
	int bad = 0;
	for (int t = 0; t < 20; t++) {
		uint64_t in[2] = { (uint64_t)(3 * t), 0 }, chain[2] = { 0xbeef, 0 };
		int cvalid[2] = { 1, 0 };
		const MemCycle *c = memmodel_step(m, in, chain, cvalid);
		const MemPortOp *op = &c->ports[mi->lookup.port.unit][mi->lookup.port.port];
		int edge = t >= 5 && t <= 8;
		if (op->ren != !edge || op->addr != (edge ? 0 : (uint32_t)(3 * t) / 4))
			bad++, printf("  cycle %d: sram.rw reads slot %u (ren %d)\n", t, op->addr, op->ren);
		int lk = t >= 1 && !(t >= 6 && t <= 9) && t != 12;
		uint64_t want = lk ? 0x100 + 3 * (uint64_t)(t - 1) : 0xbeef;
		if (t > 0 && (c->out_valid[0] != 1 || c->out[0] != want))
			bad++, printf("  cycle %d: out0 %d:%llx, want 1:%llx\n", t, c->out_valid[0],
				      (unsigned long long)c->out[0], (unsigned long long)want);
	}
	CHECK(bad == 0, "edges first at the port and at the output: %d wrong cycles", bad);
	CHECK(memmodel_conflicts(m) == 4, "the look-up's 4 requests during e4's reads are dropped (%ld)",
	      memmodel_conflicts(m));
	memmodel_free(m);
	free(regs);
	spec_free(&pub);
}

/* dp with read latencies 0, 1 and 3: the word of the address given in cycle
 * t is on out0 in cycle t + latency, and nothing before. A chained tile
 * (chain_id 1) reads its own storage. memmodel_skip never skips a running
 * look-up. */
static void test_lookup_latency(void)
{
	static const int lats[] = { 0, 1, 3 };
	for (int i = 0; i < COUNT(lats); i++) {
		char to[64];
		snprintf(to, sizeof to, "{ name: r, op: read, latency: %d", lats[i]);
		Spec dp = spec_edited("dp", "{ name: r, op: read, latency: 1", to);
		const MemInfo *mi = dp.mi;
		int L = lats[i], bad = 0;
		CHECK(mi->lookup.latency == L, "latency %d: MemLookup.latency %d", L, mi->lookup.latency);
		MemModel *m = memmodel_new(mi);
		for (uint32_t a = 0; a < 32; a++)
			load(m, mi, 5 * a, 0x700 + a);
		bus(m, mi, mi->chain_id, 1);
		lookup_on(m, mi);
		CHECK(memmodel_skip(m, 100) == 0, "latency %d: a running look-up is not skipped", L);
		for (int t = 0; t < 40; t++) {
			uint64_t in = (uint64_t)(5 * t);
			const MemCycle *c = memmodel_step(m, &in, NULL, NULL);
			int s = t - L, want = s >= 0;
			uint64_t v = s >= 0 && s < 32 ? 0x700 + (uint64_t)s : 0;
			if (c->out_valid[0] != want || (want && c->out[0] != v))
				bad++;
		}
		CHECK(bad == 0, "latency %d, chain_id 1: out0 is the word addressed %d cycles before: %d wrong", L, L,
		      bad);
		/* off: the reads of the last L - 1 cycles are still to be delivered */
		bus(m, mi, mi->lookup.en, 0);
		memmodel_step(m, (uint64_t[]){ 0 }, NULL, NULL);
		for (int k = 0; k < L - 1; k++) {
			CHECK(memmodel_skip(m, 100) == 0, "latency %d: a read in flight is not skipped", L);
			memmodel_step(m, (uint64_t[]){ 0 }, NULL, NULL);
		}
		CHECK(memmodel_skip(m, 100) == 100, "latency %d: an idle tile is skipped", L);
		memmodel_free(m);
		spec_free(&dp);
	}
}

/* The solver writes the controller's registers and tile_en, never the
 * look-up's. */
static void test_lookup_not_solved(void)
{
	Spec pub = spec_load("pub");
	const MemInfo *mi = pub.mi;
	int c = ctrl_find(mi, "e4");
	MemAffineReq r;
	memset(&r, 0, sizeof r);
	r.sched = (AffineMap){ 2, { 4, 4 }, { 1, 4 }, 10 };
	r.addr[0] = (AffineMap){ 2, { 4, 4 }, { 2, 16 }, 0 };
	r.addr[1] = (AffineMap){ 2, { 4, 4 }, { 0, 0 }, 0 };
	r.naddr = 2;
	uint32_t *regs = xcalloc((size_t)mi->nregs, sizeof *regs);
	regs[mi->lookup.en] = regs[mi->lookup.wr] = 0x5a;
	char why[512];
	int ok = memsolve_affine(mi, pub.smt2, c, &r, regs, why, sizeof why, NULL);
	CHECK(ok, "pub e4: %s", why);
	CHECK(regs[mi->lookup.en] == 0x5a && regs[mi->lookup.wr] == 0x5a, "lookup_en and lookup_wr untouched");
	CHECK(strstr(pub.smt2, "lookup_en and lookup_wr (feature 9, role SET0) stay 0") != NULL,
	      "pub.smt2 says the look-up needs nothing solved");
	free(regs);
	spec_free(&pub);
}

static const TestCase tests[] = {
	{ "smt2_loads", test_smt2_loads },
	{ "smt2_matches_model", test_smt2_matches_model },
	{ "solve_generated", test_solve_generated },
	{ "solve_deterministic", test_solve_deterministic },
	{ "split_sides", test_split_sides },
	{ "downsample", test_downsample },
	{ "line_buffer", test_line_buffer },
	{ "impossible", test_impossible },
	{ "bad_shape", test_bad_shape },
	{ "faults", test_faults },
	{ "lookup_collateral", test_lookup_collateral },
	{ "lookup_load", test_lookup_load },
	{ "lookup_priority", test_lookup_priority },
	{ "lookup_latency", test_lookup_latency },
	{ "lookup_not_solved", test_lookup_not_solved },
};

int main(void)
{
	return check_run("lake", tests, COUNT(tests));
}
