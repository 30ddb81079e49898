/* cs_fold.c - a PE's instruction folded into its normal form (cs_impl.h).
 * The instruction fields become constants, operations on constants are
 * computed, an `ite` on a constant becomes its branch, and only what the
 * live outputs (and the state they read, or all state while the array may be
 * configured again) need is kept: a short program over the PE's slots. */
#define _POSIX_C_SOURCE 200809L

#include "cs_impl.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>


/* The value of each instruction field in word inst. */
static uint64_t field_value(const Cs *s, const Pe *p, int f)
{
	const PeInstField *fi = &s->chip->pe_info->fields[f];
	return bits_get(p->inst, fi->offset, fi->width);
}

/* Folds p's instruction into the normal form: constants propagate, an `ite`
 * with a constant condition becomes its branch, and only what the live
 * outputs and the state they read need is kept. Slots: the PE's inputs, its
 * state, then constants and operations. */
void cs_fold(Cs *s, Pe *p)
{
	const PeNf *nf = s->nf;
	const PeInfo *pi = s->chip->pe_info;
	int nn = nf->nnodes, nin = pi->ninputs, nst = nf->nstate;
	int *alias = xmalloc((size_t)(nn + 1) * sizeof(int));   /* node -> representative */
	unsigned char *isk = xcalloc((size_t)nn + 1, 1);
	uint64_t *k = xcalloc((size_t)nn + 1, sizeof(uint64_t));
	for (int i = 0; i < nn; i++) {
		const PnNode *x = &nf->nodes[i];
		alias[i] = i;
		if (x->op == NF_FIELD) {
			isk[i] = 1;
			k[i] = field_value(s, p, x->a) & bv_mask(x->width);
			continue;
		}
		if (x->op == NF_CONST) {
			isk[i] = 1;
			k[i] = x->value;
			continue;
		}
		if (x->op == NF_INPUT || x->op == NF_STATE || x->op == NF_PARAM)
			continue;
		int a = x->a >= 0 ? alias[x->a] : -1, b = x->b >= 0 ? alias[x->b] : -1, c = x->c >= 0 ? alias[x->c] : -1;
		if (x->op == NF_ITE && isk[a]) {
			alias[i] = k[a] ? b : c;
			isk[i] = isk[alias[i]];
			k[i] = k[alias[i]];
			continue;
		}
		if ((a < 0 || isk[a]) && (b < 0 || isk[b]) && (c < 0 || isk[c])) {
			int wa = x->a >= 0 ? nf->nodes[x->a].width : 0, wb = x->b >= 0 ? nf->nodes[x->b].width : 0;
			isk[i] = 1;
			k[i] = nf_op_apply(x->op, x->width, a >= 0 ? k[a] : 0, b >= 0 ? k[b] : 0, c >= 0 ? k[c] : 0,
					   wa, wb, x->hi, x->lo, x->value);
		}
	}
	/* liveness: the live outputs, and the next state of every state
	 * variable a live node reads */
	unsigned char *live = xcalloc((size_t)nn + 1, 1), *st_live = xcalloc((size_t)nst + 1, 1);
	int *stack = xmalloc((size_t)(3 * nn + pi->noutputs + nst + 1) * sizeof(int)), sp = 0;
	for (int o = 0; o < pi->noutputs; o++)
		if (p->live[o])
			stack[sp++] = alias[nf->out[o]];
	/* every state variable, unless the compiled array runs to the end: a
	 * register no output reads now still takes its next value each cycle,
	 * and another instruction may read it later */
	for (int j = 0; j < nst && s->keep_state; j++) {
		st_live[j] = 1;
		stack[sp++] = alias[nf->next[j]];
	}
	while (sp) {
		int i = stack[--sp];
		if (live[i])
			continue;
		live[i] = 1;
		const PnNode *x = &nf->nodes[i];
		if (isk[i])
			continue;
		if (x->op == NF_STATE && !st_live[x->a]) {
			st_live[x->a] = 1;
			stack[sp++] = alias[nf->next[x->a]];
		}
		int ops[3] = { x->a, x->b, x->c };
		for (int j = 0; j < 3 && x->op > NF_CONST; j++)
			if (ops[j] >= 0 && !live[alias[ops[j]]])
				stack[sp++] = alias[ops[j]];
	}
	/* slots and operations, in node order (a topological order) */
	int *slot = xmalloc((size_t)(nn + 1) * sizeof(int));
	int ns = nin + nst;
	int dw = BITS_WORDS(nin + 1);   /* words of an input bitset */
	uint64_t *depn = xcalloc((size_t)(nn + 1) * (size_t)dw, sizeof(uint64_t));
	p->nops = 0;
	memset(p->needs, 0, (size_t)BITS_WORDS(nin + 1) * sizeof(uint64_t));
	for (int i = 0; i < nn; i++) {
		slot[i] = -1;
		if (!live[i] || alias[i] != i)
			continue;
		const PnNode *x = &nf->nodes[i];
		if (isk[i]) {
			slot[i] = ns++;
			continue;
		}
		if (x->op == NF_INPUT) {
			slot[i] = x->a;
			depn[(size_t)i * dw + x->a / 64] |= 1ull << (x->a % 64);
			p->needs[x->a / 64] |= 1ull << (x->a % 64);
			continue;
		}
		if (x->op == NF_STATE) {
			slot[i] = nin + x->a;
			continue;
		}
		slot[i] = ns++;
		int a = x->a >= 0 ? alias[x->a] : -1, b = x->b >= 0 ? alias[x->b] : -1, c = x->c >= 0 ? alias[x->c] : -1;
		if (p->nops == p->cap) {
			p->cap = p->cap ? 2 * p->cap : 32;
			p->ops = xrealloc(p->ops, (size_t)p->cap * sizeof(FOp));
		}
		p->ops[p->nops++] = (FOp){ x->op, x->width, x->a >= 0 ? nf->nodes[x->a].width : 0,
					   x->b >= 0 ? nf->nodes[x->b].width : 0, x->hi, x->lo,
					   slot[i], a >= 0 ? slot[a] : 0, b >= 0 ? slot[b] : 0, c >= 0 ? slot[c] : 0 };
		for (int w = 0; w < dw; w++)
			depn[(size_t)i * dw + w] = (a >= 0 ? depn[(size_t)a * dw + w] : 0) |
						   (b >= 0 ? depn[(size_t)b * dw + w] : 0) |
						   (c >= 0 ? depn[(size_t)c * dw + w] : 0);
	}
	uint64_t *old = p->slot;
	p->slot = xcalloc((size_t)ns + 1, sizeof(uint64_t));
	memcpy(p->slot, old, (size_t)(nin + nst) * sizeof(uint64_t));
	free(old);
	p->nslots = ns;
	for (int i = 0; i < nn; i++)
		if (slot[i] >= nin + nst && isk[i] && alias[i] == i)
			p->slot[slot[i]] = k[i];
	for (int o = 0; o < pi->noutputs; o++) {
		int r = alias[nf->out[o]];
		p->out_slot[o] = p->live[o] ? slot[r] : -1;
		for (int w = 0; w < dw; w++)
			p->deps[(size_t)o * dw + w] = p->live[o] ? depn[(size_t)r * dw + w] : 0;
	}
	for (int j = 0; j < nst; j++)
		p->next_slot[j] = st_live[j] ? slot[alias[nf->next[j]]] : -1;
	p->folded = 1;
	free(alias);
	free(isk);
	free(k);
	free(live);
	free(st_live);
	free(stack);
	free(slot);
	free(depn);
}

void cs_run_pe(Pe *p)
{
	uint64_t *sl = p->slot;
	for (int i = 0; i < p->nops; i++) {
		const FOp *o = &p->ops[i];
		sl[o->dst] = nf_op_apply(o->op, o->width, sl[o->a], sl[o->b], sl[o->c], o->wa, o->wb, o->hi, o->lo, 0);
	}
}

/* Does the next state differ from the state? */
int cs_pe_changes(const Cs *s, const Pe *p)
{
	int nin = s->chip->pe_info->ninputs;
	for (int j = 0; j < s->nf->nstate; j++)
		if (p->next_slot[j] >= 0 && p->slot[p->next_slot[j]] != p->slot[nin + j])
			return 1;
	return 0;
}

void cs_pe_clock(const Cs *s, Pe *p)
{
	int nin = s->chip->pe_info->ninputs, nst = s->nf->nstate;
	uint64_t next[64], *tmp = nst <= 64 ? next : xmalloc((size_t)nst * sizeof(uint64_t));
	for (int j = 0; j < nst; j++)
		tmp[j] = p->next_slot[j] >= 0 ? p->slot[p->next_slot[j]] : p->slot[nin + j];
	memcpy(p->slot + nin, tmp, (size_t)nst * sizeof(uint64_t));
	if (tmp != next)
		free(tmp);
}

