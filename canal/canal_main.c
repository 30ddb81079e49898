/* canal_main.c - the `canal` command: an interconnect spec and the collateral
 * of its cores to the array's routing graph, configuration map and manifest
 * (canal/COLLATERAL.md). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/diag.h"
#include "../common/util.h"
#include "canal.h"

static const char usage[] =
	"usage: canal SPEC -o DIR [-q]\n"
	"           DIR holds the collateral of the spec's cores (bin/peak and bin/lake write it);\n"
	"           writes DIR/cgra.v, DIR/routing.graph, DIR/config.map and DIR/design.yaml\n"
	"       canal check [--cores DIR] SPEC...\n"
	"           read and check interconnect specs (docs/interconnect.md); with --cores, also\n"
	"           build each array on the cores' collateral in DIR (edits, names), writing nothing\n"
	"       canal cores SPEC\n"
	"           print the paths of the PE and MEM specs the design names, one per line\n"
	"       canal info INFO...\n"
	"           read cores' collateral (<pe>.info.yaml, <mem>.info.yaml) as canal does and print\n"
	"           what the interconnect takes of each: its ports and configuration registers\n"
	"Every command exits non-zero on error and writes nothing partial.\n";

/* The name a core spec gives its core (pe: NAME or mem: NAME); errors in
 * the core spec's YAML are reported at its own positions. */
static const char *core_name(const char *path, const char *key, Arena *a, Diags *d)
{
	YDoc *doc = ydoc_load_file(path, d);
	if (!doc)
		return NULL;
	const YNode *n = doc->root && doc->root->kind == YN_MAP ? ymap_get(doc->root, key) : NULL;
	const char *name = NULL;
	if (!n || n->kind != YN_SCALAR || !util_is_identifier(n->value))
		diag_error(d, path, doc->root ? doc->root->line : 1, doc->root ? doc->root->col : 1,
			   "expected '%s: <name>' in this core spec", key);
	else
		name = arena_strdup(a, n->value);
	ydoc_free(doc);
	return name;
}

/* The collateral of a core: DIR/<name>.info.yaml, which must be of that
 * core. */
static CoreInfo *load_core(const char *dir, const char *spec, const char *name, const char *key, const char *tool,
			   Diags *d)
{
	char *path = xasprintf("%s/%s.info.yaml", dir, name);
	CoreInfo *c = NULL;
	FILE *probe = fopen(path, "r");
	if (!probe)
		fprintf(stderr, "canal: no collateral for %s '%s' (%s): run bin/%s %s -o %s first "
			"(make rtl does)\n", key, name, path, tool, spec, dir);
	else {
		fclose(probe);
		c = coreinfo_load(path, d);
	}
	if (c && strcmp(c->name, name) != 0) {
		diag_error(d, path, c->line, c->col, "this collateral is of %s '%s', not of '%s' (the name in %s)",
			   key, c->name, name, spec);
		coreinfo_free(c);
		c = NULL;
	}
	free(path);
	return c;
}

/* A design built in memory: its spec, its cores and the graph. */
typedef struct Chip {
	Arena *arena;
	CanalFile *f;
	CoreInfo *pe, *mem;
	CanalGraph *g;
} Chip;

static void chip_free(Chip *c)
{
	canal_graph_free(c->g);
	coreinfo_free(c->pe);
	coreinfo_free(c->mem);
	canal_file_free(c->f);
	arena_free(c->arena);
}

/* Reads spec, the names its core specs give their cores, checks the design's
 * name against them, then reads the cores' collateral from dir and builds
 * the graph (the edits). 0 with errors in d; c holds what was read. */
static int chip_build(Chip *c, const char *spec, const char *dir, Diags *d)
{
	memset(c, 0, sizeof *c);
	c->arena = arena_new();
	c->f = canal_load(spec, d);
	if (!c->f)
		return 0;
	const CanalSpec *s = c->f->spec;
	const char *pe = core_name(s->pe_path, "pe", c->arena, d);
	const char *mem = s->has_mem ? core_name(s->mem_path, "mem", c->arena, d) : NULL;
	if (!pe || (s->has_mem && !mem) || !canal_check_names(s, pe, mem, d))
		return 0;
	c->pe = load_core(dir, s->pe_path, pe, "pe", "peak", d);
	c->mem = mem ? load_core(dir, s->mem_path, mem, "mem", "lake", d) : NULL;
	if (c->pe && (c->mem || !mem))
		c->g = canal_build(s, c->pe, c->mem, c->f, d);
	return c->g != NULL;
}

static long chip_edges(const CanalGraph *g)
{
	long edges = 0;
	for (int i = 0; i < g->nnodes; i++)
		edges += g->nodes[i].nin;
	return edges;
}

/* A registers pattern in the summary of a spec, if it has one. */
static void print_pattern(const char *join, const char *what, const CanalPattern *p)
{
	if (p->every)
		printf("%s every %d %s from %d", join, p->every, what, p->first);
}

static int check_one(const char *path, const char *cores)
{
	Diags *d = diags_new(stderr);
	Chip c;
	int ok = cores ? chip_build(&c, path, cores, d) : (memset(&c, 0, sizeof c), (c.f = canal_load(path, d)) != NULL);
	int errors = diags_errors(d);
	diags_free(d);
	if (!ok) {
		if (errors)
			fprintf(stderr, "canal: %d error%s in %s\n", errors, errors == 1 ? "" : "s", path);
		chip_free(&c);
		return 1;
	}
	const CanalSpec *s = c.f->spec;
	printf("%s: interconnect %s: %d x %d tiles and a row of IO, MEM every %d columns from %d, %d "
	       "networks, %s switch boxes%s", path, s->name, s->cols, s->rows, s->has_mem ? s->mem_cols.every : 0,
	       s->has_mem ? s->mem_cols.first : 0, s->nwidths,
	       (const char *[]){ "disjoint", "wilton", "imran" }[s->topology],
	       s->sb_registers ? " with output registers" : "");
	print_pattern("", "columns", &s->reg_cols);
	print_pattern(s->reg_cols.every ? " and" : "", "rows", &s->reg_rows);
	if (c.g)
		printf("; %d nodes, %ld edges", c.g->nnodes, chip_edges(c.g));
	printf("\n");
	chip_free(&c);
	return 0;
}

static int cmd_check(int argc, char **argv)
{
	const char *cores = NULL;
	int n = 0, bad = 0;
	for (int i = 2; i < argc; i++)
		if (strcmp(argv[i], "--cores") == 0 && i + 1 < argc)
			cores = argv[++i];
		else if (argv[i][0] == '-') {
			fprintf(stderr, "canal: unexpected argument '%s' (see canal --help)\n", argv[i]);
			return 2;
		}
	for (int i = 2; i < argc; i++) {
		if (strcmp(argv[i], "--cores") == 0) {
			i++;
			continue;
		}
		bad |= check_one(argv[i], cores);
		n++;
	}
	if (!n) {
		fputs(usage, stderr);
		return 2;
	}
	return bad;
}

/* canal info INFO...: a core's collateral as coreinfo reads it. */
static int cmd_info(int argc, char **argv)
{
	int bad = 0;
	for (int i = 2; i < argc; i++) {
		Diags *d = diags_new(stderr);
		CoreInfo *c = coreinfo_load(argv[i], d);
		int errors = diags_errors(d);
		diags_free(d);
		if (!c) {
			fprintf(stderr, "canal: %d error%s in %s\n", errors, errors == 1 ? "" : "s", argv[i]);
			bad = 1;
			continue;
		}
		printf("%s: %s %s (%s): %d inputs, %d outputs, %d configuration registers\n", argv[i],
		       c->kind == CORE_PE ? "pe" : "mem", c->name, c->verilog, c->nins, c->nouts, c->nregs);
		for (int k = 0; k < 2; k++)
			for (int j = 0; j < (k ? c->nouts : c->nins); j++) {
				const CorePort *p = k ? &c->outs[j] : &c->ins[j];
				printf("  %s %s %d\n", k ? "output" : "input", p->name, p->width);
			}
		for (int j = 0; j < c->nregs; j++)
			printf("  register %s %d feature %d index %d\n", c->regs[j].name, c->regs[j].width,
			       c->regs[j].feature, c->regs[j].index);
		coreinfo_free(c);
	}
	return bad;
}

static int cmd_cores(const char *path)
{
	Diags *d = diags_new(stderr);
	CanalFile *f = canal_load(path, d);
	diags_free(d);
	if (!f)
		return 1;
	printf("%s\n", f->spec->pe_path);
	if (f->spec->has_mem)
		printf("%s\n", f->spec->mem_path);
	canal_file_free(f);
	return 0;
}

typedef struct Outputs {
	char *graph, *map, *design, *verilog;
} Outputs;

static int write_all(const CanalGraph *g, const char *dir, Outputs *o)
{
	o->graph = util_path_join(dir, "routing.graph");
	o->map = util_path_join(dir, "config.map");
	o->design = util_path_join(dir, "design.yaml");
	o->verilog = util_path_join(dir, "cgra.v");
	CanalField *fields;
	int nfields = canal_fields(g, &fields);
	OutSet *set = outset_new();
	FILE *fg = outset_open(set, o->graph), *fm = fg ? outset_open(set, o->map) : NULL;
	/* design.yaml is the marker: make takes it for the whole chip (Makefile, rtl_out/%/design.yaml) */
	FILE *fd = fm ? outset_open_marker(set, o->design) : NULL, *fv = fd ? outset_open(set, o->verilog) : NULL;
	int status = 1;
	if (!fv) {
		outset_abort(set);
	} else {
		canal_write_graph(g, fg);
		canal_write_map(g, fields, nfields, fm);
		canal_write_design(g, fd);
		canal_verilog(g, fields, nfields, fv);
		status = outset_commit(set) == 0 ? 0 : 1;
	}
	free(fields);
	return status;
}

static int generate(const char *spec, const char *dir, int quiet)
{
	double t0 = util_now();
	Diags *d = diags_new(stderr);
	Chip c;
	int status = 1;
	Outputs o = { NULL, NULL, NULL, NULL };
	if (chip_build(&c, spec, dir, d))
		status = write_all(c.g, dir, &o);
	int errors = diags_errors(d);
	diags_free(d);
	if (!c.g && errors)
		fprintf(stderr, "canal: %d error%s; nothing written\n", errors, errors == 1 ? "" : "s");
	if (status == 0 && !quiet)
		printf("canal: %s: %d x %d tiles + IO row, %d nodes, %ld edges -> %s, %s, %s, %s in %.3f s\n",
		       c.f->spec->name, c.f->spec->cols, c.f->spec->rows, c.g->nnodes, chip_edges(c.g), o.verilog, o.graph,
		       o.map, o.design, util_now() - t0);
	free(o.graph);
	free(o.map);
	free(o.design);
	free(o.verilog);
	chip_free(&c);
	return status;
}

int main(int argc, char **argv)
{
	for (int i = 1; i < argc; i++)
		if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
			fputs(usage, stdout);
			return 0;
		}
	if (argc >= 3 && strcmp(argv[1], "check") == 0)
		return cmd_check(argc, argv);
	if (argc >= 3 && strcmp(argv[1], "info") == 0)
		return cmd_info(argc, argv);
	if (argc == 3 && strcmp(argv[1], "cores") == 0)
		return cmd_cores(argv[2]);
	const char *spec = NULL, *dir = NULL;
	int quiet = 0;
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "-o") == 0 && i + 1 < argc)
			dir = argv[++i];
		else if (strcmp(argv[i], "-q") == 0)
			quiet = 1;
		else if (argv[i][0] != '-' && !spec)
			spec = argv[i];
		else {
			fprintf(stderr, "canal: unexpected argument '%s' (see canal --help)\n", argv[i]);
			return 2;
		}
	}
	if (!spec || !dir) {
		fputs(usage, stderr);
		return 2;
	}
	if (util_mkdir_p(dir) != 0) {
		fprintf(stderr, "canal: cannot create '%s': %s\n", dir, strerror(errno));
		return 1;
	}
	return generate(spec, dir, quiet);
}
