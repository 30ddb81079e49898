/* gstore.h - the storage of a graph of numbered, named nodes, shared by the
 * interconnect's builder (canal/canal_graph.c) and the reader of the graph
 * it writes (collateral/rgraph.c): an arena for the names and whatever else
 * the nodes point to, the index from names to node ids, and the nodes' lists
 * of input and output ids. The nodes are the user's own type; each holds its
 * lists as the fields `int *in; int nin; int *out; int nout;` (inputs in the
 * order of the node's multiplexer selects), which the macros below take. */
#ifndef COMMON_GSTORE_H
#define COMMON_GSTORE_H

#include <stdlib.h>

#include "arena.h"
#include "strmap.h"

typedef struct GStore {
	Arena *arena;
	StrMap names;           /* node name -> id */
} GStore;

void gstore_init(GStore *s);
/* The arena and the index (not the nodes: gstore_free_nodes). */
void gstore_free(GStore *s);
/* Names node id; 0 if the name was another node's (it is id's now). */
int gstore_name(GStore *s, const char *name, int id);
/* The id of the node of that name, or -1. */
int gstore_find(const GStore *s, const char *name);
/* Appends x to the list *v of *n ids; the list grows at powers of two. */
void gstore_push(int **v, int *n, int x);
/* Removes the first x from the list v of *n ids; 0 if there is none. */
int gstore_drop(int *v, int *n, int x);

/* The edge from -> to among nodes: from goes last in to's inputs, to last in
 * from's outputs. */
#define gstore_link(nodes, from, to)                                        \
	do {                                                                \
		gstore_push(&(nodes)[to].in, &(nodes)[to].nin, (from));     \
		gstore_push(&(nodes)[from].out, &(nodes)[from].nout, (to)); \
	} while (0)

/* Removes the edge from -> to among nodes (its first occurrence in each
 * list); 0 if there is none. */
#define gstore_unlink(nodes, from, to)                                   \
	(gstore_drop((nodes)[to].in, &(nodes)[to].nin, (from)) &&         \
	 gstore_drop((nodes)[from].out, &(nodes)[from].nout, (to)))

/* Frees the lists of the n nodes and the array. */
#define gstore_free_nodes(nodes, n)                     \
	do {                                            \
		for (int gs_i_ = 0; gs_i_ < (n); gs_i_++) { \
			free((nodes)[gs_i_].in);        \
			free((nodes)[gs_i_].out);       \
		}                                       \
		free(nodes);                            \
	} while (0)

#endif
