/* dse_random.c - `dse random`: the random chip of a seed, for the property
 * test (scripts/property.sh): a PE spec cut from pe_base's operations and
 * fields (and pe_mac's two 3-input ones), an interconnect spec within the
 * language's ranges that names it, and one line saying what was chosen.
 * Every choice is drawn from one Rng seeded by the seed, in a fixed order,
 * so a seed always gives the same bytes; the register pattern's numbers are
 * drawn even when it is switched off, so that switching it off changes
 * nothing else of the chip. */
#define _DEFAULT_SOURCE
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../common/rng.h"
#include "../common/util.h"
#include "dse.h"

/* An operation of the PE's ALU or condition unit: its member name, its delay
 * (pe_base.yaml's), and what it computes of the operands a, b, c, d0. */
typedef struct Op {
	const char *name;
	const char *delay;
	const char *expr;
	int three;          /* reads c: only on a PE with three 16-bit inputs */
} Op;

static const Op alu_ops[] = {
	{ "add", "0.60", "a + b", 0 },
	{ "sub", "0.62", "a - b", 0 },
	{ "rsub", "0.62", "b - a", 0 },
	{ "abs", "0.65", "abs(a)", 0 },
	{ "absd", "0.95", "umax(a, b) - umin(a, b)", 0 },
	{ "umin", "0.70", "umin(a, b)", 0 },
	{ "umax", "0.70", "umax(a, b)", 0 },
	{ "smin", "0.72", "smin(a, b)", 0 },
	{ "smax", "0.72", "smax(a, b)", 0 },
	{ "mul_lo", "1.20", "a * b", 0 },
	{ "mul_mid", "1.40", "concat(mulhi(a, b)[7:0], (a * b)[15:8])", 0 },
	{ "smul_mid", "1.45", "concat(smulhi(a, b)[7:0], (a * b)[15:8])", 0 },
	{ "umul_hi", "1.40", "mulhi(a, b)", 0 },
	{ "smul_hi", "1.45", "smulhi(a, b)", 0 },
	{ "shl", "0.50", "a << b", 0 },
	{ "lshr", "0.50", "a >> b", 0 },
	{ "ashr", "0.52", "ashr(a, b)", 0 },
	{ "band", "0.30", "a & b", 0 },
	{ "bor", "0.30", "a | b", 0 },
	{ "bxor", "0.32", "a ^ b", 0 },
	{ "sel", "0.30", "b if d0 else a", 0 },
	{ "pass_a", "0.20", "a", 0 },
	{ "mac", "1.60", "a * b + c", 1 },
	{ "add3", "0.95", "a + b + c", 1 },
};
#define NALU (int)(sizeof alu_ops / sizeof alu_ops[0])

/* The comparisons; the LUT is the condition unit's last member when the PE
 * has one (its expression depends on the number of bit inputs). */
static const Op cond_ops[] = {
	{ "eq", "0.45", "a == b", 0 },   { "neq", "0.45", "a != b", 0 },   { "ult", "0.60", "a < b", 0 },
	{ "ule", "0.60", "a <= b", 0 },  { "ugt", "0.60", "a > b", 0 },    { "uge", "0.60", "a >= b", 0 },
	{ "slt", "0.62", "slt(a, b)", 0 }, { "sle", "0.62", "sle(a, b)", 0 }, { "sgt", "0.62", "sgt(a, b)", 0 },
	{ "sge", "0.62", "sge(a, b)", 0 },
};
#define NCOND (int)(sizeof cond_ops / sizeof cond_ops[0])
static const Op lut_op = { "lut", "0.30", NULL, 0 };

typedef struct Pe {
	const Op *alu[NALU];
	int nalu;
	const Op *cond[NCOND + 1];
	int ncond;
	int lut;            /* the condition unit has a LUT of the bit inputs */
	int ndata, nbits;   /* 16-bit inputs (2, 3) and 1-bit inputs (1 to 3) */
	int reg_mode;       /* inputs may come from their input registers */
	int const_mode;     /* ... or from constants of the instruction */
	int reg_out;        /* both outputs can be registered */
} Pe;

typedef struct Chip {
	int cols, rows;
	int t16, t1;
	const char *sb;
	int cb[4], ncb;     /* connection-box tracks; 0: all */
	int sb_regs;
	int reg_cols, reg_rows; /* registers on a pattern of columns, rows, both */
	int reg_every[2], reg_first[2]; /* the columns' pattern, the rows' */
	int mem, mem_every, mem_first;
} Chip;

/* 1 with probability num/den. */
static int chance(Rng *r, int num, int den)
{
	return (int)rng_below(r, (uint64_t)den) < num;
}

/* lo to hi, both included. */
static int between(Rng *r, int lo, int hi)
{
	return lo + (int)rng_below(r, (uint64_t)(hi - lo + 1));
}

/* An array side of 2 to 8 tiles, 3 to 6 three times as likely as the rest. */
static int side(Rng *r)
{
	static const int w[] = { 1, 3, 3, 3, 3, 1, 1 };
	int k = (int)rng_below(r, 15);
	int i = 0;
	while (k >= w[i])
		k -= w[i++];
	return 2 + i;
}

static void shuffle(Rng *r, const Op **v, int n)
{
	for (int i = n - 1; i > 0; i--) {
		int j = (int)rng_below(r, (uint64_t)i + 1);
		const Op *t = v[i];
		v[i] = v[j];
		v[j] = t;
	}
}

/* ---- the choices ---- */

static void choose_pe(Rng *r, Pe *p)
{
	/* one inclusion probability per PE, so that small and rich PEs both
	 * occur; ALU operations are kept more often than comparisons, as proving
	 * that a PE with constant modes cannot do an operation takes rule
	 * synthesis seconds, a comparison a fraction of one */
	static const int keep_alu[] = { 5, 7, 9, 10 }, keep_cond[] = { 3, 5, 7, 9 };
	p->ndata = between(r, 2, 3);
	p->nbits = between(r, 1, 3);
	int k = keep_alu[rng_below(r, 4)];
	p->nalu = 0;
	for (int i = 0; i < NALU; i++) {
		int in = chance(r, k, 10);
		if (i == 0 || (in && (!alu_ops[i].three || p->ndata == 3)))
			p->alu[p->nalu++] = &alu_ops[i];
	}
	shuffle(r, p->alu, p->nalu);  /* the codes are the order: add need not be 0 */
	k = keep_cond[rng_below(r, 4)];
	p->ncond = 0;
	for (int i = 0; i < NCOND; i++)
		if (chance(r, k, 10))
			p->cond[p->ncond++] = &cond_ops[i];
	p->lut = chance(r, 7, 10);
	if (p->lut)
		p->cond[p->ncond++] = &lut_op;
	if (p->ncond == 0)   /* res_p needs a value */
		p->cond[p->ncond++] = &cond_ops[0];
	p->reg_mode = chance(r, 7, 10);
	p->const_mode = chance(r, 9, 10);
	p->reg_out = chance(r, 1, 2);
}

static void choose_chip(Rng *r, Chip *c, int reg_pattern)
{
	static const char *const sbs[] = { "imran", "wilton", "disjoint" };
	c->cols = side(r);
	c->rows = side(r);
	c->t16 = between(r, 1, 4);
	c->t1 = between(r, 1, 3);
	c->sb = sbs[rng_below(r, 3)];
	/* a listed track must exist on both networks */
	int common = c->t16 < c->t1 ? c->t16 : c->t1;
	c->ncb = 0;
	if (chance(r, 1, 2)) {
		for (int t = 0; t < common; t++)
			if (chance(r, 1, 2))
				c->cb[c->ncb++] = t;
		if (c->ncb == 0)
			c->cb[c->ncb++] = (int)rng_below(r, (uint64_t)common);
	}
	c->sb_regs = chance(r, 3, 5);
	/* a pattern names each phase once: first below every; rows count the IO
	 * row as row 0 */
	int pattern = chance(r, 1, 3) && c->sb_regs && reg_pattern;
	int axes = (int)rng_below(r, 5);   /* columns, rows twice as likely as both */
	c->reg_cols = pattern && (axes <= 1 || axes == 4);
	c->reg_rows = pattern && axes >= 2;
	c->reg_every[0] = between(r, 1, c->cols);
	c->reg_first[0] = between(r, 0, c->reg_every[0] - 1);
	c->reg_every[1] = between(r, 1, c->rows + 1);
	c->reg_first[1] = between(r, 0, c->reg_every[1] - 1);
	c->mem = chance(r, 4, 5);
	/* every = 1 from column 0 leaves no PE column: legal, and rare */
	c->mem_every = chance(r, 1, 10) ? 1 : between(r, 2, c->cols < 2 ? 2 : c->cols);
	c->mem_first = between(r, 0, c->cols - 1);
}

/* ---- the PE spec ---- */

/* The assignment of operand x from input port in (its mode field mode, its
 * constant field k, its register reg), as the PE's modes allow. */
static void operand(FILE *f, const Pe *p, const char *x, const char *in, const char *mode, const char *k,
		    const char *reg)
{
	fprintf(f, "  %s = ", x);
	if (p->const_mode)
		fprintf(f, "inst.%s if inst.%s == Mode.const else %s", k, mode, p->reg_mode ? "(" : "");
	if (p->reg_mode)
		fprintf(f, "%s if inst.%s == Mode.reg else ", reg, mode);
	fprintf(f, "%s%s\n", in, p->const_mode && p->reg_mode ? ")" : "");
}

/* An if/elif chain over the members of enum type on field, the last member
 * in the else branch (with the codes no member has). */
static void chain(FILE *f, const char *field, const char *type, const char *out, const Op *const *ops, int n,
		  const char *lut_expr)
{
	for (int i = 0; i < n; i++) {
		const char *e = ops[i]->expr ? ops[i]->expr : lut_expr;
		if (n == 1) {
			fprintf(f, "  %s = %s\n", out, e);
			return;
		}
		if (i < n - 1)
			fprintf(f, "  %s inst.%s == %s.%s:\n", i ? "elif" : "if", field, type, ops[i]->name);
		else
			fprintf(f, "  else:                              # %s, and the unused codes\n", ops[i]->name);
		fprintf(f, "      %s = %s\n", out, e);
	}
}

static void pe_enum(FILE *f, const char *type, const Op *const *ops, int n)
{
	fprintf(f, "  %s: enum {", type);
	for (int i = 0; i < n; i++)
		fprintf(f, "%s%s%s = %d", i ? "," : "", i && i % 8 == 0 ? "\n    " : " ", ops[i]->name, i);
	fputs(" }\n", f);
}

static void pe_fields(FILE *f, const Pe *p)
{
	fputs("instruction:                  # packed LSB-first in this order\n", f);
	fputs("  alu: AluOp\n  cond: CondOp\n", f);
	if (p->lut)
		fprintf(f, "  lut: bits(%d)                # truth table of res_p under cond lut\n", 1 << p->nbits);
	if (p->reg_mode || p->const_mode) {
		for (int i = 0; i < p->ndata; i++)
			fprintf(f, "  mode%d: Mode\n", i);
		for (int i = 0; i < p->nbits; i++)
			fprintf(f, "  modeb%d: Mode\n", i);
	}
	if (p->const_mode) {
		for (int i = 0; i < p->ndata; i++)
			fprintf(f, "  const%d: Data\n", i);
		for (int i = 0; i < p->nbits; i++)
			fprintf(f, "  constb%d: bit\n", i);
	}
	if (p->reg_out)
		fputs("  reg_out: bit                # register both outputs\n", f);
	fputs("inputs:  {", f);
	for (int i = 0; i < p->ndata; i++)
		fprintf(f, "%s data%d: Data", i ? "," : "", i);
	for (int i = 0; i < p->nbits; i++)
		fprintf(f, ", bit%d: bit", i);
	fputs(" }\noutputs: { res: Data, res_p: bit }\n", f);
	if (!p->reg_mode && !p->reg_out)
		return;
	fputs("state:\n", f);
	for (int i = 0; p->reg_mode && i < p->ndata; i++)
		fprintf(f, "  reg%d: Data\n", i);
	for (int i = 0; p->reg_mode && i < p->nbits; i++)
		fprintf(f, "  regb%d: bit\n", i);
	if (p->reg_out)
		fputs("  res_reg: Data\n  res_p_reg: bit\n", f);
}

static void pe_behavior(FILE *f, const Pe *p)
{
	static const char *const data[][5] = {
		{ "a", "data0", "mode0", "const0", "reg0" },
		{ "b", "data1", "mode1", "const1", "reg1" },
		{ "c", "data2", "mode2", "const2", "reg2" },
	};
	static const char *const bits[][5] = {
		{ "d0", "bit0", "modeb0", "constb0", "regb0" },
		{ "d1", "bit1", "modeb1", "constb1", "regb1" },
		{ "d2", "bit2", "modeb2", "constb2", "regb2" },
	};
	fputs("behavior: |\n", f);
	for (int i = 0; i < p->ndata; i++)
		operand(f, p, data[i][0], data[i][1], data[i][2], data[i][3], data[i][4]);
	for (int i = 0; i < p->nbits; i++)
		operand(f, p, bits[i][0], bits[i][1], bits[i][2], bits[i][3], bits[i][4]);
	for (int i = 0; p->reg_mode && i < p->ndata; i++)
		fprintf(f, "  reg%d <= data%d\n", i, i);
	for (int i = 0; p->reg_mode && i < p->nbits; i++)
		fprintf(f, "  regb%d <= bit%d\n", i, i);
	/* the LUT's index: the bit operands, d0 lowest */
	const char *index[] = { "d0", "concat(d1, d0)", "concat(d2, concat(d1, d0))" };
	char lut[64];
	snprintf(lut, sizeof lut, "(inst.lut >> %s)[0]", index[p->nbits - 1]);
	fputs("  # ---- 16-bit ALU\n", f);
	chain(f, "alu", "AluOp", "res", p->alu, p->nalu, NULL);
	fputs("  # ---- 1-bit output\n", f);
	chain(f, "cond", "CondOp", "res_p", p->cond, p->ncond, lut);
	if (p->reg_out)
		fputs("  # ---- output registers\n  if inst.reg_out:\n      res_reg <= res\n      res_p_reg <= res_p\n"
		      "      res = res_reg\n      res_p = res_p_reg\n", f);
}

static char *pe_text(const RandomOpts *o, const Pe *p)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	fprintf(f, "# A random PE of the property test: bin/dse random --seed %" PRIu64 " (scripts/property.sh %" PRIu64
		   "),\n# pe_base.yaml's operations and fields in part.\n", o->seed, o->seed);
	fprintf(f, "pe: rpe_%" PRIu64 "\ntypes:\n  Data: bits(16)\n", o->seed);
	pe_enum(f, "AluOp", p->alu, p->nalu);
	pe_enum(f, "CondOp", p->cond, p->ncond);
	if (p->reg_mode || p->const_mode)
		fprintf(f, "  Mode: enum { direct = 0%s%s }\n", p->reg_mode ? ", reg = 1" : "",
			p->const_mode ? (p->reg_mode ? ", const = 2" : ", const = 1") : "");
	pe_fields(f, p);
	fputs("delay:\n", f);
	for (int i = 0; i < p->nalu; i++)
		fprintf(f, "  %s: %s\n", p->alu[i]->name, p->alu[i]->delay);
	for (int i = 0; i < p->ncond; i++)
		fprintf(f, "  %s: %s\n", p->cond[i]->name, p->cond[i]->delay);
	pe_behavior(f, p);
	fclose(f);
	return text;
}

/* ---- the interconnect spec and the summary ---- */

static char *spec_text(const RandomOpts *o, const Chip *c, const char *mem_rel)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	fprintf(f, "# A random chip of the property test: bin/dse random --seed %" PRIu64 " (scripts/property.sh %" PRIu64
		   ").\n", o->seed, o->seed);
	fprintf(f, "interconnect: prop_%" PRIu64 "\narray: { cols: %d, rows: %d }\ncores:\n  pe:  { spec: pe.yaml }\n",
		o->seed, c->cols, c->rows);
	if (c->mem)
		fprintf(f, "  mem: { spec: %s, columns: { every: %d, first: %d } }\n", mem_rel, c->mem_every,
			c->mem_first);
	fprintf(f, "io: { side: north }\ntracks: { 16: %d, 1: %d }\nswitchbox: %s\n", c->t16, c->t1, c->sb);
	if (c->ncb == 0) {
		fputs("connection_box: { tracks: all }\n", f);
	} else {
		fputs("connection_box: { tracks: [", f);
		for (int i = 0; i < c->ncb; i++)
			fprintf(f, "%s%d", i ? ", " : "", c->cb[i]);
		fputs("] }\n", f);
	}
	fprintf(f, "registers: { switchbox_outputs: %s", c->sb_regs ? "true" : "false");
	if (c->reg_cols)
		fprintf(f, ", columns: { every: %d, first: %d }", c->reg_every[0], c->reg_first[0]);
	if (c->reg_rows)
		fprintf(f, ", rows: { every: %d, first: %d }", c->reg_every[1], c->reg_first[1]);
	fputs(" }\n", f);
	fclose(f);
	return text;
}

static void names(StrBuf *b, const Op *const *ops, int n)
{
	for (int i = 0; i < n; i++)
		sb_printf(b, "%s%s", i ? " " : "", ops[i]->name);
}

static char *summary(const RandomOpts *o, const Pe *p, const Chip *c)
{
	StrBuf b = { 0 };
	sb_printf(&b, "seed %" PRIu64 ": prop_%" PRIu64 " %dx%d, ", o->seed, o->seed, c->cols, c->rows);
	if (c->mem)
		sb_printf(&b, "MEM every %d from column %d, ", c->mem_every, c->mem_first);
	else
		sb_printf(&b, "no MEM, ");
	sb_printf(&b, "tracks 16:%d 1:%d, %s, connection boxes ", c->t16, c->t1, c->sb);
	if (c->ncb == 0)
		sb_printf(&b, "on all tracks");
	for (int i = 0; i < c->ncb; i++)
		sb_printf(&b, "%s%d", i ? "," : "on tracks ", c->cb[i]);
	if (!c->sb_regs)
		sb_printf(&b, ", no switch-box registers");
	else if (!c->reg_cols && !c->reg_rows)
		sb_printf(&b, ", switch-box registers");
	if (c->reg_cols)
		sb_printf(&b, ", switch-box registers on columns every %d from %d", c->reg_every[0], c->reg_first[0]);
	if (c->reg_rows)
		sb_printf(&b, "%s rows every %d from %d", c->reg_cols ? " and" : ", switch-box registers on",
			  c->reg_every[1], c->reg_first[1]);
	sb_printf(&b, "; PE rpe_%" PRIu64 ": %d data and %d bit inputs, alu {", o->seed, p->ndata, p->nbits);
	names(&b, p->alu, p->nalu);
	sb_printf(&b, "}, cond {");
	names(&b, p->cond, p->ncond);
	sb_printf(&b, "}, modes {direct%s%s}, %s output register\n", p->reg_mode ? " reg" : "",
		  p->const_mode ? " const" : "", p->reg_out ? "an" : "no");
	return b.s;
}

/* A path as a YAML value in a flow mapping: as it is when it has letters,
 * digits and / . _ - + only, else in single quotes (a quote doubled); NULL
 * for NULL. */
static const char *yaml_path(Arena *a, const char *path)
{
	if (!path || (dse_path_safe(path) && !strpbrk(path, ",@")))
		return path;
	StrBuf b = { 0 };
	sb_printf(&b, "'");
	for (const char *p = path; *p; p++)
		sb_printf(&b, *p == '\'' ? "''" : "%c", *p);
	sb_printf(&b, "'");
	const char *r = arena_strdup(a, b.s);
	free(b.s);
	return r;
}

int dse_random(const RandomOpts *o, const char *dir)
{
	Rng r;
	rng_seed(&r, o->seed);
	Pe p;
	Chip c;
	choose_pe(&r, &p);
	choose_chip(&r, &c, o->reg_pattern);
	int existed = util_is_dir(dir);
	if (util_mkdir_p(dir) != 0) {
		fprintf(stderr, "dse: error: %s: cannot create the folder\n", dir);
		return 0;
	}
	Arena *a = arena_new();
	const char *mem_rel = c.mem ? yaml_path(a, dse_relative(a, dir, o->mem_spec)) : "";
	if (!mem_rel) {
		fprintf(stderr, "dse: error: %s: cannot find the MEM spec from %s\n", o->mem_spec, dir);
		arena_free(a);
		if (!existed)
			rmdir(dir);
		return 0;
	}
	char *pe = pe_text(o, &p), *spec = spec_text(o, &c, mem_rel), *line = summary(o, &p, &c);
	OutSet *set = outset_new();
	const char *paths[] = { "pe.yaml", "spec.yaml", "seed.txt" };
	const char *texts[] = { pe, spec, line };
	int ok = 1;
	for (int i = 0; i < 3 && ok; i++) {
		char *path = util_path_join(dir, paths[i]);
		FILE *f = outset_open(set, path);
		if (f)
			fputs(texts[i], f);
		ok = f != NULL;
		free(path);
	}
	ok = ok ? outset_commit(set) == 0 : (outset_abort(set), 0);
	if (ok)
		fputs(line, stdout);
	else if (!existed)
		rmdir(dir);     /* the folder made for the files, now empty */
	free(pe);
	free(spec);
	free(line);
	arena_free(a);
	return ok;
}
