/* verif_design.h - a generated design as the benches see it: the manifest
 * `design.yaml` of rtl_out/<design>/ (read by collateral/design) and the
 * collateral it names (the routing graph, the configuration map and, when
 * asked, the PE's info and rules and the memory's info). Nothing of canal/,
 * peak/ or lake/ is used: only the files (canal/COLLATERAL.md). */
#ifndef VERIF_DESIGN_H
#define VERIF_DESIGN_H

#include "../common/arena.h"
#include "../collateral/bitstream.h"
#include "../collateral/design.h"
#include "../common/diag.h"
#include "../collateral/meminfo.h"
#include "../collateral/peinfo.h"

/* A design: its manifest and, once loaded, the collateral the manifest names. */
typedef struct VerifDesign {
	Design *m;                      /* design.yaml: array, tiles, widths, cores, files */
	RGraph *graph;
	ConfigMap *map;
	PeInfo *pe_info;                /* with cores: the PE's info and rules */
	MemInfo *mem_info;              /*             the memory's info, or NULL */
} VerifDesign;

/* Reads DIR/design.yaml, DIR's routing graph and configuration map and, if
 * cores, the PE's info and rules and the memory's info. NULL with errors in
 * d (at the files' positions). */
__give VerifDesign *verif_design_load(const char *dir, int cores, __keep Diags *d);
void verif_design_free(__take VerifDesign *v);
/* The kind of tile (x, y): 'I', 'P' or 'M'. */
char verif_design_tile(const VerifDesign *v, int x, int y);
/* DIR/name in v's arena. */
const char *verif_design_path(const VerifDesign *v, const char *name);

#endif
