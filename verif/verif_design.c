/* verif_design.c - a design's manifest, read by collateral/design, and the
 * collateral it names (see verif_design.h). */
#include "verif_design.h"

#include <stdlib.h>
#include <string.h>

/* The manifest's fields, in the arena of the manifest that v keeps. */
static VerifDesign *from_manifest(Design *m)
{
	VerifDesign *v = arena_alloc(m->arena, sizeof *v);
	v->manifest = m;
	v->arena = m->arena;
	v->dir = m->dir;
	v->name = m->name;
	v->cols = m->cols;
	v->rows = m->rows;
	memcpy(v->widths, m->widths, sizeof v->widths);
	v->nwidths = m->nwidths;
	v->tiles = m->tiles;
	v->pe = m->pe;
	v->mem = m->mem;
	v->verilog = m->verilog;
	v->graph_file = m->graph_file;
	v->config_file = m->config_file;
	return v;
}

/* The routing graph must describe the manifest's array. 0 with errors in d. */
static int load_collateral(VerifDesign *v, int cores, Diags *d)
{
	int ok = 1;
	v->graph = rgraph_load(verif_design_path(v, v->graph_file), d);
	v->map = configmap_load(verif_design_path(v, v->config_file), d);
	if (!v->graph || !v->map)
		return 0;
	if (v->graph->cols != v->cols || v->graph->rows != v->rows) {
		diag_error(d, verif_design_path(v, v->graph_file), 1, 1, "the graph is not of the %d x %d array of %s",
			   v->cols, v->rows, verif_design_path(v, "design.yaml"));
		ok = 0;
	}
	if (!cores)
		return ok;
	char *rules = xasprintf("%s.rules.yaml", v->pe.name);
	v->pe_info = peinfo_load(verif_design_path(v, v->pe.info), verif_design_path(v, rules), d);
	free(rules);
	if (v->mem.name)
		v->mem_info = meminfo_load(verif_design_path(v, v->mem.info), d);
	return ok && v->pe_info && (!v->mem.name || v->mem_info);
}

VerifDesign *verif_design_load(const char *dir, int cores, Diags *d)
{
	Design *m = design_load(dir, NULL, d);
	diags_flush(d);
	if (!m)
		return NULL;
	VerifDesign *v = from_manifest(m);
	int ok = load_collateral(v, cores, d);
	diags_flush(d);
	if (!ok) {
		verif_design_free(v);
		return NULL;
	}
	return v;
}

void verif_design_free(VerifDesign *v)
{
	if (!v)
		return;
	rgraph_free(v->graph);
	configmap_free(v->map);
	peinfo_free(v->pe_info);
	meminfo_free(v->mem_info);
	design_free(v->manifest);
}

char verif_design_tile(const VerifDesign *v, int x, int y)
{
	return design_tile(v->manifest, x, y);
}

const char *verif_design_path(const VerifDesign *v, const char *name)
{
	return design_path(v->manifest, name);
}
