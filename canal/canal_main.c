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
	"       canal check SPEC...\n"
	"           read and check interconnect specs (docs/interconnect.md)\n"
	"       canal cores SPEC\n"
	"           print the paths of the PE and MEM specs the design names, one per line\n"
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

/* The collateral of a core: DIR/<name>.info.yaml. */
static CoreInfo *load_core(const char *dir, const char *spec, const char *key, const char *tool, Arena *a,
			   Diags *d)
{
	const char *name = core_name(spec, key, a, d);
	if (!name)
		return NULL;
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
	free(path);
	return c;
}

static int check_one(const char *path)
{
	Diags *d = diags_new(stderr);
	CanalFile *f = canal_load(path, d);
	int errors = diags_errors(d);
	diags_free(d);
	if (!f) {
		fprintf(stderr, "canal: %d error%s in %s\n", errors, errors == 1 ? "" : "s", path);
		return 1;
	}
	const CanalSpec *s = f->spec;
	printf("%s: interconnect %s: %d x %d tiles and a row of IO, MEM every %d columns from %d, %d "
	       "networks, %s switch boxes%s\n", path, s->name, s->cols, s->rows, s->has_mem ? s->mem_every : 0,
	       s->has_mem ? s->mem_first : 0, s->nwidths,
	       (const char *[]){ "disjoint", "wilton", "imran" }[s->topology],
	       s->sb_registers ? " with output registers" : "");
	canal_file_free(f);
	return 0;
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
	FILE *fd = fm ? outset_open(set, o->design) : NULL, *fv = fd ? outset_open(set, o->verilog) : NULL;
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
	Arena *a = arena_new();
	CanalFile *f = canal_load(spec, d);
	CoreInfo *pe = f ? load_core(dir, f->spec->pe_path, "pe", "peak", a, d) : NULL;
	CoreInfo *mem = f && f->spec->has_mem ? load_core(dir, f->spec->mem_path, "mem", "lake", a, d) : NULL;
	CanalGraph *g = pe && (mem || !f->spec->has_mem) ? canal_build(f->spec, pe, mem, f, d) : NULL;
	int status = 1;
	Outputs o = { NULL, NULL, NULL, NULL };
	if (g)
		status = write_all(g, dir, &o);
	int errors = diags_errors(d);
	diags_free(d);
	if (!g && errors)
		fprintf(stderr, "canal: %d error%s; nothing written\n", errors, errors == 1 ? "" : "s");
	if (status == 0 && !quiet) {
		long edges = 0;
		for (int i = 0; i < g->nnodes; i++)
			edges += g->nodes[i].nin;
		printf("canal: %s: %d x %d tiles + IO row, %d nodes, %ld edges -> %s, %s, %s, %s in %.3f s\n",
		       f->spec->name, f->spec->cols, f->spec->rows, g->nnodes, edges, o.verilog, o.graph, o.map,
		       o.design, util_now() - t0);
	}
	free(o.graph);
	free(o.map);
	free(o.design);
	free(o.verilog);
	canal_graph_free(g);
	coreinfo_free(pe);
	coreinfo_free(mem);
	canal_file_free(f);
	arena_free(a);
	return status;
}

int main(int argc, char **argv)
{
	for (int i = 1; i < argc; i++)
		if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
			fputs(usage, stdout);
			return 0;
		}
	if (argc >= 3 && strcmp(argv[1], "check") == 0) {
		int bad = 0;
		for (int i = 2; i < argc; i++)
			bad |= check_one(argv[i]);
		return bad;
	}
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
