/* penf.c - the reader of <pe>.nf (penf.h). Each record is checked on its own,
 * against the PE's info file and against the nodes before it; the end line
 * proves the file whole and is where missing records are reported. Every
 * error of the file is reported (up to lines.h's limit): a node in error
 * still takes its id, with an unknown width that no later check compares,
 * so that one wrong node gives one error rather than one per node reading it. */
#include "penf.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "../common/bv.h"
#include "../common/strmap.h"
#include "../common/vec.h"
#include "lines.h"

/* The records, in the order a file holds them. */
enum { R_NF, R_STATE, R_NODE, R_OUTPUT, R_NEXT, R_END, R_NUM };
static const char *const record_names[R_NUM] = { "nf", "state", "node", "output", "next", "end" };

/* What a node in error stands for: its width unknown (0), compared with
 * nothing. */
static const PnNode unknown_node = { NF_NUM_OPS, 0, -1, -1, -1, 0, 0, 0 };

#define ORDER_TEXT "the records come in the order nf, state, node, output, next, end"

typedef struct Reading {
	PeNf *n;
	const PeInfo *pi;
	StrMap inputs, fields, states;  /* name -> index */
	VEC(PnNode) nodes;      /* one per node record, those in error too (width 0: unknown) */
	VEC(PnState) state;
	int *state_line;        /* per state record: its line */
	int header_state;       /* the header's count of state variables */
	int *out_line, *next_line;      /* per output, per state variable: the line of its record, 0 none */
	int phase;              /* the latest kind of record seen */
	int header;             /* the line of the nf record, 0 before it */
	int header_bad;         /* its counts could not be read: nothing after it is */
	int ended;
} Reading;

/* "0x" and hex digits that fit width bits. */
static int read_hex(Lines *l, int k, int width, uint64_t *out)
{
	const char *s = l->tok[k];
	int st = s[0] == '0' && s[1] == 'x' ? bv_parse(s, width, out) : -1;
	if (st == -1)
		diag_error(l->d, l->file, l->line, l->col[k], "expected a hexadecimal value 0x..., not '%s'", s);
	else if (st != 0)
		diag_error(l->d, l->file, l->line, l->col[k], "%s does not fit in %d bit%s", s, width, width == 1 ? "" : "s");
	return st == 0;
}

/* A decimal count from 0 to max. */
static int read_count(Lines *l, int k, long max, long *out)
{
	return lines_long(l, k, 10, 0, max, out);
}

static void index_names(StrMap *m, const void *items, size_t size, int n)
{
	strmap_init(m);
	for (int i = 0; i < n; i++)
		strmap_put(m, *(const char *const *)((const char *)items + (size_t)i * size), i);
}

static int lookup(const StrMap *m, const char *name)
{
	intptr_t i;
	return strmap_get(m, name, &i) ? (int)i : -1;
}

/* ---- the header ---- */

/* A count of the header that must equal the info file's. */
static void check_count(Lines *l, int k, long v, int want, const char *what)
{
	if (v != want)
		diag_error(l->d, l->file, l->line, l->col[k], "the header counts %ld %s, the info file has %d", v, what,
			   want);
}

/* nf PE inputs I outputs O state S fields F */
static void read_header(Lines *l, Reading *r)
{
	const PeInfo *pi = r->pi;
	long in, out, st, f;
	r->header = l->line;
	r->header_bad = 1;
	if (l->ntok != 10 || strcmp(l->tok[2], "inputs") != 0 || strcmp(l->tok[4], "outputs") != 0 ||
	    strcmp(l->tok[6], "state") != 0 || strcmp(l->tok[8], "fields") != 0) {
		diag_error(l->d, l->file, l->line, 1, "expected 'nf PE inputs I outputs O state S fields F'");
		return;
	}
	if (!read_count(l, 3, PENF_MAX_NODES, &in) || !read_count(l, 5, PENF_MAX_NODES, &out) ||
	    !read_count(l, 7, PENF_MAX_STATE, &st) || !read_count(l, 9, PENF_MAX_NODES, &f))
		return;
	r->header_bad = 0;
	r->header_state = (int)st;
	r->n->pe = arena_strdup(r->n->arena, l->tok[1]);
	if (strcmp(l->tok[1], pi->name) != 0)
		diag_error(l->d, l->file, l->line, l->col[1], "the normal form is of PE '%s', the info file of '%s'",
			   l->tok[1], pi->name);
	check_count(l, 3, in, pi->ninputs, "inputs");
	check_count(l, 5, out, pi->noutputs, "outputs");
	check_count(l, 9, f, pi->nfields, "instruction fields");
	r->state_line = xcalloc((size_t)st + 1, sizeof(int));
	r->next_line = xcalloc((size_t)st + 1, sizeof(int));
	r->n->next = arena_alloc(r->n->arena, ((size_t)st + 1) * sizeof(int));
	r->out_line = xcalloc((size_t)pi->noutputs + 1, sizeof(int));
}

/* state NAME WIDTH RESET */
static void read_state(Lines *l, Reading *r)
{
	long w;
	uint64_t reset;
	if (l->ntok != 4) {
		diag_error(l->d, l->file, l->line, 1, "expected 'state NAME WIDTH RESET'");
		return;
	}
	if (r->state.len >= r->header_state) {
		diag_error(l->d, l->file, l->line, 1, "more state records than the header's %d", r->header_state);
		return;
	}
	int first = lookup(&r->states, l->tok[1]);
	if (!util_is_identifier(l->tok[1])) {
		diag_error(l->d, l->file, l->line, l->col[1], "'%s' is not a state variable's name (letters, digits, '_')",
			   l->tok[1]);
		return;
	}
	if (first >= 0) {
		diag_error(l->d, l->file, l->line, l->col[1], "a second state variable '%s' (the first is line %d)",
			   l->tok[1], r->state_line[first]);
		return;
	}
	/* a variable whose width or reset is wrong is still known by its name,
	 * with an unknown width (0) that no later record is compared with */
	PnState s = { arena_strdup(r->n->arena, l->tok[1]), 0, 0 };
	if (lines_long(l, 2, 10, 1, 64, &w) && read_hex(l, 3, (int)w, &reset))
		s.width = (int)w, s.reset = reset;
	r->state_line[r->state.len] = l->line;
	strmap_put(&r->states, s.name, r->state.len);
	vec_push(&r->state, s);
}

/* ---- nodes ---- */

/* The operands of each operation as the file writes them after its width. */
static const char *operand_form(NfOp op)
{
	switch (op) {
	case NF_INPUT:
	case NF_STATE:
	case NF_FIELD:
		return "NAME";
	case NF_CONST:
		return "VALUE";
	case NF_NOT:
	case NF_NEG:
	case NF_ZEXT:
	case NF_SEXT:
		return "A";
	case NF_ITE:
		return "COND THEN ELSE";
	case NF_EXTRACT:
		return "A HI LO";
	case NF_CONCAT:
		return "HI LO";
	default:
		return "A B";
	}
}

static int operand_count(NfOp op)
{
	int n = 1;
	for (const char *s = operand_form(op); *s; s++)
		n += *s == ' ';
	return n;
}

static int is_comparison(NfOp op)
{
	return op == NF_EQ || op == NF_ULT || op == NF_ULE || op == NF_SLT || op == NF_SLE;
}

/* Token k as the id of a node before node id. */
static int read_ref(Lines *l, int k, int id, int *out)
{
	char *end;
	errno = 0;
	long v = strtol(l->tok[k], &end, 10);
	if (*end || end == l->tok[k] || errno || v < 0 || v >= id) {
		if (id == 0)
			diag_error(l->d, l->file, l->line, l->col[k], "'%s' is not an earlier node: there is none", l->tok[k]);
		else
			diag_error(l->d, l->file, l->line, l->col[k], "'%s' is not an earlier node (0 to %d)", l->tok[k],
				   id - 1);
		return 0;
	}
	*out = (int)v;
	return 1;
}

/* Operand k (token 4 + k) of x has width want (its width unknown: skipped). */
static int check_width(Lines *l, const Reading *r, const PnNode *x, int k, int want, const char *rule)
{
	int id = k == 0 ? x->a : k == 1 ? x->b : x->c;
	int w = r->nodes.data[id].width;
	if (w == 0 || w == want)
		return 1;
	diag_error(l->d, l->file, l->line, l->col[4 + k], "operand %d is %d bit%s wide, %s needs %d here (%s)", id, w,
		   w == 1 ? "" : "s", nf_op_name(x->op), want, rule);
	return 0;
}

/* A leaf: the input, state variable or instruction field named by token 4,
 * of the node's width; or a constant. */
static int read_leaf(Lines *l, Reading *r, PnNode *x)
{
	static const char *const what[] = { [NF_INPUT] = "PE input", [NF_STATE] = "state variable",
					     [NF_FIELD] = "instruction field" };
	const PeInfo *pi = r->pi;
	const char *name = l->tok[4];
	int k, w;
	if (x->op == NF_CONST)
		return read_hex(l, 4, x->width, &x->value);
	if (x->op == NF_INPUT)
		k = lookup(&r->inputs, name), w = k >= 0 ? pi->inputs[k].width : 0;
	else if (x->op == NF_FIELD)
		k = lookup(&r->fields, name), w = k >= 0 ? pi->fields[k].width : 0;
	else
		k = lookup(&r->states, name), w = k >= 0 ? r->state.data[k].width : 0;
	if (k < 0) {
		diag_error(l->d, l->file, l->line, l->col[4], "no %s '%s'%s", what[x->op], name,
			   x->op == NF_STATE ? " among the state records" : " in the info file");
		return 0;
	}
	if (w && w != x->width) {
		diag_error(l->d, l->file, l->line, l->col[3], "%s '%s' has %d bit%s, not %d", what[x->op], name, w,
			   w == 1 ? "" : "s", x->width);
		return 0;
	}
	x->a = k;
	return 1;
}

/* extract A HI LO: bits of the operand, as many as the node's width. */
static int read_extract(Lines *l, const Reading *r, PnNode *x)
{
	long hi, lo;
	int wa = r->nodes.data[x->a].width;
	if (!lines_long(l, 5, 10, 0, 63, &hi) || !lines_long(l, 6, 10, 0, hi, &lo))
		return 0;
	if (wa && hi >= wa) {
		diag_error(l->d, l->file, l->line, l->col[5], "bit %ld is outside the %d-bit operand %d", hi, wa, x->a);
		return 0;
	}
	if (hi - lo + 1 != x->width) {
		diag_error(l->d, l->file, l->line, l->col[3], "bits %ld to %ld are %ld, not %d", hi, lo, hi - lo + 1,
			   x->width);
		return 0;
	}
	x->hi = (int)hi, x->lo = (int)lo;
	return 1;
}

/* The width rule of each operation (nfops.h). */
static int check_operation(Lines *l, const Reading *r, PnNode *x)
{
	int w = x->width, wa = r->nodes.data[x->a].width, wb = x->b >= 0 ? r->nodes.data[x->b].width : 0;
	if (is_comparison(x->op)) {
		if (w != 1) {
			diag_error(l->d, l->file, l->line, l->col[3], "%s gives 1 bit, not %d", nf_op_name(x->op), w);
			return 0;
		}
		return !wa || check_width(l, r, x, 1, wa, "operands of equal widths");
	}
	switch (x->op) {
	case NF_ITE:
		return check_width(l, r, x, 0, 1, "a 1-bit condition") &&
		       check_width(l, r, x, 1, w, "branches of the result's width") &&
		       check_width(l, r, x, 2, w, "branches of the result's width");
	case NF_EXTRACT:
		return read_extract(l, r, x);
	case NF_CONCAT:
		if (wa && wb && wa + wb != w) {
			diag_error(l->d, l->file, l->line, l->col[3], "a concat of %d and %d bits has %d, not %d", wa, wb,
				   wa + wb, w);
			return 0;
		}
		return 1;
	case NF_ZEXT:
	case NF_SEXT:
		if (wa > w) {
			diag_error(l->d, l->file, l->line, l->col[4], "operand %d is %d bits wide, wider than the %d-bit "
				   "result of %s", x->a, wa, w, nf_op_name(x->op));
			return 0;
		}
		return 1;
	case NF_SHL:
	case NF_LSHR:
	case NF_ASHR:
		return check_width(l, r, x, 0, w, "the shifted operand has the result's width");
	default:
		return check_width(l, r, x, 0, w, "operands of the result's width") &&
		       (x->b < 0 || check_width(l, r, x, 1, w, "operands of the result's width"));
	}
}

/* node ID OP WIDTH OPERANDS...: fills x as far as it is read. */
static int parse_node(Lines *l, Reading *r, PnNode *x)
{
	int id = r->nodes.len, op;
	long w;
	char *end;
	if (l->ntok < 4) {
		diag_error(l->d, l->file, l->line, 1, "expected 'node ID OP WIDTH OPERANDS...'");
		return 0;
	}
	errno = 0;
	if (strtol(l->tok[1], &end, 10) != id || *end || end == l->tok[1] || errno) {
		diag_error(l->d, l->file, l->line, l->col[1], "node ids are dense and in order: expected %d, not '%s'", id,
			   l->tok[1]);
		return 0;
	}
	if ((op = nf_op_from_name(l->tok[2])) < 0 || op == NF_PARAM) {
		diag_error(l->d, l->file, l->line, l->col[2], op < 0 ? "unknown operation '%s'"
			   : "a PE's normal form has no '%s' nodes: its instruction has no params", l->tok[2]);
		return 0;
	}
	if (!lines_long(l, 3, 10, 1, 64, &w))
		return 0;
	x->width = (int)w;
	x->op = (NfOp)op;
	if (l->ntok != 4 + operand_count(x->op)) {
		diag_error(l->d, l->file, l->line, 1, "expected 'node ID %s WIDTH %s'", l->tok[2], operand_form(x->op));
		return 0;
	}
	if (x->op <= NF_CONST)
		return read_leaf(l, r, x);
	int refs = x->op == NF_EXTRACT ? 1 : operand_count(x->op);
	int *ops[3] = { &x->a, &x->b, &x->c };
	for (int k = 0; k < refs; k++)
		if (!read_ref(l, 4 + k, id, ops[k]))
			return 0;
	return check_operation(l, r, x);
}

static void read_node(Lines *l, Reading *r)
{
	PnNode x = unknown_node;
	if (r->nodes.len >= PENF_MAX_NODES) {
		diag_error(l->d, l->file, l->line, 1, "more than %d nodes", PENF_MAX_NODES);
		return;
	}
	if (!parse_node(l, r, &x))
		x = unknown_node;
	vec_push(&r->nodes, x);
}

/* ---- roots and the end ---- */

/* output NAME NODE, next NAME NODE: the node that drives a PE output or
 * gives a state variable's next value. */
static void read_root(Lines *l, Reading *r, int output)
{
	const char *what = output ? "PE output" : "state variable";
	int k, w, id;
	if (l->ntok != 3) {
		diag_error(l->d, l->file, l->line, 1, "expected '%s NAME NODE'", output ? "output" : "next");
		return;
	}
	if (output)
		k = peinfo_output(r->pi, l->tok[1]), w = k >= 0 ? r->pi->outputs[k].width : 0;
	else
		k = lookup(&r->states, l->tok[1]), w = k >= 0 ? r->state.data[k].width : 0;
	if (k < 0) {
		diag_error(l->d, l->file, l->line, l->col[1], "no %s '%s'%s", what, l->tok[1],
			   output ? " in the info file" : " among the state records");
		return;
	}
	int *line = output ? &r->out_line[k] : &r->next_line[k];
	if (*line) {
		diag_error(l->d, l->file, l->line, l->col[1], "a second %s record for '%s' (the first is line %d)",
			   output ? "output" : "next", l->tok[1], *line);
		return;
	}
	*line = l->line;
	if (!read_ref(l, 2, r->nodes.len, &id))
		return;
	int *root = output ? &r->n->out[k] : &r->n->next[k];
	*root = id;
	int wn = r->nodes.data[id].width;
	if (wn && w && wn != w)
		diag_error(l->d, l->file, l->line, l->col[2], "node %d is %d bit%s wide, %s '%s' has %d", id, wn,
			   wn == 1 ? "" : "s", what, l->tok[1], w);
}

/* What the end line proves missing: state records, outputs, next values. */
static void check_complete(Lines *l, Reading *r)
{
	if (r->state.len != r->header_state)
		diag_error(l->d, l->file, l->line, 1, "the header counts %d state variables, the file has %d records",
			   r->header_state, r->state.len);
	for (int i = 0; i < r->pi->noutputs; i++)
		if (!r->out_line[i])
			diag_error(l->d, l->file, l->line, 1, "PE output '%s' has no output record", r->pi->outputs[i].name);
	for (int i = 0; i < r->state.len; i++)
		if (!r->next_line[i])
			diag_error(l->d, l->file, l->line, 1, "state variable '%s' has no next record",
				   r->state.data[i].name);
}

/* end NODES: the count of the whole file. */
static void read_end(Lines *l, Reading *r)
{
	long n;
	r->ended = 1;
	if (l->ntok != 2) {
		diag_error(l->d, l->file, l->line, 1, "expected 'end NODES'");
		return;
	}
	if (!read_count(l, 1, PENF_MAX_NODES, &n))
		return;
	if (n != r->nodes.len) {
		diag_error(l->d, l->file, l->line, 1, "the end line counts %ld nodes, the file has %d: lines are missing "
			   "or were added by hand (" LINES_REGENERATE ")", n, r->nodes.len);
		return;
	}
	check_complete(l, r);
}

static int record_kind(const char *s)
{
	for (int k = 0; k < R_NUM; k++)
		if (strcmp(s, record_names[k]) == 0)
			return k;
	return -1;
}

/* Refuses a record out of place: before the header, after the end, or of a
 * kind whose place has passed. */
static int in_place(Lines *l, Reading *r, int kind)
{
	if (r->ended) {
		diag_error(l->d, l->file, l->line, 1, "a record after the end line");
		return 0;
	}
	if (!r->header && kind != R_NF) {
		diag_error(l->d, l->file, l->line, 1, "expected the 'nf PE inputs I outputs O state S fields F' line "
			   "first, not '%s'", l->tok[0]);
		return 0;
	}
	if (kind == R_NF && r->header) {
		diag_error(l->d, l->file, l->line, 1, "a second nf line (the first is line %d)", r->header);
		return 0;
	}
	if (kind < r->phase) {
		diag_error(l->d, l->file, l->line, 1, "a %s record after the %s records: " ORDER_TEXT, record_names[kind],
			   record_names[r->phase]);
		return 0;
	}
	r->phase = kind;
	return 1;
}

static void record(Lines *l, void *ctx)
{
	Reading *r = ctx;
	int kind = record_kind(l->tok[0]);
	if (l->bad) {
		/* a node line of too many fields (reported) still takes its id */
		if (kind == R_NODE && r->header && !r->header_bad && !r->ended && r->nodes.len < PENF_MAX_NODES)
			vec_push(&r->nodes, unknown_node);
		return;
	}
	if (r->header_bad) {
		r->ended |= kind == R_END;
		return;
	}
	if (kind < 0) {
		diag_error(l->d, l->file, l->line, 1, "expected an nf, state, node, output, next or end record, not '%s'",
			   l->tok[0]);
		return;
	}
	if (!in_place(l, r, kind))
		return;
	switch (kind) {
	case R_NF:
		read_header(l, r);
		break;
	case R_STATE:
		read_state(l, r);
		break;
	case R_NODE:
		read_node(l, r);
		break;
	case R_OUTPUT:
	case R_NEXT:
		read_root(l, r, kind == R_OUTPUT);
		break;
	default:
		read_end(l, r);
		break;
	}
}

/* ---- loading ---- */

static void reading_init(Reading *r, const PeInfo *pi)
{
	memset(r, 0, sizeof *r);
	r->pi = pi;
	r->n = xcalloc(1, sizeof(PeNf));
	r->n->arena = arena_new();
	r->n->out = arena_alloc(r->n->arena, ((size_t)pi->noutputs + 1) * sizeof(int));
	index_names(&r->inputs, pi->inputs, sizeof *pi->inputs, pi->ninputs);
	index_names(&r->fields, pi->fields, sizeof *pi->fields, pi->nfields);
	strmap_init(&r->states);
}

/* Moves what was read into the PeNf's arena. */
static PeNf *reading_finish(Reading *r)
{
	PeNf *n = r->n;
	n->nnodes = r->nodes.len;
	n->nodes = arena_alloc(n->arena, ((size_t)n->nnodes + 1) * sizeof(PnNode));
	memcpy(n->nodes, r->nodes.data, (size_t)n->nnodes * sizeof(PnNode));
	n->nstate = r->state.len;
	n->state = arena_alloc(n->arena, ((size_t)n->nstate + 1) * sizeof(PnState));
	memcpy(n->state, r->state.data, (size_t)n->nstate * sizeof(PnState));
	return n;
}

static void reading_free(Reading *r)
{
	strmap_free(&r->inputs);
	strmap_free(&r->fields);
	strmap_free(&r->states);
	vec_free(&r->nodes);
	vec_free(&r->state);
	free(r->state_line);
	free(r->out_line);
	free(r->next_line);
}

PeNf *penf_load_string(const char *name, const char *text, const PeInfo *pi, Diags *d)
{
	Reading r;
	reading_init(&r, pi);
	int errors = diags_errors(d);
	int ok = lines_read(name, text, d, 0, record, &r);
	if (ok && !r.ended)
		diag_error(d, name, 0, 0, "%s without its 'end NODES' line: the file is cut short, or older than its "
			   "reader (" LINES_REGENERATE ")", r.header ? "the normal form ends" : "no nf line, and the file ends");
	PeNf *n = NULL;
	if (ok && diags_errors(d) == errors)
		n = reading_finish(&r);
	else
		penf_free(r.n);
	reading_free(&r);
	return n;
}

PeNf *penf_load(const char *path, const PeInfo *pi, Diags *d)
{
	return penf_load_string(path, NULL, pi, d);
}

void penf_free(PeNf *n)
{
	if (!n)
		return;
	arena_free(n->arena);
	free(n);
}
