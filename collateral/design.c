/* design.c - the reader of a design's manifest (design.h; design.yaml's
 * format is in canal/COLLATERAL.md). It goes on after an error, so that one
 * run reports every wrong key, and checks the tiles only when the keys
 * before them are sound. */
#include "design.h"

#include <stdlib.h>
#include <string.h>

#include "../common/util.h"
#include "../common/vwrite.h"
#include "../common/yamlr.h"

typedef struct Reader {
	Design *m;
	Diags *d;
	int ok;
} Reader;

static const YNode *need(Reader *r, const YNode *map, const char *key, YNodeKind k, const char *what)
{
	const YNode *n = ymap_get(map, key);
	if (!n) {
		ynode_error(r->d, map, "missing '%s' (design.yaml, canal/COLLATERAL.md)", key);
		r->ok = 0;
		return NULL;
	}
	if (!ynode_expect(n, k, what, r->d)) {
		r->ok = 0;
		return NULL;
	}
	return n;
}

/* A module or file name: an identifier that is no Verilog keyword. */
static const char *need_name(Reader *r, const YNode *map, const char *key, const char *what)
{
	const YNode *n = need(r, map, key, YN_SCALAR, "a name");
	if (n && (!util_is_identifier(n->value) || vw_is_keyword(n->value))) {
		ynode_error(r->d, n, "'%s' is not %s (letters, digits, '_'; not a Verilog keyword)", n->value, what);
		r->ok = 0;
		return NULL;
	}
	return n ? arena_strdup(r->m->arena, n->value) : NULL;
}

/* A file of the design's folder: a plain file name. */
static const char *need_file(Reader *r, const YNode *map, const char *key)
{
	const YNode *n = need(r, map, key, YN_SCALAR, "a file name");
	if (n && (!*n->value || strchr(n->value, '/') || !strcmp(n->value, ".") || !strcmp(n->value, ".."))) {
		ynode_error(r->d, n, "'%s' is not the name of a file in the design's folder", n->value);
		r->ok = 0;
		return NULL;
	}
	return n ? arena_strdup(r->m->arena, n->value) : NULL;
}

/* A number in [1, 255] under key; 0 after an error. */
static int need_dim(Reader *r, const YNode *map, const char *key, int *out)
{
	const YNode *n = need(r, map, key, YN_SCALAR, "a number");
	if (!n || !yread_int(r->d, n, key, 1, 255, 0, out)) {
		r->ok = 0;
		return 0;
	}
	return 1;
}

static void read_core(Reader *r, const YNode *cores, const char *key, DesignCore *c, int optional)
{
	const YNode *n = ymap_get(cores, key);
	if (!n && optional)
		return;
	if (!(n = need(r, cores, key, YN_MAP, "a core: { name, info, verilog }")))
		return;
	c->name = need_name(r, n, "name", "a core's module name");
	c->info = need_file(r, n, "info");
	c->verilog = need_file(r, n, "verilog");
}

static void read_widths(Reader *r, const YNode *root)
{
	const YNode *w = need(r, root, "widths", YN_SEQ, "a list of routing widths");
	if (!w)
		return;
	if (w->len < 1 || w->len > DESIGN_MAX_WIDTHS) {
		ynode_error(r->d, w, "expected 1 to %d widths", DESIGN_MAX_WIDTHS);
		r->ok = 0;
		return;
	}
	for (int i = 0; i < w->len; i++) {
		int *wi = &r->m->widths[r->m->nwidths];
		if (!yread_int(r->d, w->items[i], "a width", 1, 64, 0, wi)) {
			r->ok = 0;
			continue;
		}
		for (int k = 0; k < r->m->nwidths; k++)
			if (r->m->widths[k] == *wi) {
				ynode_error(r->d, w->items[i], "the %d-bit network is listed twice", *wi);
				r->ok = 0;
			}
		r->m->nwidths++;
	}
}

/* tiles: one string per row, 'I', 'P' or 'M' per column. */
static void read_tiles(Reader *r, const YNode *root)
{
	Design *m = r->m;
	const YNode *t = need(r, root, "tiles", YN_SEQ, "a list of rows");
	if (!t)
		return;
	if (t->len != m->rows) {
		ynode_error(r->d, t, "expected %d rows of tiles (the IO row and the core rows)", m->rows);
		r->ok = 0;
		return;
	}
	char *kinds = arena_alloc(m->arena, (size_t)(m->rows * m->cols + 1));
	for (int y = 0; y < t->len; y++) {
		const char *row = t->items[y]->value;
		if (t->items[y]->kind != YN_SCALAR || (int)strlen(row) != m->cols || strspn(row, "IPM") != strlen(row)) {
			ynode_error(r->d, t->items[y], "expected %d tiles, each I, P or M", m->cols);
			r->ok = 0;
			return;
		}
		/* the IO row on the north edge (row 0), cores below it */
		const char *allowed = y == 0 ? "I" : m->mem.name ? "PM" : "P";
		if (strspn(row, allowed) != strlen(row)) {
			ynode_error(r->d, t->items[y], y == 0 ? "row 0 is the row of IO tiles: expected %d I's"
				    : m->mem.name ? "a row of cores: expected %d tiles, each P or M"
				    : "a row of cores: expected %d P's (the design has no memory core)", m->cols);
			r->ok = 0;
			return;
		}
		memcpy(kinds + y * m->cols, row, (size_t)m->cols);
	}
	m->tiles = kinds;
}

static void read_manifest(Reader *r, const YDoc *doc)
{
	Design *m = r->m;
	const YNode *root = doc->root, *array, *cores, *files;
	if (!root || root->kind != YN_MAP) {
		diag_error(r->d, doc->file, 1, 1, "expected a design manifest (canal/COLLATERAL.md)");
		r->ok = 0;
		return;
	}
	m->name = need_name(r, root, "design", "a design name");
	if ((array = need(r, root, "array", YN_MAP, "the array: { cols, rows }")) && need_dim(r, array, "cols", &m->cols))
		need_dim(r, array, "rows", &m->rows);
	m->rows++;
	const YNode *io = ymap_get(root, "io");
	if (io && (io->kind != YN_SCALAR || strcmp(io->value, "north") != 0)) {
		ynode_error(r->d, io, "expected 'io: north' (IO tiles sit on the north edge)");
		r->ok = 0;
	}
	read_widths(r, root);
	if ((cores = need(r, root, "cores", YN_MAP, "the cores: { pe, mem }"))) {
		read_core(r, cores, "pe", &m->pe, 0);
		read_core(r, cores, "mem", &m->mem, 1);
	}
	if (r->ok)
		read_tiles(r, root);
	if ((files = need(r, root, "files", YN_MAP, "the files: { verilog, graph, config }"))) {
		m->verilog = need_file(r, files, "verilog");
		m->graph_file = need_file(r, files, "graph");
		m->config_file = need_file(r, files, "config");
	}
}

/* DIR/design.yaml, or text (named so) when it is not NULL. */
static Design *load(const char *dir, const char *text, int *loaded, Diags *d)
{
	Arena *a = arena_new();
	Reader r = { arena_alloc(a, sizeof(Design)), d, 1 };
	r.m->arena = a;
	r.m->dir = arena_strdup(a, dir);
	const char *path = design_path(r.m, "design.yaml");
	YDoc *doc = text ? ydoc_load_string(path, text, d) : ydoc_load_file(path, d);
	if (loaded)
		*loaded = doc != NULL;
	if (!doc)
		r.ok = 0;
	else
		read_manifest(&r, doc);
	ydoc_free(doc);
	if (!r.ok) {
		design_free(r.m);
		return NULL;
	}
	return r.m;
}

Design *design_load(const char *dir, int *loaded, Diags *d)
{
	return load(dir, NULL, loaded, d);
}

Design *design_load_string(const char *dir, const char *text, int *loaded, Diags *d)
{
	return load(dir, text, loaded, d);
}

void design_free(Design *m)
{
	if (m)
		arena_free(m->arena);
}

char design_tile(const Design *m, int x, int y)
{
	return m->tiles[y * m->cols + x];
}

const char *design_path(const Design *m, const char *name)
{
	char *p = util_path_join(m->dir, name);
	const char *s = arena_strdup(m->arena, p);
	free(p);
	return s;
}
