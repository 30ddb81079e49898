/* lake_scenario.c - designed configurations with known outputs (see
 * lake_scenario.h). Each scenario finds the edges it needs by name, sets
 * their controllers from affine maps (a schedule and the address maps of its
 * storage ends over one iteration domain) and lists the words it expects:
 *   linebuffer:D  in0 -> X -> out0 through one storage unit: a 64x64 stream
 *                 in a 128-word circular buffer, read back D cycles later;
 *   widefetch     the PUB at full rate on both ports: in -> agg -> sram ->
 *                 tb -> out, the single SRAM port busy every cycle;
 *   transpose     a 16x16 matrix through the PUB and out in 4x4 blocks, each
 *                 transposed (Unified Buffer, footnote 1), one word per cycle;
 *   chain         two chained tiles hold a 4,096-word buffer, twice one
 *                 tile's SRAM, and replay it;
 *   lookup        a 200-entry table loaded through lookup_wr and read at a
 *                 stream of addresses, one word per cycle. */
#include "lake_scenario.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../collateral/affine.h"
#include "../common/rng.h"
#include "../common/util.h"
#include "../common/vec.h"

typedef VEC(ScenarioOut) OutVec;

uint64_t scenario_input(const MemInfo *mi, const Scenario *sc, int port, long t)
{
	if (t >= sc->stream)
		return 0;
	if (sc->input)
		return sc->input[t * mi->nins + port];
	uint64_t v = (uint64_t)t * 2654435761u + (uint64_t)port * 40503u + 17;
	v ^= v >> 13;
	return mi->word >= 64 ? v : v & ((1ull << mi->word) - 1);
}

static int find_edge(const MemInfo *mi, const char *src, const char *dst)
{
	for (int e = 0; e < mi->nedges; e++)
		if (strcmp(mem_end_name(mi, mi->edges[e].src), src) == 0 &&
		    strcmp(mem_end_name(mi, mi->edges[e].dst), dst) == 0)
			return e;
	return -1;
}

static void set_ctrl(const MemInfo *mi, int c, const AffineMap *sched, const AffineMap *src,
		     const AffineMap *dst, uint32_t *regs)
{
	const MemCtrl *ct = &mi->ctrls[c];
	regs[ct->en] = 1;
	for (int l = 0; l < mi->dims; l++)
		regs[ct->max[l]] = (uint32_t)(l < sched->dims ? sched->extent[l] - 1 : 0);
	mem_set_gen(mi, &ct->sched, sched, regs);
	if (ct->src && src)
		mem_set_gen(mi, &ct->src->gen, src, regs);
	if (ct->dst && dst)
		mem_set_gen(mi, &ct->dst->gen, dst, regs);
}

/* Configures edge e: transfers at `sched` reading src and writing dst (maps
 * over the same domain; NULL for a tile end). With two controllers the write
 * side runs L cycles behind the read side. */
static void set_edge(const MemInfo *mi, int e, const AffineMap *sched, const AffineMap *src,
		     const AffineMap *dst, uint32_t *regs)
{
	const MemEdgeInfo *ei = &mi->edges[e];
	set_ctrl(mi, ei->ctrl[0], sched, src, dst, regs);
	if (ei->ctrl[1] >= 0) {
		AffineMap late = *sched;
		late.offset += ei->latency;
		set_ctrl(mi, ei->ctrl[1], &late, NULL, dst, regs);
	}
}

static AffineMap amap(int dims, const int64_t *ext, const int64_t *stride, int64_t offset)
{
	AffineMap m;
	memset(&m, 0, sizeof m);
	m.dims = dims;
	for (int l = 0; l < dims; l++) {
		m.extent[l] = ext[l];
		m.stride[l] = stride[l];
	}
	m.offset = offset;
	return m;
}

static void expect(OutVec *v, long t, int out, uint64_t value)
{
	ScenarioOut o = { t, out, value };
	vec_push(v, o);
}

static int need(const MemInfo *mi, int ok, const char *what, char *why, size_t len)
{
	if (!ok)
		snprintf(why, len, "this scenario needs %s, which %s does not have", what, mi->name);
	return ok;
}

static uint32_t *new_regs(const MemInfo *mi)
{
	uint32_t *r = xcalloc((size_t)mi->nregs + 1, sizeof *r);
	r[mi->tile_en] = 1;
	return r;
}

/* A 64x64 stream through a 128-word circular buffer, read back `delay`
 * cycles after each word is written (at least 1: a write lands at the end of
 * its cycle). Domain (x 64, y0 2, y1 32): address x + 64 y0. */
static int sc_linebuffer(const MemInfo *mi, int delay, Scenario *sc, OutVec *out, char *why, size_t len)
{
	int in = -1, o = -1;
	for (int e = 0; e < mi->nedges; e++) {
		const MemEdgeInfo *ei = &mi->edges[e];
		if (ei->src.unit == MEM_TILE_IN && ei->src.port == 0 && ei->dst.unit >= 0)
			for (int f = 0; f < mi->nedges; f++)
				if (mi->edges[f].src.unit == ei->dst.unit && mi->edges[f].dst.unit == MEM_TILE_OUT &&
				    mi->edges[f].dst.port == 0 && ei->width == 1 && mi->edges[f].width == 1)
					in = e, o = f;
	}
	if (!need(mi, in >= 0, "one storage unit between in0 and out0 with one-word ports", why, len) ||
	    !need(mi, mi->dims >= 3 && mi->counter_bits >= 14, "3 loop levels and 14-bit counters", why, len))
		return 0;
	const MemUnitInfo *u = &mi->units[mi->edges[in].dst.unit];
	if (!need(mi, u->words >= 128, "128 words of storage", why, len) ||
	    !need(mi, delay >= 1 && delay <= 128, "a delay from 1 to 128", why, len))
		return 0;
	int64_t ext[3] = { 64, 2, 32 }, ss[3] = { 1, 64, 128 }, as[3] = { 1, 64, 0 };
	AffineMap sched = amap(3, ext, ss, 0), addr = amap(3, ext, as, 0);
	uint32_t *regs = sc->regs[0] = new_regs(mi);
	set_edge(mi, in, &sched, NULL, &addr, regs);
	sched.offset = delay;
	set_edge(mi, o, &sched, &addr, NULL, regs);
	int lat = mi->edges[o].latency;
	sc->stream = 4096;
	sc->cycles = 4096 + delay + lat + 8;
	for (long i = 0; i < 4096; i++)
		expect(out, i + delay + lat, 0, scenario_input(mi, sc, 0, i));
	return 1;
}

/* The PUB edges of port k. */
typedef struct PubPath {
	int in, agg, sram, out;
} PubPath;

static int pub_path(const MemInfo *mi, int k, PubPath *p)
{
	char a[64], b[64];
	snprintf(a, sizeof a, "in%d", k);
	snprintf(b, sizeof b, "agg%d.w", k);
	p->in = find_edge(mi, a, b);
	snprintf(a, sizeof a, "agg%d.r", k);
	p->agg = find_edge(mi, a, "sram.rw");
	snprintf(b, sizeof b, "tb%d.w", k);
	p->sram = find_edge(mi, "sram.rw", b);
	snprintf(a, sizeof a, "tb%d.r", k);
	snprintf(b, sizeof b, "out%d", k);
	p->out = find_edge(mi, a, b);
	return p->in >= 0 && p->agg >= 0 && p->sram >= 0 && p->out >= 0 &&
	       mi->edges[p->agg].width == 4 && mi->edges[p->sram].latency == 1 &&
	       mi->units[mi->edges[p->in].dst.unit].words == 4;
}

/* Both ports stream N words at one word per cycle. Port k's words pass:
 * agg (word i at cycle k + i, address i mod 4), agg -> sram at 4j + 4 + k (row
 * 64k + j mod 64), sram -> tb at 4j + 6 + k (read, delivered a cycle later
 * into tb row j mod 2), tb -> out at 8 + k + i. The SRAM port serves
 * 4 operations every 4 cycles. */
static int sc_widefetch(const MemInfo *mi, Scenario *sc, OutVec *out, char *why, size_t len)
{
	PubPath p[2];
	if (!need(mi, pub_path(mi, 0, &p[0]) && pub_path(mi, 1, &p[1]),
		  "the PUB's two paths in -> agg (4 words) -> sram (fetch 4, latency 1) -> tb -> out", why, len) ||
	    !need(mi, mi->dims >= 3 && mi->counter_bits >= 14, "3 loop levels and 14-bit counters", why, len))
		return 0;
	const long n = 4096;
	sc->stream = n + 1;
	uint32_t *regs = sc->regs[0] = new_regs(mi);
	for (int k = 0; k < 2; k++) {
		int64_t e1[2] = { 4, n / 4 }, s1[2] = { 1, 4 }, a1[2] = { 1, 0 };
		AffineMap sched = amap(2, e1, s1, k), agg = amap(2, e1, a1, 0);
		set_edge(mi, p[k].in, &sched, NULL, &agg, regs);
		int64_t e2[2] = { 64, n / 256 }, s2[2] = { 4, 256 }, a2[2] = { 1, 0 };
		AffineMap s_agg = amap(2, e2, s2, 4 + k), row = amap(2, e2, a2, 64 * k);
		set_edge(mi, p[k].agg, &s_agg, NULL, &row, regs);
		int64_t e3[3] = { 2, 32, n / 256 }, s3[3] = { 4, 8, 256 }, r3[3] = { 1, 2, 0 }, t3[3] = { 1, 0, 0 };
		AffineMap s_rd = amap(3, e3, s3, 6 + k), src = amap(3, e3, r3, 64 * k), tb = amap(3, e3, t3, 0);
		set_edge(mi, p[k].sram, &s_rd, &src, &tb, regs);
		int64_t e4[2] = { 8, n / 8 }, s4[2] = { 1, 8 }, a4[2] = { 1, 0 };
		AffineMap s_out = amap(2, e4, s4, 8 + k), word = amap(2, e4, a4, 0);
		set_edge(mi, p[k].out, &s_out, &word, NULL, regs);
		for (long i = 0; i < n; i++)
			expect(out, 8 + k + i, k, scenario_input(mi, sc, k, k + i));
	}
	sc->cycles = n + 16;
	return 1;
}

/* A 16x16 matrix (row-major on in0) stored as 64 SRAM rows of 4 words, then
 * output in 4x4 blocks (block column xb outer, block row yb inner), each
 * block transposed: out = m[4 yb + r][4 xb + j] in the order xb, yb, j, r,
 * one word per cycle from cycle O. Block b's row r is fetched at
 * O - 5 + 16 b + 2 r into tb row r, so that the transpose buffer holds the
 * block's four rows while the next block's rows replace them one by one. */
static int sc_transpose(const MemInfo *mi, Scenario *sc, OutVec *out, char *why, size_t len)
{
	PubPath p;
	if (!need(mi, pub_path(mi, 0, &p), "the PUB path in0 -> agg0 -> sram -> tb0 -> out0", why, len) ||
	    !need(mi, mi->units[mi->edges[p.sram].dst.unit].words >= 16,
		  "a 16-word transpose buffer (four rows of a 4x4 block)", why, len) ||
	    !need(mi, mi->dims >= 4 && mi->counter_bits >= 10, "4 loop levels and 10-bit counters", why, len))
		return 0;
	const int64_t O = 262;
	sc->stream = 256;
	uint32_t *regs = sc->regs[0] = new_regs(mi);
	int64_t e1[2] = { 4, 64 }, s1[2] = { 1, 4 }, a1[2] = { 1, 0 };
	AffineMap sched = amap(2, e1, s1, 0), agg = amap(2, e1, a1, 0);
	set_edge(mi, p.in, &sched, NULL, &agg, regs);
	int64_t e2[1] = { 64 }, s2[1] = { 4 }, a2[1] = { 1 };
	AffineMap s_agg = amap(1, e2, s2, 4), row = amap(1, e2, a2, 0);
	set_edge(mi, p.agg, &s_agg, NULL, &row, regs);
	/* domain (r 4, yb 4, xb 4); SRAM row of m[4 yb + r][4 xb ..] is 4 (4 yb + r) + xb */
	int64_t e3[3] = { 4, 4, 4 }, s3[3] = { 2, 16, 64 }, r3[3] = { 4, 16, 1 }, t3[3] = { 1, 0, 0 };
	AffineMap s_rd = amap(3, e3, s3, O - 5), src = amap(3, e3, r3, 0), tb = amap(3, e3, t3, 0);
	set_edge(mi, p.sram, &s_rd, &src, &tb, regs);
	/* domain (r 4, j 4, yb 4, xb 4): tb word 4 r + j */
	int64_t e4[4] = { 4, 4, 4, 4 }, s4[4] = { 1, 4, 16, 64 }, a4[4] = { 4, 1, 0, 0 };
	AffineMap s_out = amap(4, e4, s4, O), word = amap(4, e4, a4, 0);
	set_edge(mi, p.out, &s_out, &word, NULL, regs);
	for (int xb = 0; xb < 4; xb++)
		for (int yb = 0; yb < 4; yb++)
			for (int j = 0; j < 4; j++)
				for (int r = 0; r < 4; r++)
					expect(out, O + 64 * xb + 16 * yb + 4 * j + r, 0,
					       scenario_input(mi, sc, 0, (4 * yb + r) * 16 + 4 * xb + j));
	sc->cycles = O + 256 + 8;
	return 1;
}

/* Two chained tiles: a 4096-word stream written to addresses 0..4095 (tile
 * k keeps 2048 k .. 2048 k + 2047) and replayed from cycle 4100; tile 0's
 * outputs feed tile 1's chain inputs. */
static int sc_chain(const MemInfo *mi, Scenario *sc, OutVec *out, char *why, size_t len)
{
	int in = -1, o = -1;
	for (int e = 0; e < mi->nedges; e++)
		if (mi->edges[e].src.unit == MEM_TILE_IN && mi->edges[e].src.port == 0 &&
		    mi->edges[e].dst.unit >= 0 && mi->units[mi->edges[e].dst.unit].kind == MEM_SRAM)
			for (int f = 0; f < mi->nedges; f++)
				if (mi->edges[f].src.unit == mi->edges[e].dst.unit &&
				    mi->edges[f].dst.unit == MEM_TILE_OUT && mi->edges[f].dst.port == 0)
					in = e, o = f;
	if (!need(mi, mi->chain && in >= 0, "chaining and an SRAM between in0 and out0", why, len))
		return 0;
	const MemUnitInfo *u = &mi->units[mi->edges[in].dst.unit];
	long words = 2L * u->words;
	if (!need(mi, mi->counter_bits >= 14 && words >= 128 && words <= 4096 && mi->edges[in].width == 1,
		  "an SRAM of 64 to 2048 one-word slots and 14-bit counters", why, len))
		return 0;
	const int64_t start = words + 4;
	sc->tiles = 2;
	sc->stream = words;
	for (int k = 0; k < 2; k++) {
		uint32_t *regs = sc->regs[k] = new_regs(mi);
		regs[mi->chain_id] = (uint32_t)k;
		int64_t ext[2] = { 64, words / 64 }, ss[2] = { 1, 64 };
		AffineMap sched = amap(2, ext, ss, 0), addr = amap(2, ext, ss, 0);
		set_edge(mi, in, &sched, NULL, &addr, regs);
		sched.offset = start;
		set_edge(mi, o, &sched, &addr, NULL, regs);
	}
	int lat = mi->edges[o].latency;
	for (long i = 0; i < words; i++)
		expect(out, start + i + lat, 0, scenario_input(mi, sc, 0, i));
	sc->cycles = start + words + lat + 8;
	return 1;
}

/* The look-up scenario's table: entry i is f(i) at address 37 i + 11 mod
 * min(words, 1024): scattered, 71 rows of 4 words holding two or three
 * entries on pub. */
static uint32_t table_addr(const MemLookup *lk, long i)
{
	long m = lk->words < 1024 ? lk->words : 1024;
	return (uint32_t)((37 * i + 11) % m);
}

static uint64_t table_value(const MemInfo *mi, long i)
{
	uint64_t v = (uint64_t)(i * i * 2971 + i * 613 + 1234567) ^ (uint64_t)i << 7;
	return v & ((1ull << mi->word) - 1);
}

/* The looked-up address in cycle t: every entry in order, each entry three
 * times running, then random entries, random words (most never loaded, so
 * 0) and entries with bits set above the table's address (a + j * words). */
static uint64_t lookup_address(const MemInfo *mi, long t, long entries, Rng *r)
{
	const MemLookup *lk = &mi->lookup;
	if (t < entries)
		return table_addr(lk, t);
	if (t < 4 * entries)
		return table_addr(lk, (t - entries) / 3);
	uint64_t k = rng_below(r, 8), a = table_addr(lk, (long)rng_below(r, (uint64_t)entries));
	if (k == 0)
		return rng_below(r, (uint64_t)lk->words);
	if (k == 1)
		return (a + rng_bits(r, mi->word) * (uint64_t)lk->words) & ((1ull << mi->word) - 1);
	return a;
}

/* The table look-up alone (no controller enabled): 200 entries loaded
 * through lookup_wr (two reloaded: the last write wins), then 1,400
 * addresses on the look-up's input; its output carries the addressed word
 * `latency` cycles after each, every cycle (after the stream the input is 0
 * and so is the address). */
static int sc_lookup(const MemInfo *mi, Scenario *sc, OutVec *out, char *why, size_t len)
{
	const MemLookup *lk = &mi->lookup;
	if (!need(mi, mem_has_lookup(mi), "a table look-up", why, len) ||
	    !need(mi, lk->words >= 256 && mi->word >= 10, "a look-up of at least 256 words of 10 bits", why, len))
		return 0;
	const long entries = 200, n = 7 * entries;
	uint64_t *tbl = xcalloc((size_t)lk->words, sizeof *tbl);
	sc->loads = xcalloc((size_t)entries + 2, sizeof *sc->loads);
	for (long i = 0; i < entries + 2; i++) {
		long e = i < entries ? i : i - entries + 5;   /* entries 5 and 6 twice */
		uint64_t v = i < entries ? table_value(mi, e) : table_value(mi, e + 1000);
		sc->loads[sc->nloads++] = table_addr(lk, e) << mi->word | (uint32_t)v;
		tbl[table_addr(lk, e)] = v;
	}
	sc->regs[0] = new_regs(mi);
	sc->regs[0][lk->en] = 1;
	sc->stream = n;
	sc->input = xcalloc((size_t)(n * mi->nins), sizeof *sc->input);
	Rng r;
	rng_seed(&r, 5);
	for (long t = 0; t < n; t++)
		sc->input[t * mi->nins + lk->in] = lookup_address(mi, t, entries, &r);
	sc->cycles = n + lk->latency + 8;
	for (long t = lk->latency; t < sc->cycles; t++)
		expect(out, t, lk->out, tbl[scenario_input(mi, sc, lk->in, t - lk->latency) & (uint64_t)(lk->words - 1)]);
	free(tbl);
	return 1;
}

static int by_time(const void *a, const void *b)
{
	const ScenarioOut *x = a, *y = b;
	if (x->t != y->t)
		return x->t < y->t ? -1 : 1;
	return (x->out > y->out) - (x->out < y->out);
}

int scenario_build(const MemInfo *mi, const char *name, Scenario *sc, char *why, size_t whylen)
{
	memset(sc, 0, sizeof *sc);
	sc->name = name;
	sc->tiles = 1;
	OutVec out = { 0 };
	int ok;
	if (strncmp(name, "linebuffer:", 11) == 0) {
		uint64_t d;
		ok = util_parse_number(name + 11, 1, 128, &d) == 0
		     ? sc_linebuffer(mi, (int)d, sc, &out, why, whylen)
		     : (snprintf(why, whylen, "linebuffer:D wants a delay D from 1 to 128 cycles"), 0);
	} else if (strcmp(name, "widefetch") == 0) {
		ok = sc_widefetch(mi, sc, &out, why, whylen);
	} else if (strcmp(name, "transpose") == 0) {
		ok = sc_transpose(mi, sc, &out, why, whylen);
	} else if (strcmp(name, "chain") == 0) {
		ok = sc_chain(mi, sc, &out, why, whylen);
	} else if (strcmp(name, "lookup") == 0) {
		ok = sc_lookup(mi, sc, &out, why, whylen);
	} else {
		snprintf(why, whylen, "unknown scenario '%s' (linebuffer:D, widefetch, transpose, chain, lookup)", name);
		ok = 0;
	}
	if (out.len)
		qsort(out.data, (size_t)out.len, sizeof *out.data, by_time);
	sc->expect = out.data;
	sc->nexpect = out.len;
	if (!ok)
		scenario_free(sc);
	return ok;
}

void scenario_free(Scenario *sc)
{
	for (int k = 0; k < SCENARIO_MAX_TILES; k++) {
		free(sc->regs[k]);
		sc->regs[k] = NULL;
	}
	free(sc->expect);
	sc->expect = NULL;
	sc->nexpect = 0;
	free(sc->input);
	sc->input = NULL;
	free(sc->loads);
	sc->loads = NULL;
	sc->nloads = 0;
}
