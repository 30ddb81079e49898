/* strmap.c - see strmap.h. Linear probing over a power-of-two slot table. */
#include "strmap.h"

#include <stdlib.h>
#include <string.h>

void strmap_init(StrMap *m)
{
	memset(m, 0, sizeof *m);
}

void strmap_free(StrMap *m)
{
	for (int i = 0; i < m->len; i++)
		free(m->keys[i]);
	free(m->keys);
	free(m->vals);
	free(m->slots);
	memset(m, 0, sizeof *m);
}

static unsigned hash_str(const char *s)
{
	return (unsigned)util_fnv1a(UTIL_FNV_INIT, s, strlen(s));
}

static int find_slot(const StrMap *m, const char *key)
{
	unsigned mask = (unsigned)m->nslots - 1;
	for (unsigned h = hash_str(key) & mask;; h = (h + 1) & mask) {
		int k = m->slots[h];
		if (k < 0 || strcmp(m->keys[k], key) == 0)
			return (int)h;
	}
}

static void rehash(StrMap *m)
{
	free(m->slots);
	m->nslots = m->nslots ? 2 * m->nslots : 16;
	m->slots = xmalloc((size_t)m->nslots * sizeof *m->slots);
	memset(m->slots, 0xff, (size_t)m->nslots * sizeof *m->slots);
	for (int i = 0; i < m->len; i++)
		m->slots[find_slot(m, m->keys[i])] = i;
}

int strmap_get(const StrMap *m, const char *key, intptr_t *out)
{
	if (!m->nslots)
		return 0;
	int k = m->slots[find_slot(m, key)];
	if (k < 0)
		return 0;
	if (out)
		*out = m->vals[k];
	return 1;
}

int strmap_index(const StrMap *m, const char *key)
{
	return m->nslots ? m->slots[find_slot(m, key)] : -1;
}

int strmap_put(StrMap *m, const char *key, intptr_t val)
{
	if (2 * (m->len + 1) > m->nslots)
		rehash(m);
	int s = find_slot(m, key);
	if (m->slots[s] >= 0) {
		m->vals[m->slots[s]] = val;
		return 0;
	}
	if (m->len == m->cap) {
		m->cap = m->cap ? 2 * m->cap : 16;
		m->keys = xrealloc(m->keys, (size_t)m->cap * sizeof *m->keys);
		m->vals = xrealloc(m->vals, (size_t)m->cap * sizeof *m->vals);
	}
	m->keys[m->len] = xstrdup(key);
	m->vals[m->len] = val;
	m->slots[s] = m->len++;
	return 1;
}

void strmap_copy(StrMap *out, const StrMap *m, int n)
{
	strmap_init(out);
	for (int i = 0; i < n && i < m->len; i++)
		strmap_put(out, m->keys[i], m->vals[i]);
}

void strmap_truncate(StrMap *m, int n)
{
	if (n >= m->len)
		return;
	for (int i = n; i < m->len; i++)
		free(m->keys[i]);
	m->len = n;
	memset(m->slots, 0xff, (size_t)m->nslots * sizeof *m->slots);
	for (int i = 0; i < m->len; i++)
		m->slots[find_slot(m, m->keys[i])] = i;
}
