/* chip.h - a generated chip as its tools take it: the manifest design.yaml of
 * rtl_out/<design>/ (collateral/design) and, as each tool asks, the
 * collateral it names: the interconnect (the routing graph and the
 * configuration map, read and checked against the manifest and the cores by
 * collateral/ic) and the cores (the PE's info and rules through
 * collateral/peinfo, the memory tile's info through collateral/meminfo),
 * checked against the manifest: each file of the core the manifest names,
 * each PE port of the width of one of its networks. The one loader of the
 * compiler (through coll.h), verif and cgrasim; nothing of canal/, peak/ or
 * lake/ is used, only the files (canal/COLLATERAL.md). */
#ifndef COLLATERAL_CHIP_H
#define COLLATERAL_CHIP_H

#include "../common/diag.h"
#include "configmap.h"
#include "design.h"
#include "meminfo.h"
#include "peinfo.h"
#include "rgraph.h"

/* What chip_load reads beyond the manifest (or'ed together). */
enum {
	CHIP_INTERCONNECT = 1,  /* the routing graph and the configuration map */
	CHIP_CORES = 2          /* the PE's info and rules, the memory tile's info */
};

typedef struct Chip {
	Design *m;              /* design.yaml: array, tiles, widths, cores, files */
	RGraph *graph;          /* with CHIP_INTERCONNECT, else NULL */
	ConfigMap *map;         /* with CHIP_INTERCONNECT, else NULL */
	PeInfo *pe_info;        /* with CHIP_CORES, else NULL */
	MemInfo *mem_info;      /* with CHIP_CORES and memory tiles, else NULL */
} Chip;

/* Reads DIR/design.yaml, then the interconnect and then the cores as parts
 * asks. NULL with errors in d at the files' positions, which the caller
 * flushes (so that it can add its own first). *loaded, unless loaded is
 * NULL, tells whether design.yaml was read as YAML at all (design_load). */
__give Chip *chip_load(const char *dir, unsigned parts, int *loaded, __keep Diags *d);
void chip_free(__take Chip *chip);

#endif
