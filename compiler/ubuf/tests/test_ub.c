/* test_ub.c - unit tests of buffer extraction, scheduling and mapping on
 * small hand-written programs with known answers: dependence distances,
 * shift-register detection (wires, register chains, memory taps), banking
 * of taps and of addressed ports over the tile's outputs, on the pub tile
 * (rtl_out/cgra_4x4) and the dual-port tile (rtl_out/cgra_8x8_mac_dp); each
 * mapping is also run through the buffer-level simulator against the
 * interpreter. */
#include <stdlib.h>
#include <string.h>

#include "../../../common/rng.h"
#include "../../../common/tests/check.h"
#include "../../../collateral/coll.h"
#include "../../front/front.h"
#include "../../lower/lower.h"
#include "../ubuf.h"

typedef struct Built {
	HProgram *p;
	LProgram L;
	DGraph g;
	UbProgram u;
	UbMap m;
	int ok;
} Built;

static Collateral pub, dp;

static int load_design(const char *design, Collateral *c)
{
	char path[256], cmd[300];
	snprintf(path, sizeof path, "rtl_out/%s/design.yaml", design);
	FILE *f = fopen(path, "r");
	if (f)
		fclose(f);
	snprintf(cmd, sizeof cmd, "bash scripts/rtl.sh %s >/dev/null", design);
	if (!f && system(cmd) != 0)
		return 0;
	snprintf(path, sizeof path, "rtl_out/%s", design);
	Diags *d = diags_new(stdout);
	int ok = coll_load(path, c, d);
	diags_free(d);
	return ok;
}

/* A program reading `in` (W x H) with f's definition `def`, its output
 * `ow` x `oh`, the whole image computed in one accelerator run. */
static char *program(const char *def, int ow, int oh)
{
	return xasprintf("ImageParam in(UInt(16), 2, \"in\");\n"
			 "Var x(\"x\"), y(\"y\"), xo(\"xo\"), yo(\"yo\"), xi(\"xi\"), yi(\"yi\");\n"
			 "Func f(\"f\");\n%s\n"
			 "f.bound(x, 0, %d).bound(y, 0, %d);\n"
			 "f.tile(x, y, xo, yo, xi, yi, %d, %d);\n"
			 "hw_accelerate(f, xi, xo);\nstream_to_accelerator(in);\n",
			 def, ow, oh, ow, oh);
}

static void build(Built *b, const char *src, const Collateral *c)
{
	memset(b, 0, sizeof *b);
	Diags *d = diags_new(stdout);
	b->p = hl_parse("t.hl", src, d);
	b->ok = b->p && hl_lower(&b->L, b->p, d) && dfg_build(&b->g, &b->L, c, d) &&
		ub_build(&b->u, &b->m, &b->L, &b->g, c, NULL, 0, d);
	diags_free(d);
}

/* The buffer-level simulation equals the interpreter on a random input. */
static void simulate(Built *b, const Collateral *c, const char *what)
{
	Diags *d = diags_new(stdout);
	HRegions r;
	hl_bounds(b->p, &r, d);
	Image in = { 2, { (int)r.image[0][0].hi + 1, (int)r.image[0][1].hi + 1 }, NULL, 16 };
	hl_bounds_free(&r);
	image_alloc(&in);
	Rng g;
	rng_seed(&g, 5);
	for (long i = 0; i < image_size(&in); i++)
		in.px[i] = (uint16_t)rng_bits(&g, 16);
	Image gold = { 0 }, sim = { 0 };
	UbSimStats st;
	int ok = hli_run(b->p, &in, &gold, d);
	int right = ok && ub_simulate(&b->u, &b->m, c->mem, &in, &sim, &st);
	CHECK(right, "%s: every delivered value right (%s)", what, right ? "" : st.first);
	CHECK(right && image_size(&gold) == image_size(&sim) &&
		      !memcmp(gold.px, sim.px, sizeof *gold.px * (size_t)image_size(&gold)),
	      "%s: buffer-level simulation = interpreter", what);
	image_free(&in);
	image_free(&gold);
	image_free(&sim);
	diags_free(d);
}

static void drop(Built *b)
{
	if (b->u.arena) {
		ub_map_free(&b->m);
		ub_free(&b->u);
	}
	dfg_free(&b->g);
	if (b->L.arena)
		hl_lower_free(&b->L);
	hl_free(b->p);
}

/* The read ports' sources in port order as text: W<k> (k registers after the
 * write port, W0 a wire) or B<bank>.<out>+<k>. */
static void sources(const Built *b, char *out, size_t n)
{
	out[0] = 0;
	vec_foreach(&b->u.ports, pi) {
		const UbPort *p = &b->u.ports.data[pi];
		const UbSource *s = &b->m.src[pi];
		if (p->write)
			continue;
		size_t l = strlen(out);
		if (s->kind == UB_SRC_WRITE)
			snprintf(out + l, n - l, "%sW%lld", l ? " " : "", (long long)s->regs);
		else
			snprintf(out + l, n - l, "%sB%d.%d+%lld", l ? " " : "", s->bank, s->out, (long long)s->regs);
	}
}

typedef struct Case {
	const char *what, *def;
	int ow, oh;
	const char *dists;      /* read ports' distances, in port order */
	const char *pub_src, *dp_src;
	int pub_tiles, dp_tiles, regs;
} Case;

static void distances(const Built *b, char *out, size_t n)
{
	out[0] = 0;
	vec_foreach(&b->u.ports, pi) {
		const UbPort *p = &b->u.ports.data[pi];
		if (p->write)
			continue;
		size_t l = strlen(out);
		if (p->dmin == p->dmax)
			snprintf(out + l, n - l, "%s%lld", l ? " " : "", (long long)p->dmin);
		else
			snprintf(out + l, n - l, "%s%lld..%lld", l ? " " : "", (long long)p->dmin, (long long)p->dmax);
	}
}

static void run_case(const Case *k, const Collateral *c, const char *src_want, int tiles_want)
{
	char *src = program(k->def, k->ow, k->oh);
	Built b;
	build(&b, src, c);
	char what[160], got[512];
	snprintf(what, sizeof what, "%s on %s", k->what, c->mem->name);
	if (CHECK(b.ok, "%s: maps", what)) {
		distances(&b, got, sizeof got);
		if (k->dists)
			CHECK(!strcmp(got, k->dists), "%s: distances '%s', expected '%s'", what, got, k->dists);
		else
			CHECK(got[0] != '-' && !strstr(got, " -"), "%s: no negative distance ('%s')", what, got);
		sources(&b, got, sizeof got);
		CHECK(!strcmp(got, src_want), "%s: sources '%s', expected '%s'", what, got, src_want);
		CHECK(b.m.tiles == tiles_want, "%s: %d memory tiles, expected %d", what, b.m.tiles, tiles_want);
		CHECK(b.m.regs == k->regs, "%s: %lld registers, expected %d", what, (long long)b.m.regs, k->regs);
		simulate(&b, c, what);
	}
	drop(&b);
	free(src);
}

/* Shift-register detection and banking (the read ports are in the order
 * the kernel's loads appear in its graph). */
static const Case cases[] = {
	/* three taps of a row: distances 2, 1, 0: a wire and two registers */
	{ "1-D 3-tap", "f(x, y) = in(x, y) + in(x + 1, y) + in(x + 2, y);", 62, 64, "2 1 0", "W2 W1 W0",
	  "W2 W1 W0", 0, 0, 2 },
	/* Fig. 3: 2x2 window: two registers and one delay line of 64 */
	{ "2x2 window", "f(x, y) = in(x, y) + in(x + 1, y) + in(x, y + 1) + in(x + 1, y + 1);", 63, 63,
	  "65 64 1 0", "B0.0+1 B0.0+0 W1 W0", "B0.0+1 B0.0+0 W1 W0", 1, 1, 2 },
	/* a long constant delay: one tap of 320 = 5 rows */
	{ "delay of five rows", "f(x, y) = in(x, y) + in(x, y + 5);", 64, 59, "320 0", "B0.0+0 W0", "B0.0+0 W0",
	  1, 1, 0 },
	/* two rows of 600 words from 22 = 2 x 11 rows: a ring of 2 rows is
	 * short of the margin and the next divisor, 11, would chain 4 tiles;
	 * 3 rows (1800 words, the stream completed to 24 rows) fit one */
	{ "two rows of 22 = 2 x 11", "f(x, y) = in(x, y) + in(x, y + 2);", 600, 20, "1200 0", "B0.0+0 W0",
	  "B0.0+0 W0", 1, 1, 0 },
	/* four rows: taps at 64, 128, 192; pub has two outputs, dp one */
	{ "4x1 column", "f(x, y) = in(x, y) + in(x, y + 1) + in(x, y + 2) + in(x, y + 3);", 64, 61,
	  "192 128 64 0", "B1.0+0 B0.1+0 B0.0+0 W0", "B2.0+0 B1.0+0 B0.0+0 W0", 2, 3, 0 },
	/* upsampling reads: distances that vary are served by addressed banks
	 * (two ports: one bank on pub, two on dp); distances after the rounds
	 * that give the memories their latency */
	{ "upsampled 2 reads", "f(x, y) = in(x / 2, y / 2) + in(x / 2, (y + 2) / 2);", 62, 62, NULL,
	  "B0.0+0 B0.1+0", "B0.0+0 B1.0+0", 1, 2, 0 },
};

static void test_shift_registers_and_banks(void)
{
	for (int i = 0; i < COUNT(cases); i++) {
		run_case(&cases[i], &pub, cases[i].pub_src, cases[i].pub_tiles);
		run_case(&cases[i], &dp, cases[i].dp_src, cases[i].dp_tiles);
	}
}

/* Extraction: ports, access maps with floor division, Fig. 3's schedules. */
static void test_extraction(void)
{
	char *src = program("f(x, y) = in(x, y) + in(x + 1, y) + in(x, y + 1) + in(x + 1, y + 1);", 63, 63);
	Built b;
	build(&b, src, &pub);
	if (CHECK(b.ok, "2x2 window maps")) {
		CHECK(b.u.bufs.len == 1 && b.u.bufs.data[0].nwrites == 1 && b.u.bufs.data[0].ports.len == 5,
		      "one buffer, one input and four output ports");
		const UbStmt *f = &b.u.stmts.data[1];
		CHECK(f->delay == 65 && f->stride[0] == 1 && f->stride[1] == 64,
		      "f at 65 + 64y + x (delay %lld, strides %lld %lld)", (long long)f->delay,
		      (long long)f->stride[0], (long long)f->stride[1]);
		CHECK(b.u.last_out == 65 + 64 * 62 + 62, "last output at cycle %lld", (long long)b.u.last_out);
		CHECK(b.u.bufs.data[0].capacity == 66, "capacity %lld, expected 66", (long long)b.u.bufs.data[0].capacity);
	}
	drop(&b);
	free(src);
	src = program("f(x, y) = in(x / 2, y / 2);", 64, 64);
	build(&b, src, &pub);
	if (CHECK(b.ok, "upsample maps")) {
		const UbStmt *in = &b.u.stmts.data[0];
		CHECK(in->rate[0] == 2 && in->rate[1] == 2 && in->stride[0] == 2 && in->stride[1] == 128,
		      "the input runs at half rate: strides %lld %lld", (long long)in->stride[0], (long long)in->stride[1]);
		const UbPort *r = &b.u.ports.data[1];
		CHECK(!r->write && r->index[0].div == 2 && r->index[0].coef[0] == 1, "access in[floor(x/2), ...]");
	}
	drop(&b);
	free(src);
}

int main(void)
{
	if (!load_design("cgra_4x4", &pub) || !load_design("cgra_8x8_mac_dp", &dp) || !pub.mem || !dp.mem) {
		printf("FAIL the collateral of cgra_4x4 or cgra_8x8_mac_dp is missing\nunified buffers: 0 passed, 1 failed\n");
		return 1;
	}
	static const TestCase tests[] = {
		{ "extraction", test_extraction },
		{ "shift registers and banks", test_shift_registers_and_banks },
	};
	int r = check_run("unified buffer unit tests", tests, COUNT(tests));
	coll_free(&pub);
	coll_free(&dp);
	return r;
}
