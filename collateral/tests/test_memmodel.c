/* test_memmodel.c - unit tests of the memory tile's functional model
 * (memmodel.h) on small tiles built in code: a delay line at every delay and
 * latency, two inputs arbitrating for one port, two chained tiles,
 * recurrence and multiplier address generators behaving alike, and quiet
 * stretches let pass at once as if stepped.
 *
 * Each test is a function run by main (check.h); the last line is
 * "memmodel: N passed, M failed"; the exit status is 1 if anything failed. */

#include <stdint.h>
#include <stdlib.h>

#include "../../common/tests/check.h"
#include "fixtures.h"
#include "../meminfo.h"
#include "../memmodel.h"
#include "../../common/rng.h"
#include "../../common/util.h"

/* Sets controller c's registers for the affine schedule and (one) address
 * map sharing the schedule's domain. */
static void set_ctrl(const MemInfo *mi, uint32_t *regs, int c, const AffineMap *sched, const AffineMap *addr)
{
	const MemCtrl *ct = &mi->ctrls[c];
	regs[ct->en] = 1;
	for (int l = 0; l < mi->dims; l++)
		regs[ct->max[l]] = (uint32_t)(sched->extent[l] - 1);
	mem_set_gen(mi, &ct->sched, sched, regs);
	const MemAddrGen *ag = ct->src ? ct->src : ct->dst;
	if (ag)
		mem_set_gen(mi, &ag->gen, addr, regs);
}

static AffineMap map3(int64_t e0, int64_t e1, int64_t e2, int64_t s0, int64_t s1, int64_t s2, int64_t off)
{
	AffineMap m = { 3, { e0, e1, e2 }, { s0, s1, s2 }, off };
	return m;
}

/* A line buffer: each input word comes out `delay` (+ latency) cycles later. */
static void test_memmodel_delay_line(void)
{
	for (int lat = 0; lat <= 2; lat += 2)
		for (int delay = 1; delay <= 8; delay++) {
			MemInfo *mi = tiny_mem(lat ? MEM_SRAM : MEM_REGFILE, 8, lat, 1,
					       delay % 2 ? MEM_MULTIPLY : MEM_RECURRENCE, 0, 8);
			uint32_t *regs = xcalloc((size_t)mi->nregs, sizeof *regs);
			regs[mi->tile_en] = 1;
			AffineMap sched = map3(8, 4, 1, 1, 8, 0, 0), addr = map3(8, 4, 1, 1, 0, 0, 0);
			set_ctrl(mi, regs, 0, &sched, &addr);
			sched.offset = delay;
			set_ctrl(mi, regs, 1, &sched, &addr);
			MemModel *m = memmodel_new(mi);
			memmodel_config(m, regs);
			memmodel_flush(m);
			uint64_t in[64];
			int bad = 0, valid = 0;
			for (int t = 0; t < 64; t++) {
				in[t] = (uint64_t)(t * 7919 + 13) & 0xffff;
				const MemCycle *c = memmodel_step(m, &in[t], NULL, NULL);
				int src = t - delay - lat, want = src >= 0 && src < 32;
				valid += c->out_valid[0];
				if (c->out_valid[0] != want || (want && c->out[0] != in[src]))
					bad++;
			}
			CHECK(bad == 0 && valid == 32, "latency %d delay %d: %d wrong cycles, %d valid", lat,
			      delay, bad, valid);
			CHECK(memmodel_done(m, 0) && memmodel_done(m, 1), "both domains finish");
			memmodel_free(m);
			free(regs);
			meminfo_free(mi);
		}
}

/* Two inputs write the same port in the same cycle: edge 0 wins. */
static void test_memmodel_arbitration(void)
{
	MemInfo *mi = tiny_mem(MEM_REGFILE, 8, 0, 2, MEM_RECURRENCE, 0, 8);
	uint32_t *regs = xcalloc((size_t)mi->nregs, sizeof *regs);
	regs[mi->tile_en] = 1;
	AffineMap sched = map3(4, 1, 1, 1, 0, 0, 0), a0 = map3(4, 1, 1, 1, 0, 0, 0),
		  a1 = map3(4, 1, 1, 1, 0, 0, 4);
	set_ctrl(mi, regs, 0, &sched, &a0);
	sched.offset = 2;
	set_ctrl(mi, regs, 1, &sched, &a1);   /* cycles 2..5, addresses 4..7 */
	MemModel *m = memmodel_new(mi);
	memmodel_config(m, regs);
	memmodel_flush(m);
	int writes = 0;
	uint32_t addrs = 0;
	for (int t = 0; t < 8; t++) {
		uint64_t in[2] = { 100 + (uint64_t)t, 200 + (uint64_t)t };
		const MemCycle *c = memmodel_step(m, in, NULL, NULL);
		if (c->ports[0][0].wen) {
			writes++;
			addrs |= 1u << c->ports[0][0].addr;
		}
	}
	CHECK(writes == 6 && addrs == 0xcf && memmodel_conflicts(m) == 2,
	      "%d writes (addresses 0x%x), %ld dropped; want 6 (0xcf), 2", writes, addrs, memmodel_conflicts(m));
	memmodel_free(m);
	free(regs);
	meminfo_free(mi);
}

/* Two chained tiles of 16 SRAM words hold and replay 32 words. */
static void test_memmodel_chain(void)
{
	MemInfo *mi = tiny_mem(MEM_SRAM, 16, 1, 1, MEM_RECURRENCE, 1, 8);
	CHECK(mi->chain_id >= 0 && mi->regs[mi->chain_id].width == 4, "chain_id has 8 - 4 bits");
	MemModel *tile[2];
	for (int k = 0; k < 2; k++) {
		uint32_t *regs = xcalloc((size_t)mi->nregs, sizeof *regs);
		regs[mi->tile_en] = 1;
		regs[mi->chain_id] = (uint32_t)k;
		AffineMap sched = map3(32, 1, 1, 1, 0, 0, 0), addr = map3(32, 1, 1, 1, 0, 0, 0);
		set_ctrl(mi, regs, 0, &sched, &addr);
		sched.offset = 40;
		set_ctrl(mi, regs, 1, &sched, &addr);
		tile[k] = memmodel_new(mi);
		memmodel_config(tile[k], regs);
		memmodel_flush(tile[k]);
		free(regs);
	}
	int bad = 0, valid = 0;
	uint64_t in[100];
	for (int t = 0; t < 100; t++) {
		in[t] = (uint64_t)(t * 31 + 5);
		const MemCycle *c0 = memmodel_step(tile[0], &in[t], NULL, NULL);
		uint64_t d0 = c0->out[0];
		int v0 = c0->out_valid[0];
		const MemCycle *c1 = memmodel_step(tile[1], &in[t], &d0, &v0);
		int src = t - 41;
		int want = src >= 0 && src < 32;
		valid += c1->out_valid[0];
		if (c1->out_valid[0] != want || (want && c1->out[0] != in[src]))
			bad++;
	}
	CHECK(bad == 0 && valid == 32, "chain of two: %d wrong cycles, %d valid", bad, valid);
	memmodel_free(tile[0]);
	memmodel_free(tile[1]);
	meminfo_free(mi);
}

/* Recurrence deltas and multiplier strides configure the same behaviour. */
static void test_memmodel_recurrence_is_multiply(void)
{
	Rng r;
	rng_seed(&r, 99);
	int bad = 0, fires = 0;
	for (int trial = 0; trial < 40; trial++) {
		MemInfo *rec = tiny_mem(MEM_REGFILE, 8, 0, 1, MEM_RECURRENCE, 0, 8);
		MemInfo *mul = tiny_mem(MEM_REGFILE, 8, 0, 1, MEM_MULTIPLY, 0, 8);
		uint32_t *rr = xcalloc((size_t)rec->nregs, sizeof *rr), *rm = xcalloc((size_t)mul->nregs, sizeof *rm);
		rr[rec->tile_en] = rm[mul->tile_en] = 1;
		for (int c = 0; c < 2; c++) {
			AffineMap s = map3(1 + (int64_t)rng_below(&r, 4), 1 + (int64_t)rng_below(&r, 3),
					   1 + (int64_t)rng_below(&r, 3), 0, 0, 0, (int64_t)rng_below(&r, 20));
			s.stride[0] = 1 + (int64_t)rng_below(&r, 2);
			s.stride[1] = s.stride[0] * s.extent[0] + (int64_t)rng_below(&r, 3);
			s.stride[2] = s.stride[1] * s.extent[1] + (int64_t)rng_below(&r, 3);
			AffineMap a = s;
			for (int l = 0; l < 3; l++)
				a.stride[l] = (int64_t)rng_below(&r, 7) - 3;
			a.offset = (int64_t)rng_below(&r, 8);
			set_ctrl(rec, rr, c, &s, &a);
			set_ctrl(mul, rm, c, &s, &a);
		}
		MemModel *mr = memmodel_new(rec), *mm = memmodel_new(mul);
		memmodel_config(mr, rr);
		memmodel_config(mm, rm);
		memmodel_flush(mr);
		memmodel_flush(mm);
		for (int t = 0; t < 120; t++) {
			uint64_t in = (uint64_t)t * 3;
			const MemCycle *a = memmodel_step(mr, &in, NULL, NULL);
			int f0 = a->fire[0], f1 = a->fire[1], w = a->ports[0][0].wen, ren = a->ports[0][1].ren;
			uint32_t wa = a->ports[0][0].addr, ra = a->ports[0][1].addr;
			int ov = a->out_valid[0];
			uint64_t o = a->out[0];
			const MemCycle *b = memmodel_step(mm, &in, NULL, NULL);
			fires += f0 + f1;
			if (f0 != b->fire[0] || f1 != b->fire[1] || w != b->ports[0][0].wen ||
			    ren != b->ports[0][1].ren || wa != b->ports[0][0].addr || ra != b->ports[0][1].addr ||
			    ov != b->out_valid[0] || o != b->out[0])
				bad++;
		}
		memmodel_free(mr);
		memmodel_free(mm);
		free(rr);
		free(rm);
		meminfo_free(rec);
		meminfo_free(mul);
	}
	CHECK(bad == 0 && fires > 500, "%d cycles differ (%d firings)", bad, fires);
}

/* A random value for register i: mostly small (loop bounds, strides and
 * offsets that make a tile fire), sometimes near or at its largest. */
static uint32_t random_reg(Rng *r, const MemInfo *mi, int i)
{
	int w = mi->regs[i].width;
	uint32_t mask = w >= 32 ? 0xffffffffu : (1u << w) - 1;
	int k = (int)rng_below(r, 10);
	if (k < 4)
		return (uint32_t)rng_below(r, 4) & mask;
	if (k < 7)
		return (uint32_t)rng_below(r, 20) & mask;
	if (k < 8)
		return (mask - (uint32_t)rng_below(r, 3)) & mask;
	return (uint32_t)rng_next(r) & mask;
}

/* 1 if a and b are the same cycle: the outputs, the firings, every port's
 * operation. */
static int same_cycle(const MemInfo *mi, const MemCycle *a, const MemCycle *b)
{
	int same = a->t == b->t;
	for (int u = 0; u < mi->nunits; u++)
		for (int p = 0; p < mi->units[u].nports; p++) {
			const MemPortOp *x = &a->ports[u][p], *y = &b->ports[u][p];
			same &= x->ren == y->ren && x->wen == y->wen && (!(x->ren | x->wen) || x->addr == y->addr);
			for (int w = 0; x->wen && w < mi->units[u].ports[p].width; w++)
				same &= x->wdata[w] == y->wdata[w];
		}
	for (int o = 0; o < mi->nouts; o++)
		same &= a->out_valid[o] == b->out_valid[o] && a->out[o] == b->out[o];
	for (int c = 0; c < mi->nctrls; c++)
		same &= a->fire[c] == b->fire[c];
	return same;
}

/* 1 if c is a quiet cycle: no firing, no port operation, the outputs the
 * chain inputs (nothing without chaining). */
static int quiet_cycle(const MemInfo *mi, const MemCycle *c, const uint64_t *chain_in, const int *chain_valid)
{
	int quiet = 1;
	for (int k = 0; k < mi->nctrls; k++)
		quiet &= !c->fire[k];
	for (int u = 0; u < mi->nunits; u++)
		for (int p = 0; p < mi->units[u].nports; p++)
			quiet &= !c->ports[u][p].ren && !c->ports[u][p].wen;
	for (int o = 0; o < mi->nouts; o++)
		quiet &= mi->chain ? c->out_valid[o] == (chain_valid[o] != 0) && c->out[o] == (chain_in[o] & 0xffff)
				   : !c->out_valid[o] && !c->out[o];
	return quiet;
}

/* Quiet stretches let pass at once (memmodel_quiet, memmodel_pass: what
 * the fast simulator does while a tile waits) leave the tile as stepping
 * through them does: random configurations of small tiles (both kinds of
 * storage, latencies 0 to 2, one or two inputs, both address generators,
 * chained or not), register writes, flushes and resets on the way, a
 * stepped model beside a passing one; every stepped cycle of a stretch is
 * quiet and every other cycle, both halves included, is the same. */
static void test_memmodel_quiet_pass(void)
{
	Rng r;
	rng_seed(&r, 29);
	long cycles = 0, passed = 0, bad = 0, fires = 0;
	for (int shape = 0; shape < 24; shape++) {
		MemInfo *mi = tiny_mem(shape % 2 ? MEM_SRAM : MEM_REGFILE, 8 << (shape % 3), shape % 3, 1 + shape / 12,
				       shape / 6 % 2 ? MEM_MULTIPLY : MEM_RECURRENCE, shape / 3 % 2, 8);
		uint32_t *regs = xcalloc((size_t)mi->nregs, sizeof *regs);
		for (int config = 0; config < 20; config++) {
			for (int i = 0; i < mi->nregs; i++)
				regs[i] = random_reg(&r, mi, i);
			regs[mi->tile_en] = rng_below(&r, 8) != 0;
			MemModel *a = memmodel_new(mi), *b = memmodel_new(mi);
			memmodel_config(a, regs);
			memmodel_config(b, regs);
			memmodel_flush(a);
			memmodel_flush(b);
			uint64_t in[2], chain_in[1];
			int chain_valid[1];
			for (int t = 0; t < 300; t++, cycles++) {
				in[0] = rng_next(&r) & 0xffff, in[1] = rng_next(&r) & 0xffff;
				chain_in[0] = rng_next(&r) & 0xffff, chain_valid[0] = rng_below(&r, 3) == 0;
				int event = (int)rng_below(&r, 100);
				if (event == 0) {
					int i = (int)rng_below(&r, (uint64_t)mi->nregs);
					uint32_t v = random_reg(&r, mi, i), addr = mem_reg_address(&mi->regs[i]);
					memmodel_config_write(a, addr, v);
					memmodel_config_write(b, addr, v);
				} else if (event == 1) {
					memmodel_flush(a);
					memmodel_flush(b);
				} else if (event < 30) {
					long n = memmodel_quiet(b);
					n = n < 40 ? n : 40;
					for (long k = 0; k < n; k++)
						bad += !quiet_cycle(mi, memmodel_step(a, in, chain_in, chain_valid), chain_in,
								    chain_valid);
					memmodel_pass(b, n);
					passed += n;
				}
				const MemCycle *x = memmodel_begin(a, in, chain_in, chain_valid);
				const MemCycle *y = memmodel_begin(b, in, chain_in, chain_valid);
				bad += !same_cycle(mi, x, y);
				for (int c = 0; c < mi->nctrls; c++)
					fires += x->fire[c];
				int fa = memmodel_finish(a, in), fb = memmodel_finish(b, memmodel_takes_inputs(b) ? in : NULL);
				bad += fa != fb || memmodel_conflicts(a) != memmodel_conflicts(b);
				for (int c = 0; c < mi->nctrls; c++)
					bad += memmodel_done(a, c) != memmodel_done(b, c);
			}
			memmodel_free(a);
			memmodel_free(b);
		}
		free(regs);
		meminfo_free(mi);
	}
	CHECK(bad == 0 && passed > 1000 && fires > 1000, "%ld of %ld cycles differ (%ld let pass, %ld firings)", bad,
	      cycles, passed, fires);
}

static const TestCase tests[] = {
	{ "memmodel_delay_line", test_memmodel_delay_line },
	{ "memmodel_arbitration", test_memmodel_arbitration },
	{ "memmodel_chain", test_memmodel_chain },
	{ "memmodel_recurrence_is_multiply", test_memmodel_recurrence_is_multiply },
	{ "memmodel_quiet_pass", test_memmodel_quiet_pass },
};

int main(void)
{
	return check_run("memmodel", tests, COUNT(tests));
}
