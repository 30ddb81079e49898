/* peak_pattern.c - see peak_pattern.h. A candidate operation matches a
 * subtree when its normal form equals the subtree's with its inputs bound to
 * subtrees (commutative operands in either order) and its params bound to the
 * target's params. The largest match wins; ties go to the candidate whose
 * bindings keep the target's input order, then to the earlier operation. */
#include "peak_pattern.h"

#include <stdio.h>
#include <string.h>

#define MAX_BIND 16

typedef struct Match {
	const PeakSpec *p;        /* candidate */
	const PeakSpec *t;        /* target */
	int in[MAX_BIND], par[MAX_BIND];  /* candidate leaf -> target node, or -1 */
} Match;

static int bind(int *slot, int node)
{
	if (*slot >= 0)
		return *slot == node;
	*slot = node;
	return 1;
}

static int match(Match *m, int pn, int tn)
{
	const NfNode *p = nf_node(&m->p->g, pn), *t = nf_node(&m->t->g, tn);
	if (p->width != t->width)
		return 0;
	if (p->op == NF_INPUT)
		return p->lo < MAX_BIND && bind(&m->in[p->lo], tn);
	if (p->op == NF_PARAM)
		return t->op == NF_PARAM && p->lo < MAX_BIND && bind(&m->par[p->lo], tn);
	if (p->op != t->op || p->hi != t->hi || p->lo != t->lo || p->value != t->value)
		return 0;
	if (p->op == NF_CONST)
		return 1;
	Match save = *m;
	if ((p->a < 0 || match(m, p->a, t->a)) && (p->b < 0 || match(m, p->b, t->b)) &&
	    (p->c < 0 || match(m, p->c, t->c)))
		return 1;
	*m = save;
	if (nf_is_commutative(p->op) && match(m, p->a, t->b) && match(m, p->b, t->a))
		return 1;
	*m = save;
	return 0;
}

/* 1 if the candidate's inputs and params are bound to the target's input and
 * param leaves in the target's declared order (inputs before params): the
 * "natural" reading of a match, ugt(a, const(k)) rather than ult(const(k), a). */
static int natural_order(const Match *m)
{
	int last = -1;
	int n = m->p->nports[PEAK_INPUT] + m->p->nports[PEAK_PARAM];
	for (int i = 0; i < n; i++) {
		int sub = i < m->p->nports[PEAK_INPUT] ? m->in[i] : m->par[i - m->p->nports[PEAK_INPUT]];
		if (sub < 0)
			continue;
		const NfNode *t = nf_node(&m->t->g, sub);
		int rank = t->op == NF_INPUT ? t->lo : t->op == NF_PARAM ? 1000 + t->lo : -1;
		if (rank < 0)
			continue;
		if (rank < last)
			return 0;
		last = rank;
	}
	return 1;
}

static int append(char *buf, int n, int *len, const char *s)
{
	int k = snprintf(buf + *len, (size_t)(n > *len ? n - *len : 0), "%s", s);
	*len += k;
	return *len < n;
}

/* Writes the decomposition of target node tn; returns its size or -1. */
static int decompose(PeakSpec *const *ops, int nops, int self, const PeakSpec *t, int tn,
		     char *buf, int n, int *len)
{
	const NfNode *node = nf_node(&t->g, tn);
	if (node->op == NF_INPUT) {
		append(buf, n, len, t->ports[PEAK_INPUT][node->lo].name);
		return 0;
	}
	Match best = { 0 }, cur;
	int best_size = -1, best_natural = 0, found = -1;
	for (int c = 0; c < nops; c++) {
		const PeakSpec *p = ops[c];
		if (c == self || p->nports[PEAK_OUTPUT] != 1 || p->nports[PEAK_INPUT] > MAX_BIND ||
		    p->nports[PEAK_PARAM] > MAX_BIND)
			continue;
		cur = (Match){ p, t, { 0 }, { 0 } };
		memset(cur.in, 0xff, sizeof cur.in);
		memset(cur.par, 0xff, sizeof cur.par);
		if (!match(&cur, p->out_nodes[0], tn))
			continue;
		int size = p->g.nodes.len, natural = natural_order(&cur);
		if (size > best_size || (size == best_size && natural && !best_natural)) {
			best = cur;
			best_size = size;
			best_natural = natural;
			found = c;
		}
	}
	if (found < 0) {
		if (node->op == NF_PARAM) {
			append(buf, n, len, t->ports[PEAK_PARAM][node->lo].name);
			return 0;
		}
		return -1;
	}
	const PeakSpec *p = ops[found];
	append(buf, n, len, p->name);
	append(buf, n, len, "(");
	int size = 1;
	for (int i = 0; i < p->nports[PEAK_INPUT] + p->nports[PEAK_PARAM]; i++) {
		int is_in = i < p->nports[PEAK_INPUT];
		int sub = is_in ? best.in[i] : best.par[i - p->nports[PEAK_INPUT]];
		if (i)
			append(buf, n, len, ", ");
		if (sub < 0)
			return -1; /* a leaf the candidate never reads */
		int k;
		if (sub == tn) {
			/* a candidate that is just a leaf, such as const(k) */
			if (node->op != NF_PARAM)
				return -1;
			append(buf, n, len, t->ports[PEAK_PARAM][node->lo].name);
			k = 0;
		} else {
			k = decompose(ops, nops, -1, t, sub, buf, n, len);
		}
		if (k < 0)
			return -1;
		size += k;
	}
	append(buf, n, len, ")");
	return size;
}

static int primitive(const PeakSpec *s, char *buf, int n)
{
	int len = 0;
	append(buf, n, &len, s->name);
	append(buf, n, &len, "(");
	for (int i = 0; i < s->nports[PEAK_INPUT] + s->nports[PEAK_PARAM]; i++) {
		if (i)
			append(buf, n, &len, ", ");
		append(buf, n, &len,
		       i < s->nports[PEAK_INPUT] ? s->ports[PEAK_INPUT][i].name
						 : s->ports[PEAK_PARAM][i - s->nports[PEAK_INPUT]].name);
	}
	append(buf, n, &len, ")");
	return 1;
}

int peak_pattern(PeakSpec *const *ops, int nops, int k, char *buf, int n)
{
	const PeakSpec *t = ops[k];
	if (t->nports[PEAK_OUTPUT] != 1)
		return 0;
	int len = 0;
	int size = decompose(ops, nops, k, t, t->out_nodes[0], buf, n, &len);
	if (size < 1 || len >= n)
		return primitive(t, buf, n);
	return size;
}
