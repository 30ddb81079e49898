/* arena.h - bump allocation for one phase of work (a spec, an application, a
 * place-and-route run); everything is released at once by arena_free. */
#ifndef COMMON_ARENA_H
#define COMMON_ARENA_H

#include <stdarg.h>
#include <stddef.h>

#include "util.h"

typedef struct Arena Arena;

__give Arena *arena_new(void);
void arena_free(__take Arena *a);
/* Zeroed memory aligned for any type, valid until arena_free. */
void *arena_alloc(__keep Arena *a, size_t n);
char *arena_strdup(__keep Arena *a, const char *s);
char *arena_strndup(__keep Arena *a, const char *s, size_t n);
char *arena_printf(__keep Arena *a, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
char *arena_vprintf(__keep Arena *a, const char *fmt, va_list ap);

#endif
