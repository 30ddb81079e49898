/* netlist.c - cells and nets from the mapped buffers and kernels
 * (netlist.h). */
#include <stdlib.h>
#include <string.h>

#include "../../common/arena.h"
#include "../../common/bv.h"
#include "../../common/strmap.h"
#include "netlist.h"

typedef struct Drv {
	int cell;
	const char *port;
	int width;
	int regs;
} Drv;

typedef struct Builder {
	Netlist *n;
	const UbProgram *u;
	const UbMap *m;
	const CMap *cm;
	const Collateral *c;
	Diags *d;
	int pack;
	StrMap net_of;          /* "cell/port" -> net */
	int failed;
} Builder;

static int add_cell(Netlist *n, NlKind kind, const char *name)
{
	NlCell c;
	memset(&c, 0, sizeof c);
	c.kind = kind;
	snprintf(c.name, sizeof c.name, "%s", name);
	c.inst = c.bank = c.rom = c.in_stmt = c.out_stmt = -1;
	c.x = c.y = -1;
	vec_push(&n->cells, c);
	return n->cells.len - 1;
}

static int kernel_index(const Builder *B, const DKernel *k)
{
	return (int)(k - B->u->g->kernels.data);
}

static Drv port_driver(Builder *B, int pi);

/* The read port of statement s that delivers load node v. */
static int read_port(const Builder *B, int s, int v)
{
	vec_foreach(&B->u->ports, pi) {
		const UbPort *p = &B->u->ports.data[pi];
		if (p->stmt == s && !p->write && p->node == v)
			return pi;
	}
	return -1;
}

static Drv pe_driver(const Builder *B, int inst)
{
	const CmInst *in = &B->cm->insts.data[inst];
	const PePort *o = &B->cm->pe->outputs[in->out];
	Drv d = { B->n->pe_of_inst[inst], o->name, o->width, 0 };
	return d;
}

static Drv rom_driver(const Builder *B, int r)
{
	const MemInfo *mi = B->c->mem;
	Drv d = { B->n->mem_of_rom[r], mi->outs[mi->lookup.out], B->u->g->word, 0 };
	return d;
}

/* What delivers node v of kernel k (statement s) to its users. */
static Drv node_driver(Builder *B, int s, int k, int v)
{
	const DNode *dn = &B->u->g->kernels.data[k].nodes.data[v];
	if (dn->kind == DN_ROM)
		return rom_driver(B, B->cm->rom_of[k][v]);
	if (dn->kind != DN_LOAD)
		return pe_driver(B, B->cm->inst_of[k][v]);
	int pi = read_port(B, s, v);
	if (pi < 0)
		ICE("load node %d of %s has no read port", v, B->u->stmts.data[s].name);
	return port_driver(B, pi);
}

/* What drives the value statement s computes or streams in. */
static Drv stmt_driver(Builder *B, int s)
{
	const UbStmt *st = &B->u->stmts.data[s];
	Drv none = { -1, NULL, 0, 0 };
	if (st->input) {
		Drv d = { B->n->io_of_stmt[s], arena_printf(B->n->arena, "io2f_%d", B->u->g->word), B->u->g->word,
			  0 };
		return d;
	}
	int k = kernel_index(B, st->kernel);
	int r = st->kernel->result;
	Drv d;
	if (B->cm->inst_of[k][r] >= 0) {
		d = pe_driver(B, B->cm->inst_of[k][r]);
	} else if (B->cm->rom_of[k][r] >= 0) {
		d = rom_driver(B, B->cm->rom_of[k][r]);
	} else {
		int pi = read_port(B, s, r);
		if (pi < 0) {
			if (!B->failed)
				diag_error(B->d, B->u->L->p->file, st->store->line, st->store->col,
					   "internal: the value of %s has no driver", st->name);
			B->failed = 1;
			return none;
		}
		d = port_driver(B, pi);
	}
	/* the buffers take the kernel's value its extra registers later */
	d.regs += B->cm->extra_out[k];
	return d;
}

/* What delivers read port pi's values, and how many cycles late. */
static Drv port_driver(Builder *B, int pi)
{
	const UbSource *src = &B->m->src[pi];
	Drv d;
	if (src->kind == UB_SRC_WRITE) {
		d = stmt_driver(B, B->u->ports.data[src->write].stmt);
	} else {
		const UbBank *b = &B->m->banks.data[src->bank];
		d.cell = B->n->mem_of_bank[src->bank] + b->cfg.ntiles - 1;
		d.port = B->c->mem->outs[b->cfg.rout[src->out]];
		d.width = B->u->g->word;
		d.regs = 0;
	}
	d.regs += (int)src->regs;
	return d;
}

static NlNet *net_of(Builder *B, Drv d)
{
	char key[96];
	snprintf(key, sizeof key, "%d/%s", d.cell, d.port);
	intptr_t id;
	if (!strmap_get(&B->net_of, key, &id)) {
		NlNet net;
		memset(&net, 0, sizeof net);
		net.name = arena_printf(B->n->arena, "%s.%s", B->n->cells.data[d.cell].name, d.port);
		net.width = d.width;
		net.cell = d.cell;
		net.port = d.port;
		vec_push(&B->n->nets, net);
		id = B->n->nets.len - 1;
		strmap_put(&B->net_of, key, id);
	}
	return &B->n->nets.data[id];
}

static NlSink *connect(Builder *B, Drv d, int cell, const char *port, int extra, NlDemand why, int index)
{
	if (d.cell < 0)
		return NULL;
	NlSink s = { cell, port, d.regs + extra, 0, why, index };
	NlNet *net = net_of(B, d);
	vec_push(&net->sinks, s);
	return &net->sinks.data[net->sinks.len - 1];
}

int nl_rule_input(const PeRule *r, int j)
{
	for (int k = 0; k < r->ninputs; k++)
		if (r->inputs[k].index == j)
			return k;
	return -1;
}

/* 1 if the rule of instance i can read PE input j through the PE's input
 * register. */
static int can_pack(const CMap *cm, int i, int j)
{
	const PeRule *r = cm->insts.data[i].rule;
	int k = nl_rule_input(r, j);
	return k >= 0 && r->registered[k].nsets > 0;
}

/* Packing: the last register before PE input j of instance i becomes the
 * PE's input register when its rule can read the input late. */
static void pack_register(Builder *B, NlSink *s, int i, int j)
{
	if (!B->pack || !s || s->regs < 1 || !can_pack(B->cm, i, j))
		return;
	if (j >= 32)
		ICE("PE input %d cannot be marked late", j);
	s->regs--;
	s->packed = 1;
	B->n->cells.data[s->cell].late |= 1u << j;
	B->n->packed++;
}

/* ---- cells ---- */

/* The IO cells come first: cell k pairs the k-th input and the k-th output
 * stream. */
static void io_cells(Builder *B)
{
	Netlist *n = B->n;
	int nin = 0, nout = 0;
	vec_foreach(&B->u->stmts, s) {
		const UbStmt *st = &B->u->stmts.data[s];
		if (!st->input && !st->output)
			continue;
		int k = st->input ? nin++ : nout++;
		if (k == n->ios) {
			add_cell(n, NL_IO, arena_printf(n->arena, "io%d", k));
			n->ios++;
		}
		n->io_of_stmt[s] = k;
		NlCell *c = &n->cells.data[k];
		*(st->input ? &c->in_stmt : &c->out_stmt) = s;
	}
}

static void mem_cells(Builder *B)
{
	Netlist *n = B->n;
	vec_foreach(&B->m->banks, bi) {
		const UbBank *b = &B->m->banks.data[bi];
		n->mem_of_bank[bi] = n->cells.len;
		for (int t = 0; t < b->cfg.ntiles; t++) {
			const char *name = b->cfg.ntiles == 1
						   ? arena_printf(n->arena, "mem%d", bi)
						   : arena_printf(n->arena, "mem%d_%d", bi, t);
			int c = add_cell(n, NL_MEM, name);
			n->cells.data[c].bank = bi;
			n->cells.data[c].tile = t;
			n->mems++;
		}
	}
}

static void rom_cells(Builder *B)
{
	Netlist *n = B->n;
	vec_foreach(&B->cm->roms, r) {
		const CmRom *rm = &B->cm->roms.data[r];
		int c = add_cell(n, NL_MEM, arena_printf(n->arena, "rom%d_%s", r, B->u->L->p->funcs.data[rm->table].name));
		n->cells.data[c].rom = r;
		n->mem_of_rom[r] = c;
		n->mems++;
	}
}

static void pe_cells(Builder *B)
{
	Netlist *n = B->n;
	vec_foreach(&B->cm->insts, i) {
		const CmInst *in = &B->cm->insts.data[i];
		int c = add_cell(n, NL_PE, arena_printf(n->arena, "pe%d_%s", i, in->rule->ir));
		n->cells.data[c].inst = i;
		n->cells.data[c].rule = in->rule;
		n->cells.data[c].word = in->word;
		n->pe_of_inst[i] = c;
		n->pes++;
	}
}

/* ---- nets ---- */

static int stmt_of_kernel(const Builder *B, int k)
{
	vec_foreach(&B->u->stmts, s) if (B->u->stmts.data[s].kernel == &B->u->g->kernels.data[k]) return s;
	return -1;
}

/* 1 if node v of kernel k is computed by a constant PE (its value never
 * changes: no register count to follow). */
static int constant_node(const Builder *B, int k, int v)
{
	const DNode *dn = &B->u->g->kernels.data[k].nodes.data[v];
	return (dn->kind == DN_OP || dn->kind == DN_CONST) && B->cm->insts.data[B->cm->inst_of[k][v]].constant;
}

static void pe_inputs(Builder *B)
{
	const PeInfo *pe = B->cm->pe;
	vec_foreach(&B->cm->insts, i) {
		const CmInst *in = &B->cm->insts.data[i];
		int s = stmt_of_kernel(B, in->kernel);
		for (int j = 0; j < pe->ninputs; j++) {
			int v = in->in[j];
			if (v < 0)
				continue;
			int constant = constant_node(B, in->kernel, v);
			NlSink *sk = connect(B, node_driver(B, s, in->kernel, v), B->n->pe_of_inst[i], pe->inputs[j].name,
					     cm_input_regs(B->cm, i, j), constant ? NL_FIXED : NL_PE_INPUT,
					     i * pe->ninputs + j);
			pack_register(B, sk, i, j);
		}
	}
}

/* A table look-up's address into its tile's look-up input. */
static void rom_inputs(Builder *B)
{
	const MemInfo *mi = B->c->mem;
	vec_foreach(&B->cm->roms, r) {
		const CmRom *rm = &B->cm->roms.data[r];
		connect(B, node_driver(B, stmt_of_kernel(B, rm->kernel), rm->kernel, rm->addr), B->n->mem_of_rom[r],
			mi->ins[mi->lookup.in], cm_rom_input_regs(B->cm, r),
			constant_node(B, rm->kernel, rm->addr) ? NL_FIXED : NL_ROM_ADDRESS, r);
	}
}

static void mem_inputs(Builder *B)
{
	const MemInfo *mi = B->c->mem;
	vec_foreach(&B->m->banks, bi) {
		const UbBank *b = &B->m->banks.data[bi];
		int first = B->n->mem_of_bank[bi];
		for (int k = 0; k < b->nw; k++) {
			const UbStmt *st = &B->u->stmts.data[B->u->ports.data[b->wport[k]].stmt];
			Drv d = stmt_driver(B, B->u->ports.data[b->wport[k]].stmt);
			for (int t = 0; t < b->cfg.ntiles; t++)
				connect(B, d, first + t, mi->ins[b->cfg.win[k]], 0, st->input ? NL_FIXED : NL_RESULT,
					st->input ? -1 : kernel_index(B, st->kernel));
		}
		for (int t = 1; t < b->cfg.ntiles; t++)
			for (int k = 0; k < b->nr; k++) {
				const char *o = mi->outs[b->cfg.rout[k]];
				Drv dd = { first + t - 1, o, B->u->g->word, 0 };
				connect(B, dd, first + t, arena_printf(B->n->arena, "%s_chain_in", o), 0, NL_FIXED, -1);
				Drv dv = { first + t - 1, arena_printf(B->n->arena, "%s_valid", o), 1, 0 };
				connect(B, dv, first + t, arena_printf(B->n->arena, "%s_chain_valid_in", o), 0, NL_FIXED, -1);
			}
	}
}

static void io_outputs(Builder *B)
{
	vec_foreach(&B->u->stmts, s) if (B->u->stmts.data[s].output)
	{
		Drv d = stmt_driver(B, s);
		connect(B, d, B->n->io_of_stmt[s], arena_printf(B->n->arena, "f2io_%d", B->u->g->word), 0, NL_RESULT,
			kernel_index(B, B->u->stmts.data[s].kernel));
	}
}

int nl_build(Netlist *n, const UbProgram *u, const UbMap *m, const CMap *cm, const Collateral *c, int pack,
	     Diags *d)
{
	memset(n, 0, sizeof *n);
	n->arena = arena_new();
	n->io_of_stmt = xcalloc((size_t)u->stmts.len + 1, sizeof *n->io_of_stmt);
	n->mem_of_bank = xcalloc((size_t)m->banks.len + 1, sizeof *n->mem_of_bank);
	n->pe_of_inst = xcalloc((size_t)cm->insts.len + 1, sizeof *n->pe_of_inst);
	n->mem_of_rom = xcalloc((size_t)cm->roms.len + 1, sizeof *n->mem_of_rom);
	vec_foreach(&u->stmts, s) n->io_of_stmt[s] = -1;
	Builder B = { n, u, m, cm, c, d, pack, { 0 }, 0 };
	strmap_init(&B.net_of);
	io_cells(&B);
	mem_cells(&B);
	rom_cells(&B);
	pe_cells(&B);
	pe_inputs(&B);
	rom_inputs(&B);
	mem_inputs(&B);
	io_outputs(&B);
	strmap_free(&B.net_of);
	return !B.failed;
}

void nl_unpack(Netlist *n, const CMap *cm, int i, int k)
{
	NlSink *s = &n->nets.data[i].sinks.data[k];
	if (!s->packed)
		return;
	s->packed = 0;
	s->regs++;
	n->cells.data[s->cell].late &= ~(1u << (s->index % cm->pe->ninputs));
	n->packed--;
}

void nl_pe_word(const Netlist *n, const CMap *cm, int cell, uint64_t *word)
{
	const NlCell *c = &n->cells.data[cell];
	memcpy(word, c->word, (size_t)BITS_WORDS(cm->pe->inst_width) * sizeof *word);
	for (int j = 0; j < cm->pe->ninputs; j++)
		if (c->late >> j & 1 && !peinfo_register_input(cm->pe, c->rule, nl_rule_input(c->rule, j), word))
			ICE("PE input %d of %s is late but its rule has no input register", j, c->name);
}

void nl_free(Netlist *n)
{
	vec_foreach(&n->nets, i) vec_free(&n->nets.data[i].sinks);
	vec_free(&n->nets);
	vec_free(&n->cells);
	free(n->io_of_stmt);
	free(n->mem_of_bank);
	free(n->pe_of_inst);
	free(n->mem_of_rom);
	if (n->arena)
		arena_free(n->arena);
	memset(n, 0, sizeof *n);
}

void nl_print(const Netlist *n, FILE *f)
{
	fprintf(f, "# netlist: %d PEs, %d MEMs, %d IOs, %d nets, %d registers packed into PE inputs\n", n->pes,
		n->mems, n->ios, n->nets.len, n->packed);
	vec_foreach(&n->nets, i) {
		const NlNet *net = &n->nets.data[i];
		fprintf(f, "net %s (%d bits):", net->name, net->width);
		vec_foreach(&net->sinks, k) {
			const NlSink *s = &net->sinks.data[k];
			fprintf(f, " %s.%s", n->cells.data[s->cell].name, s->port);
			if (s->regs)
				fprintf(f, "+%dr", s->regs);
			if (s->packed)
				fprintf(f, "+pe_reg");
		}
		fputc('\n', f);
	}
}
