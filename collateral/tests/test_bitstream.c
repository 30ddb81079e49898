/* test_bitstream.c - unit tests of config.map (configmap.h), routing.graph
 * (rgraph.h) and the bitstream built from them (bitstream.h): fields found by
 * target, edges in select order, routes and core registers set and written,
 * and the errors of a backwards field and an edge out of select order.
 *
 * Each test is a function run by main (check.h); the last line is
 * "bitstream: N passed, M failed"; the exit status is 1 if anything failed. */

#define _POSIX_C_SOURCE 200809L

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../common/tests/check.h"
#include "../bitstream.h"
#include "../configmap.h"
#include "../rgraph.h"
#include "../../common/diag.h"

static void test_bitstream(void)
{
	static const char map[] = "# two muxes sharing a register, and a core register\n"
				  "field 00800102 0 1 mux sb16_x1_y2_N_out_t0\n"
				  "field 00800102 2 4 mux x1_y2_data0\n"
				  "field 00000102 0 31 core x1_y2.inst0\n";
	static const char graph[] = "graph g cols 2 rows 3 widths 16\n"
				    "node 0 sb_in 16 1 2 S 0 0.00 a\n"
				    "node 1 sb_in 16 1 2 E 0 0.00 b\n"
				    "node 2 sb_out 16 1 2 N 0 0.14 sb16_x1_y2_N_out_t0\n"
				    "node 3 port_in 16 1 2 - - 0.10 x1_y2_data0\n"
				    "node 4 sb_in 16 1 2 W 0 0.00 c\n"
				    "edge 1 2 0\n"
				    "edge 0 2 1\n"
				    "edge 4 3 0\n"
				    "edge 0 3 1\n"
				    "edge 1 3 2\n";
	Diags *d = diags_new(NULL);
	ConfigMap *m = configmap_load_string("config.map", map, d);
	RGraph *g = rgraph_load_string("routing.graph", graph, d);
	CHECK(m && g && diags_errors(d) == 0, "config.map and routing.graph read");
	if (m && g) {
		CHECK(m->nfields == 3 && configmap_find(m, "x1_y2_data0") == 1, "three fields, found by target");
		CHECK(g->nnodes == 5 && g->nodes[3].nin == 3 && rgraph_select(g, 1, 3) == 2, "edges in select order");
		Bitstream *b = bitstream_new(m);
		CHECK(bitstream_route(b, g, 0, 2) && bitstream_route(b, g, 1, 3), "routes set the selects");
		CHECK(!bitstream_route(b, g, 4, 2), "an edge that does not exist is refused");
		CHECK(bitstream_set(b, "x1_y2.inst0", 0xdeadbeef) && !bitstream_set(b, "x1_y2_data0", 8),
		      "a core register takes a value; a value wider than its field is refused");
		char *text = NULL;
		size_t len = 0;
		FILE *f = open_memstream(&text, &len);
		bitstream_write(b, f);
		fclose(f);
		CHECK(strcmp(text, "00000102 deadbeef\n00800102 00000009\n") == 0, "bitstream:\n%s", text);
		free(text);
		bitstream_free(b);
	}
	configmap_free(m);
	rgraph_free(g);
	diags_free(d);
	d = diags_new(NULL);
	CHECK(!configmap_load_string("bad.map", "field 00800102 5 3 mux a\n", d) && diags_errors(d) == 1 &&
	      diags_get(d, 0)->line == 1 && diags_get(d, 0)->col == 18,
	      "a field whose bits run backwards is an error at the column");
	diags_free(d);
	d = diags_new(NULL);
	CHECK(!rgraph_load_string("bad.graph", "node 0 sb_in 16 0 0 N 0 0 a\nedge 0 0 3\n", d) && diags_errors(d) == 1,
	      "an edge out of select order is an error");
	diags_free(d);
}

static const TestCase tests[] = {
	{ "bitstream", test_bitstream },
};

int main(void)
{
	return check_run("bitstream", tests, COUNT(tests));
}
