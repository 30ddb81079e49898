/* test_containers.c - unit tests of the containers: the insertion-ordered
 * string map (strmap.h) across rehashing, the arena (arena.h: alignment,
 * zeroing, large blocks, strings), growable vectors (vec.h) and the storage
 * of numbered, named graphs (gstore.h: names, links, removals).
 *
 * Each test is a function run by main (check.h); the last line is
 * "containers: N passed, M failed"; the exit status is 1 if anything failed. */

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "fixtures.h"
#include "../arena.h"
#include "../gstore.h"
#include "../strmap.h"
#include "../util.h"
#include "../vec.h"

/* ---- strmap ---- */

static void test_strmap_basic(void)
{
	StrMap m;
	strmap_init(&m);
	intptr_t v = -1;
	CHECK(!strmap_get(&m, "a", &v) && v == -1, "an empty map finds 'a'");
	CHECK(strmap_put(&m, "a", 1) == 1, "inserting 'a' is not new");
	CHECK(strmap_put(&m, "b", 2) == 1, "inserting 'b' is not new");
	CHECK(strmap_put(&m, "a", 3) == 0, "replacing 'a' is reported as new");
	CHECK(strmap_get(&m, "a", &v) && v == 3, "'a' = %ld after replacing, want 3", (long)v);
	CHECK(strmap_get(&m, "b", NULL), "get with out NULL misses 'b'");
	CHECK(!strmap_get(&m, "c", &v) && !strmap_get(&m, "", &v) && !strmap_get(&m, "A", &v),
	      "missing keys are found");
	CHECK(m.len == 2 && str_eq(m.keys[0], "a") && str_eq(m.keys[1], "b"),
	      "keys not kept in insertion order");
	CHECK(strmap_put(&m, "", 9) == 1 && strmap_get(&m, "", &v) && v == 9,
	      "the empty key is not stored");
	strmap_free(&m);
	CHECK(m.len == 0 && m.keys == NULL && !strmap_get(&m, "a", NULL), "free does not reset");
}

static void test_strmap_many(void)
{
	StrMap m;
	strmap_init(&m);
	char key[32];
	int news = 0;
	for (int i = 0; i < 1000; i++) {
		snprintf(key, sizeof key, "k%d", (i * 7919) % 1000);
		news += strmap_put(&m, key, (intptr_t)i * 3);
	}
	CHECK(news == 1000 && m.len == 1000, "%d new keys, len %d, want 1000", news, m.len);
	CHECK(m.nslots >= 2 * m.len, "load factor above 1/2 (%d slots)", m.nslots);
	int order_ok = 1, values_ok = 1;
	for (int i = 0; i < 1000; i++) {
		snprintf(key, sizeof key, "k%d", (i * 7919) % 1000);
		intptr_t v;
		order_ok &= str_eq(m.keys[i], key) && m.vals[i] == (intptr_t)i * 3;
		values_ok &= strmap_get(&m, key, &v) && v == (intptr_t)i * 3;
	}
	CHECK(order_ok, "insertion order lost across rehashing");
	CHECK(values_ok, "a value is lost across rehashing");
	CHECK(!strmap_get(&m, "k1000", NULL) && !strmap_get(&m, "k", NULL) &&
		  !strmap_get(&m, "K1", NULL),
	      "a missing key is found among 1000");
	strmap_free(&m);
}

/* ---- arena ---- */

static void test_arena_many_allocations(void)
{
	Arena *a = arena_new();
	enum { N = 20000 };
	unsigned char **ptrs = xmalloc(N * sizeof *ptrs);
	int aligned = 1, zeroed = 1, intact = 1;
	for (int i = 0; i < N; i++) {
		size_t n = (size_t)(i % 97) + 1;
		ptrs[i] = arena_alloc(a, n);
		aligned &= ((uintptr_t)ptrs[i] % 16) == 0;
		for (size_t k = 0; k < n; k++)
			zeroed &= ptrs[i][k] == 0;
		memset(ptrs[i], i & 0xff, n);
	}
	for (int i = 0; i < N; i++)
		for (size_t k = 0; k < (size_t)(i % 97) + 1; k++)
			intact &= ptrs[i][k] == (i & 0xff);
	CHECK(aligned, "an allocation is not aligned to 16");
	CHECK(zeroed, "an allocation is not zeroed");
	CHECK(intact, "allocations overlap");
	free(ptrs);
	arena_free(a);
}

static void test_arena_large(void)
{
	Arena *a = arena_new();
	size_t big = 1 << 20;
	unsigned char *first = arena_alloc(a, big); /* a large request on an empty arena */
	char *small = arena_strdup(a, "after");
	unsigned char *second = arena_alloc(a, big);
	char *small2 = arena_strdup(a, "still");
	int zero = 1;
	for (size_t i = 0; i < big; i++)
		zero &= first[i] == 0 && second[i] == 0;
	CHECK(zero, "large allocations are not zeroed");
	CHECK((uintptr_t)first % 16 == 0 && (uintptr_t)second % 16 == 0,
	      "large allocations are not aligned");
	memset(first, 1, big);
	memset(second, 2, big);
	CHECK(str_eq(small, "after") && str_eq(small2, "still"),
	      "small allocations clobbered by large ones");
	CHECK(arena_alloc(a, 0) != NULL, "arena_alloc(0) returned NULL");
	arena_free(a);
	arena_free(NULL);
}

static void test_arena_strings(void)
{
	Arena *a = arena_new();
	CHECK(str_eq(arena_strdup(a, "hello"), "hello"), "arena_strdup");
	CHECK(str_eq(arena_strdup(a, ""), ""), "arena_strdup of \"\"");
	CHECK(str_eq(arena_strndup(a, "hello world", 5), "hello"), "arena_strndup");
	CHECK(str_eq(arena_printf(a, "%s-%d-%04x", "x", 42, 255), "x-42-00ff"), "arena_printf");
	char *longs = arena_printf(a, "%5000d|", 7);
	CHECK(strlen(longs) == 5001 && longs[4999] == '7' && longs[5000] == '|',
	      "arena_printf of 5001 characters");
	arena_free(a);
}

/* ---- vec ---- */

static void test_vec_push_grow(void)
{
	VEC(int) v = { 0 };
	for (int i = 0; i < 1000; i++)
		vec_push(&v, i * i);
	CHECK(v.len == 1000 && v.cap >= 1000 && (v.cap & (v.cap - 1)) == 0,
	      "len %d cap %d after 1000 pushes", v.len, v.cap);
	int ok = 1;
	vec_foreach(&v, i) ok &= v.data[i] == i * i;
	CHECK(ok, "an element changed while growing");
	CHECK(vec_last(&v) == 999 * 999, "vec_last = %d", vec_last(&v));
	vec_free(&v);
	CHECK(v.data == NULL && v.len == 0 && v.cap == 0, "vec_free does not reset");

	typedef struct {
		char name[8];
		double x;
	} Pair;
	VEC(Pair) p = { 0 };
	vec_reserve(&p, 3);
	CHECK(p.cap == 8 && p.len == 0, "vec_reserve(3): cap %d len %d", p.cap, p.len);
	vec_push(&p, ((Pair){ "a", 1.5 }));
	vec_push(&p, ((Pair){ "b", 2.5 }));
	CHECK(p.len == 2 && str_eq(p.data[1].name, "b") && p.data[0].x == 1.5,
	      "a vector of structs");
	vec_free(&p);
}

/* ---- gstore ---- */

typedef struct TNode {
	int *in;
	int nin;
	int *out;
	int nout;
} TNode;

static void test_gstore_graph(void)
{
	enum { N = 40 };
	GStore s;
	gstore_init(&s);
	TNode *nodes = xcalloc(N, sizeof *nodes);
	int named = 0;
	for (int i = 0; i < N; i++)
		named += gstore_name(&s, arena_printf(s.arena, "n%d", i), i);
	CHECK(named == N, "%d of %d names are new", named, N);
	CHECK(!gstore_name(&s, "n7", 7), "a second n7 is not reported");
	CHECK(gstore_find(&s, "n33") == 33 && gstore_find(&s, "n40") == -1, "names are not found");
	for (int i = 1; i < N; i++)   /* node 0 feeds every other; node i feeds node 0 */
		gstore_link(nodes, 0, i);
	for (int i = 1; i < N; i++)
		gstore_link(nodes, i, 0);
	CHECK(nodes[0].nout == N - 1 && nodes[0].nin == N - 1 && nodes[5].nin == 1 && nodes[5].out[0] == 0,
	      "the lists of the links");
	CHECK(nodes[0].in[0] == 1 && nodes[0].in[N - 2] == N - 1, "the inputs are not in link order");
	CHECK(gstore_unlink(nodes, 3, 0) && !gstore_unlink(nodes, 3, 0), "removing an edge twice");
	CHECK(nodes[0].nin == N - 2 && nodes[0].in[2] == 4 && nodes[3].nout == 0, "the lists after a removal");
	for (int i = 0; i < 20; i++)   /* drops and pushes around powers of two */
		gstore_drop(nodes[0].out, &nodes[0].nout, i + 1);
	for (int i = 0; i < 30; i++)
		gstore_push(&nodes[0].out, &nodes[0].nout, 100 + i);
	CHECK(nodes[0].nout == N - 1 - 20 + 30 && nodes[0].out[0] == 21 && nodes[0].out[nodes[0].nout - 1] == 129,
	      "the outputs after drops and pushes");
	gstore_free_nodes(nodes, N);
	gstore_free(&s);
}

static const TestCase tests[] = {
	{ "strmap_basic", test_strmap_basic },
	{ "strmap_many", test_strmap_many },
	{ "arena_many_allocations", test_arena_many_allocations },
	{ "arena_large", test_arena_large },
	{ "arena_strings", test_arena_strings },
	{ "vec_push_grow", test_vec_push_grow },
	{ "gstore_graph", test_gstore_graph },
};

int main(void)
{
	return check_run("containers", tests, COUNT(tests));
}
