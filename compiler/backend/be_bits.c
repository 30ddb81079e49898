/* be_bits.c - the bitstream (be.h): every routed edge sets its
 * multiplexer's select, every PE cell its instruction (constants and packed
 * input registers included), every memory cell its solved configuration or
 * its table, all through config.map. */
#include <stdlib.h>
#include <string.h>

#include "../../common/bv.h"
#include "be.h"

static int set_field(Backend *B, Bitstream *bs, const char *target, uint32_t v, Diags *d)
{
	if (v == 0 && configmap_find(B->cfg, target) < 0)
		return 1;
	if (bitstream_set(bs, target, v))
		return 1;
	diag_error(d, B->app, 0, 0, "internal: config.map has no field %s for value %u", target, v);
	return 0;
}

static int pe_bits(Backend *B, Bitstream *bs, const NlCell *c, Diags *d)
{
	const PeInfo *pe = B->cm->pe;
	uint64_t w[BITS_WORDS(PE_MAX_INST_WIDTH)];
	nl_pe_word(&B->nl, B->cm, (int)(c - B->nl.cells.data), w);
	int ok = 1;
	for (int k = 0; 32 * k < pe->inst_width; k++) {
		uint32_t v = (uint32_t)(w[k / 2] >> (32 * (k % 2)));
		char t[64];
		snprintf(t, sizeof t, "x%d_y%d.inst%d", c->x, c->y, k);
		ok &= set_field(B, bs, t, v, d);
	}
	return ok;
}

/* A tile holding a table: running (tile_en) with every controller off, the
 * table loaded word by word through `lookup_wr` after the registers, then
 * the look-up port enabled (lake/COLLATERAL.md, "Table look-up"). */
static int rom_bits(Backend *B, Bitstream *bs, const NlCell *c, Diags *d)
{
	const MemInfo *mi = B->c->mem;
	const CmRom *rm = &B->cm->roms.data[c->rom];
	const HTable *t = &B->u->L->prep.tables[rm->table];
	char tgt[96];
	int ok = 1;
	for (int r = 0; r < mi->nregs; r++) {
		if (r == mi->lookup.en || r == mi->lookup.wr)
			continue;
		snprintf(tgt, sizeof tgt, "x%d_y%d.%s", c->x, c->y, mi->regs[r].name);
		ok &= set_field(B, bs, tgt, r == mi->tile_en, d);
	}
	uint32_t mask = mi->word >= 32 ? ~0u : (1u << mi->word) - 1;
	snprintf(tgt, sizeof tgt, "x%d_y%d.%s", c->x, c->y, mi->regs[mi->lookup.wr].name);
	for (int64_t i = 0; i < rm->entries && ok; i++) {
		uint32_t v = (uint32_t)(i + rm->offset) << mi->word | ((uint32_t)t->v[rm->base + i] & mask);
		if (!bitstream_append(bs, tgt, v)) {
			diag_error(d, B->app, 0, 0, "internal: no configuration field %s for 0x%08x", tgt, v);
			ok = 0;
		}
	}
	snprintf(tgt, sizeof tgt, "x%d_y%d.%s", c->x, c->y, mi->regs[mi->lookup.en].name);
	if (ok && !bitstream_append(bs, tgt, 1)) {
		diag_error(d, B->app, 0, 0, "internal: no configuration field %s", tgt);
		ok = 0;
	}
	return ok;
}

static int mem_bits(Backend *B, Bitstream *bs, const NlCell *c, Diags *d)
{
	const MemInfo *mi = B->c->mem;
	if (c->rom >= 0)
		return rom_bits(B, bs, c, d);
	const UbBank *b = &B->m->banks.data[c->bank];
	int ok = 1;
	for (int r = 0; r < mi->nregs; r++) {
		char t[96];
		snprintf(t, sizeof t, "x%d_y%d.%s", c->x, c->y, mi->regs[r].name);
		ok &= set_field(B, bs, t, b->cfg.regs[c->tile][r], d);
	}
	return ok;
}

Bitstream *be_bits(Backend *B, Diags *d)
{
	double t0 = util_now();
	Bitstream *bs = bitstream_new(B->cfg);
	int ok = 1;
	for (int i = 0; i < B->rr.nnets; i++)
		for (int e = 0; e < B->rr.routes[i].nedges; e++) {
			const RtEdge *ed = &B->rr.routes[i].edges[e];
			if (!bitstream_route(bs, B->g, ed->from, ed->to)) {
				diag_error(d, B->app, 0, 0, "internal: no configuration for the edge %s -> %s",
					   B->g->nodes[ed->from].name, B->g->nodes[ed->to].name);
				ok = 0;
			}
		}
	vec_foreach(&B->nl.cells, i) {
		const NlCell *c = &B->nl.cells.data[i];
		if (c->kind == NL_PE)
			ok &= pe_bits(B, bs, c, d);
		else if (c->kind == NL_MEM)
			ok &= mem_bits(B, bs, c, d);
	}
	B->t_bits = util_now() - t0;
	if (!ok) {
		bitstream_free(bs);
		return NULL;
	}
	return bs;
}
