/* vec.h - typed growable arrays in the manner of ABC's vectors:
 *   VEC(int) v = {0}; vec_push(&v, 3); vec_foreach(&v, i) use(v.data[i]); vec_free(&v);
 * Elements live in one heap array; the struct may be embedded anywhere. */
#ifndef COMMON_VEC_H
#define COMMON_VEC_H

#include <stdlib.h>

#include "util.h"

#define VEC(T) struct { T *data; int len, cap; }

#define vec_reserve(v, n)                                                                   \
	do {                                                                                \
		if ((v)->cap < (n)) {                                                       \
			(v)->cap = (v)->cap ? (v)->cap : 8;                                 \
			while ((v)->cap < (n))                                              \
				(v)->cap *= 2;                                              \
			(v)->data = xrealloc((v)->data, (size_t)(v)->cap * sizeof *(v)->data); \
		}                                                                           \
	} while (0)

#define vec_push(v, x)                                  \
	do {                                            \
		vec_reserve((v), (v)->len + 1);         \
		(v)->data[(v)->len++] = (x);            \
	} while (0)

#define vec_free(v)                         \
	do {                                \
		free((v)->data);            \
		(v)->data = NULL;           \
		(v)->len = (v)->cap = 0;    \
	} while (0)

#define vec_last(v) ((v)->data[(v)->len - 1])
#define vec_foreach(v, i) for (int i = 0; i < (v)->len; i++)

#endif
