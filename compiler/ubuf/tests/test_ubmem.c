/* test_ubmem.c - unit tests of compiler/ub_mem: unified buffer banks mapped
 * onto the memory tiles pub (cgra_4x4: aggregators, a 4-wide single-port
 * SRAM, transpose buffers) and dp (cgra_8x8_mac_dp: a 1-wide SRAM with
 * separate ports), from their collateral only. Every accepted request is run
 * on the configured tiles (UmSim) with random words and each read's value and
 * valid flag are checked against the semantics of ub_mem.h (the last write of
 * the word before the read's cycle); the planner's vectorization is checked
 * against cycles worked out by hand, and refusals by their messages.
 * `-v` prints the time of each configuration. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../../collateral/memmodel.h"
#include "../../../common/rng.h"
#include "../../../common/tests/check.h"
#include "../../../common/util.h"
#include "../ub_mem.h"

static int verbose;

typedef struct Tile {
	MemInfo *mi;
	char *smt2;
	MemSolver *solver;      /* of mi and smt2, for every um_configure of the tile */
} Tile;

/* The tile's solver, once its collateral is there. */
static void tile_solver(Tile *t)
{
	t->solver = t->mi && t->smt2 ? memsolver_new(t->mi, t->smt2) : NULL;
}

static Tile pub, dp;

/* Loads a design's memory collateral, generating the design if it is missing. */
static Tile tile_load(const char *design, const char *mem)
{
	Tile t = { NULL, NULL, NULL };
	char info[256], smt[256], cmd[512];
	snprintf(info, sizeof info, "rtl_out/%s/%s.info.yaml", design, mem);
	snprintf(smt, sizeof smt, "rtl_out/%s/%s.smt2", design, mem);
	FILE *f = fopen(info, "r");
	if (f)
		fclose(f);
	else {
		snprintf(cmd, sizeof cmd, "bash scripts/rtl.sh %s >/dev/null", design);
		if (system(cmd) != 0)
			fprintf(stderr, "test_ubmem: %s failed\n", cmd);
	}
	Diags *d = diags_new(NULL);
	t.mi = meminfo_load(info, d);
	diags_free(d);
	t.smt2 = util_read_file(smt, NULL);
	tile_solver(&t);
	return t;
}

static void tile_free(Tile *t)
{
	memsolver_free(t->solver);
	meminfo_free(t->mi);
	free(t->smt2);
}

/* ---- building requests ---- */

typedef struct Stream {
	UmStream s;
	long cap;
} Stream;

static void push(Stream *s, int64_t cycle, int64_t addr)
{
	if (s->s.n == s->cap) {
		s->cap = s->cap ? 2 * s->cap : 64;
		s->s.cycle = xrealloc(s->s.cycle, (size_t)s->cap * sizeof(int64_t));
		s->s.addr = xrealloc(s->s.addr, (size_t)s->cap * sizeof(int64_t));
	}
	s->s.cycle[s->s.n] = cycle;
	s->s.addr[s->s.n++] = addr;
}

typedef struct Req {
	Stream w[4], r[4];
	UmStream wv[4], rv[4];
	UmRequest rq;
} Req;

static UmRequest *req_view(Req *q, int64_t words, int nw, int nr)
{
	for (int k = 0; k < nw; k++)
		q->wv[k] = q->w[k].s;
	for (int k = 0; k < nr; k++)
		q->rv[k] = q->r[k].s;
	q->rq = (UmRequest){ words, nw, nr, q->wv, q->rv };
	return &q->rq;
}

static void req_free(Req *q)
{
	for (int k = 0; k < 4; k++) {
		free(q->w[k].s.cycle);
		free(q->w[k].s.addr);
		free(q->r[k].s.cycle);
		free(q->r[k].s.addr);
	}
	memset(q, 0, sizeof *q);
}

/* A delay line of n words: word i mod ring written at cycle i, each read
 * stream k reading it back delays[k] cycles later. */
static UmRequest *delay_line(Req *q, long n, int64_t ring, const int64_t *delays, int nr)
{
	memset(q, 0, sizeof *q);
	for (long i = 0; i < n; i++) {
		push(&q->w[0], i, i % ring);
		for (int k = 0; k < nr; k++)
			push(&q->r[k], i + delays[k], i % ring);
	}
	return req_view(q, ring, 1, nr);
}

/* ---- running a configuration ---- */

/* Runs rq on the configured tiles with random words; checks every read's
 * valid flag, and its value when the word was written before its cycle.
 * Returns the reads checked, or -1 after reporting a mismatch. */
static long run_check(const Tile *t, const UmConfig *cfg, const UmRequest *rq, const char *what)
{
	Rng rng;
	rng_seed(&rng, 7);
	uint64_t *mem = xcalloc((size_t)rq->words, sizeof(uint64_t));
	int *written = xcalloc((size_t)rq->words, sizeof(int));
	long wi[4] = { 0 }, ri[4] = { 0 }, checked = 0;
	int64_t end = 0;
	for (int k = 0; k < rq->nr; k++)
		if (rq->r[k].n && rq->r[k].cycle[rq->r[k].n - 1] + 1 > end)
			end = rq->r[k].cycle[rq->r[k].n - 1] + 1;
	UmSim *sim = um_sim_new(t->mi, cfg);
	uint64_t in[4], out[4], pending[4];
	int valid[4], ok = 1;
	for (int64_t c = 0; c < end && ok; c++) {
		for (int k = 0; k < rq->nw; k++) {
			in[k] = rng_bits(&rng, t->mi->word);
			pending[k] = wi[k] < rq->w[k].n && rq->w[k].cycle[wi[k]] == c;
		}
		um_sim_step(sim, in, out, valid);
		for (int k = 0; k < rq->nr && ok; k++) {
			if (ri[k] >= rq->r[k].n || rq->r[k].cycle[ri[k]] != c)
				continue;
			int64_t a = rq->r[k].addr[ri[k]];
			ok = valid[k] && (!written[a] || out[k] == mem[a]);
			if (!ok)
				CHECK(0,
				   "%s: read %ld of stream %d (word %lld, cycle %lld): got %s%llx, expected %llx",
				   what, ri[k], k, (long long)a, (long long)c, valid[k] ? "" : "no valid ",
				   (unsigned long long)out[k], (unsigned long long)mem[a]);
			ri[k]++;
			checked++;
		}
		/* the writes of this cycle are seen by later reads only */
		for (int k = 0; k < rq->nw; k++)
			if (pending[k]) {
				int64_t a = rq->w[k].addr[wi[k]++];
				mem[a] = in[k];
				written[a] = 1;
			}
	}
	um_sim_free(sim);
	free(mem);
	free(written);
	return ok ? checked : -1;
}

/* Configures and runs rq; 1 if both succeed. *ms gets the time of
 * um_configure. */
static int configure_run(const Tile *t, const UmRequest *rq, UmConfig *cfg, const char *what, double *ms)
{
	char why[512];
	double t0 = util_now();
	int ok = um_configure(t->mi, t->solver, rq, cfg, NULL, why, sizeof why);
	double dt = (util_now() - t0) * 1e3;
	if (ms)
		*ms = dt;
	if (verbose)
		printf("  %s: %.1f ms (%.1f solving), %d tile(s), %d controllers, %d solved, %s\n", what, dt,
		       cfg->seconds * 1e3, cfg->ntiles, cfg->controllers, cfg->solves, ok ? "ok" : why);
	if (!CHECK(ok, "%s: %s", what, why))
		return 0;
	long n = run_check(t, cfg, rq, what);
	return n >= 0 && CHECK(n > 0, "%s: no read checked", what);
}

static int ctrl_named(const MemInfo *mi, const char *name)
{
	for (int c = 0; c < mi->nctrls; c++)
		if (!strcmp(mi->ctrls[c].name, name))
			return c;
	return -1;
}

/* Does controller name's stream have exactly these events? */
static void check_stream(const Tile *t, const UmConfig *cfg, const char *name, long n, const int64_t *cyc,
			 const int64_t *a0, const int64_t *a1)
{
	int c = ctrl_named(t->mi, name);
	if (!CHECK(c >= 0, "%s has no controller %s", t->mi->name, name))
		return;
	const MemStream *s = &cfg->streams[c];
	if (!CHECK(s->n == n, "%s: %ld events, expected %ld", name, s->n, n))
		return;
	for (long i = 0; i < n; i++) {
		int ok = s->cycle[i] == cyc[i] && (!a0 || s->addr[0][i] == a0[i]) &&
			 (!a1 || s->addr[1][i] == a1[i]);
		if (!CHECK(ok, "%s: event %ld is (%lld, %lld, %lld), expected (%lld, %lld, %lld)", name, i,
			   (long long)s->cycle[i], (long long)(s->naddr > 0 ? s->addr[0][i] : -1),
			   (long long)(s->naddr > 1 ? s->addr[1][i] : -1), (long long)cyc[i],
			   (long long)(a0 ? a0[i] : -1), (long long)(a1 ? a1[i] : -1)))
			return;
	}
}

/* Configures rq, which must fail with a reason containing want and no
 * *later. */
static void refuse_later(const Tile *t, const UmRequest *rq, const char *what, const char *want)
{
	UmConfig cfg;
	char why[512];
	int64_t later = -1;
	int ok = um_configure(t->mi, t->solver, rq, &cfg, &later, why, sizeof why);
	CHECK(!ok && strstr(why, want) && later == 0, "%s: %s (later %lld), expected \"%s\"", what,
	      ok ? "accepted" : why, (long long)later, want);
	um_config_free(&cfg);
}

/* ---- (a) brighten_blur's line buffer ---- */

static void test_line_buffer(void)
{
	Req q;
	UmConfig cfg;
	double ms;
	int64_t delays[2] = { 64, 128 };
	UmRequest *rq = delay_line(&q, 64 * 64, 256, delays, 2);
	if (configure_run(&pub, rq, &cfg, "pub line buffer 64x64, reads 64 and 128 later", &ms))
		CHECK(cfg.ntiles == 1 && cfg.rout[0] == 0 && cfg.rout[1] == 1 && cfg.win[0] == 0,
		      "pub line buffer: %d tiles, outputs %d %d", cfg.ntiles, cfg.rout[0], cfg.rout[1]);
	um_config_free(&cfg);
	/* the first configuration also starts Z3; the second's time is printed
	 * with -v (times are make bench's, not a test's) */
	configure_run(&pub, rq, &cfg, "pub line buffer 64x64, again", &ms);
	um_config_free(&cfg);
	req_free(&q);

	rq = delay_line(&q, 64 * 64, 256, delays, 1);
	if (configure_run(&dp, rq, &cfg, "dp line buffer 64x64, read 64 later", &ms)) {
		CHECK(cfg.ntiles == 1 && cfg.controllers == 2, "dp line buffer: %d tiles, %d controllers",
		      cfg.ntiles, cfg.controllers);
	}
	um_config_free(&cfg);
	req_free(&q);

	/* both line buffers of the stencil on dp: one bank each */
	rq = delay_line(&q, 64 * 64, 256, delays + 1, 1);
	configure_run(&dp, rq, &cfg, "dp line buffer 64x64, read 128 later", NULL);
	um_config_free(&cfg);
	req_free(&q);
}

/* ---- (b) vectorization: the planned streams of a simple case ---- */

static void test_vectorize(void)
{
	Req q;
	UmConfig cfg;
	memset(&q, 0, sizeof q);
	for (int i = 0; i < 16; i++) {
		push(&q.w[0], i, i);
		push(&q.r[0], 20 + i, i);
	}
	UmRequest *rq = req_view(&q, 16, 1, 1);
	if (configure_run(&pub, rq, &cfg, "pub 16 words, read 20 cycles later", NULL)) {
		int64_t cyc[16], a[16], b[16];
		/* in0 -> agg0.w: every write, at its slot */
		for (int i = 0; i < 16; i++)
			cyc[i] = i, a[i] = i % 4;
		check_stream(&pub, &cfg, "e0", 16, cyc, a, NULL);
		/* agg0.r -> sram.rw: block b complete after cycle 4b+3, written at 4b+4 */
		for (int i = 0; i < 4; i++)
			cyc[i] = 4 * i + 4, a[i] = i;
		check_stream(&pub, &cfg, "e2", 4, cyc, a, NULL);
		/* sram.rw -> tb0.w: block g read at 20+4g-2 (SRAM latency 1, the TB
		 * written at 20+4g-1, its first read one cycle later), rows 0 1 0 1 */
		for (int i = 0; i < 4; i++)
			cyc[i] = 18 + 4 * i, a[i] = i, b[i] = i % 2;
		check_stream(&pub, &cfg, "e4", 4, cyc, a, b);
		/* tb0.r -> out0: at the read cycles, word i of row g */
		for (int i = 0; i < 16; i++)
			cyc[i] = 20 + i, a[i] = (i / 4 % 2) * 4 + i % 4;
		check_stream(&pub, &cfg, "e6", 16, cyc, a, NULL);
		CHECK(cfg.controllers == 4, "pub 16 words: %d controllers enabled, expected 4", cfg.controllers);
	}
	um_config_free(&cfg);

	/* dp: the write when it comes, the read one cycle before its output */
	if (configure_run(&dp, rq, &cfg, "dp 16 words, read 20 cycles later", NULL)) {
		int64_t cyc[16], a[16];
		for (int i = 0; i < 16; i++)
			cyc[i] = i, a[i] = i;
		check_stream(&dp, &cfg, "e0", 16, cyc, a, NULL);
		for (int i = 0; i < 16; i++)
			cyc[i] = 19 + i;
		check_stream(&dp, &cfg, "e1", 16, cyc, a, NULL);
	}
	um_config_free(&cfg);
	req_free(&q);
}

/* ---- (c) upsampling: every block serves 8 reads, every row is read twice ---- */

static UmRequest *upsample(Req *q, int64_t d, int64_t ring)
{
	memset(q, 0, sizeof *q);
	for (int y = 0; y < 64; y++)
		for (int x = 0; x < 64; x++)
			push(&q->w[0], 256 * y + 2 * x, (64 * y + x) % ring);
	for (int y = 0; y < 128; y++)
		for (int x = 0; x < 128; x++)
			push(&q->r[0], 128 * y + x + d, ((y / 2) * 64 + x / 2) % ring);
	return req_view(q, ring, 1, 1);
}

static void upsample_on(const Tile *t, int64_t ring, int64_t want_tiles)
{
	Req q;
	UmConfig cfg;
	char why[512], what[128];
	int64_t later = -1;
	UmRequest *rq = upsample(&q, 0, ring);
	int ok = um_configure(t->mi, t->solver, rq, &cfg, &later, why, sizeof why);
	CHECK(!ok && strstr(why, "comes before the word can be stored and fetched") && later > 0,
	      "%s upsample without delay: %s (later %lld)", t->mi->name, ok ? "accepted" : why, (long long)later);
	um_config_free(&cfg);
	req_free(&q);
	if (later <= 0)
		return;
	snprintf(what, sizeof what, "%s upsample 64x64 -> 128x128, %lld words, reads %lld later", t->mi->name,
		 (long long)ring, (long long)later);
	rq = upsample(&q, later, ring);
	if (configure_run(t, rq, &cfg, what, NULL))
		CHECK(cfg.ntiles == want_tiles, "%s: %d tiles, expected %lld", what, cfg.ntiles,
		      (long long)want_tiles);
	um_config_free(&cfg);
	req_free(&q);
	/* one cycle less is not enough */
	rq = upsample(&q, later - 1, ring);
	CHECK(!um_configure(t->mi, t->solver, rq, &cfg, NULL, why, sizeof why),
	      "%s upsample: reads %lld later accepted, but *later said %lld", t->mi->name,
	      (long long)later - 1, (long long)later);
	um_config_free(&cfg);
	req_free(&q);
}

static void test_upsample(void)
{
	upsample_on(&pub, 256, 1);
	upsample_on(&pub, 4096, 2);
	upsample_on(&dp, 256, 1);
}

/* ---- (d) chaining ---- */

static void test_chain(void)
{
	Req q;
	UmConfig cfg;
	int64_t delay = 3000;
	UmRequest *rq = delay_line(&q, 64 * 64, 4096, &delay, 1);
	if (configure_run(&pub, rq, &cfg, "pub delay line of 3000 cycles in 4096 words", NULL))
		CHECK(cfg.ntiles == 2 && cfg.regs[0][pub.mi->chain_id] == 0 &&
		      cfg.regs[1][pub.mi->chain_id] == 1,
		      "pub chain: %d tiles", cfg.ntiles);
	um_config_free(&cfg);
	if (configure_run(&dp, rq, &cfg, "dp delay line of 3000 cycles in 4096 words", NULL))
		CHECK(cfg.ntiles == 2, "dp chain: %d tiles", cfg.ntiles);
	um_config_free(&cfg);
	req_free(&q);

	/* three tiles, the ring spilling into the third one */
	delay = 5000;
	rq = delay_line(&q, 2 * 5120, 5120, &delay, 1);
	if (configure_run(&pub, rq, &cfg, "pub delay line of 5000 cycles in 5120 words", NULL))
		CHECK(cfg.ntiles == 3, "pub chain of 5120 words: %d tiles", cfg.ntiles);
	um_config_free(&cfg);
	req_free(&q);
}

/* ---- several ports, skipped words, determinism ---- */

/* pub: two write streams and two read streams of one bank keep the single
 * SRAM port busy every cycle (a block written and a block fetched per input
 * and output every 4 cycles). A full-rate writer's single-row aggregator must
 * be emptied in the cycle after its block is complete, so the two writers
 * are one cycle apart; in the same cycles the port cannot serve them. */
static void test_two_ports(void)
{
	Req q;
	UmConfig cfg, again;
	memset(&q, 0, sizeof q);
	for (int i = 0; i < 1024; i++)
		for (int k = 0; k < 2; k++) {
			push(&q.w[k], i + k, 1024 * k + i);
			push(&q.r[k], i + 40, 1024 * (1 - k) + i);
		}
	UmRequest *rq = req_view(&q, 2048, 2, 2);
	if (configure_run(&pub, rq, &cfg, "pub 2 writes and 2 reads a cycle", NULL)) {
		char why[512];
		int ok = um_configure(pub.mi, pub.solver, rq, &again, NULL, why, sizeof why);
		CHECK(ok && !memcmp(cfg.regs[0], again.regs[0], (size_t)pub.mi->nregs * sizeof(uint32_t)),
		      "pub 2 writes and 2 reads: a second configuration differs (%s)", ok ? "registers" : why);
		um_config_free(&again);
	}
	um_config_free(&cfg);
	rq->nr = 1;
	refuse_later(&dp, rq, "dp 2 writes", "the bank needs 2 write ports; dp has 1 input");
	req_free(&q);

	memset(&q, 0, sizeof q);
	for (int i = 0; i < 64; i++)
		for (int k = 0; k < 2; k++) {
			push(&q.w[k], i, 64 * k + i);
			push(&q.r[k], i + 40, 64 * k + i);
		}
	refuse_later(&pub, req_view(&q, 128, 2, 2), "pub 2 writers in the same cycles",
		     "write stream 1 needs its blocks stored at offset 0..0");
	req_free(&q);

	/* a downsampling read: every other word of every other row */
	memset(&q, 0, sizeof q);
	for (int i = 0; i < 64 * 64; i++)
		push(&q.w[0], i, i % 512);
	for (int y = 0; y < 32; y++)
		for (int x = 0; x < 32; x++)
			push(&q.r[0], 64 * (2 * y) + 2 * x + 70, (64 * 2 * y + 2 * x) % 512);
	rq = req_view(&q, 512, 1, 1);
	configure_run(&pub, rq, &cfg, "pub downsampling read", NULL);
	um_config_free(&cfg);
	configure_run(&dp, rq, &cfg, "dp downsampling read", NULL);
	um_config_free(&cfg);
	req_free(&q);
}

/* ---- (f) pub with `share: false`: two controllers per storage edge ---- */

/* Generates pub's collateral from its spec with `share: false` (bin/lake). */
static Tile unshared_pub(void)
{
	Tile t = { NULL, NULL, NULL };
	char *spec = util_read_file("lake/specs/pub.yaml", NULL);
	char *at = spec ? strstr(spec, "share: true") : NULL;
	if (!at) {
		free(spec);
		return t;
	}
	*at = '\0';
	util_mkdir_p("build/test_ubmem");
	FILE *f = fopen("build/test_ubmem/pub.yaml", "w");
	if (f) {
		fprintf(f, "%sshare: false%s", spec, at + strlen("share: true"));
		fclose(f);
	}
	free(spec);
	if (system("bin/lake build/test_ubmem/pub.yaml -o build/test_ubmem/pub_unshared -q") != 0)
		return t;
	Diags *d = diags_new(NULL);
	t.mi = meminfo_load("build/test_ubmem/pub_unshared/pub.info.yaml", d);
	diags_free(d);
	t.smt2 = util_read_file("build/test_ubmem/pub_unshared/pub.smt2", NULL);
	tile_solver(&t);
	return t;
}

static void test_unshared(void)
{
	Tile t = unshared_pub();
	if (!CHECK(t.mi && t.smt2 && !t.mi->share, "pub with share: false: no collateral (bin/lake)")) {
		tile_free(&t);
		return;
	}
	Req q;
	UmConfig cfg;
	int64_t delays[2] = { 64, 128 };
	UmRequest *rq = delay_line(&q, 64 * 64, 256, delays, 2);
	if (configure_run(&t, rq, &cfg, "unshared pub line buffer 64x64, reads 64 and 128 later", NULL))
		CHECK(cfg.controllers == 9, "unshared pub line buffer: %d controllers, expected 9", cfg.controllers);
	um_config_free(&cfg);
	req_free(&q);
	CHECK(um_min_delay(t.mi) == um_min_delay(pub.mi), "unshared pub: min delay %d, shared %d",
	      um_min_delay(t.mi), um_min_delay(pub.mi));
	rq = upsample(&q, 10, 256);
	configure_run(&t, rq, &cfg, "unshared pub upsample", NULL);
	um_config_free(&cfg);
	req_free(&q);
	tile_free(&t);
}

/* ---- min delay ---- */

static void test_min_delay(void)
{
	const Tile *tiles[2] = { &pub, &dp };
	for (int k = 0; k < 2; k++) {
		const Tile *t = tiles[k];
		int d = um_min_delay(t->mi);
		if (verbose)
			printf("  %s: min delay %d\n", t->mi->name, d);
		if (!CHECK(d > 0, "%s: no min delay", t->mi->name))
			continue;
		Req q;
		UmConfig cfg;
		char why[512], what[96];
		int64_t dd = d, later = -1;
		snprintf(what, sizeof what, "%s delay line at its min delay %d", t->mi->name, d);
		UmRequest *rq = delay_line(&q, 64 * 64, 256, &dd, 1);
		configure_run(t, rq, &cfg, what, NULL);
		um_config_free(&cfg);
		req_free(&q);
		dd = d - 1;
		rq = delay_line(&q, 64 * 64, 256, &dd, 1);
		CHECK(!um_configure(t->mi, t->solver, rq, &cfg, &later, why, sizeof why) && later == 1,
		      "%s: delay line at %d accepted or later %lld is not 1", t->mi->name, d - 1, (long long)later);
		um_config_free(&cfg);
		req_free(&q);
	}
	CHECK(um_min_delay(dp.mi) == 2, "dp: write at t, read at t+1 (latency 1) sees it at t+2: got %d",
	      um_min_delay(dp.mi));
}

/* ---- (e) refusals ---- */

/* Configures rq, which must fail with a reason containing want. */
static void refuse(const Tile *t, const UmRequest *rq, const char *want, const char *what)
{
	UmConfig cfg;
	char why[512];
	int ok = um_configure(t->mi, t->solver, rq, &cfg, NULL, why, sizeof why);
	CHECK(!ok && strstr(why, want), "%s: %s, expected \"%s\"", what, ok ? "accepted" : why, want);
	um_config_free(&cfg);
}

static MemInfo *unchained(const MemInfo *mi)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	meminfo_write(mi, f);
	fclose(f);
	/* the loaded copy is edited and derived again, then read back so that
	 * the loader checks it */
	Diags *d = diags_new(NULL);
	MemInfo *m = meminfo_load_string("x.info.yaml", text, d);
	free(text);
	m->chain = 0;
	for (int u = 0; u < m->nunits; u++)
		m->units[u].chained = 0;
	meminfo_derive(m);
	f = open_memstream(&text, &len);
	meminfo_write(m, f);
	fclose(f);
	meminfo_free(m);
	m = meminfo_load_string("x.info.yaml", text, d);
	if (!m)
		diags_flush(d);
	diags_free(d);
	free(text);
	return m;
}

static void test_refusals(void)
{
	Req q;
	int64_t delays[3] = { 64, 128, 192 };
	UmRequest *rq = delay_line(&q, 256, 256, delays, 3);
	refuse(&pub, rq, "the bank needs 3 read ports; pub has 2 outputs", "pub 3 reads");
	rq->nr = 2;
	refuse(&dp, rq, "the bank needs 2 read ports; dp has 1 output", "dp 2 reads");
	req_free(&q);

	memset(&q, 0, sizeof q);
	for (int k = 0; k < 3; k++)
		for (int i = 0; i < 16; i++)
			push(&q.w[k], i, 16 * k + i);
	for (int i = 0; i < 16; i++)
		push(&q.r[0], 100 + i, i);
	refuse(&pub, req_view(&q, 48, 3, 1), "the bank needs 3 write ports; pub has 2 inputs", "pub 3 writes");
	req_free(&q);

	/* a read in the same cycle as the word's write */
	int64_t zero = 0, later = -1;
	rq = delay_line(&q, 64 * 64, 256, &zero, 1);
	UmConfig cfg;
	char why[512];
	int ok = um_configure(pub.mi, pub.solver, rq, &cfg, &later, why, sizeof why);
	CHECK(!ok && !strcmp(why, "read 0 of word 0 at cycle 0 comes before the word can be stored and "
			     "fetched (the earliest is cycle 7)") && later == um_min_delay(pub.mi),
	      "pub read at the write: %s (later %lld)", ok ? "accepted" : why, (long long)later);
	um_config_free(&cfg);
	req_free(&q);

	/* writes whose cycles follow no loop nest */
	memset(&q, 0, sizeof q);
	Rng rng;
	rng_seed(&rng, 3);
	int64_t c = 0;
	for (int i = 0; i < 64; i++) {
		c += 1 + (int64_t)rng_below(&rng, 3);
		push(&q.w[0], c, i);
		push(&q.r[0], c + 400, i);
	}
	refuse(&pub, req_view(&q, 64, 1, 1),
	       "write stream 0, controller e0 (in0 -> agg0.w): cannot be configured: not an affine stream",
	       "pub random write cycles");
	refuse(&dp, req_view(&q, 64, 1, 1),
	       "write stream 0, controller e0 (in0 -> sram.w): cannot be configured: not an affine stream",
	       "dp random write cycles");
	req_free(&q);

	/* writes not in whole aligned blocks */
	memset(&q, 0, sizeof q);
	for (int i = 0; i < 16; i++) {
		push(&q.w[0], i, i + 1);
		push(&q.r[0], 40 + i, i + 1);
	}
	refuse(&pub, req_view(&q, 32, 1, 1), "blocks of 4 events must write 4 aligned words", "pub unaligned");
	q.w[0].s.n = 14;
	refuse(&pub, req_view(&q, 32, 1, 1), "are not whole blocks of 4 words", "pub 14 writes");
	req_free(&q);

	/* a word outside the bank, cycles that do not increase */
	memset(&q, 0, sizeof q);
	push(&q.w[0], 0, 0);
	push(&q.r[0], 9, 20);
	refuse(&dp, req_view(&q, 16, 1, 1), "read stream 0: event 0: word 20 is outside the bank's 16 words",
	       "dp word outside");
	push(&q.r[0], 9, 0);
	q.r[0].s.addr[0] = 0;
	refuse(&dp, req_view(&q, 16, 1, 1), "does not come after the one before", "dp same cycle twice");
	req_free(&q);

	/* more words than a tile that does not chain */
	MemInfo *flat = unchained(dp.mi);
	if (CHECK(flat && !flat->chain, "dp without chaining: not derived")) {
		int64_t delay = 3000;
		rq = delay_line(&q, 4096, 4096, &delay, 1);
		Tile t = { flat, dp.smt2, NULL };
		tile_solver(&t);
		refuse(&t, rq, "the bank needs 4096 words; dp holds 2048 and does not chain", "unchained dp");
		memsolver_free(t.solver);
		req_free(&q);
	}
	meminfo_free(flat);
}

int main(int argc, char **argv)
{
	verbose = argc > 1 && !strcmp(argv[1], "-v");
	pub = tile_load("cgra_4x4", "pub");
	dp = tile_load("cgra_8x8_mac_dp", "dp");
	if (!pub.mi || !pub.smt2 || !dp.mi || !dp.smt2) {
		printf("FAIL the collateral of pub (rtl_out/cgra_4x4) or dp (rtl_out/cgra_8x8_mac_dp) is missing\n");
		printf("ubmem: 0 passed, 1 failed\n");
		return 1;
	}
	static const TestCase tests[] = {
		{ "line buffer", test_line_buffer },
		{ "vectorization", test_vectorize },
		{ "upsample", test_upsample },
		{ "chaining", test_chain },
		{ "two ports, skipped words", test_two_ports },
		{ "share: false", test_unshared },
		{ "min delay", test_min_delay },
		{ "refusals", test_refusals },
	};
	int status = check_run("ubmem", tests, COUNT(tests));
	tile_free(&pub);
	tile_free(&dp);
	return status;
}
