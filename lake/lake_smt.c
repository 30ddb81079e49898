/* lake_smt.c - `<mem>.smt2`: the controllers of a memory tile as SMT-LIB 2
 * (lake/COLLATERAL.md, "Semantics"). The configuration registers are free
 * constants; every controller gets functions of its counter values giving the
 * cycle of an operation and its address at each storage end, the number of
 * operations, and the counter values of operation number n. The configuration
 * solver (collateral/memsolve.c) loads the text with Z3's SMT-LIB parser, appends
 * assertions that name these functions and asks Z3 for the registers; a reader
 * can load it with `z3 -smt2` and add queries of their own. */
#include <stdio.h>

#include "lake.h"

/* An affine generator and the name its value function gets. */
typedef struct SmtGen {
	const MemGen *gen;
	const char *ctrl;       /* the controller's name (its max registers) */
	const char *prefix;     /* register prefix: e0_sched, e0_src, e0_dst */
	const char *fn;         /* value function: e0_cycle, e0_src_addr, e0_dst_addr */
} SmtGen;

/* A w-bit literal. */
static void put_lit(FILE *f, unsigned long long v, int w)
{
	fprintf(f, "(_ bv%llu %d)", v, w);
}

/* The counter parameters "(idx0 (_ BitVec cb)) ...". */
static void put_idx_params(const MemInfo *mi, FILE *f)
{
	for (int l = 0; l < mi->dims; l++)
		fprintf(f, "%s(idx%d (_ BitVec %d))", l ? " " : "", l, mi->counter_bits);
}

/* A counter-wide term brought to width w: generators narrower than the
 * counters take the low bits (arithmetic is modulo 2^w), wider ones
 * zero-extend. */
static void put_fit(FILE *f, const char *term, int cb, int w)
{
	if (w == cb)
		fputs(term, f);
	else if (w < cb)
		fprintf(f, "((_ extract %d 0) %s)", w - 1, term);
	else
		fprintf(f, "((_ zero_extend %d) %s)", w - cb, term);
}

static void put_header(const MemInfo *mi, FILE *f)
{
	int cb = mi->counter_bits, wn = mi->dims * cb + 1;
	fprintf(f,
		"; %s.smt2 - the controllers of memory tile '%s' in SMT-LIB 2, written by lake.\n"
		"; Semantics: lake/COLLATERAL.md. %d loop levels (level 0 innermost), %d-bit counters,\n"
		"; %s generators; all arithmetic is modulo 2^width of the value.\n"
		";\n"
		"; The configuration registers are the constants below (names and widths as in\n"
		"; %s.info.yaml). For each controller C:\n"
		";   C_active                 the tile and C are enabled\n"
		";   C_in_domain idx0..       the counter values lie in C's iteration domain\n"
		";   C_cycle idx0..           the cycle in which C fires at those counter values\n"
		";                            (its schedule generator's value)\n"
		";   C_src_addr, C_dst_addr   the address at the source / destination storage port\n"
		";                            (where the end has an address generator; an end whose\n"
		";                            port has one slot and no chaining always uses 0)\n"
		";   C_src_cycle, C_dst_cycle the cycle of the read / write request at a storage end\n"
		";                            (%d bits wide, so that the source latency never wraps)\n"
		";   C_src_hit, C_dst_hit     on a chained SRAM: the high address bits select this tile\n"
		";   C_ext<l>, C_ops          the extent of level l and the number of operations\n"
		";                            (%d-bit: every product of extents fits)\n"
		";   C_idx<l>_of n            counter l at operation number n (n from 0, level 0 fastest)\n"
		";   C_cycle_at n, C_src_addr_at n, C_dst_addr_at n   the same per operation number\n"
		"; The counter values idx<l> are %d-bit vectors.\n",
		mi->name, mi->name, mi->dims, cb, mi->affine == MEM_MULTIPLY ? "multiplier (stride)"
		: "recurrence (delta)", mi->name, cb + 5, wn, cb);
	if (mi->affine == MEM_RECURRENCE)
		fputs("; A recurrence generator adds delta<l> when level l is the lowest that increments;\n"
		      "; its value is start + sum_l stride<l> * idx<l> with the strides\n"
		      ";   C_<g>_stride<l> = delta<l> + sum_{k<l} stride<k> * max<k>\n"
		      "; (the closed form of the recurrence, defined below for each generator g).\n", f);
	fputs(";\n; Example query (z3 -smt2): the cycle of the third operation of controller C:\n"
	      ";   (check-sat) (get-value ((C_cycle_at (_ bv2 N))))  with N the width of C_ops.\n\n",
	      f);
}

static void put_registers(const MemInfo *mi, FILE *f)
{
	fputs("; ---- configuration registers ----\n", f);
	for (int i = 0; i < mi->nregs; i++)
		fprintf(f, "(declare-const %s (_ BitVec %d)) ; %s\n", mi->regs[i].name, mi->regs[i].width,
			mi->regs[i].doc);
}

/* C_ext<l>, C_ops and C_idx<l>_of. */
static void put_domain(const MemInfo *mi, const MemCtrl *c, FILE *f)
{
	int cb = mi->counter_bits, wn = mi->dims * cb + 1;
	fprintf(f, "(define-fun %s_active () Bool (and (= tile_en #b1) (= %s_en #b1)))\n", c->name,
		c->name);
	fprintf(f, "(define-fun %s_in_domain (", c->name);
	put_idx_params(mi, f);
	fputs(") Bool (and true", f);
	for (int l = 0; l < mi->dims; l++)
		fprintf(f, " (bvule idx%d %s_max%d)", l, c->name, l);
	fputs("))\n", f);
	for (int l = 0; l < mi->dims; l++)
		fprintf(f, "(define-fun %s_ext%d () (_ BitVec %d) (bvadd ((_ zero_extend %d) %s_max%d) "
			"(_ bv1 %d)))\n", c->name, l, wn, wn - cb, c->name, l, wn);
	fprintf(f, "(define-fun %s_ops () (_ BitVec %d) (bvmul", c->name, wn);
	for (int l = 0; l < mi->dims; l++)
		fprintf(f, " %s_ext%d", c->name, l);
	fprintf(f, " (_ bv1 %d)))\n", wn);
	/* idx<l> = (n / (ext0 * ... * ext<l-1>)) mod ext<l> */
	for (int l = 0; l < mi->dims; l++) {
		fprintf(f, "(define-fun %s_idx%d_of ((n (_ BitVec %d))) (_ BitVec %d) ((_ extract %d 0) "
			"(bvurem ", c->name, l, wn, cb, cb - 1);
		if (l == 0)
			fputs("n", f);
		else {
			fprintf(f, "(bvudiv n (bvmul (_ bv1 %d)", wn);
			for (int k = 0; k < l; k++)
				fprintf(f, " %s_ext%d", c->name, k);
			fputs("))", f);
		}
		fprintf(f, " %s_ext%d)))\n", c->name, l);
	}
}

/* The strides of a recurrence generator in closed form. */
static void put_strides(const MemInfo *mi, const SmtGen *g, FILE *f)
{
	int cb = mi->counter_bits, w = g->gen->width;
	for (int l = 0; l < mi->dims; l++) {
		fprintf(f, "(define-fun %s_stride%d () (_ BitVec %d) ", g->prefix, l, w);
		if (l == 0) {
			fprintf(f, "%s_delta0)\n", g->prefix);
			continue;
		}
		fprintf(f, "(bvadd %s_delta%d", g->prefix, l);
		for (int k = 0; k < l; k++) {
			char max[96];
			snprintf(max, sizeof max, "%s_max%d", g->ctrl, k);
			fprintf(f, " (bvmul %s_stride%d ", g->prefix, k);
			put_fit(f, max, cb, w);
			fputc(')', f);
		}
		fputs("))\n", f);
	}
}

/* The value function of a generator: start + sum_l stride<l> * idx<l>. */
static void put_value(const MemInfo *mi, const SmtGen *g, FILE *f)
{
	int cb = mi->counter_bits, w = g->gen->width;
	if (mi->affine == MEM_RECURRENCE)
		put_strides(mi, g, f);
	fprintf(f, "(define-fun %s (", g->fn);
	put_idx_params(mi, f);
	fprintf(f, ") (_ BitVec %d) (bvadd %s_start", w, g->prefix);
	for (int l = 0; l < mi->dims; l++) {
		char idx[16];
		snprintf(idx, sizeof idx, "idx%d", l);
		fprintf(f, " (bvmul %s_stride%d ", g->prefix, l);
		put_fit(f, idx, cb, w);
		fputc(')', f);
	}
	fputs("))\n", f);
}

/* fn_at n = fn (C_idx0_of n) ... */
static void put_at(const MemInfo *mi, const SmtGen *g, FILE *f)
{
	fprintf(f, "(define-fun %s_at ((n (_ BitVec %d))) (_ BitVec %d) (%s", g->fn,
		mi->dims * mi->counter_bits + 1, g->gen->width, g->fn);
	for (int l = 0; l < mi->dims; l++)
		fprintf(f, " (%s_idx%d_of n)", g->ctrl, l);
	fputs("))\n", f);
}

static void put_idx_args(const MemInfo *mi, FILE *f)
{
	for (int l = 0; l < mi->dims; l++)
		fprintf(f, " idx%d", l);
}

/* C_<end>_cycle: the cycle of the request at a storage end. A controller with
 * both ends writes `latency` cycles after it reads (the data's delay). */
static void put_end_cycle(const MemInfo *mi, const MemCtrl *c, const char *end, int delay, FILE *f)
{
	int cb = mi->counter_bits;
	fprintf(f, "(define-fun %s_%s_cycle (", c->name, end);
	put_idx_params(mi, f);
	fprintf(f, ") (_ BitVec %d) (bvadd ((_ zero_extend 5) (%s_cycle", cb + 5, c->name);
	put_idx_args(mi, f);
	fputs(")) ", f);
	put_lit(f, (unsigned long long)delay, cb + 5);
	fputs("))\n", f);
}

/* C_<end>_hit: the high bits of a chained address equal chain_id (zero-extended
 * or truncated to their width). */
static void put_hit(const MemInfo *mi, const MemCtrl *c, const char *end, const MemAddrGen *a, FILE *f)
{
	int cb = mi->counter_bits, ab = mi->units[a->end.unit].ports[a->end.port].addr_bits;
	int hw = cb - ab, cw = mi->regs[mi->chain_id].width;
	fprintf(f, "(define-fun %s_%s_hit (", c->name, end);
	put_idx_params(mi, f);
	fprintf(f, ") Bool (= ((_ extract %d %d) (%s_%s_addr", cb - 1, ab, c->name, end);
	put_idx_args(mi, f);
	fputs(")) ", f);
	if (hw == cw)
		fputs("chain_id", f);
	else if (hw < cw)
		fprintf(f, "((_ extract %d 0) chain_id)", hw - 1);
	else
		fprintf(f, "((_ zero_extend %d) chain_id)", hw - cw);
	fputs("))\n", f);
}

static void put_end(const MemInfo *mi, const MemCtrl *c, const char *end, MemEnd e,
		    const MemAddrGen *a, int delay, FILE *f)
{
	if (e.unit < 0)
		return;
	put_end_cycle(mi, c, end, delay, f);
	if (!a)
		return;
	char fn[96], prefix[96];
	snprintf(fn, sizeof fn, "%s_%s_addr", c->name, end);
	snprintf(prefix, sizeof prefix, "%s_%s", c->name, end);
	SmtGen g = { &a->gen, c->name, prefix, fn };
	put_value(mi, &g, f);
	put_at(mi, &g, f);
	if (mi->units[e.unit].chained)
		put_hit(mi, c, end, a, f);
}

static void put_ctrl(const MemInfo *mi, const MemCtrl *c, FILE *f)
{
	const MemEdgeInfo *e = &mi->edges[c->edge];
	fprintf(f, "\n; ---- controller %s: %s -> %s%s ----\n", c->name, mem_end_name(mi, e->src),
		mem_end_name(mi, e->dst), c->side == MEM_SIDE_READ ? " (read side)"
		: c->side == MEM_SIDE_WRITE ? " (write side)" : "");
	put_domain(mi, c, f);
	char fn[96], prefix[96];
	snprintf(fn, sizeof fn, "%s_cycle", c->name);
	snprintf(prefix, sizeof prefix, "%s_sched", c->name);
	SmtGen g = { &c->sched, c->name, prefix, fn };
	put_value(mi, &g, f);
	put_at(mi, &g, f);
	if (c->side != MEM_SIDE_WRITE)
		put_end(mi, c, "src", e->src, c->src, 0, f);
	if (c->side != MEM_SIDE_READ)
		put_end(mi, c, "dst", e->dst, c->dst, c->side == MEM_SIDE_BOTH ? e->latency : 0, f);
}

/* The look-up has no controller: its registers are only named. */
static void put_lookup(const MemInfo *mi, FILE *f)
{
	if (!mem_has_lookup(mi))
		return;
	fprintf(f, "\n; ---- table look-up: %s addresses %s, %s delivers the word ----\n"
		"; Nothing to solve: lookup_en and lookup_wr (feature %d, role SET0) stay 0 in the\n"
		"; configuration solver, which never writes them; a bus write of lookup_wr loads a\n"
		"; table word (lake/COLLATERAL.md, \"Table look-up\").\n", mi->ins[mi->lookup.in], mem_end_name(mi, mi->lookup.port),
		mi->outs[mi->lookup.out], mi->nctrls + 1);
}

void lake_smt2(const MemInfo *mi, FILE *f)
{
	put_header(mi, f);
	put_registers(mi, f);
	for (int c = 0; c < mi->nctrls; c++)
		put_ctrl(mi, &mi->ctrls[c], f);
	put_lookup(mi, f);
}
