/* strmap.h - a hash map from strings to integers (ids, indices) that iterates in
 * insertion order, so that everything derived from it is deterministic. */
#ifndef COMMON_STRMAP_H
#define COMMON_STRMAP_H

#include <stdint.h>

#include "util.h"

typedef struct StrMap {
	char **keys;       /* owned copies, in insertion order */
	intptr_t *vals;
	int len, cap;
	int *slots;        /* open addressing: index into keys, or -1 */
	int nslots;
} StrMap;

void strmap_init(StrMap *m);
void strmap_free(StrMap *m);
/* 1 and *out set if key is present, else 0. out may be NULL. */
int strmap_get(const StrMap *m, const char *key, intptr_t *out);
/* The position of key in insertion order, or -1 if absent. */
int strmap_index(const StrMap *m, const char *key);
/* Inserts or replaces; returns 1 if the key was new. */
int strmap_put(StrMap *m, const char *key, intptr_t val);
/* A copy of m's first n keys and their values, in order, into out (made
 * here: strmap_free it). */
void strmap_copy(StrMap *out, const StrMap *m, int n);
/* Forgets every key inserted after the first n (scopes that end). */
void strmap_truncate(StrMap *m, int n);

#endif
