/* meminfo.c - deriving a memory tile's controllers and configuration
 * registers from its structure, and writing and reading `<mem>.info.yaml`.
 * The reader re-derives everything from the structural part of the file and
 * checks that the listed controllers and registers agree, so a hand-edited or
 * stale file is refused rather than misread. */
#include "meminfo.h"

#include <stdarg.h>
#include <string.h>

#include "../common/strmap.h"
#include "../common/vec.h"
#include "../common/vwrite.h"
#include "../common/ywrite.h"
#include "../common/yamlr.h"

static const char *const role_names[] = { "SOLVE", "SET0", "SET1", "SEQUENCE", "X", "CLK", "RST" };
static const char *const op_names[] = { "", "read", "write", "readwrite" };
static const char *const side_names[] = { "both", "read", "write" };

const char *mem_role_name(MemRole r)
{
	return role_names[r];
}

const char *mem_end_name(const MemInfo *mi, MemEnd e)
{
	if (e.unit == MEM_TILE_IN)
		return mi->ins[e.port];
	if (e.unit == MEM_TILE_OUT)
		return mi->outs[e.port];
	return arena_printf(mi->arena, "%s.%s", mi->units[e.unit].name,
			    mi->units[e.unit].ports[e.port].name);
}

long mem_config_bits(const MemInfo *mi)
{
	long bits = 0;
	for (int i = 0; i < mi->nregs; i++)
		bits += mi->regs[i].width;
	return bits;
}

uint32_t mem_reg_address(const MemReg *r)
{
	return (uint32_t)r->index << 24 | (uint32_t)r->feature << 16;
}

int mem_has_lookup(const MemInfo *mi)
{
	return mi->lookup.port.unit >= 0;
}

int mem_reg_find(const MemInfo *mi, const char *name)
{
	for (int i = 0; i < mi->nregs; i++)
		if (strcmp(mi->regs[i].name, name) == 0)
			return i;
	return -1;
}

static uint32_t masked(int64_t v, int width)
{
	return (uint32_t)((uint64_t)v & (width >= 32 ? 0xffffffffull : (1ull << width) - 1));
}

void mem_set_gen(const MemInfo *mi, const MemGen *g, const AffineMap *a, uint32_t *regs)
{
	int64_t step[AFFINE_MAX_DIMS];
	AffineMap full = *a;
	for (int l = a->dims; l < mi->dims; l++) {
		full.extent[l] = 1;
		full.stride[l] = 0;
	}
	full.dims = mi->dims;
	if (mi->affine == MEM_RECURRENCE)
		affine_deltas(&full, step);
	else
		memcpy(step, full.stride, sizeof step);
	regs[g->start] = masked(full.offset, g->width);
	for (int l = 0; l < mi->dims; l++)
		regs[g->step[l]] = masked(step[l], g->width);
}

void meminfo_free(MemInfo *mi)
{
	if (mi)
		arena_free(mi->arena);
}

/* ---- derivation ---- */

static int log2_exact(long v)
{
	int b = 0;
	while ((1L << b) < v)
		b++;
	return b;
}

typedef VEC(MemSignal) SignalVec;

typedef struct Deriver {
	MemInfo *mi;
	VEC(MemReg) regs;
	VEC(MemCtrl) ctrls;
	int feature, index;
} Deriver;

static int add_reg(Deriver *dv, int width, MemRole role, const char *doc, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));

static int add_reg(Deriver *dv, int width, MemRole role, const char *doc, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	MemReg r = { arena_vprintf(dv->mi->arena, fmt, ap), width, dv->feature, dv->index++, role, doc };
	va_end(ap);
	vec_push(&dv->regs, r);
	return (int)dv->regs.len - 1;
}

static void add_gen(Deriver *dv, MemGen *g, int width, const char *prefix, const char *what)
{
	MemInfo *mi = dv->mi;
	const char *step = mi->affine == MEM_RECURRENCE ? "delta" : "stride";
	g->width = width;
	g->start = add_reg(dv, width, ROLE_SOLVE, arena_printf(mi->arena, "%s: value of the first operation", what),
			   "%s_start", prefix);
	for (int l = 0; l < mi->dims; l++)
		g->step[l] = add_reg(dv, width, ROLE_SOLVE,
				     arena_printf(mi->arena, "%s: %s of level %d", what, step, l),
				     "%s_%s%d", prefix, step, l);
}

/* The address generator of a storage end, or NULL if the port has one slot
 * and no chaining (its address is always 0). */
static MemAddrGen *add_addr_gen(Deriver *dv, const char *cname, MemEnd e, const char *which)
{
	MemInfo *mi = dv->mi;
	if (e.unit < 0)
		return NULL;
	const MemUnitInfo *u = &mi->units[e.unit];
	int width = u->chained ? mi->counter_bits : u->ports[e.port].addr_bits;
	if (width == 0)
		return NULL;
	MemAddrGen *a = arena_alloc(mi->arena, sizeof *a);
	memset(a, 0, sizeof *a);
	a->end = e;
	add_gen(dv, &a->gen, width, arena_printf(mi->arena, "%s_%s", cname, which),
		arena_printf(mi->arena, "address of %s", mem_end_name(mi, e)));
	return a;
}

static int add_ctrl(Deriver *dv, int edge, MemSide side, const char *name)
{
	MemInfo *mi = dv->mi;
	const MemEdgeInfo *e = &mi->edges[edge];
	MemCtrl c;
	memset(&c, 0, sizeof c);
	c.name = name;
	c.edge = edge;
	c.side = side;
	dv->feature = (int)dv->ctrls.len + 1;
	dv->index = 0;
	const char *what = arena_printf(mi->arena, "%s -> %s%s", mem_end_name(mi, e->src),
					mem_end_name(mi, e->dst),
					side == MEM_SIDE_READ ? " (read side)" : side == MEM_SIDE_WRITE ? " (write side)" : "");
	c.en = add_reg(dv, 1, ROLE_SOLVE, arena_printf(mi->arena, "enables %s", what), "%s_en", name);
	for (int l = 0; l < mi->dims; l++)
		c.max[l] = add_reg(dv, mi->counter_bits, ROLE_SOLVE,
				   arena_printf(mi->arena, "%s: extent of level %d minus one", what, l),
				   "%s_max%d", name, l);
	add_gen(dv, &c.sched, mi->counter_bits, arena_printf(mi->arena, "%s_sched", name),
		arena_printf(mi->arena, "cycle of %s", what));
	if (side != MEM_SIDE_WRITE)
		c.src = add_addr_gen(dv, name, e->src, "src");
	if (side != MEM_SIDE_READ)
		c.dst = add_addr_gen(dv, name, e->dst, "dst");
	vec_push(&dv->ctrls, c);
	return (int)dv->ctrls.len - 1;
}

static void add_signal(SignalVec *v, const char *name, int input, int width, MemRole role)
{
	MemSignal s = { name, input, width, role };
	vec_push(v, s);
}

/* Address widths of the ports and which units are chained; returns the
 * fewest address bits of a chained port (what chain_id must cover above). */
static int derive_ports(MemInfo *mi)
{
	int min_chained_bits = mi->counter_bits;
	for (int u = 0; u < mi->nunits; u++) {
		MemUnitInfo *unit = &mi->units[u];
		unit->chained = mi->chain && unit->kind == MEM_SRAM;
		for (int p = 0; p < unit->nports; p++) {
			MemPortInfo *port = &unit->ports[p];
			port->addr_bits = log2_exact(unit->words / port->width);
			if (unit->chained && port->addr_bits < min_chained_bits)
				min_chained_bits = port->addr_bits;
		}
	}
	return min_chained_bits;
}

static void derive_edges(MemInfo *mi)
{
	for (int i = 0; i < mi->nedges; i++) {
		MemEdgeInfo *e = &mi->edges[i];
		const MemPortInfo *src = e->src.unit >= 0 ? &mi->units[e->src.unit].ports[e->src.port] : NULL;
		const MemPortInfo *dst = e->dst.unit >= 0 ? &mi->units[e->dst.unit].ports[e->dst.port] : NULL;
		e->latency = src ? src->latency : 0;
		e->width = src ? src->width : dst ? dst->width : 1;
	}
}

/* The look-up's feature follows the controllers': lookup_en and lookup_wr,
 * which the solver keeps 0 (lake/COLLATERAL.md, "Table look-up"). */
static void derive_lookup(Deriver *dv)
{
	MemInfo *mi = dv->mi;
	MemLookup *lk = &mi->lookup;
	lk->latency = lk->words = 0;
	lk->en = lk->wr = lk->load = -1;
	if (!mem_has_lookup(mi))
		return;
	const MemUnitInfo *u = &mi->units[lk->port.unit];
	lk->latency = u->ports[lk->port.port].latency;
	lk->words = u->words;
	for (int p = 0; p < u->nports && lk->load < 0; p++)
		if (u->ports[p].op & MEM_WRITE)
			lk->load = p;
	dv->feature = (int)dv->ctrls.len + 1;
	dv->index = 0;
	const char *port = mem_end_name(mi, lk->port);
	lk->en = add_reg(dv, 1, ROLE_SET0,
			 arena_printf(mi->arena, "enables the table look-up: %s addresses %s (read at %s), %s "
				      "delivers the word", mi->ins[lk->in], u->name, port, mi->outs[lk->out]),
			 "lookup_en");
	lk->wr = add_reg(dv, 32, ROLE_SET0,
			 arena_printf(mi->arena, "a write loads the look-up table: word (value >> %d) mod %d of %s "
				      "takes the low %d bits (through %s.%s)", mi->word, u->words, u->name, mi->word,
				      u->name, lk->load >= 0 ? u->ports[lk->load].name : "?"),
			 "lookup_wr");
}

/* The tile's registers (feature 0), then one feature per controller: one
 * controller per edge, or a read and a write side without sharing; then the
 * look-up's. */
static void derive_ctrls(MemInfo *mi, int min_chained_bits)
{
	Deriver dv;
	memset(&dv, 0, sizeof dv);
	dv.mi = mi;
	mi->tile_en = add_reg(&dv, 1, ROLE_SET1, "the tile runs (its cycle counter counts)", "tile_en");
	mi->chain_id = -1;
	if (mi->chain)
		mi->chain_id = add_reg(&dv, mi->counter_bits - min_chained_bits, ROLE_SOLVE,
				       "position of the tile in its chain (high SRAM address bits it serves)",
				       "chain_id");
	for (int i = 0; i < mi->nedges; i++) {
		MemEdgeInfo *e = &mi->edges[i];
		e->ctrl[1] = -1;
		if (!mi->share && e->src.unit >= 0 && e->dst.unit >= 0) {
			e->ctrl[0] = add_ctrl(&dv, i, MEM_SIDE_READ, arena_printf(mi->arena, "e%dr", i));
			e->ctrl[1] = add_ctrl(&dv, i, MEM_SIDE_WRITE, arena_printf(mi->arena, "e%dw", i));
		} else {
			e->ctrl[0] = add_ctrl(&dv, i, MEM_SIDE_BOTH, arena_printf(mi->arena, "e%d", i));
		}
	}
	derive_lookup(&dv);
	mi->ctrls = arena_alloc(mi->arena, (size_t)(dv.ctrls.len + 1) * sizeof(MemCtrl));
	if (dv.ctrls.len)
		memcpy(mi->ctrls, dv.ctrls.data, (size_t)dv.ctrls.len * sizeof(MemCtrl));
	mi->nctrls = (int)dv.ctrls.len;
	mi->regs = arena_alloc(mi->arena, (size_t)(dv.regs.len + 1) * sizeof(MemReg));
	memcpy(mi->regs, dv.regs.data, (size_t)dv.regs.len * sizeof(MemReg));
	mi->nregs = (int)dv.regs.len;
	vec_free(&dv.ctrls);
	vec_free(&dv.regs);
}

/* The module's interface with the roles of Fig. 7 of the AHA paper. */
static void derive_signals(MemInfo *mi)
{
	SignalVec sig = { 0 };
	add_signal(&sig, "clk", 1, 1, ROLE_CLK);
	add_signal(&sig, "rst", 1, 1, ROLE_RST);
	add_signal(&sig, "flush", 1, 1, ROLE_SET0);
	add_signal(&sig, "config_addr", 1, 32, ROLE_X);
	add_signal(&sig, "config_data", 1, 32, ROLE_X);
	add_signal(&sig, "config_wr", 1, 1, ROLE_SET0);
	add_signal(&sig, "config_rdata", 0, 32, ROLE_X);
	for (int i = 0; i < mi->nins; i++)
		add_signal(&sig, mi->ins[i], 1, mi->word, ROLE_SEQUENCE);
	for (int i = 0; i < mi->nouts; i++) {
		add_signal(&sig, mi->outs[i], 0, mi->word, ROLE_SEQUENCE);
		add_signal(&sig, arena_printf(mi->arena, "%s_valid", mi->outs[i]), 0, 1, ROLE_SEQUENCE);
		if (mi->chain) {
			add_signal(&sig, arena_printf(mi->arena, "%s_chain_in", mi->outs[i]), 1, mi->word,
				   ROLE_X);
			add_signal(&sig, arena_printf(mi->arena, "%s_chain_valid_in", mi->outs[i]), 1, 1,
				   ROLE_SET0);
		}
	}
	mi->signals = arena_alloc(mi->arena, (size_t)(sig.len + 1) * sizeof(MemSignal));
	memcpy(mi->signals, sig.data, (size_t)sig.len * sizeof(MemSignal));
	mi->nsignals = (int)sig.len;
	vec_free(&sig);
}

void meminfo_derive(MemInfo *mi)
{
	int min_chained_bits = derive_ports(mi);
	derive_edges(mi);
	derive_ctrls(mi, min_chained_bits);
	derive_signals(mi);
}

/* ---- writing ---- */

static void write_gen(YWriter *w, const char *key, const MemInfo *mi, const MemAddrGen *a)
{
	yw_flow_begin(w, key);
	yw_fstr(w, "port", mem_end_name(mi, a->end));
	yw_fint(w, "width", a->gen.width);
	yw_flow_end(w);
}

/* Words over all units, and the widest SRAM fetch. */
static long capacity(const MemInfo *mi, int *fetch)
{
	long cap = 0;
	*fetch = 1;
	for (int u = 0; u < mi->nunits; u++) {
		cap += mi->units[u].words;
		if (mi->units[u].kind == MEM_SRAM && mi->units[u].fetch > *fetch)
			*fetch = mi->units[u].fetch;
	}
	return cap;
}

static void write_header(const MemInfo *mi, YWriter *w)
{
	int fetch;
	yw_comment(w, "Memory-tile collateral written by lake (format: lake/COLLATERAL.md).");
	yw_str(w, "mem", mi->name);
	yw_str(w, "verilog", mi->verilog);
	yw_int(w, "word", mi->word);
	yw_int(w, "capacity", capacity(mi, &fetch));
	yw_int(w, "fetch", fetch);
	yw_flow_begin(w, "controller");
	yw_fint(w, "dims", mi->dims);
	yw_fint(w, "counter_bits", mi->counter_bits);
	yw_fstr(w, "affine", mi->affine == MEM_RECURRENCE ? "recurrence" : "multiply");
	yw_fbool(w, "share", mi->share);
	yw_flow_end(w);
	yw_bool(w, "chain", mi->chain);
}

static void write_units(const MemInfo *mi, YWriter *w)
{
	yw_seq(w, "units");
	for (int u = 0; u < mi->nunits; u++) {
		const MemUnitInfo *unit = &mi->units[u];
		yw_item(w);
		yw_str(w, "name", unit->name);
		yw_str(w, "kind", unit->kind == MEM_SRAM ? "sram" : "regfile");
		yw_int(w, "words", unit->words);
		yw_int(w, "fetch", unit->fetch);
		yw_int(w, "rows", unit->words / unit->fetch);
		yw_bool(w, "chained", unit->chained);
		yw_seq(w, "ports");
		for (int p = 0; p < unit->nports; p++) {
			const MemPortInfo *port = &unit->ports[p];
			yw_flow_begin(w, NULL);
			yw_fstr(w, "name", port->name);
			yw_fstr(w, "op", op_names[port->op]);
			yw_fint(w, "width", port->width);
			yw_fint(w, "latency", port->latency);
			yw_fint(w, "ii", port->ii);
			yw_fint(w, "addr_bits", port->addr_bits);
			yw_flow_end(w);
		}
		yw_end(w);
		yw_end(w);
	}
	yw_end(w);
}

static void write_names(YWriter *w, const char *key, const char *const *names, int n)
{
	yw_seq(w, key);
	for (int i = 0; i < n; i++)
		yw_item_str(w, names[i]);
	yw_end(w);
}

static void write_edges(const MemInfo *mi, YWriter *w)
{
	yw_seq(w, "edges");
	for (int i = 0; i < mi->nedges; i++) {
		const MemEdgeInfo *e = &mi->edges[i];
		yw_flow_begin(w, NULL);
		yw_fstr(w, "src", mem_end_name(mi, e->src));
		yw_fstr(w, "dst", mem_end_name(mi, e->dst));
		yw_fint(w, "width", e->width);
		yw_fint(w, "latency", e->latency);
		yw_flow_end(w);
	}
	yw_end(w);
}

static void write_ctrls(const MemInfo *mi, YWriter *w)
{
	yw_seq(w, "controllers");
	for (int c = 0; c < mi->nctrls; c++) {
		const MemCtrl *ct = &mi->ctrls[c];
		yw_item(w);
		yw_str(w, "name", ct->name);
		yw_int(w, "edge", ct->edge);
		yw_str(w, "side", side_names[ct->side]);
		yw_int(w, "feature", c + 1);
		if (ct->src)
			write_gen(w, "src_address", mi, ct->src);
		if (ct->dst)
			write_gen(w, "dst_address", mi, ct->dst);
		yw_end(w);
	}
	yw_end(w);
}

static void write_lookup(const MemInfo *mi, YWriter *w)
{
	const MemLookup *lk = &mi->lookup;
	if (!mem_has_lookup(mi))
		return;
	const MemUnitInfo *u = &mi->units[lk->port.unit];
	yw_flow_begin(w, "lookup");
	yw_fstr(w, "unit", u->name);
	yw_fstr(w, "port", u->ports[lk->port.port].name);
	yw_fstr(w, "in", mi->ins[lk->in]);
	yw_fstr(w, "out", mi->outs[lk->out]);
	yw_fint(w, "latency", lk->latency);
	yw_fint(w, "words", lk->words);
	yw_fstr(w, "load", u->ports[lk->load].name);
	yw_fint(w, "feature", mi->nctrls + 1);
	yw_flow_end(w);
}

static void write_regs(const MemInfo *mi, YWriter *w)
{
	char addr[16];
	yw_seq(w, "registers");
	for (int i = 0; i < mi->nregs; i++) {
		const MemReg *r = &mi->regs[i];
		yw_flow_begin(w, NULL);
		yw_fstr(w, "name", r->name);
		yw_fint(w, "width", r->width);
		snprintf(addr, sizeof addr, "0x%08x", mem_reg_address(r));
		yw_fstr(w, "address", addr);
		yw_fint(w, "reg", r->index);
		yw_fint(w, "feature", r->feature);
		yw_fstr(w, "role", mem_role_name(r->role));
		yw_fstr(w, "doc", r->doc);
		yw_flow_end(w);
	}
	yw_end(w);
	yw_int(w, "config_bits", mem_config_bits(mi));
}

static void write_interface(const MemInfo *mi, YWriter *w)
{
	yw_seq(w, "interface");
	for (int i = 0; i < mi->nsignals; i++) {
		const MemSignal *sg = &mi->signals[i];
		yw_flow_begin(w, NULL);
		yw_fstr(w, "name", sg->name);
		yw_fstr(w, "dir", sg->input ? "input" : "output");
		yw_fint(w, "width", sg->width);
		yw_fstr(w, "role", mem_role_name(sg->role));
		yw_flow_end(w);
	}
	yw_end(w);
}

void meminfo_write(const MemInfo *mi, FILE *f)
{
	YWriter w;
	yw_init(&w, f);
	write_header(mi, &w);
	write_units(mi, &w);
	write_names(&w, "inputs", mi->ins, mi->nins);
	write_names(&w, "outputs", mi->outs, mi->nouts);
	write_edges(mi, &w);
	write_ctrls(mi, &w);
	write_lookup(mi, &w);
	write_regs(mi, &w);
	write_interface(mi, &w);
}

/* ---- reading ---- */

typedef struct Reader {
	MemInfo *mi;
	Diags *d;
	int errors;
} Reader;

static int rd_int(Reader *r, const YNode *map, const char *key, long lo, long hi, int *out)
{
	const YNode *n = ymap_get(map, key);
	long long v;
	if (!n) {
		ynode_error(r->d, map, "missing '%s'", key);
		return 0;
	}
	if (n->kind != YN_SCALAR || yscalar_int(n, &v) != 0) {
		ynode_error(r->d, n, "expected a number for '%s'", key);
		return 0;
	}
	if (v < lo || v > hi) {
		ynode_error(r->d, n, "'%s' %lld is out of range (%ld to %ld)", key, v, lo, hi);
		return 0;
	}
	*out = (int)v;
	return 1;
}

static const char *rd_str(Reader *r, const YNode *map, const char *key)
{
	const YNode *n = ymap_get(map, key);
	if (!n) {
		ynode_error(r->d, map, "missing '%s'", key);
		return NULL;
	}
	if (n->kind != YN_SCALAR) {
		ynode_error(r->d, n, "expected a name for '%s'", key);
		return NULL;
	}
	return arena_strdup(r->mi->arena, n->value);
}

/* A name the Verilog uses: an identifier that is not a keyword. */
static const char *rd_name(Reader *r, const YNode *map, const char *key)
{
	const char *s = rd_str(r, map, key);
	if (s && (!util_is_identifier(s) || vw_is_keyword(s) || strlen(s) > 200)) {
		ynode_error(r->d, ymap_get(map, key), "'%s' is not a name the Verilog can use", s);
		return NULL;
	}
	return s;
}

/* The index of map[key] in names[n], or -1 with "unknown <noun> '<value>'"
 * at it. */
static int rd_named(Reader *r, const YNode *map, const char *key, const char *const *names, int n,
		    const char *noun)
{
	const char *s = rd_str(r, map, key);
	if (!s)
		return -1;
	for (int i = 0; i < n; i++)
		if (strcmp(s, names[i]) == 0)
			return i;
	ynode_error(r->d, ymap_get(map, key), "unknown %s '%s'", noun, s);
	return -1;
}

static int rd_choice(Reader *r, const YNode *map, const char *key, const char *const *names, int n)
{
	return rd_named(r, map, key, names, n, key);
}

static int rd_bool(Reader *r, const YNode *map, const char *key, int *out)
{
	int v = rd_choice(r, map, key, (const char *const[]){ "false", "true" }, 2);
	if (v < 0)
		return 0;
	*out = v;
	return 1;
}

static const YNode *rd_seq(Reader *r, const YNode *map, const char *key)
{
	const YNode *n = ymap_get(map, key);
	if (!n) {
		ynode_error(r->d, map, "missing '%s'", key);
		return NULL;
	}
	return ynode_expect(n, YN_SEQ, key, r->d) ? n : NULL;
}

static const char **rd_names(Reader *r, const YNode *map, const char *key, int *count)
{
	const YNode *n = rd_seq(r, map, key);
	*count = 0;
	if (!n)
		return NULL;
	const char **v = arena_alloc(r->mi->arena, (size_t)(n->len + 1) * sizeof *v);
	for (int i = 0; i < n->len; i++) {
		if (n->items[i]->kind != YN_SCALAR || !util_is_identifier(n->items[i]->value) ||
		    vw_is_keyword(n->items[i]->value) || strlen(n->items[i]->value) > 200) {
			ynode_error(r->d, n->items[i], "expected a port name");
			return NULL;
		}
		v[i] = arena_strdup(r->mi->arena, n->items[i]->value);
	}
	*count = n->len;
	return v;
}

static int is_pow2(long v)
{
	return v > 0 && (v & (v - 1)) == 0;
}

static int rd_unit(Reader *r, const YNode *n, MemUnitInfo *u)
{
	if (!ynode_expect(n, YN_MAP, "a storage unit", r->d))
		return 0;
	u->name = rd_name(r, n, "name");
	int kind = rd_choice(r, n, "kind", (const char *const[]){ "sram", "regfile" }, 2);
	if (!u->name || kind < 0 || !rd_int(r, n, "words", 1, MEM_MAX_WORDS, &u->words) ||
	    !rd_int(r, n, "fetch", 1, MEM_MAX_FETCH, &u->fetch))
		return 0;
	u->kind = kind ? MEM_REGFILE : MEM_SRAM;
	if (!is_pow2(u->words) || !is_pow2(u->fetch) || u->fetch > u->words) {
		ynode_error(r->d, n, "words and fetch must be powers of two with fetch <= words");
		return 0;
	}
	const YNode *ports = rd_seq(r, n, "ports");
	if (!ports)
		return 0;
	u->ports = arena_alloc(r->mi->arena, (size_t)(ports->len + 1) * sizeof(MemPortInfo));
	u->nports = ports->len;
	for (int p = 0; p < ports->len; p++) {
		const YNode *pn = ports->items[p];
		MemPortInfo *port = &u->ports[p];
		if (!ynode_expect(pn, YN_MAP, "a port", r->d))
			return 0;
		port->name = rd_name(r, pn, "name");
		int op = rd_choice(r, pn, "op", op_names, 4);
		if (!port->name || op <= 0 || !rd_int(r, pn, "width", 1, u->fetch, &port->width) ||
		    !rd_int(r, pn, "latency", 0, MEM_MAX_LATENCY, &port->latency) ||
		    !rd_int(r, pn, "ii", 1, MEM_MAX_II, &port->ii))
			return 0;
		for (int q = 0; q < p; q++)
			if (strcmp(u->ports[q].name, port->name) == 0) {
				ynode_error(r->d, pn, "a second port '%s' of '%s'", port->name, u->name);
				return 0;
			}
		port->op = (MemOp)op;
		if (u->fetch % port->width != 0) {
			ynode_error(r->d, pn, "port width %d does not divide the fetch width %d", port->width,
				   u->fetch);
			return 0;
		}
	}
	return 1;
}

/* "in0", "out1" or "unit.port" to an end. */
static int rd_end(Reader *r, const YNode *map, const char *key, MemEnd *e)
{
	const MemInfo *mi = r->mi;
	const char *s = rd_str(r, map, key);
	if (!s)
		return 0;
	/* (names an earlier error left unread are NULL: skipped) */
	for (int i = 0; i < mi->nins; i++)
		if (mi->ins[i] && strcmp(s, mi->ins[i]) == 0)
			return *e = (MemEnd){ MEM_TILE_IN, i }, 1;
	for (int i = 0; i < mi->nouts; i++)
		if (mi->outs[i] && strcmp(s, mi->outs[i]) == 0)
			return *e = (MemEnd){ MEM_TILE_OUT, i }, 1;
	const char *dot = strchr(s, '.');
	for (int u = 0; dot && u < mi->nunits; u++)
		if (mi->units[u].name && strlen(mi->units[u].name) == (size_t)(dot - s) &&
		    strncmp(mi->units[u].name, s, (size_t)(dot - s)) == 0)
			for (int p = 0; p < mi->units[u].nports; p++)
				if (mi->units[u].ports[p].name && strcmp(mi->units[u].ports[p].name, dot + 1) == 0)
					return *e = (MemEnd){ u, p }, 1;
	ynode_error(r->d, ymap_get(map, key), "unknown port '%s'", s);
	return 0;
}

static int rd_edge(Reader *r, const YNode *n, MemEdgeInfo *e)
{
	const MemInfo *mi = r->mi;
	if (!ynode_expect(n, YN_MAP, "an edge { src, dst, width, latency }", r->d) ||
	    !rd_end(r, n, "src", &e->src) || !rd_end(r, n, "dst", &e->dst))
		return 0;
	int srcok = e->src.unit == MEM_TILE_IN ||
		    (e->src.unit >= 0 && (mi->units[e->src.unit].ports[e->src.port].op & MEM_READ));
	int dstok = e->dst.unit == MEM_TILE_OUT ||
		    (e->dst.unit >= 0 && (mi->units[e->dst.unit].ports[e->dst.port].op & MEM_WRITE));
	if (!srcok || !dstok || (e->src.unit < 0 && e->dst.unit < 0) ||
	    (e->src.unit >= 0 && e->src.unit == e->dst.unit)) {
		ynode_error(r->d, n, "an edge runs from a tile input or readable port to a tile output or "
			    "writable port, through at least one storage unit");
		return 0;
	}
	int ws = e->src.unit >= 0 ? mi->units[e->src.unit].ports[e->src.port].width : 1;
	int wd = e->dst.unit >= 0 ? mi->units[e->dst.unit].ports[e->dst.port].width : 1;
	if (ws != wd) {
		ynode_error(r->d, n, "port widths differ across the edge");
		return 0;
	}
	return 1;
}

/* A number the file repeats must be the one the structure gives. */
static void expect_int(Reader *r, const YNode *map, const char *key, long want)
{
	const YNode *n = ymap_get(map, key);
	long long v;
	if (!n)
		ynode_error(r->d, map, "missing '%s'", key);
	else if (n->kind != YN_SCALAR || yscalar_int(n, &v) != 0)
		ynode_error(r->d, n, "expected a number for '%s'", key);
	else if (v != want)
		ynode_error(r->d, n, "'%s' is %lld; the structure gives %ld", key, v, want);
}

static void expect_str(Reader *r, const YNode *map, const char *key, const char *want)
{
	const char *v = rd_str(r, map, key);
	if (v && strcmp(v, want) != 0)
		ynode_error(r->d, ymap_get(map, key), "'%s' is '%s'; the structure gives '%s'", key, v, want);
}

static void check_units(Reader *r, const YNode *root)
{
	const MemInfo *mi = r->mi;
	const YNode *units = ymap_get(root, "units");
	int fetch;
	long cap = capacity(mi, &fetch);
	for (int u = 0; u < mi->nunits; u++) {
		const MemUnitInfo *unit = &mi->units[u];
		const YNode *n = units->items[u];
		expect_int(r, n, "rows", unit->words / unit->fetch);
		expect_str(r, n, "chained", unit->chained ? "true" : "false");
		const YNode *ports = ymap_get(n, "ports");
		for (int p = 0; p < unit->nports; p++)
			expect_int(r, ports->items[p], "addr_bits", unit->ports[p].addr_bits);
	}
	expect_int(r, root, "capacity", cap);
	expect_int(r, root, "fetch", fetch);
}

static void check_edges(Reader *r, const YNode *root)
{
	const MemInfo *mi = r->mi;
	const YNode *edges = ymap_get(root, "edges");
	for (int i = 0; i < mi->nedges; i++) {
		expect_int(r, edges->items[i], "width", mi->edges[i].width);
		expect_int(r, edges->items[i], "latency", mi->edges[i].latency);
	}
}

static void check_ctrls(Reader *r, const YNode *root)
{
	const MemInfo *mi = r->mi;
	const YNode *ctrls = rd_seq(r, root, "controllers");
	if (ctrls && ctrls->len != mi->nctrls)
		ynode_error(r->d, ctrls, "%d controllers listed; the structure has %d", ctrls->len, mi->nctrls);
	for (int c = 0; ctrls && c < ctrls->len && c < mi->nctrls; c++) {
		const YNode *n = ctrls->items[c];
		const MemCtrl *ct = &mi->ctrls[c];
		expect_str(r, n, "name", ct->name);
		expect_int(r, n, "edge", ct->edge);
		expect_str(r, n, "side", side_names[ct->side]);
		expect_int(r, n, "feature", c + 1);
		const MemAddrGen *ag[2] = { ct->src, ct->dst };
		const char *keys[2] = { "src_address", "dst_address" };
		for (int k = 0; k < 2; k++) {
			const YNode *g = ymap_get(n, keys[k]);
			if (!g != !ag[k])
				ynode_error(r->d, g ? g : n, "'%s' is %s; the structure %s one", keys[k],
					   g ? "listed" : "missing", ag[k] ? "has" : "has no");
			else if (g && ynode_expect(g, YN_MAP, keys[k], r->d)) {
				expect_str(r, g, "port", mem_end_name(mi, ag[k]->end));
				expect_int(r, g, "width", ag[k]->gen.width);
			}
		}
	}
}

static void check_regs(Reader *r, const YNode *root)
{
	const MemInfo *mi = r->mi;
	const YNode *regs = rd_seq(r, root, "registers");
	if (regs && regs->len != mi->nregs)
		ynode_error(r->d, regs, "%d registers listed; the structure has %d", regs->len, mi->nregs);
	for (int i = 0; regs && i < regs->len && i < mi->nregs; i++) {
		const YNode *n = regs->items[i];
		const MemReg *reg = &mi->regs[i];
		const char *name = rd_str(r, n, "name");
		const char *addr = rd_str(r, n, "address");
		int width;
		int role = rd_choice(r, n, "role", role_names, 7);
		char want[16];
		snprintf(want, sizeof want, "0x%08x", mem_reg_address(reg));
		if (!name || !addr || role < 0 || !rd_int(r, n, "width", 1, 32, &width))
			continue;
		/* the register's number and feature, which its address repeats */
		expect_int(r, n, "reg", reg->index);
		expect_int(r, n, "feature", reg->feature);
		if (strcmp(name, reg->name) != 0 || strcmp(addr, want) != 0 || width != reg->width ||
		    role != (int)reg->role)
			ynode_error(r->d, n, "register %d is '%s' (%d bits at %s, %s); the structure gives '%s' "
				    "(%d bits at %s, %s)", i, name, width, addr, role_names[role], reg->name,
				    reg->width, want, role_names[reg->role]);
	}
	int bits;
	if (rd_int(r, root, "config_bits", 0, 1 << 30, &bits) && bits != mem_config_bits(mi))
		ynode_error(r->d, ymap_get(root, "config_bits"), "config_bits %d; the registers add up to %ld",
			   bits, mem_config_bits(mi));
}

static void check_lookup(Reader *r, const YNode *root)
{
	const MemInfo *mi = r->mi;
	const YNode *n = ymap_get(root, "lookup");
	if (!n)
		return;
	const MemUnitInfo *u = &mi->units[mi->lookup.port.unit];
	expect_int(r, n, "latency", mi->lookup.latency);
	expect_int(r, n, "words", mi->lookup.words);
	expect_str(r, n, "load", u->ports[mi->lookup.load].name);
	expect_int(r, n, "feature", mi->nctrls + 1);
}

/* The derived fields the file repeats must be what the structure implies. */
static void check_derived(Reader *r, const YNode *root)
{
	check_units(r, root);
	check_edges(r, root);
	check_ctrls(r, root);
	check_lookup(r, root);
	check_regs(r, root);
}

/* Units and tile ports share the top level of the Verilog module. */
static void check_unique(Reader *r, const YNode *root)
{
	const MemInfo *mi = r->mi;
	StrMap seen;
	strmap_init(&seen);
	const YNode *lists[3] = { ymap_get(root, "units"), ymap_get(root, "inputs"), ymap_get(root, "outputs") };
	int counts[3] = { mi->nunits, mi->nins, mi->nouts };
	for (int k = 0; k < 3; k++)
		for (int i = 0; i < counts[k]; i++) {
			const char *name = k == 0 ? mi->units[i].name : k == 1 ? mi->ins[i] : mi->outs[i];
			const YNode *at = k == 0 ? ymap_get(lists[0]->items[i], "name") : lists[k]->items[i];
			if (!strmap_put(&seen, name, 0))
				ynode_error(r->d, at, "'%s' names two units or tile ports", name);
		}
	strmap_free(&seen);
}

/* mem, verilog, word, controller options and chain. */
static void read_header(Reader *r, const YNode *root)
{
	MemInfo *mi = r->mi;
	mi->name = rd_name(r, root, "mem");
	mi->verilog = rd_str(r, root, "verilog");
	if (mi->name && mi->verilog && strcmp(mi->verilog, arena_printf(mi->arena, "%s.v", mi->name)) != 0)
		ynode_error(r->d, ymap_get(root, "verilog"), "the Verilog of memory '%s' is '%s.v', not '%s'",
			   mi->name, mi->name, mi->verilog);
	rd_int(r, root, "word", 1, 64, &mi->word);
	const YNode *ctl = ymap_get(root, "controller");
	if (!ctl) {
		ynode_error(r->d, root, "missing 'controller'");
	} else if (ynode_expect(ctl, YN_MAP, "controller", r->d)) {
		int aff = rd_choice(r, ctl, "affine", (const char *const[]){ "recurrence", "multiply" }, 2);
		mi->affine = aff == 1 ? MEM_MULTIPLY : MEM_RECURRENCE;
		rd_int(r, ctl, "dims", 1, MEM_MAX_DIMS, &mi->dims);
		rd_int(r, ctl, "counter_bits", 1, 32, &mi->counter_bits);
		rd_bool(r, ctl, "share", &mi->share);
	}
	rd_bool(r, root, "chain", &mi->chain);
}

static void read_units(Reader *r, const YNode *root)
{
	MemInfo *mi = r->mi;
	const YNode *units = rd_seq(r, root, "units");
	if (!units)
		return;
	mi->units = arena_alloc(mi->arena, (size_t)(units->len + 1) * sizeof(MemUnitInfo));
	memset(mi->units, 0, (size_t)(units->len + 1) * sizeof(MemUnitInfo));
	mi->nunits = units->len;
	for (int u = 0; u < units->len; u++)
		rd_unit(r, units->items[u], &mi->units[u]);
}

static void read_edges(Reader *r, const YNode *root)
{
	MemInfo *mi = r->mi;
	const YNode *edges = rd_seq(r, root, "edges");
	if (!edges)
		return;
	if (edges->len > 126) {
		ynode_error(r->d, edges, "at most 126 edges (each controller is a configuration feature)");
		return;
	}
	mi->edges = arena_alloc(mi->arena, (size_t)(edges->len + 1) * sizeof(MemEdgeInfo));
	memset(mi->edges, 0, (size_t)(edges->len + 1) * sizeof(MemEdgeInfo));
	mi->nedges = edges->len;
	for (int i = 0; i < edges->len; i++)
		rd_edge(r, edges->items[i], &mi->edges[i]);
}

/* The storage port named by the look-up's unit and port keys, or 0. */
static int rd_lookup_port(Reader *r, const YNode *n, MemEnd *e)
{
	const MemInfo *mi = r->mi;
	const char *unit = rd_str(r, n, "unit"), *port = rd_str(r, n, "port");
	if (!unit || !port)
		return 0;
	for (int u = 0; u < mi->nunits; u++) {
		if (!mi->units[u].name || strcmp(mi->units[u].name, unit) != 0)
			continue;
		for (int p = 0; p < mi->units[u].nports; p++)
			if (mi->units[u].ports[p].name && strcmp(mi->units[u].ports[p].name, port) == 0)
				return *e = (MemEnd){ u, p }, 1;
		ynode_error(r->d, ymap_get(n, "port"), "storage unit '%s' has no port '%s'", unit, port);
		return 0;
	}
	ynode_error(r->d, ymap_get(n, "unit"), "unknown storage unit '%s'", unit);
	return 0;
}

/* The look-up's port must read, its unit must have a port to load the table
 * through, and lookup_wr must hold a word and its address. */
static int check_lookup_port(Reader *r, const YNode *n, MemEnd e)
{
	const MemInfo *mi = r->mi;
	const MemUnitInfo *u = &mi->units[e.unit];
	int writable = 0;
	for (int p = 0; p < u->nports; p++)
		writable |= (u->ports[p].op & MEM_WRITE) != 0;
	if (!(u->ports[e.port].op & MEM_READ))
		ynode_error(r->d, ymap_get(n, "port"), "the look-up port '%s' cannot read", mem_end_name(mi, e));
	else if (!writable)
		ynode_error(r->d, ymap_get(n, "unit"), "'%s' has no write port to load the look-up table through",
			   u->name);
	else if (mi->word + log2_exact(u->words) > 32)
		ynode_error(r->d, ymap_get(n, "unit"), "a look-up table of %d %d-bit words does not fit lookup_wr "
			    "(%d data and %d address bits; at most 32)", u->words, mi->word, mi->word,
			    log2_exact(u->words));
	else
		return 1;
	return 0;
}

/* lookup: { unit, port, in, out, latency, words, load, feature } (the last
 * four derived, checked later). */
static void read_lookup(Reader *r, const YNode *root)
{
	static const char *const keys[] = { "unit", "port", "in", "out", "latency", "words", "load", "feature",
					    NULL };
	MemInfo *mi = r->mi;
	const YNode *n = ymap_get(root, "lookup");
	MemEnd e;
	if (!n || !ynode_expect(n, YN_MAP, "a look-up { unit, port, in, out, ... }", r->d))
		return;
	ymap_check_keys(n, keys, "the look-up", r->d);
	int in = rd_named(r, n, "in", mi->ins, mi->nins, "tile input");
	int out = rd_named(r, n, "out", mi->outs, mi->nouts, "tile output");
	if (!rd_lookup_port(r, n, &e) || in < 0 || out < 0 || !check_lookup_port(r, n, e))
		return;
	mi->lookup.port = e;
	mi->lookup.in = in;
	mi->lookup.out = out;
}

/* The counters must reach every slot, and above it on a chained SRAM. */
static void check_counter_bits(Reader *r, const YNode *root)
{
	const MemInfo *mi = r->mi;
	const YNode *units = ymap_get(root, "units");
	for (int u = 0; u < mi->nunits; u++)
		for (int p = 0; p < mi->units[u].nports; p++) {
			int bits = log2_exact(mi->units[u].words / mi->units[u].ports[p].width);
			int chained = mi->chain && mi->units[u].kind == MEM_SRAM;
			if (bits > mi->counter_bits || (chained && bits >= mi->counter_bits)) {
				ynode_error(r->d, units->items[u], "%d-bit counters cannot address '%s'%s",
					   mi->counter_bits, mi->units[u].name,
					   chained ? " and select a tile of a chain" : "");
				break;
			}
		}
}

/* What read_root reads: the collateral, NULL until it is read without errors. */
typedef struct Load {
	Diags *d;
	MemInfo *mi;
} Load;

static void read_root(void *ctx, const YNode *root)
{
	Load *l = ctx;
	Diags *d = l->d;
	Arena *a = arena_new();
	MemInfo *mi = arena_alloc(a, sizeof *mi);
	memset(mi, 0, sizeof *mi);
	mi->arena = a;
	mi->lookup.port.unit = -1;
	Reader rd = { mi, d, diags_errors(d) };
	read_header(&rd, root);
	read_units(&rd, root);
	mi->ins = rd_names(&rd, root, "inputs", &mi->nins);
	mi->outs = rd_names(&rd, root, "outputs", &mi->nouts);
	/* each step needs the ones before it to be sound */
	void (*const steps[])(Reader *, const YNode *) = { check_unique, read_edges, check_counter_bits,
							   read_lookup, NULL };
	for (int i = 0; steps[i] && diags_errors(d) == rd.errors; i++)
		steps[i](&rd, root);
	if (diags_errors(d) == rd.errors) {
		meminfo_derive(mi);
		check_derived(&rd, root);
	}
	if (diags_errors(d) != rd.errors)
		arena_free(a);
	else
		l->mi = mi;
}

static MemInfo *load(const char *path, const char *text, Diags *d)
{
	Load l = { d, NULL };
	YDoc *doc;
	ydoc_read(path, text, NULL, "a memory-tile collateral mapping (lake/COLLATERAL.md)", read_root, &l, &doc, d);
	ydoc_free(doc);
	return l.mi;
}

MemInfo *meminfo_load(const char *path, Diags *d)
{
	return load(path, NULL, d);
}

MemInfo *meminfo_load_string(const char *name, const char *text, Diags *d)
{
	return load(name, text, d);
}
