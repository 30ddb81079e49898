/* verif_model.c - drivers, roots and register depths of a configured graph,
 * and node values from source histories (see verif_model.h). */
#include "verif_model.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/util.h"

VerifModel *verif_model_new(const RGraph *g)
{
	size_t n = (size_t)g->nnodes + 1;
	VerifModel *m = xcalloc(1, sizeof *m);
	m->g = g;
	m->drive = xcalloc(n, sizeof *m->drive);
	m->sel = xcalloc(n, sizeof *m->sel);
	m->pass = xcalloc(n, sizeof *m->pass);
	m->pred = xcalloc(n, sizeof *m->pred);
	m->root = xcalloc(n, sizeof *m->root);
	m->depth = xcalloc(n, sizeof *m->depth);
	m->nchanges = xcalloc(n, sizeof *m->nchanges);
	m->times = xcalloc(n, sizeof *m->times);
	m->values = xcalloc(n, sizeof *m->values);
	return m;
}

void verif_model_free(VerifModel *m)
{
	if (!m)
		return;
	for (int i = 0; i < m->g->nnodes; i++) {
		free(m->times[i]);
		free(m->values[i]);
	}
	free(m->drive);
	free(m->sel);
	free(m->pass);
	free(m->pred);
	free(m->root);
	free(m->depth);
	free(m->nchanges);
	free(m->times);
	free(m->values);
	free(m);
}

void verif_model_drive(VerifModel *m, int n, long t, uint64_t v)
{
	int k = m->nchanges[n];
	ALWAYS(m->drive[n] == VM_SOURCE && (k == 0 || m->times[n][k - 1] <= t));
	if (k && m->times[n][k - 1] == t) {
		m->values[n][k - 1] = v;
		return;
	}
	m->times[n] = xrealloc(m->times[n], (size_t)(k + 1) * sizeof(long));
	m->values[n] = xrealloc(m->values[n], (size_t)(k + 1) * sizeof(uint64_t));
	m->times[n][k] = t;
	m->values[n][k] = v;
	m->nchanges[n]++;
}

/* The node driving n, or -1 for a root (a select past the last input
 * drives 0, like a root of its own). */
static int driver(const VerifModel *m, int n)
{
	const RNode *node = &m->g->nodes[n];
	switch (m->drive[n]) {
	case VM_MUX:
		if (node->nin == 0)
			return -1;
		if (node->nin == 1)
			return node->in[0];
		return m->sel[n] >= 0 && m->sel[n] < node->nin ? node->in[m->sel[n]] : -1;
	case VM_PASS:
		return m->pass[n];
	default:
		return -1;
	}
}

int verif_model_solve(VerifModel *m)
{
	const RGraph *g = m->g;
	char *state = xcalloc((size_t)g->nnodes + 1, 1);     /* 0 new, 1 on the walk, 2 solved */
	int *walk = xcalloc((size_t)g->nnodes + 1, sizeof(int));
	for (int i = 0; i < g->nnodes; i++)
		m->pred[i] = driver(m, i);
	for (int i = 0; i < g->nnodes; i++) {
		int len = 0, n = i;
		while (n >= 0 && state[n] == 0) {
			state[n] = 1;
			walk[len++] = n;
			n = m->pred[n];
		}
		if (n >= 0 && state[n] == 1) {
			fprintf(stderr, "verif: the configured drivers form a cycle through %s\n", g->nodes[n].name);
			free(state);
			free(walk);
			return -1;
		}
		for (int k = len - 1; k >= 0; k--) {
			int w = walk[k], p = m->pred[w];
			m->root[w] = p < 0 ? w : m->root[p];
			m->depth[w] = (p < 0 ? 0 : m->depth[p]) + (p >= 0 && strcmp(g->nodes[w].kind, "reg") == 0);
			state[w] = 2;
		}
	}
	free(state);
	free(walk);
	return 0;
}

uint64_t verif_model_value(const VerifModel *m, int n, long t, int *known)
{
	int r = m->root[n];
	*known = 1;
	if (m->drive[r] == VM_UNKNOWN) {
		*known = 0;
		return 0;
	}
	if (m->drive[r] != VM_SOURCE)
		return 0;       /* VM_ZERO, or a select past the last input */
	long at = t - m->depth[n];
	uint64_t v = 0;
	for (int k = 0; k < m->nchanges[r] && m->times[r][k] <= at; k++)
		v = m->values[r][k];
	return v;
}

int verif_model_max_depth(const VerifModel *m)
{
	int d = 0;
	for (int i = 0; i < m->g->nnodes; i++)
		d = m->depth[i] > d ? m->depth[i] : d;
	return d;
}
