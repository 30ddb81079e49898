/* verif_design.c - a design's manifest, read by collateral/design, and the
 * collateral it names (see verif_design.h). */
#include "verif_design.h"

#include "../collateral/ic.h"

#include <stdlib.h>
#include <string.h>

/* v in the arena of the manifest it keeps. */
static VerifDesign *from_manifest(Design *m)
{
	VerifDesign *v = arena_alloc(m->arena, sizeof *v);
	v->m = m;
	return v;
}

/* The routing graph and the configuration map, checked against the manifest,
 * its cores and each other (collateral/ic), and with cores the PE's and
 * MEM's collateral. 0 with errors in d. */
static int load_collateral(VerifDesign *v, int cores, Diags *d)
{
	Interconnect ic;
	int ok = ic_load(v->m, &ic, d);
	v->graph = ic.graph;
	v->map = ic.map;
	if (!ok || !cores)
		return ok;
	char *rules = xasprintf("%s.rules.yaml", v->m->pe.name);
	v->pe_info = peinfo_load(verif_design_path(v, v->m->pe.info), verif_design_path(v, rules), d);
	free(rules);
	if (v->m->mem.name)
		v->mem_info = meminfo_load(verif_design_path(v, v->m->mem.info), d);
	return v->pe_info && (!v->m->mem.name || v->mem_info);
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
	design_free(v->m);
}

char verif_design_tile(const VerifDesign *v, int x, int y)
{
	return design_tile(v->m, x, y);
}

const char *verif_design_path(const VerifDesign *v, const char *name)
{
	return design_path(v->m, name);
}
