/* fuzz_design.c - libFuzzer harness of design.yaml's reader
 * (collateral/design.h): the input is the manifest, read by
 * design_load_string as the compiler and verif read it from a design's
 * folder; a manifest that loads is walked as they walk it: every tile's
 * kind, the path of every file it names. Diagnostics go to a sink
 * (fuzz.h). */
#include "fuzz.h"

#include "../collateral/design.h"

static void walk(const Design *m)
{
	int io = 0;
	for (int y = 0; y < m->rows; y++)
		for (int x = 0; x < m->cols; x++) {
			char k = design_tile(m, x, y);
			FUZZ_CHECK(k == 'I' || k == 'P' || (k == 'M' && m->mem.name), "tile (%d, %d) of kind '%c'", x,
				   y, k);
			io += k == 'I';
		}
	FUZZ_CHECK(io == m->cols, "%d IO tiles in %d columns", io, m->cols);
	const char *files[] = { m->pe.info, m->pe.verilog, m->mem.info, m->mem.verilog, m->verilog, m->graph_file,
				m->config_file };
	for (size_t i = 0; i < sizeof files / sizeof *files; i++)
		if (files[i])
			design_path(m, files[i]);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	Diags *d = fuzz_diags();
	char *text = fuzz_text(d, "design/design.yaml", data, size);
	int loaded;
	Design *m = text ? design_load_string("design", text, &loaded, d) : NULL;
	if (m)
		walk(m);
	design_free(m);
	diags_free(d);
	free(text);
	return 0;
}
