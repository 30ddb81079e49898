/* bitstream.h - configuring an array from its collateral alone: the
 * configuration fields of `config.map` (configmap.h) and the routing graph of
 * `routing.graph` (rgraph.h) give the bitstream: routed edges set their
 * multiplexers' selects, core registers take their values, and the result is
 * the lines `AAAAAAAA DDDDDDDD` of every register written. The compiler and
 * the benches use this, never canal/. */
#ifndef COLLATERAL_BITSTREAM_H
#define COLLATERAL_BITSTREAM_H

#include <stdint.h>
#include <stdio.h>

#include "../common/diag.h"
#include "configmap.h"
#include "rgraph.h"

typedef struct Bitstream Bitstream;

__give Bitstream *bitstream_new(__keep const ConfigMap *m);
void bitstream_free(__take Bitstream *b);
/* Sets a field by target; 0 if there is no such field or the value does
 * not fit its bits. */
int bitstream_set(Bitstream *b, const char *target, uint32_t value);
/* Adds a write of the register holding target's field (value in the field,
 * the register's other bits 0) after all the registers bitstream_write
 * writes, in the order of these calls: for registers written more than once
 * (a memory tile's table loaded through one register) and for writes that
 * must come after others. 0 if there is no such field or the value does not
 * fit. */
int bitstream_append(Bitstream *b, const char *target, uint32_t value);
/* Routes edge from -> to of g: sets to's select if it is a multiplexer
 * (a node with one input needs nothing). 0 if there is no such edge or the
 * map has no field for the multiplexer. */
int bitstream_route(Bitstream *b, const RGraph *g, int from, int to);
/* Writes every register that holds a set field, in address order, as
 * "AAAAAAAA DDDDDDDD" lines (bits of fields not set are 0), then the
 * appended writes. */
void bitstream_write(const Bitstream *b, FILE *f);

/* The most writes a bitstream file may hold: twice the fields of the largest
 * map a reader takes (the compiler writes each register once, and a table's
 * words one by one). */
#define BITSTREAM_MAX_WRITES (1 << 24)

/* Reads a bitstream file, one write `AAAAAAAA DDDDDDDD` a line (`#` starts a
 * comment), and checks every write against the map: an address with fields,
 * data only in their bits. The writes in order into *addr and *data (the
 * caller frees them); their count, or -1 with every error in d at its line
 * and column (a file of another design shows as addresses it does not
 * have). */
long bitstream_read(const char *path, __keep const ConfigMap *m, __give uint32_t **addr, __give uint32_t **data,
		    __keep Diags *d);
/* The same for text in memory, named name in messages (text NULL: the file name). */
long bitstream_read_string(const char *name, const char *text, __keep const ConfigMap *m, __give uint32_t **addr,
			   __give uint32_t **data, __keep Diags *d);

#endif
