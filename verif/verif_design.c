/* verif_design.c - reading a design's manifest and the collateral it names
 * (see verif_design.h; design.yaml's format is in canal/COLLATERAL.md). */
#include "verif_design.h"

#include <stdlib.h>
#include <string.h>

#include "../common/yamlr.h"

typedef struct Reader {
	VerifDesign *v;
	Diags *d;
	int ok;
} Reader;

static const YNode *need(Reader *r, const YNode *map, const char *key, YNodeKind k, const char *what)
{
	const YNode *n = ymap_get(map, key);
	if (!n) {
		ynode_error(r->d, map, "missing '%s' (design.yaml, canal/COLLATERAL.md)", key);
		r->ok = 0;
		return NULL;
	}
	if (!ynode_expect(n, k, what, r->d)) {
		r->ok = 0;
		return NULL;
	}
	return n;
}

static const char *need_str(Reader *r, const YNode *map, const char *key)
{
	const YNode *n = need(r, map, key, YN_SCALAR, "a name");
	return n ? arena_strdup(r->v->arena, n->value) : NULL;
}

static void read_core(Reader *r, const YNode *cores, const char *key, VerifCore *c, int optional)
{
	const YNode *n = ymap_get(cores, key);
	if (!n && optional)
		return;
	if (!(n = need(r, cores, key, YN_MAP, "a core: { name, info, verilog }")))
		return;
	c->name = need_str(r, n, "name");
	c->info = need_str(r, n, "info");
	c->verilog = need_str(r, n, "verilog");
}

static void read_widths(Reader *r, const YNode *root)
{
	const YNode *w = need(r, root, "widths", YN_SEQ, "a list of routing widths");
	if (!w)
		return;
	if (w->len < 1 || w->len > VERIF_MAX_WIDTHS) {
		ynode_error(r->d, w, "expected 1 to %d widths", VERIF_MAX_WIDTHS);
		r->ok = 0;
		return;
	}
	for (int i = 0; i < w->len; i++)
		if (!yread_int(r->d, w->items[i], "a width", 1, 64, 0, &r->v->widths[r->v->nwidths++]))
			r->ok = 0;
}

/* tiles: one string per row, 'I', 'P' or 'M' per column. */
static void read_tiles(Reader *r, const YNode *root)
{
	VerifDesign *v = r->v;
	const YNode *t = need(r, root, "tiles", YN_SEQ, "a list of rows");
	if (!t)
		return;
	if (t->len != v->rows) {
		ynode_error(r->d, t, "expected %d rows of tiles (the IO row and the core rows)", v->rows);
		r->ok = 0;
		return;
	}
	char *kinds = arena_alloc(v->arena, (size_t)(v->rows * v->cols + 1));
	for (int y = 0; y < t->len; y++) {
		const char *row = t->items[y]->value;
		if (t->items[y]->kind != YN_SCALAR || (int)strlen(row) != v->cols || strspn(row, "IPM") != strlen(row)) {
			ynode_error(r->d, t->items[y], "expected %d tiles, each I, P or M", v->cols);
			r->ok = 0;
			return;
		}
		memcpy(kinds + y * v->cols, row, (size_t)v->cols);
	}
	v->tiles = kinds;
}

static void read_manifest(Reader *r, const YDoc *doc)
{
	VerifDesign *v = r->v;
	const YNode *root = doc->root, *array, *cores, *files;
	if (!root || root->kind != YN_MAP) {
		diag_error(r->d, doc->file, 1, 1, "expected a design manifest (canal/COLLATERAL.md)");
		r->ok = 0;
		return;
	}
	v->name = need_str(r, root, "design");
	if ((array = need(r, root, "array", YN_MAP, "the array: { cols, rows }")) &&
	    (!yread_int(r->d, need(r, array, "cols", YN_SCALAR, "a number"), "cols", 1, 255, 0, &v->cols) ||
	     !yread_int(r->d, need(r, array, "rows", YN_SCALAR, "a number"), "rows", 1, 255, 0, &v->rows)))
		r->ok = 0;
	v->rows++;
	read_widths(r, root);
	if ((cores = need(r, root, "cores", YN_MAP, "the cores: { pe, mem }"))) {
		read_core(r, cores, "pe", &v->pe, 0);
		read_core(r, cores, "mem", &v->mem, 1);
	}
	if (r->ok)
		read_tiles(r, root);
	if ((files = need(r, root, "files", YN_MAP, "the files: { verilog, graph, config }"))) {
		v->verilog = need_str(r, files, "verilog");
		v->graph_file = need_str(r, files, "graph");
		v->config_file = need_str(r, files, "config");
	}
}

/* The routing graph must describe the manifest's array. */
static void load_collateral(Reader *r, int cores)
{
	VerifDesign *v = r->v;
	v->graph = rgraph_load(verif_design_path(v, v->graph_file), r->d);
	v->map = configmap_load(verif_design_path(v, v->config_file), r->d);
	if (!v->graph || !v->map) {
		r->ok = 0;
		return;
	}
	if (v->graph->cols != v->cols || v->graph->rows != v->rows) {
		diag_error(r->d, verif_design_path(v, v->graph_file), 1, 1, "the graph is not of the %d x %d array of %s",
			   v->cols, v->rows, verif_design_path(v, "design.yaml"));
		r->ok = 0;
	}
	if (!cores)
		return;
	char *rules = xasprintf("%s.rules.yaml", v->pe.name);
	v->pe_info = peinfo_load(verif_design_path(v, v->pe.info), verif_design_path(v, rules), r->d);
	free(rules);
	if (v->mem.name)
		v->mem_info = meminfo_load(verif_design_path(v, v->mem.info), r->d);
	r->ok &= v->pe_info && (!v->mem.name || v->mem_info);
}

VerifDesign *verif_design_load(const char *dir, int cores, Diags *d)
{
	Arena *a = arena_new();
	Reader r = { arena_alloc(a, sizeof(VerifDesign)), d, 1 };
	r.v->arena = a;
	r.v->dir = arena_strdup(a, dir);
	YDoc *doc = ydoc_load_file(verif_design_path(r.v, "design.yaml"), d);
	if (!doc)
		r.ok = 0;
	else
		read_manifest(&r, doc);
	ydoc_free(doc);
	diags_flush(d);
	if (r.ok)
		load_collateral(&r, cores);
	diags_flush(d);
	if (!r.ok) {
		verif_design_free(r.v);
		return NULL;
	}
	return r.v;
}

void verif_design_free(VerifDesign *v)
{
	if (!v)
		return;
	rgraph_free(v->graph);
	configmap_free(v->map);
	peinfo_free(v->pe_info);
	meminfo_free(v->mem_info);
	arena_free(v->arena);
}

char verif_design_tile(const VerifDesign *v, int x, int y)
{
	return v->tiles[y * v->cols + x];
}

const char *verif_design_path(const VerifDesign *v, const char *name)
{
	return arena_printf(v->arena, "%s/%s", v->dir, name);
}
