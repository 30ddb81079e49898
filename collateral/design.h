/* design.h - the design manifest `design.yaml` that canal writes into
 * rtl_out/<design>/ (canal/COLLATERAL.md): the design's name, its array and
 * tile kinds, the routing widths, the cores with their info and Verilog
 * files, and the names of the interconnect's collateral files. Its one
 * reader, for the compiler, verif and cgrasim (through chip.h), reports
 * every error at its position in the file. */
#ifndef COLLATERAL_DESIGN_H
#define COLLATERAL_DESIGN_H

#include "../common/arena.h"
#include "../common/diag.h"

#define DESIGN_MAX_WIDTHS 4

/* A core of the design: its module and its files in the design's folder. */
typedef struct DesignCore {
	const char *name, *info, *verilog;
} DesignCore;

typedef struct Design {
	Arena *arena;                   /* holds everything the manifest names */
	const char *dir, *name;         /* the design's folder; its name */
	int cols, rows;                 /* rows counts the IO row 0 */
	int widths[DESIGN_MAX_WIDTHS], nwidths;
	const char *tiles;              /* rows * cols kinds, row-major: 'I', 'P', 'M' */
	DesignCore pe, mem;             /* mem.name NULL without memory tiles */
	const char *verilog, *graph_file, *config_file;
} Design;

/* Reads DIR/design.yaml: NULL with errors in d (the caller flushes them).
 * *loaded, unless loaded is NULL, tells whether the file was read as YAML
 * at all (whatever its manifest's errors). */
__give Design *design_load(const char *dir, int *loaded, __keep Diags *d);
/* The same for the text of a manifest in memory, named DIR/design.yaml in
 * messages (the folder's files are not read either way). */
__give Design *design_load_string(const char *dir, const char *text, int *loaded, __keep Diags *d);
void design_free(__take Design *m);
/* The kind of tile (x, y): 'I', 'P' or 'M'. */
char design_tile(const Design *m, int x, int y);
/* DIR/name in m's arena (util_path_join). */
const char *design_path(const Design *m, const char *name);

#endif
