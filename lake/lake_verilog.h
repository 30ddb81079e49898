/* lake_verilog.h - what the three files of a memory tile's Verilog share
 * (private to lake/): the generator's state, the names and widths of ports
 * and edges (lake_verilog.c, which also writes the tile module), the helper
 * modules and the controllers (lake_verilog_ctrl.c) and the storage units
 * (lake_verilog_storage.c). */
#ifndef LAKE_VERILOG_H
#define LAKE_VERILOG_H

#include "../common/vec.h"
#include "../common/vwrite.h"
#include "lake.h"

typedef VEC(char) Text;

typedef struct Gen {
	const MemInfo *mi;
	VWriter w;
	Arena *a;               /* names and expressions of this run */
	Text sink;              /* ", sig" for each signal read only by the bench or not at all */
} Gen;

typedef VEC(const char *) List;

/* ---- names and widths (lake_verilog.c) ---- */

/* Lines of a port or connection list, with commas between them; frees l. */
void lv_emit_list(Gen *g, List *l);
/* Bits to count to v: the smallest b with 2^b >= v. */
int lv_log2i(long v);
/* "[w-1:0] " or "" (w == 1). */
const char *lv_rng(Gen *g, int w);
/* A w-bit zero. */
const char *lv_zero(Gen *g, int w);
/* Bits [lo + w - 1 : lo] of a bus of `total` bits. */
const char *lv_slice(Gen *g, const char *bus, int total, int lo, int w);
const MemPortInfo *lv_port_of(const MemInfo *mi, MemEnd e);
/* Bits of a port's data: its width in words times the word. */
int lv_port_bits(const MemInfo *mi, MemEnd e);
int lv_is_regfile(const MemInfo *mi, MemEnd e);
/* Flags travel with data only with chaining; they are stored in register files. */
int lv_has_flags(const MemInfo *mi, MemEnd e);
/* A storage port with a per-word write mask: the load port, if wider than a word. */
int lv_has_wmask(const MemInfo *mi, MemEnd e);

/* ---- helper modules and controllers (lake_verilog_ctrl.c) ---- */

/* The modules <mem>_config, <mem>_domain, <mem>_recur or <mem>_affine and,
 * if delay, <mem>_delay. */
void lv_modules(Gen *g, int delay);
/* Controller ci in the tile: its domain, its generators and its firing. */
void lv_ctrl(Gen *g, int ci);

/* ---- storage (lake_verilog_storage.c) ---- */

/* The modules of storage unit u: <mem>_<unit>_storage (and, for an SRAM,
 * <mem>_<unit>_macro). */
void lv_storage(Gen *g, int u);
/* Read stages of a storage port after the first read value. */
int lv_read_stages(const MemInfo *mi, MemEnd e);

#endif
