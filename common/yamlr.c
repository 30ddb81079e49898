/* yamlr.c - see yamlr.h. Builds the tree from libyaml's event stream. */
#include "yamlr.h"

#include <errno.h>
#include <stdarg.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

#include "strmap.h"
#include "util.h"
#include "vec.h"

typedef VEC(YNode *) NodeVec;

/* Nesting deeper than this is refused, so that a hostile file cannot
 * exhaust the stack of the recursive loader. */
#define YAML_MAX_DEPTH 200

typedef struct Loader {
	YDoc *doc;
	Diags *d;
	int depth;
	yaml_parser_t parser;
	StrMap anchors;  /* anchor name -> index into anchored */
	NodeVec anchored;
	NodeVec open;     /* the collections being read, outermost first */
	int failed;
} Loader;

static YNode *node_new(Loader *l, YNodeKind k, yaml_mark_t m)
{
	YNode *n = arena_alloc(l->doc->arena, sizeof *n);
	n->kind = k;
	n->file = l->doc->file;
	n->line = (int)m.line + 1;
	n->col = (int)m.column + 1;
	n->value = "";
	return n;
}

static void parse_error(Loader *l)
{
	yaml_parser_t *p = &l->parser;
	yaml_mark_t m = p->problem ? p->problem_mark : p->context_mark;
	const char *ctx = p->context ? p->context : NULL;
	if (ctx)
		diag_error(l->d, l->doc->file, (int)m.line + 1, (int)m.column + 1,
			   "malformed YAML: %s %s", p->problem ? p->problem : "error", ctx);
	else
		diag_error(l->d, l->doc->file, (int)m.line + 1, (int)m.column + 1,
			   "malformed YAML: %s", p->problem ? p->problem : "error");
	l->failed = 1;
}

static int next_event(Loader *l, yaml_event_t *ev)
{
	if (!yaml_parser_parse(&l->parser, ev)) {
		parse_error(l);
		return 0;
	}
	return 1;
}

static YScalarStyle scalar_style(yaml_scalar_style_t s)
{
	switch (s) {
	case YAML_PLAIN_SCALAR_STYLE:
		return YS_PLAIN;
	case YAML_SINGLE_QUOTED_SCALAR_STYLE:
		return YS_SINGLE;
	case YAML_DOUBLE_QUOTED_SCALAR_STYLE:
		return YS_DOUBLE;
	case YAML_LITERAL_SCALAR_STYLE:
		return YS_LITERAL;
	case YAML_FOLDED_SCALAR_STYLE:
		return YS_FOLDED;
	default:
		return YS_OTHER;
	}
}

static void remember_anchor(Loader *l, const yaml_char_t *anchor, YNode *n)
{
	if (!anchor)
		return;
	strmap_put(&l->anchors, (const char *)anchor, l->anchored.len);
	vec_push(&l->anchored, n);
}

static YNode *load_node(Loader *l, yaml_event_t *ev);

/* Reads the children of a mapping or sequence up to its end event. */
static int load_children(Loader *l, YNode *n, yaml_event_type_t end)
{
	if (++l->depth > YAML_MAX_DEPTH) {
		diag_error(l->d, n->file, n->line, n->col, "YAML nesting deeper than %d levels",
			   YAML_MAX_DEPTH);
		l->failed = 1;
		return 0;
	}
	NodeVec kids = { 0 };
	vec_push(&l->open, n);
	for (;;) {
		yaml_event_t ev;
		if (!next_event(l, &ev))
			break;
		if (ev.type == end) {
			yaml_event_delete(&ev);
			break;
		}
		YNode *k = load_node(l, &ev);
		yaml_event_delete(&ev);
		if (!k)
			break;
		vec_push(&kids, k);
	}
	l->depth--;
	l->open.len--;
	if (l->failed) {
		vec_free(&kids);
		return 0;
	}
	size_t bytes = (size_t)(kids.len ? kids.len : 1) * sizeof(YNode *);
	if (n->kind == YN_SEQ) {
		n->len = kids.len;
		n->items = arena_alloc(l->doc->arena, bytes);
		if (kids.len) /* kids.data is NULL for [] and memcpy must not see NULL */
			memcpy(n->items, kids.data, (size_t)kids.len * sizeof(YNode *));
	} else {
		n->len = kids.len / 2;
		n->keys = arena_alloc(l->doc->arena, bytes);
		n->vals = arena_alloc(l->doc->arena, bytes);
		for (int i = 0; i < n->len; i++) {
			n->keys[i] = kids.data[2 * i];
			n->vals[i] = kids.data[2 * i + 1];
		}
	}
	vec_free(&kids);
	return 1;
}

static void check_duplicate_keys(Loader *l, YNode *map)
{
	StrMap seen;
	strmap_init(&seen);
	for (int i = 0; i < map->len; i++) {
		YNode *k = map->keys[i];
		intptr_t first;
		if (k->kind != YN_SCALAR)
			diag_error(l->d, k->file, k->line, k->col, "mapping keys must be plain names");
		else if (strmap_get(&seen, k->value, &first))
			diag_error(l->d, k->file, k->line, k->col,
				   "duplicate key '%s' (first given at line %d)", k->value,
				   map->keys[first]->line);
		else
			strmap_put(&seen, k->value, i);
	}
	strmap_free(&seen);
}

static YNode *load_node(Loader *l, yaml_event_t *ev)
{
	YNode *n;
	intptr_t k;
	switch (ev->type) {
	case YAML_SCALAR_EVENT:
		n = node_new(l, YN_SCALAR, ev->start_mark);
		n->value = arena_strndup(l->doc->arena, (const char *)ev->data.scalar.value,
					 ev->data.scalar.length);
		n->style = scalar_style(ev->data.scalar.style);
		remember_anchor(l, ev->data.scalar.anchor, n);
		return n;
	case YAML_SEQUENCE_START_EVENT:
		n = node_new(l, YN_SEQ, ev->start_mark);
		remember_anchor(l, ev->data.sequence_start.anchor, n);
		return load_children(l, n, YAML_SEQUENCE_END_EVENT) ? n : NULL;
	case YAML_MAPPING_START_EVENT:
		n = node_new(l, YN_MAP, ev->start_mark);
		remember_anchor(l, ev->data.mapping_start.anchor, n);
		if (!load_children(l, n, YAML_MAPPING_END_EVENT))
			return NULL;
		check_duplicate_keys(l, n);
		return n;
	case YAML_ALIAS_EVENT:
		if (strmap_get(&l->anchors, (const char *)ev->data.alias.anchor, &k)) {
			/* inside its own anchored node, an alias would make the tree a
			 * cycle, which no reader could walk to its end */
			vec_foreach(&l->open, i) {
				if (l->open.data[i] != l->anchored.data[k])
					continue;
				diag_error(l->d, l->doc->file, (int)ev->start_mark.line + 1,
					   (int)ev->start_mark.column + 1, "alias '%s' inside the node it names",
					   (const char *)ev->data.alias.anchor);
				l->failed = 1;
				return NULL;
			}
			return l->anchored.data[k];
		}
		diag_error(l->d, l->doc->file, (int)ev->start_mark.line + 1,
			   (int)ev->start_mark.column + 1, "unknown alias '%s'",
			   (const char *)ev->data.alias.anchor);
		l->failed = 1;
		return NULL;
	default:
		diag_error(l->d, l->doc->file, (int)ev->start_mark.line + 1,
			   (int)ev->start_mark.column + 1, "unexpected YAML event");
		l->failed = 1;
		return NULL;
	}
}

/* Reads events up to the first document's root node, then checks that no
 * second document follows. */
static void load_stream(Loader *l)
{
	yaml_event_t ev;
	int docs = 0;
	while (!l->failed && next_event(l, &ev)) {
		yaml_event_type_t t = ev.type;
		if (t == YAML_DOCUMENT_START_EVENT && ++docs > 1) {
			diag_error(l->d, l->doc->file, (int)ev.start_mark.line + 1,
				   (int)ev.start_mark.column + 1,
				   "a spec file holds one YAML document; found a second one");
			l->failed = 1;
		} else if (t == YAML_SCALAR_EVENT || t == YAML_SEQUENCE_START_EVENT ||
			   t == YAML_MAPPING_START_EVENT || t == YAML_ALIAS_EVENT) {
			l->doc->root = load_node(l, &ev);
		}
		yaml_event_delete(&ev);
		if (t == YAML_STREAM_END_EVENT)
			break;
	}
}

YDoc *ydoc_load_string(const char *file, const char *text, Diags *d)
{
	YDoc *doc = xcalloc(1, sizeof *doc);
	doc->arena = arena_new();
	doc->file = arena_strdup(doc->arena, file);
	doc->text = arena_strdup(doc->arena, text);
	diags_add_source(d, file, text);
	Loader l = { .doc = doc, .d = d };
	strmap_init(&l.anchors);
	yaml_parser_initialize(&l.parser);
	yaml_parser_set_input_string(&l.parser, (const unsigned char *)doc->text, strlen(doc->text));
	int errors_before = diags_errors(d);
	load_stream(&l);
	yaml_parser_delete(&l.parser);
	strmap_free(&l.anchors);
	vec_free(&l.anchored);
	vec_free(&l.open);
	if (l.failed || diags_errors(d) > errors_before) {
		ydoc_free(doc);
		return NULL;
	}
	return doc;
}

YDoc *ydoc_load_file(const char *path, Diags *d)
{
	size_t len;
	char *text = util_read_file_max(path, &len, YAML_READ_MAX);
	if (!text) {
		int err = errno;
		diag_error(d, path, 0, 0, "%s%s", err == EFBIG ? "" : "cannot read file: ", util_read_why(err));
		return NULL;
	}
	if (!diags_check_nul(d, path, text, len)) {
		free(text);
		return NULL;
	}
	YDoc *doc = ydoc_load_string(path, text, d);
	free(text);
	return doc;
}

void ydoc_free(YDoc *doc)
{
	if (!doc)
		return;
	arena_free(doc->arena);
	free(doc);
}

int ydoc_read(const char *path, const char *text, const char *key, const char *what, YRootRead read,
	      void *ctx, YDoc **doc, Diags *d)
{
	int errors = diags_errors(d);
	*doc = text ? ydoc_load_string(path, text, d) : ydoc_load_file(path, d);
	if (!*doc)
		return 0;
	const YNode *root = (*doc)->root;
	if (root && root->kind == YN_MAP && (!key || ymap_get(root, key)))
		read(ctx, root);
	else
		diag_error(d, (*doc)->file, root ? root->line : 1, root ? root->col : 1, "expected %s", what);
	return diags_errors(d) == errors;
}

/* The index of key among the keys of map, or -1 (also if map is not a map). */
static int key_index(const YNode *map, const char *key)
{
	for (int i = 0; map && map->kind == YN_MAP && i < map->len; i++)
		if (map->keys[i]->kind == YN_SCALAR && strcmp(map->keys[i]->value, key) == 0)
			return i;
	return -1;
}

YNode *ymap_key(const YNode *map, const char *key)
{
	int i = key_index(map, key);
	return i < 0 ? NULL : map->keys[i];
}

YNode *ymap_get(const YNode *map, const char *key)
{
	int i = key_index(map, key);
	return i < 0 ? NULL : map->vals[i];
}

int ymap_check_keys(const YNode *map, const char *const *allowed, const char *what, Diags *d)
{
	int bad = 0;
	for (int i = 0; map && map->kind == YN_MAP && i < map->len; i++) {
		const YNode *k = map->keys[i];
		int ok = 0;
		for (const char *const *a = allowed; *a && !ok; a++)
			ok = strcmp(*a, k->value) == 0;
		if (ok)
			continue;
		char list[512] = "";
		for (const char *const *a = allowed; *a; a++) {
			if (strlen(list) + strlen(*a) + 3 >= sizeof list)
				break;
			if (a != allowed)
				strcat(list, ", ");
			strcat(list, *a);
		}
		diag_error(d, k->file, k->line, k->col, "unknown key '%s' in %s (expected one of: %s)",
			   k->value, what, list);
		bad++;
	}
	return bad;
}

static const char *kind_name(YNodeKind k)
{
	return k == YN_MAP ? "a mapping" : k == YN_SEQ ? "a sequence" : "a scalar";
}

int ynode_expect(const YNode *n, YNodeKind k, const char *what, Diags *d)
{
	if (n->kind == k)
		return 1;
	diag_error(d, n->file, n->line, n->col, "expected %s, found %s", what, kind_name(n->kind));
	return 0;
}

/* Indentation of the first non-blank line after source line `line`. */
static int block_indent(const char *text, int line)
{
	const char *p = text;
	for (int l = 1; l <= line && p; l++) {
		p = strchr(p, '\n');
		if (p)
			p++;
	}
	while (p && *p) {
		int ind = 0;
		while (p[ind] == ' ')
			ind++;
		if (p[ind] != '\n' && p[ind] != '\r' && p[ind] != '\0')
			return ind;
		p = strchr(p, '\n');
		if (p)
			p++;
	}
	return 0;
}

/* A plain scalar may span lines, folded into one with single spaces: walk the
 * source and the folded text together, recording where each character of the
 * text came from (up to len characters). */
static void plain_walk(const YDoc *doc, const YNode *n, int len, int *lines, int *cols)
{
	const char *s = doc->text;
	for (int l = 1; l < n->line && *s; s++)
		if (*s == '\n')
			l++;
	int l = n->line, c = n->col;
	s += n->col - 1;
	const char *v = n->value;
	int i = 0;
	for (; i < len && *s && v[i]; i++) {
		if (v[i] != *s && v[i] == ' ') {
			/* a folded line break: skip the source's whitespace and newlines */
			while (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r') {
				if (*s == '\n')
					l++, c = 0;
				s++, c++;
			}
			lines[i] = l, cols[i] = c;
			continue;
		}
		if (v[i] != *s)
			break;
		lines[i] = l, cols[i] = c;
		if (*s == '\n')
			l++, c = 0;
		s++, c++;
	}
	for (; i <= len; i++)
		lines[i] = l, cols[i] = c;
}

void ypos_init(YPosMap *m, const YDoc *doc, const YNode *n)
{
	memset(m, 0, sizeof *m);
	m->doc = doc;
	m->n = n;
	if (n->style == YS_LITERAL || n->style == YS_FOLDED) {
		m->indent = block_indent(doc->text, n->line);
	} else if (n->style == YS_PLAIN) {
		m->len = (int)strlen(n->value);
		m->lines = xmalloc((size_t)(m->len + 1) * sizeof(int));
		m->cols = xmalloc((size_t)(m->len + 1) * sizeof(int));
		plain_walk(doc, n, m->len, m->lines, m->cols);
	}
}

void ypos_get(const YPosMap *m, int tline, int tcol, int *line, int *col)
{
	const YNode *n = m->n;
	if (n->style == YS_LITERAL || n->style == YS_FOLDED) {
		*line = n->line + 1 + tline;
		*col = m->indent + tcol + 1;
	} else if (n->style == YS_PLAIN && tline == 0) {
		int k = tcol < 0 ? 0 : tcol > m->len ? m->len : tcol;
		*line = m->lines[k];
		*col = m->cols[k] + (tcol - k);
	} else {
		int quote = n->style == YS_SINGLE || n->style == YS_DOUBLE;
		*line = n->line + tline;
		*col = (tline ? 1 : n->col + quote) + tcol;
	}
}

void ypos_free(YPosMap *m)
{
	free(m->lines);
	free(m->cols);
	m->lines = m->cols = NULL;
}

void yscalar_pos(const YDoc *doc, const YNode *n, int tline, int tcol, int *line, int *col)
{
	YPosMap m;
	ypos_init(&m, doc, n);
	ypos_get(&m, tline, tcol, line, col);
	ypos_free(&m);
}

int yscalar_int(const YNode *n, long long *out)
{
	if (n->kind != YN_SCALAR)
		return -1;
	/* an optional sign, then decimal, 0x or 0b digits only: strtoll alone would
	 * read a leading 0 as octal and accept spaces or a sign after the prefix */
	const char *s = n->value;
	int neg = *s == '-', base = 10;
	if (*s == '-' || *s == '+')
		s++;
	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
		base = 16, s += 2;
	else if (s[0] == '0' && (s[1] == 'b' || s[1] == 'B'))
		base = 2, s += 2;
	const char *digits = base == 16 ? "0123456789abcdefABCDEF" : base == 2 ? "01" : "0123456789";
	if (!*s || s[strspn(s, digits)] != '\0')
		return -1;
	errno = 0;
	unsigned long long u = strtoull(s, NULL, base);
	if (errno || u > (unsigned long long)LLONG_MAX + (unsigned)neg)
		return -1;
	*out = neg && u ? -(long long)(u - 1) - 1 : (long long)u;
	return 0;
}

int yscalar_double(const YNode *n, double *out)
{
	if (n->kind != YN_SCALAR || !*n->value)
		return -1;
	char *end;
	errno = 0;
	double v = strtod(n->value, &end);
	/* ERANGE also flags underflow to a subnormal or zero; reject only overflow */
	if (*end || (errno && isinf(v)))
		return -1;
	*out = v;
	return 0;
}

void ynode_error(Diags *d, const YNode *n, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	diag_vreport(d, DIAG_ERROR, n->file, n->line, n->col, fmt, ap);
	va_end(ap);
}

int yread_int(Diags *d, const YNode *n, const char *what, long lo, long hi, long dflt, int *out)
{
	long long v = dflt;
	uint64_t big;
	if (n && n->kind == YN_SCALAR && yscalar_int(n, &v) != 0 &&
	    util_parse_number(n->value + (n->value[0] == '-' || n->value[0] == '+'), 0, UINT64_MAX, &big) != -1) {
		/* a number, but too large for 64 bits: out of range all the same */
		ynode_error(d, n, "%s %s is out of range (%ld to %ld)", what, n->value, lo, hi);
		return 0;
	}
	if (n && (n->kind != YN_SCALAR || yscalar_int(n, &v) != 0)) {
		ynode_error(d, n, "expected a number for %s", what);
		return 0;
	}
	if (v < lo || v > hi) {
		ynode_error(d, n, "%s %lld is out of range (%ld to %ld)", what, v, lo, hi);
		return 0;
	}
	*out = (int)v;
	return 1;
}

int yread_bool(Diags *d, const YNode *n, const char *what, int *out)
{
	*out = 0;
	if (!n)
		return 1;
	if (n->kind == YN_SCALAR && strcmp(n->value, "true") == 0)
		return *out = 1;
	if (n->kind == YN_SCALAR && strcmp(n->value, "false") == 0)
		return 1;
	ynode_error(d, n, "expected true or false for %s", what);
	return 0;
}

int yread_choice(Diags *d, const YNode *n, const char *what, const char *const *words)
{
	for (int i = 0; n->kind == YN_SCALAR && words[i]; i++)
		if (strcmp(n->value, words[i]) == 0)
			return i;
	char list[128] = "";
	for (int i = 0; words[i]; i++)
		snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s", i ? ", " : "", words[i]);
	ynode_error(d, n, "%s must be one of: %s", what, list);
	return -1;
}
