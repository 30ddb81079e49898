/* canal_spec.c - reading and checking interconnect specs
 * (docs/interconnect.md). Every error is reported at its position and the
 * reader goes on, so one run shows every error of a file. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../common/strmap.h"
#include "../common/util.h"
#include "../common/vwrite.h"
#include "canal.h"

typedef struct Reader {
	CanalFile *f;
	CanalSpec *s;
	Arena *arena;
	Diags *d;
	const YNode *cb_nodes[CANAL_MAX_TRACKS];     /* where each of s->cb_tracks stands */
} Reader;

/* ---- patterns of columns and rows ---- */

/* How a pattern is read: its key (columns or rows, which messages use as the
 * plural), its noun in messages, whether it picks rows, the default of
 * every, and whether first must be below every (a registers pattern names
 * each phase once; MEM columns may start anywhere in the array). */
typedef struct PatternKind {
	const char *key, *noun;
	int rows;
	int every;
	int first_below_every;
} PatternKind;

/* A pattern { every, first } of the array's columns or of its rows of tiles
 * (row 0 the IO row): every 1 to 255, first 0 to 255 (or below every) and a
 * column or row of the array, each error at its value. */
static void read_pattern(Reader *r, const YNode *n, const PatternKind *k, CanalPattern *p)
{
	static const char *const keys[] = { "every", "first", NULL };
	const CanalSpec *s = r->s;
	int size = k->rows ? s->rows : s->cols, last = k->rows ? s->rows : s->cols - 1;
	if (!ynode_expect(n, YN_MAP, arena_printf(r->arena, "%s: { every, first }", k->key), r->d))
		return;
	ymap_check_keys(n, keys, k->key, r->d);
	const YNode *first = ymap_get(n, "first");
	p->every = k->every;   /* kept when every is wrong, so that nothing divides by 0 */
	int every_ok = yread_int(r->d, ymap_get(n, "every"), "every", 1, CANAL_MAX_DIM, k->every, &p->every);
	if (!yread_int(r->d, first, "first", 0, CANAL_MAX_DIM, 0, &p->first))
		return;
	if (k->first_below_every && every_ok && p->first >= p->every)
		ynode_error(r->d, first, "first %d is out of range (0 to %d, below every)", p->first, p->every - 1);
	else if (size > 0 && p->first > last)
		ynode_error(r->d, first ? first : n, "%s %d is outside the array (%s 0 to %d)", k->noun, p->first,
			    k->key, last);
}

/* ---- cores ---- */

/* A core spec path, relative to the folder of the interconnect spec; the
 * file must exist (its collateral is what Canal reads, but a design names
 * its cores by their specs). */
static const char *read_core_spec(Reader *r, const YNode *core, const char *what, const char **path,
				  int *line, int *col)
{
	const YNode *n = ymap_get(core, "spec");
	if (!n || n->kind != YN_SCALAR) {
		ynode_error(r->d, n ? n : core, "the %s core needs 'spec: <path to its spec>'", what);
		return NULL;
	}
	const char *slash = strrchr(r->s->file, '/');
	*path = n->value[0] == '/' || !slash
		? arena_strdup(r->arena, n->value)
		: arena_printf(r->arena, "%.*s/%s", (int)(slash - r->s->file), r->s->file, n->value);
	*line = n->line;
	*col = n->col;
	if (access(*path, R_OK) != 0) {
		ynode_error(r->d, n, "cannot read the %s spec '%s'", what, *path);
		return NULL;
	}
	return arena_strdup(r->arena, n->value);
}

static void read_cores(Reader *r, const YNode *n)
{
	static const char *const keys[] = { "pe", "mem", NULL };
	static const char *const mem_keys[] = { "spec", "columns", NULL };
	static const PatternKind mem_columns = { "columns", "MEM column", 0, 4, 0 };
	CanalSpec *s = r->s;
	if (!ynode_expect(n, YN_MAP, "cores { pe: { spec }, mem: { spec, columns } }", r->d))
		return;
	ymap_check_keys(n, keys, "cores", r->d);
	const YNode *pe = ymap_get(n, "pe"), *mem = ymap_get(n, "mem");
	if (!pe)
		ynode_error(r->d, n, "missing the 'pe' core");
	else if (ynode_expect(pe, YN_MAP, "pe: { spec }", r->d))
		s->pe_spec = read_core_spec(r, pe, "PE", &s->pe_path, &s->pe_line, &s->pe_col);
	if (!mem || !ynode_expect(mem, YN_MAP, "mem: { spec, columns: { every, first } }", r->d))
		return;
	ymap_check_keys(mem, mem_keys, "the mem core", r->d);
	s->has_mem = 1;
	s->mem_spec = read_core_spec(r, mem, "MEM", &s->mem_path, &s->mem_line, &s->mem_col);
	const YNode *cols = ymap_get(mem, "columns");
	if (!cols) {
		ynode_error(r->d, mem, "the mem core needs 'columns: { every, first }'");
		return;
	}
	read_pattern(r, cols, &mem_columns, &s->mem_cols);
}

/* ---- routing ---- */

static void read_tracks(Reader *r, const YNode *n)
{
	CanalSpec *s = r->s;
	if (!ynode_expect(n, YN_MAP, "tracks { <bit width>: <tracks per direction> }", r->d))
		return;
	if (n->len == 0 || n->len > CANAL_MAX_WIDTHS) {
		ynode_error(r->d, n, "1 to %d routing widths", CANAL_MAX_WIDTHS);
		return;
	}
	for (int i = 0; i < n->len; i++) {
		int w, t;
		if (!yread_int(r->d, n->keys[i], "a routing width in bits", 1, 64, 1, &w) ||
		    !yread_int(r->d, n->vals[i], "tracks", 1, CANAL_MAX_TRACKS, 1, &t))
			continue;
		for (int k = 0; k < s->nwidths; k++)
			if (s->width[k] == w)
				ynode_error(r->d, n->keys[i], "the %d-bit network is given twice", w);
		s->width[s->nwidths] = w;
		s->tracks[s->nwidths++] = t;
	}
}

/* The array times its tracks within CANAL_MAX_TRACK_TILES: the graph, the
 * Verilog and the collateral grow with it. */
static void check_size(Reader *r, const YNode *n)
{
	const CanalSpec *s = r->s;
	long tracks = 0, tiles = (long)s->cols * (s->rows + 1);
	for (int i = 0; i < s->nwidths; i++)
		tracks += s->tracks[i];
	if (tiles * tracks > CANAL_MAX_TRACK_TILES)
		ynode_error(r->d, n, "%d x %d tiles (and the IO row) with %ld tracks per direction in all is too large an "
			    "interconnect: tiles times tracks may be at most %d (docs/interconnect.md, \"Limits\"), here "
			    "%ld", s->cols, s->rows, tracks, CANAL_MAX_TRACK_TILES, tiles * tracks);
}

static void read_cb(Reader *r, const YNode *n)
{
	static const char *const keys[] = { "tracks", NULL };
	CanalSpec *s = r->s;
	s->cb_all = 1;
	if (!ynode_expect(n, YN_MAP, "connection_box { tracks: all | [ ... ] }", r->d))
		return;
	ymap_check_keys(n, keys, "connection_box", r->d);
	const YNode *t = ymap_get(n, "tracks");
	if (!t || (t->kind == YN_SCALAR && strcmp(t->value, "all") == 0))
		return;
	if (!ynode_expect(t, YN_SEQ, "'all' or a list of track numbers", r->d))
		return;
	if (t->len == 0 || t->len > CANAL_MAX_TRACKS) {
		ynode_error(r->d, t, "a connection box needs 1 to %d tracks", CANAL_MAX_TRACKS);
		return;
	}
	s->cb_all = 0;
	for (int i = 0; i < t->len; i++) {
		int *k = &s->cb_tracks[s->ncb_tracks];
		if (!yread_int(r->d, t->items[i], "a track", 0, CANAL_MAX_TRACKS - 1, 0, k))
			continue;
		int twice = 0;
		for (int j = 0; j < s->ncb_tracks && !twice; j++)
			twice = s->cb_tracks[j] == *k;
		if (twice)
			ynode_error(r->d, t->items[i], "track %d is listed twice: a connection box takes each track once",
				    *k);
		else
			r->cb_nodes[s->ncb_tracks++] = t->items[i];
	}
}

/* Connection-box tracks must exist at every width. */
static void check_cb_tracks(Reader *r)
{
	const CanalSpec *s = r->s;
	for (int i = 0; !s->cb_all && i < s->ncb_tracks; i++)
		for (int k = 0; k < s->nwidths; k++)
			if (s->cb_tracks[i] >= s->tracks[k]) {
				ynode_error(r->d, r->cb_nodes[i],
					   "track %d does not exist on the %d-bit network (%d tracks)", s->cb_tracks[i],
					   s->width[k], s->tracks[k]);
				break;
			}
}

static void read_edits(Reader *r, const YNode *n)
{
	CanalSpec *s = r->s;
	if (!ynode_expect(n, YN_SEQ, "a list of { add: [FROM, TO] } or { remove: [FROM, TO] }", r->d))
		return;
	s->edits = arena_alloc(r->arena, (size_t)(n->len + 1) * sizeof(CanalEdit));
	StrMap seen;            /* "add FROM TO" -> its edit */
	strmap_init(&seen);
	for (int i = 0; i < n->len; i++) {
		const YNode *e = n->items[i];
		const YNode *pair = e->kind == YN_MAP && e->len == 1 ? e->vals[0] : NULL;
		const char *op = pair ? e->keys[0]->value : "";
		if (!pair || (strcmp(op, "add") != 0 && strcmp(op, "remove") != 0) || pair->kind != YN_SEQ ||
		    pair->len != 2 || pair->items[0]->kind != YN_SCALAR || pair->items[1]->kind != YN_SCALAR) {
			ynode_error(r->d, e, "an edit is { add: [FROM, TO] } or { remove: [FROM, TO] } with node names");
			continue;
		}
		CanalEdit ed = { strcmp(op, "add") == 0, arena_strdup(r->arena, pair->items[0]->value),
				 arena_strdup(r->arena, pair->items[1]->value), e->line, e->col };
		/* the same edit twice (removing and adding an edge moves it to its node's last select) */
		char *key = xasprintf("%s %s %s", op, ed.from, ed.to);
		intptr_t first;
		if (strmap_get(&seen, key, &first))
			ynode_error(r->d, e, "this edit repeats the one at line %d: %s %s -> %s once is enough",
				    s->edits[first].line, op, ed.from, ed.to);
		else {
			strmap_put(&seen, key, s->nedits);
			s->edits[s->nedits++] = ed;
		}
		free(key);
	}
	strmap_free(&seen);
}

/* ---- registers ---- */

/* registers: { switchbox_outputs, columns, rows }. The patterns pick the
 * tiles whose switch-box outputs get registers, so they need those on. */
static void read_registers(Reader *r, const YNode *n)
{
	static const char *const keys[] = { "switchbox_outputs", "columns", "rows", NULL };
	static const PatternKind kinds[] = { { "columns", "register column", 0, 1, 1 },
					     { "rows", "register row", 1, 1, 1 } };
	CanalSpec *s = r->s;
	CanalPattern *pattern[] = { &s->reg_cols, &s->reg_rows };
	if (!ynode_expect(n, YN_MAP, "registers { switchbox_outputs, columns, rows }", r->d))
		return;
	ymap_check_keys(n, keys, "registers", r->d);
	int known = yread_bool(r->d, ymap_get(n, "switchbox_outputs"), "switchbox_outputs", &s->sb_registers);
	for (int i = 0; i < 2; i++) {
		const YNode *p = ymap_get(n, kinds[i].key);
		if (!p)
			continue;
		if (known && !s->sb_registers)
			ynode_error(r->d, p, "'%s' needs 'switchbox_outputs: true': it picks the tiles whose switch-box "
				    "outputs have registers", kinds[i].key);
		read_pattern(r, p, &kinds[i], pattern[i]);
	}
}

/* ---- module names ---- */

static const char *const tile_kinds[] = { "io", "pe", "mem" };

/* 1 if name is one of the modules cgra.v defines for design d:
 * d, d_<kind>_tile, d_<kind>_ic, d_<kind>_tile_<N>, d_<kind>_ic_<N>. */
static int design_module(const char *d, const char *name)
{
	size_t n = strlen(d);
	if (strncmp(name, d, n) != 0)
		return 0;
	const char *p = name + n;
	if (!*p)
		return 1;
	for (int k = 0; k < 3; k++) {
		size_t kl = strlen(tile_kinds[k]);
		if (p[0] != '_' || strncmp(p + 1, tile_kinds[k], kl) != 0 || p[1 + kl] != '_')
			continue;
		const char *q = p + 2 + kl;
		q += strncmp(q, "tile", 4) == 0 ? 4 : strncmp(q, "ic", 2) == 0 ? 2 : 0;
		if (q == p + 2 + kl)
			return 0;
		if (*q == '_' && q[1] >= '1' && q[1] <= '9')
			for (q++; *q >= '0' && *q <= '9'; q++)
				;
		return *q == '\0';
	}
	return 0;
}

/* 1 if name is a memory's module: mem itself or mem_* (lake's helpers). */
static int mem_module(const char *mem, const char *name)
{
	size_t n = strlen(mem);
	return strncmp(name, mem, n) == 0 && (name[n] == '\0' || name[n] == '_');
}

int canal_check_names(const CanalSpec *s, const char *pe, const char *mem, Diags *d)
{
	const char *dn = s->name;
	int ok = 1;
	if (strcmp(dn, pe) == 0) {
		diag_error(d, s->file, s->name_line, s->name_col, "'%s' cannot name the design: it is the name of the "
			   "PE's module (the design becomes the top module)", dn);
		ok = 0;
	} else if (design_module(dn, pe)) {
		diag_error(d, s->file, s->name_line, s->name_col, "'%s' cannot name the design: its module '%s' "
			   "would clash with the PE's module of that name", dn, pe);
		ok = 0;
	}
	if (mem && mem_module(mem, dn)) {
		diag_error(d, s->file, s->name_line, s->name_col, "'%s' cannot name the design: its top module "
			   "would clash with the modules of memory '%s' (%s and %s_*)", dn, mem, mem, mem);
		ok = 0;
	} else if (mem) {
		/* the design's other modules against the memory's, either way round */
		char *clash = design_module(dn, mem) ? xstrdup(mem) : NULL;
		for (int k = 0; k < 3 && !clash; k++)
			for (int t = 0; t < 2 && !clash; t++) {
				char *m = xasprintf("%s_%s_%s", dn, tile_kinds[k], t ? "ic" : "tile");
				if (mem_module(mem, m))
					clash = m;
				else
					free(m);
			}
		if (clash) {
			diag_error(d, s->file, s->name_line, s->name_col, "'%s' cannot name the design: its module '%s' "
				   "would clash with the modules of memory '%s' (%s and %s_*)", dn, clash, mem, mem, mem);
			ok = 0;
		}
		free(clash);
	}
	if (mem && mem_module(mem, pe)) {
		diag_error(d, s->file, s->pe_line, s->pe_col, "the PE's module '%s' would clash with the modules of "
			   "memory '%s' (%s and %s_*)", pe, mem, mem, mem);
		ok = 0;
	}
	return ok;
}

/* ---- the file ---- */

static void read_array(Reader *r, const YNode *n)
{
	static const char *const keys[] = { "cols", "rows", NULL };
	if (!ynode_expect(n, YN_MAP, "array { cols, rows }", r->d))
		return;
	ymap_check_keys(n, keys, "array", r->d);
	const YNode *c = ymap_get(n, "cols"), *w = ymap_get(n, "rows");
	if (!c || !w) {
		ynode_error(r->d, n, "the array needs 'cols' and 'rows'");
		return;
	}
	/* a 2x2 array is the smallest with a neighbour in each direction */
	yread_int(r->d, c, "cols", 2, CANAL_MAX_DIM, 2, &r->s->cols);
	yread_int(r->d, w, "rows", 2, CANAL_MAX_DIM - 1, 2, &r->s->rows);
}

static void read_io(Reader *r, const YNode *n)
{
	static const char *const keys[] = { "side", NULL };
	static const char *const sides[] = { "north", NULL };
	if (!ynode_expect(n, YN_MAP, "io { side: north }", r->d))
		return;
	ymap_check_keys(n, keys, "io", r->d);
	if (ymap_get(n, "side"))
		yread_choice(r->d, ymap_get(n, "side"), "the IO side (IO tiles sit on the north edge)", sides);
}

static void read_root(void *ctx, const YNode *root)
{
	static const char *const keys[] = { "interconnect", "array", "cores", "io", "tracks", "switchbox",
					    "connection_box", "registers", "edits", NULL };
	static const char *const topologies[] = { "disjoint", "wilton", "imran", NULL };
	Reader *r = ctx;
	CanalSpec *s = r->s;
	ymap_check_keys(root, keys, "an interconnect spec", r->d);
	for (int i = 0; i < 5; i++)
		if (!ymap_get(root, keys[i]))
			ynode_error(r->d, root, "missing '%s'", keys[i]);
	const YNode *n = ymap_get(root, "interconnect");
	if (n && (n->kind != YN_SCALAR || !util_is_identifier(n->value)))
		ynode_error(r->d, n, "expected a design name (letters, digits, '_')");
	else if (n && vw_is_keyword(n->value))
		ynode_error(r->d, n, "'%s' cannot name a design: it is a Verilog keyword (the design becomes the top "
			    "module)", n->value);
	else if (n) {
		s->name = arena_strdup(r->arena, n->value);
		s->name_line = n->line;
		s->name_col = n->col;
	}
	if ((n = ymap_get(root, "array")))
		read_array(r, n);
	if ((n = ymap_get(root, "cores")))
		read_cores(r, n);
	if ((n = ymap_get(root, "io")))
		read_io(r, n);
	if ((n = ymap_get(root, "tracks"))) {
		read_tracks(r, n);
		check_size(r, n);
	}
	s->topology = SB_IMRAN;
	if ((n = ymap_get(root, "switchbox")))
		s->topology = (CanalTopology)yread_choice(r->d, n, "the switch box", topologies);
	s->cb_all = 1;
	if ((n = ymap_get(root, "connection_box"))) {
		read_cb(r, n);
		check_cb_tracks(r);
	}
	if ((n = ymap_get(root, "registers")))
		read_registers(r, n);
	if ((n = ymap_get(root, "edits")))
		read_edits(r, n);
}

static CanalFile *load(const char *path, const char *text, Diags *d)
{
	CanalFile *f = xcalloc(1, sizeof *f);
	f->arena = arena_new();
	f->spec = arena_alloc(f->arena, sizeof(CanalSpec));
	f->spec->file = arena_strdup(f->arena, path);
	Reader r = { f, f->spec, f->arena, d, { 0 } };
	if (!ydoc_read(path, text, NULL, "an interconnect spec (docs/interconnect.md)", read_root, &r, &f->doc, d)) {
		canal_file_free(f);
		return NULL;
	}
	return f;
}

CanalFile *canal_load(const char *path, Diags *d)
{
	return load(path, NULL, d);
}

CanalFile *canal_load_string(const char *name, const char *text, Diags *d)
{
	return load(name, text, d);
}

void canal_file_free(CanalFile *f)
{
	if (!f)
		return;
	ydoc_free(f->doc);
	arena_free(f->arena);
	free(f);
}
