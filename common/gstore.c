/* gstore.c - see gstore.h. */
#include "gstore.h"

#include <string.h>

void gstore_init(GStore *s)
{
	s->arena = arena_new();
	strmap_init(&s->names);
}

void gstore_free(GStore *s)
{
	strmap_free(&s->names);
	arena_free(s->arena);
}

int gstore_name(GStore *s, const char *name, int id)
{
	return strmap_put(&s->names, name, id);
}

int gstore_find(const GStore *s, const char *name)
{
	intptr_t id;
	return strmap_get(&s->names, name, &id) ? (int)id : -1;
}

void gstore_push(int **v, int *n, int x)
{
	if ((*n & (*n - 1)) == 0)   /* 0, 1, 2, 4, ...: full */
		*v = xrealloc(*v, (size_t)(*n ? 2 * *n : 1) * sizeof **v);
	(*v)[(*n)++] = x;
}

int gstore_drop(int *v, int *n, int x)
{
	for (int i = 0; i < *n; i++)
		if (v[i] == x) {
			memmove(&v[i], &v[i + 1], (size_t)(*n - i - 1) * sizeof *v);
			(*n)--;
			return 1;
		}
	return 0;
}
