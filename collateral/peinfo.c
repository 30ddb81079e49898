/* peinfo.c - readers of a PE's info and rules files (see peinfo.h). Each
 * reader reports every problem it finds at the node's position and goes on
 * with the next item, so that one run lists all the errors of a file. */
#include "peinfo.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../common/bv.h"
#include "../common/vwrite.h"
#include "../common/yamlr.h"

typedef struct Reader {
	PeInfo *p;
	Diags *d;
	int ok;
} Reader;

static int fail(Reader *r, const YNode *n, const char *fmt, const char *arg)
{
	ynode_error(r->d, n, fmt, arg);
	r->ok = 0;
	return 0;
}

/* The value of key in map, of kind k; reports its absence or kind. */
static const YNode *need(Reader *r, const YNode *map, const char *key, YNodeKind k, const char *what)
{
	const YNode *n = ymap_get(map, key);
	if (!n) {
		fail(r, map, "missing '%s'", key);
		return NULL;
	}
	if (!ynode_expect(n, k, what, r->d)) {
		r->ok = 0;
		return NULL;
	}
	return n;
}

static const char *need_name(Reader *r, const YNode *map, const char *key)
{
	const YNode *n = need(r, map, key, YN_SCALAR, "a name");
	if (n && !util_is_identifier(n->value)) {
		fail(r, n, "'%s' is not a name", n->value);
		return NULL;
	}
	return n ? arena_strdup(r->p->arena, n->value) : NULL;
}

/* A name the PE's Verilog module has (its own, a port's): one that is no
 * Verilog keyword. */
static const char *need_verilog_name(Reader *r, const YNode *map, const char *key)
{
	const char *name = need_name(r, map, key);
	if (name && vw_is_keyword(name)) {
		fail(r, ymap_get(map, key), "'%s' is a Verilog keyword, not a name the PE's module can use", name);
		return NULL;
	}
	return name;
}

static int need_int(Reader *r, const YNode *map, const char *key, long lo, long hi, int *out)
{
	const YNode *n = need(r, map, key, YN_SCALAR, "a number");
	if (!n)
		return 0;
	if (!yread_int(r->d, n, key, lo, hi, 0, out)) {
		r->ok = 0;
		return 0;
	}
	return 1;
}

/* ---- <pe>.info.yaml ---- */

static int find_enum(const PeInfo *p, const char *name)
{
	for (int i = 0; i < p->nenums; i++)
		if (strcmp(p->enums[i].name, name) == 0)
			return i;
	return -1;
}

static void read_enum(Reader *r, const YNode *key, const YNode *val, PeEnum *e)
{
	const YNode *values;
	e->name = arena_strdup(r->p->arena, key->value);
	if (!util_is_identifier(e->name))
		fail(r, key, "'%s' is not a name", e->name);
	if (!ynode_expect(val, YN_MAP, "an enum: { width, values }", r->d) ||
	    !need_int(r, val, "width", 1, 64, &e->width) ||
	    !(values = need(r, val, "values", YN_MAP, "a mapping of members to codes"))) {
		r->ok = 0;
		return;
	}
	e->members = arena_alloc(r->p->arena, (size_t)(values->len + 1) * sizeof(PeEnumMember));
	for (int i = 0; i < values->len; i++) {
		PeEnumMember *m = &e->members[e->nmembers];
		const YNode *code = values->vals[i];
		m->name = arena_strdup(r->p->arena, values->keys[i]->value);
		if (!util_is_identifier(m->name)) {
			fail(r, values->keys[i], "'%s' is not a name", m->name);
			continue;
		}
		/* a code is written as an unsigned number (bv_parse would also take
		 * a negative one, in two's complement) */
		if (!ynode_expect(code, YN_SCALAR, "a code", r->d) || code->value[0] == '-' ||
		    bv_parse(code->value, e->width, &m->code) != 0) {
			fail(r, code, "the code of member '%s' does not fit the enum's width", m->name);
			continue;
		}
		for (int k = 0; k < e->nmembers; k++)
			if (e->members[k].code == m->code) {
				ynode_error(r->d, code, "members '%s' and '%s' of enum '%s' have the same code",
					    e->members[k].name, m->name, e->name);
				r->ok = 0;
				break;
			}
		e->nmembers++;
	}
}

static void read_enums(Reader *r, const YNode *root)
{
	const YNode *enums = ymap_get(root, "enums");
	if (!enums)
		return;
	if (!ynode_expect(enums, YN_MAP, "a mapping of enum types", r->d)) {
		r->ok = 0;
		return;
	}
	r->p->enums = arena_alloc(r->p->arena, (size_t)(enums->len + 1) * sizeof(PeEnum));
	for (int i = 0; i < enums->len; i++)
		read_enum(r, enums->keys[i], enums->vals[i], &r->p->enums[r->p->nenums++]);
}

static void read_field(Reader *r, const YNode *n, int *next)
{
	PeInfo *p = r->p;
	PeInstField *f = &p->fields[p->nfields];
	const YNode *type = ymap_get(n, "type");
	if (!ynode_expect(n, YN_MAP, "a field: { name, width, type, offset }", r->d)) {
		r->ok = 0;
		return;
	}
	f->name = need_name(r, n, "name");
	if (!f->name || !need_int(r, n, "width", 1, 64, &f->width) ||
	    !need_int(r, n, "offset", 0, PE_MAX_INST_WIDTH, &f->offset)) {
		*next = -1;     /* where the next field starts is unknown: not checked */
		return;
	}
	if (peinfo_field(p, f->name) >= 0)
		fail(r, n, "a second field '%s'", f->name);
	if (*next >= 0 && f->offset != *next)
		fail(r, ymap_get(n, "offset"), "fields are packed LSB-first in order: field '%s' is at the wrong offset",
		     f->name);
	f->type = -1;
	if (type && (f->type = find_enum(p, type->value)) < 0)
		fail(r, type, "unknown enum type '%s'", type->value);
	else if (type && p->enums[f->type].width != f->width)
		fail(r, type, "enum '%s' is not as wide as its field", type->value);
	*next = f->offset + f->width;
	p->nfields++;
}

static void read_fields(Reader *r, const YNode *root)
{
	const YNode *inst = need(r, root, "instruction", YN_MAP, "the instruction: { width, fields }");
	const YNode *fields = inst ? need(r, inst, "fields", YN_SEQ, "a list of fields") : NULL;
	if (!fields || !need_int(r, inst, "width", 1, PE_MAX_INST_WIDTH, &r->p->inst_width))
		return;
	int next = 0;
	r->p->fields = arena_alloc(r->p->arena, (size_t)(fields->len + 1) * sizeof(PeInstField));
	for (int i = 0; i < fields->len; i++)
		read_field(r, fields->items[i], &next);
	if (r->ok && next != r->p->inst_width)
		fail(r, ymap_get(inst, "width"), "the fields do not add up to the instruction width%s", "");
}

static void read_ports(Reader *r, const YNode *root, const char *key, PePort **out, int *n)
{
	const YNode *list = need(r, root, key, YN_SEQ, "a list of ports { name, width }");
	if (!list)
		return;
	*out = arena_alloc(r->p->arena, (size_t)(list->len + 1) * sizeof(PePort));
	for (int i = 0; i < list->len; i++) {
		PePort *port = &(*out)[*n];
		if (!ynode_expect(list->items[i], YN_MAP, "a port { name, width }", r->d)) {
			r->ok = 0;
			continue;
		}
		port->name = need_verilog_name(r, list->items[i], "name");
		if (!port->name || !need_int(r, list->items[i], "width", 1, 64, &port->width))
			continue;
		if (peinfo_input(r->p, port->name) >= 0 || peinfo_output(r->p, port->name) >= 0) {
			fail(r, list->items[i], "a second port '%s'", port->name);
			continue;
		}
		(*n)++;
	}
}

static void read_info(Reader *r, const YDoc *doc)
{
	const YNode *root = doc->root;
	if (!root || root->kind != YN_MAP || !ymap_get(root, "pe")) {
		diag_error(r->d, doc->file, 1, 1, "expected a PE info file (pe: ..., peak/COLLATERAL.md)");
		r->ok = 0;
		return;
	}
	r->p->name = need_verilog_name(r, root, "pe");
	read_enums(r, root);
	read_fields(r, root);
	read_ports(r, root, "inputs", &r->p->inputs, &r->p->ninputs);
	read_ports(r, root, "outputs", &r->p->outputs, &r->p->noutputs);
}

/* ---- <pe>.rules.yaml ---- */

/* The value v written for field fi: an enum member or a number that fits. */
static int field_value(Reader *r, int fi, const YNode *v, uint64_t *value)
{
	const PeInstField *f = &r->p->fields[fi];
	*value = 0;
	if (f->type >= 0) {
		const PeEnum *e = &r->p->enums[f->type];
		for (int m = 0; m < e->nmembers; m++)
			if (strcmp(e->members[m].name, v->value) == 0) {
				*value = e->members[m].code;
				return 1;
			}
		return fail(r, v, "'%s' is not a member of the field's enum", v->value);
	}
	if (bv_parse(v->value, f->width, value) != 0)
		return fail(r, v, "'%s' is not a number that fits the field", v->value);
	return 1;
}

/* A rule's instruction: every field once, each an enum member, a number or
 * $param; sets the word and, per field, the param named there (or NULL). */
static void read_instruction(Reader *r, const YNode *inst, PeRule *rule, const char **param_at)
{
	const PeInfo *p = r->p;
	char *seen = arena_alloc(p->arena, (size_t)p->nfields + 1);
	for (int i = 0; i < inst->len; i++) {
		const YNode *k = inst->keys[i], *v = inst->vals[i];
		int fi = peinfo_field(p, k->value);
		if (fi < 0) {
			fail(r, k, "no instruction field '%s'", k->value);
			continue;
		}
		seen[fi] = 1;
		const PeInstField *f = &p->fields[fi];
		uint64_t value = 0;
		if (!ynode_expect(v, YN_SCALAR, "a field value", r->d))
			r->ok = 0;
		else if (v->value[0] == '$')
			param_at[fi] = v->value + 1;
		else
			field_value(r, fi, v, &value);
		bits_set(rule->word, f->offset, f->width, value);
	}
	for (int fi = 0; fi < p->nfields; fi++)
		if (!seen[fi])
			fail(r, inst, "the instruction does not set field '%s'", p->fields[fi].name);
}

/* inputs / outputs / params: { IR name: PE port or field }. */
static PeBinding *read_bindings(Reader *r, const YNode *rule, const char *key, int *n,
				int (*lookup)(const PeInfo *, const char *), const char *what)
{
	const YNode *map = need(r, rule, key, YN_MAP, "a mapping of IR names");
	*n = 0;
	if (!map)
		return NULL;
	PeBinding *b = arena_alloc(r->p->arena, (size_t)(map->len + 1) * sizeof(PeBinding));
	for (int i = 0; i < map->len; i++) {
		const YNode *v = map->vals[i];
		int idx = v->kind == YN_SCALAR ? lookup(r->p, v->value) : -1;
		if (idx < 0) {
			fail(r, v, what, v->kind == YN_SCALAR ? v->value : "?");
			continue;
		}
		b[(*n)++] = (PeBinding){ arena_strdup(r->p->arena, map->keys[i]->value), idx };
	}
	return b;
}

/* Every $param of the instruction is bound to its field, and back. */
static void check_params(Reader *r, const YNode *node, const PeRule *rule, const char **param_at)
{
	for (int i = 0; i < rule->nparams; i++) {
		const char *at = param_at[rule->params[i].index];
		if (!at || strcmp(at, rule->params[i].ir) != 0)
			fail(r, ymap_get(node, "params"), "param '%s' is not written $<param> in its field", rule->params[i].ir);
	}
	for (int fi = 0; fi < r->p->nfields; fi++) {
		int bound = 0;
		for (int i = 0; param_at[fi] && i < rule->nparams; i++)
			bound |= rule->params[i].index == fi;
		if (param_at[fi] && !bound)
			fail(r, ymap_get(node, "instruction"), "'$%s' is not bound to its field in params", param_at[fi]);
	}
}

/* registered: { IR input: { field: value ... } }: the changes that make the
 * PE read a bound input through its input register. Optional (none). */
static void read_registered(Reader *r, const YNode *node, PeRule *rule, const char **param_at)
{
	const YNode *map = ymap_get(node, "registered");
	rule->registered = arena_alloc(r->p->arena, (size_t)(rule->ninputs + 1) * sizeof(PeRegistered));
	if (!map)
		return;
	if (!ynode_expect(map, YN_MAP, "a mapping of IR inputs to { field: value }", r->d)) {
		r->ok = 0;
		return;
	}
	for (int i = 0; i < map->len; i++) {
		const YNode *k = map->keys[i], *sets = map->vals[i];
		int in = 0;
		while (in < rule->ninputs && strcmp(rule->inputs[in].ir, k->value) != 0)
			in++;
		if (in == rule->ninputs) {
			fail(r, k, "'%s' is not an input bound in the rule's inputs", k->value);
			continue;
		}
		PeRegistered *reg = &rule->registered[in];
		if (reg->nsets) {
			fail(r, k, "input '%s' is registered twice", k->value);
			continue;
		}
		if (!ynode_expect(sets, YN_MAP, "a mapping of instruction fields to values", r->d) || !sets->len) {
			if (sets->kind == YN_MAP)
				fail(r, sets, "input '%s' is registered by no field", k->value);
			r->ok = 0;
			continue;
		}
		reg->sets = arena_alloc(r->p->arena, (size_t)sets->len * sizeof(PeSetting));
		for (int j = 0; j < sets->len; j++) {
			const YNode *fk = sets->keys[j], *v = sets->vals[j];
			int fi = peinfo_field(r->p, fk->value);
			uint64_t value;
			if (fi < 0)
				fail(r, fk, "no instruction field '%s'", fk->value);
			else if (param_at[fi])
				fail(r, fk, "field '%s' holds a param of the rule", fk->value);
			else if (!ynode_expect(v, YN_SCALAR, "a field value", r->d))
				r->ok = 0;
			else if (field_value(r, fi, v, &value))
				reg->sets[reg->nsets++] = (PeSetting){ fi, value };
		}
	}
}

static void check_word(Reader *r, const YNode *node, const PeRule *rule)
{
	int nw = BITS_WORDS(r->p->inst_width);
	const YNode *word = need(r, node, "word", YN_SCALAR, "the packed instruction in hex");
	uint64_t *given = arena_alloc(r->p->arena, (size_t)nw * sizeof(uint64_t));
	if (!word)
		return;
	if (bits_parse_hex(word->value, given, r->p->inst_width) != 0)
		fail(r, word, "'%s' is not an instruction word in hex", word->value);
	else if (r->ok && memcmp(given, rule->word, (size_t)nw * sizeof(uint64_t)) != 0)
		fail(r, word, "the word differs from the instruction's fields%s", "");
}

static void read_rule(Reader *r, const YNode *n, PeRule *rule)
{
	static const char *const keys[] = { "ir", "pattern", "size", "cost", "instruction", "word", "inputs",
					    "registered", "params", "outputs", "proof", NULL };
	const PeInfo *p = r->p;
	const YNode *inst, *proof, *cost, *pattern;
	rule->line = n->line;
	rule->col = n->col;
	rule->word = arena_alloc(p->arena, (size_t)BITS_WORDS(p->inst_width) * sizeof(uint64_t));
	if (!ynode_expect(n, YN_MAP, "a rule", r->d) || ymap_check_keys(n, keys, "a rule", r->d)) {
		r->ok = 0;
		return;
	}
	rule->ir = need_name(r, n, "ir");
	pattern = need(r, n, "pattern", YN_SCALAR, "the rule's pattern");
	rule->pattern = pattern ? arena_strdup(p->arena, pattern->value) : "";
	need_int(r, n, "size", 1, 1 << 20, &rule->size);
	if ((cost = need(r, n, "cost", YN_SCALAR, "a delay in ns")) &&
	    (yscalar_double(cost, &rule->cost) || !isfinite(rule->cost) || rule->cost < 0 || rule->cost > PE_MAX_COST))
		fail(r, cost, "the cost is a delay in ns from 0 to 100, not '%s'", cost->value);
	rule->inputs = read_bindings(r, n, "inputs", &rule->ninputs, peinfo_input, "no PE input '%s'");
	rule->params = read_bindings(r, n, "params", &rule->nparams, peinfo_field, "no instruction field '%s'");
	rule->outputs = read_bindings(r, n, "outputs", &rule->noutputs, peinfo_output, "no PE output '%s'");
	const char **param_at = arena_alloc(p->arena, (size_t)(p->nfields + 1) * sizeof(char *));
	if ((inst = need(r, n, "instruction", YN_MAP, "a mapping of every field to its value"))) {
		read_instruction(r, inst, rule, param_at);
		check_params(r, n, rule, param_at);
	}
	read_registered(r, n, rule, param_at);
	check_word(r, n, rule);
	if ((proof = need(r, n, "proof", YN_MAP, "the proof: { status, ... }")) && ymap_get(proof, "status"))
		rule->proved = strcmp(ymap_get(proof, "status")->value, "proved") == 0;
	else if (proof)
		fail(r, proof, "the proof has no status%s", "");
}

/* unsupported: [ { ir: NAME, reason: ... } ]: the IR operations without a rule. */
static void read_unsupported(Reader *r, const YNode *root)
{
	const YNode *list = ymap_get(root, "unsupported");
	if (!list)
		return;
	if (!ynode_expect(list, YN_SEQ, "a list of unsupported IR operations", r->d)) {
		r->ok = 0;
		return;
	}
	r->p->unsupported = arena_alloc(r->p->arena, (size_t)(list->len + 1) * sizeof(char *));
	for (int i = 0; i < list->len; i++) {
		const YNode *ir = ymap_get(list->items[i], "ir");
		if (!ir || ir->kind != YN_SCALAR) {
			fail(r, list->items[i], "expected { ir: NAME, reason: ... }%s", "");
			continue;
		}
		r->p->unsupported[r->p->nunsupported++] = arena_strdup(r->p->arena, ir->value);
	}
}

static void read_rules(Reader *r, const YDoc *doc)
{
	const YNode *root = doc->root, *list, *pe;
	int width;
	if (!root || root->kind != YN_MAP || !(pe = ymap_get(root, "pe"))) {
		diag_error(r->d, doc->file, 1, 1, "expected a PE rules file (pe: ..., peak/COLLATERAL.md)");
		r->ok = 0;
		return;
	}
	if (r->p->name && strcmp(pe->value, r->p->name) != 0)
		fail(r, pe, "the rules are for PE '%s', not for the PE of the info file", pe->value);
	if (need_int(r, root, "instruction_width", 1, PE_MAX_INST_WIDTH, &width) && width != r->p->inst_width)
		fail(r, ymap_get(root, "instruction_width"), "the instruction width differs from the info file's%s", "");
	if (!r->ok || !(list = need(r, root, "rules", YN_SEQ, "a list of rules")))
		return;
	r->p->rules = arena_alloc(r->p->arena, (size_t)(list->len + 1) * sizeof(PeRule));
	for (int i = 0; i < list->len; i++)
		read_rule(r, list->items[i], &r->p->rules[r->p->nrules++]);
	read_unsupported(r, root);
}

/* ---- loading ---- */

PeInfo *peinfo_read_info(const YDoc *info, Diags *d)
{
	Arena *a = arena_new();
	Reader r = { arena_alloc(a, sizeof(PeInfo)), d, 1 };
	r.p->arena = a;
	read_info(&r, info);
	if (!r.ok) {
		peinfo_free(r.p);
		return NULL;
	}
	return r.p;
}

PeInfo *peinfo_load_string(const char *info_name, const char *info_text, const char *rules_name,
			   const char *rules_text, Diags *d)
{
	Arena *a = arena_new();
	Reader r = { arena_alloc(a, sizeof(PeInfo)), d, 1 };
	r.p->arena = a;
	YDoc *info = ydoc_load_string(info_name, info_text, d);
	if (!info)
		r.ok = 0;
	else
		read_info(&r, info);
	diags_flush(d);
	if (r.ok && rules_text) {
		YDoc *rules = ydoc_load_string(rules_name, rules_text, d);
		if (!rules)
			r.ok = 0;
		else
			read_rules(&r, rules);
		ydoc_free(rules);
		diags_flush(d);
	}
	ydoc_free(info);
	if (!r.ok) {
		peinfo_free(r.p);
		return NULL;
	}
	return r.p;
}

PeInfo *peinfo_load(const char *info_path, const char *rules_path, Diags *d)
{
	char *info = util_read_file(info_path, NULL);
	int err = errno;
	char *rules = info && rules_path ? util_read_file(rules_path, NULL) : NULL;
	if (info && rules_path && !rules)
		err = errno;
	PeInfo *p = NULL;
	if (!info || (rules_path && !rules))
		diag_error(d, NULL, 0, 0, "cannot read '%s': %s", !info ? info_path : rules_path, util_read_why(err));
	else
		p = peinfo_load_string(info_path, info, rules_path, rules, d);
	free(info);
	free(rules);
	return p;
}

void peinfo_free(PeInfo *p)
{
	if (p)
		arena_free(p->arena);
}

int peinfo_field(const PeInfo *p, const char *name)
{
	for (int i = 0; i < p->nfields; i++)
		if (strcmp(p->fields[i].name, name) == 0)
			return i;
	return -1;
}

int peinfo_input(const PeInfo *p, const char *name)
{
	for (int i = 0; i < p->ninputs; i++)
		if (strcmp(p->inputs[i].name, name) == 0)
			return i;
	return -1;
}

int peinfo_output(const PeInfo *p, const char *name)
{
	for (int i = 0; i < p->noutputs; i++)
		if (strcmp(p->outputs[i].name, name) == 0)
			return i;
	return -1;
}

const PeRule *peinfo_rule(const PeInfo *p, const char *ir)
{
	for (int i = 0; i < p->nrules; i++)
		if (strcmp(p->rules[i].ir, ir) == 0)
			return &p->rules[i];
	return NULL;
}

int peinfo_encode(const PeInfo *p, const PeRule *r, const uint64_t *params, uint64_t *word)
{
	memcpy(word, r->word, (size_t)BITS_WORDS(p->inst_width) * sizeof(uint64_t));
	for (int i = 0; i < r->nparams; i++) {
		const PeInstField *f = &p->fields[r->params[i].index];
		if (params[i] & ~bv_mask(f->width))
			return 0;
		bits_set(word, f->offset, f->width, params[i]);
	}
	return 1;
}

int peinfo_register_input(const PeInfo *p, const PeRule *r, int k, uint64_t *word)
{
	const PeRegistered *reg = &r->registered[k];
	for (int i = 0; i < reg->nsets; i++) {
		const PeInstField *f = &p->fields[reg->sets[i].field];
		bits_set(word, f->offset, f->width, reg->sets[i].value);
	}
	return reg->nsets > 0;
}
