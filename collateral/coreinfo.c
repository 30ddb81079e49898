/* coreinfo.c - a core's routable ports and configuration registers from its
 * collateral (see coreinfo.h). A PE's instruction word becomes 32-bit
 * registers inst0, inst1, ... (feature 0, LSB first); a memory's registers
 * and ports come from its MemInfo. */
#include "coreinfo.h"

#include <string.h>

#include "meminfo.h"
#include "../common/yamlr.h"

void coreinfo_free(CoreInfo *c)
{
	if (c)
		arena_free(c->arena);
}

static CoreInfo *new_core(CoreKind kind)
{
	Arena *a = arena_new();
	CoreInfo *c = arena_alloc(a, sizeof *c);
	memset(c, 0, sizeof *c);
	c->arena = a;
	c->kind = kind;
	return c;
}

/* ---- PE ---- */

static const char *scalar(const YNode *map, const char *key, Diags *d)
{
	const YNode *n = ymap_get(map, key);
	if (!n || n->kind != YN_SCALAR) {
		ynode_error(d, n ? n : map, "expected '%s' (a PE info file, peak/COLLATERAL.md)", key);
		return NULL;
	}
	return n->value;
}

static int number(const YNode *map, const char *key, long lo, long hi, Diags *d, int *out)
{
	const YNode *n = ymap_get(map, key);
	long long v;
	if (!n || n->kind != YN_SCALAR || yscalar_int(n, &v) != 0 || v < lo || v > hi) {
		ynode_error(d, n ? n : map, "expected '%s' from %ld to %ld", key, lo, hi);
		return 0;
	}
	*out = (int)v;
	return 1;
}

/* inputs: / outputs: [ { name, width } ... ] */
static int pe_ports(CoreInfo *c, const YNode *root, const char *key, CorePort **out, int *n, Diags *d)
{
	const YNode *list = ymap_get(root, key);
	if (!list || !ynode_expect(list, YN_SEQ, key, d)) {
		if (!list)
			ynode_error(d, root, "missing '%s'", key);
		return 0;
	}
	*out = arena_alloc(c->arena, (size_t)(list->len + 1) * sizeof(CorePort));
	*n = list->len;
	for (int i = 0; i < list->len; i++) {
		const char *name = scalar(list->items[i], "name", d);
		if (!name || !number(list->items[i], "width", 1, 64, d, &(*out)[i].width))
			return 0;
		(*out)[i].name = arena_strdup(c->arena, name);
	}
	return 1;
}

static CoreInfo *load_pe(const YNode *root, Diags *d)
{
	CoreInfo *c = new_core(CORE_PE);
	const YNode *mod = ymap_get(root, "module"), *inst = ymap_get(root, "instruction");
	const char *name = scalar(root, "pe", d), *verilog = scalar(root, "verilog", d);
	int ok = name && verilog && mod && inst && ynode_expect(mod, YN_MAP, "module", d) &&
		 ynode_expect(inst, YN_MAP, "instruction", d);
	const char *clock = ok ? scalar(mod, "clock", d) : NULL, *reset = ok ? scalar(mod, "reset", d) : NULL;
	const char *ibus = ok ? scalar(mod, "instruction", d) : NULL;
	ok = ok && clock && reset && ibus && number(inst, "width", 1, 32 * 256, d, &c->inst_width) &&
	     pe_ports(c, root, "inputs", &c->ins, &c->nins, d) &&
	     pe_ports(c, root, "outputs", &c->outs, &c->nouts, d);
	if (!ok) {
		if (!mod || !inst)
			ynode_error(d, root, "missing 'module' or 'instruction' (a PE info file)");
		coreinfo_free(c);
		return NULL;
	}
	c->name = arena_strdup(c->arena, name);
	c->verilog = arena_strdup(c->arena, verilog);
	c->clock = arena_strdup(c->arena, clock);
	c->reset = arena_strdup(c->arena, reset);
	c->inst = arena_strdup(c->arena, ibus);
	c->nregs = (c->inst_width + 31) / 32;
	c->regs = arena_alloc(c->arena, (size_t)c->nregs * sizeof(CoreReg));
	for (int i = 0; i < c->nregs; i++) {
		int w = c->inst_width - 32 * i;
		c->regs[i] = (CoreReg){ arena_printf(c->arena, "inst%d", i), w > 32 ? 32 : w, 0, i };
	}
	return c;
}

/* ---- MEM ---- */

static CoreInfo *from_mem(const MemInfo *mi)
{
	CoreInfo *c = new_core(CORE_MEM);
	Arena *a = c->arena;
	c->name = arena_strdup(a, mi->name);
	c->verilog = arena_strdup(a, mi->verilog);
	c->clock = "clk";
	c->reset = "rst";
	c->config_bus = c->flush = 1;
	c->ins = arena_alloc(a, (size_t)(mi->nsignals + 1) * sizeof(CorePort));
	c->outs = arena_alloc(a, (size_t)(mi->nsignals + 1) * sizeof(CorePort));
	for (int i = 0; i < mi->nsignals; i++) {
		const MemSignal *s = &mi->signals[i];
		if (s->role == ROLE_CLK || s->role == ROLE_RST || strcmp(s->name, "flush") == 0 ||
		    strncmp(s->name, "config_", 7) == 0)
			continue;
		CorePort p = { arena_strdup(a, s->name), s->width };
		if (s->input)
			c->ins[c->nins++] = p;
		else
			c->outs[c->nouts++] = p;
	}
	c->regs = arena_alloc(a, (size_t)(mi->nregs + 1) * sizeof(CoreReg));
	c->nregs = mi->nregs;
	for (int i = 0; i < mi->nregs; i++)
		c->regs[i] = (CoreReg){ arena_strdup(a, mi->regs[i].name), mi->regs[i].width,
					mi->regs[i].feature, mi->regs[i].index };
	return c;
}

CoreInfo *coreinfo_load(const char *path, Diags *d)
{
	YDoc *doc = ydoc_load_file(path, d);
	if (!doc)
		return NULL;
	CoreInfo *c = NULL;
	const YNode *root = doc->root;
	if (root && root->kind == YN_MAP && ymap_get(root, "pe")) {
		c = load_pe(root, d);
	} else if (root && root->kind == YN_MAP && ymap_get(root, "mem")) {
		MemInfo *mi = meminfo_load(path, d);
		c = mi ? from_mem(mi) : NULL;
		meminfo_free(mi);
	} else {
		diag_error(d, path, root ? root->line : 1, root ? root->col : 1,
			   "expected a core's collateral: a PE info (pe: ...) or a memory info (mem: ...)");
	}
	ydoc_free(doc);
	return c;
}

CoreInfo *coreinfo_io(const int *widths, int nwidths)
{
	CoreInfo *c = new_core(CORE_IO);
	c->name = "io";
	c->ins = arena_alloc(c->arena, (size_t)(nwidths + 1) * sizeof(CorePort));
	c->outs = arena_alloc(c->arena, (size_t)(nwidths + 1) * sizeof(CorePort));
	for (int i = 0; i < nwidths; i++) {
		c->outs[c->nouts++] = (CorePort){ arena_printf(c->arena, "io2f_%d", widths[i]), widths[i] };
		c->ins[c->nins++] = (CorePort){ arena_printf(c->arena, "f2io_%d", widths[i]), widths[i] };
	}
	return c;
}
