/* peak_verilog.c - see peak_verilog.h. Each live node of the normal form
 * becomes one wire (nf_<id>); instruction fields are named slices of `inst`
 * (inst_<field>); constants are sized literals. */
#include "peak_verilog.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "../common/bv.h"
#include "../common/vwrite.h"

typedef struct Emit {
	const PeakSpec *s;
	const NfGraph *g;
	VWriter w;
	char *live;             /* per node */
	char **ref;             /* per node: how to name its value */
} Emit;

/* Marks what the outputs and next-state values depend on: nodes are in
 * topological order, so one backward sweep suffices. */
static void mark_live(Emit *e)
{
	const PeakSpec *s = e->s;
	for (int i = 0; i < s->nports[PEAK_OUTPUT]; i++)
		e->live[s->out_nodes[i]] = 1;
	for (int i = 0; i < s->nports[PEAK_STATE]; i++)
		e->live[s->next_nodes[i]] = 1;
	nf_mark_live(e->g, e->live);
}

static char *leaf_ref(const Emit *e, const NfNode *n)
{
	const PeakSpec *s = e->s;
	char lit[32];
	switch (n->op) {
	case NF_INPUT:
		return xstrdup(s->ports[PEAK_INPUT][n->lo].name);
	case NF_STATE:
		return xstrdup(s->ports[PEAK_STATE][n->lo].name);
	case NF_FIELD:
		return xasprintf("inst_%s", s->ports[PEAK_FIELD][n->lo].name);
	case NF_CONST:
		return xstrdup(vw_literal(lit, n->value, n->width));
	default:
		ICE("params have no hardware");
	}
}

/* An operand widened to `to` bits, zero- or sign-extended. */
static char *widened(const Emit *e, int id, int to, int sign)
{
	const NfNode *n = nf_node(e->g, id);
	char lit[32];
	int k = to - n->width;
	if (n->op == NF_CONST && to <= 64)
		return xstrdup(vw_literal(lit, sign ? bv_sext(n->value, n->width, to) : n->value, to));
	if (n->op == NF_CONST) {
		/* wider than 64 bits: the extension bits, then the constant */
		char ext[32];
		if (sign && bv_msb(n->value, n->width))
			snprintf(ext, sizeof ext, "{%d{1'b1}}", k);
		else
			snprintf(ext, sizeof ext, "%d'h0", k);
		return xasprintf("{%s, %s}", ext, vw_literal(lit, n->value, n->width));
	}
	const char *r = e->ref[id];
	if (sign)
		return n->width == 1 ? xasprintf("{%d{%s}}", to, r)
				     : xasprintf("{{%d{%s[%d]}}, %s}", k, r, n->width - 1, r);
	return xasprintf("{%d'h0, %s}", k, r);
}

/* The right-hand side of a node's wire; may first declare a helper wire. */
static char *node_expr(Emit *e, int id)
{
	const NfNode *n = nf_node(e->g, id);
	const char *a = n->a >= 0 ? e->ref[n->a] : NULL, *b = n->b >= 0 ? e->ref[n->b] : NULL;
	static const char *const infix[NF_NUM_OPS] = {
		[NF_AND] = "&", [NF_OR] = "|", [NF_XOR] = "^", [NF_ADD] = "+", [NF_SUB] = "-",
		[NF_MUL] = "*", [NF_SHL] = "<<", [NF_LSHR] = ">>", [NF_EQ] = "==", [NF_ULT] = "<",
		[NF_ULE] = "<=",
	};
	char *x, *y, *r;
	char range[32];
	switch (n->op) {
	case NF_NOT:
		return xasprintf("~%s", a);
	case NF_NEG:
		return xasprintf("-%s", a);
	case NF_SLT:
		return xasprintf("$signed(%s) < $signed(%s)", a, b);
	case NF_SLE:
		return xasprintf("$signed(%s) <= $signed(%s)", a, b);
	case NF_ASHR:
		return xasprintf("$signed(%s) >>> %s", a, b);
	case NF_UMULHI:
	case NF_SMULHI:
		/* the full product on its own wire, then its upper half */
		x = widened(e, n->a, 2 * n->width, n->op == NF_SMULHI);
		y = widened(e, n->b, 2 * n->width, n->op == NF_SMULHI);
		vw_line(&e->w, "wire %snf_%d_prod = %s * %s;", vw_range(range, 2 * n->width), id, x, y);
		free(x);
		free(y);
		return xasprintf("nf_%d_prod[%d:%d]", id, 2 * n->width - 1, n->width);
	case NF_ITE:
		return xasprintf("%s ? %s : %s", a, b, e->ref[n->c]);
	case NF_EXTRACT:
		if (n->hi == n->lo)
			return xasprintf("%s[%d]", a, n->lo);
		return xasprintf("%s[%d:%d]", a, n->hi, n->lo);
	case NF_CONCAT:
		return xasprintf("{%s, %s}", a, b);
	case NF_ZEXT:
	case NF_SEXT:
		return widened(e, n->a, n->width, n->op == NF_SEXT);
	default:
		if (!infix[n->op])
			ICE("no Verilog for %s", nf_op_name(n->op));
		r = xasprintf("%s %s %s", a, infix[n->op], b);
		return r;
	}
}

static void emit_ports(Emit *e)
{
	const PeakSpec *s = e->s;
	char range[32];
	vw_line(&e->w, "module %s (", s->name);
	vw_indent(&e->w);
	vw_line(&e->w, "input  wire clk,");
	vw_line(&e->w, "input  wire rst,");
	vw_line(&e->w, "input  wire [%d:0] inst,", s->inst_width - 1);
	for (int i = 0; i < s->nports[PEAK_INPUT]; i++) {
		const PeakPort *p = &s->ports[PEAK_INPUT][i];
		vw_line(&e->w, "input  wire %s%s,", vw_range(range, p->type.width), p->name);
	}
	for (int i = 0; i < s->nports[PEAK_OUTPUT]; i++) {
		const PeakPort *p = &s->ports[PEAK_OUTPUT][i];
		vw_line(&e->w, "output wire %s%s%s", vw_range(range, p->type.width), p->name,
			i + 1 < s->nports[PEAK_OUTPUT] ? "," : "");
	}
	vw_dedent(&e->w);
	vw_line(&e->w, ");");
}

static void emit_fields(Emit *e)
{
	const PeakSpec *s = e->s;
	char range[32];
	vw_line(&e->w, "// instruction fields, packed LSB-first");
	for (int i = 0; i < s->nports[PEAK_FIELD]; i++) {
		const PeakPort *p = &s->ports[PEAK_FIELD][i];
		if (p->type.width == 1)
			vw_line(&e->w, "wire inst_%s = inst[%d];", p->name, p->offset);
		else
			vw_line(&e->w, "wire %sinst_%s = inst[%d:%d];", vw_range(range, p->type.width),
				p->name, p->offset + p->type.width - 1, p->offset);
	}
}

static void emit_state_decls(Emit *e)
{
	const PeakSpec *s = e->s;
	char range[32];
	if (s->nports[PEAK_STATE])
		vw_line(&e->w, "// state");
	for (int i = 0; i < s->nports[PEAK_STATE]; i++) {
		const PeakPort *p = &s->ports[PEAK_STATE][i];
		vw_line(&e->w, "reg %s%s;", vw_range(range, p->type.width), p->name);
	}
}

static void emit_nodes(Emit *e)
{
	char range[32];
	vw_line(&e->w, "// one cycle of the behaviour, in SSA form");
	vec_foreach(&e->g->nodes, id) {
		const NfNode *n = nf_node(e->g, id);
		if (nf_is_leaf(n->op)) {
			e->ref[id] = n->op == NF_PARAM ? xstrdup("?") : leaf_ref(e, n);
			continue;
		}
		if (!e->live[id])
			continue;
		char *rhs = node_expr(e, id);
		vw_line(&e->w, "wire %snf_%d = %s;", vw_range(range, n->width), id, rhs);
		free(rhs);
		e->ref[id] = xasprintf("nf_%d", id);
	}
}

static void emit_outputs_and_state(Emit *e)
{
	const PeakSpec *s = e->s;
	char lit[32];
	for (int i = 0; i < s->nports[PEAK_OUTPUT]; i++)
		vw_line(&e->w, "assign %s = %s;", s->ports[PEAK_OUTPUT][i].name,
			e->ref[s->out_nodes[i]]);
	if (!s->nports[PEAK_STATE])
		return;
	vw_line(&e->w, "always @(posedge clk) begin");
	vw_indent(&e->w);
	vw_line(&e->w, "if (rst) begin");
	vw_indent(&e->w);
	for (int i = 0; i < s->nports[PEAK_STATE]; i++) {
		const PeakPort *p = &s->ports[PEAK_STATE][i];
		vw_line(&e->w, "%s <= %s;", p->name, vw_literal(lit, p->reset, p->type.width));
	}
	vw_dedent(&e->w);
	vw_line(&e->w, "end else begin");
	vw_indent(&e->w);
	for (int i = 0; i < s->nports[PEAK_STATE]; i++)
		vw_line(&e->w, "%s <= %s;", s->ports[PEAK_STATE][i].name, e->ref[s->next_nodes[i]]);
	vw_dedent(&e->w);
	vw_line(&e->w, "end");
	vw_dedent(&e->w);
	vw_line(&e->w, "end");
}

/* Bits of every signal that no expression reads: inputs a PE ignores, state it
 * only writes, wires of which only a slice is used, the low half of a product.
 * They are gathered into one reduction so that lint sees them unused on purpose. */

typedef VEC(char) Text;

static void text_add(Text *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void text_add(Text *t, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	vec_reserve(t, t->len + n + 1);
	va_start(ap, fmt);
	vsnprintf(t->data + t->len, (size_t)n + 1, fmt, ap);
	va_end(ap);
	t->len += n;
}

/* Appends the runs of unused bits of signal name as ", name[hi:lo]". */
static void sink_bits(Text *t, const char *name, int width, uint64_t used)
{
	int lo = -1;
	for (int b = 0; b <= width; b++) {
		int unused = b < width && b < 64 && !((used >> b) & 1);
		if (unused && lo < 0)
			lo = b;
		if (unused || lo < 0)
			continue;
		if (lo == 0 && b == width)
			text_add(t, ", %s", name);
		else if (lo == b - 1)
			text_add(t, ", %s[%d]", name, lo);
		else
			text_add(t, ", %s[%d:%d]", name, b - 1, lo);
		lo = -1;
	}
}

/* Per node, a mask of the bits some expression reads (bits 64 and up of
 * wider values are never partly used). */
static uint64_t *used_bits(const Emit *e)
{
	const PeakSpec *s = e->s;
	const NfGraph *g = e->g;
	int n = g->nodes.len;
	uint64_t *used = xcalloc((size_t)n + 1, sizeof(uint64_t));
	for (int i = 0; i < s->nports[PEAK_OUTPUT]; i++)
		used[s->out_nodes[i]] = ~0ULL;
	for (int i = 0; i < s->nports[PEAK_STATE]; i++)
		used[s->next_nodes[i]] = ~0ULL;
	for (int i = n - 1; i >= 0; i--) {
		const NfNode *x = nf_node(g, i);
		if (!used[i] || nf_is_leaf(x->op))
			continue;
		if (x->op == NF_EXTRACT) {
			used[x->a] |= (used[i] & bv_mask(x->width)) << x->lo;
			continue;
		}
		int ops[3] = { x->a, x->b, x->c };
		for (int k = 0; k < 3; k++)
			if (ops[k] >= 0)
				used[ops[k]] = ~0ULL;
	}
	return used;
}

/* Unused bits of inputs, state registers and instruction-field wires. */
static void sink_ports(const Emit *e, const uint64_t *used, Text *sink)
{
	const PeakSpec *s = e->s;
	static const int classes[3] = { PEAK_INPUT, PEAK_STATE, PEAK_FIELD };
	for (int c = 0; c < 3; c++) {
		uint64_t *port_used = xcalloc((size_t)s->nports[classes[c]] + 1, sizeof(uint64_t));
		vec_foreach(&e->g->nodes, i) {
			const NfNode *x = nf_node(e->g, i);
			if ((int)x->op == classes[c])
				port_used[x->lo] |= used[i];
		}
		for (int i = 0; i < s->nports[classes[c]]; i++) {
			const PeakPort *p = &s->ports[classes[c]][i];
			char *name = classes[c] == PEAK_FIELD ? xasprintf("inst_%s", p->name) : xstrdup(p->name);
			sink_bits(sink, name, p->type.width, port_used[i]);
			free(name);
		}
		free(port_used);
	}
}

/* Unused bits of node wires, and the low halves of products. */
static void sink_nodes(const Emit *e, const uint64_t *used, Text *sink)
{
	vec_foreach(&e->g->nodes, i) {
		const NfNode *x = nf_node(e->g, i);
		if (!e->live[i] || nf_is_leaf(x->op))
			continue;
		char name[32];
		snprintf(name, sizeof name, "nf_%d", i);
		sink_bits(sink, name, x->width, used[i]);
		if (x->op == NF_UMULHI || x->op == NF_SMULHI)
			text_add(sink, ", nf_%d_prod[%d:0]", i, x->width - 1);
	}
}

static void emit_unused(Emit *e)
{
	uint64_t *used = used_bits(e);
	Text sink = { 0 };
	if (!e->s->nports[PEAK_STATE])
		text_add(&sink, ", clk, rst");
	sink_ports(e, used, &sink);
	sink_nodes(e, used, &sink);
	if (sink.len) {
		vw_line(&e->w, "// bits no expression reads: unused inputs, fields and state, unused slices");
		vw_line(&e->w, "/* verilator lint_off UNUSEDSIGNAL */");
		vw_line(&e->w, "wire unused_ok = &{1'b0%s};", sink.data);
		vw_line(&e->w, "/* verilator lint_on UNUSEDSIGNAL */");
	}
	vec_free(&sink);
	free(used);
}

void peak_emit_verilog(const PeakSpec *s, FILE *f)
{
	Emit e = { s, &s->g, { 0 }, NULL, NULL };
	vw_init(&e.w, f);
	int n = s->g.nodes.len;
	e.live = xcalloc((size_t)n + 1, 1);
	e.ref = xcalloc((size_t)n + 1, sizeof(char *));
	mark_live(&e);
	const char *base = strrchr(s->file, '/');
	vw_line(&e.w, "// Generated by peak from %s; do not edit.", base ? base + 1 : s->file);
	vw_line(&e.w, "// PE '%s': %d-bit instruction, %d inputs, %d outputs, %d state variables.",
		s->name, s->inst_width, s->nports[PEAK_INPUT], s->nports[PEAK_OUTPUT],
		s->nports[PEAK_STATE]);
	vw_line(&e.w, "`default_nettype none");
	emit_ports(&e);
	vw_indent(&e.w);
	emit_fields(&e);
	emit_state_decls(&e);
	emit_nodes(&e);
	emit_outputs_and_state(&e);
	emit_unused(&e);
	vw_dedent(&e.w);
	vw_line(&e.w, "endmodule");
	vw_line(&e.w, "`default_nettype wire");
	for (int i = 0; i < n; i++)
		free(e.ref[i]);
	free(e.ref);
	free(e.live);
}
