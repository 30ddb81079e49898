/* cmap.c - covering the kernel DAGs with the PE's rewrite rules (cmap.h). */
#include <stdlib.h>
#include <string.h>

#include "../../common/bv.h"
#include "backend.h"

/* ---- rule patterns: "add(mul(a, b), c)", "sub(const(k), a)" ---- */

typedef enum { PT_OP, PT_VAR, PT_CONST } PatKind;

#define PAT_MAX 16
#define CM_MAXIN 8

typedef struct PatNode {
	PatKind kind;
	char name[24];          /* operation, variable, or the constant's operation (const, const1) */
	int input;              /* PT_VAR: the rule input it binds */
	int param;              /* PT_CONST: the rule param it fills */
	int kid[3], nkid;
} PatNode;

typedef struct Pattern {
	PatNode n[PAT_MAX];
	int len, root;          /* root < 0: the pattern could not be read (the rule matches by name only) */
} Pattern;

typedef struct Lexer {
	const char *s;
	char tok[24];
} Lexer;

static void lex_next(Lexer *L)
{
	while (*L->s == ' ')
		L->s++;
	size_t n = 0;
	if (*L->s == '(' || *L->s == ')' || *L->s == ',') {
		L->tok[n++] = *L->s++;
	} else {
		while ((*L->s >= 'a' && *L->s <= 'z') || (*L->s >= 'A' && *L->s <= 'Z') ||
		       (*L->s >= '0' && *L->s <= '9') || *L->s == '_')
			if (n + 1 < sizeof L->tok)
				L->tok[n++] = *L->s++;
			else
				L->s++;
	}
	L->tok[n] = 0;
}

static int rule_input(const PeRule *r, const char *name)
{
	for (int i = 0; i < r->ninputs; i++)
		if (!strcmp(r->inputs[i].ir, name))
			return i;
	return -1;
}

static int rule_param(const PeRule *r, const char *name)
{
	for (int i = 0; i < r->nparams; i++)
		if (!strcmp(r->params[i].ir, name))
			return i;
	return -1;
}

/* expr := NAME | NAME '(' expr {',' expr} ')'; const(k) and const1(k) are
 * constants filling param k. Returns the node, -1 on a syntax error. */
static int pat_expr(Pattern *P, Lexer *L, const PeRule *r)
{
	if (!L->tok[0] || P->len >= PAT_MAX)
		return -1;
	PatNode nd = { PT_VAR, "", -1, -1, { -1, -1, -1 }, 0 };
	snprintf(nd.name, sizeof nd.name, "%s", L->tok);
	lex_next(L);
	if (strcmp(L->tok, "(") != 0) {
		nd.input = rule_input(r, nd.name);
		if (nd.input < 0)
			return -1;
		P->n[P->len] = nd;
		return P->len++;
	}
	lex_next(L);
	if (!strcmp(nd.name, "const") || !strcmp(nd.name, "const1")) {
		nd.kind = PT_CONST;
		nd.param = rule_param(r, L->tok);
		lex_next(L);
		if (nd.param < 0 || strcmp(L->tok, ")") != 0)
			return -1;
		lex_next(L);
		P->n[P->len] = nd;
		return P->len++;
	}
	nd.kind = PT_OP;
	for (;;) {
		int k = pat_expr(P, L, r);
		if (k < 0 || nd.nkid == 3)
			return -1;
		nd.kid[nd.nkid++] = k;
		if (!strcmp(L->tok, ")"))
			break;
		if (strcmp(L->tok, ",") != 0)
			return -1;
		lex_next(L);
	}
	lex_next(L);
	if (P->len >= PAT_MAX)
		return -1;
	P->n[P->len] = nd;
	return P->len++;
}

static void pat_parse(Pattern *P, const PeRule *r)
{
	memset(P, 0, sizeof *P);
	Lexer L = { r->pattern ? r->pattern : "", "" };
	lex_next(&L);
	P->root = pat_expr(P, &L, r);
	if (L.tok[0])
		P->root = -1;
}

/* ---- matching ---- */

/* IR operations whose two operands may be exchanged. The IR is the
 * compiler's own (peak/ir/ops.yaml defines it for both sides). */
static int commutative(const char *op)
{
	static const char *const ops[] = { "add", "mul", "and", "or", "xor", "eq", "neq", "umin", "umax",
					   "smin", "smax", "absd", "mulmid", "smulmid", "umulhi", "smulhi",
					   "and1", "or1", "xor1" };
	for (size_t i = 0; i < sizeof ops / sizeof *ops; i++)
		if (!strcmp(op, ops[i]))
			return 1;
	return 0;
}

typedef struct Bind {
	int var[CM_MAXIN];      /* per rule input: the node */
	uint64_t param[CM_MAXIN];
	int pset[CM_MAXIN];
	int cov[PAT_MAX];       /* covered nodes */
	int ncov;
} Bind;

typedef struct Ctx {
	const DKernel *k;
	const int *uses;
	uint64_t mask;          /* the word */
} Ctx;

static int match(const Ctx *C, const Pattern *P, int pi, int n, int root, Bind *b);

static int match_kids(const Ctx *C, const Pattern *P, const PatNode *pn, const DNode *dn, int swap, Bind *b)
{
	for (int j = 0; j < pn->nkid; j++) {
		int from = swap && j < 2 ? 1 - j : j;
		if (!match(C, P, pn->kid[j], dn->in[from], 0, b))
			return 0;
	}
	return 1;
}

/* Pattern node pi against DAG node n; root: n is the match's root (it may
 * have other users). */
static int match(const Ctx *C, const Pattern *P, int pi, int n, int root, Bind *b)
{
	const PatNode *pn = &P->n[pi];
	const DNode *dn = &C->k->nodes.data[n];
	switch (pn->kind) {
	case PT_VAR:
		if (b->var[pn->input] >= 0)
			return b->var[pn->input] == n;
		b->var[pn->input] = n;
		return 1;
	case PT_CONST: {
		if (dn->kind != DN_CONST || strcmp(dn->op, pn->name) != 0)
			return 0;
		uint64_t v = (uint64_t)dn->value & (dn->width == 1 ? 1 : C->mask);
		if (b->pset[pn->param] && b->param[pn->param] != v)
			return 0;
		b->param[pn->param] = v;
		b->pset[pn->param] = 1;
		if (b->ncov < PAT_MAX)
			b->cov[b->ncov++] = n;
		return 1;
	}
	case PT_OP:
		if (dn->kind != DN_OP || strcmp(dn->op, pn->name) != 0 || dn->nin != pn->nkid)
			return 0;
		if (!root && (C->uses[n] != 1 || n == C->k->result))
			return 0;
		if (b->ncov < PAT_MAX)
			b->cov[b->ncov++] = n;
		Bind save = *b;
		if (match_kids(C, P, pn, dn, 0, b))
			return 1;
		if (pn->nkid == 2 && commutative(pn->name)) {
			*b = save;
			return match_kids(C, P, pn, dn, 1, b);
		}
		return 0;
	}
	return 0;
}

static void bind_init(Bind *b)
{
	memset(b, 0, sizeof *b);
	for (int i = 0; i < CM_MAXIN; i++)
		b->var[i] = -1;
}

/* The rule by its IR operation: n's op is r's, operands in order. */
static int match_by_name(const Ctx *C, const PeRule *r, int n, Bind *b)
{
	const DNode *dn = &C->k->nodes.data[n];
	bind_init(b);
	if (dn->kind != DN_OP || r->nparams || strcmp(dn->op, r->ir) != 0 || dn->nin != r->ninputs)
		return 0;
	for (int i = 0; i < dn->nin; i++)
		b->var[i] = dn->in[i];
	b->cov[b->ncov++] = n;
	return 1;
}

/* ---- the cover ---- */

typedef struct Best {
	int rule;               /* -1: none */
	int by_pattern;
	Bind b;
	int pes;
	double delay;
} Best;

static int leaf_pes(const DKernel *k, const int *uses, const Best *best, int v)
{
	const DNode *dn = &k->nodes.data[v];
	if (dn->kind == DN_LOAD || uses[v] != 1)
		return 0;
	return best[v].rule >= 0 ? best[v].pes : 1 << 20;
}

static void consider(const Ctx *C, const PeInfo *pe, const Best *best, int ri, int by_pattern, const Bind *b,
		     Best *cur)
{
	const PeRule *r = &pe->rules[ri];
	for (int i = 0; i < r->ninputs; i++)
		if (b->var[i] < 0)
			return;
	for (int i = 0; i < r->nparams; i++)
		if (!b->pset[i])
			return;
	int pes = 1;
	double delay = 0;
	for (int i = 0; i < r->ninputs; i++) {
		int dup = 0;
		for (int j = 0; j < i; j++)
			dup |= b->var[j] == b->var[i];
		if (!dup)
			pes += leaf_pes(C->k, C->uses, best, b->var[i]);
		if (best[b->var[i]].rule >= 0 && best[b->var[i]].delay > delay)
			delay = best[b->var[i]].delay;
	}
	delay += r->cost;
	if (cur->rule >= 0 && (pes > cur->pes || (pes == cur->pes && delay >= cur->delay)))
		return;
	cur->rule = ri;
	cur->by_pattern = by_pattern;
	cur->b = *b;
	cur->pes = pes;
	cur->delay = delay;
}

static void best_at(const Ctx *C, const PeInfo *pe, const Pattern *pats, Best *best, int n)
{
	Best *cur = &best[n];
	cur->rule = -1;
	const DNode *dn = &C->k->nodes.data[n];
	if (dn->kind != DN_OP && dn->kind != DN_CONST)
		return;
	for (int ri = 0; ri < pe->nrules; ri++) {
		Bind b;
		if (match_by_name(C, &pe->rules[ri], n, &b))
			consider(C, pe, best, ri, 0, &b, cur);
		if (pats[ri].root >= 0) {
			bind_init(&b);
			if (match(C, &pats[ri], pats[ri].root, n, 1, &b))
				consider(C, pe, best, ri, 1, &b, cur);
		}
	}
}

typedef struct Mapper {
	CMap *m;
	const PeInfo *pe;
	const DKernel *k;
	int ki;
	Best *best;
	Diags *d;
	const char *file;
	int failed;
} Mapper;

static int instantiate(Mapper *M, int n);

/* Table look-up n on the memory tile's look-up port: its address, less a
 * constant the index subtracts (the table is then stored that much higher),
 * comes from whatever computes it. */
static void place_rom(Mapper *M, int n)
{
	const DNode *dn = &M->k->nodes.data[n];
	const MemInfo *mi = M->m->mem;
	const char *table = M->m->g->L->p->funcs.data[dn->buffer].name;
	if (!mi || mi->lookup.port.unit < 0) {
		M->failed = 1;
		if (mi)
			diag_error(M->d, M->file, M->k->store->line, M->k->store->col,
				   "the IR operation 'a table look-up (ROM)' of table '%s' has no rule on the PE %s that "
				   "covers it, and the memory tile %s has no look-up port (the Lake spec's `lookup:`)", table,
				   M->pe->name, mi->name);
		else
			diag_error(M->d, M->file, M->k->store->line, M->k->store->col,
				   "the IR operation 'a table look-up (ROM)' of table '%s' has no rule on the PE %s that "
				   "covers it, and the design has no MEM tile to hold the table", table, M->pe->name);
		return;
	}
	const HTable *t = &M->m->g->L->prep.tables[dn->buffer];
	CmRom r = { M->ki, n, dn->buffer, dn->in[0], 0, dn->base, 1, 0 };
	for (int i = 0; i < t->dims; i++)
		r.entries *= t->extent[i];
	if (dn->words)
		r.entries = r.entries - dn->base < dn->words ? r.entries - dn->base : dn->words;
	const DNode *a = &M->k->nodes.data[r.addr];
	if (!dn->words && a->kind == DN_OP && !strcmp(a->op, "sub") && M->k->nodes.data[a->in[1]].kind == DN_CONST &&
	    M->k->nodes.data[a->in[1]].value > 0 && M->k->nodes.data[a->in[1]].value + r.entries <= mi->lookup.words) {
		r.offset = (int)M->k->nodes.data[a->in[1]].value;
		r.addr = a->in[0];
	}
	if (r.entries > mi->lookup.words) {
		M->failed = 1;
		diag_error(M->d, M->file, M->k->store->line, M->k->store->col,
			   "look-up table '%s' has %lld entries; the look-up port of the memory tile %s holds %d words, "
			   "not a power of two, so the table is not split over tiles",
			   table, (long long)r.entries, mi->name, mi->lookup.words);
		return;
	}
	vec_push(&M->m->roms, r);
	M->m->rom_of[M->ki][n] = M->m->roms.len - 1;
	instantiate(M, r.addr);
}

static int instantiate(Mapper *M, int n)
{
	int *of = M->m->inst_of[M->ki];
	if (of[n] >= 0 || M->failed)
		return of[n];
	const DNode *dn = &M->k->nodes.data[n];
	if (dn->kind == DN_LOAD)
		return -1;
	if (dn->kind == DN_ROM) {
		if (M->m->rom_of[M->ki][n] < 0)
			place_rom(M, n);
		return -1;
	}
	const Best *bs = &M->best[n];
	if (bs->rule < 0) {
		M->failed = 1;
		diag_error(M->d, M->file, M->k->store->line, M->k->store->col,
			   "the IR operation '%s' has no rule on the PE %s that covers it", dn->op, M->pe->name);
		return -1;
	}
	const PeRule *r = &M->pe->rules[bs->rule];
	CmInst in = { 0 };
	in.kernel = M->ki;
	in.node = n;
	in.rule = r;
	in.form_pattern = bs->by_pattern;
	in.word = xcalloc((size_t)BITS_WORDS(M->pe->inst_width), sizeof *in.word);
	in.in = xcalloc((size_t)M->pe->ninputs, sizeof *in.in);
	for (int i = 0; i < M->pe->ninputs; i++)
		in.in[i] = -1;
	in.out = r->outputs[0].index;
	in.covered = bs->b.ncov;
	in.constant = r->ninputs == 0;
	for (int i = 0; i < r->ninputs; i++)
		in.in[r->inputs[i].index] = bs->b.var[i];
	M->m->folded += r->nparams;
	if (!peinfo_encode(M->pe, r, bs->b.param, in.word))
		ICE("constant does not fit its field in rule %s", r->ir);
	vec_push(&M->m->insts, in);
	int id = M->m->insts.len - 1;
	of[n] = id;
	for (int i = 0; i < r->ninputs; i++)
		instantiate(M, bs->b.var[i]);
	return id;
}

static int map_kernel(CMap *m, const PeInfo *pe, const Pattern *pats, int ki, Diags *d)
{
	const DKernel *k = &m->g->kernels.data[ki];
	int nn = k->nodes.len;
	int *uses = xcalloc((size_t)nn + 1, sizeof *uses);
	vec_foreach(&k->nodes, i) for (int j = 0; j < k->nodes.data[i].nin; j++) uses[k->nodes.data[i].in[j]]++;
	uses[k->result]++;
	Ctx C = { k, uses, m->g->word >= 64 ? ~0ULL : (1ULL << m->g->word) - 1 };
	Best *best = xcalloc((size_t)nn + 1, sizeof *best);
	for (int n = 0; n < nn; n++)
		best_at(&C, pe, pats, best, n);
	m->inst_of[ki] = xcalloc((size_t)nn + 1, sizeof **m->inst_of);
	m->rom_of[ki] = xcalloc((size_t)nn + 1, sizeof **m->rom_of);
	for (int n = 0; n < nn; n++)
		m->inst_of[ki][n] = m->rom_of[ki][n] = -1;
	Mapper M = { m, pe, k, ki, best, d, m->g->L->p->file, 0 };
	instantiate(&M, k->result);
	free(best);
	free(uses);
	return !M.failed;
}

int cm_map(CMap *m, const DGraph *g, const PeInfo *pe, const MemInfo *mem, Diags *d)
{
	double t0 = util_now();
	memset(m, 0, sizeof *m);
	m->g = g;
	m->pe = pe;
	m->mem = mem;
	Pattern *pats = xcalloc((size_t)pe->nrules + 1, sizeof *pats);
	for (int ri = 0; ri < pe->nrules; ri++)
		pat_parse(&pats[ri], &pe->rules[ri]);
	m->inst_of = xcalloc((size_t)g->kernels.len + 1, sizeof *m->inst_of);
	m->rom_of = xcalloc((size_t)g->kernels.len + 1, sizeof *m->rom_of);
	int ok = 1;
	vec_foreach(&g->kernels, ki) ok &= map_kernel(m, pe, pats, ki, d);
	free(pats);
	m->extra_in = xcalloc((size_t)m->insts.len * (size_t)pe->ninputs + 1, sizeof *m->extra_in);
	m->extra_rom = xcalloc((size_t)m->roms.len + 1, sizeof *m->extra_rom);
	m->extra_out = xcalloc((size_t)g->kernels.len + 1, sizeof *m->extra_out);
	m->seconds = util_now() - t0;
	return ok;
}

void cm_free(CMap *m)
{
	vec_foreach(&m->insts, i) {
		free(m->insts.data[i].word);
		free(m->insts.data[i].in);
	}
	vec_free(&m->insts);
	vec_free(&m->roms);
	if (m->inst_of)
		for (int k = 0; k < m->g->kernels.len; k++) {
			free(m->inst_of[k]);
			free(m->rom_of[k]);
		}
	free(m->inst_of);
	free(m->rom_of);
	free(m->latency);
	free(m->extra_in);
	free(m->extra_rom);
	free(m->extra_out);
	memset(m, 0, sizeof *m);
}

/* ---- pipelining ---- */

typedef struct Stager {
	CMap *m;
	int on;
	char *inst_done, *rom_done;
} Stager;

static int inst_stage(Stager *S, int i);

/* The stage at which node v of kernel k is available: loads 0, a
 * constant -1 (never waited for). */
static int node_stage(Stager *S, int k, int v)
{
	CMap *m = S->m;
	const DNode *dn = &m->g->kernels.data[k].nodes.data[v];
	if (dn->kind == DN_LOAD)
		return 0;
	if (dn->kind == DN_ROM) {
		int r = m->rom_of[k][v];
		CmRom *rm = &m->roms.data[r];
		if (!S->rom_done[r]) {
			int a = node_stage(S, k, rm->addr);
			rm->stage = (a > 0 ? a : 0) + m->extra_rom[r] + m->mem->lookup.latency;
			S->rom_done[r] = 1;
		}
		return rm->stage;
	}
	int i = m->inst_of[k][v];
	return m->insts.data[i].constant ? -1 : inst_stage(S, i);
}

static int inst_stage(Stager *S, int i)
{
	CmInst *in = &S->m->insts.data[i];
	if (S->inst_done[i])
		return in->stage;
	int s = 0, n = S->m->pe->ninputs;
	for (int j = 0; j < n; j++)
		if (in->in[j] >= 0) {
			int sq = node_stage(S, in->kernel, in->in[j]);
			if (sq >= 0)
				sq += S->on + S->m->extra_in[i * n + j];
			s = sq > s ? sq : s;
		}
	in->stage = in->constant ? 0 : s;
	S->inst_done[i] = 1;
	return in->stage;
}

void cm_pipeline(CMap *m, int on)
{
	free(m->latency);
	m->latency = xcalloc((size_t)m->g->kernels.len + 1, sizeof *m->latency);
	m->pipelined = on != 0;
	Stager S = { m, on != 0, xcalloc((size_t)m->insts.len + 1, 1), xcalloc((size_t)m->roms.len + 1, 1) };
	vec_foreach(&m->insts, i) inst_stage(&S, i);
	vec_foreach(&m->roms, r) node_stage(&S, m->roms.data[r].kernel, m->roms.data[r].node);
	vec_foreach(&m->g->kernels, k) {
		int s = node_stage(&S, k, m->g->kernels.data[k].result);
		m->latency[k] = (s > 0 ? s : 0) + m->extra_out[k];
	}
	free(S.inst_done);
	free(S.rom_done);
}

/* The stage of node v after cm_pipeline. */
static int stage_after(const CMap *m, int k, int v)
{
	const DNode *dn = &m->g->kernels.data[k].nodes.data[v];
	if (dn->kind == DN_LOAD)
		return 0;
	if (dn->kind == DN_ROM)
		return m->roms.data[m->rom_of[k][v]].stage;
	const CmInst *q = &m->insts.data[m->inst_of[k][v]];
	return q->constant ? -1 : q->stage;
}

int cm_input_regs(const CMap *m, int i, int j)
{
	const CmInst *in = &m->insts.data[i];
	if (in->in[j] < 0)
		return 0;
	int s = stage_after(m, in->kernel, in->in[j]);
	return s < 0 ? 0 : in->stage - s;
}

int cm_rom_input_regs(const CMap *m, int r)
{
	const CmRom *rm = &m->roms.data[r];
	int s = stage_after(m, rm->kernel, rm->addr);
	return rm->stage - m->mem->lookup.latency - (s < 0 ? 0 : s);
}

/* ---- registers granted to later stages ---- */

static void raise_to(int *have, int want)
{
	if (want > *have)
		*have = want;
}

void cm_grant_registers(CMap *m, const RegRequests *r)
{
	vec_foreach(r, i) {
		const RegRequest *q = &r->data[i];
		if (q->target == REG_PE_INPUT)
			raise_to(&m->extra_in[q->index], q->extra);
		else if (q->target == REG_ROM_ADDRESS)
			raise_to(&m->extra_rom[q->index], q->extra);
		else
			raise_to(&m->extra_out[q->index], q->extra);
	}
}

int cm_extra_registers(const CMap *m)
{
	int n = 0;
	for (int i = 0; i < m->insts.len * m->pe->ninputs; i++)
		n += m->extra_in[i];
	vec_foreach(&m->roms, r) n += m->extra_rom[r];
	vec_foreach(&m->g->kernels, k) n += m->extra_out[k];
	return n;
}

/* ---- output ---- */

static void word_hex(const PeInfo *pe, const uint64_t *w, FILE *f)
{
	int digits = (pe->inst_width + 3) / 4;
	fputs("0x", f);
	for (int i = digits - 1; i >= 0; i--)
		fputc("0123456789abcdef"[(w[i / 16] >> (4 * (i % 16))) & 15], f);
}

void cm_write_json(const CMap *m, FILE *f)
{
	const PeInfo *pe = m->pe;
	fprintf(f, "{\n  \"app\": \"%s\",\n  \"pe\": \"%s\",\n  \"pes\": %d,\n  \"constants_folded\": %d,\n"
		   "  \"kernels\": [", m->g->L->p->file, pe->name, m->insts.len, m->folded);
	vec_foreach(&m->g->kernels, ki) {
		const DKernel *k = &m->g->kernels.data[ki];
		fprintf(f, "%s\n    { \"func\": \"%s\", \"stage\": %d, \"result\": %d, \"pes\": [", ki ? "," : "",
			m->g->L->p->funcs.data[k->store->func].name, k->store->def, k->result);
		int first = 1;
		vec_foreach(&m->insts, i) {
			const CmInst *in = &m->insts.data[i];
			if (in->kernel != ki)
				continue;
			fprintf(f, "%s\n      { \"pe\": %d, \"node\": %d, \"rule\": \"%s\", \"by\": \"%s\", \"word\": \"",
				first ? "" : ",", i, in->node, in->rule->ir, in->form_pattern ? "pattern" : "operation");
			word_hex(pe, in->word, f);
			fputs("\", \"inputs\": {", f);
			int fi = 1;
			for (int j = 0; j < pe->ninputs; j++)
				if (in->in[j] >= 0) {
					const DNode *dn = &k->nodes.data[in->in[j]];
					fprintf(f, "%s\"%s\": ", fi ? " " : ", ", pe->inputs[j].name);
					if (dn->kind == DN_LOAD)
						fprintf(f, "\"load %d\"", in->in[j]);
					else if (dn->kind == DN_ROM)
						fprintf(f, "\"rom %d\"", m->rom_of[ki][in->in[j]]);
					else
						fprintf(f, "\"pe %d\"", m->inst_of[ki][in->in[j]]);
					fi = 0;
				}
			fprintf(f, "%s}, \"output\": \"%s\" }", fi ? "" : " ", pe->outputs[in->out].name);
			first = 0;
		}
		fputs(first ? "]" : "\n    ]", f);
		int any = 0;
		vec_foreach(&m->roms, r) if (m->roms.data[r].kernel == ki)
		{
			const CmRom *rm = &m->roms.data[r];
			const DNode *a = &k->nodes.data[rm->addr];
			fprintf(f, "%s\n      { \"rom\": %d, \"node\": %d, \"table\": \"%s\", \"entries\": %lld, "
				   "\"offset\": %d, \"address\": ", any ? "," : ", \"roms\": [", r, rm->node,
				m->g->L->p->funcs.data[rm->table].name, (long long)rm->entries, rm->offset);
			if (a->kind == DN_LOAD)
				fprintf(f, "\"load %d\" }", rm->addr);
			else if (a->kind == DN_ROM)
				fprintf(f, "\"rom %d\" }", m->rom_of[ki][rm->addr]);
			else
				fprintf(f, "\"pe %d\" }", m->inst_of[ki][rm->addr]);
			any = 1;
		}
		fputs(any ? "\n    ] }" : " }", f);
	}
	fputs(m->g->kernels.len ? "\n  ]\n}\n" : "]\n}\n", f);
}

void cm_print(const CMap *m, FILE *f)
{
	const PeInfo *pe = m->pe;
	fprintf(f, "# compute mapping of %s on %s: %d PEs, %d constants folded, %d table look-ups\n",
		m->g->L->p->file, pe->name, m->insts.len, m->folded, m->roms.len);
	for (int ri = 0; ri < pe->nrules; ri++) {
		int n = 0;
		vec_foreach(&m->insts, i) n += m->insts.data[i].rule == &pe->rules[ri];
		if (n)
			fprintf(f, "%-14s %4d  %s\n", pe->rules[ri].ir, n, pe->rules[ri].pattern);
	}
}
