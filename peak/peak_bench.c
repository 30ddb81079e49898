/* peak_bench.c - the Verilator bench of a PE's Verilog (verification level 1).
 * `peak vectors` writes random sequences of (instruction, inputs) from random
 * starting states with the functional model's outputs and next states;
 * `peak tb SPEC -o DIR` writes <pe>_tb.cpp, which forces each sequence's
 * starting state into the registers (Verilator's --public-flat-rw), drives
 * instruction and inputs cycle by cycle, and compares outputs and next state
 * with the model's. Reset is checked once at the start. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/bv.h"
#include "../common/rng.h"
#include "../common/util.h"
#include "peak.h"
#include "peak_bench.h"
#include "peak_eval.h"

/* ---- peak vectors ---- */

/* A random value for a port: enum fields mostly hold declared codes, and
 * plain values lean towards the edges (0, all ones, small shift amounts). */
static uint64_t random_port(Rng *rng, const PeakSpec *s, const PeakPort *p)
{
	if (p->type.enum_id >= 0 && rng_below(rng, 10) != 0) {
		const PeakEnum *e = &s->enums[p->type.enum_id];
		return e->codes[rng_below(rng, (uint64_t)e->n)];
	}
	switch (rng_below(rng, 6)) {
	case 0:
		return 0;
	case 1:
		return bv_mask(p->type.width);
	case 2:
		return bv_trunc(rng_below(rng, (uint64_t)p->type.width + 2), p->type.width);
	default:
		return rng_bits(rng, p->type.width);
	}
}

static void randomize(Rng *rng, const PeakSpec *s, int cls, uint64_t *v)
{
	for (int i = 0; i < s->nports[cls]; i++)
		v[i] = random_port(rng, s, &s->ports[cls][i]);
}

static void print_hex_list(FILE *f, const PeakSpec *s, int cls, const uint64_t *v)
{
	char hex[24];
	for (int i = 0; i < s->nports[cls]; i++) {
		bv_format_hex(hex, v[i], s->ports[cls][i].type.width);
		fprintf(f, " %s", hex);
	}
}

/* The state of writing vectors: the model's values and scratch space. */
typedef struct VecWriter {
	const PeakSpec *s;
	FILE *f;
	Rng rng;
	PeakValues pv;
	uint64_t *next, *scratch, *words;
	char *hex;
} VecWriter;

/* One cycle: random instruction and inputs, the model's outputs and next
 * state, as a C line; the state moves on. */
static void write_cycle(VecWriter *w)
{
	const PeakSpec *s = w->s;
	randomize(&w->rng, s, PEAK_FIELD, w->pv.v[PEAK_FIELD]);
	randomize(&w->rng, s, PEAK_INPUT, w->pv.v[PEAK_INPUT]);
	peak_eval(s, &w->pv, w->next, w->scratch);
	peak_pack_inst(s, w->pv.v[PEAK_FIELD], w->words);
	bits_format_hex(w->hex, w->words, s->inst_width);
	fprintf(w->f, "C %s", w->hex);
	print_hex_list(w->f, s, PEAK_INPUT, w->pv.v[PEAK_INPUT]);
	print_hex_list(w->f, s, PEAK_OUTPUT, w->pv.v[PEAK_OUTPUT]);
	print_hex_list(w->f, s, PEAK_STATE, w->next);
	fprintf(w->f, "\n");
	memcpy(w->pv.v[PEAK_STATE], w->next, (size_t)s->nports[PEAK_STATE] * sizeof(uint64_t));
}

static void write_vectors(const PeakSpec *s, FILE *f, int count, int cycles, uint64_t seed)
{
	VecWriter w = { s, f, { { 0 } }, { { 0 } }, NULL, NULL, NULL, NULL };
	rng_seed(&w.rng, seed);
	peak_values_init(&w.pv, s);
	w.next = xcalloc((size_t)s->nports[PEAK_STATE] + 1, sizeof(uint64_t));
	w.scratch = xcalloc((size_t)s->g.nodes.len + 1, sizeof(uint64_t));
	w.words = xcalloc((size_t)BITS_WORDS(s->inst_width) + 1, sizeof(uint64_t));
	w.hex = xmalloc((size_t)s->inst_width / 4 + 8);
	fprintf(f, "# peak vectors for %s: %d sequences of %d cycles, seed %llu\n", s->name, count,
		cycles, (unsigned long long)seed);
	fprintf(f, "# S state... | C inst inputs... outputs... next-state... (hex)\n");
	for (int n = 0; n < count; n++) {
		randomize(&w.rng, s, PEAK_STATE, w.pv.v[PEAK_STATE]);
		fprintf(f, "S");
		print_hex_list(f, s, PEAK_STATE, w.pv.v[PEAK_STATE]);
		fprintf(f, "\n");
		for (int c = 0; c < cycles; c++)
			write_cycle(&w);
	}
	free(w.hex);
	free(w.words);
	free(w.next);
	free(w.scratch);
	peak_values_free(&w.pv);
}

int peak_vectors(const char *spec, const char *out, int count, int cycles, uint64_t seed)
{
	Diags *d = diags_new(stderr);
	PeakFile *pf = peak_load(spec, d);
	int status = 1;
	if (pf && pf->specs[0]->kind != PEAK_PE) {
		fprintf(stderr, "peak: %s is not a PE spec\n", spec);
	} else if (pf && !out) {
		write_vectors(pf->specs[0], stdout, count, cycles, seed);
		status = 0;
	} else if (pf) {
		OutSet *set = outset_new();
		FILE *f = outset_open(set, out);
		if (f) {
			write_vectors(pf->specs[0], f, count, cycles, seed);
			status = outset_commit(set) == 0 ? 0 : 1;
		} else {
			outset_abort(set);
		}
	}
	peak_file_free(pf);
	diags_free(d);
	return status;
}

/* ---- peak tb ---- */

static const char prologue[] =
	"#include <cstdint>\n"
	"#include <cstdio>\n"
	"#include <cstdlib>\n"
	"#include <cstring>\n"
	"#include \"verilated.h\"\n"
	"\n"
	"// Hex text to 32-bit words, least significant first.\n"
	"static void parse_hex(const char *s, uint32_t *w, int nwords) {\n"
	"    memset(w, 0, sizeof(uint32_t) * nwords);\n"
	"    int n = (int)strlen(s);\n"
	"    for (int i = 0; i < n; i++) {\n"
	"        char c = s[n - 1 - i];\n"
	"        uint32_t d = c <= '9' ? c - '0' : (c | 32) - 'a' + 10;\n"
	"        if (i / 8 < nwords) w[i / 8] |= d << (4 * (i % 8));\n"
	"    }\n"
	"}\n"
	"static uint64_t w64(const uint32_t *w) { return w[0] | ((uint64_t)w[1] << 32); }\n"
	"\n";

/* The C++ name of a register inside the Verilated model (caller frees). */
static char *reg_name(const char *pe, const char *reg)
{
	return xasprintf("top->rootp->%s__DOT__%s", pe, reg);
}

/* The C++ name of a port of the Verilated model (caller frees). */
static char *port_name(const char *port)
{
	return xasprintf("top->%s", port);
}

/* Statements that set (or compare) a signal from a word array `w`. */
static void emit_set(FILE *f, const char *lhs, int width)
{
	if (width <= 64)
		fprintf(f, "        %s = w64(w);\n", lhs);
	else
		fprintf(f, "        for (int k = 0; k < %d; k++) %s[k] = w[k];\n", (width + 31) / 32, lhs);
}

static void emit_check(FILE *f, const char *lhs, int width, const char *what, const char *name)
{
	if (width <= 64)
		fprintf(f, "        if ((uint64_t)%s != w64(w)) bad(\"%s %s\", (uint64_t)%s, w64(w));\n", lhs,
			what, name, lhs);
	else
		fprintf(f,
			"        for (int k = 0; k < %d; k++) if (%s[k] != w[k]) bad(\"%s %s\", %s[k], w[k]);\n",
			(width + 31) / 32, lhs, what, name, lhs);
}

static void emit_token(FILE *f)
{
	fprintf(f, "        tok = strtok(NULL, \" \\n\"); if (!tok) { fmt(); continue; }\n");
	fprintf(f, "        parse_hex(tok, w, NW);\n");
}

/* The C++ file's includes, helpers and the opening of main. */
static void tb_prologue(const PeakSpec *s, FILE *f)
{
	const char *pe = s->name;
	int nw = (s->inst_width + 31) / 32 + 2;
	const char *base = strrchr(s->file, '/');
	fprintf(f, "// Generated by peak tb from %s; do not edit.\n", base ? base + 1 : s->file);
	fprintf(f, "// usage: V%s VECTORS  (from `peak vectors`)\n", pe);
	fprintf(f, "#include \"V%s.h\"\n#include \"V%s___024root.h\"\n", pe, pe);
	fputs(prologue, f);
	fprintf(f, "#define NW %d\n", nw < 4 ? 4 : nw);
	fprintf(f, "static long g_line, g_bad, g_cycles;\n");
	fprintf(f, "static void bad(const char *what, uint64_t got, uint64_t want) {\n"
		   "    if (g_bad++ < 10) fprintf(stderr, \"line %%ld: %%s: verilog 0x%%llx, model 0x%%llx\\n\",\n"
		   "        g_line, what, (unsigned long long)got, (unsigned long long)want);\n}\n");
	fprintf(f, "static void fmt() { fprintf(stderr, \"line %%ld: malformed vector\\n\", g_line); exit(2); }\n");
	fprintf(f, "int main(int argc, char **argv) {\n");
	fprintf(f, "    if (argc < 2) { fprintf(stderr, \"usage: %%s VECTORS\\n\", argv[0]); return 2; }\n");
	fprintf(f, "    FILE *in = fopen(argv[1], \"r\");\n");
	fprintf(f, "    if (!in) { perror(argv[1]); return 2; }\n");
	fprintf(f, "    VerilatedContext *ctx = new VerilatedContext;\n");
	fprintf(f, "    V%s *top = new V%s{ctx};\n", pe, pe);
	fprintf(f, "    uint32_t w[NW];\n    static char line[1 << 16];\n    char *tok;\n");
}

/* One reset cycle, then every register compared with its reset value. */
static void tb_reset_check(const PeakSpec *s, FILE *f)
{
	fprintf(f, "    top->rst = 1; top->clk = 0; top->eval(); top->clk = 1; top->eval(); top->clk = 0;\n");
	fprintf(f, "    top->rst = 0; top->eval();\n");
	fprintf(f, "    {\n");
	for (int i = 0; i < s->nports[PEAK_STATE]; i++) {
		const PeakPort *p = &s->ports[PEAK_STATE][i];
		fprintf(f, "        memset(w, 0, sizeof w); w[0] = (uint32_t)%lluULL; w[1] = (uint32_t)(%lluULL >> 32);\n",
			(unsigned long long)p->reset, (unsigned long long)p->reset);
		char *lhs = reg_name(s->name, p->name);
		emit_check(f, lhs, p->type.width, "reset value of", p->name);
		free(lhs);
	}
	fprintf(f, "    }\n");
}

typedef enum { TB_SET, TB_CHECK } TbAction;

/* For each port of class cls: read the next vector token, then set the
 * signal from it or compare the signal with it. */
static void tb_ports(const PeakSpec *s, FILE *f, int cls, TbAction act, const char *what)
{
	for (int i = 0; i < s->nports[cls]; i++) {
		const PeakPort *p = &s->ports[cls][i];
		char *lhs = cls == PEAK_STATE ? reg_name(s->name, p->name) : port_name(p->name);
		emit_token(f);
		if (act == TB_SET)
			emit_set(f, lhs, p->type.width);
		else
			emit_check(f, lhs, p->type.width, what, p->name);
		free(lhs);
	}
}

/* The loop over vector lines: S lines load a state, C lines run a cycle. */
static void tb_loop(const PeakSpec *s, FILE *f)
{
	fprintf(f, "    while (fgets(line, sizeof line, in)) {\n        g_line++;\n");
	fprintf(f, "        tok = strtok(line, \" \\n\");\n");
	fprintf(f, "        if (!tok || tok[0] == '#') continue;\n");
	fprintf(f, "        if (tok[0] == 'S') {\n");
	tb_ports(s, f, PEAK_STATE, TB_SET, NULL);
	fprintf(f, "        top->eval();\n        continue;\n        }\n");
	fprintf(f, "        if (tok[0] != 'C') fmt();\n");
	emit_token(f);
	emit_set(f, "top->inst", s->inst_width);
	tb_ports(s, f, PEAK_INPUT, TB_SET, NULL);
	fprintf(f, "        top->clk = 0; top->eval();\n");
	tb_ports(s, f, PEAK_OUTPUT, TB_CHECK, "output");
	fprintf(f, "        top->clk = 1; top->eval(); top->clk = 0; top->eval();\n");
	tb_ports(s, f, PEAK_STATE, TB_CHECK, "next state");
	fprintf(f, "        g_cycles++;\n    }\n");
}

static void tb_epilogue(const PeakSpec *s, FILE *f)
{
	const char *pe = s->name;
	fprintf(f, "    fclose(in);\n    top->final();\n    delete top;\n    delete ctx;\n");
	fprintf(f, "    printf(\"%s bench: %%ld vectors, %%ld mismatches\\n\", g_cycles, g_bad);\n", pe);
	fprintf(f, "    printf(\"%s bench: %%ld passed, %%ld failed\\n\", g_bad ? 0L : 1L, g_bad ? 1L : 0L);\n", pe);
	fprintf(f, "    return g_bad || g_cycles == 0 ? 1 : 0;\n}\n");
}

static void write_tb(const PeakSpec *s, FILE *f)
{
	tb_prologue(s, f);
	tb_reset_check(s, f);
	tb_loop(s, f);
	tb_epilogue(s, f);
}

int peak_tb(const char *spec, const char *dir)
{
	Diags *d = diags_new(stderr);
	PeakFile *f = peak_load(spec, d);
	int status = 1;
	if (f && f->specs[0]->kind != PEAK_PE)
		fprintf(stderr, "peak: %s is not a PE spec\n", spec);
	else if (f && util_mkdir_p(dir) == 0) {
		const PeakSpec *s = f->specs[0];
		char *name = xasprintf("%s_tb.cpp", s->name);
		char *path = util_path_join(dir, name);
		OutSet *set = outset_new();
		FILE *out = outset_open(set, path);
		if (out) {
			write_tb(s, out);
			status = outset_commit(set) == 0 ? 0 : 1;
		} else {
			outset_abort(set);
		}
		free(name);
		free(path);
	}
	peak_file_free(f);
	diags_free(d);
	return status;
}
