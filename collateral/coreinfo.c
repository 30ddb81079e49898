/* coreinfo.c - a core's routable ports and configuration registers from its
 * collateral (see coreinfo.h), read by the collateral's own readers and so
 * checked as the compiler's are: a PE's info through peinfo (names, enums,
 * fields, ports), a memory's through meminfo. A PE's instruction word becomes
 * 32-bit registers inst0, inst1, ... (feature 0, LSB first); a memory's
 * registers and ports come from its MemInfo. */
#include "coreinfo.h"

#include <stdlib.h>
#include <string.h>

#include "meminfo.h"
#include "peinfo.h"
#include "../common/vwrite.h"
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

/* module: { name, clock, reset, instruction }: the signals of the PE's
 * module, each a name the Verilog can use and none a port's. */
static const char *module_signal(const YNode *mod, const char *key, const PeInfo *pi, Diags *d)
{
	const YNode *n = ymap_get(mod, key);
	if (!n || n->kind != YN_SCALAR) {
		ynode_error(d, n ? n : mod, "expected '%s' (a PE info file, peak/COLLATERAL.md)", key);
		return NULL;
	}
	if (!util_is_identifier(n->value) || vw_is_keyword(n->value)) {
		ynode_error(d, n, "'%s' is not a name the PE's module can use", n->value);
		return NULL;
	}
	if (peinfo_input(pi, n->value) >= 0 || peinfo_output(pi, n->value) >= 0) {
		ynode_error(d, n, "'%s' names both the module's %s and one of its ports", n->value, key);
		return NULL;
	}
	return n->value;
}

/* The PE's info, read and checked by collateral/peinfo (names, enums, the
 * instruction's fields, ports), and its module's signals and file. */
static CoreInfo *load_pe(const YDoc *doc, Diags *d)
{
	const YNode *root = doc->root;
	PeInfo *pi = peinfo_read_info(doc, d);
	if (!pi)
		return NULL;
	const YNode *mod = ymap_get(root, "module"), *verilog = ymap_get(root, "verilog"), *mname;
	const char *clock = NULL, *reset = NULL, *ibus = NULL;
	int ok = 1;
	if (!mod || !ynode_expect(mod, YN_MAP, "module", d)) {
		if (!mod)
			ynode_error(d, root, "missing 'module' (a PE info file)");
		ok = 0;
	} else {
		clock = module_signal(mod, "clock", pi, d);
		reset = module_signal(mod, "reset", pi, d);
		ibus = module_signal(mod, "instruction", pi, d);
		ok = clock && reset && ibus;
		if (ok && (!strcmp(clock, reset) || !strcmp(clock, ibus) || !strcmp(reset, ibus))) {
			ynode_error(d, mod, "the module's clock, reset and instruction need three names");
			ok = 0;
		}
		if ((mname = ymap_get(mod, "name")) && (mname->kind != YN_SCALAR || strcmp(mname->value, pi->name))) {
			ynode_error(d, mname, "the module of PE '%s' is named '%s', not '%s'", pi->name, pi->name,
				    mname->kind == YN_SCALAR ? mname->value : "?");
			ok = 0;
		}
	}
	char *want = xasprintf("%s.v", pi->name);
	if (!verilog || verilog->kind != YN_SCALAR) {
		ynode_error(d, verilog ? verilog : root, "expected 'verilog: %s' (a PE info file)", want);
		ok = 0;
	} else if (strcmp(verilog->value, want) != 0) {
		ynode_error(d, verilog, "the Verilog of PE '%s' is '%s', not '%s'", pi->name, want, verilog->value);
		ok = 0;
	}
	free(want);
	CoreInfo *c = NULL;
	if (ok) {
		c = new_core(CORE_PE);
		Arena *a = c->arena;
		c->name = arena_strdup(a, pi->name);
		c->verilog = arena_strdup(a, verilog->value);
		c->clock = arena_strdup(a, clock);
		c->reset = arena_strdup(a, reset);
		c->inst = arena_strdup(a, ibus);
		c->inst_width = pi->inst_width;
		c->nins = pi->ninputs;
		c->nouts = pi->noutputs;
		c->ins = arena_alloc(a, (size_t)(c->nins + 1) * sizeof(CorePort));
		c->outs = arena_alloc(a, (size_t)(c->nouts + 1) * sizeof(CorePort));
		for (int i = 0; i < c->nins; i++)
			c->ins[i] = (CorePort){ arena_strdup(a, pi->inputs[i].name), pi->inputs[i].width };
		for (int i = 0; i < c->nouts; i++)
			c->outs[i] = (CorePort){ arena_strdup(a, pi->outputs[i].name), pi->outputs[i].width };
		c->nregs = (c->inst_width + 31) / 32;
		c->regs = arena_alloc(a, (size_t)c->nregs * sizeof(CoreReg));
		for (int i = 0; i < c->nregs; i++) {
			int w = c->inst_width - 32 * i;
			c->regs[i] = (CoreReg){ arena_printf(a, "inst%d", i), w > 32 ? 32 : w, 0, i };
		}
	}
	peinfo_free(pi);
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
		c = load_pe(doc, d);
	} else if (root && root->kind == YN_MAP && ymap_get(root, "mem")) {
		MemInfo *mi = meminfo_load(path, d);
		c = mi ? from_mem(mi) : NULL;
		meminfo_free(mi);
	} else {
		diag_error(d, path, root ? root->line : 1, root ? root->col : 1,
			   "expected a core's collateral: a PE info (pe: ...) or a memory info (mem: ...)");
	}
	if (c) {
		const YNode *name = ymap_get(root, c->kind == CORE_PE ? "pe" : "mem");
		c->line = name->line;
		c->col = name->col;
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
