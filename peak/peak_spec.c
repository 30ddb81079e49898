/* peak_spec.c - reads PE and IR specification files (docs/pe.md):
 * the YAML structure, type expressions (bit, bits(N), enum { ... }, aliases), the
 * instruction's field layout, ports, state and delays; then hands the behaviour
 * to the parser and lowering. */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "../common/bv.h"
#include "../common/strmap.h"
#include "../common/vec.h"
#include "../common/vwrite.h"
#include "peak.h"
#include "peak_lower.h"

/* The state of reading one file. */
typedef struct Reader {
	PeakFile *file;
	Arena *arena;
	Diags *d;
	const YDoc *doc;
	/* type aliases of the file (and of the op being read, for IR files) */
	StrMap aliases;            /* name -> index in alias_nodes */
	VEC(const YNode *) alias_nodes;
	VEC(PeakType) alias_types;
	VEC(int) alias_state;      /* 0 unresolved, 1 resolving, 2 done, 3 failed */
	VEC(PeakEnum) enums;
} Reader;

static const char *const reserved_names[] = { "inst", "if", "elif", "else", "and", "or", "not",
					      "pass", "True", "False", "clk", "rst", NULL };

static int in_list(const char *const *list, const char *s)
{
	for (; *list; list++)
		if (strcmp(*list, s) == 0)
			return 1;
	return 0;
}


/* Error at character off of scalar n. */
static void error_in(Reader *r, const YNode *n, int off, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static void error_in(Reader *r, const YNode *n, int off, const char *fmt, ...)
{
	int line, col;
	yscalar_pos(r->doc, n, 0, off, &line, &col);
	va_list ap;
	va_start(ap, fmt);
	diag_vreport(r->d, DIAG_ERROR, n->file, line, col, fmt, ap);
	va_end(ap);
}

/* ---- type expressions ---- */

typedef struct TypeLexer {
	const char *s;
	int pos;
} TypeLexer;

static void skip_space(TypeLexer *t)
{
	while (isspace((unsigned char)t->s[t->pos]))
		t->pos++;
}

static int lex_word(TypeLexer *t, char *buf, int n)
{
	skip_space(t);
	int k = 0;
	while ((isalnum((unsigned char)t->s[t->pos]) || t->s[t->pos] == '_') && k < n - 1)
		buf[k++] = t->s[t->pos++];
	buf[k] = '\0';
	return k;
}

static int lex_char(TypeLexer *t, char c)
{
	skip_space(t);
	if (t->s[t->pos] != c)
		return 0;
	t->pos++;
	return 1;
}

static int parse_width(Reader *r, const YNode *n, TypeLexer *t, int *width)
{
	char num[32];
	int at;
	skip_space(t);
	at = t->pos;
	if (!lex_word(t, num, sizeof num)) {
		error_in(r, n, t->pos, "expected a width");
		return 0;
	}
	char *end;
	errno = 0;
	long v = strtol(num, &end, 10);
	if (*end) {
		error_in(r, n, at, "expected a width, found '%s'", num);
		return 0;
	}
	if (v < 1 || v > 64 || errno) {
		error_in(r, n, at, "width %s is out of range (1 to 64)", num);
		return 0;
	}
	*width = (int)v;
	return 1;
}

static int enum_width(uint64_t max_code)
{
	int w = 1;
	while (w < 64 && (max_code >> w))
		w++;
	return w;
}

/* The members of an enum being read. */
typedef struct EnumBuild {
	VEC(const char *) members;
	VEC(uint64_t) codes;
	uint64_t next, max;
	int width;              /* explicit width, or 0 */
} EnumBuild;

/* Checks a member and its code against those before it. */
static int check_member(Reader *r, const YNode *n, const EnumBuild *b, const char *word, int at,
			uint64_t code, int code_at)
{
	int ok = 1;
	for (int i = 0; i < b->members.len; i++) {
		if (strcmp(b->members.data[i], word) == 0) {
			error_in(r, n, at, "duplicate enum member '%s'", word);
			ok = 0;
		}
		if (b->codes.data[i] == code) {
			error_in(r, n, code_at, "enum members '%s' and '%s' have the same code %llu",
				 b->members.data[i], word, (unsigned long long)code);
			ok = 0;
		}
	}
	if (b->width && code > bv_mask(b->width)) {
		error_in(r, n, code_at, "code %llu of '%s' does not fit in the enum's %d bits",
			 (unsigned long long)code, word, b->width);
		ok = 0;
	}
	return ok;
}

/* member := NAME ('=' code)? ; returns 0 after an error. */
static int parse_member(Reader *r, const YNode *n, TypeLexer *t, EnumBuild *b)
{
	char word[128];
	skip_space(t);
	int at = t->pos;
	if (!lex_word(t, word, sizeof word) || !util_is_identifier(word)) {
		error_in(r, n, at, "expected an enum member name");
		return 0;
	}
	uint64_t code = b->next;
	int code_at = at;
	if (lex_char(t, '=')) {
		char num[40];
		skip_space(t);
		code_at = t->pos;
		lex_word(t, num, sizeof num);
		if (bv_parse(num, 64, &code) != 0) {
			if (!*num)
				error_in(r, n, code_at, "expected a code for '%s' (a number of 0 or more)",
					 word);
			else
				error_in(r, n, code_at, "expected a code for '%s', found '%s'", word, num);
			return 0;
		}
	}
	int ok = check_member(r, n, b, word, at, code, code_at);
	vec_push(&b->members, arena_strdup(r->arena, word));
	vec_push(&b->codes, code);
	if (code > b->max)
		b->max = code;
	b->next = code + 1;
	return ok;
}

/* enum_type := 'enum' ('(' N ')')? '{' member (',' member)* '}' */
static int parse_enum(Reader *r, const YNode *n, TypeLexer *t, const char *name, PeakType *out)
{
	EnumBuild b = { { 0 }, { 0 }, 0, 0, 0 };
	if (lex_char(t, '(') && (!parse_width(r, n, t, &b.width) || !lex_char(t, ')'))) {
		if (b.width)
			error_in(r, n, t->pos, "expected ')'");
		return 0;
	}
	if (!lex_char(t, '{')) {
		error_in(r, n, t->pos, "expected '{' after 'enum'");
		return 0;
	}
	int ok;
	do {
		ok = parse_member(r, n, t, &b);
		if (!ok || lex_char(t, '}'))
			break;
		if (!lex_char(t, ',')) {
			error_in(r, n, t->pos, "expected ',' or '}' in enum");
			ok = 0;
		}
	} while (ok);
	if (ok) {
		int k = b.members.len;
		PeakEnum e = { arena_strdup(r->arena, name), b.width ? b.width : enum_width(b.max), k,
			       arena_alloc(r->arena, (size_t)k * sizeof(char *)),
			       arena_alloc(r->arena, (size_t)k * sizeof(uint64_t)) };
		memcpy(e.members, b.members.data, (size_t)k * sizeof(char *));
		memcpy(e.codes, b.codes.data, (size_t)k * sizeof(uint64_t));
		vec_push(&r->enums, e);
		*out = (PeakType){ e.width, r->enums.len - 1 };
	}
	vec_free(&b.members);
	vec_free(&b.codes);
	return ok;
}

static int resolve_alias(Reader *r, int k, PeakType *out);

/* type := 'bit' | 'bits' '(' N ')' | enum_type | ALIAS ; name names a new enum */
static int parse_type(Reader *r, const YNode *n, const char *name, PeakType *out)
{
	if (n->kind != YN_SCALAR) {
		ynode_error(r->d, n, "expected a type such as bit, bits(16), enum { ... } or a type name");
		return 0;
	}
	TypeLexer t = { n->value, 0 };
	char word[128];
	skip_space(&t);
	int at = t.pos;
	lex_word(&t, word, sizeof word);
	int ok;
	if (strcmp(word, "bit") == 0) {
		*out = (PeakType){ 1, -1 };
		ok = 1;
	} else if (strcmp(word, "bits") == 0) {
		int w = 0;
		if (!lex_char(&t, '(')) {
			error_in(r, n, t.pos, "expected '(' after 'bits'");
			ok = 0;
		} else {
			ok = parse_width(r, n, &t, &w);
			if (ok && !lex_char(&t, ')')) {
				error_in(r, n, t.pos, "expected ')'");
				ok = 0;
			}
		}
		*out = (PeakType){ w, -1 };
	} else if (strcmp(word, "enum") == 0) {
		ok = parse_enum(r, n, &t, name, out);
	} else {
		intptr_t k;
		if (!*word) {
			error_in(r, n, at, "expected a type");
			return 0;
		}
		if (!strmap_get(&r->aliases, word, &k)) {
			error_in(r, n, at, "unknown type '%s'", word);
			return 0;
		}
		ok = resolve_alias(r, (int)k, out);
	}
	skip_space(&t);
	if (ok && t.s[t.pos]) {
		error_in(r, n, t.pos, "unexpected '%s' after the type", t.s + t.pos);
		ok = 0;
	}
	return ok;
}

static int resolve_alias(Reader *r, int k, PeakType *out)
{
	int *st = &r->alias_state.data[k];
	if (*st == 1) {
		ynode_error(r->d, r->alias_nodes.data[k], "type '%s' is defined in terms of itself",
			   r->aliases.keys[k]);
		*st = 3;
		return 0;
	}
	if (*st == 0) {
		*st = 1;
		PeakType t;
		int ok = parse_type(r, r->alias_nodes.data[k], r->aliases.keys[k], &t);
		st = &r->alias_state.data[k];
		*st = ok ? 2 : 3;
		r->alias_types.data[k] = t;
	}
	*out = r->alias_types.data[k];
	return *st == 2;
}

static void read_types(Reader *r, const YNode *types)
{
	if (!types || !ynode_expect(types, YN_MAP, "a mapping of type names to types", r->d))
		return;
	for (int i = 0; i < types->len; i++) {
		const YNode *k = types->keys[i];
		if (!util_is_identifier(k->value) || peak_is_builtin(k->value) ||
		    in_list(reserved_names, k->value) || strcmp(k->value, "bit") == 0 ||
		    strcmp(k->value, "bits") == 0 || strcmp(k->value, "enum") == 0) {
			ynode_error(r->d, k, "'%s' cannot be a type name", k->value);
			continue;
		}
		if (strmap_get(&r->aliases, k->value, NULL)) {
			ynode_error(r->d, k, "duplicate type '%s'", k->value);
			continue;
		}
		strmap_put(&r->aliases, k->value, r->alias_nodes.len);
		vec_push(&r->alias_nodes, types->vals[i]);
		vec_push(&r->alias_types, ((PeakType){ 0, -1 }));
		vec_push(&r->alias_state, 0);
	}
	for (int i = 0; i < types->len; i++) {
		intptr_t k;
		PeakType t;
		if (strmap_get(&r->aliases, types->keys[i]->value, &k))
			resolve_alias(r, (int)k, &t);
	}
}

/* ---- ports ---- */

/* Reads a mapping of names to types into class cls of s. */
static void read_ports(Reader *r, PeakSpec *s, int cls, const YNode *map, const char *what)
{
	if (!map)
		return;
	if (map->kind == YN_SCALAR && !*map->value)
		return; /* an empty value: no ports */
	if (!ynode_expect(map, YN_MAP, arena_printf(r->arena, "a mapping of %s names to types", what),
			  r->d))
		return;
	s->ports[cls] = arena_alloc(r->arena, (size_t)(map->len + 1) * sizeof(PeakPort));
	int offset = 0;
	for (int i = 0; i < map->len; i++) {
		const YNode *k = map->keys[i];
		if (!util_is_identifier(k->value)) {
			ynode_error(r->d, k, "'%s' is not a valid %s name", k->value, what);
			continue;
		}
		PeakPort p = { arena_strdup(r->arena, k->value), { 0, -1 }, offset, 0, k->line, k->col };
		if (!parse_type(r, map->vals[i], k->value, &p.type))
			continue;
		offset += p.type.width;
		s->ports[cls][s->nports[cls]++] = p;
	}
	if (cls == PEAK_FIELD)
		s->inst_width = offset;
}

/* Every name a behaviour can see must be unique and not reserved. */
static void check_names(Reader *r, PeakSpec *s)
{
	static const char *const class_names[] = { "an input", "a state variable",
						   "an instruction field", "a param", "an output" };
	StrMap seen;
	strmap_init(&seen);
	for (int cls = 0; cls < PEAK_NUM_CLASSES; cls++) {
		for (int i = 0; i < s->nports[cls]; i++) {
			PeakPort *p = &s->ports[cls][i];
			intptr_t prev;
			if (in_list(reserved_names, p->name) || peak_is_builtin(p->name)) {
				diag_error(r->d, s->file, p->line, p->col,
					   "'%s' is reserved and cannot name %s", p->name,
					   class_names[cls]);
			} else if (vw_is_keyword(p->name) || strncmp(p->name, "nf_", 3) == 0 ||
				   strncmp(p->name, "inst_", 5) == 0 || strcmp(p->name, "unused_ok") == 0) {
				diag_error(r->d, s->file, p->line, p->col,
					   "'%s' cannot name %s: it is a Verilog keyword or a name the "
					   "generated Verilog uses", p->name, class_names[cls]);
			} else if (cls != PEAK_FIELD && strmap_get(&r->aliases, p->name, NULL)) {
				diag_error(r->d, s->file, p->line, p->col,
					   "'%s' names both a type and %s", p->name, class_names[cls]);
			} else if (cls != PEAK_FIELD && strmap_get(&seen, p->name, &prev)) {
				const PeakPort *q = (const PeakPort *)prev;
				diag_error(r->d, s->file, p->line, p->col,
					   "duplicate name '%s' (first declared at line %d)", p->name,
					   q->line);
			} else if (cls != PEAK_FIELD) {
				strmap_put(&seen, p->name, (intptr_t)p);
			}
		}
	}
	strmap_free(&seen);
}

static void read_resets(Reader *r, PeakSpec *s, const YNode *map)
{
	if (!map || !ynode_expect(map, YN_MAP, "a mapping of state names to reset values", r->d))
		return;
	for (int i = 0; i < map->len; i++) {
		int k = peak_port_index(s, PEAK_STATE, map->keys[i]->value);
		if (k < 0) {
			ynode_error(r->d, map->keys[i], "unknown state variable '%s'", map->keys[i]->value);
			continue;
		}
		PeakPort *p = &s->ports[PEAK_STATE][k];
		const YNode *v = map->vals[i];
		int e = v->kind == YN_SCALAR ? bv_parse(v->value, p->type.width, &p->reset) : -1;
		if (e == -2)
			ynode_error(r->d, v, "reset value %s does not fit in %d bits", v->value,
				   p->type.width);
		else if (e)
			ynode_error(r->d, v, "expected a number as the reset value of '%s'", p->name);
	}
}

/* delay: { Member: ns, ... } over the members of the instruction's enums. */
static void read_delays(Reader *r, PeakSpec *s, const YNode *map)
{
	if (!map || !ynode_expect(map, YN_MAP, "a mapping of operation names to delays in ns", r->d))
		return;
	s->delays = arena_alloc(r->arena, (size_t)(map->len + 1) * sizeof(PeakDelay));
	for (int i = 0; i < map->len; i++) {
		const YNode *k = map->keys[i], *v = map->vals[i];
		PeakDelay dl = { arena_strdup(r->arena, k->value), -1, 0, 0 };
		int found = 0;
		for (int f = 0; f < s->nports[PEAK_FIELD]; f++) {
			int e = s->ports[PEAK_FIELD][f].type.enum_id;
			if (e < 0 || e == dl.enum_id)
				continue;
			int m = peak_enum_member(&s->enums[e], k->value);
			if (m >= 0) {
				found++;
				dl.enum_id = e;
				dl.code = s->enums[e].codes[m];
			}
		}
		if (!found) {
			ynode_error(r->d, k, "'%s' is not an operation of the instruction's enums",
				   k->value);
			continue;
		}
		if (found > 1) {
			ynode_error(r->d, k, "'%s' names members of several enums", k->value);
			continue;
		}
		if (yscalar_double(v, &dl.ns) != 0 || !(dl.ns >= 0 && dl.ns < 1e9)) {
			ynode_error(r->d, v, "expected a delay in ns (a non-negative number)");
			continue;
		}
		s->delays[s->ndelays++] = dl;
	}
}

static PeakSpec *new_spec(Reader *r, PeakSpecKind kind, const YNode *at)
{
	PeakSpec *s = arena_alloc(r->arena, sizeof *s);
	s->kind = kind;
	s->file = r->doc->file;
	s->line = at->line;
	s->col = at->col;
	nf_init(&s->g);
	return s;
}

/* Copies the file's enums and type names so far into s. */
static void attach_enums(Reader *r, PeakSpec *s)
{
	s->ntypes = r->aliases.len;
	s->type_names = arena_alloc(r->arena, (size_t)(s->ntypes + 1) * sizeof(char *));
	for (int i = 0; i < s->ntypes; i++)
		s->type_names[i] = arena_strdup(r->arena, r->aliases.keys[i]);
	s->nenums = r->enums.len;
	s->enums = arena_alloc(r->arena, (size_t)(r->enums.len + 1) * sizeof(PeakEnum));
	if (r->enums.len)
		memcpy(s->enums, r->enums.data, (size_t)r->enums.len * sizeof(PeakEnum));
}

static const char *read_name(Reader *r, const YNode *n, const char *what)
{
	if (!n || n->kind != YN_SCALAR || !util_is_identifier(n->value)) {
		if (n)
			ynode_error(r->d, n, "expected a %s name (letters, digits, '_')", what);
		return NULL;
	}
	if (strlen(n->value) > 200) {
		/* it names files and a Verilog module */
		ynode_error(r->d, n, "a %s name has at most 200 characters", what);
		return NULL;
	}
	return arena_strdup(r->arena, n->value);
}

static void lower_behavior(Reader *r, PeakSpec *s, const YNode *beh, const YNode *owner)
{
	if (!beh) {
		ynode_error(r->d, owner, "missing 'behavior'");
		return;
	}
	if (beh->kind != YN_SCALAR) {
		ynode_error(r->d, beh, "expected the behavior as text (a '|' block)");
		return;
	}
	Behavior *b = peak_parse_behavior(r->arena, r->doc, beh, r->d);
	if (b)
		peak_lower(s, b, r->arena, r->d);
}

static void require(Reader *r, const YNode *map, const char *key, const char *what)
{
	if (!ymap_get(map, key))
		ynode_error(r->d, map, "missing '%s' (%s)", key, what);
}

/* 1 for an empty mapping or an empty value (a missing one is reported apart). */
static int declares_nothing(const YNode *n)
{
	return n && ((n->kind == YN_MAP && n->len == 0) || (n->kind == YN_SCALAR && !*n->value));
}

static PeakSpec *read_pe(Reader *r, const YNode *root)
{
	static const char *const keys[] = { "pe", "types", "instruction", "inputs", "outputs",
					    "state", "reset", "delay", "behavior", NULL };
	ymap_check_keys(root, keys, "a PE spec", r->d);
	PeakSpec *s = new_spec(r, PEAK_PE, root);
	s->name = read_name(r, ymap_get(root, "pe"), "PE");
	if (s->name && (vw_is_keyword(s->name) || strcmp(s->name, "unused_ok") == 0))
		ynode_error(r->d, ymap_get(root, "pe"),
			   "'%s' cannot name a PE: it is a Verilog keyword (the PE becomes a module)",
			   s->name);
	require(r, root, "instruction", "the instruction's fields");
	require(r, root, "outputs", "at least one output");
	int before = diags_errors(r->d);
	read_types(r, ymap_get(root, "types"));
	read_ports(r, s, PEAK_FIELD, ymap_get(root, "instruction"), "instruction field");
	read_ports(r, s, PEAK_INPUT, ymap_get(root, "inputs"), "input");
	read_ports(r, s, PEAK_OUTPUT, ymap_get(root, "outputs"), "output");
	read_ports(r, s, PEAK_STATE, ymap_get(root, "state"), "state");
	attach_enums(r, s);
	check_names(r, s);
	if (declares_nothing(ymap_get(root, "instruction")))
		ynode_error(r->d, ymap_get(root, "instruction"), "the instruction needs at least one field");
	if (declares_nothing(ymap_get(root, "outputs")))
		ynode_error(r->d, ymap_get(root, "outputs"), "a PE needs at least one output");
	/* the behaviour is checked too unless its names are in doubt */
	int ports_ok = diags_errors(r->d) == before && s->nports[PEAK_FIELD] > 0 &&
		       s->nports[PEAK_OUTPUT] > 0;
	read_resets(r, s, ymap_get(root, "reset"));
	read_delays(r, s, ymap_get(root, "delay"));
	if (ports_ok)
		lower_behavior(r, s, ymap_get(root, "behavior"), root);
	return s;
}

static PeakSpec *read_ir_op(Reader *r, const YNode *op)
{
	static const char *const keys[] = { "name", "types", "params", "inputs", "outputs",
					    "behavior", NULL };
	if (!ynode_expect(op, YN_MAP, "an IR operation (a mapping)", r->d))
		return NULL;
	ymap_check_keys(op, keys, "an IR operation", r->d);
	PeakSpec *s = new_spec(r, PEAK_IR, op);
	s->name = read_name(r, ymap_get(op, "name"), "operation");
	if (!ymap_get(op, "name"))
		ynode_error(r->d, op, "missing 'name' of the IR operation");
	require(r, op, "outputs", "at least one output");
	int errors = diags_errors(r->d);
	/* an operation's own types are visible to it alone */
	int naliases = r->aliases.len, nenums = r->enums.len;
	read_types(r, ymap_get(op, "types"));
	read_ports(r, s, PEAK_PARAM, ymap_get(op, "params"), "param");
	read_ports(r, s, PEAK_INPUT, ymap_get(op, "inputs"), "input");
	read_ports(r, s, PEAK_OUTPUT, ymap_get(op, "outputs"), "output");
	attach_enums(r, s);
	check_names(r, s);
	if (diags_errors(r->d) == errors)
		lower_behavior(r, s, ymap_get(op, "behavior"), op);
	strmap_truncate(&r->aliases, naliases);
	r->alias_nodes.len = r->alias_types.len = r->alias_state.len = naliases;
	r->enums.len = nenums;
	return s;
}

static void read_ir(Reader *r, const YNode *root)
{
	static const char *const keys[] = { "ir", "types", NULL };
	ymap_check_keys(root, keys, "an IR file", r->d);
	read_types(r, ymap_get(root, "types"));
	const YNode *list = ymap_get(root, "ir");
	if (!ynode_expect(list, YN_SEQ, "a list of IR operations", r->d))
		return;
	if (list->len == 0) {
		ynode_error(r->d, list, "an IR file needs at least one operation");
		return;
	}
	PeakFile *f = r->file;
	f->specs = arena_alloc(r->arena, (size_t)(list->len + 1) * sizeof(PeakSpec *));
	StrMap names;
	strmap_init(&names);
	for (int i = 0; i < list->len; i++) {
		PeakSpec *s = read_ir_op(r, list->items[i]);
		if (!s)
			continue;
		intptr_t prev;
		if (s->name && strmap_get(&names, s->name, &prev))
			ynode_error(r->d, ymap_get(list->items[i], "name"),
				   "duplicate IR operation '%s' (first at line %d)", s->name,
				   f->specs[prev]->line);
		else if (s->name)
			strmap_put(&names, s->name, f->nspecs);
		f->specs[f->nspecs++] = s;
	}
	strmap_free(&names);
}

static void reader_free(Reader *r)
{
	strmap_free(&r->aliases);
	vec_free(&r->alias_nodes);
	vec_free(&r->alias_types);
	vec_free(&r->alias_state);
	vec_free(&r->enums);
}

void peak_file_free(PeakFile *f)
{
	if (!f)
		return;
	for (int i = 0; i < f->nspecs; i++)
		nf_free(&f->specs[i]->g);
	ydoc_free(f->doc);
	arena_free(f->arena);
	free(f);
}

/* A PE spec or an IR file, by its root's key. */
static void read_root(void *ctx, const YNode *root)
{
	Reader *r = ctx;
	PeakFile *f = r->file;
	r->doc = f->doc;
	if (ymap_get(root, "pe")) {
		f->specs = arena_alloc(f->arena, sizeof(PeakSpec *));
		f->specs[f->nspecs++] = read_pe(r, root);
	} else if (ymap_get(root, "ir")) {
		read_ir(r, root);
	} else {
		diag_error(r->d, r->doc->file, root->line, root->col,
			   "expected 'pe:' (a PE spec) or 'ir:' (IR operations)");
	}
}

static PeakFile *load(const char *path, const char *text, Diags *d)
{
	PeakFile *f = xcalloc(1, sizeof *f);
	f->arena = arena_new();
	Reader r = { .file = f, .arena = f->arena, .d = d };
	strmap_init(&r.aliases);
	int ok = ydoc_read(path, text, NULL, "a PE spec (a mapping with 'pe:') or an IR file ('ir:')", read_root,
			   &r, &f->doc, d);
	reader_free(&r);
	if (!ok) {
		peak_file_free(f);
		f = NULL;
	}
	diags_flush(d);
	return f;
}

PeakFile *peak_load(const char *path, Diags *d)
{
	return load(path, NULL, d);
}

PeakFile *peak_load_string(const char *name, const char *text, Diags *d)
{
	return load(name, text, d);
}

int peak_port_index(const PeakSpec *s, int cls, const char *name)
{
	for (int i = 0; i < s->nports[cls]; i++)
		if (strcmp(s->ports[cls][i].name, name) == 0)
			return i;
	return -1;
}

int peak_enum_member(const PeakEnum *e, const char *name)
{
	for (int i = 0; i < e->n; i++)
		if (strcmp(e->members[i], name) == 0)
			return i;
	return -1;
}

const char *peak_type_name(const PeakSpec *s, PeakType t, char *buf, int n)
{
	if (t.enum_id >= 0)
		snprintf(buf, (size_t)n, "%s", s->enums[t.enum_id].name);
	else if (t.width == 1)
		snprintf(buf, (size_t)n, "bit");
	else
		snprintf(buf, (size_t)n, "bits(%d)", t.width);
	return buf;
}
