/* test_bitstream.c - unit tests of config.map (configmap.h), routing.graph
 * (rgraph.h) and the bitstream built from them (bitstream.h): fields found by
 * target, edges in select order, routes and core registers set and written;
 * each broken graph or map (an unknown kind, a width of no network, a NaN or
 * negative delay, a header of the wrong shape, a repeated or cross-network
 * edge, a missing or wrong end line, overlapping fields, ...) giving exactly
 * its error at its position.
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
				  "field 00000102 0 31 core x1_y2.inst0\n"
				  "end 3\n";
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
				    "edge 1 3 2\n"
				    "end 5 5\n";
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
	CHECK(!configmap_load_string("bad.map", "field 00800102 5 3 mux a\nend 1\n", d) && diags_errors(d) == 1 &&
	      diags_get(d, 0)->line == 1 && diags_get(d, 0)->col == 18,
	      "a field whose bits run backwards is an error at the column");
	diags_free(d);
}

/* A sound graph of two networks; each case replaces one piece of it. */
static const char good_graph[] = "graph g cols 2 rows 3 widths 16 1\n"
				 "node 0 sb_in 16 1 2 S 0 0.00 a\n"
				 "node 1 sb_in 16 1 2 E 1 0.00 b\n"
				 "node 2 sb_out 16 1 2 N 0 0.14 c\n"
				 "node 3 port_in 1 1 2 - - 0.10 x1_y2_bit0\n"
				 "node 4 sb_in 1 1 2 W 0 0.00 d\n"
				 "edge 1 2 0\n"
				 "edge 0 2 1\n"
				 "edge 4 3 -\n"
				 "end 5 3\n";

typedef struct BadCase {
	const char *from, *to;  /* the replacement */
	const char *msg;        /* the only error */
	int line, col;          /* its position; line 0: the file */
} BadCase;

/* Each case: the text with from replaced by to, read by load, gives exactly
 * one error: msg at (line, col). */
static void check_cases(const char *what, const char *good, const BadCase *cases, int n,
			int (*load)(const char *text, Diags *d))
{
	Diags *d = diags_new(NULL);
	CHECK(load(good, d) && diags_errors(d) == 0, "the good %s is read", what);
	diags_free(d);
	for (int i = 0; i < n; i++) {
		const BadCase *c = &cases[i];
		char *text = text_replace1(good, c->from, c->to);
		d = diags_new(NULL);
		int ok = load(text, d);
		const Diag *g = diags_errors(d) ? diags_get(d, 0) : NULL;
		CHECK(!ok && diags_errors(d) == 1 && g && strcmp(g->msg, c->msg) == 0 && g->line == c->line &&
		      g->col == c->col, "%s with '%s' -> '%s': expected 1 error \"%s\" at %d:%d, got %d: \"%s\" at %d:%d",
		      what, c->from, c->to, c->msg, c->line, c->col, diags_errors(d), g ? g->msg : "", g ? g->line : 0,
		      g ? g->col : 0);
		diags_free(d);
		free(text);
	}
}

static int load_graph(const char *text, Diags *d)
{
	RGraph *g = rgraph_load_string("routing.graph", text, d);
	rgraph_free(g);
	return g != NULL;
}

static int load_map(const char *text, Diags *d)
{
	ConfigMap *m = configmap_load_string("config.map", text, d);
	configmap_free(m);
	return m != NULL;
}

static void test_bad_graph(void)
{
	static const char *const end = "the graph ends without its 'end NODES EDGES' line: the file is cut short, or "
				       "older than its reader (regenerate the design's collateral: make rtl DESIGN=...)";
	static const BadCase cases[] = {
		{ "widths 16 1\n", "\n", "expected 'graph NAME cols C rows R widths W...' with 1 to 4 widths", 1, 1 },
		{ "widths 16 1\n", "widths 16 1 extra\n", "expected a number from 1 to 64, not 'extra'", 1, 35 },
		{ "widths 16 1\n", "widths 16 16\n", "the 16-bit network is listed twice", 1, 33 },
		{ "graph g", "graph 9g", "'9g' is not a design name (letters, digits, '_')", 1, 7 },
		{ "graph g cols 2 rows 3 widths 16 1\n", "", "expected the 'graph NAME cols C rows R widths W...' line "
		  "first, not 'node'", 1, 1 },
		{ "end 5 3\n", "graph g cols 2 rows 3 widths 16\nend 5 3\n", "a second graph line (the first is line 1)",
		  10, 1 },
		{ "sb_out 16", "sb_zzz 16", "unknown kind of node 'sb_zzz' (sb_in, sb_out, reg, rmux, port_in or port_out)",
		  4, 8 },
		{ "port_in 1 ", "port_in 17 ", "a 17-bit node, but the graph's networks are of 16, 1 bits", 5, 16 },
		{ "0.14", "-0.13", "expected a delay in ns from 0 to 10, not '-0.13'", 4, 26 },
		{ "0.14", "nan", "expected a delay in ns from 0 to 10, not 'nan'", 4, 26 },
		{ "0.14", "inf", "expected a delay in ns from 0 to 10, not 'inf'", 4, 26 },
		{ "0.14", "1e308", "expected a delay in ns from 0 to 10, not '1e308'", 4, 26 },
		{ "0.14", "0.14ns", "expected a delay in ns from 0 to 10, not '0.14ns'", 4, 26 },
		{ "16 1 2 N 0", "16 1 2 X 0", "a sb_out node sits on a side: expected N, E, S or W, not 'X'", 4, 22 },
		{ "1 1 2 - - 0.10", "1 1 2 N - 0.10", "a port_in node has no side: expected '-', not 'N'", 5, 22 },
		{ "1 1 2 - - 0.10", "1 1 2 - 0 0.10", "a port_in node has no track: expected '-', not '0'", 5, 24 },
		{ "sb_in 16 1 2 S 0", "sb_in 16 2 2 S 0", "column 2 is outside the graph's array (x 0 to 1)", 2,
		  17 },
		{ "x1_y2_bit0", "x1.bit0", "'x1.bit0' is not a node name (letters, digits, '_')", 5, 31 },
		{ "0.00 d\n", "0.00 a\n", "a second node named 'a' (the first is line 2)", 6, 29 },
		{ "edge 0 2 1\n", "edge 1 2 1\n", "a second edge from node 1 to node 2: a multiplexer takes each input once",
		  8, 6 },
		{ "edge 0 2 1\n", "edge 2 2 1\n", "node 2 cannot be an input of itself", 8, 8 },
		{ "edge 4 3 -\n", "edge 0 3 -\n", "an edge from a 16-bit node to a 1-bit node: an edge stays within one "
		  "network", 9, 6 },
		{ "edge 1 2 0\n", "edge 1 2 -\n", "node 2 has several inputs: each edge into it gives its select (0, 1, "
		  "...), not '-'", 8, 10 },
		{ "edge 0 2 1\n", "edge 0 2 2\n", "edges into a node are listed in select order", 8, 10 },
		{ "end 5 3\n", "", end, 0, 0 },
		{ "end 5 3\n", "end 5 4\n", "the end line counts 5 nodes and 4 edges, the file has 5 and 3: lines are "
		  "missing or were added by hand (regenerate the design's collateral: make rtl DESIGN=...)", 10, 1 },
		{ "end 5 3\n", "end 5 3\nedge 0 3 -\n", "a record after the end line", 11, 1 },
		{ "end 5 3\n", "end 5 3 0 0 0 0 0 0 0 0 0 0 0\n", "more than 12 fields on a line: no record has that many",
		  10, 27 },
		{ "end 5 3\n", "stop\n", "expected a graph, node, edge or end record, not 'stop'", 10, 1 },
	};
	check_cases("routing.graph", good_graph, cases, COUNT(cases), load_graph);
	/* an empty file and a node with more inputs than a reader takes */
	Diags *d = diags_new(NULL);
	CHECK(!load_graph("# nothing\n", d) && diags_errors(d) == 1 &&
	      strstr(diags_get(d, 0)->msg, "no graph line, and the file ends without its 'end NODES EDGES' line"),
	      "an empty graph is refused");
	diags_free(d);
	StrBuf b = { 0 };
	sb_printf(&b, "graph g cols 2 rows 3 widths 16\n");
	for (int i = 0; i <= RGRAPH_MAX_FANIN + 1; i++)
		sb_printf(&b, "node %d sb_in 16 0 0 N 0 0 n%d\n", i, i);
	for (int i = 1; i <= RGRAPH_MAX_FANIN + 1; i++)
		sb_printf(&b, "edge %d 0 %d\n", i, i - 1);
	d = diags_new(NULL);
	CHECK(!load_graph(b.s, d) && diags_errors(d) == 1 && diags_get(d, 0)->line == 2 * RGRAPH_MAX_FANIN + 4 &&
	      strcmp(diags_get(d, 0)->msg, "node 0 has more than 1024 inputs") == 0,
	      "a node of more than RGRAPH_MAX_FANIN inputs is refused at the first edge past it");
	diags_free(d);
	free(b.s);
}

static void test_bad_map(void)
{
	static const char good[] = "field 00800102 0 1 mux a\n"
				   "field 00800102 2 4 mux b\n"
				   "field 01800102 0 4 mux c\n"
				   "end 3\n";
	static const BadCase cases[] = {
		{ "2 4 mux b", "1 4 mux b", "bits 1..4 of register 00800102 are also bits of the field of 'a' (line 1, bits "
		  "0..1): fields of a register do not overlap", 2, 1 },
		{ "0 1 mux a", "3 3 mux a", "bits 2..4 of register 00800102 are also bits of the field of 'a' (line 1, bits "
		  "3..3): fields of a register do not overlap", 2, 1 },
		{ "mux c", "mux a", "a second field for 'a' (the first is line 1)", 3, 24 },
		{ "end 3\n", "", "the map ends without its 'end FIELDS' line: the file is cut short, or older than its "
		  "reader (regenerate the design's collateral: make rtl DESIGN=...)", 0, 0 },
		{ "end 3\n", "end 4\n", "the end line counts 4 fields, the file has 3: lines are missing or were added by "
		  "hand (regenerate the design's collateral: make rtl DESIGN=...)", 4, 1 },
		{ "end 3\n", "end 3\nfield 00800103 0 1 mux d\n", "a record after the end line", 5, 1 },
		{ "end 3\n", "end 3 3\n", "expected 'end FIELDS'", 4, 1 },
		{ "field 01800102", "fields 01800102", "expected a field or end record, not 'fields'", 3, 1 },
		{ "mux c", "mix c", "a field is of kind mux or core, not 'mix'", 3, 20 },
	};
	check_cases("config.map", good, cases, COUNT(cases), load_map);
}

static const TestCase tests[] = {
	{ "bitstream", test_bitstream },
	{ "bad graph", test_bad_graph },
	{ "bad map", test_bad_map },
};

int main(void)
{
	return check_run("bitstream", tests, COUNT(tests));
}
