/* peak_collateral.h - the files of a PE that tools other than peak read:
 * <pe>.info.yaml (ports, instruction layout, enums, delays), <pe>.rules.yaml
 * (verified rewrite rules in the order the mapper should try them, and the IR
 * operations the PE cannot implement) and <pe>.nf (the live normal form, for a
 * simulator of the configured array). The formats are documented in
 * peak/COLLATERAL.md. */
#ifndef PEAK_COLLATERAL_H
#define PEAK_COLLATERAL_H

#include <stdio.h>

#include "../common/diag.h"
#include "peak.h"
#include "peak_synth.h"

/* A rule with what the collateral adds to the synthesis result. */
typedef struct PeakRuleInfo {
	PeakRule rule;
	char pattern[256];
	int size;               /* operations in the pattern */
	double cost;            /* ns: the slowest operation the rule's outputs use */
	int order;              /* position in the file */
} PeakRuleInfo;

void peak_write_info(const PeakSpec *pe, const char *spec_text, FILE *f);
/* Writes the live nodes of pe's normal form (those its outputs and next
 * state depend on), renumbered densely in creation order, with its state
 * variables, outputs and next-state roots. A live param is an internal
 * error: a PE has none. */
void peak_write_nf(const PeakSpec *pe, FILE *f);
/* Sorts rules into mapper order (larger patterns, then more params, then lower
 * cost, then IR order) and writes them. */
void peak_write_rules(const PeakSpec *pe, PeakRuleInfo *rules, int n, const char *const *ir_files,
		      int nir, FILE *f);

/* Fills size, pattern and cost of every rule. */
void peak_rules_annotate(const PeakSpec *pe, PeakSpec *const *ops, int nops, PeakRuleInfo *rules);

/* Reads the rules of a rules file back against pe and the IR operations ops;
 * returns the number read (rules[] allocated, caller frees with
 * peak_rule_free each), or -1 on errors reported to d. */
int peak_read_rules(const char *path, const PeakSpec *pe, PeakSpec *const *ops, int nops,
		    PeakRule **rules, Diags *d);

#endif
