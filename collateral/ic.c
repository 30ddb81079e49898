/* ic.c - the interconnect's collateral read and checked against the design
 * (ic.h). */
#include "ic.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lines.h"

#define FEATURE_IC 0x80         /* the interconnect's feature (canal/COLLATERAL.md) */

typedef struct Check {
	const Design *m;
	const RGraph *g;
	const ConfigMap *map;
	const CoreInfo *core[3];        /* by tile kind: 'I', 'P', 'M' */
	Diags *d;
	int ok;
	int reported[4], more[4];       /* per kind of message (Report) */
} Check;

/* Kinds of message of which only IC_MAX_REPORTED are shown. */
typedef enum { R_NODE, R_PORT, R_FIELD, R_UNSET } Report;

static int may_report(Check *c, Report r)
{
	c->ok = 0;
	if (c->reported[r] < IC_MAX_REPORTED) {
		c->reported[r]++;
		return 1;
	}
	c->more[r]++;
	return 0;
}

static const CoreInfo *tile_core(const Check *c, int x, int y, const char **what)
{
	char k = design_tile(c->m, x, y);
	int i = k == 'I' ? 0 : k == 'P' ? 1 : 2;
	if (what)
		*what = i == 0 ? "the IO tile" : i == 1 ? "the PE" : "the memory";
	return c->core[i];
}

static const CorePort *find_port(const CorePort *ports, int n, const char *name)
{
	for (int i = 0; i < n; i++)
		if (strcmp(ports[i].name, name) == 0)
			return &ports[i];
	return NULL;
}

static const CoreReg *find_reg(const CoreInfo *core, const char *name)
{
	for (int i = 0; i < core->nregs; i++)
		if (strcmp(core->regs[i].name, name) == 0)
			return &core->regs[i];
	return NULL;
}

/* ---- the graph ---- */

static int same_widths(const Design *m, const RGraph *g)
{
	if (m->nwidths != g->nwidths)
		return 0;
	for (int i = 0; i < m->nwidths; i++) {
		int found = 0;
		for (int k = 0; k < g->nwidths; k++)
			found |= g->widths[k] == m->widths[i];
		if (!found)
			return 0;
	}
	return 1;
}

static void check_header(Check *c)
{
	const Design *m = c->m;
	const RGraph *g = c->g;
	const char *manifest = design_path(m, "design.yaml");
	if (strcmp(g->design, m->name) != 0) {
		diag_error(c->d, g->file, g->line, 1, "the graph is of design '%s', %s is of '%s'", g->design, manifest,
			   m->name);
		c->ok = 0;
	}
	if (g->cols != m->cols || g->rows != m->rows) {
		diag_error(c->d, g->file, g->line, 1, "the graph is of %d x %d tiles, %s's array of %d x %d (IO row "
			   "included)", g->cols, g->rows, manifest, m->cols, m->rows);
		c->ok = 0;
	}
	if (!same_widths(m, g)) {
		diag_error(c->d, g->file, g->line, 1, "the graph's networks are not those of %s (its 'widths')", manifest);
		c->ok = 0;
	}
}

/* A port node: x<X>_y<Y>_<port>, a port of its tile's core of its
 * direction and width. */
static void check_port_node(Check *c, const RNode *n)
{
	const char *what;
	const CoreInfo *core = tile_core(c, n->x, n->y, &what);
	int in = strcmp(n->kind, "port_in") == 0, len = 0;
	char prefix[32];
	snprintf(prefix, sizeof prefix, "x%d_y%d_%n", n->x, n->y, &len);
	const CorePort *p = strncmp(n->name, prefix, (size_t)len) != 0 ? NULL
		: in ? find_port(core->ins, core->nins, n->name + len) : find_port(core->outs, core->nouts, n->name + len);
	if (!p) {
		if (may_report(c, R_NODE))
			diag_error(c->d, c->g->file, n->line, 1, "%s node '%s' is no %s of %s '%s' at tile (%d, %d) "
				   "(x%d_y%d_<port>)", n->kind, n->name, in ? "input" : "output", what, core->name, n->x,
				   n->y, n->x, n->y);
	} else if (p->width != n->width) {
		if (may_report(c, R_NODE))
			diag_error(c->d, c->g->file, n->line, 1, "node '%s' is %d bits wide, %s %s of %s '%s' %d", n->name,
				   n->width, in ? "input" : "output", p->name, what, core->name, p->width);
	}
}

/* Every port of the core of tile (x, y) has its node. */
static void check_tile_ports(Check *c, int x, int y)
{
	const char *what;
	const CoreInfo *core = tile_core(c, x, y, &what);
	for (int dir = 0; dir < 2; dir++) {
		const CorePort *ports = dir ? core->outs : core->ins;
		for (int i = 0; i < (dir ? core->nouts : core->nins); i++) {
			char name[160];
			snprintf(name, sizeof name, "x%d_y%d_%s", x, y, ports[i].name);
			int v = rgraph_find(c->g, name);
			if (v >= 0 && strcmp(c->g->nodes[v].kind, dir ? "port_out" : "port_in") == 0)
				continue;
			if (may_report(c, R_PORT))
				diag_error(c->d, c->g->file, 0, 0, "no %s node '%s' for %s %s of %s '%s' at tile (%d, %d): "
					   "the graph does not hold the array of %s", dir ? "port_out" : "port_in", name,
					   dir ? "output" : "input", ports[i].name, what, core->name, x, y,
					   design_path(c->m, "design.yaml"));
		}
	}
}

static void check_graph(Check *c)
{
	check_header(c);
	if (!c->ok)
		return;
	for (int v = 0; v < c->g->nnodes; v++)
		if (strncmp(c->g->nodes[v].kind, "port_", 5) == 0)
			check_port_node(c, &c->g->nodes[v]);
	for (int y = 0; y < c->m->rows; y++)
		for (int x = 0; x < c->m->cols; x++)
			check_tile_ports(c, x, y);
}

/* ---- the map ---- */

static int sel_bits(int n)
{
	int b = 0;
	while ((1 << b) < n)
		b++;
	return b;
}

static void field_error(Check *c, const CfgField *f, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

static void field_error(Check *c, const CfgField *f, const char *fmt, ...)
{
	if (!may_report(c, R_FIELD))
		return;
	va_list ap;
	va_start(ap, fmt);
	diag_vreport(c->d, DIAG_ERROR, c->map->file, f->line, 1, fmt, ap);
	va_end(ap);
}

static void check_mux_field(Check *c, const CfgField *f)
{
	int v = rgraph_find(c->g, f->target);
	if (v < 0) {
		field_error(c, f, "no node '%s' in %s", f->target, c->g->file);
		return;
	}
	const RNode *n = &c->g->nodes[v];
	int bits = f->hi - f->lo + 1, need = sel_bits(n->nin);
	if (n->nin < 2)
		field_error(c, f, "node '%s' has %d input%s in %s: no select to configure", n->name, n->nin,
			    n->nin == 1 ? "" : "s", c->g->file);
	else if (bits < need)
		field_error(c, f, "the %d inputs of '%s' need %d select bits, the field has %d", n->nin, n->name, need,
			    bits);
	else if ((f->address >> 16 & 0xff) != FEATURE_IC || (int)(f->address >> 8 & 0xff) != n->x ||
		 (int)(f->address & 0xff) != n->y)
		field_error(c, f, "address %08x is not of the interconnect of tile (%d, %d) of node '%s' "
			    "(RR%02x%02x%02x)", f->address, n->x, n->y, n->name, FEATURE_IC, n->x, n->y);
}

static void check_core_field(Check *c, const CfgField *f)
{
	int x, y, len = 0;
	if (sscanf(f->target, "x%d_y%d.%n", &x, &y, &len) != 2 || len == 0 || x < 0 || y < 0 || x >= c->m->cols ||
	    y >= c->m->rows) {
		field_error(c, f, "'%s' is no core register of the array (x<X>_y<Y>.<register>)", f->target);
		return;
	}
	const char *what;
	const CoreInfo *core = tile_core(c, x, y, &what);
	const CoreReg *r = find_reg(core, f->target + len);
	uint32_t addr = r ? (uint32_t)r->index << 24 | (uint32_t)r->feature << 16 | (uint32_t)x << 8 | (uint32_t)y : 0;
	if (!r)
		field_error(c, f, "%s '%s' at tile (%d, %d) has no configuration register '%s'", what, core->name, x, y,
			    f->target + len);
	else if (f->hi - f->lo + 1 != r->width)
		field_error(c, f, "register %s of %s '%s' is %d bits wide, the field %d", r->name, what, core->name,
			    r->width, f->hi - f->lo + 1);
	else if (f->address != addr)
		field_error(c, f, "register %s of %s '%s' at tile (%d, %d) is at address %08x, not %08x", r->name, what,
			    core->name, x, y, addr, f->address);
}

/* What the bitstream needs: a field for every multiplexer and core register. */
static void check_unset(Check *c)
{
	const RGraph *g = c->g;
	for (int v = 0; v < g->nnodes; v++)
		if (g->nodes[v].nin > 1 && configmap_find(c->map, g->nodes[v].name) < 0 && may_report(c, R_UNSET))
			diag_error(c->d, c->map->file, 0, 0, "no field for the select of '%s' (%d inputs, %s line %d)",
				   g->nodes[v].name, g->nodes[v].nin, g->file, g->nodes[v].line);
	for (int y = 0; y < c->m->rows; y++)
		for (int x = 0; x < c->m->cols; x++) {
			const char *what;
			const CoreInfo *core = tile_core(c, x, y, &what);
			for (int i = 0; i < core->nregs; i++) {
				char name[160];
				snprintf(name, sizeof name, "x%d_y%d.%s", x, y, core->regs[i].name);
				if (configmap_find(c->map, name) < 0 && may_report(c, R_UNSET))
					diag_error(c->d, c->map->file, 0, 0, "no field for register %s of %s '%s' at tile "
						   "(%d, %d)", core->regs[i].name, what, core->name, x, y);
			}
		}
}

static void check_map(Check *c)
{
	for (int i = 0; i < c->map->nfields; i++) {
		const CfgField *f = &c->map->fields[i];
		if (f->mux)
			check_mux_field(c, f);
		else
			check_core_field(c, f);
	}
	check_unset(c);
}

/* The counts of the messages not shown, one line per kind. */
static void report_more(const Check *c)
{
	static const char *const what[] = { "nodes not of their tile's core", "ports with no node", "fields in error",
					    "multiplexers or registers with no field" };
	for (int r = 0; r < 4; r++)
		if (c->more[r])
			diag_error(c->d, r < 2 ? c->g->file : c->map->file, 0, 0, "and %d more %s", c->more[r], what[r]);
}

int ic_check(const Design *m, const RGraph *g, const ConfigMap *map, const CoreInfo *pe, const CoreInfo *mem,
	     const CoreInfo *io, Diags *d)
{
	Check c = { m, g, map, { io, pe, mem ? mem : pe }, d, 1, { 0 }, { 0 } };
	check_graph(&c);
	if (c.ok)
		check_map(&c);
	report_more(&c);
	return c.ok;
}

/* ---- reading ---- */

/* A core's info file, whose module must be the one the manifest names. */
static CoreInfo *load_core(const Design *m, const DesignCore *dc, Diags *d)
{
	CoreInfo *c = coreinfo_load(design_path(m, dc->info), d);
	if (c && strcmp(c->name, dc->name) != 0) {
		diag_error(d, design_path(m, dc->info), c->line, c->col, "the core is '%s', %s names '%s'", c->name,
			   design_path(m, "design.yaml"), dc->name);
		coreinfo_free(c);
		return NULL;
	}
	return c;
}

int ic_load(const Design *m, Interconnect *ic, Diags *d)
{
	memset(ic, 0, sizeof *ic);
	CoreInfo *pe = load_core(m, &m->pe, d), *mem = m->mem.name ? load_core(m, &m->mem, d) : NULL;
	CoreInfo *io = coreinfo_io(m->widths, m->nwidths);
	int ok = pe && (!m->mem.name || mem);
	if (ok && (ic->graph = rgraph_load(design_path(m, m->graph_file), d)))
		ic->map = configmap_load(design_path(m, m->config_file), d);
	ok = ok && ic->graph && ic->map && ic_check(m, ic->graph, ic->map, pe, mem, io, d);
	coreinfo_free(pe);
	coreinfo_free(mem);
	coreinfo_free(io);
	if (!ok)
		ic_free(ic);
	return ok;
}

void ic_free(Interconnect *ic)
{
	rgraph_free(ic->graph);
	configmap_free(ic->map);
	ic->graph = NULL;
	ic->map = NULL;
}
