/* collateral.c - what the front end needs of a chip (collateral.h). */
#include <stdlib.h>
#include <string.h>

#include "peinfo.h"
#include "../common/yamlr.h"
#include "coll.h"

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

/* The memory tile named by design.yaml's cores.mem, if any. */
static int read_mem(const char *dir, const YNode *mem, Collateral *c, Diags *d)
{
	const YNode *name = ymap_get(mem, "name"), *info = ymap_get(mem, "info");
	if (!mem)
		return 1;
	if (!name || !info || name->kind != YN_SCALAR || info->kind != YN_SCALAR)
		return 0;
	char *ip = util_path_join(dir, info->value);
	char *sn = xasprintf("%s.smt2", name->value);
	char *sp = util_path_join(dir, sn);
	c->mem = meminfo_load(ip, d);
	c->mem_smt2 = c->mem ? util_read_file(sp, NULL) : NULL;
	if (c->mem && !c->mem_smt2)
		diag_error(d, sp, 0, 0, "cannot read the memory tile's SMT model");
	int ok = c->mem && c->mem_smt2;
	free(ip);
	free(sn);
	free(sp);
	return ok;
}

/* design.yaml's tiles: one string per row, north (IO) first. */
static int read_tiles(const char *path, const YNode *tiles, Collateral *c, Diags *d)
{
	if (!tiles || tiles->kind != YN_SEQ || tiles->len < 1) {
		diag_error(d, path, 1, 1, "expected 'tiles:', a string per row of the array");
		return 0;
	}
	c->rows = tiles->len;
	c->cols = (int)strlen(tiles->items[0]->value);
	c->tiles = xcalloc((size_t)c->rows + 1, sizeof *c->tiles);
	for (int y = 0; y < c->rows; y++) {
		const YNode *row = tiles->items[y];
		c->tiles[y] = xstrdup(row->value);
		if (row->kind != YN_SCALAR || (int)strlen(row->value) != c->cols ||
		    strspn(row->value, "IPM") != strlen(row->value)) {
			ynode_error(d, row, "expected a row of %d tile kinds (I, P or M)", c->cols);
			return 0;
		}
	}
	return 1;
}

int coll_load(const char *dir, Collateral *c, Diags *d)
{
	memset(c, 0, sizeof *c);
	strmap_init(&c->ops);
	c->dir = xstrdup(dir);
	char *path = util_path_join(dir, "design.yaml");
	YDoc *doc = ydoc_load_file(path, d);
	int ok = 0;
	if (doc) {
		const YNode *pe = ymap_get(ymap_get(doc->root, "cores"), "pe");
		const YNode *name = ymap_get(pe, "name"), *info = ymap_get(pe, "info");
		if (!name || !info || name->kind != YN_SCALAR || info->kind != YN_SCALAR) {
			diag_error(d, path, 1, 1, "expected 'cores: { pe: { name: ..., info: ... } }'");
		} else {
			c->pe = xstrdup(name->value);
			char *ip = util_path_join(dir, info->value);
			char *rn = xasprintf("%s.rules.yaml", name->value);
			char *rp = util_path_join(dir, rn);
			ok = read_pe(ip, rp, c, d);
			if (ok && !read_mem(dir, ymap_get(ymap_get(doc->root, "cores"), "mem"), c, d)) {
				diag_error(d, path, 1, 1, "expected 'cores: { mem: { name: ..., info: ... } }'");
				ok = 0;
			}
			if (ok && !read_tiles(path, ymap_get(doc->root, "tiles"), c, d))
				ok = 0;
			c->rules_file = rn;
			free(ip);
			free(rp);
		}
		ydoc_free(doc);
	} else {
		diag_error(d, path, 0, 0, "no design collateral here (run make rtl DESIGN=...)");
	}
	free(path);
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
