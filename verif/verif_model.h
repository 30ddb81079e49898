/* verif_model.h - a model of a configured routing graph: once every
 * multiplexer's select is set, each node is driven by exactly one other node
 * (or is a root: a source the bench drives, a constant 0, or a value the
 * model cannot know), so each node's value at cycle t is its root's value at
 * cycle t - d, d the registers between them. The connectivity bench predicts
 * every probe with it. */
#ifndef VERIF_MODEL_H
#define VERIF_MODEL_H

#include <stdint.h>

#include "../collateral/bitstream.h"

/* How a node gets its value. */
typedef enum {
	VM_MUX,         /* from in[sel] (a node with one input: in[0]); a select past the last input gives 0 */
	VM_PASS,        /* from another node through a core (a memory's chain pass-through) */
	VM_SOURCE,      /* driven by the bench: a value history */
	VM_ZERO,        /* constant 0 (an input at the edge of the array that nothing drives) */
	VM_UNKNOWN      /* a core output the model cannot predict */
} VmDrive;

typedef struct VerifModel {
	const RGraph *g;
	VmDrive *drive;         /* per node */
	int *sel;               /* VM_MUX with several inputs: the select */
	int *pass;              /* VM_PASS: the node it follows */
	/* solved by verif_model_solve: */
	int *pred;              /* the node driving it, or -1 for a root */
	int *root, *depth;
	/* source histories, per node: (time, value) changes in time order */
	int *nchanges;
	long **times;
	uint64_t **values;
} VerifModel;

/* Every node VM_MUX with select 0 and no history. */
__give VerifModel *verif_model_new(__keep const RGraph *g);
void verif_model_free(__take VerifModel *m);
/* Source node n takes value v from cycle t on (t not before its last change). */
void verif_model_drive(VerifModel *m, int n, long t, uint64_t v);
/* Follows every node to its root; 0 on success, -1 (naming a node of it on
 * stderr) if the drivers form a cycle. */
int verif_model_solve(VerifModel *m);
/* The value of node n at cycle t, valid once the configuration has been in
 * place for depth[n] cycles; 0 (and *known 0) for an unknown value. */
uint64_t verif_model_value(const VerifModel *m, int n, long t, int *known);
/* The largest depth of any node. */
int verif_model_max_depth(const VerifModel *m);

#endif
