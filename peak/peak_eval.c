/* peak_eval.c - see peak_eval.h. */
#include "peak_eval.h"

#include <stdlib.h>
#include <string.h>

#include "../common/bv.h"

void peak_values_init(PeakValues *pv, const PeakSpec *s)
{
	for (int c = 0; c < PEAK_NUM_CLASSES; c++)
		pv->v[c] = xcalloc((size_t)s->nports[c] + 1, sizeof(uint64_t));
	for (int i = 0; i < s->nports[PEAK_STATE]; i++)
		pv->v[PEAK_STATE][i] = s->ports[PEAK_STATE][i].reset;
}

void peak_values_free(PeakValues *pv)
{
	for (int c = 0; c < PEAK_NUM_CLASSES; c++) {
		free(pv->v[c]);
		pv->v[c] = NULL;
	}
}

void peak_eval(const PeakSpec *s, PeakValues *pv, uint64_t *next, uint64_t *scratch)
{
	uint64_t *vals = scratch ? scratch : xmalloc((size_t)(s->g.nodes.len + 1) * sizeof(uint64_t));
	const uint64_t *const leaves[4] = { pv->v[PEAK_INPUT], pv->v[PEAK_STATE], pv->v[PEAK_FIELD],
					    pv->v[PEAK_PARAM] };
	nf_eval(&s->g, vals, leaves);
	for (int i = 0; i < s->nports[PEAK_OUTPUT]; i++)
		pv->v[PEAK_OUTPUT][i] = vals[s->out_nodes[i]];
	for (int i = 0; i < s->nports[PEAK_STATE]; i++)
		next[i] = vals[s->next_nodes[i]];
	if (!scratch)
		free(vals);
}

void peak_pack_inst(const PeakSpec *s, const uint64_t *fields, uint64_t *words)
{
	memset(words, 0, (size_t)BITS_WORDS(s->inst_width ? s->inst_width : 1) * sizeof(uint64_t));
	for (int i = 0; i < s->nports[PEAK_FIELD]; i++) {
		const PeakPort *f = &s->ports[PEAK_FIELD][i];
		bits_set(words, f->offset, f->type.width, fields[i]);
	}
}
