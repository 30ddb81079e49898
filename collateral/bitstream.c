/* bitstream.c - readers of config.map and routing.graph, and the bitstream
 * built from them (see bitstream.h). Both files are line records; errors are
 * reported at their line and column. */
#include "bitstream.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "../common/strmap.h"
#include "../common/vec.h"

/* ---- line records ---- */

typedef struct Lines {
	const char *file;
	char *text;
	Diags *d;
	int line;
	char *tok[12];
	int col[12];
	int ntok;
} Lines;

/* Splits the next non-empty, non-comment line into tokens; 0 at the end. */
static int next_line(Lines *l, char **p)
{
	while (**p) {
		char *s = *p, *eol = strchr(s, '\n');
		if (eol)
			*eol = '\0';
		*p = eol ? eol + 1 : s + strlen(s);
		l->line++;
		char *hash = strchr(s, '#');
		if (hash)
			*hash = '\0';
		l->ntok = 0;
		for (char *t = strtok(s, " \t\r"); t && l->ntok < 12; t = strtok(NULL, " \t\r")) {
			l->col[l->ntok] = (int)(t - s) + 1;
			l->tok[l->ntok++] = t;
		}
		if (l->ntok)
			return 1;
	}
	return 0;
}

static int to_long(Lines *l, int k, int base, long lo, long hi, long *out)
{
	char *end;
	errno = 0;
	long v = strtol(l->tok[k], &end, base);
	if (*end || errno || v < lo || v > hi) {
		diag_error(l->d, l->file, l->line, l->col[k], "expected a number from %ld to %ld, not '%s'", lo, hi,
			   l->tok[k]);
		return 0;
	}
	*out = v;
	return 1;
}

static int open_lines(Lines *l, const char *name, const char *text, Diags *d)
{
	memset(l, 0, sizeof *l);
	l->file = name;
	l->text = xstrdup(text);
	l->d = d;
	diags_add_source(d, name, text);
	return 1;
}

/* ---- config.map ---- */

typedef VEC(CfgField) FieldVec;

static int read_field(Lines *l, ConfigMap *m, CfgField *f)
{
	long addr, lo, hi;
	if (l->ntok != 6 || strcmp(l->tok[0], "field") != 0) {
		diag_error(l->d, l->file, l->line, 1, "expected 'field ADDRESS LO HI KIND TARGET'");
		return 0;
	}
	if (!to_long(l, 1, 16, 0, 0xffffffffL, &addr) || !to_long(l, 2, 10, 0, 31, &lo) ||
	    !to_long(l, 3, 10, lo, 31, &hi))
		return 0;
	if (strcmp(l->tok[4], "mux") != 0 && strcmp(l->tok[4], "core") != 0) {
		diag_error(l->d, l->file, l->line, l->col[4], "a field is of kind mux or core, not '%s'", l->tok[4]);
		return 0;
	}
	*f = (CfgField){ (uint32_t)addr, (int)lo, (int)hi, strcmp(l->tok[4], "mux") == 0,
			 arena_strdup(m->arena, l->tok[5]) };
	if (!strmap_put(m->index, f->target, 0)) {
		diag_error(l->d, l->file, l->line, l->col[5], "a second field for '%s'", f->target);
		return 0;
	}
	return 1;
}

ConfigMap *configmap_load_string(const char *name, const char *text, Diags *d)
{
	Lines l;
	open_lines(&l, name, text, d);
	ConfigMap *m = xcalloc(1, sizeof *m);
	m->arena = arena_new();
	m->index = xcalloc(1, sizeof(StrMap));
	strmap_init(m->index);
	FieldVec v = { 0 };
	int errors = diags_errors(d);
	char *p = l.text;
	while (next_line(&l, &p)) {
		CfgField f;
		if (read_field(&l, m, &f)) {
			strmap_put(m->index, f.target, v.len);
			vec_push(&v, f);
		}
	}
	free(l.text);
	m->fields = v.data;
	m->nfields = v.len;
	if (diags_errors(d) > errors) {
		configmap_free(m);
		return NULL;
	}
	return m;
}

static char *read_text(const char *path)
{
	size_t len;
	char *text = util_read_file(path, &len);
	if (!text)
		fprintf(stderr, "cannot read '%s': %s\n", path, strerror(errno));
	return text;
}

ConfigMap *configmap_load(const char *path, Diags *d)
{
	char *text = read_text(path);
	ConfigMap *m = text ? configmap_load_string(path, text, d) : NULL;
	free(text);
	return m;
}

void configmap_free(ConfigMap *m)
{
	if (!m)
		return;
	free(m->fields);
	strmap_free(m->index);
	free(m->index);
	arena_free(m->arena);
	free(m);
}

int configmap_find(const ConfigMap *m, const char *target)
{
	intptr_t i;
	return strmap_get(m->index, target, &i) ? (int)i : -1;
}

/* ---- routing.graph ---- */

static int side_of(const char *s)
{
	const char *p = strchr("NESW", s[0]);
	return s[0] && !s[1] && p ? (int)(p - "NESW") : -1;
}

static int read_node(Lines *l, RGraph *g, RNode *n)
{
	long id, w, x, y, t = -1;
	if (l->ntok != 10 || !to_long(l, 1, 10, g->nnodes, g->nnodes, &id) || !to_long(l, 3, 10, 1, 64, &w) ||
	    !to_long(l, 4, 10, 0, 255, &x) || !to_long(l, 5, 10, 0, 255, &y) ||
	    (strcmp(l->tok[7], "-") != 0 && !to_long(l, 7, 10, 0, 1000, &t))) {
		if (l->ntok != 10)
			diag_error(l->d, l->file, l->line, 1, "expected 'node ID KIND WIDTH X Y SIDE TRACK DELAY NAME'");
		return 0;
	}
	memset(n, 0, sizeof *n);
	n->kind = arena_strdup(g->arena, l->tok[2]);
	n->name = arena_strdup(g->arena, l->tok[9]);
	n->width = (int)w;
	n->x = (int)x;
	n->y = (int)y;
	n->side = side_of(l->tok[6]);
	n->track = (int)t;
	n->delay = strtod(l->tok[8], NULL);
	if (!strmap_put(g->index, n->name, id)) {
		diag_error(l->d, l->file, l->line, l->col[9], "a second node named '%s'", n->name);
		return 0;
	}
	return 1;
}

static void push(int **v, int *n, int x)
{
	if ((*n & (*n - 1)) == 0)   /* grows at powers of two */
		*v = xrealloc(*v, (size_t)(*n ? 2 * *n : 1) * sizeof **v);
	(*v)[(*n)++] = x;
}

static int read_edge(Lines *l, RGraph *g)
{
	long from, to, sel = -1;
	if (l->ntok != 4 || !to_long(l, 1, 10, 0, g->nnodes - 1, &from) || !to_long(l, 2, 10, 0, g->nnodes - 1, &to)) {
		if (l->ntok != 4)
			diag_error(l->d, l->file, l->line, 1, "expected 'edge FROM TO SELECT'");
		return 0;
	}
	RNode *t = &g->nodes[to];
	if (strcmp(l->tok[3], "-") != 0 && !to_long(l, 3, 10, 0, 1 << 20, &sel))
		return 0;
	if (sel != (strcmp(l->tok[3], "-") == 0 ? -1 : t->nin)) {
		diag_error(l->d, l->file, l->line, l->col[3], "edges into a node are listed in select order");
		return 0;
	}
	push(&t->in, &t->nin, (int)from);
	push(&g->nodes[from].out, &g->nodes[from].nout, (int)to);
	return 1;
}

RGraph *rgraph_load_string(const char *name, const char *text, Diags *d)
{
	Lines l;
	open_lines(&l, name, text, d);
	RGraph *g = xcalloc(1, sizeof *g);
	g->arena = arena_new();
	g->index = xcalloc(1, sizeof(StrMap));
	strmap_init(g->index);
	VEC(RNode) nodes = { 0 };
	int errors = diags_errors(d), cap = 0;
	(void)cap;
	char *p = l.text;
	while (next_line(&l, &p) && diags_errors(d) == errors) {
		if (strcmp(l.tok[0], "graph") == 0 && l.ntok >= 6) {
			long c, r;
			g->design = arena_strdup(g->arena, l.tok[1]);
			if (to_long(&l, 3, 10, 1, 255, &c) && to_long(&l, 5, 10, 1, 256, &r))
				g->cols = (int)c, g->rows = (int)r;
		} else if (strcmp(l.tok[0], "node") == 0) {
			RNode n;
			g->nnodes = nodes.len;
			if (read_node(&l, g, &n))
				vec_push(&nodes, n);
			g->nodes = nodes.data;
			g->nnodes = nodes.len;
		} else if (strcmp(l.tok[0], "edge") == 0) {
			read_edge(&l, g);
		} else {
			diag_error(d, name, l.line, 1, "expected a graph, node or edge record, not '%s'", l.tok[0]);
		}
	}
	free(l.text);
	g->nodes = nodes.data;
	g->nnodes = nodes.len;
	if (diags_errors(d) > errors) {
		rgraph_free(g);
		return NULL;
	}
	return g;
}

RGraph *rgraph_load(const char *path, Diags *d)
{
	char *text = read_text(path);
	RGraph *g = text ? rgraph_load_string(path, text, d) : NULL;
	free(text);
	return g;
}

void rgraph_free(RGraph *g)
{
	if (!g)
		return;
	for (int i = 0; i < g->nnodes; i++) {
		free(g->nodes[i].in);
		free(g->nodes[i].out);
	}
	free(g->nodes);
	strmap_free(g->index);
	free(g->index);
	arena_free(g->arena);
	free(g);
}

int rgraph_find(const RGraph *g, const char *name)
{
	intptr_t i;
	return strmap_get(g->index, name, &i) ? (int)i : -1;
}

int rgraph_select(const RGraph *g, int from, int to)
{
	for (int i = 0; i < g->nodes[to].nin; i++)
		if (g->nodes[to].in[i] == from)
			return i;
	return -1;
}

/* ---- bitstreams ---- */

/* A write after the registers, in the order asked (bitstream_append). */
typedef struct RawWrite {
	uint32_t address, data;
} RawWrite;

struct Bitstream {
	const ConfigMap *m;
	uint32_t *value;
	char *set;
	VEC(RawWrite) tail;
};

Bitstream *bitstream_new(const ConfigMap *m)
{
	Bitstream *b = xcalloc(1, sizeof *b);
	b->m = m;
	b->value = xcalloc((size_t)m->nfields + 1, sizeof(uint32_t));
	b->set = xcalloc((size_t)m->nfields + 1, 1);
	return b;
}

void bitstream_free(Bitstream *b)
{
	if (!b)
		return;
	free(b->value);
	free(b->set);
	vec_free(&b->tail);
	free(b);
}

/* The field of target if value fits it, or -1. */
static int field_for(const Bitstream *b, const char *target, uint32_t value)
{
	int i = configmap_find(b->m, target);
	if (i < 0)
		return -1;
	const CfgField *f = &b->m->fields[i];
	int bits = f->hi - f->lo + 1;
	return bits < 32 && value >> bits ? -1 : i;
}

int bitstream_set(Bitstream *b, const char *target, uint32_t value)
{
	int i = field_for(b, target, value);
	if (i < 0)
		return 0;
	b->value[i] = value;
	b->set[i] = 1;
	return 1;
}

int bitstream_append(Bitstream *b, const char *target, uint32_t value)
{
	int i = field_for(b, target, value);
	if (i < 0)
		return 0;
	const CfgField *f = &b->m->fields[i];
	RawWrite w = { f->address, value << f->lo };
	vec_push(&b->tail, w);
	return 1;
}

int bitstream_route(Bitstream *b, const RGraph *g, int from, int to)
{
	int sel = rgraph_select(g, from, to);
	if (sel < 0)
		return 0;
	return g->nodes[to].nin == 1 || bitstream_set(b, g->nodes[to].name, (uint32_t)sel);
}

static int by_address(const void *x, const void *y)
{
	const CfgField *a = *(const CfgField *const *)x, *c = *(const CfgField *const *)y;
	return (a->address > c->address) - (a->address < c->address);
}

void bitstream_write(const Bitstream *b, FILE *f)
{
	const ConfigMap *m = b->m;
	const CfgField **set = xcalloc((size_t)m->nfields + 1, sizeof *set);
	int n = 0;
	for (int i = 0; i < m->nfields; i++)
		if (b->set[i])
			set[n++] = &m->fields[i];
	qsort(set, (size_t)n, sizeof *set, by_address);
	for (int i = 0; i < n;) {
		uint32_t addr = set[i]->address, data = 0;
		for (; i < n && set[i]->address == addr; i++)
			data |= b->value[set[i] - m->fields] << set[i]->lo;
		fprintf(f, "%08" PRIx32 " %08" PRIx32 "\n", addr, data);
	}
	free(set);
	vec_foreach(&b->tail, i) fprintf(f, "%08" PRIx32 " %08" PRIx32 "\n", b->tail.data[i].address, b->tail.data[i].data);
}
