/* lake_tb.c - `lake tb INFO -o DIR`: the Verilog test bench of a memory tile.
 * It instantiates `<mem>` of `<mem>.v`, replays the bench files of `lake
 * vectors` (config.hex, inputs.hex; named by the plusargs +config=, +inputs=)
 * in the sequence of lake/COLLATERAL.md ("Bench files": rst for 2 cycles, one
 * configuration write per cycle, flush for 1 cycle, then one cycle per input
 * line) and writes the per-cycle trace (+trace=) in the format of
 * expected.trace, reading the cycle counter and the per-port signals through
 * hierarchical references. It needs Verilator's timing support:
 *     verilator --binary <mem>.v <mem>_tb.v --top-module <mem>_tb
 * Only the collateral is read, as for the compiler. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/diag.h"
#include "../collateral/meminfo.h"
#include "../common/util.h"
#include "../common/vwrite.h"
#include "lake_cmds.h"

static const char tb_usage[] =
	"usage: lake tb DIR/<mem>.info.yaml -o OUTDIR [--tiles N] [-q]\n"
	"  writes OUTDIR/<mem>_tb.v, a Verilog bench for <mem>.v that replays the files of\n"
	"  `lake vectors` and writes the trace in the format of expected.trace:\n"
	"    verilator --binary -j 2 <mem>.v <mem>_tb.v --top-module <mem>_tb\n"
	"    obj_dir/V<mem>_tb +config=RUN/config.hex +inputs=RUN/inputs.hex +trace=RUN/verilog.trace\n"
	"  --tiles N chains N tiles (tile k-1's outputs drive tile k's chain inputs; a\n"
	"  configuration write goes to the tile in address bits 15:8) for the chain scenario.\n";

/* The signals the sequence drives itself. */
static int is_control(const char *name)
{
	static const char *const names[] = { "clk", "rst", "flush", "config_addr", "config_data",
					     "config_wr", NULL };
	for (int i = 0; names[i]; i++)
		if (strcmp(names[i], name) == 0)
			return 1;
	return 0;
}

/* The instance name of tile k: `dut` alone, dut0, dut1, ... in a chain. */
static const char *dut(const MemInfo *mi, int tiles, int k)
{
	return tiles == 1 ? "dut" : arena_printf(mi->arena, "dut%d", k);
}

/* The net of signal `name` of tile k: the bench's own for one tile; in a
 * chain, inputs are shared, outputs are t<k>_<name>, and the chain inputs of
 * tile k > 0 are tile k-1's outputs. */
static const char *net(const MemInfo *mi, int tiles, int k, const MemSignal *s)
{
	if (tiles == 1 || is_control(s->name) || (s->input && s->role == ROLE_SEQUENCE))
		return s->name;
	if (!s->input)
		return arena_printf(mi->arena, "t%d_%s", k, s->name);
	if (k == 0)
		return s->name;
	/* <out>_chain_in <- t<k-1>_<out>, <out>_chain_valid_in <- t<k-1>_<out>_valid */
	const char *suffix = strstr(s->name, "_chain_valid_in") ? "_chain_valid_in" : "_chain_in";
	size_t base = strlen(s->name) - strlen(suffix);
	return arena_printf(mi->arena, "t%d_%.*s%s", k - 1, (int)base, s->name,
			    strcmp(suffix, "_chain_in") == 0 ? "" : "_valid");
}

/* Declarations of the stimulus registers, the outputs and the tiles. In a
 * chain, configuration writes go to the tile whose index is in address bits
 * 15:8 (the x field). */
static void tb_decls(const MemInfo *mi, VWriter *w, int tiles)
{
	char r[32];
	vw_line(w, "reg clk = 1'b0;");
	vw_line(w, "reg rst = 1'b1, flush = 1'b0, config_wr = 1'b0;");
	vw_line(w, "reg [31:0] config_addr = 32'h0, config_data = 32'h0;");
	for (int i = 0; i < mi->nsignals; i++) {
		const MemSignal *s = &mi->signals[i];
		if (is_control(s->name))
			continue;
		if (s->input)
			vw_line(w, "reg  %s%s = %d'h0;", vw_range(r, s->width), s->name, s->width);
		for (int k = 0; !s->input && k < tiles; k++)
			vw_line(w, "wire %s%s;", vw_range(r, s->width), net(mi, tiles, k, s));
	}
	for (int k = 0; k < tiles; k++) {
		if (tiles > 1)
			vw_line(w, "wire %s_wr = config_wr && config_addr[15:8] == 8'd%d;", dut(mi, tiles, k), k);
		vw_line(w, "%s %s (", mi->name, dut(mi, tiles, k));
		vw_indent(w);
		for (int i = 0; i < mi->nsignals; i++) {
			const MemSignal *s = &mi->signals[i];
			const char *n = tiles > 1 && strcmp(s->name, "config_wr") == 0
					? arena_printf(mi->arena, "%s_wr", dut(mi, tiles, k)) : net(mi, tiles, k, s);
			vw_line(w, ".%s(%s)%s", s->name, n, i + 1 < mi->nsignals ? "," : "");
		}
		vw_dedent(w);
		vw_line(w, ");");
	}
}

/* SRAM contents are not reset; the bench starts them at 0 as the model does. */
static void tb_clear_srams(const MemInfo *mi, VWriter *w, int tiles)
{
	for (int u = 0; u < mi->nunits; u++) {
		const MemUnitInfo *un = &mi->units[u];
		if (un->kind != MEM_SRAM)
			continue;
		vw_line(w, "for (i = 0; i < %d; i = i + 1) begin", un->words / un->fetch);
		for (int k = 0; k < tiles; k++)
			vw_line(w, "    %s.%s_storage.macro.mem[i] = %d'h0;", dut(mi, tiles, k), un->name,
				un->fetch * mi->word);
		vw_line(w, "end");
	}
}

/* Tokens of a line of inputs.hex: each input, then with chaining each
 * output's chain_in word and chain_valid_in bit. */
static int tb_tokens(const MemInfo *mi)
{
	return mi->nins + (mi->chain ? 2 * mi->nouts : 0);
}

static void tb_assign_token(const MemInfo *mi, VWriter *w, int k)
{
	const char *name;
	int width = mi->word;
	if (k < mi->nins)
		name = mi->ins[k];
	else if ((k - mi->nins) % 2 == 0)
		name = arena_printf(mi->arena, "%s_chain_in", mi->outs[(k - mi->nins) / 2]);
	else {
		name = arena_printf(mi->arena, "%s_chain_valid_in", mi->outs[(k - mi->nins) / 2]);
		width = 1;
	}
	if (width == 1)
		vw_line(w, "%s = tok%d[0];", name, k);
	else
		vw_line(w, "%s = tok%d[%d:0];", name, k, width - 1);
}

/* Reads the next line of inputs.hex (ok = 0 at the end of the file) and
 * applies it. The tokens go through tok<k>: a signal that $fscanf wrote
 * directly would not wake the tile's combinational logic in Verilator 5.006.
 * A tile without inputs or chaining has empty lines, counted by $fgets. */
static void tb_read_inputs(const MemInfo *mi, VWriter *w)
{
	int n = tb_tokens(mi);
	if (!n) {
		vw_line(w, "ok = $fgets(line, fd_inputs) != 0;");
		return;
	}
	for (int k = 0; k < n; k++)
		vw_line(w, "ok = %s$fscanf(fd_inputs, \"%%h\", tok%d) == 1;", k ? "ok && " : "", k);
	for (int k = 0; k < n; k++)
		tb_assign_token(mi, w, k);
}

/* The trace line of a cycle: t, then every storage port, then every output;
 * in a chain the tiles' lines joined by " | ". */
static void tb_trace_line(const MemInfo *mi, VWriter *w, int tiles)
{
	for (int k = 0; k < tiles; k++) {
		const char *d = dut(mi, tiles, k);
		vw_line(w, "$fwrite(fd_trace, \"%s%%h\", %s.cycle);", k ? " | " : "", d);
		for (int u = 0; u < mi->nunits; u++)
			for (int p = 0; p < mi->units[u].nports; p++) {
				const char *un = mi->units[u].name, *pn = mi->units[u].ports[p].name;
				vw_line(w, "$fwrite(fd_trace, \" %s_%s:%%h%%h:%%h:%%h\", %s.%s_%s_ren, %s.%s_%s_wen,", un,
					pn, d, un, pn, d, un, pn);
				vw_line(w, "    %s.%s_%s_addr, %s.%s_%s_wdata);", d, un, pn, d, un, pn);
			}
		for (int o = 0; o < mi->nouts; o++) {
			const char *out = tiles == 1 ? mi->outs[o] : arena_printf(mi->arena, "t%d_%s", k, mi->outs[o]);
			vw_line(w, "$fwrite(fd_trace, \" %s:%%h:%%h\", %s_valid, %s);", mi->outs[o], out, out);
		}
	}
	vw_line(w, "$fwrite(fd_trace, \"\\n\");");
}

/* Opens the file named by a plusarg (or its default) or stops the bench. */
static void tb_open(VWriter *w, const char *var, const char *plusarg, const char *dflt, const char *mode)
{
	vw_line(w, "if (!$value$plusargs(\"%s=%%s\", path)) path = \"%s\";", plusarg, dflt);
	vw_line(w, "%s = $fopen(path, \"%s\");", var, mode);
	vw_line(w, "if (%s == 0) begin", var);
	vw_line(w, "    $display(\"%%m: cannot open %%0s\", path);");
	vw_line(w, "    $finish;");
	vw_line(w, "end");
}

/* rst for 2 cycles, the configuration writes, flush for 1 cycle, then the
 * inputs; stimulus changes at falling edges, the trace is sampled just before
 * the rising edge that ends the cycle. */
static void tb_sequence(const MemInfo *mi, VWriter *w, int tiles)
{
	vw_line(w, "initial begin");
	vw_indent(w);
	tb_open(w, "fd_config", "config", "config.hex", "r");
	tb_open(w, "fd_inputs", "inputs", "inputs.hex", "r");
	tb_open(w, "fd_trace", "trace", "verilog.trace", "w");
	tb_clear_srams(mi, w, tiles);
	vw_line(w, "@(negedge clk);");
	vw_line(w, "@(negedge clk);");
	vw_line(w, "rst = 1'b0;");
	vw_line(w, "while ($fscanf(fd_config, \"%%h %%h\\n\", addr, data) == 2) begin");
	vw_line(w, "    config_wr = 1'b1;");
	vw_line(w, "    config_addr = addr;");
	vw_line(w, "    config_data = data;");
	vw_line(w, "    @(negedge clk);");
	vw_line(w, "end");
	vw_line(w, "config_wr = 1'b0;");
	vw_line(w, "flush = 1'b1;");
	vw_line(w, "@(negedge clk);");
	vw_line(w, "flush = 1'b0;");
	tb_read_inputs(mi, w);
	vw_line(w, "while (ok) begin");
	vw_indent(w);
	vw_line(w, "#4;");
	tb_trace_line(mi, w, tiles);
	vw_line(w, "cycles = cycles + 1;");
	vw_line(w, "@(negedge clk);");
	tb_read_inputs(mi, w);
	vw_dedent(w);
	vw_line(w, "end");
	vw_line(w, "$fclose(fd_trace);");
	vw_line(w, "$display(\"%s bench: %%0d cycles\", cycles);", mi->name);
	vw_line(w, "$finish;");
	vw_dedent(w);
	vw_line(w, "end");
}

/* The bench's own variables and its clock (period 10). */
static void tb_locals(const MemInfo *mi, VWriter *w)
{
	vw_line(w, "reg [8*1000-1:0] path;  /* a file name of up to 1000 characters */");
	vw_line(w, "reg [31:0] addr, data;");
	vw_line(w, "integer fd_config, fd_inputs, fd_trace, cycles = 0;");
	for (int u = 0; u < mi->nunits; u++)
		if (mi->units[u].kind == MEM_SRAM) {
			vw_line(w, "integer i;");
			break;
		}
	vw_line(w, "reg ok;");
	vw_line(w, "/* verilator lint_off UNUSEDSIGNAL */");
	for (int k = 0; k < tb_tokens(mi); k++)
		vw_line(w, "reg [63:0] tok%d;  /* a hex token of inputs.hex */", k);
	vw_line(w, "/* verilator lint_on UNUSEDSIGNAL */");
	if (!tb_tokens(mi))
		vw_line(w, "reg [8*8-1:0] line;");
	vw_line(w, "/* verilator lint_off BLKSEQ */");
	vw_line(w, "always #5 clk = ~clk;");
	vw_line(w, "/* verilator lint_on BLKSEQ */");
}

static void write_tb(const MemInfo *mi, FILE *f, int tiles)
{
	VWriter w;
	vw_init(&w, f);
	vw_line(&w, "// Generated by lake tb; do not edit. The bench of memory tile '%s': replays", mi->name);
	vw_line(&w, "// config.hex and inputs.hex (lake vectors) and writes the trace in the format of");
	vw_line(&w, "// expected.trace (lake/COLLATERAL.md, \"Bench files\").");
	vw_line(&w, "// Build: verilator --binary -j 2 %s.v %s_tb.v --top-module %s_tb", mi->name, mi->name,
		mi->name);
	vw_line(&w, "// Run:   obj_dir/V%s_tb +config=RUN/config.hex +inputs=RUN/inputs.hex", mi->name);
	vw_line(&w, "//            +trace=RUN/verilog.trace");
	vw_line(&w, "module %s_tb;", mi->name);
	vw_indent(&w);
	tb_decls(mi, &w, tiles);
	tb_locals(mi, &w);
	tb_sequence(mi, &w, tiles);
	vw_dedent(&w);
	vw_line(&w, "endmodule");
}

typedef struct TbOpts {
	const char *info, *out;
	int quiet;
	int tiles;
} TbOpts;

static int parse_tb_opts(int argc, char **argv, TbOpts *o)
{
	memset(o, 0, sizeof *o);
	o->tiles = 1;
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "-o") == 0 && i + 1 < argc)
			o->out = argv[++i];
		else if (strcmp(argv[i], "--tiles") == 0 && i + 1 < argc)
			o->tiles = (int)util_option_number("lake", "--tiles", argv[++i], 1, 16);
		else if (strcmp(argv[i], "-q") == 0)
			o->quiet = 1;
		else if (argv[i][0] != '-' && !o->info)
			o->info = argv[i];
		else {
			fprintf(stderr, "lake: tb: unexpected argument '%s' (see lake tb --help)\n", argv[i]);
			return 0;
		}
	}
	if (!o->info || !o->out) {
		fputs(tb_usage, stderr);
		return 0;
	}
	return 1;
}

int lake_cmd_tb(int argc, char **argv)
{
	TbOpts o;
	for (int i = 1; i < argc; i++)
		if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
			fputs(tb_usage, stdout);
			return 0;
		}
	if (!parse_tb_opts(argc, argv, &o))
		return 2;
	MemInfo *mi = lake_load_info(o.info);
	if (!mi)
		return 1;
	if (o.tiles > 1 && !mi->chain) {
		fprintf(stderr, "lake: tb: --tiles %d chains tiles and %s has no chaining\n", o.tiles, mi->name);
		meminfo_free(mi);
		return 1;
	}
	if (util_mkdir_p(o.out) != 0) {
		fprintf(stderr, "lake: cannot create '%s': %s\n", o.out, strerror(errno));
		meminfo_free(mi);
		return 1;
	}
	char *name = xasprintf("%s_tb.v", mi->name);
	char *path = util_path_join(o.out, name);
	OutSet *set = outset_new();
	FILE *f = outset_open(set, path);
	int status = 1;
	if (!f) {
		outset_abort(set);
	} else {
		write_tb(mi, f, o.tiles);
		status = outset_commit(set) == 0 ? 0 : 1;
	}
	if (status == 0 && !o.quiet)
		printf("lake tb: %s: %d storage units, %d inputs, %d outputs -> %s\n", mi->name, mi->nunits,
		       mi->nins, mi->nouts, path);
	free(name);
	free(path);
	meminfo_free(mi);
	return status;
}
