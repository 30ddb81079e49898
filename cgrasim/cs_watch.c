/* cs_watch.c - what the compiled array shows of itself (cs_impl.h): a VCD
 * waveform of the nodes it keeps exact, the activity of each tile (cycles in
 * which a node changed, bit toggles, the cores' busy cycles) and the PEs'
 * utilization. */
#define _POSIX_C_SOURCE 200809L

#include "cs_impl.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>


/* The identifier of the k-th variable of the waveform: printable characters
 * '!' to '~', base 94 (k 0 is the clock). */
static void vcd_id(char *buf, long k)
{
	int n = 0;
	do {
		buf[n++] = (char)('!' + k % 94);
		k /= 94;
	} while (k);
	buf[n] = 0;
}

static void vcd_value(FILE *f, uint64_t v, int width, long k)
{
	char id[16];
	vcd_id(id, k);
	if (width == 1) {
		fprintf(f, "%d%s\n", (int)(v & 1), id);
		return;
	}
	char bits[65];
	int n = 0;
	for (int b = width - 1; b >= 0; b--)
		if (n || (v >> b & 1) || b == 0)
			bits[n++] = (char)('0' + (v >> b & 1));
	bits[n] = 0;
	fprintf(f, "b%s %s\n", bits, id);
}

static int by_key(const void *x, const void *y)
{
	uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y;
	return (a > b) - (a < b);
}

/* The used nodes tile by tile, rows first, each tile's by id. */
static void sort_by_tile(const Cs *s, int *v, int n)
{
	uint64_t *key = xmalloc((size_t)(n + 1) * sizeof(uint64_t));
	for (int i = 0; i < n; i++) {
		const RNode *r = &s->g->nodes[v[i]];
		key[i] = (uint64_t)(r->y * s->chip->m->cols + r->x) << 32 | (uint32_t)v[i];
	}
	qsort(key, (size_t)n, sizeof(uint64_t), by_key);
	for (int i = 0; i < n; i++)
		v[i] = (int)(key[i] & 0xffffffffu);
	free(key);
}

/* The header: one scope per tile holding its used nodes, named as in
 * routing.graph, and the clock. */
static void vcd_begin(Cs *s)
{
	FILE *f = s->vcd;
	fprintf(f, "$version cgrasim (the fast simulator of %s) $end\n$timescale 1ns $end\n", s->chip->m->name);
	fprintf(f, "$scope module %s $end\n$var wire 1 ! clk $end\n", s->chip->m->name);
	int n = s->used_list.len, *v = xmalloc((size_t)(n + 1) * sizeof(int));
	memcpy(v, s->used_list.data, (size_t)n * sizeof(int));
	sort_by_tile(s, v, n);
	for (int i = 0; i < n; i++) {
		const RNode *r = &s->g->nodes[v[i]];
		if (!i || r->x != s->g->nodes[v[i - 1]].x || r->y != s->g->nodes[v[i - 1]].y) {
			if (i)
				fprintf(f, "$upscope $end\n");
			fprintf(f, "$scope module tile_x%d_y%d $end\n", r->x, r->y);
		}
		char id[16];
		vcd_id(id, v[i] + 1L);
		fprintf(f, "$var wire %d %s %s $end\n", r->width, id, r->name);
	}
	if (n)
		fprintf(f, "$upscope $end\n");
	fprintf(f, "$upscope $end\n$enddefinitions $end\n");
	free(v);
	s->vcd_header = 1;
}

/* A compiled cycle, settled: the waveform's changes at time 2k (the clock
 * low, the cycle's inputs applied), the activity's toggles and busy tiles. */
void cs_watch_cycle(Cs *s)
{
	int first = s->vcd && !s->vcd_header;
	if (first) {
		vcd_begin(s);
		fprintf(s->vcd, "#%ld\n$dumpvars\n0!\n", 2 * s->cycles);
	} else if (s->vcd) {
		fprintf(s->vcd, "#%ld\n0!\n", 2 * s->cycles);
	}
	int cols = s->chip->m->cols;
	if (s->activity)
		memset(s->tile_now, 0, (size_t)(cols * s->chip->m->rows));
	vec_foreach(&s->used_list, i) {
		int n = s->used_list.data[i];
		uint64_t v = cs_comp_value(s, n), d = v ^ s->last[n];
		if (s->vcd && (d || first))
			vcd_value(s->vcd, v, s->g->nodes[n].width, n + 1L);
		if (s->activity && d) {
			int t = s->g->nodes[n].y * cols + s->g->nodes[n].x;
			s->tile_toggles[t] += __builtin_popcountll(d);
			s->tile_now[t] = 1;
		}
		s->last[n] = v;
	}
	if (first)
		fprintf(s->vcd, "$end\n");
	if (s->activity)
		for (int t = 0; t < cols * s->chip->m->rows; t++)
			s->tile_busy[t] += s->tile_now[t];
}

void cs_trace(Cs *s, FILE *f)
{
	s->vcd = f;
	s->vcd_header = 0;
}

void cs_activity(Cs *s)
{
	int nt = s->chip->m->cols * s->chip->m->rows;
	s->activity = 1;
	if (!s->tile_toggles) {
		s->tile_toggles = xcalloc((size_t)nt + 1, sizeof(long));
		s->tile_busy = xcalloc((size_t)nt + 1, sizeof(long));
		s->tile_now = xcalloc((size_t)nt + 1, 1);
	}
}

void cs_activity_write(const Cs *s, FILE *f)
{
	const Design *m = s->chip->m;
	fprintf(f, "# Written by cgrasim: the activity of each used tile of %s over %ld cycles of the\n"
		   "# configured array (cgrasim/README.md): cycles in which a node of the tile changed, bit\n"
		   "# toggles of its nodes (routing and core ports), and for cores the cycles the core worked.\n",
		m->name, s->run_cycles);
	fprintf(f, "design: %s\ncycles: %ld\ntiles:\n", m->name, s->run_cycles);
	for (int y = 0; y < m->rows; y++)
		for (int x = 0; x < m->cols; x++) {
			int t = y * m->cols + x;
			if (!s->tile_toggles || (!s->tile_busy[t] && !s->tile_toggles[t]))
				continue;
			char kind = design_tile(m, x, y);
			long core = -1;
			for (int k = 0; k < s->npes && kind == 'P'; k++)
				if (s->pes[k].x == x && s->pes[k].y == y)
					core = s->pes[k].busy;
			for (int k = 0; k < s->nmems && kind == 'M'; k++)
				if (s->mems[k].x == x && s->mems[k].y == y)
					core = s->mems[k].busy;
			fprintf(f, "  - { x: %d, y: %d, kind: %s, busy: %ld, toggles: %ld", x, y,
				kind == 'P' ? "PE" : kind == 'M' ? "MEM" : "IO", s->tile_busy[t], s->tile_toggles[t]);
			if (core >= 0)
				fprintf(f, ", core_busy: %ld", core);
			fprintf(f, " }\n");
		}
}

void cs_utilization(const Cs *s, char *buf, size_t len)
{
	long busy = 0;
	for (int i = 0; i < s->norder; i++)
		if (s->order[i] >= 0)
			busy += s->pes[s->order[i]].busy;
	int used = s->stats.pes;
	double frac = used && s->run_cycles ? (double)busy / ((double)used * (double)s->run_cycles) : 0;
	snprintf(buf, len, "%d of %d PEs used (%.0f%%), busy %.0f%% of their cycles; %d of %d MEMs", used, s->npes,
		 s->npes ? 100.0 * used / s->npes : 0.0, 100.0 * frac, s->stats.mems, s->nmems);
}

