/* verif_cases.h - hand-made applications for the tests of the co-simulation
 * (verif/tests/app.sh), built from a design's collateral alone as the
 * compiler would: routes found by a search of routing.graph, PE instructions
 * from the PE's rewrite rules, the bitstream by collateral/bitstream.h, and an
 * io.yaml (verif/README.md, "Applications") with its input and golden
 * images, the golden computed here from what each case computes. */
#ifndef VERIF_CASES_H
#define VERIF_CASES_H

#include "../collateral/chip.h"

/* Writes DIR/<case>/<case>.bs, <case>.io.yaml, <case>.input.<ext> and
 * golden.<ext> for every case the design can hold, and prints one line per
 * case. 0 on success. */
int verif_cases_write(const Chip *chip, const char *dir);

#endif
