/* test_chip.c - unit tests of the chip loader (chip.h): a tiny design's
 * manifest and cores, written into a fresh folder, read with each part
 * alone; the cores' checks against the manifest (a PE or memory file of
 * another core, a PE port of no network's width) and two broken cores
 * reported together, each error exactly at its position; a missing or
 * malformed design.yaml (not loaded) told from a broken manifest (loaded);
 * the interconnect asked of a folder without routing.graph; the generated
 * rtl_out/cgra_4x4 (make rtl DESIGN=cgra_4x4, from the repository's root)
 * read whole and by parts. And coll_load's hint when design.yaml is missing
 * or no YAML, printed beside design_load's error in the order of today.
 *
 * Each test is a function run by main (check.h); the last line is
 * "chip: N passed, M failed"; the exit status is 1 if anything failed. */

#define _POSIX_C_SOURCE 200809L

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../common/tests/check.h"
#include "fixtures.h"
#include "../chip.h"
#include "../coll.h"
#include "../../common/diag.h"
#include "../../common/util.h"

static const char manifest[] = "design: chip\n"
			       "array: { cols: 2, rows: 1 }\n"
			       "io: north\n"
			       "widths:\n"
			       "  - 16\n"
			       "  - 1\n"
			       "cores:\n"
			       "  pe: { name: tpe, info: tpe.info.yaml, verilog: tpe.v }\n"
			       "  mem: { name: tiny, info: tiny.info.yaml, verilog: tiny.v }\n"
			       "tiles:\n"
			       "  - II\n"
			       "  - PM\n"
			       "files: { verilog: cgra.v, graph: routing.graph, config: config.map }\n";

static const char pe_info[] = "pe: tpe\n"
			      "verilog: tpe.v\n"
			      "module:\n"
			      "  name: tpe\n"
			      "  clock: clk\n"
			      "  reset: rst\n"
			      "  instruction: inst\n"
			      "instruction:\n"
			      "  width: 18\n"
			      "  fields:\n"
			      "    - { name: op, width: 2, type: Opcode, offset: 0 }\n"
			      "    - { name: k, width: 16, offset: 2 }\n"
			      "enums:\n"
			      "  Opcode: { width: 2, values: { Add: 0, Pass: 1 } }\n"
			      "inputs:\n"
			      "  - { name: A, width: 16 }\n"
			      "  - { name: c_in, width: 1 }\n"
			      "outputs:\n"
			      "  - { name: res, width: 16 }\n";

static const char pe_rules[] = "pe: tpe\n"
			       "instruction_width: 18\n"
			       "rules:\n"
			       "  - ir: const\n"
			       "    pattern: const(k)\n"
			       "    size: 1\n"
			       "    cost: 0.1\n"
			       "    instruction: { op: Pass, k: $k }\n"
			       "    word: 0x00001\n"
			       "    inputs: {}\n"
			       "    params: { k: k }\n"
			       "    outputs: { out: res }\n"
			       "    proof: { status: proved, solver: z3, cegis_rounds: 1 }\n";

/* The files of a tiny design: each text written under its name, NULL texts
 * not written; with mem, the memory fixture (fixtures.h: a tile named tiny). */
typedef struct Files {
	const char *manifest, *pe_info, *pe_rules;
	int mem;
	const char *mem_file;   /* the memory info's name: tiny.info.yaml unless given */
} Files;

static char dir[64];

/* DIR/name, created for writing (NULL if it cannot be). */
static FILE *create(const char *name)
{
	char *path = util_path_join(dir, name);
	FILE *f = fopen(path, "w");
	free(path);
	return f;
}

static void put(const char *name, const char *text)
{
	FILE *f = text ? create(name) : NULL;
	if (f) {
		fputs(text, f);
		fclose(f);
	}
}

static void put_mem(const char *name)
{
	MemInfo *mi = tiny_mem(MEM_REGFILE, 8, 0, 1, MEM_RECURRENCE, 0, 8);
	FILE *f = create(name);
	if (f) {
		meminfo_write(mi, f);
		fclose(f);
	}
	meminfo_free(mi);
}

/* A fresh folder (dir) holding files. */
static void make_design(const Files *files)
{
	snprintf(dir, sizeof dir, "/tmp/test_chip.XXXXXX");
	if (!mkdtemp(dir))
		return;
	put("design.yaml", files->manifest);
	put("tpe.info.yaml", files->pe_info);
	put("tpe.rules.yaml", files->pe_rules);
	if (files->mem)
		put_mem(files->mem_file ? files->mem_file : "tiny.info.yaml");
}

static void remove_design(void)
{
	static const char *const names[] = { "design.yaml", "tpe.info.yaml", "tpe.rules.yaml", "tiny.info.yaml",
					     "pub.info.yaml" };
	for (int i = 0; i < COUNT(names); i++) {
		char *path = util_path_join(dir, names[i]);
		remove(path);
		free(path);
	}
	rmdir(dir);
}

/* DIR/name, as the messages name it. */
static char *in_dir(const char *name)
{
	return util_path_join(dir, name);
}

/* 1 if error i of d is msg (DIR standing for the folder, once) in DIR/file
 * (no file if NULL) at line:col; says what it got otherwise. */
static int error_is(const Diags *d, int i, const char *file, int line, int col, const char *msg)
{
	const Diag *g = i < diags_count(d) ? diags_get(d, i) : NULL;
	char *path = file ? in_dir(file) : xstrdup(""), *want = text_replace1(msg, "DIR", dir);
	int ok = CHECK(g && g->sev == DIAG_ERROR && !strcmp(g->file ? g->file : "", path) && g->line == line &&
			       g->col == col && !strcmp(g->msg, want),
		       "error %d: expected %s:%d:%d '%s', got %s:%d:%d '%s'", i, path, line, col, want,
		       g && g->file ? g->file : "", g ? g->line : 0, g ? g->col : 0, g ? g->msg : "(none)");
	free(path);
	free(want);
	return ok;
}

/* The tiny design read with its cores: the PE's and the memory's info, no
 * interconnect; and with the manifest alone, nothing else. */
static void test_chip_cores(void)
{
	make_design(&(Files){ manifest, pe_info, pe_rules, 1, NULL });
	Diags *d = diags_new(NULL);
	int loaded = 0;
	Chip *chip = chip_load(dir, CHIP_CORES, &loaded, d);
	CHECK(chip && loaded && diags_count(d) == 0, "the tiny design reads with its cores (%d diagnostics)",
	      diags_count(d));
	if (chip)
		CHECK(!strcmp(chip->m->name, "chip") && chip->pe_info && !strcmp(chip->pe_info->name, "tpe") &&
		      chip->pe_info->nrules == 1 && chip->mem_info && !strcmp(chip->mem_info->name, "tiny") &&
		      !chip->graph && !chip->map, "its manifest, the PE with its rule, the memory; no interconnect");
	chip_free(chip);
	chip = chip_load(dir, 0, NULL, d);
	CHECK(chip && !chip->pe_info && !chip->mem_info && !chip->graph && diags_count(d) == 0,
	      "the manifest alone reads nothing else");
	chip_free(chip);
	diags_free(d);
	remove_design();
}

/* Cores of other names than the manifest's, and a PE port no network
 * carries: each error at its file. */
static void test_chip_core_checks(void)
{
	char *info = text_replace1(pe_info, "pe: tpe", "pe: other");
	char *rules = text_replace1(pe_rules, "pe: tpe", "pe: other");
	char *pub = text_replace1(manifest, "mem: { name: tiny, info: tiny.info.yaml",
				  "mem: { name: pub, info: pub.info.yaml");
	char *narrow = text_replace1(manifest, "  - 16\n  - 1\n", "  - 16\n");
	static const char pe_msg[] = "the file is of PE 'other', DIR/design.yaml names 'tpe'",
			  mem_msg[] = "the file is of memory 'tiny', DIR/design.yaml names 'pub'",
			  width_msg[] = "input c_in of PE 'tpe' is 1 bits wide: DIR/design.yaml has no network of "
					"that width";
	const struct {
		Files files;
		int nerrors;
		const char *file[2], *msg[2];
	} cases[] = {
		{ { manifest, info, rules, 1, NULL }, 1, { "tpe.info.yaml" }, { pe_msg } },
		{ { pub, pe_info, pe_rules, 1, "pub.info.yaml" }, 1, { "pub.info.yaml" }, { mem_msg } },
		{ { narrow, pe_info, pe_rules, 1, NULL }, 1, { "tpe.info.yaml" }, { width_msg } },
		{ { pub, info, rules, 1, "pub.info.yaml" }, 2, { "tpe.info.yaml", "pub.info.yaml" },
		  { pe_msg, mem_msg } },
	};
	for (int i = 0; i < COUNT(cases); i++) {
		make_design(&cases[i].files);
		Diags *d = diags_new(NULL);
		int loaded = 0;
		Chip *chip = chip_load(dir, CHIP_CORES, &loaded, d);
		CHECK(!chip && loaded && diags_errors(d) == cases[i].nerrors, "case %d: refused with %d errors, got %d",
		      i, cases[i].nerrors, diags_errors(d));
		for (int e = 0; e < cases[i].nerrors; e++)
			error_is(d, e, cases[i].file[e], 0, 0, cases[i].msg[e]);
		chip_free(chip);
		diags_free(d);
		remove_design();
	}
	free(info);
	free(rules);
	free(pub);
	free(narrow);
}

/* A PE info and a memory info both unreadable: both reported, the PE's
 * first. */
static void test_chip_both_cores(void)
{
	make_design(&(Files){ manifest, NULL, pe_rules, 0, NULL });
	Diags *d = diags_new(NULL);
	Chip *chip = chip_load(dir, CHIP_CORES, NULL, d);
	CHECK(!chip && diags_errors(d) == 2, "both missing cores reported (%d errors)", diags_errors(d));
	error_is(d, 0, NULL, 0, 0, "cannot read 'DIR/tpe.info.yaml': No such file or directory");
	error_is(d, 1, "tiny.info.yaml", 0, 0, "cannot read file: No such file or directory");
	chip_free(chip);
	diags_free(d);
	remove_design();
}

/* No design.yaml, or one that is no YAML: not loaded; a broken manifest:
 * loaded. */
static void test_chip_manifest(void)
{
	const struct {
		const char *text;
		int loaded;
	} cases[] = { { NULL, 0 }, { "design: [", 0 }, { "design: chip\n", 1 } };
	for (int i = 0; i < COUNT(cases); i++) {
		make_design(&(Files){ cases[i].text, pe_info, pe_rules, 0, NULL });
		Diags *d = diags_new(NULL);
		int loaded = -1;
		Chip *chip = chip_load(dir, CHIP_INTERCONNECT | CHIP_CORES, &loaded, d);
		const Diag *g = diags_errors(d) ? diags_get(d, 0) : NULL;
		char *path = in_dir("design.yaml");
		CHECK(!chip && loaded == cases[i].loaded && g && !strcmp(g->file, path),
		      "case %d: refused, loaded %d (got %d), the first error in design.yaml (got %s)", i,
		      cases[i].loaded, loaded, g ? g->file : "none");
		free(path);
		chip_free(chip);
		diags_free(d);
		remove_design();
	}
}

/* The interconnect asked of a folder without it: refused at the graph,
 * the cores not read. */
static void test_chip_no_interconnect(void)
{
	make_design(&(Files){ manifest, pe_info, pe_rules, 1, NULL });
	Diags *d = diags_new(NULL);
	Chip *chip = chip_load(dir, CHIP_INTERCONNECT | CHIP_CORES, NULL, d);
	CHECK(!chip && diags_errors(d) == 1, "refused with one error (%d)", diags_errors(d));
	error_is(d, 0, "routing.graph", 0, 0, "cannot read the file: No such file or directory");
	chip_free(chip);
	diags_free(d);
	remove_design();
}

/* rtl_out/cgra_4x4 as generated: whole, and each part alone. */
static void test_chip_generated(void)
{
	static const char design[] = "rtl_out/cgra_4x4";
	Diags *d = diags_new(stdout);
	Chip *chip = chip_load(design, CHIP_INTERCONNECT | CHIP_CORES, NULL, d);
	diags_flush(d);
	if (!CHECK(chip != NULL, "%s reads (make rtl DESIGN=cgra_4x4)", design)) {
		diags_free(d);
		return;
	}
	CHECK(chip->graph && chip->map && chip->pe_info && chip->mem_info && !strcmp(chip->m->name, "cgra_4x4") &&
	      !strcmp(chip->pe_info->name, chip->m->pe.name) && !strcmp(chip->mem_info->name, chip->m->mem.name) &&
	      chip->graph->cols == chip->m->cols, "its graph, map and cores, of the manifest's names and array");
	chip_free(chip);
	chip = chip_load(design, CHIP_INTERCONNECT, NULL, d);
	CHECK(chip && chip->graph && chip->map && !chip->pe_info && !chip->mem_info, "the interconnect alone");
	chip_free(chip);
	chip = chip_load(design, CHIP_CORES, NULL, d);
	CHECK(chip && !chip->graph && !chip->map && chip->pe_info && chip->mem_info, "the cores alone");
	chip_free(chip);
	CHECK(diags_count(d) == 0, "no diagnostics (%d)", diags_count(d));
	diags_free(d);
}

/* coll_load's hint when design.yaml is missing or no YAML, as printed:
 * sorted with design_load's error (line 0 first). */
static void test_coll_hint(void)
{
	const struct {
		const char *text, *first, *second;
	} cases[] = {
		{ NULL, "cannot read file: No such file or directory", "no design collateral here" },
		{ "design: [", "no design collateral here", "malformed YAML" },
	};
	for (int i = 0; i < COUNT(cases); i++) {
		make_design(&(Files){ cases[i].text, NULL, NULL, 0, NULL });
		char *out = NULL;
		size_t len = 0;
		FILE *f = open_memstream(&out, &len);
		Diags *d = diags_new(f);
		Collateral c;
		int ok = coll_load(dir, &c, d);
		coll_free(&c);
		diags_free(d);
		fclose(f);
		const char *a = strstr(out, cases[i].first), *b = strstr(out, cases[i].second);
		CHECK(!ok && a && b && a < b && strstr(out, "no design collateral here (run make rtl DESIGN=...)"),
		      "case %d: '%s' then '%s', got:\n%s", i, cases[i].first, cases[i].second, out);
		free(out);
		remove_design();
	}
}

static const TestCase tests[] = {
	{ "chip_cores", test_chip_cores },
	{ "chip_core_checks", test_chip_core_checks },
	{ "chip_both_cores", test_chip_both_cores },
	{ "chip_manifest", test_chip_manifest },
	{ "chip_no_interconnect", test_chip_no_interconnect },
	{ "chip_generated", test_chip_generated },
	{ "coll_hint", test_coll_hint },
};

int main(void)
{
	return check_run("chip", tests, COUNT(tests));
}
