/* arena.c - see arena.h. Blocks are chained; large requests get their own block. */
#include "arena.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ARENA_BLOCK 65536
#define ARENA_ALIGN 16

typedef struct Block {
	struct Block *next;
	size_t used, size;
	_Alignas(ARENA_ALIGN) unsigned char data[];
} Block;

struct Arena {
	Block *head;
};

Arena *arena_new(void)
{
	return xcalloc(1, sizeof(Arena));
}

void arena_free(Arena *a)
{
	if (!a)
		return;
	for (Block *b = a->head, *next; b; b = next) {
		next = b->next;
		free(b);
	}
	free(a);
}

static Block *block_new(size_t size)
{
	Block *b = xmalloc(sizeof(Block) + size);
	b->next = NULL;
	b->used = 0;
	b->size = size;
	return b;
}

void *arena_alloc(Arena *a, size_t n)
{
	n = (n + ARENA_ALIGN - 1) & ~(size_t)(ARENA_ALIGN - 1);
	Block *b = a->head;
	if (!b || b->size - b->used < n) {
		if (n > ARENA_BLOCK / 4) {
			/* a large request gets a block of its own behind the current one */
			Block *big = block_new(n);
			if (b) {
				big->next = b->next;
				b->next = big;
			} else {
				a->head = big;
			}
			big->used = n;
			return memset(big->data, 0, n);
		}
		b = block_new(ARENA_BLOCK);
		b->next = a->head;
		a->head = b;
	}
	void *p = b->data + b->used;
	b->used += n;
	return memset(p, 0, n);
}

char *arena_strndup(Arena *a, const char *s, size_t n)
{
	char *p = arena_alloc(a, n + 1);
	memcpy(p, s, n);
	p[n] = '\0';
	return p;
}

char *arena_strdup(Arena *a, const char *s)
{
	return arena_strndup(a, s, strlen(s));
}

char *arena_vprintf(Arena *a, const char *fmt, va_list ap)
{
	va_list ap2;
	va_copy(ap2, ap);
	int n = vsnprintf(NULL, 0, fmt, ap2);
	va_end(ap2);
	char *p = arena_alloc(a, (size_t)n + 1);
	vsnprintf(p, (size_t)n + 1, fmt, ap);
	return p;
}

char *arena_printf(Arena *a, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	char *p = arena_vprintf(a, fmt, ap);
	va_end(ap);
	return p;
}
