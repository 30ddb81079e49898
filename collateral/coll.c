/* coll.c - what the compiler needs of a chip (coll.h): the cores and tiles
 * of the design's manifest (collateral/design) and the cores' collateral. */
#include <stdlib.h>
#include <string.h>

#include "coll.h"
#include "design.h"
#include "peinfo.h"

/* The word (the widest PE input) and the IR operations of the PE's info and
 * rules files, read and cross-checked by collateral/peinfo. */
static int read_pe(const char *info_path, const char *rules_path, Collateral *c, Diags *d)
{
	PeInfo *pe = peinfo_load(info_path, rules_path, d);
	if (!pe)
		return 0;
	for (int i = 0; i < pe->ninputs; i++)
		if (pe->inputs[i].width > c->word)
			c->word = pe->inputs[i].width;
	for (int i = 0; i < pe->nrules; i++)
		strmap_put(&c->ops, pe->rules[i].ir, 1);
	for (int i = 0; i < pe->nunsupported; i++)
		strmap_put(&c->ops, pe->unsupported[i], 0);
	c->peinfo = pe;
	return 1;
}

/* The memory tile the manifest names, if any: its info and SMT model. */
static int read_mem(const Design *m, Collateral *c, Diags *d)
{
	if (!m->mem.name)
		return 1;
	const char *sp = design_path(m, arena_printf(m->arena, "%s.smt2", m->mem.name));
	c->mem = meminfo_load(design_path(m, m->mem.info), d);
	c->mem_smt2 = c->mem ? util_read_file(sp, NULL) : NULL;
	if (c->mem && !c->mem_smt2)
		diag_error(d, sp, 0, 0, "cannot read the memory tile's SMT model");
	return c->mem && c->mem_smt2;
}

/* The manifest's tiles: one string per row, north (IO) first. */
static void copy_tiles(const Design *m, Collateral *c)
{
	c->rows = m->rows;
	c->cols = m->cols;
	c->tiles = xcalloc((size_t)c->rows + 1, sizeof *c->tiles);
	for (int y = 0; y < c->rows; y++) {
		c->tiles[y] = xcalloc((size_t)c->cols + 1, 1);
		memcpy(c->tiles[y], m->tiles + y * m->cols, (size_t)c->cols);
	}
}

/* The cores the manifest names, then its tiles. */
static int read_design(const Design *m, Collateral *c, Diags *d)
{
	c->pe = xstrdup(m->pe.name);
	c->rules_file = xasprintf("%s.rules.yaml", m->pe.name);
	if (!read_pe(design_path(m, m->pe.info), design_path(m, c->rules_file), c, d))
		return 0;
	if (!read_mem(m, c, d)) {
		diag_error(d, design_path(m, "design.yaml"), 1, 1, "expected 'cores: { mem: { name: ..., info: ... } }'");
		return 0;
	}
	copy_tiles(m, c);
	return 1;
}

int coll_load(const char *dir, Collateral *c, Diags *d)
{
	memset(c, 0, sizeof *c);
	strmap_init(&c->ops);
	c->dir = xstrdup(dir);
	int loaded, ok = 0;
	Design *m = design_load(dir, &loaded, d);
	if (m) {
		ok = read_design(m, c, d);
		design_free(m);
	} else if (!loaded) {
		char *path = util_path_join(dir, "design.yaml");
		diag_error(d, path, 0, 0, "no design collateral here (run make rtl DESIGN=...)");
		free(path);
	}
	diags_flush(d);
	return ok;
}

void coll_free(Collateral *c)
{
	strmap_free(&c->ops);
	free(c->dir);
	free(c->pe);
	if (c->peinfo)
		peinfo_free(c->peinfo);
	free(c->rules_file);
	if (c->mem)
		meminfo_free(c->mem);
	free(c->mem_smt2);
	for (int y = 0; c->tiles && y < c->rows; y++)
		free(c->tiles[y]);
	free(c->tiles);
	memset(c, 0, sizeof *c);
}

int coll_has_op(const Collateral *c, const char *op)
{
	return strmap_get(&c->ops, op, NULL);
}
