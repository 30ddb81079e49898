/* hl_interp.h - the reference interpreter: runs an application with Halide's
 * semantics, ignoring its schedule (which cannot change the values), and
 * gives the golden output everything later is checked against. Bounds
 * inference from the output's bound() calls decides the region of every Func
 * and the part of each input image that is read. */
#ifndef COMPILER_HL_INTERP_H
#define COMPILER_HL_INTERP_H

#include "../../common/image.h"
#include "front.h"
#include "hl_range.h"

typedef struct HRegions {
	int nfuncs, nimages;
	Interval (*func)[4];    /* per Func and dimension; lo > hi when unused */
	Interval (*image)[4];
	char *func_used, *image_used;
	int *order;             /* the Funcs the output needs, producers first */
	int norder;
} HRegions;

/* A realized Func: its values over a box. */
typedef struct HTable {
	int dims;
	int64_t min[4], extent[4];
	int64_t *v;             /* NULL when not realized */
} HTable;

/* The value at idx, or NULL outside the box. */
int64_t *htable_at(const HTable *t, const int64_t *idx);

/* Bounds inference; 0 with errors in d (a region that cannot be bounded, an
 * image read at a negative coordinate). */
int hli_regions(const HProgram *p, HRegions *r, __keep Diags *d);
void hli_regions_free(HRegions *r);
/* Runs the program on inputs (one per image, in declaration order; unused
 * images may be empty) and fills out (the output over its bounds, as 16-bit
 * values); 0 with errors in d. */
int hli_run(const HProgram *p, const Image *inputs, Image *out, __keep Diags *d);

/* Realizes, over their regions, the Funcs with is_const set that the output
 * needs (they may call only each other); tables has one entry per Func. */
void hli_const_tables(const HProgram *p, const HRegions *r, const char *is_const, HTable *tables);

#endif
