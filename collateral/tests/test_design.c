/* test_design.c - unit tests of the design manifest reader (design.h): a
 * small design.yaml read; each broken manifest (an array of 2^63 columns, a
 * keyword as the design's name, a network listed twice, a core file outside
 * the folder, tiles of the wrong kind in a row, ...) giving exactly its error
 * at its position; the same manifest read from text (design_load_string);
 * the compiler's IR operations (coll_ir_ops, which a rules file is checked
 * against) those of peak/ir/ops.yaml, in its order.
 *
 * Each test is a function run by main (check.h); the last line is
 * "design: N passed, M failed"; the exit status is 1 if anything failed. */

#define _POSIX_C_SOURCE 200809L

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../common/tests/check.h"
#include "../coll.h"
#include "../design.h"
#include "../../common/yamlr.h"
#include "../../common/diag.h"
#include "../../common/util.h"

static const char manifest[] = "design: chip\n"
			       "array: { cols: 4, rows: 2 }\n"
			       "io: north\n"
			       "widths:\n"
			       "  - 16\n"
			       "  - 1\n"
			       "cores:\n"
			       "  pe: { name: pe_base, info: pe_base.info.yaml, verilog: pe_base.v }\n"
			       "  mem: { name: pub, info: pub.info.yaml, verilog: pub.v }\n"
			       "tiles:\n"
			       "  - IIII\n"
			       "  - PPPM\n"
			       "  - PPPM\n"
			       "files: { verilog: cgra.v, graph: routing.graph, config: config.map }\n";

/* Loads text as DIR/design.yaml of a fresh folder. */
static Design *load_text(const char *text, Diags *d)
{
	char dir[] = "/tmp/test_design.XXXXXX";
	if (!mkdtemp(dir))
		return NULL;
	char *path = util_path_join(dir, "design.yaml");
	FILE *f = fopen(path, "w");
	fputs(text, f);
	fclose(f);
	Design *m = design_load(dir, NULL, d);
	remove(path);
	rmdir(dir);
	free(path);
	return m;
}

static void test_design_read(void)
{
	Diags *d = diags_new(NULL);
	Design *m = load_text(manifest, d);
	CHECK(m != NULL && diags_errors(d) == 0, "the manifest reads (%d errors)", diags_errors(d));
	if (m)
		CHECK(!strcmp(m->name, "chip") && m->cols == 4 && m->rows == 3 && m->nwidths == 2 && m->widths[1] == 1 &&
		      design_tile(m, 3, 2) == 'M' && design_tile(m, 0, 0) == 'I' && !strcmp(m->mem.info, "pub.info.yaml"),
		      "its name, array, widths, tiles and cores");
	design_free(m);
	diags_free(d);
	/* without a memory core, rows of PEs */
	char *text = text_replace1(manifest, "  mem: { name: pub, info: pub.info.yaml, verilog: pub.v }\n", "");
	char *t2 = text_replace1(text, "  - PPPM\n  - PPPM\n", "  - PPPP\n  - PPPP\n");
	d = diags_new(NULL);
	m = load_text(t2, d);
	CHECK(m != NULL && !m->mem.name, "a design without memory tiles reads (%d errors)", diags_errors(d));
	design_free(m);
	diags_free(d);
	free(text);
	free(t2);
}

/* Each broken manifest gives exactly this error at the first occurrence of
 * `at` in the broken text. */
static void test_design_errors(void)
{
	static const struct {
		const char *from, *to, *msg, *at;
	} cases[] = {
		{ "cols: 4", "cols: 9223372036854775808", "cols 9223372036854775808 is out of range (1 to 255)",
		  "9223372036854775808" },
		{ "cols: 4", "cols: 0x10000000000000000", "cols 0x10000000000000000 is out of range (1 to 255)", "0x1" },
		{ "rows: 2", "rows: 256", "rows 256 is out of range (1 to 255)", "256" },
		{ "cols: 4", "cols: -1", "cols -1 is out of range (1 to 255)", "-1" },
		{ "cols: 4", "cols: four", "expected a number for cols", "four" },
		{ "design: chip", "design: module",
		  "'module' is not a design name (letters, digits, '_'; not a Verilog keyword)", "module" },
		{ "design: chip", "design: cgra-4x4",
		  "'cgra-4x4' is not a design name (letters, digits, '_'; not a Verilog keyword)", "cgra" },
		{ "  - 1\n", "  - 16\n", "the 16-bit network is listed twice", "16\ncores" },
		{ "  - 1\n", "  - 65\n", "a width 65 is out of range (1 to 64)", "65" },
		{ "name: pub,", "name: pub-x,",
		  "'pub-x' is not a core's module name (letters, digits, '_'; not a Verilog keyword)", "pub-x" },
		{ "info: pub.info.yaml", "info: ../pub.info.yaml",
		  "'../pub.info.yaml' is not the name of a file in the design's folder", "../" },
		{ "graph: routing.graph", "graph: /etc/passwd", "'/etc/passwd' is not the name of a file in the design's folder",
		  "/etc" },
		{ "io: north", "io: south", "expected 'io: north' (IO tiles sit on the north edge)", "south" },
		{ "  - IIII\n", "  - IIPI\n", "row 0 is the row of IO tiles: expected 4 I's", "IIPI" },
		{ "  - PPPM\n", "  - PIPM\n", "a row of cores: expected 4 tiles, each P or M", "PIPM" },
		{ "  mem: { name: pub, info: pub.info.yaml, verilog: pub.v }\n", "",
		  "a row of cores: expected 4 P's (the design has no memory core)", "PPPM" },
		{ "  - PPPM\n", "  - PPPMM\n", "expected 4 tiles, each I, P or M", "PPPMM" },
		{ "  - PPPM\n", "", "expected 3 rows of tiles (the IO row and the core rows)", "- IIII" },
	};
	for (int i = 0; i < COUNT(cases); i++) {
		char *text = text_replace1(manifest, cases[i].from, cases[i].to);
		int line, col;
		text_position(text, cases[i].at, &line, &col);
		Diags *d = diags_new(NULL);
		Design *m = load_text(text, d);
		const Diag *g = diags_errors(d) ? diags_get(d, 0) : NULL;
		CHECK(!m && diags_errors(d) == 1 && g && !strcmp(g->msg, cases[i].msg) && g->line == line && g->col == col,
		      "case %d: expected '%s' at %d:%d, got %d errors, first '%s' at %d:%d", i, cases[i].msg, line, col,
		      diags_errors(d), g ? g->msg : "", g ? g->line : 0, g ? g->col : 0);
		design_free(m);
		diags_free(d);
		free(text);
	}
}

/* design_load_string: the same manifest from text, its errors named
 * DIR/design.yaml. */
static void test_design_string(void)
{
	Diags *d = diags_new(NULL);
	int loaded = 0;
	Design *m = design_load_string("chipdir", manifest, &loaded, d);
	CHECK(m && loaded && diags_errors(d) == 0 && m->cols == 4 && design_tile(m, 3, 2) == 'M' &&
	      !strcmp(design_path(m, m->graph_file), "chipdir/routing.graph"), "the manifest reads from text");
	design_free(m);
	char *text = text_replace1(manifest, "rows: 2", "rows: 256");
	m = design_load_string("chipdir", text, &loaded, d);
	const Diag *g = diags_errors(d) ? diags_get(d, 0) : NULL;
	CHECK(!m && loaded && g && !strcmp(g->file, "chipdir/design.yaml") && g->line == 2 && g->col == 25,
	      "an error of text at chipdir/design.yaml:2:25, got %s:%d:%d", g ? g->file : "", g ? g->line : 0,
	      g ? g->col : 0);
	m = design_load_string("chipdir", "design: [", &loaded, d);
	CHECK(!m && !loaded, "text that is no YAML is not loaded");
	free(text);
	diags_free(d);
}

/* The one-letter keys of map (YAML) as a string, e.g. "ab"; "" if none. */
static void keys_of(const YNode *map, char *out, int size)
{
	int n = 0;
	for (int i = 0; map && map->kind == YN_MAP && i < map->len && n < size - 1; i++)
		out[n++] = map->keys[i]->value[0];
	out[n] = '\0';
}

/* coll_ir_ops lists the operations of peak/ir/ops.yaml, in order, with
 * their inputs and params (run from the repository's root). */
static void test_ir_ops(void)
{
	Diags *d = diags_new(stdout);
	YDoc *doc = ydoc_load_file("peak/ir/ops.yaml", d);
	const YNode *ir = doc && doc->root ? ymap_get(doc->root, "ir") : NULL;
	CHECK(ir && ir->kind == YN_SEQ, "peak/ir/ops.yaml read");
	int n = 0;
	for (int i = 0; ir && i < ir->len; i++) {
		const YNode *name = ymap_get(ir->items[i], "name");
		const CollIrOp *op = &coll_ir_ops[n];
		char ins[8], params[8];
		keys_of(ymap_get(ir->items[i], "inputs"), ins, sizeof ins);
		keys_of(ymap_get(ir->items[i], "params"), params, sizeof params);
		CHECK(name && name->kind == YN_SCALAR && op->name && strcmp(name->value, op->name) == 0 &&
		      strcmp(ins, op->inputs) == 0 && strcmp(params, op->params) == 0,
		      "operation %d: %s (%s; %s) in ops.yaml, %s (%s; %s) in coll_ir_ops", i, name ? name->value : "?",
		      ins, params, op->name ? op->name : "(the end)", op->inputs ? op->inputs : "",
		      op->params ? op->params : "");
		n += op->name != NULL;
	}
	CHECK(ir && !coll_ir_ops[n].name, "coll_ir_ops has no operation past those of ops.yaml (%d)", n);
	ydoc_free(doc);
	diags_free(d);
}

static const TestCase tests[] = {
	{ "design_read", test_design_read },
	{ "ir_ops", test_ir_ops },
	{ "design_errors", test_design_errors },
	{ "design_string", test_design_string },
};

int main(void)
{
	return check_run("design", tests, COUNT(tests));
}
