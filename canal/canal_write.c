/* canal_write.c - the configuration fields of an interconnect graph and the
 * collateral files: routing.graph, config.map, design.yaml
 * (canal/COLLATERAL.md). */
#include <stdlib.h>
#include <string.h>

#include "../common/util.h"
#include "../common/vec.h"
#include "../common/ywrite.h"
#include "canal.h"

static const char *const kind_names[] = { "sb_in", "sb_out", "reg", "rmux", "port_in", "port_out" };

double canal_node_delay(const CanalNode *n)
{
	switch (n->kind) {
	case CN_SB_OUT: return 0.14;   /* a switch-box hop, AHA Fig. 22 */
	case CN_RMUX: return 0.03;
	case CN_PORT_IN: return 0.10;
	default: return 0.0;
	}
}

int canal_sel_bits(int n)
{
	int b = 0;
	while ((1 << b) < n)
		b++;
	return b;
}

/* ---- configuration fields ---- */

typedef VEC(CanalField) FieldVec;

static uint32_t tile_address(int index, int feature, int x, int y)
{
	return (uint32_t)index << 24 | (uint32_t)feature << 16 | (uint32_t)x << 8 | (uint32_t)y;
}

/* Per tile: the core's registers, then the tile's mux selects packed into
 * 32-bit registers of feature CANAL_FEATURE in node order. */
int canal_fields(const CanalGraph *g, CanalField **out)
{
	const CanalSpec *s = g->spec;
	int ntiles = s->cols * (s->rows + 1);
	/* the nodes of each tile, in id order (registers were added after all tiles) */
	int **ids = xcalloc((size_t)ntiles, sizeof(int *));
	int *counts = xcalloc((size_t)ntiles, sizeof(int));
	for (int id = 0; id < g->nnodes; id++)
		counts[g->nodes[id].y * s->cols + g->nodes[id].x]++;
	for (int t = 0; t < ntiles; t++) {
		ids[t] = xcalloc((size_t)counts[t] + 1, sizeof(int));
		counts[t] = 0;
	}
	for (int id = 0; id < g->nnodes; id++) {
		int t = g->nodes[id].y * s->cols + g->nodes[id].x;
		ids[t][counts[t]++] = id;
	}
	FieldVec v = { 0 };
	for (int y = 0; y <= s->rows; y++)
		for (int x = 0; x < s->cols; x++) {
			int t = y * s->cols + x;
			const CoreInfo *c = canal_tile_core(g, x, y);
			for (int i = 0; i < c->nregs; i++) {
				CanalField f = { FIELD_CORE, tile_address(c->regs[i].index, c->regs[i].feature, x, y), 0,
						 c->regs[i].width - 1, -1, x, y, i };
				vec_push(&v, f);
			}
			int reg = 0, bit = 0;
			for (int k = 0; k < counts[t]; k++) {
				int id = ids[t][k], b = canal_sel_bits(g->nodes[id].nin);
				if (b == 0)
					continue;
				if (bit + b > 32) {
					reg++;
					bit = 0;
				}
				CanalField f = { FIELD_MUX, tile_address(reg, CANAL_FEATURE, x, y), bit, bit + b - 1, id,
						 x, y, -1 };
				vec_push(&v, f);
				bit += b;
			}
			free(ids[t]);
		}
	free(ids);
	free(counts);
	*out = v.data;
	return v.len;
}

/* ---- files ---- */

static const char *side_name(int side)
{
	static const char *const names[] = { "N", "E", "S", "W" };
	return side < 0 ? "-" : names[side];
}

void canal_write_graph(const CanalGraph *g, FILE *f)
{
	const CanalSpec *s = g->spec;
	fprintf(f, "# Routing graph written by canal (format: canal/COLLATERAL.md).\n");
	fprintf(f, "graph %s cols %d rows %d widths", s->name, s->cols, s->rows + 1);
	for (int i = 0; i < s->nwidths; i++)
		fprintf(f, " %d", s->width[i]);
	fputc('\n', f);
	for (int id = 0; id < g->nnodes; id++) {
		const CanalNode *n = &g->nodes[id];
		fprintf(f, "node %d %s %d %d %d %s ", id, kind_names[n->kind], n->width, n->x, n->y, side_name(n->side));
		if (n->track < 0)
			fputs("-", f);
		else
			fprintf(f, "%d", n->track);
		fprintf(f, " %.2f %s\n", canal_node_delay(n), n->name);
	}
	long edges = 0;
	for (int id = 0; id < g->nnodes; id++) {
		const CanalNode *n = &g->nodes[id];
		for (int i = 0; i < n->nin; i++) {
			if (n->nin > 1)
				fprintf(f, "edge %d %d %d\n", n->in[i], id, i);
			else
				fprintf(f, "edge %d %d -\n", n->in[i], id);
		}
		edges += n->nin;
	}
	fprintf(f, "end %d %ld\n", g->nnodes, edges);    /* the file is whole */
}

void canal_write_map(const CanalGraph *g, const CanalField *fields, int nfields, FILE *f)
{
	fprintf(f, "# Configuration fields written by canal (format: canal/COLLATERAL.md).\n");
	for (int i = 0; i < nfields; i++) {
		const CanalField *x = &fields[i];
		if (x->kind == FIELD_MUX)
			fprintf(f, "field %08x %d %d mux %s\n", x->address, x->lo, x->hi, g->nodes[x->node].name);
		else
			fprintf(f, "field %08x %d %d core x%d_y%d.%s\n", x->address, x->lo, x->hi, x->x, x->y,
				canal_tile_core(g, x->x, x->y)->regs[x->reg].name);
	}
	fprintf(f, "end %d\n", nfields);                 /* the file is whole */
}

void canal_write_design(const CanalGraph *g, FILE *f)
{
	const CanalSpec *s = g->spec;
	YWriter w;
	yw_init(&w, f);
	yw_comment(&w, "Design manifest written by canal (format: canal/COLLATERAL.md).");
	yw_str(&w, "design", s->name);
	yw_flow_begin(&w, "array");
	yw_fint(&w, "cols", s->cols);
	yw_fint(&w, "rows", s->rows);
	yw_flow_end(&w);
	yw_str(&w, "io", "north");
	yw_seq(&w, "widths");
	for (int i = 0; i < s->nwidths; i++)
		yw_item_str(&w, arena_printf(g->store.arena, "%d", s->width[i]));
	yw_end(&w);
	yw_map(&w, "cores");
	const CoreInfo *cores[2] = { g->pe, g->mem };
	const char *keys[2] = { "pe", "mem" };
	for (int k = 0; k < 2; k++) {
		if (!cores[k])
			continue;
		yw_flow_begin(&w, keys[k]);
		yw_fstr(&w, "name", cores[k]->name);
		yw_fstr(&w, "info", arena_printf(g->store.arena, "%s.info.yaml", cores[k]->name));
		yw_fstr(&w, "verilog", cores[k]->verilog);
		yw_flow_end(&w);
	}
	yw_end(&w);
	yw_seq(&w, "tiles");
	char *row = arena_alloc(g->store.arena, (size_t)s->cols + 1);
	for (int y = 0; y <= s->rows; y++) {
		for (int x = 0; x < s->cols; x++)
			row[x] = "IPM"[canal_tile_kind(s, x, y)];
		row[s->cols] = '\0';
		yw_item_str(&w, row);
	}
	yw_end(&w);
	yw_flow_begin(&w, "files");
	yw_fstr(&w, "verilog", "cgra.v");
	yw_fstr(&w, "graph", "routing.graph");
	yw_fstr(&w, "config", "config.map");
	yw_flow_end(&w);
}
