/* verif_conn.h - the connectivity bench of an interconnect (issue 4,
 * verif/README.md): configurations that together route every edge of
 * routing.graph, each built from config.map alone, with the harness commands
 * that load each one, drive its sources and compare every probed node and
 * output with what the model of the configured graph predicts (the values of
 * the routes where they run, 0 everywhere else). */
#ifndef VERIF_CONN_H
#define VERIF_CONN_H

#include "../collateral/chip.h"

typedef struct VerifConnOptions {
	const char *out;        /* folder of conn.cmd and cfgNNN.bs */
	unsigned long seed;     /* of the values driven */
	int quiet;              /* no line per configuration */
} VerifConnOptions;

/* Writes the bench of chip (loaded with its interconnect and cores) and
 * prints its coverage; 0 if every edge is exercised, -1 (listing uncovered
 * edges) otherwise or on error. */
int verif_conn_run(const Chip *chip, const VerifConnOptions *opt);

#endif
