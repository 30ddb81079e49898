/* be_timing.c - static timing of the routed array (be.h): arrival times
 * along each net's routed tree from its driver (a PE's arrival is its latest
 * input plus its rule's delay), registers restarting the clock, a packed PE
 * input's stretch ending at the PE's input register; the longest stretch is
 * the critical path, kept as its chain of PEs and the node it ends at. */
#include <stdlib.h>
#include <string.h>

#include "be.h"

typedef struct Sta {
	double *arr;            /* per cell: arrival at its output (PEs), ns */
	int *pred;              /* per cell: the cell its latest input comes from, or -1 */
	double *at;             /* per graph node, scratch */
	double *in_arr;         /* per cell: latest input arrival so far */
	int *in_pred;
} Sta;

static void note_end(Backend *B, double t, int from_cell, const char *to)
{
	if (t <= B->crit)
		return;
	B->crit = t;
	B->crit_from = from_cell;
	B->crit_to = to;
}

/* One pass over every net: arrival times along its tree from its driver's
 * arrival; registers restart the clock. Returns 1 if a PE's arrival grew. */
static int sta_pass(Backend *B, Sta *S)
{
	const Netlist *n = &B->nl;
	int changed = 0;
	vec_foreach(&n->cells, c) S->in_arr[c] = 0, S->in_pred[c] = -1;
	vec_foreach(&n->nets, i) {
		const NlNet *net = &n->nets.data[i];
		const RtRoute *r = &B->rr.routes[i];
		const NlCell *dc = &n->cells.data[net->cell];
		if (dc->kind == NL_PE && dc->inst >= 0 && B->cm->insts.data[dc->inst].constant)
			continue;       /* a constant's value never changes: no path to time */
		S->at[B->rnets[i].source] = S->arr[net->cell];
		for (int e = 0; e < r->nedges; e++) {
			const RNode *from = &B->g->nodes[r->edges[e].from], *to = &B->g->nodes[r->edges[e].to];
			double base = strcmp(from->kind, "reg") ? S->at[r->edges[e].from] : 0;
			S->at[r->edges[e].to] = base + to->delay;
			if (!strcmp(to->kind, "reg"))
				note_end(B, base, net->cell, to->name);
		}
		vec_foreach(&net->sinks, k) {
			const NlSink *sk = &net->sinks.data[k];
			double t = S->at[B->rnets[i].sinks[k].node];
			if (n->cells.data[sk->cell].kind != NL_PE || sk->packed)
				note_end(B, t, net->cell, B->g->nodes[B->rnets[i].sinks[k].node].name);
			if (sk->packed)
				t = 0;  /* from the PE's input register */
			if (n->cells.data[sk->cell].kind == NL_PE && (t > S->in_arr[sk->cell] || S->in_pred[sk->cell] < 0)) {
				S->in_arr[sk->cell] = t;
				S->in_pred[sk->cell] = sk->regs || sk->packed ? -1 : net->cell;
			}
		}
	}
	vec_foreach(&n->cells, c) if (n->cells.data[c].kind == NL_PE)
	{
		double t = S->in_arr[c] + n->cells.data[c].rule->cost;
		if (t > S->arr[c] + 1e-12) {
			S->arr[c] = t;
			changed = 1;
		}
		S->pred[c] = S->in_pred[c];
	}
	return changed;
}

void be_timing(Backend *B)
{
	double t0 = util_now();
	const Netlist *n = &B->nl;
	Sta S;
	S.arr = xcalloc((size_t)n->cells.len + 1, sizeof *S.arr);
	S.pred = xcalloc((size_t)n->cells.len + 1, sizeof *S.pred);
	S.in_arr = xcalloc((size_t)n->cells.len + 1, sizeof *S.in_arr);
	S.in_pred = xcalloc((size_t)n->cells.len + 1, sizeof *S.in_pred);
	S.at = xcalloc((size_t)B->g->nnodes + 1, sizeof *S.at);
	for (int pass = 0; pass <= n->cells.len && sta_pass(B, &S); pass++)
		;
	B->crit = 0;
	B->crit_from = -1;
	B->crit_to = "";
	sta_pass(B, &S);
	/* the chain of PEs behind the critical endpoint, first to last */
	int chain[64], len = 0;
	for (int cell = B->crit_from; cell >= 0 && len < 64; cell = n->cells.data[cell].kind == NL_PE ? S.pred[cell] : -1)
		chain[len++] = cell;
	StrBuf sb = { 0 };
	for (int i = len - 1; i >= 0; i--)
		sb_printf(&sb, "%s -> ", n->cells.data[chain[i]].name);
	sb_printf(&sb, "%s", B->crit_to);
	snprintf(B->crit_path, sizeof B->crit_path, "%s", sb.s);
	free(sb.s);
	free(S.arr);
	free(S.pred);
	free(S.in_arr);
	free(S.in_pred);
	free(S.at);
	B->t_timing = util_now() - t0;
}
