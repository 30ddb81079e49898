/* coll.c - what the compiler needs of a chip (coll.h): what it takes of the
 * manifest and the cores that collateral/chip loads. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "coll.h"

#define COLL_MAX_SMT2 ((size_t)16 << 20) /* bytes of <mem>.smt2, as YAML_READ_MAX for the YAML files */

const CollIrOp coll_ir_ops[] = {
	{ "add", "ab", "" }, { "sub", "ab", "" }, { "mul", "ab", "" }, { "mulmid", "ab", "" },
	{ "smulmid", "ab", "" }, { "umulhi", "ab", "" }, { "smulhi", "ab", "" }, { "and", "ab", "" },
	{ "or", "ab", "" }, { "xor", "ab", "" }, { "not", "a", "" }, { "shl", "ab", "" }, { "lshr", "ab", "" },
	{ "ashr", "ab", "" }, { "eq", "ab", "" }, { "neq", "ab", "" }, { "ult", "ab", "" }, { "ule", "ab", "" },
	{ "ugt", "ab", "" }, { "uge", "ab", "" }, { "slt", "ab", "" }, { "sle", "ab", "" }, { "sgt", "ab", "" },
	{ "sge", "ab", "" }, { "umin", "ab", "" }, { "umax", "ab", "" }, { "smin", "ab", "" }, { "smax", "ab", "" },
	{ "abs", "a", "" }, { "absd", "ab", "" }, { "mux", "abs", "" }, { "const", "", "k" },
	{ "add_const", "a", "k" }, { "sub_const", "a", "k" }, { "rsub_const", "a", "k" }, { "mul_const", "a", "k" },
	{ "shl_const", "a", "k" }, { "lshr_const", "a", "k" }, { "ashr_const", "a", "k" },
	{ "and_const", "a", "k" }, { "or_const", "a", "k" }, { "xor_const", "a", "k" }, { "eq_const", "a", "k" },
	{ "neq_const", "a", "k" }, { "ult_const", "a", "k" }, { "ule_const", "a", "k" }, { "ugt_const", "a", "k" },
	{ "uge_const", "a", "k" }, { "slt_const", "a", "k" }, { "sle_const", "a", "k" }, { "sgt_const", "a", "k" },
	{ "sge_const", "a", "k" }, { "umin_const", "a", "k" }, { "umax_const", "a", "k" },
	{ "smin_const", "a", "k" }, { "smax_const", "a", "k" }, { "and1", "ab", "" }, { "or1", "ab", "" },
	{ "xor1", "ab", "" }, { "not1", "a", "" }, { "mux1", "abs", "" }, { "const1", "", "k" },
	{ "mac", "abc", "" }, { "add3", "abc", "" }, { NULL, NULL, NULL }
};

static const CollIrOp *ir_op(const char *name)
{
	for (int i = 0; coll_ir_ops[i].name; i++)
		if (strcmp(name, coll_ir_ops[i].name) == 0)
			return &coll_ir_ops[i];
	return NULL;
}

/* "a, b" for "ab", "none" for "" (into buf of 32 bytes). */
static const char *letters(const char *names, char *buf)
{
	int n = 0;
	for (int i = 0; names[i] && n < 28; i++)
		n += snprintf(buf + n, 32 - (size_t)n, "%s%c", i ? ", " : "", names[i]);
	return n ? buf : "none";
}

/* 1 if the n bindings b name exactly the one-letter names of names. */
static int binds(const PeBinding *b, int n, const char *names)
{
	if (n != (int)strlen(names))
		return 0;
	for (int i = 0; i < n; i++)
		if (strlen(b[i].ir) != 1 || !strchr(names, b[i].ir[0]))
			return 0;
	return 1;
}

/* A rule for an operation of the compiler, binding its inputs, its params
 * and its output: a rule that does not would map the operation onto an
 * instruction that computes something else. */
static int check_rule(const PeRule *r, const char *rules_path, Diags *d)
{
	const CollIrOp *op = ir_op(r->ir);
	if (!op) {
		diag_error(d, rules_path, r->line, r->col, "a rule for '%s', which is no IR operation of the compiler "
			   "(peak/ir/ops.yaml)", r->ir);
		return 0;
	}
	if (!binds(r->inputs, r->ninputs, op->inputs) || !binds(r->params, r->nparams, op->params) ||
	    r->noutputs != 1 || strcmp(r->outputs[0].ir, "out") != 0) {
		char ins[32], params[32];
		diag_error(d, rules_path, r->line, r->col, "the rule does not bind what IR operation '%s' has, each once: "
			   "inputs %s, params %s, output out (peak/ir/ops.yaml)", r->ir, letters(op->inputs, ins),
			   letters(op->params, params));
		return 0;
	}
	return 1;
}

/* Every operation the rules file names is one of the compiler's: a rule for
 * another would never be used, and says the file was made for another IR. */
static int check_ir_ops(const PeInfo *pe, const char *rules_path, Diags *d)
{
	int ok = 1;
	for (int i = 0; i < pe->nrules; i++)
		ok &= check_rule(&pe->rules[i], rules_path, d);
	for (int i = 0; i < pe->nunsupported; i++)
		if (!ir_op(pe->unsupported[i])) {
			diag_error(d, rules_path, 0, 0, "'%s' is listed as unsupported, but is no IR operation of the "
				   "compiler (peak/ir/ops.yaml)", pe->unsupported[i]);
			ok = 0;
		}
	return ok;
}

/* The word (the widest PE input) and the IR operations of the PE's info and
 * rules files, which collateral/peinfo read and cross-checked. */
static int read_pe(const PeInfo *pe, const char *rules_path, Collateral *c, Diags *d)
{
	if (!check_ir_ops(pe, rules_path, d))
		return 0;
	for (int i = 0; i < pe->ninputs; i++)
		if (pe->inputs[i].width > c->word)
			c->word = pe->inputs[i].width;
	for (int i = 0; i < pe->nrules; i++)
		strmap_put(&c->ops, pe->rules[i].ir, 1);
	for (int i = 0; i < pe->nunsupported; i++)
		strmap_put(&c->ops, pe->unsupported[i], 0);
	return 1;
}

/* The SMT model of the memory tile the manifest names, if any. */
static int read_mem_smt2(const Design *m, Collateral *c, Diags *d)
{
	if (!m->mem.name)
		return 1;
	const char *sp = design_path(m, arena_printf(m->arena, "%s.smt2", m->mem.name));
	c->mem_smt2 = util_read_file_max(sp, NULL, COLL_MAX_SMT2);
	if (!c->mem_smt2)
		diag_error(d, sp, 0, 0, "cannot read the memory tile's SMT model: %s", util_read_why(errno));
	return c->mem_smt2 != NULL;
}

/* The manifest's tiles: one string per row, north (IO) first. */
static void copy_tiles(const Design *m, Collateral *c)
{
	c->rows = m->rows;
	c->cols = m->cols;
	c->tiles = xcalloc((size_t)c->rows + 1, sizeof *c->tiles);
	for (int y = 0; y < c->rows; y++) {
		c->tiles[y] = xcalloc((size_t)c->cols + 1, 1);
		memcpy(c->tiles[y], m->tiles + y * m->cols, (size_t)c->cols);
	}
}

/* What the compiler takes of the chip's manifest and cores. */
static int read_chip(Chip *chip, Collateral *c, Diags *d)
{
	const Design *m = chip->m;
	c->pe = xstrdup(m->pe.name);
	c->rules_file = xasprintf("%s.rules.yaml", m->pe.name);
	c->peinfo = chip->pe_info;
	c->mem = chip->mem_info;
	if (!read_pe(chip->pe_info, design_path(m, c->rules_file), c, d) || !read_mem_smt2(m, c, d))
		return 0;
	copy_tiles(m, c);
	return 1;
}

int coll_load(const char *dir, Collateral *c, Diags *d)
{
	memset(c, 0, sizeof *c);
	strmap_init(&c->ops);
	int loaded, ok = 0;
	c->chip = chip_load(dir, CHIP_CORES, &loaded, d);
	if (c->chip)
		ok = read_chip(c->chip, c, d);
	else if (!loaded) {
		char *path = util_path_join(dir, "design.yaml");
		diag_error(d, path, 0, 0, "no design collateral here (run make rtl DESIGN=...)");
		free(path);
	}
	diags_flush(d);
	return ok;
}

void coll_free(Collateral *c)
{
	strmap_free(&c->ops);
	chip_free(c->chip);
	free(c->pe);
	free(c->rules_file);
	free(c->mem_smt2);
	for (int y = 0; c->tiles && y < c->rows; y++)
		free(c->tiles[y]);
	free(c->tiles);
	memset(c, 0, sizeof *c);
}

int coll_load_interconnect(const Collateral *c, Interconnect *ic, Diags *d)
{
	int ok = ic_load(c->chip->m, ic, d);
	diags_flush(d);
	return ok;
}

int coll_has_op(const Collateral *c, const char *op)
{
	return strmap_get(&c->ops, op, NULL);
}
