/* test_penf.c - unit tests of the normal-form reader (penf.h) and of the
 * operations it shares with peak (nfops.h): a tiny PE's hand-written `.nf`
 * read and executed node by node with nf_op_apply, as a simulator would; and
 * each broken file giving exactly its error at its position, and two errors
 * of one file both reported.
 *
 * Each test is a function run by main (check.h); the last line is
 * "penf: N passed, M failed"; the exit status is 1 if anything failed. */

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../../common/diag.h"
#include "../../common/tests/check.h"
#include "../../common/tests/fixtures.h"
#include "../../common/util.h"
#include "../nfops.h"
#include "../penf.h"
#include "../peinfo.h"

static const char pe_info[] = "pe: tiny\n"
			      "instruction:\n"
			      "  width: 10\n"
			      "  fields:\n"
			      "    - { name: op, width: 2, type: Opcode, offset: 0 }\n"
			      "    - { name: k, width: 8, offset: 2 }\n"
			      "enums:\n"
			      "  Opcode: { width: 2, values: { Add: 0, AndK: 1, Window: 2, Acc: 3 } }\n"
			      "inputs:\n"
			      "  - { name: A, width: 8 }\n"
			      "  - { name: B, width: 8 }\n"
			      "outputs:\n"
			      "  - { name: res, width: 8 }\n"
			      "  - { name: flag, width: 1 }\n";

/* res = A + B, A & k, bits 11..4 of {B, A}, or the accumulator, by op;
 * flag = res == 0; the accumulator takes res. Node k is on line 4 + k. */
static const char pe_nf[] = "# a tiny PE: add, and with a constant, a window of B:A, the accumulator\n"
			    "nf tiny inputs 2 outputs 2 state 1 fields 2\n"
			    "state acc 8 0x05\n"
			    "node 0 input 8 A\n"
			    "node 1 input 8 B\n"
			    "node 2 field 2 op\n"
			    "node 3 field 8 k\n"
			    "node 4 state 8 acc\n"
			    "node 5 add 8 0 1\n"
			    "node 6 and 8 0 3\n"
			    "node 7 concat 16 1 0\n"
			    "node 8 extract 8 7 11 4\n"
			    "node 9 const 2 0x0\n"
			    "node 10 eq 1 2 9\n"
			    "node 11 const 2 0x1\n"
			    "node 12 eq 1 2 11\n"
			    "node 13 const 2 0x2\n"
			    "node 14 eq 1 2 13\n"
			    "node 15 ite 8 14 8 4\n"
			    "node 16 ite 8 12 6 15\n"
			    "node 17 ite 8 10 5 16\n"
			    "node 18 const 8 0x00\n"
			    "node 19 eq 1 17 18\n"
			    "output res 17\n"
			    "output flag 19\n"
			    "next acc 17\n"
			    "end 20\n";

static PeInfo *tiny_info(void)
{
	Diags *d = diags_new(NULL);
	PeInfo *pi = peinfo_load_string("tiny.info.yaml", pe_info, NULL, NULL, d);
	CHECK(pi != NULL, "the tiny PE's info file reads (%d errors)", diags_errors(d));
	diags_free(d);
	return pi;
}

/* The reference execution: every node in order, leaves from the arrays. */
static void eval_nf(const PeNf *n, const uint64_t *in, const uint64_t *state, const uint64_t *fields, uint64_t *vals)
{
	for (int i = 0; i < n->nnodes; i++) {
		const PnNode *x = &n->nodes[i];
		if (x->op == NF_INPUT || x->op == NF_STATE || x->op == NF_FIELD) {
			vals[i] = (x->op == NF_INPUT ? in : x->op == NF_STATE ? state : fields)[x->a];
			continue;
		}
		uint64_t a = x->a >= 0 ? vals[x->a] : 0, b = x->b >= 0 ? vals[x->b] : 0, c = x->c >= 0 ? vals[x->c] : 0;
		vals[i] = nf_op_apply(x->op, x->width, a, b, c, x->a >= 0 ? n->nodes[x->a].width : 0,
				      x->b >= 0 ? n->nodes[x->b].width : 0, x->hi, x->lo, x->value);
	}
}

static void test_ops(void)
{
	int round_trip = 1;
	for (int op = 0; op < NF_NUM_OPS; op++)
		round_trip &= nf_op_from_name(nf_op_name((NfOp)op)) == op;
	CHECK(round_trip && nf_op_from_name("mux") == -1, "every operation found by its name, no other");
	CHECK(nf_op_apply(NF_CONCAT, 12, 0xa, 0xbc, 0, 4, 8, 0, 0, 0) == 0xabc, "concat puts its first operand high");
	CHECK(nf_op_apply(NF_SEXT, 16, 0x80, 0, 0, 8, 0, 0, 0, 0) == 0xff80, "sext copies the sign bit");
	CHECK(nf_op_apply(NF_SLT, 1, 0x80, 0x01, 0, 8, 8, 0, 0, 0) == 1, "slt compares as signed (-128 < 1)");
	CHECK(nf_op_apply(NF_EXTRACT, 4, 0xabcd, 0, 0, 16, 0, 11, 8, 0) == 0xb, "extract takes bits hi..lo");
	CHECK(nf_op_apply(NF_ITE, 8, 0, 1, 2, 1, 8, 0, 0, 0) == 2, "ite of a false condition takes its else");
	CHECK(nf_op_apply(NF_SMULHI, 8, 0xff, 0xff, 0, 8, 8, 0, 0, 0) == 0, "smulhi(-1, -1) is 0");
}

static void test_penf_read(void)
{
	PeInfo *pi = tiny_info();
	Diags *d = diags_new(NULL);
	PeNf *n = pi ? penf_load_string("tiny.nf", pe_nf, pi, d) : NULL;
	CHECK(n != NULL && diags_errors(d) == 0, "the tiny PE's normal form reads (%d errors)", diags_errors(d));
	if (n) {
		CHECK(strcmp(n->pe, "tiny") == 0 && n->nnodes == 20 && n->nstate == 1 && n->state[0].reset == 5 &&
		      n->out[0] == 17 && n->out[1] == 19 && n->next[0] == 17,
		      "header, state, outputs and next value");
		CHECK(n->nodes[3].op == NF_FIELD && n->nodes[3].a == 1 && n->nodes[8].hi == 11 && n->nodes[8].lo == 4 &&
		      n->nodes[15].a == 14 && n->nodes[15].b == 8 && n->nodes[15].c == 4,
		      "leaves index the info file's fields, operands are kept in order");
		static const struct {
			uint64_t op, a, b, k, res;
		} cases[] = { { 0, 0x81, 0x7f, 0, 0x00 }, { 0, 0x12, 0x34, 0, 0x46 }, { 1, 0xf0, 0, 0x3c, 0x30 },
			      { 2, 0xab, 0xcd, 0, 0xda }, { 3, 0x11, 0x22, 0, 0x05 } };
		for (int i = 0; i < COUNT(cases); i++) {
			uint64_t in[2] = { cases[i].a, cases[i].b }, fields[2] = { cases[i].op, cases[i].k }, vals[20];
			eval_nf(n, in, &n->state[0].reset, fields, vals);
			CHECK(vals[n->out[0]] == cases[i].res && vals[n->out[1]] == (cases[i].res == 0) &&
			      vals[n->next[0]] == cases[i].res,
			      "op %llu on %02llx, %02llx: res %02llx (expected %02llx), flag %llu", U64(cases[i].op),
			      U64(cases[i].a), U64(cases[i].b), U64(vals[n->out[0]]), U64(cases[i].res),
			      U64(vals[n->out[1]]));
		}
	}
	penf_free(n);
	diags_free(d);
	peinfo_free(pi);
}

/* Each broken file gives exactly this error at this position. */
static void test_penf_errors(void)
{
	static const struct {
		const char *from, *to, *msg;
		int line, col;
	} cases[] = {
		{ "node 5 add", "node 5 addd", "unknown operation 'addd'", 9, 8 },
		{ "node 5 add 8 0 1", "node 5 add 8 0 2", "operand 2 is 2 bits wide, add needs 8 here", 9, 16 },
		{ "node 6 and 8 0 3", "node 6 and 8 0 7", "'7' is not an earlier node (0 to 5)", 10, 16 },
		{ "node 6 and", "node 7 and", "node ids are dense and in order: expected 6, not '7'", 10, 6 },
		{ "node 10 eq 1 2 9", "node 10 eq 2 2 9", "eq gives 1 bit, not 2", 14, 12 },
		{ "node 15 ite 8 14 8 4", "node 15 ite 8 3 8 4", "operand 3 is 8 bits wide, ite needs 1 here (a 1-bit condition)",
		  19, 15 },
		{ "node 8 extract 8 7 11 4", "node 8 extract 8 5 11 4", "bit 11 is outside the 8-bit operand 5", 12, 20 },
		{ "node 8 extract 8 7 11 4", "node 8 extract 8 7 11 3", "bits 11 to 3 are 9, not 8", 12, 16 },
		{ "node 7 concat 16 1 0", "node 7 concat 12 1 0", "a concat of 8 and 8 bits has 16, not 12", 11, 15 },
		{ "node 18 const 8 0x00", "node 18 const 8 0x100", "0x100 does not fit in 8 bits", 22, 17 },
		{ "state acc 8 0x05", "state acc 8 0x105", "0x105 does not fit in 8 bits", 3, 13 },
		{ "node 0 input 8 A", "node 0 input 9 A", "PE input 'A' has 8 bits, not 9", 4, 14 },
		{ "node 3 field 8 k", "node 3 field 8 q", "no instruction field 'q' in the info file", 7, 16 },
		{ "node 4 state 8 acc", "node 4 state 8 acb", "no state variable 'acb' among the state records", 8, 16 },
		{ "node 3 field 8 k", "node 3 param 8 k", "a PE's normal form has no 'param' nodes", 7, 8 },
		{ "node 9 const 2 0x0", "node 9 const 2 0x0 1", "expected 'node ID const WIDTH VALUE'", 13, 1 },
		{ "nf tiny", "nf small", "the normal form is of PE 'small', the info file of 'tiny'", 2, 4 },
		{ "inputs 2", "inputs 3", "the header counts 3 inputs, the info file has 2", 2, 16 },
		{ "state 1 fields", "state 4097 fields", "expected a number from 0 to 4096, not '4097'", 2, 34 },
		{ "node 0 input 8 A\n", "node 0 input 8 A\nstate acc2 8 0x00\n",
		  "a state record after the node records: the records come in the order nf, state, node", 5, 1 },
		{ "nf tiny", "node 0 input 8 A\nnf tiny", "expected the 'nf PE inputs I outputs O state S fields F' line first",
		  2, 1 },
		{ "output flag 19", "output flag 17", "node 17 is 8 bits wide, PE output 'flag' has 1", 25, 13 },
		{ "output flag 19\n", "output flag 19\noutput res 17\n",
		  "a second output record for 'res' (the first is line 24)", 26, 8 },
		{ "next acc 17\n", "", "state variable 'acc' has no next record", 26, 1 },
		{ "end 20", "end 19", "the end line counts 19 nodes, the file has 20: lines are missing", 27, 1 },
		{ "end 20\n", "", "the normal form ends without its 'end NODES' line", 0, 0 },
		{ "end 20\n", "end 20\nnode 20 const 1 0x1\n", "a record after the end line", 28, 1 },
		{ "node 6 and 8 0 3", "node 6 and 8 0 3 1 1 1 1 1 1 1 1", "more than 12 fields on a line", 10, 30 },
		{ "output res 17", "wire x 1\noutput res 17", "expected an nf, state, node, output, next or end record, not 'wire'",
		  24, 1 },
	};
	PeInfo *pi = tiny_info();
	for (int i = 0; pi && i < COUNT(cases); i++) {
		char *text = text_replace1(pe_nf, cases[i].from, cases[i].to);
		Diags *d = diags_new(NULL);
		PeNf *n = penf_load_string("tiny.nf", text, pi, d);
		const Diag *g = diags_errors(d) ? diags_get(d, 0) : NULL;
		CHECK(!n && diags_errors(d) == 1 && g && strstr(g->msg, cases[i].msg) && g->line == cases[i].line &&
		      g->col == cases[i].col,
		      "case %d: expected '%s' at %d:%d, got %d errors, first '%s' at %d:%d", i, cases[i].msg,
		      cases[i].line, cases[i].col, diags_errors(d), g ? g->msg : "", g ? g->line : 0, g ? g->col : 0);
		penf_free(n);
		diags_free(d);
		free(text);
	}
	peinfo_free(pi);
}

/* Two wrong records of one file: both reported, in line order. */
static void test_penf_every_error(void)
{
	PeInfo *pi = tiny_info();
	char *one = text_replace1(pe_nf, "node 5 add 8 0 1", "node 5 add 8 0 2");
	char *two = text_replace1(one, "node 18 const 8 0x00", "node 18 const 8 0x100");
	Diags *d = diags_new(NULL);
	PeNf *n = pi ? penf_load_string("tiny.nf", two, pi, d) : NULL;
	CHECK(!n && diags_errors(d) == 2 && diags_get(d, 0)->line == 9 && diags_get(d, 1)->line == 22 &&
	      diags_get(d, 1)->col == 17,
	      "both errors reported (%d errors)", diags_errors(d));
	penf_free(n);
	diags_free(d);
	free(one);
	free(two);
	peinfo_free(pi);
}

static const TestCase tests[] = {
	{ "ops", test_ops },
	{ "penf_read", test_penf_read },
	{ "penf_errors", test_penf_errors },
	{ "penf_every_error", test_penf_every_error },
};

int main(void)
{
	return check_run("penf", tests, COUNT(tests));
}
