/* test_peinfo.c - unit tests of the PE collateral reader (peinfo.h): a tiny
 * PE's instruction layout and rules read, rules found by IR operation,
 * constants encoded, registered inputs; and each broken info or rules file
 * (among them enum codes too large, negative or repeated, and Verilog
 * keywords as names) giving exactly its error at its position.
 *
 * Each test is a function run by main (check.h); the last line is
 * "peinfo: N passed, M failed"; the exit status is 1 if anything failed. */

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../../common/tests/check.h"
#include "../../common/tests/fixtures.h"
#include "../peinfo.h"
#include "../../common/diag.h"
#include "../../common/util.h"

/* ---- PE collateral: instruction layout and rules ---- */

static const char pe_info[] = "pe: tiny\n"
			      "instruction:\n"
			      "  width: 10\n"
			      "  fields:\n"
			      "    - { name: op, width: 2, type: Opcode, offset: 0 }\n"
			      "    - { name: k, width: 8, offset: 2 }\n"
			      "enums:\n"
			      "  Opcode: { width: 2, values: { Add: 0, And: 1, Pass: 2 } }\n"
			      "inputs:\n"
			      "  - { name: A, width: 8 }\n"
			      "outputs:\n"
			      "  - { name: res, width: 8 }\n";

static const char pe_rules[] = "pe: tiny\n"
			       "instruction_width: 10\n"
			       "rules:\n"
			       "  - ir: add_const\n"
			       "    pattern: \"add(a, const(k))\"\n"
			       "    size: 2\n"
			       "    cost: 0.5\n"
			       "    instruction: { op: Add, k: $k }\n"
			       "    word: 0x000\n"
			       "    inputs: { a: A }\n"
			       "    params: { k: k }\n"
			       "    outputs: { out: res }\n"
			       "    proof: { status: proved, solver: z3, cegis_rounds: 1 }\n"
			       "  - ir: const\n"
			       "    pattern: const(k)\n"
			       "    size: 1\n"
			       "    cost: 0.1\n"
			       "    instruction: { op: Pass, k: $k }\n"
			       "    word: 0x002\n"
			       "    inputs: {}\n"
			       "    params: { k: k }\n"
			       "    outputs: { out: res }\n"
			       "    proof: { status: proved, solver: z3, cegis_rounds: 1 }\n";

/* text with the first occurrence of from replaced by to (new string) */
static char *replace1(const char *text, const char *from, const char *to)
{
	const char *at = strstr(text, from);
	if (!at)
		return xstrdup(text);
	return xasprintf("%.*s%s%s", (int)(at - text), text, to, at + strlen(from));
}

static void test_peinfo_read(void)
{
	Diags *d = diags_new(NULL);
	PeInfo *p = peinfo_load_string("tiny.info.yaml", pe_info, "tiny.rules.yaml", pe_rules, d);
	CHECK(p != NULL && diags_errors(d) == 0, "the tiny PE's info and rules read (%d errors)", diags_errors(d));
	if (p) {
		CHECK(p->inst_width == 10 && p->nfields == 2 && p->fields[1].offset == 2 && p->fields[0].type == 0,
		      "fields and their enum");
		CHECK(p->nrules == 2 && peinfo_rule(p, "const") == &p->rules[1] && !peinfo_rule(p, "mul"),
		      "rules found by IR operation");
		const PeRule *r = peinfo_rule(p, "const");
		CHECK(r->nparams == 1 && r->params[0].index == 1 && r->noutputs == 1 && r->outputs[0].index == 0 &&
		      r->proved && r->line == 14 && r->col == 5,
		      "the const rule binds k to field k and out to res, at its position");
		uint64_t word[1], k = 0x5a;
		CHECK(peinfo_encode(p, r, &k, word) && word[0] == (0x5aull << 2 | 2), "const(0x5a) encodes to %llx",
		      U64(word[0]));
		k = 0x100;
		CHECK(!peinfo_encode(p, r, &k, word), "a constant wider than its field is refused");
		CHECK(peinfo_input(p, "A") == 0 && peinfo_output(p, "res") == 0 && peinfo_field(p, "z") == -1,
		      "ports and fields by name");
		r = peinfo_rule(p, "add_const");
		CHECK(r->registered && r->registered[0].nsets == 0 && !peinfo_register_input(p, r, 0, word),
		      "a rule without registered: reads its inputs directly");
	}
	peinfo_free(p);
	diags_free(d);
	/* registered: the fields that make the PE read an input one cycle late */
	char *rules = replace1(pe_rules, "inputs: { a: A }", "inputs: { a: A }\n    registered: { a: { op: Pass } }");
	d = diags_new(NULL);
	p = peinfo_load_string("tiny.info.yaml", pe_info, "tiny.rules.yaml", rules, d);
	CHECK(p != NULL && diags_errors(d) == 0, "a rule with a registered input reads (%d errors)", diags_errors(d));
	if (p) {
		const PeRule *r = peinfo_rule(p, "add_const");
		uint64_t word[1], k = 0x5a;
		CHECK(r->registered[0].nsets == 1 && r->registered[0].sets[0].field == 0 &&
		      r->registered[0].sets[0].value == 2,
		      "input a is registered by op = Pass");
		CHECK(peinfo_encode(p, r, &k, word) && peinfo_register_input(p, r, 0, word) &&
		      word[0] == (0x5aull << 2 | 2),
		      "the registered instruction keeps the constant and sets op (%llx)", U64(word[0]));
	}
	peinfo_free(p);
	diags_free(d);
	free(rules);
}

/* Each broken file gives exactly this error at this position. */
static void test_peinfo_errors(void)
{
	static const struct {
		int rules;              /* 1: the change is in the rules file */
		const char *from, *to, *msg;
		int line, col;
	} cases[] = {
		{ 1, "word: 0x002", "word: 0x003", "the word differs from the instruction's fields", 19, 11 },
		{ 1, "{ op: Pass, k: $k }", "{ op: Pass, k: $k, z: 1 }", "no instruction field 'z'", 18, 37 },
		{ 1, "{ op: Pass, k: $k }", "{ k: $k }", "the instruction does not set field 'op'", 18, 18 },
		{ 1, "{ op: Pass, k: $k }", "{ op: Sub, k: $k }", "'Sub' is not a member of the field's enum", 18, 24 },
		{ 1, "k: $k }\n    word: 0x000\n    inputs: { a: A }\n    params: { k: k }",
		  "k: 256 }\n    word: 0x000\n    inputs: { a: A }\n    params: {}", "'256' is not a number that fits the field", 8, 32 },
		{ 1, "{ op: Pass, k: $k }", "{ op: Pass, k: 0 }", "param 'k' is not written $<param> in its field", 21, 13 },
		{ 1, "params: { k: k }\n    outputs: { out: res }\n    proof: { status: proved, solver: z3, cegis_rounds: 1 }\n  - ir: const",
		  "params: {}\n    outputs: { out: res }\n    proof: { status: proved, solver: z3, cegis_rounds: 1 }\n  - ir: const",
		  "'$k' is not bound to its field in params", 8, 18 },
		{ 1, "inputs: { a: A }", "inputs: { a: B }", "no PE input 'B'", 10, 18 },
		{ 1, "outputs: { out: res }", "outputs: { out: flag }", "no PE output 'flag'", 12, 21 },
		{ 1, "pe: tiny\n", "pe: other\n", "the rules are for PE 'other', not for the PE of the info file", 1, 5 },
		{ 1, "instruction_width: 10", "instruction_width: 11", "the instruction width differs from the info file's", 2, 20 },
		{ 1, "    cost: 0.1\n", "    cost: -1\n", "the cost is a delay in ns from 0 to 100, not '-1'", 17, 11 },
		{ 1, "    cost: 0.1\n", "    cost: nan\n", "the cost is a delay in ns from 0 to 100, not 'nan'", 17, 11 },
		{ 1, "    cost: 0.1\n", "    cost: inf\n", "the cost is a delay in ns from 0 to 100, not 'inf'", 17, 11 },
		{ 1, "    cost: 0.1\n", "    cost: 1e308\n", "the cost is a delay in ns from 0 to 100, not '1e308'", 17, 11 },
		{ 1, "    size: 1\n", "    sise: 1\n", "unknown key 'sise'", 16, 5 },
		{ 1, "inputs: { a: A }", "inputs: { a: A }\n    registered: { b: { op: And } }",
		  "'b' is not an input bound in the rule's inputs", 11, 19 },
		{ 1, "inputs: { a: A }", "inputs: { a: A }\n    registered: { a: { z: 1 } }", "no instruction field 'z'", 11, 24 },
		{ 1, "inputs: { a: A }", "inputs: { a: A }\n    registered: { a: { k: 1 } }",
		  "field 'k' holds a param of the rule", 11, 24 },
		{ 1, "inputs: { a: A }", "inputs: { a: A }\n    registered: { a: { op: Sub } }",
		  "'Sub' is not a member of the field's enum", 11, 28 },
		{ 1, "inputs: { a: A }", "inputs: { a: A }\n    registered: { a: {} }", "input 'a' is registered by no field",
		  11, 22 },
		{ 1, "inputs: { a: A }", "inputs: { a: A }\n    registered: [ a ]",
		  "expected a mapping of IR inputs to { field: value }", 11, 17 },
		{ 0, "name: k, width: 8, offset: 2", "name: k, width: 8, offset: 3", "fields are packed LSB-first in order: field 'k' is at the wrong offset", 6, 36 },
		{ 0, "type: Opcode", "type: Op", "unknown enum type 'Op'", 5, 35 },
		{ 0, "width: 10", "width: 12", "the fields do not add up to the instruction width", 3, 10 },
		{ 0, "Pass: 2", "Pass: 4", "the code of member 'Pass' does not fit the enum's width", 8, 55 },
		{ 0, "  - { name: res, width: 8 }", "  - { name: A, width: 8 }", "a second port 'A'", 12, 5 },
		{ 0, "Pass: 2", "Pass: 9223372036854775808", "the code of member 'Pass' does not fit the enum's width", 8, 55 },
		{ 0, "Pass: 2", "Pass: -2", "the code of member 'Pass' does not fit the enum's width", 8, 55 },
		{ 0, "Pass: 2", "Pass: 0", "members 'Add' and 'Pass' of enum 'Opcode' have the same code", 8, 55 },
		{ 0, "name: A, width: 8", "name: always, width: 8",
		  "'always' is a Verilog keyword, not a name the PE's module can use", 10, 13 },
		{ 0, "pe: tiny", "pe: module", "'module' is a Verilog keyword, not a name the PE's module can use", 1, 5 },
	};
	for (int i = 0; i < COUNT(cases); i++) {
		char *info = replace1(pe_info, cases[i].rules ? "\x01" : cases[i].from, cases[i].to);
		char *rules = replace1(pe_rules, cases[i].rules ? cases[i].from : "\x01", cases[i].to);
		Diags *d = diags_new(NULL);
		PeInfo *p = peinfo_load_string("tiny.info.yaml", info, "tiny.rules.yaml", rules, d);
		const Diag *g = diags_errors(d) ? diags_get(d, 0) : NULL;
		CHECK(!p && diags_errors(d) == 1 && g && strstr(g->msg, cases[i].msg) && g->line == cases[i].line &&
		      g->col == cases[i].col,
		      "case %d: expected '%s' at %d:%d, got %d errors, first '%s' at %d:%d", i, cases[i].msg,
		      cases[i].line, cases[i].col, diags_errors(d), g ? g->msg : "", g ? g->line : 0, g ? g->col : 0);
		peinfo_free(p);
		diags_free(d);
		free(info);
		free(rules);
	}
}

static const TestCase tests[] = {
	{ "peinfo_read", test_peinfo_read },
	{ "peinfo_errors", test_peinfo_errors },
};

int main(void)
{
	return check_run("peinfo", tests, COUNT(tests));
}
