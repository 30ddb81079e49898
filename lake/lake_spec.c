/* lake_spec.c - reads and checks Lake memory specs (see lake.h). Every check
 * reports with the position of the offending YAML node and reading goes on,
 * so one run shows every error of a file. */
#include <stdlib.h>
#include <string.h>

#include "../common/strmap.h"
#include "../common/vwrite.h"
#include "lake.h"

typedef struct Reader {
	LakeFile *f;
	LakeSpec *s;
	Arena *arena;
	Diags *d;
} Reader;


static const char *read_name_plain(Reader *r, const YNode *n, const char *what);

/* Names the generated Verilog uses at the top level of a tile (see
 * lake_verilog.c): units and tile ports may not take them. */
static int is_reserved(const char *name)
{
	static const char *const names[] = { "clk", "rst", "flush", "cycle", "run", "unused_ok", "tile_en",
					     "chain_id", "config_addr", "config_data", "config_wr", NULL };
	for (int i = 0; names[i]; i++)
		if (strcmp(name, names[i]) == 0)
			return 1;
	if (strncmp(name, "cfg_", 4) == 0 || strncmp(name, "config_", 7) == 0 || strcmp(name, "lookup") == 0 ||
	    strncmp(name, "lookup_", 7) == 0)
		return 1;
	return name[0] == 'e' && name[1] >= '0' && name[1] <= '9';
}

static const char *read_top_name(Reader *r, const YNode *n, const char *what)
{
	const char *name = read_name_plain(r, n, what);
	if (name && is_reserved(name)) {
		ynode_error(r->d, n, "'%s' cannot name a %s: the generated Verilog uses it (reserved: clk, "
			    "rst, flush, cycle, run, tile_en, chain_id, lookup_*, config_*, cfg_*, e<N>...)", name, what);
		return NULL;
	}
	return name;
}

/* A name for a hardware object: an identifier that Verilog accepts. */
static const char *read_name_plain(Reader *r, const YNode *n, const char *what)
{
	if (n->kind != YN_SCALAR || !util_is_identifier(n->value) || strlen(n->value) > 200) {
		ynode_error(r->d, n, "expected a %s name (letters, digits, '_', at most 200)", what);
		return NULL;
	}
	if (vw_is_keyword(n->value)) {
		ynode_error(r->d, n, "'%s' cannot name a %s: it is a Verilog keyword", n->value, what);
		return NULL;
	}
	return arena_strdup(r->arena, n->value);
}

static int read_int(Reader *r, const YNode *n, const char *what, long lo, long hi, long dflt,
		    int *out)
{
	return yread_int(r->d, n, what, lo, hi, dflt, out);
}

static int read_bool(Reader *r, const YNode *n, const char *what, int *out)
{
	return yread_bool(r->d, n, what, out);
}

static int read_choice(Reader *r, const YNode *n, const char *what, const char *const *words)
{
	return yread_choice(r->d, n, what, words);
}

/* ---- storage ---- */

/* { name, op, width, latency, ii } of one storage port. */
static int read_port(Reader *r, LakeUnit *u, const YNode *n, LakePort *p)
{
	static const char *const keys[] = { "name", "op", "width", "latency", "ii", NULL };
	static const char *const ops[] = { "read", "write", "readwrite", NULL };
	if (!ynode_expect(n, YN_MAP, "a port { name, op, width, latency, ii }", r->d))
		return 0;
	ymap_check_keys(n, keys, "a storage port", r->d);
	const YNode *name = ymap_get(n, "name"), *op = ymap_get(n, "op");
	if (!name || !op) {
		ynode_error(r->d, n, "a storage port needs a name and an op");
		return 0;
	}
	p->line = n->line;
	p->col = n->col;
	p->name = read_name_plain(r, name, "port");
	int k = read_choice(r, op, "a port's op", ops);
	p->op = (LakeOp)(k + 1);
	int ok = p->name && k >= 0;
	ok &= read_int(r, ymap_get(n, "width"), "the port width", 1, u->fetch, u->fetch, &p->width);
	ok &= read_int(r, ymap_get(n, "latency"), "the latency", 0, MEM_MAX_LATENCY, u->kind == LAKE_SRAM ? 1 : 0,
		       &p->latency);
	ok &= read_int(r, ymap_get(n, "ii"), "the initiation interval", 1, MEM_MAX_II, 1, &p->ii);
	if (ok && u->fetch % p->width != 0) {
		ynode_error(r->d, ymap_get(n, "width"), "port width %d does not divide the fetch width %d",
			   p->width, u->fetch);
		ok = 0;
	}
	return ok;
}

static void read_ports_of(Reader *r, LakeUnit *u, const YNode *list)
{
	if (!ynode_expect(list, YN_SEQ, "a list of ports", r->d))
		return;
	if (list->len == 0) {
		ynode_error(r->d, list, "a storage unit needs at least one port");
		return;
	}
	u->ports = arena_alloc(r->arena, (size_t)list->len * sizeof(LakePort));
	for (int i = 0; i < list->len; i++) {
		LakePort *p = &u->ports[u->nports];
		if (!read_port(r, u, list->items[i], p))
			continue;
		for (int j = 0; j < u->nports; j++)
			if (strcmp(u->ports[j].name, p->name) == 0)
				ynode_error(r->d, ymap_get(list->items[i], "name"),
					   "duplicate port '%s' in '%s'", p->name, u->name);
		u->nports++;
	}
}

static void read_unit(Reader *r, const YNode *key, const YNode *n, LakeUnit *u)
{
	static const char *const keys[] = { "kind", "words", "fetch", "ports", NULL };
	static const char *const kinds[] = { "sram", "regfile", NULL };
	u->name = read_top_name(r, key, "storage unit");
	u->line = key->line;
	u->col = key->col;
	if (!ynode_expect(n, YN_MAP, "a storage unit { kind, words, fetch, ports }", r->d))
		return;
	ymap_check_keys(n, keys, "a storage unit", r->d);
	const YNode *kind = ymap_get(n, "kind");
	int k = kind ? read_choice(r, kind, "kind", kinds) : (ynode_error(r->d, n, "missing 'kind'"), -1);
	u->kind = k == 1 ? LAKE_REGFILE : LAKE_SRAM;
	if (!ymap_get(n, "words"))
		ynode_error(r->d, n, "missing 'words' (the capacity)");
	if (!read_int(r, ymap_get(n, "words"), "words", 1, MEM_MAX_WORDS, 1, &u->words) ||
	    !read_int(r, ymap_get(n, "fetch"), "fetch", 1, MEM_MAX_FETCH, 1, &u->fetch))
		return;
	if (u->words % u->fetch != 0) {
		ynode_error(r->d, ymap_get(n, "fetch"), "fetch width %d does not divide the %d words of '%s'",
			   u->fetch, u->words, u->name ? u->name : "?");
		return;
	}
	if ((u->words & (u->words - 1)) != 0 || (u->fetch & (u->fetch - 1)) != 0) {
		int w = (u->words & (u->words - 1)) != 0;
		ynode_error(r->d, ymap_get(n, w ? "words" : "fetch"),
			   "%s %d is not a power of two (rows and slots are decoded from address bits)",
			   w ? "words" : "fetch", w ? u->words : u->fetch);
		return;
	}
	if (!ymap_get(n, "ports")) {
		ynode_error(r->d, n, "missing 'ports'");
		return;
	}
	read_ports_of(r, u, ymap_get(n, "ports"));
}

static void read_storage(Reader *r, const YNode *map)
{
	LakeSpec *s = r->s;
	if (!ynode_expect(map, YN_MAP, "a mapping of storage unit names to units", r->d))
		return;
	if (map->len == 0) {
		ynode_error(r->d, map, "a memory needs at least one storage unit");
		return;
	}
	s->units = arena_alloc(r->arena, (size_t)map->len * sizeof(LakeUnit));
	for (int i = 0; i < map->len; i++)
		read_unit(r, map->keys[i], map->vals[i], &s->units[s->nunits++]);
}

/* ---- the tile's ports ---- */

static int name_taken(const LakeSpec *s, const char *name)
{
	for (int i = 0; i < s->nunits; i++)
		if (s->units[i].name && strcmp(s->units[i].name, name) == 0)
			return 1;
	for (int i = 0; i < s->nins; i++)
		if (strcmp(s->ins[i], name) == 0)
			return 1;
	for (int i = 0; i < s->nouts; i++)
		if (strcmp(s->outs[i], name) == 0)
			return 1;
	return 0;
}

static void read_tile_ports(Reader *r, const YNode *list, const char ***names, int *n,
			    const char *what)
{
	if (!list) {
		ynode_error(r->d, ymap_get(r->f->doc->root, "ports"), "missing '%s' ports", what);
		return;
	}
	if (!ynode_expect(list, YN_SEQ, "a list of port names", r->d))
		return;
	if (list->len == 0) {
		ynode_error(r->d, list, "a memory needs at least one %s port", what);
		return;
	}
	*names = arena_alloc(r->arena, (size_t)list->len * sizeof(char *));
	for (int i = 0; i < list->len; i++) {
		const char *name = read_top_name(r, list->items[i], "port");
		if (!name)
			continue;
		if (name_taken(r->s, name)) {
			ynode_error(r->d, list->items[i], "'%s' already names a port or storage unit", name);
			continue;
		}
		(*names)[(*n)++] = name;
	}
}

/* ---- edges ---- */

/* Finds an edge end: a tile port name or "unit.port". */
static int find_end(Reader *r, const YNode *n, LakeEnd *e)
{
	const LakeSpec *s = r->s;
	const char *text = n->kind == YN_SCALAR ? n->value : "";
	const char *dot = strchr(text, '.');
	if (!dot) {
		for (int i = 0; i < s->nins; i++)
			if (strcmp(s->ins[i], text) == 0)
				return *e = (LakeEnd){ LAKE_TILE_IN, i }, 1;
		for (int i = 0; i < s->nouts; i++)
			if (strcmp(s->outs[i], text) == 0)
				return *e = (LakeEnd){ LAKE_TILE_OUT, i }, 1;
		ynode_error(r->d, n, "unknown port '%s' (a tile port, or unit.port)", text);
		return 0;
	}
	for (int u = 0; u < s->nunits; u++) {
		const LakeUnit *unit = &s->units[u];
		if (!unit->name || strncmp(unit->name, text, (size_t)(dot - text)) != 0 ||
		    unit->name[dot - text])
			continue;
		for (int p = 0; p < unit->nports; p++)
			if (strcmp(unit->ports[p].name, dot + 1) == 0)
				return *e = (LakeEnd){ u, p }, 1;
		ynode_error(r->d, n, "storage unit '%s' has no port '%s'", unit->name, dot + 1);
		return 0;
	}
	ynode_error(r->d, n, "unknown storage unit '%.*s'", (int)(dot - text), text);
	return 0;
}

/* Words per transfer at an edge end: tile ports carry one word. */
static int end_width(const LakeSpec *s, LakeEnd e)
{
	return e.unit >= 0 ? s->units[e.unit].ports[e.port].width : 1;
}

/* Data flows out of tile inputs and readable ports, into tile outputs and
 * writable ports. */
static int check_direction(Reader *r, const YNode *n, LakeEnd e, int is_src)
{
	const char *name = lake_end_name(r->f, e);
	if (e.unit == (is_src ? LAKE_TILE_OUT : LAKE_TILE_IN)) {
		ynode_error(r->d, n, "'%s' is a tile %s port and cannot be an edge's %s", name,
			   is_src ? "output" : "input", is_src ? "source" : "destination");
		return 0;
	}
	if (e.unit >= 0 && !(r->s->units[e.unit].ports[e.port].op & (is_src ? LAKE_READ : LAKE_WRITE))) {
		ynode_error(r->d, n, "'%s' is a %s port and cannot be an edge's %s", name,
			   is_src ? "write" : "read", is_src ? "source" : "destination");
		return 0;
	}
	return 1;
}

static int same_end(LakeEnd a, LakeEnd b)
{
	return a.unit == b.unit && a.port == b.port;
}

static void read_edge(Reader *r, const YNode *n)
{
	LakeSpec *s = r->s;
	if (n->kind != YN_SEQ || n->len != 2) {
		ynode_error(r->d, n, "an edge is a pair [ source, destination ]");
		return;
	}
	LakeEdge e = { { 0, 0 }, { 0, 0 }, n->line, n->col };
	if (!find_end(r, n->items[0], &e.src) | !find_end(r, n->items[1], &e.dst))
		return;
	if (!check_direction(r, n->items[0], e.src, 1) | !check_direction(r, n->items[1], e.dst, 0))
		return;
	if (e.src.unit < 0 && e.dst.unit < 0) {
		ynode_error(r->d, n, "an edge from a tile input straight to a tile output has no storage "
			    "to control; it belongs in the interconnect");
		return;
	}
	if (e.src.unit >= 0 && e.src.unit == e.dst.unit) {
		ynode_error(r->d, n, "an edge from '%s' to itself", s->units[e.src.unit].name);
		return;
	}
	int ws = end_width(s, e.src), wd = end_width(s, e.dst);
	if (ws != wd) {
		ynode_error(r->d, n->items[1], "port widths differ across the edge: '%s' moves %d word%s, '%s' %d",
			   lake_end_name(r->f, e.src), ws, ws == 1 ? "" : "s",
			   lake_end_name(r->f, e.dst), wd);
		return;
	}
	for (int i = 0; i < s->nedges; i++)
		if (same_end(s->edges[i].src, e.src) && same_end(s->edges[i].dst, e.dst)) {
			ynode_error(r->d, n, "duplicate edge (first at line %d)", s->edges[i].line);
			return;
		}
	s->edges[s->nedges++] = e;
}

/* Does the table look-up use this end (its port, input or output)? */
static int lookup_uses(const LakeSpec *s, LakeEnd e)
{
	const LakeLookup *lk = &s->lookup;
	return lk->present && (same_end(lk->port, e) || same_end((LakeEnd){ LAKE_TILE_IN, lk->in }, e) ||
			       same_end((LakeEnd){ LAKE_TILE_OUT, lk->out }, e));
}

/* Every port of the tile and of every storage unit takes part in an edge or
 * in the table look-up. */
static void check_connected(Reader *r, const YNode *edges)
{
	const LakeSpec *s = r->s;
	for (int u = -2; u < s->nunits; u++) {
		int n = u == LAKE_TILE_IN ? s->nins : u == LAKE_TILE_OUT ? s->nouts : s->units[u].nports;
		for (int p = 0; p < n; p++) {
			LakeEnd e = { u, p };
			int used = lookup_uses(s, e);
			for (int i = 0; i < s->nedges && !used; i++)
				used = same_end(s->edges[i].src, e) || same_end(s->edges[i].dst, e);
			if (!used)
				ynode_error(r->d, edges, "port '%s' is on no edge", lake_end_name(r->f, e));
		}
	}
}

static void read_edges(Reader *r, const YNode *list)
{
	if (!ynode_expect(list, YN_SEQ, "a list of edges [ source, destination ]", r->d))
		return;
	r->s->edges = arena_alloc(r->arena, (size_t)(list->len + 1) * sizeof(LakeEdge));
	int errors = diags_errors(r->d);
	if (list->len > LAKE_MAX_EDGES) {
		ynode_error(r->d, list, "%d edges; a tile has at most %d (each controller is a "
			    "configuration feature)", list->len, LAKE_MAX_EDGES);
		return;
	}
	for (int i = 0; i < list->len; i++)
		read_edge(r, list->items[i]);
	if (diags_errors(r->d) == errors)
		check_connected(r, list);
}

/* ---- controller ---- */

static void read_controller(Reader *r, const YNode *n)
{
	static const char *const keys[] = { "dims", "counter_bits", "affine", "share", NULL };
	static const char *const affine[] = { "recurrence", "multiply", NULL };
	LakeSpec *s = r->s;
	if (!ynode_expect(n, YN_MAP, "a controller { dims, counter_bits, affine, share }", r->d))
		return;
	ymap_check_keys(n, keys, "the controller", r->d);
	read_int(r, ymap_get(n, "dims"), "dims", 1, 16, 6, &s->dims);
	if (!read_int(r, ymap_get(n, "counter_bits"), "counter_bits", 1, 32, 16, &s->counter_bits))
		return;
	const YNode *a = ymap_get(n, "affine");
	if (a)
		s->affine = read_choice(r, a, "affine", affine) == 1 ? LAKE_AFFINE_MULTIPLY
								   : LAKE_AFFINE_RECURRENCE;
	read_bool(r, ymap_get(n, "share"), "share", &s->share);
	/* the address generators must reach every word of every unit */
	for (int u = 0; u < s->nunits; u++) {
		long rows = s->units[u].words;
		if (s->counter_bits < 31 && rows > (1L << s->counter_bits)) {
			ynode_error(r->d, ymap_get(n, "counter_bits"),
				   "counter_bits %d cannot address the %ld words of '%s'", s->counter_bits,
				   rows, s->units[u].name ? s->units[u].name : "?");
			return;
		}
	}
}

/* A name of the spec at its position. */
typedef struct Named {
	const char *name;
	int line, col;
	int base;               /* the Verilog names signals <name>_... after it */
} Named;

/* Does x start with b followed by '_'? */
static int extends(const char *x, const char *b)
{
	size_t n = strlen(b);
	return strncmp(x, b, n) == 0 && x[n] == '_';
}

/* The generated Verilog names signals after storage units, their ports and
 * tile outputs: <unit>_storage, <unit>_<port>_addr, <out>_valid, ... So no
 * tile port or unit may be named <unit>_... or <out>_..., and no port of a
 * unit <port>_... after another of its ports. */
static void check_generated_names(Reader *r, const YNode *ports)
{
	const LakeSpec *s = r->s;
	const char *file = r->f->doc->file;
	int n = s->nunits + s->nins + s->nouts;
	Named *v = arena_alloc(r->arena, (size_t)(n + 1) * sizeof *v);
	int k = 0;
	for (int u = 0; u < s->nunits; u++)
		v[k++] = (Named){ s->units[u].name, s->units[u].line, s->units[u].col, 1 };
	const YNode *lists[2] = { ymap_get(ports, "in"), ymap_get(ports, "out") };
	for (int side = 0; side < 2; side++)
		for (int i = 0; i < (side ? s->nouts : s->nins); i++) {
			const YNode *item = lists[side]->items[i];
			v[k++] = (Named){ side ? s->outs[i] : s->ins[i], item->line, item->col, side };
		}
	for (int i = 0; i < k; i++)
		for (int j = 0; j < k; j++)
			if (i != j && v[j].base && extends(v[i].name, v[j].name)) {
				diag_error(r->d, file, v[i].line, v[i].col, "'%s' would clash with the signals the "
					   "Verilog names after '%s' (%s_...)", v[i].name, v[j].name, v[j].name);
				break;
			}
	for (int u = 0; u < s->nunits; u++) {
		const LakeUnit *unit = &s->units[u];
		for (int i = 0; i < unit->nports; i++)
			for (int j = 0; j < unit->nports; j++)
				if (i != j && extends(unit->ports[i].name, unit->ports[j].name)) {
					diag_error(r->d, file, unit->ports[i].line, unit->ports[i].col,
						   "port '%s' would clash with the signals the Verilog names after port "
						   "'%s' of '%s' (%s_%s_...)", unit->ports[i].name, unit->ports[j].name,
						   unit->name, unit->name, unit->ports[j].name);
					break;
				}
	}
}

/* Chaining compares the high bits of SRAM addresses with the tile's place in
 * the chain, so there must be an SRAM and bits above its addresses. */
static void check_chain(Reader *r, const YNode *n)
{
	const LakeSpec *s = r->s;
	int srams = 0;
	for (int u = 0; u < s->nunits; u++) {
		const LakeUnit *unit = &s->units[u];
		if (unit->kind != LAKE_SRAM)
			continue;
		srams++;
		for (int p = 0; p < unit->nports; p++) {
			int bits = 0;
			while ((1L << bits) < unit->words / unit->ports[p].width)
				bits++;
			if (bits >= s->counter_bits) {
				ynode_error(r->d, n, "chaining needs counter_bits above the %d address bits of "
					    "'%s.%s' (it has %d)", bits, unit->name, unit->ports[p].name,
					    s->counter_bits);
				return;
			}
		}
	}
	if (srams == 0)
		ynode_error(r->d, n, "chaining joins SRAMs and this memory has none");
}

/* ---- the table look-up ---- */

/* The look-up's port: a storage port that reads, of a unit with a port to
 * load the table through, whose word and word address fit lookup_wr. */
static int read_lookup_port(Reader *r, const YNode *n, LakeEnd *e)
{
	const LakeSpec *s = r->s;
	if (!find_end(r, n, e))
		return 0;
	if (e->unit < 0) {
		ynode_error(r->d, n, "'%s' is a tile port; the look-up reads a storage port (unit.port)",
			   lake_end_name(r->f, *e));
		return 0;
	}
	const LakeUnit *u = &s->units[e->unit];
	int writable = 0, abits = 0;
	for (int p = 0; p < u->nports; p++)
		writable |= (u->ports[p].op & LAKE_WRITE) != 0;
	while ((1L << abits) < u->words)
		abits++;
	if (!(u->ports[e->port].op & LAKE_READ))
		ynode_error(r->d, n, "'%s' is a write port; the look-up's port must read", lake_end_name(r->f, *e));
	else if (!writable)
		ynode_error(r->d, n, "'%s' has no write port to load the look-up table through", u->name);
	else if (s->word + abits > 32)
		ynode_error(r->d, n, "a look-up table of %d %d-bit words does not fit lookup_wr (%d data and %d "
			    "address bits; at most 32)", u->words, s->word, s->word, abits);
	else
		return 1;
	return 0;
}

/* The number of tile input (is_out 0) or output (1) `n` names, or -1. */
static int read_lookup_tile_port(Reader *r, const YNode *n, int is_out, const char *key)
{
	const LakeSpec *s = r->s;
	const char *const *names = is_out ? s->outs : s->ins, *const *other = is_out ? s->ins : s->outs;
	int count = is_out ? s->nouts : s->nins, nother = is_out ? s->nins : s->nouts;
	const char *text = n->kind == YN_SCALAR ? n->value : "";
	for (int i = 0; i < count; i++)
		if (strcmp(names[i], text) == 0)
			return i;
	for (int i = 0; i < nother; i++)
		if (strcmp(other[i], text) == 0) {
			ynode_error(r->d, n, "'%s' is a tile %s; the look-up's %s is a tile %s", text,
				   is_out ? "input" : "output", key, is_out ? "output" : "input");
			return -1;
		}
	ynode_error(r->d, n, "unknown tile %s '%s' (the look-up's %s)", is_out ? "output" : "input", text, key);
	return -1;
}

/* lookup: { port: unit.port, addr: <tile input>, out: <tile output> } */
static void read_lookup(Reader *r, const YNode *n)
{
	static const char *const keys[] = { "port", "addr", "out", NULL };
	static const char *const needs[] = { "the storage port it reads, unit.port",
					     "the tile input carrying the word address",
					     "the tile output delivering the word" };
	LakeLookup *lk = &r->s->lookup;
	if (!ynode_expect(n, YN_MAP, "a look-up { port, addr, out } (one per tile)", r->d))
		return;
	int bad = ymap_check_keys(n, keys, "the look-up", r->d);
	for (int i = 0; keys[i]; i++)
		if (!ymap_get(n, keys[i])) {
			ynode_error(r->d, n, "missing '%s' in the look-up (%s)", keys[i], needs[i]);
			bad++;
		}
	if (bad)
		return;
	lk->line = n->line;
	lk->col = n->col;
	lk->in = read_lookup_tile_port(r, ymap_get(n, "addr"), 0, "addr");
	lk->out = read_lookup_tile_port(r, ymap_get(n, "out"), 1, "out");
	if (read_lookup_port(r, ymap_get(n, "port"), &lk->port) && lk->in >= 0 && lk->out >= 0)
		lk->present = 1;
}

/* ---- the file ---- */

static void read_mem(void *ctx, const YNode *root)
{
	static const char *const keys[] = { "mem", "word", "storage", "ports", "edges", "controller",
					    "chain", "lookup", NULL };
	static const char *const port_keys[] = { "in", "out", NULL };
	Reader *r = ctx;
	LakeSpec *s = r->s;
	ymap_check_keys(root, keys, "a MEM spec", r->d);
	for (int i = 0; keys[i]; i++)
		if (strcmp(keys[i], "chain") != 0 && strcmp(keys[i], "lookup") != 0 && !ymap_get(root, keys[i]))
			ynode_error(r->d, root, "missing '%s'", keys[i]);
	if (ymap_get(root, "mem"))
		s->name = read_name_plain(r, ymap_get(root, "mem"), "memory");
	if (ymap_get(root, "word"))
		read_int(r, ymap_get(root, "word"), "word", 1, 64, 16, &s->word);
	if (ymap_get(root, "storage"))
		read_storage(r, ymap_get(root, "storage"));
	const YNode *ports = ymap_get(root, "ports");
	if (ports && ynode_expect(ports, YN_MAP, "{ in: [ ... ], out: [ ... ] }", r->d)) {
		ymap_check_keys(ports, port_keys, "the tile's ports", r->d);
		read_tile_ports(r, ymap_get(ports, "in"), &s->ins, &s->nins, "in");
		read_tile_ports(r, ymap_get(ports, "out"), &s->outs, &s->nouts, "out");
	}
	if (ymap_get(root, "controller"))
		read_controller(r, ymap_get(root, "controller"));
	read_bool(r, ymap_get(root, "chain"), "chain", &s->chain);
	if (ymap_get(root, "lookup") && diags_errors(r->d) == 0)
		read_lookup(r, ymap_get(root, "lookup"));
	if (ymap_get(root, "edges") && diags_errors(r->d) == 0)
		read_edges(r, ymap_get(root, "edges"));
	if (s->chain && diags_errors(r->d) == 0)
		check_chain(r, ymap_get(root, "chain"));
	if (diags_errors(r->d) == 0)
		check_generated_names(r, ports);
}

static LakeFile *load(const char *path, const char *text, Diags *d)
{
	LakeFile *f = xcalloc(1, sizeof *f);
	f->arena = arena_new();
	f->spec = arena_alloc(f->arena, sizeof(LakeSpec));
	f->spec->file = arena_strdup(f->arena, path);
	f->spec->word = 16;
	Reader r = { f, f->spec, f->arena, d };
	if (!ydoc_read(path, text, "mem", "a MEM spec (a mapping with 'mem:')", read_mem, &r, &f->doc, d)) {
		lake_file_free(f);
		f = NULL;
	}
	diags_flush(d);
	return f;
}

LakeFile *lake_load(const char *path, Diags *d)
{
	return load(path, NULL, d);
}

LakeFile *lake_load_string(const char *name, const char *text, Diags *d)
{
	return load(name, text, d);
}

void lake_file_free(LakeFile *f)
{
	if (!f)
		return;
	ydoc_free(f->doc);
	arena_free(f->arena);
	free(f);
}

long lake_capacity(const LakeSpec *s, LakeKind k)
{
	long n = 0;
	for (int u = 0; u < s->nunits; u++)
		if (s->units[u].kind == k)
			n += s->units[u].words;
	return n;
}

const char *lake_end_name(const LakeFile *f, LakeEnd e)
{
	const LakeSpec *s = f->spec;
	if (e.unit == LAKE_TILE_IN)
		return s->ins[e.port];
	if (e.unit == LAKE_TILE_OUT)
		return s->outs[e.port];
	return arena_printf(f->arena, "%s.%s", s->units[e.unit].name, s->units[e.unit].ports[e.port].name);
}
