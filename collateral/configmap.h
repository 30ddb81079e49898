/* configmap.h - config.map (canal/COLLATERAL.md): every configuration field
 * of the array, its register address, its bits and what it controls (a
 * multiplexer's select or a core's register). Read with errors at their line
 * and column. */
#ifndef COLLATERAL_CONFIGMAP_H
#define COLLATERAL_CONFIGMAP_H

#include <stdint.h>

#include "../common/arena.h"
#include "../common/diag.h"
#include "../common/util.h"

/* What a reader takes (canal/COLLATERAL.md, "Limits"), checked before it
 * allocates; the file's size is bounded by lines.h. */
#define CONFIGMAP_MAX_FIELDS (1 << 23)

typedef struct CfgField {
	uint32_t address;
	int lo, hi;
	int mux;                /* 1: selects of a node; 0: a core register */
	const char *target;     /* node name, or x<X>_y<Y>.<register> */
	int line;               /* of its record in the file */
} CfgField;

/* A 32-bit configuration register: its bus address and the bits its fields
 * hold (a register reads back what was written in those bits, 0 in the
 * others). */
typedef struct CfgReg {
	uint32_t address, covered;
} CfgReg;

typedef struct ConfigMap {
	Arena *arena;
	const char *file;       /* as named in messages */
	CfgField *fields;
	int nfields;
	CfgReg *regs;           /* every register, in address order */
	int nregs;
	void *index;            /* target -> field */
} ConfigMap;

/* Reads the file path; NULL with errors in d. The file is refused unless
 * it is whole (the count of its end line that of its fields) and no two
 * fields of a register share a bit. _load_string reads text, named name in
 * messages. */
__give ConfigMap *configmap_load(const char *path, __keep Diags *d);
__give ConfigMap *configmap_load_string(const char *name, const char *text, __keep Diags *d);
void configmap_free(__take ConfigMap *m);
/* The field of a target, or -1. */
int configmap_find(const ConfigMap *m, const char *target);
/* The index in m->regs of the register at a bus address, or -1. */
int configmap_reg(const ConfigMap *m, uint32_t address);

#endif
