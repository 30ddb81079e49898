/* coreinfo.h - what the interconnect needs of a core (a tile's PE, memory or
 * IO): its routable ports with widths and its configuration registers, read
 * from the core's collateral (`<pe>.info.yaml` written by peak,
 * `<mem>.info.yaml` written by lake) or built in for IO tiles. */
#ifndef COMMON_COREINFO_H
#define COMMON_COREINFO_H

#include "../common/arena.h"
#include "../common/diag.h"
#include "../common/util.h"

typedef enum { CORE_PE, CORE_MEM, CORE_IO } CoreKind;

typedef struct CorePort {
	const char *name;
	int width;
} CorePort;

/* A configuration register of the core: feature 0..0x7f, index 0..255. */
typedef struct CoreReg {
	const char *name;
	int width;              /* 1..32 */
	int feature, index;
} CoreReg;

typedef struct CoreInfo {
	Arena *arena;
	CoreKind kind;
	const char *name;       /* the Verilog module */
	int line, col;          /* of the name in the info file */
	const char *verilog;    /* its file, next to the info file */
	const char *clock, *reset;
	/* PE: the instruction bus the tile's registers drive (0 otherwise) */
	const char *inst;
	int inst_width;
	/* MEM: it takes the configuration bus and a flush itself */
	int config_bus, flush;
	CorePort *ins, *outs;   /* routable ports */
	int nins, nouts;
	CoreReg *regs;
	int nregs;
} CoreInfo;

/* Reads a PE's or a memory's info.yaml (the kind from its first key);
 * NULL with errors in d. */
__give CoreInfo *coreinfo_load(const char *path, __keep Diags *d);
/* The IO core: for each routing width w, an output io2f_<w> (from the
 * global buffer into the array) and an input f2io_<w>. */
__give CoreInfo *coreinfo_io(const int *widths, int nwidths);
void coreinfo_free(__take CoreInfo *c);

#endif
