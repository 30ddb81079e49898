/* test_peak.c - unit tests of PEak: the functional model on the paper's own
 * example (AHA Fig. 4), the semantics of every builtin and operator against C
 * references, SSA lowering (state holds, old state values, merges), constant
 * folding, instruction packing, pattern decomposition, error collection, a
 * differential test of the SMT reading against the functional model, the
 * `.nf` file read back by collateral/penf.h and executed against the
 * functional model, and the derivation and re-checking of rules' registered
 * inputs (register packing). */
#define _POSIX_C_SOURCE 200809L /* open_memstream */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <z3.h>

#include "../../collateral/penf.h"
#include "../../collateral/peinfo.h"
#include "../../common/bv.h"
#include "../../common/rng.h"
#include "../peak_collateral.h"
#include "../peak.h"
#include "../peak_eval.h"
#include "../peak_pattern.h"
#include "../peak_smt.h"
#include "../peak_synth.h"

static int g_pass, g_fail;
static const char *g_test;

static void check(int ok, const char *fmt, ...)
{
	if (ok) {
		g_pass++;
		return;
	}
	g_fail++;
	va_list ap;
	va_start(ap, fmt);
	printf("FAIL %s: ", g_test);
	vprintf(fmt, ap);
	printf("\n");
	va_end(ap);
}

static PeakFile *load_text(const char *text, Diags *d)
{
	return peak_load_string("test.yaml", text, d);
}

static PeakFile *load_path(const char *path)
{
	Diags *d = diags_new(stdout);
	PeakFile *f = peak_load(path, d);
	diags_free(d);
	return f;
}

/* Sets a field (by name, member or number) and an input of a PE value set. */
static void set_port(const PeakSpec *s, PeakValues *pv, int cls, const char *name, uint64_t v)
{
	int k = peak_port_index(s, cls, name);
	if (k < 0) {
		check(0, "no port %s", name);
		return;
	}
	pv->v[cls][k] = v;
}

static uint64_t member(const PeakSpec *s, const char *enum_name, const char *m)
{
	for (int i = 0; i < s->nenums; i++)
		if (strcmp(s->enums[i].name, enum_name) == 0)
			return s->enums[i].codes[peak_enum_member(&s->enums[i], m)];
	check(0, "no enum %s", enum_name);
	return 0;
}

static uint64_t out(const PeakSpec *s, const PeakValues *pv, const char *name)
{
	return pv->v[PEAK_OUTPUT][peak_port_index(s, PEAK_OUTPUT, name)];
}

/* AHA Fig. 4: Add with scale_B gives A + B*C = 2 + 3*5 = 17, flag 0. */
static void test_tiny_fig4(void)
{
	g_test = "tiny Fig. 4";
	PeakFile *f = load_path("peak/specs/tiny.yaml");
	check(f != NULL, "tiny.yaml loads");
	if (!f)
		return;
	const PeakSpec *s = f->specs[0];
	PeakValues pv;
	uint64_t next[2];
	peak_values_init(&pv, s);
	set_port(s, &pv, PEAK_FIELD, "op", member(s, "Opcode", "Add"));
	set_port(s, &pv, PEAK_FIELD, "scale_B", 1);
	set_port(s, &pv, PEAK_INPUT, "A", 2);
	set_port(s, &pv, PEAK_INPUT, "B", 3);
	set_port(s, &pv, PEAK_INPUT, "C", 5);
	peak_eval(s, &pv, next, NULL);
	check(out(s, &pv, "res") == 17 && out(s, &pv, "flag") == 0, "res %llu flag %llu",
	      (unsigned long long)out(s, &pv, "res"), (unsigned long long)out(s, &pv, "flag"));
	/* And with invert_A: ~A & B; flag = res == 0 */
	set_port(s, &pv, PEAK_FIELD, "op", member(s, "Opcode", "And"));
	set_port(s, &pv, PEAK_FIELD, "scale_B", 0);
	set_port(s, &pv, PEAK_FIELD, "invert_A", 1);
	set_port(s, &pv, PEAK_INPUT, "A", 0x00ff);
	set_port(s, &pv, PEAK_INPUT, "B", 0x0f0f);
	peak_eval(s, &pv, next, NULL);
	check(out(s, &pv, "res") == 0x0f00 && out(s, &pv, "flag") == 0, "~A & B");
	set_port(s, &pv, PEAK_INPUT, "B", 0x000f);
	peak_eval(s, &pv, next, NULL);
	check(out(s, &pv, "flag") == 1, "flag of a zero result");
	/* adc carry: 0xffff + 1 + c_in */
	set_port(s, &pv, PEAK_FIELD, "op", member(s, "Opcode", "Add"));
	set_port(s, &pv, PEAK_FIELD, "invert_A", 0);
	set_port(s, &pv, PEAK_INPUT, "A", 0xffff);
	set_port(s, &pv, PEAK_INPUT, "B", 0);
	set_port(s, &pv, PEAK_INPUT, "c_in", 1);
	peak_eval(s, &pv, next, NULL);
	check(out(s, &pv, "res") == 0 && out(s, &pv, "flag") == 1, "carry out of 0xffff + 0 + 1");
	/* reg_out: the output is last cycle's value; the register takes this one's */
	set_port(s, &pv, PEAK_FIELD, "reg_out", 1);
	pv.v[PEAK_STATE][0] = 1234;
	peak_eval(s, &pv, next, NULL);
	check(out(s, &pv, "res") == 1234 && next[0] == 0 && next[1] == 1, "registered output");
	set_port(s, &pv, PEAK_FIELD, "reg_out", 0);
	peak_eval(s, &pv, next, NULL);
	check(next[0] == 1234 && next[1] == pv.v[PEAK_STATE][1], "state holds when not assigned");
	peak_values_free(&pv);
	peak_file_free(f);
}

static const char builtin_ops[] =
	"ir:\n"
	"  - name: b\n"
	"    inputs: { x: bits(16), y: bits(16), c: bit }\n"
	"    outputs: { sum: bits(16), co: bit, dif: bits(16), bo: bit, sx: bits(32), zx: bits(24),\n"
	"               cc: bits(32), ar: bits(16), lt: bit, le: bit, gt: bit, ge: bit,\n"
	"               mn: bits(16), mx: bits(16), un: bits(16), ux: bits(16), ab: bits(16),\n"
	"               hi: bits(16), shi: bits(16), sl: bits(8), bt: bit, sh: bits(16),\n"
	"               sr: bits(16), cmp: bit, cond: bits(16), ng: bits(16), lg: bit }\n"
	"    behavior: |\n"
	"      sum, co = adc(x, y, c)\n"
	"      dif, bo = sbc(x, y, c)\n"
	"      sx = sext(x, 32)\n"
	"      zx = zext(x, 24)\n"
	"      cc = concat(x, y)\n"
	"      ar = ashr(x, y)\n"
	"      lt = slt(x, y)\n"
	"      le = sle(x, y)\n"
	"      gt = sgt(x, y)\n"
	"      ge = sge(x, y)\n"
	"      mn = smin(x, y)\n"
	"      mx = smax(x, y)\n"
	"      un = umin(x, y)\n"
	"      ux = umax(x, y)\n"
	"      ab = abs(x)\n"
	"      hi = mulhi(x, y)\n"
	"      shi = smulhi(x, y)\n"
	"      sl = x[11:4]\n"
	"      bt = x[15]\n"
	"      sh = x << y\n"
	"      sr = x >> y\n"
	"      cmp = x >= y\n"
	"      cond = x - 1 if c and not x == 0 else -y\n"
	"      ng = ~x ^ 0x00ff\n"
	"      lg = c or x == y\n";

#define NUM_BUILTIN_CASES 27

/* One random vector; counts mismatches per case in bad[] and reports the first. */
static void check_builtins_once(const PeakSpec *s, Rng *rng, PeakValues *pv, int *bad)
{
	uint64_t x = rng_bits(rng, 16), y = rng_bits(rng, 16), c = rng_bits(rng, 1);
	if (rng_below(rng, 4) == 0)
		y = rng_below(rng, 20); /* small shift amounts too */
	pv->v[PEAK_INPUT][0] = x, pv->v[PEAK_INPUT][1] = y, pv->v[PEAK_INPUT][2] = c;
	peak_eval(s, pv, NULL, NULL);
	int64_t sx = (int16_t)x, sy = (int16_t)y;
	struct {
		const char *name;
		uint64_t want;
	} cases[] = {
		{ "sum", (x + y + c) & 0xffff },
		{ "co", (x + y + c) >> 16 },
		{ "dif", (x - y - c) & 0xffff },
		{ "bo", x < y + c },
		{ "sx", (uint64_t)sx & 0xffffffff },
		{ "zx", x },
		{ "cc", (x << 16) | y },
		{ "ar", (uint64_t)(y >= 16 ? (sx < 0 ? -1 : 0) : sx >> y) & 0xffff },
		{ "lt", sx < sy },
		{ "le", sx <= sy },
		{ "gt", sx > sy },
		{ "ge", sx >= sy },
		{ "mn", (uint64_t)(sx < sy ? sx : sy) & 0xffff },
		{ "mx", (uint64_t)(sx > sy ? sx : sy) & 0xffff },
		{ "un", x < y ? x : y },
		{ "ux", x > y ? x : y },
		{ "ab", (uint64_t)(sx < 0 ? -sx : sx) & 0xffff },
		{ "hi", (x * y) >> 16 },
		{ "shi", (uint64_t)((sx * sy) >> 16) & 0xffff },
		{ "sl", (x >> 4) & 0xff },
		{ "bt", x >> 15 },
		{ "sh", y >= 16 ? 0 : (x << y) & 0xffff },
		{ "sr", y >= 16 ? 0 : x >> y },
		{ "cmp", x >= y },
		{ "cond", (c && x != 0) ? (x - 1) & 0xffff : (0x10000 - y) & 0xffff },
		{ "ng", (~x ^ 0xff) & 0xffff },
		{ "lg", c || x == y },
	};
	_Static_assert(sizeof cases / sizeof cases[0] == NUM_BUILTIN_CASES, "case count");
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		uint64_t got = out(s, pv, cases[i].name);
		if (got != cases[i].want && bad[i]++ == 0)
			printf("  %s(x=0x%llx, y=0x%llx, c=%llu) = 0x%llx, want 0x%llx\n", cases[i].name,
			       (unsigned long long)x, (unsigned long long)y, (unsigned long long)c,
			       (unsigned long long)got, (unsigned long long)cases[i].want);
	}
}

static void test_builtins(void)
{
	g_test = "builtins and operators";
	Diags *d = diags_new(stdout);
	PeakFile *f = load_text(builtin_ops, d);
	check(f != NULL, "the builtin test op loads");
	if (f) {
		PeakValues pv;
		peak_values_init(&pv, f->specs[0]);
		Rng rng;
		rng_seed(&rng, 11);
		int bad[NUM_BUILTIN_CASES] = { 0 };
		for (int i = 0; i < 2000; i++)
			check_builtins_once(f->specs[0], &rng, &pv, bad);
		for (int i = 0; i < NUM_BUILTIN_CASES; i++)
			check(bad[i] == 0, "output %s wrong on %d of 2000 random vectors",
			      f->specs[0]->ports[PEAK_OUTPUT][i].name, bad[i]);
		peak_values_free(&pv);
	}
	peak_file_free(f);
	diags_free(d);
}

static const char ssa_pe[] =
	"pe: ssa\n"
	"instruction: { sel: bits(2) }\n"
	"inputs: { a: bits(8) }\n"
	"outputs: { o: bits(8), old: bits(8) }\n"
	"state: { r: bits(8), q: bits(8) }\n"
	"reset: { r: 5 }\n"
	"behavior: |\n"
	"  t = a\n"
	"  if inst.sel == 0:\n"
	"      t = a + 1\n"
	"      r <= t\n"
	"  elif inst.sel == 1:\n"
	"      t = a + 2\n"
	"  else:\n"
	"      pass\n"
	"  old = r\n"
	"  q <= old + t\n"
	"  o = t\n";

static void test_ssa(void)
{
	g_test = "SSA lowering";
	Diags *d = diags_new(stdout);
	PeakFile *f = load_text(ssa_pe, d);
	check(f != NULL, "loads");
	if (!f) {
		diags_free(d);
		return;
	}
	const PeakSpec *s = f->specs[0];
	PeakValues pv;
	uint64_t next[2];
	peak_values_init(&pv, s);
	check(pv.v[PEAK_STATE][0] == 5, "reset value of r");
	uint64_t want_o[4] = { 11, 12, 10, 10 };
	for (uint64_t sel = 0; sel < 4; sel++) {
		pv.v[PEAK_FIELD][0] = sel;
		pv.v[PEAK_INPUT][0] = 10;
		pv.v[PEAK_STATE][0] = 7;
		peak_eval(s, &pv, next, NULL);
		check(out(s, &pv, "o") == want_o[sel], "sel %llu: o = %llu", (unsigned long long)sel,
		      (unsigned long long)out(s, &pv, "o"));
		check(out(s, &pv, "old") == 7, "state reads give the old value after <=");
		check(next[0] == (sel == 0 ? 11 : 7), "r's next value holds unless assigned");
		check(next[1] == 7 + want_o[sel], "q's next value");
	}
	check(s->inst_width == 2, "instruction width");
	peak_values_free(&pv);
	peak_file_free(f);
	diags_free(d);
}

static void test_folding(void)
{
	g_test = "constant folding";
	Diags *d = diags_new(stdout);
	PeakFile *f = load_text("ir:\n  - name: k\n    inputs: { a: bits(16) }\n"
				"    outputs: { o: bits(16), z: bits(16) }\n"
				"    behavior: |\n      o = (a & 0) | (3 * 4 + 1)\n      z = a ^ a\n",
				d);
	check(f != NULL, "loads");
	if (f) {
		const PeakSpec *s = f->specs[0];
		const NfNode *o = nf_node(&s->g, s->out_nodes[0]), *z = nf_node(&s->g, s->out_nodes[1]);
		check(o->op == NF_CONST && o->value == 13, "(a & 0) | 13 folds to 13");
		check(z->op == NF_CONST && z->value == 0, "a ^ a folds to 0");
	}
	peak_file_free(f);
	diags_free(d);
}

/* Literals are exact integers that must fit where they land; negative ones
 * fit as two's complement; a literal shift amount may exceed the width. */
static void test_literals(void)
{
	g_test = "literal semantics";
	Diags *d = diags_new(NULL);
	PeakFile *f = load_text("ir:\n  - name: l\n    inputs: { b: bits(16), x: bits(64) }\n"
				"    outputs: { p: bits(16), m: bits(16), s: bits(64), t: bits(16) }\n"
				"    behavior: |\n      p = b + ~5\n      m = -1\n"
				"      s = x >> 0xffffffffffffffff\n      t = b << (1 << 4)\n",
				d);
	check(f != NULL, "exact literals load");
	if (f) {
		const PeakSpec *s = f->specs[0];
		PeakValues pv;
		peak_values_init(&pv, s);
		pv.v[PEAK_INPUT][0] = 100;
		pv.v[PEAK_INPUT][1] = ~0ULL;
		peak_eval(s, &pv, NULL, NULL);
		check(out(s, &pv, "p") == 94, "b + ~5 is b - 6");
		check(out(s, &pv, "m") == 0xffff, "-1 on 16 bits");
		check(out(s, &pv, "s") == 0, "a shift by 2^64-1 gives 0");
		check(out(s, &pv, "t") == 0, "a shift by 16 of 16 bits gives 0");
		peak_values_free(&pv);
	}
	peak_file_free(f);
	const char *bad[] = { "p = b + (0xFFFF + 1)", "p = b + (1 << 100)", "p = b + -32769",
			      "p = b << -1" };
	for (int i = 0; i < 4; i++) {
		char *text = xasprintf("ir:\n  - name: l\n    inputs: { b: bits(16) }\n"
				       "    outputs: { p: bits(16) }\n    behavior: %s\n", bad[i]);
		Diags *e = diags_new(NULL);
		PeakFile *g = load_text(text, e);
		check(g == NULL && diags_errors(e) == 1, "'%s' is rejected", bad[i]);
		peak_file_free(g);
		diags_free(e);
		free(text);
	}
	diags_free(d);
}

static void test_packing(void)
{
	g_test = "instruction layout";
	PeakFile *f = load_path("peak/specs/pe_base.yaml");
	check(f != NULL, "pe_base loads");
	if (!f)
		return;
	const PeakSpec *s = f->specs[0];
	int offset = 0;
	for (int i = 0; i < s->nports[PEAK_FIELD]; i++) {
		check(s->ports[PEAK_FIELD][i].offset == offset, "field %s at %d", s->ports[PEAK_FIELD][i].name,
		      s->ports[PEAK_FIELD][i].offset);
		offset += s->ports[PEAK_FIELD][i].type.width;
	}
	check(s->inst_width == offset && offset > 64, "a %d-bit instruction", s->inst_width);
	uint64_t fields[64] = { 0 }, words[2];
	int k = peak_port_index(s, PEAK_FIELD, "reg_out");
	fields[k] = 1;
	peak_pack_inst(s, fields, words);
	int bit = s->ports[PEAK_FIELD][k].offset;
	check(bits_get(words, bit, 1) == 1 && words[0] == 0 && bits_get(words, 64, bit - 64) == 0,
	      "reg_out packed at bit %d", bit);
	peak_file_free(f);
}

static void test_patterns(void)
{
	g_test = "pattern decomposition";
	PeakFile *f = load_path("peak/ir/ops.yaml");
	check(f != NULL, "ops.yaml loads");
	if (!f)
		return;
	struct {
		const char *op, *want;
		int size;
	} cases[] = {
		{ "mac", "add(mul(a, b), c)", 2 },	  { "add3", "add(add(a, b), c)", 2 },
		{ "add_const", "add(a, const(k))", 2 }, { "ugt_const", "ugt(a, const(k))", 2 },
		{ "add", "add(a, b)", 1 },		  { "const", "const(k)", 1 },
	};
	for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
		int k = -1;
		for (int i = 0; i < f->nspecs; i++)
			if (strcmp(f->specs[i]->name, cases[c].op) == 0)
				k = i;
		char buf[256] = "";
		int size = k >= 0 ? peak_pattern(f->specs, f->nspecs, k, buf, sizeof buf) : -1;
		check(size == cases[c].size && strcmp(buf, cases[c].want) == 0, "%s: %s (size %d)",
		      cases[c].op, buf, size);
	}
	peak_file_free(f);
}

static void test_error_collection(void)
{
	g_test = "several errors in one file";
	Diags *d = diags_new(NULL);
	PeakFile *f = load_text("pe: e\ninstruction: { op: bits(2) }\ninputs: { a: Dta, b: bits(0) }\n"
				"outputs: { o: bits(4) }\nbogus: 1\nbehavior: o = a\n",
				d);
	check(f == NULL, "a spec with errors is rejected");
	check(diags_errors(d) == 3, "three errors reported, got %d", diags_errors(d));
	const char *want[] = { "unknown key 'bogus'", "unknown type 'Dta'", "width 0 is out of range" };
	for (int i = 0; i < 3 && i < diags_count(d); i++) {
		int found = 0;
		for (int j = 0; j < diags_count(d); j++)
			found |= strstr(diags_get(d, j)->msg, want[i]) != NULL;
		check(found, "message '%s'", want[i]);
	}
	for (int j = 0; j < diags_count(d); j++)
		check(diags_get(d, j)->line > 0 && diags_get(d, j)->col > 0, "errors carry positions");
	diags_free(d);
}

/* The SMT reading evaluated on constants must equal the functional model. */
static void smt_vs_model(const PeakSpec *s, Rng *rng, Z3_context ctx)
{
	PeakValues pv;
	peak_values_init(&pv, s);
	uint64_t *next = calloc((size_t)s->nports[PEAK_STATE] + 1, sizeof(uint64_t));
	Z3_ast *leaves[4];
	for (int c = 0; c < 4; c++)
		leaves[c] = calloc((size_t)s->nports[c] + 1, sizeof(Z3_ast));
	int mismatches = 0;
	for (int v = 0; v < 100 && !mismatches; v++) {
		for (int c = 0; c < 4; c++)
			for (int i = 0; i < s->nports[c]; i++) {
				int w = s->ports[c][i].type.width;
				pv.v[c][i] = rng_below(rng, 3) == 0 ? rng_below(rng, (uint64_t)w) : rng_bits(rng, w);
				leaves[c][i] = peak_smt_const(ctx, pv.v[c][i], w);
			}
		peak_eval(s, &pv, next, NULL);
		Z3_ast *const lv[4] = { leaves[0], leaves[1], leaves[2], leaves[3] };
		Z3_ast *t = peak_smt_terms(ctx, s, lv);
		for (int o = 0; o < s->nports[PEAK_OUTPUT]; o++) {
			uint64_t got = 0;
			Z3_get_numeral_uint64(ctx, Z3_simplify(ctx, t[s->out_nodes[o]]), &got);
			if (got != pv.v[PEAK_OUTPUT][o] && mismatches++ == 0)
				printf("  %s output %s: SMT 0x%llx, model 0x%llx\n", s->name,
				       s->ports[PEAK_OUTPUT][o].name, (unsigned long long)got,
				       (unsigned long long)pv.v[PEAK_OUTPUT][o]);
		}
		for (int i = 0; i < s->nports[PEAK_STATE]; i++) {
			uint64_t got = 0;
			Z3_get_numeral_uint64(ctx, Z3_simplify(ctx, t[s->next_nodes[i]]), &got);
			if (got != next[i] && mismatches++ == 0)
				printf("  %s next %s: SMT 0x%llx, model 0x%llx\n", s->name,
				       s->ports[PEAK_STATE][i].name, (unsigned long long)got,
				       (unsigned long long)next[i]);
		}
		free(t);
	}
	check(mismatches == 0, "%s: SMT and functional model agree on 100 random vectors", s->name);
	for (int c = 0; c < 4; c++)
		free(leaves[c]);
	free(next);
	peak_values_free(&pv);
}

static void test_smt_reading(void)
{
	g_test = "SMT reading equals functional model";
	const char *specs[] = { "peak/specs/tiny.yaml", "peak/specs/pe_base.yaml",
				"peak/specs/pe_mac.yaml", "peak/specs/pe_lite.yaml" };
	Z3_config cfg = Z3_mk_config();
	Z3_context ctx = Z3_mk_context(cfg);
	Z3_del_config(cfg);
	Rng rng;
	rng_seed(&rng, 5);
	for (size_t i = 0; i < sizeof specs / sizeof specs[0]; i++) {
		PeakFile *f = load_path(specs[i]);
		check(f != NULL, "%s loads", specs[i]);
		if (f)
			smt_vs_model(f->specs[0], &rng, ctx);
		peak_file_free(f);
	}
	PeakFile *f = load_path("peak/ir/ops.yaml");
	for (int i = 0; f && i < f->nspecs; i++)
		smt_vs_model(f->specs[i], &rng, ctx);
	peak_file_free(f);
	Z3_del_context(ctx);
}

/* ---- the normal form as a simulator reads it (<pe>.nf) ---- */

/* What writer(s, f) writes, as a string (caller frees). */
static char *written(const PeakSpec *s, const char *spec_text, int nf)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	if (nf)
		peak_write_nf(s, f);
	else
		peak_write_info(s, spec_text, f);
	fclose(f);
	return text;
}

/* Executes the file's nodes in order with nf_op_apply, as a simulator does. */
static void run_nf(const PeNf *n, const PeakValues *pv, uint64_t *vals)
{
	for (int i = 0; i < n->nnodes; i++) {
		const PnNode *x = &n->nodes[i];
		if (x->op == NF_INPUT || x->op == NF_STATE || x->op == NF_FIELD) {
			vals[i] = pv->v[x->op][x->a];
			continue;
		}
		vals[i] = nf_op_apply(x->op, x->width, x->a >= 0 ? vals[x->a] : 0, x->b >= 0 ? vals[x->b] : 0,
				      x->c >= 0 ? vals[x->c] : 0, x->a >= 0 ? n->nodes[x->a].width : 0,
				      x->b >= 0 ? n->nodes[x->b].width : 0, x->hi, x->lo, x->value);
	}
}

/* The .nf and the functional model agree on random inputs, fields and state. */
static void nf_vs_model(const PeakSpec *s, const PeNf *n, Rng *rng)
{
	PeakValues pv;
	peak_values_init(&pv, s);
	uint64_t *next = calloc((size_t)s->nports[PEAK_STATE] + 1, sizeof(uint64_t));
	uint64_t *vals = calloc((size_t)n->nnodes + 1, sizeof(uint64_t));
	int mismatches = 0;
	for (int v = 0; v < 200 && !mismatches; v++) {
		for (int c = 0; c < PEAK_PARAM; c++)
			for (int i = 0; i < s->nports[c]; i++)
				pv.v[c][i] = rng_bits(rng, s->ports[c][i].type.width);
		peak_eval(s, &pv, next, NULL);
		run_nf(n, &pv, vals);
		for (int o = 0; o < s->nports[PEAK_OUTPUT]; o++)
			mismatches += vals[n->out[o]] != pv.v[PEAK_OUTPUT][o];
		for (int i = 0; i < s->nports[PEAK_STATE]; i++)
			mismatches += vals[n->next[i]] != next[i];
	}
	check(mismatches == 0, "%s: the .nf and the functional model agree on 200 random vectors", s->name);
	free(vals);
	free(next);
	peak_values_free(&pv);
}

static void test_nf_file(void)
{
	g_test = ".nf read back equals functional model";
	const char *specs[] = { "peak/specs/tiny.yaml", "peak/specs/pe_base.yaml", "peak/specs/pe_mac.yaml",
				"peak/specs/pe_lite.yaml" };
	Rng rng;
	rng_seed(&rng, 11);
	for (size_t i = 0; i < sizeof specs / sizeof specs[0]; i++) {
		PeakFile *f = load_path(specs[i]);
		check(f != NULL, "%s loads", specs[i]);
		if (!f)
			continue;
		const PeakSpec *s = f->specs[0];
		char *info = written(s, f->doc->text, 0), *nf = written(s, NULL, 1), *again = written(s, NULL, 1);
		Diags *d = diags_new(stdout);
		PeInfo *pi = peinfo_load_string("pe.info.yaml", info, NULL, NULL, d);
		PeNf *n = pi ? penf_load_string("pe.nf", nf, pi, d) : NULL;
		check(n != NULL && diags_errors(d) == 0, "%s: its .nf reads back (%d errors)", s->name, diags_errors(d));
		check(strcmp(nf, again) == 0, "%s: the .nf is written the same twice", s->name);
		if (n) {
			check(n->nstate == s->nports[PEAK_STATE] && n->nnodes <= s->g.nodes.len,
			      "%s: every state variable, no more nodes than the graph", s->name);
			for (int k = 0; k < n->nstate; k++)
				check(n->state[k].reset == s->ports[PEAK_STATE][k].reset, "%s: reset of %s", s->name,
				      n->state[k].name);
			nf_vs_model(s, n, &rng);
		}
		penf_free(n);
		peinfo_free(pi);
		diags_free(d);
		free(info), free(nf), free(again);
		peak_file_free(f);
	}
}

/* ---- registered inputs (register packing) ---- */

/* One input register shared by both operands: mb = 1 makes it capture data1
 * instead of data0, so a (ma: 1) and b (mb: 1) are each registered alone but
 * not together; the derivation must drop b, the last of the failing pair. */
static const char shared_reg_pe[] =
	"pe: shared\n"
	"types:\n"
	"  Op: enum { add = 0, sub = 1 }\n"
	"instruction: { op: Op, ma: bit, mb: bit }\n"
	"inputs: { data0: bits(16), data1: bits(16) }\n"
	"outputs: { res: bits(16) }\n"
	"state: { r: bits(16) }\n"
	"behavior: |\n"
	"  r <= data1 if inst.mb else data0\n"
	"  a = r if inst.ma else data0\n"
	"  b = r if inst.mb else data1\n"
	"  res = a + b if inst.op == Op.add else a - b\n";

static const PeakSpec *find_ir(const PeakFile *ops, const char *name)
{
	for (int i = 0; ops && i < ops->nspecs; i++)
		if (strcmp(ops->specs[i]->name, name) == 0)
			return ops->specs[i];
	check(0, "no IR operation %s", name);
	return NULL;
}

/* "f=v" of IR input j's entry ("-" for none, "?" for more than one field). */
static const char *entry_text(const PeakSpec *pe, const PeakRule *r, int j, char *buf, int n)
{
	const PeakRegistered *e = &r->registered[j];
	if (e->n != 1)
		return e->n ? "?" : "-";
	const PeakPort *p = &pe->ports[PEAK_FIELD][e->fields[0]];
	const char *m = NULL;
	for (int k = 0; p->type.enum_id >= 0 && k < pe->enums[p->type.enum_id].n; k++)
		if (pe->enums[p->type.enum_id].codes[k] == e->values[0])
			m = pe->enums[p->type.enum_id].members[k];
	if (m)
		snprintf(buf, (size_t)n, "%s=%s", p->name, m);
	else
		snprintf(buf, (size_t)n, "%s=%llu", p->name, (unsigned long long)e->values[0]);
	return buf;
}

/* Expected entries by PE input: pairs of PE input and entry_text, NULL-ended. */
static const char *const base_regs[] = { "data0", "mode0=reg",	"data1", "mode1=reg",  "data2", "mode2=reg",
					 "bit0",  "modeb0=reg", "bit1",	 "modeb1=reg", "bit2",	"modeb2=reg",
					 NULL };
/* mode0's reg reads data1's register: nothing delays data0, and an output
 * register (reg_out) is no input register, not even for a one-input op */
static const char *const mutant_regs[] = { "data0", "-", "data1", "mode1=reg", "bit0", "modeb0=reg", NULL };
static const char *const no_regs[] = { NULL };
static const char *const shared_regs[] = { "data0", "ma=1", "data1", "-", NULL };

static const char *wanted(const char *const *pairs, const char *pe_input)
{
	for (int i = 0; pairs[i]; i += 2)
		if (strcmp(pairs[i], pe_input) == 0)
			return pairs[i + 1];
	return "-";
}

/* Synthesizes op on pe, derives its registered inputs, compares each IR
 * input's entry with the one expected for its PE input, and re-checks them. */
static void check_registered(const PeakSpec *pe, const PeakFile *ops, const char *op,
			     const char *const *pairs)
{
	const PeakSpec *ir = find_ir(ops, op);
	if (!ir)
		return;
	PeakRule r;
	peak_synth_rule(pe, ir, 11, PEAK_SEARCH_LIMIT, &r);
	check(r.found, "%s: %s has a rule", pe->name, op);
	int n = peak_rule_registers(pe, &r, 11, PEAK_REGISTER_LIMIT), want_n = 0;
	for (int j = 0; r.found && j < ir->nports[PEAK_INPUT]; j++) {
		char buf[64];
		const char *pin = pe->ports[PEAK_INPUT][r.in_bind[j]].name;
		const char *got = entry_text(pe, &r, j, buf, sizeof buf), *want = wanted(pairs, pin);
		want_n += strcmp(want, "-") != 0;
		check(strcmp(got, want) == 0, "%s: %s input %s on %s registered by %s, want %s", pe->name,
		      op, ir->ports[PEAK_INPUT][j].name, pin, got, want);
	}
	check(n == want_n, "%s: %s: %d registered inputs, want %d", pe->name, op, n, want_n);
	char *why = NULL;
	int bad = peak_rule_check_registers(pe, &r, 300, 5, &why);
	check(bad == 0, "%s: %s: the derived entries pass the random re-check (%s)", pe->name, op,
	      why ? why : "");
	free(why);
	why = NULL;
	int proved = peak_rule_prove_registers(pe, &r, &why);
	check(proved, "%s: %s: the derived entries prove again (%s)", pe->name, op, why ? why : "");
	free(why);
	peak_rule_free(&r);
}

static void test_registered_derivation(void)
{
	g_test = "registered inputs: derivation";
	PeakFile *ops = load_path("peak/ir/ops.yaml");
	PeakFile *base = load_path("peak/specs/pe_base.yaml");
	PeakFile *mutant = load_path("peak/tests/specs/pe_reg_mutant.yaml");
	PeakFile *tiny = load_path("peak/specs/tiny.yaml");
	Diags *d = diags_new(stdout);
	PeakFile *shared = load_text(shared_reg_pe, d);
	check(ops && base && mutant && tiny && shared, "the specs load");
	if (ops && base && mutant && tiny && shared) {
		const char *const base_ops[] = { "sub", "mux", "xor1", "mux1", "not", "add_const", "ult" };
		for (size_t i = 0; i < sizeof base_ops / sizeof base_ops[0]; i++)
			check_registered(base->specs[0], ops, base_ops[i], base_regs);
		const char *const mutant_ops[] = { "sub", "not", "mux", "add_const" };
		for (size_t i = 0; i < sizeof mutant_ops / sizeof mutant_ops[0]; i++)
			check_registered(mutant->specs[0], ops, mutant_ops[i], mutant_regs);
		check_registered(tiny->specs[0], ops, "and", no_regs);
		check_registered(shared->specs[0], ops, "sub", shared_regs);
	}
	peak_file_free(ops);
	peak_file_free(base);
	peak_file_free(mutant);
	peak_file_free(tiny);
	peak_file_free(shared);
	diags_free(d);
}

/* Wrong entries are caught by the random re-check and by Z3, naming the
 * input; the derivation is deterministic. */
static void test_registered_recheck(void)
{
	g_test = "registered inputs: re-checks";
	PeakFile *ops = load_path("peak/ir/ops.yaml");
	PeakFile *base = load_path("peak/specs/pe_base.yaml");
	const PeakSpec *ir = find_ir(ops, "add");
	if (!base || !ir) {
		peak_file_free(ops);
		peak_file_free(base);
		return;
	}
	const PeakSpec *pe = base->specs[0];
	PeakRule r, again;
	peak_synth_rule(pe, ir, 3, PEAK_SEARCH_LIMIT, &r);
	peak_synth_rule(pe, ir, 3, PEAK_SEARCH_LIMIT, &again);
	peak_rule_registers(pe, &r, 3, PEAK_REGISTER_LIMIT);
	peak_rule_registers(pe, &again, 3, PEAK_REGISTER_LIMIT);
	int same = 1;
	for (int j = 0; j < ir->nports[PEAK_INPUT]; j++)
		same &= r.registered[j].n == again.registered[j].n &&
			(!r.registered[j].n || (r.registered[j].fields[0] == again.registered[j].fields[0] &&
						r.registered[j].values[0] == again.registered[j].values[0]));
	check(same, "two derivations with one seed agree");
	/* a: { mode<k>: const } reads const<k>, not a's previous value */
	check(r.registered[0].n == 1, "add's a is registered");
	if (r.registered[0].n != 1) {
		peak_rule_free(&r);
		peak_rule_free(&again);
		peak_file_free(ops);
		peak_file_free(base);
		return;
	}
	r.registered[0].values[0] = member(pe, "Mode", "const");
	char want[128], *why = NULL;
	snprintf(want, sizeof want, "registered input 'a' { %s: const } is not read one cycle late: cycle 0",
		 pe->ports[PEAK_FIELD][r.registered[0].fields[0]].name);
	int bad = peak_rule_check_registers(pe, &r, 200, 1, &why);
	check(bad > 0 && why && strstr(why, want), "the random re-check says '%s' (%s)", want,
	      why ? why : "no message");
	free(why);
	why = NULL;
	int proved = peak_rule_prove_registers(pe, &r, &why);
	check(!proved && why && strstr(why, "(Z3): cycle 0"),
	      "Z3 refutes the entry with a counterexample (%s)", why ? why : "no message");
	free(why);
	/* reg_out: 1 delays not's output alike but is no input register */
	const PeakSpec *not_ir = find_ir(ops, "not");
	PeakRule n;
	peak_synth_rule(pe, not_ir, 3, PEAK_SEARCH_LIMIT, &n);
	peak_rule_registers(pe, &n, 3, PEAK_REGISTER_LIMIT);
	n.registered[0].fields[0] = peak_port_index(pe, PEAK_FIELD, "reg_out");
	n.registered[0].values[0] = 1;
	why = NULL;
	bad = peak_rule_check_registers(pe, &n, 200, 1, &why);
	check(bad == 1 && why && strstr(why, "is not read from a state variable"),
	      "an output register is refused as not's input register (%s)", why ? why : "no message");
	free(why);
	/* a solver that gives up proves nothing: no entry at all */
	int starved = peak_rule_registers(pe, &n, 3, 1);
	check(starved == 0 && n.registered[0].n == 0,
	      "with a work limit of 1 unit every proof gives up and no input is registered (%d)", starved);
	peak_rule_free(&n);
	peak_rule_free(&r);
	peak_rule_free(&again);
	peak_file_free(ops);
	peak_file_free(base);
}

int main(void)
{
	test_tiny_fig4();
	test_builtins();
	test_ssa();
	test_folding();
	test_literals();
	test_packing();
	test_patterns();
	test_error_collection();
	test_smt_reading();
	test_nf_file();
	test_registered_derivation();
	test_registered_recheck();
	printf("peak: %d passed, %d failed\n", g_pass, g_fail);
	return g_fail ? 1 : 0;
}
